-- 015_batch_commit.sql - nothing runs per move in PostgreSQL but the rows of
-- the group commit's batch statement (server/store/store.c, BATCH_SQL):
--   * no trigger on a version change: the 'version' fact of the outbox
--     (sql/006_notifications.sql, sql/011_notify_quiet_games.sql) is a row
--     of the batch statement, written only for a game one of whose seated
--     players has a channel, which the server knows in memory
--     (server/notify/notify_listened.h). The trigger read player-keyed
--     tables (webhooks, settings) from a game-keyed write; the batch does
--     not. 'started' facts (a game's insert) and 'replaced' facts stay.
--   * no foreign-key checks on the tables every move writes (game_inputs,
--     turns_waiting, deadlines, seat_windows): the batch writes them only
--     for the games whose version it moved, so the game exists, and
--     seat_windows takes its player from the game's seat; players and
--     games are never deleted; the primary key
--     (game_id, seq) stays the check between processes. Integrity is kept
--     by tests/integration/schema_rules.test.mjs (no orphan rows after
--     play) and docs/scaling.md.
DROP TRIGGER games_notify_version ON games;
ALTER TABLE game_inputs DROP CONSTRAINT game_inputs_game_id_fkey;
ALTER TABLE turns_waiting DROP CONSTRAINT turns_waiting_game_id_fkey;
ALTER TABLE deadlines DROP CONSTRAINT deadlines_game_id_fkey;
ALTER TABLE seat_windows DROP CONSTRAINT seat_windows_game_id_fkey;
ALTER TABLE seat_windows DROP CONSTRAINT seat_windows_player_id_fkey;

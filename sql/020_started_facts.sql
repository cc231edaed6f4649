-- 020_started_facts.sql - no 'started' fact for a game nobody can be told of.
-- The 'version' facts are written by the group commit's batch statement only
-- for a game one of whose seated players has a channel (sql/015_batch_commit.sql,
-- server/notify/notify_listened.h); the 'started' fact of a new game was still
-- written by a PL/pgSQL trigger for every game, and the notifier claimed and
-- dropped it. The game's creation now writes it, in the same statement, when
-- the server knows a seated player listens (server/store/store.c,
-- store_create_game; server/lobby/lobby_change.c sets store_game.listened).
DROP TRIGGER games_notify_insert ON games;
DROP FUNCTION notify_fact_game();

-- 019_running_seats.sql - the running-games quota reads only running games.
-- A game's start counts the host's running games of its kind
-- (server/lobby/lobby_change.c, GAME_QUOTA_COUNT). It went through every seat
-- the host ever held and probed each game's row, so its cost grew with the
-- player's history (241 shared blocks a call for a player with 200 finished
-- games: docs/performance.md, run 13). game_seats.running says whether the
-- seat's game still runs: true when the game is created (it starts running),
-- set false by the batch that ends it (server/store/store.c, ENDS_SQL), the
-- only statement that changes a game's status. The partial index holds only
-- running seats, so a count reads the player's running games and no others.
ALTER TABLE game_seats ADD COLUMN running boolean NOT NULL DEFAULT true;
UPDATE game_seats s SET running = false
FROM games g
WHERE g.game_id = s.game_id AND g.status <> 'running';
CREATE INDEX game_seats_running ON game_seats (player_id) WHERE running;

-- 018_rematch_lookups.sql - game_rematches is keyed by the finished game, but
-- it is also read by the rematch lobby: every lobby read asks whether its
-- lobby is a rematch still held back by a spectator delay
-- (server/lobby/lobby.c, HELD_SQL: `r.lobby_id = l.id`), and the hub's sweep
-- asks for the rematches made in the last day (lobby_released:
-- `r.made_at > ...`). Without an index either is a scan of every rematch
-- ever made: with 33,000 rematches one lobby read took 12.5 ms, and a lobby
-- list runs the lookup once per lobby listed (docs/performance.md, run 13).
CREATE INDEX game_rematches_lobby ON game_rematches (lobby_id);
CREATE INDEX game_rematches_made ON game_rematches (made_at);

-- 008_idle_seats.sql - when each player was last seen making an
-- authenticated request (server/tokens.c refreshes it, at most every few
-- seconds; taking a lobby seat sets it), so the scheduler can release the
-- seats of players who went idle in open lobbies (server/idle_seats.c).
-- Existing players count as seen now.
ALTER TABLE players ADD COLUMN last_seen timestamptz NOT NULL DEFAULT now();

-- A spectator delay per lobby and game (server/spectate.c): spectators see
-- a running game only once a version is delay_versions versions old and
-- delay_seconds seconds old; 0 and 0 mean live.
ALTER TABLE lobbies
    ADD COLUMN delay_versions integer NOT NULL DEFAULT 0
        CHECK (delay_versions BETWEEN 0 AND 1000),
    ADD COLUMN delay_seconds integer NOT NULL DEFAULT 0
        CHECK (delay_seconds BETWEEN 0 AND 86400);
ALTER TABLE games
    ADD COLUMN delay_versions integer NOT NULL DEFAULT 0
        CHECK (delay_versions BETWEEN 0 AND 1000),
    ADD COLUMN delay_seconds integer NOT NULL DEFAULT 0
        CHECK (delay_seconds BETWEEN 0 AND 86400);

-- 009_rematch.sql - the rematch lobby of a finished game (server/rematch.c):
-- one per game, its row written in the same transaction as the lobby, so
-- two players who ask at once share one lobby (the second insert finds the
-- key taken and its lobby is rolled back). A game table keyed by game_id
-- (docs/scaling.md); lobby_id is not a foreign key, so lobbies stay free of
-- game tables.
CREATE TABLE game_rematches (
    game_id  text PRIMARY KEY REFERENCES games (game_id) ON DELETE CASCADE,
    lobby_id text NOT NULL,
    made_at  timestamptz NOT NULL DEFAULT now()
);

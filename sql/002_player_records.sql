-- Per-player, per-ruleset records kept across games (a ruleset's record
-- hook makes them: the Galactic Sprint campaign is one). Written by
-- server/records.c in the transaction that records a game's end.
CREATE TABLE player_records (
    player_id  text NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    ruleset    text NOT NULL,
    record     jsonb NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (player_id, ruleset)
);

-- 001_init.sql - the first schema: players and sessions, lobbies, games and
-- their inputs, snapshots and deadlines.
--
-- Every per-game table leads its key with game_id, so the schema can be
-- distributed by game (e.g. Citus) without change. Game state is never
-- stored directly: it is derived from game_inputs (plus snapshots).

CREATE TABLE players (
    id            text PRIMARY KEY,
    name          text NOT NULL UNIQUE
                  CHECK (name ~ '^[A-Za-z0-9_-]{3,24}$'),
    password_hash bytea,              -- scrypt; NULL for a guest
    password_salt bytea,
    campaign      jsonb NOT NULL DEFAULT '{}'::jsonb, -- Sprint campaign progress
    created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX players_name_lower ON players (lower(name));

CREATE TABLE tokens (
    token_hash bytea PRIMARY KEY,     -- SHA-256 of the bearer token
    player_id  text NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    revoked_at timestamptz
);
CREATE INDEX tokens_player ON tokens (player_id);

CREATE TABLE lobbies (
    id            text PRIMARY KEY,
    ruleset       text NOT NULL,
    options       jsonb NOT NULL DEFAULT '{}'::jsonb,
    host_id       text NOT NULL REFERENCES players (id),
    private       boolean NOT NULL DEFAULT false,
    invite_code   text,
    clock_mode    text NOT NULL DEFAULT 'none'
                  CHECK (clock_mode IN ('none', 'live', 'async')),
    clock_seconds integer NOT NULL DEFAULT 0 CHECK (clock_seconds >= 0),
    seat_count    integer NOT NULL CHECK (seat_count BETWEEN 1 AND 8),
    status        text NOT NULL DEFAULT 'open'
                  CHECK (status IN ('open', 'started', 'closed')),
    game_id       text,
    version       bigint NOT NULL DEFAULT 0,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX lobbies_open ON lobbies (status, ruleset, created_at);

CREATE TABLE lobby_seats (
    lobby_id  text NOT NULL REFERENCES lobbies (id) ON DELETE CASCADE,
    seat      integer NOT NULL,
    player_id text REFERENCES players (id),
    bot       text,
    PRIMARY KEY (lobby_id, seat),
    CHECK (player_id IS NULL OR bot IS NULL)
);
CREATE INDEX lobby_seats_player ON lobby_seats (player_id);

CREATE TABLE games (
    game_id       text PRIMARY KEY,
    lobby_id      text,
    ruleset       text NOT NULL,
    options       jsonb NOT NULL DEFAULT '{}'::jsonb,
    seat_count    integer NOT NULL,
    seed          bytea NOT NULL,     -- secret until the game ends
    seed_sha256   text NOT NULL,      -- published at start
    clock_mode    text NOT NULL DEFAULT 'none',
    clock_seconds integer NOT NULL DEFAULT 0,
    status        text NOT NULL DEFAULT 'running'
                  CHECK (status IN ('running', 'finished', 'aborted')),
    version       bigint NOT NULL DEFAULT 0, -- = number of inputs
    result        jsonb,
    final_hash    text,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE game_seats (
    game_id   text NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    seat      integer NOT NULL,
    player_id text REFERENCES players (id),
    bot       text,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_seats_player ON game_seats (player_id);

-- Every accepted input, in order. seq starts at 1 and is gapless per game;
-- games.version equals the last seq.
CREATE TABLE game_inputs (
    game_id      text NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    seq          bigint NOT NULL CHECK (seq >= 1),
    seat         integer,                 -- NULL for timeout/system inputs
    kind         text NOT NULL
                 CHECK (kind IN ('order', 'play', 'timeout', 'system')),
    window_id    text,
    payload      text,                    -- canonical JSON, exactly as applied
    nonce        bytea,                   -- per-order receipt nonce
    idem_key     text,                    -- Idempotency-Key of a play
    request_hash bytea,                   -- SHA-256 of the request body
    response     jsonb,                   -- the answer given, for retries
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, seq)
);
CREATE UNIQUE INDEX game_inputs_idem
    ON game_inputs (game_id, seat, idem_key) WHERE idem_key IS NOT NULL;

CREATE TABLE game_snapshots (
    game_id    text NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    seq        bigint NOT NULL,           -- state after this input
    state      text NOT NULL,             -- engine_save, canonical JSON
    state_hash text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, seq)
);

-- One row per open window with a clock, written and deleted in the same
-- transaction as the input that opens or closes the window. A scheduler in
-- every process claims due rows (FOR UPDATE SKIP LOCKED, then a short lease
-- in claimed_until) and feeds a timeout input; the engine refuses a timeout
-- for a window that already closed, so a timeout is never applied twice, and
-- a lease that lapses (a crash) lets another process fire it.
CREATE TABLE deadlines (
    game_id       text NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    window_id     text NOT NULL,
    due_at        timestamptz NOT NULL,
    claimed_until timestamptz,
    PRIMARY KEY (game_id, window_id)
);
CREATE INDEX deadlines_due ON deadlines (due_at);

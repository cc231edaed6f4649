-- 007_async_clocks.sql - clocks for asynchronous play: the "your move"
-- inbox, per-kind window deadlines, night windows, the vacation bank,
-- one host extension per window, bot replacement after missed windows,
-- and the history reputation is computed from.
--
-- Every table that grows with games leads its key with game_id.

-- The async rules of a lobby and of the game it starts (server/clock.h):
-- {"windows":{"orders":S,"plays":S,"reactions":S},"night":{"start":M,
-- "end":M,"utc_offset":M},"vacation":"extend"|"bot","replace_after":K,
-- "min_reputation":{"max_median_seconds":S,"max_missed":N}}.
ALTER TABLE lobbies ADD COLUMN clock_rules jsonb NOT NULL DEFAULT '{}'::jsonb;
ALTER TABLE games ADD COLUMN clock_rules jsonb NOT NULL DEFAULT '{}'::jsonb;

-- The host's one extension of a window's deadline.
ALTER TABLE deadlines ADD COLUMN extended boolean NOT NULL DEFAULT false;

-- One row per (window, seat) that waits on the seat now: written in the
-- transaction of the input that opens or closes the wait (server/store.c),
-- so the inbox is one indexed join with game_seats, never a game load.
CREATE TABLE turns_waiting (
    game_id   text NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    window_id text NOT NULL,
    seat      integer NOT NULL,
    since     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, window_id, seat)
);

-- How each wait on a player ended: answered by the seat's own input
-- (response time closed_at - opened_at) or missed (a timeout closed it).
CREATE TABLE seat_windows (
    game_id   text NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    window_id text NOT NULL,
    seat      integer NOT NULL,
    player_id text NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    opened_at timestamptz NOT NULL,
    closed_at timestamptz NOT NULL,
    missed    boolean NOT NULL,
    PRIMARY KEY (game_id, window_id, seat)
);
CREATE INDEX seat_windows_player ON seat_windows (player_id, closed_at);

-- Things that happen to a game outside its inputs (a seat replaced by a
-- bot), shown in its log.
CREATE TABLE game_events (
    game_id    text NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    n          bigserial,
    at_version bigint NOT NULL,
    kind       text NOT NULL,
    detail     jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, n)
);

-- A player's vacation (one at a time) and the days spent per year.
CREATE TABLE vacations (
    player_id  text PRIMARY KEY REFERENCES players (id) ON DELETE CASCADE,
    started_at timestamptz NOT NULL,
    ends_at    timestamptz NOT NULL,
    days       integer NOT NULL CHECK (days >= 1)
);
CREATE TABLE vacation_days (
    player_id text NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    year      integer NOT NULL,
    used      integer NOT NULL DEFAULT 0 CHECK (used >= 0),
    PRIMARY KEY (player_id, year)
);

-- A deadline secs after base, moved out of the rules' night window (local
-- time = UTC + utc_offset minutes) to its end.
CREATE FUNCTION clock_due(base timestamptz, secs integer, rules jsonb)
RETURNS timestamptz LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
    due timestamptz := base + make_interval(secs => secs);
    n jsonb := rules -> 'night';
    off integer; s integer; e integer; m integer; wait integer;
BEGIN
    IF n IS NULL OR jsonb_typeof(n) <> 'object' THEN
        RETURN due;
    END IF;
    off := coalesce((n ->> 'utc_offset')::integer, 0);
    s := (n ->> 'start')::integer;
    e := (n ->> 'end')::integer;
    m := floor(extract(epoch FROM due) / 60)::bigint % 1440;
    m := ((m + off) % 1440 + 1440) % 1440;
    IF s < e AND m >= s AND m < e THEN
        wait := e - m;
    ELSIF s > e AND (m >= s OR m < e) THEN
        wait := ((e - m) % 1440 + 1440) % 1440;
    ELSE
        RETURN due;
    END IF;
    RETURN date_trunc('minute', due) + make_interval(mins => wait);
END $$;

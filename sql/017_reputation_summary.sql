-- 017_reputation_summary.sql - a player's reputation (server/players/reputation.h)
-- kept as a summary per player, written in the transaction that records the
-- windows it counts and read by key, instead of being computed from every
-- seat_windows row of the player at each lobby read and join (the dearest
-- statement of a game's setup):
--   * reputation_counts: one row per player: how many windows they missed,
--     and buckets, a histogram of the answered ones by response time
--     (reputation_bucket): buckets[b] answers in bucket b (NULL counts 0; the
--     array spans the buckets used), a tenth of a second wide (centred on
--     0.0, 0.1, ... 1.5 s: buckets 1 to 16) below 1.55 s, then 16 to a
--     doubling (each 2^(1/16), about 4.4%, wider than the one before). A
--     median does not merge from parts; a histogram does: the median is read
--     from it (server/players/reputation.c), to the tenth of a second below
--     1.55 s and within 2.2% above. answered is the sum of the buckets. The
--     row stays small whatever the history (about 16 buckets per doubling of
--     the answer times the player used: 270 from 0 s to a day).
--   * which windows count, and when, as before: a window of a game without
--     a spectator delay at once, in the group commit's batch statement that
--     records it in seat_windows (server/store/store.c); all the windows of
--     a game with a delay once its end has reached its spectators: in the
--     batch that ends it for a versions-only delay, delay_seconds after the
--     end otherwise: that batch writes reputation_pending, and the scheduler
--     folds the game's windows once due (server/players/reputation.c,
--     reputation_fold_due, a second late at most).
--   * no foreign key: the batch writes it per move (as sql/015_batch_commit.sql
--     for the hot tables); players and games are never deleted.
--   * backfilled from seat_windows as they stand.

-- The bucket of a window: 0 missed, else by its response time.
CREATE FUNCTION reputation_bucket(missed boolean, took interval)
RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE
        WHEN missed THEN 0
        WHEN extract(epoch FROM took)::float8 < 1.55 THEN
            1 + round(greatest(extract(epoch FROM took)::float8, 0) * 10)::integer
        ELSE
            17 + floor(16 * log(extract(epoch FROM took)::float8 / 1.55)
                       / log(2::float8))::integer
    END
$$;

-- The histogram h with one more answer in each bucket of ks.
CREATE FUNCTION reputation_add(h integer[], ks integer[])
RETURNS integer[] LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    k integer;
BEGIN
    FOREACH k IN ARRAY coalesce(ks, '{}') LOOP
        h[k] := coalesce(h[k], 0) + 1;
    END LOOP;
    RETURN h;
END $$;

-- The histograms h and more added, bucket by bucket.
CREATE FUNCTION reputation_merge(h integer[], more integer[])
RETURNS integer[] LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
    IF cardinality(more) > 0 THEN
        FOR b IN array_lower(more, 1) .. array_upper(more, 1) LOOP
            IF more[b] IS NOT NULL THEN
                h[b] := coalesce(h[b], 0) + more[b];
            END IF;
        END LOOP;
    END IF;
    RETURN h;
END $$;

CREATE TABLE reputation_counts (
    player_id text PRIMARY KEY,
    missed    bigint NOT NULL DEFAULT 0 CHECK (missed >= 0),
    buckets   integer[] NOT NULL DEFAULT '{}'
);

-- Games with a seconds delay that are over, whose windows count from due_at.
CREATE TABLE reputation_pending (
    game_id text PRIMARY KEY,
    due_at  timestamptz NOT NULL
);
CREATE INDEX reputation_pending_due ON reputation_pending (due_at);

INSERT INTO reputation_counts (player_id, missed, buckets)
SELECT w.player_id, count(*) FILTER (WHERE w.missed),
       reputation_add('{}', array_agg(reputation_bucket(false,
           w.closed_at - w.opened_at)) FILTER (WHERE NOT w.missed))
  FROM seat_windows w JOIN games g ON g.game_id = w.game_id
 WHERE (g.delay_versions = 0 AND g.delay_seconds = 0)
    OR (g.status <> 'running' AND g.updated_at <= now() -
        make_interval(secs => g.delay_seconds))
 GROUP BY 1;

INSERT INTO reputation_pending (game_id, due_at)
SELECT g.game_id, g.updated_at + make_interval(secs => g.delay_seconds)
  FROM games g
 WHERE g.status <> 'running' AND g.delay_seconds > 0
   AND g.updated_at > now() - make_interval(secs => g.delay_seconds);

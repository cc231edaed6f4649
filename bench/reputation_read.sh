#!/usr/bin/env bash
# bench/reputation_read.sh - what a lobby's seats read costs PostgreSQL when it computes
# each seated player's reputation from their whole history (every seat_windows row of
# theirs, as before sql/017_reputation_summary.sql) and when it reads their summary by
# key (reputation_counts, one row per player: server/lobby/lobby.c's SEATS_SQL today), on one synthetic
# database of the checkout's private cluster:
#
#   REP_PLAYERS players (default 1000), each with REP_WINDOWS answered or missed
#   windows (default 500) spread over finished games without a spectator delay, with
#   response times from a second to a day; REP_PLAYERS / 2 two-seat lobbies, both
#   seats taken; the summary backfilled as the migration does.
#
# Each read is run by pgbench (one client, REP_SECONDS seconds, default 10, prepared
# statements) for a random lobby, and once under EXPLAIN (ANALYZE, BUFFERS) for lobby l7.
# Prints pgbench's mean latency (round trip included) and reads per second, and the
# shared blocks and execution milliseconds of the explained read; and checks first that
# both give the same answered and missed counts for every player. UPSERT is the write the
# batch statement adds per answered window, for a random player (pgbench, then explained
# for p7).
#
#   bash bench/reputation_read.sh            (BUILD=build, the conclave binary's folder)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

PLAYERS=${REP_PLAYERS:-1000}
WINDOWS=${REP_WINDOWS:-500}
SECONDS_EACH=${REP_SECONDS:-10}
BUILD=${BUILD:-build}
LOBBIES=$((PLAYERS / 2))

bash scripts/pg.sh start >/dev/null
PG_URL=$(bash scripts/pg.sh url)
PSQL=(psql -X -q -At -v ON_ERROR_STOP=1)
db_url() { sed "s#^postgresql:///[^?]*#postgresql:///$1#" <<<"$PG_URL"; }
DB=conclave_repread_$(date +%s)_$RANDOM
"${PSQL[@]}" "$PG_URL" -c "CREATE DATABASE $DB"
URL=$(db_url "$DB")
TMP=$(mktemp -d)
cleanup() {
    rm -rf "$TMP"
    "${PSQL[@]}" "$PG_URL" -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" || true
}
trap cleanup EXIT
DATABASE_URL=$URL "$BUILD/conclave" migrate >/dev/null 2>&1

"${PSQL[@]}" "$URL" <<SQL
INSERT INTO players (id, name) SELECT 'p' || i, 'player' || i FROM generate_series(1, $PLAYERS) i;
INSERT INTO games (game_id, ruleset, seat_count, seed, seed_sha256, status)
SELECT 'g' || i, 'rps', 2, '\\x00', '', 'finished' FROM generate_series(1, 100) i;
INSERT INTO seat_windows (game_id, window_id, seat, player_id, opened_at, closed_at, missed)
SELECT 'g' || (1 + k % 100), 'w' || (k / 100), 0, 'p' || p, now() - interval '2 days',
       now() - interval '2 days' + make_interval(secs => exp(random() * ln(86400))),
       random() < 0.05
  FROM generate_series(1, $PLAYERS) p, generate_series(1, $WINDOWS) w,
       LATERAL (SELECT p * $WINDOWS + w AS k) x;
INSERT INTO lobbies (id, ruleset, host_id, clock_mode, seat_count)
SELECT 'l' || i, 'rps', 'p' || (2 * i - 1), 'async', 2 FROM generate_series(1, $LOBBIES) i;
INSERT INTO lobby_seats (lobby_id, seat, player_id)
SELECT 'l' || i, s, 'p' || (2 * i - 1 + s) FROM generate_series(1, $LOBBIES) i, generate_series(0, 1) s;
INSERT INTO reputation_counts (player_id, missed, buckets)
SELECT w.player_id, count(*) FILTER (WHERE w.missed),
       reputation_add('{}', array_agg(reputation_bucket(false, w.closed_at - w.opened_at))
                            FILTER (WHERE NOT w.missed))
  FROM seat_windows w JOIN games g ON g.game_id = w.game_id
 WHERE (g.delay_versions = 0 AND g.delay_seconds = 0)
    OR (g.status <> 'running' AND g.updated_at <= now() - make_interval(secs => g.delay_seconds))
 GROUP BY 1;
VACUUM ANALYZE;
SQL

# The seats read before the summary: REPUTATION_SQL over seat_windows.
HISTORY="SELECT s.lobby_id, s.seat, coalesce(s.player_id, ''), coalesce(p.name, ''),
  coalesce(s.bot, ''), coalesce(rep.median::text, ''), coalesce(rep.missed, 0),
  coalesce(rep.answered, 0) FROM lobby_seats s LEFT JOIN players p ON p.id = s.player_id
  LEFT JOIN LATERAL (SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY
  extract(epoch FROM w.closed_at - w.opened_at)) FILTER (WHERE NOT w.missed)::numeric, 1)
  AS median, count(*) FILTER (WHERE w.missed) AS missed, count(*) FILTER (WHERE NOT
  w.missed) AS answered FROM seat_windows w JOIN games rg ON rg.game_id = w.game_id
  WHERE w.player_id = s.player_id AND ((rg.delay_versions = 0 AND rg.delay_seconds = 0)
  OR (rg.status <> 'running' AND rg.updated_at <= now() - make_interval(secs =>
  rg.delay_seconds)))) rep ON true WHERE s.lobby_id = \$1 ORDER BY s.lobby_id, s.seat"
# The seats read now: the summary by key.
SUMMARY="SELECT s.lobby_id, s.seat, coalesce(s.player_id, ''), coalesce(p.name, ''),
  coalesce(s.bot, ''), coalesce(rep.counts, '') FROM lobby_seats s LEFT JOIN players p
  ON p.id = s.player_id LEFT JOIN LATERAL (SELECT rc.missed || ' ' ||
  coalesce(array_lower(rc.buckets, 1), 1) || ' ' || array_to_string(rc.buckets, ',', '0')
  AS counts FROM reputation_counts rc WHERE rc.player_id = s.player_id) rep ON true
  WHERE s.lobby_id = \$1 ORDER BY s.lobby_id, s.seat"

# What the batch statement adds per answered window: its player's summary row upserted
# (REP_FOLD in server/store/store.c, for a tally of one window).
UPSERT="INSERT INTO reputation_counts AS r (player_id, missed, buckets) SELECT \$1,
  count(*) FILTER (WHERE missed), reputation_add('{}', array_agg(reputation_bucket(false,
  took)) FILTER (WHERE NOT missed)) FROM (SELECT false AS missed, make_interval(secs =>
  30 + random() * 60) AS took) tally GROUP BY 1 ORDER BY 1 ON CONFLICT (player_id) DO
  UPDATE SET missed = r.missed + excluded.missed, buckets = reputation_merge(r.buckets,
  excluded.buckets)"

# Both give the same counts for every player.
differ=$("${PSQL[@]}" "$URL" -c "
  WITH h AS (SELECT player_id, count(*) FILTER (WHERE missed) AS m,
                    count(*) FILTER (WHERE NOT missed) AS a FROM seat_windows GROUP BY 1),
       s AS (SELECT player_id, missed AS m,
                    (SELECT coalesce(sum(c), 0) FROM unnest(buckets) c) AS a
               FROM reputation_counts)
  SELECT count(*) FROM h FULL JOIN s USING (player_id)
   WHERE h.m IS DISTINCT FROM s.m OR h.a IS DISTINCT FROM s.a")
[[ $differ == 0 ]] || {
    echo "reputation_read: the summary differs from the history for $differ players" >&2
    exit 1
}

echo "players $PLAYERS, windows per player $WINDOWS, lobbies $LOBBIES"
printf '%-8s %12s %10s %14s %12s\n' read mean_ms reads/s blocks/read exec_ms
for which in HISTORY SUMMARY UPSERT; do
    sql=${!which}
    if [[ $which == UPSERT ]]; then
        printf '\\set l random(1, %d)\n%s\n' "$PLAYERS" "${sql//\$1/\'p\' || :l}" >"$TMP/$which.sql"
        sql=${sql//\$1/\'p7\'}
    else
        printf '\\set l random(1, %d)\n%s\n' "$LOBBIES" "${sql//\$1/\'l\' || :l}" >"$TMP/$which.sql"
        sql=${sql//\$1/\'l7\'}
    fi
    # synchronous_commit off: the upsert's own commit (a WAL flush) is not what is measured
    out=$(PGOPTIONS='-c synchronous_commit=off' pgbench -n -M prepared -c 1 \
        -T "$SECONDS_EACH" -f "$TMP/$which.sql" "$URL" 2>&1)
    lat=$(sed -n 's/^latency average = \([0-9.]*\) ms/\1/p' <<<"$out")
    tps=$(sed -n 's/^tps = \([0-9.]*\) .*/\1/p' <<<"$out")
    # the second of two in one session (the first loads the catalogue and the functions)
    plan=$(printf '\\o /dev/null\nEXPLAIN (ANALYZE) %s;\n\\o\nEXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) %s;\n' \
        "$sql" "$sql" | "${PSQL[@]}" "$URL")
    blocks=$(python3 -c 'import json,sys; p=json.loads(sys.stdin.read())[0]; t=p["Plan"]; print(t.get("Shared Hit Blocks",0)+t.get("Shared Read Blocks",0), p["Execution Time"])' <<<"$plan")
    printf '%-8s %12s %10s %14s %12s\n' "$which" "$lat" "${tps%.*}" ${blocks}
done

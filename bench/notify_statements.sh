#!/usr/bin/env bash
# bench/notify_statements.sh - what the notification path costs PostgreSQL per
# move (docs/performance.md, "Run 11 (part): the notification path"): one
# `loadgen play` run (no player has a notification channel) against a fresh
# `conclave serve` on a fresh database of the private cluster, then the
# server's round trips (conclave_db_round_trips_total), the rows written to
# and deleted from notify_facts, and, if the cluster loads
# pg_stat_statements (with pg_stat_statements.track = 'all', statements run
# by triggers included), the calls per statement touching the notification
# tables, with their execution time (the time of a top-level statement
# includes that of the statements its triggers run). To load it into the
# private cluster: ALTER SYSTEM SET shared_preload_libraries =
# 'pg_stat_statements', restart (scripts/pg.sh stop; scripts/pg.sh start),
# then ALTER SYSTEM SET pg_stat_statements.track = 'all' and
# SELECT pg_reload_conf().
#
#   bash bench/notify_statements.sh [GAMES [SECONDS]]     (default 100 15)
#
# Needs build/conclave and build/bench/loadgen (make && make loadgen) and the
# private cluster (scripts/pg.sh), or a cluster's URL in PG_URL. Prints a
# small report on stdout.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
cd "$ROOT"
source bench/server_env.sh
BUILD=${BUILD:-build}
GAMES=${1:-100}
SECONDS_RUN=${2:-15}
OUT=$(mktemp -d)
PSQL=(psql -X -q -At -v ON_ERROR_STOP=1)

if [[ -z ${PG_URL:-} ]]; then
    bash scripts/pg.sh start >&2
    PG_URL=$(bash scripts/pg.sh url)
fi
DB=conclave_notify_$(date +%s)_$RANDOM
DB_URL=$(sed "s#^postgresql:///[^?]*#postgresql:///$DB#" <<<"$PG_URL")
"${PSQL[@]}" "$PG_URL" -c "CREATE DATABASE $DB"
PID=""
cleanup() {
    [[ -z $PID ]] || kill -TERM "$PID" 2>/dev/null || true
    [[ -z $PID ]] || wait "$PID" 2>/dev/null || true
    "${PSQL[@]}" "$PG_URL" -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" || true
    rm -rf "$OUT"
}
trap cleanup EXIT

env "${BENCH_SERVER_ENV[@]}" DATABASE_URL="$DB_URL" \
    "$BUILD/conclave" serve >"$OUT/server.out" 2>"$OUT/server.log" &
PID=$!
for _ in $(seq 300); do
    grep -q '"event":"listening"' "$OUT/server.log" 2>/dev/null && break
    sleep 0.1
done
line=$(grep -m1 '"event":"listening"' "$OUT/server.log")
HTTP_PORT=$(sed -n 's/.*"http_port":\([0-9]*\).*/\1/p' <<<"$line")
WS_PORT=$(sed -n 's/.*"ws_port":\([0-9]*\).*/\1/p' <<<"$line")
metric() { curl -s "http://127.0.0.1:$HTTP_PORT/metrics" | sed -n "s/^$1 \([0-9]*\).*/\1/p"; }

STATS=0
if "${PSQL[@]}" "$DB_URL" -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" 2>/dev/null &&
    "${PSQL[@]}" "$DB_URL" -c "SELECT pg_stat_statements_reset()" >/dev/null 2>&1; then
    STATS=1
fi
"${PSQL[@]}" "$DB_URL" -c "SELECT pg_stat_reset()" >/dev/null
trips0=$(metric conclave_db_round_trips_total)
req0=$(metric conclave_db_request_round_trips_total)
"$BUILD/bench/loadgen" play --http "127.0.0.1:$HTTP_PORT" --ws "127.0.0.1:$WS_PORT" \
    --games "$GAMES" --duration "$SECONDS_RUN" --spread $(((2 * GAMES + 49) / 50)) \
    --label "$GAMES games" --json "$OUT/play.json" >/dev/null 2>"$OUT/loadgen.err" ||
    echo "loadgen reported errors" >&2
sleep 2 # let the notifier drain what the last moves wrote
trips1=$(metric conclave_db_round_trips_total)
req1=$(metric conclave_db_request_round_trips_total)
moves=$(metric conclave_inputs_total)
sleep 1 # statistics are sent to the collector at the end of each transaction
"${PSQL[@]}" "$DB_URL" -c "SELECT pg_stat_force_next_flush()" >/dev/null 2>&1 || true
facts=$("${PSQL[@]}" "$DB_URL" -c "SELECT n_tup_ins || ' inserted, ' || n_tup_del || ' deleted' FROM pg_stat_user_tables WHERE relname = 'notify_facts'")
grep -m1 '^conclave play' "$OUT/loadgen.err" || true
echo "inputs committed (conclave_inputs_total): $moves"
per_move() { awk -v t="$1" -v m="$moves" 'BEGIN { printf "%.2f", t / m }'; }
bg=$((trips1 - trips0 - (req1 - req0)))
echo "server round trips during the run: $((trips1 - trips0)) ($(per_move $((trips1 - trips0))) per move); of background threads (notifier, scheduler, listener, hub): $bg ($(per_move $bg) per move)"
echo "notify_facts rows: $facts"
if [[ $STATS == 1 ]]; then
    echo "pg_stat_statements (this database, track = $("${PSQL[@]}" "$DB_URL" -c 'SHOW pg_stat_statements.track')):"
    "${PSQL[@]}" "$DB_URL" -F ' | ' -c "
        SELECT sum(calls), sum(calls) FILTER (WHERE toplevel),
               sum(calls) FILTER (WHERE query ~ 'notify_'),
               sum(calls) FILTER (WHERE query ~ 'notify_' AND toplevel),
               round(sum(total_exec_time) FILTER (WHERE query ~ 'notify_' AND toplevel)::numeric, 1)
          FROM pg_stat_statements s
         JOIN pg_database d ON d.oid = s.dbid AND d.datname = current_database()" |
        awk -F' \\| ' '{ print "  statements: " $1 " (top level " $2 "); naming notify_*: " $3 " (top level " $4 ", " $5 " ms)" }'
    "${PSQL[@]}" "$DB_URL" -F ' | ' -c "
        SELECT calls, CASE WHEN toplevel THEN 'top' ELSE 'nested' END,
               round(total_exec_time::numeric, 1) || ' ms',
               left(regexp_replace(query, '\s+', ' ', 'g'), 100) FROM pg_stat_statements s
         JOIN pg_database d ON d.oid = s.dbid AND d.datname = current_database()
         WHERE query ~ 'notify_' ORDER BY calls DESC LIMIT 8" | sed 's/^/  /'
fi

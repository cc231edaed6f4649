#!/usr/bin/env bash
# bench/setup_cost.sh - what PostgreSQL spends on each game's setup (create a lobby, the
# other player joins, the host starts) during a tic-tac-toe load run: one
# `loadgen play` run against a fresh `conclave serve` (started as bench/run.sh's
# start_conclave does) on a fresh database of the checkout's private cluster, with
# pg_stat_statements reset once the server listens (docs/performance.md, "Run 11 (part):
# game setup").
#
#   bash bench/setup_cost.sh [LABEL]
#
# Needs the cluster to preload pg_stat_statements, once:
#   bash scripts/pg.sh psql -c "ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'" \
#       -c "ALTER SYSTEM SET pg_stat_statements.track_planning = on"
#   bash scripts/pg.sh stop && bash scripts/pg.sh start
#
# Settings (environment): BENCH_GAMES (100), BENCH_DURATION (15 s), BUILD (build),
# BENCH_WARMUP (0 s: a fresh database, as bench/run.sh runs; see below).
# Results in bench/out/setup-LABEL/: loadgen.json, statements.tsv (every statement:
# calls, total and mean execution ms, mean planning ms, shared blocks per call) and
# setup.tsv (the lobby and game-creation statements of a setup, summed and divided by
# the games created: calls, execution ms, planning ms and shared blocks per setup) and
# threads.tsv (the server's CPU during the run by thread name, us per move) and tables.tsv
# (each table's row writes per move, with the share of HOT updates).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source bench/server_env.sh

LABEL=${1:-$(date -u +%Y%m%dT%H%M%SZ)}
GAMES=${BENCH_GAMES:-100}
DURATION=${BENCH_DURATION:-15}
BUILD=${BUILD:-build}
OUT=bench/out/setup-$LABEL
mkdir -p "$OUT"

bash scripts/pg.sh start
PG_URL=$(bash scripts/pg.sh url)
PG_PID=$(head -n1 "$(readlink -f var/pg)/data/postmaster.pid")
PSQL=(psql -X -q -At -v ON_ERROR_STOP=1)
db_url() { sed "s#^postgresql:///[^?]*#postgresql:///$1#" <<<"$PG_URL"; }
[[ $("${PSQL[@]}" "$PG_URL" -c 'show shared_preload_libraries') == *pg_stat_statements* ]] || {
    echo "setup_cost: the cluster does not preload pg_stat_statements (see the top of $0)" >&2
    exit 1
}

DB=conclave_setup_$(date +%s)_$RANDOM
"${PSQL[@]}" "$PG_URL" -c "CREATE DATABASE $DB"
"${PSQL[@]}" "$(db_url "$DB")" -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements"
SRV=""
cleanup() {
    [[ -n $SRV ]] && kill -TERM "$SRV" 2>/dev/null && wait "$SRV" 2>/dev/null
    "${PSQL[@]}" "$PG_URL" -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" || true
}
trap cleanup EXIT

env "${BENCH_SERVER_ENV[@]}" DATABASE_URL="$(db_url "$DB")" \
    "$BUILD/conclave" serve >"$OUT/server.out" 2>"$OUT/server.log" &
SRV=$!
line=""
for _ in $(seq 900); do
    line=$(grep -m1 '"event":"listening"' "$OUT/server.log" 2>/dev/null) && break
    kill -0 "$SRV" 2>/dev/null || break
    sleep 0.1
done
[[ -n $line ]] || {
    echo "setup_cost: conclave did not start ($OUT/server.log)" >&2
    exit 1
}
HTTP_PORT=$(sed -n 's/.*"http_port":\([0-9]*\).*/\1/p' <<<"$line")
WS_PORT=$(sed -n 's/.*"ws_port":\([0-9]*\).*/\1/p' <<<"$line")
sleep 1
# BENCH_WARMUP=S: play S seconds first, then ANALYZE, so that the measured run
# sees tables with statistics, as a server that has run for a while does (a
# fresh database's tables have none: the plans made then scan whole tables
# until autovacuum's ANALYZE, about a minute later, makes them replan).
if ((${BENCH_WARMUP:-0} > 0)); then
    "$BUILD/bench/loadgen" play --http "127.0.0.1:$HTTP_PORT" --ws "127.0.0.1:$WS_PORT" \
        --games "$GAMES" --duration "$BENCH_WARMUP" --spread $(((2 * GAMES + 49) / 50)) \
        --label "warm-up" >/dev/null
    "${PSQL[@]}" "$(db_url "$DB")" -c "ANALYZE"
fi
# table_stats : "table<TAB>inserted<TAB>updated<TAB>hot<TAB>deleted<TAB>index scans" per table.
table_stats() {
    "${PSQL[@]}" "$(db_url "$DB")" -F $'\t' -c "
        SELECT relname, n_tup_ins, n_tup_upd, n_tup_hot_upd, n_tup_del, coalesce(idx_scan, 0)
        FROM pg_stat_user_tables"
}
sleep 1 # the warm-up's counts reach the statistics
table_stats >"$OUT/tables.before"
"${PSQL[@]}" "$(db_url "$DB")" -c "SELECT pg_stat_statements_reset()" >/dev/null
# thread_cpu : "name<TAB>ticks" per thread of the server (utime + stime, the
# threads name themselves: server/runtime/thread_name.h).
thread_cpu() {
    local t
    for t in /proc/"$SRV"/task/*; do
        awk -v n="$(<"$t/comm")" '{ sub(/^.*\) /, ""); print n "\t" $12 + $13 }' "$t/stat" 2>/dev/null
    done
}
thread_cpu >"$OUT/threads.before"
"$BUILD/bench/loadgen" play --http "127.0.0.1:$HTTP_PORT" --ws "127.0.0.1:$WS_PORT" \
    --games "$GAMES" --duration "$DURATION" --spread $(((2 * GAMES + 49) / 50)) \
    --server-pid "$SRV" --pg-pid "$PG_PID" --pg-db "$DB" --label "$GAMES games" \
    --json "$OUT/loadgen.json" >/dev/null
thread_cpu >"$OUT/threads.after"
# threads.tsv: the server's CPU during the run by thread name, in us per move.
python3 - "$OUT" "$(getconf CLK_TCK)" <<'PY'
import collections, json, sys
out, hz = sys.argv[1], int(sys.argv[2])
def load(name):
    per = collections.Counter()
    for line in open(f"{out}/{name}"):
        n, t = line.rstrip("\n").split("\t")
        per[n] += int(t)
    return per
before, after = load("threads.before"), load("threads.after")
moves = json.load(open(f"{out}/loadgen.json"))["moves"] or 1
rows = sorted(((after[n] - before.get(n, 0)) * 1e6 / hz / moves, n) for n in after)
with open(f"{out}/threads.tsv", "w") as f:
    f.write("thread\tus_per_move\n")
    for us, n in reversed(rows):
        f.write(f"{n}\t{us:.0f}\n")
PY

# tables.tsv: the rows each table took per move during the run (inserted, updated, of
# which HOT, deleted), and its index scans: the statistics after the run less those
# before it (tables.before); the server's backends report their counts when idle
# (a second is enough).
sleep 1
table_stats >"$OUT/tables.after"
python3 - "$OUT" <<'PY'
import json, sys
out = sys.argv[1]
def load(name):
    rows = {}
    for line in open(f"{out}/{name}"):
        f = line.rstrip("\n").split("\t")
        rows[f[0]] = [int(x) for x in f[1:]]
    return rows
before, after = load("tables.before"), load("tables.after")
moves = json.load(open(f"{out}/loadgen.json"))["moves"] or 1
rows = []
for t, a in after.items():
    d = [x - y for x, y in zip(a, before.get(t, [0] * len(a)))]
    ins, upd, hot, dele, idx = d
    if ins + upd + dele + idx > 0:
        rows.append((ins + upd + dele, t, ins, upd, hot, dele, idx))
with open(f"{out}/tables.tsv", "w") as f:
    f.write("table\tins_per_move\tupd_per_move\thot_share\tdel_per_move\tidx_scan_per_move\n")
    for _, t, ins, upd, hot, dele, idx in sorted(rows, reverse=True):
        share = f"{hot / upd:.2f}" if upd else ""
        f.write(f"{t}\t{ins / moves:.3f}\t{upd / moves:.3f}\t{share}\t{dele / moves:.3f}\t{idx / moves:.3f}\n")
PY

THIS_DB="dbid = (SELECT oid FROM pg_database WHERE datname = current_database())"
"${PSQL[@]}" "$(db_url "$DB")" -F $'\t' -c "
    SELECT calls, round(total_exec_time::numeric, 1), round(mean_exec_time::numeric, 3),
           round(mean_plan_time::numeric, 3),
           round((shared_blks_hit + shared_blks_read)::numeric / nullif(calls, 0), 1),
           left(regexp_replace(query, '\s+', ' ', 'g'), 120)
    FROM pg_stat_statements WHERE $THIS_DB ORDER BY total_exec_time DESC" >"$OUT/statements.tsv"
"${PSQL[@]}" "$(db_url "$DB")" -F $'\t' -c "
    WITH s AS (SELECT * FROM pg_stat_statements WHERE $THIS_DB AND (
        query LIKE '%FROM lobby_seats s LEFT JOIN players%'
        OR query LIKE 'WITH g AS (INSERT INTO games%'
        OR query LIKE 'SELECT count(*) FROM game_seats s %'
        OR query LIKE 'UPDATE lobbies%' OR query LIKE 'SELECT pg_notify(\$2, \$1)%'
        OR query LIKE 'INSERT INTO lobbies%' OR query LIKE 'INSERT INTO lobby_seats%'
        OR query LIKE 'SELECT count(*) FROM lobbies%'
        OR query LIKE '%FROM players WHERE id = \$1 FOR NO KEY UPDATE'
        OR query LIKE 'SELECT id, ruleset, options::text, host_id%'
        OR query LIKE 'SELECT seat, coalesce(player_id%FROM lobby_seats%'
        OR query LIKE 'SELECT l.id, l.ruleset%' OR query LIKE 'UPDATE lobby_seats%'
        OR query LIKE 'UPDATE players SET last_seen%')),
    n AS (SELECT count(*) AS games FROM games)
    SELECT 'games', 'calls', 'exec_ms', 'plan_ms', 'blocks'
    UNION ALL
    SELECT n.games::text, round(sum(calls) / n.games, 1)::text,
           round(sum(total_exec_time)::numeric / n.games, 3)::text,
           round(sum(total_plan_time)::numeric / n.games, 3)::text,
           round(sum(shared_blks_hit + shared_blks_read)::numeric / n.games, 1)::text
    FROM s, n GROUP BY n.games" >"$OUT/setup.tsv"
echo "per setup:"
column -t "$OUT/setup.tsv"
echo "server CPU by thread (us per move):"
column -t "$OUT/threads.tsv"

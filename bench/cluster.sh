#!/usr/bin/env bash
# bench/cluster.sh - tic-tac-toe moves/s through HAProxy with 1, 2, 3... processes on one
# PostgreSQL (scripts/cluster.sh; docs/scaling.md). `make bench-cluster` runs it.
#
# Settings (environment): BENCH_CLUSTER_SIZES ("1 2 3"), BENCH_GAMES (100),
# BENCH_DURATION (15 seconds per size). Results: bench/out/cluster-DATE/N.json (loadgen's
# JSON) and summary.md with one row per size. Uses DATABASE_URL when set, else the
# checkout's private cluster; each size gets a fresh database.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

SIZES=${BENCH_CLUSTER_SIZES-1 2 3}
GAMES=${BENCH_GAMES:-100}
DURATION=${BENCH_DURATION:-15}
BUILD=${BUILD:-build}
OUT=bench/out/cluster-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$OUT"
command -v haproxy >/dev/null || {
    echo "bench-cluster: haproxy is not installed (scripts/deps.sh)" >&2
    exit 1
}

if [[ -z ${DATABASE_URL:-} ]]; then
    bash scripts/pg.sh start
    BASE_URL=$(bash scripts/pg.sh url)
else
    BASE_URL=$DATABASE_URL
fi
# The same URL with another database name.
db_url() { node -e 'const u = new URL(process.argv[1]); u.pathname = "/" + process.argv[2]; console.log(u.toString())' "$BASE_URL" "$1"; }

export CLUSTER_STATE=$OUT/state CLUSTER_HTTP_PORT=${CLUSTER_HTTP_PORT:-18180} CLUSTER_WS_PORT=${CLUSTER_WS_PORT:-18181}
export CLUSTER_BASE_PORT=${CLUSTER_BASE_PORT:-18200}
export CONCLAVE_RATE=1000000 CONCLAVE_RATE_BURST=1000000 CONCLAVE_HTTP_PER_IP=100000
export CONCLAVE_WS_PER_IP=100000 CONCLAVE_WS_IP_RATE=1000000 CONCLAVE_WS_IP_RATE_BURST=1000000
export CONCLAVE_LIVE_GAMES_PER_PLAYER=1000000 CONCLAVE_LOBBIES_PER_PLAYER=1000000
export CONCLAVE_SIGNUPS_PER_HOUR=1000000 CONCLAVE_LOG_LEVEL=warn CONCLAVE_DRAIN_SECONDS=0

{
    echo "# Cluster run $(date -u +%Y-%m-%dT%H:%MZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
    echo
    echo "$GAMES tic-tac-toe games through HAProxy, ${DURATION} s per size, $(nproc) cores."
    echo
    echo "| processes | moves/s | move p50 ms | move p99 ms | errors |"
    echo "|---|---|---|---|---|"
} >"$OUT/summary.md"

for n in $SIZES; do
    name=conclave_bench_cluster_${n}_$$
    psql -X -q "$BASE_URL" -c "DROP DATABASE IF EXISTS $name" -c "CREATE DATABASE $name"
    DATABASE_URL=$(db_url "$name") bash scripts/cluster.sh start "$n"
    "$BUILD/bench/loadgen" play --http "127.0.0.1:$CLUSTER_HTTP_PORT" --ws "127.0.0.1:$CLUSTER_WS_PORT" \
        --games "$GAMES" --duration "$DURATION" --label "cluster-$n" --json "$OUT/$n.json" >/dev/null
    bash scripts/cluster.sh stop
    psql -X -q "$BASE_URL" -c "DROP DATABASE IF EXISTS $name WITH (FORCE)"
    node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const errors = Object.values(r.errors || {}).reduce((a, b) => a + (typeof b === "number" ? b : 0), 0);
console.log(`| ${process.argv[2]} | ${r.moves_per_s} | ${r.move_latency_ms.p50} | ${r.move_latency_ms.p99} | ${errors} |`);
' "$OUT/$n.json" "$n" >>"$OUT/summary.md"
done
# Fan-out: FANOUT_GAMES games per process played through process 1 (directly), each
# followed by FANOUT_SPECTATORS spectators on process I, so two thirds of the spectators
# learn of each move through NOTIFY. One loadgen per process, run at the same time, each
# connecting from 127.0.0.1 .. 127.0.0.N (BENCH_CLUSTER_SPREAD, 4) to its process's own
# WebSocket port (no HAProxy in the way). BENCH_CLUSTER_FANOUT=GxS (10x1000: 30,000
# spectator connections in all; "none" to skip), once per event loop of the hub in
# BENCH_CLUSTER_FANOUT_LIBS ("poll ev uv", CONCLAVE_WS_EVENT_LIB), each on fresh processes
# and a fresh database. The spectators may take BENCH_CLUSTER_CONNECT_S (300) to connect;
# the processes ping idle sockets every BENCH_CLUSTER_WS_PING seconds (60; the server's
# default is 10, and hangs up 15 s after an unanswered ping, which on a starved machine
# drops connections that are merely slow).
FANOUT=${BENCH_CLUSTER_FANOUT:-10x1000}
CONNECT_S=${BENCH_CLUSTER_CONNECT_S:-300}
WS_PING=${BENCH_CLUSTER_WS_PING:-60}
FANOUT_LIBS=${BENCH_CLUSTER_FANOUT_LIBS:-poll ev uv}
SPREAD=${BENCH_CLUSTER_SPREAD:-4}
if [[ $FANOUT != none ]]; then
    fg=${FANOUT%x*}
    fs=${FANOUT#*x}
    n=3
    ulimit -n "$(ulimit -Hn)" || true
    {
        echo
        echo "Fan-out: 3 processes, $fg games each played through process 1, $fs spectators per game"
        echo "on process I ($((3 * fg * fs)) spectator connections in all), a move per game per second,"
        echo "${DURATION} s. Last = from a move's commit to its last spectator's receipt, per move."
        echo
        echo "| loop | process | held at the end | subscribed | failed | deliveries | from commit p50 ms | p99 ms | last p50 ms | last p99 ms | last max ms | gaps | RSS with spectators KiB | KiB/connection | server CPU s |"
        echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    } >>"$OUT/summary.md"
    for lib in $FANOUT_LIBS; do
        name=conclave_bench_cluster_fanout_$$
        psql -X -q "$BASE_URL" -c "DROP DATABASE IF EXISTS $name" -c "CREATE DATABASE $name"
        CONCLAVE_WS_EVENT_LIB=$lib CONCLAVE_WS_PING=$WS_PING DATABASE_URL=$(db_url "$name") bash scripts/cluster.sh start "$n"
        pids=()
        for ((i = 1; i <= n; i++)); do
            "$BUILD/bench/loadgen" fanout --http "127.0.0.1:$((CLUSTER_BASE_PORT + 2))" \
                --ws "127.0.0.1:$((CLUSTER_BASE_PORT + 2 * i + 1))" --games "$fg" --spectators "$fs" \
                --interval-ms 1000 --duration "$DURATION" --spread "$SPREAD" --connect-s "$CONNECT_S" \
                --server-pid "$(<"$CLUSTER_STATE/conclave-$i.pid")" \
                --label "fanout-$lib-$i" --json "$OUT/fanout-$lib-$i.json" >/dev/null 2>"$OUT/fanout-$lib-$i.log" &
            pids+=($!)
        done
        for p in "${pids[@]}"; do wait "$p" || true; done
        bash scripts/cluster.sh stop
        psql -X -q "$BASE_URL" -c "DROP DATABASE IF EXISTS $name WITH (FORCE)"
        for ((i = 1; i <= n; i++)); do
            node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const f = r.fanout, c = f.delivery_ms_from_commit || {}, l = f.last_delivery_ms_from_commit || {};
console.log(`| ${process.argv[3]} | ${process.argv[2]} | ${f.connected} | ${f.subscribed} | ${f.failed} | ${f.deliveries} | ${c.p50} | ${c.p99} | ${l.p50} | ${l.p99} | ${l.max} | ${f.gaps} | ${f.rss_kb_spectators} | ${f.kb_per_connection} | ${r.cpu_s.server} |`);
' "$OUT/fanout-$lib-$i.json" "$i" "$lib" >>"$OUT/summary.md" ||
                echo "| $lib | $i | see $OUT/fanout-$lib-$i.log |" >>"$OUT/summary.md"
        done
    done
fi
cat "$OUT/summary.md"

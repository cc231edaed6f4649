#!/usr/bin/env bash
# bench/run.sh - `make bench`: Conclave's benchmarks, side by side with boardgame.io.
#
#   1. engine: `conclave selfplay` games/s and inputs/s per ruleset (basic bots)
#   2. play: N concurrent tic-tac-toe games (N in BENCH_GAMES) for BENCH_DURATION
#      seconds each, against a fresh `conclave serve` on a fresh database of the
#      private PostgreSQL cluster (durable commits: synchronous_commit=on), then the
#      same workload against a fresh boardgame.io 0.50.2 server (its defaults,
#      in memory), then against boardgame.io with its PostgreSQL adapter
#      (bgio-postgres) on a fresh database of the same private cluster
#   3. fan-out: G games with K spectator connections each (BENCH_FANOUT, "GxK ...")
#   4. sprint: N concurrent 4-seat Galactic Sprint games with sealed orders (N in
#      BENCH_SPRINT; `loadgen sprint`): orders/s and the time from a window's last
#      order to every seat's reveal on its WebSocket
#   5. the table of ratios (bench/report.mjs), also written to OUT/summary.md
#
# Settings (environment):
#   BENCH_DURATION=20         seconds of each measured run
#   BENCH_GAMES="10 100 500"  concurrent games of the play runs
#   BENCH_FANOUT="10x100 10x1000"  fan-out runs, games x spectators per game
#   BENCH_FANOUT_INTERVAL_MS=250   one move per game every T ms in fan-out runs
#   BENCH_SPRINT="10 50"      concurrent games of the Sprint runs (" ": none)
#   BENCH_PEER=1              0: skip boardgame.io (no npm install)
#   BENCH_PEER_PG=1           0: skip boardgame.io with bgio-postgres
#   BENCH_SELFPLAY=1          0: skip the engine figures
#   BENCH_OUT=bench/out/DATE  where the JSON results, logs and summary go
#   BUILD=build               the build folder holding conclave and bench/loadgen
#
# Our server runs with its defaults except the abuse limits that a single load
# generator would trip: CONCLAVE_RATE/CONCLAVE_RATE_BURST (50/s and 200 per token
# and per address) and the account, lobby, game and password quotas of
# docs/api.md ("Limits and quotas") are raised, and connections come from several loopback
# addresses (loadgen --spread) so that the per-address connection caps stay as
# they are.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
cd "$ROOT"
source bench/server_env.sh
BUILD=${BUILD:-build}
BIN=$ROOT/$BUILD/conclave
LOADGEN=$ROOT/$BUILD/bench/loadgen
DURATION=${BENCH_DURATION:-20}
SIZES=${BENCH_GAMES:-10 100 500}
FANOUT=${BENCH_FANOUT:-10x100 10x1000}
FANOUT_INTERVAL=${BENCH_FANOUT_INTERVAL_MS:-250}
SPRINT=${BENCH_SPRINT:-10 50}
PEER=${BENCH_PEER:-1}
PEER_PG=${BENCH_PEER_PG:-1}
SELFPLAY=${BENCH_SELFPLAY:-1}
OUT=${BENCH_OUT:-$ROOT/bench/out/$(date +%Y%m%d-%H%M%S)}
PEERS=$ROOT/bench/peers

note() { echo "bench: $*" >&2; }
die() {
    echo "bench: $*" >&2
    exit 1
}

[[ -x $BIN ]] || die "$BIN is missing: run make (or make bench) first"
[[ -x $LOADGEN ]] || die "$LOADGEN is missing: run make loadgen"
mkdir -p "$OUT"

# 10,000 spectator connections need as many descriptors, in loadgen and server.
hard=$(ulimit -Hn)
want=65536
[[ $hard == unlimited || $hard -ge $want ]] || want=$hard
ulimit -n "$want" || true
note "open files limit $(ulimit -n); results in $OUT"

# --- the machine ------------------------------------------------------------------------
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
    echo "nproc: $(nproc)"
    echo "memory: $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)"
    echo "kernel: $(uname -r)"
    echo "postgres: $(/usr/lib/postgresql/*/bin/postgres --version 2>/dev/null | tail -n1)"
    echo "node: $(node --version 2>/dev/null || echo none)"
    echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
} >"$OUT/machine.txt"
sed 's/^/bench: /' "$OUT/machine.txt" >&2

# --- PostgreSQL ---------------------------------------------------------------------------
bash scripts/pg.sh start
PG_URL=$(bash scripts/pg.sh url)
PG_DATA=$(readlink -f var/pg)/data
PG_PID=$(head -n1 "$PG_DATA/postmaster.pid")
PSQL=(psql -X -q -At -v ON_ERROR_STOP=1)
note "postgres: synchronous_commit=$("${PSQL[@]}" "$PG_URL" -c 'show synchronous_commit'), fsync=$("${PSQL[@]}" "$PG_URL" -c 'show fsync')"
db_url() { sed "s#^postgresql:///[^?]*#postgresql:///$1#" <<<"$PG_URL"; }

# --- servers ------------------------------------------------------------------------------
SRV_PID="" SRV_DB=""
stop_server() {
    if [[ -n $SRV_PID ]] && kill -0 "$SRV_PID" 2>/dev/null; then
        kill -TERM "$SRV_PID" 2>/dev/null || true
        for _ in $(seq 100); do kill -0 "$SRV_PID" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$SRV_PID" 2>/dev/null || true
        wait "$SRV_PID" 2>/dev/null || true
    fi
    SRV_PID=""
    if [[ -n $SRV_DB ]]; then
        "${PSQL[@]}" "$PG_URL" -c "DROP DATABASE IF EXISTS $SRV_DB WITH (FORCE)" || true
        SRV_DB=""
    fi
}
trap stop_server EXIT

# Wait for the JSON line {"event":"listening",...} in $1; prints it.
wait_listening() {
    local log=$1 pid=$2 i
    for i in $(seq 300); do
        if grep -q '"event":"listening"' "$log" 2>/dev/null; then
            grep -m1 '"event":"listening"' "$log"
            return 0
        fi
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    tail -n 20 "$log" >&2
    return 1
}

# A fresh database and a fresh `conclave serve` on free ports: sets SRV_PID,
# HTTP_PORT, WS_PORT, SRV_DB.
start_conclave() {
    local name=$1
    SRV_DB=conclave_bench_$(date +%s)_$RANDOM
    "${PSQL[@]}" "$PG_URL" -c "CREATE DATABASE $SRV_DB"
    env "${BENCH_SERVER_ENV[@]}" DATABASE_URL="$(db_url "$SRV_DB")" \
        "$BIN" serve >"$OUT/$name.server.out" 2>"$OUT/$name.server.log" &
    SRV_PID=$!
    local line
    line=$(wait_listening "$OUT/$name.server.log" "$SRV_PID") || die "conclave did not start (log: $OUT/$name.server.log)"
    HTTP_PORT=$(sed -n 's/.*"http_port":\([0-9]*\).*/\1/p' <<<"$line")
    WS_PORT=$(sed -n 's/.*"ws_port":\([0-9]*\).*/\1/p' <<<"$line")
    sleep 1 # settle before the idle memory is read
}

# boardgame.io; with a second argument "pg", on a fresh database of the
# private cluster through bgio-postgres (sets SRV_DB, dropped by stop_server).
start_bgio() {
    local name=$1 pgenv=()
    if [[ ${2:-} == pg ]]; then
        SRV_DB=bgio_bench_$(date +%s)_$RANDOM
        "${PSQL[@]}" "$PG_URL" -c "CREATE DATABASE $SRV_DB"
        pgenv=(BGIO_PG_DATABASE="$SRV_DB" BGIO_PG_HOST="$(readlink -f var/pg/run)"
            BGIO_PG_PORT="$(cat var/pg/port)" BGIO_PG_USER=postgres)
    fi
    (cd "$PEERS" && exec env "${pgenv[@]}" NODE_ENV=production PORT=0 node server.mjs) \
        >"$OUT/$name.server.out" 2>"$OUT/$name.server.log" &
    SRV_PID=$!
    local line
    line=$(wait_listening "$OUT/$name.server.out" "$SRV_PID") || die "boardgame.io did not start (log: $OUT/$name.server.log)"
    BGIO_PORT=$(sed -n 's/.*"port":\([0-9]*\).*/\1/p' <<<"$line")
    sleep 1
}

# The server's group-commit counters (transactions, inputs they carried)
# into OUT/NAME.metrics.txt, before the server stops.
save_commit_metrics() {
    curl -s "http://127.0.0.1:$HTTP_PORT/metrics" 2>/dev/null |
        grep -E '^conclave_(commit|inputs_total)' >"$OUT/$1.metrics.txt" || true
}

# Connections per loopback address: MHD's per-address cap is 64 by default.
spread_for() { echo $(((2 * $1 + 49) / 50)); }

# --- 1. engine ----------------------------------------------------------------------------
if [[ $SELFPLAY == 1 ]]; then
    note "engine: conclave selfplay (basic bots)"
    for spec in tictactoe:2:100000 rps:2:20000 sprint:2:2000 sprint:4:1500; do
        IFS=: read -r rs seats games <<<"$spec"
        "$BIN" selfplay --ruleset "$rs" --seats "$seats" --games "$games" --seed 01 --bot basic \
            >"$OUT/selfplay-$rs-$seats.json"
        cat "$OUT/selfplay-$rs-$seats.json" >&2
    done
fi

# --- 2. play: ours, then theirs, at each size ---------------------------------------------
if [[ $PEER == 1 ]]; then
    note "installing the peer (boardgame.io) with npm"
    if [[ -f $PEERS/package-lock.json ]]; then
        (cd "$PEERS" && npm ci --no-audit --no-fund --loglevel=error) >&2 || PEER=0
    else
        (cd "$PEERS" && npm install --no-audit --no-fund --loglevel=error) >&2 || PEER=0
    fi
    [[ $PEER == 1 ]] || note "npm install failed: the boardgame.io runs are skipped"
fi

for n in $SIZES; do
    note "play: conclave, $n games, ${DURATION}s"
    start_conclave "play-conclave-$n"
    "$LOADGEN" play --http "127.0.0.1:$HTTP_PORT" --ws "127.0.0.1:$WS_PORT" --games "$n" \
        --duration "$DURATION" --spread "$(spread_for "$n")" --server-pid "$SRV_PID" \
        --pg-pid "$PG_PID" --pg-db "$SRV_DB" --label "$n games" \
        --json "$OUT/play-conclave-$n.json" >/dev/null || note "loadgen reported errors (exit $?)"
    save_commit_metrics "play-conclave-$n"
    stop_server
    if [[ $PEER == 1 ]]; then
        note "play: boardgame.io, $n games, ${DURATION}s"
        start_bgio "play-bgio-$n"
        node "$PEERS/driver.mjs" --port "$BGIO_PORT" --games "$n" --duration "$DURATION" \
            --server-pid "$SRV_PID" --label "$n games" --json "$OUT/play-bgio-$n.json" >/dev/null ||
            note "the driver reported errors (exit $?)"
        stop_server
    fi
    if [[ $PEER == 1 && $PEER_PG == 1 ]]; then
        note "play: boardgame.io with bgio-postgres, $n games, ${DURATION}s"
        start_bgio "play-bgiopg-$n" pg
        node "$PEERS/driver.mjs" --port "$BGIO_PORT" --games "$n" --duration "$DURATION" \
            --server-pid "$SRV_PID" --label "$n games" --json "$OUT/play-bgiopg-$n.json" >/dev/null ||
            note "the driver reported errors (exit $?)"
        stop_server
    fi
done

# --- 3. fan-out ---------------------------------------------------------------------------
for spec in $FANOUT; do
    g=${spec%x*} k=${spec#*x}
    note "fan-out: conclave, $g games x $k spectators, one move per game every ${FANOUT_INTERVAL} ms"
    start_conclave "fanout-$spec"
    "$LOADGEN" fanout --http "127.0.0.1:$HTTP_PORT" --ws "127.0.0.1:$WS_PORT" --games "$g" \
        --spectators "$k" --interval-ms "$FANOUT_INTERVAL" --duration "$DURATION" --spread 4 \
        --server-pid "$SRV_PID" --pg-pid "$PG_PID" --pg-db "$SRV_DB" --label "$spec" \
        --json "$OUT/fanout-$spec.json" >/dev/null || note "loadgen reported errors (exit $?)"
    stop_server
done

# --- 4. sprint -----------------------------------------------------------------------------
for n in $SPRINT; do
    note "sprint: conclave, $n games of 4 seats, sealed orders, ${DURATION}s"
    start_conclave "sprint-$n"
    "$LOADGEN" sprint --http "127.0.0.1:$HTTP_PORT" --ws "127.0.0.1:$WS_PORT" --games "$n" \
        --duration "$DURATION" --spread "$(spread_for "$((2 * n))")" --server-pid "$SRV_PID" \
        --pg-pid "$PG_PID" --pg-db "$SRV_DB" --label "$n games" \
        --json "$OUT/sprint-$n.json" >/dev/null || note "loadgen reported errors (exit $?)"
    save_commit_metrics "sprint-$n"
    stop_server
done

# --- 5. the table -------------------------------------------------------------------------
node "$ROOT/bench/report.mjs" "$OUT" | tee "$OUT/summary.md"

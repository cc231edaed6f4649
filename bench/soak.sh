#!/usr/bin/env bash
# bench/soak.sh - a long mixed load against one server: does its memory keep growing,
# do errors appear over time? Not part of `make test` or `make bench`.
#
#   SOAK_SECONDS=1800 bash bench/soak.sh        (default 30 minutes)
#
# Starts the private PostgreSQL (scripts/pg.sh) and a fresh database, builds and
# starts build/conclave (BUILD to change) with the rate limits lifted, then runs, all
# at once for SOAK_SECONDS:
#   - loadgen play:   SOAK_GAMES (40) concurrent tic-tac-toe games, REST plays and
#                     WebSocket views, new games as games end;
#   - loadgen fanout: SOAK_FANOUT_GAMES (10) games with SOAK_SPECTATORS (20)
#                     spectator WebSockets each, a move every 200 ms;
#   - soak_mixed.mjs: SOAK_WORKERS (8) players each playing rock-paper-scissors and
#                     Galactic Sprint (1-4 seats, bots in the others) with sealed
#                     orders, one game after another.
# The server's resident memory (VmRSS) and the games it holds in memory
# (conclave_games_in_memory from /metrics) are sampled every 10 s. Games stay in
# memory until idle for CONCLAVE_IDLE_EVICT seconds (300 by default): SOAK_IDLE_EVICT
# sets it, so that a shorter soak reaches the steady state where games leave as fast
# as they come. Output in bench/out/soak-DATE/: rss.csv, loadgen*.json, mixed.json,
# server.log, and summary.txt: RSS after the first minute, at the end, its maximum,
# the growth per hour from the first minute on and over the last third, games in
# memory, games and requests, errors of every client, and the server's warn/error
# log lines.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
cd "$ROOT"
BUILD=${BUILD:-build}
SECS=${SOAK_SECONDS:-1800}
SETTLE=$((${SOAK_IDLE_EVICT:-300} + 40)) # after the load, long enough for eviction
OUTDIR=bench/out/soak-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$OUTDIR"

make --no-print-directory -s BUILD="$BUILD" "$BUILD/conclave" "$BUILD/bench/loadgen"
bash scripts/pg.sh start >/dev/null
BASE_URL=$(bash scripts/pg.sh url)
DB=conclave_soak_$(date +%s)
psql -X -q "$BASE_URL" -c "CREATE DATABASE $DB"
DB_URL=${BASE_URL/\/conclave\?/\/$DB?}

CONCLAVE_HTTP_PORT=0 CONCLAVE_WS_PORT=0 CONCLAVE_RATE=1000000 CONCLAVE_RATE_BURST=1000000 \
    CONCLAVE_SIGNUPS_PER_HOUR=1000000 CONCLAVE_SIGNINS_PER_MINUTE=1000000 CONCLAVE_SCRYPT_CONCURRENCY=64 \
    CONCLAVE_LOBBIES_PER_PLAYER=1000000 CONCLAVE_LIVE_GAMES_PER_PLAYER=1000000 \
    CONCLAVE_ASYNC_GAMES_PER_PLAYER=1000000 \
    CONCLAVE_WS_IP_RATE=1000000 CONCLAVE_WS_IP_RATE_BURST=1000000 \
    CONCLAVE_WS_AUTH_RATE=1000000 CONCLAVE_WS_AUTH_BURST=1000000 CONCLAVE_WS_PER_IP=1000000 \
    CONCLAVE_IDLE_EVICT=${SOAK_IDLE_EVICT:-300} DATABASE_URL=$DB_URL \
    "$BUILD/conclave" serve 2>"$OUTDIR/server.log" &
PID=$!
cleanup() {
    kill "$PID" 2>/dev/null || true
    wait "$PID" 2>/dev/null || true
    psql -X -q "$BASE_URL" -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null 2>&1 || true
}
trap cleanup EXIT
for _ in $(seq 100); do
    grep -q '"event":"listening"' "$OUTDIR/server.log" && break
    sleep 0.1
done
line=$(grep '"event":"listening"' "$OUTDIR/server.log")
HTTP=$(sed 's/.*"http_port":\([0-9]*\).*/\1/' <<<"$line")
WS=$(sed 's/.*"ws_port":\([0-9]*\).*/\1/' <<<"$line")
echo "soak: server pid $PID, http $HTTP, ws $WS, $SECS s, output $OUTDIR"

rss() { awk '/^VmRSS/ { print $2 }' "/proc/$PID/status"; }
games() {
    curl -s --max-time 5 "http://127.0.0.1:$HTTP/metrics" |
        awk '/^conclave_games_in_memory / { print $2 }'
}
echo "seconds,rss_kb,games_in_memory" >"$OUTDIR/rss.csv"
(
    t=0
    while kill -0 "$PID" 2>/dev/null && ((t <= SECS + SETTLE)); do
        echo "$t,$(rss),$(games)" >>"$OUTDIR/rss.csv"
        sleep 10
        t=$((t + 10))
    done
) &
SAMPLER=$!

"$BUILD/bench/loadgen" play --http "127.0.0.1:$HTTP" --ws "127.0.0.1:$WS" \
    --games "${SOAK_GAMES:-40}" --duration "$SECS" --spread 4 --server-pid "$PID" \
    --json "$OUTDIR/loadgen-play.json" >/dev/null 2>"$OUTDIR/loadgen-play.txt" &
LG1=$!
"$BUILD/bench/loadgen" fanout --http "127.0.0.1:$HTTP" --ws "127.0.0.1:$WS" \
    --games "${SOAK_FANOUT_GAMES:-10}" --spectators "${SOAK_SPECTATORS:-20}" --interval-ms 200 \
    --duration "$SECS" --spread 4 --server-pid "$PID" \
    --json "$OUTDIR/loadgen-fanout.json" >/dev/null 2>"$OUTDIR/loadgen-fanout.txt" &
LG2=$!
node bench/soak_mixed.mjs --url "http://127.0.0.1:$HTTP" --duration "$SECS" \
    --workers "${SOAK_WORKERS:-8}" >"$OUTDIR/mixed.json" 2>"$OUTDIR/mixed.txt" &
MIX=$!
status=0
wait "$LG1" || status=$?
wait "$LG2" || status=$?
wait "$MIX" || status=$?
sleep "$SETTLE" # samples after the load: do the games leave memory?
kill "$SAMPLER" 2>/dev/null || true
wait "$SAMPLER" 2>/dev/null || true
alive=no
kill -0 "$PID" 2>/dev/null && alive=yes

node - "$OUTDIR" "$SECS" "$alive" <<'EOF' | tee "$OUTDIR/summary.txt"
const fs = require('fs');
const [dir, secs, alive] = process.argv.slice(2);
const rows = fs.readFileSync(`${dir}/rss.csv`, 'utf8').trim().split('\n').slice(1).map((l) => l.split(',').map(Number)).filter((r) => r[1] > 0);
const at = (t) => rows.reduce((best, r) => (Math.abs(r[0] - t) < Math.abs(best[0] - t) ? r : best), rows[0]);
const warm = at(60), loadEnd = at(Number(secs)), last = rows[rows.length - 1];
const max = Math.max(...rows.map((r) => r[1]));
const mb = (kb) => (kb / 1024).toFixed(1);
const perHour = ((loadEnd[1] - warm[1]) / Math.max(1, loadEnd[0] - warm[0])) * 3600;
const half = at((Number(secs) * 2) / 3);
const perHourLate = ((loadEnd[1] - half[1]) / Math.max(1, loadEnd[0] - half[0])) * 3600;
const gm = (r) => (Number.isFinite(r[2]) ? r[2] : '?');
const read = (f) => { try { return JSON.parse(fs.readFileSync(`${dir}/${f}`, 'utf8')); } catch { return null; } };
const play = read('loadgen-play.json'), fan = read('loadgen-fanout.json'), mixed = read('mixed.json');
const log = fs.readFileSync(`${dir}/server.log`, 'utf8').split('\n');
const warnings = log.filter((l) => /"level":"(warn|error)"/.test(l));
console.log(`soak: ${secs} s of mixed load; server still running: ${alive}`);
console.log(`rss: ${mb(rows[0][1])} MB at start, ${mb(warm[1])} MB at ${warm[0]} s, ${mb(half[1])} MB at ${half[0]} s, ${mb(loadEnd[1])} MB at ${loadEnd[0]} s (end of load), ${mb(last[1])} MB ${last[0] - loadEnd[0]} s later, max ${mb(max)} MB`);
console.log(`rss growth: ${mb(perHour)} MB/hour after the first minute, ${mb(perHourLate)} MB/hour over the last third of the load`);
console.log(`games in memory: ${gm(warm)} at ${warm[0]} s, ${gm(half)} at ${half[0]} s, ${gm(loadEnd)} at the end of the load, ${gm(last)} ${last[0] - loadEnd[0]} s later`);
if (play) console.log(`loadgen play: ${JSON.stringify({ moves: play.moves ?? play.moves_window, games: play.games_finished ?? play.games, errors: play.errors })}`);
if (fan) console.log(`loadgen fanout: ${JSON.stringify({ errors: fan.errors, delivered: fan.delivered ?? fan.messages })}`);
if (mixed) console.log(`mixed (rps, sprint): ${mixed.games} games, ${mixed.requests} requests, statuses ${JSON.stringify(mixed.by_status)}, errors ${mixed.errors}${mixed.errors ? ` e.g. ${mixed.error_samples[0]}` : ''}`);
console.log(`server log: ${log.length} lines, ${warnings.length} warn/error${warnings.length ? `, e.g. ${warnings[0]}` : ''}`);
EOF
exit "$status"

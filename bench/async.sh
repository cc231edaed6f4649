#!/usr/bin/env bash
# bench/async.sh - `make bench-async`: the asynchronous-scale run. Many stored
# games, some of them waiting on a player, inputs at a steady rate; the server's
# RSS, memory per game held in memory, submit latency and the time to load an
# evicted game (bench/lg_async.c measures; docs/performance.md has the figures).
#
#   1. a fresh database of the private cluster and a fresh `conclave serve`
#      (run.sh's raised abuse limits, CONCLAVE_IDLE_EVICT=ASYNC_EVICT);
#   2. ASYNC_PLAYERS players registered through the API (POST /players), and two
#      template games made through the API between two of them, tic-tac-toe with
#      an async clock of a day per window: one just started (window t1 open,
#      its deadline and inbox rows written), one played to a draw (finished);
#   3. the server stops and the templates are copied in bulk in SQL, one
#      INSERT ... SELECT per table: every row the server wrote for a template,
#      in every table that holds rows of it (lobbies, lobby_seats, games,
#      game_seats, game_inputs, deadlines, turns_waiting, seat_windows, ...),
#      with new game and lobby ids and the seats given to the registered
#      players in turn. ASYNC_OPEN copies of the open game, ASYNC_GAMES minus
#      that of the finished one. The 'started' notification facts the games
#      trigger writes for each copy are deleted (the notifier consumed the
#      templates' own long before). The script warns of any table with a
#      game_id column it does not copy;
#   4. the server starts again on that database (it loads a game when an
#      input or read asks for it, like any stored game), and
#      `loadgen async` plays ASYNC_RATE inputs/s round robin over the open
#      games for ASYNC_DURATION s, waits for the eviction, then plays
#      ASYNC_AFTER inputs to evicted games.
#
# Settings (environment):
#   ASYNC_GAMES=100000   stored games in all
#   ASYNC_OPEN=10000     of which waiting on a player (the rest finished)
#   ASYNC_PLAYERS=1000   registered players the seats are spread over
#   ASYNC_RATE=200       inputs per second
#   ASYNC_DURATION=90    seconds of the steady run (one round over the open
#                        games takes ASYNC_OPEN / ASYNC_RATE seconds)
#   ASYNC_EVICT=60       CONCLAVE_IDLE_EVICT of the server (default 300)
#   ASYNC_AFTER=2000     inputs to evicted games after the eviction
#   BENCH_OUT=bench/out/async-DATE   results: async.json, server log, seed timing
#   BUILD=build
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
cd "$ROOT"
BUILD=${BUILD:-build}
BIN=$ROOT/$BUILD/conclave
LOADGEN=$ROOT/$BUILD/bench/loadgen
GAMES=${ASYNC_GAMES:-100000}
OPEN=${ASYNC_OPEN:-10000}
PLAYERS=${ASYNC_PLAYERS:-1000}
RATE=${ASYNC_RATE:-200}
DURATION=${ASYNC_DURATION:-90}
EVICT=${ASYNC_EVICT:-60}
AFTER=${ASYNC_AFTER:-2000}
OUT=${BENCH_OUT:-$ROOT/bench/out/async-$(date +%Y%m%d-%H%M%S)}

note() { echo "bench-async: $*" >&2; }
die() {
    echo "bench-async: $*" >&2
    exit 1
}
[[ -x $BIN ]] || die "$BIN is missing: run make first"
[[ -x $LOADGEN ]] || die "$LOADGEN is missing: run make loadgen"
((OPEN >= 1 && OPEN <= GAMES && PLAYERS >= 2 && PLAYERS % 2 == 0)) ||
    die "need 1 <= ASYNC_OPEN <= ASYNC_GAMES and an even ASYNC_PLAYERS >= 2"
mkdir -p "$OUT"
note "$GAMES games ($OPEN open), $PLAYERS players, $RATE inputs/s for ${DURATION}s, evict after ${EVICT}s; results in $OUT"
echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)" >"$OUT/machine.txt"
echo "nproc: $(nproc); load: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/machine.txt"

bash scripts/pg.sh start >/dev/null
PG_URL=$(bash scripts/pg.sh url)
PSQL=(psql -X -q -At -v ON_ERROR_STOP=1)
db_url() { sed "s#^postgresql:///[^?]*#postgresql:///$1#" <<<"$PG_URL"; }
DB=conclave_async_$(date +%s)_$RANDOM
"${PSQL[@]}" "$PG_URL" -c "CREATE DATABASE $DB"
URL=$(db_url "$DB")

SRV_PID=""
stop_server() {
    if [[ -n $SRV_PID ]] && kill -0 "$SRV_PID" 2>/dev/null; then
        kill -TERM "$SRV_PID" 2>/dev/null || true
        for _ in $(seq 100); do kill -0 "$SRV_PID" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$SRV_PID" 2>/dev/null || true
        wait "$SRV_PID" 2>/dev/null || true
    fi
    SRV_PID=""
}
cleanup() {
    stop_server
    [[ ${ASYNC_KEEP_DB:-0} == 1 ]] || "${PSQL[@]}" "$PG_URL" -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" || true
}
trap cleanup EXIT

start_server() {
    local log=$OUT/$1.server.log
    DATABASE_URL=$URL CONCLAVE_HTTP_PORT=0 CONCLAVE_WS_PORT=0 CONCLAVE_IDLE_EVICT=$EVICT \
        CONCLAVE_RATE=1000000 CONCLAVE_RATE_BURST=1000000 CONCLAVE_LOG_LEVEL=info \
        CONCLAVE_SIGNUPS_PER_HOUR=1000000 CONCLAVE_SIGNINS_PER_MINUTE=1000000 \
        CONCLAVE_LOBBIES_PER_PLAYER=1000000 CONCLAVE_LIVE_GAMES_PER_PLAYER=1000000 \
        CONCLAVE_ASYNC_GAMES_PER_PLAYER=1000000 \
        "$BIN" serve >"$OUT/$1.server.out" 2>"$log" &
    SRV_PID=$!
    local i
    for i in $(seq 300); do
        grep -q '"event":"listening"' "$log" 2>/dev/null && break
        kill -0 "$SRV_PID" 2>/dev/null || die "conclave did not start (log: $log)"
        sleep 0.1
    done
    HTTP_PORT=$(grep -m1 '"event":"listening"' "$log" | sed -n 's/.*"http_port":\([0-9]*\).*/\1/p')
    [[ -n $HTTP_PORT ]] || die "conclave did not start (log: $log)"
    API=http://127.0.0.1:$HTTP_PORT/api/v1
}

# POST/GET with a token; prints the body, fails on a status >= 400.
api() {
    local method=$1 path=$2 token=$3 body=${4:-}
    curl -sf -X "$method" "$API$path" -H "Authorization: Bearer $token" \
        -H "Idempotency-Key: k$RANDOM$RANDOM" ${body:+-d "$body"}
}
field() { python3 -c "import json,sys; print(json.load(sys.stdin)['$1'])"; }

# --- 1-2. players and the two templates, through the API ------------------------------
start_server setup
note "registering $PLAYERS players"
t=$(date +%s.%N)
for i in $(seq 0 $((PLAYERS - 1))); do
    curl -sf -X POST "$API/players" -d "{\"name\":\"as$i\"}"
    echo
done | python3 -c '
import json, sys
for i, line in enumerate(sys.stdin):
    d = json.loads(line)
    print(i, d["id"], d["token"], sep="\t")' >"$OUT/players.tsv"
[[ $(wc -l <"$OUT/players.tsv") == "$PLAYERS" ]] || die "registration failed"
T0=$(sed -n 1p "$OUT/players.tsv" | cut -f3)
T1=$(sed -n 2p "$OUT/players.tsv" | cut -f3)
new_game() {
    local lobby
    lobby=$(api POST /lobbies "$T0" '{"ruleset":"tictactoe","seats":2,"clock":{"mode":"async","seconds":86400}}' | field id)
    api POST "/lobbies/$lobby/seats" "$T1" '{}' >/dev/null
    api POST "/lobbies/$lobby/start" "$T0" | field game
}
OPEN_T=$(new_game)
DONE_T=$(new_game)
v=0
for cell in 4 0 2 6 3 5 1 7 8; do
    tok=$T0
    ((v % 2 == 0)) || tok=$T1
    api POST "/games/$DONE_T/plays" "$tok" "{\"window\":\"t$((v + 1))\",\"cell\":$cell}" >/dev/null
    v=$((v + 1))
done
[[ $(api GET "/games/$DONE_T" "$T0" | field status) == finished ]] || die "the finished template did not finish"
note "players and templates in $(python3 -c "print(round($(date +%s.%N) - $t, 1))") s (open $OPEN_T, finished $DONE_T)"
stop_server

# --- 3. the copies, in SQL -----------------------------------------------------------------
note "copying the templates: $OPEN open and $((GAMES - OPEN)) finished games"
t=$(date +%s.%N)
"${PSQL[@]}" "$URL" -c "CREATE TABLE bench_pl (i int, id text, token text)" \
    -c "\\copy bench_pl FROM '$OUT/players.tsv'"
"${PSQL[@]}" "$URL" -v open_t="$OPEN_T" -v done_t="$DONE_T" -v n="$GAMES" -v open_n="$OPEN" \
    <<'SQL' >"$OUT/seed.txt" 2>&1
\timing on
BEGIN;
-- clone i: new game and lobby ids, its template, the players of its seats
-- (bench_pl: the registered players, loaded just before).
CREATE TABLE bench_clone AS
SELECT i,
       CASE WHEN i < :open_n THEN 'ao' ELSE 'af' END || lpad(i::text, 14, '0') AS game_id,
       'al' || lpad(i::text, 14, '0') AS lobby_id,
       CASE WHEN i < :open_n THEN :'open_t' ELSE :'done_t' END AS tmpl
  FROM generate_series(0, :n - 1) i;
ALTER TABLE bench_clone ADD COLUMN p0 text, ADD COLUMN p1 text;
UPDATE bench_clone c SET p0 = a.id, p1 = b.id
  FROM bench_pl a, bench_pl b, (SELECT count(*) AS k FROM bench_pl) np
 WHERE a.i = (2 * c.i) % np.k AND b.i = (2 * c.i + 1) % np.k;
CREATE TEMP TABLE tmpl AS
SELECT g.game_id, g.lobby_id,
       (SELECT player_id FROM game_seats s WHERE s.game_id = g.game_id AND seat = 0) AS p0,
       (SELECT player_id FROM game_seats s WHERE s.game_id = g.game_id AND seat = 1) AS p1
  FROM games g WHERE g.game_id IN (:'open_t', :'done_t');
-- A row of a template, with the clone's ids and players. Works for any table:
-- the row goes through jsonb, its id columns are replaced, the rest is kept.
CREATE FUNCTION pg_temp.remap(r jsonb, c bench_clone, t tmpl) RETURNS jsonb LANGUAGE sql AS $$
  SELECT r || jsonb_strip_nulls(jsonb_build_object(
      'game_id', CASE WHEN r ? 'game_id' THEN c.game_id END,
      'lobby_id', CASE WHEN r ? 'lobby_id' THEN c.lobby_id END,
      'player_id', CASE r ->> 'player_id' WHEN t.p0 THEN c.p0 WHEN t.p1 THEN c.p1 END,
      'host_id', CASE r ->> 'host_id' WHEN t.p0 THEN c.p0 WHEN t.p1 THEN c.p1 END))
$$;
INSERT INTO lobbies
SELECT p.* FROM lobbies x JOIN tmpl t ON x.id = t.lobby_id JOIN bench_clone c ON c.tmpl = t.game_id,
  LATERAL jsonb_populate_record(null::lobbies, pg_temp.remap(to_jsonb(x), c, t)
          || jsonb_build_object('id', c.lobby_id, 'game_id', c.game_id)) p;
INSERT INTO lobby_seats
SELECT p.* FROM lobby_seats x JOIN tmpl t ON x.lobby_id = t.lobby_id JOIN bench_clone c ON c.tmpl = t.game_id,
  LATERAL jsonb_populate_record(null::lobby_seats, pg_temp.remap(to_jsonb(x), c, t)) p;
SELECT 'lobbies', count(*) FROM lobbies;
-- every game table: the ones listed are copied, any other with template rows stops us
DO $$
DECLARE tb text; k bigint;
BEGIN
  FOREACH tb IN ARRAY ARRAY['games','game_seats','game_inputs','game_snapshots','deadlines',
      'turns_waiting','seat_windows','game_events','chat_channels','chat_messages','chat_reads',
      'notify_facts','notify_told','notify_deliveries'] LOOP
    EXECUTE format('INSERT INTO %I SELECT p.* FROM %I x JOIN tmpl t ON x.game_id = t.game_id
        JOIN bench_clone c ON c.tmpl = t.game_id,
        LATERAL jsonb_populate_record(null::%I, pg_temp.remap(to_jsonb(x), c, t)) p', tb, tb, tb);
    GET DIAGNOSTICS k = ROW_COUNT;
    RAISE NOTICE '% rows copied into %', k, tb;
  END LOOP;
END $$;
-- The games trigger wrote a 'started' fact per copy into the notification
-- outbox; the notifier consumed the templates' long ago: so for the copies.
DELETE FROM notify_facts WHERE game_id LIKE 'a_0%' AND game_id IN (SELECT game_id FROM bench_clone);
SELECT 'game tables not copied: ' || coalesce(string_agg(table_name, ','), 'none')
  FROM information_schema.columns
 WHERE column_name = 'game_id' AND table_schema = 'public'
   AND table_name NOT IN ('games','game_seats','game_inputs','game_snapshots','deadlines',
      'turns_waiting','seat_windows','game_events','chat_channels','chat_messages','chat_reads',
      'notify_facts','notify_told','notify_deliveries','lobbies','bench_clone');
COMMIT;
ANALYZE;
SELECT 'games', status, count(*) FROM games GROUP BY status ORDER BY status;
SELECT 'database size', pg_size_pretty(pg_database_size(current_database()));
SQL
"${PSQL[@]}" "$URL" -c "\\copy (SELECT c.game_id, a.token, b.token FROM bench_clone c JOIN bench_pl a ON a.id = c.p0 JOIN bench_pl b ON b.id = c.p1 WHERE c.game_id LIKE 'ao%' ORDER BY c.i) TO '$OUT/games.tsv' (FORMAT text, DELIMITER ' ')" \
    -c "DROP TABLE bench_clone, bench_pl"
grep -q 'game tables not copied: none' "$OUT/seed.txt" ||
    note "tables holding game_id that the copy does not know (check them): $(grep 'not copied' "$OUT/seed.txt")"
note "copied in $(python3 -c "print(round($(date +%s.%N) - $t, 1))") s: $(tr '\n' ' ' <"$OUT/seed.txt")"
[[ $(wc -l <"$OUT/games.tsv") == "$OPEN" ]] || die "games.tsv does not list $OPEN games"

# --- 4. the run ----------------------------------------------------------------------------
start_server run
sleep 2 # settle before the idle memory is read
"$LOADGEN" async --http "127.0.0.1:$HTTP_PORT" --games-file "$OUT/games.tsv" --rate "$RATE" \
    --duration "$DURATION" --evict-seconds "$EVICT" --evict-wait $((EVICT + 30)) \
    --after "$AFTER" --spread 4 --server-pid "$SRV_PID" \
    --label "$GAMES games, $OPEN open, $RATE/s" --json "$OUT/async.json" >/dev/null ||
    note "loadgen reported errors (exit $?)"
# A copy of the finished template reads back as the server wrote it.
last=$(printf 'af%014d' $((GAMES - 1)))
((GAMES > OPEN)) && { api GET "/games/$last" "$T0" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["status"] == "finished" and d["version"] == 9, d
print("bench-async: a finished copy reads back: status", d["status"], "version", d["version"], file=sys.stderr)'; }
curl -s "http://127.0.0.1:$HTTP_PORT/metrics" | grep -E '^conclave_(games_in_memory|commit|inputs_total)' >"$OUT/metrics.txt" || true

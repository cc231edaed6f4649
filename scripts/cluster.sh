#!/usr/bin/env bash
# scripts/cluster.sh - several `conclave serve` processes on one PostgreSQL behind HAProxy
# (docs/scaling.md), for development, tests and benchmarks on one machine.
#
#   scripts/cluster.sh start N     start N processes and HAProxy (N from 1 to 16)
#   scripts/cluster.sh stop        drain and stop them all (SIGTERM), then HAProxy
#   scripts/cluster.sh status      list what runs; exit 0 if HAProxy and every process run
#   scripts/cluster.sh kill I      kill -9 process I (1..N), as a crash would
#   scripts/cluster.sh drain I     SIGTERM process I: it drains and exits
#   scripts/cluster.sh restart I   start process I again (after kill or drain)
#
# HAProxy listens on CLUSTER_HTTP_PORT (8080) for the API and the page and on
# CLUSTER_WS_PORT (8081) for the WebSocket feed, on CLUSTER_BIND (127.0.0.1). Process I
# listens on 127.0.0.1, HTTP at CLUSTER_BASE_PORT + 2*I and WebSocket one above. HAProxy
# checks each process's /readyz every second and stops sending new traffic to one that
# fails twice: a crashed process, or one draining after SIGTERM (CONCLAVE_DRAIN_SECONDS,
# 3 here). A request whose connection is refused is sent to another process. API requests
# are spread by a consistent hash of their path's first four parts (/api/v1/games/ID), so
# a game's inputs go to one process; WebSocket connections go to the least busy one.
#
# Uses DATABASE_URL when set, else this checkout's private cluster (scripts/pg.sh).
# State (haproxy.cfg, pids, logs) lives in var/cluster/. Extra environment for the
# processes passes through (CONCLAVE_* variables).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

STATE=${CLUSTER_STATE:-var/cluster}
BUILD=${BUILD:-build}
BIND=${CLUSTER_BIND:-127.0.0.1}
HTTP_PORT=${CLUSTER_HTTP_PORT:-8080}
WS_PORT=${CLUSTER_WS_PORT:-8081}
BASE_PORT=${CLUSTER_BASE_PORT:-9100}

die() {
    echo "cluster: $*" >&2
    exit 1
}

http_port_of() { echo $((BASE_PORT + 2 * $1)); }
ws_port_of() { echo $((BASE_PORT + 2 * $1 + 1)); }

# Whether the process in pid file $1 runs. A killed process whose parent has
# not reaped it yet (a zombie) does not: `kill -0` alone would say it does,
# and a restart right after a kill -9 would then start nothing.
alive() {
    [[ -f $1 ]] || return 1
    local pid state
    pid=$(<"$1")
    kill -0 "$pid" 2>/dev/null || return 1
    state=$(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null | cut -d' ' -f1)
    [[ $state != Z ]]
}

# Wait until process I answers /readyz with 200 (up to 30 s).
wait_ready() {
    local port i
    port=$(http_port_of "$1")
    for ((i = 0; i < 300; i++)); do
        if curl -fsS -o /dev/null "http://127.0.0.1:$port/readyz" 2>/dev/null; then
            return 0
        fi
        alive "$STATE/conclave-$1.pid" || die "process $1 exited; see $STATE/conclave-$1.log"
        sleep 0.1
    done
    die "process $1 is not ready after 30 s; see $STATE/conclave-$1.log"
}

start_one() {
    local i=$1
    alive "$STATE/conclave-$i.pid" && return 0
    CONCLAVE_HTTP_PORT=$(http_port_of "$i") CONCLAVE_WS_PORT=$(ws_port_of "$i") \
        CONCLAVE_BIND=127.0.0.1 CONCLAVE_PUBLIC_WS_PORT=$WS_PORT \
        CONCLAVE_DRAIN_SECONDS=${CONCLAVE_DRAIN_SECONDS:-3} \
        CONCLAVE_TRUSTED_PROXIES=${CONCLAVE_TRUSTED_PROXIES:-127.0.0.1/32} \
        CONCLAVE_ALLOWED_ORIGINS=${CONCLAVE_ALLOWED_ORIGINS:-http://localhost:$HTTP_PORT,http://127.0.0.1:$HTTP_PORT} \
        DATABASE_URL=$DATABASE_URL \
        setsid "$BUILD/conclave" serve >>"$STATE/conclave-$i.log" 2>&1 </dev/null &
    echo $! >"$STATE/conclave-$i.pid"
}

write_haproxy_cfg() {
    local n=$1 i maxconn
    # Two sockets per proxied connection, within this shell's file limit.
    maxconn=$((($(ulimit -n) - 200) / 2))
    ((maxconn > 100000)) && maxconn=100000
    {
        cat <<EOF
# Written by scripts/cluster.sh for $n processes; rewritten on every start.
global
    maxconn $maxconn
    pidfile $PWD/$STATE/haproxy.pid

defaults
    mode http
    option forwardfor
    option redispatch
    retries 3
    retry-on conn-failure
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    timeout tunnel 1h
    timeout http-keep-alive 10s
    default-server inter 1s fall 2 rise 2

frontend api
    bind $BIND:$HTTP_PORT
    default_backend conclave_http

frontend feed
    bind $BIND:$WS_PORT
    default_backend conclave_ws

backend conclave_http
    # A game's requests (/api/v1/games/ID/...) go to one process, so each game
    # is held in one process's memory; the store's versions keep it safe
    # when they do not (a process died, the hash moved).
    balance uri depth 4
    hash-type consistent
    option httpchk GET /readyz
    http-check expect status 200
EOF
        for ((i = 1; i <= n; i++)); do
            echo "    server c$i 127.0.0.1:$(http_port_of "$i") check"
        done
        cat <<EOF

backend conclave_ws
    balance leastconn
    option httpchk GET /readyz
    http-check expect status 200
EOF
        for ((i = 1; i <= n; i++)); do
            echo "    server c$i 127.0.0.1:$(ws_port_of "$i") check port $(http_port_of "$i")"
        done
    } >"$STATE/haproxy.cfg"
}

count() {
    [[ -f $STATE/count ]] || die "no cluster was started here (scripts/cluster.sh start N)"
    cat "$STATE/count"
}

cmd=${1:-}
case $cmd in
start)
    n=${2:-}
    [[ $n =~ ^[0-9]+$ ]] && ((n >= 1 && n <= 16)) || die "usage: cluster.sh start N (1..16)"
    command -v haproxy >/dev/null || die "haproxy is not installed (scripts/deps.sh installs it)"
    [[ -x $BUILD/conclave ]] || die "$BUILD/conclave is missing; build it with make"
    mkdir -p "$STATE"
    if [[ -z ${DATABASE_URL:-} ]]; then
        bash scripts/pg.sh start
        DATABASE_URL=$(bash scripts/pg.sh url)
    fi
    export DATABASE_URL
    # One process migrates first, so the others start on a migrated database.
    "$BUILD/conclave" migrate >>"$STATE/migrate.log" 2>&1 || die "migration failed; see $STATE/migrate.log"
    echo "$n" >"$STATE/count"
    for ((i = 1; i <= n; i++)); do start_one "$i"; done
    for ((i = 1; i <= n; i++)); do wait_ready "$i"; done
    write_haproxy_cfg "$n"
    alive "$STATE/haproxy.pid" && kill "$(<"$STATE/haproxy.pid")" && sleep 0.2
    haproxy -D -f "$STATE/haproxy.cfg" >>"$STATE/haproxy.log" 2>&1 || die "haproxy failed; see $STATE/haproxy.log"
    echo "cluster: $n processes behind HAProxy: http://$BIND:$HTTP_PORT/ (feed on $WS_PORT)"
    ;;
stop)
    [[ -d $STATE ]] || exit 0
    for f in "$STATE"/conclave-*.pid; do
        [[ -f $f ]] || continue
        alive "$f" && kill -TERM "$(<"$f")"
    done
    for f in "$STATE"/conclave-*.pid; do
        [[ -f $f ]] || continue
        t=0
        while alive "$f" && ((t++ < 200)); do sleep 0.1; done
        alive "$f" && kill -9 "$(<"$f")"
        rm -f "$f"
    done
    if alive "$STATE/haproxy.pid"; then kill "$(<"$STATE/haproxy.pid")"; fi
    rm -f "$STATE/haproxy.pid"
    ;;
status)
    n=$(count)
    ok=0
    if alive "$STATE/haproxy.pid"; then echo "haproxy: running"; else echo "haproxy: stopped"; ok=1; fi
    for ((i = 1; i <= n; i++)); do
        if alive "$STATE/conclave-$i.pid"; then
            echo "process $i: running (http $(http_port_of "$i"), ws $(ws_port_of "$i"))"
        else
            echo "process $i: stopped"
            ok=1
        fi
    done
    exit $ok
    ;;
kill | drain)
    i=${2:-}
    [[ $i =~ ^[0-9]+$ ]] && ((i >= 1 && i <= $(count))) || die "usage: cluster.sh $cmd I"
    alive "$STATE/conclave-$i.pid" || die "process $i is not running"
    if [[ $cmd == kill ]]; then kill -9 "$(<"$STATE/conclave-$i.pid")"; else kill -TERM "$(<"$STATE/conclave-$i.pid")"; fi
    ;;
restart)
    i=${2:-}
    [[ $i =~ ^[0-9]+$ ]] && ((i >= 1 && i <= $(count))) || die "usage: cluster.sh restart I"
    if [[ -z ${DATABASE_URL:-} ]]; then DATABASE_URL=$(bash scripts/pg.sh url); fi
    export DATABASE_URL
    start_one "$i"
    wait_ready "$i"
    ;;
*)
    sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'
    [[ -z $cmd || $cmd == help ]] || exit 2
    ;;
esac

#!/usr/bin/env bash
# scripts/pg.sh - a private PostgreSQL cluster for this checkout, for development and tests.
#
#   scripts/pg.sh start            init on first use, start, create database "conclave"
#   scripts/pg.sh stop [MODE]      pg_ctl stop; MODE is fast (default), smart or immediate
#   scripts/pg.sh status           say whether it runs; exit 0 if it does, 3 if not
#   scripts/pg.sh url              print a libpq URL for the conclave database:
#                                  postgresql:///conclave?host=SOCKETDIR&port=N&user=U
#   scripts/pg.sh psql [ARGS...]   psql connected to it
#
# The cluster lives in var/pg (data/, run/ for the Unix socket, port, postgres.log) and
# listens on that socket and on 127.0.0.1 at a port picked once, at init, and remembered;
# each checkout has its own, so several can run side by side. Authentication is "trust":
# it is a disposable local cluster, never a production one (see docker-compose.yml).
#
# initdb and postgres refuse to run as root, so under root the cluster runs as the
# "postgres" system user. When that user cannot reach the checkout (a home folder with
# mode 700, say), or the socket path would be too long for a Unix socket, the cluster goes
# to /tmp/conclave-pg-<hash of the checkout path>/ and var/pg becomes a symlink to it.
set -euo pipefail
umask 022

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
STATE=$ROOT/var
LINK=$STATE/pg
DB=conclave
READY_TIMEOUT=30

note() { echo "pg: $*" >&2; }
die() {
    echo "pg: $*" >&2
    exit 1
}

# --- where things are -------------------------------------------------------------------

# The cluster folder: var/pg itself, or where its symlink points (resolved, so that the
# socket path printed by `url` is reachable by users who cannot enter the checkout).
resolve_base() {
    if [[ -L $LINK ]]; then
        BASE=$(readlink -- "$LINK")
    else
        BASE=$LINK
    fi
    DATA=$BASE/data
    RUN=$BASE/run
    LOG=$BASE/postgres.log
    PORT_FILE=$BASE/port
    USER_FILE=$BASE/user
}

# Binaries of the version the cluster was made with; for a new cluster 15 if present,
# else the newest installed.
find_bin() {
    local want=""
    [[ -f $DATA/PG_VERSION ]] && want=$(<"$DATA/PG_VERSION")
    [[ -z $want && -x /usr/lib/postgresql/15/bin/initdb ]] && want=15
    if [[ -n $want ]]; then
        BIN=/usr/lib/postgresql/$want/bin
    else
        local dirs=(/usr/lib/postgresql/*/bin)
        BIN=$(printf '%s\n' "${dirs[@]}" | sort -V | tail -n 1)
    fi
    [[ -n $BIN && -x $BIN/pg_ctl ]] ||
        die "PostgreSQL ${want:-server} binaries not found under /usr/lib/postgresql/*/bin (run scripts/deps.sh)"
}

# Who runs the server: ourselves, or under root the owner of an existing data folder,
# else "postgres".
find_owner() {
    if ((EUID != 0)); then
        OWNER=$(id -un)
        return
    fi
    if [[ -d $DATA ]]; then
        OWNER=$(stat -c %U -- "$DATA")
        [[ $OWNER != root ]] || die "$DATA is owned by root; PostgreSQL cannot run as root (remove it)"
    else
        OWNER=postgres
    fi
    id -u "$OWNER" >/dev/null 2>&1 || die "no '$OWNER' system user (run scripts/deps.sh)"
}

# Run a server-side command as the cluster owner, from a folder it can enter, without
# the lock's descriptor (a postmaster started from here would otherwise hold it for ever).
as_owner() {
    if ((EUID == 0)); then
        (cd / && runuser -u "$OWNER" -- "$@") 9>&-
    else
        (cd / && "$@") 9>&-
    fi
}

short_hash() { printf '%s' "$ROOT" | sha256sum | cut -c1-12; }

# --- creating the cluster folder ----------------------------------------------------------

# Make a folder in /tmp that nobody else can have planted: created fresh by us, or
# already ours (not a symlink, owned by the cluster owner).
make_tmp_base() {
    local dir=$1
    if [[ -e $dir || -L $dir ]]; then
        [[ -d $dir && ! -L $dir && $(stat -c %U -- "$dir") == "$OWNER" ]] ||
            die "$dir exists but is not a folder owned by $OWNER; remove it"
        return
    fi
    mkdir -m 755 -- "$dir"
    ((EUID != 0)) || chown "$OWNER:" -- "$dir"
}

ensure_base() {
    mkdir -p -- "$STATE"
    if [[ -L $LINK ]]; then
        [[ -d $BASE ]] || make_tmp_base "$BASE" # /tmp was cleaned: start afresh
    elif [[ ! -d $LINK ]]; then
        local why=""
        # sun_path holds 107 bytes: "<run>/.s.PGSQL.NNNNN" must fit.
        if ((${#LINK} + 4 + 15 > 107)); then
            why="the path of the checkout is too long for a Unix socket"
        elif ((EUID == 0)) && ! runuser -u "$OWNER" -- test -x "$STATE" 2>/dev/null; then
            why="the '$OWNER' user cannot enter $ROOT"
        fi
        if [[ -n $why ]]; then
            local dir
            dir=/tmp/conclave-pg-$(short_hash)
            make_tmp_base "$dir"
            ln -s -- "$dir" "$LINK"
            note "$why, so the cluster lives in $dir (var/pg links to it)"
        else
            mkdir -m 755 -- "$LINK"
        fi
        resolve_base
    fi
    if ((EUID == 0)) && [[ $(stat -c %U -- "$BASE") != "$OWNER" ]]; then
        chown "$OWNER:" -- "$BASE"
    fi
    if [[ ! -d $RUN ]]; then
        mkdir -m 755 -- "$RUN"
        ((EUID != 0)) || chown "$OWNER:" -- "$RUN"
    fi
}

# --- ports ------------------------------------------------------------------------------

port_busy() {
    local hex
    hex=$(printf ':%04X' "$1")
    # A listener on any address (state 0A = LISTEN), or anything answering on loopback.
    if awk -v p="$hex" '$4 == "0A" && substr($2, length($2) - 4) == p { f = 1 } END { exit !f }' \
        /proc/net/tcp /proc/net/tcp6 2>/dev/null; then
        return 0
    fi
    (: <"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# A free port in 20000-31999: below the usual ephemeral range, above most services.
pick_port() {
    local p i
    for ((i = 0; i < 100; i++)); do
        p=$((20000 + (RANDOM * 32768 + RANDOM) % 12000))
        port_busy "$p" || {
            echo "$p"
            return
        }
    done
    die "no free TCP port found in 20000-31999"
}

# --- the cluster ------------------------------------------------------------------------

init_cluster() {
    local log=$BASE/initdb.log
    note "creating a PostgreSQL cluster in $DATA"
    if ! as_owner "$BIN/initdb" -D "$DATA" -U "$OWNER" -A trust -E UTF8 --locale=C.UTF-8 \
        >"$log" 2>&1; then
        tail -n 20 "$log" >&2
        die "initdb failed (full output in $log)"
    fi
    printf '%s\n' "$OWNER" >"$USER_FILE"
    pick_port >"$PORT_FILE"
    # Our settings live in a file of their own, rewritten at every start.
    printf "\ninclude_if_exists = 'conclave.conf'\n" >>"$DATA/postgresql.conf"
}

sq() { printf '%s' "${1//\'/\'\'}"; } # quote for postgresql.conf

write_conf() {
    local f=$DATA/conclave.conf
    cat >"$f" <<EOF
# Written by scripts/pg.sh at every start: change that script, not this file.
port = $PORT
listen_addresses = '127.0.0.1'
unix_socket_directories = '$(sq "$RUN")'
unix_socket_permissions = 0777
max_connections = 200
shared_buffers = 128MB
fsync = on
synchronous_commit = on
full_page_writes = on
log_line_prefix = '%m [%p] %q%u@%d '
EOF
    ((EUID != 0)) || chown "$OWNER:" -- "$f"
}

load_port() {
    [[ -f $PORT_FILE ]] || die "no cluster yet in $BASE: run scripts/pg.sh start"
    PORT=$(<"$PORT_FILE")
    [[ $PORT =~ ^[0-9]+$ ]] || die "bad port in $PORT_FILE"
    SUPERUSER=$(cat "$USER_FILE" 2>/dev/null || echo "$OWNER")
}

running() { [[ -f $DATA/PG_VERSION ]] && as_owner "$BIN/pg_ctl" status -D "$DATA" >/dev/null 2>&1; }

urlenc() {
    local LC_ALL=C s=$1 out="" c i
    for ((i = 0; i < ${#s}; i++)); do
        c=${s:i:1}
        case $c in
        [A-Za-z0-9/._~-]) out+=$c ;;
        *) out+=$(printf '%%%02X' "'$c") ;;
        esac
    done
    printf '%s' "$out"
}

# The user goes in the query, not before an empty host ("postgres@/db"): libpq takes both,
# but WHATWG URL parsers (new URL() in node) reject credentials without a host.
url_for() { printf 'postgresql:///%s?host=%s&port=%s&user=%s' "$1" "$(urlenc "$RUN")" "$PORT" "$(urlenc "$SUPERUSER")"; }

wait_ready() {
    local deadline=$((SECONDS + READY_TIMEOUT))
    until "$BIN/pg_isready" -q -h "$RUN" -p "$PORT" -d postgres -U "$SUPERUSER" 2>/dev/null; do
        if ((SECONDS >= deadline)); then
            tail -n 30 "$LOG" >&2 || true
            die "PostgreSQL did not become ready within ${READY_TIMEOUT}s (log: $LOG)"
        fi
        sleep 0.2
    done
}

ensure_db() {
    local admin
    admin=$(url_for postgres)
    if [[ -z $("$BIN/psql" -X -q -tA -d "$admin" -c "select 1 from pg_database where datname = '$DB'") ]]; then
        "$BIN/psql" -X -q -v ON_ERROR_STOP=1 -d "$admin" -c "create database $DB" >/dev/null ||
            die "could not create database $DB"
    fi
}

lock() {
    command -v flock >/dev/null 2>&1 || return 0
    exec 9>>"$STATE/.pg.lock"
    flock -w 120 9 || die "another scripts/pg.sh is still busy (lock $STATE/.pg.lock)"
}

# --- commands ---------------------------------------------------------------------------

cmd_start() {
    mkdir -p -- "$STATE"
    lock
    ensure_base
    find_bin
    [[ -f $DATA/PG_VERSION ]] || init_cluster
    load_port
    if running; then
        wait_ready
        ensure_db
        note "running (port $PORT, socket in $RUN)"
        return
    fi
    local attempt from
    for attempt in 1 2 3; do
        write_conf
        touch "$LOG"
        ((EUID != 0)) || chown "$OWNER:" -- "$LOG"
        from=$(($(stat -c %s -- "$LOG") + 1))
        if as_owner "$BIN/pg_ctl" start -D "$DATA" -l "$LOG" -w -t "$READY_TIMEOUT" >/dev/null 2>&1; then
            break
        fi
        if ((attempt < 3)) && tail -c "+$from" "$LOG" | grep -q 'could not bind\|Address already in use'; then
            PORT=$(pick_port)
            note "port taken; moving this cluster to port $PORT"
            printf '%s\n' "$PORT" >"$PORT_FILE"
            continue
        fi
        tail -c "+$from" "$LOG" | tail -n 30 >&2
        die "PostgreSQL failed to start (log: $LOG)"
    done
    wait_ready
    ensure_db
    note "started (port $PORT, socket in $RUN)"
}

cmd_stop() {
    local mode=${1:-fast}
    case $mode in fast | smart | immediate) ;; *) die "stop mode must be fast, smart or immediate" ;; esac
    [[ -d $STATE ]] || return 0
    lock
    if ! running; then
        note "not running"
        return 0
    fi
    if ! as_owner "$BIN/pg_ctl" stop -D "$DATA" -m "$mode" -w -t 60 >/dev/null 2>&1; then
        tail -n 20 "$LOG" >&2 || true
        die "pg_ctl stop -m $mode failed (log: $LOG)"
    fi
    note "stopped ($mode)"
}

cmd_status() {
    if [[ ! -f $DATA/PG_VERSION ]]; then
        echo "no cluster (scripts/pg.sh start makes one in $BASE)"
        return 3
    fi
    load_port
    if running; then
        echo "running: port $PORT, socket in $RUN, data in $DATA"
    else
        echo "stopped: port $PORT, data in $DATA"
        return 3
    fi
}

resolve_base
case ${1:-} in
start)
    find_owner
    cmd_start
    ;;
stop)
    find_owner
    find_bin
    cmd_stop "${2:-fast}"
    ;;
status)
    find_owner
    find_bin
    cmd_status
    ;;
url)
    find_owner
    load_port
    url_for "$DB"
    echo
    ;;
psql)
    shift
    find_owner
    find_bin
    load_port
    exec "$BIN/psql" -d "$(url_for "$DB")" "$@"
    ;;
*)
    echo "usage: scripts/pg.sh start | stop [fast|smart|immediate] | status | url | psql [ARGS]" >&2
    exit 2
    ;;
esac

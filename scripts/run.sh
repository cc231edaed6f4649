#!/usr/bin/env bash
# scripts/run.sh - serve Conclave from this checkout; `make run` calls it after building.
#
# Uses DATABASE_URL when it is set, else starts the checkout's private PostgreSQL
# (scripts/pg.sh). `conclave serve` applies pending migrations itself. The server replaces
# this shell (exec), so Ctrl-C reaches it directly.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

BUILD=${BUILD:-build}
if [[ ! -x $BUILD/conclave ]]; then
    echo "run: $BUILD/conclave is missing; build it with make" >&2
    exit 1
fi

if [[ -z ${DATABASE_URL:-} ]]; then
    bash scripts/pg.sh start
    DATABASE_URL=$(bash scripts/pg.sh url)
    export DATABASE_URL
fi

echo "Conclave: open http://localhost:${CONCLAVE_HTTP_PORT:-8080}/"
exec "$BUILD/conclave" serve "$@"

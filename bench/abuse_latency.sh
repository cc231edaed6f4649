#!/usr/bin/env bash
# bench/abuse_latency.sh - how much slow and hostile clients slow an honest one: the
# latency figures that the tests used to bound and now only count (docs/reliability.md,
# "Latency under attack").
#
#   bash bench/abuse_latency.sh [LABEL]      (or: make bench-abuse)
#
# Runs tests/integration/hostile.test.mjs and tests/integration/abuse_ws.test.mjs through
# tests/run.sh with CONCLAVE_BENCH_LATENCY=1: the slowloris test plays 4 normal blocks of
# tic-tac-toe (at least 300 requests and 7 s each) interleaved with 4 blocks under 192
# slow connections, and the hub flood tests measure honest subscribes in 3 quiet blocks
# interleaved with 3 flooded ones; both print p50/p99 (median/p99) of each kind, so that
# the machine's own load weighs on both alike. The figures are printed, never asserted.
# Their "# " lines go to bench/out/abuse-LABEL/figures.txt; the tests' own output stays in
# tests/out/node/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

LABEL=${1:-$(date -u +%Y%m%dT%H%M%SZ)}
OUT=bench/out/abuse-$LABEL
mkdir -p "$OUT"
make --no-print-directory unit >/dev/null
CONCLAVE_BENCH_LATENCY=1 TESTS='integration/hostile integration/abuse_ws' \
    BUILD=${BUILD:-build} bash tests/run.sh | tee "$OUT/run.txt"
{
    echo "# $(date -u +%FT%TZ) $(git rev-parse --short HEAD), load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
    for f in integration_hostile integration_abuse_ws; do
        grep -E '^# \\# (slowloris|normal|under attack|trickling|phantom flood|backlog flood|revocation)' \
            "tests/out/node/$f.log" | sed 's/^# \\# //'
    done
} | tee "$OUT/figures.txt"

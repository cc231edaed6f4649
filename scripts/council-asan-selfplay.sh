#!/usr/bin/env bash
# scripts/council-asan-selfplay.sh - 2,000 Galactic Council self-play games
# of 3 to 8 seats under ASan + UBSan. With CHECK=1, every run also uses
# --check (save -> load -> hash after every input, replay of every game from
# its export): that costs about 1.3 s of CPU per 3-seat game under ASan, so
# the 2,000 checked games take hours on 2 cores. Run by hand, not part of
# `make test`.
#
#   [CHECK=1] bash scripts/council-asan-selfplay.sh [GAMES_PER_RUN]
#
# Twelve runs: seats 3..8, each once with random bots only and once with one
# basic bot among random ones; GAMES_PER_RUN defaults to 167 (12 x 167 =
# 2,004 games). Prints each run's JSON line; exits 1 if any run fails.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
cd "$ROOT"
PER=${1:-167}
make --no-print-directory BUILD=build-asan OPT=-O1 \
    SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
    build-asan/conclave >/dev/null
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1
fail=0
for seats in 3 4 5 6 7 8; do
    mix=basic
    for ((i = 1; i < seats; i++)); do mix="$mix,random"; done
    for bot in random "$mix"; do
        build-asan/conclave selfplay --ruleset council --seats "$seats" \
            --games "$PER" --seed "0$seats" --bot "$bot" \
            ${CHECK:+--check} || fail=1
    done
done
exit $fail

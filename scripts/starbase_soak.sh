#!/usr/bin/env bash
# starbase_soak.sh - the long Starbase self-play run under ASan + UBSan:
# builds the test binaries into build-asan and runs the self-play property
# test (invariants after every input: ISK never negative, every card in one
# place; every game ends; no bot input refused) over GAMES games (10000).
# Usage: bash scripts/starbase_soak.sh [GAMES]
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${1:-10000}
make --no-print-directory BUILD=build-asan OPT=-O1 \
    SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
    build-asan/tests/test_starbase_game build-asan/tests/test_starbase_rules
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    build-asan/tests/test_starbase_rules
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    STARBASE_SELFPLAY_GAMES="$GAMES" build-asan/tests/test_starbase_game

#!/usr/bin/env bash
# tests/fuzz/run.sh - build the libFuzzer harnesses (make fuzz-build) and run each
# for a bounded time; ends with "RESULT fuzz: N passed, M failed".
#
#   FUZZ_SECONDS=60 bash tests/fuzz/run.sh        what `make fuzz` runs
#   bash tests/fuzz/run.sh --smoke                10 s each (tests/run.sh, make test)
#   bash tests/fuzz/run.sh NAME...                only these (jsonpatch, cards, ...)
#   FUZZ_JOBS=1 bash tests/fuzz/run.sh            one harness at a time (default: 2)
#
# Each harness tests/fuzz/fuzz_NAME.c starts from its seed corpus
# tests/fuzz/corpus/NAME (committed, small), with tests/fuzz/NAME.dict when there is
# one (JSON keys and values it needs), and keeps what it finds in
# build-fuzz/corpus/NAME (not committed), so later runs start further on. A crash,
# leak, sanitizer report or broken invariant fails the harness; the input that did
# it is saved as build-fuzz/artifacts/NAME/crash-* (replay it: build-fuzz/fuzz_NAME
# FILE). One line per harness gives runs, exec/s, coverage (cov: edges, ft:
# features) and the corpus size, as libFuzzer reports them. Full output:
# build-fuzz/logs/NAME.log. Without clang (or its libFuzzer) every harness is
# skipped, which is not a failure.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
cd "$ROOT" || exit 1

SECONDS_EACH=${FUZZ_SECONDS:-60}
names=()
for arg in "$@"; do
    case $arg in
    --smoke) SECONDS_EACH=${FUZZ_SMOKE_SECONDS:-10} ;;
    -h | --help)
        sed -n '2,18p' "$0"
        exit 0
        ;;
    *) names+=("$arg") ;;
    esac
done
if ((${#names[@]} == 0)); then
    for f in tests/fuzz/fuzz_*.c; do
        n=${f##*/fuzz_}
        names+=("${n%.c}")
    done
fi

DIR=$ROOT/build-fuzz
mkdir -p "$DIR/logs"
passed=0
failed=0

CC=${FUZZ_CC:-clang}
if ! command -v "$CC" >/dev/null 2>&1 ||
    ! echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n){(void)d;(void)n;return 0;}' |
    "$CC" -fsanitize=fuzzer -x c - -o "$DIR/.probe" >/dev/null 2>&1; then
    echo "skip fuzz: $CC with libFuzzer (-fsanitize=fuzzer) is not available"
    echo "RESULT fuzz: 0 passed, 0 failed"
    exit 0
fi
rm -f "$DIR/.probe"

targets=()
for n in "${names[@]}"; do targets+=("build-fuzz/fuzz_$n"); done
built_at=$SECONDS
if ! make --no-print-directory -s -j"$(nproc)" FUZZ_CC="$CC" "${targets[@]}" >"$DIR/logs/build.log" 2>&1; then
    echo "FAIL fuzz: the harnesses do not build (build-fuzz/logs/build.log):"
    tail -n 30 "$DIR/logs/build.log"
    echo "RESULT fuzz: 0 passed, ${#names[@]} failed"
    exit 1
fi
# The build is not the test: its time is said apart (a fresh clone builds from empty).
echo "built the harnesses in $((SECONDS - built_at)) s (build-fuzz/logs/build.log)"

# The last libFuzzer status line ("#N ... cov: C ft: F corp: K/..."), and a final stat.
field() { grep -ao "$1: *[0-9]*" <<<"$2" | tail -n 1 | grep -o '[0-9]*$'; }
stat() { grep -a "^stat::$1:" "$2" | tail -n 1 | awk '{ print $2 }'; }

# fuzz_one NAME : run one harness; its output goes to its log, its exit status to
# logs/NAME.rc.
fuzz_one() {
    local n=$1 bin=$DIR/fuzz_$1 seeds=tests/fuzz/corpus/$1 work=$DIR/corpus/$1
    local art=$DIR/artifacts/$1 log=$DIR/logs/$1.log dict=()
    mkdir -p "$work" "$art" "$seeds"
    [[ -f tests/fuzz/$n.dict ]] && dict=(-dict="tests/fuzz/$n.dict")
    # -rss_limit_mb and -malloc_limit_mb: a harness that balloons is a finding too.
    ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
        UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
        timeout -k 10 $((SECONDS_EACH + 120)) \
        "$bin" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 \
        -malloc_limit_mb=1024 -print_final_stats=1 -artifact_prefix="$art/" "${dict[@]}" \
        "$work" "$seeds" >"$log" 2>&1
    echo $? >"$DIR/logs/$n.rc"
}

# FUZZ_JOBS harnesses at once (default 2): each runs for its own time, so the run
# takes about a JOBS-th of the sum.
JOBS=${FUZZ_JOBS:-2}
[[ $JOBS =~ ^[1-9][0-9]*$ ]] || JOBS=1
running=0
for n in "${names[@]}"; do
    rm -f "$DIR/logs/$n.rc"
    if ((running >= JOBS)); then
        wait -n
        running=$((running - 1))
    fi
    fuzz_one "$n" &
    running=$((running + 1))
done
wait

for n in "${names[@]}"; do
    art=$DIR/artifacts/$n
    log=$DIR/logs/$n.log
    rc=$(cat "$DIR/logs/$n.rc" 2>/dev/null || echo 1)
    last=$(grep -a '^#[0-9]' "$log" | grep -a 'cov:' | tail -n 1)
    runs=$(stat number_of_executed_units "$log")
    eps=$(stat average_exec_per_sec "$log")
    cov=$(field cov "$last")
    ft=$(field ft "$last")
    corp=$(grep -ao 'corp: [0-9]*' <<<"$last" | grep -o '[0-9]*$')
    summary=$(printf '%s s, %s runs, %s exec/s, cov %s, ft %s, corpus %s' "$SECONDS_EACH" \
        "${runs:-?}" "${eps:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}")
    if ((rc == 0)) && ! grep -aq 'ERROR: \(AddressSanitizer\|LeakSanitizer\|libFuzzer\)\|runtime error:' "$log"; then
        passed=$((passed + 1))
        printf 'ok   fuzz_%-14s %s\n' "$n" "$summary"
    else
        failed=$((failed + 1))
        printf 'FAIL fuzz_%-14s exit %s; %s\n' "$n" "$rc" "$summary"
        grep -a -m 1 -A 12 'ERROR\|runtime error\|invariant broken' "$log" | sed 's/^/    /'
        ls "$art" 2>/dev/null | sed "s|^|    artifact: build-fuzz/artifacts/$n/|" | head -n 5
    fi
done
echo "RESULT fuzz: $passed passed, $failed failed"
((failed == 0))

#!/usr/bin/env bash
# tests/run.sh - runs every test and ends with one line: "N passed, N failed, N skipped".
#
# `make test` (and `make asan`) call it after building; BUILD names the build folder.
#   1. Database: DATABASE_URL if set, else the checkout's private PostgreSQL
#      (scripts/pg.sh; stopped again at the end when this script started it, unless
#      CONCLAVE_KEEP_PG=1).
#   2. Unit tests: every $BUILD/tests/test_* binary. Each ends with a line
#      "RESULT <file>: N passed, M failed"; a binary that prints none, crashes, times out
#      or exits non-zero with nothing failed counts as one failure.
#   3. Integration and browser tests: tests/integration/*.test.mjs and
#      tests/browser/*.test.mjs, one `node --test` per file, counted from its TAP summary.
#   4. Fuzz smoke run: tests/fuzz/run.sh --smoke, every libFuzzer harness for 10 s
#      (skipped without clang; CONCLAVE_FUZZ_SMOKE=0 skips it), one count per harness;
#      it starts with the unit tests and runs beside them and the test files.
#
# Skips are counted and shown: each file's line says how many of its tests skipped, and
# every skipped test is listed with its reason at the end. A skip is not a failure on a
# workstation (no Chromium, an outside DATABASE_URL); with CONCLAVE_STRICT_SKIPS=1 (set by
# .ci/run, where everything is installed) each skip counts as a failure unless it is
# listed in tests/expected-skips.txt with its reason.
#
# TESTS='word ...' runs only the unit binaries and test files whose label (as printed,
# e.g. unit/test_engine, integration/hub_hardening, browser/restart, fuzz) contains one
# of the words; a word ending in $ must be the whole label (integration/selfplay$ is not
# integration/selfplay_check).
#
# Environment given to every test: DATABASE_URL; CONCLAVE_BIN, the absolute path of the
# server binary; CONCLAVE_ROOT, the checkout; CONCLAVE_PRIVATE_PG=1 when the database is
# the private one of scripts/pg.sh (so a test may stop and start it); CONCLAVE_CHROMIUM,
# a Chromium, when one is installed and it is not set already; and whatever the caller
# set (CONCLAVE_TEST_QUICK, ASAN_OPTIONS, ...). Each file's output goes to tests/out/; a
# failing one is shown here. CONCLAVE_TEST_TIMEOUT is the limit for one file or binary,
# in seconds (default 600).
#
# CONCLAVE_TEST_JOBS (default 3) unit binaries or test files run at once; each line is
# printed when its file ends, so the order of the lines may vary. Three on two cores:
# most files spend most of their wall time waiting (on clocks and deadlines, on the
# database, on a page), not computing (each line below gives both). The test files
# start as soon as slots free up after the unit binaries; the browser files are spread
# among the integration files, so that the slots do not all run a Chromium at once, and
# end before them, so that the last files to end are short. A test file whose text
# holds the line "// tests/run.sh: alone" (it stops and starts the shared PostgreSQL,
# or holds fixed ports) runs last, with nothing beside it. The fuzz smoke run (step 4)
# runs beside the unit binaries and the other test files, in a slot of its own. Each
# file's line gives its wall time and its CPU time (user + sys of the file and every
# process it waited for; not the database server's, nor a daemon's that left it, nor
# Chromium's renderers, which the browser files' figures miss by about half).
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
cd "$ROOT" || exit 1

BUILD=${BUILD:-build}
[[ $BUILD == /* ]] || BUILD=$ROOT/$BUILD
TIMEOUT=${CONCLAVE_TEST_TIMEOUT:-600}
JOBS=${CONCLAVE_TEST_JOBS:-3}
[[ $JOBS =~ ^[1-9][0-9]*$ ]] || JOBS=1
OUT=$ROOT/tests/out
SHOW_LINES=200

passed=0
failed=0
skipped=0
skip_lines=()
skip_bad=0
EXPECTED_SKIPS=$ROOT/tests/expected-skips.txt
declare -A job_label=() job_log=() job_t0=() job_kind=()
fuzz_running=0
cpu_ms=""
interrupted=0
stop_pg=0

mkdir -p "$OUT/unit" "$OUT/node"

now_ms() {
    local t=${EPOCHREALTIME//[.,]/}
    echo $((t / 1000))
}

summary() {
    echo "$passed passed, $failed failed, $skipped skipped"
}

# selected LABEL : whether TESTS (if set) picks this label.
selected() {
    [[ -z ${TESTS:-} ]] && return 0
    local w
    for w in $TESTS; do
        if [[ $w == *'$' ]]; then
            [[ $1 == "${w%'$'}" ]] && return 0
        elif [[ $1 == *"$w"* ]]; then
            return 0
        fi
    done
    return 1
}

# expected_skip LABEL NAME : whether tests/expected-skips.txt lists this skip. Its lines
# are "LABEL | test name | reason"; # starts a comment.
expected_skip() {
    [[ -f $EXPECTED_SKIPS ]] || return 1
    local label name reason
    while IFS='|' read -r label name reason; do
        label=$(echo "$label" | xargs) name=$(echo "$name" | xargs)
        [[ -z $label || $label == \#* ]] && continue
        [[ $label == "$1" && $name == "$2" && -n ${reason// /} ]] && return 0
    done <"$EXPECTED_SKIPS"
    return 1
}

# skips LABEL LOG : record every "ok N - name # SKIP reason" of a TAP log; prints how
# many of them are failures (unexpected skips under CONCLAVE_STRICT_SKIPS=1) in skip_bad.
skips() {
    local label=$1 log=$2 line name reason bad=0
    while IFS= read -r line; do
        name=${line#*ok * - }
        reason=${name#* # SKIP}
        name=${name%% # SKIP*}
        reason=${reason# }
        skipped=$((skipped + 1))
        if [[ ${CONCLAVE_STRICT_SKIPS:-0} == 1 ]] && ! expected_skip "$label" "$name"; then
            bad=$((bad + 1))
            skip_lines+=("FAIL skip $label: $name (${reason:-no reason}) - not in tests/expected-skips.txt")
        else
            skip_lines+=("skip $label: $name (${reason:-no reason})")
        fi
    done < <(grep -a -E '^ *ok [0-9]+ - .* # SKIP' "$log")
    skip_bad=$bad
}

finish() {
    trap - EXIT INT TERM
    if ((stop_pg)); then
        bash scripts/pg.sh stop >/dev/null 2>&1 || true
    fi
    local l
    for l in "${skip_lines[@]}"; do echo "$l"; done
    summary
    if ((interrupted)); then exit 130; fi
    if ((failed > 0)); then exit 1; fi
    exit 0
}

# A signal stops the tests that run (timeout puts it in a process group of its own, out
# of reach of the terminal's Ctrl-C), then the run ends with the counts so far.
on_signal() {
    interrupted=1
    local pid
    for pid in "${!job_label[@]}"; do kill -TERM "$pid" 2>/dev/null; done
}
trap on_signal INT TERM
trap 'finish' EXIT

# start_job KIND LABEL LOG CMD... : run CMD in the background with the time limit,
# output to LOG; collect_job reports it when it ends (KIND: unit or node). The job is a
# subshell that waits for CMD and then writes the CPU time (user + sys) of CMD and every
# child it waited for to LOG.cpu (bash's `times`); a TERM to it goes on to CMD.
start_job() {
    local kind=$1 label=$2 log=$3
    shift 3
    rm -f "$log.cpu"
    (
        timeout -k 10 "$TIMEOUT" "$@" >"$log" 2>&1 </dev/null &
        child=$!
        trap 'kill -TERM "$child" 2>/dev/null' TERM
        while :; do
            wait "$child"
            rc=$?
            kill -0 "$child" 2>/dev/null || break
        done
        times >"$log.cpu"
        exit "$rc"
    ) &
    job_kind[$!]=$kind
    job_label[$!]=$label
    job_log[$!]=$log
    job_t0[$!]=$(now_ms)
}

# collect_job : wait for one running job to end and report it; 1 when none runs.
collect_job() {
    ((${#job_label[@]})) || return 1
    local pid rc p
    while :; do
        pid=""
        { wait -n -p pid "${!job_label[@]}"; } 2>/dev/null
        rc=$?
        [[ -n ${pid:-} && -n ${job_label[${pid:-x}]:-} ]] && break
        # Cut short by a signal (the jobs were told to stop), or the job that ended was
        # reaped meanwhile: take one that is gone with its status, else wait again.
        for p in "${!job_label[@]}"; do
            if ! kill -0 "$p" 2>/dev/null; then
                { wait "$p"; } 2>/dev/null
                rc=$?
                pid=$p
                break 2
            fi
        done
        sleep 0.1
    done
    local kind=${job_kind[$pid]} label=${job_label[$pid]} log=${job_log[$pid]}
    local ms=$(($(now_ms) - job_t0[$pid]))
    unset "job_kind[$pid]" "job_label[$pid]" "job_log[$pid]" "job_t0[$pid]"
    cpu_ms=$(cpu_of "$log.cpu")
    case $kind in
    unit) unit_result "$label" "$log" "$rc" "$ms" ;;
    fuzz)
        fuzz_running=0
        fuzz_result "$label" "$log" "$rc" "$ms"
        ;;
    *) node_result "$label" "$log" "$rc" "$ms" ;;
    esac
}

# cpu_of FILE : the milliseconds of CPU time (user + sys) in the second line of a `times`
# output ("0m12.345s 0m1.234s", the children's), or nothing.
cpu_of() {
    local line t total=0 m
    [[ -f $1 ]] || return 0
    line=$(sed -n 2p "$1")
    for t in $line; do
        [[ $t =~ ^([0-9]+)m([0-9]+)[.,]([0-9]{3})s$ ]] || return 0
        m=$((10#${BASH_REMATCH[1]} * 60000 + 10#${BASH_REMATCH[2]} * 1000 + 10#${BASH_REMATCH[3]}))
        total=$((total + m))
    done
    echo "$total"
}

# room_for_job : wait until fewer than JOBS jobs run (the fuzz smoke run not counted).
room_for_job() {
    while ((${#job_label[@]} - fuzz_running >= JOBS)); do collect_job || break; done
}

# all_jobs_done : wait for every running job.
all_jobs_done() {
    while collect_job; do :; done
}

why_status() {
    if ((interrupted)); then
        echo "interrupted"
        return
    fi
    case $1 in
    124) echo "timed out after ${TIMEOUT}s" ;;
    137) echo "killed after the time limit (${TIMEOUT}s)" ;;
    0) echo "" ;;
    *) if (($1 > 128)); then echo "killed by signal $(($1 - 128))"; else echo "exit status $1"; fi ;;
    esac
}

# report LABEL P F MS LOG NOTE : one line per file, with its wall time and (cpu_ms, set
# by collect_job) the CPU time it took; a failing file's output follows it.
report() {
    local label=$1 p=$2 f=$3 ms=$4 log=$5 note=$6 status=ok cpu=""
    ((f == 0)) || status=FAIL
    passed=$((passed + p))
    failed=$((failed + f))
    [[ -z ${cpu_ms:-} ]] || cpu=$(printf ', cpu %d.%01d s' $((cpu_ms / 1000)) $((cpu_ms % 1000 / 100)))
    printf '%-4s %-48s %d passed, %d failed (%d.%01d s%s)%s\n' "$status" "$label" "$p" "$f" \
        $((ms / 1000)) $((ms % 1000 / 100)) "$cpu" "${note:+ - $note}"
    if ((f > 0)) && [[ -s $log ]]; then
        local n shown=""
        n=$(wc -l <"$log")
        ((n <= SHOW_LINES)) || shown=" (last $SHOW_LINES of $n lines)"
        echo "----- output of $label$shown; full log: ${log#"$ROOT"/}"
        tail -n "$SHOW_LINES" "$log"
        echo "----- end of $label"
    fi
}

# tap_count WORD LOG : N from the last "# WORD N" line of node's TAP summary, or nothing.
tap_count() {
    grep -a "^# $1 [0-9]" "$2" | tail -n 1 | awk '{ print $3 }'
}

# --- database -------------------------------------------------------------------------

if [[ -z ${DATABASE_URL:-} ]]; then
    bash scripts/pg.sh status >/dev/null 2>&1 || stop_pg=1
    [[ ${CONCLAVE_KEEP_PG:-0} == 1 ]] && stop_pg=0
    if ! bash scripts/pg.sh start; then
        echo "FAIL could not start the private PostgreSQL (scripts/pg.sh start)"
        failed=$((failed + 1))
        exit 1
    fi
    DATABASE_URL=$(bash scripts/pg.sh url)
    # Tests may stop and start it (outage drills) only when it is this private one.
    export CONCLAVE_PRIVATE_PG=1
fi
export DATABASE_URL
export CONCLAVE_BIN=$BUILD/conclave
export CONCLAVE_ROOT=$ROOT
if [[ -z ${CONCLAVE_CHROMIUM:-} ]]; then
    for c in chromium chromium-browser google-chrome; do
        if command -v "$c" >/dev/null 2>&1; then
            CONCLAVE_CHROMIUM=$(command -v "$c")
            export CONCLAVE_CHROMIUM
            break
        fi
    done
fi

# --- fuzz smoke run -------------------------------------------------------------------
# Each harness for FUZZ_SMOKE_SECONDS (10) from its seed corpus; a crash, leak or broken
# invariant fails it. `make fuzz` runs them longer (tests/fuzz/run.sh). It starts with the
# unit binaries, which mostly wait on the database, so that its build (from scratch in a
# fresh clone: about a minute of CPU) takes up the CPU time they leave, and runs in a slot
# of its own: each harness runs for a fixed time, so it ends when it ends whatever else
# runs. The files that run alone wait for it, as for anything else that runs.

# fuzz_result LABEL LOG RC MS : count and report the fuzz smoke run.
fuzz_result() {
    local label=$1 log=$2 rc=$3 ms=$4 p=0 f=1 note="no RESULT line" line
    line=$(grep -a '^RESULT fuzz: ' "$log" | tail -n 1)
    if [[ $line =~ ([0-9]+)\ passed,\ ([0-9]+)\ failed ]]; then
        p=${BASH_REMATCH[1]} f=${BASH_REMATCH[2]} note=""
        if grep -aq '^skip fuzz' "$log"; then
            note="skipped: no clang with libFuzzer"
            skipped=$((skipped + 1))
            if [[ ${CONCLAVE_STRICT_SKIPS:-0} == 1 ]] && ! expected_skip fuzz smoke; then
                f=$((f + 1))
                skip_lines+=("FAIL skip fuzz: smoke (no clang with libFuzzer) - not in tests/expected-skips.txt")
            else
                skip_lines+=("skip fuzz: smoke (no clang with libFuzzer)")
            fi
        fi
        if ((rc != 0 && f == 0)); then f=1 note=$(why_status "$rc"); fi
        line=$(grep -ao '^built the harnesses in [0-9]* s' "$log" | tail -n 1)
        [[ -z $line || -n $note ]] || note="of which ${line#built the harnesses in } building the harnesses"
    fi
    report "$label" "$p" "$f" "$ms" "$log" "$note"
}

# start_fuzz : start the fuzz smoke run once, when it is selected.
fuzz_started=0
start_fuzz() {
    ((fuzz_started || interrupted)) && return
    fuzz_started=1
    [[ ${CONCLAVE_FUZZ_SMOKE:-1} != 0 ]] && selected fuzz || return
    start_job fuzz "fuzz (smoke, tests/fuzz/run.sh)" "$OUT/fuzz.log" bash tests/fuzz/run.sh --smoke
    fuzz_running=1
}

# --- unit tests -----------------------------------------------------------------------

shopt -s nullglob
unit=()
for bin in "$BUILD"/tests/test_*; do
    [[ -f $bin && -x $bin ]] && selected "unit/${bin##*/}" && unit+=("$bin")
done
((${#unit[@]})) || [[ -n ${TESTS:-} ]] || echo "unit: no test binaries in ${BUILD#"$ROOT"/}/tests"

# unit_result LABEL LOG RC MS : count and report a unit binary that ended.
unit_result() {
    local label=$1 log=$2 rc=$3 ms=$4 p=0 f=0 note="" line
    line=$(grep -a '^RESULT ' "$log" | tail -n 1)
    if [[ $line =~ ([0-9]+)\ passed,\ ([0-9]+)\ failed ]]; then
        p=${BASH_REMATCH[1]}
        f=${BASH_REMATCH[2]}
        if ((rc != 0 && f == 0)); then
            f=1
            note=$(why_status "$rc")
        elif ((rc != 0)); then
            note=$(why_status "$rc")
        fi
    else
        f=1
        note="no RESULT line"
        ((rc == 0)) || note+=", $(why_status "$rc")"
    fi
    report "$label" "$p" "$f" "$ms" "$log" "$note"
}

start_fuzz
for bin in "${unit[@]}"; do
    ((interrupted)) && break
    room_for_job
    name=${bin##*/}
    start_job unit "unit/$name" "$OUT/unit/$name.log" "$bin"
done
# The test files take the slots that the unit binaries leave as they end.

# node_result LABEL LOG RC MS : count and report a test file that ended, from its TAP
# summary.
node_result() {
    local label=$1 log=$2 rc=$3 ms=$4 p=0 f=0 note="" pl fl cl sl bad
    pl=$(tap_count pass "$log")
    if [[ -n $pl ]]; then
        fl=$(tap_count fail "$log")
        cl=$(tap_count cancelled "$log")
        sl=$(tap_count skipped "$log")
        p=$pl
        f=$((${fl:-0} + ${cl:-0}))
        ((${cl:-0} == 0)) || note="$cl cancelled"
        if ((${sl:-0} > 0)); then
            skips "$label" "$log"
            bad=$skip_bad
            f=$((f + bad))
            note+="${note:+, }$sl skipped"
            ((bad == 0)) || note+=" ($bad not expected)"
        fi
        if ((rc != 0 && f == 0)); then
            f=1
            note=$(why_status "$rc")
        fi
    else
        f=1
        note="no TAP summary"
        ((rc == 0)) || note+=", $(why_status "$rc")"
    fi
    report "$label" "$p" "$f" "$ms" "$log" "$note"
}

# --- integration and browser tests ----------------------------------------------------

# spread PERMILLE FILE... : "KEY FILE" lines, the Ith of N files at key
# PERMILLE * (I + 0.5) / N (in millionths), so that lists sorted together by key
# interleave evenly.
spread() {
    local permille=$1 i=0 n f
    shift
    n=$#
    for f in "$@"; do
        echo "$((permille * 1000 * (2 * i + 1) / (2 * n))) $f"
        i=$((i + 1))
    done
}

# The integration files, with the browser files spread among the first 85% of them;
# then the files that run alone, once everything else has ended (the fuzz smoke run
# too, long over by then).
node_files=()
integration=()
browser=()
alone_files=()
for file in tests/integration/*.test.mjs tests/browser/*.test.mjs; do
    label=${file#tests/}
    selected "${label%.test.mjs}" || continue
    if grep -qx '// tests/run.sh: alone' "$file"; then
        alone_files+=("$file")
    elif [[ $file == tests/browser/* ]]; then
        browser+=("$file")
    else
        integration+=("$file")
    fi
done
while read -r _ file; do
    [[ -n $file ]] && node_files+=("$file")
done < <({ spread 1000 "${integration[@]}"; spread 850 "${browser[@]}"; } | sort -n -k1,1)
node_files+=("${alone_files[@]}")
if ((${#node_files[@]} == 0)); then
    [[ -n ${TESTS:-} ]] ||
    echo "integration: no tests/integration/*.test.mjs or tests/browser/*.test.mjs"
elif ((!interrupted)); then
    ready=1
    if ! command -v node >/dev/null 2>&1; then
        echo "FAIL node is not installed (run scripts/deps.sh)"
        failed=$((failed + 1))
        ready=0
    elif [[ -f tests/package.json ]] &&
        [[ ! -d tests/node_modules || tests/package.json -nt tests/node_modules ]]; then
        log=$OUT/node/npm-install.log
        if (cd tests && npm install --no-audit --no-fund --silent --no-package-lock) >"$log" 2>&1; then
            touch tests/node_modules
        else
            cpu_ms=""
            report "npm install (tests/)" 0 1 0 "$log" "could not install the test packages"
            ready=0
        fi
    fi
    node_args=(--test --test-reporter=tap)
    if ((ready)) && node --help 2>/dev/null | grep -q -- '--test-concurrency'; then
        node_args+=(--test-concurrency=1)
    fi
    for file in "${node_files[@]}"; do
        ((ready && !interrupted)) || break
        label=${file#tests/}
        label=${label%.test.mjs}
        alone=0
        grep -qx '// tests/run.sh: alone' "$file" && alone=1
        if ((alone)); then all_jobs_done; else
            start_fuzz
            room_for_job
        fi
        ((interrupted)) && break
        start_job node "$label" "$OUT/node/${label//\//_}.log" node "${node_args[@]}" "$file"
        ((alone)) && all_jobs_done
    done
    all_jobs_done
fi

# Without test files (TESTS=fuzz, or node missing), the fuzz smoke run still runs.
start_fuzz
all_jobs_done

#!/usr/bin/env bash
# tests/integration/canary_mutants.sh - can the canary test fail? Builds copies of
# HEAD with one deliberate leak each and runs the unchanged canary test against
# each; prints the leaks it reports. Every mutant must fail the test (exit 1 if one
# does not). Not part of `make test` (a few minutes); see docs/reliability.md.
#
#   DATABASE_URL=... bash tests/integration/canary_mutants.sh [M1 M2 ...]
#
# The copies live in a temporary folder (git archive HEAD), never in the checkout.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
: "${DATABASE_URL:?set DATABASE_URL (bash scripts/pg.sh url)}"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/orig"
git -C "$ROOT" archive HEAD | tar -x -C "$WORK/orig" || exit 1

# sub FILE OLD NEW: replace exactly one occurrence, or fail.
sub() {
    python3 - "$@" <<'PY'
import sys
path, old, new = sys.argv[1:4]
s = open(path).read()
if s.count(old) != 1:
    sys.exit(f"{path}: expected one occurrence of {old!r}, found {s.count(old)}")
open(path, 'w').write(s.replace(old, new))
PY
}

mutate() {
    case $1 in
    M1) # every seat's pending orders in every view
        sub engine/game.c 'if (g->pending[i].seat == seat)' 'if (1)' &&
            sub engine/game.c '    if (seat != ENGINE_PUBLIC) {
        json_t *mine' '    {
        json_t *mine' ;;
    M2) # seat 0's hand in the public Sprint view
        sub engine/rules/sprint/sprint_view.c '    if (seat >= 0 && seat < s->seats) {' \
            '    if (seat < 0)
        seat = 0;
    if (seat >= 0 && seat < s->seats) {' ;;
    M3) # the payment kept in a revealed Sprint order
        sub engine/rules/sprint/sprint.c '"rival",  NULL};' '"rival", "pay", NULL};' ;;
    M4) # the seed in the game resource while running
        sub api/h_games.c 'if (o && strcmp(m->status, "running") != 0) {' 'if (o) {' ;;
    M5) # every input's payload in a debug log line
        sub server/actor.c '        rc = store_append_input(c, &ap);' \
            '        log_debug("input", json_pack("{sO}", "payload", (json_t *)stored.payload));
        rc = store_append_input(c, &ap);' ;;
    M6) # the public WebSocket audience rendered as seat 0
        sub server/hub_feed.c 'json_t *view = engine_view(v->game, seat);' \
            'json_t *view = engine_view(v->game, seat < 0 ? 0 : seat);' ;;
    M7) # private log entries for everyone
        sub engine/game.c '        if (l->seat != ENGINE_PUBLIC && l->seat != seat)' '        if (0)' ;;
    M8) # a refusal that says where another seat's card is
        sub engine/rules/sprint/sprint_rules.c '            if (p->dev == SPRINT_NONE || !hand_has(pl, p->dev))
                return engine_fail(err, ENGINE_EINVALID, "development",
                                   "card %d is not in your hand", p->dev);' \
            '            if (p->dev == SPRINT_NONE || !hand_has(pl, p->dev)) {
                for (int o = 0; o < s->seats; o++)
                    if (o != seat && hand_has(&s->p[o], p->dev))
                        return engine_fail(err, ENGINE_EINVALID, "development",
                                           "card %d is held by someone else", p->dev);
                return engine_fail(err, ENGINE_EINVALID, "development",
                                   "card %d is not in your hand", p->dev);
            }' ;;
    *) echo "unknown mutant $1" >&2; return 1 ;;
    esac
}

status=0
mutants=("$@")
((${#mutants[@]})) || mutants=(M1 M2 M3 M4 M5 M6 M7 M8)
for m in "${mutants[@]}"; do
    rm -rf "$WORK/m" && cp -r "$WORK/orig" "$WORK/m"
    if ! (cd "$WORK/m" && mutate "$m"); then
        echo "$m: the mutation no longer applies"
        status=1
        continue
    fi
    if ! make -s -C "$WORK/m" -j"$(nproc)" BUILD=build build/conclave >"$WORK/build.log" 2>&1; then
        echo "$m: build failed"
        tail -n 5 "$WORK/build.log"
        status=1
        continue
    fi
    out=$(cd "$ROOT" && CONCLAVE_BIN=$WORK/m/build/conclave node --test tests/integration/canary.test.mjs 2>&1)
    leaks=$(grep -o 'canary: leaks [0-9]*' <<<"$out" | grep -o '[0-9]*$')
    first=$(grep -m 1 'LEAK' <<<"$out" | sed 's/^[# \\]*LEAK //' | cut -c1-120)
    if grep -q '^not ok' <<<"$out"; then
        echo "$m: caught, ${leaks:-?} leaks; first: $first"
    else
        echo "$m: NOT caught"
        status=1
    fi
done
exit "$status"

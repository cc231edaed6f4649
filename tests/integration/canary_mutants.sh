#!/usr/bin/env bash
# tests/integration/canary_mutants.sh - can the canary test fail? Runs the canary-*
# entries of tests/mutants/catalogue.txt through tests/mutants/run.py: a control run on
# the unmutated tree first, then each leak on a copy; a mutant counts as caught only
# when the canary reports at least one leak through its leak assertion (a crash or a
# timeout does not). `make mutants` runs these along with every other mutant.
#
#   bash tests/integration/canary_mutants.sh [canary-NAME ...]
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
(($#)) || set -- 'canary-*'
exec python3 "$ROOT/tests/mutants/run.py" "$@"

#!/usr/bin/env bash
# scripts/clang_tidy.sh FILE... - clang-tidy on the given C files with the
# project's compile flags (the checks are in .clang-tidy and tests/.clang-tidy),
# without clang-tidy's "N warnings generated." chatter (those are warnings in
# system headers it does not show). Exits non-zero when clang-tidy found
# anything. `make lint` runs it on every C file, a few files per call, two
# calls at a time.
set -uo pipefail
out=$(clang-tidy --quiet "$@" -- -std=c11 -D_GNU_SOURCE -I. -I/usr/include/postgresql 2>&1)
rc=$?
grep -v 'warnings\? generated\.$' <<<"$out"
exit "$rc"

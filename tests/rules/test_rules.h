/*
 * test_rules.h - test-only rulesets for unit tests and benchmarks. They are
 * not in the server's registry: a program adds them with
 * engine_register_ruleset before engine_init (test_rules_register).
 *
 *   manywin - as many windows open at once as its option "windows" says
 *             (default 40), sealed and open, some waiting on every seat and
 *             some on seat 0 only: for code that must not cap window lists.
 *   bulk    - a large state (option "units", default 1500: about 150 KiB
 *             saved) held as a tree of heap objects, so that a copy of the
 *             game costs what a big game's does; one open window per turn.
 *   fog     - views of about 100 KiB per audience (option "sectors", default
 *             1600) and plays that touch only the mover's view, for what the
 *             WebSocket hub renders per input.
 */
#ifndef CONCLAVE_TEST_RULES_H
#define CONCLAVE_TEST_RULES_H

#include "engine/ruleset.h"

extern const engine_ruleset manywin_ruleset;
extern const engine_ruleset bulk_ruleset;
extern const engine_ruleset fog_ruleset;

/* Register all three; 0, or -1 (see engine_register_ruleset). */
int test_rules_register(void);

#endif

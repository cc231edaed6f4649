/*
 * examples.h - the example rulesets: small, complete rulesets that show one
 * engine feature each, for tests and for reading. They are not in the
 * build's registry (engine/registry.c), so no client sees them unless a
 * program adds them: a test with engine_register_ruleset, a server started
 * with --example-rulesets 1 (CONCLAVE_EXAMPLE_RULESETS=1) through
 * engine_examples_register.
 *
 *   duel_example   - priority and the stack, response rules, undo with
 *                    consent, seat-set log entries (duel.c)
 *   fleets_example - sealed orders given in keyed parts, with a
 *                    max_order_bytes above the default (fleets.c)
 *   signals        - log entries for a set of seats and narrowed
 *                    audiences (signals.c; the canary's seat-set case)
 */
#ifndef CONCLAVE_EXAMPLES_H
#define CONCLAVE_EXAMPLES_H

#include "engine/ruleset.h"

extern const engine_ruleset duel_example_ruleset;
extern const engine_ruleset fleets_example_ruleset;
extern const engine_ruleset signals_ruleset;

/* Add every example ruleset with engine_register_ruleset (so before
 * engine_init, from main). Returns 0, or the first failure with err
 * filled. */
int engine_examples_register(engine_error *err);

#endif

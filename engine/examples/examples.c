/*
 * examples.c - adds the example rulesets (see examples.h).
 */
#include "engine/examples/examples.h"

int engine_examples_register(engine_error *err)
{
    const engine_ruleset *const all[] = {
        &duel_example_ruleset, &fleets_example_ruleset, &signals_ruleset};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        int rc = engine_register_ruleset(all[i], err);
        if (rc != 0)
            return rc;
    }
    return 0;
}

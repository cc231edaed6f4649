/*
 * registry.c - the list of rulesets this build knows, their one-time data
 * checks (engine_init) and their description for clients.
 *
 * To add a ruleset: give it a folder engine/rules/NAME/ exporting
 * `const engine_ruleset NAME_ruleset`, declare it below and list it in
 * `registry`. Galactic Sprint is listed automatically once
 * engine/rules/sprint/sprint.c exists (the build compiles every rules file;
 * after adding that file to an existing build directory, rebuild this one:
 * `touch engine/registry.c`). -DCONCLAVE_NO_SPRINT leaves it out.
 */
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

extern const engine_ruleset tictactoe_ruleset;
extern const engine_ruleset rps_ruleset;
#if defined(__has_include) && !defined(CONCLAVE_NO_SPRINT)
#if __has_include("rules/sprint/sprint.c")
#define HAVE_SPRINT 1
extern const engine_ruleset sprint_ruleset;
#endif
#endif

static const engine_ruleset *const registry[] = {
    &tictactoe_ruleset,
    &rps_ruleset,
#ifdef HAVE_SPRINT
    &sprint_ruleset,
#endif
};

#define NRULESETS (sizeof registry / sizeof registry[0])

/* Rulesets a test or benchmark program adds (engine_register_extra); like
 * `initialized`, written before any thread starts, read-only afterwards. */
#define EXTRA_MAX 8
static const engine_ruleset *extra[EXTRA_MAX];
static size_t nextra;

/* Set once by engine_init, before any thread starts; read-only afterwards. */
static int initialized;

int registry_ready(void)
{
    return initialized;
}

int engine_register_extra(const engine_ruleset *rs)
{
    if (initialized || !rs || nextra == EXTRA_MAX ||
        engine_ruleset_find(rs->id))
        return -1;
    extra[nextra++] = rs;
    return 0;
}

int engine_init(engine_error *err)
{
    if (initialized)
        return 0;
    for (size_t i = 0; i < NRULESETS + nextra; i++) {
        const engine_ruleset *rs =
            i < NRULESETS ? registry[i] : extra[i - NRULESETS];
        if (!rs->init)
            continue;
        engine_error e = {0};
        if (rs->init(&e) != 0) {
            int code = e.code ? e.code : ENGINE_EINTERNAL;
            return engine_fail(err, code, e.field, "ruleset %s: %.200s", rs->id,
                               e.msg[0] ? e.msg : "its data failed to load");
        }
    }
    initialized = 1;
    return 0;
}

const engine_ruleset *engine_ruleset_find(const char *id)
{
    for (size_t i = 0; id && i < NRULESETS; i++)
        if (strcmp(registry[i]->id, id) == 0)
            return registry[i];
    for (size_t i = 0; id && i < nextra; i++)
        if (strcmp(extra[i]->id, id) == 0)
            return extra[i];
    return NULL;
}

const engine_ruleset *const *engine_rulesets(size_t *n)
{
    *n = NRULESETS;
    return registry;
}

json_t *engine_ruleset_describe(const engine_ruleset *rs)
{
    json_t *schema = NULL;
    if (rs->options_schema)
        schema = json_loads(rs->options_schema, 0, NULL);
    if (!schema)
        schema = json_pack("{s:s, s:{}, s:b}", "type", "object", "properties",
                           "additionalProperties", 0);
    return json_pack("{s:s, s:s, s:s, s:i, s:i, s:o}", "id", rs->id, "title",
                     rs->title, "summary", rs->summary, "min_seats",
                     rs->min_seats, "max_seats", rs->max_seats, "options",
                     schema);
}

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
 * A test may add its own example ruleset with engine_register_ruleset
 * before engine_init; the server never does.
 */
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

extern const engine_ruleset tictactoe_ruleset;
extern const engine_ruleset rps_ruleset;
extern const engine_ruleset council_ruleset;
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
    &council_ruleset,
};

#define NRULESETS (sizeof registry / sizeof registry[0])
#define NEXTRA 4

/* Set before and by engine_init, before any thread starts; read-only
 * afterwards. `all` is registry then the rulesets engine_register_ruleset
 * added (test-only ones). */
static int initialized;
static const engine_ruleset *all[NRULESETS + NEXTRA];
static size_t nall;

static void fill_builtin(void)
{
    if (nall == 0)
        for (size_t i = 0; i < NRULESETS; i++)
            all[nall++] = registry[i];
}

int engine_register_ruleset(const engine_ruleset *rs, engine_error *err)
{
    fill_builtin();
    if (initialized || nall == NRULESETS + NEXTRA)
        return engine_fail(err, ENGINE_ECONFLICT, "",
                           "register rulesets before engine_init, at most %d",
                           NEXTRA);
    if (!rs || !rs->id || engine_ruleset_find(rs->id))
        return engine_fail(err, ENGINE_EINVALID, "id",
                           "a ruleset needs an id no other one has");
    all[nall++] = rs;
    return 0;
}

int registry_ready(void)
{
    return initialized;
}

int engine_init(engine_error *err)
{
    if (initialized)
        return 0;
    fill_builtin();
    for (size_t i = 0; i < nall; i++) {
        const engine_ruleset *rs = all[i];
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
    fill_builtin();
    for (size_t i = 0; id && i < nall; i++)
        if (strcmp(all[i]->id, id) == 0)
            return all[i];
    return NULL;
}

const engine_ruleset *const *engine_rulesets(size_t *n)
{
    fill_builtin();
    *n = nall;
    return all;
}

json_t *engine_ruleset_describe(const engine_ruleset *rs)
{
    json_t *schema = engine_options_schema(rs->options);
    return json_pack("{s:s, s:s, s:s, s:i, s:i, s:o}", "id", rs->id, "title",
                     rs->title, "summary", rs->summary, "min_seats",
                     rs->min_seats, "max_seats", rs->max_seats, "options",
                     schema);
}

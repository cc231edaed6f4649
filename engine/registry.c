/*
 * registry.c - the list of rulesets this build knows, their one-time data
 * checks (engine_init) and their description for clients.
 *
 * To add a ruleset: give it a folder engine/rules/NAME/ exporting
 * `const engine_ruleset NAME_ruleset` and add the line RULESET(NAME) to
 * engine/rulesets.def. That list is the only place in engine/ and
 * server/ that names rulesets; everything else the server needs to know
 * about one (bot levels, a per-player record) is in its table.
 * More rulesets may be added with engine_register_ruleset before
 * engine_init: a test's or a benchmark's own (tests/rules/), or the example
 * rulesets of engine/examples/, which the server registers only when
 * started with --example-rulesets 1.
 */
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

#define RULESET(name) extern const engine_ruleset name##_ruleset;
#include "engine/rulesets.def"
#undef RULESET

static const engine_ruleset *const registry[] = {
#define RULESET(name) &name##_ruleset,
#include "engine/rulesets.def"
#undef RULESET
};

#define NRULESETS (sizeof registry / sizeof registry[0])

/* Rulesets a test or benchmark program adds (engine_register_ruleset);
 * like `initialized`, written before any thread starts, read-only
 * afterwards. */
#define EXTRA_MAX 8
static const engine_ruleset *extra[EXTRA_MAX];
static size_t nextra;

/* Set once by engine_init, before any thread starts; read-only afterwards. */
static int initialized;

int registry_ready(void)
{
    return initialized;
}

int engine_register_ruleset(const engine_ruleset *rs, engine_error *err)
{
    if (initialized || nextra == EXTRA_MAX)
        return engine_fail(err, ENGINE_ECONFLICT, "",
                           "register rulesets before engine_init, at most %d",
                           EXTRA_MAX);
    if (!rs || !rs->id || engine_ruleset_find(rs->id))
        return engine_fail(err, ENGINE_EINVALID, "id",
                           "a ruleset needs an id no other one has");
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

size_t engine_max_order_bytes(const engine_ruleset *rs)
{
    return rs && rs->max_order_bytes ? rs->max_order_bytes
                                     : ENGINE_ORDER_BYTES_DEFAULT;
}

size_t engine_max_order_bytes_any(void)
{
    size_t most = ENGINE_ORDER_BYTES_DEFAULT;
    for (size_t i = 0; i < NRULESETS + nextra; i++) {
        size_t n = engine_max_order_bytes(i < NRULESETS ? registry[i]
                                                        : extra[i - NRULESETS]);
        if (n > most)
            most = n;
    }
    return most;
}

const engine_ruleset *const *engine_rulesets(size_t *n)
{
    *n = NRULESETS;
    return registry;
}

json_t *engine_ruleset_describe(const engine_ruleset *rs)
{
    json_t *schema = engine_options_schema(rs->options);
    int n = 0;
    const engine_bot_level *lv = engine_bot_levels(rs, &n);
    json_t *levels = json_array();
    for (int i = 0; levels && i < n; i++)
        json_array_append_new(levels, json_pack("{s:s, s:s}", "id", lv[i].id,
                                                "title", lv[i].title));
    return json_pack("{s:s, s:s, s:s, s:i, s:i, s:o, s:o*}", "id", rs->id,
                     "title", rs->title, "summary", rs->summary, "min_seats",
                     rs->min_seats, "max_seats", rs->max_seats, "options",
                     schema, "bot_levels", levels);
}

static const engine_bot_level random_only[] = {{"random", "Random"},
                                               {NULL, NULL}};

const engine_bot_level *engine_bot_levels(const engine_ruleset *rs, int *n)
{
    const engine_bot_level *lv =
        rs->bot_levels && rs->bot_levels[0].id ? rs->bot_levels : random_only;
    for (*n = 0; lv[*n].id; (*n)++)
        ;
    return lv;
}

int engine_bot_level_known(const engine_ruleset *rs, const char *level)
{
    int n = 0;
    const engine_bot_level *lv = engine_bot_levels(rs, &n);
    for (int i = 0; level && i < n; i++)
        if (strcmp(lv[i].id, level) == 0)
            return 1;
    return 0;
}

const char *engine_ruleset_id(const engine_ruleset *rs)
{
    return rs->id;
}

const char *engine_ruleset_title(const engine_ruleset *rs)
{
    return rs->title ? rs->title : rs->id;
}

const char *engine_record_key(const engine_ruleset *rs)
{
    return rs->record ? rs->record_key : NULL;
}

json_t *engine_record_next(const engine_ruleset *rs, const json_t *old,
                           const json_t *options, int seats, int seat,
                           const json_t *result)
{
    if (!rs->record)
        return NULL;
    return rs->record(old, options, seats, seat, result);
}

int engine_record_choose(const engine_ruleset *rs, const json_t *record,
                         const json_t *choice, json_t **next, engine_error *err)
{
    *next = NULL;
    if (!rs->record_choose)
        return engine_fail(err, ENGINE_ECONFLICT, "",
                           "%s records take no choices", rs->title);
    return rs->record_choose(record, choice, next, err);
}

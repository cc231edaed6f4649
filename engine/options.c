/*
 * options.c - a ruleset's options table made into the two things that must
 * agree: the JSON Schema clients are given and the check every game's
 * options pass; and the options a new game is stamped with (versioned
 * rules, engine_ruleset.new_game_options). Nothing else describes a
 * ruleset's options.
 */
#include <string.h>

#include "engine_internal.h"

static const engine_option *find(const engine_option *table, const char *name)
{
    for (; table && table->name; table++)
        if (strcmp(table->name, name) == 0)
            return table;
    return NULL;
}

static int choice_index(const engine_option *o, const char *name)
{
    for (int i = 0; name && o->choices && o->choices[i]; i++)
        if (strcmp(o->choices[i], name) == 0)
            return i;
    return -1;
}

/* One NAMES value: an array of at most max distinct choices. */
static int check_names(const engine_option *o, const json_t *v,
                       engine_error *err)
{
    if (!json_is_array(v) || json_array_size(v) > (size_t)o->max)
        return engine_fail(err, ENGINE_EINVALID, o->name,
                           "%s must be an array of at most %d names", o->name,
                           o->max);
    for (size_t i = 0; i < json_array_size(v); i++) {
        const char *name = json_string_value(json_array_get(v, i));
        if (choice_index(o, name) < 0)
            return engine_fail(err, ENGINE_EINVALID, o->name,
                               "%s[%zu] is not one of the allowed names",
                               o->name, i);
        for (size_t k = 0; k < i; k++)
            if (strcmp(name, json_string_value(json_array_get(v, k))) == 0)
                return engine_fail(err, ENGINE_EINVALID, o->name,
                                   "%s lists %s twice", o->name, name);
    }
    return 0;
}

/* One HANDS value: per seat, an array of at most max choices. */
static int check_hands(const engine_option *o, const json_t *v,
                       engine_error *err)
{
    if (!json_is_array(v) || json_array_size(v) > ENGINE_MAX_SEATS)
        return engine_fail(err, ENGINE_EINVALID, o->name,
                           "%s must be an array of at most %d hands", o->name,
                           ENGINE_MAX_SEATS);
    for (size_t s = 0; s < json_array_size(v); s++) {
        const json_t *hand = json_array_get(v, s);
        if (!json_is_array(hand) || json_array_size(hand) > (size_t)o->max)
            return engine_fail(err, ENGINE_EINVALID, o->name,
                               "%s[%zu] must be an array of at most %d names",
                               o->name, s, o->max);
        for (size_t i = 0; i < json_array_size(hand); i++)
            if (choice_index(o, json_string_value(json_array_get(hand, i))) < 0)
                return engine_fail(err, ENGINE_EINVALID, o->name,
                                   "%s[%zu][%zu] is not one of the allowed "
                                   "names",
                                   o->name, s, i);
    }
    return 0;
}

static int check_one(const engine_option *o, const json_t *v, engine_error *err)
{
    switch (o->kind) {
    case ENGINE_OPTION_BOOL:
        if (!json_is_boolean(v))
            return engine_fail(err, ENGINE_EINVALID, o->name,
                               "%s must be true or false", o->name);
        return 0;
    case ENGINE_OPTION_INT:
        if (!json_is_integer(v) || json_integer_value(v) < o->min ||
            json_integer_value(v) > o->max)
            return engine_fail(err, ENGINE_EINVALID, o->name,
                               "%s must be an integer from %d to %d", o->name,
                               o->min, o->max);
        return 0;
    case ENGINE_OPTION_NAMES:
        return check_names(o, v, err);
    case ENGINE_OPTION_HANDS:
        return check_hands(o, v, err);
    }
    return engine_fail(err, ENGINE_EINTERNAL, o->name, "bad option kind");
}

int engine_options_valid(const engine_option *table, const json_t *options,
                         engine_error *err)
{
    const char *key;
    json_t *val;
    if (!options)
        return 0;
    if (!json_is_object(options))
        return engine_fail(err, ENGINE_EINVALID, "options",
                           "options must be a JSON object");
    json_object_foreach((json_t *)options, key, val)
    {
        const engine_option *o = find(table, key);
        if (!o)
            return engine_fail(err, ENGINE_EINVALID, key,
                               "unknown option \"%.40s\"", key);
        int rc = check_one(o, val, err);
        if (rc)
            return rc;
    }
    return 0;
}

int engine_check_options(const engine_ruleset *rs, const json_t *options,
                         int seats, engine_error *err)
{
    if (seats < rs->min_seats || seats > rs->max_seats ||
        seats > ENGINE_MAX_SEATS)
        return engine_fail(err, ENGINE_EINVALID, "seats",
                           "%s needs %d to %d seats, got %d", rs->title,
                           rs->min_seats, rs->max_seats, seats);
    int rc = engine_options_valid(rs->options, options, err);
    if (rc == 0 && rs->check_options)
        rc = rs->check_options(options, seats, err);
    return rc;
}

static json_t *property(const engine_option *o)
{
    json_t *p = json_object();
    switch (o->kind) {
    case ENGINE_OPTION_BOOL:
        json_object_set_new(p, "type", json_string("boolean"));
        break;
    case ENGINE_OPTION_INT:
        json_object_set_new(p, "type", json_string("integer"));
        json_object_set_new(p, "minimum", json_integer(o->min));
        json_object_set_new(p, "maximum", json_integer(o->max));
        json_object_set_new(p, "default", json_integer(o->def));
        break;
    case ENGINE_OPTION_HANDS: {
        json_t *names = json_array();
        for (int i = 0; o->choices && o->choices[i]; i++)
            json_array_append_new(names, json_string(o->choices[i]));
        json_object_set_new(p, "type", json_string("array"));
        json_object_set_new(p, "maxItems", json_integer(ENGINE_MAX_SEATS));
        json_object_set_new(p, "items",
                            json_pack("{s:s, s:i, s:{s:s, s:o}}", "type",
                                      "array", "maxItems", o->max, "items",
                                      "type", "string", "enum", names));
        break;
    }
    case ENGINE_OPTION_NAMES: {
        json_t *names = json_array();
        for (int i = 0; o->choices && o->choices[i]; i++)
            json_array_append_new(names, json_string(o->choices[i]));
        json_object_set_new(p, "type", json_string("array"));
        json_object_set_new(p, "uniqueItems", json_true());
        json_object_set_new(p, "maxItems", json_integer(o->max));
        json_object_set_new(
            p, "items",
            json_pack("{s:s, s:o}", "type", "string", "enum", names));
        break;
    }
    }
    if (o->title)
        json_object_set_new(p, "description", json_string(o->title));
    return p;
}

json_t *engine_options_schema(const engine_option *table)
{
    json_t *props = json_object();
    for (const engine_option *o = table; o && o->name; o++)
        json_object_set_new(props, o->name, property(o));
    return json_pack("{s:s, s:o, s:b}", "type", "object", "properties", props,
                     "additionalProperties", 0);
}

int engine_option_int(const engine_option *table, const json_t *options,
                      const char *name)
{
    const engine_option *o = find(table, name);
    const json_t *v = json_object_get(options, name);
    if (!o)
        return 0;
    if (o->kind == ENGINE_OPTION_BOOL)
        return json_is_true(v);
    if (o->kind == ENGINE_OPTION_INT)
        return json_is_integer(v) ? (int)json_integer_value(v) : o->def;
    return 0;
}

json_t *engine_options_stamp(const engine_ruleset *rs, const json_t *options)
{
    json_t *out =
        json_is_object(options) ? json_deep_copy(options) : json_object();
    json_t *stamp = rs && rs->new_game_options
                        ? json_loads(rs->new_game_options, 0, NULL)
                        : NULL;
    if (out && stamp && json_object_update_missing(out, stamp) != 0) {
        json_decref(out);
        out = NULL;
    }
    json_decref(stamp);
    return out;
}

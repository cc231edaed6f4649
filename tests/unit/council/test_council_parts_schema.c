/*
 * test_council_parts_schema.c - the legal answer of Galactic Council's
 * parts windows (action, lobby, council) describes the order they take as
 * a JSON Schema a client can build forms from (docs/games/council.md,
 * "Order formats"). Checked here against the parsers, not with them:
 * - every order the bots send (basic and random, several games and seat
 *   counts) validates against the shape of its window, for its seat, at
 *   the moment it is sent;
 * - the examples of the rules doc's order formats validate, and parts the
 *   parsers refuse for their shape (a missing field, a field of another
 *   step, a count out of range, an unknown card) do not.
 * The examples are JSON written with ' for ". The validator below knows the
 * keywords the shapes use and fails on any other, so a shape cannot pass by
 * using a keyword it ignores.
 */
#include "engine/engine.h"
#include "tests/unit/test.h"

#include <jansson.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A small JSON Schema (2020-12) validator for the keywords the shapes use:
 * 1 when v is valid against sch (root: for $ref "#/$defs/NAME"). */
static int valid(const json_t *root, const json_t *sch, const json_t *v,
                 char *why, size_t n);

static int fail(char *why, size_t n, const char *what, const json_t *v)
{
    char *t = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
    snprintf(why, n, "%s: %.200s", what, t ? t : "?");
    free(t);
    return 0;
}

static int type_is(const char *t, const json_t *v)
{
    if (strcmp(t, "object") == 0)
        return json_is_object(v);
    if (strcmp(t, "array") == 0)
        return json_is_array(v);
    if (strcmp(t, "integer") == 0)
        return json_is_integer(v);
    if (strcmp(t, "string") == 0)
        return json_is_string(v);
    if (strcmp(t, "boolean") == 0)
        return json_is_boolean(v);
    return 0;
}

static int in_enum(const json_t *e, const json_t *v)
{
    for (size_t i = 0; i < json_array_size(e); i++)
        if (json_equal(json_array_get(e, i), v))
            return 1;
    return 0;
}

static int matches(const char *pattern, const char *s)
{
    regex_t re;
    if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB))
        return 0;
    int ok = regexec(&re, s, 0, NULL, 0) == 0;
    regfree(&re);
    return ok;
}

static int valid(const json_t *root, const json_t *sch, const json_t *v,
                 char *why, size_t n)
{
    static const char *const known[] = {"$schema",
                                        "$defs",
                                        "$ref",
                                        "description",
                                        "type",
                                        "const",
                                        "enum",
                                        "properties",
                                        "required",
                                        "additionalProperties",
                                        "propertyNames",
                                        "maxProperties",
                                        "minProperties",
                                        "items",
                                        "minItems",
                                        "maxItems",
                                        "minimum",
                                        "maximum",
                                        "pattern",
                                        "oneOf",
                                        "anyOf",
                                        "uniqueItems",
                                        NULL};
    const char *k;
    const json_t *x;
    if (!json_is_object(sch))
        return fail(why, n, "a schema that is not an object", sch);
    json_object_foreach((json_t *)sch, k, x)
    {
        int ok = 0;
        for (int i = 0; known[i]; i++)
            ok |= strcmp(known[i], k) == 0;
        if (!ok)
            return fail(why, n, "a keyword this validator does not know",
                        json_string(k));
    }
    if ((x = json_object_get(sch, "$ref"))) {
        const char *r = json_string_value(x);
        const json_t *def =
            r && strncmp(r, "#/$defs/", 8) == 0
                ? json_object_get(json_object_get(root, "$defs"), r + 8)
                : NULL;
        if (!def)
            return fail(why, n, "a $ref to nothing", x);
        if (!valid(root, def, v, why, n))
            return 0;
    }
    if ((x = json_object_get(sch, "type")) && !type_is(json_string_value(x), v))
        return fail(why, n, "not of its type", v);
    if ((x = json_object_get(sch, "const")) && !json_equal(x, v))
        return fail(why, n, "not the constant", v);
    if ((x = json_object_get(sch, "enum")) && !in_enum(x, v))
        return fail(why, n, "not one of the enumeration", v);
    if ((x = json_object_get(sch, "pattern")) && json_is_string(v) &&
        !matches(json_string_value(x), json_string_value(v)))
        return fail(why, n, "not matching the pattern", v);
    if (json_is_integer(v)) {
        json_int_t i = json_integer_value(v);
        if ((x = json_object_get(sch, "minimum")) && i < json_integer_value(x))
            return fail(why, n, "below the minimum", v);
        if ((x = json_object_get(sch, "maximum")) && i > json_integer_value(x))
            return fail(why, n, "above the maximum", v);
    }
    if (json_is_array(v)) {
        size_t len = json_array_size(v);
        if ((x = json_object_get(sch, "minItems")) &&
            len < (size_t)json_integer_value(x))
            return fail(why, n, "too few items", v);
        if ((x = json_object_get(sch, "maxItems")) &&
            len > (size_t)json_integer_value(x))
            return fail(why, n, "too many items", v);
        if (json_is_true(json_object_get(sch, "uniqueItems")))
            for (size_t i = 0; i < len; i++)
                for (size_t j = i + 1; j < len; j++)
                    if (json_equal(json_array_get(v, i), json_array_get(v, j)))
                        return fail(why, n, "an item twice", v);
        if ((x = json_object_get(sch, "items")))
            for (size_t i = 0; i < len; i++)
                if (!valid(root, x, json_array_get(v, i), why, n))
                    return 0;
    }
    if (json_is_object(v)) {
        size_t len = json_object_size(v);
        if ((x = json_object_get(sch, "minProperties")) &&
            len < (size_t)json_integer_value(x))
            return fail(why, n, "too few members", v);
        if ((x = json_object_get(sch, "maxProperties")) &&
            len > (size_t)json_integer_value(x))
            return fail(why, n, "too many members", v);
        const json_t *req = json_object_get(sch, "required");
        for (size_t i = 0; i < json_array_size(req); i++)
            if (!json_object_get(v, json_string_value(json_array_get(req, i))))
                return fail(why, n, "a required member missing", v);
        const json_t *props = json_object_get(sch, "properties"),
                     *extra = json_object_get(sch, "additionalProperties"),
                     *names = json_object_get(sch, "propertyNames");
        const char *m;
        const json_t *mv;
        json_object_foreach((json_t *)v, m, mv)
        {
            json_t *name = json_string(m);
            int ok = !names || valid(root, names, name, why, n);
            json_decref(name);
            if (!ok)
                return 0;
            const json_t *p = json_object_get(props, m);
            if (p) {
                if (!valid(root, p, mv, why, n))
                    return 0;
            } else if (json_is_false(extra)) {
                return fail(why, n, "a member not allowed here", v);
            } else if (json_is_object(extra) &&
                       !valid(root, extra, mv, why, n)) {
                return 0;
            }
        }
    }
    if ((x = json_object_get(sch, "anyOf"))) {
        int any = 0;
        for (size_t i = 0; i < json_array_size(x) && !any; i++)
            any = valid(root, json_array_get(x, i), v, why, n);
        if (!any)
            return fail(why, n, "none of anyOf", v);
    }
    if ((x = json_object_get(sch, "oneOf"))) {
        int count = 0;
        for (size_t i = 0; i < json_array_size(x); i++)
            count += valid(root, json_array_get(x, i), v, why, n);
        if (count != 1)
            return fail(why, n,
                        count ? "more than one of oneOf" : "none of oneOf", v);
    }
    return 1;
}

/* The legal shape of seat's window w in g (borrowed from *legal). */
static const json_t *shape_of(const engine_game *g, int seat, const char *w,
                              json_t **legal)
{
    *legal = engine_legal(g, seat);
    const json_t *ws = json_object_get(*legal, "windows");
    for (size_t i = 0; i < json_array_size(ws); i++) {
        const json_t *x = json_array_get(ws, i);
        if (strcmp(json_string_value(json_object_get(x, "window")), w) == 0)
            return json_object_get(x, "shape");
    }
    return NULL;
}

/* A game with opts (NULL: one stored before rules editions). */
static engine_game *new_game_with(int seats, int n, const json_t *opts)
{
    uint8_t seed[ENGINE_SEED_BYTES] = {0};
    seed[0] = (uint8_t)n;
    seed[1] = (uint8_t)seats;
    engine_error err;
    return engine_create("council", "schema", opts, seats, seed, &err);
}

/* A game with the options new games get (the current edition). */
static engine_game *new_game(int seats, int n)
{
    json_t *opts = engine_options_stamp(engine_ruleset_find("council"), NULL);
    engine_game *g = new_game_with(seats, n, opts);
    json_decref(opts);
    return g;
}

/* 1 when order holds a representative (a lobby part, edition 2). */
static int has_lobby_part(const json_t *order)
{
    const char *k;
    const json_t *v;
    json_object_foreach((json_t *)order, k, v)
    {
        const char *t = json_string_value(json_object_get(v, "type"));
        if (t && strcmp(t, "representative") == 0)
            return 1;
    }
    return 0;
}

/* Bots play council games; each order sent to a parts window must be
 * valid against the shape its seat was offered for that window. */
static void test_every_bot_order_fits_its_windows_shape(void)
{
    int orders = 0, kinds[4] = {0}; /* action, lobby, council, picks */
    for (int n = 0; n < 8; n++) {
        int seats = 3 + n % 3;
        /* the current edition, and from n = 6 games stored before editions
         * (the lobby in a window of its own) */
        engine_game *g =
            n < 6 ? new_game(seats, n) : new_game_with(seats, n, NULL);
        REQUIRE(g);
        engine_rng rng;
        uint8_t key[32] = {(uint8_t)(n + 1)};
        engine_rng_init(&rng, key, 0);
        const char *level = n % 2 ? "basic" : "random";
        for (int step = 0; step < 4000 && !engine_is_over(g); step++) {
            int acted = 0;
            for (int s = 0; s < seats && !acted; s++) {
                engine_input in;
                engine_error e;
                if (engine_bot_action(g, s, level, &rng, &in, &e) != 0)
                    continue;
                if (in.kind == ENGINE_ORDER) {
                    json_t *legal = NULL;
                    const json_t *shape = shape_of(g, s, in.window, &legal);
                    CHECKF(shape, "no shape for %s", in.window);
                    if (shape && strchr(in.window, '.') &&
                        json_object_get(shape, "additionalProperties")) {
                        char why[320] = "";
                        orders++;
                        kinds[strstr(in.window, "lobby")     ? 1
                              : strstr(in.window, "council") ? 2
                              : strstr(in.window, "picks")   ? 3
                                                             : 0]++;
                        kinds[1] += strstr(in.window, "action") &&
                                    has_lobby_part(in.payload);
                        CHECKF(valid(shape, shape, in.payload, why, sizeof why),
                               "%s seat %d: %s", in.window, s, why);
                    }
                    json_decref(legal);
                }
                acted = engine_apply(g, &in, NULL, &e) == 0;
                json_decref((json_t *)in.payload);
            }
            if (!acted) {
                engine_window w[1];
                if (engine_windows(g, w, 1) < 1)
                    break;
                engine_input t = {.seat = ENGINE_PUBLIC,
                                  .kind = ENGINE_TIMEOUT,
                                  .window = w[0].id};
                engine_error e;
                if (engine_apply(g, &t, NULL, &e) != 0)
                    break;
            }
        }
        engine_free(g);
    }
    fprintf(stderr,
            "  %d bot orders checked: %d action, %d lobby, %d council, "
            "%d ranked picks\n",
            orders, kinds[0], kinds[1], kinds[2], kinds[3]);
    CHECK(kinds[0] > 20 && kinds[1] > 5 && kinds[2] > 5 && kinds[3] > 5);
}

/* The first window of g matching suffix, played to by timeouts. */
static int reach(engine_game *g, const char *suffix, char *id, size_t n)
{
    for (int i = 0; i < 200 && !engine_is_over(g); i++) {
        engine_window w[1];
        if (engine_windows(g, w, 1) < 1)
            return 0;
        size_t a = strlen(w[0].id), b = strlen(suffix);
        if (a >= b && strcmp(w[0].id + a - b, suffix) == 0) {
            snprintf(id, n, "%s", w[0].id);
            return 1;
        }
        engine_input t = {
            .seat = ENGINE_PUBLIC, .kind = ENGINE_TIMEOUT, .window = w[0].id};
        engine_error e;
        if (engine_apply(g, &t, NULL, &e) != 0)
            return 0;
    }
    return 0;
}

/* order in JSON with ' for " (the examples read better so). */
static json_t *loads(const char *order)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", order);
    for (char *c = buf; *c; c++)
        if (*c == '\'')
            *c = '"';
    json_error_t je;
    return json_loads(buf, 0, &je);
}

static int fits(const json_t *shape, const char *order)
{
    json_t *o = loads(order);
    char why[320];
    int ok = o && valid(shape, shape, o, why, sizeof why);
    json_decref(o);
    return ok;
}

/* The lobby's parts (the doc's examples) fit shape; others do not. */
static void lobby_examples(const json_t *shape, const char *where)
{
    static const char *const lobby_good[] = {
        "{'a': {'type': 'play', 'card': 'veto'}}",
        "{'a': {'type': 'play', 'card': 'bribe', 'amount': 3}}",
        "{'a': {'type': 'give', 'seat': 1, 'trade_goods': 2}}",
        "{'a': {'type': 'objective', 'pick': 1}}",
        "{'r': {'type': 'representative', 'role': 'spy', 'target': 2}}",
        "{'ready': true}"};
    for (size_t i = 0; i < sizeof lobby_good / sizeof *lobby_good; i++)
        CHECKF(fits(shape, lobby_good[i]), "%s refused: %s", where,
               lobby_good[i]);
    CHECKF(!fits(shape, "{'a': {'type': 'vote', 'for': true}}"), "%s", where);
    CHECKF(!fits(shape, "{'a': {'type': 'representative', 'role': 'king'}}"),
           "%s", where);
    /* 4 seats: 0..3 */
    CHECKF(!fits(shape, "{'a': {'type': 'give', 'seat': 4, 'trade_goods': 1}}"),
           "%s", where);
}

/* The doc's examples fit; shapes the parsers refuse do not. */
static void test_doc_examples_fit_and_bad_shapes_do_not(void)
{
    engine_game *g = new_game(4, 40);
    REQUIRE(g);
    char w[ENGINE_WINDOW_ID_MAX];
    json_t *legal = NULL;
    REQUIRE(reach(g, ".action", w, sizeof w));
    const json_t *act = shape_of(g, 0, w, &legal);
    REQUIRE(act);
    static const char *const good[] = {
        "{'f3': [{'type': 'activate', 'sector': [1, 0]}, {'type': 'move', "
        "'from': [0, 0], 'to': [1, 0], 'units': {'carrier': 1, 'trooper': 2}}, "
        "{'type': 'inspect'}, {'type': 'if', 'cond': {'type': 'marker_is', "
        "'is': 'hostile'}, 'then': [{'type': 'retreat', 'to': [0, 0]}], "
        "'else': [{'type': 'land', 'planet': 'all', 'troops': 'all'}]}], "
        "'ready': true}",
        "{'a': {'type': 'discard'}}",
        "{'a': {'type': 'discard', 'sector': [1, 0], 'planet': 'system'}}",
        "{'a': {'type': 'tokens', 'tactic': 3, 'fleet': 4, 'strategy': 2}}",
        "{'a': {'type': 'combat_retreat', 'sector': [1, 0], 'to': [2, 0], "
        "'after': 1}}",
        "{'a': {'type': 'share', 'seat': 2, 'on': false}}",
        "{'a': {'type': 'lore', 'sector': [1, 0], 'planet': "
        "'highest_influence'}}",
        "{'a': {'type': 'score', 'public': [], 'secret': []}}",
        "{'a': {'type': 'follow', 'card': 'research'}}",
        "{'a': {'type': 'hold'}}"};
    for (size_t i = 0; i < sizeof good / sizeof *good; i++)
        CHECKF(fits(act, good[i]), "refused: %s", good[i]);
    static const char *const bad[] = {
        "{'a': {'type': 'move', 'from': [0, 0], 'to': [1, 0]}}",
        "{'a': {'type': 'activate', 'sector': [1, 0], 'to': [1, 0]}}",
        "{'a': {'type': 'tokens', 'tactic': 17, 'fleet': 0, 'strategy': 0}}",
        "{'a': {'type': 'land', 'planet': 'all', 'troops': 0}}",
        "{'a': {'type': 'fly'}}",
        "{'a': []}",
        "{'a': {'type': 'play', 'card': 'no_such_card'}}",
        "{'a': {'type': 'activate', 'sector': [1]}}",
        "{'ready': false}",
        "{'A': {'type': 'hold'}}"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        CHECKF(!fits(act, bad[i]), "accepted: %s", bad[i]);
    /* The engine agrees on each bad shape: refused when saved. */
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        json_t *o = loads(bad[i]);
        engine_input in = {
            .seat = 0, .kind = ENGINE_ORDER, .window = w, .payload = o};
        engine_error e;
        engine_game *c = engine_clone(g);
        CHECKF(engine_apply(c, &in, NULL, &e) != 0, "engine took: %s", bad[i]);
        engine_free(c);
        json_decref(o);
    }
    /* Edition 2 (new games): the lobby's parts go in the action window,
     * beside the fleet orders; edition 1 gives them a window of its own. */
    lobby_examples(act, "action window (edition 2)");
    CHECK(fits(act, "{'f1': {'type': 'hold'}, 'r': {'type': "
                    "'representative', 'role': 'clerk'}}"));
    json_decref(legal);
    engine_game *old = new_game_with(4, 40, NULL);
    REQUIRE(old);
    REQUIRE(reach(old, ".lobby", w, sizeof w));
    const json_t *lob = shape_of(old, 0, w, &legal);
    REQUIRE(lob);
    lobby_examples(lob, "lobby (edition 1)");
    CHECK(!fits(lob, "{'f1': {'type': 'hold'}}"));
    json_decref(legal);
    engine_free(old);
    REQUIRE(reach(g, ".council", w, sizeof w));
    const json_t *cou = shape_of(g, 0, w, &legal);
    REQUIRE(cou);
    CHECK(fits(cou, "{'a': {'type': 'markers', 'count': 2}}"));
    CHECK(fits(cou,
               "{'a': {'type': 'capture', 'sector': [1, -1], 'planet': 0}}"));
    CHECK(!fits(cou, "{'a': {'type': 'markers', 'count': 6}}"));
    CHECK(!fits(cou, "{'a': {'type': 'objective', 'pick': 1}}"));
    /* A vote takes the agenda's form: for a law or a seat, not both. */
    int law = fits(cou, "{'a': {'type': 'vote', 'for': true}}"),
        election = fits(cou, "{'a': {'type': 'vote', 'seat': 3}}");
    json_t *v = engine_view(g, 0);
    const char *kind = json_string_value(json_object_get(
        json_object_get(json_object_get(v, "council"), "agenda"), "kind"));
    REQUIRE(kind);
    CHECKF(law == (strcmp(kind, "law") == 0) &&
               election == (strcmp(kind, "election") == 0),
           "a %s: law %d election %d", kind, law, election);
    json_decref(v);
    json_decref(legal);
    engine_free(g);
}

int main(void)
{
    engine_error err;
    if (engine_init(&err) != 0) {
        fprintf(stderr, "engine_init: %s\n", err.msg);
        return 1;
    }
    RUN(test_every_bot_order_fits_its_windows_shape);
    RUN(test_doc_examples_fit_and_bad_shapes_do_not);
    return TEST_SUMMARY();
}

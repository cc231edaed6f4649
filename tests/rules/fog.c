/*
 * fog.c - test-only ruleset "fog": a big view per audience and inputs that
 * touch one seat's view only, as a galaxy game with fog of war has, for
 * measuring what the WebSocket hub renders per input (bench/hub/render.c).
 *
 * The state is a map of option "sectors" sectors (default 1600, about
 * 75 bytes each in a view) that everyone sees, and option "units" units
 * (default 400) dealt round the seats. A seat's view is {"map":[...],
 * "units":[its own units]}; the public view is {"map":[...],"counts":[units
 * per seat]}. Seats take turns in one open window "t<turn>"; a play
 * {"unit": U, "dx": -1|1} moves the mover's own unit U, changes only the
 * mover's view (engine_ctx_touch) and logs a line for the mover alone.
 * Never ends.
 */
#include "tests/rules/test_rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fog {
    json_t *map;   /* array of sectors, owned */
    json_t *units; /* array of {"id","owner","x","y"}, owned */
    int seats;
    json_int_t turn;
} fog;

static void destroy(void *state)
{
    fog *f = state;
    if (f) {
        json_decref(f->map);
        json_decref(f->units);
    }
    free(f);
}

static fog *fog_wrap(json_t *map, json_t *units, int seats, json_int_t turn)
{
    fog *f = map && units ? malloc(sizeof *f) : NULL;
    if (!f) {
        json_decref(map);
        json_decref(units);
        return NULL;
    }
    f->map = map;
    f->units = units;
    f->seats = seats;
    f->turn = turn;
    return f;
}

static const engine_option fog_options[] = {
    {"sectors", ENGINE_OPTION_INT, "sectors on the map", 1, 100000, 1600, NULL},
    {"units", ENGINE_OPTION_INT, "units, dealt round the seats", 1, 100000, 400,
     NULL},
    {0},
};

static void *setup(engine_ctx *ctx, const json_t *options, int seats,
                   engine_error *err)
{
    static const char *const kinds[] = {"void", "nebula", "asteroids",
                                        "planet"};
    json_int_t ns = engine_option_int(fog_options, options, "sectors");
    json_int_t nu = engine_option_int(fog_options, options, "units");
    engine_rng *rng = engine_ctx_rng(ctx);
    json_t *map = json_array(), *units = json_array();
    for (json_int_t i = 0; map && i < ns; i++) {
        char name[32];
        snprintf(name, sizeof name, "sector-%05lld", (long long)i);
        if (json_array_append_new(
                map, json_pack("{s:I, s:s, s:i, s:i, s:s}", "id", i, "name",
                               name, "x", (int)engine_rng_below(rng, 1000), "y",
                               (int)engine_rng_below(rng, 1000), "kind",
                               kinds[engine_rng_below(rng, 4)])) != 0) {
            json_decref(map);
            map = NULL;
        }
    }
    for (json_int_t i = 0; units && i < nu; i++)
        if (json_array_append_new(
                units, json_pack("{s:I, s:i, s:i, s:i}", "id", i, "owner",
                                 (int)(i % seats), "x",
                                 (int)engine_rng_below(rng, 1000), "y",
                                 (int)engine_rng_below(rng, 1000))) != 0) {
            json_decref(units);
            units = NULL;
        }
    fog *f = fog_wrap(map, units, seats, 0);
    if (!f)
        engine_fail(err, ENGINE_EINTERNAL, "", "out of memory");
    return f;
}

static void *clone(const void *state)
{
    const fog *f = state;
    return fog_wrap(json_deep_copy(f->map), json_deep_copy(f->units), f->seats,
                    f->turn);
}

static json_t *save(const void *state)
{
    const fog *f = state;
    return json_pack("{s:o, s:o, s:i, s:I}", "map", json_deep_copy(f->map),
                     "units", json_deep_copy(f->units), "seats", f->seats,
                     "turn", f->turn);
}

static void *load(const json_t *saved, engine_error *err)
{
    json_t *map = NULL, *units = NULL;
    int seats = 0;
    json_int_t turn = 0;
    if (json_unpack((json_t *)saved, "{s:o, s:o, s:i, s:I !}", "map", &map,
                    "units", &units, "seats", &seats, "turn", &turn) != 0 ||
        !json_is_array(map) || !json_is_array(units) || seats < 1) {
        engine_fail(err, ENGINE_EINTERNAL, "state", "saved fog is corrupt");
        return NULL;
    }
    fog *f = fog_wrap(json_deep_copy(map), json_deep_copy(units), seats, turn);
    if (!f)
        engine_fail(err, ENGINE_EINTERNAL, "", "out of memory");
    return f;
}

static int is_over(const void *state)
{
    (void)state;
    return 0;
}

static int windows(const void *state, engine_window *out, int max)
{
    const fog *f = state;
    if (max >= 1) {
        snprintf(out[0].id, sizeof out[0].id, "t%lld", (long long)f->turn);
        out[0].mode = ENGINE_OPEN;
        out[0].seats = 1u << (f->turn % f->seats);
        out[0].submitted = 0;
    }
    return 1;
}

static int play(void *state, engine_ctx *ctx, int seat, const char *window,
                const json_t *payload, engine_error *err)
{
    fog *f = state;
    (void)window; /* the core checked it is the one open window */
    json_int_t unit = -1, dx = 0;
    if (json_unpack((json_t *)payload, "{s:I, s:I !}", "unit", &unit, "dx",
                    &dx) != 0 ||
        unit < 0 || (size_t)unit >= json_array_size(f->units) ||
        (dx != 1 && dx != -1))
        return engine_fail(err, ENGINE_EINVALID, "",
                           "a play is {\"unit\": U, \"dx\": -1|1}");
    json_t *u = json_array_get(f->units, (size_t)unit);
    if (json_integer_value(json_object_get(u, "owner")) != seat)
        return engine_fail(err, ENGINE_EINVALID, "unit", "not your unit");
    json_t *x = json_object_get(u, "x");
    if (json_integer_set(x, json_integer_value(x) + dx) != 0)
        return engine_fail(err, ENGINE_EINTERNAL, "", "corrupt unit");
    f->turn++;
    engine_ctx_touch(ctx, 1u << seat);
    engine_ctx_log_seats(
        ctx, 1u << seat,
        json_pack("{s:s, s:I, s:I}", "type", "move", "unit", unit, "dx", dx));
    return 0;
}

static json_t *view(const void *state, int seat)
{
    const fog *f = state;
    json_t *mine = json_array(), *counts = json_array();
    for (int s = 0; counts && s < f->seats; s++)
        json_array_append_new(counts, json_integer(0));
    size_t i;
    json_t *u;
    json_array_foreach(f->units, i, u)
    {
        json_int_t owner = json_integer_value(json_object_get(u, "owner"));
        if (owner == seat)
            json_array_append_new(mine, json_deep_copy(u));
        json_t *c = json_array_get(counts, (size_t)owner);
        json_integer_set(c, json_integer_value(c) + 1);
    }
    if (seat >= 0) {
        json_decref(counts);
        return json_pack("{s:o, s:o}", "map", json_deep_copy(f->map), "units",
                         mine);
    }
    json_decref(mine);
    return json_pack("{s:o, s:o}", "map", json_deep_copy(f->map), "counts",
                     counts);
}

static json_t *legal(const void *state, int seat, const char *window)
{
    (void)state, (void)seat, (void)window;
    return json_pack("{s:s, s:{s:s}, s:n}", "kind", "play", "shape", "type",
                     "object", "choices");
}

static json_t *bot(const void *state, int seat, const char *window,
                   const char *level, engine_rng *rng)
{
    const fog *f = state;
    (void)window;
    if (strcmp(level, "random") != 0)
        return NULL;
    uint32_t per = (uint32_t)(json_array_size(f->units) / (size_t)f->seats);
    uint32_t k = per ? engine_rng_below(rng, per) : 0;
    return json_pack("{s:i, s:i}", "unit", (int)(k * (uint32_t)f->seats) + seat,
                     "dx", engine_rng_below(rng, 2) ? 1 : -1);
}

static json_t *result(const void *state)
{
    (void)state;
    return NULL;
}

const engine_ruleset fog_ruleset = {
    .id = "fog",
    .title = "Fog (test)",
    .summary = "Big views, inputs that touch one seat: for the hub.",
    .min_seats = 1,
    .max_seats = 8,
    .options = fog_options,
    .setup = setup,
    .destroy = destroy,
    .clone = clone,
    .save = save,
    .load = load,
    .windows = windows,
    .play = play,
    .view = view,
    .legal = legal,
    .bot = bot,
    .is_over = is_over,
    .result = result,
};

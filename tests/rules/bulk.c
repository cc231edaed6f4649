/*
 * bulk.c - test-only ruleset "bulk": a large state whose copy is costly, as
 * a galaxy game's is, for measuring the apply path (bench/apply/inputs.c).
 *
 * The state is a JSON tree of option "units" units (1..100000, default
 * 1500; about 100 bytes each saved), each {"id","owner","name","x","y",
 * "hp","cargo":[...]}, plus a turn counter. Seats take turns in one open
 * window "t<turn>"; a play {"unit": U, "dx": -1|1} moves unit U. The game
 * ends after option "turns" turns (default 1000000). Nothing is hidden;
 * views are small (the turn and the unit count) so that measurements see
 * the apply path, not rendering.
 */
#include "tests/rules/test_rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct bulk {
    json_t *units; /* array of objects, owned */
    int seats;
    json_int_t turn, turns;
} bulk;

static void destroy(void *state)
{
    bulk *b = state;
    if (b)
        json_decref(b->units);
    free(b);
}

static bulk *bulk_wrap(json_t *units, int seats, json_int_t turn,
                       json_int_t turns)
{
    bulk *b = units ? malloc(sizeof *b) : NULL;
    if (!b) {
        json_decref(units);
        return NULL;
    }
    b->units = units;
    b->seats = seats;
    b->turn = turn;
    b->turns = turns;
    return b;
}

static const engine_option bulk_options[] = {
    {"units", ENGINE_OPTION_INT, "units in the state", 1, 100000, 1500, NULL},
    {"turns", ENGINE_OPTION_INT, "turns before the end", 1, 1000000000, 1000000,
     NULL},
    {0},
};

static void *setup(engine_ctx *ctx, const json_t *options, int seats,
                   engine_error *err)
{
    json_int_t n = engine_option_int(bulk_options, options, "units");
    json_t *units = json_array();
    engine_rng *rng = engine_ctx_rng(ctx);
    for (json_int_t i = 0; units && i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "unit-%06lld", (long long)i);
        json_t *u = json_pack("{s:I, s:i, s:s, s:i, s:i, s:i, s:[i,i,i]}", "id",
                              i, "owner", (int)(i % seats), "name", name, "x",
                              (int)engine_rng_below(rng, 1000), "y",
                              (int)engine_rng_below(rng, 1000), "hp", 100,
                              "cargo", 1, 2, 3);
        if (json_array_append_new(units, u) != 0) {
            json_decref(units);
            units = NULL;
        }
    }
    bulk *b = bulk_wrap(units, seats, 0,
                        engine_option_int(bulk_options, options, "turns"));
    if (!b)
        engine_fail(err, ENGINE_EINTERNAL, "", "out of memory");
    return b;
}

static void *clone(const void *state)
{
    const bulk *b = state;
    return bulk_wrap(json_deep_copy(b->units), b->seats, b->turn, b->turns);
}

static json_t *save(const void *state)
{
    const bulk *b = state;
    return json_pack("{s:o, s:i, s:I, s:I}", "units", json_deep_copy(b->units),
                     "seats", b->seats, "turn", b->turn, "turns", b->turns);
}

static void *load(const json_t *saved, engine_error *err)
{
    json_t *units = NULL;
    int seats = 0;
    json_int_t turn = 0, turns = 0;
    if (json_unpack((json_t *)saved, "{s:o, s:i, s:I, s:I !}", "units", &units,
                    "seats", &seats, "turn", &turn, "turns", &turns) != 0 ||
        !json_is_array(units) || seats < 1) {
        engine_fail(err, ENGINE_EINTERNAL, "state", "saved bulk is corrupt");
        return NULL;
    }
    bulk *b = bulk_wrap(json_deep_copy(units), seats, turn, turns);
    if (!b)
        engine_fail(err, ENGINE_EINTERNAL, "", "out of memory");
    return b;
}

static int is_over(const void *state)
{
    const bulk *b = state;
    return b->turn >= b->turns;
}

static int windows(const void *state, engine_window *out, int max)
{
    const bulk *b = state;
    if (is_over(b))
        return 0;
    if (max >= 1) {
        snprintf(out[0].id, sizeof out[0].id, "t%lld", (long long)b->turn);
        out[0].mode = ENGINE_OPEN;
        out[0].seats = 1u << (b->turn % b->seats);
        out[0].submitted = 0;
    }
    return 1;
}

static int play(void *state, engine_ctx *ctx, int seat, const char *window,
                const json_t *payload, engine_error *err)
{
    bulk *b = state;
    (void)window; /* the core checked it is the one open window */
    if (seat != b->turn % b->seats)
        return engine_fail(err, ENGINE_ECONFLICT, "", "not your turn");
    json_int_t unit = -1, dx = 0;
    if (json_unpack((json_t *)payload, "{s:I, s:I !}", "unit", &unit, "dx",
                    &dx) != 0 ||
        unit < 0 || (size_t)unit >= json_array_size(b->units) ||
        (dx != 1 && dx != -1))
        return engine_fail(err, ENGINE_EINVALID, "",
                           "a play is {\"unit\": U, \"dx\": -1|1}");
    json_t *u = json_array_get(b->units, (size_t)unit);
    json_t *x = json_object_get(u, "x");
    if (json_integer_set(x, json_integer_value(x) + dx) != 0)
        return engine_fail(err, ENGINE_EINTERNAL, "", "corrupt unit");
    b->turn++;
    engine_ctx_log(ctx, json_pack("{s:s, s:I, s:I}", "type", "move", "unit",
                                  unit, "dx", dx));
    return 0;
}

static int timeout(void *state, engine_ctx *ctx, const char *window,
                   engine_error *err)
{
    bulk *b = state;
    (void)ctx, (void)window, (void)err;
    b->turn++; /* the seat to move passes */
    return 0;
}

static json_t *view(const void *state, int seat)
{
    const bulk *b = state;
    (void)seat;
    return json_pack("{s:I, s:I}", "turn", b->turn, "units",
                     (json_int_t)json_array_size(b->units));
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
    const bulk *b = state;
    (void)seat, (void)window;
    if (strcmp(level, "random") != 0)
        return NULL;
    uint32_t n = (uint32_t)json_array_size(b->units);
    return json_pack("{s:i, s:i}", "unit", (int)engine_rng_below(rng, n), "dx",
                     engine_rng_below(rng, 2) ? 1 : -1);
}

static json_t *result(const void *state)
{
    return is_over(state) ? json_pack("{s:[], s:b}", "winners", "draw", 1)
                          : NULL;
}

const engine_ruleset bulk_ruleset = {
    .id = "bulk",
    .title = "Bulk (test)",
    .summary = "A large state, for measuring the apply path.",
    .min_seats = 1,
    .max_seats = 8,
    .options = bulk_options,
    .setup = setup,
    .destroy = destroy,
    .clone = clone,
    .save = save,
    .load = load,
    .windows = windows,
    .play = play,
    .timeout = timeout,
    .view = view,
    .legal = legal,
    .bot = bot,
    .is_over = is_over,
    .result = result,
};

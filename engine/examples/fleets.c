/*
 * fleets.c - an example ruleset for sealed orders in parts, for tests
 * only: it is not in engine/registry.c; a test registers it with
 * engine_register_ruleset, and a server started with --example-rulesets 1
 * offers it (engine/examples/examples.h).
 *
 * "fleets_example": 2-4 seats, each commanding option "fleets" fleets
 * (1..8, default 4) on a line of 100 sectors, all starting at sector 0.
 * Each of option "rounds" rounds (1..20, default 3) opens one sealed
 * window "r<N>" for every seat, and it takes its order in parts: an order
 * is an object whose members are the seat's fleets, "f0".."f<fleets-1>",
 * each {"to": 0..99, "note": any string}; a fleet left out holds, so {} is
 * a valid order (and the one a seat that times out gets). Notes may be
 * long (this ruleset takes orders up to 256 KiB, to show orders past the
 * 64 KiB default) and stay secret: the reveal shows only where each fleet
 * goes (public_order). After the last round the seat whose fleets stand
 * furthest out in total wins (ties share the win). With option "ready" a
 * round locks only when every seat has added the part "ready": true (or at
 * its deadline), as Galactic Council's action phase does.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/examples/examples.h"

#define MAX_FLEETS 8
#define SECTORS 100

typedef struct fleets {
    int seats, fleets, rounds, round; /* round: 1-based, rounds+1 when over */
    int ready; /* option "ready": the windows are ready_part */
    int pos[ENGINE_MAX_SEATS][MAX_FLEETS];
} fleets;

static const engine_option options[] = {
    {"fleets", ENGINE_OPTION_INT, "fleets per seat", 1, MAX_FLEETS, 4, NULL},
    {"rounds", ENGINE_OPTION_INT, "rounds to play", 1, 20, 3, NULL},
    {"ready", ENGINE_OPTION_BOOL,
     "a round locks only when every seat marks its order ready", 0, 0, 0, NULL},
    {0},
};

static const engine_field fields[] = {
    {.name = "seats",
     .kind = ENGINE_FIELD_INT,
     .offset = offsetof(fleets, seats),
     .min = 2,
     .max = 4},
    {.name = "fleets",
     .kind = ENGINE_FIELD_INT,
     .offset = offsetof(fleets, fleets),
     .min = 1,
     .max = MAX_FLEETS},
    {.name = "rounds",
     .kind = ENGINE_FIELD_INT,
     .offset = offsetof(fleets, rounds),
     .min = 1,
     .max = 20},
    {.name = "round",
     .kind = ENGINE_FIELD_INT,
     .offset = offsetof(fleets, round),
     .min = 1,
     .max = 21},
    {.name = "ready",
     .kind = ENGINE_FIELD_INT,
     .offset = offsetof(fleets, ready),
     .min = 0,
     .max = 1},
    {.name = "pos",
     .kind = ENGINE_FIELD_INT,
     .offset = offsetof(fleets, pos),
     .min = 0,
     .max = SECTORS - 1,
     .len = ENGINE_MAX_SEATS,
     .cols = MAX_FLEETS},
    {0},
};

static int is_over(const void *state)
{
    const fleets *f = state;
    return f->round > f->rounds;
}

static void *setup(engine_ctx *ctx, const json_t *opts, int seats,
                   engine_error *err)
{
    (void)ctx;
    fleets *f = calloc(1, sizeof *f);
    if (!f) {
        engine_fail(err, ENGINE_EINTERNAL, "", "out of memory");
        return NULL;
    }
    f->seats = seats;
    f->fleets = engine_option_int(options, opts, "fleets");
    f->rounds = engine_option_int(options, opts, "rounds");
    f->ready = json_is_true(json_object_get(opts, "ready"));
    f->round = 1;
    return f;
}

static void *clone(const void *state)
{
    return engine_plain_clone(state, sizeof(fleets));
}

static json_t *save(const void *state)
{
    return engine_plain_save(state, fields);
}

static void *load(const json_t *saved, engine_error *err)
{
    fleets f = {0};
    if (engine_plain_load(&f, saved, fields, err) != 0)
        return NULL;
    if (f.round > f.rounds + 1) {
        engine_fail(err, ENGINE_EINTERNAL, "state", "corrupt fleets state");
        return NULL;
    }
    return clone(&f);
}

static int is_current(const fleets *f, const char *window)
{
    char id[ENGINE_WINDOW_ID_MAX];
    snprintf(id, sizeof id, "r%d", f->round);
    return !is_over(f) && strcmp(id, window) == 0;
}

static int windows(const void *state, engine_window *out, int max)
{
    const fleets *f = state;
    if (is_over(f))
        return 0;
    if (max >= 1) {
        memset(&out[0], 0, sizeof out[0]);
        snprintf(out[0].id, sizeof out[0].id, "r%d", f->round);
        out[0].mode = ENGINE_SEALED;
        out[0].seats = (1u << f->seats) - 1;
        out[0].parts = 1;
        out[0].ready_part = f->ready;
    }
    return 1;
}

/* The fleet index of a part key "f<k>", or -1. */
static int fleet_of(const fleets *f, const char *key)
{
    if (key[0] != 'f' || key[1] < '0' || key[1] > '9' || key[2])
        return -1;
    int k = key[1] - '0';
    return k < f->fleets ? k : -1;
}

/* One part: {"to": 0..99, "note": string}. */
static int check_part(const char *key, const json_t *part, engine_error *err)
{
    const char *k;
    json_t *v;
    if (!json_is_object(part))
        return engine_fail(err, ENGINE_EINVALID, key,
                           "%s must be {\"to\": 0..99, \"note\"?}", key);
    json_object_foreach((json_t *)part, k, v)
    {
        if (strcmp(k, "to") == 0) {
            if (!json_is_integer(v) || json_integer_value(v) < 0 ||
                json_integer_value(v) >= SECTORS)
                return engine_fail(err, ENGINE_EINVALID, key,
                                   "%s.to must be a sector from 0 to 99", key);
        } else if (strcmp(k, "note") != 0 || !json_is_string(v)) {
            return engine_fail(err, ENGINE_EINVALID, key,
                               "%s: a fleet's order is {\"to\", \"note\"?}",
                               key);
        }
    }
    if (!json_object_get(part, "to"))
        return engine_fail(err, ENGINE_EINVALID, key, "%s.to is required", key);
    return 0;
}

/* Any set of the seat's fleets, each with a valid part, is an order. */
static int check_order(const void *state, int seat, const char *window,
                       const json_t *order, engine_error *err)
{
    const fleets *f = state;
    const char *key;
    json_t *part;
    if (!is_current(f, window) || seat < 0 || seat >= f->seats)
        return engine_fail(err, ENGINE_ECONFLICT, "window",
                           "window \"%s\" is not open", window);
    json_object_foreach((json_t *)order, key, part)
    {
        if (fleet_of(f, key) < 0)
            return engine_fail(err, ENGINE_EINVALID, key,
                               "\"%.40s\" is not one of your fleets (f0 to "
                               "f%d)",
                               key, f->fleets - 1);
        if (check_part(key, part, err) != 0)
            return err->code;
    }
    return 0;
}

static json_t *default_order(const void *state, int seat, const char *window,
                             engine_rng *rng)
{
    (void)state, (void)seat, (void)window, (void)rng;
    return json_object(); /* every fleet holds */
}

/* The reveal shows where each fleet goes; the notes stay secret. */
static json_t *public_order(const void *state, int seat, const char *window,
                            const json_t *order)
{
    (void)state, (void)seat, (void)window;
    json_t *out = json_object();
    const char *key;
    json_t *part;
    json_object_foreach((json_t *)order, key, part)
        json_object_set(out, key, json_object_get(part, "to"));
    return out;
}

static json_t *positions(const fleets *f)
{
    json_t *all = json_array();
    for (int s = 0; s < f->seats; s++) {
        json_t *row = json_array();
        for (int k = 0; k < f->fleets; k++)
            json_array_append_new(row, json_integer(f->pos[s][k]));
        json_array_append_new(all, row);
    }
    return all;
}

static int resolve(void *state, engine_ctx *ctx, const char *window,
                   const json_t *const *orders, engine_error *err)
{
    fleets *f = state;
    if (!is_current(f, window))
        return engine_fail(err, ENGINE_ECONFLICT, "window",
                           "window \"%s\" is not open", window);
    for (int s = 0; s < f->seats; s++) {
        const char *key;
        json_t *part;
        json_object_foreach((json_t *)orders[s], key, part)
        {
            int k = fleet_of(f, key);
            if (k >= 0)
                f->pos[s][k] =
                    (int)json_integer_value(json_object_get(part, "to"));
        }
    }
    engine_ctx_log(ctx, json_pack("{s:s, s:i, s:o}", "type", "moved", "round",
                                  f->round, "positions", positions(f)));
    f->round++;
    return 0;
}

static json_t *view(const void *state, int seat)
{
    const fleets *f = state;
    (void)seat; /* nothing is hidden but the held orders, the core's */
    return json_pack("{s:i, s:o, s:i, s:o}", "rounds", f->rounds, "round",
                     is_over(f) ? json_null() : json_integer(f->round),
                     "fleets", f->fleets, "positions", positions(f));
}

static json_t *legal(const void *state, int seat, const char *window)
{
    const fleets *f = state;
    if (!is_current(f, window) || seat < 0 || seat >= f->seats)
        return NULL;
    return json_pack(
        "{s:s, s:{s:s, s:{s:s}, s:{s:s, s:{s:{s:s, s:i, s:i}, s:{s:s}}, "
        "s:[s], s:b}}, s:n}",
        "kind", "order", "shape", "type", "object", "propertyNames", "pattern",
        "^f[0-7]$", "additionalProperties", "type", "object", "properties",
        "to", "type", "integer", "minimum", 0, "maximum", SECTORS - 1, "note",
        "type", "string", "required", "to", "additionalProperties", 0,
        "choices");
}

/* Move each fleet somewhere at random, or let it hold. */
static json_t *bot(const void *state, int seat, const char *window,
                   const char *level, engine_rng *rng)
{
    const fleets *f = state;
    if (!is_current(f, window) || seat < 0 || seat >= f->seats ||
        strcmp(level, "random") != 0)
        return NULL;
    json_t *order = json_object();
    for (int k = 0; k < f->fleets; k++) {
        if (engine_rng_below(rng, 2) == 0)
            continue;
        char key[16];
        snprintf(key, sizeof key, "f%d", k);
        json_object_set_new(
            order, key,
            json_pack("{s:i}", "to", (int)engine_rng_below(rng, SECTORS)));
    }
    return order;
}

static json_t *result(const void *state)
{
    const fleets *f = state;
    if (!is_over(f))
        return NULL;
    int total[ENGINE_MAX_SEATS] = {0}, best = -1;
    for (int s = 0; s < f->seats; s++) {
        for (int k = 0; k < f->fleets; k++)
            total[s] += f->pos[s][k];
        if (total[s] > best)
            best = total[s];
    }
    json_t *winners = json_array(), *scores = json_array();
    for (int s = 0; s < f->seats; s++) {
        if (total[s] == best)
            json_array_append_new(winners, json_integer(s));
        json_array_append_new(scores, json_integer(total[s]));
    }
    return json_pack("{s:o, s:o}", "winners", winners, "scores", scores);
}

const engine_ruleset fleets_example_ruleset = {
    .id = "fleets_example",
    .title = "Fleets (test example)",
    .summary = "A test-only example of sealed orders given in parts.",
    .min_seats = 2,
    .max_seats = 4,
    .options = options,
    .setup = setup,
    .destroy = free,
    .clone = clone,
    .save = save,
    .load = load,
    .windows = windows,
    .check_order = check_order,
    .default_order = default_order,
    .public_order = public_order,
    .resolve = resolve,
    .view = view,
    .legal = legal,
    .bot = bot,
    .is_over = is_over,
    .result = result,
    .max_order_bytes = 256 * 1024,
};

/*
 * pile.c - "Last Stone" (ours), the example ruleset that
 * tests/integration/plugin_path.test.mjs adds to a scratch copy of the tree
 * through the plug-in path of docs/ruleset-authoring.md alone: this folder,
 * one line in engine/rulesets.def, the web table and its registry
 * line, the canary file and a unit test. It is not part of the build here.
 *
 * 2-4 seats take stones from one pile in turn, seat 0 first; whoever takes
 * the last stone wins. Option "stones" (5..40, default 15). Each turn opens
 * one window "t<N>" (N counts turns from 1) in which the seat to move plays
 * {"take": 1..3}, at most what is left. A timeout takes one stone for the
 * seat. Nothing is hidden and there is no chance.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/ruleset.h"

typedef struct pile {
    int seats;
    int left;   /* stones left */
    int turn;   /* turns played; the seat to move is turn % seats */
    int winner; /* -1 while the game runs */
} pile;

static const engine_option options[] = {
    {.name = "stones",
     .kind = ENGINE_OPTION_INT,
     .title = "stones in the pile",
     .min = 5,
     .max = 40,
     .def = 15},
    {0},
};

static const engine_field fields[] = {
    {.name = "seats",
     .kind = ENGINE_FIELD_INT,
     .offset = offsetof(pile, seats),
     .min = 2,
     .max = 4},
    {.name = "left",
     .kind = ENGINE_FIELD_INT,
     .offset = offsetof(pile, left),
     .max = 40},
    {.name = "turn",
     .kind = ENGINE_FIELD_INT,
     .offset = offsetof(pile, turn),
     .max = 40},
    {.name = "winner",
     .kind = ENGINE_FIELD_SEAT,
     .offset = offsetof(pile, winner),
     .max = 3},
    {0},
};

static int is_over(const void *state)
{
    return ((const pile *)state)->winner >= 0;
}

static int to_move(const pile *p)
{
    return p->turn % p->seats;
}

static void *setup(engine_ctx *ctx, const json_t *opts, int seats,
                   engine_error *err)
{
    (void)ctx;
    pile *p = malloc(sizeof *p);
    if (!p) {
        engine_fail(err, ENGINE_EINTERNAL, "", "out of memory");
        return NULL;
    }
    p->seats = seats;
    p->left = engine_option_int(options, opts, "stones");
    p->turn = 0;
    p->winner = -1;
    return p;
}

static void *clone(const void *state)
{
    return engine_plain_clone(state, sizeof(pile));
}

static json_t *save(const void *state)
{
    return engine_plain_save(state, fields);
}

static void *load(const json_t *saved, engine_error *err)
{
    pile p = {0};
    if (engine_plain_load(&p, saved, fields, err) != 0)
        return NULL;
    if (p.winner >= p.seats || (p.winner >= 0) != (p.left == 0)) {
        engine_fail(err, ENGINE_EINTERNAL, "state", "saved pile is corrupt");
        return NULL;
    }
    return clone(&p);
}

static void window_id(const pile *p, char id[ENGINE_WINDOW_ID_MAX])
{
    snprintf(id, ENGINE_WINDOW_ID_MAX, "t%d", p->turn + 1);
}

static int windows(const void *state, engine_window *out, int max)
{
    const pile *p = state;
    if (is_over(p))
        return 0;
    if (max >= 1) {
        window_id(p, out[0].id);
        out[0].mode = ENGINE_OPEN;
        out[0].seats = 1u << to_move(p);
        out[0].submitted = 0;
    }
    return 1;
}

static int is_current(const pile *p, const char *window)
{
    char id[ENGINE_WINDOW_ID_MAX];
    if (is_over(p))
        return 0;
    window_id(p, id);
    return strcmp(id, window) == 0;
}

static int most(const pile *p)
{
    return p->left < 3 ? p->left : 3;
}

static void take(pile *p, engine_ctx *ctx, int seat, int n)
{
    p->left -= n;
    p->turn++;
    if (p->left == 0)
        p->winner = seat;
    engine_ctx_log(ctx, json_pack("{s:s, s:i, s:i, s:i}", "type", "take",
                                  "seat", seat, "stones", n, "left", p->left));
}

static int play(void *state, engine_ctx *ctx, int seat, const char *window,
                const json_t *payload, engine_error *err)
{
    pile *p = state;
    const char *key;
    json_t *val;
    if (!is_current(p, window) || seat != to_move(p))
        return engine_fail(err, ENGINE_ECONFLICT, "",
                           "it is not seat %d's turn", seat);
    json_object_foreach((json_t *)payload, key, val)
    {
        if (strcmp(key, "take") != 0)
            return engine_fail(err, ENGINE_EINVALID, key,
                               "unknown field \"%.40s\"; a play is "
                               "{\"take\": 1..3}",
                               key);
    }
    const json_t *n = json_object_get(payload, "take");
    json_int_t k = json_is_integer(n) ? json_integer_value(n) : 0;
    if (k < 1 || k > most(p))
        return engine_fail(err, ENGINE_EINVALID, "take", "take 1 to %d stones",
                           most(p));
    take(p, ctx, seat, (int)k);
    return 0;
}

static int timeout(void *state, engine_ctx *ctx, const char *window,
                   engine_error *err)
{
    pile *p = state;
    if (!is_current(p, window))
        return engine_fail(err, ENGINE_ECONFLICT, "window",
                           "window \"%s\" is not open", window);
    take(p, ctx, to_move(p), 1);
    return 0;
}

static json_t *seat_or_null(int seat)
{
    return seat >= 0 ? json_integer(seat) : json_null();
}

static json_t *view(const void *state, int seat)
{
    const pile *p = state;
    (void)seat;
    return json_pack("{s:i, s:o, s:o}", "left", p->left, "turn",
                     seat_or_null(is_over(p) ? -1 : to_move(p)), "winner",
                     seat_or_null(p->winner));
}

static json_t *legal(const void *state, int seat, const char *window)
{
    const pile *p = state;
    if (!is_current(p, window) || seat != to_move(p))
        return NULL;
    json_t *choices = json_array();
    for (int k = 1; k <= most(p); k++)
        json_array_append_new(choices, json_pack("{s:i}", "take", k));
    return json_pack("{s:s, s:{s:s, s:[s], s:{s:{s:s, s:i, s:i}}, s:b}, s:o}",
                     "kind", "play", "shape", "type", "object", "required",
                     "take", "properties", "take", "type", "integer", "minimum",
                     1, "maximum", most(p), "additionalProperties", 0,
                     "choices", choices);
}

static json_t *bot(const void *state, int seat, const char *window,
                   const char *level, engine_rng *rng)
{
    const pile *p = state;
    if (!is_current(p, window) || seat != to_move(p) ||
        strcmp(level, "random") != 0)
        return NULL;
    int k = 1 + (int)engine_rng_below(rng, (uint32_t)most(p));
    return json_pack("{s:i}", "take", k);
}

static json_t *result(const void *state)
{
    const pile *p = state;
    if (!is_over(p))
        return NULL;
    return json_pack("{s:[i], s:b}", "winners", p->winner, "draw", 0);
}

const engine_ruleset pile_ruleset = {
    .id = "pile",
    .title = "Last Stone",
    .summary = "Take one to three stones in turn; the last stone wins.",
    .min_seats = 2,
    .max_seats = 4,
    .options = options,
    .setup = setup,
    .destroy = free,
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

/*
 * skirmish.c - the Skirmish ruleset table: a duel of two squads on a 5x6
 * field with sealed muster and deployment and a turn of choice and
 * execution subphases on the core's priority steps and stack
 * (docs/games/skirmish.md). The work is in the other skirmish_*.c files:
 * state and save/load, muster and deployment, movement, combat, the
 * abilities interpreter, the turn, the views and the bots.
 */
#include <stdlib.h>

#include "engine/rules/skirmish/skirmish_internal.h"

static int sk_init(engine_error *err)
{
    return skirmish_cards_init(err);
}

static void sk_destroy(void *state)
{
    free(state);
}

static int sk_play(void *state, engine_ctx *ctx, int seat, const char *window,
                   const json_t *play, engine_error *err)
{
    (void)state, (void)ctx, (void)seat, (void)window, (void)play;
    return engine_fail(err, ENGINE_ECONFLICT, "window", "no such window");
}

static const engine_bot_level bot_levels[] = {
    {"basic", "Basic"}, {"random", "Random"}, {NULL, NULL}};

/* Everything in the state is public (squads and squares are held by the
 * core until their reveal), so a twin is a clone. */
static void *sk_twin(const void *state, int seat, engine_rng *rng)
{
    (void)seat;
    (void)rng;
    return sk_clone(state);
}

int sk_window_label(const char *window, char *out, size_t n); /* labels.c */
const engine_ruleset skirmish_ruleset = {
    .id = "skirmish",
    .title = "Skirmish",
    .summary = "Two squads of creatures duel on a small field: muster and "
               "deploy in secret, then declare moves and attacks, answer "
               "with sudden abilities, and resolve everything on a stack.",
    .min_seats = 2,
    .max_seats = 2,
    .options = sk_options,
    .new_game_options = "{\"edition\":" SK_EDITION_CURRENT_TEXT "}",
    .init = sk_init,
    .setup = sk_setup,
    .destroy = sk_destroy,
    .clone = sk_clone,
    .twin = sk_twin,
    .save = sk_save,
    .load = sk_load,
    .windows = sk_windows,
    .window_label = sk_window_label,
    .check_order = sk_check_order,
    .default_order = sk_default_order,
    .resolve = sk_resolve,
    .play = sk_play,
    .view = sk_view,
    .legal = sk_legal,
    .bot = sk_bot,
    .is_over = sk_is_over,
    .result = sk_result,
    .priority_play = sk_priority_play,
    .priority_resolve = sk_priority_resolve,
    .priority_end = sk_priority_end,
    .priority_legal = sk_priority_legal,
    .priority_bot = sk_priority_bot,
    .bot_levels = bot_levels,
};

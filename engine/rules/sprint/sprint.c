/*
 * sprint.c - Galactic Sprint's engine_ruleset table: options, setup,
 * clone/save/load, windows, order checking and resolution, and the glue to
 * the views (sprint_view.c), bots (sprint_bot.c) and rules (sprint_rules.c).
 *
 * Windows, one at a time: "rN.place" (sealed, every seat: the placement and
 * its payment), "rN.explore" (sealed, the seats that explored: their
 * discards), "rN.limit" (sealed, seats over 10 cards after income).
 */
#include "engine/rules/sprint/sprint_internal.h"

#include <stdlib.h>
#include <string.h>

static const char *const condition_ids[] = {"magnate", "warlord", "tycoon",
                                            "pathfinder", NULL};

/* The options' types and ranges; the rules on seats are in sp_check_options
 * and stated in the titles. */
static const engine_option sprint_options[] = {
    {.name = "solitaire",
     .kind = ENGINE_OPTION_BOOL,
     .title = "solitaire rules (7 rounds, imaginary rival); implied by, and "
              "only allowed with, one seat"},
    {.name = "target_vp",
     .kind = ENGINE_OPTION_INT,
     .title = "VP chips that end the game (solitaire: that win it)",
     .min = 20,
     .max = 100,
     .def = 50},
    {.name = "edition",
     .kind = ENGINE_OPTION_INT,
     .title = "rules edition: 2 scores each rival card against the opponent "
              "that gives it the most VP; 1 (games made before edition 2) "
              "counts one rival named in the placement order",
     .min = SPRINT_EDITION_NAMED_RIVAL,
     .max = SPRINT_EDITION_CURRENT,
     /* what a new game gets (new_game_options); absent, in a game stored
      * before editions, it means 1 (read_options) */
     .def = SPRINT_EDITION_CURRENT},
    {.name = "campaign_conditions_met",
     .kind = ENGINE_OPTION_NAMES,
     .title = "solitaire campaign: conditions met in earlier games; makes "
              "this a campaign game; only with one seat",
     .max = 3,
     .choices = condition_ids},
    {0},
};

typedef struct opts {
    int solo, target, campaign, edition;
    unsigned met;
} opts;

/* Options the table accepted, read into o. */
static void read_options(const json_t *o, int seats, opts *out)
{
    const json_t *met = json_object_get(o, "campaign_conditions_met");
    memset(out, 0, sizeof *out);
    out->target = engine_option_int(sprint_options, o, "target_vp");
    out->edition = json_object_get(o, "edition")
                       ? engine_option_int(sprint_options, o, "edition")
                       : SPRINT_EDITION_NAMED_RIVAL; /* stored before */
    out->solo = seats == 1;
    out->campaign = met != NULL;
    for (size_t i = 0; i < json_array_size(met); i++)
        out->met |=
            sprint_condition_bit(json_string_value(json_array_get(met, i)));
}

/* What the table cannot say: solitaire is exactly one seat, and a campaign
 * is solitaire only. */
static int sp_check_options(const json_t *o, int seats, engine_error *err)
{
    const json_t *solo = json_object_get(o, "solitaire");
    if (solo && json_is_true(solo) != (seats == 1))
        return engine_fail(err, ENGINE_EINVALID, "solitaire",
                           seats == 1 ? "solitaire: one seat is always "
                                        "a solitaire game"
                                      : "solitaire needs exactly one "
                                        "seat, got %d",
                           seats);
    if (json_object_get(o, "campaign_conditions_met") && seats != 1)
        return engine_fail(err, ENGINE_EINVALID, "campaign_conditions_met",
                           "campaign_conditions_met is only for "
                           "solitaire (one seat)");
    return 0;
}

static int sp_init(engine_error *err)
{
    return sprint_cards_init(err);
}

static void *sp_setup(engine_ctx *ctx, const json_t *options, int seats,
                      engine_error *err)
{
    opts o;
    /* engine_init should have run; loading here keeps a forgetful caller
     * working (single-threaded start-up is still the caller's duty). The
     * core has checked the options. */
    if (sprint_cards_init(err))
        return NULL;
    read_options(options, seats, &o);
    sprint_state *s = malloc(sizeof *s);
    if (!s) {
        engine_fail(err, ENGINE_EINTERNAL, "", "out of memory");
        return NULL;
    }
    sprint_io io = {engine_ctx_rng(ctx), ctx};
    sprint_state_init(s, sprint_cards(), seats, o.solo, o.target, o.met,
                      o.campaign, &io);
    s->edition = (uint8_t)o.edition;
    return s;
}

/* sprint_state is plain data (card ids, counters; no pointers). */
static void *sp_clone(const void *state)
{
    return engine_plain_clone(state, sizeof(sprint_state));
}

static json_t *sp_save(const void *state)
{
    return sprint_state_save(state);
}

static void *sp_load(const json_t *saved, engine_error *err)
{
    if (sprint_cards_init(err))
        return NULL;
    sprint_state *s = malloc(sizeof *s);
    if (!s) {
        engine_fail(err, ENGINE_EINTERNAL, "", "out of memory");
        return NULL;
    }
    if (sprint_state_load(s, saved, err)) {
        free(s);
        return NULL;
    }
    return s;
}

static int sp_windows(const void *state, engine_window *out, int max)
{
    const sprint_state *s = state;
    char id[ENGINE_WINDOW_ID_MAX];
    if (sprint_window_id(s, id, sizeof id) < 0)
        return 0;
    if (max > 0) {
        memset(&out[0], 0, sizeof out[0]);
        memcpy(out[0].id, id, strlen(id) + 1);
        out[0].mode = ENGINE_SEALED;
        out[0].seats = sprint_window_seats(s);
    }
    return 1;
}

/* Is window the open one, and does seat act in it? */
static int window_ok(const sprint_state *s, int seat, const char *window,
                     engine_error *err)
{
    char id[ENGINE_WINDOW_ID_MAX];
    if (s->over)
        return engine_fail(err, ENGINE_EOVER, "window", "the game is over");
    if (sprint_window_id(s, id, sizeof id) < 0 || !window ||
        strcmp(id, window) != 0)
        return engine_fail(err, ENGINE_ECONFLICT, "window",
                           "window %s is not open (open: %s)",
                           window ? window : "(none)", id);
    if (seat < 0 || seat >= s->seats || !(sprint_window_seats(s) >> seat & 1))
        return engine_fail(err, ENGINE_EFORBIDDEN, "window",
                           "seat %d does not act in window %s", seat, window);
    return 0;
}

static int sp_check_order(const void *state, int seat, const char *window,
                          const json_t *order, engine_error *err)
{
    const sprint_state *s = state;
    int rc = window_ok(s, seat, window, err);
    if (rc)
        return rc;
    if (s->phase == SPRINT_PHASE_PLACE) {
        sprint_plan p;
        return sprint_plan_parse(s, seat, order, &p, err);
    }
    uint8_t ids[SPRINT_MAX_CARDS];
    int n;
    return sprint_discard_parse(s, seat, order, ids, &n, err);
}

/* Needs no chance: rng is unused. */
static json_t *sp_default_order(const void *state, int seat, const char *window,
                                engine_rng *rng)
{
    (void)rng;
    const sprint_state *s = state;
    if (window_ok(s, seat, window, NULL))
        return NULL;
    if (s->phase == SPRINT_PHASE_PLACE)
        return json_pack("{s:s}", "action", "explore");
    /* Keep the first cards: discard the most recently drawn. */
    const sprint_player *p = &s->p[seat];
    json_t *d = json_array();
    for (int i = p->nhand - p->must_discard; i < p->nhand; i++)
        json_array_append_new(d, json_integer(p->hand[i]));
    return json_pack("{s:o}", "discard", d);
}

static json_t *sp_public_order(const void *state, int seat, const char *window,
                               const json_t *order)
{
    const sprint_state *s = state;
    (void)seat;
    (void)window;
    if (s->phase != SPRINT_PHASE_PLACE) {
        const json_t *d = json_object_get(order, "discard");
        return json_pack("{s:i}", "discarded", (int)json_array_size(d));
    }
    /* What was placed is public; which cards paid for it is not. */
    json_t *out = json_object();
    static const char *const keep[] = {
        "action",       "development", "survey", "world", "world_mode",
        "convoy_world", "convoy_mode", "rival",  NULL};
    for (int i = 0; keep[i]; i++) {
        json_t *v = json_object_get(order, keep[i]);
        if (v)
            json_object_set(out, keep[i], v);
    }
    json_object_set_new(out, "paid",
                        json_integer((json_int_t)json_array_size(
                            json_object_get(order, "pay"))));
    return out;
}

static int sp_resolve(void *state, engine_ctx *ctx, const char *window,
                      const json_t *const *orders, engine_error *err)
{
    sprint_state *s = state;
    char id[ENGINE_WINDOW_ID_MAX];
    if (s->over)
        return engine_fail(err, ENGINE_EOVER, "window", "the game is over");
    if (sprint_window_id(s, id, sizeof id) < 0 || strcmp(id, window) != 0)
        return engine_fail(err, ENGINE_ECONFLICT, "window",
                           "window %s is not open", window);
    sprint_io io = {engine_ctx_rng(ctx), ctx};
    uint32_t acting = sprint_window_seats(s);
    /* Validate every order first; mutate only when all are good. A missing
     * order (should not happen) gets the timeout default. */
    if (s->phase == SPRINT_PHASE_PLACE) {
        sprint_plan plans[SPRINT_MAX_SEATS];
        for (int i = 0; i < s->seats; i++) {
            json_t *def = NULL;
            const json_t *o = orders ? orders[i] : NULL;
            if (!o)
                o = def = json_pack("{s:s}", "action", "explore");
            int rc = sprint_plan_parse(s, i, o, &plans[i], err);
            json_decref(def);
            if (rc)
                return rc;
        }
        sprint_resolve_place(s, plans, &io);
        return 0;
    }
    uint8_t ids[SPRINT_MAX_SEATS][SPRINT_MAX_CARDS];
    int counts[SPRINT_MAX_SEATS] = {0};
    for (int i = 0; i < s->seats; i++) {
        if (!(acting >> i & 1))
            continue;
        json_t *def = NULL;
        const json_t *o = orders ? orders[i] : NULL;
        if (!o)
            o = def = sp_default_order(s, i, window, NULL);
        int rc = sprint_discard_parse(s, i, o, ids[i], &counts[i], err);
        json_decref(def);
        if (rc)
            return rc;
    }
    sprint_resolve_discards(s, ids, counts, &io);
    return 0;
}

static json_t *sp_view(const void *state, int seat)
{
    return sprint_view_json(state, seat);
}

static json_t *sp_legal(const void *state, int seat, const char *window)
{
    return sprint_legal_json(state, seat, window);
}

static json_t *sp_bot(const void *state, int seat, const char *window,
                      const char *level, engine_rng *rng)
{
    const sprint_state *s = state;
    if (window_ok(s, seat, window, NULL))
        return NULL;
    return sprint_bot_order(s, seat, level, rng);
}

static int sp_is_over(const void *state)
{
    return ((const sprint_state *)state)->over;
}

static json_t *sp_result(const void *state)
{
    return sprint_result_json(state);
}

static const engine_bot_level bot_levels[] = {
    {"basic", "Basic"}, {"random", "Random"}, {NULL, NULL}};

int sprint_window_label(const char *window, char *out, size_t n); /* labels.c */
const engine_ruleset sprint_ruleset = {
    .id = "sprint",
    .title = "Galactic Sprint",
    .summary = "A fast empire-building card game: every round all players "
               "secretly choose to develop, settle or explore, reveal "
               "together and pay by discarding; first to 50 VP ends it. "
               "1-4 players, with solitaire and a 4-game campaign.",
    .min_seats = 1,
    .max_seats = SPRINT_MAX_SEATS,
    .options = sprint_options,
    .new_game_options = "{\"edition\":" SPRINT_EDITION_CURRENT_TEXT "}",
    .init = sp_init,
    .check_options = sp_check_options,
    .setup = sp_setup,
    .destroy = free,
    .clone = sp_clone,
    .save = sp_save,
    .load = sp_load,
    .windows = sp_windows,
    .window_label = sprint_window_label,
    .check_order = sp_check_order,
    .default_order = sp_default_order,
    .public_order = sp_public_order,
    .resolve = sp_resolve,
    .play = NULL,
    .timeout = NULL,
    .view = sp_view,
    .legal = sp_legal,
    .bot = sp_bot,
    .is_over = sp_is_over,
    .result = sp_result,
    .twin = sprint_twin,
    .bot_levels = bot_levels,
    .record_key = "campaign",
    .record = sprint_campaign_record,
    .record_choose = sprint_campaign_choose,
};

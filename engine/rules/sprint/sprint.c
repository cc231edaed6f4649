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

static const char options_schema[] =
    "{\"type\":\"object\",\"additionalProperties\":false,\"properties\":{"
    "\"solitaire\":{\"type\":\"boolean\",\"description\":\"solitaire rules "
    "(7 rounds, imaginary rival); implied by, and only allowed with, one "
    "seat\"},"
    "\"target_vp\":{\"type\":\"integer\",\"minimum\":20,\"maximum\":100,"
    "\"default\":50,\"description\":\"VP chips that end the game (solitaire: "
    "that win it)\"},"
    "\"campaign_conditions_met\":{\"type\":\"array\",\"uniqueItems\":true,"
    "\"maxItems\":3,\"items\":{\"enum\":[\"magnate\",\"warlord\",\"tycoon\","
    "\"pathfinder\"]},\"description\":\"solitaire campaign: conditions met in "
    "earlier games; makes this a campaign game\"}}}";

typedef struct opts {
    int solo, target, campaign;
    unsigned met;
} opts;

static int parse_options(const json_t *o, int seats, opts *out,
                         engine_error *err)
{
    memset(out, 0, sizeof *out);
    out->target = 50;
    out->solo = seats == 1;
    if (seats < 1 || seats > SPRINT_MAX_SEATS)
        return engine_fail(err, ENGINE_EINVALID, "seats",
                           "Galactic Sprint takes 1 to %d seats, got %d",
                           SPRINT_MAX_SEATS, seats);
    if (!o || json_is_null(o))
        return 0;
    if (!json_is_object(o))
        return engine_fail(err, ENGINE_EINVALID, "",
                           "options must be an "
                           "object");
    const char *k;
    const json_t *v;
    json_object_foreach((json_t *)o, k, v)
    {
        if (strcmp(k, "solitaire") == 0) {
            if (!json_is_boolean(v))
                return engine_fail(err, ENGINE_EINVALID, k,
                                   "solitaire must be true or false");
            if (json_is_true(v) != (seats == 1))
                return engine_fail(err, ENGINE_EINVALID, k,
                                   seats == 1 ? "solitaire: one seat is always "
                                                "a solitaire game"
                                              : "solitaire needs exactly one "
                                                "seat, got %d",
                                   seats);
        } else if (strcmp(k, "target_vp") == 0) {
            if (!json_is_integer(v) || json_integer_value(v) < 20 ||
                json_integer_value(v) > 100)
                return engine_fail(err, ENGINE_EINVALID, k,
                                   "target_vp must be an integer 20..100");
            out->target = (int)json_integer_value(v);
        } else if (strcmp(k, "campaign_conditions_met") == 0) {
            if (seats != 1)
                return engine_fail(err, ENGINE_EINVALID, k,
                                   "campaign_conditions_met is only for "
                                   "solitaire (one seat)");
            if (!json_is_array(v) || json_array_size(v) > 3)
                return engine_fail(err, ENGINE_EINVALID, k,
                                   "campaign_conditions_met must be an array "
                                   "of at most 3 condition ids");
            out->campaign = 1;
            for (size_t i = 0; i < json_array_size(v); i++) {
                const char *id = json_string_value(json_array_get(v, i));
                unsigned bit = id ? sprint_condition_bit(id) : 0;
                if (!bit)
                    return engine_fail(err, ENGINE_EINVALID, k,
                                       "campaign_conditions_met[%zu] must be "
                                       "magnate, warlord, tycoon or "
                                       "pathfinder",
                                       i);
                if (out->met & bit)
                    return engine_fail(err, ENGINE_EINVALID, k,
                                       "campaign_conditions_met lists %s "
                                       "twice",
                                       id);
                out->met |= bit;
            }
        } else {
            return engine_fail(err, ENGINE_EINVALID, k, "unknown option \"%s\"",
                               k);
        }
    }
    return 0;
}

static int sp_init(engine_error *err)
{
    return sprint_cards_init(err);
}

static int sp_check_options(const json_t *options, int seats, engine_error *err)
{
    opts o;
    return parse_options(options, seats, &o, err);
}

static void *sp_setup(engine_ctx *ctx, const json_t *options, int seats,
                      engine_error *err)
{
    opts o;
    /* engine_init should have run; loading here keeps a forgetful caller
     * working (single-threaded start-up is still the caller's duty). */
    if (sprint_cards_init(err) || parse_options(options, seats, &o, err))
        return NULL;
    sprint_state *s = malloc(sizeof *s);
    if (!s) {
        engine_fail(err, ENGINE_EINTERNAL, "", "out of memory");
        return NULL;
    }
    sprint_io io = {engine_ctx_rng(ctx), ctx};
    sprint_state_init(s, sprint_cards(), seats, o.solo, o.target, o.met,
                      o.campaign, &io);
    return s;
}

static void sp_destroy(void *state)
{
    free(state);
}

static void *sp_clone(const void *state)
{
    sprint_state *s = malloc(sizeof *s);
    if (s)
        memcpy(s, state, sizeof *s);
    return s;
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

static json_t *sp_default_order(const void *state, int seat, const char *window)
{
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
            o = def = sp_default_order(s, i, window);
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

const engine_ruleset sprint_ruleset = {
    .id = "sprint",
    .title = "Galactic Sprint",
    .summary = "A fast empire-building card game: every round all players "
               "secretly choose to develop, settle or explore, reveal "
               "together and pay by discarding; first to 50 VP ends it. "
               "1-4 players, with solitaire and a 4-game campaign.",
    .min_seats = 1,
    .max_seats = SPRINT_MAX_SEATS,
    .options_schema = options_schema,
    .init = sp_init,
    .check_options = sp_check_options,
    .setup = sp_setup,
    .destroy = sp_destroy,
    .clone = sp_clone,
    .save = sp_save,
    .load = sp_load,
    .windows = sp_windows,
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
    .bot_levels = bot_levels,
    .record_key = "campaign",
    .record = sprint_campaign_record,
};

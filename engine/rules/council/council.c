/*
 * council.c - Galactic Council's engine_ruleset table: options, setup,
 * clone/save/load, windows, order checking, resolution, plays, and the
 * glue to views (council_view.c), bots (council_bot.c) and the rules.
 *
 * Windows, one at a time: "rN.picks" (sealed, every seat: a ranking of
 * the strategy cards, resolved in speaker order; the default) or, with
 * option strategy_picks 1, "rN.pickK" (open, the K-th strategy pick of
 * round N, in speaker order), "rN.action" (sealed, every seat: an object
 * of order parts keyed by fleet or system, resolved in initiative order)
 * and the council's (council_council.c): "rN.agenda" (open, the speaker
 * puts an agenda it holds), "rN.lobby" and "rN.council" (sealed, every
 * seat, in parts). With the council every round (the default) a round is
 * picks, agenda, action (with the lobby's parts, rules edition 2; edition
 * 1, a game stored before editions, has the lobby's window before it),
 * council, status; with option council_phase 1 it is picks, action, status
 * and then, once Concordia is taken, agenda, lobby, council; with 2 there
 * is no council.
 */
#include "engine/rules/council/council_internal.h"

#include <stdlib.h>
#include <string.h>

static const engine_option council_options[] = {
    {.name = "vp_target",
     .kind = ENGINE_OPTION_INT,
     .title = "victory points that end the game at a status phase",
     .min = 3,
     .max = 30,
     .def = 10},
    {.name = "last_round",
     .kind = ENGINE_OPTION_INT,
     .title = "the game ends after this round's status phase",
     .min = 1,
     .max = 40,
     .def = 12},
    {.name = "council_phase",
     .kind = ENGINE_OPTION_INT,
     .title = "the council phase: 0 every round (vote at the round's end), 1 "
              "after the status phase once Concordia's custodians are gone, "
              "2 never",
     .min = 0,
     .max = 2,
     .def = 0},
    {.name = "strategy_picks",
     .kind = ENGINE_OPTION_INT,
     .title = "the strategy phase: 0 one sealed window where every player "
              "ranks the strategy cards, resolved in speaker order (each "
              "takes its highest-ranked card still free), 1 one open window "
              "per pick, in speaker order",
     .min = 0,
     .max = 1,
     .def = 0},
    {.name = "edition",
     .kind = ENGINE_OPTION_INT,
     .title = "rules edition: 2 takes the lobby's parts (representatives, "
              "council cards, gifts, the objective pick) in the action "
              "window, so a round has one window fewer; 1 (games made "
              "before edition 2) gives the lobby a window of its own",
     .min = 1,
     .max = CNC_EDITION_CURRENT,
     .def = CNC_EDITION_CURRENT},
    {.name = "secret_votes",
     .kind = ENGINE_OPTION_BOOL,
     .title = "council votes are secret: only the outcome is revealed"},
    {.name = "fixed_map",
     .kind = ENGINE_OPTION_BOOL,
     .title = "deal the system tiles in their listed order (markers are "
              "still shuffled)"},
    {0},
};

static int cn_init(engine_error *err)
{
    return cnc_data_init(err);
}

static void *cn_setup(engine_ctx *ctx, const json_t *options, int seats,
                      engine_error *err)
{
    if (cnc_data_init(err))
        return NULL;
    cnc_state *s = malloc(sizeof *s);
    if (!s) {
        engine_fail(err, ENGINE_EINTERNAL, "", "out of memory");
        return NULL;
    }
    if (cnc_state_setup(
            s, ctx, seats,
            engine_option_int(council_options, options, "vp_target"),
            engine_option_int(council_options, options, "last_round"),
            engine_option_int(council_options, options, "fixed_map"), err)) {
        free(s);
        return NULL;
    }
    s->c.mode =
        (uint8_t)engine_option_int(council_options, options, "council_phase");
    s->c.secret_votes =
        (uint8_t)engine_option_int(council_options, options, "secret_votes");
    s->sequential_picks =
        (uint8_t)engine_option_int(council_options, options, "strategy_picks");
    /* A game stored before editions has none in its options: it plays
     * edition 1, and its state keeps a 0 there (its bytes, so its hashes,
     * are those it had before editions). */
    s->edition =
        (uint8_t)(json_object_get(options, "edition")
                      ? engine_option_int(council_options, options, "edition")
                      : 0);
    return s;
}

static void *cn_clone(const void *state)
{
    return engine_plain_clone(state, sizeof(cnc_state));
}

static json_t *cn_save(const void *state)
{
    return cnc_state_save(state);
}

static void *cn_load(const json_t *saved, engine_error *err)
{
    if (cnc_data_init(err))
        return NULL;
    cnc_state *s = malloc(sizeof *s);
    if (!s) {
        engine_fail(err, ENGINE_EINTERNAL, "", "out of memory");
        return NULL;
    }
    if (cnc_state_load(s, saved, err)) {
        free(s);
        return NULL;
    }
    return s;
}

static uint32_t window_seats(const cnc_state *s)
{
    if (cnc_ranked_open(s))
        return (1u << s->seats) - 1;
    if (s->phase == CNC_PHASE_STRATEGY)
        return 1u << cnc_picker(s);
    if (s->phase == CNC_PHASE_AGENDA)
        return 1u << s->c.speaker;
    return (1u << s->seats) - 1;
}

static int is_open(const cnc_state *s)
{
    return (s->phase == CNC_PHASE_STRATEGY && s->sequential_picks) ||
           s->phase == CNC_PHASE_AGENDA;
}

static int cn_windows(const void *state, engine_window *out, int max)
{
    const cnc_state *s = state;
    char id[ENGINE_WINDOW_ID_MAX];
    if (cnc_window_id(s, id, sizeof id) < 0)
        return 0;
    if (max > 0) {
        memset(&out[0], 0, sizeof out[0]);
        memcpy(out[0].id, id, strlen(id) + 1);
        out[0].mode = is_open(s) ? ENGINE_OPEN : ENGINE_SEALED;
        out[0].seats = window_seats(s);
        /* sealed orders come in parts (one per fleet or system, or per
         * council choice) and lock only when every seat says it is ready
         * (or at the deadline); a ranking is one whole order */
        out[0].parts = out[0].ready_part = !is_open(s) && !cnc_ranked_open(s);
    }
    return 1;
}

static int window_ok(const cnc_state *s, int seat, const char *window,
                     engine_error *err)
{
    char id[ENGINE_WINDOW_ID_MAX];
    if (s->over)
        return engine_fail(err, ENGINE_EOVER, "window", "the game is over");
    if (cnc_window_id(s, id, sizeof id) < 0 || !window ||
        strcmp(id, window) != 0)
        return engine_fail(err, ENGINE_ECONFLICT, "window",
                           "window %.40s is not open",
                           window ? window : "(none)");
    if (seat < 0 || seat >= s->seats || !(window_seats(s) >> seat & 1))
        return engine_fail(err, ENGINE_EFORBIDDEN, "window",
                           "seat %d does not act in window %s", seat, id);
    return 0;
}

/* The action window's order; with the lobby in it, its lobby parts are
 * checked as the lobby's and the rest as fleet orders. */
static int action_window_check(const cnc_state *s, int seat,
                               const json_t *order, engine_error *err)
{
    if (!cnc_lobby_in_action(s))
        return cnc_action_check(s, seat, order, err);
    json_t *lobby, *action;
    cnc_split_order(order, &lobby, &action);
    int rc = cnc_council_check(s, seat, lobby, err);
    if (rc == 0)
        rc = cnc_action_check(s, seat, action, err);
    json_decref(lobby);
    json_decref(action);
    return rc;
}

/* Edition 2's action window: the lobby resolves first (gifts, the
 * objective pick, council cards, then the representatives go and the
 * spies act), then the fleet orders, as when each had a window. */
static void resolve_lobby_and_action(cnc_state *s, engine_ctx *ctx,
                                     const json_t *const *orders)
{
    json_t *lobby[ENGINE_MAX_SEATS] = {0}, *action[ENGINE_MAX_SEATS] = {0};
    for (int p = 0; p < s->seats; p++)
        if (orders && orders[p])
            cnc_split_order(orders[p], &lobby[p], &action[p]);
    cnc_lobby_resolve(s, ctx, (const json_t *const *)lobby);
    cnc_action_resolve(s, ctx, (const json_t *const *)action);
    for (int p = 0; p < s->seats; p++) {
        json_decref(lobby[p]);
        json_decref(action[p]);
    }
}

static int cn_check_order(const void *state, int seat, const char *window,
                          const json_t *order, engine_error *err)
{
    const cnc_state *s = state;
    int rc = window_ok(s, seat, window, err);
    if (rc)
        return rc;
    if (is_open(s))
        return engine_fail(err, ENGINE_ECONFLICT, "window",
                           "strategy picks and agendas are plays, not orders");
    if (cnc_ranked_open(s))
        return cnc_ranking_check(order, err);
    if (s->phase != CNC_PHASE_ACTION)
        return cnc_council_check(s, seat, order, err);
    return action_window_check(s, seat, order, err);
}

/* No orders: the fleets hold; no ranking: the default order (the lowest
 * initiative left, as a sequential pick that times out). Needs no
 * chance. */
static json_t *cn_default_order(const void *state, int seat, const char *window,
                                engine_rng *rng)
{
    (void)rng;
    if (window_ok(state, seat, window, NULL))
        return NULL;
    return json_object();
}

/* Orders stay secret after the lock: everyone learns only how many parts
 * a seat gave; of a ranking, nothing (the picks it made are logged). */
static json_t *cn_public_order(const void *state, int seat, const char *window,
                               const json_t *order)
{
    (void)state;
    (void)seat;
    if (window && strstr(window, ".picks"))
        return json_object();
    return json_pack("{s:i}", "parts", (int)json_object_size(order));
}

static int cn_resolve(void *state, engine_ctx *ctx, const char *window,
                      const json_t *const *orders, engine_error *err)
{
    cnc_state *s = state;
    char id[ENGINE_WINDOW_ID_MAX];
    if (s->over)
        return engine_fail(err, ENGINE_EOVER, "window", "the game is over");
    if (cnc_window_id(s, id, sizeof id) < 0 || strcmp(id, window) != 0 ||
        is_open(s))
        return engine_fail(err, ENGINE_ECONFLICT, "window",
                           "window %.40s is not open", window);
    if (cnc_ranked_open(s)) {
        for (int p = 0; p < s->seats; p++) {
            int rc =
                orders && orders[p] ? cnc_ranking_check(orders[p], err) : 0;
            if (rc)
                return rc;
        }
        cnc_ranked_resolve(s, ctx, orders);
        return 0;
    }
    int action = s->phase == CNC_PHASE_ACTION;
    for (int p = 0; p < s->seats; p++) {
        int rc = !orders || !orders[p] ? 0
                 : action ? action_window_check(s, p, orders[p], err)
                          : cnc_council_check(s, p, orders[p], err);
        if (rc)
            return rc;
    }
    if (action && cnc_lobby_in_action(s))
        resolve_lobby_and_action(s, ctx, orders);
    else if (action)
        cnc_action_resolve(s, ctx, orders);
    else if (s->phase == CNC_PHASE_LOBBY)
        cnc_lobby_resolve(s, ctx, orders);
    else
        cnc_council_resolve(s, ctx, orders);
    return 0;
}

static int card_of(const json_t *play)
{
    const char *k = json_string_value(json_object_get(play, "card"));
    return k ? cnc_strategy_index(cnc_data_get(), k) : -1;
}

static int held_key(const cnc_state *s, int seat, const json_t *v)
{
    const cnc_data *d = cnc_data_get();
    const char *k = json_string_value(v);
    for (int a = 0; k && a < d->nagendas; a++)
        if (strcmp(d->agendas[a].key, k) == 0 && s->c.held[seat][a])
            return a;
    return -1;
}

/* The speaker puts an agenda it holds and may keep one other for a later
 * council: {"agenda": key, "keep": key}. */
static int play_agenda(cnc_state *s, engine_ctx *ctx, int seat,
                       const json_t *play, engine_error *err)
{
    int a = held_key(s, seat, json_object_get(play, "agenda"));
    const json_t *kv = json_object_get(play, "keep");
    int keep = kv ? held_key(s, seat, kv) : -1;
    if (a < 0 || json_object_size(play) != 1u + (kv != NULL))
        return engine_fail(err, ENGINE_EINVALID, "agenda",
                           "a choice is {\"agenda\": key} of an agenda you "
                           "hold, with \"keep\": key of another to keep");
    if (kv && (keep < 0 || keep == a))
        return engine_fail(err, ENGINE_EINVALID, "keep",
                           "keep must name another agenda you hold");
    cnc_council_choose(s, ctx, seat, a, keep);
    return 0;
}

static int cn_play(void *state, engine_ctx *ctx, int seat, const char *window,
                   const json_t *play, engine_error *err)
{
    cnc_state *s = state;
    int rc = window_ok(s, seat, window, err);
    if (rc)
        return rc;
    if (s->phase == CNC_PHASE_AGENDA)
        return play_agenda(s, ctx, seat, play, err);
    if (s->phase != CNC_PHASE_STRATEGY || cnc_ranked_open(s))
        return engine_fail(err, ENGINE_ECONFLICT, "window",
                           "this window takes sealed orders");
    if (json_object_size(play) != 1)
        return engine_fail(err, ENGINE_EINVALID, "card",
                           "a pick is {\"card\": key}");
    int c = card_of(play);
    if (c < 0 || s->strat_owner[c] >= 0)
        return engine_fail(err, ENGINE_EINVALID, "card",
                           "card must be a strategy card still in the common "
                           "area");
    cnc_pick_card(s, ctx, seat, c);
    return 0;
}

/* The clock ran out on a pick: the lowest initiative left; on the
 * agenda: the first agenda the speaker holds. */
static int cn_timeout(void *state, engine_ctx *ctx, const char *window,
                      engine_error *err)
{
    cnc_state *s = state;
    int seat = s->phase == CNC_PHASE_STRATEGY ? cnc_picker(s)
               : s->phase == CNC_PHASE_AGENDA ? s->c.speaker
                                              : -1;
    int rc = window_ok(s, seat, window, err);
    if (rc)
        return rc;
    for (int a = 0; s->phase == CNC_PHASE_AGENDA && a < CNC_MAX_AGENDAS; a++)
        if (s->c.held[seat][a]) {
            cnc_council_choose(s, ctx, seat, a, -1);
            return 0;
        }
    if (s->phase == CNC_PHASE_AGENDA)
        return engine_fail(err, ENGINE_EINTERNAL, "agenda", "none held");
    for (int c = 0; c < cnc_data_get()->nstrategies; c++)
        if (s->strat_owner[c] < 0) {
            cnc_pick_card(s, ctx, seat, c);
            return 0;
        }
    return engine_fail(err, ENGINE_EINTERNAL, "card", "no card left");
}

static json_t *cn_view(const void *state, int seat)
{
    return cnc_view_json(state, seat);
}

static json_t *cn_legal(const void *state, int seat, const char *window)
{
    return cnc_legal_json(state, seat, window);
}

static json_t *cn_bot(const void *state, int seat, const char *window,
                      const char *level, engine_rng *rng)
{
    if (window_ok(state, seat, window, NULL))
        return NULL;
    return cnc_bot_json(state, seat, level, rng);
}

static int cn_is_over(const void *state)
{
    return ((const cnc_state *)state)->over;
}

static json_t *cn_result(const void *state)
{
    return cnc_result_json(state);
}

static const engine_bot_level bot_levels[] = {
    {"basic", "Basic"}, {"random", "Random"}, {NULL, NULL}};

void *cnc_twin(const void *state, int seat, engine_rng *rng);  /* twin.c */
int cnc_window_label(const char *window, char *out, size_t n); /* labels.c */
const engine_ruleset council_ruleset = {
    .id = "council",
    .title = "Galactic Council",
    .summary = "A space strategy game for 3-8 players under fog of war: pick "
               "strategy cards, send sealed fleet orders with if-then-else, "
               "explore, land and fight, send representatives to the "
               "council to vote on agendas, score objectives in the status "
               "phase.",
    .min_seats = CNC_MIN_PLAYERS,
    .max_seats = CNC_MAX_PLAYERS,
    .options = council_options,
    .init = cn_init,
    .setup = cn_setup,
    .destroy = free,
    .clone = cn_clone,
    .save = cn_save,
    .load = cn_load,
    .windows = cn_windows,
    .window_label = cnc_window_label,
    .talk_closed = cnc_talk_closed,
    .check_order = cn_check_order,
    .default_order = cn_default_order,
    .public_order = cn_public_order,
    .resolve = cn_resolve,
    .play = cn_play,
    .timeout = cn_timeout,
    .view = cn_view,
    .legal = cn_legal,
    .bot = cn_bot,
    .is_over = cn_is_over,
    .result = cn_result,
    .twin = cnc_twin,
    .bot_levels = bot_levels,
    .new_game_options = "{\"edition\":" CNC_EDITION_CURRENT_TEXT "}",
};

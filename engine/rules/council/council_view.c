/*
 * council_view.c - what a seat (or a spectator) may see of a Galactic
 * Council game, and the legal shapes of its windows. A seat gets the
 * galaxy as it knows it (cnc_fog_render), every player's public facts
 * (VP, trade goods, pools, strategy card, technologies, hand size), the
 * objectives, and under "you" its hand, secret objectives, command
 * tokens on the board and shared-vision offers and allies; spectators get the
 * public galaxy and public facts. Held orders are added by the core
 * ("my_orders"). "council" holds the council phase's public state (the
 * agenda on the table, laws in force, the last council's representatives,
 * votes and weights, the secret-vote option keeping each seat's vote and
 * weight and the totals out); "you" adds the agenda cards the seat holds and
 * its race's representatives.
 */
#include "engine/rules/council/council_internal.h"

#include <string.h>

/* A player's public facts, with its race's standing vote bonus (the
 * Choir's). */
static json_t *player_json(const cnc_state *s, int p)
{
    const cnc_data *d = cnc_data_get();
    const cnc_player *pl = &s->p[p];
    json_t *techs = json_array();
    int hand = 0;
    for (int t = 0; t < d->ntechs; t++)
        if (pl->techs[t])
            json_array_append_new(techs, json_string(d->techs[t].key));
    for (int a = 0; a < d->nactions; a++)
        hand += pl->hand[a];
    return json_pack(
        "{s:i, s:s, s:s, s:i, s:i, s:i, s:i, s:i, s:o, s:b, s:o, s:i, s:i, "
        "s:i, s:i}",
        "seat", p, "race", d->races[pl->race].key, "race_name",
        d->races[pl->race].name, "vp", pl->vp, "trade_goods", pl->tg, "tactic",
        pl->tactic, "fleet", pl->fleet, "strategy", pl->strategy, "card",
        pl->card >= 0 ? json_string(d->strategies[pl->card].key) : json_null(),
        "card_used", (int)pl->card_used, "techs", techs, "hand_size", hand,
        "planets", cnc_planets_controlled(s, p, 0), "influence",
        cnc_planet_influence(s, p), "vote_bonus",
        d->races[pl->race].special == CNC_RACE_ORATORS
            ? d->races[pl->race].special_amount
            : 0);
}

static json_t *objectives_json(const cnc_state *s)
{
    const cnc_data *d = cnc_data_get();
    json_t *a = json_array();
    for (int i = 0; i < s->revealed; i++) {
        int o = (int)s->public_deck[i];
        json_t *by = json_array();
        for (int p = 0; p < s->seats; p++)
            if (s->p[p].scored[o])
                json_array_append_new(by, json_integer(p));
        json_array_append_new(
            a, json_pack("{s:s, s:s, s:i, s:i, s:s, s:o}", "key",
                         d->objectives[o].key, "name", d->objectives[o].name,
                         "stage", d->objectives[o].stage, "vp",
                         d->objectives[o].vp, "text", d->objectives[o].text,
                         "scored_by", by));
    }
    return a;
}

static json_t *cards_json(const cnc_state *s)
{
    const cnc_data *d = cnc_data_get();
    json_t *a = json_array();
    for (int c = 0; c < d->nstrategies; c++)
        json_array_append_new(a, json_pack("{s:s, s:s, s:i, s:o}", "key",
                                           d->strategies[c].key, "name",
                                           d->strategies[c].name, "initiative",
                                           d->strategies[c].initiative, "owner",
                                           s->strat_owner[c] >= 0
                                               ? json_integer(s->strat_owner[c])
                                               : json_null()));
    return a;
}

/* Seats seat offers its vision to (allied: only those offering back). */
static json_t *vision_json(const cnc_state *s, int seat, int allied)
{
    json_t *a = json_array();
    for (int p = 0; p < s->seats; p++)
        if (p != seat && (allied ? cnc_fog_allied(&s->fog, seat, p)
                                 : (s->fog.share[seat] >> p & 1)))
            json_array_append_new(a, json_integer(p));
    return a;
}

/* The representatives the seat's race may send, keyed by role, as the
 * ruleset's data has them. Only the seat's own race: which one it sends
 * stays in its held orders until the reveal. */
static json_t *reps_json(const cnc_race *r)
{
    static const char *const roles[] = {"spy", "bodyguard", "councillor"};
    json_t *o = json_object();
    for (int k = 0; k < CNC_REP_COUNT; k++)
        json_object_set_new(
            o, roles[k],
            json_pack("{s:s, s:i, s:s}", "name", r->reps[k].name, "influence",
                      r->reps[k].influence, "ability",
                      cnc_rep_ability_name(r->reps[k].ability)));
    return o;
}

/* The seats in the order the ranked picks resolve: the speaker first,
 * then clockwise (public). */
static json_t *pick_order_json(const cnc_state *s)
{
    json_t *a = json_array();
    for (int i = 0; i < s->seats; i++)
        json_array_append_new(a, json_integer((s->speaker + i) % s->seats));
    return a;
}

/* The seat's private facts. */
static json_t *you_json(const cnc_state *s, int seat)
{
    static const char *const timings[] = {"action", "combat", "council",
                                          "status"};
    const cnc_data *d = cnc_data_get();
    const cnc_player *pl = &s->p[seat];
    json_t *hand = json_array(), *secrets = json_array(),
           *tokens = json_array();
    for (int a = 0; a < d->nactions; a++)
        if (pl->hand[a])
            json_array_append_new(
                hand,
                json_pack("{s:s, s:s, s:s, s:i, s:s}", "key", d->actions[a].key,
                          "name", d->actions[a].name, "text",
                          d->actions[a].text, "count", pl->hand[a], "timing",
                          timings[d->actions[a].timing]));
    for (int o = 0; o < d->nobjectives; o++)
        if (pl->secret[o])
            json_array_append_new(
                secrets,
                json_pack("{s:s, s:s, s:s, s:b}", "key", d->objectives[o].key,
                          "name", d->objectives[o].name, "text",
                          d->objectives[o].text, "scored", (int)pl->scored[o]));
    for (int x = 0; x < s->g.nsectors; x++)
        if (s->tokens[x] >> seat & 1)
            json_array_append_new(tokens, json_pack("[i, i]", s->g.sec[x].hex.q,
                                                    s->g.sec[x].hex.r));
    json_t *agendas = json_array();
    for (int a = 0; a < d->nagendas; a++)
        if (s->c.held[seat][a])
            json_array_append_new(agendas, cnc_agenda_json(a));
    /* How far its ships may go this round: each ship's move plus at most
     * move_bonus (the bound its orders are checked against). */
    json_t *moves = json_object();
    for (int u = 0; u < d->nunits; u++)
        if (d->units[u].kind == CNC_UNIT_SHIP)
            json_object_set_new(moves, d->units[u].key,
                                json_integer(d->units[u].move));
    return json_pack("{s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:i}",
                     "seat", seat, "hand", hand, "secret_objectives", secrets,
                     "tokens", tokens, "vision_offers", vision_json(s, seat, 0),
                     "allies", vision_json(s, seat, 1), "agendas", agendas,
                     "representatives", reps_json(&d->races[pl->race]),
                     "ship_moves", moves, "move_bonus",
                     cnc_reach_bonus_bound(s, seat));
}

json_t *cnc_view_json(const cnc_state *s, int seat)
{
    static const char *const phases[] = {"strategy", "action", "over",
                                         "agenda",   "lobby",  "council"};
    if (seat >= s->seats)
        seat = ENGINE_PUBLIC;
    json_t *players = json_array();
    for (int p = 0; p < s->seats; p++)
        json_array_append_new(players, player_json(s, p));
    json_t *v = json_pack(
        "{s:i, s:s, s:i, s:i, s:i, s:o, s:o, s:o, s:o, s:b}", "round", s->round,
        "phase", phases[s->phase], "speaker", s->speaker, "vp_target",
        s->vp_target, "last_round", s->last_round, "galaxy",
        cnc_fog_render(cnc_data_get(), &s->g, &s->fog, seat, s->round),
        "players", players, "objectives", objectives_json(s), "strategy_cards",
        cards_json(s), "council_convened", (int)s->council_convened);
    if (v)
        json_object_set_new(v, "council", cnc_council_json(s));
    if (v)
        json_object_set_new(
            v, "strategy_picks",
            json_string(s->sequential_picks ? "sequential" : "ranked"));
    if (v) /* edition 2: the lobby's parts go in the action window */
        json_object_set_new(v, "lobby_in_action",
                            json_boolean(cnc_lobby_in_action(s)));
    if (v && s->phase == CNC_PHASE_STRATEGY && s->sequential_picks)
        json_object_set_new(v, "picker", json_integer(cnc_picker(s)));
    if (v && cnc_ranked_open(s))
        json_object_set_new(v, "pick_order", pick_order_json(s));
    if (v && seat >= 0)
        json_object_set_new(v, "you", you_json(s, seat));
    return v;
}

/* The ranked picks: {"ranking": [distinct card keys]}, any prefix of an
 * ordering; every card is a choice (the others' rankings are sealed). */
static json_t *ranking_legal(void)
{
    const cnc_data *d = cnc_data_get();
    json_t *keys = json_array();
    for (int c = 0; c < d->nstrategies; c++)
        json_array_append_new(keys, json_string(d->strategies[c].key));
    return json_pack("{s:s, s:{s:s, s:{s:{s:s, s:{s:o}, s:i, s:b}}, s:b}, "
                     "s:n}",
                     "kind", "order", "shape", "type", "object", "properties",
                     "ranking", "type", "array", "items", "enum", keys,
                     "maxItems", d->nstrategies, "uniqueItems", 1,
                     "additionalProperties", 0, "choices");
}

/* The speaker's choice of an agenda it holds (and one to keep). */
static json_t *agenda_legal(const cnc_state *s, int seat)
{
    const cnc_data *d = cnc_data_get();
    if (seat != s->c.speaker)
        return NULL;
    json_t *keys = json_array(), *choices = json_array();
    for (int a = 0; a < d->nagendas; a++)
        if (s->c.held[seat][a]) {
            json_array_append_new(keys, json_string(d->agendas[a].key));
            json_array_append_new(
                choices, json_pack("{s:s}", "agenda", d->agendas[a].key));
        }
    /* keep: one other held agenda stays in hand for a later council. */
    return json_pack("{s:s, s:{s:s, s:{s:{s:O}, s:{s:o}}, s:[s], s:b}, s:o}",
                     "kind", "play", "shape", "type", "object", "properties",
                     "agenda", "enum", keys, "keep", "enum", keys, "required",
                     "agenda", "additionalProperties", 0, "choices", choices);
}

json_t *cnc_legal_json(const cnc_state *s, int seat, const char *window)
{
    const cnc_data *d = cnc_data_get();
    char id[ENGINE_WINDOW_ID_MAX];
    if (seat < 0 || seat >= s->seats || cnc_window_id(s, id, sizeof id) ||
        !window || strcmp(id, window) != 0)
        return NULL;
    if (s->phase == CNC_PHASE_AGENDA)
        return agenda_legal(s, seat);
    if (cnc_ranked_open(s))
        return ranking_legal();
    if (s->phase != CNC_PHASE_STRATEGY)
        return json_pack("{s:s, s:o, s:n}", "kind", "order", "shape",
                         cnc_parts_shape(s), "choices");
    if (seat != cnc_picker(s))
        return NULL;
    json_t *keys = json_array(), *choices = json_array();
    for (int c = 0; c < d->nstrategies; c++)
        if (s->strat_owner[c] < 0) {
            json_array_append_new(keys, json_string(d->strategies[c].key));
            json_array_append_new(
                choices, json_pack("{s:s}", "card", d->strategies[c].key));
        }
    return json_pack("{s:s, s:{s:s, s:{s:{s:o}}, s:[s], s:b}, s:o}", "kind",
                     "play", "shape", "type", "object", "properties", "card",
                     "enum", keys, "required", "card", "additionalProperties",
                     0, "choices", choices);
}

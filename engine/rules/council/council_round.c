/*
 * council_round.c - Galactic Council's round: the strategy picks (one
 * sealed window of ranked preferences, or an open window per pick in
 * speaker order), then the sealed action window, initiative
 * order, objectives, the status phase in seed 001's eight steps, the end
 * of the game and its result.
 */
#include "engine/rules/council/council_internal.h"

#include <stdio.h>
#include <string.h>

int cnc_window_id(const cnc_state *s, char *out, size_t n)
{
    int k;
    if (s->over || s->phase == CNC_PHASE_OVER)
        return -1;
    static const char *const names[] = {"",       "action", "",
                                        "agenda", "lobby",  "council"};
    if (cnc_ranked_open(s))
        k = snprintf(out, n, "r%d.picks", s->round);
    else if (s->phase == CNC_PHASE_STRATEGY)
        k = snprintf(out, n, "r%d.pick%d", s->round, s->picks);
    else
        k = snprintf(out, n, "r%d.%s", s->round, names[s->phase]);
    return k > 0 && (size_t)k < n ? 0 : -1;
}

int cnc_ranked_open(const cnc_state *s)
{
    return s->phase == CNC_PHASE_STRATEGY && !s->sequential_picks;
}

int cnc_picker(const cnc_state *s)
{
    return (s->speaker + s->picks) % s->seats;
}

int cnc_initiative_order(const cnc_state *s, int order[ENGINE_MAX_SEATS])
{
    const cnc_data *d = cnc_data_get();
    int n = 0;
    /* Cards are distinct; seats without one (should not happen) go last. */
    for (int c = 0; c < d->nstrategies; c++)
        for (int p = 0; p < s->seats; p++)
            if (s->p[p].card >= 0 && d->strategies[s->p[p].card].initiative ==
                                         d->strategies[c].initiative)
                order[n++] = p;
    for (int p = 0; p < s->seats; p++)
        if (s->p[p].card < 0)
            order[n++] = p;
    return n;
}

int cnc_planets_controlled(const cnc_state *s, int seat, int outside_home)
{
    int n = 0;
    for (int x = 0; x < s->g.nsectors; x++) {
        if (outside_home && x == s->g.home[seat])
            continue;
        for (int p = 0; p < CNC_MAX_PLANETS; p++)
            n += s->g.sec[x].owner[p] == seat;
    }
    return n;
}

static int count_trait(const cnc_state *s, int seat, int trait)
{
    const cnc_data *d = cnc_data_get();
    int n = 0;
    for (int x = 0; x < s->g.nsectors; x++) {
        const cnc_system *t = cnc_sector_tile(d, &s->g, x);
        for (int p = 0; p < t->nplanets; p++)
            n += s->g.sec[x].owner[p] == seat && t->planets[p].trait == trait;
    }
    return n;
}

static int count_fleet(const cnc_state *s, int seat, int adjacent_capital)
{
    int n = 0;
    for (int x = 0; x < s->g.nsectors; x++)
        if (!adjacent_capital ||
            cnc_sector_distance(&s->g, x, s->g.capital) == 1)
            n += cnc_ships_in(s, seat, x);
    return n;
}

int cnc_objective_met(const cnc_state *s, int seat, int o)
{
    const cnc_objective *ob = &cnc_data_get()->objectives[o];
    int n = 0;
    switch (ob->condition) {
    case CNC_OBJ_CONTROL_PLANETS:
        return cnc_planets_controlled(s, seat, 1) >= ob->amount;
    case CNC_OBJ_CONTROL_TRAIT:
        return count_trait(s, seat, ob->trait) >= ob->amount;
    case CNC_OBJ_EXPLORED:
        for (int x = 0; x < s->g.nsectors; x++)
            n += s->fog.explored_by[x] == seat;
        return n >= ob->amount;
    case CNC_OBJ_TRADE_GOODS:
        return s->p[seat].tg >= ob->amount;
    case CNC_OBJ_TECHS:
        for (int t = 0; t < CNC_MAX_TECHS; t++)
            n += s->p[seat].techs[t];
        return n >= ob->amount;
    case CNC_OBJ_INSPECTED_MARKERS:
        for (int m = 0; m < s->g.nmarkers; m++)
            n += s->fog.inspected[seat][m];
        return n >= ob->amount;
    case CNC_OBJ_CONTROL_CAPITAL:
        return s->g.sec[s->g.capital].owner[0] == seat;
    case CNC_OBJ_SHIPS:
        return count_fleet(s, seat, 0) >= ob->amount;
    case CNC_OBJ_WIN_SPACE_COMBAT:
        return s->p[seat].won_combat;
    default:
        return count_fleet(s, seat, 1) > 0;
    }
}

/* Seat scores objective o worth vp. */
static void score(cnc_state *s, engine_ctx *ctx, int seat, int o, int vp)
{
    const cnc_objective *ob = &cnc_data_get()->objectives[o];
    s->p[seat].scored[o] = 1;
    s->p[seat].vp = (int16_t)(s->p[seat].vp + vp);
    cnc_log(ctx, json_pack("{s:s, s:i, s:s, s:i}", "type", "scored", "seat",
                           seat, "objective", ob->key, "vp", vp));
}

/* The revealed position of public objective o, -1 when not revealed. */
static int revealed_at(const cnc_state *s, int o)
{
    for (int k = 0; k < s->revealed; k++)
        if (s->public_deck[k] == o)
            return k;
    return -1;
}

/* Seat p's public objective to score now: the first of its score step's
 * list that is revealed, unscored and met; without a list (ours) the
 * first revealed one it meets. -1: none. *k gets its deck position. */
static int public_choice(const cnc_state *s, int p, int *k)
{
    const cnc_round_extra *x = &s->x[p];
    if (x->score_given & 1) {
        for (int i = 0; i < CNC_SCORE_PREFS && x->score_public[i] >= 0; i++) {
            int o = (int)x->score_public[i];
            *k = revealed_at(s, o);
            if (*k >= 0 && !s->p[p].scored[o] && cnc_objective_met(s, p, o))
                return o;
        }
        return -1;
    }
    for (*k = 0; *k < s->revealed; (*k)++) {
        int o = (int)s->public_deck[*k];
        if (!s->p[p].scored[o] && cnc_objective_met(s, p, o))
            return o;
    }
    return -1;
}

/* The same for a secret objective the seat holds. */
static int secret_choice(const cnc_state *s, int p)
{
    const cnc_data *d = cnc_data_get();
    const cnc_round_extra *x = &s->x[p];
    int listed = x->score_given & 2;
    for (int i = 0; i < (listed ? CNC_SCORE_PREFS : d->nobjectives); i++) {
        int o = listed ? (int)x->score_secret[i] : i;
        if (o < 0)
            break;
        if (s->p[p].secret[o] && !s->p[p].scored[o] &&
            cnc_objective_met(s, p, o))
            return o;
    }
    return -1;
}

/* Status 1: in initiative order, at most one public and one secret
 * objective each: the ones the seat's score step chose (seed 001: the
 * player chooses), else the first met (ours). */
void cnc_status_score(cnc_state *s, engine_ctx *ctx)
{
    const cnc_data *d = cnc_data_get();
    int order[ENGINE_MAX_SEATS] = {0};
    int n = cnc_initiative_order(s, order);
    for (int i = 0; i < n; i++) {
        int p = order[i], k = -1;
        int o = public_choice(s, p, &k);
        if (o >= 0)
            score(s, ctx, p, o, cnc_public_vp(s, k));
        o = secret_choice(s, p);
        if (o >= 0)
            score(s, ctx, p, o, d->objectives[o].vp);
    }
}

/* Status 2: turn up the next public objective (stage II only after every
 * stage I: the deck holds them in that order). 0 when none is left. */
int cnc_status_reveal(cnc_state *s, engine_ctx *ctx)
{
    if (s->revealed >= s->npublic)
        return 0;
    const cnc_data *d = cnc_data_get();
    /* Chancery chose the second card: it goes first when of the same
     * stage (stage II still waits for every stage I). */
    if (s->chancery_pick && s->revealed + 1 < s->npublic &&
        d->objectives[s->public_deck[s->revealed]].stage ==
            d->objectives[s->public_deck[s->revealed + 1]].stage) {
        int8_t t = s->public_deck[s->revealed];
        s->public_deck[s->revealed] = s->public_deck[s->revealed + 1];
        s->public_deck[s->revealed + 1] = t;
    }
    s->chancery_pick = 0;
    int o = (int)s->public_deck[s->revealed++];
    cnc_log(ctx, json_pack("{s:s, s:s}", "type", "objective_revealed",
                           "objective", cnc_data_get()->objectives[o].key));
    return 1;
}

/* Status 3: one action card each, in initiative order. */
void cnc_status_draw(cnc_state *s, engine_ctx *ctx)
{
    int order[ENGINE_MAX_SEATS] = {0};
    int n = cnc_initiative_order(s, order);
    for (int i = 0; i < n; i++)
        cnc_draw_action(s, ctx, order[i]);
}

/* Status 4: command tokens leave the board. */
void cnc_status_remove_tokens(cnc_state *s)
{
    memset(s->tokens, 0, sizeof s->tokens);
}

/* Status 5 for one seat: excess ships over the fleet pool in a sector are
 * removed, the cheapest first. */
static void fleet_limit(cnc_state *s, engine_ctx *ctx, int seat)
{
    const cnc_data *d = cnc_data_get();
    for (int x = 0; x < s->g.nsectors; x++) {
        int over = cnc_ships_in(s, seat, x) - s->p[seat].fleet;
        if (over <= 0)
            continue;
        for (int k = 0; k < over; k++) {
            int best = -1;
            for (int u = 0; u < d->nunits; u++)
                if (d->units[u].kind == CNC_UNIT_SHIP &&
                    s->g.sec[x].units[seat][u] &&
                    (best < 0 || d->units[u].cost < d->units[best].cost))
                    best = u;
            if (best < 0)
                break;
            s->g.sec[x].units[seat][best]--;
            if (s->damaged[x][seat][best] > s->g.sec[x].units[seat][best])
                s->damaged[x][seat][best] = s->g.sec[x].units[seat][best];
        }
        cnc_log_seats(ctx, 1u << seat,
                      json_pack("{s:s, s:[i, i], s:i}", "type", "fleet_limit",
                                "sector", s->g.sec[x].hex.q, s->g.sec[x].hex.r,
                                "removed", over));
    }
}

/* Status 5 for a seat that gave a split (a tokens step): all its pool
 * tokens and the gained ones are placed anew, the fleet pool filled to
 * the split first, then the strategy pool, the rest in the tactic pool. */
static void redistribute(cnc_state *s, int p, int gain)
{
    const int8_t *want = s->x[p].pools;
    int total = s->p[p].tactic + s->p[p].fleet + s->p[p].strategy + gain;
    int fleet = want[1] < total ? want[1] : total;
    int strategy = want[2] < total - fleet ? want[2] : total - fleet;
    s->p[p].fleet = (int8_t)fleet;
    s->p[p].strategy = (int8_t)strategy;
    s->p[p].tactic = (int8_t)(total - fleet - strategy);
}

/* Command tokens every seat gains from lasting laws in force. */
static int laws_tokens(const cnc_state *s)
{
    const cnc_data *d = cnc_data_get();
    int n = 0;
    for (int a = 0; a < d->nagendas; a++)
        if (s->c.laws[a] && d->agendas[a].effect == CNC_AGX_STATUS_TOKENS)
            n += d->agendas[a].amount;
    return n;
}

/* Status 5: each seat gains two tokens (more with its race, Cipher Net or
 * a Rally played this round); a seat that gave a split redistributes
 * them all as it asked; otherwise they go to the fleet pool while it is
 * below the seat's largest stack of ships, else to the tactic pool
 * (ours); then fleet limits, in initiative order. */
void cnc_status_gain_tokens(cnc_state *s, engine_ctx *ctx)
{
    const cnc_data *d = cnc_data_get();
    int order[ENGINE_MAX_SEATS] = {0};
    int n = cnc_initiative_order(s, order);
    for (int i = 0; i < n; i++) {
        int p = order[i];
        const cnc_race *r = &d->races[s->p[p].race];
        int gain =
            d->rules.status_gain + cnc_has_tech_effect(s, p, CNC_TECH_COMMAND) +
            (r->special == CNC_RACE_EXTRA_COMMAND ? r->special_amount : 0) +
            s->x[p].rally + laws_tokens(s);
        if (s->x[p].plan) {
            redistribute(s, p, gain);
            fleet_limit(s, ctx, p);
            continue;
        }
        int stack = 0;
        for (int x = 0; x < s->g.nsectors; x++)
            if (cnc_ships_in(s, p, x) > stack)
                stack = cnc_ships_in(s, p, x);
        for (int k = 0; k < gain; k++) {
            if (s->p[p].fleet < stack)
                s->p[p].fleet++;
            else
                s->p[p].tactic++;
        }
        fleet_limit(s, ctx, p);
    }
}

/* Status 6: planets and strategy cards are readied. */
void cnc_status_ready(cnc_state *s)
{
    memset(s->exhausted, 0, sizeof s->exhausted);
    for (int p = 0; p < s->seats; p++)
        s->p[p].card_used = 0;
}

/* Status 7: damaged units are repaired. */
void cnc_status_repair(cnc_state *s)
{
    memset(s->damaged, 0, sizeof s->damaged);
}

/* Status 8: strategy cards go back; the next speaker is Forum's user, else
 * the lowest initiative of this round. */
void cnc_status_return_cards(cnc_state *s, engine_ctx *ctx)
{
    int order[ENGINE_MAX_SEATS] = {0};
    cnc_initiative_order(s, order);
    s->speaker = s->next_speaker >= 0 ? s->next_speaker : (int8_t)order[0];
    s->next_speaker = -1;
    memset(s->strat_owner, -1, sizeof s->strat_owner);
    for (int p = 0; p < s->seats; p++) {
        s->p[p].last_card = s->p[p].card;
        s->p[p].card = -1;
    }
    if (s->g.sec[s->g.capital].owner[0] >= 0 && !s->council_convened) {
        s->council_convened = 1;
        cnc_log(ctx, json_pack("{s:s}", "type", "council_convened"));
    }
}

void cnc_new_round(cnc_state *s, engine_ctx *ctx)
{
    s->round++;
    s->picks = 0;
    s->phase = CNC_PHASE_STRATEGY;
    cnc_fog_new_round(&s->fog);
    for (int p = 0; p < s->seats; p++) {
        s->p[p].won_combat = 0;
        s->p[p].free_produce = 0;
    }
    memset(s->x, 0, sizeof s->x);
    memset(s->sabotaged, 0, sizeof s->sabotaged);
    cnc_log(ctx, json_pack("{s:s, s:i, s:i}", "type", "round", "round",
                           s->round, "speaker", s->speaker));
}

static void end_game(cnc_state *s, engine_ctx *ctx, int why)
{
    static const char *const whys[] = {"", "target", "last_round",
                                       "no_objective"};
    s->over = 1;
    s->ended_why = (uint8_t)why;
    s->phase = CNC_PHASE_OVER;
    cnc_log(ctx,
            json_pack("{s:s, s:s}", "type", "game_over", "reason", whys[why]));
}

void cnc_status_phase(cnc_state *s, engine_ctx *ctx)
{
    cnc_status_score(s, ctx); /* 1 */
    /* 2: the game ends when no objective is left at its start; with the
     * council every round the objective it reveals is the council's new
     * one (2.2: Chancery's pick, its value by round). */
    if (s->revealed >= s->npublic || !(s->c.mode == CNC_COUNCIL_EVERY_ROUND
                                           ? cnc_council_open_objective(s, ctx)
                                           : cnc_status_reveal(s, ctx))) {
        end_game(s, ctx, 3);
        return;
    }
    cnc_status_draw(s, ctx);         /* 3 */
    cnc_status_remove_tokens(s);     /* 4 */
    cnc_status_gain_tokens(s, ctx);  /* 5 */
    cnc_status_ready(s);             /* 6 */
    cnc_status_repair(s);            /* 7 */
    cnc_status_return_cards(s, ctx); /* 8 */
    for (int p = 0; p < s->seats; p++)
        if (s->p[p].vp >= s->vp_target) {
            end_game(s, ctx, 1);
            return;
        }
    if (s->round >= s->last_round) {
        end_game(s, ctx, 2);
        return;
    }
    /* Seed 001's council sits here once Concordia is taken. */
    if (!cnc_council_after_status(s, ctx))
        cnc_new_round(s, ctx);
}

/* a ranks before b: more VP, then more planets, then the lower initiative
 * of the last round. */
static int better(const cnc_state *s, int a, int b)
{
    const cnc_data *d = cnc_data_get();
    if (s->p[a].vp != s->p[b].vp)
        return s->p[a].vp > s->p[b].vp;
    int pa = cnc_planets_controlled(s, a, 0),
        pb = cnc_planets_controlled(s, b, 0);
    if (pa != pb)
        return pa > pb;
    int ia = s->p[a].last_card >= 0
                 ? d->strategies[s->p[a].last_card].initiative
                 : 99;
    int ib = s->p[b].last_card >= 0
                 ? d->strategies[s->p[b].last_card].initiative
                 : 99;
    return ia < ib;
}

json_t *cnc_result_json(const cnc_state *s)
{
    static const char *const whys[] = {"", "target", "last_round",
                                       "no_objective"};
    if (!s->over)
        return NULL;
    int best = 0;
    for (int p = 1; p < s->seats; p++)
        if (better(s, p, best))
            best = p;
    json_t *scores = json_array(), *planets = json_array();
    for (int p = 0; p < s->seats; p++) {
        json_array_append_new(scores, json_integer(s->p[p].vp));
        json_array_append_new(planets,
                              json_integer(cnc_planets_controlled(s, p, 0)));
    }
    return json_pack("{s:[i], s:o, s:o, s:s, s:i}", "winners", best, "scores",
                     scores, "planets", planets, "reason", whys[s->ended_why],
                     "rounds", s->round);
}

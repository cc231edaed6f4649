/*
 * council_cards.c - Galactic Council's action cards played in an action
 * order and the secondaries of other players' strategy cards, plus paying
 * resources or influence. An action card's effect is read from its data
 * (council.json "effect" and "amount"): a small vocabulary interpreted
 * here, with no code for any one card (docs/games/council.md, "Action
 * cards", "Following a strategy card").
 */
#include "engine/rules/council/council_internal.h"

#include <string.h>

/* What seat can raise by exhausting its ready planets for resources
 * (influence: 0) or influence (1), plus trade goods. */
static int available(const cnc_state *s, int seat, int influence)
{
    const cnc_data *d = cnc_data_get();
    int avail = s->p[seat].tg;
    for (int x = 0; x < s->g.nsectors; x++) {
        const cnc_system *t = cnc_sector_tile(d, &s->g, x);
        for (int p = 0; p < t->nplanets; p++)
            if (s->g.sec[x].owner[p] == seat && !(s->exhausted[x] >> p & 1))
                avail += influence ? t->planets[p].influence
                                   : t->planets[p].resources;
    }
    return avail;
}

static int pay(cnc_state *s, int seat, int cost, int influence)
{
    const cnc_data *d = cnc_data_get();
    if (available(s, seat, influence) < cost)
        return -1;
    for (int x = 0; x < s->g.nsectors && cost > 0; x++) {
        const cnc_system *t = cnc_sector_tile(d, &s->g, x);
        for (int p = 0; p < t->nplanets && cost > 0; p++) {
            int v =
                influence ? t->planets[p].influence : t->planets[p].resources;
            if (s->g.sec[x].owner[p] == seat && !(s->exhausted[x] >> p & 1) &&
                v > 0) {
                s->exhausted[x] = (uint8_t)(s->exhausted[x] | 1u << p);
                cost -= v;
            }
        }
    }
    if (cost > 0)
        s->p[seat].tg = (int16_t)(s->p[seat].tg - cost);
    return 0;
}

int cnc_pay_resources(cnc_state *s, int seat, int cost)
{
    return pay(s, seat, cost, 0);
}

int cnc_pay_influence(cnc_state *s, int seat, int cost)
{
    return pay(s, seat, cost, 1);
}

int cnc_can_pay_influence(const cnc_state *s, int seat, int cost)
{
    return available(s, seat, 1) >= cost;
}

int cnc_can_pay_resources(const cnc_state *s, int seat, int cost)
{
    return available(s, seat, 0) >= cost;
}

/* 1 when seat has ships in x or next to it. */
static int ships_near(const cnc_state *s, int seat, int x)
{
    for (int y = 0; y < s->g.nsectors; y++)
        if (cnc_sector_distance(&s->g, x, y) <= 1 && cnc_ships_in(s, seat, y))
            return 1;
    return 0;
}

/* The card's effect; 0, or -1 with *why. */
static int card_effect(cnc_state *s, engine_ctx *ctx, int seat,
                       const cnc_action_card *a, int x, int m, const char **why)
{
    cnc_round_extra *e = &s->x[seat];
    switch (a->effect) {
    case CNC_AFX_GAIN_TRADE_GOODS:
        cnc_gain_tg(s, seat, a->amount);
        return 0;
    case CNC_AFX_FREE_EXPLORE:
        e->free_explore = 1;
        return 0;
    case CNC_AFX_GAIN_COMMAND:
        e->rally = (int8_t)(e->rally + a->amount);
        return 0;
    case CNC_AFX_EXTRA_MOVE:
        e->extra_move = (int8_t)(e->extra_move + a->amount);
        return 0;
    case CNC_AFX_REROLL:
        e->reroll = 1;
        return 0;
    case CNC_AFX_DIRECT_HIT:
        e->direct_hit = 1;
        return 0;
    case CNC_AFX_CANCEL_PRODUCTION:
        if (x < 0 || !ships_near(s, seat, x)) {
            *why = "the sector must be next to your ships";
            return -1;
        }
        s->sabotaged[x] = (uint8_t)(s->sabotaged[x] | 1u << seat);
        return 0;
    case CNC_AFX_INSPECT_MARKER:
        if (m < 0 || !s->fog.explored[s->g.markers[m].sector] ||
            s->g.markers[m].state != CNC_MK_HIDDEN) {
            *why = "no hidden marker there in explored space";
            return -1;
        }
        cnc_fog_inspect(&s->fog, seat, m);
        const cnc_marker *k = &s->g.markers[m];
        cnc_log_seats(
            ctx, 1u << seat,
            json_pack("{s:s, s:[i, i], s:i, s:s}", "type", "inspected",
                      "sector", s->g.sec[k->sector].hex.q,
                      s->g.sec[k->sector].hex.r, "planet", k->planet, "marker",
                      cnc_data_get()->markers[k->kind].key));
        return 0;
    default:
        *why = a->timing == CNC_TIME_COUNCIL
                   ? "this card is played at the council"
                   : "this card cannot be played in an action order yet";
        return -1;
    }
}

int cnc_play_card(cnc_state *s, engine_ctx *ctx, int seat, const cnc_step *st,
                  int x, int m, const char **why)
{
    const cnc_action_card *a = &cnc_data_get()->actions[st->action];
    if (!s->p[seat].hand[st->action]) {
        *why = "you do not hold that action card";
        return -1;
    }
    if (card_effect(s, ctx, seat, a, x, m, why))
        return -1;
    s->p[seat].hand[st->action]--;
    cnc_log(ctx, json_pack("{s:s, s:i, s:s}", "type", "card_played", "seat",
                           seat, "card", a->key));
    return 0;
}

/* The secondary's effect; 0, or -1 with *why. */
static int secondary(cnc_state *s, engine_ctx *ctx, int seat,
                     const cnc_step *st, const char **why)
{
    const cnc_data *d = cnc_data_get();
    int ignored = -1;
    switch (d->strategies[st->card].ability) {
    case CNC_STRAT_GAIN_COMMAND:
        if (cnc_pay_influence(s, seat, 3)) {
            *why = "not enough influence (3)";
            return -1;
        }
        s->p[seat].tactic++;
        return 0;
    case CNC_STRAT_ESPIONAGE:
        return cnc_espionage(s, ctx, seat, st, 1, &ignored, why);
    case CNC_STRAT_PRODUCTION:
        s->p[seat].free_produce = 1;
        return 0;
    case CNC_STRAT_TECHNOLOGY: {
        int t = cnc_next_tech(s, seat);
        if (t < 0) {
            *why = "no technology left to research";
            return -1;
        }
        if (cnc_pay_resources(s, seat, 6)) {
            *why = "not enough resources (6)";
            return -1;
        }
        cnc_learn(s, ctx, seat, t);
        return 0;
    }
    default:
        *why = "this strategy card has no secondary to follow";
        return -1;
    }
}

int cnc_follow(cnc_state *s, engine_ctx *ctx, int seat, const cnc_step *st,
               const char **why)
{
    int owner = (int)s->strat_owner[st->card];
    if (owner < 0 || owner == seat) {
        *why = "another player must hold that strategy card";
        return -1;
    }
    if (s->x[seat].followed[st->card]) {
        *why = "you already followed that card this round";
        return -1;
    }
    if (s->p[seat].strategy <= 0) {
        *why = "no command token in the strategy pool";
        return -1;
    }
    if (secondary(s, ctx, seat, st, why))
        return -1;
    s->p[seat].strategy--;
    s->x[seat].followed[st->card] = 1;
    cnc_log(ctx, json_pack("{s:s, s:i, s:s}", "type", "follow", "seat", seat,
                           "card", cnc_data_get()->strategies[st->card].key));
    return 0;
}

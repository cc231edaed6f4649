/*
 * council_council_bot.c - Galactic Council's bots in the council windows.
 * "basic": puts an agenda that does not hurt everyone, plays the council
 * cards that only help it (votes, a guarded representative), picks the
 * first objective when it holds Chancery, sends its councillor, votes for
 * laws that give and against those that take, elects itself for a boon
 * and the leader for a penalty, buys a command marker when its tactic pool
 * is low, and captures the first empty neutral planet next to its space.
 * "random": random but well-formed parts of every kind.
 */
#include "engine/rules/council/council_internal.h"

#include <stdio.h>

static int harmful(const cnc_agenda *g)
{
    return g->effect == CNC_AGX_ALL_LOSE_TG ||
           g->effect == CNC_AGX_ELECT_LOSE_TG ||
           g->effect == CNC_AGX_ELECT_LOSE_TOKEN;
}

json_t *cnc_bot_agenda(const cnc_state *s, int seat, int basic, engine_rng *rng)
{
    const cnc_data *d = cnc_data_get();
    int held[CNC_MAX_AGENDAS], n = 0, pick = -1;
    for (int a = 0; a < d->nagendas; a++)
        if (s->c.held[seat][a]) {
            held[n++] = a;
            if (pick < 0 && !harmful(&d->agendas[a]))
                pick = a;
        }
    if (n == 0)
        return NULL;
    if (!basic || pick < 0)
        pick = held[engine_rng_below(rng, (uint32_t)n)];
    return json_pack("{s:s}", "agenda", d->agendas[pick].key);
}

static void put(json_t *order, const char *prefix, int n, json_t *part)
{
    char key[24];
    snprintf(key, sizeof key, "%s%d", prefix, n);
    json_object_set_new(order, key, part);
}

static int holds_chancery(const cnc_state *s, int seat)
{
    int c = (int)s->p[seat].card;
    return c >= 0 &&
           cnc_data_get()->strategies[c].ability == CNC_STRAT_OBJECTIVE;
}

static json_t *card_part(const cnc_state *s, int seat, int a, engine_rng *rng)
{
    const cnc_action_card *c = &cnc_data_get()->actions[a];
    json_t *p = json_pack("{s:s, s:s}", "type", "play", "card", c->key);
    if (c->effect == CNC_AFX_SILENCE)
        json_object_set_new(p, "seat",
                            json_integer((seat + 1 +
                                          (int)engine_rng_below(
                                              rng, (uint32_t)(s->seats - 1))) %
                                         s->seats));
    if (c->effect == CNC_AFX_EXTRA_VOTES)
        json_object_set_new(p, "amount",
                            json_integer(1 + (int)engine_rng_below(rng, 3)));
    return p;
}

json_t *cnc_bot_lobby(const cnc_state *s, int seat, int basic, engine_rng *rng)
{
    const cnc_data *d = cnc_data_get();
    json_t *order = json_object();
    for (int a = 0; a < d->nactions; a++) {
        const cnc_action_card *c = &d->actions[a];
        if (!s->p[seat].hand[a] || c->timing != CNC_TIME_COUNCIL)
            continue;
        int good = c->effect == CNC_AFX_VOTES || c->effect == CNC_AFX_GUARD_REP;
        if (basic ? good : engine_rng_below(rng, 2) == 0)
            put(order, "a", a, card_part(s, seat, a, rng));
    }
    if (holds_chancery(s, seat))
        put(order, "o", 0,
            json_pack("{s:s, s:i}", "type", "objective", "pick",
                      basic ? 0 : (int)engine_rng_below(rng, 2)));
    /* 2.3: the representative goes before the debate. */
    int role = basic ? CNC_REP_COUNCILLOR : (int)engine_rng_below(rng, 4);
    static const char *const roles[] = {"spy", "bodyguard", "councillor",
                                        "clerk"};
    json_t *rep =
        json_pack("{s:s, s:s}", "type", "representative", "role", roles[role]);
    if (role == CNC_REP_SPY)
        json_object_set_new(rep, "target",
                            json_integer((seat + 1 +
                                          (int)engine_rng_below(
                                              rng, (uint32_t)(s->seats - 1))) %
                                         s->seats));
    put(order, "r", 0, rep);
    if (!basic && s->p[seat].tg > 0 && engine_rng_below(rng, 4) == 0)
        put(order, "g", 0,
            json_pack("{s:s, s:i, s:i}", "type", "give", "seat",
                      (seat + 1) % s->seats, "trade_goods", 1));
    return order;
}

/* The vote part on the agenda on the table (NULL: nothing to vote on). */
static json_t *vote_part(const cnc_state *s, int seat, int basic,
                         engine_rng *rng)
{
    if (s->c.agenda < 0 || s->c.tabled)
        return NULL;
    const cnc_agenda *g = &cnc_data_get()->agendas[s->c.agenda];
    if (g->kind == CNC_AGENDA_LAW)
        return json_pack("{s:s, s:b}", "type", "vote", "for",
                         basic ? !harmful(g) : (int)engine_rng_below(rng, 2));
    int who = basic ? seat : (int)engine_rng_below(rng, (uint32_t)s->seats);
    if (basic && harmful(g)) {
        who = (seat + 1) % s->seats;
        for (int p = 0; p < s->seats; p++)
            if (p != seat && s->p[p].vp > s->p[who].vp)
                who = p;
    }
    return json_pack("{s:s, s:i}", "type", "vote", "seat", who);
}

/* An empty neutral planet next to seat's space, in explored space (what
 * every player knows): 1 with *x and *p set. */
static int capture_target(const cnc_state *s, int seat, int *x, int *p)
{
    const cnc_data *d = cnc_data_get();
    for (int y = 0; y < s->g.nsectors; y++) {
        if (!s->fog.explored[y])
            continue;
        const cnc_system *t = cnc_sector_tile(d, &s->g, y);
        for (int k = 0; k < t->nplanets; k++)
            if (s->g.sec[y].owner[k] < 0 &&
                !cnc_capture_blocked(s, seat, y, k)) {
                *x = y;
                *p = k;
                return 1;
            }
    }
    return 0;
}

json_t *cnc_bot_council(const cnc_state *s, int seat, int basic,
                        engine_rng *rng)
{
    json_t *order = json_object();
    json_t *v =
        cnc_rep_removed(s, seat) ? NULL : vote_part(s, seat, basic, rng);
    if (v)
        put(order, "v", 0, v);
    int buy = basic ? s->p[seat].tactic < 2 : (int)engine_rng_below(rng, 3);
    if (buy > 0)
        put(order, "m", 0,
            json_pack("{s:s, s:i}", "type", "markers", "count", buy));
    int x, p;
    if ((basic || engine_rng_below(rng, 2)) && capture_target(s, seat, &x, &p))
        put(order, "c", 0,
            json_pack("{s:s, s:[i, i], s:i}", "type", "capture", "sector",
                      s->g.sec[x].hex.q, s->g.sec[x].hex.r, "planet", p));
    return order;
}

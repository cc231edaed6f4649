/*
 * sprint_bot.c - Galactic Sprint's placement enumeration (shared by the
 * legal choices and the bots) and its two bot levels:
 *   random  uniform over the affordable placements, then a uniformly random
 *           payment and a random rival; uniform discards.
 *   basic   a one-ply heuristic in the spirit of the seed's advice: income
 *           early, VP later, explore when nothing placeable is worth it; it
 *           pays and discards with the cards it values least.
 * Bots read the state, never change it, and take randomness only from the
 * rng they are given.
 */
#include "engine/rules/sprint/sprint_internal.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------- enumeration -- */

typedef struct enum_ctx {
    const sprint_state *s;
    int seat;
    sprint_plan *out;
    int *costs;
    int n, max;
} enum_ctx;

static void try_plan(enum_ctx *e, const sprint_plan *p)
{
    sprint_cost c;
    if (sprint_plan_cost(e->s, e->seat, p, &c, NULL) != 0)
        return;
    int placed_from_hand = (p->dev != SPRINT_NONE) + (p->world != SPRINT_NONE) +
                           (p->convoy != SPRINT_NONE);
    if (c.total > e->s->p[e->seat].nhand - placed_from_hand)
        return;
    if (e->n < e->max) {
        e->out[e->n] = *p;
        if (e->costs)
            e->costs[e->n] = c.total;
    }
    e->n++;
}

/* Add the world options (with their modes and convoys) to a base plan. */
static void try_worlds(enum_ctx *e, sprint_plan base)
{
    const sprint_cardset *cs = sprint_cards();
    const sprint_player *pl = &e->s->p[e->seat];
    for (int i = 0; i < pl->nhand; i++) {
        int w = pl->hand[i];
        const sprint_design *d = sprint_design_of(cs, w);
        if (d->kind != SPRINT_WORLD)
            continue;
        int has_convoy = 0;
        for (int a = 0; a < d->nab; a++)
            has_convoy |= d->ab[a].type == SPRINT_AB_CONVOY;
        for (int m = 0; m < 2; m++) {
            if (!d->military_world && m == SPRINT_MODE_CONQUER)
                continue;
            sprint_plan p = base;
            p.world = (uint8_t)w;
            p.world_mode = (uint8_t)m;
            p.convoy = SPRINT_NONE;
            try_plan(e, &p);
            if (!has_convoy)
                continue;
            for (int j = 0; j < pl->nhand; j++) {
                int w2 = pl->hand[j];
                const sprint_design *d2 = sprint_design_of(cs, w2);
                if (w2 == w || d2->kind != SPRINT_WORLD)
                    continue;
                for (int m2 = 0; m2 < 2; m2++) {
                    if (!d2->military_world && m2 == SPRINT_MODE_CONQUER)
                        continue;
                    p.convoy = (uint8_t)w2;
                    p.convoy_mode = (uint8_t)m2;
                    try_plan(e, &p);
                }
            }
        }
    }
}

int sprint_enumerate(const sprint_state *s, int seat, sprint_plan *out,
                     int *costs, int max)
{
    const sprint_cardset *cs = sprint_cards();
    const sprint_player *pl = &s->p[seat];
    enum_ctx e = {s, seat, out, costs, 0, max};
    sprint_plan base;
    memset(&base, 0, sizeof base);
    base.dev = base.world = base.convoy = SPRINT_NONE;
    base.rival = -1;
    base.action = SPRINT_ACT_EXPLORE;
    try_plan(&e, &base);
    /* Developments: each in hand, and the survey card once per game. */
    for (int i = -1; i < pl->nhand; i++) {
        sprint_plan p = base;
        if (i < 0) {
            if (pl->survey_used)
                continue;
            p.survey = 1;
        } else {
            if (sprint_design_of(cs, pl->hand[i])->kind != SPRINT_DEVELOPMENT)
                continue;
            p.dev = pl->hand[i];
        }
        p.action = SPRINT_ACT_DEVELOP;
        try_plan(&e, &p);
        p.action = SPRINT_ACT_BOTH;
        try_worlds(&e, p);
    }
    sprint_plan p = base;
    p.action = SPRINT_ACT_SETTLE;
    try_worlds(&e, p);
    return e.n < max ? e.n : max;
}

/* ------------------------------------------------------------- random -- */

/* Choose k of the n ids uniformly (partial Fisher-Yates) into out. */
static void pick_k(engine_rng *rng, const uint8_t *ids, int n, int k,
                   uint8_t *out)
{
    uint8_t tmp[SPRINT_MAX_CARDS];
    memcpy(tmp, ids, (size_t)n);
    if (k > n) /* cannot happen for enumerated plans; stay in bounds */
        k = n;
    for (int i = 0; i < k; i++) {
        int j = i + (int)engine_rng_below(rng, (uint32_t)(n - i));
        uint8_t t = tmp[i];
        tmp[i] = tmp[j];
        tmp[j] = t;
        out[i] = tmp[i];
    }
}

/* The hand minus the cards a plan places. */
static int spare_cards(const sprint_player *pl, const sprint_plan *p,
                       uint8_t *out)
{
    int n = 0;
    for (int i = 0; i < pl->nhand; i++) {
        int c = pl->hand[i];
        if (c != p->dev && c != p->world && c != p->convoy)
            out[n++] = (uint8_t)c;
    }
    return n;
}

#define MAX_CANDIDATES 2048

static json_t *random_place(const sprint_state *s, int seat, engine_rng *rng)
{
    int costs[MAX_CANDIDATES];
    sprint_plan *cands = malloc(sizeof *cands * MAX_CANDIDATES);
    if (!cands)
        return NULL;
    int n = sprint_enumerate(s, seat, cands, costs, MAX_CANDIDATES);
    int k = (int)engine_rng_below(rng, (uint32_t)n);
    sprint_plan p = cands[k];
    free(cands);
    uint8_t spare[SPRINT_MAX_CARDS];
    int ns = spare_cards(&s->p[seat], &p, spare);
    pick_k(rng, spare, ns, costs[k], p.pay);
    p.npay = (uint8_t)costs[k];
    if (!s->solo && s->seats > 1 && s->edition == SPRINT_EDITION_NAMED_RIVAL) {
        int r = (int)engine_rng_below(rng, (uint32_t)(s->seats - 1));
        p.rival = (int8_t)(r >= seat ? r + 1 : r);
    }
    return sprint_plan_json(&p);
}

static json_t *discard_json(const uint8_t *ids, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_integer(ids[i]));
    return json_pack("{s:o}", "discard", a);
}

/* -------------------------------------------------------------- basic -- */

typedef struct outlook {
    int rl;    /* scorings left, this round's included */
    double cv; /* worth of one card in hand, in VP chips */
} outlook;

static outlook outlook_of(const sprint_state *s, int seat)
{
    outlook o;
    (void)seat;
    if (s->solo) {
        o.rl = s->max_rounds - s->round + 1;
    } else {
        /* Project every empire's VP growing by 3 a round until one reaches
         * the target. */
        int rl = 1;
        for (; rl < 10; rl++) {
            int done = 0;
            for (int i = 0; i < s->seats; i++) {
                int vp = sprint_empire_vp(s, i);
                long chips = s->p[i].chips;
                for (int r = 1; r <= rl; r++)
                    chips += vp + 3 * r;
                done |= chips >= s->target;
            }
            if (done)
                break;
        }
        o.rl = rl;
    }
    o.cv = 0.35 + 0.22 * (o.rl - 1);
    if (o.cv > 1.3)
        o.cv = 1.3;
    return o;
}

/* What a card is worth to keep in hand: a rough guess at what placing it
 * later brings, minus its price. */
static double keep_value(const sprint_design *d, const outlook *o)
{
    int later = o->rl - 1;
    if (later < 1)
        return 0.1 * d->vp;
    double v = d->vp * later + d->income * (later - 1) * o->cv +
               (d->military + d->explore) * 0.3 * later;
    for (int a = 0; a < d->nab; a++)
        v += 1.2 * later * 0.5;
    int price =
        d->kind == SPRINT_WORLD && d->military_world ? d->cost / 2 : d->cost;
    v -= price * o->cv;
    return v;
}

static double ability_bonus(const sprint_state *s, int seat,
                            const sprint_design *d, const outlook *o)
{
    const sprint_cardset *cs = sprint_cards();
    const sprint_player *pl = &s->p[seat];
    int later = o->rl - 1;
    double v = 0;
    if (later <= 0)
        return 0;
    int mil_in_hand = 0, worlds_in_hand = 0;
    for (int i = 0; i < pl->nhand; i++) {
        const sprint_design *h = sprint_design_of(cs, pl->hand[i]);
        mil_in_hand += h->kind == SPRINT_WORLD && h->military_world;
        worlds_in_hand += h->kind == SPRINT_WORLD;
    }
    int cap = later < 3 ? later : 3;
    v += d->military * (0.35 * cap + 0.25 * (mil_in_hand > 0) * cap);
    v += d->explore * 0.2 * cap;
    for (int a = 0; a < d->nab; a++) {
        const sprint_ability *ab = &d->ab[a];
        switch (ab->type) {
        case SPRINT_AB_DISCOUNT:
            v += ab->amount * 0.6 * cap * o->cv;
            break;
        case SPRINT_AB_MILITARY_VS:
            v += ab->amount * 0.25 * cap;
            break;
        case SPRINT_AB_PAY_MILITARY:
            v += (mil_in_hand ? 1.0 : 0.3) * cap * o->cv;
            break;
        case SPRINT_AB_TOP_MILITARY:
            v += ab->amount * 0.5 * later * o->cv;
            break;
        case SPRINT_AB_VP_PER:
            /* It grows as the empire grows. */
            v += ab->amount * 0.5 * later / ab->every;
            break;
        default:
            break;
        }
    }
    (void)worlds_in_hand;
    return v;
}

static double place_value(const sprint_state *s, int seat, const sprint_plan *p,
                          int cost, const outlook *o, int rival)
{
    const sprint_cardset *cs = sprint_cards();
    const sprint_player *pl = &s->p[seat];
    if (p->action == SPRINT_ACT_EXPLORE) {
        int icons = sprint_empire_explore(s, seat) + SPRINT_EXPLORE_MARKER;
        double v = 2 * o->cv + 0.12 * icons * o->cv;
        if (pl->nhand <= 2)
            v += 1.5 * o->cv;
        return v;
    }
    uint8_t emp[SPRINT_MAX_CARDS];
    int n = pl->nempire;
    memcpy(emp, pl->empire, (size_t)n);
    uint8_t added[3];
    int na = 0;
    if (p->survey)
        added[na++] = (uint8_t)(cs->ndeck + seat);
    else if (p->dev != SPRINT_NONE)
        added[na++] = p->dev;
    if (p->world != SPRINT_NONE)
        added[na++] = p->world;
    if (p->convoy != SPRINT_NONE)
        added[na++] = p->convoy;
    for (int i = 0; i < na; i++)
        emp[n++] = added[i];
    const sprint_player *rp = rival >= 0 ? &s->p[rival] : NULL;
    int vp0 = sprint_list_vp(cs, pl->empire, pl->nempire,
                             rp ? rp->empire : NULL, rp ? rp->nempire : 0);
    int vp1 = sprint_list_vp(cs, emp, n, rp ? rp->empire : NULL,
                             rp ? rp->nempire : 0);
    int in0 = sprint_list_income(cs, pl->empire, pl->nempire);
    int in1 = sprint_list_income(cs, emp, n);
    int later = o->rl - 1;
    double v = (vp1 - vp0) * o->rl + (in1 - in0) * later * o->cv;
    for (int i = 0; i < na; i++)
        v += ability_bonus(s, seat, sprint_design_of(cs, added[i]), o);
    v -= cost * o->cv;
    v -= (na - p->survey) * 0.15 * o->cv; /* the cards themselves */
    /* An empty hand next round leaves nothing to pay with. */
    int left = pl->nhand - (na - p->survey) - cost + in1 +
               (p->action == SPRINT_ACT_SETTLE);
    if (later > 0 && left < 4)
        v -= (4 - left) * 0.6 * o->cv;
    if (p->action == SPRINT_ACT_SETTLE)
        v += o->cv; /* the bonus draw */
    return v;
}

/* Sort ids by keep value, lowest first. */
static void sort_by_keep(const sprint_state *s, int seat, uint8_t *ids, int n,
                         const outlook *o)
{
    const sprint_cardset *cs = sprint_cards();
    double val[SPRINT_MAX_CARDS];
    (void)seat;
    (void)s;
    for (int i = 0; i < n; i++)
        val[i] = keep_value(sprint_design_of(cs, ids[i]), o);
    for (int i = 1; i < n; i++) { /* insertion sort: n is small */
        uint8_t c = ids[i];
        double x = val[i];
        int j = i - 1;
        while (j >= 0 && val[j] > x) {
            ids[j + 1] = ids[j];
            val[j + 1] = val[j];
            j--;
        }
        ids[j + 1] = c;
        val[j + 1] = x;
    }
}

static int best_rival(const sprint_state *s, int seat)
{
    const sprint_cardset *cs = sprint_cards();
    const sprint_player *pl = &s->p[seat];
    if (s->solo)
        return -1;
    int best = -1, bestv = -1;
    for (int r = 0; r < s->seats; r++) {
        if (r == seat)
            continue;
        int v = sprint_list_vp(cs, pl->empire, pl->nempire, s->p[r].empire,
                               s->p[r].nempire);
        if (v > bestv) {
            bestv = v;
            best = r;
        }
    }
    return best;
}

static json_t *basic_place(const sprint_state *s, int seat)
{
    int costs[MAX_CANDIDATES];
    sprint_plan *cands = malloc(sizeof *cands * MAX_CANDIDATES);
    if (!cands)
        return NULL;
    outlook o = outlook_of(s, seat);
    int rival = best_rival(s, seat);
    int n = sprint_enumerate(s, seat, cands, costs, MAX_CANDIDATES);
    int best = 0;
    double bestv = -1e9;
    for (int i = 0; i < n; i++) {
        double v = place_value(s, seat, &cands[i], costs[i], &o, rival);
        if (v > bestv + 1e-9) {
            bestv = v;
            best = i;
        }
    }
    sprint_plan p = cands[best];
    free(cands);
    uint8_t spare[SPRINT_MAX_CARDS];
    int ns = spare_cards(&s->p[seat], &p, spare);
    sort_by_keep(s, seat, spare, ns, &o);
    memcpy(p.pay, spare, (size_t)costs[best]);
    p.npay = (uint8_t)costs[best];
    if (rival >= 0 && rival != s->p[seat].rival &&
        s->edition == SPRINT_EDITION_NAMED_RIVAL)
        p.rival = (int8_t)rival;
    return sprint_plan_json(&p);
}

json_t *sprint_bot_order(const sprint_state *s, int seat, const char *level,
                         engine_rng *rng)
{
    int basic;
    if (!level || strcmp(level, "random") == 0)
        basic = 0;
    else if (strcmp(level, "basic") == 0)
        basic = 1;
    else
        return NULL;
    if (s->over || !(sprint_window_seats(s) >> seat & 1))
        return NULL;
    if (s->phase == SPRINT_PHASE_PLACE)
        return basic ? basic_place(s, seat) : random_place(s, seat, rng);
    const sprint_player *pl = &s->p[seat];
    uint8_t ids[SPRINT_MAX_CARDS], out[SPRINT_MAX_CARDS];
    memcpy(ids, pl->hand, pl->nhand);
    if (basic) {
        outlook o = outlook_of(s, seat);
        o.rl = o.rl > 1 ? o.rl - 1 : 1; /* discards are for next round */
        sort_by_keep(s, seat, ids, pl->nhand, &o);
        return discard_json(ids, pl->must_discard);
    }
    pick_k(rng, ids, pl->nhand, pl->must_discard, out);
    return discard_json(out, pl->must_discard);
}

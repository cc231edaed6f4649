/*
 * council_action.c - Galactic Council's action phase: checking an action
 * order (an object of order parts keyed by fleet or system) and resolving
 * the locked window: every seat's parts in initiative order, each part's
 * steps in turn, with conditional steps decided by what resolution finds.
 * Movement explores, moves trigger space combat on arrival, a fleet that
 * ends its part in a sector meets its system marker, landings pick their
 * planets at resolution (trigger and blind landings). A step that cannot
 * be carried out is skipped and the seat alone is told why.
 */
#include "engine/rules/council/council_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct part_ctx {
    cnc_state *s;
    engine_ctx *ctx;
    const cnc_data *d;
    int seat, here, inspected, survived;
    const cnc_order *o;
    uint8_t entered[CNC_MAX_SECTORS];
} part_ctx;

static int key_ok(const char *k)
{
    size_t n = strlen(k);
    if (n == 0 || n >= CNC_PART_KEY_MAX)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!((k[i] >= 'a' && k[i] <= 'z') || (k[i] >= '0' && k[i] <= '9') ||
              k[i] == '_'))
            return 0;
    return 1;
}

/* The most seat's ships could move further than their speed this round,
 * from what the seat knows (ours: an upper bound, so that a move it
 * could still make is never refused): its drives, the drives it could
 * research this round (holding Research, or following it with a
 * strategy token), and the extra moves of the cards in its hand. */
int cnc_reach_bonus_bound(const cnc_state *s, int seat)
{
    const cnc_data *d = cnc_data_get();
    int bonus = cnc_has_tech_effect(s, seat, CNC_TECH_MOVE), more = 0, most = 0,
        chances = 0;
    for (int t = 0; t < d->ntechs; t++)
        if (!s->p[seat].techs[t] && d->techs[t].effect == CNC_TECH_MOVE) {
            more += d->techs[t].amount;
            most = d->techs[t].amount > most ? d->techs[t].amount : most;
        }
    for (int p = 0; p < s->seats; p++) {
        int c = (int)s->p[p].card;
        if (c < 0 || d->strategies[c].ability != CNC_STRAT_TECHNOLOGY)
            continue;
        chances += p == seat ? !s->p[p].card_used : s->p[seat].strategy > 0;
    }
    bonus += chances * most < more ? chances * most : more;
    for (int a = 0; a < d->nactions; a++)
        if (d->actions[a].effect == CNC_AFX_EXTRA_MOVE)
            bonus += s->p[seat].hand[a] * d->actions[a].amount;
    return bonus + s->x[seat].extra_move;
}

/* A move step beyond what its slowest named ship could ever reach this
 * round: the distance and speeds are public, the bound is the seat's. */
static int move_out_of_reach(const cnc_state *s, int seat, const cnc_step *st,
                             int *dist, int *reach)
{
    const cnc_data *d = cnc_data_get();
    int speed = 99;
    for (int u = 0; u < d->nunits; u++)
        if (d->units[u].kind == CNC_UNIT_SHIP && st->units[u] &&
            d->units[u].move < speed)
            speed = (int)d->units[u].move;
    if (speed == 99)
        return 0; /* no ship named: resolution says so */
    *dist = cnc_hex_distance(st->sector, st->to);
    *reach = speed + cnc_reach_bonus_bound(s, seat);
    return *dist > *reach;
}

int cnc_action_check(const cnc_state *s, int seat, const json_t *order,
                     engine_error *err)
{
    if (json_object_size(order) > CNC_MAX_PARTS)
        return engine_fail(err, ENGINE_EINVALID, "", "at most %d order parts",
                           CNC_MAX_PARTS);
    const char *k;
    const json_t *v;
    json_object_foreach((json_t *)order, k, v)
    {
        if (!key_ok(k))
            return engine_fail(err, ENGINE_EINVALID, "",
                               "order part keys are 1 to 16 of a-z, 0-9, _ "
                               "(a fleet f3 or a system s12)");
        cnc_order o;
        engine_error e = {0};
        if (cnc_order_parse(cnc_data_get(), &s->g, v, &o, &e) != 0) {
            char field[64];
            snprintf(field, sizeof field, "%.16s%s%.40s", k,
                     e.field[0] == '[' || !e.field[0] ? "" : ".", e.field);
            return engine_fail(err, e.code, field, "%s: %.200s", k, e.msg);
        }
        for (int i = 0; seat >= 0 && i < o.nsteps; i++) {
            int dist = 0, reach = 0;
            const cnc_step *st = &o.steps[i];
            if (st->type == CNC_STEP_MOVE &&
                move_out_of_reach(s, seat, st, &dist, &reach))
                return engine_fail(
                    err, ENGINE_EINVALID, k,
                    "%s: the move from (%d, %d) to (%d, %d) is %d sectors; "
                    "the slowest ship named reaches at most %d this round",
                    k, st->sector.q, st->sector.r, st->to.q, st->to.r, dist,
                    reach);
        }
    }
    return 0;
}

void cnc_gain_tg(cnc_state *s, int seat, int n)
{
    const cnc_race *r = &cnc_data_get()->races[s->p[seat].race];
    if (n > 0 && r->special == CNC_RACE_TRADE_BONUS)
        n += r->special_amount;
    s->p[seat].tg = (int16_t)(s->p[seat].tg + n);
}

int cnc_has_tech_effect(const cnc_state *s, int seat, int effect)
{
    const cnc_data *d = cnc_data_get();
    int sum = 0;
    for (int t = 0; t < d->ntechs; t++)
        if (s->p[seat].techs[t] && d->techs[t].effect == effect)
            sum += d->techs[t].amount;
    return sum;
}

int cnc_ships_in(const cnc_state *s, int seat, int sector)
{
    const cnc_data *d = cnc_data_get();
    int n = 0;
    for (int u = 0; u < d->nunits; u++)
        if (d->units[u].kind == CNC_UNIT_SHIP)
            n += s->g.sec[sector].units[seat][u];
    return n;
}

int cnc_units_in(const cnc_state *s, int seat, int sector)
{
    int n = 0;
    for (int u = 0; u < CNC_MAX_UNITS; u++)
        n += s->g.sec[sector].units[seat][u];
    return n;
}

/* Tell the acting seat why a step did nothing. */
static int fail(part_ctx *pc, const char *step, const char *why)
{
    cnc_log_seats(pc->ctx, 1u << pc->seat,
                  json_pack("{s:s, s:s, s:s}", "type", "step_failed", "step",
                            step, "why", why));
    return -1;
}

static json_t *hex_json(const cnc_galaxy *g, int x)
{
    return json_pack("[i, i]", g->sec[x].hex.q, g->sec[x].hex.r);
}

static void log_explored(part_ctx *pc, int x)
{
    cnc_log(pc->ctx, json_pack("{s:s, s:o}", "type", "explored", "sector",
                               hex_json(&pc->s->g, x)));
}

/* The seat's command token in sector x: there already, or spend one from
 * the tactic pool. */
static int activate(part_ctx *pc, int x)
{
    cnc_state *s = pc->s;
    if (s->tokens[x] >> pc->seat & 1)
        return 0;
    if (s->p[pc->seat].tactic <= 0)
        return fail(pc, "activate", "no command token in the tactic pool");
    s->p[pc->seat].tactic--;
    s->tokens[x] = (uint8_t)(s->tokens[x] | 1u << pc->seat);
    return 0;
}

static int enemy_ships(const cnc_state *s, int seat, int x)
{
    const cnc_data *d = cnc_data_get();
    for (int p = 0; p < s->seats; p++)
        for (int u = 0; p != seat && u < d->nunits; u++)
            if (d->units[u].kind != CNC_UNIT_GROUND && s->g.sec[x].units[p][u])
                return 1;
    return 0;
}

/* Units moved out of from into to, damaged ones last. */
static void transfer(cnc_state *s, int seat, int from, int to, const uint8_t *k)
{
    for (int u = 0; u < CNC_MAX_UNITS; u++) {
        if (!k[u])
            continue;
        uint8_t *n = &s->g.sec[from].units[seat][u];
        uint8_t *dm = &s->damaged[from][seat][u];
        int hurt = k[u] - (*n - *dm);
        if (hurt < 0)
            hurt = 0;
        *n = (uint8_t)(*n - k[u]);
        *dm = (uint8_t)(*dm - hurt);
        s->g.sec[to].units[seat][u] =
            (uint8_t)(s->g.sec[to].units[seat][u] + k[u]);
        s->damaged[to][seat][u] = (uint8_t)(s->damaged[to][seat][u] + hurt);
    }
}

/* Arrival in x: exploration by ships, then space combat. */
static void arrive(part_ctx *pc, int x)
{
    cnc_state *s = pc->s;
    pc->here = x;
    pc->entered[x] = 1;
    if (cnc_fog_explore_by_ships(&s->fog, pc->seat, x, s->round))
        log_explored(pc, x);
    if (enemy_ships(s, pc->seat, x))
        cnc_space_combat(s, pc->ctx, pc->seat, x);
    pc->survived = cnc_ships_in(s, pc->seat, x) > 0;
}

/* Troopers seat may take up from its planets in sector x, leaving one on
 * each (ours). */
static int liftable(const cnc_state *s, int seat, int x)
{
    int n = 0;
    for (int p = 0; p < CNC_MAX_PLANETS; p++)
        if (s->g.sec[x].owner[p] == seat && s->g.sec[x].ground[p] > 1)
            n += s->g.sec[x].ground[p] - 1;
    return n;
}

static void lift(cnc_state *s, int seat, int x, int u, int n)
{
    cnc_sector *sec = &s->g.sec[x];
    for (int p = 0; p < CNC_MAX_PLANETS && n > 0; p++)
        while (sec->owner[p] == seat && sec->ground[p] > 1 && n > 0) {
            sec->ground[p]--;
            sec->units[seat][u]++;
            n--;
        }
}

/* Steps of the shortest way from `from` to `to` for seat's ships (ours):
 * a sector holding another player's ships may be entered only as the
 * last step (enemy fleets block the way through); -1 when there is none
 * within limit. */
static int open_path(const cnc_state *s, int seat, int from, int to, int limit)
{
    int dist[CNC_MAX_SECTORS], queue[CNC_MAX_SECTORS], head = 0, tail = 0;
    for (int x = 0; x < s->g.nsectors; x++)
        dist[x] = -1;
    dist[from] = 0;
    queue[tail++] = from;
    while (head < tail) {
        int x = queue[head++];
        if (x == to)
            return dist[x];
        if (dist[x] >= limit || (x != from && enemy_ships(s, seat, x)))
            continue; /* no further, or blocked: stop here */
        int nb[6], n = cnc_sector_neighbors(&s->g, x, nb);
        for (int i = 0; i < n; i++)
            if (dist[nb[i]] < 0) {
                dist[nb[i]] = dist[x] + 1;
                queue[tail++] = nb[i];
            }
    }
    return -1;
}

static int step_move(part_ctx *pc, const cnc_step *st)
{
    cnc_state *s = pc->s;
    const cnc_data *d = pc->d;
    int from = cnc_sector_at(&s->g, st->sector),
        to = cnc_sector_at(&s->g, st->to);
    uint8_t k[CNC_MAX_UNITS] = {0};
    int ships = 0, speed = 99, cap = 0;
    for (int u = 0; u < d->nunits; u++) {
        int have = s->g.sec[from].units[pc->seat][u];
        k[u] = (uint8_t)(st->units[u] < have ? st->units[u] : have);
        if (d->units[u].kind != CNC_UNIT_SHIP || !k[u])
            continue;
        ships += k[u];
        if (d->units[u].move < speed)
            speed = (int)d->units[u].move;
        cap +=
            k[u] * (d->units[u].capacity +
                    (d->units[u].capacity > 1
                         ? cnc_has_tech_effect(s, pc->seat, CNC_TECH_CAPACITY)
                         : 0));
    }
    if (!ships)
        return fail(pc, "move", "no ship of yours to move there");
    int reach = speed + cnc_has_tech_effect(s, pc->seat, CNC_TECH_MOVE);
    if (from == to || cnc_sector_distance(&s->g, from, to) >
                          reach + s->x[pc->seat].extra_move)
        return fail(pc, "move", "too far for the slowest ship");
    int dist =
        open_path(s, pc->seat, from, to, reach + s->x[pc->seat].extra_move);
    if (dist < 0)
        return fail(pc, "move", "enemy ships block every way there");
    if (dist > reach) /* Forced March and the like, spent */
        s->x[pc->seat].extra_move = 0;
    if (activate(pc, to))
        return -1;
    for (int u = 0; u < d->nunits; u++)
        if (d->units[u].kind == CNC_UNIT_GROUND) {
            int want = st->units[u] < k[u] + liftable(s, pc->seat, from)
                           ? st->units[u]
                           : k[u] + liftable(s, pc->seat, from);
            int space = k[u];
            k[u] = (uint8_t)(want < cap ? want : cap);
            cap -= k[u];
            if (k[u] > space)
                lift(s, pc->seat, from, u, k[u] - space);
        }
    for (int u = 0; u < d->nunits; u++)
        if (d->units[u].kind == CNC_UNIT_FIGHTER) {
            k[u] = (uint8_t)(k[u] < cap ? k[u] : cap);
            cap -= k[u];
        }
    transfer(s, pc->seat, from, to, k);
    arrive(pc, to);
    return 0;
}

static int step_retreat(part_ctx *pc, const cnc_step *st)
{
    cnc_state *s = pc->s;
    int to = cnc_sector_at(&s->g, st->to);
    if (pc->here < 0 || cnc_ships_in(s, pc->seat, pc->here) == 0)
        return fail(pc, "retreat", "no ship of yours here");
    if (cnc_sector_distance(&s->g, pc->here, to) != 1)
        return fail(pc, "retreat", "retreat only to an adjacent sector");
    uint8_t k[CNC_MAX_UNITS];
    memcpy(k, s->g.sec[pc->here].units[pc->seat], sizeof k);
    transfer(s, pc->seat, pc->here, to, k);
    arrive(pc, to);
    return 0;
}

static int step_land(part_ctx *pc, const cnc_step *st)
{
    cnc_state *s = pc->s;
    int x = st->has_sector ? cnc_sector_at(&s->g, st->sector) : pc->here;
    if (x < 0)
        return fail(pc, "land", "no sector to land in");
    if (enemy_ships(s, pc->seat, x))
        return fail(pc, "land", "enemy ships guard the sector");
    int picked[CNC_MAX_PLANETS];
    int np = cnc_select_planets(pc->d, &s->g, x, &st->planet, picked);
    int tu = cnc_unit_index(pc->d, "trooper");
    int have = s->g.sec[x].units[pc->seat][tu];
    int n = st->troops == CNC_TROOPS_ALL ? have
            : st->troops < have          ? st->troops
                                         : have;
    if (np == 0 || n == 0)
        return fail(pc, "land",
                    np ? "no troopers of yours in space there"
                       : "no such planet there");
    for (int i = 0; i < np; i++) {
        int share = n / np + (i < n % np);
        if (!share)
            continue;
        s->g.sec[x].units[pc->seat][tu] =
            (uint8_t)(s->g.sec[x].units[pc->seat][tu] - share);
        cnc_land_on(s, pc->ctx, pc->seat, x, picked[i], share);
    }
    return 0;
}

static int step_produce(part_ctx *pc, const cnc_step *st)
{
    cnc_state *s = pc->s;
    const cnc_data *d = pc->d;
    int x = cnc_sector_at(&s->g, st->sector);
    const cnc_system *t = cnc_sector_tile(d, &s->g, x);
    int mine = 0, count = 0, cost = 0;
    for (int p = 0; p < t->nplanets; p++)
        mine |= s->g.sec[x].owner[p] == pc->seat;
    if (!mine)
        return fail(pc, "produce", "you control no planet there");
    for (int u = 0; u < d->nunits; u++) {
        count += st->units[u];
        cost += (st->units[u] + d->units[u].per - 1) / d->units[u].per *
                d->units[u].cost;
    }
    const cnc_race *r = &d->races[s->p[pc->seat].race];
    int max = CNC_BASE_PRODUCTION +
              cnc_has_tech_effect(s, pc->seat, CNC_TECH_PRODUCTION) +
              (r->special == CNC_RACE_SHIPWRIGHT ? r->special_amount : 0);
    if (count > max)
        return fail(pc, "produce", "more units than one production makes");
    for (int p = 0; p < s->seats; p++)
        if (p != pc->seat && (s->sabotaged[x] >> p & 1)) {
            s->sabotaged[x] = (uint8_t)(s->sabotaged[x] & ~(1u << p));
            return fail(pc, "produce", "the yards there were sabotaged");
        }
    /* A production it cannot pay for is refused before the activation:
     * a refused step spends nothing, its command token included. */
    if (!cnc_can_pay_resources(s, pc->seat, cost))
        return fail(pc, "produce", "not enough resources");
    if (!s->p[pc->seat].free_produce && activate(pc, x))
        return -1;
    if (cnc_pay_resources(s, pc->seat, cost))
        return fail(pc, "produce", "not enough resources");
    for (int u = 0; u < d->nunits; u++)
        s->g.sec[x].units[pc->seat][u] =
            (uint8_t)(s->g.sec[x].units[pc->seat][u] + st->units[u]);
    pc->here = x;
    return 0;
}

/* The marker a step or scan names in explored sector x (-1: none known). */
static int marker_at(const part_ctx *pc, int x, const cnc_planet_sel *sel)
{
    if (sel->how == CNC_PL_SYSTEM)
        return pc->s->g.sec[x].marker;
    int picked[CNC_MAX_PLANETS];
    int n = cnc_select_planets(pc->d, &pc->s->g, x, sel, picked);
    return n ? pc->s->g.sec[x].planet_marker[picked[0]] : -1;
}

static void tell_marker(part_ctx *pc, int m)
{
    const cnc_marker *k = &pc->s->g.markers[m];
    cnc_log_seats(pc->ctx, 1u << pc->seat,
                  json_pack("{s:s, s:o, s:i, s:s}", "type", "inspected",
                            "sector", hex_json(&pc->s->g, k->sector), "planet",
                            k->planet, "marker", pc->d->markers[k->kind].key));
}

static int step_inspect(part_ctx *pc, const cnc_step *st)
{
    cnc_state *s = pc->s;
    int x = st->has_sector ? cnc_sector_at(&s->g, st->sector) : pc->here;
    if (x < 0 || cnc_ships_in(s, pc->seat, x) == 0)
        return fail(pc, "inspect", "inspecting needs your ships there");
    int m = marker_at(pc, x, &st->planet);
    pc->inspected = m;
    if (m < 0 || s->g.markers[m].state != CNC_MK_HIDDEN)
        return 0;
    cnc_fog_inspect(&s->fog, pc->seat, m);
    tell_marker(pc, m);
    return 0;
}

static int step_explore(part_ctx *pc, const cnc_step *st)
{
    cnc_state *s = pc->s;
    int x = cnc_sector_at(&s->g, st->sector);
    const cnc_race *r = &pc->d->races[s->p[pc->seat].race];
    int discount =
        r->special == CNC_RACE_CHEAP_EXPLORE && s->fog.explores[pc->seat] == 0
            ? r->special_amount
            : 0;
    if (s->x[pc->seat].free_explore)
        discount = cnc_fog_explore_cost(&s->fog, pc->seat);
    int tg = s->p[pc->seat].tg + discount;
    engine_error e = {0};
    if (cnc_fog_explore_paid(&s->g, &s->fog, pc->seat, x, s->round, &tg, &e))
        return fail(pc, "explore", e.msg);
    s->p[pc->seat].tg =
        (int16_t)(tg < s->p[pc->seat].tg ? tg : s->p[pc->seat].tg);
    s->x[pc->seat].free_explore = 0;
    log_explored(pc, x);
    return 0;
}

static int step_scan(part_ctx *pc, const cnc_step *st)
{
    cnc_state *s = pc->s;
    int x = cnc_sector_at(&s->g, st->sector);
    cnc_fog_target t = {-1, -1};
    if (s->fog.explored[x])
        t.marker = marker_at(pc, x, &st->planet);
    else
        t.sector = x;
    if (t.sector < 0 && t.marker < 0)
        return fail(pc, "scan", "no marker there");
    engine_error e = {0};
    if (cnc_fog_scan(pc->d, &s->g, &s->fog, pc->seat, t, s->round, &e))
        return fail(pc, "scan", e.msg);
    if (t.sector >= 0)
        log_explored(pc, x);
    else
        tell_marker(pc, t.marker);
    return 0;
}

/* The marker a discard or play step names: its sector (or where the order
 * stands) and planet; with neither, the marker the part inspected last. */
static int named_marker(const part_ctx *pc, const cnc_step *st, int *x)
{
    *x = st->has_sector ? cnc_sector_at(&pc->s->g, st->sector) : pc->here;
    if (!st->has_sector && !st->has_planet)
        return pc->inspected;
    return *x >= 0 ? marker_at(pc, *x, &st->planet) : -1;
}

/* The Quillan special: once a round, free, inspect a hidden marker in an
 * explored sector within the race's reach of its ships or planets. */
static int step_lore(part_ctx *pc, const cnc_step *st)
{
    cnc_state *s = pc->s;
    const cnc_race *r = &pc->d->races[s->p[pc->seat].race];
    int x = cnc_sector_at(&s->g, st->sector), near = 0;
    if (r->special != CNC_RACE_MARKER_LORE)
        return fail(pc, "lore", "only the Quillan have this special");
    if (s->x[pc->seat].lore_used)
        return fail(pc, "lore", "already used this round");
    for (int y = 0; y < s->g.nsectors && !near; y++) {
        int mine = cnc_ships_in(s, pc->seat, y) > 0;
        for (int p = 0; p < CNC_MAX_PLANETS; p++)
            mine |= s->g.sec[y].owner[p] == pc->seat;
        near = mine && cnc_sector_distance(&s->g, x, y) <= r->special_amount;
    }
    if (!near || !s->fog.explored[x])
        return fail(pc, "lore",
                    "the sector must be explored and next to "
                    "your ships or planets");
    int m = marker_at(pc, x, &st->planet);
    if (m < 0 || s->g.markers[m].state != CNC_MK_HIDDEN)
        return fail(pc, "lore", "no hidden marker there");
    s->x[pc->seat].lore_used = 1;
    pc->inspected = m;
    cnc_fog_inspect(&s->fog, pc->seat, m);
    tell_marker(pc, m);
    return 0;
}

/* Remember a standing combat retreat (the same sector and destination
 * once). */
static void standing_retreat(cnc_state *s, int seat, const cnc_step *st)
{
    int x = cnc_sector_at(&s->g, st->sector), to = cnc_sector_at(&s->g, st->to);
    cnc_standing *free = NULL;
    for (int i = 0; i < CNC_MAX_STANDING; i++) {
        cnc_standing *r = &s->x[seat].retreat[i];
        if (r->used && r->sector == x && r->to == to) {
            r->after = st->after;
            return;
        }
        if (!r->used && !free)
            free = r;
    }
    if (free)
        *free = (cnc_standing){1, (int8_t)x, (int8_t)to, st->after};
}

/* The steps added after "if"; *why set when one fails. */
static void run_more(part_ctx *pc, const cnc_step *st, const char **why)
{
    cnc_state *s = pc->s;
    int x = -1, m;
    switch (st->type) {
    case CNC_STEP_DISCARD:
        m = named_marker(pc, st, &x);
        cnc_discard(s, pc->ctx, pc->seat, m, why);
        break;
    case CNC_STEP_TOKENS:
        s->x[pc->seat].plan = 1;
        memcpy(s->x[pc->seat].pools, st->pools, sizeof st->pools);
        break;
    case CNC_STEP_SCORE: /* the last one resolved counts, kind by kind */
        if (st->score_has & 1)
            memcpy(s->x[pc->seat].score_public, st->score_public,
                   sizeof st->score_public);
        if (st->score_has & 2)
            memcpy(s->x[pc->seat].score_secret, st->score_secret,
                   sizeof st->score_secret);
        s->x[pc->seat].score_given |= st->score_has;
        break;
    case CNC_STEP_COMBAT_RETREAT:
        standing_retreat(s, pc->seat, st);
        break;
    case CNC_STEP_PLAY:
        m = named_marker(pc, st, &x);
        if (!st->has_sector && !st->has_planet)
            m = x >= 0 ? s->g.sec[x].marker : -1;
        cnc_play_card(s, pc->ctx, pc->seat, st, x, m, why);
        break;
    case CNC_STEP_FOLLOW:
        cnc_follow(s, pc->ctx, pc->seat, st, why);
        break;
    case CNC_STEP_SHARE:
        if (st->other == pc->seat) {
            *why = "you always see what you see";
            break;
        }
        cnc_fog_set_share(&s->fog, pc->seat, st->other, st->on);
        cnc_log_seats(pc->ctx, 1u << pc->seat | 1u << st->other,
                      json_pack("{s:s, s:i, s:i, s:b}", "type", "share_vision",
                                "seat", pc->seat, "with", st->other, "on",
                                st->on));
        break;
    default:
        step_lore(pc, st);
        break;
    }
}

static void run_list(part_ctx *pc, int i);

/* Whether the seat can tell, at this point of resolution, if condition k
 * holds in sector x: its tile once explored, a marker it knows, units where
 * it sees them. A condition it cannot tell is not met, "not" or not (it
 * runs the else steps whatever the galaxy hides). */
static int cond_known(const part_ctx *pc, const cnc_cond *k, int x)
{
    const cnc_state *s = pc->s;
    int explored = s->fog.explored[x], m = pc->inspected;
    switch (k->type) {
    case CNC_COND_FLEET_SURVIVED:
        return 1;
    case CNC_COND_MARKER_IS:
        if (k->has_planet) {
            int picked[CNC_MAX_PLANETS];
            if (!explored)
                return 0;
            m = cnc_select_planets(pc->d, &s->g, x, &k->planet, picked) > 0
                    ? s->g.sec[x].planet_marker[picked[0]]
                    : -1;
        }
        return m < 0 || cnc_fog_knows_marker(&s->g, &s->fog, pc->seat, m);
    case CNC_COND_ENEMY_SHIPS:
        return explored && cnc_fog_visible(&s->g, &s->fog, pc->seat, x);
    case CNC_COND_HOLDS:
        if (k->what == CNC_HOLDS_ENEMY_TROOPS)
            return explored && cnc_fog_visible(&s->g, &s->fog, pc->seat, x);
        return explored;
    default: /* influence_at_least */
        return explored;
    }
}

static void run_step(part_ctx *pc, const cnc_step *st)
{
    cnc_state *s = pc->s;
    const char *why = NULL;
    switch (st->type) {
    case CNC_STEP_ACTIVATE: {
        int x = cnc_sector_at(&s->g, st->sector);
        if (activate(pc, x) == 0)
            pc->here = x;
        break;
    }
    case CNC_STEP_MOVE:
        step_move(pc, st);
        break;
    case CNC_STEP_LAND:
        step_land(pc, st);
        break;
    case CNC_STEP_PRODUCE:
        step_produce(pc, st);
        break;
    case CNC_STEP_STRATEGY:
        if (cnc_strategy_step(s, pc->ctx, pc->seat, st, &pc->inspected, &why))
            fail(pc, "strategy", why);
        break;
    case CNC_STEP_INSPECT:
        step_inspect(pc, st);
        break;
    case CNC_STEP_RETREAT:
        step_retreat(pc, st);
        break;
    case CNC_STEP_EXPLORE:
        step_explore(pc, st);
        break;
    case CNC_STEP_SCAN:
        step_scan(pc, st);
        break;
    case CNC_STEP_IF: {
        /* "it is hostile" about the marker inspected last needs no sector
         * (an espionage pick stands nowhere). */
        int where = pc->here;
        if (where < 0 && st->cond.type == CNC_COND_MARKER_IS &&
            !st->cond.has_planet && pc->inspected >= 0)
            where = (int)s->g.markers[pc->inspected].sector;
        cnc_cond_ctx c = {pc->seat, where, pc->inspected, pc->survived};
        int at =
            st->cond.has_sector ? cnc_sector_at(&s->g, st->cond.sector) : where;
        int yes = at < 0 ? st->cond.negate
                  : cond_known(pc, &st->cond, at)
                      ? cnc_cond_eval(pc->d, &s->g, &st->cond, &c)
                      : 0;
        run_list(pc, yes ? st->then_first : st->else_first);
        break;
    }
    case CNC_STEP_HOLD:
        break;
    default:
        run_more(pc, st, &why);
        if (why)
            fail(pc, cnc_step_name(st->type), why);
        break;
    }
}

static void run_list(part_ctx *pc, int i)
{
    for (; i >= 0; i = pc->o->steps[i].next)
        run_step(pc, &pc->o->steps[i]);
}

void cnc_resolve_part(cnc_state *s, engine_ctx *ctx, int seat,
                      const cnc_order *o)
{
    part_ctx pc = {.s = s,
                   .ctx = ctx,
                   .d = cnc_data_get(),
                   .seat = seat,
                   .here = -1,
                   .inspected = -1,
                   .survived = 1,
                   .o = o};
    run_list(&pc, o->first);
    /* A fleet that ends its part in a sector meets its system marker. */
    for (int x = 0; x < s->g.nsectors; x++)
        if (pc.entered[x] && cnc_ships_in(s, seat, x) > 0)
            cnc_system_marker(s, ctx, seat, x);
    cnc_fog_observe(&s->g, &s->fog, s->round);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* One seat's order: its parts in key order. */
static void resolve_order(cnc_state *s, engine_ctx *ctx, int seat,
                          const json_t *order)
{
    const char *keys[CNC_MAX_PARTS] = {0};
    size_t n = 0;
    const char *k;
    const json_t *v;
    json_object_foreach((json_t *)order, k, v)
    {
        if (n < CNC_MAX_PARTS)
            keys[n++] = k;
    }
    qsort(keys, n, sizeof keys[0], cmp_str);
    for (size_t i = 0; i < n; i++) {
        cnc_order o;
        if (cnc_order_parse(cnc_data_get(), &s->g,
                            json_object_get(order, keys[i]), &o, NULL) == 0)
            cnc_resolve_part(s, ctx, seat, &o);
    }
}

/* Standing combat retreats given at the top level of any part hold from
 * the start of resolution, so they protect a fleet attacked before its
 * own parts resolve. */
static void standing_orders(cnc_state *s, int seat, const json_t *order)
{
    const char *k;
    const json_t *v;
    json_object_foreach((json_t *)order, k, v)
    {
        cnc_order o;
        if (cnc_order_parse(cnc_data_get(), &s->g, v, &o, NULL) != 0)
            continue;
        for (int i = o.first; i >= 0; i = o.steps[i].next)
            if (o.steps[i].type == CNC_STEP_COMBAT_RETREAT)
                standing_retreat(s, seat, &o.steps[i]);
    }
}

void cnc_action_resolve(cnc_state *s, engine_ctx *ctx,
                        const json_t *const *orders)
{
    int order[ENGINE_MAX_SEATS];
    int n = cnc_initiative_order(s, order);
    for (int i = 0; i < n; i++)
        if (orders && orders[order[i]])
            standing_orders(s, order[i], orders[order[i]]);
    for (int i = 0; i < n; i++) {
        const json_t *o = orders ? orders[order[i]] : NULL;
        if (o)
            resolve_order(s, ctx, order[i], o);
    }
    cnc_fog_observe(&s->g, &s->fog, s->round);
    cnc_after_action(s, ctx);
}

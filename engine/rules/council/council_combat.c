/*
 * council_combat.c - Galactic Council's space and ground combat (d10 dice
 * from the game's RNG) and the neutral markers that act on the first fleet
 * to enter a system or the first lander on a planet. A standing combat
 * retreat takes a side out of a space combat after the rounds it asked. Combat
 * reports go to the seats that fought only; a marker that acts is turned face
 * up in a public entry, its effect told to the seat it touched.
 */
#include "engine/rules/council/council_internal.h"

#include <string.h>

#define MAX_ROUNDS 30

/* One side of a space combat: a seat's units (or a neutral's). */
typedef struct side {
    int seat; /* -1: neutral */
    uint8_t *units, *damaged;
} side;

static engine_rng *rng_of(engine_ctx *ctx)
{
    return engine_ctx_rng(ctx);
}

static int d10(engine_ctx *ctx)
{
    return 1 + (int)engine_rng_below(rng_of(ctx), 10);
}

static int force(const uint8_t *units)
{
    const cnc_data *d = cnc_data_get();
    int n = 0;
    for (int u = 0; u < d->nunits; u++)
        if (d->units[u].kind != CNC_UNIT_GROUND)
            n += units[u];
    return n;
}

static int can_sustain(const cnc_state *s, int seat, int u)
{
    const cnc_data *d = cnc_data_get();
    if (d->units[u].sustain)
        return 1;
    return seat >= 0 && strcmp(d->units[u].key, "cruiser") == 0 &&
           cnc_has_tech_effect(s, seat, CNC_TECH_SUSTAIN) > 0;
}

static int rolls(const cnc_state *s, engine_ctx *ctx, const side *a, int round)
{
    const cnc_data *d = cnc_data_get();
    int bonus = 0, hits = 0;
    if (a->seat >= 0) {
        const cnc_race *r = &d->races[s->p[a->seat].race];
        bonus = cnc_has_tech_effect(s, a->seat, CNC_TECH_COMBAT);
        if (r->special == CNC_RACE_SPACE_ASSAULT && round == 1)
            bonus += r->special_amount;
    }
    /* Lucky Shot: in the first round, each missed die is rolled again. */
    int again = a->seat >= 0 && s->x[a->seat].reroll && round == 1;
    for (int u = 0; u < d->nunits; u++)
        for (int k = 0; d->units[u].kind != CNC_UNIT_GROUND && k < a->units[u];
             k++)
            for (int i = 0; i < d->units[u].dice; i++) {
                int hit = d10(ctx) + bonus >= d->units[u].combat;
                if (!hit && again)
                    hit = d10(ctx) + bonus >= d->units[u].combat;
                hits += hit;
            }
    return hits;
}

/* Hits taken: sustaining units absorb first, then the cheapest die. */
static void take(const cnc_state *s, const side *a, int hits)
{
    const cnc_data *d = cnc_data_get();
    for (int u = 0; u < d->nunits && hits > 0; u++)
        if (d->units[u].kind != CNC_UNIT_GROUND && can_sustain(s, a->seat, u)) {
            int fresh = a->units[u] - a->damaged[u];
            int k = fresh < hits ? fresh : hits;
            a->damaged[u] = (uint8_t)(a->damaged[u] + k);
            hits -= k;
        }
    while (hits > 0 && force(a->units) > 0) {
        int best = -1;
        for (int u = 0; u < d->nunits; u++)
            if (d->units[u].kind != CNC_UNIT_GROUND && a->units[u] &&
                (best < 0 || d->units[u].cost * d->units[best].per <
                                 d->units[best].cost * d->units[u].per))
                best = u;
        a->units[best]--;
        if (a->damaged[best] > a->units[best])
            a->damaged[best] = a->units[best];
        hits--;
    }
}

/* Where seat's standing order takes its units out of a space combat in x
 * after round rounds: an explored sector next to x without other seats'
 * ships or fighters; -1 when none applies. */
static int retreat_to(const cnc_state *s, int seat, int x, int round)
{
    for (int i = 0; seat >= 0 && i < CNC_MAX_STANDING; i++) {
        const cnc_standing *r = &s->x[seat].retreat[i];
        if (!r->used || r->sector != x || round < r->after ||
            cnc_sector_distance(&s->g, x, r->to) != 1 ||
            !s->fog.explored[r->to])
            continue;
        int enemy = 0;
        for (int p = 0; p < s->seats; p++)
            enemy |= p != seat && force(s->g.sec[r->to].units[p]) > 0;
        if (!enemy)
            return r->to;
    }
    return -1;
}

/* All of a's units in space (damage kept) leave x for sector to. */
static void withdraw(cnc_state *s, engine_ctx *ctx, side *a, int x, int to)
{
    uint8_t *units = s->g.sec[to].units[a->seat],
            *dmg = s->damaged[to][a->seat];
    for (int u = 0; u < CNC_MAX_UNITS; u++) {
        units[u] = (uint8_t)(units[u] + a->units[u]);
        dmg[u] = (uint8_t)(dmg[u] + a->damaged[u]);
        a->units[u] = a->damaged[u] = 0;
    }
    cnc_log_seats(ctx, 1u << a->seat,
                  json_pack("{s:s, s:[i, i], s:[i, i]}", "type", "retreated",
                            "from", s->g.sec[x].hex.q, s->g.sec[x].hex.r, "to",
                            s->g.sec[to].hex.q, s->g.sec[to].hex.r));
}

/* After a round: the defender, then the attacker, may leave by a standing
 * order. 1 when one did (the combat ends, no one wins it). */
static int retreats(cnc_state *s, engine_ctx *ctx, side *a, side *b, int x,
                    int round)
{
    side *order[2] = {b, a};
    for (int i = 0; i < 2; i++) {
        if (force(order[i]->units) == 0 || force(order[1 - i]->units) == 0)
            return 0;
        int to = retreat_to(s, order[i]->seat, x, round);
        if (to >= 0) {
            withdraw(s, ctx, order[i], x, to);
            return 1;
        }
    }
    return 0;
}

/* Direct Hit: shooter's armed card destroys the first of the target's
 * units that absorbed a hit this round (was: its damage before). */
static void direct_hit(cnc_state *s, const side *shooter, side *target,
                       const uint8_t *was)
{
    if (shooter->seat < 0 || !s->x[shooter->seat].direct_hit)
        return;
    for (int u = 0; u < CNC_MAX_UNITS; u++)
        if (target->damaged[u] > was[u]) {
            target->units[u]--;
            target->damaged[u]--;
            s->x[shooter->seat].direct_hit = 0;
            return;
        }
}

/* Fight in x until one side has no ships or fighters or one retreats;
 * troopers in space of a side left without ships are lost. Returns 1 when
 * a won, 2 when a side retreated. */
static int fight(cnc_state *s, engine_ctx *ctx, side *a, side *b, int x)
{
    int round = 0;
    while (force(a->units) > 0 && force(b->units) > 0 && round < MAX_ROUNDS) {
        round++;
        int ha = rolls(s, ctx, a, round), hb = rolls(s, ctx, b, round);
        uint8_t was_a[CNC_MAX_UNITS], was_b[CNC_MAX_UNITS];
        memcpy(was_a, a->damaged, sizeof was_a);
        memcpy(was_b, b->damaged, sizeof was_b);
        take(s, b, ha);
        take(s, a, hb);
        direct_hit(s, a, b, was_b);
        direct_hit(s, b, a, was_a);
        for (int i = 0; i < 2 && round == 1; i++) /* Lucky Shot is spent */
            if ((i ? b : a)->seat >= 0)
                s->x[(i ? b : a)->seat].reroll = 0;
        if (retreats(s, ctx, a, b, x, round))
            return 2;
    }
    const cnc_data *d = cnc_data_get();
    for (int u = 0; u < d->nunits; u++)
        if (d->units[u].kind == CNC_UNIT_GROUND) {
            if (force(a->units) == 0)
                a->units[u] = 0;
            if (force(b->units) == 0)
                b->units[u] = 0;
        }
    return force(a->units) > 0 && force(b->units) == 0;
}

static void report(cnc_state *s, engine_ctx *ctx, int a, int b, int x,
                   int winner)
{
    uint32_t who = 1u << a;
    if (b >= 0)
        who |= 1u << b;
    cnc_log_seats(
        ctx, who,
        json_pack("{s:s, s:[i, i], s:i, s:o, s:o}", "type", "space_combat",
                  "sector", s->g.sec[x].hex.q, s->g.sec[x].hex.r, "attacker", a,
                  "defender", b >= 0 ? json_integer(b) : json_string("raiders"),
                  "winner", winner >= 0 ? json_integer(winner) : json_null()));
}

void cnc_space_combat(cnc_state *s, engine_ctx *ctx, int attacker, int x)
{
    cnc_sector *sec = &s->g.sec[x];
    for (int p = 0; p < s->seats; p++) {
        if (p == attacker || force(sec->units[p]) == 0)
            continue;
        if (force(sec->units[attacker]) == 0)
            return;
        side a = {attacker, sec->units[attacker], s->damaged[x][attacker]};
        side b = {p, sec->units[p], s->damaged[x][p]};
        int fought = fight(s, ctx, &a, &b, x), won = fought == 1;
        int lost = fought != 2 && force(a.units) == 0 && force(b.units) > 0;
        if (won)
            s->p[attacker].won_combat = 1;
        if (lost)
            s->p[p].won_combat = 1;
        report(s, ctx, attacker, p, x, won ? attacker : lost ? p : -1);
    }
}

static void tell(engine_ctx *ctx, int seat, const char *what, int n)
{
    cnc_log_seats(ctx, 1u << seat,
                  json_pack("{s:s, s:s, s:i}", "type", "marker_effect",
                            "effect", what, "amount", n));
}

/* Turn marker m face up in public. */
static const cnc_marker_kind *reveal(cnc_state *s, engine_ctx *ctx, int m)
{
    const cnc_data *d = cnc_data_get();
    cnc_marker *k = &s->g.markers[m];
    k->state = CNC_MK_REVEALED;
    cnc_log(ctx,
            json_pack("{s:s, s:[i, i], s:i, s:s}", "type", "marker", "sector",
                      s->g.sec[k->sector].hex.q, s->g.sec[k->sector].hex.r,
                      "planet", k->planet, "marker", d->markers[k->kind].key));
    return &d->markers[k->kind];
}

void cnc_system_marker(cnc_state *s, engine_ctx *ctx, int seat, int x)
{
    const cnc_data *d = cnc_data_get();
    int m = s->g.sec[x].marker;
    if (m < 0 || s->g.markers[m].state != CNC_MK_HIDDEN)
        return;
    const cnc_marker_kind *k = reveal(s, ctx, m);
    uint8_t *mine = s->g.sec[x].units[seat];
    int cruiser = cnc_unit_index(d, "cruiser");
    switch (k->effect) {
    case CNC_MFX_GAIN_SHIP:
        mine[cruiser] = (uint8_t)(mine[cruiser] + k->amount);
        break;
    case CNC_MFX_GAIN_TRADE_GOODS:
        cnc_gain_tg(s, seat, k->amount);
        break;
    case CNC_MFX_DESTROY_SHIP: {
        /* "Its owner's choice": sealed orders give no way to choose, so
         * the owner loses its cheapest ship, as in combat (ours). */
        side a = {seat, mine, s->damaged[x][seat]};
        for (int i = 0; i < k->amount; i++) {
            int best = -1;
            for (int u = 0; u < d->nunits; u++)
                if (d->units[u].kind == CNC_UNIT_SHIP && a.units[u] &&
                    (best < 0 || d->units[u].cost * d->units[best].per <
                                     d->units[best].cost * d->units[u].per))
                    best = u;
            if (best < 0)
                break;
            a.units[best]--;
            if (a.damaged[best] > a.units[best])
                a.damaged[best] = a.units[best];
        }
        if (force(mine) == 0)
            memset(mine, 0, CNC_MAX_UNITS);
        break;
    }
    case CNC_MFX_ENEMY_SHIPS: {
        uint8_t units[CNC_MAX_UNITS] = {0}, dmg[CNC_MAX_UNITS] = {0};
        units[cruiser] = (uint8_t)k->amount;
        side a = {seat, mine, s->damaged[x][seat]}, b = {-1, units, dmg};
        int won = fight(s, ctx, &a, &b, x) == 1;
        if (won)
            s->p[seat].won_combat = 1;
        report(s, ctx, seat, -1, x, won ? seat : -1);
        break;
    }
    default:
        break;
    }
    tell(ctx, seat, k->key, k->amount);
}

void cnc_draw_action(cnc_state *s, engine_ctx *ctx, int seat)
{
    const cnc_data *d = cnc_data_get();
    int held = 0;
    for (int a = 0; a < d->nactions; a++)
        held += s->p[seat].hand[a];
    if (s->action_pos >= s->naction || held >= d->rules.hand_limit)
        return;
    int a = (int)s->action_deck[s->action_pos++];
    s->p[seat].hand[a]++;
    cnc_log_seats(
        ctx, 1u << seat,
        json_pack("{s:s, s:s}", "type", "draw", "card", d->actions[a].key));
}

static int ground_bonus(const cnc_state *s, int seat)
{
    if (seat < 0)
        return 0;
    const cnc_race *r = &cnc_data_get()->races[s->p[seat].race];
    return cnc_has_tech_effect(s, seat, CNC_TECH_GROUND) +
           (r->special == CNC_RACE_GROUND_ASSAULT ? r->special_amount : 0);
}

/* Ground combat: returns the attackers left (the defenders in *def). */
static int ground(cnc_state *s, engine_ctx *ctx, int seat, int n, int owner,
                  int *def)
{
    int need = (int)cnc_data_get()
                   ->units[cnc_unit_index(cnc_data_get(), "trooper")]
                   .combat;
    int ba = ground_bonus(s, seat), bd = ground_bonus(s, owner);
    for (int round = 0; n > 0 && *def > 0 && round < MAX_ROUNDS; round++) {
        int ha = 0, hd = 0;
        for (int i = 0; i < n; i++)
            ha += d10(ctx) + ba >= need;
        for (int i = 0; i < *def; i++)
            hd += d10(ctx) + bd >= need;
        *def = *def > ha ? *def - ha : 0;
        n = n > hd ? n - hd : 0;
    }
    return n;
}

/* The first-to-control effects of a revealed planet marker. */
static void on_control(cnc_state *s, engine_ctx *ctx, int seat,
                       const cnc_marker_kind *k)
{
    if (!k)
        return;
    if (k->effect == CNC_MFX_GAIN_VP)
        s->p[seat].vp = (int16_t)(s->p[seat].vp + k->amount);
    else if (k->effect == CNC_MFX_GAIN_TRADE_GOODS)
        cnc_gain_tg(s, seat, k->amount);
    else if (k->effect == CNC_MFX_GAIN_ACTION_CARD)
        cnc_draw_action(s, ctx, seat);
}

void cnc_land_on(cnc_state *s, engine_ctx *ctx, int seat, int x, int p, int n)
{
    cnc_sector *sec = &s->g.sec[x];
    const cnc_marker_kind *k = NULL;
    int m = sec->planet_marker[p], def = 0, owner = (int)sec->owner[p];
    if (m >= 0 && s->g.markers[m].state == CNC_MK_HIDDEN) {
        k = reveal(s, ctx, m);
        tell(ctx, seat, k->key, k->amount);
        if (k->effect == CNC_MFX_GAIN_TROOPS)
            n += k->amount;
        else if (k->effect == CNC_MFX_ENEMY_TROOPS)
            def = (int)k->amount;
        else if (k->effect == CNC_MFX_DESTROY_TROOPS)
            n = n > k->amount ? n - k->amount : 0;
    }
    if (owner == seat) {
        sec->ground[p] = (uint8_t)(sec->ground[p] + n);
        return;
    }
    if (owner >= 0)
        def += sec->ground[p];
    int left = def > 0 ? ground(s, ctx, seat, n, owner, &def) : n;
    if (def > 0 || left == 0) {
        if (owner >= 0)
            sec->ground[p] = (uint8_t)def;
        if (owner >= 0)
            cnc_log_seats(ctx, 1u << seat | 1u << owner,
                          json_pack("{s:s, s:[i, i], s:i, s:i, s:i}", "type",
                                    "ground_combat", "sector", sec->hex.q,
                                    sec->hex.r, "planet", p, "attacker", seat,
                                    "defender", owner));
        return;
    }
    sec->owner[p] = (int8_t)seat;
    sec->ground[p] = (uint8_t)left;
    cnc_log(ctx,
            json_pack("{s:s, s:[i, i], s:i, s:i}", "type", "control", "sector",
                      sec->hex.q, sec->hex.r, "planet", p, "seat", seat));
    on_control(s, ctx, seat, k);
}

/*
 * skirmish_bot.c - Skirmish's bots. "random" picks uniformly among the
 * legal orders and plays (a random squad within the budget, random home
 * squares, any declaration or a pass). "basic" takes one of the two
 * prebuilt squads it plays best,
 * deploys fighters in front and shooters and healers behind, and in its
 * turn scores every declaration (shots that kill, favourable attacks,
 * healing the hurt, moving towards the enemy) and plays the best one, or
 * hands the turn over when nothing scores; out of its turn it parries
 * attacks on its creatures, cancels the opponent's spells and otherwise
 * passes. Bots draw only from the rng they are given.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/rules/skirmish/skirmish_internal.h"

#define MAX_DECL 1024

/* ---------------------------------------------------------- muster -- */

static json_t *random_squad(engine_rng *rng)
{
    const skirmish_cardset *cs = sk_cards();
    uint8_t cards[SKIRMISH_SQUAD_MAX];
    int n = 0, cost = 0, copies[SKIRMISH_MAX_DESIGNS] = {0};
    for (int tries = 0; tries < 60 && n < cs->max_creatures; tries++) {
        int d = (int)engine_rng_below(rng, (uint32_t)cs->ndesigns);
        if (cost + cs->designs[d].cost > cs->budget ||
            copies[d] >= cs->max_copies)
            continue;
        copies[d]++;
        cost += cs->designs[d].cost;
        cards[n++] = (uint8_t)d;
    }
    json_t *keys = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(keys, json_string(cs->designs[cards[i]].key));
    return json_pack("{s:o}", "cards", keys);
}

/* Shooters and healers stand behind. */
static int stays_back(const skirmish_design *d)
{
    for (int i = 0; i < d->nab; i++)
        if (d->ab[i].timing == SKIRMISH_T_ACTION &&
            (d->ab[i].range >= 2 || d->ab[i].kind == SKIRMISH_K_HEAL))
            return 1;
    return 0;
}

static json_t *deploy(const sk_state *s, int seat, int basic, engine_rng *rng)
{
    int sqs[SK_SQUARES], n = 0, base = seat ? s->nunits[0] : 0;
    static const int cols[SKIRMISH_COLS] = {2, 1, 3, 0, 4};
    for (int k = 0; k < SKIRMISH_HOME_ROWS; k++)
        for (int c = 0; c < SKIRMISH_COLS; c++) {
            int row =
                seat == 0 ? SKIRMISH_HOME_ROWS - 1 - k : SKIRMISH_HOME_ROWS + k;
            sqs[n++] = row * SKIRMISH_COLS + (basic ? cols[c] : c);
        }
    if (!basic)
        engine_rng_shuffle(rng, sqs, (size_t)n, sizeof sqs[0]);
    int pick[SKIRMISH_SQUAD_MAX], front = 0,
                                  back = SKIRMISH_COLS * 2; /* from row 2 */
    for (int i = 0; i < s->nunits[seat]; i++) {
        int behind = basic && stays_back(sk_design(s, base + i));
        if (!basic || (!behind && front < SKIRMISH_COLS * 2))
            pick[i] = front++;
        else if (back < n)
            pick[i] = back++;
        else
            pick[i] = front++;
    }
    /* a crowded front: move anyone left without a square further back */
    int used[SK_SQUARES] = {0};
    json_t *out = json_array();
    char name[4];
    for (int i = 0; i < s->nunits[seat]; i++) {
        int k = pick[i];
        while (used[k])
            k = (k + 1) % n;
        used[k] = 1;
        json_array_append_new(out, json_string(sk_sq_name(sqs[k], name)));
    }
    return json_pack("{s:o}", "squares", out);
}

/* The prebuilt squads basic plays best (docs/games/skirmish.md, "Bots":
 * with the slow Iron Wall it won about 70% against random, with High
 * Winds 87%, with these two 91% and 95%); any squad when none is there. */
static const char *const basic_squads[] = {"cinder_host", "green_tide"};

static json_t *basic_squad(engine_rng *rng)
{
    const skirmish_cardset *cs = sk_cards();
    const char *pick = basic_squads[engine_rng_below(rng, 2)];
    for (int i = 0; i < cs->nsquads; i++)
        if (strcmp(cs->squads[i].key, pick) == 0)
            return json_pack("{s:s}", "squad", pick);
    return json_pack(
        "{s:s}", "squad",
        cs->squads[engine_rng_below(rng, (uint32_t)cs->nsquads)].key);
}

json_t *sk_bot(const void *state, int seat, const char *window,
               const char *level, engine_rng *rng)
{
    const sk_state *s = state;
    int basic = strcmp(level, "basic") == 0;
    if (!basic && strcmp(level, "random") != 0)
        return NULL;
    if (strcmp(window, "muster") == 0)
        return basic ? basic_squad(rng) : random_squad(rng);
    return deploy(s, seat, basic, rng);
}

/* ------------------------------------------------------------ scores -- */

/* The distance from sq to the nearest enemy u can attack (any enemy for
 * a creature with a shot, which cannot tell from here). */
static int nearest_enemy(const sk_state *s, int u, int sq, int any)
{
    int best = 99, fly = sk_has(s, u, SKIRMISH_K_FLYING);
    for (int t = 0; t < s->nu; t++)
        if (sk_on_field(s, t) && s->cr[t][U_OWNER] != s->cr[u][U_OWNER] &&
            (any || fly || !sk_has(s, t, SKIRMISH_K_FLYING))) {
            int d = sk_dist(sq, s->cr[t][U_SQ]);
            best = d < best ? d : best;
        }
    return best;
}

static int has_shot(const sk_state *s, int u)
{
    const skirmish_design *d = sk_design(s, u);
    for (int i = 0; i < d->nab; i++)
        if (d->ab[i].timing == SKIRMISH_T_ACTION &&
            d->ab[i].kind == SKIRMISH_K_DAMAGE && d->ab[i].range >= 2)
            return d->ab[i].range;
    return 0;
}

static int score_attack(const sk_state *s, int u, int t)
{
    int hit = sk_strength_sum(s, u, t, 1); /* x3 */
    int back = s->cr[t][U_CLOSED] ? 0 : sk_strength_sum(s, t, u, 0);
    int kill = hit >= 3 * s->cr[t][U_LIFE];
    int die = back >= 3 * s->cr[u][U_LIFE];
    int v = 30 + 4 * (hit - back) + (kill ? 20 + sk_design(s, t)->cost : 0) -
            (die ? 10 + sk_design(s, u)->cost : 0);
    return v > 5 ? v : 0;
}

static int adjacent_enemies(const sk_state *s, int u, int sq)
{
    int n = 0;
    for (int t = 0; t < s->nu; t++)
        n += sk_on_field(s, t) && s->cr[t][U_OWNER] != s->cr[u][U_OWNER] &&
             sk_dist(sq, s->cr[t][U_SQ]) == 1;
    return n;
}

static int score_effect(const sk_state *s, int u, const skirmish_ability *a,
                        int t)
{
    int sq = s->cr[u][U_SQ];
    switch (a->kind) {
    case SKIRMISH_K_DAMAGE: {
        if (t < 0)
            return a->target == SKIRMISH_TG_ADJ_ENEMIES
                       ? 15 * adjacent_enemies(s, u, sq)
                       : 0;
        if (s->cr[t][U_OWNER] == s->cr[u][U_OWNER])
            return 0;
        int dmg = a->amount - (a->spell ? 0 : sk_armour(s, t));
        if (dmg <= 0)
            return 0;
        return dmg >= s->cr[t][U_LIFE] ? 90 + sk_design(s, t)->cost
                                       : 40 + 5 * dmg;
    }
    case SKIRMISH_K_HEAL: {
        int hurt = t >= 0 ? sk_design(s, t)->life - s->cr[t][U_LIFE] : 0;
        if (t < 0)
            for (int k = 0; k < s->nu; k++)
                if (sk_on_field(s, k) && s->cr[k][U_OWNER] == s->cr[u][U_OWNER])
                    hurt += sk_design(s, k)->life - s->cr[k][U_LIFE];
        return hurt >= 2 || (t >= 0 && s->cr[t][U_POISON]) ? 20 + 3 * hurt : 0;
    }
    case SKIRMISH_K_POISON:
        return t >= 0 && !s->cr[t][U_POISON] ? 35 : 0;
    case SKIRMISH_K_TOKENS:
        return 10;
    case SKIRMISH_K_AURA:
        if (a->amount < 0)
            return t >= 0 && adjacent_enemies(s, t, s->cr[t][U_SQ]) ? 15 : 0;
        return adjacent_enemies(s, t >= 0 ? t : u, s->cr[t >= 0 ? t : u][U_SQ])
                   ? 12
                   : 0;
    default:
        return 0;
    }
}

static int score_move(const sk_state *s, int u, int to)
{
    int from = s->cr[u][U_SQ];
    int shot = has_shot(s, u);
    int before = nearest_enemy(s, u, from, shot > 0);
    int after = nearest_enemy(s, u, to, shot > 0);
    if (shot)
        return before > shot && after < before && after > 1 ? 8 : 0;
    if (after > before || before == 1 || after == 99)
        return 0;
    /* towards the enemy's rows when no closer (around a blocker) */
    int fwd = s->cr[u][U_OWNER] == 0 ? sk_row(to) - sk_row(from)
                                     : sk_row(from) - sk_row(to);
    if (after == before)
        return fwd > 0 ? 2 : 0;
    return 6 + 2 * (before - after) + (after == 1 ? 6 : 0);
}

static int score(const sk_state *s, const engine_stack *st, const sk_decl *d)
{
    if (d->kind == SK_D_MOVE)
        return score_move(s, d->unit, d->to);
    if (d->kind == SK_D_ATTACK)
        return score_attack(s, d->unit, d->target);
    const skirmish_ability *a = &sk_design(s, d->unit)->ab[d->ability];
    if (a->kind == SKIRMISH_K_PARRY)
        return 50;
    if (a->kind == SKIRMISH_K_COUNTERSPELL) {
        for (size_t k = 0; k < engine_stack_size(st); k++)
            if (engine_stack_at(st, k)->id == d->item)
                return engine_stack_at(st, k)->owner != s->cr[d->unit][U_OWNER]
                           ? 60
                           : 0;
        return 0;
    }
    int v = score_effect(s, d->unit, a, d->target);
    if (a->cost.life && s->cr[d->unit][U_LIFE] <= a->cost.life + 1)
        return 0;
    /* out of its turn, only what is clearly worth it */
    return a->timing == SKIRMISH_T_SUDDEN && v < 40 ? 0 : v;
}

json_t *sk_priority_bot(const void *state, const engine_stack *stack, int seat,
                        const char *step, const char *level, engine_rng *rng)
{
    const sk_state *s = state;
    sk_decl list[MAX_DECL];
    int n = sk_declarations(s, stack, seat, step, list, MAX_DECL);
    if (strcmp(level, "random") == 0) {
        uint32_t k = engine_rng_below(rng, (uint32_t)n + 1);
        return k < (uint32_t)n ? sk_decl_json(&list[k]) : NULL;
    }
    int best = -1, best_v = 0;
    for (int i = 0; i < n; i++) {
        int v = score(s, stack, &list[i]);
        if (v > best_v || (v == best_v && v > 0 && engine_rng_below(rng, 2))) {
            best = i;
            best_v = v;
        }
    }
    return best >= 0 ? sk_decl_json(&list[best]) : NULL;
}

/*
 * skirmish_combat.c - attacks and strikes: the attacker's die picks its
 * weak, medium or strong strike, an open target strikes back with its own
 * die, modifiers, auras, armour and parries adjust each strike, and first
 * strike orders them (docs/games/skirmish.md, "Attacks and strikes").
 * Dice come from the game's RNG and are kept for the views.
 */
#include <stdio.h>

#include "engine/rules/skirmish/skirmish_internal.h"

int sk_can_attack(const sk_state *s, int a, int t)
{
    return sk_on_field(s, a) && sk_on_field(s, t) &&
           s->cr[a][U_OWNER] != s->cr[t][U_OWNER] &&
           sk_dist(s->cr[a][U_SQ], s->cr[t][U_SQ]) == 1 &&
           (!sk_has(s, t, SKIRMISH_K_FLYING) ||
            sk_has(s, a, SKIRMISH_K_FLYING));
}

int sk_parry_total(const sk_state *s, uint32_t item)
{
    int n = 0;
    for (int i = 0; i < s->nparry; i++)
        if ((uint32_t)s->parry[i][0] == item)
            n += s->parry[i][1];
    return n;
}

static void drop_parries(sk_state *s, uint32_t item)
{
    int k = 0;
    for (int i = 0; i < s->nparry; i++)
        if ((uint32_t)s->parry[i][0] != item) {
            s->parry[k][0] = s->parry[i][0];
            s->parry[k][1] = s->parry[i][1];
            k++;
        }
    s->nparry = k;
}

/* Strike modifiers of u that count when it attacks (1) or strikes back. */
static int strike_mod(const sk_state *s, int u, int attacking)
{
    const skirmish_design *d = sk_design(s, u);
    int n = s->cr[u][U_AURA_STRIKE];
    for (int i = 0; i < d->nab; i++) {
        const skirmish_ability *a = &d->ab[i];
        if (a->kind != SKIRMISH_K_STRIKE_MOD)
            continue;
        if (a->when == SKIRMISH_W_ALWAYS ||
            (a->when == SKIRMISH_W_ATTACKING && attacking) ||
            (a->when == SKIRMISH_W_DEFENDING && !attacking))
            n += a->amount;
    }
    return n;
}

static int strength(const sk_state *s, int u, int other, int roll,
                    int attacking, int parried)
{
    int v = sk_design(s, u)->strike[(roll - 1) / 2] +
            strike_mod(s, u, attacking) - parried - sk_armour(s, other);
    return v > 0 ? v : 0;
}

static const char *const strike_word[3] = {"weak", "medium", "strong"};

void sk_attack(sk_state *s, engine_ctx *ctx, int a, int t, uint32_t item)
{
    char an[80], tn[80];
    sk_unit_name(s, a, an, sizeof an);
    sk_unit_name(s, t, tn, sizeof tn);
    int parried = sk_parry_total(s, item);
    drop_parries(s, item);
    if (!sk_can_attack(s, a, t)) {
        sk_log(ctx, "attack",
               "%s's attack on %s does nothing: they are no "
               "longer both on the field and adjacent.",
               an, tn);
        return;
    }
    engine_rng *rng = engine_ctx_rng(ctx);
    int ra = 1 + (int)engine_rng_below(rng, 6);
    int back = !s->cr[t][U_CLOSED];
    int rt = back ? 1 + (int)engine_rng_below(rng, 6) : 0;
    int sa = strength(s, a, t, ra, 1, parried);
    int st = back ? strength(s, t, a, rt, 0, 0) : 0;
    int fa = sk_has(s, a, SKIRMISH_K_FIRST_STRIKE);
    int ft = back && sk_has(s, t, SKIRMISH_K_FIRST_STRIKE);
    s->dice[0] = a, s->dice[1] = t, s->dice[2] = ra, s->dice[3] = rt;
    s->dice[4] = sa, s->dice[5] = back ? st : -1;
    if (back)
        sk_log(ctx, "attack",
               "%s attacks %s: die %d, %s strike for %d; %s strikes back: die "
               "%d, %s strike for %d.",
               an, tn, ra, strike_word[(ra - 1) / 2], sa, tn, rt,
               strike_word[(rt - 1) / 2], st);
    else
        sk_log(ctx, "attack",
               "%s attacks %s: die %d, %s strike for %d; %s is closed and does "
               "not strike back.",
               an, tn, ra, strike_word[(ra - 1) / 2], sa, tn);
    if (fa && !ft) {
        if (!sk_lose_life(s, ctx, t, sa) && back)
            sk_lose_life(s, ctx, a, st);
    } else if (ft && !fa) {
        if (!sk_lose_life(s, ctx, a, st))
            sk_lose_life(s, ctx, t, sa);
    } else {
        sk_lose_life(s, ctx, t, sa);
        if (back)
            sk_lose_life(s, ctx, a, st);
    }
}

int sk_strength_sum(const sk_state *s, int u, int other, int attacking)
{
    int n = 0;
    for (int roll = 1; roll <= 5; roll += 2)
        n += strength(s, u, other, roll, attacking, 0);
    return n;
}

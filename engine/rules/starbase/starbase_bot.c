/*
 * starbase_bot.c - Starbase's bots, playing through the same action list
 * as everybody (so their plays are always legal).
 *   random: in its own management phase it ends the phase with chance 1/4,
 *           else it picks uniformly among its legal actions and the pass;
 *           elsewhere uniformly among its legal actions and the pass.
 *   basic:  scores every legal action and takes the best one worth doing,
 *           else passes: income first (income cards, income commands,
 *           outer regions), ships undocked to defend, uncontrolled regions
 *           claimed, attacks only where its ships destroy every defender
 *           and survive, harmful abilities aimed at the others.
 */
#include "engine/rules/starbase/starbase.h"

#include <string.h>

/* The one-shot value of ability ab (number n) aimed at target t. */
static int ability_value(const sb_state *s, int seat,
                         const starbase_ability *ab, int n, int t)
{
    switch (ab->kind) {
    case STARBASE_A_INCOME:
        return ab->target == STARBASE_TG_YOU ? 30 + 5 * n : 25;
    case STARBASE_A_ISK:
        return ab->target == STARBASE_TG_YOU ? 10 + 4 * n : 8;
    case STARBASE_A_DRAW:
        return sb_count_zone(s, seat, SB_Z_MARKET) > 6 + n &&
                       sb_count_zone(s, seat, SB_Z_HAND) < 6
                   ? 12
                   : -1;
    case STARBASE_A_DISCARD:
        return 14;
    case STARBASE_A_BOUNCE:
    case STARBASE_A_DESTROY:
        return t >= 0 && s->in[t].owner != seat ? 30 + sb_card(s, t)->price
                                                : -1;
    case STARBASE_A_DAMAGE:
        if (ab->target == STARBASE_TG_ENEMY_STARBASE)
            return 26;
        if (t >= 0 && t < s->ninst && s->in[t].zone == SB_Z_REGION)
            return s->in[t].owner == seat                         ? -1
                   : s->in[t].damage + n >= sb_ship_defence(s, t) ? 35
                                                                  : 12;
        return 18;
    case STARBASE_A_REPAIR:
        return s->p[seat].damage > 0 ? 20 : -1;
    case STARBASE_A_ASSEMBLY:
        return ab->timing == STARBASE_T_PASSIVE ? 22 : 15;
    case STARBASE_A_DEACTIVATE:
        return t >= 0 && s->in[t].owner != seat && s->in[t].cmd >= 0 ? 10 : -1;
    case STARBASE_A_AURA:
    case STARBASE_A_WARPS:
    case STARBASE_A_PIN:
        return ab->timing == STARBASE_T_PASSIVE ? 18 : -1;
    default:
        return -1;
    }
}

static int play_value(const sb_state *s, int seat, const sb_action *a)
{
    const starbase_card *c = sb_card(s, a->card);
    switch (c->kind) {
    case STARBASE_LOCATION:
        return 40 + 10 * c->income + (c->nab ? 5 : 0);
    case STARBASE_STRUCTURE:
        return 20 + ability_value(s, seat, &c->ab[0],
                                  sb_ab_number(s, -1, -1, &c->ab[0]), -1);
    case STARBASE_SHIP:
        return 30 + c->attack + c->defence;
    default:
        break;
    }
    int best = -1;
    for (int k = 0; k < c->nab; k++) {
        int v = ability_value(s, seat, &c->ab[k],
                              sb_ab_number(s, -1, -1, &c->ab[k]), a->target);
        best = v > best ? v : best;
    }
    return best < 0 ? -1 : best - c->price;
}

/* The enemy player's ships in region r: total attack and what destroys
 * them all. */
static void defenders(const sb_state *s, int r, int enemy, int *atk, int *tough)
{
    *atk = r == enemy ? sb_base_attack(s, enemy) : 0;
    *tough = r == enemy ? 1 : 0; /* a home attack should hurt the starbase */
    for (int i = 0; i < s->ninst; i++)
        if (s->in[i].zone == SB_Z_REGION && s->in[i].region == r &&
            s->in[i].owner == enemy) {
            *atk += sb_ship_attack(s, i);
            *tough += sb_ship_defence(s, i) - s->in[i].damage;
        }
}

/* Would seat's ships that are attacking r or could warp there win? */
static int attack_wins(const sb_state *s, int seat, int r)
{
    int enemy = sb_region_ctrl(s, r), datk, dtough, atk = 0, tough = 0;
    defenders(s, r, enemy, &datk, &dtough);
    for (int i = 0; i < s->ninst; i++) {
        const sb_inst *c = &s->in[i];
        if (c->zone != SB_Z_REGION || c->owner != seat)
            continue;
        int ready = c->region == r ? c->attacking : sb_can_warp(s, i);
        if (ready) {
            atk += sb_ship_attack(s, i);
            tough += sb_ship_defence(s, i);
        }
    }
    return atk >= dtough && datk < tough;
}

static int move_value(const sb_state *s, int seat, const sb_action *a)
{
    const sb_inst *c = &s->in[a->card >= 0 ? a->card : 0];
    switch (a->kind) {
    case SB_A_UNDOCK:
        return 35;
    case SB_A_ACTIVATE: {
        const starbase_ability *ab =
            &sb_card(s, a->card)->commands[a->index].ab;
        if (ab->timing == STARBASE_T_PASSIVE)
            return 15 + ability_value(s, seat, ab, ab->amount, -1);
        return 20;
    }
    case SB_A_WARP: {
        int ctrl = sb_region_ctrl(s, a->region);
        if (ctrl < 0 && c->region == seat)
            return 38 + 5 * sb_card(s, a->region - SB_HOME_COUNT)->income;
        if (ctrl >= 0 && ctrl != seat && attack_wins(s, seat, a->region))
            return 45;
        return -1;
    }
    case SB_A_UPGRADE: {
        const starbase_market *m = &sb_cs()->markets[s->p[seat].market];
        const starbase_station *st = &sb_cs()->stations[m->station];
        return st->side[1].income > st->side[0].income ? 36 : 12;
    }
    case SB_A_OUTER:
        return 42 + 8 * sb_card(s, a->card)->income;
    case SB_A_FORFEIT:
        return sb_income(s, seat) <= 1 &&
                       sb_count_zone(s, seat, SB_Z_MARKET) > 8
                   ? 10
                   : -1;
    case SB_A_DISCARD:
        return 1 + sb_card(s, a->card)->price;
    default: /* dock, deactivate: never */
        return -1;
    }
}

static int basic_value(const sb_state *s, int seat, const sb_action *a)
{
    if (a->kind == SB_A_PLAY)
        return play_value(s, seat, a);
    if (a->kind != SB_A_ABILITY)
        return move_value(s, seat, a);
    const sb_inst *c = &s->in[a->card];
    const starbase_card *d = sb_card(s, a->card);
    int cmd = c->zone == SB_Z_REGION ? c->cmd : -1;
    const starbase_ability *ab =
        cmd >= 0 ? &d->commands[cmd].ab : &d->ab[a->index];
    int v = ability_value(s, seat, ab, sb_ab_number(s, a->card, cmd, ab),
                          a->target);
    return v < 0 ? v : v - 2 * ab->cost;
}

json_t *sb_bot_play(const sb_state *s, int seat, int step, const char *level,
                    engine_rng *rng)
{
    sb_action list[SB_MAX_ACTIONS];
    int n = sb_list_actions(s, seat, step, list, SB_MAX_ACTIONS);
    if (n == 0)
        return NULL;
    int mine = seat == s->active && step == SB_STEP_MANAGEMENT;
    if (strcmp(level, "random") == 0) {
        if (mine && engine_rng_below(rng, 4) == 0)
            return NULL;
        uint32_t k = engine_rng_below(rng, (uint32_t)n + 1);
        return k < (uint32_t)n ? sb_action_json(&list[k]) : NULL;
    }
    if (strcmp(level, "basic") != 0)
        return NULL;
    /* the best action; among equally good ones a random one, so that no
     * seat is the first target of everybody for its number alone */
    int best = -1, bestv = seat == s->active ? 0 : 25, ties = 0;
    for (int k = 0; k < n; k++) {
        int v = basic_value(s, seat, &list[k]);
        if (v > bestv) {
            bestv = v;
            best = k;
            ties = 1;
        } else if (v == bestv && best >= 0 &&
                   engine_rng_below(rng, (uint32_t)++ties) == 0)
            best = k;
    }
    return best >= 0 ? sb_action_json(&list[best]) : NULL;
}

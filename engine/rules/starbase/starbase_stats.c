/*
 * starbase_stats.c - Starbase's passive abilities and the numbers they
 * change: every working passive ability (an active command of a ship in a
 * region, a location or outer region for its region's controller, an
 * attached structure, a news in play) is collected, and income, ship
 * attack, defence and command power, starbase hull and guns, pins, warps
 * and assembly speed-up are computed from them. Nothing is stored: a card
 * leaving play stops its effect at once.
 */
#include "engine/rules/starbase/starbase.h"

typedef struct sb_passive {
    int ctrl;   /* the seat whose ability it is */
    int src;    /* the source instance */
    int region; /* the source's region, -1 for none */
    int target; /* a news's chosen target, -1 */
    int n;      /* its number (printed power for commands) */
    const starbase_ability *ab;
} sb_passive;

#define SB_MAX_PASSIVES (SB_MAX_INST * STARBASE_MAX_ABILITIES)

static int add_abilities(const sb_state *s, int i, int ctrl, int region,
                         sb_passive *out, int n)
{
    const starbase_card *c = sb_card(s, i);
    for (int k = 0; k < c->nab; k++)
        if (c->ab[k].timing == STARBASE_T_PASSIVE)
            out[n++] = (sb_passive){
                ctrl, i, region, s->in[i].target, c->ab[k].amount, &c->ab[k]};
    return n;
}

/* Every passive ability at work now. */
static int collect(const sb_state *s, sb_passive *out)
{
    int n = 0;
    for (int i = 0; i < s->ninst; i++) {
        const sb_inst *c = &s->in[i];
        int ctrl = sb_controller(s, i);
        if (ctrl < 0 || !s->p[ctrl].alive)
            continue;
        switch (c->zone) {
        case SB_Z_REGION:
            if (c->cmd >= 0 && !c->attacking) {
                const starbase_command *cm = &sb_card(s, i)->commands[c->cmd];
                if (cm->ab.timing == STARBASE_T_PASSIVE)
                    out[n++] = (sb_passive){ctrl, i,         c->region,
                                            -1,   cm->power, &cm->ab};
            }
            break;
        case SB_Z_LOCATION:
            n = add_abilities(s, i, ctrl, c->region, out, n);
            break;
        case SB_Z_OUTER:
            n = add_abilities(s, i, ctrl, SB_REGION_OF(i), out, n);
            break;
        case SB_Z_STRUCTURE:
            n = add_abilities(s, i, ctrl, ctrl, out, n);
            break;
        case SB_Z_NEWS:
            n = add_abilities(s, i, ctrl, -1, out, n);
            break;
        default:
            break;
        }
    }
    return n;
}

/* The number of passive pv, with command power changes. */
static int number(const sb_state *s, const sb_passive *pv)
{
    if (pv->ab->from_power && s->in[pv->src].zone == SB_Z_REGION)
        return sb_cmd_power(s, pv->src, s->in[pv->src].cmd);
    return pv->n;
}

/* Does passive pv reach ship i? +1 for a friendly effect, -1 for an enemy
 * one, 0 when it does not reach it. */
static int reaches(const sb_state *s, const sb_passive *pv, int i)
{
    const sb_inst *c = &s->in[i];
    int mine = c->owner == pv->ctrl;
    int out = c->zone == SB_Z_REGION;
    int here = out && c->region == pv->region && pv->region >= 0;
    switch (pv->ab->target) {
    case STARBASE_TG_SELF:
        return pv->src == i;
    case STARBASE_TG_OWN_SHIP:
        return pv->target == i && mine;
    case STARBASE_TG_ENEMY_SHIP:
        return pv->target == i && !mine && out ? -1 : 0;
    case STARBASE_TG_OWN_SHIPS:
        return mine;
    case STARBASE_TG_ENEMY_SHIPS:
        return !mine && out ? -1 : 0;
    case STARBASE_TG_OWN_SHIPS_HERE:
        return mine && here;
    case STARBASE_TG_ENEMY_SHIPS_HERE:
        return !mine && here ? -1 : 0;
    default:
        return 0;
    }
}

/* The sum of kind/stat passives on ship i (auras signed). */
static int ship_sum(const sb_state *s, int i, int kind, int stat, int power)
{
    sb_passive pv[SB_MAX_PASSIVES];
    int n = collect(s, pv), sum = 0;
    for (int k = 0; k < n; k++) {
        if (pv[k].ab->kind != kind ||
            (kind == STARBASE_A_AURA && pv[k].ab->stat != stat))
            continue;
        int sign = reaches(s, &pv[k], i);
        if (sign)
            sum += sign * (power ? number(s, &pv[k]) : pv[k].n);
    }
    return sum;
}

static int at_least0(int v)
{
    return v < 0 ? 0 : v;
}

int sb_cmd_power(const sb_state *s, int i, int cmd)
{
    const starbase_command *c = &sb_card(s, i)->commands[cmd];
    if (c->power == 0)
        return 0;
    return at_least0(c->power + s->in[i].tpow +
                     ship_sum(s, i, STARBASE_A_AURA, STARBASE_ST_POWER, 0));
}

int sb_ship_attack(const sb_state *s, int i)
{
    return at_least0(sb_card(s, i)->attack + s->in[i].tatk +
                     ship_sum(s, i, STARBASE_A_AURA, STARBASE_ST_ATTACK, 1));
}

int sb_ship_defence(const sb_state *s, int i)
{
    return at_least0(sb_card(s, i)->defence + s->in[i].tdef +
                     ship_sum(s, i, STARBASE_A_AURA, STARBASE_ST_DEFENCE, 1));
}

/* 1 when a working passive of kind reaches ship i (whatever its number). */
static int ship_reached(const sb_state *s, int i, int kind)
{
    sb_passive pv[SB_MAX_PASSIVES];
    int n = collect(s, pv);
    for (int k = 0; k < n; k++)
        if (pv[k].ab->kind == kind && reaches(s, &pv[k], i))
            return 1;
    return 0;
}

/* Pinned this turn by a one-shot pin, or by a passive pin at work. Before
 * edition 3 a passive pin was counted by its number, which a pin does not
 * have, so it pinned nothing; those games replay as they were played. */
int sb_pinned(const sb_state *s, int i)
{
    if (s->in[i].tpin)
        return 1;
    if (s->edition < SB_EDITION_PINS)
        return ship_sum(s, i, STARBASE_A_PIN, 0, 0) != 0;
    return ship_reached(s, i, STARBASE_A_PIN);
}

int sb_warps_allowed(const sb_state *s, int i)
{
    return 1 + s->in[i].textra +
           at_least0(ship_sum(s, i, STARBASE_A_WARPS, 0, 1));
}

int sb_can_warp(const sb_state *s, int i)
{
    const sb_inst *c = &s->in[i];
    if (c->zone != SB_Z_REGION || c->attacking || sb_pinned(s, i))
        return 0;
    /* the seed limits only an attacking ship; edition 1 allowed one warp
     * a phase (more with extra warps) */
    return s->edition != SB_EDITION_FIRST || c->warps < sb_warps_allowed(s, i);
}

/* The sum of a starbase stat's passives for seat. */
static int base_sum(const sb_state *s, int seat, int stat)
{
    sb_passive pv[SB_MAX_PASSIVES];
    int n = collect(s, pv), sum = 0;
    for (int k = 0; k < n; k++)
        if (pv[k].ab->kind == STARBASE_A_AURA && pv[k].ab->stat == stat &&
            pv[k].ab->target == STARBASE_TG_OWN_STARBASE && pv[k].ctrl == seat)
            sum += number(s, &pv[k]);
    return sum;
}

int sb_base_hull(const sb_state *s, int seat)
{
    return at_least0(sb_side(s, seat)->hull + s->p[seat].thull +
                     base_sum(s, seat, STARBASE_ST_HULL));
}

int sb_base_attack(const sb_state *s, int seat)
{
    return at_least0(sb_side(s, seat)->attack + s->p[seat].tatk +
                     base_sum(s, seat, STARBASE_ST_ATTACK));
}

int sb_assembly_bonus(const sb_state *s, int seat)
{
    sb_passive pv[SB_MAX_PASSIVES];
    int n = collect(s, pv), sum = 0;
    for (int k = 0; k < n; k++)
        if (pv[k].ab->kind == STARBASE_A_ASSEMBLY && pv[k].ctrl == seat)
            sum += number(s, &pv[k]);
    return sum;
}

int sb_income(const sb_state *s, int seat)
{
    int sum = sb_side(s, seat)->income;
    for (int i = 0; i < s->ninst; i++) {
        int z = s->in[i].zone;
        if ((z == SB_Z_LOCATION || z == SB_Z_OUTER) &&
            sb_controller(s, i) == seat)
            sum += sb_card(s, i)->income;
    }
    sb_passive pv[SB_MAX_PASSIVES];
    int n = collect(s, pv);
    for (int k = 0; k < n; k++) {
        if (pv[k].ab->kind != STARBASE_A_INCOME)
            continue;
        int t = pv[k].ab->target, v = number(s, &pv[k]);
        if (t == STARBASE_TG_YOU && pv[k].ctrl == seat)
            sum += v;
        else if (t == STARBASE_TG_EACH_OPPONENT && pv[k].ctrl != seat)
            sum -= v;
        else if (t == STARBASE_TG_OPPONENT && pv[k].target == seat)
            sum -= v;
    }
    return at_least0(sum);
}

int sb_ab_number(const sb_state *s, int inst, int cmd,
                 const starbase_ability *ab)
{
    if (ab->from_power && inst >= 0 && cmd >= 0)
        return sb_cmd_power(s, inst, cmd);
    switch (ab->kind) {
    case STARBASE_A_BOUNCE:
    case STARBASE_A_DESTROY:
    case STARBASE_A_DEACTIVATE:
        return ab->max_price;
    default:
        return ab->amount;
    }
}

/*
 * starbase_battle.c - Starbase's battle phase (ours; docs/games/starbase.md
 * "Battle phase"): one battle per attacked region in the order of the
 * first attack on it. Both sides deal their total attack at once; each
 * side's damage goes to the other side's cards cheapest-to-destroy first
 * (a starbase last), each taking just enough to be destroyed before the
 * next gets any. Then destruction and who holds the region.
 */
#include "engine/rules/starbase/starbase.h"

int sb_battle_live(const sb_state *s, int k)
{
    int r = s->attacks[k][0];
    if (r < 0 || !sb_region_valid(s, r))
        return 0;
    for (int i = 0; i < s->ninst; i++)
        if (s->in[i].zone == SB_Z_REGION && s->in[i].region == r &&
            s->in[i].owner == s->active && s->in[i].attacking)
            return 1;
    return 0;
}

/* What is left to destroy card i (a ship). */
static int left(const sb_state *s, int i)
{
    int d = sb_ship_defence(s, i) - s->in[i].damage;
    return d > 0 ? d : 0;
}

/* Share dmg over ships ids[0..n) cheapest-to-destroy first; what is left
 * goes to the starbase of `base` (-1: none), else to the last ship. */
static void share(sb_state *s, int *ids, int n, int dmg, int base)
{
    for (int a = 1; a < n; a++) /* insertion sort by what is left */
        for (int b = a; b > 0 && left(s, ids[b]) < left(s, ids[b - 1]); b--) {
            int t = ids[b];
            ids[b] = ids[b - 1];
            ids[b - 1] = t;
        }
    int need[SB_MAX_INST];
    for (int k = 0; k < n; k++)
        need[k] = left(s, ids[k]);
    for (int k = 0; k < n && dmg > 0; k++) {
        int take = dmg < need[k] ? dmg : need[k];
        if (k == n - 1 && base < 0)
            take = dmg;
        s->in[ids[k]].damage += take;
        dmg -= take;
    }
    if (dmg > 0 && base >= 0)
        s->p[base].damage += dmg;
}

/* Attack k's two sides: ships of the active player attacking its region,
 * and the defender's ships there. */
static void sides(const sb_state *s, int k, int *att, int *na, int *def,
                  int *nd)
{
    int r = s->attacks[k][0], d = s->attacks[k][1];
    *na = *nd = 0;
    for (int i = 0; i < s->ninst; i++) {
        const sb_inst *c = &s->in[i];
        if (c->zone != SB_Z_REGION || c->region != r)
            continue;
        if (c->owner == s->active && c->attacking)
            att[(*na)++] = i;
        else if (c->owner == d)
            def[(*nd)++] = i;
    }
}

/* After the damage: fall back, or take the region. */
static void outcome(sb_state *s, engine_ctx *ctx, int k)
{
    int r = s->attacks[k][0], a = s->active;
    int att[SB_MAX_INST], def[SB_MAX_INST], na, nd;
    sides(s, k, att, &na, def, &nd);
    char rn[64];
    sb_region_name(s, r, rn, sizeof rn);
    if (r >= SB_HOME_COUNT && nd == 0 && na > 0) {
        s->in[r - SB_HOME_COUNT].ctrl = a;
        for (int i = 0; i < na; i++)
            s->in[att[i]].attacking = 0;
        sb_log(ctx, "battle", "Seat %d takes %s.", a, rn);
        return;
    }
    for (int i = 0; i < na; i++) {
        s->in[att[i]].region = a;
        s->in[att[i]].attacking = 0;
    }
    if (na > 0)
        sb_log(ctx, "battle", "Seat %d's attackers fall back from %s.", a, rn);
    sb_update_control(s);
}

void sb_resolve_battle(sb_state *s, engine_ctx *ctx, int k)
{
    if (k >= s->nattacks || !sb_battle_live(s, k))
        return;
    int r = s->attacks[k][0], d = s->attacks[k][1];
    int att[SB_MAX_INST], def[SB_MAX_INST], na, nd;
    sides(s, k, att, &na, def, &nd);
    char rn[64];
    sb_region_name(s, r, rn, sizeof rn);
    int home = r == d;
    if (!home && nd == 0) {
        outcome(s, ctx, k); /* no fight: the attackers take it */
        return;
    }
    int da = 0, dd = home ? sb_base_attack(s, d) : 0;
    for (int i = 0; i < na; i++)
        da += sb_ship_attack(s, att[i]);
    for (int i = 0; i < nd; i++)
        dd += sb_ship_attack(s, def[i]);
    sb_log(ctx, "battle",
           "Battle at %s: seat %d's %d ship(s) deal %d damage, seat %d's "
           "defence deals %d.",
           rn, s->active, na, da, d, dd);
    share(s, def, nd, da, home ? d : -1);
    share(s, att, na, dd, -1);
    sb_check(s, ctx);
    if (!s->over && s->p[d].alive)
        outcome(s, ctx, k);
}

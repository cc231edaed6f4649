/*
 * starbase_effects.c - Starbase's ability interpreter: which chosen targets
 * are legal for an ability, and what a one-shot ability (a news's play
 * ability, a management or instant ability or command) does. Every card's
 * effect comes from its data (docs/games/starbase.md, "Ability
 * vocabulary"); there is no code for any single card.
 */
#include "engine/rules/starbase/starbase.h"

static int price_ok(const sb_state *s, int i, int max_price)
{
    return max_price < 0 || sb_card(s, i)->price <= max_price;
}

static int seat_ok(const sb_state *s, int seat, int t)
{
    return t >= 0 && t < s->seats && t != seat && s->p[t].alive;
}

static int inst_ok(const sb_state *s, int t)
{
    return t >= 0 && t < s->ninst;
}

/* A chosen ship target: in a region (docked ships are safe), whose owner
 * matches `who` (1 mine, -1 an enemy's, 0 anyone's). */
static int ship_ok(const sb_state *s, int seat, int t, int who, int max_price)
{
    if (!inst_ok(s, t) || s->in[t].zone != SB_Z_REGION)
        return 0;
    int mine = s->in[t].owner == seat;
    return (who == 0 || (who > 0) == mine) && price_ok(s, t, max_price);
}

int sb_target_ok(const sb_state *s, int seat, const starbase_ability *ab, int n,
                 int t)
{
    int mp = (ab->kind == STARBASE_A_BOUNCE || ab->kind == STARBASE_A_DESTROY ||
              ab->kind == STARBASE_A_DEACTIVATE)
                 ? n
                 : -1;
    switch (ab->target) {
    case STARBASE_TG_OPPONENT:
    case STARBASE_TG_ENEMY_STARBASE:
        return seat_ok(s, seat, t);
    case STARBASE_TG_OWN_SHIP:
        if (ab->kind == STARBASE_A_ASSEMBLY)
            return inst_ok(s, t) && s->in[t].owner == seat &&
                   s->in[t].zone == SB_Z_DOCK && s->in[t].count > 0;
        return ship_ok(s, seat, t, 1, mp);
    case STARBASE_TG_ENEMY_SHIP:
        return ship_ok(s, seat, t, -1, mp);
    case STARBASE_TG_SHIP:
        return ship_ok(s, seat, t, 0, mp);
    case STARBASE_TG_ENEMY_LOCATION:
        return inst_ok(s, t) && s->in[t].zone == SB_Z_LOCATION &&
               sb_controller(s, t) >= 0 && sb_controller(s, t) != seat &&
               price_ok(s, t, mp);
    case STARBASE_TG_ENEMY_STRUCTURE:
        return inst_ok(s, t) && s->in[t].zone == SB_Z_STRUCTURE &&
               s->in[t].owner != seat && price_ok(s, t, mp);
    case STARBASE_TG_NEWS:
        return inst_ok(s, t) && s->in[t].zone == SB_Z_NEWS &&
               price_ok(s, t, mp);
    default:
        return t == -1; /* not chosen: no target field */
    }
}

/* Lose up to n ISK (never below 0). */
static void lose_isk(sb_state *s, int seat, int n)
{
    s->p[seat].isk = s->p[seat].isk > n ? s->p[seat].isk - n : 0;
}

/* Seat discards n cards at random (the game's RNG; the cards go face up to
 * the scrapheap, so the log names them). */
static void discard_random(sb_state *s, engine_ctx *ctx, int seat, int n)
{
    for (int k = 0; k < n; k++) {
        int hand[SB_MAX_INST], h = 0;
        for (int i = 0; i < s->ninst; i++)
            if (s->in[i].owner == seat && s->in[i].zone == SB_Z_HAND)
                hand[h++] = i;
        if (h == 0)
            return;
        int pick = hand[engine_rng_below(engine_ctx_rng(ctx), (uint32_t)h)];
        sb_move(s, pick, SB_Z_SCRAP, -1);
        sb_log(ctx, "discard", "Seat %d discards %s at random.", seat,
               sb_name(s, pick));
    }
}

/* Does ship i get a "this turn" change from ab (target set, not chosen)? */
static int in_set(const sb_state *s, int seat, int src, int target, int i)
{
    const sb_inst *c = &s->in[i];
    if (c->zone != SB_Z_REGION)
        return 0;
    int mine = c->owner == seat;
    int here = src >= 0 && (s->in[src].zone == SB_Z_REGION ||
                            s->in[src].zone == SB_Z_LOCATION)
                   ? c->region == s->in[src].region
               : src >= 0 && s->in[src].zone == SB_Z_OUTER
                   ? c->region == SB_REGION_OF(src)
                   : 0;
    switch (target) {
    case STARBASE_TG_SELF:
        return i == src;
    case STARBASE_TG_OWN_SHIPS:
        return mine;
    case STARBASE_TG_ENEMY_SHIPS:
        return !mine;
    case STARBASE_TG_OWN_SHIPS_HERE:
        return mine && here;
    case STARBASE_TG_ENEMY_SHIPS_HERE:
        return !mine && here;
    default:
        return 0;
    }
}

/* A ship-affecting one-shot effect on ship i. */
static void on_ship(sb_state *s, engine_ctx *ctx, int seat,
                    const starbase_ability *ab, int n, int i)
{
    sb_inst *c = &s->in[i];
    int sign = c->owner == seat ? 1 : -1;
    switch (ab->kind) {
    case STARBASE_A_DAMAGE:
        c->damage += n;
        sb_log(ctx, "damage", "%s (seat %d) takes %d damage.", sb_name(s, i),
               c->owner, n);
        break;
    case STARBASE_A_BOUNCE:
        sb_log(ctx, "bounce", "%s returns to seat %d's hand.", sb_name(s, i),
               c->owner);
        sb_move(s, i, SB_Z_HAND, -1);
        break;
    case STARBASE_A_DESTROY:
        sb_log(ctx, "destroyed", "%s (seat %d) is destroyed.", sb_name(s, i),
               c->owner);
        sb_move(s, i, SB_Z_SCRAP, -1);
        break;
    case STARBASE_A_DEACTIVATE:
        c->cmd = -1;
        sb_log(ctx, "deactivate", "%s's command is deactivated.",
               sb_name(s, i));
        break;
    case STARBASE_A_PIN:
        c->tpin = 1;
        sb_log(ctx, "pin", "%s cannot warp or activate commands this turn.",
               sb_name(s, i));
        break;
    case STARBASE_A_WARPS:
        c->textra += n;
        break;
    case STARBASE_A_ASSEMBLY:
        c->count = c->count > n ? c->count - n : 0;
        break;
    case STARBASE_A_AURA:
        if (ab->stat == STARBASE_ST_ATTACK)
            c->tatk += sign * n;
        else if (ab->stat == STARBASE_ST_DEFENCE)
            c->tdef += sign * n;
        else if (ab->stat == STARBASE_ST_POWER)
            c->tpow += sign * n;
        break;
    default:
        break;
    }
}

/* Effects on players and starbases; 1 when handled. */
static int on_player(sb_state *s, engine_ctx *ctx, int seat,
                     const starbase_ability *ab, int n, int t)
{
    switch (ab->kind) {
    case STARBASE_A_ISK:
        for (int p = 0; p < s->seats; p++) {
            if (!s->p[p].alive)
                continue;
            if (ab->target == STARBASE_TG_YOU && p == seat)
                s->p[p].isk += n;
            else if ((ab->target == STARBASE_TG_EACH_OPPONENT && p != seat) ||
                     (ab->target == STARBASE_TG_OPPONENT && p == t))
                lose_isk(s, p, n);
        }
        return 1;
    case STARBASE_A_DRAW:
        for (int k = 0; k < n; k++)
            sb_draw(s, ctx, seat);
        return 1;
    case STARBASE_A_DISCARD:
        for (int p = 0; p < s->seats; p++)
            if (s->p[p].alive &&
                ((ab->target == STARBASE_TG_EACH_OPPONENT && p != seat) ||
                 (ab->target == STARBASE_TG_OPPONENT && p == t)))
                discard_random(s, ctx, p, n);
        return 1;
    case STARBASE_A_REPAIR:
        s->p[seat].damage = s->p[seat].damage > n ? s->p[seat].damage - n : 0;
        return 1;
    default:
        break;
    }
    if (ab->target == STARBASE_TG_ENEMY_STARBASE && seat_ok(s, seat, t)) {
        s->p[t].damage += n; /* damage is the only kind aimed at a starbase */
        sb_log(ctx, "damage", "Seat %d's starbase takes %d damage.", t, n);
        return 1;
    }
    if (ab->target == STARBASE_TG_OWN_STARBASE && ab->kind == STARBASE_A_AURA) {
        if (ab->stat == STARBASE_ST_HULL)
            s->p[seat].thull += n;
        else
            s->p[seat].tatk += n;
        return 1;
    }
    return 0;
}

void sb_effect(sb_state *s, engine_ctx *ctx, int seat, int src,
               const starbase_ability *ab, int n, int t)
{
    if (!s->p[seat].alive || on_player(s, ctx, seat, ab, n, t))
        return;
    if (t >= 0 && starbase_target_chosen(ab->target)) {
        if (!sb_target_ok(s, seat, ab, n, t))
            return; /* gone since it was chosen */
        if (s->in[t].zone == SB_Z_REGION || s->in[t].zone == SB_Z_DOCK)
            on_ship(s, ctx, seat, ab, n, t);
        else {
            int dest = ab->kind == STARBASE_A_BOUNCE ? SB_Z_HAND : SB_Z_SCRAP;
            sb_log(ctx, "destroyed", "%s (seat %d) %s.", sb_name(s, t),
                   s->in[t].owner,
                   dest == SB_Z_HAND ? "returns to its owner's hand"
                                     : "goes to the scrapheap");
            sb_move(s, t, dest, -1);
        }
        return;
    }
    for (int i = 0; i < s->ninst; i++)
        if (in_set(s, seat, src, ab->target, i))
            on_ship(s, ctx, seat, ab, n, i);
}

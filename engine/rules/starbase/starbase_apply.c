/*
 * starbase_apply.c - Starbase's actions carried out (after
 * sb_check_action accepted them), with their log lines in plain words, and
 * the list of every legal action of a seat (for clients, bots and tests).
 */
#include "engine/rules/starbase/starbase.h"

#include <stdio.h>

/* Does ability ab with chosen target t reach another player than seat? */
static int reaches_other(const sb_state *s, int seat,
                         const starbase_ability *ab, int t)
{
    switch (ab->target) {
    case STARBASE_TG_OPPONENT:
    case STARBASE_TG_ENEMY_STARBASE:
    case STARBASE_TG_EACH_OPPONENT:
    case STARBASE_TG_ENEMY_SHIPS:
    case STARBASE_TG_ENEMY_SHIPS_HERE:
        return 1;
    default:
        break;
    }
    return t >= 0 && starbase_target_chosen(ab->target) && t < s->ninst &&
           sb_controller(s, t) != seat;
}

static void play_news(sb_state *s, engine_ctx *ctx, int seat, int i, int t)
{
    const starbase_card *c = sb_card(s, i);
    sb_move(s, i, SB_Z_NEWS, -1);
    s->in[i].count = c->duration;
    s->in[i].target = t;
    for (int k = 0; k < c->nab; k++)
        if (c->ab[k].timing == STARBASE_T_PLAY)
            sb_effect(s, ctx, seat, i, &c->ab[k],
                      sb_ab_number(s, -1, -1, &c->ab[k]),
                      starbase_target_chosen(c->ab[k].target) ? t : -1);
    if (c->duration == 0 && s->in[i].zone == SB_Z_NEWS)
        sb_move(s, i, SB_Z_SCRAP, -1);
}

static int apply_play(sb_state *s, engine_ctx *ctx, int seat,
                      const sb_action *a)
{
    const starbase_card *c = sb_card(s, a->card);
    char where[80] = "";
    s->p[seat].isk -= c->price;
    switch (c->kind) {
    case STARBASE_SHIP:
        sb_move(s, a->card, SB_Z_DOCK, -1);
        s->in[a->card].count = c->assembly;
        break;
    case STARBASE_LOCATION:
        sb_move(s, a->card, SB_Z_LOCATION, a->region);
        where[0] = ' ';
        where[1] = 'i';
        where[2] = 'n';
        where[3] = ' ';
        sb_region_name(s, a->region, where + 4, sizeof where - 4);
        break;
    case STARBASE_STRUCTURE:
        sb_move(s, a->card, SB_Z_STRUCTURE, -1);
        break;
    default:
        break;
    }
    sb_log(ctx, "play", "Seat %d plays %s%s for %d ISK.", seat, c->name, where,
           c->price);
    if (c->kind != STARBASE_NEWS)
        return 0;
    int other = 0;
    for (int k = 0; k < c->nab; k++)
        other |= reaches_other(s, seat, &c->ab[k], a->target);
    play_news(s, ctx, seat, a->card, a->target);
    return other;
}

static int apply_ability(sb_state *s, engine_ctx *ctx, int seat,
                         const sb_action *a)
{
    sb_inst *i = &s->in[a->card];
    const starbase_card *c = sb_card(s, a->card);
    int cmd = i->zone == SB_Z_REGION ? i->cmd : -1;
    const starbase_ability *ab =
        cmd >= 0 ? &c->commands[cmd].ab : &c->ab[a->index];
    int n = sb_ab_number(s, a->card, cmd, ab);
    char text[200];
    starbase_ability_text(ab, n, text, sizeof text);
    s->p[seat].isk -= ab->cost;
    i->used |= 1 << (cmd >= 0 ? cmd : a->index);
    sb_log(ctx, "ability", "Seat %d uses %s: %s", seat, c->name, text);
    int other = reaches_other(s, seat, ab, a->target);
    sb_effect(s, ctx, seat, a->card, ab, n, a->target);
    return other;
}

/* Warp; 1 when it is an attack. */
static int apply_warp(sb_state *s, engine_ctx *ctx, int seat,
                      const sb_action *a)
{
    sb_inst *i = &s->in[a->card];
    int ctrl = sb_region_ctrl(s, a->region);
    char rn[64];
    sb_region_name(s, a->region, rn, sizeof rn);
    i->cmd = -1;
    i->warps++;
    i->region = a->region;
    if (ctrl < 0 || ctrl == seat) {
        sb_log(ctx, "warp", "Seat %d warps %s to %s.", seat,
               sb_name(s, a->card), rn);
        sb_update_control(s);
        return 0;
    }
    i->attacking = 1;
    int k = 0;
    while (k < s->nattacks && s->attacks[k][0] != a->region)
        k++;
    if (k == s->nattacks && k < SB_MAX_ATTACKS) {
        s->attacks[k][0] = a->region;
        s->attacks[k][1] = ctrl;
        s->nattacks++;
    }
    sb_log(ctx, "attack", "Seat %d warps %s to %s and attacks seat %d.", seat,
           sb_name(s, a->card), rn, ctrl);
    return 1;
}

int sb_apply_action(sb_state *s, engine_ctx *ctx, int seat, const sb_action *a)
{
    int give = 0;
    switch (a->kind) {
    case SB_A_FORFEIT:
        s->p[seat].forfeit = 1;
        sb_log(ctx, "forfeit",
               "Seat %d forfeits its income this turn to draw a card.", seat);
        give = 1;
        break;
    case SB_A_PLAY:
        give = apply_play(s, ctx, seat, a);
        break;
    case SB_A_OUTER:
        s->p[seat].isk -= sb_card(s, a->card)->price;
        sb_move(s, a->card, SB_Z_OUTER, -1);
        sb_log(ctx, "outer", "Seat %d plays the outer region %s for %d ISK.",
               seat, sb_name(s, a->card), sb_card(s, a->card)->price);
        break;
    case SB_A_UPGRADE: {
        const starbase_market *m = &sb_cs()->markets[s->p[seat].market];
        s->p[seat].isk -= sb_cs()->stations[m->station].upgrade_price;
        s->p[seat].upgraded = 1;
        sb_log(ctx, "upgrade", "Seat %d upgrades its starbase to %s.", seat,
               sb_side(s, seat)->name);
        break;
    }
    case SB_A_DOCK:
        sb_move(s, a->card, SB_Z_DOCK, -1);
        sb_log(ctx, "dock", "Seat %d docks %s.", seat, sb_name(s, a->card));
        break;
    case SB_A_UNDOCK:
        s->in[a->card].zone = SB_Z_REGION;
        s->in[a->card].region = seat;
        sb_log(ctx, "undock", "Seat %d undocks %s.", seat, sb_name(s, a->card));
        break;
    case SB_A_WARP:
        give = apply_warp(s, ctx, seat, a);
        break;
    case SB_A_ACTIVATE:
        s->in[a->card].cmd = a->index;
        sb_log(ctx, "activate", "Seat %d activates %s's command %s.", seat,
               sb_name(s, a->card),
               sb_card(s, a->card)->commands[a->index].name);
        break;
    case SB_A_DEACTIVATE:
        s->in[a->card].cmd = -1;
        sb_log(ctx, "deactivate", "Seat %d deactivates %s's command.", seat,
               sb_name(s, a->card));
        break;
    case SB_A_ABILITY:
        give = apply_ability(s, ctx, seat, a);
        break;
    case SB_A_DISCARD:
        sb_move(s, a->card, SB_Z_SCRAP, -1);
        sb_log(ctx, "discard", "Seat %d discards %s.", seat,
               sb_name(s, a->card));
        break;
    default:
        break;
    }
    sb_check(s, ctx);
    return give;
}

/* ------------------------------------------------------------ listing -- */

typedef struct lister {
    const sb_state *s;
    int seat, step, n, max;
    sb_action *out;
} lister;

static void try_add(lister *l, int kind, int card, int index, int target,
                    int region)
{
    sb_action a = {kind, card, index, target, region};
    if (l->n < l->max && sb_check_action(l->s, l->seat, l->step, &a, NULL) == 0)
        l->out[l->n++] = a;
}

/* With every target that could be legal (seats, then cards in play). */
static void try_targets(lister *l, int kind, int card, int index, int region)
{
    const sb_state *s = l->s;
    try_add(l, kind, card, index, -1, region);
    for (int t = 0; t < s->ninst; t++) {
        int z = s->in[t].zone;
        if (t < s->seats || z == SB_Z_REGION || z == SB_Z_LOCATION ||
            z == SB_Z_STRUCTURE || z == SB_Z_NEWS || z == SB_Z_DOCK)
            try_add(l, kind, card, index, t, region);
    }
}

static void list_card(lister *l, int i)
{
    const sb_state *s = l->s;
    const sb_inst *c = &s->in[i];
    const starbase_card *d = sb_card(s, i);
    if (c->zone == SB_Z_HAND && c->owner == l->seat) {
        if (d->kind == STARBASE_LOCATION) {
            for (int r = 0; r < SB_HOME_COUNT + s->ninst; r++)
                if (sb_region_valid(s, r))
                    try_add(l, SB_A_PLAY, i, -1, -1, r);
        } else if (d->kind == STARBASE_NEWS)
            try_targets(l, SB_A_PLAY, i, -1, -1);
        else
            try_add(l, SB_A_PLAY, i, -1, -1, -1);
        try_add(l, SB_A_DISCARD, i, -1, -1, -1);
        return;
    }
    if (c->owner == l->seat && c->zone == SB_Z_OUTER_STACK)
        try_add(l, SB_A_OUTER, i, -1, -1, -1);
    if (c->owner == l->seat && d->kind == STARBASE_SHIP) {
        try_add(l, SB_A_DOCK, i, -1, -1, -1);
        try_add(l, SB_A_UNDOCK, i, -1, -1, -1);
        try_add(l, SB_A_DEACTIVATE, i, -1, -1, -1);
        for (int k = 0; k < d->ncommands; k++)
            try_add(l, SB_A_ACTIVATE, i, k, -1, -1);
        if (c->zone == SB_Z_REGION)
            for (int r = 0; r < SB_HOME_COUNT + s->ninst; r++)
                if (sb_region_valid(s, r) && r != c->region)
                    try_add(l, SB_A_WARP, i, -1, -1, r);
    }
    if (sb_controller(s, i) == l->seat && c->zone != SB_Z_NEWS &&
        c->zone != SB_Z_DOCK) {
        int nab = d->kind == STARBASE_SHIP ? d->ncommands : d->nab;
        for (int k = 0; k < nab; k++) {
            const starbase_ability *ab =
                d->kind == STARBASE_SHIP ? &d->commands[k].ab : &d->ab[k];
            if (ab->timing == STARBASE_T_MANAGEMENT ||
                ab->timing == STARBASE_T_INSTANT)
                try_targets(l, SB_A_ABILITY, i, k, -1);
        }
    }
}

int sb_list_actions(const sb_state *s, int seat, int step, sb_action *out,
                    int max)
{
    lister l = {s, seat, step, 0, max, out};
    if (s->over || seat < 0 || seat >= s->seats || !s->p[seat].alive)
        return 0;
    try_add(&l, SB_A_FORFEIT, -1, -1, -1, -1);
    try_add(&l, SB_A_UPGRADE, -1, -1, -1, -1);
    for (int i = 0; i < s->ninst; i++)
        list_card(&l, i);
    return l.n;
}

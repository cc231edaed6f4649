/*
 * starbase_query.c - Starbase's state helpers: where cards are, which
 * regions exist and who controls them, moving cards between zones,
 * drawing, losing the game and the checks that run after every change
 * (destroyed ships and starbases, region control, the end of the game).
 */
#include "engine/rules/starbase/starbase.h"

#include <stdarg.h>
#include <stdio.h>

const starbase_cardset *sb_cs(void)
{
    return starbase_cards();
}

const starbase_card *sb_card(const sb_state *s, int inst)
{
    return &sb_cs()->cards[s->in[inst].card];
}

const starbase_side *sb_side(const sb_state *s, int seat)
{
    const starbase_market *m = &sb_cs()->markets[s->p[seat].market];
    return &sb_cs()->stations[m->station].side[s->p[seat].upgraded ? 1 : 0];
}

int sb_region_valid(const sb_state *s, int r)
{
    if (r >= 0 && r < s->seats)
        return s->p[r].alive;
    int i = r - SB_HOME_COUNT;
    return i >= 0 && i < s->ninst && s->in[i].zone == SB_Z_OUTER;
}

int sb_region_ctrl(const sb_state *s, int r)
{
    if (!sb_region_valid(s, r))
        return -1;
    if (r < SB_HOME_COUNT)
        return r;
    return s->in[r - SB_HOME_COUNT].ctrl;
}

int sb_controller(const sb_state *s, int i)
{
    const sb_inst *c = &s->in[i];
    switch (c->zone) {
    case SB_Z_LOCATION:
        return sb_region_ctrl(s, c->region);
    case SB_Z_OUTER:
        return c->ctrl;
    case SB_Z_REGION:
    case SB_Z_DOCK:
    case SB_Z_NEWS:
    case SB_Z_STRUCTURE:
        return c->owner;
    default:
        return -1;
    }
}

int sb_count_zone(const sb_state *s, int seat, int zone)
{
    int n = 0;
    for (int i = 0; i < s->ninst; i++)
        n += s->in[i].owner == seat && s->in[i].zone == zone;
    return n;
}

int sb_market_top(const sb_state *s, int seat)
{
    int best = -1;
    for (int i = 0; i < s->ninst; i++)
        if (s->in[i].owner == seat && s->in[i].zone == SB_Z_MARKET &&
            (best < 0 || s->in[i].seq > s->in[best].seq))
            best = i;
    return best;
}

int sb_alive_count(const sb_state *s)
{
    int n = 0;
    for (int p = 0; p < s->seats; p++)
        n += s->p[p].alive;
    return n;
}

uint32_t sb_alive_mask(const sb_state *s)
{
    uint32_t m = 0;
    for (int p = 0; p < s->seats; p++)
        if (s->p[p].alive)
            m |= 1u << p;
    return m;
}

int sb_next_alive(const sb_state *s, int seat)
{
    for (int k = 1; k <= s->seats; k++) {
        int n = (seat + k) % s->seats;
        if (s->p[n].alive)
            return n;
    }
    return seat;
}

void sb_move(sb_state *s, int i, int zone, int region)
{
    sb_inst *c = &s->in[i];
    c->zone = zone;
    c->region = region;
    c->count = 0;
    c->cmd = -1;
    c->damage = 0;
    c->attacking = 0;
    c->target = -1;
    c->ctrl = -1;
    c->tatk = c->tdef = c->tpow = c->tpin = c->textra = 0;
    if (zone == SB_Z_HAND)
        c->seq = s->next_seq++;
}

/* Seat's ships in region r. */
static int ships_in(const sb_state *s, int r, int seat)
{
    int n = 0;
    for (int i = 0; i < s->ninst; i++)
        n += s->in[i].zone == SB_Z_REGION && s->in[i].region == r &&
             s->in[i].owner == seat;
    return n;
}

void sb_update_control(sb_state *s)
{
    for (int i = 0; i < s->ninst; i++) {
        sb_inst *o = &s->in[i];
        if (o->zone != SB_Z_OUTER)
            continue;
        int r = SB_REGION_OF(i);
        if (o->ctrl >= 0 && ships_in(s, r, o->ctrl) > 0)
            continue;
        o->ctrl = -1;
        if (ships_in(s, r, s->active) > 0) {
            o->ctrl = s->active;
            continue;
        }
        for (int p = 0; p < s->seats && o->ctrl < 0; p++)
            if (ships_in(s, r, p) > 0)
                o->ctrl = p;
    }
}

void sb_log(engine_ctx *ctx, const char *type, const char *fmt, ...)
{
    char buf[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    engine_ctx_log(ctx, json_pack("{s:s, s:s}", "type", type, "text", buf));
}

const char *sb_name(const sb_state *s, int inst)
{
    return sb_card(s, inst)->name;
}

int sb_region_name(const sb_state *s, int r, char *buf, size_t size)
{
    if (r < SB_HOME_COUNT || r - SB_HOME_COUNT >= s->ninst)
        return snprintf(buf, size, "seat %d's home region", r);
    return snprintf(buf, size, "%s", sb_name(s, r - SB_HOME_COUNT));
}

void sb_draw(sb_state *s, engine_ctx *ctx, int seat)
{
    if (!s->p[seat].alive)
        return;
    int top = sb_market_top(s, seat);
    if (top < 0) {
        sb_lose(s, ctx, seat, "must draw from an empty market");
        return;
    }
    sb_move(s, top, SB_Z_HAND, -1);
    sb_log(ctx, "draw", "Seat %d draws a card.", seat);
    char buf[96];
    snprintf(buf, sizeof buf, "You drew %s.", sb_name(s, top));
    engine_ctx_log_private(
        ctx, seat,
        json_pack("{s:s, s:s, s:i}", "type", "drew", "text", buf, "card", top));
}

/* Every card seat owns leaves play; ships in its home region and in outer
 * regions it owned fall back (to their owners' homes / docks). */
static void leave_play(sb_state *s, int seat)
{
    for (int i = 0; i < s->ninst; i++) {
        sb_inst *c = &s->in[i];
        if (c->owner == seat && c->zone != SB_Z_MARKET &&
            c->zone != SB_Z_HAND && c->zone != SB_Z_SCRAP &&
            c->zone != SB_Z_OUTER_STACK)
            sb_move(s, i, SB_Z_SCRAP, -1);
    }
    for (int i = 0; i < s->ninst; i++) {
        sb_inst *c = &s->in[i];
        if (c->zone == SB_Z_REGION && !sb_region_valid(s, c->region))
            sb_move(s, i, SB_Z_REGION, c->owner); /* falls back home */
        else if (c->zone == SB_Z_LOCATION && !sb_region_valid(s, c->region))
            sb_move(s, i, SB_Z_SCRAP, -1);
    }
}

void sb_lose(sb_state *s, engine_ctx *ctx, int seat, const char *why)
{
    if (!s->p[seat].alive)
        return;
    s->p[seat].alive = 0;
    s->p[seat].lost_turn = s->turn;
    sb_log(ctx, "lost", "Seat %d %s and loses the game.", seat, why);
    leave_play(s, seat);
    for (int k = 0; k < s->nattacks; k++)
        if (s->attacks[k][1] == seat)
            s->attacks[k][0] = -1; /* nothing left to fight for */
    if (sb_alive_count(s) <= 1)
        s->over = 1;
}

static void destroy_ships(sb_state *s, engine_ctx *ctx)
{
    for (int i = 0; i < s->ninst; i++) {
        if (s->in[i].zone != SB_Z_REGION)
            continue;
        if (s->in[i].damage >= sb_ship_defence(s, i)) {
            sb_log(ctx, "destroyed", "Seat %d's %s is destroyed.",
                   s->in[i].owner, sb_name(s, i));
            sb_move(s, i, SB_Z_SCRAP, -1);
        }
    }
}

void sb_check(sb_state *s, engine_ctx *ctx)
{
    /* Destroying a ship can switch off an aura that kept another alive:
     * repeat until nothing changes (each pass removes a card or stops). */
    for (int pass = 0; pass < SB_MAX_INST; pass++) {
        int n = 0;
        for (int i = 0; i < s->ninst; i++)
            n += s->in[i].zone == SB_Z_SCRAP;
        destroy_ships(s, ctx);
        int lost = 0;
        for (int p = 0; p < s->seats; p++)
            if (s->p[p].alive && s->p[p].damage >= sb_base_hull(s, p)) {
                sb_lose(s, ctx, p, "has its starbase destroyed");
                lost = 1;
            }
        int m = 0;
        for (int i = 0; i < s->ninst; i++)
            m += s->in[i].zone == SB_Z_SCRAP;
        if (m == n && !lost)
            break;
    }
    sb_update_control(s);
    if (sb_alive_count(s) <= 1)
        s->over = 1;
}

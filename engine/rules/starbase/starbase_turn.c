/*
 * starbase_turn.c - Starbase's turn: the start of a turn (the duration and
 * assembly steps), the priority steps the turn goes through ("setup" with
 * the forfeit choice, "management", one "battle" per attacked region,
 * "discard" at the hand limit), the income step and the draw phase between
 * setup and management (nobody gets priority in the draw phase), the end
 * phase, and what happens when a player loses in the middle of it all.
 */
#include "engine/rules/starbase/starbase.h"

const char *const sb_step_names[SB_STEP_COUNT] = {
    "none", "setup", "management", "battle", "discard", "end"};

void sb_open(sb_state *s, engine_ctx *ctx, int step)
{
    s->step = step;
    if (s->over)
        return;
    uint32_t round =
        step == SB_STEP_DISCARD ? 1u << s->active : sb_alive_mask(s);
    engine_ctx_priority_begin(ctx, sb_step_names[step], round, s->active);
}

/* Duration step: the active player's news count down; one at I expires. */
static void duration_step(sb_state *s, engine_ctx *ctx, int seat)
{
    for (int i = 0; i < s->ninst; i++) {
        sb_inst *c = &s->in[i];
        if (c->owner != seat || c->zone != SB_Z_NEWS ||
            c->count == STARBASE_DURATION_INFINITE)
            continue;
        if (c->count <= 1) {
            sb_log(ctx, "expired", "%s expires and goes to the scrapheap.",
                   sb_name(s, i));
            sb_move(s, i, SB_Z_SCRAP, -1);
        } else
            c->count--;
    }
}

/* Assembly step: ships being assembled count down (more with speed-up). */
static void assembly_step(sb_state *s, engine_ctx *ctx, int seat)
{
    int steps = 1 + sb_assembly_bonus(s, seat);
    for (int i = 0; i < s->ninst; i++) {
        sb_inst *c = &s->in[i];
        if (c->owner != seat || c->zone != SB_Z_DOCK || c->count == 0)
            continue;
        c->count = c->count > steps ? c->count - steps : 0;
        if (c->count == 0)
            sb_log(ctx, "assembled", "Seat %d's %s is fully assembled.", seat,
                   sb_name(s, i));
    }
}

void sb_begin_turn(sb_state *s, engine_ctx *ctx, int seat)
{
    s->active = seat;
    s->turn++;
    s->nattacks = 0;
    s->battle = 0;
    engine_ctx_turn_begin(ctx, seat);
    for (int i = 0; i < s->ninst; i++)
        s->in[i].used = 0;
    for (int p = 0; p < s->seats; p++)
        s->p[p].forfeit = 0;
    sb_log(ctx, "turn", "Turn %d: seat %d's turn begins.", s->turn, seat);
    duration_step(s, ctx, seat);
    assembly_step(s, ctx, seat);
    sb_check(s, ctx);
    sb_open(s, ctx, SB_STEP_SETUP);
}

static void next_turn(sb_state *s, engine_ctx *ctx)
{
    if (!s->over)
        sb_begin_turn(s, ctx, sb_next_alive(s, s->active));
}

/* Income step, then the draw phase; then the management phase. */
static void income_and_draw(sb_state *s, engine_ctx *ctx)
{
    int a = s->active;
    if (s->p[a].forfeit)
        sb_draw(s, ctx, a);
    else {
        int n = sb_income(s, a);
        s->p[a].isk += n;
        sb_log(ctx, "income", "Seat %d collects %d ISK.", a, n);
    }
    if (s->p[a].alive && !(s->seats == 2 && s->turn == 1))
        sb_draw(s, ctx, a);
    else if (s->p[a].alive)
        sb_log(ctx, "no_draw",
               "Seat %d skips the draw phase of the first turn.", a);
    sb_check(s, ctx);
    if (!s->p[a].alive)
        next_turn(s, ctx);
    else
        sb_open(s, ctx, SB_STEP_MANAGEMENT);
}

/* End phase: "this turn" ends, then the hand limit. */
static void end_phase(sb_state *s, engine_ctx *ctx)
{
    for (int i = 0; i < s->ninst; i++) {
        sb_inst *c = &s->in[i];
        c->tatk = c->tdef = c->tpow = c->tpin = c->textra = 0;
        c->attacking = 0;
        c->warps = 0;
        if (c->zone == SB_Z_REGION)
            c->damage = 0;
    }
    for (int p = 0; p < s->seats; p++)
        s->p[p].tatk = s->p[p].thull = 0;
    s->nattacks = 0;
    s->battle = 0;
    sb_check(s, ctx);
    if (s->over)
        return;
    if (s->p[s->active].alive &&
        sb_count_zone(s, s->active, SB_Z_HAND) > sb_cs()->setup.hand_limit)
        sb_open(s, ctx, SB_STEP_DISCARD);
    else
        next_turn(s, ctx);
}

/* The end phase begins: in edition 2 everybody gets priority once, the
 * active player first (the seed: only the draw phase has none), then it
 * ends; edition 1 went straight to the end. */
static void enter_end_phase(sb_state *s, engine_ctx *ctx)
{
    if (s->edition != SB_EDITION_FIRST)
        sb_open(s, ctx, SB_STEP_END);
    else
        end_phase(s, ctx);
}

/* The next battle from k on, or the end phase. */
static void next_battle(sb_state *s, engine_ctx *ctx, int k)
{
    while (k < s->nattacks && !sb_battle_live(s, k))
        k++;
    s->battle = k;
    if (k < s->nattacks)
        sb_open(s, ctx, SB_STEP_BATTLE);
    else
        enter_end_phase(s, ctx);
}

/* A player who passes the discard step with too many cards discards the
 * ones that came into their hand last. */
static void discard_extra(sb_state *s, engine_ctx *ctx)
{
    int a = s->active;
    while (sb_count_zone(s, a, SB_Z_HAND) > sb_cs()->setup.hand_limit) {
        int last = -1;
        for (int i = 0; i < s->ninst; i++)
            if (s->in[i].owner == a && s->in[i].zone == SB_Z_HAND &&
                (last < 0 || s->in[i].seq > s->in[last].seq))
                last = i;
        sb_move(s, last, SB_Z_SCRAP, -1);
        sb_log(ctx, "discard", "Seat %d discards %s.", a, sb_name(s, last));
    }
}

int sb_step_end(sb_state *s, engine_ctx *ctx, int step)
{
    if (s->over)
        return 0;
    switch (step) {
    case SB_STEP_SETUP:
        income_and_draw(s, ctx);
        break;
    case SB_STEP_MANAGEMENT:
        if (s->nattacks == 0)
            sb_log(ctx, "no_battle", "Seat %d made no attack: no battle.",
                   s->active);
        next_battle(s, ctx, 0);
        break;
    case SB_STEP_BATTLE:
        sb_resolve_battle(s, ctx, s->battle);
        if (s->over)
            break;
        if (!s->p[s->active].alive)
            next_turn(s, ctx);
        else
            next_battle(s, ctx, s->battle + 1);
        break;
    case SB_STEP_END:
        end_phase(s, ctx);
        break;
    default: /* SB_STEP_DISCARD */
        discard_extra(s, ctx);
        next_turn(s, ctx);
        break;
    }
    return 0;
}

void sb_after(sb_state *s, engine_ctx *ctx, uint32_t round_before)
{
    if (s->over)
        return;
    if (!s->p[s->active].alive) {
        next_turn(s, ctx);
        return;
    }
    if (s->step == SB_STEP_DISCARD &&
        sb_count_zone(s, s->active, SB_Z_HAND) <= sb_cs()->setup.hand_limit) {
        next_turn(s, ctx);
        return;
    }
    if (sb_alive_mask(s) != round_before)
        sb_open(s, ctx, s->step);
}

/*
 * starbase_prio.c - Starbase's priority hooks. Everything a player does is
 * a priority play in the step under way; nothing goes on the stack (what
 * is played happens at once, in the order played). The active player keeps
 * priority after most of what it does; after an attack, or a play that
 * reaches another player's cards or the other players themselves, and after
 * the forfeit choice, priority goes round the others in seat order before
 * it comes back (docs/games/starbase.md, "Priority"). The other players'
 * chances never depend on their hands: who gets priority follows from
 * public facts only.
 */
#include "engine/rules/starbase/starbase.h"

#include <string.h>

static int step_of(const char *name)
{
    for (int k = 1; k < SB_STEP_COUNT; k++)
        if (strcmp(name, sb_step_names[k]) == 0)
            return k;
    return SB_STEP_NONE;
}

int sb_priority_play(void *state, engine_ctx *ctx, int seat, const char *step,
                     const json_t *play, engine_error *err)
{
    sb_state *s = state;
    sb_action a;
    int rc = sb_parse(play, &a, err);
    if (rc != 0)
        return rc;
    rc = sb_check_action(s, seat, step_of(step), &a, err);
    if (rc != 0)
        return rc;
    uint32_t before = sb_alive_mask(s);
    int give = sb_apply_action(s, ctx, seat, &a);
    if (give && seat == s->active && !s->over)
        engine_ctx_priority_give(ctx, sb_next_alive(s, seat));
    sb_after(s, ctx, before);
    return 0;
}

int sb_priority_resolve(void *state, engine_ctx *ctx, const char *step,
                        const engine_stack_item *item, engine_error *err)
{
    (void)state, (void)ctx, (void)step, (void)item, (void)err;
    return 0; /* Starbase never pushes items */
}

int sb_priority_end(void *state, engine_ctx *ctx, const char *step,
                    engine_error *err)
{
    (void)err;
    return sb_step_end(state, ctx, step_of(step));
}

json_t *sb_priority_legal(const void *state, const engine_stack *stack,
                          int seat, const char *step)
{
    (void)stack;
    sb_action acts[SB_MAX_ACTIONS];
    int n = sb_list_actions(state, seat, step_of(step), acts, SB_MAX_ACTIONS);
    json_t *choices = json_array();
    for (int k = 0; k < n; k++)
        json_array_append_new(choices, sb_action_json(&acts[k]));
    return json_pack(
        "{s:s, s:{s:s, s:[s], s:{s:{s:[s,s,s,s,s,s,s,s,s,s,s]}, s:{s:s}, "
        "s:{s:s}, s:{s:s}, s:{s:s}}, s:b}, s:o}",
        "kind", "play", "shape", "type", "object", "required", "action",
        "properties", "action", "enum", "forfeit", "play", "outer", "upgrade",
        "dock", "undock", "warp", "activate", "deactivate", "ability",
        "discard", "card", "type", "integer", "index", "type", "integer",
        "target", "type", "integer", "region", "type", "integer",
        "additionalProperties", 0, "choices", choices);
}

json_t *sb_priority_bot(const void *state, const engine_stack *stack, int seat,
                        const char *step, const char *level, engine_rng *rng)
{
    (void)stack;
    return sb_bot_play(state, seat, step_of(step), level, rng);
}

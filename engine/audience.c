/*
 * audience.c - who a change is for: log entries for a set of seats, and
 * the audiences an input touched (engine_touched), which lets the hub skip
 * re-rendering views that cannot have changed.
 *
 * A seat-set log line reaches exactly its seats, never spectators; a set of
 * one seat is an ordinary private line. The per-seat and public lines are
 * in game.c.
 */
#include "engine_internal.h"

json_t *game_seat_list(uint32_t seats)
{
    json_t *a = json_array();
    for (int s = 0; a && s < ENGINE_MAX_SEATS; s++)
        if ((seats & (1u << s)) &&
            json_array_append_new(a, json_integer(s)) != 0) {
            json_decref(a);
            return NULL;
        }
    return a;
}

uint32_t game_seat_mask(const json_t *list, int nseats)
{
    size_t i;
    json_t *v;
    uint32_t mask = 0;
    if (!json_is_array(list))
        return 0;
    json_array_foreach(list, i, v)
    {
        json_int_t s = json_is_integer(v) ? json_integer_value(v) : -1;
        if (s < 0 || s >= nseats || (mask & (1u << s)))
            return 0;
        mask |= 1u << s;
    }
    return mask;
}

void engine_ctx_log_seats(engine_ctx *ctx, uint32_t seats, json_t *entry)
{
    engine_game *g = ctx->g;
    seats &= (1u << g->seats) - 1;
    if (!seats) {
        json_decref(entry); /* no audience: never make it public */
        return;
    }
    g->revealed = 1;
    if ((seats & (seats - 1)) == 0) {
        int seat = 0;
        while (!(seats & (1u << seat)))
            seat++;
        game_log_append(g, seat, entry);
        return;
    }
    game_log_append_seats(g, seats, entry);
}

void game_touch(engine_game *g, uint32_t audiences)
{
    g->touched |= audiences;
    g->touch_marked = 1;
}

void engine_ctx_touch(engine_ctx *ctx, uint32_t audiences)
{
    game_touch(ctx->g, audiences);
    ctx->g->ruleset_marked = 1;
}

void engine_ctx_revealed(engine_ctx *ctx)
{
    ctx->g->revealed = 1;
}

uint32_t engine_touched(const engine_game *g)
{
    return g->touched;
}

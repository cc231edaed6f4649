/*
 * seat_presence.c - publishing and reading seat presence across processes
 * (see seat_presence.h).
 */
#include "server/game/seat_presence.h"

#include "server/store/db.h"

#include <stdio.h>
#include <stdlib.h>

int presence_publish(PGconn *c, const feed_hooks *feed, const char *process)
{
    char *seats =
        feed->active_seats_json ? feed->active_seats_json(feed->ctx) : NULL;
    if (!seats)
        return 0;
    char ttl[16];
    snprintf(ttl, sizeof ttl, "%d", PRESENCE_TTL_SECONDS);
    const char *p[] = {seats, process, ttl};
    PGresult *r = db_exec(
        c, PGRES_COMMAND_OK,
        "WITH old AS (DELETE FROM seat_presence WHERE until < now()) "
        "INSERT INTO seat_presence (game_id, seat, process, until) "
        "SELECT x.g, x.s, $2, now() + $3::integer * interval '1 second' "
        "FROM jsonb_to_recordset($1::jsonb) AS x(g text, s integer) "
        "ON CONFLICT (game_id, seat, process) DO UPDATE SET until = "
        "EXCLUDED.until",
        3, p);
    free(seats);
    if (!r)
        return -1;
    PQclear(r);
    return 0;
}

uint32_t presence_elsewhere(PGconn *c, const char *game_id, const char *process)
{
    const char *p[] = {game_id, process};
    PGresult *r = db_exec(c, PGRES_TUPLES_OK,
                          "SELECT DISTINCT seat FROM seat_presence WHERE "
                          "game_id = $1 AND process <> $2 AND until > now()",
                          2, p);
    uint32_t mask = 0;
    for (int i = 0; r && i < PQntuples(r); i++) {
        int s = atoi(PQgetvalue(r, i, 0));
        if (s >= 0 && s < 32)
            mask |= 1u << s;
    }
    PQclear(r);
    return mask;
}

int presence_seat_active(void *ctx, const char *game_id, int seat)
{
    const presence_ctx *pc = ctx;
    if (seat >= 0 && seat < 32 && (pc->others & (1u << seat)))
        return 1;
    const feed_hooks *f = pc->feed;
    return f && f->seat_active ? f->seat_active(f->ctx, game_id, seat) : 0;
}

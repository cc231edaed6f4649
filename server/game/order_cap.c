/*
 * order_cap.c - order changes per seat per window (see order_cap.h).
 */
#include "server/game/order_cap.h"

#include "server/store/db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void order_cap_init(order_cap *oc)
{
    memset(oc, 0, sizeof *oc);
    for (int i = 0; i < ORDER_CAP_SLOTS; i++)
        oc->slot[i].seat = -1;
}

/* The index of the slot of (seat, window), or -1. */
static int find(const order_cap *oc, int seat, const char *window)
{
    for (int i = 0; i < ORDER_CAP_SLOTS; i++)
        if (oc->slot[i].seat == seat && strcmp(oc->slot[i].window, window) == 0)
            return i;
    return -1;
}

/* The order inputs of seat in window in the store, or -1. */
static long stored_count(PGconn *c, const char *game_id, int seat,
                         const char *window)
{
    char seat_s[16];
    snprintf(seat_s, sizeof seat_s, "%d", seat);
    const char *p[] = {game_id, seat_s, window};
    PGresult *r = db_exec(c, PGRES_TUPLES_OK,
                          "SELECT count(*) FROM game_inputs WHERE game_id = "
                          "$1 AND seat = $2::integer AND window_id = $3 AND "
                          "kind IN ('order', 'system')",
                          3, p);
    if (!r)
        return -1;
    long n = PQntuples(r) == 1 ? atol(PQgetvalue(r, 0, 0)) : -1;
    PQclear(r);
    return n;
}

srv_kind order_cap_check(order_cap *oc, PGconn *c, const char *game_id,
                         int seat, const char *window, int most, srv_error *err)
{
    int i = find(oc, seat, window);
    if (i < 0) {
        long n = stored_count(c, game_id, seat, window);
        if (n < 0)
            return srv_db_failed(err);
        i = 0; /* the least recently used slot takes the pair */
        for (int k = 1; k < ORDER_CAP_SLOTS; k++)
            if (oc->slot[k].used < oc->slot[i].used)
                i = k;
        oc->slot[i].seat = seat;
        snprintf(oc->slot[i].window, sizeof oc->slot[i].window, "%s", window);
        oc->slot[i].count = n;
    }
    oc->slot[i].used = ++oc->tick;
    if (oc->slot[i].count < most)
        return SRV_OK;
    return srv_fail(err, SRV_TOO_MANY, NULL,
                    "your seat has changed its order in this window %ld "
                    "times, the most a window takes; the order you hold "
                    "stands",
                    oc->slot[i].count);
}

void order_cap_note(order_cap *oc, int seat, const char *window)
{
    int i = find(oc, seat, window);
    if (i >= 0)
        oc->slot[i].count++;
}

void order_cap_note_stored(order_cap *oc, const store_input *in, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if ((in[k].kind == ENGINE_ORDER || in[k].kind == ENGINE_SYSTEM) &&
            in[k].seat >= 0 && in[k].window[0])
            order_cap_note(oc, in[k].seat, in[k].window);
}

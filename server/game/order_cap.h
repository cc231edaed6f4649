/*
 * order_cap.h - the cap on order changes per seat per window: every order
 * input a seat makes in a window (a whole order, a part change, a
 * withdrawal) is stored and goes into the game's log and export, so a seat
 * may make at most cfg->order_changes of them in one window; past that the
 * order it holds stands and the next change is refused (SRV_TOO_MANY).
 *
 * A withdrawal is stored as a system input in the window, and counts.
 * An actor keeps the counts of the (seat, window) pairs it has seen in a
 * small table; a pair it does not hold (after a load, or when the table
 * turned over) is counted once in the store, so the cap holds across
 * evictions, restarts and processes. Bots are not counted.
 *
 * Threads: an order_cap belongs to its actor's worker (no lock).
 */
#ifndef CONCLAVE_ORDER_CAP_H
#define CONCLAVE_ORDER_CAP_H

#include "common/errors.h"
#include "engine/engine.h"
#include "server/store/store.h"

#include <libpq-fe.h>
#include <stddef.h>

#define ORDER_CAP_SLOTS 8

typedef struct order_cap {
    struct {
        int seat; /* -1: unused */
        char window[ENGINE_WINDOW_ID_MAX];
        long count;
        unsigned long used; /* last use, for turning the table over */
    } slot[ORDER_CAP_SLOTS];
    unsigned long tick;
} order_cap;

/* Empty (every slot unused). */
void order_cap_init(order_cap *oc);

/* May seat make one more order input in window of game_id, at most `most`
 * in all? SRV_OK; SRV_TOO_MANY with err filled; SRV_UNAVAILABLE when the
 * count had to be read from the store (c) and could not be. */
srv_kind order_cap_check(order_cap *oc, PGconn *c, const char *game_id,
                         int seat, const char *window, int most,
                         srv_error *err);

/* Count one committed order input of seat in window (when the pair is
 * held; a pair not held is read from the store at its next check). */
void order_cap_note(order_cap *oc, int seat, const char *window);

/* Count the order inputs among n stored ones (committed by another
 * process and caught up with). */
void order_cap_note_stored(order_cap *oc, const store_input *in, size_t n);

#endif

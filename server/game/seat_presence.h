/*
 * seat_presence.h - "the player has the game open", across processes.
 *
 * A seat is present on a process while one of its WebSocket connections
 * there is subscribed to the game as that seat (asked through the app's
 * feed_hooks, which serve.c points at the hub: hub_seat_active). Each
 * process publishes its present seats to the seat_presence table every few
 * seconds (from its listener thread), valid for PRESENCE_TTL_SECONDS; the
 * notification planners ask their own hub first and then the rows of the
 * other processes, so a player watching a game on any process is not told
 * about it. A page closed on another process counts as open until its row
 * expires (at most PRESENCE_TTL_SECONDS); on this process the hub answers
 * at once.
 *
 * Threads: any; each call uses the caller's connection only.
 */
#ifndef CONCLAVE_SEAT_PRESENCE_H
#define CONCLAVE_SEAT_PRESENCE_H

#include "server/runtime/app.h"

#include <libpq-fe.h>
#include <stdint.h>

#define PRESENCE_TTL_SECONDS 10

/* Write the seats this process's feed has live subscribers for
 * (feed->active_seats_json) as present on process (this process's id)
 * until now + PRESENCE_TTL_SECONDS, and delete expired rows. 0, or -1 on a
 * database failure (logged). */
int presence_publish(PGconn *c, const feed_hooks *feed, const char *process);

/* The seats of game_id present on processes other than process, as a bit
 * mask (bit s = seat s); 0 on a failure (nobody counts as present). */
uint32_t presence_elsewhere(PGconn *c, const char *game_id,
                            const char *process);

/* What the planners ask (notify_active_fn): ctx is a presence_ctx. */
typedef struct presence_ctx {
    const feed_hooks *feed; /* this process's hub, as the app reaches it */
    uint32_t others;        /* presence_elsewhere for the game being planned */
} presence_ctx;
int presence_seat_active(void *ctx, const char *game_id, int seat);

#endif

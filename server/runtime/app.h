/*
 * app.h - the running server's shared parts, created by `conclave serve`
 * and handed to the HTTP edge, the actors and the WebSocket hub, and the
 * hooks through which the domain modules reach the hub (feed_hooks).
 *
 * Fields are set once during start-up, before any thread that reads them
 * starts, and torn down after those threads stop; so reading them needs no
 * lock (but `draining`, which is atomic). Each part guards its own
 * mutable state.
 */
#ifndef CONCLAVE_APP_H
#define CONCLAVE_APP_H

#include "common/trusted_proxy.h"
#include "server/runtime/config.h"
#include "server/runtime/fdlimit.h"
#include "server/store/db.h"

#include <stdatomic.h>

struct actors; /* server/game/actor.h */
struct hub;    /* server/hub/hub.h */

/* How the lobby, game and notification modules reach this process's live
 * feed (the WebSocket hub) without calling it: the composition root
 * (server/runtime/serve.c) points these at the hub once it is up, before
 * any traffic. Each may be NULL (no hub: unit tests, tools); then nobody
 * is told and no seat counts as present. ctx is handed back to each. */
typedef struct feed_hooks {
    void *ctx;
    /* The "your move" lists of game_id's players may have changed (a game
     * just created). Any thread; must not block. */
    void (*turns_changed)(void *ctx, const char *game_id);
    /* Whether a live connection of this process follows game_id as seat.
     * Any thread. */
    int (*seat_active)(void *ctx, const char *game_id, int seat);
    /* The seats live connections of this process follow, as JSON text
     * [{"g":GAME,"s":SEAT},...] (NEW, free()), or NULL when none. */
    char *(*active_seats_json)(void *ctx);
} feed_hooks;

typedef struct app {
    const config *cfg;
    db_pool *db;
    int migrations_expected; /* highest sql/NNN file at start-up */
    struct actors *actors;   /* NULL until the actor system is up */
    struct hub *hub;         /* NULL until the WebSocket hub is up */
    feed_hooks feed;         /* the hub as the domain modules reach it */
    atomic_int draining;     /* set once on SIGTERM: /readyz says 503 */
    trusted_proxies proxies; /* cfg->trusted_proxies, parsed */
    /* who may read /metrics: loopback and cfg->metrics_allow, parsed */
    trusted_proxies metrics_allow;
    char base_url[600];  /* the server's address in links sent out
                            (cfg public_url, or http://localhost:PORT) */
    char process_id[40]; /* random, per start: this process's rows in
                            seat_presence (server/game/seat_presence.h) */
    fd_budget fds;       /* the descriptors shared out at start: the HTTP
                            connection limit and the WebSocket cap */
} app;

#endif

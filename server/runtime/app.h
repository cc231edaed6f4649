/*
 * app.h - the running server's shared parts, created by `conclave serve`
 * and handed to the HTTP edge, the actors and the WebSocket hub.
 *
 * Fields are set once during start-up, before any thread that reads them
 * starts, and torn down after those threads stop; so reading them needs no
 * lock (but `draining`, which is atomic). Each part guards its own
 * mutable state.
 */
#ifndef CONCLAVE_APP_H
#define CONCLAVE_APP_H

#include "server/runtime/config.h"
#include "server/store/db.h"
#include "common/trusted_proxy.h"

#include <stdatomic.h>

struct actors; /* server/game/actor.h */
struct hub;    /* server/hub/hub.h */

typedef struct app {
    const config *cfg;
    db_pool *db;
    int migrations_expected; /* highest sql/NNN file at start-up */
    struct actors *actors;   /* NULL until the actor system is up */
    struct hub *hub;         /* NULL until the WebSocket hub is up */
    atomic_int draining;     /* set once on SIGTERM: /readyz says 503 */
    trusted_proxies proxies; /* cfg->trusted_proxies, parsed */
    char base_url[600];      /* the server's address in links sent out
                                (cfg public_url, or http://localhost:PORT) */
    char process_id[40];     /* random, per start: this process's rows in
                                seat_presence (server/game/seat_presence.h) */
} app;

#endif

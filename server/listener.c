/*
 * listener.c - the LISTEN thread (see listener.h).
 *
 * Threads: one listener thread owns its connection; `stopping` is atomic.
 */
#include "server/listener.h"

#include "server/hub.h"
#include "server/lobby.h"
#include "server/lobby_batch.h"
#include "server/log.h"
#include "server/tokens.h"

#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct listener {
    app *app;
    actors *actors;
    pthread_t thread;
    atomic_int stopping;
    lobby_batch lobbies; /* the LISTEN thread's */
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A lobby batch's way to the hub's lobby feed. */
static void send_lobby(void *hub, const char *id)
{
    hub_lobby_changed(hub, id);
}

/* Handle every pending notification: "game_id:version" on conclave_games,
 * a lobby id on conclave_lobbies (for the hub's lobby feed), a revoked
 * token's hash on conclave_tokens. */
static void drain(listener *l, PGconn *c)
{
    PGnotify *n;
    while ((n = PQnotifies(c))) {
        if (strcmp(n->relname, TOKENS_CHANNEL) == 0) {
            tokens_revoked_elsewhere(n->extra);
            PQfreemem(n);
            continue;
        }
        if (strcmp(n->relname, LOBBY_CHANNEL) == 0) {
            lobby_batch_add(&l->lobbies, n->extra, now_s());
            PQfreemem(n);
            continue;
        }
        const char *colon = strrchr(n->extra, ':');
        if (colon && colon > n->extra && (size_t)(colon - n->extra) < 64) {
            char id[64];
            memcpy(id, n->extra, (size_t)(colon - n->extra));
            id[colon - n->extra] = '\0';
            actors_remote_version(l->actors, id, strtoull(colon + 1, NULL, 10));
            hub_turns_changed(l->app->hub, id);
        }
        PQfreemem(n);
    }
}

static void *listener_main(void *arg)
{
    listener *l = arg;
    int ever_connected = 0;
    while (!atomic_load(&l->stopping)) {
        char err[512];
        PGconn *c =
            db_connect(l->app->cfg->database_url,
                       l->app->cfg->db_connect_timeout, err, sizeof err);
        PGresult *r = c ? PQexecParams(c, "LISTEN conclave_games", 0, NULL,
                                       NULL, NULL, NULL, 0)
                        : NULL;
        int ok = r && PQresultStatus(r) == PGRES_COMMAND_OK;
        PQclear(r);
        r = ok ? PQexecParams(c, "LISTEN " LOBBY_CHANNEL, 0, NULL, NULL, NULL,
                              NULL, 0)
               : NULL;
        ok = ok && PQresultStatus(r) == PGRES_COMMAND_OK;
        if (ok) {
            PQclear(r);
            r = PQexecParams(c, "LISTEN " TOKENS_CHANNEL, 0, NULL, NULL, NULL,
                             NULL, 0);
            ok = PQresultStatus(r) == PGRES_COMMAND_OK;
        }
        if (!c || !ok) {
            PQclear(r);
            if (c)
                PQfinish(c);
            for (int i = 0; i < 10 && !atomic_load(&l->stopping); i++)
                usleep(100 * 1000);
            continue;
        }
        PQclear(r);
        log_info("listening_for_games", NULL);
        if (ever_connected) { /* missed while away */
            actors_catch_up_all(l->actors);
            hub_lobby_changed(l->app->hub, NULL);
        }
        ever_connected = 1;
        while (!atomic_load(&l->stopping)) {
            struct pollfd p = {.fd = PQsocket(c), .events = POLLIN};
            int ready =
                poll(&p, 1, lobby_batch_wait_ms(&l->lobbies, now_s(), 250));
            if (ready < 0)
                continue;
            if (ready > 0 && !PQconsumeInput(c))
                break;
            drain(l, c);
            lobby_batch_flush(&l->lobbies, now_s());
            if (PQstatus(c) != CONNECTION_OK)
                break;
        }
        PQfinish(c);
        if (!atomic_load(&l->stopping))
            log_warn("listen_connection_lost", NULL);
    }
    return NULL;
}

listener *listener_start(app *a, actors *A, char *err, size_t errlen)
{
    listener *l = calloc(1, sizeof *l);
    if (!l) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    l->app = a;
    l->actors = A;
    lobby_batch_init(&l->lobbies, send_lobby, a->hub, a->cfg->lobby_feed_ms);
    atomic_init(&l->stopping, 0);
    if (pthread_create(&l->thread, NULL, listener_main, l) != 0) {
        snprintf(err, errlen, "cannot start the listener thread");
        free(l);
        return NULL;
    }
    return l;
}

void listener_stop(listener *l)
{
    if (!l)
        return;
    atomic_store(&l->stopping, 1);
    pthread_join(l->thread, NULL);
    free(l);
}

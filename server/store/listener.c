/*
 * listener.c - the LISTEN thread (see listener.h).
 *
 * Threads: one listener thread owns its connection; `stopping` is atomic.
 */
#include "server/store/listener.h"
#include "server/store/db.h"

#include "server/game/chat.h"
#include "server/game/seat_presence.h"
#include "server/hub/hub.h"
#include "server/lobby/lobby.h"
#include "server/lobby/lobby_batch.h"
#include "server/players/tokens.h"
#include "server/runtime/log.h"
#include "server/runtime/metrics.h"
#include "server/runtime/thread_name.h"

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
    /* The LISTEN thread's: when the current connection began listening
     * (the database's clock) and, on ours, then and when it was last seen
     * alive; a reconnect replays the revocations since. */
    char listened_at[64];
    double listened_mono, alive_mono;
};

/* Revocations committed this long before the connection was last seen
 * alive are replayed too: a revoking transaction stamps revoked_at when it
 * begins, and may commit (and notify) a little later. */
#define REPLAY_MARGIN_SECONDS 60
#define REPLAY_MOST "10000" /* revocations replayed at most, newest */

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

/* "game_id:channel:seq" on conclave_chat: a chat message was stored. */
static void chat_notified(listener *l, const char *payload)
{
    const char *c2 = strrchr(payload, ':');
    const char *c1 = c2 ? c2 - 1 : NULL;
    while (c1 && c1 > payload && *c1 != ':')
        c1--;
    if (!c1 || c1 <= payload || *c1 != ':' || c1 - payload >= STORE_ID_MAX)
        return;
    char id[STORE_ID_MAX];
    memcpy(id, payload, (size_t)(c1 - payload));
    id[c1 - payload] = '\0';
    hub_chat_posted(l->app->hub, id, atoi(c1 + 1), strtoll(c2 + 1, NULL, 10));
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
        if (strcmp(n->relname, CHAT_NOTIFY_CHANNEL) == 0) {
            chat_notified(l, n->extra);
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

/* The version sweep: a process that dies between its commit and its
 * NOTIFY leaves the others unaware of that version until the game's next
 * input. So every SWEEP_SECONDS the listener reads the stored versions of
 * the games this process has subscribers for (pinned), SWEEP_CHUNK ids per
 * statement, and catches up those that are behind: a lost notification
 * costs spectators at most that long. */
#define SWEEP_SECONDS 2.0
#define SWEEP_CHUNK 1000

static void sweep_chunk(listener *l, PGconn *c, char (*ids)[STORE_ID_MAX],
                        size_t n)
{
    size_t cap = n * (STORE_ID_MAX + 1) + 3;
    char *array = malloc(cap);
    if (!array)
        return;
    size_t len = 0;
    array[len++] = '{';
    for (size_t i = 0; i < n; i++) {
        const char *id = ids[i];
        size_t k = strlen(id);
        /* Store ids are plain ([A-Za-z0-9_-]); anything else is skipped
         * rather than quoted into the array literal. */
        if (k == 0 || strspn(id, "abcdefghijklmnopqrstuvwxyz"
                                 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != k)
            continue;
        if (len > 1)
            array[len++] = ',';
        memcpy(array + len, id, k);
        len += k;
    }
    array[len++] = '}';
    array[len] = '\0';
    const char *params[1] = {array};
    PGresult *r = db_query(
        c, "SELECT game_id, version FROM games WHERE game_id = ANY($1::text[])",
        1, NULL, params, NULL, NULL, 0);
    free(array);
    if (PQresultStatus(r) == PGRES_TUPLES_OK) {
        for (int i = 0; i < PQntuples(r); i++)
            actors_remote_version(l->actors, PQgetvalue(r, i, 0),
                                  strtoull(PQgetvalue(r, i, 1), NULL, 10));
    }
    PQclear(r);
}

static void version_sweep(listener *l, PGconn *c)
{
    char(*ids)[STORE_ID_MAX] = NULL;
    size_t n = 0;
    if (actors_pinned_ids(l->actors, &ids, &n) != 0 || n == 0)
        return;
    for (size_t at = 0; at < n; at += SWEEP_CHUNK)
        sweep_chunk(l, c, ids + at,
                    n - at < SWEEP_CHUNK ? n - at : SWEEP_CHUNK);
    free(ids);
    metrics_count("conclave_version_sweeps_total",
                  "Sweeps of the stored versions of games with subscribers.",
                  1);
}

/* Run sql (no parameters) on c; 0 when it answered as expected. */
static int run(PGconn *c, const char *sql, ExecStatusType expect)
{
    PGresult *r = db_query(c, sql, 0, NULL, NULL, NULL, NULL, 0);
    int ok = PQresultStatus(r) == expect;
    PQclear(r);
    return ok ? 0 : -1;
}

/* A fresh connection listening on the four channels, or NULL. */
static PGconn *connect_listening(listener *l)
{
    char err[512];
    PGconn *c = db_connect(l->app->cfg->database_url,
                           l->app->cfg->db_connect_timeout, err, sizeof err);
    if (c &&
        run(c, "SET application_name = 'conclave listener'",
            PGRES_COMMAND_OK) == 0 &&
        run(c, "LISTEN conclave_games", PGRES_COMMAND_OK) == 0 &&
        run(c, "LISTEN " LOBBY_CHANNEL, PGRES_COMMAND_OK) == 0 &&
        run(c, "LISTEN " TOKENS_CHANNEL, PGRES_COMMAND_OK) == 0 &&
        run(c, "LISTEN " CHAT_NOTIFY_CHANNEL, PGRES_COMMAND_OK) == 0)
        return c;
    if (c)
        PQfinish(c);
    return NULL;
}

/* The new connection c listens from now: remember when (the database's
 * clock) and, when an earlier connection listened before it, replay every
 * revocation since that one was last seen alive (less a margin), since
 * their notifications were lost meanwhile: each token is forgotten here
 * and its live sockets lose their seats (tokens_revoked_elsewhere).
 * Revocations already heard are replayed harmlessly. 0, or -1 when the
 * query failed (the caller drops the connection and tries again, so no
 * replay is skipped). */
static int replay_revocations(listener *l, PGconn *c)
{
    char since[64] = "";
    if (l->listened_at[0]) {
        double alive = l->alive_mono - l->listened_mono;
        snprintf(since, sizeof since, "%.3f",
                 (alive > 0 ? alive : 0) - REPLAY_MARGIN_SECONDS);
    }
    const char *p[] = {l->listened_at, since};
    PGresult *r = db_query(
        c,
        since[0] ? "SELECT now()::text, encode(token_hash, 'hex') FROM "
                   "(SELECT 1) one LEFT JOIN (SELECT token_hash FROM tokens "
                   "WHERE revoked_at >= $1::timestamptz + make_interval(secs "
                   "=> $2::double precision) ORDER BY revoked_at DESC "
                   "LIMIT " REPLAY_MOST ") t ON true"
                 : "SELECT now()::text, NULL",
        since[0] ? 2 : 0, NULL, since[0] ? p : NULL, NULL, NULL, 0);
    int ok = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) > 0;
    if (ok) {
        snprintf(l->listened_at, sizeof l->listened_at, "%s",
                 PQgetvalue(r, 0, 0));
        l->listened_mono = l->alive_mono = now_s();
        int replayed = 0;
        for (int i = 0; i < PQntuples(r); i++) {
            if (PQgetisnull(r, i, 1))
                continue;
            tokens_revoked_elsewhere(PQgetvalue(r, i, 1));
            replayed++;
        }
        if (since[0])
            log_info("revocations_replayed",
                     json_pack("{si}", "tokens", replayed));
    }
    PQclear(r);
    return ok ? 0 : -1;
}

static void *listener_main(void *arg)
{
    thread_name_set("listener");
    listener *l = arg;
    int ever_connected = 0;
    while (!atomic_load(&l->stopping)) {
        PGconn *c = connect_listening(l);
        if (c && replay_revocations(l, c) != 0) {
            PQfinish(c);
            c = NULL;
        }
        if (!c) {
            for (int i = 0; i < 10 && !atomic_load(&l->stopping); i++)
                usleep(100 * 1000);
            continue;
        }
        log_info("listening_for_games", NULL);
        if (ever_connected) { /* missed while away */
            actors_catch_up_all(l->actors);
            hub_lobby_changed(l->app->hub, NULL);
        }
        ever_connected = 1;
        double next_sweep = now_s() + SWEEP_SECONDS;
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
            if (now_s() >= next_sweep) {
                version_sweep(l, c);
                presence_publish(c, &l->app->feed, l->app->process_id);
                drain(l, c); /* what arrived during the sweep */
                next_sweep = now_s() + SWEEP_SECONDS;
            }
            if (PQstatus(c) != CONNECTION_OK)
                break;
            l->alive_mono = now_s();
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

/*
 * hub_turns.c - the WebSocket hub's per-player inbox feed: a signed-in
 * connection that sends {"type":"subscribe_turns"} gets
 * {"type":"turns","count","turns":[...]} (server/players/inbox.h's list) at
 * once and again whenever a game one of its player's seats is in commits a
 * version (in any process: every commit's NOTIFY reaches every process's
 * listener, which calls hub_turns_changed) and the list differs from the
 * one last sent.
 *
 * Threads: hub_turns_changed from any thread (it only queues a job); the
 * jobs run on hub workers, query with a pooled connection holding no hub
 * lock, and queue messages under hub.lock.
 */
#include "server/hub/hub_internal.h"

#include "server/players/inbox.h"
#include "server/runtime/log.h"
#include "server/store/db.h"

#include <stdlib.h>
#include <string.h>

#define DB_WAIT_MS 2000

/* FNV-1a of text: whether a list changed since the last one sent. */
static uint64_t text_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* Load player's inbox and queue it on c unless c already has that list
 * (force: send anyway). No hub lock held on entry. */
static void send_turns(hub *h, PGconn *db, hub_conn *c, const char *player,
                       int force)
{
    json_t *list = inbox_load(db, player);
    if (!list) {
        hub_send_error(h, c, SRV_UNAVAILABLE,
                       "the inbox could not be read; subscribe_turns again "
                       "shortly",
                       NULL);
        return;
    }
    json_object_set_new(list, "type", json_string("turns"));
    char *text = json_dumps(list, JSON_COMPACT | JSON_SORT_KEYS);
    hub_msg *m = hub_msg_json(list, HUB_MSG_REPLY);
    json_decref(list);
    uint64_t hash = text ? text_hash(text) : 0;
    free(text);
    int wake = 0;
    pthread_mutex_lock(&h->lock);
    if (m && c->wsi && c->turns_sub && strcmp(c->player_id, player) == 0 &&
        (force || c->turns_hash != hash)) {
        c->turns_hash = hash;
        wake = hub_enqueue_locked(h, c, m);
    }
    pthread_mutex_unlock(&h->lock);
    if (m)
        hub_msg_unref(m);
    if (wake)
        hub_wake(h);
}

void hub_turns_subscribe(hub *h, hub_job *j)
{
    hub_conn *c = j->conn;
    char player[STORE_ID_MAX];
    pthread_mutex_lock(&h->lock);
    snprintf(player, sizeof player, "%s", c->player_id);
    if (player[0] && !c->turns_sub) {
        c->turns_sub = 1;
        h->nturns_subs++;
    }
    pthread_mutex_unlock(&h->lock);
    if (!player[0]) {
        hub_send_error(h, c, SRV_UNAUTHORIZED,
                       "subscribe_turns needs a signed-in connection: send "
                       "auth first",
                       NULL);
        return;
    }
    PGconn *db = db_acquire(h->app->db, DB_WAIT_MS);
    if (!db) {
        hub_send_error(h, c, SRV_UNAVAILABLE,
                       "the database is unreachable; subscribe_turns again "
                       "shortly",
                       NULL);
        return;
    }
    send_turns(h, db, c, player, 1);
    db_release(h->app->db, db, db_conn_broken(db));
}

/* The connections on the feed whose player is one of players[0..np),
 * each with a reference taken. */
static hub_conn **interested(hub *h, char (*players)[STORE_ID_MAX], int np,
                             size_t *n)
{
    *n = 0;
    pthread_mutex_lock(&h->lock);
    hub_conn **out = calloc((size_t)h->nturns_subs + 1, sizeof(hub_conn *));
    for (hub_conn *c = h->all; out && c; c = c->all_next) {
        if (!c->turns_sub || !c->wsi || !c->player_id[0] ||
            *n >= (size_t)h->nturns_subs)
            continue;
        for (int i = 0; i < np; i++) {
            if (strcmp(players[i], c->player_id) == 0) {
                c->refs++;
                out[(*n)++] = c;
                break;
            }
        }
    }
    pthread_mutex_unlock(&h->lock);
    return out;
}

void hub_turns_game_changed(hub *h, const char *game_id)
{
    PGconn *db = db_acquire(h->app->db, DB_WAIT_MS);
    if (!db)
        return; /* the next change sends the list again */
    char players[ENGINE_MAX_SEATS][STORE_ID_MAX];
    int np = inbox_game_players(db, game_id, players, ENGINE_MAX_SEATS);
    size_t n = 0;
    hub_conn **conns = np >= 0 ? interested(h, players, np, &n) : NULL;
    for (size_t i = 0; i < n; i++) {
        char player[STORE_ID_MAX];
        pthread_mutex_lock(&h->lock);
        snprintf(player, sizeof player, "%s", conns[i]->player_id);
        pthread_mutex_unlock(&h->lock);
        if (player[0])
            send_turns(h, db, conns[i], player, 0);
    }
    db_release(h->app->db, db, db_conn_broken(db));
    pthread_mutex_lock(&h->lock);
    for (size_t i = 0; i < n; i++)
        hub_conn_put_locked(h, conns[i]);
    pthread_mutex_unlock(&h->lock);
    free(conns);
}

void hub_turns_changed(void *ctx, const char *game_id)
{
    hub *h = ctx;
    if (!h || strlen(game_id) >= HUB_TOKEN_MAX)
        return;
    pthread_mutex_lock(&h->lock);
    int any = h->nturns_subs > 0;
    pthread_mutex_unlock(&h->lock);
    if (!any)
        return;
    hub_job *j = calloc(1, sizeof *j);
    if (!j)
        return;
    j->kind = JOB_TURNS_CHANGED;
    j->version = -1;
    snprintf(j->arg, sizeof j->arg, "%s", game_id);
    pthread_mutex_lock(&h->lock);
    hub_job_push_locked(h, j);
    pthread_mutex_unlock(&h->lock);
}

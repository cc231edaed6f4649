/*
 * hub_lobby_feed.c - the lobby feed of the WebSocket hub: the open public
 * lobbies as one "lobbies" message to each subscriber that sent
 * {"type":"subscribe_lobbies"}, then a "lobby" message per change (the
 * coalesced changes of server/lobby/lobby_batch.h, read again from the
 * store). Private lobbies never reach it, nor a rematch lobby held back by
 * a spectator delay (server/lobby/lobby.h) until its hold ends: the sweep
 * asks each second for those released and announces them. Runs on the hub
 * worker (hub_worker.c) under hub.lobby_lock, so the list changes in order.
 */
#include "server/hub/hub_internal.h"

#include "server/lobby/lobby.h"
#include "server/store/db.h"

#include <string.h>

#define DB_WAIT_MS 2000

/* Rebuild the "lobbies" message from h->lobbies and queue msg (the new
 * "lobbies" message itself when msg is NULL) on every lobby subscriber.
 * Hub worker, under lobby_lock. */
static void lobbies_publish(hub *h, json_t *one)
{
    json_t *all =
        json_pack("{ss sO}", "type", "lobbies", "lobbies", h->lobbies);
    hub_msg *list = all ? hub_msg_json(all, HUB_MSG_SEQ) : NULL;
    json_decref(all);
    json_t *ev =
        one ? json_pack("{ss sO}", "type", "lobby", "lobby", one) : NULL;
    hub_msg *event = ev ? hub_msg_json(ev, HUB_MSG_SEQ) : NULL;
    json_decref(ev);
    if (!list || (one && !event)) {
        hub_msg_unref(list);
        hub_msg_unref(event);
        h->lobbies_reload_due = 1;
        return;
    }
    int wake = 0;
    pthread_mutex_lock(&h->lock);
    hub_msg_unref(h->lobbies_msg);
    h->lobbies_msg = list;
    hub_msg *send = one ? event : list;
    for (hub_conn *c = h->lobby_subs; c; c = c->lobby_next)
        wake |= hub_enqueue_locked(h, c, send);
    pthread_mutex_unlock(&h->lock);
    hub_msg_unref(event);
    if (wake)
        hub_wake(h);
}

/* Load the open public lobbies. Hub worker, under lobby_lock. 0, or -1
 * (database). */
static int lobbies_load(hub *h)
{
    PGconn *db = db_acquire(h->app->db, DB_WAIT_MS);
    if (!db)
        return -1;
    json_t *list, *none;
    /* The mark first: a lobby released meanwhile is announced again,
     * never missed. */
    h->lobbies_since[0] = '\0';
    none = lobby_released(db, h->lobbies_since, sizeof h->lobbies_since);
    json_decref(none);
    srv_kind k = none ? lobby_list_open(db, NULL, &list) : SRV_UNAVAILABLE;
    db_release(h->app->db, db, k != SRV_OK && db_conn_broken(db));
    if (k != SRV_OK)
        return -1;
    json_decref(h->lobbies);
    h->lobbies = list;
    h->lobbies_loaded = 1;
    h->lobbies_reload_due = 0;
    return 0;
}

void hub_lobbies_subscribe(hub *h, hub_job *j)
{
    hub_conn *c = j->conn;
    if (!h->lobbies_loaded) {
        if (lobbies_load(h) != 0) {
            hub_send_error(h, c, SRV_UNAVAILABLE,
                           "the database is unreachable; subscribe again "
                           "shortly",
                           NULL);
            return;
        }
        lobbies_publish(h, NULL); /* nobody subscribed yet: builds it */
    }
    int wake = 0;
    pthread_mutex_lock(&h->lock);
    if (c->wsi) {
        if (!c->lobby_sub) {
            c->lobby_sub = 1;
            c->lobby_prev = NULL;
            c->lobby_next = h->lobby_subs;
            if (h->lobby_subs)
                h->lobby_subs->lobby_prev = c;
            h->lobby_subs = c;
            h->nlobby_subs++;
        }
        wake = hub_enqueue_locked(h, c, h->lobbies_msg);
    }
    pthread_mutex_unlock(&h->lock);
    if (wake)
        hub_wake(h);
}

/* Index of lobby id in h->lobbies, or -1. */
static int lobby_index(hub *h, const char *id)
{
    size_t i;
    json_t *l;
    json_array_foreach(h->lobbies, i, l)
    {
        const char *lid = json_string_value(json_object_get(l, "id"));
        if (lid && strcmp(lid, id) == 0)
            return (int)i;
    }
    return -1;
}

/* A lobby changed. Private lobbies never reach the feed: lobby_load with
 * no viewer answers SRV_NOT_FOUND for them. */
void hub_lobby_feed_changed(hub *h, const char *id)
{
    if (!h->lobbies_loaded)
        return; /* nobody listens; the next subscriber loads the list */
    PGconn *db = db_acquire(h->app->db, DB_WAIT_MS);
    if (!db) {
        h->lobbies_reload_due = 1;
        return;
    }
    json_t *lobby;
    srv_kind k = lobby_load(db, id, NULL, &lobby);
    db_release(h->app->db, db, k == SRV_UNAVAILABLE && db_conn_broken(db));
    int at = lobby_index(h, id);
    if (k == SRV_UNAVAILABLE) {
        h->lobbies_reload_due = 1;
    } else if (!lobby || json_is_true(json_object_get(lobby, "private"))) {
        if (at >= 0) { /* gone: send the whole list again */
            json_array_remove(h->lobbies, (size_t)at);
            lobbies_publish(h, NULL);
        }
    } else {
        const char *st = json_string_value(json_object_get(lobby, "status"));
        if (st && strcmp(st, "open") == 0) {
            if (at >= 0) {
                json_array_set(h->lobbies, (size_t)at, lobby);
            } else {
                json_array_insert(h->lobbies, 0, lobby); /* newest first */
                while (json_array_size(h->lobbies) > LOBBY_LIST_MAX)
                    json_array_remove(h->lobbies,
                                      json_array_size(h->lobbies) - 1);
            }
        } else if (at >= 0) {
            json_array_remove(h->lobbies, (size_t)at);
        }
        lobbies_publish(h, lobby);
    }
    json_decref(lobby);
}

void hub_lobbies_reload(hub *h)
{
    if (!h->lobbies_loaded)
        return;
    if (lobbies_load(h) != 0) {
        h->lobbies_reload_due = 1;
        return;
    }
    lobbies_publish(h, NULL);
}

void hub_lobbies_released(hub *h)
{
    if (!h->lobbies_loaded || !h->lobbies_since[0])
        return;
    PGconn *db = db_acquire(h->app->db, DB_WAIT_MS);
    if (!db)
        return; /* the next second tries again from the same mark */
    json_t *ids = lobby_released(db, h->lobbies_since, sizeof h->lobbies_since);
    db_release(h->app->db, db, !ids && db_conn_broken(db));
    size_t i;
    json_t *id;
    json_array_foreach(ids, i, id)
    {
        if (json_is_string(id))
            hub_lobby_feed_changed(h, json_string_value(id));
    }
    json_decref(ids);
}

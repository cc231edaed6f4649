/*
 * hub_worker.c - the WebSocket hub's workers: the queue of client requests
 * that may block (authentication, subscriptions, the lobby feed, the
 * inbox feed), taken one request of an address at a time with addresses
 * and connections in turn, and the sweep once a second that frees games
 * nobody watches. The requests themselves are hub_game_feed.c,
 * hub_lobby_feed.c and hub_turns.c.
 */
#include "server/hub/hub_internal.h"

#include "server/runtime/metrics.h"
#include "server/runtime/thread_name.h"

#include <stdlib.h>
#include <time.h>

/* -------------------------------------------------------------- jobs --- */

/* Put c at the end of its address's turn ring, and the address at the end
 * of the hub's if it was not on it. Under hub.lock. */
static void ready_push_locked(hub *h, hub_conn *c)
{
    hub_ip *ip = c->ip;
    c->ready = 1;
    c->ready_next = NULL;
    if (ip->ready_tail)
        ip->ready_tail->ready_next = c;
    else
        ip->ready_head = c;
    ip->ready_tail = c;
    if (ip->ready || ip->busy)
        return; /* a busy address rejoins when its request is done */
    ip->ready = 1;
    ip->ready_next = NULL;
    if (h->ready_tail)
        h->ready_tail->ready_next = ip;
    else
        h->ready_head = ip;
    h->ready_tail = ip;
}

/* Under hub.lock (any thread). */
void hub_job_push_locked(hub *h, hub_job *j)
{
    j->next = NULL;
    hub_conn *c = j->conn;
    if (c) {
        if (c->jtail)
            c->jtail->next = j;
        else
            c->jhead = j;
        c->jtail = j;
        if (!c->ready)
            ready_push_locked(h, c);
    } else {
        if (h->jobs_tail)
            h->jobs_tail->next = j;
        else
            h->jobs_head = j;
        h->jobs_tail = j;
    }
    pthread_cond_signal(&h->cv);
}

hub_job *hub_job_pop_locked(hub *h)
{
    hub_job *j = h->jobs_head;
    if (j) {
        h->jobs_head = j->next;
        if (!h->jobs_head)
            h->jobs_tail = NULL;
        return j;
    }
    hub_ip *ip = h->ready_head;
    if (!ip)
        return NULL;
    h->ready_head = ip->ready_next;
    if (!h->ready_head)
        h->ready_tail = NULL;
    ip->ready = 0;
    ip->ready_next = NULL;
    ip->busy = 1; /* until hub_job_done_locked */
    hub_conn *c = ip->ready_head;
    ip->ready_head = c->ready_next;
    if (!ip->ready_head)
        ip->ready_tail = NULL;
    c->ready = 0;
    c->ready_next = NULL;
    j = c->jhead;
    c->jhead = j->next;
    if (!c->jhead)
        c->jtail = NULL;
    else
        ready_push_locked(h, c); /* its next request waits for its turn */
    return j;
}

void hub_job_done_locked(hub *h, hub_conn *c)
{
    hub_ip *ip = c->ip;
    ip->busy = 0;
    if (!ip->ready_head || ip->ready)
        return;
    ip->ready = 1;
    ip->ready_next = NULL;
    if (h->ready_tail)
        h->ready_tail->ready_next = ip;
    else
        h->ready_head = ip;
    h->ready_tail = ip;
    pthread_cond_signal(&h->cv);
}

/* ------------------------------------------------------------ worker --- */

/* Free games nobody has watched for HUB_GRACE_SECONDS (all of them when
 * force), releasing their pins; drop the lobby list when nobody listens. */
static void sweep(hub *h, int force)
{
    hub_game *gone = NULL;
    double now = hub_now();
    pthread_mutex_lock(&h->lock);
    for (int b = 0; b < HUB_GAME_BUCKETS; b++) {
        hub_game **link = &h->games[b];
        while (*link) {
            hub_game *g = *link;
            if (force || (g->nsubs == 0 && g->refs == 0 &&
                          now - g->idle_since > HUB_GRACE_SECONDS)) {
                *link = g->next;
                g->next = gone;
                gone = g;
                h->ngames--;
            } else {
                link = &g->next;
            }
        }
    }
    long ngames = h->ngames;
    hub_ips_sweep_locked(h, force);
    int drop_lobbies = h->lobbies_loaded && (force || h->nlobby_subs == 0);
    if (drop_lobbies) {
        hub_msg_unref(h->lobbies_msg);
        h->lobbies_msg = NULL;
    }
    pthread_mutex_unlock(&h->lock);
    metrics_gauge("conclave_ws_games", "Games the WebSocket hub follows.",
                  (double)ngames);
    if (drop_lobbies) {
        json_array_clear(h->lobbies);
        h->lobbies_loaded = 0;
        h->lobbies_reload_due = 0;
    }
    while (gone) {
        hub_game *g = gone;
        gone = g->next;
        if (g->pinned && h->actors)
            actors_pin(h->actors, g->id, -1);
        hub_game_free(g);
    }
    if (!force && h->lobbies_reload_due)
        hub_lobbies_reload(h);
    if (!force)
        hub_lobbies_released(h);
}

static void run(hub *h, hub_job *j)
{
    if (!j->conn && j->kind != JOB_LOBBY_CHANGED &&
        j->kind != JOB_LOBBY_RELOAD && j->kind != JOB_TURNS_CHANGED)
        return; /* connection jobs always carry their connection */
    switch (j->kind) {
    case JOB_AUTH:
        hub_job_auth(h, j);
        break;
    case JOB_SUBSCRIBE:
        hub_job_subscribe(h, j);
        break;
    case JOB_UNSUBSCRIBE:
        hub_job_unsubscribe(h, j);
        break;
    case JOB_TURNS:
        hub_turns_subscribe(h, j);
        break;
    case JOB_TURNS_CHANGED:
        hub_turns_game_changed(h, j->arg);
        break;
    case JOB_LOBBIES:
    case JOB_LOBBY_CHANGED:
    case JOB_LOBBY_RELOAD:
        pthread_mutex_lock(&h->lobby_lock); /* one lobby list, in order */
        if (j->kind == JOB_LOBBIES)
            hub_lobbies_subscribe(h, j);
        else if (j->kind == JOB_LOBBY_CHANGED)
            hub_lobby_feed_changed(h, j->arg);
        else
            hub_lobbies_reload(h);
        pthread_mutex_unlock(&h->lobby_lock);
        break;
    }
}

/* A hub worker (HUB_WORKERS of them): each connection's requests in the
 * order it sent them (so its auth is settled before its next subscribe),
 * one request of an address at a time, the addresses and their
 * connections in turn; one of them sweeps once a second. */
void *hub_worker_main(void *arg)
{
    thread_name_set("hub-render");
    hub *h = arg;
    pthread_mutex_lock(&h->lock);
    while (!h->worker_stop) {
        int due = h->jobs_head || h->ready_head;
        double now = hub_now();
        int sweep_due = now >= h->next_sweep;
        if (!due && !sweep_due) {
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            until.tv_sec += 1;
            pthread_cond_timedwait(&h->cv, &h->lock, &until);
            continue;
        }
        if (sweep_due)
            h->next_sweep = now + 1; /* this worker sweeps; the others not */
        hub_job *j = hub_job_pop_locked(h);
        int skip = j && j->conn && !j->conn->wsi; /* it closed meanwhile */
        pthread_mutex_unlock(&h->lock);
        if (j && !skip)
            run(h, j);
        if (sweep_due) {
            hub_delay_tick(h);
            pthread_mutex_lock(&h->lobby_lock);
            sweep(h, 0);
            pthread_mutex_unlock(&h->lobby_lock);
        }
        pthread_mutex_lock(&h->lock);
        if (j) {
            if (j->conn) {
                hub_job_done_locked(h, j->conn);
                j->conn->jobs--;
                hub_conn_put_locked(h, j->conn);
            }
            free(j);
        }
    }
    pthread_mutex_unlock(&h->lock);
    return NULL;
}

/* Main thread, from hub_stop after every thread ended. */
void hub_feed_free(hub *h)
{
    sweep(h, 1);
    json_decref(h->lobbies);
    h->lobbies = NULL;
    hub_msg_unref(h->lobbies_msg);
    h->lobbies_msg = NULL;
}

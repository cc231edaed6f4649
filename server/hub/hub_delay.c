/*
 * hub_delay.c - the WebSocket feed of a game with a spectator delay
 * (server/game/spectate.h): its spectators subscribe to a HUB_DELAYED audience
 * that follows the public audience late.
 *
 * The public audience of such a game is rendered at every version, as any
 * audience is (without deadlines), but nobody subscribes to it: each of its
 * patches waits in the delayed audience's queue with the time its version
 * was recorded, and is sent to the spectators (the same message, so the
 * versions chain as they do live) once it is due: its version is
 * delay_versions versions old (or the game is over) and delay_seconds
 * seconds old. The actor workers release what is due after each version;
 * a hub worker checks every game once a second (hub_delay_tick), so a
 * version may reach spectators up to about a second after its time, never
 * before. Public chat messages (hub_chat.c) wait in the same queue, due by
 * the same rule from the version they were posted at and their own time.
 *
 * The delayed audience starts from the store: the game replayed to the
 * version spectators may see (its document and snapshot), and on to the
 * live version, each step diffed into a waiting patch recorded at the time
 * the database says the input was.
 */
#include "server/hub/hub_internal.h"

#include "common/jsonpatch.h"
#include "server/game/gamedoc.h"
#include "server/game/spectate.h"
#include "server/runtime/log.h"

#include <stdlib.h>
#include <string.h>

#define DB_WAIT_MS 2000

/* A new slot at the end of d's queue, or NULL when out of memory. */
static hub_pending *grow(hub_aud *d)
{
    if (d->npend == d->cappend) {
        size_t cap = d->cappend ? 2 * d->cappend : 16;
        hub_pending *grown = realloc(d->pend, cap * sizeof *grown);
        if (!grown)
            return NULL;
        d->pend = grown;
        d->cappend = cap;
    }
    return &d->pend[d->npend++];
}

int hub_delay_push(hub_game *g, hub_aud *d, uint64_t from, uint64_t to,
                   json_t *ops, hub_msg *m)
{
    (void)g;
    hub_pending *p = grow(d);
    if (!p)
        return -1;
    p->from = from;
    p->to = to;
    p->at = hub_now();
    p->ops = json_incref(ops);
    p->m = hub_msg_ref(m);
    return 0;
}

int hub_delay_push_chat(hub_aud *d, uint64_t version, double age, hub_msg *m)
{
    hub_pending *p = grow(d);
    if (!p)
        return -1;
    p->from = p->to = version;
    p->at = hub_now() - (age > 0 ? age : 0);
    p->ops = NULL;
    p->m = hub_msg_ref(m);
    return 0;
}

/* Whether the waiting patch or message p is due for g's spectators. Under
 * g->lock. */
static int due(const hub_game *g, const hub_pending *p, double now)
{
    int old = g->over || (g->live >= p->to &&
                          g->live - p->to >= (uint64_t)g->delay_versions);
    return old && now - p->at >= (double)g->delay_seconds;
}

/* Send the due chat message p to d's subscribers. Under g->lock; takes
 * hub.lock. */
static int release_chat(hub *h, hub_aud *d, hub_pending *p)
{
    int wake = 0;
    pthread_mutex_lock(&h->lock);
    for (hub_sub *s = d->subs; s; s = s->aud_next)
        wake |= hub_enqueue_locked(h, s->conn, p->m);
    pthread_mutex_unlock(&h->lock);
    hub_msg_unref(p->m);
    return wake;
}

int hub_delay_release(hub *h, hub_game *g, hub_aud *d)
{
    int wake = 0;
    double now = hub_now();
    size_t done = 0;
    while (done < d->npend && due(g, &d->pend[done], now)) {
        hub_pending *p = &d->pend[done];
        if (!p->ops) {
            wake |= release_chat(h, d, p);
            done++;
            continue;
        }
        char err[160];
        json_t *next = json_incref(d->doc);
        hub_msg *snap = NULL;
        if (p->from != d->version ||
            jsonpatch_apply(&next, p->ops, err, sizeof err) != 0 ||
            !(snap = hub_snapshot_msg(g->id, p->to, next))) {
            /* Cannot happen short of memory: the spectators keep the
             * version they have and resubscribe to catch up. */
            json_decref(next);
            log_error(
                "hub_delay_release_failed",
                json_pack("{ss sI}", "game", g->id, "to", (json_int_t)p->to));
            break;
        }
        json_decref(d->doc);
        d->doc = next;
        json_decref(p->ops);
        pthread_mutex_lock(&h->lock);
        hub_msg_unref(d->snap);
        d->snap = snap;
        wake |= hub_aud_publish_locked(h, d, p->to, p->m);
        d->version = p->to;
        pthread_mutex_unlock(&h->lock);
        done++;
    }
    if (done) {
        memmove(d->pend, d->pend + done, (d->npend - done) * sizeof *d->pend);
        d->npend -= done;
    }
    return wake;
}

void hub_delay_clear(hub_aud *d)
{
    for (size_t i = 0; i < d->npend; i++) {
        json_decref(d->pend[i].ops);
        hub_msg_unref(d->pend[i].m);
    }
    free(d->pend);
    d->pend = NULL;
    d->npend = d->cappend = 0;
}

/* ---- the start, from the store ---- */

typedef struct replay_ctx {
    hub_game *g;
    hub_aud *d;
    json_t *prev; /* the document at prev_version */
    uint64_t prev_version;
    int failed;
} replay_ctx;

/* One version of the replay: the first is the delayed audience's own
 * document, each later one a waiting patch. */
static int replay_step(const actor_view *v, double age, void *arg)
{
    replay_ctx *x = arg;
    json_t *doc = gamedoc_render(v, ENGINE_PUBLIC);
    if (!doc) {
        x->failed = 1;
        return 1;
    }
    if (!x->prev) {
        x->d->doc = json_incref(doc);
        x->d->version = v->version;
        x->d->snap = hub_snapshot_msg(x->g->id, v->version, doc);
        x->failed = !x->d->snap;
    } else {
        json_t *ops = jsonpatch_diff(x->prev, doc);
        json_t *p =
            ops ? json_pack("{ss ss sI sI sO}", "type", "patch", "game",
                            x->g->id, "from", (json_int_t)x->prev_version, "to",
                            (json_int_t)v->version, "ops", ops)
                : NULL;
        hub_msg *m = p ? hub_msg_json(p, HUB_MSG_SEQ) : NULL;
        x->failed = !m || hub_delay_push(x->g, x->d, x->prev_version,
                                         v->version, ops, m) != 0;
        if (!x->failed)
            x->d->pend[x->d->npend - 1].at = hub_now() - age;
        hub_msg_unref(m);
        json_decref(p);
        json_decref(ops);
    }
    json_decref(x->prev);
    x->prev = doc;
    x->prev_version = v->version;
    return x->failed;
}

hub_aud *hub_delay_audience(hub *h, hub_game *g, const actor_view *v)
{
    if (g->delayed)
        return g->delayed;
    hub_aud *d = calloc(1, sizeof *d);
    PGconn *c = d ? db_acquire(h->app->db, DB_WAIT_MS) : NULL;
    if (!c) {
        free(d);
        return NULL;
    }
    d->game = g;
    d->seat = HUB_DELAYED;
    replay_ctx x = {g, d, NULL, 0, 0};
    srv_kind k = spectate_replay(c, v->meta, v->version, 1, replay_step, &x);
    db_release(h->app->db, c, k == SRV_UNAVAILABLE && db_conn_broken(c));
    json_decref(x.prev);
    if (k != SRV_OK || x.failed || x.prev_version != v->version) {
        json_decref(d->doc);
        hub_msg_unref(d->snap);
        hub_delay_clear(d);
        free(d);
        log_error(
            "hub_delay_start_failed",
            json_pack("{ss ss}", "game", g->id, "error", srv_kind_name(k)));
        return NULL;
    }
    pthread_mutex_lock(&h->lock);
    d->next = g->auds;
    g->auds = d;
    g->delayed = d;
    pthread_mutex_unlock(&h->lock);
    hub_delay_release(h, g, d); /* nobody subscribed yet: no wake-up */
    return d;
}

void hub_delay_tick(hub *h)
{
    size_t n = 0, cap = 0;
    hub_game **list = NULL;
    pthread_mutex_lock(&h->lock);
    for (int b = 0; b < HUB_GAME_BUCKETS; b++)
        for (hub_game *g = h->games[b]; g; g = g->next) {
            if (!g->delayed)
                continue;
            if (n == cap) {
                size_t nc = cap ? 2 * cap : 16;
                hub_game **grown = realloc(list, nc * sizeof(void *));
                if (!grown)
                    break;
                list = grown;
                cap = nc;
            }
            g->refs++;
            list[n++] = g;
        }
    pthread_mutex_unlock(&h->lock);
    int wake = 0;
    for (size_t i = 0; i < n; i++) {
        pthread_mutex_lock(&list[i]->lock);
        wake |= hub_delay_release(h, list[i], list[i]->delayed);
        pthread_mutex_unlock(&list[i]->lock);
    }
    pthread_mutex_lock(&h->lock);
    for (size_t i = 0; i < n; i++)
        list[i]->refs--;
    pthread_mutex_unlock(&h->lock);
    free(list);
    if (wake)
        hub_wake(h);
}

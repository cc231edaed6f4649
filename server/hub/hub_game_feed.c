/*
 * hub_game_feed.c - the game feed of the WebSocket hub: per-audience views
 * of games diffed into JSON Patches, resume from a version, subscriptions
 * and their authentication. The lobby feed is hub_lobby_feed.c, the worker
 * that runs these requests hub_worker.c, the connection side hub.c;
 * threads and locks are described in hub_internal.h.
 *
 * The document. For each game and audience (a seat, or the public) the hub
 * keeps D = gamedoc_render(game, audience) = {"view","windows"} at the
 * game's version: the same renderer as the REST game resource's, so the
 * two never disagree (server/game/gamedoc.h). A snapshot carries D's two
 * members next to "type", "game" and "version"; a patch {"from","to","ops"} is
 * the RFC 6902 diff from D at `from` to D at `to` (paths start with /view or
 * /windows). A client that builds {"view": s.view, "windows": s.windows} from a
 * snapshot and applies each patch whose `from` equals its version holds
 * exactly the next snapshot's document. Every committed version the hub
 * sees produces one patch per audience, even an empty one, so versions
 * chain without holes; `to` may skip versions the process never saw.
 *
 * Sharing: each new version is rendered once per audience (on the actor
 * worker that committed it, under actors_read) and diffed once; the patch
 * and snapshot texts are refcounted and queued on every subscriber.
 *
 * Resume: each audience keeps its last HUB_HISTORY patches. Subscribing
 * with the version held sends the patches since (nothing if current), or a
 * snapshot when the version is unknown, too old, or ahead of this process.
 *
 * Not here: authorization beyond seats (every game is public to watch, as
 * GET /api/v1/games/{id} is), and game state itself (the actors own it).
 */
#include "server/hub/hub_internal.h"

#include "common/jsonpatch.h"
#include "server/game/gamedoc.h"
#include "server/game/spectate.h"
#include "server/hub/hub_render.h"
#include "server/lobby/lobby.h"
#include "server/players/tokens.h"
#include "server/runtime/log.h"
#include "server/runtime/metrics.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DB_WAIT_MS 2000

static unsigned bucket_of(const char *id)
{
    unsigned v = 2166136261u;
    while (*id)
        v = (v ^ (unsigned char)*id++) * 16777619u;
    return v % HUB_GAME_BUCKETS;
}

/* ------------------------------------------------------------ render --- */

hub_msg *hub_snapshot_msg(const char *game_id, uint64_t version,
                          const json_t *doc)
{
    json_t *snap_j = json_pack("{ss ss sI sO sO}", "type", "snapshot", "game",
                               game_id, "version", (json_int_t)version, "view",
                               json_object_get(doc, "view"), "windows",
                               json_object_get(doc, "windows"));
    hub_msg *m = snap_j ? hub_msg_json(snap_j, HUB_MSG_SEQ) : NULL;
    json_decref(snap_j);
    return m;
}

/* The snapshot and patch messages of a's step to v (doc at v, ops from
 * a's document, NULL for a first document). Out of memory: 0 and nothing
 * is returned (the caller keeps the old document). */
static int step_messages(hub_game *g, const hub_aud *a, const actor_view *v,
                         const json_t *doc, json_t *ops, hub_msg **snap,
                         hub_msg **patch)
{
    *snap = hub_snapshot_msg(g->id, v->version, doc);
    *patch = NULL;
    if (ops) {
        json_t *p = json_pack("{ss ss sI sI sO}", "type", "patch", "game",
                              g->id, "from", (json_int_t)a->version, "to",
                              (json_int_t)v->version, "ops", ops);
        *patch = p ? hub_msg_json(p, HUB_MSG_SEQ) : NULL;
        json_decref(p);
    }
    if (*snap && (!ops || *patch))
        return 1;
    hub_msg_unref(*snap);
    hub_msg_unref(*patch);
    *snap = *patch = NULL;
    return 0;
}

int hub_aud_publish_locked(hub *h, hub_aud *a, uint64_t to, hub_msg *patch)
{
    int wake = 0;
    if (a->hlen == HUB_HISTORY) {
        hub_msg_unref(a->hist[a->hhead].m);
        a->hhead = (a->hhead + 1) % HUB_HISTORY;
        a->hlen--;
    }
    int i = (a->hhead + a->hlen) % HUB_HISTORY;
    a->hist[i].from = a->version;
    a->hist[i].to = to;
    a->hist[i].m = patch;
    a->hlen++;
    for (hub_sub *s = a->subs; s; s = s->aud_next)
        wake |= hub_enqueue_locked(h, s->conn, patch);
    return wake;
}

/* Bring audience a of g to v's version: render (only if the input touched
 * it, see hub_render.h), diff, keep the patch and the new snapshot, queue
 * the patch on each subscriber; in a delayed game the public audience's
 * patch also waits for the delayed spectators. Under g->lock. Returns 1
 * when the lws thread must be woken. */
static int advance_aud(hub *h, hub_game *g, hub_aud *a, const actor_view *v,
                       json_t *windows)
{
    int wake = 0;
    int full = hub_render_full(v, a->seat, a->doc != NULL, a->version);
    json_t *doc = NULL, *ops = NULL;
    hub_msg *snap = NULL, *patch = NULL;
    if (hub_render_next(v, a->seat, windows, a->doc, full, &doc, &ops) != 0 ||
        !step_messages(g, a, v, doc, ops, &snap, &patch)) {
        /* Out of memory: keep the old document; the next version is
         * diffed against it in full, so the sequence stays whole. */
        json_decref(doc);
        json_decref(ops);
        log_error("hub_render_failed", json_pack("{ss}", "game", g->id));
        return 0;
    }
    if (patch && a->seat == ENGINE_PUBLIC && g->delayed &&
        hub_delay_push(g, g->delayed, a->version, v->version, ops, patch) != 0)
        log_error("hub_delay_failed", json_pack("{ss}", "game", g->id));
    json_decref(ops);
    json_decref(a->doc);
    a->doc = doc;
    pthread_mutex_lock(&h->lock);
    hub_msg_unref(a->snap);
    a->snap = snap;
    if (patch)
        wake |= hub_aud_publish_locked(h, a, v->version, patch);
    a->version = v->version;
    pthread_mutex_unlock(&h->lock);
    return wake;
}

/* Bring every audience of g to v's version (advance_aud); the delayed
 * spectators get what is due. Under g->lock inside actors_read. Returns 1
 * when the lws thread must be woken. In a delayed game the public
 * audience is rendered without deadlines, as spectate.h says. */
static int advance_game(hub *h, hub_game *g, const actor_view *v)
{
    int wake = 0;
    actor_view pv = *v;
    pv.deadlines = NULL;
    json_t *windows = gamedoc_windows(v);
    json_t *pwindows = g->is_delayed ? gamedoc_windows(&pv) : NULL;
    for (hub_aud *a = g->auds; windows && a; a = a->next) {
        if (a->seat == HUB_DELAYED || (a->doc && a->version >= v->version))
            continue;
        int pub = g->is_delayed && a->seat == ENGINE_PUBLIC;
        if (pub && !pwindows)
            continue;
        wake |= advance_aud(h, g, a, pub ? &pv : v, pub ? pwindows : windows);
    }
    json_decref(windows);
    json_decref(pwindows);
    if (v->version >= g->live) {
        g->live = v->version;
        g->over = engine_is_over(v->game);
    }
    if (g->delayed)
        wake |= hub_delay_release(h, g, g->delayed);
    return wake;
}

/* ------------------------------------------------------------- games --- */

hub_game *hub_game_find_locked(hub *h, const char *id)
{
    hub_game *g = h->games[bucket_of(id)];
    while (g && strcmp(g->id, id) != 0)
        g = g->next;
    return g;
}

/* Find (or create) the entry for id and take a reference. Under hub.lock.
 * NULL when absent and !create, or out of memory. */
static hub_game *game_get_locked(hub *h, const char *id, int create)
{
    unsigned b = bucket_of(id);
    hub_game *g = h->games[b];
    while (g && strcmp(g->id, id) != 0)
        g = g->next;
    if (!g && create) {
        g = calloc(1, sizeof *g);
        if (!g)
            return NULL;
        snprintf(g->id, sizeof g->id, "%s", id);
        pthread_mutex_init(&g->lock, NULL);
        g->idle_since = hub_now();
        g->next = h->games[b];
        h->games[b] = g;
        metrics_gauge("conclave_ws_games", "Games the WebSocket hub follows.",
                      (double)++h->ngames);
    }
    if (g)
        g->refs++;
    return g;
}

void hub_game_free(hub_game *g)
{
    while (g->auds) {
        hub_aud *a = g->auds;
        g->auds = a->next;
        json_decref(a->doc);
        hub_msg_unref(a->snap);
        hub_delay_clear(a);
        for (int i = 0; i < a->hlen; i++)
            hub_msg_unref(a->hist[(a->hhead + i) % HUB_HISTORY].m);
        free(a);
    }
    pthread_mutex_destroy(&g->lock);
    free(g);
}

typedef struct version_ctx {
    hub *h;
    hub_game *g;
    int wake;
} version_ctx;

/* Actor worker, under the actor's lock. */
static void version_read(const actor_view *v, void *arg)
{
    version_ctx *x = arg;
    pthread_mutex_lock(&x->g->lock);
    x->wake |= advance_game(x->h, x->g, v);
    pthread_mutex_unlock(&x->g->lock);
}

/* Actor worker threads, right after a commit or a catch-up (not under the
 * actor's lock). Games nobody here watches cost one map lookup. */
void hub_feed_game_version(hub *h, const char *game_id, uint64_t version)
{
    (void)version; /* rendered at the committed version actors_read shows */
    pthread_mutex_lock(&h->lock);
    hub_game *g = game_get_locked(h, game_id, 0);
    pthread_mutex_unlock(&h->lock);
    if (!g)
        return;
    version_ctx x = {h, g, 0};
    actors_read(h->actors, game_id, version_read, &x);
    pthread_mutex_lock(&h->lock);
    g->refs--;
    pthread_mutex_unlock(&h->lock);
    if (x.wake)
        hub_wake(h);
}

/* ------------------------------------------------------ subscriptions -- */

/* Unlink s from its audience and its connection's count, and free it (the
 * caller unlinks it from the connection's list). Under hub.lock. */
static void sub_free_locked(hub_sub *s)
{
    hub_aud *a = s->aud;
    if (s->aud_prev)
        s->aud_prev->aud_next = s->aud_next;
    else
        a->subs = s->aud_next;
    if (s->aud_next)
        s->aud_next->aud_prev = s->aud_prev;
    if (--a->game->nsubs == 0)
        a->game->idle_since = hub_now();
    s->conn->nsubs--;
    free(s);
}

/* Whether c follows game_id. Under hub.lock. */
static int c_subscribed(const hub_conn *c, const char *game_id)
{
    for (const hub_sub *s = c->subs; s; s = s->conn_next)
        if (strcmp(s->aud->game->id, game_id) == 0)
            return 1;
    return 0;
}

/* Remove c's subscription to game_id, if any. Under hub.lock. */
static void unsubscribe_locked(hub_conn *c, const char *game_id)
{
    hub_sub *prev = NULL;
    for (hub_sub *s = c->subs; s; prev = s, s = s->conn_next) {
        if (strcmp(s->aud->game->id, game_id) == 0) {
            if (prev)
                prev->conn_next = s->conn_next;
            else
                c->subs = s->conn_next;
            sub_free_locked(s);
            return;
        }
    }
}

static void lobby_unsub_locked(hub *h, hub_conn *c)
{
    if (!c->lobby_sub)
        return;
    if (c->lobby_prev)
        c->lobby_prev->lobby_next = c->lobby_next;
    else
        h->lobby_subs = c->lobby_next;
    if (c->lobby_next)
        c->lobby_next->lobby_prev = c->lobby_prev;
    c->lobby_prev = c->lobby_next = NULL;
    c->lobby_sub = 0;
    h->nlobby_subs--;
}

/* lws thread (the connection closed). Under hub.lock. */
void hub_conn_unsubscribe_all_locked(hub *h, hub_conn *c)
{
    while (c->subs) {
        hub_sub *s = c->subs;
        c->subs = s->conn_next;
        sub_free_locked(s);
    }
    lobby_unsub_locked(h, c);
    if (c->turns_sub) {
        c->turns_sub = 0;
        h->nturns_subs--;
    }
}

/* lws thread, in the writeable callback after an overflow. Under hub.lock:
 * snapshots are complete and current there, so no database or rendering is
 * needed. */
void hub_resync_locked(hub *h, hub_conn *c)
{
    for (hub_sub *s = c->subs; s; s = s->conn_next)
        if (s->aud->snap)
            hub_queue_push_locked(c, s->aud->snap);
    if (c->lobby_sub && h->lobbies_msg)
        hub_queue_push_locked(c, h->lobbies_msg);
}

/* The messages that bring a client holding `held` (-1: nothing) up to a's
 * version: nothing, the patches since, or a snapshot. Under hub.lock. */
static int send_initial_locked(hub *h, hub_conn *c, hub_aud *a, int64_t held)
{
    if (held >= 0 && (uint64_t)held == a->version)
        return 0;
    if (held >= 0 && (uint64_t)held < a->version) {
        int start = -1;
        for (int i = 0; i < a->hlen; i++) {
            int k = (a->hhead + i) % HUB_HISTORY;
            if (a->hist[k].from == (uint64_t)held)
                start = i;
        }
        int whole = start >= 0;
        for (int i = start; whole && i + 1 < a->hlen; i++)
            whole = a->hist[(a->hhead + i) % HUB_HISTORY].to ==
                    a->hist[(a->hhead + i + 1) % HUB_HISTORY].from;
        if (whole &&
            a->hist[(a->hhead + a->hlen - 1) % HUB_HISTORY].to == a->version) {
            int wake = 0;
            for (int i = start; i < a->hlen; i++)
                wake |= hub_enqueue_locked(
                    h, c, a->hist[(a->hhead + i) % HUB_HISTORY].m);
            return wake;
        }
    }
    return hub_enqueue_locked(h, c, a->snap);
}

/* g's audience for seat, made if need be. Under g->lock. NULL when out of
 * memory. */
static hub_aud *aud_get(hub *h, hub_game *g, int seat)
{
    hub_aud *a = g->auds;
    while (a && a->seat != seat)
        a = a->next;
    if (a)
        return a;
    a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->game = g;
    a->seat = seat;
    pthread_mutex_lock(&h->lock);
    a->next = g->auds;
    g->auds = a;
    pthread_mutex_unlock(&h->lock);
    return a;
}

typedef struct sub_ctx {
    hub *h;
    hub_game *g;
    hub_conn *c;
    int64_t held;
    char player[STORE_ID_MAX]; /* c's player when the request ran, or "" */
    int wake;
    int failed;
    int revoked; /* c's token was revoked meanwhile: nothing was added */
} sub_ctx;

/* Hub worker, under the actor's lock. */
static void sub_read(const actor_view *v, void *arg)
{
    sub_ctx *x = arg;
    hub *h = x->h;
    hub_game *g = x->g;
    hub_conn *c = x->c;
    int seat = x->player[0] ? gamedoc_seat_of(v->meta, x->player) : -1;
    if (seat < 0)
        seat = ENGINE_PUBLIC;
    pthread_mutex_lock(&g->lock);
    g->delay_versions = v->meta->delay_versions;
    g->delay_seconds = v->meta->delay_seconds;
    g->is_delayed = spectate_delayed(v->meta);
    /* A delayed game's spectators follow the public audience late. */
    hub_aud *a = aud_get(h, g, seat);
    if (a)
        x->wake |= advance_game(h, g, v);
    if (a && seat == ENGINE_PUBLIC && g->is_delayed)
        a = hub_delay_audience(h, g, v);
    hub_sub *s = a && a->snap ? calloc(1, sizeof *s) : NULL;
    if (!s) {
        pthread_mutex_unlock(&g->lock);
        x->failed = 1;
        return;
    }
    pthread_mutex_lock(&h->lock);
    /* A revocation since the request started (hub_token_revoked) must not
     * be undone by this seat subscription. */
    x->revoked = seat != ENGINE_PUBLIC && strcmp(c->player_id, x->player) != 0;
    if (c->wsi && !x->revoked &&
        c->nsubs < HUB_MAX_SUBS + c_subscribed(c, g->id)) {
        unsubscribe_locked(c, g->id); /* a resubscribe replaces it */
        s->conn = c;
        s->aud = a;
        s->aud_next = a->subs;
        if (a->subs)
            a->subs->aud_prev = s;
        a->subs = s;
        s->conn_next = c->subs;
        c->subs = s;
        c->nsubs++;
        g->nsubs++;
        x->wake |= send_initial_locked(h, c, a, x->held);
        s = NULL;
    }
    pthread_mutex_unlock(&h->lock);
    pthread_mutex_unlock(&g->lock);
    free(s);
}

static void read_nothing(const actor_view *v, void *arg)
{
    (void)v;
    (void)arg;
}

/* The answer to a subscribe that did not add a subscription. */
static void subscribe_failed(hub *h, hub_conn *c, srv_kind rc, const sub_ctx *x,
                             const char *id)
{
    if (rc == SRV_NOT_FOUND)
        hub_send_error(h, c, SRV_NOT_FOUND, "no such game", id);
    else if (rc != SRV_OK)
        hub_send_error(h, c, SRV_UNAVAILABLE,
                       "the game cannot be loaded right now; subscribe "
                       "again shortly",
                       id);
    else if (x && x->revoked)
        hub_send_error(h, c, SRV_UNAUTHORIZED,
                       "the session was signed out (its token was revoked); "
                       "this connection is a spectator now",
                       id);
    else if (x && x->failed)
        hub_send_error(h, c, SRV_UNAVAILABLE, "the server is out of memory",
                       id);
}

/* Hub worker. */
void hub_job_subscribe(hub *h, hub_job *j)
{
    /* Only a game the store has gets an entry here (and in the actors, which
     * remember ids the store did not have, server/game/actor.h). */
    srv_kind rc = actors_read(h->actors, j->arg, read_nothing, NULL);
    if (rc != SRV_OK) {
        subscribe_failed(h, j->conn, rc, NULL, j->arg);
        return;
    }
    sub_ctx x = {h, NULL, j->conn, j->version, "", 0, 0, 0};
    pthread_mutex_lock(&h->lock);
    snprintf(x.player, sizeof x.player, "%s", j->conn->player_id);
    /* The cap is checked here, in request order, so an unsubscribe sent
     * just before counts. */
    int full =
        c_subscribed(j->conn, j->arg) == 0 && j->conn->nsubs >= HUB_MAX_SUBS;
    hub_game *g = full ? NULL : game_get_locked(h, j->arg, 1);
    int pin = g && !g->pinned;
    if (pin)
        g->pinned = 1;
    pthread_mutex_unlock(&h->lock);
    if (full) {
        hub_send_error(h, j->conn, SRV_TOO_MANY,
                       "at most 64 game subscriptions per connection; "
                       "unsubscribe from one first",
                       j->arg);
        return;
    }
    if (!g) {
        hub_send_error(h, j->conn, SRV_UNAVAILABLE,
                       "the server is out of memory", j->arg);
        return;
    }
    if (pin)
        actors_pin(h->actors, g->id, 1); /* other processes' inputs reach */
    x.g = g;
    rc = actors_read(h->actors, g->id, sub_read, &x);
    pthread_mutex_lock(&h->lock);
    g->refs--;
    if (rc != SRV_OK && g->nsubs == 0)
        g->idle_since = 0; /* nothing to keep: let the next sweep go */
    pthread_mutex_unlock(&h->lock);
    if (x.wake)
        hub_wake(h);
    subscribe_failed(h, j->conn, rc, &x, g->id);
}

void hub_job_unsubscribe(hub *h, hub_job *j)
{
    pthread_mutex_lock(&h->lock);
    unsubscribe_locked(j->conn, j->arg);
    pthread_mutex_unlock(&h->lock);
}

void hub_job_auth(hub *h, hub_job *j)
{
    hub_conn *c = j->conn;
    pthread_mutex_lock(&h->lock);
    int subscribed = c->nsubs > 0;
    int authed = c->authed;
    pthread_mutex_unlock(&h->lock);
    if (authed || subscribed) {
        hub_send_error(h, c, SRV_CONFLICT,
                       authed ? "this connection is already "
                                "authenticated; open a new one to change "
                                "players"
                              : "authenticate before subscribing: "
                                "unsubscribe, or open a new connection",
                       NULL);
        return;
    }
    char player[STORE_ID_MAX];
    srv_kind k =
        tokens_lookup(h->app->db, j->arg, player, sizeof player, NULL, 0);
    if (k == SRV_OK) {
        char hash[TOKENS_HASH_HEX];
        tokens_hash(j->arg, hash);
        pthread_mutex_lock(&h->lock);
        /* Set first, then ask: a revocation either sees the connection
         * (hub_token_revoked) or is seen here. */
        snprintf(c->player_id, sizeof c->player_id, "%s", player);
        snprintf(c->token_hash, sizeof c->token_hash, "%s", hash);
        c->authed = 1;
        if (tokens_hash_revoked(hash)) {
            c->player_id[0] = '\0';
            c->token_hash[0] = '\0';
            c->authed = 0;
            k = SRV_UNAUTHORIZED;
        }
        pthread_mutex_unlock(&h->lock);
    }
    if (k == SRV_UNAUTHORIZED) {
        log_info("ws_auth_failed", NULL);
        hub_send_error(h, c, SRV_UNAUTHORIZED,
                       "the token is unknown or was revoked; sign in again "
                       "(this connection stays a spectator)",
                       NULL);
    } else if (k != SRV_OK) {
        hub_send_error(h, c, SRV_UNAVAILABLE,
                       "the database is unreachable; authenticate again "
                       "shortly",
                       NULL);
    }
}

/* Drop c's seat subscriptions (not the spectator ones) and tell it, one
 * error per game and one for the connection. Under hub.lock. Returns 1
 * when the lws thread must be woken. */
static int conn_revoke_locked(hub *h, hub_conn *c)
{
    int wake = 0;
    c->player_id[0] = '\0';
    c->token_hash[0] = '\0';
    c->authed = 0;
    hub_sub **link = &c->subs;
    while (*link) {
        hub_sub *s = *link;
        if (s->aud->seat < 0) {
            link = &s->conn_next;
            continue;
        }
        *link = s->conn_next;
        hub_msg *m = hub_msg_error(
            SRV_UNAUTHORIZED,
            "the session was signed out (its token was revoked): this seat "
            "view ended; subscribe again to watch as a spectator",
            s->aud->game->id);
        wake |= hub_enqueue_locked(h, c, m);
        hub_msg_unref(m);
        sub_free_locked(s);
    }
    hub_msg *m = hub_msg_error(
        SRV_UNAUTHORIZED,
        "the session was signed out (its token was revoked): this connection "
        "is a spectator now; authenticate again with a new token to play",
        NULL);
    wake |= hub_enqueue_locked(h, c, m);
    hub_msg_unref(m);
    return wake;
}

void hub_token_revoked(void *ctx, const char *hash_hex)
{
    hub *h = ctx;
    if (!h || !hash_hex[0])
        return;
    int wake = 0, n = 0;
    pthread_mutex_lock(&h->lock);
    for (hub_conn *c = h->all; c; c = c->all_next)
        if (c->authed && strcmp(c->token_hash, hash_hex) == 0) {
            wake |= conn_revoke_locked(h, c);
            n++;
        }
    pthread_mutex_unlock(&h->lock);
    if (n)
        log_info("ws_token_revoked", json_pack("{si}", "connections", n));
    if (wake)
        hub_wake(h);
}

/*
 * hub.c - the WebSocket hub's libwebsockets side (see hub.h): the context
 * and its service thread, the handshake checks (path, Origin, per-IP cap),
 * parsing client messages, per-connection outgoing queues and the writes.
 * Games and audiences live in hub_game_feed.c, the lobby feed in
 * hub_lobby_feed.c, the worker in hub_worker.c; the threads and locks are
 * described in hub_internal.h.
 *
 * Protocol (text frames, one JSON object each; API.md is the contract):
 *   client -> server
 *     {"type":"auth","token":T}                 before any subscribe
 *     {"type":"subscribe","game":ID,"version"?:N}
 *     {"type":"unsubscribe","game":ID}
 *     {"type":"subscribe_lobbies"}
 *     {"type":"subscribe_turns"}       (server/hub/hub_turns.c)
 *     {"type":"ping"}
 *   server -> client
 *     {"type":"snapshot","game","version","view","windows"}
 *     {"type":"patch","game","from","to","ops":[RFC 6902]}
 *     {"type":"lobbies","lobbies":[...]}, {"type":"lobby","lobby":{...}}
 *     {"type":"pong"}
 *     {"type":"error","status","detail"} (+ "game" when about one game)
 * A patch applies to the document {"view": V, "windows": W} built from the
 * snapshot's two members (see hub_game_feed.c).
 *
 * Closing codes: a message over the size limit closes with 1009; a text
 * frame that is not valid UTF-8 closes with 1007 (libwebsockets checks it,
 * LWS_SERVER_OPTION_VALIDATE_UTF8); an unresponsive peer is closed after
 * the ping/hang-up times. Anything else malformed is answered with an error
 * message and the connection stays open.
 *
 * Memory per connection: the lws wsi and its 1 KiB receive buffer, an
 * 8-byte per-session pointer, one hub_conn, and a queue ring that starts
 * small and grows only while messages wait; message texts are shared.
 */
#include "server/hub/hub_internal.h"

#include "server/runtime/log.h"
#include "server/runtime/metrics.h"
#include "server/runtime/thread_name.h"

#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#define RX_BUFFER 1024     /* lws receive buffer per connection */
#define TX_PACKET 65536    /* largest single send(); lws buffers the rest */
#define SNDBUF (64 * 1024) /* kernel send buffer per connection */
#define QUEUE_START 4
#define REPLY_PAUSE 32 /* unread replies before we stop reading */
#define REPLY_MAX 256  /* unread replies kept at most */
#define WRITE_BATCH 16 /* messages sent per writeable callback at most */

/* Per-session data lws allocates for each connection. */
typedef struct pss {
    hub_conn *c;
} pss;

/* Hubs that actor workers may call into; hub_stop removes its hub under the
 * write lock, so hub_game_version (which holds the read lock throughout)
 * never touches a hub that is being freed. */
static pthread_rwlock_t live_lock = PTHREAD_RWLOCK_INITIALIZER;
#define LIVE_MAX 8
static hub *live_hubs[LIVE_MAX];

double hub_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ----------------------------------------------------------- messages -- */

/* Any thread. */
hub_msg *hub_msg_json(const json_t *j, hub_msg_kind kind)
{
    size_t len = json_dumpb(j, NULL, 0, JSON_COMPACT);
    if (len == 0)
        return NULL;
    hub_msg *m = malloc(sizeof *m + LWS_PRE + len + 1);
    if (!m)
        return NULL;
    atomic_init(&m->refs, 1);
    m->kind = kind;
    m->len = json_dumpb(j, (char *)m->buf + LWS_PRE, len, JSON_COMPACT);
    if (m->len != len) {
        free(m);
        return NULL;
    }
    m->buf[LWS_PRE + len] = '\0';
    return m;
}

hub_msg *hub_msg_error(srv_kind kind, const char *detail, const char *game)
{
    /* The detail may quote the client's message cut inside a UTF-8
     * character ("%.40s"); jansson would refuse it and the client would
     * get no answer at all. */
    char clean[512];
    snprintf(clean, sizeof clean, "%s", detail);
    engine_utf8_clean(clean);
    json_t *j = json_pack("{ss si ss ss}", "type", "error", "status",
                          srv_kind_status(kind), "code", srv_kind_name(kind),
                          "detail", clean);
    if (j && game)
        json_object_set_new(j, "game", json_string(game));
    hub_msg *m = j ? hub_msg_json(j, HUB_MSG_REPLY) : NULL;
    json_decref(j);
    return m;
}

hub_msg *hub_msg_ref(hub_msg *m)
{
    atomic_fetch_add(&m->refs, 1);
    return m;
}

void hub_msg_unref(hub_msg *m)
{
    if (m && atomic_fetch_sub(&m->refs, 1) == 1)
        free(m);
}

/* ------------------------------------------------------------- queues -- */

static void queue_clear(hub_conn *c)
{
    while (c->qlen) {
        hub_msg_unref(c->q[c->qhead]);
        c->qhead = (uint16_t)((c->qhead + 1) % c->qcap);
        c->qlen--;
    }
    c->qhead = 0;
    c->nreplies = 0;
}

/* Drop the queued sequence messages, keeping replies in order. */
static void queue_drop_seq(hub_conn *c)
{
    uint16_t kept = 0;
    for (uint16_t i = 0; i < c->qlen; i++) {
        hub_msg *m = c->q[(c->qhead + i) % c->qcap];
        if (m->kind == HUB_MSG_SEQ)
            hub_msg_unref(m);
        else
            c->q[(c->qhead + kept++) % c->qcap] = m;
    }
    c->qlen = kept;
}

static hub_msg *queue_pop(hub_conn *c)
{
    if (!c->qlen)
        return NULL;
    hub_msg *m = c->q[c->qhead];
    c->qhead = (uint16_t)((c->qhead + 1) % c->qcap);
    c->qlen--;
    if (m->kind == HUB_MSG_REPLY)
        c->nreplies--;
    return m;
}

/* Append m (taking a new reference), growing the ring; -1 when out of
 * memory. Under hub.lock. */
int hub_queue_push_locked(hub_conn *c, hub_msg *m)
{
    if (c->qlen == c->qcap) {
        uint16_t cap = c->qcap ? (uint16_t)(c->qcap * 2) : QUEUE_START;
        hub_msg **q = calloc(cap, sizeof(void *)); /* pointers */
        if (!q)
            return -1;
        for (uint16_t i = 0; i < c->qlen; i++)
            q[i] = c->q[(c->qhead + i) % c->qcap];
        free(c->q);
        c->q = q;
        c->qcap = cap;
        c->qhead = 0;
    }
    c->q[(c->qhead + c->qlen) % c->qcap] = hub_msg_ref(m);
    c->qlen++;
    if (m->kind == HUB_MSG_REPLY)
        c->nreplies++;
    return 0;
}

/* Under hub.lock (any thread). Returns 1 when something changed for the
 * writer. Sequence messages are bounded by queue_max: past it the peer is
 * not reading fast enough, so they are all dropped and, once it can take
 * more, it gets fresh snapshots of its games (and the lobby list) instead
 * of a sequence with a hole in it. Replies are never dropped that way (the
 * lws thread stops reading a peer whose replies pile up, and the worker's
 * are bounded by HUB_MAX_JOBS); REPLY_MAX is only a last fence. */
static int enqueue(hub *h, hub_conn *c, hub_msg *m)
{
    if (!c->wsi || !m)
        return 0;
    if (m->kind == HUB_MSG_SEQ) {
        if (c->resync)
            return 0; /* superseded by the snapshots that are due */
        if (c->qlen - c->nreplies >= h->queue_max) {
            queue_drop_seq(c);
            c->resync = 1;
            metrics_count("conclave_ws_resyncs_total",
                          "WebSocket queues that overflowed into snapshots.",
                          1);
            return 1;
        }
    } else if (c->nreplies >= REPLY_MAX) {
        return 0;
    }
    if (hub_queue_push_locked(c, m) != 0) {
        queue_drop_seq(c); /* out of memory: start over with snapshots */
        c->resync = 1;
    }
    return 1;
}

int hub_enqueue_locked(hub *h, hub_conn *c, hub_msg *m)
{
    if (!enqueue(h, c, m) || c->dirty)
        return 0;
    /* Only the first connection on an empty dirty list wakes the lws
     * thread: the wake-up it causes drains the whole list, however many
     * games and connections join it before then. */
    int first = h->dirty == NULL;
    c->dirty = 1;
    c->next_dirty = h->dirty;
    h->dirty = c;
    return first;
}

/* Any thread but the lws thread (which asks for writeable directly). */
void hub_wake(hub *h)
{
    if (h->ctx)
        lws_cancel_service(h->ctx);
}

void hub_send_error(hub *h, hub_conn *c, srv_kind kind, const char *detail,
                    const char *game)
{
    hub_msg *m = hub_msg_error(kind, detail, game);
    pthread_mutex_lock(&h->lock);
    int wake = hub_enqueue_locked(h, c, m);
    pthread_mutex_unlock(&h->lock);
    hub_msg_unref(m);
    if (wake)
        hub_wake(h);
}

/* Under hub.lock. */
static void conn_free(hub_conn *c)
{
    hub_ip *ip = c->ip;
    if (ip && --ip->conns == 0)
        ip->idle_since = hub_now(); /* kept a while: see hub_ips_sweep */
    queue_clear(c);
    free(c->q);
    free(c->rx);
    free(c);
}

void hub_conn_put_locked(hub *h, hub_conn *c)
{
    (void)h;
    if (--c->refs == 0)
        conn_free(c);
}

void hub_ips_sweep_locked(hub *h, int force)
{
    double now = hub_now();
    for (int i = 0; i < 256; i++) {
        hub_ip **link = &h->ips[i];
        while (*link) {
            hub_ip *ip = *link;
            if (ip->conns == 0 &&
                (force || now - ip->idle_since > HUB_IP_KEEP_SECONDS)) {
                *link = ip->next;
                free(ip);
            } else {
                link = &ip->next;
            }
        }
    }
}

/* Queue a reply from the lws thread and ask for a writeable callback. */
static void reply(hub *h, hub_conn *c, struct lws *wsi, hub_msg *m)
{
    pthread_mutex_lock(&h->lock);
    enqueue(h, c, m);
    pthread_mutex_unlock(&h->lock);
    lws_callback_on_writable(wsi);
}

static void reply_error(hub *h, hub_conn *c, struct lws *wsi, srv_kind kind,
                        const char *detail)
{
    hub_msg *m = hub_msg_error(kind, detail, NULL);
    reply(h, c, wsi, m);
    hub_msg_unref(m);
}

/* ------------------------------------------------------ the handshake -- */

static int origin_allowed(hub *h, const char *origin)
{
    const char *list = h->app->cfg->allowed_origins;
    if (!*list) {
        char own[64];
        int port = atomic_load(&h->http_port);
        snprintf(own, sizeof own, "http://localhost:%d", port);
        if (strcmp(origin, own) == 0)
            return 1;
        snprintf(own, sizeof own, "http://127.0.0.1:%d", port);
        return strcmp(origin, own) == 0;
    }
    size_t n = strlen(origin);
    for (const char *p = list; *p;) {
        while (*p == ' ' || *p == ',')
            p++;
        const char *end = p;
        while (*end && *end != ',')
            end++;
        const char *last = end;
        while (last > p && last[-1] == ' ')
            last--;
        if ((size_t)(last - p) == n && strncmp(p, origin, n) == 0)
            return 1;
        if (last - p == 1 && *p == '*')
            return 1;
        p = end;
    }
    return 0;
}

/* The entry of addr (or where it would go). Under hub.lock. */
static hub_ip **ip_slot(hub *h, const char *addr)
{
    unsigned v = 2166136261u;
    for (const char *s = addr; *s; s++)
        v = (v ^ (unsigned char)*s) * 16777619u;
    hub_ip **link = &h->ips[v % 256];
    while (*link && strcmp((*link)->addr, addr) != 0)
        link = &(*link)->next;
    return link;
}

/* lws thread: the client's address of wsi into addr (n bytes): the peer,
 * or behind a trusted proxy the one its X-Forwarded-For names
 * (common/trusted_proxy.h). A header too long for the buffer is not
 * believed. */
static void client_addr(const hub *h, struct lws *wsi, char *addr, size_t n)
{
    char peer[48] = "";
    lws_get_peer_simple(wsi, peer, sizeof peer);
    char xff[1024];
    int len = lws_hdr_total_length(wsi, WSI_TOKEN_X_FORWARDED_FOR);
    if (len <= 0 || len >= (int)sizeof xff ||
        !trusted_proxies_has(&h->app->proxies, peer) ||
        lws_hdr_copy(wsi, xff, sizeof xff, WSI_TOKEN_X_FORWARDED_FOR) <= 0) {
        snprintf(addr, n, "%s", peer);
        return;
    }
    trusted_proxies_client(&h->app->proxies, peer, xff, addr, n);
}

/* lws thread. 0 to accept the upgrade, -1 to refuse it (answered 403). */
static int filter(hub *h, struct lws *wsi)
{
    char buf[512];
    if (lws_hdr_copy(wsi, buf, sizeof buf, WSI_TOKEN_GET_URI) <= 0 ||
        strcmp(buf, "/ws") != 0) {
        log_info("ws_refused", json_pack("{ss}", "reason", "path"));
        return -1;
    }
    int n = lws_hdr_total_length(wsi, WSI_TOKEN_ORIGIN);
    if (n > 0) {
        if (n >= (int)sizeof buf ||
            lws_hdr_copy(wsi, buf, sizeof buf, WSI_TOKEN_ORIGIN) <= 0 ||
            !origin_allowed(h, buf)) {
            log_info("ws_refused", json_pack("{ss}", "reason", "origin"));
            return -1;
        }
    }
    char addr[48] = "";
    client_addr(h, wsi, addr, sizeof addr);
    pthread_mutex_lock(&h->lock);
    hub_ip *ip = *ip_slot(h, addr);
    int full = ip && ip->count >= h->app->cfg->ws_per_ip;
    pthread_mutex_unlock(&h->lock);
    if (full) {
        hub_count_refused_per_ip();
        log_info("ws_refused", json_pack("{ss}", "reason", "per_ip"));
        return -1;
    }
    return 0;
}

/* lws thread: a new connection passed the checks. */
static int established(hub *h, struct lws *wsi, pss *p)
{
    hub_conn *c = calloc(1, sizeof *c);
    if (!c)
        return -1;
    char addr[48] = "";
    client_addr(h, wsi, addr, sizeof addr);
    pthread_mutex_lock(&h->lock);
    hub_ip **slot = ip_slot(h, addr);
    if (!*slot) {
        *slot = calloc(1, sizeof **slot);
        if (!*slot) {
            pthread_mutex_unlock(&h->lock);
            free(c);
            return -1;
        }
        snprintf((*slot)->addr, sizeof(*slot)->addr, "%s", addr);
    }
    (*slot)->count++;
    (*slot)->conns++;
    c->ip = *slot;
    pthread_mutex_unlock(&h->lock);
    c->wsi = wsi;
    c->refs = 1;
    p->c = c;
    /* A bounded kernel buffer: a stalled peer backs up into our bounded
     * queue (and then a resync) instead of megabytes of kernel memory. */
    int sndbuf = SNDBUF;
    setsockopt(lws_get_socket_fd(wsi), SOL_SOCKET, SO_SNDBUF, &sndbuf,
               sizeof sndbuf);
    pthread_mutex_lock(&h->lock);
    long n = ++h->nconns;
    c->all_next = h->all;
    if (h->all)
        h->all->all_prev = c;
    h->all = c;
    pthread_mutex_unlock(&h->lock);
    metrics_gauge("conclave_ws_connections", "Open WebSocket connections.",
                  (double)n);
    return 0;
}

/* lws thread: the connection is gone. Jobs still queued for it keep the
 * hub_conn alive (refs) but see wsi == NULL and send nothing. */
static void closed(hub *h, pss *p)
{
    hub_conn *c = p->c;
    if (!c)
        return;
    p->c = NULL;
    free(c->rx);
    c->rx = NULL;
    pthread_mutex_lock(&h->lock);
    hub_conn_unsubscribe_all_locked(h, c);
    if (c->dirty) {
        hub_conn **link = &h->dirty;
        while (*link && *link != c)
            link = &(*link)->next_dirty;
        if (*link)
            *link = c->next_dirty;
        c->dirty = 0;
    }
    queue_clear(c);
    c->wsi = NULL;
    if (c->ip)
        c->ip->count--;
    if (c->all_prev)
        c->all_prev->all_next = c->all_next;
    else
        h->all = c->all_next;
    if (c->all_next)
        c->all_next->all_prev = c->all_prev;
    c->all_prev = c->all_next = NULL;
    long n = --h->nconns;
    hub_conn_put_locked(h, c);
    pthread_mutex_unlock(&h->lock);
    metrics_gauge("conclave_ws_connections", "Open WebSocket connections.",
                  (double)n);
}

/* ----------------------------------------------------- client messages -- */

/* Every member of o must be one of the NULL-terminated names; otherwise
 * the offending name goes to *bad. */
static int only_fields(json_t *o, const char *const *names, const char **bad)
{
    const char *key;
    json_t *v;
    json_object_foreach(o, key, v)
    {
        int ok = 0;
        for (int i = 0; names[i] && !ok; i++)
            ok = strcmp(key, names[i]) == 0;
        if (!ok) {
            *bad = key;
            return -1;
        }
    }
    return 0;
}

/* Take one from a token bucket of `rate` per second holding at most
 * `burst`. 1 when there was one. lws thread. */
static int bucket_take(double *tokens, double *at, int rate, int burst,
                       double now)
{
    if (*at == 0)
        *tokens = burst; /* a new bucket starts full */
    else
        *tokens += (now - *at) * rate;
    if (*tokens > burst)
        *tokens = burst;
    *at = now;
    if (*tokens < 1)
        return 0;
    *tokens -= 1;
    return 1;
}

/* The rate limits on requests that reach the worker: per connection, per
 * address, and for auth per address. NULL when the request may go on,
 * else why it may not. lws thread. */
static const char *rate_refusal(hub *h, hub_conn *c, hub_job_kind kind)
{
    double now = hub_now();
    if (!bucket_take(&c->rate_tokens, &c->rate_at, h->rate, h->rate_burst, now))
        return "too many requests on this connection; slow down (the "
               "connection is closed if it goes on)";
    hub_ip *ip = c->ip;
    if (ip && !bucket_take(&ip->rate_tokens, &ip->rate_at, h->ip_rate,
                           h->ip_rate_burst, now))
        return "too many requests from your address; slow down";
    if (ip && kind == JOB_AUTH &&
        !bucket_take(&ip->auth_tokens, &ip->auth_at, h->auth_rate,
                     h->auth_burst, now))
        return "too many authentication attempts from your address; wait "
               "a little";
    return NULL;
}

/* lws thread, under no lock. Queue a job for the worker, or answer 429
 * when a rate limit says no (past ws_rate_close refusals, less what drains
 * at ws_rate a second, the connection is marked to close) or this connection
 * has too many requests in flight. */
static void submit(hub *h, hub_conn *c, struct lws *wsi, hub_job_kind kind,
                   const char *arg, int64_t version)
{
    const char *limited = rate_refusal(h, c, kind);
    if (limited) {
        metrics_count("conclave_ws_rate_limited_total",
                      "WebSocket requests refused by a rate limit.", 1);
        /* Strikes drain at the connection's rate: a client a little over
         * it is slowed, one far over it (or for long) is closed. */
        double now = hub_now();
        c->strikes -= (now - c->strikes_at) * h->rate;
        if (c->strikes < 0)
            c->strikes = 0;
        c->strikes_at = now;
        if (++c->strikes >= h->rate_close)
            c->close_due = 1;
        else
            reply_error(h, c, wsi, SRV_TOO_MANY, limited);
        return;
    }
    hub_job *j = calloc(1, sizeof *j);
    if (!j) {
        reply_error(h, c, wsi, SRV_UNAVAILABLE, "the server is out of memory");
        return;
    }
    j->kind = kind;
    j->conn = c;
    j->version = version;
    snprintf(j->arg, sizeof j->arg, "%s", arg ? arg : "");
    const char *refusal = NULL;
    pthread_mutex_lock(&h->lock);
    if (c->jobs >= HUB_MAX_JOBS)
        refusal = "too many requests in flight; wait for the answers";
    if (!refusal) {
        c->jobs++;
        c->refs++;
        hub_job_push_locked(h, j);
        j = NULL;
    }
    pthread_mutex_unlock(&h->lock);
    if (refusal) {
        free(j);
        reply_error(h, c, wsi, SRV_TOO_MANY, refusal);
    }
}

static int valid_id(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n >= STORE_ID_MAX)
        return 0;
    for (; *s; s++)
        if ((unsigned char)*s < 0x21 || *s == '"' || *s == '\\')
            return 0;
    return 1;
}

/* lws thread: one complete client message. Never fails the connection. */
static void handle(hub *h, hub_conn *c, struct lws *wsi, const char *text,
                   size_t len)
{
    json_error_t jerr;
    json_t *msg = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    char detail[256];
    if (!msg) {
        snprintf(detail, sizeof detail,
                 "malformed JSON at character %d: %s; send one JSON object "
                 "per text frame",
                 jerr.position, jerr.text);
        reply_error(h, c, wsi, SRV_MALFORMED, detail);
        return;
    }
    const char *type = json_string_value(json_object_get(msg, "type"));
    const char *bad = NULL;
    if (!json_is_object(msg) || !type) {
        reply_error(h, c, wsi, SRV_MALFORMED,
                    "a message is a JSON object with a string \"type\"");
    } else if (strcmp(type, "ping") == 0) {
        static const char *const names[] = {"type", NULL};
        if (only_fields(msg, names, &bad) == 0)
            reply(h, c, wsi, h->pong);
    } else if (strcmp(type, "auth") == 0) {
        static const char *const names[] = {"type", "token", NULL};
        const char *token = json_string_value(json_object_get(msg, "token"));
        if (only_fields(msg, names, &bad) == 0) {
            if (!token || !*token || strlen(token) >= HUB_TOKEN_MAX)
                reply_error(h, c, wsi, SRV_INVALID,
                            "\"token\" must be the bearer token string from "
                            "POST /api/v1/players or /api/v1/sessions");
            else
                submit(h, c, wsi, JOB_AUTH, token, -1);
        }
    } else if (strcmp(type, "subscribe") == 0 ||
               strcmp(type, "unsubscribe") == 0) {
        int sub = type[0] == 's';
        static const char *const sub_names[] = {"type", "game", "version",
                                                NULL};
        static const char *const unsub_names[] = {"type", "game", NULL};
        const char *game = json_string_value(json_object_get(msg, "game"));
        json_t *version = json_object_get(msg, "version");
        if (only_fields(msg, sub ? sub_names : unsub_names, &bad) != 0) {
            /* answered below */
        } else if (!game || !valid_id(game)) {
            reply_error(h, c, wsi, SRV_INVALID,
                        "\"game\" must be a game id (a string)");
        } else if (version && !json_is_null(version) &&
                   (!json_is_integer(version) ||
                    json_integer_value(version) < 0)) {
            reply_error(h, c, wsi, SRV_INVALID,
                        "\"version\" must be the non-negative version you "
                        "hold, or absent for a snapshot");
        } else {
            submit(h, c, wsi, sub ? JOB_SUBSCRIBE : JOB_UNSUBSCRIBE, game,
                   json_is_integer(version) ? json_integer_value(version) : -1);
        }
    } else if (strcmp(type, "subscribe_lobbies") == 0 ||
               strcmp(type, "subscribe_turns") == 0) {
        static const char *const names[] = {"type", NULL};
        if (only_fields(msg, names, &bad) == 0)
            submit(h, c, wsi, type[10] == 'l' ? JOB_LOBBIES : JOB_TURNS, NULL,
                   -1);
    } else {
        snprintf(detail, sizeof detail,
                 "unknown type \"%.40s\"; expected auth, subscribe, "
                 "unsubscribe, subscribe_lobbies, subscribe_turns or ping",
                 type);
        reply_error(h, c, wsi, SRV_MALFORMED, detail);
    }
    if (bad) {
        snprintf(detail, sizeof detail,
                 "unknown field \"%.40s\" in a \"%.20s\" message", bad, type);
        reply_error(h, c, wsi, SRV_INVALID, detail);
    }
    json_decref(msg);
}

/* lws thread: a piece of a client message arrived. Returns -1 to close
 * (with 1009 when the message is over the limit). */
static int receive(hub *h, hub_conn *c, struct lws *wsi, const void *in,
                   size_t len)
{
    int final = lws_is_final_fragment(wsi);
    if (!c->in_message) {
        c->in_message = 1;
        c->binary = (uint8_t)lws_frame_is_binary(wsi);
        c->rxlen = 0;
    }
    if ((size_t)c->rxlen + len > h->max_message) {
        static const char reason[] = "message too large";
        lws_close_reason(wsi, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE,
                         (unsigned char *)reason, sizeof reason - 1);
        return -1;
    }
    const char *text = in;
    if (!final || c->rxlen) {
        char *rx = realloc(c->rx, c->rxlen + len + 1);
        if (!rx)
            return -1;
        memcpy(rx + c->rxlen, in, len);
        c->rx = rx;
        c->rxlen += (uint32_t)len;
        if (!final)
            return 0;
        text = rx;
        len = c->rxlen;
    }
    c->in_message = 0;
    if (c->close_due)
        return 0; /* closing: the rest is not read */
    if (c->binary)
        reply_error(h, c, wsi, SRV_MALFORMED,
                    "send text frames holding JSON, not binary frames");
    else
        handle(h, c, wsi, text, len);
    free(c->rx);
    c->rx = NULL;
    c->rxlen = 0;
    if (c->close_due == 1) {
        c->close_due = 2;
        static const char reason[] = "request rate limit";
        log_warn("ws_rate_closed",
                 json_pack("{ss}", "address", c->ip ? c->ip->addr : ""));
        metrics_count("conclave_ws_rate_closed_total",
                      "WebSocket connections closed for flooding.", 1);
        lws_close_reason(wsi, LWS_CLOSE_STATUS_POLICY_VIOLATION,
                         (unsigned char *)reason, sizeof reason - 1);
        return -1;
    }
    /* A peer that sends requests faster than it reads the answers: stop
     * reading it until the answers are out (TCP pushes back on it). */
    pthread_mutex_lock(&h->lock);
    int replies = c->nreplies;
    pthread_mutex_unlock(&h->lock);
    if (replies >= REPLY_PAUSE && !c->rx_paused) {
        c->rx_paused = 1;
        lws_rx_flow_control(wsi, 0);
    }
    return 0;
}

/* lws's own opcode for a close frame: lws-write.h keeps the value 4 of
 * enum lws_write_protocol for it ("handled by lws_close_reason"), and
 * lws_write still sends it. */
#define WRITE_CLOSE ((enum lws_write_protocol)4)

/* lws thread, in a writeable callback that then returns -1: send the
 * close frame (code, why) right away, so the peer has it before the socket
 * closes. lws_close_reason from a writeable callback leaves the frame for
 * a later writeable turn, which never comes on the libuv loop (the socket
 * closes without it, and the peer sees 1006). */
static void close_now(struct lws *wsi, int code, const char *why)
{
    /* a control frame's payload is 125 bytes at most: code + 123 */
    unsigned char buf[LWS_PRE + 2 + 124];
    int n = snprintf((char *)buf + LWS_PRE + 2, 124, "%s", why);
    if (n < 0)
        n = 0;
    if (n > 123)
        n = 123;
    buf[LWS_PRE] = (unsigned char)(code >> 8);
    buf[LWS_PRE + 1] = (unsigned char)(code & 0xff);
    lws_write(wsi, buf + LWS_PRE, 2 + (size_t)n, WRITE_CLOSE);
}

/* lws thread: send what c has queued, up to WRITE_BATCH messages while the
 * socket takes them (lws_send_pipe_choked), then ask for another callback
 * if more is left. One writeable callback per connection per wake-up
 * sends its whole batch: a spectator of several busy games is not one
 * trip round the event loop per message. */
static int writeable(hub *h, hub_conn *c, struct lws *wsi)
{
    for (int sent = 0;; sent++) {
        pthread_mutex_lock(&h->lock);
        if (atomic_load(&h->closing) && c->qlen == 0 && !c->resync) {
            pthread_mutex_unlock(&h->lock);
            close_now(wsi, 1012, "server restarting: reconnect");
            return -1;
        }
        if (c->resync) {
            c->resync = 0;
            hub_resync_locked(h, c);
        }
        hub_msg *m = queue_pop(c);
        int more = c->qlen > 0;
        int replies = c->nreplies;
        pthread_mutex_unlock(&h->lock);
        if (c->rx_paused && replies < REPLY_PAUSE / 2) {
            c->rx_paused = 0;
            lws_rx_flow_control(wsi, 1);
        }
        if (!m)
            return 0;
        int n = lws_write(wsi, m->buf + LWS_PRE, m->len, LWS_WRITE_TEXT);
        int ok = n >= (int)m->len;
        hub_msg_unref(m);
        if (!ok)
            return -1;
        metrics_count("conclave_ws_messages_total", "WebSocket messages sent.",
                      1);
        if (!more)
            return 0;
        if (sent + 1 >= WRITE_BATCH || lws_send_pipe_choked(wsi)) {
            lws_callback_on_writable(wsi);
            return 0;
        }
    }
}

/* lws thread: other threads queued messages; ask for writeable callbacks. */
static void drain_dirty(hub *h)
{
    pthread_mutex_lock(&h->lock);
    hub_conn *c = h->dirty;
    h->dirty = NULL;
    while (c) {
        hub_conn *next = c->next_dirty;
        c->dirty = 0;
        c->next_dirty = NULL;
        if (c->wsi)
            lws_callback_on_writable(c->wsi);
        c = next;
    }
    pthread_mutex_unlock(&h->lock);
}

/* lws thread: every libwebsockets event of the conclave.v1 protocol. */
static int callback(struct lws *wsi, enum lws_callback_reasons reason,
                    void *user, void *in, size_t len)
{
    hub *h = lws_context_user(lws_get_context(wsi));
    pss *p = user;
    switch (reason) {
    case LWS_CALLBACK_FILTER_NETWORK_CONNECTION:
        return h && hub_admit_socket(h, (int)(intptr_t)in) == 0 ? 0 : -1;
    case LWS_CALLBACK_WSI_CREATE:
        if (h)
            hub_admit_created(h, wsi);
        return 0;
    case LWS_CALLBACK_WSI_DESTROY:
        if (h)
            hub_admit_destroyed(h, wsi);
        return 0;
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
        if (filter(h, wsi) != 0) {
            lws_return_http_status(wsi, HTTP_STATUS_FORBIDDEN, NULL);
            return -1;
        }
        return 0;
    case LWS_CALLBACK_ESTABLISHED:
        return established(h, wsi, p);
    case LWS_CALLBACK_CLOSED:
        closed(h, p);
        return 0;
    case LWS_CALLBACK_RECEIVE:
        return p->c ? receive(h, p->c, wsi, in, len) : -1;
    case LWS_CALLBACK_SERVER_WRITEABLE:
        return p->c ? writeable(h, p->c, wsi) : 0;
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        if (h)
            drain_dirty(h);
        if (h && atomic_load(&h->closing))
            lws_callback_on_writable_all_protocol(h->ctx,
                                                  lws_get_protocol(wsi));
        if (h && atomic_load(&h->stopping))
            hub_loop_stopping(h);
        return 0;
    default:
        return lws_callback_http_dummy(wsi, reason, user, in, len);
    }
}

static const struct lws_protocols protocols[] = {
    {"conclave.v1", callback, sizeof(pss), RX_BUFFER, 0, NULL, TX_PACKET},
    {NULL, NULL, 0, 0, 0, NULL, 0}};

/* --------------------------------------------------- start and stop --- */

static void lws_log(int level, const char *line)
{
    char msg[256];
    snprintf(msg, sizeof msg, "%s", line);
    size_t n = strlen(msg);
    while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
        msg[--n] = '\0';
    if (hub_admit_log_line(msg))
        return;
    log_emit(level == LLL_ERR ? LOG_ERROR : LOG_WARN, "lws",
             json_pack("{ss}", "message", msg));
}

static void *lws_main(void *arg)
{
    thread_name_set("hub-lws");
    hub *h = arg;
    hub_loop_run(h);
    /* Closes every connection (CLOSED callbacks run here, on this thread). */
    hub_loop_destroy(h);
    return NULL;
}

static int live_set(hub *h, int on)
{
    int ok = 0;
    pthread_rwlock_wrlock(&live_lock);
    for (size_t i = 0; i < LIVE_MAX; i++) {
        if (on && !live_hubs[i]) {
            live_hubs[i] = h;
            ok = 1;
            break;
        }
        if (!on && live_hubs[i] == h)
            live_hubs[i] = NULL;
    }
    pthread_rwlock_unlock(&live_lock);
    return on ? (ok ? 0 : -1) : 0;
}

/* Main thread. */
hub *hub_start(app *a, char *err, size_t errlen)
{
    const config *cfg = a->cfg;
    hub *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    h->app = a;
    h->actors = a->actors;
    h->max_message =
        cfg->ws_max_message > 0 ? (size_t)cfg->ws_max_message : 16384;
    h->queue_max = cfg->ws_queue > 0 ? cfg->ws_queue : HUB_QUEUE_DEFAULT;
    h->rate = cfg->ws_rate > 0 ? cfg->ws_rate : 20;
    h->rate_burst = cfg->ws_rate_burst > 0 ? cfg->ws_rate_burst : 100;
    h->ip_rate = cfg->ws_ip_rate > 0 ? cfg->ws_ip_rate : 200;
    h->ip_rate_burst = cfg->ws_ip_rate_burst > 0 ? cfg->ws_ip_rate_burst : 1000;
    h->auth_rate = cfg->ws_auth_rate > 0 ? cfg->ws_auth_rate : 10;
    h->auth_burst = cfg->ws_auth_burst > 0 ? cfg->ws_auth_burst : 200;
    h->rate_close = cfg->ws_rate_close > 0 ? cfg->ws_rate_close : 100;
    atomic_init(&h->stopping, 0);
    atomic_init(&h->closing, 0);
    atomic_init(&h->http_port, cfg->http_port);
    pthread_mutex_init(&h->lobby_lock, NULL);
    pthread_mutex_init(&h->lock, NULL);
    pthread_cond_init(&h->cv, NULL);
    h->next_sweep = hub_now() + 1;
    json_t *pong = json_pack("{ss}", "type", "pong");
    h->pong = hub_msg_json(pong, HUB_MSG_REPLY);
    json_decref(pong);
    h->lobbies = json_array();
    if (!h->pong || !h->lobbies) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }

    /* Ping after ws_ping_seconds without traffic from the peer; hang up
     * when a pong has not come back a few seconds later. */
    h->retry.secs_since_valid_ping = (uint16_t)cfg->ws_ping_seconds;
    int grace = cfg->ws_ping_seconds / 2 < 2 ? 2 : cfg->ws_ping_seconds / 2;
    h->retry.secs_since_valid_hangup = (uint16_t)(cfg->ws_ping_seconds + grace);

    lws_set_log_level(LLL_ERR | LLL_WARN, lws_log);
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.options =
        LWS_SERVER_OPTION_EXPLICIT_VHOSTS | LWS_SERVER_OPTION_VALIDATE_UTF8;
    info.user = h;
    info.port = CONTEXT_PORT_NO_LISTEN;
    info.protocols = protocols;
    if (hub_loop_prepare(h, &info, err, errlen) != 0)
        goto fail;
    h->ctx = lws_create_context(&info);
    if (!h->ctx && h->loop) {
        /* The plugin (libwebsockets-evlib-uv or -ev) is missing or failed:
         * serve on lws's own loop rather than not at all. */
        log_warn("hub_event_lib_unavailable",
                 json_pack("{ss ss}", "event_lib", hub_loop_name(h), "detail",
                           "libwebsockets could not use it; using poll()"));
        hub_loop_unprepare(h);
        info.options &= ~(LWS_SERVER_OPTION_LIBUV | LWS_SERVER_OPTION_LIBEV |
                          LWS_SERVER_OPTION_UV_NO_SIGSEGV_SIGFPE_SPIN);
        info.foreign_loops = NULL;
        h->ctx = lws_create_context(&info);
    }
    if (!h->ctx) {
        snprintf(err, errlen, "cannot create the WebSocket context");
        goto fail;
    }
    h->ctx_live = h->ctx;
    log_info("hub_event_lib", json_pack("{ss}", "event_lib", hub_loop_name(h)));
    hub_admit_init(h);
    memset(&info, 0, sizeof info);
    info.options = LWS_SERVER_OPTION_VALIDATE_UTF8;
    info.port = cfg->ws_port;
    info.iface =
        strcmp(cfg->bind_address, "0.0.0.0") == 0 || !cfg->bind_address[0]
            ? NULL
            : cfg->bind_address;
    info.protocols = protocols;
    info.vhost_name = "conclave";
    info.retry_and_idle_policy = &h->retry;
    info.timeout_secs = 10;
    info.user = h;
    h->vhost = lws_create_vhost(h->ctx, &info);
    if (!h->vhost) {
        snprintf(err, errlen, "cannot listen for WebSockets on port %d",
                 cfg->ws_port);
        goto fail;
    }
    h->port = lws_get_vhost_listen_port(h->vhost);
    if (live_set(h, 1) != 0) {
        snprintf(err, errlen, "too many hubs in one process");
        goto fail;
    }
    for (int i = 0; i < HUB_WORKERS; i++) {
        if (pthread_create(&h->workers[i], NULL, hub_worker_main, h) != 0) {
            snprintf(err, errlen, "cannot start the hub workers");
            goto fail;
        }
        h->workers_started++;
    }
    if (pthread_create(&h->lws_thread, NULL, lws_main, h) != 0) {
        snprintf(err, errlen, "cannot start the WebSocket thread");
        goto fail;
    }
    h->lws_started = 1;
    return h;
fail:
    hub_stop(h);
    return NULL;
}

int hub_port(const hub *h)
{
    return h ? h->port : 0;
}

void hub_set_http_port(hub *h, int http_port)
{
    if (h)
        atomic_store(&h->http_port, http_port);
}

void hub_close_all(hub *h, double wait_s)
{
    if (!h || !h->lws_started)
        return;
    atomic_store(&h->closing, 1);
    int rounds = (int)(wait_s * 20); /* 50 ms each */
    for (int i = 0; i < rounds; i++) {
        lws_cancel_service(h->ctx); /* asks for writeable callbacks */
        pthread_mutex_lock(&h->lock);
        long open = h->nconns;
        pthread_mutex_unlock(&h->lock);
        if (open == 0)
            break;
        struct timespec ts = {0, 50 * 1000000L};
        nanosleep(&ts, NULL);
    }
}

/* Main thread. Order: no more calls from actor workers, then no more
 * connections (the lws thread closes them as it ends), then the worker,
 * then the games (each unpinned while the actors still exist). */
void hub_stop(hub *h)
{
    if (!h)
        return;
    live_set(h, 0);
    atomic_store(&h->stopping, 1);
    if (h->lws_started) {
        lws_cancel_service(h->ctx);
        pthread_join(h->lws_thread, NULL);
    } else {
        hub_loop_destroy(h); /* no thread: the context (if any) and loop */
    }
    h->ctx = NULL;
    if (h->workers_started) {
        pthread_mutex_lock(&h->lock);
        h->worker_stop = 1;
        pthread_cond_broadcast(&h->cv);
        pthread_mutex_unlock(&h->lock);
        for (int i = 0; i < h->workers_started; i++)
            pthread_join(h->workers[i], NULL);
    }
    pthread_mutex_lock(&h->lock);
    hub_job *j;
    while ((j = hub_job_pop_locked(h)) != NULL) {
        if (j->conn)
            hub_conn_put_locked(h, j->conn);
        free(j);
    }
    pthread_mutex_unlock(&h->lock);
    hub_feed_free(h);
    hub_ips_sweep_locked(h, 1); /* every thread has ended */
    hub_admit_free(h);
    hub_msg_unref(h->pong);
    pthread_mutex_destroy(&h->lock);
    pthread_mutex_destroy(&h->lobby_lock);
    pthread_cond_destroy(&h->cv);
    free(h);
}

/* Actor worker threads: render under the read lock of the live set, so a
 * stopping hub waits for calls in progress and ignores later ones. */
void hub_game_version(void *ctx, const char *game_id, uint64_t version)
{
    hub *h = ctx;
    pthread_rwlock_rdlock(&live_lock);
    int live = 0;
    for (size_t i = 0; i < LIVE_MAX; i++)
        live |= h && live_hubs[i] == h;
    if (live)
        hub_feed_game_version(h, game_id, version);
    pthread_rwlock_unlock(&live_lock);
}

/* Any thread (the LISTEN thread). */
void hub_lobby_changed(hub *h, const char *lobby_id)
{
    if (!h)
        return;
    if (lobby_id && !valid_id(lobby_id))
        return;
    hub_job *j = calloc(1, sizeof *j);
    if (!j)
        return;
    j->kind = lobby_id ? JOB_LOBBY_CHANGED : JOB_LOBBY_RELOAD;
    j->version = -1;
    snprintf(j->arg, sizeof j->arg, "%s", lobby_id ? lobby_id : "");
    pthread_mutex_lock(&h->lock);
    hub_job_push_locked(h, j);
    pthread_mutex_unlock(&h->lock);
}

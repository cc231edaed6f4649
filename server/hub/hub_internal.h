/*
 * hub_internal.h - the WebSocket hub's shared internals: connections and
 * their outgoing queues (hub.c, the libwebsockets side), games and
 * audiences (hub_game_feed.c), the lobby feed (hub_lobby_feed.c), the hub
 * workers (hub_worker.c), the delayed
 * spectators (hub_delay.c) and table talk (hub_chat.c). Not a public
 * interface: only the hub's own files include it.
 *
 * Threads:
 *   - the lws service thread owns the libwebsockets context: it accepts,
 *     reads, parses client messages and writes; it never touches the
 *     database or an actor's lock.
 *   - HUB_WORKERS hub workers run client requests that may block (auth
 *     lookups, subscriptions that load a game, the lobby feed's queries):
 *     each connection's in the order it sent them, at most one request of
 *     an address at a time; the client addresses in turn, and each
 *     address's connections in turn (one request per turn; lobby events
 *     first), so neither one connection's backlog nor one address's many
 *     connections sit in front of another's request. Lobby work is
 *     serialised by hub.lobby_lock. One worker at a time sweeps idle games
 *     and addresses once a second.
 *   - a token revocation (an HTTP thread, or the LISTEN thread for another
 *     process's) drops the seat subscriptions of the sockets that used the
 *     token, under hub.lock (hub_token_revoked).
 *   - actor workers call hub_game_version after each committed version and
 *     render the new views right there, under actors_read.
 *   - the LISTEN thread calls hub_lobby_changed, hub_turns_changed, and
 *     hub_chat_posted (which reads the message from the database before
 *     taking hub.lock).
 *
 * Locks, in the order they nest (outermost first):
 *   hub.lobby_lock (the lobby list; taken by workers holding no other lock)
 *   -> an actor's lock (held by actors_read while its callback runs)
 *     -> hub_game.lock (rendering one game's audiences)
 *       -> hub.lock (everything shared with the lws thread: the game map,
 *          subscriptions, connection queues, the dirty list, the job queue,
 *          the lobby subscribers)
 * The lws thread takes only hub.lock. actors_pin is called with no hub lock
 * held (it takes the actors' map lock, which nests outside actor locks).
 */
#ifndef CONCLAVE_HUB_INTERNAL_H
#define CONCLAVE_HUB_INTERNAL_H

#include "common/errors.h"
#include "server/game/actor.h"
#include "server/hub/hub.h"
#include "server/players/tokens.h"
#include "server/store/store.h"

#include <jansson.h>
#include <libwebsockets.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#define HUB_MAX_SUBS 64       /* game subscriptions per connection */
#define HUB_MAX_JOBS 16       /* requests in flight per connection */
#define HUB_HISTORY 32        /* patches kept per audience for resume */
#define HUB_QUEUE_DEFAULT 128 /* patches etc. queued per connection */
#define HUB_GAME_BUCKETS 1024
#define HUB_GRACE_SECONDS 30 /* a game without subscribers stays this long */
#define HUB_TOKEN_MAX 128
#define HUB_IP_KEEP_SECONDS 60 /* an address's buckets outlive its sockets */
#define HUB_WORKERS                                                            \
    4 /* threads running requests: they mostly wait on the                     \
         database, so a slow one must not hold up others */

/* One outgoing text frame, shared (refcounted) by every connection it is
 * queued on. The text starts LWS_PRE bytes into buf, as lws_write needs. */
typedef enum {
    HUB_MSG_SEQ,  /* part of a sequence (snapshot, patch, lobbies, lobby):
                     superseded by a resync, so dropped while one is due */
    HUB_MSG_REPLY /* pong, error: stands alone */
} hub_msg_kind;

typedef struct hub_msg {
    atomic_int refs;
    hub_msg_kind kind;
    size_t len;
    unsigned char buf[]; /* LWS_PRE + len + 1 (NUL) bytes */
} hub_msg;

/* NULL when out of memory. refs starts at 1. */
hub_msg *hub_msg_json(const json_t *j, hub_msg_kind kind);
/* An error message {"type":"error","status","code","detail","game"?}:
 * status srv_kind_status(kind), code srv_kind_name(kind) (common/errors.h).
 */
hub_msg *hub_msg_error(srv_kind kind, const char *detail, const char *game);
hub_msg *hub_msg_ref(hub_msg *m);
void hub_msg_unref(hub_msg *m);

struct hub_aud;
struct hub_game;

/* hub_aud.seat of the spectators of a game with a spectator delay
 * (server/game/spectate.h, hub_delay.c). */
#define HUB_DELAYED (-2)

/* A patch of the public view a delayed audience has not been sent yet, or
 * a public chat message (ops NULL, from = to = the version it was posted
 * at). */
typedef struct hub_pending {
    uint64_t from, to;
    double at;   /* when version `to` was recorded, or the message posted
                    (hub_now's clock) */
    json_t *ops; /* its operations, applied to the audience's doc */
    hub_msg *m;  /* the patch message, as the public audience has it */
} hub_pending;

/* A connection's subscription to one game, linked into the audience's list
 * and the connection's list. All fields: hub.lock. */
typedef struct hub_sub {
    struct hub_conn *conn;
    struct hub_aud *aud;
    struct hub_sub *aud_prev, *aud_next;
    struct hub_sub *conn_next;
} hub_sub;

/* One WebSocket connection. Allocated at ESTABLISHED; freed when the lws
 * side has closed it and no queued job refers to it (refs). */
typedef struct hub_conn {
    /* hub.lock: */
    struct lws *wsi; /* NULL once closed */
    int refs;        /* 1 while open, +1 per queued job */
    hub_msg **q;     /* ring of queued messages, qcap entries */
    uint16_t qhead, qlen, qcap;
    uint16_t nreplies;   /* HUB_MSG_REPLY messages among them */
    uint16_t nsubs;      /* game subscriptions */
    uint16_t jobs;       /* requests queued for the worker */
    uint8_t resync;      /* queue overflowed: snapshots are due */
    uint8_t dirty;       /* on the hub's dirty list */
    uint8_t lobby_sub;   /* on the lobby feed */
    uint8_t turns_sub;   /* on the inbox feed (hub_turns.c) */
    uint64_t turns_hash; /* of the last "turns" message sent */
    hub_sub *subs;
    struct hub_conn *next_dirty;
    struct hub_conn *lobby_prev, *lobby_next;
    struct hub_conn *all_prev, *all_next; /* every open connection */
    struct hub_job *jhead, *jtail;        /* its requests, in order */
    struct hub_conn *ready_next;          /* its address's turn ring */
    uint8_t ready;                        /* on that ring */
    uint8_t authed;                       /* an auth request succeeded */
    char player_id[STORE_ID_MAX];         /* "" for a spectator */
    char token_hash[TOKENS_HASH_HEX];     /* of the token it authed with */
    /* lws thread only: */
    double rate_tokens, rate_at; /* request bucket (ws_rate) */
    double strikes, strikes_at;  /* refusals, draining at ws_rate/s */
    uint8_t close_due;           /* 1: close after this message; 2: closing */
    uint8_t in_message;          /* fragments of a message are arriving */
    uint8_t rx_paused;           /* reading stopped until replies drain */
    uint8_t binary;
    uint32_t rxlen;
    char *rx;          /* reassembly buffer, NULL between messages */
    struct hub_ip *ip; /* set once at ESTABLISHED */
} hub_conn;

/* What one audience (a seat, the public, or the delayed spectators) of one
 * game has been sent. */
typedef struct hub_aud {
    struct hub_game *game;
    int seat;    /* a seat, ENGINE_PUBLIC, or HUB_DELAYED */
    json_t *doc; /* hub_game.lock: {"view","windows"} at version */
    /* hub.lock: */
    uint64_t version; /* of doc and snap */
    hub_msg *snap;    /* the snapshot message at version */
    struct {
        uint64_t from, to;
        hub_msg *m;
    } hist[HUB_HISTORY]; /* ring: the last patches, oldest at hhead */
    int hhead, hlen;
    hub_sub *subs;
    struct hub_aud *next; /* added under both locks; read under either */
    /* hub_game.lock, HUB_DELAYED only: patches not yet due, oldest first */
    hub_pending *pend;
    size_t npend, cappend;
} hub_aud;

/* A game this process has (or recently had) subscribers for. */
typedef struct hub_game {
    char id[STORE_ID_MAX];
    pthread_mutex_t lock; /* serializes rendering of the audiences */
    /* hub.lock: */
    int refs;          /* threads using it outside hub.lock */
    int nsubs;         /* subscriptions over all audiences */
    double idle_since; /* when nsubs last became 0 */
    hub_aud *auds;
    struct hub_game *next; /* map bucket chain */
    /* lock (and hub.lock to set delayed): the spectator delay */
    int delay_versions, delay_seconds, is_delayed;
    uint64_t live;    /* the latest version rendered */
    int over;         /* the game is over at live */
    hub_aud *delayed; /* the HUB_DELAYED audience, once made */
    /* hub.lock: */
    int pinned; /* holds an actors_pin */
} hub_game;

typedef enum {
    JOB_AUTH,
    JOB_SUBSCRIBE,
    JOB_UNSUBSCRIBE,
    JOB_LOBBIES,       /* subscribe_lobbies */
    JOB_LOBBY_CHANGED, /* arg: the lobby id */
    JOB_LOBBY_RELOAD,  /* the LISTEN connection came back */
    JOB_TURNS,         /* subscribe_turns */
    JOB_TURNS_CHANGED  /* arg: a game that committed a version */
} hub_job_kind;

typedef struct hub_job {
    struct hub_job *next;
    hub_job_kind kind;
    hub_conn *conn;          /* holds a reference; NULL for lobby events */
    int64_t version;         /* subscribe: the version held, or -1 */
    char arg[HUB_TOKEN_MAX]; /* token, game id or lobby id */
} hub_job;

/* One client address: the per-IP cap, its rate buckets, and its turn at
 * the hub workers (each address in turn, then each of its connections in
 * turn). Lives while a hub_conn refers to it and HUB_IP_KEEP_SECONDS more,
 * so closing and reopening connections does not refill its buckets. */
typedef struct hub_ip {
    /* hub.lock: */
    struct hub_ip *next; /* the hub's table */
    int count;           /* open connections */
    int conns;           /* hub_conns referring to it (open or not) */
    double idle_since;   /* when conns last became 0 */
    struct hub_conn *ready_head, *ready_tail; /* its conns with requests */
    struct hub_ip *ready_next;                /* the worker's turn ring */
    uint8_t ready;                            /* on the turn ring */
    uint8_t busy; /* a worker runs one of its requests */
    /* lws thread only: */
    double rate_tokens, rate_at; /* request bucket (ws_ip_rate) */
    double auth_tokens, auth_at; /* auth bucket (ws_auth_rate) */
    char addr[48];
} hub_ip;

typedef enum { HUB_LOOP_POLL, HUB_LOOP_UV, HUB_LOOP_EV } hub_loop_kind;

/* hub_admit.c: the sockets admitted on the WebSocket port (lws thread). */
#define HUB_PEER_BUCKETS 256
#define HUB_ADMIT_WSI_BUCKETS 4096
typedef struct hub_peer hub_peer;
typedef struct hub_admitted hub_admitted;
typedef struct hub_admit {
    long max;     /* the global cap: the app's fds.ws_max */
    int per_peer; /* cfg ws_per_ip, for peers that are not trusted proxies */
    long open;    /* sockets admitted and their wsi not yet destroyed */
    hub_peer *pending; /* admitted, its wsi not yet created */
    hub_peer *peers[HUB_PEER_BUCKETS];
    hub_admitted *by_wsi[HUB_ADMIT_WSI_BUCKETS]; /* each admitted wsi */
} hub_admit;

struct hub {
    app *app;
    actors *actors;
    struct lws_context *ctx;
    struct lws_vhost *vhost;
    lws_retry_bo_t retry;
    pthread_t lws_thread, workers[HUB_WORKERS];
    int lws_started, workers_started;
    atomic_int stopping;
    atomic_int closing;   /* hub_close_all: every connection is closed with
                             1012 once its queued messages are sent */
    atomic_int http_port; /* for the default allowed origins */
    int port;
    int queue_max; /* messages queued per connection */
    /* request rate limits (config ws_rate...; defaults when unset) */
    int rate, rate_burst, ip_rate, ip_rate_burst, auth_rate, auth_burst;
    int rate_close;
    size_t max_message;

    pthread_mutex_t lobby_lock; /* outermost: the lobby list below */
    pthread_mutex_t lock;
    pthread_cond_t cv;                 /* the workers wait on it for jobs */
    double next_sweep;                 /* lock: when a worker sweeps next */
    int worker_stop;                   /* lock */
    hub_game *games[HUB_GAME_BUCKETS]; /* lock */
    hub_conn *dirty;                   /* lock: connections with new messages */
    hub_job *jobs_head, *jobs_tail;    /* lock: lobby events (no conn) */
    hub_ip *ready_head, *ready_tail;   /* lock: addresses with requests */
    hub_conn *all;                     /* lock: every open connection */
    long ngames;                       /* lock: entries in games */
    hub_conn *lobby_subs;              /* lock */
    int nlobby_subs;                   /* lock */
    int nturns_subs;                   /* lock: conns with turns_sub */
    hub_msg *lobbies_msg;              /* lock: the current "lobbies" message */
    hub_msg *pong;                     /* constant */
    long nconns;                       /* lock */

    /* lobby_lock: */
    json_t *lobbies; /* the open public lobbies, newest first */
    int lobbies_loaded;
    int lobbies_reload_due; /* a change could not be loaded: reload */
    char lobbies_since[64]; /* lobby_released's mark (server/lobby/lobby.h) */

    hub_ip *ips[256]; /* lock */
    hub_admit admit;  /* lws thread */

    /* hub_loop.c: the loop the context runs on (a uv_loop_t or an ev_loop;
     * NULL for lws's own poll() loop); foreign is lws's argument for it. */
    hub_loop_kind loop_kind;
    void *loop;
    void *foreign[1];
    /* the context until lws has wholly destroyed it (it then writes NULL
     * here: info.pcontext); on a foreign loop that takes a second call */
    struct lws_context *ctx_live;
};

/* ---- hub_admit.c: sockets kept or refused at accept, called by hub.c ---- */

void hub_admit_init(hub *h);
void hub_admit_free(hub *h);
/* lws thread, for LWS_CALLBACK_FILTER_NETWORK_CONNECTION: 0 keeps the
 * accepted descriptor fd, -1 refuses it (lws closes it at once). */
int hub_admit_socket(hub *h, int fd);
/* lws thread, for LWS_CALLBACK_WSI_CREATE and LWS_CALLBACK_WSI_DESTROY:
 * the wsi lws makes for the socket just admitted is remembered with its
 * peer until it is destroyed (its socket closed). */
void hub_admit_created(hub *h, struct lws *wsi);
void hub_admit_destroyed(hub *h, struct lws *wsi);
/* Count one connection refused for its address
 * (conclave_ws_refused_per_ip_total). */
void hub_count_refused_per_ip(void);
/* Any thread, for lws's log lines: 1 when msg is an accept error, counted
 * and logged at most every few seconds (the caller logs nothing more), 0
 * for any other line. */
int hub_admit_log_line(const char *msg);

/* ---- hub_loop.c: the event loop, called by hub.c ---- */

/* Set info up for the loop CONCLAVE_WS_EVENT_LIB names ("uv" or "ev"
 * make h->loop; "poll", the default, leaves info alone). Main thread,
 * before lws_create_context. -1 with err for an unknown name or a loop
 * that cannot be made. */
int hub_loop_prepare(hub *h, struct lws_context_creation_info *info, char *err,
                     size_t errlen);
/* Free the loop hub_loop_prepare made, if any (the context failed or is
 * destroyed). */
void hub_loop_unprepare(hub *h);
/* "uv" or "poll": the loop in use. */
const char *hub_loop_name(const hub *h);
/* The lws thread's body: serve until h->stopping. */
void hub_loop_run(hub *h);
/* lws thread, inside a callback once h->stopping is set: make
 * hub_loop_run return. */
void hub_loop_stopping(hub *h);
/* Destroy h->ctx (closing every connection; CLOSED callbacks run on the
 * calling thread) and then the loop. The lws thread after hub_loop_run,
 * or the main thread when that thread never started. */
void hub_loop_destroy(hub *h);

/* ---- hub.c, called by the feeds and the worker ---- */

/* Queue m on c (takes a new reference); under hub.lock. Returns 1 when the
 * lws thread must be woken: c joined an empty dirty list (a list that
 * already had members has a wake-up on its way, which drains it all). */
int hub_enqueue_locked(hub *h, hub_conn *c, hub_msg *m);
/* Append m to c's queue ignoring the cap (resync snapshots); under
 * hub.lock. -1 when out of memory. */
int hub_queue_push_locked(hub_conn *c, hub_msg *m);
/* Wake the lws thread after enqueue_locked said so; no lock needed. */
void hub_wake(hub *h);
/* Drop a job's reference on c; under hub.lock. */
void hub_conn_put_locked(hub *h, hub_conn *c);
/* Free the addresses without connections for HUB_IP_KEEP_SECONDS (all
 * of them with force). Under hub.lock (a hub worker's sweep; hub_stop). */
void hub_ips_sweep_locked(hub *h, int force);
/* Send an error to c from any thread (takes hub.lock). */
void hub_send_error(hub *h, hub_conn *c, srv_kind kind, const char *detail,
                    const char *game);

/* ---- hub_game_feed.c, called by hub_delay.c ---- */

/* The snapshot message of game_id at version for doc {"view","windows"};
 * NULL when out of memory. */
hub_msg *hub_snapshot_msg(const char *game_id, uint64_t version,
                          const json_t *doc);
/* Keep patch (from a->version to `to`) in a's history, taking the caller's
 * reference, and queue it on each subscriber. Under hub.lock. Returns 1
 * when the lws thread must be woken. */
int hub_aud_publish_locked(hub *h, hub_aud *a, uint64_t to, hub_msg *patch);

/* The entry for game id, or NULL; no reference taken, so use it only
 * while holding hub.lock. */
hub_game *hub_game_find_locked(hub *h, const char *id);
/* ---- hub_turns.c: the inbox feed ---- */

/* A subscribe_turns request (hub worker). */
void hub_turns_subscribe(hub *h, hub_job *j);
/* Send the changed inbox to the feed's players seated in game_id (hub
 * worker, no lock held). */
void hub_turns_game_changed(hub *h, const char *game_id);

/* ---- hub_delay.c: the delayed spectators ---- */

/* The delayed audience of g, made and brought to the version spectators
 * may see (replaying the game from the store) if need be. Hub worker,
 * under g->lock inside actors_read (v). NULL on failure. */
hub_aud *hub_delay_audience(hub *h, hub_game *g, const actor_view *v);
/* Queue the public audience's patch from..to (ops and m borrowed; each
 * gets a reference) for the delayed audience d. Under g->lock. -1 when
 * out of memory. */
int hub_delay_push(hub_game *g, hub_aud *d, uint64_t from, uint64_t to,
                   json_t *ops, hub_msg *m);
/* Queue the public chat message m (borrowed; it gets a reference), posted
 * at version, age seconds ago, for the delayed audience d; it is sent with
 * the patches, in order, once due by the same rule. Under g->lock. -1 when
 * out of memory. */
int hub_delay_push_chat(hub_aud *d, uint64_t version, double age, hub_msg *m);
/* Send d the patches and chat messages that are due. Under g->lock. Returns 1
 * when the lws thread must be woken. */
int hub_delay_release(hub *h, hub_game *g, hub_aud *d);
/* Release what is due in every game (hub worker, no lock held). */
void hub_delay_tick(hub *h);
/* Free d's pending patches (game_free). */
void hub_delay_clear(hub_aud *d);

/* ---- hub_worker.c ---- */

/* The worker thread's body (hub.c starts HUB_WORKERS of them). */
void *hub_worker_main(void *arg);

/* ---- hub_game_feed.c ---- */

/* The requests the worker runs for a connection: authenticate it
 * ({"type":"auth"}), subscribe it to a game, unsubscribe it. */
void hub_job_auth(hub *h, hub_job *j);
void hub_job_subscribe(hub *h, hub_job *j);
void hub_job_unsubscribe(hub *h, hub_job *j);
/* Free a game the hub no longer follows, with its audiences (the sweep). */
void hub_game_free(hub_game *g);
/* Remove every subscription of c (it closed); under hub.lock. */
void hub_conn_unsubscribe_all_locked(hub *h, hub_conn *c);
/* Queue the current snapshot of each of c's games and the lobby list
 * (after its queue overflowed); under hub.lock. */
void hub_resync_locked(hub *h, hub_conn *c);
/* Render and send game_id's new version (actor worker threads). */
void hub_feed_game_version(hub *h, const char *game_id, uint64_t version);
/* Free every game, audience and lobby (hub_stop, after the threads;
 * hub_worker.c). */
void hub_feed_free(hub *h);

/* ---- hub_lobby_feed.c, on the worker under hub.lobby_lock ---- */

/* Subscribe j's connection to the lobby feed, loading the list first. */
void hub_lobbies_subscribe(hub *h, hub_job *j);
/* Lobby id changed: send it to the lobby subscribers (or the whole list
 * again when it left it). */
void hub_lobby_feed_changed(hub *h, const char *id);
/* Read the list again after a database failure and send it whole. */
void hub_lobbies_reload(hub *h);
/* Once a second (the sweep): announce the rematch lobbies held back by a
 * spectator delay whose hold has ended (lobby_released), as changes. */
void hub_lobbies_released(hub *h);
/* Queue a job (takes ownership): on its connection's list (the
 * connection joins the turn ring) or, without one, on the lobby event
 * queue; wakes the worker. Under hub.lock. */
void hub_job_push_locked(hub *h, hub_job *j);
/* The next job to run (lobby events first, then one request of the next
 * address in turn, from its next connection in turn), or NULL. The
 * address is busy (no other worker takes its requests) until
 * hub_job_done_locked. Under hub.lock. */
hub_job *hub_job_pop_locked(hub *h);
/* The request of c's address that a worker ran is done: the address may
 * take its next turn. Under hub.lock. */
void hub_job_done_locked(hub *h, hub_conn *c);
double hub_now(void);
#endif

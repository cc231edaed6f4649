/*
 * actor.c - game actors: mailboxes, the worker pool, loading, the apply
 * path, catching up with other processes, bots, eviction (see actor.h).
 *
 * Locking: A->map_lock guards the hash map, actor refs and A->count;
 * A->run_lock guards the run queue and `stopping`; a->lock guards the
 * actor's mailbox and `scheduled`; a->state (a read-write lock that prefers
 * writers) guards what readers see: game, meta, version, deadlines, loaded.
 * Only the worker that holds an actor's `scheduled` token changes its
 * state, so it reads the game without a lock and takes a->state for writing
 * only to change it. Lock order: map_lock, then a->lock, then run_lock;
 * a->state is taken on its own (nothing else is locked while it is held
 * but the metrics and the log), so a mailbox never waits for a commit.
 *
 * Two copies of each game: a->game is the committed state readers see
 * (under a->state); a->work is the worker's, which only the worker touches
 * and which runs one input ahead while a commit is in flight. Each
 * committed input is applied to both: applying an input is cheap, copying
 * a big game is not (docs/performance.md), and readers then wait only for
 * that second apply, never for the database.
 *
 * The commit path (apply_input and the steps it calls):
 *  1. refuse_early: a game that is over, a stale If-Match; refuse_over_cap:
 *     a seat past its order changes in the window (server/game/order_cap.h).
 *  2. prepare_input: the player's input, or the bot's chosen move (chosen
 *     on a->work).
 *  3. apply_to_work: engine_apply on a->work, no lock, no copy. A refused
 *     input leaves it unchanged (the engine's contract), so there is
 *     nothing to undo; if the store had moved on (another process) the
 *     actor catches up and validates once more. ENGINE_EINTERNAL may leave
 *     it half-applied: it is restored from a->game.
 *  4. commit_work: hand the append (expected version; windows, end of
 *     game and hash come from a->work) to the group commit
 *     (server/store/commit.h) and wait: a writer commits it in one transaction
 *     with the appends of other games queued meanwhile, and answers it
 *     only after that commit (a stale version refuses this append alone).
 *     Then the same input is applied to a->game under the write lock and
 *     the version moves on: readers see the new state only once the store
 *     has it.
 *  5. after_commit (the writer's pipeline has sent the batch's NOTIFY
 *     behind its COMMIT, in a transaction of its own, so the notify lock
 *     does not serialise commits): deadlines, the answer, a snapshot every
 *     N versions, the listener (the hub), bot moves.
 *  6. A failed commit (version conflict, database error) leaves a->work
 *     holding an input the store refused: it is restored from a->game, the
 *     last committed form, which readers saw all along. On a conflict the
 *     actor then catches up from the store and validates the input again
 *     (ATTEMPTS times at most), so it is never applied twice; on a
 *     database error the caller gets 503.
 */
#include "server/game/actor.h"

#include "server/game/clock.h"
#include "server/game/clock_ops.h"
#include "server/game/order_cap.h"
#include "server/notify/notify_listened.h"
#include "server/runtime/log.h"
#include "server/runtime/metrics.h"
#include "server/runtime/thread_name.h"
#include "server/store/commit.h"
#include "server/store/db.h"

#include <openssl/rand.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAP_BUCKETS 4096
#define BATCH 16   /* messages per turn before an actor yields */
#define ATTEMPTS 5 /* catch-up retries on version conflicts */
#define DB_WAIT_MS 2000
#define UNKNOWN_SLOTS 4096   /* ids the store did not have, remembered */
#define UNKNOWN_SECONDS 30.0 /* for this long */

typedef enum {
    MSG_INPUT,
    MSG_BOT,
    MSG_CATCHUP,
    MSG_LOAD,
    MSG_DEADLINES /* the deadline rows changed outside an input */
} msg_kind;

typedef struct waiter {
    pthread_mutex_t m;
    pthread_cond_t cv;
    int done;
    actor_reply *reply;
} waiter;

typedef struct msg {
    struct msg *next;
    msg_kind kind;
    actor_request rq;   /* payload owned by the message */
    waiter *w;          /* NULL: nobody waits */
    actor_done_fn done; /* actors_submit_async: told the answer, or NULL */
    void *done_ctx;
    actor_reply reply; /* the answer given to done */
} msg;

typedef struct actor {
    char id[STORE_ID_MAX];
    pthread_mutex_t lock; /* mailbox and `scheduled` */
    msg *head, *tail;
    int scheduled;
    int refs;               /* map_lock */
    int pins;               /* map_lock: subscribers here; pinned games stay */
    int gone;               /* map_lock: the store has no such game */
    pthread_rwlock_t state; /* loaded, game, meta, version, deadlines */
    int loaded;        /* 0 not yet (or dropped), 1 loaded, -1 no such game */
    engine_game *game; /* committed: what readers see */
    store_game meta;
    uint64_t version;
    json_t *deadlines;
    double last_used;
    engine_game *work;  /* the worker's copy (no lock): see the top */
    engine_rng bot_rng; /* bots' choices; not part of any game state */
    order_cap ocap;     /* order changes per seat and window (worker) */
    char *waits;        /* worker: the turns_waiting rows last synced
                           (clock_waiting_text), NULL: unknown */
    _Atomic uint64_t committing; /* the version this process's commit in
                                    flight makes, 0: none (the listener's
                                    NOTIFY of it needs no catch-up) */
    struct actor *next_run;      /* run_lock */
    struct actor *next_map;      /* map_lock */
} actor;

typedef struct unknown_id {
    char id[STORE_ID_MAX];
    double expires;
} unknown_id;

struct actors {
    app *app;
    pthread_mutex_t map_lock;
    actor *buckets[MAP_BUCKETS];
    int count;
    /* map_lock: a bounded negative cache of ids the store did not have
     * (one slot per id hash, the newest wins), so a flood of made-up ids
     * neither holds map entries nor asks the store twice for one id. */
    unknown_id unknown[UNKNOWN_SLOTS];
    pthread_mutex_t run_lock;
    pthread_cond_t run_cv;
    actor *run_head, *run_tail;
    int stopping;
    pthread_t *workers;
    int nworkers;
    committer *commit;          /* the group commit (server/store/commit.h) */
    actor_listener_fn listener; /* set before traffic starts */
    void *listener_ctx;
    actor_load_hook_fn load_hook; /* tests only: pauses loads */
    void *load_hook_ctx;
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static unsigned hash_id(const char *s)
{
    unsigned h = 2166136261u;
    while (*s)
        h = (h ^ (unsigned char)*s++) * 16777619u;
    return h % MAP_BUCKETS;
}

/* ------------------------------------------------------------ the map -- */

/* Under map_lock. The gauge is a leaf lock. */
static void count_changed(actors *A, int delta)
{
    A->count += delta;
    metrics_gauge("conclave_games_in_memory", "Games held in memory.",
                  A->count);
}

/* The negative-cache slot of id. Under map_lock. */
static unknown_id *unknown_slot(actors *A, const char *id)
{
    return &A->unknown[(hash_id(id) * 2654435761u) % UNKNOWN_SLOTS];
}

/* Under map_lock. */
static int unknown_has(actors *A, const char *id, double now)
{
    const unknown_id *u = unknown_slot(A, id);
    return u->expires > now && strcmp(u->id, id) == 0;
}

static actor *actor_new(const char *id)
{
    actor *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    snprintf(a->id, sizeof a->id, "%s", id);
    pthread_mutex_init(&a->lock, NULL);
    pthread_rwlockattr_t at;
    pthread_rwlockattr_init(&at);
    /* A commit must not starve behind a stream of readers. */
    pthread_rwlockattr_setkind_np(&at,
                                  PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
    pthread_rwlock_init(&a->state, &at);
    pthread_rwlockattr_destroy(&at);
    uint8_t key[32];
    if (RAND_bytes(key, sizeof key) != 1)
        abort();
    engine_rng_init(&a->bot_rng, key, 0);
    order_cap_init(&a->ocap);
    return a;
}

/* The actor for id with a reference, made if need be. NULL (no entry is
 * made) when the store recently said there is no such game, or out of
 * memory. */
static actor *actor_get(actors *A, const char *id)
{
    if (strlen(id) >= STORE_ID_MAX)
        return NULL;
    unsigned h = hash_id(id);
    double now = now_s();
    pthread_mutex_lock(&A->map_lock);
    actor *a = A->buckets[h];
    while (a && strcmp(a->id, id) != 0)
        a = a->next_map;
    if (a && a->gone)
        a = NULL; /* on its way out: dropped once unreferenced */
    else if (!a && !unknown_has(A, id, now) && (a = actor_new(id)) != NULL) {
        a->next_map = A->buckets[h];
        A->buckets[h] = a;
        count_changed(A, 1);
    }
    if (a) {
        a->refs++;
        a->last_used = now;
    }
    pthread_mutex_unlock(&A->map_lock);
    return a;
}

/* The store has no game a->id (the worker found out): remember the id and
 * let the entry go as soon as nobody holds it. */
static void actor_mark_gone(actors *A, actor *a)
{
    pthread_mutex_lock(&A->map_lock);
    a->gone = 1;
    unknown_id *u = unknown_slot(A, a->id);
    snprintf(u->id, sizeof u->id, "%s", a->id);
    u->expires = now_s() + UNKNOWN_SECONDS;
    pthread_mutex_unlock(&A->map_lock);
    metrics_count("conclave_unknown_game_ids_total",
                  "Game ids asked for that the store did not have.", 1);
}

static void actor_free(actor *a);

/* Unlink and free a if it is gone and nobody holds, pins or runs it.
 * Under map_lock (a->lock nests inside it). Returns 1 when freed. */
static int drop_if_gone_locked(actors *A, actor *a)
{
    if (!a->gone || a->refs != 0 || a->pins != 0)
        return 0;
    pthread_mutex_lock(&a->lock);
    int idle = !a->scheduled && !a->head;
    pthread_mutex_unlock(&a->lock);
    if (!idle)
        return 0;
    actor **link = &A->buckets[hash_id(a->id)];
    while (*link && *link != a)
        link = &(*link)->next_map;
    if (!*link)
        return 0;
    *link = a->next_map;
    count_changed(A, -1);
    actor_free(a);
    return 1;
}

/* Drop a reference taken by actor_get. The drop after each message keeps
 * the entry even when it is gone, since the worker still touches the
 * actor; readers, senders and the worker at the end of its turn, who are
 * done with it, pass drop = 1 so a gone entry leaves at once. */
static void actor_release(actors *A, actor *a, int drop)
{
    pthread_mutex_lock(&A->map_lock);
    a->refs--;
    a->last_used = now_s();
    if (drop)
        drop_if_gone_locked(A, a);
    pthread_mutex_unlock(&A->map_lock);
}

static void actor_put(actors *A, actor *a)
{
    actor_release(A, a, 0);
}

static void msg_free(msg *m)
{
    json_decref(m->rq.payload);
    free(m);
}

static void reply_set(actor_reply *r, srv_kind kind, const char *field,
                      const char *detail);

/* Give an asynchronous message's caller its answer (done owns its stored
 * and parts from here on). */
static void msg_answer(msg *m)
{
    if (m->done)
        m->done(m->done_ctx, &m->reply);
}

static void actor_free(actor *a)
{
    while (a->head) {
        msg *m = a->head;
        a->head = m->next;
        if (m->done) { /* never left unanswered: its caller waits */
            reply_set(&m->reply, SRV_UNAVAILABLE, NULL,
                      "the server is stopping; retry shortly");
            msg_answer(m);
        }
        msg_free(m);
    }
    engine_free(a->game);
    engine_free(a->work);
    store_game_clear(&a->meta);
    json_decref(a->deadlines);
    free(a->waits);
    pthread_mutex_destroy(&a->lock);
    pthread_rwlock_destroy(&a->state);
    free(a);
}

/* ------------------------------------------------------ the run queue -- */

static void run_push(actors *A, actor *a)
{
    pthread_mutex_lock(&A->run_lock);
    a->next_run = NULL;
    if (A->run_tail)
        A->run_tail->next_run = a;
    else
        A->run_head = a;
    A->run_tail = a;
    pthread_cond_signal(&A->run_cv);
    pthread_mutex_unlock(&A->run_lock);
}

/* Append m to a's mailbox and make sure a worker will run it. The message
 * holds a reference on the actor, dropped after it is processed. */
static void enqueue(actors *A, actor *a, msg *m)
{
    pthread_mutex_lock(&a->lock);
    m->next = NULL;
    if (a->tail)
        a->tail->next = m;
    else
        a->head = m;
    a->tail = m;
    int schedule = !a->scheduled;
    a->scheduled = 1;
    pthread_mutex_unlock(&a->lock);
    if (schedule)
        run_push(A, a);
}

/* ------------------------------------------------------------ replies -- */

static void reply_set(actor_reply *r, srv_kind kind, const char *field,
                      const char *detail)
{
    r->kind = kind;
    snprintf(r->field, sizeof r->field, "%s", field ? field : "");
    snprintf(r->detail, sizeof r->detail, "%s", detail ? detail : "");
}

static srv_kind engine_status(int code)
{
    switch (code) {
    case ENGINE_EINVALID:
        return SRV_INVALID;
    case ENGINE_ECONFLICT:
    case ENGINE_EOVER:
        return SRV_CONFLICT;
    case ENGINE_EFORBIDDEN:
        return SRV_FORBIDDEN;
    case ENGINE_ENOTFOUND:
        return SRV_NOT_FOUND;
    default:
        return SRV_INTERNAL;
    }
}

/* ------------------------------------------------------------ windows -- */

/* Every open window of g (engine_windows_all). Returns the count, or -1
 * when memory ran out (then *w is NULL). */
static int open_windows(const engine_game *g, engine_window **w)
{
    int n;
    *w = engine_windows_all(g, &n);
    if (!*w && engine_windows(g, NULL, 0) > 0)
        return -1;
    return n;
}

/* The seats some open window still waits on (a bitmask). */
static uint32_t waiting_seats(const engine_game *g)
{
    engine_window *w;
    int n = open_windows(g, &w);
    uint32_t waiting = 0;
    for (int i = 0; i < n; i++)
        waiting |= w[i].seats & ~w[i].submitted;
    free(w);
    return waiting;
}

/* ----------------------------------------------------------- loading -- */

static void to_engine_input(const store_input *s, engine_input *e)
{
    memset(e, 0, sizeof *e);
    e->seat = s->seat;
    e->kind = s->kind;
    e->window = s->window[0] ? s->window : NULL;
    e->payload = s->payload;
    if (s->has_nonce)
        memcpy(e->nonce, s->nonce, ENGINE_NONCE_BYTES);
}

/* Apply stored inputs to g in order; -1 if one is refused (corruption). */
static int apply_stored(engine_game *g, const store_input *in, size_t n,
                        uint64_t *version)
{
    for (size_t i = 0; i < n; i++) {
        if (in[i].seq != *version + 1)
            return -1;
        engine_input e;
        engine_error err = {0};
        to_engine_input(&in[i], &e);
        if (engine_apply(g, &e, NULL, &err) != 0) {
            log_error("replay_refused",
                      json_pack("{sI ss}", "seq", (json_int_t)in[i].seq,
                                "error", err.msg));
            return -1;
        }
        *version = in[i].seq;
    }
    return 0;
}

static void refresh_deadlines(actor *a, PGconn *c)
{
    json_t *d = NULL;
    if (strcmp(a->meta.clock_mode, "none") == 0)
        d = json_object();
    else if (store_load_deadlines(c, a->id, &d) != STORE_OK)
        return;
    pthread_rwlock_wrlock(&a->state);
    json_decref(a->deadlines);
    a->deadlines = d;
    pthread_rwlock_unlock(&a->state);
}

/* Drop the game from memory; it is rebuilt from the store on next use.
 * Called with a->state held for writing. */
static void forget_game(actor *a)
{
    engine_free(a->game);
    a->game = NULL;
    engine_free(a->work);
    a->work = NULL;
    store_game_clear(&a->meta);
    free(a->waits);
    a->waits = NULL;
    a->loaded = 0;
}

/* Per-window seconds of the game's clock for w[0..n): NEW, or NULL. */
static int *window_seconds(const store_game *meta, const engine_window *w,
                           int n)
{
    int *secs = calloc((size_t)(n > 0 ? n : 1), sizeof *secs);
    for (int i = 0; secs && i < n; i++)
        secs[i] = clock_window_seconds(meta, &w[i]);
    return secs;
}

/* A game just loaded: its deadlines (when clocked) and its inbox rows
 * match its open windows. */
static void sync_clock_on_load(actor *a, PGconn *c, const engine_game *g)
{
    engine_window *w;
    int nw = open_windows(g, &w);
    if (nw < 0) /* out of memory: keep the rows as they are */
        return;
    if (strcmp(a->meta.clock_mode, "none") != 0) {
        int *secs = window_seconds(&a->meta, w, nw);
        char *rules = json_dumps(a->meta.clock_rules, JSON_COMPACT);
        if (secs)
            store_sync_deadlines(c, a->id, w, nw, a->meta.clock_seconds, secs,
                                 rules);
        free(secs);
        free(rules);
    }
    char *waits = clock_waiting_text(w, nw);
    free(a->waits);
    a->waits = NULL;
    if (waits &&
        store_sync_waiting(c, a->id, waits, NULL, a->version) == STORE_OK)
        a->waits = waits;
    else
        free(waits);
    free(w);
}

/* The game as the store has it: the latest usable snapshot, then the
 * inputs after it. Fills *g and *version, or returns -1 with r filled. */
static int rebuild_game(PGconn *c, const store_game *meta, engine_game **g,
                        uint64_t *version, actor_reply *r)
{
    json_t *snap = NULL;
    store_input *inputs = NULL;
    size_t n = 0;
    engine_error err = {0};
    *g = NULL;
    *version = 0;
    if (meta->version == 0) { /* no input yet (a game just started): the
                                 seed alone makes it, no more reads */
        *g = engine_create(meta->ruleset, meta->game_id, meta->options,
                           meta->seats, meta->seed, &err);
        if (*g)
            return 0;
        log_error(
            "game_create_failed",
            json_pack("{ss ss}", "game", meta->game_id, "error", err.msg));
        reply_set(r, SRV_INTERNAL, NULL, "the game cannot be rebuilt");
        return -1;
    }
    if (store_load_snapshot(c, meta->game_id, &snap, version) != STORE_OK)
        goto db_fail;
    if (snap) {
        *g = engine_load(snap, &err);
        json_decref(snap);
        if (!*g)
            *version = 0; /* unusable snapshot: replay everything */
    }
    if (!*g)
        *g = engine_create(meta->ruleset, meta->game_id, meta->options,
                           meta->seats, meta->seed, &err);
    if (!*g) {
        log_error(
            "game_create_failed",
            json_pack("{ss ss}", "game", meta->game_id, "error", err.msg));
        reply_set(r, SRV_INTERNAL, NULL, "the game cannot be rebuilt");
        return -1;
    }
    if (store_load_inputs(c, meta->game_id, *version, &inputs, &n) != STORE_OK)
        goto db_fail;
    int rc = apply_stored(*g, inputs, n, version);
    store_inputs_free(inputs, n);
    if (rc != 0) {
        engine_free(*g);
        *g = NULL;
        reply_set(r, SRV_INTERNAL, NULL, "the game's inputs do not replay");
        return -1;
    }
    return 0;
db_fail:
    engine_free(*g);
    *g = NULL;
    reply_set(r, SRV_UNAVAILABLE, NULL,
              "the database is unreachable; retry shortly");
    return -1;
}

/* Load game, snapshot and inputs unless held. Fills r and returns -1 on
 * failure. */
static int ensure_loaded(actors *A, actor *a, PGconn *c, actor_reply *r)
{
    if (a->loaded == 1)
        return 0;
    store_game meta;
    int rc = store_load_game(c, a->id, &meta);
    if (rc == STORE_ENOTFOUND) {
        pthread_rwlock_wrlock(&a->state);
        a->loaded = -1;
        pthread_rwlock_unlock(&a->state);
        actor_mark_gone(A, a);
        reply_set(r, SRV_NOT_FOUND, NULL, "no such game");
        return -1;
    }
    if (rc) {
        reply_set(r, SRV_UNAVAILABLE, NULL,
                  "the database is unreachable; retry shortly");
        return -1;
    }
    engine_game *g = NULL, *work = NULL;
    uint64_t version = 0;
    if (rebuild_game(c, &meta, &g, &version, r) != 0 ||
        !(work = engine_clone(g))) {
        if (g && !work)
            reply_set(r, SRV_UNAVAILABLE, NULL, "out of memory");
        engine_free(g);
        store_game_clear(&meta);
        return -1;
    }
    pthread_rwlock_wrlock(&a->state);
    a->game = g;
    a->work = work;
    a->meta = meta;
    a->version = version;
    pthread_rwlock_unlock(&a->state);
    if (strcmp(a->meta.status, "running") == 0)
        sync_clock_on_load(a, c, g);
    refresh_deadlines(a, c);
    if (A->load_hook)
        A->load_hook(A->load_hook_ctx, a->id);
    /* Only now may readers see the game: with its deadlines, never a
     * moment without them. */
    pthread_rwlock_wrlock(&a->state);
    a->loaded = 1;
    pthread_rwlock_unlock(&a->state);
    metrics_count("conclave_games_loaded_total", "Games loaded into memory.",
                  1);
    return 0;
}

/* Record the end of the game in meta once the engine says it is over.
 * Called with a->state held for writing. */
static void note_status(actor *a)
{
    if (!engine_is_over(a->game))
        return;
    json_t *res = engine_result(a->game);
    int aborted = json_is_true(json_object_get(res, "aborted"));
    snprintf(a->meta.status, sizeof a->meta.status, "%s",
             aborted ? "aborted" : "finished");
    json_decref(res);
}

static void publish(actors *A, actor *a)
{
    if (A->listener)
        A->listener(A->listener_ctx, a->id, a->version);
}

/* Load inputs committed elsewhere after our version and apply them to both
 * copies. A refused one means our copies disagree with the store: the game
 * is dropped and reloaded on next use. */
static int catch_up(actors *A, actor *a, PGconn *c)
{
    store_input *inputs = NULL;
    size_t n = 0;
    if (store_load_inputs(c, a->id, a->version, &inputs, &n) != STORE_OK)
        return -1;
    if (n == 0) {
        store_inputs_free(inputs, n);
        return 0;
    }
    metrics_count("conclave_catch_ups_total",
                  "Times a held game loaded inputs committed elsewhere.", 1);
    uint64_t version = a->version, again = a->version;
    int rc = apply_stored(a->work, inputs, n, &version);
    pthread_rwlock_wrlock(&a->state);
    if (rc == 0)
        rc = apply_stored(a->game, inputs, n, &again);
    free(a->waits);
    a->waits = NULL; /* another process synced them */
    if (rc == 0) {
        a->version = version;
        note_status(a);
        order_cap_note_stored(&a->ocap, inputs, n);
    } else {
        forget_game(a);
    }
    pthread_rwlock_unlock(&a->state);
    store_inputs_free(inputs, n);
    if (rc != 0)
        return -1;
    refresh_deadlines(a, c);
    publish(A, a);
    return 0;
}

/* Whether the store holds versions of the game we have not applied. */
static int behind_store(actor *a, PGconn *c)
{
    store_game fresh;
    if (store_load_game(c, a->id, &fresh) != STORE_OK)
        return 0;
    uint64_t v = fresh.version;
    store_game_clear(&fresh);
    return v > a->version;
}

/* ---------------------------------------------------------------- bots -- */

static void post_bot(actors *A, actor *a, int seat)
{
    msg *m = calloc(1, sizeof *m);
    if (!m)
        return;
    m->kind = MSG_BOT;
    m->rq.seat = seat;
    m->rq.if_match = -1;
    pthread_mutex_lock(&A->map_lock);
    a->refs++; /* dropped when the message is done */
    pthread_mutex_unlock(&A->map_lock);
    enqueue(A, a, m);
}

/* Queue a move for every bot seat the open windows wait on. */
static void schedule_bots(actors *A, actor *a)
{
    if (!a->work || engine_is_over(a->work))
        return;
    uint32_t waiting = waiting_seats(a->work);
    for (int s = 0; s < a->meta.seats; s++)
        if ((waiting >> s & 1) && a->meta.seat_bot[s][0])
            post_bot(A, a, s);
}

/* ------------------------------------------------------ the apply path -- */

static void maybe_snapshot(actors *A, actor *a, PGconn *c)
{
    int every = A->app->cfg->snapshot_every;
    if (!a->game || every <= 0 || a->version % (uint64_t)every != 0)
        return;
    json_t *state = engine_save(a->game);
    uint8_t h[ENGINE_HASH_BYTES];
    char hex[2 * ENGINE_HASH_BYTES + 1];
    engine_hash(a->game, h);
    engine_hex(h, sizeof h, hex);
    if (state)
        store_write_snapshot(c, a->id, a->version, state, hex);
    json_decref(state);
}

/* Answer a play whose Idempotency-Key was already used. */
static int idempotent_answer(actor *a, PGconn *c, const actor_request *rq,
                             actor_reply *r)
{
    uint8_t stored_hash[32];
    json_t *stored = NULL;
    int rc = store_find_idempotent(c, a->id, rq->seat, rq->idem_key,
                                   stored_hash, &stored);
    if (rc == STORE_ENOTFOUND)
        return 0;
    if (rc != STORE_OK) {
        reply_set(r, SRV_UNAVAILABLE, NULL,
                  "the database is unreachable; retry shortly");
        return 1;
    }
    if (memcmp(stored_hash, rq->request_hash, 32) != 0) {
        json_decref(stored);
        reply_set(r, SRV_INVALID, NULL,
                  "this Idempotency-Key was used with a different body; use a "
                  "new key for a new play");
        return 1;
    }
    reply_set(r, SRV_OK, NULL, NULL);
    r->stored = stored;
    json_t *v = json_object_get(stored, "version");
    r->version = json_is_integer(v) ? (uint64_t)json_integer_value(v) : 0;
    return 1;
}

/* A repeated play with an Idempotency-Key gets its first answer. */
static int answered_before(actor *a, PGconn *c, const actor_request *rq,
                           actor_reply *r)
{
    return rq->idem_key[0] && idempotent_answer(a, c, rq, r);
}

/* Step 1: refuse what needs no engine. 1 when r is the answer. */
static int refuse_early(actor *a, PGconn *c, const actor_request *rq,
                        actor_reply *r)
{
    if (strcmp(a->meta.status, "running") != 0) {
        if (!answered_before(a, c, rq, r))
            reply_set(r, SRV_CONFLICT, NULL, "the game is over");
        return 1;
    }
    if (rq->if_match >= 0 && (uint64_t)rq->if_match != a->version) {
        if (!answered_before(a, c, rq, r)) {
            reply_set(r, SRV_PRECONDITION, NULL,
                      "the game has moved on since the version in If-Match");
            r->version = a->version;
        }
        return 1;
    }
    return 0;
}

/* Whether rq is a player's order input (a whole order, a part change, or
 * a withdrawal: a system input in a window): the kind order_cap counts. */
static int counts_as_order(const actor_request *rq, int is_bot)
{
    return !is_bot && rq->window[0] &&
           (rq->part_op != ORDER_PART_NONE || rq->kind == ENGINE_ORDER ||
            rq->kind == ENGINE_SYSTEM);
}

/* Whether window is one of g's open windows (0 when memory ran out). */
static int window_open(const engine_game *g, const char *window)
{
    engine_window *w;
    int n = open_windows(g, &w), found = 0;
    for (int i = 0; i < n && !found; i++)
        found = strcmp(w[i].id, window) == 0;
    free(w);
    return found;
}

/* Step 1b: a seat past its order changes in the window. 1 when r is the
 * answer. */
static int refuse_over_cap(actors *A, actor *a, PGconn *c,
                           const actor_request *rq, int is_bot, actor_reply *r)
{
    if (!counts_as_order(rq, is_bot) || !window_open(a->work, rq->window))
        return 0; /* a window that is not open: the engine refuses it */
    srv_error e = {0};
    if (order_cap_check(&a->ocap, c, a->id, rq->seat, rq->window,
                        A->app->cfg->order_changes, &e) == SRV_OK)
        return 0;
    reply_set(r, e.kind, e.field[0] ? e.field : NULL, e.detail);
    r->version = a->version;
    return 1;
}

/* An input ready for the engine, and what it owns. */
typedef struct prepared {
    engine_input in;
    json_t *bot_payload; /* a bot's chosen move or the whole order a part
                            change makes (owned), or NULL */
} prepared;

/* Step 2 for a part change: the whole order as it would become, built from
 * the order a->work holds now (so part changes of one seat apply one after
 * the other). 1 when r is the answer (a refusal). */
static int prepare_part(actor *a, const actor_request *rq, prepared *p,
                        actor_reply *r)
{
    srv_error e = {0};
    json_t *built = NULL;
    if (order_part_input(a->work, rq->seat, rq->window, rq->part_op,
                         rq->part_key, rq->payload, &p->in.kind, &built,
                         &e) != SRV_OK) {
        reply_set(r, e.kind, e.field, e.detail);
        r->version = a->version;
        return 1;
    }
    p->bot_payload = built;
    p->in.payload = built;
    if (p->in.kind == ENGINE_ORDER &&
        RAND_bytes(p->in.nonce, ENGINE_NONCE_BYTES) != 1)
        abort();
    return 0;
}

/* Step 2: the engine input for rq; for a bot, its move. rq->window and
 * rq->kind are set to the move's. 1 when r is the answer (a bot with
 * nothing to do). */
static int prepare_input(actor *a, actor_request *rq, int is_bot, prepared *p,
                         actor_reply *r)
{
    memset(p, 0, sizeof *p);
    p->in.seat = rq->seat;
    if (!is_bot && rq->part_op != ORDER_PART_NONE) {
        p->in.window = rq->window;
        return prepare_part(a, rq, p, r);
    }
    if (!is_bot) {
        p->in.kind = rq->kind;
        p->in.window = rq->window[0] ? rq->window : NULL;
        p->in.payload = rq->payload;
        if (rq->kind == ENGINE_ORDER &&
            RAND_bytes(p->in.nonce, ENGINE_NONCE_BYTES) != 1)
            abort();
        return 0;
    }
    engine_error err = {0};
    const char *level =
        rq->stand_in[0] ? rq->stand_in : a->meta.seat_bot[rq->seat];
    if (!level[0] || !(waiting_seats(a->work) >> rq->seat & 1) ||
        engine_bot_action(a->work, rq->seat, level, &a->bot_rng, &p->in,
                          &err) != 0) {
        reply_set(r, SRV_OK, NULL,
                  NULL); /* acted meanwhile, or nothing to do */
        return 1;
    }
    p->bot_payload = (json_t *)p->in.payload;
    if (p->in.window)
        snprintf(rq->window, sizeof rq->window, "%s", p->in.window);
    rq->kind = p->in.kind;
    p->in.window = rq->window;
    return 0;
}

/* Make a->work equal to a->game again (the last committed form), after
 * an input the store did not take. -1 when memory ran out: the game is
 * then dropped, to be rebuilt from the store on next use. */
static int restore_work(actor *a)
{
    engine_free(a->work);
    a->work = engine_clone(a->game);
    if (a->work)
        return 0;
    pthread_rwlock_wrlock(&a->state);
    forget_game(a);
    pthread_rwlock_unlock(&a->state);
    return -1;
}

/* Step 3: engine_apply on a->work. Readers never see a->work, so no lock
 * is taken. On a refusal the copy is unchanged, except after
 * ENGINE_EINTERNAL (maybe half-applied), when it is restored. */
static int apply_to_work(actor *a, const engine_input *in,
                         engine_receipt *receipt, engine_error *err)
{
    int rc = engine_apply(a->work, in, receipt, err);
    if (rc == ENGINE_EINTERNAL)
        restore_work(a);
    return rc;
}

/* The store took the input: apply it to a->game too, under the write lock,
 * and move the version on. Applying it again cannot fail but for memory;
 * then a->game becomes a copy of a->work (equal by now), or is dropped. */
static void publish_committed(actor *a, const engine_input *in)
{
    engine_error err = {0};
    pthread_rwlock_wrlock(&a->state);
    if (engine_apply(a->game, in, NULL, &err) != 0) {
        log_error("second_apply_failed",
                  json_pack("{ss ss}", "game", a->id, "error", err.msg));
        engine_free(a->game);
        a->game = engine_clone(a->work);
    }
    a->version++;
    if (a->game)
        note_status(a);
    else
        forget_game(a);
    pthread_rwlock_unlock(&a->state);
}

/* What one append writes besides the input, built from the applied game. */
typedef struct commit_record {
    store_input stored;
    store_append ap;
    engine_window *windows; /* owned */
    int *secs;              /* owned: per window, for a game with a clock */
    char *rules;            /* owned: the clock rules as text */
    char *waits;            /* owned: the waits after the input */
    int oom;                /* the windows could not be listed */
    json_t *response, *result;
    char final_hash[2 * ENGINE_HASH_BYTES + 1];
} commit_record;

/* Fill cr for the input just applied to a->work (at a->version + 1). */
/* Whether a player seated in the game has a notification channel, or the
 * game a group channel (the commit then writes the version's fact). */
static int seats_listened(const store_game *meta)
{
    const char *players[ENGINE_MAX_SEATS];
    int n = 0;
    for (int s = 0; s < meta->seats && s < ENGINE_MAX_SEATS; s++)
        players[n++] = meta->seat_player[s];
    return notify_listened_any(players, n) ||
           notify_listened_game(meta->game_id);
}

static void commit_record_init(commit_record *cr, const actor *a,
                               const actor_request *rq, const engine_input *in)
{
    memset(cr, 0, sizeof *cr);
    int clocked = strcmp(a->meta.clock_mode, "none") != 0;
    int nw = open_windows(a->work, &cr->windows);
    cr->oom = nw < 0; /* the deadline rows must not be lost to an OOM */
    if (clocked && nw >= 0) {
        cr->secs = window_seconds(&a->meta, cr->windows, nw);
        cr->rules = json_dumps(a->meta.clock_rules, JSON_COMPACT);
        cr->oom |= !cr->secs || !cr->rules;
    }
    cr->waits = nw >= 0 ? clock_waiting_text(cr->windows, nw) : NULL;
    cr->oom |= nw >= 0 && !cr->waits;
    int over = engine_is_over(a->work);
    cr->result = over ? engine_result(a->work) : NULL;
    if (over) {
        uint8_t h[ENGINE_HASH_BYTES];
        engine_hash(a->work, h);
        engine_hex(h, sizeof h, cr->final_hash);
    }
    cr->stored = (store_input){.seq = a->version + 1,
                               .seat = in->seat,
                               .kind = in->kind,
                               .payload = (json_t *)in->payload,
                               .has_nonce = in->kind == ENGINE_ORDER};
    snprintf(cr->stored.window, sizeof cr->stored.window, "%s",
             in->window ? in->window : "");
    memcpy(cr->stored.nonce, in->nonce, ENGINE_NONCE_BYTES);
    cr->response = json_pack("{sI}", "version", (json_int_t)a->version + 1);
    cr->ap = (store_append){
        .game_id = a->id,
        .expected_version = a->version,
        .input = &cr->stored,
        .idem_key = rq->idem_key[0] ? rq->idem_key : NULL,
        .request_hash = rq->request_hash,
        .response = cr->response,
        .windows = cr->windows,
        .nwindows = nw < 0 ? 0 : nw,
        .clock_seconds = clocked ? a->meta.clock_seconds : 0,
        .window_seconds = cr->secs,
        .clock_rules = cr->rules,
        .waiting = cr->waits && !(a->waits && strcmp(a->waits, cr->waits) == 0)
                       ? cr->waits
                       : NULL,
        .final_status = !over ? NULL
                        : json_is_true(json_object_get(cr->result, "aborted"))
                            ? "aborted"
                            : "finished",
        .result = cr->result,
        .final_hash = over ? cr->final_hash : NULL,
        .keeps_records =
            over && engine_record_key(engine_game_ruleset(a->work)) != NULL,
        .listened = seats_listened(&a->meta),
    };
}

static void commit_record_clear(commit_record *cr)
{
    free(cr->windows);
    free(cr->secs);
    free(cr->rules);
    free(cr->waits);
    json_decref(cr->response);
    json_decref(cr->result);
}

/* Step 4: append the input applied to a->work. STORE_OK: committed, and
 * applied to what readers see. Otherwise a->work is restored (step 6).
 * *clocked is set when the game has deadlines to refresh. */
static int commit_work(actors *A, actor *a, const actor_request *rq,
                       const engine_input *in, int *clocked)
{
    commit_record cr;
    commit_record_init(&cr, a, rq, in);
    atomic_store(&a->committing, a->version + 1);
    int rc = cr.oom ? STORE_EDB : committer_append(A->commit, &cr.ap);
    *clocked = cr.ap.clock_seconds > 0;
    if (rc == STORE_OK && cr.ap.waiting) {
        free(a->waits);
        a->waits = cr.waits; /* now what the rows say */
        cr.waits = NULL;
    }
    commit_record_clear(&cr);
    if (rc == STORE_OK)
        publish_committed(a, in);
    else
        restore_work(a);
    atomic_store(&a->committing, 0); /* a->version has it, or it failed */
    return rc;
}

/* After a timeout: seats whose players missed too many windows in a row
 * go to bots (server/game/clock_ops.h); schedule_bots then moves them. */
static void replace_missing(actor *a, PGconn *c)
{
    if (clock_rule_int(&a->meta, "replace_after") <= 0)
        return;
    pthread_rwlock_wrlock(&a->state);
    uint32_t mask = clock_replace_missing(c, &a->meta, a->version);
    pthread_rwlock_unlock(&a->state);
    if (mask)
        metrics_count("conclave_seats_replaced_total",
                      "Seats given to a bot after missed windows.",
                      (uint64_t)__builtin_popcount(mask));
}

/* Step 5: everything that follows a commit. */
static void after_commit(actors *A, actor *a, PGconn *c, int clocked,
                         const engine_input *in, const engine_receipt *receipt,
                         actor_reply *r)
{
    metrics_count("conclave_inputs_total", "Inputs committed.", 1);
    if (clocked)
        refresh_deadlines(a, c);
    if (clocked && in->kind == ENGINE_TIMEOUT)
        replace_missing(a, c);
    reply_set(r, SRV_OK, NULL, NULL);
    r->version = a->version;
    if (in->kind == ENGINE_ORDER) {
        r->has_receipt = 1;
        r->receipt = *receipt;
    }
    maybe_snapshot(A, a, c);
    publish(A, a);
    schedule_bots(A, a);
}

/* A refused input: if our copy was behind the store, catch up and say
 * "retry" (1); otherwise answer with the engine's refusal (0). */
static int after_refusal(actors *A, actor *a, PGconn *c,
                         const actor_request *rq, int attempt, int rc,
                         const engine_error *err, actor_reply *r)
{
    if (answered_before(a, c, rq, r))
        return 0;
    /* Our copy may be behind another process: catch up, retry. */
    if (rc != ENGINE_EINTERNAL && attempt == 0 && behind_store(a, c) &&
        catch_up(A, a, c) == 0)
        return 1;
    reply_set(r, engine_status(rc), err->field, err->msg);
    r->version = a->version;
    return 0;
}

/* Step 6 for a version conflict, a->work restored: catch up with the
 * store (or reload, when the copies were dropped) and say "retry" (1), or
 * answer (0). */
static int after_conflict(actors *A, actor *a, PGconn *c,
                          const actor_request *rq, actor_reply *r)
{
    metrics_count("conclave_append_conflicts_total",
                  "Appends refused because the version moved on.", 1);
    if (answered_before(a, c, rq, r))
        return 0;
    if ((a->loaded == 1 && catch_up(A, a, c) == 0) ||
        ensure_loaded(A, a, c, r) == 0)
        return 1;
    reply_set(r, SRV_UNAVAILABLE, NULL, "the game could not be reloaded");
    return 0;
}

/* Validate, apply and commit one input (see the top of this file). */
static void apply_input(actors *A, actor *a, PGconn *c, actor_request *rq,
                        int is_bot, actor_reply *r)
{
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
        prepared p;
        if (refuse_early(a, c, rq, r) ||
            refuse_over_cap(A, a, c, rq, is_bot, r) ||
            prepare_input(a, rq, is_bot, &p, r))
            return;
        engine_receipt receipt;
        engine_error err = {0};
        int rc = apply_to_work(a, &p.in, &receipt, &err);
        if (rc != 0) {
            json_decref(p.bot_payload);
            if (after_refusal(A, a, c, rq, attempt, rc, &err, r))
                continue;
            return;
        }
        int clocked = 0;
        rc = commit_work(A, a, rq, &p.in, &clocked);
        if (rc == STORE_OK && counts_as_order(rq, is_bot))
            order_cap_note(&a->ocap, rq->seat, rq->window);
        if (rc == STORE_OK)
            after_commit(A, a, c, clocked, &p.in, &receipt, r);
        if (rc == STORE_OK && rq->part_op != ORDER_PART_NONE)
            r->parts = order_part_keys(p.in.kind == ENGINE_ORDER ? p.in.payload
                                                                 : NULL);
        json_decref(p.bot_payload);
        if (rc == STORE_OK)
            return;
        if (rc == STORE_ECONFLICT && after_conflict(A, a, c, rq, r))
            continue;
        if (rc != STORE_ECONFLICT)
            reply_set(r, SRV_UNAVAILABLE, NULL,
                      "the database did not confirm this input (it may or "
                      "may not be stored); retry shortly, with the same "
                      "Idempotency-Key for a play");
        return;
    }
    reply_set(r, SRV_UNAVAILABLE, NULL, "the game is busy; retry shortly");
}

static void process(actors *A, actor *a, msg *m)
{
    actor_reply local = {0};
    actor_reply *r = m->w ? m->w->reply : m->done ? &m->reply : &local;
    PGconn *c = db_acquire(A->app->db, DB_WAIT_MS);
    if (!c) {
        reply_set(r, SRV_UNAVAILABLE, NULL,
                  "the database is unreachable; retry shortly");
    } else {
        int was_loaded = a->loaded == 1;
        if (ensure_loaded(A, a, c, r) == 0) {
            switch (m->kind) {
            case MSG_INPUT:
                apply_input(A, a, c, &m->rq, 0, r);
                break;
            case MSG_BOT:
                apply_input(A, a, c, &m->rq, 1, r);
                break;
            case MSG_CATCHUP:
                catch_up(A, a, c);
                break;
            case MSG_LOAD:
                reply_set(r, SRV_OK, NULL, NULL);
                break;
            case MSG_DEADLINES:
                refresh_deadlines(a, c);
                publish(A, a);
                break;
            }
            if (!was_loaded)
                schedule_bots(A, a);
        }
        db_release(A->app->db, c, db_conn_broken(c));
    }
    if (!m->w && !m->done && r->kind != SRV_OK && m->kind != MSG_CATCHUP &&
        m->kind != MSG_DEADLINES)
        log_info("queued_input_refused",
                 json_pack("{ss ss ss}", "game", a->id, "kind",
                           srv_kind_name(r->kind), "detail", r->detail));
    if (m->w) {
        pthread_mutex_lock(&m->w->m);
        m->w->done = 1;
        pthread_cond_signal(&m->w->cv);
        pthread_mutex_unlock(&m->w->m);
    } else if (m->done) {
        msg_answer(m);
    } else {
        json_decref(local.stored);
        json_decref(local.parts);
    }
    msg_free(m);
    actor_put(A, a);
}

static void *worker_main(void *arg)
{
    thread_name_set("actor");
    actors *A = arg;
    db_thread_serves_requests();
    for (;;) {
        pthread_mutex_lock(&A->run_lock);
        while (!A->run_head && !A->stopping)
            pthread_cond_wait(&A->run_cv, &A->run_lock);
        actor *a = A->run_head;
        if (!a) { /* stopping and nothing left */
            pthread_mutex_unlock(&A->run_lock);
            return NULL;
        }
        A->run_head = a->next_run;
        if (!A->run_head)
            A->run_tail = NULL;
        pthread_mutex_unlock(&A->run_lock);
        /* The worker's own reference for the turn, so that a game the
         * store did not have can be freed right after it (actor_release). */
        pthread_mutex_lock(&A->map_lock);
        a->refs++;
        pthread_mutex_unlock(&A->map_lock);

        int more = 0;
        for (int i = 0; i < BATCH; i++) {
            pthread_mutex_lock(&a->lock);
            msg *m = a->head;
            if (m) {
                a->head = m->next;
                if (!a->head)
                    a->tail = NULL;
            } else {
                a->scheduled = 0;
            }
            pthread_mutex_unlock(&a->lock);
            if (!m)
                break;
            /* `a` stays alive: the message holds a reference. */
            process(A, a, m);
            if (i == BATCH - 1) {
                pthread_mutex_lock(&a->lock);
                more = a->head != NULL;
                if (!more)
                    a->scheduled = 0;
                pthread_mutex_unlock(&a->lock);
            }
        }
        if (more)
            run_push(A, a); /* let other games have a turn */
        actor_release(A, a, 1);
    }
}

/* ---------------------------------------------------------- the API --- */

actors *actors_start(app *a, char *err, size_t errlen)
{
    actors *A = calloc(1, sizeof *A);
    if (!A) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    A->app = a;
    pthread_mutex_init(&A->map_lock, NULL);
    pthread_mutex_init(&A->run_lock, NULL);
    pthread_cond_init(&A->run_cv, NULL);
    A->commit = committer_start(a->cfg->database_url, a->cfg->commit_writers,
                                a->cfg->db_connect_timeout, err, errlen);
    if (!A->commit) {
        free(A);
        return NULL;
    }
    A->nworkers = a->cfg->workers;
    A->workers = calloc((size_t)A->nworkers, sizeof *A->workers);
    if (!A->workers) {
        committer_stop(A->commit);
        free(A);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    for (int i = 0; i < A->nworkers; i++) {
        if (pthread_create(&A->workers[i], NULL, worker_main, A) != 0) {
            snprintf(err, errlen, "cannot start worker threads");
            A->nworkers = i;
            actors_stop(A);
            return NULL;
        }
    }
    return A;
}

void actors_stop(actors *A)
{
    if (!A)
        return;
    pthread_mutex_lock(&A->run_lock);
    A->stopping = 1;
    pthread_cond_broadcast(&A->run_cv);
    pthread_mutex_unlock(&A->run_lock);
    for (int i = 0; i < A->nworkers; i++)
        pthread_join(A->workers[i], NULL);
    committer_stop(A->commit); /* after the workers: none waits on it */
    for (int b = 0; b < MAP_BUCKETS; b++) {
        actor *a = A->buckets[b];
        while (a) {
            actor *next = a->next_map;
            actor_free(a);
            a = next;
        }
    }
    pthread_mutex_destroy(&A->map_lock);
    pthread_mutex_destroy(&A->run_lock);
    pthread_cond_destroy(&A->run_cv);
    free(A->workers);
    free(A);
}

void actors_set_listener(actors *A, actor_listener_fn fn, void *ctx)
{
    A->listener = fn;
    A->listener_ctx = ctx;
}

void actors_set_load_hook(actors *A, actor_load_hook_fn fn, void *ctx)
{
    A->load_hook = fn;
    A->load_hook_ctx = ctx;
}

/* Free id's entry if the store had no such game and nobody holds it (the
 * worker may still be finishing the message that found out: then the next
 * eviction pass frees it). */
static void drop_gone(actors *A, const char *id)
{
    pthread_mutex_lock(&A->map_lock);
    actor *a = A->buckets[hash_id(id)];
    while (a && strcmp(a->id, id) != 0)
        a = a->next_map;
    if (a)
        drop_if_gone_locked(A, a);
    pthread_mutex_unlock(&A->map_lock);
}

/* Queue a message for id and, with out, wait for it; with done, answer
 * through done instead (at once when it cannot be queued). */
static int send_msg(actors *A, const char *id, msg_kind kind,
                    const actor_request *rq, json_t *payload_owned,
                    actor_reply *out, actor_done_fn done, void *done_ctx)
{
    actor *a = actor_get(A, id);
    msg *m = a ? calloc(1, sizeof *m) : NULL;
    if (!m) {
        json_decref(payload_owned);
        if (a)
            actor_put(A, a);
        actor_reply failed = {0};
        actor_reply *r = out ? out : &failed;
        if (a)
            reply_set(r, SRV_UNAVAILABLE, NULL, "out of memory");
        else
            reply_set(r, SRV_NOT_FOUND, NULL, "no such game");
        if (done)
            done(done_ctx, r);
        return -1;
    }
    m->kind = kind;
    if (rq)
        m->rq = *rq;
    m->rq.payload = payload_owned;
    m->done = done;
    m->done_ctx = done_ctx;
    if (!out) {
        enqueue(A, a, m);
        return 0;
    }
    waiter w = {.reply = out};
    pthread_mutex_init(&w.m, NULL);
    pthread_cond_init(&w.cv, NULL);
    m->w = &w;
    enqueue(A, a, m);
    pthread_mutex_lock(&w.m);
    while (!w.done)
        pthread_cond_wait(&w.cv, &w.m);
    pthread_mutex_unlock(&w.m);
    pthread_mutex_destroy(&w.m);
    pthread_cond_destroy(&w.cv);
    if (out->kind == SRV_NOT_FOUND)
        drop_gone(A, id);
    return 0;
}

int actors_submit(actors *A, const char *game_id, const actor_request *rq,
                  actor_reply *out)
{
    memset(out, 0, sizeof *out);
    return send_msg(A, game_id, MSG_INPUT, rq, json_incref(rq->payload), out,
                    NULL, NULL);
}

void actors_submit_async(actors *A, const char *game_id,
                         const actor_request *rq, actor_done_fn done, void *ctx)
{
    send_msg(A, game_id, MSG_INPUT, rq, json_incref(rq->payload), NULL, done,
             ctx);
}

void actors_post(actors *A, const char *game_id, actor_request *rq)
{
    json_t *payload = rq->payload;
    rq->payload = NULL;
    send_msg(A, game_id, MSG_INPUT, rq, payload, NULL, NULL, NULL);
}

void actors_stand_in(actors *A, const char *game_id, int seat, const char *bot)
{
    actor_request rq = {.seat = seat, .if_match = -1};
    if (seat < 0 || seat >= ENGINE_MAX_SEATS || !bot[0])
        return;
    snprintf(rq.stand_in, sizeof rq.stand_in, "%s", bot);
    send_msg(A, game_id, MSG_BOT, &rq, NULL, NULL, NULL, NULL);
}

srv_kind actors_load(actors *A, const char *game_id)
{
    /* A game just made: whatever was remembered about its id is stale. */
    pthread_mutex_lock(&A->map_lock);
    unknown_slot(A, game_id)->expires = 0;
    for (actor *a = A->buckets[hash_id(game_id)]; a; a = a->next_map)
        if (strcmp(a->id, game_id) == 0)
            a->gone = 0;
    pthread_mutex_unlock(&A->map_lock);
    actor_reply r = {0};
    send_msg(A, game_id, MSG_LOAD, NULL, NULL, &r, NULL, NULL);
    json_decref(r.stored);
    return r.kind;
}

srv_kind actors_read(actors *A, const char *game_id, actor_read_fn fn,
                     void *ctx)
{
    actor *a = actor_get(A, game_id);
    if (!a)
        return SRV_NOT_FOUND;
    pthread_rwlock_rdlock(&a->state);
    int loaded = a->loaded;
    pthread_rwlock_unlock(&a->state);
    if (loaded != 1) {
        actor_reply r = {0};
        send_msg(A, game_id, MSG_LOAD, NULL, NULL, &r, NULL, NULL);
        json_decref(r.stored);
        if (r.kind != SRV_OK) {
            actor_release(A, a, 1);
            return r.kind == SRV_NOT_FOUND ? SRV_NOT_FOUND : SRV_UNAVAILABLE;
        }
    }
    srv_kind status = SRV_OK;
    pthread_rwlock_rdlock(&a->state);
    if (a->loaded == 1 && a->game) {
        actor_view v = {a->game, &a->meta, a->version, a->deadlines};
        fn(&v, ctx);
    } else {
        status = a->loaded == -1 ? SRV_NOT_FOUND : SRV_UNAVAILABLE;
    }
    pthread_rwlock_unlock(&a->state);
    actor_release(A, a, 1);
    return status;
}

void actors_remote_version(actors *A, const char *game_id, uint64_t version)
{
    unsigned h = hash_id(game_id);
    pthread_mutex_lock(&A->map_lock);
    actor *a = A->buckets[h];
    while (a && strcmp(a->id, game_id) != 0)
        a = a->next_map;
    if (a)
        a->refs++;
    pthread_mutex_unlock(&A->map_lock);
    if (!a)
        return; /* not held here: it loads fresh when needed */
    /* A game being loaded (loaded 0) may have read the store before this
     * version was committed: it catches up once loaded (the message queues
     * behind the load), or this wake-up would be lost until the version
     * sweep. */
    /* The NOTIFY of this process's own commit can come before the worker
     * has moved the version on (it rides behind the COMMIT): no catch-up
     * for the version in flight here (if another process made it instead,
     * our commit fails on it and the conflict catches up). */
    pthread_rwlock_rdlock(&a->state);
    int behind = a->loaded == 0 || (a->loaded == 1 && a->version < version &&
                                    atomic_load(&a->committing) != version);
    pthread_rwlock_unlock(&a->state);
    if (!behind) {
        actor_put(A, a);
        return;
    }
    msg *m = calloc(1, sizeof *m);
    if (!m) {
        actor_put(A, a);
        return;
    }
    m->kind = MSG_CATCHUP;
    enqueue(A, a, m); /* the message keeps our reference */
}

void actors_deadlines_changed(actors *A, const char *game_id)
{
    unsigned h = hash_id(game_id);
    pthread_mutex_lock(&A->map_lock);
    actor *a = A->buckets[h];
    while (a && strcmp(a->id, game_id) != 0)
        a = a->next_map;
    if (a)
        a->refs++;
    pthread_mutex_unlock(&A->map_lock);
    if (!a)
        return; /* not held here: it reads them when it loads */
    msg *m = calloc(1, sizeof *m);
    if (!m) {
        actor_put(A, a);
        return;
    }
    m->kind = MSG_DEADLINES;
    enqueue(A, a, m); /* the message keeps our reference */
}

void actors_catch_up_all(actors *A)
{
    pthread_mutex_lock(&A->map_lock);
    for (int b = 0; b < MAP_BUCKETS; b++) {
        for (actor *a = A->buckets[b]; a; a = a->next_map) {
            msg *m = calloc(1, sizeof *m);
            if (!m)
                continue;
            m->kind = MSG_CATCHUP;
            a->refs++;
            enqueue(A, a, m);
        }
    }
    pthread_mutex_unlock(&A->map_lock);
}

int actors_pinned_ids(actors *A, char (**ids)[STORE_ID_MAX], size_t *n)
{
    *ids = NULL;
    *n = 0;
    size_t cap = 0;
    int rc = 0;
    pthread_mutex_lock(&A->map_lock);
    for (int b = 0; b < MAP_BUCKETS && rc == 0; b++) {
        for (actor *a = A->buckets[b]; a; a = a->next_map) {
            if (a->pins <= 0)
                continue;
            if (*n == cap) {
                size_t want = cap ? cap * 2 : 64;
                char(*more)[STORE_ID_MAX] = realloc(*ids, want * sizeof **ids);
                if (!more) {
                    rc = -1;
                    break;
                }
                *ids = more;
                cap = want;
            }
            memcpy((*ids)[(*n)++], a->id, STORE_ID_MAX);
        }
    }
    pthread_mutex_unlock(&A->map_lock);
    if (rc != 0) {
        free(*ids);
        *ids = NULL;
        *n = 0;
    }
    return rc;
}

void actors_evict_idle(actors *A)
{
    double cutoff = now_s() - A->app->cfg->idle_evict_seconds;
    pthread_mutex_lock(&A->map_lock);
    for (int b = 0; b < MAP_BUCKETS; b++) {
        actor **link = &A->buckets[b];
        while (*link) {
            actor *a = *link;
            int idle = 0;
            if (a->refs == 0 && a->pins == 0 &&
                (a->last_used < cutoff || a->gone)) {
                pthread_mutex_lock(&a->lock);
                idle = !a->scheduled && !a->head;
                pthread_mutex_unlock(&a->lock);
            }
            if (idle) {
                *link = a->next_map;
                count_changed(A, -1);
                actor_free(a);
            } else {
                link = &a->next_map;
            }
        }
    }
    pthread_mutex_unlock(&A->map_lock);
}

void actors_pin(actors *A, const char *game_id, int delta)
{
    if (delta < 0) { /* even a gone entry: its pin must go for it to go */
        pthread_mutex_lock(&A->map_lock);
        actor *a = A->buckets[hash_id(game_id)];
        while (a && strcmp(a->id, game_id) != 0)
            a = a->next_map;
        if (a) {
            a->pins += delta;
            if (a->pins < 0)
                a->pins = 0;
            drop_if_gone_locked(A, a);
        }
        pthread_mutex_unlock(&A->map_lock);
        return;
    }
    actor *a = actor_get(A, game_id);
    if (!a)
        return;
    pthread_mutex_lock(&A->map_lock);
    a->pins += delta;
    pthread_mutex_unlock(&A->map_lock);
    actor_release(A, a, 1);
}

int actors_count(actors *A)
{
    pthread_mutex_lock(&A->map_lock);
    int n = A->count;
    pthread_mutex_unlock(&A->map_lock);
    return n;
}

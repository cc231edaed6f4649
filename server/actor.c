/*
 * actor.c - game actors: mailboxes, the worker pool, loading, the apply
 * path, catching up with other processes, bots, eviction (see actor.h).
 *
 * Locking: A->map_lock guards the hash map, actor refs and A->count;
 * A->run_lock guards the run queue and `stopping`; a->lock guards the
 * actor's mailbox, `scheduled`, and the committed state readers see
 * (game, meta, version, deadlines, loaded). Only the worker that holds an
 * actor's `scheduled` token changes its state, so it reads the live game
 * without the lock and takes the lock only to swap in a new version. Lock
 * order: map_lock, then a->lock, then run_lock.
 */
#include "server/actor.h"

#include "server/log.h"
#include "server/metrics.h"

#include <openssl/rand.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAP_BUCKETS 4096
#define BATCH 16      /* messages per turn before an actor yields */
#define ATTEMPTS 5    /* catch-up retries on version conflicts */
#define DB_WAIT_MS 2000

typedef enum { MSG_INPUT, MSG_BOT, MSG_CATCHUP, MSG_LOAD } msg_kind;

typedef struct waiter {
    pthread_mutex_t m;
    pthread_cond_t cv;
    int done;
    actor_reply *reply;
} waiter;

typedef struct msg {
    struct msg *next;
    msg_kind kind;
    actor_request rq; /* payload owned by the message */
    waiter *w;        /* NULL: nobody waits */
} msg;

typedef struct actor {
    char id[STORE_ID_MAX];
    pthread_mutex_t lock;
    msg *head, *tail;
    int scheduled;
    int refs;         /* map_lock */
    int pins;         /* map_lock: subscribers here; pinned games stay */
    int loaded;       /* 0 not yet, 1 loaded, -1 no such game */
    engine_game *game;
    store_game meta;
    uint64_t version;
    json_t *deadlines;
    double last_used;
    engine_rng bot_rng; /* bots' choices; not part of any game state */
    struct actor *next_run; /* run_lock */
    struct actor *next_map; /* map_lock */
} actor;

struct actors {
    app *app;
    pthread_mutex_t map_lock;
    actor *buckets[MAP_BUCKETS];
    int count;
    pthread_mutex_t run_lock;
    pthread_cond_t run_cv;
    actor *run_head, *run_tail;
    int stopping;
    pthread_t *workers;
    int nworkers;
    actor_listener_fn listener; /* set before traffic starts */
    void *listener_ctx;
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

static actor *actor_get(actors *A, const char *id)
{
    if (strlen(id) >= STORE_ID_MAX)
        return NULL;
    unsigned h = hash_id(id);
    pthread_mutex_lock(&A->map_lock);
    actor *a = A->buckets[h];
    while (a && strcmp(a->id, id) != 0)
        a = a->next_map;
    if (!a) {
        a = calloc(1, sizeof *a);
        if (a) {
            snprintf(a->id, sizeof a->id, "%s", id);
            pthread_mutex_init(&a->lock, NULL);
            uint8_t key[32];
            if (RAND_bytes(key, sizeof key) != 1)
                abort();
            engine_rng_init(&a->bot_rng, key, 0);
            a->next_map = A->buckets[h];
            A->buckets[h] = a;
            A->count++;
        }
    }
    if (a) {
        a->refs++;
        a->last_used = now_s();
    }
    pthread_mutex_unlock(&A->map_lock);
    return a;
}

static void actor_put(actors *A, actor *a)
{
    pthread_mutex_lock(&A->map_lock);
    a->refs--;
    a->last_used = now_s();
    pthread_mutex_unlock(&A->map_lock);
}

static void msg_free(msg *m)
{
    json_decref(m->rq.payload);
    free(m);
}

static void actor_free(actor *a)
{
    while (a->head) {
        msg *m = a->head;
        a->head = m->next;
        msg_free(m);
    }
    engine_free(a->game);
    store_game_clear(&a->meta);
    json_decref(a->deadlines);
    pthread_mutex_destroy(&a->lock);
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
    case ENGINE_EINVALID: return SRV_INVALID;
    case ENGINE_ECONFLICT: return SRV_CONFLICT;
    case ENGINE_EFORBIDDEN: return SRV_FORBIDDEN;
    case ENGINE_ENOTFOUND: return SRV_NOT_FOUND;
    case ENGINE_EOVER: return SRV_CONFLICT;
    default: return SRV_INTERNAL;
    }
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
    pthread_mutex_lock(&a->lock);
    json_decref(a->deadlines);
    a->deadlines = d;
    pthread_mutex_unlock(&a->lock);
}

/* Load game, snapshot and inputs. Fills r and returns -1 on failure. */
static int ensure_loaded(actor *a, PGconn *c, actor_reply *r)
{
    if (a->loaded == 1)
        return 0;
    store_game meta;
    int rc = store_load_game(c, a->id, &meta);
    if (rc == STORE_ENOTFOUND) {
        a->loaded = -1;
        reply_set(r, SRV_NOT_FOUND, NULL, "no such game");
        return -1;
    }
    if (rc) {
        reply_set(r, SRV_UNAVAILABLE, NULL, "the database is unreachable; retry shortly");
        return -1;
    }
    json_t *snap = NULL;
    uint64_t version = 0;
    store_input *inputs = NULL;
    size_t n = 0;
    engine_game *g = NULL;
    engine_error err = {0};
    if (store_load_snapshot(c, a->id, &snap, &version) != STORE_OK)
        goto db_fail;
    if (snap) {
        g = engine_load(snap, &err);
        json_decref(snap);
        if (!g)
            version = 0; /* unusable snapshot: replay everything */
    }
    if (!g)
        g = engine_create(meta.ruleset, meta.game_id, meta.options,
                          meta.seats, meta.seed, &err);
    if (!g) {
        log_error("game_create_failed",
                  json_pack("{ss ss}", "game", a->id, "error", err.msg));
        reply_set(r, SRV_INTERNAL, NULL, "the game cannot be rebuilt");
        store_game_clear(&meta);
        return -1;
    }
    if (store_load_inputs(c, a->id, version, &inputs, &n) != STORE_OK)
        goto db_fail;
    if (apply_stored(g, inputs, n, &version) != 0) {
        store_inputs_free(inputs, n);
        engine_free(g);
        store_game_clear(&meta);
        reply_set(r, SRV_INTERNAL, NULL, "the game's inputs do not replay");
        return -1;
    }
    store_inputs_free(inputs, n);
    pthread_mutex_lock(&a->lock);
    a->game = g;
    a->meta = meta;
    a->version = version;
    a->loaded = 1;
    pthread_mutex_unlock(&a->lock);
    if (strcmp(a->meta.clock_mode, "none") != 0 &&
        strcmp(a->meta.status, "running") == 0) {
        engine_window w[16];
        int nw = engine_windows(g, w, 16);
        store_sync_deadlines(c, a->id, w, nw > 16 ? 16 : nw,
                             a->meta.clock_seconds);
    }
    refresh_deadlines(a, c);
    metrics_count("conclave_games_loaded_total", "Games loaded into memory.",
                  1);
    return 0;
db_fail:
    engine_free(g);
    store_game_clear(&meta);
    reply_set(r, SRV_UNAVAILABLE, NULL, "the database is unreachable; retry shortly");
    return -1;
}

/* Swap in g as the committed state at version; frees the old one. */
static void commit_state(actor *a, engine_game *g, uint64_t version)
{
    pthread_mutex_lock(&a->lock);
    engine_game *old = a->game;
    a->game = g;
    a->version = version;
    if (engine_is_over(g)) {
        json_t *res = engine_result(g);
        int aborted = json_is_true(json_object_get(res, "aborted"));
        snprintf(a->meta.status, sizeof a->meta.status, "%s",
                 aborted ? "aborted" : "finished");
        json_decref(res);
    }
    pthread_mutex_unlock(&a->lock);
    engine_free(old);
}

static void publish(actors *A, actor *a)
{
    if (A->listener)
        A->listener(A->listener_ctx, a->id, a->version);
}

/* Load inputs committed elsewhere after our version and apply them. */
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
    engine_game *g = engine_clone(a->game);
    uint64_t version = a->version;
    int rc = g ? apply_stored(g, inputs, n, &version) : -1;
    store_inputs_free(inputs, n);
    if (rc != 0) {
        engine_free(g);
        /* Our copy disagrees with the store: drop it; reload on next use. */
        pthread_mutex_lock(&a->lock);
        engine_free(a->game);
        a->game = NULL;
        store_game_clear(&a->meta);
        a->loaded = 0;
        pthread_mutex_unlock(&a->lock);
        return -1;
    }
    commit_state(a, g, version);
    refresh_deadlines(a, c);
    publish(A, a);
    return 0;
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

/* Whether some open window still waits on seat. */
static int seat_waiting(const engine_game *g, int seat)
{
    engine_window w[8];
    int n = engine_windows(g, w, 8);
    for (int i = 0; i < n && i < 8; i++)
        if ((w[i].seats & ~w[i].submitted) >> seat & 1)
            return 1;
    return 0;
}

/* Queue a move for every bot seat the open windows wait on. */
static void schedule_bots(actors *A, actor *a)
{
    if (!a->game || engine_is_over(a->game))
        return;
    engine_window w[8];
    int n = engine_windows(a->game, w, 8);
    uint32_t due = 0;
    for (int i = 0; i < n && i < 8; i++) {
        uint32_t waiting = w[i].seats & ~w[i].submitted;
        for (int s = 0; s < a->meta.seats; s++)
            if ((waiting >> s & 1) && a->meta.seat_bot[s][0])
                due |= 1u << s;
    }
    for (int s = 0; s < a->meta.seats; s++)
        if (due >> s & 1)
            post_bot(A, a, s);
}

/* ------------------------------------------------------ the apply path -- */

static void maybe_snapshot(actors *A, actor *a, PGconn *c)
{
    int every = A->app->cfg->snapshot_every;
    if (every <= 0 || a->version % (uint64_t)every != 0)
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
        reply_set(r, SRV_UNAVAILABLE, NULL, "the database is unreachable; retry shortly");
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

static void apply_input(actors *A, actor *a, PGconn *c, actor_request *rq,
                        int is_bot, actor_reply *r)
{
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
        if (strcmp(a->meta.status, "running") != 0) {
            if (rq->idem_key[0] && idempotent_answer(a, c, rq, r))
                return;
            reply_set(r, SRV_CONFLICT, NULL, "the game is over");
            return;
        }
        if (rq->if_match >= 0 && (uint64_t)rq->if_match != a->version) {
            if (rq->idem_key[0] && idempotent_answer(a, c, rq, r))
                return;
            reply_set(r, SRV_PRECONDITION, NULL,
                      "the game has moved on since the version in If-Match");
            r->version = a->version;
            return;
        }
        json_t *bot_payload = NULL;
        engine_input in = {0};
        engine_error err = {0};
        if (is_bot) {
            in.seat = rq->seat;
            if (!seat_waiting(a->game, rq->seat)) {
                reply_set(r, SRV_OK, NULL, NULL); /* acted meanwhile */
                return;
            }
            if (engine_bot_action(a->game, rq->seat,
                                  a->meta.seat_bot[rq->seat], &a->bot_rng,
                                  &in, &err) != 0) {
                reply_set(r, SRV_OK, NULL, NULL); /* nothing to do */
                return;
            }
            bot_payload = (json_t *)in.payload;
            if (in.window)
                snprintf(rq->window, sizeof rq->window, "%s", in.window);
            rq->kind = in.kind;
            in.window = rq->window;
        } else {
            in.seat = rq->seat;
            in.kind = rq->kind;
            in.window = rq->window[0] ? rq->window : NULL;
            in.payload = rq->payload;
            if (rq->kind == ENGINE_ORDER &&
                RAND_bytes(in.nonce, ENGINE_NONCE_BYTES) != 1)
                abort();
        }
        engine_game *g = engine_clone(a->game);
        engine_receipt receipt;
        int rc = g ? engine_apply(g, &in, &receipt, &err) : ENGINE_EINTERNAL;
        if (rc != 0) {
            engine_free(g);
            json_decref(bot_payload);
            if (rq->idem_key[0] && idempotent_answer(a, c, rq, r))
                return;
            /* Our copy may be behind another process: catch up, retry. */
            store_game fresh;
            if (attempt == 0 && store_load_game(c, a->id, &fresh) == 0) {
                uint64_t v = fresh.version;
                store_game_clear(&fresh);
                if (v > a->version && catch_up(A, a, c) == 0)
                    continue;
            }
            reply_set(r, engine_status(rc), err.field, err.msg);
            r->version = a->version;
            return;
        }
        engine_window w[16];
        int nw = engine_windows(g, w, 16);
        if (nw > 16)
            nw = 16;
        int over = engine_is_over(g);
        json_t *result = over ? engine_result(g) : NULL;
        char final_hash[2 * ENGINE_HASH_BYTES + 1] = "";
        if (over) {
            uint8_t h[ENGINE_HASH_BYTES];
            engine_hash(g, h);
            engine_hex(h, sizeof h, final_hash);
        }
        store_input stored = {.seq = a->version + 1,
                              .seat = in.seat,
                              .kind = in.kind,
                              .payload = (json_t *)in.payload,
                              .has_nonce = in.kind == ENGINE_ORDER};
        snprintf(stored.window, sizeof stored.window, "%s",
                 in.window ? in.window : "");
        memcpy(stored.nonce, in.nonce, ENGINE_NONCE_BYTES);
        json_t *response = json_pack("{sI}", "version",
                                     (json_int_t)a->version + 1);
        store_append ap = {
            .game_id = a->id,
            .expected_version = a->version,
            .input = &stored,
            .idem_key = rq->idem_key[0] ? rq->idem_key : NULL,
            .request_hash = rq->request_hash,
            .response = response,
            .windows = w,
            .nwindows = nw,
            .clock_seconds = strcmp(a->meta.clock_mode, "none") == 0
                                 ? 0
                                 : a->meta.clock_seconds,
            .final_status =
                over ? (json_is_true(json_object_get(result, "aborted"))
                            ? "aborted"
                            : "finished")
                     : NULL,
            .result = result,
            .final_hash = over ? final_hash : NULL,
        };
        rc = store_append_input(c, &ap);
        json_decref(response);
        json_decref(result);
        json_decref(bot_payload);
        if (rc == STORE_ECONFLICT) {
            metrics_count("conclave_append_conflicts_total",
                          "Appends refused because the version moved on.", 1);
            engine_free(g);
            if (rq->idem_key[0] && idempotent_answer(a, c, rq, r))
                return;
            if (catch_up(A, a, c) != 0) {
                reply_set(r, SRV_UNAVAILABLE, NULL, "the game could not be reloaded");
                return;
            }
            continue;
        }
        if (rc != STORE_OK) {
            engine_free(g);
            reply_set(r, SRV_UNAVAILABLE, NULL,
                      "the database is unreachable; the input was not "
                      "accepted, retry shortly");
            return;
        }
        commit_state(a, g, a->version + 1);
        metrics_count("conclave_inputs_total", "Inputs committed.", 1);
        if (ap.clock_seconds)
            refresh_deadlines(a, c);
        reply_set(r, SRV_OK, NULL, NULL);
        r->version = a->version;
        if (in.kind == ENGINE_ORDER) {
            r->has_receipt = 1;
            r->receipt = receipt;
        }
        maybe_snapshot(A, a, c);
        publish(A, a);
        schedule_bots(A, a);
        return;
    }
    reply_set(r, SRV_UNAVAILABLE, NULL, "the game is busy; retry shortly");
}

static void process(actors *A, actor *a, msg *m)
{
    actor_reply local = {0}, *r = m->w ? m->w->reply : &local;
    PGconn *c = db_acquire(A->app->db, DB_WAIT_MS);
    if (!c) {
        reply_set(r, SRV_UNAVAILABLE, NULL, "the database is unreachable; retry shortly");
    } else {
        int was_loaded = a->loaded == 1;
        if (ensure_loaded(a, c, r) == 0) {
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
            }
            if (!was_loaded)
                schedule_bots(A, a);
        }
        db_release(A->app->db, c, db_conn_broken(c));
    }
    if (!m->w && r->kind != SRV_OK && m->kind != MSG_CATCHUP)
        log_info("queued_input_refused",
                 json_pack("{ss ss ss}", "game", a->id, "kind",
                           srv_kind_name(r->kind),
                           "detail", r->detail));
    if (m->w) {
        pthread_mutex_lock(&m->w->m);
        m->w->done = 1;
        pthread_cond_signal(&m->w->cv);
        pthread_mutex_unlock(&m->w->m);
    } else {
        json_decref(local.stored);
    }
    msg_free(m);
    actor_put(A, a);
}

static void *worker_main(void *arg)
{
    actors *A = arg;
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
    A->nworkers = a->cfg->workers;
    A->workers = calloc((size_t)A->nworkers, sizeof *A->workers);
    if (!A->workers) {
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

/* Queue a message for id and, with w, wait for it. */
static int send_msg(actors *A, const char *id, msg_kind kind,
                    const actor_request *rq, json_t *payload_owned,
                    actor_reply *out)
{
    actor *a = actor_get(A, id);
    if (!a) {
        json_decref(payload_owned);
        if (out)
            reply_set(out, SRV_NOT_FOUND, NULL, "no such game");
        return -1;
    }
    msg *m = calloc(1, sizeof *m);
    if (!m) {
        json_decref(payload_owned);
        actor_put(A, a);
        if (out)
            reply_set(out, SRV_UNAVAILABLE, NULL, "out of memory");
        return -1;
    }
    m->kind = kind;
    if (rq)
        m->rq = *rq;
    m->rq.payload = payload_owned;
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
    return 0;
}

int actors_submit(actors *A, const char *game_id, const actor_request *rq,
                  actor_reply *out)
{
    memset(out, 0, sizeof *out);
    return send_msg(A, game_id, MSG_INPUT, rq, json_incref(rq->payload), out);
}

void actors_post(actors *A, const char *game_id, actor_request *rq)
{
    json_t *payload = rq->payload;
    rq->payload = NULL;
    send_msg(A, game_id, MSG_INPUT, rq, payload, NULL);
}

srv_kind actors_load(actors *A, const char *game_id)
{
    actor_reply r = {0};
    send_msg(A, game_id, MSG_LOAD, NULL, NULL, &r);
    json_decref(r.stored);
    return r.kind;
}

srv_kind actors_read(actors *A, const char *game_id, actor_read_fn fn,
                     void *ctx)
{
    actor *a = actor_get(A, game_id);
    if (!a)
        return 404;
    pthread_mutex_lock(&a->lock);
    int loaded = a->loaded;
    pthread_mutex_unlock(&a->lock);
    if (loaded != 1) {
        actor_reply r = {0};
        send_msg(A, game_id, MSG_LOAD, NULL, NULL, &r);
        json_decref(r.stored);
        if (r.kind != SRV_OK) {
            actor_put(A, a);
            return r.kind == SRV_NOT_FOUND ? SRV_NOT_FOUND : SRV_UNAVAILABLE;
        }
    }
    srv_kind status = SRV_OK;
    pthread_mutex_lock(&a->lock);
    if (a->loaded == 1 && a->game) {
        actor_view v = {a->game, &a->meta, a->version, a->deadlines};
        fn(&v, ctx);
    } else {
        status = a->loaded == -1 ? SRV_NOT_FOUND : SRV_UNAVAILABLE;
    }
    pthread_mutex_unlock(&a->lock);
    actor_put(A, a);
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
    pthread_mutex_lock(&a->lock);
    int behind = a->loaded == 1 && a->version < version;
    pthread_mutex_unlock(&a->lock);
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

void actors_evict_idle(actors *A)
{
    double cutoff = now_s() - A->app->cfg->idle_evict_seconds;
    pthread_mutex_lock(&A->map_lock);
    for (int b = 0; b < MAP_BUCKETS; b++) {
        actor **link = &A->buckets[b];
        while (*link) {
            actor *a = *link;
            int idle = 0;
            if (a->refs == 0 && a->pins == 0 && a->last_used < cutoff) {
                pthread_mutex_lock(&a->lock);
                idle = !a->scheduled && !a->head;
                pthread_mutex_unlock(&a->lock);
            }
            if (idle) {
                *link = a->next_map;
                A->count--;
                actor_free(a);
            } else {
                link = &a->next_map;
            }
        }
    }
    int count = A->count;
    pthread_mutex_unlock(&A->map_lock);
    metrics_gauge("conclave_games_in_memory", "Games held in memory.", count);
}

void actors_pin(actors *A, const char *game_id, int delta)
{
    actor *a = actor_get(A, game_id);
    if (!a)
        return;
    pthread_mutex_lock(&A->map_lock);
    a->pins += delta;
    if (a->pins < 0)
        a->pins = 0;
    pthread_mutex_unlock(&A->map_lock);
    actor_put(A, a);
}

int actors_count(actors *A)
{
    pthread_mutex_lock(&A->map_lock);
    int n = A->count;
    pthread_mutex_unlock(&A->map_lock);
    return n;
}

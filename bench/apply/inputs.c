/*
 * inputs.c - the apply path's throughput on a big state: `make bench-apply`.
 *
 * Starts an actor system (the server's, without HTTP) on a fresh database of
 * the private PostgreSQL cluster, creates one game of the test-only ruleset
 * "bulk" (tests/rules/bulk.c: a state that is a tree of heap objects, like a
 * galaxy game's) and submits inputs to it one after another, as players
 * would, first alone and then with reader threads calling actors_read in a
 * loop (what HTTP reads and the WebSocket hub do). Prints the saved state's
 * size, what one copy of the game costs, inputs/s, and how long readers
 * waited for the game.
 *
 *   DATABASE_URL=... apply_inputs [units] [inputs] [readers]
 *
 * Defaults: 1500 units (~150 KiB saved), 2000 inputs, 2 readers. The
 * server's defaults apply otherwise (snapshot every 50 inputs; CONCLAVE_*
 * variables change them).
 */
#include "engine/engine.h"
#include "server/game/actor.h"
#include "server/runtime/config.h"
#include "server/runtime/log.h"
#include "server/store/db.h"
#include "server/store/migrate.h"
#include "server/store/store.h"
#include "tests/rules/test_rules.h"

#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The p-th percentile (0..100) of n samples, sorting them. */
static double pct(double *v, size_t n, double p)
{
    if (!n)
        return 0;
    qsort(v, n, sizeof *v, cmp_double);
    size_t i = (size_t)(p / 100.0 * (double)(n - 1) + 0.5);
    return v[i < n ? i : n - 1];
}

typedef struct bench {
    app app;
    config cfg;
    char id[STORE_ID_MAX];
    char dbname[64];
    volatile int stop;
    int readers;
    long reads;
    double *waits; /* reader wait per read, ms */
    size_t nwaits, capwaits;
    pthread_mutex_t lock;
} bench;

/* ---- the game's cost in memory ---- */

typedef struct sizes {
    size_t saved_bytes;
    double clone_ms;
    long copy_kib; /* heap one more copy of the game takes */
} sizes;

/* Bytes malloc has handed out and not had back, KiB. */
static long heap_kib(void)
{
    struct mallinfo2 mi = mallinfo2();
    return (long)(mi.uordblks / 1024);
}

static void measure_fn(const actor_view *v, void *ctx)
{
    sizes *s = ctx;
    json_t *saved = engine_save(v->game);
    char *text = saved ? json_dumps(saved, JSON_COMPACT) : NULL;
    s->saved_bytes = text ? strlen(text) : 0;
    free(text);
    json_decref(saved);
    long before = heap_kib();
    engine_game *copy = engine_clone(v->game);
    s->copy_kib = heap_kib() - before;
    engine_free(copy);
    double t0 = now_ms();
    for (int i = 0; i < 20; i++)
        engine_free(engine_clone(v->game));
    s->clone_ms = (now_ms() - t0) / 20;
}

/* ---- readers ---- */

static void version_fn(const actor_view *v, void *ctx)
{
    *(uint64_t *)ctx = v->version;
}

static void *reader_main(void *arg)
{
    bench *b = arg;
    while (!b->stop) {
        uint64_t version = 0;
        double t0 = now_ms();
        actors_read(b->app.actors, b->id, version_fn, &version);
        double ms = now_ms() - t0;
        pthread_mutex_lock(&b->lock);
        if (b->nwaits == b->capwaits) {
            size_t cap = b->capwaits ? 2 * b->capwaits : 4096;
            double *grown = realloc(b->waits, cap * sizeof *grown);
            if (grown) {
                b->waits = grown;
                b->capwaits = cap;
            }
        }
        if (b->nwaits < b->capwaits)
            b->waits[b->nwaits++] = ms;
        b->reads++;
        pthread_mutex_unlock(&b->lock);
        usleep(200); /* a reader renders something between reads */
    }
    return NULL;
}

/* ---- the writer ---- */

/* Submit n inputs; returns inputs/s, or -1 when one was refused. */
static double run_inputs(bench *b, int n, int units, uint64_t *version,
                         double *p50, double *p99)
{
    *p50 = *p99 = 0;
    double *lat = calloc((size_t)n, sizeof *lat);
    double t0 = now_ms();
    for (int i = 0; i < n; i++) {
        json_t *play =
            json_pack("{s:i, s:i}", "unit", (int)(*version % (uint64_t)units),
                      "dx", (int)(*version % 2) ? 1 : -1);
        actor_request rq = {.seat = (int)(*version % 2),
                            .kind = ENGINE_PLAY,
                            .payload = play,
                            .if_match = -1};
        snprintf(rq.window, sizeof rq.window, "t%llu",
                 (unsigned long long)*version);
        actor_reply r;
        double s = now_ms();
        actors_submit(b->app.actors, b->id, &rq, &r);
        lat[i] = now_ms() - s;
        json_decref(play);
        json_decref(r.stored);
        if (r.kind != SRV_OK) {
            fprintf(stderr, "input %d refused: %s %s\n", i,
                    srv_kind_name(r.kind), r.detail);
            free(lat);
            return -1;
        }
        *version = r.version;
    }
    double secs = (now_ms() - t0) / 1e3;
    *p50 = pct(lat, (size_t)n, 50);
    *p99 = pct(lat, (size_t)n, 99);
    free(lat);
    return n / secs;
}

/* CPU seconds this process has used (every thread). */
static double cpu_s(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/* ---- set-up ---- */

/* A fresh database for this run; its URL into b->cfg. */
static int fresh_database(bench *b, const char *base)
{
    char err[256];
    const char *name = b->dbname;
    snprintf(b->dbname, sizeof b->dbname, "conclave_bench_%ld_%d",
             (long)time(NULL), (int)getpid());
    PGconn *c = db_connect(base, 5, err, sizeof err);
    if (!c) {
        fprintf(stderr, "cannot connect: %s\n", err);
        return -1;
    }
    int made = db_scratch_database(c, name, 1);
    PQfinish(c);
    if (made != 0) {
        fprintf(stderr, "cannot create the database %s\n", name);
        return -1;
    }
    snprintf(b->cfg.database_url, sizeof b->cfg.database_url,
             "%.900s%cdbname=%.60s", base, strchr(base, '?') ? '&' : '?', name);
    PGconn *t = db_connect(b->cfg.database_url, 5, err, sizeof err);
    const char *dir = getenv("CONCLAVE_SQL_DIR");
    int rc = t ? migrate_apply(t, dir ? dir : "sql", err, sizeof err) : -1;
    if (t)
        PQfinish(t);
    if (rc < 0)
        fprintf(stderr, "cannot prepare the database: %s\n", err);
    return rc < 0 ? -1 : 0;
}

static int create_game(bench *b, int units)
{
    store_game g;
    memset(&g, 0, sizeof g);
    store_new_id(g.game_id);
    snprintf(g.ruleset, sizeof g.ruleset, "bulk");
    g.options = json_pack("{s:i}", "units", units);
    g.seats = 2;
    for (int i = 0; i < ENGINE_SEED_BYTES; i++)
        g.seed[i] = (uint8_t)i;
    uint8_t h[32];
    engine_sha256(g.seed, sizeof g.seed, h);
    engine_hex(h, sizeof h, g.seed_sha256);
    snprintf(g.clock_mode, sizeof g.clock_mode, "none");
    char err[256];
    PGconn *c = db_connect(b->cfg.database_url, 5, err, sizeof err);
    int rc = c ? store_create_game(c, &g) : -1;
    if (c)
        PQfinish(c);
    snprintf(b->id, sizeof b->id, "%s", g.game_id);
    store_game_clear(&g);
    return rc;
}

int main(int argc, char **argv)
{
    int units = argc > 1 ? atoi(argv[1]) : 1500;
    int inputs = argc > 2 ? atoi(argv[2]) : 2000;
    int readers = argc > 3 ? atoi(argv[3]) : 2;
    const char *base = getenv("DATABASE_URL");
    static bench b;
    char err[256];
    engine_error eerr;
    if (!base || units < 1 || inputs < 1 || readers < 0 || readers > 64) {
        fprintf(stderr,
                "usage: DATABASE_URL=... %s [units] [inputs] "
                "[readers]\n",
                argv[0]);
        return 2;
    }
    log_set_level(LOG_ERROR);
    if (test_rules_register() != 0 || engine_init(&eerr) != 0)
        return 1;
    config_from_env(&b.cfg, err, sizeof err);
    if (fresh_database(&b, base) != 0)
        return 1;
    pthread_mutex_init(&b.lock, NULL);
    b.app.cfg = &b.cfg;
    b.app.db = db_pool_create(b.cfg.database_url, b.cfg.db_pool, 3);
    b.app.actors = actors_start(&b.app, err, sizeof err);
    if (!b.app.actors || create_game(&b, units) != 0) {
        fprintf(stderr, "cannot start: %s\n", err);
        return 1;
    }
    sizes sz = {0};
    actors_read(b.app.actors, b.id, measure_fn, &sz);
    uint64_t version = 0;
    double p50, p99, p50r, p99r;
    double cpu0 = cpu_s();
    double alone = run_inputs(&b, inputs, units, &version, &p50, &p99);
    double cpu_us = (cpu_s() - cpu0) * 1e6 / inputs;

    pthread_t th[64];
    for (int i = 0; i < readers; i++)
        pthread_create(&th[i], NULL, reader_main, &b);
    double t0 = now_ms();
    double shared = run_inputs(&b, inputs, units, &version, &p50r, &p99r);
    double secs = (now_ms() - t0) / 1e3;
    b.stop = 1;
    for (int i = 0; i < readers; i++)
        pthread_join(th[i], NULL);
    double wait50 = pct(b.waits, b.nwaits, 50),
           wait99 = pct(b.waits, b.nwaits, 99),
           waitmax = b.nwaits ? b.waits[b.nwaits - 1] : 0;

    printf("units %d, saved state %.1f KiB, one engine_clone %.3f ms, "
           "%ld KiB of heap\n",
           units, (double)sz.saved_bytes / 1024, sz.clone_ms, sz.copy_kib);
    printf("snapshot every %d inputs, %d workers\n", b.cfg.snapshot_every,
           b.cfg.workers);
    printf("alone:        %.0f inputs/s (latency p50 %.3f ms, p99 %.3f ms), "
           "%.0f us CPU per input\n",
           alone, p50, p99, cpu_us);
    printf("%d readers:    %.0f inputs/s (latency p50 %.3f ms, p99 %.3f ms)\n",
           readers, shared, p50r, p99r);
    if (readers)
        printf("reader wait:  p50 %.3f ms, p99 %.3f ms, max %.3f ms "
               "(%.0f reads/s)\n",
               wait50, wait99, waitmax, (double)b.reads / secs);
    actors_stop(b.app.actors);
    db_pool_destroy(b.app.db);
    free(b.waits);
    PGconn *c = db_connect(base, 5, err, sizeof err);
    if (c) {
        db_scratch_database(c, b.dbname, 0);
        PQfinish(c);
    }
    return alone > 0 && shared > 0 ? 0 : 1;
}

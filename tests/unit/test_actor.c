/*
 * test_actor.c - the event store and game actors against the real Postgres
 * (DATABASE_URL, a fresh database per run). Two actor systems in one test
 * process stand for two server processes sharing one database: each has
 * its own connection pool, memory, LISTEN thread and deadline scheduler.
 *
 * Covers: snapshot + inputs equals replay from scratch; two systems applying
 * to the same games concurrently (gapless versions, nothing applied twice,
 * identical final hashes); deadlines fire exactly once with two schedulers;
 * overdue deadlines fire after a restart; idle games leave memory (unless
 * pinned by subscribers) and reload unchanged; the group commit refuses
 * only the stale appends of a batch and answers none before its commit.
 */
#include "engine/engine.h"
#include "server/game/actor.h"
#include "server/game/scheduler.h"
#include "server/runtime/log.h"
#include "server/runtime/metrics.h"
#include "server/store/commit.h"
#include "server/store/listener.h"
#include "server/store/migrate.h"
#include "server/store/store.h"
#include "tests/rules/test_rules.h"
#include "tests/unit/test.h"
#include "tests/unit/test_db.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static test_db scratch; /* the scratch database; scratch.url */
static int quick;

typedef struct sys {
    config cfg;
    app app;
    listener *listen;
    scheduler *sched;
} sys;

static PGconn *admin(void)
{
    char err[256];
    PGconn *c = db_connect(scratch.url, 5, err, sizeof err);
    if (!c)
        fprintf(stderr, "cannot connect: %s\n", err);
    return c;
}

enum { WITH_SCHEDULER = 1, DEAF = 2, ONE_CONNECTION = 4 };

/* An actor system; flags: WITH_SCHEDULER fires deadlines, DEAF has no
 * LISTEN thread (it learns of other processes' inputs only on a version
 * conflict), ONE_CONNECTION has a pool of one. */
static void sys_start_with(sys *s, int flags)
{
    char err[256];
    memset(s, 0, sizeof *s);
    config_from_env(&s->cfg, err, sizeof err);
    snprintf(s->cfg.database_url, sizeof s->cfg.database_url, "%s",
             scratch.url);
    s->cfg.snapshot_every = 3;
    s->cfg.workers = 3;
    s->cfg.db_pool = flags & ONE_CONNECTION ? 1 : 4;
    s->app.cfg = &s->cfg;
    s->app.db = db_pool_create(scratch.url, s->cfg.db_pool, 3);
    s->app.actors = actors_start(&s->app, err, sizeof err);
    if (!(flags & DEAF))
        s->listen = listener_start(&s->app, s->app.actors, err, sizeof err);
    if (flags & WITH_SCHEDULER)
        s->sched = scheduler_start(&s->app, s->app.actors, err, sizeof err);
}

static void sys_start(sys *s, int with_scheduler)
{
    sys_start_with(s, with_scheduler ? WITH_SCHEDULER : 0);
}

static void sys_stop(sys *s)
{
    scheduler_stop(s->sched);
    listener_stop(s->listen);
    actors_stop(s->app.actors);
    db_pool_destroy(s->app.db);
}

/* A new game row, with a "random" bot in each seat of bot_seats (a
 * bitmask); returns 0 and fills id. */
static int new_game_bots(const char *ruleset, const char *options, int seats,
                         const char *clock_mode, int clock_seconds, int n,
                         unsigned bot_seats, char *id)
{
    store_game g;
    memset(&g, 0, sizeof g);
    store_new_id(g.game_id);
    snprintf(g.ruleset, sizeof g.ruleset, "%s", ruleset);
    g.options = json_loads(options, 0, NULL);
    g.seats = seats;
    for (int i = 0; i < ENGINE_SEED_BYTES; i++)
        g.seed[i] = (uint8_t)(n * 31 + i);
    uint8_t h[32];
    engine_sha256(g.seed, sizeof g.seed, h);
    engine_hex(h, sizeof h, g.seed_sha256);
    snprintf(g.clock_mode, sizeof g.clock_mode, "%s", clock_mode);
    g.clock_seconds = clock_seconds;
    for (int s = 0; s < seats; s++)
        if (bot_seats >> s & 1)
            snprintf(g.seat_bot[s], sizeof g.seat_bot[s], "random");
    PGconn *c = admin();
    int rc = c ? store_create_game(c, &g) : -1;
    if (c)
        PQfinish(c);
    snprintf(id, STORE_ID_MAX, "%s", g.game_id);
    store_game_clear(&g);
    return rc;
}

static int new_game(const char *ruleset, const char *options, int seats,
                    const char *clock_mode, int clock_seconds, int n, char *id)
{
    return new_game_bots(ruleset, options, seats, clock_mode, clock_seconds, n,
                         0, id);
}

/* ---- reading a game through an actor system ---- */

/* Readers that saw a game whose applied inputs differ from its committed
 * version: an input the store had not (yet) taken. */
static int uncommitted_seen;

typedef struct peek {
    int seat;
    engine_rng *rng;
    int over;
    uint64_t version;
    uint8_t hash[32];
    int has_action;
    engine_input action;
    char window[ENGINE_WINDOW_ID_MAX];
} peek;

static void peek_fn(const actor_view *v, void *ctx)
{
    peek *p = ctx;
    p->over = engine_is_over(v->game);
    p->version = v->version;
    if (engine_game_inputs(v->game) != v->version)
        __atomic_store_n(&uncommitted_seen, 1, __ATOMIC_RELAXED);
    engine_hash(v->game, p->hash);
    p->has_action = 0;
    if (p->seat < 0 || p->over)
        return;
    int n;
    engine_window *w = engine_windows_all(v->game, &n);
    int waiting = 0;
    for (int i = 0; i < n; i++)
        if ((w[i].seats & ~w[i].submitted) >> p->seat & 1)
            waiting = 1;
    free(w);
    if (!waiting)
        return;
    engine_error err;
    if (engine_bot_action(v->game, p->seat, "random", p->rng, &p->action,
                          &err) == 0) {
        p->has_action = 1;
        snprintf(p->window, sizeof p->window, "%s", p->action.window);
    }
}

/* Replay a game from scratch out of the store; its hash into out. */
static int replay_from_store(const char *id, uint8_t out[32], uint64_t *version)
{
    PGconn *c = admin();
    store_game g;
    store_input *in = NULL;
    size_t n = 0;
    int rc = -1;
    if (!c || store_load_game(c, id, &g) != 0)
        goto done;
    engine_error err;
    engine_game *game =
        engine_create(g.ruleset, g.game_id, g.options, g.seats, g.seed, &err);
    if (game && store_load_inputs(c, id, 0, &in, &n) == 0) {
        rc = 0;
        for (size_t i = 0; i < n && rc == 0; i++) {
            engine_input e = {.seat = in[i].seat,
                              .kind = in[i].kind,
                              .window = in[i].window[0] ? in[i].window : NULL,
                              .payload = in[i].payload};
            memcpy(e.nonce, in[i].nonce, sizeof e.nonce);
            rc = engine_apply(game, &e, NULL, &err);
            if (rc)
                fprintf(stderr, "replay of input %zu refused: %s\n", i,
                        err.msg);
        }
        engine_hash(game, out);
        *version = n;
    }
    store_inputs_free(in, n);
    engine_free(game);
    store_game_clear(&g);
done:
    if (c)
        PQfinish(c);
    return rc;
}

static long count_rows(const char *sql, const char *p1)
{
    PGconn *c = admin();
    if (!c)
        return -1;
    const char *params[] = {p1};
    PGresult *r = PQexecParams(c, sql, p1 ? 1 : 0, NULL, params, NULL, NULL, 0);
    long v = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1
                 ? atol(PQgetvalue(r, 0, 0))
                 : -1;
    PQclear(r);
    PQfinish(c);
    return v;
}

/* Play seat's moves in game through sys until the game ends. */
static int play_seat(sys *s, const char *id, int seat, engine_rng *rng,
                     int *refused)
{
    for (int step = 0; step < 10000; step++) {
        peek p = {.seat = seat, .rng = rng};
        if (actors_read(s->app.actors, id, peek_fn, &p) != 0)
            return -1;
        if (p.over)
            return 0;
        if (!p.has_action) {
            usleep(2000);
            continue;
        }
        actor_request rq = {.seat = seat,
                            .kind = p.action.kind,
                            .payload = (json_t *)p.action.payload,
                            .if_match = -1};
        snprintf(rq.window, sizeof rq.window, "%s", p.window);
        actor_reply r;
        actors_submit(s->app.actors, id, &rq, &r);
        json_decref((json_t *)p.action.payload);
        json_decref(r.stored);
        if (r.kind != SRV_OK)
            (*refused)++; /* a stale read: the window moved on meanwhile */
        if (r.kind == SRV_UNAVAILABLE)
            return -1;
    }
    return -1;
}

static void test_snapshot_equals_replay(void)
{
    sys a;
    sys_start(&a, 0);
    char id[STORE_ID_MAX];
    REQUIRE(new_game("tictactoe", "{}", 2, "none", 0, 1, id) == 0);
    engine_rng rng;
    uint8_t key[32] = {7};
    engine_rng_init(&rng, key, 1);
    /* Alternate seats until the game ends. */
    int refused = 0;
    for (int turn = 0; turn < 9; turn++) {
        peek p0 = {.seat = 0, .rng = &rng}, p1 = {.seat = 1, .rng = &rng};
        actors_read(a.app.actors, id, peek_fn, &p0);
        if (p0.over)
            break;
        peek *p = p0.has_action ? &p0 : &p1;
        if (!p0.has_action)
            actors_read(a.app.actors, id, peek_fn, &p1);
        REQUIRE(p->has_action);
        actor_request rq = {.seat = p->seat,
                            .kind = p->action.kind,
                            .payload = (json_t *)p->action.payload,
                            .if_match = -1};
        snprintf(rq.window, sizeof rq.window, "%s", p->window);
        actor_reply r;
        actors_submit(a.app.actors, id, &rq, &r);
        json_decref((json_t *)p->action.payload);
        CHECK_EQ_INT(r.kind, SRV_OK);
        if (r.kind != SRV_OK)
            refused++;
    }
    CHECK_EQ_INT(refused, 0);
    peek live = {.seat = -1};
    actors_read(a.app.actors, id, peek_fn, &live);
    sys_stop(&a);
    CHECK(count_rows("SELECT count(*) FROM game_snapshots WHERE game_id = $1",
                     id) >= 1);

    /* A fresh system loads snapshot + inputs; compare with full replay. */
    sys b;
    sys_start(&b, 0);
    peek loaded = {.seat = -1};
    CHECK_EQ_INT(actors_read(b.app.actors, id, peek_fn, &loaded), 0);
    sys_stop(&b);
    uint8_t replayed[32];
    uint64_t version = 0;
    CHECK_EQ_INT(replay_from_store(id, replayed, &version), 0);
    CHECK_EQ_INT(loaded.version, live.version);
    CHECK_EQ_INT(version, live.version);
    CHECK(memcmp(loaded.hash, live.hash, 32) == 0);
    CHECK(memcmp(replayed, live.hash, 32) == 0);
    CHECK(live.over);
    CHECK_EQ_INT(count_rows("SELECT count(*) FROM games WHERE game_id = $1 "
                            "AND status = 'finished' AND final_hash IS NOT "
                            "NULL",
                            id),
                 1);
}

typedef struct player_job {
    sys *s;
    char (*ids)[STORE_ID_MAX];
    int ngames;
    int seat;
    int failed;
    int refused;
} player_job;

static void *player_thread(void *arg)
{
    player_job *j = arg;
    engine_rng rng;
    uint8_t key[32] = {(uint8_t)(j->seat + 40)};
    engine_rng_init(&rng, key, 2);
    for (int g = 0; g < j->ngames; g++)
        if (play_seat(j->s, j->ids[g], j->seat, &rng, &j->refused) != 0)
            j->failed++;
    return NULL;
}

static void test_two_systems_share_games(void)
{
    sys x, y;
    sys_start(&x, 0);
    sys_start(&y, 0);
    int ngames = quick ? 6 : 20;
    char(*ids)[STORE_ID_MAX] = calloc((size_t)ngames, STORE_ID_MAX);
    for (int i = 0; i < ngames; i++)
        REQUIRE(new_game(i % 2 ? "tictactoe" : "rps",
                         i % 2 ? "{}" : "{\"rounds\":5}", 2, "none", 0, 100 + i,
                         ids[i]) == 0);
    /* Seat 0 plays through x, seat 1 through y: every game is advanced by
     * both systems, so appends conflict and catch-ups happen. */
    player_job j0 = {&x, ids, ngames, 0, 0, 0};
    player_job j1 = {&y, ids, ngames, 1, 0, 0};
    pthread_t t0, t1;
    pthread_create(&t0, NULL, player_thread, &j0);
    pthread_create(&t1, NULL, player_thread, &j1);
    pthread_join(t0, NULL);
    pthread_join(t1, NULL);
    CHECK_EQ_INT(j0.failed, 0);
    CHECK_EQ_INT(j1.failed, 0);
    for (int i = 0; i < ngames; i++) {
        uint8_t replayed[32];
        uint64_t version = 0;
        CHECK_EQ_INT(replay_from_store(ids[i], replayed, &version), 0);
        /* Versions are gapless: seq runs 1..version without holes. */
        CHECK_EQ_INT(count_rows("SELECT count(*) FROM game_inputs g JOIN "
                                "games USING (game_id) WHERE game_id = $1 "
                                "AND seq BETWEEN 1 AND games.version",
                                ids[i]),
                     (long)version);
        CHECK_EQ_INT(
            count_rows("SELECT version FROM games WHERE game_id = $1", ids[i]),
            (long)version);
        /* Nothing applied twice: one input per (window, seat). */
        CHECK_EQ_INT(count_rows("SELECT count(*) FROM (SELECT window_id, seat "
                                "FROM game_inputs WHERE game_id = $1 GROUP "
                                "BY window_id, seat HAVING count(*) > 1) d",
                                ids[i]),
                     0);
        /* Both systems end with the same state as the replay. */
        peek px = {.seat = -1}, py = {.seat = -1};
        for (int tries = 0; tries < 200; tries++) {
            actors_read(x.app.actors, ids[i], peek_fn, &px);
            actors_read(y.app.actors, ids[i], peek_fn, &py);
            if (px.version == version && py.version == version)
                break;
            usleep(10000);
        }
        CHECK(px.over && py.over);
        CHECK(memcmp(px.hash, replayed, 32) == 0);
        CHECK(memcmp(py.hash, replayed, 32) == 0);
    }
    /* The two systems really did interleave: copies fell behind and
     * caught up from the store. */
    char *m = metrics_render();
    const char *line = m ? strstr(m, "\nconclave_catch_ups_total ") : NULL;
    double catch_ups = line ? atof(line + 26) : 0;
    CHECKF(catch_ups > 0, "no catch-ups: the systems never interleaved");
    free(m);
    fprintf(stderr, "  %d games, %.0f catch-ups, %d + %d stale moves refused\n",
            ngames, catch_ups, j0.refused, j1.refused);
    free(ids);
    sys_stop(&x);
    sys_stop(&y);
}

static void test_deadlines_fire_once(void)
{
    int ngames = quick ? 40 : 200;
    char(*ids)[STORE_ID_MAX] = calloc((size_t)ngames, STORE_ID_MAX);
    sys x, y;
    sys_start(&x, 1);
    sys_start(&y, 1);
    for (int i = 0; i < ngames; i++) {
        REQUIRE(new_game("rps", "{\"rounds\":2}", 2, "live", 1, 500 + i,
                         ids[i]) == 0);
        peek p = {.seat = -1}; /* loading opens the first deadline */
        actors_read(i % 2 ? x.app.actors : y.app.actors, ids[i], peek_fn, &p);
    }
    /* Nobody plays: every window times out, two rounds, then the end
     * (polled; 60 s only catches a hang). */
    long finished = 0;
    for (int waited = 0; waited < 600; waited++) {
        finished = count_rows("SELECT count(*) FROM games WHERE ruleset = "
                              "'rps' AND clock_mode = 'live' AND status = "
                              "'finished'",
                              NULL);
        if (finished == ngames)
            break;
        usleep(100000);
    }
    CHECK_EQ_INT(finished, ngames);
    CHECK_EQ_INT(count_rows("SELECT count(*) FROM (SELECT game_id, window_id "
                            "FROM game_inputs WHERE kind = 'timeout' GROUP BY "
                            "game_id, window_id HAVING count(*) <> 1) d",
                            NULL),
                 0);
    CHECK_EQ_INT(count_rows("SELECT count(*) FROM game_inputs g JOIN games "
                            "USING (game_id) WHERE kind = 'timeout' AND "
                            "clock_mode = 'live'",
                            NULL),
                 2L * ngames);
    CHECK_EQ_INT(count_rows("SELECT count(*) FROM deadlines", NULL), 0);
    sys_stop(&x);
    sys_stop(&y);
    free(ids);
}

static void test_overdue_deadlines_fire_after_restart(void)
{
    char id[STORE_ID_MAX];
    REQUIRE(new_game("rps", "{\"rounds\":1}", 2, "live", 1, 900, id) == 0);
    sys x;
    sys_start(&x, 0); /* no scheduler: this "process" dies before firing */
    peek p = {.seat = -1};
    actors_read(x.app.actors, id, peek_fn, &p);
    sys_stop(&x);
    CHECK_EQ_INT(count_rows("SELECT count(*) FROM deadlines WHERE game_id = "
                            "$1",
                            id),
                 1);
    sleep(2); /* now overdue */
    sys z;
    sys_start(&z, 1);
    long status = 0;
    for (int waited = 0; waited < 300 && status != 1; waited++) { /* 30 s */
        usleep(100000);
        status = count_rows("SELECT count(*) FROM games WHERE game_id = $1 "
                            "AND status = 'finished'",
                            id);
    }
    CHECK_EQ_INT(status, 1);
    sys_stop(&z);
}

/* conclave_unknown_game_ids_total as /metrics shows it (0 when absent). */
static double unknown_ids_counted(void)
{
    char *text = metrics_render();
    const char *name = "\nconclave_unknown_game_ids_total ";
    const char *at = text ? strstr(text, name) : NULL;
    double v = at ? strtod(at + strlen(name), NULL) : 0;
    free(text);
    return v;
}

/* Wait (a second at most) for the worker that found a game missing to end
 * its turn and let the entry go. */
static void settle_count(actors *A, int want)
{
    for (int i = 0; i < 100 && actors_count(A) != want; i++)
        usleep(10000);
}

static void test_idle_games_leave_memory_and_come_back(void)
{
    char id[STORE_ID_MAX];
    REQUIRE(new_game("tictactoe", "{}", 2, "none", 0, 950, id) == 0);
    sys x;
    sys_start(&x, 0);
    x.cfg.idle_evict_seconds = 1;
    peek before = {.seat = -1};
    CHECK_EQ_INT(actors_read(x.app.actors, id, peek_fn, &before), 0);
    CHECK_EQ_INT(actors_count(x.app.actors), 1);
    /* A pinned game stays however idle it is. */
    actors_pin(x.app.actors, id, 1);
    sleep(2);
    actors_evict_idle(x.app.actors);
    CHECK_EQ_INT(actors_count(x.app.actors), 1);
    actors_pin(x.app.actors, id, -1);
    sleep(2);
    actors_evict_idle(x.app.actors);
    CHECK_EQ_INT(actors_count(x.app.actors), 0);
    /* Used again, it is reloaded from the store, unchanged. */
    peek after = {.seat = -1};
    CHECK_EQ_INT(actors_read(x.app.actors, id, peek_fn, &after), 0);
    CHECK_EQ_INT(after.version, before.version);
    CHECK(memcmp(after.hash, before.hash, 32) == 0);
    /* An unknown game is a 404 and leaves no entry behind; the same id
     * again is answered from the negative cache, without the store. */
    int held = actors_count(x.app.actors);
    CHECK_EQ_INT(actors_read(x.app.actors, "nosuchgame", peek_fn, &after),
                 SRV_NOT_FOUND);
    settle_count(x.app.actors, held);
    CHECK_EQ_INT(actors_count(x.app.actors), held);
    double asked = unknown_ids_counted();
    for (int i = 0; i < 50; i++)
        CHECK_EQ_INT(actors_read(x.app.actors, "nosuchgame", peek_fn, &after),
                     SRV_NOT_FOUND);
    CHECK(unknown_ids_counted() == asked);
    /* Many made-up ids: none stays, and none is pinned in place. */
    for (int i = 0; i < 200; i++) {
        char made_up[32];
        snprintf(made_up, sizeof made_up, "phantom%d", i);
        actors_pin(x.app.actors, made_up, 1);
        CHECK_EQ_INT(actors_read(x.app.actors, made_up, peek_fn, &after),
                     SRV_NOT_FOUND);
        actors_pin(x.app.actors, made_up, -1);
    }
    settle_count(x.app.actors, held);
    CHECK_EQ_INT(actors_count(x.app.actors), held);
    sys_stop(&x);
}

/* More windows open at once than any list was ever cut at (8 and 16):
 * every one gets its deadline row, and the bot seat acts in every window
 * that waits on it. */
static void test_many_windows_get_deadlines_and_bots(void)
{
    enum { WINDOWS = 40, BOT_WINDOWS = WINDOWS / 2 };
    char id[STORE_ID_MAX], sql_id[STORE_ID_MAX];
    REQUIRE(new_game_bots("manywin", "{\"windows\":40}", 2, "live", 3600, 1300,
                          2u, id) == 0);
    snprintf(sql_id, sizeof sql_id, "%s", id);
    sys x;
    sys_start(&x, 0); /* no scheduler: the hour-long clocks never run out */
    peek p = {.seat = -1}; /* loading opens the deadlines, starts the bot */
    CHECK_EQ_INT(actors_read(x.app.actors, id, peek_fn, &p), 0);
    long moves = 0;
    for (int waited = 0; waited < 200 && moves < BOT_WINDOWS; waited++) {
        usleep(50000);
        moves = count_rows("SELECT count(DISTINCT window_id) FROM game_inputs "
                           "WHERE game_id = $1 AND seat = 1",
                           sql_id);
    }
    usleep(200000); /* a bot that wrongly kept going would show now */
    CHECK_EQ_INT(count_rows("SELECT count(DISTINCT window_id) FROM "
                            "game_inputs WHERE game_id = $1 AND seat = 1",
                            sql_id),
                 BOT_WINDOWS);
    CHECK_EQ_INT(count_rows("SELECT count(*) FROM game_inputs WHERE game_id "
                            "= $1",
                            sql_id),
                 BOT_WINDOWS);
    /* Seat 0 has acted nowhere: all 40 windows are open, each with its
     * deadline, after loading and after every bot move's append. */
    CHECK_EQ_INT(count_rows("SELECT count(*) FROM deadlines WHERE game_id = "
                            "$1",
                            sql_id),
                 WINDOWS);
    peek after = {.seat = 0};
    engine_rng rng;
    uint8_t key[32] = {3};
    engine_rng_init(&rng, key, 1);
    after.rng = &rng;
    CHECK_EQ_INT(actors_read(x.app.actors, id, peek_fn, &after), 0);
    CHECK_EQ_INT(after.version, BOT_WINDOWS);
    if (after.has_action)
        json_decref((json_t *)after.action.payload);
    sys_stop(&x);
}

/* Run one statement without parameters on a fresh connection: 0 or -1. */
static int run_sql(const char *sql)
{
    PGconn *c = admin();
    if (!c)
        return -1;
    PGresult *r = PQexecParams(c, sql, 0, NULL, NULL, NULL, NULL, 0);
    int rc = PQresultStatus(r) == PGRES_COMMAND_OK ? 0 : -1;
    if (rc)
        fprintf(stderr, "%s: %s", sql, PQerrorMessage(c));
    PQclear(r);
    PQfinish(c);
    return rc;
}

static double metric(const char *name)
{
    char *m = metrics_render(), key[128];
    snprintf(key, sizeof key, "\n%s ", name);
    const char *line = m ? strstr(m, key) : NULL;
    double v = line ? atof(line + strlen(key)) : 0;
    free(m);
    return v;
}

/* Submit p's action as its seat; the reply's status (version into *v). */
static int submit_peeked(sys *s, const char *id, peek *p, uint64_t *v)
{
    actor_request rq = {.seat = p->seat,
                        .kind = p->action.kind,
                        .payload = (json_t *)p->action.payload,
                        .if_match = -1};
    snprintf(rq.window, sizeof rq.window, "%s", p->window);
    actor_reply r;
    actors_submit(s->app.actors, id, &rq, &r);
    json_decref(r.stored);
    if (v)
        *v = r.version;
    return r.kind;
}

/* The game as x holds it equals the store's (replayed from scratch) at
 * version want. */
static void check_as_stored(sys *x, const char *id, uint64_t want)
{
    peek held = {.seat = -1};
    uint8_t replayed[32];
    uint64_t version = 0;
    CHECK_EQ_INT(actors_read(x->app.actors, id, peek_fn, &held), 0);
    CHECK_EQ_INT(replay_from_store(id, replayed, &version), 0);
    CHECK_EQ_INT(version, want);
    CHECK_EQ_INT(held.version, want);
    CHECK(memcmp(held.hash, replayed, 32) == 0);
}

/* x holds a game that another process advances behind its back (x hears
 * no NOTIFY): x's next append conflicts. x must go back to what it had
 * committed, catch up, and apply the input once on top. */
static void test_version_conflict_restores_and_catches_up(void)
{
    char id[STORE_ID_MAX];
    REQUIRE(new_game("rps", "{\"rounds\":2}", 2, "none", 0, 1400, id) == 0);
    sys x, y;
    sys_start_with(&x, DEAF);
    sys_start_with(&y, DEAF);
    engine_rng rng;
    uint8_t key[32] = {9};
    engine_rng_init(&rng, key, 1);
    peek p0 = {.seat = 0, .rng = &rng}, p1 = {.seat = 1, .rng = &rng};
    CHECK_EQ_INT(actors_read(y.app.actors, id, peek_fn, &p0), 0);
    CHECK_EQ_INT(actors_read(x.app.actors, id, peek_fn, &p1), 0);
    REQUIRE(p0.has_action && p1.has_action);
    double conflicts = metric("conclave_append_conflicts_total");
    uint64_t v = 0;
    CHECK_EQ_INT(submit_peeked(&y, id, &p0, &v), SRV_OK); /* version 1 */
    CHECK_EQ_INT(v, 1);
    /* x is still at version 0, where seat 1's order is valid. */
    CHECK_EQ_INT(submit_peeked(&x, id, &p1, &v), SRV_OK);
    CHECK_EQ_INT(v, 2);
    CHECK(metric("conclave_append_conflicts_total") > conflicts);
    json_decref((json_t *)p0.action.payload);
    json_decref((json_t *)p1.action.payload);
    check_as_stored(&x, id, 2);
    CHECK_EQ_INT(count_rows("SELECT count(*) FROM game_inputs WHERE game_id "
                            "= $1 AND seat = 1",
                            id),
                 1);
    /* Both orders are in: the first round was revealed and a second one
     * is open, in x as in the store. */
    peek next = {.seat = 1, .rng = &rng};
    CHECK_EQ_INT(actors_read(x.app.actors, id, peek_fn, &next), 0);
    CHECK(next.has_action && strcmp(next.window, p1.window) != 0);
    if (next.has_action)
        json_decref((json_t *)next.action.payload);
    sys_stop(&x);
    sys_stop(&y);
}

/* The database connection dies under x and then its commit fails (a
 * trigger refuses every input row): the caller gets 503, and x still holds
 * exactly what was committed, so the same move made again is accepted
 * once. The appends go through the group commit's own connections, which
 * notice a closed idle connection and reconnect before they send; so the
 * commit's failure is the trigger's, and the dead connections are those
 * x must replace. */
static void test_failed_commit_leaves_committed_state(void)
{
    char id[STORE_ID_MAX];
    REQUIRE(new_game("tictactoe", "{}", 2, "none", 0, 1500, id) == 0);
    sys x;
    sys_start_with(&x, DEAF | ONE_CONNECTION);
    engine_rng rng;
    uint8_t key[32] = {11};
    engine_rng_init(&rng, key, 1);
    peek p0 = {.seat = 0, .rng = &rng};
    CHECK_EQ_INT(actors_read(x.app.actors, id, peek_fn, &p0), 0);
    REQUIRE(p0.has_action);
    /* Kill every other session of the test database: x's one pool
     * connection and its group-commit writers' connections, once the
     * sessions earlier tests closed have ended (polled, 10 s only catches
     * one left open). */
    for (int tries = 0;
         tries < 1000 &&
         count_rows("SELECT count(*) FROM pg_stat_activity WHERE datname = "
                    "current_database() AND pid <> pg_backend_pid()",
                    NULL) != 1 + x.cfg.commit_writers;
         tries++)
        usleep(10000);
    CHECK_EQ_INT(count_rows("SELECT count(pg_terminate_backend(pid)) FROM "
                            "pg_stat_activity WHERE datname = "
                            "current_database() AND pid <> pg_backend_pid()",
                            NULL),
                 1 + x.cfg.commit_writers);
    CHECK_EQ_INT(run_sql("CREATE FUNCTION refuse_inputs() RETURNS trigger "
                         "LANGUAGE plpgsql AS $$BEGIN RAISE EXCEPTION "
                         "'refused'; END$$"),
                 0);
    CHECK_EQ_INT(run_sql("CREATE TRIGGER refuse_inputs BEFORE INSERT ON "
                         "game_inputs FOR EACH ROW EXECUTE FUNCTION "
                         "refuse_inputs()"),
                 0);
    uint64_t v = 0;
    CHECK_EQ_INT(submit_peeked(&x, id, &p0, &v), SRV_UNAVAILABLE);
    check_as_stored(&x, id, 0);
    CHECK_EQ_INT(run_sql("DROP TRIGGER refuse_inputs ON game_inputs"), 0);
    CHECK_EQ_INT(run_sql("DROP FUNCTION refuse_inputs()"), 0);
    /* Seat 0 is still to move, and moves once. */
    CHECK_EQ_INT(submit_peeked(&x, id, &p0, &v), SRV_OK);
    CHECK_EQ_INT(v, 1);
    json_decref((json_t *)p0.action.payload);
    check_as_stored(&x, id, 1);
    sys_stop(&x);
}

/* ---- the group commit ---- */

/* An append of a bare input to game id at expected+1 (the store does not
 * check inputs against the rules); in is the input's storage. */
static void bare_append(store_append *ap, store_input *in, const char *id,
                        uint64_t expected, int clock_seconds)
{
    memset(in, 0, sizeof *in);
    in->seq = expected + 1;
    in->seat = 0;
    in->kind = ENGINE_PLAY;
    *ap = (store_append){.game_id = id,
                         .expected_version = expected,
                         .input = in,
                         .clock_seconds = clock_seconds};
}

static long game_version(const char *id)
{
    return count_rows("SELECT version FROM games WHERE game_id = $1", id);
}

static long game_input_rows(const char *id)
{
    return count_rows("SELECT count(*) FROM game_inputs WHERE game_id = $1",
                      id);
}

/* Five games' appends in one transaction, two with stale versions (one
 * pipelined, one with deadlines under a savepoint): only those two are
 * refused; the other three commit, each exactly once. */
static void test_batch_stale_version_refuses_only_its_game(void)
{
    char id[5][STORE_ID_MAX];
    for (int i = 0; i < 5; i++)
        REQUIRE(new_game("tictactoe", "{}", 2, i < 3 ? "none" : "live",
                         i < 3 ? 0 : 60, 1700 + i, id[i]) == 0);
    store_input in[5];
    store_append ap[5];
    bare_append(&ap[0], &in[0], id[0], 0, 0);
    bare_append(&ap[1], &in[1], id[1], 3, 0); /* stale: the game is at 0 */
    bare_append(&ap[2], &in[2], id[2], 0, 0);
    bare_append(&ap[3], &in[3], id[3], 0, 60);
    bare_append(&ap[4], &in[4], id[4], 7, 60); /* stale */
    const store_append *list[5] = {&ap[0], &ap[1], &ap[2], &ap[3], &ap[4]};
    int rcs[5] = {99, 99, 99, 99, 99};
    PGconn *c = admin();
    REQUIRE(c != NULL);
    CHECK_EQ_INT(store_append_batch(c, list, 5, rcs), STORE_OK);
    PQfinish(c);
    const int want[5] = {STORE_OK, STORE_ECONFLICT, STORE_OK, STORE_OK,
                         STORE_ECONFLICT};
    for (int i = 0; i < 5; i++) {
        CHECK_EQ_INT(rcs[i], want[i]);
        long committed = want[i] == STORE_OK;
        CHECK_EQ_INT(game_version(id[i]), committed);
        CHECK_EQ_INT(game_input_rows(id[i]), committed);
    }
}

/* Follow-ups ride in the batch's pipeline behind their appends: the
 * waits and deadlines of an append are written only when that append
 * happened. Two games are already at version 1 (another process's
 * append), so their stale appends' follow-ups would find the version they
 * expect: they must still write nothing. */
static void test_batch_follow_ups_only_for_their_appends(void)
{
    char id[4][STORE_ID_MAX];
    for (int i = 0; i < 4; i++)
        REQUIRE(new_game("tictactoe", "{}", 2, i < 2 ? "none" : "live",
                         i < 2 ? 0 : 60, 1800 + i, id[i]) == 0);
    PGconn *c = admin();
    REQUIRE(c != NULL);
    store_input in[4];
    store_append ap[4];
    for (int i = 1; i < 4; i += 2) { /* moved on elsewhere, no waits */
        bare_append(&ap[i], &in[i], id[i], 0, 0);
        CHECK_EQ_INT(store_append_input(c, &ap[i]), STORE_OK);
    }
    engine_window w = {.id = "w1", .mode = ENGINE_OPEN, .seats = 1};
    for (int i = 0; i < 4; i++) {
        bare_append(&ap[i], &in[i], id[i], 0, i < 2 ? 0 : 60);
        ap[i].waiting = "[{\"w\":\"w1\",\"s\":0}]";
        ap[i].windows = &w;
        ap[i].nwindows = 1;
    }
    const store_append *list[4] = {&ap[0], &ap[1], &ap[2], &ap[3]};
    int rcs[4] = {99, 99, 99, 99};
    CHECK_EQ_INT(store_append_batch(c, list, 4, rcs), STORE_OK);
    PQfinish(c);
    for (int i = 0; i < 4; i++) {
        int fresh = i % 2 == 0;
        CHECK_EQ_INT(rcs[i], fresh ? STORE_OK : STORE_ECONFLICT);
        CHECK_EQ_INT(game_version(id[i]), 1);
        CHECK_EQ_INT(count_rows("SELECT count(*) FROM turns_waiting WHERE "
                                "game_id = $1",
                                id[i]),
                     fresh);
        CHECK_EQ_INT(count_rows("SELECT count(*) FROM deadlines WHERE "
                                "game_id = $1",
                                id[i]),
                     fresh && i >= 2);
    }
}

typedef struct append_job {
    committer *cm;
    store_append ap;
    store_input in;
    int rc;
} append_job;

static void *append_thread(void *arg)
{
    append_job *j = arg;
    j->rc = committer_append(j->cm, &j->ap);
    return NULL;
}

/* Polls pg_stat_activity until n sessions of this database wait on a lock
 * (10 s only catches a hang); 1 when they do. */
static int wait_lock_waiters(int n)
{
    for (int tries = 0; tries < 1000; tries++) {
        if (count_rows("SELECT count(*) FROM pg_stat_activity WHERE datname "
                       "= current_database() AND wait_event_type = 'Lock'",
                       NULL) >= n)
            return 1;
        usleep(10000);
    }
    return 0;
}

/* One writer: while its first append waits on a row lock, six appends of
 * other games queue and then commit together in the next transaction; the
 * stale ones among them are refused alone, and no append is answered
 * before its commit. */
static void test_group_commit_takes_what_queued(void)
{
    enum { N = 7 };
    char id[N][STORE_ID_MAX];
    for (int i = 0; i < N; i++)
        REQUIRE(new_game("tictactoe", "{}", 2, "none", 0, 1800 + i, id[i]) ==
                0);
    char err[256];
    committer *cm = committer_start(scratch.url, 1, 5, err, sizeof err);
    REQUIRE(cm != NULL);
    PGconn *lock = admin();
    REQUIRE(lock != NULL);
    const char *p[] = {id[0]};
    PQclear(PQexecParams(lock, "BEGIN", 0, NULL, NULL, NULL, NULL, 0));
    PQclear(PQexecParams(lock,
                         "SELECT 1 FROM games WHERE game_id = $1 FOR UPDATE", 1,
                         NULL, p, NULL, NULL, 0));
    double commits = metric("conclave_commits_total");
    double inputs = metric("conclave_commit_inputs_total");
    append_job jobs[N];
    pthread_t t[N];
    for (int i = 0; i < N; i++) {
        jobs[i].cm = cm;
        jobs[i].rc = 99;
        bare_append(&jobs[i].ap, &jobs[i].in, id[i], i % 3 == 2 ? 4 : 0, 0);
        REQUIRE(pthread_create(&t[i], NULL, append_thread, &jobs[i]) == 0);
        if (i == 0) /* the writer takes it and waits on the lock */
            REQUIRE(wait_lock_waiters(1));
    }
    /* the other six queue meanwhile: polled (10 s only catches a hang) */
    for (int tries = 0; tries < 1000 && committer_queued(cm) < N - 1; tries++)
        usleep(10000);
    REQUIRE(committer_queued(cm) == N - 1);
    for (int i = 0; i < N; i++)
        CHECK_EQ_INT(jobs[i].rc, 99); /* nothing answered before a commit */
    PQclear(PQexecParams(lock, "COMMIT", 0, NULL, NULL, NULL, NULL, 0));
    PQfinish(lock);
    for (int i = 0; i < N; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < N; i++) {
        int stale = i % 3 == 2;
        CHECK_EQ_INT(jobs[i].rc, stale ? STORE_ECONFLICT : STORE_OK);
        CHECK_EQ_INT(game_version(id[i]), stale ? 0 : 1);
        CHECK_EQ_INT(game_input_rows(id[i]), stale ? 0 : 1);
    }
    CHECK_EQ_INT((long)(metric("conclave_commits_total") - commits), 2);
    CHECK_EQ_INT((long)(metric("conclave_commit_inputs_total") - inputs), N);
    committer_stop(cm);
}

/* A load paused on purpose (actors_set_load_hook): while y loads a game,
 * after it read the store and before readers may see it, x commits the
 * next version and y's listener hears the NOTIFY. */
typedef struct load_pause {
    sys *x;
    const char *id;
    peek *move;
    int fired, status;
} load_pause;

static void pause_load(void *ctx, const char *game_id)
{
    load_pause *lp = ctx;
    if (lp->fired || strcmp(game_id, lp->id) != 0)
        return;
    lp->fired = 1;
    lp->status = submit_peeked(lp->x, lp->id, lp->move, NULL);
    /* The NOTIFY reaches y's listener in milliseconds; a second is ample
     * on a loaded machine (a later one only weakens the test). */
    usleep(1000 * 1000);
}

/* y's version of id once it reaches want, or what it holds after ~10 s. */
static uint64_t version_within(sys *y, const char *id, uint64_t want)
{
    peek held = {.seat = -1};
    for (int tries = 0; tries < 1000; tries++) {
        if (actors_read(y->app.actors, id, peek_fn, &held) == 0 &&
            held.version >= want)
            break;
        usleep(10000);
    }
    return held.version;
}

/* A version committed by another process while this one loads the game
 * (the notification arrives before the load is done) is caught up once the
 * load ends, not left until something else happens: no sweep covers a
 * game nobody subscribes to, so without that catch-up y stays behind. */
static void test_version_committed_while_loading_is_caught_up(void)
{
    char warm[STORE_ID_MAX], id[STORE_ID_MAX];
    REQUIRE(new_game("rps", "{\"rounds\":2}", 2, "none", 0, 1500, warm) == 0);
    REQUIRE(new_game("rps", "{\"rounds\":2}", 2, "none", 0, 1501, id) == 0);
    sys x, y;
    sys_start_with(&x, DEAF);
    sys_start(&y, 0);
    engine_rng rng;
    uint8_t key[32] = {11};
    engine_rng_init(&rng, key, 1);
    /* First y's listener is surely listening: it hears a commit of x's on
     * a game y holds. */
    peek w0 = {.seat = 0, .rng = &rng}, p0 = {.seat = 0, .rng = &rng};
    peek yw = {.seat = -1};
    CHECK_EQ_INT(actors_read(y.app.actors, warm, peek_fn, &yw), 0);
    CHECK_EQ_INT(actors_read(x.app.actors, warm, peek_fn, &w0), 0);
    CHECK_EQ_INT(actors_read(x.app.actors, id, peek_fn, &p0), 0);
    REQUIRE(w0.has_action && p0.has_action);
    CHECK_EQ_INT(submit_peeked(&x, warm, &w0, NULL), SRV_OK);
    CHECK_EQ_INT(version_within(&y, warm, 1), 1);
    /* Now y loads id and x commits version 1 in the middle of that load. */
    load_pause lp = {&x, id, &p0, 0, -1};
    actors_set_load_hook(y.app.actors, pause_load, &lp);
    peek held = {.seat = -1};
    CHECK_EQ_INT(actors_read(y.app.actors, id, peek_fn, &held), 0);
    actors_set_load_hook(y.app.actors, NULL, NULL);
    CHECK(lp.fired);
    CHECK_EQ_INT(lp.status, SRV_OK);
    CHECKF(version_within(&y, id, 1) == 1,
           "the version committed during the load was never caught up");
    check_as_stored(&y, id, 1);
    json_decref((json_t *)w0.action.payload);
    json_decref((json_t *)p0.action.payload);
    sys_stop(&x);
    sys_stop(&y);
}

/* Every read in the tests above (many of them while inputs were being
 * committed) saw a game whose applied inputs were its committed version. */
static void test_readers_saw_only_committed_states(void)
{
    CHECKF(!uncommitted_seen, "a reader saw a state the store had not taken");
}

int main(void)
{
    const char *quick_env = getenv("CONCLAVE_TEST_QUICK");
    quick = quick_env && strcmp(quick_env, "1") == 0;
    log_set_level(LOG_ERROR);
    if (test_rules_register() != 0) {
        fprintf(stderr, "cannot register the test rulesets\n");
        return 1;
    }
    engine_error eerr;
    if (engine_init(&eerr) != 0) {
        fprintf(stderr, "engine_init: %s\n", eerr.msg);
        return 1;
    }
    if (test_db_open(&scratch, "actor", __FILE__) != 0)
        return 1;

    RUN(test_snapshot_equals_replay);
    RUN(test_two_systems_share_games);
    RUN(test_deadlines_fire_once);
    RUN(test_overdue_deadlines_fire_after_restart);
    RUN(test_idle_games_leave_memory_and_come_back);
    RUN(test_many_windows_get_deadlines_and_bots);
    RUN(test_version_conflict_restores_and_catches_up);
    RUN(test_failed_commit_leaves_committed_state);
    RUN(test_batch_stale_version_refuses_only_its_game);
    RUN(test_batch_follow_ups_only_for_their_appends);
    RUN(test_group_commit_takes_what_queued);
    RUN(test_version_committed_while_loading_is_caught_up);
    RUN(test_readers_saw_only_committed_states);

    test_db_close(&scratch);
    return TEST_SUMMARY();
}

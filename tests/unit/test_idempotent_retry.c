/*
 * test_idempotent_retry.c - a retried play (same Idempotency-Key) that the
 * engine would accept a second time is answered from the stored answer and
 * applied once, against the real Postgres (DATABASE_URL, a fresh database
 * per run).
 *
 * Every seed game refuses a retried play by itself (the window it names has
 * closed: tic-tac-toe's turns, the priority windows' serials), so the path
 * where only the stored answer stands between a retry and a doubled input
 * needs a ruleset whose window stays open: "tally", defined here, one open
 * window "tap" for seat 0 where every play {"n": K} adds K to a total.
 */
#include "engine/engine.h"
#include "engine/ruleset.h"
#include "server/game/actor.h"
#include "server/runtime/config.h"
#include "server/runtime/log.h"
#include "server/store/db.h"
#include "server/store/migrate.h"
#include "server/store/store.h"
#include "tests/unit/test.h"
#include "tests/unit/test_db.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- the "tally" ruleset ---- */

typedef struct tally {
    json_int_t total, plays;
} tally;

static void *t_setup(engine_ctx *ctx, const json_t *options, int seats,
                     engine_error *err)
{
    (void)ctx, (void)options, (void)seats;
    tally *t = calloc(1, sizeof *t);
    if (!t)
        engine_fail(err, ENGINE_EINTERNAL, "", "out of memory");
    return t;
}

static void t_destroy(void *state)
{
    free(state);
}

static void *t_clone(const void *state)
{
    tally *t = malloc(sizeof *t);
    if (t)
        memcpy(t, state, sizeof *t);
    return t;
}

static json_t *t_save(const void *state)
{
    const tally *t = state;
    return json_pack("{s:I, s:I}", "total", t->total, "plays", t->plays);
}

static void *t_load(const json_t *saved, engine_error *err)
{
    tally *t = calloc(1, sizeof *t);
    if (!t) {
        engine_fail(err, ENGINE_EINTERNAL, "", "out of memory");
        return NULL;
    }
    t->total = json_integer_value(json_object_get(saved, "total"));
    t->plays = json_integer_value(json_object_get(saved, "plays"));
    return t;
}

static int t_windows(const void *state, engine_window *out, int max)
{
    (void)state;
    if (max >= 1) {
        memset(&out[0], 0, sizeof out[0]);
        snprintf(out[0].id, sizeof out[0].id, "tap");
        out[0].mode = ENGINE_OPEN;
        out[0].seats = 1;
    }
    return 1;
}

static int t_play(void *state, engine_ctx *ctx, int seat, const char *window,
                  const json_t *payload, engine_error *err)
{
    tally *t = state;
    const json_t *n = json_object_get(payload, "n");
    if (seat != 0 || strcmp(window, "tap") != 0)
        return engine_fail(err, ENGINE_ECONFLICT, "window", "not yours");
    if (!json_is_integer(n) || json_object_size(payload) != 1)
        return engine_fail(err, ENGINE_EINVALID, "n", "a play is {\"n\": K}");
    t->total += json_integer_value(n);
    t->plays++;
    engine_ctx_log(ctx,
                   json_pack("{s:s, s:I}", "type", "tap", "total", t->total));
    return 0;
}

static int t_timeout(void *state, engine_ctx *ctx, const char *window,
                     engine_error *err)
{
    (void)state, (void)ctx, (void)window, (void)err;
    return 0;
}

static json_t *t_view(const void *state, int seat)
{
    const tally *t = state;
    (void)seat;
    return json_pack("{s:I, s:I}", "total", t->total, "plays", t->plays);
}

static json_t *t_legal(const void *state, int seat, const char *window)
{
    (void)state, (void)seat, (void)window;
    return json_pack("{s:s, s:{s:s}, s:n}", "kind", "play", "shape", "type",
                     "object", "choices");
}

static json_t *t_bot(const void *state, int seat, const char *window,
                     const char *level, engine_rng *rng)
{
    (void)state, (void)seat, (void)window, (void)level, (void)rng;
    return json_pack("{s:i}", "n", 1);
}

static int t_is_over(const void *state)
{
    (void)state;
    return 0;
}

static json_t *t_result(const void *state)
{
    (void)state;
    return NULL;
}

static const engine_ruleset tally_ruleset = {
    .id = "tally",
    .title = "Tally (test)",
    .summary = "One open window that takes the same play again and again.",
    .min_seats = 1,
    .max_seats = 2,
    .setup = t_setup,
    .destroy = t_destroy,
    .clone = t_clone,
    .save = t_save,
    .load = t_load,
    .windows = t_windows,
    .play = t_play,
    .timeout = t_timeout,
    .view = t_view,
    .legal = t_legal,
    .bot = t_bot,
    .is_over = t_is_over,
    .result = t_result,
};

/* ---- an actor system on a fresh database ---- */

static test_db scratch; /* the scratch database; scratch.url */

typedef struct sys {
    config cfg;
    app app;
} sys;

static void sys_start(sys *s)
{
    char err[256];
    memset(s, 0, sizeof *s);
    config_from_env(&s->cfg, err, sizeof err);
    snprintf(s->cfg.database_url, sizeof s->cfg.database_url, "%s",
             scratch.url);
    s->cfg.snapshot_every = 3;
    s->cfg.workers = 2;
    s->cfg.db_pool = 2;
    s->app.cfg = &s->cfg;
    s->app.db = db_pool_create(scratch.url, s->cfg.db_pool, 3);
    s->app.actors = actors_start(&s->app, err, sizeof err);
}

static void sys_stop(sys *s)
{
    actors_stop(s->app.actors);
    db_pool_destroy(s->app.db);
}

static int new_tally_game(char *id)
{
    store_game g;
    memset(&g, 0, sizeof g);
    store_new_id(g.game_id);
    snprintf(g.ruleset, sizeof g.ruleset, "tally");
    g.options = json_object();
    g.seats = 2;
    uint8_t h[32];
    engine_sha256(g.seed, sizeof g.seed, h);
    engine_hex(h, sizeof h, g.seed_sha256);
    snprintf(g.clock_mode, sizeof g.clock_mode, "none");
    char err[256];
    PGconn *c = db_connect(scratch.url, 5, err, sizeof err);
    int rc = c ? store_create_game(c, &g) : -1;
    if (c)
        PQfinish(c);
    snprintf(id, STORE_ID_MAX, "%s", g.game_id);
    store_game_clear(&g);
    return rc;
}

/* Play body (JSON text) in "tap" as seat 0 with key ("" none); the
 * request hash is the body's, as the REST layer makes it. */
static actor_reply tap(sys *s, const char *id, const char *body,
                       const char *key)
{
    actor_request rq = {.seat = 0, .kind = ENGINE_PLAY, .if_match = -1};
    snprintf(rq.window, sizeof rq.window, "tap");
    rq.payload = json_loads(body, 0, NULL);
    snprintf(rq.idem_key, sizeof rq.idem_key, "%s", key);
    engine_sha256(body, strlen(body), rq.request_hash);
    actor_reply r;
    memset(&r, 0, sizeof r);
    actors_submit(s->app.actors, id, &rq, &r);
    json_decref(rq.payload);
    return r;
}

/* The committed inputs of game id: how many, and the total they add. */
static int stored_inputs(const char *id, json_int_t *total)
{
    char err[256];
    PGconn *c = db_connect(scratch.url, 5, err, sizeof err);
    store_input *in = NULL;
    size_t n = 0;
    int rc = c ? store_load_inputs(c, id, 0, &in, &n) : -1;
    *total = 0;
    for (size_t i = 0; rc == 0 && i < n; i++)
        *total += json_integer_value(json_object_get(in[i].payload, "n"));
    store_inputs_free(in, n);
    if (c)
        PQfinish(c);
    return rc == 0 ? (int)n : -1;
}

typedef struct seen {
    uint64_t version;
    json_int_t total, plays, log_taps;
} seen;

static void read_fn(const actor_view *v, void *ctx)
{
    seen *s = ctx;
    s->version = v->version;
    json_t *view = engine_view(v->game, ENGINE_PUBLIC);
    s->total = json_integer_value(json_object_get(view, "total"));
    s->plays = json_integer_value(json_object_get(view, "plays"));
    json_decref(view);
    json_t *log = engine_log_since(v->game, ENGINE_PUBLIC, 0);
    size_t i;
    json_t *e;
    s->log_taps = 0;
    json_array_foreach(log, i, e)
    {
        const json_t *d = json_object_get(e, "entry");
        if (!d)
            d = e;
        const char *type = json_string_value(json_object_get(d, "type"));
        s->log_taps += type && strcmp(type, "tap") == 0;
    }
    json_decref(log);
}

static seen read_game(sys *s, const char *id)
{
    seen r = {0};
    actors_read(s->app.actors, id, read_fn, &r);
    return r;
}

/* ---- the tests ---- */

/* The control: the engine really takes the same body twice (no key). */
static void test_engine_accepts_the_same_play_again(void)
{
    sys s;
    sys_start(&s);
    char id[STORE_ID_MAX];
    REQUIRE(new_tally_game(id) == 0);
    actor_reply a = tap(&s, id, "{\"n\":5}", "");
    actor_reply b = tap(&s, id, "{\"n\":5}", "");
    CHECK_EQ_INT(a.kind, SRV_OK);
    CHECK_EQ_INT(b.kind, SRV_OK);
    CHECK_EQ_INT(a.version, 1);
    CHECK_EQ_INT(b.version, 2);
    json_decref(a.stored);
    json_decref(b.stored);
    json_int_t total;
    CHECK_EQ_INT(stored_inputs(id, &total), 2);
    CHECK_EQ_INT(total, 10);
    seen g = read_game(&s, id);
    CHECK_EQ_INT(g.version, 2);
    CHECK_EQ_INT(g.plays, 2);
    CHECK_EQ_INT(g.log_taps, 2);
    sys_stop(&s);
}

static void test_retry_is_answered_from_the_stored_answer(void)
{
    sys s;
    sys_start(&s);
    char id[STORE_ID_MAX];
    REQUIRE(new_tally_game(id) == 0);
    actor_reply first = tap(&s, id, "{\"n\":5}", "retry-1");
    CHECK_EQ_INT(first.kind, SRV_OK);
    CHECK_EQ_INT(first.version, 1);
    CHECK(first.stored == NULL);
    actor_reply again = tap(&s, id, "{\"n\":5}", "retry-1");
    CHECK_EQ_INT(again.kind, SRV_OK);
    CHECK_EQ_INT(again.version, 1);
    CHECK(again.stored != NULL);
    CHECK_EQ_INT(json_integer_value(json_object_get(again.stored, "version")),
                 1);
    json_decref(first.stored);
    json_decref(again.stored);
    /* applied once: in the store, in memory, in the view and in the log */
    json_int_t total;
    CHECK_EQ_INT(stored_inputs(id, &total), 1);
    CHECK_EQ_INT(total, 5);
    seen g = read_game(&s, id);
    CHECK_EQ_INT(g.version, 1);
    CHECK_EQ_INT(g.total, 5);
    CHECK_EQ_INT(g.plays, 1);
    CHECK_EQ_INT(g.log_taps, 1);
    /* the same key with another body: refused, nothing applied */
    actor_reply other = tap(&s, id, "{\"n\":6}", "retry-1");
    CHECK_EQ_INT(other.kind, SRV_INVALID);
    json_decref(other.stored);
    /* a new key is a new play */
    actor_reply next = tap(&s, id, "{\"n\":5}", "retry-2");
    CHECK_EQ_INT(next.kind, SRV_OK);
    CHECK_EQ_INT(next.version, 2);
    json_decref(next.stored);
    CHECK_EQ_INT(stored_inputs(id, &total), 2);
    CHECK_EQ_INT(total, 10);
    sys_stop(&s);
}

/* After a restart (nothing in memory) the retry still finds its answer,
 * also past version 9 (the stored version read back as a decimal). */
static void test_retry_after_restart(void)
{
    sys s;
    sys_start(&s);
    char id[STORE_ID_MAX], key[32];
    REQUIRE(new_tally_game(id) == 0);
    for (int i = 1; i <= 11; i++) {
        snprintf(key, sizeof key, "after-restart-%d", i);
        actor_reply r = tap(&s, id, "{\"n\":3}", key);
        CHECK_EQ_INT(r.version, i);
        json_decref(r.stored);
    }
    sys_stop(&s);
    char err[256];
    PGconn *c = db_connect(scratch.url, 5, err, sizeof err);
    store_game meta;
    REQUIRE(c && store_load_game(c, id, &meta) == 0);
    CHECK_EQ_INT(meta.version, 11);
    store_game_clear(&meta);
    PQfinish(c);
    sys_start(&s);
    actor_reply again = tap(&s, id, "{\"n\":3}", "after-restart-11");
    CHECK_EQ_INT(again.kind, SRV_OK);
    CHECK_EQ_INT(again.version, 11);
    CHECK(again.stored != NULL);
    json_decref(again.stored);
    json_int_t total;
    CHECK_EQ_INT(stored_inputs(id, &total), 11);
    CHECK_EQ_INT(total, 33);
    seen g = read_game(&s, id);
    CHECK_EQ_INT(g.version, 11);
    CHECK_EQ_INT(g.plays, 11);
    sys_stop(&s);
}

int main(void)
{
    log_set_level(LOG_ERROR);
    engine_error eerr;
    if (engine_register_ruleset(&tally_ruleset, &eerr) != 0 ||
        engine_init(&eerr) != 0) {
        fprintf(stderr, "engine: %s\n", eerr.msg);
        printf("RESULT %s: 0 passed, 1 failed\n", __FILE__);
        return 1;
    }
    if (test_db_open(&scratch, "idem", __FILE__) != 0)
        return 1;

    RUN(test_engine_accepts_the_same_play_again);
    RUN(test_retry_is_answered_from_the_stored_answer);
    RUN(test_retry_after_restart);

    test_db_close(&scratch);
    return TEST_SUMMARY();
}

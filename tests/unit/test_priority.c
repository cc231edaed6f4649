/*
 * test_priority.c - priority windows and the stack (engine/priority.c,
 * stack.c, respond.c, prio_save.c) and seat-set audiences (audience.c),
 * through the test-only example ruleset in engine/examples/duel.c.
 *
 * Every input goes through one helper that also checks save/load and clone
 * give the same engine_hash, and records the input, so each test ends by
 * replaying its inputs from the seed to the same hash.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/ruleset.h"
#include "tests/unit/test.h"

#include "engine/examples/examples.h"

typedef struct run {
    engine_game *g;
    json_t *options;
    json_t *inputs;
    uint64_t seq;
    char window[ENGINE_WINDOW_ID_MAX];
    int seats;
} run;

static void make_seed(uint64_t n, uint8_t seed[ENGINE_SEED_BYTES])
{
    uint8_t in[16] = "priority-test";
    for (int i = 0; i < 8; i++)
        in[8 + i] ^= (uint8_t)(n >> (8 * i));
    engine_sha256(in, sizeof in, seed);
}

static int same_hash(const engine_game *a, const engine_game *b)
{
    uint8_t x[ENGINE_HASH_BYTES], y[ENGINE_HASH_BYTES];
    engine_hash(a, x);
    engine_hash(b, y);
    return memcmp(x, y, sizeof x) == 0;
}

static int start(run *r, int seats, const char *options)
{
    uint8_t seed[ENGINE_SEED_BYTES];
    engine_error err = {0};
    memset(r, 0, sizeof *r);
    make_seed(7, seed);
    r->seats = seats;
    r->options = options ? json_loads(options, 0, NULL) : json_object();
    r->inputs = json_array();
    r->g =
        engine_create("duel_example", "g-prio", r->options, seats, seed, &err);
    if (!r->g)
        fprintf(stderr, "  create failed: %s\n", err.msg);
    return r->g != NULL;
}

/* The priority window open now ("" when none). */
static const char *win(run *r)
{
    engine_window w[4];
    int n = engine_windows(r->g, w, 4);
    r->window[0] = '\0';
    if (n == 1)
        memcpy(r->window, w[0].id, sizeof r->window);
    return r->window;
}

static json_t *prio_field(const engine_game *g, const char *key)
{
    json_t *v = engine_view(g, ENGINE_PUBLIC);
    json_t *f =
        json_incref(json_object_get(json_object_get(v, "priority"), key));
    json_decref(v);
    return f;
}

static int prio_int(const engine_game *g, const char *key)
{
    json_t *f = prio_field(g, key);
    int n = json_is_integer(f) ? (int)json_integer_value(f) : -1;
    json_decref(f);
    return n;
}

static int life(const engine_game *g, int seat)
{
    json_t *v = engine_view(g, ENGINE_PUBLIC);
    int n = (int)json_integer_value(
        json_array_get(json_object_get(v, "life"), (size_t)seat));
    json_decref(v);
    return n;
}

/* The stack as seat sees it (NEW). */
static json_t *stack_of(const engine_game *g, int seat)
{
    json_t *v = engine_view(g, seat);
    json_t *s = json_incref(json_object_get(v, "stack"));
    json_decref(v);
    return s;
}

static size_t stack_n(const engine_game *g)
{
    json_t *s = stack_of(g, ENGINE_PUBLIC);
    size_t n = json_array_size(s);
    json_decref(s);
    return n;
}

/* Apply one input; on success record it and check save/load and clone. */
static int act(run *r, int seat, engine_input_kind kind, const char *window,
               const char *payload)
{
    engine_error err = {0};
    json_t *p = payload ? json_loads(payload, 0, NULL) : NULL;
    engine_input in = {
        .seat = seat, .kind = kind, .window = window, .payload = p};
    int rc = engine_apply(r->g, &in, NULL, &err);
    if (rc == 0) {
        json_array_append_new(r->inputs, engine_input_to_json(&in, ++r->seq));
        json_t *saved = engine_save(r->g);
        engine_game *back = engine_load(saved, &err);
        engine_game *copy = engine_clone(r->g);
        CHECKF(back && same_hash(r->g, back), "save/load after %s: %s",
               payload ? payload : "(none)", err.msg);
        CHECK(copy && same_hash(r->g, copy));
        engine_free(back);
        engine_free(copy);
        json_decref(saved);
    }
    json_decref(p);
    return rc;
}

static int pass(run *r, int seat)
{
    return act(r, seat, ENGINE_PLAY, win(r), "{\"action\":\"pass\"}");
}

static int sys(run *r, int seat, const char *payload)
{
    return act(r, seat, ENGINE_SYSTEM, NULL, payload);
}

static int playc(run *r, int seat, const char *payload)
{
    return act(r, seat, ENGINE_PLAY, win(r), payload);
}

/* Replay the recorded inputs from the seed: same hash. Frees the run. */
static void finish(run *r)
{
    uint8_t live[ENGINE_HASH_BYTES], hash[ENGINE_HASH_BYTES];
    char hex[2 * ENGINE_HASH_BYTES + 1], seedhex[2 * ENGINE_SEED_BYTES + 1];
    engine_error err = {0};
    int match = 0;
    engine_hash(r->g, live);
    engine_hex(live, ENGINE_HASH_BYTES, hex);
    engine_hex(engine_game_seed(r->g), ENGINE_SEED_BYTES, seedhex);
    json_t *doc =
        json_pack("{s:s, s:s, s:s, s:O, s:i, s:s, s:O, s:s}", "format",
                  "conclave-export/1", "game_id", "g-prio", "ruleset",
                  "duel_example", "options", r->options, "seats", r->seats,
                  "seed", seedhex, "inputs", r->inputs, "final_hash", hex);
    int rc = engine_replay_export(doc, hash, &match, NULL, &err);
    CHECKF(rc == 0 && match, "replay: %s", err.msg);
    json_decref(doc);
    json_decref(r->inputs);
    json_decref(r->options);
    engine_free(r->g);
}

static const char *hands2 =
    "{\"hands\":[[\"bolt\",\"counter\",\"trap\",\"cycle\"],"
    "[\"counter\",\"bolt\",\"cycle\"]]}";

/* ------------------------------------------------------------- tests -- */

static void test_pass_pass_empty_stack(void)
{
    run r;
    REQUIRE(start(&r, 2, hands2));
    CHECK_EQ_INT(prio_int(r.g, "holder"), 0);
    CHECK_EQ_INT(prio_int(r.g, "turn"), 1);
    char first[ENGINE_WINDOW_ID_MAX];
    memcpy(first, win(&r), sizeof first);
    CHECK(strncmp(first, "main.", 5) == 0);
    /* Only the holder may act. */
    CHECK_EQ_INT(pass(&r, 1), ENGINE_ECONFLICT);
    CHECK_EQ_INT(pass(&r, 0), 0);
    CHECK(strcmp(win(&r), first) != 0); /* a new window per change */
    CHECK_EQ_INT(act(&r, 1, ENGINE_PLAY, first, "{\"action\":\"pass\"}"),
                 ENGINE_ECONFLICT);
    CHECK_EQ_INT(prio_int(r.g, "holder"), 1);
    CHECK_EQ_INT(pass(&r, 1), 0);
    /* Both passed with the stack empty: the step ended, seat 1's turn. */
    CHECK_EQ_INT(prio_int(r.g, "turn"), 2);
    CHECK_EQ_INT(prio_int(r.g, "active"), 1);
    CHECK_EQ_INT(prio_int(r.g, "holder"), 1);
    /* A pass with extra fields is refused, naming the field. */
    engine_error err = {0};
    json_t *bad = json_pack("{s:s, s:i}", "action", "pass", "x", 1);
    engine_input in = {
        .seat = 1, .kind = ENGINE_PLAY, .window = win(&r), .payload = bad};
    CHECK_EQ_INT(engine_apply(r.g, &in, NULL, &err), ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "x");
    json_decref(bad);
    finish(&r);
}

static void test_pass_pass_resolves_top_and_orders_triggers(void)
{
    run r;
    REQUIRE(start(&r, 2, hands2));
    REQUIRE(playc(&r, 0, "{\"action\":\"cast\",\"card\":0,\"target\":1}") == 0);
    CHECK_EQ_INT(stack_n(r.g), 1);
    CHECK_EQ_INT(prio_int(r.g, "holder"), 0); /* the caster keeps it */
    CHECK_EQ_INT(pass(&r, 0), 0);
    CHECK_EQ_INT(life(r.g, 1), 10);
    CHECK_EQ_INT(pass(&r, 1), 0);
    CHECK_EQ_INT(life(r.g, 1), 7);
    /* Triggers: queued pain (seat 1) then glee (seat 0); the active seat's
     * go on first: bottom glee (0), top pain (1). Priority to the active. */
    json_t *st = stack_of(r.g, ENGINE_PUBLIC);
    REQUIRE(json_array_size(st) == 2);
    CHECK_EQ_STR(
        json_string_value(json_object_get(json_array_get(st, 0), "source")),
        "glee");
    CHECK_EQ_STR(
        json_string_value(json_object_get(json_array_get(st, 1), "source")),
        "pain");
    json_decref(st);
    CHECK_EQ_INT(prio_int(r.g, "holder"), 0);
    CHECK_EQ_INT(pass(&r, 0), 0);
    CHECK_EQ_INT(pass(&r, 1), 0); /* pain */
    CHECK_EQ_INT(stack_n(r.g), 1);
    CHECK_EQ_INT(life(r.g, 0), 10);
    CHECK_EQ_INT(pass(&r, 0), 0);
    CHECK_EQ_INT(pass(&r, 1), 0); /* glee */
    CHECK_EQ_INT(life(r.g, 0), 11);
    CHECK_EQ_INT(prio_int(r.g, "turn"), 1);
    CHECK_EQ_INT(pass(&r, 0), 0);
    CHECK_EQ_INT(pass(&r, 1), 0);
    CHECK_EQ_INT(prio_int(r.g, "turn"), 2);

    /* Seat 1's turn: its bolt at seat 0 queues pain (0) then glee (1); the
     * active seat 1's glee goes on first. */
    REQUIRE(playc(&r, 1, "{\"action\":\"cast\",\"card\":1,\"target\":0}") == 0);
    CHECK_EQ_INT(pass(&r, 1), 0);
    CHECK_EQ_INT(pass(&r, 0), 0);
    st = stack_of(r.g, ENGINE_PUBLIC);
    REQUIRE(json_array_size(st) == 2);
    CHECK_EQ_INT(
        json_integer_value(json_object_get(json_array_get(st, 0), "owner")), 1);
    CHECK_EQ_STR(
        json_string_value(json_object_get(json_array_get(st, 1), "source")),
        "pain");
    json_decref(st);
    CHECK_EQ_INT(prio_int(r.g, "holder"), 1);
    finish(&r);
}

static void test_responses_to_responses(void)
{
    run r;
    REQUIRE(start(&r, 2, hands2));
    REQUIRE(playc(&r, 0, "{\"action\":\"cast\",\"card\":0,\"target\":1}") == 0);
    CHECK_EQ_INT(pass(&r, 0), 0);
    /* Seat 1 counters the bolt (item 1); it keeps priority, passes. */
    CHECK_EQ_INT(playc(&r, 1, "{\"action\":\"cast\",\"card\":0,\"item\":99}"),
                 ENGINE_EINVALID);
    REQUIRE(playc(&r, 1, "{\"action\":\"cast\",\"card\":0,\"item\":1}") == 0);
    CHECK_EQ_INT(pass(&r, 1), 0);
    /* Seat 0 counters the counter (item 2). */
    REQUIRE(playc(&r, 0, "{\"action\":\"cast\",\"card\":0,\"item\":2}") == 0);
    CHECK_EQ_INT(stack_n(r.g), 3);
    CHECK_EQ_INT(pass(&r, 0), 0);
    /* One pass after a play is not enough: the count started again. */
    CHECK_EQ_INT(stack_n(r.g), 3);
    CHECK_EQ_INT(pass(&r, 1), 0);
    /* Seat 0's counter resolved, removing seat 1's counter. */
    CHECK_EQ_INT(stack_n(r.g), 1);
    CHECK_EQ_INT(prio_int(r.g, "holder"), 0);
    CHECK_EQ_INT(pass(&r, 0), 0);
    CHECK_EQ_INT(pass(&r, 1), 0);
    CHECK_EQ_INT(life(r.g, 1), 7); /* the bolt got through */
    json_t *legal = engine_legal(r.g, 0);
    json_t *w0 = json_array_get(json_object_get(legal, "windows"), 0);
    CHECK_EQ_STR(json_string_value(json_object_get(w0, "kind")), "play");
    CHECK_EQ_STR(
        json_string_value(json_object_get(
            json_array_get(json_object_get(w0, "choices"), 0), "action")),
        "pass");
    json_decref(legal);
    finish(&r);
}

static void test_hidden_stack_item(void)
{
    run r;
    REQUIRE(start(&r, 2, hands2));
    REQUIRE(playc(&r, 0, "{\"action\":\"cast\",\"card\":2}") == 0); /* trap */
    json_t *mine = stack_of(r.g, 0), *theirs = stack_of(r.g, 1),
           *pub = stack_of(r.g, ENGINE_PUBLIC);
    char *a = json_dumps(mine, 0), *b = json_dumps(theirs, 0),
         *c = json_dumps(pub, 0);
    CHECK(strstr(a, "trap") != NULL);
    CHECK(strstr(b, "trap") == NULL && strstr(b, "hidden") != NULL);
    CHECK(strstr(c, "trap") == NULL);
    free(a), free(b), free(c);
    json_decref(mine), json_decref(theirs), json_decref(pub);
    CHECK_EQ_INT(pass(&r, 0), 0);
    CHECK_EQ_INT(pass(&r, 1), 0);
    CHECK_EQ_INT(life(r.g, 1), 9);
    finish(&r);
}

static void test_timeout_is_a_pass(void)
{
    run r;
    REQUIRE(start(&r, 2, hands2));
    CHECK_EQ_INT(act(&r, ENGINE_PUBLIC, ENGINE_TIMEOUT, win(&r), NULL), 0);
    CHECK_EQ_INT(prio_int(r.g, "holder"), 1);
    json_t *log = engine_log_since(r.g, ENGINE_PUBLIC, 0);
    size_t n = json_array_size(log);
    REQUIRE(n >= 2);
    CHECK_EQ_STR(
        json_string_value(json_object_get(
            json_object_get(json_array_get(log, n - 2), "entry"), "type")),
        "timeout");
    CHECK_EQ_STR(
        json_string_value(json_object_get(
            json_object_get(json_array_get(log, n - 1), "entry"), "type")),
        "pass");
    json_decref(log);
    CHECK_EQ_INT(act(&r, ENGINE_PUBLIC, ENGINE_TIMEOUT, win(&r), NULL), 0);
    CHECK_EQ_INT(prio_int(r.g, "turn"), 2);
    finish(&r);

    /* Configured per game: here a timeout forfeits. */
    REQUIRE(start(&r, 2, "{\"forfeit_on_timeout\":true}"));
    CHECK_EQ_INT(act(&r, ENGINE_PUBLIC, ENGINE_TIMEOUT, win(&r), NULL), 0);
    CHECK(engine_is_over(r.g));
    CHECK_EQ_INT(engine_windows(r.g, NULL, 0), 0);
    finish(&r);
}

static void test_response_rules(void)
{
    run r;
    /* until my turn: seat 1 passes by itself until its turn begins. */
    REQUIRE(start(&r, 2, hands2));
    CHECK_EQ_INT(sys(&r, 1, "{\"action\":\"respond\",\"until\":\"soon\"}"),
                 ENGINE_EINVALID);
    CHECK_EQ_INT(sys(&r, 1, "{\"action\":\"respond\",\"until\":\"my_turn\"}"),
                 0);
    CHECK_EQ_INT(engine_touched(r.g), 1u << 1); /* only its own view */
    json_t *v0 = engine_view(r.g, 0);
    CHECK(json_is_null(
        json_object_get(json_object_get(v0, "priority"), "my_rule")));
    json_decref(v0);
    REQUIRE(playc(&r, 0, "{\"action\":\"cast\",\"card\":0,\"target\":1}") == 0);
    CHECK_EQ_INT(pass(&r, 0), 0); /* seat 1 passes for itself: resolves */
    CHECK_EQ_INT(life(r.g, 1), 7);
    CHECK_EQ_INT(prio_int(r.g, "holder"), 0);
    CHECK_EQ_INT(pass(&r, 0), 0);
    CHECK_EQ_INT(pass(&r, 0), 0);
    CHECK_EQ_INT(pass(&r, 0), 0); /* the triggers, then the step */
    CHECK_EQ_INT(prio_int(r.g, "turn"), 2);
    CHECK_EQ_INT(prio_int(r.g, "holder"), 1); /* its turn: the rule ran out */
    json_t *v1 = engine_view(r.g, 1);
    CHECK(json_is_null(
        json_object_get(json_object_get(v1, "priority"), "my_rule")));
    json_decref(v1);
    finish(&r);

    /* until the stack changes. */
    REQUIRE(start(&r, 2, hands2));
    CHECK_EQ_INT(
        sys(&r, 1, "{\"action\":\"respond\",\"until\":\"stack_changes\"}"), 0);
    REQUIRE(playc(&r, 0, "{\"action\":\"cast\",\"card\":2}") == 0);
    CHECK_EQ_INT(pass(&r, 0), 0);
    CHECK_EQ_INT(prio_int(r.g, "holder"), 1); /* the stack changed: stop */
    CHECK_EQ_INT(pass(&r, 1), 0);
    finish(&r);

    /* until end of turn, also set with a pass; stop when targeted. */
    REQUIRE(start(&r, 2, hands2));
    CHECK_EQ_INT(pass(&r, 0), 0);
    CHECK_EQ_INT(act(&r, 1, ENGINE_PLAY, win(&r),
                     "{\"action\":\"pass\",\"until\":\"end_of_turn\","
                     "\"stop_if_targeted\":true}"),
                 0);
    CHECK_EQ_INT(prio_int(r.g, "turn"), 2);
    CHECK_EQ_INT(prio_int(r.g, "holder"), 1); /* its turn: the rule ran out */
    CHECK_EQ_INT(sys(&r, 0,
                     "{\"action\":\"respond\",\"until\":\"end_of_turn\","
                     "\"stop_if_targeted\":true}"),
                 0);
    REQUIRE(playc(&r, 1, "{\"action\":\"cast\",\"card\":1,\"target\":0}") == 0);
    CHECK_EQ_INT(pass(&r, 1), 0);
    CHECK_EQ_INT(prio_int(r.g, "holder"), 0); /* targeted: it stops */
    CHECK_EQ_INT(pass(&r, 0), 0);             /* the bolt resolves */
    CHECK_EQ_INT(life(r.g, 0), 7);
    CHECK_EQ_INT(stack_n(r.g), 2); /* glee (1) under pain (0) */
    /* Without the interrupt, the seat passes whatever comes. */
    CHECK_EQ_INT(
        sys(&r, 0, "{\"action\":\"respond\",\"until\":\"end_of_turn\"}"), 0);
    CHECK_EQ_INT(prio_int(r.g, "holder"), 1);
    CHECK_EQ_INT(pass(&r, 1), 0); /* seat 0 passes itself: pain resolves */
    CHECK_EQ_INT(stack_n(r.g), 1);
    CHECK_EQ_INT(prio_int(r.g, "holder"), 1);
    finish(&r);
}

/* The seat-1-hand-dependent part of everything seat 0 and spectators can
 * observe, as one string. */
static char *observed(const engine_game *g)
{
    json_t *all = json_array();
    for (int a = -1; a <= 0; a++) {
        json_array_append_new(all, engine_view(g, a));
        json_array_append_new(all, engine_log_since(g, a, 0));
    }
    engine_window w[4];
    int n = engine_windows(g, w, 4);
    for (int i = 0; i < n && i < 4; i++)
        json_array_append_new(all, json_pack("{s:s, s:I}", "id", w[i].id,
                                             "seats", (json_int_t)w[i].seats));
    char *s = json_dumps(all, JSON_SORT_KEYS);
    json_decref(all);
    return s;
}

static void test_automatic_passes_do_not_leak(void)
{
    static const char *const hands[2] = {
        "{\"hands\":[[\"bolt\",\"trap\",\"bolt\"],"
        "[\"counter\",\"counter\",\"counter\"]]}",
        "{\"hands\":[[\"bolt\",\"trap\",\"bolt\"],"
        "[\"cycle\",\"cycle\",\"cycle\"]]}"};
    run r[2];
    REQUIRE(start(&r[0], 2, hands[0]));
    REQUIRE(start(&r[1], 2, hands[1]));
    /* The same inputs to both games; seat 1 relies on a rule. */
    for (int k = 0; k < 2; k++) {
        CHECK_EQ_INT(
            sys(&r[k], 1, "{\"action\":\"respond\",\"until\":\"end_of_turn\"}"),
            0);
        CHECK_EQ_INT(playc(&r[k], 0, "{\"action\":\"cast\",\"card\":1}"), 0);
    }
    static const char *const script[] = {
        "{\"action\":\"pass\"}",
        "{\"action\":\"cast\",\"card\":0,\"target\":1}",
        "{\"action\":\"pass\"}",
        "{\"action\":\"pass\"}",
        "{\"action\":\"pass\"}",
        "{\"action\":\"pass\"}"};
    for (size_t i = 0; i < sizeof script / sizeof script[0]; i++) {
        for (int k = 0; k < 2; k++)
            CHECK_EQ_INT(playc(&r[k], 0, script[i]), 0);
        char *a = observed(r[0].g), *b = observed(r[1].g);
        CHECKF(strcmp(a, b) == 0, "step %zu differs", i);
        free(a), free(b);
    }
    CHECK_EQ_INT(prio_int(r[0].g, "turn"), 2);
    finish(&r[0]);
    finish(&r[1]);
}

static void test_undo_own_play(void)
{
    run r;
    REQUIRE(start(&r, 2, hands2));
    CHECK_EQ_INT(sys(&r, 0, "{\"action\":\"undo\"}"), ENGINE_ECONFLICT);
    REQUIRE(playc(&r, 0, "{\"action\":\"cast\",\"card\":0,\"target\":1}") == 0);
    CHECK_EQ_INT(sys(&r, 1, "{\"action\":\"undo\"}"), ENGINE_ECONFLICT);
    CHECK_EQ_INT(sys(&r, 0, "{\"action\":\"undo\"}"), 0);
    CHECK_EQ_INT(stack_n(r.g), 0);
    json_t *v = engine_view(r.g, 0);
    CHECK_EQ_INT(json_array_size(json_object_get(v, "hand")), 4);
    CHECK_EQ_STR(
        json_string_value(json_array_get(json_object_get(v, "hand"), 0)),
        "bolt");
    json_decref(v);
    CHECK_EQ_INT(prio_int(r.g, "holder"), 0);
    CHECK_EQ_INT(sys(&r, 0, "{\"action\":\"undo\"}"), ENGINE_ECONFLICT);
    /* A play that drew (a private log line) cannot be undone, and it
     * forgets the earlier undo point. */
    REQUIRE(playc(&r, 0, "{\"action\":\"cast\",\"card\":2}") == 0);
    REQUIRE(playc(&r, 0, "{\"action\":\"cycle\",\"card\":2}") == 0);
    CHECK_EQ_INT(sys(&r, 0, "{\"action\":\"undo\"}"), ENGINE_ECONFLICT);
    finish(&r);
}

static void test_undo_with_consent(void)
{
    run r;
    REQUIRE(start(&r, 2, hands2));
    REQUIRE(playc(&r, 0, "{\"action\":\"cast\",\"card\":0,\"target\":1}") == 0);
    CHECK_EQ_INT(pass(&r, 0), 0);
    CHECK_EQ_INT(pass(&r, 1), 0); /* seat 1 acted; the bolt resolved */
    CHECK_EQ_INT(life(r.g, 1), 7);
    CHECK_EQ_INT(sys(&r, 1, "{\"action\":\"undo_consent\"}"), ENGINE_ECONFLICT);
    CHECK_EQ_INT(sys(&r, 0, "{\"action\":\"undo\"}"), 0); /* asks */
    CHECK_EQ_INT(life(r.g, 1), 7);
    CHECK_EQ_INT(sys(&r, 1, "{\"action\":\"undo_refuse\"}"), 0);
    CHECK_EQ_INT(sys(&r, 1, "{\"action\":\"undo_consent\"}"), ENGINE_ECONFLICT);
    CHECK_EQ_INT(sys(&r, 0, "{\"action\":\"undo\"}"), 0);
    CHECK_EQ_INT(sys(&r, 0, "{\"action\":\"undo_consent\"}"),
                 ENGINE_ECONFLICT); /* not its own */
    CHECK_EQ_INT(sys(&r, 1, "{\"action\":\"undo_consent\"}"), 0);
    CHECK_EQ_INT(life(r.g, 1), 10);
    CHECK_EQ_INT(stack_n(r.g), 0);
    CHECK_EQ_INT(prio_int(r.g, "holder"), 0);
    json_t *log = engine_log_since(r.g, ENGINE_PUBLIC, 0);
    json_t *last =
        json_object_get(json_array_get(log, json_array_size(log) - 1), "entry");
    CHECK_EQ_STR(json_string_value(json_object_get(last, "type")), "undone");
    json_decref(log);
    /* Any other input drops a pending request. */
    REQUIRE(playc(&r, 0, "{\"action\":\"cast\",\"card\":0,\"target\":1}") == 0);
    CHECK_EQ_INT(pass(&r, 0), 0);
    CHECK_EQ_INT(pass(&r, 1), 0);
    CHECK_EQ_INT(sys(&r, 0, "{\"action\":\"undo\"}"), 0);
    CHECK_EQ_INT(pass(&r, 0), 0);
    CHECK_EQ_INT(sys(&r, 1, "{\"action\":\"undo_consent\"}"), ENGINE_ECONFLICT);
    finish(&r);

    /* A pass made for the other seat by its rule is acting too. */
    REQUIRE(start(&r, 2, hands2));
    CHECK_EQ_INT(sys(&r, 1, "{\"action\":\"respond\",\"until\":\"my_turn\"}"),
                 0);
    REQUIRE(playc(&r, 0, "{\"action\":\"cast\",\"card\":0,\"target\":1}") == 0);
    CHECK_EQ_INT(pass(&r, 0), 0); /* seat 1 passes by rule: it resolves */
    CHECK_EQ_INT(life(r.g, 1), 7);
    CHECK_EQ_INT(sys(&r, 0, "{\"action\":\"undo\"}"), 0);
    CHECK_EQ_INT(life(r.g, 1), 7); /* asked, not done */
    CHECK_EQ_INT(sys(&r, 1, "{\"action\":\"undo_consent\"}"), 0);
    CHECK_EQ_INT(life(r.g, 1), 10);
    finish(&r);
}

static void test_seat_set_log_entries(void)
{
    run r;
    REQUIRE(start(&r, 3, "{\"hands\":[[\"trap\"],[\"bolt\"],[\"bolt\"]]}"));
    REQUIRE(playc(&r, 0, "{\"action\":\"cast\",\"card\":0}") == 0);
    CHECK_EQ_INT(pass(&r, 0), 0);
    CHECK_EQ_INT(pass(&r, 1), 0);
    CHECK_EQ_INT(pass(&r, 2), 0); /* the trap tells seats {0,2} */
    for (int a = -1; a < 3; a++) {
        json_t *log = engine_log_since(r.g, a, 0);
        char *text = json_dumps(log, 0);
        int has = strstr(text, "team_note") != NULL;
        CHECKF(has == (a == 0 || a == 2), "audience %d", a);
        if (has)
            CHECK(strstr(text, "\"seats\": [0, 2]") != NULL);
        free(text);
        json_decref(log);
    }
    /* The saved form keeps it for the same seats. */
    engine_error err = {0};
    json_t *saved = engine_save(r.g);
    engine_game *back = engine_load(saved, &err);
    REQUIRE(back);
    json_t *l1 = engine_log_since(back, 1, 0),
           *l2 = engine_log_since(back, 2, 0);
    char *t1 = json_dumps(l1, 0), *t2 = json_dumps(l2, 0);
    CHECK(strstr(t1, "team_note") == NULL && strstr(t2, "team_note") != NULL);
    free(t1), free(t2);
    json_decref(l1), json_decref(l2);
    engine_free(back);
    /* A corrupt set (one seat, or a seat twice) is refused on load. */
    json_t *line = json_array_get(json_object_get(saved, "log"), 0);
    json_object_set_new(line, "seats", json_pack("[i,i]", 1, 1));
    CHECK(engine_load(saved, &err) == NULL);
    json_decref(saved);
    finish(&r);
}

static void test_touched(void)
{
    uint8_t seed[ENGINE_SEED_BYTES];
    engine_error err = {0};
    make_seed(1, seed);
    engine_game *g = engine_create("rps", "g-t", NULL, 2, seed, &err);
    REQUIRE(g);
    CHECK_EQ_INT(engine_touched(g), ENGINE_AUDIENCE_ALL);
    engine_window w;
    REQUIRE(engine_windows(g, &w, 1) == 1);
    json_t *o = json_pack("{s:s}", "throw", "rock");
    engine_input in = {
        .seat = 0, .kind = ENGINE_ORDER, .window = w.id, .payload = o};
    REQUIRE(engine_apply(g, &in, NULL, &err) == 0);
    CHECK_EQ_INT(engine_touched(g), 1u); /* only seat 0's my_orders */
    in.seat = 5;
    CHECK(engine_apply(g, &in, NULL, &err) != 0);
    CHECK_EQ_INT(engine_touched(g), 1u); /* a refusal leaves it */
    in.seat = 1;
    REQUIRE(engine_apply(g, &in, NULL, &err) == 0);
    CHECK_EQ_INT(engine_touched(g), ENGINE_AUDIENCE_ALL); /* it resolved */
    json_decref(o);
    engine_free(g);
}

static void test_bots_play_priority_games(void)
{
    for (uint64_t n = 0; n < 20; n++) {
        uint8_t seed[ENGINE_SEED_BYTES];
        engine_error err = {0};
        engine_rng rng;
        make_seed(100 + n, seed);
        engine_rng_init(&rng, seed, 1);
        int seats = 2 + (int)(n % 2);
        engine_game *g =
            engine_create("duel_example", "g-bot", NULL, seats, seed, &err);
        REQUIRE(g);
        int steps = 0;
        while (!engine_is_over(g) && steps++ < 2000) {
            engine_window w;
            REQUIRE(engine_windows(g, &w, 1) == 1);
            int seat = __builtin_ctz(w.seats);
            engine_input in;
            REQUIRE(engine_bot_action(g, seat, "random", &rng, &in, &err) == 0);
            int rc = engine_apply(g, &in, NULL, &err);
            CHECKF(rc == 0, "bot input refused: %s", err.msg);
            json_decref((json_t *)in.payload);
            if (rc != 0)
                break;
            if (steps % 7 == 0) {
                json_t *saved = engine_save(g);
                engine_game *back = engine_load(saved, &err);
                CHECK(back && same_hash(g, back));
                engine_free(back);
                json_decref(saved);
            }
        }
        CHECK(engine_is_over(g));
        engine_free(g);
    }
}

int main(void)
{
    engine_error err = {0};
    if (engine_register_ruleset(&duel_example_ruleset, &err) != 0 ||
        engine_init(&err) != 0) {
        fprintf(stderr, "init: %s\n", err.msg);
        return 1;
    }
    CHECK(engine_register_ruleset(&duel_example_ruleset, &err) != 0);
    RUN(test_pass_pass_empty_stack);
    RUN(test_pass_pass_resolves_top_and_orders_triggers);
    RUN(test_responses_to_responses);
    RUN(test_hidden_stack_item);
    RUN(test_timeout_is_a_pass);
    RUN(test_response_rules);
    RUN(test_automatic_passes_do_not_leak);
    RUN(test_undo_own_play);
    RUN(test_undo_with_consent);
    RUN(test_seat_set_log_entries);
    RUN(test_touched);
    RUN(test_bots_play_priority_games);
    return TEST_SUMMARY();
}

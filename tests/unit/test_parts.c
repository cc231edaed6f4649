/*
 * test_parts.c - sealed orders in keyed parts: the engine's side (a window's
 * `parts`, the held order, max_order_bytes) through the example ruleset
 * fleets_example (engine/examples/fleets.c), and the server's part changes
 * (server/game/order_parts.c): set, replace and delete one member of the held
 * order, the last delete a withdrawal, refusals that leave the game as it
 * was, the size limit, and a replay of every input to the same hash.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/examples/examples.h"
#include "server/game/order_parts.h"
#include "tests/unit/test.h"

static const uint8_t seed[ENGINE_SEED_BYTES] = {4, 2};

typedef struct run {
    engine_game *g;
    json_t *inputs;  /* stored forms, for the replay */
    json_t *options; /* the game's options (NULL: none) */
    uint64_t seq;
} run;

static int start_with(run *r, const char *ruleset, int seats,
                      const char *options)
{
    engine_error err = {0};
    memset(r, 0, sizeof *r);
    r->options = options ? json_loads(options, 0, NULL) : json_object();
    r->g = engine_create(ruleset, "g-parts", options ? r->options : NULL, seats,
                         seed, &err);
    r->inputs = json_array();
    if (!r->g)
        fprintf(stderr, "  create: %s\n", err.msg);
    return r->g != NULL;
}

static int start(run *r, const char *ruleset, int seats)
{
    return start_with(r, ruleset, seats, NULL);
}

static void hash_hex(const engine_game *g, char out[65])
{
    uint8_t h[ENGINE_HASH_BYTES];
    engine_hash(g, h);
    engine_hex(h, sizeof h, out);
}

/* Replay the recorded inputs from the seed: the same final hash. */
static void finish(run *r)
{
    char want[65], seed_hex[65];
    hash_hex(r->g, want);
    engine_hex(seed, sizeof seed, seed_hex);
    json_t *doc =
        json_pack("{s:s, s:s, s:s, s:O, s:i, s:s, s:O, s:s}", "format",
                  "conclave-export/1", "game_id", "g-parts", "ruleset",
                  engine_ruleset_id(engine_game_ruleset(r->g)), "options",
                  r->options, "seats", engine_game_seats(r->g), "seed",
                  seed_hex, "inputs", r->inputs, "final_hash", want);
    uint8_t h[ENGINE_HASH_BYTES];
    int match = 0;
    engine_error err = {0};
    CHECKF(engine_replay_export(doc, h, &match, NULL, &err) == 0 && match,
           "replay: %s", err.msg);
    json_decref(doc);
    json_decref(r->inputs);
    json_decref(r->options);
    engine_free(r->g);
}

/* A part change of seat as the actor makes it: build, apply, record.
 * Returns the server kind of the first refusal (SRV_INVALID for the
 * engine's), SRV_OK when applied. */
static srv_kind part(run *r, int seat, const char *window, order_part_op op,
                     const char *key, const char *value_json, srv_error *e)
{
    json_t *value =
        value_json ? json_loads(value_json, JSON_DECODE_ANY, NULL) : NULL;
    engine_input in = {.seat = seat, .window = window};
    json_t *payload = NULL;
    memset(e, 0, sizeof *e);
    srv_kind k = order_part_input(r->g, seat, window, op, key, value, &in.kind,
                                  &payload, e);
    json_decref(value);
    if (k != SRV_OK)
        return k;
    in.payload = payload;
    memset(in.nonce, 0x40 + (int)r->seq, sizeof in.nonce);
    engine_error err = {0};
    int rc = engine_apply(r->g, &in, NULL, &err);
    if (rc == 0)
        json_array_append_new(r->inputs, engine_input_to_json(&in, ++r->seq));
    json_decref(payload);
    return rc == 0 ? SRV_OK : SRV_INVALID;
}

/* The held order's canonical text ("-" when none). */
static char *held(const run *r, const char *window, int seat)
{
    const json_t *o = engine_held_order(r->g, window, seat);
    return o ? engine_canonical_json(o) : strdup("-");
}

#define CHECK_HELD(r, w, s, text)                                              \
    do {                                                                       \
        char *h_ = held(r, w, s);                                              \
        CHECK_EQ_STR(h_, text);                                                \
        free(h_);                                                              \
    } while (0)

static void test_window_and_limits(void)
{
    run r;
    REQUIRE(start(&r, "fleets_example", 2));
    engine_window w[2];
    REQUIRE(engine_windows(r.g, w, 2) == 1);
    CHECK_EQ_STR(w[0].id, "r1");
    CHECK_EQ_INT(w[0].parts, 1);
    json_t *legal = engine_legal(r.g, 0);
    CHECK(json_is_true(json_object_get(
        json_array_get(json_object_get(legal, "windows"), 0), "parts")));
    json_decref(legal);
    CHECK_EQ_INT(engine_max_order_bytes(engine_game_ruleset(r.g)), 256 * 1024);
    CHECK_EQ_INT(engine_max_order_bytes(engine_ruleset_find("rps")),
                 ENGINE_ORDER_BYTES_DEFAULT);
    CHECK_EQ_INT(engine_max_order_bytes_any(), 256 * 1024);
    CHECK(engine_held_order(r.g, "r1", 0) == NULL);
    CHECK(engine_held_order(r.g, "r9", 0) == NULL);
    finish(&r);

    /* rps: its windows take whole orders only */
    REQUIRE(start(&r, "rps", 2));
    REQUIRE(engine_windows(r.g, w, 2) == 1);
    CHECK_EQ_INT(w[0].parts, 0);
    srv_error e;
    CHECK_EQ_INT(part(&r, 0, "r1", ORDER_PART_SET, "throw", "\"rock\"", &e),
                 SRV_CONFLICT);
    CHECK(strstr(e.detail, "whole orders only") != NULL);
    finish(&r);
}

static void test_set_replace_delete(void)
{
    run r;
    srv_error e;
    REQUIRE(start(&r, "fleets_example", 2));
    CHECK_EQ_INT(part(&r, 0, "r1", ORDER_PART_SET, "f1", "{\"to\":5}", &e),
                 SRV_OK);
    CHECK_HELD(&r, "r1", 0, "{\"f1\":{\"to\":5}}");
    CHECK_EQ_INT(part(&r, 0, "r1", ORDER_PART_SET, "f0", "{\"to\":7}", &e),
                 SRV_OK);
    CHECK_EQ_INT(part(&r, 0, "r1", ORDER_PART_SET, "f1", "{\"to\":9}", &e),
                 SRV_OK);
    CHECK_HELD(&r, "r1", 0, "{\"f0\":{\"to\":7},\"f1\":{\"to\":9}}");
    CHECK_HELD(&r, "r1", 1, "-");
    /* refusals leave the held order as it was */
    CHECK_EQ_INT(part(&r, 0, "r1", ORDER_PART_SET, "f9", "{\"to\":1}", &e),
                 SRV_INVALID);
    CHECK_EQ_INT(part(&r, 0, "r1", ORDER_PART_SET, "f2", "{\"to\":100}", &e),
                 SRV_INVALID);
    CHECK_EQ_INT(part(&r, 0, "r1", ORDER_PART_DELETE, "f3", NULL, &e),
                 SRV_NOT_FOUND);
    CHECK_EQ_STR(e.field, "f3");
    CHECK_EQ_INT(part(&r, 0, "r2", ORDER_PART_SET, "f0", "{\"to\":1}", &e),
                 SRV_CONFLICT);
    CHECK_HELD(&r, "r1", 0, "{\"f0\":{\"to\":7},\"f1\":{\"to\":9}}");
    /* delete one, then the last: the order is withdrawn */
    CHECK_EQ_INT(part(&r, 0, "r1", ORDER_PART_DELETE, "f0", NULL, &e), SRV_OK);
    CHECK_HELD(&r, "r1", 0, "{\"f1\":{\"to\":9}}");
    CHECK_EQ_INT(part(&r, 0, "r1", ORDER_PART_DELETE, "f1", NULL, &e), SRV_OK);
    CHECK_HELD(&r, "r1", 0, "-");
    engine_window w[2];
    REQUIRE(engine_windows(r.g, w, 2) == 1);
    CHECK_EQ_INT(w[0].submitted, 0);
    CHECK_EQ_INT(part(&r, 0, "r1", ORDER_PART_DELETE, "f1", NULL, &e),
                 SRV_NOT_FOUND);
    /* both seats in: the window locks and the order is revealed whole */
    CHECK_EQ_INT(part(&r, 0, "r1", ORDER_PART_SET, "f2", "{\"to\":3}", &e),
                 SRV_OK);
    CHECK_EQ_INT(part(&r, 1, "r1", ORDER_PART_SET, "f0", "{\"to\":4}", &e),
                 SRV_OK);
    CHECK_HELD(&r, "r1", 0, "-");
    json_t *v = engine_view(r.g, ENGINE_PUBLIC);
    CHECK_EQ_INT(json_integer_value(json_array_get(
                     json_array_get(json_object_get(v, "positions"), 0), 2)),
                 3);
    json_decref(v);
    finish(&r);
}

/* The window's ready mask (bit per seat). */
static uint32_t ready_mask(const run *r)
{
    engine_window w[2];
    if (engine_windows(r->g, w, 2) != 1)
        return UINT32_MAX;
    return w[0].ready;
}

/* A ready_part window locks only when every seat holds an order with
 * "ready": true; the ruleset never sees that member; a timeout locks it
 * with the held orders, ready or not. */
static void test_ready_part(void)
{
    run r;
    srv_error e;
    REQUIRE(start_with(&r, "fleets_example", 2, "{\"ready\":true}"));
    engine_window w[2];
    REQUIRE(engine_windows(r.g, w, 2) == 1);
    CHECK_EQ_INT(w[0].ready_part, 1);
    json_t *legal = engine_legal(r.g, 0);
    CHECK(json_is_true(json_object_get(
        json_array_get(json_object_get(legal, "windows"), 0), "ready_part")));
    json_decref(legal);
    /* both seats hold parts: without "ready" nothing locks */
    CHECK_EQ_INT(part(&r, 0, "r1", ORDER_PART_SET, "f0", "{\"to\":7}", &e),
                 SRV_OK);
    CHECK_EQ_INT(part(&r, 1, "r1", ORDER_PART_SET, "f0", "{\"to\":4}", &e),
                 SRV_OK);
    CHECK_HELD(&r, "r1", 0, "{\"f0\":{\"to\":7}}");
    CHECK_EQ_INT(ready_mask(&r), 0);
    /* "ready" must be true; false is refused and changes nothing */
    CHECK_EQ_INT(part(&r, 0, "r1", ORDER_PART_SET, "ready", "false", &e),
                 SRV_INVALID);
    CHECK_EQ_INT(part(&r, 0, "r1", ORDER_PART_SET, "ready", "true", &e),
                 SRV_OK);
    CHECK_EQ_INT(ready_mask(&r), 1);
    /* taking it back: the order is open for editing again */
    CHECK_EQ_INT(part(&r, 0, "r1", ORDER_PART_DELETE, "ready", NULL, &e),
                 SRV_OK);
    CHECK_EQ_INT(ready_mask(&r), 0);
    CHECK_EQ_INT(part(&r, 0, "r1", ORDER_PART_SET, "f1", "{\"to\":2}", &e),
                 SRV_OK);
    CHECK_EQ_INT(part(&r, 0, "r1", ORDER_PART_SET, "ready", "true", &e),
                 SRV_OK);
    CHECK_HELD(&r, "r1", 1, "{\"f0\":{\"to\":4}}");
    /* a bot for seat 1 marks its order ready, so it locks the window */
    engine_input in;
    engine_rng rng;
    engine_rng_init(&rng, seed, 7);
    engine_error err = {0};
    REQUIRE(engine_bot_action(r.g, 1, "random", &rng, &in, &err) == 0);
    CHECK(engine_order_is_ready(in.payload));
    json_decref((json_t *)in.payload);
    /* seat 1 readies by hand: the window locks; the ruleset saw no "ready"
     * (fleets' check_order refuses unknown members) */
    CHECK_EQ_INT(part(&r, 1, "r1", ORDER_PART_SET, "ready", "true", &e),
                 SRV_OK);
    REQUIRE(engine_windows(r.g, w, 2) == 1);
    CHECK_EQ_STR(w[0].id, "r2");
    json_t *v = engine_view(r.g, ENGINE_PUBLIC);
    json_t *pos = json_object_get(v, "positions");
    CHECK_EQ_INT(json_integer_value(json_array_get(json_array_get(pos, 0), 1)),
                 2);
    CHECK_EQ_INT(json_integer_value(json_array_get(json_array_get(pos, 1), 0)),
                 4);
    json_decref(v);
    /* round 2: seat 0 readies, seat 1 holds an unready order; the timeout
     * locks with seat 1's held order, not a default */
    CHECK_EQ_INT(part(&r, 0, "r2", ORDER_PART_SET, "ready", "true", &e),
                 SRV_OK);
    CHECK_EQ_INT(part(&r, 1, "r2", ORDER_PART_SET, "f3", "{\"to\":9}", &e),
                 SRV_OK);
    engine_input t = {
        .seat = ENGINE_PUBLIC, .kind = ENGINE_TIMEOUT, .window = "r2"};
    REQUIRE(engine_apply(r.g, &t, NULL, &err) == 0);
    json_array_append_new(r.inputs, engine_input_to_json(&t, ++r.seq));
    v = engine_view(r.g, ENGINE_PUBLIC);
    pos = json_object_get(v, "positions");
    CHECK_EQ_INT(json_integer_value(json_array_get(json_array_get(pos, 1), 3)),
                 9);
    json_decref(v);
    finish(&r);
}

static void test_size_limit(void)
{
    run r;
    srv_error e;
    REQUIRE(start(&r, "fleets_example", 2));
    size_t n = 100 * 1024;
    char *big = malloc(n + 32);
    REQUIRE(big);
    int len = snprintf(big, 32, "{\"to\":1,\"note\":\"");
    memset(big + len, 'x', n);
    memcpy(big + len + n, "\"}", 3); /* with its NUL */
    /* two parts of 100 KiB: past the 64 KiB default, within 256 KiB */
    CHECK_EQ_INT(part(&r, 0, "r1", ORDER_PART_SET, "f0", big, &e), SRV_OK);
    CHECK_EQ_INT(part(&r, 0, "r1", ORDER_PART_SET, "f1", big, &e), SRV_OK);
    /* the third would make the order over 256 KiB */
    CHECK_EQ_INT(part(&r, 0, "r1", ORDER_PART_SET, "f2", big, &e),
                 SRV_TOO_LARGE);
    CHECK_EQ_STR(e.field, "f2");
    CHECK(strstr(e.detail, "262144") != NULL);
    char *h = held(&r, "r1", 0);
    CHECK(strstr(h, "\"f2\"") == NULL);
    free(h);
    /* replacing a part with a small one always fits */
    CHECK_EQ_INT(part(&r, 0, "r1", ORDER_PART_SET, "f1", "{\"to\":2}", &e),
                 SRV_OK);
    free(big);
    finish(&r);
}

static void test_keys(void)
{
    CHECK(order_part_key_ok("f0"));
    CHECK(order_part_key_ok("planet.A-3_x"));
    CHECK(!order_part_key_ok(""));
    CHECK(!order_part_key_ok("a/b"));
    CHECK(!order_part_key_ok("a b"));
    char longkey[ORDER_PART_KEY_MAX + 2];
    memset(longkey, 'k', sizeof longkey - 1);
    longkey[sizeof longkey - 1] = '\0';
    CHECK(!order_part_key_ok(longkey));
    longkey[ORDER_PART_KEY_MAX] = '\0';
    CHECK(order_part_key_ok(longkey));
    json_t *o = json_pack("{s:i, s:i, s:i}", "f2", 1, "f0", 1, "a", 1);
    json_t *k = order_part_keys(o);
    char *text = json_dumps(k, JSON_COMPACT);
    CHECK_EQ_STR(text, "[\"a\",\"f0\",\"f2\"]");
    free(text);
    json_decref(k);
    json_decref(o);
    k = order_part_keys(NULL);
    CHECK_EQ_INT(json_array_size(k), 0);
    json_decref(k);
}

int main(void)
{
    engine_error err = {0};
    if (engine_examples_register(&err) != 0 || engine_init(&err) != 0) {
        fprintf(stderr, "init: %s\n", err.msg);
        return 1;
    }
    RUN(test_window_and_limits);
    RUN(test_set_replace_delete);
    RUN(test_ready_part);
    RUN(test_size_limit);
    RUN(test_keys);
    return TEST_SUMMARY();
}

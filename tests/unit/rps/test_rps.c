/*
 * test_rps.c - the reference sealed ruleset and, through it, the core's
 * sealed-window machinery: options, order checks, hidden information before
 * lock (a marker planted in a note must not reach another audience by any
 * path), reveal and receipts after lock, replacement, withdrawal, default
 * orders on timeout, scoring, abort and the bots.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/ruleset.h"
#include "tests/unit/test.h"

static const uint8_t seed[ENGINE_SEED_BYTES] = {9, 9, 9};

static engine_game *new_game(const char *options_json)
{
    engine_error err = {0};
    json_t *opts = options_json ? json_loads(options_json, 0, NULL) : NULL;
    engine_game *g = engine_create("rps", "g-rps", opts, 2, seed, &err);
    if (!g)
        fprintf(stderr, "create: %s\n", err.msg);
    json_decref(opts);
    return g;
}

static void nonce_for(int seat, int n, uint8_t nonce[ENGINE_NONCE_BYTES])
{
    memset(nonce, 0, ENGINE_NONCE_BYTES);
    nonce[0] = (uint8_t)(0xA0 + seat);
    nonce[1] = (uint8_t)n;
    nonce[15] = 0x5A;
}

/* Give an order (JSON text) for seat in window. */
static int order(engine_game *g, int seat, const char *window, const char *json,
                 engine_receipt *receipt, engine_error *err)
{
    static int counter;
    json_t *p = json_loads(json, JSON_DECODE_ANY, NULL);
    engine_input in = {
        .seat = seat, .kind = ENGINE_ORDER, .window = window, .payload = p};
    nonce_for(seat, ++counter, in.nonce);
    memset(err, 0, sizeof *err);
    int rc = engine_apply(g, &in, receipt, err);
    json_decref(p);
    return rc;
}

static int system_input(engine_game *g, int seat, const char *window,
                        const char *action, engine_error *err)
{
    json_t *p = json_pack("{s:s}", "action", action);
    engine_input in = {
        .seat = seat, .kind = ENGINE_SYSTEM, .window = window, .payload = p};
    int rc = engine_apply(g, &in, NULL, err);
    json_decref(p);
    return rc;
}

static int timeout(engine_game *g, const char *window, engine_error *err)
{
    engine_input in = {
        .seat = ENGINE_PUBLIC, .kind = ENGINE_TIMEOUT, .window = window};
    return engine_apply(g, &in, NULL, err);
}

static int contains(json_t *value, const char *needle)
{
    char *text = json_dumps(value, JSON_ENCODE_ANY | JSON_COMPACT);
    int found = text && strstr(text, needle) != NULL;
    free(text);
    return found;
}

/* Everything one audience can read about the game, as one text. */
static int audience_sees(const engine_game *g, int seat, const char *needle)
{
    json_t *v = engine_view(g, seat), *l = engine_log_since(g, seat, 0),
           *legal = engine_legal(g, seat);
    int found =
        contains(v, needle) || contains(l, needle) || contains(legal, needle);
    json_decref(v);
    json_decref(l);
    json_decref(legal);
    /* The windows list carries ids and bitmasks only. */
    engine_window w[4];
    int n = engine_windows(g, w, 4);
    for (int i = 0; i < n && i < 4; i++)
        found |= strstr(w[i].id, needle) != NULL;
    return found;
}

static void test_options(void)
{
    engine_game *g = new_game(NULL);
    REQUIRE(g);
    json_t *v = engine_view(g, ENGINE_PUBLIC);
    CHECK_EQ_INT(json_integer_value(json_object_get(v, "rounds")), 3);
    CHECK_EQ_INT(json_integer_value(json_object_get(v, "round")), 1);
    json_decref(v);
    engine_free(g);
    g = new_game("{\"rounds\":99}");
    CHECK(g != NULL);
    engine_free(g);

    static const char *bad[] = {"{\"rounds\":0}", "{\"rounds\":100}",
                                "{\"rounds\":\"3\"}", "{\"rounds\":2.5}"};
    for (size_t i = 0; i < 4; i++) {
        engine_error err = {0};
        json_t *o = json_loads(bad[i], 0, NULL);
        CHECK(!engine_create("rps", "x", o, 2, seed, &err));
        CHECK_EQ_INT(err.code, ENGINE_EINVALID);
        CHECK_EQ_STR(err.field, "rounds");
        json_decref(o);
    }
    engine_error err = {0};
    json_t *o = json_pack("{s:b}", "lizard", 1);
    CHECK(!engine_create("rps", "x", o, 2, seed, &err));
    CHECK_EQ_STR(err.field, "lizard");
    json_decref(o);
    CHECK(!engine_create("rps", "x", NULL, 3, seed, &err));
    CHECK_EQ_STR(err.field, "seats");
}

static void test_window_shape(void)
{
    engine_game *g = new_game(NULL);
    engine_window w[2];
    engine_receipt r;
    engine_error err;
    REQUIRE(g);
    CHECK_EQ_INT(engine_windows(g, w, 2), 1);
    CHECK_EQ_STR(w[0].id, "r1");
    CHECK_EQ_INT(w[0].mode, ENGINE_SEALED);
    CHECK_EQ_INT(w[0].seats, 3u);
    CHECK_EQ_INT(w[0].submitted, 0u);
    CHECK_EQ_INT(order(g, 1, "r1", "{\"throw\":\"rock\"}", &r, &err), 0);
    CHECK_EQ_INT(engine_windows(g, w, 2), 1);
    CHECK_EQ_INT(w[0].submitted, 2u);
    json_t *l = engine_legal(g, 0);
    json_t *first = json_array_get(json_object_get(l, "windows"), 0);
    CHECK_EQ_STR(json_string_value(json_object_get(first, "kind")), "order");
    CHECK_EQ_STR(json_string_value(json_object_get(first, "mode")), "sealed");
    CHECK_EQ_INT(json_array_size(json_object_get(first, "choices")), 3);
    json_decref(l);
    engine_free(g);
}

static void test_order_checks(void)
{
    engine_game *g = new_game(NULL);
    REQUIRE(g);
    engine_error err;
    engine_receipt r;
    uint8_t before[ENGINE_HASH_BYTES], after[ENGINE_HASH_BYTES];
    engine_hash(g, before);
    char long_note[200], ok_note[300];
    snprintf(long_note, sizeof long_note,
             "{\"throw\":\"rock\",\"note\":\"%065d\"}", 0);
    /* 64 characters of two bytes each is fine: the limit counts characters */
    size_t len = (size_t)snprintf(ok_note, sizeof ok_note,
                                  "{\"throw\":\"rock\",\"note\":\"");
    for (int i = 0; i < 64; i++)
        len +=
            (size_t)snprintf(ok_note + len, sizeof ok_note - len, "\xc3\xa9");
    snprintf(ok_note + len, sizeof ok_note - len, "\"}");

    static const struct {
        int seat;
        const char *window, *body;
        int code;
        const char *field;
    } cases[] = {
        {0, "r1", "{\"throw\":\"lizard\"}", ENGINE_EINVALID, "throw"},
        {0, "r1", "{}", ENGINE_EINVALID, "throw"},
        {0, "r1", "{\"throw\":3}", ENGINE_EINVALID, "throw"},
        {0, "r1", "{\"throw\":\"rock\",\"spock\":1}", ENGINE_EINVALID, "spock"},
        {0, "r1", "{\"throw\":\"rock\",\"note\":7}", ENGINE_EINVALID, "note"},
        {0, "r1", "\"rock\"", ENGINE_EINVALID, NULL},
        {0, "r2", "{\"throw\":\"rock\"}", ENGINE_ECONFLICT, "window"},
        {0, "t1", "{\"throw\":\"rock\"}", ENGINE_ECONFLICT, "window"},
        {2, "r1", "{\"throw\":\"rock\"}", ENGINE_EFORBIDDEN, NULL},
        {ENGINE_PUBLIC, "r1", "{\"throw\":\"rock\"}", ENGINE_EFORBIDDEN, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc =
            order(g, cases[i].seat, cases[i].window, cases[i].body, &r, &err);
        CHECKF(rc == cases[i].code, "case %zu: %d (%s)", i, rc, err.msg);
        if (cases[i].field)
            CHECKF(strcmp(err.field, cases[i].field) == 0, "case %zu: field %s",
                   i, err.field);
        engine_hash(g, after);
        CHECKF(memcmp(before, after, sizeof before) == 0, "case %zu", i);
    }
    CHECK_EQ_INT(order(g, 0, "r1", long_note, &r, &err), ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "note");
    /* A play to a sealed window is a conflict. */
    json_t *p = json_pack("{s:s}", "throw", "rock");
    engine_input in = {
        .seat = 0, .kind = ENGINE_PLAY, .window = "r1", .payload = p};
    CHECK_EQ_INT(engine_apply(g, &in, NULL, &err), ENGINE_ECONFLICT);
    json_decref(p);
    engine_hash(g, after);
    CHECK(memcmp(before, after, sizeof before) == 0);
    CHECK_EQ_INT(order(g, 0, "r1", ok_note, &r, &err), 0);
    engine_free(g);
}

/* The central promise: nothing of a held order reaches anyone else. */
static void test_hidden_until_lock(void)
{
    const char *marker = "MARKER-7f3e9c1d-only-seat-0";
    char body[128];
    snprintf(body, sizeof body, "{\"throw\":\"scissors\",\"note\":\"%s\"}",
             marker);
    engine_game *g = new_game(NULL);
    REQUIRE(g);
    engine_error err;
    engine_receipt r0, r1;
    CHECK_EQ_INT(order(g, 0, "r1", body, &r0, &err), 0);

    CHECK(!audience_sees(g, 1, marker));
    CHECK(!audience_sees(g, ENGINE_PUBLIC, marker));
    CHECK(!audience_sees(g, 5, marker)); /* a bad seat number is public */
    CHECK(!audience_sees(g, 1, r0.hex)); /* not even the receipt */
    /* Seat 1's failing inputs say nothing about seat 0's order. */
    CHECK(order(g, 1, "r1", "{\"throw\":\"spock\"}", &r1, &err) != 0);
    CHECK(!strstr(err.msg, marker));
    CHECK(system_input(g, 1, "r1", "withdraw", &err) != 0);
    CHECK(!strstr(err.msg, marker));
    /* The author sees it, under my_orders. */
    json_t *v = engine_view(g, 0);
    json_t *mine = json_object_get(json_object_get(v, "my_orders"), "r1");
    CHECK_EQ_STR(json_string_value(json_object_get(mine, "note")), marker);
    json_decref(v);
    /* The public log records only that seat 0 submitted. */
    json_t *log = engine_log_since(g, ENGINE_PUBLIC, 0);
    CHECK(contains(log, "\"submitted\""));
    json_decref(log);

    /* Seat 1 orders: the window locks and everything is revealed. */
    size_t log_before = engine_log_length(g);
    CHECK_EQ_INT(order(g, 1, "r1", "{\"throw\":\"rock\"}", &r1, &err), 0);
    CHECK(audience_sees(g, 1, marker));
    CHECK(audience_sees(g, ENGINE_PUBLIC, marker));

    /* The public reveal entry: both orders with their nonces; each receipt
     * recomputes from what was revealed. */
    json_t *pub = engine_log_since(g, ENGINE_PUBLIC, log_before);
    json_t *reveal = NULL;
    size_t i;
    json_t *e;
    json_array_foreach(pub, i, e)
    {
        json_t *entry = json_object_get(e, "entry");
        if (strcmp(json_string_value(json_object_get(entry, "type")),
                   "reveal") == 0)
            reveal = entry;
        CHECK(json_is_null(json_object_get(e, "seat")));
    }
    REQUIRE(reveal);
    CHECK_EQ_STR(json_string_value(json_object_get(reveal, "window")), "r1");
    json_t *orders = json_object_get(reveal, "orders");
    CHECK_EQ_INT(json_array_size(orders), 2);
    json_array_foreach(orders, i, e)
    {
        int seat = (int)json_integer_value(json_object_get(e, "seat"));
        uint8_t nonce[ENGINE_NONCE_BYTES];
        CHECK(engine_unhex(json_string_value(json_object_get(e, "nonce")),
                           nonce, ENGINE_NONCE_BYTES) == 0);
        engine_receipt again;
        engine_receipt_compute("g-rps", "r1", seat, json_object_get(e, "order"),
                               nonce, &again);
        CHECK_EQ_STR(again.hex, seat == 0 ? r0.hex : r1.hex);
    }
    json_decref(pub);

    /* Each seat also gets its own full order and receipt, privately. */
    for (int seat = 0; seat < 2; seat++) {
        json_t *mine_log = engine_log_since(g, seat, log_before);
        int found = 0;
        json_array_foreach(mine_log, i, e)
        {
            json_t *entry = json_object_get(e, "entry");
            if (strcmp(json_string_value(json_object_get(entry, "type")),
                       "your_order") != 0)
                continue;
            found++;
            CHECK_EQ_INT(json_integer_value(json_object_get(e, "seat")), seat);
            CHECK_EQ_STR(json_string_value(json_object_get(entry, "receipt")),
                         seat == 0 ? r0.hex : r1.hex);
        }
        CHECK_EQ_INT(found, 1);
        json_decref(mine_log);
    }
    json_t *public_log = engine_log_since(g, ENGINE_PUBLIC, 0);
    CHECK(!contains(public_log, "your_order"));
    json_decref(public_log);

    /* The round was scored (rock beats scissors) and the next window
     * opened; no held orders. */
    v = engine_view(g, 0);
    CHECK_EQ_INT(
        json_integer_value(json_array_get(json_object_get(v, "scores"), 1)), 1);
    CHECK_EQ_INT(json_object_size(json_object_get(v, "my_orders")), 0);
    json_decref(v);
    engine_window w;
    CHECK_EQ_INT(engine_windows(g, &w, 1), 1);
    CHECK_EQ_STR(w.id, "r2");
    CHECK_EQ_INT(w.submitted, 0);
    /* The locked window takes nothing more. */
    CHECK_EQ_INT(order(g, 0, "r1", "{\"throw\":\"rock\"}", &r0, &err),
                 ENGINE_ECONFLICT);
    CHECK_EQ_INT(timeout(g, "r1", &err), ENGINE_ECONFLICT);
    engine_free(g);
}

static void test_receipt_construction(void)
{
    /* The receipt is SHA-256 over length-prefixed parts, as documented. */
    json_t *o = json_pack("{s:s, s:s}", "throw", "rock", "note", "hi");
    uint8_t nonce[ENGINE_NONCE_BYTES];
    nonce_for(1, 2, nonce);
    engine_receipt r;
    engine_receipt_compute("game-1", "r1", 1, o, nonce, &r);

    const char *canon = "{\"note\":\"hi\",\"throw\":\"rock\"}";
    const char *parts[4] = {"game-1", "r1", "1", canon};
    uint8_t buf[256], *p = buf, h[32];
    for (int i = 0; i < 5; i++) {
        size_t n = i < 4 ? strlen(parts[i]) : ENGINE_NONCE_BYTES;
        for (int k = 7; k >= 0; k--)
            *p++ = (uint8_t)((uint64_t)n >> (8 * k));
        memcpy(p, i < 4 ? (const void *)parts[i] : nonce, n);
        p += n;
    }
    engine_sha256(buf, (size_t)(p - buf), h);
    char hex[65];
    engine_hex(h, 32, hex);
    CHECK_EQ_STR(r.hex, hex);
    /* Any part changes it. */
    engine_receipt other;
    engine_receipt_compute("game-1", "r1", 0, o, nonce, &other);
    CHECK(strcmp(other.hex, r.hex) != 0);
    nonce[3] ^= 1;
    engine_receipt_compute("game-1", "r1", 1, o, nonce, &other);
    CHECK(strcmp(other.hex, r.hex) != 0);
    json_decref(o);
}

static const char *revealed_throw(const engine_game *g, int seat)
{
    static char out[16];
    json_t *log = engine_log_since(g, ENGINE_PUBLIC, 0);
    size_t i, k;
    json_t *e, *o;
    out[0] = '\0';
    json_array_foreach(log, i, e)
    {
        json_t *entry = json_object_get(e, "entry");
        if (strcmp(json_string_value(json_object_get(entry, "type")),
                   "reveal") != 0)
            continue;
        json_array_foreach(json_object_get(entry, "orders"), k, o)
        {
            if (json_integer_value(json_object_get(o, "seat")) == seat)
                snprintf(out, sizeof out, "%s",
                         json_string_value(json_object_get(
                             json_object_get(o, "order"), "throw")));
        }
    }
    json_decref(log);
    return out;
}

static void test_replacement_keeps_last(void)
{
    engine_game *g = new_game(NULL);
    REQUIRE(g);
    engine_error err;
    engine_receipt first, second, r1;
    CHECK_EQ_INT(order(g, 0, "r1", "{\"throw\":\"rock\"}", &first, &err), 0);
    CHECK_EQ_INT(order(g, 0, "r1", "{\"throw\":\"paper\"}", &second, &err), 0);
    CHECK(strcmp(first.hex, second.hex) != 0);
    json_t *v = engine_view(g, 0);
    CHECK_EQ_STR(
        json_string_value(json_object_get(
            json_object_get(json_object_get(v, "my_orders"), "r1"), "throw")),
        "paper");
    json_decref(v);
    engine_window w;
    engine_windows(g, &w, 1);
    CHECK_EQ_INT(w.submitted, 1u); /* still one order, not two */
    CHECK_EQ_INT(order(g, 1, "r1", "{\"throw\":\"rock\"}", &r1, &err), 0);
    CHECK_EQ_STR(revealed_throw(g, 0), "paper");
    v = engine_view(g, 1);
    CHECK_EQ_INT(
        json_integer_value(json_array_get(json_object_get(v, "scores"), 0)), 1);
    json_decref(v);
    engine_free(g);
}

static void test_withdraw(void)
{
    engine_game *g = new_game(NULL);
    REQUIRE(g);
    engine_error err;
    engine_receipt r;
    uint8_t h0[32], h1[32];
    CHECK_EQ_INT(order(g, 0, "r1", "{\"throw\":\"rock\"}", &r, &err), 0);
    CHECK_EQ_INT(system_input(g, 0, "r1", "withdraw", &err), 0);
    engine_window w;
    engine_windows(g, &w, 1);
    CHECK_EQ_INT(w.submitted, 0u);
    json_t *v = engine_view(g, 0);
    CHECK_EQ_INT(json_object_size(json_object_get(v, "my_orders")), 0);
    json_decref(v);
    json_t *log = engine_log_since(g, ENGINE_PUBLIC, 0);
    CHECK(contains(log, "\"withdrawn\""));
    CHECK(!contains(log, "rock"));
    json_decref(log);

    engine_hash(g, h0);
    CHECK_EQ_INT(system_input(g, 0, "r1", "withdraw", &err), ENGINE_ECONFLICT);
    CHECK_EQ_INT(system_input(g, 1, "r1", "withdraw", &err), ENGINE_ECONFLICT);
    CHECK_EQ_INT(system_input(g, 0, "r9", "withdraw", &err), ENGINE_ECONFLICT);
    CHECK_EQ_INT(system_input(g, 0, NULL, "withdraw", &err), ENGINE_ECONFLICT);
    CHECK_EQ_INT(system_input(g, 4, "r1", "withdraw", &err), ENGINE_EFORBIDDEN);
    CHECK_EQ_INT(system_input(g, 0, "r1", "explode", &err), ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "action");
    engine_hash(g, h1);
    CHECK(memcmp(h0, h1, 32) == 0);

    /* A withdrawn order does not count toward the lock. */
    CHECK_EQ_INT(order(g, 1, "r1", "{\"throw\":\"paper\"}", &r, &err), 0);
    engine_windows(g, &w, 1);
    CHECK_EQ_STR(w.id, "r1");
    CHECK_EQ_INT(w.submitted, 2u);
    CHECK_EQ_INT(order(g, 0, "r1", "{\"throw\":\"scissors\"}", &r, &err), 0);
    engine_windows(g, &w, 1);
    CHECK_EQ_STR(w.id, "r2");
    CHECK_EQ_STR(revealed_throw(g, 0), "scissors");
    engine_free(g);
}

static void test_timeout_defaults(void)
{
    engine_game *a = new_game(NULL), *b = new_game(NULL);
    REQUIRE(a && b);
    engine_error err;
    engine_receipt r;
    /* Seat 0 ordered, seat 1 ran out of time. */
    CHECK_EQ_INT(
        order(a, 0, "r1", "{\"throw\":\"rock\",\"note\":\"n\"}", &r, &err), 0);
    engine_game *c = engine_clone(a);
    CHECK_EQ_INT(timeout(a, "r1", &err), 0);
    CHECK_EQ_INT(timeout(c, "r1", &err), 0);
    uint8_t ha[32], hc[32];
    engine_hash(a, ha);
    engine_hash(c, hc);
    CHECK(memcmp(ha, hc, 32) == 0); /* deterministic default */
    CHECK_EQ_STR(revealed_throw(a, 0), "rock");
    const char *t1 = revealed_throw(a, 1);
    CHECK(!strcmp(t1, "rock") || !strcmp(t1, "paper") ||
          !strcmp(t1, "scissors"));
    json_t *log = engine_log_since(a, ENGINE_PUBLIC, 0);
    CHECK(contains(log, "\"default\":true"));
    CHECK(contains(log, "\"timeout\""));
    json_decref(log);
    engine_free(c);

    /* Nobody ordered: both get defaults, and over many windows the
     * defaults spread over all three throws (they come from the RNG). */
    int seen[3] = {0, 0, 0};
    engine_game *d = new_game("{\"rounds\":30}");
    for (int round = 1; round <= 30; round++) {
        char id[16];
        snprintf(id, sizeof id, "r%d", round);
        CHECK_EQ_INT(timeout(d, id, &err), 0);
        for (int s = 0; s < 2; s++) {
            const char *t = revealed_throw(d, s);
            seen[t[0] == 'r' ? 0 : t[0] == 'p' ? 1 : 2]++;
        }
    }
    CHECK(engine_is_over(d));
    CHECK(seen[0] > 0 && seen[1] > 0 && seen[2] > 0);
    engine_free(d);
    engine_free(a);
    engine_free(b);
}

static void test_full_game_and_result(void)
{
    engine_game *g = new_game(NULL);
    REQUIRE(g);
    engine_error err;
    engine_receipt r;
    /* r1: paper beats rock; r2: a tie; r3: rock beats scissors. 2-0. */
    static const char *t0[] = {"paper", "rock", "rock"};
    static const char *t1[] = {"rock", "rock", "scissors"};
    for (int i = 0; i < 3; i++) {
        char id[16], b0[64], b1[64];
        snprintf(id, sizeof id, "r%d", i + 1);
        snprintf(b0, sizeof b0, "{\"throw\":\"%s\"}", t0[i]);
        snprintf(b1, sizeof b1, "{\"throw\":\"%s\"}", t1[i]);
        CHECK_EQ_INT(order(g, 1, id, b1, &r, &err), 0);
        CHECK_EQ_INT(order(g, 0, id, b0, &r, &err), 0);
    }
    CHECK(engine_is_over(g));
    json_t *res = engine_result(g);
    json_t *want = json_pack("{s:[i], s:b, s:[i,i]}", "winners", 0, "draw", 0,
                             "scores", 2, 0);
    CHECK(json_equal(res, want));
    json_decref(res);
    json_decref(want);
    json_t *v = engine_view(g, ENGINE_PUBLIC);
    CHECK(json_is_null(json_object_get(v, "round")));
    CHECK_EQ_INT(json_integer_value(json_object_get(v, "winner")), 0);
    CHECK_EQ_INT(json_array_size(json_object_get(v, "history")), 3);
    json_decref(v);
    CHECK_EQ_INT(order(g, 0, "r4", "{\"throw\":\"rock\"}", &r, &err),
                 ENGINE_EOVER);
    engine_free(g);
}

static void test_abort_discards_orders(void)
{
    const char *marker = "ABORT-MARKER-19";
    char body[96];
    snprintf(body, sizeof body, "{\"throw\":\"rock\",\"note\":\"%s\"}", marker);
    engine_game *g = new_game(NULL);
    REQUIRE(g);
    engine_error err;
    engine_receipt r;
    CHECK_EQ_INT(order(g, 0, "r1", body, &r, &err), 0);
    CHECK_EQ_INT(system_input(g, ENGINE_PUBLIC, NULL, "abort", &err), 0);
    CHECK(engine_is_over(g));
    CHECK(engine_is_aborted(g));
    json_t *res = engine_result(g), *want = json_pack("{s:b}", "aborted", 1);
    CHECK(json_equal(res, want));
    json_decref(res);
    json_decref(want);
    CHECK(!audience_sees(g, 1, marker));
    CHECK(!audience_sees(g, ENGINE_PUBLIC, marker));
    json_t *saved = engine_save(g);
    CHECK(!contains(saved, marker)); /* dropped, not just hidden */
    json_decref(saved);
    engine_window w;
    CHECK_EQ_INT(engine_windows(g, &w, 1), 0);
    CHECK_EQ_INT(system_input(g, ENGINE_PUBLIC, NULL, "abort", &err),
                 ENGINE_EOVER);
    CHECK_EQ_INT(timeout(g, "r1", &err), ENGINE_EOVER);
    engine_free(g);
}

static void test_bots(void)
{
    engine_rng rng;
    engine_rng_init(&rng, seed, 3);
    /* basic exploits a seat that always throws rock. */
    engine_game *g = new_game("{\"rounds\":40}");
    engine_error err;
    engine_receipt r;
    while (!engine_is_over(g)) {
        engine_window w;
        REQUIRE(engine_windows(g, &w, 1) == 1);
        CHECK_EQ_INT(order(g, 1, w.id, "{\"throw\":\"rock\"}", &r, &err), 0);
        engine_input in;
        REQUIRE(engine_bot_action(g, 0, "basic", &rng, &in, &err) == 0);
        CHECK_EQ_INT(in.kind, ENGINE_ORDER);
        CHECK_EQ_STR(in.window, w.id);
        CHECK_EQ_INT(engine_apply(g, &in, NULL, &err), 0);
        json_decref((json_t *)in.payload);
    }
    json_t *res = engine_result(g);
    CHECK(json_integer_value(
              json_array_get(json_object_get(res, "scores"), 0)) >= 35);
    json_decref(res);
    engine_free(g);

    /* A seat that has ordered has nothing left to do. */
    g = new_game(NULL);
    CHECK_EQ_INT(order(g, 0, "r1", "{\"throw\":\"rock\"}", &r, &err), 0);
    engine_input in;
    CHECK_EQ_INT(engine_bot_action(g, 0, "random", &rng, &in, &err),
                 ENGINE_ECONFLICT);
    CHECK_EQ_INT(engine_bot_action(g, 1, "random", &rng, &in, &err), 0);
    json_decref((json_t *)in.payload);
    engine_free(g);
}

int main(void)
{
    engine_error err;
    if (engine_init(&err) != 0) {
        fprintf(stderr, "engine_init: %s\n", err.msg);
        return 1;
    }
    RUN(test_options);
    RUN(test_window_shape);
    RUN(test_order_checks);
    RUN(test_hidden_until_lock);
    RUN(test_receipt_construction);
    RUN(test_replacement_keeps_last);
    RUN(test_withdraw);
    RUN(test_timeout_defaults);
    RUN(test_full_game_and_result);
    RUN(test_abort_discards_orders);
    RUN(test_bots);
    return TEST_SUMMARY();
}

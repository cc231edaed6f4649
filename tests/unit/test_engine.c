/*
 * test_engine.c - the engine core, ruleset by ruleset: hashing and
 * canonical JSON, the registry, determinism (replay and save/load give the
 * same hash at every step), illegal inputs of every kind leave the game
 * unchanged, random games for every registered ruleset keep the core's
 * invariants (run it under ASan for leaks), export replay, and refusal of
 * corrupt saved games.
 *
 * The random-game tests iterate the registry, so a newly registered
 * ruleset is held to the same bar without editing this file.
 * CONCLAVE_TEST_QUICK=1 (exactly "1") shrinks the loops about 10x.
 *
 * The illegal-input sweep, the longest test (about half the file's CPU),
 * runs in a binary of its own, test_engine_sweep (test_engine_sweep.c
 * builds this file with TEST_ENGINE_SWEEP 1), so that the two halves run
 * side by side in make test.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/ruleset.h"
#include "tests/unit/test.h"

#ifndef TEST_ENGINE_SWEEP
#define TEST_ENGINE_SWEEP 0 /* 1: only the illegal-input sweep */
#endif

static int quick(void)
{
    const char *q = getenv("CONCLAVE_TEST_QUICK");
    return q && strcmp(q, "1") == 0;
}

static int scaled(int n)
{
    return quick() ? (n + 9) / 10 : n;
}

static void make_seed(uint64_t n, uint8_t seed[ENGINE_SEED_BYTES])
{
    uint8_t in[16] = "conclave-test";
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

static int hash_is(const engine_game *g, const uint8_t h[ENGINE_HASH_BYTES])
{
    uint8_t x[ENGINE_HASH_BYTES];
    engine_hash(g, x);
    return memcmp(x, h, sizeof x) == 0;
}

/* save -> load -> hash is the identity. */
static int save_load_identity(const engine_game *g)
{
    engine_error err = {0};
    json_t *saved = engine_save(g);
    engine_game *h = saved ? engine_load(saved, &err) : NULL;
    int ok = h && same_hash(g, h);
    if (!h)
        fprintf(stderr, "  load failed: %s\n", err.msg);
    engine_free(h);
    json_decref(saved);
    return ok;
}

/* --------------------------------------------------------- basic pieces */

static void test_sha256_and_hex(void)
{
    static const struct {
        const char *in, *out;
    } v[] = {
        {"",
         "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abc",
         "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
    };
    for (size_t i = 0; i < 3; i++) {
        uint8_t h[32];
        char hex[65];
        engine_sha256(v[i].in, strlen(v[i].in), h);
        engine_hex(h, 32, hex);
        CHECK_EQ_STR(hex, v[i].out);
        uint8_t back[32];
        CHECK(engine_unhex(v[i].out, back, 32) == 0);
        CHECK(memcmp(back, h, 32) == 0);
    }
    uint8_t b[2];
    CHECK(engine_unhex("0aFf", b, 2) == 0 && b[0] == 0x0a && b[1] == 0xff);
    CHECK(engine_unhex("0aF", b, 2) != 0);
    CHECK(engine_unhex("0aFg", b, 2) != 0);
    CHECK(engine_unhex(NULL, b, 2) != 0);
}

static void test_canonical_json(void)
{
    json_t *v =
        json_loads("{\"b\": 1, \"a\": [1, {\"d\": 2, \"c\": \"\xc3\xa9\"}],"
                   " \"ab\": null}",
                   0, NULL);
    REQUIRE(v);
    char *s = engine_canonical_json(v);
    CHECK_EQ_STR(s, "{\"a\":[1,{\"c\":\"\xc3\xa9\",\"d\":2}],\"ab\":null,"
                    "\"b\":1}");
    free(s);
    json_t *str = json_string("x");
    s = engine_canonical_json(str);
    CHECK_EQ_STR(s, "\"x\"");
    free(s);
    json_decref(str);
    json_decref(v);
    CHECK(engine_canonical_json(NULL) == NULL);
}

static void test_engine_fail(void)
{
    engine_error err;
    memset(&err, 'x', sizeof err);
    CHECK_EQ_INT(engine_fail(&err, ENGINE_EINVALID, "cell", "bad %d", 7),
                 ENGINE_EINVALID);
    CHECK_EQ_INT(err.code, ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "cell");
    CHECK_EQ_STR(err.msg, "bad 7");
    CHECK_EQ_INT(engine_fail(&err, ENGINE_ECONFLICT, NULL, "%s", ""),
                 ENGINE_ECONFLICT);
    CHECK_EQ_STR(err.field, "");
    char big[600];
    memset(big, 'y', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    engine_fail(&err, ENGINE_EINVALID, big, "%s", big);
    CHECK(strlen(err.field) == sizeof err.field - 1);
    CHECK(strlen(err.msg) == sizeof err.msg - 1);
    CHECK_EQ_INT(engine_fail(NULL, ENGINE_EOVER, "", "x"), ENGINE_EOVER);
}

static void test_input_kinds_and_json(void)
{
    static const char *names[] = {"order", "play", "timeout", "system"};
    for (int k = 0; k < 4; k++) {
        engine_input_kind kind;
        CHECK(engine_input_kind_parse(names[k], &kind) == 0);
        CHECK_EQ_INT(kind, k);
        CHECK_EQ_STR(engine_input_kind_name(kind), names[k]);
    }
    engine_input_kind kind;
    CHECK(engine_input_kind_parse("move", &kind) == ENGINE_EINVALID);
    CHECK(engine_input_kind_parse(NULL, &kind) == ENGINE_EINVALID);
    CHECK_EQ_STR(engine_input_kind_name((engine_input_kind)9), "unknown");

    json_t *p = json_pack("{s:s}", "throw", "rock");
    engine_input in = {
        .seat = 1, .kind = ENGINE_ORDER, .window = "r1", .payload = p};
    for (int i = 0; i < ENGINE_NONCE_BYTES; i++)
        in.nonce[i] = (uint8_t)(i * 17);
    json_t *j = engine_input_to_json(&in, 12);
    REQUIRE(j);
    engine_input back;
    uint64_t seq = 0;
    engine_error err;
    CHECK(engine_input_from_json(j, &back, &seq, &err) == 0);
    CHECK_EQ_INT(seq, 12);
    CHECK_EQ_INT(back.seat, 1);
    CHECK_EQ_INT(back.kind, ENGINE_ORDER);
    CHECK_EQ_STR(back.window, "r1");
    CHECK(json_equal((json_t *)back.payload, p));
    CHECK(memcmp(back.nonce, in.nonce, ENGINE_NONCE_BYTES) == 0);
    json_decref(j);

    engine_input t = {
        .seat = ENGINE_PUBLIC, .kind = ENGINE_TIMEOUT, .window = "r1"};
    j = engine_input_to_json(&t, 13);
    CHECK(json_is_null(json_object_get(j, "seat")));
    CHECK(json_is_null(json_object_get(j, "nonce")));
    CHECK(json_is_null(json_object_get(j, "payload")));
    CHECK(engine_input_from_json(j, &back, NULL, &err) == 0);
    CHECK_EQ_INT(back.seat, ENGINE_PUBLIC);
    CHECK(back.payload == NULL);
    json_decref(j);

    /* Malformed stored inputs name their field. */
    static const struct {
        const char *json, *field;
    } bad[] = {
        {"{\"seq\":1,\"seat\":0,\"kind\":\"jump\"}", "kind"},
        {"{\"seq\":1,\"seat\":\"0\",\"kind\":\"play\"}", "seat"},
        {"{\"seq\":1,\"seat\":99,\"kind\":\"play\"}", "seat"},
        {"{\"seat\":0,\"kind\":\"play\"}", "seq"},
        {"{\"seq\":1,\"seat\":0,\"kind\":\"order\",\"window\":\"r1\"}",
         "nonce"},
        {"{\"seq\":1,\"seat\":0,\"kind\":\"order\",\"nonce\":\"abc\"}",
         "nonce"},
        {"{\"seq\":1,\"seat\":0,\"kind\":\"play\",\"window\":5}", "window"},
        {"[]", "input"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_t *b = json_loads(bad[i].json, JSON_DECODE_ANY, NULL);
        CHECKF(engine_input_from_json(b, &back, &seq, &err) == ENGINE_EINVALID,
               "case %zu", i);
        CHECKF(strcmp(err.field, bad[i].field) == 0, "case %zu: %s", i,
               err.field);
        json_decref(b);
    }
    json_decref(p);
}

static void test_registry(void)
{
    size_t n = 0;
    const engine_ruleset *const *all = engine_rulesets(&n);
    int ttt = 0, rps = 0;
    for (size_t i = 0; i < n; i++) {
        const engine_ruleset *rs = all[i];
        REQUIRE(rs && rs->id);
        ttt |= strcmp(rs->id, "tictactoe") == 0;
        rps |= strcmp(rs->id, "rps") == 0;
        CHECK(engine_ruleset_find(rs->id) == rs);
        for (const char *c = rs->id; *c; c++)
            CHECKF((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') ||
                       *c == '_',
                   "id %s", rs->id);
        CHECK(rs->min_seats >= 1 && rs->min_seats <= rs->max_seats &&
              rs->max_seats <= ENGINE_MAX_SEATS);
        CHECK(rs->setup && rs->destroy && rs->clone && rs->save && rs->load &&
              rs->windows && rs->view && rs->legal && rs->bot && rs->is_over &&
              rs->result);
        json_t *d = engine_ruleset_describe(rs);
        REQUIRE(d);
        CHECK(json_is_string(json_object_get(d, "title")));
        CHECK(json_is_string(json_object_get(d, "summary")));
        CHECKF(json_is_object(json_object_get(d, "options")),
               "%s: the options schema is not a JSON object", rs->id);
        /* The options table is sane: defaults in range, names listed. */
        for (const engine_option *o = rs->options; o && o->name; o++) {
            CHECKF(o->kind != ENGINE_OPTION_INT ||
                       (o->min <= o->def && o->def <= o->max),
                   "%s.%s: default out of range", rs->id, o->name);
            CHECKF(o->kind != ENGINE_OPTION_NAMES ||
                       (o->choices && o->choices[0] && o->max >= 1),
                   "%s.%s: no names", rs->id, o->name);
            CHECKF(o->title && o->title[0], "%s.%s: no title", rs->id, o->name);
        }
        json_decref(d);
        for (size_t k = 0; k < i; k++)
            CHECK(strcmp(all[k]->id, rs->id) != 0);
    }
    CHECK(ttt && rps);
    CHECK(engine_ruleset_find("no-such") == NULL);
    CHECK(engine_ruleset_find(NULL) == NULL);
    engine_error err;
    CHECK(engine_init(&err) == 0); /* again: a no-op */
}

/* -------------------------------------------------- random game driver */

typedef struct driver {
    engine_game *g;
    engine_rng rng; /* the bots' and the driver's choices */
    const char *level;
    int chaos;      /* also timeouts, withdrawals, replacements, aborts */
    json_t *inputs; /* accepted inputs in stored form */
    char closed[8][ENGINE_WINDOW_ID_MAX]; /* recent windows now shut */
    int nclosed;
    /* illegal_round: the state's hash before the round, the round's number
     * and its probes so far (expect_refused) */
    uint8_t round_hash[ENGINE_HASH_BYTES];
    int round, probe;
} driver;

static uint32_t pick(driver *d, uint32_t n)
{
    return engine_rng_below(&d->rng, n);
}

static void remember_windows(driver *d, const engine_window *before, int n)
{
    engine_window now[16];
    int m = engine_windows(d->g, now, 16);
    for (int i = 0; i < n && i < 16; i++) {
        int open = 0;
        for (int k = 0; k < m && k < 16 && !open; k++)
            open = strcmp(now[k].id, before[i].id) == 0;
        if (!open) {
            memcpy(d->closed[d->nclosed % 8], before[i].id,
                   ENGINE_WINDOW_ID_MAX);
            d->nclosed++;
        }
    }
}

static int record(driver *d, const engine_input *in)
{
    json_t *j = engine_input_to_json(in, json_array_size(d->inputs) + 1);
    return j ? json_array_append_new(d->inputs, j) : -1;
}

/* Apply in, expecting success; record it. */
static int drive_apply(driver *d, const engine_input *in, const char *what)
{
    engine_window before[16];
    engine_error err = {0};
    int n = engine_windows(d->g, before, 16);
    int rc = engine_apply(d->g, in, NULL, &err);
    if (rc != 0) {
        fprintf(stderr, "  %s: %s %s by %d in %s refused: %s (%s)\n",
                engine_game_ruleset(d->g)->id, what,
                engine_input_kind_name(in->kind), in->seat,
                in->window ? in->window : "-", err.msg, err.field);
        return -1;
    }
    remember_windows(d, before, n);
    return record(d, in);
}

/* One random accepted input. 0: applied; 1: the game is over; -1: the
 * engine or a bot misbehaved. */
static int random_step(driver *d)
{
    engine_window w[16];
    engine_game *g = d->g;
    if (engine_is_over(g))
        return 1;
    int n = engine_windows(g, w, 16);
    if (n <= 0 || n > 16) {
        fprintf(stderr, "  %s: running with %d windows\n",
                engine_game_ruleset(g)->id, n);
        return -1;
    }
    const engine_window *win = &w[pick(d, (uint32_t)n)];
    int seats = engine_game_seats(g);

    if (d->chaos) {
        uint32_t roll = pick(d, 1000);
        if (roll < 2) {
            json_t *p = json_pack("{s:s}", "action", "abort");
            engine_input in = {
                .seat = ENGINE_PUBLIC, .kind = ENGINE_SYSTEM, .payload = p};
            int rc = drive_apply(d, &in, "abort");
            json_decref(p);
            return rc;
        }
        if (roll < 40) {
            engine_input in = {.seat = ENGINE_PUBLIC,
                               .kind = ENGINE_TIMEOUT,
                               .window = win->id};
            engine_error err;
            engine_game *probe = engine_clone(g);
            int rc = engine_apply(probe, &in, NULL, &err);
            engine_free(probe);
            /* Open windows without a clock may refuse; sealed ones never. */
            if (rc == 0)
                return drive_apply(d, &in, "timeout");
            if (win->mode == ENGINE_SEALED) {
                fprintf(stderr, "  sealed timeout refused: %s\n", err.msg);
                return -1;
            }
        }
        if (roll < 100 && win->mode == ENGINE_SEALED && win->submitted) {
            int s;
            do
                s = (int)pick(d, (uint32_t)seats);
            while (!(win->submitted & (1u << s)));
            json_t *p = json_pack("{s:s}", "action", "withdraw");
            engine_input in = {.seat = s,
                               .kind = ENGINE_SYSTEM,
                               .window = win->id,
                               .payload = p};
            int rc = drive_apply(d, &in, "withdraw");
            json_decref(p);
            return rc;
        }
    }

    /* A seat that has something to do in this window. */
    uint32_t todo = win->seats;
    if (win->mode == ENGINE_SEALED)
        todo &= ~win->submitted;
    if (!todo) {
        fprintf(stderr, "  window %s waits on nobody\n", win->id);
        return -1;
    }
    int seat;
    do
        seat = (int)pick(d, (uint32_t)seats);
    while (!(todo & (1u << seat)));

    engine_input in;
    engine_error err = {0};
    const char *level = d->level ? d->level : pick(d, 2) ? "basic" : "random";
    if (engine_bot_action(g, seat, level, &d->rng, &in, &err) != 0 &&
        engine_bot_action(g, seat, "random", &d->rng, &in, &err) != 0) {
        fprintf(stderr, "  %s: no bot action for seat %d: %s\n",
                engine_game_ruleset(g)->id, seat, err.msg);
        return -1;
    }
    int rc = drive_apply(d, &in, level);
    /* Sometimes give a sealed order twice: the second replaces the first
     * (unless the first locked the window). */
    if (rc == 0 && d->chaos && in.kind == ENGINE_ORDER && pick(d, 10) == 0 &&
        !engine_is_over(g)) {
        engine_window again;
        if (engine_windows(g, &again, 1) >= 1 && in.window &&
            strcmp(again.id, in.window) == 0) {
            in.nonce[0] ^= 0x55;
            engine_game *probe = engine_clone(g);
            if (engine_apply(probe, &in, NULL, &err) == 0)
                rc = drive_apply(d, &in, "replacement");
            engine_free(probe);
        }
    }
    json_decref((json_t *)in.payload);
    return rc;
}

static engine_game *create_for(const engine_ruleset *rs, int seats, uint64_t n,
                               engine_error *err)
{
    uint8_t seed[ENGINE_SEED_BYTES];
    char id[32];
    make_seed(n, seed);
    snprintf(id, sizeof id, "game-%llu", (unsigned long long)n);
    return engine_create(rs->id, id, NULL, seats, seed, err);
}

static json_t *export_of(const engine_game *g, json_t *inputs)
{
    char seed[2 * ENGINE_SEED_BYTES + 1], hash[2 * ENGINE_HASH_BYTES + 1];
    uint8_t h[ENGINE_HASH_BYTES];
    engine_hex(engine_game_seed(g), ENGINE_SEED_BYTES, seed);
    engine_hash(g, h);
    engine_hex(h, ENGINE_HASH_BYTES, hash);
    return json_pack("{s:s, s:s, s:s, s:O, s:i, s:s, s:O, s:s}", "format",
                     "conclave-export/1", "game_id", engine_game_id(g),
                     "ruleset", engine_game_ruleset(g)->id, "options",
                     engine_game_options(g), "seats", engine_game_seats(g),
                     "seed", seed, "inputs", inputs, "final_hash", hash);
}

/* ------------------------------------------------------ determinism -- */

/* 1,000 random tic-tac-toe games: replaying the recorded inputs from the
 * seed gives the same hash at every step, and so does save -> load. */
static void test_determinism_tictactoe(void)
{
    const engine_ruleset *rs = engine_ruleset_find("tictactoe");
    int games = scaled(1000), steps = 0;
    for (int n = 0; n < games; n++) {
        engine_error err;
        driver d = {.level = "random", .inputs = json_array()};
        uint8_t key[32];
        make_seed(100000 + (uint64_t)n, key);
        engine_rng_init(&d.rng, key, 7);
        d.g = create_for(rs, 2, (uint64_t)n, &err);
        REQUIRE(d.g);
        uint8_t hashes[10][ENGINE_HASH_BYTES];
        int k = 0, rc;
        engine_hash(d.g, hashes[k++]);
        CHECK(save_load_identity(d.g));
        while ((rc = random_step(&d)) == 0 && k < 10) {
            engine_hash(d.g, hashes[k++]);
            if (!save_load_identity(d.g)) {
                CHECKF(0, "game %d step %d: save/load changed the hash", n, k);
                break;
            }
        }
        CHECK_EQ_INT(rc, 1);
        steps += k - 1;

        /* Replay from the seed. */
        engine_game *r = create_for(rs, 2, (uint64_t)n, &err);
        REQUIRE(r);
        CHECK(hash_is(r, hashes[0]));
        size_t i;
        json_t *item;
        json_array_foreach(d.inputs, i, item)
        {
            engine_input in;
            REQUIRE(engine_input_from_json(item, &in, NULL, &err) == 0);
            CHECK_EQ_INT(engine_apply(r, &in, NULL, &err), 0);
            CHECKF(hash_is(r, hashes[i + 1]), "game %d step %zu", n, i + 1);
        }
        engine_free(r);
        engine_free(d.g);
        json_decref(d.inputs);
    }
    CHECK(steps >= games * 5);
}

/* ------------------------------------------------- illegal inputs -- */

static json_t *junk_payload(driver *d)
{
    switch (pick(d, 8)) {
    case 0:
        return json_integer(42);
    case 1:
        return json_string("cell");
    case 2:
        return json_pack("[i,i]", 1, 2);
    case 3:
        return json_null();
    case 4:
        return json_pack("{s:i}", "zz_unknown_field", 1);
    case 5:
        return json_pack("{s:{s:i}}", "zz_unknown_field", "deep", 1);
    case 6:
        return json_true();
    default:
        return json_pack("{s:s}", "zz_unknown_field", "\xe2\x98\x83");
    }
}

/* The windows of a and b (engine_windows) are alike, field by field. */
static int same_windows(const engine_window *a, int na, const engine_window *b,
                        int nb)
{
    if (na != nb)
        return 0;
    for (int i = 0; i < na && i < 16; i++)
        if (strcmp(a[i].id, b[i].id) != 0 || a[i].mode != b[i].mode ||
            a[i].seats != b[i].seats || a[i].submitted != b[i].submitted ||
            a[i].parts != b[i].parts || a[i].ready_part != b[i].ready_part ||
            a[i].ready != b[i].ready)
            return 0;
    return 1;
}

/* Hashing the whole state (engine_hash) after every probe made the sweep
 * cost minutes: the state of a long game is large. A refused input changes
 * nothing, so the state before every probe of a round is the state before
 * the round, hashed once (illegal_round). After each probe the cheap parts
 * are compared: input count, log length, windows; after probe number p of
 * round r, when p = r (mod FULL_EVERY), the whole hash too, so that every
 * probe of the round is hashed every FULL_EVERY rounds; and after the
 * round's last probe the whole hash always. A probe that changed the state
 * changes that last hash unless a later probe put back exactly what it
 * changed; even then it is caught in every round whose sampled probe is
 * that one (one round in eight). */
#define FULL_EVERY 8

/* Apply in to d->g expecting failure (with code `want`, or any failure
 * when want is 0) and no change. */
static int expect_refused(driver *d, const engine_input *in, int want,
                          const char *what)
{
    engine_error err = {0};
    engine_window wb[16], wa[16];
    uint64_t inputs = engine_game_inputs(d->g);
    size_t loglen = engine_log_length(d->g);
    int nb = engine_windows(d->g, wb, 16);
    int rc = engine_apply(d->g, in, NULL, &err);
    int na = engine_windows(d->g, wa, 16);
    int full = d->probe++ % FULL_EVERY == d->round % FULL_EVERY;
    int ok = rc != 0 && (want == 0 || rc == want) && err.code == rc &&
             err.msg[0] && engine_game_inputs(d->g) == inputs &&
             engine_log_length(d->g) == loglen &&
             same_windows(wb, nb, wa, na) &&
             (!full || hash_is(d->g, d->round_hash));
    if (!ok)
        fprintf(stderr, "  %s: %s: rc %d (want %d) \"%s\"\n",
                engine_game_ruleset(d->g)->id, what, rc, want, err.msg);
    return ok;
}

static int illegal_round(driver *d)
{
    engine_game *g = d->g;
    engine_window w[16];
    int n = engine_windows(g, w, 16), seats = engine_game_seats(g), ok = 1;
    int over = engine_is_over(g);
    json_t *junk = junk_payload(d);
    json_t *withdraw = json_pack("{s:s}", "action", "withdraw");
    json_t *badsys = json_pack("{s:s}", "action", "dance");
    json_t *obj = json_pack("{s:i}", "zz_unknown_field", 1);
    int want = 0;
    engine_hash(g, d->round_hash); /* once: every probe leaves it so */
    d->probe = 0;

    /* After the end, everything is EOVER. */
    if (over) {
        engine_input in = {.seat = 0,
                           .kind = (engine_input_kind)pick(d, 4),
                           .window = d->nclosed ? d->closed[0] : "x",
                           .payload = obj};
        ok &= expect_refused(d, &in, ENGINE_EOVER, "input after the end");
        goto done;
    }

    /* Unknown window, every kind. */
    for (int k = 0; k < 4; k++) {
        engine_input in = {.seat = (int)pick(d, (uint32_t)seats),
                           .kind = (engine_input_kind)k,
                           .window = "zz-no-such-window",
                           .payload = k == ENGINE_SYSTEM ? withdraw : obj};
        ok &= expect_refused(d, &in, ENGINE_ECONFLICT, "unknown window");
    }
    /* A window that has closed: every kind, including a timeout. */
    if (d->nclosed) {
        const char *old = d->closed[pick(d, d->nclosed < 8 ? d->nclosed : 8)];
        for (int k = 0; k < 4; k++) {
            engine_input in = {.seat = (int)pick(d, (uint32_t)seats),
                               .kind = (engine_input_kind)k,
                               .window = old,
                               .payload = k == ENGINE_SYSTEM ? withdraw : obj};
            ok &= expect_refused(d, &in, ENGINE_ECONFLICT, "closed window");
        }
    }
    /* Unknown kind. */
    {
        engine_input in = {.seat = 0,
                           .kind = (engine_input_kind)(4 + pick(d, 9)),
                           .window = w[0].id,
                           .payload = obj};
        ok &= expect_refused(d, &in, ENGINE_EINVALID, "unknown kind");
        in.kind = (engine_input_kind)-1;
        ok &= expect_refused(d, &in, ENGINE_EINVALID, "negative kind");
    }
    /* Bad system inputs. */
    {
        engine_input in = {.seat = 0,
                           .kind = ENGINE_SYSTEM,
                           .window = w[0].id,
                           .payload = badsys};
        ok &= expect_refused(d, &in, ENGINE_EINVALID, "unknown action");
        in.payload = junk;
        ok &= expect_refused(d, &in, ENGINE_EINVALID, "junk system payload");
        in.payload = NULL;
        ok &= expect_refused(d, &in, ENGINE_EINVALID, "empty system input");
    }
    for (int i = 0; i < n && i < 16; i++) {
        const engine_window *win = &w[i];
        int in_win = -1, out_win = -1;
        for (int s = 0; s < seats; s++) {
            if (win->seats & (1u << s))
                in_win = in_win < 0 || pick(d, 2) ? s : in_win;
            else
                out_win = out_win < 0 || pick(d, 2) ? s : out_win;
        }
        /* Seats that do not exist. */
        int ghosts[3] = {ENGINE_PUBLIC, seats, 77};
        for (int k = 0; k < 3; k++) {
            engine_input in = {.seat = ghosts[k],
                               .kind = win->mode == ENGINE_SEALED ? ENGINE_ORDER
                                                                  : ENGINE_PLAY,
                               .window = win->id,
                               .payload = obj};
            ok &= expect_refused(d, &in, ENGINE_EFORBIDDEN, "no such seat");
        }
        if (win->mode == ENGINE_OPEN) {
            /* An order to an open window; a play by a seat not acting. */
            engine_input in = {.seat = in_win,
                               .kind = ENGINE_ORDER,
                               .window = win->id,
                               .payload = obj};
            ok &= expect_refused(d, &in, ENGINE_ECONFLICT, "order to open");
            in.kind = ENGINE_SYSTEM;
            in.payload = withdraw;
            ok &= expect_refused(d, &in, ENGINE_ECONFLICT, "withdraw open");
            if (out_win >= 0) {
                in.seat = out_win;
                in.kind = ENGINE_PLAY;
                in.payload = obj;
                ok &= expect_refused(d, &in, ENGINE_ECONFLICT, "not your turn");
            }
            /* Junk and unknown fields from the seat that acts. */
            in.seat = in_win;
            in.kind = ENGINE_PLAY;
            in.payload = junk;
            want = json_is_object(junk) ? 0 : ENGINE_EINVALID;
            ok &= expect_refused(d, &in, want, "junk play");
            in.payload = obj;
            ok &= expect_refused(d, &in, 0, "play with an unknown field");
        } else {
            /* A play to a sealed window; orders from outsiders. */
            engine_input in = {.seat = in_win,
                               .kind = ENGINE_PLAY,
                               .window = win->id,
                               .payload = obj};
            ok &= expect_refused(d, &in, ENGINE_ECONFLICT, "play to sealed");
            if (out_win >= 0) {
                in.seat = out_win;
                in.kind = ENGINE_ORDER;
                ok &= expect_refused(d, &in, ENGINE_EFORBIDDEN,
                                     "order from outside");
                in.kind = ENGINE_SYSTEM;
                in.payload = withdraw;
                ok &= expect_refused(d, &in, ENGINE_EFORBIDDEN,
                                     "withdraw from outside");
            }
            for (int s = 0; s < seats; s++) {
                if (!(win->seats & (1u << s)) || (win->submitted & (1u << s)))
                    continue;
                in.seat = s;
                in.kind = ENGINE_SYSTEM;
                in.payload = withdraw;
                ok &= expect_refused(d, &in, ENGINE_ECONFLICT,
                                     "withdraw without an order");
            }
            in.seat = in_win;
            in.kind = ENGINE_ORDER;
            in.payload = junk;
            want = json_is_object(junk) ? 0 : ENGINE_EINVALID;
            ok &= expect_refused(d, &in, want, "junk order");
            in.payload = obj;
            ok &= expect_refused(d, &in, 0, "order with an unknown field");
        }
    }
done:
    if (!hash_is(g, d->round_hash)) {
        fprintf(stderr,
                "  %s: round %d: one of its %d illegal inputs changed "
                "the state\n",
                engine_game_ruleset(g)->id, d->round, d->probe);
        ok = 0;
    }
    d->round++;
    json_decref(junk);
    json_decref(withdraw);
    json_decref(badsys);
    json_decref(obj);
    return ok;
}

/* For every registered ruleset: at every step of random games, inputs of
 * every illegal sort are refused with the right code and change nothing. */
static void test_illegal_inputs_every_ruleset(void)
{
    size_t nrs;
    const engine_ruleset *const *all = engine_rulesets(&nrs);
    for (size_t r = 0; r < nrs; r++) {
        const engine_ruleset *rs = all[r];
        int games = scaled(strcmp(rs->id, "tictactoe") == 0 ? 60
                           : strcmp(rs->id, "rps") == 0     ? 60
                                                            : 6);
        int failures = 0;
        for (int n = 0; n < games && failures < 5; n++) {
            engine_error err;
            driver d = {.chaos = 1, .inputs = json_array()};
            uint8_t key[32];
            make_seed(200000 + (uint64_t)n, key);
            engine_rng_init(&d.rng, key, 8);
            int seats =
                rs->min_seats +
                (int)pick(&d, (uint32_t)(rs->max_seats - rs->min_seats + 1));
            d.g = create_for(rs, seats, 5000 + (uint64_t)n, &err);
            REQUIRE(d.g);
            int rc = 0, steps = 0;
            while (rc == 0 && steps++ < 3000) {
                if (!illegal_round(&d))
                    failures++;
                rc = random_step(&d);
            }
            CHECKF(rc == 1, "%s game %d ended with %d after %d steps", rs->id,
                   n, rc, steps);
            if (!illegal_round(&d)) /* and after the end */
                failures++;
            engine_free(d.g);
            json_decref(d.inputs);
        }
        CHECKF(failures == 0, "%s: %d rounds let an illegal input through",
               rs->id, failures);
    }
}

/* ------------------------------------------------ random games -- */

static int check_invariants(const engine_game *g)
{
    engine_window w[16];
    int n = engine_windows(g, w, 16), seats = engine_game_seats(g), ok = 1;
    uint32_t all = (1u << seats) - 1;
    if (engine_is_over(g) && n != 0)
        ok = 0;
    for (int i = 0; i < n && i < 16; i++) {
        ok &= w[i].id[0] != '\0' && w[i].seats != 0 &&
              (w[i].seats & ~all) == 0 && (w[i].submitted & ~w[i].seats) == 0 &&
              (w[i].mode == ENGINE_SEALED || w[i].submitted == 0) &&
              (w[i].mode == ENGINE_SEALED || w[i].mode == ENGINE_OPEN);
        for (int k = 0; k < i; k++)
            ok &= strcmp(w[i].id, w[k].id) != 0;
    }
    for (int s = ENGINE_PUBLIC; s < seats; s++) {
        json_t *v = engine_view(g, s);
        ok &= json_is_object(v) &&
              json_integer_value(json_object_get(v, "inputs")) ==
                  (json_int_t)engine_game_inputs(g) &&
              json_is_boolean(json_object_get(v, "over")) &&
              (s == ENGINE_PUBLIC) == !json_object_get(v, "my_orders");
        json_decref(v);
        json_t *log = engine_log_since(g, s, 0);
        size_t i;
        json_t *e;
        json_int_t last = 0;
        json_array_foreach(log, i, e)
        {
            json_int_t seq = json_integer_value(json_object_get(e, "seq"));
            json_t *who = json_object_get(e, "seat");
            ok &=
                seq > last && json_is_object(json_object_get(e, "entry")) &&
                (json_is_null(who) || (s >= 0 && json_integer_value(who) == s));
            last = seq;
        }
        ok &= json_is_array(log);
        json_decref(log);
        json_t *legal = engine_legal(g, s);
        ok &= json_is_array(json_object_get(legal, "windows"));
        json_decref(legal);
    }
    return ok;
}

static void test_random_games_every_ruleset(void)
{
    size_t nrs;
    const engine_ruleset *const *all = engine_rulesets(&nrs);
    for (size_t r = 0; r < nrs; r++) {
        const engine_ruleset *rs = all[r];
        int games = scaled(strcmp(rs->id, "tictactoe") == 0 ? 400
                           : strcmp(rs->id, "rps") == 0     ? 300
                                                            : 30);
        int bad = 0, over = 0;
        for (int n = 0; n < games && bad < 3; n++) {
            engine_error err;
            driver d = {.chaos = n % 2, .inputs = json_array()};
            uint8_t key[32];
            make_seed(300000 + (uint64_t)n, key);
            engine_rng_init(&d.rng, key, 9);
            int seats =
                rs->min_seats +
                (int)pick(&d, (uint32_t)(rs->max_seats - rs->min_seats + 1));
            d.g = create_for(rs, seats, 9000 + (uint64_t)n, &err);
            REQUIRE(d.g);
            int rc = 0, steps = 0;
            while (rc == 0 && steps < 20000) {
                rc = random_step(&d);
                steps++;
                if (steps % 25 == 0 || rc != 0) {
                    if (!check_invariants(d.g)) {
                        CHECKF(0, "%s game %d step %d: invariants", rs->id, n,
                               steps);
                        bad++;
                        break;
                    }
                }
                if (steps % 97 == 0) {
                    engine_game *c = engine_clone(d.g);
                    CHECK(c && same_hash(c, d.g));
                    engine_free(c);
                    CHECK(save_load_identity(d.g));
                }
            }
            if (rc != 1) {
                CHECKF(0, "%s game %d: stopped with %d after %d steps", rs->id,
                       n, rc, steps);
                bad++;
            }
            over += engine_is_over(d.g);
            json_t *res = engine_result(d.g);
            CHECK(json_is_object(res));
            json_decref(res);
            CHECK(save_load_identity(d.g));

            /* The whole game replays from its export. */
            json_t *exp = export_of(d.g, d.inputs);
            uint8_t h[ENGINE_HASH_BYTES];
            int match = 0;
            CHECK(engine_replay_export(exp, h, &match, NULL, &err) == 0);
            CHECKF(match, "%s game %d does not replay: %s", rs->id, n, err.msg);
            json_decref(exp);
            engine_free(d.g);
            json_decref(d.inputs);
        }
        CHECKF(over == games, "%s: %d of %d games ended", rs->id, over, games);
    }
}

/* ------------------------------------------ held orders stay hidden -- */

/* Everything audience s can learn from g: its view, its log, its legal
 * answer, as one canonical string. Owned by the caller (free). */
static char *audience_text(const engine_game *g, int s)
{
    json_t *all =
        json_pack("{s:o s:o s:o}", "view", engine_view(g, s), "log",
                  engine_log_since(g, s, 0), "legal", engine_legal(g, s));
    char *text = all ? engine_canonical_json(all) : NULL;
    json_decref(all);
    return text;
}

/* The answer to `probe` (an order by another seat) in g, applied to a clone:
 * "ok", or the error's code, field and message. */
static void probe_answer(const engine_game *g, const engine_input *probe,
                         char *out, size_t n)
{
    engine_game *c = engine_clone(g);
    engine_error err = {0};
    if (!c || engine_apply(c, probe, NULL, &err) == 0)
        snprintf(out, n, "%s", c ? "ok" : "no clone");
    else
        snprintf(out, n, "%d %s %s", err.code, err.field, err.msg);
    engine_free(c);
}

/* A held (not yet locking) sealed order a, and another order b of the same
 * seat for the same window: after either, every other seat and the public
 * see exactly the same view, log and legal answer, and get the same answers
 * to their own orders (a's and b's payloads, and a junk one). 1 if so. */
static int held_order_hidden(const engine_game *g, const engine_input *a,
                             const engine_input *b)
{
    engine_game *ga = engine_clone(g), *gb = engine_clone(g);
    engine_error err = {0};
    int ok = ga && gb && engine_apply(ga, a, NULL, &err) == 0 &&
             engine_apply(gb, b, NULL, &err) == 0;
    json_t *junk = json_pack("{s:i}", "x", 1);
    for (int s = ENGINE_PUBLIC; ok && s < engine_game_seats(g); s++) {
        if (s == a->seat)
            continue;
        char *ta = audience_text(ga, s), *tb = audience_text(gb, s);
        ok = ta && tb && strcmp(ta, tb) == 0;
        if (!ok)
            fprintf(stderr,
                    "  %s: seat %d's order in %s is visible to %d:\n"
                    "    %s\n    %s\n",
                    engine_game_ruleset(g)->id, a->seat, a->window, s,
                    ta ? ta : "-", tb ? tb : "-");
        free(ta);
        free(tb);
        const json_t *tries[3] = {a->payload, b->payload, junk};
        for (int t = 0; ok && s >= 0 && t < 3; t++) {
            engine_input probe = {.seat = s,
                                  .kind = ENGINE_ORDER,
                                  .window = a->window,
                                  .payload = tries[t]};
            char ea[400], eb[400];
            probe_answer(ga, &probe, ea, sizeof ea);
            probe_answer(gb, &probe, eb, sizeof eb);
            ok = strcmp(ea, eb) == 0;
            if (!ok)
                fprintf(stderr,
                        "  %s: seat %d's answers depend on seat %d's "
                        "held order: \"%s\" / \"%s\"\n",
                        engine_game_ruleset(g)->id, s, a->seat, ea, eb);
        }
    }
    json_decref(junk);
    engine_free(ga);
    engine_free(gb);
    return ok;
}

/* For the next input of d: if it is a sealed order that will be held (the
 * window waits on others too), compare it with another order of the same
 * seat (held_order_hidden). Returns -1 on a leak, 1 if compared, 0 if not. */
static int check_next_held_order(driver *d)
{
    engine_window w[16];
    int n = engine_windows(d->g, w, 16);
    for (int i = 0; i < n && i < 16; i++) {
        uint32_t left = w[i].seats & ~w[i].submitted;
        if (w[i].mode != ENGINE_SEALED || __builtin_popcount(left) < 2)
            continue;
        int seat = __builtin_ctz(left);
        engine_input a, b;
        engine_error err = {0};
        if (engine_bot_action(d->g, seat, "random", &d->rng, &a, &err) != 0)
            return 0;
        char *ca = engine_canonical_json(a.payload);
        int found = 0;
        for (int t = 0; t < 20 && !found; t++) {
            if (engine_bot_action(d->g, seat, "random", &d->rng, &b, &err) != 0)
                break;
            char *cb = engine_canonical_json(b.payload);
            found = a.window && b.window && strcmp(a.window, b.window) == 0 &&
                    ca && cb && strcmp(ca, cb) != 0;
            free(cb);
            if (!found)
                json_decref((json_t *)b.payload);
        }
        free(ca);
        int rc = 0;
        if (found) {
            memcpy(b.nonce, a.nonce, sizeof b.nonce);
            rc = held_order_hidden(d->g, &a, &b) ? 1 : -1;
            json_decref((json_t *)b.payload);
        }
        json_decref((json_t *)a.payload);
        return rc;
    }
    return 0;
}

/* Ruleset-independent: for every registered ruleset, random games in which
 * each held sealed order is compared with another one of the same seat; no
 * other audience may tell them apart before the window locks. Rulesets with
 * sealed windows must give at least one such comparison. */
static void test_held_orders_hidden_every_ruleset(void)
{
    size_t nrs;
    const engine_ruleset *const *all = engine_rulesets(&nrs);
    for (size_t r = 0; r < nrs; r++) {
        const engine_ruleset *rs = all[r];
        int games = scaled(strcmp(rs->id, "rps") == 0 ? 40 : 10);
        int compared = 0, sealed = 0, leaks = 0;
        for (int n = 0; n < games && leaks == 0; n++) {
            engine_error err;
            driver d = {.chaos = n % 2, .inputs = json_array()};
            uint8_t key[32];
            make_seed(500000 + (uint64_t)n, key);
            engine_rng_init(&d.rng, key, 11);
            int seats = rs->max_seats < 3 ? rs->max_seats : 3;
            if (seats < rs->min_seats)
                seats = rs->min_seats;
            d.g = create_for(rs, seats, 7000 + (uint64_t)n, &err);
            REQUIRE(d.g);
            int rc = 0;
            for (int steps = 0; rc == 0 && steps < 5000; steps++) {
                engine_window w;
                if (engine_windows(d.g, &w, 1) >= 1 && w.mode == ENGINE_SEALED)
                    sealed++;
                int c = check_next_held_order(&d);
                if (c < 0) {
                    leaks++;
                    break;
                }
                compared += c;
                rc = random_step(&d);
            }
            engine_free(d.g);
            json_decref(d.inputs);
        }
        CHECKF(leaks == 0, "%s: a held order is visible before its lock",
               rs->id);
        CHECKF(sealed == 0 || compared > 0,
               "%s: sealed windows but no held order compared", rs->id);
        printf("  %s: %d held orders compared\n", rs->id, compared);
    }
}

/* ---------------------------------------------------- export replay -- */

static void test_export_replay(void)
{
    engine_error err;
    /* No chaos: every order is revealed, so tampering with one shows. */
    driver d = {.chaos = 0, .inputs = json_array()};
    uint8_t key[32] = {1};
    engine_rng_init(&d.rng, key, 10);
    json_t *opts = json_pack("{s:i}", "rounds", 9);
    uint8_t seed[32];
    make_seed(77, seed);
    d.g = engine_create("rps", "exp-1", opts, 2, seed, &err);
    REQUIRE(d.g);
    while (random_step(&d) == 0)
        ;
    json_t *exp = export_of(d.g, d.inputs);
    uint8_t h[ENGINE_HASH_BYTES], h2[ENGINE_HASH_BYTES];
    int match = 0;
    engine_game *out = NULL;
    CHECK(engine_replay_export(exp, h, &match, &out, &err) == 0);
    CHECK(match == 1);
    REQUIRE(out);
    CHECK(same_hash(out, d.g));
    engine_free(out);

    /* seats may be the API's list of seats. */
    json_object_set_new(exp, "seats", json_pack("[{},{}]"));
    CHECK(engine_replay_export(exp, h2, &match, NULL, &err) == 0 && match);
    CHECK(memcmp(h, h2, sizeof h) == 0);

    /* A different final hash: replays, but does not match. */
    json_t *saved_hash = json_deep_copy(json_object_get(exp, "final_hash"));
    json_object_set_new(exp, "final_hash", json_string("00"));
    CHECK(engine_replay_export(exp, h2, &match, NULL, &err) == 0);
    CHECK(match == 0);
    json_object_set_new(exp, "final_hash", saved_hash);

    /* Receipts, where given, must be reproduced. */
    size_t i;
    json_t *item, *first_order = NULL;
    json_array_foreach(d.inputs, i, item)
    {
        const char *kind = json_string_value(json_object_get(item, "kind"));
        if (strcmp(kind, "order") == 0 && !first_order)
            first_order = item;
    }
    REQUIRE(first_order);
    json_object_set_new(first_order, "receipt", json_string("beef"));
    CHECK(engine_replay_export(exp, h2, &match, NULL, &err) ==
          ENGINE_ECONFLICT);
    CHECK_EQ_STR(err.field, "receipt");
    json_object_del(first_order, "receipt");

    /* A tampered order is refused or changes the hash. */
    json_t *payload = json_object_get(first_order, "payload");
    const char *t = json_string_value(json_object_get(payload, "throw"));
    json_object_set_new(payload, "throw",
                        json_string(strcmp(t, "rock") ? "rock" : "paper"));
    int rc = engine_replay_export(exp, h2, &match, NULL, &err);
    CHECK(rc != 0 || match == 0);

    /* Broken exports name the problem. */
    json_t *bad = json_deep_copy(exp);
    json_object_set_new(bad, "format", json_string("conclave-export/0"));
    CHECK(engine_replay_export(bad, h2, &match, NULL, &err) == ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "format");
    json_decref(bad);
    bad = json_deep_copy(exp);
    json_object_set_new(bad, "seed", json_string("1234"));
    CHECK(engine_replay_export(bad, h2, &match, NULL, &err) == ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "seed");
    json_decref(bad);
    bad = json_deep_copy(exp);
    json_object_set_new(json_array_get(json_object_get(bad, "inputs"), 1),
                        "seq", json_integer(1));
    CHECK(engine_replay_export(bad, h2, &match, NULL, &err) == ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "seq");
    json_decref(bad);
    bad = json_deep_copy(exp);
    json_object_set_new(bad, "ruleset", json_string("chess"));
    CHECK(engine_replay_export(bad, h2, &match, &out, &err) ==
          ENGINE_ENOTFOUND);
    CHECK(out == NULL);
    json_decref(bad);
    CHECK(engine_replay_export(NULL, h2, &match, NULL, &err) ==
          ENGINE_EINVALID);

    json_decref(exp);
    json_decref(opts);
    engine_free(d.g);
    json_decref(d.inputs);
}

/* -------------------------------------------------- saved games -- */

static void test_load_rejects_corrupt(void)
{
    engine_error err;
    driver d = {.chaos = 0, .inputs = json_array()};
    uint8_t key[32] = {2};
    engine_rng_init(&d.rng, key, 11);
    uint8_t seed[32];
    make_seed(78, seed);
    d.g = engine_create("rps", "corrupt", NULL, 2, seed, &err);
    REQUIRE(d.g);
    /* One held order so that "pending" is not empty. */
    json_t *p = json_pack("{s:s}", "throw", "rock");
    engine_input in = {
        .seat = 0, .kind = ENGINE_ORDER, .window = "r1", .payload = p};
    CHECK(engine_apply(d.g, &in, NULL, &err) == 0);
    json_decref(p);
    json_t *good = engine_save(d.g);
    CHECK(save_load_identity(d.g));

    static const struct {
        const char *path, *value; /* top-level key (or "a.b"), new JSON */
    } cases[] = {
        {"format", "\"conclave-state/0\""},
        {"ruleset", "\"nope\""},
        {"seats", "5"},
        {"seats", "\"2\""},
        {"seed", "\"abc\""},
        {"inputs", "-1"},
        {"aborted", "1"},
        {"rng", "{}"},
        {"state", "{\"rounds\":0,\"history\":[]}"},
        {"state", "[]"},
        {"pending", "[{\"window\":\"r1\",\"seat\":5,\"order\":{},"
                    "\"nonce\":\"00000000000000000000000000000000\"}]"},
        {"pending", "[{\"window\":\"r1\",\"seat\":0,\"order\":{}}]"},
        {"log", "[{\"seat\":9,\"entry\":{}}]"},
        {"log", "[{\"entry\":{}}]"},
        {"options", "{\"rounds\":500}"},
        {"extra", "1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *doc = json_deep_copy(good);
        json_object_set_new(doc, cases[i].path,
                            json_loads(cases[i].value, JSON_DECODE_ANY, NULL));
        engine_game *g = engine_load(doc, &err);
        CHECKF(g == NULL, "case %zu (%s) loaded", i, cases[i].path);
        CHECKF(err.code == ENGINE_EINTERNAL || err.code == ENGINE_ENOTFOUND,
               "case %zu: code %d", i, err.code);
        engine_free(g);
        json_decref(doc);
    }
    json_t *doc = json_deep_copy(good);
    json_object_del(doc, "log");
    CHECK(engine_load(doc, &err) == NULL);
    json_decref(doc);
    CHECK(engine_load(NULL, &err) == NULL);
    json_decref(good);
    engine_free(d.g);
    json_decref(d.inputs);
}

/* -------------------------------------------------------- odds and ends */

static void test_views_logs_and_accessors(void)
{
    engine_error err;
    uint8_t seed[32];
    make_seed(79, seed);
    json_t *opts = json_pack("{s:i}", "rounds", 2);
    engine_game *g = engine_create("rps", "acc", opts, 2, seed, &err);
    REQUIRE(g);
    CHECK_EQ_STR(engine_game_id(g), "acc");
    CHECK_EQ_INT(engine_game_seats(g), 2);
    CHECK(json_equal((json_t *)engine_game_options(g), opts));
    CHECK(memcmp(engine_game_seed(g), seed, 32) == 0);
    CHECK(engine_game_ruleset(g) == engine_ruleset_find("rps"));
    char hex[65], want[65];
    uint8_t h[32];
    engine_seed_sha256_hex(g, hex);
    engine_sha256(seed, 32, h);
    engine_hex(h, 32, want);
    CHECK_EQ_STR(hex, want);

    /* A seat number out of range sees what spectators see. */
    json_t *a = engine_view(g, 9), *b = engine_view(g, ENGINE_PUBLIC);
    CHECK(json_equal(a, b));
    json_decref(a);
    json_decref(b);
    a = engine_log_since(g, -7, 0);
    CHECK(json_is_array(a));
    json_decref(a);

    /* log_since(after): entries with seq > after. */
    json_t *p = json_pack("{s:s}", "throw", "rock");
    engine_input in = {
        .seat = 0, .kind = ENGINE_ORDER, .window = "r1", .payload = p};
    CHECK(engine_apply(g, &in, NULL, &err) == 0);
    in.seat = 1;
    CHECK(engine_apply(g, &in, NULL, &err) == 0);
    size_t len = engine_log_length(g);
    CHECK(len >= 3);
    json_t *all = engine_log_since(g, 0, 0), *tail = engine_log_since(g, 0, 1);
    CHECK_EQ_INT(json_array_size(all), json_array_size(tail) + 1);
    CHECK_EQ_INT(
        json_integer_value(json_object_get(json_array_get(all, 0), "seq")), 1);
    json_decref(all);
    json_decref(tail);
    all = engine_log_since(g, 0, len);
    CHECK_EQ_INT(json_array_size(all), 0);
    json_decref(all);
    all = engine_log_since(g, 0, len + 100);
    CHECK_EQ_INT(json_array_size(all), 0);
    json_decref(all);
    CHECK_EQ_INT(engine_game_inputs(g), 2);

    /* Clones are independent. */
    engine_game *c = engine_clone(g);
    REQUIRE(c);
    CHECK(same_hash(c, g));
    in.window = "r2";
    CHECK(engine_apply(c, &in, NULL, &err) == 0);
    CHECK(!same_hash(c, g));
    CHECK_EQ_INT(engine_game_inputs(g), 2);
    engine_free(c);

    CHECK(engine_apply(g, NULL, NULL, &err) == ENGINE_EINVALID);
    json_decref(p);
    json_decref(opts);
    engine_free(g);
}

/* Runs before engine_init. */
static void test_create_needs_init(void)
{
    engine_error err = {0};
    uint8_t seed[32] = {0};
    CHECK(engine_create("tictactoe", "x", NULL, 2, seed, &err) == NULL);
    CHECK_EQ_INT(err.code, ENGINE_EINTERNAL);
    CHECK(strstr(err.msg, "engine_init") != NULL);
}

int main(void)
{
    engine_error err;
    RUN(test_create_needs_init);
    if (engine_init(&err) != 0) {
        fprintf(stderr, "engine_init: %s\n", err.msg);
        return 1;
    }
    if (TEST_ENGINE_SWEEP) {
        RUN(test_illegal_inputs_every_ruleset);
        return TEST_SUMMARY();
    }
    RUN(test_sha256_and_hex);
    RUN(test_canonical_json);
    RUN(test_engine_fail);
    RUN(test_input_kinds_and_json);
    RUN(test_registry);
    RUN(test_determinism_tictactoe);
    RUN(test_random_games_every_ruleset);
    RUN(test_held_orders_hidden_every_ruleset);
    RUN(test_export_replay);
    RUN(test_load_rejects_corrupt);
    RUN(test_views_logs_and_accessors);
    return TEST_SUMMARY();
}

/*
 * fuzz_api_body.c - libFuzzer harness: request bodies through the API's
 * parsing and validation (api/body.c) into each ruleset's order and play
 * validation (engine_apply on real games of every ruleset).
 *
 * An input is two selector bytes, then the request body:
 *   byte 0: which prepared game (tic-tac-toe fresh and mid-game, rps fresh
 *           and with seat 0's order held, Galactic Sprint solitaire, 3 and
 *           4 seats, in several phases);
 *   byte 1: bits 0-1 the input kind as the handlers make it (0 PUT order,
 *           1 POST play, 2 DELETE order = withdraw, 3 a system input with
 *           the body as payload); bits 2-4 the seat (one past the last is
 *           out of range); bits 5-6 the window (an open one, the body's
 *           "window", or a stale id); bit 7 an empty body is allowed.
 *
 * Properties (a broken one aborts, which libFuzzer reports):
 *   - body_object either gives an object or fills a 400/422 problem with a
 *     detail; body_check (the lobby's fields, then "clock.") either passes
 *     or fills a 422 problem naming the field;
 *   - engine_apply either succeeds or fails with one of the documented
 *     codes, a message, and the game's hash unchanged;
 *   - after a success: the same input on another copy gives the same hash
 *     (determinism), save/load gives the same hash, every audience's view
 *     and legal answer render, an accepted order has a receipt;
 *   - rps: seat 0's held order (a note marker) appears in no error given
 *     to another seat, and in no view but seat 0's while its window is
 *     open.
 *
 * CONCLAVE_FUZZ_DUMP=DIR writes seed inputs (bot actions in every prepared
 * game) to DIR at start-up; tests/fuzz/corpus/api_body was made so.
 * Built and run by tests/fuzz/run.sh (make fuzz).
 */
#include "api/body.h"
#include "engine/engine.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond)                                                            \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "%s:%d: invariant broken: %s\n", __FILE__,         \
                    __LINE__, #cond);                                          \
            abort();                                                           \
        }                                                                      \
    } while (0)

#define HELD_NOTE "zq-held-note-7f3a"
#define MAX_GAMES 16

typedef struct prepared {
    engine_game *g;
    int held_note; /* seat 0 holds an order with HELD_NOTE in window held */
    char held[ENGINE_WINDOW_ID_MAX];
} prepared;

static prepared games[MAX_GAMES];
static int ngames;

/* ---------------------------------------------------------------- set-up */

static void seed_of(int n, uint8_t seed[ENGINE_SEED_BYTES])
{
    memset(seed, 0, ENGINE_SEED_BYTES);
    seed[0] = (uint8_t)n;
    seed[1] = 0x5a;
}

/* Let bots play `steps` inputs (all seats), deterministically. */
static void advance(engine_game *g, int steps, engine_rng *rng)
{
    engine_window w[8];
    for (int i = 0; i < steps && !engine_is_over(g); i++) {
        int n = engine_windows(g, w, 8);
        int acted = 0;
        for (int k = 0; k < n && k < 8 && !acted; k++) {
            for (int s = 0; s < engine_game_seats(g) && !acted; s++) {
                if (!(w[k].seats >> s & 1) || (w[k].submitted >> s & 1))
                    continue;
                engine_input in;
                engine_error err;
                if (engine_bot_action(g, s, "basic", rng, &in, &err) != 0)
                    continue;
                CHECK(engine_apply(g, &in, NULL, &err) == 0);
                json_decref((json_t *)in.payload);
                acted = 1;
            }
        }
        if (!acted)
            break;
    }
}

/* Advance until the first open window's id contains `phase` (or give up). */
static void advance_to(engine_game *g, const char *phase, engine_rng *rng)
{
    engine_window w[8];
    for (int i = 0; i < 400; i++) {
        if (engine_windows(g, w, 8) > 0 && strstr(w[0].id, phase))
            return;
        advance(g, 1, rng);
    }
}

static void add(const char *ruleset, int seats, const char *options, int steps,
                const char *phase)
{
    uint8_t seed[ENGINE_SEED_BYTES];
    engine_error err;
    char id[32];
    CHECK(ngames < MAX_GAMES);
    seed_of(ngames, seed);
    snprintf(id, sizeof id, "fuzz%d", ngames);
    json_t *opts = options ? json_loads(options, 0, NULL) : NULL;
    engine_game *g = engine_create(ruleset, id, opts, seats, seed, &err);
    json_decref(opts);
    if (!g) {
        fprintf(stderr, "engine_create %s: %s\n", ruleset, err.msg);
        abort();
    }
    engine_rng rng;
    engine_rng_init(&rng, seed, 99);
    advance(g, steps, &rng);
    if (phase)
        advance_to(g, phase, &rng);
    games[ngames].g = g;
    ngames++;
}

/* rps with seat 0's order held: the note must stay seat 0's. */
static void add_rps_held(void)
{
    add("rps", 2, "{\"rounds\":5}", 2, NULL);
    prepared *p = &games[ngames - 1];
    engine_window w;
    CHECK(engine_windows(p->g, &w, 1) == 1);
    json_t *order = json_pack("{ss ss}", "throw", "paper", "note", HELD_NOTE);
    engine_input in = {
        .seat = 0, .kind = ENGINE_ORDER, .window = w.id, .payload = order};
    engine_error err;
    CHECK(engine_apply(p->g, &in, NULL, &err) == 0);
    json_decref(order);
    p->held_note = 1;
    snprintf(p->held, sizeof p->held, "%s", w.id);
}

/* Seed inputs: every bot action of every seat in every prepared game. */
static void dump(const char *dir)
{
    int count = 0;
    for (int i = 0; i < ngames; i++) {
        engine_game *g = games[i].g;
        engine_window w;
        int n = engine_windows(g, &w, 1);
        fprintf(stderr, "game %d: %d seats, %d inputs, window %s\n", i,
                engine_game_seats(g), (int)engine_game_inputs(g),
                n ? w.id : "none (over)");
        engine_rng rng;
        uint8_t key[32] = {7};
        engine_rng_init(&rng, key, (uint64_t)i);
        for (int s = 0; s < engine_game_seats(g); s++) {
            engine_input in;
            engine_error err;
            if (engine_bot_action(g, s, "random", &rng, &in, &err) != 0) {
                fprintf(stderr, "  seat %d: %s\n", s, err.msg);
                continue;
            }
            json_t *body = json_deep_copy(in.payload);
            int kind = in.kind == ENGINE_PLAY ? 1 : 0;
            if (kind == 1)
                json_object_set_new(body, "window", json_string(in.window));
            char *text = json_dumps(body, JSON_COMPACT | JSON_SORT_KEYS);
            char path[512];
            snprintf(path, sizeof path, "%s/bot-g%d-s%d.bin", dir, i, s);
            FILE *f = fopen(path, "wb");
            if (f && text) {
                fputc(i, f);
                fputc(kind | (s << 2) | (kind == 1 ? 1 << 5 : 0), f);
                fputs(text, f);
                count++;
            }
            if (f)
                fclose(f);
            free(text);
            json_decref(body);
            json_decref((json_t *)in.payload);
        }
    }
    fprintf(stderr, "wrote %d seed inputs to %s\n", count, dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    engine_error err;
    if (engine_init(&err) != 0) {
        fprintf(stderr, "engine_init: %s\n", err.msg);
        abort();
    }
    add("tictactoe", 2, NULL, 0, NULL);
    add("tictactoe", 2, NULL, 3, NULL);
    add("rps", 2, "{\"rounds\":3}", 0, NULL);
    add_rps_held();
    add("sprint", 1, NULL, 0, NULL);
    add("sprint", 1, NULL, 4, NULL);
    add("sprint", 3, "{\"target_vp\":30}", 0, NULL);
    add("sprint", 3, "{\"target_vp\":30}", 4, ".explore");
    add("sprint", 4, "{\"target_vp\":30}", 12, NULL);
    add("sprint", 2, "{\"target_vp\":40}", 5, NULL);
    add("tictactoe", 2, NULL, 9, NULL); /* over */
    const char *d = getenv("CONCLAVE_FUZZ_DUMP");
    if (d)
        dump(d);
    return 0;
}

/* ------------------------------------------------------------ one input */

static const body_field lobby_fields[] = {
    {"ruleset", BODY_STRING, 1}, {"seats", BODY_INTEGER, 1},
    {"options", BODY_OBJECT, 0}, {"private", BODY_BOOLEAN, 0},
    {"clock", BODY_OBJECT, 0},   {NULL, BODY_ANY, 0}};
static const body_field clock_fields[] = {{"mode", BODY_STRING, 1},
                                          {"seconds", BODY_INTEGER, 0},
                                          {NULL, BODY_ANY, 0}};

static void check_problem(const api_response *res, int s1, int s2)
{
    CHECK(res->status == s1 || res->status == s2);
    CHECK(json_is_object(res->json));
    const char *detail =
        json_string_value(json_object_get(res->json, "detail"));
    CHECK(detail && *detail);
    CHECK(json_integer_value(json_object_get(res->json, "status")) ==
          res->status);
}

static int contains(const json_t *v, const char *needle)
{
    char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
    CHECK(s != NULL);
    int hit = strstr(s, needle) != NULL;
    free(s);
    return hit;
}

static int window_open(const engine_game *g, const char *id)
{
    engine_window w[16];
    int n = engine_windows(g, w, 16);
    for (int i = 0; i < n && i < 16; i++)
        if (strcmp(w[i].id, id) == 0)
            return 1;
    return 0;
}

static void check_views(const engine_game *g, const prepared *p)
{
    int seats = engine_game_seats(g);
    int hide = p->held_note && window_open(g, p->held);
    for (int s = -1; s <= seats; s++) {
        json_t *v = engine_view(g, s);
        CHECK(json_is_object(v));
        if (hide && s != 0)
            CHECK(!contains(v, HELD_NOTE));
        json_decref(v);
        json_t *l = engine_legal(g, s);
        CHECK(json_is_object(l));
        json_decref(l);
        json_t *log = engine_log_since(g, s, 0);
        CHECK(json_is_array(log));
        if (hide && s != 0)
            CHECK(!contains(log, HELD_NOTE));
        json_decref(log);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    const prepared *p = &games[data[0] % ngames];
    int kind = data[1] & 3;
    int seats = engine_game_seats(p->g);
    int seat = (data[1] >> 2 & 7) % (seats + 1); /* seats: out of range */
    int wsel = data[1] >> 5 & 3;
    int empty_ok = data[1] >> 7 & 1;

    /* The body, as http.c hands it over: NUL-terminated copy. */
    api_request req;
    memset(&req, 0, sizeof req);
    req.body_len = size - 2;
    req.body = malloc(req.body_len + 1);
    CHECK(req.body != NULL);
    memcpy(req.body, data + 2, req.body_len);
    req.body[req.body_len] = '\0';

    api_response res;
    memset(&res, 0, sizeof res);
    json_t *body = NULL;
    if (body_object(&req, &res, empty_ok, &body) != 0) {
        CHECK(body == NULL);
        check_problem(&res, 400, 422);
        json_decref(res.json);
        free(req.body);
        return 0;
    }
    CHECK(json_is_object(body));
    CHECK(body_depth(body, BODY_MAX_DEPTH + 1) <= BODY_MAX_DEPTH);

    /* The lobby's field rules, then the nested clock's. */
    api_response chk;
    memset(&chk, 0, sizeof chk);
    if (body_check(body, lobby_fields, NULL, &chk) != 0) {
        check_problem(&chk, 422, 422);
        /* The field is named, unless its name is "" (api_problem leaves an
         * empty field out; the detail then quotes the empty name). */
        CHECK(json_is_string(json_object_get(chk.json, "field")) ||
              strstr(json_string_value(json_object_get(chk.json, "detail")),
                     "\"\"") != NULL);
    } else if (json_is_object(json_object_get(body, "clock")) &&
               body_check(json_object_get(body, "clock"), clock_fields,
                          "clock.", &chk) != 0) {
        check_problem(&chk, 422, 422);
        CHECK(strncmp(json_string_value(json_object_get(chk.json, "field")),
                      "clock.", 6) == 0);
    }
    json_decref(chk.json);

    /* The input the handlers would make. */
    engine_window open[16];
    int nopen = engine_windows(p->g, open, 16);
    const char *bw = json_string_value(json_object_get(body, "window"));
    char window[ENGINE_WINDOW_ID_MAX] = "r99";
    if (wsel <= 1 && nopen > 0)
        snprintf(window, sizeof window, "%s",
                 open[(wsel + data[0] / 16) % (nopen < 16 ? nopen : 16)].id);
    else if (wsel == 2 && bw && strlen(bw) < ENGINE_WINDOW_ID_MAX)
        snprintf(window, sizeof window, "%s", bw);
    json_t *payload = NULL;
    engine_input in;
    memset(&in, 0, sizeof in);
    in.seat = seat;
    in.window = window;
    memset(in.nonce, 0xab, sizeof in.nonce);
    switch (kind) {
    case 0: /* PUT /orders/{window}: the body is the order */
        in.kind = ENGINE_ORDER;
        payload = json_incref(body);
        break;
    case 1: /* POST /plays: "window" from the body, the rest is the play */
        in.kind = ENGINE_PLAY;
        if (!bw || strlen(bw) >= ENGINE_WINDOW_ID_MAX)
            goto done; /* the handler answers 422 / 409 itself */
        snprintf(window, sizeof window, "%s", bw);
        payload = json_copy(body);
        json_object_del(payload, "window");
        break;
    case 2: /* DELETE /orders/{window} */
        in.kind = ENGINE_SYSTEM;
        payload = json_pack("{ss}", "action", "withdraw");
        break;
    default: /* engine-level robustness: any system payload */
        in.kind = ENGINE_SYSTEM;
        in.seat = seat == seats ? ENGINE_PUBLIC : seat;
        payload = json_incref(body);
        break;
    }
    in.payload = payload;

    engine_game *g = engine_clone(p->g);
    CHECK(g != NULL);
    uint8_t before[ENGINE_HASH_BYTES], after[ENGINE_HASH_BYTES];
    engine_hash(g, before);
    engine_receipt receipt;
    memset(&receipt, 0, sizeof receipt);
    engine_error err;
    memset(&err, 0, sizeof err);
    int rc = engine_apply(g, &in, &receipt, &err);
    engine_hash(g, after);
    if (rc != 0) {
        CHECK(rc == ENGINE_EINVALID || rc == ENGINE_ECONFLICT ||
              rc == ENGINE_EFORBIDDEN || rc == ENGINE_EOVER);
        CHECK(err.code == rc);
        CHECK(memchr(err.msg, '\0', sizeof err.msg) && err.msg[0]);
        CHECK(memchr(err.field, '\0', sizeof err.field));
        CHECK(memcmp(before, after, sizeof before) == 0);
        /* (unless the caller wrote the marker itself: errors may quote
         * the caller's own input) */
        if (p->held_note && seat != 0 && !contains(body, HELD_NOTE))
            CHECK(strstr(err.msg, HELD_NOTE) == NULL);
    } else {
        if (in.kind == ENGINE_ORDER)
            CHECK(strlen(receipt.hex) == 2 * ENGINE_HASH_BYTES);
        /* Deterministic: the same input on another copy. */
        engine_game *g2 = engine_clone(p->g);
        uint8_t again[ENGINE_HASH_BYTES];
        CHECK(engine_apply(g2, &in, NULL, &err) == 0);
        engine_hash(g2, again);
        CHECK(memcmp(after, again, sizeof after) == 0);
        engine_free(g2);
        /* Save and load give the same state. */
        json_t *saved = engine_save(g);
        CHECK(saved != NULL);
        engine_game *g3 = engine_load(saved, &err);
        CHECK(g3 != NULL);
        engine_hash(g3, again);
        CHECK(memcmp(after, again, sizeof after) == 0);
        engine_free(g3);
        json_decref(saved);
        check_views(g, p);
        json_t *result = engine_result(g);
        CHECK(engine_is_over(g) ? result != NULL : result == NULL);
        json_decref(result);
    }
    engine_free(g);
done:
    json_decref(payload);
    json_decref(body);
    free(req.body);
    return 0;
}

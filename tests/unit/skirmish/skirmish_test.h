/*
 * skirmish_test.h - helpers the Skirmish unit tests share: start a game
 * with chosen squads and squares, read the view (units, priority, stack),
 * pass and play in the priority window, send SYSTEM inputs (hold, response
 * rules, undo), and record every input so a test
 * can replay its game from the seed (engine_replay_export).
 */
#ifndef CONCLAVE_SKIRMISH_TEST_H
#define CONCLAVE_SKIRMISH_TEST_H

#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "tests/unit/test.h"

typedef struct sk_run {
    engine_game *g;
    json_t *inputs;
    uint64_t seq;
    char window[ENGINE_WINDOW_ID_MAX];
} sk_run;

static void sk_seed(uint64_t n, uint8_t seed[ENGINE_SEED_BYTES])
{
    uint8_t in[16] = "skirmish-test";
    for (int i = 0; i < 8; i++)
        in[8 + i] ^= (uint8_t)(n >> (8 * i));
    engine_sha256(in, sizeof in, seed);
}

static int sk_new(sk_run *r, uint64_t seed_n, const char *options)
{
    uint8_t seed[ENGINE_SEED_BYTES];
    engine_error err = {0};
    memset(r, 0, sizeof *r);
    sk_seed(seed_n, seed);
    json_t *o = json_loads(options ? options : "{}", 0, NULL);
    r->g = engine_create("skirmish", "g-skirmish", o, 2, seed, &err);
    json_decref(o);
    r->inputs = json_array();
    if (!r->g)
        fprintf(stderr, "  create failed: %s\n", err.msg);
    return r->g != NULL;
}

static void sk_free(sk_run *r)
{
    engine_free(r->g);
    json_decref(r->inputs);
}

/* The first open window ("" when none). */
static const char *sk_win(sk_run *r)
{
    engine_window w[4];
    r->window[0] = '\0';
    if (engine_windows(r->g, w, 4) >= 1)
        memcpy(r->window, w[0].id, sizeof r->window);
    return r->window;
}

/* Apply one input; record it on success. Returns the engine's code. */
static int sk_act(sk_run *r, int seat, engine_input_kind kind,
                  const char *payload)
{
    engine_error err = {0};
    json_t *p = payload ? json_loads(payload, 0, NULL) : NULL;
    engine_input in = {
        .seat = seat, .kind = kind, .window = sk_win(r), .payload = p};
    memset(in.nonce, seat + 1, sizeof in.nonce);
    int rc = engine_apply(r->g, &in, NULL, &err);
    if (rc == 0)
        json_array_append_new(r->inputs, engine_input_to_json(&in, ++r->seq));
    json_decref(p);
    return rc;
}

static int sk_order(sk_run *r, int seat, const char *order)
{
    return sk_act(r, seat, ENGINE_ORDER, order);
}

static int sk_play(sk_run *r, int seat, const char *play)
{
    return sk_act(r, seat, ENGINE_PLAY, play);
}

/* A field of the public view (NEW reference), or of seat's view. */
static json_t *sk_vfield(const sk_run *r, int seat, const char *key)
{
    json_t *v = engine_view(r->g, seat);
    json_t *f = json_incref(json_object_get(v, key));
    json_decref(v);
    return f;
}

static int sk_prio_int(const sk_run *r, const char *key)
{
    json_t *p = sk_vfield(r, ENGINE_PUBLIC, "priority");
    json_t *f = json_object_get(p, key);
    int n = json_is_integer(f) ? (int)json_integer_value(f) : -1;
    json_decref(p);
    return n;
}

/* The priority step now, into buf. */
static const char *sk_step(const sk_run *r, char buf[32])
{
    json_t *p = sk_vfield(r, ENGINE_PUBLIC, "priority");
    const char *s = json_string_value(json_object_get(p, "step"));
    snprintf(buf, 32, "%s",
             s && json_object_get(p, "window") &&
                     !json_is_null(json_object_get(p, "window"))
                 ? s
                 : "");
    json_decref(p);
    return buf;
}

static int sk_step_is(const sk_run *r, const char *step)
{
    char buf[32];
    return strcmp(sk_step(r, buf), step) == 0;
}

static int sk_holder(const sk_run *r)
{
    return sk_prio_int(r, "holder");
}

/* An int field of unit id in the public view (-99 if missing). */
static int sk_unit(const sk_run *r, int id, const char *key)
{
    json_t *units = sk_vfield(r, ENGINE_PUBLIC, "units");
    json_t *f = json_object_get(json_array_get(units, (size_t)id), key);
    int n = json_is_integer(f)   ? (int)json_integer_value(f)
            : json_is_boolean(f) ? json_is_true(f)
                                 : -99;
    json_decref(units);
    return n;
}

static int sk_unit_reserved(const sk_run *r, int id, const char *key)
{
    json_t *units = sk_vfield(r, ENGINE_PUBLIC, "units");
    json_t *f = json_object_get(
        json_object_get(json_array_get(units, (size_t)id), "reserved"), key);
    int n = (int)json_integer_value(f);
    json_decref(units);
    return n;
}

/* The unit's square in the public view ("" off the field). */
static const char *sk_unit_sq(const sk_run *r, int id, char buf[4])
{
    json_t *units = sk_vfield(r, ENGINE_PUBLIC, "units");
    const char *s = json_string_value(
        json_object_get(json_array_get(units, (size_t)id), "square"));
    snprintf(buf, 4, "%s", s ? s : "");
    json_decref(units);
    return buf;
}

static size_t sk_stack_n(const sk_run *r)
{
    json_t *s = sk_vfield(r, ENGINE_PUBLIC, "stack");
    size_t n = json_array_size(s);
    json_decref(s);
    return n;
}

static int sk_pass(sk_run *r)
{
    int h = sk_holder(r);
    return h < 0 ? -1 : sk_play(r, h, "{\"action\":\"pass\"}");
}

/* Pass (whoever holds priority) until step is `step`; 0 when reached. */
static int sk_pass_until(sk_run *r, const char *step, int max)
{
    for (int i = 0; i < max; i++) {
        if (sk_step_is(r, step))
            return 0;
        if (sk_pass(r) != 0)
            return -1;
    }
    return sk_step_is(r, step) ? 0 : -1;
}

/* Every log line seat sees, as one string (NEW, free it). */
static char *sk_log_text(const sk_run *r, int seat)
{
    json_t *l = engine_log_since(r->g, seat, 0);
    char *s = json_dumps(l, JSON_COMPACT);
    json_decref(l);
    return s;
}

static int sk_log_has(const sk_run *r, int seat, const char *needle)
{
    char *s = sk_log_text(r, seat);
    int has = s && strstr(s, needle) != NULL;
    free(s);
    return has;
}

/* Muster both squads and deploy them: cardsN is a JSON array of keys,
 * sqN a JSON array of squares in the same order. Returns 0 when the game
 * is in its first turn's start step. */
static int sk_start_with(sk_run *r, uint64_t seed, const char *options,
                         const char *cards0, const char *sq0,
                         const char *cards1, const char *sq1)
{
    char buf[512];
    if (!sk_new(r, seed, options))
        return -1;
    snprintf(buf, sizeof buf, "{\"cards\":%s}", cards0);
    if (sk_order(r, 0, buf))
        return -2;
    snprintf(buf, sizeof buf, "{\"cards\":%s}", cards1);
    if (sk_order(r, 1, buf))
        return -3;
    snprintf(buf, sizeof buf, "{\"squares\":%s}", sq0);
    if (sk_order(r, 0, buf))
        return -4;
    snprintf(buf, sizeof buf, "{\"squares\":%s}", sq1);
    if (sk_order(r, 1, buf))
        return -5;
    return 0;
}

/* The same in edition 1 (a game made without options): in the first
 * turn's start step. */
static int sk_start(sk_run *r, uint64_t seed, const char *cards0,
                    const char *sq0, const char *cards1, const char *sq1)
{
    int rc = sk_start_with(r, seed, NULL, cards0, sq0, cards1, sq1);
    return rc != 0 ? rc : sk_step_is(r, "start") ? 0 : -6;
}

/* A SYSTEM input of seat (respond, undo...). */
static inline int sk_system(sk_run *r, int seat, const char *payload)
{
    return sk_act(r, seat, ENGINE_SYSTEM, payload);
}

/* Replay the recorded inputs from the seed; 1 if the hash matches. */
static int sk_replays(const sk_run *r)
{
    char seed[2 * ENGINE_SEED_BYTES + 1], hash[2 * ENGINE_HASH_BYTES + 1];
    uint8_t h[ENGINE_HASH_BYTES];
    engine_error err = {0};
    int match = 0;
    engine_hex(engine_game_seed(r->g), ENGINE_SEED_BYTES, seed);
    engine_hash(r->g, h);
    engine_hex(h, ENGINE_HASH_BYTES, hash);
    json_t *exp = json_pack(
        "{s:s, s:s, s:s, s:O, s:i, s:s, s:O, s:s}", "format",
        "conclave-export/1", "game_id", engine_game_id(r->g), "ruleset",
        "skirmish", "options", engine_game_options(r->g), "seats", 2, "seed",
        seed, "inputs", r->inputs, "final_hash", hash);
    int rc = engine_replay_export(exp, h, &match, NULL, &err);
    if (rc)
        fprintf(stderr, "  replay: %s\n", err.msg);
    json_decref(exp);
    return rc == 0 && match;
}

#endif

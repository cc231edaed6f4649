/*
 * council_test.h - helpers the Galactic Council ruleset tests share: games
 * through the engine API, reading and replacing the ruleset state (its
 * save is the plain struct in hex), driving windows with bots or given
 * orders, and recording inputs for an export.
 */
#ifndef CONCLAVE_COUNCIL_TEST_H
#define CONCLAVE_COUNCIL_TEST_H

#include "engine/rules/council/council_internal.h"
#include "tests/unit/test.h"

#include <stdlib.h>

static const cnc_data *D __attribute__((unused));

static void council_test_init(void)
{
    engine_error err = {0};
    if (engine_init(&err) != 0) {
        fprintf(stderr, "engine_init: %s\n", err.msg);
        exit(1);
    }
    D = cnc_data_get();
}

static void seed_for(uint8_t seed[ENGINE_SEED_BYTES], uint64_t n)
{
    memset(seed, 0, ENGINE_SEED_BYTES);
    for (int i = 0; i < 8; i++)
        seed[i] = (uint8_t)(n >> (8 * i));
}

static __attribute__((unused)) engine_game *new_game(int seats, uint64_t n,
                                                     const char *options)
{
    uint8_t seed[ENGINE_SEED_BYTES];
    seed_for(seed, n);
    json_t *o = options ? json_loads(options, 0, NULL) : NULL;
    engine_error err = {0};
    engine_game *g = engine_create("council", "g", o, seats, seed, &err);
    json_decref(o);
    if (!g)
        fprintf(stderr, "engine_create: %s\n", err.msg);
    return g;
}

static __attribute__((unused)) void get_state(const engine_game *g,
                                              cnc_state *st)
{
    json_t *sv = engine_save(g);
    engine_error err = {0};
    if (cnc_state_load(st, json_object_get(sv, "state"), &err))
        fprintf(stderr, "get_state: %s\n", err.msg);
    json_decref(sv);
}

/* g with its ruleset state replaced by st (g is freed). */
static __attribute__((unused)) engine_game *put_state(engine_game *g,
                                                      const cnc_state *st)
{
    json_t *sv = engine_save(g);
    json_object_set_new(sv, "state", cnc_state_save(st));
    engine_error err = {0};
    engine_game *h = engine_load(sv, &err);
    if (!h)
        fprintf(stderr, "put_state: %s\n", err.msg);
    json_decref(sv);
    engine_free(g);
    return h;
}

static __attribute__((unused)) const char *open_window(const engine_game *g,
                                                       engine_window *w)
{
    return engine_windows(g, w, 1) > 0 ? w->id : NULL;
}

/* Apply one input; 0 or the error. Records it in rec (may be NULL). */
static __attribute__((unused)) int apply(engine_game *g, int seat,
                                         engine_input_kind kind,
                                         const char *window,
                                         const json_t *payload, json_t *rec)
{
    engine_input in = {
        .seat = seat, .kind = kind, .window = window, .payload = payload};
    for (int i = 0; i < ENGINE_NONCE_BYTES; i++)
        in.nonce[i] = (uint8_t)(engine_game_inputs(g) + (uint64_t)i);
    engine_error err = {0};
    int rc = engine_apply(g, &in, NULL, &err);
    if (rc == 0 && rec)
        json_array_append_new(rec,
                              engine_input_to_json(&in, engine_game_inputs(g)));
    return rc;
}

/* The window is the ranked strategy picks ("rN.picks"). */
static __attribute__((unused)) int is_picks(const engine_window *w)
{
    return strstr(w->id, ".picks") != NULL;
}

/* Bots (level per seat) act until the action window of the round opens
 * (or the game ends): the ranked picks (every seat's ranking), the
 * sequential picks and the agenda. */
static __attribute__((unused)) void
picks_by_bots(engine_game *g, const char *level, engine_rng *rng, json_t *rec)
{
    engine_window w;
    while (!engine_is_over(g) && open_window(g, &w) &&
           (w.mode == ENGINE_OPEN || is_picks(&w))) {
        if (is_picks(&w)) {
            for (int seat = 0; seat < engine_game_seats(g); seat++) {
                engine_input in;
                engine_error err = {0};
                if (engine_bot_action(g, seat, level, rng, &in, &err))
                    return;
                apply(g, seat, in.kind, in.window, in.payload, rec);
                json_decref((json_t *)in.payload);
            }
            continue;
        }
        int seat = __builtin_ctz(w.seats);
        engine_input in;
        engine_error err = {0};
        if (engine_bot_action(g, seat, level, rng, &in, &err))
            return;
        apply(g, seat, in.kind, in.window, in.payload, rec);
        json_decref((json_t *)in.payload);
    }
}

/* The options of part I's tests: no council phase, so a round is picks,
 * action, status (the council's own tests are test_council_council.c). */
#define PART_ONE "{\"council_phase\": 2}"

/* A 3-seat game in its first action window (strategy cards picked by random
 * bots), seat 0 a Thessari (no exploration discount, and a special that
 * touches none of the rules tested here) with tg trade goods. */
static __attribute__((unused)) engine_game *ready_game(uint64_t seed, int tg,
                                                       cnc_state *st)
{
    engine_rng rng;
    uint8_t key[32] = {1};
    engine_rng_init(&rng, key, seed);
    engine_game *g = new_game(3, seed, PART_ONE);
    picks_by_bots(g, "random", &rng, NULL);
    get_state(g, st);
    st->p[0].race = (int8_t)cnc_race_index(D, "thessari");
    st->p[0].tg = (int16_t)tg;
    return put_state(g, st);
}

/* The action window: seat gets order (text), every other seat {}; each
 * order is marked ready (the window locks only then). */
static __attribute__((unused)) int action_with(engine_game *g, int seat,
                                               const char *order)
{
    engine_window w;
    if (!open_window(g, &w) || w.mode != ENGINE_SEALED)
        return -99;
    json_t *mine = json_loads(order, 0, NULL), *none = json_object();
    json_object_set_new(mine, ENGINE_READY_PART, json_true());
    json_object_set_new(none, ENGINE_READY_PART, json_true());
    int rc = 0;
    for (int p = 0; p < engine_game_seats(g) && rc == 0; p++)
        rc = apply(g, p, ENGINE_ORDER, w.id, p == seat ? mine : none, NULL);
    json_decref(mine);
    json_decref(none);
    return rc;
}

static __attribute__((unused)) int unit_ix(const char *key)
{
    return cnc_unit_index(D, key);
}

static __attribute__((unused)) int system_ix(const char *key)
{
    for (int i = 0; i < D->nsystems; i++)
        if (strcmp(D->systems[i].key, key) == 0)
            return i;
    return -1;
}

static __attribute__((unused)) int marker_kind(const char *key)
{
    return cnc_marker_index(D, key);
}

/* An unexplored sector next to seat's home. */
static __attribute__((unused)) int unexplored_next_to_home(const cnc_state *s,
                                                           int seat)
{
    int nb[6], n = cnc_sector_neighbors(&s->g, s->g.home[seat], nb);
    for (int i = 0; i < n; i++)
        if (!s->fog.explored[nb[i]] && s->g.sec[nb[i]].kind == CNC_SEC_SYSTEM)
            return nb[i];
    return -1;
}

/* Make sector x hold tile t with no markers at all. */
static __attribute__((unused)) void set_tile(cnc_state *s, int x, int t)
{
    cnc_sector *sec = &s->g.sec[x];
    sec->tile = (int8_t)t;
    if (sec->marker >= 0)
        s->g.markers[sec->marker].state = CNC_MK_DISCARDED;
    sec->marker = -1;
    for (int p = 0; p < CNC_MAX_PLANETS; p++) {
        if (sec->planet_marker[p] >= 0)
            s->g.markers[sec->planet_marker[p]].state = CNC_MK_DISCARDED;
        sec->planet_marker[p] = -1;
        sec->owner[p] = -1;
        sec->ground[p] = 0;
    }
}

/* Put a hidden marker of kind k on sector x (planet -1: the system),
 * reusing a discarded marker slot. */
static __attribute__((unused)) int put_marker(cnc_state *s, int x, int planet,
                                              int k)
{
    for (int m = 0; m < s->g.nmarkers; m++)
        if (s->g.markers[m].state == CNC_MK_DISCARDED) {
            s->g.markers[m] = (cnc_marker){(int8_t)k, (int8_t)x, (int8_t)planet,
                                           CNC_MK_HIDDEN};
            if (planet < 0)
                s->g.sec[x].marker = (int16_t)m;
            else
                s->g.sec[x].planet_marker[planet] = (int16_t)m;
            return m;
        }
    return -1;
}

static __attribute__((unused)) void hex_text(const cnc_state *s, int x,
                                             char *buf, size_t n)
{
    snprintf(buf, n, "[%d, %d]", s->g.sec[x].hex.q, s->g.sec[x].hex.r);
}

#endif

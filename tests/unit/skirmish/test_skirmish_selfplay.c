/*
 * test_skirmish_selfplay.c - Skirmish self-play through engine_apply with
 * the state invariants checked after every input (life never below zero
 * and above zero on the field, every creature in exactly one place, one
 * creature per square, reserves never negative, the stack empty when a
 * subphase or phase ends), save/load and replay on a sample of games, and
 * the bot strength check (basic beats random in at least 90% of games in
 * each seat). Games play edition 2 but one in four (edition 1).
 *
 * It reads the ruleset's state and the core's stack directly (white box).
 * SKIRMISH_GAMES=N sets the number of self-play games (default 1000; the
 * soak run, `make soak-skirmish`, plays 10,000 under ASan).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine_internal.h"
#include "engine/rules/skirmish/skirmish_internal.h"
#include "tests/unit/test.h"

static const char *const mixes[4][2] = {
    {"random", "random"},
    {"basic", "random"},
    {"random", "basic"},
    {"basic", "basic"},
};

static int stack_all_triggers(const engine_game *g)
{
    const engine_stack *st = &g->prio->cur.stack;
    for (size_t i = 0; i < st->n; i++) {
        const char *k =
            json_string_value(json_object_get(st->items[i].payload, "kind"));
        if (!k || (strcmp(k, "trigger") != 0 &&
                   strcmp(k, "regeneration") != 0 && strcmp(k, "poison") != 0))
            return 0;
    }
    return 1;
}

/* The invariants after one input; prev is the step before it. */
static int invariants(const engine_game *g, const char *prev, char *why,
                      size_t n)
{
    const sk_state *s = g->state;
    int held[SK_SQUARES] = {0};
    for (int u = 0; u < s->nu; u++) {
        const int *c = s->cr[u];
        int on = c[U_SQ] >= 0 && !c[U_DEAD];
        if (c[U_LIFE] < 0 || (on && c[U_LIFE] == 0))
            return snprintf(why, n, "unit %d life %d on the field", u,
                            c[U_LIFE]);
        if (s->phase >= SK_PLAY && on == c[U_DEAD])
            return snprintf(why, n, "unit %d in two places or none", u);
        if (c[U_DEAD] && c[U_SQ] >= 0)
            return snprintf(why, n, "unit %d dead on the field", u);
        if (on && held[c[U_SQ]]++)
            return snprintf(why, n, "two units on square %d", c[U_SQ]);
        for (int k = U_RES_MP; k <= U_RES_LIFE; k++)
            if (c[k] < 0)
                return snprintf(why, n, "unit %d negative reserve", u);
        if (c[U_TOKENS] > SK_MAX_TOKENS || c[U_MP] < 0)
            return snprintf(why, n, "unit %d tokens/move out of range", u);
    }
    if (!g->prio || !g->prio->cur.open || s->phase != SK_PLAY)
        return 0;
    const char *step = g->prio->cur.step;
    if (strcmp(step, prev) == 0)
        return 0;
    /* a subphase or phase just ended: its stack was emptied */
    if ((!strcmp(step, "choice") || !strcmp(step, "handover")) &&
        g->prio->cur.stack.n != 0)
        return snprintf(why, n, "stack not empty entering %s", step);
    if ((strcmp(step, "start") == 0 || strcmp(step, "end") == 0) &&
        strcmp(prev, "choice") != 0 && !stack_all_triggers(g))
        return snprintf(why, n, "%s began with a declaration left", step);
    return 0;
}

static void seed_of(uint64_t i, uint8_t seed[ENGINE_SEED_BYTES])
{
    uint8_t in[16] = "skirmish-self";
    for (int k = 0; k < 8; k++)
        in[8 + k] ^= (uint8_t)(i >> (8 * k));
    engine_sha256(in, sizeof in, seed);
}

static int same_after_save(const engine_game *g)
{
    engine_error err = {0};
    uint8_t a[ENGINE_HASH_BYTES], b[ENGINE_HASH_BYTES];
    json_t *saved = engine_save(g);
    engine_game *back = engine_load(saved, &err);
    int ok = back != NULL;
    if (ok) {
        engine_hash(g, a);
        engine_hash(back, b);
        ok = memcmp(a, b, sizeof a) == 0;
    }
    engine_free(back);
    json_decref(saved);
    return ok;
}

static int replays(const engine_game *g, json_t *inputs)
{
    char seed[2 * ENGINE_SEED_BYTES + 1], hash[2 * ENGINE_HASH_BYTES + 1];
    uint8_t h[ENGINE_HASH_BYTES];
    engine_error err = {0};
    int match = 0;
    engine_hex(engine_game_seed(g), ENGINE_SEED_BYTES, seed);
    engine_hash(g, h);
    engine_hex(h, ENGINE_HASH_BYTES, hash);
    json_t *exp =
        json_pack("{s:s, s:s, s:s, s:O, s:i, s:s, s:O, s:s}", "format",
                  "conclave-export/1", "game_id", "self", "ruleset", "skirmish",
                  "options", engine_game_options(g), "seats", 2, "seed", seed,
                  "inputs", inputs, "final_hash", hash);
    int rc = engine_replay_export(exp, h, &match, NULL, &err);
    json_decref(exp);
    return rc == 0 && match;
}

typedef struct tally {
    int bad, stuck, bad_save, bad_replay, replays;
    long inputs;
} tally;

/* Play one game to its end; returns the winner (-1 none, 2 draw). */
static int play_game(uint64_t i, const char *const lv[2], engine_rng *bots,
                     int check, int spot, tally *t)
{
    uint8_t seed[ENGINE_SEED_BYTES];
    engine_error err = {0};
    seed_of(i, seed);
    /* Three games in four play edition 2 (what new games get), one in four
     * edition 1 (games made before it). */
    json_t *opts = json_pack("{s:i}", "edition", i % 4 == 3 ? 1 : 2);
    engine_game *g = engine_create("skirmish", "self", opts, 2, seed, &err);
    json_decref(opts);
    json_t *rec = spot ? json_array() : NULL;
    char prev[32] = "";
    uint64_t seq = 0;
    while (g && !engine_is_over(g)) {
        engine_window w;
        engine_input in;
        if (seq > 100000 || engine_windows(g, &w, 1) != 1) {
            t->stuck++;
            break;
        }
        uint32_t waiting =
            w.mode == ENGINE_SEALED ? w.seats & ~w.submitted : w.seats;
        int seat = waiting & 1u ? 0 : 1;
        if (engine_bot_action(g, seat, lv[seat], bots, &in, &err) != 0 ||
            engine_apply(g, &in, NULL, &err) != 0) {
            fprintf(stderr, "  game %llu: %s\n", (unsigned long long)i,
                    err.msg);
            json_decref((json_t *)in.payload);
            t->stuck++;
            break;
        }
        if (rec)
            json_array_append_new(rec, engine_input_to_json(&in, ++seq));
        else
            seq++;
        json_decref((json_t *)in.payload);
        char why[160];
        if (check && invariants(g, prev, why, sizeof why)) {
            if (t->bad++ < 5)
                fprintf(stderr, "  game %llu: %s\n", (unsigned long long)i,
                        why);
        }
        if (spot && seq % 25 == 0 && !same_after_save(g))
            t->bad_save++;
        snprintf(prev, sizeof prev, "%s",
                 g->prio && g->prio->cur.open ? g->prio->cur.step : "");
    }
    t->inputs += (long)seq;
    int winner = g ? ((const sk_state *)g->state)->winner : -1;
    if (spot && g) {
        t->replays++;
        t->bad_replay += !replays(g, rec);
    }
    json_decref(rec);
    engine_free(g);
    return winner;
}

static void test_selfplay_invariants(void)
{
    const char *env = getenv("SKIRMISH_GAMES");
    int games = env ? atoi(env) : 1000;
    tally t = {0};
    engine_rng bots;
    uint8_t key[32] = {42};
    engine_rng_init(&bots, key, 1);
    clock_t t0 = clock();
    for (int i = 0; i < games; i++)
        play_game((uint64_t)i, mixes[i % 4], &bots, 1, i % 50 == 0, &t);
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    printf("skirmish self-play: %d games, %ld inputs in %.2f s (%.0f games/s "
           "with checks), %d replays\n",
           games, t.inputs, secs, games / (secs > 0 ? secs : 1), t.replays);
    CHECK_EQ_INT(t.bad, 0);
    CHECK_EQ_INT(t.stuck, 0);
    CHECK_EQ_INT(t.bad_save, 0);
    CHECK_EQ_INT(t.bad_replay, 0);
}

/* Basic wins at least 90% against random in each seat (300 games each,
 * edition 2: play_game's games with i % 4 != 3). */
static void test_basic_beats_random(void)
{
    int games = 0, wins[2] = {0}, played[2] = {0};
    tally t = {0};
    engine_rng bots;
    uint8_t key[32] = {43};
    engine_rng_init(&bots, key, 1);
    for (uint64_t i = 0; games < 600; i++) {
        if (i % 4 == 3)
            continue;
        int b = games++ & 1;
        const char *lv[2];
        lv[b] = "basic";
        lv[!b] = "random";
        played[b]++;
        wins[b] += play_game(900000 + i, lv, &bots, 0, 0, &t) == b;
    }
    for (int b = 0; b < 2; b++) {
        printf("skirmish basic vs random: basic in seat %d wins %.1f%% of %d "
               "games\n",
               b, 100.0 * wins[b] / played[b], played[b]);
        CHECK(wins[b] * 10 >= played[b] * 9);
    }
    CHECK_EQ_INT(t.stuck, 0);
}

int main(void)
{
    engine_error err = {0};
    if (engine_init(&err) != 0) {
        fprintf(stderr, "engine_init: %s\n", err.msg);
        return 1;
    }
    RUN(test_selfplay_invariants);
    RUN(test_basic_beats_random);
    return TEST_SUMMARY();
}

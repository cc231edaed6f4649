/*
 * test_starbase_game.c - Starbase as a whole: hidden hands never reach
 * another audience (views and logs), a whole game replays from its export
 * to the same hash, random self-play keeps the invariants (ISK never
 * negative, every card in one place) and always ends, and the basic bot
 * beats the random ones in every seat (at least 90%).
 *
 *   build/tests/test_starbase_game             ~1,000 self-play games
 *   STARBASE_SELFPLAY_GAMES=10000 build-asan/tests/test_starbase_game
 *                                              the soak run (see
 *                                              scripts/starbase_soak.sh)
 */
#include "tests/unit/starbase/starbase_test.h"

#include <time.h>

/* One bot input for the holder of the open window; its result. */
static int bot_step(tgame *t, const char *const *levels, engine_rng *rng)
{
    int seat = tholder(t);
    if (seat < 0)
        return -1;
    engine_input in;
    engine_error err;
    if (engine_bot_action(t->g, seat, levels[seat], rng, &in, &err) != 0)
        return -1;
    int rc = engine_apply(t->g, &in, NULL, &err);
    if (rc == 0 && t->inputs)
        json_array_append_new(
            t->inputs,
            engine_input_to_json(&in, json_array_size(t->inputs) + 1));
    if (rc != 0)
        fprintf(stderr, "  bot input refused: %s (%s)\n", err.msg, err.field);
    json_decref((json_t *)in.payload);
    return rc;
}

static void bot_rng(engine_rng *rng, uint64_t n)
{
    uint8_t key[32] = {0};
    for (int i = 0; i < 8; i++)
        key[i] = (uint8_t)(n >> (8 * i));
    engine_rng_init(rng, key, 2);
}

/* Ids of every card object ({"id","key",...}) in j. */
static void card_ids(const json_t *j, unsigned char *seen)
{
    if (json_is_object(j)) {
        const json_t *id = json_object_get(j, "id");
        if (json_is_integer(id) && json_object_get(j, "key") &&
            json_integer_value(id) >= 0 && json_integer_value(id) < SB_MAX_INST)
            seen[json_integer_value(id)] = 1;
        const char *k;
        json_t *v;
        json_object_foreach((json_t *)j, k, v) card_ids(v, seen);
    } else if (json_is_array(j)) {
        size_t i;
        json_t *v;
        json_array_foreach((json_t *)j, i, v) card_ids(v, seen);
    }
}

/* No card in seat p's hand shows in another audience's view. */
static int hands_hidden(const tgame *t)
{
    const sb_state *s = S(t);
    for (int q = ENGINE_PUBLIC; q < s->seats; q++) {
        unsigned char seen[SB_MAX_INST] = {0};
        json_t *v = engine_view(t->g, q);
        card_ids(v, seen);
        json_decref(v);
        for (int i = 0; i < s->ninst; i++)
            if (s->in[i].zone == SB_Z_HAND && s->in[i].owner != q && seen[i])
                return 0;
    }
    return 1;
}

static int text_has(const json_t *j, const char *needle)
{
    char *txt = json_dumps(j, JSON_COMPACT);
    int has = txt && strstr(txt, needle) != NULL;
    free(txt);
    return has;
}

static void test_hidden_hands(void)
{
    tgame t = tnew(3, 11);
    /* a marker: a card in no starter market, in seat 1's hand */
    int marker = rig(&t, 1, "colossus_dreadnought", SB_Z_HAND, -1);
    REQUIRE(marker >= 0);
    for (int q = ENGINE_PUBLIC; q < 3; q++) {
        json_t *v = engine_view(t.g, q), *log = engine_log_since(t.g, q, 0);
        CHECKF(text_has(v, "colossus_dreadnought") == (q == 1), "view of %d",
               q);
        CHECK(!text_has(log, "Colossus"));
        /* the view's design catalogue: the hand's designs for their seat */
        const json_t *d = json_object_get(json_object_get(v, "cards"),
                                          "colossus_dreadnought");
        CHECKF((d && json_string_value(json_object_get(d, "text")) &&
                json_array_size(json_object_get(d, "commands")) == 2) ==
                   (q == 1),
               "catalogue of %d", q);
        if (q != ENGINE_PUBLIC) {
            json_t *players = json_object_get(v, "players");
            CHECK_EQ_INT(json_integer_value(json_object_get(
                             json_array_get(players, 1), "hand")),
                         6);
        }
        json_decref(v);
        json_decref(log);
    }
    /* the cards each seat drew: only its own log names them */
    json_t *log0 = engine_log_since(t.g, 0, 0),
           *pub = engine_log_since(t.g, ENGINE_PUBLIC, 0);
    CHECK(text_has(log0, "You drew"));
    CHECK(!text_has(pub, "You drew"));
    json_decref(log0);
    json_decref(pub);
    /* over whole games, no hand card shows in another audience's view */
    static const char *const lv[4] = {"basic", "random", "basic", "random"};
    engine_rng rng;
    bot_rng(&rng, 5);
    int leaks = 0;
    for (int g = 0; g < (quick ? 3 : 10); g++) {
        tgame u = tnew(2 + g % 3, 900 + (uint64_t)g);
        json_decref(u.inputs);
        u.inputs = NULL;
        for (int n = 0; n < 5000 && !engine_is_over(u.g); n++) {
            if (bot_step(&u, lv, &rng) != 0)
                break;
            if (n % 7 == 0)
                leaks += !hands_hidden(&u);
        }
        CHECK(engine_is_over(u.g));
        engine_free(u.g);
    }
    CHECK_EQ_INT(leaks, 0);
    tfree(&t);
}

static json_t *export_of(const tgame *t)
{
    char seed[2 * ENGINE_SEED_BYTES + 1], hash[2 * ENGINE_HASH_BYTES + 1];
    uint8_t h[ENGINE_HASH_BYTES];
    engine_hex(engine_game_seed(t->g), ENGINE_SEED_BYTES, seed);
    engine_hash(t->g, h);
    engine_hex(h, ENGINE_HASH_BYTES, hash);
    return json_pack("{s:s, s:s, s:s, s:O, s:i, s:s, s:O, s:s}", "format",
                     "conclave-export/1", "game_id", engine_game_id(t->g),
                     "ruleset", "starbase", "options",
                     engine_game_options(t->g), "seats",
                     engine_game_seats(t->g), "seed", seed, "inputs", t->inputs,
                     "final_hash", hash);
}

static void test_replay_whole_game(void)
{
    static const char *const lv[4] = {"basic", "random", "random", "basic"};
    for (int seats = 2; seats <= 4; seats++) {
        tgame t = tnew(seats, 4000 + (uint64_t)seats);
        engine_rng rng;
        bot_rng(&rng, 17);
        while (!engine_is_over(t.g) && bot_step(&t, lv, &rng) == 0)
            ;
        REQUIRE(engine_is_over(t.g));
        json_t *exp = export_of(&t);
        uint8_t h[ENGINE_HASH_BYTES];
        int match = 0;
        engine_error err;
        CHECK_EQ_INT(engine_replay_export(exp, h, &match, NULL, &err), 0);
        CHECKF(match, "%d seats: %s", seats, err.msg);
        CHECK(json_array_size(t.inputs) > 50);
        json_decref(exp);
        tfree(&t);
    }
}

static int env_games(int def)
{
    const char *e = getenv("STARBASE_SELFPLAY_GAMES");
    return e && atoi(e) > 0 ? atoi(e) : def;
}

static void test_selfplay_properties(void)
{
    int games = env_games(quick ? 200 : 1000);
    static const char *const mixes[4][4] = {
        {"random", "random", "random", "random"},
        {"basic", "random", "basic", "random"},
        {"random", "basic", "random", "basic"},
        {"basic", "basic", "basic", "basic"},
    };
    int bad = 0, unended = 0, refused = 0;
    long inputs = 0;
    engine_rng rng;
    bot_rng(&rng, 99);
    clock_t t0 = clock();
    for (int g = 0; g < games; g++) {
        /* both rules editions: every other dozen games the current one */
        tgame t = (g / 12) % 2 ? tnew2(2 + g % 3, 100000 + (uint64_t)g)
                               : tnew(2 + g % 3, 100000 + (uint64_t)g);
        json_decref(t.inputs);
        t.inputs = NULL;
        int n = 0;
        while (!engine_is_over(t.g) && n < 20000) {
            if (bot_step(&t, mixes[(g / 3) % 4], &rng) != 0) {
                refused++;
                break;
            }
            n++;
            bad += !invariants_ok(S(&t));
        }
        inputs += n;
        unended += !engine_is_over(t.g);
        engine_free(t.g);
    }
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    printf("starbase self-play: %d games (2-4 seats) in %.2f s, %.0f games/s, "
           "%.0f inputs per game\n",
           games, secs, secs > 0 ? games / secs : 0.0, (double)inputs / games);
    CHECK_EQ_INT(bad, 0);
    CHECK_EQ_INT(unended, 0);
    CHECK_EQ_INT(refused, 0);
}

/* Basic beats random in every seat: at 2, 3 and 4 seats one basic bot
 * against random ones, the basic bot in each seat in turn, current rules
 * (markets and the first player drawn from the seed). */
static void test_basic_beats_random(void)
{
    int per_seat = quick ? 40 : 100;
    engine_rng rng;
    bot_rng(&rng, 7);
    for (int seats = 2; seats <= 4; seats++)
        for (int b = 0; b < seats; b++) {
            int wins = 0;
            for (int g = 0; g < per_seat; g++) {
                const char *lv[SB_MAX_SEATS];
                for (int p = 0; p < seats; p++)
                    lv[p] = p == b ? "basic" : "random";
                tgame t =
                    tnew2(seats, 500000 + 1000 * (uint64_t)(4 * seats + b) +
                                     (uint64_t)g);
                json_decref(t.inputs);
                t.inputs = NULL;
                while (!engine_is_over(t.g) && bot_step(&t, lv, &rng) == 0)
                    ;
                json_t *res = engine_result(t.g);
                json_t *w = json_object_get(res, "winners");
                wins += json_array_size(w) == 1 &&
                        json_integer_value(json_array_get(w, 0)) == b;
                json_decref(res);
                engine_free(t.g);
            }
            printf("starbase basic vs random, %d seats, basic in seat %d: "
                   "%d of %d (%.1f%%)\n",
                   seats, b, wins, per_seat, 100.0 * wins / per_seat);
            CHECKF(wins * 10 >= per_seat * 9, "%d seats, seat %d: %d of %d",
                   seats, b, wins, per_seat);
        }
}

int main(void)
{
    tinit();
    RUN(test_hidden_hands);
    RUN(test_replay_whole_game);
    RUN(test_selfplay_properties);
    RUN(test_basic_beats_random);
    return TEST_SUMMARY();
}

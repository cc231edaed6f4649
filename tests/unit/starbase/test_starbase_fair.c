/*
 * test_starbase_fair.c - Starbase's seats are fair: between basic bots no
 * seat's share of the wins strays more than 10 points from 1/N at 2, 3 and
 * 4 seats (fixed seeds, so the figure is the same on every run), who goes
 * first and which starter market each seat gets come from the game's seed,
 * and the starters option fixes the markets.
 *
 *   build/tests/test_starbase_fair           the shares, 240 games a count
 *   STARBASE_FAIR_DETAIL=1 build/tests/test_starbase_fair
 *                                            also wins by first player and
 *                                            by market
 */
#include "tests/unit/starbase/starbase_test.h"

#define FAIR_GAMES 240
#define FAIR_POINTS 10

/* One basic-bot input for the holder of the open window; its result. */
static int basic_step(tgame *t, engine_rng *rng)
{
    int seat = tholder(t);
    if (seat < 0)
        return -1;
    engine_input in;
    engine_error err;
    if (engine_bot_action(t->g, seat, "basic", rng, &in, &err) != 0)
        return -1;
    int rc = engine_apply(t->g, &in, NULL, &err);
    json_decref((json_t *)in.payload);
    return rc;
}

/* The single winner of a finished game, -1 for none. */
static int winner(const tgame *t)
{
    json_t *res = engine_result(t->g);
    json_t *w = json_object_get(res, "winners");
    int seat = json_array_size(w) == 1
                   ? (int)json_integer_value(json_array_get(w, 0))
                   : -1;
    json_decref(res);
    return seat;
}

static void test_seat_shares(void)
{
    int detail = getenv("STARBASE_FAIR_DETAIL") != NULL;
    for (int seats = 2; seats <= 4; seats++) {
        int wins[SB_MAX_SEATS] = {0}, first_wins = 0, unended = 0;
        int mk_wins[STARBASE_MAX_MARKETS] = {0},
            mk_games[STARBASE_MAX_MARKETS] = {0};
        engine_rng rng;
        uint8_t key[32] = {(uint8_t)seats, 0x5b};
        engine_rng_init(&rng, key, 2);
        for (int g = 0; g < FAIR_GAMES; g++) {
            tgame t = tnew2(seats, 700000 + 1000 * (uint64_t)seats + g);
            int first = S(&t)->active, n = 0;
            while (!engine_is_over(t.g) && n++ < 20000 &&
                   basic_step(&t, &rng) == 0)
                ;
            unended += !engine_is_over(t.g);
            int w = winner(&t);
            for (int p = 0; p < seats; p++)
                mk_games[S(&t)->p[p].market]++;
            if (w >= 0) {
                wins[w]++;
                first_wins += w == first;
                mk_wins[S(&t)->p[w].market]++;
            }
            tfree(&t);
        }
        printf("starbase fairness, %d seats, basic bots, %d games:", seats,
               FAIR_GAMES);
        for (int p = 0; p < seats; p++)
            printf(" seat %d %.1f%%", p, 100.0 * wins[p] / FAIR_GAMES);
        printf("\n");
        if (detail) {
            printf("  the first player won %.1f%%;",
                   100.0 * first_wins / FAIR_GAMES);
            for (int m = 0; m < starbase_cards()->nmarkets; m++)
                printf(" %s %d/%d", starbase_cards()->markets[m].key,
                       mk_wins[m], mk_games[m]);
            printf("\n");
        }
        CHECK_EQ_INT(unended, 0);
        for (int p = 0; p < seats; p++) {
            /* |share - 1/N| <= 10 points, in whole games */
            int off = wins[p] * seats * 100 - FAIR_GAMES * 100;
            CHECKF(off <= FAIR_POINTS * FAIR_GAMES * seats &&
                       -off <= FAIR_POINTS * FAIR_GAMES * seats,
                   "%d seats: seat %d won %d of %d", seats, p, wins[p],
                   FAIR_GAMES);
        }
    }
}

/* Over many seeds every seat goes first and gets every market. */
static void test_first_player_and_markets_from_seed(void)
{
    int first[SB_MAX_SEATS] = {0}, got[SB_MAX_SEATS][STARBASE_MAX_MARKETS];
    memset(got, 0, sizeof got);
    for (int g = 0; g < 200; g++) {
        tgame t = tnew2(3, 900000 + (uint64_t)g);
        REQUIRE(t.g);
        first[S(&t)->active]++;
        CHECK_EQ_INT(S(&t)->turn, 1);
        for (int p = 0; p < 3; p++)
            got[p][S(&t)->p[p].market]++;
        CHECK(S(&t)->p[0].market != S(&t)->p[1].market &&
              S(&t)->p[1].market != S(&t)->p[2].market &&
              S(&t)->p[0].market != S(&t)->p[2].market);
        tfree(&t);
    }
    for (int p = 0; p < 3; p++) {
        CHECKF(first[p] >= 40, "seat %d went first %d times of 200", p,
               first[p]);
        for (int m = 0; m < 4; m++)
            CHECKF(got[p][m] >= 20, "seat %d got market %d %d times", p, m,
                   got[p][m]);
    }
    /* the same seed, the same deal */
    tgame a = tnew2(4, 424242), b = tnew2(4, 424242);
    CHECK_EQ_INT(S(&a)->active, S(&b)->active);
    for (int p = 0; p < 4; p++)
        CHECK_EQ_INT(S(&a)->p[p].market, S(&b)->p[p].market);
    tfree(&a);
    tfree(&b);
}

/* A game stored before editions deals as it always did. */
static void test_first_edition_deal_kept(void)
{
    for (int g = 0; g < 20; g++) {
        tgame t = tnew(4, 910000 + (uint64_t)g);
        CHECK_EQ_INT(S(&t)->active, 0);
        CHECK_EQ_INT(S(&t)->edition, SB_EDITION_FIRST);
        for (int p = 0; p < 4; p++)
            CHECK_EQ_INT(S(&t)->p[p].market, p);
        tfree(&t);
    }
}

static void test_starters_option(void)
{
    tgame t = tnew_opts(2, 5,
                        "{\"edition\":2,\"starters\":[\"free_traders\","
                        "\"ore_syndicate\"]}");
    REQUIRE(t.g);
    CHECK_EQ_INT(S(&t)->p[0].market,
                 starbase_market_find(starbase_cards(), "free_traders"));
    CHECK_EQ_INT(S(&t)->p[1].market,
                 starbase_market_find(starbase_cards(), "ore_syndicate"));
    tfree(&t);
    /* the first seats named, the others drawn from what is left */
    for (int g = 0; g < 20; g++) {
        tgame u = tnew_opts(3, 40 + (uint64_t)g,
                            "{\"edition\":2,\"starters\":[\"corsair_clans\"]}");
        REQUIRE(u.g);
        CHECK_EQ_INT(S(&u)->p[0].market,
                     starbase_market_find(starbase_cards(), "corsair_clans"));
        CHECK(S(&u)->p[1].market != S(&u)->p[0].market &&
              S(&u)->p[2].market != S(&u)->p[0].market &&
              S(&u)->p[1].market != S(&u)->p[2].market);
        tfree(&u);
    }
    /* at most one market for each seat, never twice, only ours */
    static const char *const bad[] = {
        "{\"starters\":[\"free_traders\",\"ore_syndicate\",\"corsair_clans\"]}",
        "{\"starters\":[\"free_traders\",\"free_traders\"]}",
        "{\"starters\":[\"free_traders\",\"no_such_market\"]}",
        "{\"edition\":0}", NULL};
    char past[32]; /* the edition after the current one */
    snprintf(past, sizeof past, "{\"edition\":%d}", SB_EDITION_CURRENT + 1);
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        const char *opt = bad[k] ? bad[k] : past;
        tgame u = tnew_opts(2, 5, opt);
        CHECKF(u.g == NULL, "accepted %s", opt);
        if (u.g)
            tfree(&u);
        else
            json_decref(u.inputs);
    }
}

int main(void)
{
    tinit();
    RUN(test_first_edition_deal_kept);
    RUN(test_first_player_and_markets_from_seed);
    RUN(test_starters_option);
    RUN(test_seat_shares);
    return TEST_SUMMARY();
}

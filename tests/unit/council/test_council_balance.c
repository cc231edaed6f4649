/*
 * test_council_balance.c - Galactic Council's fair seats: in self-play of
 * the basic bot against itself (what new games get: default options, rules
 * edition 2) no seat's share of the wins strays more than 10 points from
 * 1/N, at 3, 4 and 6 seats, over a few hundred games each
 * (docs/games/council.md, "Seat balance").
 */
#include "tests/unit/council/council_test.h"

/* The winner of one basic-only game of seats seats from seed n. */
static int basic_game(int seats, uint64_t n)
{
    engine_rng rng;
    uint8_t key[32] = {9};
    engine_rng_init(&rng, key, n);
    engine_game *g = new_game(seats, n, "{\"edition\": 2}"); /* a new game's */
    engine_window w;
    while (g && !engine_is_over(g) && open_window(g, &w)) {
        int seat = __builtin_ctz(w.seats & ~w.submitted);
        engine_input in;
        engine_error err = {0};
        if (engine_bot_action(g, seat, "basic", &rng, &in, &err) ||
            apply(g, seat, in.kind, in.window, in.payload, NULL)) {
            CHECKF(0, "seats %d game %llu: bot input refused: %s", seats,
                   (unsigned long long)n, err.msg);
            json_decref((json_t *)in.payload);
            break;
        }
        json_decref((json_t *)in.payload);
    }
    int winner = -1;
    json_t *r = g ? engine_result(g) : NULL;
    if (r)
        winner = (int)json_integer_value(
            json_array_get(json_object_get(r, "winners"), 0));
    json_decref(r);
    engine_free(g);
    return winner;
}

static void test_basic_self_play_seats_win_fair_shares(void)
{
    static const int tables[] = {3, 4, 6};
    int games = getenv("CONCLAVE_TEST_QUICK") ? 120 : 240;
    for (int t = 0; t < 3; t++) {
        int seats = tables[t], wins[ENGINE_MAX_SEATS] = {0};
        for (int i = 0; i < games; i++) {
            int w =
                basic_game(seats, 5000u + 1000u * (uint64_t)t + (uint64_t)i);
            REQUIRE(w >= 0 && w < seats);
            wins[w]++;
        }
        for (int p = 0; p < seats; p++) {
            double share = 100.0 * wins[p] / games, fair = 100.0 / seats;
            CHECKF(share >= fair - 10 && share <= fair + 10,
                   "%d seats: seat %d won %.1f%% (fair %.1f%%)", seats, p,
                   share, fair);
        }
    }
}

int main(void)
{
    council_test_init();
    RUN(test_basic_self_play_seats_win_fair_shares);
    return TEST_SUMMARY();
}

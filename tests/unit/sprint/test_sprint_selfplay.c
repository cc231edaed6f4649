/*
 * test_sprint_selfplay.c - Galactic Sprint self-play: random games with
 * the state invariants and replay checked after every input, and the bot
 * strength check (basic beats random in >= 90% of two-player games).
 */
#include "tests/unit/sprint/sprint_test.h"

/* -------------------------------------------------- self-play checks -- */

/* Replay recorded orders from the same seed; compare the saved states. */
static int replay_matches(const sprint_state *final, int seats, uint64_t seed,
                          const game_log *lg)
{
    engine_rng rng;
    rng_for(&rng, seed, 1);
    sprint_io io = {&rng, NULL};
    sprint_state s;
    sprint_state_init(&s, CS, seats, seats == 1, 50, 0, 0, &io);
    int k = 0;
    while (!s.over && k < lg->n) {
        uint32_t m = sprint_window_seats(&s);
        if (s.phase == SPRINT_PHASE_PLACE) {
            sprint_plan plans[SPRINT_MAX_SEATS];
            for (int i = 0; i < seats; i++) {
                json_t *o = json_loads(lg->orders[k++], 0, NULL);
                if (sprint_plan_parse(&s, i, o, &plans[i], NULL))
                    return 0;
                json_decref(o);
            }
            sprint_resolve_place(&s, plans, &io);
        } else {
            uint8_t ids[SPRINT_MAX_SEATS][SPRINT_MAX_CARDS];
            int counts[SPRINT_MAX_SEATS] = {0};
            for (int i = 0; i < seats; i++) {
                if (!(m >> i & 1))
                    continue;
                json_t *o = json_loads(lg->orders[k++], 0, NULL);
                if (sprint_discard_parse(&s, i, o, ids[i], &counts[i], NULL))
                    return 0;
                json_decref(o);
            }
            sprint_resolve_discards(&s, ids, counts, &io);
        }
    }
    json_t *a = sprint_state_save(final), *b = sprint_state_save(&s);
    int same = json_equal(a, b);
    json_decref(a);
    json_decref(b);
    return same;
}

static void test_random_selfplay_properties(void)
{
    int games = quick ? 1000 : 10000;
    int bad_inv = 0, bad_vp = 0, bad_replay = 0, replays = 0;
    static const char *const mixes[4][4] = {
        {"random", "random", "random", "random"},
        {"basic", "random", "basic", "random"},
        {"random", "basic", "random", "basic"},
        {"basic", "basic", "basic", "basic"},
    };
    clock_t t0 = clock();
    for (int g = 0; g < games; g++) {
        int seats = 1 + g % 4;
        sprint_state s;
        game_log lg = {0};
        int spot = g % 97 == 0;
        play_game(&s, seats, mixes[(g / 4) % 4], 10000 + (uint64_t)g,
                  spot ? &lg : NULL, &bad_inv, &bad_vp);
        if (!s.over)
            bad_inv++;
        if (spot) {
            replays++;
            bad_replay += !replay_matches(&s, seats, 10000 + (uint64_t)g, &lg);
            free_log(&lg);
        }
    }
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    printf("sprint self-play: %d games (1-4 seats) in %.2f s, %d replays\n",
           games, secs, replays);
    CHECK_EQ_INT(bad_inv, 0);
    CHECK_EQ_INT(bad_vp, 0);
    CHECK_EQ_INT(bad_replay, 0);
}

static void test_basic_beats_random(void)
{
    int games = 1000, wins = 0, rounds = 0;
    long chips = 0;
    for (int g = 0; g < games; g++) {
        sprint_state s;
        const char *lv[2];
        int b = g & 1;
        lv[b] = "basic";
        lv[!b] = "random";
        play_game(&s, 2, lv, 500000 + (uint64_t)g, NULL, NULL, NULL);
        wins += s.p[b].chips > s.p[!b].chips;
        chips += s.p[b].chips;
        rounds += s.round;
    }
    printf("sprint basic vs random (2p): basic wins %.1f%%, basic averages "
           "%.1f VP chips, games last %.2f rounds\n",
           100.0 * wins / games, (double)chips / games, (double)rounds / games);
    CHECK(wins * 10 >= games * 9);
    /* basic against itself: how fast does a decent player reach 50? */
    int r2 = 0;
    long top = 0;
    for (int g = 0; g < games; g++) {
        sprint_state s;
        static const char *const lv[2] = {"basic", "basic"};
        play_game(&s, 2, lv, 700000 + (uint64_t)g, NULL, NULL, NULL);
        r2 += s.round;
        top += s.p[0].chips > s.p[1].chips ? s.p[0].chips : s.p[1].chips;
    }
    printf("sprint basic vs basic (2p): %.2f rounds to end, winner averages "
           "%.1f VP chips\n",
           (double)r2 / games, (double)top / games);
    long solo = 0;
    int met[SPRINT_NCONDS] = {0};
    for (int g = 0; g < games; g++) {
        sprint_state s;
        static const char *const lv[1] = {"basic"};
        play_game(&s, 1, lv, 900000 + (uint64_t)g, NULL, NULL, NULL);
        solo += s.p[0].chips;
        sprint_final_stats st;
        sprint_final_stats_of(&s, 0, &st);
        unsigned m = sprint_campaign_evaluate(&st);
        for (int c = 0; c < SPRINT_NCONDS; c++)
            met[c] += m >> c & 1;
    }
    printf("sprint basic solitaire: %.1f VP chips after 7 rounds; conditions "
           "met: magnate %.0f%%, warlord %.0f%%, tycoon %.0f%%, pathfinder "
           "%.0f%%\n",
           (double)solo / games, 100.0 * met[0] / games, 100.0 * met[1] / games,
           100.0 * met[2] / games, 100.0 * met[3] / games);
    for (int c = 0; c < SPRINT_NCONDS; c++)
        CHECKF(met[c] > 0, "condition %d never met by basic", c);
}

int main(void)
{
    if (sprint_test_init())
        return 1;
    RUN(test_random_selfplay_properties);
    RUN(test_basic_beats_random);
    return TEST_SUMMARY();
}

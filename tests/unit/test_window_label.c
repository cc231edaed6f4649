/*
 * test_window_label.c - windows in words (engine_window_label): the words
 * made of an id when a ruleset has none, and, for every built-in ruleset,
 * every window its bot-played games open (fixed seeds) is named by the
 * ruleset's own window_label, in words that never show the id itself (no
 * "r1.pick2", "management.6" or "exec.43" in the "Your move" bar or a
 * mail).
 */
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/engine_internal.h"
#include "engine/ruleset.h"
#include "tests/unit/test.h"

#define STEPS 400 /* inputs per game */
#define GAMES 3

static void label(const char *ruleset, const char *window, char *out, size_t n)
{
    engine_window_label(ruleset ? engine_ruleset_find(ruleset) : NULL, window,
                        out, n);
}

static void test_words_of_an_id(void)
{
    char out[ENGINE_WINDOW_LABEL_MAX];
    label(NULL, "r3.vote", out, sizeof out);
    CHECK_EQ_STR(out, "Round 3: vote");
    label(NULL, "exec.43", out, sizeof out);
    CHECK_EQ_STR(out, "Exec");
    label(NULL, "handover_all.7", out, sizeof out);
    CHECK_EQ_STR(out, "Handover all");
    label(NULL, "", out, sizeof out);
    CHECK_EQ_STR(out, "Your move");
    label(NULL, "42", out, sizeof out);
    CHECK_EQ_STR(out, "Your move");
    char tiny[6];
    label(NULL, "management.6", tiny, sizeof tiny);
    CHECK_EQ_STR(tiny, "Manag");
}

static void test_ruleset_words(void)
{
    char out[ENGINE_WINDOW_LABEL_MAX];
    label("starbase", "management.6", out, sizeof out);
    CHECK_EQ_STR(out, "Management phase");
    label("council", "r1.council", out, sizeof out);
    CHECK_EQ_STR(out, "Council: your vote (round 1)");
    label("council", "r2.pick2", out, sizeof out);
    CHECK_EQ_STR(out, "Strategy pick (round 2)");
    label("council", "r2.picks", out, sizeof out);
    CHECK_EQ_STR(out, "Strategy picks: your ranking (round 2)");
    label("skirmish", "exec.43", out, sizeof out);
    CHECK_EQ_STR(out, "The stack: respond or pass");
    label("rps", "r2", out, sizeof out);
    CHECK_EQ_STR(out, "Round 2: your throw");
    label("sprint", "r4.place", out, sizeof out);
    CHECK_EQ_STR(out, "Round 4: choose your actions");
    /* An id the ruleset does not name still reads as words. */
    label("council", "r2.unheard", out, sizeof out);
    CHECK_EQ_STR(out, "Round 2: unheard");
}

/* The words of window are the ruleset's own, and show no id. */
static void check_window(const engine_ruleset *rs, const char *id)
{
    char own[ENGINE_WINDOW_LABEL_MAX] = "", out[ENGINE_WINDOW_LABEL_MAX];
    CHECKF(rs->window_label && rs->window_label(id, own, sizeof own) == 0,
           "%s: window %s has no words of the ruleset", rs->id, id);
    engine_window_label(rs, id, out, sizeof out);
    CHECKF(out[0] && !strchr(out, '.') && !strchr(out, '_') && !strstr(out, id),
           "%s: window %s reads \"%s\"", rs->id, id, out);
}

static int bot_step(engine_game *g, engine_rng *rng)
{
    int seats = engine_game_seats(g);
    for (int s = 0; s < seats; s++) {
        engine_input in;
        engine_error e;
        if (engine_bot_action(g, s, "random", rng, &in, &e) != 0)
            continue;
        int rc = engine_apply(g, &in, NULL, &e);
        json_decref((json_t *)in.payload);
        if (rc == 0)
            return 1;
    }
    engine_window w[1];
    if (engine_windows(g, w, 1) < 1)
        return 0;
    engine_input t = {
        .seat = ENGINE_PUBLIC, .kind = ENGINE_TIMEOUT, .window = w[0].id};
    engine_error e;
    return engine_apply(g, &t, NULL, &e) == 0;
}

static void test_every_window_of_every_ruleset(void)
{
    size_t nrs = 0;
    const engine_ruleset *const *all = engine_rulesets(&nrs);
    REQUIRE(nrs >= 6);
    for (size_t r = 0; r < nrs; r++) {
        const engine_ruleset *rs = all[r];
        int seen = 0;
        for (int gno = 0; gno < GAMES; gno++) {
            uint8_t seed[ENGINE_SEED_BYTES] = {(uint8_t)(gno + 1), 0x1a};
            int seats =
                rs->min_seats + gno % (rs->max_seats - rs->min_seats + 1);
            engine_error e;
            engine_game *g =
                engine_create(rs->id, "label", NULL, seats, seed, &e);
            CHECKF(g, "%s: %s", rs->id, e.msg);
            if (!g)
                continue;
            engine_rng rng;
            uint8_t key[32] = {(uint8_t)gno, 0x2b};
            engine_rng_init(&rng, key, (uint64_t)gno);
            for (int step = 0; step < STEPS && !engine_is_over(g); step++) {
                int n = 0;
                engine_window *w = engine_windows_all(g, &n);
                for (int i = 0; i < n; i++, seen++)
                    check_window(rs, w[i].id);
                free(w);
                if (!bot_step(g, &rng))
                    break;
            }
            engine_free(g);
        }
        CHECKF(seen > 0, "%s: no window opened", rs->id);
    }
}

int main(void)
{
    engine_error err;
    if (engine_init(&err) != 0) {
        fprintf(stderr, "engine_init: %s\n", err.msg);
        return 1;
    }
    RUN(test_words_of_an_id);
    RUN(test_ruleset_words);
    RUN(test_every_window_of_every_ruleset);
    return TEST_SUMMARY();
}

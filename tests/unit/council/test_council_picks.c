/*
 * test_council_picks.c - the strategy phase's ranked picks
 * (docs/games/council.md, "Strategy phase", "Windows per round"): one
 * sealed window where every seat ranks the strategy cards, resolved from
 * the speaker clockwise, each seat taking its highest-ranked card still
 * free; a contested card goes to the earlier seat; a seat without a
 * ranking (a timeout) or whose ranked cards are all gone takes the lowest
 * initiative left; the rankings are sealed; the result is the one the
 * sequential picks (option strategy_picks 1) give; and the windows a
 * round takes with each option.
 */
#include "tests/unit/council/council_test.h"

/* A new 4-seat game (default options unless opts) with speaker sp. */
static engine_game *game_with_speaker(uint64_t seed, const char *opts, int sp)
{
    engine_game *g = new_game(4, seed, opts);
    cnc_state st;
    get_state(g, &st);
    st.speaker = (int8_t)sp;
    return put_state(g, &st);
}

/* Seat's ranking (card keys, comma separated, "" for none) in the open
 * picks window; the engine's answer. */
static int rank(engine_game *g, int seat, const char *keys)
{
    engine_window w;
    if (!open_window(g, &w))
        return -99;
    json_t *r = json_array();
    char buf[256];
    snprintf(buf, sizeof buf, "%s", keys);
    for (char *t = strtok(buf, ","); t; t = strtok(NULL, ","))
        json_array_append_new(r, json_string(t));
    json_t *o = json_array_size(r) ? json_pack("{s:o}", "ranking", r)
                                   : (json_decref(r), json_object());
    int rc = apply(g, seat, ENGINE_ORDER, w.id, o, NULL);
    json_decref(o);
    return rc;
}

static const char *card_of(const engine_game *g, int seat)
{
    cnc_state st;
    get_state(g, &st);
    return st.p[seat].card >= 0 ? D->strategies[st.p[seat].card].key : "-";
}

/* The seats of the public "pick" log entries, in order, into out. */
static int pick_seats(const engine_game *g, int out[8])
{
    json_t *log = engine_log_since(g, ENGINE_PUBLIC, 0);
    size_t i;
    json_t *e;
    int n = 0;
    json_array_foreach(log, i, e)
    {
        const json_t *b = json_object_get(e, "entry");
        if (!b)
            b = e;
        const char *t = json_string_value(json_object_get(b, "type"));
        if (t && strcmp(t, "pick") == 0 && n < 8)
            out[n++] = (int)json_integer_value(json_object_get(b, "seat"));
    }
    json_decref(log);
    return n;
}

/* Everyone wants Commerce first: the speaker (seat 2) gets it, then seat
 * 3, 0 and 1 in that order each take their highest-ranked card still
 * free. Resolution runs from the speaker clockwise, not from seat 0. */
static void test_ranked_picks_resolve_from_the_speaker(void)
{
    engine_game *g = game_with_speaker(41, NULL, 2);
    engine_window w;
    REQUIRE(open_window(g, &w));
    CHECK_EQ_STR(w.id, "r1.picks");
    CHECK_EQ_INT(w.mode, ENGINE_SEALED);
    CHECK_EQ_INT(w.seats, 15);
    CHECK_EQ_INT(rank(g, 0, "commerce,research,command"), 0);
    CHECK_EQ_INT(rank(g, 1, "commerce,command,research,forum"), 0);
    CHECK_EQ_INT(rank(g, 2, "commerce,chancery"), 0);
    CHECK_EQ_INT(rank(g, 3, "commerce,research"), 0);
    CHECK_EQ_STR(card_of(g, 2), "commerce"); /* the speaker: first */
    CHECK_EQ_STR(card_of(g, 3), "research"); /* lost Commerce to seat 2 */
    CHECK_EQ_STR(card_of(g, 0), "command");  /* its third choice */
    CHECK_EQ_STR(card_of(g, 1), "forum");    /* its fourth */
    int seats[8], n = pick_seats(g, seats);
    CHECK_EQ_INT(n, 4);
    CHECK_EQ_INT(seats[0], 2);
    CHECK_EQ_INT(seats[1], 3);
    CHECK_EQ_INT(seats[2], 0);
    CHECK_EQ_INT(seats[3], 1);
    /* Forum is held: the agenda window comes next. */
    REQUIRE(open_window(g, &w));
    CHECK_EQ_STR(w.id, "r1.agenda");
    engine_free(g);
}

/* A contested top choice: the earlier seat in speaker order gets it, the
 * later its next choice; the later seat's ranking is not touched when
 * its first card is free. */
static void test_contested_card_goes_to_the_earlier_seat(void)
{
    engine_game *g = game_with_speaker(42, NULL, 3);
    CHECK_EQ_INT(rank(g, 1, "industry,campaign"), 0); /* fourth to pick */
    CHECK_EQ_INT(rank(g, 3, "campaign,industry"), 0); /* the speaker */
    CHECK_EQ_INT(rank(g, 0, "industry,campaign"), 0); /* second */
    CHECK_EQ_INT(rank(g, 2, "chancery"), 0);          /* third */
    CHECK_EQ_STR(card_of(g, 3), "campaign");
    CHECK_EQ_STR(card_of(g, 0), "industry");
    CHECK_EQ_STR(card_of(g, 2), "chancery");
    /* Seat 1's two are gone: the lowest initiative left (Command). */
    CHECK_EQ_STR(card_of(g, 1), "command");
    engine_free(g);
}

/* A seat that sends no ranking, or whose window times out, takes the
 * lowest initiative left when its turn comes, as a sequential pick that
 * times out does. */
static void test_no_ranking_or_timeout_takes_the_lowest_initiative(void)
{
    engine_game *g = game_with_speaker(43, NULL, 0);
    CHECK_EQ_INT(rank(g, 0, "command,commerce"), 0);
    CHECK_EQ_INT(rank(g, 1, ""), 0); /* an empty order: no ranking */
    CHECK_EQ_INT(rank(g, 2, "intelligence"), 0);
    engine_window w;
    REQUIRE(open_window(g, &w));
    CHECK_EQ_STR(w.id, "r1.picks"); /* seat 3 has not sent */
    CHECK_EQ_INT(apply(g, -1, ENGINE_TIMEOUT, w.id, NULL, NULL), 0);
    CHECK_EQ_STR(card_of(g, 0), "command");
    CHECK_EQ_STR(card_of(g, 1), "intelligence"); /* lowest left then */
    CHECK_EQ_STR(card_of(g, 2), "forum");    /* its choice was taken: lowest */
    CHECK_EQ_STR(card_of(g, 3), "industry"); /* timed out: lowest left */
    engine_free(g);
}

/* A ranking names distinct strategy cards, at most all of them, and
 * nothing else; a bad one is refused when sent. */
static void test_bad_rankings_are_refused(void)
{
    engine_game *g = game_with_speaker(44, NULL, 0);
    engine_window w;
    REQUIRE(open_window(g, &w));
    static const char *const bad[] = {
        "{\"ranking\": [\"commerce\", \"commerce\"]}",
        "{\"ranking\": [\"nonsense\"]}",
        "{\"ranking\": \"commerce\"}",
        "{\"ranking\": [1]}",
        "{\"ranking\": [\"commerce\"], \"card\": \"forum\"}",
        "{\"card\": \"forum\"}",
        NULL, /* nine cards, one twice: built below */
    };
    char nine[256];
    snprintf(nine, sizeof nine, "{\"ranking\": [%s]}",
             "\"command\", \"intelligence\", \"forum\", \"industry\", "
             "\"commerce\", \"campaign\", \"research\", \"chancery\", "
             "\"command\"");
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *text = bad[i] ? bad[i] : nine;
        json_t *o = json_loads(text, 0, NULL);
        REQUIRE(o != NULL);
        CHECKF(apply(g, 1, ENGINE_ORDER, w.id, o, NULL) != 0, "%s", text);
        json_decref(o);
    }
    /* The whole ordering is fine; a pick as a play is not this window's. */
    CHECK_EQ_INT(rank(g, 1,
                      "chancery,research,campaign,commerce,industry,forum,"
                      "intelligence,command"),
                 0);
    json_t *p = json_pack("{s:s}", "card", "forum");
    CHECK(apply(g, 0, ENGINE_PLAY, w.id, p, NULL) != 0);
    json_decref(p);
    engine_free(g);
}

/* Sealed: until the window resolves, no other seat's view, legal answer
 * or log shows a seat's ranking (only that it sent one); the seat's own
 * view holds it under my_orders. After the lock only the picks are told,
 * never the rankings (a seat's log keeps its own order, no other's). */
static void test_rankings_are_sealed(void)
{
    engine_game *g = game_with_speaker(45, NULL, 1);
    engine_window w;
    REQUIRE(open_window(g, &w));
    CHECK_EQ_INT(rank(g, 1, "chancery,campaign,research"), 0);
    for (int seat = -1; seat < 4; seat++) {
        if (seat == 1)
            continue;
        int who = seat < 0 ? ENGINE_PUBLIC : seat;
        json_t *v = engine_view(g, who), *l = engine_log_since(g, who, 0),
               *legal = seat >= 0 ? engine_legal(g, seat) : json_null();
        char *tv = json_dumps(v, JSON_COMPACT),
             *tl = json_dumps(l, JSON_COMPACT),
             *tg = json_dumps(legal, JSON_COMPACT | JSON_ENCODE_ANY);
        CHECKF(tv && !strstr(tv, "\"ranking\":["), "view of %d", seat);
        CHECKF(tl && !strstr(tl, "ranking"), "log of %d", seat);
        CHECKF(tl && !strstr(tl, "chancery"), "log of %d", seat);
        CHECKF(tg && !strstr(tg, "\"ranking\":["), "legal of %d", seat);
        free(tv);
        free(tl);
        free(tg);
        json_decref(v);
        json_decref(l);
        json_decref(legal);
    }
    json_t *mine = engine_view(g, 1);
    const json_t *held = json_object_get(
        json_object_get(json_object_get(mine, "my_orders"), "r1.picks"),
        "ranking");
    CHECK_EQ_INT((int)json_array_size(held), 3);
    CHECK_EQ_STR(json_string_value(json_array_get(held, 0)), "chancery");
    json_decref(mine);
    for (int p = 0; p < 4; p++)
        if (p != 1)
            CHECK_EQ_INT(rank(g, p, "command"), 0);
    CHECK_EQ_STR(card_of(g, 1), "chancery");
    json_t *l = engine_log_since(g, 0, 0);
    char *t = json_dumps(l, JSON_COMPACT);
    /* seat 0's log holds its own order only */
    CHECK(t && !strstr(t, "\"ranking\":[\"chancery\"") &&
          !strstr(t, "campaign"));
    CHECK(t && strstr(t, "\"ranking\":[\"command\"]"));
    free(t);
    json_decref(l);
    engine_free(g);
}

/* The ranked window gives what the sequential picks give when each
 * picker takes its highest-ranked card still free: random rankings
 * (some short, some empty) on 30 deals, 3 to 8 seats. */
static void test_ranked_equals_sequential_picks(void)
{
    for (uint64_t seed = 1; seed <= 30; seed++) {
        int seats = 3 + (int)(seed % 6);
        engine_rng rng;
        uint8_t key[32] = {7};
        engine_rng_init(&rng, key, seed);
        json_t *ranks[ENGINE_MAX_SEATS];
        engine_game *a = new_game(seats, seed, NULL);
        engine_game *b = new_game(seats, seed, "{\"strategy_picks\": 1}");
        engine_window w;
        REQUIRE(open_window(a, &w));
        for (int p = 0; p < seats; p++) {
            engine_input in;
            engine_error err = {0};
            REQUIRE(engine_bot_action(a, p, "random", &rng, &in, &err) == 0);
            ranks[p] = (json_t *)in.payload;
            REQUIRE(apply(a, p, in.kind, in.window, in.payload, NULL) == 0);
        }
        for (int k = 0; k < seats; k++) {
            REQUIRE(open_window(b, &w) && w.mode == ENGINE_OPEN);
            int seat = __builtin_ctz(w.seats);
            cnc_state st;
            get_state(b, &st);
            const json_t *r = json_object_get(ranks[seat], "ranking");
            const char *want = NULL;
            for (size_t i = 0; !want && i < json_array_size(r); i++) {
                const char *k2 = json_string_value(json_array_get(r, i));
                if (st.strat_owner[cnc_strategy_index(D, k2)] < 0)
                    want = k2;
            }
            if (want) {
                json_t *p = json_pack("{s:s}", "card", want);
                REQUIRE(apply(b, seat, ENGINE_PLAY, w.id, p, NULL) == 0);
                json_decref(p);
            } else {
                REQUIRE(apply(b, -1, ENGINE_TIMEOUT, w.id, NULL, NULL) == 0);
            }
        }
        for (int p = 0; p < seats; p++) {
            CHECKF(strcmp(card_of(a, p), card_of(b, p)) == 0,
                   "seed %d seat %d: %s vs %s", (int)seed, p, card_of(a, p),
                   card_of(b, p));
            json_decref(ranks[p]);
        }
        engine_free(a);
        engine_free(b);
    }
}

/* The windows one round takes, from round 1's first window to round 2's,
 * with basic bots (which rank Forum last, so it is held only at 8 seats;
 * with forum_first seat 0 ranks Forum alone, and, speaker or not, gets it):
 * the picks, the agenda (only with a Forum holder), the lobby (edition 1
 * only), the action phase and the council. Fills *forum with whether
 * Forum was held. */
static int windows_of(int seats, const char *opts, int forum_first, int *forum)
{
    engine_rng rng;
    uint8_t key[32] = {5};
    engine_rng_init(&rng, key, (uint64_t)seats);
    engine_game *g = new_game(seats, 60 + (uint64_t)seats, opts);
    char last[ENGINE_WINDOW_ID_MAX] = "";
    int n = 0;
    *forum = 0;
    cnc_state st;
    get_state(g, &st);
    while (!engine_is_over(g) && st.round == 1) {
        engine_window w;
        if (!open_window(g, &w))
            break;
        if (strcmp(w.id, last) != 0) {
            n++;
            snprintf(last, sizeof last, "%s", w.id);
            *forum |= strstr(w.id, "agenda") != NULL;
        }
        int seat = __builtin_ctz(w.seats & ~w.submitted);
        if (forum_first && seat == 0 && strstr(w.id, ".picks")) {
            if (rank(g, 0, "forum")) {
                n = -1;
                break;
            }
            get_state(g, &st);
            continue;
        }
        engine_input in;
        engine_error err = {0};
        if (engine_bot_action(g, seat, "basic", &rng, &in, &err) ||
            apply(g, seat, in.kind, in.window, in.payload, NULL)) {
            n = -1;
            break;
        }
        json_decref((json_t *)in.payload);
        get_state(g, &st);
    }
    engine_free(g);
    return n;
}

static int windows_of_a_round(int seats, const char *opts, int *forum)
{
    return windows_of(seats, opts, 0, forum);
}

/* What a new game gets (its options stamped, as a lobby's start does). */
static const char *const DEFAULT = "{\"edition\": 2}";

static void test_windows_per_round(void)
{
    int forum;
    /* Edition 2 (new games), ranked picks: picks, agenda (with a Forum
     * holder), action with the lobby's parts, council: 3 + 1 at most. */
    for (int seats = 3; seats <= 8; seats++) {
        int n = windows_of_a_round(seats, DEFAULT, &forum);
        CHECKF(n == 3 + forum, "%d seats: %d windows", seats, n);
        n = windows_of(seats, DEFAULT, 1, &forum);
        CHECKF(forum && n == 4, "%d seats with Forum: %d windows", seats, n);
    }
    CHECK_EQ_INT(windows_of(4, DEFAULT, 1, &forum), 4);
    CHECK_EQ_INT(windows_of_a_round(4, DEFAULT, &forum), 3);
    /* Edition 1 (a game stored before editions): the lobby's own window,
     * 1 + 4 with a Forum holder, 1 + 3 without. */
    for (int seats = 3; seats <= 8; seats++) {
        int n = windows_of_a_round(seats, NULL, &forum);
        CHECKF(n == 4 + forum, "%d seats: %d windows", seats, n);
    }
    CHECK_EQ_INT(windows_of(4, NULL, 1, &forum), 5);
    /* Sequential picks: N + 3 (N + 2 without Forum); N + 4 in edition 1. */
    for (int seats = 3; seats <= 8; seats++) {
        int n = windows_of_a_round(
            seats, "{\"edition\": 2, \"strategy_picks\": 1}", &forum);
        CHECKF(n == seats + 2 + forum, "%d seats: %d windows", seats, n);
        n = windows_of_a_round(seats, "{\"strategy_picks\": 1}", &forum);
        CHECKF(n == seats + 3 + forum, "%d seats: %d windows", seats, n);
    }
    /* No council: the picks and the action phase, in either edition. */
    CHECK_EQ_INT(windows_of_a_round(4, "{\"council_phase\": 2}", &forum), 2);
    CHECK_EQ_INT(
        windows_of_a_round(4, "{\"edition\": 2, \"council_phase\": 2}", &forum),
        2);
    CHECK_EQ_INT(
        windows_of_a_round(4, "{\"council_phase\": 2, \"strategy_picks\": 1}",
                           &forum),
        5);
}

int main(void)
{
    council_test_init();
    RUN(test_ranked_picks_resolve_from_the_speaker);
    RUN(test_contested_card_goes_to_the_earlier_seat);
    RUN(test_no_ranking_or_timeout_takes_the_lowest_initiative);
    RUN(test_bad_rankings_are_refused);
    RUN(test_rankings_are_sealed);
    RUN(test_ranked_equals_sequential_picks);
    RUN(test_windows_per_round);
    return TEST_SUMMARY();
}

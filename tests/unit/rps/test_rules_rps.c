/*
 * test_rules_rps.c - docs/games/rps.md rule by rule, each on a constructed
 * game (a saved game whose rounds and history are written here): the legal
 * case, the refused case and the boundary. Who beats whom is checked
 * against a table written here, not against the ruleset's own function.
 * The table in the doc maps each rule to its test here.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "tests/unit/test.h"

static const uint8_t seed[ENGINE_SEED_BYTES] = {4, 4};

/* A game of rounds rounds whose played rounds are history (JSON text, e.g.
 * "[[\"rock\",\"paper\"]]"), or NULL when it does not load. */
static engine_game *at(int rounds, const char *history)
{
    engine_error err = {0};
    json_t *opts = json_pack("{s:i}", "rounds", rounds);
    engine_game *g = engine_create("rps", "g-rps-rules", opts, 2, seed, &err);
    json_decref(opts);
    if (!g)
        return NULL;
    json_t *doc = engine_save(g);
    engine_free(g);
    json_t *h = json_loads(history, 0, NULL);
    json_object_set_new(
        doc, "state", json_pack("{s:i, s:o}", "rounds", rounds, "history", h));
    /* two orders and one lock per round played */
    json_object_set_new(doc, "inputs",
                        json_integer(2 * (json_int_t)json_array_size(h)));
    g = engine_load(doc, &err);
    if (!g)
        fprintf(stderr, "load %d %s: %s\n", rounds, history, err.msg);
    json_decref(doc);
    return g;
}

static int order(engine_game *g, int seat, const char *window, const char *json,
                 engine_error *err)
{
    static int counter;
    json_t *p = json_loads(json, JSON_DECODE_ANY, NULL);
    engine_input in = {
        .seat = seat, .kind = ENGINE_ORDER, .window = window, .payload = p};
    memset(in.nonce, 0, sizeof in.nonce);
    in.nonce[0] = (uint8_t)seat;
    in.nonce[1] = (uint8_t)++counter;
    memset(err, 0, sizeof *err);
    int rc = engine_apply(g, &in, NULL, err);
    json_decref(p);
    return rc;
}

static int throw_both(engine_game *g, const char *window, const char *a,
                      const char *b)
{
    char body[64];
    engine_error err;
    snprintf(body, sizeof body, "{\"throw\":\"%s\"}", a);
    int rc = order(g, 0, window, body, &err);
    snprintf(body, sizeof body, "{\"throw\":\"%s\"}", b);
    return rc ? rc : order(g, 1, window, body, &err);
}

static int view_int(const engine_game *g, const char *key, int index)
{
    json_t *v = engine_view(g, ENGINE_PUBLIC);
    json_t *x = json_object_get(v, key);
    int n = (int)json_integer_value(index >= 0 ? json_array_get(x, index) : x);
    json_decref(v);
    return n;
}

static int result_is(const engine_game *g, int winner, int draw)
{
    json_t *r = engine_result(g);
    json_t *want = winner >= 0 ? json_pack("[i]", winner) : json_array();
    int ok = r && json_equal(json_object_get(r, "winners"), want) &&
             json_is_true(json_object_get(r, "draw")) == draw;
    json_decref(r);
    json_decref(want);
    return ok;
}

/* What audience reads in the view and the log, as one text (NEW). */
static char *seen_by(const engine_game *g, int audience)
{
    json_t *both = json_pack("[o,o]", engine_view(g, audience),
                             engine_log_since(g, audience, 0));
    char *text = json_dumps(both, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(both);
    return text;
}

/* Rule 1: the game lasts option rounds rounds, 1 to 99, 3 by default. */
static void test_rounds_option(void)
{
    engine_error err;
    for (int n = 0; n <= 100; n += 1) {
        if (n > 1 && n < 99)
            continue;
        json_t *opts = json_pack("{s:i}", "rounds", n);
        engine_game *g = engine_create("rps", "g", opts, 2, seed, &err);
        json_decref(opts);
        CHECKF((g != NULL) == (n >= 1 && n <= 99), "rounds %d", n);
        if (g)
            CHECK_EQ_INT(view_int(g, "rounds", -1), n);
        engine_free(g);
    }
    engine_game *g = engine_create("rps", "g", NULL, 2, seed, &err);
    REQUIRE(g);
    CHECK_EQ_INT(view_int(g, "rounds", -1), 3);
    engine_free(g);
    /* the last round ends the game, not the one before */
    g = at(3, "[[\"rock\",\"rock\"]]");
    REQUIRE(g);
    CHECK_EQ_INT(throw_both(g, "r2", "rock", "paper"), 0);
    CHECK(!engine_is_over(g));
    CHECK_EQ_INT(throw_both(g, "r3", "rock", "paper"), 0);
    CHECK(engine_is_over(g));
    engine_window w;
    CHECK_EQ_INT(engine_windows(g, &w, 1), 0);
    engine_free(g);
    /* one round: over after it */
    g = at(1, "[]");
    REQUIRE(g);
    CHECK_EQ_INT(throw_both(g, "r1", "paper", "rock"), 0);
    CHECK(engine_is_over(g));
    CHECK(result_is(g, 0, 0));
    engine_free(g);
}

/* Rule 2: both choose in secret; nobody sees the other's choice or whether
 * it changed until both have chosen; until then a choice may change. */
static void test_secret_until_both_and_may_change(void)
{
    engine_game *g = at(3, "[]");
    REQUIRE(g);
    engine_error err;
    /* seat 0 changes its choice here, and re-sends the same one in a twin
     * game: the other audiences cannot tell the two apart */
    static const int others[2] = {ENGINE_PUBLIC, 1};
    engine_game *twin = at(3, "[]");
    REQUIRE(twin);
    CHECK_EQ_INT(order(g, 0, "r1", "{\"throw\":\"scissors\"}", &err), 0);
    CHECK_EQ_INT(order(g, 0, "r1", "{\"throw\":\"rock\"}", &err), 0);
    CHECK_EQ_INT(order(twin, 0, "r1", "{\"throw\":\"scissors\"}", &err), 0);
    CHECK_EQ_INT(order(twin, 0, "r1", "{\"throw\":\"scissors\"}", &err), 0);
    for (int k = 0; k < 2; k++) {
        char *changed = seen_by(g, others[k]), *same = seen_by(twin, others[k]);
        CHECKF(!strstr(changed, "scissors") && !strstr(changed, "rock"),
               "audience %d sees the throw: %s", others[k], changed);
        CHECKF(strcmp(changed, same) == 0,
               "audience %d sees whether the choice changed", others[k]);
        free(changed);
        free(same);
    }
    engine_free(twin);
    /* the round is not over with one order in */
    CHECK_EQ_INT(view_int(g, "round", -1), 1);
    /* the last choice counts: rock against scissors wins for seat 0 */
    CHECK_EQ_INT(order(g, 1, "r1", "{\"throw\":\"scissors\"}", &err), 0);
    CHECK_EQ_INT(view_int(g, "scores", 0), 1);
    CHECK_EQ_INT(view_int(g, "scores", 1), 0);
    /* once both have chosen, the round is closed: no change */
    CHECK_EQ_INT(order(g, 0, "r1", "{\"throw\":\"paper\"}", &err),
                 ENGINE_ECONFLICT);
    CHECK_EQ_INT(view_int(g, "scores", 0), 1);
    engine_free(g);
}

/* Rule 3: rock beats scissors, scissors beat paper, paper beats rock; the
 * winner scores 1; the same choice scores nothing. Checked against this
 * table, not the ruleset's own function. */
static void test_who_beats_whom(void)
{
    static const char *const names[3] = {"rock", "paper", "scissors"};
    /* beats[a][b]: 1 when a beats b */
    static const int beats[3][3] = {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}};
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            engine_game *g = at(5, "[[\"rock\",\"paper\"]]"); /* 0 - 1 */
            REQUIRE(g);
            CHECK_EQ_INT(throw_both(g, "r2", names[a], names[b]), 0);
            CHECKF(view_int(g, "scores", 0) == beats[a][b],
                   "%s against %s: seat 0 scores %d", names[a], names[b],
                   view_int(g, "scores", 0));
            CHECKF(view_int(g, "scores", 1) == 1 + beats[b][a],
                   "%s against %s: seat 1 has %d", names[a], names[b],
                   view_int(g, "scores", 1));
            /* the round's log line names the winner, null for a tie */
            json_t *log = engine_log_since(g, ENGINE_PUBLIC, 0);
            json_t *last = json_object_get(
                json_array_get(log, json_array_size(log) - 1), "entry");
            json_t *w = json_object_get(last, "winner");
            int want = beats[a][b] ? 0 : beats[b][a] ? 1 : -1;
            CHECKF(want < 0
                       ? json_is_null(w)
                       : json_is_integer(w) && json_integer_value(w) == want,
                   "%s against %s: the log's winner", names[a], names[b]);
            json_t *scores = json_object_get(last, "scores");
            CHECKF(json_integer_value(json_array_get(scores, 0)) ==
                           view_int(g, "scores", 0) &&
                       json_integer_value(json_array_get(scores, 1)) ==
                           view_int(g, "scores", 1),
                   "%s against %s: the log's scores", names[a], names[b]);
            json_decref(log);
            engine_free(g);
        }
}

/* Rule 4: after the last round the higher score wins; equal scores draw. */
static void test_higher_score_wins(void)
{
    /* 2 rounds played of 3: seat 1 leads 1-0 (one tie) */
    engine_game *g = at(3, "[[\"rock\",\"paper\"],[\"rock\",\"rock\"]]");
    REQUIRE(g);
    CHECK(!engine_is_over(g));
    json_t *v = engine_view(g, ENGINE_PUBLIC);
    CHECK(json_is_null(json_object_get(v, "winner"))); /* not before the end */
    json_decref(v);
    CHECK_EQ_INT(throw_both(g, "r3", "paper", "rock"), 0); /* 1 - 1 */
    CHECK(engine_is_over(g));
    CHECK(result_is(g, -1, 1));
    v = engine_view(g, ENGINE_PUBLIC);
    CHECK(json_is_true(json_object_get(v, "draw")));
    json_decref(v);
    engine_free(g);
    /* the same, and the last round won by the leader: 2 - 0 */
    g = at(3, "[[\"rock\",\"paper\"],[\"rock\",\"rock\"]]");
    REQUIRE(g);
    CHECK_EQ_INT(throw_both(g, "r3", "scissors", "rock"), 0);
    CHECK(result_is(g, 1, 0));
    engine_free(g);
    /* a one-point lead is enough */
    g = at(2, "[[\"scissors\",\"paper\"]]");
    REQUIRE(g);
    CHECK_EQ_INT(throw_both(g, "r2", "rock", "rock"), 0);
    CHECK(result_is(g, 0, 0));
    v = engine_view(g, ENGINE_PUBLIC);
    CHECK(json_is_false(json_object_get(v, "draw")));
    CHECK_EQ_INT(json_integer_value(json_object_get(v, "winner")), 0);
    json_decref(v);
    engine_free(g);
}

/* Ours: a note of up to 64 characters, revealed with the choice. */
static void test_note_limit_and_reveal(void)
{
    engine_game *g = at(3, "[]");
    REQUIRE(g);
    engine_error err;
    char body[256], note[80];
    memset(note, 'n', 65);
    note[65] = '\0';
    snprintf(body, sizeof body, "{\"throw\":\"rock\",\"note\":\"%s\"}", note);
    CHECK_EQ_INT(order(g, 0, "r1", body, &err), ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "note");
    note[64] = '\0';
    snprintf(body, sizeof body, "{\"throw\":\"rock\",\"note\":\"%s\"}", note);
    CHECK_EQ_INT(order(g, 0, "r1", body, &err), 0);
    /* 64 characters of two bytes each are 64 characters */
    char wide[200] = "";
    for (int i = 0; i < 64; i++)
        memcpy(wide + 2 * i, "\xc3\xa9", 3); /* two bytes and the NUL */
    snprintf(body, sizeof body, "{\"throw\":\"paper\",\"note\":\"%s\"}", wide);
    CHECK_EQ_INT(order(g, 1, "r1", body, &err), 0);
    /* revealed: the log shows the notes to everyone */
    json_t *l = engine_log_since(g, ENGINE_PUBLIC, 0);
    char *text = json_dumps(l, 0);
    CHECK(text && strstr(text, note) != NULL);
    free(text);
    json_decref(l);
    engine_free(g);
    g = at(3, "[]");
    REQUIRE(g);
    CHECK_EQ_INT(order(g, 0, "r1", "{\"throw\":\"rock\",\"note\":7}", &err),
                 ENGINE_EINVALID);
    CHECK_EQ_INT(order(g, 0, "r1", "{\"throw\":\"lizard\"}", &err),
                 ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "throw");
    CHECK_EQ_INT(order(g, 0, "r1", "{\"note\":\"x\"}", &err), ENGINE_EINVALID);
    CHECK_EQ_INT(order(g, 0, "r1", "{\"throw\":\"rock\",\"x\":1}", &err),
                 ENGINE_EINVALID);
    CHECK_EQ_INT(order(g, 0, "r2", "{\"throw\":\"rock\"}", &err),
                 ENGINE_ECONFLICT);
    engine_free(g);
}

/* Ours: a clock running out throws at random from the game's stream. */
static void test_timeout_throws_from_the_stream(void)
{
    int first[2] = {-1, -1};
    for (int run = 0; run < 2; run++) {
        engine_game *g = at(3, "[]");
        REQUIRE(g);
        engine_error err;
        CHECK_EQ_INT(order(g, 0, "r1", "{\"throw\":\"rock\"}", &err), 0);
        engine_input t = {
            .seat = ENGINE_PUBLIC, .kind = ENGINE_TIMEOUT, .window = "r1"};
        CHECK_EQ_INT(engine_apply(g, &t, NULL, &err), 0);
        json_t *v = engine_view(g, ENGINE_PUBLIC);
        json_t *h = json_array_get(json_object_get(v, "history"), 0);
        const char *mine = json_string_value(json_array_get(h, 0));
        const char *theirs = json_string_value(json_array_get(h, 1));
        CHECK(mine && strcmp(mine, "rock") == 0); /* the order given stands */
        int k = -1;
        for (int i = 0; theirs && i < 3; i++)
            if (strcmp(theirs,
                       (const char *[]){"rock", "paper", "scissors"}[i]) == 0)
                k = i;
        CHECKF(k >= 0, "a throw: %s", theirs ? theirs : "(none)");
        first[run] = k;
        CHECK_EQ_INT(view_int(g, "round", -1), 2);
        json_decref(v);
        engine_free(g);
    }
    CHECK_EQ_INT(first[0], first[1]); /* the same seed, the same throw */
}

/* What a client is told to send: {"throw": one of three, "note"?: at most
 * 64 characters}, nothing else. */
static void test_legal_shape(void)
{
    engine_game *g = at(3, "[]");
    REQUIRE(g);
    json_t *legal = engine_legal(g, 0);
    json_t *w = json_array_get(json_object_get(legal, "windows"), 0);
    json_t *shape = json_object_get(w, "shape");
    CHECK(json_is_false(json_object_get(shape, "additionalProperties")));
    json_t *props = json_object_get(shape, "properties");
    json_t *three = json_pack("[sss]", "rock", "paper", "scissors");
    CHECK(json_equal(json_object_get(json_object_get(props, "throw"), "enum"),
                     three));
    json_decref(three);
    CHECK_EQ_INT(json_integer_value(json_object_get(
                     json_object_get(props, "note"), "maxLength")),
                 64);
    CHECK_EQ_STR(json_string_value(
                     json_array_get(json_object_get(shape, "required"), 0)),
                 "throw");
    json_t *choices = json_pack("[{ss},{ss},{ss}]", "throw", "rock", "throw",
                                "paper", "throw", "scissors");
    CHECK(json_equal(json_object_get(w, "choices"), choices));
    json_decref(choices);
    json_decref(legal);
    /* a spectator has nothing to send */
    legal = engine_legal(g, ENGINE_PUBLIC);
    CHECK_EQ_INT(json_array_size(json_object_get(legal, "windows")), 0);
    json_decref(legal);
    engine_free(g);
}

/* Bot basic: beat the throw the other seat made most often (ties at
 * random). One round played, seat 1 threw scissors: always rock. */
static void test_basic_bot_beats_the_most_common(void)
{
    engine_game *g = at(3, "[[\"paper\",\"scissors\"]]");
    REQUIRE(g);
    int rocks = 0;
    for (uint64_t stream = 0; stream < 32; stream++) {
        uint8_t key[32] = {3};
        engine_rng rng;
        engine_rng_init(&rng, key, stream);
        engine_input in;
        engine_error err;
        REQUIRE(engine_bot_action(g, 0, "basic", &rng, &in, &err) == 0);
        const char *t = json_string_value(json_object_get(in.payload, "throw"));
        rocks += t && strcmp(t, "rock") == 0;
        json_decref((json_t *)in.payload);
    }
    CHECK_EQ_INT(rocks, 32);
    engine_free(g);
}

int main(void)
{
    engine_error err;
    if (engine_init(&err) != 0) {
        fprintf(stderr, "engine_init: %s\n", err.msg);
        return 1;
    }
    RUN(test_rounds_option);
    RUN(test_secret_until_both_and_may_change);
    RUN(test_who_beats_whom);
    RUN(test_higher_score_wins);
    RUN(test_note_limit_and_reveal);
    RUN(test_timeout_throws_from_the_stream);
    RUN(test_legal_shape);
    RUN(test_basic_bot_beats_the_most_common);
    return TEST_SUMMARY();
}

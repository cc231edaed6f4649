/*
 * test_tictactoe.c - the reference open-window ruleset through the engine's
 * public API: the view and window shapes clients rely on (API.md), turn
 * order, every illegal-play answer (code and field) with an unchanged hash,
 * wins, draws, forfeit on timeout, legal moves and the two bot levels.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/ruleset.h"
#include "tests/unit/test.h"

static const uint8_t seed[ENGINE_SEED_BYTES] = {1, 2, 3};

static engine_game *new_game(void)
{
    engine_error err = {0};
    engine_game *g = engine_create("tictactoe", "g-ttt", NULL, 2, seed, &err);
    if (!g)
        fprintf(stderr, "create: %s\n", err.msg);
    return g;
}

/* Apply a play given as JSON text; returns the engine's code, err filled. */
static int play(engine_game *g, int seat, const char *window, const char *json,
                engine_error *err)
{
    json_t *p = json_loads(json, JSON_DECODE_ANY, NULL);
    engine_input in = {
        .seat = seat, .kind = ENGINE_PLAY, .window = window, .payload = p};
    memset(err, 0, sizeof *err);
    int rc = engine_apply(g, &in, NULL, err);
    json_decref(p);
    return rc;
}

static int cell(engine_game *g, int seat, int c)
{
    engine_window w;
    engine_error err;
    char body[32];
    if (engine_windows(g, &w, 1) < 1)
        return -100;
    snprintf(body, sizeof body, "{\"cell\":%d}", c);
    return play(g, seat, w.id, body, &err);
}

static void hash_of(const engine_game *g, uint8_t h[ENGINE_HASH_BYTES])
{
    engine_hash(g, h);
}

static void test_registered_and_described(void)
{
    const engine_ruleset *rs = engine_ruleset_find("tictactoe");
    REQUIRE(rs);
    json_t *d = engine_ruleset_describe(rs);
    REQUIRE(d);
    CHECK_EQ_STR(json_string_value(json_object_get(d, "id")), "tictactoe");
    CHECK_EQ_INT(json_integer_value(json_object_get(d, "min_seats")), 2);
    CHECK_EQ_INT(json_integer_value(json_object_get(d, "max_seats")), 2);
    json_t *opts = json_object_get(d, "options");
    CHECK(json_is_object(opts));
    CHECK(json_is_false(json_object_get(opts, "additionalProperties")));
    CHECK_EQ_INT(json_object_size(json_object_get(opts, "properties")), 0);
    json_decref(d);
}

static void test_create_checks(void)
{
    engine_error err = {0};
    json_t *empty = json_object(), *extra = json_pack("{s:i}", "size", 4);
    engine_game *g = engine_create("tictactoe", "x", empty, 2, seed, &err);
    CHECK(g != NULL);
    engine_free(g);
    CHECK(!engine_create("tictactoe", "x", extra, 2, seed, &err));
    CHECK_EQ_INT(err.code, ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "size");
    CHECK(!engine_create("tictactoe", "x", NULL, 3, seed, &err));
    CHECK_EQ_INT(err.code, ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "seats");
    CHECK(!engine_create("tictactoe", "x", NULL, 1, seed, &err));
    CHECK_EQ_STR(err.field, "seats");
    CHECK(!engine_create("nope", "x", NULL, 2, seed, &err));
    CHECK_EQ_INT(err.code, ENGINE_ENOTFOUND);
    json_decref(empty);
    json_decref(extra);
}

static void test_initial_view_and_window(void)
{
    engine_game *g = new_game();
    REQUIRE(g);
    engine_window w[4];
    CHECK_EQ_INT(engine_windows(g, w, 4), 1);
    CHECK_EQ_STR(w[0].id, "t1");
    CHECK_EQ_INT(w[0].mode, ENGINE_OPEN);
    CHECK_EQ_INT(w[0].seats, 1u);
    CHECK_EQ_INT(w[0].submitted, 0);

    json_t *v = engine_view(g, ENGINE_PUBLIC);
    REQUIRE(v);
    json_t *board = json_object_get(v, "board");
    CHECK_EQ_INT(json_array_size(board), 9);
    for (size_t i = 0; i < 9; i++)
        CHECK(json_is_null(json_array_get(board, i)));
    CHECK_EQ_INT(json_integer_value(json_object_get(v, "turn")), 0);
    CHECK(json_is_null(json_object_get(v, "winner")));
    CHECK(json_is_false(json_object_get(v, "draw")));
    CHECK_EQ_STR(json_string_value(json_object_get(v, "ruleset")), "tictactoe");
    CHECK_EQ_INT(json_integer_value(json_object_get(v, "seats")), 2);
    CHECK_EQ_INT(json_integer_value(json_object_get(v, "inputs")), 0);
    CHECK(json_is_false(json_object_get(v, "over")));
    CHECK(!json_object_get(v, "my_orders")); /* spectators have none */
    json_decref(v);

    v = engine_view(g, 1);
    CHECK(json_is_object(json_object_get(v, "my_orders")));
    json_decref(v);
    CHECK(engine_result(g) == NULL);
    CHECK(!engine_is_over(g));
    engine_free(g);
}

static void test_turns_and_windows(void)
{
    engine_game *g = new_game();
    REQUIRE(g);
    engine_error err;
    engine_window w;
    CHECK_EQ_INT(play(g, 0, "t1", "{\"cell\":4}", &err), 0);
    CHECK_EQ_INT(engine_windows(g, &w, 1), 1);
    CHECK_EQ_STR(w.id, "t2");
    CHECK_EQ_INT(w.seats, 2u);
    json_t *v = engine_view(g, 0);
    CHECK_EQ_INT(
        json_integer_value(json_array_get(json_object_get(v, "board"), 4)), 0);
    CHECK_EQ_INT(json_integer_value(json_object_get(v, "turn")), 1);
    CHECK_EQ_INT(json_integer_value(json_object_get(v, "inputs")), 1);
    json_decref(v);
    CHECK_EQ_INT(engine_game_inputs(g), 1);
    engine_free(g);
}

/* Each illegal play: its code and field, and the game unchanged. */
static void test_illegal_plays(void)
{
    engine_game *g = new_game();
    REQUIRE(g);
    engine_error err;
    uint8_t before[ENGINE_HASH_BYTES], after[ENGINE_HASH_BYTES];
    REQUIRE(play(g, 0, "t1", "{\"cell\":0}", &err) == 0);
    hash_of(g, before);

    static const struct {
        int seat;
        const char *window, *body;
        int code;
        const char *field;
    } cases[] = {
        {0, "t2", "{\"cell\":1}", ENGINE_ECONFLICT, NULL}, /* not your turn */
        {1, "t1", "{\"cell\":1}", ENGINE_ECONFLICT, "window"}, /* old window */
        {1, "t3", "{\"cell\":1}", ENGINE_ECONFLICT, "window"},
        {1, "t2", "{\"cell\":0}", ENGINE_EINVALID, "cell"}, /* taken */
        {1, "t2", "{\"cell\":9}", ENGINE_EINVALID, "cell"},
        {1, "t2", "{\"cell\":-1}", ENGINE_EINVALID, "cell"},
        {1, "t2", "{\"cell\":\"4\"}", ENGINE_EINVALID, "cell"},
        {1, "t2", "{\"cell\":4.0}", ENGINE_EINVALID, "cell"},
        {1, "t2", "{}", ENGINE_EINVALID, "cell"},
        {1, "t2", "{\"cell\":4,\"x\":1}", ENGINE_EINVALID, "x"},
        {1, "t2", "[4]", ENGINE_EINVALID, NULL},
        {1, "t2", "{\"window\":\"t1\",\"cell\":4}", ENGINE_EINVALID, "window"},
        {2, "t2", "{\"cell\":4}", ENGINE_EFORBIDDEN, NULL},
        {ENGINE_PUBLIC, "t2", "{\"cell\":4}", ENGINE_EFORBIDDEN, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = play(g, cases[i].seat, cases[i].window, cases[i].body, &err);
        CHECKF(rc == cases[i].code, "case %zu: rc %d (%s)", i, rc, err.msg);
        CHECKF(err.code == rc, "case %zu", i);
        if (cases[i].field)
            CHECKF(strcmp(err.field, cases[i].field) == 0,
                   "case %zu: field \"%s\"", i, err.field);
        CHECKF(err.msg[0] != '\0', "case %zu has no message", i);
        hash_of(g, after);
        CHECKF(memcmp(before, after, sizeof before) == 0,
               "case %zu changed the game", i);
    }
    /* An order to an open window is a conflict, too. */
    json_t *o = json_pack("{s:i}", "cell", 4);
    engine_input in = {
        .seat = 1, .kind = ENGINE_ORDER, .window = "t2", .payload = o};
    CHECK_EQ_INT(engine_apply(g, &in, NULL, &err), ENGINE_ECONFLICT);
    json_decref(o);
    hash_of(g, after);
    CHECK(memcmp(before, after, sizeof before) == 0);
    /* The API body form with a matching "window" is accepted. */
    CHECK_EQ_INT(play(g, 1, "t2", "{\"window\":\"t2\",\"cell\":4}", &err), 0);
    engine_free(g);
}

static void test_win(void)
{
    engine_game *g = new_game();
    REQUIRE(g);
    engine_error err;
    /* X: 0 1 2 across the top; O: 3 4 */
    CHECK_EQ_INT(cell(g, 0, 0), 0);
    CHECK_EQ_INT(cell(g, 1, 3), 0);
    CHECK_EQ_INT(cell(g, 0, 1), 0);
    CHECK_EQ_INT(cell(g, 1, 4), 0);
    CHECK(!engine_is_over(g));
    CHECK_EQ_INT(cell(g, 0, 2), 0);
    CHECK(engine_is_over(g));
    engine_window w;
    CHECK_EQ_INT(engine_windows(g, &w, 1), 0);
    json_t *r = engine_result(g);
    json_t *want = json_pack("{s:[i], s:b}", "winners", 0, "draw", 0);
    CHECK(json_equal(r, want));
    json_decref(r);
    json_decref(want);
    json_t *v = engine_view(g, ENGINE_PUBLIC);
    CHECK_EQ_INT(json_integer_value(json_object_get(v, "winner")), 0);
    CHECK(json_is_null(json_object_get(v, "turn")));
    CHECK(json_is_true(json_object_get(v, "over")));
    json_decref(v);
    CHECK_EQ_INT(play(g, 1, "t6", "{\"cell\":5}", &err), ENGINE_EOVER);
    engine_input t = {
        .seat = ENGINE_PUBLIC, .kind = ENGINE_TIMEOUT, .window = "t6"};
    CHECK_EQ_INT(engine_apply(g, &t, NULL, &err), ENGINE_EOVER);
    engine_free(g);
}

static const int ttt_lines[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                                    {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};

static int in_line(const int *line, int c)
{
    return c == line[0] || c == line[1] || c == line[2];
}

/* Each of the eight lines wins, for either seat: the line's owner takes it
 * while the other seat plays cells off it that make no line of their own. */
static void test_every_line_wins(void)
{
    for (int l = 0; l < 8; l++) {
        for (int owner = 0; owner < 2; owner++) {
            int off[3], noff = 0;
            for (int c = 0; c < 9 && noff < 3; c++) {
                int lined = 0;
                if (noff == 2)
                    for (int k = 0; k < 8; k++)
                        lined |= in_line(ttt_lines[k], off[0]) &&
                                 in_line(ttt_lines[k], off[1]) &&
                                 in_line(ttt_lines[k], c);
                if (!in_line(ttt_lines[l], c) && !lined)
                    off[noff++] = c;
            }
            REQUIRE(noff == 3);
            engine_game *g = new_game();
            REQUIRE(g);
            for (int k = 0; k < 3; k++) {
                if (owner == 1)
                    CHECK_EQ_INT(cell(g, 0, off[k]), 0);
                CHECK(!engine_is_over(g));
                CHECK_EQ_INT(cell(g, owner, ttt_lines[l][k]), 0);
                if (owner == 0 && k < 2)
                    CHECK_EQ_INT(cell(g, 1, off[k]), 0);
            }
            CHECKF(engine_is_over(g), "line %d for seat %d does not end it", l,
                   owner);
            json_t *v = engine_view(g, ENGINE_PUBLIC);
            CHECKF(json_integer_value(json_object_get(v, "winner")) == owner,
                   "line %d: the winner is not seat %d", l, owner);
            json_decref(v);
            engine_free(g);
        }
    }
}

static void test_draw(void)
{
    engine_game *g = new_game();
    REQUIRE(g);
    /* X O X / X O O / O X X */
    static const int moves[9] = {0, 1, 2, 4, 3, 5, 7, 6, 8};
    for (int i = 0; i < 9; i++)
        CHECK_EQ_INT(cell(g, i % 2, moves[i]), 0);
    CHECK(engine_is_over(g));
    json_t *r = engine_result(g);
    json_t *want = json_pack("{s:[], s:b}", "winners", "draw", 1);
    CHECK(json_equal(r, want));
    json_decref(r);
    json_decref(want);
    json_t *v = engine_view(g, 0);
    CHECK(json_is_true(json_object_get(v, "draw")));
    CHECK(json_is_null(json_object_get(v, "winner")));
    json_decref(v);
    engine_free(g);
}

static void test_timeout_forfeits(void)
{
    engine_game *g = new_game();
    REQUIRE(g);
    engine_error err;
    CHECK_EQ_INT(cell(g, 0, 4), 0);
    /* A timeout for a window that is not open: conflict, no change. */
    engine_input t = {
        .seat = ENGINE_PUBLIC, .kind = ENGINE_TIMEOUT, .window = "t1"};
    CHECK_EQ_INT(engine_apply(g, &t, NULL, &err), ENGINE_ECONFLICT);
    t.window = "t2"; /* seat 1 to move, and out of time */
    CHECK_EQ_INT(engine_apply(g, &t, NULL, &err), 0);
    CHECK(engine_is_over(g));
    json_t *r = engine_result(g);
    json_t *want = json_pack("{s:[i], s:b}", "winners", 0, "draw", 0);
    CHECK(json_equal(r, want));
    json_decref(r);
    json_decref(want);
    /* The log says so, publicly. */
    json_t *log = engine_log_since(g, ENGINE_PUBLIC, 0);
    char *text = json_dumps(log, 0);
    CHECK(strstr(text, "\"forfeit\"") != NULL);
    CHECK(strstr(text, "\"timeout\"") != NULL);
    free(text);
    json_decref(log);
    engine_free(g);
}

static void test_legal(void)
{
    engine_game *g = new_game();
    REQUIRE(g);
    json_t *l = engine_legal(g, 0);
    json_t *ws = json_object_get(l, "windows");
    REQUIRE(json_array_size(ws) == 1);
    json_t *w = json_array_get(ws, 0);
    CHECK_EQ_STR(json_string_value(json_object_get(w, "window")), "t1");
    CHECK_EQ_STR(json_string_value(json_object_get(w, "mode")), "open");
    CHECK_EQ_STR(json_string_value(json_object_get(w, "kind")), "play");
    CHECK(json_is_object(json_object_get(w, "shape")));
    CHECK_EQ_INT(json_array_size(json_object_get(w, "choices")), 9);
    json_decref(l);
    l = engine_legal(g, 1); /* not seat 1's turn */
    CHECK_EQ_INT(json_array_size(json_object_get(l, "windows")), 0);
    json_decref(l);
    CHECK_EQ_INT(cell(g, 0, 4), 0);
    l = engine_legal(g, 1);
    w = json_array_get(json_object_get(l, "windows"), 0);
    CHECK_EQ_INT(json_array_size(json_object_get(w, "choices")), 8);
    json_decref(l);
    /* Every listed choice is accepted. */
    l = engine_legal(g, 1);
    json_t *choices = json_object_get(
        json_array_get(json_object_get(l, "windows"), 0), "choices");
    size_t i;
    json_t *c;
    json_array_foreach(choices, i, c)
    {
        engine_game *copy = engine_clone(g);
        engine_error err;
        engine_input in = {
            .seat = 1, .kind = ENGINE_PLAY, .window = "t2", .payload = c};
        CHECK_EQ_INT(engine_apply(copy, &in, NULL, &err), 0);
        engine_free(copy);
    }
    json_decref(l);
    engine_free(g);
}

static int bot_move(engine_game *g, int seat, const char *level,
                    engine_rng *rng)
{
    engine_input in;
    engine_error err;
    int rc = engine_bot_action(g, seat, level, rng, &in, &err);
    if (rc != 0)
        return -100;
    int c = (int)json_integer_value(json_object_get(in.payload, "cell"));
    rc = engine_apply(g, &in, NULL, &err);
    json_decref((json_t *)in.payload);
    return rc == 0 ? c : -1;
}

static void test_basic_bot_wins_and_blocks(void)
{
    engine_rng rng;
    engine_rng_init(&rng, seed, 1);
    engine_game *g = new_game();
    REQUIRE(g);
    /* X 0,1; O 3,4: X to move takes 2 (win beats block). */
    CHECK_EQ_INT(cell(g, 0, 0), 0);
    CHECK_EQ_INT(cell(g, 1, 3), 0);
    CHECK_EQ_INT(cell(g, 0, 1), 0);
    CHECK_EQ_INT(cell(g, 1, 4), 0);
    CHECK_EQ_INT(bot_move(g, 0, "basic", &rng), 2);
    engine_free(g);

    g = new_game();
    /* X 0,1 threatens 2: O must block at 2. */
    CHECK_EQ_INT(cell(g, 0, 0), 0);
    CHECK_EQ_INT(cell(g, 1, 4), 0);
    CHECK_EQ_INT(cell(g, 0, 1), 0);
    CHECK_EQ_INT(bot_move(g, 1, "basic", &rng), 2);
    engine_free(g);

    g = new_game(); /* empty board: the centre */
    CHECK_EQ_INT(bot_move(g, 0, "basic", &rng), 4);
    int c = bot_move(g, 1, "basic", &rng); /* then a corner */
    CHECK(c == 0 || c == 2 || c == 6 || c == 8);
    engine_input in;
    engine_error err;
    CHECK_EQ_INT(engine_bot_action(g, 1, "genius", &rng, &in, &err),
                 ENGINE_ECONFLICT); /* not seat 1's turn */
    CHECK_EQ_INT(engine_bot_action(g, 0, "genius", &rng, &in, &err),
                 ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "level");
    engine_free(g);
}

/* basic beats random far more often than it loses, from either seat. */
static void test_basic_beats_random(void)
{
    engine_rng rng;
    engine_rng_init(&rng, seed, 2);
    int wins = 0, losses = 0, games = 400;
    for (int n = 0; n < games; n++) {
        engine_game *g = new_game();
        int basic = n % 2;
        while (!engine_is_over(g)) {
            engine_window w;
            REQUIRE(engine_windows(g, &w, 1) == 1);
            int seat = w.seats == 1u ? 0 : 1;
            REQUIRE(bot_move(g, seat, seat == basic ? "basic" : "random",
                             &rng) >= 0);
        }
        json_t *r = engine_result(g);
        json_t *winners = json_object_get(r, "winners");
        if (json_array_size(winners) == 1) {
            if (json_integer_value(json_array_get(winners, 0)) == basic)
                wins++;
            else
                losses++;
        }
        json_decref(r);
        engine_free(g);
    }
    CHECKF(wins > 5 * losses, "basic won %d, lost %d", wins, losses);
}

static void test_save_load_round_trip(void)
{
    engine_game *g = new_game();
    engine_error err = {0};
    REQUIRE(g);
    CHECK_EQ_INT(cell(g, 0, 4), 0);
    CHECK_EQ_INT(cell(g, 1, 0), 0);
    json_t *saved = engine_save(g);
    engine_game *h = engine_load(saved, &err);
    REQUIRE(h);
    uint8_t a[ENGINE_HASH_BYTES], b[ENGINE_HASH_BYTES];
    hash_of(g, a);
    hash_of(h, b);
    CHECK(memcmp(a, b, sizeof a) == 0);
    CHECK_EQ_INT(cell(h, 0, 8), 0);
    engine_free(h);

    /* Unreachable positions are refused: three X and no O. */
    json_t *state = json_object_get(saved, "state");
    json_object_set_new(state, "board",
                        json_pack("[i,i,i,n,n,n,n,n,n]", 0, 0, 0));
    json_object_set_new(state, "moves", json_integer(3));
    CHECK(engine_load(saved, &err) == NULL);
    CHECK_EQ_INT(err.code, ENGINE_EINTERNAL);
    json_decref(saved);
    engine_free(g);
}

int main(void)
{
    engine_error err;
    if (engine_init(&err) != 0) {
        fprintf(stderr, "engine_init: %s\n", err.msg);
        return 1;
    }
    RUN(test_registered_and_described);
    RUN(test_create_checks);
    RUN(test_initial_view_and_window);
    RUN(test_turns_and_windows);
    RUN(test_illegal_plays);
    RUN(test_win);
    RUN(test_every_line_wins);
    RUN(test_draw);
    RUN(test_timeout_forfeits);
    RUN(test_legal);
    RUN(test_basic_bot_wins_and_blocks);
    RUN(test_basic_beats_random);
    RUN(test_save_load_round_trip);
    return TEST_SUMMARY();
}

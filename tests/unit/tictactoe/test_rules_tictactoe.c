/*
 * test_rules_tictactoe.c - docs/games/tictactoe.md rule by rule, each on a
 * constructed position (a saved game whose board is written here): the
 * legal case, the refused case and the boundary. The table in the doc maps
 * each rule to its test here.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "tests/unit/test.h"

static const uint8_t seed[ENGINE_SEED_BYTES] = {7};

/* A game at the position board (9 characters: 'x' seat 0, 'o' seat 1, '.'
 * empty); moves and winner follow from it (winner: the seat with a line,
 * else -1). */
static engine_game *at(const char *board)
{
    engine_error err = {0};
    engine_game *g = engine_create("tictactoe", "g-rules", NULL, 2, seed, &err);
    if (!g)
        return NULL;
    json_t *doc = engine_save(g);
    engine_free(g);
    json_t *cells = json_array();
    int moves = 0;
    for (int i = 0; i < 9; i++) {
        if (board[i] == '.') {
            json_array_append_new(cells, json_null());
        } else {
            json_array_append_new(cells, json_integer(board[i] == 'x' ? 0 : 1));
            moves++;
        }
    }
    static const int lines[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                                    {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};
    int winner = -1;
    for (int l = 0; l < 8; l++) {
        char c = board[lines[l][0]];
        if (c != '.' && c == board[lines[l][1]] && c == board[lines[l][2]])
            winner = c == 'x' ? 0 : 1;
    }
    json_object_set_new(
        doc, "state",
        json_pack("{s:o, s:i, s:o, s:b}", "board", cells, "moves", moves,
                  "winner", winner < 0 ? json_null() : json_integer(winner),
                  "forfeit", 0));
    json_object_set_new(doc, "inputs", json_integer(moves));
    g = engine_load(doc, &err);
    if (!g)
        fprintf(stderr, "load %s: %s\n", board, err.msg);
    json_decref(doc);
    return g;
}

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

static int take(engine_game *g, int seat, const char *window, int cell)
{
    char body[32];
    engine_error err;
    snprintf(body, sizeof body, "{\"cell\":%d}", cell);
    return play(g, seat, window, body, &err);
}

/* The one open window: its id into id, its seats returned (0 when none). */
static uint32_t window_of(const engine_game *g, char *id)
{
    engine_window w;
    if (engine_windows(g, &w, 1) < 1) {
        id[0] = '\0';
        return 0;
    }
    snprintf(id, ENGINE_WINDOW_ID_MAX, "%s", w.id);
    return w.seats;
}

static int winners_are(const engine_game *g, int seat, int draw)
{
    json_t *r = engine_result(g);
    json_t *want = seat >= 0
                       ? json_pack("{s:[i], s:b}", "winners", seat, "draw", 0)
                       : json_pack("{s:[], s:b}", "winners", "draw", draw);
    int ok = r && json_equal(r, want);
    json_decref(r);
    json_decref(want);
    return ok;
}

/* Rule 1: two players take turns; the first seat moves first. */
static void test_first_seat_moves_first(void)
{
    engine_game *g = at(".........");
    REQUIRE(g);
    char id[ENGINE_WINDOW_ID_MAX];
    CHECK_EQ_INT(window_of(g, id), 1u << 0);
    CHECK_EQ_STR(id, "t1");
    CHECK_EQ_INT(take(g, 1, "t1", 4), ENGINE_ECONFLICT);
    CHECK_EQ_INT(take(g, 0, "t1", 4), 0);
    engine_free(g);
}

static void test_turns_alternate(void)
{
    /* after seat 0's move: seat 1's turn, in window t2 */
    engine_game *g = at("x........");
    REQUIRE(g);
    char id[ENGINE_WINDOW_ID_MAX];
    CHECK_EQ_INT(window_of(g, id), 1u << 1);
    CHECK_EQ_STR(id, "t2");
    CHECK_EQ_INT(take(g, 0, "t2", 4), ENGINE_ECONFLICT);
    CHECK_EQ_INT(take(g, 1, "t1", 4), ENGINE_ECONFLICT); /* an old window */
    CHECK_EQ_INT(take(g, 1, "t2", 4), 0);
    CHECK_EQ_INT(window_of(g, id), 1u << 0);
    CHECK_EQ_STR(id, "t3");
    engine_free(g);
    /* the last move of a full board falls to the first seat (9 is odd) */
    g = at("xoxxoo.x."); /* 7 moves, no line? x:0,2,3,7 o:1,4,5 */
    REQUIRE(g);
    CHECK_EQ_INT(window_of(g, id), 1u << 1);
    CHECK_EQ_STR(id, "t8");
    engine_free(g);
}

/* Rule 2: take one empty cell, numbered 0..8 row by row. */
static void test_take_one_empty_cell(void)
{
    engine_game *g = at("x...o....");
    REQUIRE(g);
    engine_error err;
    /* refused: taken cells, out of range, not an integer, extra fields */
    CHECK_EQ_INT(play(g, 0, "t3", "{\"cell\":0}", &err), ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "cell");
    CHECK_EQ_INT(play(g, 0, "t3", "{\"cell\":4}", &err), ENGINE_EINVALID);
    CHECK_EQ_INT(play(g, 0, "t3", "{\"cell\":-1}", &err), ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "cell");
    CHECK_EQ_INT(play(g, 0, "t3", "{\"cell\":9}", &err), ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "cell");
    CHECK_EQ_INT(play(g, 0, "t3", "{\"cell\":\"8\"}", &err), ENGINE_EINVALID);
    CHECK_EQ_INT(play(g, 0, "t3", "{}", &err), ENGINE_EINVALID);
    CHECK_EQ_INT(play(g, 0, "t3", "{\"cell\":8,\"also\":1}", &err),
                 ENGINE_EINVALID);
    CHECK_EQ_INT(engine_game_inputs(g), 2);
    /* the boundary cell 8 (bottom right) is the one taken */
    CHECK_EQ_INT(play(g, 0, "t3", "{\"cell\":8}", &err), 0);
    json_t *v = engine_view(g, ENGINE_PUBLIC);
    json_t *board = json_object_get(v, "board");
    CHECK_EQ_INT(json_integer_value(json_array_get(board, 8)), 0);
    CHECK(json_is_null(json_array_get(board, 7)));
    CHECK_EQ_INT(json_integer_value(json_array_get(board, 4)), 1);
    CHECK_EQ_INT(json_integer_value(json_array_get(board, 0)), 0);
    json_decref(v);
    engine_free(g);
    /* the boundary cell 0 */
    g = at("........o");
    CHECK(g == NULL); /* seat 1 cannot have moved first */
    g = at("....x....");
    REQUIRE(g);
    CHECK_EQ_INT(take(g, 1, "t2", 0), 0);
    engine_free(g);
}

/* Rule 3: three in a row, a column or a diagonal wins at once. */
static void test_line_wins_at_once(void)
{
    static const int lines[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                                    {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};
    for (int l = 0; l < 8; l++) {
        /* seat 0 holds two cells of line l, seat 1 the first two cells
         * outside it; seat 0 to move completes the line */
        char board[10] = ".........";
        board[lines[l][0]] = 'x';
        board[lines[l][1]] = 'x';
        for (int i = 0, o = 0; i < 9 && o < 2; i++)
            if (board[i] == '.' && i != lines[l][2]) {
                board[i] = 'o';
                o++;
            }
        engine_game *g = at(board);
        if (!g) {
            CHECKF(0, "line %d: %s", l, board);
            continue;
        }
        char id[ENGINE_WINDOW_ID_MAX];
        CHECKF(!engine_is_over(g), "line %d: %s", l, board);
        CHECKF(window_of(g, id) == 1u << 0, "line %d: %s", l, board);
        CHECKF(take(g, 0, id, lines[l][2]) == 0, "line %d", l);
        CHECKF(engine_is_over(g), "line %d: %s", l, board);
        CHECKF(winners_are(g, 0, 0), "line %d", l);
        CHECKF(window_of(g, id) == 0, "line %d: no window after a win", l);
        engine_free(g);
    }
}

static void test_two_in_a_row_is_no_win(void)
{
    /* x x . / o o . / . . . : seat 0 takes 5 (blocking), no line yet */
    engine_game *g = at("xx.oo....");
    REQUIRE(g);
    CHECK_EQ_INT(take(g, 0, "t5", 5), 0);
    CHECK(!engine_is_over(g));
    char id[ENGINE_WINDOW_ID_MAX];
    CHECK_EQ_INT(window_of(g, id), 1u << 1);
    engine_free(g);
    /* a win with cells left: over at once, the other seat cannot move */
    g = at("xx.oo....");
    REQUIRE(g);
    CHECK_EQ_INT(take(g, 0, "t5", 2), 0);
    CHECK(engine_is_over(g));
    CHECK(winners_are(g, 0, 0));
    CHECK_EQ_INT(take(g, 1, "t6", 5), ENGINE_EOVER);
    engine_free(g);
}

/* Rule 4: nine moves without a line is a draw. */
static void test_nine_moves_draw(void)
{
    /* x o x / x o o / o x . : the ninth move (cell 8, seat 0) makes no line */
    engine_game *g = at("xoxxooox.");
    REQUIRE(g);
    CHECK(!engine_is_over(g)); /* eight moves: not yet */
    CHECK_EQ_INT(take(g, 0, "t9", 8), 0);
    CHECK(engine_is_over(g));
    CHECK(winners_are(g, -1, 1));
    json_t *v = engine_view(g, ENGINE_PUBLIC);
    CHECK(json_is_true(json_object_get(v, "draw")));
    CHECK(json_is_null(json_object_get(v, "winner")));
    json_decref(v);
    engine_free(g);
    /* a ninth move that makes a line wins, it is no draw */
    g = at("xoxoxoox."); /* x:0,2,4,7 o:1,3,5,6: seat 0 takes 8 (0,4,8) */
    REQUIRE(g);
    CHECK_EQ_INT(take(g, 0, "t9", 8), 0);
    CHECK(engine_is_over(g));
    CHECK(winners_are(g, 0, 0));
    json_t *v2 = engine_view(g, ENGINE_PUBLIC);
    CHECK(json_is_false(json_object_get(v2, "draw")));
    json_decref(v2);
    engine_free(g);
}

/* Rule of our own: a clock running out on your turn forfeits. */
static void test_timeout_forfeits_the_seat_to_move(void)
{
    for (int mover = 0; mover < 2; mover++) {
        engine_game *g = at(mover == 0 ? "xo......." : "x........");
        REQUIRE(g);
        char id[ENGINE_WINDOW_ID_MAX];
        window_of(g, id);
        engine_input t = {
            .seat = ENGINE_PUBLIC, .kind = ENGINE_TIMEOUT, .window = id};
        engine_error err;
        CHECK_EQ_INT(engine_apply(g, &t, NULL, &err), 0);
        CHECK(engine_is_over(g));
        CHECKF(winners_are(g, 1 - mover, 0), "mover %d", mover);
        engine_free(g);
    }
}

/* Rule of our own: nothing is hidden; every seat and spectator sees the
 * same board. */
static void test_nothing_hidden(void)
{
    engine_game *g = at("x...o..x.");
    REQUIRE(g);
    json_t *pub = engine_view(g, ENGINE_PUBLIC);
    for (int s = 0; s < 2; s++) {
        json_t *v = engine_view(g, s);
        CHECKF(json_equal(json_object_get(v, "board"),
                          json_object_get(pub, "board")),
               "seat %d", s);
        json_decref(v);
    }
    json_decref(pub);
    engine_free(g);
}

/* The basic bot (docs: wins when it can, blocks when it must), else the
 * centre, else a corner: with the centre taken and nothing to win or block
 * it takes a corner, each of the four free ones for some stream. */
static void test_basic_bot_takes_a_corner(void)
{
    engine_game *g = at(".x..o...."); /* x to move, no line to make or stop */
    REQUIRE(g);
    int seen[9] = {0};
    for (uint64_t stream = 0; stream < 64; stream++) {
        uint8_t key[32] = {9};
        engine_rng rng;
        engine_rng_init(&rng, key, stream);
        engine_input in;
        engine_error err;
        REQUIRE(engine_bot_action(g, 0, "basic", &rng, &in, &err) == 0);
        int cell = (int)json_integer_value(json_object_get(in.payload, "cell"));
        json_decref((json_t *)in.payload);
        if (cell >= 0 && cell < 9)
            seen[cell]++;
        CHECKF(cell == 0 || cell == 2 || cell == 6 || cell == 8,
               "stream %llu: cell %d is no corner", (unsigned long long)stream,
               cell);
    }
    for (int c = 0; c < 9; c += 2)
        if (c != 4)
            CHECKF(seen[c] > 0, "corner %d never taken in 64 streams", c);
    engine_free(g);
}

int main(void)
{
    engine_error err;
    if (engine_init(&err) != 0) {
        fprintf(stderr, "engine_init: %s\n", err.msg);
        return 1;
    }
    RUN(test_first_seat_moves_first);
    RUN(test_turns_alternate);
    RUN(test_take_one_empty_cell);
    RUN(test_line_wins_at_once);
    RUN(test_two_in_a_row_is_no_win);
    RUN(test_nine_moves_draw);
    RUN(test_timeout_forfeits_the_seat_to_move);
    RUN(test_nothing_hidden);
    RUN(test_basic_bot_takes_a_corner);
    return TEST_SUMMARY();
}

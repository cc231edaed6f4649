/*
 * tictactoe.c - Tic-tac-toe: the reference ruleset for OPEN windows, and the
 * worked example of docs/ruleset-authoring.md.
 *
 * Two seats; seat 0 moves first. Each turn opens one window "t<N>", N being
 * the move number (t1..t9), in which the seat to move plays {"cell": C}, C
 * in 0..8 row-major from the top left. Three in a row wins; nine moves
 * without a line is a draw. If the clock runs out (a timeout input on the
 * window) the seat to move forfeits and the other seat wins. No options,
 * nothing hidden, no chance: every audience gets the same view and the game
 * RNG is never drawn from (bots use the RNG they are handed).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/ruleset.h"

typedef struct ttt {
    int board[9]; /* -1 empty, else the seat that took the cell */
    int moves;    /* cells taken so far; the next window is "t<moves+1>" */
    int winner;   /* -1 while nobody has won */
    int forfeit;  /* 1 if the game ended by a timeout */
} ttt;

static const int lines[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                                {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};

static int line_winner(const int *board)
{
    for (int i = 0; i < 8; i++) {
        int a = board[lines[i][0]];
        if (a >= 0 && a == board[lines[i][1]] && a == board[lines[i][2]])
            return a;
    }
    return -1;
}

static int is_over(const void *state)
{
    const ttt *t = state;
    return t->winner >= 0 || t->moves == 9;
}

static int to_move(const ttt *t)
{
    return t->moves % 2;
}

static json_t *seat_or_null(int seat)
{
    return seat >= 0 ? json_integer(seat) : json_null();
}

/* ------------------------------------------------- state as plain data -- */

static void *setup(engine_ctx *ctx, const json_t *options, int seats,
                   engine_error *err)
{
    (void)ctx, (void)options, (void)seats;
    ttt *t = malloc(sizeof *t);
    if (!t) {
        engine_fail(err, ENGINE_EINTERNAL, "", "out of memory");
        return NULL;
    }
    for (int i = 0; i < 9; i++)
        t->board[i] = -1;
    t->moves = 0;
    t->winner = -1;
    t->forfeit = 0;
    return t;
}

static void *clone(const void *state)
{
    return engine_plain_clone(state, sizeof(ttt));
}

/* The saved document: {"board": [seat or null x 9], "moves", "winner": seat
 * or null, "forfeit"}. */
static const engine_field fields[] = {
    {.name = "board",
     .kind = ENGINE_FIELD_SEAT,
     .offset = offsetof(ttt, board),
     .max = 1,
     .len = 9},
    {.name = "moves",
     .kind = ENGINE_FIELD_INT,
     .offset = offsetof(ttt, moves),
     .max = 9},
    {.name = "winner",
     .kind = ENGINE_FIELD_SEAT,
     .offset = offsetof(ttt, winner),
     .max = 1},
    {.name = "forfeit",
     .kind = ENGINE_FIELD_BOOL,
     .offset = offsetof(ttt, forfeit)},
    {0},
};

static json_t *save(const void *state)
{
    return engine_plain_save(state, fields);
}

/* Trust nothing in a saved document: the field table checks the shape, then
 * this checks it is a position the rules can reach. */
static void *load(const json_t *saved, engine_error *err)
{
    ttt t = {.winner = -1};
    int count[2] = {0, 0};
    if (engine_plain_load(&t, saved, fields, err) != 0)
        return NULL;
    for (int i = 0; i < 9; i++)
        if (t.board[i] >= 0)
            count[t.board[i]]++;
    if (t.moves != count[0] + count[1] || count[0] - count[1] < 0 ||
        count[0] - count[1] > 1 ||
        (!t.forfeit && t.winner != line_winner(t.board)) ||
        (t.forfeit && t.winner < 0)) {
        engine_fail(err, ENGINE_EINTERNAL, "state",
                    "saved tic-tac-toe is corrupt");
        return NULL;
    }
    return clone(&t);
}

/* -------------------------------------------------------------- windows -- */

/* "t<move number>"; moves + 1 is a single digit while the game runs. This
 * is called for every input, so it avoids snprintf. */
static void window_id(const ttt *t, char id[ENGINE_WINDOW_ID_MAX])
{
    id[0] = 't';
    id[1] = (char)('1' + t->moves);
    id[2] = '\0';
}

static int windows(const void *state, engine_window *out, int max)
{
    const ttt *t = state;
    if (is_over(t))
        return 0;
    if (max >= 1) {
        window_id(t, out[0].id);
        out[0].mode = ENGINE_OPEN;
        out[0].seats = 1u << to_move(t);
        out[0].submitted = 0;
    }
    return 1;
}

/* Is `window` the current turn's window? The core has checked that it is
 * open, but a ruleset re-checks what it relies on: it is cheap. */
static int is_current(const ttt *t, const char *window)
{
    char id[ENGINE_WINDOW_ID_MAX];
    if (is_over(t))
        return 0;
    window_id(t, id);
    return strcmp(id, window) == 0;
}

/* Validate, then mutate: nothing below the checks can fail. */
static int play(void *state, engine_ctx *ctx, int seat, const char *window,
                const json_t *payload, engine_error *err)
{
    ttt *t = state;
    const char *key;
    json_t *val;
    if (!is_current(t, window) || seat != to_move(t))
        return engine_fail(err, ENGINE_ECONFLICT, "",
                           "it is not seat %d's turn", seat);
    json_object_foreach((json_t *)payload, key, val)
    {
        if (strcmp(key, "cell") != 0)
            return engine_fail(err, ENGINE_EINVALID, key,
                               "unknown field \"%.40s\"; a play is "
                               "{\"cell\": 0..8}",
                               key);
    }
    const json_t *cell = json_object_get(payload, "cell");
    json_int_t c = json_is_integer(cell) ? json_integer_value(cell) : -1;
    if (c < 0 || c > 8)
        return engine_fail(err, ENGINE_EINVALID, "cell",
                           "cell must be an integer from 0 to 8");
    if (t->board[c] >= 0)
        return engine_fail(err, ENGINE_EINVALID, "cell",
                           "cell %d is already taken", (int)c);

    t->board[c] = seat;
    t->moves++;
    t->winner = line_winner(t->board);
    json_t *entry = json_object();
    json_object_set_new(entry, "type", json_string("move"));
    json_object_set_new(entry, "seat", json_integer(seat));
    json_object_set_new(entry, "cell", json_integer(c));
    engine_ctx_log(ctx, entry);
    return 0;
}

/* The clock ran out on the seat to move: it forfeits. */
static int timeout(void *state, engine_ctx *ctx, const char *window,
                   engine_error *err)
{
    ttt *t = state;
    if (!is_current(t, window))
        return engine_fail(err, ENGINE_ECONFLICT, "window",
                           "window \"%s\" is not open", window);
    int loser = to_move(t);
    t->winner = 1 - loser;
    t->forfeit = 1;
    engine_ctx_log(ctx,
                   json_pack("{s:s, s:i}", "type", "forfeit", "seat", loser));
    return 0;
}

/* ---------------------------------------------------- what seats can see -- */

static json_t *board_json(const ttt *t)
{
    json_t *b = json_array();
    for (int i = 0; i < 9; i++)
        json_array_append_new(b, seat_or_null(t->board[i]));
    return b;
}

static json_t *view(const void *state, int seat)
{
    const ttt *t = state;
    (void)seat; /* nothing is hidden */
    return json_pack("{s:o, s:o, s:o, s:b}", "board", board_json(t), "turn",
                     seat_or_null(is_over(t) ? -1 : to_move(t)), "winner",
                     seat_or_null(t->winner), "draw",
                     t->moves == 9 && t->winner < 0);
}

static json_t *legal(const void *state, int seat, const char *window)
{
    const ttt *t = state;
    if (!is_current(t, window) || seat != to_move(t))
        return NULL;
    json_t *cells = json_array(), *choices = json_array();
    for (int i = 0; i < 9; i++)
        if (t->board[i] < 0) {
            json_array_append_new(cells, json_integer(i));
            json_array_append_new(choices, json_pack("{s:i}", "cell", i));
        }
    return json_pack("{s:s, s:{s:s, s:[s], s:{s:{s:s, s:o}}, s:b}, s:o}",
                     "kind", "play", "shape", "type", "object", "required",
                     "cell", "properties", "cell", "type", "integer", "enum",
                     cells, "additionalProperties", 0, "choices", choices);
}

/* "basic": win now, else block the other seat's line, else take the
 * centre, else a corner, else anything. Ties are broken by rng. */
static int basic_move(const ttt *t, int seat, engine_rng *rng)
{
    for (int who = 0; who < 2; who++) {
        int want = who == 0 ? seat : 1 - seat; /* first win, then block */
        for (int i = 0; i < 8; i++) {
            int mine = 0, empty = -1;
            for (int k = 0; k < 3; k++) {
                int c = lines[i][k];
                if (t->board[c] == want)
                    mine++;
                else if (t->board[c] < 0)
                    empty = c;
            }
            if (mine == 2 && empty >= 0)
                return empty;
        }
    }
    if (t->board[4] < 0)
        return 4;
    static const int corners[4] = {0, 2, 6, 8};
    int free_corners[4] = {0}, n = 0;
    for (int i = 0; i < 4; i++)
        if (t->board[corners[i]] < 0)
            free_corners[n++] = corners[i];
    return n ? free_corners[engine_rng_below(rng, (uint32_t)n)] : -1;
}

static json_t *bot(const void *state, int seat, const char *window,
                   const char *level, engine_rng *rng)
{
    const ttt *t = state;
    int cell = -1, free_cells[9], n = 0;
    if (!is_current(t, window) || seat != to_move(t))
        return NULL;
    if (strcmp(level, "basic") == 0)
        cell = basic_move(t, seat, rng);
    else if (strcmp(level, "random") != 0)
        return NULL;
    if (cell < 0) {
        for (int i = 0; i < 9; i++)
            if (t->board[i] < 0)
                free_cells[n++] = i;
        cell = free_cells[engine_rng_below(rng, (uint32_t)n)];
    }
    json_t *p = json_object();
    json_object_set_new(p, "cell", json_integer(cell));
    return p;
}

static json_t *result(const void *state)
{
    const ttt *t = state;
    if (!is_over(t))
        return NULL;
    json_t *winners = json_array();
    if (t->winner >= 0)
        json_array_append_new(winners, json_integer(t->winner));
    return json_pack("{s:o, s:b}", "winners", winners, "draw", t->winner < 0);
}

static const engine_bot_level bot_levels[] = {
    {"basic", "Basic"}, {"random", "Random"}, {NULL, NULL}};

/* Nothing in the state is hidden (the board is public), so a twin is a clone.
 */
static void *twin(const void *state, int seat, engine_rng *rng)
{
    (void)seat;
    (void)rng;
    return clone(state);
}

/* "t5" -> "Your mark (move 5)". */
static int ttt_window_label(const char *window, char *out, size_t n)
{
    if (window[0] != 't' || window[1] < '1' || window[1] > '9' || window[2])
        return -1;
    snprintf(out, n, "Your mark (move %c)", window[1]);
    return 0;
}

const engine_ruleset tictactoe_ruleset = {
    .id = "tictactoe",
    .title = "Tic-tac-toe",
    .summary = "Three in a row on a 3x3 board. Seat 0 moves first.",
    .min_seats = 2,
    .max_seats = 2,
    .setup = setup,
    .destroy = free,
    .clone = clone,
    .save = save,
    .load = load,
    .windows = windows,
    .window_label = ttt_window_label,
    .play = play,
    .timeout = timeout,
    .view = view,
    .legal = legal,
    .bot = bot,
    .is_over = is_over,
    .result = result,
    .twin = twin,
    .bot_levels = bot_levels,
};

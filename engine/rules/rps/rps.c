/*
 * rps.c - Rock-paper-scissors: the reference ruleset for SEALED windows.
 *
 * Two seats play {"rounds": 1..99} rounds (default 3). Each round opens one
 * sealed window "r<N>" for both seats; an order is {"throw": "rock" |
 * "paper" | "scissors"} with an optional "note" (a string of at most 64
 * characters). The core keeps each order secret until both are in (or the
 * window times out), then reveals them whole, note included, and calls
 * resolve: rock beats scissors, scissors beat paper, paper beats rock, a
 * round won scores 1. A seat that times out throws uniformly at random
 * (drawn from the game RNG, so replays agree). After the last round the
 * higher score wins; equal scores draw.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/ruleset.h"

#define MAX_ROUNDS 99
#define NOTE_MAX 64

static const char *const throws[4] = {"rock", "paper", "scissors", NULL};

typedef struct rps {
    int rounds; /* rounds to play */
    int played; /* rounds resolved; window "r<played+1>" */
    int score[2];
    int hist[MAX_ROUNDS][2]; /* throws of each played round (0..2) */
} rps;

/* 0 rock, 1 paper, 2 scissors; -1 if not a throw. */
static int throw_index(const char *s)
{
    for (int i = 0; s && i < 3; i++)
        if (strcmp(s, throws[i]) == 0)
            return i;
    return -1;
}

/* The seat that wins a round, or -1 for a tie. */
static int round_winner(int a, int b)
{
    if (a == b)
        return -1;
    return (a - b + 3) % 3 == 1 ? 0 : 1; /* paper(1) - rock(0) = 1: seat 0 */
}

static int is_over(const void *state)
{
    const rps *r = state;
    return r->played >= r->rounds;
}

/* ------------------------------------------------------------- options -- */

static const engine_option options[] = {
    {.name = "rounds",
     .kind = ENGINE_OPTION_INT,
     .title = "rounds to play",
     .min = 1,
     .max = MAX_ROUNDS,
     .def = 3},
    {0},
};

/* ------------------------------------------------- state as plain data -- */

static void *setup(engine_ctx *ctx, const json_t *opts, int seats,
                   engine_error *err)
{
    (void)ctx, (void)seats;
    rps *r = calloc(1, sizeof *r);
    if (!r) {
        engine_fail(err, ENGINE_EINTERNAL, "", "out of memory");
        return NULL;
    }
    r->rounds = engine_option_int(options, opts, "rounds");
    return r;
}

static void *clone(const void *state)
{
    return engine_plain_clone(state, sizeof(rps));
}

/* The saved document: {"rounds", "history": [[throw, throw] per round
 * played]}; played is the history's length and the scores follow from it,
 * so a saved game cannot disagree with itself. */
static const engine_field fields[] = {
    {.name = "rounds",
     .kind = ENGINE_FIELD_INT,
     .offset = offsetof(rps, rounds),
     .min = 1,
     .max = MAX_ROUNDS},
    {.name = "history",
     .kind = ENGINE_FIELD_NAME,
     .offset = offsetof(rps, hist),
     .names = throws,
     .len = MAX_ROUNDS,
     .cols = 2,
     .has_count = 1,
     .count_offset = offsetof(rps, played)},
    {0},
};

static json_t *save(const void *state)
{
    return engine_plain_save(state, fields);
}

static void *load(const json_t *saved, engine_error *err)
{
    rps r = {0};
    if (engine_plain_load(&r, saved, fields, err) != 0)
        return NULL;
    if (r.played > r.rounds) {
        engine_fail(err, ENGINE_EINTERNAL, "state",
                    "saved rps state is corrupt");
        return NULL;
    }
    for (int i = 0; i < r.played; i++) {
        int w = round_winner(r.hist[i][0], r.hist[i][1]);
        if (w >= 0)
            r.score[w]++;
    }
    return clone(&r);
}

/* ------------------------------------------------------- sealed windows -- */

static void window_id(const rps *r, char id[ENGINE_WINDOW_ID_MAX])
{
    snprintf(id, ENGINE_WINDOW_ID_MAX, "r%d", r->played + 1);
}

static int is_current(const rps *r, const char *window)
{
    char id[ENGINE_WINDOW_ID_MAX];
    window_id(r, id);
    return !is_over(r) && strcmp(id, window) == 0;
}

static int windows(const void *state, engine_window *out, int max)
{
    const rps *r = state;
    if (is_over(r))
        return 0;
    if (max >= 1) {
        window_id(r, out[0].id);
        out[0].mode = ENGINE_SEALED;
        out[0].seats = 3u; /* both seats */
        out[0].submitted = 0;
    }
    return 1;
}

/* Const: the core holds the order; this only judges it. */
static int check_order(const void *state, int seat, const char *window,
                       const json_t *order, engine_error *err)
{
    const char *key;
    json_t *val;
    if (!is_current(state, window) || seat < 0 || seat > 1)
        return engine_fail(err, ENGINE_ECONFLICT, "window",
                           "window \"%s\" is not open", window);
    json_object_foreach((json_t *)order, key, val)
    {
        if (strcmp(key, "throw") == 0)
            continue;
        if (strcmp(key, "note") != 0)
            return engine_fail(err, ENGINE_EINVALID, key,
                               "unknown field \"%.40s\"; an order is "
                               "{\"throw\", \"note\"?}",
                               key);
        /* Count characters, not bytes: UTF-8 continuation bytes are
         * 10xxxxxx (jansson has already checked the encoding). */
        const char *s = json_string_value(val);
        size_t chars = 0;
        for (; s && *s; s++)
            chars += ((unsigned char)*s & 0xC0) != 0x80;
        if (!s || chars > NOTE_MAX)
            return engine_fail(err, ENGINE_EINVALID, "note",
                               "note must be a string of at most %d "
                               "characters",
                               NOTE_MAX);
    }
    if (throw_index(json_string_value(json_object_get(order, "throw"))) < 0)
        return engine_fail(err, ENGINE_EINVALID, "throw",
                           "throw must be \"rock\", \"paper\" or "
                           "\"scissors\"");
    return 0;
}

/* A seat that let the clock run out throws at random, from the game RNG. */
static json_t *default_order(const void *state, int seat, const char *window,
                             engine_rng *rng)
{
    (void)state, (void)seat, (void)window;
    return json_pack("{s:s}", "throw", throws[engine_rng_below(rng, 3)]);
}

/* Both orders are in and have been checked: score the round. */
static int resolve(void *state, engine_ctx *ctx, const char *window,
                   const json_t *const *orders, engine_error *err)
{
    rps *r = state;
    int t[2];
    if (!is_current(r, window))
        return engine_fail(err, ENGINE_ECONFLICT, "window",
                           "window \"%s\" is not open", window);
    for (int s = 0; s < 2; s++) {
        t[s] = orders[s] ? throw_index(json_string_value(
                               json_object_get(orders[s], "throw")))
                         : -1;
        if (t[s] < 0)
            return engine_fail(err, ENGINE_EINTERNAL, "throw",
                               "seat %d has no throw", s);
    }
    int w = round_winner(t[0], t[1]);
    r->hist[r->played][0] = t[0];
    r->hist[r->played][1] = t[1];
    r->played++;
    if (w >= 0)
        r->score[w]++;
    engine_ctx_log(ctx, json_pack("{s:s, s:i, s:[s,s], s:o, s:[i,i]}", "type",
                                  "round", "round", r->played, "throws",
                                  throws[t[0]], throws[t[1]], "winner",
                                  w >= 0 ? json_integer(w) : json_null(),
                                  "scores", r->score[0], r->score[1]));
    return 0;
}

/* ---------------------------------------------------- what seats can see -- */

/* -1 while running or on a draw, else the seat ahead. */
static int leader(const rps *r)
{
    return r->score[0] == r->score[1] ? -1 : r->score[0] > r->score[1] ? 0 : 1;
}

static json_t *history_json(const rps *r)
{
    json_t *h = json_array();
    for (int i = 0; i < r->played; i++)
        json_array_append_new(h, json_pack("[s,s]", throws[r->hist[i][0]],
                                           throws[r->hist[i][1]]));
    return h;
}

static json_t *view(const void *state, int seat)
{
    const rps *r = state;
    int over = is_over(r), lead = over ? leader(r) : -1;
    (void)seat; /* pending orders are the core's; the view holds only the
                   public record */
    return json_pack(
        "{s:i, s:o, s:[i,i], s:o, s:o, s:b}", "rounds", r->rounds, "round",
        over ? json_null() : json_integer(r->played + 1), "scores", r->score[0],
        r->score[1], "history", history_json(r), "winner",
        lead >= 0 ? json_integer(lead) : json_null(), "draw", over && lead < 0);
}

static json_t *legal(const void *state, int seat, const char *window)
{
    if (!is_current(state, window) || seat < 0 || seat > 1)
        return NULL;
    return json_pack(
        "{s:s, s:{s:s, s:[s], s:{s:{s:s, s:[s,s,s]}, s:{s:s, s:i}}, s:b}, "
        "s:[{s:s},{s:s},{s:s}]}",
        "kind", "order", "shape", "type", "object", "required", "throw",
        "properties", "throw", "type", "string", "enum", throws[0], throws[1],
        throws[2], "note", "type", "string", "maxLength", NOTE_MAX,
        "additionalProperties", 0, "choices", "throw", throws[0], "throw",
        throws[1], "throw", throws[2]);
}

/* "basic": beat the throw the other seat has made most often so far
 * (ties and the first round at random). */
static json_t *bot(const void *state, int seat, const char *window,
                   const char *level, engine_rng *rng)
{
    const rps *r = state;
    int pick;
    if (!is_current(r, window) || seat < 0 || seat > 1)
        return NULL;
    if (strcmp(level, "random") == 0) {
        pick = (int)engine_rng_below(rng, 3);
    } else if (strcmp(level, "basic") == 0) {
        int count[3] = {0, 0, 0}, best[3] = {0, 1, 2}, n = 0, top = -1;
        for (int i = 0; i < r->played; i++)
            count[r->hist[i][1 - seat]]++;
        for (int k = 0; k < 3; k++) {
            if (count[k] > top) {
                top = count[k];
                n = 0;
            }
            if (count[k] == top)
                best[n++] = k;
        }
        int expect = best[engine_rng_below(rng, (uint32_t)n)];
        pick = (expect + 1) % 3; /* paper beats rock, and so on */
    } else {
        return NULL;
    }
    return json_pack("{s:s}", "throw", throws[pick]);
}

static json_t *result(const void *state)
{
    const rps *r = state;
    if (!is_over(r))
        return NULL;
    int lead = leader(r);
    json_t *winners = json_array();
    if (lead >= 0)
        json_array_append_new(winners, json_integer(lead));
    return json_pack("{s:o, s:b, s:[i,i]}", "winners", winners, "draw",
                     lead < 0, "scores", r->score[0], r->score[1]);
}

static const engine_bot_level bot_levels[] = {
    {"basic", "Basic"}, {"random", "Random"}, {NULL, NULL}};

/* Nothing in the state is hidden (a held throw is the core's), so a twin is a
 * clone. */
static void *twin(const void *state, int seat, engine_rng *rng)
{
    (void)seat;
    (void)rng;
    return clone(state);
}

/* "r3" -> "Round 3: your throw". */
static int rps_window_label(const char *window, char *out, size_t n)
{
    int round, used = 0;
    if (sscanf(window, "r%d%n", &round, &used) != 1 || window[used] != '\0')
        return -1;
    snprintf(out, n, "Round %d: your throw", round);
    return 0;
}

const engine_ruleset rps_ruleset = {
    .id = "rps",
    .title = "Rock-paper-scissors",
    .summary = "Secret simultaneous throws, revealed together; best score "
               "after the last round wins.",
    .min_seats = 2,
    .max_seats = 2,
    .options = options,
    .setup = setup,
    .destroy = free,
    .clone = clone,
    .save = save,
    .load = load,
    .windows = windows,
    .window_label = rps_window_label,
    .check_order = check_order,
    .default_order = default_order,
    .resolve = resolve,
    .view = view,
    .legal = legal,
    .bot = bot,
    .is_over = is_over,
    .result = result,
    .twin = twin,
    .bot_levels = bot_levels,
};

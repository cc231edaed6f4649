/*
 * manywin.c - test-only ruleset "manywin": N windows open at once (option
 * "windows", 1..500, default 40), for tests of code that lists windows.
 *
 * Window k is "w<k>" (three digits). Every fifth window (k % 5 == 4) is
 * open, the others sealed. Even windows wait on every seat, odd ones on
 * seat 0 only. A sealed window closes when it locks; an open window stays
 * open until each of its seats has played once ({} is a play) or its clock
 * runs out. Orders are {} too. The game ends when every window is closed.
 * Bots ("random") give {} wherever they are asked.
 */
#include "tests/rules/test_rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct mw {
    int n, seats;
    uint32_t *done; /* per window: seats that acted; all of them: closed */
} mw;

static uint32_t window_seats(const mw *m, int k)
{
    return k % 2 == 0 ? (1u << m->seats) - 1 : 1u;
}

static int closed(const mw *m, int k)
{
    return (m->done[k] & window_seats(m, k)) == window_seats(m, k);
}

static mw *mw_new(int n, int seats)
{
    mw *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->n = n;
    m->seats = seats;
    m->done = calloc((size_t)n, sizeof *m->done);
    if (!m->done) {
        free(m);
        return NULL;
    }
    return m;
}

static void destroy(void *state)
{
    mw *m = state;
    if (m)
        free(m->done);
    free(m);
}

static const engine_option manywin_options[] = {
    {"windows", ENGINE_OPTION_INT, "windows open at once", 1, 500, 40, NULL},
    {0},
};

static void *setup(engine_ctx *ctx, const json_t *options, int seats,
                   engine_error *err)
{
    (void)ctx;
    json_t *w = json_object_get(options, "windows");
    mw *m = mw_new(w ? (int)json_integer_value(w) : 40, seats);
    if (!m)
        engine_fail(err, ENGINE_EINTERNAL, "", "out of memory");
    return m;
}

static void *clone(const void *state)
{
    const mw *m = state;
    mw *c = mw_new(m->n, m->seats);
    if (c)
        memcpy(c->done, m->done, (size_t)m->n * sizeof *m->done);
    return c;
}

static json_t *save(const void *state)
{
    const mw *m = state;
    json_t *done = json_array();
    for (int k = 0; k < m->n; k++)
        json_array_append_new(done, json_integer(m->done[k]));
    return json_pack("{s:i, s:o}", "seats", m->seats, "done", done);
}

static void *load(const json_t *saved, engine_error *err)
{
    json_t *done = json_object_get(saved, "done");
    int seats = (int)json_integer_value(json_object_get(saved, "seats"));
    size_t n = json_array_size(done);
    mw *m = n && seats > 0 && seats <= 8 ? mw_new((int)n, seats) : NULL;
    if (!m) {
        engine_fail(err, ENGINE_EINTERNAL, "state", "saved manywin is corrupt");
        return NULL;
    }
    for (size_t k = 0; k < n; k++)
        m->done[k] = (uint32_t)json_integer_value(json_array_get(done, k));
    return m;
}

static int windows(const void *state, engine_window *out, int max)
{
    const mw *m = state;
    int n = 0;
    for (int k = 0; k < m->n; k++) {
        if (closed(m, k))
            continue;
        if (n < max) {
            snprintf(out[n].id, sizeof out[n].id, "w%03d", k);
            out[n].mode = k % 5 == 4 ? ENGINE_OPEN : ENGINE_SEALED;
            out[n].seats =
                window_seats(m, k) & (k % 5 == 4 ? ~m->done[k] : 0xffffffffu);
            out[n].submitted = 0;
        }
        n++;
    }
    return n;
}

/* The index of an open window "w<k>", or -1. */
static int window_index(const mw *m, const char *window)
{
    if (window[0] != 'w')
        return -1;
    int k = atoi(window + 1);
    return k >= 0 && k < m->n && !closed(m, k) ? k : -1;
}

static int check_order(const void *state, int seat, const char *window,
                       const json_t *order, engine_error *err)
{
    (void)seat;
    if (window_index(state, window) < 0 || json_object_size(order) != 0)
        return engine_fail(err, ENGINE_EINVALID, "", "an order is {}");
    return 0;
}

static json_t *default_order(const void *state, int seat, const char *window,
                             engine_rng *rng)
{
    (void)state, (void)seat, (void)window, (void)rng;
    return json_object();
}

static int resolve(void *state, engine_ctx *ctx, const char *window,
                   const json_t *const *orders, engine_error *err)
{
    mw *m = state;
    (void)orders;
    int k = window_index(m, window);
    if (k < 0)
        return engine_fail(err, ENGINE_ECONFLICT, "window", "not open");
    m->done[k] = window_seats(m, k);
    engine_ctx_log(ctx,
                   json_pack("{s:s, s:s}", "type", "closed", "window", window));
    return 0;
}

static int play(void *state, engine_ctx *ctx, int seat, const char *window,
                const json_t *payload, engine_error *err)
{
    mw *m = state;
    int k = window_index(m, window);
    if (k < 0 || k % 5 != 4 || (m->done[k] >> seat & 1))
        return engine_fail(err, ENGINE_ECONFLICT, "window", "not your turn");
    if (json_object_size(payload) != 0)
        return engine_fail(err, ENGINE_EINVALID, "", "a play is {}");
    m->done[k] |= 1u << seat;
    engine_ctx_log(ctx, json_pack("{s:s, s:s, s:i}", "type", "played", "window",
                                  window, "seat", seat));
    return 0;
}

static int timeout(void *state, engine_ctx *ctx, const char *window,
                   engine_error *err)
{
    mw *m = state;
    int k = window_index(m, window);
    if (k < 0)
        return engine_fail(err, ENGINE_ECONFLICT, "window", "not open");
    m->done[k] = window_seats(m, k);
    (void)ctx;
    return 0;
}

static json_t *view(const void *state, int seat)
{
    const mw *m = state;
    (void)seat;
    int open = 0;
    for (int k = 0; k < m->n; k++)
        open += !closed(m, k);
    return json_pack("{s:i}", "open", open);
}

static json_t *legal(const void *state, int seat, const char *window)
{
    (void)state, (void)seat, (void)window;
    return json_pack("{s:s, s:{s:s}, s:n}", "kind", "order", "shape", "type",
                     "object", "choices");
}

static json_t *bot(const void *state, int seat, const char *window,
                   const char *level, engine_rng *rng)
{
    (void)state, (void)seat, (void)window, (void)rng;
    return strcmp(level, "random") == 0 ? json_object() : NULL;
}

static int is_over(const void *state)
{
    const mw *m = state;
    for (int k = 0; k < m->n; k++)
        if (!closed(m, k))
            return 0;
    return 1;
}

static json_t *result(const void *state)
{
    return is_over(state) ? json_pack("{s:[], s:b}", "winners", "draw", 1)
                          : NULL;
}

const engine_ruleset manywin_ruleset = {
    .id = "manywin",
    .title = "Many windows (test)",
    .summary = "Dozens of windows open at once.",
    .min_seats = 1,
    .max_seats = 8,
    .options = manywin_options,
    .setup = setup,
    .destroy = destroy,
    .clone = clone,
    .save = save,
    .load = load,
    .windows = windows,
    .check_order = check_order,
    .default_order = default_order,
    .resolve = resolve,
    .play = play,
    .timeout = timeout,
    .view = view,
    .legal = legal,
    .bot = bot,
    .is_over = is_over,
    .result = result,
};

int test_rules_register(void)
{
    return engine_register_ruleset(&manywin_ruleset, NULL) == 0 &&
                   engine_register_ruleset(&bulk_ruleset, NULL) == 0 &&
                   engine_register_ruleset(&fog_ruleset, NULL) == 0
               ? 0
               : -1;
}

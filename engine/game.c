/*
 * game.c - a game's life apart from applying inputs: create, clone, free,
 * the windows open now, per-audience views, legal actions, bot actions, the
 * log, the result and accessors. engine_apply lives in apply.c and
 * save/load/hash in save.c.
 *
 * Hidden information is enforced here: a view or log read for one audience
 * never includes another seat's held orders or private log lines.
 */
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

/* ------------------------------------------------------------ internals -- */

engine_game *game_alloc(const engine_ruleset *rs, const char *id,
                        const json_t *options, int seats,
                        const uint8_t seed[ENGINE_SEED_BYTES])
{
    engine_game *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->rs = rs;
    g->seats = seats;
    g->id = strdup(id ? id : "");
    g->options = options ? json_deep_copy(options) : json_object();
    if (!g->id || !g->options)
        goto fail;
    memcpy(g->seed, seed, ENGINE_SEED_BYTES);
    engine_rng_init(&g->rng, seed, STREAM_GAME);
    g->touched = ENGINE_AUDIENCE_ALL;
    return g;
fail:
    engine_free(g);
    return NULL;
}

static void log_append(engine_game *g, int seat, uint32_t seats, json_t *entry)
{
    if (!entry) {
        g->oom = 1;
        return;
    }
    if (g->nlog == g->cap_log) {
        size_t cap = g->cap_log ? 2 * g->cap_log : 16;
        log_line *grown = realloc(g->log, cap * sizeof *grown);
        if (!grown) {
            json_decref(entry);
            g->oom = 1;
            return;
        }
        g->log = grown;
        g->cap_log = cap;
    }
    g->log[g->nlog].seat = seat;
    g->log[g->nlog].seats = seats;
    g->log[g->nlog].entry = entry;
    g->nlog++;
}

void game_log_append(engine_game *g, int seat, json_t *entry)
{
    log_append(g, seat, 0, entry);
}

void game_log_append_seats(engine_game *g, uint32_t seats, json_t *entry)
{
    log_append(g, ENGINE_PUBLIC, seats, entry);
}

void game_log_truncate(engine_game *g, size_t n)
{
    while (g->log && g->nlog > n)
        json_decref(g->log[--g->nlog].entry);
}

pending_order *game_pending_find(const engine_game *g, const char *window,
                                 int seat)
{
    for (size_t i = 0; i < g->npending; i++)
        if (g->pending[i].seat == seat &&
            strcmp(g->pending[i].window, window) == 0)
            return &g->pending[i];
    return NULL;
}

static void pending_remove_at(engine_game *g, size_t i)
{
    json_decref(g->pending[i].order);
    memmove(&g->pending[i], &g->pending[i + 1],
            (g->npending - i - 1) * sizeof *g->pending);
    g->npending--;
}

void game_pending_drop_window(engine_game *g, const char *window)
{
    for (size_t i = g->npending; i-- > 0;)
        if (strcmp(g->pending[i].window, window) == 0)
            pending_remove_at(g, i);
}

/* Fill `submitted` of sealed windows from the held orders. */
static void fill_submitted(const engine_game *g, engine_window *list, int n)
{
    for (int i = 0; i < n; i++) {
        list[i].submitted = 0;
        list[i].ready = 0;
        if (list[i].mode != ENGINE_SEALED) {
            list[i].parts = 0;
            list[i].ready_part = 0;
            continue;
        }
        list[i].parts = list[i].parts != 0;
        list[i].ready_part = list[i].parts && list[i].ready_part;
        for (size_t p = 0; p < g->npending; p++)
            if (strcmp(g->pending[p].window, list[i].id) == 0) {
                list[i].submitted |= 1u << g->pending[p].seat;
                if (list[i].ready_part &&
                    engine_order_is_ready(g->pending[p].order))
                    list[i].ready |= 1u << g->pending[p].seat;
            }
    }
}

/* Every window open now, however many, into a malloc'd array, `submitted`
 * filled for sealed ones. Returns the count (0 with *list NULL when none is
 * open) or -1 on OOM. */
int game_windows(const engine_game *g, engine_window **list)
{
    *list = NULL;
    if (engine_is_over(g))
        return 0;
    int cap = 8;
    for (;;) {
        /* zeroed: a ruleset may set only the fields it uses (parts...) */
        engine_window *buf = calloc((size_t)cap, sizeof *buf);
        if (!buf)
            return -1;
        int n = g->rs->windows(g->state, buf, cap - 1);
        n = n < 0 ? 0 : n;
        if (n <= cap - 1) {
            /* the core's priority window, if one is open, comes last */
            n += prio_window(g, &buf[n]);
            if (n == 0) {
                free(buf);
                return 0;
            }
            fill_submitted(g, buf, n);
            *list = buf;
            return n;
        }
        free(buf); /* more than we guessed: ask again with room for all */
        cap = n + 1;
    }
}

void game_pending_prune(engine_game *g)
{
    engine_window *list;
    if (g->npending == 0)
        return;
    int n = game_windows(g, &list);
    if (n < 0)
        return; /* keep them: dropping needs the list */
    for (size_t i = g->npending; i-- > 0;) {
        int open = 0;
        for (int w = 0; w < n && !open; w++)
            open = list[w].mode == ENGINE_SEALED &&
                   strcmp(list[w].id, g->pending[i].window) == 0;
        if (!open)
            pending_remove_at(g, i);
    }
    free(list);
}

/* ------------------------------------------------------- ctx for rulesets */

engine_rng *engine_ctx_rng(engine_ctx *ctx)
{
    return &ctx->g->rng;
}

int engine_ctx_seats(const engine_ctx *ctx)
{
    return ctx->g->seats;
}

void engine_ctx_log(engine_ctx *ctx, json_t *entry)
{
    game_log_append(ctx->g, ENGINE_PUBLIC, entry);
}

void engine_ctx_log_private(engine_ctx *ctx, int seat, json_t *entry)
{
    if (seat < 0 || seat >= ctx->g->seats) {
        json_decref(entry); /* no such audience: never make it public */
        return;
    }
    ctx->g->revealed = 1; /* a private line may show a seat something */
    game_log_append(ctx->g, seat, entry);
}

/* ------------------------------------------------------------ lifecycle -- */

engine_game *engine_create(const char *ruleset_id, const char *game_id,
                           const json_t *options, int seats,
                           const uint8_t seed[ENGINE_SEED_BYTES],
                           engine_error *err)
{
    engine_error e = {0};
    engine_game *g = NULL;
    const engine_ruleset *rs = NULL;

    if (!registry_ready()) {
        engine_fail(&e, ENGINE_EINTERNAL, "", "call engine_init() first");
        goto fail;
    }
    rs = engine_ruleset_find(ruleset_id);
    if (!rs) {
        engine_fail(&e, ENGINE_ENOTFOUND, "ruleset", "unknown ruleset \"%s\"",
                    ruleset_id ? ruleset_id : "");
        goto fail;
    }
    if (!seed) {
        engine_fail(&e, ENGINE_EINVALID, "seed", "a game needs a seed");
        goto fail;
    }
    if (engine_check_options(rs, options, seats, &e) != 0)
        goto fail;
    g = game_alloc(rs, game_id, options, seats, seed);
    if (!g) {
        engine_fail(&e, ENGINE_EINTERNAL, "", "out of memory");
        goto fail;
    }
    engine_ctx ctx = {g};
    g->state = rs->setup(&ctx, g->options, seats, &e);
    if (!g->state || g->oom || prio_settle(g, &e) != 0) {
        if (e.code == 0 || g->oom)
            engine_fail(&e, ENGINE_EINTERNAL, "", "setup failed");
        goto fail;
    }
    g->touched = ENGINE_AUDIENCE_ALL;
    return g;
fail:
    engine_free(g);
    if (e.code == 0)
        engine_fail(&e, ENGINE_EINTERNAL, "",
                    "ruleset failed without a reason");
    if (err)
        *err = e;
    return NULL;
}

void engine_free(engine_game *g)
{
    if (!g)
        return;
    prio_free(g->prio, g->rs);
    if (g->state)
        g->rs->destroy(g->state);
    for (size_t i = 0; g->pending && i < g->npending; i++)
        json_decref(g->pending[i].order);
    free(g->pending);
    game_log_truncate(g, 0);
    free(g->log);
    json_decref(g->options);
    free(g->id);
    free(g);
}

engine_game *engine_clone(const engine_game *g)
{
    engine_game *c = game_alloc(g->rs, g->id, g->options, g->seats, g->seed);
    if (!c)
        return NULL;
    c->rng = g->rng;
    c->inputs = g->inputs;
    c->aborted = g->aborted;
    c->touched = g->touched;
    c->state = g->rs->clone(g->state);
    if (!c->state)
        goto fail;
    if (g->prio && !(c->prio = prio_clone(g->prio, g->rs)))
        goto fail;
    if (g->npending) {
        c->pending = malloc(g->npending * sizeof *c->pending);
        if (!c->pending)
            goto fail;
        c->cap_pending = g->npending;
        for (size_t i = 0; i < g->npending; i++) {
            c->pending[i] = g->pending[i];
            c->pending[i].order = json_deep_copy(g->pending[i].order);
            if (!c->pending[i].order)
                goto fail;
            c->npending++;
        }
    }
    if (g->nlog) {
        c->log = malloc(g->nlog * sizeof *c->log);
        if (!c->log)
            goto fail;
        c->cap_log = g->nlog;
        /* Entries are never changed after they are appended, so the copy
         * shares them (jansson's reference counts are atomic). */
        for (size_t i = 0; i < g->nlog; i++) {
            c->log[i].seat = g->log[i].seat;
            c->log[i].seats = g->log[i].seats;
            c->log[i].entry = json_incref(g->log[i].entry);
        }
        c->nlog = g->nlog;
    }
    return c;
fail:
    engine_free(c);
    return NULL;
}

/* -------------------------------------------------------------- queries -- */

int engine_windows(const engine_game *g, engine_window *out, int max)
{
    engine_window *list;
    int n = game_windows(g, &list);
    if (n < 0)
        return 0;
    for (int i = 0; i < n && i < max; i++)
        out[i] = list[i];
    free(list);
    return n;
}

engine_window *engine_windows_all(const engine_game *g, int *n)
{
    engine_window *list;
    int got = game_windows(g, &list);
    *n = got > 0 ? got : 0;
    return list;
}

const json_t *engine_held_order(const engine_game *g, const char *window,
                                int seat)
{
    const pending_order *p = window ? game_pending_find(g, window, seat) : NULL;
    return p ? p->order : NULL;
}

json_t *engine_view(const engine_game *g, int seat)
{
    if (seat < 0 || seat >= g->seats)
        seat = ENGINE_PUBLIC;
    json_t *v = g->rs->view(g->state, seat);
    if (!json_is_object(v)) {
        json_decref(v);
        return NULL;
    }
    json_object_set_new(v, "ruleset", json_string(g->rs->id));
    json_object_set_new(v, "seats", json_integer(g->seats));
    json_object_set_new(v, "inputs", json_integer((json_int_t)g->inputs));
    json_object_set_new(v, "over", json_boolean(engine_is_over(g)));
    if (seat != ENGINE_PUBLIC) {
        json_t *mine = json_object();
        for (size_t i = 0; mine && i < g->npending; i++)
            if (g->pending[i].seat == seat)
                json_object_set_new(mine, g->pending[i].window,
                                    json_deep_copy(g->pending[i].order));
        json_object_set_new(v, "my_orders", mine);
    }
    prio_view(g, seat, v);
    return v;
}

json_t *engine_legal(const engine_game *g, int seat)
{
    engine_window *list = NULL;
    json_t *res = json_object(), *arr = json_array();
    json_object_set_new(res, "windows", arr);
    if (!res || !arr)
        goto fail;
    if (seat < 0 || seat >= g->seats)
        return res;
    int n = game_windows(g, &list);
    if (n < 0)
        goto fail;
    for (int i = 0; i < n; i++) {
        if (!(list[i].seats & (1u << seat)))
            continue;
        json_t *l = prio_is_window(g, list[i].id)
                        ? prio_legal(g, seat)
                        : g->rs->legal(g->state, seat, list[i].id);
        if (!json_is_object(l)) {
            json_decref(l);
            continue;
        }
        json_object_set_new(l, "window", json_string(list[i].id));
        json_object_set_new(
            l, "mode",
            json_string(list[i].mode == ENGINE_SEALED ? "sealed" : "open"));
        if (list[i].parts)
            json_object_set_new(l, "parts", json_true());
        if (list[i].ready_part)
            json_object_set_new(l, "ready_part", json_true());
        json_array_append_new(arr, l);
    }
    free(list);
    return res;
fail:
    json_decref(res);
    return NULL;
}

int engine_bot_action(const engine_game *g, int seat, const char *level,
                      engine_rng *rng, engine_input *out, engine_error *err)
{
    engine_window *list;
    int rc = 1; /* not yet decided */
    if (engine_is_over(g))
        return engine_fail(err, ENGINE_EOVER, "", "the game is over");
    if (seat < 0 || seat >= g->seats)
        return engine_fail(err, ENGINE_EFORBIDDEN, "seat", "no seat %d", seat);
    int n = game_windows(g, &list);
    if (n < 0)
        return engine_fail(err, ENGINE_EINTERNAL, "", "out of memory");
    for (int i = 0; i < n && rc > 0; i++) {
        const engine_window *w = &list[i];
        if (!(w->seats & (1u << seat)))
            continue;
        if (w->mode == ENGINE_SEALED &&
            (w->ready_part ? (w->ready & (1u << seat)) != 0
                           : game_pending_find(g, w->id, seat) != NULL))
            continue; /* already ordered; a bot does not second-guess */
        json_t *payload = prio_is_window(g, w->id)
                              ? prio_bot(g, seat, level ? level : "random", rng)
                              : g->rs->bot(g->state, seat, w->id,
                                           level ? level : "random", rng);
        if (!payload) {
            rc = engine_fail(err, ENGINE_EINVALID, "level",
                             "%s has no bot level \"%s\"", g->rs->title,
                             level ? level : "random");
            continue;
        }
        memset(out, 0, sizeof *out);
        out->seat = seat;
        out->kind = w->mode == ENGINE_SEALED ? ENGINE_ORDER : ENGINE_PLAY;
        memcpy(out->window_buf, w->id, sizeof out->window_buf);
        out->window_buf[sizeof out->window_buf - 1] = '\0';
        out->window = out->window_buf;
        if (w->ready_part && json_is_object(payload))
            json_object_set_new(payload, ENGINE_READY_PART, json_true());
        out->payload = payload;
        if (out->kind == ENGINE_ORDER)
            engine_rng_bytes(rng, out->nonce, ENGINE_NONCE_BYTES);
        rc = 0;
    }
    free(list);
    if (rc > 0)
        rc = engine_fail(err, ENGINE_ECONFLICT, "", "seat %d has nothing to do",
                         seat);
    return rc;
}

json_t *engine_log_since(const engine_game *g, int seat, size_t after)
{
    return engine_log_page(g, seat, after, 0, NULL);
}

json_t *engine_log_page(const engine_game *g, int seat, size_t after,
                        size_t max, int *more)
{
    json_t *arr = json_array();
    if (more)
        *more = 0;
    if (seat < 0 || seat >= g->seats)
        seat = ENGINE_PUBLIC;
    for (size_t i = after; arr && i < g->nlog; i++) {
        const log_line *l = &g->log[i];
        if (l->seat != ENGINE_PUBLIC && l->seat != seat)
            continue;
        if (l->seats && (seat < 0 || !(l->seats & (1u << seat))))
            continue; /* a seat set: only its seats, never spectators */
        if (max && json_array_size(arr) == max) {
            if (more)
                *more = 1; /* one more this audience may see */
            break;
        }
        json_t *e = json_object();
        json_object_set_new(e, "seq", json_integer((json_int_t)i + 1));
        json_object_set_new(e, "seat",
                            l->seat == ENGINE_PUBLIC ? json_null()
                                                     : json_integer(l->seat));
        if (l->seats)
            json_object_set_new(e, "seats", game_seat_list(l->seats));
        json_object_set_new(e, "entry", json_deep_copy(l->entry));
        if (json_array_append_new(arr, e) != 0) {
            json_decref(arr);
            return NULL;
        }
    }
    return arr;
}

size_t engine_log_length(const engine_game *g)
{
    return g->nlog;
}

int engine_is_over(const engine_game *g)
{
    return g->aborted || g->rs->is_over(g->state);
}

int engine_talk_closed(const engine_game *g, int seat, char *why, size_t n)
{
    if (n)
        why[0] = '\0';
    if (!g->rs->talk_closed || seat < 0 || seat >= g->seats || g->aborted ||
        g->rs->is_over(g->state))
        return 0;
    return g->rs->talk_closed(g->state, seat, why, n) ? 1 : 0;
}

int engine_is_aborted(const engine_game *g)
{
    return g->aborted;
}

json_t *engine_result(const engine_game *g)
{
    if (g->aborted)
        return json_pack("{s:b}", "aborted", 1);
    return g->rs->is_over(g->state) ? g->rs->result(g->state) : NULL;
}

/* ------------------------------------------------------------ accessors -- */

const engine_ruleset *engine_game_ruleset(const engine_game *g)
{
    return g->rs;
}

const char *engine_game_id(const engine_game *g)
{
    return g->id;
}

int engine_game_seats(const engine_game *g)
{
    return g->seats;
}

const json_t *engine_game_options(const engine_game *g)
{
    return g->options;
}

uint64_t engine_game_inputs(const engine_game *g)
{
    return g->inputs;
}

const uint8_t *engine_game_seed(const engine_game *g)
{
    return g->seed;
}

void engine_seed_sha256_hex(const engine_game *g, char out[65])
{
    uint8_t h[ENGINE_HASH_BYTES];
    engine_sha256(g->seed, ENGINE_SEED_BYTES, h);
    engine_hex(h, ENGINE_HASH_BYTES, out);
}

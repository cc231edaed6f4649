/*
 * spectate.c - the spectator delay (see spectate.h): which version
 * spectators may see, and the game rebuilt at that version from the store.
 */
#include "server/game/spectate.h"

#include "server/runtime/log.h"

#include <stdlib.h>
#include <string.h>

int spectate_delayed(const store_game *m)
{
    return m && (m->delay_versions > 0 || m->delay_seconds > 0);
}

int spectate_visible(PGconn *c, const store_game *m, uint64_t live,
                     uint64_t *visible)
{
    uint64_t cap = live;
    if (strcmp(m->status, "running") == 0)
        cap = live > (uint64_t)m->delay_versions
                  ? live - (uint64_t)m->delay_versions
                  : 0;
    *visible = cap;
    if (m->delay_seconds <= 0 || cap == 0)
        return STORE_OK;
    return store_seq_older_than(c, m->game_id, cap, m->delay_seconds, visible);
}

/* The game at seq `at`: the latest snapshot up to it, then the inputs.
 * *inputs and *n receive the inputs after the snapshot (all of them, for the
 * caller to go on with), *next the index of the first not applied. */
static srv_kind rebuild_at(PGconn *c, const store_game *m, uint64_t at,
                           engine_game **g, store_input **inputs, size_t *n,
                           size_t *next)
{
    json_t *snap = NULL;
    uint64_t version = 0;
    engine_error err = {0};
    *g = NULL;
    *inputs = NULL;
    *n = *next = 0;
    if (store_load_snapshot_upto(c, m->game_id, at, &snap, &version) !=
        STORE_OK)
        return SRV_UNAVAILABLE;
    if (snap)
        *g = engine_load(snap, &err);
    json_decref(snap);
    if (!*g) {
        version = 0;
        *g = engine_create(m->ruleset, m->game_id, m->options, m->seats,
                           m->seed, &err);
    }
    if (!*g)
        return SRV_INTERNAL;
    if (store_load_inputs(c, m->game_id, version, inputs, n) != STORE_OK) {
        engine_free(*g);
        *g = NULL;
        return SRV_UNAVAILABLE;
    }
    return SRV_OK;
}

/* Apply stored input s to g. 0, or -1 when refused (corruption). */
static int apply_one(engine_game *g, const store_input *s)
{
    engine_input e;
    engine_error err = {0};
    memset(&e, 0, sizeof e);
    e.seat = s->seat;
    e.kind = s->kind;
    e.window = s->window[0] ? s->window : NULL;
    e.payload = s->payload;
    if (s->has_nonce)
        memcpy(e.nonce, s->nonce, ENGINE_NONCE_BYTES);
    if (engine_apply(g, &e, NULL, &err) == 0)
        return 0;
    log_error(
        "spectate_replay_refused",
        json_pack("{sI ss}", "seq", (json_int_t)s->seq, "error", err.msg));
    return -1;
}

/* Call step for g at version v (age: seconds since it was recorded). */
static int call_step(const store_game *m, engine_game *g, uint64_t v,
                     double age, spectate_step_fn step, void *ctx)
{
    store_game shown = *m; /* shallow: options stay m's */
    if (!engine_is_over(g))
        snprintf(shown.status, sizeof shown.status, "running");
    actor_view view = {g, &shown, v, NULL};
    return step(&view, age, ctx);
}

srv_kind spectate_replay(PGconn *c, const store_game *m, uint64_t live, int all,
                         spectate_step_fn step, void *ctx)
{
    uint64_t visible = 0;
    if (spectate_visible(c, m, live, &visible) != STORE_OK)
        return SRV_UNAVAILABLE;
    engine_game *g = NULL;
    store_input *in = NULL;
    size_t n = 0, i = 0;
    uint64_t last = all ? live : visible;
    double *ages = calloc((size_t)(last - visible) + 1, sizeof *ages);
    srv_kind k =
        ages ? rebuild_at(c, m, visible, &g, &in, &n, &i) : SRV_INTERNAL;
    if (k == SRV_OK && last > visible &&
        store_input_ages(c, m->game_id, visible, last, ages) != STORE_OK)
        k = SRV_UNAVAILABLE;
    uint64_t version = g ? engine_game_inputs(g) : 0;
    for (; k == SRV_OK && i < n && in[i].seq <= visible; i++)
        if (in[i].seq != version + 1 || apply_one(g, &in[i]) != 0)
            k = SRV_INTERNAL;
        else
            version = in[i].seq;
    if (k == SRV_OK && version != visible)
        k = SRV_INTERNAL; /* the store lacks inputs it counted */
    int stop = k == SRV_OK ? call_step(m, g, visible, 0, step, ctx) : 1;
    for (; !stop && k == SRV_OK && i < n && in[i].seq <= last; i++) {
        if (in[i].seq != version + 1 || apply_one(g, &in[i]) != 0) {
            k = SRV_INTERNAL;
            break;
        }
        version = in[i].seq;
        stop = call_step(m, g, version, ages[version - visible - 1], step, ctx);
    }
    store_inputs_free(in, n);
    engine_free(g);
    free(ages);
    return k;
}

typedef struct read_ctx {
    actor_read_fn fn;
    void *ctx;
} read_ctx;

static int read_step(const actor_view *v, double age, void *ctx)
{
    read_ctx *x = ctx;
    (void)age;
    x->fn(v, x->ctx);
    return 1;
}

srv_kind spectate_read(db_pool *db, const store_game *m, uint64_t live,
                       actor_read_fn fn, void *ctx)
{
    PGconn *c = db_acquire(db, 2000);
    if (!c)
        return SRV_UNAVAILABLE;
    read_ctx x = {fn, ctx};
    srv_kind k = spectate_replay(c, m, live, 0, read_step, &x);
    db_release(db, c, k == SRV_UNAVAILABLE && db_conn_broken(c));
    return k;
}

srv_kind spectate_read_at(PGconn *c, const store_game *m, uint64_t at,
                          actor_read_fn fn, void *ctx)
{
    engine_game *g = NULL;
    store_input *in = NULL;
    size_t n = 0, i = 0;
    srv_kind k = rebuild_at(c, m, at, &g, &in, &n, &i);
    uint64_t version = g ? engine_game_inputs(g) : 0;
    for (; k == SRV_OK && i < n && in[i].seq <= at; i++)
        if (in[i].seq != version + 1 || apply_one(g, &in[i]) != 0)
            k = SRV_INTERNAL;
        else
            version = in[i].seq;
    if (k == SRV_OK && version != at)
        k = SRV_INTERNAL; /* the store lacks inputs it counted */
    read_ctx x = {fn, ctx};
    if (k == SRV_OK)
        call_step(m, g, at, 0, read_step, &x);
    store_inputs_free(in, n);
    engine_free(g);
    return k;
}

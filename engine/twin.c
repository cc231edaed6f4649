/*
 * twin.c - twin worlds: a game that looks the same to one seat but differs
 * in what that seat may not know (engine_twin in engine.h).
 *
 * The ruleset's twin hook varies the ruleset state (other seats' hands, the
 * deck order, unexplored space); the core varies what it holds itself:
 * other seats' held sealed orders in windows still open, each replaced by
 * a random legal order of that seat's (the ruleset's "random" bot on the
 * twin state, kept only when check_order accepts it) with a fresh nonce;
 * with ENGINE_TWIN_KEEP_ORDERS only those the twin state makes illegal (an
 * order paying with a card the twin moved to the deck). No twin when such
 * an order can be neither kept nor replaced.
 * Which seats hold an order, and which are ready, stays as it was: windows
 * show those to everyone. The game's RNG gets a new key at the same
 * position: the seed is secret until the game ends, so a refusal that reads
 * the numbers to come leaks too. The seat's own held orders, the log and
 * the priority stack (hidden stack parts included) are copied unchanged.
 *
 * Twins exist for tests: a refusal, a condition or the seat's gain from an
 * input must be the same in the game and in every twin of it for that seat
 * (tests/unit/test_twin.c).
 */
#include "engine_internal.h"

#include <stdlib.h>
#include <string.h>

/* The window with id `id` in list, or NULL. */
static const engine_window *find_window(const engine_window *list, int n,
                                        const char *id)
{
    for (int i = 0; i < n; i++)
        if (strcmp(list[i].id, id) == 0)
            return &list[i];
    return NULL;
}

/* Whether p's held order is still legal in twin game c. */
static int order_stands(engine_game *c, const engine_window *w,
                        const pending_order *p)
{
    json_t *o = json_copy(p->order);
    if (!o)
        return 0;
    if (w->ready_part)
        json_object_del(o, ENGINE_READY_PART);
    engine_error e = {0};
    int ok = c->rs->check_order &&
             c->rs->check_order(c->state, p->seat, w->id, o, &e) == 0;
    json_decref(o);
    return ok;
}

/* A random legal order for p's seat in its window of twin game c, or NULL
 * (keep the held one). ready mirrors whether the held one was ready. */
static json_t *other_order(engine_game *c, const engine_window *w,
                           const pending_order *p, engine_rng *rng)
{
    const engine_ruleset *rs = c->rs;
    if (!rs->bot || !rs->check_order)
        return NULL;
    json_t *o = rs->bot(c->state, p->seat, w->id, "random", rng);
    if (!json_is_object(o)) {
        json_decref(o);
        return NULL;
    }
    if (w->ready_part)
        json_object_del(o, ENGINE_READY_PART);
    engine_error e = {0};
    if (rs->check_order(c->state, p->seat, w->id, o, &e) != 0) {
        json_decref(o);
        return NULL;
    }
    if (w->ready_part && engine_order_is_ready(p->order))
        json_object_set_new(o, ENGINE_READY_PART, json_true());
    return o;
}

engine_game *engine_twin(const engine_game *g, int seat, engine_rng *rng,
                         unsigned flags)
{
    if (!g || !rng || seat < 0 || seat >= g->seats || !g->rs->twin)
        return NULL;
    void *state = g->rs->twin(g->state, seat, rng);
    if (!state)
        return NULL;
    engine_game *c = engine_clone(g);
    if (!c) {
        g->rs->destroy(state);
        return NULL;
    }
    g->rs->destroy(c->state);
    c->state = state;
    /* The numbers to come are as unknown to the seat as the seed they come
     * from: a new key, the same position. */
    engine_rng_bytes(rng, c->rng.key, sizeof c->rng.key);
    if (!c->npending)
        return c;
    engine_window *list = NULL;
    int n = game_windows(c, &list), ok = 1;
    for (size_t i = 0; ok && n > 0 && i < c->npending; i++) {
        pending_order *p = &c->pending[i];
        const engine_window *w = find_window(list, n, p->window);
        if (p->seat == seat || !w)
            continue;
        if (flags & ENGINE_TWIN_KEEP_ORDERS && order_stands(c, w, p))
            continue;
        json_t *o = other_order(c, w, p, rng);
        if (!o) {
            /* No replacement: the held order must stand in the twin. */
            ok = order_stands(c, w, p);
            continue;
        }
        json_decref(p->order);
        p->order = o;
        engine_rng_bytes(rng, p->nonce, sizeof p->nonce);
    }
    free(list);
    if (!ok) {
        engine_free(c);
        return NULL;
    }
    return c;
}

/*
 * apply.c - engine_apply: the one way a game changes. Routes each input kind
 * (order, play, timeout, system) to the core's sealed-window bookkeeping or
 * to the ruleset, and keeps a failed input from changing anything.
 *
 * Sealed windows are the core's job: it checks who may order where, holds
 * orders (a later one replaces an earlier one), withdraws them, and when the
 * window locks (every seat in it has ordered, or a timeout fills the rest
 * with default orders) logs the reveal and hands all orders to the
 * ruleset's resolve. Until then an order's content lives only in the held
 * list, which nothing but its author's view reads.
 *
 * Atomicity: everything is validated before anything is changed. Around
 * calls that let the ruleset mutate, the RNG and the log length are saved
 * and restored if the call fails (the ruleset itself validates first, by
 * contract). Out-of-memory in the middle of a ruleset mutation is the one
 * case that cannot be undone: it returns ENGINE_EINTERNAL and the caller
 * should discard the game and rebuild it from its inputs.
 */
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

typedef struct undo {
    engine_rng rng;
    size_t nlog;
} undo;

static void begin(engine_game *g, undo *u)
{
    u->rng = g->rng;
    u->nlog = g->nlog;
    g->oom = 0;
}

static int finish(engine_game *g, const undo *u, int rc, engine_error *e)
{
    if (rc == 0 && !g->ruleset_marked)
        game_touch(g, ENGINE_AUDIENCE_ALL); /* the ruleset did not say */
    if (rc == 0 && !g->oom)
        rc = prio_settle(g, e); /* triggers, automatic passes */
    if (rc == 0 && g->oom)
        rc = engine_fail(e, ENGINE_EINTERNAL, "", "out of memory");
    if (rc != 0) {
        if (e->code == 0)
            engine_fail(e, rc < 0 ? rc : ENGINE_EINTERNAL, "",
                        "the ruleset refused without a reason");
        rc = e->code;
        g->rng = u->rng;
        game_log_truncate(g, u->nlog);
    }
    return rc;
}

/* Find open window id; 1 if found (copied to *out), 0 if not, -1 on OOM. */
static int find_window(const engine_game *g, const char *id, engine_window *out)
{
    engine_window *list;
    int n = game_windows(g, &list);
    if (n < 0)
        return -1;
    int found = 0;
    for (int i = 0; i < n && !found; i++)
        if (strcmp(list[i].id, id) == 0) {
            *out = list[i];
            found = 1;
        }
    free(list);
    return found;
}

/* Common checks for an input aimed at window in->window: it is open and has
 * the expected mode. Fills *w. */
static int open_window(const engine_game *g, const engine_input *in,
                       engine_window_mode mode, engine_window *w,
                       engine_error *e)
{
    if (!in->window || !in->window[0])
        return engine_fail(e, ENGINE_ECONFLICT, "window", "a %s needs a window",
                           engine_input_kind_name(in->kind));
    int found = find_window(g, in->window, w);
    if (found < 0)
        return engine_fail(e, ENGINE_EINTERNAL, "", "out of memory");
    if (!found)
        return engine_fail(e, ENGINE_ECONFLICT, "window",
                           "window \"%.48s\" is not open", in->window);
    if (w->mode != mode)
        return engine_fail(e, ENGINE_ECONFLICT, "window",
                           mode == ENGINE_SEALED
                               ? "window \"%.48s\" takes plays, not orders"
                               : "window \"%.48s\" takes sealed orders, not "
                                 "plays",
                           in->window);
    return 0;
}

static int seat_ok(const engine_game *g, int seat)
{
    return seat >= 0 && seat < g->seats;
}

static json_t *nonce_json(const uint8_t nonce[ENGINE_NONCE_BYTES])
{
    char hex[2 * ENGINE_NONCE_BYTES + 1];
    engine_hex(nonce, ENGINE_NONCE_BYTES, hex);
    return json_string(hex);
}

int engine_order_is_ready(const json_t *order)
{
    return json_is_object(order) &&
           json_is_true(json_object_get(order, ENGINE_READY_PART));
}

/* What the ruleset sees of an order (a NEW reference, NULL on OOM): in a
 * ready_part window a copy without the core's "ready" member. */
static json_t *ruleset_order(const engine_window *w, const json_t *order)
{
    if (!w->ready_part || !json_object_get(order, ENGINE_READY_PART))
        return json_incref((json_t *)order);
    json_t *copy = json_copy((json_t *)order);
    if (copy)
        json_object_del(copy, ENGINE_READY_PART);
    return copy;
}

/* The window locked: reveal every order and let the ruleset resolve.
 * orders/nonces are indexed by seat (NULL for seats not in the window);
 * defaults has a bit for each seat whose order came from a timeout. */
static int lock_window(engine_game *g, const engine_window *w,
                       const json_t *const *orders,
                       const uint8_t *const *nonces, uint32_t defaults,
                       engine_error *e)
{
    const engine_ruleset *rs = g->rs;
    engine_ctx ctx = {g};
    json_t *seen[ENGINE_MAX_SEATS] = {0}; /* what the ruleset sees */
    for (int s = 0; s < g->seats; s++)
        if (orders[s] && !(seen[s] = ruleset_order(w, orders[s])))
            g->oom = 1;
    json_t *reveal = json_object(), *list = json_array();
    json_object_set_new(reveal, "type", json_string("reveal"));
    json_object_set_new(reveal, "window", json_string(w->id));
    json_object_set_new(reveal, "orders", list);
    for (int s = 0; s < g->seats; s++) {
        if (!orders[s])
            continue;
        json_t *pub = !seen[s] ? NULL
                      : rs->public_order
                          ? rs->public_order(g->state, s, w->id, seen[s])
                          : json_deep_copy(orders[s]);
        json_t *item = json_object();
        json_object_set_new(item, "seat", json_integer(s));
        json_object_set_new(item, "order", pub ? pub : json_null());
        json_object_set_new(item, "nonce", nonce_json(nonces[s]));
        if (defaults & (1u << s))
            json_object_set_new(item, "default", json_true());
        if (json_array_append_new(list, item) != 0 || !pub)
            g->oom = 1;
    }
    game_log_append(g, ENGINE_PUBLIC, reveal);
    for (int s = 0; s < g->seats; s++) {
        if (!orders[s])
            continue;
        engine_receipt r;
        engine_receipt_compute(g->id, w->id, s, orders[s], nonces[s], &r);
        json_t *mine = json_object();
        json_object_set_new(mine, "type", json_string("your_order"));
        json_object_set_new(mine, "window", json_string(w->id));
        json_object_set_new(mine, "order", json_deep_copy(orders[s]));
        json_object_set_new(mine, "nonce", nonce_json(nonces[s]));
        json_object_set_new(mine, "receipt", json_string(r.hex));
        game_log_append(g, s, mine);
    }
    int rc = g->oom ? engine_fail(e, ENGINE_EINTERNAL, "", "out of memory")
                    : rs->resolve(g->state, &ctx, w->id,
                                  (const json_t *const *)seen, e);
    for (int s = 0; s < g->seats; s++)
        json_decref(seen[s]);
    return rc;
}

/* Make room for one more held order. */
static int pending_reserve(engine_game *g)
{
    if (g->npending < g->cap_pending)
        return 0;
    size_t cap = g->cap_pending ? 2 * g->cap_pending : 8;
    pending_order *grown = realloc(g->pending, cap * sizeof *grown);
    if (!grown)
        return -1;
    g->pending = grown;
    g->cap_pending = cap;
    return 0;
}

static json_t *seat_entry(const char *type, const char *window, int seat)
{
    json_t *e = json_object();
    json_object_set_new(e, "type", json_string(type));
    json_object_set_new(e, "window", json_string(window));
    json_object_set_new(e, "seat", json_integer(seat));
    return e;
}

/* In a ready_part window "ready" may only be true (a part withdrawn is
 * deleted, not set false); elsewhere it is the ruleset's to judge. */
static int check_ready_member(const engine_window *w, const json_t *order,
                              engine_error *e)
{
    const json_t *r = json_object_get(order, ENGINE_READY_PART);
    if (!w->ready_part || !r || json_is_true(r))
        return 0;
    return engine_fail(e, ENGINE_EINVALID, ENGINE_READY_PART,
                       "the part \"ready\" can only be true; delete it to "
                       "take the order back for editing");
}

/* Does seat's order, added to those held, lock window w? Every seat of w
 * must hold one, and in a ready_part window every one must be ready. */
static int locks_now(const engine_window *w, int seat, const json_t *order)
{
    uint32_t me = 1u << seat;
    if (!w->ready_part)
        return (w->submitted | me) == w->seats;
    uint32_t ready = w->ready & ~me;
    if (engine_order_is_ready(order))
        ready |= me;
    return ready == w->seats;
}

static int apply_order(engine_game *g, const engine_input *in,
                       engine_receipt *receipt, engine_error *e)
{
    const engine_ruleset *rs = g->rs;
    engine_window w = {0};
    json_t *copy = NULL;
    int rc, seat = in->seat;

    if (!seat_ok(g, seat))
        return engine_fail(e, ENGINE_EFORBIDDEN, "seat",
                           "only a seated player can give orders");
    if ((rc = open_window(g, in, ENGINE_SEALED, &w, e)) != 0)
        return rc;
    if (!(w.seats & (1u << seat)))
        return engine_fail(e, ENGINE_EFORBIDDEN, "window",
                           "seat %d gives no order in window \"%s\"", seat,
                           w.id);
    if (!json_is_object(in->payload))
        return engine_fail(e, ENGINE_EINVALID, "",
                           "an order must be a JSON object");
    if (!rs->check_order)
        return engine_fail(e, ENGINE_EINTERNAL, "", "%s cannot check orders",
                           rs->title);
    if ((rc = check_ready_member(&w, in->payload, e)) != 0)
        return rc;
    json_t *seen = ruleset_order(&w, in->payload);
    if (!seen)
        return engine_fail(e, ENGINE_EINTERNAL, "", "out of memory");
    rc = rs->check_order(g->state, seat, w.id, seen, e);
    json_decref(seen);
    if (rc != 0)
        return e->code ? e->code
                       : engine_fail(e, ENGINE_EINVALID, "", "illegal order");

    copy = json_deep_copy(in->payload);
    if (!copy || pending_reserve(g) != 0) {
        json_decref(copy);
        return engine_fail(e, ENGINE_EINTERNAL, "", "out of memory");
    }
    if (receipt)
        engine_receipt_compute(g->id, w.id, seat, copy, in->nonce, receipt);

    if (locks_now(&w, seat, in->payload)) {
        const json_t *orders[ENGINE_MAX_SEATS] = {0};
        const uint8_t *nonces[ENGINE_MAX_SEATS] = {0};
        for (int s = 0; s < g->seats; s++) {
            if (s == seat) {
                orders[s] = copy;
                nonces[s] = in->nonce;
            } else if (w.seats & (1u << s)) {
                pending_order *p = game_pending_find(g, w.id, s);
                orders[s] = p->order;
                nonces[s] = p->nonce;
            }
        }
        undo u;
        begin(g, &u);
        rc = finish(g, &u, lock_window(g, &w, orders, nonces, 0, e), e);
        json_decref(copy);
        if (rc == 0)
            game_pending_drop_window(g, w.id);
        return rc;
    }

    /* Not yet locking: hold it, replacing an earlier order of this seat. */
    pending_order *p = game_pending_find(g, w.id, seat);
    size_t nlog = g->nlog;
    g->oom = 0;
    game_touch(g, 1u << seat); /* its "my_orders" */
    game_log_append(g, ENGINE_PUBLIC,
                    seat_entry(w.ready_part && engine_order_is_ready(copy)
                                   ? "ready"
                                   : "submitted",
                               w.id, seat));
    if (g->oom) {
        game_log_truncate(g, nlog);
        json_decref(copy);
        return engine_fail(e, ENGINE_EINTERNAL, "", "out of memory");
    }
    if (p) {
        json_decref(p->order);
    } else {
        p = &g->pending[g->npending++];
        memcpy(p->window, w.id, sizeof p->window);
        p->seat = seat;
    }
    p->order = copy;
    memcpy(p->nonce, in->nonce, ENGINE_NONCE_BYTES);
    return 0;
}

static int apply_play(engine_game *g, const engine_input *in, engine_error *e)
{
    engine_window w = {0};
    json_t *stripped = NULL;
    const json_t *play = in->payload;
    int rc, seat = in->seat;

    if (!seat_ok(g, seat))
        return engine_fail(e, ENGINE_EFORBIDDEN, "seat",
                           "only a seated player can play");
    if ((rc = open_window(g, in, ENGINE_OPEN, &w, e)) != 0)
        return rc;
    if (!(w.seats & (1u << seat)) && prio_is_window(g, w.id))
        return engine_fail(e, ENGINE_ECONFLICT, "window",
                           "seat %d does not hold priority in window \"%s\" "
                           "(seat %d does)",
                           seat, w.id, g->prio->cur.holder);
    if (!(w.seats & (1u << seat)))
        return engine_fail(e, ENGINE_ECONFLICT, "window",
                           "it is not seat %d's turn in window \"%s\"", seat,
                           w.id);
    if (!json_is_object(play))
        return engine_fail(e, ENGINE_EINVALID, "",
                           "a play must be a JSON object");
    const json_t *wfield = json_object_get(play, "window");
    if (wfield) {
        if (!json_is_string(wfield) ||
            strcmp(json_string_value(wfield), w.id) != 0)
            return engine_fail(e, ENGINE_EINVALID, "window",
                               "the play's window does not match \"%s\"", w.id);
        stripped = json_copy((json_t *)play);
        if (!stripped)
            return engine_fail(e, ENGINE_EINTERNAL, "", "out of memory");
        json_object_del(stripped, "window");
        play = stripped;
    }
    engine_ctx ctx = {g};
    undo u;
    begin(g, &u);
    rc = prio_is_window(g, w.id)
             ? prio_play(g, seat, play, e)
             : g->rs->play(g->state, &ctx, seat, w.id, play, e);
    rc = finish(g, &u, rc, e);
    json_decref(stripped);
    return rc;
}

static int apply_timeout(engine_game *g, const engine_input *in,
                         engine_error *e)
{
    const engine_ruleset *rs = g->rs;
    engine_window w = {0};
    int rc;
    undo u;

    if (!in->window || !in->window[0])
        return engine_fail(e, ENGINE_ECONFLICT, "window",
                           "a timeout needs a window");
    rc = find_window(g, in->window, &w);
    if (rc <= 0)
        return rc < 0 ? engine_fail(e, ENGINE_EINTERNAL, "", "out of memory")
                      : engine_fail(e, ENGINE_ECONFLICT, "window",
                                    "window \"%.48s\" is not open", in->window);
    rc = 0;

    uint32_t missing =
        w.mode == ENGINE_SEALED ? w.seats & ~w.submitted : w.seats;
    json_t *entry = json_object(), *seats = json_array();
    json_object_set_new(entry, "type", json_string("timeout"));
    json_object_set_new(entry, "window", json_string(w.id));
    for (int s = 0; s < g->seats; s++)
        if (missing & (1u << s))
            json_array_append_new(seats, json_integer(s));
    json_object_set_new(entry, "seats", seats);

    begin(g, &u);
    game_log_append(g, ENGINE_PUBLIC, entry);
    if (w.mode == ENGINE_OPEN) {
        engine_ctx ctx = {g};
        rc = prio_is_window(g, w.id) ? prio_timeout(g, e)
             : rs->timeout           ? rs->timeout(g->state, &ctx, w.id, e)
                           : engine_fail(e, ENGINE_ECONFLICT, "window",
                                         "window \"%s\" has no clock", w.id);
        return finish(g, &u, rc, e);
    }

    /* Sealed: fill each missing seat with its default order, then lock. */
    static const uint8_t zero_nonce[ENGINE_NONCE_BYTES];
    const json_t *orders[ENGINE_MAX_SEATS] = {0};
    const uint8_t *nonces[ENGINE_MAX_SEATS] = {0};
    json_t *defaults[ENGINE_MAX_SEATS] = {0};
    for (int s = 0; s < g->seats && rc == 0; s++) {
        if (!(w.seats & (1u << s)))
            continue;
        if (!(missing & (1u << s))) {
            pending_order *p = game_pending_find(g, w.id, s);
            orders[s] = p->order;
            nonces[s] = p->nonce;
            continue;
        }
        json_t *d = rs->default_order
                        ? rs->default_order(g->state, s, w.id, &g->rng)
                        : NULL;
        engine_error ignored = {0};
        if (!json_is_object(d) || !rs->check_order ||
            rs->check_order(g->state, s, w.id, d, &ignored) != 0) {
            json_decref(d);
            rc = engine_fail(e, ENGINE_EINTERNAL, "",
                             "%s has no legal default order for window "
                             "\"%s\"",
                             rs->title, w.id);
            break;
        }
        defaults[s] = d;
        orders[s] = d;
        nonces[s] = zero_nonce;
    }
    if (rc == 0)
        rc = lock_window(g, &w, orders, nonces, missing, e);
    rc = finish(g, &u, rc, e);
    for (int s = 0; s < g->seats; s++)
        json_decref(defaults[s]);
    if (rc == 0)
        game_pending_drop_window(g, w.id);
    return rc;
}

static int apply_system(engine_game *g, const engine_input *in, engine_error *e)
{
    const json_t *p = in->payload;
    const char *action = NULL, *key;
    json_t *val;
    if (!json_is_object(p))
        return engine_fail(e, ENGINE_EINVALID, "action",
                           "a system input is {\"action\": ...}");
    action = json_string_value(json_object_get(p, "action"));
    if (action && prio_is_system(action))
        return prio_system(g, in, action, e); /* respond.c */
    json_object_foreach((json_t *)p, key, val)
    {
        if (strcmp(key, "action") != 0)
            return engine_fail(e, ENGINE_EINVALID, key,
                               "unknown field \"%.40s\"", key);
    }
    action = json_string_value(json_object_get(p, "action"));
    if (!action)
        return engine_fail(e, ENGINE_EINVALID, "action",
                           "action must be \"withdraw\" or \"abort\"");

    if (strcmp(action, "abort") == 0) {
        json_t *entry = json_object();
        json_object_set_new(entry, "type", json_string("aborted"));
        json_object_set_new(entry, "seat",
                            in->seat >= 0 && in->seat < g->seats
                                ? json_integer(in->seat)
                                : json_null());
        size_t nlog = g->nlog;
        g->oom = 0;
        game_log_append(g, ENGINE_PUBLIC, entry);
        if (g->oom) {
            game_log_truncate(g, nlog);
            return engine_fail(e, ENGINE_EINTERNAL, "", "out of memory");
        }
        g->aborted = 1;
        return 0; /* engine_apply prunes the held orders, unrevealed */
    }
    if (strcmp(action, "withdraw") != 0)
        return engine_fail(e, ENGINE_EINVALID, "action",
                           "action must be \"withdraw\" or \"abort\"");

    engine_window w = {0};
    int rc;
    if (!seat_ok(g, in->seat))
        return engine_fail(e, ENGINE_EFORBIDDEN, "seat",
                           "only a seated player can withdraw an order");
    if ((rc = open_window(g, in, ENGINE_SEALED, &w, e)) != 0)
        return rc;
    if (!(w.seats & (1u << in->seat)))
        return engine_fail(e, ENGINE_EFORBIDDEN, "window",
                           "seat %d gives no order in window \"%s\"", in->seat,
                           w.id);
    if (!game_pending_find(g, w.id, in->seat))
        return engine_fail(e, ENGINE_ECONFLICT, "window",
                           "seat %d has no order in window \"%s\" to withdraw",
                           in->seat, w.id);
    size_t nlog = g->nlog;
    g->oom = 0;
    game_touch(g, 1u << in->seat);
    game_log_append(g, ENGINE_PUBLIC, seat_entry("withdrawn", w.id, in->seat));
    if (g->oom) {
        game_log_truncate(g, nlog);
        return engine_fail(e, ENGINE_EINTERNAL, "", "out of memory");
    }
    for (size_t i = 0; i < g->npending; i++)
        if (g->pending[i].seat == in->seat &&
            strcmp(g->pending[i].window, w.id) == 0) {
            json_decref(g->pending[i].order);
            memmove(&g->pending[i], &g->pending[i + 1],
                    (g->npending - i - 1) * sizeof *g->pending);
            g->npending--;
            break;
        }
    return 0;
}

int engine_apply(engine_game *g, const engine_input *in,
                 engine_receipt *receipt, engine_error *err)
{
    engine_error e = {0};
    int rc;
    if (!g || !in)
        return engine_fail(err, ENGINE_EINVALID, "", "no input");
    /* What this input touches and whether it reveals anything hidden (for
     * engine_touched and for undo, respond.c). */
    uint32_t touched = g->touched;
    engine_rng rng = g->rng;
    g->touched = 0;
    g->touch_marked = g->ruleset_marked = g->revealed = 0;
    if (engine_is_over(g)) {
        rc = engine_fail(&e, ENGINE_EOVER, "", "the game is over");
        goto fail;
    }
    switch (in->kind) {
    case ENGINE_ORDER:
        rc = apply_order(g, in, receipt, &e);
        break;
    case ENGINE_PLAY:
        rc = apply_play(g, in, &e);
        break;
    case ENGINE_TIMEOUT:
        rc = apply_timeout(g, in, &e);
        break;
    case ENGINE_SYSTEM:
        rc = apply_system(g, in, &e);
        break;
    default:
        rc = engine_fail(&e, ENGINE_EINVALID, "kind", "unknown input kind %d",
                         (int)in->kind);
        break;
    }
    if (rc != 0)
        goto fail;
    g->inputs++;
    /* A lock, a play or an abort may have closed other sealed windows; their
     * held orders go, never revealed. */
    game_pending_prune(g);
    if (!g->touch_marked)
        g->touched = ENGINE_AUDIENCE_ALL;
    prio_input_end(g, in, 1,
                   g->revealed || rng.counter != g->rng.counter ||
                       rng.pos != g->rng.pos || rng.len != g->rng.len);
    return 0;
fail:
    g->touched = touched;
    prio_input_end(g, in, 0, 0);
    if (e.code == 0)
        engine_fail(&e, rc ? rc : ENGINE_EINTERNAL, "", "input refused");
    if (err)
        *err = e;
    return e.code;
}

/*
 * priority.c - priority windows, owned by the core like sealed windows.
 *
 * A ruleset opens a priority step with engine_ctx_priority_begin(step,
 * round, first). While it is under way the core lists one open window
 * "STEP.N" (N counts every priority change, so a late input finds its
 * window closed) whose only seat is the one holding priority. That seat
 * may pass ({"action":"pass"}) or make a play the ruleset accepts
 * (priority_play). The core counts passes in a row: when every seat of the
 * round has passed in succession, the top item of the stack resolves
 * (priority_resolve) and priority goes to the seat the ruleset names
 * (engine_ctx_priority_give), else the active seat; with the stack empty
 * the step ends (priority_end), and the ruleset opens the next one. Any
 * accepted play starts the count again; the player keeps priority unless
 * the ruleset gives it away. A timeout is a pass unless the ruleset has
 * priority_timeout. Triggers queued during a ruleset call are pushed when
 * it returns, the active seat's first (so they resolve last).
 *
 * After every input, prio_settle passes for a holder whose response rule
 * (respond.c) says so, or who does not hold priority (prio_auto_passes:
 * right after its own play, while its own item is on top, and on an empty
 * stack in a step the ruleset marked with engine_ctx_priority_flow). That
 * pass is the same code and the same log entry as a deliberate one, and it
 * looks only at what the seat set and at public facts (who played, the
 * stack, the step, the turn, the active seat), never at its hand or at what
 * it could play, so an automatic pass tells the others nothing a
 * deliberate pass would not (tests/unit/test_twin.c plays duel_example with
 * hold off to check it).
 *
 * What it does not do: hold items (stack.c), rules and undo (respond.c),
 * save and view (prio_save.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

prio_core *prio_get(engine_game *g)
{
    if (!g->prio) {
        g->prio = calloc(1, sizeof *g->prio);
        if (!g->prio)
            return NULL;
        g->prio->cur.active = -1;
        g->prio->give = -1;
    }
    return g->prio;
}

void prio_step_free(prio_step *s)
{
    stack_clear(&s->stack);
}

static uint32_t bit(int seat)
{
    return 1u << seat;
}

static void window_id(const prio_core *p, char out[ENGINE_WINDOW_ID_MAX])
{
    snprintf(out, ENGINE_WINDOW_ID_MAX, "%s.%u", p->cur.step, p->serial);
}

int prio_window(const engine_game *g, engine_window *w)
{
    const prio_core *p = g->prio;
    if (!p || !p->cur.open)
        return 0;
    memset(w, 0, sizeof *w);
    window_id(p, w->id);
    w->mode = ENGINE_OPEN;
    w->seats = bit(p->cur.holder);
    return 1;
}

int prio_is_window(const engine_game *g, const char *id)
{
    engine_window w;
    return id && prio_window(g, &w) && strcmp(w.id, id) == 0;
}

/* The next seat of the round after seat, in seat order. */
static int next_in_round(const prio_step *s, int seat, int seats)
{
    for (int i = 1; i <= seats; i++) {
        int n = (seat + i) % seats;
        if (s->round & bit(n))
            return n;
    }
    return seat;
}

/* Who gets priority after a resolution: the named seat, else the active
 * one, else the first of the round. */
static int after_resolution(const prio_core *p, int seats)
{
    if (p->give >= 0 && (p->cur.round & bit(p->give)))
        return p->give;
    if (p->cur.active >= 0 && (p->cur.round & bit(p->cur.active)))
        return p->cur.active;
    return next_in_round(&p->cur, seats - 1, seats);
}

static void callback_begin(prio_core *p)
{
    p->give = -1;
    p->begun = 0;
}

/* A ruleset callback that "cannot fail" failed: the game may be half
 * changed. */
static int broken(engine_error *e, const char *what)
{
    int code = e->code;
    return engine_fail(e, ENGINE_EINTERNAL, "", "%s failed (%d): %.160s", what,
                       code, e->msg);
}

static int resolve_top(engine_game *g, engine_error *e)
{
    prio_core *p = g->prio;
    engine_stack_item item = p->cur.stack.items[--p->cur.stack.n];
    char step[PRIO_STEP_MAX];
    memcpy(step, p->cur.step, sizeof step);
    p->version++;
    callback_begin(p);
    engine_ctx ctx = {g};
    int rc = g->rs->priority_resolve(g->state, &ctx, step, &item, e);
    stack_item_free(&item);
    if (rc != 0)
        return broken(e, "priority_resolve");
    if (p->cur.open && !p->begun) {
        p->cur.passed = 0;
        p->cur.holder = after_resolution(p, g->seats);
    }
    return 0;
}

int prio_do_pass(engine_game *g, int seat, engine_error *e)
{
    prio_core *p = g->prio;
    char wid[ENGINE_WINDOW_ID_MAX];
    window_id(p, wid);
    json_t *entry = json_pack("{s:s, s:s, s:i}", "type", "pass", "window", wid,
                              "seat", seat);
    game_log_append(g, ENGINE_PUBLIC, entry);
    if (g->oom)
        return engine_fail(e, ENGINE_EINTERNAL, "", "out of memory");
    if (p->undo_state && seat != p->undo_seat)
        p->undo_others = 1;
    if (p->cand_state && seat != p->cand_seat)
        p->cand_others = 1;
    p->serial++;
    game_touch(g, ENGINE_AUDIENCE_ALL);
    p->cur.passed |= bit(seat);
    if ((p->cur.passed & p->cur.round) != p->cur.round) {
        p->cur.holder = next_in_round(&p->cur, seat, g->seats);
        return 0;
    }
    p->cur.passed = 0;
    if (p->cur.stack.n > 0)
        return resolve_top(g, e);
    char step[PRIO_STEP_MAX];
    memcpy(step, p->cur.step, sizeof step);
    p->cur.open = 0;
    callback_begin(p);
    engine_ctx ctx = {g};
    if (g->rs->priority_end(g->state, &ctx, step, e) != 0)
        return broken(e, "priority_end");
    return 0;
}

/* {"action":"pass"} with optional "until", "stop_if_targeted" and
 * "hold". */
static int apply_pass(engine_game *g, int seat, const json_t *play,
                      engine_error *e)
{
    const char *key;
    json_t *val;
    json_object_foreach((json_t *)play, key, val)
    {
        if (strcmp(key, "action") != 0 && strcmp(key, "until") != 0 &&
            strcmp(key, "stop_if_targeted") != 0 && strcmp(key, "hold") != 0)
            return engine_fail(e, ENGINE_EINVALID, key,
                               "unknown field \"%.40s\"", key);
    }
    prio_rule rule;
    int given = 0, hold = -1;
    int rc = prio_rule_parse(play, &rule, &given, e);
    if (rc == 0)
        rc = prio_hold_parse(play, &hold, e);
    if (rc != 0)
        return rc;
    if (given)
        prio_rule_set(g, seat, &rule);
    if (hold >= 0)
        prio_hold_set(g, seat, hold);
    return prio_do_pass(g, seat, e);
}

/* Keep what an undo of this play would restore. */
static int keep_candidate(engine_game *g, int seat, engine_error *e)
{
    prio_core *p = g->prio;
    if (!g->rs->priority_undo && !(p->flags & ENGINE_PRIO_UNDO))
        return 0;
    p->cand_state = g->rs->clone(g->state);
    if (!p->cand_state || stack_copy(&p->cand_step.stack, &p->cur.stack) != 0) {
        if (p->cand_state)
            g->rs->destroy(p->cand_state);
        p->cand_state = NULL;
        return engine_fail(e, ENGINE_EINTERNAL, "", "out of memory");
    }
    engine_stack copy = p->cand_step.stack;
    p->cand_step = p->cur;
    p->cand_step.stack = copy;
    p->cand_seat = seat;
    p->cand_others = 0;
    return 0;
}

static void drop_candidate(engine_game *g)
{
    prio_core *p = g->prio;
    if (p->cand_state)
        g->rs->destroy(p->cand_state);
    p->cand_state = NULL;
    prio_step_free(&p->cand_step);
}

/* The ruleset's play, without the core's own member "hold". */
static int ruleset_play(engine_game *g, int seat, const json_t *play,
                        engine_error *e)
{
    prio_core *p = g->prio;
    json_t *own = NULL;
    if (json_object_get(play, "hold")) {
        if (!(own = json_copy((json_t *)play)))
            return engine_fail(e, ENGINE_EINTERNAL, "", "out of memory");
        json_object_del(own, "hold");
        play = own;
    }
    uint64_t version = p->version;
    char step[PRIO_STEP_MAX];
    memcpy(step, p->cur.step, sizeof step);
    callback_begin(p);
    engine_ctx ctx = {g};
    int rc = g->rs->priority_play(g->state, &ctx, seat, step, play, e);
    json_decref(own);
    if (rc != 0) {
        int dirty = p->version != version || p->queue.n > 0;
        stack_clear(&p->queue);
        return dirty ? broken(e, "priority_play changed the stack, then") : rc;
    }
    return 0;
}

int prio_play(engine_game *g, int seat, const json_t *play, engine_error *e)
{
    prio_core *p = g->prio;
    const char *action = json_string_value(json_object_get(play, "action"));
    p->play_pass = 0;
    if (action && strcmp(action, "pass") == 0)
        return apply_pass(g, seat, play, e);
    if (!g->rs->priority_play)
        return engine_fail(e, ENGINE_EINVALID, "action",
                           "the only play here is {\"action\":\"pass\"}");
    int hold = -1;
    int rc = prio_hold_parse(play, &hold, e);
    if (rc == 0)
        rc = keep_candidate(g, seat, e);
    if (rc != 0)
        return rc;
    if ((rc = ruleset_play(g, seat, play, e)) != 0) {
        drop_candidate(g);
        return rc;
    }
    p->serial++;
    game_touch(g, ENGINE_AUDIENCE_ALL);
    if (hold >= 0)
        prio_hold_set(g, seat, hold);
    if (p->cur.open && !p->begun) {
        p->cur.passed = 0;
        p->cur.holder =
            p->give >= 0 && (p->cur.round & bit(p->give)) ? p->give : seat;
    }
    /* Without hold, the play passes priority with it (prio_settle). */
    if (p->cur.open && p->cur.holder == seat && (p->auto_seats & bit(seat)))
        p->play_pass = seat + 1;
    return 0;
}

int prio_timeout(engine_game *g, engine_error *e)
{
    prio_core *p = g->prio;
    int seat = p->cur.holder;
    if (!g->rs->priority_timeout)
        return prio_do_pass(g, seat, e);
    char step[PRIO_STEP_MAX];
    memcpy(step, p->cur.step, sizeof step);
    callback_begin(p);
    engine_ctx ctx = {g};
    int rc = g->rs->priority_timeout(g->state, &ctx, seat, step, e);
    if (rc > 0)
        return prio_do_pass(g, seat, e);
    if (rc == 0) {
        p->serial++;
        game_touch(g, ENGINE_AUDIENCE_ALL);
    }
    return rc;
}

/* Push the queued triggers: seat order from the active seat, so the active
 * seat's go on first and resolve last; one seat's in queue order. */
static int flush_triggers(engine_game *g)
{
    prio_core *p = g->prio;
    if (p->queue.n == 0)
        return 0;
    int first = p->cur.active >= 0 ? p->cur.active : 0;
    engine_stack q = p->queue;
    memset(&p->queue, 0, sizeof p->queue);
    int rc = 0;
    for (int k = 0; k < g->seats; k++) {
        int seat = (first + k) % g->seats;
        for (size_t i = 0; i < q.n; i++) {
            if (q.items[i].owner != seat)
                continue;
            engine_stack_item it = q.items[i];
            memset(&q.items[i], 0, sizeof q.items[i]);
            q.items[i].owner = -1; /* taken */
            it.id = ++p->next_item;
            if (rc == 0 && stack_append(&p->cur.stack, &it) != 0)
                rc = -1;
            else if (rc != 0)
                stack_item_free(&it);
            p->version++;
        }
    }
    stack_clear(&q);
    game_touch(g, ENGINE_AUDIENCE_ALL);
    return rc;
}

int prio_settle(engine_game *g, engine_error *e)
{
    prio_core *p = g->prio;
    if (!p)
        return 0;
    for (int n = 0; n < PRIO_AUTO_MAX; n++) {
        if (flush_triggers(g) != 0) {
            p->play_pass = 0;
            return engine_fail(e, ENGINE_EINTERNAL, "", "out of memory");
        }
        if (!p->cur.open || engine_is_over(g))
            break;
        int seat = p->cur.holder;
        if (seat < 0 || seat >= g->seats)
            break; /* cannot happen: an open step has a holder */
        /* The play's own pass comes first, right after it, or not at all. */
        int with_play = p->play_pass == seat + 1;
        p->play_pass = 0;
        if (!with_play && !prio_rule_passes(g, seat) &&
            !prio_auto_passes(g, seat))
            break;
        int rc = prio_do_pass(g, seat, e);
        if (rc != 0)
            return rc;
    }
    p->play_pass = 0;
    return 0; /* or a loop of automatic passes: left to the players */
}

int prio_auto_passes(engine_game *g, int seat)
{
    prio_core *p = g->prio;
    if (!(p->auto_seats & bit(seat)))
        return 0;
    const engine_stack *s = &p->cur.stack;
    if (s->n == 0)
        return p->cur.flow;
    return s->items[s->n - 1].owner == seat;
}

/* ----------------------------------------------------- legal and bots -- */

static const char pass_shape[] =
    "{\"type\":\"object\",\"required\":[\"action\"],"
    "\"additionalProperties\":false,\"properties\":{"
    "\"action\":{\"const\":\"pass\"},"
    "\"until\":{\"enum\":[\"stack_changes\",\"my_turn\",\"end_of_turn\","
    "\"never\"]},\"stop_if_targeted\":{\"type\":\"boolean\"}}}";

json_t *prio_legal(const engine_game *g, int seat)
{
    const prio_core *p = g->prio;
    json_t *pass = json_loads(pass_shape, 0, NULL);
    json_t *other =
        g->rs->priority_legal
            ? g->rs->priority_legal(g->state, &p->cur.stack, seat, p->cur.step)
            : NULL;
    json_t *shape = json_pack("{s:[o]}", "anyOf", pass);
    json_t *choices = json_pack("[{s:s}]", "action", "pass");
    json_t *res = json_pack("{s:s, s:o, s:o}", "kind", "play", "shape", shape,
                            "choices", choices);
    if (!res) {
        json_decref(other);
        return NULL;
    }
    json_t *oshape = json_object_get(other, "shape");
    json_t *ochoices = json_object_get(other, "choices");
    if (oshape)
        json_array_append(json_object_get(shape, "anyOf"), oshape);
    if (json_is_array(ochoices))
        json_array_extend(choices, ochoices);
    else if (other)
        json_object_set_new(res, "choices", json_null());
    json_decref(other);
    return res;
}

json_t *prio_bot(const engine_game *g, int seat, const char *level,
                 engine_rng *rng)
{
    const prio_core *p = g->prio;
    json_t *play = g->rs->priority_bot
                       ? g->rs->priority_bot(g->state, &p->cur.stack, seat,
                                             p->cur.step, level, rng)
                       : NULL;
    return play ? play : json_pack("{s:s}", "action", "pass");
}

/* ------------------------------------------------- for rulesets: ctx -- */

void engine_ctx_turn_begin(engine_ctx *ctx, int active)
{
    engine_game *g = ctx->g;
    prio_core *p = prio_get(g);
    if (!p) {
        g->oom = 1;
        return;
    }
    if (active < 0 || active >= g->seats)
        return;
    p->cur.active = active;
    p->cur.turn++;
    game_touch(g, ENGINE_AUDIENCE_ALL);
}

static int step_name_ok(const char *step)
{
    size_t n = step ? strlen(step) : 0;
    if (n == 0 || n >= PRIO_STEP_MAX)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!((step[i] >= 'a' && step[i] <= 'z') ||
              (step[i] >= '0' && step[i] <= '9') || step[i] == '_'))
            return 0;
    return 1;
}

int engine_ctx_priority_begin(engine_ctx *ctx, const char *step, uint32_t round,
                              int first)
{
    engine_game *g = ctx->g;
    round &= (1u << g->seats) - 1;
    if (!step_name_ok(step) || round == 0 || first < 0 || first >= g->seats ||
        !(round & bit(first)))
        return ENGINE_EINVALID;
    prio_core *p = prio_get(g);
    if (!p) {
        g->oom = 1;
        return ENGINE_EINTERNAL;
    }
    p->cur.open = 1;
    p->cur.flow = 0;
    memcpy(p->cur.step, step, strlen(step) + 1);
    p->cur.round = round;
    p->cur.passed = 0;
    p->cur.holder = first;
    p->serial++;
    p->begun = 1;
    game_touch(g, ENGINE_AUDIENCE_ALL);
    return 0;
}

void engine_ctx_priority_setup(engine_ctx *ctx, unsigned flags)
{
    engine_game *g = ctx->g;
    prio_core *p = prio_get(g);
    if (!p) {
        g->oom = 1;
        return;
    }
    p->flags = flags & (ENGINE_PRIO_AUTO_PASS | ENGINE_PRIO_UNDO |
                        ENGINE_PRIO_MY_TURN_KEPT);
    p->auto_seats =
        flags & ENGINE_PRIO_AUTO_PASS ? (1u << g->seats) - 1 : p->auto_seats;
}

unsigned engine_ctx_priority_flags(const engine_ctx *ctx)
{
    return ctx->g->prio ? ctx->g->prio->flags : 0;
}

void engine_ctx_priority_flow(engine_ctx *ctx)
{
    prio_core *p = ctx->g->prio;
    if (p && p->cur.open && (p->flags & ENGINE_PRIO_AUTO_PASS))
        p->cur.flow = 1;
}

void engine_ctx_priority_give(engine_ctx *ctx, int seat)
{
    if (ctx->g->prio && seat >= 0 && seat < ctx->g->seats)
        ctx->g->prio->give = seat;
}

/*
 * respond.c - what a seat decides about priority outside its own plays:
 * response rules set in advance, and undo with consent. Both are game
 * state, set by inputs, so they work while the player is offline and a
 * replay reproduces them exactly.
 *
 * Response rules: SYSTEM {"action":"respond","until":U,"stop_if_targeted":B}
 * (or the same fields on a pass); "hold":H there, or on any priority play,
 * sets whether the seat holds priority (prio_auto_passes in priority.c). While
 * the rule holds, prio_settle passes for the seat whenever it gets priority. U
 * is "stack_changes" (until an item is pushed, resolved or removed), "my_turn"
 * (until the seat is the active one; in a game set up with
 * ENGINE_PRIO_MY_TURN_KEPT one set in the seat's own turn waits for its next
 * turn), "end_of_turn" (until the next turn begins) or "never" (clear the
 * rule). B stops it when an item pushed since targets or attacks the seat. A
 * rule that has run out is cleared. The rule is shown only to its seat (view
 * "my_rule", a private log entry); the passes it makes are ordinary passes.
 *
 * Undo: a priority play of a ruleset with priority_undo (or of a game set
 * up with ENGINE_PRIO_UNDO; without either the undo actions answer
 * ENGINE_EINVALID, "X has no undo") keeps an undo point
 * (the state before it). The point is forgotten as soon as an input reveals
 * something (draws from the RNG, writes a non-public log entry, or calls
 * engine_ctx_revealed) and replaced by the next undoable play. SYSTEM
 * {"action":"undo"} by the point's seat restores it at once if no other
 * seat has acted since; otherwise it asks, and every other seat must answer
 * {"action":"undo_consent"} (any {"action":"undo_refuse"}, or any other
 * input, drops the request). The log keeps everything, with an "undone"
 * entry; window and item numbers keep counting up.
 */
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

static const char *const until_names[] = {"never", "stack_changes", "my_turn",
                                          "end_of_turn"};

int prio_rule_parse(const json_t *payload, prio_rule *out, int *given,
                    engine_error *e)
{
    memset(out, 0, sizeof *out);
    *given = 0;
    const json_t *u = json_object_get(payload, "until");
    const json_t *stop = json_object_get(payload, "stop_if_targeted");
    if (stop && !json_is_boolean(stop))
        return engine_fail(e, ENGINE_EINVALID, "stop_if_targeted",
                           "stop_if_targeted must be true or false");
    if (!u) {
        if (stop)
            return engine_fail(e, ENGINE_EINVALID, "until",
                               "stop_if_targeted needs \"until\"");
        return 0;
    }
    const char *name = json_string_value(u);
    for (int k = 0; name && k < 4; k++)
        if (strcmp(name, until_names[k]) == 0) {
            out->until = k;
            out->stop_if_targeted = json_is_true(stop);
            *given = 1;
            return 0;
        }
    return engine_fail(e, ENGINE_EINVALID, "until",
                       "until must be stack_changes, my_turn, end_of_turn "
                       "or never");
}

int prio_hold_parse(const json_t *payload, int *hold, engine_error *e)
{
    const json_t *h = json_object_get(payload, "hold");
    *hold = -1;
    if (!h)
        return 0;
    if (!json_is_boolean(h))
        return engine_fail(e, ENGINE_EINVALID, "hold",
                           "hold must be true or false");
    *hold = json_is_true(h);
    return 0;
}

void prio_hold_set(engine_game *g, int seat, int hold)
{
    prio_core *p = g->prio;
    if (hold)
        p->auto_seats &= ~(1u << seat);
    else
        p->auto_seats |= 1u << seat;
    game_touch(g, 1u << seat);
}

void prio_rule_set(engine_game *g, int seat, const prio_rule *r)
{
    prio_core *p = g->prio;
    prio_rule *dst = &p->rules[seat];
    *dst = *r;
    dst->version = p->version;
    dst->turn = p->cur.turn;
    dst->last_item = p->next_item;
    game_log_append(g, seat,
                    json_pack("{s:s, s:s, s:b}", "type", "response_rule",
                              "until", until_names[r->until],
                              "stop_if_targeted", r->stop_if_targeted));
    game_touch(g, 1u << seat);
}

static int targeted_since(const prio_core *p, int seat, uint32_t last)
{
    for (size_t i = 0; i < p->cur.stack.n; i++) {
        const engine_stack_item *it = &p->cur.stack.items[i];
        if (it->id > last && (it->target_seats & (1u << seat)))
            return 1;
    }
    return 0;
}

int prio_rule_passes(engine_game *g, int seat)
{
    prio_core *p = g->prio;
    prio_rule *r = &p->rules[seat];
    int holds = 0;
    switch (r->until) {
    case RULE_STACK:
        holds = p->version == r->version;
        break;
    case RULE_MY_TURN:
        holds = p->cur.active != seat;
        /* Set in the seat's own turn: it waits for the next one. */
        if (!holds && (p->flags & ENGINE_PRIO_MY_TURN_KEPT) &&
            p->cur.turn == r->turn)
            return 0;
        break;
    case RULE_END_OF_TURN:
        holds = p->cur.turn == r->turn;
        break;
    default:
        return 0;
    }
    if (holds && r->stop_if_targeted && targeted_since(p, seat, r->last_item))
        holds = 0;
    if (!holds) {
        memset(r, 0, sizeof *r);
        game_touch(g, 1u << seat);
    }
    return holds;
}

/* ----------------------------------------------------------------- undo */

void prio_undo_clear(prio_core *p, const engine_ruleset *rs)
{
    if (p->undo_state)
        rs->destroy(p->undo_state);
    p->undo_state = NULL;
    prio_step_free(&p->undo_step);
    p->undo_seat = -1;
    p->undo_others = p->undo_requested = 0;
    p->undo_consents = 0;
}

void prio_input_end(engine_game *g, const engine_input *in, int ok,
                    int revealed)
{
    prio_core *p = g->prio;
    if (!p)
        return;
    if (p->cand_state) {
        if (ok)
            prio_undo_clear(p, g->rs);
        if (ok && !revealed) {
            p->undo_state = p->cand_state;
            p->undo_step = p->cand_step;
            p->undo_seat = p->cand_seat;
            p->undo_others = p->cand_others;
        } else {
            g->rs->destroy(p->cand_state);
            prio_step_free(&p->cand_step);
        }
        p->cand_state = NULL;
        memset(&p->cand_step, 0, sizeof p->cand_step);
        return;
    }
    if (!ok || !p->undo_state)
        return;
    if (revealed) {
        prio_undo_clear(p, g->rs);
        game_touch(g, ENGINE_AUDIENCE_ALL);
        return;
    }
    const char *action =
        in->kind == ENGINE_SYSTEM
            ? json_string_value(json_object_get(in->payload, "action"))
            : NULL;
    if (action && prio_is_system(action))
        return; /* rules and undo answers are not acting in the game */
    if (in->seat != p->undo_seat)
        p->undo_others = 1;
    p->undo_requested = 0;
    p->undo_consents = 0;
}

static void log_seat(engine_game *g, const char *type, int seat)
{
    game_log_append(g, ENGINE_PUBLIC,
                    json_pack("{s:s, s:i}", "type", type, "seat", seat));
}

/* Put the undo point back. Cannot fail once the log entry is in. */
static void undo_now(engine_game *g)
{
    prio_core *p = g->prio;
    log_seat(g, "undone", p->undo_seat);
    g->rs->destroy(g->state);
    g->state = p->undo_state;
    p->undo_state = NULL;
    prio_step_free(&p->cur);
    p->cur = p->undo_step;
    memset(&p->undo_step, 0, sizeof p->undo_step);
    prio_undo_clear(p, g->rs);
    p->version++;
    p->serial++;
    game_touch(g, ENGINE_AUDIENCE_ALL);
}

static int others_all(const engine_game *g)
{
    uint32_t all = (1u << g->seats) - 1;
    return (g->prio->undo_consents | (1u << g->prio->undo_seat)) == all;
}

static int undo_action(engine_game *g, int seat, const char *action,
                       engine_error *e)
{
    prio_core *p = g->prio;
    if (!g->rs->priority_undo && !(p && (p->flags & ENGINE_PRIO_UNDO)))
        return engine_fail(e, ENGINE_EINVALID, "action", "%s has no undo",
                           g->rs->title);
    if (!p || !p->undo_state)
        return engine_fail(e, ENGINE_ECONFLICT, "action",
                           "there is nothing to undo");
    if (strcmp(action, "undo") == 0) {
        if (seat != p->undo_seat)
            return engine_fail(e, ENGINE_ECONFLICT, "action",
                               "only seat %d may undo its play", p->undo_seat);
        if (p->undo_requested)
            return engine_fail(e, ENGINE_ECONFLICT, "action",
                               "the undo is already asked for");
        if (!p->undo_others)
            undo_now(g);
        else {
            p->undo_requested = 1;
            p->undo_consents = 0;
            log_seat(g, "undo_requested", seat);
            game_touch(g, ENGINE_AUDIENCE_ALL);
        }
        return 0;
    }
    if (!p->undo_requested || seat == p->undo_seat)
        return engine_fail(e, ENGINE_ECONFLICT, "action",
                           "no undo waits for seat %d's answer", seat);
    if (strcmp(action, "undo_refuse") == 0) {
        p->undo_requested = 0;
        p->undo_consents = 0;
        log_seat(g, "undo_refused", seat);
    } else {
        p->undo_consents |= 1u << seat;
        log_seat(g, "undo_consent", seat);
        if (others_all(g))
            undo_now(g);
    }
    game_touch(g, ENGINE_AUDIENCE_ALL);
    return 0;
}

int prio_is_system(const char *action)
{
    return strcmp(action, "respond") == 0 || strcmp(action, "undo") == 0 ||
           strcmp(action, "undo_consent") == 0 ||
           strcmp(action, "undo_refuse") == 0;
}

static int check_fields(const json_t *payload, int respond, engine_error *e)
{
    const char *key;
    json_t *val;
    json_object_foreach((json_t *)payload, key, val)
    {
        if (strcmp(key, "action") != 0 &&
            !(respond && (strcmp(key, "until") == 0 ||
                          strcmp(key, "stop_if_targeted") == 0 ||
                          strcmp(key, "hold") == 0)))
            return engine_fail(e, ENGINE_EINVALID, key,
                               "unknown field \"%.40s\"", key);
    }
    return 0;
}

int prio_system(engine_game *g, const engine_input *in, const char *action,
                engine_error *e)
{
    const engine_ruleset *rs = g->rs;
    int seat = in->seat, respond = strcmp(action, "respond") == 0;
    if (seat < 0 || seat >= g->seats)
        return engine_fail(e, ENGINE_EFORBIDDEN, "seat",
                           "only a seated player can do that");
    if (!rs->priority_play || !rs->priority_resolve || !rs->priority_end)
        return engine_fail(e, ENGINE_EINVALID, "action", "%s has no priority",
                           rs->title);
    int rc = check_fields(in->payload, respond, e);
    if (rc != 0)
        return rc;
    prio_rule rule;
    int given = 0, hold = -1;
    if (respond &&
        ((rc = prio_rule_parse(in->payload, &rule, &given, e)) != 0 ||
         (rc = prio_hold_parse(in->payload, &hold, e)) != 0))
        return rc;
    if (respond && !given && hold < 0)
        return engine_fail(e, ENGINE_EINVALID, "until",
                           "until or hold is required");
    if (!prio_get(g))
        return engine_fail(e, ENGINE_EINTERNAL, "", "out of memory");

    size_t nlog = g->nlog;
    engine_rng rng = g->rng;
    g->oom = 0;
    if (respond) {
        if (given)
            prio_rule_set(g, seat, &rule);
        if (hold >= 0)
            prio_hold_set(g, seat, hold);
    } else if ((rc = undo_action(g, seat, action, e)) != 0)
        return rc;
    if (g->oom)
        rc = engine_fail(e, ENGINE_EINTERNAL, "", "out of memory");
    else
        rc = prio_settle(g, e);
    if (rc != 0) {
        g->rng = rng;
        game_log_truncate(g, nlog);
    }
    return rc;
}

/*
 * prio_save.c - priority as data: freeing, cloning, the saved form (the
 * "priority" member of engine_save, present only once a game has used
 * priority, so other games save and hash as before) and the view.
 *
 * Saved form:
 *   {"step":STEP,"serial":N,"next_item":N,"version":N,
 *    "rules":[{"until","stop_if_targeted","version","turn","last_item"}],
 *    "undo":null|{"seat","others","requested","consents","state","step"},
 *    "flags"?:ENGINE_PRIO_* bits,"auto"?:seats without hold}
 * where STEP is {"open","name","round","passed","holder","active","turn",
 * "stack":[items],"flow"?:true}; the members marked ? are left out while
 * zero, so a game that does not use them saves as before. Loading checks every
 * field.
 */
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

void prio_free(prio_core *p, const engine_ruleset *rs)
{
    if (!p)
        return;
    prio_undo_clear(p, rs);
    if (p->cand_state)
        rs->destroy(p->cand_state);
    prio_step_free(&p->cand_step);
    prio_step_free(&p->cur);
    stack_clear(&p->queue);
    free(p);
}

prio_core *prio_clone(const prio_core *p, const engine_ruleset *rs)
{
    prio_core *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    *c = *p;
    /* Nothing transient survives an apply, so the copy starts without it. */
    memset(&c->queue, 0, sizeof c->queue);
    c->cand_state = NULL;
    c->play_pass = 0;
    memset(&c->cand_step, 0, sizeof c->cand_step);
    memset(&c->cur.stack, 0, sizeof c->cur.stack);
    memset(&c->undo_step.stack, 0, sizeof c->undo_step.stack);
    c->undo_state = NULL;
    if (stack_copy(&c->cur.stack, &p->cur.stack) != 0)
        goto fail;
    if (p->undo_state) {
        c->undo_state = rs->clone(p->undo_state);
        if (!c->undo_state ||
            stack_copy(&c->undo_step.stack, &p->undo_step.stack) != 0)
            goto fail;
    }
    return c;
fail:
    prio_free(c, rs);
    return NULL;
}

static json_t *step_save(const prio_step *s)
{
    json_t *j = json_pack("{s:b, s:s, s:I, s:I, s:i, s:i, s:I, s:o}", "open",
                          s->open, "name", s->step, "round",
                          (json_int_t)s->round, "passed", (json_int_t)s->passed,
                          "holder", s->holder, "active", s->active, "turn",
                          (json_int_t)s->turn, "stack", stack_save(&s->stack));
    if (j && s->flow) /* absent before flowing steps, so old saves stay */
        json_object_set_new(j, "flow", json_true());
    return j;
}

static int step_load(prio_step *s, const json_t *j, int seats)
{
    const char *name;
    json_int_t round, passed, turn;
    json_t *stack;
    uint32_t all = (1u << seats) - 1;
    memset(s, 0, sizeof *s);
    if (json_unpack((json_t *)j,
                    "{s:b, s:s, s:I, s:I, s:i, s:i, s:I, s:o, s?b !}", "open",
                    &s->open, "name", &name, "round", &round, "passed", &passed,
                    "holder", &s->holder, "active", &s->active, "turn", &turn,
                    "stack", &stack, "flow", &s->flow) != 0 ||
        strlen(name) >= PRIO_STEP_MAX || round < 0 || round > all ||
        (round & ~all) || passed < 0 || passed > all || (passed & ~all) ||
        turn < 0 || turn > UINT32_MAX || s->holder < 0 || s->holder >= seats ||
        s->active < -1 || s->active >= seats ||
        (s->open && !(round & (1u << s->holder))))
        return -1;
    memcpy(s->step, name, strlen(name) + 1);
    s->round = (uint32_t)round;
    s->passed = (uint32_t)passed;
    s->turn = (uint32_t)turn;
    return stack_load(&s->stack, stack, seats);
}

static json_t *rules_save(const engine_game *g)
{
    json_t *arr = json_array();
    for (int s = 0; arr && s < g->seats; s++) {
        const prio_rule *r = &g->prio->rules[s];
        if (json_array_append_new(
                arr,
                json_pack("{s:i, s:b, s:I, s:I, s:I}", "until", r->until,
                          "stop_if_targeted", r->stop_if_targeted, "version",
                          (json_int_t)r->version, "turn", (json_int_t)r->turn,
                          "last_item", (json_int_t)r->last_item)) != 0) {
            json_decref(arr);
            return NULL;
        }
    }
    return arr;
}

static int rules_load(engine_game *g, const json_t *arr)
{
    size_t i;
    json_t *j;
    if (!json_is_array(arr) || json_array_size(arr) != (size_t)g->seats)
        return -1;
    json_array_foreach(arr, i, j)
    {
        prio_rule *r = &g->prio->rules[i];
        json_int_t version, turn, last;
        if (json_unpack(j, "{s:i, s:b, s:I, s:I, s:I !}", "until", &r->until,
                        "stop_if_targeted", &r->stop_if_targeted, "version",
                        &version, "turn", &turn, "last_item", &last) != 0 ||
            r->until < RULE_NONE || r->until > RULE_END_OF_TURN ||
            version < 0 || turn < 0 || turn > UINT32_MAX || last < 0 ||
            last > UINT32_MAX)
            return -1;
        r->version = (uint64_t)version;
        r->turn = (uint32_t)turn;
        r->last_item = (uint32_t)last;
    }
    return 0;
}

static json_t *undo_save(const engine_game *g)
{
    const prio_core *p = g->prio;
    if (!p->undo_state)
        return json_null();
    return json_pack("{s:i, s:b, s:b, s:I, s:o, s:o}", "seat", p->undo_seat,
                     "others", p->undo_others, "requested", p->undo_requested,
                     "consents", (json_int_t)p->undo_consents, "state",
                     g->rs->save(p->undo_state), "step",
                     step_save(&p->undo_step));
}

static int undo_load(engine_game *g, const json_t *j, engine_error *e)
{
    prio_core *p = g->prio;
    json_int_t consents;
    json_t *state, *step;
    if (json_is_null(j))
        return 0;
    if (json_unpack((json_t *)j, "{s:i, s:b, s:b, s:I, s:o, s:o !}", "seat",
                    &p->undo_seat, "others", &p->undo_others, "requested",
                    &p->undo_requested, "consents", &consents, "state", &state,
                    "step", &step) != 0 ||
        p->undo_seat < 0 || p->undo_seat >= g->seats || consents < 0 ||
        consents > (json_int_t)((1u << g->seats) - 1) ||
        (consents & ~(json_int_t)((1u << g->seats) - 1)) ||
        step_load(&p->undo_step, step, g->seats) != 0)
        return -1;
    p->undo_consents = (uint32_t)consents;
    p->undo_state = g->rs->load(state, e);
    return p->undo_state ? 0 : -1;
}

json_t *prio_save(const engine_game *g)
{
    const prio_core *p = g->prio;
    json_t *j = json_pack(
        "{s:o, s:I, s:I, s:I, s:o, s:o}", "step", step_save(&p->cur), "serial",
        (json_int_t)p->serial, "next_item", (json_int_t)p->next_item, "version",
        (json_int_t)p->version, "rules", rules_save(g), "undo", undo_save(g));
    /* Absent while zero, so games saved before them save alike. */
    if (j && p->flags)
        json_object_set_new(j, "flags", json_integer((json_int_t)p->flags));
    if (j && p->auto_seats)
        json_object_set_new(j, "auto", json_integer((json_int_t)p->auto_seats));
    return j;
}

int prio_load(engine_game *g, const json_t *saved, engine_error *e)
{
    json_int_t serial, next_item, version, flags = 0, autos = 0;
    json_t *step, *rules, *undo;
    if (!prio_get(g))
        return engine_fail(e, ENGINE_EINTERNAL, "", "out of memory");
    prio_core *p = g->prio;
    json_int_t all = (json_int_t)((1u << g->seats) - 1);
    if (json_unpack((json_t *)saved,
                    "{s:o, s:I, s:I, s:I, s:o, s:o, s?I, s?I !}", "step", &step,
                    "serial", &serial, "next_item", &next_item, "version",
                    &version, "rules", &rules, "undo", &undo, "flags", &flags,
                    "auto", &autos) != 0 ||
        flags < 0 ||
        (flags & ~(json_int_t)(ENGINE_PRIO_AUTO_PASS | ENGINE_PRIO_UNDO |
                               ENGINE_PRIO_MY_TURN_KEPT)) ||
        autos < 0 || (autos & ~all) || serial < 0 || serial > UINT32_MAX ||
        next_item < 0 || next_item > UINT32_MAX || version < 0 ||
        step_load(&p->cur, step, g->seats) != 0 || rules_load(g, rules) != 0 ||
        undo_load(g, undo, e) != 0)
        return engine_fail(e, ENGINE_EINTERNAL, "priority",
                           "saved priority is corrupt");
    p->flags = (unsigned)flags;
    p->auto_seats = (uint32_t)autos;
    p->serial = (uint32_t)serial;
    p->next_item = (uint32_t)next_item;
    p->version = (uint64_t)version;
    return 0;
}

/* ----------------------------------------------------------------- view */

static json_t *seats_of(uint32_t mask, int seats)
{
    json_t *a = json_array();
    for (int s = 0; a && s < seats; s++)
        if (mask & (1u << s))
            json_array_append_new(a, json_integer(s));
    return a;
}

static json_t *seat_or_null(int seat)
{
    return seat >= 0 ? json_integer(seat) : json_null();
}

static json_t *undo_view(const engine_game *g)
{
    const prio_core *p = g->prio;
    if (!p->undo_state)
        return json_null();
    return json_pack("{s:i, s:b, s:b, s:o}", "seat", p->undo_seat,
                     "others_acted", p->undo_others, "requested",
                     p->undo_requested, "consents",
                     seats_of(p->undo_consents, g->seats));
}

void prio_view(const engine_game *g, int seat, json_t *view)
{
    const prio_core *p = g->prio;
    if (!p)
        return;
    engine_window w;
    int open = prio_window(g, &w) && !engine_is_over(g);
    json_t *pr = json_pack(
        "{s:o, s:o, s:o, s:o, s:I, s:o, s:o, s:o}", "window",
        open ? json_string(w.id) : json_null(), "step",
        p->cur.open ? json_string(p->cur.step) : json_null(), "holder",
        open ? json_integer(p->cur.holder) : json_null(), "active",
        seat_or_null(p->cur.active), "turn", (json_int_t)p->cur.turn, "round",
        seats_of(p->cur.open ? p->cur.round : 0, g->seats), "passed",
        seats_of(p->cur.passed, g->seats), "undo", undo_view(g));
    if (pr && seat >= 0 && seat < g->seats) {
        const prio_rule *r = &p->rules[seat];
        static const char *const names[] = {"never", "stack_changes", "my_turn",
                                            "end_of_turn"};
        json_object_set_new(pr, "my_rule",
                            r->until == RULE_NONE
                                ? json_null()
                                : json_pack("{s:s, s:b}", "until",
                                            names[r->until], "stop_if_targeted",
                                            r->stop_if_targeted));
        json_object_set_new(pr, "hold",
                            json_boolean(!(p->auto_seats & (1u << seat))));
    }
    json_object_set_new(view, "priority", pr ? pr : json_null());
    json_t *stack = stack_view(&p->cur.stack, seat);
    json_object_set_new(view, "stack", stack ? stack : json_null());
}

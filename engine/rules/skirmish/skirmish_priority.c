/*
 * skirmish_priority.c - the Skirmish turn on the core's priority steps
 * (docs/games/skirmish.md, "The turn"):
 *
 *   "start"        both seats, active first: start-phase triggers resolve
 *   "choice"       the active seat only (411.1): declare a movement or an
 *                  action (it goes on the stack and "exec" opens at once:
 *                  the two passes of 411.2 are automatic), or pass, which
 *                  hands the turn over (413.1)
 *   "exec"         both seats, active first (412): items resolve from the
 *                  top and each source pays after its effect (412.1);
 *                  sudden abilities; empty stack and both pass -> "choice"
 *   "handover"     the inactive seat only: it may use sudden abilities; a
 *                  pass with the stack empty goes to the end phase, a play
 *                  opens "handover_all" for both seats
 *   "end"          both seats, active first: end-of-turn triggers and
 *                  poison; when it ends, auras end at once and the players
 *                  swap (413.3)
 *
 * Declarations are listed by sk_declarations; a play is accepted only if
 * it is one of them, so legal, bots and play agree by construction.
 */
#include <stdio.h>
#include <string.h>

#include "engine/rules/skirmish/skirmish_internal.h"

#define ALL_SEATS 3u
#define MAX_DECL 1024

static int in_choice(const char *step)
{
    return strcmp(step, "choice") == 0;
}

/* ------------------------------------------------------- declarations -- */

static int add(sk_decl *out, int n, int max, sk_decl d)
{
    if (n < max)
        out[n] = d;
    return n + 1;
}

static int moves_attacks(const sk_state *s, int u, sk_decl *out, int n, int max)
{
    const int *c = s->cr[u];
    if (c[U_CLOSED])
        return n;
    int left = c[U_MP] - c[U_RES_MP], dist[SK_SQUARES];
    if (left > 0)
        sk_move_costs(s, u, dist);
    for (int sq = 0; left > 0 && sq < SK_SQUARES; sq++) {
        int k = dist[sq];
        if (k > 0 && k <= left)
            n = add(out, n, max, (sk_decl){SK_D_MOVE, u, -1, -1, sq, 0});
    }
    if (c[U_RES_TAP])
        return n;
    for (int sq = 0; sq < SK_SQUARES; sq++) {
        int t = sk_unit_at(s, sq);
        if (t >= 0 && sk_can_attack(s, u, t))
            n = add(out, n, max, (sk_decl){SK_D_ATTACK, u, -1, t, -1, 0});
    }
    return n;
}

/* Items on the stack an ability of u may name (parry, counterspell). */
static int item_targets(const sk_state *s, const engine_stack *st, int u, int i,
                        sk_decl *out, int n, int max)
{
    const skirmish_ability *a = &sk_design(s, u)->ab[i];
    for (size_t k = 0; k < engine_stack_size(st); k++) {
        const engine_stack_item *it = engine_stack_at(st, k);
        int ok;
        if (a->kind == SKIRMISH_K_COUNTERSPELL) {
            ok = sk_item_is_spell(it);
        } else {
            int t = sk_item_attack_target(it);
            ok = t == u || (a->target == SKIRMISH_TG_ALLY && t >= 0 &&
                            sk_target_ok(s, u, a, t, s->cr[u][U_SQ]));
        }
        if (ok)
            n = add(out, n, max, (sk_decl){SK_D_ABILITY, u, i, -1, -1, it->id});
    }
    return n;
}

static int abilities(const sk_state *s, const engine_stack *st, int u,
                     int timing, sk_decl *out, int n, int max)
{
    const skirmish_design *d = sk_design(s, u);
    for (int i = 0; i < d->nab; i++) {
        const skirmish_ability *a = &d->ab[i];
        if (a->timing != timing || !sk_can_reserve(s, u, &a->cost))
            continue;
        if (a->kind == SKIRMISH_K_PARRY || a->kind == SKIRMISH_K_COUNTERSPELL) {
            n = item_targets(s, st, u, i, out, n, max);
        } else if (a->target == SKIRMISH_TG_ALLY ||
                   a->target == SKIRMISH_TG_ENEMY ||
                   a->target == SKIRMISH_TG_CREATURE) {
            for (int sq = 0; sq < SK_SQUARES; sq++) {
                int t = sk_unit_at(s, sq);
                if (t >= 0 && sk_target_ok(s, u, a, t, s->cr[u][U_SQ]))
                    n = add(out, n, max,
                            (sk_decl){SK_D_ABILITY, u, i, t, -1, 0});
            }
        } else {
            n = add(out, n, max, (sk_decl){SK_D_ABILITY, u, i, -1, -1, 0});
        }
    }
    return n;
}

int sk_declarations(const sk_state *s, const engine_stack *stack, int seat,
                    const char *step, sk_decl *out, int max)
{
    int n = 0, choice = in_choice(step);
    if (s->phase != SK_PLAY || (choice && seat != s->active))
        return 0;
    for (int sq = 0; sq < SK_SQUARES; sq++) {
        int u = sk_unit_at(s, sq);
        if (u < 0 || s->cr[u][U_OWNER] != seat)
            continue;
        if (choice) {
            n = moves_attacks(s, u, out, n, max);
            n = abilities(s, stack, u, SKIRMISH_T_ACTION, out, n, max);
        } else {
            n = abilities(s, stack, u, SKIRMISH_T_SUDDEN, out, n, max);
        }
    }
    return n < max ? n : max;
}

json_t *sk_decl_json(const sk_decl *d)
{
    char sq[4];
    static const char *const names[] = {"move", "attack", "ability"};
    json_t *j =
        json_pack("{s:s, s:i}", "action", names[d->kind], "unit", d->unit);
    if (d->kind == SK_D_MOVE)
        json_object_set_new(j, "to", json_string(sk_sq_name(d->to, sq)));
    if (d->ability >= 0)
        json_object_set_new(j, "ability", json_integer(d->ability));
    if (d->target >= 0)
        json_object_set_new(j, "target", json_integer(d->target));
    if (d->item)
        json_object_set_new(j, "item", json_integer(d->item));
    return j;
}

static int int_field(const json_t *p, const char *key, int *out)
{
    const json_t *v = json_object_get(p, key);
    if (!v)
        return 0;
    if (!json_is_integer(v) || json_integer_value(v) < 0 ||
        json_integer_value(v) > 1 << 30)
        return -1;
    *out = (int)json_integer_value(v);
    return 0;
}

/* The play as a declaration; -1 if it cannot be one. */
static int parse_decl(const json_t *p, sk_decl *d)
{
    const char *action = json_string_value(json_object_get(p, "action"));
    const char *key;
    json_t *v;
    int item = 0;
    *d = (sk_decl){-1, -1, -1, -1, -1, 0};
    json_object_foreach((json_t *)p, key, v)
    {
        static const char *const known[] = {"action", "ability", "item",
                                            "target", "to",      "unit"};
        int ok = 0;
        for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
            ok |= strcmp(key, known[i]) == 0;
        if (!ok)
            return -1;
    }
    if (!action || int_field(p, "unit", &d->unit) ||
        int_field(p, "ability", &d->ability) ||
        int_field(p, "target", &d->target) || int_field(p, "item", &item))
        return -1;
    d->item = (uint32_t)item;
    if (json_object_get(p, "to") &&
        (d->to = sk_sq_parse(json_string_value(json_object_get(p, "to")))) < 0)
        return -1;
    if (!strcmp(action, "move"))
        d->kind = SK_D_MOVE;
    else if (!strcmp(action, "attack"))
        d->kind = SK_D_ATTACK;
    else if (!strcmp(action, "ability"))
        d->kind = SK_D_ABILITY;
    return d->kind >= 0 ? 0 : -1;
}

static int same_decl(const sk_decl *a, const sk_decl *b)
{
    return a->kind == b->kind && a->unit == b->unit &&
           a->ability == b->ability && a->target == b->target &&
           a->to == b->to && a->item == b->item;
}

/* ------------------------------------------------------------ playing -- */

/* Open a step where an empty stack leaves nothing to decide: in edition 2
 * a player who does not hold priority passes there on an empty stack, so
 * after the last item resolves the game goes on without another pass
 * (412.2, 413.1, 413.3). */
static int begin_flowing(engine_ctx *ctx, const char *step, uint32_t round,
                         int first)
{
    int rc = engine_ctx_priority_begin(ctx, step, round, first);
    if (rc == 0)
        engine_ctx_priority_flow(ctx);
    return rc;
}

/* Put declaration d on the stack, reserving its resources (501.1). */
static int declare(sk_state *s, engine_ctx *ctx, const sk_decl *d)
{
    const skirmish_design *ds = sk_design(s, d->unit);
    const skirmish_ability *a = d->ability >= 0 ? &ds->ab[d->ability] : NULL;
    skirmish_cost cost = {0};
    char un[80], tn[80], sq[4], text[400], words[200] = "";
    const char *kind = d->kind == SK_D_MOVE     ? "move"
                       : d->kind == SK_D_ATTACK ? "attack"
                                                : "ability";
    sk_unit_name(s, d->unit, un, sizeof un);
    engine_stack_item it = {0};
    it.owner = s->cr[d->unit][U_OWNER];
    snprintf(it.source, sizeof it.source, "%s#%d", ds->key, d->unit);
    if (d->kind == SK_D_MOVE) {
        cost.move = (uint8_t)sk_move_cost(s, d->unit, d->to);
        snprintf(text, sizeof text, "%s %s to %s", un,
                 sk_has(s, d->unit, SKIRMISH_K_FLYING) ? "flies" : "walks",
                 sk_sq_name(d->to, sq));
        it.targets = json_pack("{s:s}", "square", sq);
    } else if (d->kind == SK_D_ATTACK) {
        cost.tap = 1;
        snprintf(text, sizeof text, "%s attacks %s", un,
                 sk_unit_name(s, d->target, tn, sizeof tn));
    } else if (a) {
        cost = a->cost;
        skirmish_ability_text(a, words, sizeof words);
        snprintf(text, sizeof text, "%s: %s", un, words);
        if (d->target >= 0)
            snprintf(text + strlen(text), sizeof text - strlen(text), " -> %s",
                     sk_unit_name(s, d->target, tn, sizeof tn));
        if (d->item)
            snprintf(text + strlen(text), sizeof text - strlen(text),
                     " -> item %u", d->item);
    }
    if (d->target >= 0) {
        it.target_seats = 1u << s->cr[d->target][U_OWNER];
        it.targets = json_pack("{s:i, s:s}", "unit", d->target, "square",
                               sk_sq_name(s->cr[d->target][U_SQ], sq));
    }
    if (d->item) {
        it.targets = json_pack("{s:i}", "item", d->item);
        it.target_seats = 1u << (1 - it.owner);
    }
    it.payload = json_pack(
        "{s:s, s:i, s:i, s:i, s:i, s:I, s:b, s:[iiii], s:s}", "kind", kind,
        "unit", d->unit, "ability", d->ability, "target", d->target, "to",
        d->to, "item", (json_int_t)d->item, "spell", a ? a->spell : 0, "cost",
        cost.move, cost.tap, cost.tokens, cost.life, "text", text);
    sk_reserve(s, d->unit, &cost, 1);
    if (!engine_ctx_stack_push(ctx, &it))
        return ENGINE_EINTERNAL;
    sk_log(ctx, "declare", "%s.", text);
    if (d->kind == SK_D_ATTACK)
        sk_queue_triggers(s, ctx, d->target, SKIRMISH_TR_ATTACKED, d->unit);
    return 0;
}

/* Why declaration d is not one of seat's n declarations in list: the
 * creature named (field "unit"), what it cannot do now ("action" or
 * "ability"), or the target, square or item it cannot have ("target",
 * "to", "item"), each named in the message. */
static int refuse(const sk_state *s, int seat, const char *step,
                  const sk_decl *d, const sk_decl *list, int n,
                  engine_error *err)
{
    char un[80], tn[80], sq[4];
    if (d->unit < 0 || d->unit >= s->nu || !sk_on_field(s, d->unit))
        return engine_fail(err, ENGINE_EINVALID, "unit",
                           "there is no creature %d on the field", d->unit);
    sk_unit_name(s, d->unit, un, sizeof un);
    if (s->cr[d->unit][U_OWNER] != seat)
        return engine_fail(err, ENGINE_EINVALID, "unit",
                           "%s is not yours (seat %d's)", un,
                           s->cr[d->unit][U_OWNER]);
    int kind_ok = 0;
    for (int i = 0; i < n; i++)
        kind_ok |= list[i].unit == d->unit && list[i].kind == d->kind &&
                   list[i].ability == d->ability;
    static const char *const verbs[] = {"move", "attack", "use ability"};
    if (!kind_ok) {
        const char *why =
            in_choice(step)
                ? ""
                : " (outside the choice subphase only sudden abilities)";
        if (d->kind == SK_D_ABILITY)
            return engine_fail(err, ENGINE_EINVALID, "ability",
                               "%s cannot use ability %d now%s", un, d->ability,
                               why);
        return engine_fail(err, ENGINE_EINVALID, "action", "%s cannot %s now%s",
                           un, verbs[d->kind], why);
    }
    if (d->kind == SK_D_MOVE)
        return engine_fail(err, ENGINE_EINVALID, "to", "%s cannot reach %s now",
                           un, d->to >= 0 ? sk_sq_name(d->to, sq) : "(none)");
    if (d->item)
        return engine_fail(err, ENGINE_EINVALID, "item",
                           "%s cannot name item %u on the stack", un, d->item);
    if (d->target >= 0 && d->target < s->nu && sk_on_field(s, d->target))
        return engine_fail(err, ENGINE_EINVALID, "target", "%s cannot %s %s",
                           un, verbs[d->kind],
                           sk_unit_name(s, d->target, tn, sizeof tn));
    if (d->target >= 0)
        return engine_fail(err, ENGINE_EINVALID, "target",
                           "there is no creature %d on the field to target",
                           d->target);
    return engine_fail(err, ENGINE_EINVALID, "target",
                       "%s needs a target (\"target\" or \"item\") for that",
                       un);
}

int sk_priority_play(void *state, engine_ctx *ctx, int seat, const char *step,
                     const json_t *play, engine_error *err)
{
    sk_state *s = state;
    sk_decl d, list[MAX_DECL];
    if (parse_decl(play, &d) != 0)
        return engine_fail(err, ENGINE_EINVALID, "action",
                           "a play is pass, move, attack or ability, with "
                           "unit, target, to, ability or item as numbers "
                           "and squares");
    int n =
        sk_declarations(s, engine_ctx_stack(ctx), seat, step, list, MAX_DECL);
    int found = 0;
    for (int i = 0; i < n && !found; i++)
        found = same_decl(&d, &list[i]);
    if (!found)
        return refuse(s, seat, step, &d, list, n, err);
    if (declare(s, ctx, &d) != 0)
        return engine_fail(err, ENGINE_EINTERNAL, "", "out of memory");
    if (in_choice(step)) /* 411.2: both passes are automatic (ours) */
        return begin_flowing(ctx, "exec", ALL_SEATS, s->active);
    if (strcmp(step, "handover") == 0)
        return begin_flowing(ctx, "handover_all", ALL_SEATS, seat);
    return 0;
}

json_t *sk_priority_legal(const void *state, const engine_stack *stack,
                          int seat, const char *step)
{
    sk_decl list[MAX_DECL];
    int n = sk_declarations(state, stack, seat, step, list, MAX_DECL);
    json_t *choices = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(choices, sk_decl_json(&list[i]));
    return json_pack("{s:s, s:{s:s}, s:o}", "kind", "play", "shape", "type",
                     "object", "choices", choices);
}

/* ---------------------------------------------------------- resolving -- */

/* A triggered ability's single target, named on resolution (501.2, ours):
 * the attacker that triggered it if it can be named, else the first unit
 * that can, in square order. */
static int trigger_target(const sk_state *s, int u, const skirmish_ability *a,
                          int attacker)
{
    int from = s->cr[u][U_SQ] >= 0 ? s->cr[u][U_SQ] : s->cr[u][U_LAST_SQ];
    if (attacker >= 0 && sk_target_ok(s, u, a, attacker, from))
        return attacker;
    for (int sq = 0; sq < SK_SQUARES; sq++) {
        int t = sk_unit_at(s, sq);
        if (t >= 0 && sk_target_ok(s, u, a, t, from))
            return t;
    }
    return -1;
}

static void resolve_move(sk_state *s, engine_ctx *ctx, int u, int to,
                         int points)
{
    char un[80], sq[4];
    sk_unit_name(s, u, un, sizeof un);
    int k = sk_move_cost(s, u, to);
    if (sk_on_field(s, u) && k > 0 && k <= points) {
        s->cr[u][U_SQ] = s->cr[u][U_LAST_SQ] = to;
        sk_log(ctx, "move", "%s moves to %s.", un, sk_sq_name(to, sq));
    } else {
        sk_log(ctx, "move", "%s cannot reach %s: the movement does nothing.",
               un, sk_sq_name(to, sq));
    }
}

int sk_priority_resolve(void *state, engine_ctx *ctx, const char *step,
                        const engine_stack_item *item, engine_error *err)
{
    sk_state *s = state;
    const json_t *p = item->payload;
    const char *kind = json_string_value(json_object_get(p, "kind"));
    int u = (int)json_integer_value(json_object_get(p, "unit"));
    int ab = (int)json_integer_value(json_object_get(p, "ability"));
    int target = (int)json_integer_value(json_object_get(p, "target"));
    skirmish_cost cost = sk_item_cost(p);
    (void)step;
    if (!kind || u < 0 || u >= s->nu)
        return engine_fail(err, ENGINE_EINTERNAL, "item",
                           "not a skirmish item");
    const skirmish_ability *a =
        ab >= 0 && ab < sk_design(s, u)->nab ? &sk_design(s, u)->ab[ab] : NULL;
    if (!strcmp(kind, "move")) {
        resolve_move(s, ctx, u,
                     (int)json_integer_value(json_object_get(p, "to")),
                     cost.move);
    } else if (!strcmp(kind, "attack")) {
        sk_attack(s, ctx, u, target, item->id);
    } else if (!strcmp(kind, "ability") && a) {
        sk_effect(s, ctx, u, a, target,
                  (uint32_t)json_integer_value(json_object_get(p, "item")), p);
    } else if (!strcmp(kind, "trigger") && a) {
        int attacker = (int)json_integer_value(json_object_get(p, "attacker"));
        sk_effect(s, ctx, u, a, trigger_target(s, u, a, attacker), 0, p);
    } else if (!strcmp(kind, "regeneration")) {
        sk_heal(s, u, (int)json_integer_value(json_object_get(p, "amount")));
    } else if (!strcmp(kind, "poison")) {
        char un[80];
        int n = (int)json_integer_value(json_object_get(p, "amount"));
        if (sk_on_field(s, u)) {
            sk_log(ctx, "poison", "%s loses %d life to poison.",
                   sk_unit_name(s, u, un, sizeof un), n);
            sk_lose_life(s, ctx, u, n);
        }
    }
    sk_pay(s, ctx, u, &cost); /* 412.1: after the effect */
    return 0;
}

/* ------------------------------------------------------------ phases -- */

/* A start or end phase item with no card ability behind it. */
static void push_plain(sk_state *s, engine_ctx *ctx, int u, const char *kind,
                       int amount, const char *what)
{
    char un[80], text[160];
    engine_stack_item it = {0};
    it.owner = s->cr[u][U_OWNER];
    snprintf(it.source, sizeof it.source, "%s#%d", sk_design(s, u)->key, u);
    snprintf(text, sizeof text, "%s: %s %d", sk_unit_name(s, u, un, sizeof un),
             what, amount);
    it.target_seats = 1u << it.owner;
    it.payload = json_pack("{s:s, s:i, s:i, s:i, s:[iiii], s:s}", "kind", kind,
                           "unit", u, "ability", -1, "amount", amount, "cost",
                           0, 0, 0, 0, "text", text);
    engine_ctx_trigger(ctx, &it);
}

void sk_begin_turn(sk_state *s, engine_ctx *ctx, int active)
{
    int first_turn = s->turn == 0;
    s->active = active;
    s->turn++;
    engine_ctx_turn_begin(ctx, active);
    char who[24];
    sk_log(ctx, "turn", "Turn %d: %s is the active player.", s->turn,
           sk_seat_name(ctx, active, who));
    for (int sq = 0; sq < SK_SQUARES; sq++) {
        int u = sk_unit_at(s, sq);
        if (u < 0)
            continue;
        if (s->cr[u][U_OWNER] == active) {
            s->cr[u][U_CLOSED] = 0;
            s->cr[u][U_MP] = sk_design(s, u)->move + s->cr[u][U_AURA_MOVE];
            sk_queue_triggers(s, ctx, u, SKIRMISH_TR_TURN_START, -1);
            int regen = sk_keyword_amount(s, u, SKIRMISH_K_REGENERATION);
            if (regen)
                push_plain(s, ctx, u, "regeneration", regen, "regeneration");
        }
        if (first_turn)
            sk_queue_triggers(s, ctx, u, SKIRMISH_TR_ENTERS, -1);
    }
    begin_flowing(ctx, "start", ALL_SEATS, active);
}

/* 413.1: the end phase begins; what works "at the end of the turn" now
 * goes on the stack (what is gained later waits for the next one, 413.2). */
static void end_phase(sk_state *s, engine_ctx *ctx)
{
    sk_log(ctx, "end_phase", "End of turn %d.", s->turn);
    for (int sq = 0; sq < SK_SQUARES; sq++) {
        int u = sk_unit_at(s, sq);
        if (u < 0 || s->cr[u][U_OWNER] != s->active)
            continue;
        sk_queue_triggers(s, ctx, u, SKIRMISH_TR_END_OF_TURN, -1);
        if (s->cr[u][U_POISON] > 0)
            push_plain(s, ctx, u, "poison", s->cr[u][U_POISON], "poison");
    }
    begin_flowing(ctx, "end", ALL_SEATS, s->active);
}

/* 413.3: every "until end of turn" effect ends at once; the players swap. */
static void turn_over(sk_state *s, engine_ctx *ctx)
{
    for (int u = 0; u < s->nu; u++)
        s->cr[u][U_AURA_STRIKE] = s->cr[u][U_AURA_ARMOUR] =
            s->cr[u][U_AURA_MOVE] = 0;
    s->nparry = 0;
    if (s->turn >= s->turn_limit) {
        int score[SK_SEATS] = {0};
        for (int u = 0; u < s->nu; u++)
            if (sk_on_field(s, u))
                score[s->cr[u][U_OWNER]] += sk_design(s, u)->cost;
        s->phase = SK_OVER;
        s->winner = score[0] == score[1] ? 2 : (score[0] > score[1] ? 0 : 1);
        char w0[24], w1[24];
        sk_log(ctx, "turn_limit",
               "The turn limit is reached: %s scores %d, %s scores %d.",
               sk_seat_name(ctx, 0, w0), score[0], sk_seat_name(ctx, 1, w1),
               score[1]);
        return;
    }
    sk_begin_turn(s, ctx, 1 - s->active);
}

int sk_priority_end(void *state, engine_ctx *ctx, const char *step,
                    engine_error *err)
{
    sk_state *s = state;
    (void)err;
    if (s->phase != SK_PLAY)
        return 0;
    if (!strcmp(step, "start") || !strcmp(step, "exec"))
        return engine_ctx_priority_begin(ctx, "choice", 1u << s->active,
                                         s->active); /* 410.2, 412.2 */
    if (!strcmp(step, "choice")) {
        char who[24];
        sk_log(ctx, "hand_over", "%s hands the turn over.",
               sk_cap(sk_seat_name(ctx, s->active, who)));
        return engine_ctx_priority_begin(ctx, "handover", 1u << (1 - s->active),
                                         1 - s->active);
    }
    if (!strcmp(step, "handover") || !strcmp(step, "handover_all")) {
        end_phase(s, ctx);
        return 0;
    }
    turn_over(s, ctx); /* "end" */
    return 0;
}

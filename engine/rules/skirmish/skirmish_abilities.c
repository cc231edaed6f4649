/*
 * skirmish_abilities.c - the interpreter of Skirmish's ability vocabulary
 * (docs/games/skirmish.md, "Ability vocabulary"): who an effect reaches,
 * what each kind does, the triggered abilities that go on the stack, and
 * the resources of 501: reserved at declaration, paid after the effect as
 * far as the source can (ours). No code belongs to any single card.
 */
#include <stdio.h>
#include <string.h>

#include "engine/rules/skirmish/skirmish_internal.h"

/* The square u stands on, or last stood on (effects of a source that has
 * left the field count range from there). */
static int where(const sk_state *s, int u)
{
    return s->cr[u][U_SQ] >= 0 ? s->cr[u][U_SQ] : s->cr[u][U_LAST_SQ];
}

int sk_target_ok(const sk_state *s, int u, const skirmish_ability *a, int t,
                 int from_sq)
{
    if (!sk_on_field(s, t) || from_sq < 0)
        return 0;
    int d = sk_dist(from_sq, s->cr[t][U_SQ]);
    int ally = s->cr[t][U_OWNER] == s->cr[u][U_OWNER];
    switch (a->target) {
    case SKIRMISH_TG_ALLY:
        return ally && d <= a->range;
    case SKIRMISH_TG_ENEMY:
        return !ally && d >= 1 && d <= a->range;
    case SKIRMISH_TG_CREATURE:
        return d >= 1 && d <= a->range;
    default:
        return 0;
    }
}

/* The units an effect reaches on resolution (501.2 for groups). */
static int reach(const sk_state *s, int u, const skirmish_ability *a,
                 int target, int *out)
{
    int n = 0, from = where(s, u), owner = s->cr[u][U_OWNER];
    switch (a->target) {
    case SKIRMISH_TG_SELF:
        if (sk_on_field(s, u))
            out[n++] = u;
        return n;
    case SKIRMISH_TG_ALLY:
    case SKIRMISH_TG_ENEMY:
    case SKIRMISH_TG_CREATURE:
        if (target >= 0 && sk_target_ok(s, u, a, target, from))
            out[n++] = target;
        return n;
    default:
        break;
    }
    for (int sq = 0; sq < SK_SQUARES; sq++) {
        int t = sk_unit_at(s, sq);
        if (t < 0 || t == u)
            continue;
        int ally = s->cr[t][U_OWNER] == owner, adj = sk_dist(from, sq) == 1;
        if ((a->target == SKIRMISH_TG_ADJ_ALLIES && ally && adj) ||
            (a->target == SKIRMISH_TG_ADJ_ENEMIES && !ally && adj) ||
            (a->target == SKIRMISH_TG_ADJ_CREATURES && adj) ||
            (a->target == SKIRMISH_TG_ALL_ALLIES && ally))
            out[n++] = t;
    }
    if (a->target == SKIRMISH_TG_ALL_ALLIES && sk_on_field(s, u))
        out[n++] = u; /* "each of your creatures" includes itself */
    return n;
}

static void aura(sk_state *s, int t, const skirmish_ability *a)
{
    int *c = s->cr[t];
    if (a->stat == SKIRMISH_ST_STRIKE)
        c[U_AURA_STRIKE] += a->amount;
    else if (a->stat == SKIRMISH_ST_ARMOUR)
        c[U_AURA_ARMOUR] += a->amount;
    else {
        c[U_AURA_MOVE] += a->amount;
        c[U_MP] = c[U_MP] + a->amount > 0 ? c[U_MP] + a->amount : 0;
    }
}

/* Counterspell: the item leaves the stack unresolved; its source pays. */
static void cancel(sk_state *s, engine_ctx *ctx, uint32_t item)
{
    const engine_stack *st = engine_ctx_stack(ctx);
    for (size_t i = 0; i < engine_stack_size(st); i++) {
        const engine_stack_item *it = engine_stack_at(st, i);
        if (it->id != item || !sk_item_is_spell(it))
            continue;
        int src = (int)json_integer_value(json_object_get(it->payload, "unit"));
        skirmish_cost c = sk_item_cost(it->payload);
        sk_log(ctx, "cancelled", "Item %u (%s) is cancelled.", item,
               json_string_value(json_object_get(it->payload, "text")));
        engine_ctx_stack_remove(ctx, item); /* `it` is gone from here on */
        sk_pay(s, ctx, src, &c);
        return;
    }
    sk_log(ctx, "cancelled", "Item %u is no longer on the stack.", item);
}

static int on_stack(engine_ctx *ctx, uint32_t item)
{
    const engine_stack *st = engine_ctx_stack(ctx);
    for (size_t i = 0; i < engine_stack_size(st); i++)
        if (engine_stack_at(st, i)->id == item)
            return 1;
    return 0;
}

static void apply_one(sk_state *s, engine_ctx *ctx, const skirmish_ability *a,
                      int t)
{
    char tn[80];
    sk_unit_name(s, t, tn, sizeof tn);
    switch (a->kind) {
    case SKIRMISH_K_DAMAGE: {
        int n = a->amount - (a->spell ? 0 : sk_armour(s, t));
        n = n > 0 ? n : 0;
        sk_log(ctx, "damage", "%s takes %d damage.", tn, n);
        sk_lose_life(s, ctx, t, n);
        break;
    }
    case SKIRMISH_K_HEAL:
        sk_heal(s, t, a->amount);
        sk_log(ctx, "heal", "%s is healed to %d life.", tn, s->cr[t][U_LIFE]);
        break;
    case SKIRMISH_K_AURA:
        aura(s, t, a);
        sk_log(ctx, "aura", "%s gets %+d %s until end of turn.", tn, a->amount,
               skirmish_stat_name(a->stat));
        break;
    case SKIRMISH_K_POISON:
        s->cr[t][U_POISON] += a->amount;
        sk_log(ctx, "poison", "%s is poisoned (%d).", tn, s->cr[t][U_POISON]);
        break;
    case SKIRMISH_K_TOKENS: {
        int n = s->cr[t][U_TOKENS] + a->amount;
        s->cr[t][U_TOKENS] = n < SK_MAX_TOKENS ? n : SK_MAX_TOKENS;
        sk_log(ctx, "tokens", "%s has %d tokens.", tn, s->cr[t][U_TOKENS]);
        break;
    }
    default:
        break;
    }
}

void sk_effect(sk_state *s, engine_ctx *ctx, int u, const skirmish_ability *a,
               int target, uint32_t item, const json_t *payload)
{
    (void)payload;
    if (a->kind == SKIRMISH_K_COUNTERSPELL) {
        cancel(s, ctx, item);
        return;
    }
    if (a->kind == SKIRMISH_K_PARRY) {
        if (on_stack(ctx, item) && s->nparry < SK_MAX_PARRY) {
            s->parry[s->nparry][0] = (int)item;
            s->parry[s->nparry++][1] = (uint8_t)a->amount; /* 1..9 */
            sk_log(ctx, "parry", "The attack (item %u) will strike %d less.",
                   item, a->amount);
        }
        return;
    }
    int list[SK_MAXU];
    int n = reach(s, u, a, target, list);
    if (n == 0) {
        char un[80];
        sk_log(ctx, "fizzle", "The ability of %s finds no target.",
               sk_unit_name(s, u, un, sizeof un));
    }
    for (int i = 0; i < n; i++)
        apply_one(s, ctx, a, list[i]);
}

/* ----------------------------------------------------------- triggers -- */

void sk_queue_triggers(sk_state *s, engine_ctx *ctx, int u, int tr,
                       int attacker)
{
    const skirmish_design *d = sk_design(s, u);
    char un[80], text[200];
    sk_unit_name(s, u, un, sizeof un);
    for (int i = 0; i < d->nab; i++) {
        const skirmish_ability *a = &d->ab[i];
        if (a->timing != SKIRMISH_T_TRIGGER || a->trigger != tr)
            continue;
        engine_stack_item it = {0};
        it.owner = s->cr[u][U_OWNER];
        snprintf(it.source, sizeof it.source, "%s#%d", d->key, u);
        skirmish_ability_text(a, text, sizeof text);
        int hostile = a->target == SKIRMISH_TG_ENEMY ||
                      a->target == SKIRMISH_TG_ADJ_ENEMIES ||
                      a->target == SKIRMISH_TG_CREATURE ||
                      a->target == SKIRMISH_TG_ADJ_CREATURES;
        it.target_seats = hostile ? 1u << (1 - it.owner) : 1u << it.owner;
        char words[300];
        snprintf(words, sizeof words, "%s: %s", un, text);
        it.payload =
            json_pack("{s:s, s:i, s:i, s:i, s:b, s:[iiii], s:s}", "kind",
                      "trigger", "unit", u, "ability", i, "attacker", attacker,
                      "spell", a->spell, "cost", 0, 0, 0, 0, "text", words);
        engine_ctx_trigger(ctx, &it);
    }
}

/* ------------------------------------------------------------ payment -- */

int sk_can_reserve(const sk_state *s, int u, const skirmish_cost *c)
{
    const int *r = s->cr[u];
    if (c->tap && (r[U_CLOSED] || r[U_RES_TAP]))
        return 0;
    return r[U_MP] - r[U_RES_MP] >= c->move &&
           r[U_TOKENS] - r[U_RES_TOKENS] >= c->tokens &&
           (c->life == 0 || r[U_LIFE] > r[U_RES_LIFE] + c->life);
}

void sk_reserve(sk_state *s, int u, const skirmish_cost *c, int sign)
{
    int *r = s->cr[u];
    r[U_RES_MP] += sign * c->move;
    r[U_RES_TAP] += sign * c->tap;
    r[U_RES_TOKENS] += sign * c->tokens;
    r[U_RES_LIFE] += sign * c->life;
    for (int k = U_RES_MP; k <= U_RES_LIFE; k++)
        if (r[k] < 0)
            r[k] = 0;
}

void sk_pay(sk_state *s, engine_ctx *ctx, int u, const skirmish_cost *c)
{
    if (u < 0 || u >= s->nu)
        return;
    sk_reserve(s, u, c, -1);
    if (!sk_on_field(s, u) || (!c->move && !c->tap && !c->tokens && !c->life))
        return; /* a source that has left the field pays nothing */
    int *r = s->cr[u];
    char un[80];
    sk_unit_name(s, u, un, sizeof un);
    r[U_MP] = r[U_MP] > c->move ? r[U_MP] - c->move : 0;
    r[U_TOKENS] = r[U_TOKENS] > c->tokens ? r[U_TOKENS] - c->tokens : 0;
    if (c->tap)
        r[U_CLOSED] = 1;
    char what[120];
    int n = snprintf(what, sizeof what, "%s", c->tap ? ", closes" : "");
    if (c->move)
        n += snprintf(what + n, sizeof what - (size_t)n, ", %d movement",
                      c->move);
    if (c->tokens)
        n += snprintf(what + n, sizeof what - (size_t)n, ", %d token(s)",
                      c->tokens);
    if (c->life)
        snprintf(what + n, sizeof what - (size_t)n, ", %d life", c->life);
    sk_log(ctx, "pay", "%s pays%s.", un, what);
    if (c->life)
        sk_lose_life(s, ctx, u, c->life);
}

skirmish_cost sk_item_cost(const json_t *payload)
{
    const json_t *c = json_object_get(payload, "cost");
    skirmish_cost k = {0};
    k.move = (uint8_t)json_integer_value(json_array_get(c, 0));
    k.tap = (uint8_t)json_integer_value(json_array_get(c, 1));
    k.tokens = (uint8_t)json_integer_value(json_array_get(c, 2));
    k.life = (uint8_t)json_integer_value(json_array_get(c, 3));
    return k;
}

int sk_item_is_spell(const engine_stack_item *it)
{
    return json_is_true(json_object_get(it->payload, "spell"));
}

int sk_item_attack_target(const engine_stack_item *it)
{
    const char *k = json_string_value(json_object_get(it->payload, "kind"));
    if (!k || strcmp(k, "attack") != 0)
        return -1;
    return (int)json_integer_value(json_object_get(it->payload, "target"));
}

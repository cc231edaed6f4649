/*
 * skirmish_text.c - the player-facing texts of Skirmish's creature designs,
 * generated from their ability data, and the card data as client JSON (one
 * design, or the whole public catalogue).
 *
 * These texts are the one source of card wording: clients read them from
 * the JSON, and the card list in docs/games/skirmish.md is checked against
 * them by tests/unit/skirmish/test_skirmish_cards.c.
 */
#include "engine/rules/skirmish/skirmish_cards.h"

#include <stdio.h>
#include <string.h>

/* "an enemy within 3", "each adjacent ally", ... */
static void target_words(const skirmish_ability *a, char *buf, size_t n)
{
    switch (a->target) {
    case SKIRMISH_TG_SELF:
        snprintf(buf, n, "itself");
        break;
    case SKIRMISH_TG_ALLY:
        snprintf(buf, n, "an ally within %d", a->range);
        break;
    case SKIRMISH_TG_ENEMY:
        snprintf(buf, n, "an enemy within %d", a->range);
        break;
    case SKIRMISH_TG_CREATURE:
        snprintf(buf, n, "a creature within %d", a->range);
        break;
    case SKIRMISH_TG_ADJ_ALLIES:
        snprintf(buf, n, "each adjacent ally");
        break;
    case SKIRMISH_TG_ADJ_ENEMIES:
        snprintf(buf, n, "each adjacent enemy");
        break;
    case SKIRMISH_TG_ADJ_CREATURES:
        snprintf(buf, n, "each adjacent creature");
        break;
    case SKIRMISH_TG_ALL_ALLIES:
        snprintf(buf, n, "each of your creatures");
        break;
    default:
        snprintf(buf, n, "?");
    }
}

/* "Close, 1 movement, 2 tokens, 1 life" */
static void cost_words(const skirmish_cost *c, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = 0;
    if (c->tap)
        used += (size_t)snprintf(buf + used, n - used, "Close");
    if (c->move && used < n)
        used += (size_t)snprintf(buf + used, n - used, "%s%d movement",
                                 used ? ", " : "", c->move);
    if (c->tokens && used < n)
        used += (size_t)snprintf(buf + used, n - used, "%s%d token%s",
                                 used ? ", " : "", c->tokens,
                                 c->tokens == 1 ? "" : "s");
    if (c->life && used < n)
        snprintf(buf + used, n - used, "%s%d life", used ? ", " : "", c->life);
}

/* The effect as a verb phrase ("deal 2 damage to an enemy within 3"). */
static void effect_words(const skirmish_ability *a, char *buf, size_t n)
{
    static const char *const stat_words[SKIRMISH_ST_COUNT] = {
        "strike", "armour", "movement"};
    char who[48];
    target_words(a, who, sizeof who);
    const char *tag = a->spell ? " (spell)" : "";
    switch (a->kind) {
    case SKIRMISH_K_DAMAGE:
        if (!a->spell && a->range > 0)
            tag = " (shot)";
        snprintf(buf, n, "deal %d damage to %s%s", a->amount, who, tag);
        break;
    case SKIRMISH_K_HEAL:
        snprintf(buf, n, "heal %s by %d%s", who, a->amount, tag);
        break;
    case SKIRMISH_K_AURA:
        snprintf(buf, n, "give %s %+d %s until end of turn%s", who, a->amount,
                 stat_words[a->stat % SKIRMISH_ST_COUNT], tag);
        break;
    case SKIRMISH_K_POISON:
        snprintf(buf, n,
                 "poison %s (it loses %d life at the end of each of its "
                 "controller's turns until healed)%s",
                 who, a->amount, tag);
        break;
    case SKIRMISH_K_TOKENS:
        snprintf(buf, n, "put %d token%s on itself", a->amount,
                 a->amount == 1 ? "" : "s");
        break;
    case SKIRMISH_K_PARRY:
        if (a->target == SKIRMISH_TG_SELF)
            snprintf(buf, n,
                     "parry %d (an attack on it, on the stack, strikes "
                     "%d less)",
                     a->amount, a->amount);
        else
            snprintf(buf, n,
                     "parry %d (an attack on it or on an ally within "
                     "%d, on the stack, strikes %d less)",
                     a->amount, a->range, a->amount);
        break;
    case SKIRMISH_K_COUNTERSPELL:
        snprintf(buf, n, "cancel a spell on the stack%s", tag);
        break;
    default:
        snprintf(buf, n, "?");
    }
}

/* A static keyword's text. */
static void keyword_words(const skirmish_ability *a, char *buf, size_t n)
{
    static const char *const when_words[SKIRMISH_W_COUNT] = {
        "", " when it attacks", " when it strikes back"};
    switch (a->kind) {
    case SKIRMISH_K_FIRST_STRIKE:
        snprintf(buf, n, "First strike.");
        break;
    case SKIRMISH_K_FLYING:
        snprintf(buf, n, "Flying.");
        break;
    case SKIRMISH_K_ARMOUR:
        snprintf(buf, n, "Armour %d.", a->amount);
        break;
    case SKIRMISH_K_STRIKE_MOD:
        snprintf(buf, n, "%+d to its strikes%s.", a->amount,
                 when_words[a->when % SKIRMISH_W_COUNT]);
        break;
    case SKIRMISH_K_REGENERATION:
        snprintf(buf, n, "Regeneration %d.", a->amount);
        break;
    default:
        snprintf(buf, n, "?");
    }
}

void skirmish_ability_text(const skirmish_ability *a, char *buf, size_t n)
{
    static const char *const trigger_words[SKIRMISH_TR_COUNT] = {
        "?",
        "When it enters the field",
        "When it dies",
        "When it is attacked",
        "At the start of your turn",
        "At the end of your turn"};
    char eff[200], cost[64];
    if (n == 0)
        return;
    if (a->timing == SKIRMISH_T_STATIC) {
        keyword_words(a, buf, n);
        return;
    }
    effect_words(a, eff, sizeof eff);
    cost_words(&a->cost, cost, sizeof cost);
    if (a->timing == SKIRMISH_T_TRIGGER)
        snprintf(buf, n, "%s, %s.",
                 trigger_words[a->trigger % SKIRMISH_TR_COUNT], eff);
    else if (a->timing == SKIRMISH_T_SUDDEN)
        snprintf(buf, n, "Sudden. %s: %s.", cost, eff);
    else
        snprintf(buf, n, "%s: %s.", cost, eff);
}

void skirmish_design_text(const skirmish_design *d, char *buf, size_t n)
{
    size_t used = 0;
    if (n == 0)
        return;
    buf[0] = 0;
    if (d->tokens)
        used += (size_t)snprintf(buf, n, "Enters with %d token%s.", d->tokens,
                                 d->tokens == 1 ? "" : "s");
    for (int i = 0; i < d->nab && used < n; i++) {
        char one[300];
        skirmish_ability_text(&d->ab[i], one, sizeof one);
        used += (size_t)snprintf(buf + used, n - used, "%s%s", used ? " " : "",
                                 one);
    }
}

static json_t *ability_json(const skirmish_ability *a)
{
    char text[300];
    skirmish_ability_text(a, text, sizeof text);
    json_t *o = json_object();
    json_object_set_new(o, "kind", json_string(skirmish_kind_name(a->kind)));
    json_object_set_new(o, "timing",
                        json_string(skirmish_timing_name(a->timing)));
    if (a->timing == SKIRMISH_T_TRIGGER)
        json_object_set_new(o, "trigger",
                            json_string(skirmish_trigger_name(a->trigger)));
    if (a->timing == SKIRMISH_T_ACTION || a->timing == SKIRMISH_T_SUDDEN)
        json_object_set_new(o, "cost",
                            json_pack("{s:i, s:b, s:i, s:i}", "move",
                                      a->cost.move, "tap", a->cost.tap,
                                      "tokens", a->cost.tokens, "life",
                                      a->cost.life));
    if (a->target != SKIRMISH_TG_NONE)
        json_object_set_new(o, "target",
                            json_string(skirmish_target_name(a->target)));
    if (a->range)
        json_object_set_new(o, "range", json_integer(a->range));
    if (a->amount)
        json_object_set_new(o, "amount", json_integer(a->amount));
    if (a->kind == SKIRMISH_K_AURA)
        json_object_set_new(o, "stat",
                            json_string(skirmish_stat_name(a->stat)));
    if (a->kind == SKIRMISH_K_STRIKE_MOD)
        json_object_set_new(o, "when",
                            json_string(skirmish_when_name(a->when)));
    json_object_set_new(o, "spell", json_boolean(a->spell));
    json_object_set_new(o, "text", json_string(text));
    return o;
}

json_t *skirmish_design_json(const skirmish_cardset *cs,
                             const skirmish_design *d)
{
    char text[1200];
    skirmish_design_text(d, text, sizeof text);
    json_t *abs = json_array();
    for (int i = 0; i < d->nab; i++)
        json_array_append_new(abs, ability_json(&d->ab[i]));
    return json_pack("{s:s, s:s, s:s, s:i, s:i, s:i, s:[i,i,i], s:i, s:o, "
                     "s:s}",
                     "key", d->key, "name", d->name, "faction",
                     d->faction < cs->nfactions ? cs->factions[d->faction].key
                                                : "?",
                     "cost", d->cost, "life", d->life, "move", d->move,
                     "strike", d->strike[0], d->strike[1], d->strike[2],
                     "tokens", d->tokens, "abilities", abs, "text", text);
}

json_t *skirmish_catalog(void)
{
    const skirmish_cardset *cs = skirmish_cards();
    if (!cs)
        return NULL;
    json_t *factions = json_array(), *cards = json_array(),
           *squads = json_array();
    for (int i = 0; i < cs->nfactions; i++)
        json_array_append_new(factions, json_pack("{s:s, s:s}", "key",
                                                  cs->factions[i].key, "name",
                                                  cs->factions[i].name));
    for (int i = 0; i < cs->ndesigns; i++)
        json_array_append_new(cards, skirmish_design_json(cs, &cs->designs[i]));
    for (int i = 0; i < cs->nsquads; i++) {
        const skirmish_squad *q = &cs->squads[i];
        json_t *keys = json_array();
        for (int j = 0; j < q->n; j++)
            json_array_append_new(keys,
                                  json_string(cs->designs[q->cards[j]].key));
        json_array_append_new(
            squads, json_pack("{s:s, s:s, s:o, s:i}", "key", q->key, "name",
                              q->name, "cards", keys, "cost",
                              skirmish_squad_cost(cs, q->cards, q->n)));
    }
    return json_pack("{s:o, s:o, s:o, s:{s:i, s:i, s:i}, s:s}", "factions",
                     factions, "cards", cards, "squads", squads, "muster",
                     "budget", cs->budget, "max_creatures", cs->max_creatures,
                     "max_copies", cs->max_copies, "sha256", cs->sha256);
}

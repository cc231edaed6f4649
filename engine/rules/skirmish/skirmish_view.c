/*
 * skirmish_view.c - what each audience sees of a Skirmish game, the legal
 * shapes of the sealed windows, and the result.
 *
 * Nothing of a squad is in the state before the muster reveal, and no
 * square before the deployment reveal (the orders are held by the core),
 * so the views cannot show the other squad early. The core adds the
 * priority holder and the stack with its sources and targets. The view's
 * "cards" holds the design of every creature it shows (strike, abilities
 * and their text, for drawing the cards); the muster window's legal answer
 * holds the whole public catalogue for building a squad.
 */
#include <string.h>

#include "engine/rules/skirmish/skirmish_internal.h"

static const char *const phase_names[] = {"muster", "deploy", "play", "over"};

static json_t *unit_json(const sk_state *s, int u)
{
    const int *c = s->cr[u];
    const skirmish_design *d = sk_design(s, u);
    char sq[4];
    json_t *j = json_pack(
        "{s:i, s:s, s:s, s:i, s:b, s:i, s:i, s:i, s:i, s:b, s:i, s:i, "
        "s:{s:i, s:i, s:i}, s:{s:i, s:i, s:i, s:i}}",
        "id", u, "key", d->key, "name", d->name, "owner", c[U_OWNER], "alive",
        !c[U_DEAD], "life", c[U_LIFE], "max_life", d->life, "move", c[U_MP],
        "armour", sk_armour(s, u), "closed", c[U_CLOSED], "tokens", c[U_TOKENS],
        "poison", c[U_POISON], "auras", "strike", c[U_AURA_STRIKE], "armour",
        c[U_AURA_ARMOUR], "move", c[U_AURA_MOVE], "reserved", "move",
        c[U_RES_MP], "close", c[U_RES_TAP], "tokens", c[U_RES_TOKENS], "life",
        c[U_RES_LIFE]);
    json_object_set_new(j, "square",
                        c[U_SQ] >= 0 ? json_string(sk_sq_name(c[U_SQ], sq))
                                     : json_null());
    return j;
}

static json_t *dice_json(const sk_state *s)
{
    if (s->dice[0] < 0)
        return json_null();
    return json_pack("{s:i, s:i, s:[ii], s:[ii]}", "attacker", s->dice[0],
                     "target", s->dice[1], "rolls", s->dice[2], s->dice[3],
                     "strikes", s->dice[4], s->dice[5]);
}

json_t *sk_view(const void *state, int seat)
{
    const sk_state *s = state;
    (void)seat; /* everything in the state is public */
    json_t *units = json_array(), *squads = json_array(),
           *cards = json_object();
    for (int u = 0; u < s->nu; u++) {
        const skirmish_design *d = sk_design(s, u);
        json_array_append_new(units, unit_json(s, u));
        if (!json_object_get(cards, d->key))
            json_object_set_new(cards, d->key,
                                skirmish_design_json(sk_cards(), d));
    }
    for (int k = 0; k < SK_SEATS && s->phase > SK_MUSTER; k++)
        json_array_append_new(
            squads, json_pack("{s:i, s:i, s:i, s:i}", "seat", k, "cost",
                              s->cost[k], "creatures", s->nunits[k], "standing",
                              sk_squad_alive(s, k)));
    json_t *v = json_pack(
        "{s:s, s:i, s:i, s:o, s:o, s:o, s:o, s:{s:i, s:i}}", "phase",
        phase_names[s->phase], "turn", s->turn, "turn_limit", s->turn_limit,
        "active", s->active >= 0 ? json_integer(s->active) : json_null(),
        "units", units, "squads", squads, "dice", dice_json(s), "field", "cols",
        SKIRMISH_COLS, "rows", SKIRMISH_ROWS);
    json_object_set_new(v, "budget", json_integer(sk_cards()->budget));
    json_object_set_new(v, "cards", cards);
    if (s->phase == SK_OVER)
        json_object_set_new(v, "result", sk_result(s));
    return v;
}

json_t *sk_legal(const void *state, int seat, const char *window)
{
    const sk_state *s = state;
    const skirmish_cardset *cs = sk_cards();
    if (s->phase == SK_MUSTER && strcmp(window, "muster") == 0) {
        json_t *choices = json_array();
        for (int i = 0; i < cs->nsquads; i++)
            json_array_append_new(
                choices, json_pack("{s:s}", "squad", cs->squads[i].key));
        return json_pack(
            "{s:s, s:{s:s, s:[{s:{s:{s:s}}, s:[s]}, {s:{s:{s:s, s:i}}, "
            "s:[s]}]}, s:o, s:o}",
            "kind", "order", "shape", "type", "object", "oneOf", "properties",
            "squad", "type", "string", "required", "squad", "properties",
            "cards", "type", "array", "maxItems", cs->max_creatures, "required",
            "cards", "choices", choices, "catalog", skirmish_catalog());
    }
    if (s->phase == SK_DEPLOY && strcmp(window, "deploy") == 0 && seat >= 0 &&
        seat < SK_SEATS)
        return json_pack("{s:s, s:{s:s, s:[s], s:{s:{s:s, s:i, s:i}}}, s:n}",
                         "kind", "order", "shape", "type", "object", "required",
                         "squares", "properties", "squares", "type", "array",
                         "minItems", s->nunits[seat], "maxItems",
                         s->nunits[seat], "choices");
    return NULL;
}

json_t *sk_result(const void *state)
{
    const sk_state *s = state;
    if (s->phase != SK_OVER)
        return NULL;
    int score[SK_SEATS] = {0};
    for (int u = 0; u < s->nu; u++)
        if (sk_on_field(s, u))
            score[s->cr[u][U_OWNER]] += sk_design(s, u)->cost;
    json_t *winners = json_array();
    if (s->winner == 0 || s->winner == 1)
        json_array_append_new(winners, json_integer(s->winner));
    return json_pack("{s:o, s:[ii], s:b, s:i}", "winners", winners, "scores",
                     score[0], score[1], "draw", s->winner == 2, "turns",
                     s->turn);
}

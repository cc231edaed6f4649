/*
 * council_parts_schema.c - the JSON Schema of the order a Galactic Council
 * parts window takes, for the legal answer's "shape" (docs/games/council.md,
 * "Order formats"): a client can build its forms from it. The action
 * window's parts are steps or lists of steps (with nested ifs); the lobby's
 * and the council's are typed parts (play, give, objective, representative;
 * vote, markers, capture, give).
 *
 * The schema says what the parsers (council_orders.c, council_council.c)
 * check of a part's shape when it is saved, built from the same rules data
 * (unit, card, objective and marker keys) so its enumerations are the
 * game's. What it cannot say is left to the save-time answer: a condition's
 * sector must be the one its step acts on, a move must be within reach, a
 * strategy option must be the named card's. It depends only on public facts
 * (the agenda on the table decides the vote's form), never on a seat's
 * hidden ones.
 */
#include "engine/rules/council/council_council.h"
#include "engine/rules/council/council_orders.h"

#include <stdio.h>
#include <string.h>

static json_t *ref(const char *def)
{
    char r[64];
    snprintf(r, sizeof r, "#/$defs/%s", def);
    return json_pack("{s:s}", "$ref", r);
}

static json_t *int_range(int lo, int hi)
{
    return json_pack("{s:s, s:i, s:i}", "type", "integer", "minimum", lo,
                     "maximum", hi);
}

static json_t *strings(const char *const *names, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_string(names[i]));
    return a;
}

/* A closed object: {"type": t} plus props (stolen), required (names). */
static json_t *typed(const char *t, json_t *props, const char *const *req)
{
    json_object_set_new(props, "type", json_pack("{s:s}", "const", t));
    json_t *r = json_array();
    json_array_append_new(r, json_string("type"));
    for (int i = 0; req && req[i]; i++)
        json_array_append_new(r, json_string(req[i]));
    return json_pack("{s:s, s:o, s:o, s:b}", "type", "object", "properties",
                     props, "required", r, "additionalProperties", 0);
}

/* The enumerations of the rules data. */
static json_t *keys_units(const cnc_data *d)
{
    json_t *a = json_array();
    for (int i = 0; i < d->nunits; i++)
        json_array_append_new(a, json_string(d->units[i].key));
    return a;
}

static json_t *keys_strategies(const cnc_data *d)
{
    json_t *a = json_array();
    for (int i = 0; i < d->nstrategies; i++)
        json_array_append_new(a, json_string(d->strategies[i].key));
    return a;
}

static json_t *strategy_options(const cnc_data *d)
{
    json_t *a = json_array();
    for (int i = 0; i < d->nstrategies; i++)
        for (int k = 0; k < d->strategies[i].noptions; k++) {
            int seen = 0;
            for (size_t j = 0; j < json_array_size(a); j++)
                seen |= strcmp(json_string_value(json_array_get(a, j)),
                               d->strategies[i].options[k]) == 0;
            if (!seen)
                json_array_append_new(a,
                                      json_string(d->strategies[i].options[k]));
        }
    return a;
}

/* Action card keys: timed for the council only (council 1), or all (0:
 * an action order's play step names any card when saved; its timing is
 * checked when it resolves). */
static json_t *keys_actions(const cnc_data *d, int council)
{
    json_t *a = json_array();
    for (int i = 0; i < d->nactions; i++)
        if (!council || d->actions[i].timing == CNC_TIME_COUNCIL)
            json_array_append_new(a, json_string(d->actions[i].key));
    return a;
}

static json_t *keys_objectives(const cnc_data *d, int secret)
{
    json_t *a = json_array();
    for (int i = 0; i < d->nobjectives; i++)
        if (!d->objectives[i].secret == !secret)
            json_array_append_new(a, json_string(d->objectives[i].key));
    return a;
}

static json_t *keys_markers(const cnc_data *d)
{
    json_t *a = json_array();
    json_array_append_new(a, json_string("hostile"));
    json_array_append_new(a, json_string("friendly"));
    for (int i = 0; i < d->nmarkers; i++)
        json_array_append_new(a, json_string(d->markers[i].key));
    return a;
}

/* The step types of an action part, each a closed object: the oneOf of
 * the "step" definition. */
static json_t *action_steps(const cnc_data *d)
{
    json_t *one = json_array();
#define STEP(t, props, ...)                                                    \
    do {                                                                       \
        static const char *const req_[] = {__VA_ARGS__};                       \
        json_array_append_new(one, typed(t, props, req_));                     \
    } while (0)
    STEP("activate", json_pack("{s:o}", "sector", ref("hex")), "sector", NULL);
    STEP("move",
         json_pack("{s:o, s:o, s:o}", "from", ref("hex"), "to", ref("hex"),
                   "units", ref("units")),
         "from", "to", "units", NULL);
    STEP("land",
         json_pack("{s:o, s:{s:[o, {s:s}]}, s:o}", "planet", ref("planet"),
                   "troops", "anyOf", int_range(1, CNC_MAX_TROOPS), "const",
                   "all", "sector", ref("hex")),
         "planet", "troops", NULL);
    STEP("produce",
         json_pack("{s:o, s:o}", "sector", ref("hex"), "units", ref("units")),
         "sector", "units", NULL);
    STEP("strategy",
         json_pack("{s:{s:o}, s:{s:o}, s:{s:s, s:o, s:i}, s:o}", "card", "enum",
                   keys_strategies(d), "option", "enum", strategy_options(d),
                   "targets", "type", "array", "items", ref("hex"), "maxItems",
                   3, "next_objective", int_range(1, 2)),
         "card", NULL);
    STEP("inspect",
         json_pack("{s:o, s:o}", "planet", ref("planet_or_system"), "sector",
                   ref("hex")),
         NULL);
    STEP("retreat", json_pack("{s:o}", "to", ref("hex")), "to", NULL);
    STEP("hold", json_object(), NULL);
    STEP("explore", json_pack("{s:o}", "sector", ref("hex")), "sector", NULL);
    STEP("scan",
         json_pack("{s:o, s:o}", "sector", ref("hex"), "planet",
                   ref("planet_or_system")),
         "sector", NULL);
    STEP("if",
         json_pack(
             "{s:o, s:o, s:o}", "cond", ref("cond"), "then",
             json_pack("{s:s, s:i}", "$ref", "#/$defs/steps", "minItems", 1),
             "else", ref("steps")),
         "cond", "then", NULL);
    STEP("discard",
         json_pack("{s:o, s:o}", "sector", ref("hex"), "planet",
                   ref("planet_or_system")),
         NULL);
    STEP("tokens",
         json_pack("{s:o, s:o, s:o}", "tactic", int_range(0, 16), "fleet",
                   int_range(0, 16), "strategy", int_range(0, 16)),
         "tactic", "fleet", "strategy", NULL);
    STEP("combat_retreat",
         json_pack("{s:o, s:o, s:o}", "sector", ref("hex"), "to", ref("hex"),
                   "after", int_range(1, 5)),
         "sector", "to", NULL);
    STEP("play",
         json_pack("{s:{s:o}, s:o, s:o}", "card", "enum", keys_actions(d, 0),
                   "sector", ref("hex"), "planet", ref("planet_or_system")),
         "card", NULL);
    STEP("follow",
         json_pack("{s:{s:o}, s:{s:o}, s:{s:s, s:o, s:i}}", "card", "enum",
                   keys_strategies(d), "option", "enum", strategy_options(d),
                   "targets", "type", "array", "items", ref("hex"), "maxItems",
                   3),
         "card", NULL);
    STEP("share",
         json_pack("{s:o, s:{s:s}}", "seat", int_range(0, ENGINE_MAX_SEATS - 1),
                   "on", "type", "boolean"),
         "seat", NULL);
    STEP("lore",
         json_pack("{s:o, s:o}", "sector", ref("hex"), "planet",
                   ref("planet_or_system")),
         "sector", NULL);
    STEP("score",
         json_pack("{s:{s:s, s:{s:o}, s:i}, s:{s:s, s:{s:o}, s:i}}", "public",
                   "type", "array", "items", "enum", keys_objectives(d, 0),
                   "maxItems", CNC_SCORE_PREFS, "secret", "type", "array",
                   "items", "enum", keys_objectives(d, 1), "maxItems",
                   CNC_SCORE_PREFS),
         NULL);
#undef STEP
    return one;
}

/* The shared definitions of the action window's steps. */
static json_t *action_defs(const cnc_data *d)
{
    static const char *const selectors[] = {"all", "highest_influence",
                                            "highest_resources"};
    static const char *const conds[] = {"holds", "marker_is", "enemy_ships",
                                        "fleet_survived", "influence_at_least"};
    static const char *const holds[] = {"planets", "anomaly", "marker",
                                        "enemy_troops"};
    json_t *defs = json_object();
    json_object_set_new(
        defs, "hex",
        json_pack("{s:s, s:s, s:{s:s, s:i, s:i}, s:i, s:i}", "description",
                  "a sector [q, r] on the map", "type", "array", "items",
                  "type", "integer", "minimum", -CNC_MAX_RADIUS, "maximum",
                  CNC_MAX_RADIUS, "minItems", 2, "maxItems", 2));
    json_object_set_new(defs, "units",
                        json_pack("{s:s, s:s, s:i, s:{s:o}, s:o}",
                                  "description", "{unit: count}", "type",
                                  "object", "minProperties", 1, "propertyNames",
                                  "enum", keys_units(d), "additionalProperties",
                                  int_range(1, 30)));
    json_object_set_new(
        defs, "planet",
        json_pack("{s:s, s:[{s:o}, {s:s, s:s}]}", "description",
                  "a planet's key (the view's galaxy names them), or a "
                  "selector",
                  "anyOf", "enum", strings(selectors, 3), "type", "string",
                  "pattern", "^[a-z0-9_]{1,31}$"));
    json_object_set_new(defs, "planet_or_system",
                        json_pack("{s:[{s:s}, {s:o}]}", "anyOf", "const",
                                  "system", "$ref",
                                  json_string("#/$defs/planet")));
    json_object_set_new(
        defs, "cond",
        json_pack(
            "{s:s, s:{s:{s:o}, s:o, s:{s:s}, s:{s:o}, s:{s:o}, s:o, s:o}, "
            "s:[s], s:b}",
            "type", "object", "properties", "type", "enum", strings(conds, 5),
            "sector", ref("hex"), "not", "type", "boolean", "what", "enum",
            strings(holds, 4), "is", "enum", keys_markers(d), "planet",
            ref("planet"), "n", int_range(0, 9), "required", "type",
            "additionalProperties", 0));
    json_object_set_new(defs, "steps",
                        json_pack("{s:s, s:o, s:i}", "type", "array", "items",
                                  ref("step"), "maxItems", CNC_MAX_STEPS));

    json_t *one = action_steps(d);
    json_object_set_new(defs, "step", json_pack("{s:o}", "oneOf", one));
    json_object_set_new(
        defs, "part",
        json_pack("{s:s, s:[o, {s:s, s:o, s:i, s:i}]}", "description",
                  "a step, or a list of steps in order", "anyOf", ref("step"),
                  "type", "array", "items", ref("step"), "minItems", 1,
                  "maxItems", CNC_MAX_STEPS));
    return defs;
}

/* The lobby's parts (council 0) or the council's (1), for the agenda s
 * has on the table. */
static json_t *council_part(const cnc_state *s, int council)
{
    const cnc_data *d = cnc_data_get();
    static const char *const roles[] = {"spy", "bodyguard", "councillor",
                                        "clerk"};
    int last = s->seats - 1;
    json_t *one = json_array();
    static const char *const give_req[] = {"seat", "trade_goods", NULL};
    json_array_append_new(
        one, typed("give",
                   json_pack("{s:o, s:o}", "seat", int_range(0, last),
                             "trade_goods", int_range(1, 99)),
                   give_req));
    if (!council) {
        static const char *const play_req[] = {"card", NULL};
        static const char *const obj_req[] = {"pick", NULL};
        static const char *const rep_req[] = {"role", NULL};
        json_array_append_new(
            one, typed("play",
                       json_pack("{s:{s:o}, s:o, s:o}", "card", "enum",
                                 keys_actions(d, 1), "seat", int_range(0, last),
                                 "amount", int_range(1, 9)),
                       play_req));
        json_array_append_new(
            one, typed("objective", json_pack("{s:o}", "pick", int_range(0, 1)),
                       obj_req));
        json_array_append_new(
            one,
            typed("representative",
                  json_pack("{s:{s:o}, s:o}", "role", "enum", strings(roles, 4),
                            "target", int_range(0, last)),
                  rep_req));
    } else {
        static const char *const law_req[] = {"for", NULL};
        static const char *const seat_req[] = {"seat", NULL};
        static const char *const markers_req[] = {"count", NULL};
        static const char *const capture_req[] = {"sector", "planet", NULL};
        if (s->c.agenda >= 0 && !s->c.tabled) {
            int election = d->agendas[s->c.agenda].kind == CNC_AGENDA_ELECTION;
            json_array_append_new(
                one,
                election
                    ? typed("vote",
                            json_pack("{s:o}", "seat", int_range(0, last)),
                            seat_req)
                    : typed("vote",
                            json_pack("{s:{s:s}}", "for", "type", "boolean"),
                            law_req));
        }
        json_array_append_new(
            one,
            typed("markers",
                  json_pack("{s:o}", "count", int_range(1, CNC_MAX_MARKER_BUY)),
                  markers_req));
        json_array_append_new(
            one, typed("capture",
                       json_pack("{s:{s:s, s:{s:s}, s:i, s:i}, s:o}", "sector",
                                 "type", "array", "items", "type", "integer",
                                 "minItems", 2, "maxItems", 2, "planet",
                                 int_range(0, CNC_MAX_PLANETS - 1)),
                       capture_req));
    }
    return json_pack("{s:o}", "oneOf", one);
}

json_t *cnc_parts_shape(const cnc_state *s)
{
    json_t *defs, *part;
    int max = CNC_MAX_PARTS;
    if (s->phase == CNC_PHASE_LOBBY || s->phase == CNC_PHASE_COUNCIL) {
        defs = json_object();
        json_object_set_new(defs, "part",
                            council_part(s, s->phase == CNC_PHASE_COUNCIL));
    } else {
        defs = action_defs(cnc_data_get());
    }
    if (s->phase == CNC_PHASE_ACTION && cnc_lobby_in_action(s)) {
        /* Edition 2: a fleet order's part or a lobby part, each up to
         * CNC_MAX_PARTS. */
        json_object_set(defs, "fleet_part", json_object_get(defs, "part"));
        json_object_set_new(defs, "lobby_part", council_part(s, 0));
        json_object_set_new(defs, "part",
                            json_pack("{s:[o, o]}", "anyOf", ref("fleet_part"),
                                      ref("lobby_part")));
        max = 2 * CNC_MAX_PARTS;
    }
    part = ref("part");
    /* At most max parts, and the core's "ready": true. */
    return json_pack("{s:s, s:s, s:o, s:i, s:{s:s}, s:{s:{s:b}}, s:o}",
                     "$schema", "https://json-schema.org/draft/2020-12/schema",
                     "type", "object", "$defs", defs, "maxProperties", max + 1,
                     "propertyNames", "pattern", "^[a-z0-9_]{1,16}$",
                     "properties", ENGINE_READY_PART, "const", 1,
                     "additionalProperties", part);
}

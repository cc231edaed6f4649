/*
 * council_orders.c - parses and validates one Galactic Council order part
 * (council_orders.h) into a cnc_order: a list of steps, with if-steps
 * pointing at their then and else lists. Errors carry the JSON path of the
 * fault in err->field and name it in the message. Only public knowledge is
 * consulted (the data tables, the galaxy's shape).
 */
#include "engine/rules/council/council_orders.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const step_names[CNC_STEP_COUNT] = {
    "activate", "move",    "land",   "produce",        "strategy",
    "inspect",  "retreat", "hold",   "explore",        "scan",
    "if",       "discard", "tokens", "combat_retreat", "play",
    "follow",   "share",   "lore",   "score"};
static const char *const cond_names[CNC_COND_COUNT] = {
    "holds", "marker_is", "enemy_ships", "fleet_survived",
    "influence_at_least"};
static const char *const holds_names[] = {"planets", "anomaly", "marker",
                                          "enemy_troops"};

const char *cnc_step_name(int type)
{
    return type >= 0 && type < CNC_STEP_COUNT ? step_names[type] : "?";
}

typedef struct octx {
    const cnc_data *d;
    const cnc_galaxy *g;
    cnc_order *o;
    engine_error *err;
    char path[64]; /* of the step or condition being parsed */
    /* The sector the steps so far act on (a condition naming a sector
     * may name only this one): AT_NONE, AT_HEX (acts) or AT_UNSURE (the
     * branches of an earlier if end in different sectors). */
    uint8_t at;
    cnc_hex acts;
} octx;

enum { AT_NONE = 0, AT_HEX, AT_UNSURE };

static __attribute__((format(printf, 3, 4))) int
bad(const octx *c, const char *field, const char *fmt, ...)
{
    char what[160], path[96];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(path, sizeof path, "%s%s%s", c->path,
             *c->path && *field ? "." : "", field);
    return engine_fail(c->err, ENGINE_EINVALID, path, "%s: %s", path, what);
}

static int find(const char *const *names, int n, const char *s)
{
    for (int i = 0; s && i < n; i++)
        if (strcmp(names[i], s) == 0)
            return i;
    return -1;
}

/* Allowed fields of a step or condition (NULL-terminated). */
static int only(const octx *c, const json_t *o, const char *const *allowed)
{
    const char *k;
    const json_t *v;
    json_object_foreach((json_t *)o, k, v)
    {
        int ok = 0;
        for (int i = 0; allowed[i]; i++)
            ok |= strcmp(allowed[i], k) == 0;
        if (!ok)
            return bad(c, k, "is not a field here");
    }
    return 0;
}

/* A hex [q, r] on the map (any hex within the maximum radius when no
 * galaxy is given). */
static int hex_at(const octx *c, const json_t *v, const char *field,
                  cnc_hex *out)
{
    const json_t *q = json_array_get(v, 0), *r = json_array_get(v, 1);
    if (json_array_size(v) != 2 || !json_is_integer(q) || !json_is_integer(r))
        return bad(c, field, "must be a hex [q, r]");
    json_int_t iq = json_integer_value(q), ir = json_integer_value(r);
    int R = c->g ? c->g->radius : CNC_MAX_RADIUS;
    if (iq < -R || iq > R || ir < -R || ir > R)
        return bad(c, field, "is off the map");
    out->q = (int8_t)iq;
    out->r = (int8_t)ir;
    if ((c->g && cnc_sector_at(c->g, *out) < 0) ||
        cnc_hex_distance(*out, (cnc_hex){0, 0}) > R)
        return bad(c, field, "is off the map");
    return 0;
}

static int hex_field(const octx *c, const json_t *o, const char *field,
                     int required, uint8_t *has, cnc_hex *out)
{
    const json_t *v = json_object_get(o, field);
    if (!v) {
        if (has)
            *has = 0;
        return required ? bad(c, field, "is required") : 0;
    }
    if (has)
        *has = 1;
    return hex_at(c, v, field, out);
}

/* {unit key: count} with at least one unit; ships_only: no unit that
 * cannot be produced or moved (all can, so it checks the counts). */
static int units_field(const octx *c, const json_t *o, uint8_t *out)
{
    const json_t *u = json_object_get(o, "units");
    if (!json_is_object(u) || json_object_size(u) == 0)
        return bad(c, "units",
                   "must be an object {unit: count} with at "
                   "least one unit");
    const char *k;
    const json_t *v;
    json_object_foreach((json_t *)u, k, v)
    {
        int x = cnc_unit_index(c->d, k);
        if (x < 0)
            return bad(c, "units", "%.24s is not a unit", k);
        if (!json_is_integer(v) || json_integer_value(v) < 1 ||
            json_integer_value(v) > 30)
            return bad(c, "units", "%s must be a count 1..30", k);
        out[x] = (uint8_t)json_integer_value(v);
    }
    return 0;
}

/* A planet selector; inspect allows "system". */
static int planet_field(const octx *c, const json_t *o, int allow_system,
                        cnc_planet_sel *out)
{
    static const char *const how[] = {"system", "", "all", "highest_influence",
                                      "highest_resources"};
    const char *s = json_string_value(json_object_get(o, "planet"));
    int x = find(how, 5, s);
    if (x == CNC_PL_KEY || (x == CNC_PL_SYSTEM && !allow_system))
        x = -1;
    if (x >= 0) {
        out->how = (uint8_t)x;
        return 0;
    }
    if (!s || !cnc_planet_find(c->d, s))
        return bad(c, "planet",
                   "must be a planet's key, all, highest_influence or "
                   "highest_resources%s",
                   allow_system ? " or system" : "");
    out->how = CNC_PL_KEY;
    memcpy(out->key, s, strlen(s) + 1);
    return 0;
}

static int parse_cond(octx *c, const json_t *o, cnc_cond *k)
{
    static const char *const f[] = {"type", "sector", "not", "what",
                                    "is",   "planet", "n",   NULL};
    if (!json_is_object(o))
        return bad(c, "", "must be a condition object");
    int rc = only(c, o, f);
    if (rc)
        return rc;
    int t = find(cond_names, CNC_COND_COUNT,
                 json_string_value(json_object_get(o, "type")));
    if (t < 0)
        return bad(c, "type",
                   "must be holds, marker_is, enemy_ships, fleet_survived "
                   "or influence_at_least");
    k->type = (uint8_t)t;
    const json_t *neg = json_object_get(o, "not");
    if (neg && !json_is_boolean(neg))
        return bad(c, "not", "must be true or false");
    k->negate = json_is_true(neg);
    rc = hex_field(c, o, "sector", 0, &k->has_sector, &k->sector);
    if (rc)
        return rc;
    /* A condition reads only the sector its step acts on (else it would
     * be an oracle on the true galaxy; docs/games/council.md). */
    if (k->has_sector && (c->at != AT_HEX || c->acts.q != k->sector.q ||
                          c->acts.r != k->sector.r))
        return bad(c, "sector",
                   "must be the sector the order acts on there (the one "
                   "last activated, moved to, retreated to, produced in, "
                   "landed on, inspected or scanned)");
    int wants_what = t == CNC_COND_HOLDS, wants_is = t == CNC_COND_MARKER_IS,
        wants_n = t == CNC_COND_INFLUENCE_AT_LEAST;
    if (!wants_what && json_object_get(o, "what"))
        return bad(c, "what", "is only for holds");
    if (!wants_is && json_object_get(o, "is"))
        return bad(c, "is", "is only for marker_is");
    if (!wants_n && json_object_get(o, "n"))
        return bad(c, "n", "is only for influence_at_least");
    if (!wants_is && !wants_n && json_object_get(o, "planet"))
        return bad(c, "planet", "is only for marker_is, influence_at_least");
    if (wants_what) {
        int w =
            find(holds_names, 4, json_string_value(json_object_get(o, "what")));
        if (w < 0)
            return bad(c, "what",
                       "must be planets, anomaly, marker or enemy_troops");
        k->what = (uint8_t)w;
    }
    if (wants_is) {
        const char *is = json_string_value(json_object_get(o, "is"));
        k->kind = -1;
        if (is && strcmp(is, "hostile") == 0)
            k->is = CNC_IS_HOSTILE;
        else if (is && strcmp(is, "friendly") == 0)
            k->is = CNC_IS_FRIENDLY;
        else if (is && (k->kind = (int8_t)cnc_marker_index(c->d, is)) >= 0)
            k->is = CNC_IS_KIND;
        else
            return bad(c, "is", "must be hostile, friendly or a marker's key");
    }
    if (wants_n) {
        const json_t *n = json_object_get(o, "n");
        if (!json_is_integer(n) || json_integer_value(n) < 0 ||
            json_integer_value(n) > 9)
            return bad(c, "n", "must be an integer 0..9");
        k->n = (int8_t)json_integer_value(n);
    }
    k->has_planet = json_object_get(o, "planet") != NULL;
    if (k->has_planet)
        rc = planet_field(c, o, 0, &k->planet);
    return rc;
}

static int parse_list(octx *c, const json_t *a, int depth, int16_t *first);

/* Fields each step type takes (beyond "type"). */
static const char *const step_fields[CNC_STEP_COUNT][7] = {
    {"type", "sector", NULL},
    {"type", "from", "to", "units", NULL},
    {"type", "planet", "troops", "sector", NULL},
    {"type", "sector", "units", NULL},
    {"type", "card", "option", "targets", "next_objective", NULL},
    {"type", "planet", "sector", NULL},
    {"type", "to", NULL},
    {"type", NULL},
    {"type", "sector", NULL},
    {"type", "sector", "planet", NULL},
    {"type", "cond", "then", "else", NULL},
    {"type", "sector", "planet", NULL},
    {"type", "tactic", "fleet", "strategy", NULL},
    {"type", "sector", "to", "after", NULL},
    {"type", "card", "sector", "planet", NULL},
    {"type", "card", "option", "targets", NULL},
    {"type", "seat", "on", NULL},
    {"type", "sector", "planet", NULL},
    {"type", "public", "secret", NULL}};

static int parse_troops(const octx *c, const json_t *o, cnc_step *s)
{
    const json_t *t = json_object_get(o, "troops");
    if (json_is_string(t) && strcmp(json_string_value(t), "all") == 0) {
        s->troops = CNC_TROOPS_ALL;
        return 0;
    }
    if (!json_is_integer(t) || json_integer_value(t) < 1 ||
        json_integer_value(t) > CNC_MAX_TROOPS)
        return bad(c, "troops", "must be 1..%d or \"all\"", CNC_MAX_TROOPS);
    s->troops = (int8_t)json_integer_value(t);
    return 0;
}

static int parse_strategy(const octx *c, const json_t *o, cnc_step *s)
{
    const char *card = json_string_value(json_object_get(o, "card"));
    int x = card ? cnc_strategy_index(c->d, card) : -1;
    if (x < 0)
        return bad(c, "card", "must be a strategy card's key");
    s->card = (int8_t)x;
    const cnc_strategy *st = &c->d->strategies[x];
    const char *opt = json_string_value(json_object_get(o, "option"));
    s->option = 0;
    if (opt || (st->noptions > 1 && s->type == CNC_STEP_STRATEGY)) {
        int y = -1;
        for (int i = 0; opt && i < st->noptions; i++)
            if (strcmp(st->options[i], opt) == 0)
                y = i;
        if (y < 0)
            return bad(c, "option", "must be one of %s's options", st->name);
        s->option = (int8_t)y;
    }
    const json_t *t = json_object_get(o, "targets");
    if (t && (!json_is_array(t) || json_array_size(t) > 3))
        return bad(c, "targets", "must be an array of at most 3 hexes");
    for (size_t i = 0; t && i < json_array_size(t); i++) {
        char field[32];
        snprintf(field, sizeof field, "targets[%zu]", i);
        int rc =
            hex_at(c, json_array_get(t, i), field, &s->targets[s->ntargets]);
        if (rc)
            return rc;
        s->ntargets++;
    }
    const json_t *no = json_object_get(o, "next_objective");
    if (no && (!json_is_integer(no) || json_integer_value(no) < 1 ||
               json_integer_value(no) > 2))
        return bad(c, "next_objective", "must be 1 or 2");
    s->next_objective = (int8_t)(no ? json_integer_value(no) : 0);
    return 0;
}

/* An integer field lo..hi (def when absent and not required). */
static int int_field(const octx *c, const json_t *o, const char *field,
                     int required, int lo, int hi, int def, int8_t *out)
{
    const json_t *v = json_object_get(o, field);
    if (!v && !required) {
        *out = (int8_t)def;
        return 0;
    }
    if (!json_is_integer(v) || json_integer_value(v) < lo ||
        json_integer_value(v) > hi)
        return bad(c, field, "must be an integer %d..%d", lo, hi);
    *out = (int8_t)json_integer_value(v);
    return 0;
}

/* An optional planet selector (with "system") and an optional sector. */
static int marker_place(const octx *c, const json_t *o, int need_sector,
                        cnc_step *s)
{
    int rc = 0;
    s->planet.how = CNC_PL_SYSTEM;
    s->has_planet = json_object_get(o, "planet") != NULL;
    if (s->has_planet)
        rc = planet_field(c, o, 1, &s->planet);
    return rc ? rc
              : hex_field(c, o, "sector", need_sector, &s->has_sector,
                          &s->sector);
}

static int parse_play(const octx *c, const json_t *o, cnc_step *s)
{
    const char *card = json_string_value(json_object_get(o, "card"));
    s->action = -1;
    for (int a = 0; card && a < c->d->nactions; a++)
        if (strcmp(c->d->actions[a].key, card) == 0)
            s->action = (int8_t)a;
    if (s->action < 0)
        return bad(c, "card", "must be an action card's key");
    return marker_place(c, o, 0, s);
}

static int parse_share(const octx *c, const json_t *o, cnc_step *s)
{
    int hi = c->g ? c->g->players - 1 : ENGINE_MAX_SEATS - 1;
    int rc = int_field(c, o, "seat", 1, 0, hi, 0, &s->other);
    const json_t *on = json_object_get(o, "on");
    if (rc == 0 && on && !json_is_boolean(on))
        return bad(c, "on", "must be true or false");
    s->on = (int8_t)(!on || json_is_true(on));
    return rc;
}

/* score's list `field` (public objectives, or secret ones) into out, in
 * preference order, -1 after the last; *given set when the field is
 * there (an empty list scores none). */
static int parse_score_list(const octx *c, const json_t *o, const char *field,
                            int secret, int8_t *out, int *given)
{
    const json_t *a = json_object_get(o, field);
    memset(out, -1, CNC_SCORE_PREFS);
    *given = a != NULL;
    if (!a)
        return 0;
    if (!json_is_array(a) || json_array_size(a) > CNC_SCORE_PREFS)
        return bad(c, field, "must be a list of at most %d objective keys",
                   CNC_SCORE_PREFS);
    for (size_t i = 0; i < json_array_size(a); i++) {
        const char *k = json_string_value(json_array_get(a, i));
        int found = -1;
        for (int ob = 0; k && ob < c->d->nobjectives; ob++)
            if (strcmp(c->d->objectives[ob].key, k) == 0 &&
                !c->d->objectives[ob].secret == !secret)
                found = ob;
        if (found < 0)
            return bad(c, field, "[%zu] must be the key of a %s objective", i,
                       secret ? "secret" : "public");
        out[i] = (int8_t)found;
    }
    return 0;
}

static int parse_score(const octx *c, const json_t *o, cnc_step *s)
{
    int pub = 0, sec = 0;
    int rc = parse_score_list(c, o, "public", 0, s->score_public, &pub);
    if (rc == 0)
        rc = parse_score_list(c, o, "secret", 1, s->score_secret, &sec);
    s->score_has = (uint8_t)(pub | sec << 1);
    return rc;
}

/* The fields of the steps added after "if" (docs/games/council.md). */
static int parse_more(octx *c, const json_t *o, cnc_step *s)
{
    int rc = 0;
    switch (s->type) {
    case CNC_STEP_DISCARD:
        return marker_place(c, o, 0, s);
    case CNC_STEP_TOKENS:
        rc = int_field(c, o, "tactic", 1, 0, 16, 0, &s->pools[0]);
        if (rc == 0)
            rc = int_field(c, o, "fleet", 1, 0, 16, 0, &s->pools[1]);
        return rc ? rc : int_field(c, o, "strategy", 1, 0, 16, 0, &s->pools[2]);
    case CNC_STEP_COMBAT_RETREAT:
        rc = hex_field(c, o, "sector", 1, &s->has_sector, &s->sector);
        if (rc == 0)
            rc = hex_field(c, o, "to", 1, NULL, &s->to);
        return rc ? rc : int_field(c, o, "after", 0, 1, 5, 1, &s->after);
    case CNC_STEP_PLAY:
        return parse_play(c, o, s);
    case CNC_STEP_FOLLOW:
        return parse_strategy(c, o, s);
    case CNC_STEP_SHARE:
        return parse_share(c, o, s);
    case CNC_STEP_SCORE:
        return parse_score(c, o, s);
    default: /* lore */
        return marker_place(c, o, 1, s);
    }
}

/* The fields of step s of type t, after "type". */
static int parse_step_body(octx *c, const json_t *o, cnc_step *s, int depth)
{
    switch (s->type) {
    case CNC_STEP_ACTIVATE:
        return hex_field(c, o, "sector", 1, &s->has_sector, &s->sector);
    case CNC_STEP_MOVE: {
        int rc = hex_field(c, o, "from", 1, &s->has_sector, &s->sector);
        if (rc == 0)
            rc = hex_field(c, o, "to", 1, NULL, &s->to);
        return rc ? rc : units_field(c, o, s->units);
    }
    case CNC_STEP_LAND: {
        int rc = planet_field(c, o, 0, &s->planet);
        if (rc == 0)
            rc = parse_troops(c, o, s);
        return rc ? rc
                  : hex_field(c, o, "sector", 0, &s->has_sector, &s->sector);
    }
    case CNC_STEP_PRODUCE: {
        int rc = hex_field(c, o, "sector", 1, &s->has_sector, &s->sector);
        return rc ? rc : units_field(c, o, s->units);
    }
    case CNC_STEP_STRATEGY:
        return parse_strategy(c, o, s);
    case CNC_STEP_INSPECT: {
        int rc = 0;
        s->planet.how = CNC_PL_SYSTEM;
        if (json_object_get(o, "planet"))
            rc = planet_field(c, o, 1, &s->planet);
        return rc ? rc
                  : hex_field(c, o, "sector", 0, &s->has_sector, &s->sector);
    }
    case CNC_STEP_RETREAT:
        return hex_field(c, o, "to", 1, NULL, &s->to);
    case CNC_STEP_EXPLORE:
        return hex_field(c, o, "sector", 1, &s->has_sector, &s->sector);
    case CNC_STEP_SCAN: {
        int rc = 0;
        s->planet.how = CNC_PL_SYSTEM;
        if (json_object_get(o, "planet"))
            rc = planet_field(c, o, 1, &s->planet);
        return rc ? rc
                  : hex_field(c, o, "sector", 1, &s->has_sector, &s->sector);
    }
    case CNC_STEP_IF:
        break;
    case CNC_STEP_HOLD:
        return 0;
    default:
        return parse_more(c, o, s);
    }
    if (depth >= CNC_MAX_DEPTH)
        return bad(c, "", "nests ifs deeper than %d", CNC_MAX_DEPTH);
    size_t len = strlen(c->path);
    snprintf(c->path + len, sizeof c->path - len, "%scond", len ? "." : "");
    int rc = parse_cond(c, json_object_get(o, "cond"), &s->cond);
    c->path[len] = 0;
    if (rc)
        return rc;
    const json_t *th = json_object_get(o, "then"),
                 *el = json_object_get(o, "else");
    if (!json_is_array(th) || json_array_size(th) == 0)
        return bad(c, "then", "must be a non-empty array of steps");
    if (el && !json_is_array(el))
        return bad(c, "else", "must be an array of steps");
    uint8_t at0 = c->at;
    cnc_hex acts0 = c->acts;
    snprintf(c->path + len, sizeof c->path - len, "%sthen", len ? "." : "");
    rc = parse_list(c, th, depth + 1, &s->then_first);
    uint8_t at1 = c->at;
    cnc_hex acts1 = c->acts;
    c->at = at0;
    c->acts = acts0;
    snprintf(c->path + len, sizeof c->path - len, "%selse", len ? "." : "");
    if (rc == 0 && el)
        rc = parse_list(c, el, depth + 1, &s->else_first);
    if (at1 != c->at ||
        (at1 == AT_HEX && (acts1.q != c->acts.q || acts1.r != c->acts.r)))
        c->at = AT_UNSURE;
    c->path[len] = 0;
    return rc;
}

/* After step s: the sector the order acts on from there. */
static void step_acts(octx *c, const cnc_step *s)
{
    int sets = 1;
    cnc_hex h = s->sector;
    switch (s->type) {
    case CNC_STEP_MOVE:
    case CNC_STEP_RETREAT:
        h = s->to;
        break;
    case CNC_STEP_ACTIVATE:
    case CNC_STEP_PRODUCE:
    case CNC_STEP_SCAN:
    case CNC_STEP_EXPLORE:
    case CNC_STEP_LORE:
        break;
    case CNC_STEP_LAND:
    case CNC_STEP_INSPECT:
        sets = s->has_sector;
        break;
    default:
        sets = 0;
    }
    if (sets) {
        c->at = AT_HEX;
        c->acts = h;
    }
}

/* One step object into a new slot; *at gets its index. */
static int parse_step(octx *c, const json_t *o, int depth, int16_t *at)
{
    if (c->o->nsteps >= CNC_MAX_STEPS)
        return bad(c, "", "too many steps (at most %d in an order part)",
                   CNC_MAX_STEPS);
    if (!json_is_object(o))
        return bad(c, "", "must be a step object");
    int t = find(step_names, CNC_STEP_COUNT,
                 json_string_value(json_object_get(o, "type")));
    if (t < 0)
        return bad(c, "type",
                   "must be activate, move, land, produce, strategy, "
                   "inspect, retreat, hold, explore, scan, if, discard, "
                   "tokens, combat_retreat, play, follow, share, lore or "
                   "score");
    int rc = only(c, o, step_fields[t]);
    if (rc)
        return rc;
    *at = c->o->nsteps++;
    cnc_step *s = &c->o->steps[*at];
    memset(s, 0, sizeof *s);
    s->type = (uint8_t)t;
    s->then_first = s->else_first = s->next = -1;
    rc = parse_step_body(c, o, s, depth);
    if (rc == 0)
        step_acts(c, s);
    return rc;
}

static int parse_list(octx *c, const json_t *a, int depth, int16_t *first)
{
    size_t len = strlen(c->path);
    int16_t prev = -1;
    *first = -1;
    for (size_t i = 0; i < json_array_size(a); i++) {
        snprintf(c->path + len, sizeof c->path - len, "[%zu]", i);
        int16_t at = -1;
        int rc = parse_step(c, json_array_get(a, i), depth, &at);
        if (rc)
            return rc;
        if (prev < 0)
            *first = at;
        else
            c->o->steps[prev].next = at;
        prev = at;
    }
    c->path[len] = 0;
    return 0;
}

int cnc_order_parse(const cnc_data *d, const cnc_galaxy *g, const json_t *part,
                    cnc_order *out, engine_error *err)
{
    octx c = {.d = d, .g = g, .o = out, .err = err};
    memset(out, 0, sizeof *out);
    out->first = -1;
    if (json_is_object(part)) {
        json_t *one = json_pack("[O]", part);
        int rc = one ? parse_list(&c, one, 0, &out->first)
                     : engine_fail(err, ENGINE_EINTERNAL, "", "out of memory");
        json_decref(one);
        return rc;
    }
    if (!json_is_array(part) || json_array_size(part) == 0)
        return engine_fail(err, ENGINE_EINVALID, "",
                           "an order part is a step or a non-empty array of "
                           "steps");
    return parse_list(&c, part, 0, &out->first);
}

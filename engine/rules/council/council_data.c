/*
 * council_data.c - parses and validates council.json (Galactic Council's
 * rules data, embedded by council_json.S) into the immutable cnc_data
 * table. Every error names the section, the item (index and key) and the
 * field at fault. The cross-checks make the generator's promises hold for
 * every template: enough tiles for the map, enough markers for every
 * planet and every non-anomaly system.
 */
#include "engine/rules/council/council_data.h"
#include "engine/carddata.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char council_json[];
extern const uint64_t council_json_len;

static cnc_data g_data; /* written once by cnc_data_init */
static int g_data_ready;

static const char *const trait_names[] = {"none", "industrial", "cultural",
                                          "hazardous"};
static const char *const sys_kind_names[] = {"planets",   "empty", "nebula",
                                             "asteroids", "rift",  "storm"};
static const char *const unit_kind_names[] = {"ship", "fighter", "ground"};
static const char *const race_names[] = {
    "trade_bonus",   "cheap_explore",  "far_sight",
    "space_assault", "ground_assault", "extra_command",
    "shipwright",    "orators",        "marker_lore"};
static const char *const role_names[] = {"spy", "bodyguard", "councillor"};
static const char *const rab_names[] = {"none",     "assassinate", "blackmail",
                                        "sabotage", "shield",      "retaliate",
                                        "orator"};
static const char *const strat_names[] = {
    "gain_command", "espionage", "agenda",     "production",
    "trade",        "warfare",   "technology", "objective"};
static const char *const field_names[] = {"drive", "signal", "arms", "life"};
static const char *const tech_names[] = {
    "move",   "capacity", "scanner",    "sensor", "command",
    "combat", "sustain",  "production", "ground", "influence"};
static const char *const where_names[] = {"system", "planet"};
static const char *const mfx_names[] = {
    "nothing",          "gain_ship",     "gain_troops", "gain_trade_goods",
    "gain_action_card", "gain_vp",       "enemy_ships", "enemy_troops",
    "destroy_ship",     "destroy_troops"};
static const char *const obj_names[] = {
    "control_planets", "control_trait", "explored",
    "trade_goods",     "techs",         "inspected_markers",
    "control_capital", "ships",         "win_space_combat",
    "adjacent_capital"};
static const char *const time_names[] = {"action", "combat", "council",
                                         "status"};
static const char *const afx_names[] = {"veto",
                                        "gain_trade_goods",
                                        "free_explore",
                                        "direct_hit",
                                        "gain_command",
                                        "extra_move",
                                        "reroll",
                                        "extra_votes",
                                        "cancel_production",
                                        "inspect_marker",
                                        "votes",
                                        "guard_rep",
                                        "table_agenda",
                                        "silence"};
_Static_assert(sizeof afx_names / sizeof afx_names[0] == CNC_AFX_COUNT,
               "one name per action card effect");
static const char *const agenda_kind_names[] = {"law", "election"};
static const char *const agx_names[] = {"all_gain_trade_goods",
                                        "all_lose_trade_goods",
                                        "all_draw_action_cards",
                                        "status_tokens",
                                        "no_capture",
                                        "repeal",
                                        "elect_vp",
                                        "elect_trade_goods",
                                        "elect_lose_trade_goods",
                                        "elect_lose_tactic",
                                        "elect_draw_action_cards",
                                        "elect_speaker"};

_Static_assert(sizeof agx_names / sizeof agx_names[0] == CNC_AGX_COUNT,
               "one name per agenda effect");

#define NAMES(a) a, (int)(sizeof a / sizeof a[0])

const char *cnc_trait_name(int t)
{
    return t >= 0 && t < CNC_TRAIT_COUNT ? trait_names[t] : "?";
}

const char *cnc_system_kind_name(int k)
{
    return k >= 0 && k < CNC_SYS_KIND_COUNT ? sys_kind_names[k] : "?";
}

const char *cnc_unit_kind_name(int k)
{
    return k >= 0 && k <= CNC_UNIT_GROUND ? unit_kind_names[k] : "?";
}

const char *cnc_rep_ability_name(int a)
{
    return a >= 0 && a < CNC_RAB_COUNT ? rab_names[a] : "?";
}

/* ------------------------------------------------------------ helpers -- */

/* Where the parser is: section, item index (-1: the section itself), the
 * item's key when known, and a prefix for nested fields. */
typedef struct pctx {
    engine_error *err;
    const char *section;
    int idx;
    char key[CNC_KEY_MAX];
    char prefix[48];
} pctx;

/* The error at c (engine_carddata_fail): "council.json SECTION[IDX] (KEY):
 * PREFIXFIELD WHAT". The reason is cut at 159 bytes (get_enum's list of
 * action card effects is longer and ends cut). */
static __attribute__((format(printf, 3, 4))) int
fail(const pctx *c, const char *field, const char *fmt, ...)
{
    char what[160], path[96], where[96];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(path, sizeof path, "%s%s", c->prefix, field);
    if (c->idx < 0)
        snprintf(where, sizeof where, "%s", c->section);
    else if (c->key[0])
        snprintf(where, sizeof where, "%s[%d] (%s)", c->section, c->idx,
                 c->key);
    else
        snprintf(where, sizeof where, "%s[%d]", c->section, c->idx);
    return engine_carddata_fail(c->err, "council.json", where, path, "%s",
                                what);
}

/* Reject fields outside the NULL-terminated allowed list. */
static int check_fields(const pctx *c, const json_t *obj,
                        const char *const *allowed)
{
    const char *bad = engine_carddata_unknown(obj, allowed);
    return bad ? fail(c, bad, "is not a known field") : 0;
}

/* A required string of 1..max-1 bytes; keyish: a key, only [a-z0-9_]. */
static int get_str(const pctx *c, const json_t *obj, const char *name,
                   char *buf, size_t max, int keyish)
{
    const char *s = json_string_value(json_object_get(obj, name));
    int ok =
        keyish ? engine_carddata_is_key(s, max) : s && *s && strlen(s) < max;
    if (!ok)
        return fail(c, name, "must be a string of %s1..%zu bytes",
                    keyish ? "[a-z0-9_], " : "", max - 1);
    memcpy(buf, s, strlen(s) + 1);
    return 0;
}

/* An integer lo..hi; absent: def, or an error when required. */
static int get_int(const pctx *c, const json_t *obj, const char *name, int lo,
                   int hi, int required, int def, int *out)
{
    if ((required && !json_object_get(obj, name)) ||
        engine_carddata_int(obj, name, lo, hi, def, out) < 0)
        return fail(c, name, "must be an integer %d..%d", lo, hi);
    return 0;
}

static int get_int8(const pctx *c, const json_t *obj, const char *name, int lo,
                    int hi, int8_t *out)
{
    int x = 0;
    int rc = get_int(c, obj, name, lo, hi, 1, 0, &x);
    *out = (int8_t)x;
    return rc;
}

/* A required string naming one of names[0..n-1]. */
static int get_enum(const pctx *c, const json_t *obj, const char *name,
                    const char *const *names, int n, uint8_t *out)
{
    const json_t *v = json_object_get(obj, name);
    int x = engine_carddata_lookup(names, n, json_string_value(v));
    if (x < 0) {
        char list[200] = "";
        for (int i = 0; i < n; i++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
                     i ? ", " : "", names[i]);
        return fail(c, name, "must be one of %s", list);
    }
    *out = (uint8_t)x;
    return 0;
}

/* An optional boolean, false when absent. */
static int get_bool(const pctx *c, const json_t *obj, const char *name,
                    uint8_t *out)
{
    const json_t *v = json_object_get(obj, name);
    if (v && !json_is_boolean(v))
        return fail(c, name, "must be true or false");
    *out = json_is_true(v);
    return 0;
}

/* An optional text field. */
static int get_text(const pctx *c, const json_t *obj, char *buf)
{
    const json_t *v = json_object_get(obj, "text");
    buf[0] = 0;
    if (!v)
        return 0;
    if (!json_is_string(v) || strlen(json_string_value(v)) >= CNC_TEXT_MAX)
        return fail(c, "text", "must be a string of at most %d bytes",
                    CNC_TEXT_MAX - 1);
    memcpy(buf, json_string_value(v), strlen(json_string_value(v)) + 1);
    return 0;
}

/* Key, name and text of an item that has all three. */
static int get_identity(pctx *c, const json_t *o, char *key, char *name,
                        char *text)
{
    int rc = get_str(c, o, "key", key, CNC_KEY_MAX, 1);
    if (rc)
        return rc;
    memcpy(c->key, key, CNC_KEY_MAX);
    rc = get_str(c, o, "name", name, CNC_NAME_MAX, 0);
    if (rc == 0 && text)
        rc = get_text(c, o, text);
    return rc;
}

/* ------------------------------------------------------- the sections -- */

static int parse_unit(pctx *c, const json_t *o, void *item, cnc_data *d)
{
    static const char *const f[] = {"key",      "name",    "kind", "cost",
                                    "per",      "combat",  "dice", "move",
                                    "capacity", "sustain", "text", NULL};
    cnc_unit *u = item;
    (void)d;
    int rc = check_fields(c, o, f);
    if (rc == 0)
        rc = get_identity(c, o, u->key, u->name, u->text);
    if (rc == 0)
        rc = get_enum(c, o, "kind", NAMES(unit_kind_names), &u->kind);
    if (rc == 0)
        rc = get_int8(c, o, "cost", 0, 9, &u->cost);
    if (rc == 0)
        rc = get_int8(c, o, "per", 1, 4, &u->per);
    if (rc == 0)
        rc = get_int8(c, o, "combat", 1, 10, &u->combat);
    if (rc == 0)
        rc = get_int8(c, o, "dice", 1, 4, &u->dice);
    if (rc == 0)
        rc = get_int8(c, o, "move", 0, 4, &u->move);
    if (rc == 0)
        rc = get_int8(c, o, "capacity", 0, 9, &u->capacity);
    if (rc == 0)
        rc = get_bool(c, o, "sustain", &u->sustain);
    if (rc == 0 && u->kind == CNC_UNIT_SHIP && u->move < 1)
        rc = fail(c, "move", "must be at least 1 for a ship");
    return rc;
}

static int parse_planet(pctx *c, const json_t *o, cnc_planet *p)
{
    static const char *const f[] = {"key",       "name",  "resources",
                                    "influence", "trait", NULL};
    if (!json_is_object(o))
        return fail(c, "", "must be an object");
    int rc = check_fields(c, o, f);
    if (rc == 0)
        rc = get_str(c, o, "key", p->key, CNC_KEY_MAX, 1);
    if (rc == 0)
        rc = get_str(c, o, "name", p->name, CNC_NAME_MAX, 0);
    if (rc == 0)
        rc = get_int8(c, o, "resources", 0, 9, &p->resources);
    if (rc == 0)
        rc = get_int8(c, o, "influence", 0, 9, &p->influence);
    p->trait = CNC_TRAIT_NONE;
    if (rc == 0 && json_object_get(o, "trait"))
        rc = get_enum(c, o, "trait", trait_names + 1, CNC_TRAIT_COUNT - 1,
                      &p->trait);
    if (rc == 0 && json_object_get(o, "trait"))
        p->trait++;
    return rc;
}

/* The planets array of a tile, home or capital; c->prefix is kept. */
static int parse_planets(pctx *c, const json_t *o, cnc_system *s, int min)
{
    const json_t *a = json_object_get(o, "planets");
    if (!json_is_array(a) || (int)json_array_size(a) < min ||
        json_array_size(a) > CNC_MAX_PLANETS)
        return fail(c, "planets", "must be an array of %d..%d planets", min,
                    CNC_MAX_PLANETS);
    char saved[sizeof c->prefix];
    memcpy(saved, c->prefix, sizeof saved);
    for (size_t i = 0; i < json_array_size(a); i++) {
        if (snprintf(c->prefix, sizeof c->prefix, "%splanets[%zu].", saved,
                     i) >= (int)sizeof c->prefix)
            return fail(c, "planets", "is nested too deep");
        int rc = parse_planet(c, json_array_get(a, i), &s->planets[i]);
        if (rc)
            return rc;
        s->nplanets++;
    }
    memcpy(c->prefix, saved, sizeof saved);
    return 0;
}

static int parse_system(pctx *c, const json_t *o, void *item, cnc_data *d)
{
    static const char *const f[] = {"key",   "name",    "kind",
                                    "count", "planets", NULL};
    cnc_system *s = item;
    int rc = check_fields(c, o, f), x = 1;
    (void)d;
    if (rc == 0)
        rc = get_identity(c, o, s->key, s->name, NULL);
    if (rc == 0)
        rc = get_enum(c, o, "kind", NAMES(sys_kind_names), &s->kind);
    if (rc == 0)
        rc = get_int(c, o, "count", 1, 20, 0, 1, &x);
    s->count = (uint8_t)x;
    if (rc == 0 && s->kind == CNC_SYS_PLANETS)
        rc = parse_planets(c, o, s, 1);
    else if (rc == 0 && json_object_get(o, "planets"))
        rc = fail(c, "planets", "is only for kind planets");
    if (rc == 0 && s->kind == CNC_SYS_PLANETS && s->count != 1)
        rc = fail(c, "count", "must be 1 for a tile with planets");
    return rc;
}

static int parse_reps(pctx *c, const json_t *o, cnc_race *r)
{
    static const char *const f[] = {"role",    "name", "influence",
                                    "ability", "text", NULL};
    static const uint8_t allowed[CNC_REP_COUNT][CNC_RAB_COUNT] = {
        {0, 1, 1, 1, 0, 0, 0}, {0, 0, 0, 0, 1, 1, 0}, {1, 0, 0, 0, 0, 0, 1}};
    const json_t *a = json_object_get(o, "representatives");
    if (!json_is_array(a) || json_array_size(a) != CNC_REP_COUNT)
        return fail(c, "representatives",
                    "must be an array of 3: spy, bodyguard, councillor");
    for (int i = 0; i < CNC_REP_COUNT; i++) {
        const json_t *ro = json_array_get(a, (size_t)i);
        cnc_rep *p = &r->reps[i];
        snprintf(c->prefix, sizeof c->prefix, "representatives[%d].", i);
        if (!json_is_object(ro))
            return fail(c, "", "must be an object");
        int rc = check_fields(c, ro, f);
        if (rc == 0)
            rc = get_enum(c, ro, "role", NAMES(role_names), &p->role);
        if (rc == 0 && p->role != i)
            rc = fail(c, "role",
                      "must be %s (spy, bodyguard, councillor in "
                      "that order)",
                      role_names[i]);
        if (rc == 0)
            rc = get_str(c, ro, "name", p->name, CNC_NAME_MAX, 0);
        if (rc == 0)
            rc = get_int8(c, ro, "influence", 0, 6, &p->influence);
        if (rc == 0)
            rc = get_enum(c, ro, "ability", NAMES(rab_names), &p->ability);
        if (rc == 0 && !allowed[i][p->ability])
            rc = fail(c, "ability", "%s is not an ability of a %s",
                      rab_names[p->ability], role_names[i]);
        if (rc == 0)
            rc = get_text(c, ro, p->text);
        if (rc)
            return rc;
    }
    c->prefix[0] = 0;
    return 0;
}

static int parse_race(pctx *c, const json_t *o, void *item, cnc_data *d)
{
    static const char *const f[] = {
        "key", "name", "special", "home", "representatives", NULL};
    static const char *const sf[] = {"type", "amount", "text", NULL};
    static const char *const hf[] = {"name", "planets", NULL};
    cnc_race *r = item;
    (void)d;
    int rc = check_fields(c, o, f);
    if (rc == 0)
        rc = get_identity(c, o, r->key, r->name, NULL);
    if (rc)
        return rc;
    const json_t *sp = json_object_get(o, "special");
    snprintf(c->prefix, sizeof c->prefix, "%s", "special.");
    if (!json_is_object(sp))
        return fail(c, "", "must be an object {type, amount, text}");
    rc = check_fields(c, sp, sf);
    if (rc == 0)
        rc = get_enum(c, sp, "type", NAMES(race_names), &r->special);
    if (rc == 0)
        rc = get_int8(c, sp, "amount", 1, 3, &r->special_amount);
    if (rc == 0)
        rc = get_text(c, sp, r->special_text);
    if (rc)
        return rc;
    const json_t *h = json_object_get(o, "home");
    snprintf(c->prefix, sizeof c->prefix, "%s", "home.");
    if (!json_is_object(h))
        return fail(c, "", "must be an object {name, planets}");
    rc = check_fields(c, h, hf);
    if (rc == 0)
        rc = get_str(c, h, "name", r->home.name, CNC_NAME_MAX, 0);
    memcpy(r->home.key, r->key, CNC_KEY_MAX);
    r->home.kind = CNC_SYS_PLANETS;
    r->home.count = 1;
    if (rc == 0)
        rc = parse_planets(c, h, &r->home, 1);
    c->prefix[0] = 0;
    return rc ? rc : parse_reps(c, o, r);
}

static int parse_strategy(pctx *c, const json_t *o, void *item, cnc_data *d)
{
    static const char *const f[] = {"key",     "name", "initiative", "ability",
                                    "options", "text", NULL};
    cnc_strategy *s = item;
    (void)d;
    int rc = check_fields(c, o, f);
    if (rc == 0)
        rc = get_identity(c, o, s->key, s->name, s->text);
    if (rc == 0)
        rc =
            get_int8(c, o, "initiative", 1, CNC_MAX_STRATEGIES, &s->initiative);
    if (rc == 0)
        rc = get_enum(c, o, "ability", NAMES(strat_names), &s->ability);
    if (rc)
        return rc;
    const json_t *a = json_object_get(o, "options");
    if (!json_is_array(a) || json_array_size(a) < 1 ||
        json_array_size(a) > CNC_MAX_OPTIONS)
        return fail(c, "options", "must be an array of 1..%d option keys",
                    CNC_MAX_OPTIONS);
    for (size_t i = 0; i < json_array_size(a); i++) {
        const char *v = json_string_value(json_array_get(a, i));
        if (!v || !*v || strlen(v) >= CNC_KEY_MAX)
            return fail(c, "options", "[%zu] must be a key", i);
        memcpy(s->options[i], v, strlen(v) + 1);
        s->noptions++;
    }
    int explore = 0;
    for (int i = 0; i < s->noptions; i++)
        explore |= strcmp(s->options[i], "exploration") == 0;
    if (s->ability == CNC_STRAT_ESPIONAGE && !explore)
        return fail(c, "options",
                    "of the espionage card must include "
                    "exploration");
    return 0;
}

static int parse_tech(pctx *c, const json_t *o, void *item, cnc_data *d)
{
    static const char *const f[] = {"key",    "name", "field", "requires",
                                    "effect", "text", NULL};
    static const char *const ef[] = {"type", "amount", NULL};
    cnc_tech *t = item;
    int rc = check_fields(c, o, f);
    if (rc == 0)
        rc = get_identity(c, o, t->key, t->name, t->text);
    if (rc == 0)
        rc = get_enum(c, o, "field", NAMES(field_names), &t->field);
    if (rc)
        return rc;
    const json_t *a = json_object_get(o, "requires");
    if (!json_is_array(a) || json_array_size(a) > CNC_MAX_REQUIRES)
        return fail(c, "requires", "must be an array of at most %d keys",
                    CNC_MAX_REQUIRES);
    for (size_t i = 0; i < json_array_size(a); i++) {
        const char *v = json_string_value(json_array_get(a, i));
        int x = v ? cnc_tech_index(d, v) : -1;
        if (x < 0)
            return fail(c, "requires",
                        "[%zu] must name a technology listed before this one",
                        i);
        t->requires[t->nrequires++] = (int8_t)x;
    }
    const json_t *e = json_object_get(o, "effect");
    snprintf(c->prefix, sizeof c->prefix, "%s", "effect.");
    if (!json_is_object(e))
        return fail(c, "", "must be an object {type, amount}");
    rc = check_fields(c, e, ef);
    if (rc == 0)
        rc = get_enum(c, e, "type", NAMES(tech_names), &t->effect);
    if (rc == 0)
        rc = get_int8(c, e, "amount", 1, 3, &t->amount);
    c->prefix[0] = 0;
    return rc;
}

static int parse_marker(pctx *c, const json_t *o, void *item, cnc_data *d)
{
    static const char *const f[] = {"key",   "name",   "where", "hostile",
                                    "count", "effect", "text",  NULL};
    static const char *const ef[] = {"type", "amount", NULL};
    cnc_marker_kind *m = item;
    int rc = check_fields(c, o, f), x = 0;
    if (rc == 0)
        rc = get_identity(c, o, m->key, m->name, m->text);
    if (rc == 0)
        rc = get_enum(c, o, "where", NAMES(where_names), &m->where);
    if (rc == 0)
        rc = get_bool(c, o, "hostile", &m->hostile);
    if (rc == 0)
        rc = get_int(c, o, "count", 1, 40, 1, 0, &x);
    m->count = (uint8_t)x;
    if (rc)
        return rc;
    const json_t *e = json_object_get(o, "effect");
    snprintf(c->prefix, sizeof c->prefix, "%s", "effect.");
    if (!json_is_object(e))
        return fail(c, "", "must be an object {type, amount}");
    rc = check_fields(c, e, ef);
    if (rc == 0)
        rc = get_enum(c, e, "type", NAMES(mfx_names), &m->effect);
    if (rc == 0)
        rc = get_int8(c, e, "amount", m->effect == CNC_MFX_NOTHING ? 0 : 1, 3,
                      &m->amount);
    c->prefix[0] = 0;
    int hostile_fx = m->effect >= CNC_MFX_ENEMY_SHIPS;
    if (rc == 0 && hostile_fx != m->hostile)
        rc = fail(c, "hostile", "must be %s for effect %s",
                  hostile_fx ? "true" : "false", mfx_names[m->effect]);
    if (rc == 0 && m->where == CNC_WHERE_PLANET)
        d->planet_markers += m->count;
    else if (rc == 0)
        d->system_markers += m->count;
    return rc;
}

static int parse_template(pctx *c, const json_t *o, void *item, cnc_data *d)
{
    static const char *const f[] = {"players", "radius", "homes", NULL};
    cnc_template t = {0};
    (void)item;
    int rc = check_fields(c, o, f);
    if (rc == 0)
        rc = get_int8(c, o, "players", CNC_MIN_PLAYERS, CNC_MAX_PLAYERS,
                      &t.players);
    if (rc == 0)
        rc = get_int8(c, o, "radius", 2, CNC_MAX_RADIUS, &t.radius);
    if (rc)
        return rc;
    cnc_template *slot = &d->templates[t.players - CNC_MIN_PLAYERS];
    if (slot->players)
        return fail(c, "players", "repeats another template's %d", t.players);
    const json_t *a = json_object_get(o, "homes");
    if (!json_is_array(a) || (int)json_array_size(a) != t.players)
        return fail(c, "homes", "must be an array of %d [q, r] pairs",
                    t.players);
    for (int i = 0; i < t.players; i++) {
        const json_t *h = json_array_get(a, (size_t)i);
        const json_t *q = json_array_get(h, 0), *r = json_array_get(h, 1);
        if (json_array_size(h) != 2 || !json_is_integer(q) ||
            !json_is_integer(r))
            return fail(c, "homes", "[%d] must be a [q, r] pair", i);
        int iq = (int)json_integer_value(q), ir = (int)json_integer_value(r);
        int dist = (abs(iq) + abs(ir) + abs(iq + ir)) / 2;
        if (dist < 1 || dist > t.radius)
            return fail(c, "homes", "[%d] must be on the map, not the centre",
                        i);
        for (int j = 0; j < i; j++)
            if (t.home_q[j] == iq && t.home_r[j] == ir)
                return fail(c, "homes", "[%d] repeats home %d", i, j);
        t.home_q[i] = (int8_t)iq;
        t.home_r[i] = (int8_t)ir;
    }
    int hexes = 1 + 3 * t.radius * (t.radius + 1);
    if (hexes - 1 - t.players > d->deck_size)
        return fail(c, "radius", "needs %d system tiles, the deck has %d",
                    hexes - 1 - t.players, d->deck_size);
    *slot = t;
    return 0;
}

static int parse_objective(pctx *c, const json_t *o, void *item, cnc_data *d)
{
    static const char *const f[] = {"key",       "name",   "stage", "vp",
                                    "condition", "secret", "text",  NULL};
    static const char *const cf[] = {"type", "amount", "trait", NULL};
    cnc_objective *b = item;
    (void)d;
    int rc = check_fields(c, o, f);
    if (rc == 0)
        rc = get_identity(c, o, b->key, b->name, b->text);
    if (rc == 0)
        rc = get_int8(c, o, "stage", 1, 2, &b->stage);
    if (rc == 0)
        rc = get_int8(c, o, "vp", 1, 5, &b->vp);
    if (rc == 0)
        rc = get_bool(c, o, "secret", &b->secret);
    if (rc)
        return rc;
    const json_t *k = json_object_get(o, "condition");
    snprintf(c->prefix, sizeof c->prefix, "%s", "condition.");
    if (!json_is_object(k))
        return fail(c, "", "must be an object {type, amount}");
    rc = check_fields(c, k, cf);
    if (rc == 0)
        rc = get_enum(c, k, "type", NAMES(obj_names), &b->condition);
    if (rc == 0)
        rc = get_int8(c, k, "amount", 1, 30, &b->amount);
    int needs_trait = b->condition == CNC_OBJ_CONTROL_TRAIT;
    if (rc == 0 && needs_trait != (json_object_get(k, "trait") != NULL))
        rc = fail(c, "trait",
                  needs_trait ? "is needed by control_trait"
                              : "is only for control_trait");
    if (rc == 0 && needs_trait)
        rc = get_enum(c, k, "trait", trait_names + 1, CNC_TRAIT_COUNT - 1,
                      &b->trait);
    if (rc == 0 && needs_trait)
        b->trait++;
    c->prefix[0] = 0;
    return rc;
}

static int parse_action(pctx *c, const json_t *o, void *item, cnc_data *d)
{
    static const char *const f[] = {"key",    "name",   "count", "timing",
                                    "effect", "amount", "text",  NULL};
    cnc_action_card *a = item;
    int rc = check_fields(c, o, f), x = 0;
    (void)d;
    if (rc == 0)
        rc = get_identity(c, o, a->key, a->name, a->text);
    if (rc == 0)
        rc = get_int(c, o, "count", 1, 6, 1, 0, &x);
    a->count = (uint8_t)x;
    if (rc == 0)
        rc = get_enum(c, o, "timing", NAMES(time_names), &a->timing);
    if (rc == 0)
        rc = get_enum(c, o, "effect", NAMES(afx_names), &a->effect);
    if (rc == 0)
        rc = get_int(c, o, "amount", 1, 9, 0, 1, &x);
    a->amount = (int8_t)x;
    return rc;
}

/* An agenda: a law's effect must be a law effect, an election's an
 * election effect; only laws may be lasting. */
static int parse_agenda(pctx *c, const json_t *o, void *item, cnc_data *d)
{
    static const char *const f[] = {"key",    "name",   "kind", "lasting",
                                    "effect", "amount", "text", NULL};
    cnc_agenda *a = item;
    int rc = check_fields(c, o, f), x = 0;
    (void)d;
    if (rc == 0)
        rc = get_identity(c, o, a->key, a->name, a->text);
    if (rc == 0)
        rc = get_enum(c, o, "kind", NAMES(agenda_kind_names), &a->kind);
    if (rc == 0)
        rc = get_bool(c, o, "lasting", &a->lasting);
    if (rc == 0)
        rc = get_enum(c, o, "effect", NAMES(agx_names), &a->effect);
    if (rc == 0)
        rc = get_int(c, o, "amount", 1, 9, 0, 1, &x);
    a->amount = (int8_t)x;
    int election = a->effect >= CNC_AGX_ELECT_VP;
    if (rc == 0 && election != (a->kind == CNC_AGENDA_ELECTION))
        rc = fail(c, "effect", "%s does not fit a%s", agx_names[a->effect],
                  a->kind == CNC_AGENDA_ELECTION ? "n election" : " law");
    if (rc == 0 && a->lasting && a->effect != CNC_AGX_STATUS_TOKENS &&
        a->effect != CNC_AGX_NO_CAPTURE)
        rc = fail(c, "lasting", "only status_tokens and no_capture last");
    return rc;
}

typedef int (*item_fn)(pctx *c, const json_t *o, void *item, cnc_data *d);

/* Parse the array root[name] with fn into base (items of size bytes, each
 * beginning with its key unless keyless); *count gets the number parsed. */
static int parse_section(const json_t *root, const char *name, int min, int max,
                         item_fn fn, void *base, size_t size, int keyless,
                         int *count, cnc_data *d, engine_error *err)
{
    pctx c = {.err = err, .section = name, .idx = -1};
    const json_t *a = json_object_get(root, name);
    if (!json_is_array(a) || (int)json_array_size(a) < min ||
        (int)json_array_size(a) > max)
        return fail(&c, "", "must be an array of %d..%d items", min, max);
    for (size_t i = 0; i < json_array_size(a); i++) {
        c.idx = (int)i;
        c.key[0] = 0;
        c.prefix[0] = 0;
        const json_t *o = json_array_get(a, i);
        char *item = (char *)base + i * size;
        if (!json_is_object(o))
            return fail(&c, "", "must be an object");
        const char *k = json_string_value(json_object_get(o, "key"));
        if (k && strlen(k) < sizeof c.key)
            memcpy(c.key, k, strlen(k) + 1);
        int rc = fn(&c, o, item, d);
        if (rc)
            return rc;
        int j = keyless ? -1 : engine_carddata_find(base, (int)i, size, item);
        if (j >= 0)
            return fail(&c, "key", "repeats %s[%d]", name, j);
        if (count)
            (*count)++;
    }
    return 0;
}

static int parse_rules(const json_t *root, cnc_data *d, engine_error *err)
{
    static const char *const f[] = {"vp_target",         "last_round",
                                    "start_trade_goods", "start_pools",
                                    "status_gain",       "sensor_range",
                                    "scanner_reach",     "hand_limit",
                                    "start_units",       NULL};
    static const char *const pf[] = {"tactic", "fleet", "strategy", NULL};
    pctx c = {.err = err, .section = "rules", .idx = -1};
    const json_t *o = json_object_get(root, "rules");
    cnc_rules *r = &d->rules;
    if (!json_is_object(o))
        return fail(&c, "", "must be an object");
    int rc = check_fields(&c, o, f);
    if (rc == 0)
        rc = get_int8(&c, o, "vp_target", 3, 30, &r->vp_target);
    if (rc == 0)
        rc = get_int8(&c, o, "last_round", 3, 30, &r->last_round);
    if (rc == 0)
        rc = get_int8(&c, o, "start_trade_goods", 0, 10, &r->start_trade_goods);
    if (rc == 0)
        rc = get_int8(&c, o, "status_gain", 1, 5, &r->status_gain);
    if (rc == 0)
        rc = get_int8(&c, o, "sensor_range", 0, 3, &r->sensor_range);
    if (rc == 0)
        rc = get_int8(&c, o, "scanner_reach", 1, 4, &r->scanner_reach);
    if (rc == 0)
        rc = get_int8(&c, o, "hand_limit", 1, 20, &r->hand_limit);
    if (rc)
        return rc;
    const json_t *p = json_object_get(o, "start_pools");
    snprintf(c.prefix, sizeof c.prefix, "%s", "start_pools.");
    if (!json_is_object(p))
        return fail(&c, "", "must be an object {tactic, fleet, strategy}");
    rc = check_fields(&c, p, pf);
    if (rc == 0)
        rc = get_int8(&c, p, "tactic", 0, 16, &r->start_tactic);
    if (rc == 0)
        rc = get_int8(&c, p, "fleet", 1, 16, &r->start_fleet);
    if (rc == 0)
        rc = get_int8(&c, p, "strategy", 0, 16, &r->start_strategy);
    if (rc)
        return rc;
    const json_t *u = json_object_get(o, "start_units");
    snprintf(c.prefix, sizeof c.prefix, "%s", "start_units.");
    if (!json_is_object(u))
        return fail(&c, "", "must be an object of unit counts");
    const char *k;
    const json_t *v;
    json_object_foreach((json_t *)u, k, v)
    {
        int x = cnc_unit_index(d, k), n = 0;
        if (x < 0)
            return fail(&c, k, "is not a unit");
        rc = get_int(&c, u, k, 0, 12, 1, 0, &n);
        if (rc)
            return rc;
        r->start_units[x] = (int8_t)n;
    }
    return 0;
}

/* Every planet key is unique across tiles, homes and the capital. */
static int check_planet_keys(const cnc_data *d, engine_error *err)
{
    const cnc_planet *seen[CNC_MAX_SYSTEMS * CNC_MAX_PLANETS +
                           CNC_MAX_RACES * CNC_MAX_PLANETS + CNC_MAX_PLANETS];
    int n = 0;
    const cnc_system *sys[CNC_MAX_SYSTEMS + CNC_MAX_RACES + 1];
    int ns = 0;
    for (int i = 0; i < d->nsystems; i++)
        sys[ns++] = &d->systems[i];
    for (int i = 0; i < d->nraces; i++)
        sys[ns++] = &d->races[i].home;
    sys[ns++] = &d->capital;
    for (int s = 0; s < ns; s++)
        for (int p = 0; p < sys[s]->nplanets; p++) {
            const cnc_planet *pl = &sys[s]->planets[p];
            for (int j = 0; j < n; j++)
                if (strcmp(seen[j]->key, pl->key) == 0)
                    return engine_fail(err, ENGINE_EINVALID, "planets",
                                       "council.json: planet key %s is used "
                                       "twice (in %s)",
                                       pl->key, sys[s]->key);
            seen[n++] = pl;
        }
    return 0;
}

/* The cross-section promises: initiatives 1..n once each, one espionage
 * card, a long-range scanner technology, a template for every player
 * count, enough races, enough markers, both objective stages. */
static int check_whole(const cnc_data *d, engine_error *err)
{
    int init_seen[CNC_MAX_STRATEGIES + 1] = {0}, espionage = 0, scanner = 0;
    for (int i = 0; i < d->nstrategies; i++) {
        const cnc_strategy *s = &d->strategies[i];
        if (s->initiative > d->nstrategies || init_seen[s->initiative]++)
            return engine_fail(err, ENGINE_EINVALID, "initiative",
                               "council.json strategies[%d] (%s): initiative "
                               "%d is repeated or above %d",
                               i, s->key, s->initiative, d->nstrategies);
        espionage += s->ability == CNC_STRAT_ESPIONAGE;
    }
    if (espionage != 1)
        return engine_fail(err, ENGINE_EINVALID, "ability",
                           "council.json strategies: exactly one card needs "
                           "ability espionage");
    for (int i = 0; i < d->ntechs; i++)
        scanner += d->techs[i].effect == CNC_TECH_SCANNER;
    if (scanner != 1)
        return engine_fail(err, ENGINE_EINVALID, "effect",
                           "council.json technologies: exactly one needs "
                           "effect scanner (long-range scanners)");
    for (int n = CNC_MIN_PLAYERS; n <= CNC_MAX_PLAYERS; n++)
        if (!cnc_template_for(d, n))
            return engine_fail(err, ENGINE_EINVALID, "templates",
                               "council.json templates: none for %d players",
                               n);
    int planets = 0, plain = 0, stage[3] = {0};
    for (int i = 0; i < d->nsystems; i++) {
        planets += d->systems[i].nplanets;
        plain += d->systems[i].kind <= CNC_SYS_EMPTY ? d->systems[i].count : 0;
    }
    if (d->planet_markers < planets || d->system_markers < plain)
        return engine_fail(err, ENGINE_EINVALID, "count",
                           "council.json markers: %d planet and %d system "
                           "markers, the deck needs %d and %d",
                           d->planet_markers, d->system_markers, planets,
                           plain);
    for (int i = 0; i < d->nobjectives; i++)
        stage[d->objectives[i].secret ? 0 : d->objectives[i].stage]++;
    if (stage[1] < 5 || stage[2] < 5 || stage[0] < 1)
        return engine_fail(err, ENGINE_EINVALID, "stage",
                           "council.json objectives: needs at least 5 public "
                           "stage I, 5 public stage II and 1 secret");
    return check_planet_keys(d, err);
}

static int parse_capital(const json_t *root, cnc_data *d, engine_error *err)
{
    static const char *const f[] = {"key", "name", "planets", NULL};
    pctx c = {.err = err, .section = "capital", .idx = -1};
    const json_t *o = json_object_get(root, "capital");
    if (!json_is_object(o))
        return fail(&c, "", "must be an object {key, name, planets}");
    int rc = check_fields(&c, o, f);
    if (rc == 0)
        rc = get_str(&c, o, "key", d->capital.key, CNC_KEY_MAX, 1);
    if (rc == 0)
        rc = get_str(&c, o, "name", d->capital.name, CNC_NAME_MAX, 0);
    d->capital.count = 1;
    return rc ? rc : parse_planets(&c, o, &d->capital, 1);
}

static int parse_root(const json_t *root, void *table, engine_error *err)
{
    cnc_data *d = table;
    static const char *const f[] = {
        "format",       "rules",   "units",   "races",   "strategies",
        "technologies", "systems", "capital", "markers", "templates",
        "objectives",   "actions", "agendas", NULL};
    pctx c = {.err = err, .section = "(top level)", .idx = -1};
    const json_t *fmt = json_object_get(root, "format");
    if (!json_is_object(root) || !json_is_string(fmt) ||
        strcmp(json_string_value(fmt), "council-data/1") != 0)
        return fail(&c, "format", "must be \"council-data/1\"");
    int rc = check_fields(&c, root, f);
    if (rc == 0)
        rc = parse_section(root, "units", 1, CNC_MAX_UNITS, parse_unit,
                           d->units, sizeof d->units[0], 0, &d->nunits, d, err);
    if (rc == 0)
        rc = parse_rules(root, d, err);
    if (rc == 0)
        rc = parse_section(root, "races", CNC_MAX_PLAYERS, CNC_MAX_RACES,
                           parse_race, d->races, sizeof d->races[0], 0,
                           &d->nraces, d, err);
    if (rc == 0)
        rc = parse_section(root, "strategies", CNC_MAX_STRATEGIES,
                           CNC_MAX_STRATEGIES, parse_strategy, d->strategies,
                           sizeof d->strategies[0], 0, &d->nstrategies, d, err);
    if (rc == 0)
        rc = parse_section(root, "technologies", 1, CNC_MAX_TECHS, parse_tech,
                           d->techs, sizeof d->techs[0], 0, &d->ntechs, d, err);
    if (rc == 0)
        rc = parse_section(root, "systems", 1, CNC_MAX_SYSTEMS, parse_system,
                           d->systems, sizeof d->systems[0], 0, &d->nsystems, d,
                           err);
    for (int i = 0; rc == 0 && i < d->nsystems; i++)
        d->deck_size += d->systems[i].count;
    if (rc == 0 && d->deck_size > CNC_MAX_DECK)
        rc = engine_fail(err, ENGINE_EINVALID, "count",
                         "council.json systems: at most %d tiles with their "
                         "counts, got %d",
                         CNC_MAX_DECK, d->deck_size);
    if (rc == 0)
        rc = parse_capital(root, d, err);
    if (rc == 0)
        rc = parse_section(root, "markers", 2, CNC_MAX_MARKER_KINDS,
                           parse_marker, d->markers, sizeof d->markers[0], 0,
                           &d->nmarkers, d, err);
    if (rc == 0)
        rc = parse_section(root, "templates", 1,
                           CNC_MAX_PLAYERS - CNC_MIN_PLAYERS + 1,
                           parse_template, d->templates, sizeof d->templates[0],
                           1, NULL, d, err);
    if (rc == 0)
        rc = parse_section(root, "objectives", 1, CNC_MAX_OBJECTIVES,
                           parse_objective, d->objectives,
                           sizeof d->objectives[0], 0, &d->nobjectives, d, err);
    if (rc == 0)
        rc = parse_section(root, "actions", 1, CNC_MAX_ACTIONS, parse_action,
                           d->actions, sizeof d->actions[0], 0, &d->nactions, d,
                           err);
    if (rc == 0)
        rc = parse_section(root, "agendas", 2, CNC_MAX_AGENDAS, parse_agenda,
                           d->agendas, sizeof d->agendas[0], 0, &d->nagendas, d,
                           err);
    return rc ? rc : check_whole(d, err);
}

static const engine_carddata council_file = {
    "council.json", sizeof(cnc_data), offsetof(cnc_data, sha256), parse_root};

int cnc_data_parse(const char *text, size_t len, cnc_data *out,
                   engine_error *err)
{
    return engine_carddata_parse(&council_file, text, len, out, err);
}

int cnc_data_init(engine_error *err)
{
    return engine_carddata_init(&council_file, council_json, council_json_len,
                                &g_data, &g_data_ready, err);
}

const cnc_data *cnc_data_get(void)
{
    return g_data_ready ? &g_data : NULL;
}

int cnc_unit_index(const cnc_data *d, const char *key)
{
    return engine_carddata_find(d->units, d->nunits, sizeof d->units[0], key);
}

int cnc_race_index(const cnc_data *d, const char *key)
{
    return engine_carddata_find(d->races, d->nraces, sizeof d->races[0], key);
}

int cnc_tech_index(const cnc_data *d, const char *key)
{
    return engine_carddata_find(d->techs, d->ntechs, sizeof d->techs[0], key);
}

int cnc_strategy_index(const cnc_data *d, const char *key)
{
    return engine_carddata_find(d->strategies, d->nstrategies,
                                sizeof d->strategies[0], key);
}

int cnc_marker_index(const cnc_data *d, const char *key)
{
    return engine_carddata_find(d->markers, d->nmarkers, sizeof d->markers[0],
                                key);
}

static const cnc_planet *planet_in(const cnc_system *s, const char *key)
{
    for (int p = 0; p < s->nplanets; p++)
        if (strcmp(s->planets[p].key, key) == 0)
            return &s->planets[p];
    return NULL;
}

const cnc_planet *cnc_planet_find(const cnc_data *d, const char *key)
{
    const cnc_planet *p = planet_in(&d->capital, key);
    for (int i = 0; !p && i < d->nsystems; i++)
        p = planet_in(&d->systems[i], key);
    for (int i = 0; !p && i < d->nraces; i++)
        p = planet_in(&d->races[i].home, key);
    return p;
}

const cnc_template *cnc_template_for(const cnc_data *d, int players)
{
    if (players < CNC_MIN_PLAYERS || players > CNC_MAX_PLAYERS)
        return NULL;
    const cnc_template *t = &d->templates[players - CNC_MIN_PLAYERS];
    return t->players ? t : NULL;
}

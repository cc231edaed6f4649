/*
 * skirmish_cards.c - parses and validates Skirmish's cards.json (embedded
 * by skirmish_cards_data.S) into an immutable skirmish_cardset, and looks
 * designs, factions and squads up by key.
 *
 * Every ability is checked against a table of what its kind allows
 * (timings, targets, amount, extra fields), so a card can only say what
 * the rules know how to do. Errors name the card (index and key) or squad
 * and the field at fault. Texts and client JSON are in skirmish_text.c.
 */
#include "engine/rules/skirmish/skirmish_cards.h"
#include "engine/carddata.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

extern const char skirmish_cards_json[];
extern const uint64_t skirmish_cards_json_len;

static skirmish_cardset g_cards; /* written once by skirmish_cards_init */
static int g_cards_ready;

#define BIT(x) (1u << (x))

/* What each kind allows. */
typedef struct kind_rule {
    const char *name;
    unsigned timings;  /* BIT(SKIRMISH_T_*) */
    unsigned targets;  /* BIT(SKIRMISH_TG_*); 0: no "target" field */
    int amin, amax;    /* amount bounds; both 0: no "amount" field */
    int spell_ok;      /* may carry "spell": true */
    const char *which; /* the targets allowed, for the error message */
} kind_rule;

#define EFFECT_TIMINGS                                                         \
    (BIT(SKIRMISH_T_ACTION) | BIT(SKIRMISH_T_SUDDEN) | BIT(SKIRMISH_T_TRIGGER))

static const kind_rule kind_rules[SKIRMISH_K_COUNT] = {
    [SKIRMISH_K_FIRST_STRIKE] = {"first_strike", BIT(SKIRMISH_T_STATIC), 0, 0,
                                 0, 0, ""},
    [SKIRMISH_K_FLYING] = {"flying", BIT(SKIRMISH_T_STATIC), 0, 0, 0, 0, ""},
    [SKIRMISH_K_ARMOUR] = {"armour", BIT(SKIRMISH_T_STATIC), 0, 1, 3, 0, ""},
    [SKIRMISH_K_STRIKE_MOD] = {"strike_mod", BIT(SKIRMISH_T_STATIC), 0, -3, 3,
                               0, ""},
    [SKIRMISH_K_REGENERATION] = {"regeneration", BIT(SKIRMISH_T_STATIC), 0, 1,
                                 3, 0, ""},
    [SKIRMISH_K_DAMAGE] = {"damage", EFFECT_TIMINGS,
                           BIT(SKIRMISH_TG_ENEMY) | BIT(SKIRMISH_TG_CREATURE) |
                               BIT(SKIRMISH_TG_ADJ_ENEMIES) |
                               BIT(SKIRMISH_TG_ADJ_CREATURES),
                           1, 6, 1,
                           "enemy, creature, adjacent_enemies or "
                           "adjacent_creatures"},
    [SKIRMISH_K_HEAL] = {"heal", EFFECT_TIMINGS,
                         BIT(SKIRMISH_TG_SELF) | BIT(SKIRMISH_TG_ALLY) |
                             BIT(SKIRMISH_TG_ADJ_ALLIES) |
                             BIT(SKIRMISH_TG_ALL_ALLIES),
                         1, 6, 1, "self, ally, adjacent_allies or all_allies"},
    [SKIRMISH_K_AURA] = {"aura", EFFECT_TIMINGS,
                         BIT(SKIRMISH_TG_SELF) | BIT(SKIRMISH_TG_ALLY) |
                             BIT(SKIRMISH_TG_ENEMY) |
                             BIT(SKIRMISH_TG_ADJ_ALLIES) |
                             BIT(SKIRMISH_TG_ALL_ALLIES),
                         -3, 3, 1,
                         "self, ally, enemy, adjacent_allies or all_allies"},
    [SKIRMISH_K_POISON] = {"poison", EFFECT_TIMINGS,
                           BIT(SKIRMISH_TG_ENEMY) |
                               BIT(SKIRMISH_TG_ADJ_ENEMIES),
                           1, 3, 1, "enemy or adjacent_enemies"},
    [SKIRMISH_K_TOKENS] = {"tokens", EFFECT_TIMINGS, BIT(SKIRMISH_TG_SELF), 1,
                           3, 0, "self"},
    [SKIRMISH_K_PARRY] = {"parry", BIT(SKIRMISH_T_SUDDEN),
                          BIT(SKIRMISH_TG_SELF) | BIT(SKIRMISH_TG_ALLY), 1, 9,
                          0, "self or ally"},
    [SKIRMISH_K_COUNTERSPELL] = {"counterspell", BIT(SKIRMISH_T_SUDDEN), 0, 0,
                                 0, 1, ""},
};

static const char *const timing_names[SKIRMISH_T_COUNT] = {"static", "action",
                                                           "sudden", "trigger"};
static const char *const trigger_names[SKIRMISH_TR_COUNT] = {
    "none", "enters", "dies", "attacked", "turn_start", "end_of_turn"};
static const char *const target_names[SKIRMISH_TG_COUNT] = {
    "none",
    "self",
    "ally",
    "enemy",
    "creature",
    "adjacent_allies",
    "adjacent_enemies",
    "adjacent_creatures",
    "all_allies"};
static const char *const stat_names[SKIRMISH_ST_COUNT] = {"strike", "armour",
                                                          "move"};
static const char *const when_names[SKIRMISH_W_COUNT] = {"always", "attacking",
                                                         "defending"};

const char *skirmish_kind_name(int kind)
{
    return kind >= 0 && kind < SKIRMISH_K_COUNT ? kind_rules[kind].name : "?";
}

const char *skirmish_timing_name(int t)
{
    return t >= 0 && t < SKIRMISH_T_COUNT ? timing_names[t] : "?";
}

const char *skirmish_trigger_name(int t)
{
    return t >= 0 && t < SKIRMISH_TR_COUNT ? trigger_names[t] : "?";
}

const char *skirmish_target_name(int t)
{
    return t >= 0 && t < SKIRMISH_TG_COUNT ? target_names[t] : "?";
}

const char *skirmish_stat_name(int s)
{
    return s >= 0 && s < SKIRMISH_ST_COUNT ? stat_names[s] : "?";
}

const char *skirmish_when_name(int w)
{
    return w >= 0 && w < SKIRMISH_W_COUNT ? when_names[w] : "?";
}

/* Index of s in names[first..n-1], or -1 (also for a non-string). */
static int lookup(const char *const *names, int first, int n, const json_t *s)
{
    int i =
        engine_carddata_lookup(names + first, n - first, json_string_value(s));
    return i < 0 ? -1 : first + i;
}

static int lookup_kind(const json_t *s)
{
    if (!json_is_string(s))
        return -1;
    for (int i = 0; i < SKIRMISH_K_COUNT; i++)
        if (strcmp(kind_rules[i].name, json_string_value(s)) == 0)
            return i;
    return -1;
}

/* ------------------------------------------------------------ errors -- */

/* Error naming where (e.g. "card 3 (ash_warden)") and the field. */
#define where_fail(err, where, field, ...)                                     \
    engine_carddata_fail(err, "cards.json", where, field, __VA_ARGS__)

/* A key ([a-z0-9_], 1..KEY_MAX-1) and a name (1..NAME_MAX-1 bytes). */
static int get_key_name(const json_t *obj, const char *where, char *key,
                        char *name, engine_error *err)
{
    if (engine_carddata_key(obj, "cards.json", where, key, SKIRMISH_KEY_MAX,
                            err) ||
        engine_carddata_string(obj, "name", "cards.json", where, "name", name,
                               SKIRMISH_NAME_MAX, err))
        return ENGINE_EINVALID;
    return 0;
}

/* ---------------------------------------------------------- abilities -- */

/* "cost": the resources before the colon. */
static int parse_cost(const json_t *jc, const char *where, const char *field,
                      skirmish_cost *c, engine_error *err)
{
    static const char *const known[] = {"move", "tap", "tokens", "life", NULL};
    char f[128];
    if (!json_is_object(jc))
        return where_fail(err, where, field,
                          "must be an object of move, tap, tokens, life");
    const char *bad = engine_carddata_unknown(jc, known);
    if (bad) {
        snprintf(f, sizeof f, "%.60s.%s", field, bad);
        return where_fail(err, where, f,
                          "is not a resource (move, tap, tokens, life)");
    }
    const json_t *tap = json_object_get(jc, "tap");
    if (tap && !json_is_true(tap)) {
        snprintf(f, sizeof f, "%.60s.tap", field);
        return where_fail(err, where, f, "must be true when present");
    }
    c->tap = tap != NULL;
    static const char *const ints[] = {"move", "tokens", "life"};
    static const int hi[] = {4, 5, 5};
    uint8_t *slot[] = {&c->move, &c->tokens, &c->life};
    for (int i = 0; i < 3; i++) {
        int x;
        if (engine_carddata_int(jc, ints[i], 1, hi[i], 0, &x) < 0) {
            snprintf(f, sizeof f, "%.60s.%s", field, ints[i]);
            return where_fail(err, where, f, "must be an integer 1..%d", hi[i]);
        }
        *slot[i] = (uint8_t)x;
    }
    if (!c->tap && !c->move && !c->tokens && !c->life)
        return where_fail(err, where, field, "must name at least one resource");
    return 0;
}

/* timing, trigger and cost of a (known) kind into out. */
static int parse_timing(const json_t *a, const char *where, const char *field,
                        skirmish_ability *out, engine_error *err)
{
    const kind_rule *r = &kind_rules[out->kind];
    char f[128];
    const json_t *jt = json_object_get(a, "timing");
    const json_t *jtr = json_object_get(a, "trigger");
    const json_t *jc = json_object_get(a, "cost");
    snprintf(f, sizeof f, "%s.timing", field);
    if (r->timings == BIT(SKIRMISH_T_STATIC)) {
        if (jt || jtr || jc)
            return where_fail(err, where, f,
                              "%s is a static keyword: no timing, trigger or "
                              "cost",
                              r->name);
        out->timing = SKIRMISH_T_STATIC;
        return 0;
    }
    int t = lookup(timing_names, SKIRMISH_T_ACTION, SKIRMISH_T_COUNT, jt);
    if (t < 0 || !(r->timings & BIT(t)))
        return where_fail(err, where, f, "%s",
                          r->timings == BIT(SKIRMISH_T_SUDDEN)
                              ? "must be sudden"
                              : "must be action, sudden or trigger");
    out->timing = (uint8_t)t;
    snprintf(f, sizeof f, "%s.trigger", field);
    if (t == SKIRMISH_T_TRIGGER) {
        int tr =
            lookup(trigger_names, SKIRMISH_TR_ENTERS, SKIRMISH_TR_COUNT, jtr);
        if (tr < 0)
            return where_fail(err, where, f,
                              "must be enters, dies, attacked, turn_start or "
                              "end_of_turn");
        out->trigger = (uint8_t)tr;
    } else if (jtr) {
        return where_fail(err, where, f, "is only for timing trigger");
    }
    snprintf(f, sizeof f, "%s.cost", field);
    if (t == SKIRMISH_T_TRIGGER) {
        if (jc)
            return where_fail(err, where, f,
                              "is not for triggered abilities (they cost "
                              "nothing)");
        return 0;
    }
    if (!jc)
        return where_fail(err, where, f,
                          "is required for action and sudden abilities");
    if (parse_cost(jc, where, f, &out->cost, err))
        return ENGINE_EINVALID;
    if (t == SKIRMISH_T_ACTION && !out->cost.tap)
        return where_fail(err, where, f,
                          "of an action must include tap: an action is paid "
                          "by closing the card (412.1)");
    return 0;
}

/* target, range, amount, stat, when and spell of a (known) kind. */
static int parse_effect_fields(const json_t *a, const char *where,
                               const char *field, skirmish_ability *out,
                               engine_error *err)
{
    const kind_rule *r = &kind_rules[out->kind];
    char f[128];
    const json_t *jtg = json_object_get(a, "target");
    snprintf(f, sizeof f, "%s.target", field);
    if (!r->targets && jtg)
        return where_fail(err, where, f, "is not for %s", r->name);
    if (r->targets) {
        int tg = lookup(target_names, SKIRMISH_TG_SELF, SKIRMISH_TG_COUNT, jtg);
        if (tg < 0 || !(r->targets & BIT(tg)))
            return where_fail(err, where, f, "of %s must be %s", r->name,
                              r->which);
        out->target = (uint8_t)tg;
    }
    int single = out->target == SKIRMISH_TG_ALLY ||
                 out->target == SKIRMISH_TG_ENEMY ||
                 out->target == SKIRMISH_TG_CREATURE;
    int x;
    snprintf(f, sizeof f, "%s.range", field);
    if (!single && json_object_get(a, "range"))
        return where_fail(err, where, f,
                          "is only for single targets (ally, enemy, "
                          "creature)");
    if (single && (engine_carddata_int(a, "range", 1, 6, -1, &x) < 0 || x < 0))
        return where_fail(err, where, f, "must be an integer 1..6");
    out->range = (uint8_t)(single ? x : 0);
    snprintf(f, sizeof f, "%s.amount", field);
    const json_t *jam = json_object_get(a, "amount");
    if (r->amin == 0 && r->amax == 0) {
        if (jam)
            return where_fail(err, where, f, "is not for %s", r->name);
    } else if (engine_carddata_int(a, "amount", r->amin, r->amax, 0, &x) < 0 ||
               x == 0) {
        return where_fail(err, where, f, "must be an integer %d..%d%s", r->amin,
                          r->amax, r->amin < 0 ? ", not 0" : "");
    } else {
        out->amount = (int8_t)x;
    }
    const json_t *js = json_object_get(a, "stat");
    snprintf(f, sizeof f, "%s.stat", field);
    if (out->kind == SKIRMISH_K_AURA) {
        int st = lookup(stat_names, 0, SKIRMISH_ST_COUNT, js);
        if (st < 0)
            return where_fail(err, where, f, "must be strike, armour or move");
        out->stat = (uint8_t)st;
    } else if (js) {
        return where_fail(err, where, f, "is only for aura");
    }
    const json_t *jw = json_object_get(a, "when");
    snprintf(f, sizeof f, "%s.when", field);
    if (jw && out->kind != SKIRMISH_K_STRIKE_MOD)
        return where_fail(err, where, f, "is only for strike_mod");
    if (jw) {
        int w = lookup(when_names, 0, SKIRMISH_W_COUNT, jw);
        if (w < 0)
            return where_fail(err, where, f,
                              "must be always, attacking or defending");
        out->when = (uint8_t)w;
    }
    const json_t *jsp = json_object_get(a, "spell");
    snprintf(f, sizeof f, "%s.spell", field);
    if (jsp && (!r->spell_ok || !json_is_true(jsp)))
        return where_fail(err, where, f, "%s",
                          r->spell_ok ? "must be true when present"
                                      : "is not allowed for this kind");
    out->spell = jsp != NULL;
    return 0;
}

static int parse_ability(const json_t *a, const char *where, int ai,
                         skirmish_ability *out, engine_error *err)
{
    static const char *const known[] = {"kind",   "timing", "trigger", "cost",
                                        "target", "range",  "amount",  "stat",
                                        "when",   "spell",  NULL};
    char field[40];
    snprintf(field, sizeof field, "abilities[%d]", ai);
    memset(out, 0, sizeof *out);
    if (!json_is_object(a))
        return where_fail(err, where, field, "must be an object");
    const char *bad = engine_carddata_unknown(a, known);
    if (bad)
        return where_fail(err, where, field, "has unknown field \"%s\"", bad);
    int kind = lookup_kind(json_object_get(a, "kind"));
    if (kind < 0)
        return where_fail(err, where, field,
                          "kind must be one of first_strike, flying, armour, "
                          "strike_mod, regeneration, damage, heal, aura, "
                          "poison, tokens, parry, counterspell");
    out->kind = (uint8_t)kind;
    if (parse_timing(a, where, field, out, err) ||
        parse_effect_fields(a, where, field, out, err))
        return ENGINE_EINVALID;
    return 0;
}

/* -------------------------------------------------------------- cards -- */

/* Whole-design checks once every ability parsed. */
static int check_design(const skirmish_design *d, const char *where,
                        engine_error *err)
{
    int gets_tokens = d->tokens > 0, needs_tokens = 0;
    for (int i = 0; i < d->nab; i++) {
        const skirmish_ability *a = &d->ab[i];
        char f[40];
        snprintf(f, sizeof f, "abilities[%d]", i);
        gets_tokens |= a->kind == SKIRMISH_K_TOKENS;
        needs_tokens |= a->cost.tokens > 0;
        if (a->timing == SKIRMISH_T_STATIC)
            for (int j = 0; j < i; j++)
                if (d->ab[j].kind == a->kind)
                    return where_fail(err, where, f, "repeats the keyword %s",
                                      kind_rules[a->kind].name);
        if (a->cost.move > d->move)
            return where_fail(err, where, f,
                              "costs %d movement but the creature has %d",
                              a->cost.move, d->move);
        if (a->cost.life >= d->life)
            return where_fail(err, where, f,
                              "costs %d life: it must be less than its life "
                              "%d",
                              a->cost.life, d->life);
    }
    if (needs_tokens && !gets_tokens)
        return where_fail(err, where, "tokens",
                          "must be given (or a tokens ability): an ability "
                          "costs tokens");
    return 0;
}

/* cost, life, move, strike and tokens of a design. */
static int parse_stats(const json_t *c, const char *where, skirmish_design *d,
                       engine_error *err)
{
    static const char *const names[] = {"cost", "life", "move", "tokens"};
    static const int lo[] = {1, 1, 0, 0}, hi[] = {10, 12, 4, 5},
                     def[] = {-1, -1, -1, 0};
    uint8_t *slot[] = {&d->cost, &d->life, &d->move, &d->tokens};
    for (int i = 0; i < 4; i++) {
        int x;
        if (engine_carddata_int(c, names[i], lo[i], hi[i], def[i], &x) < 0 ||
            x < 0)
            return where_fail(err, where, names[i], "must be an integer %d..%d",
                              lo[i], hi[i]);
        *slot[i] = (uint8_t)x;
    }
    const json_t *js = json_object_get(c, "strike");
    int ok = json_is_array(js) && json_array_size(js) == 3;
    for (int i = 0; ok && i < 3; i++) {
        const json_t *v = json_array_get(js, (size_t)i);
        ok = json_is_integer(v) && json_integer_value(v) >= 0 &&
             json_integer_value(v) <= 9 &&
             (i == 0 || json_integer_value(v) >= d->strike[i - 1]);
        if (ok)
            d->strike[i] = (uint8_t)json_integer_value(v);
    }
    if (!ok)
        return where_fail(err, where, "strike",
                          "must be [weak, medium, strong]: integers 0..9, "
                          "none below the one before");
    return 0;
}

static int parse_card(const json_t *c, int idx, const skirmish_cardset *cs,
                      skirmish_design *d, engine_error *err)
{
    static const char *const known[] = {
        "key",  "name",   "faction", "cost",      "life",
        "move", "strike", "tokens",  "abilities", NULL};
    char where[80];
    memset(d, 0, sizeof *d);
    snprintf(where, sizeof where, "card %d", idx);
    if (!json_is_object(c))
        return where_fail(err, where, "card", "must be an object");
    if (get_key_name(c, where, d->key, d->name, err))
        return ENGINE_EINVALID;
    snprintf(where, sizeof where, "card %d (%s)", idx, d->key);
    const char *bad = engine_carddata_unknown(c, known);
    if (bad)
        return where_fail(err, where, bad, "is not a known field");
    const json_t *jf = json_object_get(c, "faction");
    int f = json_is_string(jf)
                ? skirmish_faction_find(cs, json_string_value(jf))
                : -1;
    if (f < 0)
        return where_fail(err, where, "faction",
                          "must be the key of one of the factions");
    d->faction = (uint8_t)f;
    if (parse_stats(c, where, d, err))
        return ENGINE_EINVALID;
    const json_t *ja = json_object_get(c, "abilities");
    if (ja &&
        (!json_is_array(ja) || json_array_size(ja) > SKIRMISH_MAX_ABILITIES))
        return where_fail(err, where, "abilities",
                          "must be an array of at most %d abilities",
                          SKIRMISH_MAX_ABILITIES);
    for (size_t i = 0; ja && i < json_array_size(ja); i++) {
        if (parse_ability(json_array_get(ja, i), where, (int)i, &d->ab[i], err))
            return ENGINE_EINVALID;
        d->nab++;
    }
    return check_design(d, where, err);
}

/* ----------------------------------------------------- whole document -- */

static int parse_muster(const json_t *m, skirmish_cardset *out,
                        engine_error *err)
{
    static const char *const known[] = {"budget", "max_creatures", "max_copies",
                                        NULL};
    if (!json_is_object(m))
        return engine_fail(err, ENGINE_EINVALID, "muster",
                           "cards.json: muster must be an object of budget, "
                           "max_creatures, max_copies");
    const char *bad = engine_carddata_unknown(m, known);
    if (bad)
        return engine_fail(err, ENGINE_EINVALID, "muster",
                           "cards.json muster: %s is not a known field", bad);
    if (engine_carddata_int(m, "budget", 5, 100, -1, &out->budget) < 0 ||
        out->budget < 0)
        return engine_fail(err, ENGINE_EINVALID, "budget",
                           "cards.json muster: budget must be an integer "
                           "5..100");
    if (engine_carddata_int(m, "max_creatures", 1, SKIRMISH_SQUAD_MAX, -1,
                            &out->max_creatures) < 0 ||
        out->max_creatures < 0)
        return engine_fail(err, ENGINE_EINVALID, "max_creatures",
                           "cards.json muster: max_creatures must be an "
                           "integer 1..%d",
                           SKIRMISH_SQUAD_MAX);
    if (engine_carddata_int(m, "max_copies", 1, SKIRMISH_SQUAD_MAX, -1,
                            &out->max_copies) < 0 ||
        out->max_copies < 0)
        return engine_fail(err, ENGINE_EINVALID, "max_copies",
                           "cards.json muster: max_copies must be an integer "
                           "1..%d",
                           SKIRMISH_SQUAD_MAX);
    return 0;
}

static int parse_factions(const json_t *jf, skirmish_cardset *out,
                          engine_error *err)
{
    if (!json_is_array(jf) || json_array_size(jf) < 2 ||
        json_array_size(jf) > SKIRMISH_MAX_FACTIONS)
        return engine_fail(err, ENGINE_EINVALID, "factions",
                           "cards.json: factions must be an array of 2..%d",
                           SKIRMISH_MAX_FACTIONS);
    static const char *const known[] = {"key", "name", NULL};
    for (size_t i = 0; i < json_array_size(jf); i++) {
        const json_t *f = json_array_get(jf, i);
        skirmish_faction *fa = &out->factions[i];
        char where[80];
        snprintf(where, sizeof where, "faction %zu", i);
        if (!json_is_object(f) || engine_carddata_unknown(f, known))
            return where_fail(err, where, "faction",
                              "must be an object of key and name");
        if (get_key_name(f, where, fa->key, fa->name, err))
            return ENGINE_EINVALID;
        snprintf(where, sizeof where, "faction %zu (%s)", i, fa->key);
        if (skirmish_faction_find(out, fa->key) >= 0)
            return where_fail(err, where, "key", "repeats faction %s", fa->key);
        out->nfactions++;
    }
    return 0;
}

static int parse_cards(const json_t *jc, skirmish_cardset *out,
                       engine_error *err)
{
    if (!json_is_array(jc) || json_array_size(jc) == 0 ||
        json_array_size(jc) > SKIRMISH_MAX_DESIGNS)
        return engine_fail(err, ENGINE_EINVALID, "cards",
                           "cards.json: cards must be an array of 1..%d "
                           "designs",
                           SKIRMISH_MAX_DESIGNS);
    for (size_t i = 0; i < json_array_size(jc); i++) {
        skirmish_design *d = &out->designs[i];
        if (parse_card(json_array_get(jc, i), (int)i, out, d, err))
            return ENGINE_EINVALID;
        char where[80];
        snprintf(where, sizeof where, "card %zu (%s)", i, d->key);
        if (engine_carddata_unique(out->designs, (int)i, sizeof *d,
                                   offsetof(skirmish_design, name),
                                   "cards.json", where, err))
            return ENGINE_EINVALID;
        out->ndesigns++;
    }
    for (int f = 0; f < out->nfactions; f++) {
        int n = 0;
        for (int i = 0; i < out->ndesigns; i++)
            n += out->designs[i].faction == f;
        if (n == 0)
            return engine_fail(err, ENGINE_EINVALID, "factions",
                               "cards.json faction %d (%s): has no cards", f,
                               out->factions[f].key);
    }
    return 0;
}

static int parse_squad(const json_t *s, int idx, skirmish_cardset *out,
                       engine_error *err)
{
    static const char *const known[] = {"key", "name", "cards", NULL};
    skirmish_squad *q = &out->squads[idx];
    char where[80];
    snprintf(where, sizeof where, "squad %d", idx);
    if (!json_is_object(s))
        return where_fail(err, where, "squad", "must be an object");
    if (get_key_name(s, where, q->key, q->name, err))
        return ENGINE_EINVALID;
    snprintf(where, sizeof where, "squad %d (%s)", idx, q->key);
    const char *bad = engine_carddata_unknown(s, known);
    if (bad)
        return where_fail(err, where, bad, "is not a known field");
    if (skirmish_squad_find(out, q->key) >= 0)
        return where_fail(err, where, "key", "repeats another squad");
    const json_t *jc = json_object_get(s, "cards");
    if (!json_is_array(jc) || json_array_size(jc) == 0 ||
        json_array_size(jc) > SKIRMISH_SQUAD_MAX)
        return where_fail(err, where, "cards",
                          "must be an array of 1..%d card keys",
                          SKIRMISH_SQUAD_MAX);
    for (size_t i = 0; i < json_array_size(jc); i++) {
        const json_t *k = json_array_get(jc, i);
        int d = json_is_string(k)
                    ? skirmish_design_find(out, json_string_value(k))
                    : -1;
        if (d < 0)
            return where_fail(err, where, "cards",
                              "entry %zu names no card (\"%.40s\")", i,
                              json_is_string(k) ? json_string_value(k) : "?");
        q->cards[q->n++] = (uint8_t)d;
    }
    engine_error e = {0};
    if (skirmish_squad_check(out, q->cards, q->n, &e))
        return where_fail(err, where, "cards", "break the muster rules: %s",
                          e.msg);
    return 0;
}

static int parse_root(const json_t *root, void *table, engine_error *err)
{
    skirmish_cardset *out = table;
    static const char *const known[] = {"format", "muster", "factions",
                                        "cards",  "squads", NULL};
    const json_t *fmt = json_object_get(root, "format");
    if (!json_is_object(root) || !json_is_string(fmt) ||
        strcmp(json_string_value(fmt), "skirmish-cards/1") != 0)
        return engine_fail(err, ENGINE_EINVALID, "format",
                           "cards.json: format must be \"skirmish-cards/1\"");
    const char *bad = engine_carddata_unknown(root, known);
    if (bad)
        return engine_fail(err, ENGINE_EINVALID, bad,
                           "cards.json: %s is not a known field", bad);
    if (parse_muster(json_object_get(root, "muster"), out, err) ||
        parse_factions(json_object_get(root, "factions"), out, err) ||
        parse_cards(json_object_get(root, "cards"), out, err))
        return ENGINE_EINVALID;
    const json_t *js = json_object_get(root, "squads");
    if (!json_is_array(js) || json_array_size(js) < 3 ||
        json_array_size(js) > SKIRMISH_MAX_SQUADS)
        return engine_fail(err, ENGINE_EINVALID, "squads",
                           "cards.json: squads must be an array of 3..%d "
                           "prebuilt squads",
                           SKIRMISH_MAX_SQUADS);
    for (size_t i = 0; i < json_array_size(js); i++) {
        if (parse_squad(json_array_get(js, i), (int)i, out, err))
            return ENGINE_EINVALID;
        out->nsquads++;
    }
    return 0;
}

static const engine_carddata cards_file = {
    "cards.json", sizeof(skirmish_cardset), offsetof(skirmish_cardset, sha256),
    parse_root};

int skirmish_cards_parse(const char *text, size_t len, skirmish_cardset *out,
                         engine_error *err)
{
    return engine_carddata_parse(&cards_file, text, len, out, err);
}

int skirmish_cards_init(engine_error *err)
{
    return engine_carddata_init(&cards_file, skirmish_cards_json,
                                skirmish_cards_json_len, &g_cards,
                                &g_cards_ready, err);
}

const skirmish_cardset *skirmish_cards(void)
{
    return g_cards_ready ? &g_cards : NULL;
}

/* ------------------------------------------------------------ lookups -- */

int skirmish_design_find(const skirmish_cardset *cs, const char *key)
{
    return engine_carddata_find(cs->designs, cs->ndesigns,
                                sizeof cs->designs[0], key);
}

int skirmish_faction_find(const skirmish_cardset *cs, const char *key)
{
    return engine_carddata_find(cs->factions, cs->nfactions,
                                sizeof cs->factions[0], key);
}

int skirmish_squad_find(const skirmish_cardset *cs, const char *key)
{
    return engine_carddata_find(cs->squads, cs->nsquads, sizeof cs->squads[0],
                                key);
}

int skirmish_squad_cost(const skirmish_cardset *cs, const uint8_t *cards, int n)
{
    int total = 0;
    for (int i = 0; i < n; i++)
        total += cs->designs[cards[i]].cost;
    return total;
}

int skirmish_squad_check(const skirmish_cardset *cs, const uint8_t *cards,
                         int n, engine_error *err)
{
    if (n < 1 || n > cs->max_creatures)
        return engine_fail(err, ENGINE_EINVALID, "squad",
                           "the squad needs 1..%d creatures, got %d",
                           cs->max_creatures, n);
    for (int i = 0; i < n; i++) {
        if (cards[i] >= cs->ndesigns)
            return engine_fail(err, ENGINE_EINVALID, "squad",
                               "entry %d is not a card", i);
        int copies = 0;
        for (int j = 0; j < n; j++)
            copies += cards[j] == cards[i];
        if (copies > cs->max_copies)
            return engine_fail(err, ENGINE_EINVALID, "squad",
                               "the squad has %d copies of %s: at most %d",
                               copies, cs->designs[cards[i]].key,
                               cs->max_copies);
    }
    int cost = skirmish_squad_cost(cs, cards, n);
    if (cost > cs->budget)
        return engine_fail(err, ENGINE_EINVALID, "squad",
                           "the squad costs %d, over the budget of %d", cost,
                           cs->budget);
    return 0;
}

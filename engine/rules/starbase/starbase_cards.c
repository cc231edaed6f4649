/*
 * starbase_cards.c - parses and validates Starbase's cards.json (embedded
 * by starbase_cards_data.S) into an immutable starbase_cardset, and looks
 * cards, starbases and markets up by key.
 *
 * Every ability is checked against a table of what its kind allows
 * (timings, targets, a number, a price filter) and against what its card
 * kind allows, so a card can only say what the rules know how to do.
 * Errors name the card (index and key), starbase or market and the field
 * at fault. Texts and client JSON are in starbase_text.c.
 */
#include "engine/rules/starbase/starbase_cards.h"
#include "engine/carddata.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char starbase_cards_json[];
extern const uint64_t starbase_cards_json_len;

static starbase_cardset g_cards; /* written once by starbase_cards_init */
static int g_cards_ready;

#define BIT(x) (1u << (x))
#define ONE_SHOT                                                               \
    (BIT(STARBASE_T_PLAY) | BIT(STARBASE_T_MANAGEMENT) |                       \
     BIT(STARBASE_T_INSTANT))
#define ALL_TIMINGS (ONE_SHOT | BIT(STARBASE_T_PASSIVE))

/* What each ability kind allows. */
typedef struct ability_rule {
    const char *name;
    unsigned timings; /* BIT(STARBASE_T_*) */
    unsigned targets; /* BIT(STARBASE_TG_*) */
    int amax;         /* amount 1..amax; 0: no "amount" */
    int price_filter; /* may carry "max_price" */
} ability_rule;

static const ability_rule rules[STARBASE_A_COUNT] = {
    [STARBASE_A_INCOME] = {"income", BIT(STARBASE_T_PASSIVE),
                           BIT(STARBASE_TG_YOU) | BIT(STARBASE_TG_OPPONENT) |
                               BIT(STARBASE_TG_EACH_OPPONENT),
                           5, 0},
    [STARBASE_A_ISK] = {"isk", ONE_SHOT,
                        BIT(STARBASE_TG_YOU) | BIT(STARBASE_TG_OPPONENT) |
                            BIT(STARBASE_TG_EACH_OPPONENT),
                        6, 0},
    [STARBASE_A_DRAW] = {"draw", ONE_SHOT, BIT(STARBASE_TG_YOU), 3, 0},
    [STARBASE_A_DISCARD] = {"discard", ONE_SHOT,
                            BIT(STARBASE_TG_OPPONENT) |
                                BIT(STARBASE_TG_EACH_OPPONENT),
                            2, 0},
    [STARBASE_A_BOUNCE] = {"bounce", ONE_SHOT,
                           BIT(STARBASE_TG_OWN_SHIP) |
                               BIT(STARBASE_TG_ENEMY_SHIP) |
                               BIT(STARBASE_TG_SHIP) |
                               BIT(STARBASE_TG_ENEMY_LOCATION),
                           0, 1},
    [STARBASE_A_DESTROY] = {"destroy", ONE_SHOT,
                            BIT(STARBASE_TG_ENEMY_SHIP) |
                                BIT(STARBASE_TG_ENEMY_LOCATION) |
                                BIT(STARBASE_TG_ENEMY_STRUCTURE) |
                                BIT(STARBASE_TG_NEWS),
                            0, 1},
    [STARBASE_A_DAMAGE] = {"damage", ONE_SHOT,
                           BIT(STARBASE_TG_ENEMY_SHIP) | BIT(STARBASE_TG_SHIP) |
                               BIT(STARBASE_TG_ENEMY_SHIPS_HERE) |
                               BIT(STARBASE_TG_ENEMY_SHIPS) |
                               BIT(STARBASE_TG_ENEMY_STARBASE),
                           6, 0},
    [STARBASE_A_REPAIR] = {"repair", ONE_SHOT, BIT(STARBASE_TG_OWN_STARBASE), 6,
                           0},
    [STARBASE_A_ASSEMBLY] = {"assembly", ALL_TIMINGS,
                             BIT(STARBASE_TG_OWN_SHIP) |
                                 BIT(STARBASE_TG_OWN_SHIPS),
                             3, 0},
    [STARBASE_A_WARPS] = {"warps", ALL_TIMINGS,
                          BIT(STARBASE_TG_SELF) | BIT(STARBASE_TG_OWN_SHIP) |
                              BIT(STARBASE_TG_OWN_SHIPS) |
                              BIT(STARBASE_TG_OWN_SHIPS_HERE),
                          3, 0},
    [STARBASE_A_DEACTIVATE] = {"deactivate", ONE_SHOT,
                               BIT(STARBASE_TG_ENEMY_SHIP) |
                                   BIT(STARBASE_TG_SHIP),
                               0, 1},
    [STARBASE_A_PIN] = {"pin", ALL_TIMINGS,
                        BIT(STARBASE_TG_ENEMY_SHIP) |
                            BIT(STARBASE_TG_ENEMY_SHIPS_HERE),
                        0, 0},
    [STARBASE_A_AURA] = {"aura", ALL_TIMINGS,
                         BIT(STARBASE_TG_SELF) | BIT(STARBASE_TG_OWN_SHIP) |
                             BIT(STARBASE_TG_ENEMY_SHIP) |
                             BIT(STARBASE_TG_OWN_SHIPS) |
                             BIT(STARBASE_TG_ENEMY_SHIPS) |
                             BIT(STARBASE_TG_OWN_SHIPS_HERE) |
                             BIT(STARBASE_TG_ENEMY_SHIPS_HERE) |
                             BIT(STARBASE_TG_OWN_STARBASE),
                         5, 0},
};

static const char *const kind_names[STARBASE_KIND_COUNT] = {
    "ship", "location", "news", "outer_region", "structure"};
static const char *const timing_names[STARBASE_T_COUNT] = {
    "play", "passive", "management", "instant"};
static const char *const target_names[STARBASE_TG_COUNT] = {"self",
                                                            "you",
                                                            "opponent",
                                                            "each_opponent",
                                                            "own_ship",
                                                            "enemy_ship",
                                                            "ship",
                                                            "own_ships",
                                                            "enemy_ships",
                                                            "own_ships_here",
                                                            "enemy_ships_here",
                                                            "enemy_location",
                                                            "enemy_structure",
                                                            "news",
                                                            "own_starbase",
                                                            "enemy_starbase"};
static const char *const stat_names[STARBASE_ST_COUNT] = {"attack", "defence",
                                                          "power", "hull"};
static const char *const region_names[STARBASE_R_COUNT] = {"home", "outer",
                                                           "any"};

const char *starbase_kind_name(int kind)
{
    return kind >= 0 && kind < STARBASE_KIND_COUNT ? kind_names[kind] : "?";
}

const char *starbase_ability_name(int kind)
{
    return kind >= 0 && kind < STARBASE_A_COUNT ? rules[kind].name : "?";
}

const char *starbase_timing_name(int t)
{
    return t >= 0 && t < STARBASE_T_COUNT ? timing_names[t] : "?";
}

const char *starbase_target_name(int t)
{
    return t >= 0 && t < STARBASE_TG_COUNT ? target_names[t] : "?";
}

const char *starbase_stat_name(int s)
{
    return s >= 0 && s < STARBASE_ST_COUNT ? stat_names[s] : "?";
}

const char *starbase_region_name(int r)
{
    return r >= 0 && r < STARBASE_R_COUNT ? region_names[r] : "?";
}

int starbase_target_chosen(int t)
{
    return t == STARBASE_TG_OPPONENT || t == STARBASE_TG_OWN_SHIP ||
           t == STARBASE_TG_ENEMY_SHIP || t == STARBASE_TG_SHIP ||
           t == STARBASE_TG_ENEMY_LOCATION ||
           t == STARBASE_TG_ENEMY_STRUCTURE || t == STARBASE_TG_NEWS ||
           t == STARBASE_TG_ENEMY_STARBASE;
}

/* Index of s in names[0..n-1], or -1 (also for a non-string). */
static int lookup(const char *const *names, int n, const json_t *s)
{
    return engine_carddata_lookup(names, n, json_string_value(s));
}

static int lookup_ability(const json_t *s)
{
    if (!json_is_string(s))
        return -1;
    for (int i = 0; i < STARBASE_A_COUNT; i++)
        if (strcmp(rules[i].name, json_string_value(s)) == 0)
            return i;
    return -1;
}

/* "a, b or c" of the names whose bits are in mask, into buf. */
static const char *name_list(const char *const *names, int n, unsigned mask,
                             char *buf, size_t size)
{
    int total = 0, done = 0;
    size_t used = 0;
    for (int i = 0; i < n; i++)
        total += (mask & BIT(i)) != 0;
    buf[0] = 0;
    for (int i = 0; i < n && used < size; i++) {
        if (!(mask & BIT(i)))
            continue;
        const char *sep = done == 0 ? "" : done == total - 1 ? " or " : ", ";
        used +=
            (size_t)snprintf(buf + used, size - used, "%s%s", sep, names[i]);
        done++;
    }
    return buf;
}

/* ------------------------------------------------------------ errors -- */

/* Error naming where (e.g. "card 3 (ore_barge)") and the field. */
#define where_fail(err, where, field, ...)                                     \
    engine_carddata_fail(err, "cards.json", where, field, __VA_ARGS__)

/* Required integer field in lo..hi into *out (a uint8_t); else the error. */
static int need_u8(const json_t *obj, const char *where, const char *name,
                   int lo, int hi, uint8_t *out, engine_error *err)
{
    int x;
    if (engine_carddata_int(obj, name, lo, hi, -1, &x) < 0 || x < 0)
        return where_fail(err, where, name, "must be an integer %d..%d", lo,
                          hi);
    *out = (uint8_t)x;
    return 0;
}

/* The string member `member` of obj, 1..max-1 bytes, into out; else the
 * error, naming the field as label. */
static int get_str(const json_t *obj, const char *member, const char *where,
                   const char *label, char *out, size_t max, engine_error *err)
{
    return engine_carddata_string(obj, member, "cards.json", where, label, out,
                                  max, err);
}

/* A key ([a-z0-9_], 1..KEY_MAX-1) into key. */
static int get_key(const json_t *obj, const char *where, char *key,
                   engine_error *err)
{
    return engine_carddata_key(obj, "cards.json", where, key, STARBASE_KEY_MAX,
                               err);
}

/* ---------------------------------------------------------- abilities -- */

/* The kind's timing and target rules that the table cannot say. */
static int check_target_timing(const starbase_ability *a, const char *where,
                               const char *field, engine_error *err)
{
    char f[96];
    snprintf(f, sizeof f, "%s.target", field);
    int passive = a->timing == STARBASE_T_PASSIVE;
    int t = a->target;
    if (a->kind == STARBASE_A_ASSEMBLY &&
        t != (passive ? STARBASE_TG_OWN_SHIPS : STARBASE_TG_OWN_SHIP))
        return where_fail(err, where, f, "of a %s assembly must be %s",
                          passive ? "passive" : "one-shot",
                          passive ? "own_ships" : "own_ship");
    if (a->kind == STARBASE_A_WARPS && passive && t == STARBASE_TG_OWN_SHIP)
        return where_fail(err, where, f,
                          "of a passive warps must be self, own_ships or "
                          "own_ships_here");
    if (a->kind == STARBASE_A_WARPS && !passive && t != STARBASE_TG_SELF &&
        t != STARBASE_TG_OWN_SHIP)
        return where_fail(err, where, f,
                          "of a one-shot warps must be self or own_ship");
    if (a->kind == STARBASE_A_AURA) {
        int base = t == STARBASE_TG_OWN_STARBASE;
        int hull = a->stat == STARBASE_ST_HULL;
        if (base && a->stat != STARBASE_ST_ATTACK && !hull)
            return where_fail(err, where, f,
                              "own_starbase takes only the stats attack and "
                              "hull");
        if (!base && hull)
            return where_fail(err, where, f,
                              "of a hull aura must be "
                              "own_starbase");
    }
    return 0;
}

/* kind, timing, target and stat of an ability object (no numbers). */
static int parse_kind_timing_target(const json_t *a, const char *where,
                                    const char *field, starbase_ability *out,
                                    engine_error *err)
{
    char f[96], list[320];
    int k = lookup_ability(json_object_get(a, "kind"));
    snprintf(f, sizeof f, "%s.kind", field);
    if (k < 0)
        return where_fail(err, where, f, "must be one of %s",
                          "income, isk, draw, discard, bounce, destroy, "
                          "damage, repair, assembly, warps, deactivate, pin, "
                          "aura");
    out->kind = (uint8_t)k;
    const ability_rule *r = &rules[k];
    snprintf(f, sizeof f, "%s.timing", field);
    int t =
        lookup(timing_names, STARBASE_T_COUNT, json_object_get(a, "timing"));
    if (t < 0 || !(r->timings & BIT(t)))
        return where_fail(err, where, f, "of %s must be %s", r->name,
                          name_list(timing_names, STARBASE_T_COUNT, r->timings,
                                    list, sizeof list));
    out->timing = (uint8_t)t;
    snprintf(f, sizeof f, "%s.target", field);
    int tg =
        lookup(target_names, STARBASE_TG_COUNT, json_object_get(a, "target"));
    if (tg < 0 || !(r->targets & BIT(tg)))
        return where_fail(err, where, f, "of %s must be %s", r->name,
                          name_list(target_names, STARBASE_TG_COUNT, r->targets,
                                    list, sizeof list));
    out->target = (uint8_t)tg;
    const json_t *js = json_object_get(a, "stat");
    snprintf(f, sizeof f, "%s.stat", field);
    if (k == STARBASE_A_AURA) {
        int st = lookup(stat_names, STARBASE_ST_COUNT, js);
        if (st < 0)
            return where_fail(err, where, f,
                              "must be attack, defence, power or hull");
        out->stat = (uint8_t)st;
    } else if (js) {
        return where_fail(err, where, f, "is only for aura");
    }
    return check_target_timing(out, where, field, err);
}

/* "cost": ISK paid to use a management or instant ability. */
static int parse_cost(const json_t *a, const char *where, const char *field,
                      starbase_ability *out, engine_error *err)
{
    char f[96];
    int x;
    snprintf(f, sizeof f, "%s.cost", field);
    int used = out->timing == STARBASE_T_MANAGEMENT ||
               out->timing == STARBASE_T_INSTANT;
    if (!used && json_object_get(a, "cost"))
        return where_fail(err, where, f,
                          "is only for management and instant abilities");
    if (engine_carddata_int(a, "cost", 1, 5, 0, &x) < 0)
        return where_fail(err, where, f, "must be an integer 1..5 ISK");
    out->cost = (uint8_t)x;
    return 0;
}

/* amount and max_price of a plain (not command) ability. */
static int parse_numbers(const json_t *a, const char *where, const char *field,
                         starbase_ability *out, engine_error *err)
{
    const ability_rule *r = &rules[out->kind];
    char f[96];
    int x;
    snprintf(f, sizeof f, "%s.amount", field);
    if (!r->amax && json_object_get(a, "amount"))
        return where_fail(err, where, f, "is not for %s", r->name);
    if (r->amax &&
        (engine_carddata_int(a, "amount", 1, r->amax, -1, &x) < 0 || x < 0))
        return where_fail(err, where, f, "of %s must be an integer 1..%d",
                          r->name, r->amax);
    out->amount = (uint8_t)(r->amax ? x : 0);
    snprintf(f, sizeof f, "%s.max_price", field);
    out->max_price = -1;
    if (!r->price_filter && json_object_get(a, "max_price"))
        return where_fail(err, where, f,
                          "is only for bounce, destroy and "
                          "deactivate");
    if (r->price_filter &&
        engine_carddata_int(a, "max_price", 0, 8, -1, &x) < 0)
        return where_fail(err, where, f, "must be an integer 0..8");
    if (r->price_filter)
        out->max_price = (int8_t)x;
    return 0;
}

/* An ability object (not a command) into out. */
static int parse_ability(const json_t *a, const char *where, const char *field,
                         starbase_ability *out, engine_error *err)
{
    static const char *const known[] = {"kind",   "timing",    "target", "stat",
                                        "amount", "max_price", "cost",   NULL};
    memset(out, 0, sizeof *out);
    if (!json_is_object(a))
        return where_fail(err, where, field, "must be an object");
    const char *bad = engine_carddata_unknown(a, known);
    if (bad)
        return where_fail(err, where, field, "has unknown field \"%s\"", bad);
    if (parse_kind_timing_target(a, where, field, out, err) ||
        parse_numbers(a, where, field, out, err) ||
        parse_cost(a, where, field, out, err))
        return ENGINE_EINVALID;
    return 0;
}

/* A ship's command: a name, a power and one ability whose number is the
 * power. */
static int parse_command(const json_t *c, const char *where, const char *field,
                         starbase_command *out, engine_error *err)
{
    static const char *const known[] = {"name",   "power", "kind", "timing",
                                        "target", "stat",  "cost", NULL};
    char f[96];
    memset(out, 0, sizeof *out);
    if (!json_is_object(c))
        return where_fail(err, where, field, "must be an object");
    const char *bad = engine_carddata_unknown(c, known);
    if (bad)
        return where_fail(err, where, field,
                          "has unknown field \"%s\" (a command's number is "
                          "its power)",
                          bad);
    snprintf(f, sizeof f, "%s.name", field);
    if (get_str(c, "name", where, f, out->name, sizeof out->name, err))
        return ENGINE_EINVALID;
    starbase_ability *a = &out->ab;
    if (parse_kind_timing_target(c, where, field, a, err) ||
        parse_cost(c, where, field, a, err))
        return ENGINE_EINVALID;
    const ability_rule *r = &rules[a->kind];
    int p;
    snprintf(f, sizeof f, "%s.power", field);
    int wanted = r->amax || r->price_filter;
    if (!wanted && json_object_get(c, "power"))
        return where_fail(err, where, f, "is not for %s (it has no number)",
                          r->name);
    int hi = r->amax ? r->amax : 8;
    if (wanted &&
        (engine_carddata_int(c, "power", 1, hi, r->amax ? -1 : 0, &p) < 0 ||
         p < 0))
        return where_fail(err, where, f, "of %s must be an integer 1..%d",
                          r->name, hi);
    a->max_price = -1;
    if (wanted && p > 0) {
        out->power = (uint8_t)p;
        a->from_power = 1;
        if (r->amax)
            a->amount = (uint8_t)p;
        else
            a->max_price = (int8_t)p;
    }
    return 0;
}

/* What the card kind allows of an ability (timing and targets). */
static int check_source(const starbase_card *d, const starbase_ability *a,
                        const char *where, const char *field, engine_error *err)
{
    char f[96];
    int t = a->target;
    snprintf(f, sizeof f, "%s.timing", field);
    if (d->kind == STARBASE_NEWS && a->timing != STARBASE_T_PLAY &&
        a->timing != STARBASE_T_PASSIVE)
        return where_fail(err, where, f, "of a news must be play or passive");
    if (d->kind != STARBASE_NEWS && a->timing == STARBASE_T_PLAY)
        return where_fail(err, where, f, "play is only for news");
    snprintf(f, sizeof f, "%s.target", field);
    if (t == STARBASE_TG_SELF && d->kind != STARBASE_SHIP)
        return where_fail(err, where, f, "self is only for ship commands");
    if ((t == STARBASE_TG_OWN_SHIPS_HERE ||
         t == STARBASE_TG_ENEMY_SHIPS_HERE) &&
        (d->kind == STARBASE_NEWS || d->kind == STARBASE_STRUCTURE))
        return where_fail(err, where, f,
                          "%s is only for cards in a region (ships, "
                          "locations, outer regions)",
                          target_names[t]);
    if (a->timing == STARBASE_T_PASSIVE && starbase_target_chosen(t) &&
        d->kind != STARBASE_NEWS)
        return where_fail(err, where, f,
                          "%s is chosen: a passive ability chooses a target "
                          "only on a news (when it is played)",
                          target_names[t]);
    return 0;
}

/* ---------------------------------------------------------- the cards -- */

/* The fields each card kind may have (beside key, name, kind, price). */
static const char *const ship_fields[] = {"key",     "name",     "kind",
                                          "price",   "assembly", "attack",
                                          "defence", "commands", NULL};
static const char *const location_fields[] = {
    "key", "name", "kind", "price", "region", "income", "abilities", NULL};
static const char *const news_fields[] = {
    "key", "name", "kind", "price", "duration", "instant", "abilities", NULL};
static const char *const outer_fields[] = {
    "key", "name", "kind", "price", "income", "abilities", NULL};
static const char *const structure_fields[] = {"key",   "name",      "kind",
                                               "price", "abilities", NULL};
static const char *const *const kind_fields[STARBASE_KIND_COUNT] = {
    ship_fields, location_fields, news_fields, outer_fields, structure_fields};

static int parse_ship(const json_t *c, const char *where, starbase_card *d,
                      engine_error *err)
{
    int x;
    if (engine_carddata_int(c, "assembly", 1, 4, 0, &x) < 0)
        return where_fail(err, where, "assembly",
                          "must be an integer 1..4 (leave it out for none)");
    d->assembly = (uint8_t)x;
    if (need_u8(c, where, "attack", 0, 9, &d->attack, err) ||
        need_u8(c, where, "defence", 1, 9, &d->defence, err))
        return ENGINE_EINVALID;
    const json_t *jc = json_object_get(c, "commands");
    if (!json_is_array(jc) || json_array_size(jc) == 0 ||
        json_array_size(jc) > STARBASE_MAX_COMMANDS)
        return where_fail(err, where, "commands",
                          "must be an array of 1..%d commands",
                          STARBASE_MAX_COMMANDS);
    for (size_t i = 0; i < json_array_size(jc); i++) {
        char f[48];
        snprintf(f, sizeof f, "commands[%zu]", i);
        starbase_command *cmd = &d->commands[i];
        if (parse_command(json_array_get(jc, i), where, f, cmd, err) ||
            check_source(d, &cmd->ab, where, f, err))
            return ENGINE_EINVALID;
        for (size_t j = 0; j < i; j++)
            if (strcmp(d->commands[j].name, cmd->name) == 0)
                return where_fail(err, where, f,
                                  "repeats the command name \"%s\"", cmd->name);
        d->ncommands++;
    }
    return 0;
}

/* duration and instant of a news, and what its abilities must be. */
static int check_news(const json_t *c, const char *where, starbase_card *d,
                      engine_error *err)
{
    const json_t *jd = json_object_get(c, "duration");
    int x;
    if (json_is_string(jd) && strcmp(json_string_value(jd), "infinite") == 0)
        d->duration = STARBASE_DURATION_INFINITE;
    else if (engine_carddata_int(c, "duration", 1, 4, 0, &x) < 0)
        return where_fail(err, where, "duration",
                          "must be an integer 1..4 or \"infinite\" (leave it "
                          "out for a news that works at once)");
    else
        d->duration = (uint8_t)x;
    const json_t *ji = json_object_get(c, "instant");
    if (ji && !json_is_true(ji))
        return where_fail(err, where, "instant", "must be true when present");
    d->instant = ji != NULL;
    int passive = 0, chosen = 0;
    for (int i = 0; i < d->nab; i++) {
        passive += d->ab[i].timing == STARBASE_T_PASSIVE;
        chosen += starbase_target_chosen(d->ab[i].target);
    }
    if (d->duration == 0 && passive)
        return where_fail(err, where, "duration",
                          "is needed: a news with a passive ability lasts 1..4 "
                          "turns or is \"infinite\"");
    if (d->duration != 0 && !passive)
        return where_fail(err, where, "duration",
                          "is only for a news with a passive ability");
    if (chosen > 1)
        return where_fail(err, where, "abilities",
                          "may name at most one chosen target (the news's "
                          "target)");
    return 0;
}

/* "abilities" of a location, news, outer region or structure (lo..MAX). */
static int parse_abilities(const json_t *c, const char *where, int lo,
                           starbase_card *d, engine_error *err)
{
    const json_t *ja = json_object_get(c, "abilities");
    if ((lo > 0 || ja) &&
        (!json_is_array(ja) || json_array_size(ja) < (size_t)lo ||
         json_array_size(ja) > STARBASE_MAX_ABILITIES))
        return where_fail(err, where, "abilities",
                          "must be an array of %d..%d abilities", lo,
                          STARBASE_MAX_ABILITIES);
    for (size_t i = 0; ja && i < json_array_size(ja); i++) {
        char f[48];
        snprintf(f, sizeof f, "abilities[%zu]", i);
        if (parse_ability(json_array_get(ja, i), where, f, &d->ab[i], err) ||
            check_source(d, &d->ab[i], where, f, err))
            return ENGINE_EINVALID;
        d->nab++;
    }
    return 0;
}

/* The fields of one kind (all but key, name, kind and price). */
static int parse_kind_fields(const json_t *c, const char *where,
                             starbase_card *d, engine_error *err)
{
    switch (d->kind) {
    case STARBASE_SHIP:
        return parse_ship(c, where, d, err);
    case STARBASE_LOCATION: {
        int r = lookup(region_names, STARBASE_R_COUNT,
                       json_object_get(c, "region"));
        if (r < 0)
            return where_fail(err, where, "region",
                              "must be home, outer or any");
        d->region = (uint8_t)r;
        if (need_u8(c, where, "income", 0, 3, &d->income, err))
            return ENGINE_EINVALID;
        return parse_abilities(c, where, 0, d, err);
    }
    case STARBASE_NEWS:
        if (parse_abilities(c, where, 1, d, err))
            return ENGINE_EINVALID;
        return check_news(c, where, d, err);
    case STARBASE_OUTER_REGION:
        if (need_u8(c, where, "income", 0, 4, &d->income, err))
            return ENGINE_EINVALID;
        return parse_abilities(c, where, 0, d, err);
    default:
        return parse_abilities(c, where, 1, d, err);
    }
}

static int parse_card(const json_t *c, int idx, starbase_card *d,
                      engine_error *err)
{
    char where[80];
    memset(d, 0, sizeof *d);
    snprintf(where, sizeof where, "card %d", idx);
    if (!json_is_object(c))
        return where_fail(err, where, "card", "must be an object");
    if (get_key(c, where, d->key, err))
        return ENGINE_EINVALID;
    snprintf(where, sizeof where, "card %d (%s)", idx, d->key);
    if (get_str(c, "name", where, "name", d->name, sizeof d->name, err))
        return ENGINE_EINVALID;
    int k = lookup(kind_names, STARBASE_KIND_COUNT, json_object_get(c, "kind"));
    if (k < 0)
        return where_fail(err, where, "kind",
                          "must be ship, location, news, outer_region or "
                          "structure");
    d->kind = (uint8_t)k;
    const char *bad = engine_carddata_unknown(c, kind_fields[k]);
    if (bad)
        return where_fail(err, where, bad, "is not a field of a %s",
                          kind_names[k]);
    if (need_u8(c, where, "price", 0, 8, &d->price, err))
        return ENGINE_EINVALID;
    return parse_kind_fields(c, where, d, err);
}

static int parse_cards(const json_t *jc, starbase_cardset *out,
                       engine_error *err)
{
    if (!json_is_array(jc) || json_array_size(jc) == 0 ||
        json_array_size(jc) > STARBASE_MAX_CARDS)
        return engine_fail(err, ENGINE_EINVALID, "cards",
                           "cards.json: cards must be an array of 1..%d "
                           "designs",
                           STARBASE_MAX_CARDS);
    for (size_t i = 0; i < json_array_size(jc); i++) {
        starbase_card *d = &out->cards[i];
        if (parse_card(json_array_get(jc, i), (int)i, d, err))
            return ENGINE_EINVALID;
        char where[80];
        snprintf(where, sizeof where, "card %zu (%s)", i, d->key);
        if (engine_carddata_unique(out->cards, (int)i, sizeof *d,
                                   offsetof(starbase_card, name), "cards.json",
                                   where, err))
            return ENGINE_EINVALID;
        out->ncards++;
    }
    for (int k = 0; k < STARBASE_KIND_COUNT; k++)
        if (starbase_count_kind(out, k) == 0)
            return engine_fail(err, ENGINE_EINVALID, "cards",
                               "cards.json: cards has no %s", kind_names[k]);
    return 0;
}

/* ------------------------------------------------------ setup, bases -- */

static int parse_setup(const json_t *s, starbase_setup *o, engine_error *err)
{
    static const char *const names[] = {
        "min_players", "max_players", "start_hand", "hand_limit",
        "start_isk",   "market_size", "max_copies", NULL};
    static const int lo[] = {2, 2, 0, 1, 0, 10, 1},
                     hi[] = {4, 4, 10, 15, 20, STARBASE_MARKET_MAX, 10};
    int *slot[] = {&o->min_players, &o->max_players, &o->start_hand,
                   &o->hand_limit,  &o->start_isk,   &o->market_size,
                   &o->max_copies};
    if (!json_is_object(s))
        return engine_fail(err, ENGINE_EINVALID, "setup",
                           "cards.json: setup must be an object");
    const char *bad = engine_carddata_unknown(s, names);
    if (bad)
        return where_fail(err, "setup", bad, "is not a known field");
    for (int i = 0; names[i]; i++)
        if (engine_carddata_int(s, names[i], lo[i], hi[i], -1, slot[i]) < 0 ||
            *slot[i] < 0)
            return where_fail(err, "setup", names[i],
                              "must be an integer %d..%d", lo[i], hi[i]);
    if (o->min_players > o->max_players)
        return where_fail(err, "setup", "min_players",
                          "must not be above max_players");
    if (o->hand_limit < o->start_hand || o->market_size <= o->start_hand)
        return where_fail(err, "setup", "start_hand",
                          "must be at most hand_limit and below market_size");
    return 0;
}

/* One side of a starbase ("front" or "back"). */
static int parse_side(const json_t *s, const char *where, const char *field,
                      starbase_side *o, engine_error *err)
{
    static const char *const known[] = {"name",   "income", "hull",
                                        "attack", "slots",  NULL};
    static const char *const ints[] = {"income", "hull", "attack", "slots"};
    static const int lo[] = {0, 1, 0, 0}, hi[] = {9, 40, 9, 4};
    uint8_t *slot[] = {&o->income, &o->hull, &o->attack, &o->slots};
    char f[64];
    if (!json_is_object(s))
        return where_fail(err, where, field,
                          "must be an object of income, hull, attack, slots");
    const char *bad = engine_carddata_unknown(s, known);
    if (bad)
        return where_fail(err, where, field, "has unknown field \"%s\"", bad);
    for (int i = 0; i < 4; i++) {
        snprintf(f, sizeof f, "%s.%s", field, ints[i]);
        int x;
        if (engine_carddata_int(s, ints[i], lo[i], hi[i], -1, &x) < 0 || x < 0)
            return where_fail(err, where, f, "must be an integer %d..%d", lo[i],
                              hi[i]);
        *slot[i] = (uint8_t)x;
    }
    return 0;
}

static int parse_station(const json_t *s, int idx, starbase_station *o,
                         engine_error *err)
{
    static const char *const known[] = {"key",   "name", "upgrade_price",
                                        "front", "back", NULL};
    char where[80];
    memset(o, 0, sizeof *o);
    snprintf(where, sizeof where, "starbase %d", idx);
    if (!json_is_object(s))
        return where_fail(err, where, "starbase", "must be an object");
    if (get_key(s, where, o->key, err))
        return ENGINE_EINVALID;
    snprintf(where, sizeof where, "starbase %d (%s)", idx, o->key);
    const char *bad = engine_carddata_unknown(s, known);
    if (bad)
        return where_fail(err, where, bad, "is not a known field");
    const json_t *jb = json_object_get(s, "back");
    if (get_str(s, "name", where, "name", o->side[0].name, STARBASE_NAME_MAX,
                err) ||
        need_u8(s, where, "upgrade_price", 1, 20, &o->upgrade_price, err) ||
        parse_side(json_object_get(s, "front"), where, "front", &o->side[0],
                   err) ||
        parse_side(jb, where, "back", &o->side[1], err) ||
        get_str(jb, "name", where, "back.name", o->side[1].name,
                STARBASE_NAME_MAX, err))
        return ENGINE_EINVALID;
    if (json_object_get(json_object_get(s, "front"), "name"))
        return where_fail(err, where, "front.name",
                          "is the starbase's name: leave it out");
    const starbase_side *f = &o->side[0], *b = &o->side[1];
    if (b->income < f->income || b->hull < f->hull || b->attack < f->attack ||
        b->slots < f->slots)
        return where_fail(err, where, "back",
                          "must be at least the front in income, hull, attack "
                          "and slots (an upgrade never weakens it)");
    return 0;
}

static int parse_stations(const json_t *js, starbase_cardset *out,
                          engine_error *err)
{
    if (!json_is_array(js) || json_array_size(js) == 0 ||
        json_array_size(js) > STARBASE_MAX_STATIONS)
        return engine_fail(err, ENGINE_EINVALID, "starbases",
                           "cards.json: starbases must be an array of 1..%d",
                           STARBASE_MAX_STATIONS);
    for (size_t i = 0; i < json_array_size(js); i++) {
        starbase_station *o = &out->stations[i];
        if (parse_station(json_array_get(js, i), (int)i, o, err))
            return ENGINE_EINVALID;
        if (starbase_station_find(out, o->key) >= 0) {
            char where[80];
            snprintf(where, sizeof where, "starbase %zu (%s)", i, o->key);
            return where_fail(err, where, "key", "repeats another starbase");
        }
        out->nstations++;
    }
    return 0;
}

/* ----------------------------------------------------------- markets -- */

/* "outer_regions": distinct keys of outer region cards. */
static int parse_market_regions(const json_t *jr, const char *where,
                                const starbase_cardset *cs, starbase_market *m,
                                engine_error *err)
{
    if (!json_is_array(jr) || json_array_size(jr) == 0 ||
        json_array_size(jr) > STARBASE_MARKET_REGIONS)
        return where_fail(err, where, "outer_regions",
                          "must be an array of 1..%d outer region keys",
                          STARBASE_MARKET_REGIONS);
    for (size_t i = 0; i < json_array_size(jr); i++) {
        const json_t *k = json_array_get(jr, i);
        int d = json_is_string(k) ? starbase_card_find(cs, json_string_value(k))
                                  : -1;
        if (d < 0 || cs->cards[d].kind != STARBASE_OUTER_REGION)
            return where_fail(err, where, "outer_regions",
                              "entry %zu names no outer region (\"%.40s\")", i,
                              json_is_string(k) ? json_string_value(k) : "?");
        for (int j = 0; j < m->nregions; j++)
            if (m->regions[j] == d)
                return where_fail(err, where, "outer_regions",
                                  "entry %zu repeats %s", i, cs->cards[d].key);
        m->regions[m->nregions++] = (uint8_t)d;
    }
    return 0;
}

/* "cards": [[key, count], ...] of hand cards, market_size in all. */
static int parse_market_cards(const json_t *jc, const char *where,
                              const starbase_cardset *cs, starbase_market *m,
                              engine_error *err)
{
    const starbase_setup *s = &cs->setup;
    if (!json_is_array(jc) || json_array_size(jc) == 0)
        return where_fail(err, where, "cards",
                          "must be an array of [card key, count] pairs");
    int total = 0;
    for (size_t i = 0; i < json_array_size(jc); i++) {
        const json_t *e = json_array_get(jc, i);
        const json_t *k = json_array_get(e, 0), *n = json_array_get(e, 1);
        int d = json_is_string(k) ? starbase_card_find(cs, json_string_value(k))
                                  : -1;
        if (!json_is_array(e) || json_array_size(e) != 2 || d < 0)
            return where_fail(err, where, "cards",
                              "entry %zu must be [card key, count] naming a "
                              "card",
                              i);
        if (cs->cards[d].kind == STARBASE_OUTER_REGION)
            return where_fail(err, where, "cards",
                              "entry %zu (%s) is an outer region: list it in "
                              "outer_regions",
                              i, cs->cards[d].key);
        if (!json_is_integer(n) || json_integer_value(n) < 1 ||
            json_integer_value(n) > s->max_copies)
            return where_fail(err, where, "cards",
                              "entry %zu (%s) count must be an integer 1..%d",
                              i, cs->cards[d].key, s->max_copies);
        for (size_t j = 0; j < i; j++)
            if (json_equal(json_array_get(json_array_get(jc, j), 0), k))
                return where_fail(err, where, "cards", "entry %zu repeats %s",
                                  i, cs->cards[d].key);
        for (int c = 0; c < (int)json_integer_value(n); c++, total++)
            if (total < STARBASE_MARKET_MAX)
                m->cards[total] = (uint8_t)d;
    }
    if (total != s->market_size)
        return where_fail(err, where, "cards",
                          "hold %d cards: a market has exactly %d", total,
                          s->market_size);
    m->ncards = (uint8_t)total;
    return 0;
}

static int parse_market(const json_t *j, int idx, starbase_cardset *cs,
                        engine_error *err)
{
    static const char *const known[] = {"key",           "name",  "starbase",
                                        "outer_regions", "cards", NULL};
    starbase_market *m = &cs->markets[idx];
    char where[80];
    memset(m, 0, sizeof *m);
    snprintf(where, sizeof where, "market %d", idx);
    if (!json_is_object(j))
        return where_fail(err, where, "market", "must be an object");
    if (get_key(j, where, m->key, err))
        return ENGINE_EINVALID;
    snprintf(where, sizeof where, "market %d (%s)", idx, m->key);
    if (get_str(j, "name", where, "name", m->name, sizeof m->name, err))
        return ENGINE_EINVALID;
    const char *bad = engine_carddata_unknown(j, known);
    if (bad)
        return where_fail(err, where, bad, "is not a known field");
    if (starbase_market_find(cs, m->key) >= 0)
        return where_fail(err, where, "key", "repeats another market");
    const json_t *jsb = json_object_get(j, "starbase");
    int st = json_is_string(jsb)
                 ? starbase_station_find(cs, json_string_value(jsb))
                 : -1;
    if (st < 0)
        return where_fail(err, where, "starbase",
                          "must be the key of one of the starbases");
    m->station = (uint8_t)st;
    return parse_market_regions(json_object_get(j, "outer_regions"), where, cs,
                                m, err) ||
                   parse_market_cards(json_object_get(j, "cards"), where, cs, m,
                                      err)
               ? ENGINE_EINVALID
               : 0;
}

static int parse_markets(const json_t *jm, starbase_cardset *out,
                         engine_error *err)
{
    int lo = out->setup.max_players;
    if (!json_is_array(jm) || json_array_size(jm) < (size_t)lo ||
        json_array_size(jm) > STARBASE_MAX_MARKETS)
        return engine_fail(err, ENGINE_EINVALID, "markets",
                           "cards.json: markets must be an array of %d..%d "
                           "(one for each player at the most)",
                           lo, STARBASE_MAX_MARKETS);
    for (size_t i = 0; i < json_array_size(jm); i++) {
        if (parse_market(json_array_get(jm, i), (int)i, out, err))
            return ENGINE_EINVALID;
        out->nmarkets++;
    }
    return 0;
}

/* ----------------------------------------------------- whole document -- */

static int parse_root(const json_t *root, void *table, engine_error *err)
{
    starbase_cardset *out = table;
    static const char *const known[] = {"format", "setup",   "starbases",
                                        "cards",  "markets", NULL};
    const json_t *fmt = json_object_get(root, "format");
    if (!json_is_object(root) || !json_is_string(fmt) ||
        strcmp(json_string_value(fmt), "starbase-cards/1") != 0)
        return engine_fail(err, ENGINE_EINVALID, "format",
                           "cards.json: format must be \"starbase-cards/1\"");
    const char *bad = engine_carddata_unknown(root, known);
    if (bad)
        return engine_fail(err, ENGINE_EINVALID, bad,
                           "cards.json: %s is not a known field", bad);
    if (parse_setup(json_object_get(root, "setup"), &out->setup, err) ||
        parse_stations(json_object_get(root, "starbases"), out, err) ||
        parse_cards(json_object_get(root, "cards"), out, err) ||
        parse_markets(json_object_get(root, "markets"), out, err))
        return ENGINE_EINVALID;
    return 0;
}

static const engine_carddata cards_file = {
    "cards.json", sizeof(starbase_cardset), offsetof(starbase_cardset, sha256),
    parse_root};

int starbase_cards_parse(const char *text, size_t len, starbase_cardset *out,
                         engine_error *err)
{
    return engine_carddata_parse(&cards_file, text, len, out, err);
}

int starbase_cards_init(engine_error *err)
{
    return engine_carddata_init(&cards_file, starbase_cards_json,
                                starbase_cards_json_len, &g_cards,
                                &g_cards_ready, err);
}

const starbase_cardset *starbase_cards(void)
{
    return g_cards_ready ? &g_cards : NULL;
}

/* ------------------------------------------------------------ lookups -- */

int starbase_card_find(const starbase_cardset *cs, const char *key)
{
    return engine_carddata_find(cs->cards, cs->ncards, sizeof cs->cards[0],
                                key);
}

int starbase_station_find(const starbase_cardset *cs, const char *key)
{
    return engine_carddata_find(cs->stations, cs->nstations,
                                sizeof cs->stations[0], key);
}

int starbase_market_find(const starbase_cardset *cs, const char *key)
{
    return engine_carddata_find(cs->markets, cs->nmarkets,
                                sizeof cs->markets[0], key);
}

int starbase_count_kind(const starbase_cardset *cs, int kind)
{
    int n = 0;
    for (int i = 0; i < cs->ncards; i++)
        n += cs->cards[i].kind == kind;
    return n;
}

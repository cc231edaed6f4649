/*
 * sprint_cards.c - Galactic Sprint's card data: parses and validates
 * cards.json (embedded by sprint_cards_data.S) into an immutable table,
 * and renders the public card catalogue for clients. A card's ability text
 * is written once, in cards.json ("text"), and passed through to clients
 * and to the rules document (scripts/sprint-cards.mjs).
 *
 * Card effects are data drawn from a small vocabulary (sprint.h); the rules
 * in sprint_rules.c interpret them. Nothing here knows about games in play.
 */
#include "engine/carddata.h"
#include "engine/rules/sprint/sprint_internal.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

extern const char sprint_cards_json[];
extern const uint64_t sprint_cards_json_len;

static sprint_cardset g_cards; /* written once by sprint_cards_init */
static int g_cards_ready;

static const char *const what_names[SPRINT_W_COUNT] = {
    "card",          "development",  "world",       "military_world",
    "civil_world",   "rebel_world",  "alien_world", "grey_world",
    "azure_world",   "jade_world",   "amber_world", "violet_world",
    "military_icon", "explore_icon", "income_icon"};

static const char *const colour_names[SPRINT_NCOLOURS] = {
    "grey", "azure", "jade", "amber", "violet"};

static const char *const ability_names[SPRINT_AB_COUNT] = {
    "discount",     "military_vs", "pay_military", "convoy",      "vp_per",
    "vp_per_rival", "bonus_if",    "income_per",   "top_military"};

const char *sprint_what_name(int what)
{
    return what >= 0 && what < SPRINT_W_COUNT ? what_names[what] : "?";
}

const char *sprint_colour_name(int colour)
{
    return colour >= 0 && colour < SPRINT_NCOLOURS ? colour_names[colour] : "?";
}

/* ------------------------------------------------------------ parsing -- */

/* Error naming the card (index and key when known) and the field. */
static __attribute__((format(printf, 5, 6))) int
card_fail(engine_error *err, int idx, const char *key, const char *field,
          const char *fmt, ...)
{
    char where[80];
    if (key && *key)
        snprintf(where, sizeof where, "card %d (%s)", idx, key);
    else
        snprintf(where, sizeof where, "card %d", idx);
    va_list ap;
    va_start(ap, fmt);
    int rc = engine_carddata_vfail(err, "cards.json", where, field, fmt, ap);
    va_end(ap);
    return rc;
}

static int parse_ability(const json_t *a, int idx, const char *key, int ai,
                         const sprint_design *d, sprint_ability *out,
                         engine_error *err)
{
    char field[40];
    snprintf(field, sizeof field, "abilities[%d]", ai);
    if (!json_is_object(a))
        return card_fail(err, idx, key, field, "must be an object");
    static const char *const known[] = {"type",  "what",   "amount",
                                        "every", "income", NULL};
    const char *bad = engine_carddata_unknown(a, known);
    if (bad)
        return card_fail(err, idx, key, field, "has unknown field \"%s\"", bad);
    const json_t *t = json_object_get(a, "type");
    int type = engine_carddata_lookup(ability_names, SPRINT_AB_COUNT,
                                      json_string_value(t));
    if (type < 0)
        return card_fail(err, idx, key, field,
                         "type must be one of discount, military_vs, "
                         "pay_military, convoy, vp_per, vp_per_rival, "
                         "bonus_if, income_per, top_military");
    memset(out, 0, sizeof *out);
    out->type = (uint8_t)type;
    const json_t *w = json_object_get(a, "what");
    int what = -1;
    if (w) {
        what = engine_carddata_lookup(what_names, SPRINT_W_COUNT,
                                      json_string_value(w));
        if (what < 0)
            return card_fail(err, idx, key, field,
                             "what must name a card kind or icon (card, "
                             "development, world, military_world, ...)");
    }
    int amount, every, income;
    int has_amount = json_object_get(a, "amount") != NULL;
    if (engine_carddata_int(a, "amount", 0, 9, 0, &amount) < 0)
        return card_fail(err, idx, key, field,
                         "amount must be an integer 0..9");
    if (engine_carddata_int(a, "every", 1, 9, 1, &every) < 0)
        return card_fail(err, idx, key, field, "every must be an integer 1..9");
    if (engine_carddata_int(a, "income", 0, 9, 0, &income) < 0)
        return card_fail(err, idx, key, field,
                         "income must be an integer 0..9");
    int needs_what =
        type != SPRINT_AB_PAY_MILITARY && type != SPRINT_AB_TOP_MILITARY;
    if (needs_what && what < 0)
        return card_fail(err, idx, key, field, "%s needs \"what\"",
                         ability_names[type]);
    if (!needs_what && (w || has_amount != (type == SPRINT_AB_TOP_MILITARY)))
        return card_fail(err, idx, key, field,
                         type == SPRINT_AB_TOP_MILITARY
                             ? "top_military takes only \"amount\" (cards)"
                             : "pay_military takes no other field");
    if (json_object_get(a, "every") && type != SPRINT_AB_VP_PER &&
        type != SPRINT_AB_VP_PER_RIVAL && type != SPRINT_AB_INCOME_PER)
        return card_fail(err, idx, key, field,
                         "every is only for vp_per, vp_per_rival, income_per");
    if (json_object_get(a, "income") && type != SPRINT_AB_BONUS_IF)
        return card_fail(err, idx, key, field, "income is only for bonus_if");
    int world_kind = what >= SPRINT_W_WORLD && what <= SPRINT_W_VIOLET_WORLD;
    switch (type) {
    case SPRINT_AB_DISCOUNT:
        if (!(what == SPRINT_W_CARD || what == SPRINT_W_DEVELOPMENT ||
              world_kind))
            return card_fail(err, idx, key, field,
                             "discount must target a card kind, not an icon");
        break;
    case SPRINT_AB_MILITARY_VS:
        if (!(what == SPRINT_W_REBEL_WORLD || what == SPRINT_W_ALIEN_WORLD ||
              (what >= SPRINT_W_GREY_WORLD && what <= SPRINT_W_VIOLET_WORLD)))
            return card_fail(err, idx, key, field,
                             "military_vs must target rebel, alien or one "
                             "colour of worlds");
        break;
    case SPRINT_AB_CONVOY:
        if (d->kind != SPRINT_WORLD)
            return card_fail(err, idx, key, field, "convoy is only for worlds");
        if (!(what == SPRINT_W_WORLD || what == SPRINT_W_MILITARY_WORLD ||
              what == SPRINT_W_CIVIL_WORLD))
            return card_fail(err, idx, key, field,
                             "convoy must allow world, military_world or "
                             "civil_world");
        if (has_amount)
            return card_fail(err, idx, key, field, "convoy takes no amount");
        break;
    case SPRINT_AB_BONUS_IF:
        if (amount == 0 && income == 0)
            return card_fail(err, idx, key, field,
                             "bonus_if needs amount (VP) or income");
        break;
    default:
        break;
    }
    if ((type == SPRINT_AB_DISCOUNT || type == SPRINT_AB_MILITARY_VS ||
         type == SPRINT_AB_VP_PER || type == SPRINT_AB_VP_PER_RIVAL ||
         type == SPRINT_AB_INCOME_PER || type == SPRINT_AB_TOP_MILITARY) &&
        amount < 1)
        return card_fail(err, idx, key, field, "amount must be at least 1");
    out->what = (uint8_t)(what < 0 ? 0 : what);
    out->amount = (int8_t)amount;
    out->every = (uint8_t)every;
    out->income = (int8_t)income;
    return 0;
}

static const char *const card_fields[] = {
    "key",      "name",      "type",    "count", "central", "cost",
    "defence",  "colour",    "faction", "vp",    "income",  "explore",
    "military", "abilities", "text",    NULL};

/* parse_card, section 1: key, known fields, name and type. */
static int parse_card_identity(const json_t *c, int idx, sprint_design *d,
                               engine_error *err)
{
    const char *key = d->key;
    char where[80];
    snprintf(where, sizeof where, "card %d", idx);
    if (engine_carddata_key(c, "cards.json", where, d->key, SPRINT_KEY_MAX,
                            err))
        return ENGINE_EINVALID;
    const char *bad = engine_carddata_unknown(c, card_fields);
    if (bad)
        return card_fail(err, idx, key, bad, "is not a known field");
    snprintf(where, sizeof where, "card %d (%s)", idx, key);
    if (engine_carddata_string(c, "name", "cards.json", where, "name", d->name,
                               SPRINT_NAME_MAX, err))
        return ENGINE_EINVALID;
    const json_t *jtext = json_object_get(c, "text");
    if (jtext && (!json_is_string(jtext) ||
                  strlen(json_string_value(jtext)) >= SPRINT_TEXT_MAX))
        return card_fail(err, idx, key, "text",
                         "must be a string of at most %d bytes",
                         SPRINT_TEXT_MAX - 1);
    if (jtext)
        memcpy(d->text, json_string_value(jtext),
               strlen(json_string_value(jtext)) + 1);
    const json_t *jt = json_object_get(c, "type");
    const char *type = json_is_string(jt) ? json_string_value(jt) : "";
    if (strcmp(type, "development") == 0)
        d->kind = SPRINT_DEVELOPMENT;
    else if (strcmp(type, "world") == 0)
        d->kind = SPRINT_WORLD;
    else
        return card_fail(err, idx, key, "type",
                         "must be \"development\" or \"world\"");
    return 0;
}

/* parse_card, section 2: the central card, or how many copies. */
static int parse_card_count(const json_t *c, int idx, sprint_design *d,
                            engine_error *err)
{
    const json_t *jc = json_object_get(c, "central");
    int x;
    if (jc && !json_is_true(jc))
        return card_fail(err, idx, d->key, "central",
                         "must be true when present");
    d->central = jc != NULL;
    if (d->central) {
        if (json_object_get(c, "count"))
            return card_fail(err, idx, d->key, "count",
                             "must be absent on the central card (one per "
                             "player, outside the deck)");
        if (d->kind != SPRINT_DEVELOPMENT)
            return card_fail(err, idx, d->key, "type",
                             "of the central card must be development");
        return 0;
    }
    if (engine_carddata_int(c, "count", 1, 8, -1, &x) < 0 || x < 0)
        return card_fail(err, idx, d->key, "count", "must be an integer 1..8");
    d->count = (uint8_t)x;
    return 0;
}

/* parse_card, section 3 for a development: its cost, and no world fields. */
static int parse_card_development(const json_t *c, int idx, sprint_design *d,
                                  engine_error *err)
{
    const char *key = d->key;
    int x;
    if (json_object_get(c, "defence"))
        return card_fail(err, idx, key, "defence",
                         "is only for military worlds");
    if (json_object_get(c, "colour") || json_object_get(c, "faction"))
        return card_fail(err, idx, key,
                         json_object_get(c, "colour") ? "colour" : "faction",
                         "is only for worlds");
    if (engine_carddata_int(c, "cost", 0, 9, -1, &x) < 0 || x < 0)
        return card_fail(err, idx, key, "cost", "must be an integer 0..9");
    d->cost = (int8_t)x;
    return 0;
}

/* parse_card, section 3 for a world: cost or defence, colour, faction. */
static int parse_card_world(const json_t *c, int idx, sprint_design *d,
                            engine_error *err)
{
    const char *key = d->key;
    const json_t *jcost = json_object_get(c, "cost");
    const json_t *jdef = json_object_get(c, "defence");
    int x;
    if ((jcost != NULL) == (jdef != NULL))
        return card_fail(err, idx, key, jcost ? "defence" : "cost",
                         "a world needs exactly one of cost (paid) or "
                         "defence (military)");
    d->military_world = jdef != NULL;
    if (d->military_world) {
        if (engine_carddata_int(c, "defence", 1, 9, -1, &x) < 0 || x < 0)
            return card_fail(err, idx, key, "defence",
                             "must be an integer 1..9");
    } else if (engine_carddata_int(c, "cost", 0, 9, -1, &x) < 0 || x < 0) {
        return card_fail(err, idx, key, "cost", "must be an integer 0..9");
    }
    d->cost = (int8_t)x;
    const json_t *jcol = json_object_get(c, "colour");
    int col = engine_carddata_lookup(colour_names, SPRINT_NCOLOURS,
                                     json_string_value(jcol));
    if (col < 0)
        return card_fail(err, idx, key, "colour",
                         "must be grey, azure, jade, amber or violet");
    d->colour = (uint8_t)col;
    const json_t *jf = json_object_get(c, "faction");
    if (!jf)
        return 0;
    const char *f = json_is_string(jf) ? json_string_value(jf) : "";
    if (strcmp(f, "rebel") == 0)
        d->faction = SPRINT_REBEL;
    else if (strcmp(f, "alien") == 0)
        d->faction = SPRINT_ALIEN;
    else
        return card_fail(err, idx, key, "faction",
                         "must be \"rebel\" or \"alien\"");
    if (d->faction == SPRINT_REBEL && !d->military_world)
        return card_fail(err, idx, key, "faction",
                         "rebel worlds must be military (defence)");
    return 0;
}

/* parse_card, section 4: the icons and the abilities. */
static int parse_card_effects(const json_t *c, int idx, sprint_design *d,
                              engine_error *err)
{
    static const char *const icons[] = {"vp", "income", "explore", "military"};
    int8_t *slots[] = {&d->vp, &d->income, &d->explore, &d->military};
    int x;
    for (int i = 0; i < 4; i++) {
        if (engine_carddata_int(c, icons[i], 0, 9, 0, &x) < 0)
            return card_fail(err, idx, d->key, icons[i],
                             "must be an integer 0..9");
        *slots[i] = (int8_t)x;
    }
    const json_t *ja = json_object_get(c, "abilities");
    if (!ja)
        return 0;
    if (!json_is_array(ja) || json_array_size(ja) > SPRINT_MAX_ABILITIES)
        return card_fail(err, idx, d->key, "abilities",
                         "must be an array of at most %d abilities",
                         SPRINT_MAX_ABILITIES);
    for (size_t i = 0; i < json_array_size(ja); i++) {
        int rc = parse_ability(json_array_get(ja, i), idx, d->key, (int)i, d,
                               &d->ab[i], err);
        if (rc)
            return rc;
        d->nab++;
    }
    return 0;
}

/* One card of cards.json into d, section by section; fills err naming the
 * card and field at fault. */
static int parse_card(const json_t *c, int idx, sprint_design *d,
                      engine_error *err)
{
    memset(d, 0, sizeof *d);
    if (!json_is_object(c))
        return card_fail(err, idx, NULL, "card", "must be an object");
    int rc = parse_card_identity(c, idx, d, err);
    if (rc == 0)
        rc = parse_card_count(c, idx, d, err);
    if (rc == 0)
        rc = d->kind == SPRINT_DEVELOPMENT
                 ? parse_card_development(c, idx, d, err)
                 : parse_card_world(c, idx, d, err);
    if (rc == 0)
        rc = parse_card_effects(c, idx, d, err);
    return rc;
}

/* The whole document into the zeroed table (engine_carddata_parse). */
static int parse_root(const json_t *root, void *table, engine_error *err)
{
    sprint_cardset *out = table;
    out->survey = -1;
    const json_t *fmt = json_object_get(root, "format");
    const json_t *cards = json_object_get(root, "cards");
    if (!json_is_object(root) || !json_is_string(fmt) ||
        strcmp(json_string_value(fmt), "sprint-cards/1") != 0)
        return engine_fail(err, ENGINE_EINVALID, "format",
                           "cards.json: format must be \"sprint-cards/1\"");
    if (json_object_size(root) != 2 || !json_is_array(cards))
        return engine_fail(err, ENGINE_EINVALID, "cards",
                           "cards.json: needs exactly \"format\" and a "
                           "\"cards\" array");
    if (json_array_size(cards) > SPRINT_MAX_DESIGNS)
        return engine_fail(err, ENGINE_EINVALID, "cards",
                           "cards.json: at most %d designs, got %zu",
                           SPRINT_MAX_DESIGNS, json_array_size(cards));
    for (size_t i = 0; i < json_array_size(cards); i++) {
        sprint_design *d = &out->designs[i];
        int rc = parse_card(json_array_get(cards, i), (int)i, d, err);
        if (rc)
            return rc;
        char where[80];
        snprintf(where, sizeof where, "card %zu (%s)", i, d->key);
        if (engine_carddata_unique(out->designs, (int)i, sizeof *d,
                                   offsetof(sprint_design, name), "cards.json",
                                   where, err))
            return ENGINE_EINVALID;
        if (d->central) {
            if (out->survey >= 0)
                return card_fail(err, (int)i, d->key, "central",
                                 "only one card may be central");
            out->survey = (int)i;
        }
        if (out->ndeck + d->count > SPRINT_MAX_DECK)
            return card_fail(err, (int)i, d->key, "count",
                             "makes the deck larger than %d cards",
                             SPRINT_MAX_DECK);
        for (int c = 0; c < d->count; c++)
            out->deck_design[out->ndeck++] = (uint8_t)i;
        out->ndesigns++;
    }
    if (out->survey < 0)
        return engine_fail(err, ENGINE_EINVALID, "central",
                           "cards.json: one development must be \"central\" "
                           "(the survey card)");
    if (out->ndeck < 40)
        return engine_fail(
            err, ENGINE_EINVALID, "count",
            "cards.json: the deck needs at least 40 cards, got %d", out->ndeck);
    return 0;
}

static const engine_carddata cards_file = {"cards.json", sizeof(sprint_cardset),
                                           offsetof(sprint_cardset, sha256),
                                           parse_root};

int sprint_cards_parse(const char *text, size_t len, sprint_cardset *out,
                       engine_error *err)
{
    return engine_carddata_parse(&cards_file, text, len, out, err);
}

int sprint_cards_init(engine_error *err)
{
    return engine_carddata_init(&cards_file, sprint_cards_json,
                                sprint_cards_json_len, &g_cards, &g_cards_ready,
                                err);
}

const sprint_cardset *sprint_cards(void)
{
    return g_cards_ready ? &g_cards : NULL;
}

const sprint_design *sprint_design_of(const sprint_cardset *cs, int inst)
{
    if (inst < cs->ndeck)
        return &cs->designs[cs->deck_design[inst]];
    return &cs->designs[cs->survey];
}

int sprint_total_cards(const sprint_cardset *cs, int seats)
{
    return cs->ndeck + seats;
}

json_t *sprint_design_json(const sprint_design *d)
{
    json_t *o = json_object();
    json_object_set_new(o, "key", json_string(d->key));
    json_object_set_new(o, "name", json_string(d->name));
    json_object_set_new(
        o, "type",
        json_string(d->kind == SPRINT_WORLD ? "world" : "development"));
    if (d->kind == SPRINT_WORLD) {
        json_object_set_new(o, "military_world",
                            json_boolean(d->military_world));
        json_object_set_new(o, "colour", json_string(colour_names[d->colour]));
        json_object_set_new(o, "faction",
                            d->faction == SPRINT_REBEL   ? json_string("rebel")
                            : d->faction == SPRINT_ALIEN ? json_string("alien")
                                                         : json_null());
    }
    json_object_set_new(
        o, d->kind == SPRINT_WORLD && d->military_world ? "defence" : "cost",
        json_integer(d->cost));
    json_object_set_new(o, "vp", json_integer(d->vp));
    json_object_set_new(o, "income", json_integer(d->income));
    json_object_set_new(o, "explore", json_integer(d->explore));
    json_object_set_new(o, "military", json_integer(d->military));
    json_object_set_new(o, "count", json_integer(d->count));
    if (d->central)
        json_object_set_new(o, "central", json_true());
    json_t *abs = json_array();
    for (int i = 0; i < d->nab; i++) {
        const sprint_ability *a = &d->ab[i];
        json_t *ja = json_object();
        json_object_set_new(ja, "type", json_string(ability_names[a->type]));
        if (a->type != SPRINT_AB_PAY_MILITARY &&
            a->type != SPRINT_AB_TOP_MILITARY)
            json_object_set_new(ja, "what", json_string(what_names[a->what]));
        if (a->type != SPRINT_AB_PAY_MILITARY && a->type != SPRINT_AB_CONVOY)
            json_object_set_new(ja, "amount", json_integer(a->amount));
        if (a->type == SPRINT_AB_VP_PER || a->type == SPRINT_AB_VP_PER_RIVAL ||
            a->type == SPRINT_AB_INCOME_PER)
            json_object_set_new(ja, "every", json_integer(a->every));
        if (a->type == SPRINT_AB_BONUS_IF)
            json_object_set_new(ja, "income", json_integer(a->income));
        json_array_append_new(abs, ja);
    }
    json_object_set_new(o, "abilities", abs);
    json_object_set_new(o, "text", json_string(d->text));
    return o;
}

json_t *sprint_catalog(void)
{
    const sprint_cardset *cs = sprint_cards();
    if (!cs)
        return NULL;
    json_t *cards = json_array(), *inst = json_array();
    for (int i = 0; i < cs->ndesigns; i++)
        json_array_append_new(cards, sprint_design_json(&cs->designs[i]));
    for (int i = 0; i < cs->ndeck; i++)
        json_array_append_new(inst,
                              json_string(cs->designs[cs->deck_design[i]].key));
    return json_pack("{s:o, s:o, s:s, s:s}", "cards", cards, "instances", inst,
                     "survey", cs->designs[cs->survey].key, "sha256",
                     cs->sha256);
}

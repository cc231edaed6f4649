/*
 * test_skirmish_cards.c - Skirmish's card data (engine/rules/skirmish/
 * skirmish_cards.h): the built-in cards.json loads with four factions and
 * at least 60 designs using the whole ability vocabulary, the prebuilt
 * squads keep the muster rules, texts render from the data, the card list
 * in docs/games/skirmish.md is the generated one, and the validator refuses
 * each kind of bad data with a message naming the card or squad and field.
 *
 *   build/tests/test_skirmish_cards          run the tests
 *   build/tests/test_skirmish_cards --doc    print the generated card list
 *                                            (the part of the doc between
 *                                            the cards:begin/end markers)
 */
#include "engine/rules/skirmish/skirmish_cards.h"
#include "tests/unit/test.h"

#include <stdarg.h>
#include <stdlib.h>

static const skirmish_cardset *CS;

/* --------------------------------------------------- generated card list */

/* Append printf-style to a growing buffer (aborts on OOM: test code). */
static __attribute__((format(printf, 3, 4))) void put(char **buf, size_t *len,
                                                      const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *grown = realloc(*buf, *len + (size_t)n + 1);
    if (!grown)
        abort();
    *buf = grown;
    va_start(ap, fmt);
    vsnprintf(*buf + *len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    *len += (size_t)n;
}

/* The card list section of docs/games/skirmish.md (malloc'd). */
static char *card_list(const skirmish_cardset *cs)
{
    char *b = NULL;
    size_t n = 0;
    put(&b, &n,
        "%d creature designs in %d factions. Generated from "
        "`engine/rules/skirmish/cards.json` by `build/tests/"
        "test_skirmish_cards --doc`; the unit test fails when this section "
        "is stale.\n",
        cs->ndesigns, cs->nfactions);
    for (int f = 0; f < cs->nfactions; f++) {
        int count = 0;
        for (int i = 0; i < cs->ndesigns; i++)
            count += cs->designs[i].faction == f;
        put(&b, &n,
            "\n### %s (%d creatures)\n\n| Creature | Cost | Life | Move | "
            "Strike | Abilities |\n|---|---|---|---|---|---|\n",
            cs->factions[f].name, count);
        for (int i = 0; i < cs->ndesigns; i++) {
            const skirmish_design *d = &cs->designs[i];
            if (d->faction != f)
                continue;
            char text[1200];
            skirmish_design_text(d, text, sizeof text);
            put(&b, &n, "| **%s** | %d | %d | %d | %d/%d/%d | %s |\n", d->name,
                d->cost, d->life, d->move, d->strike[0], d->strike[1],
                d->strike[2], text[0] ? text : "—");
        }
    }
    put(&b, &n, "\n### Prebuilt squads\n\n");
    for (int s = 0; s < cs->nsquads; s++) {
        const skirmish_squad *q = &cs->squads[s];
        put(&b, &n, "- **%s** (cost %d): ", q->name,
            skirmish_squad_cost(cs, q->cards, q->n));
        for (int i = 0; i < q->n; i++)
            put(&b, &n, "%s%s", i ? ", " : "", cs->designs[q->cards[i]].name);
        put(&b, &n, ".\n");
    }
    return b;
}

/* ------------------------------------------------------- built-in data -- */

static void test_builtin_cards_load(void)
{
    CHECK(CS->ndesigns >= 60);
    CHECK_EQ_INT(CS->nfactions, 4);
    for (int f = 0; f < CS->nfactions; f++) {
        int n = 0;
        for (int i = 0; i < CS->ndesigns; i++)
            n += CS->designs[i].faction == f;
        CHECKF(n >= 12, "faction %s has %d designs", CS->factions[f].key, n);
    }
    CHECK(CS->nsquads >= 3);
    CHECK_EQ_INT(CS->budget, 30);
    CHECK_EQ_INT(strlen(CS->sha256), 64);
    /* init is idempotent and the table is the same one. */
    engine_error err = {0};
    CHECK_EQ_INT(skirmish_cards_init(&err), 0);
    CHECK(skirmish_cards() == CS);
}

static void test_builtin_cards_use_whole_vocabulary(void)
{
    int kinds[SKIRMISH_K_COUNT] = {0}, timings[SKIRMISH_T_COUNT] = {0},
        triggers[SKIRMISH_TR_COUNT] = {0}, targets[SKIRMISH_TG_COUNT] = {0},
        stats[SKIRMISH_ST_COUNT] = {0};
    int spells = 0, shots = 0, tap = 0, move = 0, tokens = 0, life = 0,
        start_tokens = 0;
    for (int i = 0; i < CS->ndesigns; i++) {
        const skirmish_design *d = &CS->designs[i];
        start_tokens += d->tokens > 0;
        CHECK(d->strike[0] <= d->strike[1] && d->strike[1] <= d->strike[2]);
        for (int a = 0; a < d->nab; a++) {
            const skirmish_ability *ab = &d->ab[a];
            kinds[ab->kind]++;
            timings[ab->timing]++;
            triggers[ab->trigger]++;
            targets[ab->target]++;
            if (ab->kind == SKIRMISH_K_AURA)
                stats[ab->stat]++;
            spells += ab->spell;
            shots +=
                ab->kind == SKIRMISH_K_DAMAGE && !ab->spell && ab->range > 1;
            tap += ab->cost.tap;
            move += ab->cost.move > 0;
            tokens += ab->cost.tokens > 0;
            life += ab->cost.life > 0;
        }
    }
    for (int k = 0; k < SKIRMISH_K_COUNT; k++)
        CHECKF(kinds[k] > 0, "kind %s unused", skirmish_kind_name(k));
    for (int t = 0; t < SKIRMISH_T_COUNT; t++)
        CHECKF(timings[t] > 0, "timing %s unused", skirmish_timing_name(t));
    for (int t = 1; t < SKIRMISH_TR_COUNT; t++)
        CHECKF(triggers[t] > 0, "trigger %s unused", skirmish_trigger_name(t));
    for (int t = 1; t < SKIRMISH_TG_COUNT; t++)
        CHECKF(targets[t] > 0, "target %s unused", skirmish_target_name(t));
    for (int s = 0; s < SKIRMISH_ST_COUNT; s++)
        CHECKF(stats[s] > 0, "aura stat %s unused", skirmish_stat_name(s));
    CHECK(spells && shots && tap && move && tokens && life && start_tokens);
}

static void test_prebuilt_squads_keep_muster_rules(void)
{
    for (int s = 0; s < CS->nsquads; s++) {
        const skirmish_squad *q = &CS->squads[s];
        engine_error err = {0};
        CHECKF(skirmish_squad_check(CS, q->cards, q->n, &err) == 0, "%s: %s",
               q->key, err.msg);
        CHECK(skirmish_squad_cost(CS, q->cards, q->n) <= CS->budget);
        CHECK_EQ_INT(skirmish_squad_find(CS, q->key), s);
    }
    CHECK_EQ_INT(skirmish_squad_find(CS, "no_such_squad"), -1);
}

static void test_lookups(void)
{
    int i = skirmish_design_find(CS, "bolt_sergeant");
    REQUIRE(CS && i >= 0);
    const skirmish_design *d = &CS->designs[i];
    CHECK_EQ_STR(d->name, "Bolt Sergeant");
    CHECK_EQ_STR(CS->factions[d->faction].key, "ironbound");
    CHECK_EQ_INT(skirmish_faction_find(CS, "ironbound"), d->faction);
    CHECK_EQ_INT(d->cost, 3);
    CHECK_EQ_INT(d->nab, 1);
    CHECK_EQ_INT(d->ab[0].kind, SKIRMISH_K_DAMAGE);
    CHECK_EQ_INT(d->ab[0].timing, SKIRMISH_T_ACTION);
    CHECK_EQ_INT(d->ab[0].target, SKIRMISH_TG_ENEMY);
    CHECK_EQ_INT(d->ab[0].range, 3);
    CHECK_EQ_INT(d->ab[0].cost.tap, 1);
    CHECK_EQ_INT(skirmish_design_find(CS, "nobody"), -1);
    CHECK_EQ_INT(skirmish_faction_find(CS, "nobody"), -1);
    CHECK_EQ_STR(skirmish_kind_name(SKIRMISH_K_COUNT), "?");
}

static void test_squad_check(void)
{
    int a = skirmish_design_find(CS, "iron_marshal"); /* cost 7 */
    int b = skirmish_design_find(CS, "iron_recruit"); /* cost 1 */
    REQUIRE(a >= 0 && b >= 0);
    uint8_t cards[SKIRMISH_SQUAD_MAX + 1];
    engine_error err = {0};
    CHECK_EQ_INT(skirmish_squad_check(CS, cards, 0, &err), ENGINE_EINVALID);
    CHECK(strstr(err.msg, "1..15 creatures") != NULL);
    for (int i = 0; i < 4; i++)
        cards[i] = (uint8_t)a;
    err = (engine_error){0};
    CHECK_EQ_INT(skirmish_squad_check(CS, cards, 3, &err), ENGINE_EINVALID);
    CHECK(strstr(err.msg,
                 "the squad has 3 copies of iron_marshal: at most 2") != NULL);
    for (int i = 0; i < 16; i++)
        cards[i] = (uint8_t)(b + i % 8);
    err = (engine_error){0};
    CHECK_EQ_INT(skirmish_squad_check(CS, cards, 16, &err), ENGINE_EINVALID);
    cards[0] = (uint8_t)a;
    cards[1] = (uint8_t)a;
    cards[2] = (uint8_t)skirmish_design_find(CS, "elder_oakfather"); /* 8 */
    cards[3] = (uint8_t)skirmish_design_find(CS, "ember_tyrant");    /* 8 */
    cards[4] = (uint8_t)b;
    err = (engine_error){0};
    CHECK_EQ_INT(skirmish_squad_check(CS, cards, 4, &err), 0); /* exactly 30 */
    CHECK_EQ_INT(skirmish_squad_check(CS, cards, 5, &err), ENGINE_EINVALID);
    CHECK(strstr(err.msg, "the squad costs 31, over the budget of 30") != NULL);
}

/* ------------------------------------------------------------- texts -- */

static const char *text_of(const char *key)
{
    static char buf[1200];
    int i = skirmish_design_find(CS, key);
    if (i < 0)
        return "(no such card)";
    skirmish_design_text(&CS->designs[i], buf, sizeof buf);
    return buf;
}

static void test_texts_generated_from_data(void)
{
    CHECK_EQ_STR(text_of("bolt_sergeant"),
                 "Close: deal 1 damage to an enemy within 3 (shot).");
    CHECK_EQ_STR(text_of("iron_recruit"), "");
    CHECK_EQ_STR(text_of("gate_duelist"),
                 "First strike. Sudden. 1 movement: parry 1 (an attack on it, "
                 "on the stack, strikes 1 less).");
    CHECK_EQ_STR(text_of("pyre_priestess"),
                 "At the end of your turn, put 1 token on itself. Close, 2 "
                 "tokens: deal 4 damage to an enemy within 5 (spell).");
    CHECK_EQ_STR(text_of("hex_binder"),
                 "Close: give an enemy within 3 -2 strike until end of turn "
                 "(spell).");
    CHECK_EQ_STR(text_of("wind_monk"),
                 "Enters with 2 tokens. First strike. Sudden. 1 token: parry 1 "
                 "(an attack on it, on the stack, strikes 1 less).");
    CHECK_EQ_STR(text_of("magma_brute"),
                 "Armour 1. -1 to its strikes when it strikes back.");
    for (int i = 0; i < CS->ndesigns; i++) {
        char buf[1200];
        skirmish_design_text(&CS->designs[i], buf, sizeof buf);
        CHECKF(strchr(buf, '?') == NULL, "%s: %s", CS->designs[i].key, buf);
        CHECKF(strlen(buf) < 400, "%s text too long", CS->designs[i].key);
    }
    /* A short buffer is cut, never overrun. */
    char tiny[8];
    skirmish_design_text(&CS->designs[skirmish_design_find(CS, "pyromancer")],
                         tiny, sizeof tiny);
    CHECK_EQ_INT(strlen(tiny), 7);
}

static void test_catalog_json(void)
{
    json_t *cat = skirmish_catalog();
    REQUIRE(cat);
    CHECK_EQ_INT(json_array_size(json_object_get(cat, "cards")), CS->ndesigns);
    CHECK_EQ_INT(json_array_size(json_object_get(cat, "factions")), 4);
    CHECK_EQ_INT(json_array_size(json_object_get(cat, "squads")), CS->nsquads);
    CHECK_EQ_INT(json_integer_value(
                     json_object_get(json_object_get(cat, "muster"), "budget")),
                 30);
    const json_t *card =
        json_array_get(json_object_get(cat, "cards"),
                       (size_t)skirmish_design_find(CS, "storm_caller"));
    CHECK_EQ_STR(json_string_value(json_object_get(card, "faction")),
                 "galekin");
    const json_t *ab = json_array_get(json_object_get(card, "abilities"), 1);
    CHECK_EQ_STR(json_string_value(json_object_get(ab, "kind")),
                 "counterspell");
    CHECK_EQ_STR(json_string_value(json_object_get(ab, "timing")), "sudden");
    CHECK_EQ_INT(json_integer_value(
                     json_object_get(json_object_get(ab, "cost"), "life")),
                 1);
    CHECK_EQ_STR(json_string_value(json_object_get(ab, "text")),
                 "Sudden. 1 life: cancel a spell on the stack.");
    json_decref(cat);
}

/* The doc's card list is the generated one (run with --doc to refresh). */
static void test_doc_card_list_is_current(void)
{
    const char *root = getenv("CONCLAVE_ROOT");
    char path[512];
    snprintf(path, sizeof path, "%s/docs/games/skirmish.md",
             root && *root ? root : ".");
    FILE *f = fopen(path, "rb");
    REQUIRE(f);
    static char doc[200000];
    size_t n = fread(doc, 1, sizeof doc - 1, f);
    fclose(f);
    doc[n] = 0;
    const char *begin = strstr(doc, "<!-- cards:begin -->\n");
    const char *end = strstr(doc, "<!-- cards:end -->");
    REQUIRE(begin && end && end > begin);
    begin += strlen("<!-- cards:begin -->\n");
    char *want = card_list(CS);
    CHECKF(strlen(want) == (size_t)(end - begin) &&
               memcmp(want, begin, strlen(want)) == 0,
           "%s is stale: run build/tests/test_skirmish_cards --doc", path);
    free(want);
}

/* --------------------------------------------------------- validation -- */

/* A small valid document around a second card (faction b) and extra
 * squads; muster budget 7, at most 3 creatures and 2 copies. */
static char *doc_with(const char *card, const char *squads)
{
    static const char *fmt =
        "{\"format\": \"skirmish-cards/1\",\n"
        " \"muster\": {\"budget\": 7, \"max_creatures\": 3, "
        "\"max_copies\": 2},\n"
        " \"factions\": [{\"key\": \"a\", \"name\": \"A\"}, {\"key\": \"b\", "
        "\"name\": \"B\"}],\n"
        " \"cards\": [{\"key\": \"x\", \"name\": \"X\", \"faction\": \"a\", "
        "\"cost\": 2, \"life\": 3, \"move\": 1, \"strike\": [1, 2, 3]},\n"
        "  %s],\n"
        " \"squads\": [{\"key\": \"s1\", \"name\": \"S1\", \"cards\": "
        "[\"x\"]}, {\"key\": \"s2\", \"name\": \"S2\", \"cards\": [\"x\", "
        "\"x\"]}, {\"key\": \"s3\", \"name\": \"S3\", \"cards\": [\"y\"]}%s]}";
    size_t n = strlen(fmt) + strlen(card) + strlen(squads) + 1;
    char *out = malloc(n);
    if (!out)
        abort();
    snprintf(out, n, fmt, card, squads);
    return out;
}

#define Y_HEAD                                                                 \
    "{\"key\": \"y\", \"name\": \"Y\", \"faction\": \"b\", \"cost\": 3, "      \
    "\"life\": 4, \"move\": 2, \"strike\": [1, 1, 2]"
#define Y_OK Y_HEAD "}"
/* Y with one ability (the JSON object text given). */
#define Y_AB(ab) Y_HEAD ", \"abilities\": [" ab "]}"

static int parse_text(const char *text, engine_error *err)
{
    static skirmish_cardset cs;
    return skirmish_cards_parse(text, strlen(text), &cs, err);
}

static void test_validator_accepts_small_document(void)
{
    char *text = doc_with(
        Y_AB("{\"kind\": \"damage\", \"timing\": \"action\", \"cost\": "
             "{\"tap\": true}, \"target\": \"enemy\", \"range\": 2, "
             "\"amount\": 1}"),
        "");
    engine_error err = {0};
    CHECKF(parse_text(text, &err) == 0, "%s", err.msg);
    free(text);
}

static void test_validator_rejects_bad_data(void)
{
    static const struct {
        const char *card, *squads, *want;
    } cases[] = {
        /* The ability vocabulary. */
        {Y_AB("{\"kind\": \"teleport\"}"), "",
         "card 1 (y): abilities[0] kind must be one of"},
        {Y_AB("{\"kind\": \"flying\", \"timing\": \"action\"}"), "",
         "(y): abilities[0].timing flying is a static keyword"},
        {Y_AB("{\"kind\": \"damage\", \"target\": \"enemy\", \"range\": 1, "
              "\"amount\": 1}"),
         "", "(y): abilities[0].timing must be action, sudden or trigger"},
        {Y_AB("{\"kind\": \"parry\", \"timing\": \"action\", \"cost\": "
              "{\"tap\": true}, \"target\": \"self\", \"amount\": 1}"),
         "", "(y): abilities[0].timing must be sudden"},
        {Y_AB("{\"kind\": \"heal\", \"timing\": \"trigger\", \"target\": "
              "\"self\", \"amount\": 1}"),
         "", "(y): abilities[0].trigger must be enters, dies"},
        {Y_AB("{\"kind\": \"heal\", \"timing\": \"action\", \"trigger\": "
              "\"dies\", \"cost\": {\"tap\": true}, \"target\": \"self\", "
              "\"amount\": 1}"),
         "", "(y): abilities[0].trigger is only for timing trigger"},
        {Y_AB("{\"kind\": \"heal\", \"timing\": \"trigger\", \"trigger\": "
              "\"dies\", \"cost\": {\"tap\": true}, \"target\": "
              "\"adjacent_allies\", \"amount\": 1}"),
         "", "(y): abilities[0].cost is not for triggered abilities"},
        /* Costs: the resources before the colon. */
        {Y_AB("{\"kind\": \"heal\", \"timing\": \"action\", \"target\": "
              "\"self\", \"amount\": 1}"),
         "", "(y): abilities[0].cost is required for action and sudden"},
        {Y_AB("{\"kind\": \"heal\", \"timing\": \"action\", \"cost\": "
              "{\"move\": 1}, \"target\": \"self\", \"amount\": 1}"),
         "", "(y): abilities[0].cost of an action must include tap"},
        {Y_AB("{\"kind\": \"heal\", \"timing\": \"sudden\", \"cost\": {}, "
              "\"target\": \"self\", \"amount\": 1}"),
         "", "(y): abilities[0].cost must name at least one resource"},
        {Y_AB("{\"kind\": \"heal\", \"timing\": \"sudden\", \"cost\": "
              "{\"gold\": 1}, \"target\": \"self\", \"amount\": 1}"),
         "", "(y): abilities[0].cost.gold is not a resource"},
        {Y_AB("{\"kind\": \"heal\", \"timing\": \"sudden\", \"cost\": "
              "{\"tap\": false}, \"target\": \"self\", \"amount\": 1}"),
         "", "(y): abilities[0].cost.tap must be true when present"},
        {Y_AB("{\"kind\": \"heal\", \"timing\": \"sudden\", \"cost\": "
              "{\"tokens\": 9}, \"target\": \"self\", \"amount\": 1}"),
         "", "(y): abilities[0].cost.tokens must be an integer 1..5"},
        {Y_AB("{\"kind\": \"heal\", \"timing\": \"sudden\", \"cost\": "
              "{\"tokens\": 1}, \"target\": \"self\", \"amount\": 1}"),
         "", "(y): tokens must be given (or a tokens ability)"},
        {Y_AB("{\"kind\": \"heal\", \"timing\": \"sudden\", \"cost\": "
              "{\"life\": 4}, \"target\": \"self\", \"amount\": 1}"),
         "", "(y): abilities[0] costs 4 life: it must be less than its life"},
        {Y_AB("{\"kind\": \"heal\", \"timing\": \"sudden\", \"cost\": "
              "{\"move\": 3}, \"target\": \"self\", \"amount\": 1}"),
         "", "(y): abilities[0] costs 3 movement but the creature has 2"},
        /* Targets, ranges, amounts and the kind-only fields. */
        {Y_AB("{\"kind\": \"heal\", \"timing\": \"trigger\", \"trigger\": "
              "\"dies\", \"target\": \"enemy\", \"range\": 1, \"amount\": 1}"),
         "", "(y): abilities[0].target of heal must be self, ally"},
        {Y_AB("{\"kind\": \"damage\", \"timing\": \"trigger\", \"trigger\": "
              "\"dies\", \"target\": \"enemy\", \"amount\": 1}"),
         "", "(y): abilities[0].range must be an integer 1..6"},
        {Y_AB("{\"kind\": \"damage\", \"timing\": \"trigger\", \"trigger\": "
              "\"dies\", \"target\": \"adjacent_enemies\", \"range\": 2, "
              "\"amount\": 1}"),
         "", "(y): abilities[0].range is only for single targets"},
        {Y_AB("{\"kind\": \"aura\", \"timing\": \"trigger\", \"trigger\": "
              "\"dies\", \"target\": \"all_allies\", \"stat\": \"strike\", "
              "\"amount\": 0}"),
         "", "(y): abilities[0].amount must be an integer -3..3, not 0"},
        {Y_AB("{\"kind\": \"aura\", \"timing\": \"trigger\", \"trigger\": "
              "\"dies\", \"target\": \"all_allies\", \"stat\": \"luck\", "
              "\"amount\": 1}"),
         "", "(y): abilities[0].stat must be strike, armour or move"},
        {Y_AB("{\"kind\": \"armour\", \"amount\": 1, \"stat\": \"move\"}"), "",
         "(y): abilities[0].stat is only for aura"},
        {Y_AB("{\"kind\": \"armour\", \"amount\": 1, \"when\": "
              "\"attacking\"}"),
         "", "(y): abilities[0].when is only for strike_mod"},
        {Y_AB("{\"kind\": \"first_strike\", \"amount\": 1}"), "",
         "(y): abilities[0].amount is not for first_strike"},
        {Y_AB("{\"kind\": \"armour\", \"amount\": 7}"), "",
         "(y): abilities[0].amount must be an integer 1..3"},
        {Y_AB("{\"kind\": \"parry\", \"timing\": \"sudden\", \"cost\": "
              "{\"tap\": true}, \"target\": \"self\", \"amount\": 1, "
              "\"spell\": true}"),
         "", "(y): abilities[0].spell is not allowed for this kind"},
        {Y_AB("{\"kind\": \"counterspell\", \"timing\": \"sudden\", \"cost\": "
              "{\"tap\": true}, \"target\": \"enemy\"}"),
         "", "(y): abilities[0].target is not for counterspell"},
        {Y_AB("{\"kind\": \"flying\"}, {\"kind\": \"flying\"}"), "",
         "(y): abilities[1] repeats the keyword flying"},
        {Y_AB("{\"kind\": \"flying\", \"colour\": \"red\"}"), "",
         "(y): abilities[0] has unknown field \"colour\""},
        /* The creature's own fields. */
        {"{\"key\": \"y\", \"name\": \"Y\", \"faction\": \"b\", \"cost\": 0, "
         "\"life\": 4, \"move\": 2, \"strike\": [1, 1, 2]}",
         "", "card 1 (y): cost must be an integer 1..10"},
        {"{\"key\": \"y\", \"name\": \"Y\", \"faction\": \"b\", \"cost\": 11, "
         "\"life\": 4, \"move\": 2, \"strike\": [1, 1, 2]}",
         "", "card 1 (y): cost must be an integer 1..10"},
        {"{\"key\": \"y\", \"name\": \"Y\", \"faction\": \"b\", \"cost\": 3, "
         "\"move\": 2, \"strike\": [1, 1, 2]}",
         "", "card 1 (y): life must be an integer 1..12"},
        {"{\"key\": \"y\", \"name\": \"Y\", \"faction\": \"b\", \"cost\": 3, "
         "\"life\": 4, \"move\": 2, \"strike\": [3, 1, 2]}",
         "", "card 1 (y): strike must be [weak, medium, strong]"},
        {"{\"key\": \"y\", \"name\": \"Y\", \"faction\": \"b\", \"cost\": 3, "
         "\"life\": 4, \"move\": 2, \"strike\": [1, 2]}",
         "", "card 1 (y): strike must be [weak, medium, strong]"},
        {"{\"key\": \"y\", \"name\": \"Y\", \"faction\": \"c\", \"cost\": 3, "
         "\"life\": 4, \"move\": 2, \"strike\": [1, 1, 2]}",
         "", "card 1 (y): faction must be the key of one of the factions"},
        {Y_HEAD ", \"shiny\": true}", "", "card 1 (y): shiny is not a known"},
        {"{\"key\": \"Y!\", \"name\": \"Y\", \"faction\": \"b\", \"cost\": 3, "
         "\"life\": 4, \"move\": 2, \"strike\": [1, 1, 2]}",
         "", "card 1: key must be a string of [a-z0-9_]"},
        {"{\"key\": \"x\", \"name\": \"Y\", \"faction\": \"b\", \"cost\": 3, "
         "\"life\": 4, \"move\": 2, \"strike\": [1, 1, 2]}",
         "", "card 1 (x): key repeats card 0"},
        {"{\"key\": \"y\", \"name\": \"X\", \"faction\": \"b\", \"cost\": 3, "
         "\"life\": 4, \"move\": 2, \"strike\": [1, 1, 2]}",
         "", "card 1 (y): name repeats the name of card 0 (x)"},
        {"{\"key\": \"y\", \"name\": \"Y\", \"faction\": \"a\", \"cost\": 3, "
         "\"life\": 4, \"move\": 2, \"strike\": [1, 1, 2]}",
         "", "faction 1 (b): has no cards"},
        /* Prebuilt squads. */
        {Y_OK,
         ", {\"key\": \"s4\", \"name\": \"S4\", \"cards\": [\"x\", "
         "\"zz\"]}",
         "squad 3 (s4): cards entry 1 names no card (\"zz\")"},
        {Y_OK,
         ", {\"key\": \"s4\", \"name\": \"S4\", \"cards\": [\"x\", "
         "\"x\", \"y\", \"y\"]}",
         "squad 3 (s4): cards break the muster rules: the squad needs 1..3 "
         "creatures, got 4"},
        {Y_OK,
         ", {\"key\": \"s4\", \"name\": \"S4\", \"cards\": [\"y\", "
         "\"y\", \"x\"]}",
         "squad 3 (s4): cards break the muster rules: the squad costs 8, "
         "over the budget of 7"},
        {Y_OK,
         ", {\"key\": \"s4\", \"name\": \"S4\", \"cards\": [\"x\", "
         "\"x\", \"x\"]}",
         "squad 3 (s4): cards break the muster rules: the squad has 3 copies "
         "of x: at most 2"},
        {Y_OK, ", {\"key\": \"s1\", \"name\": \"S4\", \"cards\": [\"x\"]}",
         "squad 3 (s1): key repeats another squad"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *text = doc_with(cases[i].card, cases[i].squads);
        engine_error err = {0};
        int rc = parse_text(text, &err);
        CHECKF(rc == ENGINE_EINVALID, "case %zu accepted", i);
        CHECKF(strstr(err.msg, cases[i].want) != NULL,
               "case %zu: message \"%s\" lacks \"%s\"", i, err.msg,
               cases[i].want);
        free(text);
    }
}

static void test_validator_rejects_bad_documents(void)
{
    static const struct {
        const char *text, *want;
    } cases[] = {
        {"{", "cards.json line 1"},
        {"{\"format\": \"sprint-cards/1\"}", "format must be"},
        {"{\"format\": \"skirmish-cards/1\", \"extra\": 1}",
         "extra is not a known field"},
        {"{\"format\": \"skirmish-cards/1\", \"muster\": {\"budget\": 2, "
         "\"max_creatures\": 3, \"max_copies\": 1}}",
         "budget must be an integer 5..100"},
        {"{\"format\": \"skirmish-cards/1\", \"muster\": {\"budget\": 20, "
         "\"max_creatures\": 16, \"max_copies\": 1}}",
         "max_creatures must be an integer 1..15"},
        {"{\"format\": \"skirmish-cards/1\", \"muster\": {\"budget\": 20, "
         "\"max_creatures\": 3, \"max_copies\": 1}, \"factions\": "
         "[{\"key\": \"a\", \"name\": \"A\"}]}",
         "factions must be an array of 2..8"},
        {"{\"format\": \"skirmish-cards/1\", \"muster\": {\"budget\": 20, "
         "\"max_creatures\": 3, \"max_copies\": 1}, \"factions\": "
         "[{\"key\": \"a\", \"name\": \"A\"}, {\"key\": \"a\", \"name\": "
         "\"B\"}]}",
         "faction 1 (a): key repeats faction a"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        engine_error err = {0};
        CHECKF(parse_text(cases[i].text, &err) == ENGINE_EINVALID,
               "case %zu accepted", i);
        CHECKF(strstr(err.msg, cases[i].want) != NULL,
               "case %zu: message \"%s\" lacks \"%s\"", i, err.msg,
               cases[i].want);
    }
    /* Fewer than three prebuilt squads. */
    char *text = doc_with(Y_OK, "");
    char *cut = strstr(text, ", {\"key\": \"s3\"");
    REQUIRE(cut);
    memcpy(cut, "]}", 3);
    engine_error err = {0};
    CHECK_EQ_INT(parse_text(text, &err), ENGINE_EINVALID);
    CHECK(strstr(err.msg, "squads must be an array of 3..16") != NULL);
    free(text);
}

int main(int argc, char **argv)
{
    engine_error err = {0};
    if (skirmish_cards_init(&err) != 0) {
        fprintf(stderr, "skirmish_cards_init: %s\n", err.msg);
        return 1;
    }
    CS = skirmish_cards();
    if (argc > 1 && strcmp(argv[1], "--doc") == 0) {
        char *list = card_list(CS);
        fputs(list, stdout);
        free(list);
        return 0;
    }
    RUN(test_builtin_cards_load);
    RUN(test_builtin_cards_use_whole_vocabulary);
    RUN(test_prebuilt_squads_keep_muster_rules);
    RUN(test_lookups);
    RUN(test_squad_check);
    RUN(test_texts_generated_from_data);
    RUN(test_catalog_json);
    RUN(test_doc_card_list_is_current);
    RUN(test_validator_accepts_small_document);
    RUN(test_validator_rejects_bad_data);
    RUN(test_validator_rejects_bad_documents);
    return TEST_SUMMARY();
}

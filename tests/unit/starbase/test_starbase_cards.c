/*
 * test_starbase_cards.c - Starbase's card data (engine/rules/starbase/
 * starbase_cards.h): the built-in cards.json loads with at least 80 designs
 * over the five kinds using the whole ability vocabulary, the starbases and
 * starter markets keep the setup rules, texts render from the data, the card
 * list in docs/games/starbase.md is the generated one, and the validator
 * refuses each kind of bad data with a message naming the card, starbase or
 * market and the field.
 *
 *   build/tests/test_starbase_cards          run the tests
 *   build/tests/test_starbase_cards --doc    print the generated card list
 *                                            (the part of the doc between
 *                                            the cards:begin/end markers)
 */
#include "engine/rules/starbase/starbase_cards.h"
#include "tests/unit/test.h"

#include <stdarg.h>
#include <stdlib.h>

static const starbase_cardset *CS;

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

static const char *const roman[] = {"—", "I", "II", "III", "IV"};

/* The extra columns of one card kind, for its table row. */
static void kind_columns(const starbase_card *d, char *buf, size_t n)
{
    switch (d->kind) {
    case STARBASE_SHIP:
        snprintf(buf, n, "%s | %d/%d", roman[d->assembly % 5], d->attack,
                 d->defence);
        break;
    case STARBASE_LOCATION:
        snprintf(buf, n, "%s | %d", starbase_region_name(d->region), d->income);
        break;
    case STARBASE_NEWS:
        snprintf(buf, n, "%s",
                 d->duration == STARBASE_DURATION_INFINITE ? "∞"
                 : d->duration                             ? roman[d->duration]
                                                           : "at once");
        break;
    case STARBASE_OUTER_REGION:
        snprintf(buf, n, "%d", d->income);
        break;
    default:
        buf[0] = 0;
    }
}

static void card_tables(const starbase_cardset *cs, char **b, size_t *n)
{
    static const char *const titles[STARBASE_KIND_COUNT] = {
        "Ships", "Locations", "News", "Outer regions", "Starbase structures"};
    static const char *const heads[STARBASE_KIND_COUNT] = {
        "| Ship | Price | Assembly | Attack/Defence | Commands |\n"
        "|---|---|---|---|---|\n",
        "| Location | Price | Region | Income | Abilities |\n"
        "|---|---|---|---|---|\n",
        "| News | Price | Duration | Text |\n|---|---|---|---|\n",
        "| Outer region | Price | Income | Abilities |\n|---|---|---|---|\n",
        "| Structure | Price | Abilities |\n|---|---|---|\n"};
    for (int k = 0; k < STARBASE_KIND_COUNT; k++) {
        put(b, n, "\n### %s (%d)\n\n%s", titles[k], starbase_count_kind(cs, k),
            heads[k]);
        for (int i = 0; i < cs->ncards; i++) {
            const starbase_card *d = &cs->cards[i];
            if (d->kind != k)
                continue;
            char text[1200], cols[64];
            starbase_card_text(d, text, sizeof text);
            kind_columns(d, cols, sizeof cols);
            put(b, n, "| **%s** | %d |%s%s%s %s |\n", d->name, d->price,
                cols[0] ? " " : "", cols, cols[0] ? " |" : "",
                text[0] ? text : "—");
        }
    }
}

/* The card list section of docs/games/starbase.md (malloc'd). */
static char *card_list(const starbase_cardset *cs)
{
    char *b = NULL;
    size_t n = 0;
    put(&b, &n,
        "%d card designs. Generated from `engine/rules/starbase/cards.json` "
        "by `build/tests/test_starbase_cards --doc`; the unit test fails when "
        "this section is stale.\n",
        cs->ncards);
    card_tables(cs, &b, &n);
    put(&b, &n,
        "\n### Starbases\n\n| Starbase | Income | Hull | Attack | Slots | "
        "Upgrade | Upgraded side | Income | Hull | Attack | Slots |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < cs->nstations; i++) {
        const starbase_station *s = &cs->stations[i];
        const starbase_side *f = &s->side[0], *k = &s->side[1];
        put(&b, &n,
            "| **%s** | %d | %d | %d | %d | %d ISK | **%s** | %d | %d | %d | "
            "%d |\n",
            f->name, f->income, f->hull, f->attack, f->slots, s->upgrade_price,
            k->name, k->income, k->hull, k->attack, k->slots);
    }
    put(&b, &n, "\n### Starter markets\n\n");
    for (int m = 0; m < cs->nmarkets; m++) {
        const starbase_market *mk = &cs->markets[m];
        put(&b, &n, "- **%s** (%d cards, starbase %s; outer regions ", mk->name,
            mk->ncards, cs->stations[mk->station].side[0].name);
        for (int i = 0; i < mk->nregions; i++)
            put(&b, &n, "%s%s", i ? ", " : "", cs->cards[mk->regions[i]].name);
        put(&b, &n, "): ");
        for (int i = 0; i < mk->ncards;) {
            int j = i;
            while (j < mk->ncards && mk->cards[j] == mk->cards[i])
                j++;
            put(&b, &n, "%s%d %s", i ? ", " : "", j - i,
                cs->cards[mk->cards[i]].name);
            i = j;
        }
        put(&b, &n, ".\n");
    }
    return b;
}

/* ------------------------------------------------------- built-in data -- */

static void test_builtin_cards_load(void)
{
    CHECK(CS->ncards >= 80);
    int total = 0;
    for (int k = 0; k < STARBASE_KIND_COUNT; k++)
        total += starbase_count_kind(CS, k);
    CHECK_EQ_INT(total, CS->ncards);
    CHECK(starbase_count_kind(CS, STARBASE_SHIP) >= 30);
    CHECK(starbase_count_kind(CS, STARBASE_LOCATION) >= 12);
    CHECK(starbase_count_kind(CS, STARBASE_NEWS) >= 25);
    CHECK(starbase_count_kind(CS, STARBASE_OUTER_REGION) >= 8);
    CHECK(starbase_count_kind(CS, STARBASE_STRUCTURE) >= 10);
    CHECK_EQ_INT(CS->setup.min_players, 2);
    CHECK_EQ_INT(CS->setup.max_players, 4);
    CHECK(CS->nmarkets >= CS->setup.max_players);
    CHECK(CS->nstations >= CS->setup.max_players);
    CHECK_EQ_INT(strlen(CS->sha256), 64);
    /* init is idempotent and the table is the same one. */
    engine_error err = {0};
    CHECK_EQ_INT(starbase_cards_init(&err), 0);
    CHECK(starbase_cards() == CS);
}

static void count_ability(const starbase_ability *a, int *kinds, int *timings,
                          int *targets, int *stats)
{
    kinds[a->kind]++;
    timings[a->timing]++;
    targets[a->target]++;
    if (a->kind == STARBASE_A_AURA)
        stats[a->stat]++;
}

static void test_builtin_cards_use_whole_vocabulary(void)
{
    int kinds[STARBASE_A_COUNT] = {0}, timings[STARBASE_T_COUNT] = {0},
        targets[STARBASE_TG_COUNT] = {0}, stats[STARBASE_ST_COUNT] = {0};
    int durations[5] = {0}, infinite = 0, instant = 0, costs = 0, filters = 0,
        power_filters = 0, assembly[5] = {0};
    for (int i = 0; i < CS->ncards; i++) {
        const starbase_card *d = &CS->cards[i];
        for (int c = 0; c < d->ncommands; c++) {
            count_ability(&d->commands[c].ab, kinds, timings, targets, stats);
            costs += d->commands[c].ab.cost > 0;
            power_filters += d->commands[c].ab.max_price >= 0;
        }
        for (int a = 0; a < d->nab; a++) {
            count_ability(&d->ab[a], kinds, timings, targets, stats);
            costs += d->ab[a].cost > 0;
            filters += d->ab[a].max_price >= 0;
        }
        if (d->kind == STARBASE_SHIP)
            assembly[d->assembly]++;
        if (d->kind == STARBASE_NEWS) {
            infinite += d->duration == STARBASE_DURATION_INFINITE;
            if (d->duration <= 4)
                durations[d->duration]++;
            instant += d->instant;
        }
    }
    for (int k = 0; k < STARBASE_A_COUNT; k++)
        CHECKF(kinds[k] > 0, "kind %s unused", starbase_ability_name(k));
    for (int t = 0; t < STARBASE_T_COUNT; t++)
        CHECKF(timings[t] > 0, "timing %s unused", starbase_timing_name(t));
    for (int t = 0; t < STARBASE_TG_COUNT; t++)
        CHECKF(targets[t] > 0, "target %s unused", starbase_target_name(t));
    for (int s = 0; s < STARBASE_ST_COUNT; s++)
        CHECKF(stats[s] > 0, "aura stat %s unused", starbase_stat_name(s));
    for (int n = 0; n <= 4; n++) {
        CHECKF(durations[n] > 0, "no news of duration %d", n);
        CHECKF(assembly[n] > 0, "no ship of assembly %d", n);
    }
    CHECK(infinite && instant && costs && filters && power_filters);
}

static void test_markets_keep_setup_rules(void)
{
    for (int m = 0; m < CS->nmarkets; m++) {
        const starbase_market *mk = &CS->markets[m];
        CHECK_EQ_INT(mk->ncards, CS->setup.market_size);
        CHECK(mk->nregions >= 1);
        for (int i = 0; i < mk->ncards; i++) {
            int copies = 0;
            for (int j = 0; j < mk->ncards; j++)
                copies += mk->cards[j] == mk->cards[i];
            CHECK(copies <= CS->setup.max_copies);
            CHECK(CS->cards[mk->cards[i]].kind != STARBASE_OUTER_REGION);
        }
        for (int i = 0; i < mk->nregions; i++)
            CHECK_EQ_INT(CS->cards[mk->regions[i]].kind, STARBASE_OUTER_REGION);
        CHECK_EQ_INT(starbase_market_find(CS, mk->key), m);
    }
    /* Every starbase is some market's, so each seat can get its own. */
    for (int s = 0; s < CS->nstations; s++) {
        int used = 0;
        for (int m = 0; m < CS->nmarkets; m++)
            used += CS->markets[m].station == s;
        CHECKF(used > 0, "starbase %s in no market", CS->stations[s].key);
    }
    CHECK_EQ_INT(starbase_market_find(CS, "no_such_market"), -1);
}

static void test_lookups(void)
{
    int i = starbase_card_find(CS, "warden_destroyer");
    REQUIRE(i >= 0);
    const starbase_card *d = &CS->cards[i];
    CHECK_EQ_STR(d->name, "Warden Destroyer");
    CHECK_EQ_INT(d->kind, STARBASE_SHIP);
    CHECK_EQ_INT(d->price, 4);
    CHECK_EQ_INT(d->assembly, 2);
    CHECK_EQ_INT(d->attack, 3);
    CHECK_EQ_INT(d->defence, 3);
    CHECK_EQ_INT(d->ncommands, 2);
    CHECK_EQ_STR(d->commands[0].name, "Barrage");
    CHECK_EQ_INT(d->commands[0].power, 2);
    CHECK_EQ_INT(d->commands[0].ab.kind, STARBASE_A_DAMAGE);
    CHECK_EQ_INT(d->commands[0].ab.timing, STARBASE_T_MANAGEMENT);
    CHECK_EQ_INT(d->commands[0].ab.target, STARBASE_TG_ENEMY_SHIP);
    CHECK_EQ_INT(d->commands[0].ab.amount, 2);
    CHECK_EQ_INT(d->commands[0].ab.from_power, 1);
    CHECK_EQ_INT(d->commands[0].ab.cost, 1);
    i = starbase_card_find(CS, "shield_doctrine");
    REQUIRE(i >= 0);
    CHECK_EQ_INT(CS->cards[i].duration, STARBASE_DURATION_INFINITE);
    i = starbase_station_find(CS, "meridian_hub");
    REQUIRE(i >= 0);
    CHECK_EQ_STR(CS->stations[i].side[1].name, "Meridian Citadel");
    CHECK_EQ_INT(CS->stations[i].side[0].income, 2);
    CHECK_EQ_INT(starbase_card_find(CS, "nobody"), -1);
    CHECK_EQ_INT(starbase_station_find(CS, "nobody"), -1);
    CHECK_EQ_STR(starbase_ability_name(STARBASE_A_COUNT), "?");
    CHECK_EQ_STR(starbase_target_name(-1), "?");
    CHECK(starbase_target_chosen(STARBASE_TG_ENEMY_SHIP));
    CHECK(!starbase_target_chosen(STARBASE_TG_ENEMY_SHIPS_HERE));
}

/* ------------------------------------------------------------- texts -- */

static const char *text_of(const char *key)
{
    static char buf[1200];
    int i = starbase_card_find(CS, key);
    if (i < 0)
        return "(no such card)";
    starbase_card_text(&CS->cards[i], buf, sizeof buf);
    return buf;
}

static void test_texts_generated_from_data(void)
{
    CHECK_EQ_STR(text_of("ore_barge"), "Harvest 1: you get +1 income.");
    CHECK_EQ_STR(text_of("warden_destroyer"),
                 "Barrage 2 (management, 1 ISK): deal 2 damage to an enemy "
                 "ship. Screen 1: your ships here get +1 defence.");
    CHECK_EQ_STR(text_of("tractor_tug"),
                 "Tow 2 (management, 2 ISK): return an enemy ship with price 2 "
                 "or less to its owner's hand.");
    CHECK_EQ_STR(text_of("static_jammer"),
                 "Jam (instant, 1 ISK): deactivate the command of an enemy "
                 "ship.");
    CHECK_EQ_STR(text_of("recall_order"),
                 "Return an enemy ship to its owner's hand.");
    CHECK_EQ_STR(text_of("blockade_decree"),
                 "Instant. An enemy ship cannot warp or activate commands.");
    CHECK_EQ_STR(text_of("trade_embargo"), "Each opponent gets -1 income.");
    CHECK_EQ_STR(text_of("minefield"), "Enemy ships here get -1 attack.");
    CHECK_EQ_STR(text_of("rime_ice_field"), "");
    CHECK_EQ_STR(text_of("crossroads_bazaar"),
                 "Management, 2 ISK: draw 1 card.");
    CHECK_EQ_STR(text_of("fleet_review"),
                 "Your ships get +1 attack this turn. Draw 1 card.");
    CHECK_EQ_STR(text_of("hull_plating"), "Your starbase gets +4 hull.");
    for (int i = 0; i < CS->ncards; i++) {
        char buf[1200];
        starbase_card_text(&CS->cards[i], buf, sizeof buf);
        CHECKF(strchr(buf, '?') == NULL, "%s: %s", CS->cards[i].key, buf);
        CHECKF(strlen(buf) < 400, "%s text too long", CS->cards[i].key);
    }
    /* A short buffer is cut, never overrun. */
    char tiny[8];
    starbase_card_text(&CS->cards[starbase_card_find(CS, "hive_carrier")], tiny,
                       sizeof tiny);
    CHECK_EQ_INT(strlen(tiny), 7);
}

/* A command's number follows its power: the text takes the number given. */
static void test_command_power_changes_text(void)
{
    const starbase_card *d =
        &CS->cards[starbase_card_find(CS, "warden_destroyer")];
    char buf[200];
    starbase_ability_text(&d->commands[0].ab, 3, buf, sizeof buf);
    CHECK_EQ_STR(buf, "Management, 1 ISK: deal 3 damage to an enemy ship.");
    d = &CS->cards[starbase_card_find(CS, "tractor_tug")];
    starbase_ability_text(&d->commands[0].ab, 3, buf, sizeof buf);
    CHECK_EQ_STR(buf, "Management, 2 ISK: return an enemy ship with price 3 "
                      "or less to its owner's hand.");
}

static void test_catalog_json(void)
{
    json_t *cat = starbase_catalog();
    REQUIRE(cat);
    CHECK_EQ_INT(json_array_size(json_object_get(cat, "cards")), CS->ncards);
    CHECK_EQ_INT(json_array_size(json_object_get(cat, "starbases")),
                 CS->nstations);
    CHECK_EQ_INT(json_array_size(json_object_get(cat, "markets")),
                 CS->nmarkets);
    CHECK_EQ_INT(json_integer_value(json_object_get(
                     json_object_get(cat, "setup"), "market_size")),
                 CS->setup.market_size);
    const json_t *card =
        json_array_get(json_object_get(cat, "cards"),
                       (size_t)starbase_card_find(CS, "tractor_tug"));
    CHECK_EQ_STR(json_string_value(json_object_get(card, "kind")), "ship");
    const json_t *cmd = json_array_get(json_object_get(card, "commands"), 0);
    CHECK_EQ_STR(json_string_value(json_object_get(cmd, "kind")), "bounce");
    CHECK_EQ_INT(json_integer_value(json_object_get(cmd, "power")), 2);
    CHECK(json_object_get(cmd, "max_price") == NULL);
    CHECK_EQ_STR(json_string_value(json_object_get(cmd, "text")),
                 "Tow 2 (management, 2 ISK): return an enemy ship with price 2 "
                 "or less to its owner's hand.");
    card = json_array_get(json_object_get(cat, "cards"),
                          (size_t)starbase_card_find(CS, "tax_reform"));
    CHECK_EQ_STR(json_string_value(json_object_get(card, "duration")),
                 "infinite");
    const json_t *ab = json_array_get(json_object_get(card, "abilities"), 0);
    CHECK_EQ_INT(json_integer_value(json_object_get(ab, "amount")), 1);
    CHECK_EQ_STR(json_string_value(json_object_get(ab, "text")),
                 "You get +1 income.");
    json_decref(cat);
}

/* The doc's card list is the generated one (run with --doc to refresh). */
static void test_doc_card_list_is_current(void)
{
    const char *root = getenv("CONCLAVE_ROOT");
    char path[512];
    snprintf(path, sizeof path, "%s/docs/games/starbase.md",
             root && *root ? root : ".");
    FILE *f = fopen(path, "rb");
    REQUIRE(f);
    static char doc[300000];
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
           "%s is stale: run build/tests/test_starbase_cards --doc", path);
    free(want);
}

/* --------------------------------------------------------- validation -- */

/* A small valid document: one card of each kind (s, l, n, o, t), one more
 * card if card is not empty (card 5), two markets of 10 cards and one more
 * market if market is not empty (market 2). */
static char *doc_with(const char *card, const char *market)
{
    static const char *fmt =
        "{\"format\": \"starbase-cards/1\",\n"
        " \"setup\": {\"min_players\": 2, \"max_players\": 2, \"start_hand\": "
        "2, \"hand_limit\": 5, \"start_isk\": 1, \"market_size\": 10, "
        "\"max_copies\": 6},\n"
        " \"starbases\": [{\"key\": \"b\", \"name\": \"B\", "
        "\"upgrade_price\": 5, \"front\": {\"income\": 2, \"hull\": 10, "
        "\"attack\": 1, \"slots\": 1}, \"back\": {\"name\": \"B2\", "
        "\"income\": 3, \"hull\": 12, \"attack\": 1, \"slots\": 2}}],\n"
        " \"cards\": [\n"
        "  {\"key\": \"s\", \"name\": \"S\", \"kind\": \"ship\", \"price\": 1, "
        "\"attack\": 1, \"defence\": 1, \"commands\": [{\"name\": \"C\", "
        "\"power\": 1, \"kind\": \"income\", \"timing\": \"passive\", "
        "\"target\": \"you\"}]},\n"
        "  {\"key\": \"l\", \"name\": \"L\", \"kind\": \"location\", "
        "\"price\": 1, \"region\": \"home\", \"income\": 1},\n"
        "  {\"key\": \"n\", \"name\": \"N\", \"kind\": \"news\", \"price\": 1, "
        "\"abilities\": [{\"kind\": \"draw\", \"timing\": \"play\", "
        "\"target\": \"you\", \"amount\": 1}]},\n"
        "  {\"key\": \"o\", \"name\": \"O\", \"kind\": \"outer_region\", "
        "\"price\": 1, \"income\": 1},\n"
        "  {\"key\": \"t\", \"name\": \"T\", \"kind\": \"structure\", "
        "\"price\": 1, \"abilities\": [{\"kind\": \"income\", \"timing\": "
        "\"passive\", \"target\": \"you\", \"amount\": 1}]}%s%s],\n"
        " \"markets\": [\n"
        "  {\"key\": \"m1\", \"name\": \"M1\", \"starbase\": \"b\", "
        "\"outer_regions\": [\"o\"], \"cards\": [[\"s\", 6], [\"l\", 4]]},\n"
        "  {\"key\": \"m2\", \"name\": \"M2\", \"starbase\": \"b\", "
        "\"outer_regions\": [\"o\"], \"cards\": [[\"n\", 5], [\"t\", 5]]}"
        "%s%s]}";
    const char *sep1 = *card ? ",\n  " : "", *sep2 = *market ? ",\n  " : "";
    size_t n = strlen(fmt) + strlen(card) + strlen(market) + 16;
    char *out = malloc(n);
    if (!out)
        abort();
    snprintf(out, n, fmt, sep1, card, sep2, market);
    return out;
}

/* text with its first `from` replaced by `to` (malloc'd; aborts when from
 * is missing: a broken test). */
static char *replaced(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    if (!at)
        abort();
    size_t n = strlen(text) - strlen(from) + strlen(to) + 1;
    char *out = malloc(n);
    if (!out)
        abort();
    snprintf(out, n, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    return out;
}

static int parse_text(const char *text, engine_error *err)
{
    static starbase_cardset cs;
    return starbase_cards_parse(text, strlen(text), &cs, err);
}

/* A location (card 5, key y) with one ability (the JSON object text). */
#define LOC_AB(ab)                                                             \
    "{\"key\": \"y\", \"name\": \"Y\", \"kind\": \"location\", \"price\": "    \
    "2, \"region\": \"any\", \"income\": 0, \"abilities\": [" ab "]}"
/* A structure with one ability. */
#define STR_AB(ab)                                                             \
    "{\"key\": \"y\", \"name\": \"Y\", \"kind\": \"structure\", \"price\": "   \
    "2, \"abilities\": [" ab "]}"
/* A news with extra fields (text starting with a comma, or "") and the
 * abilities given. */
#define NEWS(extra, abs)                                                       \
    "{\"key\": \"y\", \"name\": \"Y\", \"kind\": \"news\", \"price\": 2" extra \
    ", \"abilities\": [" abs "]}"
/* A ship with extra fields and the commands given. */
#define SHIP(extra, cmds)                                                      \
    "{\"key\": \"y\", \"name\": \"Y\", \"kind\": \"ship\", \"price\": 2, "     \
    "\"attack\": 1, \"defence\": 2" extra ", \"commands\": [" cmds "]}"
#define DRAW_PLAY                                                              \
    "{\"kind\": \"draw\", \"timing\": \"play\", \"target\": \"you\", "         \
    "\"amount\": 1}"
#define INCOME_PASSIVE                                                         \
    "{\"kind\": \"income\", \"timing\": \"passive\", \"target\": \"you\", "    \
    "\"amount\": 1}"

static void test_validator_accepts_small_document(void)
{
    char *text =
        doc_with(SHIP(", \"assembly\": 2",
                      "{\"name\": \"Tow\", \"power\": 2, \"kind\": \"bounce\", "
                      "\"timing\": \"management\", \"target\": \"enemy_ship\", "
                      "\"cost\": 2}"),
                 "");
    engine_error err = {0};
    starbase_cardset *cs = malloc(sizeof *cs);
    if (!cs)
        free(text);
    REQUIRE(cs);
    CHECKF(starbase_cards_parse(text, strlen(text), cs, &err) == 0, "%s",
           err.msg);
    CHECK_EQ_INT(cs->ncards, 6);
    CHECK_EQ_INT(cs->nmarkets, 2);
    CHECK_EQ_INT(cs->cards[5].commands[0].ab.max_price, 2);
    CHECK_EQ_INT(cs->cards[5].commands[0].ab.amount, 0);
    CHECK_EQ_INT(cs->markets[1].cards[9], starbase_card_find(cs, "t"));
    /* Layout does not change the set's identity; the data does. */
    char id[65];
    memcpy(id, cs->sha256, sizeof id);
    char *spaced = replaced(text, "\"format\": ", "\"format\" :\n ");
    CHECK_EQ_INT(parse_text(spaced, &err), 0);
    CHECK_EQ_INT(starbase_cards_parse(spaced, strlen(spaced), cs, &err), 0);
    CHECK_EQ_STR(cs->sha256, id);
    char *other = replaced(text, "\"start_isk\": 1", "\"start_isk\": 2");
    CHECK_EQ_INT(starbase_cards_parse(other, strlen(other), cs, &err), 0);
    CHECK(strcmp(cs->sha256, id) != 0);
    free(other);
    free(spaced);
    free(cs);
    free(text);
}

typedef struct bad_case {
    const char *card, *market, *want;
} bad_case;

static const bad_case bad_abilities[] = {
    {LOC_AB("{\"kind\": \"teleport\"}"), "",
     "cards.json card 5 (y): abilities[0].kind must be one of income, isk"},
    {LOC_AB("{\"kind\": \"income\", \"timing\": \"management\", \"target\": "
            "\"you\", \"amount\": 1}"),
     "", "card 5 (y): abilities[0].timing of income must be passive"},
    {LOC_AB("{\"kind\": \"draw\", \"timing\": \"management\", \"target\": "
            "\"opponent\", \"amount\": 1}"),
     "", "card 5 (y): abilities[0].target of draw must be you"},
    {LOC_AB("{\"kind\": \"damage\", \"timing\": \"instant\", \"target\": "
            "\"enemy_ships_here\"}"),
     "", "(y): abilities[0].amount of damage must be an integer 1..6"},
    {LOC_AB("{\"kind\": \"draw\", \"timing\": \"management\", \"target\": "
            "\"you\", \"amount\": 4}"),
     "", "(y): abilities[0].amount of draw must be an integer 1..3"},
    {LOC_AB("{\"kind\": \"bounce\", \"timing\": \"management\", \"target\": "
            "\"enemy_ship\", \"amount\": 1}"),
     "", "(y): abilities[0].amount is not for bounce"},
    {LOC_AB("{\"kind\": \"damage\", \"timing\": \"instant\", \"target\": "
            "\"enemy_ship\", \"amount\": 1, \"max_price\": 2}"),
     "", "(y): abilities[0].max_price is only for bounce, destroy and"},
    {LOC_AB("{\"kind\": \"destroy\", \"timing\": \"instant\", \"target\": "
            "\"enemy_ship\", \"max_price\": 9}"),
     "", "(y): abilities[0].max_price must be an integer 0..8"},
    {LOC_AB("{\"kind\": \"aura\", \"timing\": \"passive\", \"target\": "
            "\"own_ships_here\", \"amount\": 1}"),
     "", "(y): abilities[0].stat must be attack, defence, power or hull"},
    {LOC_AB("{\"kind\": \"income\", \"timing\": \"passive\", \"target\": "
            "\"you\", \"amount\": 1, \"stat\": \"attack\"}"),
     "", "(y): abilities[0].stat is only for aura"},
    {LOC_AB("{\"kind\": \"aura\", \"timing\": \"passive\", \"target\": "
            "\"own_ships_here\", \"stat\": \"hull\", \"amount\": 1}"),
     "", "(y): abilities[0].target of a hull aura must be own_starbase"},
    {STR_AB("{\"kind\": \"aura\", \"timing\": \"passive\", \"target\": "
            "\"own_starbase\", \"stat\": \"defence\", \"amount\": 1}"),
     "", "(y): abilities[0].target own_starbase takes only the stats"},
    {STR_AB("{\"kind\": \"assembly\", \"timing\": \"passive\", \"target\": "
            "\"own_ship\", \"amount\": 1}"),
     "", "(y): abilities[0].target of a passive assembly must be own_ships"},
    {STR_AB("{\"kind\": \"warps\", \"timing\": \"management\", \"target\": "
            "\"own_ships\", \"amount\": 1}"),
     "", "(y): abilities[0].target of a one-shot warps must be self or"},
    {STR_AB("{\"kind\": \"warps\", \"timing\": \"passive\", \"target\": "
            "\"own_ship\", \"amount\": 1}"),
     "", "(y): abilities[0].target of a passive warps must be self,"},
    {STR_AB("{\"kind\": \"income\", \"timing\": \"passive\", \"target\": "
            "\"you\", \"amount\": 1, \"cost\": 1}"),
     "", "(y): abilities[0].cost is only for management and instant"},
    {STR_AB("{\"kind\": \"isk\", \"timing\": \"management\", \"target\": "
            "\"you\", \"amount\": 1, \"cost\": 9}"),
     "", "(y): abilities[0].cost must be an integer 1..5 ISK"},
    {STR_AB("{\"kind\": \"isk\", \"timing\": \"management\", \"target\": "
            "\"you\", \"amount\": 1, \"colour\": \"red\"}"),
     "", "(y): abilities[0] has unknown field \"colour\""},
    {STR_AB("\"income\""), "", "(y): abilities[0] must be an object"},
    /* What the card kind allows of an ability. */
    {STR_AB(DRAW_PLAY), "", "(y): abilities[0].timing play is only for news"},
    {NEWS("", "{\"kind\": \"draw\", \"timing\": \"management\", \"target\": "
              "\"you\", \"amount\": 1}"),
     "", "(y): abilities[0].timing of a news must be play or passive"},
    {LOC_AB("{\"kind\": \"warps\", \"timing\": \"passive\", \"target\": "
            "\"self\", \"amount\": 1}"),
     "", "(y): abilities[0].target self is only for ship commands"},
    {STR_AB("{\"kind\": \"aura\", \"timing\": \"passive\", \"target\": "
            "\"own_ships_here\", \"stat\": \"attack\", \"amount\": 1}"),
     "", "(y): abilities[0].target own_ships_here is only for cards in a"},
    {LOC_AB("{\"kind\": \"pin\", \"timing\": \"passive\", \"target\": "
            "\"enemy_ship\"}"),
     "", "(y): abilities[0].target enemy_ship is chosen: a passive ability"},
};

static const bad_case bad_cards[] = {
    /* News. */
    {NEWS("", INCOME_PASSIVE), "", "card 5 (y): duration is needed"},
    {NEWS(", \"duration\": 2", DRAW_PLAY), "",
     "card 5 (y): duration is only for a news with a passive ability"},
    {NEWS(", \"duration\": 5", INCOME_PASSIVE), "",
     "card 5 (y): duration must be an integer 1..4 or \"infinite\""},
    {NEWS(", \"duration\": \"forever\"", INCOME_PASSIVE), "",
     "card 5 (y): duration must be an integer 1..4 or \"infinite\""},
    {NEWS(", \"instant\": false", DRAW_PLAY), "",
     "card 5 (y): instant must be true when present"},
    {NEWS("", "{\"kind\": \"bounce\", \"timing\": \"play\", \"target\": "
              "\"enemy_ship\"}, {\"kind\": \"damage\", \"timing\": \"play\", "
              "\"target\": \"enemy_ship\", \"amount\": 1}"),
     "", "card 5 (y): abilities may name at most one chosen target"},
    {NEWS("", ), "", "card 5 (y): abilities must be an array of 1..3"},
    /* Ships and commands. */
    {SHIP("", ), "", "card 5 (y): commands must be an array of 1..3"},
    {SHIP("", "{\"name\": \"C\", \"power\": 1, \"amount\": 1, \"kind\": "
              "\"income\", \"timing\": \"passive\", \"target\": \"you\"}"),
     "", "(y): commands[0] has unknown field \"amount\""},
    {SHIP("", "{\"name\": \"C\", \"kind\": \"damage\", \"timing\": "
              "\"management\", \"target\": \"enemy_ship\"}"),
     "", "(y): commands[0].power of damage must be an integer 1..6"},
    {SHIP("", "{\"name\": \"C\", \"power\": 1, \"kind\": \"pin\", "
              "\"timing\": \"passive\", \"target\": \"enemy_ships_here\"}"),
     "", "(y): commands[0].power is not for pin"},
    {SHIP("", "{\"name\": \"C\", \"power\": 1, \"kind\": \"income\", "
              "\"timing\": \"passive\", \"target\": \"you\"}, {\"name\": "
              "\"C\", \"power\": 1, \"kind\": \"income\", \"timing\": "
              "\"passive\", \"target\": \"you\"}"),
     "", "(y): commands[1] repeats the command name \"C\""},
    {SHIP("", "{\"power\": 1, \"kind\": \"income\", \"timing\": "
              "\"passive\", \"target\": \"you\"}"),
     "", "(y): commands[0].name must be a string of 1..47 bytes"},
    {SHIP("", "{\"name\": \"C\", \"power\": 1, \"kind\": \"income\", "
              "\"timing\": \"play\", \"target\": \"you\"}"),
     "", "(y): commands[0].timing of income must be passive"},
    {SHIP("", "{\"name\": \"C\", \"power\": 1, \"kind\": \"isk\", "
              "\"timing\": \"play\", \"target\": \"you\"}"),
     "", "(y): commands[0].timing play is only for news"},
    {SHIP(", \"assembly\": 5", "{\"name\": \"C\", \"power\": 1, \"kind\": "
                               "\"income\", \"timing\": \"passive\", "
                               "\"target\": \"you\"}"),
     "", "card 5 (y): assembly must be an integer 1..4"},
    {"{\"key\": \"y\", \"name\": \"Y\", \"kind\": \"ship\", \"price\": 2, "
     "\"attack\": 1, \"defence\": 0, \"commands\": []}",
     "", "card 5 (y): defence must be an integer 1..9"},
    /* Any card. */
    {"{\"key\": \"y\", \"name\": \"Y\", \"kind\": \"planet\", \"price\": 1}",
     "", "card 5 (y): kind must be ship, location, news, outer_region or"},
    {"{\"key\": \"y\", \"name\": \"Y\", \"kind\": \"outer_region\", "
     "\"price\": 1, \"income\": 1, \"region\": \"home\"}",
     "", "card 5 (y): region is not a field of a outer_region"},
    {"{\"key\": \"y\", \"name\": \"Y\", \"kind\": \"outer_region\", "
     "\"price\": 9, \"income\": 1}",
     "", "card 5 (y): price must be an integer 0..8"},
    {"{\"key\": \"y\", \"name\": \"Y\", \"kind\": \"outer_region\", "
     "\"price\": 1}",
     "", "card 5 (y): income must be an integer 0..4"},
    {"{\"key\": \"y\", \"name\": \"Y\", \"kind\": \"location\", \"price\": "
     "1, \"region\": \"moon\", \"income\": 1}",
     "", "card 5 (y): region must be home, outer or any"},
    {"{\"key\": \"Y!\", \"name\": \"Y\", \"kind\": \"outer_region\", "
     "\"price\": 1, \"income\": 1}",
     "", "card 5: key must be a string of [a-z0-9_]"},
    {"{\"key\": \"s\", \"name\": \"Y\", \"kind\": \"outer_region\", "
     "\"price\": 1, \"income\": 1}",
     "", "card 5 (s): key repeats card 0"},
    {"{\"key\": \"y\", \"name\": \"S\", \"kind\": \"outer_region\", "
     "\"price\": 1, \"income\": 1}",
     "", "card 5 (y): name repeats the name of card 0 (s)"},
    /* Markets. */
    {"",
     "{\"key\": \"m3\", \"name\": \"M3\", \"starbase\": \"b\", "
     "\"outer_regions\": [\"o\"], \"cards\": [[\"s\", 6], [\"l\", 3]]}",
     "market 2 (m3): cards hold 9 cards: a market has exactly 10"},
    {"",
     "{\"key\": \"m3\", \"name\": \"M3\", \"starbase\": \"b\", "
     "\"outer_regions\": [\"o\"], \"cards\": [[\"s\", 7], [\"l\", 3]]}",
     "market 2 (m3): cards entry 0 (s) count must be an integer 1..6"},
    {"",
     "{\"key\": \"m3\", \"name\": \"M3\", \"starbase\": \"b\", "
     "\"outer_regions\": [\"o\"], \"cards\": [[\"o\", 5], [\"l\", 5]]}",
     "market 2 (m3): cards entry 0 (o) is an outer region"},
    {"",
     "{\"key\": \"m3\", \"name\": \"M3\", \"starbase\": \"b\", "
     "\"outer_regions\": [\"o\"], \"cards\": [[\"zz\", 5], [\"l\", 5]]}",
     "market 2 (m3): cards entry 0 must be [card key, count] naming a card"},
    {"",
     "{\"key\": \"m3\", \"name\": \"M3\", \"starbase\": \"b\", "
     "\"outer_regions\": [\"o\"], \"cards\": [[\"s\", 5], [\"s\", 5]]}",
     "market 2 (m3): cards entry 1 repeats s"},
    {"",
     "{\"key\": \"m3\", \"name\": \"M3\", \"starbase\": \"b\", "
     "\"outer_regions\": [\"s\"], \"cards\": [[\"s\", 5], [\"l\", 5]]}",
     "market 2 (m3): outer_regions entry 0 names no outer region (\"s\")"},
    {"",
     "{\"key\": \"m3\", \"name\": \"M3\", \"starbase\": \"b\", "
     "\"outer_regions\": [\"o\", \"o\"], \"cards\": [[\"s\", 5], [\"l\", 5]]}",
     "market 2 (m3): outer_regions entry 1 repeats o"},
    {"",
     "{\"key\": \"m3\", \"name\": \"M3\", \"starbase\": \"q\", "
     "\"outer_regions\": [\"o\"], \"cards\": [[\"s\", 5], [\"l\", 5]]}",
     "market 2 (m3): starbase must be the key of one of the starbases"},
    {"",
     "{\"key\": \"m1\", \"name\": \"M3\", \"starbase\": \"b\", "
     "\"outer_regions\": [\"o\"], \"cards\": [[\"s\", 5], [\"l\", 5]]}",
     "market 2 (m1): key repeats another market"},
};

static void check_bad_cases(const bad_case *cases, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char *text = doc_with(cases[i].card, cases[i].market);
        engine_error err = {0};
        int rc = parse_text(text, &err);
        CHECKF(rc == ENGINE_EINVALID, "case %zu accepted (%s)", i,
               cases[i].want);
        CHECKF(strstr(err.msg, cases[i].want) != NULL,
               "case %zu: message \"%s\" lacks \"%s\"", i, err.msg,
               cases[i].want);
        free(text);
    }
}

static void test_validator_rejects_bad_abilities(void)
{
    check_bad_cases(bad_abilities,
                    sizeof bad_abilities / sizeof *bad_abilities);
}

static void test_validator_rejects_bad_cards_and_markets(void)
{
    check_bad_cases(bad_cards, sizeof bad_cards / sizeof *bad_cards);
}

/* Whole-document faults: each replaces one piece of the valid document. */
static void test_validator_rejects_bad_documents(void)
{
    static const struct {
        const char *from, *to, *want;
    } cases[] = {
        {"{\"format\"", "{{\"format\"", "cards.json line 1"},
        {"starbase-cards/1", "sprint-cards/1", "format must be"},
        {"\"format\": ", "\"extra\": 1, \"format\": ",
         "extra is not a known field"},
        {"\"min_players\": 2", "\"min_players\": 3",
         "setup: min_players must not be above max_players"},
        {"\"max_players\": 2", "\"max_players\": 5",
         "setup: max_players must be an integer 2..4"},
        {"\"start_hand\": 2", "\"start_hand\": 6",
         "setup: start_hand must be at most hand_limit"},
        {"\"max_copies\": 6", "\"max_copies\": 6, \"turns\": 9",
         "setup: turns is not a known field"},
        {"\"hull\": 12", "\"hull\": 9",
         "starbase 0 (b): back must be at least the front"},
        {"\"back\": {\"name\": \"B2\", ", "\"back\": {",
         "starbase 0 (b): back.name must be a string"},
        {"\"front\": {", "\"front\": {\"name\": \"F\", ",
         "starbase 0 (b): front.name is the starbase's name"},
        {"\"front\": {\"income\": 2", "\"front\": {\"income\": 12",
         "starbase 0 (b): front.income must be an integer 0..9"},
        {"\"upgrade_price\": 5", "\"upgrade_price\": 0",
         "starbase 0 (b): upgrade_price must be an integer 1..20"},
        {"\"kind\": \"structure\", \"price\": 1, \"abilities\": "
         "[{\"kind\": \"income\", \"timing\": \"passive\", \"target\": "
         "\"you\", \"amount\": 1}]}",
         "\"kind\": \"outer_region\", \"price\": 1, \"income\": 1}",
         "cards.json: cards has no structure"},
        {"\"max_players\": 2", "\"max_players\": 3",
         "markets must be an array of 3..8"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *base = doc_with("", "");
        char *text = replaced(base, cases[i].from, cases[i].to);
        engine_error err = {0};
        CHECKF(parse_text(text, &err) == ENGINE_EINVALID, "case %zu accepted",
               i);
        CHECKF(strstr(err.msg, cases[i].want) != NULL,
               "case %zu: message \"%s\" lacks \"%s\"", i, err.msg,
               cases[i].want);
        free(text);
        free(base);
    }
}

int main(int argc, char **argv)
{
    engine_error err = {0};
    if (starbase_cards_init(&err) != 0) {
        fprintf(stderr, "starbase_cards_init: %s\n", err.msg);
        return 1;
    }
    CS = starbase_cards();
    if (argc > 1 && strcmp(argv[1], "--doc") == 0) {
        char *list = card_list(CS);
        fputs(list, stdout);
        free(list);
        return 0;
    }
    RUN(test_builtin_cards_load);
    RUN(test_builtin_cards_use_whole_vocabulary);
    RUN(test_markets_keep_setup_rules);
    RUN(test_lookups);
    RUN(test_texts_generated_from_data);
    RUN(test_command_power_changes_text);
    RUN(test_catalog_json);
    RUN(test_doc_card_list_is_current);
    RUN(test_validator_accepts_small_document);
    RUN(test_validator_rejects_bad_abilities);
    RUN(test_validator_rejects_bad_cards_and_markets);
    RUN(test_validator_rejects_bad_documents);
    return TEST_SUMMARY();
}

/*
 * test_carddata.c - the shared data-file scaffolding (engine/carddata.h)
 * on a small made-up card file: a good file parses once into its table
 * with the identity, a malformed or wrong one is refused with a reason
 * naming the file, the item and the field, repeated keys and names are
 * caught, and lookups by key find what is there and nothing else.
 */
#include "engine/carddata.h"
#include "tests/unit/test.h"

#include <stddef.h>

#define KEY_MAX 16
#define NAME_MAX 24

typedef struct card {
    char key[KEY_MAX];
    char name[NAME_MAX];
    int cost;
} card;

typedef struct deck {
    card cards[8];
    int ncards;
    char sha256[2 * ENGINE_HASH_BYTES + 1];
} deck;

static int parse_calls;

/* A parser written the way a ruleset writes one with the helpers. */
static int parse_deck(const json_t *root, void *table, engine_error *err)
{
    static const char *const known[] = {"key", "name", "cost", "text", NULL};
    deck *d = table;
    const json_t *jc = json_object_get(root, "cards");
    parse_calls++;
    if (!json_is_array(jc) || json_array_size(jc) > 8)
        return engine_fail(err, ENGINE_EINVALID, "cards",
                           "deck.json: cards must be an array of 0..8");
    for (size_t i = 0; i < json_array_size(jc); i++) {
        const json_t *c = json_array_get(jc, i);
        card *k = &d->cards[i];
        char where[48];
        snprintf(where, sizeof where, "card %zu", i);
        if (engine_carddata_key(c, "deck.json", where, k->key, KEY_MAX, err))
            return ENGINE_EINVALID;
        snprintf(where, sizeof where, "card %zu (%s)", i, k->key);
        const char *bad = engine_carddata_unknown(c, known);
        if (bad)
            return engine_carddata_fail(err, "deck.json", where, bad,
                                        "is not a known field");
        if (engine_carddata_string(c, "name", "deck.json", where, "name",
                                   k->name, NAME_MAX, err))
            return ENGINE_EINVALID;
        if (engine_carddata_int(c, "cost", 1, 9, 1, &k->cost) < 0)
            return engine_carddata_fail(err, "deck.json", where, "cost",
                                        "must be an integer %d..%d", 1, 9);
        if (engine_carddata_unique(d->cards, (int)i, sizeof *k,
                                   offsetof(card, name), "deck.json", where,
                                   err))
            return ENGINE_EINVALID;
        d->ncards++;
    }
    return 0;
}

static const engine_carddata deck_file = {"deck.json", sizeof(deck),
                                          offsetof(deck, sha256), parse_deck};

static const char good[] =
    "{\"cards\": [{\"key\": \"scout\", \"name\": \"Scout\", \"text\": \"A\"},"
    " {\"key\": \"cruiser\", \"name\": \"Cruiser\", \"cost\": 4}]}";

/* The message of parsing text, which must fail. */
static const char *refusal(const char *text)
{
    static engine_error err;
    static deck d;
    memset(&err, 0, sizeof err);
    if (engine_carddata_parse(&deck_file, text, strlen(text), &d, &err) !=
        ENGINE_EINVALID)
        return "(accepted)";
    return err.msg;
}

static void test_good_file(void)
{
    deck d;
    engine_error err = {0};
    memset(&d, 0x5a, sizeof d); /* parse zeroes the table first */
    REQUIRE(engine_carddata_parse(&deck_file, good, strlen(good), &d, &err) ==
            0);
    CHECK_EQ_INT(d.ncards, 2);
    CHECK_EQ_STR(d.cards[0].key, "scout");
    CHECK_EQ_STR(d.cards[1].name, "Cruiser");
    CHECK_EQ_INT(d.cards[0].cost, 1); /* absent: the default */
    CHECK_EQ_INT(d.cards[1].cost, 4);
    CHECK_EQ_INT(d.cards[2].key[0], 0);
    CHECK_EQ_INT(strlen(d.sha256), 64);
    /* The identity is the data's, the same as engine_data_identity's. */
    json_t *root = json_loads(good, 0, NULL);
    char want[2 * ENGINE_HASH_BYTES + 1];
    REQUIRE(root);
    CHECK_EQ_INT(engine_data_identity(root, want, &err), 0);
    CHECK_EQ_STR(d.sha256, want);
    json_decref(root);
    /* Texts are presentation: rewording keeps the identity. */
    static const char reworded[] =
        "{\"cards\": [{\"key\": \"scout\", \"name\": \"Scout\", \"text\": "
        "\"Something else\"}, {\"key\": \"cruiser\", \"name\": "
        "\"Cruiser\", \"cost\": 4}]}";
    deck r;
    REQUIRE(engine_carddata_parse(&deck_file, reworded, strlen(reworded), &r,
                                  &err) == 0);
    CHECK_EQ_STR(r.sha256, d.sha256);
}

static void test_init_once(void)
{
    static deck table;
    int ready = 0;
    engine_error err = {0};
    parse_calls = 0;
    /* A bad file leaves the table not ready, and init may be tried again. */
    CHECK_EQ_INT(engine_carddata_init(&deck_file, "{", 1, &table, &ready, &err),
                 ENGINE_EINVALID);
    CHECK_EQ_INT(ready, 0);
    CHECK_EQ_INT(engine_carddata_init(&deck_file, good, sizeof good - 1, &table,
                                      &ready, &err),
                 0);
    CHECK_EQ_INT(ready, 1);
    CHECK_EQ_INT(parse_calls, 1);
    /* Once ready, init does nothing: the table is never written again. */
    CHECK_EQ_INT(engine_carddata_init(&deck_file, "{", 1, &table, &ready, &err),
                 0);
    CHECK_EQ_INT(parse_calls, 1);
    CHECK_EQ_INT(table.ncards, 2);
}

static void test_malformed_files(void)
{
    CHECK(strstr(refusal("{\"cards\": ["), "deck.json line 1") != NULL);
    /* Duplicate JSON members are refused by the loader. */
    CHECK(strstr(refusal("{\"cards\": [], \"cards\": []}"), "deck.json") !=
          NULL);
    CHECK_EQ_STR(refusal("{\"cards\": 3}"),
                 "deck.json: cards must be an array of 0..8");
    CHECK_EQ_STR(refusal("{\"cards\": [{\"key\": \"Scout!\"}]}"),
                 "deck.json card 0: key must be a string of [a-z0-9_], "
                 "1..15 characters");
    CHECK_EQ_STR(refusal("{\"cards\": [{\"name\": \"A\"}]}"),
                 "deck.json card 0: key must be a string of [a-z0-9_], "
                 "1..15 characters");
    CHECK_EQ_STR(refusal("{\"cards\": [{\"key\": \"a\", \"name\": \"\"}]}"),
                 "deck.json card 0 (a): name must be a string of 1..23 bytes");
    CHECK_EQ_STR(refusal("{\"cards\": [{\"key\": \"a\", \"name\": \"A\", "
                         "\"cost\": 10}]}"),
                 "deck.json card 0 (a): cost must be an integer 1..9");
    CHECK_EQ_STR(refusal("{\"cards\": [{\"key\": \"a\", \"name\": \"A\", "
                         "\"cost\": \"2\"}]}"),
                 "deck.json card 0 (a): cost must be an integer 1..9");
    CHECK_EQ_STR(refusal("{\"cards\": [{\"key\": \"a\", \"name\": \"A\", "
                         "\"shiny\": true}]}"),
                 "deck.json card 0 (a): shiny is not a known field");
    /* The error's field is the field at fault. */
    engine_error err = {0};
    deck d;
    static const char bad_cost[] =
        "{\"cards\": [{\"key\": \"a\", \"name\": \"A\", \"cost\": 0}]}";
    engine_carddata_parse(&deck_file, bad_cost, strlen(bad_cost), &d, &err);
    CHECK_EQ_INT(err.code, ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "cost");
}

static void test_repeated_keys_and_names(void)
{
    CHECK_EQ_STR(refusal("{\"cards\": [{\"key\": \"a\", \"name\": \"A\"}, "
                         "{\"key\": \"b\", \"name\": \"B\"}, {\"key\": \"a\", "
                         "\"name\": \"C\"}]}"),
                 "deck.json card 2 (a): key repeats card 0");
    CHECK_EQ_STR(refusal("{\"cards\": [{\"key\": \"a\", \"name\": \"A\"}, "
                         "{\"key\": \"b\", \"name\": \"B\"}, {\"key\": \"c\", "
                         "\"name\": \"B\"}]}"),
                 "deck.json card 2 (c): name repeats the name of card 1 (b)");
    /* Earlier cards first: the key of card 1 and the name of card 0. */
    CHECK_EQ_STR(refusal("{\"cards\": [{\"key\": \"a\", \"name\": \"A\"}, "
                         "{\"key\": \"b\", \"name\": \"B\"}, {\"key\": \"b\", "
                         "\"name\": \"A\"}]}"),
                 "deck.json card 2 (b): name repeats the name of card 0 (a)");
}

static void test_lookups(void)
{
    deck d;
    engine_error err = {0};
    REQUIRE(engine_carddata_parse(&deck_file, good, strlen(good), &d, &err) ==
            0);
    CHECK_EQ_INT(
        engine_carddata_find(d.cards, d.ncards, sizeof d.cards[0], "scout"), 0);
    CHECK_EQ_INT(
        engine_carddata_find(d.cards, d.ncards, sizeof d.cards[0], "cruiser"),
        1);
    CHECK_EQ_INT(engine_carddata_find(d.cards, d.ncards, sizeof d.cards[0],
                                      "dreadnought"),
                 -1);
    CHECK_EQ_INT(
        engine_carddata_find(d.cards, d.ncards, sizeof d.cards[0], "Scout"),
        -1);
    CHECK_EQ_INT(
        engine_carddata_find(d.cards, d.ncards, sizeof d.cards[0], NULL), -1);
    /* Only the first n items count. */
    CHECK_EQ_INT(engine_carddata_find(d.cards, 1, sizeof d.cards[0], "cruiser"),
                 -1);
    static const char *const names[] = {"static", "action", "sudden"};
    CHECK_EQ_INT(engine_carddata_lookup(names, 3, "sudden"), 2);
    CHECK_EQ_INT(engine_carddata_lookup(names, 3, "later"), -1);
    CHECK_EQ_INT(engine_carddata_lookup(names, 2, "sudden"), -1);
    CHECK_EQ_INT(engine_carddata_lookup(names, 3, NULL), -1);
}

static void test_keys(void)
{
    CHECK(engine_carddata_is_key("ore_barge_2", KEY_MAX));
    CHECK(!engine_carddata_is_key("", KEY_MAX));
    CHECK(!engine_carddata_is_key(NULL, KEY_MAX));
    CHECK(!engine_carddata_is_key("Ore", KEY_MAX));
    CHECK(!engine_carddata_is_key("ore-barge", KEY_MAX));
    CHECK(engine_carddata_is_key("abcdefghijklmno", KEY_MAX)); /* 15 */
    CHECK(!engine_carddata_is_key("abcdefghijklmnop", KEY_MAX));
}

int main(void)
{
    RUN(test_good_file);
    RUN(test_init_once);
    RUN(test_malformed_files);
    RUN(test_repeated_keys_and_names);
    RUN(test_lookups);
    RUN(test_keys);
    return TEST_SUMMARY();
}

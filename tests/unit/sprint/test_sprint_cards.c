/*
 * test_sprint_cards.c - Galactic Sprint's card data: the built-in
 * cards.json loads with the promised shape, and bad card files are
 * rejected naming the card and field.
 */
#include "tests/unit/sprint/sprint_test.h"

/* ------------------------------------------------------ card data -- */

static void test_builtin_cards(void)
{
    CHECK(CS->ndeck >= 100 && CS->ndeck <= 124);
    CHECK(CS->ndesigns >= 51);
    const sprint_design *sv = &CS->designs[CS->survey];
    CHECK(sv->central && sv->kind == SPRINT_DEVELOPMENT);
    CHECK_EQ_INT(sv->cost, 1);
    CHECK_EQ_INT(sv->explore, 2);
    CHECK_EQ_INT(sv->military, 1);
    CHECK_EQ_INT(sv->income, 1);
    /* Every ability kind the seed names is in the set. */
    int seen[SPRINT_AB_COUNT] = {0}, vs_rebel = 0, vs_colour = 0, disc_kind = 0,
        disc_colour = 0, rebel = 0, alien = 0;
    for (int i = 0; i < CS->ndesigns; i++) {
        const sprint_design *d = &CS->designs[i];
        rebel += d->faction == SPRINT_REBEL;
        alien += d->faction == SPRINT_ALIEN;
        for (int a = 0; a < d->nab; a++) {
            const sprint_ability *ab = &d->ab[a];
            seen[ab->type]++;
            if (ab->type == SPRINT_AB_MILITARY_VS) {
                vs_rebel += ab->what == SPRINT_W_REBEL_WORLD;
                vs_colour += ab->what >= SPRINT_W_GREY_WORLD &&
                             ab->what <= SPRINT_W_VIOLET_WORLD;
            }
            if (ab->type == SPRINT_AB_DISCOUNT) {
                disc_kind += ab->what <= SPRINT_W_WORLD;
                disc_colour += ab->what >= SPRINT_W_GREY_WORLD;
            }
        }
    }
    for (int t = 0; t < SPRINT_AB_COUNT; t++)
        CHECKF(seen[t] > 0, "ability type %d missing", t);
    CHECK(vs_rebel && vs_colour && disc_kind && disc_colour && rebel && alien);
    json_t *cat = sprint_catalog();
    REQUIRE(cat);
    CHECK_EQ_INT(json_array_size(json_object_get(cat, "instances")), CS->ndeck);
    CHECK_EQ_INT(json_array_size(json_object_get(cat, "cards")), CS->ndesigns);
    json_decref(cat);
}

/* Parse text and expect failure whose message contains want. */
static void expect_bad(const char *text, const char *want)
{
    static sprint_cardset cs;
    engine_error err = {0};
    int rc = sprint_cards_parse(text, strlen(text), &cs, &err);
    CHECKF(rc == ENGINE_EINVALID, "accepted: %s", text);
    CHECKF(strstr(err.msg, want) != NULL, "message \"%s\" lacks \"%s\"",
           err.msg, want);
}

/* The built-in file with one card line replaced by another text. */
static char *mutated(const char *key, const char *replacement)
{
    extern const char sprint_cards_json[];
    const char *src = sprint_cards_json;
    char needle[80];
    snprintf(needle, sizeof needle, "{\"key\": \"%s\"", key);
    const char *at = strstr(src, needle);
    if (!at)
        abort();
    const char *end = strchr(at, '\n');
    if (end[-1] == ',')
        end--;
    size_t n = strlen(src) + strlen(replacement) + 1;
    char *out = malloc(n);
    size_t pre = (size_t)(at - src);
    memcpy(out, src, pre);
    snprintf(out + pre, n - pre, "%s%s", replacement, end);
    return out;
}

/* Ability text is written once, in cards.json: every card with an ability
 * (or the central card) has some, each ability's numbers appear in it, and
 * clients get it unchanged. */
static void test_card_texts(void)
{
    for (int i = 0; i < CS->ndesigns; i++) {
        const sprint_design *d = &CS->designs[i];
        CHECKF((d->nab > 0 || d->central) == (d->text[0] != 0),
               "%s: text \"%s\" for %d abilities", d->key, d->text, d->nab);
        for (int k = 0; k < d->nab; k++) {
            const sprint_ability *a = &d->ab[k];
            int nums[3] = {a->amount, a->every > 1 ? a->every : 0, a->income};
            for (int n = 0; n < 3; n++) {
                char num[16];
                snprintf(num, sizeof num, "%d", nums[n]);
                CHECKF(nums[n] == 0 || strstr(d->text, num),
                       "%s: text \"%s\" does not say %s", d->key, d->text, num);
            }
        }
        json_t *j = sprint_design_json(d);
        CHECK_EQ_STR(json_string_value(json_object_get(j, "text")), d->text);
        json_decref(j);
    }
}

static void test_card_validation_rejects_bad_files(void)
{
    expect_bad("{", "cards.json line");
    expect_bad("{\"format\":\"x\",\"cards\":[]}", "format");
    expect_bad("{\"format\":\"sprint-cards/1\",\"cards\":[]}", "central");
    static const struct {
        const char *key, *line, *want;
    } cases[] = {
        {"salvage_crews",
         "{\"key\": \"salvage_crews\", \"name\": \"Salvage Crews\", \"type\": "
         "\"development\", \"count\": 3, \"cost\": 12}",
         "card 1 (salvage_crews): cost must be an integer 0..9"},
        {"salvage_crews",
         "{\"key\": \"salvage_crews\", \"name\": \"Salvage Crews\", \"type\": "
         "\"development\", \"count\": 3, \"cost\": 1, \"colour\": \"jade\"}",
         "(salvage_crews): colour is only for worlds"},
        {"salvage_crews",
         "{\"key\": \"salvage_crews\", \"name\": \"Salvage Crews\", \"type\": "
         "\"gadget\", \"count\": 3, \"cost\": 1}",
         "(salvage_crews): type must be"},
        {"salvage_crews",
         "{\"key\": \"salvage_crews\", \"name\": \"Salvage Crews\", \"type\": "
         "\"development\", \"count\": 3, \"cost\": 1, \"shiny\": true}",
         "(salvage_crews): shiny is not a known field"},
        {"salvage_crews",
         "{\"key\": \"Salvage\", \"name\": \"Salvage Crews\", \"type\": "
         "\"development\", \"count\": 3, \"cost\": 1}",
         "card 1: key must be"},
        {"salvage_crews",
         "{\"key\": \"orbital_workshop\", \"name\": \"X\", \"type\": "
         "\"development\", \"count\": 3, \"cost\": 1}",
         "key repeats card 1"},
        {"ironhold",
         "{\"key\": \"ironhold\", \"name\": \"Ironhold\", \"type\": \"world\", "
         "\"count\": 2, \"colour\": \"amber\", \"cost\": 2, \"defence\": 2}",
         "(ironhold): defence a world needs exactly one of cost"},
        {"ironhold",
         "{\"key\": \"ironhold\", \"name\": \"Ironhold\", \"type\": \"world\", "
         "\"count\": 2, \"colour\": \"pink\", \"defence\": 2}",
         "(ironhold): colour must be grey, azure"},
        {"ironhold",
         "{\"key\": \"ironhold\", \"name\": \"Ironhold\", \"type\": \"world\", "
         "\"count\": 2, \"colour\": \"amber\", \"cost\": 2, \"faction\": "
         "\"rebel\"}",
         "(ironhold): faction rebel worlds must be military"},
        {"prospectors_guild",
         "{\"key\": \"prospectors_guild\", \"name\": \"Prospectors' Guild\", "
         "\"type\": \"development\", \"count\": 2, \"cost\": 2, "
         "\"abilities\": [{\"type\": \"discount\", \"what\": \"explore_icon\", "
         "\"amount\": 1}]}",
         "(prospectors_guild): abilities[0] discount must target a card kind"},
        {"prospectors_guild",
         "{\"key\": \"prospectors_guild\", \"name\": \"Prospectors' Guild\", "
         "\"type\": \"development\", \"count\": 2, \"cost\": 2, "
         "\"abilities\": [{\"type\": \"convoy\", \"what\": \"world\"}]}",
         "(prospectors_guild): abilities[0] convoy is only for worlds"},
        {"prospectors_guild",
         "{\"key\": \"prospectors_guild\", \"name\": \"Prospectors' Guild\", "
         "\"type\": \"development\", \"count\": 2, \"cost\": 2, "
         "\"abilities\": [{\"type\": \"teleport\"}]}",
         "(prospectors_guild): abilities[0] type must be one of"},
        {"prospectors_guild",
         "{\"key\": \"prospectors_guild\", \"name\": \"Prospectors' Guild\", "
         "\"type\": \"development\", \"count\": 2, \"cost\": 2, "
         "\"abilities\": [{\"type\": \"vp_per\", \"what\": \"world\"}]}",
         "(prospectors_guild): abilities[0] amount must be at least 1"},
        {"prospectors_guild",
         "{\"key\": \"prospectors_guild\", \"name\": \"Prospectors' Guild\", "
         "\"type\": \"development\", \"count\": 2, \"cost\": 2, "
         "\"abilities\": [{\"type\": \"military_vs\", \"what\": "
         "\"development\", \"amount\": 2}]}",
         "military_vs must target rebel, alien or one colour"},
        {"prospectors_guild",
         "{\"key\": \"prospectors_guild\", \"name\": \"Prospectors' Guild\", "
         "\"type\": \"development\", \"count\": 2, \"cost\": 2, "
         "\"abilities\": [{\"type\": \"bonus_if\", \"what\": \"world\"}]}",
         "bonus_if needs amount (VP) or income"},
        {"wayfinder_cadre",
         "{\"key\": \"wayfinder_cadre\", \"name\": \"Wayfinder Cadre\", "
         "\"type\": \"development\", \"central\": true, \"count\": 1, "
         "\"cost\": 1}",
         "(wayfinder_cadre): count must be absent on the central card"},
        {"salvage_crews",
         "{\"key\": \"salvage_crews\", \"name\": \"Salvage Crews\", \"type\": "
         "\"development\", \"count\": 3, \"cost\": 1, \"text\": 7}",
         "(salvage_crews): text must be a string"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *text = mutated(cases[i].key, cases[i].line);
        expect_bad(text, cases[i].want);
        free(text);
    }
    /* The unchanged file parses, and a second central card is refused. */
    extern const char sprint_cards_json[];
    static sprint_cardset cs;
    engine_error err = {0};
    CHECK_EQ_INT(sprint_cards_parse(sprint_cards_json,
                                    strlen(sprint_cards_json), &cs, &err),
                 0);
    char *two = mutated("salvage_crews",
                        "{\"key\": \"salvage_crews\", \"name\": \"Salvage "
                        "Crews\", \"type\": \"development\", \"central\": "
                        "true, \"cost\": 1}");
    expect_bad(two, "only one card may be central");
    free(two);
}

int main(void)
{
    if (sprint_test_init())
        return 1;
    RUN(test_builtin_cards);
    RUN(test_card_texts);
    RUN(test_card_validation_rejects_bad_files);
    return TEST_SUMMARY();
}

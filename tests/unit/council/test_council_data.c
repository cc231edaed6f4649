/*
 * test_council_data.c - Galactic Council's rules data: the built-in
 * council.json loads with the promised shape, and bad data files are
 * rejected with errors naming the section, the item and the field.
 */
#include "engine/rules/council/council_data.h"
#include "tests/unit/test.h"

#include <stdlib.h>

extern const char council_json[];

static const cnc_data *D;

static void test_builtin_data(void)
{
    CHECK(D->nraces >= 8);
    CHECK_EQ_INT(D->nstrategies, 8);
    CHECK(D->ntechs >= 8);
    for (int n = CNC_MIN_PLAYERS; n <= CNC_MAX_PLAYERS; n++) {
        const cnc_template *t = cnc_template_for(D, n);
        REQUIRE(t);
        CHECK_EQ_INT(t->players, n);
    }
    for (int i = 0; i < D->nraces; i++) {
        const cnc_race *r = &D->races[i];
        CHECK(r->home.nplanets >= 1);
        CHECK(r->special_text[0]);
        for (int k = 0; k < CNC_REP_COUNT; k++) {
            CHECK_EQ_INT(r->reps[k].role, k);
            CHECK(r->reps[k].name[0]);
        }
    }
    int seen[CNC_MAX_STRATEGIES + 1] = {0};
    for (int i = 0; i < D->nstrategies; i++)
        seen[D->strategies[i].initiative]++;
    for (int i = 1; i <= CNC_MAX_STRATEGIES; i++)
        CHECK_EQ_INT(seen[i], 1);
    int hostile = 0, friendly = 0, stage[3] = {0};
    for (int i = 0; i < D->nmarkers; i++)
        *(D->markers[i].hostile ? &hostile : &friendly) += 1;
    CHECK(hostile >= 2 && friendly >= 2);
    for (int i = 0; i < D->nobjectives; i++)
        stage[D->objectives[i].secret ? 0 : D->objectives[i].stage]++;
    CHECK(stage[0] && stage[1] && stage[2]);
    CHECK(D->nactions >= 10);
    CHECK(cnc_planet_find(D, "concordia") != NULL);
    CHECK(cnc_tech_index(D, "deep_scanners") >= 0);
    CHECK_EQ_INT(strlen(D->sha256), 64);
}

/* The built-in file with the first occurrence of from replaced by to. */
static char *replaced(const char *from, const char *to)
{
    const char *at = strstr(council_json, from);
    if (!at)
        abort();
    size_t n = strlen(council_json) + strlen(to) + 1;
    char *out = malloc(n);
    size_t pre = (size_t)(at - council_json);
    memcpy(out, council_json, pre);
    snprintf(out + pre, n - pre, "%s%s", to, at + strlen(from));
    return out;
}

static void expect_bad(const char *from, const char *to, const char *want,
                       const char *field)
{
    static cnc_data d;
    engine_error err = {0};
    char *text = replaced(from, to);
    int rc = cnc_data_parse(text, strlen(text), &d, &err);
    CHECKF(rc == ENGINE_EINVALID, "accepted %s -> %s", from, to);
    CHECKF(strstr(err.msg, want) != NULL, "message \"%s\" lacks \"%s\"",
           err.msg, want);
    CHECK_EQ_STR(err.field, field);
    free(text);
}

static void test_bad_data_names_item_and_field(void)
{
    static cnc_data d;
    engine_error err = {0};
    CHECK_EQ_INT(cnc_data_parse("{", 1, &d, &err), ENGINE_EINVALID);
    CHECK(strstr(err.msg, "council.json line") != NULL);
    expect_bad("\"council-data/1\"", "\"council-data/9\"", "format", "format");
    expect_bad("\"influence\": 4}]}, \"representatives\"",
               "\"influence\": 14}]}, \"representatives\"",
               "races[7] (sephine): home.planets[0].influence must be an "
               "integer 0..9",
               "home.planets[0].influence");
    expect_bad("\"role\": \"spy\", \"name\": \"Silk Broker\"",
               "\"role\": \"bodyguard\", \"name\": \"Silk Broker\"",
               "races[0] (veyari): representatives[0].role must be spy",
               "representatives[0].role");
    expect_bad("\"ability\": \"shield\"", "\"ability\": \"assassinate\"",
               "representatives[1].ability assassinate is not an ability of "
               "a bodyguard",
               "representatives[1].ability");
    expect_bad("\"initiative\": 8", "\"initiative\": 7",
               "strategies[7] (chancery): initiative 7 is repeated",
               "initiative");
    expect_bad("\"requires\": [\"ion_drive\"]", "\"requires\": [\"fold_x\"]",
               "technologies[1] (fold_drive): requires [0] must name a "
               "technology listed before",
               "requires");
    expect_bad("\"hostile\": true, \"count\": 6, \"effect\": {\"type\": "
               "\"enemy_ships\"",
               "\"hostile\": false, \"count\": 6, \"effect\": {\"type\": "
               "\"enemy_ships\"",
               "markers[1] (raiders): hostile must be true for effect "
               "enemy_ships",
               "hostile");
    expect_bad("\"count\": 16, \"effect\": {\"type\": \"nothing\"",
               "\"count\": 1, \"effect\": {\"type\": \"nothing\"",
               "markers: 40 planet and 25 system markers, the deck needs",
               "count");
    expect_bad("[[-2, 2], [2, 0], [0, -2]]", "[[-2, 2], [2, 0], [2, 0]]",
               "templates[0]: homes [2] repeats home 1", "homes");
    expect_bad("\"key\": \"cendra\"", "\"key\": \"brisk\"",
               "planet key brisk is used twice", "planets");
    expect_bad("\"trait\": \"cultural\"", "\"trait\": \"musical\"",
               "systems[0] (sys_aster_hal): planets[0].trait must be one of "
               "industrial, cultural, hazardous",
               "planets[0].trait");
    expect_bad("\"name\": \"Veto\"", "\"name\": \"Veto\", \"shiny\": 1",
               "actions[0] (veto): shiny is not a known field", "shiny");
}

int main(void)
{
    engine_error err = {0};
    if (cnc_data_init(&err) != 0) {
        fprintf(stderr, "council data: %s\n", err.msg);
        return 1;
    }
    D = cnc_data_get();
    RUN(test_builtin_data);
    RUN(test_bad_data_names_item_and_field);
    return TEST_SUMMARY();
}

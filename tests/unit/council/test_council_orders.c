/*
 * test_council_orders.c - Galactic Council's sealed orders: order parts
 * parsed into plain structs with errors naming the field, conditional
 * orders with each condition, the seed's examples (explore under the
 * marker then retreat or land; trigger and blind landings in a sector not
 * explored when the order was given), and the English sentences.
 */
#include "engine/rules/council/council_fog.h"
#include "engine/rules/council/council_galaxy.h"
#include "engine/rules/council/council_orders.h"
#include "tests/unit/test.h"

#include <stdlib.h>

static const cnc_data *D __attribute__((unused));

static void council_test_init(void)
{
    engine_error err = {0};
    if (cnc_data_init(&err) != 0) {
        fprintf(stderr, "council data: %s\n", err.msg);
        exit(1);
    }
    D = cnc_data_get();
}

static void rng_for(engine_rng *rng, uint64_t seed)
{
    uint8_t key[32] = {0};
    memcpy(key, &seed, sizeof seed);
    engine_rng_init(rng, key, 7);
}

/* A galaxy for n players with races 0..n-1 (rotated by seed), or exit. */
static void make_galaxy(cnc_galaxy *g, int n, uint64_t seed, int fixed)
{
    engine_rng rng;
    engine_error err = {0};
    int races[CNC_MAX_PLAYERS];
    for (int i = 0; i < n; i++)
        races[i] = (int)((i + seed) % (uint64_t)D->nraces);
    rng_for(&rng, seed);
    if (cnc_galaxy_generate(D, n, races, fixed, &rng, g, &err) != 0) {
        fprintf(stderr, "generate: %s\n", err.msg);
        exit(1);
    }
}

static cnc_galaxy G;
static cnc_order O;

/* Parse text as an order part; 0 or the error code (err filled). */
static int parse(const char *text, engine_error *err)
{
    json_error_t jerr;
    json_t *j = json_loads(text, 0, &jerr);
    if (!j) {
        fprintf(stderr, "bad test JSON: %s\n", jerr.text);
        exit(1);
    }
    int rc = cnc_order_parse(D, &G, j, &O, err);
    json_decref(j);
    return rc;
}

static const char *sentence(void)
{
    static char buf[512];
    CHECK(cnc_order_sentence(D, &O, buf, sizeof buf) > 0);
    return buf;
}

/* A sector (ring 1) whose tile has planets and a system marker. */
static int planet_sector(int min_planets)
{
    for (uint64_t seed = 1; seed < 200; seed++) {
        make_galaxy(&G, 3, seed, 0);
        for (int s = 1; s < 7; s++)
            if (cnc_sector_tile(D, &G, s)->nplanets >= min_planets &&
                G.sec[s].marker >= 0)
                return s;
    }
    return -1;
}

static int marker_kind(int hostile)
{
    for (int k = 0; k < D->nmarkers; k++)
        if (D->markers[k].where == CNC_WHERE_SYSTEM &&
            D->markers[k].hostile == hostile)
            return k;
    return -1;
}

/* Seed: "explore under the marker; if it is hostile then retreat else
 * land" - ships move into an unexplored sector, inspect its marker, and
 * the condition is decided by what resolution finds. */
static void test_seed_explore_marker_if_hostile_retreat_else_land(void)
{
    int s = planet_sector(1);
    REQUIRE(s >= 0);
    cnc_fog fog;
    cnc_fog_init(D, &G, &fog);
    CHECK(!fog.explored[s]); /* unexplored when the order is given */
    char text[512];
    snprintf(text, sizeof text,
             "[{\"type\": \"move\", \"from\": [0, 0], \"to\": [%d, %d], "
             "\"units\": {\"carrier\": 1, \"trooper\": 2}},"
             " {\"type\": \"inspect\"},"
             " {\"type\": \"if\", \"cond\": {\"type\": \"marker_is\", \"is\": "
             "\"hostile\"}, \"then\": [{\"type\": \"retreat\", \"to\": [0, "
             "0]}], \"else\": [{\"type\": \"land\", \"planet\": \"all\", "
             "\"troops\": \"all\"}]}]",
             G.sec[s].hex.q, G.sec[s].hex.r);
    engine_error err = {0};
    REQUIRE(parse(text, &err) == 0);
    CHECK_EQ_INT(O.nsteps, 5);
    const cnc_step *iff = &O.steps[O.steps[O.steps[O.first].next].next];
    CHECK_EQ_INT(iff->type, CNC_STEP_IF);
    CHECK_EQ_INT(O.steps[iff->then_first].type, CNC_STEP_RETREAT);
    CHECK_EQ_INT(O.steps[iff->else_first].type, CNC_STEP_LAND);
    char want[300];
    snprintf(want, sizeof want,
             "Move 1 carrier and 2 troopers from (0, 0) to (%d, %d) and then "
             "inspect the marker there; if it is hostile then retreat to "
             "(0, 0), otherwise land all troopers on every planet.",
             G.sec[s].hex.q, G.sec[s].hex.r);
    CHECK_EQ_STR(sentence(), want);
    /* resolution: the marker it inspected decides */
    cnc_cond_ctx ctx = {0, s, G.sec[s].marker, 1};
    G.markers[G.sec[s].marker].kind = (int8_t)marker_kind(1);
    CHECK_EQ_INT(cnc_cond_eval(D, &G, &iff->cond, &ctx), 1);
    G.markers[G.sec[s].marker].kind = (int8_t)marker_kind(0);
    CHECK_EQ_INT(cnc_cond_eval(D, &G, &iff->cond, &ctx), 0);
    ctx.inspected = -1; /* nothing inspected: not hostile */
    CHECK_EQ_INT(cnc_cond_eval(D, &G, &iff->cond, &ctx), 0);
}

/* Seed: trigger landing "land troops on all planets" in a sector not yet
 * explored: the planets are the ones resolution finds there. */
static void test_seed_trigger_landing_on_all_planets(void)
{
    int s = planet_sector(2);
    REQUIRE(s >= 0);
    engine_error err = {0};
    REQUIRE(parse("{\"type\": \"land\", \"planet\": \"all\", \"troops\": 4}",
                  &err) == 0);
    CHECK_EQ_INT(O.steps[O.first].troops, 4);
    CHECK_EQ_STR(sentence(), "Land 4 troopers on every planet.");
    int picked[CNC_MAX_PLANETS];
    int n = cnc_select_planets(D, &G, s, &O.steps[O.first].planet, picked);
    CHECK_EQ_INT(n, cnc_sector_tile(D, &G, s)->nplanets);
    for (int i = 0; i < n; i++)
        CHECK_EQ_INT(picked[i], i);
    for (int x = 0; x < G.nsectors; x++)
        if (cnc_sector_tile(D, &G, x)->nplanets == 0) {
            CHECK_EQ_INT(
                cnc_select_planets(D, &G, x, &O.steps[O.first].planet, picked),
                0);
            break;
        }
}

/* Seed: blind landing "land on the planet with the highest influence" in a
 * sector not explored when the order was given. */
static void test_seed_blind_landing_highest_influence(void)
{
    int s = planet_sector(2);
    REQUIRE(s >= 0);
    engine_error err = {0};
    REQUIRE(parse("{\"type\": \"land\", \"planet\": \"highest_influence\", "
                  "\"troops\": \"all\", \"sector\": [1, 0]}",
                  &err) == 0);
    CHECK_EQ_STR(sentence(), "Land all troopers on the planet with the "
                             "highest influence at (1, 0).");
    const cnc_system *t = cnc_sector_tile(D, &G, s);
    int picked[CNC_MAX_PLANETS], best = 0;
    CHECK_EQ_INT(cnc_select_planets(D, &G, s, &O.steps[O.first].planet, picked),
                 1);
    for (int p = 0; p < t->nplanets; p++)
        if (t->planets[p].influence > t->planets[best].influence)
            best = p;
    CHECK_EQ_INT(picked[0], best);
    cnc_planet_sel res = {CNC_PL_HIGHEST_RESOURCES, ""};
    CHECK_EQ_INT(cnc_select_planets(D, &G, s, &res, picked), 1);
    cnc_planet_sel key = {CNC_PL_KEY, ""};
    memcpy(key.key, t->planets[1].key, CNC_KEY_MAX);
    CHECK_EQ_INT(cnc_select_planets(D, &G, s, &key, picked), 1);
    CHECK_EQ_INT(picked[0], 1);
}

/* Parse a one-if order with condition cond_json and evaluate it at s. */
static int eval_cond(const char *cond_json, int seat, int s, int survived)
{
    char text[400];
    engine_error err = {0};
    snprintf(text, sizeof text,
             "{\"type\": \"if\", \"cond\": %s, \"then\": [{\"type\": "
             "\"hold\"}]}",
             cond_json);
    if (parse(text, &err) != 0) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    cnc_cond_ctx ctx = {seat, s, -1, survived};
    return cnc_cond_eval(D, &G, &O.steps[O.first].cond, &ctx);
}

/* Conditions: the sector holds X, a marker is Y, enemy ships are present,
 * my fleet survived, a planet's influence is at least N, and "not". */
static void test_conditions_each_kind(void)
{
    int s = planet_sector(2);
    REQUIRE(s >= 0);
    const cnc_system *t = cnc_sector_tile(D, &G, s);
    CHECK_EQ_INT(
        eval_cond("{\"type\": \"holds\", \"what\": \"planets\"}", 0, s, 1), 1);
    CHECK_EQ_INT(
        eval_cond("{\"type\": \"holds\", \"what\": \"anomaly\"}", 0, s, 1), 0);
    CHECK_EQ_INT(
        eval_cond("{\"type\": \"holds\", \"what\": \"marker\"}", 0, s, 1), 1);
    CHECK_EQ_INT(eval_cond("{\"type\": \"holds\", \"what\": \"planets\", "
                           "\"not\": true}",
                           0, s, 1),
                 0);
    CHECK_EQ_INT(eval_cond("{\"type\": \"holds\", \"what\": "
                           "\"enemy_troops\"}",
                           0, s, 1),
                 0);
    G.sec[s].owner[0] = 1;
    G.sec[s].ground[0] = 2;
    CHECK_EQ_INT(eval_cond("{\"type\": \"holds\", \"what\": "
                           "\"enemy_troops\"}",
                           0, s, 1),
                 1);
    CHECK_EQ_INT(eval_cond("{\"type\": \"holds\", \"what\": "
                           "\"enemy_troops\"}",
                           1, s, 1),
                 0); /* its own troopers are no enemy */
    CHECK_EQ_INT(eval_cond("{\"type\": \"enemy_ships\"}", 0, s, 1), 0);
    G.sec[s].units[2][cnc_unit_index(D, "destroyer")] = 1;
    CHECK_EQ_INT(eval_cond("{\"type\": \"enemy_ships\"}", 0, s, 1), 1);
    CHECK_EQ_INT(eval_cond("{\"type\": \"enemy_ships\"}", 2, s, 1), 0);
    CHECK_EQ_INT(eval_cond("{\"type\": \"fleet_survived\"}", 0, s, 1), 1);
    CHECK_EQ_INT(eval_cond("{\"type\": \"fleet_survived\"}", 0, s, 0), 0);
    int best = 0;
    for (int p = 0; p < t->nplanets; p++)
        best = t->planets[p].influence > best ? t->planets[p].influence : best;
    char c[160];
    snprintf(c, sizeof c, "{\"type\": \"influence_at_least\", \"n\": %d}",
             best);
    CHECK_EQ_INT(eval_cond(c, 0, s, 1), 1);
    snprintf(c, sizeof c, "{\"type\": \"influence_at_least\", \"n\": %d}",
             best + 1);
    CHECK_EQ_INT(eval_cond(c, 0, s, 1), 0);
    /* marker_is about a named planet's marker, and a marker kind */
    int m = G.sec[s].planet_marker[1];
    snprintf(c, sizeof c,
             "{\"type\": \"marker_is\", \"is\": \"%s\", \"planet\": \"%s\"}",
             D->markers[G.markers[m].kind].key, t->planets[1].key);
    CHECK_EQ_INT(eval_cond(c, 0, s, 1), 1);
    G.markers[m].state = CNC_MK_DISCARDED;
    CHECK_EQ_INT(eval_cond(c, 0, s, 1), 0);
    /* an explicit sector: the one the order acts on, wherever it stands */
    char text[300];
    snprintf(text, sizeof text,
             "[{\"type\": \"scan\", \"sector\": [%d, %d]}, {\"type\": "
             "\"if\", \"cond\": {\"type\": \"holds\", \"what\": "
             "\"planets\", \"sector\": [%d, %d]}, \"then\": [{\"type\": "
             "\"hold\"}]}]",
             G.sec[s].hex.q, G.sec[s].hex.r, G.sec[s].hex.q, G.sec[s].hex.r);
    engine_error err = {0};
    REQUIRE(parse(text, &err) == 0);
    cnc_cond_ctx ctx = {0, G.capital, -1, 1};
    CHECK_EQ_INT(
        cnc_cond_eval(D, &G, &O.steps[O.steps[O.first].next].cond, &ctx), 1);
}

static void expect_error(const char *text, const char *field, const char *want)
{
    engine_error err = {0};
    CHECKF(parse(text, &err) == ENGINE_EINVALID, "accepted %s", text);
    CHECK_EQ_STR(err.field, field);
    CHECKF(strstr(err.msg, want) != NULL, "message \"%s\" lacks \"%s\"",
           err.msg, want);
}

/* Errors name the field, down into nested branches. */
static void test_order_errors_name_the_field(void)
{
    make_galaxy(&G, 3, 1, 0);
    expect_error("[]", "", "non-empty array");
    expect_error("[{\"type\": \"fly\"}]", "[0].type", "must be activate");
    expect_error("[{\"type\": \"move\", \"from\": [0, 0], \"to\": [1, 0], "
                 "\"units\": {\"tank\": 1}}]",
                 "[0].units", "tank is not a unit");
    expect_error("[{\"type\": \"move\", \"from\": [0, 0], \"to\": [3, 0], "
                 "\"units\": {\"cruiser\": 1}}]",
                 "[0].to", "off the map");
    expect_error("[{\"type\": \"move\", \"from\": [0, 0], \"to\": [2, -3], "
                 "\"units\": {\"cruiser\": 1}}]",
                 "[0].to", "off the map");
    expect_error("[{\"type\": \"hold\"}, {\"type\": \"if\", \"cond\": "
                 "{\"type\": \"maybe\"}, \"then\": [{\"type\": \"hold\"}]}]",
                 "[1].cond.type", "must be holds");
    expect_error("[{\"type\": \"if\", \"cond\": {\"type\": "
                 "\"fleet_survived\"}, \"then\": [{\"type\": \"hold\"}], "
                 "\"else\": [{\"type\": \"hold\"}, {\"type\": \"retreat\", "
                 "\"to\": \"home\"}]}]",
                 "[0].else[1].to", "must be a hex");
    expect_error("{\"type\": \"land\", \"planet\": \"atlantis\", \"troops\": "
                 "2}",
                 "[0].planet", "must be a planet's key");
    expect_error("{\"type\": \"land\", \"planet\": \"all\", \"troops\": 0}",
                 "[0].troops", "1..20");
    expect_error("{\"type\": \"strategy\", \"card\": \"intelligence\", "
                 "\"option\": \"bribery\"}",
                 "[0].option", "Intelligence's options");
    expect_error("{\"type\": \"hold\", \"to\": [0, 0]}", "[0].to",
                 "not a field");
    expect_error("{\"type\": \"if\", \"cond\": {\"type\": \"enemy_ships\", "
                 "\"n\": 3}, \"then\": [{\"type\": \"hold\"}]}",
                 "[0].cond.n", "only for influence_at_least");
    const char *deep = "{\"type\": \"if\", \"cond\": {\"type\": "
                       "\"fleet_survived\"}, \"then\": [%s]}";
    char a[2048] = "{\"type\": \"hold\"}", b[2200];
    for (int i = 0; i < CNC_MAX_DEPTH + 1; i++) {
        if (snprintf(b, sizeof b, deep, a) >= (int)sizeof a)
            abort();
        memcpy(a, b, sizeof a);
    }
    expect_error(a, "[0].then[0].then[0].then[0].then[0]", "deeper than 4");
}

/* Orders of every kind, and their sentences. */
static void test_order_sentences(void)
{
    make_galaxy(&G, 3, 1, 0);
    engine_error err = {0};
    REQUIRE(parse("[{\"type\": \"activate\", \"sector\": [1, 0]}, {\"type\": "
                  "\"produce\", \"sector\": [1, 0], \"units\": {\"fighter\": "
                  "2, \"cruiser\": 1, \"trooper\": 3}}]",
                  &err) == 0);
    CHECK_EQ_STR(sentence(), "Activate (1, 0) and then produce 1 cruiser, 2 "
                             "fighters and 3 troopers at (1, 0).");
    REQUIRE(parse("{\"type\": \"strategy\", \"card\": \"intelligence\", "
                  "\"option\": \"exploration\", \"targets\": [[1, 0], [0, "
                  "1]]}",
                  &err) == 0);
    CHECK_EQ_STR(sentence(),
                 "Use Intelligence (exploration) on (1, 0), (0, 1).");
    REQUIRE(parse("[{\"type\": \"activate\", \"sector\": [0, 1]}, "
                  "{\"type\": \"if\", \"cond\": {\"type\": "
                  "\"influence_at_least\", \"n\": 3, \"sector\": [0, 1]}, "
                  "\"then\": [{\"type\": \"land\", \"planet\": "
                  "\"highest_influence\", \"troops\": 2}], \"else\": "
                  "[{\"type\": \"hold\"}]}]",
                  &err) == 0);
    CHECK_EQ_STR(sentence(),
                 "Activate (0, 1); if the planet with the highest influence "
                 "has influence 3 "
                 "or more at (0, 1) then land 2 troopers on the planet with "
                 "the highest influence, otherwise hold position.");
    char small[20];
    CHECK_EQ_INT(cnc_order_sentence(D, &O, small, sizeof small), -1);
    CHECK_EQ_INT(strlen(small), sizeof small - 1);
}

/* Validation depends on public knowledge only: the same part is accepted
 * or refused alike whatever the galaxy's hidden contents are. */
static void test_validation_uses_no_hidden_information(void)
{
    const char *parts[] = {
        "{\"type\": \"land\", \"planet\": \"cendra\", \"troops\": 2, "
        "\"sector\": [1, -1]}",
        "{\"type\": \"inspect\", \"planet\": \"brisk\", \"sector\": [0, 1]}",
        "{\"type\": \"if\", \"cond\": {\"type\": \"marker_is\", \"is\": "
        "\"raiders\", \"planet\": \"dovan\"}, \"then\": [{\"type\": "
        "\"hold\"}]}"};
    for (int i = 0; i < 3; i++) {
        int first = -2;
        for (uint64_t seed = 0; seed < 30; seed++) {
            make_galaxy(&G, 3, seed, 0);
            engine_error err = {0};
            int rc = parse(parts[i], &err);
            if (first == -2)
                first = rc;
            CHECK_EQ_INT(rc, first);
        }
        CHECK_EQ_INT(first, 0);
    }
}

int main(void)
{
    council_test_init();
    RUN(test_seed_explore_marker_if_hostile_retreat_else_land);
    RUN(test_seed_trigger_landing_on_all_planets);
    RUN(test_seed_blind_landing_highest_influence);
    RUN(test_conditions_each_kind);
    RUN(test_order_errors_name_the_field);
    RUN(test_order_sentences);
    RUN(test_validation_uses_no_hidden_information);
    return TEST_SUMMARY();
}

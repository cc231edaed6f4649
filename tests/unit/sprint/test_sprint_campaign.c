/*
 * test_sprint_campaign.c - the solitaire campaign's pure functions:
 * conditions met by a result, and progress from game to game.
 */
#include "tests/unit/sprint/sprint_test.h"

/* ---------------------------------------------------------- campaign -- */

static json_t *solo_result(int chips, int income, int mil_worlds, int colours)
{
    return J("{\"solitaire\":true,\"final\":{\"rounds\":7,\"chips\":%d,"
             "\"income\":%d,\"military\":3,\"military_worlds\":%d,"
             "\"colours\":%d,\"developments\":5,\"worlds\":5}}",
             chips, income, mil_worlds, colours);
}

static void test_campaign_conditions_and_progress(void)
{
    sprint_final_stats st = {7, 70, 10, 5, 4, 0x1e, 5, 8};
    CHECK_EQ_INT(sprint_campaign_evaluate(&st), SPRINT_COND_ALL);
    st.chips = 44;
    CHECK_EQ_INT(sprint_campaign_evaluate(&st), 0);
    st.chips = 50;
    st.colours = 0x0e; /* no violet */
    CHECK_EQ_INT(sprint_campaign_evaluate(&st),
                 SPRINT_COND_WARLORD | SPRINT_COND_TYCOON);
    engine_error err = {0};
    json_t *prog = NULL, *next = NULL;
    /* Game 1 meets magnate and tycoon: magnate is checked by default. */
    json_t *r = solo_result(70, 10, 0, 0);
    CHECK_EQ_INT(sprint_campaign_advance(NULL, r, NULL, &next, &err), 0);
    CHECK_EQ_STR(json_string_value(json_object_get(next, "status")), "active");
    CHECK_EQ_STR(
        json_string_value(json_array_get(json_object_get(next, "met"), 0)),
        "magnate");
    prog = next;
    /* Game 2 meets magnate again and tycoon: tycoon is new. Choosing the old
     * one is refused. */
    CHECK_EQ_INT(sprint_campaign_advance(prog, r, "magnate", &next, &err),
                 ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "choose");
    CHECK_EQ_INT(sprint_campaign_advance(prog, r, "tycoon", &next, &err), 0);
    json_decref(prog);
    prog = next;
    json_decref(r);
    r = solo_result(50, 3, 5, 0);
    CHECK_EQ_INT(sprint_campaign_advance(prog, r, NULL, &next, &err), 0);
    json_decref(prog);
    prog = next;
    json_decref(r);
    r = solo_result(50, 3, 0, 0x1e);
    CHECK_EQ_INT(sprint_campaign_advance(prog, r, NULL, &next, &err), 0);
    CHECK_EQ_STR(json_string_value(json_object_get(next, "status")), "won");
    CHECK_EQ_INT(json_array_size(json_object_get(next, "games")), 4);
    json_decref(prog);
    prog = next;
    /* A finished campaign takes no more games. */
    CHECK_EQ_INT(sprint_campaign_advance(prog, r, NULL, &next, &err),
                 ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "status");
    json_decref(prog);
    json_decref(r);
    /* A game with no new condition loses the campaign. */
    r = solo_result(70, 0, 0, 0);
    CHECK_EQ_INT(sprint_campaign_advance(NULL, r, NULL, &next, &err), 0);
    prog = next;
    CHECK_EQ_INT(sprint_campaign_advance(prog, r, NULL, &next, &err), 0);
    CHECK_EQ_STR(json_string_value(json_object_get(next, "status")), "lost");
    CHECK(json_is_null(json_object_get(
        json_array_get(json_object_get(next, "games"), 1), "checked")));
    json_decref(next);
    json_decref(prog);
    json_decref(r);
    /* Malformed input names the field. */
    json_t *badp = J("{\"games\":[],\"met\":[\"x\"],\"status\":\"active\"}");
    r = solo_result(70, 0, 0, 0);
    CHECK_EQ_INT(sprint_campaign_advance(badp, r, NULL, &next, &err),
                 ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "met");
    json_decref(badp);
    json_t *multi = J("{\"solitaire\":false}");
    CHECK_EQ_INT(sprint_campaign_advance(NULL, multi, NULL, &next, &err),
                 ENGINE_EINVALID);
    json_decref(multi);
    json_decref(r);
}

static const char *str_at(const json_t *arr, size_t i)
{
    return json_string_value(json_array_get(arr, i));
}

/* A game that newly meets two conditions: the record checks off the first
 * by default and offers the choice; the player's choice replaces it once;
 * a choice never made stands when the next campaign game is folded in. */
static void test_campaign_choice(void)
{
    json_t *start = J("{\"campaign_conditions_met\":[]}");
    json_t *both = solo_result(70, 10, 0, 0); /* magnate and tycoon */
    json_t *rec = sprint_campaign_record(NULL, start, 1, 0, both);
    REQUIRE(rec);
    json_t *choice = json_object_get(rec, "choice");
    CHECK_EQ_INT(json_array_size(choice), 2);
    CHECK_EQ_STR(str_at(choice, 0), "magnate");
    CHECK_EQ_STR(str_at(choice, 1), "tycoon");
    CHECK_EQ_STR(str_at(json_object_get(rec, "met"), 0), "magnate");

    engine_error err = {0};
    json_t *next = NULL, *bad = J("{\"condition\":\"warlord\"}");
    CHECK_EQ_INT(sprint_campaign_choose(rec, bad, &next, &err),
                 ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "condition");
    CHECK(next == NULL);
    json_t *ty = J("{\"condition\":\"tycoon\"}");
    REQUIRE(sprint_campaign_choose(rec, ty, &next, &err) == 0);
    CHECK(json_object_get(next, "choice") == NULL);
    CHECK_EQ_INT(json_array_size(json_object_get(next, "met")), 1);
    CHECK_EQ_STR(str_at(json_object_get(next, "met"), 0), "tycoon");
    CHECK_EQ_STR(
        json_string_value(json_object_get(
            json_array_get(json_object_get(next, "games"), 0), "checked")),
        "tycoon");
    CHECK_EQ_STR(str_at(json_object_get(json_object_get(next, "next_options"),
                                        "campaign_conditions_met"),
                        0),
                 "tycoon");
    /* one choice per game */
    json_t *again = NULL;
    CHECK_EQ_INT(sprint_campaign_choose(next, ty, &again, &err),
                 ENGINE_ECONFLICT);
    /* after the choice, a game meeting magnate continues the campaign */
    json_t *cont = J("{\"campaign_conditions_met\":[\"tycoon\"]}");
    json_t *mag = solo_result(66, 0, 0, 0);
    json_t *rec2 = sprint_campaign_record(next, cont, 1, 0, mag);
    REQUIRE(rec2);
    CHECK_EQ_INT(json_array_size(json_object_get(rec2, "met")), 2);
    CHECK(json_object_get(rec2, "choice") == NULL);
    /* without a choice, the default stands and the offer is dropped */
    json_t *cont_m = J("{\"campaign_conditions_met\":[\"magnate\"]}");
    json_t *tyc = solo_result(50, 10, 0, 0);
    json_t *rec3 = sprint_campaign_record(rec, cont_m, 1, 0, tyc);
    REQUIRE(rec3);
    CHECK(json_object_get(rec3, "choice") == NULL);
    CHECK_EQ_STR(str_at(json_object_get(rec3, "met"), 1), "tycoon");
    json_decref(rec3);
    json_decref(tyc);
    json_decref(cont_m);
    json_decref(rec2);
    json_decref(mag);
    json_decref(cont);
    json_decref(ty);
    json_decref(bad);
    json_decref(next);
    json_decref(rec);
    json_decref(both);
    json_decref(start);
}

int main(void)
{
    if (sprint_test_init())
        return 1;
    RUN(test_campaign_conditions_and_progress);
    RUN(test_campaign_choice);
    return TEST_SUMMARY();
}

/*
 * test_sprint_campaign.c - the solitaire campaign's pure functions:
 * conditions met by a result, and progress from game to game.
 */
#include "tests/unit/sprint_test.h"

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

int main(void)
{
    if (sprint_test_init())
        return 1;
    RUN(test_campaign_conditions_and_progress);
    return TEST_SUMMARY();
}

/*
 * test_pile.c - the example ruleset "pile" (Last Stone) through the
 * engine's public API, in the folder a ruleset's unit tests have
 * (tests/unit/RULESET/): registered from rulesets.def, its option, turns in
 * order, the refused takes (code and field), the last stone winning, a
 * timeout taking one. Built and run by tests/integration/plugin_path.test.mjs
 * in a scratch copy of the tree.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/ruleset.h"
#include "tests/unit/test.h"

static const uint8_t seed[ENGINE_SEED_BYTES] = {7};

static engine_game *new_game(int stones, int seats)
{
    engine_error err = {0};
    json_t *o = json_pack("{s:i}", "stones", stones);
    engine_game *g = engine_create("pile", "g-pile", o, seats, seed, &err);
    json_decref(o);
    return g;
}

static int take(engine_game *g, int seat, int n, engine_error *err)
{
    engine_window w;
    if (engine_windows(g, &w, 1) < 1)
        return -100;
    json_t *p = json_pack("{s:i}", "take", n);
    engine_input in = {
        .seat = seat, .kind = ENGINE_PLAY, .window = w.id, .payload = p};
    memset(err, 0, sizeof *err);
    int rc = engine_apply(g, &in, NULL, err);
    json_decref(p);
    return rc;
}

static int left(const engine_game *g)
{
    json_t *v = engine_view(g, 0);
    int n = (int)json_integer_value(json_object_get(v, "left"));
    json_decref(v);
    return n;
}

static void test_registered(void)
{
    const engine_ruleset *rs = engine_ruleset_find("pile");
    REQUIRE(rs);
    CHECK_EQ_STR(rs->title, "Last Stone");
    engine_error err = {0};
    json_t *bad = json_pack("{s:i}", "stones", 41);
    CHECK(!engine_create("pile", "x", bad, 2, seed, &err));
    CHECK_EQ_STR(err.field, "stones");
    json_decref(bad);
}

static void test_turns_and_refusals(void)
{
    engine_game *g = new_game(5, 3);
    REQUIRE(g);
    engine_error err;
    CHECK_EQ_INT(take(g, 1, 1, &err), ENGINE_ECONFLICT); /* seat 0 first */
    CHECK_EQ_INT(take(g, 0, 4, &err), ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "take");
    CHECK_EQ_INT(take(g, 0, 0, &err), ENGINE_EINVALID);
    CHECK_EQ_INT(left(g), 5);
    CHECK_EQ_INT(take(g, 0, 3, &err), 0);
    CHECK_EQ_INT(take(g, 1, 3, &err), ENGINE_EINVALID); /* 2 left */
    CHECK_EQ_INT(take(g, 1, 1, &err), 0);
    CHECK_EQ_INT(take(g, 2, 1, &err), 0);
    CHECK(engine_is_over(g));
    json_t *r = engine_result(g);
    CHECK_EQ_INT(
        json_integer_value(json_array_get(json_object_get(r, "winners"), 0)),
        2);
    json_decref(r);
    engine_free(g);
}

int main(void)
{
    engine_error err;
    if (engine_init(&err) != 0) {
        fprintf(stderr, "engine_init: %s\n", err.msg);
        return 1;
    }
    RUN(test_registered);
    RUN(test_turns_and_refusals);
    return TEST_SUMMARY();
}

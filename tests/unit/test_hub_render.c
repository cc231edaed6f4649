/*
 * test_hub_render.c - the hub's step from one version of a game document to
 * the next (server/hub/hub_render.c): an audience the input did not touch gets
 * the same document and an equivalent patch as a full render and diff
 * would give, its patch replacing "inputs" and "over" only when they
 * changed; skipped versions and touched audiences render in full.
 */
#include "common/jsonpatch.h"
#include "engine/engine.h"
#include "server/game/gamedoc.h"
#include "server/hub/hub_render.h"
#include "tests/rules/test_rules.h"
#include "tests/unit/test.h"

#include <stdlib.h>
#include <string.h>

#define SEATS 3

static engine_game *new_game(const char *ruleset, int seats)
{
    uint8_t seed[ENGINE_SEED_BYTES] = {7};
    json_t *opts = strcmp(ruleset, "fog") == 0
                       ? json_pack("{s:i, s:i}", "sectors", 20, "units", 9)
                       : NULL;
    engine_error err;
    engine_game *g = engine_create(ruleset, "g1", opts, seats, seed, &err);
    json_decref(opts);
    return g;
}

static int apply_fog(engine_game *g, int k)
{
    int seat = k % SEATS;
    json_t *play = json_pack("{s:i, s:i}", "unit", seat, "dx", 1);
    engine_input in = {.seat = seat, .kind = ENGINE_PLAY, .payload = play};
    snprintf(in.window_buf, sizeof in.window_buf, "t%d", k);
    in.window = in.window_buf;
    engine_error err;
    int rc = engine_apply(g, &in, NULL, &err);
    json_decref(play);
    return rc;
}

/* How many operations of the patch ops are on path. */
static int ops_on(const json_t *ops, const char *path)
{
    int n = 0;
    size_t i;
    json_t *op;
    json_array_foreach(ops, i, op)
    {
        n += strcmp(json_string_value(json_object_get(op, "path")), path) == 0;
    }
    return n;
}

/* The common field key of document doc's view. */
static json_t *view_field(const json_t *doc, const char *key)
{
    return json_object_get(json_object_get(doc, "view"), key);
}

/* One step for every audience from docs[] (at version-1), checking the
 * document against a full render and the patch against the documents; a
 * patch that is not of a full render replaces "inputs" and "over" only
 * when they changed. Returns how many audiences were rendered in full. */
static int step_all(const actor_view *v, json_t **docs, uint64_t held)
{
    int fulls = 0;
    json_t *windows = gamedoc_windows(v);
    for (int i = 0; i <= SEATS; i++) {
        int aud = i < SEATS ? i : ENGINE_PUBLIC;
        int full = hub_render_full(v, aud, 1, held);
        fulls += full;
        json_t *doc = NULL, *ops = NULL;
        CHECK(hub_render_next(v, aud, windows, docs[i], full, &doc, &ops) == 0);
        json_t *want = gamedoc_render(v, aud);
        CHECKF(json_equal(doc, want), "audience %d at %llu", aud,
               (unsigned long long)v->version);
        json_t *patched = json_deep_copy(docs[i]);
        char err[200] = "";
        CHECKF(jsonpatch_apply(&patched, ops, err, sizeof err) == 0, "%s", err);
        CHECK(json_equal(patched, want));
        if (!full)
            for (int k = 0; k < 2; k++) {
                const char *key = k ? "over" : "inputs";
                char path[16];
                snprintf(path, sizeof path, "/view/%s", key);
                CHECKF(ops_on(ops, path) ==
                           !json_equal(view_field(docs[i], key),
                                       view_field(doc, key)),
                       "%s: audience %d at %llu", path, aud,
                       (unsigned long long)v->version);
            }
        json_decref(patched);
        json_decref(want);
        json_decref(ops);
        json_decref(docs[i]);
        docs[i] = doc;
    }
    json_decref(windows);
    return fulls;
}

/* Fog plays touch the mover's view only: one full render per input, and
 * the others' patches just count the input and move the window. */
static void test_untouched_audiences_follow(void)
{
    engine_game *g = new_game("fog", SEATS);
    REQUIRE(g);
    store_game meta;
    memset(&meta, 0, sizeof meta);
    actor_view v = {g, &meta, 0, NULL};
    json_t *docs[SEATS + 1];
    for (int i = 0; i <= SEATS; i++)
        docs[i] = gamedoc_render(&v, i < SEATS ? i : ENGINE_PUBLIC);
    for (int k = 0; k < 7; k++) {
        REQUIRE(apply_fog(g, k) == 0);
        v.version = (uint64_t)k + 1;
        CHECK_EQ_INT(engine_touched(g), 1u << (k % SEATS));
        CHECK_EQ_INT(step_all(&v, docs, v.version - 1), 1);
    }
    for (int i = 0; i <= SEATS; i++)
        json_decref(docs[i]);
    engine_free(g);
}

/* Two inputs at once: engine_touched names only the last one's audiences,
 * so everyone is rendered in full. */
static void test_skipped_versions_render_in_full(void)
{
    engine_game *g = new_game("fog", SEATS);
    REQUIRE(g);
    store_game meta;
    memset(&meta, 0, sizeof meta);
    actor_view v = {g, &meta, 0, NULL};
    json_t *docs[SEATS + 1];
    for (int i = 0; i <= SEATS; i++)
        docs[i] = gamedoc_render(&v, i < SEATS ? i : ENGINE_PUBLIC);
    REQUIRE(apply_fog(g, 0) == 0);
    REQUIRE(apply_fog(g, 1) == 0); /* seat 0's view changed at version 1 */
    v.version = 2;
    CHECK(!hub_render_full(&v, 0, 1, 1));
    CHECK(hub_render_full(&v, 0, 1, 0));
    CHECK(hub_render_full(&v, 0, 0, 1)); /* no document yet */
    CHECK_EQ_INT(step_all(&v, docs, 0), SEATS + 1);
    for (int i = 0; i <= SEATS; i++)
        json_decref(docs[i]);
    engine_free(g);
}

/* A ruleset that does not narrow (tic-tac-toe): every audience each time. */
static void test_default_touches_everyone(void)
{
    engine_game *g = new_game("tictactoe", 2);
    REQUIRE(g);
    store_game meta;
    memset(&meta, 0, sizeof meta);
    actor_view v = {g, &meta, 0, NULL};
    json_t *docs[SEATS + 1] = {0};
    for (int i = 0; i <= SEATS; i++)
        docs[i] = gamedoc_render(&v, i < SEATS ? i : ENGINE_PUBLIC);
    engine_window w;
    REQUIRE(engine_windows(g, &w, 1) == 1);
    json_t *play = json_pack("{s:i}", "cell", 4);
    engine_input in = {
        .seat = 0, .kind = ENGINE_PLAY, .window = w.id, .payload = play};
    engine_error err;
    REQUIRE(engine_apply(g, &in, NULL, &err) == 0);
    json_decref(play);
    v.version = 1;
    CHECK_EQ_INT(engine_touched(g), ENGINE_AUDIENCE_ALL);
    CHECK_EQ_INT(step_all(&v, docs, 0), SEATS + 1);
    for (int i = 0; i <= SEATS; i++)
        json_decref(docs[i]);
    engine_free(g);
}

int main(void)
{
    engine_error err;
    if (test_rules_register() != 0 || engine_init(&err) != 0) {
        printf("RESULT %s: 0 passed, 1 failed\n", __FILE__);
        return 1;
    }
    RUN(test_untouched_audiences_follow);
    RUN(test_skipped_versions_render_in_full);
    RUN(test_default_touches_everyone);
    return TEST_SUMMARY();
}

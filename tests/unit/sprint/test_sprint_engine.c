/*
 * test_sprint_engine.c - Galactic Sprint through the engine API: orders
 * are checked with field-named errors, views hide hands and payments,
 * timeout defaults and options, and full games with unique window ids.
 */
#include "tests/unit/sprint/sprint_test.h"

/* ------------------------------------------------------ orders & IDs -- */

static void test_order_errors_name_the_field(void)
{
    sprint_state s;
    fresh(&s, 2);
    fill_hand(&s, 0, 4);
    int dev = -1, world = -1;
    for (int i = 0; i < s.p[0].nhand; i++) {
        const sprint_design *d = sprint_design_of(CS, s.p[0].hand[i]);
        if (d->kind == SPRINT_WORLD)
            world = s.p[0].hand[i];
        else
            dev = s.p[0].hand[i];
    }
    static const struct {
        const char *order, *field;
    } cases[] = {
        {"{\"action\":\"dance\"}", "action"},
        {"{}", "action"},
        {"{\"action\":\"explore\",\"bogus\":1}", "bogus"},
        {"{\"action\":\"explore\",\"pay\":[]}", "pay"},
        {"{\"action\":\"develop\",\"world\":1}", "world"},
        {"{\"action\":\"settle\",\"development\":1}", "development"},
        {"{\"action\":\"develop\"}", "development"},
        {"{\"action\":\"develop\",\"development\":\"x\"}", "development"},
        {"{\"action\":\"develop\",\"development\":9999}", "development"},
        {"{\"action\":\"settle\"}", "world"},
        {"{\"action\":\"settle\",\"world\":1,\"world_mode\":\"steal\"}",
         "world_mode"},
        {"{\"action\":\"settle\",\"world\":1,\"convoy_mode\":\"pay\"}",
         "convoy_mode"},
        {"{\"action\":\"explore\",\"rival\":0}", "rival"},
        {"{\"action\":\"explore\",\"rival\":7}", "rival"},
        {"[1]", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        engine_error err;
        json_t *o = json_loads(cases[i].order, 0, NULL);
        REQUIRE(o);
        CHECKF(check(&s, 0, o, &err) == ENGINE_EINVALID, "accepted %s",
               cases[i].order);
        CHECKF(strcmp(err.field, cases[i].field) == 0,
               "%s: field \"%s\", want \"%s\" (%s)", cases[i].order, err.field,
               cases[i].field, err.msg);
    }
    engine_error err;
    if (dev >= 0) {
        CHECK_EQ_INT(
            check(&s, 0, J("{\"action\":\"settle\",\"world\":%d}", dev), &err),
            ENGINE_EINVALID);
        CHECK(strstr(err.msg, "is a development, not a world") != NULL);
        /* Paying with the card being placed. */
        const sprint_design *d = sprint_design_of(CS, dev);
        if (d->cost >= 2) {
            char buf[128];
            snprintf(buf, sizeof buf,
                     "{\"action\":\"develop\",\"development\":%d,\"pay\":[%d",
                     dev, dev);
            int need = d->cost - 1;
            size_t len = strlen(buf);
            for (int k = 1; k < need; k++)
                len += (size_t)snprintf(buf + len, sizeof buf - len, ",0");
            snprintf(buf + len, sizeof buf - len, "]}");
            CHECK_EQ_INT(check(&s, 0, json_loads(buf, 0, NULL), &err),
                         ENGINE_EINVALID);
            CHECK_EQ_STR(err.field, "pay");
        }
    }
    if (world >= 0) {
        CHECK_EQ_INT(
            check(&s, 0,
                  J("{\"action\":\"develop\",\"development\":%d}", world),
                  &err),
            ENGINE_EINVALID);
        CHECK(strstr(err.msg, "is a world, not a development") != NULL);
    }
    /* A card from another seat's hand is not yours. */
    fill_hand(&s, 1, 1);
    CHECK_EQ_INT(
        check(&s, 0,
              J("{\"action\":\"develop\",\"development\":%d}", s.p[1].hand[0]),
              &err),
        ENGINE_EINVALID);
    CHECK(strstr(err.msg, "is not in your hand") != NULL);
}

/* ------------------------------------------------------- engine API -- */

static const uint8_t seed32[ENGINE_SEED_BYTES] = {7, 7, 7};

static int submit(engine_game *g, int seat, const char *window, json_t *order,
                  engine_error *err)
{
    engine_input in;
    memset(&in, 0, sizeof in);
    in.seat = seat;
    in.kind = ENGINE_ORDER;
    in.window = window;
    in.payload = order;
    in.nonce[0] = (uint8_t)seat;
    memset(err, 0, sizeof *err);
    int rc = engine_apply(g, &in, NULL, err);
    json_decref(order);
    return rc;
}

static int hand_ids(const json_t *view, int *ids)
{
    const json_t *h = json_object_get(view, "hand");
    for (size_t i = 0; i < json_array_size(h); i++)
        ids[i] = (int)json_integer_value(
            json_object_get(json_array_get(h, i), "id"));
    return (int)json_array_size(h);
}

static void test_engine_views_hide_hands_and_payments(void)
{
    engine_error err = {0};
    engine_game *g = engine_create("sprint", "g-sprint", NULL, 2, seed32, &err);
    REQUIRE(g);
    json_t *v0 = engine_view(g, 0), *v1 = engine_view(g, 1),
           *pub = engine_view(g, ENGINE_PUBLIC);
    int h0[32] = {0}, h1[32] = {0};
    int n0 = hand_ids(v0, h0), n1 = hand_ids(v1, h1);
    CHECK_EQ_INT(n0, SPRINT_START_HAND);
    CHECK_EQ_INT(n1, SPRINT_START_HAND);
    CHECK(json_object_get(pub, "hand") == NULL ||
          json_is_null(json_object_get(pub, "hand")));
    CHECK_EQ_STR(json_string_value(json_object_get(v0, "window")), "r1.place");
    CHECK_EQ_STR(json_string_value(json_object_get(v0, "phase")), "place");
    CHECK_EQ_INT(json_integer_value(json_object_get(v0, "deck")),
                 CS->ndeck - 2 * SPRINT_START_HAND);
    const json_t *pl = json_array_get(json_object_get(v1, "players"), 0);
    CHECK_EQ_INT(json_integer_value(json_object_get(pl, "hand")),
                 SPRINT_START_HAND);
    CHECK(json_is_true(json_object_get(pl, "survey_available")));
    /* Seat 0's hand ids appear nowhere in seat 1's or the public view. */
    char *t1 = json_dumps(v1, JSON_COMPACT),
         *tp = json_dumps(pub, JSON_COMPACT);
    const json_t *cards1 = json_object_get(v1, "cards");
    for (int i = 0; i < n0; i++) {
        const sprint_design *d = sprint_design_of(CS, h0[i]);
        int mine = 0;
        for (int k = 0; k < n1; k++)
            mine |= CS->deck_design[h1[k]] == CS->deck_design[h0[i]];
        if (!mine && CS->deck_design[h0[i]] != (uint8_t)CS->survey)
            CHECKF(json_object_get(cards1, d->key) == NULL,
                   "seat 1's view names seat 0's card %s", d->key);
    }
    CHECK(strstr(tp, "\"hand\":[") == NULL);
    /* A card in a hand shows as {"id":N,"card":...}: none of seat 0's ids
     * may appear in seat 1's view or the public one. */
    for (int i = 0; i < n0; i++) {
        char pat[32];
        snprintf(pat, sizeof pat, "\"id\":%d,", h0[i]);
        CHECKF(strstr(t1, pat) == NULL, "seat 1's view shows seat 0's %s", pat);
        CHECKF(strstr(tp, pat) == NULL, "the public view shows seat 0's %s",
               pat);
    }
    free(t1);
    free(tp);
    json_decref(v0);
    json_decref(v1);
    json_decref(pub);

    /* Seat 0 develops the survey card free; seat 1 settles paying cards. */
    CHECK_EQ_INT(submit(g, 0, "r1.place",
                        J("{\"action\":\"develop\",\"survey\":true}"), &err),
                 0);
    json_t *legal = engine_legal(g, 1);
    REQUIRE(legal);
    json_t *ch = json_object_get(
        json_array_get(json_object_get(legal, "windows"), 0), "choices");
    CHECK(json_array_size(ch) >= 2); /* explore + survey at least */
    json_decref(legal);
    /* Find a paid world or development seat 1 can place. */
    v1 = engine_view(g, 1);
    n1 = hand_ids(v1, h1);
    json_decref(v1);
    int target = -1, cost = 0;
    for (int i = 0; i < n1 && target < 0; i++) {
        const sprint_design *d = sprint_design_of(CS, h1[i]);
        if (d->kind == SPRINT_DEVELOPMENT && d->cost >= 2 &&
            d->cost - 1 <= n1 - 1) {
            target = h1[i];
            cost = d->cost - 1;
        }
    }
    json_t *o;
    if (target >= 0) {
        char buf[256];
        int len = snprintf(
            buf, sizeof buf,
            "{\"action\":\"develop\",\"development\":%d,\"pay\":[", target);
        for (int i = 0, k = 0; i < n1 && k < cost; i++)
            if (h1[i] != target)
                len += snprintf(buf + len, sizeof buf - (size_t)len, "%s%d",
                                k++ ? "," : "", h1[i]);
        snprintf(buf + len, sizeof buf - (size_t)len, "]}");
        o = json_loads(buf, 0, NULL);
    } else {
        o = J("{\"action\":\"explore\"}");
    }
    /* An illegal order leaves the game unchanged. */
    uint8_t ha[ENGINE_HASH_BYTES], hb[ENGINE_HASH_BYTES];
    engine_hash(g, ha);
    CHECK_EQ_INT(
        submit(
            g, 1, "r1.place",
            J("{\"action\":\"develop\",\"survey\":true,\"pay\":[%d]}", h1[0]),
            &err),
        ENGINE_EINVALID);
    CHECK_EQ_STR(err.msg, "cost 0 needs 0 discards, got 1");
    CHECK_EQ_INT(
        submit(g, 1, "r9.place", J("{\"action\":\"explore\"}"), &err) != 0, 1);
    engine_hash(g, hb);
    CHECK(memcmp(ha, hb, sizeof ha) == 0);
    CHECK_EQ_INT(submit(g, 1, "r1.place", o, &err), 0);
    /* After reveal: seat 0 sees what seat 1 placed and how many it paid,
     * never which cards. */
    json_t *log0 = engine_log_since(g, 0, 0);
    char *tl = json_dumps(log0, JSON_COMPACT);
    CHECK(strstr(tl, "\"pay\"") == NULL);
    if (target >= 0) {
        char want[32];
        snprintf(want, sizeof want, "\"paid\":%d", cost);
        CHECK(strstr(tl, want) != NULL);
        for (int i = 0; i < n1; i++) {
            char needle[48];
            if (h1[i] == target)
                continue;
            snprintf(needle, sizeof needle, "\"cards\":[%d", h1[i]);
            CHECK(strstr(tl, needle) == NULL);
        }
    }
    free(tl);
    json_decref(log0);
    v0 = engine_view(g, 0);
    const json_t *p1 = json_array_get(json_object_get(v0, "players"), 1);
    const json_t *last = json_object_get(p1, "last");
    CHECK(json_is_object(last));
    if (target >= 0) {
        CHECK_EQ_INT(json_integer_value(json_object_get(last, "paid")), cost);
        CHECK_EQ_INT(
            json_integer_value(json_object_get(
                json_array_get(json_object_get(last, "placed"), 0), "id")),
            target);
    }
    json_decref(v0);
    /* Save, load, same hash. */
    json_t *saved = engine_save(g);
    engine_game *g2 = engine_load(saved, &err);
    REQUIRE(g2);
    engine_hash(g, ha);
    engine_hash(g2, hb);
    CHECK(memcmp(ha, hb, sizeof ha) == 0);
    json_decref(saved);
    engine_free(g2);
    engine_free(g);
}

static void test_engine_defaults_and_options(void)
{
    engine_error err = {0};
    const engine_ruleset *rs = engine_ruleset_find("sprint");
    REQUIRE(rs);
    CHECK_EQ_INT(rs->min_seats, 1);
    CHECK_EQ_INT(rs->max_seats, 4);
    struct {
        const char *opts;
        int seats;
        const char *field;
    } bad[] = {
        {"{\"solitaire\":true}", 2, "solitaire"},
        {"{\"solitaire\":false}", 1, "solitaire"},
        {"{\"target_vp\":5}", 2, "target_vp"},
        {"{\"target_vp\":\"50\"}", 2, "target_vp"},
        {"{\"campaign_conditions_met\":[\"magnate\"]}", 2,
         "campaign_conditions_met"},
        {"{\"campaign_conditions_met\":[\"nope\"]}", 1,
         "campaign_conditions_met"},
        {"{\"campaign_conditions_met\":[\"tycoon\",\"tycoon\"]}", 1,
         "campaign_conditions_met"},
        {"{\"colour\":1}", 2, "colour"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_t *o = json_loads(bad[i].opts, 0, NULL);
        memset(&err, 0, sizeof err);
        CHECKF(engine_check_options(rs, o, bad[i].seats, &err) ==
                   ENGINE_EINVALID,
               "accepted %s", bad[i].opts);
        CHECK_EQ_STR(err.field, bad[i].field);
        json_decref(o);
    }
    json_t *o = J("{\"target_vp\":30}");
    CHECK_EQ_INT(engine_check_options(rs, o, 3, &err), 0);
    json_decref(o);
    CHECK_EQ_INT(engine_check_options(rs, NULL, 5, &err), ENGINE_EINVALID);
    /* Timeout defaults: explore, then keep the first cards. */
    engine_game *g = engine_create("sprint", "g-def", NULL, 2, seed32, &err);
    REQUIRE(g);
    engine_input in = {
        .seat = ENGINE_PUBLIC, .kind = ENGINE_TIMEOUT, .window = "r1.place"};
    CHECK_EQ_INT(engine_apply(g, &in, NULL, &err), 0);
    engine_window w;
    CHECK_EQ_INT(engine_windows(g, &w, 1), 1);
    CHECK_EQ_STR(w.id, "r1.explore");
    CHECK_EQ_INT(w.seats, 3);
    json_t *v = engine_view(g, 0);
    int h[32];
    int n = hand_ids(v, h);
    json_decref(v);
    CHECK_EQ_INT(n, SPRINT_START_HAND + 5);
    in.window = "r1.explore";
    CHECK_EQ_INT(engine_apply(g, &in, NULL, &err), 0);
    v = engine_view(g, 0);
    int h2[32];
    int n2 = hand_ids(v, h2);
    json_decref(v);
    CHECK_EQ_INT(n2, SPRINT_START_HAND + 2);
    for (int i = 0; i < SPRINT_START_HAND + 2 && i < n2; i++)
        CHECK_EQ_INT(h2[i], h[i]);
    CHECK_EQ_INT(engine_windows(g, &w, 1), 1);
    CHECK_EQ_STR(w.id, "r2.place");
    engine_free(g);
}

static void test_engine_full_games_unique_windows(void)
{
    engine_error err = {0};
    engine_rng brng;
    rng_for(&brng, 99, 3);
    for (int seats = 1; seats <= 4; seats++) {
        json_t *opts = seats == 1
                           ? J("{\"campaign_conditions_met\":[\"magnate\"]}")
                           : NULL;
        engine_game *g =
            engine_create("sprint", "g-full", opts, seats, seed32, &err);
        json_decref(opts);
        REQUIRE(g);
        char seen[64][ENGINE_WINDOW_ID_MAX], last[ENGINE_WINDOW_ID_MAX] = "";
        int nseen = 0, dup = 0, steps = 0;
        while (!engine_is_over(g) && steps++ < 2000) {
            engine_window w;
            REQUIRE(engine_windows(g, &w, 1) == 1);
            /* A window id, once closed, never comes back. */
            if (strcmp(last, w.id) != 0) {
                for (int k = 0; k < nseen; k++)
                    dup += strcmp(seen[k], w.id) == 0;
                if (nseen < 64)
                    memcpy(seen[nseen++], w.id, sizeof w.id);
                memcpy(last, w.id, sizeof last);
            }
            for (int s = 0; s < seats; s++) {
                if (!(w.seats >> s & 1) || (w.submitted >> s & 1))
                    continue;
                engine_input in;
                REQUIRE(engine_bot_action(g, s, "basic", &brng, &in, &err) ==
                        0);
                int rc = engine_apply(g, &in, NULL, &err);
                json_decref((json_t *)in.payload);
                CHECKF(rc == 0, "bot input refused: %s", err.msg);
                if (rc)
                    break;
                break; /* windows may change after each input */
            }
        }
        CHECK_EQ_INT(dup, 0);
        CHECK(nseen >= 7);
        CHECK(engine_is_over(g));
        json_t *r = engine_result(g);
        REQUIRE(r);
        CHECK(json_is_array(json_object_get(r, "winners")));
        if (seats == 1) {
            CHECK_EQ_INT(json_integer_value(json_object_get(r, "rounds")), 7);
            CHECK(json_is_array(json_object_get(r, "conditions_met")));
            CHECK(json_is_array(json_object_get(r, "new_conditions")));
            sprint_final_stats st;
            CHECK_EQ_INT(sprint_final_stats_from_result(r, &st, &err), 0);
        }
        json_decref(r);
        engine_free(g);
    }
}

/* New games are stamped with rules edition 2 (each rival card counts its
 * best opponent; no rival in orders or views); a game stored without an
 * edition is edition 1, as it was played. */
static void test_engine_rules_editions(void)
{
    const engine_ruleset *rs = engine_ruleset_find("sprint");
    REQUIRE(rs);
    json_t *o = engine_options_stamp(rs, NULL);
    CHECK_EQ_INT((int)json_integer_value(json_object_get(o, "edition")), 2);
    json_decref(o);
    json_t *given = J("{\"target_vp\":30,\"edition\":1}");
    o = engine_options_stamp(rs, given);
    CHECK(json_equal(o, given)); /* an edition given is kept */
    json_decref(o);
    json_decref(given);
    engine_error err = {0};
    for (int stamped = 0; stamped < 2; stamped++) {
        json_t *opts = stamped ? engine_options_stamp(rs, NULL) : NULL;
        engine_game *g = engine_create("sprint", "g-ed", opts, 2, seed32, &err);
        REQUIRE(g);
        json_t *v = engine_view(g, 0);
        const json_t *p0 = json_array_get(json_object_get(v, "players"), 0);
        CHECKF((json_object_get(p0, "rival") != NULL) == !stamped,
               "rival in the view of edition %d", stamped + 1);
        json_decref(v);
        int rc = submit(g, 0, "r1.place",
                        J("{\"action\":\"explore\",\"rival\":1}"), &err);
        CHECK_EQ_INT(rc, stamped ? ENGINE_EINVALID : 0);
        if (stamped)
            CHECK_EQ_STR(err.field, "rival");
        engine_free(g);
        json_decref(opts);
    }
}

int main(void)
{
    if (sprint_test_init())
        return 1;
    RUN(test_order_errors_name_the_field);
    RUN(test_engine_views_hide_hands_and_payments);
    RUN(test_engine_defaults_and_options);
    RUN(test_engine_rules_editions);
    RUN(test_engine_full_games_unique_windows);
    return TEST_SUMMARY();
}

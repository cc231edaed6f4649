/*
 * test_sprint_rules.c - Galactic Sprint's rules, one named test per rule
 * the seed states and per rule we invented, on small positions built from
 * named cards (see sprint_test.h).
 */
#include "tests/unit/sprint/sprint_test.h"

/* ------------------------------------------------------ seed rules -- */

static void test_develop_alone_gets_discount(void)
{
    sprint_state s;
    fresh(&s, 2);
    int ws = inst("orbital_workshop", 0); /* cost 2 */
    to_hand(&s, 0, ws);
    fill_hand(&s, 0, 3);
    int a = s.p[0].hand[1], b = s.p[0].hand[2];
    engine_error err;
    CHECK(ok(
        &s, 0,
        J("{\"action\":\"develop\",\"development\":%d,\"pay\":[%d]}", ws, a)));
    CHECK_EQ_INT(check(&s, 0,
                       J("{\"action\":\"develop\",\"development\":%d,"
                         "\"pay\":[%d,%d]}",
                         ws, a, b),
                       &err),
                 ENGINE_EINVALID);
    CHECK_EQ_STR(err.msg, "cost 1 needs 1 discard, got 2");
    CHECK_EQ_STR(err.field, "pay");
    /* Cost never below 0: a cost-1 development alone is free. */
    int sc = inst("salvage_crews", 0);
    to_hand(&s, 0, sc);
    CHECK(ok(&s, 0,
             J("{\"action\":\"develop\",\"development\":%d,\"pay\":[]}", sc)));
}

static void test_settle_draws_one_card(void)
{
    sprint_state s;
    fresh(&s, 2);
    int w = inst("cobalt_shoals", 0); /* cost 2 */
    to_hand(&s, 0, w);
    fill_hand(&s, 0, 3);
    int a = s.p[0].hand[1], b = s.p[0].hand[2];
    json_t *orders[2] = {
        J("{\"action\":\"settle\",\"world\":%d,\"pay\":[%d,%d]}", w, a, b),
        NULL};
    place(&s, orders);
    /* 4 - 1 placed - 2 paid + 1 drawn = 2, before income (0). */
    CHECK_EQ_INT(s.p[0].last.drew, 1);
    CHECK_EQ_INT(s.p[0].last.paid, 2);
    CHECK_EQ_INT(s.p[0].nempire, 1);
    CHECK(invariant_ok(&s));
}

static void test_both_has_no_discount_and_no_draw(void)
{
    sprint_state s;
    fresh(&s, 2);
    int d = inst("orbital_workshop", 0); /* cost 2 */
    int w = inst("cobalt_shoals", 0);    /* cost 2 */
    to_hand(&s, 0, d);
    to_hand(&s, 0, w);
    fill_hand(&s, 0, 5);
    const uint8_t *h = s.p[0].hand;
    engine_error err;
    CHECK_EQ_INT(check(&s, 0,
                       J("{\"action\":\"both\",\"development\":%d,\"world\":%d,"
                         "\"pay\":[%d,%d,%d]}",
                         d, w, h[2], h[3], h[4]),
                       &err),
                 ENGINE_EINVALID);
    CHECK_EQ_STR(err.msg, "cost 4 needs 4 discards, got 3");
    json_t *orders[2] = {
        J("{\"action\":\"both\",\"development\":%d,\"world\":%d,"
          "\"pay\":[%d,%d,%d,%d]}",
          d, w, h[2], h[3], h[4], h[5]),
        NULL};
    place(&s, orders);
    CHECK_EQ_INT(s.p[0].last.drew, 0);
    CHECK_EQ_INT(s.p[0].last.paid, 4);
    CHECK_EQ_INT(s.p[0].nempire, 2);
}

static void test_explore_arithmetic(void)
{
    sprint_state s;
    fresh(&s, 2);
    to_empire(&s, 0, inst("deep_scanner_array", 0)); /* 2 explore icons */
    fill_hand(&s, 0, 4);
    fill_hand(&s, 1, 4);
    place(&s, NULL); /* both explore */
    /* seat 0: draws 2 + (2 + 3 marker) = 7, discards 5; seat 1: 5 and 3. */
    CHECK_EQ_INT(s.p[0].last.explore_drew, 7);
    CHECK_EQ_INT(s.p[0].must_discard, 5);
    CHECK_EQ_INT(s.p[1].last.explore_drew, 5);
    CHECK_EQ_INT(s.p[1].must_discard, 3);
    CHECK_EQ_INT(s.phase, SPRINT_PHASE_EXPLORE);
    char id[ENGINE_WINDOW_ID_MAX];
    sprint_window_id(&s, id, sizeof id);
    CHECK_EQ_STR(id, "r1.explore");
    /* A wrong count is refused, naming the field. */
    uint8_t ids[SPRINT_MAX_CARDS];
    int n;
    engine_error err = {0};
    json_t *bad = J("{\"discard\":[%d]}", s.p[0].hand[0]);
    CHECK_EQ_INT(sprint_discard_parse(&s, 0, bad, ids, &n, &err),
                 ENGINE_EINVALID);
    CHECK_EQ_STR(err.msg, "you must discard 5 cards, got 1");
    json_decref(bad);
    int income0 = sprint_empire_income(&s, 0);
    discard_default(&s);
    /* Net +2 cards each, then income. */
    CHECK_EQ_INT(s.p[0].nhand, 4 + 2 + income0);
    CHECK_EQ_INT(s.p[1].nhand, 4 + 2);
    CHECK_EQ_INT(s.round, 2);
    CHECK(invariant_ok(&s));
}

static void test_military_conquest_needs_enough_military(void)
{
    sprint_state s;
    fresh(&s, 2);
    to_empire(&s, 0, inst("drone_picket", 0)); /* military 1 */
    int iron = inst("ironhold", 0);            /* defence 2 */
    int scrap = inst("scrap_moon", 0);         /* defence 1 */
    to_hand(&s, 0, iron);
    to_hand(&s, 0, scrap);
    fill_hand(&s, 0, 2);
    engine_error err;
    CHECK_EQ_INT(
        check(&s, 0, J("{\"action\":\"settle\",\"world\":%d}", iron), &err),
        ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "world");
    CHECK_EQ_STR(err.msg, "military 1 is below defence 2 of Ironhold");
    /* Equal military conquers, with no discards. */
    CHECK(
        ok(&s, 0, J("{\"action\":\"settle\",\"world\":%d,\"pay\":[]}", scrap)));
    CHECK(ok(&s, 0,
             J("{\"action\":\"settle\",\"world\":%d,"
               "\"world_mode\":\"conquer\"}",
               scrap)));
}

static void test_no_mixing_military_and_payment(void)
{
    sprint_state s;
    fresh(&s, 2);
    to_empire(&s, 0, inst("drone_picket", 0)); /* military 1 */
    int iron = inst("ironhold", 0);            /* defence 2 */
    to_hand(&s, 0, iron);
    fill_hand(&s, 0, 3);
    engine_error err;
    /* Military 1 plus one discarded card does not make 2. */
    CHECK_EQ_INT(check(&s, 0,
                       J("{\"action\":\"settle\",\"world\":%d,\"pay\":[%d]}",
                         iron, s.p[0].hand[1]),
                       &err),
                 ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "world");
    /* Paying for a military world without the ability is refused. */
    CHECK_EQ_INT(check(&s, 0,
                       J("{\"action\":\"settle\",\"world\":%d,"
                         "\"world_mode\":\"pay\",\"pay\":[%d]}",
                         iron, s.p[0].hand[1]),
                       &err),
                 ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "world_mode");
    CHECK(strstr(err.msg, "needs a card that allows it") != NULL);
    /* A non-military world cannot be "conquered". */
    int cob = inst("cobalt_shoals", 0);
    to_hand(&s, 0, cob);
    CHECK_EQ_INT(check(&s, 0,
                       J("{\"action\":\"settle\",\"world\":%d,"
                         "\"world_mode\":\"conquer\"}",
                         cob),
                       &err),
                 ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "world_mode");
}

static void test_pay_for_military_at_cost_minus_one_never_alien(void)
{
    sprint_state s;
    fresh(&s, 2);
    to_empire(&s, 0, inst("envoys_rotunda", 0));
    int ember = inst("ember_citadel", 0);   /* defence 4 -> pay 3 */
    int ruins = inst("murmuring_ruins", 0); /* alien, defence 5 */
    to_hand(&s, 0, ember);
    to_hand(&s, 0, ruins);
    fill_hand(&s, 0, 4);
    const uint8_t *h = s.p[0].hand;
    engine_error err;
    CHECK(ok(&s, 0,
             J("{\"action\":\"settle\",\"world\":%d,"
               "\"world_mode\":\"pay\",\"pay\":[%d,%d,%d]}",
               ember, h[2], h[3], h[4])));
    CHECK_EQ_INT(check(&s, 0,
                       J("{\"action\":\"settle\",\"world\":%d,"
                         "\"world_mode\":\"pay\",\"pay\":[%d,%d,%d,%d]}",
                         ember, h[2], h[3], h[4], h[5]),
                       &err),
                 ENGINE_EINVALID);
    CHECK_EQ_STR(err.msg, "cost 3 needs 3 discards, got 4");
    CHECK_EQ_INT(check(&s, 0,
                       J("{\"action\":\"settle\",\"world\":%d,"
                         "\"world_mode\":\"pay\",\"pay\":[%d,%d,%d,%d]}",
                         ruins, h[2], h[3], h[4], h[5]),
                       &err),
                 ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "world_mode");
    CHECK(strstr(err.msg, "alien world: it must be conquered") != NULL);
    /* A development placed with it grants the route to the world (order). */
    sprint_state t;
    fresh(&t, 2);
    int rot = inst("envoys_rotunda", 1);
    to_hand(&t, 0, rot);
    to_hand(&t, 0, ember);
    fill_hand(&t, 0, 5);
    h = t.p[0].hand;
    CHECK(ok(&t, 0,
             J("{\"action\":\"both\",\"development\":%d,\"world\":%d,"
               "\"world_mode\":\"pay\",\"pay\":[%d,%d,%d,%d,%d]}",
               rot, ember, h[2], h[3], h[4], h[5], h[6])));
}

static void test_convoy_places_a_second_world(void)
{
    sprint_state s;
    fresh(&s, 2);
    to_empire(&s, 0, inst("lancer_wing", 0));  /* military 3 */
    int base = inst("strike_staging_base", 0); /* def 3, mil 2, convoy mil */
    int ward = inst("warden_station", 0);      /* def 5 */
    int cob = inst("cobalt_shoals", 0);
    to_hand(&s, 0, base);
    to_hand(&s, 0, ward);
    to_hand(&s, 0, cob);
    fill_hand(&s, 0, 2);
    engine_error err;
    /* Without the convoy the second world cannot come; military 3 < 5. */
    CHECK_EQ_INT(
        check(&s, 0, J("{\"action\":\"settle\",\"world\":%d}", ward), &err),
        ENGINE_EINVALID);
    /* The first world's military (3 + 2) conquers the convoy's world. */
    CHECK(ok(&s, 0,
             J("{\"action\":\"settle\",\"world\":%d,"
               "\"convoy_world\":%d}",
               base, ward)));
    /* This convoy only allows military worlds. */
    CHECK_EQ_INT(check(&s, 0,
                       J("{\"action\":\"settle\",\"world\":%d,"
                         "\"convoy_world\":%d,\"pay\":[%d,%d]}",
                         base, cob, s.p[0].hand[3], s.p[0].hand[4]),
                       &err),
                 ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "convoy_world");
    /* A world without convoy cannot bring a second one. */
    CHECK_EQ_INT(check(&s, 0,
                       J("{\"action\":\"settle\",\"world\":%d,"
                         "\"convoy_world\":%d,\"pay\":[%d,%d]}",
                         cob, base, s.p[0].hand[3], s.p[0].hand[4]),
                       &err),
                 ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "convoy_world");
    CHECK(strstr(err.msg, "has no convoy ability") != NULL);
    json_t *orders[2] = {J("{\"action\":\"settle\",\"world\":%d,"
                           "\"convoy_world\":%d}",
                           base, ward),
                         NULL};
    place(&s, orders);
    CHECK_EQ_INT(s.p[0].nempire, 3);
    CHECK_EQ_INT(s.p[0].last.nplaced, 2);
    CHECK_EQ_INT(s.p[0].last.drew, 1); /* one settle bonus, not two */
    CHECK(invariant_ok(&s));
}

static void test_order_of_effects(void)
{
    sprint_state s;
    fresh(&s, 2);
    /* A development does not discount itself... */
    int yards = inst("shipwright_yards", 0);  /* cost 3, devs -1 */
    int guild = inst("prospectors_guild", 0); /* cost 2, worlds -1 */
    int cob = inst("cobalt_shoals", 0);       /* cost 2 */
    to_hand(&s, 0, yards);
    to_hand(&s, 0, guild);
    to_hand(&s, 0, cob);
    fill_hand(&s, 0, 4);
    const uint8_t *h = s.p[0].hand;
    CHECK(ok(&s, 0,
             J("{\"action\":\"develop\",\"development\":%d,"
               "\"pay\":[%d,%d]}",
               yards, h[3], h[4])));
    /* ...but does discount the world placed with it: 2 + (2 - 1) = 3. */
    CHECK(ok(&s, 0,
             J("{\"action\":\"both\",\"development\":%d,\"world\":%d,"
               "\"pay\":[%d,%d,%d]}",
               guild, cob, h[3], h[4], h[5])));
    /* A world's own military does not count towards itself. */
    sprint_state t;
    fresh(&t, 2);
    to_empire(&t, 0, inst("hired_blades_hall", 0)); /* military 2 */
    int keep = inst("redshard_keep", 0);            /* def 3, military 1 */
    to_hand(&t, 0, keep);
    engine_error err;
    CHECK_EQ_INT(
        check(&t, 0, J("{\"action\":\"settle\",\"world\":%d}", keep), &err),
        ENGINE_EINVALID);
    CHECK_EQ_STR(err.msg, "military 2 is below defence 3 of Redshard Keep");
    /* A development placed with it does: military 2 + 1 = 3. */
    int picket = inst("drone_picket", 0); /* cost 1, military 1 */
    to_hand(&t, 0, picket);
    fill_hand(&t, 0, 1);
    CHECK(ok(&t, 0,
             J("{\"action\":\"both\",\"development\":%d,\"world\":%d,"
               "\"pay\":[%d]}",
               picket, keep, t.p[0].hand[2])));
}

static void test_conditional_military(void)
{
    sprint_state s;
    fresh(&s, 2);
    to_empire(&s, 0, inst("insurgent_hunters", 0)); /* 1, +2 vs rebel */
    int hide = inst("outlaw_hideaway", 0);          /* rebel, def 2 */
    int iron = inst("ironhold", 0);                 /* amber, def 2 */
    int bast = inst("insurgent_bastion", 0);        /* rebel, def 4 */
    to_hand(&s, 0, hide);
    to_hand(&s, 0, iron);
    to_hand(&s, 0, bast);
    engine_error err;
    CHECK(ok(&s, 0, J("{\"action\":\"settle\",\"world\":%d}", hide)));
    CHECK_EQ_INT(
        check(&s, 0, J("{\"action\":\"settle\",\"world\":%d}", iron), &err),
        ENGINE_EINVALID);
    CHECK_EQ_INT(
        check(&s, 0, J("{\"action\":\"settle\",\"world\":%d}", bast), &err),
        ENGINE_EINVALID);
    CHECK_EQ_STR(err.msg, "military 3 is below defence 4 of Insurgent Bastion");
    /* Colour-only military: +3 against amber worlds. */
    to_empire(&s, 0, inst("amber_legion", 0)); /* 1, +3 vs amber */
    CHECK(ok(&s, 0, J("{\"action\":\"settle\",\"world\":%d}", iron)));
    int ember = inst("ember_citadel", 0); /* amber def 4: 2 + 3 */
    to_hand(&s, 0, ember);
    CHECK(ok(&s, 0, J("{\"action\":\"settle\",\"world\":%d}", ember)));
}

static void test_discounts_by_kind_and_colour(void)
{
    sprint_state s;
    fresh(&s, 2);
    to_empire(&s, 0, inst("biosphere_engineers", 0)); /* jade worlds -2 */
    to_empire(&s, 0, inst("prospectors_guild", 0));   /* worlds -1 */
    int tide = inst("tidelock_harbor", 0);            /* jade, cost 4 */
    int cob = inst("cobalt_shoals", 0);               /* azure, cost 2 */
    to_hand(&s, 0, tide);
    to_hand(&s, 0, cob);
    fill_hand(&s, 0, 2);
    const uint8_t *h = s.p[0].hand;
    CHECK(
        ok(&s, 0,
           J("{\"action\":\"settle\",\"world\":%d,\"pay\":[%d]}", tide, h[2])));
    CHECK(
        ok(&s, 0,
           J("{\"action\":\"settle\",\"world\":%d,\"pay\":[%d]}", cob, h[2])));
}

/* Two copies of one discount card stack: each takes its amount off. */
static void test_discounts_of_one_kind_stack(void)
{
    sprint_state s;
    engine_error err;
    fresh(&s, 2);
    int tide = inst("tidelock_harbor", 0); /* jade, cost 4 */
    to_hand(&s, 0, tide);
    fill_hand(&s, 0, 4);
    const uint8_t *h = s.p[0].hand;
    to_empire(&s, 0, inst("prospectors_guild", 0)); /* worlds -1 */
    CHECK(ok(&s, 0,
             J("{\"action\":\"settle\",\"world\":%d,\"pay\":[%d,%d,%d]}", tide,
               h[1], h[2], h[3])));
    to_empire(&s, 0, inst("prospectors_guild", 1)); /* worlds -1 again */
    CHECK(ok(&s, 0,
             J("{\"action\":\"settle\",\"world\":%d,\"pay\":[%d,%d]}", tide,
               h[1], h[2])));
    CHECK_EQ_INT(
        check(&s, 0,
              J("{\"action\":\"settle\",\"world\":%d,\"pay\":[%d,%d,%d]}", tide,
                h[1], h[2], h[3]),
              &err),
        ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "pay");
}

static void test_survey_card_once_per_game(void)
{
    sprint_state s;
    fresh(&s, 2);
    fill_hand(&s, 0, 3);
    engine_error err;
    /* Alone: cost 1 - 1 = 0. */
    CHECK(ok(&s, 0, J("{\"action\":\"develop\",\"survey\":true}")));
    CHECK_EQ_INT(check(&s, 0,
                       J("{\"action\":\"develop\",\"survey\":true,"
                         "\"development\":%d}",
                         s.p[0].hand[0]),
                       &err),
                 ENGINE_EINVALID);
    json_t *orders[2] = {J("{\"action\":\"develop\",\"survey\":true}"), NULL};
    place(&s, orders);
    CHECK(s.p[0].survey_used);
    CHECK_EQ_INT(s.p[0].empire[0], CS->ndeck + 0);
    CHECK_EQ_INT(sprint_empire_explore(&s, 0), 2);
    CHECK_EQ_INT(sprint_empire_military(&s, 0), 1);
    CHECK_EQ_INT(sprint_empire_income(&s, 0), 1);
    if (s.phase == SPRINT_PHASE_EXPLORE)
        discard_default(&s);
    CHECK_EQ_INT(
        check(&s, 0, J("{\"action\":\"develop\",\"survey\":true}"), &err),
        ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "survey");
    /* Seat 1's own survey card is still there; with a world it costs 1. */
    fill_hand(&s, 1, 2);
    int dust = inst("dustfall_outpost", 0);
    to_hand(&s, 1, dust);
    CHECK_EQ_INT(check(&s, 1,
                       J("{\"action\":\"both\",\"survey\":true,\"world\":%d,"
                         "\"pay\":[%d]}",
                         dust, s.p[1].hand[0]),
                       &err),
                 ENGINE_EINVALID); /* 1 + 1 = 2 needed */
    CHECK_EQ_STR(err.msg, "cost 2 needs 2 discards, got 1");
    CHECK(invariant_ok(&s));
}

static void test_conditional_bonus_not_multiplied(void)
{
    sprint_state s;
    fresh(&s, 2);
    int acc = inst("first_contact_accord", 0); /* 2 VP, +3 if alien world */
    to_empire(&s, 0, acc);
    CHECK_EQ_INT(sprint_empire_vp(&s, 0), 2);
    to_empire(&s, 0, inst("murmuring_ruins", 0)); /* 4 VP, alien */
    CHECK_EQ_INT(sprint_empire_vp(&s, 0), 2 + 4 + 3);
    to_empire(&s, 0, inst("murmuring_ruins", 1));
    CHECK_EQ_INT(sprint_empire_vp(&s, 0), 2 + 8 + 3); /* not +6 */
    /* Bonus income likewise: +2 once with any number of military worlds. */
    sprint_state t;
    fresh(&t, 2);
    to_empire(&t, 0, inst("household_legion", 0));
    CHECK_EQ_INT(sprint_empire_income(&t, 0), 0);
    to_empire(&t, 0, inst("ironhold", 0));
    to_empire(&t, 0, inst("ironhold", 1));
    CHECK_EQ_INT(sprint_empire_income(&t, 0), 2);
}

static void test_vp_per_counts_own_and_rival_empire(void)
{
    sprint_state s;
    fresh(&s, 3);
    to_empire(&s, 0, inst("grand_forum", 0)); /* 1 VP per development */
    to_empire(&s, 0, inst("salvage_crews", 0));
    to_empire(&s, 0, inst("cobalt_shoals", 0)); /* 2 VP, a world */
    CHECK_EQ_INT(sprint_empire_vp(&s, 0), 2 + 2);
    /* Listening Posts: 1 VP + 1 per 2 military icons of the chosen rival. */
    to_empire(&s, 1, inst("listening_posts", 0));
    to_empire(&s, 2, inst("lancer_wing", 0));  /* military 3, 1 VP */
    to_empire(&s, 2, inst("drone_picket", 0)); /* military 1 */
    s.p[1].rival = 0;
    CHECK_EQ_INT(sprint_empire_vp(&s, 1), 1);
    json_t *o = J("{\"action\":\"explore\",\"rival\":2}");
    sprint_plan plans[3];
    engine_error err = {0};
    CHECK_EQ_INT(sprint_plan_parse(&s, 1, o, &plans[1], &err), 0);
    json_decref(o);
    s.p[1].rival = 2;
    CHECK_EQ_INT(sprint_empire_vp(&s, 1), 1 + 2);
    o = J("{\"action\":\"explore\",\"rival\":1}");
    CHECK_EQ_INT(sprint_plan_parse(&s, 1, o, &plans[1], &err), ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "rival");
    json_decref(o);
    /* Solitaire: no bonus from another player. */
    sprint_state solo;
    fresh(&solo, 1);
    to_empire(&solo, 0, inst("listening_posts", 0));
    CHECK_EQ_INT(sprint_empire_vp(&solo, 0), 1);
    o = J("{\"action\":\"explore\",\"rival\":0}");
    CHECK_EQ_INT(sprint_plan_parse(&solo, 0, o, &plans[0], &err),
                 ENGINE_EINVALID);
    json_decref(o);
}

/* Edition 2, four seats: seat 1 (the first opponent of seat 0) has little;
 * seat 2 the most military icons; seat 3 the most developments and
 * worlds. */
static void rival_table(sprint_state *s)
{
    fresh(s, 4);
    s->edition = SPRINT_EDITION_BEST_RIVAL;
    to_empire(s, 1, inst("drone_picket", 0)); /* military 1, a development */
    to_empire(s, 2, inst("lancer_wing", 0));  /* military 3 */
    to_empire(s, 2, inst("lancer_wing", 1));  /* military 3 */
    for (int i = 0; i < 3; i++) {
        to_empire(s, 3, inst("salvage_crews", i));
        to_empire(s, 3, inst("orbital_workshop", i));
        to_empire(s, 3, inst("cobalt_shoals", i)); /* 2 VP worlds */
    }
    to_empire(s, 3, inst("pearl_lagoon", 0));
    to_empire(s, 3, inst("pearl_lagoon", 1));
}

/* A rival card of each kind counts the opponent that gives it the most:
 * never simply the first opponent, nor one rival for all such cards. */
static void test_each_rival_card_counts_its_best_opponent(void)
{
    sprint_state s;
    /* Listening Posts (military icons): seat 2's 6 icons, +3. */
    rival_table(&s);
    to_empire(&s, 0, inst("listening_posts", 0)); /* 1 VP */
    CHECK_EQ_INT(sprint_empire_vp(&s, 0), 1 + 3);
    /* Market Watchers (developments): seat 3's 6, +3 (seat 2 has 2). */
    rival_table(&s);
    to_empire(&s, 0, inst("market_watchers", 0)); /* 1 VP */
    CHECK_EQ_INT(sprint_empire_vp(&s, 0), 1 + 3);
    /* Border Tariffs (worlds): seat 3's 5, +2. */
    rival_table(&s);
    to_empire(&s, 0, inst("border_tariffs", 0)); /* 0 VP */
    CHECK_EQ_INT(sprint_empire_vp(&s, 0), 0 + 2);
    /* All three: each its own best (3 + 3 + 2), not one rival for all
     * (seat 3: 0 + 3 + 2) nor the first opponent (seat 1: nothing). */
    rival_table(&s);
    to_empire(&s, 0, inst("listening_posts", 0));
    to_empire(&s, 0, inst("market_watchers", 0));
    to_empire(&s, 0, inst("border_tariffs", 0));
    CHECK_EQ_INT(sprint_empire_vp(&s, 0), 2 + 3 + 3 + 2);
    /* The named rival of edition 1 plays no part. */
    s.p[0].rival = 1;
    CHECK_EQ_INT(sprint_empire_vp(&s, 0), 2 + 3 + 3 + 2);
    /* From seat 1, whose first opponent is seat 0 (nothing to count). */
    rival_table(&s);
    to_empire(&s, 1, inst("market_watchers", 0));
    CHECK_EQ_INT(sprint_empire_vp(&s, 1), 1 + 3);
    /* The same table in edition 1 counts the named rival only. */
    rival_table(&s);
    s.edition = SPRINT_EDITION_NAMED_RIVAL;
    to_empire(&s, 0, inst("listening_posts", 0));
    to_empire(&s, 0, inst("market_watchers", 0));
    s.p[0].rival = 1;
    CHECK_EQ_INT(sprint_empire_vp(&s, 0), 2);
    s.p[0].rival = 2;
    CHECK_EQ_INT(sprint_empire_vp(&s, 0), 2 + 3 + 1);
    /* Solitaire: still nothing from another player. */
    sprint_state solo;
    fresh(&solo, 1);
    solo.edition = SPRINT_EDITION_BEST_RIVAL;
    to_empire(&solo, 0, inst("listening_posts", 0));
    CHECK_EQ_INT(sprint_empire_vp(&solo, 0), 1);
}

/* Edition 2 orders name no rival; saves say the edition, edition 1 saves
 * are as before editions (no key) and load as edition 1. */
static void test_edition_two_orders_and_saves(void)
{
    sprint_state s, t;
    rival_table(&s);
    json_t *o = J("{\"action\":\"explore\",\"rival\":2}");
    sprint_plan plan;
    engine_error err = {0};
    CHECK_EQ_INT(sprint_plan_parse(&s, 0, o, &plan, &err), ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "rival");
    json_decref(o);
    json_t *saved = sprint_state_save(&s);
    CHECK_EQ_INT((int)json_integer_value(json_object_get(saved, "edition")),
                 SPRINT_EDITION_BEST_RIVAL);
    CHECK_EQ_INT(sprint_state_load(&t, saved, &err), 0);
    CHECK_EQ_INT(t.edition, SPRINT_EDITION_BEST_RIVAL);
    json_decref(saved);
    s.edition = SPRINT_EDITION_NAMED_RIVAL;
    saved = sprint_state_save(&s);
    CHECK(json_object_get(saved, "edition") == NULL);
    t.edition = 0;
    CHECK_EQ_INT(sprint_state_load(&t, saved, &err), 0);
    CHECK_EQ_INT(t.edition, SPRINT_EDITION_NAMED_RIVAL);
    json_decref(saved);
}

static void test_hand_limit_ten(void)
{
    sprint_state s;
    fresh(&s, 2);
    to_empire(&s, 0, inst("freight_consortium", 0)); /* income 3 */
    fill_hand(&s, 0, 9);
    fill_hand(&s, 1, 9);
    json_t *orders[2] = {
        J("{\"action\":\"develop\",\"survey\":true}"),
        J("{\"action\":\"develop\",\"survey\":true}"),
    };
    place(&s, orders); /* survey: +1 income each, no discards */
    CHECK_EQ_INT(s.phase, SPRINT_PHASE_LIMIT);
    CHECK_EQ_INT(s.p[0].nhand, 9 + 4);
    CHECK_EQ_INT(s.p[0].must_discard, 3);
    CHECK_EQ_INT(s.p[1].nhand, 10);
    CHECK_EQ_INT(s.p[1].must_discard, 0);
    CHECK_EQ_INT(sprint_window_seats(&s), 1);
    char id[ENGINE_WINDOW_ID_MAX];
    sprint_window_id(&s, id, sizeof id);
    CHECK_EQ_STR(id, "r1.limit");
    discard_default(&s);
    CHECK_EQ_INT(s.p[0].nhand, 10);
    CHECK_EQ_INT(s.p[0].last.limit_discarded, 3);
    CHECK_EQ_INT(s.round, 2);
    CHECK(invariant_ok(&s));
}

static void test_game_ends_after_scoring_at_50(void)
{
    sprint_state s;
    fresh(&s, 2);
    to_empire(&s, 0, inst("cobalt_shoals", 0)); /* 2 VP */
    s.p[0].chips = 47;
    s.p[1].chips = 49;
    place(&s, NULL);
    discard_default(&s);
    CHECK(!s.over); /* 49 and 49: go on */
    CHECK_EQ_INT(s.p[0].chips, 49);
    place(&s, NULL);
    discard_default(&s);
    CHECK(s.over);
    CHECK_EQ_INT(s.phase, SPRINT_PHASE_OVER);
    CHECK_EQ_INT(s.p[0].chips, 51);
    json_t *r = sprint_result_json(&s);
    REQUIRE(r);
    CHECK_EQ_INT(
        json_integer_value(json_array_get(json_object_get(r, "winners"), 0)),
        0);
    CHECK_EQ_INT(json_array_size(json_object_get(r, "winners")), 1);
    json_decref(r);
    char id[ENGINE_WINDOW_ID_MAX];
    CHECK(sprint_window_id(&s, id, sizeof id) < 0);
    CHECK(invariant_ok(&s));
}

static void test_tie_breaks(void)
{
    sprint_state s;
    fresh(&s, 3);
    s.over = 1;
    s.phase = SPRINT_PHASE_OVER;
    s.p[0].chips = s.p[1].chips = 55;
    s.p[2].chips = 30;
    fill_hand(&s, 0, 3);
    fill_hand(&s, 1, 2);
    to_empire(&s, 1, inst("salvage_crews", 0)); /* income 1: 2 + 1 = 3 */
    fill_hand(&s, 2, 9);
    json_t *r = sprint_result_json(&s);
    json_t *w = json_object_get(r, "winners");
    CHECK_EQ_INT(json_array_size(w), 2); /* 3 + 0 vs 2 + 1: shared */
    json_decref(r);
    to_hand(&s, 1, s.deck[s.ndeck - 1]);
    r = sprint_result_json(&s);
    w = json_object_get(r, "winners");
    CHECK_EQ_INT(json_array_size(w), 1);
    CHECK_EQ_INT(json_integer_value(json_array_get(w, 0)), 1);
    CHECK_EQ_INT(
        json_integer_value(json_array_get(json_object_get(r, "tiebreak"), 1)),
        4);
    json_decref(r);
}

static void test_reshuffle_when_deck_runs_out(void)
{
    sprint_state s;
    fresh(&s, 2);
    fill_hand(&s, 0, 3);
    /* Move all but one deck card to the discard pile. */
    while (s.ndeck > 1) {
        s.discard[s.ndiscard++] = s.deck[--s.ndeck];
    }
    int before = s.ndiscard;
    place(&s, NULL); /* seat 0 explores: draws 5 */
    CHECK_EQ_INT(s.reshuffles, 1);
    CHECK_EQ_INT(s.p[0].last.explore_drew, 5);
    CHECK_EQ_INT(s.ndeck + s.ndiscard, before + 1 - 10);
    CHECK(invariant_ok(&s));
    /* Nothing to draw at all: draws stop, nothing breaks. */
    sprint_state t;
    fresh(&t, 2);
    while (t.ndeck)
        to_hand(&t, t.ndeck % 2, t.deck[t.ndeck - 1]);
    place(&t, NULL);
    CHECK_EQ_INT(t.p[0].last.explore_drew, 0);
    CHECK(invariant_ok(&t));
}

static void test_income_dealt_in_vp_order_when_deck_is_short(void)
{
    sprint_state s;
    fresh(&s, 3);
    for (int i = 0; i < 3; i++)
        to_empire(&s, i, inst("orbital_workshop", i)); /* income 2 */
    /* Seats 1 and 2 tie for the most chips: seat 1 (nearest clockwise from
     * the first player) is served first, then 2, then 0. */
    s.p[0].chips = 5;
    s.p[1].chips = 9;
    s.p[2].chips = 9;
    for (int i = 0; i < 3; i++)
        fill_hand(&s, i, 2);
    /* Leave 3 cards in the deck after the explore draws: 3 seats x 5. */
    while (s.ndeck > 15 + 3)
        s.discard[s.ndiscard++] = s.deck[--s.ndeck];
    int discards = s.ndiscard;
    place(&s, NULL);
    CHECK_EQ_INT(s.ndeck, 3);
    discard_default(&s);
    /* The explore discards went on the pile too; income: seat 1 gets 2 from
     * the deck, seat 2 gets 1 and then 1 from the reshuffled discards. */
    CHECK_EQ_INT(s.p[1].last.income_drew, 2);
    CHECK_EQ_INT(s.p[2].last.income_drew, 2);
    CHECK_EQ_INT(s.p[0].last.income_drew, 2);
    CHECK_EQ_INT(s.reshuffles, 1);
    (void)discards;
    /* With an empty discard pile the last seat served goes short. */
    sprint_state t;
    fresh(&t, 3);
    for (int i = 0; i < 3; i++)
        to_empire(&t, i, inst("orbital_workshop", i));
    t.p[0].chips = 20;
    t.p[1].chips = 3;
    t.p[2].chips = 20;
    for (int i = 0; i < 3; i++)
        fill_hand(&t, i, 2);
    while (t.ndeck > 3)
        to_hand(&t, 1, t.deck[t.ndeck - 1]); /* seat 1 hoards the rest */
    json_t *orders[3];
    for (int i = 0; i < 3; i++)
        orders[i] = J("{\"action\":\"develop\",\"survey\":true}");
    place(&t, orders);
    /* Deck 3: seat 0 (20, first from seat 0) gets 3 (income 3 with survey)
     * then seat 1 and 2 get nothing. */
    CHECK_EQ_INT(t.p[0].last.income_drew, 3);
    CHECK_EQ_INT(t.p[1].last.income_drew, 0);
    CHECK_EQ_INT(t.p[2].last.income_drew, 0);
    if (t.phase == SPRINT_PHASE_LIMIT)
        discard_default(&t);
    CHECK(invariant_ok(&t));
}

static void test_top_military_draw(void)
{
    sprint_state s;
    fresh(&s, 2);
    to_empire(&s, 0, inst("triumph_broadcasts", 0)); /* military 1, draw 1 */
    CHECK_EQ_INT(sprint_top_military_draw(&s, 0), 1);
    to_empire(&s, 1, inst("drone_picket", 0)); /* tie at 1: still top */
    CHECK_EQ_INT(sprint_top_military_draw(&s, 0), 1);
    to_empire(&s, 1, inst("drone_picket", 1)); /* 2 > 1 */
    CHECK_EQ_INT(sprint_top_military_draw(&s, 0), 0);
    /* No military at all never counts as the highest. */
    sprint_state t;
    fresh(&t, 2);
    to_empire(&t, 0, inst("war_college", 0)); /* military 2, draw 2 */
    CHECK_EQ_INT(sprint_top_military_draw(&t, 0), 2);
    CHECK_EQ_INT(sprint_top_military_draw(&t, 1), 0);
}

static void test_solitaire_imaginary_empire_military(void)
{
    sprint_state s;
    fresh(&s, 1);
    to_empire(&s, 0, inst("triumph_broadcasts", 0)); /* military 1 */
    to_empire(&s, 0, inst("drone_picket", 0));       /* military 2 total */
    s.round = 2;
    CHECK_EQ_INT(sprint_top_military_draw(&s, 0), 1); /* 2 >= 2 */
    s.round = 3;
    CHECK_EQ_INT(sprint_top_military_draw(&s, 0), 0); /* 2 < 3 */
    json_t *v = sprint_view_json(&s, 0);
    CHECK_EQ_INT(json_integer_value(json_object_get(v, "imaginary_military")),
                 3);
    json_decref(v);
}

static void test_solitaire_exactly_seven_rounds(void)
{
    const char *lv[1] = {"basic"};
    for (int g = 0; g < 50; g++) {
        sprint_state s;
        play_game(&s, 1, lv, 300 + g, NULL, NULL, NULL);
        CHECK_EQ_INT(s.round, 7);
        CHECK(s.over);
    }
    /* Even past 50 chips the solitaire game goes on to round 7. */
    sprint_state s;
    fresh(&s, 1);
    s.p[0].chips = 60;
    place(&s, NULL);
    discard_default(&s);
    CHECK(!s.over);
    CHECK_EQ_INT(s.round, 2);
}

int main(void)
{
    if (sprint_test_init())
        return 1;
    RUN(test_develop_alone_gets_discount);
    RUN(test_settle_draws_one_card);
    RUN(test_both_has_no_discount_and_no_draw);
    RUN(test_explore_arithmetic);
    RUN(test_military_conquest_needs_enough_military);
    RUN(test_no_mixing_military_and_payment);
    RUN(test_pay_for_military_at_cost_minus_one_never_alien);
    RUN(test_convoy_places_a_second_world);
    RUN(test_order_of_effects);
    RUN(test_conditional_military);
    RUN(test_discounts_by_kind_and_colour);
    RUN(test_discounts_of_one_kind_stack);
    RUN(test_survey_card_once_per_game);
    RUN(test_conditional_bonus_not_multiplied);
    RUN(test_vp_per_counts_own_and_rival_empire);
    RUN(test_each_rival_card_counts_its_best_opponent);
    RUN(test_edition_two_orders_and_saves);
    RUN(test_hand_limit_ten);
    RUN(test_game_ends_after_scoring_at_50);
    RUN(test_tie_breaks);
    RUN(test_reshuffle_when_deck_runs_out);
    RUN(test_income_dealt_in_vp_order_when_deck_is_short);
    RUN(test_top_military_draw);
    RUN(test_solitaire_imaginary_empire_military);
    RUN(test_solitaire_exactly_seven_rounds);
    return TEST_SUMMARY();
}

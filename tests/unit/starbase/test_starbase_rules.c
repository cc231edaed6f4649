/*
 * test_starbase_rules.c - Starbase's rules, one named test per seed rule of
 * docs/games/starbase.md (setup, the forfeit, each setup step, the draw
 * phase, each management action and its restrictions, the battle and the
 * ways to lose), played through the engine with rigged states. The hidden
 * hands, the replay of a whole game and self-play are in
 * test_starbase_game.c.
 */
#include "tests/unit/starbase/starbase_test.h"

/* Seat's outer region `key` from its stack. */
static int stack_card(tgame *t, int seat, const char *key)
{
    sb_state *s = S(t);
    for (int i = 0; i < s->ninst; i++)
        if (s->in[i].owner == seat && s->in[i].zone == SB_Z_OUTER_STACK &&
            s->in[i].card == card_index(key))
            return i;
    return -1;
}

/* A game of the current edition, seat 0 (Ore Syndicate) against seat 1
 * (Corsair Clans) and seat 2 (Sentinel Navy) as in the first edition, at
 * seat 0's first management phase: the first seed from n on whose drawn
 * first player is seat 0. */
static tgame at_management2(int seats, uint64_t n)
{
    for (;; n++) {
        tgame t = tnew_opts(seats, n,
                            seats == 2 ? "{\"edition\":2,\"starters\":["
                                         "\"ore_syndicate\",\"corsair_clans\"]}"
                                       : "{\"edition\":2,\"starters\":["
                                         "\"ore_syndicate\",\"corsair_clans\","
                                         "\"sentinel_navy\"]}");
        if (t.g && S(&t)->active == 0 && tpass_to(&t, 0, "management"))
            return t;
        tfree(&t);
    }
}

/* A 2- (or 3-) player game at seat 0's first management phase. */
static tgame at_management(int seats)
{
    tgame t = tnew(seats, 77);
    tpass_to(&t, 0, "management");
    return t;
}

static int hand(tgame *t, int seat)
{
    return sb_count_zone(S(t), seat, SB_Z_HAND);
}

static int last_log_has(tgame *t, int back, const char *type)
{
    json_t *log = engine_log_since(t->g, ENGINE_PUBLIC, 0);
    size_t n = json_array_size(log);
    int found = 0;
    for (size_t i = n > (size_t)back ? n - (size_t)back : 0; i < n; i++) {
        const char *ty = json_string_value(json_object_get(
            json_object_get(json_array_get(log, i), "entry"), "type"));
        found |= ty && strcmp(ty, type) == 0;
    }
    json_decref(log);
    return found;
}

/* ------------------------------------------------------------- setup -- */

static void test_game_setup(void)
{
    tgame t = tnew(3, 1);
    REQUIRE(t.g);
    sb_state *s = S(&t);
    for (int p = 0; p < 3; p++) {
        CHECK_EQ_INT(hand(&t, p), 5);
        CHECK_EQ_INT(sb_count_zone(s, p, SB_Z_MARKET), 25);
        CHECK_EQ_INT(sb_count_zone(s, p, SB_Z_OUTER_STACK), 3);
        CHECK_EQ_INT(s->p[p].isk, 2);
        CHECK_EQ_INT(s->p[p].damage, 0);
        CHECK_EQ_INT(s->p[p].upgraded, 0);
        CHECK(invariants_ok(s));
    }
    CHECK_EQ_INT(s->active, 0);
    CHECK_EQ_INT(s->turn, 1);
    CHECK_EQ_STR(tstep(&t), "setup");
    CHECK_EQ_INT(tholder(&t), 0);
    tfree(&t);
}

static void test_forfeit_income(void)
{
    tgame t = tnew(2, 2);
    CHECK_EQ_INT(tplay(&t, 1, "{\"action\":\"forfeit\"}"), ENGINE_ECONFLICT);
    CHECK_EQ_INT(tplay(&t, 0, "{\"action\":\"forfeit\"}"), 0);
    CHECK(S(&t)->p[0].forfeit);
    REQUIRE(tpass_to(&t, 0, "management"));
    /* two players, first turn: no draw phase; the forfeit draws one */
    CHECK_EQ_INT(hand(&t, 0), 6);
    CHECK_EQ_INT(S(&t)->p[0].isk, 2);
    /* seat 1 keeps its income */
    REQUIRE(tpass_to(&t, 1, "setup"));
    engine_error err;
    CHECK_EQ_INT(tplay_e(&t, 1, "{\"action\":\"forfeit\",\"card\":1}", &err),
                 ENGINE_EINVALID);
    REQUIRE(tpass_to(&t, 1, "management"));
    CHECK_EQ_INT(S(&t)->p[1].isk, 4);
    CHECK_EQ_INT(hand(&t, 1), 6);
    /* not twice, not with an empty market */
    REQUIRE(tpass_to(&t, 0, "setup"));
    CHECK_EQ_INT(tplay(&t, 0, "{\"action\":\"forfeit\"}"), 0);
    CHECK_EQ_INT(tholder(&t), 1);
    CHECK_EQ_INT(tplay(&t, 1, "{\"action\":\"pass\"}"), 0);
    CHECK_EQ_INT(tplay(&t, 0, "{\"action\":\"forfeit\"}"), ENGINE_ECONFLICT);
    tfree(&t);
    t = tnew(2, 3);
    sb_state *s = S(&t);
    for (int i = 0; i < s->ninst; i++)
        if (s->in[i].owner == 0 && s->in[i].zone == SB_Z_MARKET)
            sb_move(s, i, SB_Z_SCRAP, -1);
    CHECK_EQ_INT(tplay(&t, 0, "{\"action\":\"forfeit\"}"), ENGINE_ECONFLICT);
    tfree(&t);
}

static void test_duration_step(void)
{
    tgame t = at_management(2);
    sb_state *s = S(&t);
    int boom = rig(&t, 0, "market_boom", SB_Z_NEWS, -1);
    int fever = rig(&t, 0, "war_fever", SB_Z_NEWS, -1);
    int doctrine = rig(&t, 0, "shield_doctrine", SB_Z_NEWS, -1);
    int theirs = rig(&t, 1, "trade_embargo", SB_Z_NEWS, -1);
    int ship = rig(&t, 0, "lancer_frigate", SB_Z_REGION, 0);
    s->in[boom].count = 2;
    s->in[fever].count = 1;
    s->in[doctrine].count = STARBASE_DURATION_INFINITE;
    s->in[theirs].count = 2;
    CHECK_EQ_INT(sb_ship_attack(s, ship), 3); /* War Fever works */
    REQUIRE(tpass_to(&t, 1, "setup"));
    CHECK_EQ_INT(s->in[theirs].count, 1); /* seat 1's news in its turn */
    CHECK_EQ_INT(s->in[boom].count, 2);   /* not in the others' turns */
    REQUIRE(tpass_to(&t, 0, "setup"));
    CHECK_EQ_INT(s->in[boom].count, 1);
    CHECK_EQ_INT(s->in[fever].zone, SB_Z_SCRAP); /* expired at I */
    CHECK_EQ_INT(sb_ship_attack(s, ship), 2);    /* its effect stopped */
    CHECK_EQ_INT(s->in[doctrine].count, STARBASE_DURATION_INFINITE);
    CHECK_EQ_INT(s->in[theirs].count, 1);
    CHECK(last_log_has(&t, 12, "expired"));
    tfree(&t);
}

static void test_assembly_step(void)
{
    tgame t = at_management(2);
    sb_state *s = S(&t);
    int hauler = rig(&t, 0, "bulk_hauler", SB_Z_DOCK, -1);
    int barge = rig(&t, 0, "ore_barge", SB_Z_DOCK, -1);
    int theirs = rig(&t, 1, "lancer_frigate", SB_Z_DOCK, -1);
    s->in[hauler].count = 2;
    s->in[barge].count = 1;
    s->in[theirs].count = 3;
    REQUIRE(tpass_to(&t, 1, "setup"));
    CHECK_EQ_INT(s->in[hauler].count, 2);
    CHECK_EQ_INT(s->in[theirs].count, 2);
    REQUIRE(tpass_to(&t, 0, "setup"));
    CHECK_EQ_INT(s->in[hauler].count, 1);
    CHECK_EQ_INT(s->in[barge].count, 0); /* fully assembled, docked */
    CHECK_EQ_INT(s->in[barge].zone, SB_Z_DOCK);
    CHECK(last_log_has(&t, 12, "assembled"));
    /* speed-up: an Assembly Bay counts down one more */
    rig(&t, 0, "assembly_bay", SB_Z_STRUCTURE, -1);
    int big = rig(&t, 0, "dread_monarch", SB_Z_DOCK, -1);
    s->in[big].count = 3;
    REQUIRE(tpass_to(&t, 1, "setup"));
    REQUIRE(tpass_to(&t, 0, "setup"));
    CHECK_EQ_INT(s->in[big].count, 1);
    CHECK_EQ_INT(s->in[hauler].count, 0);
    tfree(&t);
}

static void test_income_step(void)
{
    tgame t = at_management(2);
    sb_state *s = S(&t);
    CHECK_EQ_INT(s->p[0].isk, 4); /* 2 at setup + the starbase's 2 */
    rig(&t, 0, "crystal_vein", SB_Z_LOCATION, 0);
    int lanes = stack_card(&t, 0, "merchant_lanes");
    sb_move(s, lanes, SB_Z_OUTER, -1);
    rig(&t, 0, "picket_cutter", SB_Z_REGION, SB_REGION_OF(lanes));
    sb_update_control(s);
    int embargo = rig(&t, 1, "trade_embargo", SB_Z_NEWS, -1);
    s->in[embargo].count = 4;
    CHECK_EQ_INT(sb_income(s, 0), 2 + 1 + 2 - 1);
    int before = s->p[0].isk;
    REQUIRE(tpass_to(&t, 1, "setup"));
    REQUIRE(tpass_to(&t, 0, "management"));
    CHECK_EQ_INT(s->p[0].isk, before + 4);
    /* an uncontrolled outer region pays nobody */
    for (int i = 0; i < s->ninst; i++)
        if (s->in[i].zone == SB_Z_REGION && s->in[i].owner == 0)
            sb_move(s, i, SB_Z_SCRAP, -1);
    sb_update_control(s);
    CHECK_EQ_INT(sb_income(s, 0), 2 + 1 - 1);
    tfree(&t);
}

/* ------------------------------------------------------------- draw -- */

static void test_first_turn_no_draw(void)
{
    tgame t = tnew(2, 4);
    REQUIRE(tpass_to(&t, 0, "management"));
    CHECK_EQ_INT(hand(&t, 0), 5);
    CHECK(last_log_has(&t, 4, "no_draw"));
    REQUIRE(tpass_to(&t, 1, "management"));
    CHECK_EQ_INT(hand(&t, 1), 6);
    tfree(&t);
}

static void test_first_turn_draws_with_three_players(void)
{
    tgame t = tnew(3, 5);
    REQUIRE(tpass_to(&t, 0, "management"));
    CHECK_EQ_INT(hand(&t, 0), 6);
    tfree(&t);
}

static void test_empty_market_loses(void)
{
    tgame t = at_management(2);
    sb_state *s = S(&t);
    for (int i = 0; i < s->ninst; i++)
        if (s->in[i].owner == 1 && s->in[i].zone == SB_Z_MARKET)
            sb_move(s, i, SB_Z_SCRAP, -1);
    for (int n = 0; n < 10 && !engine_is_over(t.g); n++)
        tpass(&t);
    REQUIRE(engine_is_over(t.g));
    CHECK_EQ_INT(s->p[1].alive, 0);
    json_t *res = engine_result(t.g);
    CHECK_EQ_INT(json_array_size(json_object_get(res, "winners")), 1);
    CHECK_EQ_INT(
        json_integer_value(json_array_get(json_object_get(res, "winners"), 0)),
        0);
    json_decref(res);
    tfree(&t);
}

/* Nobody gets priority in the draw phase: the last pass of the setup step
 * runs the income step and the draw at once, and the next window is the
 * active player's management. */
static void test_draw_phase_no_news(void)
{
    tgame t = tnew(3, 6);
    while (tholder(&t) != 2)
        REQUIRE(tpass(&t) == 0);
    CHECK_EQ_STR(tstep(&t), "setup");
    CHECK_EQ_INT(hand(&t, 0), 5);
    REQUIRE(tpass(&t) == 0); /* seat 2 ends the setup step */
    CHECK_EQ_STR(tstep(&t), "management");
    CHECK_EQ_INT(tholder(&t), 0);
    CHECK_EQ_INT(hand(&t, 0), 6);
    /* an instant news is refused outside a priority window: there is
     * none between the setup step and the management phase */
    CHECK(last_log_has(&t, 3, "draw"));
    tfree(&t);
}

/* ------------------------------------------------------- management -- */

static void test_play_ship(void)
{
    tgame t = at_management(2);
    sb_state *s = S(&t);
    s->p[0].isk = 4;
    int hauler = rig(&t, 0, "bulk_hauler", SB_Z_HAND, -1);
    int skiff = rig(&t, 0, "skiff_runner", SB_Z_HAND, -1);
    CHECK_EQ_INT(TPLAY(&t, 0, "{\"action\":\"play\",\"card\":%d}", hauler), 0);
    CHECK_EQ_INT(s->in[hauler].zone, SB_Z_DOCK);
    CHECK_EQ_INT(s->in[hauler].count, 2);
    CHECK_EQ_INT(s->p[0].isk, 1);
    CHECK_EQ_INT(TPLAY(&t, 0, "{\"action\":\"play\",\"card\":%d}", skiff), 0);
    CHECK_EQ_INT(s->in[skiff].count, 0); /* no assembly: ready, docked */
    int lancer = rig(&t, 0, "lancer_frigate", SB_Z_HAND, -1);
    CHECK_EQ_INT(TPLAY(&t, 0, "{\"action\":\"play\",\"card\":%d}", lancer),
                 ENGINE_ECONFLICT); /* 0 ISK left */
    CHECK_EQ_INT(s->in[lancer].zone, SB_Z_HAND);
    /* another player's card, or a card in no hand */
    int theirs = rig(&t, 1, "skiff_runner", SB_Z_HAND, -1);
    CHECK_EQ_INT(TPLAY(&t, 0, "{\"action\":\"play\",\"card\":%d}", theirs),
                 ENGINE_EINVALID);
    tfree(&t);
}

static void test_play_location(void)
{
    tgame t = at_management(2);
    sb_state *s = S(&t);
    s->p[0].isk = 10;
    int belt = rig(&t, 0, "cobalt_ore_belt", SB_Z_HAND, -1);
    int vein = rig(&t, 0, "crystal_vein", SB_Z_HAND, -1);
    CHECK_EQ_INT(
        TPLAY(&t, 0, "{\"action\":\"play\",\"card\":%d,\"region\":0}", belt),
        ENGINE_EINVALID); /* outer only, and none is ours */
    CHECK_EQ_INT(
        TPLAY(&t, 0, "{\"action\":\"play\",\"card\":%d,\"region\":1}", vein),
        ENGINE_EINVALID); /* not in another's home */
    CHECK_EQ_INT(
        TPLAY(&t, 0, "{\"action\":\"play\",\"card\":%d,\"region\":0}", vein),
        0);
    CHECK_EQ_INT(s->in[vein].zone, SB_Z_LOCATION);
    CHECK_EQ_INT(s->in[vein].region, 0);
    int lanes = stack_card(&t, 0, "merchant_lanes");
    sb_move(s, lanes, SB_Z_OUTER, -1);
    int r = SB_REGION_OF(lanes);
    CHECK_EQ_INT(TPLAY(&t, 0, "{\"action\":\"play\",\"card\":%d,\"region\":%d}",
                       belt, r),
                 ENGINE_EINVALID); /* uncontrolled */
    int theirs = rig(&t, 1, "picket_cutter", SB_Z_REGION, r);
    sb_update_control(s);
    CHECK_EQ_INT(TPLAY(&t, 0, "{\"action\":\"play\",\"card\":%d,\"region\":%d}",
                       belt, r),
                 ENGINE_EINVALID); /* another player's */
    sb_move(s, theirs, SB_Z_SCRAP, -1);
    rig(&t, 0, "picket_cutter", SB_Z_REGION, r);
    sb_update_control(s);
    CHECK_EQ_INT(TPLAY(&t, 0, "{\"action\":\"play\",\"card\":%d,\"region\":%d}",
                       belt, r),
                 0);
    tfree(&t);
}

static void test_play_news(void)
{
    tgame t = at_management(2);
    sb_state *s = S(&t);
    s->p[0].isk = 10;
    s->p[1].isk = 5;
    int recall = rig(&t, 0, "recall_order", SB_Z_HAND, -1);
    CHECK_EQ_INT(TPLAY(&t, 0, "{\"action\":\"play\",\"card\":%d}", recall),
                 ENGINE_EINVALID); /* it needs a target, there is none */
    int docked = rig(&t, 1, "lancer_frigate", SB_Z_DOCK, -1);
    CHECK_EQ_INT(TPLAY(&t, 0, "{\"action\":\"play\",\"card\":%d,\"target\":%d}",
                       recall, docked),
                 ENGINE_EINVALID); /* docked ships are safe */
    int out = rig(&t, 1, "lancer_frigate", SB_Z_REGION, 1);
    CHECK_EQ_INT(TPLAY(&t, 0, "{\"action\":\"play\",\"card\":%d,\"target\":%d}",
                       recall, out),
                 0);
    CHECK_EQ_INT(s->in[out].zone, SB_Z_HAND);
    CHECK_EQ_INT(s->in[out].owner, 1);
    CHECK_EQ_INT(s->in[recall].zone, SB_Z_SCRAP); /* at once: scrapheap */
    CHECK_EQ_INT(s->p[0].isk, 6);
    /* it reached seat 1's ship: seat 1 gets priority to answer */
    CHECK_EQ_INT(tholder(&t), 1);
    int windfall = rig(&t, 1, "windfall", SB_Z_HAND, -1);
    int payout = rig(&t, 1, "insurance_payout", SB_Z_HAND, -1);
    CHECK_EQ_INT(TPLAY(&t, 1, "{\"action\":\"play\",\"card\":%d}", windfall),
                 ENGINE_ECONFLICT); /* not instant: only in its own turn */
    CHECK_EQ_INT(TPLAY(&t, 1, "{\"action\":\"play\",\"card\":%d}", payout), 0);
    CHECK_EQ_INT(s->p[1].isk, 5 - 1 + 3);
    /* a news with a duration stays at its full duration */
    REQUIRE(tpass_to(&t, 0, "management"));
    int boom = rig(&t, 0, "market_boom", SB_Z_HAND, -1);
    CHECK_EQ_INT(TPLAY(&t, 0, "{\"action\":\"play\",\"card\":%d}", boom), 0);
    CHECK_EQ_INT(s->in[boom].zone, SB_Z_NEWS);
    CHECK_EQ_INT(s->in[boom].count, 2);
    tfree(&t);
}

static void test_play_structure(void)
{
    tgame t = at_management(2);
    sb_state *s = S(&t);
    s->p[0].isk = 10;
    int a = rig(&t, 0, "solar_collector", SB_Z_HAND, -1);
    int b = rig(&t, 0, "hull_plating", SB_Z_HAND, -1);
    CHECK_EQ_INT(TPLAY(&t, 0, "{\"action\":\"play\",\"card\":%d}", a), 0);
    CHECK_EQ_INT(s->in[a].zone, SB_Z_STRUCTURE);
    CHECK_EQ_INT(TPLAY(&t, 0, "{\"action\":\"play\",\"card\":%d}", b),
                 ENGINE_ECONFLICT); /* Meridian Hub has one slot */
    CHECK_EQ_INT(sb_income(s, 0), 3);
    tfree(&t);
}

static void test_play_outer_region(void)
{
    tgame t = at_management(2);
    sb_state *s = S(&t);
    s->p[0].isk = 10;
    int neb = stack_card(&t, 0, "drifting_nebula");
    CHECK_EQ_INT(TPLAY(&t, 0, "{\"action\":\"outer\",\"card\":%d}", neb), 0);
    CHECK_EQ_INT(s->in[neb].zone, SB_Z_OUTER);
    CHECK_EQ_INT(sb_region_ctrl(s, SB_REGION_OF(neb)), -1);
    CHECK_EQ_INT(s->p[0].isk, 8);
    REQUIRE(tpass_to(&t, 1, "management"));
    s->p[1].isk = 10;
    int copy = stack_card(&t, 1, "drifting_nebula");
    CHECK_EQ_INT(TPLAY(&t, 1, "{\"action\":\"outer\",\"card\":%d}", copy),
                 ENGINE_ECONFLICT); /* a copy is in play */
    int haven = stack_card(&t, 1, "pirate_haven");
    CHECK_EQ_INT(TPLAY(&t, 1, "{\"action\":\"outer\",\"card\":%d}", haven), 0);
    tfree(&t);
}

static void test_upgrade_starbase(void)
{
    tgame t = at_management(2);
    sb_state *s = S(&t);
    s->p[0].isk = 10;
    s->p[0].damage = 3;
    CHECK_EQ_INT(tplay(&t, 0, "{\"action\":\"upgrade\"}"), 0);
    CHECK_EQ_INT(s->p[0].upgraded, 1);
    CHECK_EQ_INT(s->p[0].isk, 4);
    CHECK_EQ_INT(s->p[0].damage, 3);
    CHECK_EQ_INT(sb_base_hull(s, 0), 16);
    CHECK_EQ_INT(tplay(&t, 0, "{\"action\":\"upgrade\"}"), ENGINE_ECONFLICT);
    tfree(&t);
}

static void test_dock_undock(void)
{
    tgame t = at_management(2);
    sb_state *s = S(&t);
    int ship = rig(&t, 0, "picket_cutter", SB_Z_DOCK, -1);
    s->in[ship].count = 1;
    CHECK_EQ_INT(TPLAY(&t, 0, "{\"action\":\"undock\",\"card\":%d}", ship),
                 ENGINE_ECONFLICT); /* being assembled */
    s->in[ship].count = 0;
    CHECK_EQ_INT(TPLAY(&t, 0, "{\"action\":\"undock\",\"card\":%d}", ship), 0);
    CHECK_EQ_INT(s->in[ship].zone, SB_Z_REGION);
    CHECK_EQ_INT(s->in[ship].region, 0);
    CHECK_EQ_INT(
        TPLAY(&t, 0, "{\"action\":\"activate\",\"card\":%d,\"index\":0}", ship),
        0);
    CHECK_EQ_INT(TPLAY(&t, 0, "{\"action\":\"dock\",\"card\":%d}", ship), 0);
    CHECK_EQ_INT(s->in[ship].zone, SB_Z_DOCK);
    CHECK_EQ_INT(s->in[ship].cmd, -1); /* docking deactivates */
    int away = rig(&t, 0, "picket_cutter", SB_Z_REGION, 1);
    CHECK_EQ_INT(TPLAY(&t, 0, "{\"action\":\"dock\",\"card\":%d}", away),
                 ENGINE_ECONFLICT); /* only from the home region */
    tfree(&t);
}

static void test_warp_and_take_uncontrolled_region(void)
{
    tgame t = at_management(2);
    sb_state *s = S(&t);
    int lanes = stack_card(&t, 0, "merchant_lanes");
    sb_move(s, lanes, SB_Z_OUTER, -1);
    int r = SB_REGION_OF(lanes);
    int ship = rig(&t, 0, "picket_cutter", SB_Z_REGION, 0);
    s->in[ship].cmd = 0;
    CHECK_EQ_INT(TPLAY(&t, 0, "{\"action\":\"warp\",\"card\":%d,\"region\":%d}",
                       ship, r),
                 0);
    CHECK_EQ_INT(s->in[ship].region, r);
    CHECK_EQ_INT(s->in[ship].cmd, -1);     /* warping deactivates */
    CHECK_EQ_INT(sb_region_ctrl(s, r), 0); /* taken at once, no attack */
    CHECK_EQ_INT(s->in[ship].attacking, 0);
    CHECK_EQ_INT(s->nattacks, 0);
    CHECK_EQ_INT(
        TPLAY(&t, 0, "{\"action\":\"warp\",\"card\":%d,\"region\":0}", ship),
        ENGINE_ECONFLICT); /* one warp per phase */
    int pinned = rig(&t, 0, "picket_cutter", SB_Z_REGION, 0);
    s->in[pinned].tpin = 1;
    CHECK_EQ_INT(TPLAY(&t, 0, "{\"action\":\"warp\",\"card\":%d,\"region\":%d}",
                       pinned, r),
                 ENGINE_ECONFLICT);
    int docked = rig(&t, 0, "picket_cutter", SB_Z_DOCK, -1);
    CHECK_EQ_INT(TPLAY(&t, 0, "{\"action\":\"warp\",\"card\":%d,\"region\":%d}",
                       docked, r),
                 ENGINE_EINVALID);
    /* extra warps: Skiff Runner's Scout */
    int skiff = rig(&t, 0, "skiff_runner", SB_Z_REGION, 0);
    s->in[skiff].cmd = 0;
    CHECK_EQ_INT(sb_warps_allowed(s, skiff), 2);
    /* the last ship leaving makes the region uncontrolled */
    REQUIRE(tpass_to(&t, 1, "setup"));
    REQUIRE(tpass_to(&t, 0, "management"));
    CHECK_EQ_INT(
        TPLAY(&t, 0, "{\"action\":\"warp\",\"card\":%d,\"region\":0}", ship),
        0);
    CHECK_EQ_INT(sb_region_ctrl(s, r), -1);
    tfree(&t);
}

static void test_warp_attack(void)
{
    tgame t = at_management(2);
    sb_state *s = S(&t);
    int ship = rig(&t, 0, "warden_destroyer", SB_Z_REGION, 0);
    CHECK_EQ_INT(
        TPLAY(&t, 0, "{\"action\":\"warp\",\"card\":%d,\"region\":1}", ship),
        0);
    CHECK_EQ_INT(s->in[ship].attacking, 1);
    CHECK_EQ_INT(s->nattacks, 1);
    CHECK_EQ_INT(s->attacks[0][0], 1);
    CHECK_EQ_INT(s->attacks[0][1], 1);
    CHECK(last_log_has(&t, 2, "attack"));
    CHECK_EQ_INT(tholder(&t), 1); /* the attacked answer first */
    REQUIRE(tpass_to(&t, 0, "management"));
    CHECK_EQ_INT(
        TPLAY(&t, 0, "{\"action\":\"activate\",\"card\":%d,\"index\":0}", ship),
        ENGINE_ECONFLICT);
    s->in[ship].textra = 2; /* warps to spare: attacking alone stops it */
    CHECK_EQ_INT(
        TPLAY(&t, 0, "{\"action\":\"warp\",\"card\":%d,\"region\":0}", ship),
        ENGINE_ECONFLICT);
    s->in[ship].cmd = 0; /* even with a command, no ability while attacking */
    s->p[0].isk = 5;
    CHECK_EQ_INT(TPLAY(&t, 0,
                       "{\"action\":\"ability\",\"card\":%d,\"index\":0,"
                       "\"target\":%d}",
                       ship, ship),
                 ENGINE_EINVALID);
    tfree(&t);
}

static void test_activate_command(void)
{
    tgame t = at_management(2);
    sb_state *s = S(&t);
    int docked = rig(&t, 0, "warden_destroyer", SB_Z_DOCK, -1);
    CHECK_EQ_INT(TPLAY(&t, 0,
                       "{\"action\":\"activate\",\"card\":%d,\"index\":0}",
                       docked),
                 ENGINE_EINVALID);
    int ship = rig(&t, 0, "warden_destroyer", SB_Z_REGION, 0);
    CHECK_EQ_INT(
        TPLAY(&t, 0, "{\"action\":\"activate\",\"card\":%d,\"index\":1}", ship),
        0);
    CHECK_EQ_INT(sb_ship_defence(s, ship), 4); /* Screen: +1 here */
    CHECK_EQ_INT(
        TPLAY(&t, 0, "{\"action\":\"activate\",\"card\":%d,\"index\":0}", ship),
        ENGINE_ECONFLICT); /* deactivate first */
    CHECK_EQ_INT(
        TPLAY(&t, 0, "{\"action\":\"activate\",\"card\":%d,\"index\":3}", ship),
        ENGINE_ECONFLICT);
    REQUIRE(tpass_to(&t, 1, "setup"));
    REQUIRE(tpass_to(&t, 0, "management")); /* a whole round later */
    CHECK_EQ_INT(s->in[ship].cmd, 1);
    int pinned = rig(&t, 0, "picket_cutter", SB_Z_REGION, 0);
    s->in[pinned].tpin = 1;
    CHECK_EQ_INT(TPLAY(&t, 0,
                       "{\"action\":\"activate\",\"card\":%d,\"index\":0}",
                       pinned),
                 ENGINE_ECONFLICT);
    tfree(&t);
}

static void test_deactivate_command(void)
{
    tgame t = at_management(2);
    sb_state *s = S(&t);
    int ship = rig(&t, 0, "warden_destroyer", SB_Z_REGION, 0);
    CHECK_EQ_INT(TPLAY(&t, 0, "{\"action\":\"deactivate\",\"card\":%d}", ship),
                 ENGINE_ECONFLICT);
    s->in[ship].cmd = 1;
    CHECK_EQ_INT(TPLAY(&t, 0, "{\"action\":\"deactivate\",\"card\":%d}", ship),
                 0);
    CHECK_EQ_INT(s->in[ship].cmd, -1);
    CHECK_EQ_INT(
        TPLAY(&t, 0, "{\"action\":\"activate\",\"card\":%d,\"index\":0}", ship),
        0);
    CHECK_EQ_INT(tholder(&t), 0); /* nothing for the others to answer */
    tfree(&t);
}

static void test_use_ability(void)
{
    tgame t = at_management(2);
    sb_state *s = S(&t);
    int office = rig(&t, 0, "trade_office", SB_Z_STRUCTURE, -1);
    int isk = s->p[0].isk;
    CHECK_EQ_INT(TPLAY(&t, 0,
                       "{\"action\":\"ability\",\"card\":%d,\"index\":0}",
                       office),
                 0);
    CHECK_EQ_INT(s->p[0].isk, isk + 1);
    CHECK_EQ_INT(TPLAY(&t, 0,
                       "{\"action\":\"ability\",\"card\":%d,\"index\":0}",
                       office),
                 ENGINE_ECONFLICT); /* once per turn */
    /* a cost, and a management ability only in one's own management */
    s->in[office].card = card_index("sensor_tower");
    s->in[office].used = 0;
    s->p[0].isk = 1;
    CHECK_EQ_INT(TPLAY(&t, 0,
                       "{\"action\":\"ability\",\"card\":%d,\"index\":0}",
                       office),
                 ENGINE_ECONFLICT);
    s->p[0].isk = 2;
    int h = hand(&t, 0);
    CHECK_EQ_INT(TPLAY(&t, 0,
                       "{\"action\":\"ability\",\"card\":%d,\"index\":0}",
                       office),
                 0);
    CHECK_EQ_INT(s->p[0].isk, 0);
    CHECK_EQ_INT(hand(&t, 0), h + 1);
    /* a ship's command ability: only the active command */
    int ship = rig(&t, 0, "warden_destroyer", SB_Z_REGION, 0);
    int enemy = rig(&t, 1, "lancer_frigate", SB_Z_REGION, 1);
    s->p[0].isk = 3;
    CHECK_EQ_INT(TPLAY(&t, 0,
                       "{\"action\":\"ability\",\"card\":%d,\"index\":0,"
                       "\"target\":%d}",
                       ship, enemy),
                 ENGINE_EINVALID);
    s->in[ship].cmd = 0;
    CHECK_EQ_INT(TPLAY(&t, 0,
                       "{\"action\":\"ability\",\"card\":%d,\"index\":0,"
                       "\"target\":%d}",
                       ship, enemy),
                 0);
    CHECK_EQ_INT(s->in[enemy].zone, SB_Z_SCRAP); /* Barrage 2 vs 1 defence */
    tfree(&t);
}

/* Other players answer with instants when they hold priority: an instant
 * ability of seat 1's in seat 0's setup step; a management one is refused. */
static void test_instants_in_other_turns(void)
{
    tgame t = tnew(2, 21);
    sb_state *s = S(&t);
    int battery = rig(&t, 1, "missile_battery", SB_Z_STRUCTURE, -1);
    int office = rig(&t, 1, "trade_office", SB_Z_STRUCTURE, -1);
    int ship = rig(&t, 0, "skiff_runner", SB_Z_REGION, 0);
    s->p[1].isk = 3;
    REQUIRE(tpass(&t) == 0); /* seat 0 keeps its income */
    REQUIRE(tholder(&t) == 1);
    CHECK_EQ_STR(tstep(&t), "setup");
    CHECK_EQ_INT(TPLAY(&t, 1,
                       "{\"action\":\"ability\",\"card\":%d,\"index\":0}",
                       office),
                 ENGINE_ECONFLICT);
    CHECK_EQ_INT(TPLAY(&t, 1,
                       "{\"action\":\"ability\",\"card\":%d,\"index\":0,"
                       "\"target\":%d}",
                       battery, ship),
                 0);
    CHECK_EQ_INT(s->in[ship].zone, SB_Z_SCRAP);
    CHECK_EQ_INT(s->p[1].isk, 2);
    CHECK_EQ_INT(tholder(&t), 1); /* it keeps priority */
    CHECK_EQ_INT(tplay(&t, 1, "{\"action\":\"upgrade\"}"), ENGINE_ECONFLICT);
    tfree(&t);
}

/* The seed: a ship warps as many times as its player likes in the
 * management phase; only an attack stops it. (Edition 1 allowed one warp a
 * phase, more with extra warps.) */
static void test_warp_more_than_once(void)
{
    tgame t = at_management2(2, 77);
    sb_state *s = S(&t);
    int lanes = stack_card(&t, 0, "merchant_lanes");
    sb_move(s, lanes, SB_Z_OUTER, -1);
    int r = SB_REGION_OF(lanes);
    int ship = rig(&t, 0, "picket_cutter", SB_Z_REGION, 0);
    for (int k = 0; k < 3; k++) {
        CHECK_EQ_INT(TPLAY(&t, 0,
                           "{\"action\":\"warp\",\"card\":%d,\"region\":%d}",
                           ship, r),
                     0);
        CHECK_EQ_INT(sb_region_ctrl(s, r), 0);
        CHECK_EQ_INT(TPLAY(&t, 0,
                           "{\"action\":\"warp\",\"card\":%d,\"region\":0}",
                           ship),
                     0);
        CHECK_EQ_INT(sb_region_ctrl(s, r), -1);
    }
    CHECK_EQ_INT(s->in[ship].region, 0);
    CHECK(sb_can_warp(s, ship));
    /* a pinned ship still cannot warp */
    s->in[ship].tpin = 1;
    CHECK_EQ_INT(TPLAY(&t, 0, "{\"action\":\"warp\",\"card\":%d,\"region\":%d}",
                       ship, r),
                 ENGINE_ECONFLICT);
    s->in[ship].tpin = 0;
    /* an attack stops it for the rest of the phase */
    CHECK_EQ_INT(
        TPLAY(&t, 0, "{\"action\":\"warp\",\"card\":%d,\"region\":1}", ship),
        0);
    CHECK_EQ_INT(s->in[ship].attacking, 1);
    REQUIRE(tpass_to(&t, 0, "management"));
    CHECK(!sb_can_warp(s, ship));
    CHECK_EQ_INT(
        TPLAY(&t, 0, "{\"action\":\"warp\",\"card\":%d,\"region\":0}", ship),
        ENGINE_ECONFLICT);
    tfree(&t);
}

/* The seed: the draw phase is the only phase without news or abilities, so
 * every player gets priority in the end phase, the active player first,
 * while "this turn" still lasts; then the turn passes. (Edition 1 gave
 * nobody priority there.) */
static void test_end_phase_priority(void)
{
    tgame t = at_management2(2, 21);
    sb_state *s = S(&t);
    int battery = rig(&t, 1, "missile_battery", SB_Z_STRUCTURE, -1);
    int ship = rig(&t, 0, "picket_cutter", SB_Z_REGION, 0);
    s->in[ship].damage = 1; /* from this turn: lasts until the end phase */
    s->p[1].isk = 3;
    REQUIRE(tpass(&t) == 0); /* seat 0 ends its management phase */
    REQUIRE(tpass(&t) == 0); /* seat 1 adds nothing */
    CHECK_EQ_STR(tstep(&t), "end");
    CHECK_EQ_INT(s->active, 0);
    CHECK_EQ_INT(tholder(&t), 0);
    CHECK_EQ_INT(s->in[ship].damage, 1);
    /* only instants: no management action in the end phase */
    CHECK_EQ_INT(tplay(&t, 0, "{\"action\":\"upgrade\"}"), ENGINE_ECONFLICT);
    REQUIRE(tpass(&t) == 0);
    CHECK_EQ_STR(tstep(&t), "end");
    CHECK_EQ_INT(tholder(&t), 1);
    CHECK_EQ_INT(TPLAY(&t, 1,
                       "{\"action\":\"ability\",\"card\":%d,\"index\":0,"
                       "\"target\":%d}",
                       battery, ship),
                 0);
    CHECK_EQ_INT(s->in[ship].zone, SB_Z_SCRAP); /* 1 + 1 damage: destroyed */
    /* after a play everybody gets another chance before the phase ends */
    for (int n = 0; n < 4 && strcmp(tstep(&t), "end") == 0; n++)
        REQUIRE(tpass(&t) == 0);
    CHECK_EQ_STR(tstep(&t), "setup");
    CHECK_EQ_INT(s->active, 1);
    tfree(&t);
}

/* ------------------------------------------------------------ battle -- */

static void test_no_attack_no_battle(void)
{
    tgame t = at_management(2);
    rig(&t, 0, "warden_destroyer", SB_Z_REGION, 0);
    tpass(&t); /* seat 0 ends its management phase */
    tpass(&t); /* seat 1 has nothing to add */
    CHECK_EQ_STR(tstep(&t), "setup");
    CHECK_EQ_INT(S(&t)->active, 1);
    CHECK(last_log_has(&t, 8, "no_battle"));
    tfree(&t);
}

static void test_battle_takes_outer_region(void)
{
    tgame t = at_management(2);
    sb_state *s = S(&t);
    int haven = stack_card(&t, 1, "pirate_haven");
    sb_move(s, haven, SB_Z_OUTER, -1);
    int r = SB_REGION_OF(haven);
    int def = rig(&t, 1, "lancer_frigate", SB_Z_REGION, r);
    sb_update_control(s);
    CHECK_EQ_INT(sb_region_ctrl(s, r), 1);
    int att = rig(&t, 0, "dread_monarch", SB_Z_REGION, 0);
    CHECK_EQ_INT(
        TPLAY(&t, 0, "{\"action\":\"warp\",\"card\":%d,\"region\":%d}", att, r),
        0);
    CHECK_EQ_INT(sb_region_ctrl(s, r), 1); /* until the battle */
    REQUIRE(tpass_to(&t, 0, "battle"));
    tpass(&t);
    tpass(&t);
    CHECK_EQ_INT(s->in[def].zone, SB_Z_SCRAP);
    CHECK_EQ_INT(s->in[att].zone, SB_Z_REGION);
    CHECK_EQ_INT(s->in[att].region, r);
    CHECK_EQ_INT(sb_region_ctrl(s, r), 0);
    CHECK_EQ_STR(tstep(&t), "setup");   /* seat 1's turn */
    CHECK_EQ_INT(s->in[att].damage, 0); /* ship damage ends with the turn */
    tfree(&t);
}

static void test_battle_falls_back_and_hits_starbase(void)
{
    tgame t = at_management(2);
    sb_state *s = S(&t);
    int def = rig(&t, 1, "hammer_gunboat", SB_Z_REGION, 1);    /* 3/2 */
    int att = rig(&t, 0, "lancer_frigate", SB_Z_REGION, 0);    /* 2/1 */
    int att2 = rig(&t, 0, "warden_destroyer", SB_Z_REGION, 0); /* 3/3 */
    TPLAY(&t, 0, "{\"action\":\"warp\",\"card\":%d,\"region\":1}", att);
    REQUIRE(tpass_to(&t, 0, "management"));
    TPLAY(&t, 0, "{\"action\":\"warp\",\"card\":%d,\"region\":1}", att2);
    REQUIRE(tpass_to(&t, 0, "battle"));
    tpass(&t);
    tpass(&t);
    /* 5 damage: gunboat (2) then 3 on the starbase; 3 + 2 (guns) back:
     * lancer (1) then 4 on the destroyer (3): both destroyed */
    CHECK_EQ_INT(s->in[def].zone, SB_Z_SCRAP);
    CHECK_EQ_INT(s->p[1].damage, 3);
    CHECK_EQ_INT(s->in[att].zone, SB_Z_SCRAP);
    CHECK_EQ_INT(s->in[att2].zone, SB_Z_SCRAP);
    /* a survivor falls back home */
    tfree(&t);
    t = at_management(2);
    s = S(&t);
    att = rig(&t, 0, "dread_monarch", SB_Z_REGION, 0);
    TPLAY(&t, 0, "{\"action\":\"warp\",\"card\":%d,\"region\":1}", att);
    REQUIRE(tpass_to(&t, 0, "battle"));
    tpass(&t);
    tpass(&t);
    CHECK_EQ_INT(s->p[1].damage, 6);
    CHECK_EQ_INT(s->in[att].zone, SB_Z_REGION);
    CHECK_EQ_INT(s->in[att].region, 0);
    CHECK_EQ_INT(s->in[att].attacking, 0);
    tfree(&t);
}

static void test_starbase_destroyed(void)
{
    tgame t = at_management(2);
    sb_state *s = S(&t);
    s->p[1].damage = sb_base_hull(s, 1) - 2;
    int att = rig(&t, 0, "dread_monarch", SB_Z_REGION, 0);
    TPLAY(&t, 0, "{\"action\":\"warp\",\"card\":%d,\"region\":1}", att);
    REQUIRE(tpass_to(&t, 0, "battle"));
    tpass(&t);
    tpass(&t);
    CHECK(engine_is_over(t.g));
    CHECK_EQ_INT(s->p[1].alive, 0);
    json_t *res = engine_result(t.g);
    CHECK_EQ_INT(
        json_integer_value(json_array_get(json_object_get(res, "winners"), 0)),
        0);
    json_decref(res);
    CHECK(invariants_ok(s));
    tfree(&t);
}

/* With three players, a loser leaves and the others play on. */
static void test_last_player_wins(void)
{
    tgame t = at_management(3);
    sb_state *s = S(&t);
    s->p[1].damage = sb_base_hull(s, 1) - 1;
    int ship = rig(&t, 1, "lancer_frigate", SB_Z_REGION, 1);
    int att = rig(&t, 0, "dread_monarch", SB_Z_REGION, 0);
    TPLAY(&t, 0, "{\"action\":\"warp\",\"card\":%d,\"region\":1}", att);
    REQUIRE(tpass_to(&t, 0, "battle"));
    for (int n = 0; n < 3; n++)
        tpass(&t);
    CHECK(!engine_is_over(t.g));
    CHECK_EQ_INT(s->p[1].alive, 0);
    CHECK_EQ_INT(s->in[ship].zone, SB_Z_SCRAP);
    CHECK_EQ_INT(s->in[att].region, 0);
    CHECK_EQ_INT(s->active, 2); /* seat 1 is skipped */
    CHECK(invariants_ok(s));
    tfree(&t);
}

/* A finished game's scores rank the players: the winner first, even when
 * the others lost in the very turn the game ended (the scores once read
 * the turn each player left in: [20,20] with a winner). */
static void test_result_ranks_winner_first(void)
{
    tgame t = at_management(2);
    sb_state *s = S(&t);
    s->p[1].damage = sb_base_hull(s, 1) - 1;
    int att = rig(&t, 0, "dread_monarch", SB_Z_REGION, 0);
    TPLAY(&t, 0, "{\"action\":\"warp\",\"card\":%d,\"region\":1}", att);
    REQUIRE(tpass_to(&t, 0, "battle"));
    for (int n = 0; n < 2 && !engine_is_over(t.g); n++)
        tpass(&t);
    REQUIRE(engine_is_over(t.g));
    json_t *res = engine_result(t.g);
    json_t *sc = json_object_get(res, "scores");
    CHECK_EQ_INT(
        json_integer_value(json_array_get(json_object_get(res, "winners"), 0)),
        0);
    CHECK_EQ_INT(json_integer_value(json_array_get(sc, 0)), 1);
    CHECK_EQ_INT(json_integer_value(json_array_get(sc, 1)), 0);
    CHECK(json_is_null(json_array_get(json_object_get(res, "lost_turn"), 0)));
    CHECK_EQ_INT(json_integer_value(
                     json_array_get(json_object_get(res, "lost_turn"), 1)),
                 s->turn);
    json_decref(res);
    tfree(&t);
    /* three players: the order they left in; the same turn, the same score */
    tgame u = at_management(3);
    s = S(&u);
    s->over = 1;
    s->p[0].alive = 0, s->p[0].lost_turn = 9;
    s->p[2].alive = 0, s->p[2].lost_turn = 4;
    res = engine_result(u.g);
    sc = json_object_get(res, "scores");
    CHECK_EQ_INT(json_integer_value(json_array_get(sc, 0)), 1);
    CHECK_EQ_INT(json_integer_value(json_array_get(sc, 1)), 2);
    CHECK_EQ_INT(json_integer_value(json_array_get(sc, 2)), 0);
    json_decref(res);
    s->p[0].lost_turn = 4; /* both in the same turn: a tie behind the winner */
    res = engine_result(u.g);
    sc = json_object_get(res, "scores");
    CHECK_EQ_INT(json_integer_value(json_array_get(sc, 0)), 0);
    CHECK_EQ_INT(json_integer_value(json_array_get(sc, 1)), 2);
    CHECK_EQ_INT(json_integer_value(json_array_get(sc, 2)), 0);
    json_decref(res);
    tfree(&u);
}

/* The reason a seat's view gives for hand card i ("" when it has none). */
static const char *why_not(tgame *t, int seat, int i)
{
    static char buf[64];
    buf[0] = '\0';
    json_t *v = engine_view(t->g, seat);
    size_t k;
    json_t *c;
    json_array_foreach(json_object_get(v, "hand"), k, c)
    {
        if (json_integer_value(json_object_get(c, "id")) != i)
            continue;
        const char *r = json_string_value(
            json_object_get(json_object_get(c, "unplayable"), "reason"));
        snprintf(buf, sizeof buf, "%s", r ? r : "");
    }
    json_decref(v);
    return buf;
}

/* A card in hand that cannot be played says why, in its owner's view:
 * not this phase, too expensive, no slot, no region, no target. */
static void test_hand_says_why(void)
{
    tgame t = at_management(2);
    sb_state *s = S(&t);
    s->p[0].isk = 3;
    int cheap = rig(&t, 0, "picket_cutter", SB_Z_HAND, -1);
    int dear = rig(&t, 0, "colossus_dreadnought", SB_Z_HAND, -1);
    int structure = rig(&t, 0, "solar_collector", SB_Z_HAND, -1);
    rig(&t, 0, "trade_office", SB_Z_STRUCTURE, -1); /* the one slot taken */
    int outer_loc = rig(&t, 0, "cobalt_ore_belt", SB_Z_HAND, -1);
    int recall = rig(&t, 0, "recall_order", SB_Z_HAND, -1); /* 4 ISK */
    int sabotage = rig(&t, 0, "sabotage", SB_Z_HAND, -1);   /* 3 ISK */
    int instant = rig(&t, 1, "insurance_payout", SB_Z_HAND, -1);
    int other = rig(&t, 1, "picket_cutter", SB_Z_HAND, -1);
    CHECK_EQ_STR(why_not(&t, 0, cheap), "");
    CHECK_EQ_STR(why_not(&t, 0, dear), "too_expensive");
    CHECK_EQ_STR(why_not(&t, 0, recall), "too_expensive");
    CHECK_EQ_STR(why_not(&t, 0, structure), "no_slot");
    CHECK_EQ_STR(why_not(&t, 0, outer_loc), "no_region");
    CHECK_EQ_STR(why_not(&t, 0, sabotage), "no_target");
    /* in seat 0's turn seat 1 may play only instants */
    s->p[1].isk = 5;
    CHECK_EQ_STR(why_not(&t, 1, other), "not_this_phase");
    CHECK_EQ_STR(why_not(&t, 1, instant), "");
    /* a target appears: the news can be played */
    rig(&t, 1, "crystal_vein", SB_Z_LOCATION, 1);
    CHECK_EQ_STR(why_not(&t, 0, sabotage), "");
    tfree(&t);
}

static void test_hand_limit(void)
{
    tgame t = at_management(2);
    for (int k = 0; k < 4; k++)
        rig(&t, 0, "windfall", SB_Z_HAND, -1);
    CHECK_EQ_INT(hand(&t, 0), 9);
    tpass(&t);
    tpass(&t);
    CHECK_EQ_STR(tstep(&t), "discard");
    sb_state *s = S(&t);
    int one = -1;
    for (int i = 0; i < s->ninst && one < 0; i++)
        if (s->in[i].owner == 0 && s->in[i].zone == SB_Z_HAND)
            one = i;
    CHECK_EQ_INT(TPLAY(&t, 0, "{\"action\":\"discard\",\"card\":%d}", one), 0);
    CHECK_EQ_INT(hand(&t, 0), 8);
    tpass(&t); /* the rest goes */
    CHECK_EQ_INT(hand(&t, 0), 7);
    CHECK_EQ_INT(s->active, 1);
    tfree(&t);
}

int main(void)
{
    tinit();
    RUN(test_game_setup);
    RUN(test_forfeit_income);
    RUN(test_duration_step);
    RUN(test_assembly_step);
    RUN(test_income_step);
    RUN(test_first_turn_no_draw);
    RUN(test_first_turn_draws_with_three_players);
    RUN(test_empty_market_loses);
    RUN(test_draw_phase_no_news);
    RUN(test_play_ship);
    RUN(test_play_location);
    RUN(test_play_news);
    RUN(test_play_structure);
    RUN(test_play_outer_region);
    RUN(test_upgrade_starbase);
    RUN(test_dock_undock);
    RUN(test_warp_and_take_uncontrolled_region);
    RUN(test_warp_attack);
    RUN(test_activate_command);
    RUN(test_deactivate_command);
    RUN(test_use_ability);
    RUN(test_instants_in_other_turns);
    RUN(test_warp_more_than_once);
    RUN(test_end_phase_priority);
    RUN(test_no_attack_no_battle);
    RUN(test_battle_takes_outer_region);
    RUN(test_battle_falls_back_and_hits_starbase);
    RUN(test_starbase_destroyed);
    RUN(test_last_player_wins);
    RUN(test_result_ranks_winner_first);
    RUN(test_hand_says_why);
    RUN(test_hand_limit);
    return TEST_SUMMARY();
}

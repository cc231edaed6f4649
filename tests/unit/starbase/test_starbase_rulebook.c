/*
 * test_starbase_rulebook.c - the rules of docs/games/starbase.md that
 * test_starbase_rules.c leaves without a focused test, one test each on a
 * constructed state of the current edition: the legal case, the refused
 * case and the boundary (control passing with its locations, income never
 * below 0, a draw ability past the market, slots, prices, each ability kind
 * with its price filter or floor, the battle's order, sides and damage
 * sharing, the end phase, the hand limit, hull and guns auras, leaving
 * the game, a draw, the priority round, and the extra warps, which only
 * edition 1 counts). Where a bot picks from `legal`, the targets and regions
 * `legal` offers are compared with a set written out in the test, not with the
 * engine's own legality check.
 */
#include "tests/unit/starbase/starbase_test.h"

/* A game of the current edition at seat 0's first management phase, seat
 * 0 Ore Syndicate, seat 1 Corsair Clans, seat 2 Sentinel Navy: the first
 * seed from 300 on whose drawn first player is seat 0 (the test binary
 * fails at once when there is none, rather than trying seeds forever). */
static tgame at_mgmt(int seats)
{
    static const char *opts[] = {
        NULL, NULL,
        "{\"edition\":2,\"starters\":[\"ore_syndicate\",\"corsair_clans\"]}",
        "{\"edition\":2,\"starters\":[\"ore_syndicate\",\"corsair_clans\","
        "\"sentinel_navy\"]}"};
    for (uint64_t n = 300; n < 364; n++) {
        tgame t = tnew_opts(seats, n, opts[seats]);
        if (t.g && S(&t)->active == 0 && tpass_to(&t, 0, "management"))
            return t;
        if (!t.g)
            break; /* no game at all: no other seed will make one */
        tfree(&t);
    }
    fprintf(stderr, "no %d-seat game reaches seat 0's management\n", seats);
    exit(1);
}

/* Seat's outer region `key` moved from its stack into play; its region. */
static int outer(tgame *t, int seat, const char *key)
{
    sb_state *s = S(t);
    for (int i = 0; i < s->ninst; i++)
        if (s->in[i].owner == seat && s->in[i].zone == SB_Z_OUTER_STACK &&
            s->in[i].card == card_index(key)) {
            sb_move(s, i, SB_Z_OUTER, -1);
            return SB_REGION_OF(i);
        }
    return -1;
}

static int hand(tgame *t, int seat)
{
    return sb_count_zone(S(t), seat, SB_Z_HAND);
}

static int cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

/* What `legal` offers seat now for `action` on card: the values of field
 * ("target" or "region"; -1 for a choice without it), sorted. */
static int offered(tgame *t, int seat, const char *action, int card,
                   const char *field, int *out, int max)
{
    json_t *legal = engine_legal(t->g, seat);
    json_t *choices = json_object_get(
        json_array_get(json_object_get(legal, "windows"), 0), "choices");
    int n = 0;
    size_t k;
    json_t *c;
    json_array_foreach(choices, k, c)
    {
        const char *a = json_string_value(json_object_get(c, "action"));
        json_t *jc = json_object_get(c, "card");
        if (!a || strcmp(a, action) != 0 ||
            (card >= 0 && json_integer_value(jc) != card) || n >= max)
            continue;
        json_t *v = json_object_get(c, field);
        out[n++] = v ? (int)json_integer_value(v) : -1;
    }
    json_decref(legal);
    qsort(out, (size_t)n, sizeof *out, cmp_int);
    return n;
}

/* 1 when got[0..n) is the set want[0..m) (want in any order). */
static int same_set(const int *got, int n, int *want, int m)
{
    qsort(want, (size_t)m, sizeof *want, cmp_int);
    if (n != m) {
        fprintf(stderr, "  offered %d, expected %d:", n, m);
        for (int i = 0; i < n; i++)
            fprintf(stderr, " %d", got[i]);
        fprintf(stderr, " /");
        for (int i = 0; i < m; i++)
            fprintf(stderr, " %d", want[i]);
        fprintf(stderr, "\n");
        return 0;
    }
    for (int i = 0; i < n; i++)
        if (got[i] != want[i])
            return 0;
    return 1;
}

#define OFFERED_IS(t, seat, action, card, field, ...)                          \
    ({                                                                         \
        int got_[64], want_[] = {__VA_ARGS__};                                 \
        int n_ = offered((t), (seat), (action), (card), (field), got_, 64);    \
        same_set(got_, n_, want_, (int)(sizeof want_ / sizeof want_[0]));      \
    })

/* Passes by whoever holds priority while the step is `step`; 1 if it left
 * the step within 20 passes. */
static int pass_out_of(tgame *t, const char *step)
{
    for (int n = 0; n < 20; n++) {
        if (engine_is_over(t->g) || strcmp(tstep(t), step) != 0)
            return 1;
        if (tpass(t) != 0)
            return 0;
    }
    return 0;
}

/* Seat 0 ends its management phase; with an attack made, the first battle
 * step opens with seat 0 holding priority. */
static int to_battle(tgame *t)
{
    return pass_out_of(t, "management") && strcmp(tstep(t), "battle") == 0 &&
           tholder(t) == 0;
}

#define PLAY(t, seat, card)                                                    \
    TPLAY(t, seat, "{\"action\":\"play\",\"card\":%d}", card)
#define PLAY_AT(t, seat, card, tg)                                             \
    TPLAY(t, seat, "{\"action\":\"play\",\"card\":%d,\"target\":%d}", card, tg)
#define USE(t, seat, card, k)                                                  \
    TPLAY(t, seat, "{\"action\":\"ability\",\"card\":%d,\"index\":%d}", card, k)
#define USE_AT(t, seat, card, k, tg)                                           \
    TPLAY(t, seat,                                                             \
          "{\"action\":\"ability\",\"card\":%d,\"index\":%d,\"target\":%d}",   \
          card, k, tg)
#define WARP(t, seat, card, r)                                                 \
    TPLAY(t, seat, "{\"action\":\"warp\",\"card\":%d,\"region\":%d}", card, r)

/* ------------------------------------------------- control of regions -- */

/* region_control: control comes from the ships, the region's locations go
 * with it, and a region nobody's ships hold pays nobody. */
static void test_control_carries_locations(void)
{
    tgame t = at_mgmt(2);
    sb_state *s = S(&t);
    int r = outer(&t, 0, "drifting_nebula"); /* income 1 */
    int picket = rig(&t, 1, "picket_cutter", SB_Z_REGION, r);
    int belt = rig(&t, 1, "cobalt_ore_belt", SB_Z_LOCATION, r); /* income 2 */
    sb_update_control(s);
    CHECK_EQ_INT(sb_region_ctrl(s, r), 1);
    CHECK_EQ_INT(sb_controller(s, belt), 1);
    CHECK_EQ_INT(sb_income(s, 1), 2 + 1 + 2);
    CHECK_EQ_INT(sb_income(s, 0), 2);
    int monarch = rig(&t, 0, "dread_monarch", SB_Z_REGION, 0);
    CHECK_EQ_INT(WARP(&t, 0, monarch, r), 0);
    CHECK_EQ_INT(sb_region_ctrl(s, r), 1); /* an attack: not until the battle */
    REQUIRE(tpass_to(&t, 0, "management"));
    REQUIRE(to_battle(&t));
    REQUIRE(pass_out_of(&t, "battle"));
    CHECK_EQ_INT(s->in[picket].zone, SB_Z_SCRAP);
    CHECK_EQ_INT(sb_region_ctrl(s, r), 0);
    CHECK_EQ_INT(sb_controller(s, belt), 0); /* the location went with it */
    CHECK_EQ_INT(s->in[belt].owner, 1);
    CHECK_EQ_INT(sb_income(s, 0), 2 + 1 + 2);
    CHECK_EQ_INT(sb_income(s, 1), 2);
    /* the last ship leaves: uncontrolled at once, its location pays nobody */
    REQUIRE(tpass_to(&t, 0, "management"));
    CHECK_EQ_INT(WARP(&t, 0, monarch, 0), 0);
    CHECK_EQ_INT(sb_region_ctrl(s, r), -1);
    CHECK_EQ_INT(sb_controller(s, belt), -1);
    CHECK_EQ_INT(sb_income(s, 0), 2);
    CHECK_EQ_INT(sb_income(s, 1), 2);
    tfree(&t);
}

/* ------------------------------------------------------------ income -- */

/* income_step: opponents' income changes take away, the total stops at 0. */
static void test_income_never_below_zero(void)
{
    tgame t = at_mgmt(2);
    sb_state *s = S(&t);
    int embargo = rig(&t, 1, "trade_embargo", SB_Z_NEWS, -1); /* -1 each */
    s->in[embargo].count = 2;
    CHECK_EQ_INT(sb_income(s, 0), 1);
    CHECK_EQ_INT(sb_income(s, 1), 2); /* not its own player's */
    int strike = rig(&t, 1, "shipwright_strike", SB_Z_NEWS, -1); /* -2 one */
    s->in[strike].count = 2;
    s->in[strike].target = 0;
    CHECK_EQ_INT(sb_income(s, 0), 0); /* 2 - 1 - 2 */
    s->in[strike].target = 1;         /* aimed elsewhere: it does nothing */
    CHECK_EQ_INT(sb_income(s, 0), 1);
    s->in[strike].target = 0;
    /* the income step collects 0, not -1 */
    s->p[0].isk = 3;
    REQUIRE(tpass_to(&t, 1, "setup"));
    REQUIRE(tpass_to(&t, 0, "management"));
    CHECK_EQ_INT(s->p[0].isk, 3);
    tfree(&t);
}

/* ------------------------------------------------------------- draws -- */

/* empty_market_loses: a draw ability may take the last card; one more
 * draw than the market holds loses at once. */
static void test_draw_ability_past_market_loses(void)
{
    tgame t = at_mgmt(2);
    sb_state *s = S(&t);
    s->p[0].isk = 10;
    int first = rig(&t, 0, "crash_course", SB_Z_HAND, -1); /* draw 2 */
    int second = rig(&t, 0, "crash_course", SB_Z_HAND, -1);
    int left = 0;
    for (int i = 0; i < s->ninst; i++)
        if (s->in[i].owner == 0 && s->in[i].zone == SB_Z_MARKET && left++ >= 2)
            sb_move(s, i, SB_Z_SCRAP, -1);
    REQUIRE(sb_count_zone(s, 0, SB_Z_MARKET) == 2);
    int h = hand(&t, 0);
    CHECK_EQ_INT(PLAY(&t, 0, first), 0);
    CHECK_EQ_INT(hand(&t, 0), h - 1 + 2);
    CHECK_EQ_INT(sb_count_zone(s, 0, SB_Z_MARKET), 0);
    CHECK(s->p[0].alive); /* the last card drawn: no loss */
    CHECK_EQ_INT(PLAY(&t, 0, second), 0);
    CHECK(!s->p[0].alive);
    REQUIRE(engine_is_over(t.g));
    json_t *res = engine_result(t.g);
    CHECK_EQ_INT(
        json_integer_value(json_array_get(json_object_get(res, "winners"), 0)),
        1);
    json_decref(res);
    tfree(&t);
}

/* -------------------------------------------------------- management -- */

/* upgrade_starbase: exactly its price; one ISK short is refused. */
static void test_upgrade_price_boundary(void)
{
    tgame t = at_mgmt(2);
    sb_state *s = S(&t);
    s->p[0].isk = 5; /* Meridian Hub upgrades for 6 */
    CHECK_EQ_INT(tplay(&t, 0, "{\"action\":\"upgrade\"}"), ENGINE_ECONFLICT);
    CHECK_EQ_INT(s->p[0].upgraded, 0);
    s->p[0].isk = 6;
    CHECK_EQ_INT(tplay(&t, 0, "{\"action\":\"upgrade\"}"), 0);
    CHECK_EQ_INT(s->p[0].isk, 0);
    CHECK_EQ_INT(sb_income(s, 0), 3); /* Meridian Citadel */
    tfree(&t);
}

/* play_structure: an upgraded starbase holds as many as its back side's
 * slots (two), not one more. */
static void test_structure_slots_after_upgrade(void)
{
    tgame t = at_mgmt(2);
    sb_state *s = S(&t);
    s->p[0].isk = 20;
    int a = rig(&t, 0, "solar_collector", SB_Z_HAND, -1);
    int b = rig(&t, 0, "hull_plating", SB_Z_HAND, -1);
    int c = rig(&t, 0, "trade_office", SB_Z_HAND, -1);
    CHECK_EQ_INT(PLAY(&t, 0, a), 0);
    CHECK_EQ_INT(PLAY(&t, 0, b), ENGINE_ECONFLICT); /* the front: 1 slot */
    CHECK_EQ_INT(tplay(&t, 0, "{\"action\":\"upgrade\"}"), 0);
    CHECK_EQ_INT(PLAY(&t, 0, b), 0);
    CHECK_EQ_INT(s->in[b].zone, SB_Z_STRUCTURE);
    CHECK_EQ_INT(sb_base_hull(s, 0), 16 + 4);
    CHECK_EQ_INT(PLAY(&t, 0, c), ENGINE_ECONFLICT);
    CHECK_EQ_INT(s->in[c].zone, SB_Z_HAND);
    tfree(&t);
}

/* play_location: `legal` offers exactly the regions the location may go
 * to: for `any`, your home and the outer regions you control. */
static void test_location_regions_offered(void)
{
    tgame t = at_mgmt(2);
    sb_state *s = S(&t);
    s->p[0].isk = 10;
    int mine = outer(&t, 0, "drifting_nebula");
    int theirs = outer(&t, 1, "pirate_haven");
    int empty = outer(&t, 0, "merchant_lanes");
    rig(&t, 0, "picket_cutter", SB_Z_REGION, mine);
    rig(&t, 1, "picket_cutter", SB_Z_REGION, theirs);
    sb_update_control(s);
    int ice = rig(&t, 0, "rime_ice_field", SB_Z_HAND, -1);   /* any */
    int vein = rig(&t, 0, "crystal_vein", SB_Z_HAND, -1);    /* home */
    int belt = rig(&t, 0, "cobalt_ore_belt", SB_Z_HAND, -1); /* outer */
    CHECK(OFFERED_IS(&t, 0, "play", ice, "region", 0, mine));
    CHECK(OFFERED_IS(&t, 0, "play", vein, "region", 0));
    CHECK(OFFERED_IS(&t, 0, "play", belt, "region", mine));
    (void)empty;
    tfree(&t);
}

/* warp: `legal` offers every region in play but the ship's own; the home
 * of a player who lost is no region. */
static void test_warp_regions_offered(void)
{
    tgame t = at_mgmt(3);
    sb_state *s = S(&t);
    int r = outer(&t, 0, "drifting_nebula");
    int ship = rig(&t, 0, "picket_cutter", SB_Z_REGION, 0);
    CHECK(OFFERED_IS(&t, 0, "warp", ship, "region", 1, 2, r));
    s->p[2].alive = 0;
    s->p[2].lost_turn = 1;
    CHECK(OFFERED_IS(&t, 0, "warp", ship, "region", 1, r));
    CHECK_EQ_INT(WARP(&t, 0, ship, 2), ENGINE_EINVALID);
    CHECK_EQ_INT(WARP(&t, 0, ship, 0), ENGINE_EINVALID); /* where it is */
    tfree(&t);
}

/* use_ability: once per turn, in whichever turn that is: an instant used
 * in another player's turn is ready again in its controller's own. */
static void test_ability_once_per_turn_any_turn(void)
{
    tgame t = at_mgmt(2);
    sb_state *s = S(&t);
    int battery = rig(&t, 1, "missile_battery", SB_Z_STRUCTURE, -1);
    int a = rig(&t, 0, "bulk_hauler", SB_Z_REGION, 0); /* 0/3 */
    s->p[1].isk = 5;
    REQUIRE(tpass(&t) == 0); /* seat 0 passes: seat 1 holds priority */
    REQUIRE(tholder(&t) == 1);
    CHECK_EQ_INT(USE_AT(&t, 1, battery, 0, a), 0);
    CHECK_EQ_INT(s->in[a].damage, 1);
    CHECK_EQ_INT(USE_AT(&t, 1, battery, 0, a), ENGINE_ECONFLICT);
    REQUIRE(tpass_to(&t, 1, "management"));
    int b = rig(&t, 0, "bulk_hauler", SB_Z_REGION, 0);
    CHECK_EQ_INT(USE_AT(&t, 1, battery, 0, b), 0);
    CHECK_EQ_INT(s->in[b].damage, 1);
    CHECK_EQ_INT(USE_AT(&t, 1, battery, 0, b), ENGINE_ECONFLICT);
    tfree(&t);
}

/* ----------------------------------------------------- ability kinds -- */

/* assembly (one-shot): Rush Order counts a ship being assembled down two
 * steps at once; at II it is fully assembled and may undock this turn.
 * Only ships being assembled are targets. */
static void test_rush_order_assembles_at_once(void)
{
    tgame t = at_mgmt(2);
    sb_state *s = S(&t);
    s->p[0].isk = 5;
    int hauler = rig(&t, 0, "bulk_hauler", SB_Z_DOCK, -1);
    int monarch = rig(&t, 0, "dread_monarch", SB_Z_DOCK, -1);
    int ready = rig(&t, 0, "ore_barge", SB_Z_DOCK, -1);
    rig(&t, 0, "picket_cutter", SB_Z_REGION, 0);
    int theirs = rig(&t, 1, "lancer_frigate", SB_Z_DOCK, -1);
    s->in[hauler].count = 2;
    s->in[monarch].count = 4;
    s->in[theirs].count = 1;
    int rush = rig(&t, 0, "rush_order", SB_Z_HAND, -1);
    int rush2 = rig(&t, 0, "rush_order", SB_Z_HAND, -1);
    CHECK(OFFERED_IS(&t, 0, "play", rush, "target", hauler, monarch));
    CHECK_EQ_INT(PLAY_AT(&t, 0, rush, ready), ENGINE_EINVALID);
    CHECK_EQ_INT(PLAY_AT(&t, 0, rush, theirs), ENGINE_EINVALID);
    CHECK_EQ_INT(PLAY_AT(&t, 0, rush, hauler), 0);
    CHECK_EQ_INT(s->in[hauler].count, 0);
    CHECK_EQ_INT(TPLAY(&t, 0, "{\"action\":\"undock\",\"card\":%d}", hauler),
                 0);
    CHECK_EQ_INT(PLAY_AT(&t, 0, rush2, monarch), 0);
    CHECK_EQ_INT(s->in[monarch].count, 2);
    tfree(&t);
}

/* bounce with a price filter: Tractor Tug's Tow 2 takes an enemy ship of
 * price 2, not 3, and not a docked one; +1 command power (Vanguard
 * Flagship's Rally) lets it take price 3. */
static void test_bounce_price_filter_follows_power(void)
{
    tgame t = at_mgmt(2);
    sb_state *s = S(&t);
    s->p[0].isk = 6;
    int tug = rig(&t, 0, "tractor_tug", SB_Z_REGION, 0);
    s->in[tug].cmd = 0;
    int own = rig(&t, 0, "skiff_runner", SB_Z_REGION, 0);
    int lancer = rig(&t, 1, "lancer_frigate", SB_Z_REGION, 1);  /* 2 */
    int gunboat = rig(&t, 1, "hammer_gunboat", SB_Z_REGION, 1); /* 3 */
    int docked = rig(&t, 1, "corsair_raider", SB_Z_DOCK, -1);   /* 2 */
    CHECK(OFFERED_IS(&t, 0, "ability", tug, "target", lancer));
    CHECK_EQ_INT(USE_AT(&t, 0, tug, 0, gunboat), ENGINE_EINVALID);
    CHECK_EQ_INT(USE_AT(&t, 0, tug, 0, docked), ENGINE_EINVALID);
    CHECK_EQ_INT(USE_AT(&t, 0, tug, 0, own), ENGINE_EINVALID);
    int flagship = rig(&t, 0, "vanguard_flagship", SB_Z_REGION, 0);
    s->in[flagship].cmd = 0; /* Rally: +1 command power */
    CHECK_EQ_INT(sb_cmd_power(s, tug, 0), 3);
    CHECK(OFFERED_IS(&t, 0, "ability", tug, "target", lancer, gunboat));
    CHECK_EQ_INT(USE_AT(&t, 0, tug, 0, gunboat), 0);
    CHECK_EQ_INT(s->in[gunboat].zone, SB_Z_HAND);
    CHECK_EQ_INT(s->in[gunboat].owner, 1);
    CHECK_EQ_INT(s->p[0].isk, 4);
    CHECK_EQ_INT(tholder(&t), 1); /* it reached seat 1's card */
    tfree(&t);
}

/* destroy with a price filter: Bounty Contract takes an enemy ship of
 * price 4 or less; a price 5 ship, or one's own, is refused. */
static void test_destroy_price_filter(void)
{
    tgame t = at_mgmt(2);
    sb_state *s = S(&t);
    s->p[0].isk = 10;
    int warden = rig(&t, 1, "warden_destroyer", SB_Z_REGION, 1); /* 4 */
    int bastion = rig(&t, 1, "bastion_cruiser", SB_Z_REGION, 1); /* 5 */
    int own = rig(&t, 0, "warden_destroyer", SB_Z_REGION, 0);
    int bounty = rig(&t, 0, "bounty_contract", SB_Z_HAND, -1);
    CHECK(OFFERED_IS(&t, 0, "play", bounty, "target", warden));
    CHECK_EQ_INT(PLAY_AT(&t, 0, bounty, bastion), ENGINE_EINVALID);
    CHECK_EQ_INT(PLAY_AT(&t, 0, bounty, own), ENGINE_EINVALID);
    CHECK_EQ_INT(PLAY_AT(&t, 0, bounty, warden), 0);
    CHECK_EQ_INT(s->in[warden].zone, SB_Z_SCRAP);
    CHECK_EQ_INT(s->in[bastion].zone, SB_Z_REGION);
    CHECK_EQ_INT(s->p[0].isk, 5);
    tfree(&t);
}

/* deactivate with a price filter, as an instant in another player's
 * turn: Mirage Decoy's False Echo 2 reaches a price 2 ship, not price 4;
 * once a turn. */
static void test_deactivate_price_filter(void)
{
    tgame t = at_mgmt(2);
    sb_state *s = S(&t);
    int decoy = rig(&t, 1, "mirage_decoy", SB_Z_REGION, 1);
    s->in[decoy].cmd = 0;
    s->p[1].isk = 4;
    int lancer = rig(&t, 0, "lancer_frigate", SB_Z_REGION, 0);   /* 2 */
    int warden = rig(&t, 0, "warden_destroyer", SB_Z_REGION, 0); /* 4 */
    s->in[lancer].cmd = 0;
    s->in[warden].cmd = 1;
    CHECK_EQ_INT(sb_ship_attack(s, lancer), 3); /* Overcharge */
    REQUIRE(tpass(&t) == 0);
    REQUIRE(tholder(&t) == 1);
    CHECK(OFFERED_IS(&t, 1, "ability", decoy, "target", lancer));
    CHECK_EQ_INT(USE_AT(&t, 1, decoy, 0, warden), ENGINE_EINVALID);
    CHECK_EQ_INT(USE_AT(&t, 1, decoy, 0, lancer), 0);
    CHECK_EQ_INT(s->in[lancer].cmd, -1);
    CHECK_EQ_INT(sb_ship_attack(s, lancer), 2);
    CHECK_EQ_INT(s->in[warden].cmd, 1);
    CHECK_EQ_INT(s->p[1].isk, 2);
    CHECK_EQ_INT(USE_AT(&t, 1, decoy, 0, lancer), ENGINE_ECONFLICT);
    tfree(&t);
}

/* pin (one-shot): Gravity Well, played in the active player's turn, stops
 * that ship warping and activating until the end phase, not longer. */
static void test_pin_lasts_this_turn(void)
{
    tgame t = at_mgmt(2);
    sb_state *s = S(&t);
    int ship = rig(&t, 0, "lancer_frigate", SB_Z_REGION, 0);
    int r = outer(&t, 0, "drifting_nebula");
    int well = rig(&t, 1, "gravity_well", SB_Z_HAND, -1);
    s->p[1].isk = 2;
    REQUIRE(tpass(&t) == 0);
    REQUIRE(tholder(&t) == 1);
    CHECK_EQ_INT(PLAY_AT(&t, 1, well, ship), 0);
    CHECK(sb_pinned(s, ship));
    REQUIRE(tpass_to(&t, 0, "management")); /* seat 0 may act again */
    CHECK_EQ_INT(WARP(&t, 0, ship, r), ENGINE_ECONFLICT);
    CHECK_EQ_INT(
        TPLAY(&t, 0, "{\"action\":\"activate\",\"card\":%d,\"index\":0}", ship),
        ENGINE_ECONFLICT);
    CHECK(OFFERED_IS(&t, 0, "warp", ship, "region", ));
    REQUIRE(tpass_to(&t, 1, "setup"));
    CHECK(!sb_pinned(s, ship));
    REQUIRE(tpass_to(&t, 0, "management"));
    CHECK_EQ_INT(WARP(&t, 0, ship, r), 0);
    tfree(&t);
}

/* pin, passive (edition 3): Net Interdictor's Snare Field pins the enemy
 * ships in its region while its command is active, not its owner's, not
 * another region's, not when its command is off; Blockade Decree pins the
 * ship it names while it is in play. Edition 2 games replay as they were
 * played: there a passive pin pins nothing. */
static void test_passive_pins_pin_from_edition_3(void)
{
    tgame t = at_mgmt(2);
    sb_state *s = S(&t);
    s->edition = SB_EDITION_PINS;
    int ship = rig(&t, 0, "lancer_frigate", SB_Z_REGION, 0);
    int mine = rig(&t, 1, "lancer_frigate", SB_Z_REGION, 0);
    int r = outer(&t, 0, "drifting_nebula");
    int net = rig(&t, 1, "net_interdictor", SB_Z_REGION, 0);
    s->in[net].cmd = 0;
    CHECK(sb_pinned(s, ship));
    CHECK(!sb_pinned(s, mine)); /* its owner's ships are free */
    CHECK(!sb_pinned(s, net));
    CHECK_EQ_INT(WARP(&t, 0, ship, r), ENGINE_ECONFLICT);
    CHECK_EQ_INT(
        TPLAY(&t, 0, "{\"action\":\"activate\",\"card\":%d,\"index\":0}", ship),
        ENGINE_ECONFLICT);
    CHECK(OFFERED_IS(&t, 0, "warp", ship, "region", ));
    s->edition = SB_EDITION_SEED; /* the same state in edition 2 */
    CHECK(!sb_pinned(s, ship));
    s->edition = SB_EDITION_PINS;
    s->in[net].cmd = -1; /* its command off: no pin */
    CHECK(!sb_pinned(s, ship));
    s->in[net].cmd = 0;
    sb_move(s, net, SB_Z_REGION, r); /* another region: no pin here */
    CHECK(!sb_pinned(s, ship));
    CHECK_EQ_INT(WARP(&t, 0, ship, 1), 0);
    tfree(&t);

    t = at_mgmt(2);
    s = S(&t);
    s->edition = SB_EDITION_PINS;
    ship = rig(&t, 0, "lancer_frigate", SB_Z_REGION, 0);
    int other = rig(&t, 0, "lancer_frigate", SB_Z_REGION, 0);
    int decree = rig(&t, 1, "blockade_decree", SB_Z_HAND, -1);
    s->p[1].isk = 3;
    REQUIRE(tpass(&t) == 0);
    REQUIRE(tholder(&t) == 1);
    CHECK_EQ_INT(PLAY_AT(&t, 1, decree, ship), 0);
    CHECK_EQ_INT(s->in[decree].zone, SB_Z_NEWS);
    CHECK(sb_pinned(s, ship));
    CHECK(!sb_pinned(s, other)); /* only the ship it names */
    s->edition = SB_EDITION_SEED;
    CHECK(!sb_pinned(s, ship));
    s->edition = SB_EDITION_PINS;
    sb_move(s, decree, SB_Z_SCRAP, -1); /* out of play: the pin ends */
    CHECK(!sb_pinned(s, ship));
    tfree(&t);
}

/* isk against an opponent: Corsair Raider's Plunder takes 1 ISK from one
 * opponent, never below 0; its targets are the other living seats. */
static void test_isk_loss_stops_at_zero(void)
{
    tgame t = at_mgmt(3);
    sb_state *s = S(&t);
    int raider = rig(&t, 0, "corsair_raider", SB_Z_REGION, 0);
    int raider2 = rig(&t, 0, "corsair_raider", SB_Z_REGION, 0);
    s->in[raider].cmd = s->in[raider2].cmd = 0;
    s->p[1].isk = 0;
    s->p[2].isk = 1;
    CHECK(OFFERED_IS(&t, 0, "ability", raider, "target", 1, 2));
    CHECK_EQ_INT(USE_AT(&t, 0, raider, 0, 0), ENGINE_EINVALID);
    CHECK_EQ_INT(USE_AT(&t, 0, raider, 0, 1), 0);
    CHECK_EQ_INT(s->p[1].isk, 0);
    REQUIRE(tpass_to(&t, 0, "management"));
    CHECK_EQ_INT(USE_AT(&t, 0, raider2, 0, 2), 0);
    CHECK_EQ_INT(s->p[2].isk, 0);
    REQUIRE(tpass_to(&t, 0, "management"));
    s->p[2].alive = 0; /* a seat that lost is nobody's target */
    s->p[2].lost_turn = 1;
    CHECK(OFFERED_IS(&t, 0, "ability", raider2, "target", ));
    tfree(&t);
}

/* discard: Press Leak makes one opponent discard one card at random (to
 * the scrapheap); with an empty hand nothing happens. Hostile Audit hits
 * each opponent once. */
static void test_discard_at_random(void)
{
    tgame t = at_mgmt(3);
    sb_state *s = S(&t);
    s->p[0].isk = 20;
    int leak = rig(&t, 0, "press_leak", SB_Z_HAND, -1);
    int leak2 = rig(&t, 0, "press_leak", SB_Z_HAND, -1);
    int audit = rig(&t, 0, "hostile_audit", SB_Z_HAND, -1);
    int h0 = hand(&t, 0), h1 = hand(&t, 1), h2 = hand(&t, 2);
    int scrap1 = sb_count_zone(s, 1, SB_Z_SCRAP);
    CHECK_EQ_INT(PLAY_AT(&t, 0, leak, 1), 0);
    CHECK_EQ_INT(hand(&t, 1), h1 - 1);
    CHECK_EQ_INT(sb_count_zone(s, 1, SB_Z_SCRAP), scrap1 + 1);
    CHECK_EQ_INT(hand(&t, 2), h2);
    REQUIRE(tpass_to(&t, 0, "management"));
    CHECK_EQ_INT(PLAY(&t, 0, audit), 0);
    CHECK_EQ_INT(hand(&t, 1), h1 - 2);
    CHECK_EQ_INT(hand(&t, 2), h2 - 1);
    CHECK_EQ_INT(hand(&t, 0), h0 - 2);
    REQUIRE(tpass_to(&t, 0, "management"));
    for (int i = 0; i < s->ninst; i++)
        if (s->in[i].owner == 2 && s->in[i].zone == SB_Z_HAND)
            sb_move(s, i, SB_Z_SCRAP, -1);
    CHECK_EQ_INT(PLAY_AT(&t, 0, leak2, 2), 0);
    CHECK_EQ_INT(hand(&t, 2), 0);
    CHECK(invariants_ok(s));
    tfree(&t);
}

/* repair: removes that much damage from your starbase, never below 0. */
static void test_repair_stops_at_zero(void)
{
    tgame t = at_mgmt(2);
    sb_state *s = S(&t);
    s->p[0].isk = 10;
    int a = rig(&t, 0, "emergency_repairs", SB_Z_HAND, -1); /* repair 3 */
    int b = rig(&t, 0, "emergency_repairs", SB_Z_HAND, -1);
    s->p[0].damage = 5;
    CHECK_EQ_INT(PLAY(&t, 0, a), 0);
    CHECK_EQ_INT(s->p[0].damage, 2);
    CHECK_EQ_INT(PLAY(&t, 0, b), 0);
    CHECK_EQ_INT(s->p[0].damage, 0);
    tfree(&t);
}

/* destroy a news: Retraction takes any news in play, the enemy's or your
 * own, and its effect stops at once. */
static void test_retraction_ends_a_news(void)
{
    tgame t = at_mgmt(2);
    sb_state *s = S(&t);
    s->p[0].isk = 5;
    int embargo = rig(&t, 1, "trade_embargo", SB_Z_NEWS, -1);
    s->in[embargo].count = 2;
    int boom = rig(&t, 0, "market_boom", SB_Z_NEWS, -1);
    s->in[boom].count = 2;
    int retraction = rig(&t, 0, "retraction", SB_Z_HAND, -1);
    CHECK_EQ_INT(sb_income(s, 0), 2 - 1 + 1);
    CHECK(OFFERED_IS(&t, 0, "play", retraction, "target", embargo, boom));
    CHECK_EQ_INT(PLAY_AT(&t, 0, retraction, embargo), 0);
    CHECK_EQ_INT(s->in[embargo].zone, SB_Z_SCRAP);
    CHECK_EQ_INT(s->in[boom].zone, SB_Z_NEWS);
    CHECK_EQ_INT(sb_income(s, 0), 2 + 1);
    tfree(&t);
}

/* damage to a starbase: Orbital Strike aims at another player's starbase,
 * never at your own. */
static void test_orbital_strike_targets(void)
{
    tgame t = at_mgmt(3);
    sb_state *s = S(&t);
    s->p[0].isk = 5;
    int strike = rig(&t, 0, "orbital_strike", SB_Z_HAND, -1);
    CHECK(OFFERED_IS(&t, 0, "play", strike, "target", 1, 2));
    CHECK_EQ_INT(PLAY_AT(&t, 0, strike, 0), ENGINE_EINVALID);
    CHECK_EQ_INT(PLAY_AT(&t, 0, strike, 2), 0);
    CHECK_EQ_INT(s->p[2].damage, 3);
    CHECK_EQ_INT(s->p[1].damage, 0);
    CHECK_EQ_INT(s->p[0].damage, 0);
    tfree(&t);
}

/* aura on defence: a ship whose defence falls to its damage is destroyed
 * at once (Listening Post's +1 left behind by a warp); one ISK of damage
 * less and it lives. */
static void test_defence_falling_to_damage_destroys(void)
{
    tgame t = at_mgmt(2);
    sb_state *s = S(&t);
    int r = outer(&t, 0, "drifting_nebula");
    int hurt = rig(&t, 0, "picket_cutter", SB_Z_REGION, r); /* 1/2 */
    int fine = rig(&t, 0, "picket_cutter", SB_Z_REGION, r);
    rig(&t, 0, "listening_post", SB_Z_LOCATION, r);
    sb_update_control(s);
    CHECK_EQ_INT(sb_ship_defence(s, hurt), 3);
    s->in[hurt].damage = 2;
    s->in[fine].damage = 1;
    CHECK_EQ_INT(WARP(&t, 0, fine, 0), 0);
    CHECK_EQ_INT(s->in[fine].zone, SB_Z_REGION);
    CHECK_EQ_INT(s->in[fine].damage, 1);
    CHECK_EQ_INT(WARP(&t, 0, hurt, 0), 0);
    CHECK_EQ_INT(s->in[hurt].zone, SB_Z_SCRAP);
    tfree(&t);
}

/* aura on command power: Rally's +1 makes Barrage 2 deal 3. */
static void test_command_power_changes_damage(void)
{
    tgame t = at_mgmt(2);
    sb_state *s = S(&t);
    s->p[0].isk = 5;
    int a = rig(&t, 0, "warden_destroyer", SB_Z_REGION, 0);
    int b = rig(&t, 0, "warden_destroyer", SB_Z_REGION, 0);
    s->in[a].cmd = s->in[b].cmd = 0; /* Barrage 2, 1 ISK */
    int e1 = rig(&t, 1, "warden_destroyer", SB_Z_REGION, 1); /* 3/3 */
    int e2 = rig(&t, 1, "warden_destroyer", SB_Z_REGION, 1);
    CHECK_EQ_INT(USE_AT(&t, 0, a, 0, e1), 0);
    CHECK_EQ_INT(s->in[e1].damage, 2);
    REQUIRE(tpass_to(&t, 0, "management"));
    int flagship = rig(&t, 0, "vanguard_flagship", SB_Z_REGION, 0);
    s->in[flagship].cmd = 0;
    CHECK_EQ_INT(sb_cmd_power(s, b, 0), 3);
    CHECK_EQ_INT(USE_AT(&t, 0, b, 0, e2), 0);
    CHECK_EQ_INT(s->in[e2].zone, SB_Z_SCRAP);
    CHECK_EQ_INT(s->p[0].isk, 3);
    tfree(&t);
}

/* warps: only edition 1 counts warps, so only there do extra warps add
 * any: Skiff Runner's Scout gives a second warp and no third. In edition 2
 * a ship without extra warps warps again and again, and one with them
 * still stops once it attacks: the extra warps have no effect. */
static void test_extra_warps_count_only_in_edition_1(void)
{
    tgame t = tnew(2, 77); /* a game stored before editions: edition 1 */
    REQUIRE(tpass_to(&t, 0, "management"));
    sb_state *s = S(&t);
    int r = outer(&t, 0, "drifting_nebula");
    int skiff = rig(&t, 0, "skiff_runner", SB_Z_REGION, 0);
    int picket = rig(&t, 0, "picket_cutter", SB_Z_REGION, 0);
    s->in[skiff].cmd = 0; /* Scout 1 */
    CHECK_EQ_INT(WARP(&t, 0, picket, r), 0);
    CHECK_EQ_INT(WARP(&t, 0, picket, 0), ENGINE_ECONFLICT);
    CHECK_EQ_INT(WARP(&t, 0, skiff, r), 0); /* warping deactivated Scout */
    s->in[skiff].cmd = 0;
    CHECK_EQ_INT(WARP(&t, 0, skiff, 0), 0);
    s->in[skiff].cmd = 0;
    CHECK_EQ_INT(WARP(&t, 0, skiff, r), ENGINE_ECONFLICT);
    tfree(&t);

    t = at_mgmt(2);
    s = S(&t);
    r = outer(&t, 0, "drifting_nebula");
    picket = rig(&t, 0, "picket_cutter", SB_Z_REGION, 0);
    skiff = rig(&t, 0, "skiff_runner", SB_Z_REGION, 0);
    int convoy = rig(&t, 0, "convoy_contract", SB_Z_NEWS, -1);
    s->in[convoy].count = 4;
    for (int k = 0; k < 3; k++) {
        CHECK_EQ_INT(WARP(&t, 0, picket, r), 0);
        CHECK_EQ_INT(WARP(&t, 0, picket, 0), 0);
    }
    s->in[skiff].cmd = 0;
    s->in[skiff].textra = 2;
    CHECK_EQ_INT(WARP(&t, 0, skiff, 1), 0); /* an attack */
    REQUIRE(tpass_to(&t, 0, "management"));
    CHECK_EQ_INT(WARP(&t, 0, skiff, 0), ENGINE_ECONFLICT);
    CHECK(OFFERED_IS(&t, 0, "warp", skiff, "region", ));
    tfree(&t);
}

/* ------------------------------------------------------------ battle -- */

/* battle_order: one battle per attacked region, in the order of the first
 * attack on each; a second attack on a region adds no battle. */
static void test_battles_in_first_attack_order(void)
{
    tgame t = at_mgmt(2);
    sb_state *s = S(&t);
    int r = outer(&t, 0, "drifting_nebula");
    int guard = rig(&t, 1, "picket_cutter", SB_Z_REGION, r); /* 1/2 */
    sb_update_control(s);
    int x = rig(&t, 0, "dread_monarch", SB_Z_REGION, 0);
    int y = rig(&t, 0, "dread_monarch", SB_Z_REGION, 0);
    int z = rig(&t, 0, "lancer_frigate", SB_Z_REGION, 0);
    CHECK_EQ_INT(WARP(&t, 0, x, r), 0);
    REQUIRE(tpass_to(&t, 0, "management"));
    CHECK_EQ_INT(WARP(&t, 0, y, 1), 0);
    REQUIRE(tpass_to(&t, 0, "management"));
    CHECK_EQ_INT(WARP(&t, 0, z, r), 0);
    CHECK_EQ_INT(s->nattacks, 2);
    CHECK_EQ_INT(s->attacks[0][0], r);
    CHECK_EQ_INT(s->attacks[1][0], 1);
    REQUIRE(tpass_to(&t, 0, "management"));
    REQUIRE(to_battle(&t));
    CHECK_EQ_INT(s->battle, 0);
    REQUIRE(tpass(&t) == 0);
    REQUIRE(tpass(&t) == 0); /* the first battle: the outer region */
    CHECK_EQ_STR(tstep(&t), "battle");
    CHECK_EQ_INT(s->battle, 1);
    CHECK_EQ_INT(s->in[guard].zone, SB_Z_SCRAP);
    CHECK_EQ_INT(s->p[1].damage, 0); /* the home region's battle is next */
    REQUIRE(tpass(&t) == 0);
    REQUIRE(tpass(&t) == 0);
    CHECK_EQ_STR(tstep(&t), "end");
    CHECK_EQ_INT(s->p[1].damage, 6);
    CHECK_EQ_INT(sb_region_ctrl(s, r), 0);
    tfree(&t);
}

/* battle_sides: docked ships do not fight; with no defending ship left in
 * an attacked outer region when its battle comes, the attackers take it
 * without a fight. */
static void test_battle_sides(void)
{
    tgame t = at_mgmt(2);
    sb_state *s = S(&t);
    int docked = rig(&t, 1, "hammer_gunboat", SB_Z_DOCK, -1);    /* 3/2 */
    int warden = rig(&t, 0, "warden_destroyer", SB_Z_REGION, 0); /* 3/3 */
    CHECK_EQ_INT(WARP(&t, 0, warden, 1), 0);
    REQUIRE(tpass_to(&t, 0, "management"));
    REQUIRE(to_battle(&t));
    REQUIRE(pass_out_of(&t, "battle"));
    /* only Corvid Roost's 2 guns fire back; the docked gunboat's 3 would
     * have destroyed the destroyer */
    CHECK_EQ_INT(s->in[warden].zone, SB_Z_REGION);
    CHECK_EQ_INT(s->in[warden].region, 0);
    CHECK_EQ_INT(s->in[warden].damage, 2);
    CHECK_EQ_INT(s->p[1].damage, 3);
    CHECK_EQ_INT(s->in[docked].zone, SB_Z_DOCK);
    CHECK_EQ_INT(s->in[docked].damage, 0);
    tfree(&t);

    t = at_mgmt(2);
    s = S(&t);
    s->p[0].isk = 4;
    int r = outer(&t, 0, "drifting_nebula");
    int guard = rig(&t, 1, "hammer_gunboat", SB_Z_REGION, r); /* 3/2 */
    sb_update_control(s);
    int lancer = rig(&t, 0, "lancer_frigate", SB_Z_REGION, 0); /* 2/1 */
    int recall = rig(&t, 0, "recall_order", SB_Z_HAND, -1);
    CHECK_EQ_INT(WARP(&t, 0, lancer, r), 0);
    REQUIRE(tpass_to(&t, 0, "management"));
    CHECK_EQ_INT(PLAY_AT(&t, 0, recall, guard), 0);
    CHECK_EQ_INT(s->in[guard].zone, SB_Z_HAND);
    REQUIRE(tpass_to(&t, 0, "management"));
    REQUIRE(to_battle(&t));
    REQUIRE(pass_out_of(&t, "battle"));
    CHECK_EQ_INT(s->in[lancer].zone, SB_Z_REGION);
    CHECK_EQ_INT(s->in[lancer].region, r);
    CHECK_EQ_INT(s->in[lancer].damage, 0);
    CHECK_EQ_INT(s->in[lancer].attacking, 0);
    CHECK_EQ_INT(sb_region_ctrl(s, r), 0);
    tfree(&t);
}

/* battle_damage and battle_outcome: damage goes cheapest-to-destroy first,
 * ties in card order; an aura never takes an attack below 0 (Minefield
 * on a 0-attack ship); the defender keeps a region it still holds and the
 * surviving attackers fall back home; ship damage lasts until the end
 * phase. */
static void test_damage_cheapest_first_and_fall_back(void)
{
    tgame t = at_mgmt(2);
    sb_state *s = S(&t);
    int r = outer(&t, 0, "drifting_nebula");
    int skiff = rig(&t, 1, "skiff_runner", SB_Z_REGION, r);   /* 1/1 */
    int picket = rig(&t, 1, "picket_cutter", SB_Z_REGION, r); /* 1/2 */
    rig(&t, 1, "minefield", SB_Z_LOCATION, r); /* enemy ships -1 attack */
    sb_update_control(s);
    int lancer = rig(&t, 0, "lancer_frigate", SB_Z_REGION, 0); /* 2/1 */
    for (int i = 0; i < s->ninst; i++) /* no outer region to buy instead */
        if (s->in[i].owner == 0 && s->in[i].zone == SB_Z_OUTER_STACK)
            sb_move(s, i, SB_Z_SCRAP, -1);
    int probe = rig(&t, 0, "survey_probe", SB_Z_REGION, 0);      /* 0/1 */
    int talon = rig(&t, 0, "talon_interceptor", SB_Z_REGION, 0); /* 2/2 */
    REQUIRE(lancer < probe && probe < talon);
    CHECK_EQ_INT(WARP(&t, 0, lancer, r), 0);
    REQUIRE(tpass_to(&t, 0, "management"));
    CHECK_EQ_INT(WARP(&t, 0, probe, r), 0);
    REQUIRE(tpass_to(&t, 0, "management"));
    CHECK_EQ_INT(WARP(&t, 0, talon, r), 0);
    CHECK_EQ_INT(sb_ship_attack(s, lancer), 1);
    CHECK_EQ_INT(sb_ship_attack(s, probe), 0); /* not -1 */
    REQUIRE(tpass_to(&t, 0, "management"));
    REQUIRE(to_battle(&t));
    REQUIRE(pass_out_of(&t, "battle"));
    CHECK_EQ_STR(tstep(&t), "end");
    /* 1 + 0 + 1 = 2 damage: the skiff (1 left) first, then 1 on the
     * picket; 2 back: the lancer and the probe (1 left each, card order)
     * before the talon */
    CHECK_EQ_INT(s->in[skiff].zone, SB_Z_SCRAP);
    CHECK_EQ_INT(s->in[picket].zone, SB_Z_REGION);
    CHECK_EQ_INT(s->in[picket].damage, 1);
    CHECK_EQ_INT(s->in[lancer].zone, SB_Z_SCRAP);
    CHECK_EQ_INT(s->in[probe].zone, SB_Z_SCRAP);
    CHECK_EQ_INT(s->in[talon].zone, SB_Z_REGION);
    CHECK_EQ_INT(s->in[talon].region, 0); /* fell back home */
    CHECK_EQ_INT(s->in[talon].attacking, 0);
    CHECK_EQ_INT(s->in[talon].damage, 0);
    CHECK_EQ_INT(sb_region_ctrl(s, r), 1);
    REQUIRE(pass_out_of(&t, "end"));
    CHECK_EQ_INT(s->in[picket].damage, 0);
    tfree(&t);
}

/* battle_damage, one damage short: with no starbase in the region the last
 * ship takes what is left, and damage equal to defence destroys. */
static void test_damage_exactly_destroys(void)
{
    tgame t = at_mgmt(2);
    sb_state *s = S(&t);
    int r = outer(&t, 0, "drifting_nebula");
    int a = rig(&t, 1, "picket_cutter", SB_Z_REGION, r); /* 1/2 */
    int b = rig(&t, 1, "picket_cutter", SB_Z_REGION, r); /* 1/2 */
    sb_update_control(s);
    int gunboat = rig(&t, 0, "hammer_gunboat", SB_Z_REGION, 0); /* 3/2 */
    CHECK_EQ_INT(WARP(&t, 0, gunboat, r), 0);
    REQUIRE(tpass_to(&t, 0, "management"));
    REQUIRE(to_battle(&t));
    REQUIRE(pass_out_of(&t, "battle"));
    /* 3 damage: 2 destroy the first picket, 1 is left on the second; 2
     * back destroy the gunboat (defence 2) */
    CHECK_EQ_INT(s->in[a].zone, SB_Z_SCRAP);
    CHECK_EQ_INT(s->in[b].zone, SB_Z_REGION);
    CHECK_EQ_INT(s->in[b].damage, 1);
    CHECK_EQ_INT(s->in[gunboat].zone, SB_Z_SCRAP);
    CHECK_EQ_INT(sb_region_ctrl(s, r), 1);
    tfree(&t);
}

/* Nobody left in an outer region after the battle: it is uncontrolled. */
static void test_battle_leaves_nobody(void)
{
    tgame t = at_mgmt(2);
    sb_state *s = S(&t);
    int r = outer(&t, 0, "drifting_nebula");
    int guard = rig(&t, 1, "lancer_frigate", SB_Z_REGION, r); /* 2/1 */
    sb_update_control(s);
    int att = rig(&t, 0, "lancer_frigate", SB_Z_REGION, 0);
    CHECK_EQ_INT(WARP(&t, 0, att, r), 0);
    REQUIRE(tpass_to(&t, 0, "management"));
    REQUIRE(to_battle(&t));
    REQUIRE(pass_out_of(&t, "battle"));
    CHECK_EQ_INT(s->in[guard].zone, SB_Z_SCRAP);
    CHECK_EQ_INT(s->in[att].zone, SB_Z_SCRAP);
    CHECK_EQ_INT(sb_region_ctrl(s, r), -1);
    tfree(&t);
}

/* battle_instants: the active player holds priority first in a battle
 * step, then the defender may answer: Emergency Scramble's +3 defence
 * keeps its ship alive. Gun Platform hits each enemy ship in its region
 * and no other. */
static void test_battle_instants(void)
{
    tgame t = at_mgmt(2);
    sb_state *s = S(&t);
    s->p[1].isk = 5;
    int guard = rig(&t, 1, "picket_cutter", SB_Z_REGION, 1); /* 1/2 */
    int platform = rig(&t, 1, "gun_platform", SB_Z_LOCATION, 1);
    int scramble = rig(&t, 1, "emergency_scramble", SB_Z_HAND, -1);
    int warden = rig(&t, 0, "warden_destroyer", SB_Z_REGION, 0); /* 3/3 */
    int lancer = rig(&t, 0, "lancer_frigate", SB_Z_REGION, 0);   /* 2/1 */
    int stay = rig(&t, 0, "skiff_runner", SB_Z_REGION, 0);
    s->p[1].damage = 0;
    CHECK_EQ_INT(WARP(&t, 0, warden, 1), 0);
    REQUIRE(tpass_to(&t, 0, "management"));
    CHECK_EQ_INT(WARP(&t, 0, lancer, 1), 0);
    REQUIRE(tpass_to(&t, 0, "management"));
    REQUIRE(to_battle(&t));
    REQUIRE(tpass(&t) == 0);
    REQUIRE(tholder(&t) == 1);
    CHECK_EQ_INT(USE(&t, 1, platform, 0), 0); /* 1 ISK */
    CHECK_EQ_INT(s->in[lancer].zone, SB_Z_SCRAP);
    CHECK_EQ_INT(s->in[warden].damage, 1);
    CHECK_EQ_INT(s->in[stay].damage, 0);
    CHECK_EQ_INT(s->in[guard].damage, 0);
    CHECK_EQ_INT(PLAY_AT(&t, 1, scramble, guard), 0);
    CHECK_EQ_INT(sb_ship_defence(s, guard), 5);
    REQUIRE(pass_out_of(&t, "battle"));
    /* 3 on the picket (5 defence) and none on the starbase; 1 + 2 guns
     * back on the destroyer, 1 damage on it already: destroyed */
    CHECK_EQ_INT(s->in[guard].zone, SB_Z_REGION);
    CHECK_EQ_INT(s->in[guard].damage, 3);
    CHECK_EQ_INT(s->p[1].damage, 0);
    CHECK_EQ_INT(s->in[warden].zone, SB_Z_SCRAP);
    tfree(&t);
}

/* ---------------------------------------------------------- end phase -- */

/* end_phase: "this turn" effects last through the end step and end after
 * it; damage on a starbase stays. */
static void test_this_turn_ends_after_end_step(void)
{
    tgame t = at_mgmt(2);
    sb_state *s = S(&t);
    s->p[0].isk = 3;
    s->p[0].damage = 2;
    int lancer = rig(&t, 0, "lancer_frigate", SB_Z_REGION, 0);
    int review = rig(&t, 0, "fleet_review", SB_Z_HAND, -1);
    int h = hand(&t, 0);
    CHECK_EQ_INT(PLAY(&t, 0, review), 0);
    CHECK_EQ_INT(hand(&t, 0), h - 1 + 1);
    CHECK_EQ_INT(sb_ship_attack(s, lancer), 3);
    REQUIRE(pass_out_of(&t, "management"));
    CHECK_EQ_STR(tstep(&t), "end");
    CHECK_EQ_INT(sb_ship_attack(s, lancer), 3);
    REQUIRE(pass_out_of(&t, "end"));
    CHECK_EQ_INT(sb_ship_attack(s, lancer), 2);
    CHECK_EQ_INT(s->p[0].damage, 2);
    tfree(&t);
}

/* The hand limit: 7 are kept with no discard step; at 8 the active player
 * alone holds priority, and a pass discards the card that came last. */
static void test_hand_limit_boundary(void)
{
    tgame t = at_mgmt(2);
    sb_state *s = S(&t);
    REQUIRE(hand(&t, 0) == 5);
    rig(&t, 0, "windfall", SB_Z_HAND, -1);
    rig(&t, 0, "windfall", SB_Z_HAND, -1);
    REQUIRE(pass_out_of(&t, "management"));
    REQUIRE(pass_out_of(&t, "end"));
    CHECK_EQ_STR(tstep(&t), "setup");
    CHECK_EQ_INT(s->active, 1);
    CHECK_EQ_INT(hand(&t, 0), 7);
    tfree(&t);

    t = at_mgmt(2);
    s = S(&t);
    int first = rig(&t, 0, "windfall", SB_Z_HAND, -1);
    int mid = rig(&t, 0, "windfall", SB_Z_HAND, -1);
    int last = rig(&t, 0, "windfall", SB_Z_HAND, -1);
    REQUIRE(pass_out_of(&t, "management"));
    REQUIRE(pass_out_of(&t, "end"));
    CHECK_EQ_STR(tstep(&t), "discard");
    CHECK_EQ_INT(tholder(&t), 0);
    CHECK_EQ_INT(TPLAY(&t, 1, "{\"action\":\"discard\",\"card\":%d}", first),
                 ENGINE_ECONFLICT);
    REQUIRE(tpass(&t) == 0);
    CHECK_EQ_INT(hand(&t, 0), 7);
    CHECK_EQ_INT(s->in[last].zone, SB_Z_SCRAP);
    CHECK_EQ_INT(s->in[mid].zone, SB_Z_HAND);
    CHECK_EQ_INT(s->in[first].zone, SB_Z_HAND);
    CHECK_EQ_INT(s->active, 1);
    tfree(&t);
}

/* ------------------------------------------------------------ winning -- */

/* starbase_destroyed: hull auras count; a starbase at damage equal to its
 * hull is destroyed the moment the aura goes (Demolition Charges on Hull
 * Plating); one damage less and it stands. */
static void test_hull_aura_and_destruction(void)
{
    tgame t = at_mgmt(2);
    sb_state *s = S(&t);
    s->p[0].isk = 8;
    int plating = rig(&t, 1, "hull_plating", SB_Z_STRUCTURE, -1);
    int charges = rig(&t, 0, "demolition_charges", SB_Z_HAND, -1);
    CHECK_EQ_INT(sb_base_hull(s, 1), 12 + 4); /* Corvid Roost */
    s->p[1].damage = 11;
    CHECK(OFFERED_IS(&t, 0, "play", charges, "target", plating));
    CHECK_EQ_INT(PLAY_AT(&t, 0, charges, plating), 0);
    CHECK_EQ_INT(s->in[plating].zone, SB_Z_SCRAP);
    CHECK(s->p[1].alive);
    CHECK(!engine_is_over(t.g));
    tfree(&t);

    t = at_mgmt(2);
    s = S(&t);
    s->p[0].isk = 8;
    plating = rig(&t, 1, "hull_plating", SB_Z_STRUCTURE, -1);
    charges = rig(&t, 0, "demolition_charges", SB_Z_HAND, -1);
    s->p[1].damage = 12;
    int ship = rig(&t, 0, "picket_cutter", SB_Z_REGION, 0);
    CHECK_EQ_INT(
        TPLAY(&t, 0, "{\"action\":\"activate\",\"card\":%d,\"index\":0}", ship),
        0);
    CHECK(s->p[1].alive); /* 12 of 16 */
    CHECK_EQ_INT(PLAY_AT(&t, 0, charges, plating), 0);
    CHECK(!s->p[1].alive);
    CHECK(engine_is_over(t.g));
    tfree(&t);
}

/* kind `aura` on your starbase, guns (Defence Grid: +2 attack): the
 * aura raises its owner's guns while the structure is attached, and only
 * its owner's; in a hand, or once Demolition Charges scrap it, it raises
 * nothing. It matters at home: Corvid Roost's 2 guns leave an attacking
 * Vanguard Flagship (3/4) standing, the 4 with the grid destroy it
 * exactly (3 would not). */
static void test_defence_grid_raises_the_guns(void)
{
    tgame t = at_mgmt(2);
    sb_state *s = S(&t);
    int printed = sb_side(s, 0)->attack;
    int grid = rig(&t, 1, "defence_grid", SB_Z_HAND, -1);
    CHECK_EQ_INT(sb_base_attack(s, 1), 2); /* Corvid Roost; in a hand */
    sb_move(s, grid, SB_Z_STRUCTURE, -1);
    CHECK_EQ_INT(sb_base_attack(s, 1), 2 + 2);
    CHECK_EQ_INT(sb_base_attack(s, 0), printed); /* not the other starbase */
    CHECK_EQ_INT(sb_base_hull(s, 1), 12);        /* guns only */
    json_t *v = engine_view(t.g, 0);
    json_t *base = json_object_get(
        json_array_get(json_object_get(v, "players"), 1), "starbase");
    CHECK_EQ_INT(json_integer_value(json_object_get(base, "attack")), 4);
    json_decref(v);
    int ship = rig(&t, 0, "vanguard_flagship", SB_Z_REGION, 0);
    REQUIRE(sb_ship_defence(s, ship) == 4 && sb_ship_attack(s, ship) == 3);
    CHECK_EQ_INT(WARP(&t, 0, ship, 1), 0);
    REQUIRE(tpass_to(&t, 0, "management"));
    REQUIRE(to_battle(&t));
    REQUIRE(pass_out_of(&t, "battle"));
    CHECK_EQ_INT(s->in[ship].zone, SB_Z_SCRAP);
    CHECK_EQ_INT(s->p[1].damage, 3);
    tfree(&t);

    /* the grid scrapped before the attack: the printed 2 guns */
    t = at_mgmt(2);
    s = S(&t);
    s->p[0].isk = 8;
    grid = rig(&t, 1, "defence_grid", SB_Z_STRUCTURE, -1);
    int charges = rig(&t, 0, "demolition_charges", SB_Z_HAND, -1);
    ship = rig(&t, 0, "vanguard_flagship", SB_Z_REGION, 0);
    CHECK_EQ_INT(sb_base_attack(s, 1), 4);
    CHECK_EQ_INT(PLAY_AT(&t, 0, charges, grid), 0);
    CHECK_EQ_INT(s->in[grid].zone, SB_Z_SCRAP);
    CHECK_EQ_INT(sb_base_attack(s, 1), 2);
    REQUIRE(tpass_to(&t, 0, "management"));
    CHECK_EQ_INT(WARP(&t, 0, ship, 1), 0);
    REQUIRE(tpass_to(&t, 0, "management"));
    REQUIRE(to_battle(&t));
    REQUIRE(pass_out_of(&t, "battle"));
    CHECK_EQ_INT(s->in[ship].zone, SB_Z_REGION);
    CHECK_EQ_INT(s->in[ship].region, 0);
    CHECK_EQ_INT(s->in[ship].damage, 2);
    CHECK_EQ_INT(s->p[1].damage, 3);
    tfree(&t);
}

/* last_player_wins: a player who loses leaves: their cards in play go to
 * their scrapheap (their outer regions too), other players' ships there
 * fall back home and other players' locations there go to their owners'
 * scrapheaps; their hand stays; the game goes on without them. */
static void test_loser_leaves_play(void)
{
    tgame t = at_mgmt(3);
    sb_state *s = S(&t);
    int haven = outer(&t, 1, "pirate_haven");
    int mine = rig(&t, 0, "picket_cutter", SB_Z_REGION, haven);
    int belt = rig(&t, 0, "cobalt_ore_belt", SB_Z_LOCATION, haven);
    int visitor = rig(&t, 2, "picket_cutter", SB_Z_REGION, 1);
    int theirs = rig(&t, 1, "lancer_frigate", SB_Z_REGION, 1);
    int dock = rig(&t, 1, "lancer_frigate", SB_Z_DOCK, -1);
    int vein = rig(&t, 1, "crystal_vein", SB_Z_LOCATION, 1);
    int h1 = hand(&t, 1);
    sb_update_control(s);
    CHECK_EQ_INT(sb_region_ctrl(s, haven), 0);
    s->p[1].damage = 99;
    int ship = rig(&t, 0, "warden_destroyer", SB_Z_REGION, 0);
    CHECK_EQ_INT(
        TPLAY(&t, 0, "{\"action\":\"activate\",\"card\":%d,\"index\":0}", ship),
        0);
    CHECK(!s->p[1].alive);
    CHECK(!engine_is_over(t.g));
    CHECK_EQ_INT(s->in[haven - SB_HOME_COUNT].zone, SB_Z_SCRAP);
    CHECK_EQ_INT(s->in[mine].zone, SB_Z_REGION);
    CHECK_EQ_INT(s->in[mine].region, 0);
    CHECK_EQ_INT(s->in[belt].zone, SB_Z_SCRAP);
    CHECK_EQ_INT(s->in[belt].owner, 0);
    CHECK_EQ_INT(s->in[visitor].zone, SB_Z_REGION);
    CHECK_EQ_INT(s->in[visitor].region, 2);
    CHECK_EQ_INT(s->in[theirs].zone, SB_Z_SCRAP);
    CHECK_EQ_INT(s->in[dock].zone, SB_Z_SCRAP);
    CHECK_EQ_INT(s->in[vein].zone, SB_Z_SCRAP);
    CHECK_EQ_INT(hand(&t, 1), h1);
    CHECK(invariants_ok(s));
    REQUIRE(pass_out_of(&t, "management"));
    REQUIRE(pass_out_of(&t, "end"));
    CHECK_EQ_INT(s->active, 2); /* seat 1 is skipped */
    tfree(&t);
}

/* All the remaining players losing at the same moment: a draw, no winner,
 * the same score. */
static void test_all_lose_at_once_draw(void)
{
    tgame t = at_mgmt(2);
    sb_state *s = S(&t);
    s->p[0].damage = sb_base_hull(s, 0);
    s->p[1].damage = sb_base_hull(s, 1);
    int ship = rig(&t, 0, "picket_cutter", SB_Z_REGION, 0);
    CHECK_EQ_INT(
        TPLAY(&t, 0, "{\"action\":\"activate\",\"card\":%d,\"index\":0}", ship),
        0);
    REQUIRE(engine_is_over(t.g));
    json_t *res = engine_result(t.g);
    CHECK_EQ_INT(json_array_size(json_object_get(res, "winners")), 0);
    CHECK(json_is_true(json_object_get(res, "draw")));
    json_t *sc = json_object_get(res, "scores");
    CHECK_EQ_INT(json_integer_value(json_array_get(sc, 0)), 0);
    CHECK_EQ_INT(json_integer_value(json_array_get(sc, 1)), 0);
    json_decref(res);
    tfree(&t);
}

/* ----------------------------------------------------------- priority -- */

/* priority: the active player keeps priority after a play that reaches
 * nobody; after one that reaches another player it goes round the others
 * in seat order and comes back, and those passes count: the active
 * player's pass then ends the step (everybody passed in a row). A play by
 * another player keeps that player's priority, and the step ends only
 * once everybody has passed in a row after it. */
static void test_priority_round(void)
{
    tgame t = at_mgmt(3);
    sb_state *s = S(&t);
    s->p[0].isk = 10;
    s->p[1].isk = 5;
    int windfall = rig(&t, 0, "windfall", SB_Z_HAND, -1);
    int leak = rig(&t, 0, "press_leak", SB_Z_HAND, -1);
    int payout = rig(&t, 1, "insurance_payout", SB_Z_HAND, -1);
    CHECK_EQ_INT(PLAY(&t, 0, windfall), 0);
    CHECK_EQ_INT(tholder(&t), 0);
    CHECK_EQ_INT(PLAY_AT(&t, 0, leak, 2), 0);
    CHECK_EQ_INT(tholder(&t), 1);
    REQUIRE(tpass(&t) == 0);
    CHECK_EQ_INT(tholder(&t), 2);
    REQUIRE(tpass(&t) == 0);
    CHECK_EQ_INT(tholder(&t), 0);
    CHECK_EQ_STR(tstep(&t), "management");
    REQUIRE(tpass(&t) == 0);
    CHECK_EQ_STR(tstep(&t), "end");
    CHECK_EQ_INT(tholder(&t), 0); /* the active player first */
    REQUIRE(tpass(&t) == 0);
    CHECK_EQ_INT(tholder(&t), 1);
    CHECK_EQ_INT(PLAY(&t, 1, payout), 0);
    CHECK_EQ_INT(tholder(&t), 1); /* it keeps priority after an instant */
    REQUIRE(tpass(&t) == 0);
    CHECK_EQ_INT(tholder(&t), 2);
    REQUIRE(tpass(&t) == 0);
    CHECK_EQ_INT(tholder(&t), 0); /* the active player again */
    CHECK_EQ_STR(tstep(&t), "end");
    REQUIRE(tpass(&t) == 0); /* everybody passed in a row */
    CHECK_EQ_STR(tstep(&t), "setup");
    CHECK_EQ_INT(s->active, 1);
    tfree(&t);
}

/* -------------------------------------------------- legal and bots -- */

/* play_outer_region: `legal` offers exactly the outer regions of your own
 * stack whose copy is not in play. */
static void test_outer_regions_offered(void)
{
    tgame t = at_mgmt(2);
    sb_state *s = S(&t);
    s->p[0].isk = 10;
    int stack[3], n = 0;
    for (int i = 0; i < s->ninst && n < 3; i++)
        if (s->in[i].owner == 0 && s->in[i].zone == SB_Z_OUTER_STACK)
            stack[n++] = i;
    REQUIRE(n == 3);
    CHECK(OFFERED_IS(&t, 0, "outer", -1, "card", stack[0], stack[1], stack[2]));
    outer(&t, 1, "drifting_nebula"); /* seat 1's copy: seat 0's is out */
    int neb = -1;
    for (int k = 0; k < 3; k++)
        if (s->in[stack[k]].card == card_index("drifting_nebula"))
            neb = k;
    REQUIRE(neb >= 0);
    int rest[2], m = 0;
    for (int k = 0; k < 3; k++)
        if (k != neb)
            rest[m++] = stack[k];
    CHECK(OFFERED_IS(&t, 0, "outer", -1, "card", rest[0], rest[1]));
    CHECK(OFFERED_IS(&t, 1, "outer", -1, "card", )); /* not its turn */
    tfree(&t);
}

/* A play naming no known action is refused, naming the field. */
static void test_unknown_action_refused(void)
{
    tgame t = at_mgmt(2);
    engine_error err;
    CHECK_EQ_INT(tplay_e(&t, 0, "{\"action\":\"surrender\"}", &err),
                 ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "action");
    CHECK_EQ_INT(tplay_e(&t, 0, "{\"card\":3}", &err), ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "action");
    CHECK_EQ_INT(S(&t)->p[0].forfeit, 0);
    CHECK_EQ_STR(tstep(&t), "management");
    tfree(&t);
}

static void test_rng(engine_rng *rng, uint8_t k)
{
    uint8_t key[32] = {0};
    key[0] = k;
    engine_rng_init(rng, key, 1);
}

/* The random bot ends its own management phase with chance 1/4, else picks
 * among its plays and the pass alike: with L plays it passes with chance
 * 1/4 + 3/4 * 1/(L+1). */
static void test_random_bot_pass_rate(void)
{
    tgame t = at_mgmt(2);
    sb_state *s = S(&t);
    sb_action acts[SB_MAX_ACTIONS];
    int L = sb_list_actions(s, 0, SB_STEP_MANAGEMENT, acts, SB_MAX_ACTIONS);
    REQUIRE(L >= 3);
    engine_rng rng;
    test_rng(&rng, 7);
    int passes = 0, draws = 800;
    for (int k = 0; k < draws; k++) {
        json_t *p = sb_bot_play(s, 0, SB_STEP_MANAGEMENT, "random", &rng);
        passes += p == NULL;
        json_decref(p);
    }
    double want = 0.25 + 0.75 / (L + 1), got = (double)passes / draws;
    CHECKF(got > want - 0.08 && got < want + 0.08, "passed %.3f, want %.3f",
           got, want);
    tfree(&t);
}

/* The basic bot values a ship's first command (index 0) by that command:
 * Barrage finishing an enemy ship is its best play, and Survey's draw with
 * a nearly empty market is no play for it at all. */
static void test_basic_bot_uses_first_command(void)
{
    tgame t = at_mgmt(2);
    sb_state *s = S(&t);
    for (int i = 0; i < s->ninst; i++)
        if (s->in[i].owner == 0 && s->in[i].zone == SB_Z_HAND)
            sb_move(s, i, SB_Z_SCRAP, -1);
    s->p[0].isk = 1;
    int warden = rig(&t, 0, "warden_destroyer", SB_Z_REGION, 0);
    s->in[warden].cmd = 0; /* Barrage 2, 1 ISK */
    int prey = rig(&t, 1, "lancer_frigate", SB_Z_REGION, 1); /* 2/1 */
    engine_rng rng;
    for (uint8_t k = 0; k < 8; k++) {
        test_rng(&rng, k);
        json_t *p = sb_bot_play(s, 0, SB_STEP_MANAGEMENT, "basic", &rng);
        REQUIRE(p);
        CHECK_EQ_STR(json_string_value(json_object_get(p, "action")),
                     "ability");
        CHECK_EQ_INT(json_integer_value(json_object_get(p, "card")), warden);
        CHECK_EQ_INT(json_integer_value(json_object_get(p, "target")), prey);
        json_decref(p);
    }
    tfree(&t);

    t = at_mgmt(2);
    s = S(&t);
    for (int i = 0; i < s->ninst; i++)
        if (s->in[i].owner == 0 && s->in[i].zone == SB_Z_HAND)
            sb_move(s, i, SB_Z_SCRAP, -1);
    for (int i = 0; i < s->ninst; i++) /* no outer region to buy instead */
        if (s->in[i].owner == 0 && s->in[i].zone == SB_Z_OUTER_STACK)
            sb_move(s, i, SB_Z_SCRAP, -1);
    int probe = rig(&t, 0, "survey_probe", SB_Z_REGION, 0);
    s->in[probe].cmd = 0; /* Survey 1, 2 ISK: draw 1 */
    s->p[0].isk = 2;
    int left = 0;
    for (int i = 0; i < s->ninst; i++)
        if (s->in[i].owner == 0 && s->in[i].zone == SB_Z_MARKET && left++ >= 4)
            sb_move(s, i, SB_Z_SCRAP, -1);
    for (uint8_t k = 0; k < 8; k++) {
        test_rng(&rng, k);
        json_t *p = sb_bot_play(s, 0, SB_STEP_MANAGEMENT, "basic", &rng);
        const char *a =
            p ? json_string_value(json_object_get(p, "action")) : "";
        CHECKF(strcmp(a, "ability") != 0, "the bot draws with 4 cards left");
        json_decref(p);
    }
    tfree(&t);
}

/* A twin for a seat shuffles every design it cannot see (the markets, the
 * others' hands), the first card of the game included, and keeps the rest. */
static void test_twin_shuffles_every_hidden_card(void)
{
    tgame t = at_mgmt(2);
    sb_state *s = S(&t);
    REQUIRE(s->in[0].owner == 0 &&
            (s->in[0].zone == SB_Z_MARKET || s->in[0].zone == SB_Z_HAND));
    engine_rng rng;
    test_rng(&rng, 3);
    int moved0 = 0, seen_changed = 0, designs_changed = 0;
    for (int k = 0; k < 40; k++) {
        sb_state *tw = sb_twin(s, 1, &rng);
        REQUIRE(tw);
        moved0 += tw->in[0].card != s->in[0].card;
        /* per owner, the hidden designs are the same multiset */
        int count[SB_MAX_SEATS][STARBASE_MAX_CARDS] = {{0}};
        for (int i = 0; i < s->ninst; i++) {
            int hidden = s->in[i].zone == SB_Z_MARKET ||
                         (s->in[i].owner != 1 && s->in[i].zone == SB_Z_HAND);
            if (!hidden) {
                seen_changed += tw->in[i].card != s->in[i].card;
                continue;
            }
            count[s->in[i].owner][s->in[i].card]++;
            if (tw->in[i].card >= 0 && tw->in[i].card < STARBASE_MAX_CARDS)
                count[s->in[i].owner][tw->in[i].card]--;
            else
                designs_changed++;
        }
        for (int p = 0; p < SB_MAX_SEATS; p++)
            for (int c = 0; c < STARBASE_MAX_CARDS; c++)
                designs_changed += count[p][c] != 0;
        free(tw);
    }
    CHECK(moved0 > 0);
    CHECK_EQ_INT(seen_changed, 0);
    CHECK_EQ_INT(designs_changed, 0);
    tfree(&t);
}

int main(void)
{
    tinit();
    RUN(test_control_carries_locations);
    RUN(test_income_never_below_zero);
    RUN(test_draw_ability_past_market_loses);
    RUN(test_upgrade_price_boundary);
    RUN(test_structure_slots_after_upgrade);
    RUN(test_location_regions_offered);
    RUN(test_warp_regions_offered);
    RUN(test_ability_once_per_turn_any_turn);
    RUN(test_rush_order_assembles_at_once);
    RUN(test_bounce_price_filter_follows_power);
    RUN(test_destroy_price_filter);
    RUN(test_deactivate_price_filter);
    RUN(test_pin_lasts_this_turn);
    RUN(test_passive_pins_pin_from_edition_3);
    RUN(test_isk_loss_stops_at_zero);
    RUN(test_discard_at_random);
    RUN(test_repair_stops_at_zero);
    RUN(test_retraction_ends_a_news);
    RUN(test_orbital_strike_targets);
    RUN(test_defence_falling_to_damage_destroys);
    RUN(test_command_power_changes_damage);
    RUN(test_extra_warps_count_only_in_edition_1);
    RUN(test_battles_in_first_attack_order);
    RUN(test_battle_sides);
    RUN(test_damage_cheapest_first_and_fall_back);
    RUN(test_damage_exactly_destroys);
    RUN(test_battle_leaves_nobody);
    RUN(test_battle_instants);
    RUN(test_this_turn_ends_after_end_step);
    RUN(test_hand_limit_boundary);
    RUN(test_hull_aura_and_destruction);
    RUN(test_defence_grid_raises_the_guns);
    RUN(test_loser_leaves_play);
    RUN(test_all_lose_at_once_draw);
    RUN(test_priority_round);
    RUN(test_outer_regions_offered);
    RUN(test_unknown_action_refused);
    RUN(test_random_bot_pass_rate);
    RUN(test_basic_bot_uses_first_command);
    RUN(test_twin_shuffles_every_hidden_card);
    return TEST_SUMMARY();
}

/*
 * test_council_rules.c - Galactic Council's rules through the engine API,
 * one named test per rule from the seeds implemented by the ruleset:
 * exploration by ships and paid exploration in the action phase, trigger
 * and blind landings decided at resolution, the seed's "explore under the
 * marker" order, and each of the status phase's eight steps (seed 001),
 * plus victory and the end. Self-play properties are in
 * test_council_selfplay.c.
 */
#include "tests/unit/council/council_test.h"

static int frontier(const cnc_state *s, int skip)
{
    for (int x = 0; x < s->g.nsectors; x++)
        if (x != skip && cnc_fog_frontier(&s->g, &s->fog, x))
            return x;
    return -1;
}

static void test_paid_exploration_costs_1_then_2_then_refused(void)
{
    cnc_state st;
    engine_game *g = ready_game(1, 3, &st);
    int a = frontier(&st, -1), b = frontier(&st, a);
    REQUIRE(a >= 0 && b >= 0);
    st.fog.explored[a] = 1; /* find a third frontier sector */
    int c = frontier(&st, b);
    st.fog.explored[a] = 0;
    char ha[16], hb[16], hc[16], order[256];
    hex_text(&st, a, ha, sizeof ha);
    hex_text(&st, b, hb, sizeof hb);
    hex_text(&st, c, hc, sizeof hc);
    snprintf(order, sizeof order,
             "{\"x1\": {\"type\": \"explore\", \"sector\": %s},"
             " \"x2\": {\"type\": \"explore\", \"sector\": %s},"
             " \"x3\": {\"type\": \"explore\", \"sector\": %s}}",
             ha, hb, hc);
    REQUIRE(action_with(g, 0, order) == 0);
    get_state(g, &st);
    CHECK(st.fog.explored[a]);
    CHECK(st.fog.explored[b]);
    CHECK(!st.fog.explored[c]); /* the third costs 3: refused */
    CHECK_EQ_INT(st.p[0].tg, 0);
    CHECK_EQ_INT(st.fog.explored_by[a], 0);
    engine_free(g);
}

static void test_ships_entering_unexplored_sector_explore_it_free(void)
{
    cnc_state st;
    engine_game *g = ready_game(2, 2, &st);
    int x = unexplored_next_to_home(&st, 0);
    REQUIRE(x >= 0);
    set_tile(&st, x, system_ix("empty")); /* no marker to meet */
    g = put_state(g, &st);
    char from[16], to[16], order[256];
    hex_text(&st, st.g.home[0], from, sizeof from);
    hex_text(&st, x, to, sizeof to);
    snprintf(order, sizeof order,
             "{\"f1\": [{\"type\": \"move\", \"from\": %s, \"to\": %s, "
             "\"units\": {\"cruiser\": 1}}]}",
             from, to);
    REQUIRE(action_with(g, 0, order) == 0);
    get_state(g, &st);
    CHECK(st.fog.explored[x]);
    CHECK_EQ_INT(st.fog.explored_by[x], 0);
    CHECK_EQ_INT(st.p[0].tg, 2); /* free, and not counted as paid */
    CHECK_EQ_INT(st.g.sec[x].units[0][unit_ix("cruiser")], 1);
    engine_free(g);
}

/* Move a carrier with 3 troopers into x (unexplored when ordered) and land
 * them with the given selector; returns the game after resolution. */
static engine_game *land_into(cnc_state *st, int *x, const char *planet,
                              uint64_t seed)
{
    engine_game *g = ready_game(seed, 0, st);
    *x = unexplored_next_to_home(st, 0);
    set_tile(st, *x, system_ix("sys_aster_hal")); /* Aster Hal 3/1, Brisk 2/2 */
    g = put_state(g, st);
    char from[16], to[16], order[512];
    hex_text(st, st->g.home[0], from, sizeof from);
    hex_text(st, *x, to, sizeof to);
    snprintf(order, sizeof order,
             "{\"f1\": [{\"type\": \"move\", \"from\": %s, \"to\": %s, "
             "\"units\": {\"carrier\": 1, \"trooper\": 3}},"
             " {\"type\": \"land\", \"planet\": \"%s\", \"troops\": \"all\"}]}",
             from, to, planet);
    if (action_with(g, 0, order) != 0)
        CHECK(0);
    get_state(g, st);
    return g;
}

static void test_trigger_landing_on_all_planets_at_resolution(void)
{
    cnc_state st;
    int x;
    engine_game *g = land_into(&st, &x, "all", 3);
    CHECK(st.fog.explored[x]);
    CHECK_EQ_INT(st.g.sec[x].owner[0], 0);
    CHECK_EQ_INT(st.g.sec[x].owner[1], 0);
    CHECK_EQ_INT(st.g.sec[x].ground[0] + st.g.sec[x].ground[1], 3);
    CHECK_EQ_INT(st.g.sec[st.g.home[0]].ground[0], 1); /* one stays home */
    engine_free(g);
}

static void test_blind_landing_on_highest_influence(void)
{
    cnc_state st;
    int x;
    engine_game *g = land_into(&st, &x, "highest_influence", 4);
    CHECK_EQ_INT(st.g.sec[x].owner[0], -1); /* Aster Hal, influence 1 */
    CHECK_EQ_INT(st.g.sec[x].owner[1], 0);  /* Brisk, influence 2 */
    CHECK_EQ_INT(st.g.sec[x].ground[1], 3);
    engine_free(g);
}

/* "Explore under the marker; if it is hostile then retreat, else land." */
static engine_game *explore_under_marker(cnc_state *st, int *x,
                                         const char *kind, uint64_t seed)
{
    engine_game *g = ready_game(seed, 0, st);
    *x = unexplored_next_to_home(st, 0);
    set_tile(st, *x, system_ix("sys_cendra"));
    if (put_marker(st, *x, -1, marker_kind(kind)) < 0)
        CHECK(0);
    g = put_state(g, st);
    char from[16], to[16], order[768];
    hex_text(st, st->g.home[0], from, sizeof from);
    hex_text(st, *x, to, sizeof to);
    snprintf(order, sizeof order,
             "{\"f1\": [{\"type\": \"move\", \"from\": %s, \"to\": %s, "
             "\"units\": {\"carrier\": 1, \"trooper\": 2}},"
             " {\"type\": \"inspect\"},"
             " {\"type\": \"if\", \"cond\": {\"type\": \"marker_is\", \"is\": "
             "\"hostile\"}, \"then\": [{\"type\": \"retreat\", \"to\": %s}],"
             " \"else\": [{\"type\": \"land\", \"planet\": \"all\", "
             "\"troops\": \"all\"}]}]}",
             from, to, from);
    if (action_with(g, 0, order) != 0)
        CHECK(0);
    get_state(g, st);
    return g;
}

static void test_explore_under_marker_hostile_retreats(void)
{
    cnc_state st;
    int x;
    engine_game *g = explore_under_marker(&st, &x, "raiders", 5);
    int m = st.g.sec[x].marker;
    CHECK(st.fog.explored[x]);
    CHECK_EQ_INT(cnc_ships_in(&st, 0, x), 0); /* it retreated */
    CHECK_EQ_INT(st.g.sec[st.g.home[0]].units[0][unit_ix("carrier")], 2);
    CHECK_EQ_INT(st.g.markers[m].state, CNC_MK_HIDDEN); /* never met */
    CHECK(st.fog.inspected[0][m]);
    CHECK(!st.fog.inspected[1][m]);
    CHECK_EQ_INT(st.g.sec[x].owner[0], -1);
    engine_free(g);
}

static void test_explore_under_marker_friendly_lands(void)
{
    cnc_state st;
    int x;
    engine_game *g = explore_under_marker(&st, &x, "quiet_space", 6);
    CHECK_EQ_INT(st.g.sec[x].owner[0], 0);
    CHECK_EQ_INT(cnc_ships_in(&st, 0, x), 1);
    CHECK_EQ_INT(st.g.markers[st.g.sec[x].marker].state, CNC_MK_REVEALED);
    engine_free(g);
}

/* A state for the status steps: 3 seats, cards dealt (seat 2 holds the
 * lowest initiative), no objectives scored yet. */
static void status_state(cnc_state *st, uint64_t seed)
{
    cnc_state tmp;
    engine_game *g = ready_game(seed, 0, &tmp);
    get_state(g, st);
    engine_free(g);
    memset(st->strat_owner, -1, sizeof st->strat_owner);
    int cards[3] = {4, 6, 0}; /* commerce, research, command */
    for (int p = 0; p < 3; p++) {
        st->p[p].card = (int8_t)cards[p];
        st->strat_owner[cards[p]] = (int8_t)p;
        memset(st->p[p].secret, 0, sizeof st->p[p].secret);
    }
}

static int objective(const char *key)
{
    for (int o = 0; o < D->nobjectives; o++)
        if (strcmp(D->objectives[o].key, key) == 0)
            return o;
    return -1;
}

static void test_status1_scores_one_public_and_one_secret(void)
{
    cnc_state st;
    status_state(&st, 7);
    /* Two public objectives met by everyone: 5 and 10 trade goods. */
    st.public_deck[0] = (int8_t)objective("merchant_reserve");
    st.public_deck[1] = (int8_t)objective("war_chest");
    st.revealed = 2;
    for (int p = 0; p < 3; p++)
        st.p[p].tg = 12;
    st.p[1].secret[objective("hoarder")] = 1;
    st.p[1].secret[objective("spymaster")] = 1;
    cnc_status_score(&st, NULL);
    for (int p = 0; p < 3; p++)
        CHECK(st.p[p].scored[objective("merchant_reserve")]);
    CHECK(!st.p[0].scored[objective("war_chest")]); /* one public only */
    CHECK(st.p[1].scored[objective("hoarder")]);
    CHECK(!st.p[1].scored[objective("spymaster")]); /* not met */
    CHECK_EQ_INT(st.p[0].vp, 1);
    CHECK_EQ_INT(st.p[1].vp, 2);
    cnc_status_score(&st, NULL); /* next status: the second public one */
    CHECK(st.p[0].scored[objective("war_chest")]);
    CHECK_EQ_INT(st.p[0].vp, 3);
}

/* Seed 001 status 1: the player chooses which objective to score. Seat
 * 0's score step ranks War Chest first: it scores War Chest, not the
 * first revealed one it meets; seat 1 gives none and the server scores
 * the first met (ours); seat 2's empty list scores no public objective. */
static void test_status1_the_player_chooses_the_objective(void)
{
    cnc_state st;
    engine_game *g = ready_game(7, 12, &st);
    st.public_deck[0] = (int8_t)objective("merchant_reserve");
    st.public_deck[1] = (int8_t)objective("war_chest");
    st.revealed = 2;
    for (int p = 0; p < 3; p++) {
        st.p[p].tg = 12;
        memset(st.p[p].scored, 0, sizeof st.p[p].scored);
        memset(st.p[p].secret, 0, sizeof st.p[p].secret);
        st.p[p].vp = 0;
    }
    st.p[0].secret[objective("hoarder")] = 1;
    g = put_state(g, &st);
    engine_window w;
    REQUIRE(open_window(g, &w));
    const char *orders[3] = {
        "{\"s\": {\"type\": \"score\", \"public\": [\"war_chest\", "
        "\"merchant_reserve\"], \"secret\": []}}",
        "{}", "{\"s\": {\"type\": \"score\", \"public\": []}}"};
    for (int p = 0; p < 3; p++) {
        json_t *o = json_loads(orders[p], 0, NULL);
        json_object_set_new(o, ENGINE_READY_PART, json_true());
        CHECK_EQ_INT(apply(g, p, ENGINE_ORDER, w.id, o, NULL), 0);
        json_decref(o);
    }
    get_state(g, &st);
    CHECK(st.p[0].scored[objective("war_chest")]);
    CHECK(!st.p[0].scored[objective("merchant_reserve")]);
    CHECK(!st.p[0].scored[objective("hoarder")]); /* its secret list: none */
    CHECK_EQ_INT(st.p[0].vp, D->objectives[objective("war_chest")].vp);
    CHECK(st.p[1].scored[objective("merchant_reserve")]);
    CHECK(!st.p[1].scored[objective("war_chest")]);
    CHECK_EQ_INT(st.p[2].vp, 0);
    /* A key that is not a public objective is refused when parsed. */
    json_t *bad =
        json_loads("{\"type\": \"score\", \"public\": [\"hoarder\"]}", 0, NULL);
    cnc_order o;
    engine_error err = {0};
    CHECK(cnc_order_parse(D, &st.g, bad, &o, &err) != 0);
    CHECK_EQ_STR(err.field, "[0].public");
    json_decref(bad);
    engine_free(g);
}

/* A move beyond the slowest named ship's reach is refused when the part
 * is saved (speeds and distances are public): a carrier (move 1) two
 * sectors away is refused, a cruiser (move 2) is not; a Forced March in
 * the hand (one more this round) lets the carrier order stand. */
static void test_move_beyond_reach_is_refused_when_saved(void)
{
    cnc_state st;
    engine_game *g = ready_game(31, 0, &st);
    int cards[3] = {0, 1, 3}; /* command, intelligence, industry */
    memset(st.strat_owner, -1, sizeof st.strat_owner);
    for (int p = 0; p < 3; p++) {
        st.p[p].card = (int8_t)cards[p];
        st.strat_owner[cards[p]] = (int8_t)p;
        memset(st.p[p].techs, 0, sizeof st.p[p].techs);
    }
    memset(st.p[0].hand, 0, sizeof st.p[0].hand);
    int home = st.g.home[0], far = -1;
    for (int x = 0; x < st.g.nsectors && far < 0; x++)
        if (cnc_sector_distance(&st.g, home, x) == 2)
            far = x;
    REQUIRE(far >= 0);
    g = put_state(g, &st);
    char h[24], f[24], order[256];
    hex_text(&st, home, h, sizeof h);
    hex_text(&st, far, f, sizeof f);
    engine_window w;
    REQUIRE(open_window(g, &w));
    snprintf(order, sizeof order,
             "{\"f1\": [{\"type\": \"move\", \"from\": %s, \"to\": %s, "
             "\"units\": {\"carrier\": 1, \"cruiser\": 1}}]}",
             h, f);
    json_t *o = json_loads(order, 0, NULL);
    engine_error err = {0};
    CHECK_EQ_INT(cnc_action_check(&st, 0, o, &err), ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "f1");
    CHECK(strstr(err.msg, "reaches at most 1") != NULL);
    CHECK(apply(g, 0, ENGINE_ORDER, w.id, o, NULL) != 0);
    json_decref(o);
    snprintf(order, sizeof order,
             "{\"f1\": [{\"type\": \"move\", \"from\": %s, \"to\": %s, "
             "\"units\": {\"cruiser\": 1}}]}",
             h, f);
    o = json_loads(order, 0, NULL);
    CHECK_EQ_INT(apply(g, 0, ENGINE_ORDER, w.id, o, NULL), 0);
    json_decref(o);
    /* With Forced March in hand the carrier may reach 2. */
    for (int a = 0; a < D->nactions; a++)
        if (D->actions[a].effect == CNC_AFX_EXTRA_MOVE &&
            D->actions[a].amount == 1)
            st.p[0].hand[a] = 1;
    snprintf(order, sizeof order,
             "{\"f1\": [{\"type\": \"move\", \"from\": %s, \"to\": %s, "
             "\"units\": {\"carrier\": 1}}]}",
             h, f);
    o = json_loads(order, 0, NULL);
    CHECK_EQ_INT(cnc_action_check(&st, 0, o, &err), 0);
    json_decref(o);
    engine_free(g);
}

/* Enemy fleets block the way through (ours): a cruiser two sectors away
 * cannot pass a sector holding another player's ships, though it may end
 * its move in one. Before, moves counted only the distance. */
static void test_enemy_fleets_block_movement(void)
{
    cnc_state st;
    engine_game *g = ready_game(32, 0, &st);
    int home = st.g.home[0], far = -1, cru = unit_ix("cruiser");
    for (int x = 0; x < st.g.nsectors && far < 0; x++)
        if (cnc_sector_distance(&st.g, home, x) == 2 &&
            st.g.sec[x].kind == CNC_SEC_SYSTEM)
            far = x;
    REQUIRE(far >= 0);
    int blocked = 0;
    for (int x = 0; x < st.g.nsectors; x++)
        if (cnc_sector_distance(&st.g, home, x) == 1 &&
            cnc_sector_distance(&st.g, far, x) == 1) {
            st.g.sec[x].units[1][cru] = 1; /* seat 1's cruiser in the way */
            blocked++;
        }
    REQUIRE(blocked > 0);
    for (int p = 0; p < 3; p++)
        memset(st.p[p].techs, 0, sizeof st.p[p].techs);
    g = put_state(g, &st);
    char h[24], f[24], order[256];
    hex_text(&st, home, h, sizeof h);
    hex_text(&st, far, f, sizeof f);
    snprintf(order, sizeof order,
             "{\"f1\": [{\"type\": \"move\", \"from\": %s, \"to\": %s, "
             "\"units\": {\"cruiser\": 1}}]}",
             h, f);
    CHECK_EQ_INT(action_with(g, 0, order), 0);
    get_state(g, &st);
    CHECK_EQ_INT(st.g.sec[far].units[0][cru], 0);
    CHECK_EQ_INT(st.g.sec[home].units[0][cru], 1);
    engine_free(g);
}

/* Step 1 comes before step 2: an objective revealed in this status phase
 * cannot be scored in it. */
static void test_status_scores_before_revealing(void)
{
    cnc_state st;
    status_state(&st, 9);
    st.public_deck[0] = (int8_t)objective("war_chest");
    st.public_deck[1] = (int8_t)objective("salons");
    st.public_deck[2] = (int8_t)objective("merchant_reserve");
    st.revealed = 2;
    for (int p = 0; p < 3; p++) {
        st.p[p].tg = 6; /* merchant reserve (5) met, war chest (10) not */
        REQUIRE(!cnc_objective_met(&st, p, objective("war_chest")));
        REQUIRE(!cnc_objective_met(&st, p, objective("salons")));
        REQUIRE(cnc_objective_met(&st, p, objective("merchant_reserve")));
    }
    cnc_status_phase(&st, NULL);
    CHECK_EQ_INT(st.revealed, 3);
    for (int p = 0; p < 3; p++) {
        CHECK(!st.p[p].scored[objective("merchant_reserve")]);
        CHECK_EQ_INT(st.p[p].vp, 0);
    }
    cnc_status_score(&st, NULL); /* the next status phase scores it */
    CHECK(st.p[0].scored[objective("merchant_reserve")]);
}

static void test_status2_reveals_stage_two_after_stage_one_then_ends(void)
{
    cnc_state st;
    status_state(&st, 8);
    int first_two = -1;
    for (int i = 0; i < st.npublic; i++) {
        int stage = D->objectives[st.public_deck[i]].stage;
        if (stage == 2 && first_two < 0)
            first_two = i;
        if (first_two >= 0)
            CHECK_EQ_INT(stage, 2); /* no stage I after a stage II */
    }
    CHECK(first_two > 0);
    int before = st.revealed;
    CHECK(cnc_status_reveal(&st, NULL));
    CHECK_EQ_INT(st.revealed, before + 1);
    st.revealed = st.npublic;
    CHECK(!cnc_status_reveal(&st, NULL));
    cnc_status_phase(&st, NULL); /* none left at the start: the end */
    CHECK(st.over);
    CHECK_EQ_INT(st.ended_why, 3);
}

static void test_status3_draws_one_card_each_up_to_the_limit(void)
{
    cnc_state st;
    status_state(&st, 9);
    int pos = st.action_pos;
    st.p[1].hand[0] = (uint8_t)D->rules.hand_limit;
    cnc_status_draw(&st, NULL);
    int held[3] = {0};
    for (int p = 0; p < 3; p++)
        for (int a = 0; a < D->nactions; a++)
            held[p] += st.p[p].hand[a];
    CHECK_EQ_INT(held[0], 1);
    CHECK_EQ_INT(held[1], D->rules.hand_limit); /* full: none drawn */
    CHECK_EQ_INT(held[2], 1);
    CHECK_EQ_INT(st.action_pos, pos + 2);
    /* initiative order: seat 2 (command, 1) drew before seat 0 (commerce) */
    CHECK_EQ_INT(st.p[2].hand[st.action_deck[pos]], 1);
}

static void test_status4_removes_command_tokens(void)
{
    cnc_state st;
    status_state(&st, 10);
    st.tokens[3] = 5;
    st.tokens[7] = 2;
    cnc_status_remove_tokens(&st);
    for (int x = 0; x < st.g.nsectors; x++)
        CHECK_EQ_INT(st.tokens[x], 0);
}

static void test_status5_gains_two_tokens_and_checks_fleet_limits(void)
{
    cnc_state st;
    status_state(&st, 11);
    for (int p = 0; p < 3; p++)
        st.p[p].race = (int8_t)cnc_race_index(D, "thessari");
    int home = st.g.home[0], cr = unit_ix("cruiser");
    int tactic = st.p[1].tactic, fleet = st.p[1].fleet;
    st.p[0].fleet = 3;
    st.g.sec[home].units[0][cr] = 6; /* 2 carriers + 6 cruisers: 8 ships */
    cnc_status_gain_tokens(&st, NULL);
    CHECK_EQ_INT(st.p[1].tactic + st.p[1].fleet, tactic + fleet + 2);
    CHECK_EQ_INT(st.p[0].fleet, 5); /* both went to the fleet pool */
    CHECK_EQ_INT(cnc_ships_in(&st, 0, home), 5); /* the excess removed */
    CHECK_EQ_INT(st.g.sec[home].units[0][unit_ix("carrier")], 2);
}

static void test_status6_readies_planets_and_cards(void)
{
    cnc_state st;
    status_state(&st, 12);
    st.exhausted[st.g.home[0]] = 3;
    st.p[0].card_used = 1;
    cnc_status_ready(&st);
    CHECK_EQ_INT(st.exhausted[st.g.home[0]], 0);
    CHECK_EQ_INT(st.p[0].card_used, 0);
}

static void test_status7_repairs_units(void)
{
    cnc_state st;
    status_state(&st, 13);
    st.damaged[st.g.home[1]][1][unit_ix("dreadnought")] = 1;
    cnc_status_repair(&st);
    CHECK_EQ_INT(st.damaged[st.g.home[1]][1][unit_ix("dreadnought")], 0);
}

static void test_status8_returns_cards_and_lowest_initiative_speaks(void)
{
    cnc_state st;
    status_state(&st, 14);
    cnc_status_return_cards(&st, NULL);
    CHECK_EQ_INT(st.speaker, 2); /* command, initiative 1 */
    for (int c = 0; c < CNC_MAX_STRATEGIES; c++)
        CHECK_EQ_INT(st.strat_owner[c], -1);
    CHECK_EQ_INT(st.p[0].card, -1);
    CHECK_EQ_INT(st.p[0].last_card, 4);
}

static void test_status_phase_then_new_round_with_speaker_picking(void)
{
    cnc_state st;
    engine_game *g = ready_game(15, 0, &st);
    int order[ENGINE_MAX_SEATS];
    cnc_initiative_order(&st, order);
    REQUIRE(action_with(g, 0, "{}") == 0);
    get_state(g, &st);
    CHECK_EQ_INT(st.round, 2);
    CHECK_EQ_INT(st.phase, CNC_PHASE_STRATEGY);
    CHECK_EQ_INT(st.speaker, order[0]);
    CHECK_EQ_INT(cnc_picker(&st), order[0]);
    CHECK_EQ_INT(st.p[0].tactic + st.p[0].fleet, 3 + 3 + 2);
    engine_free(g);
}

static void test_victory_at_target_and_ties_by_planets(void)
{
    cnc_state st;
    status_state(&st, 16);
    st.vp_target = 10;
    st.p[0].vp = 10;
    st.p[1].vp = 10;
    /* seat 1: two more planets than its home (homes have 1 or 2) */
    st.g.sec[st.g.capital].owner[0] = 1;
    for (int x = 0; x < st.g.nsectors; x++)
        if (cnc_sector_tile(D, &st.g, x)->nplanets > 0 &&
            st.g.sec[x].kind == CNC_SEC_SYSTEM) {
            st.g.sec[x].owner[0] = 1;
            break;
        }
    cnc_status_phase(&st, NULL);
    CHECK(st.over);
    CHECK_EQ_INT(st.ended_why, 1);
    json_t *r = cnc_result_json(&st);
    CHECK_EQ_INT(
        json_integer_value(json_array_get(json_object_get(r, "winners"), 0)),
        1);
    json_decref(r);
}

static void test_last_round_ends_the_game(void)
{
    cnc_state st;
    status_state(&st, 17);
    st.round = st.last_round;
    cnc_status_phase(&st, NULL);
    CHECK(st.over);
    CHECK_EQ_INT(st.ended_why, 2);
}

static void test_order_to_unexplored_sector_is_accepted(void)
{
    cnc_state st;
    engine_game *g = ready_game(18, 0, &st);
    int x = -1;
    for (int k = 0; k < st.g.nsectors; k++)
        if (!st.fog.explored[k])
            x = k;
    REQUIRE(x >= 0);
    char to[16], order[256];
    hex_text(&st, x, to, sizeof to);
    snprintf(order, sizeof order,
             "{\"s1\": {\"type\": \"land\", \"planet\": \"highest_influence\","
             " \"troops\": 2, \"sector\": %s}, \"bad key\": []}",
             to);
    CHECK(action_with(g, 0, order) == ENGINE_EINVALID); /* the key only */
    snprintf(order, sizeof order,
             "{\"s1\": {\"type\": \"land\", \"planet\": \"highest_influence\","
             " \"troops\": 2, \"sector\": %s}}",
             to);
    CHECK_EQ_INT(action_with(g, 0, order), 0);
    engine_free(g);
}

static void test_explore_and_scan_steps_parse_and_read(void)
{
    json_t *part = json_loads("[{\"type\": \"explore\", \"sector\": [1, 0]},"
                              " {\"type\": \"scan\", \"sector\": [0, 1]}]",
                              0, NULL);
    cnc_order o;
    engine_error err = {0};
    REQUIRE(cnc_order_parse(D, NULL, part, &o, &err) == 0);
    char buf[256];
    REQUIRE(cnc_order_sentence(D, &o, buf, sizeof buf) > 0);
    CHECK_EQ_STR(buf, "Pay to explore (1, 0) and then scan (0, 1).");
    json_decref(part);
    part = json_loads("{\"type\": \"explore\"}", 0, NULL);
    CHECK(cnc_order_parse(D, NULL, part, &o, &err) == ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "[0].sector");
    json_decref(part);
}

/* The action window takes its order in parts (one per fleet or system)
 * and locks when every seat is ready; the ranked strategy picks are one
 * sealed window of whole orders, the sequential ones open windows. */
static void test_action_window_takes_parts(void)
{
    cnc_state st;
    engine_game *g = new_game(3, 7, NULL);
    engine_window w[2];
    CHECK_EQ_INT(engine_windows(g, w, 2), 1);
    CHECK_EQ_STR(w[0].id, "r1.picks");
    CHECK_EQ_INT(w[0].mode, ENGINE_SEALED);
    CHECK_EQ_INT(w[0].seats, 7);
    CHECK_EQ_INT(w[0].parts, 0);
    engine_free(g);
    g = new_game(3, 7, "{\"strategy_picks\": 1}");
    CHECK_EQ_INT(engine_windows(g, w, 2), 1);
    CHECK_EQ_STR(w[0].id, "r1.pick0");
    CHECK_EQ_INT(w[0].mode, ENGINE_OPEN);
    CHECK_EQ_INT(w[0].parts, 0);
    engine_free(g);
    g = ready_game(7, 2, &st);
    CHECK_EQ_INT(engine_windows(g, w, 2), 1);
    CHECK_EQ_INT(w[0].mode, ENGINE_SEALED);
    CHECK_EQ_INT(w[0].parts, 1);
    CHECK_EQ_INT(w[0].ready_part, 1); /* it waits for every seat's "ready" */
    engine_free(g);
}

/* Leak: a condition naming a sector its step does not act on was an oracle
 * on the true galaxy. Such a part is refused when it is saved, the error
 * naming the condition's field; naming the sector acted on is accepted. */
static void test_condition_naming_another_sector_is_refused(void)
{
    cnc_state st;
    engine_game *g = ready_game(7, 0, &st);
    engine_window w;
    REQUIRE(open_window(g, &w) && w.mode == ENGINE_SEALED);
    char home[16], far[16], order[512];
    hex_text(&st, st.g.home[0], home, sizeof home);
    hex_text(&st, st.g.home[1], far, sizeof far);
    const char *fmt =
        "{\"f1\": [{\"type\": \"activate\", \"sector\": %s}, {\"type\": "
        "\"if\", \"cond\": {\"type\": \"enemy_ships\", \"sector\": %s}, "
        "\"then\": [{\"type\": \"hold\"}]}]}";
    snprintf(order, sizeof order, fmt, home, far);
    json_t *j = json_loads(order, 0, NULL);
    engine_input in = {
        .seat = 0, .kind = ENGINE_ORDER, .window = w.id, .payload = j};
    engine_error err = {0};
    CHECK_EQ_INT(engine_apply(g, &in, NULL, &err), ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "f1[1].cond.sector");
    json_decref(j);
    snprintf(order, sizeof order, fmt, far, far);
    j = json_loads(order, 0, NULL);
    CHECK_EQ_INT(apply(g, 0, ENGINE_ORDER, w.id, j, NULL), 0);
    json_decref(j);
    engine_free(g);
}

/* Activate sector x, then "if cond then share vision with seat 1 else with
 * seat 2"; which branch ran (1: then, 2: else). */
static int branch_at(engine_game *g, int x, const char *cond)
{
    cnc_state st;
    get_state(g, &st);
    char hex[16], order[512];
    hex_text(&st, x, hex, sizeof hex);
    snprintf(order, sizeof order,
             "{\"p1\": [{\"type\": \"activate\", \"sector\": %s}, {\"type\": "
             "\"if\", \"cond\": %s, \"then\": [{\"type\": \"share\", "
             "\"seat\": 1}], \"else\": [{\"type\": \"share\", \"seat\": 2}]}]}",
             hex, cond);
    CHECK_EQ_INT(action_with(g, 0, order), 0);
    get_state(g, &st);
    return (st.fog.share[0] >> 1 & 1) | (st.fog.share[0] >> 2 & 1) << 1;
}

/* Leak: with the true galaxy behind every condition, a seat learned that
 * enemy homes out of its sight held ships, that unexplored sectors held no
 * planets, that a marker it never inspected was not hostile. A condition
 * the seat cannot tell at resolution runs the else steps, whatever is
 * there; one it can tell (enemy ships in its sight) decides. */
static void test_condition_reads_nothing_the_seat_cannot_see(void)
{
    for (int hidden = 0; hidden < 2; hidden++) {
        cnc_state st;
        engine_game *g = ready_game(8, 0, &st);
        int far = st.g.home[1];
        REQUIRE(!cnc_fog_visible(&st.g, &st.fog, 0, far));
        if (!hidden) /* no ships at all there */
            memset(st.g.sec[far].units[1], 0, sizeof st.g.sec[far].units[1]);
        g = put_state(g, &st);
        CHECK_EQ_INT(branch_at(g, far, "{\"type\": \"enemy_ships\"}"), 2);
        engine_free(g);

        g = ready_game(9, 0, &st);
        int x = unexplored_next_to_home(&st, 0);
        set_tile(&st, x, system_ix(hidden ? "sys_cendra" : "empty"));
        g = put_state(g, &st);
        CHECK_EQ_INT(branch_at(g, x,
                               "{\"type\": \"holds\", \"what\": \"planets\", "
                               "\"not\": true}"),
                     2);
        engine_free(g);

        g = ready_game(10, 0, &st);
        x = unexplored_next_to_home(&st, 0);
        set_tile(&st, x, system_ix("sys_cendra"));
        st.fog.explored[x] = 1;
        REQUIRE(put_marker(&st, x, 0,
                           marker_kind(hidden ? "natives" : "riches")) >= 0);
        g = put_state(g, &st);
        CHECK_EQ_INT(branch_at(g, x,
                               "{\"type\": \"marker_is\", \"is\": "
                               "\"hostile\", \"planet\": \"all\", \"not\": "
                               "true}"),
                     2);
        engine_free(g);

        /* in its sight, the condition decides */
        g = ready_game(11, 0, &st);
        x = unexplored_next_to_home(&st, 0);
        st.fog.explored[x] = 1;
        st.g.sec[x].units[1][unit_ix("destroyer")] = (uint8_t)hidden;
        g = put_state(g, &st);
        CHECK_EQ_INT(branch_at(g, x, "{\"type\": \"enemy_ships\"}"),
                     hidden ? 1 : 2);
        engine_free(g);
    }
}

int main(void)
{
    council_test_init();
    RUN(test_action_window_takes_parts);
    RUN(test_paid_exploration_costs_1_then_2_then_refused);
    RUN(test_ships_entering_unexplored_sector_explore_it_free);
    RUN(test_trigger_landing_on_all_planets_at_resolution);
    RUN(test_blind_landing_on_highest_influence);
    RUN(test_explore_under_marker_hostile_retreats);
    RUN(test_explore_under_marker_friendly_lands);
    RUN(test_status1_scores_one_public_and_one_secret);
    RUN(test_status2_reveals_stage_two_after_stage_one_then_ends);
    RUN(test_status3_draws_one_card_each_up_to_the_limit);
    RUN(test_status4_removes_command_tokens);
    RUN(test_status5_gains_two_tokens_and_checks_fleet_limits);
    RUN(test_status6_readies_planets_and_cards);
    RUN(test_status7_repairs_units);
    RUN(test_status8_returns_cards_and_lowest_initiative_speaks);
    RUN(test_status_scores_before_revealing);
    RUN(test_status_phase_then_new_round_with_speaker_picking);
    RUN(test_status1_the_player_chooses_the_objective);
    RUN(test_move_beyond_reach_is_refused_when_saved);
    RUN(test_enemy_fleets_block_movement);
    RUN(test_victory_at_target_and_ties_by_planets);
    RUN(test_last_round_ends_the_game);
    RUN(test_order_to_unexplored_sector_is_accepted);
    RUN(test_explore_and_scan_steps_parse_and_read);
    RUN(test_condition_naming_another_sector_is_refused);
    RUN(test_condition_reads_nothing_the_seat_cannot_see);
    return TEST_SUMMARY();
}

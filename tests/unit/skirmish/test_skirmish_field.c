/*
 * test_skirmish_field.c - Skirmish's field, movement, muster, deployment,
 * who starts, winning and the turn limit (docs/games/skirmish.md, "The
 * field" to "Winning"), and what the view and the window labels say of
 * them, each on a constructed game: the legal case, the refused case and
 * the boundary.
 *
 * Where the bots' legal moves come from the same engine function as the
 * check of a play (walking, flying), the expectation is this file's own:
 * a search over the field written from the rules doc, compared with the
 * legal list and with plays taken or refused.
 */
#include "tests/unit/skirmish/skirmish_expect.h"

/* ------------------------------------------------------- movement -- */

/* The squares a creature on `from` reaches with `points` movement points
 * by the doc's rules: walking square by square along a side through empty
 * squares, or flying in any of the 8 directions over creatures, ending on
 * an empty square. held[] marks occupied squares (col + 5 * row). Writes
 * the fewest points per square (-1: cannot) into cost[]. */
static void reach(const char *from, int points, int flies, const int held[30],
                  int cost[30])
{
    int fc = ex_col(from), fr = ex_row(from);
    for (int i = 0; i < 30; i++)
        cost[i] = -1;
    if (flies) {
        for (int r = 0; r < 6; r++)
            for (int c = 0; c < 5; c++) {
                int dc = abs(c - fc), dr = abs(r - fr);
                int d = dc > dr ? dc : dr;
                if (!held[c + 5 * r] && d >= 1 && d <= points)
                    cost[c + 5 * r] = d;
            }
        return;
    }
    int best[30];
    for (int i = 0; i < 30; i++)
        best[i] = 99;
    best[fc + 5 * fr] = 0;
    /* relax until nothing changes: at most 30 rounds on 30 squares */
    for (int round = 0; round < 30; round++)
        for (int i = 0; i < 30; i++) {
            if (best[i] == 99)
                continue;
            static const int step[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
            for (int k = 0; k < 4; k++) {
                int c = i % 5 + step[k][0], r = i / 5 + step[k][1];
                if (c < 0 || c > 4 || r < 0 || r > 5 || held[c + 5 * r])
                    continue;
                if (best[i] + 1 < best[c + 5 * r])
                    best[c + 5 * r] = best[i] + 1;
            }
        }
    for (int i = 0; i < 30; i++)
        if (i != fc + 5 * fr && best[i] <= points)
            cost[i] = best[i];
}

/* Unit u's legal moves against reach(): every square, both ways. */
static void check_moves(sk_run *r, int u, const char *from, int points,
                        int flies, const char *const *occupied, int nocc)
{
    int held[30] = {0}, cost[30];
    for (int i = 0; i < nocc; i++)
        held[ex_col(occupied[i]) + 5 * ex_row(occupied[i])] = 1;
    reach(from, points, flies, held, cost);
    json_t *l = ex_legal(r, 0);
    int legal[30] = {0};
    size_t i;
    json_t *c;
    json_array_foreach(l, i, c)
    {
        const char *to = json_string_value(json_object_get(c, "to"));
        if (ex_is(c, "move", u) && to)
            legal[ex_col(to) + 5 * ex_row(to)] = 1;
    }
    json_decref(l);
    for (int sq = 0; sq < 30; sq++) {
        char name[4];
        ex_sq_name(sq % 5, sq / 5, name);
        CHECKF(legal[sq] == (cost[sq] >= 0),
               "unit %d from %s to %s: legal %d, the rule says %d (cost %d)", u,
               from, name, legal[sq], cost[sq] >= 0, cost[sq]);
    }
}

/* Walking: along sides only, around creatures, at most its movement;
 * the movement reserves (and then spends) the fewest squares. */
static void test_walking_reach(void)
{
    sk_run r;
    /* Briar Wolf (move 3) on b2, hemmed in by its own recruits on b3 and
     * c2: c3 is 6 squares away by walking, b4 cannot be reached. */
    static const char *const occupied[] = {"b2", "b3", "c2", "c4", "a6", "e6"};
    REQUIRE(ex_to_choice(
                &r, 1, "[\"briar_wolf\",\"iron_recruit\",\"iron_recruit\"]",
                "[\"b2\",\"b3\",\"c2\"]",
                "[\"iron_recruit\",\"bulwark_giant\",\"iron_marshal\"]",
                "[\"c4\",\"a6\",\"e6\"]") == 0);
    check_moves(&r, 0, "b2", 3, 0, occupied, 6);
    CHECK(sk_play(&r, 0, "{\"action\":\"move\",\"unit\":0,\"to\":\"c3\"}") !=
          0); /* 6 squares */
    CHECK(sk_play(&r, 0, "{\"action\":\"move\",\"unit\":0,\"to\":\"b3\"}") !=
          0); /* occupied */
    REQUIRE(sk_play(&r, 0, "{\"action\":\"move\",\"unit\":0,\"to\":\"a4\"}") ==
            0); /* a2, a3, a4: exactly 3 */
    CHECK_EQ_INT(sk_unit_reserved(&r, 0, "move"), 3);
    REQUIRE(ex_resolve_all(&r, 4) == 0);
    char sq[4];
    CHECK_EQ_STR(sk_unit_sq(&r, 0, sq), "a4");
    CHECK_EQ_INT(sk_unit(&r, 0, "move"), 0);
    REQUIRE(sk_pass_until(&r, "choice", 4) == 0);
    CHECK_EQ_INT(ex_legal_count(&r, 0, "move", 0), 0); /* no points left */
    /* the recruit on c2 (move 1): a step along a side, 1 point */
    static const char *const now[] = {"a4", "b3", "c2", "c4", "a6", "e6"};
    check_moves(&r, 2, "c2", 1, 0, now, 6);
    CHECK(sk_replays(&r));
    sk_free(&r);
}

/* Flying: any direction, over creatures, ending on an empty square. */
static void test_flying_reach(void)
{
    sk_run r;
    /* Zephyr Sprite (move 2) on b2, ringed by its own squad */
    static const char *const occupied[] = {"b2", "a1", "b1", "c1", "a2", "c2",
                                           "a3", "b3", "c3", "c4", "e6"};
    REQUIRE(ex_to_choice(&r, 1,
                         "[\"zephyr_sprite\",\"iron_recruit\",\"iron_recruit\","
                         "\"slinger\",\"slinger\",\"soot_runner\","
                         "\"soot_runner\",\"cinder_imp\",\"cinder_imp\"]",
                         "[\"b2\",\"a1\",\"b1\",\"c1\",\"a2\",\"c2\",\"a3\","
                         "\"b3\",\"c3\"]",
                         "[\"iron_marshal\",\"ember_tyrant\"]",
                         "[\"c4\",\"e6\"]") == 0);
    check_moves(&r, 0, "b2", 2, 1, occupied, 11);
    CHECK(sk_play(&r, 0, "{\"action\":\"move\",\"unit\":0,\"to\":\"c3\"}") !=
          0); /* occupied */
    CHECK(sk_play(&r, 0, "{\"action\":\"move\",\"unit\":0,\"to\":\"e2\"}") !=
          0); /* distance 3 */
    REQUIRE(sk_play(&r, 0, "{\"action\":\"move\",\"unit\":0,\"to\":\"d4\"}") ==
            0); /* over b3/c3, a corner each square */
    CHECK_EQ_INT(sk_unit_reserved(&r, 0, "move"), 2);
    REQUIRE(ex_resolve_all(&r, 4) == 0);
    char sq[4];
    CHECK_EQ_STR(sk_unit_sq(&r, 0, sq), "d4");
    CHECK(sk_replays(&r));
    sk_free(&r);
}

/* Movement points come back at the start of each of the controller's
 * turns, not in the opponent's. */
static void test_movement_points_back_each_own_turn(void)
{
    sk_run r;
    REQUIRE(ex_to_choice(&r, 1, "[\"briar_wolf\"]", "[\"a1\"]",
                         "[\"iron_recruit\",\"bulwark_giant\"]",
                         "[\"e6\",\"a6\"]") == 0);
    REQUIRE(sk_play(&r, 0, "{\"action\":\"move\",\"unit\":0,\"to\":\"b2\"}") ==
            0);
    REQUIRE(ex_resolve_all(&r, 4) == 0);
    CHECK_EQ_INT(sk_unit(&r, 0, "move"), 1);
    REQUIRE(sk_pass_until(&r, "start", 12) == 0); /* seat 1's turn */
    CHECK_EQ_INT(sk_unit(&r, 0, "move"), 1);
    REQUIRE(sk_pass_until(&r, "end", 12) == 0);
    REQUIRE(sk_pass_until(&r, "start", 12) == 0);
    CHECK_EQ_INT(sk_prio_int(&r, "active"), 0);
    CHECK_EQ_INT(sk_unit(&r, 0, "move"), 3);
    CHECK(sk_replays(&r));
    sk_free(&r);
}

/* A movement whose creature is destroyed before it resolves does nothing
 * and pays nothing. */
static void test_movement_of_a_destroyed_creature_does_nothing(void)
{
    sk_run r;
    REQUIRE(ex_to_choice(&r, 1, "[\"soot_runner\",\"iron_recruit\"]",
                         "[\"c3\",\"a1\"]",
                         "[\"blood_cantor\",\"bulwark_giant\"]",
                         "[\"c5\",\"a6\"]") == 0);
    REQUIRE(sk_play(&r, 0, "{\"action\":\"move\",\"unit\":0,\"to\":\"d3\"}") ==
            0);
    REQUIRE(sk_pass(&r) == 0);
    REQUIRE(sk_play(&r, 1,
                    "{\"action\":\"ability\",\"unit\":2,\"ability\":0,"
                    "\"target\":0}") == 0);
    REQUIRE(ex_resolve_all(&r, 6) == 0);
    CHECK_EQ_INT(sk_unit(&r, 0, "alive"), 0);
    CHECK(sk_log_has(&r, ENGINE_PUBLIC, "cannot reach d3"));
    CHECK_EQ_INT(sk_unit_reserved(&r, 0, "move"), 0);
    CHECK(sk_replays(&r));
    sk_free(&r);
}

/* ------------------------------------------------------ adjacency -- */

/* An attack reaches an adjacent enemy, along a side or at a corner; not
 * one two squares away, nor one's own creature. */
static void test_attack_needs_an_adjacent_enemy(void)
{
    sk_run r;
    static const char *const enemy_sq[] = {"b4", "c4", "d4", "a4", "c5"};
    REQUIRE(ex_to_choice(&r, 1, "[\"iron_recruit\",\"iron_recruit\"]",
                         "[\"c3\",\"d3\"]",
                         "[\"iron_recruit\",\"slinger\",\"soot_runner\","
                         "\"bulwark_giant\",\"bulwark_giant\"]",
                         "[\"b4\",\"c4\",\"d4\",\"a4\",\"c5\"]") == 0);
    for (int t = 0; t < 5; t++) {
        int want = ex_dist("c3", enemy_sq[t]) == 1;
        CHECKF(ex_legal_has(&r, 0, "attack", 0, -1, 2 + t, 0) == want,
               "c3 on %s: the rule says %d", enemy_sq[t], want);
    }
    CHECK(!ex_legal_has(&r, 0, "attack", 0, -1, 1, 0)); /* its own, d3 */
    CHECK(sk_play(&r, 0, "{\"action\":\"attack\",\"unit\":0,\"target\":1}") !=
          0);
    CHECK(sk_play(&r, 0, "{\"action\":\"attack\",\"unit\":0,\"target\":5}") !=
          0); /* a4: two columns */
    CHECK(sk_play(&r, 0, "{\"action\":\"attack\",\"unit\":0,\"target\":2}") ==
          0); /* b4: a corner */
    CHECK(sk_replays(&r));
    sk_free(&r);
}

/* ---------------------------------------------------------- muster -- */

static void test_muster_limits_at_their_boundaries(void)
{
    sk_run r;
    REQUIRE(sk_new(&r, 1, NULL));
    /* 16 creatures: one too many */
    CHECK(sk_order(&r, 0,
                   "{\"cards\":[\"iron_recruit\",\"iron_recruit\","
                   "\"soot_runner\",\"soot_runner\",\"zephyr_sprite\","
                   "\"zephyr_sprite\",\"cinder_imp\",\"cinder_imp\","
                   "\"thorn_sprite\",\"thorn_sprite\",\"slinger\",\"slinger\","
                   "\"shieldbearer\",\"shieldbearer\",\"pike_warden\","
                   "\"pike_warden\"]}") != 0);
    /* cost exactly 30 (8 + 8 + 7 + 7), factions mixed */
    CHECK(sk_order(&r, 1,
                   "{\"cards\":[\"ember_tyrant\",\"ember_tyrant\","
                   "\"eagle_lord\",\"iron_marshal\"]}") == 0);
    /* 15 creatures, cost 18, two copies each at most: taken */
    CHECK(sk_order(&r, 0,
                   "{\"cards\":[\"iron_recruit\",\"iron_recruit\","
                   "\"soot_runner\",\"soot_runner\",\"zephyr_sprite\","
                   "\"zephyr_sprite\",\"cinder_imp\",\"cinder_imp\","
                   "\"thorn_sprite\",\"thorn_sprite\",\"slinger\",\"slinger\","
                   "\"shieldbearer\",\"shieldbearer\",\"pike_warden\"]}") == 0);
    json_t *squads = sk_vfield(&r, ENGINE_PUBLIC, "squads");
    CHECK_EQ_INT(ex_int(json_array_get(squads, 0), "creatures"), 15);
    CHECK_EQ_INT(ex_int(json_array_get(squads, 0), "cost"), 18);
    CHECK_EQ_INT(ex_int(json_array_get(squads, 1), "cost"), 30);
    json_decref(squads);
    sk_free(&r);

    REQUIRE(sk_new(&r, 1, NULL));
    CHECK(sk_order(&r, 0,
                   "{\"cards\":[\"ember_tyrant\",\"ember_tyrant\","
                   "\"eagle_lord\",\"iron_marshal\",\"soot_runner\"]}") !=
          0); /* 31 */
    CHECK(sk_order(&r, 0, "{\"squad\":\"iron_wall\",\"cards\":[]}") != 0);
    sk_free(&r);
}

/* A player who does not choose in time gets the first prebuilt squad;
 * one who does not place in time has it placed in squad order, the front
 * row first, each row from column a. */
static void test_timeouts_give_the_defaults(void)
{
    sk_run r;
    REQUIRE(sk_new(&r, 1, NULL));
    REQUIRE(sk_order(&r, 0, "{\"cards\":[\"iron_recruit\"]}") == 0);
    REQUIRE(sk_act(&r, ENGINE_PUBLIC, ENGINE_TIMEOUT, NULL) == 0);
    json_t *units = sk_vfield(&r, ENGINE_PUBLIC, "units");
    /* Iron Wall, as the doc lists it */
    static const char *const iron_wall[] = {
        "iron_marshal",  "shieldbearer",  "shieldbearer",  "pike_warden",
        "pike_warden",   "bolt_sergeant", "field_surgeon", "banner_captain",
        "veteran_blade", "iron_recruit",  "iron_recruit"};
    CHECK_EQ_INT(json_array_size(units), 1 + 11);
    for (size_t i = 0; i < 11; i++)
        CHECK_EQ_STR(json_string_value(
                         json_object_get(json_array_get(units, 1 + i), "key")),
                     iron_wall[i]);
    json_decref(units);
    REQUIRE(sk_order(&r, 0, "{\"squares\":[\"a1\"]}") == 0);
    REQUIRE(sk_act(&r, ENGINE_PUBLIC, ENGINE_TIMEOUT, NULL) == 0);
    /* seat 1's front row is row 4, then 5 */
    for (int i = 0; i < 11; i++) {
        char want[4], sq[4];
        ex_sq_name(i % 5, 3 + i / 5, want);
        CHECK_EQ_STR(sk_unit_sq(&r, 1 + i, sq), want);
    }
    char sq[4];
    CHECK_EQ_STR(sk_unit_sq(&r, 0, sq), "a1"); /* on a1: the view says so */
    CHECK(sk_replays(&r));
    sk_free(&r);

    /* seat 0's: row 3 first, then 2 */
    REQUIRE(sk_new(&r, 1, NULL));
    REQUIRE(sk_order(&r, 1, "{\"cards\":[\"iron_recruit\"]}") == 0);
    REQUIRE(sk_act(&r, ENGINE_PUBLIC, ENGINE_TIMEOUT, NULL) == 0);
    REQUIRE(sk_order(&r, 1, "{\"squares\":[\"e6\"]}") == 0);
    REQUIRE(sk_act(&r, ENGINE_PUBLIC, ENGINE_TIMEOUT, NULL) == 0);
    for (int i = 0; i < 11; i++) {
        char want[4];
        ex_sq_name(i % 5, 2 - i / 5, want);
        CHECK_EQ_STR(sk_unit_sq(&r, i, sq), want);
    }
    /* the cheaper squad starts: seat 1 */
    CHECK_EQ_INT(sk_prio_int(&r, "active"), 1);
    CHECK(sk_replays(&r));
    sk_free(&r);
}

/* ------------------------------------------------------ deployment -- */

/* Each on a different square of its own home rows: rows 1-3 for seat 0,
 * 4-6 for seat 1; squares are a-e and 1-6. */
static void test_deployment_home_rows_at_the_boundary(void)
{
    sk_run r;
    REQUIRE(sk_new(&r, 1, NULL));
    REQUIRE(sk_order(&r, 0, "{\"cards\":[\"iron_recruit\",\"slinger\"]}") == 0);
    REQUIRE(sk_order(&r, 1, "{\"cards\":[\"iron_recruit\",\"slinger\"]}") == 0);
    static const char *const bad0[] = {"a4", "e4", "f1", "a0", "a7", "A1", "a"};
    for (size_t i = 0; i < sizeof bad0 / sizeof bad0[0]; i++) {
        char order[96];
        snprintf(order, sizeof order, "{\"squares\":[\"%s\",\"b1\"]}", bad0[i]);
        CHECKF(sk_order(&r, 0, order) != 0, "seat 0 on %s taken", bad0[i]);
        snprintf(order, sizeof order, "{\"squares\":[\"b6\",\"%s\"]}", bad0[i]);
        if (bad0[i][1] != '4') /* row 4 is seat 1's */
            CHECKF(sk_order(&r, 1, order) != 0, "seat 1 on %s taken", bad0[i]);
    }
    CHECK(sk_order(&r, 1, "{\"squares\":[\"a3\",\"b6\"]}") != 0);
    CHECK(sk_order(&r, 1, "{\"squares\":[\"b6\",\"e3\"]}") != 0);
    CHECK(sk_order(&r, 0, "{\"squares\":[\"a3\",\"a3\"]}") != 0);
    REQUIRE(sk_order(&r, 0, "{\"squares\":[\"e3\",\"a1\"]}") == 0);
    REQUIRE(sk_order(&r, 1, "{\"squares\":[\"a4\",\"e6\"]}") == 0);
    char sq[4];
    CHECK_EQ_STR(sk_unit_sq(&r, 0, sq), "e3");
    CHECK_EQ_STR(sk_unit_sq(&r, 1, sq), "a1");
    CHECK_EQ_STR(sk_unit_sq(&r, 2, sq), "a4");
    CHECK_EQ_STR(sk_unit_sq(&r, 3, sq), "e6");
    CHECK(sk_replays(&r));
    sk_free(&r);
}

/* -------------------------------------------------------- who starts -- */

/* Equal costs: a die from the game's RNG, 1 to 6, decides: 1-3 the
 * first seat, 4-6 the second (ours). */
static void test_equal_costs_a_die_decides(void)
{
    int starts[2] = {0, 0};
    for (uint64_t seed = 1; seed <= 40; seed++) {
        sk_run r;
        if (sk_start(&r, seed, "[\"iron_recruit\"]", "[\"c3\"]",
                     "[\"soot_runner\"]", "[\"c4\"]") != 0) {
            CHECK(0);
            sk_free(&r);
            continue;
        }
        char *log = sk_log_text(&r, ENGINE_PUBLIC);
        const char *at = strstr(log, "the die shows ");
        int die = at ? atoi(at + strlen("the die shows ")) : -1;
        free(log);
        CHECKF(die >= 1 && die <= 6, "seed %d: the die shows %d", (int)seed,
               die);
        int active = sk_prio_int(&r, "active");
        CHECKF(active == (die <= 3 ? 0 : 1), "seed %d: die %d, seat %d starts",
               (int)seed, die, active);
        if (active == 0 || active == 1)
            starts[active]++;
        sk_free(&r);
    }
    CHECK(starts[0] > 0 && starts[1] > 0);
    /* one less: the cheaper starts, with no die */
    sk_run r;
    REQUIRE(sk_start(&r, 1, "[\"shieldbearer\"]", "[\"c3\"]",
                     "[\"soot_runner\"]", "[\"c4\"]") == 0);
    CHECK_EQ_INT(sk_prio_int(&r, "active"), 1);
    CHECK(!sk_log_has(&r, ENGINE_PUBLIC, "the die shows"));
    sk_free(&r);
}

/* --------------------------------------------------------- winning -- */

/* Both squads destroyed at the same moment: a draw. Soot Runner on Soot
 * Runner, each 1 life: both strikes land together. */
static void test_both_squads_destroyed_together_is_a_draw(void)
{
    sk_run r;
    REQUIRE(sk_start(&r, 1, "[\"soot_runner\"]", "[\"c3\"]",
                     "[\"soot_runner\"]", "[\"c4\"]") == 0);
    REQUIRE(sk_pass_until(&r, "choice", 12) == 0);
    int a = sk_prio_int(&r, "active");
    char play[80];
    snprintf(play, sizeof play,
             "{\"action\":\"attack\",\"unit\":%d,\"target\":%d}", a, 1 - a);
    REQUIRE(sk_play(&r, a, play) == 0);
    REQUIRE(sk_pass(&r) == 0 && sk_pass(&r) == 0);
    CHECK(engine_is_over(r.g));
    json_t *res = engine_result(r.g);
    CHECK_EQ_INT(json_array_size(json_object_get(res, "winners")), 0);
    CHECK(json_is_true(json_object_get(res, "draw")));
    json_decref(res);
    json_t *view_res = sk_vfield(&r, ENGINE_PUBLIC, "result");
    CHECK(json_is_true(json_object_get(view_res, "draw")));
    json_decref(view_res);
    CHECK(sk_replays(&r));
    sk_free(&r);
}

/* The turn limit: the game ends after that many turns, not before; each
 * scores the cost of its creatures on the field; more wins, equal draws.
 * The view holds "result" only once the game is over. */
static void test_turn_limit_scores_the_field(void)
{
    sk_run r;
    REQUIRE(sk_start_with(&r, 1, "{\"turn_limit\":2}", "[\"iron_recruit\"]",
                          "[\"c3\"]", "[\"iron_recruit\",\"slinger\"]",
                          "[\"c4\",\"a6\"]") == 0);
    json_t *res = sk_vfield(&r, ENGINE_PUBLIC, "result");
    CHECK(res == NULL);
    json_decref(res);
    REQUIRE(sk_pass_until(&r, "end", 12) == 0);
    REQUIRE(sk_pass_until(&r, "start", 12) == 0);
    CHECK(!engine_is_over(r.g)); /* after turn 1 of 2 */
    CHECK_EQ_INT(sk_prio_int(&r, "turn"), 2);
    REQUIRE(sk_pass_until(&r, "end", 12) == 0);
    for (int i = 0; i < 4 && !engine_is_over(r.g); i++)
        REQUIRE(sk_pass(&r) == 0);
    CHECK(engine_is_over(r.g));
    res = sk_vfield(&r, ENGINE_PUBLIC, "result");
    CHECK_EQ_INT(
        json_integer_value(json_array_get(json_object_get(res, "winners"), 0)),
        1);
    CHECK_EQ_INT(
        json_integer_value(json_array_get(json_object_get(res, "scores"), 0)),
        1);
    CHECK_EQ_INT(
        json_integer_value(json_array_get(json_object_get(res, "scores"), 1)),
        2);
    CHECK_EQ_INT(ex_int(res, "turns"), 2);
    json_decref(res);
    CHECK(sk_log_has(&r, ENGINE_PUBLIC, "scores 1"));
    CHECK(sk_replays(&r));
    sk_free(&r);

    /* equal scores: a draw */
    REQUIRE(sk_start_with(&r, 1, "{\"turn_limit\":2}", "[\"iron_recruit\"]",
                          "[\"c3\"]", "[\"slinger\"]", "[\"a6\"]") == 0);
    for (int i = 0; i < 30 && !engine_is_over(r.g); i++)
        REQUIRE(sk_pass(&r) == 0);
    res = engine_result(r.g);
    CHECK(json_is_true(json_object_get(res, "draw")));
    CHECK_EQ_INT(json_array_size(json_object_get(res, "winners")), 0);
    json_decref(res);
    sk_free(&r);

    /* the option's bounds: 2 to 200 */
    CHECK(!sk_new(&r, 1, "{\"turn_limit\":1}"));
    sk_free(&r);
    CHECK(!sk_new(&r, 1, "{\"turn_limit\":201}"));
    sk_free(&r);
    CHECK(sk_new(&r, 1, "{\"turn_limit\":200}"));
    sk_free(&r);
}

/* ------------------------------------------------------------ view -- */

/* The dice of the last attack name its attacker and its target. */
static void test_view_dice_name_attacker_and_target(void)
{
    sk_run r;
    REQUIRE(ex_to_choice(&r, 1, "[\"iron_recruit\",\"iron_recruit\"]",
                         "[\"a1\",\"c3\"]",
                         "[\"bulwark_giant\",\"bulwark_giant\"]",
                         "[\"a6\",\"d4\"]") == 0);
    char sq[4];
    CHECK_EQ_STR(sk_unit_sq(&r, 0, sq), "a1");
    json_t *dice = sk_vfield(&r, ENGINE_PUBLIC, "dice");
    CHECK(json_is_null(dice));
    json_decref(dice);
    REQUIRE(sk_play(&r, 0, "{\"action\":\"attack\",\"unit\":1,\"target\":3}") ==
            0);
    REQUIRE(ex_resolve_all(&r, 4) == 0);
    for (int seat = -1; seat < 2; seat++) { /* shown to everyone */
        dice = sk_vfield(&r, seat < 0 ? ENGINE_PUBLIC : seat, "dice");
        CHECK_EQ_INT(ex_int(dice, "attacker"), 1);
        CHECK_EQ_INT(ex_int(dice, "target"), 3);
        json_decref(dice);
    }
    CHECK(sk_replays(&r));
    sk_free(&r);
}

/* Window labels for players: every step in words; an unknown one falls
 * back to the words of its id. */
static void test_window_labels(void)
{
    const engine_ruleset *rs = engine_ruleset_find("skirmish");
    REQUIRE(rs != NULL);
    static const struct {
        const char *window, *words;
    } labels[] = {{"muster", "Muster: choose your squad"},
                  {"deploy", "Deployment: place your units"},
                  {"start.3", "Start of the turn"},
                  {"choice.12", "Your turn: move, act or pass"},
                  {"exec.43", "The stack: respond or pass"},
                  {"handover.7", "Handover: respond or pass"},
                  {"handover_all.8", "Handover: respond or pass"},
                  {"end.9", "End of the turn"},
                  {"zzz.4", "Zzz"}};
    for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++) {
        char out[ENGINE_WINDOW_LABEL_MAX];
        engine_window_label(rs, labels[i].window, out, sizeof out);
        CHECK_EQ_STR(out, labels[i].words);
    }
}

/* ------------------------------------------------------------ bots -- */

/* The basic bot places any squad it is given on legal squares, even one
 * with more shooters and healers than its back rows hold. */
static void test_basic_bot_deploys_a_squad_of_shooters(void)
{
    sk_run r;
    REQUIRE(sk_new(&r, 1, NULL));
    REQUIRE(sk_order(&r, 0,
                     "{\"cards\":[\"slinger\",\"slinger\",\"bolt_sergeant\","
                     "\"bolt_sergeant\",\"field_surgeon\",\"field_surgeon\","
                     "\"ash_acolyte\",\"ash_acolyte\",\"iron_recruit\","
                     "\"iron_recruit\"]}") == 0);
    REQUIRE(sk_order(&r, 1, "{\"squad\":\"green_tide\"}") == 0);
    for (int seat = 0; seat < 2; seat++) {
        engine_rng rng;
        uint8_t key[32] = {5};
        engine_rng_init(&rng, key, 1);
        engine_input in;
        engine_error err = {0};
        REQUIRE(engine_bot_action(r.g, seat, "basic", &rng, &in, &err) == 0);
        char *s = json_dumps(in.payload, JSON_COMPACT);
        int rc = sk_order(&r, seat, s);
        CHECKF(rc == 0, "seat %d: the bot's placement %s refused", seat, s);
        free(s);
        json_decref((json_t *)in.payload);
    }
    CHECK(sk_step_is(&r, "start"));
    for (int u = 0; u < 10; u++) { /* every one in rows 1-3 */
        char sq[4];
        sk_unit_sq(&r, u, sq);
        CHECKF(sq[0] && ex_row(sq) <= 2, "unit %d on \"%s\"", u, sq);
    }
    CHECK(sk_replays(&r));
    sk_free(&r);
}

int main(void)
{
    engine_error err = {0};
    if (engine_init(&err) != 0) {
        fprintf(stderr, "engine_init: %s\n", err.msg);
        return 1;
    }
    RUN(test_walking_reach);
    RUN(test_flying_reach);
    RUN(test_movement_points_back_each_own_turn);
    RUN(test_movement_of_a_destroyed_creature_does_nothing);
    RUN(test_attack_needs_an_adjacent_enemy);
    RUN(test_muster_limits_at_their_boundaries);
    RUN(test_timeouts_give_the_defaults);
    RUN(test_deployment_home_rows_at_the_boundary);
    RUN(test_equal_costs_a_die_decides);
    RUN(test_both_squads_destroyed_together_is_a_draw);
    RUN(test_turn_limit_scores_the_field);
    RUN(test_view_dice_name_attacker_and_target);
    RUN(test_window_labels);
    RUN(test_basic_bot_deploys_a_squad_of_shooters);
    return TEST_SUMMARY();
}

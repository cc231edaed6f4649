/*
 * test_skirmish_rules.c - Skirmish's turn structure through the engine:
 * one named test per seed rule of docs/games/skirmish.md (410.2, 411.1,
 * 411.2 each choice, 412.1 each payment kind, 412.2, 413.1-413.3,
 * 501.1-501.3), the reserve and missing-resource rules (ours), the
 * secrecy of muster and deployment, and a whole game replayed from its
 * export. Each test ends by replaying its own inputs to the same hash.
 *
 * Units are numbered seat 0's squad first, then seat 1's, in squad order.
 * The cheaper squad starts, so each test gives seat 0 the cheaper one.
 */
#include "tests/unit/skirmish/skirmish_test.h"

#define PASS "{\"action\":\"pass\"}"

static void done(sk_run *r)
{
    CHECK(sk_replays(r));
    sk_free(r);
}

/* Start and pass the first start phase: seat 0 in its choice subphase. */
static int to_choice(sk_run *r, const char *c0, const char *s0, const char *c1,
                     const char *s1)
{
    if (sk_start(r, 1, c0, s0, c1, s1) != 0)
        return -1;
    return sk_pass_until(r, "choice", 10);
}

static int stack_kind_is(const sk_run *r, size_t i, const char *kind)
{
    json_t *st = sk_vfield(r, ENGINE_PUBLIC, "stack");
    const char *k = json_string_value(json_object_get(
        json_object_get(json_array_get(st, i), "payload"), "kind"));
    int ok = k && strcmp(k, kind) == 0;
    json_decref(st);
    return ok;
}

/* -------------------------------------------------------------- 410 -- */

static void test_410_2_main_phase_opens_in_choice(void)
{
    sk_run r;
    REQUIRE(sk_start(&r, 1, "[\"iron_recruit\"]", "[\"c3\"]",
                     "[\"iron_recruit\",\"iron_recruit\"]",
                     "[\"c4\",\"a6\"]") == 0);
    CHECK_EQ_INT(sk_prio_int(&r, "active"), 0); /* cheaper squad starts */
    CHECK_EQ_INT(sk_holder(&r), 0);
    REQUIRE(sk_pass(&r) == 0);
    CHECK(sk_step_is(&r, "start"));
    CHECK_EQ_INT(sk_holder(&r), 1);
    REQUIRE(sk_pass(&r) == 0);
    CHECK(sk_step_is(&r, "choice"));
    CHECK_EQ_INT(sk_holder(&r), 0);
    done(&r);
}

/* -------------------------------------------------------------- 411 -- */

static void test_411_1_only_active_chooses(void)
{
    sk_run r;
    REQUIRE(to_choice(&r, "[\"iron_recruit\"]", "[\"c3\"]",
                      "[\"iron_recruit\",\"iron_recruit\"]",
                      "[\"c4\",\"a6\"]") == 0);
    engine_window w[2];
    REQUIRE(engine_windows(r.g, w, 2) == 1);
    CHECK_EQ_INT(w[0].seats, 1u); /* the active seat only */
    json_t *round = sk_vfield(&r, ENGINE_PUBLIC, "priority");
    CHECK_EQ_INT(json_array_size(json_object_get(round, "round")), 1);
    json_decref(round);
    json_t *legal = engine_legal(r.g, 1);
    CHECK_EQ_INT(json_array_size(json_object_get(legal, "windows")), 0);
    json_decref(legal);
    CHECK(sk_play(&r, 1, "{\"action\":\"attack\",\"unit\":1,\"target\":0}") !=
          0);
    CHECK(sk_play(&r, 1, PASS) != 0);
    done(&r);
}

static void test_411_2_declare_movement(void)
{
    sk_run r;
    char sq[4];
    REQUIRE(to_choice(&r, "[\"iron_recruit\"]", "[\"c3\"]",
                      "[\"iron_recruit\",\"iron_recruit\"]",
                      "[\"c4\",\"a6\"]") == 0);
    /* walking cannot go at a corner, nor onto an occupied square */
    CHECK(sk_play(&r, 0, "{\"action\":\"move\",\"unit\":0,\"to\":\"b2\"}") !=
          0);
    CHECK(sk_play(&r, 0, "{\"action\":\"move\",\"unit\":0,\"to\":\"c4\"}") !=
          0);
    REQUIRE(sk_play(&r, 0, "{\"action\":\"move\",\"unit\":0,\"to\":\"b3\"}") ==
            0);
    CHECK(sk_step_is(&r, "exec")); /* 411.2: the passes are automatic */
    CHECK_EQ_INT(sk_holder(&r), 0);
    CHECK_EQ_INT(sk_stack_n(&r), 1);
    CHECK(stack_kind_is(&r, 0, "move"));
    CHECK_EQ_STR(sk_unit_sq(&r, 0, sq), "c3"); /* not yet */
    REQUIRE(sk_pass(&r) == 0 && sk_pass(&r) == 0);
    CHECK_EQ_STR(sk_unit_sq(&r, 0, sq), "b3");
    done(&r);
}

static void test_411_2_declare_action(void)
{
    sk_run r;
    REQUIRE(to_choice(&r, "[\"iron_recruit\"]", "[\"c3\"]",
                      "[\"iron_recruit\",\"bulwark_giant\"]",
                      "[\"c4\",\"a6\"]") == 0);
    CHECK(sk_play(&r, 0, "{\"action\":\"attack\",\"unit\":0,\"target\":2}") !=
          0); /* not adjacent */
    REQUIRE(sk_play(&r, 0, "{\"action\":\"attack\",\"unit\":0,\"target\":1}") ==
            0);
    CHECK(sk_step_is(&r, "exec"));
    CHECK(stack_kind_is(&r, 0, "attack"));
    json_t *dice = sk_vfield(&r, ENGINE_PUBLIC, "dice");
    CHECK(json_is_null(dice));
    json_decref(dice);
    REQUIRE(sk_pass(&r) == 0 && sk_pass(&r) == 0);
    dice = sk_vfield(&r, ENGINE_PUBLIC, "dice");
    json_t *rolls = json_object_get(dice, "rolls");
    int ra = (int)json_integer_value(json_array_get(rolls, 0));
    int rt = (int)json_integer_value(json_array_get(rolls, 1));
    CHECK(ra >= 1 && ra <= 6 && rt >= 1 && rt <= 6);
    /* recruit strikes 1/1/2 against 3 life, strikes back 1/1/2 */
    CHECK_EQ_INT(sk_unit(&r, 1, "life"), 3 - (ra >= 5 ? 2 : 1));
    CHECK_EQ_INT(sk_unit(&r, 0, "life"), 3 - (rt >= 5 ? 2 : 1));
    json_decref(dice);
    CHECK(sk_log_has(&r, 1, "strikes back"));
    done(&r);
}

static void test_411_2_hand_over(void)
{
    sk_run r;
    REQUIRE(to_choice(&r, "[\"iron_recruit\"]", "[\"c3\"]",
                      "[\"iron_recruit\",\"iron_recruit\"]",
                      "[\"c4\",\"a6\"]") == 0);
    REQUIRE(sk_pass(&r) == 0); /* a pass in choice hands the turn over */
    CHECK(sk_step_is(&r, "handover"));
    CHECK_EQ_INT(sk_holder(&r), 1);
    CHECK(sk_log_has(&r, ENGINE_PUBLIC, "hands the turn over"));
    done(&r);
}

/* -------------------------------------------------------------- 412 -- */

static void test_412_1_movement_pays_after_effect(void)
{
    sk_run r;
    REQUIRE(to_choice(&r, "[\"briar_wolf\"]", "[\"c1\"]",
                      "[\"iron_recruit\",\"bulwark_giant\"]",
                      "[\"c4\",\"a6\"]") == 0);
    REQUIRE(sk_play(&r, 0, "{\"action\":\"move\",\"unit\":0,\"to\":\"c3\"}") ==
            0);
    CHECK_EQ_INT(sk_unit(&r, 0, "move"), 3);
    CHECK_EQ_INT(sk_unit_reserved(&r, 0, "move"), 2);
    REQUIRE(sk_pass(&r) == 0 && sk_pass(&r) == 0);
    CHECK_EQ_INT(sk_unit(&r, 0, "move"), 1);
    CHECK_EQ_INT(sk_unit_reserved(&r, 0, "move"), 0);
    /* the effect is logged before the payment */
    char *log = sk_log_text(&r, ENGINE_PUBLIC);
    const char *moved = strstr(log, "moves to c3");
    const char *paid = strstr(log, "pays, 2 movement");
    CHECK(moved && paid && moved < paid);
    free(log);
    done(&r);
}

static void test_412_1_action_closes_after_effect(void)
{
    sk_run r;
    REQUIRE(to_choice(&r, "[\"iron_recruit\"]", "[\"c3\"]",
                      "[\"iron_recruit\",\"bulwark_giant\"]",
                      "[\"c4\",\"a6\"]") == 0);
    REQUIRE(sk_play(&r, 0, "{\"action\":\"attack\",\"unit\":0,\"target\":1}") ==
            0);
    CHECK_EQ_INT(sk_unit(&r, 0, "closed"), 0);
    CHECK_EQ_INT(sk_unit_reserved(&r, 0, "close"), 1);
    REQUIRE(sk_pass(&r) == 0 && sk_pass(&r) == 0);
    CHECK_EQ_INT(sk_unit(&r, 0, "closed"), 1);
    CHECK_EQ_INT(sk_unit_reserved(&r, 0, "close"), 0);
    /* a closed creature cannot attack again */
    REQUIRE(sk_pass_until(&r, "choice", 4) == 0);
    CHECK(sk_play(&r, 0, "{\"action\":\"attack\",\"unit\":0,\"target\":1}") !=
          0);
    done(&r);
}

static void test_412_1_tokens_pay_after_effect(void)
{
    sk_run r;
    REQUIRE(to_choice(&r, "[\"siege_engineer\"]", "[\"c2\"]",
                      "[\"iron_recruit\",\"bulwark_giant\"]",
                      "[\"c5\",\"a6\"]") == 0);
    REQUIRE(sk_play(&r, 0,
                    "{\"action\":\"ability\",\"unit\":0,\"ability\":0,"
                    "\"target\":1}") == 0);
    CHECK_EQ_INT(sk_unit(&r, 0, "tokens"), 1);
    CHECK_EQ_INT(sk_unit_reserved(&r, 0, "tokens"), 1);
    REQUIRE(sk_pass(&r) == 0 && sk_pass(&r) == 0);
    CHECK_EQ_INT(sk_unit(&r, 1, "alive"), 0); /* 3 damage, 3 life */
    CHECK_EQ_INT(sk_unit(&r, 0, "tokens"), 0);
    CHECK_EQ_INT(sk_unit(&r, 0, "closed"), 1);
    done(&r);
}

static void test_412_1_life_pays_after_effect(void)
{
    sk_run r;
    REQUIRE(sk_start(&r, 1, "[\"blood_cantor\"]", "[\"c3\"]",
                     "[\"iron_recruit\",\"bulwark_giant\"]",
                     "[\"c4\",\"a6\"]") == 0);
    /* a sudden ability in the start phase */
    REQUIRE(sk_play(&r, 0,
                    "{\"action\":\"ability\",\"unit\":0,\"ability\":0,"
                    "\"target\":1}") == 0);
    CHECK_EQ_INT(sk_unit(&r, 0, "life"), 4);
    CHECK_EQ_INT(sk_unit_reserved(&r, 0, "life"), 1);
    REQUIRE(sk_pass(&r) == 0 && sk_pass(&r) == 0);
    CHECK_EQ_INT(sk_unit(&r, 1, "life"), 1);
    CHECK_EQ_INT(sk_unit(&r, 0, "life"), 3);
    done(&r);
}

static void test_412_2_back_to_choice(void)
{
    sk_run r;
    REQUIRE(to_choice(&r, "[\"iron_recruit\"]", "[\"c3\"]",
                      "[\"iron_recruit\",\"iron_recruit\"]",
                      "[\"c4\",\"a6\"]") == 0);
    REQUIRE(sk_play(&r, 0, "{\"action\":\"move\",\"unit\":0,\"to\":\"b3\"}") ==
            0);
    REQUIRE(sk_pass(&r) == 0 && sk_pass(&r) == 0); /* the move resolves */
    CHECK(sk_step_is(&r, "exec"));
    CHECK_EQ_INT(sk_stack_n(&r), 0);
    CHECK_EQ_INT(sk_holder(&r), 0);
    REQUIRE(sk_pass(&r) == 0);
    CHECK(sk_step_is(&r, "exec")); /* one pass is not both */
    REQUIRE(sk_pass(&r) == 0);
    CHECK(sk_step_is(&r, "choice"));
    CHECK_EQ_INT(sk_holder(&r), 0);
    done(&r);
}

/* -------------------------------------------------------------- 413 -- */

static void test_413_1_hand_over_then_end_phase(void)
{
    sk_run r;
    REQUIRE(to_choice(&r, "[\"siege_engineer\"]", "[\"c2\"]",
                      "[\"iron_recruit\",\"bulwark_giant\"]",
                      "[\"c5\",\"a6\"]") == 0);
    REQUIRE(sk_pass(&r) == 0);
    CHECK(sk_step_is(&r, "handover"));
    REQUIRE(sk_pass(&r) == 0); /* the inactive passes, stack empty */
    CHECK(sk_step_is(&r, "end"));
    CHECK_EQ_INT(sk_holder(&r), 0);
    CHECK_EQ_INT(sk_stack_n(&r), 1); /* "at the end of your turn" */
    CHECK(stack_kind_is(&r, 0, "trigger"));
    REQUIRE(sk_pass(&r) == 0 && sk_pass(&r) == 0);
    CHECK_EQ_INT(sk_unit(&r, 0, "tokens"), 2);
    done(&r);
}

static void test_413_1_hand_over_with_a_response(void)
{
    sk_run r;
    REQUIRE(to_choice(&r, "[\"iron_recruit\"]", "[\"c3\"]",
                      "[\"blood_cantor\",\"bulwark_giant\"]",
                      "[\"c5\",\"a6\"]") == 0);
    REQUIRE(sk_pass(&r) == 0);
    REQUIRE(sk_play(&r, 1,
                    "{\"action\":\"ability\",\"unit\":1,\"ability\":0,"
                    "\"target\":0}") == 0);
    CHECK(sk_step_is(&r, "handover_all"));
    CHECK_EQ_INT(sk_holder(&r), 1);
    REQUIRE(sk_pass(&r) == 0 && sk_pass(&r) == 0); /* resolves */
    CHECK_EQ_INT(sk_unit(&r, 0, "life"), 1);
    CHECK(sk_step_is(&r, "handover_all"));
    REQUIRE(sk_pass(&r) == 0);
    CHECK(sk_step_is(&r, "handover_all"));
    REQUIRE(sk_pass(&r) == 0); /* stack empty, both passed in a row */
    CHECK(sk_step_is(&r, "end"));
    done(&r);
}

/* Poison gained in the end phase first works at the end of the next turn
 * of the poisoned creature's controller. */
static void test_413_2_gained_in_end_phase_works_next_time(void)
{
    sk_run r;
    REQUIRE(to_choice(&r, "[\"blood_cantor\"]", "[\"c3\"]",
                      "[\"spore_mother\",\"iron_recruit\"]",
                      "[\"c4\",\"a6\"]") == 0);
    REQUIRE(sk_pass_until(&r, "end", 4) == 0);
    CHECK_EQ_INT(sk_stack_n(&r), 0);
    const char *bolt =
        "{\"action\":\"ability\",\"unit\":0,\"ability\":0,\"target\":1}";
    REQUIRE(sk_play(&r, 0, bolt) == 0);
    REQUIRE(sk_play(&r, 0, bolt) == 0);
    REQUIRE(sk_pass_until(&r, "start", 20) == 0); /* the spore mother died */
    CHECK_EQ_INT(sk_unit(&r, 1, "alive"), 0);
    CHECK_EQ_INT(sk_unit(&r, 0, "poison"), 1);
    CHECK_EQ_INT(sk_unit(&r, 0, "life"), 2); /* 4 - 2 paid, no poison yet */
    CHECK_EQ_INT(sk_prio_int(&r, "active"), 1);
    REQUIRE(sk_pass_until(&r, "end", 10) == 0); /* seat 1's turn */
    REQUIRE(sk_pass_until(&r, "start", 10) == 0);
    CHECK_EQ_INT(sk_unit(&r, 0, "life"), 2);
    REQUIRE(sk_pass_until(&r, "end", 10) == 0); /* seat 0's next turn */
    CHECK_EQ_INT(sk_stack_n(&r), 1);
    REQUIRE(sk_pass_until(&r, "start", 10) == 0);
    CHECK_EQ_INT(sk_unit(&r, 0, "life"), 1);
    done(&r);
}

static void test_413_3_auras_end_and_players_swap(void)
{
    sk_run r;
    REQUIRE(to_choice(&r, "[\"banner_captain\",\"iron_recruit\"]",
                      "[\"c2\",\"c3\"]", "[\"iron_recruit\",\"bulwark_giant\"]",
                      "[\"e5\",\"a6\"]") == 0);
    REQUIRE(sk_play(&r, 0,
                    "{\"action\":\"ability\",\"unit\":0,\"ability\":0}") == 0);
    REQUIRE(sk_pass(&r) == 0 && sk_pass(&r) == 0);
    json_t *units = sk_vfield(&r, ENGINE_PUBLIC, "units");
    CHECK_EQ_INT(
        json_integer_value(json_object_get(
            json_object_get(json_array_get(units, 1), "auras"), "strike")),
        1);
    json_decref(units);
    REQUIRE(sk_pass_until(&r, "end", 10) == 0);
    CHECK_EQ_INT(sk_prio_int(&r, "turn"), 1);
    REQUIRE(sk_pass(&r) == 0 && sk_pass(&r) == 0);
    CHECK(sk_step_is(&r, "start"));
    CHECK_EQ_INT(sk_prio_int(&r, "active"), 1);
    CHECK_EQ_INT(sk_prio_int(&r, "turn"), 2);
    units = sk_vfield(&r, ENGINE_PUBLIC, "units");
    CHECK_EQ_INT(
        json_integer_value(json_object_get(
            json_object_get(json_array_get(units, 1), "auras"), "strike")),
        0);
    json_decref(units);
    done(&r);
}

/* -------------------------------------------------------------- 501 -- */

static void test_501_1_declaration_names_source_targets_resources(void)
{
    sk_run r;
    REQUIRE(to_choice(&r, "[\"iron_recruit\"]", "[\"c3\"]",
                      "[\"iron_recruit\",\"iron_recruit\"]",
                      "[\"c4\",\"a6\"]") == 0);
    REQUIRE(sk_play(&r, 0, "{\"action\":\"attack\",\"unit\":0,\"target\":1}") ==
            0);
    json_t *st = sk_vfield(&r, 1, "stack");
    json_t *it = json_array_get(st, 0);
    CHECK_EQ_STR(json_string_value(json_object_get(it, "source")),
                 "iron_recruit#0");
    CHECK_EQ_INT(json_integer_value(
                     json_object_get(json_object_get(it, "targets"), "unit")),
                 1);
    CHECK_EQ_INT(json_integer_value(
                     json_array_get(json_object_get(it, "target_seats"), 0)),
                 1);
    json_t *cost = json_object_get(json_object_get(it, "payload"), "cost");
    CHECK_EQ_INT(json_integer_value(json_array_get(cost, 1)), 1); /* close */
    json_decref(st);
    done(&r);
}

static void test_501_1_reserve_counts_items_on_the_stack(void)
{
    sk_run r;
    REQUIRE(sk_start(&r, 1, "[\"blood_cantor\"]", "[\"c3\"]",
                     "[\"bulwark_giant\",\"bulwark_giant\"]",
                     "[\"c4\",\"a6\"]") == 0);
    const char *bolt =
        "{\"action\":\"ability\",\"unit\":0,\"ability\":0,\"target\":1}";
    CHECK(sk_play(&r, 0, bolt) == 0); /* 4 life > 1 reserved */
    CHECK(sk_play(&r, 0, bolt) == 0); /* 4 > 2 */
    CHECK(sk_play(&r, 0, bolt) == 0); /* 4 > 3 */
    CHECK(sk_play(&r, 0, bolt) != 0); /* 4 > 4 fails */
    CHECK_EQ_INT(sk_unit_reserved(&r, 0, "life"), 3);
    CHECK_EQ_INT(sk_stack_n(&r), 3);
    done(&r);
}

static void test_501_2_group_targets_found_on_resolution(void)
{
    sk_run r;
    REQUIRE(to_choice(&r, "[\"ember_zealot\"]", "[\"c3\"]",
                      "[\"iron_recruit\",\"iron_recruit\",\"bulwark_giant\"]",
                      "[\"c4\",\"d4\",\"a6\"]") == 0);
    REQUIRE(sk_play(&r, 0,
                    "{\"action\":\"ability\",\"unit\":0,\"ability\":0}") == 0);
    json_t *st = sk_vfield(&r, ENGINE_PUBLIC, "stack");
    CHECK(json_is_null(json_object_get(json_array_get(st, 0), "targets")));
    json_decref(st);
    REQUIRE(sk_pass(&r) == 0 && sk_pass(&r) == 0);
    CHECK_EQ_INT(sk_unit(&r, 1, "life"), 1);
    CHECK_EQ_INT(sk_unit(&r, 2, "life"), 1);
    CHECK_EQ_INT(sk_unit(&r, 3, "life"), 7); /* not adjacent */
    CHECK_EQ_INT(sk_unit(&r, 0, "life"), 1); /* paid 2 life after */
    done(&r);
}

static void test_501_2_trigger_names_target_on_resolution(void)
{
    sk_run r;
    REQUIRE(to_choice(&r, "[\"iron_recruit\"]", "[\"c3\"]",
                      "[\"thorn_sprite\",\"bulwark_giant\"]",
                      "[\"c4\",\"a6\"]") == 0);
    REQUIRE(sk_play(&r, 0, "{\"action\":\"attack\",\"unit\":0,\"target\":1}") ==
            0);
    CHECK_EQ_INT(sk_stack_n(&r), 2); /* "when it is attacked", on top */
    CHECK(stack_kind_is(&r, 1, "trigger"));
    json_t *st = sk_vfield(&r, ENGINE_PUBLIC, "stack");
    CHECK(json_is_null(json_object_get(json_array_get(st, 1), "targets")));
    json_decref(st);
    REQUIRE(sk_pass(&r) == 0 && sk_pass(&r) == 0);
    CHECK_EQ_INT(sk_unit(&r, 0, "poison"), 1); /* the attacker */
    done(&r);
}

/* Payment with the resource gone (ours): an item whose target left still
 * pays; a source that left pays nothing. */
static void test_501_3_paid_even_when_target_is_gone(void)
{
    sk_run r;
    REQUIRE(to_choice(&r, "[\"iron_recruit\",\"blood_cantor\"]",
                      "[\"c3\",\"b2\"]", "[\"soot_runner\",\"bulwark_giant\"]",
                      "[\"c4\",\"a6\"]") == 0);
    REQUIRE(sk_play(&r, 0, "{\"action\":\"attack\",\"unit\":0,\"target\":2}") ==
            0);
    REQUIRE(sk_play(&r, 0,
                    "{\"action\":\"ability\",\"unit\":1,\"ability\":0,"
                    "\"target\":2}") == 0);
    REQUIRE(sk_pass(&r) == 0 && sk_pass(&r) == 0); /* the bolt */
    CHECK_EQ_INT(sk_unit(&r, 2, "alive"), 0);
    REQUIRE(sk_pass(&r) == 0 && sk_pass(&r) == 0); /* the attack */
    CHECK(sk_log_has(&r, ENGINE_PUBLIC, "does nothing"));
    CHECK_EQ_INT(sk_unit(&r, 0, "closed"), 1);
    CHECK_EQ_INT(sk_unit_reserved(&r, 0, "close"), 0);
    done(&r);
}

static void test_501_3_source_gone_pays_nothing(void)
{
    sk_run r;
    REQUIRE(to_choice(&r, "[\"soot_runner\"]", "[\"c3\"]",
                      "[\"iron_recruit\",\"blood_cantor\"]",
                      "[\"c4\",\"c5\"]") == 0);
    REQUIRE(sk_play(&r, 0, "{\"action\":\"attack\",\"unit\":0,\"target\":1}") ==
            0);
    REQUIRE(sk_pass(&r) == 0); /* seat 1 answers */
    REQUIRE(sk_play(&r, 1,
                    "{\"action\":\"ability\",\"unit\":2,\"ability\":0,"
                    "\"target\":0}") == 0);
    REQUIRE(sk_pass(&r) == 0 && sk_pass(&r) == 0);
    CHECK_EQ_INT(sk_unit(&r, 0, "alive"), 0);
    CHECK(engine_is_over(r.g)); /* seat 0's squad is gone */
    json_t *res = engine_result(r.g);
    CHECK_EQ_INT(
        json_integer_value(json_array_get(json_object_get(res, "winners"), 0)),
        1);
    json_decref(res);
    done(&r);
}

static void test_501_3_conditional_parry_and_counterspell(void)
{
    sk_run r;
    REQUIRE(to_choice(&r, "[\"ash_acolyte\",\"iron_recruit\"]",
                      "[\"c2\",\"b3\"]",
                      "[\"cloud_seer\",\"veteran_blade\",\"bulwark_giant\"]",
                      "[\"c4\",\"b4\",\"a6\"]") == 0);
    /* no attack and no spell on the stack: neither can be used */
    json_t *legal = engine_legal(r.g, 1);
    CHECK_EQ_INT(json_array_size(json_object_get(legal, "windows")), 0);
    json_decref(legal);
    REQUIRE(sk_play(&r, 0, "{\"action\":\"attack\",\"unit\":1,\"target\":3}") ==
            0);
    REQUIRE(sk_pass(&r) == 0);
    uint32_t attack = 1;
    json_t *st = sk_vfield(&r, ENGINE_PUBLIC, "stack");
    attack = (uint32_t)json_integer_value(
        json_object_get(json_array_get(st, 0), "id"));
    json_decref(st);
    char parry[128];
    snprintf(parry, sizeof parry,
             "{\"action\":\"ability\",\"unit\":3,\"ability\":0,\"item\":%u}",
             attack);
    REQUIRE(sk_play(&r, 1, parry) == 0);
    REQUIRE(sk_pass(&r) == 0 && sk_pass(&r) == 0); /* parry resolves */
    CHECK(sk_log_has(&r, ENGINE_PUBLIC, "will strike 2 less"));
    REQUIRE(sk_pass(&r) == 0 && sk_pass(&r) == 0); /* the attack */
    json_t *dice = sk_vfield(&r, ENGINE_PUBLIC, "dice");
    CHECK_EQ_INT(
        json_integer_value(json_array_get(json_object_get(dice, "strikes"), 0)),
        0); /* 1 or 2, minus 2 */
    json_decref(dice);
    CHECK_EQ_INT(sk_unit(&r, 3, "closed"), 1); /* the parry was paid */
    done(&r);
}

static void test_501_3_counterspell_cancels_and_source_pays(void)
{
    sk_run r;
    REQUIRE(to_choice(&r, "[\"ash_acolyte\"]", "[\"c2\"]",
                      "[\"cloud_seer\",\"bulwark_giant\"]",
                      "[\"c4\",\"a6\"]") == 0);
    REQUIRE(sk_play(&r, 0,
                    "{\"action\":\"ability\",\"unit\":0,\"ability\":0,"
                    "\"target\":1}") == 0);
    REQUIRE(sk_pass(&r) == 0);
    json_t *st = sk_vfield(&r, ENGINE_PUBLIC, "stack");
    uint32_t spell = (uint32_t)json_integer_value(
        json_object_get(json_array_get(st, 0), "id"));
    json_decref(st);
    char cs[128];
    snprintf(cs, sizeof cs,
             "{\"action\":\"ability\",\"unit\":1,\"ability\":0,\"item\":%u}",
             spell);
    REQUIRE(sk_play(&r, 1, cs) == 0);
    REQUIRE(sk_pass(&r) == 0 && sk_pass(&r) == 0);
    CHECK_EQ_INT(sk_stack_n(&r), 0);
    CHECK_EQ_INT(sk_unit(&r, 1, "life"), 2); /* untouched */
    CHECK_EQ_INT(sk_unit(&r, 0, "closed"), 1);
    CHECK_EQ_INT(sk_unit(&r, 1, "closed"), 1);
    done(&r);
}

/* ------------------------------------------------ muster, deployment -- */

/* Whether the needle is in the seat's view, legal answer or log. The
 * muster window's legal "catalog" is left out: it is the public card list,
 * the same for every seat, and names every design; what must not show is
 * the other seat's choice. */
static int view_has(const sk_run *r, int seat, const char *needle)
{
    json_t *v = engine_view(r->g, seat);
    json_t *l = engine_legal(r->g, seat);
    json_t *w;
    size_t i;
    json_array_foreach(json_object_get(l, "windows"), i, w)
        json_object_del(w, "catalog");
    char *a = json_dumps(v, JSON_COMPACT), *b = json_dumps(l, JSON_COMPACT);
    int has = strstr(a, needle) || strstr(b, needle);
    free(a);
    free(b);
    json_decref(v);
    json_decref(l);
    return has || sk_log_has(r, seat, needle);
}

static void test_muster_and_deployment_are_secret(void)
{
    sk_run r;
    REQUIRE(sk_new(&r, 3, NULL));
    REQUIRE(sk_order(&r, 0, "{\"cards\":[\"ember_tyrant\",\"cinder_imp\"]}") ==
            0);
    CHECK(!view_has(&r, 1, "ember_tyrant") && !view_has(&r, 1, "Tyrant"));
    CHECK(!view_has(&r, ENGINE_PUBLIC, "ember_tyrant"));
    CHECK(!view_has(&r, ENGINE_PUBLIC, "Tyrant"));
    CHECK(view_has(&r, 0, "ember_tyrant")); /* its own held order */
    /* The squad builder's catalogue: every design and prebuilt squad. */
    json_t *l = engine_legal(r.g, 1);
    json_t *cat = json_object_get(
        json_array_get(json_object_get(l, "windows"), 0), "catalog");
    CHECK_EQ_INT((int)json_array_size(json_object_get(cat, "cards")), 64);
    CHECK_EQ_INT((int)json_array_size(json_object_get(cat, "squads")), 4);
    json_decref(l);
    REQUIRE(sk_order(&r, 1, "{\"squad\":\"green_tide\"}") == 0);
    CHECK(view_has(&r, 1, "Ember Tyrant")); /* revealed together */
    /* The view draws every creature it shows from "cards". */
    json_t *cards = sk_vfield(&r, 1, "cards");
    CHECK_EQ_INT(
        json_integer_value(json_array_get(
            json_object_get(json_object_get(cards, "ember_tyrant"), "strike"),
            2)),
        6);
    CHECK(json_object_get(cards, "thornback_troll") != NULL);
    CHECK_EQ_INT((int)json_object_size(cards), 2 + 9);
    json_decref(cards);
    REQUIRE(sk_order(&r, 0, "{\"squares\":[\"e1\",\"a2\"]}") == 0);
    CHECK(!view_has(&r, 1, "\"e1\"") && !view_has(&r, 1, "e1)"));
    CHECK(!view_has(&r, ENGINE_PUBLIC, "\"e1\""));
    char sq[4];
    CHECK_EQ_STR(sk_unit_sq(&r, 0, sq), "");
    REQUIRE(sk_order(&r, 1,
                     "{\"squares\":[\"a4\",\"b4\",\"c4\",\"d4\",\"e4\",\"a5\","
                     "\"b5\",\"c5\",\"d5\",\"e5\",\"a6\"]}") == 0);
    CHECK_EQ_STR(sk_unit_sq(&r, 0, sq), "e1");
    CHECK(view_has(&r, 1, "\"e1\""));
    done(&r);
}

static void test_muster_and_deployment_orders_checked(void)
{
    sk_run r;
    REQUIRE(sk_new(&r, 4, NULL));
    CHECK(sk_order(&r, 0,
                   "{\"cards\":[\"ember_tyrant\",\"ember_tyrant\","
                   "\"eagle_lord\",\"elder_oakfather\"]}") != 0); /* 31 */
    CHECK(sk_order(&r, 0,
                   "{\"cards\":[\"soot_runner\",\"soot_runner\","
                   "\"soot_runner\"]}") != 0); /* 3 copies */
    CHECK(sk_order(&r, 0, "{\"squad\":\"no_such\"}") != 0);
    CHECK(sk_order(&r, 0, "{\"cards\":[]}") != 0);
    REQUIRE(sk_order(&r, 0, "{\"cards\":[\"soot_runner\"]}") == 0);
    REQUIRE(sk_order(&r, 1,
                     "{\"cards\":[\"iron_recruit\",\"iron_recruit\"]}") == 0);
    CHECK(sk_order(&r, 0, "{\"squares\":[\"c4\"]}") != 0); /* not home */
    CHECK(sk_order(&r, 1, "{\"squares\":[\"c4\",\"c4\"]}") != 0);
    CHECK(sk_order(&r, 1, "{\"squares\":[\"c4\"]}") != 0); /* one short */
    done(&r);
}

/* A whole bot game, exported and replayed to the same hash. */
static void test_replay_whole_game(void)
{
    sk_run r;
    REQUIRE(sk_new(&r, 9, NULL));
    engine_rng bots;
    uint8_t key[32] = {7};
    engine_rng_init(&bots, key, 3);
    int steps = 0;
    while (!engine_is_over(r.g) && steps++ < 20000) {
        engine_window w;
        engine_input in;
        engine_error err = {0};
        REQUIRE(engine_windows(r.g, &w, 1) == 1);
        uint32_t waiting =
            w.mode == ENGINE_SEALED ? w.seats & ~w.submitted : w.seats;
        int seat = waiting & 1u ? 0 : 1;
        REQUIRE(engine_bot_action(r.g, seat, seat ? "random" : "basic", &bots,
                                  &in, &err) == 0);
        int rc = engine_apply(r.g, &in, NULL, &err);
        if (rc == 0)
            json_array_append_new(r.inputs, engine_input_to_json(&in, ++r.seq));
        json_decref((json_t *)in.payload);
        REQUIRE(rc == 0);
    }
    CHECK(engine_is_over(r.g));
    CHECK(r.seq > 20);
    done(&r);
}

/* ------------------------------------------- edition 2: priority flow -- */

#define ED2 "{\"edition\":2}"
#define MOVE0 "{\"action\":\"move\",\"unit\":0,\"to\":\"b3\"}"

/* An edition-2 game of a recruit (seat 0, c3) against two (c4, a6): with
 * no start-phase triggers the start step flows into seat 0's choice. */
static int ed2_choice(sk_run *r)
{
    if (sk_start_with(r, 1, ED2, "[\"iron_recruit\"]", "[\"c3\"]",
                      "[\"iron_recruit\",\"iron_recruit\"]",
                      "[\"c4\",\"a6\"]") != 0)
        return -1;
    return sk_step_is(r, "choice") && sk_holder(r) == 0 ? 0 : -2;
}

/* A member of seat's "priority" view (NEW reference). */
static json_t *prio_of(const sk_run *r, int seat, const char *key)
{
    json_t *p = sk_vfield(r, seat, "priority");
    json_t *f = json_incref(json_object_get(p, key));
    json_decref(p);
    return f;
}

static void test_ed2_declaration_in_one_click(void)
{
    sk_run r;
    char sq[4];
    REQUIRE(ed2_choice(&r) == 0);
    CHECK_EQ_INT(json_array_size(r.inputs), 4); /* no pass to get here */
    REQUIRE(sk_play(&r, 0, MOVE0) == 0);
    /* The declaration passed priority with it: the opponent may answer. */
    CHECK(sk_step_is(&r, "exec"));
    CHECK_EQ_INT(sk_holder(&r), 1);
    CHECK_EQ_INT(sk_stack_n(&r), 1);
    REQUIRE(sk_play(&r, 1, PASS) == 0);
    /* Resolved; the empty stack goes back to choice without a pass. */
    CHECK_EQ_STR(sk_unit_sq(&r, 0, sq), "b3");
    CHECK(sk_step_is(&r, "choice"));
    CHECK_EQ_INT(sk_holder(&r), 0);
    CHECK_EQ_INT(json_array_size(r.inputs), 6);
    /* An attack the same way: one input of the attacker's. */
    REQUIRE(sk_play(&r, 0, "{\"action\":\"attack\",\"unit\":0,\"target\":1}") ==
            0);
    CHECK_EQ_INT(sk_holder(&r), 1);
    REQUIRE(sk_play(&r, 1, PASS) == 0);
    json_t *dice = sk_vfield(&r, ENGINE_PUBLIC, "dice");
    CHECK(json_is_object(dice));
    json_decref(dice);
    CHECK(sk_step_is(&r, "choice"));
    CHECK_EQ_INT(sk_holder(&r), 0);
    done(&r);
}

/* An attack on a Bramble Wall: its "when it is attacked" trigger goes on
 * top of the attack. The declaration still passes for the attacker; the
 * trigger, on top and the wall's own, passes for its owner and resolves;
 * the attack below, the attacker's own, passes for the attacker again; so
 * the one input leaves the wall's owner holding priority over the attack. */
static void test_ed2_declaration_passes_past_triggers(void)
{
    sk_run r;
    REQUIRE(sk_start_with(&r, 1, ED2, "[\"iron_recruit\"]", "[\"c3\"]",
                          "[\"bramble_wall\"]", "[\"c4\"]") == 0);
    REQUIRE(sk_step_is(&r, "choice") && sk_holder(&r) == 0);
    REQUIRE(sk_play(&r, 0, "{\"action\":\"attack\",\"unit\":0,\"target\":1}") ==
            0);
    CHECK_EQ_INT(sk_unit(&r, 0, "life"), 2); /* the wall's shot resolved */
    CHECK(sk_step_is(&r, "exec"));
    CHECK_EQ_INT(sk_holder(&r), 1);
    CHECK_EQ_INT(sk_stack_n(&r), 1);
    CHECK(stack_kind_is(&r, 0, "attack"));
    REQUIRE(sk_play(&r, 1, PASS) == 0);
    CHECK(sk_step_is(&r, "choice"));
    done(&r);
}

/* A play refused: its error (the game is unchanged, nothing recorded). */
static engine_error refused(sk_run *r, int seat, const char *play)
{
    engine_error err = {0};
    json_t *p = json_loads(play, 0, NULL);
    engine_input in = {
        .seat = seat, .kind = ENGINE_PLAY, .window = sk_win(r), .payload = p};
    CHECK(engine_apply(r->g, &in, NULL, &err) != 0);
    json_decref(p);
    return err;
}

static void test_ed2_words_name_priority_seat_target_source(void)
{
    sk_run r;
    REQUIRE(ed2_choice(&r) == 0);
    engine_error e = refused(&r, 1, PASS);
    CHECK_EQ_INT(e.code, ENGINE_ECONFLICT);
    CHECK_EQ_STR(e.field, "window");
    CHECK(strstr(e.msg, "seat 1 does not hold priority") != NULL);
    CHECK(strstr(e.msg, "(seat 0 does)") != NULL);
    e = refused(&r, 0, "{\"action\":\"attack\",\"unit\":0,\"target\":2}");
    CHECK_EQ_STR(e.field, "target");
    CHECK_EQ_STR(e.msg, "Iron Recruit (c3) cannot attack Iron Recruit (a6)");
    e = refused(&r, 0, "{\"action\":\"attack\",\"unit\":1,\"target\":0}");
    CHECK_EQ_STR(e.field, "unit");
    CHECK_EQ_STR(e.msg, "Iron Recruit (c4) is not yours (seat 1's)");
    e = refused(&r, 0, "{\"action\":\"move\",\"unit\":9,\"to\":\"b3\"}");
    CHECK_EQ_STR(e.field, "unit");
    CHECK_EQ_STR(e.msg, "there is no creature 9 on the field");
    e = refused(&r, 0, "{\"action\":\"move\",\"unit\":0,\"to\":\"e1\"}");
    CHECK_EQ_STR(e.field, "to");
    CHECK_EQ_STR(e.msg, "Iron Recruit (c3) cannot reach e1 now");
    e = refused(&r, 0, "{\"action\":\"ability\",\"unit\":0,\"ability\":0}");
    CHECK_EQ_STR(e.field, "ability");
    CHECK_EQ_STR(e.msg, "Iron Recruit (c3) cannot use ability 0 now");
    /* The log counts seats as the API does (edition 2). */
    CHECK(
        sk_log_has(&r, ENGINE_PUBLIC, "Turn 1: seat 0 is the active player."));
    CHECK(sk_log_has(&r, ENGINE_PUBLIC, "Seat 0 musters 1 creatures"));
    CHECK(sk_log_has(&r, ENGINE_PUBLIC,
                     "Seat 0's squad costs less: seat 0 starts."));
    CHECK(!sk_log_has(&r, ENGINE_PUBLIC, "Player 1"));
    REQUIRE(sk_play(&r, 0, PASS) == 0);
    CHECK(sk_log_has(&r, ENGINE_PUBLIC, "Seat 0 hands the turn over."));
    done(&r);
    /* Edition 1 games keep their words (their logs replay as they were). */
    REQUIRE(to_choice(&r, "[\"iron_recruit\"]", "[\"c3\"]",
                      "[\"iron_recruit\",\"iron_recruit\"]",
                      "[\"c4\",\"a6\"]") == 0);
    CHECK(sk_log_has(&r, ENGINE_PUBLIC,
                     "Turn 1: Player 1 is the active player."));
    done(&r);
}

static void test_ed2_hold_priority(void)
{
    sk_run r;
    REQUIRE(ed2_choice(&r) == 0);
    json_t *h = prio_of(&r, 0, "hold");
    CHECK(json_is_false(h)); /* edition 2: nobody holds by default */
    json_decref(h);
    CHECK(sk_system(&r, 0, "{\"action\":\"respond\",\"hold\":\"yes\"}") ==
          ENGINE_EINVALID);
    REQUIRE(sk_system(&r, 0, "{\"action\":\"respond\",\"hold\":true}") == 0);
    h = prio_of(&r, 0, "hold");
    CHECK(json_is_true(h));
    json_decref(h);
    h = prio_of(&r, 1, "hold");
    CHECK(json_is_false(h)); /* the other seat's own setting */
    json_decref(h);
    h = prio_of(&r, ENGINE_PUBLIC, "hold");
    CHECK(h == NULL); /* a seat's setting, not public */
    json_decref(h);
    /* Holding, seat 0 keeps priority after its declaration ... */
    REQUIRE(sk_play(&r, 0, MOVE0) == 0);
    CHECK(sk_step_is(&r, "exec"));
    CHECK_EQ_INT(sk_holder(&r), 0);
    REQUIRE(sk_play(&r, 0, PASS) == 0);
    REQUIRE(sk_play(&r, 1, PASS) == 0);
    /* ... and gets it back on the empty stack after the resolution. */
    CHECK(sk_step_is(&r, "exec"));
    CHECK_EQ_INT(sk_holder(&r), 0);
    CHECK_EQ_INT(sk_stack_n(&r), 0);
    REQUIRE(sk_play(&r, 0, PASS) == 0); /* seat 1 does not hold */
    CHECK(sk_step_is(&r, "choice"));
    /* "hold" on a play sets it too, before the play passes or not. */
    REQUIRE(sk_play(&r, 0,
                    "{\"action\":\"attack\",\"unit\":0,\"target\":1,"
                    "\"hold\":false}") == 0);
    CHECK_EQ_INT(sk_holder(&r), 1);
    h = prio_of(&r, 0, "hold");
    CHECK(json_is_false(h));
    json_decref(h);
    CHECK(sk_play(&r, 1, "{\"action\":\"pass\",\"hold\":1}") ==
          ENGINE_EINVALID);
    done(&r);
}

static void test_ed2_opponent_holds_on_empty_stack(void)
{
    sk_run r;
    REQUIRE(ed2_choice(&r) == 0);
    REQUIRE(sk_system(&r, 1, "{\"action\":\"respond\",\"hold\":true}") == 0);
    REQUIRE(sk_play(&r, 0, MOVE0) == 0);
    CHECK_EQ_INT(sk_holder(&r), 1);
    REQUIRE(sk_play(&r, 1, PASS) == 0);
    /* Seat 0 passed on the empty stack; seat 1 holds and may act. */
    CHECK(sk_step_is(&r, "exec"));
    CHECK_EQ_INT(sk_holder(&r), 1);
    CHECK_EQ_INT(sk_stack_n(&r), 0);
    REQUIRE(sk_play(&r, 1, PASS) == 0);
    CHECK(sk_step_is(&r, "choice"));
    CHECK_EQ_INT(sk_holder(&r), 0);
    done(&r);
}

static void test_ed2_undo_with_consent(void)
{
    sk_run r;
    char sq[4];
    REQUIRE(ed2_choice(&r) == 0);
    CHECK(sk_system(&r, 0, "{\"action\":\"undo\"}") == ENGINE_ECONFLICT);
    REQUIRE(sk_play(&r, 0, MOVE0) == 0);
    CHECK(sk_system(&r, 1, "{\"action\":\"undo\"}") == ENGINE_ECONFLICT);
    /* Before the opponent acted: taken back at once. */
    REQUIRE(sk_system(&r, 0, "{\"action\":\"undo\"}") == 0);
    CHECK(sk_step_is(&r, "choice"));
    CHECK_EQ_INT(sk_holder(&r), 0);
    CHECK_EQ_INT(sk_stack_n(&r), 0);
    CHECK_EQ_INT(sk_unit_reserved(&r, 0, "move"), 0);
    /* After the opponent's pass resolved it: only with its consent. */
    REQUIRE(sk_play(&r, 0, MOVE0) == 0);
    REQUIRE(sk_play(&r, 1, PASS) == 0);
    CHECK_EQ_STR(sk_unit_sq(&r, 0, sq), "b3");
    REQUIRE(sk_system(&r, 0, "{\"action\":\"undo\"}") == 0);
    CHECK_EQ_STR(sk_unit_sq(&r, 0, sq), "b3"); /* asked, not yet undone */
    REQUIRE(sk_system(&r, 1, "{\"action\":\"undo_consent\"}") == 0);
    CHECK_EQ_STR(sk_unit_sq(&r, 0, sq), "c3");
    CHECK(sk_step_is(&r, "choice"));
    CHECK_EQ_INT(sk_unit(&r, 0, "move"), 1);
    /* An attack rolls dice when it resolves: that cannot be taken back. */
    REQUIRE(sk_play(&r, 0, "{\"action\":\"move\",\"unit\":0,\"to\":\"c2\"}") ==
            0);
    REQUIRE(sk_play(&r, 1, PASS) == 0);
    REQUIRE(sk_play(&r, 0, PASS) == 0); /* hand over */
    REQUIRE(sk_play(&r, 1, PASS) == 0);
    CHECK(sk_step_is(&r, "choice"));
    CHECK_EQ_INT(sk_holder(&r), 1);
    REQUIRE(sk_play(&r, 1, "{\"action\":\"move\",\"unit\":1,\"to\":\"c3\"}") ==
            0);
    REQUIRE(sk_play(&r, 0, PASS) == 0);
    REQUIRE(sk_play(&r, 1, "{\"action\":\"attack\",\"unit\":1,\"target\":0}") ==
            0);
    REQUIRE(sk_play(&r, 0, PASS) == 0);
    CHECK(sk_system(&r, 1, "{\"action\":\"undo\"}") == ENGINE_ECONFLICT);
    done(&r);

    /* Edition 1 has no undo, and says so. */
    REQUIRE(to_choice(&r, "[\"iron_recruit\"]", "[\"c3\"]",
                      "[\"iron_recruit\",\"iron_recruit\"]",
                      "[\"c4\",\"a6\"]") == 0);
    REQUIRE(sk_play(&r, 0, MOVE0) == 0);
    engine_error err = {0};
    json_t *p = json_pack("{s:s}", "action", "undo");
    engine_input in = {.seat = 0, .kind = ENGINE_SYSTEM, .payload = p};
    CHECK_EQ_INT(engine_apply(r.g, &in, NULL, &err), ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "action");
    CHECK_EQ_STR(err.msg, "Skirmish has no undo");
    json_decref(p);
    done(&r);
}

/* Undo: the turn limit's score ends the chance to take a declaration
 * back; the turn going over does not. Seat 1 walks in turn 2 and the turn
 * ends: with a limit of 3, turn 3 begins and the walk is still taken back
 * with seat 0's consent; with a limit of 2 the score ends the game, the
 * undo is refused and the result stands. */
static void test_ed2_turn_limit_score_ends_undo(void)
{
    for (int limit = 2; limit <= 3; limit++) {
        sk_run r;
        char opts[48], sq[4];
        snprintf(opts, sizeof opts, "{\"edition\":2,\"turn_limit\":%d}", limit);
        REQUIRE(sk_start_with(&r, 1, opts, "[\"iron_recruit\"]", "[\"c3\"]",
                              "[\"iron_recruit\",\"iron_recruit\"]",
                              "[\"c4\",\"a6\"]") == 0);
        for (int i = 0; i < 20 && sk_prio_int(&r, "turn") < 2; i++)
            REQUIRE(sk_pass(&r) == 0);
        REQUIRE(sk_prio_int(&r, "turn") == 2 && sk_step_is(&r, "choice") &&
                sk_holder(&r) == 1);
        REQUIRE(sk_play(&r, 1,
                        "{\"action\":\"move\",\"unit\":2,\"to\":\"b6\"}") == 0);
        for (int i = 0;
             i < 20 && !engine_is_over(r.g) && sk_prio_int(&r, "turn") == 2;
             i++)
            REQUIRE(sk_pass(&r) == 0);
        CHECK_EQ_STR(sk_unit_sq(&r, 2, sq), "b6");
        if (limit == 2) {
            CHECK(engine_is_over(r.g));
            CHECK_EQ_INT(sk_system(&r, 1, "{\"action\":\"undo\"}"),
                         ENGINE_EOVER);
            CHECK(engine_is_over(r.g));
            CHECK_EQ_STR(sk_unit_sq(&r, 2, sq), "b6");
        } else {
            CHECK(!engine_is_over(r.g));
            CHECK_EQ_INT(sk_prio_int(&r, "turn"), 3);
            REQUIRE(sk_system(&r, 1, "{\"action\":\"undo\"}") == 0);
            REQUIRE(sk_system(&r, 0, "{\"action\":\"undo_consent\"}") == 0);
            CHECK_EQ_STR(sk_unit_sq(&r, 2, sq), "a6");
            CHECK_EQ_INT(sk_prio_int(&r, "turn"), 2);
        }
        done(&r);
    }
}

static void test_ed2_my_turn_rule_set_in_own_turn_is_kept(void)
{
    sk_run r;
    REQUIRE(ed2_choice(&r) == 0);
    REQUIRE(sk_system(&r, 0,
                      "{\"action\":\"respond\",\"until\":\"my_turn\"}") == 0);
    /* In its own turn the rule neither passes (which would hand the turn
     * over) nor is dropped. */
    CHECK(sk_step_is(&r, "choice"));
    CHECK_EQ_INT(sk_holder(&r), 0);
    REQUIRE(sk_play(&r, 0, MOVE0) == 0);
    REQUIRE(sk_play(&r, 1, PASS) == 0);
    json_t *rule = prio_of(&r, 0, "my_rule");
    CHECK(json_is_object(rule));
    json_decref(rule);
    REQUIRE(sk_play(&r, 0, PASS) == 0); /* hand over */
    REQUIRE(sk_play(&r, 1, PASS) == 0);
    /* The opponent's turn: the rule passes for seat 0. */
    CHECK(sk_step_is(&r, "choice"));
    CHECK_EQ_INT(sk_holder(&r), 1);
    REQUIRE(sk_play(&r, 1, "{\"action\":\"move\",\"unit\":1,\"to\":\"c5\"}") ==
            0);
    CHECK(sk_step_is(&r, "choice")); /* seat 0 passed by its rule */
    CHECK_EQ_INT(sk_holder(&r), 1);
    REQUIRE(sk_play(&r, 1, PASS) == 0); /* hand over: seat 0's rule passes */
    /* Seat 0's next turn ends the rule. */
    CHECK(sk_step_is(&r, "choice"));
    CHECK_EQ_INT(sk_holder(&r), 0);
    CHECK_EQ_INT(sk_prio_int(&r, "turn"), 3);
    rule = prio_of(&r, 0, "my_rule");
    CHECK(json_is_null(rule));
    json_decref(rule);
    done(&r);
}

int main(void)
{
    engine_error err = {0};
    if (engine_init(&err) != 0) {
        fprintf(stderr, "engine_init: %s\n", err.msg);
        return 1;
    }
    RUN(test_410_2_main_phase_opens_in_choice);
    RUN(test_411_1_only_active_chooses);
    RUN(test_411_2_declare_movement);
    RUN(test_411_2_declare_action);
    RUN(test_411_2_hand_over);
    RUN(test_412_1_movement_pays_after_effect);
    RUN(test_412_1_action_closes_after_effect);
    RUN(test_412_1_tokens_pay_after_effect);
    RUN(test_412_1_life_pays_after_effect);
    RUN(test_412_2_back_to_choice);
    RUN(test_413_1_hand_over_then_end_phase);
    RUN(test_413_1_hand_over_with_a_response);
    RUN(test_413_2_gained_in_end_phase_works_next_time);
    RUN(test_413_3_auras_end_and_players_swap);
    RUN(test_501_1_declaration_names_source_targets_resources);
    RUN(test_501_1_reserve_counts_items_on_the_stack);
    RUN(test_501_2_group_targets_found_on_resolution);
    RUN(test_501_2_trigger_names_target_on_resolution);
    RUN(test_501_3_paid_even_when_target_is_gone);
    RUN(test_501_3_source_gone_pays_nothing);
    RUN(test_501_3_conditional_parry_and_counterspell);
    RUN(test_501_3_counterspell_cancels_and_source_pays);
    RUN(test_muster_and_deployment_are_secret);
    RUN(test_muster_and_deployment_orders_checked);
    RUN(test_replay_whole_game);
    RUN(test_ed2_declaration_in_one_click);
    RUN(test_ed2_declaration_passes_past_triggers);
    RUN(test_ed2_words_name_priority_seat_target_source);
    RUN(test_ed2_hold_priority);
    RUN(test_ed2_opponent_holds_on_empty_stack);
    RUN(test_ed2_undo_with_consent);
    RUN(test_ed2_turn_limit_score_ends_undo);
    RUN(test_ed2_my_turn_rule_set_in_own_turn_is_kept);
    return TEST_SUMMARY();
}

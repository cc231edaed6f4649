/*
 * test_skirmish_keywords.c - Skirmish's keywords and card abilities
 * (docs/games/skirmish.md, "Attacks and strikes", "Damage, healing,
 * poison and tokens" and "Ability vocabulary"), each on a constructed
 * first turn: the legal case, the refused case and the boundary.
 *
 * The expectations are written here from the rules doc: the creatures'
 * numbers are copied from the doc's card list, strikes are worked out by
 * this file's own reading of the strike rules, and who an ability may
 * target is worked out from this file's own distance (skirmish_expect.h),
 * never taken from the engine functions that decide legality (which the
 * bots use too). Units are numbered seat 0's squad first; seat 0 always
 * has the cheaper squad, so it starts.
 */
#include "tests/unit/skirmish/skirmish_expect.h"

/* ------------------------------------------------- attacks, strikes -- */

/* A creature as the doc's card list prints it, with what its abilities
 * do to an attack it is in. */
typedef struct fighter {
    const char *key;
    int life;
    int strike[3]; /* weak, medium, strong */
    int first_strike;
    int armour;
    int mod_attacking;   /* strike_mod when it attacks */
    int mod_defending;   /* strike_mod when it strikes back */
    int attacked_strike; /* "when it is attacked, +1 strike" */
    int attacked_armour; /* "when it is attacked, +1 armour" */
} fighter;

static const fighter iron_recruit = {
    "iron_recruit", 3, {1, 1, 2}, 0, 0, 0, 0, 0, 0};
static const fighter shieldbearer = {
    "shieldbearer", 4, {1, 1, 2}, 0, 1, 0, 0, 0, 0};
static const fighter flame_dancer = {
    "flame_dancer", 3, {1, 2, 3}, 1, 0, 0, 0, 0, 0};
static const fighter gate_duelist = {
    "gate_duelist", 3, {1, 2, 2}, 1, 0, 0, 0, 0, 0};
static const fighter bulwark_giant = {
    "bulwark_giant", 7, {2, 2, 3}, 0, 2, 0, 0, 0, 0};
static const fighter iron_lancer = {
    "iron_lancer", 4, {1, 3, 4}, 0, 0, 1, 0, 0, 0};
static const fighter magma_brute = {
    "magma_brute", 8, {2, 3, 5}, 0, 1, 0, -1, 0, 0};
static const fighter soot_runner = {
    "soot_runner", 1, {1, 1, 2}, 0, 0, 1, 0, 0, 0};
static const fighter briar_wolf = {
    "briar_wolf", 3, {1, 2, 3}, 0, 0, 0, 0, 0, 0};
static const fighter ember_tyrant = {
    "ember_tyrant", 8, {3, 4, 6}, 1, 0, 0, 0, 0, 0};
static const fighter fire_eater = {
    "fire_eater", 3, {1, 2, 2}, 0, 0, 0, 0, 1, 0};
static const fighter oathsworn_knight = {
    "oathsworn_knight", 5, {2, 3, 4}, 0, 1, 0, 0, 0, 1};

/* "1 or 2 is its weak strike, 3 or 4 its medium, 5 or 6 its strong". */
static int tier(int roll)
{
    return roll <= 2 ? 0 : roll <= 4 ? 1 : 2;
}

static int at_least_0(int n)
{
    return n < 0 ? 0 : n;
}

/* The attacker's strike: strength plus its attack modifiers minus the
 * target's armour (and the armour it gained when attacked). */
static int attack_strike(const fighter *a, const fighter *t, int roll)
{
    return at_least_0(a->strike[tier(roll)] + a->mod_attacking - t->armour -
                      t->attacked_armour);
}

/* The open target's strike back. */
static int back_strike(const fighter *t, const fighter *a, int roll)
{
    return at_least_0(t->strike[tier(roll)] + t->mod_defending +
                      t->attacked_strike - a->armour);
}

typedef struct duel {
    const fighter *attacker, *target;
    const char *target_sq; /* the attacker stands on c3 */
    int want_kill;         /* 1: some seed must show the target destroyed */
} duel;

static const duel duels[] = {
    {&iron_recruit, &iron_recruit, "c4", 0},
    {&iron_lancer, &shieldbearer, "d4", 0}, /* adjacent at a corner */
    {&briar_wolf, &magma_brute, "b4", 0},
    {&magma_brute, &iron_recruit, "c4", 0},
    {&flame_dancer, &briar_wolf, "c4", 1},   /* only the attacker: first */
    {&soot_runner, &ember_tyrant, "c4", 0},  /* only the target: first */
    {&flame_dancer, &gate_duelist, "c4", 1}, /* both: at the same time */
    {&iron_recruit, &bulwark_giant, "c4", 0},
    {&briar_wolf, &fire_eater, "c4", 0},
    {&iron_lancer, &oathsworn_knight, "c4", 0},
};

#define DUEL_SEEDS 10

/* Every duel over DUEL_SEEDS seeds: the dice read from the view, the
 * strikes and the lives after the attack worked out here. */
static void test_attack_strikes_follow_the_rules(void)
{
    for (size_t k = 0; k < sizeof duels / sizeof duels[0]; k++) {
        const duel *du = &duels[k];
        const fighter *a = du->attacker, *t = du->target;
        int kills = 0;
        for (uint64_t seed = 1; seed <= DUEL_SEEDS; seed++) {
            char c0[64], c1[128], s1[64];
            snprintf(c0, sizeof c0, "[\"%s\"]", a->key);
            snprintf(c1, sizeof c1, "[\"%s\",\"iron_marshal\"]", t->key);
            snprintf(s1, sizeof s1, "[\"%s\",\"a6\"]", du->target_sq);
            sk_run r;
            if (ex_to_choice(&r, seed, c0, "[\"c3\"]", c1, s1) != 0) {
                CHECKF(0, "%s on %s: no choice step", a->key, t->key);
                sk_free(&r);
                continue;
            }
            int rc = sk_play(&r, 0,
                             "{\"action\":\"attack\",\"unit\":0,\"target\":1}");
            CHECKF(rc == 0, "%s on %s (%s): attack refused", a->key, t->key,
                   du->target_sq);
            CHECK(ex_resolve_all(&r, 12) == 0);
            int rolls[2], strikes[2];
            ex_dice(&r, rolls, strikes);
            CHECKF(rolls[0] >= 1 && rolls[0] <= 6 && rolls[1] >= 1 &&
                       rolls[1] <= 6,
                   "%s on %s: rolls %d %d", a->key, t->key, rolls[0], rolls[1]);
            int sa = attack_strike(a, t, rolls[0]);
            int st = back_strike(t, a, rolls[1]);
            CHECKF(strikes[0] == sa && strikes[1] == st,
                   "%s on %s seed %d: strikes %d/%d, the rules say %d/%d",
                   a->key, t->key, (int)seed, strikes[0], strikes[1], sa, st);
            int la = a->life, lt = t->life;
            if (a->first_strike && !t->first_strike) {
                lt = at_least_0(lt - sa);
                if (lt > 0)
                    la = at_least_0(la - st);
            } else if (t->first_strike && !a->first_strike) {
                la = at_least_0(la - st);
                if (la > 0)
                    lt = at_least_0(lt - sa);
            } else {
                lt = at_least_0(lt - sa);
                la = at_least_0(la - st);
            }
            kills += lt == 0;
            CHECKF(sk_unit(&r, 0, "life") == la && sk_unit(&r, 1, "life") == lt,
                   "%s on %s seed %d (rolls %d, %d): lives %d/%d, the rules "
                   "say %d/%d",
                   a->key, t->key, (int)seed, rolls[0], rolls[1],
                   sk_unit(&r, 0, "life"), sk_unit(&r, 1, "life"), la, lt);
            CHECKF(sk_unit(&r, 1, "alive") == (lt > 0), "%s on %s: alive",
                   a->key, t->key);
            CHECK_EQ_INT(sk_unit(&r, 0, "closed"), la > 0); /* paid */
            CHECK(sk_replays(&r));
            sk_free(&r);
        }
        /* the boundary this duel is for must have come up */
        CHECKF(!du->want_kill || kills > 0,
               "%s on %s: no seed destroyed the target", a->key, t->key);
    }
}

/* A closed creature does not strike back; closed creatures stay closed
 * through the opponent's turn and open at the start of their own. */
static void test_closed_target_does_not_strike_back(void)
{
    sk_run r;
    const char *attack0 = "{\"action\":\"attack\",\"unit\":0,\"target\":1}";
    REQUIRE(ex_to_choice(&r, 2, "[\"shieldbearer\"]", "[\"c3\"]",
                         "[\"shieldbearer\",\"bulwark_giant\"]",
                         "[\"c4\",\"a6\"]") == 0);
    REQUIRE(sk_play(&r, 0, attack0) == 0);
    REQUIRE(ex_resolve_all(&r, 6) == 0);
    CHECK_EQ_INT(sk_unit(&r, 0, "closed"), 1);
    CHECK_EQ_INT(sk_unit(&r, 1, "closed"), 0); /* striking back is free */
    REQUIRE(sk_pass_until(&r, "start", 12) == 0);
    CHECK_EQ_INT(sk_prio_int(&r, "active"), 1);
    CHECK_EQ_INT(sk_unit(&r, 0, "closed"), 1); /* not its turn */
    REQUIRE(sk_pass_until(&r, "choice", 12) == 0);
    int life0 = sk_unit(&r, 0, "life"), life1 = sk_unit(&r, 1, "life");
    REQUIRE(sk_play(&r, 1, "{\"action\":\"attack\",\"unit\":1,\"target\":0}") ==
            0);
    REQUIRE(ex_resolve_all(&r, 6) == 0);
    int rolls[2], strikes[2];
    ex_dice(&r, rolls, strikes);
    CHECK_EQ_INT(rolls[1], 0);    /* no die for the closed target */
    CHECK_EQ_INT(strikes[1], -1); /* no strike back */
    CHECK_EQ_INT(sk_unit(&r, 1, "life"), life1);
    /* shieldbearer on shieldbearer: 1, 1 or 2, minus armour 1 */
    CHECK_EQ_INT(sk_unit(&r, 0, "life"), life0 - (rolls[0] >= 5 ? 1 : 0));
    CHECK(sk_log_has(&r, ENGINE_PUBLIC, "is closed and does not strike back"));
    REQUIRE(sk_pass_until(&r, "start", 12) == 0);
    CHECK_EQ_INT(sk_prio_int(&r, "active"), 0);
    CHECK_EQ_INT(sk_unit(&r, 0, "closed"), 0); /* its own turn: open */
    CHECK_EQ_INT(sk_unit(&r, 1, "closed"), 1);
    CHECK(sk_replays(&r));
    sk_free(&r);
}

/* A closed creature cannot move, attack or use a Close ability; its
 * sudden abilities of other costs still work. */
static void test_closed_creature_keeps_other_sudden_abilities(void)
{
    sk_run r;
    REQUIRE(ex_to_choice(&r, 1, "[\"blood_cantor\"]", "[\"c3\"]",
                         "[\"iron_recruit\",\"bulwark_giant\"]",
                         "[\"c4\",\"a6\"]") == 0);
    CHECK(ex_legal_count(&r, 0, "move", 0) > 0);
    REQUIRE(sk_play(&r, 0, "{\"action\":\"attack\",\"unit\":0,\"target\":1}") ==
            0);
    REQUIRE(ex_resolve_all(&r, 6) == 0);
    REQUIRE(sk_unit(&r, 0, "closed") == 1);
    /* exec, stack empty: the closed cantor (4 life less a strike back of
     * at most 2) still has its "Sudden. 1 life" bolt */
    CHECK(ex_legal_has(&r, 0, "ability", 0, 0, 1, 0));
    REQUIRE(sk_pass(&r) == 0 && sk_pass(&r) == 0);
    REQUIRE(sk_step_is(&r, "choice"));
    CHECK_EQ_INT(ex_legal_count(&r, 0, "move", 0), 0);
    CHECK_EQ_INT(ex_legal_count(&r, 0, "attack", 0), 0);
    CHECK(sk_play(&r, 0, "{\"action\":\"move\",\"unit\":0,\"to\":\"b3\"}") !=
          0);
    CHECK(sk_replays(&r));
    sk_free(&r);
}

/* --------------------------------------------- shots, spells, armour -- */

/* "Damage from a shot is lowered by armour; damage from a spell ignores
 * armour", never below 0. */
static void test_armour_lowers_shots_not_spells(void)
{
    sk_run r;
    /* seat 0: Bolt Sergeant (shot 1), Wild Huntress (shot 2), Ash
     * Acolyte (spell 1); seat 1: Shieldbearer (armour 1, life 4) */
    REQUIRE(ex_to_choice(
                &r, 1, "[\"bolt_sergeant\",\"wild_huntress\",\"ash_acolyte\"]",
                "[\"b3\",\"c3\",\"d3\"]",
                "[\"shieldbearer\",\"bulwark_giant\",\"bulwark_giant\"]",
                "[\"c4\",\"a6\",\"e6\"]") == 0);
    static const struct {
        int unit, life_after;
    } shots[] = {{0, 4}, {1, 3}, {2, 2}};
    for (size_t k = 0; k < 3; k++) {
        char play[96];
        snprintf(play, sizeof play,
                 "{\"action\":\"ability\",\"unit\":%d,\"ability\":0,"
                 "\"target\":3}",
                 shots[k].unit);
        REQUIRE(sk_play(&r, 0, play) == 0);
        REQUIRE(ex_resolve_all(&r, 6) == 0);
        CHECKF(sk_unit(&r, 3, "life") == shots[k].life_after,
               "after unit %d: life %d, the rules say %d", shots[k].unit,
               sk_unit(&r, 3, "life"), shots[k].life_after);
        CHECK_EQ_INT(sk_unit(&r, shots[k].unit, "closed"), 1);
        REQUIRE(sk_pass_until(&r, "choice", 4) == 0);
    }
    CHECK(sk_log_has(&r, ENGINE_PUBLIC, "Shieldbearer (c4) takes 0 damage."));
    CHECK(sk_replays(&r));
    sk_free(&r);
}

/* ------------------------------------------------- single targets -- */

/* A single-target ability's targets: the doc's rule (ally: one's own,
 * itself included; enemy: the opponent's; creature: any but itself;
 * "within N": distance 1..N, or 0..N for ally) against legal. */
typedef struct ranged {
    int unit;
    const char *key;
    int ability;
    char who; /* 'a' ally, 'e' enemy, 'c' creature */
    int range;
} ranged;

static void test_single_targets_by_kind_and_range(void)
{
    static const char *const sq0[] = {"c1", "c2", "b3", "e1"};
    static const char *const sq1[] = {"c4", "a5", "e6", "c6", "a6"};
    static const ranged abilities[] = {
        {0, "bolt_sergeant", 0, 'e', 3},
        {1, "field_surgeon", 0, 'a', 1},
        {2, "pyromancer", 0, 'c', 4},
        {3, "hex_binder", 0, 'e', 3},
    };
    sk_run r;
    REQUIRE(ex_to_choice(&r, 1,
                         "[\"bolt_sergeant\",\"field_surgeon\",\"pyromancer\","
                         "\"hex_binder\"]",
                         "[\"c1\",\"c2\",\"b3\",\"e1\"]",
                         "[\"iron_recruit\",\"iron_recruit\",\"bulwark_giant\","
                         "\"bulwark_giant\",\"shieldbearer\"]",
                         "[\"c4\",\"a5\",\"e6\",\"c6\",\"a6\"]") == 0);
    for (size_t k = 0; k < sizeof abilities / sizeof abilities[0]; k++) {
        const ranged *ab = &abilities[k];
        int want_n = 0;
        for (int t = 0; t < 9; t++) {
            int mine = t < 4;
            const char *from = sq0[ab->unit], *to = mine ? sq0[t] : sq1[t - 4];
            int d = ex_dist(from, to);
            int want = ab->who == 'a'   ? mine && d <= ab->range
                       : ab->who == 'e' ? !mine && d >= 1 && d <= ab->range
                                        : d >= 1 && d <= ab->range;
            want_n += want;
            int got =
                ex_legal_has(&r, 0, "ability", ab->unit, ab->ability, t, 0);
            CHECKF(got == want,
                   "%s (%s) on unit %d (%s, distance %d): legal %d, "
                   "the rule says %d",
                   ab->key, from, t, to, d, got, want);
            if (!want && t != ab->unit) { /* refused when played */
                char play[96];
                snprintf(play, sizeof play,
                         "{\"action\":\"ability\",\"unit\":%d,\"ability\":%d,"
                         "\"target\":%d}",
                         ab->unit, ab->ability, t);
                CHECKF(sk_play(&r, 0, play) != 0, "%s on unit %d: taken",
                       ab->key, t);
            }
        }
        CHECKF(ex_legal_count(&r, 0, "ability", ab->unit) == want_n,
               "%s: %d targets in legal, the rule says %d", ab->key,
               ex_legal_count(&r, 0, "ability", ab->unit), want_n);
    }
    CHECK_EQ_INT(sk_stack_n(&r), 0);
    sk_free(&r);
}

/* ------------------------------------------------- group targets -- */

/* "Each adjacent creature" hits one's own too, never the source; a shot
 * of a "dies" trigger counts armour; the creature destroyed by it has its
 * own trigger; each adjacent ally leaves out the source itself. */
static void test_group_targets_adjacent_creatures_and_allies(void)
{
    sk_run r;
    /* Ember Zealot's 2 to each adjacent enemy kills the Cinder Imp (2
     * life) on c4, whose "when it dies" deals 1 to each creature adjacent
     * to c4: the zealot (c3), the recruit (d4), the shieldbearer (b5,
     * armour 1), but not the far recruit (a1). */
    REQUIRE(ex_to_choice(&r, 1, "[\"ember_zealot\",\"iron_recruit\"]",
                         "[\"c3\",\"a1\"]",
                         "[\"cinder_imp\",\"iron_recruit\",\"shieldbearer\","
                         "\"bulwark_giant\"]",
                         "[\"c4\",\"d4\",\"b5\",\"e6\"]") == 0);
    REQUIRE(sk_play(&r, 0,
                    "{\"action\":\"ability\",\"unit\":0,\"ability\":0}") == 0);
    REQUIRE(ex_resolve_all(&r, 12) == 0);
    CHECK_EQ_INT(sk_unit(&r, 2, "alive"), 0); /* the imp: 2 - 2 */
    CHECK_EQ_INT(sk_unit(&r, 3, "life"), 0);  /* recruit d4: 3 - 2 - 1 */
    CHECK_EQ_INT(sk_unit(&r, 4, "life"), 4);  /* shieldbearer: 1 - 1 */
    CHECK_EQ_INT(sk_unit(&r, 5, "life"), 7);  /* not adjacent to c4 */
    CHECK_EQ_INT(sk_unit(&r, 0, "life"), 0);  /* 3 - 2 paid - 1 */
    CHECK_EQ_INT(sk_unit(&r, 1, "life"), 3);  /* a1: far away */
    CHECK(!engine_is_over(r.g));
    CHECK(sk_replays(&r));
    sk_free(&r);

    /* Banner Captain: each adjacent ally, not itself; the ally two
     * squares away gets nothing. */
    REQUIRE(ex_to_choice(
                &r, 1, "[\"banner_captain\",\"iron_recruit\",\"iron_recruit\"]",
                "[\"c2\",\"d3\",\"e2\"]",
                "[\"bulwark_giant\",\"bulwark_giant\"]",
                "[\"c5\",\"a6\"]") == 0);
    REQUIRE(sk_play(&r, 0,
                    "{\"action\":\"ability\",\"unit\":0,\"ability\":0}") == 0);
    REQUIRE(ex_resolve_all(&r, 6) == 0);
    json_t *units = sk_vfield(&r, ENGINE_PUBLIC, "units");
    int aura[3];
    for (int u = 0; u < 3; u++)
        aura[u] = (int)json_integer_value(json_object_get(
            json_object_get(json_array_get(units, (size_t)u), "auras"),
            "strike"));
    json_decref(units);
    CHECK_EQ_INT(aura[0], 0); /* the captain itself */
    CHECK_EQ_INT(aura[1], 1); /* d3: adjacent at a corner */
    CHECK_EQ_INT(aura[2], 0); /* e2: distance 2 */
    CHECK(sk_replays(&r));
    sk_free(&r);

    /* Root Shaman: each of your creatures, itself included, never above
     * its printed life. */
    REQUIRE(ex_to_choice(&r, 1, "[\"root_shaman\",\"iron_recruit\"]",
                         "[\"a1\",\"e3\"]",
                         "[\"blood_cantor\",\"bulwark_giant\"]",
                         "[\"d4\",\"a6\"]") == 0);
    REQUIRE(sk_play(&r, 0, "{\"action\":\"pass\"}") == 0); /* hand over */
    /* seat 1 answers the hand-over: 2 damage (a spell) to the recruit */
    REQUIRE(sk_play(&r, 1,
                    "{\"action\":\"ability\",\"unit\":2,\"ability\":0,"
                    "\"target\":1}") == 0);
    REQUIRE(ex_resolve_all(&r, 6) == 0);
    REQUIRE(sk_unit(&r, 1, "life") == 1);
    REQUIRE(sk_pass_until(&r, "choice", 40) == 0); /* seat 1's turn */
    REQUIRE(sk_pass_until(&r, "start", 40) == 0);
    REQUIRE(sk_pass_until(&r, "choice", 40) == 0); /* seat 0's again */
    REQUIRE(sk_prio_int(&r, "active") == 0);
    REQUIRE(sk_play(&r, 0,
                    "{\"action\":\"ability\",\"unit\":0,\"ability\":0}") == 0);
    REQUIRE(ex_resolve_all(&r, 6) == 0);
    CHECK_EQ_INT(sk_unit(&r, 1, "life"), 2); /* healed 1 */
    CHECK_EQ_INT(sk_unit(&r, 0, "life"), 4); /* full: stays 4 */
    CHECK_EQ_INT(sk_unit(&r, 2, "life"), 3); /* the enemy: 4 - 1 paid */
    CHECK(sk_replays(&r));
    sk_free(&r);
}

/* --------------------------------------------- poison and healing -- */

/* Poison works at the end of its creature's controller's turn, several
 * add up, healing ends it, and healing never goes above the printed
 * life. */
static void test_poison_adds_up_and_healing_ends_it(void)
{
    sk_run r;
    /* seat 0: Venom Adder (poison 1, within 1), Fen Witch (poison 2,
     * within 3); seat 1: a Bulwark Giant (7 life) and a Grove Tender
     * (heal 2, an ally within 2) */
    REQUIRE(ex_to_choice(&r, 1, "[\"venom_adder\",\"fen_witch\"]",
                         "[\"c3\",\"b2\"]",
                         "[\"bulwark_giant\",\"grove_tender\"]",
                         "[\"c4\",\"c5\"]") == 0);
    REQUIRE(sk_play(&r, 0,
                    "{\"action\":\"ability\",\"unit\":0,\"ability\":0,"
                    "\"target\":2}") == 0);
    REQUIRE(ex_resolve_all(&r, 6) == 0);
    REQUIRE(sk_pass_until(&r, "choice", 4) == 0);
    REQUIRE(sk_play(&r, 0,
                    "{\"action\":\"ability\",\"unit\":1,\"ability\":0,"
                    "\"target\":2}") == 0);
    REQUIRE(ex_resolve_all(&r, 6) == 0);
    CHECK_EQ_INT(sk_unit(&r, 2, "poison"), 3);
    /* the end of seat 0's turn: not the giant's controller's */
    REQUIRE(sk_pass_until(&r, "end", 12) == 0);
    CHECK_EQ_INT(sk_stack_n(&r), 0);
    REQUIRE(sk_pass_until(&r, "start", 12) == 0);
    CHECK_EQ_INT(sk_unit(&r, 2, "life"), 7);
    /* the end of seat 1's turn: one poison item of 3 */
    REQUIRE(sk_pass_until(&r, "end", 12) == 0);
    CHECK_EQ_INT(sk_stack_n(&r), 1);
    REQUIRE(sk_pass_until(&r, "start", 12) == 0);
    CHECK_EQ_INT(sk_unit(&r, 2, "life"), 4);
    /* seat 1's next turn: the tender heals it, which ends the poison */
    REQUIRE(sk_pass_until(&r, "end", 12) == 0); /* seat 0's turn 3 */
    REQUIRE(sk_pass_until(&r, "choice", 12) == 0);
    REQUIRE(sk_prio_int(&r, "active") == 1);
    const char *heal =
        "{\"action\":\"ability\",\"unit\":3,\"ability\":0,\"target\":2}";
    REQUIRE(sk_play(&r, 1, heal) == 0);
    REQUIRE(ex_resolve_all(&r, 6) == 0);
    CHECK_EQ_INT(sk_unit(&r, 2, "life"), 6);
    CHECK_EQ_INT(sk_unit(&r, 2, "poison"), 0);
    REQUIRE(sk_pass_until(&r, "end", 12) == 0);
    CHECK_EQ_INT(sk_stack_n(&r), 0); /* no poison left */
    REQUIRE(sk_pass_until(&r, "start", 12) == 0);
    CHECK_EQ_INT(sk_unit(&r, 2, "life"), 6);
    /* two turns on: 6 + 2 is above 7, so 7 */
    REQUIRE(sk_pass_until(&r, "end", 12) == 0);
    REQUIRE(sk_pass_until(&r, "choice", 12) == 0);
    REQUIRE(sk_prio_int(&r, "active") == 1);
    REQUIRE(sk_play(&r, 1, heal) == 0);
    REQUIRE(ex_resolve_all(&r, 6) == 0);
    CHECK_EQ_INT(sk_unit(&r, 2, "life"), 7);
    CHECK(sk_replays(&r));
    sk_free(&r);
}

/* ------------------------------------------------------ triggers -- */

/* A triggered single target names the attacker when it can (even when
 * the attacker is unit 0), else the first creature that can be named in
 * square order, else nothing. */
static void test_trigger_target_attacker_then_square_order(void)
{
    sk_run r;
    /* Thorn Sprite on c4: "when it is attacked, poison an enemy within
     * 1". Seat 0: the attacker (unit 0) on c3 and a recruit on b3, which
     * comes first in square order. */
    REQUIRE(ex_to_choice(&r, 1, "[\"iron_recruit\",\"iron_recruit\"]",
                         "[\"c3\",\"b3\"]",
                         "[\"thorn_sprite\",\"bulwark_giant\"]",
                         "[\"c4\",\"a6\"]") == 0);
    REQUIRE(sk_play(&r, 0, "{\"action\":\"attack\",\"unit\":0,\"target\":2}") ==
            0);
    REQUIRE(ex_resolve_all(&r, 6) == 0);
    CHECK_EQ_INT(sk_unit(&r, 0, "poison"), 1);
    CHECK_EQ_INT(sk_unit(&r, 1, "poison"), 0);
    CHECK(sk_replays(&r));
    sk_free(&r);

    /* The attacker is gone when the trigger resolves (seat 1's bolt on
     * top killed it): the first in square order, b3 before d3. */
    REQUIRE(ex_to_choice(
                &r, 1, "[\"soot_runner\",\"iron_recruit\",\"iron_recruit\"]",
                "[\"c3\",\"d3\",\"b3\"]", "[\"thorn_sprite\",\"blood_cantor\"]",
                "[\"c4\",\"c5\"]") == 0);
    REQUIRE(sk_play(&r, 0, "{\"action\":\"attack\",\"unit\":0,\"target\":3}") ==
            0);
    REQUIRE(sk_stack_n(&r) == 2);
    REQUIRE(sk_pass(&r) == 0); /* seat 0 */
    REQUIRE(sk_play(&r, 1,
                    "{\"action\":\"ability\",\"unit\":4,\"ability\":0,"
                    "\"target\":0}") == 0);
    REQUIRE(sk_pass(&r) == 0 && sk_pass(&r) == 0); /* the bolt */
    CHECK_EQ_INT(sk_unit(&r, 0, "alive"), 0);
    REQUIRE(ex_resolve_all(&r, 6) == 0);
    CHECK_EQ_INT(sk_unit(&r, 2, "poison"), 1); /* b3 */
    CHECK_EQ_INT(sk_unit(&r, 1, "poison"), 0); /* d3 */
    CHECK(sk_replays(&r));
    sk_free(&r);

    /* With nobody in range the trigger finds no target. */
    REQUIRE(ex_to_choice(
                &r, 1, "[\"soot_runner\",\"iron_recruit\"]", "[\"c3\",\"a1\"]",
                "[\"thorn_sprite\",\"blood_cantor\"]", "[\"c4\",\"c5\"]") == 0);
    REQUIRE(sk_play(&r, 0, "{\"action\":\"attack\",\"unit\":0,\"target\":2}") ==
            0);
    REQUIRE(sk_pass(&r) == 0);
    REQUIRE(sk_play(&r, 1,
                    "{\"action\":\"ability\",\"unit\":3,\"ability\":0,"
                    "\"target\":0}") == 0);
    REQUIRE(ex_resolve_all(&r, 8) == 0);
    CHECK_EQ_INT(sk_unit(&r, 1, "poison"), 0);
    CHECK(sk_log_has(&r, ENGINE_PUBLIC, "finds no target"));
    CHECK(sk_replays(&r));
    sk_free(&r);
}

/* Triggers that happen together: the active player's go on the stack
 * first, the inactive player's on top; each player's own in square
 * order. "When it enters" works in the first turn only, for both
 * squads; "at the start of your turn" in each of its controller's. */
static void test_triggers_stack_order_and_first_turn_enters(void)
{
    sk_run r;
    REQUIRE(sk_start(&r, 1, "[\"eagle_lord\",\"drillmaster\"]",
                     "[\"c2\",\"a1\"]", "[\"eagle_lord\",\"bulwark_giant\"]",
                     "[\"c5\",\"a6\"]") == 0);
    json_t *st = sk_vfield(&r, ENGINE_PUBLIC, "stack");
    REQUIRE(json_array_size(st) == 3);
    static const char *const want[] = {"drillmaster#1", "eagle_lord#0",
                                       "eagle_lord#2"}; /* bottom to top */
    for (size_t i = 0; i < 3; i++)
        CHECK_EQ_STR(
            json_string_value(json_object_get(json_array_get(st, i), "source")),
            want[i]);
    json_decref(st);
    REQUIRE(ex_resolve_all(&r, 10) == 0);
    json_t *units = sk_vfield(&r, ENGINE_PUBLIC, "units");
    int aura[4];
    for (int u = 0; u < 4; u++)
        aura[u] = (int)json_integer_value(json_object_get(
            json_object_get(json_array_get(units, (size_t)u), "auras"),
            "strike"));
    json_decref(units);
    CHECK_EQ_INT(aura[0], 1); /* eagle lord: its own enters */
    CHECK_EQ_INT(aura[1], 1); /* drillmaster: the eagle lord's, not its own */
    CHECK_EQ_INT(aura[2], 1);
    CHECK_EQ_INT(aura[3], 1);
    /* seat 0's next turn: only the drillmaster's start of turn */
    REQUIRE(sk_pass_until(&r, "end", 20) == 0);
    REQUIRE(sk_pass_until(&r, "start", 20) == 0);
    CHECK_EQ_INT(sk_stack_n(&r), 0); /* seat 1's turn: no start triggers */
    REQUIRE(sk_pass_until(&r, "end", 20) == 0);
    REQUIRE(sk_pass_until(&r, "start", 20) == 0);
    REQUIRE(sk_prio_int(&r, "active") == 0);
    st = sk_vfield(&r, ENGINE_PUBLIC, "stack");
    CHECK_EQ_INT(json_array_size(st), 1);
    CHECK_EQ_STR(
        json_string_value(json_object_get(json_array_get(st, 0), "source")),
        "drillmaster#1");
    json_decref(st);
    CHECK(sk_replays(&r));
    sk_free(&r);
}

/* Regeneration heals at the start of its controller's turn, never above
 * the printed life; "+1 movement" at the start of the turn adds to the
 * points it got back. */
static void test_regeneration_and_start_of_turn_movement(void)
{
    sk_run r;
    /* seat 0's Wild Huntress shoots the Mossback Boar (regeneration 1,
     * life 4) for 2; seat 1's Pack Mother gives the adjacent wolf +1. */
    REQUIRE(ex_to_choice(&r, 1, "[\"wild_huntress\"]", "[\"c3\"]",
                         "[\"mossback_boar\",\"pack_mother\",\"briar_wolf\"]",
                         "[\"c5\",\"a5\",\"a4\"]") == 0);
    REQUIRE(sk_play(&r, 0,
                    "{\"action\":\"ability\",\"unit\":0,\"ability\":0,"
                    "\"target\":1}") == 0);
    REQUIRE(ex_resolve_all(&r, 6) == 0);
    CHECK_EQ_INT(sk_unit(&r, 1, "life"), 2);
    REQUIRE(sk_pass_until(&r, "start", 20) == 0);
    REQUIRE(sk_prio_int(&r, "active") == 1);
    REQUIRE(ex_resolve_all(&r, 10) == 0);
    CHECK_EQ_INT(sk_unit(&r, 1, "life"), 3);
    CHECK_EQ_INT(sk_unit(&r, 3, "move"), 4); /* 3 back, +1 */
    CHECK_EQ_INT(sk_unit(&r, 2, "move"), 2); /* not adjacent to itself */
    REQUIRE(sk_pass_until(&r, "choice", 10) == 0);
    /* the wolf (a4) may now walk 4 squares: a4 -> b4 -> b5 -> b6 -> c6 */
    CHECK(ex_legal_has(&r, 1, "move", 3, -1, -1, 0));
    CHECK(sk_play(&r, 1, "{\"action\":\"move\",\"unit\":3,\"to\":\"c6\"}") ==
          0);
    REQUIRE(ex_resolve_all(&r, 6) == 0);
    char sq[4];
    CHECK_EQ_STR(sk_unit_sq(&r, 3, sq), "c6");
    CHECK_EQ_INT(sk_unit(&r, 3, "move"), 0);
    /* two more of seat 1's turns (4 and 6): 3 + 1 + 1 is above 4 */
    REQUIRE(sk_pass_until(&r, "end", 20) == 0);
    for (int turn = 0; turn < 3; turn++) { /* turns 3, 4 and 5 */
        REQUIRE(sk_pass_until(&r, "start", 20) == 0);
        REQUIRE(sk_pass_until(&r, "end", 20) == 0);
    }
    REQUIRE(sk_pass_until(&r, "start", 20) == 0);
    REQUIRE(sk_prio_int(&r, "active") == 1);
    REQUIRE(ex_resolve_all(&r, 10) == 0);
    CHECK_EQ_INT(sk_unit(&r, 1, "life"), 4); /* 3 + 1 + 1 capped at 4 */
    CHECK(sk_replays(&r));
    sk_free(&r);
}

/* Tokens: a creature enters with its printed tokens, gains them from its
 * abilities, and never holds more than 9 (ours). */
static void test_tokens_enter_and_stop_at_nine(void)
{
    sk_run r;
    REQUIRE(ex_to_choice(&r, 1, "[\"siege_engineer\"]", "[\"a1\"]",
                         "[\"quartermaster\",\"bulwark_giant\"]",
                         "[\"e6\",\"a6\"]") == 0);
    CHECK_EQ_INT(sk_unit(&r, 0, "tokens"), 1);
    CHECK_EQ_INT(sk_unit(&r, 1, "tokens"), 2);
    CHECK_EQ_INT(sk_unit(&r, 2, "tokens"), 0);
    /* +1 at the end of each of its controller's turns: 1 + 8 = 9 after
     * its eighth, and still 9 after its ninth */
    for (int own = 1; own <= 9; own++) {
        REQUIRE(sk_pass_until(&r, "end", 30) == 0);
        REQUIRE(sk_prio_int(&r, "active") == 0);
        REQUIRE(sk_pass_until(&r, "start", 30) == 0);
        int want = 1 + own < 9 ? 1 + own : 9;
        CHECKF(sk_unit(&r, 0, "tokens") == want,
               "after its turn %d: %d tokens, the rules say %d", own,
               sk_unit(&r, 0, "tokens"), want);
        REQUIRE(sk_pass_until(&r, "end", 30) == 0); /* seat 1's turn */
        REQUIRE(sk_pass_until(&r, "start", 30) == 0);
    }
    CHECK(sk_replays(&r));
    sk_free(&r);
}

/* --------------------------------------------- conditional abilities -- */

/* Parry: one's own attacked creature, or an ally within range for Sky
 * Warden; each parry reserves its movement point, so Gale Dancer (3
 * movement) parries three times and not a fourth; the parries add up. */
static void test_parry_targets_and_reserved_movement(void)
{
    sk_run r;
    /* seat 1: Sky Warden on d6, allies on a4 (distance 3) and b4 (2) */
    REQUIRE(ex_to_choice(&r, 1, "[\"iron_recruit\",\"iron_recruit\"]",
                         "[\"a3\",\"b2\"]",
                         "[\"sky_warden\",\"iron_recruit\",\"iron_recruit\"]",
                         "[\"d6\",\"a4\",\"b4\"]") == 0);
    REQUIRE(sk_play(&r, 0, "{\"action\":\"attack\",\"unit\":0,\"target\":3}") ==
            0);
    unsigned attack = ex_item_id(&r, 0);
    REQUIRE(sk_pass(&r) == 0);
    CHECK_EQ_INT(ex_dist("d6", "a4"), 3);
    CHECK(!ex_legal_has(&r, 1, "ability", 2, 1, -1, attack)); /* 3 > 2 */
    REQUIRE(ex_resolve_all(&r, 6) == 0);
    REQUIRE(sk_pass_until(&r, "choice", 4) == 0);
    REQUIRE(sk_play(&r, 0, "{\"action\":\"move\",\"unit\":1,\"to\":\"b3\"}") ==
            0);
    REQUIRE(ex_resolve_all(&r, 6) == 0);
    REQUIRE(sk_pass_until(&r, "choice", 4) == 0);
    REQUIRE(sk_play(&r, 0, "{\"action\":\"attack\",\"unit\":1,\"target\":4}") ==
            0);
    attack = ex_item_id(&r, 0);
    REQUIRE(sk_pass(&r) == 0);
    CHECK_EQ_INT(ex_dist("d6", "b4"), 2);
    CHECK(ex_legal_has(&r, 1, "ability", 2, 1, -1, attack));
    CHECK(sk_replays(&r));
    sk_free(&r);

    /* Gale Dancer: "Sudden. 1 movement: parry 2" with 3 movement */
    REQUIRE(ex_to_choice(&r, 1, "[\"iron_lancer\"]", "[\"c3\"]",
                         "[\"gale_dancer\",\"bulwark_giant\"]",
                         "[\"c4\",\"a6\"]") == 0);
    REQUIRE(sk_play(&r, 0, "{\"action\":\"attack\",\"unit\":0,\"target\":1}") ==
            0);
    attack = ex_item_id(&r, 0);
    REQUIRE(sk_pass(&r) == 0);
    char parry[96];
    snprintf(parry, sizeof parry,
             "{\"action\":\"ability\",\"unit\":1,\"ability\":0,\"item\":%u}",
             attack);
    for (int k = 0; k < 3; k++) {
        CHECKF(ex_legal_has(&r, 1, "ability", 1, 0, -1, attack),
               "parry %d not legal", k + 1);
        CHECKF(sk_play(&r, 1, parry) == 0, "parry %d refused", k + 1);
    }
    CHECK_EQ_INT(sk_unit_reserved(&r, 1, "move"), 3);
    CHECK(!ex_legal_has(&r, 1, "ability", 1, 0, -1, attack));
    CHECK(sk_play(&r, 1, parry) != 0); /* a fourth point is not there */
    REQUIRE(ex_resolve_all(&r, 20) == 0);
    int rolls[2], strikes[2];
    ex_dice(&r, rolls, strikes);
    /* Iron Lancer 1/3/4 +1 attacking, minus 6: never above 0 */
    CHECK_EQ_INT(strikes[0], 0);
    CHECK_EQ_INT(sk_unit(&r, 1, "life"), 3);
    CHECK_EQ_INT(sk_unit(&r, 1, "move"), 0); /* paid 3 */
    CHECK(sk_replays(&r));
    sk_free(&r);
}

/* Reserve (ours): tokens an item on the stack will spend cannot be
 * declared again. Wind Monk ("1 token: parry 1") enters with 2 tokens: it
 * parries an attack on it twice, the second with its last free token,
 * and not a third time; the parries paid, it has none left. */
static void test_reserved_tokens_not_declared_twice(void)
{
    sk_run r;
    REQUIRE(ex_to_choice(&r, 1, "[\"iron_lancer\"]", "[\"c3\"]",
                         "[\"wind_monk\",\"bulwark_giant\"]",
                         "[\"c4\",\"a6\"]") == 0);
    CHECK_EQ_INT(sk_unit(&r, 1, "tokens"), 2);
    REQUIRE(sk_play(&r, 0, "{\"action\":\"attack\",\"unit\":0,\"target\":1}") ==
            0);
    unsigned attack = ex_item_id(&r, 0);
    REQUIRE(sk_pass(&r) == 0);
    char parry[96];
    snprintf(parry, sizeof parry,
             "{\"action\":\"ability\",\"unit\":1,\"ability\":1,\"item\":%u}",
             attack);
    for (int k = 0; k < 2; k++) {
        CHECKF(ex_legal_has(&r, 1, "ability", 1, 1, -1, attack),
               "parry %d not legal", k + 1);
        CHECKF(sk_play(&r, 1, parry) == 0, "parry %d refused", k + 1);
        CHECK_EQ_INT(sk_unit_reserved(&r, 1, "tokens"), k + 1);
    }
    CHECK(!ex_legal_has(&r, 1, "ability", 1, 1, -1, attack));
    CHECK(sk_play(&r, 1, parry) != 0); /* both tokens are reserved */
    CHECK_EQ_INT(sk_stack_n(&r), 3);
    CHECK_EQ_INT(sk_unit(&r, 1, "tokens"), 2); /* paid on resolution */
    REQUIRE(ex_resolve_all(&r, 20) == 0);
    CHECK_EQ_INT(sk_unit(&r, 1, "tokens"), 0);
    CHECK_EQ_INT(sk_unit_reserved(&r, 1, "tokens"), 0);
    CHECK(sk_replays(&r));
    sk_free(&r);
}

/* Counterspell names only a spell on the stack; a creature whose close
 * is already reserved cannot use its Close counterspell. */
static void test_counterspell_needs_a_spell_and_an_unreserved_close(void)
{
    sk_run r;
    REQUIRE(ex_to_choice(&r, 1, "[\"ash_warlock\",\"iron_recruit\"]",
                         "[\"c3\",\"b3\"]",
                         "[\"cloud_seer\",\"iron_recruit\",\"shieldbearer\"]",
                         "[\"c5\",\"b4\",\"a6\"]") == 0);
    /* an attack is no spell */
    REQUIRE(sk_play(&r, 0, "{\"action\":\"attack\",\"unit\":1,\"target\":3}") ==
            0);
    REQUIRE(sk_pass(&r) == 0);
    CHECK_EQ_INT(ex_legal_count(&r, 1, "ability", 2), 0);
    REQUIRE(ex_resolve_all(&r, 6) == 0);
    REQUIRE(sk_pass_until(&r, "choice", 4) == 0);
    if (sk_unit(&r, 3, "alive") != 1) { /* cannot happen: 3 life, 2 max */
        CHECK(0);
        sk_free(&r);
        return;
    }
    /* the warlock's poison is a spell; its own counterspell also closes
     * it, and that close is reserved */
    REQUIRE(sk_play(&r, 0,
                    "{\"action\":\"ability\",\"unit\":0,\"ability\":1,"
                    "\"target\":3}") == 0);
    unsigned spell = ex_item_id(&r, 0);
    CHECK_EQ_INT(sk_unit_reserved(&r, 0, "close"), 1);
    CHECK_EQ_INT(ex_legal_count(&r, 0, "ability", 0), 0);
    REQUIRE(sk_pass(&r) == 0);
    CHECK(ex_legal_has(&r, 1, "ability", 2, 0, -1, spell));
    CHECK_EQ_INT(ex_legal_count(&r, 1, "ability", 2), 1);
    CHECK(sk_replays(&r));
    sk_free(&r);
}

/* ----------------------------------------- payment after the effect -- */

/* An item whose source has left the field still resolves, its range
 * counted from where the source last stood, and pays nothing; a life
 * cost can destroy its source when it is paid. */
static void test_life_payment_destroys_and_source_gone_still_resolves(void)
{
    sk_run r;
    /* seat 0's Blood Cantor (4 life) declares three bolts (2, a spell)
     * at the Bulwark Giant; seat 1's cantor answers with one at it. */
    REQUIRE(sk_start(&r, 1, "[\"blood_cantor\",\"iron_recruit\"]",
                     "[\"c3\",\"a1\"]", "[\"blood_cantor\",\"bulwark_giant\"]",
                     "[\"d5\",\"c5\"]") == 0);
    const char *bolt =
        "{\"action\":\"ability\",\"unit\":0,\"ability\":0,\"target\":3}";
    for (int k = 0; k < 3; k++)
        REQUIRE(sk_play(&r, 0, bolt) == 0);
    REQUIRE(sk_pass(&r) == 0);
    REQUIRE(sk_play(&r, 1,
                    "{\"action\":\"ability\",\"unit\":2,\"ability\":0,"
                    "\"target\":0}") == 0);
    REQUIRE(sk_pass(&r) == 0 && sk_pass(&r) == 0); /* seat 1's bolt */
    CHECK_EQ_INT(sk_unit(&r, 0, "life"), 2);
    CHECK_EQ_INT(sk_unit(&r, 2, "life"), 3);       /* paid its life */
    REQUIRE(sk_pass(&r) == 0 && sk_pass(&r) == 0); /* bolt 3 */
    CHECK_EQ_INT(sk_unit(&r, 3, "life"), 5);
    CHECK_EQ_INT(sk_unit(&r, 0, "life"), 1);
    REQUIRE(sk_pass(&r) == 0 && sk_pass(&r) == 0); /* bolt 2: 1 - 1 */
    CHECK_EQ_INT(sk_unit(&r, 3, "life"), 3);
    CHECK_EQ_INT(sk_unit(&r, 0, "alive"), 0);
    REQUIRE(sk_pass(&r) == 0 && sk_pass(&r) == 0); /* bolt 1: source gone */
    CHECK_EQ_INT(sk_unit(&r, 3, "life"), 1);       /* still within 3 of c3 */
    CHECK_EQ_INT(sk_stack_n(&r), 0);
    CHECK(!engine_is_over(r.g));
    CHECK_EQ_INT(sk_unit_reserved(&r, 0, "life"), 0);
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
    RUN(test_attack_strikes_follow_the_rules);
    RUN(test_closed_target_does_not_strike_back);
    RUN(test_closed_creature_keeps_other_sudden_abilities);
    RUN(test_armour_lowers_shots_not_spells);
    RUN(test_single_targets_by_kind_and_range);
    RUN(test_group_targets_adjacent_creatures_and_allies);
    RUN(test_poison_adds_up_and_healing_ends_it);
    RUN(test_trigger_target_attacker_then_square_order);
    RUN(test_triggers_stack_order_and_first_turn_enters);
    RUN(test_regeneration_and_start_of_turn_movement);
    RUN(test_tokens_enter_and_stop_at_nine);
    RUN(test_parry_targets_and_reserved_movement);
    RUN(test_reserved_tokens_not_declared_twice);
    RUN(test_counterspell_needs_a_spell_and_an_unreserved_close);
    RUN(test_life_payment_destroys_and_source_gone_still_resolves);
    return TEST_SUMMARY();
}

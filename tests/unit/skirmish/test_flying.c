/*
 * test_flying.c - Skirmish's flying keyword (docs/games/skirmish.md,
 * "Attacks and strikes"): a creature without flying cannot attack a
 * creature with flying; a flyer may attack a flyer or a ground creature, and
 * ground may attack ground. Each case is a constructed first turn, two
 * adjacent creatures, and its expectation is written here from the rule,
 * not taken from the engine's legal-move list (which the bots use): the
 * declaration is refused or taken, the game unchanged when refused, and the
 * legal list is then checked to agree with the rule.
 */
#include "tests/unit/skirmish/skirmish_test.h"

#define PASS "{\"action\":\"pass\"}"

typedef struct flying_case {
    const char *name;
    const char *attacker; /* seat 0's one creature, on c3 */
    int attacker_flies;
    const char *target; /* seat 1's first creature, on c4 */
    int target_flies;
} flying_case;

/* Seat 0's squad is the cheaper, so seat 0 starts (and attacks first). */
static const flying_case cases[] = {
    {"ground attacks flyer", "iron_recruit", 0, "hawk_rider", 1},
    {"ground attacks cheap flyer", "iron_recruit", 0, "kite_scout", 1},
    {"flyer attacks ground", "zephyr_sprite", 1, "iron_recruit", 0},
    {"flyer attacks flyer", "zephyr_sprite", 1, "hawk_rider", 1},
    {"ground attacks ground", "iron_recruit", 0, "iron_recruit", 0},
};

/* The rule itself: may a creature attack an adjacent enemy? */
static int may_attack(int attacker_flies, int target_flies)
{
    return attacker_flies || !target_flies;
}

/* Whether seat 0's legal plays hold an attack by unit 0 on unit 1. */
static int legal_lists_attack(const sk_run *r)
{
    json_t *legal = engine_legal(r->g, 0);
    json_t *wins = json_object_get(legal, "windows");
    int found = 0;
    size_t i, j;
    json_t *w, *c;
    json_array_foreach(wins, i, w)
    {
        json_array_foreach(json_object_get(w, "choices"), j, c)
        {
            const char *a = json_string_value(json_object_get(c, "action"));
            if (a && strcmp(a, "attack") == 0 &&
                json_integer_value(json_object_get(c, "unit")) == 0 &&
                json_integer_value(json_object_get(c, "target")) == 1)
                found = 1;
        }
    }
    json_decref(legal);
    return found;
}

/* Whether unit id's design has the flying ability in the view's card data
 * (a check that the case list above says what the data says). */
static int unit_flies(const sk_run *r, int id)
{
    json_t *units = sk_vfield(r, ENGINE_PUBLIC, "units");
    json_t *cards = sk_vfield(r, ENGINE_PUBLIC, "cards");
    const char *key = json_string_value(
        json_object_get(json_array_get(units, (size_t)id), "key"));
    json_t *abilities =
        json_object_get(json_object_get(cards, key ? key : ""), "abilities");
    int flies = 0;
    size_t i;
    json_t *a;
    json_array_foreach(abilities, i, a)
    {
        const char *kind = json_string_value(json_object_get(a, "kind"));
        flies |= kind && strcmp(kind, "flying") == 0;
    }
    json_decref(units);
    json_decref(cards);
    return flies;
}

static void test_flying_attacks(void)
{
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const flying_case *fc = &cases[k];
        char c0[64], c1[96];
        snprintf(c0, sizeof c0, "[\"%s\"]", fc->attacker);
        snprintf(c1, sizeof c1, "[\"%s\",\"iron_recruit\"]", fc->target);
        sk_run r;
        if (sk_start(&r, 3 + k, c0, "[\"c3\"]", c1, "[\"c4\",\"a6\"]") != 0 ||
            sk_pass_until(&r, "choice", 10) != 0) {
            CHECKF(0, "%s: could not reach the choice step", fc->name);
            sk_free(&r);
            continue;
        }
        char sq[4];
        CHECKF(sk_holder(&r) == 0, "%s: seat 0 holds priority", fc->name);
        CHECKF(strcmp(sk_unit_sq(&r, 0, sq), "c3") == 0 &&
                   strcmp(sk_unit_sq(&r, 1, sq), "c4") == 0,
               "%s: the two stand adjacent", fc->name);
        CHECKF(unit_flies(&r, 0) == fc->attacker_flies,
               "%s: the attacker's flying", fc->name);
        CHECKF(unit_flies(&r, 1) == fc->target_flies, "%s: the target's flying",
               fc->name);
        uint8_t before[ENGINE_HASH_BYTES], after[ENGINE_HASH_BYTES];
        engine_hash(r.g, before);
        int want = may_attack(fc->attacker_flies, fc->target_flies);
        int rc =
            sk_play(&r, 0, "{\"action\":\"attack\",\"unit\":0,\"target\":1}");
        if (want) {
            CHECKF(rc == 0, "%s: refused (%d)", fc->name, rc);
            CHECKF(sk_stack_n(&r) == 1, "%s: the attack is on the stack",
                   fc->name);
        } else {
            CHECKF(rc != 0, "%s: taken", fc->name);
            engine_hash(r.g, after);
            CHECKF(memcmp(before, after, sizeof before) == 0,
                   "%s: a refused attack changed the game", fc->name);
            CHECKF(sk_stack_n(&r) == 0, "%s: nothing on the stack", fc->name);
            CHECKF(sk_holder(&r) == 0, "%s: seat 0 still to choose", fc->name);
        }
        sk_free(&r);
        /* the bots' source agrees with the rule, in a fresh copy */
        if (sk_start(&r, 3 + k, c0, "[\"c3\"]", c1, "[\"c4\",\"a6\"]") == 0 &&
            sk_pass_until(&r, "choice", 10) == 0)
            CHECKF(legal_lists_attack(&r) == want,
                   "%s: legal lists the attack: %d, the rule says %d", fc->name,
                   legal_lists_attack(&r), want);
        else
            CHECKF(0, "%s: could not reach the choice step again", fc->name);
        sk_free(&r);
    }
}

/* A flyer's attack on ground resolves: both are still adjacent and the
 * attack happens (dice rolled), so "may attack" is not only a declaration. */
static void test_flyer_attack_resolves(void)
{
    sk_run r;
    REQUIRE(sk_start(&r, 11, "[\"zephyr_sprite\"]", "[\"c3\"]",
                     "[\"iron_recruit\",\"iron_recruit\"]",
                     "[\"c4\",\"a6\"]") == 0);
    REQUIRE(sk_pass_until(&r, "choice", 10) == 0);
    REQUIRE(sk_play(&r, 0, "{\"action\":\"attack\",\"unit\":0,\"target\":1}") ==
            0);
    REQUIRE(sk_pass(&r) == 0 && sk_pass(&r) == 0);
    json_t *dice = sk_vfield(&r, ENGINE_PUBLIC, "dice");
    CHECK(json_array_size(json_object_get(dice, "rolls")) >= 1);
    json_decref(dice);
    CHECK(sk_replays(&r));
    sk_free(&r);
}

int main(void)
{
    (void)sk_log_has; /* helpers of skirmish_test.h this file does not need */
    (void)sk_unit_reserved;
    (void)sk_unit;
    engine_error err;
    if (engine_init(&err) != 0) {
        fprintf(stderr, "engine_init: %s\n", err.msg);
        return 1;
    }
    RUN(test_flying_attacks);
    RUN(test_flyer_attack_resolves);
    return TEST_SUMMARY();
}

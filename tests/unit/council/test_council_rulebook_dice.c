/*
 * test_council_rulebook_dice.c - more rules of docs/games/council.md with
 * a focused test on a constructed state (test_council_rulebook.c holds
 * the first ones): the Raider Nest's fight, Hostile Natives and ground
 * combat, Lucky Shot's reroll, the combat bonuses (Korrun, Dravik, Plasma
 * Batteries, Drop Harness, Gene Troopers), Ion Drive and Cargo Lattice at
 * resolution, the Mine Field's loss, a production refused for want of
 * resources, the council's vote cards (for one council only), Safe House
 * and Iron Escort, Motion to Reconsider, and the Forum holder's draw.
 *
 * Dice: a combat is run on a game's RNG set to a known stream, and the
 * test reads the same stream itself to know every die before the fight
 * (1 + a number below 10, in the order the rules roll them: the attacker's
 * dice, then the defender's, each round). What a die does - a hit at or
 * above the unit's combat value, plus the bonuses - is the test's own
 * reading of the rules, not the ruleset's code. Each test tries several
 * streams and requires one where the rule changes the outcome, so that
 * it fails when the rule is dropped.
 */
#include "engine/engine_internal.h"
#include "tests/unit/council/council_test.h"

#include <stdarg.h>

/* REQUIRE for a helper that returns a value: fail the test, return v. */
#define REQUIRE_OR(cond, v)                                                    \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "%s:%d: REQUIRE failed: %s\n", __FILE__, __LINE__, \
                    #cond);                                                    \
            test_current_failed_ = 1;                                          \
            return v;                                                          \
        }                                                                      \
    } while (0)

/* A 3-seat state in its first action window (the council off), seat 0 a
 * Thessari with no trade goods, no strategy card used, no free
 * production and nothing played this round. */
static void base(cnc_state *st, uint64_t seed)
{
    cnc_state tmp;
    engine_game *g = ready_game(seed, 0, &tmp);
    get_state(g, st);
    engine_free(g);
    for (int p = 0; p < st->seats; p++) {
        st->p[p].card_used = 0;
        st->p[p].free_produce = 0;
        memset(&st->x[p], 0, sizeof st->x[p]);
    }
}

/* Parse one order part (printf format) and resolve it for seat; the
 * parse's result (0: parsed and resolved). */
static int run(cnc_state *st, int seat, const char *fmt, ...)
{
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    json_t *j = json_loads(buf, 0, NULL);
    cnc_order o;
    int rc = j ? cnc_order_parse(D, &st->g, j, &o, NULL) : -1;
    json_decref(j);
    if (rc == 0)
        cnc_resolve_part(st, NULL, seat, &o);
    return rc;
}

#define HEX(st, x) (st)->g.sec[x].hex.q, (st)->g.sec[x].hex.r

static int action_card(const char *key)
{
    for (int a = 0; a < D->nactions; a++)
        if (strcmp(D->actions[a].key, key) == 0)
            return a;
    return -1;
}

static int tech(const char *key)
{
    return cnc_tech_index(D, key);
}

static int race(const char *key)
{
    return cnc_race_index(D, key);
}

/* Sector x made an explored empty space with no units, tokens or marker. */
static void clear_sector(cnc_state *st, int x)
{
    set_tile(st, x, system_ix("empty"));
    st->fog.explored[x] = 1;
    memset(st->g.sec[x].units, 0, sizeof st->g.sec[x].units);
    memset(st->damaged[x], 0, sizeof st->damaged[x]);
    st->tokens[x] = 0;
}

/* Free one marker slot for put_marker: a hidden marker outside sector x
 * leaves the galaxy. */
static void free_slot(cnc_state *st, int x)
{
    for (int m = 0; m < st->g.nmarkers; m++) {
        cnc_marker *k = &st->g.markers[m];
        if (k->state != CNC_MK_HIDDEN || k->sector == x)
            continue;
        if (k->planet < 0)
            st->g.sec[k->sector].marker = -1;
        else
            st->g.sec[k->sector].planet_marker[k->planet] = -1;
        k->state = CNC_MK_DISCARDED;
        return;
    }
}

/* ------------------------------------------------------------ dice -- */

/* A game whose RNG is stream `stream` (the combat's dice), and a copy of
 * that RNG in *dice for the test to read the same dice. */
static engine_game *dice_game(uint64_t stream, engine_rng *dice)
{
    engine_game *g = new_game(3, 1, PART_ONE);
    uint8_t key[32] = {7};
    engine_rng_init(&g->rng, key, stream);
    *dice = g->rng;
    return g;
}

static int die(engine_rng *r)
{
    return 1 + (int)engine_rng_below(r, 10);
}

/* Hits of n dice: a die plus bonus at or above need hits; with reroll, a
 * missed die is rolled again once, at once. */
static int hits(engine_rng *r, int n, int need, int bonus, int reroll)
{
    int h = 0;
    for (int i = 0; i < n; i++) {
        int hit = die(r) + bonus >= need;
        if (!hit && reroll)
            hit = die(r) + bonus >= need;
        h += hit;
    }
    return h;
}

/* The rules' ground combat, read from the doc: both sides roll every
 * round (trooper's combat value, plus each side's bonus), hits remove
 * the other side's troopers, until one side is gone. The attackers left;
 * the defenders left in *def. */
static int ground_oracle(engine_rng r, int n, int *def, int ba, int bd)
{
    int need = D->units[unit_ix("trooper")].combat;
    for (int round = 0; n > 0 && *def > 0 && round < 30; round++) {
        int ha = hits(&r, n, need, ba, 0), hd = hits(&r, *def, need, bd, 0);
        *def = *def > ha ? *def - ha : 0;
        n = n > hd ? n - hd : 0;
    }
    return n;
}

/* "Two raider cruisers attack the first fleet to enter": the rules' space
 * combat of n dreadnoughts (absorbing their first hit) against m
 * cruisers, until one side is gone. The dreadnoughts left, *hurt of them
 * damaged, *m cruisers left. */
static int raid_oracle(engine_rng r, int n, int *m, int *hurt)
{
    int dn = D->units[unit_ix("dreadnought")].combat,
        cr = D->units[unit_ix("cruiser")].combat;
    *hurt = 0;
    for (int round = 0; n > 0 && *m > 0 && round < 30; round++) {
        int ha = hits(&r, n, dn, 0, 0), hr = hits(&r, *m, cr, 0, 0);
        *m = *m > ha ? *m - ha : 0;
        int absorb = n - *hurt < hr ? n - *hurt : hr;
        *hurt += absorb;
        hr -= absorb;
        n = n > hr ? n - hr : 0;
        *hurt = *hurt < n ? *hurt : n;
    }
    return n;
}

/* "The Raider Nest: two raider cruisers attack the first fleet to enter"
 * (a space combat; the fleet that destroys them has won one): on several
 * dice streams seat 0's dreadnoughts meet the nest and the result is the
 * rules' combat against two cruisers; the marker is face up after, and
 * the next fleet meets nothing. One stream at least must tell two
 * raiders from one. */
static void test_raider_nest_fights_two_cruisers(void)
{
    int dn = unit_ix("dreadnought"), told = 0, won = 0, lost = 0;
    for (uint64_t stream = 1; stream <= 40; stream++) {
        cnc_state st;
        base(&st, 200);
        int x = unexplored_next_to_home(&st, 0);
        REQUIRE(x >= 0);
        clear_sector(&st, x);
        free_slot(&st, x);
        int m = put_marker(&st, x, -1, marker_kind("raiders"));
        REQUIRE(m >= 0);
        int n = 1 + (int)(stream % 3); /* 1 to 3 dreadnoughts */
        st.g.sec[x].units[0][dn] = (uint8_t)n;
        st.p[0].won_combat = 0;
        engine_rng dice;
        engine_game *g = dice_game(stream, &dice);
        engine_ctx c = {g};
        cnc_system_marker(&st, &c, 0, x);
        int raiders = 2, hurt = 0;
        int left = raid_oracle(dice, n, &raiders, &hurt);
        int one = 1, hurt1 = 0, left1 = raid_oracle(dice, n, &one, &hurt1);
        told += left1 != left || hurt1 != hurt;
        CHECK_EQ_INT(st.g.sec[x].units[0][dn], left);
        CHECK_EQ_INT(st.damaged[x][0][dn], hurt);
        CHECK_EQ_INT(st.p[0].won_combat, left > 0 && raiders == 0);
        CHECK_EQ_INT(st.g.markers[m].state, CNC_MK_REVEALED);
        won += left > 0;
        lost += left == 0;
        /* face up: the next fleet meets nothing */
        st.g.sec[x].units[1][dn] = 1;
        cnc_system_marker(&st, &c, 1, x);
        CHECK_EQ_INT(st.g.sec[x].units[1][dn], 1);
        CHECK_EQ_INT(st.damaged[x][1][dn], 0);
        engine_free(g);
    }
    CHECK(told > 0);
    CHECK(won > 0 && lost > 0);
}

/* A planet of sector x (next to seat 0's home, Aster Hal) with a hidden
 * marker of kind `kind` on planet 0; the marker's index. */
static int natives_at(cnc_state *st, int *x, const char *kind)
{
    *x = unexplored_next_to_home(st, 0);
    if (*x < 0)
        return -1;
    set_tile(st, *x, system_ix("sys_aster_hal"));
    st->fog.explored[*x] = 1;
    free_slot(st, *x);
    return put_marker(st, *x, 0, marker_kind(kind));
}

/* Seat 0 lands n troopers on planet 0 of x on dice stream `stream`: the
 * result, checked against the rules' ground combat with def defenders
 * and bonuses ba (the lander) and bd (the defender). 1 when the bonus
 * ba (or bd) changes the outcome from ba - 1 (bd - 1). */
static int landing(cnc_state *st, int x, int n, int def, int ba, int bd,
                   uint64_t stream)
{
    engine_rng dice;
    engine_game *g = dice_game(stream, &dice);
    engine_ctx c = {g};
    int owner = st->g.sec[x].owner[0];
    cnc_land_on(st, &c, 0, x, 0, n);
    int d = def, left = ground_oracle(dice, n, &d, ba, bd);
    int d1 = def, left1 = ground_oracle(dice, n, &d1, ba > 0 ? ba - 1 : ba,
                                        ba > 0 ? bd : bd - 1);
    if (d == 0 && left > 0) { /* taken */
        CHECK_EQ_INT(st->g.sec[x].owner[0], 0);
        CHECK_EQ_INT(st->g.sec[x].ground[0], left);
    } else { /* held, or nobody left */
        CHECK_EQ_INT(st->g.sec[x].owner[0], owner);
        if (owner >= 0)
            CHECK_EQ_INT(st->g.sec[x].ground[0], d);
    }
    engine_free(g);
    return d != d1 || left != left1;
}

/* "Hostile Natives: two native troopers defend the planet", and "troopers
 * that land on a planet with defending troopers (or hostile natives)
 * fight the same way until one side is gone; the survivor controls the
 * planet": a lander of 1 to 4 troopers against two natives, on many
 * streams, both ways the fight can end; the natives are face up after. */
static void test_hostile_natives_fight_the_lander(void)
{
    int taken = 0, repelled = 0, told = 0;
    for (uint64_t stream = 1; stream <= 40; stream++) {
        cnc_state st;
        base(&st, 201);
        int x, m = natives_at(&st, &x, "natives");
        REQUIRE(m >= 0);
        int n = 1 + (int)(stream % 4);
        landing(&st, x, n, 2, 0, 0, stream);
        CHECK_EQ_INT(st.g.markers[m].state, CNC_MK_REVEALED);
        taken += st.g.sec[x].owner[0] == 0;
        repelled += st.g.sec[x].owner[0] != 0;
        /* one native instead of two: another outcome on some stream */
        engine_rng dice;
        engine_game *g = dice_game(stream, &dice);
        int d2 = 2, d1 = 1;
        int l2 = ground_oracle(dice, n, &d2, 0, 0),
            l1 = ground_oracle(dice, n, &d1, 0, 0);
        told += l2 != l1 || d2 != d1;
        engine_free(g);
    }
    CHECK(taken > 0 && repelled > 0);
    CHECK(told > 0);
}

/* Ground combat against a player: its troopers defend, the lander that
 * wins controls the planet with its survivors, a lander that loses
 * leaves the defenders' survivors; the lander's own planet takes its
 * troopers without a fight. */
static void test_ground_combat_against_a_player(void)
{
    int taken = 0, held = 0;
    for (uint64_t stream = 1; stream <= 30; stream++) {
        cnc_state st;
        base(&st, 202);
        int x, m = natives_at(&st, &x, "barren");
        REQUIRE(m >= 0);
        st.g.markers[m].state = CNC_MK_REVEALED;
        st.g.sec[x].owner[0] = 1;
        st.g.sec[x].ground[0] = 2;
        st.p[1].race = (int8_t)race("veyari");
        landing(&st, x, 3, 2, 0, 0, stream);
        taken += st.g.sec[x].owner[0] == 0;
        held += st.g.sec[x].owner[0] == 1;
    }
    CHECK(taken > 0 && held > 0);
    cnc_state st;
    base(&st, 202);
    int x, m = natives_at(&st, &x, "barren");
    REQUIRE(m >= 0);
    st.g.markers[m].state = CNC_MK_REVEALED;
    st.g.sec[x].owner[0] = 0;
    st.g.sec[x].ground[0] = 2;
    cnc_land_on(&st, NULL, 0, x, 0, 3);
    CHECK_EQ_INT(st.g.sec[x].ground[0], 5);
}

/* Ground combat bonuses: Drop Harness "+1 to ground combat dice", Gene
 * Troopers "+1 more" (with Drop Harness: +2), the Dravik "+1 to every
 * ground combat die" (all three: +3), for the lander, and the Dravik's
 * +1 for a defending player. Each bonus changes the outcome on some
 * stream. */
static void test_ground_combat_bonuses(void)
{
    static const struct {
        const char *race;
        int harness, gene, ba;
    } cases[] = {{"veyari", 1, 0, 1},
                 {"veyari", 1, 1, 2},
                 {"dravik", 0, 0, 1},
                 {"dravik", 1, 1, 3}};
    for (int i = 0; i < 4; i++) {
        int told = 0;
        for (uint64_t stream = 1; stream <= 40; stream++) {
            cnc_state st;
            base(&st, 203);
            int x, m = natives_at(&st, &x, "natives");
            REQUIRE(m >= 0);
            st.p[0].race = (int8_t)race(cases[i].race);
            memset(st.p[0].techs, 0, sizeof st.p[0].techs);
            st.p[0].techs[tech("drop_harness")] = (uint8_t)cases[i].harness;
            st.p[0].techs[tech("gene_troopers")] = (uint8_t)cases[i].gene;
            told += landing(&st, x, 1 + (int)(stream % 3), 2, cases[i].ba, 0,
                            stream);
        }
        CHECK(told > 0);
    }
    /* the defender's bonus: a Dravik holding the planet */
    int told = 0;
    for (uint64_t stream = 1; stream <= 40; stream++) {
        cnc_state st;
        base(&st, 204);
        int x, m = natives_at(&st, &x, "barren");
        REQUIRE(m >= 0);
        st.g.markers[m].state = CNC_MK_REVEALED;
        st.p[0].race = (int8_t)race("veyari");
        memset(st.p[0].techs, 0, sizeof st.p[0].techs);
        st.p[1].race = (int8_t)race("dravik");
        memset(st.p[1].techs, 0, sizeof st.p[1].techs);
        st.g.sec[x].owner[0] = 1;
        st.g.sec[x].ground[0] = 2;
        told += landing(&st, x, 3, 2, 0, 1, stream);
    }
    CHECK(told > 0);
}

/* Ten dreadnoughts of seat 0 attack ten of seat 1 in x; seat 1 leaves
 * for y after two rounds (a standing retreat). Neither side can lose a
 * ship in the first round (ten hits at most, ten fresh dreadnoughts), so
 * the dice are known: round 1 the attacker's ten (a miss rolled again
 * with Lucky Shot), the defender's ten, round 2 the same. The bonus is
 * a1 and a2 for the attacker's dice in rounds 1 and 2, d1 and d2 for the
 * defender's. */
typedef struct duel_bonus {
    int a1, a2, d1, d2, reroll;
} duel_bonus;

/* The rules' hits of both rounds: *att on the attacker, the return value
 * on the defender; -1 when the fight would end before the retreat. */
static int duel_want(engine_rng r, const duel_bonus *b, int *att)
{
    int need = D->units[unit_ix("dreadnought")].combat;
    int h1 = hits(&r, 10, need, b->a1, b->reroll);
    int g1 = hits(&r, 10, need, b->d1, 0);
    int h2 = hits(&r, 10, need, b->a2, 0);
    int g2 = hits(&r, 10, need, b->d2, 0);
    *att = g1 + g2;
    if (h1 + h2 >= 20 || g1 + g2 >= 20)
        return -1;
    return h1 + h2;
}

/* Hits ten dreadnoughts took, from what is left: each damaged one took
 * one, each destroyed one two (it absorbed one first). */
static int losses(const uint8_t *units, const uint8_t *damaged)
{
    int dn = unit_ix("dreadnought");
    return damaged[dn] + 2 * (10 - units[dn]);
}

/* The duel on stream with seat 0 of race0 (Plasma Batteries if plasma,
 * Lucky Shot in play if reroll) against seat 1 of race1: both sides'
 * losses must be the rules' with bonus b. 1 when the outcome with bonus
 * alt instead would differ on this stream. */
static int duel_case(uint64_t stream, const char *race0, const char *race1,
                     int plasma, int reroll, const duel_bonus *b,
                     const duel_bonus *alt)
{
    cnc_state st;
    base(&st, 205);
    int dn = unit_ix("dreadnought");
    st.p[0].race = (int8_t)race(race0);
    st.p[1].race = (int8_t)race(race1);
    memset(st.p[0].techs, 0, sizeof st.p[0].techs);
    memset(st.p[1].techs, 0, sizeof st.p[1].techs);
    st.p[0].techs[tech("plasma_batteries")] = (uint8_t)plasma;
    st.x[0].reroll = (uint8_t)reroll;
    int x = unexplored_next_to_home(&st, 0), y = -1;
    REQUIRE_OR(x >= 0, -1);
    int nb[6], n = cnc_sector_neighbors(&st.g, x, nb);
    for (int i = 0; i < n && y < 0; i++) {
        int home = 0;
        for (int p = 0; p < st.seats; p++)
            home |= nb[i] == st.g.home[p];
        if (!home && st.g.sec[nb[i]].kind == CNC_SEC_SYSTEM)
            y = nb[i];
    }
    REQUIRE_OR(y >= 0, -1);
    clear_sector(&st, x);
    clear_sector(&st, y);
    st.g.sec[x].units[0][dn] = 10;
    st.g.sec[x].units[1][dn] = 10;
    st.x[1].retreat[0] = (cnc_standing){1, (int8_t)x, (int8_t)y, 2};
    engine_rng dice;
    engine_game *g = dice_game(stream, &dice);
    engine_ctx c = {g};
    int att = 0, att_alt = 0, want = duel_want(dice, b, &att);
    int other = duel_want(dice, alt, &att_alt);
    cnc_space_combat(&st, &c, 0, x);
    engine_free(g);
    CHECK_EQ_INT(st.x[0].reroll, 0); /* Lucky Shot, if any, is spent */
    if (want < 0 || other < 0)
        return 0;
    CHECK_EQ_INT(st.g.sec[x].units[1][dn], 0); /* it left after round 2 */
    CHECK_EQ_INT(losses(st.g.sec[y].units[1], st.damaged[y][1]), want);
    CHECK_EQ_INT(losses(st.g.sec[x].units[0], st.damaged[x][0]), att);
    return other != want || att_alt != att;
}

/* Korrun "+1 to every space combat die in the first round of a space
 * combat" (attacking or defending), Plasma Batteries "+1 to space combat
 * dice" (every round), and no bonus at all: both sides' losses in a
 * two-round fight are the rules'. Each bonus changes the outcome on some
 * stream, and the Korrun's differs from a bonus in every round. */
static void test_space_combat_bonuses_korrun_and_plasma(void)
{
    const duel_bonus none = {0, 0, 0, 0, 0}, korrun = {1, 0, 0, 0, 0},
                     always = {1, 1, 0, 0, 0}, kdef = {0, 0, 1, 0, 0},
                     kdef2 = {0, 0, 1, 1, 0};
    int plain = 0, k0 = 0, k1 = 0, kd = 0, kd2 = 0, pl = 0;
    for (uint64_t stream = 1; stream <= 30; stream++) {
        plain += duel_case(stream, "veyari", "veyari", 0, 0, &none, &korrun);
        k0 += duel_case(stream, "korrun", "veyari", 0, 0, &korrun, &none);
        k1 += duel_case(stream, "korrun", "veyari", 0, 0, &korrun, &always);
        pl += duel_case(stream, "veyari", "veyari", 1, 0, &always, &korrun);
        kd += duel_case(stream, "veyari", "korrun", 0, 0, &kdef, &none);
        kd2 += duel_case(stream, "veyari", "korrun", 0, 0, &kdef, &kdef2);
    }
    CHECK(plain > 0 && k0 > 0 && k1 > 0 && pl > 0 && kd > 0 && kd2 > 0);
}

/* Lucky Shot: "rolls each of its missed dice again once in that combat's
 * first round", and it is spent by that combat; without it, no reroll
 * (the plain fight above). */
static void test_lucky_shot_rerolls_misses_in_the_first_round(void)
{
    const duel_bonus lucky = {0, 0, 0, 0, 1}, none = {0, 0, 0, 0, 0};
    int told = 0;
    for (uint64_t stream = 1; stream <= 30; stream++)
        told += duel_case(stream, "veyari", "veyari", 0, 1, &lucky, &none);
    CHECK(told > 0);
}

/* ------------------------------------------------------ resolution -- */

/* A sector at distance d from seat 0's home, made explored, empty and
 * without a marker; -1 when none. */
static int at_distance(cnc_state *st, int d)
{
    int home = st->g.home[0];
    for (int x = 0; x < st->g.nsectors; x++) {
        int mine = 1;
        for (int p = 1; p < st->seats; p++)
            mine &= x != st->g.home[p];
        if (mine && st->g.sec[x].kind == CNC_SEC_SYSTEM &&
            cnc_sector_distance(&st->g, home, x) == d) {
            clear_sector(st, x);
            return x;
        }
    }
    return -1;
}

/* "Every ship moved must reach: the way there is at most the slowest
 * ship's move (plus Ion and Fold Drive...)", at resolution: a carrier
 * (move 1) reaches 1 sector, 2 with Ion Drive, never 3. */
static void test_ion_drive_moves_one_further_at_resolution(void)
{
    const char *fmt = "{\"type\": \"move\", \"from\": [%d, %d], \"to\": "
                      "[%d, %d], \"units\": {\"carrier\": 1}}";
    int cv = unit_ix("carrier");
    for (int ion = 0; ion <= 1; ion++) {
        cnc_state st;
        base(&st, 210);
        memset(st.p[0].techs, 0, sizeof st.p[0].techs);
        st.p[0].techs[tech("ion_drive")] = (uint8_t)ion;
        st.p[0].tactic = 3;
        int home = st.g.home[0], x1 = at_distance(&st, 1),
            x2 = at_distance(&st, 2), x3 = at_distance(&st, 3);
        REQUIRE(x1 >= 0 && x2 >= 0 && x3 >= 0);
        st.g.sec[home].units[0][cv] = 3;
        REQUIRE(run(&st, 0, fmt, HEX(&st, home), HEX(&st, x1)) == 0);
        CHECK_EQ_INT(st.g.sec[x1].units[0][cv], 1);
        REQUIRE(run(&st, 0, fmt, HEX(&st, home), HEX(&st, x2)) == 0);
        CHECK_EQ_INT(st.g.sec[x2].units[0][cv], ion); /* 2: Ion Drive only */
        REQUIRE(run(&st, 0, fmt, HEX(&st, home), HEX(&st, x3)) == 0);
        CHECK_EQ_INT(st.g.sec[x3].units[0][cv], 0);
        CHECK_EQ_INT(st.p[0].tactic, 2 - ion); /* a refused move spends none */
    }
}

/* Cargo Lattice: "Carriers carry 1 more": a carrier (capacity 4) lifts 5
 * troopers with it, 4 without; a dreadnought (capacity 1, not a carrier)
 * still lifts 1. */
static void test_cargo_lattice_carriers_carry_one_more(void)
{
    int tr = unit_ix("trooper");
    for (int lattice = 0; lattice <= 1; lattice++) {
        cnc_state st;
        base(&st, 211);
        memset(st.p[0].techs, 0, sizeof st.p[0].techs);
        st.p[0].techs[tech("cargo_lattice")] = (uint8_t)lattice;
        st.p[0].tactic = 3;
        int home = st.g.home[0], x1 = at_distance(&st, 1);
        REQUIRE(x1 >= 0);
        for (int p = 0; p < CNC_MAX_PLANETS; p++)
            if (st.g.sec[home].owner[p] == 0)
                st.g.sec[home].ground[p] = 1; /* none to take up */
        memset(st.g.sec[home].units[0], 0, sizeof st.g.sec[home].units[0]);
        st.g.sec[home].units[0][unit_ix("carrier")] = 1;
        st.g.sec[home].units[0][unit_ix("dreadnought")] = 1;
        st.g.sec[home].units[0][tr] = 9;
        REQUIRE(run(&st, 0,
                    "{\"type\": \"move\", \"from\": [%d, %d], \"to\": [%d, "
                    "%d], \"units\": {\"carrier\": 1, \"trooper\": 6}}",
                    HEX(&st, home), HEX(&st, x1)) == 0);
        CHECK_EQ_INT(st.g.sec[x1].units[0][tr], 4 + lattice);
        REQUIRE(run(&st, 0,
                    "{\"type\": \"move\", \"from\": [%d, %d], \"to\": [%d, "
                    "%d], \"units\": {\"dreadnought\": 1, \"trooper\": 3}}",
                    HEX(&st, home), HEX(&st, x1)) == 0);
        CHECK_EQ_INT(st.g.sec[x1].units[0][tr], 5 + lattice);
        CHECK_EQ_INT(st.g.sec[home].units[0][tr], 4 - lattice);
    }
}

/* The Mine Field: "the first fleet to enter loses 1 ship", the cheapest
 * (ours: sealed orders leave its owner no choice to make): a destroyer
 * before a cruiser, a carrier before a dreadnought; fighters are not
 * ships. */
static void test_mine_field_takes_the_cheapest_ship(void)
{
    static const char *const fleets[2][3] = {
        {"carrier", "cruiser", "destroyer"}, {"dreadnought", "carrier", NULL}};
    static const char *const lost[2] = {"destroyer", "carrier"};
    for (int i = 0; i < 2; i++) {
        cnc_state st;
        base(&st, 212);
        int x = at_distance(&st, 1);
        REQUIRE(x >= 0);
        free_slot(&st, x);
        REQUIRE(put_marker(&st, x, -1, marker_kind("mines")) >= 0);
        for (int k = 0; k < 3 && fleets[i][k]; k++)
            st.g.sec[x].units[0][unit_ix(fleets[i][k])] = 1;
        st.g.sec[x].units[0][unit_ix("fighter")] = 2;
        cnc_system_marker(&st, NULL, 0, x);
        for (int k = 0; k < 3 && fleets[i][k]; k++)
            CHECK_EQ_INT(st.g.sec[x].units[0][unit_ix(fleets[i][k])],
                         strcmp(fleets[i][k], lost[i]) != 0);
        CHECK_EQ_INT(st.g.sec[x].units[0][unit_ix("fighter")], 2);
    }
}

/* A production it cannot pay for is refused before anything is spent,
 * its command token included; one it can just pay (planets 3 + 2, then
 * trade goods) is made and spends the token. */
static void test_unpaid_production_spends_no_command_token(void)
{
    int dn = unit_ix("dreadnought");
    for (int tg = 2; tg <= 3; tg++) {
        cnc_state st;
        base(&st, 213);
        int x = unexplored_next_to_home(&st, 0);
        REQUIRE(x >= 0);
        set_tile(&st, x, system_ix("sys_aster_hal"));
        st.g.sec[x].owner[0] = st.g.sec[x].owner[1] = 0;
        st.fog.explored[x] = 1;
        memset(st.g.sec[x].units, 0, sizeof st.g.sec[x].units);
        memset(st.exhausted, 0xff, sizeof st.exhausted);
        st.exhausted[x] = 0;
        st.tokens[x] = 0;
        st.p[0].tg = (int16_t)tg;
        st.p[0].tactic = 1;
        REQUIRE(run(&st, 0,
                    "{\"type\": \"produce\", \"sector\": [%d, %d], "
                    "\"units\": {\"dreadnought\": 2}}",
                    HEX(&st, x)) == 0); /* costs 8 */
        int made = tg == 3;
        CHECK_EQ_INT(st.g.sec[x].units[0][dn], 2 * made);
        CHECK_EQ_INT(st.p[0].tactic, 1 - made);
        CHECK_EQ_INT(st.tokens[x] & 1, made);
        CHECK_EQ_INT(st.exhausted[x], made ? 3 : 0);
        CHECK_EQ_INT(st.p[0].tg, made ? 0 : tg);
    }
}

/* ------------------------------------------------------ the council -- */

/* A 4-seat game (the council every round) in its lobby with agenda on the
 * table and speaker 2, races veyari, dravik, thessari, sephine, nobody
 * owning a planet and holding no card or trade good. */
static engine_game *vote_game(uint64_t seed, const char *agenda, cnc_state *st)
{
    engine_rng rng;
    uint8_t key[32] = {4};
    engine_rng_init(&rng, key, seed);
    engine_game *g = new_game(4, seed, NULL);
    picks_by_bots(g, "random", &rng, NULL);
    get_state(g, st);
    static const char *const races[] = {"veyari", "dravik", "thessari",
                                        "sephine"};
    for (int p = 0; p < 4; p++) {
        st->p[p].race = (int8_t)race(races[p]);
        st->p[p].tg = 0;
        memset(st->p[p].hand, 0, sizeof st->p[p].hand);
    }
    for (int x = 0; x < st->g.nsectors; x++)
        memset(st->g.sec[x].owner, -1, sizeof st->g.sec[x].owner);
    st->phase = CNC_PHASE_LOBBY;
    st->c.speaker = 2;
    st->c.tabled = 0;
    st->c.agenda = -1;
    for (int a = 0; a < D->nagendas; a++)
        if (strcmp(D->agendas[a].key, agenda) == 0)
            st->c.agenda = (int8_t)a;
    return put_state(g, st);
}

/* The lobby gets lobby[seat], the action window nothing, the council
 * window council[seat] (JSON text; NULL: no parts), each marked ready. */
static int vote_round(engine_game *g, const char *const *lobby,
                      const char *const *council)
{
    for (int stage = 0; stage < 3; stage++) {
        engine_window w;
        if (!open_window(g, &w) || w.mode != ENGINE_SEALED)
            return -99;
        const char *const *o = stage == 0 ? lobby : stage == 2 ? council : NULL;
        for (int p = 0; p < engine_game_seats(g); p++) {
            json_t *j = json_loads(o && o[p] ? o[p] : "{}", 0, NULL);
            if (!j)
                return -98;
            json_object_set_new(j, ENGINE_READY_PART, json_true());
            int rc = apply(g, p, ENGINE_ORDER, w.id, j, NULL);
            json_decref(j);
            if (rc)
                return rc;
        }
    }
    return 0;
}

#define REPR(role)                                                             \
    "\"r\": {\"type\": \"representative\", \"role\": \"" role "\"}"
#define VOTE_YES "{\"v\": {\"type\": \"vote\", \"for\": true}}"

/* The Dravik (seat 1, its Legate: 3 votes) plays card in the lobby
 * (Border Accord on the table: its passing gives no trade goods or cards)
 * (with ", \"amount\": N" text in extra), holding it or not, with tg
 * trade goods, and votes for the law: its weight; *tg_left, *kept. */
static int card_votes(const char *card, const char *extra, int held, int tg,
                      int *tg_left, int *kept)
{
    char lobby1[256];
    snprintf(lobby1, sizeof lobby1,
             "{" REPR("councillor") ", \"c\": {\"type\": \"play\", \"card\": "
                                    "\"%s\"%s}}",
             card, extra);
    const char *lobby[4] = {NULL, lobby1, NULL, NULL};
    const char *council[4] = {NULL, VOTE_YES, NULL, NULL};
    cnc_state st;
    engine_game *g = vote_game(220, "border_accord", &st);
    REQUIRE_OR(g, -1);
    int a = action_card(card);
    REQUIRE_OR(a >= 0, -1);
    st.p[1].hand[a] = (uint8_t)held;
    st.p[1].tg = (int16_t)tg;
    g = put_state(g, &st);
    REQUIRE_OR(vote_round(g, lobby, council) == 0, -1);
    get_state(g, &st);
    int w = st.c.last.weight[1];
    CHECK_EQ_INT(st.c.last.totals[1], w);
    *tg_left = st.p[1].tg;
    *kept = st.p[1].hand[a];
    engine_free(g);
    return w;
}

/* Whip Count "1 more vote", Rousing Speech "2 more votes", Packed Gallery
 * "3 more votes", for the player at this council; a card not held adds
 * nothing (and a played one is spent). */
static void test_vote_cards_add_their_votes(void)
{
    static const struct {
        const char *card;
        int votes;
    } cards[] = {
        {"whip_count", 1}, {"rousing_speech", 2}, {"packed_gallery", 3}};
    for (int i = 0; i < 3; i++) {
        int tg = 0, kept = 0;
        CHECK_EQ_INT(card_votes(cards[i].card, "", 1, 0, &tg, &kept),
                     3 + cards[i].votes);
        CHECK_EQ_INT(kept, 0);
        CHECK_EQ_INT(card_votes(cards[i].card, "", 0, 0, &tg, &kept), 3);
    }
}

/* Bribe and Backroom Deal: "pay up to 9 trade goods (the part's amount);
 * each one is a vote for you at this council", paid up to what the
 * player holds; an amount outside 1..9 is refused when saved; a card not
 * held pays and adds nothing. */
static void test_bribe_and_backroom_deal_buy_votes(void)
{
    static const char *const cards[] = {"bribe", "backroom_deal"};
    for (int i = 0; i < 2; i++) {
        int tg = 0, kept = 0;
        CHECK_EQ_INT(card_votes(cards[i], ", \"amount\": 3", 1, 5, &tg, &kept),
                     6);
        CHECK_EQ_INT(tg, 2);
        CHECK_EQ_INT(kept, 0);
        CHECK_EQ_INT(card_votes(cards[i], ", \"amount\": 9", 1, 5, &tg, &kept),
                     8);
        CHECK_EQ_INT(tg, 0);
        CHECK_EQ_INT(card_votes(cards[i], ", \"amount\": 9", 1, 12, &tg, &kept),
                     12);
        CHECK_EQ_INT(tg, 3);
        CHECK_EQ_INT(card_votes(cards[i], ", \"amount\": 3", 0, 5, &tg, &kept),
                     3);
        CHECK_EQ_INT(tg, 5);
        /* 0 and 10: refused when the part is saved */
        for (int amount = 0; amount <= 10; amount += 10) {
            cnc_state st;
            engine_game *g = vote_game(221, "trade_stipend", &st);
            REQUIRE(g);
            engine_window w;
            REQUIRE(open_window(g, &w));
            char part[160];
            snprintf(part, sizeof part,
                     "{\"c\": {\"type\": \"play\", \"card\": \"%s\", "
                     "\"amount\": %d}}",
                     cards[i], amount);
            json_t *j = json_loads(part, 0, NULL);
            CHECK(apply(g, 1, ENGINE_ORDER, w.id, j, NULL) != 0);
            json_decref(j);
            engine_free(g);
        }
    }
}

/* Safe House and Iron Escort: "your representative cannot be
 * assassinated at this council": the Dravik's Knife Cadet (assassinate)
 * aims at the Thessari's councillor (seat 2); the card played by seat 2
 * guards it, not held or played by another seat it does not. */
static void test_safe_house_and_iron_escort_guard_the_representative(void)
{
    static const char *const cards[] = {"safe_house", "iron_escort"};
    for (int i = 0; i < 2; i++)
        for (int who = 2; who <= 3; who++)
            for (int held = 0; held <= 1; held++) {
                char play[160];
                snprintf(play, sizeof play,
                         "{" REPR("councillor") ", \"c\": {\"type\": "
                                                "\"play\", \"card\": \"%s\"}}",
                         cards[i]);
                const char *lobby[4] = {
                    NULL,
                    "{\"r\": {\"type\": \"representative\", \"role\": "
                    "\"spy\", \"target\": 2}}",
                    who == 2 ? play : "{" REPR("councillor") "}",
                    who == 3 ? play : NULL};
                cnc_state st;
                engine_game *g = vote_game(222, "trade_stipend", &st);
                REQUIRE(g);
                st.p[who].hand[action_card(cards[i])] = (uint8_t)held;
                g = put_state(g, &st);
                REQUIRE(vote_round(g, lobby, NULL) == 0);
                get_state(g, &st);
                int guarded = held && who == 2;
                CHECK_EQ_INT(st.c.last.fate[2],
                             guarded ? CNC_FATE_SEATED : CNC_FATE_KILLED);
                CHECK_EQ_INT(st.c.last.deed[1],
                             guarded ? CNC_DEED_IMMUNE : CNC_DEED_KILLED);
                engine_free(g);
            }
}

static int agenda(const char *key)
{
    for (int a = 0; a < D->nagendas; a++)
        if (strcmp(D->agendas[a].key, key) == 0)
            return a;
    return -1;
}

/* The council cards act "at this council": a Whip Count's vote and a Safe
 * House's guard do not carry over to the next council, where the Dravik's
 * spy (influence 0) kills the Thessari's councillor and its player's
 * weight is the spy's 0. */
static void test_council_cards_last_one_council(void)
{
    const char *lobby1[4] = {
        NULL,
        "{" REPR("councillor") ", \"c\": {\"type\": \"play\", \"card\": "
                               "\"whip_count\"}}",
        "{" REPR("councillor") ", \"c\": {\"type\": \"play\", \"card\": "
                               "\"safe_house\"}}",
        NULL};
    const char *lobby2[4] = {NULL,
                             "{\"r\": {\"type\": \"representative\", "
                             "\"role\": \"spy\", \"target\": 2}}",
                             "{" REPR("councillor") "}", NULL};
    const char *council[4] = {NULL, VOTE_YES, NULL, NULL};
    cnc_state st;
    engine_game *g = vote_game(223, "border_accord", &st);
    REQUIRE(g);
    st.p[1].hand[action_card("whip_count")] = 1;
    st.p[2].hand[action_card("safe_house")] = 1;
    g = put_state(g, &st);
    REQUIRE(vote_round(g, lobby1, council) == 0);
    get_state(g, &st);
    CHECK_EQ_INT(st.c.last.weight[1], 4); /* the Legate's 3 and 1 */
    engine_rng rng;
    uint8_t key[32] = {5};
    engine_rng_init(&rng, key, 223);
    picks_by_bots(g, "random", &rng, NULL); /* round 2, to its lobby */
    get_state(g, &st);
    REQUIRE(st.round == 2 && st.phase == CNC_PHASE_LOBBY);
    st.c.agenda = (int8_t)agenda("sunset_clause");
    st.c.tabled = 0;
    g = put_state(g, &st);
    REQUIRE(vote_round(g, lobby2, council) == 0);
    get_state(g, &st);
    CHECK_EQ_INT(st.c.last.fate[2], CNC_FATE_KILLED);
    CHECK_EQ_INT(st.c.last.weight[1], 0);
    engine_free(g);
}

/* Motion to Reconsider, like Veto: "the agenda on the table is discarded
 * and the next one from the agenda deck replaces it"; not held, it
 * changes nothing (that the vetoed agenda never comes straight back is
 * test_council_council.c's). */
static void test_motion_to_reconsider_replaces_the_agenda(void)
{
    for (int held = 0; held <= 1; held++) {
        cnc_state st;
        engine_game *g = vote_game(224, "trade_stipend", &st);
        REQUIRE(g);
        st.p[0].hand[action_card("reconsider")] = (uint8_t)held;
        st.c.ndeck = 2; /* the one on the table is not in the deck */
        st.c.deck_pos = 0;
        st.c.deck[0] = (int8_t)agenda("censure");
        st.c.deck[1] = (int8_t)agenda("open_archives");
        memset(st.c.held, 0, sizeof st.c.held);
        g = put_state(g, &st);
        engine_window w;
        REQUIRE(open_window(g, &w));
        for (int p = 0; p < 4; p++) {
            json_t *j =
                json_loads(p == 0 ? "{\"c\": {\"type\": \"play\", \"card\": "
                                    "\"reconsider\"}}"
                                  : "{}",
                           0, NULL);
            json_object_set_new(j, ENGINE_READY_PART, json_true());
            REQUIRE(apply(g, p, ENGINE_ORDER, w.id, j, NULL) == 0);
            json_decref(j);
        }
        get_state(g, &st);
        CHECK_EQ_INT(st.c.agenda, agenda(held ? "censure" : "trade_stipend"));
        CHECK_EQ_INT(st.p[0].hand[action_card("reconsider")], 0);
        engine_free(g);
    }
}

/* 2.1: "The Forum holder draws two agenda cards into its hand" - the top
 * two of the deck, whichever they are, the first agenda of the data
 * included - and chooses in the agenda window; without a Forum holder
 * the top card goes on the table. */
static void test_forum_holder_draws_the_top_two_agendas(void)
{
    int forum = cnc_strategy_index(D, "forum");
    REQUIRE(forum >= 0 && D->nagendas >= 8);
    for (int top = 0; top <= 1; top++)
        for (int held = 0; held <= 1; held++) {
            cnc_state st;
            base(&st, 230);
            for (int p = 0; p < st.seats; p++) {
                st.p[p].card = (int8_t)(p == 1 && held ? forum : 5 + p);
                st.p[p].last_card = -1;
            }
            memset(st.c.held, 0, sizeof st.c.held);
            memset(st.c.laws, 0, sizeof st.c.laws);
            st.c.ndeck = 3;
            st.c.deck_pos = 0;
            st.c.deck[0] = (int8_t)top;
            st.c.deck[1] = 5;
            st.c.deck[2] = 7;
            engine_rng dice;
            engine_game *g = dice_game(1, &dice);
            engine_ctx c = {g};
            cnc_council_begin(&st, &c);
            engine_free(g);
            if (held) {
                CHECK_EQ_INT(st.phase, CNC_PHASE_AGENDA);
                CHECK_EQ_INT(st.c.speaker, 1);
                CHECK_EQ_INT(st.c.agenda, -1);
                CHECK_EQ_INT(st.c.held[1][top], 1);
                CHECK_EQ_INT(st.c.held[1][5], 1);
                CHECK_EQ_INT(st.c.held[1][7], 0);
            } else {
                CHECK_EQ_INT(st.phase, CNC_PHASE_LOBBY);
                CHECK_EQ_INT(st.c.agenda, top);
                for (int p = 0; p < st.seats; p++)
                    CHECK_EQ_INT(st.c.held[p][top], 0);
            }
        }
}

int main(void)
{
    council_test_init();
    RUN(test_raider_nest_fights_two_cruisers);
    RUN(test_hostile_natives_fight_the_lander);
    RUN(test_ground_combat_against_a_player);
    RUN(test_ground_combat_bonuses);
    RUN(test_space_combat_bonuses_korrun_and_plasma);
    RUN(test_lucky_shot_rerolls_misses_in_the_first_round);
    RUN(test_ion_drive_moves_one_further_at_resolution);
    RUN(test_cargo_lattice_carriers_carry_one_more);
    RUN(test_mine_field_takes_the_cheapest_ship);
    RUN(test_unpaid_production_spends_no_command_token);
    RUN(test_vote_cards_add_their_votes);
    RUN(test_bribe_and_backroom_deal_buy_votes);
    RUN(test_safe_house_and_iron_escort_guard_the_representative);
    RUN(test_council_cards_last_one_council);
    RUN(test_motion_to_reconsider_replaces_the_agenda);
    RUN(test_forum_holder_draws_the_top_two_agendas);
    return TEST_SUMMARY();
}

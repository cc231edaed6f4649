/*
 * test_council_rulebook.c - the rules of docs/games/council.md that the
 * other council tests leave without a focused test, one test each on a
 * constructed state: the legal case, the refused case and the boundary
 * (one past the limit). Production (its unit limit, its payment, the
 * planet and the command token it needs), Sabotaged Yards, the order
 * part limits and their order, the trade good specials and Commerce,
 * Oskan's free first exploration, Command and following it, a strategy
 * card once a round, Campaign, Research, retreat, landing splits, the
 * field limits of the steps, standing retreats, move reach when saved,
 * sensor range, last-seen troopers, the neutral markers, space combat's
 * losses, objective thresholds, status 5's extra tokens and split, the
 * initiative order, the start of a game, the council's vote (weights,
 * blackmail, sabotage, Gag Order, Table the Motion), captures' parts, a
 * lobby without orders, the view's homes and memory, legal moves, the
 * twin, the bots' unit counts and the data's refusals. Most order parts
 * are parsed and resolved directly (cnc_order_parse, cnc_resolve_part),
 * so each test takes milliseconds.
 * The table in docs/games/council.md, "Rules and their tests", maps each
 * rule to its tests; the rules decided by dice, and the council's cards,
 * are in test_council_rulebook_dice.c.
 */
#include "tests/unit/council/council_test.h"

#include <stdarg.h>

/* A 3-seat state in its first action window, seat 0 a Thessari with no
 * trade goods, no strategy card used and no free production. */
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

static json_t *loadf(const char *fmt, va_list ap)
{
    char buf[4096];
    vsnprintf(buf, sizeof buf, fmt, ap);
    json_t *j = json_loads(buf, 0, NULL);
    if (!j)
        fprintf(stderr, "bad JSON in test: %s\n", buf);
    return j;
}

/* Parse one order part (printf format) and resolve it for seat; the
 * parse's result (0: parsed and resolved). */
static int run(cnc_state *st, int seat, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    json_t *j = loadf(fmt, ap);
    va_end(ap);
    cnc_order o;
    int rc = j ? cnc_order_parse(D, &st->g, j, &o, NULL) : -1;
    json_decref(j);
    if (rc == 0)
        cnc_resolve_part(st, NULL, seat, &o);
    return rc;
}

/* 1 when one order part (printf format) parses. */
static int parses(const cnc_state *st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    json_t *j = loadf(fmt, ap);
    va_end(ap);
    cnc_order o;
    int rc = j ? cnc_order_parse(D, &st->g, j, &o, NULL) : -1;
    json_decref(j);
    return rc == 0;
}

/* 1 when a whole action order (printf format) is accepted when saved. */
static int saved(const cnc_state *st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    json_t *j = loadf(fmt, ap);
    va_end(ap);
    engine_error err = {0};
    int rc = j ? cnc_action_check(st, 0, j, &err) : -1;
    json_decref(j);
    return rc == 0;
}

/* Sector next to seat's home made Aster Hal (Aster Hal 3/1, Brisk 2/2),
 * explored, both planets the seat's, empty of units and tokens; every
 * other planet exhausted, so only these two pay. */
static int colony(cnc_state *st, int seat)
{
    int x = unexplored_next_to_home(st, seat);
    if (x < 0)
        return -1;
    set_tile(st, x, system_ix("sys_aster_hal"));
    st->g.sec[x].owner[0] = st->g.sec[x].owner[1] = (int8_t)seat;
    st->fog.explored[x] = 1;
    memset(st->g.sec[x].units, 0, sizeof st->g.sec[x].units);
    memset(st->exhausted, 0xff, sizeof st->exhausted);
    st->exhausted[x] = 0;
    st->tokens[x] = 0;
    return x;
}

static int objective(const char *key)
{
    for (int o = 0; o < D->nobjectives; o++)
        if (strcmp(D->objectives[o].key, key) == 0)
            return o;
    return -1;
}

static int action_card(const char *key)
{
    for (int a = 0; a < D->nactions; a++)
        if (strcmp(D->actions[a].key, key) == 0)
            return a;
    return -1;
}

static int strategy(const char *key)
{
    return cnc_strategy_index(D, key);
}

/* Give seat strategy card key (and take it from whoever held it). */
static void hold_card(cnc_state *st, int seat, const char *key)
{
    int c = strategy(key);
    for (int p = 0; p < st->seats; p++)
        if (st->p[p].card == c)
            st->p[p].card = -1;
    if (st->p[seat].card >= 0)
        st->strat_owner[st->p[seat].card] = -1;
    st->p[seat].card = (int8_t)c;
    st->strat_owner[c] = (int8_t)seat;
}

#define HEX(st, x) (st)->g.sec[x].hex.q, (st)->g.sec[x].hex.r

/* "At most 4 units per production, 2 more with Orbital Yards or for the
 * Halcyon." */
static void test_production_makes_at_most_4_units_or_6(void)
{
    cnc_state st;
    base(&st, 101);
    int x = colony(&st, 0), ds = unit_ix("destroyer");
    REQUIRE(x >= 0);
    st.p[0].tg = 20;
    st.p[0].tactic = 3;
    const char *fmt =
        "{\"type\": \"produce\", \"sector\": [%d, %d], \"units\": "
        "{\"destroyer\": %d}}";
    REQUIRE(run(&st, 0, fmt, HEX(&st, x), 5) == 0);
    CHECK_EQ_INT(st.g.sec[x].units[0][ds], 0); /* 5: refused */
    REQUIRE(run(&st, 0, fmt, HEX(&st, x), 4) == 0);
    CHECK_EQ_INT(st.g.sec[x].units[0][ds], 4); /* 4: made */

    base(&st, 101);
    x = colony(&st, 0);
    st.p[0].tg = 20;
    st.p[0].tactic = 3;
    st.p[0].techs[cnc_tech_index(D, "orbital_yards")] = 1;
    REQUIRE(run(&st, 0, fmt, HEX(&st, x), 7) == 0);
    CHECK_EQ_INT(st.g.sec[x].units[0][ds], 0);
    REQUIRE(run(&st, 0, fmt, HEX(&st, x), 6) == 0);
    CHECK_EQ_INT(st.g.sec[x].units[0][ds], 6);

    base(&st, 101);
    x = colony(&st, 0);
    st.p[0].tg = 20;
    st.p[0].tactic = 3;
    st.p[0].race = (int8_t)cnc_race_index(D, "halcyon");
    REQUIRE(run(&st, 0, fmt, HEX(&st, x), 7) == 0);
    CHECK_EQ_INT(st.g.sec[x].units[0][ds], 0);
    REQUIRE(run(&st, 0, fmt, HEX(&st, x), 6) == 0);
    CHECK_EQ_INT(st.g.sec[x].units[0][ds], 6);
}

/* "Paying their cost in resources (fighters and troopers: 2 for 1) ... by
 * exhausting its ready planets in sector order (the last one may pay more
 * than needed), then with trade goods." */
static void test_production_pays_planets_then_trade_goods(void)
{
    cnc_state st;
    base(&st, 102);
    int x = colony(&st, 0), cv = unit_ix("carrier"), ft = unit_ix("fighter");
    REQUIRE(x >= 0);
    st.p[0].tg = 1;
    st.p[0].tactic = 3;
    const char *one = "{\"type\": \"produce\", \"sector\": [%d, %d], "
                      "\"units\": {\"%s\": %d}}";
    /* a carrier costs 3: Aster Hal (3) alone pays */
    REQUIRE(run(&st, 0, one, HEX(&st, x), "carrier", 1) == 0);
    CHECK_EQ_INT(st.g.sec[x].units[0][cv], 1);
    CHECK_EQ_INT(st.exhausted[x], 1);
    CHECK_EQ_INT(st.p[0].tg, 1);
    /* 3 fighters cost 2: Brisk (2) pays */
    REQUIRE(run(&st, 0, one, HEX(&st, x), "fighter", 3) == 0);
    CHECK_EQ_INT(st.g.sec[x].units[0][ft], 3);
    CHECK_EQ_INT(st.exhausted[x], 3);
    CHECK_EQ_INT(st.p[0].tg, 1);
    /* 2 fighters cost 1: the last trade good */
    REQUIRE(run(&st, 0, one, HEX(&st, x), "fighter", 2) == 0);
    CHECK_EQ_INT(st.g.sec[x].units[0][ft], 5);
    CHECK_EQ_INT(st.p[0].tg, 0);
    /* nothing left: refused, nothing made */
    REQUIRE(run(&st, 0, one, HEX(&st, x), "fighter", 1) == 0);
    CHECK_EQ_INT(st.g.sec[x].units[0][ft], 5);
    CHECK_EQ_INT(st.p[0].tg, 0);

    /* cost 6 = 3 + 2 + 1 trade good: just enough; cost 7: refused */
    base(&st, 102);
    x = colony(&st, 0);
    st.p[0].tg = 1;
    st.p[0].tactic = 3;
    REQUIRE(run(&st, 0, one, HEX(&st, x), "cruiser", 4) == 0); /* 8 */
    CHECK_EQ_INT(st.g.sec[x].units[0][unit_ix("cruiser")], 0);
    CHECK_EQ_INT(st.exhausted[x], 0);
    CHECK_EQ_INT(st.p[0].tg, 1);
    REQUIRE(run(&st, 0, one, HEX(&st, x), "cruiser", 3) == 0); /* 6 */
    CHECK_EQ_INT(st.g.sec[x].units[0][unit_ix("cruiser")], 3);
    CHECK_EQ_INT(st.exhausted[x], 3);
    CHECK_EQ_INT(st.p[0].tg, 0);
}

/* "In an activated sector with a planet it controls": the produce step
 * activates (one tactic token, none when the token is already there),
 * fails with an empty tactic pool, and Industry skips the activation. */
static void test_production_needs_a_planet_and_a_command_token(void)
{
    cnc_state st;
    base(&st, 103);
    int x = colony(&st, 0), ds = unit_ix("destroyer");
    REQUIRE(x >= 0);
    st.p[0].tg = 20;
    st.p[0].tactic = 1;
    const char *fmt = "{\"type\": \"produce\", \"sector\": [%d, %d], "
                      "\"units\": {\"destroyer\": 1}}";
    REQUIRE(run(&st, 0, fmt, HEX(&st, x)) == 0);
    CHECK_EQ_INT(st.g.sec[x].units[0][ds], 1);
    CHECK_EQ_INT(st.p[0].tactic, 0);
    CHECK(st.tokens[x] & 1);
    /* the token is there: a second production spends nothing */
    REQUIRE(run(&st, 0, fmt, HEX(&st, x)) == 0);
    CHECK_EQ_INT(st.g.sec[x].units[0][ds], 2);
    CHECK_EQ_INT(st.p[0].tactic, 0);
    /* another sector with an empty pool: refused */
    int y = st.g.home[0];
    st.exhausted[y] = 0;
    REQUIRE(run(&st, 0, fmt, HEX(&st, y)) == 0);
    int before = st.g.sec[y].units[0][ds];
    CHECK_EQ_INT(before, 0);
    /* Industry: no activation needed */
    st.p[0].free_produce = 1;
    REQUIRE(run(&st, 0, fmt, HEX(&st, y)) == 0);
    CHECK_EQ_INT(st.g.sec[y].units[0][ds], 1);
    CHECK(!(st.tokens[y] & 1));
    /* seat 1 controls no planet in x: refused even with tokens */
    st.p[1].tactic = 3;
    st.p[1].tg = 20;
    REQUIRE(run(&st, 1, fmt, HEX(&st, x)) == 0);
    CHECK_EQ_INT(st.g.sec[x].units[1][ds], 0);
    CHECK_EQ_INT(st.p[1].tactic, 3);
}

/* Sabotaged Yards "needs the player's ships in or next to the named
 * sector, and the next produce step another player gives there this
 * round fails". */
static void test_sabotaged_yards_next_to_ships_cancels_one_production(void)
{
    cnc_state st;
    base(&st, 104);
    int x = colony(&st, 0), ds = unit_ix("destroyer");
    REQUIRE(x >= 0);
    int card = action_card("sabotage_yards");
    REQUIRE(card >= 0);
    /* seat 1 with ships 2 away from x: refused, the card kept */
    int far = -1, near = -1;
    for (int y = 0; y < st.g.nsectors; y++) {
        memset(st.g.sec[y].units[1], 0, sizeof st.g.sec[y].units[1]);
        int dd = cnc_sector_distance(&st.g, x, y);
        if (dd == 2 && far < 0)
            far = y;
        if (dd == 1 && near < 0 && y != st.g.home[0])
            near = y;
    }
    REQUIRE(far >= 0 && near >= 0);
    st.g.sec[far].units[1][unit_ix("cruiser")] = 1;
    st.p[1].hand[card] = 2;
    const char *play =
        "{\"type\": \"play\", \"card\": \"sabotage_yards\", \"sector\": "
        "[%d, %d]}";
    REQUIRE(run(&st, 1, play, HEX(&st, x)) == 0);
    CHECK_EQ_INT(st.p[1].hand[card], 2);
    CHECK_EQ_INT(st.sabotaged[x], 0);
    /* ships next to x: played */
    st.g.sec[near].units[1][unit_ix("cruiser")] = 1;
    REQUIRE(run(&st, 1, play, HEX(&st, x)) == 0);
    CHECK_EQ_INT(st.p[1].hand[card], 1);
    CHECK_EQ_INT(st.sabotaged[x], 2);
    /* seat 0's first production there fails, the second is made */
    st.p[0].tg = 20;
    st.p[0].tactic = 3;
    const char *fmt = "{\"type\": \"produce\", \"sector\": [%d, %d], "
                      "\"units\": {\"destroyer\": 1}}";
    REQUIRE(run(&st, 0, fmt, HEX(&st, x)) == 0);
    CHECK_EQ_INT(st.g.sec[x].units[0][ds], 0);
    CHECK_EQ_INT(st.sabotaged[x], 0);
    REQUIRE(run(&st, 0, fmt, HEX(&st, x)) == 0);
    CHECK_EQ_INT(st.g.sec[x].units[0][ds], 1);
}

/* "Each keyed by a fleet or system label of 1 to 16 of a-z, 0-9, _ ...
 * at most 16 parts." */
static void test_order_parts_keys_and_count(void)
{
    cnc_state st;
    base(&st, 105);
    char order[2048] = "{";
    size_t len = 1;
    for (int i = 0; i < 17; i++) {
        len += (size_t)snprintf(order + len, sizeof order - len,
                                "%s\"p%02d\": {\"type\": \"hold\"}",
                                i ? ", " : "", i);
        if (i == 15)
            CHECK(saved(&st, "%s}", order)); /* 16 parts */
    }
    snprintf(order + len, sizeof order - len, "}");
    CHECK(!saved(&st, "%s", order)); /* 17 parts */
    CHECK(!saved(&st, "{\"abcdefghij_123456\": {\"type\": \"hold\"}}"));
    CHECK(saved(&st, "{\"abcdefghij_12345\": {\"type\": \"hold\"}}"));
    CHECK(saved(&st, "{\"z\": {\"type\": \"hold\"}}"));
    CHECK(!saved(&st, "{\"\": {\"type\": \"hold\"}}"));
    CHECK(!saved(&st, "{\"F3\": {\"type\": \"hold\"}}"));
    CHECK(!saved(&st, "{\"f-3\": {\"type\": \"hold\"}}"));
    CHECK(!saved(&st, "{\"f{\": {\"type\": \"hold\"}}"));
    CHECK(!saved(&st, "{\"f`\": {\"type\": \"hold\"}}"));
    CHECK(!saved(&st, "{\"f/\": {\"type\": \"hold\"}}"));
    CHECK(!saved(&st, "{\"f:\": {\"type\": \"hold\"}}"));
}

/* "A player's parts resolve in the order of their keys sorted as text":
 * with 1 trade good the first exploration (cost 1) succeeds and the
 * second (cost 2) is refused, so which sector is explored shows the
 * order; "a10" sorts before "a9". */
static void test_parts_resolve_in_key_order_as_text(void)
{
    cnc_state st, tmp;
    engine_game *g = ready_game(106, 1, &tmp);
    get_state(g, &st);
    int a = -1, b = -1;
    for (int x = 0; x < st.g.nsectors; x++)
        if (cnc_fog_frontier(&st.g, &st.fog, x)) {
            if (a < 0)
                a = x;
            else if (b < 0)
                b = x;
        }
    REQUIRE(a >= 0 && b >= 0);
    char order[512];
    snprintf(order, sizeof order,
             "{\"a9\": {\"type\": \"explore\", \"sector\": [%d, %d]},"
             " \"a10\": {\"type\": \"explore\", \"sector\": [%d, %d]}}",
             HEX(&st, a), HEX(&st, b));
    REQUIRE(action_with(g, 0, order) == 0);
    get_state(g, &st);
    CHECK(st.fog.explored[b]);
    CHECK(!st.fog.explored[a]);
    CHECK_EQ_INT(st.p[0].tg, 0);
    engine_free(g);
}

/* The Veyari "gain 1 extra trade good whenever it gains trade goods"; a
 * gain of nothing is no gain. Commerce: 3 to its player, 1 to others. */
static void test_trade_goods_veyari_bonus_and_commerce(void)
{
    cnc_state st;
    base(&st, 107);
    st.p[1].race = (int8_t)cnc_race_index(D, "veyari");
    st.p[2].race = (int8_t)cnc_race_index(D, "korrun");
    for (int p = 0; p < 3; p++)
        st.p[p].tg = 0;
    cnc_gain_tg(&st, 1, 2);
    cnc_gain_tg(&st, 2, 2);
    CHECK_EQ_INT(st.p[1].tg, 3);
    CHECK_EQ_INT(st.p[2].tg, 2);
    cnc_gain_tg(&st, 1, 0);
    CHECK_EQ_INT(st.p[1].tg, 3);
    cnc_gain_tg(&st, 1, 1);
    CHECK_EQ_INT(st.p[1].tg, 5);

    for (int p = 0; p < 3; p++)
        st.p[p].tg = 0;
    hold_card(&st, 0, "commerce");
    REQUIRE(run(&st, 0, "{\"type\": \"strategy\", \"card\": \"commerce\"}") ==
            0);
    CHECK_EQ_INT(st.p[0].tg, 3);
    CHECK_EQ_INT(st.p[1].tg, 2); /* the Veyari's 1 + 1 */
    CHECK_EQ_INT(st.p[2].tg, 1);
    /* once a round: a second use is refused */
    REQUIRE(run(&st, 0, "{\"type\": \"strategy\", \"card\": \"commerce\"}") ==
            0);
    CHECK_EQ_INT(st.p[0].tg, 3);
    /* a card the player does not hold is refused */
    REQUIRE(run(&st, 1, "{\"type\": \"strategy\", \"card\": \"commerce\"}") ==
            0);
    CHECK_EQ_INT(st.p[1].tg, 2);
}

/* The Oskan: "the first exploration each round costs 1 trade good less
 * (so the first is free)"; the second still costs 2. */
static void test_oskan_first_exploration_free_second_costs_2(void)
{
    cnc_state st;
    base(&st, 108);
    st.p[0].race = (int8_t)cnc_race_index(D, "oskan");
    st.p[0].tg = 1;
    const char *fmt = "{\"type\": \"explore\", \"sector\": [%d, %d]}";
    int a = -1;
    for (int x = 0; x < st.g.nsectors && a < 0; x++)
        if (cnc_fog_frontier(&st.g, &st.fog, x))
            a = x;
    REQUIRE(a >= 0);
    REQUIRE(run(&st, 0, fmt, HEX(&st, a)) == 0);
    CHECK(st.fog.explored[a]);
    CHECK_EQ_INT(st.p[0].tg, 1); /* free */
    int b = -1;
    for (int x = 0; x < st.g.nsectors && b < 0; x++)
        if (cnc_fog_frontier(&st.g, &st.fog, x))
            b = x;
    REQUIRE(b >= 0);
    REQUIRE(run(&st, 0, fmt, HEX(&st, b)) == 0);
    CHECK(!st.fog.explored[b]); /* costs 2, holds 1 */
    CHECK_EQ_INT(st.p[0].tg, 1);
    st.p[0].tg = 2;
    REQUIRE(run(&st, 0, fmt, HEX(&st, b)) == 0);
    CHECK(st.fog.explored[b]);
    CHECK_EQ_INT(st.p[0].tg, 0);
    /* a Thessari pays 1 for its first */
    base(&st, 108);
    st.p[0].tg = 1;
    REQUIRE(run(&st, 0, fmt, HEX(&st, a)) == 0);
    CHECK(st.fog.explored[a]);
    CHECK_EQ_INT(st.p[0].tg, 0);
}

/* Command: the primary adds 3 tactic tokens; the follow pays 3 influence
 * (ready planets, then trade goods) and one strategy token for 1 tactic
 * token, once per card a round; refused with 2 influence, with no
 * strategy token, or for the player's own card. */
static void test_command_primary_and_its_follow(void)
{
    cnc_state st;
    base(&st, 109);
    int x = colony(&st, 1); /* seat 1: Aster Hal 1 + Brisk 2 influence */
    REQUIRE(x >= 0);
    hold_card(&st, 0, "command");
    st.p[0].tactic = 1;
    REQUIRE(run(&st, 0, "{\"type\": \"strategy\", \"card\": \"command\"}") ==
            0);
    CHECK_EQ_INT(st.p[0].tactic, 4);
    const char *follow = "{\"type\": \"follow\", \"card\": \"command\"}";
    /* the holder cannot follow its own card */
    st.p[0].strategy = 2;
    REQUIRE(run(&st, 0, follow) == 0);
    CHECK_EQ_INT(st.p[0].strategy, 2);
    CHECK_EQ_INT(st.p[0].tactic, 4);
    /* seat 1 has 3 influence in planets, no trade goods: just enough */
    st.p[1].tg = 0;
    st.p[1].tactic = 0;
    st.p[1].strategy = 0;
    REQUIRE(run(&st, 1, follow) == 0); /* no strategy token: refused */
    CHECK_EQ_INT(st.p[1].tactic, 0);
    CHECK_EQ_INT(st.exhausted[x], 0);
    st.p[1].strategy = 2;
    st.exhausted[x] = 2; /* Brisk exhausted: 1 influence left */
    st.p[1].tg = 1;
    REQUIRE(run(&st, 1, follow) == 0); /* 2 of 3: refused */
    CHECK_EQ_INT(st.p[1].tactic, 0);
    CHECK_EQ_INT(st.p[1].strategy, 2);
    CHECK_EQ_INT(st.p[1].tg, 1);
    st.exhausted[x] = 0;
    st.p[1].tg = 0;
    REQUIRE(run(&st, 1, follow) == 0);
    CHECK_EQ_INT(st.p[1].tactic, 1);
    CHECK_EQ_INT(st.p[1].strategy, 1);
    CHECK_EQ_INT(st.exhausted[x], 3);
    /* once per card a round */
    st.exhausted[x] = 0;
    REQUIRE(run(&st, 1, follow) == 0);
    CHECK_EQ_INT(st.p[1].tactic, 1);
    CHECK_EQ_INT(st.p[1].strategy, 1);
}

/* Campaign "returns one of the player's command tokens (the first
 * target's, else its first on the board) to its tactic pool"; with none
 * on the board it is refused (and the card stays unused). */
static void test_campaign_returns_a_command_token(void)
{
    cnc_state st;
    base(&st, 110);
    hold_card(&st, 0, "campaign");
    memset(st.tokens, 0, sizeof st.tokens);
    st.p[0].tactic = 0;
    const char *fmt = "{\"type\": \"strategy\", \"card\": \"campaign\", "
                      "\"targets\": [[%d, %d]]}";
    int home = st.g.home[0], other = st.g.capital;
    REQUIRE(run(&st, 0, fmt, HEX(&st, home)) == 0);
    CHECK_EQ_INT(st.p[0].tactic, 0);
    CHECK_EQ_INT(st.p[0].card_used, 0);
    st.tokens[other] = 1;
    st.tokens[home] = 1 | 2;
    REQUIRE(run(&st, 0, fmt, HEX(&st, home)) == 0);
    CHECK_EQ_INT(st.p[0].tactic, 1);
    CHECK_EQ_INT(st.tokens[home], 2); /* seat 1's stays */
    CHECK_EQ_INT(st.tokens[other], 1);
    CHECK_EQ_INT(st.p[0].card_used, 1);
}

/* "retreat moves all the player's units in space where the order stands
 * to an adjacent sector; it needs no command token." */
static void test_retreat_only_to_an_adjacent_sector(void)
{
    cnc_state st;
    base(&st, 111);
    int home = st.g.home[0], cr = unit_ix("cruiser");
    int near = -1, far = -1;
    for (int y = 0; y < st.g.nsectors; y++) {
        int dd = cnc_sector_distance(&st.g, home, y);
        if (dd == 1 && near < 0)
            near = y;
        if (dd == 2 && far < 0)
            far = y;
    }
    REQUIRE(near >= 0 && far >= 0);
    st.tokens[home] = 1; /* activating home spends nothing */
    st.p[0].tactic = 0;
    int ships = cnc_units_in(&st, 0, home);
    REQUIRE(ships > 0);
    const char *fmt = "[{\"type\": \"activate\", \"sector\": [%d, %d]},"
                      " {\"type\": \"retreat\", \"to\": [%d, %d]}]";
    REQUIRE(run(&st, 0, fmt, HEX(&st, home), HEX(&st, far)) == 0);
    CHECK_EQ_INT(cnc_units_in(&st, 0, home), ships);
    CHECK_EQ_INT(cnc_units_in(&st, 0, far), 0);
    REQUIRE(run(&st, 0, fmt, HEX(&st, home), HEX(&st, near)) == 0);
    CHECK_EQ_INT(cnc_ships_in(&st, 0, home), 0);
    CHECK(st.g.sec[near].units[0][cr] >= 1);
    CHECK_EQ_INT(st.p[0].tactic, 0);
}

/* "land sets down troopers from space, split evenly over the planets the
 * selector picks (the first ones get the remainder); it fails while enemy
 * ships are in the sector." */
static void test_landing_splits_evenly_and_needs_no_enemy_ships(void)
{
    cnc_state st;
    base(&st, 112);
    int x = colony(&st, 0), tr = unit_ix("trooper");
    REQUIRE(x >= 0);
    st.g.sec[x].owner[0] = st.g.sec[x].owner[1] = -1;
    st.g.sec[x].units[0][unit_ix("carrier")] = 1;
    st.g.sec[x].units[0][tr] = 5;
    st.g.sec[x].units[1][unit_ix("destroyer")] = 1;
    const char *fmt = "{\"type\": \"land\", \"sector\": [%d, %d], "
                      "\"planet\": \"all\", \"troops\": %d}";
    REQUIRE(run(&st, 0, fmt, HEX(&st, x), 5) == 0);
    CHECK_EQ_INT(st.g.sec[x].units[0][tr], 5); /* guarded: refused */
    CHECK_EQ_INT(st.g.sec[x].owner[0], -1);
    st.g.sec[x].units[1][unit_ix("destroyer")] = 0;
    REQUIRE(run(&st, 0, fmt, HEX(&st, x), 3) == 0);
    CHECK_EQ_INT(st.g.sec[x].ground[0], 2);
    CHECK_EQ_INT(st.g.sec[x].ground[1], 1);
    CHECK_EQ_INT(st.g.sec[x].units[0][tr], 2);
    CHECK_EQ_INT(st.g.sec[x].owner[0], 0);
    CHECK_EQ_INT(st.g.sec[x].owner[1], 0);
    /* more than it has: all of them, split 1 and 1 */
    REQUIRE(run(&st, 0, fmt, HEX(&st, x), 9) == 0);
    CHECK_EQ_INT(st.g.sec[x].ground[0], 3);
    CHECK_EQ_INT(st.g.sec[x].ground[1], 2);
    CHECK_EQ_INT(st.g.sec[x].units[0][tr], 0);
}

/* The documented ranges of the steps' fields: tokens 0..16 each,
 * combat_retreat after 1..5, a score list of up to 4 keys, at most 3
 * strategy targets. */
static void test_step_field_limits(void)
{
    cnc_state st;
    base(&st, 113);
    CHECK(parses(&st, "{\"type\": \"tokens\", \"tactic\": 16, \"fleet\": 0, "
                      "\"strategy\": 16}"));
    CHECK(!parses(&st, "{\"type\": \"tokens\", \"tactic\": 17, \"fleet\": 0, "
                       "\"strategy\": 0}"));
    CHECK(!parses(&st, "{\"type\": \"tokens\", \"tactic\": 0, \"fleet\": 17, "
                       "\"strategy\": 0}"));
    CHECK(!parses(&st, "{\"type\": \"tokens\", \"tactic\": 0, \"fleet\": 0, "
                       "\"strategy\": -1}"));
    const char *cr = "{\"type\": \"combat_retreat\", \"sector\": [1, 0], "
                     "\"to\": [2, 0], \"after\": %d}";
    CHECK(parses(&st, cr, 1));
    CHECK(parses(&st, cr, 5));
    CHECK(!parses(&st, cr, 0));
    CHECK(!parses(&st, cr, 6));
    CHECK(parses(&st, "{\"type\": \"score\", \"public\": [\"war_chest\", "
                      "\"merchant_reserve\", \"scholars\", \"salons\"]}"));
    CHECK(!parses(&st, "{\"type\": \"score\", \"public\": [\"war_chest\", "
                       "\"merchant_reserve\", \"scholars\", \"salons\", "
                       "\"workshops\"]}"));
    CHECK(!parses(&st, "{\"type\": \"score\", \"secret\": [\"war_chest\"]}"));
    CHECK(parses(&st, "{\"type\": \"strategy\", \"card\": \"intelligence\", "
                      "\"option\": \"exploration\", \"targets\": [[1, 0], "
                      "[2, 0], [0, 1]]}"));
    CHECK(!parses(&st, "{\"type\": \"strategy\", \"card\": \"intelligence\", "
                       "\"option\": \"exploration\", \"targets\": [[1, 0], "
                       "[2, 0], [0, 1], [1, 1]]}"));
}

/* "A player keeps up to 4 of them [standing retreats] a round." */
static void test_at_most_4_standing_retreats(void)
{
    cnc_state st;
    base(&st, 114);
    const char *fmt = "{\"type\": \"combat_retreat\", \"sector\": [%d, %d], "
                      "\"to\": [%d, %d], \"after\": 2}";
    int home = st.g.home[0], nb[6];
    int n = cnc_sector_neighbors(&st.g, home, nb);
    REQUIRE(n >= 2);
    /* the same sector and destination again: updated, not added */
    REQUIRE(run(&st, 0, fmt, HEX(&st, home), HEX(&st, nb[0])) == 0);
    REQUIRE(run(&st, 0, fmt, HEX(&st, home), HEX(&st, nb[0])) == 0);
    int used = 0;
    for (int i = 0; i < CNC_MAX_STANDING; i++)
        used += st.x[0].retreat[i].used;
    CHECK_EQ_INT(used, 1);
    int given = 1;
    for (int y = 0; y < st.g.nsectors && given < 6; y++) {
        int m = cnc_sector_neighbors(&st.g, y, nb);
        if (m == 0 || y == home)
            continue;
        REQUIRE(run(&st, 0, fmt, HEX(&st, y), HEX(&st, nb[0])) == 0);
        given++;
    }
    REQUIRE(given >= 5);
    used = 0;
    for (int i = 0; i < CNC_MAX_STANDING; i++)
        used += st.x[0].retreat[i].used;
    CHECK_EQ_INT(used, 4);
    CHECK_EQ_INT(st.x[0].retreat[0].sector, home);
    CHECK_EQ_INT(st.x[0].retreat[0].after, 2);
}

/* The objectives' thresholds: met at the amount, not one below. */
static void test_objective_thresholds(void)
{
    cnc_state st;
    base(&st, 115);
    int mr = objective("merchant_reserve"), ho = objective("hoarder");
    int sc = objective("scholars"), fs = objective("first_steps");
    int ag = objective("at_the_gates"), ar = objective("armada");
    REQUIRE(mr >= 0 && ho >= 0 && sc >= 0 && fs >= 0 && ag >= 0 && ar >= 0);
    st.p[0].tg = 4;
    CHECK(!cnc_objective_met(&st, 0, mr));
    st.p[0].tg = 5;
    CHECK(cnc_objective_met(&st, 0, mr));
    st.p[0].tg = 7;
    CHECK(!cnc_objective_met(&st, 0, ho));
    st.p[0].tg = 8;
    CHECK(cnc_objective_met(&st, 0, ho));
    memset(st.p[0].techs, 0, sizeof st.p[0].techs);
    st.p[0].techs[0] = 1;
    CHECK(!cnc_objective_met(&st, 0, sc));
    st.p[0].techs[3] = 1;
    CHECK(cnc_objective_met(&st, 0, sc));
    /* planets outside the home: 3 not enough, 4 enough; home not counted */
    int home_planets = cnc_planets_controlled(&st, 0, 0);
    CHECK_EQ_INT(cnc_planets_controlled(&st, 0, 1), 0);
    int got = 0;
    for (int x = 0; x < st.g.nsectors && got < 4; x++) {
        if (x == st.g.home[0] || x == st.g.capital)
            continue;
        const cnc_system *t = cnc_sector_tile(D, &st.g, x);
        for (int p = 0; p < t->nplanets && got < 3; p++)
            if (st.g.sec[x].owner[p] < 0) {
                st.g.sec[x].owner[p] = 0;
                got++;
            }
        if (got == 3)
            break;
    }
    REQUIRE(got == 3);
    CHECK(!cnc_objective_met(&st, 0, fs));
    st.g.sec[st.g.capital].owner[0] = 0;
    CHECK(cnc_objective_met(&st, 0, fs));
    CHECK_EQ_INT(cnc_planets_controlled(&st, 0, 0), home_planets + 4);
    /* a ship next to Concordia, not on it nor two away */
    for (int x = 0; x < st.g.nsectors; x++)
        memset(st.g.sec[x].units[0], 0, sizeof st.g.sec[x].units[0]);
    int cr = unit_ix("cruiser"), n1 = -1, n2 = -1;
    for (int x = 0; x < st.g.nsectors; x++) {
        int dd = cnc_sector_distance(&st.g, x, st.g.capital);
        if (dd == 1 && n1 < 0)
            n1 = x;
        if (dd == 2 && n2 < 0)
            n2 = x;
    }
    REQUIRE(n1 >= 0 && n2 >= 0);
    st.g.sec[st.g.capital].units[0][cr] = 1;
    st.g.sec[n2].units[0][cr] = 9;
    st.g.sec[n2].units[0][unit_ix("fighter")] = 5;
    CHECK(!cnc_objective_met(&st, 0, ag));
    CHECK(cnc_objective_met(&st, 0, ar) == 1); /* 10 ships */
    st.g.sec[n2].units[0][cr] = 8;
    CHECK(!cnc_objective_met(&st, 0, ar)); /* 9 ships and 5 fighters */
    st.g.sec[n1].units[0][cr] = 1;
    CHECK(cnc_objective_met(&st, 0, ag));

    /* explored yourself: Charted Space 3; inspected: Eyes Everywhere 3 */
    base(&st, 115);
    int ch = objective("charted"), ee = objective("eyes_everywhere");
    int sp = objective("seat_of_power"), sa = objective("salons");
    REQUIRE(ch >= 0 && ee >= 0 && sp >= 0 && sa >= 0);
    int ex = 0;
    for (int x = 0; x < st.g.nsectors; x++)
        if (st.fog.explored_by[x] == 0)
            st.fog.explored_by[x] = -1;
    for (int x = 0; x < st.g.nsectors && ex < 2; x++)
        if (st.fog.explored_by[x] < 0) {
            st.fog.explored_by[x] = 0;
            ex++;
        }
    CHECK(!cnc_objective_met(&st, 0, ch));
    for (int x = 0; x < st.g.nsectors; x++)
        if (st.fog.explored_by[x] < 0) {
            st.fog.explored_by[x] = 1; /* someone else's: not counted */
            break;
        }
    CHECK(!cnc_objective_met(&st, 0, ch));
    for (int x = 0; x < st.g.nsectors; x++)
        if (st.fog.explored_by[x] < 0) {
            st.fog.explored_by[x] = 0;
            break;
        }
    CHECK(cnc_objective_met(&st, 0, ch));
    memset(st.fog.inspected, 0, sizeof st.fog.inspected);
    st.fog.inspected[0][0] = st.fog.inspected[0][1] = 1;
    st.fog.inspected[1][2] = 1;
    CHECK(!cnc_objective_met(&st, 0, ee));
    st.fog.inspected[0][2] = 1;
    CHECK(cnc_objective_met(&st, 0, ee));
    /* Concordia: its controller only */
    st.g.sec[st.g.capital].owner[0] = 1;
    CHECK(!cnc_objective_met(&st, 0, sp));
    st.g.sec[st.g.capital].owner[0] = 0;
    CHECK(cnc_objective_met(&st, 0, sp));
    /* 2 cultural planets (Aster Hal is cultural, Brisk hazardous) */
    int c1 = colony(&st, 0);
    REQUIRE(c1 >= 0);
    for (int x = 0; x < st.g.nsectors; x++) {
        const cnc_system *t = cnc_sector_tile(D, &st.g, x);
        for (int p = 0; p < t->nplanets; p++)
            if (x != c1 && st.g.sec[x].owner[p] == 0 &&
                t->planets[p].trait == CNC_TRAIT_CULTURAL)
                st.g.sec[x].owner[p] = -1;
    }
    CHECK(!cnc_objective_met(&st, 0, sa));
    int c2 = unexplored_next_to_home(&st, 0);
    REQUIRE(c2 >= 0);
    set_tile(&st, c2, system_ix("sys_aster_hal"));
    st.g.sec[c2].owner[1] = 0; /* Brisk: hazardous, not counted */
    CHECK(!cnc_objective_met(&st, 0, sa));
    st.g.sec[c2].owner[0] = 0;
    CHECK(cnc_objective_met(&st, 0, sa));
}

/* "A sector a player has seen stays on its map as it last saw it - the
 * units in space and troopers on planets - marked with the round"; one
 * out of its sensors is not updated. */
static void test_last_seen_memory_keeps_troopers_on_planets(void)
{
    cnc_state st;
    base(&st, 122);
    st.p[0].race = (int8_t)cnc_race_index(D, "korrun"); /* sensor range 1 */
    int x = colony(&st, 0); /* next to seat 0's home, seat 1's planets */
    REQUIRE(x >= 0);
    st.g.sec[x].owner[0] = st.g.sec[x].owner[1] = 1;
    st.g.sec[x].ground[0] = 3;
    st.g.sec[x].units[1][unit_ix("destroyer")] = 2;
    int far = st.g.home[1];
    REQUIRE(cnc_sector_distance(&st.g, far, st.g.home[0]) > 2);
    int before = st.fog.memory[0][far].round;
    cnc_fog_observe(&st.g, &st.fog, 5);
    CHECK_EQ_INT(st.fog.memory[0][x].round, 5);
    CHECK_EQ_INT(st.fog.memory[0][x].ground[0], 3);
    CHECK_EQ_INT(st.fog.memory[0][x].units[1][unit_ix("destroyer")], 2);
    CHECK_EQ_INT(st.fog.memory[0][far].round, before);
    CHECK(st.fog.memory[0][far].ground[0] != st.g.sec[far].ground[0]);
    st.g.sec[x].ground[0] = 1;
    cnc_fog_observe(&st.g, &st.fog, 6);
    CHECK_EQ_INT(st.fog.memory[0][x].round, 6);
    CHECK_EQ_INT(st.fog.memory[0][x].ground[0], 1);
}

/* Space combat: hits are taken by the units themselves, a dreadnought
 * absorbing its first, then "the cheapest units are destroyed first"; it
 * goes on until one side has no ships or fighters. Six cruisers attack a
 * lone dreadnought (on several seeds, whatever the dice): no side ends
 * with a unit it never had, a side is left empty, and the loser's
 * troopers in space are lost with it. */
static void test_space_combat_takes_hits_on_its_own_units(void)
{
    for (uint64_t seed = 130; seed < 136; seed++) {
        cnc_state st;
        engine_game *g = ready_game(seed, 0, &st);
        int x = unexplored_next_to_home(&st, 0), home = st.g.home[0];
        REQUIRE(x >= 0);
        set_tile(&st, x, system_ix("empty"));
        st.fog.explored[x] = 1;
        int cr = unit_ix("cruiser"), dn = unit_ix("dreadnought");
        int cv = unit_ix("carrier"), tr = unit_ix("trooper");
        for (int p = 0; p < 3; p++)
            memset(st.g.sec[x].units[p], 0, sizeof st.g.sec[x].units[p]);
        st.g.sec[x].units[1][dn] = 1;
        st.g.sec[x].units[1][tr] = 1;
        st.g.sec[home].units[0][cr] = 6;
        st.p[0].fleet = 10;
        st.p[0].tactic = 3;
        g = put_state(g, &st);
        char order[256];
        snprintf(order, sizeof order,
                 "{\"f1\": {\"type\": \"move\", \"from\": [%d, %d], "
                 "\"to\": [%d, %d], \"units\": {\"cruiser\": 6}}}",
                 HEX(&st, home), HEX(&st, x));
        REQUIRE(action_with(g, 0, order) == 0);
        get_state(g, &st);
        const uint8_t *a = st.g.sec[x].units[0], *b = st.g.sec[x].units[1];
        CHECK_EQ_INT(a[cv], 0);
        CHECK_EQ_INT(b[cv], 0);
        CHECK(a[dn] == 0 && b[cr] == 0);
        CHECK(a[cr] <= 6 && b[dn] <= 1);
        CHECK((a[cr] == 0) != (b[dn] == 0)); /* exactly one side left */
        if (b[dn] == 0)
            CHECK_EQ_INT(b[tr], 0);
        engine_free(g);
    }
}

/* "Sensor range is 1 (the sector itself and its neighbours); the
 * Thessari's special and the Sensor Mesh technology each add 1." */
static void test_sensor_range_one_plus_thessari_and_sensor_mesh(void)
{
    engine_game *g = new_game(8, 140, PART_ONE);
    REQUIRE(g);
    cnc_state st;
    get_state(g, &st);
    engine_free(g);
    int thessari = cnc_race_index(D, "thessari");
    for (int p = 0; p < 8; p++) {
        int r = st.g.race[p];
        CHECK_EQ_INT(st.fog.sensor[p], 1 + (r == thessari));
    }
    /* seat 0 alone at its home: it sees within its range, not beyond */
    int home = st.g.home[0], d1 = -1, d2 = -1, d3 = -1;
    for (int x = 0; x < st.g.nsectors; x++) {
        int far = 1;
        for (int p = 1; p < 8; p++)
            far &= cnc_sector_distance(&st.g, x, st.g.home[p]) > 0;
        int dd = cnc_sector_distance(&st.g, x, home);
        if (far && dd == 1 && d1 < 0)
            d1 = x;
        if (far && dd == 2 && d2 < 0)
            d2 = x;
        if (far && dd == 3 && d3 < 0)
            d3 = x;
    }
    REQUIRE(d1 >= 0 && d2 >= 0 && d3 >= 0);
    st.fog.sensor[0] = 1;
    CHECK(cnc_fog_sees(&st.g, &st.fog, 0, home));
    CHECK(cnc_fog_sees(&st.g, &st.fog, 0, d1));
    CHECK(!cnc_fog_sees(&st.g, &st.fog, 0, d2));
    cnc_learn(&st, NULL, 0, cnc_tech_index(D, "sensor_mesh"));
    CHECK_EQ_INT(st.fog.sensor[0], 2);
    CHECK(cnc_fog_sees(&st.g, &st.fog, 0, d2));
    CHECK(!cnc_fog_sees(&st.g, &st.fog, 0, d3));
}

/* Research "gives the first technology in the list whose requirements it
 * meets"; with Deep Scanners learnt, scanning is allowed. */
static void test_research_gives_the_first_technology_it_may_research(void)
{
    cnc_state st;
    base(&st, 141);
    memset(st.p[0].techs, 0, sizeof st.p[0].techs);
    hold_card(&st, 0, "research");
    int ion = cnc_tech_index(D, "ion_drive"),
        fold = cnc_tech_index(D, "fold_drive");
    CHECK_EQ_INT(cnc_next_tech(&st, 0), ion);
    REQUIRE(run(&st, 0, "{\"type\": \"strategy\", \"card\": \"research\"}") ==
            0);
    CHECK(st.p[0].techs[ion]);
    /* Fold Drive needs Ion Drive: now it is next */
    CHECK_EQ_INT(cnc_next_tech(&st, 0), fold);
    /* every technology but one whose requirement is missing */
    for (int t = 0; t < D->ntechs; t++)
        st.p[0].techs[t] = 1;
    st.p[0].techs[ion] = 0;
    st.p[0].techs[fold] = 0;
    CHECK_EQ_INT(cnc_next_tech(&st, 0), ion);
    st.p[0].techs[ion] = 1;
    CHECK_EQ_INT(cnc_next_tech(&st, 0), fold);
    st.p[0].techs[fold] = 1;
    CHECK_EQ_INT(cnc_next_tech(&st, 0), -1);
    int sc = cnc_tech_index(D, "deep_scanners");
    st.fog.scanner[1] = 0;
    cnc_learn(&st, NULL, 1, sc);
    CHECK(st.p[1].techs[sc]);
    CHECK_EQ_INT(st.fog.scanner[1], 1);
}

/* A move is checked when saved against the slowest named ship's move
 * plus the drives (Ion Drive +1), one more drive while the player could
 * still research one (holding Research unused), and Forced March held. */
static void test_move_reach_when_saved_counts_drives_and_cards(void)
{
    cnc_state st;
    base(&st, 142);
    for (int p = 0; p < 3; p++)
        st.p[p].card = -1;
    memset(st.strat_owner, -1, sizeof st.strat_owner);
    memset(st.p[0].techs, 0, sizeof st.p[0].techs);
    memset(st.p[0].hand, 0, sizeof st.p[0].hand);
    st.p[0].strategy = 0;
    int home = st.g.home[0], at[4] = {-1, -1, -1, -1};
    for (int x = 0; x < st.g.nsectors; x++) {
        int dd = cnc_sector_distance(&st.g, home, x);
        if (dd <= 3 && at[dd] < 0)
            at[dd] = x;
    }
    REQUIRE(at[1] >= 0 && at[2] >= 0 && at[3] >= 0);
    const char *fmt = "{\"f\": {\"type\": \"move\", \"from\": [%d, %d], "
                      "\"to\": [%d, %d], \"units\": {\"carrier\": 1, "
                      "\"cruiser\": 1}}}";
    CHECK(saved(&st, fmt, HEX(&st, home), HEX(&st, at[1])));
    CHECK(!saved(&st, fmt, HEX(&st, home), HEX(&st, at[2])));
    st.p[0].techs[cnc_tech_index(D, "ion_drive")] = 1;
    CHECK(saved(&st, fmt, HEX(&st, home), HEX(&st, at[2])));
    CHECK(!saved(&st, fmt, HEX(&st, home), HEX(&st, at[3])));
    hold_card(&st, 0, "research"); /* Fold Drive could come this round */
    CHECK(saved(&st, fmt, HEX(&st, home), HEX(&st, at[3])));
    st.p[0].card_used = 1;
    CHECK(!saved(&st, fmt, HEX(&st, home), HEX(&st, at[3])));
    st.p[0].hand[action_card("forced_march")] = 1;
    CHECK(saved(&st, fmt, HEX(&st, home), HEX(&st, at[3])));
}

/* The condition "the sector holds enemy troopers": another player's
 * troopers on a planet there (seat 0's too), not the player's own, not a
 * planet with no troopers. */
static void test_condition_holds_enemy_troopers_of_any_other_seat(void)
{
    cnc_state st;
    base(&st, 143);
    int x = colony(&st, 0);
    REQUIRE(x >= 0);
    json_t *j = json_loads("{\"type\": \"if\", \"cond\": {\"type\": "
                           "\"holds\", \"what\": \"enemy_troops\"}, "
                           "\"then\": [{\"type\": \"hold\"}]}",
                           0, NULL);
    cnc_order o;
    REQUIRE(j && cnc_order_parse(D, &st.g, j, &o, NULL) == 0);
    json_decref(j);
    const cnc_cond *k = &o.steps[o.first].cond;
    st.g.sec[x].ground[0] = 0;
    st.g.sec[x].ground[1] = 0;
    cnc_cond_ctx c1 = {1, x, -1, 1}, c0 = {0, x, -1, 1}, c2 = {2, x, -1, 1};
    CHECK_EQ_INT(cnc_cond_eval(D, &st.g, k, &c1), 0); /* no troopers */
    st.g.sec[x].ground[1] = 2;                        /* seat 0's, on Brisk */
    CHECK_EQ_INT(cnc_cond_eval(D, &st.g, k, &c1), 1);
    CHECK_EQ_INT(cnc_cond_eval(D, &st.g, k, &c2), 1);
    CHECK_EQ_INT(cnc_cond_eval(D, &st.g, k, &c0), 0); /* its own */
    st.g.sec[x].owner[1] = 2;
    CHECK_EQ_INT(cnc_cond_eval(D, &st.g, k, &c0), 1);
    CHECK_EQ_INT(cnc_cond_eval(D, &st.g, k, &c2), 0);
}

/* The lobby resolved with no orders at all (the ruleset's resolve takes
 * none): every player sends a clerk, no spy acts, and the action phase
 * follows (the council every round). */
static void test_lobby_with_no_orders_seats_clerks(void)
{
    engine_rng rng;
    uint8_t key[32] = {2};
    engine_rng_init(&rng, key, 150);
    engine_game *g = new_game(3, 150, NULL);
    REQUIRE(g);
    picks_by_bots(g, "random", &rng, NULL);
    cnc_state st;
    get_state(g, &st);
    engine_free(g);
    REQUIRE(st.phase == CNC_PHASE_LOBBY);
    cnc_lobby_resolve(&st, NULL, NULL);
    CHECK_EQ_INT(st.phase, CNC_PHASE_ACTION);
    CHECK_EQ_INT(st.c.seated.round, st.round);
    for (int p = 0; p < 3; p++) {
        CHECK_EQ_INT(st.c.seated.sent[p], CNC_SENT_CLERK);
        CHECK_EQ_INT(st.c.seated.fate[p], CNC_FATE_SEATED);
    }
}

void *cnc_twin(const void *state, int seat, engine_rng *rng);

/* What a seat cannot tell is varied in its twin (the fog's "no unseen
 * information" property, tests/unit/test_twin.c): another seat's
 * troopers on a planet out of its sight get new counts; its own and
 * those in sight never change. */
static void test_twin_varies_only_troopers_out_of_sight(void)
{
    cnc_state st;
    base(&st, 151);
    int x = colony(&st, 0); /* in seat 0's sight */
    REQUIRE(x >= 0);
    st.g.sec[x].owner[0] = 1;
    st.g.sec[x].ground[0] = 2;
    int y = st.g.home[1]; /* seat 1's home: explored, out of seat 0's sight */
    REQUIRE(!cnc_fog_visible(&st.g, &st.fog, 0, y));
    REQUIRE(st.g.sec[y].owner[0] == 1);
    st.g.sec[y].ground[0] = 9;
    int changed = 0;
    for (uint64_t k = 0; k < 8; k++) {
        engine_rng rng;
        uint8_t key[32] = {3};
        engine_rng_init(&rng, key, k);
        cnc_state *t = cnc_twin(&st, 0, &rng);
        REQUIRE(t);
        changed += t->g.sec[y].ground[0] != 9;
        CHECK(t->g.sec[y].ground[0] <= 3 || t->g.sec[y].ground[0] == 9);
        CHECK_EQ_INT(t->g.sec[x].ground[0], 2);
        CHECK_EQ_INT(t->g.sec[st.g.home[0]].ground[0],
                     st.g.sec[st.g.home[0]].ground[0]);
        free(t);
    }
    CHECK_EQ_INT(changed, 8); /* 9 is never a new count (0..3) */
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

/* Count of seat's action cards in hand. */
static int hand_size(const cnc_state *st, int seat)
{
    int n = 0;
    for (int a = 0; a < D->nactions; a++)
        n += st->p[seat].hand[a];
    return n;
}

/* System markers act on the first fleet to enter, once, and are then face
 * up: Derelict Hulk +1 cruiser, Supply Cache +2 trade goods, Mine Field
 * -1 ship, Quiet Space nothing. */
static void test_system_markers_act_once_on_the_first_fleet(void)
{
    static const char *kinds[] = {"derelict", "cache", "mines", "quiet_space"};
    for (int i = 0; i < 4; i++) {
        cnc_state st;
        base(&st, 160);
        int x = unexplored_next_to_home(&st, 0), cr = unit_ix("cruiser");
        REQUIRE(x >= 0);
        set_tile(&st, x, system_ix("empty"));
        st.fog.explored[x] = 1;
        free_slot(&st, x);
        int m = put_marker(&st, x, -1, marker_kind(kinds[i]));
        REQUIRE(m >= 0);
        memset(st.g.sec[x].units, 0, sizeof st.g.sec[x].units);
        st.g.sec[x].units[0][cr] = 2;
        st.p[0].tg = 0;
        cnc_system_marker(&st, NULL, 0, x);
        CHECK_EQ_INT(st.g.markers[m].state, CNC_MK_REVEALED);
        int want_cr[] = {3, 2, 1, 2}, want_tg[] = {0, 2, 0, 0};
        CHECK_EQ_INT(st.g.sec[x].units[0][cr], want_cr[i]);
        CHECK_EQ_INT(st.p[0].tg, want_tg[i]);
        /* the next fleet: nothing */
        st.g.sec[x].units[1][cr] = 2;
        cnc_system_marker(&st, NULL, 1, x);
        CHECK_EQ_INT(st.g.sec[x].units[1][cr], 2);
        CHECK_EQ_INT(st.p[0].tg, want_tg[i]);
    }
}

/* Planet markers act on the first to land: Colonists join with 2
 * troopers, Ancient Relic +1 VP, Research Ruins 1 action card, Rich
 * Deposits +2 trade goods, Plague World -1 trooper (one lander alone
 * then takes nothing), Barren Surface nothing. */
static void test_planet_markers_act_on_the_first_lander(void)
{
    static const char *kinds[] = {"colonists", "relic",  "ruins",
                                  "riches",    "plague", "barren"};
    for (int i = 0; i < 6; i++) {
        for (int n = 1; n <= 2; n++) {
            cnc_state st;
            base(&st, 161);
            int x = unexplored_next_to_home(&st, 0);
            REQUIRE(x >= 0);
            set_tile(&st, x, system_ix("sys_aster_hal"));
            st.fog.explored[x] = 1;
            free_slot(&st, x);
            int m = put_marker(&st, x, 0, marker_kind(kinds[i]));
            REQUIRE(m >= 0);
            st.p[0].tg = 0;
            st.p[0].vp = 0;
            int cards = hand_size(&st, 0);
            cnc_land_on(&st, NULL, 0, x, 0, n);
            CHECK_EQ_INT(st.g.markers[m].state, CNC_MK_REVEALED);
            int plague = strcmp(kinds[i], "plague") == 0;
            int want = n + (i == 0 ? 2 : 0) - plague;
            CHECK_EQ_INT(st.g.sec[x].ground[0], want);
            CHECK_EQ_INT(st.g.sec[x].owner[0], want > 0 ? 0 : -1);
            CHECK_EQ_INT(st.p[0].vp, i == 1 ? 1 : 0);
            CHECK_EQ_INT(hand_size(&st, 0), cards + (i == 2));
            CHECK_EQ_INT(st.p[0].tg, i == 3 ? 2 : 0);
        }
    }
}

/* Status 5: 2 tokens, one more for the Amaranth, for Cipher Net, for
 * Standing Levy in force, and a Rally's amount; a split fills the fleet
 * pool as asked (at most all), then the strategy pool, the rest tactic. */
static void test_status5_gains_and_split(void)
{
    cnc_state st;
    base(&st, 116);
    for (int p = 0; p < 3; p++) {
        st.p[p].race = (int8_t)cnc_race_index(D, "thessari");
        st.p[p].tactic = st.p[p].fleet = 5; /* above any stack */
        st.p[p].strategy = 0;
        st.x[p].plan = 0;
    }
    st.p[1].race = (int8_t)cnc_race_index(D, "amaranth");
    st.p[2].techs[cnc_tech_index(D, "cipher_net")] = 1;
    st.x[0].rally = 2;
    cnc_status_gain_tokens(&st, NULL);
    CHECK_EQ_INT(st.p[0].tactic, 9);
    CHECK_EQ_INT(st.p[1].tactic, 8);
    CHECK_EQ_INT(st.p[2].tactic, 8);
    int levy = -1;
    for (int a = 0; a < D->nagendas; a++)
        if (strcmp(D->agendas[a].key, "standing_levy") == 0)
            levy = a;
    REQUIRE(levy >= 0);
    st.c.laws[levy] = 1;
    st.x[0].rally = 0;
    cnc_status_gain_tokens(&st, NULL);
    CHECK_EQ_INT(st.p[0].tactic, 12);

    /* splits: 5 + 5 + 0 + 2 gained = 12 tokens */
    base(&st, 116);
    for (int p = 0; p < 3; p++) {
        st.p[p].race = (int8_t)cnc_race_index(D, "thessari");
        st.p[p].tactic = 5;
        st.p[p].fleet = 5;
        st.p[p].strategy = 0;
        st.x[p].plan = 1;
    }
    int8_t want[3][3] = {{0, 2, 11}, {0, 3, 9}, {9, 13, 0}};
    for (int p = 0; p < 3; p++)
        memcpy(st.x[p].pools, want[p], 3);
    cnc_status_gain_tokens(&st, NULL);
    /* fleet 2, strategy asked 11 of the 10 left: 10, tactic 0 */
    CHECK_EQ_INT(st.p[0].fleet, 2);
    CHECK_EQ_INT(st.p[0].strategy, 10);
    CHECK_EQ_INT(st.p[0].tactic, 0);
    /* fleet 3, strategy 9 exactly what is left */
    CHECK_EQ_INT(st.p[1].fleet, 3);
    CHECK_EQ_INT(st.p[1].strategy, 9);
    CHECK_EQ_INT(st.p[1].tactic, 0);
    /* fleet asked 13 of 12: all of them */
    CHECK_EQ_INT(st.p[2].fleet, 12);
    CHECK_EQ_INT(st.p[2].strategy, 0);
    CHECK_EQ_INT(st.p[2].tactic, 0);
}

/* "Its initiative (1 to 8) sets the order of everything that follows":
 * every seat in the order, the lowest card first, the Command holder
 * (initiative 1) included. */
static void test_initiative_order_lowest_card_first(void)
{
    cnc_state st;
    base(&st, 117);
    int cards[3] = {strategy("chancery"), strategy("command"),
                    strategy("commerce")};
    for (int p = 0; p < 3; p++)
        st.p[p].card = (int8_t)cards[p];
    int order[ENGINE_MAX_SEATS];
    CHECK_EQ_INT(cnc_initiative_order(&st, order), 3);
    CHECK_EQ_INT(order[0], 1);
    CHECK_EQ_INT(order[1], 2);
    CHECK_EQ_INT(order[2], 0);
    st.p[1].card = (int8_t)strategy("intelligence");
    CHECK_EQ_INT(cnc_initiative_order(&st, order), 3);
    CHECK_EQ_INT(order[0], 1);
    st.p[1].card = -1; /* no card: last */
    CHECK_EQ_INT(cnc_initiative_order(&st, order), 3);
    CHECK_EQ_INT(order[0], 2);
    CHECK_EQ_INT(order[2], 1);
}

/* The start: 3 tactic, 3 fleet, 2 strategy tokens, 2 trade goods; 2
 * carriers, 1 cruiser, 2 fighters in space and 4 troopers on the first
 * home planet; two stage I objectives face up, one secret each. */
static void test_start_of_a_game(void)
{
    engine_game *g = new_game(4, 118, PART_ONE);
    REQUIRE(g);
    cnc_state st;
    get_state(g, &st);
    CHECK_EQ_INT(st.revealed, 2);
    for (int i = 0; i < st.revealed; i++)
        CHECK_EQ_INT(D->objectives[st.public_deck[i]].stage, 1);
    for (int p = 0; p < 4; p++) {
        CHECK_EQ_INT(st.p[p].tactic, 3);
        CHECK_EQ_INT(st.p[p].fleet, 3);
        CHECK_EQ_INT(st.p[p].strategy, 2);
        CHECK_EQ_INT(st.p[p].tg, 2);
        CHECK_EQ_INT(st.p[p].vp, 0);
        int h = st.g.home[p], secrets = 0;
        CHECK_EQ_INT(st.g.sec[h].units[p][unit_ix("carrier")], 2);
        CHECK_EQ_INT(st.g.sec[h].units[p][unit_ix("cruiser")], 1);
        CHECK_EQ_INT(st.g.sec[h].units[p][unit_ix("fighter")], 2);
        CHECK_EQ_INT(st.g.sec[h].units[p][unit_ix("destroyer")], 0);
        CHECK_EQ_INT(st.g.sec[h].ground[0], 4);
        CHECK_EQ_INT(st.g.sec[h].owner[0], p);
        for (int o = 0; o < CNC_MAX_OBJECTIVES; o++)
            secrets += st.p[p].secret[o];
        CHECK_EQ_INT(secrets, 1);
    }
    engine_free(g);
}

/* The vote's base: every planet the player controls, ready or not. */
static void test_votes_count_every_planet_ready_or_not(void)
{
    cnc_state st;
    base(&st, 119);
    int x = colony(&st, 0);
    REQUIRE(x >= 0);
    int all = cnc_planet_influence(&st, 0);
    memset(st.exhausted, 0, sizeof st.exhausted);
    CHECK_EQ_INT(cnc_planet_influence(&st, 0), all);
    st.g.sec[x].owner[1] = 1; /* Brisk (2) to seat 1 */
    CHECK_EQ_INT(cnc_planet_influence(&st, 0), all - 2);
}

/* Cards played ahead in an action order take effect later: Lucky Shot and
 * Direct Hit for the next space combat, Forced March and Long Haul the
 * next move (1 and 2 further), Rally and Muster at status 5 (1 and 2).
 * Each is spent; a card not held is refused and changes nothing. */
static void test_cards_played_ahead_are_kept_for_later(void)
{
    cnc_state st;
    base(&st, 120);
    const char *fmt = "{\"type\": \"play\", \"card\": \"%s\"}";
    static const char *keys[] = {"lucky_shot", "direct_hit", "forced_march",
                                 "long_haul",  "rally",      "muster"};
    REQUIRE(run(&st, 0, fmt, "lucky_shot") == 0); /* not held */
    CHECK_EQ_INT(st.x[0].reroll, 0);
    for (int i = 0; i < 6; i++) {
        int a = action_card(keys[i]);
        REQUIRE(a >= 0);
        st.p[0].hand[a] = 1;
        REQUIRE(run(&st, 0, fmt, keys[i]) == 0);
        CHECK_EQ_INT(st.p[0].hand[a], 0);
    }
    CHECK_EQ_INT(st.x[0].reroll, 1);
    CHECK_EQ_INT(st.x[0].direct_hit, 1);
    CHECK_EQ_INT(st.x[0].extra_move, 3);
    CHECK_EQ_INT(st.x[0].rally, 3);
    CHECK_EQ_INT(st.x[1].reroll + st.x[1].direct_hit + st.x[1].extra_move +
                     st.x[1].rally,
                 0);
}

/* Status 5 with no split: "each goes to the fleet pool while it is
 * smaller than the player's largest stack of ships in one sector, else to
 * the tactic pool"; at 8 seats, on the largest map. */
static void test_status5_unplanned_tokens_fill_the_fleet_pool_to_the_stack(void)
{
    engine_game *g = new_game(8, 121, PART_ONE);
    REQUIRE(g);
    cnc_state st;
    get_state(g, &st);
    engine_free(g);
    REQUIRE(st.g.nsectors == CNC_MAX_SECTORS);
    int cr = unit_ix("cruiser");
    for (int p = 0; p < 8; p++) {
        st.p[p].race = (int8_t)cnc_race_index(D, "thessari");
        st.p[p].tactic = 0;
        st.p[p].strategy = 0;
        memset(&st.x[p], 0, sizeof st.x[p]);
        /* home: 2 carriers and 1 cruiser, 3 ships; seat 1: 4 ships */
        st.p[p].fleet = (int8_t)(p == 0 ? 3 : p == 1 ? 2 : 5);
    }
    st.g.sec[st.g.home[1]].units[1][cr] = 2;
    cnc_status_gain_tokens(&st, NULL);
    CHECK_EQ_INT(st.p[0].fleet, 3); /* at the stack: both to tactic */
    CHECK_EQ_INT(st.p[0].tactic, 2);
    CHECK_EQ_INT(st.p[1].fleet, 4); /* 2 below: both to fleet */
    CHECK_EQ_INT(st.p[1].tactic, 0);
    for (int p = 2; p < 8; p++) {
        CHECK_EQ_INT(st.p[p].fleet, 5);
        CHECK_EQ_INT(st.p[p].tactic, 2);
    }
    st.p[0].fleet = 2; /* 1 below: one each */
    st.p[0].tactic = 0;
    cnc_status_gain_tokens(&st, NULL);
    CHECK_EQ_INT(st.p[0].fleet, 3);
    CHECK_EQ_INT(st.p[0].tactic, 1);
}

/* council.json with the first occurrence of from replaced by to: 0 when
 * it loads, else the error's field in field. */
extern const char council_json[];

static char last_error[256];

static int last_error_has(const char *text)
{
    return strstr(last_error, text) != NULL;
}

static int load_replaced(const char *from, const char *to, char *field,
                         size_t n)
{
    const char *at = strstr(council_json, from);
    if (!at)
        return -99;
    size_t len = strlen(council_json) + strlen(to) + 1;
    char *text = malloc(len);
    if (!text)
        return -98;
    size_t pre = (size_t)(at - council_json);
    memcpy(text, council_json, pre);
    snprintf(text + pre, len - pre, "%s%s", to, at + strlen(from));
    static cnc_data d;
    engine_error err = {0};
    int rc = cnc_data_parse(text, strlen(text), &d, &err);
    snprintf(field, n, "%s", err.field);
    snprintf(last_error, sizeof last_error, "%s", err.msg);
    free(text);
    return rc;
}

/* Data: a required number left out (a unit's cost) or a marker count past
 * 40 is refused, naming the field; the espionage card must keep its
 * exploration option (refused without it, accepted with it alone). */
static void test_data_refuses_a_missing_cost_or_exploration_option(void)
{
    char field[64];
    CHECK_EQ_INT(load_replaced("\"kind\": \"ship\", \"cost\": 3, ",
                               "\"kind\": \"ship\", ", field, sizeof field),
                 ENGINE_EINVALID);
    CHECK_EQ_STR(field, "cost");
    CHECK_EQ_INT(load_replaced("\"kind\": \"ship\", \"cost\": 3, ",
                               "\"kind\": \"ship\", \"cost\": 3, ", field,
                               sizeof field),
                 0);
    const char *quiet = "\"key\": \"quiet_space\", \"name\": \"Quiet "
                        "Space\", \"where\": \"system\", \"hostile\": "
                        "false, \"count\": ";
    char to[200];
    snprintf(to, sizeof to, "%s41", quiet);
    char from[200];
    snprintf(from, sizeof from, "%s16", quiet);
    CHECK_EQ_INT(load_replaced(from, to, field, sizeof field), ENGINE_EINVALID);
    CHECK_EQ_STR(field, "count");
    CHECK(last_error_has("1..40"));
    const char *opts = "\"ability\": \"espionage\", \"options\": "
                       "[\"exploration\", \"sabotage\"]";
    CHECK_EQ_INT(load_replaced(opts,
                               "\"ability\": \"espionage\", \"options\": "
                               "[\"sabotage\"]",
                               field, sizeof field),
                 ENGINE_EINVALID);
    CHECK_EQ_STR(field, "options");
    CHECK_EQ_INT(load_replaced(opts,
                               "\"ability\": \"espionage\", \"options\": "
                               "[\"exploration\"]",
                               field, sizeof field),
                 0);
}

/* ------------------------------------------------ the council's vote */

/* A 4-seat game (the council every round) in its lobby with agenda on the
 * table and speaker 2, races veyari, dravik, thessari, sephine, nobody
 * owning a planet: votes are the representatives', the races' and the
 * cards'. */
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
        st->p[p].race = (int8_t)cnc_race_index(D, races[p]);
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
#define VOTE(b) "{\"v\": {\"type\": \"vote\", \"for\": " #b "}}"

/* "Each seated player's votes are its planets' influence plus its
 * representative's influence (an orator +1 for every 3 trade goods held),
 * the Ul-Sephine +2": the Veyari's First Factor (3, orator) with 5 and 6
 * trade goods, the Dravik's Legate (3), the Thessari's High Observer (3),
 * the Choir's Voice of Many (4) and +2. */
static void test_vote_weights_orator_and_the_choir(void)
{
    const char *reps[4] = {
        "{" REPR("councillor") "}", "{" REPR("councillor") "}",
        "{" REPR("councillor") "}", "{" REPR("councillor") "}"};
    const char *votes[4] = {VOTE(true), VOTE(false), VOTE(true), VOTE(false)};
    for (int tg = 5; tg <= 6; tg++) {
        cnc_state st;
        engine_game *g = vote_game(170, "austerity_act", &st);
        REQUIRE(g);
        st.p[0].tg = (int16_t)tg;
        g = put_state(g, &st);
        REQUIRE(vote_round(g, reps, votes) == 0);
        get_state(g, &st);
        CHECK_EQ_INT(st.c.last.weight[0], 3 + tg / 3);
        CHECK_EQ_INT(st.c.last.weight[1], 3);
        CHECK_EQ_INT(st.c.last.weight[2], 3);
        CHECK_EQ_INT(st.c.last.weight[3], 6);
        CHECK_EQ_INT(st.c.last.totals[1], 6 + tg / 3);
        CHECK_EQ_INT(st.c.last.totals[0], 9);
        CHECK_EQ_INT(st.c.last.outcome, 0);
        engine_free(g);
    }
}

/* Blackmail: the target's votes go to the blackmailer's side (the
 * Veyari's Silk Broker, influence 0, on the Dravik's Legate, 3), and are
 * lost when the blackmailer abstains; without it the law ties 3 to 3 and
 * fails (the speaker gave no vote). Sabotage (the Thessari's Glass Eye, 1)
 * makes the target's votes count 0. */
static void test_blackmail_and_sabotage_move_or_void_votes(void)
{
    const char *council[4] = {VOTE(true), VOTE(false), NULL, NULL};
    const char *spy1 = "{\"r\": {\"type\": \"representative\", \"role\": "
                       "\"spy\", \"target\": 1}}";
    const char *plain[4] = {"{" REPR("councillor") "}",
                            "{" REPR("councillor") "}", NULL, NULL};
    const char *black[4] = {spy1, "{" REPR("councillor") "}", NULL, NULL};
    cnc_state st;
    engine_game *g = vote_game(171, "trade_stipend", &st);
    REQUIRE(vote_round(g, plain, council) == 0);
    get_state(g, &st);
    CHECK_EQ_INT(st.c.last.totals[1], 3);
    CHECK_EQ_INT(st.c.last.totals[0], 3);
    CHECK_EQ_INT(st.c.last.outcome, 0);
    engine_free(g);

    g = vote_game(171, "trade_stipend", &st);
    REQUIRE(vote_round(g, black, council) == 0);
    get_state(g, &st);
    CHECK_EQ_INT(st.c.last.deed[0], CNC_DEED_BLACKMAILED);
    CHECK_EQ_INT(st.c.last.totals[1], 3);
    CHECK_EQ_INT(st.c.last.totals[0], 0);
    CHECK_EQ_INT(st.c.last.vote[1], -1);
    CHECK_EQ_INT(st.c.last.outcome, 1);
    engine_free(g);

    const char *abstain[4] = {NULL, VOTE(false), NULL, NULL};
    g = vote_game(171, "trade_stipend", &st);
    REQUIRE(vote_round(g, black, abstain) == 0);
    get_state(g, &st);
    CHECK_EQ_INT(st.c.last.totals[0] + st.c.last.totals[1], 0);
    CHECK_EQ_INT(st.c.last.outcome, 0);
    engine_free(g);

    const char *sab[4] = {NULL, "{" REPR("councillor") "}",
                          "{\"r\": {\"type\": \"representative\", \"role\": "
                          "\"spy\", \"target\": 1}}",
                          NULL};
    const char *sv[4] = {NULL, VOTE(false), VOTE(true), NULL};
    g = vote_game(171, "trade_stipend", &st);
    REQUIRE(vote_round(g, sab, sv) == 0);
    get_state(g, &st);
    CHECK_EQ_INT(st.c.last.deed[2], CNC_DEED_SABOTAGED);
    CHECK_EQ_INT(st.c.last.weight[1], 0);
    CHECK_EQ_INT(st.c.last.totals[0], 0);
    CHECK_EQ_INT(st.c.last.totals[1], 1);
    CHECK_EQ_INT(st.c.last.outcome, 1);
    engine_free(g);
}

/* Gag Order: "the player you name casts no votes at this council"; the
 * card is refused (kept) when not held. */
static void test_gag_order_silences_the_named_player(void)
{
    const char *council[4] = {VOTE(true), VOTE(false), NULL, NULL};
    const char *lobby[4] = {
        "{" REPR(
            "councillor") ", \"c\": {\"type\": "
                          "\"play\", \"card\": \"gag_order\", \"seat\": 1}}",
        "{" REPR("councillor") "}", NULL, NULL};
    int gag = action_card("gag_order");
    REQUIRE(gag >= 0);
    for (int held = 0; held <= 1; held++) {
        cnc_state st;
        engine_game *g = vote_game(172, "trade_stipend", &st);
        st.p[0].hand[gag] = (uint8_t)held;
        g = put_state(g, &st);
        REQUIRE(vote_round(g, lobby, council) == 0);
        get_state(g, &st);
        CHECK_EQ_INT(st.c.last.totals[0], held ? 0 : 3);
        CHECK_EQ_INT(st.c.last.totals[1], 3);
        CHECK_EQ_INT(st.c.last.outcome, held);
        CHECK_EQ_INT(st.p[0].hand[gag], 0);
        engine_free(g);
    }
}

/* Table the Motion: the agenda is withdrawn unvoted (the outcome -2 in
 * `last`); with no agenda at all the outcome is -3; a voted law is 1 or
 * 0. */
static void test_tabled_agenda_and_no_agenda_outcomes(void)
{
    int tm = action_card("table_motion");
    REQUIRE(tm >= 0);
    const char *lobby[4] = {"{\"c\": {\"type\": \"play\", \"card\": "
                            "\"table_motion\"}}",
                            NULL, NULL, NULL};
    cnc_state st;
    engine_game *g = vote_game(173, "trade_stipend", &st);
    st.p[0].hand[tm] = 1;
    g = put_state(g, &st);
    REQUIRE(vote_round(g, lobby, NULL) == 0);
    get_state(g, &st);
    CHECK_EQ_INT(st.c.last.outcome, -2);
    CHECK_EQ_INT(st.p[0].hand[tm], 0);
    engine_free(g);

    g = vote_game(173, "no_such_agenda", &st); /* none on the table */
    REQUIRE(vote_round(g, NULL, NULL) == 0);
    get_state(g, &st);
    CHECK_EQ_INT(st.c.last.outcome, -3);
    engine_free(g);

    const char *yes[4] = {VOTE(true), NULL, NULL, NULL};
    const char *rep[4] = {"{" REPR("councillor") "}", NULL, NULL, NULL};
    g = vote_game(173, "trade_stipend", &st);
    REQUIRE(vote_round(g, rep, yes) == 0);
    get_state(g, &st);
    CHECK_EQ_INT(st.c.last.outcome, 1);
    engine_free(g);
}

/* The view shows a sector out of sight as last seen, fleets included (a
 * fleet of carriers alone here), even when that was at the start (round
 * 0); never seen: no fleets. */
static void test_view_shows_fleets_last_seen_even_at_round_0(void)
{
    cnc_state st;
    base(&st, 174);
    st.p[0].race = (int8_t)cnc_race_index(D, "korrun");
    st.fog.sensor[0] = 1;
    int y = st.g.home[1], cv = unit_ix("carrier");
    REQUIRE(!cnc_fog_visible(&st.g, &st.fog, 0, y));
    for (int r = -1; r <= 1; r++) {
        st.fog.memory[0][y].round = (int16_t)r;
        memset(st.fog.memory[0][y].units, 0, sizeof st.fog.memory[0][y].units);
        st.fog.memory[0][y].units[1][cv] = 2;
        json_t *v = cnc_fog_render(D, &st.g, &st.fog, 0, st.round);
        json_t *sec = json_array_get(json_object_get(v, "sectors"), (size_t)y);
        json_t *fl = json_object_get(sec, "fleets");
        CHECK_EQ_INT(json_array_size(fl), r >= 0 ? 1 : 0);
        if (r >= 0) {
            json_t *f = json_array_get(fl, 0);
            CHECK_EQ_INT(json_integer_value(json_object_get(f, "seat")), 1);
            CHECK_EQ_INT(json_integer_value(json_object_get(
                             json_object_get(f, "units"), "carrier")),
                         2);
            CHECK_EQ_INT(json_integer_value(json_object_get(sec, "seen_round")),
                         r);
        }
        CHECK(json_is_false(json_object_get(sec, "live")));
        json_decref(v);
    }
}

/* The bots' orders stay well formed (a unit count is 1..30 in a step)
 * when a seat has more than 30 of a unit in one sector: 31 fighters at
 * home, with the carriers that could move them. */
static void test_bots_cap_unit_counts_at_30(void)
{
    static const char *levels[] = {"basic", "random"};
    for (int l = 0; l < 2; l++) {
        for (uint64_t seed = 180; seed < 186; seed++) {
            cnc_state st;
            engine_game *g = ready_game(seed, 0, &st);
            st.g.sec[st.g.home[0]].units[0][unit_ix("fighter")] = 31;
            st.g.sec[st.g.home[0]].units[0][unit_ix("destroyer")] = 31;
            st.p[0].fleet = 40;
            st.p[0].tactic = 6;
            g = put_state(g, &st);
            engine_rng rng;
            uint8_t key[32] = {5};
            engine_rng_init(&rng, key, seed);
            engine_input in;
            engine_error err = {0};
            REQUIRE(engine_bot_action(g, 0, levels[l], &rng, &in, &err) == 0);
            CHECKF(apply(g, 0, in.kind, in.window, in.payload, NULL) == 0,
                   "%s bot's order refused (seed %d)", levels[l], (int)seed);
            json_decref((json_t *)in.payload);
            engine_free(g);
        }
    }
}

/* Status 1 without a score step: "the first revealed public objective it
 * meets and has not scored" - the first in the deck too; with an empty
 * list, none; with a list naming it, that one (at deck position 0). */
static void test_status1_default_scores_the_first_revealed_met(void)
{
    for (int given = 0; given <= 2; given++) {
        cnc_state st;
        base(&st, 190);
        int mr = objective("merchant_reserve"), sc = objective("scholars");
        REQUIRE(mr >= 0 && sc >= 0);
        st.public_deck[0] = (int8_t)mr;
        st.public_deck[1] = (int8_t)sc;
        st.revealed = 2;
        for (int p = 0; p < 3; p++) {
            memset(st.p[p].scored, 0, sizeof st.p[p].scored);
            memset(st.p[p].secret, 0, sizeof st.p[p].secret);
            memset(st.p[p].techs, 0, sizeof st.p[p].techs);
            st.p[p].vp = 0;
            st.p[p].tg = 0;
        }
        st.p[0].tg = 5; /* meets Merchant Reserve, not Scholars */
        if (given) {
            st.x[0].score_given = 1;
            memset(st.x[0].score_public, -1, sizeof st.x[0].score_public);
            if (given == 2) {
                st.x[0].score_public[0] = (int8_t)sc;
                st.x[0].score_public[1] = (int8_t)mr;
            }
        }
        int scores = given != 1;
        cnc_status_score(&st, NULL);
        CHECK_EQ_INT(st.p[0].scored[mr], scores);
        CHECK_EQ_INT(st.p[0].scored[sc], 0);
        CHECK_EQ_INT(st.p[0].vp, scores ? cnc_public_vp(&st, 0) : 0);
        CHECK_EQ_INT(st.p[1].vp, 0);
    }
}

/* The condition "a planet's influence is at least N" takes N 0..9. */
static void test_condition_influence_at_least_0_to_9(void)
{
    cnc_state st;
    base(&st, 191);
    const char *fmt = "{\"type\": \"if\", \"cond\": {\"type\": "
                      "\"influence_at_least\", \"n\": %d}, \"then\": "
                      "[{\"type\": \"hold\"}]}";
    CHECK(parses(&st, fmt, 0));
    CHECK(parses(&st, fmt, 9));
    CHECK(!parses(&st, fmt, 10));
    CHECK(!parses(&st, fmt, -1));
}

/* The races' home systems carry their names (the race table). */
static void test_race_homes_have_their_names(void)
{
    static const char *const homes[][2] = {{"veyari", "Veyar"},
                                           {"oskan", "Osk"},
                                           {"thessari", "Thessa"},
                                           {"quillan", "Quill"}};
    for (int i = 0; i < 4; i++) {
        int r = cnc_race_index(D, homes[i][0]);
        REQUIRE(r >= 0);
        CHECK_EQ_STR(D->races[r].home.name, homes[i][1]);
        CHECK_EQ_INT(D->races[r].home.count, 1);
    }
}

/* A capture part names a planet by its index 0..2 and a sector on the
 * map: planet 3 or [256, 0] is refused when the part is saved, planet 2
 * taken (and decided at resolution). */
static void test_capture_planet_index_0_to_2(void)
{
    for (int planet = 2; planet <= 3; planet++) {
        cnc_state st;
        engine_game *g = vote_game(192, "trade_stipend", &st);
        char part[160];
        snprintf(part, sizeof part,
                 "{\"k\": {\"type\": \"capture\", \"sector\": [%d, %d], "
                 "\"planet\": %d}}",
                 HEX(&st, st.g.capital), planet);
        const char *council[4] = {part, NULL, NULL, NULL};
        CHECK_EQ_INT(vote_round(g, NULL, council) != 0, planet == 3);
        engine_free(g);
    }
    /* a hex beyond a byte (256 would wrap to 0) is off the map */
    cnc_state st;
    engine_game *g = vote_game(192, "trade_stipend", &st);
    const char *off[4] = {"{\"k\": {\"type\": \"capture\", \"sector\": "
                          "[256, 0], \"planet\": 0}}",
                          NULL, NULL, NULL};
    CHECK(vote_round(g, NULL, off) != 0);
    engine_free(g);
}

/* The view: a home sector names its seat (seat 0's too), and a sector out
 * of sight lists every seat's remembered fleet (seat 0's too). */
static void test_view_names_homes_and_remembered_fleets_of_seat_0(void)
{
    cnc_state st;
    base(&st, 193);
    st.fog.sensor[1] = 1;
    int y = st.g.home[0], cv = unit_ix("carrier");
    REQUIRE(!cnc_fog_visible(&st.g, &st.fog, 1, y));
    st.fog.memory[1][y].round = 1;
    memset(st.fog.memory[1][y].units, 0, sizeof st.fog.memory[1][y].units);
    st.fog.memory[1][y].units[0][cv] = 2;
    json_t *v = cnc_fog_render(D, &st.g, &st.fog, 1, st.round);
    json_t *sec = json_array_get(json_object_get(v, "sectors"), (size_t)y);
    CHECK(json_is_integer(json_object_get(sec, "home")));
    CHECK_EQ_INT(json_integer_value(json_object_get(sec, "home")), 0);
    json_t *fl = json_object_get(sec, "fleets");
    CHECK_EQ_INT(json_array_size(fl), 1);
    CHECK_EQ_INT(
        json_integer_value(json_object_get(json_array_get(fl, 0), "seat")), 0);
    json_t *cap =
        json_array_get(json_object_get(v, "sectors"), (size_t)st.g.capital);
    CHECK(json_is_null(json_object_get(cap, "home")));
    json_decref(v);
}

/* Every seat, seat 0 included, is offered its moves in the open window;
 * a seat out of range none. */
static void test_legal_moves_for_every_seat(void)
{
    cnc_state st;
    engine_game *g = ready_game(194, 0, &st);
    for (int p = 0; p < 3; p++) {
        json_t *l = engine_legal(g, p);
        CHECKF(json_array_size(json_object_get(l, "windows")) == 1, "seat %d",
               p);
        json_decref(l);
    }
    char id[ENGINE_WINDOW_ID_MAX];
    REQUIRE(cnc_window_id(&st, id, sizeof id) == 0);
    CHECK(cnc_legal_json(&st, 0, id) != NULL);
    json_decref(cnc_legal_json(&st, 0, id));
    CHECK(cnc_legal_json(&st, 3, id) == NULL);
    CHECK(cnc_legal_json(&st, -1, id) == NULL);
    engine_free(g);
}

/* The twin shuffles the kinds of the hidden markers a seat has not
 * inspected among them: the same kinds, in the same places. */
static void test_twin_keeps_the_hidden_markers_kinds(void)
{
    cnc_state st;
    base(&st, 195);
    int before[64] = {0};
    for (int m = 0; m < st.g.nmarkers; m++)
        before[st.g.markers[m].kind]++;
    for (uint64_t k = 0; k < 4; k++) {
        engine_rng rng;
        uint8_t key[32] = {6};
        engine_rng_init(&rng, key, k);
        cnc_state *t = cnc_twin(&st, 0, &rng);
        REQUIRE(t);
        int after[64] = {0};
        for (int m = 0; m < t->g.nmarkers; m++) {
            REQUIRE(t->g.markers[m].kind >= 0 && t->g.markers[m].kind < 64);
            after[t->g.markers[m].kind]++;
            CHECK_EQ_INT(t->g.markers[m].state, st.g.markers[m].state);
        }
        CHECK(memcmp(before, after, sizeof before) == 0);
        free(t);
    }
}

/* After a step that stands nowhere (hold), a condition naming a sector is
 * refused when saved; after a move it may name the move's sector. */
static void test_condition_after_hold_names_no_sector(void)
{
    cnc_state st;
    base(&st, 196);
    int home = st.g.home[0], nb[6];
    REQUIRE(cnc_sector_neighbors(&st.g, home, nb) > 0);
    CHECK(!saved(&st,
                 "{\"a\": [{\"type\": \"hold\"}, {\"type\": \"if\", \"cond\": "
                 "{\"type\": \"enemy_ships\", \"sector\": [0, 0]}, \"then\": "
                 "[{\"type\": \"hold\"}]}]}"));
    CHECK(saved(&st,
                "{\"a\": [{\"type\": \"move\", \"from\": [%d, %d], \"to\": "
                "[%d, %d], \"units\": {\"cruiser\": 1}}, {\"type\": \"if\", "
                "\"cond\": {\"type\": \"enemy_ships\", \"sector\": [%d, %d]}, "
                "\"then\": [{\"type\": \"hold\"}]}]}",
                HEX(&st, home), HEX(&st, nb[0]), HEX(&st, nb[0])));
}

/* Espionage with one pick inspects one marker; the discard that follows
 * takes exactly that one (and not a marker it did not inspect). */
static void test_espionage_one_pick_then_discard_it(void)
{
    cnc_state st;
    base(&st, 197);
    hold_card(&st, 0, "intelligence");
    int x = unexplored_next_to_home(&st, 0);
    REQUIRE(x >= 0);
    set_tile(&st, x, system_ix("empty"));
    st.fog.explored[x] = 1;
    /* the marker: the last slot (not 0, which an empty spied slot would
     * match if the +1 were lost) */
    int m = st.g.nmarkers - 1;
    cnc_marker *km = &st.g.markers[m];
    if (km->state == CNC_MK_HIDDEN) {
        if (km->planet < 0)
            st.g.sec[km->sector].marker = -1;
        else
            st.g.sec[km->sector].planet_marker[km->planet] = -1;
    }
    *km = (cnc_marker){(int8_t)marker_kind("raiders"), (int8_t)x, -1,
                       CNC_MK_HIDDEN};
    st.g.sec[x].marker = (int16_t)m;
    int other = -1;
    for (int k = 0; k < st.g.nmarkers; k++)
        if (k != m && st.g.markers[k].state == CNC_MK_HIDDEN) {
            other = k;
            break;
        }
    REQUIRE(other >= 0);
    REQUIRE(run(&st, 0,
                "[{\"type\": \"strategy\", \"card\": \"intelligence\", "
                "\"option\": \"exploration\", \"targets\": [[%d, %d]]},"
                " {\"type\": \"discard\", \"sector\": [%d, %d]}]",
                HEX(&st, x), HEX(&st, x)) == 0);
    CHECK(st.fog.inspected[0][m]);
    CHECK_EQ_INT(st.g.markers[m].state, CNC_MK_DISCARDED);
    CHECK_EQ_INT(st.g.markers[other].state, CNC_MK_HIDDEN);
}

int main(void)
{
    council_test_init();
    RUN(test_production_makes_at_most_4_units_or_6);
    RUN(test_production_pays_planets_then_trade_goods);
    RUN(test_production_needs_a_planet_and_a_command_token);
    RUN(test_sabotaged_yards_next_to_ships_cancels_one_production);
    RUN(test_order_parts_keys_and_count);
    RUN(test_parts_resolve_in_key_order_as_text);
    RUN(test_trade_goods_veyari_bonus_and_commerce);
    RUN(test_oskan_first_exploration_free_second_costs_2);
    RUN(test_command_primary_and_its_follow);
    RUN(test_campaign_returns_a_command_token);
    RUN(test_retreat_only_to_an_adjacent_sector);
    RUN(test_landing_splits_evenly_and_needs_no_enemy_ships);
    RUN(test_step_field_limits);
    RUN(test_at_most_4_standing_retreats);
    RUN(test_objective_thresholds);
    RUN(test_last_seen_memory_keeps_troopers_on_planets);
    RUN(test_space_combat_takes_hits_on_its_own_units);
    RUN(test_sensor_range_one_plus_thessari_and_sensor_mesh);
    RUN(test_research_gives_the_first_technology_it_may_research);
    RUN(test_move_reach_when_saved_counts_drives_and_cards);
    RUN(test_condition_holds_enemy_troopers_of_any_other_seat);
    RUN(test_lobby_with_no_orders_seats_clerks);
    RUN(test_twin_varies_only_troopers_out_of_sight);
    RUN(test_system_markers_act_once_on_the_first_fleet);
    RUN(test_planet_markers_act_on_the_first_lander);
    RUN(test_status5_gains_and_split);
    RUN(test_initiative_order_lowest_card_first);
    RUN(test_start_of_a_game);
    RUN(test_votes_count_every_planet_ready_or_not);
    RUN(test_cards_played_ahead_are_kept_for_later);
    RUN(test_status5_unplanned_tokens_fill_the_fleet_pool_to_the_stack);
    RUN(test_vote_weights_orator_and_the_choir);
    RUN(test_blackmail_and_sabotage_move_or_void_votes);
    RUN(test_gag_order_silences_the_named_player);
    RUN(test_tabled_agenda_and_no_agenda_outcomes);
    RUN(test_view_shows_fleets_last_seen_even_at_round_0);
    RUN(test_bots_cap_unit_counts_at_30);
    RUN(test_status1_default_scores_the_first_revealed_met);
    RUN(test_condition_influence_at_least_0_to_9);
    RUN(test_race_homes_have_their_names);
    RUN(test_capture_planet_index_0_to_2);
    RUN(test_view_names_homes_and_remembered_fleets_of_seat_0);
    RUN(test_legal_moves_for_every_seat);
    RUN(test_twin_keeps_the_hidden_markers_kinds);
    RUN(test_condition_after_hold_names_no_sector);
    RUN(test_espionage_one_pick_then_discard_it);
    RUN(test_data_refuses_a_missing_cost_or_exploration_option);
    return TEST_SUMMARY();
}

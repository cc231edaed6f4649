/*
 * test_council_choices.c - Galactic Council's players' choices beyond
 * part I's first rules, one named test per rule through the engine API:
 * the espionage exploration with its discard (seed 000, 2.6), the
 * command-token split at status 5 with the fleet limit (seed 001), standing
 * combat retreats, action cards played from their data, following another
 * player's strategy card, shared vision by mutual offers, the Quillan
 * special, Chancery's choice of the next objective, and loading a save
 * written before these existed.
 */
#include "tests/unit/council/council_test.h"

#include <stddef.h>

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

/* Seat takes strategy card key (swapping with its holder, if any). */
static void give_card(cnc_state *st, int seat, const char *key)
{
    int c = cnc_strategy_index(D, key), mine = st->p[seat].card;
    int owner = st->strat_owner[c];
    if (owner == seat)
        return;
    if (owner >= 0) {
        st->p[owner].card = (int8_t)mine;
        st->strat_owner[mine] = (int8_t)owner;
    } else {
        st->strat_owner[mine] = -1;
    }
    st->p[seat].card = (int8_t)c;
    st->strat_owner[c] = (int8_t)seat;
}

/* The action window with one order text per seat (NULL: {}), each sent
 * ready (the window locks only then). */
static int action_all(engine_game *g, const char *const orders[3])
{
    engine_window w;
    if (!open_window(g, &w) || w.mode != ENGINE_SEALED)
        return -99;
    int rc = 0;
    for (int p = 0; p < 3 && rc == 0; p++) {
        json_t *o = json_loads(orders[p] ? orders[p] : "{}", 0, NULL);
        if (!o)
            return -98;
        json_object_set_new(o, ENGINE_READY_PART, json_true());
        rc = apply(g, p, ENGINE_ORDER, w.id, o, NULL);
        json_decref(o);
    }
    return rc;
}

/* 1 when an entry seat can read mentions text. */
static int log_mentions(const engine_game *g, int seat, const char *text)
{
    json_t *log = engine_log_since(g, seat, 0);
    char *t = json_dumps(log, JSON_COMPACT);
    int found = t && strstr(t, text) != NULL;
    free(t);
    json_decref(log);
    return found;
}

/* Espionage on frontier sector x twice (explore it, then inspect its
 * system marker of kind, a planet tile), then "if it is hostile,
 * discard it". */
static engine_game *spy(cnc_state *st, int *x, const char *kind,
                        const char *extra)
{
    engine_game *g = ready_game(21, 0, st);
    *x = unexplored_next_to_home(st, 0);
    set_tile(st, *x, system_ix("sys_cendra"));
    free_slot(st, *x);
    CHECK(put_marker(st, *x, -1, marker_kind(kind)) >= 0);
    give_card(st, 0, "intelligence");
    g = put_state(g, st);
    char h[16], order[640];
    hex_text(st, *x, h, sizeof h);
    snprintf(order, sizeof order,
             "{\"s1\": [{\"type\": \"strategy\", \"card\": \"intelligence\","
             " \"option\": \"exploration\", \"targets\": [%s, %s]},"
             " {\"type\": \"if\", \"cond\": {\"type\": \"marker_is\", \"is\":"
             " \"hostile\"}, \"then\": [{\"type\": \"discard\"}]}%s]}",
             h, h, extra);
    CHECK(action_with(g, 0, order) == 0);
    get_state(g, st);
    return g;
}

static void test_espionage_discards_an_inspected_hostile_marker_unseen(void)
{
    cnc_state st;
    int x;
    engine_game *g = spy(&st, &x, "raiders", "");
    int m = st.g.sec[x].marker;
    CHECK(st.fog.explored[x]);
    CHECK(st.fog.inspected[0][m]);
    CHECK_EQ_INT(st.g.markers[m].state, CNC_MK_DISCARDED);
    CHECK(!cnc_fog_knows_marker(&st.g, &st.fog, 1, m));
    CHECK(log_mentions(g, 1, "marker_discarded"));
    CHECK(!log_mentions(g, 1, "\"raiders\""));
    CHECK(log_mentions(g, 0, "\"raiders\""));
    engine_free(g);
}

static void test_espionage_keeps_a_friendly_marker(void)
{
    cnc_state st;
    int x;
    engine_game *g = spy(&st, &x, "quiet_space", "");
    int m = st.g.sec[x].marker;
    CHECK(st.fog.inspected[0][m]);
    CHECK_EQ_INT(st.g.markers[m].state, CNC_MK_HIDDEN);
    CHECK(!log_mentions(g, 1, "marker_discarded"));
    engine_free(g);
}

static void test_discard_only_a_marker_the_espionage_inspected_once(void)
{
    cnc_state st;
    int x;
    /* The planet's marker was not picked: discarding it is refused. */
    char extra[128];
    snprintf(extra, sizeof extra,
             ", {\"type\": \"discard\", \"planet\": \"%s\", \"sector\": "
             "[0, 0]}",
             D->systems[system_ix("sys_cendra")].planets[0].key);
    engine_game *g = spy(&st, &x, "raiders", extra);
    CHECK_EQ_INT(st.g.markers[st.g.sec[x].marker].state, CNC_MK_DISCARDED);
    engine_free(g);
    cnc_state st2;
    engine_game *h = ready_game(22, 0, &st2);
    x = unexplored_next_to_home(&st2, 0);
    set_tile(&st2, x, system_ix("sys_cendra"));
    free_slot(&st2, x);
    free_slot(&st2, x);
    int ms = put_marker(&st2, x, -1, marker_kind("raiders"));
    int mp = put_marker(&st2, x, 0, marker_kind("colonists"));
    REQUIRE(ms >= 0 && mp >= 0);
    give_card(&st2, 0, "intelligence");
    h = put_state(h, &st2);
    char hx[16], order[640];
    hex_text(&st2, x, hx, sizeof hx);
    /* Picks: explore x, its system marker, its planet marker; then two
     * discards: the second is refused (once a round). */
    snprintf(order, sizeof order,
             "{\"s1\": [{\"type\": \"strategy\", \"card\": \"intelligence\","
             " \"option\": \"exploration\", \"targets\": [%s, %s, %s]},"
             " {\"type\": \"discard\", \"sector\": %s},"
             " {\"type\": \"discard\", \"sector\": %s, \"planet\": \"%s\"}]}",
             hx, hx, hx, hx, hx,
             D->systems[system_ix("sys_cendra")].planets[0].key);
    REQUIRE(action_with(h, 0, order) == 0);
    get_state(h, &st2);
    CHECK(st2.fog.inspected[0][ms] && st2.fog.inspected[0][mp]);
    CHECK_EQ_INT(st2.g.markers[ms].state, CNC_MK_DISCARDED);
    CHECK_EQ_INT(st2.g.markers[mp].state, CNC_MK_HIDDEN);
    engine_free(h);
}

static void test_status5_redistributes_tokens_as_asked(void)
{
    cnc_state st;
    engine_game *g = ready_game(23, 0, &st);
    int total = st.p[0].tactic + st.p[0].fleet + st.p[0].strategy + 2;
    g = put_state(g, &st);
    const char *orders[3] = {
        "{\"z\": {\"type\": \"tokens\", \"tactic\": 1, \"fleet\": 4, "
        "\"strategy\": 1}}",
        NULL, NULL};
    REQUIRE(action_all(g, orders) == 0);
    get_state(g, &st);
    CHECK_EQ_INT(st.p[0].fleet, 4);
    CHECK_EQ_INT(st.p[0].strategy, 1);
    CHECK_EQ_INT(st.p[0].tactic, total - 5); /* the rest: tactic */
    CHECK_EQ_INT(st.p[0].tactic + st.p[0].fleet + st.p[0].strategy, total);
    engine_free(g);
}

static void test_status5_smaller_fleet_pool_removes_excess_ships(void)
{
    cnc_state st;
    engine_game *g = ready_game(24, 0, &st);
    int home = st.g.home[0];
    int ships = cnc_ships_in(&st, 0, home);
    REQUIRE(ships >= 2);
    const char *orders[3] = {
        "{\"z\": {\"type\": \"tokens\", \"tactic\": 5, \"fleet\": 1, "
        "\"strategy\": 1}}",
        NULL, NULL};
    REQUIRE(action_all(g, orders) == 0);
    get_state(g, &st);
    CHECK_EQ_INT(st.p[0].fleet, 1);
    CHECK_EQ_INT(cnc_ships_in(&st, 0, home), 1);
    /* The cheapest went first: the carrier (cost 3) stays. */
    CHECK_EQ_INT(st.g.sec[home].units[0][unit_ix("carrier")], 1);
    engine_free(g);
}

/* Seat 1 holds 3 dreadnoughts in x next to seat 0's home; seat 0 attacks
 * with 4 cruisers before seat 1's own parts resolve. Round 1 can end neither
 * side (3 hits are absorbed, 4 cruisers take at most 3 hits), so a standing
 * retreat after round 1 always applies. */
static engine_game *ambush_with(cnc_state *st, int *x, int *y, int retreat,
                                const char *card);

static engine_game *ambush(cnc_state *st, int *x, int *y, int retreat)
{
    return ambush_with(st, x, y, retreat, NULL);
}

static engine_game *ambush_with(cnc_state *st, int *x, int *y, int retreat,
                                const char *card)
{
    engine_game *g = ready_game(25, 0, st);
    int home = st->g.home[0], nb[6];
    *x = unexplored_next_to_home(st, 0);
    set_tile(st, *x, system_ix("sys_cendra"));
    int n = cnc_sector_neighbors(&st->g, *x, nb);
    *y = -1;
    for (int i = 0; i < n; i++)
        if (nb[i] != home && nb[i] != st->g.capital &&
            st->g.sec[nb[i]].kind == CNC_SEC_SYSTEM && *y < 0)
            *y = nb[i];
    CHECK(*y >= 0);
    set_tile(st, *y, system_ix("sys_cendra"));
    st->fog.explored[*x] = st->fog.explored[*y] = 1;
    memset(st->g.sec[home].units[0], 0, CNC_MAX_UNITS);
    st->g.sec[home].units[0][unit_ix("cruiser")] = 4;
    st->g.sec[*x].units[1][unit_ix("dreadnought")] = 3;
    give_card(st, 0, "command"); /* the attacker resolves first */
    memset(st->p[0].hand, 0, sizeof st->p[0].hand);
    for (int a = 0; card && a < D->nactions; a++)
        st->p[0].hand[a] = strcmp(D->actions[a].key, card) == 0;
    g = put_state(g, st);
    char hh[16], hx[16], hy[16], o0[256], o1[256];
    hex_text(st, home, hh, sizeof hh);
    hex_text(st, *x, hx, sizeof hx);
    hex_text(st, *y, hy, sizeof hy);
    snprintf(o0, sizeof o0,
             "{\"a\": {\"type\": \"play\", \"card\": \"%s\"},"
             " \"f1\": {\"type\": \"move\", \"from\": %s, \"to\": %s, "
             "\"units\": {\"cruiser\": 4}}}",
             card ? card : "windfall", hh, hx);
    snprintf(o1, sizeof o1,
             "{\"d\": {\"type\": \"combat_retreat\", \"sector\": %s, \"to\": "
             "%s, \"after\": 1}}",
             hx, hy);
    const char *orders[3] = {o0, retreat ? o1 : NULL, NULL};
    CHECK(action_all(g, orders) == 0);
    get_state(g, st);
    return g;
}

static void test_standing_combat_retreat_leaves_after_the_first_round(void)
{
    cnc_state st;
    int x, y;
    engine_game *g = ambush(&st, &x, &y, 1);
    int dn = unit_ix("dreadnought");
    CHECK_EQ_INT(st.g.sec[x].units[1][dn], 0);
    CHECK_EQ_INT(st.g.sec[y].units[1][dn], 3); /* none destroyed in round 1 */
    CHECK(cnc_ships_in(&st, 0, x) > 0);
    CHECK(log_mentions(g, 1, "retreated"));
    engine_free(g);
    /* Without the order the combat goes on in x. */
    g = ambush(&st, &x, &y, 0);
    CHECK_EQ_INT(st.g.sec[y].units[1][dn], 0);
    CHECK(!log_mentions(g, 1, "retreated"));
    engine_free(g);
}

static void test_direct_hit_destroys_a_ship_that_absorbed_a_hit(void)
{
    cnc_state st;
    int x, y, dn = unit_ix("dreadnought");
    engine_game *g = ambush_with(&st, &x, &y, 1, "direct_hit");
    /* Seat 0's hits in round 1 (this seed: at least one) are absorbed by
     * the dreadnoughts; Direct Hit destroys the first that absorbed one. */
    CHECK_EQ_INT(st.g.sec[y].units[1][dn], 2);
    CHECK(log_mentions(g, 1, "card_played"));
    engine_free(g);
}

static int action_ix(const char *key)
{
    for (int a = 0; a < D->nactions; a++)
        if (strcmp(D->actions[a].key, key) == 0)
            return a;
    return -1;
}

static void test_action_card_windfall_gives_its_amount_once(void)
{
    cnc_state st;
    engine_game *g = ready_game(26, 0, &st);
    memset(st.p[0].hand, 0, sizeof st.p[0].hand);
    st.p[0].hand[action_ix("windfall")] = 1;
    g = put_state(g, &st);
    const char *orders[3] = {"{\"c1\": {\"type\": \"play\", \"card\": "
                             "\"windfall\"}, \"c2\": {\"type\": \"play\", "
                             "\"card\": \"windfall\"}}",
                             NULL, NULL};
    REQUIRE(action_all(g, orders) == 0);
    get_state(g, &st);
    CHECK_EQ_INT(st.p[0].tg, D->actions[action_ix("windfall")].amount);
    CHECK_EQ_INT(D->actions[action_ix("windfall")].amount, 2);
    CHECK_EQ_INT(st.p[0].hand[action_ix("windfall")], 0);
    CHECK(log_mentions(g, 1, "card_played"));
    engine_free(g);
}

static void test_action_card_survey_grant_makes_the_next_exploration_free(void)
{
    cnc_state st;
    engine_game *g = ready_game(27, 1, &st);
    memset(st.p[0].hand, 0, sizeof st.p[0].hand);
    st.p[0].hand[action_ix("survey_grant")] = 1;
    int x = unexplored_next_to_home(&st, 0);
    g = put_state(g, &st);
    char h[16], order[256];
    hex_text(&st, x, h, sizeof h);
    snprintf(order, sizeof order,
             "{\"a\": {\"type\": \"play\", \"card\": \"survey_grant\"},"
             " \"b\": {\"type\": \"explore\", \"sector\": %s}}",
             h);
    REQUIRE(action_with(g, 0, order) == 0);
    get_state(g, &st);
    CHECK(st.fog.explored[x]);
    CHECK_EQ_INT(st.p[0].tg, 1); /* the 1 trade good is still there */
    engine_free(g);
}

static void test_action_card_scout_report_inspects_privately(void)
{
    cnc_state st;
    engine_game *g = ready_game(28, 0, &st);
    memset(st.p[0].hand, 0, sizeof st.p[0].hand);
    st.p[0].hand[action_ix("scout_report")] = 1;
    int x = unexplored_next_to_home(&st, 0);
    set_tile(&st, x, system_ix("sys_cendra"));
    free_slot(&st, x);
    int m = put_marker(&st, x, -1, marker_kind("raiders"));
    REQUIRE(m >= 0);
    st.fog.explored[x] = 1;
    g = put_state(g, &st);
    char h[16], order[256];
    hex_text(&st, x, h, sizeof h);
    snprintf(order, sizeof order,
             "{\"a\": {\"type\": \"play\", \"card\": \"scout_report\", "
             "\"sector\": %s}}",
             h);
    REQUIRE(action_with(g, 0, order) == 0);
    get_state(g, &st);
    CHECK(st.fog.inspected[0][m]);
    CHECK(!st.fog.inspected[1][m]);
    CHECK_EQ_INT(st.g.markers[m].state, CNC_MK_HIDDEN);
    CHECK_EQ_INT(st.p[0].hand[action_ix("scout_report")], 0);
    engine_free(g);
}

static void test_council_cards_cannot_be_played_in_the_action_phase(void)
{
    cnc_state st;
    engine_game *g = ready_game(29, 0, &st);
    memset(st.p[0].hand, 0, sizeof st.p[0].hand);
    st.p[0].hand[action_ix("veto")] = 1;
    g = put_state(g, &st);
    REQUIRE(action_with(g, 0,
                        "{\"a\": {\"type\": \"play\", \"card\": "
                        "\"veto\"}}") == 0);
    get_state(g, &st);
    CHECK_EQ_INT(st.p[0].hand[action_ix("veto")], 1);
    engine_free(g);
}

static void test_follow_research_costs_a_strategy_token_and_6_resources(void)
{
    cnc_state st;
    engine_game *g = ready_game(30, 6, &st);
    give_card(&st, 1, "research");
    if (st.p[0].card == cnc_strategy_index(D, "research"))
        give_card(&st, 0, "commerce");
    memset(st.p[0].techs, 0, sizeof st.p[0].techs);
    memset(st.exhausted, 0xff, sizeof st.exhausted); /* pay with tg only */
    int strategy = st.p[0].strategy;
    g = put_state(g, &st);
    const char *orders[3] = {
        "{\"a\": {\"type\": \"follow\", \"card\": \"research\"},"
        " \"b\": {\"type\": \"follow\", \"card\": \"research\"}}",
        NULL, NULL};
    REQUIRE(action_all(g, orders) == 0);
    get_state(g, &st);
    int techs = 0;
    for (int t = 0; t < D->ntechs; t++)
        techs += st.p[0].techs[t];
    CHECK_EQ_INT(techs, 1); /* once per card a round */
    CHECK_EQ_INT(st.p[0].tg, 0);
    CHECK(log_mentions(g, 2, "follow"));
    /* The strategy token was spent (status 5 then adds its default gain
     * to the fleet and tactic pools only). */
    CHECK_EQ_INT(st.p[0].strategy, strategy - 1);
    engine_free(g);
}

static void test_shared_vision_needs_both_offers(void)
{
    cnc_state st;
    engine_game *g = ready_game(31, 0, &st);
    const char *one[3] = {"{\"v\": {\"type\": \"share\", \"seat\": 1}}", NULL,
                          NULL};
    REQUIRE(action_all(g, one) == 0);
    get_state(g, &st);
    CHECK(!cnc_fog_allied(&st.fog, 0, 1));
    engine_rng rng;
    uint8_t key[32] = {2};
    engine_rng_init(&rng, key, 31);
    picks_by_bots(g, "random", &rng, NULL);
    const char *two[3] = {NULL, "{\"v\": {\"type\": \"share\", \"seat\": 0}}",
                          NULL};
    REQUIRE(action_all(g, two) == 0);
    get_state(g, &st);
    CHECK(cnc_fog_allied(&st.fog, 0, 1));
    CHECK(!cnc_fog_allied(&st.fog, 0, 2));
    /* Seat 1 now sees what seat 0's sensors see: seat 0's home. */
    CHECK(cnc_fog_visible(&st.g, &st.fog, 1, st.g.home[0]));
    json_t *v = engine_view(g, 0);
    json_t *you = json_object_get(v, "you");
    CHECK_EQ_INT(json_array_size(json_object_get(you, "allies")), 1);
    CHECK_EQ_INT(
        json_integer_value(json_array_get(json_object_get(you, "allies"), 0)),
        1);
    CHECK_EQ_INT(json_array_size(json_object_get(you, "vision_offers")), 1);
    json_decref(v);
    picks_by_bots(g, "random", &rng, NULL);
    const char *off[3] = {
        "{\"v\": {\"type\": \"share\", \"seat\": 1, \"on\": false}}", NULL,
        NULL};
    REQUIRE(action_all(g, off) == 0);
    get_state(g, &st);
    CHECK(!cnc_fog_allied(&st.fog, 0, 1));
    engine_free(g);
}

static void test_quillan_lore_inspects_a_marker_next_to_it_once_a_round(void)
{
    cnc_state st;
    engine_game *g = ready_game(32, 0, &st);
    st.p[0].race = (int8_t)cnc_race_index(D, "quillan");
    int x = unexplored_next_to_home(&st, 0);
    set_tile(&st, x, system_ix("sys_cendra"));
    free_slot(&st, x);
    free_slot(&st, x);
    int ms = put_marker(&st, x, -1, marker_kind("raiders"));
    int mp = put_marker(&st, x, 0, marker_kind("colonists"));
    REQUIRE(ms >= 0 && mp >= 0);
    st.fog.explored[x] = 1;
    g = put_state(g, &st);
    char h[16], order[256];
    hex_text(&st, x, h, sizeof h);
    snprintf(order, sizeof order,
             "{\"a\": [{\"type\": \"lore\", \"sector\": %s},"
             " {\"type\": \"lore\", \"sector\": %s, \"planet\": \"all\"}]}",
             h, h);
    REQUIRE(action_with(g, 0, order) == 0);
    get_state(g, &st);
    CHECK(st.fog.inspected[0][ms]);
    CHECK(!st.fog.inspected[0][mp]); /* once a round */
    CHECK(!st.fog.inspected[1][ms]);
    engine_free(g);
    /* Another race cannot. */
    g = ready_game(32, 0, &st);
    set_tile(&st, x, system_ix("sys_cendra"));
    free_slot(&st, x);
    ms = put_marker(&st, x, -1, marker_kind("raiders"));
    REQUIRE(ms >= 0);
    st.fog.explored[x] = 1;
    g = put_state(g, &st);
    REQUIRE(action_with(g, 0, order) == 0);
    get_state(g, &st);
    CHECK(!st.fog.inspected[0][ms]);
    engine_free(g);
}

static void test_chancery_reveals_the_second_objective_when_asked(void)
{
    cnc_state st;
    engine_game *g = ready_game(33, 0, &st);
    give_card(&st, 0, "chancery");
    int first = st.public_deck[st.revealed],
        second = st.public_deck[st.revealed + 1];
    REQUIRE(D->objectives[first].stage == D->objectives[second].stage);
    g = put_state(g, &st);
    REQUIRE(action_with(g, 0,
                        "{\"a\": {\"type\": \"strategy\", \"card\": "
                        "\"chancery\", \"next_objective\": 2}}") == 0);
    cnc_state after;
    get_state(g, &after);
    CHECK_EQ_INT(after.public_deck[st.revealed], second);
    CHECK_EQ_INT(after.public_deck[st.revealed + 1], first);
    CHECK(log_mentions(g, 1, D->objectives[second].key));
    engine_free(g);
}

/* Saves of formats 2 and 3 (before the council phase grew the state
 * inside each player) and 4 (before the representatives were sent ahead
 * of the vote) and 5 (before the ranked strategy picks) are refused with
 * an error that says why; a format 6 save of another size is refused
 * too. */
static void test_old_format_saves_are_refused_clearly(void)
{
    cnc_state st;
    engine_game *g = ready_game(34, 0, &st);
    json_t *sv = cnc_state_save(&st);
    cnc_state back;
    engine_error err = {0};
    CHECK_EQ_INT(cnc_state_load(&back, sv, &err), 0);
    static const char *const old[] = {"council-state/2", "council-state/3"};
    for (int i = 0; i < 2; i++) {
        json_object_set_new(sv, "format", json_string(old[i]));
        memset(&err, 0, sizeof err);
        CHECK(cnc_state_load(&back, sv, &err) != 0);
        CHECK(strstr(err.msg, "predates the council phase") != NULL);
        CHECK(strstr(err.msg, old[i]) != NULL);
    }
    json_object_set_new(sv, "format", json_string("council-state/4"));
    memset(&err, 0, sizeof err);
    CHECK(cnc_state_load(&back, sv, &err) != 0);
    CHECK(strstr(err.msg, "council-state/4 save predates") != NULL);
    json_object_set_new(sv, "format", json_string("council-state/5"));
    memset(&err, 0, sizeof err);
    CHECK(cnc_state_load(&back, sv, &err) != 0);
    CHECK(strstr(err.msg, "council-state/5 save predates ranked") != NULL);
    json_object_set_new(sv, "format", json_string("council-state/6"));
    json_object_set_new(sv, "size", json_integer((json_int_t)sizeof st - 1));
    CHECK(cnc_state_load(&back, sv, &err) != 0); /* wrong size */
    json_decref(sv);
    engine_free(g);
}

/* Each new order kind parses and reads as a sentence; bad fields are
 * refused with their path. */
static void test_new_order_kinds_parse_and_read(void)
{
    static const struct {
        const char *json, *sentence;
    } ok[] = {
        {"{\"type\": \"discard\"}", "Discard the marker it inspected last."},
        {"{\"type\": \"tokens\", \"tactic\": 3, \"fleet\": 4, "
         "\"strategy\": 2}",
         "At the status phase keep 3 tactic, 4 fleet and 2 strategy tokens."},
        {"{\"type\": \"combat_retreat\", \"sector\": [1, 0], \"to\": [2, "
         "0]}",
         "If a space combat at (1, 0) lasts 1 round, retreat to (2, 0)."},
        {"{\"type\": \"play\", \"card\": \"windfall\"}", "Play Windfall."},
        {"{\"type\": \"follow\", \"card\": \"intelligence\"}",
         "Follow Intelligence."},
        {"{\"type\": \"share\", \"seat\": 2, \"on\": false}",
         "Stop sharing vision with seat 2."},
        {"{\"type\": \"lore\", \"sector\": [0, 1]}",
         "Use racial lore on the system's marker at (0, 1)."},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        json_t *j = json_loads(ok[i].json, 0, NULL);
        cnc_order o;
        engine_error err = {0};
        char buf[256];
        CHECK_EQ_INT(cnc_order_parse(D, NULL, j, &o, &err), 0);
        CHECK(cnc_order_sentence(D, &o, buf, sizeof buf) > 0);
        CHECK_EQ_STR(buf, ok[i].sentence);
        json_decref(j);
    }
    static const char *const bad[] = {
        "{\"type\": \"tokens\", \"tactic\": 3, \"fleet\": 4}",
        "{\"type\": \"tokens\", \"tactic\": 17, \"fleet\": 4, "
        "\"strategy\": 0}",
        "{\"type\": \"combat_retreat\", \"to\": [1, 0]}",
        "{\"type\": \"combat_retreat\", \"sector\": [1, 0], \"to\": [2, "
        "0], \"after\": 6}",
        "{\"type\": \"play\", \"card\": \"nope\"}",
        "{\"type\": \"follow\", \"card\": \"intelligence\", "
        "\"next_objective\": 2}",
        "{\"type\": \"share\", \"seat\": 9}",
        "{\"type\": \"lore\"}",
        "{\"type\": \"strategy\", \"card\": \"chancery\", "
        "\"next_objective\": 3}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_t *j = json_loads(bad[i], 0, NULL);
        cnc_order o;
        engine_error err = {0};
        CHECK(j != NULL);
        CHECK_EQ_INT(cnc_order_parse(D, NULL, j, &o, &err), ENGINE_EINVALID);
        json_decref(j);
    }
}

int main(void)
{
    council_test_init();
    RUN(test_espionage_discards_an_inspected_hostile_marker_unseen);
    RUN(test_espionage_keeps_a_friendly_marker);
    RUN(test_discard_only_a_marker_the_espionage_inspected_once);
    RUN(test_status5_redistributes_tokens_as_asked);
    RUN(test_status5_smaller_fleet_pool_removes_excess_ships);
    RUN(test_standing_combat_retreat_leaves_after_the_first_round);
    RUN(test_action_card_windfall_gives_its_amount_once);
    RUN(test_direct_hit_destroys_a_ship_that_absorbed_a_hit);
    RUN(test_action_card_survey_grant_makes_the_next_exploration_free);
    RUN(test_action_card_scout_report_inspects_privately);
    RUN(test_council_cards_cannot_be_played_in_the_action_phase);
    RUN(test_follow_research_costs_a_strategy_token_and_6_resources);
    RUN(test_shared_vision_needs_both_offers);
    RUN(test_quillan_lore_inspects_a_marker_next_to_it_once_a_round);
    RUN(test_chancery_reveals_the_second_objective_when_asked);
    RUN(test_old_format_saves_are_refused_clearly);
    RUN(test_new_order_kinds_parse_and_read);
    return TEST_SUMMARY();
}

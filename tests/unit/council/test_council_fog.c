/*
 * test_council_fog.c - Galactic Council's fog of war, one test per rule of
 * docs/games/council.md "Fog of war" (from the seed's section 2.6), and a
 * property test over many seeds: nothing a seat has not seen reaches its
 * rendered galaxy.
 */
#include "engine/rules/council/council_fog.h"
#include "engine/rules/council/council_galaxy.h"
#include "tests/unit/test.h"

#include <stdlib.h>

static const cnc_data *D __attribute__((unused));

static void council_test_init(void)
{
    engine_error err = {0};
    if (cnc_data_init(&err) != 0) {
        fprintf(stderr, "council data: %s\n", err.msg);
        exit(1);
    }
    D = cnc_data_get();
}

static void rng_for(engine_rng *rng, uint64_t seed)
{
    uint8_t key[32] = {0};
    memcpy(key, &seed, sizeof seed);
    engine_rng_init(rng, key, 7);
}

/* A galaxy for n players with races 0..n-1 (rotated by seed), or exit. */
static void make_galaxy(cnc_galaxy *g, int n, uint64_t seed, int fixed)
{
    engine_rng rng;
    engine_error err = {0};
    int races[CNC_MAX_PLAYERS];
    for (int i = 0; i < n; i++)
        races[i] = (int)((i + seed) % (uint64_t)D->nraces);
    rng_for(&rng, seed);
    if (cnc_galaxy_generate(D, n, races, fixed, &rng, g, &err) != 0) {
        fprintf(stderr, "generate: %s\n", err.msg);
        exit(1);
    }
}

static cnc_galaxy G, H;
static cnc_fog F, F2;

static int at(int q, int r)
{
    cnc_hex h = {(int8_t)q, (int8_t)r};
    return cnc_sector_at(&G, h);
}

static int unit(const char *key)
{
    return cnc_unit_index(D, key);
}

static void setup(int n, uint64_t seed)
{
    make_galaxy(&G, n, seed, 0);
    cnc_fog_init(D, &G, &F);
}

/* An unexplored sector that is not on the frontier, or -1. */
static int far_sector(int min_dist)
{
    for (int s = 0; s < G.nsectors; s++) {
        int near = 99;
        for (int x = 0; x < G.nsectors; x++)
            if (F.explored[x] && cnc_sector_distance(&G, s, x) < near)
                near = cnc_sector_distance(&G, s, x);
        if (near == min_dist)
            return s;
    }
    return -1;
}

/* The rendered sector s for seat (borrowed from *root, which the caller
 * frees). */
static json_t *rendered(json_t **root, int seat, int s, int round)
{
    *root = cnc_fog_render(D, &G, &F, seat, round);
    return json_array_get(json_object_get(*root, "sectors"), (size_t)s);
}

/* Fog: at the start a seat knows the galaxy's shape, every home and the
 * capital; every other sector is unexplored and shows only its place. */
static void test_start_knowledge_shape_homes_capital(void)
{
    setup(4, 5);
    for (int seat = -1; seat < 4; seat++) {
        json_t *root = cnc_fog_render(D, &G, &F, seat, 1);
        json_t *secs = json_object_get(root, "sectors");
        CHECK_EQ_INT(json_array_size(secs), G.nsectors);
        int explored = 0;
        for (int s = 0; s < G.nsectors; s++) {
            json_t *o = json_array_get(secs, (size_t)s);
            int e = json_is_true(json_object_get(o, "explored"));
            explored += e;
            CHECK_EQ_INT(e, G.sec[s].kind != CNC_SEC_SYSTEM);
            if (!e)
                CHECK_EQ_INT(json_object_size(o), 3); /* q, r, explored */
        }
        CHECK_EQ_INT(explored, 4 + 1);
        json_decref(root);
    }
}

/* Explore: the first adjacent sector a round costs 1 trade good. */
static void test_explore_first_sector_costs_1(void)
{
    setup(3, 1);
    int tg = 5, s = at(1, 0);
    engine_error err = {0};
    CHECK(cnc_fog_frontier(&G, &F, s));
    CHECK_EQ_INT(cnc_fog_explore_cost(&F, 0), 1);
    CHECK_EQ_INT(cnc_fog_explore_paid(&G, &F, 0, s, 1, &tg, &err), 0);
    CHECK_EQ_INT(tg, 4);
    CHECK(F.explored[s]);
    CHECK_EQ_INT(F.explored_round[s], 1);
}

/* Explore: the second in the same round costs 2, the third 3; a seat that
 * cannot pay is refused and nothing changes. */
static void test_explore_second_costs_2_third_costs_3(void)
{
    setup(3, 1);
    int tg = 6;
    engine_error err = {0};
    CHECK_EQ_INT(cnc_fog_explore_paid(&G, &F, 0, at(1, 0), 1, &tg, &err), 0);
    CHECK_EQ_INT(cnc_fog_explore_cost(&F, 0), 2);
    CHECK_EQ_INT(cnc_fog_explore_paid(&G, &F, 0, at(0, 1), 1, &tg, &err), 0);
    CHECK_EQ_INT(tg, 3);
    CHECK_EQ_INT(cnc_fog_explore_cost(&F, 0), 3);
    CHECK_EQ_INT(cnc_fog_explore_cost(&F, 1), 1); /* costs are per seat */
    CHECK_EQ_INT(cnc_fog_explore_paid(&G, &F, 0, at(-1, 1), 1, &tg, &err), 0);
    CHECK_EQ_INT(tg, 0);
    CHECK_EQ_INT(cnc_fog_explore_cost(&F, 0), 4);
    tg = 3;
    F2 = F;
    CHECK_EQ_INT(cnc_fog_explore_paid(&G, &F, 0, at(-1, 0), 1, &tg, &err),
                 ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "trade_goods");
    CHECK_EQ_INT(tg, 3);
    CHECK(memcmp(&F, &F2, sizeof F) == 0);
}

/* Explore: the cost starts again at 1 the next round. */
static void test_explore_cost_resets_each_round(void)
{
    setup(3, 1);
    int tg = 9;
    engine_error err = {0};
    CHECK_EQ_INT(cnc_fog_explore_paid(&G, &F, 2, at(1, 0), 1, &tg, &err), 0);
    CHECK_EQ_INT(cnc_fog_explore_paid(&G, &F, 2, at(0, 1), 1, &tg, &err), 0);
    cnc_fog_new_round(&F);
    CHECK_EQ_INT(cnc_fog_explore_cost(&F, 2), 1);
    CHECK_EQ_INT(cnc_fog_explore_paid(&G, &F, 2, at(-1, 1), 2, &tg, &err), 0);
    CHECK_EQ_INT(tg, 9 - 1 - 2 - 1);
}

/* Explore: only a sector next to explored space. */
static void test_explore_only_next_to_explored_space(void)
{
    setup(6, 3);
    int s = far_sector(2), tg = 9;
    engine_error err = {0};
    REQUIRE(s >= 0);
    CHECK(!cnc_fog_frontier(&G, &F, s));
    CHECK_EQ_INT(cnc_fog_explore_paid(&G, &F, 0, s, 1, &tg, &err),
                 ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "sector");
    CHECK_EQ_INT(tg, 9);
    CHECK_EQ_INT(cnc_fog_explore_paid(&G, &F, 0, G.capital, 1, &tg, &err),
                 ENGINE_EINVALID); /* already explored */
}

/* Ships moving into an unexplored sector explore it, free, anywhere. */
static void test_ships_entering_unexplored_sector_explore_it(void)
{
    setup(6, 3);
    int s = far_sector(2);
    REQUIRE(s >= 0);
    CHECK_EQ_INT(cnc_fog_explore_by_ships(&F, 1, s, 3), 1);
    CHECK(F.explored[s]);
    CHECK_EQ_INT(F.explored_round[s], 3);
    CHECK_EQ_INT(cnc_fog_explore_by_ships(&F, 1, s, 4), 0);
    CHECK_EQ_INT(F.explored_round[s], 3);
    CHECK_EQ_INT(cnc_fog_explore_cost(&F, 1), 1);
}

/* Long-range scanners: once a round, explore a sector within 2 of explored
 * space, or inspect a marker in an explored sector; only with the
 * technology. */
static void test_long_range_scanners(void)
{
    setup(6, 3);
    engine_error err = {0};
    int s2 = far_sector(2);
    REQUIRE(s2 >= 0);
    cnc_fog_target t = {s2, -1};
    CHECK_EQ_INT(cnc_fog_scan(D, &G, &F, 0, t, 1, &err), ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "scanner");
    F.scanner[0] = 1;
    CHECK_EQ_INT(cnc_fog_scan(D, &G, &F, 0, t, 1, &err), 0);
    CHECK(F.explored[s2]);
    int m =
        G.sec[s2].marker >= 0 ? G.sec[s2].marker : G.sec[s2].planet_marker[0];
    cnc_fog_target tm = {-1, m};
    CHECK_EQ_INT(cnc_fog_scan(D, &G, &F, 0, tm, 1, &err), ENGINE_EINVALID);
    CHECK(strstr(err.msg, "already used this round") != NULL);
    cnc_fog_new_round(&F);
    if (m >= 0) {
        CHECK_EQ_INT(cnc_fog_scan(D, &G, &F, 0, tm, 2, &err), 0);
        CHECK(cnc_fog_knows_marker(&G, &F, 0, m));
        CHECK(!cnc_fog_knows_marker(&G, &F, 1, m));
        cnc_fog_new_round(&F);
    }
    int s3 = far_sector(3);
    if (s3 >= 0) {
        cnc_fog_target t3 = {s3, -1};
        CHECK_EQ_INT(cnc_fog_scan(D, &G, &F, 0, t3, 3, &err), ENGINE_EINVALID);
        CHECK_EQ_STR(err.field, "sector");
    }
    /* a marker in an unexplored sector cannot be scanned */
    for (int i = 0; i < G.nmarkers; i++)
        if (!F.explored[G.markers[i].sector]) {
            cnc_fog_target tu = {-1, i};
            CHECK_EQ_INT(cnc_fog_scan(D, &G, &F, 0, tu, 3, &err),
                         ENGINE_EINVALID);
            break;
        }
}

/* The marker field of a rendered sector: the system's (planet -1) or a
 * planet's (borrowed). */
static json_t *rendered_marker(json_t *o, int planet)
{
    if (planet < 0)
        return json_object_get(o, "marker");
    return json_object_get(
        json_array_get(json_object_get(o, "planets"), (size_t)planet),
        "marker");
}

/* The first marker lying in sector s (system, then planets), or -1. */
static int marker_in(int s)
{
    if (G.sec[s].marker >= 0)
        return G.sec[s].marker;
    for (int p = 0; p < CNC_MAX_PLANETS; p++)
        if (G.sec[s].planet_marker[p] >= 0)
            return G.sec[s].planet_marker[p];
    return -1;
}

/* Espionage: up to three sectors or markers, free, and one inspected
 * marker may be discarded without effect, unseen by the others. */
static void test_espionage_three_picks_and_discard_unseen(void)
{
    int a = -1, b = -1;
    for (uint64_t seed = 1; seed < 50 && b < 0; seed++) {
        setup(3, seed);
        a = at(1, 0);
        b = marker_in(at(0, 1)) >= 0 ? at(0, 1) : -1;
        if (marker_in(a) < 0)
            b = -1;
    }
    REQUIRE(b >= 0);
    engine_error err = {0};
    int tg = 0;
    CHECK_EQ_INT(cnc_fog_explore_paid(&G, &F, 1, b, 1, &tg, &err),
                 ENGINE_EINVALID); /* no trade goods: espionage is free */
    F.explored[b] = 1;             /* b explored earlier by someone */
    int mb = marker_in(b);
    cnc_fog_target t[4] = {{a, -1}, {-1, -1}, {-1, mb}, {a, -1}};
    F2 = F;
    H = G;
    CHECK_EQ_INT(cnc_fog_espionage(&G, &F, 0, t, 4, -1, 2, &err),
                 ENGINE_EINVALID);
    t[1].marker = marker_in(a); /* a marker in the sector just explored */
    CHECK_EQ_INT(cnc_fog_espionage(&G, &F, 0, t, 3, 0, 2, &err),
                 ENGINE_EINVALID); /* t[0] is a sector */
    CHECK_EQ_STR(err.field, "discard");
    t[2].marker = t[1].marker;
    CHECK_EQ_INT(cnc_fog_espionage(&G, &F, 0, t, 3, 1, 2, &err),
                 ENGINE_EINVALID); /* the same marker twice */
    CHECK(memcmp(&F, &F2, sizeof F) == 0);
    CHECK(memcmp(&G, &H, sizeof G) == 0);
    t[2].marker = mb;
    CHECK_EQ_INT(cnc_fog_espionage(&G, &F, 0, t, 3, 2, 2, &err), 0);
    CHECK(F.explored[a]);
    CHECK_EQ_INT(F.explored_round[a], 2);
    CHECK(cnc_fog_knows_marker(&G, &F, 0, t[1].marker));
    CHECK_EQ_INT(G.markers[mb].state, CNC_MK_DISCARDED);
    CHECK(!cnc_fog_knows_marker(&G, &F, 0, mb));
    /* nobody sees the discarded marker any more, not even the spy */
    for (int seat = 0; seat < 2; seat++) {
        json_t *root;
        json_t *o = rendered(&root, seat, b, 2);
        CHECK(json_is_string(json_object_get(o, "tile")));
        CHECK(json_is_null(rendered_marker(o, G.markers[mb].planet)));
        json_decref(root);
    }
}

/* Knowledge: what an explored sector holds is public; an inspected marker
 * is known only to the seat that inspected it. */
static void test_explored_sector_public_inspected_marker_private(void)
{
    int s = -1, m = -1;
    for (uint64_t seed = 1; seed < 50 && m < 0; seed++) {
        setup(3, seed);
        s = at(1, 0);
        m = marker_in(s);
    }
    REQUIRE(m >= 0);
    engine_error err = {0};
    int tg = 1;
    CHECK_EQ_INT(cnc_fog_explore_paid(&G, &F, 0, s, 1, &tg, &err), 0);
    const cnc_system *tile = cnc_sector_tile(D, &G, s);
    for (int seat = -1; seat < 3; seat++) {
        json_t *root;
        json_t *o = rendered(&root, seat, s, 1);
        CHECK_EQ_STR(json_string_value(json_object_get(o, "tile")), tile->key);
        CHECK_EQ_STR(json_string_value(rendered_marker(o, G.markers[m].planet)),
                     "hidden");
        json_decref(root);
    }
    cnc_fog_inspect(&F, 0, m);
    const char *kind = D->markers[G.markers[m].kind].key;
    for (int seat = -1; seat < 3; seat++) {
        json_t *root;
        json_t *o = rendered(&root, seat, s, 1);
        json_t *mk = rendered_marker(o, G.markers[m].planet);
        if (seat == 0)
            CHECK_EQ_STR(json_string_value(json_object_get(mk, "key")), kind);
        else
            CHECK_EQ_STR(json_string_value(mk), "hidden");
        json_decref(root);
    }
    /* revealed in the open (resolved by a landing): public */
    G.markers[m].state = CNC_MK_REVEALED;
    json_t *root;
    json_t *o = rendered(&root, ENGINE_PUBLIC, s, 1);
    CHECK_EQ_STR(json_string_value(json_object_get(
                     rendered_marker(o, G.markers[m].planet), "key")),
                 kind);
    json_decref(root);
}

/* The seat's fleet of n cruisers in sector s (other units cleared). */
static void put_fleet(int seat, int s, int n)
{
    memset(G.sec[s].units[seat], 0, sizeof G.sec[s].units[seat]);
    G.sec[s].units[seat][unit("cruiser")] = (uint8_t)n;
}

/* The cruisers of seat shown in a rendered sector, -1 when none shown. */
static int shown_cruisers(json_t *o, int seat)
{
    json_t *fl = json_object_get(o, "fleets");
    for (size_t i = 0; i < json_array_size(fl); i++) {
        json_t *f = json_array_get(fl, i);
        if (json_integer_value(json_object_get(f, "seat")) == seat)
            return (int)json_integer_value(
                json_object_get(json_object_get(f, "units"), "cruiser"));
    }
    return -1;
}

/* Sensors: other seats' units are seen only within sensor range (1, more
 * with technology) of the seat's units or planets; spectators see none. */
static void test_sensor_range_shows_fleets(void)
{
    setup(3, 2);
    int near = at(1, 0), far = at(0, -1);
    F.explored[near] = F.explored[far] = 1;
    put_fleet(1, near, 2);
    put_fleet(1, far, 3);
    /* seat 0's ships at the capital: distance 1 to both; move them out */
    put_fleet(0, at(2, -1), 1); /* distance 1 from near, 3 from far */
    CHECK(cnc_fog_sees(&G, &F, 0, near));
    CHECK(!cnc_fog_sees(&G, &F, 0, far));
    json_t *root;
    CHECK_EQ_INT(shown_cruisers(rendered(&root, 0, near, 1), 1), 2);
    json_decref(root);
    CHECK_EQ_INT(shown_cruisers(rendered(&root, 0, far, 1), 1), -1);
    json_decref(root);
    CHECK(json_object_get(rendered(&root, ENGINE_PUBLIC, near, 1), "fleets") ==
          NULL);
    json_decref(root);
    F.sensor[0] = 3;
    CHECK(cnc_fog_sees(&G, &F, 0, far));
    CHECK_EQ_INT(shown_cruisers(rendered(&root, 0, far, 1), 1), 3);
    json_decref(root);
    /* a controlled planet also carries sensors */
    F.sensor[2] = 1;
    CHECK(cnc_fog_sees(&G, &F, 2, G.home[2]));
}

/* Memory: a sector seen before stays on the map as last seen, marked with
 * that round; a sector never seen shows no units. */
static void test_last_seen_memory_marked_with_round(void)
{
    setup(3, 2);
    int s = at(1, 0), watch = at(2, -1);
    F.explored[s] = 1;
    put_fleet(1, s, 2);
    put_fleet(0, watch, 1);
    cnc_fog_observe(&G, &F, 2);
    put_fleet(0, watch, 0); /* seat 0 leaves; seat 1 reinforces */
    put_fleet(1, s, 5);
    cnc_fog_observe(&G, &F, 3);
    json_t *root;
    json_t *o = rendered(&root, 0, s, 4);
    CHECK_EQ_INT(shown_cruisers(o, 1), 2);
    CHECK_EQ_INT(json_integer_value(json_object_get(o, "seen_round")), 2);
    CHECK(json_is_false(json_object_get(o, "live")));
    json_decref(root);
    o = rendered(&root, 2, s, 4); /* seat 2 never saw it */
    CHECK(json_is_null(json_object_get(o, "seen_round")));
    CHECK_EQ_INT(json_array_size(json_object_get(o, "fleets")), 0);
    json_decref(root);
    o = rendered(&root, 1, s, 4); /* seat 1 is there: live */
    CHECK_EQ_INT(shown_cruisers(o, 1), 5);
    CHECK_EQ_INT(json_integer_value(json_object_get(o, "seen_round")), 4);
    CHECK(json_is_true(json_object_get(o, "live")));
    json_decref(root);
}

/* Shared vision: allies who both agree see what each other sees; an offer
 * on one side only shares nothing. */
static void test_shared_vision_between_agreeing_allies(void)
{
    setup(3, 2);
    int s = at(-1, 0), own = 0;
    F.explored[s] = 1;
    put_fleet(2, s, 4);
    put_fleet(0, at(-1, 1), 1); /* seat 0 sees s */
    CHECK(cnc_fog_sees(&G, &F, 0, s));
    CHECK(!cnc_fog_visible(&G, &F, 1, s));
    cnc_fog_set_share(&F, 0, 1, 1);
    CHECK_EQ_INT(cnc_fog_visible(&G, &F, 1, s), own);
    cnc_fog_set_share(&F, 1, 0, 1);
    CHECK(cnc_fog_allied(&F, 0, 1));
    CHECK(cnc_fog_visible(&G, &F, 1, s));
    json_t *root;
    CHECK_EQ_INT(shown_cruisers(rendered(&root, 1, s, 1), 2), 4);
    json_decref(root);
    cnc_fog_set_share(&F, 0, 1, 0);
    CHECK(!cnc_fog_allied(&F, 0, 1));
    CHECK_EQ_INT(cnc_fog_visible(&G, &F, 1, s), own);
}

/* H := G with everything seat does not know changed at random. */
static void perturb_hidden(engine_rng *rng, int seat)
{
    H = G;
    for (int m = 0; m < H.nmarkers; m++) {
        if (seat >= 0 && cnc_fog_knows_marker(&G, &F, seat, m))
            continue;
        if (G.markers[m].state == CNC_MK_REVEALED)
            continue;
        int where = D->markers[G.markers[m].kind].where;
        int k;
        do
            k = (int)engine_rng_below(rng, (uint32_t)D->nmarkers);
        while (D->markers[k].where != where);
        H.markers[m].kind = (int8_t)k;
    }
    for (int s = 0; s < H.nsectors; s++) {
        cnc_sector *x = &H.sec[s];
        if (!F.explored[s] && x->kind == CNC_SEC_SYSTEM)
            x->tile = (int8_t)engine_rng_below(rng, (uint32_t)D->nsystems);
        if (seat >= 0 && cnc_fog_visible(&G, &F, seat, s))
            continue;
        for (int p = 0; p < G.players; p++)
            if (p != seat && (seat < 0 || !cnc_fog_allied(&F, seat, p)))
                for (int u = 0; u < D->nunits; u++)
                    if (D->units[u].kind != CNC_UNIT_GROUND)
                        x->units[p][u] = (uint8_t)engine_rng_below(rng, 4);
        for (int p = 0; p < CNC_MAX_PLANETS; p++)
            x->ground[p] = (uint8_t)engine_rng_below(rng, 5);
    }
}

/* Some play: explorations, inspections, fleets, alliances, observations. */
static void random_play(engine_rng *rng, int rounds)
{
    for (int round = 1; round <= rounds; round++) {
        cnc_fog_new_round(&F);
        for (int i = 0; i < 6; i++) {
            int seat = (int)engine_rng_below(rng, (uint32_t)G.players);
            int s = (int)engine_rng_below(rng, (uint32_t)G.nsectors);
            int tg = 3;
            if (cnc_fog_frontier(&G, &F, s))
                (void)cnc_fog_explore_paid(&G, &F, seat, s, round, &tg, NULL);
            else if (engine_rng_below(rng, 3) == 0)
                cnc_fog_explore_by_ships(&F, seat, s, round);
            if (F.explored[s])
                G.sec[s].units[seat][unit("cruiser")] =
                    (uint8_t)engine_rng_below(rng, 3);
            int m = (int)engine_rng_below(rng, (uint32_t)G.nmarkers);
            if (F.explored[G.markers[m].sector] && engine_rng_below(rng, 2))
                cnc_fog_inspect(&F, seat, m);
            if (engine_rng_below(rng, 8) == 0)
                G.markers[m].state = (uint8_t)engine_rng_below(rng, 3);
        }
        int a = (int)engine_rng_below(rng, (uint32_t)G.players);
        int b = (int)engine_rng_below(rng, (uint32_t)G.players);
        cnc_fog_set_share(&F, a, b, (int)engine_rng_below(rng, 2));
        cnc_fog_observe(&G, &F, round);
        for (int s = 0; s < G.nsectors; s++)
            if (engine_rng_below(rng, 4) == 0)
                memset(G.sec[s].units, 0, sizeof G.sec[s].units);
    }
}

/* The property: a seat's rendered galaxy is the same whatever the things
 * it has not seen are (marker identities, unexplored sectors' tiles, units
 * out of sight now): none of them can reach it. The public galaxy depends
 * on no marker identity, tile or unit at all beyond the public ones. */
static void test_no_unseen_information_in_a_seats_galaxy(void)
{
    int seeds = getenv("CONCLAVE_TEST_QUICK") ? 60 : 300, changed = 0;
    for (int seed = 0; seed < seeds; seed++) {
        engine_rng rng;
        rng_for(&rng, (uint64_t)seed * 7919);
        int n = 3 + seed % 6;
        setup(n, (uint64_t)seed);
        random_play(&rng, 1 + seed % 5);
        for (int seat = -1; seat < n; seat++) {
            json_t *a = cnc_fog_render(D, &G, &F, seat, 9);
            perturb_hidden(&rng, seat);
            json_t *b = cnc_fog_render(D, &H, &F, seat, 9);
            char *sa = json_dumps(a, JSON_SORT_KEYS | JSON_COMPACT);
            char *sb = json_dumps(b, JSON_SORT_KEYS | JSON_COMPACT);
            CHECKF(strcmp(sa, sb) == 0, "seed %d seat %d: unseen change shown",
                   seed, seat);
            changed += memcmp(&G, &H, sizeof G) != 0;
            free(sa);
            free(sb);
            json_decref(a);
            json_decref(b);
        }
    }
    CHECK(changed > seeds); /* the perturbation did change hidden things */
}

int main(void)
{
    council_test_init();
    RUN(test_start_knowledge_shape_homes_capital);
    RUN(test_explore_first_sector_costs_1);
    RUN(test_explore_second_costs_2_third_costs_3);
    RUN(test_explore_cost_resets_each_round);
    RUN(test_explore_only_next_to_explored_space);
    RUN(test_ships_entering_unexplored_sector_explore_it);
    RUN(test_long_range_scanners);
    RUN(test_espionage_three_picks_and_discard_unseen);
    RUN(test_explored_sector_public_inspected_marker_private);
    RUN(test_sensor_range_shows_fleets);
    RUN(test_last_seen_memory_marked_with_round);
    RUN(test_shared_vision_between_agreeing_allies);
    RUN(test_no_unseen_information_in_a_seats_galaxy);
    return TEST_SUMMARY();
}

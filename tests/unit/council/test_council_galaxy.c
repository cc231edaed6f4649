/*
 * test_council_galaxy.c - Galactic Council's hex galaxy: axial geometry,
 * and generation from a template and the seed (docs/games/council.md,
 * "The galaxy").
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

static void test_hex_distance_and_adjacency(void)
{
    cnc_hex o = {0, 0};
    for (int d = 0; d < 6; d++) {
        cnc_hex n = cnc_hex_neighbor(o, d);
        CHECK_EQ_INT(cnc_hex_distance(o, n), 1);
        CHECK_EQ_INT(cnc_hex_distance(cnc_hex_neighbor(n, (d + 3) % 6), o), 0);
    }
    cnc_hex a = {2, -1}, b = {-1, 3};
    CHECK_EQ_INT(cnc_hex_distance(a, b), 4);
    CHECK_EQ_INT(cnc_hex_distance(b, a), 4);
    make_galaxy(&G, 6, 1, 0);
    CHECK_EQ_INT(G.nsectors, 37);
    int nb[6];
    CHECK_EQ_INT(cnc_sector_neighbors(&G, 0, nb), 6);
    for (int s = 0; s < G.nsectors; s++) {
        CHECK_EQ_INT(cnc_sector_at(&G, G.sec[s].hex), s);
        int n = cnc_sector_neighbors(&G, s, nb);
        int ring = cnc_hex_distance(G.sec[s].hex, o);
        CHECK(ring < 3 ? n == 6 : (n == 3 || n == 4));
        for (int i = 0; i < n; i++)
            CHECK_EQ_INT(cnc_sector_distance(&G, s, nb[i]), 1);
        /* ring order: sectors never get farther from the centre going
         * backwards */
        if (s)
            CHECK(cnc_hex_distance(G.sec[s - 1].hex, o) <= ring);
    }
    cnc_hex off = {4, 0};
    CHECK_EQ_INT(cnc_sector_at(&G, off), -1);
}

/* The galaxy: the template's shape, a capital in the centre, homes where
 * the template puts them with their races' tiles and starting units. */
static void test_galaxy_from_template_every_player_count(void)
{
    for (int n = CNC_MIN_PLAYERS; n <= CNC_MAX_PLAYERS; n++) {
        const cnc_template *t = cnc_template_for(D, n);
        make_galaxy(&G, n, (uint64_t)n * 31, 0);
        CHECK_EQ_INT(G.nsectors, 1 + 3 * t->radius * (t->radius + 1));
        CHECK_EQ_INT(G.sec[G.capital].kind, CNC_SEC_CAPITAL);
        CHECK_EQ_INT(G.sec[G.capital].hex.q, 0);
        CHECK_EQ_INT(G.sec[G.capital].hex.r, 0);
        for (int i = 0; i < n; i++) {
            const cnc_sector *h = &G.sec[G.home[i]];
            CHECK_EQ_INT(h->kind, CNC_SEC_HOME);
            CHECK_EQ_INT(h->seat, i);
            CHECK_EQ_INT(h->hex.q, t->home_q[i]);
            CHECK_EQ_INT(h->hex.r, t->home_r[i]);
            CHECK_EQ_INT(h->owner[0], i);
            CHECK_EQ_INT(h->units[i][cnc_unit_index(D, "carrier")], 2);
            CHECK_EQ_INT(h->ground[0], 4);
            CHECK_EQ_INT(h->marker, -1);
        }
        int homes = 0, used[CNC_MAX_SYSTEMS] = {0};
        for (int s = 0; s < G.nsectors; s++) {
            homes += G.sec[s].kind == CNC_SEC_HOME;
            if (G.sec[s].kind == CNC_SEC_SYSTEM)
                used[G.sec[s].tile]++;
        }
        CHECK_EQ_INT(homes, n);
        for (int i = 0; i < D->nsystems; i++)
            CHECK(used[i] <= D->systems[i].count);
    }
}

/* Neutral markers lie hidden on every planet and every planet or empty
 * system outside the homes and the capital; anomalies have none. */
static void test_markers_hidden_on_systems_and_planets(void)
{
    for (uint64_t seed = 0; seed < 20; seed++) {
        make_galaxy(&G, 3 + (int)(seed % 6), seed, 0);
        int counted = 0;
        for (int s = 0; s < G.nsectors; s++) {
            const cnc_sector *x = &G.sec[s];
            const cnc_system *t = cnc_sector_tile(D, &G, s);
            int wants =
                x->kind == CNC_SEC_SYSTEM &&
                (t->kind == CNC_SYS_PLANETS || t->kind == CNC_SYS_EMPTY);
            CHECK_EQ_INT(x->marker >= 0, wants);
            if (x->marker >= 0) {
                const cnc_marker *m = &G.markers[x->marker];
                CHECK_EQ_INT(D->markers[m->kind].where, CNC_WHERE_SYSTEM);
                CHECK(m->sector == s && m->planet == -1);
                CHECK_EQ_INT(m->state, CNC_MK_HIDDEN);
                counted++;
            }
            for (int p = 0; p < CNC_MAX_PLANETS; p++) {
                int has = x->kind == CNC_SEC_SYSTEM && p < t->nplanets;
                CHECK_EQ_INT(x->planet_marker[p] >= 0, has);
                if (!has)
                    continue;
                const cnc_marker *m = &G.markers[x->planet_marker[p]];
                CHECK_EQ_INT(D->markers[m->kind].where, CNC_WHERE_PLANET);
                CHECK(m->sector == s && m->planet == p);
                counted++;
            }
        }
        CHECK_EQ_INT(counted, G.nmarkers);
    }
}

static void test_generation_deterministic_for_a_seed(void)
{
    make_galaxy(&G, 5, 42, 0);
    make_galaxy(&H, 5, 42, 0);
    CHECK(memcmp(&G, &H, sizeof G) == 0);
    make_galaxy(&H, 5, 43, 0);
    int differ = 0;
    for (int s = 0; s < G.nsectors; s++)
        differ += G.sec[s].tile != H.sec[s].tile;
    CHECK(differ > 0);
}

/* The fixed map: the same tiles in the same places whatever the seed; the
 * markers are still shuffled. */
static void test_fixed_map_same_tiles_any_seed(void)
{
    make_galaxy(&G, 4, 1, 1);
    make_galaxy(&H, 4, 2, 1);
    int marker_differ = 0;
    for (int s = 0; s < G.nsectors; s++) {
        if (G.sec[s].kind != CNC_SEC_SYSTEM)
            continue;
        CHECK_EQ_INT(G.sec[s].tile, H.sec[s].tile);
        if (G.sec[s].marker >= 0)
            marker_differ += G.markers[G.sec[s].marker].kind !=
                             H.markers[H.sec[s].marker].kind;
    }
    CHECK(marker_differ > 0);
}

static void test_generation_rejects_bad_arguments(void)
{
    engine_rng rng;
    engine_error err = {0};
    int races[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    rng_for(&rng, 1);
    CHECK_EQ_INT(cnc_galaxy_generate(D, 2, races, 0, &rng, &G, &err),
                 ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "players");
    CHECK_EQ_INT(cnc_galaxy_generate(D, 9, races, 0, &rng, &G, &err),
                 ENGINE_EINVALID);
    races[2] = 0;
    CHECK_EQ_INT(cnc_galaxy_generate(D, 3, races, 0, &rng, &G, &err),
                 ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "races");
    races[2] = 99;
    CHECK_EQ_INT(cnc_galaxy_generate(D, 3, races, 0, &rng, &G, &err),
                 ENGINE_EINVALID);
}

int main(void)
{
    council_test_init();
    RUN(test_hex_distance_and_adjacency);
    RUN(test_galaxy_from_template_every_player_count);
    RUN(test_markers_hidden_on_systems_and_planets);
    RUN(test_generation_deterministic_for_a_seed);
    RUN(test_fixed_map_same_tiles_any_seed);
    RUN(test_generation_rejects_bad_arguments);
    return TEST_SUMMARY();
}

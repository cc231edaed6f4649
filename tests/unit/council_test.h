/*
 * council_test.h - what the test_council_*.c files share: loading the
 * built-in rules data, seeded RNGs, and a freshly generated galaxy.
 */
#ifndef CONCLAVE_COUNCIL_TEST_H
#define CONCLAVE_COUNCIL_TEST_H

#include "engine/rules/council/council_fog.h"
#include "engine/rules/council/council_galaxy.h"
#include "tests/unit/test.h"

#include <stdlib.h>

static const cnc_data *D __attribute__((unused));

static inline void council_test_init(void)
{
    engine_error err = {0};
    if (cnc_data_init(&err) != 0) {
        fprintf(stderr, "council data: %s\n", err.msg);
        exit(1);
    }
    D = cnc_data_get();
}

static inline void rng_for(engine_rng *rng, uint64_t seed)
{
    uint8_t key[32] = {0};
    memcpy(key, &seed, sizeof seed);
    engine_rng_init(rng, key, 7);
}

/* A galaxy for n players with races 0..n-1 (rotated by seed), or exit. */
static inline void make_galaxy(cnc_galaxy *g, int n, uint64_t seed, int fixed)
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

#endif

/*
 * test_engine_sweep.c - test_engine.c's illegal-input sweep as a binary of
 * its own: every ruleset, illegal inputs of every kind leave the game
 * unchanged (see test_engine.c). Split off so that the sweep, about half of
 * test_engine's CPU, runs beside the rest in make test.
 */
#define TEST_ENGINE_SWEEP 1
#include "tests/unit/test_engine.c"

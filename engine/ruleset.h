/*
 * ruleset.h - what a ruleset implements to plug into the engine.
 *
 * A ruleset is one folder under engine/rules/NAME/ exposing one constant
 * engine_ruleset table, listed in engine/registry.c. The core owns windows
 * bookkeeping for sealed orders (holding, replacing, withdrawing, locking,
 * receipts, reveal log entries), the RNG, the log, save/load framing and
 * hashing; the ruleset owns the game's own state and rules.
 *
 * The ruleset state is an opaque pointer to plain data. Functions taking a
 * const state must not change it. Functions that mutate (setup, resolve,
 * play, timeout) must validate first and mutate only once they know they
 * will succeed: a failed call leaves the state byte-for-byte unchanged.
 * Rulesets never read a clock, do I/O or keep globals; all randomness comes
 * from engine_ctx_rng.
 *
 * Read docs/ruleset-authoring.md for a walk through engine/rules/tictactoe.
 */
#ifndef CONCLAVE_RULESET_H
#define CONCLAVE_RULESET_H

#include "engine.h"

/* Handed to mutating ruleset functions: the game's RNG, its log and facts. */
typedef struct engine_ctx engine_ctx;

engine_rng *engine_ctx_rng(engine_ctx *ctx);
int engine_ctx_seats(const engine_ctx *ctx);
/* Append a log entry (steals entry) seen by everyone / by one seat only
 * (an entry for a seat out of range is dropped, never made public). If the
 * function that logged fails, the core drops its entries again. */
void engine_ctx_log(engine_ctx *ctx, json_t *entry);
void engine_ctx_log_private(engine_ctx *ctx, int seat, json_t *entry);

struct engine_ruleset {
    const char *id;      /* stable, [a-z0-9_]+ */
    const char *title;   /* for players */
    const char *summary; /* one or two sentences for the lobby */
    int min_seats, max_seats;
    const char *options_schema; /* JSON Schema (text) of the options object */

    /* Optional one-time start-up work: parse and validate the ruleset's data
     * (cards, boards) into an immutable table. Called by engine_init before
     * any game exists; a failure is a clear start-up error. NULL if none. */
    int (*init)(engine_error *err);

    /* Check options (NULL means defaults) for a seat count; fill err naming
     * the field. Optional: NULL accepts only an empty/NULL options object. */
    int (*check_options)(const json_t *options, int seats, engine_error *err);

    /* Build the initial state (deal, shuffle...). May log. */
    void *(*setup)(engine_ctx *ctx, const json_t *options, int seats,
                   engine_error *err);
    void (*destroy)(void *state);
    void *(*clone)(const void *state);
    json_t *(*save)(const void *state);
    void *(*load)(const json_t *saved, engine_error *err);

    /* The windows open now (the core fills `submitted` for sealed ones).
     * Returns the count open, writing at most max. */
    int (*windows)(const void *state, engine_window *out, int max);

    /* Sealed windows: is this order legal for seat in window now? Const, and
     * a pure function of the state: the core checks on submission and
     * relies on the answer at lock. The core has already checked that the
     * window is open and sealed, that seat acts in it and that order is a
     * JSON object. */
    int (*check_order)(const void *state, int seat, const char *window,
                       const json_t *order, engine_error *err);
    /* The order a seat gets when the window times out without one (NEW). */
    json_t *(*default_order)(const void *state, int seat, const char *window);
    /* The part of a seat's order everyone may see on reveal (NEW); NULL
     * function means the whole order is public after lock. */
    json_t *(*public_order)(const void *state, int seat, const char *window,
                            const json_t *order);
    /* The window locked: orders[seat] is each acting seat's checked order
     * (NULL for seats not in the window; borrowed, copy what you keep).
     * Cannot fail for checked orders. */
    int (*resolve)(void *state, engine_ctx *ctx, const char *window,
                   const json_t *const *orders, engine_error *err);

    /* Open windows: apply a play by seat (validate, then mutate). The core
     * has checked that the window is open and of mode open, that seat acts
     * in it and that play is a JSON object (without the API's "window"). */
    int (*play)(void *state, engine_ctx *ctx, int seat, const char *window,
                const json_t *play, engine_error *err);
    /* Open windows: the clock ran out (e.g. a default move or a forfeit). */
    int (*timeout)(void *state, engine_ctx *ctx, const char *window,
                   engine_error *err);

    /* What seat (ENGINE_PUBLIC for spectators) may know. */
    json_t *(*view)(const void *state, int seat);
    /* Legal shapes and choices for seat in one window:
     * {"kind":"order"|"play","shape":{JSON Schema},"choices":[...]|null}. */
    json_t *(*legal)(const void *state, int seat, const char *window);
    /* A payload for seat in window: level "random" is uniform over legal
     * actions; other levels are heuristics. NEW, or NULL if unknown level. */
    json_t *(*bot)(const void *state, int seat, const char *window,
                   const char *level, engine_rng *rng);

    int (*is_over)(const void *state);
    json_t *(*result)(const void *state); /* NEW; NULL while running */

    /* Optional, sealed windows: like default_order, for defaults that need
     * chance (a random throw). rng is the game's, so replay reproduces the
     * draw. When set, the core calls it instead of default_order. NEW. */
    json_t *(*default_order_rng)(const void *state, int seat,
                                 const char *window, engine_rng *rng);

    /* Bot levels a lobby may seat, each with a title for players, ended by
     * {NULL, NULL}; the first is the level of a bot added without one.
     * Every level listed must be one the bot function knows. NULL means
     * {"random"} only. */
    const engine_bot_level *bot_levels;

    /* Optional per-player record kept across games (a campaign, a rating):
     * the server stores one record per player and ruleset, and after each
     * finished game calls record with the player's stored record (NULL when
     * none yet), the game's options and seat count, the player's seat and
     * the game's result; it returns the NEW record, or NULL when the game
     * leaves the record unchanged (it is not part of it). With result NULL
     * (and old NULL) it returns the record of a player without games. The
     * record is shown under GET /api/v1/me's member record_key. Pure. */
    const char *record_key;
    json_t *(*record)(const json_t *old, const json_t *options, int seats,
                      int seat, const json_t *result);
};

#endif

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
/* Append a log entry (steals entry) that only the seats in the bitmask
 * `seats` see (allies, a team); never spectators. Bits for seats out of
 * range are ignored; an empty set drops the entry; a single seat is the
 * same as engine_ctx_log_private. */
void engine_ctx_log_seats(engine_ctx *ctx, uint32_t seats, json_t *entry);
/* Say which audiences (seat bits, ENGINE_AUDIENCE_PUBLIC) this change
 * touched; calls add up. Without a call, a ruleset change touches all
 * audiences (see engine_touched). */
void engine_ctx_touch(engine_ctx *ctx, uint32_t audiences);
/* This change revealed something hidden (a card seen, a reveal), so the
 * play cannot be undone. Drawing from the RNG and writing a non-public log
 * entry count as revealing without this call. */
void engine_ctx_revealed(engine_ctx *ctx);

/* ---------------------------------------------- priority and the stack --
 * The core keeps who holds priority, the passes in a row and the stack;
 * the ruleset opens priority steps, pushes items and resolves them through
 * the priority_* members below. See engine/priority.c and
 * docs/ruleset-authoring.md ("Priority and the stack").
 */
typedef struct engine_stack_item {
    uint32_t id;           /* given by the core, unique in the game, from 1 */
    int owner;             /* the seat that controls it */
    char source[48];       /* what put it there (card, ability); public */
    uint32_t target_seats; /* seats it targets or attacks; public. Response
                              rules stop for these seats */
    json_t *targets;       /* public description of the targets, or NULL */
    json_t *payload;       /* the public part, or NULL */
    json_t *secret;        /* the hidden part, or NULL */
    uint32_t secret_seats; /* who sees `secret` besides the owner */
} engine_stack_item;

typedef struct engine_stack engine_stack;
/* Items on the stack; index 0 is the bottom, size-1 the top (borrowed,
 * valid until the stack changes). at() is NULL out of range; top() NULL
 * when empty. Cannot fail. */
size_t engine_stack_size(const engine_stack *s);
const engine_stack_item *engine_stack_at(const engine_stack *s, size_t i);
const engine_stack_item *engine_stack_top(const engine_stack *s);
/* The stack as it is now (read-only). */
const engine_stack *engine_ctx_stack(const engine_ctx *ctx);

/* A new turn: `active` becomes the active seat and the turn count (public,
 * what "until end of turn" and "until my turn" watch) goes up. */
void engine_ctx_turn_begin(engine_ctx *ctx, int active);
/* Open a priority step named `step` ([a-z0-9_], under 24 characters):
 * the seats in `round` take part and `first` holds priority. Replaces any
 * step under way. Returns 0, or ENGINE_EINVALID for a bad step name, an
 * empty round or `first` outside it. */
int engine_ctx_priority_begin(engine_ctx *ctx, const char *step, uint32_t round,
                              int first);
/* After this play or resolution priority goes to seat (default: the
 * player who played keeps it; after a resolution, the active seat). */
void engine_ctx_priority_give(engine_ctx *ctx, int seat);
/* Put an item on top of the stack now (steals its JSON members; fills
 * item->id). Returns the id, or 0 (the members freed) on OOM or a bad
 * owner. */
uint32_t engine_ctx_stack_push(engine_ctx *ctx, engine_stack_item *item);
/* Queue a triggered item: when the current ruleset call returns, the core
 * pushes queued triggers in seat order starting from the active seat (the
 * active seat's go on first and so resolve last); one seat's keep the
 * order they were queued in. Steals like engine_ctx_stack_push; the id is
 * given when the item is pushed (returns 0 on OOM or a bad owner, else
 * 1). */
int engine_ctx_trigger(engine_ctx *ctx, engine_stack_item *item);
/* Take item id off the stack unresolved (countered). Returns 0, or
 * ENGINE_ENOTFOUND when it is not there. */
int engine_ctx_stack_remove(engine_ctx *ctx, uint32_t id);

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

    /* ---- Priority and the stack (engine/priority.c). All optional; a
     * ruleset that calls engine_ctx_priority_begin must set play, resolve
     * and end. */
    /* The seat holding priority in `step` made a play other than a pass
     * (validate, then mutate; push items with engine_ctx_stack_push). On
     * success the passes in a row start again from none. */
    int (*priority_play)(void *state, engine_ctx *ctx, int seat,
                         const char *step, const json_t *play,
                         engine_error *err);
    /* Every seat of the round passed in a row and `item` (borrowed, already
     * off the stack) resolves. Cannot fail for items the ruleset pushed. */
    int (*priority_resolve)(void *state, engine_ctx *ctx, const char *step,
                            const engine_stack_item *item, engine_error *err);
    /* Every seat of the round passed in a row with the stack empty: the
     * step is over (it is already closed; open the next one here). Cannot
     * fail. */
    int (*priority_end)(void *state, engine_ctx *ctx, const char *step,
                        engine_error *err);
    /* The clock ran out on seat's priority: return 0 when handled (a
     * forfeit), 1 to pass as usual, or an error. NULL: it passes. */
    int (*priority_timeout)(void *state, engine_ctx *ctx, int seat,
                            const char *step, engine_error *err);
    /* Plays other than a pass seat may make now, as `legal` returns them
     * ({"kind":"play","shape":...,"choices":[...]|null}); the core adds the
     * pass. NULL: passing is the only play. */
    json_t *(*priority_legal)(const void *state, const engine_stack *stack,
                              int seat, const char *step);
    /* A bot's play for seat (NEW); NULL result or NULL function: pass. */
    json_t *(*priority_bot)(const void *state, const engine_stack *stack,
                            int seat, const char *step, const char *level,
                            engine_rng *rng);
    /* 1: keep an undo point before each priority play (a clone of the
     * state per play), so a play that revealed nothing can be taken back. */
    int priority_undo;
};

#endif

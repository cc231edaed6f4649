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

/* ------------------------------------------------- built-in data -- */
/* A ruleset's data file (cards.json...), parsed with duplicate keys refused.
 * NEW, or NULL with err naming the file, line and column (field `name`). */
json_t *engine_data_load(const char *text, size_t len, const char *name,
                         engine_error *err);
/* The data set's identity, which saved games carry: the hex SHA-256 of the
 * canonical JSON of root with every "text" member removed, so that layout
 * and rewording keep saved games loadable while any change to what the
 * rules read makes old saves refuse to load. 0, or ENGINE_EINTERNAL (OOM). */
int engine_data_identity(const json_t *root,
                         char out[2 * ENGINE_HASH_BYTES + 1],
                         engine_error *err);

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
/* This game's priority settings, from setup (ENGINE_PRIO_* bits; a game
 * that never calls it keeps the defaults: every seat holds priority, undo
 * only with priority_undo, a "my_turn" rule set in the seat's own turn
 * ends at once):
 *  ENGINE_PRIO_AUTO_PASS  every seat starts without "hold": its play
 *                         passes priority with it, it passes while its own
 *                         item is on top of the stack, and in a step marked
 *                         with engine_ctx_priority_flow it passes on an
 *                         empty stack (docs/api.md, "Priority");
 *  ENGINE_PRIO_UNDO       keep undo points, as priority_undo does;
 *  ENGINE_PRIO_MY_TURN_KEPT  a "my_turn" rule set in the seat's own turn
 *                         waits for the next one instead of ending. */
#define ENGINE_PRIO_AUTO_PASS 1u
#define ENGINE_PRIO_UNDO 2u
#define ENGINE_PRIO_MY_TURN_KEPT 4u
void engine_ctx_priority_setup(engine_ctx *ctx, unsigned flags);
/* The flags this game was set up with (0 when never). */
unsigned engine_ctx_priority_flags(const engine_ctx *ctx);
/* The step just begun flows: a seat without hold passes in it whenever it
 * gets priority on an empty stack (a step where an empty stack leaves
 * nothing to decide). Only in games set up with ENGINE_PRIO_AUTO_PASS;
 * elsewhere it does nothing. */
void engine_ctx_priority_flow(engine_ctx *ctx);
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

/* ------------------------------------------------------------- options -- */

/* A ruleset's options are declared once, as a table of engine_option ending
 * with {0}. The engine makes from it both the JSON Schema clients see
 * (engine_ruleset_describe) and the check every game's options pass
 * (engine_check_options), and setup reads values with engine_option_int. */
typedef enum engine_option_kind {
    ENGINE_OPTION_BOOL,  /* true or false; absent means false */
    ENGINE_OPTION_INT,   /* an integer in min..max; absent means def */
    ENGINE_OPTION_NAMES, /* an array of at most max distinct names taken from
                            choices; absent means none */
    ENGINE_OPTION_HANDS, /* an array of up to ENGINE_MAX_SEATS arrays, each of
                            at most max names taken from choices (repeats
                            allowed): fixed hands per seat; check_options
                            checks the count against the seats */
} engine_option_kind;

typedef struct engine_option {
    const char *name; /* the key in the options object; NULL ends a table */
    engine_option_kind kind;
    const char *title;          /* for players: the schema's "description" */
    int min, max;               /* INT: the range; NAMES: max is max items */
    int def;                    /* INT: the value when absent (in range) */
    const char *const *choices; /* NAMES: the allowed names, NULL-ended */
} engine_option;

/* Check options (NULL means none) against table (NULL means no options):
 * an object whose every key is a declared option holding a value of its
 * kind. Fills err naming the field at fault (ENGINE_EINVALID). This is
 * exactly what the table's JSON Schema accepts. */
int engine_options_valid(const engine_option *table, const json_t *options,
                         engine_error *err);
/* The JSON Schema of table, a new object ({"type":"object",
 * "properties":{...},"additionalProperties":false}); NULL on OOM. */
json_t *engine_options_schema(const engine_option *table);
/* The value of an INT or BOOL option from options already checked: the
 * given value, else the declared default (def for INT, 0 for BOOL); 0 for a
 * name table does not declare. */
int engine_option_int(const engine_option *table, const json_t *options,
                      const char *name);

/* ------------------------------------------------- plain-data states -- */

/* Helpers for a ruleset whose state is one flat struct of ints (no
 * pointers): clone is a copy, destroy is free(), and save/load follow a
 * table of engine_field ending with {0}. The saved document is an object
 * with one key per field, all required, no others. */
typedef enum engine_field_kind {
    ENGINE_FIELD_INT,  /* an integer in min..max */
    ENGINE_FIELD_BOOL, /* 0 or 1, saved as false / true */
    ENGINE_FIELD_SEAT, /* -1 (saved as null) or a seat 0..max */
    ENGINE_FIELD_NAME, /* an index into names, saved as that name */
} engine_field_kind;

typedef struct engine_field {
    const char *name; /* the key in the saved object; NULL ends a table */
    engine_field_kind kind;
    size_t offset;            /* offsetof the int (or the array's first) */
    int min, max;             /* INT: the range; SEAT: the highest seat */
    const char *const *names; /* NAME: the names, NULL-ended */
    /* Arrays: len > 0 makes the field an int array saved as a JSON array
     * of len rows of cols ints each (cols 0 or 1: a flat array of ints;
     * cols 2 and up: each row an array). With has_count, the array holds
     * only as many rows as the int at count_offset says (saved: that many;
     * loaded: sets it, at most len). */
    int len, cols;
    int has_count;
    size_t count_offset;
} engine_field;

/* A malloc'd copy of the size bytes at state; NULL on OOM. */
void *engine_plain_clone(const void *state, size_t size);
/* The saved document of state (a new object); NULL on OOM. */
json_t *engine_plain_save(const void *state, const engine_field *fields);
/* Fill state (which the caller zeroed) from saved; ENGINE_EINTERNAL naming
 * the field if saved does not match fields (wrong type, out of range,
 * missing or unknown key). On failure state may be partly written: load
 * into a local, check what the table cannot say, then clone it. */
int engine_plain_load(void *state, const json_t *saved,
                      const engine_field *fields, engine_error *err);

/* ------------------------------------------------------------ the table -- */

struct engine_ruleset {
    const char *id;      /* stable, [a-z0-9_]+ */
    const char *title;   /* for players */
    const char *summary; /* one or two sentences for the lobby */
    int min_seats, max_seats;
    const engine_option *options; /* the options table; NULL: none */
    /* Optional, for versioned rules: a JSON object (text) of options every
     * NEW game is stored with where its options lack them (e.g.
     * {"edition":2}), by engine_options_stamp. A game stored before then
     * lacks the key and replays as it was played: the ruleset reads the
     * key's absence as the old rules. NULL: none. */
    const char *new_game_options;

    /* Optional one-time start-up work: parse and validate the ruleset's data
     * (cards, boards) into an immutable table. Called by engine_init before
     * any game exists; a failure is a clear start-up error. NULL if none. */
    int (*init)(engine_error *err);

    /* Optional: the rules on options the table cannot state (rules across
     * fields, or on the seat count), stated in the options' titles too.
     * Called only with options the table accepted (NULL for none) and a
     * seat count in range; fill err naming the field. */
    int (*check_options)(const json_t *options, int seats, engine_error *err);

    /* Build the initial state (deal, shuffle...). May log. */
    void *(*setup)(engine_ctx *ctx, const json_t *options, int seats,
                   engine_error *err);
    void (*destroy)(void *state);
    void *(*clone)(const void *state);
    json_t *(*save)(const void *state);
    void *(*load)(const json_t *saved, engine_error *err);

    /* The windows open now (the core fills `submitted` for sealed ones).
     * Returns the count open, writing at most max. A sealed window whose
     * order is an object of keyed parts (one member per fleet, per
     * planet...) sets `parts`: players may then set and delete one member
     * at a time, and check_order must accept any set of members that can
     * stand on its own, since the core checks the whole order after each
     * change. */
    int (*windows)(const void *state, engine_window *out, int max);

    /* Hidden information by construction: a refusal (accepted or not, the
     * error's code, text and field, and whether it comes now or at
     * resolution) and a condition may depend only on the submitting seat's
     * knowledge: its view, its own hidden facts, and what its units observe
     * at the moment a step resolves. Never on other seats' hands or held
     * orders, the deck order or unexplored space. tests/unit/test_twin.c
     * checks it against the twin hook below. This holds for check_order,
     * play, priority_play and for refusals and conditions inside resolve. */

    /* Sealed windows: is this order legal for seat in window now? Const, and
     * a pure function of the state: the core checks on submission and
     * relies on the answer at lock. The core has already checked that the
     * window is open and sealed, that seat acts in it and that order is a
     * JSON object. */
    int (*check_order)(const void *state, int seat, const char *window,
                       const json_t *order, engine_error *err);
    /* The order a seat gets when the window times out without one (NEW).
     * rng is the game's, so a default that needs chance (a random throw)
     * draws from it and replay reproduces the draw; a ruleset whose
     * defaults need no chance ignores it. The core checks the answer with
     * check_order; NULL (or no function) means the window cannot time out
     * for that seat, an internal error. */
    json_t *(*default_order)(const void *state, int seat, const char *window,
                             engine_rng *rng);
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

    /* Optional, for tests (engine_twin): a NEW state that looks the same to
     * seat (its view equal) but differs, where the rules allow, in what
     * seat may not know: other seats' hands and hidden parts, the deck
     * order, unexplored sectors and uninspected markers. Counts the seat
     * sees stay equal. Draws only from rng. NULL: no twin of this state
     * (or OOM). A ruleset with nothing hidden returns a clone. Other
     * seats' held sealed orders are the core's and it varies them itself.
     */
    void *(*twin)(const void *state, int seat, engine_rng *rng);

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

    /* The largest order this ruleset takes, in bytes of canonical JSON
     * (the server refuses longer orders and request bodies with 413); 0
     * means ENGINE_ORDER_BYTES_DEFAULT (64 KiB). For orders in parts that
     * grow past the default. */
    size_t max_order_bytes;

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
    /* Optional: a choice the player makes in their record (the Sprint
     * campaign: which of several conditions a game checks off). Writes the
     * NEW record to *next and returns 0, or fails (ENGINE_ECONFLICT when the
     * record waits for no choice, ENGINE_EINVALID for a bad choice) leaving
     * *next NULL. Pure. */
    int (*record_choose)(const json_t *record, const json_t *choice,
                         json_t **next, engine_error *err);

    /* Optional: the step a window id stands for, in words for players
     * ("Round 2: your vote", "Management phase"), into out (n bytes, NUL
     * ended); 0, or -1 for an id it does not name (then the core's
     * engine_window_label makes words of the id itself). Pure: from the id
     * alone, since the inbox and the mails know only the id. */
    int (*window_label)(const char *window, char *out, size_t n);

    /* Optional: 1 when the rules bar seat from table talk now (Council: a
     * player whose representative was removed takes no part in that
     * agenda's discussion), with the reason for that player in why (n
     * bytes, NUL ended); else 0. Posting is refused, reading is not. It may
     * depend only on public facts, since the refusal says what the rule
     * saw. Pure. NULL: table talk is never closed. */
    int (*talk_closed)(const void *state, int seat, char *why, size_t n);
};

#endif

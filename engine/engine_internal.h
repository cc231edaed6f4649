/*
 * engine_internal.h - what the engine's own files share and nobody else may
 * use: the layout of a game, the ruleset context, the held sealed orders and
 * the log. Servers, tools and rulesets go through engine.h / ruleset.h.
 */
#ifndef CONCLAVE_ENGINE_INTERNAL_H
#define CONCLAVE_ENGINE_INTERNAL_H

#include "engine.h"
#include "ruleset.h"

/* Stream ids for engine_rng, so that one seed feeds independent streams. */
#define STREAM_GAME UINT64_C(0x67616d65) /* "game": the game's own RNG */

/* A sealed order the core holds until its window locks. Secret. */
typedef struct pending_order {
    char window[ENGINE_WINDOW_ID_MAX];
    int seat;
    json_t *order; /* owned */
    uint8_t nonce[ENGINE_NONCE_BYTES];
} pending_order;

/* One log line: everyone sees it (seat == ENGINE_PUBLIC, seats == 0), one
 * seat (seat >= 0), or a set of seats (seat == ENGINE_PUBLIC, seats != 0;
 * never spectators). */
typedef struct log_line {
    int seat;
    uint32_t seats;
    json_t *entry; /* owned; never changed after it is appended */
} log_line;

typedef struct prio_core prio_core; /* engine/priority.h */

struct engine_game {
    const engine_ruleset *rs;
    char *id;
    json_t *options; /* as given ({} for NULL), owned */
    int seats;
    uint8_t seed[ENGINE_SEED_BYTES];
    engine_rng rng;
    void *state; /* the ruleset's */
    uint64_t inputs;
    int aborted;

    pending_order *pending; /* in arrival order of first submission */
    size_t npending, cap_pending;

    log_line *log;
    size_t nlog, cap_log;
    int oom; /* a log append failed to allocate during this apply */

    prio_core *prio;    /* priority, the stack, response rules, undo; NULL
                           until a ruleset uses them (engine/priority.c) */
    uint32_t touched;   /* audiences the last apply touched */
    int touch_marked;   /* touched was set by someone during this apply */
    int ruleset_marked; /* the ruleset narrowed it (engine_ctx_touch) */
    int revealed;       /* engine_ctx_revealed during this apply */
};

struct engine_ctx {
    engine_game *g;
};

/* Append a log line (steals entry). On allocation failure sets g->oom. */
void game_log_append(engine_game *g, int seat, json_t *entry);
/* Append a line for a set of seats (steals entry; see log_line). */
void game_log_append_seats(engine_game *g, uint32_t seats, json_t *entry);
/* Add audiences to what this apply touched. */
void game_touch(engine_game *g, uint32_t audiences);
/* [seat, ...] for the bits of a seat mask (NEW); NULL on OOM. */
json_t *game_seat_list(uint32_t seats);
/* The mask of a [seat, ...] list of seats in 0..nseats-1; 0 when it is not
 * such a list (or is empty or has a seat twice). */
uint32_t game_seat_mask(const json_t *list, int nseats);
/* Drop log lines past n (undoing a failed apply). */
void game_log_truncate(engine_game *g, size_t n);
/* The held order of seat in window, or NULL. */
pending_order *game_pending_find(const engine_game *g, const char *window,
                                 int seat);
/* Every window open now, however many, in a malloc'd array with
 * `submitted` filled (engine_windows_all); the count, 0 with *list NULL
 * when none is open, or -1 on OOM. The one way the engine lists windows. */
int game_windows(const engine_game *g, engine_window **list);
/* Remove held orders whose window is no longer open. */
void game_pending_prune(engine_game *g);
/* Remove every held order of window. */
void game_pending_drop_window(engine_game *g, const char *window);
/* An empty game shell for ruleset rs (no state yet); NULL on OOM. */
engine_game *game_alloc(const engine_ruleset *rs, const char *id,
                        const json_t *options, int seats,
                        const uint8_t seed[ENGINE_SEED_BYTES]);
/* 1 if engine_init has run. */
int registry_ready(void);

#include "priority.h"

#endif

/*
 * actor.h - one actor per live game: a mailbox of inputs applied one at a
 * time, in order, by a small worker pool; games run in parallel.
 *
 * The apply path: validate with the engine on the worker's own copy of
 * the game, append to the store with the expected version through the
 * group commit (server/store/commit.h: appends of many games share one
 * transaction; each is answered only after it), and only then apply the same
 * input to the committed copy that readers see, answer the caller and tell the
 * listener (the WebSocket hub) about the new version. A failed commit puts the
 * worker's copy back as committed. On a version conflict (another process
 * advanced the game) the actor catches up from the store and validates again,
 * so an input is never applied twice. Bots seated in a game act through the
 * same path. Idle games leave memory and are reloaded (snapshot + inputs) on
 * demand. An id the store does not have leaves no actor behind (its entry goes
 * once the load has found nothing) and is remembered for a while, so asking
 * again costs no lookup; actors_load (a game just created) forgets it. Details:
 * server/game/actor.c.
 *
 * Threads: actors_submit/actors_post/actors_read are called from HTTP
 * threads, the hub, the scheduler and the LISTEN thread; workers run the
 * mailboxes. Each actor has a mutex for its mailbox and a read-write lock
 * for its committed state; the map's mutex guards the map and reference
 * counts.
 */
#ifndef CONCLAVE_ACTOR_H
#define CONCLAVE_ACTOR_H

#include "common/errors.h"
#include "engine/engine.h"
#include "server/game/order_parts.h"
#include "server/runtime/app.h"
#include "server/store/store.h"

#include <jansson.h>
#include <stdint.h>

typedef struct actors actors;

typedef struct actor_request {
    int seat; /* acting seat, ENGINE_PUBLIC for timeouts */
    engine_input_kind kind;
    char window[ENGINE_WINDOW_ID_MAX];
    json_t *payload;          /* borrowed for submit; stolen by post */
    char idem_key[129];       /* "" when none; up to 128 characters */
    uint8_t request_hash[32]; /* of the request body, with idem_key */
    int64_t if_match;         /* expected version, or -1 */
    /* A part change of the seat's order in window (server/game/order_parts.h):
     * the actor builds the whole order from the one it holds when it
     * applies the input; payload is the part's value for a set. kind is
     * then ignored. */
    order_part_op part_op;
    char part_key[ORDER_PART_KEY_MAX + 1];
    /* A bot move for a player's seat (actors_stand_in): the bot level that
     * stands in; "" otherwise. */
    char stand_in[16];
} actor_request;

typedef struct actor_reply {
    srv_kind kind; /* SRV_OK, or why the input was refused */
    char detail[256];
    char field[64];
    uint64_t version; /* the game's version after the input */
    int has_receipt;
    engine_receipt receipt;
    json_t *stored; /* NEW: a repeated idempotent play's answer */
    json_t *parts;  /* NEW: after a part change, the part keys of
                       the order the seat now holds ([] when the
                       change withdrew it); else NULL */
} actor_reply;

/* What a reader sees, consistent and committed, under the actor's lock. */
typedef struct actor_view {
    const engine_game *game;
    const store_game *meta; /* seats, players, clock, status */
    uint64_t version;
    const json_t *deadlines; /* {window: RFC 3339} (borrowed) */
} actor_view;

typedef void (*actor_read_fn)(const actor_view *v, void *ctx);
/* Called by a worker after each committed version (and after catching up
 * with another process's inputs). Must not block for long. */
typedef void (*actor_listener_fn)(void *ctx, const char *game_id,
                                  uint64_t version);

actors *actors_start(app *a, char *err, size_t errlen);
/* Finishes queued work, stops the workers, frees every actor. */
void actors_stop(actors *A);
void actors_set_listener(actors *A, actor_listener_fn fn, void *ctx);
/* Tests only (the server sets none): fn(ctx, game_id) runs on the worker
 * that loads a game, after the load read the store and before readers may
 * see the game, so a test can pause a load on purpose. Set before traffic
 * starts; NULL removes it. */
typedef void (*actor_load_hook_fn)(void *ctx, const char *game_id);
void actors_set_load_hook(actors *A, actor_load_hook_fn fn, void *ctx);

/* Apply one input and wait for the answer. Returns 0 and fills out. The
 * caller json_decrefs out->stored and out->parts. */
int actors_submit(actors *A, const char *game_id, const actor_request *rq,
                  actor_reply *out);
/* Told once the answer of an input sent by actors_submit_async: on a
 * worker thread after the input is committed or refused (or at once on the
 * caller's thread when it cannot be queued). The callee owns
 * reply->stored and reply->parts; reply itself is valid only during the
 * call. Must not block. */
typedef void (*actor_done_fn)(void *ctx, actor_reply *reply);
/* Apply one input without waiting: done(ctx, reply) is called exactly
 * once with the answer actors_submit would give, also when the server
 * stops first (SRV_UNAVAILABLE). rq->payload is borrowed. */
void actors_submit_async(actors *A, const char *game_id,
                         const actor_request *rq, actor_done_fn done,
                         void *ctx);
/* Queue one input without waiting (scheduler timeouts). Steals payload. */
void actors_post(actors *A, const char *game_id, actor_request *rq);
/* Queue a move by bot level `bot` for seat of game_id, a seat a player
 * holds (a vacation in a game whose rules say "bot": server/game/vacation.h),
 * without waiting. The actor moves only if an open window waits on the
 * seat when it gets there, so a repeated call is harmless; the move goes
 * through the same path as a seated bot's. */
void actors_stand_in(actors *A, const char *game_id, int seat, const char *bot);
/* Run fn with the game's committed state. Returns SRV_OK (0),
 * SRV_NOT_FOUND when there is no such game, SRV_UNAVAILABLE when it cannot
 * be loaded. */
srv_kind actors_read(actors *A, const char *game_id, actor_read_fn fn,
                     void *ctx);
/* Load game_id (a game just created) and wait until it is in memory with
 * its deadlines, so the bots seated in it make their first moves and the
 * next read sees its clock. SRV_OK, SRV_NOT_FOUND or SRV_UNAVAILABLE. */
srv_kind actors_load(actors *A, const char *game_id);
/* Another process committed version of game_id: catch up if held, or
 * once loaded when it is being loaded (it may have read the store before
 * that version). */
void actors_remote_version(actors *A, const char *game_id, uint64_t version);
/* The deadline rows of game_id changed without an input (an extension, a
 * vacation): a held game rereads them and tells its listener. */
void actors_deadlines_changed(actors *A, const char *game_id);
/* Catch every held game up with the store (after a LISTEN reconnect). */
void actors_catch_up_all(actors *A);
/* Evict games idle for longer than the configured time. */
void actors_evict_idle(actors *A);
/* Keep a game in memory (delta +1) while this process has subscribers for
 * it, so other processes' inputs reach them; -1 releases. */
void actors_pin(actors *A, const char *game_id, int delta);
/* The ids of the games pinned here (subscribers on this process), for the
 * listener's version sweep: *ids is a malloc'd array of n ids of
 * STORE_ID_MAX bytes each (free it), NULL when n is 0. -1 out of memory. */
int actors_pinned_ids(actors *A, char (**ids)[STORE_ID_MAX], size_t *n);
/* Games held in memory now. */
int actors_count(actors *A);

#endif

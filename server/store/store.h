/*
 * store.h - the event store: games and their inputs in PostgreSQL.
 *
 * Every accepted input is a row of game_inputs, appended in one transaction
 * that also bumps games.version from the expected value (so two processes
 * can never both advance a game), updates the game's deadlines and records
 * the end of the game. After the commit the caller sends NOTIFY
 * conclave_games "game_id:version" (ids only, never content) in a
 * transaction of its own (store_notify_version; a group commit's batch
 * sends its NOTIFY behind its COMMIT, in the same round trip), so other
 * processes catch
 * up; a process that dies between the two leaves them to learn of the
 * version at the game's next notification or on their next append (a
 * version conflict). State is rebuilt from the latest snapshot plus the
 * inputs after it.
 *
 * All functions take a connection owned by the calling thread, use
 * parameters only, and return 0 on success or a negative STORE_E* code.
 */
#ifndef CONCLAVE_STORE_H
#define CONCLAVE_STORE_H

#include "engine/engine.h"

#include <jansson.h>
#include <libpq-fe.h>
#include <stdint.h>

enum {
    STORE_OK = 0,
    STORE_EDB = -1,       /* connection or SQL failure: retry later */
    STORE_ECONFLICT = -2, /* version moved on, or idempotency key taken */
    STORE_ENOTFOUND = -3
};

#define STORE_ID_MAX 40

/* The games row plus its seats. */
typedef struct store_game {
    char game_id[STORE_ID_MAX];
    char lobby_id[STORE_ID_MAX];
    char ruleset[64];
    json_t *options; /* owned */
    int seats;
    uint8_t seed[ENGINE_SEED_BYTES];
    char seed_sha256[65];
    char clock_mode[8]; /* none | live | async */
    int clock_seconds;
    json_t *clock_rules; /* owned; async rules (server/game/clock.h), {} none */
    int delay_versions;  /* spectator delay (server/game/spectate.h) */
    int delay_seconds;
    char status[12]; /* running | finished | aborted */
    uint64_t version;
    char seat_player[ENGINE_MAX_SEATS][STORE_ID_MAX]; /* "" when a bot */
    char seat_name[ENGINE_MAX_SEATS][32];
    char seat_bot[ENGINE_MAX_SEATS][16]; /* "" when a player */
    /* store_create_game: whether a seated player can be told of the game
     * (server/notify/notify_listened.h); then its 'started' notification
     * fact is written with it. */
    int listened;
} store_game;

/* One stored input. */
typedef struct store_input {
    uint64_t seq;
    int seat; /* ENGINE_PUBLIC for none */
    engine_input_kind kind;
    char window[ENGINE_WINDOW_ID_MAX];
    json_t *payload; /* owned; NULL for none */
    int has_nonce;
    uint8_t nonce[ENGINE_NONCE_BYTES];
} store_input;

/* What an append writes besides the input itself. */
typedef struct store_append {
    const char *game_id;
    uint64_t expected_version; /* the new input gets seq expected+1 */
    const store_input *input;
    const char *idem_key;        /* NULL unless a play with Idempotency-Key */
    const uint8_t *request_hash; /* 32 bytes when idem_key */
    const json_t *response;      /* stored for idempotent retries, or NULL */
    /* Deadlines: the windows open after the input; rows for other windows
     * are deleted, new ones get now()+clock_seconds. clock_seconds 0: none. */
    const engine_window *windows;
    int nwindows;
    int clock_seconds;
    const int *window_seconds; /* per window (server/game/clock.h); NULL: all
                                  clock_seconds */
    const char *clock_rules;   /* the game's rules as JSON text, or NULL */
    /* The waits after the input ([{"w","s"}], clock_waiting_text), or NULL
     * when they did not change: turns_waiting is synced, and each wait
     * that ends is recorded in seat_windows (answered by the input's seat,
     * or missed when the input is a timeout of its window) and added to
     * the player's reputation summary when it counts
     * (server/players/reputation.h). */
    const char *waiting;
    /* When the game ended with this input. */
    const char *final_status; /* NULL, "finished" or "aborted" */
    int keeps_records;        /* the ruleset keeps player records (records.h):
                                 a finished game is folded into them */
    const json_t *result;
    const char *final_hash;
    /* Whether a player seated in the game can be told of it (a channel,
     * server/notify/notify_listened.h): then the new version is written
     * as a notification fact with the commit. */
    int listened;
} store_append;

void store_game_clear(store_game *g);
void store_input_clear(store_input *in);

/* Insert games and game_seats rows (status running, version 0). When c is
 * inside a transaction the rows join it (the caller commits or rolls
 * back); otherwise they are written in a transaction of their own. */
int store_create_game(PGconn *c, const store_game *g);
int store_load_game(PGconn *c, const char *game_id, store_game *out);
/* The latest snapshot (NEW saved state and its seq), or *state NULL. */
int store_load_snapshot(PGconn *c, const char *game_id, json_t **state,
                        uint64_t *seq);
/* Inputs with seq > after, in order, into a malloc'd array (*n entries);
 * free with store_inputs_free. */
int store_load_inputs(PGconn *c, const char *game_id, uint64_t after,
                      store_input **out, size_t *n);
/* The same, at most limit inputs (0: all). */
int store_load_inputs_page(PGconn *c, const char *game_id, uint64_t after,
                           size_t limit, store_input **out, size_t *n);
void store_inputs_free(store_input *in, size_t n);
/* Append (see store_append) and commit: store_append_batch of one.
 * STORE_ECONFLICT when the version moved on or the idempotency key was
 * used meanwhile. When the input finishes the game, its players' records
 * (server/players/records.h) are updated in the same transaction. */
int store_append_input(PGconn *c, const store_append *a);
/* Append list[0..n-1] (appends of different games) and commit them
 * together, in one transaction: the group commit (server/store/commit.h). Each
 * append's own outcome goes to rcs[i]: STORE_OK once committed,
 * STORE_ECONFLICT when its expected version was stale (only that append is
 * refused; the others commit), STORE_EDB when it was not confirmed (see
 * below). The whole batch is one statement built from arrays (unnest): the
 * versions, the inputs, the notification facts of listened games, the
 * waits and the deadlines, each written only for the games that advanced;
 * it goes in one libpq pipeline with BEGIN, COMMIT and then, in a
 * transaction of its own, the NOTIFY of the batch (one round trip). A
 * batch where a game finishes whose ruleset keeps records folds them
 * before its COMMIT and notifies after it. Should the statement fail (an
 * idempotency key taken meanwhile), nothing is committed and each append
 * is tried on its own. Returns STORE_OK when every rcs[i] is that
 * append's answer, STORE_EDB when the connection failed (the connection
 * should be dropped): then the appends answered on their own before the
 * loss keep their answers and every other rcs[i] is STORE_EDB. STORE_EDB
 * never says that nothing was stored: a connection lost after COMMIT was
 * sent leaves the outcome unknown (a retry with the same idempotency key,
 * or a reload, tells). */
int store_append_batch(PGconn *c, const store_append *const *list, int n,
                       int *rcs);
/* NOTIFY conclave_games "game_id:version", in a transaction of its own:
 * called after an append commits. A failure is logged and returned; the
 * input stays committed. */
int store_notify_version(PGconn *c, const char *game_id, uint64_t version);
/* The latest snapshot at or before seq upto, as store_load_snapshot. */
int store_load_snapshot_upto(PGconn *c, const char *game_id, uint64_t upto,
                             json_t **state, uint64_t *seq);
/* The highest input seq <= upto recorded at least `seconds` ago (by the
 * database's clock) into *seq; 0 when none is. */
int store_seq_older_than(PGconn *c, const char *game_id, uint64_t upto,
                         int seconds, uint64_t *seq);
/* How many seconds ago (the database's clock) each input after..upto was
 * recorded: ages[i] for seq after+1+i (upto-after entries, the caller's);
 * 0 for a seq not found. */
int store_input_ages(PGconn *c, const char *game_id, uint64_t after,
                     uint64_t upto, double *ages);
int store_write_snapshot(PGconn *c, const char *game_id, uint64_t seq,
                         const json_t *state, const char *state_hash);
/* A stored answer for (game, seat, key): fills *response (NEW) and
 * request_hash; STORE_ENOTFOUND when the key is unused. */
int store_find_idempotent(PGconn *c, const char *game_id, int seat,
                          const char *key, uint8_t request_hash[32],
                          json_t **response);
/* Make the deadlines rows match the open windows: delete rows of other
 * windows; a window without a row gets clock_due(now(), seconds, rules):
 * window_seconds[i] (NULL: clock_seconds for every window; 0: none) moved
 * out of the rules' night window (rules: JSON text or NULL). Part of every
 * append; also run when a game is loaded, so a new game's first windows get
 * their deadlines. */
int store_sync_deadlines(PGconn *c, const char *game_id,
                         const engine_window *windows, int nwindows,
                         int clock_seconds, const int *window_seconds,
                         const char *rules);
/* Make turns_waiting match waiting (see store_append.waiting), provided
 * the game is still at version (a process holding an older copy changes
 * nothing); in records the ending waits as that field says (NULL: a load,
 * nothing recorded). */
int store_sync_waiting(PGconn *c, const char *game_id, const char *waiting,
                       const store_input *in, uint64_t version);
/* Deadlines per open window of a game: {window: due RFC 3339}. NEW. */
int store_load_deadlines(PGconn *c, const char *game_id, json_t **out);

/* The end of a game: its final state hash into final_hash[65] ("" when
 * none) and its result (*result NEW, NULL when none). */
int store_load_final(PGconn *c, const char *game_id, char *final_hash,
                     json_t **result);

/* A fresh random id (base32, 16 chars) into out[STORE_ID_MAX]. */
void store_new_id(char *out);

#endif

/*
 * spectate.h - the spectator delay: a game may show its spectators (every
 * caller without a seat in it) each version only once it is `versions`
 * versions old and `seconds` seconds old (a lobby option,
 * "spectator_delay"), the usual guard against ghosting: a player who
 * watches their own game as a spectator learns nothing the delay hides.
 *
 * The rule, for every path (the REST game, view and log, the export, the
 * WebSocket feed): version V of game m reaches spectators when
 *   (V <= live - versions, or the game is over) and
 *   (V = 0, or input V was recorded at least `seconds` ago),
 * and they see the highest such V. So once a game is over the versions
 * delay ends, while the seconds delay still holds its last versions back
 * for their time. Deadlines are not shown to delayed spectators.
 *
 * Threads: any; the functions use the caller's database connection.
 */
#ifndef CONCLAVE_SPECTATE_H
#define CONCLAVE_SPECTATE_H

#include "server/game/actor.h"
#include "server/store/db.h"
#include "server/store/store.h"

#include <libpq-fe.h>

#define SPECTATE_VERSIONS_MAX 1000
#define SPECTATE_SECONDS_MAX 86400

/* Whether m's spectators are held back at all (a delay is set). */
int spectate_delayed(const store_game *m);

/* The version m's spectators may see now, given the live version, into
 * *visible. STORE_OK or a STORE_E* code. */
int spectate_visible(PGconn *c, const store_game *m, uint64_t live,
                     uint64_t *visible);

/* Called for the version spectators may see (first) and, when asked, each
 * later one up to live, with the game at that version (v->meta says
 * "running" unless the game is over at v; v->deadlines is NULL) and how
 * many seconds ago the version was recorded (0 for version 0). Return 0 to
 * go on, anything else to stop. */
typedef int (*spectate_step_fn)(const actor_view *v, double age, void *ctx);

/* Rebuild m's game from the store (a snapshot, then inputs) at the visible
 * version and call step there; with all, also at every later version up to
 * live. live must be a committed version. SRV_OK; SRV_UNAVAILABLE (the
 * database); SRV_INTERNAL (the inputs do not replay, out of memory). */
srv_kind spectate_replay(PGconn *c, const store_game *m, uint64_t live, int all,
                         spectate_step_fn step, void *ctx);

/* spectate_replay at the visible version only, on a connection of db,
 * calling fn with the game as spectators may see it. */
srv_kind spectate_read(db_pool *db, const store_game *m, uint64_t live,
                       actor_read_fn fn, void *ctx);

/* The game m at version `at` (at most its committed version; the caller
 * decides who may see it), rebuilt on c from the latest snapshot up to it
 * and the inputs, handed to fn (v->deadlines NULL). For replays
 * (server/game/replay_view.h). SRV_OK; SRV_UNAVAILABLE; SRV_INTERNAL. */
srv_kind spectate_read_at(PGconn *c, const store_game *m, uint64_t at,
                          actor_read_fn fn, void *ctx);

#endif

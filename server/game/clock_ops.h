/*
 * clock_ops.h - changes to a running game's clock outside its inputs: the
 * host's one extension of a window's deadline, and giving the seat of a
 * player who missed K windows in a row (the clock rule "replace_after",
 * server/game/clock.h) to a bot, recorded in game_events (shown in the game's
 * log); and reading those events back.
 *
 * Threads: any. clock_extend and clock_events_get take their own
 * connection; clock_replace_missing uses the caller's (the actor worker's).
 */
#ifndef CONCLAVE_CLOCK_OPS_H
#define CONCLAVE_CLOCK_OPS_H

#include "common/errors.h"
#include "server/runtime/app.h"
#include "server/store/store.h"

#include <jansson.h>
#include <libpq-fe.h>
#include <stdint.h>

/* The host of game_id's lobby moves window's deadline `seconds` later
 * (0: the game's clock seconds; else 1..1209600, SRV_INVALID on
 * "seconds"), kept out of the night window; once per window. *out
 * {"game","window","deadline","extended":true} NEW. SRV_NOT_FOUND (no such
 * game, or no deadline for that window), SRV_FORBIDDEN (not the host),
 * SRV_CONFLICT (extended once already), SRV_UNAVAILABLE. */
srv_kind clock_extend(app *a, const char *game_id, const char *window,
                      const char *player_id, long long seconds, json_t **out,
                      srv_error *err);

/* After a timeout committed at version: give every seat of meta's game
 * whose player missed the last replace_after windows (0: never) to the
 * ruleset's default bot, in one transaction with its game_events rows.
 * Returns a mask of the seats replaced (meta's seat_bot, seat_player and
 * seat_name are updated to match; the caller holds what guards meta), 0
 * when none or on a failure (logged; retried at the next timeout). */
uint32_t clock_replace_missing(PGconn *c, store_game *meta, uint64_t version);

/* The game's events as the log shows them: [{"version","kind","seat",
 * "bot","missed","at"}], only those at versions up to upto (a decimal
 * version; NULL: all) and recorded at least min_age seconds ago: a
 * spectator under a spectator delay (server/game/spectate.h) is given the
 * version it may see and the delay's seconds, every seat NULL and 0. NEW,
 * or NULL on a database failure. */
json_t *clock_game_events(PGconn *c, const char *game_id, const char *upto,
                          int min_age);

/* clock_game_events on a connection of db (the REST log): *out NEW and
 * SRV_OK, or NULL and SRV_UNAVAILABLE (err filled). */
srv_kind clock_events_get(db_pool *db, const char *game_id, const char *upto,
                          int min_age, json_t **out, srv_error *err);

#endif

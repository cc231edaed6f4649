/*
 * rematch.h - the rematch of a finished game: one lobby per game, made by
 * whichever of its players asks first, with the game's ruleset, seats,
 * options (campaign options left out: the campaign page starts campaign
 * games), clock, spectator delay, privacy and its bots in their seats.
 * Every player of the game can then find it, with its invite code, so a
 * private game's rematch reaches the same people and no one else.
 *
 * "Players of the game" are the accounts seated in it (game_seats) when
 * they ask. The game's row in game_rematches (keyed by game) is written
 * with the lobby, so two players who ask at once get the same lobby.
 *
 * Threads: any; each call acquires its own connections from the app's pool.
 * Results are {"lobby": LOBBY (server/lobby/lobby.h's shape), "invite_code":
 * CODE|null, "created": BOOL}, NEW.
 */
#ifndef CONCLAVE_REMATCH_H
#define CONCLAVE_REMATCH_H

#include "common/errors.h"
#include "server/runtime/app.h"

#include <jansson.h>

/* The rematch lobby of game_id for player_id, made now (hosted by
 * player_id, in seat 0; "created": true) unless the game has one already.
 * SRV_NOT_FOUND for no such game, SRV_FORBIDDEN when player_id is not
 * seated in it, SRV_CONFLICT while it is still running; the lobby checks
 * of lobby_create otherwise (the host's quota of open lobbies...). */
srv_kind rematch_offer(app *a, const char *game_id, const char *player_id,
                       json_t **out, srv_error *err);

/* The rematch lobby of game_id, for one of its players: SRV_OK with *out
 * NULL when none was made yet (the page asks every few seconds: "none yet"
 * is an answer, not an error), SRV_NOT_FOUND for no such game,
 * SRV_FORBIDDEN for others. */
srv_kind rematch_find(app *a, const char *game_id, const char *player_id,
                      json_t **out, srv_error *err);

#endif

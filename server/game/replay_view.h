/*
 * replay_view.h - a game as it was at version K, for replays in the page
 * (GET /api/v1/games/{id}/replay?at=K): the document {"view","windows"} of
 * the caller's audience at that version, rebuilt from the stored inputs, so
 * each audience sees only what it could see then: a seat its own fog and
 * hand as they were, anyone else the public view. A seat may step through
 * its game up to now; anyone else only up to the version spectators may
 * see (the spectator delay, server/game/spectate.h), so a replay never
 * shows a spectator more than the live table would.
 *
 * Threads: any; acquires its own connection from db.
 */
#ifndef CONCLAVE_REPLAY_VIEW_H
#define CONCLAVE_REPLAY_VIEW_H

#include "common/errors.h"
#include "server/store/db.h"

#include <jansson.h>
#include <stdint.h>

/* {"game","version":K,"latest":N (the last version the caller may step
 * to),"you":SEAT|null,"view","windows"} of game_id at version at for
 * player_id (NULL: anonymous) into *out (NEW). SRV_NOT_FOUND for no such
 * game, or a version past latest (err says latest); SRV_UNAVAILABLE;
 * SRV_INTERNAL. */
srv_kind replay_view_at(db_pool *db, const char *game_id, const char *player_id,
                        uint64_t at, json_t **out, srv_error *err);

#endif

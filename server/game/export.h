/*
 * export.h - the export of a finished game: everything `conclave replay`
 * needs to verify it (seed, options, seats, every stored input with the
 * receipt of each sealed order, the final hash and the result).
 *
 * Read from the store, not from the actor: it is the stored inputs that
 * replay must verify.
 */
#ifndef CONCLAVE_EXPORT_H
#define CONCLAVE_EXPORT_H

#include "common/errors.h"
#include "server/store/db.h"

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

/* One page of the export document {"format":"conclave-export/1","game_id",
 * "ruleset","options","seats","seed","seed_sha256","inputs","final_hash",
 * "result"} of game_id into *out (NEW): only the inputs after seq `after`,
 * at most limit of them (0: all, the whole export), and "next_after" (the
 * last seq it holds) when more follow: ask again with after = next_after.
 * The pages' inputs together are the whole export's. SRV_OK;
 * SRV_NOT_FOUND; SRV_FORBIDDEN while the game is still running (the seed is
 * secret until the end), and for a viewer without a seat (viewer NULL:
 * anonymous) while the spectator delay still holds the game's last
 * versions back (server/game/spectate.h); SRV_UNAVAILABLE; SRV_INTERNAL
 * when out of memory. err is filled. */
srv_kind export_game_page(db_pool *db, const char *game_id, const char *viewer,
                          uint64_t after, size_t limit, json_t **out,
                          srv_error *err);

#endif

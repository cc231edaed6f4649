/*
 * gamedoc.h - what a client sees of a game: the one renderer of the game
 * document, used by the REST API (GET /api/v1/games/{id}) and by the
 * WebSocket hub (snapshots, and the documents it diffs into patches), so a
 * client may apply hub patches to a REST copy.
 *
 * The document for an audience (a seat, or ENGINE_PUBLIC) is
 * {"view": engine_view(game, audience),
 *  "windows": [{"id","mode":"sealed"|"open","seats":[...],"submitted":[...],
 *               "deadline":null|RFC 3339}]}
 * listing every open window (engine_windows_all: no cap). The REST game
 * resource is that document plus the game's facts (gamedoc_resource).
 *
 * Threads: call under actors_read (an actor_view is only valid there).
 * Every function returns a NEW reference, or NULL when out of memory.
 */
#ifndef CONCLAVE_GAMEDOC_H
#define CONCLAVE_GAMEDOC_H

#include "server/game/actor.h"

#include <jansson.h>

/* {"view","windows"} for audience (a seat, or ENGINE_PUBLIC). */
json_t *gamedoc_render(const actor_view *v, int audience);

/* The document's "windows" member alone: the same for every audience. */
json_t *gamedoc_windows(const actor_view *v);

/* The REST game resource for seat (-1: a spectator): the document for that
 * audience plus "id", "ruleset", "status", "version", "you" (seat or null),
 * "seats", "result" (null while running), "seed_sha256" and, once the game
 * is not running, "seed". */
json_t *gamedoc_resource(const actor_view *v, int seat);

/* The seats as the game resource and the export list them:
 * [{"seat","player":{"id","name"}|null,"bot":LEVEL|null}]. */
json_t *gamedoc_seats(const store_game *m);

/* The seat player_id holds in m, or -1 (also for NULL). */
int gamedoc_seat_of(const store_game *m, const char *player_id);

#endif

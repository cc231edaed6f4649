/*
 * records.h - per-player records kept across games (owns the
 * player_records table): one JSON record per player and ruleset, made by
 * the ruleset's record hook (engine_record_next) from the player's old
 * record and each finished game's result. The server knows nothing of what
 * a record holds; the Galactic Sprint campaign is one.
 *
 * Threads: any; each call uses the caller's connection.
 */
#ifndef CONCLAVE_RECORDS_H
#define CONCLAVE_RECORDS_H

#include "server/errors.h"

#include <jansson.h>
#include <libpq-fe.h>

/* Fold the finished game game_id (result: its engine_result) into the
 * records of its seated players, inside the caller's transaction (the one
 * that records the game's end, so a record never misses or repeats a
 * game). A ruleset without a record hook costs nothing. 0, or -1 on a
 * database failure (the caller rolls back). */
int records_game_finished(PGconn *c, const char *game_id, const json_t *result);

/* The records of player_id as GET /me shows them: an object with one member
 * per ruleset that keeps records, named by its record key, holding the
 * stored record or the hook's record for a player without games. NEW, or
 * NULL on a database failure. */
json_t *records_of_player(PGconn *c, const char *player_id);

/* Build the records of every ruleset that keeps them from the games that
 * finished before records were stored (before sql/002), once per ruleset
 * and database: the first process to start after the upgrade folds those
 * games in the order they ended, in one transaction that also marks the
 * ruleset done (record_backfills). Later calls cost one statement per
 * ruleset. 0, or -1 on a database failure (nothing is half done). */
int records_backfill(PGconn *c);

#endif

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

#include "common/errors.h"
#include "server/store/db.h"

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

/* A choice player_id makes in the record shown under GET /me's member key
 * (the Sprint campaign: which condition a game checks off), applied by the
 * ruleset's record_choose hook to the stored record in one transaction.
 * SRV_OK with the NEW record in *record; SRV_NOT_FOUND for a key no ruleset
 * keeps; SRV_CONFLICT when the record waits for no choice (or there is no
 * record yet); SRV_INVALID (field named) for a choice the ruleset refuses;
 * SRV_UNAVAILABLE when the database fails. Nothing changes on failure. */
srv_kind records_choose(db_pool *db, const char *player_id, const char *key,
                        const json_t *choice, json_t **record, srv_error *err);

#endif

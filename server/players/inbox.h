/*
 * inbox.h - a player's "your move" inbox: every window, over all their
 * running games (clocked or not), that waits on them (a sealed window
 * without their order, an open window where they may act, priority they
 * hold), read from the turns_waiting rows the store keeps in step with
 * each commit (one indexed join; no game is loaded); and who sits in a
 * game, for the hub's inbox feed to know whose list a commit may change.
 *
 * Threads: any; inbox_load uses the caller's connection, inbox_get one
 * of the pool's; parameters only.
 */
#ifndef CONCLAVE_INBOX_H
#define CONCLAVE_INBOX_H

#include "common/errors.h"
#include "server/store/db.h"
#include "server/store/store.h"

#include <jansson.h>
#include <libpq-fe.h>

/* At most this many windows are listed (the soonest deadlines first). */
#define INBOX_MAX 500

/* {"count":N,"turns":[{"game","ruleset","window","label" (the window's
 * step in words, engine_window_label),"seat","since",
 * "deadline":RFC 3339|null,"link":"/game/ID"}]}, soonest deadline first
 * (windows without one last, oldest first). NEW, or NULL on a database
 * failure. */
json_t *inbox_load(PGconn *c, const char *player_id);

/* inbox_load on a connection of db (GET /me/turns): *out NEW and SRV_OK,
 * or NULL and SRV_UNAVAILABLE (err filled). */
srv_kind inbox_get(db_pool *db, const char *player_id, json_t **out,
                   srv_error *err);

/* The players seated in game_id (distinct, bots left out) into players,
 * at most max: how many, or -1 on a database failure. The hub's inbox
 * feed asks it for whom a commit may have changed the inbox. */
int inbox_game_players(PGconn *c, const char *game_id,
                       char (*players)[STORE_ID_MAX], int max);

#endif

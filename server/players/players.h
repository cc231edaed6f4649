/*
 * players.h - players: sign-up (a guest, or with a password), sign-in, and
 * what a player sees of their own things (GET /me). Owns the players table;
 * tokens are server/players/tokens.h's, lobbies server/lobby/lobby.h's, records
 * server/players/records.h's.
 *
 * Passwords are hashed with scrypt (N=16384, r=8, p=1, 32-byte key) and a
 * random 16-byte salt per player, and compared in constant time. A sign-in
 * for an unknown name or a guest still runs scrypt once, so the answer's
 * timing does not tell which names exist.
 *
 * Threads: any; each function acquires its own connection from db. Every
 * function returns SRV_OK or a failure kind with err filled (detail for the
 * player, field when an input is at fault).
 */
#ifndef CONCLAVE_PLAYERS_H
#define CONCLAVE_PLAYERS_H

#include "common/errors.h"
#include "server/players/tokens.h"
#include "server/store/db.h"
#include "server/store/store.h"

#include <jansson.h>

/* Create a player named name (3 to 24 of A-Z a-z 0-9 _ -) with password
 * (8 to 256 bytes; NULL for a guest) and a first token. Fills
 * id[STORE_ID_MAX] and token[TOKENS_CHARS + 1]. SRV_INVALID (field "name"
 * or "password"), SRV_CONFLICT when the name is taken (field "name"),
 * SRV_UNAVAILABLE, SRV_INTERNAL. */
srv_kind players_create(db_pool *db, const char *name, const char *password,
                        char *id, char *token, srv_error *err);

/* Sign in with a name (any case) and password: a new token into
 * token[TOKENS_CHARS + 1]. SRV_UNAUTHORIZED when the name or the password
 * is wrong or the player is a guest; SRV_UNAVAILABLE; SRV_INTERNAL. */
srv_kind players_sign_in(db_pool *db, const char *name, const char *password,
                         char *token, srv_error *err);

/* Secure a guest's account: give player_id (which has no password) the
 * password (8 to 256 bytes), so it can sign in by name and password on
 * another device. SRV_INVALID (field "password"), SRV_CONFLICT when the
 * player already has a password, SRV_UNAVAILABLE, SRV_INTERNAL. */
srv_kind players_set_password(db_pool *db, const char *player_id,
                              const char *password, srv_error *err);

/* What player_id (named name) sees of their own things, into *out (NEW):
 * {"id","name","guest" (no password
 * yet),"games":[{"id","ruleset","status","seat"}] (newest first, at most
 * 100),"lobbies":[lobby] (open ones they sit in, newest first, at most 100)}
 * plus one member per ruleset that keeps per-player records
 * (records_of_player). SRV_UNAVAILABLE; SRV_INTERNAL. */
srv_kind players_me(db_pool *db, const char *player_id, const char *name,
                    json_t **out, srv_error *err);

#endif

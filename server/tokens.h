/*
 * tokens.h - bearer tokens: issuing, resolving and revoking them. Owns the
 * tokens table. Both edges use it: the HTTP edge for the Authorization
 * header, the WebSocket hub for {"type":"auth"}.
 *
 * Tokens are 256 random bits from the OS, base64url-encoded; the database
 * stores only their SHA-256, so a database leak reveals no usable token.
 * Resolved tokens are remembered for TOKENS_CACHE_SECONDS, so a client's
 * stream of requests costs one lookup per that time instead of one per
 * request; revoking forgets the token here at once (another process sharing
 * the database may honour it for up to that long).
 *
 * Threads: any. Functions taking a db_pool acquire (and release) their own
 * connection; those taking a PGconn run inside the caller's transaction.
 */
#ifndef CONCLAVE_TOKENS_H
#define CONCLAVE_TOKENS_H

#include "server/db.h"
#include "server/errors.h"

#include <stddef.h>

#define TOKENS_CHARS 43 /* base64url of 32 bytes, no padding */
#define TOKENS_CACHE_SECONDS 2.0

/* Issue a new token for player_id on c (inside the caller's transaction,
 * if any) into token[TOKENS_CHARS + 1]. SRV_OK, SRV_UNAVAILABLE (database)
 * or SRV_INTERNAL (no randomness from the OS). */
srv_kind tokens_issue(PGconn *c, const char *player_id, char *token);

/* The player a presented token belongs to: SRV_OK with player_id (idlen
 * bytes) and, when name is not NULL, the player's name (namelen bytes);
 * SRV_UNAUTHORIZED when the token is malformed, unknown or revoked;
 * SRV_UNAVAILABLE when the database cannot be reached. */
srv_kind tokens_lookup(db_pool *db, const char *token, char *player_id,
                       size_t idlen, char *name, size_t namelen);

/* Revoke a presented token (an unknown or already revoked one is fine):
 * SRV_OK or SRV_UNAVAILABLE. */
srv_kind tokens_revoke(db_pool *db, const char *token);

#endif

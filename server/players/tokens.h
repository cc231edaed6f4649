/*
 * tokens.h - bearer tokens: issuing, resolving and revoking them. Owns the
 * tokens table. Both edges use it: the HTTP edge for the Authorization
 * header, the WebSocket hub for {"type":"auth"}.
 *
 * Tokens are 256 random bits from the OS, base64url-encoded; the database
 * stores only their SHA-256, so a database leak reveals no usable token.
 * Resolved tokens are remembered for TOKENS_CACHE_SECONDS, so a client's
 * stream of requests costs one lookup per that time instead of one per
 * request. Tokens the database does not know are remembered as failed for
 * TOKENS_MISS_SECONDS (a bounded table), so repeating one costs no lookup.
 * Revoking forgets the token here at once, remembers it as revoked (so a
 * lookup racing the revocation cannot cache it again), tells the listener
 * set with tokens_on_revoke (the WebSocket hub, which ends the seat access
 * of the sockets that used it) and, by NOTIFY on TOKENS_CHANNEL, every
 * other process sharing the database (tokens_revoked_elsewhere). Each
 * lookup that reaches the database also refreshes players.last_seen (see
 * tokens_seen_every).
 *
 * Threads: any. Functions taking a db_pool acquire (and release) their own
 * connection; those taking a PGconn run inside the caller's transaction.
 */
#ifndef CONCLAVE_TOKENS_H
#define CONCLAVE_TOKENS_H

#include "common/errors.h"
#include "server/store/db.h"

#include <stddef.h>

#define TOKENS_CHARS 43 /* base64url of 32 bytes, no padding */
#define TOKENS_CACHE_SECONDS 2.0
#define TOKENS_MISS_SECONDS 60.0
#define TOKENS_REVOKED_SECONDS 60.0
#define TOKENS_HASH_HEX 65 /* SHA-256 in hex, with the NUL */
#define TOKENS_CHANNEL "conclave_tokens"
#define TOKENS_SEEN_SECONDS                                                    \
    30 /* players.last_seen refreshed at most so often */

/* Told the hash (TOKENS_HASH_HEX) of each token revoked here or elsewhere.
 * Called from the revoking thread (an HTTP thread, the LISTEN thread) with
 * no tokens lock held; must not block for long. */
typedef void (*tokens_revoke_fn)(void *ctx, const char *hash_hex);

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

/* Each database lookup of a token also marks its player as seen now
 * (players.last_seen), unless that was done in the last `seconds`
 * (TOKENS_SEEN_SECONDS until set; below 1 counts as 1). The serve command
 * sets it from the idle-seat time, so that a player who keeps making
 * requests never looks idle. */
void tokens_seen_every(int seconds);

/* Revoke a presented token (an unknown or already revoked one is fine):
 * SRV_OK or SRV_UNAVAILABLE. */
srv_kind tokens_revoke(db_pool *db, const char *token);

/* Set (or, with NULL, clear) the revocation listener. One per process. */
void tokens_on_revoke(tokens_revoke_fn fn, void *ctx);

/* The SHA-256 hex of a presented token into hash_hex[TOKENS_HASH_HEX]: the
 * key the database, the caches and the revocation listener use. */
void tokens_hash(const char *token, char *hash_hex);

/* Whether a token hash was revoked (here, or elsewhere and notified) in the
 * last TOKENS_REVOKED_SECONDS. */
int tokens_hash_revoked(const char *hash_hex);

/* Another process revoked the token with this hash (the NOTIFY payload;
 * anything that is not a SHA-256 hex is ignored): forget it here and tell
 * the revocation listener. */
void tokens_revoked_elsewhere(const char *hash_hex);

#endif

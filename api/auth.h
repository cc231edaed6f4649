/*
 * auth.h - bearer tokens: issuing, hashing, resolving a request's caller.
 *
 * Tokens are 256 random bits from the OS, base64url-encoded; the database
 * stores only their SHA-256, so a database leak reveals no usable token.
 */
#ifndef CONCLAVE_AUTH_H
#define CONCLAVE_AUTH_H

#include "api/api.h"

#include <libpq-fe.h>
#include <stddef.h>

#define AUTH_TOKEN_CHARS 43 /* base64url of 32 bytes, no padding */

/* Resolve the Authorization header for req's route. Returns 0 when the
 * request may proceed (req->authenticated says whether a player is known);
 * otherwise fills res (401, or 503 when the database is down) and returns -1. */
int api_authenticate(api_request *req, api_response *res);

/* A fresh token into out[AUTH_TOKEN_CHARS + 1] and its SHA-256 in hex into
 * hash_hex[65]. Returns 0, or -1 if the OS random source fails. */
int auth_new_token(char *out, char *hash_hex);
/* Forget a token (by its SHA-256 hex) in this process's short-lived token
 * cache: call it when the token is revoked. */
void auth_forget(const char *hash_hex);
/* SHA-256 hex of a presented token. */
void auth_token_hash(const char *token, char *hash_hex);

/* The player a bearer token belongs to, on the caller's connection c (any
 * thread; the WebSocket hub uses it for {"type":"auth"}). Returns 0 and
 * fills player_id (idlen bytes) and, when name is not NULL, name (namelen
 * bytes); 1 when the token is unknown or revoked; -1 on a database failure
 * (db_conn_broken(c) then says whether the connection itself failed). */
int auth_lookup(PGconn *c, const char *token, char *player_id, size_t idlen,
                char *name, size_t namelen);

#endif

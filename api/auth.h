/*
 * auth.h - resolving a request's caller from its Authorization header.
 * Tokens themselves (issue, lookup, revocation) are server/players/tokens.h's.
 */
#ifndef CONCLAVE_AUTH_H
#define CONCLAVE_AUTH_H

#include "api/api.h"

/* Resolve the Authorization header for req's route. Returns 0 when the
 * request may proceed (req->authenticated says whether a player is known);
 * otherwise fills res (401, or 503 when the database is down) and returns -1.
 */
int api_authenticate(api_request *req, api_response *res);

/* The bearer token of req's Authorization header, or NULL when there is
 * none of the right form. Points into the request's headers. */
const char *api_bearer_token(const api_request *req);

#endif

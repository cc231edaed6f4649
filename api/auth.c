/*
 * auth.c - bearer token issue and lookup (see auth.h).
 */
#include "api/auth.h"

#include "engine/engine.h"

#include <microhttpd.h>
#include <openssl/rand.h>
#include <string.h>

static const char b64url[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

int auth_new_token(char *out, char *hash_hex)
{
    unsigned char raw[33];
    if (RAND_bytes(raw, 32) != 1)
        return -1;
    raw[32] = 0;
    int o = 0;
    for (int i = 0; i < 33; i += 3) {
        unsigned v = (unsigned)raw[i] << 16 | (unsigned)raw[i + 1] << 8 |
                     raw[i + 2];
        for (int k = 0; k < 4 && o < AUTH_TOKEN_CHARS; k++)
            out[o++] = b64url[(v >> (18 - 6 * k)) & 63];
    }
    out[AUTH_TOKEN_CHARS] = '\0';
    auth_token_hash(out, hash_hex);
    return 0;
}

void auth_token_hash(const char *token, char *hash_hex)
{
    uint8_t h[ENGINE_HASH_BYTES];
    engine_sha256(token, strlen(token), h);
    engine_hex(h, sizeof h, hash_hex);
}

int api_authenticate(api_request *req, api_response *res)
{
    const char *h = MHD_lookup_connection_value(
        req->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
    req->authenticated = 0;
    if (!h) {
        if (req->route->auth == API_AUTH_REQUIRED) {
            api_problem(res, 401,
                        "send Authorization: Bearer <token> (create a player "
                        "or a session to get one)",
                        NULL);
            return -1;
        }
        return 0;
    }
    if (strncmp(h, "Bearer ", 7) != 0 || strlen(h + 7) != AUTH_TOKEN_CHARS) {
        api_problem(res, 401, "the Authorization header is not a valid "
                              "bearer token", NULL);
        return -1;
    }
    char hash[2 * ENGINE_HASH_BYTES + 1];
    auth_token_hash(h + 7, hash);
    PGconn *c = db_acquire(req->app->db, 2000);
    if (!c) {
        api_problem(res, 503, "the database is unreachable; retry shortly",
                    NULL);
        res->retry_after = 1;
        return -1;
    }
    const char *params[] = {hash};
    PGresult *r = PQexecParams(
        c,
        "SELECT p.id, p.name FROM tokens t JOIN players p ON p.id = "
        "t.player_id WHERE t.token_hash = decode($1, 'hex') AND "
        "t.revoked_at IS NULL",
        1, NULL, params, NULL, NULL, 0);
    int status = PQresultStatus(r);
    int found = status == PGRES_TUPLES_OK && PQntuples(r) == 1;
    if (found) {
        snprintf(req->player_id, sizeof req->player_id, "%s",
                 PQgetvalue(r, 0, 0));
        snprintf(req->player_name, sizeof req->player_name, "%s",
                 PQgetvalue(r, 0, 1));
        req->authenticated = 1;
    }
    PQclear(r);
    db_release(req->app->db, c, status != PGRES_TUPLES_OK);
    if (status != PGRES_TUPLES_OK) {
        api_problem(res, 503, "the database is unreachable; retry shortly",
                    NULL);
        res->retry_after = 1;
        return -1;
    }
    if (!found) {
        api_problem(res, 401, "the token is unknown or was revoked; sign in "
                              "again", NULL);
        return -1;
    }
    return 0;
}

int auth_lookup(PGconn *c, const char *token, char *player_id, size_t idlen,
                char *name, size_t namelen)
{
    char hash[2 * ENGINE_HASH_BYTES + 1];
    auth_token_hash(token, hash);
    const char *params[] = {hash};
    PGresult *r = PQexecParams(
        c,
        "SELECT p.id, p.name FROM tokens t JOIN players p ON p.id = "
        "t.player_id WHERE t.token_hash = decode($1, 'hex') AND "
        "t.revoked_at IS NULL",
        1, NULL, params, NULL, NULL, 0);
    int rc = -1;
    if (PQresultStatus(r) == PGRES_TUPLES_OK) {
        rc = PQntuples(r) == 1 ? 0 : 1;
        if (rc == 0) {
            snprintf(player_id, idlen, "%s", PQgetvalue(r, 0, 0));
            if (name)
                snprintf(name, namelen, "%s", PQgetvalue(r, 0, 1));
        }
    }
    PQclear(r);
    return rc;
}

/*
 * auth.c - bearer token issue and lookup (see auth.h).
 */
#include "api/auth.h"

#include "engine/engine.h"

#include <microhttpd.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
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

/* A short-lived memory of resolved tokens, so a client's stream of
 * requests costs one database lookup every CACHE_TTL seconds instead of one
 * per request. Only found tokens are remembered. Revoking a token forgets it
 * here at once; another process sharing the database may honour a revoked
 * token for up to CACHE_TTL seconds. Slots are chosen by the token hash. */
#define CACHE_SLOTS 4096
#define CACHE_TTL 2.0

typedef struct cached {
    char hash[2 * ENGINE_HASH_BYTES + 1];
    char player_id[64];
    char name[32];
    double expires;
} cached;

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER; /* cache */
static cached cache[CACHE_SLOTS];

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static cached *slot_of(const char *hash)
{
    unsigned long v = 0;
    for (int i = 0; i < 8; i++) /* the first 32 bits of the hash */
        v = v << 4 | (unsigned long)(hash[i] <= '9' ? hash[i] - '0'
                                                    : hash[i] - 'a' + 10);
    return &cache[v % CACHE_SLOTS];
}

static int cache_get(const char *hash, char *id, size_t idlen, char *name,
                     size_t namelen)
{
    pthread_mutex_lock(&cache_lock);
    const cached *c = slot_of(hash);
    int hit = c->expires > now_s() && strcmp(c->hash, hash) == 0;
    if (hit) {
        snprintf(id, idlen, "%s", c->player_id);
        if (name)
            snprintf(name, namelen, "%s", c->name);
    }
    pthread_mutex_unlock(&cache_lock);
    return hit;
}

static void cache_put(const char *hash, const char *id, const char *name)
{
    pthread_mutex_lock(&cache_lock);
    cached *c = slot_of(hash);
    snprintf(c->hash, sizeof c->hash, "%s", hash);
    snprintf(c->player_id, sizeof c->player_id, "%s", id);
    snprintf(c->name, sizeof c->name, "%s", name);
    c->expires = now_s() + CACHE_TTL;
    pthread_mutex_unlock(&cache_lock);
}

void auth_forget(const char *hash_hex)
{
    pthread_mutex_lock(&cache_lock);
    cached *c = slot_of(hash_hex);
    if (strcmp(c->hash, hash_hex) == 0)
        c->expires = 0;
    pthread_mutex_unlock(&cache_lock);
}

/* Resolve a token hash in the database: 0 found, 1 unknown, -1 failure. */
static int lookup_hash(PGconn *c, const char *hash, char *player_id,
                       size_t idlen, char *name, size_t namelen)
{
    if (cache_get(hash, player_id, idlen, name, namelen))
        return 0;
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
            cache_put(hash, PQgetvalue(r, 0, 0), PQgetvalue(r, 0, 1));
        }
    }
    PQclear(r);
    return rc;
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
    int rc = 1;
    if (cache_get(hash, req->player_id, sizeof req->player_id,
                  req->player_name, sizeof req->player_name)) {
        rc = 0;
    } else {
        PGconn *c = db_acquire(req->app->db, 2000);
        if (c) {
            rc = lookup_hash(c, hash, req->player_id, sizeof req->player_id,
                             req->player_name, sizeof req->player_name);
            db_release(req->app->db, c, rc < 0 && db_conn_broken(c));
        } else {
            rc = -1;
        }
    }
    if (rc < 0) {
        api_problem(res, 503, "the database is unreachable; retry shortly",
                    NULL);
        res->retry_after = 1;
        return -1;
    }
    if (rc > 0) {
        api_problem(res, 401, "the token is unknown or was revoked; sign in "
                              "again", NULL);
        return -1;
    }
    req->authenticated = 1;
    return 0;
}

int auth_lookup(PGconn *c, const char *token, char *player_id, size_t idlen,
                char *name, size_t namelen)
{
    char hash[2 * ENGINE_HASH_BYTES + 1];
    auth_token_hash(token, hash);
    return lookup_hash(c, hash, player_id, idlen, name, namelen);
}

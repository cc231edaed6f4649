/*
 * tokens.c - bearer token issue, lookup with a short-lived cache, and
 * revocation (see tokens.h).
 */
#include "server/players/tokens.h"

#include "engine/engine.h"
#include "server/runtime/metrics.h"

#include <openssl/rand.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define DB_WAIT_MS 2000
#define HASH_HEX (2 * ENGINE_HASH_BYTES + 1)

static const char b64url[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/* SHA-256 hex of a presented token. */
static void token_hash(const char *token, char *hash_hex)
{
    uint8_t h[ENGINE_HASH_BYTES];
    engine_sha256(token, strlen(token), h);
    engine_hex(h, sizeof h, hash_hex);
}

/* A fresh token and its hash. 0, or -1 if the OS random source fails. */
static int token_new(char *out, char *hash_hex)
{
    unsigned char raw[33];
    if (RAND_bytes(raw, 32) != 1)
        return -1;
    raw[32] = 0;
    int o = 0;
    for (int i = 0; i < 33; i += 3) {
        unsigned v =
            (unsigned)raw[i] << 16 | (unsigned)raw[i + 1] << 8 | raw[i + 2];
        for (int k = 0; k < 4 && o < TOKENS_CHARS; k++)
            out[o++] = b64url[(v >> (18 - 6 * k)) & 63];
    }
    out[TOKENS_CHARS] = '\0';
    token_hash(out, hash_hex);
    return 0;
}

/* ------------------------------------------------------------- cache -- */

/* Found tokens are remembered for TOKENS_CACHE_SECONDS; slots are chosen by
 * the token hash. Two bounded negative tables sit beside it: tokens the
 * database did not know (so a client repeating one costs no lookup) and
 * tokens revoked here or, by NOTIFY, elsewhere (so a lookup racing a
 * revocation cannot put the token back into the positive cache). */
#define CACHE_SLOTS 4096
#define MISS_SLOTS 4096
#define REVOKED_SLOTS 1024

typedef struct cached {
    char hash[HASH_HEX];
    char player_id[64];
    char name[32];
    double expires;
} cached;

typedef struct marked {
    char hash[HASH_HEX];
    double expires;
} marked;

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER; /* all */
static cached cache[CACHE_SLOTS];
static marked misses[MISS_SLOTS];
static marked revoked[REVOKED_SLOTS];
static tokens_revoke_fn revoke_fn; /* cache_lock */
static atomic_int seen_every = TOKENS_SEEN_SECONDS;
static void *revoke_ctx; /* cache_lock */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The first 32 bits of a hash, as a slot number below n. */
static unsigned long slot_no(const char *hash, unsigned long n)
{
    unsigned long v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 4 | (unsigned long)(hash[i] <= '9' ? hash[i] - '0'
                                                    : hash[i] - 'a' + 10);
    return v % n;
}

static cached *slot_of(const char *hash)
{
    return &cache[slot_no(hash, CACHE_SLOTS)];
}

/* Under cache_lock. */
static int marked_has(const marked *table, unsigned long n, const char *hash)
{
    const marked *m = &table[slot_no(hash, n)];
    return m->expires > now_s() && strcmp(m->hash, hash) == 0;
}

/* Under cache_lock. */
static void marked_put(marked *table, unsigned long n, const char *hash,
                       double seconds)
{
    marked *m = &table[slot_no(hash, n)];
    snprintf(m->hash, sizeof m->hash, "%s", hash);
    m->expires = now_s() + seconds;
}

/* 1 with id and name filled on a positive hit; -1 when the token is known
 * to fail (unknown or revoked); 0 when the database must say. */
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
    } else if (marked_has(revoked, REVOKED_SLOTS, hash) ||
               marked_has(misses, MISS_SLOTS, hash)) {
        hit = -1;
    }
    pthread_mutex_unlock(&cache_lock);
    return hit;
}

static void cache_put(const char *hash, const char *id, const char *name)
{
    pthread_mutex_lock(&cache_lock);
    if (!marked_has(revoked, REVOKED_SLOTS, hash)) {
        cached *c = slot_of(hash);
        snprintf(c->hash, sizeof c->hash, "%s", hash);
        snprintf(c->player_id, sizeof c->player_id, "%s", id);
        snprintf(c->name, sizeof c->name, "%s", name);
        c->expires = now_s() + TOKENS_CACHE_SECONDS;
    }
    pthread_mutex_unlock(&cache_lock);
}

static void cache_miss(const char *hash)
{
    pthread_mutex_lock(&cache_lock);
    marked_put(misses, MISS_SLOTS, hash, TOKENS_MISS_SECONDS);
    pthread_mutex_unlock(&cache_lock);
}

/* Forget hash, remember it as revoked, and tell the revocation listener
 * (outside the lock). */
static void cache_revoke(const char *hash)
{
    pthread_mutex_lock(&cache_lock);
    cached *c = slot_of(hash);
    if (strcmp(c->hash, hash) == 0)
        c->expires = 0;
    marked_put(revoked, REVOKED_SLOTS, hash, TOKENS_REVOKED_SECONDS);
    tokens_revoke_fn fn = revoke_fn;
    void *ctx = revoke_ctx;
    pthread_mutex_unlock(&cache_lock);
    if (fn)
        fn(ctx, hash);
}

void tokens_on_revoke(tokens_revoke_fn fn, void *ctx)
{
    pthread_mutex_lock(&cache_lock);
    revoke_fn = fn;
    revoke_ctx = ctx;
    pthread_mutex_unlock(&cache_lock);
}

void tokens_seen_every(int seconds)
{
    atomic_store(&seen_every, seconds < 1 ? 1 : seconds);
}

void tokens_hash(const char *token, char *hash_hex)
{
    token_hash(token, hash_hex);
}

int tokens_hash_revoked(const char *hash_hex)
{
    pthread_mutex_lock(&cache_lock);
    int r = marked_has(revoked, REVOKED_SLOTS, hash_hex);
    pthread_mutex_unlock(&cache_lock);
    return r;
}

void tokens_revoked_elsewhere(const char *hash_hex)
{
    size_t n = strlen(hash_hex);
    if (n != HASH_HEX - 1 || strspn(hash_hex, "0123456789abcdef") != n)
        return;
    cache_revoke(hash_hex);
}

/* --------------------------------------------------------- functions -- */

srv_kind tokens_issue(PGconn *c, const char *player_id, char *token)
{
    char hash[HASH_HEX];
    if (token_new(token, hash) != 0)
        return SRV_INTERNAL;
    const char *p[] = {hash, player_id};
    PGresult *r = db_exec(c, PGRES_COMMAND_OK,
                          "INSERT INTO tokens (token_hash, player_id) VALUES "
                          "(decode($1, 'hex'), $2)",
                          2, p);
    if (!r)
        return SRV_UNAVAILABLE;
    PQclear(r);
    return SRV_OK;
}

/* Resolve a hash in the database: SRV_OK, SRV_UNAUTHORIZED or
 * SRV_UNAVAILABLE. */
static srv_kind lookup_db(db_pool *db, const char *hash, char *player_id,
                          size_t idlen, char *name, size_t namelen)
{
    metrics_count("conclave_token_lookups_total",
                  "Bearer tokens looked up in the database.", 1);
    PGconn *c = db_acquire(db, DB_WAIT_MS);
    if (!c)
        return SRV_UNAVAILABLE;
    char every[16];
    snprintf(every, sizeof every, "%d", atomic_load(&seen_every));
    const char *params[] = {hash, every};
    /* The player is seen now (players.last_seen, for the idle-seat sweep),
     * written at most once per seen_every seconds. */
    PGresult *r = db_query(
        c,
        "WITH f AS (SELECT p.id, p.name FROM tokens t JOIN players p ON "
        "p.id = t.player_id WHERE t.token_hash = decode($1, 'hex') AND "
        "t.revoked_at IS NULL), "
        "s AS (UPDATE players SET last_seen = now() WHERE id IN (SELECT id "
        "FROM f) AND last_seen < now() - make_interval(secs => "
        "$2::integer)) SELECT id, name FROM f",
        2, NULL, params, NULL, NULL, 0);
    srv_kind k = SRV_UNAVAILABLE;
    if (PQresultStatus(r) == PGRES_TUPLES_OK) {
        k = PQntuples(r) == 1 ? SRV_OK : SRV_UNAUTHORIZED;
        if (k == SRV_OK) {
            snprintf(player_id, idlen, "%s", PQgetvalue(r, 0, 0));
            if (name)
                snprintf(name, namelen, "%s", PQgetvalue(r, 0, 1));
            cache_put(hash, PQgetvalue(r, 0, 0), PQgetvalue(r, 0, 1));
        } else {
            cache_miss(hash);
        }
    }
    PQclear(r);
    db_release(db, c, k == SRV_UNAVAILABLE && db_conn_broken(c));
    return k;
}

srv_kind tokens_lookup(db_pool *db, const char *token, char *player_id,
                       size_t idlen, char *name, size_t namelen)
{
    if (!token || strlen(token) != TOKENS_CHARS)
        return SRV_UNAUTHORIZED;
    char hash[HASH_HEX];
    token_hash(token, hash);
    int hit = cache_get(hash, player_id, idlen, name, namelen);
    if (hit)
        return hit > 0 ? SRV_OK : SRV_UNAUTHORIZED;
    return lookup_db(db, hash, player_id, idlen, name, namelen);
}

srv_kind tokens_revoke(db_pool *db, const char *token)
{
    char hash[HASH_HEX];
    token_hash(token, hash);
    /* Here at once (the cache, and the live sockets through the listener),
     * before the database: a lookup racing this one cannot cache it again. */
    cache_revoke(hash);
    PGconn *c = db_acquire(db, DB_WAIT_MS);
    if (!c)
        return SRV_UNAVAILABLE;
    const char *p[] = {hash};
    /* Other processes learn it from the notification (LISTEN
     * conclave_tokens, server/store/listener.c), sent when this commits. */
    PGresult *r = db_exec(c, PGRES_TUPLES_OK,
                          "WITH r AS (UPDATE tokens SET revoked_at = now() "
                          "WHERE token_hash = decode($1, 'hex') AND "
                          "revoked_at IS NULL RETURNING 1) "
                          "SELECT pg_notify('" TOKENS_CHANNEL "', $1)",
                          1, p);
    srv_kind k = r ? SRV_OK : SRV_UNAVAILABLE;
    PQclear(r);
    db_release(db, c, !r && db_conn_broken(c));
    return k;
}

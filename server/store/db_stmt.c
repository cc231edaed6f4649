/*
 * db_stmt.c - each connection's prepared statements (see db_stmt.h).
 *
 * The cache is an open-addressed table of statement texts (FNV-1a hash,
 * linear probing, never shrunk): a text once seen keeps its slot, and its
 * state says whether the backend has it prepared (READY), has its Parse in
 * a pipeline not yet read (QUEUED) or not (NONE: not yet, or its last
 * Parse failed). Every Parse takes a new name (s1, s2, ...), so a Parse
 * whose outcome was lost never collides with a later one.
 */
#include "server/store/db_stmt.h"

#include "server/runtime/log.h"

#include <libpq-events.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STMT_SLOTS 512 /* a power of two */
#define STMT_MAX 256   /* texts prepared per connection at most */

enum { STMT_NONE, STMT_QUEUED, STMT_READY };

typedef struct stmt {
    char *sql; /* owned; NULL: a free slot */
    uint64_t hash;
    unsigned id; /* the name of its last Parse: "s<id>" */
    int state;
} stmt;

typedef struct stmt_cache {
    stmt slots[STMT_SLOTS];
    int count;
    unsigned next_id;
    int queued[STMT_MAX]; /* slots whose Parse is in the pipeline, in order */
    int nqueued;
} stmt_cache;

static void cache_clear(stmt_cache *sc)
{
    if (!sc)
        return;
    for (int i = 0; i < STMT_SLOTS; i++)
        free(sc->slots[i].sql);
    memset(sc, 0, sizeof *sc);
}

/* libpq's event procedure: the cache is born, reset and freed with its
 * connection. Returns 1 (success) for every event. */
static int stmt_events(PGEventId evt, void *info, void *pass)
{
    (void)pass;
    switch (evt) {
    case PGEVT_REGISTER: {
        PGEventRegister *e = info;
        stmt_cache *sc = calloc(1, sizeof *sc);
        return sc && PQsetInstanceData(e->conn, stmt_events, sc);
    }
    case PGEVT_CONNRESET: {
        PGEventConnReset *e = info;
        cache_clear(PQinstanceData(e->conn, stmt_events));
        return 1;
    }
    case PGEVT_CONNDESTROY: {
        PGEventConnDestroy *e = info;
        stmt_cache *sc = PQinstanceData(e->conn, stmt_events);
        cache_clear(sc);
        free(sc);
        return 1;
    }
    default:
        return 1;
    }
}

static atomic_int enabled = 1;

void db_stmt_enable(int on)
{
    atomic_store(&enabled, on);
}

int db_stmt_attach(PGconn *c)
{
    if (!atomic_load(&enabled))
        return 0;
    return PQregisterEventProc(c, stmt_events, "conclave_stmts", NULL) ? 0 : -1;
}

static uint64_t fnv1a(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

/* sql's entry; added (state NONE) when add is set and there is room.
 * NULL: not there, or no room. */
static stmt *cache_entry(stmt_cache *sc, const char *sql, int add)
{
    uint64_t h = fnv1a(sql);
    for (unsigned i = (unsigned)h & (STMT_SLOTS - 1);;
         i = (i + 1) & (STMT_SLOTS - 1)) {
        stmt *s = &sc->slots[i];
        if (s->sql && s->hash == h && strcmp(s->sql, sql) == 0)
            return s;
        if (s->sql)
            continue;
        if (!add || sc->count >= STMT_MAX)
            return NULL;
        s->sql = strdup(sql);
        if (!s->sql)
            return NULL;
        s->hash = h;
        s->state = STMT_NONE;
        sc->count++;
        return s;
    }
}

static stmt_cache *cache_of(PGconn *c)
{
    return c ? PQinstanceData(c, stmt_events) : NULL;
}

static void stmt_name(const stmt *s, char name[16])
{
    snprintf(name, 16, "s%u", s->id);
}

/* The first result of the pipeline's next command, the rest of its
 * results read and dropped; NULL when it has none (a broken connection). */
static PGresult *take_one(PGconn *c)
{
    PGresult *first = PQgetResult(c);
    if (!first)
        return NULL;
    for (PGresult *r; (r = PQgetResult(c)) != NULL;)
        PQclear(r);
    return first;
}

static void log_parse_failure(const PGresult *r)
{
    const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    const char *msg = PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY);
    log_warn("db_prepare_failed",
             json_pack("{ss ss}", "sqlstate", state ? state : "", "error",
                       msg ? msg : "connection failure"));
}

/* Parse s under a new name and execute it, one round trip (a pipeline). */
static PGresult *parse_and_exec(PGconn *c, stmt_cache *sc, stmt *s, int nparams,
                                const char *const *values, const int *lengths,
                                const int *formats, int result_format)
{
    if (!PQenterPipelineMode(c))
        return PQexecParams(c, s->sql, nparams, NULL, values, lengths, formats,
                            result_format);
    char name[16];
    s->id = ++sc->next_id;
    stmt_name(s, name);
    PGresult *parse = NULL, *res = NULL;
    if (PQsendPrepare(c, name, s->sql, nparams, NULL) &&
        PQsendQueryPrepared(c, name, nparams, values, lengths, formats,
                            result_format) &&
        PQpipelineSync(c)) {
        parse = take_one(c);
        res = parse ? take_one(c) : NULL;
        PGresult *sync = res ? PQgetResult(c) : NULL;
        if (sync && PQresultStatus(sync) != PGRES_PIPELINE_SYNC) {
            PQclear(res); /* out of step: the connection is not usable */
            res = NULL;
        }
        PQclear(sync);
    }
    PQexitPipelineMode(c); /* fails with results pending: db_conn_broken */
    if (parse && PQresultStatus(parse) == PGRES_COMMAND_OK) {
        s->state = STMT_READY;
        PQclear(parse);
        return res;
    }
    s->state = STMT_NONE;
    PQclear(res);
    return parse; /* its error, or NULL when the connection broke */
}

PGresult *db_stmt_exec(PGconn *c, const char *sql, int nparams,
                       const Oid *types, const char *const *values,
                       const int *lengths, const int *formats,
                       int result_format)
{
    stmt_cache *sc = cache_of(c);
    stmt *s = sc && !types && PQpipelineStatus(c) == PQ_PIPELINE_OFF
                  ? cache_entry(sc, sql, 1)
                  : NULL;
    if (!s)
        return PQexecParams(c, sql, nparams, types, values, lengths, formats,
                            result_format);
    if (s->state == STMT_READY) {
        char name[16];
        stmt_name(s, name);
        return PQexecPrepared(c, name, nparams, values, lengths, formats,
                              result_format);
    }
    return parse_and_exec(c, sc, s, nparams, values, lengths, formats,
                          result_format);
}

int db_stmt_queue_parse(PGconn *c, const char *sql, int nparams)
{
    stmt_cache *sc = cache_of(c);
    stmt *s = sc ? cache_entry(sc, sql, 1) : NULL;
    if (!s || s->state != STMT_NONE)
        return 0;
    char name[16];
    s->id = ++sc->next_id;
    stmt_name(s, name);
    if (!PQsendPrepare(c, name, sql, nparams, NULL))
        return -1;
    s->state = STMT_QUEUED;
    sc->queued[sc->nqueued++] = (int)(s - sc->slots);
    return 1;
}

int db_stmt_send(PGconn *c, const char *sql, int nparams,
                 const char *const *params)
{
    stmt_cache *sc = cache_of(c);
    stmt *s = sc ? cache_entry(sc, sql, 0) : NULL;
    if (!s || s->state == STMT_NONE)
        return PQsendQueryParams(c, sql, nparams, NULL, params, NULL, NULL, 0);
    char name[16];
    stmt_name(s, name);
    return PQsendQueryPrepared(c, name, nparams, params, NULL, NULL, 0);
}

int db_stmt_parsed(PGconn *c, int queued)
{
    stmt_cache *sc = cache_of(c);
    if (!sc)
        return queued > 0 ? -1 : 0;
    int rc = 0;
    for (int i = 0; i < sc->nqueued; i++) {
        stmt *s = &sc->slots[sc->queued[i]];
        PGresult *r = i < queued ? take_one(c) : NULL;
        int ok = r && PQresultStatus(r) == PGRES_COMMAND_OK;
        if (!ok && r && rc == 0 && PQresultStatus(r) != PGRES_PIPELINE_ABORTED)
            log_parse_failure(r);
        PQclear(r);
        s->state = ok ? STMT_READY : STMT_NONE;
        if (!ok)
            rc = -1;
    }
    if (sc->nqueued != queued)
        rc = -1;
    sc->nqueued = 0;
    return rc;
}

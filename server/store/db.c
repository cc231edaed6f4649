/*
 * db.c - the PostgreSQL connection pool (see db.h).
 */
#include "server/store/db.h"

#include "server/runtime/log.h"
#include "server/runtime/metrics.h"
#include "server/store/db_stmt.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct slot {
    PGconn *conn; /* NULL until first used */
    int busy;
} slot;

struct db_pool {
    char *url;
    int size, connect_timeout;
    pthread_mutex_t lock; /* guards slots, down_until */
    pthread_cond_t freed;
    slot *slots;
    double down_until; /* monotonic seconds; fail fast before this */
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Server notices (e.g. "relation already exists, skipping") become debug
 * log lines instead of raw text on stderr. */
static void on_notice(void *arg, const char *message)
{
    (void)arg;
    char text[256];
    snprintf(text, sizeof text, "%s", message);
    size_t n = strlen(text);
    while (n && text[n - 1] == '\n')
        text[--n] = '\0';
    log_debug("db_notice", json_pack("{ss}", "notice", text));
}

PGconn *db_connect(const char *url, int connect_timeout, char *err,
                   size_t errlen)
{
    char timeout[16];
    snprintf(timeout, sizeof timeout, "%d", connect_timeout);
    /* expand_dbname lets `url` be a full URL; later keywords override it. */
    const char *keys[] = {"dbname", "connect_timeout", "application_name",
                          "keepalives_idle", NULL};
    const char *vals[] = {url, timeout, "conclave", "10", NULL};
    PGconn *c = PQconnectdbParams(keys, vals, 1);
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (PQstatus(c) != CONNECTION_OK) {
        snprintf(err, errlen, "%s", PQerrorMessage(c));
        size_t n = strlen(err);
        while (n && (err[n - 1] == '\n' || err[n - 1] == ' '))
            err[--n] = '\0';
        PQfinish(c);
        return NULL;
    }
    PQsetNoticeProcessor(c, on_notice, NULL);
    if (db_stmt_attach(c) != 0) /* it still works, unprepared */
        log_warn("db_stmt_cache_failed", json_pack("{}"));
    return c;
}

db_pool *db_pool_create(const char *url, int size, int connect_timeout)
{
    db_pool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->url = strdup(url);
    p->slots = calloc((size_t)size, sizeof *p->slots);
    if (!p->url || !p->slots)
        goto fail;
    p->size = size;
    p->connect_timeout = connect_timeout;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->freed, NULL);
    return p;
fail:
    free(p->url);
    free(p->slots);
    free(p);
    return NULL;
}

void db_pool_destroy(db_pool *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->size; i++)
        if (p->slots[i].conn)
            PQfinish(p->slots[i].conn);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->freed);
    free(p->slots);
    free(p->url);
    free(p);
}

int db_conn_broken(PGconn *c)
{
    /* A connection left in pipeline mode (a pipeline cut short) cannot be
     * used for plain statements any more: it counts as broken. */
    return !c || PQstatus(c) != CONNECTION_OK ||
           PQpipelineStatus(c) != PQ_PIPELINE_OFF;
}

PGconn *db_acquire(db_pool *p, int wait_ms)
{
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += wait_ms / 1000;
    deadline.tv_nsec += (long)(wait_ms % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec++;
        deadline.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&p->lock);
    slot *s = NULL;
    for (;;) {
        if (now_s() < p->down_until)
            break;
        for (int i = 0; i < p->size && !s; i++)
            if (!p->slots[i].busy)
                s = &p->slots[i];
        if (s)
            break;
        if (pthread_cond_timedwait(&p->freed, &p->lock, &deadline))
            break;
    }
    if (!s) {
        pthread_mutex_unlock(&p->lock);
        return NULL;
    }
    s->busy = 1;
    pthread_mutex_unlock(&p->lock);

    /* Connect or reset outside the lock: it may take connect_timeout. */
    if (s->conn && PQstatus(s->conn) != CONNECTION_OK) {
        PQfinish(s->conn);
        s->conn = NULL;
    }
    if (!s->conn) {
        char err[512];
        s->conn = db_connect(p->url, p->connect_timeout, err, sizeof err);
        if (!s->conn) {
            log_warn("db_connect_failed", json_pack("{ss}", "error", err));
            pthread_mutex_lock(&p->lock);
            s->busy = 0;
            p->down_until = now_s() + 0.5; /* fail fast for a moment */
            pthread_cond_signal(&p->freed);
            pthread_mutex_unlock(&p->lock);
            return NULL;
        }
    }
    return s->conn;
}

void db_release(db_pool *p, PGconn *c, int broken)
{
    if (c && !broken && PQtransactionStatus(c) != PQTRANS_IDLE) {
        PGresult *r = db_query(c, "ROLLBACK", 0, NULL, NULL, NULL, NULL, 0);
        PQclear(r);
    }
    pthread_mutex_lock(&p->lock);
    for (int i = 0; i < p->size; i++) {
        if (p->slots[i].conn == c && p->slots[i].busy) {
            if (broken || db_conn_broken(c)) {
                PQfinish(c);
                p->slots[i].conn = NULL;
            }
            p->slots[i].busy = 0;
            break;
        }
    }
    pthread_cond_signal(&p->freed);
    pthread_mutex_unlock(&p->lock);
}

static _Thread_local int serves_requests;

void db_thread_serves_requests(void)
{
    serves_requests = 1;
}

void db_count_round_trip(void)
{
    metrics_count("conclave_db_round_trips_total",
                  "Statements (or pipelines) sent to PostgreSQL and waited "
                  "for, by every thread.",
                  1);
    if (serves_requests)
        metrics_count("conclave_db_request_round_trips_total",
                      "Round trips made by the threads that serve requests: "
                      "HTTP threads, actor workers, commit writers.",
                      1);
}

PGresult *db_query(PGconn *c, const char *sql, int nparams, const Oid *types,
                   const char *const *values, const int *lengths,
                   const int *formats, int result_format)
{
    db_count_round_trip();
    return db_stmt_exec(c, sql, nparams, types, values, lengths, formats,
                        result_format);
}

PGresult *db_exec(PGconn *c, ExecStatusType expect, const char *sql,
                  int nparams, const char *const *params)
{
    PGresult *r = db_query(c, sql, nparams, NULL, params, NULL, NULL, 0);
    if (PQresultStatus(r) != expect) {
        /* The primary message only: details may quote row values. */
        const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
        const char *msg = PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY);
        log_warn("db_error",
                 json_pack("{ss ss}", "sqlstate", state ? state : "", "error",
                           msg ? msg : "connection failure"));
        PQclear(r);
        return NULL;
    }
    return r;
}

/* Log why statement r failed (its primary message only). */
static void log_failure(PGresult *r, const char *event)
{
    const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    const char *msg = PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY);
    log_warn(event, json_pack("{ss ss}", "sqlstate", state ? state : "",
                              "error", msg ? msg : "connection failure"));
}

/* Collect the results of the n statements db_pipeline sent, up to the
 * sync. 0 when each answered with its want. */
static int pipeline_results(PGconn *c, const db_stmt *st, int n, PGresult **out)
{
    int q = 0, failed = 0;
    for (;;) {
        PGresult *r = PQgetResult(c);
        if (!r) { /* the end of one statement's results */
            if (++q > n + 1 || PQstatus(c) != CONNECTION_OK)
                return -1;
            continue;
        }
        ExecStatusType got = PQresultStatus(r);
        if (got == PGRES_PIPELINE_SYNC) {
            PQclear(r);
            return failed ? -1 : 0;
        }
        if (q < n && got != st[q].want && st[q].optional) {
            if (!failed && got != PGRES_PIPELINE_ABORTED)
                log_failure(r, "db_error");
            PQclear(r);
        } else if (q >= n || got != st[q].want) {
            if (!failed && got != PGRES_PIPELINE_ABORTED)
                log_failure(r, "db_error");
            failed = 1;
            PQclear(r);
        } else if (out) {
            out[q] = r;
        } else {
            PQclear(r);
        }
    }
}

int db_pipeline(PGconn *c, const db_stmt *st, int n, PGresult **out)
{
    for (int i = 0; out && i < n; i++)
        out[i] = NULL;
    if (!PQenterPipelineMode(c))
        return -1;
    int sent = 1, parses = 0;
    for (int i = 0; sent && i < n; i++) {
        int q = db_stmt_queue_parse(c, st[i].sql, st[i].nparams);
        sent = q >= 0;
        parses += q > 0;
    }
    for (int i = 0; sent && i < n; i++)
        sent = db_stmt_send(c, st[i].sql, st[i].nparams, st[i].params);
    db_count_round_trip();
    int rc = -1;
    if (sent && PQpipelineSync(c)) {
        rc = db_stmt_parsed(c, parses);
        int rest = pipeline_results(c, st, n, out);
        rc = rc == 0 ? rest : -1;
    }
    if (!PQexitPipelineMode(c))
        rc = -1; /* results still pending: db_conn_broken says so */
    if (rc != 0)
        for (int i = 0; out && i < n; i++) {
            PQclear(out[i]);
            out[i] = NULL;
        }
    return rc;
}

int db_scratch_database(PGconn *c, const char *name, int create)
{
    char *quoted = PQescapeIdentifier(c, name, strlen(name));
    if (!quoted)
        return -1;
    char sql[256];
    snprintf(sql, sizeof sql,
             create ? "CREATE DATABASE %s"
                    : "DROP DATABASE IF EXISTS %s "
                      "WITH (FORCE)",
             quoted);
    PQfreemem(quoted);
    PGresult *r = db_exec(c, PGRES_COMMAND_OK, sql, 0, NULL);
    PQclear(r);
    return r ? 0 : -1;
}

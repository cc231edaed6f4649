/*
 * db.h - a small pool of PostgreSQL connections (libpq).
 *
 * Each connection is used by one thread at a time: db_acquire hands it out,
 * db_release returns it. A connection that failed is reset on its next use.
 * While the database is unreachable, db_acquire fails fast (it does not
 * queue callers behind connect timeouts), so requests can answer
 * SRV_UNAVAILABLE at once.
 */
#ifndef CONCLAVE_DB_H
#define CONCLAVE_DB_H

#include <libpq-fe.h>

typedef struct db_pool db_pool;

/* Creates the pool; connections are opened lazily. NULL on OOM. */
db_pool *db_pool_create(const char *url, int size, int connect_timeout);
void db_pool_destroy(db_pool *p);

/* A healthy connection, or NULL if none can be had within wait_ms (all busy)
 * or the database is unreachable (then fails at once). */
PGconn *db_acquire(db_pool *p, int wait_ms);
/* Return a connection. broken=1 when the caller saw a connection-level
 * failure, so it is reset before reuse. Rolls back an open transaction. */
void db_release(db_pool *p, PGconn *c, int broken);

/* Open a standalone connection (for LISTEN or tools); NULL with a message. */
PGconn *db_connect(const char *url, int connect_timeout, char *err,
                   size_t errlen);

/* Whether the last failure on c was the connection itself (not SQL). */
int db_conn_broken(PGconn *c);

/* PQexecParams, counted as one round trip (db_round_trips), and prepared
 * on c the first time c runs this text (server/store/db_stmt.h: the Parse goes
 * in the same round trip). Every statement of the server but the
 * migrations goes through here or db_exec; a pipeline counts itself with
 * db_count_round_trip. */
PGresult *db_query(PGconn *c, const char *sql, int nparams, const Oid *types,
                   const char *const *values, const int *lengths,
                   const int *formats, int result_format);
/* Count one round trip sent by the calling thread (a pipeline's sync). */
void db_count_round_trip(void);
/* Mark the calling thread as one that serves requests (HTTP threads, actor
 * workers, commit writers): its round trips are also counted in
 * conclave_db_request_round_trips_total, which background threads
 * (scheduler, notifications, listener, hub) leave alone. */
void db_thread_serves_requests(void);

/* Run a parameterised statement and check its status; returns the result
 * (caller PQclears) or NULL after logging the error. */
PGresult *db_exec(PGconn *c, ExecStatusType expect, const char *sql,
                  int nparams, const char *const *params);

/* One statement of db_pipeline: parameterised sql and the status it
 * must answer with. */
typedef struct db_stmt {
    const char *sql;
    int nparams;
    const char *const *params;
    ExecStatusType want;
    int optional; /* 1 for a statement after the pipeline's COMMIT (a
                     NOTIFY, a read for the answer): its failure is
                     logged and its result is NULL, but the pipeline
                     still counts as done, the change being committed */
} db_stmt;

/* Send the n statements of st in one libpq pipeline and wait for them:
 * one round trip for all. out (NULL: none kept) receives each statement's
 * result (caller PQclears each; NULL for a statement that did not answer
 * with its want). 0 when every statement answered as wanted; -1 otherwise
 * (the first failure logged): after an error the statements after it were
 * not run, and an open transaction is aborted (db_release rolls it back).
 * A connection that broke mid-way is left for db_conn_broken to see. */
int db_pipeline(PGconn *c, const db_stmt *st, int n, PGresult **out);

/* Create (create 1) or drop (create 0, forcing out its sessions) the
 * database `name`, quoted as an identifier, through db_exec: the scratch
 * databases of tests and benchmarks. 0, or -1 (logged). */
int db_scratch_database(PGconn *c, const char *name, int create);

#endif

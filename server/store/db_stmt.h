/*
 * db_stmt.h - each connection's prepared statements.
 *
 * PostgreSQL parses, analyses and plans an unnamed statement (what
 * PQexecParams sends) every time it runs; under load that was a third of
 * the database's CPU (docs/performance.md, run 11). A connection opened by
 * db_connect carries a cache of the statements it has prepared, keyed by
 * their text: the first use of a text sends its Parse (named) in the same
 * round trip as its execution, later uses execute it by name. The cache
 * lives with the connection (a libpq event procedure frees it when the
 * connection is finished and forgets it on a reset). At most STMT_MAX
 * texts are prepared per connection; texts past that run unnamed, so a
 * statement built with values in its text cannot fill the backend.
 *
 * One thread uses a connection at a time (the pool's contract), so the
 * cache takes no lock.
 */
#ifndef CONCLAVE_DB_STMT_H
#define CONCLAVE_DB_STMT_H

#include <libpq-fe.h>

/* Whether connections opened from now on prepare their statements (1, the
 * default) or run every statement unnamed (0: for a connection pooler in
 * transaction mode, which does not keep a backend's prepared statements
 * for its client). Called once at start-up (CONCLAVE_DB_PREPARE). */
void db_stmt_enable(int on);
/* Give c its cache (db_connect does) when statements are prepared. 0, or
 * -1 (then c runs every statement unnamed). */
int db_stmt_attach(PGconn *c);

/* Run one statement like PQexecParams (types must be NULL to be
 * prepared), through the cache when c has one. When its Parse fails the
 * answer is the Parse's error (as PQexecParams would give). */
PGresult *db_stmt_exec(PGconn *c, const char *sql, int nparams,
                       const Oid *types, const char *const *values,
                       const int *lengths, const int *formats,
                       int result_format);

/* In a pipeline (after PQenterPipelineMode, before any statement of it is
 * sent): queue the Parse of sql unless c has it prepared, or queued
 * already. 1 when a Parse was queued, 0 when none was needed, -1 when
 * sending failed. Their results come first after the sync: read them
 * with db_stmt_parsed before the statements' own. */
int db_stmt_queue_parse(PGconn *c, const char *sql, int nparams);
/* Send sql with params in the pipeline: by name when a Parse of it is
 * prepared or queued, unnamed otherwise. 1 when sent, 0 when not. */
int db_stmt_send(PGconn *c, const char *sql, int nparams,
                 const char *const *params);
/* After the pipeline's sync: read the results of the `queued` Parses, in
 * order. A Parse that failed (logged) leaves its text unprepared, to be
 * tried again under a new name. 0 when all succeeded, -1 otherwise (the
 * statements after a failed Parse were not run). */
int db_stmt_parsed(PGconn *c, int queued);

#endif

/*
 * test_db.h - the scratch database of a unit test binary that talks to
 * PostgreSQL: test_db_open makes a fresh database beside DATABASE_URL's
 * (named after the test, the time and the process), migrates it with the
 * checkout's sql/ (or CONCLAVE_SQL_DIR) and gives its URL; test_db_close
 * drops it. Header-only, so a test binary needs nothing more to link.
 */
#ifndef CONCLAVE_TEST_DB_H
#define CONCLAVE_TEST_DB_H

#include "server/store/db.h"
#include "server/store/migrate.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct test_db {
    PGconn *admin;  /* to DATABASE_URL's database: creates and drops */
    char name[64];  /* the scratch database */
    char url[1000]; /* DATABASE_URL with dbname=name */
} test_db;

/* Make, migrate and name the scratch database "conclave_TAG_TIME_PID".
 * 0, or -1 after printing why and the binary's RESULT line (0 passed, 1
 * failed), so main returns 1 at once. */
static inline int test_db_open(test_db *t, const char *tag, const char *file)
{
    memset(t, 0, sizeof *t);
    const char *base = getenv("DATABASE_URL");
    char err[256] = "";
    if (!base) {
        fprintf(stderr, "DATABASE_URL is not set (run through make test)\n");
        goto fail;
    }
    if (strlen(base) > 900) {
        fprintf(stderr, "DATABASE_URL is too long\n");
        goto fail;
    }
    snprintf(t->name, sizeof t->name, "conclave_%.20s_%ld_%d", tag,
             (long)time(NULL), (int)getpid());
    t->admin = db_connect(base, 5, err, sizeof err);
    if (!t->admin || db_scratch_database(t->admin, t->name, 1) != 0) {
        fprintf(stderr, "cannot create the database %s: %s\n", t->name, err);
        goto fail;
    }
    /* Same URL, other database: libpq lets a later dbname override. */
    snprintf(t->url, sizeof t->url, "%.900s%cdbname=%.60s", base,
             strchr(base, '?') ? '&' : '?', t->name);
    PGconn *c = db_connect(t->url, 5, err, sizeof err);
    const char *sql_dir = getenv("CONCLAVE_SQL_DIR");
    if (!c ||
        migrate_apply(c, sql_dir ? sql_dir : "sql", err, sizeof err) < 0) {
        fprintf(stderr, "cannot prepare the test database: %s\n", err);
        if (c)
            PQfinish(c);
        goto fail;
    }
    PQfinish(c);
    return 0;
fail:
    printf("RESULT %s: 0 passed, 1 failed\n", file);
    return -1;
}

/* Drop the scratch database (forcing out sessions left) and disconnect. */
static inline void test_db_close(test_db *t)
{
    if (t->admin) {
        db_scratch_database(t->admin, t->name, 0);
        PQfinish(t->admin);
        t->admin = NULL;
    }
}

#endif

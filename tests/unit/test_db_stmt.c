/*
 * test_db_stmt.c - each connection's prepared statements
 * (server/store/db_stmt.h), against the PostgreSQL of DATABASE_URL (no tables
 * needed).
 *
 * Covers: a text is prepared at its first use and then executed by name
 * (the backend's pg_prepared_statements shows it; its answers stay right);
 * a Parse that fails gives the Parse's own error and leaves the connection
 * usable; a statement first seen in an aborted transaction is prepared
 * after the rollback; one text twice in a pipeline is parsed once; a
 * failing statement after a pipeline's COMMIT marked optional fails
 * nothing (db.h); at most
 * STMT_MAX texts are prepared, the rest still run; with preparing off, no
 * statement is prepared.
 */
#include "server/runtime/log.h"
#include "server/store/db.h"
#include "server/store/db_stmt.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>

static const char *db_url;

static PGconn *connect_db(void)
{
    char err[256];
    PGconn *c = db_connect(db_url, 5, err, sizeof err);
    if (!c)
        fprintf(stderr, "cannot connect: %s\n", err);
    return c;
}

/* The backend's prepared statements whose text is sql (-1 on error). */
static long prepared_count(PGconn *c, const char *sql)
{
    const char *p[] = {sql};
    PGresult *r = PQexecParams(c,
                               "SELECT count(*) FROM pg_prepared_statements "
                               "WHERE statement = $1",
                               1, NULL, p, NULL, NULL, 0);
    long n =
        PQresultStatus(r) == PGRES_TUPLES_OK ? atol(PQgetvalue(r, 0, 0)) : -1;
    PQclear(r);
    return n;
}

/* db_query of "SELECT $1::int + 1" with v; the answer, or -1. */
static long plus_one(PGconn *c, const char *v)
{
    const char *p[] = {v};
    PGresult *r = db_query(c, "SELECT $1::int + 1", 1, NULL, p, NULL, NULL, 0);
    long n =
        PQresultStatus(r) == PGRES_TUPLES_OK ? atol(PQgetvalue(r, 0, 0)) : -1;
    PQclear(r);
    return n;
}

static void test_prepared_at_first_use_and_reused(void)
{
    PGconn *c = connect_db();
    REQUIRE(c != NULL);
    CHECK_EQ_INT(prepared_count(c, "SELECT $1::int + 1"), 0);
    CHECK_EQ_INT(plus_one(c, "1"), 2);
    CHECK_EQ_INT(prepared_count(c, "SELECT $1::int + 1"), 1);
    for (int i = 0; i < 20; i++) {
        char v[16];
        snprintf(v, sizeof v, "%d", i * 7);
        CHECK_EQ_INT(plus_one(c, v), i * 7 + 1);
    }
    CHECK_EQ_INT(prepared_count(c, "SELECT $1::int + 1"), 1);
    PQfinish(c);
}

static void test_failed_parse_gives_its_error(void)
{
    PGconn *c = connect_db();
    REQUIRE(c != NULL);
    PGresult *r = db_query(c, "SELEC 1", 0, NULL, NULL, NULL, NULL, 0);
    CHECK_EQ_INT(PQresultStatus(r), PGRES_FATAL_ERROR);
    const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    CHECK_EQ_STR(state ? state : "", "42601");
    PQclear(r);
    CHECK(!db_conn_broken(c));
    CHECK_EQ_INT(plus_one(c, "41"), 42);
    PQfinish(c);
}

static void test_aborted_transaction_then_prepared(void)
{
    PGconn *c = connect_db();
    REQUIRE(c != NULL);
    PQclear(db_query(c, "BEGIN", 0, NULL, NULL, NULL, NULL, 0));
    PQclear(db_query(c, "SELECT 1/0", 0, NULL, NULL, NULL, NULL, 0));
    PGresult *r =
        db_query(c, "SELECT 'after' AS x", 0, NULL, NULL, NULL, NULL, 0);
    const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    CHECK_EQ_STR(state ? state : "", "25P02");
    PQclear(r);
    PQclear(db_query(c, "ROLLBACK", 0, NULL, NULL, NULL, NULL, 0));
    CHECK_EQ_INT(PQtransactionStatus(c), PQTRANS_IDLE);
    r = db_query(c, "SELECT 'after' AS x", 0, NULL, NULL, NULL, NULL, 0);
    CHECK_EQ_INT(PQresultStatus(r), PGRES_TUPLES_OK);
    CHECK_EQ_STR(PQntuples(r) == 1 ? PQgetvalue(r, 0, 0) : "", "after");
    PQclear(r);
    CHECK_EQ_INT(prepared_count(c, "SELECT 'after' AS x"), 1);
    PQfinish(c);
}

static void test_pipeline_parses_a_text_once(void)
{
    PGconn *c = connect_db();
    REQUIRE(c != NULL);
    const char *a[] = {"5"}, *b[] = {"9"};
    db_stmt st[] = {{"SELECT $1::int * 2", 1, a, PGRES_TUPLES_OK, 0},
                    {"SELECT $1::int * 2", 1, b, PGRES_TUPLES_OK, 0}};
    PGresult *out[2];
    CHECK_EQ_INT(db_pipeline(c, st, 2, out), 0);
    CHECK_EQ_STR(out[0] ? PQgetvalue(out[0], 0, 0) : "", "10");
    CHECK_EQ_STR(out[1] ? PQgetvalue(out[1], 0, 0) : "", "18");
    PQclear(out[0]);
    PQclear(out[1]);
    CHECK_EQ_INT(prepared_count(c, "SELECT $1::int * 2"), 1);
    /* Prepared now: the same pipeline again runs by name. */
    CHECK_EQ_INT(db_pipeline(c, st, 2, out), 0);
    CHECK_EQ_STR(out[1] ? PQgetvalue(out[1], 0, 0) : "", "18");
    PQclear(out[0]);
    PQclear(out[1]);
    CHECK(!db_conn_broken(c));
    PQfinish(c);
}

/* A statement after the COMMIT that fails (optional) neither undoes nor
 * fails the pipeline: its result, and those after it, are NULL. */
static void test_optional_after_commit(void)
{
    PGconn *c = connect_db();
    REQUIRE(c != NULL);
    PQclear(PQexec(c, "CREATE TEMP TABLE kept (n int)"));
    db_stmt st[] = {
        {"BEGIN", 0, NULL, PGRES_COMMAND_OK, 0},
        {"INSERT INTO kept VALUES (7)", 0, NULL, PGRES_COMMAND_OK, 0},
        {"COMMIT", 0, NULL, PGRES_COMMAND_OK, 0},
        {"SELECT 1/0", 0, NULL, PGRES_TUPLES_OK, 1},
        {"SELECT count(*) FROM kept", 0, NULL, PGRES_TUPLES_OK, 1}};
    PGresult *out[5];
    CHECK_EQ_INT(db_pipeline(c, st, 5, out), 0);
    CHECK(out[2] != NULL);
    CHECK(out[3] == NULL);
    CHECK(out[4] == NULL);
    for (int i = 0; i < 5; i++)
        PQclear(out[i]);
    PGresult *r = PQexec(c, "SELECT count(*) FROM kept");
    CHECK_EQ_STR(
        PQresultStatus(r) == PGRES_TUPLES_OK ? PQgetvalue(r, 0, 0) : "", "1");
    PQclear(r);
    /* Not optional: the same failure fails the pipeline. */
    st[3].optional = 0;
    CHECK_EQ_INT(db_pipeline(c, st, 4, out), -1);
    PQfinish(c);
}

static void test_at_most_a_cap_of_texts(void)
{
    PGconn *c = connect_db();
    REQUIRE(c != NULL);
    int right = 0;
    for (int i = 0; i < 300; i++) {
        char sql[64];
        snprintf(sql, sizeof sql, "SELECT %d AS n", i);
        PGresult *r = db_query(c, sql, 0, NULL, NULL, NULL, NULL, 0);
        right += PQresultStatus(r) == PGRES_TUPLES_OK &&
                 atoi(PQgetvalue(r, 0, 0)) == i;
        PQclear(r);
    }
    CHECK_EQ_INT(right, 300);
    PGresult *r = PQexec(c, "SELECT count(*) FROM pg_prepared_statements");
    long n =
        PQresultStatus(r) == PGRES_TUPLES_OK ? atol(PQgetvalue(r, 0, 0)) : -1;
    PQclear(r);
    CHECK(n > 0 && n <= 256);
    PQfinish(c);
}

static void test_off_prepares_nothing(void)
{
    db_stmt_enable(0);
    PGconn *c = connect_db();
    db_stmt_enable(1);
    REQUIRE(c != NULL);
    CHECK_EQ_INT(plus_one(c, "1"), 2);
    CHECK_EQ_INT(plus_one(c, "2"), 3);
    CHECK_EQ_INT(prepared_count(c, "SELECT $1::int + 1"), 0);
    PQfinish(c);
}

int main(void)
{
    db_url = getenv("DATABASE_URL");
    if (!db_url) {
        fprintf(stderr, "DATABASE_URL is not set (run through make test)\n");
        printf("RESULT %s: 0 passed, 1 failed\n", __FILE__);
        return 1;
    }
    log_set_level(LOG_ERROR);
    RUN(test_prepared_at_first_use_and_reused);
    RUN(test_failed_parse_gives_its_error);
    RUN(test_aborted_transaction_then_prepared);
    RUN(test_pipeline_parses_a_text_once);
    RUN(test_optional_after_commit);
    RUN(test_at_most_a_cap_of_texts);
    RUN(test_off_prepares_nothing);
    return TEST_SUMMARY();
}

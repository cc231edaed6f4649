/*
 * test_pg_array.c - text-format array literals (server/store/pg_array.h),
 * checked as text and, against the PostgreSQL of DATABASE_URL, through
 * unnest: every element comes back as it went in, in order, the last one
 * included, quotes, backslashes, braces, commas and NULLs too.
 */
#include "server/runtime/log.h"
#include "server/store/db.h"
#include "server/store/pg_array.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>

static const char *db_url;

static void test_literal_text(void)
{
    pg_array a;
    pg_array_init(&a);
    CHECK_EQ_STR(pg_array_text(&a), "{}");
    pg_array_add(&a, "x");
    pg_array_add(&a, NULL);
    pg_array_add(&a, "say \"hi\" \\ {a,b}");
    pg_array_add_int(&a, -42);
    CHECK_EQ_STR(pg_array_text(&a),
                 "{\"x\",NULL,\"say \\\"hi\\\" \\\\ {a,b}\",\"-42\"}");
    CHECK_EQ_INT(a.n, 4);
    pg_array_free(&a);
}

/* Elements through unnest($1::text[]) WITH ORDINALITY: each row's text (or
 * NULL) in order. */
static void test_round_trip_through_unnest(void)
{
    static const char *const in[] = {
        "{\"payload\":{\"cell\":4},\"s\":\"a\\\"b\"}",
        NULL,
        "",
        "NULL",
        "a,b}{c",
        "\\",
        "last"};
    const int n = (int)(sizeof in / sizeof *in);
    pg_array a;
    pg_array_init(&a);
    for (int i = 0; i < n; i++)
        pg_array_add(&a, in[i]);
    char err[256];
    PGconn *c = db_connect(db_url, 5, err, sizeof err);
    REQUIRE(c != NULL);
    const char *p[] = {pg_array_text(&a)};
    PGresult *r = PQexecParams(c,
                               "SELECT x, x IS NULL FROM unnest($1::text[]) "
                               "WITH ORDINALITY AS u(x, i) ORDER BY i",
                               1, NULL, p, NULL, NULL, 0);
    CHECK(PQresultStatus(r) == PGRES_TUPLES_OK);
    CHECK_EQ_INT(PQntuples(r), n);
    for (int i = 0; i < n && i < PQntuples(r); i++) {
        if (in[i])
            CHECK_EQ_STR(PQgetvalue(r, i, 0), in[i]);
        CHECK_EQ_STR(PQgetvalue(r, i, 1), in[i] ? "f" : "t");
    }
    PQclear(r);
    pg_array int_a;
    pg_array_init(&int_a);
    for (int i = 1; i <= 300; i++)
        pg_array_add_int(&int_a, i);
    const char *q[] = {pg_array_text(&int_a)};
    r = PQexecParams(c, "SELECT count(*), sum(x) FROM unnest($1::bigint[]) x",
                     1, NULL, q, NULL, NULL, 0);
    CHECK(PQresultStatus(r) == PGRES_TUPLES_OK);
    CHECK_EQ_STR(PQgetvalue(r, 0, 0), "300");
    CHECK_EQ_STR(PQgetvalue(r, 0, 1), "45150");
    PQclear(r);
    pg_array_free(&int_a);
    pg_array_free(&a);
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
    RUN(test_literal_text);
    RUN(test_round_trip_through_unnest);
    return TEST_SUMMARY();
}

/*
 * test_reputation.c - a player's reputation from their summary's buckets
 * (server/players/reputation.h, sql/017_reputation_summary.sql).
 *
 * Covers: no row gives no median and zero counts; misses count apart and
 * never in the median; the median is the middle answer's bucket
 * (odd count) or the mean of the two middle ones (even count), each read as
 * its bucket's middle and rounded to a tenth; text that does not parse
 * stops the reading; and against the real Postgres (DATABASE_URL, a fresh
 * migrated database per run), the middle of the bucket that SQL's
 * reputation_bucket gives each of many response times is within the stated
 * resolution of it (a tenth of a second below 1.55 s, 2.2% above), so the
 * two halves of the histogram agree.
 */
#include "server/players/reputation.h"
#include "server/runtime/log.h"
#include "server/store/db.h"
#include "server/store/migrate.h"
#include "tests/unit/test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char db_url[1000];

/* reputation_from_counts(counts): its median (-1 for null), answered and
 * missed. */
static double median_of(const char *counts, long long *answered,
                        long long *missed)
{
    json_t *o = reputation_from_counts(counts);
    json_t *m = json_object_get(o, "median_response_seconds");
    double v = json_is_real(m) ? json_real_value(m) : -1;
    *answered = json_integer_value(json_object_get(o, "answered"));
    *missed = json_integer_value(json_object_get(o, "missed"));
    json_decref(o);
    return v;
}

static void test_counts_and_median(void)
{
    long long a, m;
    CHECK(median_of("", &a, &m) == -1);
    CHECK_EQ_INT(a, 0);
    CHECK_EQ_INT(m, 0);
    CHECK(median_of(NULL, &a, &m) == -1);
    CHECK(median_of("3 1 ", &a, &m) == -1);
    CHECK_EQ_INT(a, 0);
    CHECK_EQ_INT(m, 3);
    /* tenths below 1.55 s: bucket b stands for (b - 1) / 10 s */
    CHECK(fabs(median_of("0 4 1", &a, &m) - 0.3) < 1e-9);
    CHECK_EQ_INT(a, 1);
    CHECK(fabs(median_of("5 2 1,0,1", &a, &m) - 0.2) < 1e-9);
    CHECK_EQ_INT(a, 2);
    CHECK_EQ_INT(m, 5);
    /* odd: the middle one (answers in buckets 100, 101 and 103) */
    double at101 = reputation_bucket_seconds(101);
    double v = median_of("0 100 1,1,0,1", &a, &m);
    CHECK_EQ_INT(a, 3);
    CHECK(fabs(v - round(at101 * 10) / 10) < 1e-9);
    CHECKF(fabs(at101 - 60) <= 0.022 * 60, "%f", at101);
    /* even: the mean of the two middle ones */
    double at103 = reputation_bucket_seconds(103);
    v = median_of("1 101 2,0,2", &a, &m);
    CHECK_EQ_INT(a, 4);
    CHECK_EQ_INT(m, 1);
    CHECK(fabs(v - round((at101 + at103) / 2 * 10) / 10) < 1e-9);
    v = median_of("0 101 1,0,3", &a, &m);
    CHECK(fabs(v - round(at103 * 10) / 10) < 1e-9);
    /* what does not parse ends the reading */
    CHECK(median_of("0 4 1,x,7", &a, &m) > 0);
    CHECK_EQ_INT(a, 1);
    CHECK(median_of("zero", &a, &m) == -1);
    CHECK_EQ_INT(a, 0);
}

/* Every bucket's middle within 2.2% of both its edges above 1.55 s. */
static void test_bucket_middles(void)
{
    for (long b = 17; b < 600; b++) {
        double lo = 1.55 * pow(2.0, (double)(b - 17) / 16.0);
        double hi = 1.55 * pow(2.0, (double)(b - 16) / 16.0);
        double mid = reputation_bucket_seconds(b);
        CHECKF(mid > lo && mid < hi, "bucket %ld", b);
        CHECKF((mid - lo) / lo <= 0.022 && (hi - mid) / hi <= 0.022,
               "bucket %ld", b);
    }
    for (long b = 1; b <= 16; b++)
        CHECK(fabs(reputation_bucket_seconds(b) - (double)(b - 1) / 10) < 1e-9);
}

/* SQL's bucket of many response times, read back through the C middles. */
static void test_sql_buckets_agree(void)
{
    char err[256];
    PGconn *c = db_connect(db_url, 5, err, sizeof err);
    REQUIRE(c != NULL);
    PGresult *r = PQexec(
        c, "SELECT t, reputation_bucket(false, make_interval(secs => t)) "
           "FROM (SELECT (exp(i / 97.0) - 1)::float8 AS t FROM "
           "generate_series(0, 1500) i) x");
    REQUIRE(PQresultStatus(r) == PGRES_TUPLES_OK);
    CHECK(PQntuples(r) == 1501);
    for (int i = 0; i < PQntuples(r); i++) {
        double t = atof(PQgetvalue(r, i, 0));
        long b = atol(PQgetvalue(r, i, 1));
        double mid = reputation_bucket_seconds(b);
        double within = t < 1.55 ? 0.05 + 1e-6 : 0.022 * t;
        CHECKF(b >= 1 && fabs(mid - t) <= within, "%f s: bucket %ld (%f)", t, b,
               mid);
    }
    PQclear(r);
    r = PQexec(c, "SELECT reputation_bucket(true, interval '5 minutes')");
    CHECK(PQresultStatus(r) == PGRES_TUPLES_OK &&
          strcmp(PQgetvalue(r, 0, 0), "0") == 0);
    PQclear(r);
    PQfinish(c);
}

int main(void)
{
    RUN(test_counts_and_median);
    RUN(test_bucket_middles);
    const char *base = getenv("DATABASE_URL");
    if (!base) {
        fprintf(stderr, "DATABASE_URL is not set (run through make test)\n");
        printf("RESULT %s: 0 passed, 1 failed\n", __FILE__);
        return 1;
    }
    log_set_level(LOG_ERROR);
    char err[256], name[64], sql[128];
    snprintf(name, sizeof name, "conclave_reputation_%ld_%d", (long)time(NULL),
             (int)getpid());
    PGconn *c = db_connect(base, 5, err, sizeof err);
    if (!c || strlen(base) + strlen(name) + 10 >= sizeof db_url) {
        fprintf(stderr, "cannot connect: %s\n", c ? "URL too long" : err);
        printf("RESULT %s: 0 passed, 1 failed\n", __FILE__);
        return 1;
    }
    snprintf(sql, sizeof sql, "CREATE DATABASE %s", name);
    PQclear(PQexec(c, sql));
    snprintf(db_url, sizeof db_url, "%.900s%cdbname=%.60s", base,
             strchr(base, '?') ? '&' : '?', name);
    PGconn *t = db_connect(db_url, 5, err, sizeof err);
    const char *sql_dir = getenv("CONCLAVE_SQL_DIR");
    if (!t ||
        migrate_apply(t, sql_dir ? sql_dir : "sql", err, sizeof err) < 0) {
        fprintf(stderr, "cannot prepare the test database: %s\n", err);
        printf("RESULT %s: 0 passed, 1 failed\n", __FILE__);
        return 1;
    }
    PQfinish(t);
    RUN(test_sql_buckets_agree);
    snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS %s WITH (FORCE)", name);
    PQclear(PQexec(c, sql));
    PQfinish(c);
    return TEST_SUMMARY();
}

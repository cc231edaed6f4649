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
 * two halves of the histogram agree; the migration backfills the summary
 * from the history as it stands, and the fold of due delayed games adds
 * theirs once.
 */
#include "server/players/reputation.h"
#include "server/runtime/log.h"
#include "server/store/db.h"
#include "server/store/migrate.h"
#include "tests/unit/test.h"

#include <dirent.h>
#include <limits.h>
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

/* One text cell of sql on c ("" on failure). Kept until the next call. */
static const char *cell(PGconn *c, const char *sql)
{
    static char out[512];
    PGresult *r = PQexec(c, sql);
    snprintf(out, sizeof out, "%s",
             PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1
                 ? PQgetvalue(r, 0, 0)
                 : "");
    if (PQresultStatus(r) != PGRES_TUPLES_OK)
        fprintf(stderr, "%s: %s", sql, PQerrorMessage(c));
    PQclear(r);
    return out;
}

/* A database migrated up to 016, given a history, then migrated to the
 * end: the summary holds the windows that count (games without a delay;
 * delayed games over whose end reached their spectators), a seconds-delayed
 * game over too recently waits in reputation_pending until its end is
 * delay_seconds old, and a running delayed game's windows are not counted. */
static const char *base_url;

static void test_backfill(void)
{
    const char *base = base_url;
    char err[256], name[64], sql[256], url[1000], dir[] = "/tmp/repbfXXXXXX";
    snprintf(name, sizeof name, "conclave_repbf_%ld_%d", (long)time(NULL),
             (int)getpid());
    PGconn *c = db_connect(base, 5, err, sizeof err);
    REQUIRE(c != NULL);
    snprintf(sql, sizeof sql, "CREATE DATABASE %s", name);
    PQclear(PQexec(c, sql));
    snprintf(url, sizeof url, "%.900s%cdbname=%.60s", base,
             strchr(base, '?') ? '&' : '?', name);
    PGconn *t = db_connect(url, 5, err, sizeof err);
    REQUIRE(t != NULL);
    REQUIRE(mkdtemp(dir) != NULL);
    const char *sql_dir = getenv("CONCLAVE_SQL_DIR");
    char abs[4096], from[4400], to[4400];
    REQUIRE(realpath(sql_dir ? sql_dir : "sql", abs) != NULL);
    DIR *d = opendir(abs);
    REQUIRE(d != NULL);
    int linked = 0;
    for (struct dirent *e; (e = readdir(d));) {
        int v = atoi(e->d_name);
        size_t n = strlen(e->d_name);
        if (v < 1 || v > 16 || n < 5 || strcmp(e->d_name + n - 4, ".sql") != 0)
            continue;
        snprintf(from, sizeof from, "%s/%s", abs, e->d_name);
        snprintf(to, sizeof to, "%s/%s", dir, e->d_name);
        linked += symlink(from, to) == 0;
    }
    closedir(d);
    CHECK_EQ_INT(linked, 16);
    CHECK(migrate_apply(t, dir, err, sizeof err) == 16);
    PGresult *r = PQexec(
        t,
        "INSERT INTO players (id, name) VALUES ('p1', 'player1'), "
        "('p2', 'player2');"
        "INSERT INTO games (game_id, ruleset, seat_count, seed, seed_sha256, "
        "status, delay_versions, delay_seconds, updated_at) VALUES "
        "('live', 'rps', 2, '\\x00', '', 'running', 0, 0, now()), "
        "('over_v', 'rps', 2, '\\x00', '', 'finished', 3, 0, now()), "
        "('run_v', 'rps', 2, '\\x00', '', 'running', 3, 0, now()), "
        "('old_s', 'rps', 2, '\\x00', '', 'finished', 0, 60, "
        " now() - interval '1 hour'), "
        "('new_s', 'rps', 2, '\\x00', '', 'finished', 0, 3600, "
        " now() - interval '10 minutes');"
        "INSERT INTO seat_windows (game_id, window_id, seat, player_id, "
        "opened_at, closed_at, missed) SELECT g, w, s, p, now() - "
        "make_interval(secs => t), now(), m FROM (VALUES "
        "('live', 'r1', 0, 'p1', 30, false), ('live', 'r1', 1, 'p2', 5, "
        "false), ('live', 'r2', 0, 'p1', 600, true), "
        "('over_v', 'r1', 0, 'p1', 90, false), "
        "('run_v', 'r1', 0, 'p1', 7, false), "
        "('old_s', 'r1', 0, 'p1', 3600, false), "
        "('new_s', 'r1', 0, 'p1', 1, false), ('new_s', 'r1', 1, 'p2', 1, "
        "true)) AS x(g, w, s, p, t, m)");
    CHECKF(PQresultStatus(r) == PGRES_COMMAND_OK, "%s", PQerrorMessage(t));
    PQclear(r);
    CHECK(migrate_apply(t, sql_dir ? sql_dir : "sql", err, sizeof err) > 0);
    /* p1: answered 30, 90 and 3600 s (live, over_v, old_s), missed 1 */
    json_t *p1 = reputation_load(t, "p1"), *p2 = reputation_load(t, "p2");
    CHECK_EQ_INT(json_integer_value(json_object_get(p1, "answered")), 3);
    CHECK_EQ_INT(json_integer_value(json_object_get(p1, "missed")), 1);
    double med =
        json_real_value(json_object_get(p1, "median_response_seconds"));
    CHECKF(fabs(med - 90) <= 0.022 * 90 + 0.05, "%f", med);
    CHECK_EQ_INT(json_integer_value(json_object_get(p2, "answered")), 1);
    CHECK_EQ_INT(json_integer_value(json_object_get(p2, "missed")), 0);
    json_decref(p1);
    json_decref(p2);
    CHECK_EQ_STR(cell(t, "SELECT string_agg(game_id || ' ' || (due_at = "
                         "updated_at + interval '1 hour'), ',') FROM "
                         "reputation_pending JOIN games USING (game_id)"),
                 "new_s true");
    /* not due: nothing folds; once due (moved to now), new_s counts */
    CHECK_EQ_INT(reputation_fold_due(t), 0);
    PQclear(PQexec(t, "UPDATE reputation_pending SET due_at = now()"));
    CHECK_EQ_INT(reputation_fold_due(t), 1);
    CHECK_EQ_INT(reputation_fold_due(t), 0);
    p1 = reputation_load(t, "p1");
    p2 = reputation_load(t, "p2");
    CHECK_EQ_INT(json_integer_value(json_object_get(p1, "answered")), 4);
    CHECK_EQ_INT(json_integer_value(json_object_get(p2, "missed")), 1);
    json_decref(p1);
    json_decref(p2);
    PQfinish(t);
    d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        snprintf(to, sizeof to, "%s/%s", dir, e->d_name);
        if (e->d_name[0] != '.')
            unlink(to);
    }
    if (d)
        closedir(d);
    rmdir(dir);
    snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS %s WITH (FORCE)", name);
    PQclear(PQexec(c, sql));
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
    base_url = base;
    RUN(test_backfill);
    snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS %s WITH (FORCE)", name);
    PQclear(PQexec(c, sql));
    PQfinish(c);
    return TEST_SUMMARY();
}

/*
 * test_commit.c - the group commit's connections (server/store/commit.h),
 * against the real Postgres (DATABASE_URL, a fresh migrated database per
 * run).
 *
 * Covers: a writer whose connection the server ended replaces it with a
 * new one and closes the old (the process holds as many descriptors as
 * before); committer_stop closes every writer's connection (the server
 * sees no session of the committer left, and the process's descriptors
 * are back to what they were before committer_start); a lone append is
 * one commit and one round trip, counted as a request's (the writers serve
 * requests); when a writer's thread cannot start (no address space left
 * for its stack), committer_start fails and closes the connections of the
 * writers it had started; a batch that ends a game marks its seats no
 * longer running (the running-games quota reads only running seats), and
 * nothing else: not the seats of a game whose ending append came stale,
 * nor those of the batch's other games.
 */
#include "engine/engine.h"
#include "server/runtime/log.h"
#include "server/runtime/metrics.h"
#include "server/store/commit.h"
#include "server/store/db.h"
#include "server/store/migrate.h"
#include "server/store/store.h"
#include "tests/unit/test.h"
#include "tests/unit/test_db.h"

#include <dirent.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static test_db scratch; /* the scratch database; scratch.url */

static PGconn *connect_db(void)
{
    char err[256];
    PGconn *c = db_connect(scratch.url, 5, err, sizeof err);
    if (!c)
        fprintf(stderr, "cannot connect: %s\n", err);
    return c;
}

/* The first column of the one row of sql with $1 = arg, as a number (-1
 * on error). */
static long one_number(PGconn *c, const char *sql, const char *arg)
{
    const char *p[] = {arg};
    PGresult *r = PQexecParams(c, sql, 1, NULL, p, NULL, NULL, 0);
    long n = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1
                 ? atol(PQgetvalue(r, 0, 0))
                 : -1;
    PQclear(r);
    return n;
}

/* A new two-seat tic-tac-toe game (version 0); 0 and id filled. */
static int new_game(PGconn *c, char *id)
{
    store_game g;
    memset(&g, 0, sizeof g);
    store_new_id(g.game_id);
    snprintf(g.ruleset, sizeof g.ruleset, "tictactoe");
    g.options = json_object();
    g.clock_rules = json_object();
    g.seats = 2;
    for (int i = 0; i < ENGINE_SEED_BYTES; i++)
        g.seed[i] = (uint8_t)(7 * i + 1);
    uint8_t h[32];
    engine_sha256(g.seed, sizeof g.seed, h);
    engine_hex(h, sizeof h, g.seed_sha256);
    snprintf(g.clock_mode, sizeof g.clock_mode, "none");
    int rc = store_create_game(c, &g);
    snprintf(id, STORE_ID_MAX, "%s", g.game_id);
    store_game_clear(&g);
    return rc;
}

/* The process's open file descriptors (the directory listing's own
 * descriptor not counted). */
static int open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (e->d_name[0] != '.')
            n++;
    closedir(d);
    return n - 1;
}

/* The sessions of the test database other than c's own. */
static long other_sessions(PGconn *c)
{
    return one_number(c,
                      "SELECT count(*) FROM pg_stat_activity WHERE datname = "
                      "current_database() AND pid <> pg_backend_pid() AND "
                      "$1 = $1",
                      "");
}

/* Polls until c sees n other sessions of the database (10 s only catches
 * a hang); 1 when it does. */
static int wait_sessions(PGconn *c, long n)
{
    for (int tries = 0; tries < 1000; tries++) {
        if (other_sessions(c) == n)
            return 1;
        usleep(10000);
    }
    return 0;
}

/* An append of a play by seat 0 to game id at version expected. */
static void play(store_append *a, store_input *in, const char *id,
                 uint64_t expected)
{
    memset(in, 0, sizeof *in);
    in->seq = expected + 1;
    in->seat = 0;
    in->kind = ENGINE_PLAY;
    *a = (store_append){
        .game_id = id, .expected_version = expected, .input = in};
}

/* The value of the counter name in the metrics text (0 when absent). */
static double metric(const char *name)
{
    char *m = metrics_render(), key[128];
    snprintf(key, sizeof key, "\n%s ", name);
    const char *line = m ? strstr(m, key) : NULL;
    double v = line ? atof(line + strlen(key)) : 0;
    free(m);
    return v;
}

/* The process's address space in bytes (0 when unknown). */
static size_t address_space(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    if (f) {
        if (fscanf(f, "%lu", &pages) != 1)
            pages = 0;
        fclose(f);
    }
    return (size_t)pages * (size_t)sysconf(_SC_PAGESIZE);
}

/* Two writers, and room in the address space for one thread stack only
 * (a default stack of 256 MB, RLIMIT_AS a stack and a half above what the
 * process holds): the second writer's thread cannot start, committer_start
 * fails, and the first writer is stopped with its connection closed. */
static void test_a_writer_that_cannot_start(void)
{
    enum { STACK = 256 << 20 };
    PGconn *c = connect_db();
    REQUIRE(c != NULL);
    pthread_attr_t old, big;
    REQUIRE(pthread_getattr_default_np(&old) == 0);
    pthread_attr_init(&big);
    pthread_attr_setstacksize(&big, STACK);
    REQUIRE(pthread_setattr_default_np(&big) == 0);
    struct rlimit saved, tight;
    REQUIRE(getrlimit(RLIMIT_AS, &saved) == 0);
    tight = saved;
    tight.rlim_cur = address_space() + STACK + STACK / 2;
    if (saved.rlim_max != RLIM_INFINITY && tight.rlim_cur > saved.rlim_max)
        tight.rlim_cur = saved.rlim_max;
    char err[256] = "";
    committer *cm = NULL;
    if (setrlimit(RLIMIT_AS, &tight) == 0) {
        cm = committer_start(scratch.url, 2, 5, err, sizeof err);
        setrlimit(RLIMIT_AS, &saved);
    }
    pthread_setattr_default_np(&old);
    pthread_attr_destroy(&big);
    pthread_attr_destroy(&old);
    CHECK(cm == NULL);
    CHECK_EQ_STR(err, "cannot start commit threads");
    CHECK(wait_sessions(c, 0));
    committer_stop(cm);
    PQfinish(c);
}

/* A lone append is one transaction and one round trip, counted as a
 * request's round trip (a writer serves requests): the test's own
 * statements, from a thread that does not, are not. */
static void test_a_commit_is_one_request_round_trip(void)
{
    PGconn *c = connect_db();
    REQUIRE(c != NULL);
    char id[STORE_ID_MAX];
    REQUIRE(new_game(c, id) == STORE_OK);
    char err[256];
    committer *cm = committer_start(scratch.url, 1, 5, err, sizeof err);
    REQUIRE(cm != NULL);
    double trips = metric("conclave_db_round_trips_total");
    double request_trips = metric("conclave_db_request_round_trips_total");
    double commits = metric("conclave_commits_total");
    store_append a;
    store_input in;
    play(&a, &in, id, 0);
    CHECK_EQ_INT(committer_append(cm, &a), STORE_OK);
    CHECK_EQ_INT(metric("conclave_db_round_trips_total") - trips, 1);
    CHECK_EQ_INT(
        metric("conclave_db_request_round_trips_total") - request_trips, 1);
    CHECK_EQ_INT(metric("conclave_commits_total") - commits, 1);
    committer_stop(cm);
    PQfinish(c);
}

/* The server ends the writer's session: the next append commits on a new
 * connection, and the old one is closed, not left open; committer_stop
 * closes the writer's connection. */
static void test_connections_are_closed(void)
{
    PGconn *c = connect_db();
    REQUIRE(c != NULL);
    char id[STORE_ID_MAX];
    REQUIRE(new_game(c, id) == STORE_OK);
    int before = open_fds();
    char err[256];
    committer *cm = committer_start(scratch.url, 1, 5, err, sizeof err);
    REQUIRE(cm != NULL);
    CHECK(wait_sessions(c, 1));
    CHECK_EQ_INT(open_fds(), before + 1);
    store_append a;
    store_input in;
    play(&a, &in, id, 0);
    CHECK_EQ_INT(committer_append(cm, &a), STORE_OK);
    CHECK_EQ_INT(one_number(c,
                            "SELECT count(pg_terminate_backend(pid)) FROM "
                            "pg_stat_activity WHERE datname = "
                            "current_database() AND pid <> pg_backend_pid() "
                            "AND $1 = $1",
                            ""),
                 1);
    CHECK(wait_sessions(c, 0));
    play(&a, &in, id, 1);
    CHECK_EQ_INT(committer_append(cm, &a), STORE_OK);
    CHECK_EQ_INT(
        one_number(c, "SELECT version FROM games WHERE game_id = $1", id), 2);
    CHECK_EQ_INT(open_fds(), before + 1); /* the new one only */
    committer_stop(cm);
    CHECK_EQ_INT(open_fds(), before);
    CHECK(wait_sessions(c, 0));
    PQfinish(c);
}

/* The running flags of game id's seats, "t,t" and the like ("" on error). */
static const char *running_flags(PGconn *c, const char *id, char out[32])
{
    const char *p[] = {id};
    PGresult *r = PQexecParams(c,
                               "SELECT string_agg(CASE WHEN running THEN 't' "
                               "ELSE 'f' END, ',' ORDER BY seat) FROM "
                               "game_seats WHERE game_id = $1",
                               1, NULL, p, NULL, NULL, 0);
    snprintf(out, 32, "%s",
             PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1
                 ? PQgetvalue(r, 0, 0)
                 : "");
    PQclear(r);
    return out;
}

static void test_ended_games_seats_stop_running(void)
{
    PGconn *c = connect_db();
    REQUIRE(c != NULL);
    char ended[STORE_ID_MAX], stale[STORE_ID_MAX], going[STORE_ID_MAX];
    REQUIRE(new_game(c, ended) == STORE_OK);
    REQUIRE(new_game(c, stale) == STORE_OK);
    REQUIRE(new_game(c, going) == STORE_OK);
    char buf[32];
    CHECK_EQ_STR(running_flags(c, ended, buf), "t,t");
    /* One batch: ended's last input, stale's at a version it is not at
     * (it also says the game ends), going's next play. */
    store_input in[3];
    store_append a[3];
    play(&a[0], &in[0], ended, 0);
    play(&a[1], &in[1], stale, 4);
    play(&a[2], &in[2], going, 0);
    json_t *result = json_pack("{s[i]}", "winners", 0);
    a[0].final_status = a[1].final_status = "finished";
    a[0].result = a[1].result = result;
    const store_append *list[] = {&a[0], &a[1], &a[2]};
    int rcs[3];
    CHECK_EQ_INT(store_append_batch(c, list, 3, rcs), STORE_OK);
    CHECK_EQ_INT(rcs[0], STORE_OK);
    CHECK_EQ_INT(rcs[1], STORE_ECONFLICT);
    CHECK_EQ_INT(rcs[2], STORE_OK);
    CHECK_EQ_STR(running_flags(c, ended, buf), "f,f");
    CHECK_EQ_STR(running_flags(c, stale, buf), "t,t");
    CHECK_EQ_STR(running_flags(c, going, buf), "t,t");
    json_decref(result);
    PQfinish(c);
}

int main(void)
{
    log_set_level(LOG_ERROR);
    /* An append that is never answered hangs committer_append: SIGALRM
     * ends the run as a failure instead (far above what the tests take). */
    alarm(60);
    if (test_db_open(&scratch, "commit", __FILE__) != 0)
        return 1;

    RUN(test_connections_are_closed);
    RUN(test_a_commit_is_one_request_round_trip);
    RUN(test_a_writer_that_cannot_start);
    RUN(test_ended_games_seats_stop_running);

    test_db_close(&scratch);
    return TEST_SUMMARY();
}

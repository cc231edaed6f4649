/*
 * test_commit_faults.c - the group commit's answers when its database fails
 * under a batch of several games (server/store/commit.h, store.h's
 * store_append_batch), against the real Postgres (DATABASE_URL, a fresh
 * migrated database per run).
 *
 * Each batch is made the same way: one writer, a first append whose game
 * row the test holds locked (the writer waits on it), and the appends of
 * other games queued meanwhile; they go together in the writer's next
 * transaction. Every append writes an input, a wait, a 'version' fact
 * and a deadline, so "nothing stored" means none of those rows.
 *
 * Covers:
 *  - no connection: the writer's session is ended while it waits and the
 *    database takes no new ones (ALLOW_CONNECTIONS false), so the queued
 *    batch finds the writer without a connection (commit_batch's `!c`):
 *    every append is answered STORE_EDB, nothing is stored, and the same
 *    appends at the same versions commit once connections are back;
 *  - a statement that fails part way (a trigger raises for one game's
 *    input row, in the statement or at COMMIT; another game's idempotency
 *    key is already taken): as store.h documents, nothing of the batch's
 *    transaction is kept and each append is tried on its own, so only the
 *    failing game is refused (STORE_EDB; the taken key STORE_ECONFLICT)
 *    with none of its rows stored, and the others commit exactly once;
 *  - a COMMIT lost before it happened (the backend ended while a deferred
 *    trigger holds the COMMIT): every append of the batch is STORE_EDB
 *    and nothing is stored; the same appends then commit once;
 *  - a COMMIT whose answer is lost after it happened (a proxy between the
 *    writer and the server closes the connection instead of passing the
 *    COMMIT's CommandComplete on): the outcome is unknown, so every
 *    append is STORE_EDB (retry later), never STORE_OK nor STORE_ECONFLICT
 *    (which would make the actor take its own input for another process's
 *    and apply it again on top); the store holds each input exactly once,
 *    the retry with the same Idempotency-Key at the same version is a
 *    conflict whose stored answer is found, a reload finds one input, and
 *    the game goes on from there;
 *  - the loss in the middle of the one-by-one retries (a failed batch
 *    statement, then the connection lost after a later append's COMMIT):
 *    an append committed on its own before the loss keeps its STORE_OK.
 * The actor's side of a failed commit (503, the committed copy unchanged)
 * is test_actor's test_failed_commit_leaves_committed_state.
 */
#include "engine/engine.h"
#include "server/runtime/log.h"
#include "server/store/commit.h"
#include "server/store/db.h"
#include "server/store/migrate.h"
#include "server/store/store.h"
#include "tests/unit/test.h"
#include "tests/unit/test_db.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
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

/* Run sql (no parameters); 0 when it did what a command does. */
static int run_sql(PGconn *c, const char *sql)
{
    PGresult *r = PQexec(c, sql);
    int ok = PQresultStatus(r) == PGRES_COMMAND_OK ||
             PQresultStatus(r) == PGRES_TUPLES_OK;
    if (!ok)
        fprintf(stderr, "%s: %s", sql, PQerrorMessage(c));
    PQclear(r);
    return ok ? 0 : -1;
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

/* What the store holds of game id, as "vV iI wW fF dD": its version and
 * its rows of game_inputs, turns_waiting, 'version' facts and deadlines. */
static const char *stored(PGconn *c, const char *id, char out[64])
{
    const char *p[] = {id};
    PGresult *r = PQexecParams(
        c,
        "SELECT (SELECT version FROM games WHERE game_id = $1), "
        "(SELECT count(*) FROM game_inputs WHERE game_id = $1), "
        "(SELECT count(*) FROM turns_waiting WHERE game_id = $1), "
        "(SELECT count(*) FROM notify_facts WHERE game_id = $1 AND kind = "
        "'version'), (SELECT count(*) FROM deadlines WHERE game_id = $1)",
        1, NULL, p, NULL, NULL, 0);
    if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1)
        snprintf(out, 64, "v%s i%s w%s f%s d%s", PQgetvalue(r, 0, 0),
                 PQgetvalue(r, 0, 1), PQgetvalue(r, 0, 2), PQgetvalue(r, 0, 3),
                 PQgetvalue(r, 0, 4));
    else
        snprintf(out, 64, "error: %s", PQerrorMessage(c));
    PQclear(r);
    return out;
}

#define UNTOUCHED "v0 i0 w0 f0 d0"
#define ONCE "v1 i1 w1 f1 d1"

/* ---- appends, each in a thread of its own ---- */

static const engine_window turn_window = {.id = "turn"};

enum { KEY_MAX = 64 };

typedef struct job {
    committer *cm;
    store_append ap;
    store_input in;
    char key[KEY_MAX];
    uint8_t hash[32];
    json_t *answer;
    int rc;
    int started; /* its thread */
    pthread_t thread;
} job;

/* A play by seat 0 in window "turn" of game id at version expected, with
 * Idempotency-Key key (its request hash and stored answer), the wait it
 * leaves (seat 1), a deadline for "turn" and a 'version' fact. */
static void job_init(job *j, committer *cm, const char *id, uint64_t expected,
                     const char *key)
{
    memset(j, 0, sizeof *j);
    j->cm = cm;
    j->rc = 99;
    j->in.seq = expected + 1;
    j->in.seat = 0;
    j->in.kind = ENGINE_PLAY;
    snprintf(j->in.window, sizeof j->in.window, "turn");
    j->in.payload = json_pack("{s:I}", "cell", (json_int_t)expected);
    snprintf(j->key, sizeof j->key, "%s", key);
    engine_sha256(j->key, strlen(j->key), j->hash);
    j->answer = json_pack("{s:I}", "version", (json_int_t)expected + 1);
    j->ap = (store_append){.game_id = id,
                           .expected_version = expected,
                           .input = &j->in,
                           .idem_key = j->key,
                           .request_hash = j->hash,
                           .response = j->answer,
                           .windows = &turn_window,
                           .nwindows = 1,
                           .clock_seconds = 60,
                           .waiting = "[{\"w\":\"turn\",\"s\":1}]",
                           .listened = 1};
}

static void job_clear(job *j)
{
    json_decref(j->in.payload);
    json_decref(j->answer);
    j->in.payload = j->answer = NULL;
}

/* The Idempotency-Key of the play at version expected of game id. */
static const char *key_of(char out[KEY_MAX], const char *id, uint64_t expected)
{
    snprintf(out, KEY_MAX, "k%llu-%.40s", (unsigned long long)expected, id);
    return out;
}

static void *job_main(void *arg)
{
    job *j = arg;
    j->rc = committer_append(j->cm, &j->ap);
    return NULL;
}

/* Polls (20 s only catches a hang) until sql with $1 = arg counts at
 * least n; 1 when it does. */
static int wait_count(PGconn *c, const char *sql, const char *arg, long n)
{
    for (int tries = 0; tries < 2000; tries++) {
        if (one_number(c, sql, arg) >= n)
            return 1;
        usleep(10000);
    }
    return 0;
}

static const char LOCK_WAITERS[] =
    "SELECT count(*) FROM pg_stat_activity WHERE datname = "
    "current_database() AND wait_event_type = 'Lock' AND $1 = $1";

/* Lock game id's row on a connection of its own (in a transaction the
 * caller ends with unlock); NULL on failure. */
static PGconn *lock_game(const char *id)
{
    PGconn *c = connect_db();
    const char *p[] = {id};
    if (c && run_sql(c, "BEGIN") == 0) {
        PGresult *r = PQexecParams(c,
                                   "SELECT 1 FROM games WHERE game_id = $1 "
                                   "FOR UPDATE",
                                   1, NULL, p, NULL, NULL, 0);
        int ok = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1;
        PQclear(r);
        if (ok)
            return c;
    }
    if (c)
        PQfinish(c);
    return NULL;
}

static void unlock(PGconn *lock)
{
    if (lock) {
        run_sql(lock, "COMMIT");
        PQfinish(lock);
    }
}

static int job_start(job *j)
{
    j->started = pthread_create(&j->thread, NULL, job_main, j) == 0;
    return j->started;
}

/* Polls (20 s only catches a hang) until the writer's queue holds n
 * appends; 1 when it does. */
static int wait_queued(committer *cm, int n)
{
    for (int tries = 0; tries < 2000 && committer_queued(cm) < n; tries++)
        usleep(10000);
    return committer_queued(cm) == n;
}

/* Start jobs[0] (its game row locked: the writer takes it and waits on the
 * lock) and then jobs[1..n-1], which queue meanwhile in that order (each
 * started once the one before it is queued, so a busy machine cannot
 * reorder the batch); 1 once they have. Whatever it answers, the caller
 * unlocks and joins the jobs. */
static int queue_behind(PGconn *c, committer *cm, job *jobs, int n)
{
    if (!job_start(&jobs[0]) || !wait_count(c, LOCK_WAITERS, "", 1))
        return 0;
    for (int i = 1; i < n; i++)
        if (!job_start(&jobs[i]) || !wait_queued(cm, i))
            return 0;
    return 1;
}

static void join_jobs(job *jobs, int n)
{
    for (int i = 0; i < n; i++)
        if (jobs[i].started)
            pthread_join(jobs[i].thread, NULL);
}

/* Appends of the same plays again, one at a time: each answer into rcs. */
static void append_again(committer *cm, char (*id)[STORE_ID_MAX], int n,
                         uint64_t expected, int *rcs)
{
    for (int i = 0; i < n; i++) {
        job j;
        char key[KEY_MAX];
        job_init(&j, cm, id[i], expected, key_of(key, id[i], expected));
        rcs[i] = committer_append(cm, &j.ap);
        job_clear(&j);
    }
}

/* End the one session of the database that waits on event (a
 * wait_event_type or a wait_event), and wait until it has ended (10 s at
 * most): 1 when it did. */
static long end_session(PGconn *c, const char *event)
{
    long pid = one_number(c,
                          "SELECT pid FROM pg_stat_activity WHERE datname = "
                          "current_database() AND (wait_event_type = $1 OR "
                          "wait_event = $1)",
                          event);
    if (pid <= 0)
        return 0;
    char arg[24];
    snprintf(arg, sizeof arg, "%ld", pid);
    return one_number(c,
                      "SELECT count(*) FROM pg_terminate_backend($1::integer, "
                      "10000) AS t WHERE t",
                      arg);
}

/* ALTER DATABASE scratch ALLOW_CONNECTIONS allow (from the admin
 * connection, to the server's default database); 0 when done. */
static int allow_connections(int allow)
{
    char *name =
        PQescapeIdentifier(scratch.admin, scratch.name, strlen(scratch.name));
    if (!name)
        return -1;
    char sql[160];
    snprintf(sql, sizeof sql, "ALTER DATABASE %s ALLOW_CONNECTIONS %s", name,
             allow ? "true" : "false");
    PQfreemem(name);
    return run_sql(scratch.admin, sql);
}

/* ---- the tests ---- */

/* The writer's session ends while it waits on a locked row, and the
 * database takes no new session: the first append fails with the lost
 * session, and the batch queued behind it finds the writer without a
 * connection. Every append of both is answered STORE_EDB (never OK),
 * nothing of them is stored, and once connections are allowed again the
 * same appends at the same versions commit, once each. */
static void test_no_connection_refuses_the_whole_batch(void)
{
    enum { N = 4 };
    PGconn *c = connect_db();
    REQUIRE(c != NULL);
    char id[N][STORE_ID_MAX], buf[64];
    for (int i = 0; i < N; i++)
        REQUIRE(new_game(c, id[i]) == STORE_OK);
    char err[256];
    committer *cm = committer_start(scratch.url, 1, 5, err, sizeof err);
    REQUIRE(cm != NULL);
    job jobs[N];
    for (int i = 0; i < N; i++) {
        char key[KEY_MAX];
        job_init(&jobs[i], cm, id[i], 0, key_of(key, id[i], 0));
    }
    PGconn *lock = lock_game(id[0]);
    REQUIRE(lock != NULL);
    CHECK(queue_behind(c, cm, jobs, N));
    CHECK_EQ_INT(allow_connections(0), 0);
    /* the writer is the one session waiting on a lock: ended (and waited
     * for), before the lock goes */
    CHECK_EQ_INT(end_session(c, "Lock"), 1);
    unlock(lock);
    join_jobs(jobs, N);
    CHECK_EQ_INT(allow_connections(1), 0);
    for (int i = 0; i < N; i++) {
        CHECK_EQ_INT(jobs[i].rc, STORE_EDB);
        CHECK_EQ_STR(stored(c, id[i], buf), UNTOUCHED);
        job_clear(&jobs[i]);
    }
    int rcs[N];
    append_again(cm, id, N, 0, rcs);
    for (int i = 0; i < N; i++) {
        CHECK_EQ_INT(rcs[i], STORE_OK);
        CHECK_EQ_STR(stored(c, id[i], buf), ONCE);
    }
    committer_stop(cm);
    PQfinish(c);
}

static const char REFUSE_FN[] =
    "CREATE OR REPLACE FUNCTION test_refuse_row() RETURNS trigger LANGUAGE "
    "plpgsql AS $$BEGIN RAISE EXCEPTION 'refused by the test'; END$$";

/* A batch of four games behind a first one, whose statement fails part
 * way: a trigger raises for game 1's input row, in the statement
 * (at_commit 0) or at COMMIT (1, a deferred constraint trigger); game 2's
 * Idempotency-Key is already taken in its game (at_commit 0 only: a
 * failed statement would end the batch before its COMMIT). Only the
 * failing appends are refused, game 1's as STORE_EDB and game 2's as
 * STORE_ECONFLICT, with none of their rows stored; the others commit
 * exactly once. */
static void test_failing_statement_refuses_only_its_game(void)
{
    enum { N = 5 };
    for (int at_commit = 0; at_commit < 2; at_commit++) {
        PGconn *c = connect_db();
        REQUIRE(c != NULL);
        char id[N][STORE_ID_MAX], buf[64], sql[400];
        for (int i = 0; i < N; i++)
            REQUIRE(new_game(c, id[i]) == STORE_OK);
        int taken = !at_commit;
        job first;
        if (taken) { /* game 2 is at version 1, its play keyed "taken" */
            job_init(&first, NULL, id[2], 0, "taken");
            CHECK_EQ_INT(store_append_input(c, &first.ap), STORE_OK);
            job_clear(&first);
        }
        REQUIRE(run_sql(c, REFUSE_FN) == 0);
        snprintf(sql, sizeof sql,
                 at_commit ? "CREATE CONSTRAINT TRIGGER test_refuse AFTER "
                             "INSERT ON game_inputs DEFERRABLE INITIALLY "
                             "DEFERRED FOR EACH ROW WHEN (NEW.game_id = '%s') "
                             "EXECUTE FUNCTION test_refuse_row()"
                           : "CREATE TRIGGER test_refuse BEFORE INSERT ON "
                             "game_inputs FOR EACH ROW WHEN (NEW.game_id = "
                             "'%s') EXECUTE FUNCTION test_refuse_row()",
                 id[1]);
        REQUIRE(run_sql(c, sql) == 0);
        char err[256];
        committer *cm = committer_start(scratch.url, 1, 5, err, sizeof err);
        REQUIRE(cm != NULL);
        job jobs[N];
        for (int i = 0; i < N; i++) {
            char key[KEY_MAX];
            job_init(&jobs[i], cm, id[i], i == 2 && taken ? 1 : 0,
                     i == 2 && taken ? "taken" : key_of(key, id[i], 0));
        }
        PGconn *lock = lock_game(id[0]);
        REQUIRE(lock != NULL);
        CHECK(queue_behind(c, cm, jobs, N));
        unlock(lock);
        join_jobs(jobs, N);
        CHECK_EQ_INT(run_sql(c, "DROP TRIGGER test_refuse ON game_inputs"), 0);
        for (int i = 0; i < N; i++) {
            int want = i == 1            ? STORE_EDB
                       : i == 2 && taken ? STORE_ECONFLICT
                                         : STORE_OK;
            CHECKF(jobs[i].rc == want, "at_commit %d, game %d: %d, not %d",
                   at_commit, i, jobs[i].rc, want);
            const char *want_rows = i == 1 ? UNTOUCHED : ONCE;
            CHECKF(strcmp(stored(c, id[i], buf), want_rows) == 0,
                   "at_commit %d, game %d: %s, not %s", at_commit, i, buf,
                   want_rows);
            job_clear(&jobs[i]);
        }
        /* game 1 had nothing stored: its play commits now, once */
        int rc;
        append_again(cm, &id[1], 1, 0, &rc);
        CHECK_EQ_INT(rc, STORE_OK);
        CHECK_EQ_STR(stored(c, id[1], buf), ONCE);
        committer_stop(cm);
        PQfinish(c);
    }
}

/* A batch of three games behind a first one, whose COMMIT is held by a
 * deferred trigger (pg_sleep on one of its rows) and the backend ended
 * meanwhile: the COMMIT never happened, so every append of that batch is
 * STORE_EDB, and nothing of it is stored (the first append, before it,
 * committed). The same appends at the same versions then commit, once
 * each. */
static void test_commit_lost_before_it_happened(void)
{
    enum { N = 4 };
    PGconn *c = connect_db();
    REQUIRE(c != NULL);
    char id[N][STORE_ID_MAX], buf[64], sql[400];
    for (int i = 0; i < N; i++)
        REQUIRE(new_game(c, id[i]) == STORE_OK);
    REQUIRE(run_sql(c, "CREATE OR REPLACE FUNCTION test_hold_commit() "
                       "RETURNS trigger LANGUAGE plpgsql AS $$BEGIN PERFORM "
                       "pg_sleep(30); RETURN NULL; END$$") == 0);
    /* one row of the batch holds its COMMIT (30 s: ample to see it) */
    snprintf(sql, sizeof sql,
             "CREATE CONSTRAINT TRIGGER test_hold AFTER INSERT ON game_inputs "
             "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.game_id = "
             "'%s') EXECUTE FUNCTION test_hold_commit()",
             id[2]);
    REQUIRE(run_sql(c, sql) == 0);
    char err[256];
    committer *cm = committer_start(scratch.url, 1, 5, err, sizeof err);
    REQUIRE(cm != NULL);
    job jobs[N];
    for (int i = 0; i < N; i++) {
        char key[KEY_MAX];
        job_init(&jobs[i], cm, id[i], 0, key_of(key, id[i], 0));
    }
    PGconn *lock = lock_game(id[0]);
    REQUIRE(lock != NULL);
    CHECK(queue_behind(c, cm, jobs, N));
    unlock(lock);
    /* the batch's COMMIT sleeps in the trigger: its session is ended */
    CHECK(wait_count(c,
                     "SELECT count(*) FROM pg_stat_activity WHERE datname = "
                     "current_database() AND wait_event = 'PgSleep' AND "
                     "$1 = $1",
                     "", 1));
    CHECK_EQ_INT(end_session(c, "PgSleep"), 1);
    join_jobs(jobs, N);
    CHECK_EQ_INT(run_sql(c, "DROP TRIGGER test_hold ON game_inputs"), 0);
    CHECK_EQ_INT(jobs[0].rc, STORE_OK);
    CHECK_EQ_STR(stored(c, id[0], buf), ONCE);
    for (int i = 1; i < N; i++) {
        CHECK_EQ_INT(jobs[i].rc, STORE_EDB);
        CHECK_EQ_STR(stored(c, id[i], buf), UNTOUCHED);
    }
    for (int i = 0; i < N; i++)
        job_clear(&jobs[i]);
    int rcs[N - 1];
    append_again(cm, &id[1], N - 1, 0, rcs);
    for (int i = 1; i < N; i++) {
        CHECK_EQ_INT(rcs[i - 1], STORE_OK);
        CHECK_EQ_STR(stored(c, id[i], buf), ONCE);
    }
    committer_stop(cm);
    PQfinish(c);
}

/* ---- a proxy that loses a COMMIT's answer ----
 *
 * It listens on a Unix socket (so libpq asks for no TLS and every message
 * of the server's is framed: a type byte and a length) and passes bytes
 * both ways to the server; the drop_at-th COMMIT answer (CommandComplete
 * "COMMIT") it sees since proxy_arm is not passed on: it closes both
 * sides instead, after everything before that answer went through. */

enum { PROXY_PAIRS = 32 };

typedef struct proxy_pair {
    int client, server;
    pthread_t thread;
} proxy_pair;

static struct proxy {
    char dir[32], sock[64], url[1200];
    char up_host[256], up_port[16]; /* the server, as scratch.url reaches it */
    int listen_fd;
    pthread_t accept_thread;
    atomic_int stopping, commits_seen, drop_at, dropped;
    proxy_pair pairs[PROXY_PAIRS];
    int npairs; /* only the accept thread writes it before the join */
} P;

static int send_all(int fd, const char *buf, size_t n)
{
    while (n > 0) {
        ssize_t k = send(fd, buf, n, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        buf += k;
        n -= (size_t)k;
    }
    return 0;
}

/* Whether this COMMIT answer is the one to lose. */
static int commit_lost(void)
{
    int seen = atomic_fetch_add(&P.commits_seen, 1) + 1;
    if (seen != atomic_load(&P.drop_at))
        return 0;
    atomic_fetch_add(&P.dropped, 1);
    return 1;
}

/* Pass the whole messages at the start of buf[0..*len) to fd, keeping a
 * partial last one; 1 when the connection is to end (a COMMIT answer to
 * lose: everything before it passed on; or fd failed). */
static int pass_messages(int fd, char *buf, size_t *len)
{
    static const char tag[] = "COMMIT"; /* with its NUL */
    size_t at = 0;
    int end = 0;
    while (*len - at >= 5) {
        uint32_t n;
        memcpy(&n, buf + at + 1, 4);
        n = ntohl(n);
        if (*len - at < 1 + (size_t)n)
            break;
        if (buf[at] == 'C' && n == 4 + sizeof tag &&
            memcmp(buf + at + 5, tag, sizeof tag) == 0 && commit_lost()) {
            end = 1;
            break;
        }
        at += 1 + (size_t)n;
    }
    if (send_all(fd, buf, at) != 0)
        end = 1;
    memmove(buf, buf + at, *len - at);
    *len -= at;
    return end;
}

static void *pair_main(void *arg)
{
    proxy_pair *p = arg;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap), up[1 << 14];
    struct pollfd pf[2] = {{.fd = p->client, .events = POLLIN},
                           {.fd = p->server, .events = POLLIN}};
    while (buf && !atomic_load(&P.stopping)) {
        int k = poll(pf, 2, 100);
        if (k < 0 && errno != EINTR)
            break;
        if (k <= 0)
            continue;
        if (pf[0].revents) {
            ssize_t n = read(p->client, up, sizeof up);
            if (n <= 0 || send_all(p->server, up, (size_t)n) != 0)
                break;
        }
        if (pf[1].revents) {
            if (len == cap) { /* a message longer than what is held */
                char *more = realloc(buf, 2 * cap);
                if (!more)
                    break;
                buf = more;
                cap *= 2;
            }
            ssize_t n = read(p->server, buf + len, cap - len);
            if (n <= 0)
                break;
            len += (size_t)n;
            if (pass_messages(p->client, buf, &len))
                break;
        }
    }
    free(buf);
    close(p->client);
    close(p->server);
    return NULL;
}

/* A new connection to the server; -1 on failure. */
static int upstream_connect(void)
{
    if (P.up_host[0] == '/') {
        struct sockaddr_un sa = {.sun_family = AF_UNIX};
        int len = snprintf(sa.sun_path, sizeof sa.sun_path, "%s/.s.PGSQL.%s",
                           P.up_host, P.up_port);
        if (len < 0 || (size_t)len >= sizeof sa.sun_path)
            return -1;
        int fd = socket(AF_UNIX, SOCK_STREAM, 0);
        if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0)
            return fd;
        if (fd >= 0)
            close(fd);
        return -1;
    }
    struct addrinfo hints = {.ai_socktype = SOCK_STREAM}, *list = NULL;
    if (getaddrinfo(P.up_host, P.up_port, &hints, &list) != 0)
        return -1;
    int fd = -1;
    for (const struct addrinfo *a = list; a && fd < 0; a = a->ai_next) {
        fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
        if (fd >= 0 && connect(fd, a->ai_addr, a->ai_addrlen) != 0) {
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(list);
    return fd;
}

static void *accept_main(void *arg)
{
    (void)arg;
    while (!atomic_load(&P.stopping)) {
        struct pollfd pf = {.fd = P.listen_fd, .events = POLLIN};
        if (poll(&pf, 1, 100) <= 0)
            continue;
        int client = accept(P.listen_fd, NULL, NULL);
        if (client < 0)
            continue;
        int server = upstream_connect();
        if (server < 0 || P.npairs == PROXY_PAIRS) {
            close(client);
            if (server >= 0)
                close(server);
            continue;
        }
        proxy_pair *p = &P.pairs[P.npairs];
        p->client = client;
        p->server = server;
        if (pthread_create(&p->thread, NULL, pair_main, p) != 0) {
            close(client);
            close(server);
            continue;
        }
        P.npairs++;
    }
    return NULL;
}

/* Start the proxy in front of the server c is connected to; P.url is
 * scratch.url through it. 0, or -1. */
static int proxy_start(PGconn *c)
{
    memset(&P, 0, sizeof P);
    P.listen_fd = -1;
    const char *host = PQhost(c), *port = PQport(c);
    snprintf(P.dir, sizeof P.dir, "/tmp/conclave-proxy-XXXXXX");
    if (!host || !port || !mkdtemp(P.dir))
        return -1;
    snprintf(P.up_host, sizeof P.up_host, "%s", host);
    snprintf(P.up_port, sizeof P.up_port, "%s", port);
    snprintf(P.sock, sizeof P.sock, "%s/.s.PGSQL.5432", P.dir);
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    memcpy(sa.sun_path, P.sock, strlen(P.sock) + 1); /* < 64 bytes */
    P.listen_fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (P.listen_fd < 0 ||
        bind(P.listen_fd, (struct sockaddr *)&sa, sizeof sa) != 0 ||
        listen(P.listen_fd, 16) != 0 ||
        pthread_create(&P.accept_thread, NULL, accept_main, NULL) != 0) {
        if (P.listen_fd >= 0)
            close(P.listen_fd);
        unlink(P.sock);
        rmdir(P.dir);
        return -1;
    }
    /* later keywords of a URL override earlier ones (test_db.h) */
    snprintf(P.url, sizeof P.url, "%s&host=%s&port=5432", scratch.url, P.dir);
    return 0;
}

/* Lose the nth COMMIT answer from now on (0: none). */
static void proxy_arm(int nth)
{
    atomic_store(&P.drop_at, 0);
    atomic_store(&P.commits_seen, 0);
    atomic_store(&P.drop_at, nth);
}

static void proxy_stop(void)
{
    atomic_store(&P.stopping, 1);
    pthread_join(P.accept_thread, NULL);
    for (int i = 0; i < P.npairs; i++)
        pthread_join(P.pairs[i].thread, NULL);
    close(P.listen_fd);
    unlink(P.sock);
    rmdir(P.dir);
}

/* A batch of three games behind a first one, through the proxy, whose
 * COMMIT's answer is lost after the COMMIT happened. Each append is
 * answered STORE_EDB (an unknown outcome: retry later), and the store
 * holds each input exactly once. The retry with the same Idempotency-Key
 * at the same version is refused as a conflict and finds the stored answer
 * and request hash; a reload finds exactly the one input; the next play
 * commits on top. */
static void test_commit_answer_lost_after_it_happened(void)
{
    enum { N = 4 };
    PGconn *c = connect_db();
    REQUIRE(c != NULL);
    REQUIRE(proxy_start(c) == 0);
    char id[N][STORE_ID_MAX], buf[64];
    for (int i = 0; i < N; i++)
        REQUIRE(new_game(c, id[i]) == STORE_OK);
    char err[256];
    committer *cm = committer_start(P.url, 1, 5, err, sizeof err);
    REQUIRE(cm != NULL);
    job jobs[N];
    for (int i = 0; i < N; i++) {
        char key[KEY_MAX];
        job_init(&jobs[i], cm, id[i], 0, key_of(key, id[i], 0));
    }
    PGconn *lock = lock_game(id[0]);
    REQUIRE(lock != NULL);
    proxy_arm(2); /* the first append's COMMIT is answered, the batch's not */
    CHECK(queue_behind(c, cm, jobs, N));
    unlock(lock);
    join_jobs(jobs, N);
    proxy_arm(0);
    CHECK_EQ_INT(atomic_load(&P.dropped), 1);
    CHECK_EQ_INT(jobs[0].rc, STORE_OK);
    for (int i = 1; i < N; i++)
        CHECKF(jobs[i].rc == STORE_EDB,
               "game %d: an unknown outcome answered %d, not STORE_EDB", i,
               jobs[i].rc);
    for (int i = 0; i < N; i++) {
        CHECK_EQ_STR(stored(c, id[i], buf), ONCE);
        job_clear(&jobs[i]);
    }
    /* the retries: same key, same body, same version */
    int rcs[N];
    append_again(cm, id, N, 0, rcs);
    for (int i = 0; i < N; i++) {
        char key[KEY_MAX];
        key_of(key, id[i], 0);
        CHECK_EQ_INT(rcs[i], STORE_ECONFLICT);
        CHECK_EQ_STR(stored(c, id[i], buf), ONCE);
        uint8_t hash[32], want[32];
        json_t *answer = NULL;
        engine_sha256(key, strlen(key), want);
        CHECK_EQ_INT(store_find_idempotent(c, id[i], 0, key, hash, &answer),
                     STORE_OK);
        CHECK(memcmp(hash, want, 32) == 0);
        CHECK_EQ_INT(json_integer_value(json_object_get(answer, "version")), 1);
        json_decref(answer);
        store_input *in = NULL;
        size_t n = 0;
        CHECK_EQ_INT(store_load_inputs(c, id[i], 0, &in, &n), STORE_OK);
        CHECK_EQ_INT(n, 1);
        if (n == 1) {
            CHECK_EQ_INT(in[0].seq, 1);
            CHECK_EQ_INT(in[0].seat, 0);
            CHECK_EQ_INT(
                json_integer_value(json_object_get(in[0].payload, "cell")), 0);
        }
        store_inputs_free(in, n);
    }
    /* and each game goes on from its one input */
    append_again(cm, id, N, 1, rcs);
    for (int i = 0; i < N; i++) {
        CHECK_EQ_INT(rcs[i], STORE_OK);
        CHECK_EQ_INT(one_number(c,
                                "SELECT count(*) FROM game_inputs WHERE "
                                "game_id = $1",
                                id[i]),
                     2);
    }
    committer_stop(cm);
    proxy_stop();
    PQfinish(c);
}

/* A batch of three games behind a first one, through the proxy: a
 * trigger refuses game 2's row, so the batch's statement fails and each
 * append is tried on its own; game 1 commits (its COMMIT answered), game 2
 * is refused, and game 3's COMMIT answer is lost after it happened. Game
 * 1's answer stays STORE_OK: an append committed on its own before the
 * connection was lost is not answered as failed. Game 2 is STORE_EDB with
 * nothing stored, game 3 STORE_EDB (unknown) with its input stored once. */
static void test_committed_before_the_loss_stays_committed(void)
{
    enum { N = 4 };
    PGconn *c = connect_db();
    REQUIRE(c != NULL);
    REQUIRE(proxy_start(c) == 0);
    char id[N][STORE_ID_MAX], buf[64], sql[400];
    for (int i = 0; i < N; i++)
        REQUIRE(new_game(c, id[i]) == STORE_OK);
    REQUIRE(run_sql(c, REFUSE_FN) == 0);
    snprintf(sql, sizeof sql,
             "CREATE TRIGGER test_refuse BEFORE INSERT ON game_inputs FOR "
             "EACH ROW WHEN (NEW.game_id = '%s') EXECUTE FUNCTION "
             "test_refuse_row()",
             id[2]);
    REQUIRE(run_sql(c, sql) == 0);
    char err[256];
    committer *cm = committer_start(P.url, 1, 5, err, sizeof err);
    REQUIRE(cm != NULL);
    job jobs[N];
    for (int i = 0; i < N; i++) {
        char key[KEY_MAX];
        job_init(&jobs[i], cm, id[i], 0, key_of(key, id[i], 0));
    }
    PGconn *lock = lock_game(id[0]);
    REQUIRE(lock != NULL);
    /* COMMITs: the first append's, game 1's alone, game 3's alone (the
     * failed batch and game 2 send none that completes) */
    proxy_arm(3);
    CHECK(queue_behind(c, cm, jobs, N));
    unlock(lock);
    join_jobs(jobs, N);
    proxy_arm(0);
    CHECK_EQ_INT(run_sql(c, "DROP TRIGGER test_refuse ON game_inputs"), 0);
    CHECK_EQ_INT(atomic_load(&P.dropped), 1);
    static const int want[N] = {STORE_OK, STORE_OK, STORE_EDB, STORE_EDB};
    for (int i = 0; i < N; i++) {
        CHECKF(jobs[i].rc == want[i], "game %d: %d, not %d", i, jobs[i].rc,
               want[i]);
        const char *rows = i == 2 ? UNTOUCHED : ONCE;
        CHECKF(strcmp(stored(c, id[i], buf), rows) == 0, "game %d: %s, not %s",
               i, buf, rows);
        job_clear(&jobs[i]);
    }
    committer_stop(cm);
    proxy_stop();
    PQfinish(c);
}

int main(void)
{
    log_set_level(LOG_ERROR);
    /* An append never answered hangs committer_append: SIGALRM ends the
     * run as a failure instead (far above what the tests take). */
    alarm(180);
    if (test_db_open(&scratch, "commit_faults", __FILE__) != 0)
        return 1;

    RUN(test_no_connection_refuses_the_whole_batch);
    RUN(test_failing_statement_refuses_only_its_game);
    RUN(test_commit_lost_before_it_happened);
    RUN(test_commit_answer_lost_after_it_happened);
    RUN(test_committed_before_the_loss_stays_committed);

    test_db_close(&scratch);
    return TEST_SUMMARY();
}

/*
 * test_store_faults.c - the event store's failure paths and its sync of a
 * game's waits at load (server/store/store.h), against the real Postgres
 * (DATABASE_URL, a fresh migrated database per run).
 *
 * Covers: the waits synced at a game's load are what turns_waiting holds
 * after, with no ended wait recorded and nothing written at a stale
 * version; a read whose query fails (the tables out of the connection's
 * search_path) returns STORE_EDB and leaves every out-parameter cleared
 * (no snapshot, seq 0, no inputs, no deadlines, no result), whatever the
 * caller held there before; an append whose waits do not parse is refused
 * before anything is sent, and the game stays at its version with no
 * input row, and so is one whose stored answer cannot be encoded; an
 * input without a payload reads back without one; a batch on a
 * connection the server ended reports it lost; a batch with one game
 * twice stores both of its appends, in order; loads do not rely on the
 * rows' physical order (inputs stored as seq 3, 1, 2 and read by seq
 * scans load in seq order, whole, after a seq and by the page, and the
 * latest snapshot is the highest seq, not the first row found).
 */
#include "engine/engine.h"
#include "server/runtime/log.h"
#include "server/store/db.h"
#include "server/store/migrate.h"
#include "server/store/store.h"
#include "tests/unit/test.h"
#include "tests/unit/test_db.h"

#include <stdlib.h>
#include <string.h>
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

/* A game's waits synced at its load (no input: kind "load", version as
 * loaded): turns_waiting then holds exactly them, and no ended wait is
 * recorded in seat_windows; at another version nothing is written. */
static void test_waits_synced_at_load(void)
{
    PGconn *c = connect_db();
    REQUIRE(c != NULL);
    char id[STORE_ID_MAX];
    REQUIRE(new_game(c, id) == STORE_OK);
    const char *rows = "SELECT count(*) FROM turns_waiting WHERE game_id = $1";
    const char *seat1 = "SELECT count(*) FROM turns_waiting WHERE game_id = "
                        "$1 AND window_id = 'turn' AND seat = 1";
    CHECK_EQ_INT(
        store_sync_waiting(c, id, "[{\"w\":\"turn\",\"s\":1}]", NULL, 0),
        STORE_OK);
    CHECK_EQ_INT(one_number(c, rows, id), 1);
    CHECK_EQ_INT(one_number(c, seat1, id), 1);
    CHECK_EQ_INT(
        store_sync_waiting(c, id, "[{\"w\":\"turn\",\"s\":0}]", NULL, 5),
        STORE_OK); /* stale: the game is at version 0 */
    CHECK_EQ_INT(one_number(c, seat1, id), 1);
    CHECK_EQ_INT(store_sync_waiting(c, id, "[]", NULL, 0), STORE_OK);
    CHECK_EQ_INT(one_number(c, rows, id), 0);
    CHECK_EQ_INT(one_number(c,
                            "SELECT count(*) FROM seat_windows WHERE "
                            "game_id = $1",
                            id),
                 0);
    PQfinish(c);
}

/* Every read fails (no table is on the search path): each returns
 * STORE_EDB and clears what its out-parameters held. */
static void test_failed_reads_clear_their_out_parameters(void)
{
    PGconn *c = connect_db();
    REQUIRE(c != NULL);
    char id[STORE_ID_MAX];
    REQUIRE(new_game(c, id) == STORE_OK);
    PQclear(PQexec(c, "SET search_path TO no_such_schema"));
    json_t *held = json_object(); /* what a caller had in its variables */

    json_t *state = held;
    uint64_t seq = 77;
    CHECK_EQ_INT(store_load_snapshot(c, id, &state, &seq), STORE_EDB);
    CHECK(state == NULL);
    CHECK_EQ_INT(seq, 0);

    state = held;
    seq = 77;
    CHECK_EQ_INT(store_load_snapshot_upto(c, id, 5, &state, &seq), STORE_EDB);
    CHECK(state == NULL);
    CHECK_EQ_INT(seq, 0);

    seq = 77;
    CHECK_EQ_INT(store_seq_older_than(c, id, 5, 0, &seq), STORE_EDB);
    CHECK_EQ_INT(seq, 0);

    store_input *inputs = (store_input *)held;
    size_t n = 9;
    CHECK_EQ_INT(store_load_inputs_page(c, id, 0, 10, &inputs, &n), STORE_EDB);
    CHECK(inputs == NULL);
    CHECK_EQ_INT(n, 0);

    json_t *deadlines = held;
    CHECK_EQ_INT(store_load_deadlines(c, id, &deadlines), STORE_EDB);
    CHECK(deadlines == NULL);

    json_t *result = held;
    char hash[2 * ENGINE_HASH_BYTES + 1] = "abc";
    CHECK_EQ_INT(store_load_final(c, id, hash, &result), STORE_EDB);
    CHECK(result == NULL);
    CHECK_EQ_STR(hash, "");

    store_game g;
    memset(&g, 0xff, sizeof g);
    CHECK_EQ_INT(store_load_game(c, id, &g), STORE_EDB);
    CHECK(g.options == NULL);
    CHECK_EQ_INT(g.version, 0);
    CHECK_EQ_STR(g.game_id, "");

    json_decref(held);
    PQfinish(c);
}

/* An append whose waits are not a JSON array is refused: nothing of it is
 * committed, and the connection stays usable. */
static void test_unparsable_waits_refuse_the_append(void)
{
    PGconn *c = connect_db();
    REQUIRE(c != NULL);
    char id[STORE_ID_MAX];
    REQUIRE(new_game(c, id) == STORE_OK);
    store_input in;
    memset(&in, 0, sizeof in);
    in.seq = 1;
    in.seat = 0;
    in.kind = ENGINE_PLAY;
    snprintf(in.window, sizeof in.window, "turn");
    store_append a = {.game_id = id,
                      .expected_version = 0,
                      .input = &in,
                      .waiting = "not json"};
    CHECK_EQ_INT(store_append_input(c, &a), STORE_EDB);
    CHECK_EQ_INT(
        one_number(c, "SELECT version FROM games WHERE game_id = $1", id), 0);
    CHECK_EQ_INT(one_number(c,
                            "SELECT count(*) FROM game_inputs WHERE "
                            "game_id = $1",
                            id),
                 0);
    /* the same append with parsable waits commits on that connection */
    a.waiting = "[{\"w\":\"turn\",\"s\":1}]";
    CHECK_EQ_INT(store_append_input(c, &a), STORE_OK);
    CHECK_EQ_INT(
        one_number(c, "SELECT version FROM games WHERE game_id = $1", id), 1);
    PQfinish(c);
}

/* An input without a payload (a timeout, say) is stored with none and read
 * back with none, next to one with a payload. */
static void test_input_without_a_payload_reads_back(void)
{
    PGconn *c = connect_db();
    REQUIRE(c != NULL);
    char id[STORE_ID_MAX];
    REQUIRE(new_game(c, id) == STORE_OK);
    store_input in;
    memset(&in, 0, sizeof in);
    in.seq = 1;
    in.kind = ENGINE_TIMEOUT;
    snprintf(in.window, sizeof in.window, "turn");
    store_append a = {.game_id = id, .expected_version = 0, .input = &in};
    CHECK_EQ_INT(store_append_input(c, &a), STORE_OK);
    in.seq = 2;
    in.kind = ENGINE_PLAY;
    in.payload = json_pack("{s:i}", "cell", 4);
    a.expected_version = 1;
    CHECK_EQ_INT(store_append_input(c, &a), STORE_OK);
    json_decref(in.payload);
    store_input *got = NULL;
    size_t n = 0;
    REQUIRE(store_load_inputs(c, id, 0, &got, &n) == STORE_OK);
    REQUIRE(n == 2);
    CHECK(got[0].payload == NULL);
    CHECK_EQ_INT(got[0].kind, ENGINE_TIMEOUT);
    CHECK_EQ_INT(json_integer_value(json_object_get(got[1].payload, "cell")),
                 4);
    store_inputs_free(got, n);
    PQfinish(c);
}

/* An append whose stored answer cannot be encoded (json_dumps takes an
 * object or an array only; a bare number stands in for an encoding that
 * failed) is refused whole, never committed without its answer. */
static void test_unencodable_answer_refuses_the_append(void)
{
    PGconn *c = connect_db();
    REQUIRE(c != NULL);
    char id[STORE_ID_MAX];
    REQUIRE(new_game(c, id) == STORE_OK);
    store_input in;
    memset(&in, 0, sizeof in);
    in.seq = 1;
    in.kind = ENGINE_PLAY;
    uint8_t hash[32] = {1};
    json_t *answer = json_integer(5);
    store_append a = {.game_id = id,
                      .expected_version = 0,
                      .input = &in,
                      .idem_key = "key-1",
                      .request_hash = hash,
                      .response = answer};
    CHECK_EQ_INT(store_append_input(c, &a), STORE_EDB);
    CHECK_EQ_INT(
        one_number(c, "SELECT version FROM games WHERE game_id = $1", id), 0);
    json_decref(answer);
    PQfinish(c);
}

/* A batch on a connection whose session the server ended (noticed during
 * the batch, or already by a failed statement before it, when the batch
 * cannot even enter pipeline mode): store_append_batch reports the
 * connection lost (STORE_EDB, every append refused) instead of trying the
 * appends one by one on it, and nothing is committed. */
static void test_batch_on_a_lost_connection(void)
{
    for (int noticed = 0; noticed < 2; noticed++) {
        PGconn *c = connect_db(), *admin = connect_db();
        REQUIRE(c != NULL && admin != NULL);
        char id[2][STORE_ID_MAX];
        REQUIRE(new_game(admin, id[0]) == STORE_OK);
        REQUIRE(new_game(admin, id[1]) == STORE_OK);
        char pid[16];
        snprintf(pid, sizeof pid, "%d", PQbackendPID(c));
        /* the second argument: wait (up to 10 s) until the session ended */
        CHECK_EQ_INT(one_number(admin,
                                "SELECT count(*) FROM "
                                "pg_terminate_backend($1::integer, 10000) "
                                "AS t WHERE t",
                                pid),
                     1);
        if (noticed) {
            PQclear(PQexec(c, "SELECT 1"));
            CHECK_EQ_INT(PQstatus(c), CONNECTION_BAD);
        }
        store_input in[2];
        store_append a[2];
        const store_append *list[2];
        for (int i = 0; i < 2; i++) {
            memset(&in[i], 0, sizeof in[i]);
            in[i].seq = 1;
            in[i].kind = ENGINE_PLAY;
            a[i] = (store_append){
                .game_id = id[i], .expected_version = 0, .input = &in[i]};
            list[i] = &a[i];
        }
        int rcs[2] = {99, 99};
        CHECK_EQ_INT(store_append_batch(c, list, 2, rcs), STORE_EDB);
        CHECK_EQ_INT(rcs[0], STORE_EDB);
        CHECK_EQ_INT(rcs[1], STORE_EDB);
        for (int i = 0; i < 2; i++)
            CHECK_EQ_INT(one_number(admin,
                                    "SELECT version FROM games WHERE "
                                    "game_id = $1",
                                    id[i]),
                         0);
        PQfinish(c);
        PQfinish(admin);
    }
}

/* Two appends of one game in one batch (versions 1 and 2; the server's
 * actors never send them, but the store takes them): the batch statement
 * could not tell their outcomes apart, so they are appended one by one,
 * and both are stored, in order. */
static void test_batch_with_one_game_twice(void)
{
    PGconn *c = connect_db();
    REQUIRE(c != NULL);
    char id[2][STORE_ID_MAX];
    REQUIRE(new_game(c, id[0]) == STORE_OK);
    REQUIRE(new_game(c, id[1]) == STORE_OK);
    store_input in[3];
    store_append a[3];
    const store_append *list[3];
    const int game[3] = {0, 1, 0}; /* the first and the last: one game */
    const uint64_t expected[3] = {0, 0, 1};
    for (int i = 0; i < 3; i++) {
        memset(&in[i], 0, sizeof in[i]);
        in[i].seq = expected[i] + 1;
        in[i].seat = (int)expected[i] % 2;
        in[i].kind = ENGINE_PLAY;
        a[i] = (store_append){.game_id = id[game[i]],
                              .expected_version = expected[i],
                              .input = &in[i]};
        list[i] = &a[i];
    }
    int rcs[3] = {99, 99, 99};
    CHECK_EQ_INT(store_append_batch(c, list, 3, rcs), STORE_OK);
    for (int i = 0; i < 3; i++)
        CHECK_EQ_INT(rcs[i], STORE_OK);
    CHECK_EQ_INT(
        one_number(c, "SELECT version FROM games WHERE game_id = $1", id[0]),
        2);
    CHECK_EQ_INT(one_number(c,
                            "SELECT count(*) FROM game_inputs WHERE game_id "
                            "= $1 AND seq IN (1, 2)",
                            id[0]),
                 2);
    CHECK_EQ_INT(
        one_number(c, "SELECT version FROM games WHERE game_id = $1", id[1]),
        1);
    PQfinish(c);
}

/* A game's inputs written straight into the table as seq 3, 1, 2 and its
 * snapshots as seq 1, 3, 2, read on a connection that scans tables in
 * their physical order (no index scans, so without an ORDER BY rows come
 * as stored): the inputs load in seq order (all, after a seq, a page),
 * and the latest snapshot is seq 3 (at most 2: seq 2). */
static void test_loads_do_not_rely_on_row_order(void)
{
    PGconn *c = connect_db(), *scan = connect_db();
    REQUIRE(c != NULL && scan != NULL);
    char id[STORE_ID_MAX];
    REQUIRE(new_game(c, id) == STORE_OK);
    const char *p[] = {id};
    PGresult *r = PQexecParams(
        c,
        "INSERT INTO game_inputs (game_id, seq, seat, kind, window_id, "
        "payload) VALUES ($1, 3, 0, 'play', 'turn', '{\"cell\":3}'), ($1, 1, "
        "0, 'play', 'turn', '{\"cell\":1}'), ($1, 2, 1, 'play', 'turn', "
        "'{\"cell\":2}')",
        1, NULL, p, NULL, NULL, 0);
    CHECK_EQ_INT(PQresultStatus(r), PGRES_COMMAND_OK);
    PQclear(r);
    r = PQexecParams(c, "UPDATE games SET version = 3 WHERE game_id = $1", 1,
                     NULL, p, NULL, NULL, 0);
    CHECK_EQ_INT(PQresultStatus(r), PGRES_COMMAND_OK);
    PQclear(r);
    const int snaps[] = {1, 3, 2};
    for (int i = 0; i < 3; i++) {
        json_t *state = json_pack("{s:i}", "at", snaps[i]);
        CHECK_EQ_INT(
            store_write_snapshot(c, id, (uint64_t)snaps[i], state, "hash"),
            STORE_OK);
        json_decref(state);
    }
    PQclear(PQexec(scan, "SET enable_indexscan = off"));
    PQclear(PQexec(scan, "SET enable_indexonlyscan = off"));
    PQclear(PQexec(scan, "SET enable_bitmapscan = off"));
    /* the premise: this connection reads the rows as stored */
    REQUIRE(one_number(scan,
                       "SELECT seq FROM game_inputs WHERE game_id = $1 LIMIT 1",
                       id) == 3);
    REQUIRE(one_number(scan,
                       "SELECT seq FROM game_snapshots WHERE game_id = $1 "
                       "LIMIT 1",
                       id) == 1);
    static const struct {
        uint64_t after;
        size_t limit, n;
    } cases[] = {{0, 0, 3}, {1, 0, 2}, {0, 2, 2}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        store_input *in = NULL;
        size_t n = 0;
        CHECK_EQ_INT(store_load_inputs_page(scan, id, cases[k].after,
                                            cases[k].limit, &in, &n),
                     STORE_OK);
        CHECK_EQ_INT(n, cases[k].n);
        for (size_t i = 0; i < n && i < cases[k].n; i++) {
            uint64_t want = cases[k].after + 1 + i;
            CHECKF(in[i].seq == want, "after %d, limit %d: input %d is seq %d",
                   (int)cases[k].after, (int)cases[k].limit, (int)i,
                   (int)in[i].seq);
            CHECK_EQ_INT(
                json_integer_value(json_object_get(in[i].payload, "cell")),
                want);
        }
        store_inputs_free(in, n);
    }
    json_t *state = NULL;
    uint64_t seq = 0;
    CHECK_EQ_INT(store_load_snapshot(scan, id, &state, &seq), STORE_OK);
    CHECK_EQ_INT(seq, 3);
    CHECK_EQ_INT(json_integer_value(json_object_get(state, "at")), 3);
    json_decref(state);
    CHECK_EQ_INT(store_load_snapshot_upto(scan, id, 2, &state, &seq), STORE_OK);
    CHECK_EQ_INT(seq, 2);
    json_decref(state);
    PQfinish(scan);
    PQfinish(c);
}

int main(void)
{
    log_set_level(LOG_ERROR);
    if (test_db_open(&scratch, "faults", __FILE__) != 0)
        return 1;

    RUN(test_waits_synced_at_load);
    RUN(test_failed_reads_clear_their_out_parameters);
    RUN(test_unparsable_waits_refuse_the_append);
    RUN(test_input_without_a_payload_reads_back);
    RUN(test_unencodable_answer_refuses_the_append);
    RUN(test_batch_on_a_lost_connection);
    RUN(test_batch_with_one_game_twice);
    RUN(test_loads_do_not_rely_on_row_order);

    test_db_close(&scratch);
    return TEST_SUMMARY();
}

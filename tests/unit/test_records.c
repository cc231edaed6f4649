/*
 * test_records.c - per-player records across games (server/players/records.c
 * with the Galactic Sprint campaign hook) against the real Postgres
 * (DATABASE_URL, a fresh database per run).
 *
 * Covers: a player without games shows the hook's empty record; finished
 * solitaire campaign games fold into the record in the order they end
 * (start, continue, ignore a game of another campaign, check off one of
 * several new conditions, win, start again and lose); multi-seat games and
 * rulesets without a record hook leave records alone; games that finished
 * before records were stored are folded once, in the order they ended; a
 * game that ends first in a group commit's batch is folded and notified.
 */
#include "engine/engine.h"
#include "server/players/players.h"
#include "server/players/records.h"
#include "server/runtime/log.h"
#include "server/store/migrate.h"
#include "server/store/store.h"
#include "tests/unit/test.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char db_url[1000];
static PGconn *conn;
static db_pool *pool;

/* A new player; fills id. */
static void new_player(const char *name, char *id)
{
    char token[TOKENS_CHARS + 1];
    srv_error e = {0};
    srv_kind k = players_create(pool, name, NULL, id, token, &e);
    CHECKF(k == SRV_OK, "%s", e.detail);
}

/* A game of ruleset for player in seat 0 (other seats bots), finished now
 * with result: the records are folded as the store does at a game's end. */
static void finish(const char *ruleset, int seats, const char *player,
                   const char *options, const char *result)
{
    store_game g;
    memset(&g, 0, sizeof g);
    store_new_id(g.game_id);
    snprintf(g.ruleset, sizeof g.ruleset, "%s", ruleset);
    g.options = json_loads(options, 0, NULL);
    g.seats = seats;
    snprintf(g.clock_mode, sizeof g.clock_mode, "none");
    snprintf(g.seat_player[0], sizeof g.seat_player[0], "%s", player);
    for (int s = 1; s < seats; s++)
        snprintf(g.seat_bot[s], sizeof g.seat_bot[s], "random");
    CHECK_EQ_INT(store_create_game(conn, &g), STORE_OK);
    json_t *res = json_loads(result, 0, NULL);
    PQclear(PQexecParams(conn, "BEGIN", 0, NULL, NULL, NULL, NULL, 0));
    CHECK_EQ_INT(records_game_finished(conn, g.game_id, res), 0);
    PQclear(PQexecParams(conn, "COMMIT", 0, NULL, NULL, NULL, NULL, 0));
    json_decref(res);
    store_game_clear(&g);
}

/* A solitaire campaign game's options and result. */
static void campaign_game(const char *player, const char *met,
                          const char *final)
{
    char options[200], result[400];
    snprintf(options, sizeof options, "{\"campaign_conditions_met\":%s}", met);
    snprintf(result, sizeof result,
             "{\"solitaire\":true,\"campaign\":true,\"final\":{\"rounds\":7,"
             "\"chips\":0,\"income\":0,\"military\":0,\"military_worlds\":0,"
             "\"colours\":0,\"developments\":0,\"worlds\":0,%s}}",
             final);
    finish("sprint", 1, player, options, result);
}

static json_t *campaign_of(const char *player)
{
    json_t *all = records_of_player(conn, player);
    json_t *c = json_incref(json_object_get(all, "campaign"));
    json_decref(all);
    return c;
}

static int json_is(const json_t *j, const char *text)
{
    json_t *want = json_loads(text, JSON_DECODE_ANY, NULL);
    int same = json_equal(j, want);
    if (!same) {
        char *got = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
        fprintf(stderr, "got %s\nwant %s\n", got ? got : "NULL", text);
        free(got);
    }
    json_decref(want);
    return same;
}

static void test_empty_record(void)
{
    char id[STORE_ID_MAX];
    new_player("rec_empty", id);
    json_t *all = records_of_player(conn, id);
    CHECK(json_is(all, "{\"campaign\":{\"status\":\"none\",\"games\":[],"
                       "\"met\":[],\"next_options\":{"
                       "\"campaign_conditions_met\":[]}}}"));
    json_decref(all);
}

static void test_campaign_in_order(void)
{
    char id[STORE_ID_MAX];
    new_player("rec_camp", id);
    campaign_game(id, "[]", "\"chips\":70"); /* magnate */
    json_t *c = campaign_of(id);
    CHECK(json_is(c, "{\"status\":\"active\",\"met\":[\"magnate\"],\"games\":"
                     "[{\"conditions_met\":[\"magnate\"],\"checked\":"
                     "\"magnate\",\"chips\":70}],\"next_options\":{"
                     "\"campaign_conditions_met\":[\"magnate\"]}}"));
    json_decref(c);
    campaign_game(id, "[\"tycoon\"]", "\"chips\":90"); /* another campaign's */
    campaign_game(id, "[\"magnate\"]", "\"chips\":66,\"income\":10");
    c = campaign_of(id);
    CHECK(json_is(json_object_get(c, "met"), "[\"magnate\",\"tycoon\"]"));
    CHECK(json_is(json_array_get(json_object_get(c, "games"), 1),
                  "{\"conditions_met\":[\"magnate\",\"tycoon\"],\"checked\":"
                  "\"tycoon\",\"chips\":66}"));
    json_decref(c);
    campaign_game(id, "[\"tycoon\",\"magnate\"]",
                  "\"chips\":50,\"income\":10,\"military_worlds\":5,"
                  "\"colours\":30"); /* warlord and pathfinder new */
    c = campaign_of(id);
    CHECK(json_is(json_object_get(c, "met"),
                  "[\"magnate\",\"warlord\",\"tycoon\"]"));
    json_decref(c);
    campaign_game(id, "[\"magnate\",\"warlord\",\"tycoon\"]",
                  "\"chips\":45,\"colours\":30");
    c = campaign_of(id);
    CHECK(json_is(json_object_get(c, "status"), "\"won\""));
    CHECK_EQ_INT(json_array_size(json_object_get(c, "games")), 4);
    CHECK(json_is(json_object_get(c, "next_options"),
                  "{\"campaign_conditions_met\":[]}"));
    json_decref(c);
    campaign_game(id, "[]", "\"chips\":30");
    c = campaign_of(id);
    CHECK(json_is(c, "{\"status\":\"lost\",\"met\":[],\"games\":[{"
                     "\"conditions_met\":[],\"checked\":null,\"chips\":30}],"
                     "\"next_options\":{\"campaign_conditions_met\":[]}}"));
    json_decref(c);
}

static void test_other_games_leave_records_alone(void)
{
    char id[STORE_ID_MAX];
    new_player("rec_other", id);
    finish("sprint", 2, id, "{\"campaign_conditions_met\":[]}",
           "{\"final\":{\"chips\":70}}");
    finish("tictactoe", 2, id, "{}", "{\"winner\":0}");
    PGresult *r = PQexecParams(conn, "SELECT count(*) FROM player_records", 0,
                               NULL, NULL, NULL, NULL, 0);
    int rows = r && PQresultStatus(r) == PGRES_TUPLES_OK
                   ? atoi(PQgetvalue(r, 0, 0))
                   : -1;
    PQclear(r);
    json_t *c = campaign_of(id);
    CHECK(json_is(json_object_get(c, "status"), "\"none\""));
    json_decref(c);
    /* Only the campaign player of test_campaign_in_order has a row. */
    CHECK_EQ_INT(rows, 1);
}

/* A campaign game that finished before records were stored: its row says
 * finished with its result, `ago` seconds back, and no record was folded. */
static void finished_before_records(const char *player, const char *met,
                                    const char *final, int ago)
{
    store_game g;
    memset(&g, 0, sizeof g);
    store_new_id(g.game_id);
    snprintf(g.ruleset, sizeof g.ruleset, "sprint");
    char options[200], result[400], secs[16];
    snprintf(options, sizeof options, "{\"campaign_conditions_met\":%s}", met);
    g.options = json_loads(options, 0, NULL);
    g.seats = 1;
    snprintf(g.clock_mode, sizeof g.clock_mode, "none");
    snprintf(g.seat_player[0], sizeof g.seat_player[0], "%s", player);
    CHECK_EQ_INT(store_create_game(conn, &g), STORE_OK);
    snprintf(result, sizeof result,
             "{\"solitaire\":true,\"campaign\":true,\"final\":{\"rounds\":7,"
             "\"chips\":0,\"income\":0,\"military\":0,\"military_worlds\":0,"
             "\"colours\":0,\"developments\":0,\"worlds\":0,%s}}",
             final);
    snprintf(secs, sizeof secs, "%d", ago);
    const char *p[] = {g.game_id, result, secs};
    PGresult *r = PQexecParams(
        conn,
        "UPDATE games SET status = 'finished', result = $2::jsonb, "
        "updated_at = now() - make_interval(secs => $3::integer) "
        "WHERE game_id = $1",
        3, NULL, p, NULL, NULL, 0);
    CHECK(PQresultStatus(r) == PGRES_COMMAND_OK);
    PQclear(r);
    store_game_clear(&g);
}

/* Games that finished before the upgrade are folded into records once, in
 * the order they ended, by the first start after it. */
static void test_backfill_once_in_order(void)
{
    char id[STORE_ID_MAX];
    new_player("rec_backfill", id);
    /* Created out of order: the continuing game ended last. */
    finished_before_records(id, "[\"magnate\"]", "\"chips\":66,\"income\":10",
                            60);
    finished_before_records(id, "[]", "\"chips\":70", 120);
    json_t *c = campaign_of(id);
    CHECK(json_is(json_object_get(c, "status"), "\"none\""));
    json_decref(c);
    CHECK_EQ_INT(records_backfill(conn), 0);
    c = campaign_of(id);
    CHECK(json_is(json_object_get(c, "met"), "[\"magnate\",\"tycoon\"]"));
    CHECK_EQ_INT(json_array_size(json_object_get(c, "games")), 2);
    json_decref(c);
    /* A game played after the upgrade folds as usual; a second start must
     * not fold the old games again (that would restart the campaign). */
    campaign_game(id, "[\"magnate\",\"tycoon\"]", "\"chips\":40");
    CHECK_EQ_INT(records_backfill(conn), 0);
    c = campaign_of(id);
    CHECK_EQ_INT(json_array_size(json_object_get(c, "games")), 3);
    json_decref(c);
}

/* A game whose end folds records, first in a group commit's batch of two
 * (the other a tic-tac-toe move): both commit, the campaign's record holds
 * the game, and the batch's versions are notified on conclave_games (with
 * a record to fold, the COMMIT and the NOTIFY leave the pipeline and are
 * sent after the fold). */
static void test_record_folded_first_in_a_batch(void)
{
    char player[STORE_ID_MAX];
    new_player("rec_batch", player);
    store_game g[2];
    for (int i = 0; i < 2; i++) {
        memset(&g[i], 0, sizeof g[i]);
        store_new_id(g[i].game_id);
        snprintf(g[i].ruleset, sizeof g[i].ruleset, "%s",
                 i == 0 ? "sprint" : "tictactoe");
        g[i].options = json_loads(
            i == 0 ? "{\"campaign_conditions_met\":[]}" : "{}", 0, NULL);
        g[i].seats = i == 0 ? 1 : 2;
        snprintf(g[i].clock_mode, sizeof g[i].clock_mode, "none");
        snprintf(g[i].seat_player[0], sizeof g[i].seat_player[0], "%s", player);
        CHECK_EQ_INT(store_create_game(conn, &g[i]), STORE_OK);
    }
    PGconn *listen = db_connect(db_url, 5, NULL, 0);
    REQUIRE(listen != NULL);
    PQclear(PQexec(listen, "LISTEN conclave_games"));
    json_t *result = json_loads(
        "{\"solitaire\":true,\"campaign\":true,\"final\":{\"rounds\":7,"
        "\"chips\":70,\"income\":0,\"military\":0,\"military_worlds\":0,"
        "\"colours\":0,\"developments\":0,\"worlds\":0}}",
        0, NULL);
    store_input in[2];
    store_append a[2];
    const store_append *list[2];
    for (int i = 0; i < 2; i++) {
        memset(&in[i], 0, sizeof in[i]);
        in[i].seq = 1;
        in[i].seat = 0;
        in[i].kind = ENGINE_PLAY;
        a[i] = (store_append){
            .game_id = g[i].game_id, .expected_version = 0, .input = &in[i]};
        list[i] = &a[i];
    }
    a[0].final_status = "finished";
    a[0].keeps_records = 1;
    a[0].result = result;
    a[0].final_hash = "00";
    int rcs[2] = {99, 99};
    CHECK_EQ_INT(store_append_batch(conn, list, 2, rcs), STORE_OK);
    CHECK_EQ_INT(rcs[0], STORE_OK);
    CHECK_EQ_INT(rcs[1], STORE_OK);
    json_t *c = campaign_of(player);
    CHECK(json_is(json_object_get(c, "met"), "[\"magnate\"]"));
    CHECK_EQ_INT((int)json_array_size(json_object_get(c, "games")), 1);
    json_decref(c);
    /* Both games' new versions are notified (a hang-only bound of 10 s). */
    int seen[2] = {0, 0};
    for (int tries = 0; tries < 100 && !(seen[0] && seen[1]); tries++) {
        PQconsumeInput(listen);
        PGnotify *n;
        while ((n = PQnotifies(listen)) != NULL) {
            for (int i = 0; i < 2; i++)
                if (strstr(n->extra, g[i].game_id))
                    seen[i] = 1;
            PQfreemem(n);
        }
        if (!(seen[0] && seen[1]))
            usleep(100000);
    }
    CHECK(seen[0]);
    CHECK(seen[1]);
    PQfinish(listen);
    json_decref(result);
    for (int i = 0; i < 2; i++)
        store_game_clear(&g[i]);
}

int main(void)
{
    const char *base = getenv("DATABASE_URL");
    if (!base) {
        fprintf(stderr, "DATABASE_URL is not set (run through make test)\n");
        printf("RESULT %s: 0 passed, 1 failed\n", __FILE__);
        return 1;
    }
    log_set_level(LOG_ERROR);
    engine_error eerr;
    if (engine_init(&eerr) != 0)
        return 1;
    char err[256], name[64];
    snprintf(name, sizeof name, "conclave_records_%ld_%d", (long)time(NULL),
             (int)getpid());
    PGconn *c = db_connect(base, 5, err, sizeof err);
    if (!c || strlen(base) > 900) {
        fprintf(stderr, "cannot connect: %s\n", err);
        printf("RESULT %s: 0 passed, 1 failed\n", __FILE__);
        return 1;
    }
    if (db_scratch_database(c, name, 1) != 0) {
        fprintf(stderr, "cannot create the database %s\n", name);
        printf("RESULT %s: 0 passed, 1 failed\n", __FILE__);
        return 1;
    }
    snprintf(db_url, sizeof db_url, "%.900s%cdbname=%.60s", base,
             strchr(base, '?') ? '&' : '?', name);
    conn = db_connect(db_url, 5, err, sizeof err);
    const char *sql_dir = getenv("CONCLAVE_SQL_DIR");
    if (!conn ||
        migrate_apply(conn, sql_dir ? sql_dir : "sql", err, sizeof err) < 0) {
        fprintf(stderr, "cannot prepare the test database: %s\n", err);
        printf("RESULT %s: 0 passed, 1 failed\n", __FILE__);
        return 1;
    }
    pool = db_pool_create(db_url, 2, 3);
    RUN(test_empty_record);
    RUN(test_campaign_in_order);
    RUN(test_other_games_leave_records_alone);
    RUN(test_backfill_once_in_order);
    RUN(test_record_folded_first_in_a_batch);
    db_pool_destroy(pool);
    PQfinish(conn);
    db_scratch_database(c, name, 0);
    PQfinish(c);
    return TEST_SUMMARY();
}

/*
 * test_notify_listened.c - the in-memory set of players with a notification
 * channel (server/notify/notify_listened.h), against a scratch database of
 * DATABASE_URL with the migrations applied.
 *
 * Covers: before any load everyone counts as listening; a load takes the
 * players with a webhook or a verified address and nobody else; a webhook
 * added or deleted through notify_settings refreshes its player at once
 * (no reload); any seat of a game counts, not only the first; empty seats
 * are skipped.
 */
#include "server/notify/notify_listened.h"
#include "server/notify/notify_settings.h"
#include "server/players/players.h"
#include "server/runtime/log.h"
#include "server/store/migrate.h"
#include "tests/unit/test.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char db_url[1000];
static PGconn *conn;
static db_pool *pool;

static void new_player(const char *name, char *id)
{
    char token[TOKENS_CHARS + 1];
    srv_error e = {0};
    srv_kind k = players_create(pool, name, NULL, id, token, &e);
    CHECKF(k == SRV_OK, "%s", e.detail);
}

static int listens(const char *id)
{
    const char *one[] = {id};
    return notify_listened_any(one, 1);
}

static void test_the_set_follows_the_channels(void)
{
    char quiet[STORE_ID_MAX], hooked[STORE_ID_MAX], mailed[STORE_ID_MAX];
    new_player("lis_quiet", quiet);
    new_player("lis_hooked", hooked);
    new_player("lis_mailed", mailed);
    notify_listened_reset();
    CHECK(listens(quiet)); /* not loaded: everyone */

    json_t *hook = NULL;
    srv_error e = {0};
    CHECK_EQ_INT(notify_webhook_add(pool, hooked, "http://127.0.0.1:9/h", NULL,
                                    1, &hook, &e),
                 SRV_OK);
    const char *p[] = {mailed};
    PQclear(PQexecParams(conn,
                         "INSERT INTO notify_settings (player_id, email, "
                         "email_verified) VALUES ($1, 'm@example.test', true)",
                         1, NULL, p, NULL, NULL, 0));
    REQUIRE(notify_listened_reload(conn) == 0);
    CHECK(!listens(quiet));
    CHECK(listens(hooked));
    CHECK(listens(mailed));

    /* A game: the listener in the last seat counts, empty seats do not. */
    const char *seats[] = {quiet, "", NULL, hooked};
    CHECK(notify_listened_any(seats, 4));
    CHECK(!notify_listened_any(seats, 3));

    /* Changes through the settings refresh the player without a reload. */
    json_t *hook2 = NULL;
    CHECK_EQ_INT(notify_webhook_add(pool, quiet, "http://127.0.0.1:9/q", NULL,
                                    1, &hook2, &e),
                 SRV_OK);
    CHECK(listens(quiet));
    CHECK_EQ_INT(
        notify_webhook_delete(
            pool, hooked, json_string_value(json_object_get(hook, "id")), &e),
        SRV_OK);
    CHECK(!listens(hooked));
    CHECK(listens(quiet));
    json_decref(hook);
    json_decref(hook2);
    notify_listened_reset();
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
    char err[256], name[64];
    snprintf(name, sizeof name, "conclave_listened_%ld_%d", (long)time(NULL),
             (int)getpid());
    PGconn *c = db_connect(base, 5, err, sizeof err);
    if (!c || strlen(base) > 900 || db_scratch_database(c, name, 1) != 0) {
        fprintf(stderr, "cannot create the database %s: %s\n", name, err);
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
    RUN(test_the_set_follows_the_channels);
    db_pool_destroy(pool);
    PQfinish(conn);
    db_scratch_database(c, name, 0);
    PQfinish(c);
    return TEST_SUMMARY();
}

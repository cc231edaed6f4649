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
#include "tests/unit/test_db.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static test_db scratch; /* the scratch database; scratch.url */
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
    log_set_level(LOG_ERROR);
    char err[256];
    if (test_db_open(&scratch, "listened", __FILE__) != 0)
        return 1;
    conn = db_connect(scratch.url, 5, err, sizeof err);
    if (!conn) {
        fprintf(stderr, "cannot connect: %s\n", err);
        printf("RESULT %s: 0 passed, 1 failed\n", __FILE__);
        return 1;
    }
    pool = db_pool_create(scratch.url, 2, 3);
    RUN(test_the_set_follows_the_channels);
    db_pool_destroy(pool);
    PQfinish(conn);
    test_db_close(&scratch);
    return TEST_SUMMARY();
}

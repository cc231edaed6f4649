/*
 * notify_channel.c - a game's group channel: the one webhook a seated
 * player or the game's host attaches to a game, to which the notifier
 * posts only what the public audience may see (see notify_settings.h and
 * notify_plan.h). Stored as a notify_webhooks row with its game_id set
 * (sql/016_webhook_formats.sql), so the sender's caps, ordering and
 * circuit breaker apply to it unchanged.
 */
#include "server/notify/notify_listened.h"
#include "server/notify/notify_settings.h"

#include "server/notify/notify_rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DB_WAIT_MS 2000

#define UTC(col)                                                               \
    "to_char(" col " AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"

/* The game's status, whether spectators are delayed, and whether the
 * caller may manage its channel (seated, or the lobby's host). */
static const char ACCESS[] =
    "SELECT g.status, g.delay_versions > 0 OR g.delay_seconds > 0, "
    " EXISTS (SELECT 1 FROM game_seats s WHERE s.game_id = g.game_id AND "
    "  s.player_id = $2) OR EXISTS (SELECT 1 FROM lobbies l WHERE l.id = "
    "  g.lobby_id AND l.host_id = $2) "
    "FROM games g WHERE g.game_id = $1";

/* clang-format off */
static const char SELECT_CHANNEL[] =
    "SELECT json_build_object('game_id', w.game_id, 'format', w.format, "
    " 'url', CASE WHEN w.player_id = $2 THEN w.url END, "
    " 'added_by', json_build_object('id', p.id, 'name', p.name), "
    " 'created_at', " UTC("w.created_at") ", 'state', CASE WHEN "
    " w.retry_at > now() THEN 'paused' WHEN w.failures > 0 THEN 'failing' "
    " ELSE 'ok' END, 'failures', w.failures, 'failing_since', "
    UTC("w.failing_since") ", 'next_try', CASE WHEN w.retry_at > now() "
    " THEN " UTC("w.retry_at") " END, 'last_error', w.last_error)::text "
    "FROM notify_webhooks w JOIN players p ON p.id = w.player_id "
    "WHERE w.game_id = $1";
/* clang-format on */

/* SRV_OK when player_id may manage game_id's channel; *running and
 * *delayed set. */
static srv_kind access_of(PGconn *c, const char *player_id, const char *game_id,
                          int *running, int *delayed, srv_error *err)
{
    PGresult *r = db_exec(c, PGRES_TUPLES_OK, ACCESS, 2,
                          (const char *const[]){game_id, player_id});
    if (!r)
        return srv_db_failed(err);
    srv_kind k = SRV_OK;
    if (PQntuples(r) != 1)
        k = srv_fail(err, SRV_NOT_FOUND, NULL, "no such game");
    else if (PQgetvalue(r, 0, 2)[0] != 't')
        k = srv_fail(err, SRV_FORBIDDEN, NULL,
                     "only a player seated in the game or its host may "
                     "manage its group channel");
    else {
        *running = strcmp(PQgetvalue(r, 0, 0), "running") == 0;
        *delayed = PQgetvalue(r, 0, 1)[0] == 't';
    }
    PQclear(r);
    return k;
}

static srv_kind read_channel(PGconn *c, const char *player_id,
                             const char *game_id, json_t **out, srv_error *err)
{
    PGresult *r = db_exec(c, PGRES_TUPLES_OK, SELECT_CHANNEL, 2,
                          (const char *const[]){game_id, player_id});
    if (!r)
        return srv_db_failed(err);
    srv_kind k = SRV_OK;
    if (PQntuples(r) != 1)
        k = srv_fail(err, SRV_NOT_FOUND, NULL, "the game has no group channel");
    else if (!(*out = json_loads(PQgetvalue(r, 0, 0), 0, NULL)))
        k = srv_fail(err, SRV_INTERNAL, NULL, "out of memory");
    PQclear(r);
    return k;
}

/* Attach, in one statement: the row replaces any earlier channel of the
 * game (whose posts still pending are dropped), and a 'version' fact makes
 * the notifier tell the new channel whose move it is now. */
static const char ATTACH[] =
    "WITH old AS (SELECT id FROM notify_webhooks WHERE game_id = $1), "
    "up AS (INSERT INTO notify_webhooks (id, player_id, url, secret, "
    " format, game_id) VALUES ($2, $3, $4, $5, $6, $1) "
    " ON CONFLICT (game_id) WHERE game_id IS NOT NULL DO UPDATE SET "
    " id = EXCLUDED.id, player_id = EXCLUDED.player_id, url = EXCLUDED.url, "
    " secret = EXCLUDED.secret, format = EXCLUDED.format, created_at = "
    " now(), failures = 0, failing_since = NULL, retry_at = NULL, "
    " last_error = NULL RETURNING id), "
    "dropped AS (UPDATE notify_deliveries SET status = 'dropped' WHERE "
    " channel = 'webhook' AND target IN (SELECT id FROM old) AND status = "
    " 'pending'), "
    "fact AS (INSERT INTO notify_facts (game_id, kind, version) SELECT "
    " game_id, 'version', version FROM games WHERE game_id = $1) "
    "SELECT count(*) FROM up";

srv_kind notify_channel_put(db_pool *db, const char *player_id,
                            const char *game_id, const char *url,
                            const char *format, int allow_private, json_t **out,
                            srv_error *err)
{
    srv_kind checked = notify_webhook_check(url, format, allow_private, err);
    if (checked != SRV_OK)
        return checked;
    if (!format)
        format = "conclave";
    char id[2 * 8 + 3] = "gc", secret[2 * 24 + 7] = "whsec_";
    if (notify_random_hex(id + 2, 8) || notify_random_hex(secret + 6, 24))
        return srv_fail(err, SRV_INTERNAL, NULL, "no randomness");
    PGconn *c = db_acquire(db, DB_WAIT_MS);
    if (!c)
        return srv_db_failed(err);
    int running = 0, delayed = 0;
    srv_kind k = access_of(c, player_id, game_id, &running, &delayed, err);
    if (k == SRV_OK && !running)
        k = srv_fail(err, SRV_CONFLICT, NULL, "the game is not running");
    else if (k == SRV_OK && delayed)
        k = srv_fail(err, SRV_INVALID, "game",
                     "the game has a spectator delay: a group channel would "
                     "be told what its spectators may not see yet");
    if (k == SRV_OK) {
        PGresult *r = db_exec(
            c, PGRES_TUPLES_OK, ATTACH, 6,
            (const char *const[]){game_id, id, player_id, url, secret, format});
        if (!r)
            k = srv_db_failed(err);
        PQclear(r);
    }
    if (k == SRV_OK) {
        (void)notify_listened_game_refresh(c, game_id);
        k = read_channel(c, player_id, game_id, out, err);
    }
    if (k == SRV_OK)
        json_object_set_new(*out, "secret", json_string(secret));
    db_release(db, c, k == SRV_UNAVAILABLE && db_conn_broken(c));
    return k;
}

srv_kind notify_channel_get(db_pool *db, const char *player_id,
                            const char *game_id, json_t **out, srv_error *err)
{
    PGconn *c = db_acquire(db, DB_WAIT_MS);
    if (!c)
        return srv_db_failed(err);
    int running = 0, delayed = 0;
    srv_kind k = access_of(c, player_id, game_id, &running, &delayed, err);
    if (k == SRV_OK)
        k = read_channel(c, player_id, game_id, out, err);
    db_release(db, c, k == SRV_UNAVAILABLE && db_conn_broken(c));
    return k;
}

srv_kind notify_channel_delete(db_pool *db, const char *player_id,
                               const char *game_id, srv_error *err)
{
    PGconn *c = db_acquire(db, DB_WAIT_MS);
    if (!c)
        return srv_db_failed(err);
    int running = 0, delayed = 0;
    srv_kind k = access_of(c, player_id, game_id, &running, &delayed, err);
    PGresult *r = NULL;
    if (k == SRV_OK &&
        !(r = db_exec(c, PGRES_TUPLES_OK,
                      "WITH gone AS (DELETE FROM notify_webhooks WHERE "
                      " game_id = $1 RETURNING id), "
                      "dropped AS (UPDATE notify_deliveries SET status = "
                      " 'dropped' WHERE channel = 'webhook' AND target IN "
                      " (SELECT id FROM gone) AND status = 'pending') "
                      "SELECT count(*) FROM gone",
                      1, (const char *const[]){game_id})))
        k = srv_db_failed(err);
    else if (k == SRV_OK && atoi(PQgetvalue(r, 0, 0)) != 1)
        k = srv_fail(err, SRV_NOT_FOUND, NULL, "the game has no group channel");
    PQclear(r);
    if (k == SRV_OK)
        (void)notify_listened_game_refresh(c, game_id);
    db_release(db, c, k == SRV_UNAVAILABLE && db_conn_broken(c));
    return k;
}

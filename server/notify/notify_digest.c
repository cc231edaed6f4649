/*
 * notify_digest.c - the daily digest: a player who chose it gets their
 * notifications held ('held' deliveries) and, once a day at their
 * digest_hour (their local time), one delivery per channel listing them
 * (webhook: {"event":"digest","items":[bodies]}, or for a Discord or Slack
 * webhook one message of their words; mail: the texts one after another).
 * Claiming a player's digest and writing it is one transaction.
 */
#include "server/notify/notify_internal.h"

#include "server/notify/notify_format.h"

#include "server/runtime/metrics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DB_WAIT_MS 1000

static const char DUE[] =
    "UPDATE notify_settings s SET last_digest_at = now() "
    "WHERE s.player_id IN (SELECT player_id FROM notify_settings x WHERE "
    " x.digest AND (x.last_digest_at IS NULL OR x.last_digest_at < now() - "
    " interval '23 hours') AND extract(hour FROM (now() AT TIME ZONE 'UTC') "
    " + make_interval(mins => x.utc_offset)) = x.digest_hour AND EXISTS "
    " (SELECT 1 FROM notify_deliveries d WHERE d.player_id = x.player_id "
    " AND d.status = 'held') LIMIT 20 FOR UPDATE SKIP LOCKED) "
    "RETURNING s.player_id, to_char(now() AT TIME ZONE 'UTC', "
    " 'YYYYMMDDHH24')";

/* The format of webhook id into *f (conclave when it is gone). 0 or -1. */
static int webhook_format(PGconn *c, const char *id, notify_format *f)
{
    PGresult *r = db_exec(c, PGRES_TUPLES_OK,
                          "SELECT format FROM notify_webhooks WHERE id = $1", 1,
                          (const char *const[]){id});
    if (!r)
        return -1;
    if (PQntuples(r) == 1)
        (void)notify_format_parse(PQgetvalue(r, 0, 0), f);
    PQclear(r);
    return 0;
}

/* One channel and target of a player's held rows into one delivery. */
static int digest_one(PGconn *c, const char *player, const char *stamp,
                      const char *channel, const char *target)
{
    const char *p[] = {player, channel, target};
    PGresult *r = db_exec(c, PGRES_TUPLES_OK,
                          "UPDATE notify_deliveries SET status = 'digested' "
                          "WHERE player_id = $1 AND channel = $2 AND target "
                          "= $3 AND status = 'held' RETURNING body",
                          3, p);
    if (!r)
        return -1;
    json_t *items = json_array();
    size_t len = 64;
    for (int i = 0; i < PQntuples(r); i++)
        len += strlen(PQgetvalue(r, i, 0)) + 8;
    char *text = malloc(len);
    size_t at =
        text ? (size_t)snprintf(text, len, "Your Conclave digest.\r\n\r\n") : 0;
    for (int i = 0; text && i < PQntuples(r); i++) {
        json_array_append_new(items, json_loads(PQgetvalue(r, i, 0), 0, NULL));
        at += (size_t)snprintf(text + at, len - at, "%s\r\n---\r\n",
                               PQgetvalue(r, i, 0));
    }
    PQclear(r);
    int webhook = strcmp(channel, "webhook") == 0;
    notify_format f = NOTIFY_FORMAT_CONCLAVE;
    if (webhook && webhook_format(c, target, &f) != 0) {
        free(text);
        json_decref(items);
        return -1;
    }
    char *body = !webhook                      ? text
                 : f == NOTIFY_FORMAT_CONCLAVE ? notify_digest_json(items)
                                               : notify_format_digest(f, items);
    char id[160];
    snprintf(id, sizeof id, "digest:%s:%s", player, stamp);
    const char *q[] = {id, channel, target, player, body};
    int rc = body ? notify_exec(c, PGRES_COMMAND_OK,
                                "INSERT INTO notify_deliveries (game_id, "
                                "notification_id, channel, target, player_id, "
                                "kind, subject, body) VALUES ('', $1, $2, $3, "
                                "$4, 'digest', 'Conclave: your daily digest', "
                                "$5) ON CONFLICT DO NOTHING",
                                5, q)
                  : -1;
    if (webhook)
        free(body);
    free(text);
    json_decref(items);
    return rc;
}

static int digest_player(PGconn *c, const char *player, const char *stamp)
{
    const char *p[] = {player};
    PGresult *r = db_exec(c, PGRES_TUPLES_OK,
                          "SELECT DISTINCT channel, target FROM "
                          "notify_deliveries WHERE player_id = $1 AND "
                          "status = 'held'",
                          1, p);
    if (!r)
        return -1;
    int rc = 0;
    for (int i = 0; i < PQntuples(r) && rc == 0; i++)
        rc = digest_one(c, player, stamp, PQgetvalue(r, i, 0),
                        PQgetvalue(r, i, 1));
    PQclear(r);
    return rc;
}

int notify_digest(notifier *n)
{
    PGconn *c = db_acquire(n->app->db, DB_WAIT_MS);
    if (!c)
        return -1;
    int done = 0, failed = notify_exec(c, PGRES_COMMAND_OK, "BEGIN", 0, NULL);
    PGresult *r = failed ? NULL : db_exec(c, PGRES_TUPLES_OK, DUE, 0, NULL);
    failed = !r;
    for (int i = 0; r && i < PQntuples(r) && !failed; i++) {
        failed = digest_player(c, PQgetvalue(r, i, 0), PQgetvalue(r, i, 1));
        done++;
    }
    PQclear(r);
    if (!failed && notify_exec(c, PGRES_COMMAND_OK, "COMMIT", 0, NULL) != 0)
        failed = 1;
    db_release(n->app->db, c, failed && db_conn_broken(c));
    if (done && !failed)
        metrics_count("conclave_notify_digests_total",
                      "Players whose daily digest was written.",
                      (uint64_t)done);
    return failed ? -1 : done;
}

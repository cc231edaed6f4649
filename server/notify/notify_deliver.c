/*
 * notify_deliver.c - sending the outbox: claim due deliveries (FOR UPDATE
 * SKIP LOCKED, then a lease of LEASE seconds in next_at, committed before
 * the network is touched), send each, then mark it sent, or due again
 * after an exponential backoff, or dead after notify_attempts tries. A
 * process that dies mid-send leaves the lease to lapse, and the delivery
 * is sent again with the same notification id: at least once. Quiet
 * hours push a delivery to their end without spending an attempt.
 */
#include "server/notify/notify_internal.h"

#include "server/notify/notify_rules.h"
#include "server/notify/notify_send.h"
#include "server/runtime/log.h"
#include "server/runtime/metrics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DB_WAIT_MS 1000
#define LEASE "15" /* seconds: more than a send may take */

static const char CLAIM[] =
    "WITH due AS (SELECT game_id, notification_id, channel, target FROM "
    " notify_deliveries WHERE status = 'pending' AND next_at <= now() "
    " ORDER BY next_at LIMIT 10 FOR UPDATE SKIP LOCKED) "
    "UPDATE notify_deliveries d SET attempts = d.attempts + 1, "
    " next_at = now() + interval '" LEASE " seconds' FROM due "
    "WHERE d.game_id = due.game_id AND d.notification_id = "
    " due.notification_id AND d.channel = due.channel AND d.target = "
    " due.target "
    "RETURNING d.game_id, d.notification_id, d.channel, d.target, d.kind, "
    " d.subject, d.body, d.attempts, "
    " (SELECT s.quiet_start FROM notify_settings s WHERE s.player_id = "
    "  d.player_id), "
    " (SELECT s.quiet_end FROM notify_settings s WHERE s.player_id = "
    "  d.player_id), "
    " (SELECT s.utc_offset FROM notify_settings s WHERE s.player_id = "
    "  d.player_id), "
    " (SELECT w.url FROM notify_webhooks w WHERE w.id = d.target AND "
    "  d.channel = 'webhook' AND w.player_id = d.player_id), "
    " (SELECT w.secret FROM notify_webhooks w WHERE w.id = d.target AND "
    "  d.channel = 'webhook' AND w.player_id = d.player_id), "
    " (SELECT s.email = d.target AND (s.email_verified OR d.kind = "
    "  'verify') FROM notify_settings s WHERE s.player_id = d.player_id)";

enum {
    C_GAME,
    C_ID,
    C_CHANNEL,
    C_TARGET,
    C_KIND,
    C_SUBJECT,
    C_BODY,
    C_ATTEMPTS,
    C_QSTART,
    C_QEND,
    C_OFFSET,
    C_URL,
    C_SECRET,
    C_MAILOK
};

/* The outcome of one delivery, written back. */
static int settle(PGconn *c, PGresult *r, int i, const char *status,
                  double delay, const char *error, int refund)
{
    char wait[32];
    snprintf(wait, sizeof wait, "%.3f", delay);
    const char *p[] = {PQgetvalue(r, i, C_GAME),
                       PQgetvalue(r, i, C_ID),
                       PQgetvalue(r, i, C_CHANNEL),
                       PQgetvalue(r, i, C_TARGET),
                       status,
                       wait,
                       error,
                       refund ? "1" : "0"};
    return notify_exec(
        c, PGRES_COMMAND_OK,
        "UPDATE notify_deliveries SET status = $5, next_at = now() + "
        " make_interval(secs => $6::double precision), last_error = "
        " coalesce($7, last_error), attempts = attempts - $8::int, "
        " sent_at = CASE WHEN $5 = 'sent' THEN now() END "
        "WHERE game_id = $1 AND notification_id = $2 AND channel = $3 AND "
        " target = $4",
        8, p);
}

static int send_row(notifier *n, PGresult *r, int i, char *err, size_t cap)
{
    const char *id = PQgetvalue(r, i, C_ID);
    if (strcmp(PQgetvalue(r, i, C_CHANNEL), "webhook") == 0)
        return notify_send_webhook(PQgetvalue(r, i, C_URL),
                                   PQgetvalue(r, i, C_SECRET), id,
                                   PQgetvalue(r, i, C_BODY), err, cap);
    return notify_send_email(n->app->cfg->smtp_url, n->app->cfg->smtp_from,
                             PQgetvalue(r, i, C_TARGET),
                             PQgetvalue(r, i, C_SUBJECT), id,
                             PQgetvalue(r, i, C_BODY), err, cap);
}

/* Whether the row may still go: its webhook exists, its address is the
 * player's (verified, or being verified), email is on. */
static int still_wanted(notifier *n, PGresult *r, int i)
{
    if (strcmp(PQgetvalue(r, i, C_CHANNEL), "webhook") == 0)
        return !PQgetisnull(r, i, C_URL);
    return n->email_on && PQgetvalue(r, i, C_MAILOK)[0] == 't';
}

static void count(const char *name, const char *help)
{
    metrics_count(name, help, 1);
}

/* Handle claimed row i: 0, or -1 when the database failed. */
static int deliver_one(notifier *n, PGconn *c, PGresult *r, int i)
{
    time_t until;
    int verify = strcmp(PQgetvalue(r, i, C_KIND), "verify") == 0;
    if (!still_wanted(n, r, i))
        return settle(c, r, i, "dropped", 0, "no longer wanted", 1);
    if (!verify && !PQgetisnull(r, i, C_QSTART) && !PQgetisnull(r, i, C_QEND) &&
        notify_quiet(atoi(PQgetvalue(r, i, C_QSTART)),
                     atoi(PQgetvalue(r, i, C_QEND)),
                     atoi(PQgetvalue(r, i, C_OFFSET)), time(NULL), &until)) {
        count("conclave_notify_quiet_total",
              "Deliveries put off until the end of quiet hours.");
        return settle(c, r, i, "pending", difftime(until, time(NULL)), NULL, 1);
    }
    char err[256] = "";
    if (send_row(n, r, i, err, sizeof err) == 0) {
        count("conclave_notify_sent_total", "Notification deliveries sent.");
        return settle(c, r, i, "sent", 0, NULL, 0);
    }
    int attempts = atoi(PQgetvalue(r, i, C_ATTEMPTS));
    count("conclave_notify_failures_total",
          "Notification delivery attempts that failed.");
    log_warn("notify_failed",
             json_pack("{ss ss si ss}", "id", PQgetvalue(r, i, C_ID), "channel",
                       PQgetvalue(r, i, C_CHANNEL), "attempts", attempts,
                       "error", err));
    if (attempts >= n->app->cfg->notify_attempts) {
        count("conclave_notify_dead_total",
              "Notification deliveries given up after every retry.");
        return settle(c, r, i, "dead", 0, err, 0);
    }
    return settle(c, r, i, "pending",
                  notify_backoff(n->app->cfg->notify_retry_ms, attempts), err,
                  0);
}

int notify_deliver(notifier *n)
{
    PGconn *c = db_acquire(n->app->db, DB_WAIT_MS);
    if (!c)
        return -1;
    PGresult *r = db_exec(c, PGRES_TUPLES_OK, CLAIM, 0, NULL);
    if (!r) {
        db_release(n->app->db, c, db_conn_broken(c));
        return -1;
    }
    int rows = PQntuples(r), failed = 0;
    for (int i = 0; i < rows && !failed; i++)
        failed = deliver_one(n, c, r, i) != 0;
    PQclear(r);
    db_release(n->app->db, c, failed && db_conn_broken(c));
    return failed ? -1 : rows;
}

/*
 * notify_settings.c - a player's notification settings, webhooks and
 * email verification (see notify_settings.h).
 */
#include "server/notify/notify_settings.h"
#include "server/notify/notify_listened.h"

#include "server/notify/notify_dest.h"
#include "server/notify/notify_format.h"
#include "server/notify/notify_rules.h"

#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DB_WAIT_MS 2000
#define TOKEN_BYTES 32
#define UNSUBSCRIBE_BYTES 24 /* 48 hex digits, the column's check */

/* A time as "YYYY-MM-DDTHH:MM:SSZ" (NULL stays NULL). */
#define UTC(col)                                                               \
    "to_char(" col " AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"

/* A webhook's state by its circuit breaker. */
#define WEBHOOK_STATE                                                          \
    "CASE WHEN w.retry_at > now() THEN 'paused' WHEN w.failures > 0 THEN "     \
    "'failing' ELSE 'ok' END"

/* clang-format off */
static const char SELECT_SETTINGS[] =
    "SELECT s.email, s.email_verified, s.quiet_start, s.quiet_end, "
    " coalesce(s.utc_offset, 0), coalesce(s.digest, false), "
    " coalesce(s.digest_hour, 8), coalesce(s.reminder_seconds, 7200), "
    " (SELECT coalesce(json_agg(json_build_object('id', w.id, 'url', w.url, "
    "   'format', w.format, 'created_at', " UTC("w.created_at") ", "
    "   'state', " WEBHOOK_STATE ", 'failures', w.failures, "
    "   'failing_since', " UTC("w.failing_since") ", 'next_try', CASE WHEN "
    "   w.retry_at > now() THEN " UTC("w.retry_at") " END, 'last_error', "
    "   w.last_error) ORDER BY w.created_at, w.id), '[]')::text "
    "  FROM notify_webhooks w WHERE w.player_id = $1 AND w.game_id IS NULL) "
    "FROM (SELECT $1::text AS id) p "
    "LEFT JOIN notify_settings s ON s.player_id = p.id";
/* clang-format on */

static json_t *hhmm(int minutes)
{
    return json_sprintf("%02d:%02d", minutes / 60, minutes % 60);
}

static json_t *settings_doc(PGresult *r, int email_available)
{
    int quiet = !PQgetisnull(r, 0, 2) && !PQgetisnull(r, 0, 3);
    json_t *hooks = json_loads(PQgetvalue(r, 0, 8), 0, NULL);
    json_t *doc = json_pack(
        "{s:o s:b s:b s:o s:i s:b s:i s:i s:o}", "email",
        PQgetisnull(r, 0, 0) ? json_null() : json_string(PQgetvalue(r, 0, 0)),
        "email_verified", PQgetvalue(r, 0, 1)[0] == 't', "email_available",
        email_available, "quiet_hours",
        quiet ? json_pack("{s:o s:o}", "start", hhmm(atoi(PQgetvalue(r, 0, 2))),
                          "end", hhmm(atoi(PQgetvalue(r, 0, 3))))
              : json_null(),
        "utc_offset", atoi(PQgetvalue(r, 0, 4)), "digest",
        PQgetvalue(r, 0, 5)[0] == 't', "digest_hour", atoi(PQgetvalue(r, 0, 6)),
        "reminder_seconds", atoi(PQgetvalue(r, 0, 7)), "webhooks",
        hooks ? hooks : json_array());
    return doc;
}

static srv_kind read_settings(PGconn *c, const char *player_id,
                              int email_available, json_t **out, srv_error *err)
{
    const char *p[] = {player_id};
    PGresult *r = db_exec(c, PGRES_TUPLES_OK, SELECT_SETTINGS, 1, p);
    if (!r)
        return srv_db_failed(err);
    *out = settings_doc(r, email_available);
    PQclear(r);
    return *out ? SRV_OK : srv_fail(err, SRV_INTERNAL, NULL, "out of memory");
}

srv_kind notify_settings_get(db_pool *db, const char *player_id,
                             int email_available, json_t **out, srv_error *err)
{
    PGconn *c = db_acquire(db, DB_WAIT_MS);
    if (!c)
        return srv_db_failed(err);
    srv_kind k = read_settings(c, player_id, email_available, out, err);
    db_release(db, c, k == SRV_UNAVAILABLE && db_conn_broken(c));
    return k;
}

/* "HH:MM" into minutes of the day, or -1. */
static int parse_hhmm(const json_t *j)
{
    const char *s = json_string_value(j);
    int h, m;
    char tail;
    if (!s || strlen(s) != 5 || sscanf(s, "%2d:%2d%c", &h, &m, &tail) != 2 ||
        h < 0 || h > 23 || m < 0 || m > 59)
        return -1;
    return h * 60 + m;
}

/* One settings change, checked: the values as text for the UPDATE ($2..),
 * NULL where the member is absent (kept). */
typedef struct change {
    char email[256], quiet_start[8], quiet_end[8], offset[8], digest[8],
        digest_hour[8], reminder[16];
    int has_email, email_null, has_quiet, quiet_null, has_offset, has_digest,
        has_hour, has_reminder;
} change;

static srv_kind int_member(const json_t *body, const char *name, long lo,
                           long hi, char *out, size_t cap, int *has,
                           srv_error *err)
{
    const json_t *v = json_object_get(body, name);
    if (!v)
        return SRV_OK;
    if (!json_is_integer(v) || json_integer_value(v) < lo ||
        json_integer_value(v) > hi)
        return srv_fail(err, SRV_INVALID, name,
                        "%s must be an integer from %ld to %ld", name, lo, hi);
    snprintf(out, cap, "%lld", (long long)json_integer_value(v));
    *has = 1;
    return SRV_OK;
}

static srv_kind parse_quiet(const json_t *q, change *ch, srv_error *err)
{
    if (!q)
        return SRV_OK;
    ch->has_quiet = 1;
    if (json_is_null(q)) {
        ch->quiet_null = 1;
        return SRV_OK;
    }
    int s = parse_hhmm(json_object_get(q, "start"));
    int e = parse_hhmm(json_object_get(q, "end"));
    if (!json_is_object(q) || json_object_size(q) != 2 || s < 0 || e < 0)
        return srv_fail(err, SRV_INVALID, "quiet_hours",
                        "quiet_hours must be null or {\"start\":\"HH:MM\","
                        "\"end\":\"HH:MM\"}");
    snprintf(ch->quiet_start, sizeof ch->quiet_start, "%d", s);
    snprintf(ch->quiet_end, sizeof ch->quiet_end, "%d", e);
    return SRV_OK;
}

static srv_kind parse_change(const json_t *body, change *ch, srv_error *err)
{
    static const char *const known[] = {
        "email",       "quiet_hours",      "utc_offset", "digest",
        "digest_hour", "reminder_seconds", NULL};
    const char *key;
    const json_t *v;
    json_object_foreach((json_t *)body, key, v)
    {
        int ok = 0;
        for (int i = 0; known[i]; i++)
            ok |= strcmp(key, known[i]) == 0;
        if (!ok)
            return srv_fail(err, SRV_INVALID, key, "unknown member \"%s\"",
                            key);
    }
    const json_t *email = json_object_get(body, "email");
    if (email) {
        ch->has_email = 1;
        ch->email_null = json_is_null(email);
        if (!ch->email_null && !notify_email_ok(json_string_value(email)))
            return srv_fail(err, SRV_INVALID, "email",
                            "email must be null or one email address");
        if (!ch->email_null)
            snprintf(ch->email, sizeof ch->email, "%s",
                     json_string_value(email));
    }
    const json_t *digest = json_object_get(body, "digest");
    if (digest && !json_is_boolean(digest))
        return srv_fail(err, SRV_INVALID, "digest", "digest must be a boolean");
    if (digest) {
        ch->has_digest = 1;
        snprintf(ch->digest, sizeof ch->digest, "%s",
                 json_is_true(digest) ? "true" : "false");
    }
    srv_kind k = parse_quiet(json_object_get(body, "quiet_hours"), ch, err);
    if (k == SRV_OK)
        k = int_member(body, "utc_offset", -840, 840, ch->offset,
                       sizeof ch->offset, &ch->has_offset, err);
    if (k == SRV_OK)
        k = int_member(body, "digest_hour", 0, 23, ch->digest_hour,
                       sizeof ch->digest_hour, &ch->has_hour, err);
    if (k == SRV_OK)
        k = int_member(body, "reminder_seconds", 4, 604800, ch->reminder,
                       sizeof ch->reminder, &ch->has_reminder, err);
    return k;
}

static int exec_ok(PGconn *c, const char *sql, int n, const char *const *p)
{
    PGresult *r = db_exec(c, PGRES_COMMAND_OK, sql, n, p);
    if (!r)
        return -1;
    PQclear(r);
    return 0;
}

static void sha256_hex(const char *s, char hex[65])
{
    unsigned char d[SHA256_DIGEST_LENGTH];
    SHA256((const unsigned char *)s, strlen(s), d);
    for (int i = 0; i < SHA256_DIGEST_LENGTH; i++)
        snprintf(hex + 2 * i, 3, "%02x", d[i]);
}

/* The new address's verification: the token's hash on the row and the
 * mail in the outbox, in the caller's transaction. */
static int queue_verification(PGconn *c, const char *player_id,
                              const char *email, const char *base_url)
{
    char token[2 * TOKEN_BYTES + 1], hash[65], id[96];
    if (notify_random_hex(token, TOKEN_BYTES) != 0)
        return -1;
    sha256_hex(token, hash);
    snprintf(id, sizeof id, "verify:%s:%.16s", player_id, hash);
    size_t cap = strlen(base_url) + 512;
    char *body = malloc(cap);
    if (!body)
        return -1;
    snprintf(body, cap,
             "Someone (we hope you) asked Conclave to send game notices to "
             "this address.\r\n\r\nTo confirm, open this page and press "
             "its button:\r\n%s/verify?token=%s\r\n\r\n"
             "The link works for 24 hours. If it was not you, ignore "
             "this mail: nothing is sent here until the button is "
             "pressed.\r\n",
             base_url, token);
    const char *p1[] = {player_id, hash};
    const char *p2[] = {id, email, player_id, body};
    int rc = exec_ok(c,
                     "UPDATE notify_settings SET verify_hash = "
                     "decode($2, 'hex'), verify_expires = now() + interval "
                     "'24 hours' WHERE player_id = $1",
                     2, p1) ||
             exec_ok(c,
                     "INSERT INTO notify_deliveries (game_id, "
                     "notification_id, channel, target, player_id, kind, "
                     "subject, body) VALUES ('', $1, 'email', $2, $3, "
                     "'verify', 'Confirm your email address for Conclave', "
                     "$4) ON CONFLICT DO NOTHING",
                     4, p2);
    free(body);
    return rc ? -1 : 0;
}

int notify_queue_account_mail(PGconn *c, const char *id, const char *email,
                              const char *player_id, const char *subject,
                              const char *body)
{
    const char *p[] = {id, email, player_id, subject, body};
    return exec_ok(c,
                   "INSERT INTO notify_deliveries (game_id, notification_id, "
                   "channel, target, player_id, kind, subject, body) VALUES "
                   "('', $1, 'email', $2, $3, 'signin', $4, $5) "
                   "ON CONFLICT DO NOTHING",
                   5, p);
}

json_t *notify_mail_facts(PGconn *c, const char *game_id)
{
    const char *p[] = {game_id};
    PGresult *r = db_exec(
        c, PGRES_TUPLES_OK,
        "SELECT DISTINCT s.player_id, s.utc_offset, s.unsubscribe_token FROM "
        "notify_settings s JOIN game_seats g ON g.player_id = s.player_id "
        "WHERE g.game_id = $1",
        1, p);
    if (!r)
        return NULL;
    json_t *out = json_object();
    for (int i = 0; out && i < PQntuples(r); i++) {
        char fresh[2 * UNSUBSCRIBE_BYTES + 1];
        const char *tok = PQgetvalue(r, i, 2);
        if (PQgetisnull(r, i, 2)) {
            /* Made once; a concurrent maker's token wins (kept either way). */
            const char *q[] = {PQgetvalue(r, i, 0), fresh};
            PGresult *u =
                notify_random_hex(fresh, UNSUBSCRIBE_BYTES) != 0
                    ? NULL
                    : db_exec(c, PGRES_TUPLES_OK,
                              "UPDATE notify_settings SET unsubscribe_token = "
                              "coalesce(unsubscribe_token, $2) WHERE "
                              "player_id = $1 RETURNING unsubscribe_token",
                              2, q);
            if (!u || PQntuples(u) != 1) {
                PQclear(u);
                json_decref(out);
                out = NULL;
                break;
            }
            snprintf(fresh, sizeof fresh, "%s", PQgetvalue(u, 0, 0));
            PQclear(u);
            tok = fresh;
        }
        json_object_set_new(out, PQgetvalue(r, i, 0),
                            json_pack("{si ss}", "utc_offset",
                                      atoi(PQgetvalue(r, i, 1)), "unsubscribe",
                                      tok));
    }
    PQclear(r);
    return out;
}

srv_kind notify_unsubscribe(db_pool *db, const char *token, srv_error *err)
{
    if (!token || strlen(token) != 2 * UNSUBSCRIBE_BYTES)
        return srv_fail(err, SRV_NOT_FOUND, NULL, "unknown unsubscribe link");
    PGconn *c = db_acquire(db, DB_WAIT_MS);
    if (!c)
        return srv_db_failed(err);
    const char *p[] = {token};
    /* The address goes (a new one is verified again); its pending and held
     * mails are dropped. The token stays: a second click is fine. */
    PGresult *r = db_exec(
        c, PGRES_TUPLES_OK,
        "WITH me AS (SELECT player_id, email FROM notify_settings WHERE "
        " unsubscribe_token = $1 FOR UPDATE), "
        "off AS (UPDATE notify_settings s SET email = NULL, email_verified = "
        " false, verify_hash = NULL, verify_expires = NULL, updated_at = "
        " now() FROM me WHERE s.player_id = me.player_id), "
        "dropped AS (UPDATE notify_deliveries d SET status = 'dropped' FROM "
        " me WHERE d.player_id = me.player_id AND d.channel = 'email' AND "
        " d.status IN ('pending', 'held')) "
        "SELECT count(*) FROM me",
        1, p);
    srv_kind k = SRV_OK;
    if (!r)
        k = srv_db_failed(err);
    else if (atoi(PQgetvalue(r, 0, 0)) != 1)
        k = srv_fail(err, SRV_NOT_FOUND, NULL, "unknown unsubscribe link");
    PQclear(r);
    db_release(db, c, k == SRV_UNAVAILABLE && db_conn_broken(c));
    return k;
}

#define KEEP(has, val) ((has) ? (val) : NULL)

static int write_change(PGconn *c, const char *player_id, const change *ch)
{
    const char *p[] = {player_id,
                       KEEP(ch->has_quiet, "1"),
                       KEEP(ch->has_quiet && !ch->quiet_null, ch->quiet_start),
                       KEEP(ch->has_quiet && !ch->quiet_null, ch->quiet_end),
                       KEEP(ch->has_offset, ch->offset),
                       KEEP(ch->has_digest, ch->digest),
                       KEEP(ch->has_hour, ch->digest_hour),
                       KEEP(ch->has_reminder, ch->reminder)};
    return exec_ok(c,
                   "INSERT INTO notify_settings (player_id) VALUES ($1) "
                   "ON CONFLICT (player_id) DO NOTHING",
                   1, p) ||
           exec_ok(c,
                   "UPDATE notify_settings SET "
                   " quiet_start = CASE WHEN $2::text IS NULL THEN "
                   "  quiet_start ELSE $3::int END, "
                   " quiet_end = CASE WHEN $2::text IS NULL THEN quiet_end "
                   "  ELSE $4::int END, "
                   " utc_offset = coalesce($5::int, utc_offset), "
                   " digest = coalesce($6::boolean, digest), "
                   " digest_hour = coalesce($7::int, digest_hour), "
                   " reminder_seconds = coalesce($8::int, reminder_seconds), "
                   " updated_at = now() WHERE player_id = $1",
                   8, p) ||
           exec_ok(c,
                   "UPDATE notify_deliveries SET next_at = now() "
                   "WHERE player_id = $1 AND status = 'pending'",
                   1, p);
}

/* The email part of a change: a new address starts unverified. Returns 1
 * when it is new (a verification is due), 0 when unchanged, -1. */
static int write_email(PGconn *c, const char *player_id, const change *ch)
{
    if (!ch->has_email)
        return 0;
    const char *p[] = {player_id, ch->email_null ? NULL : ch->email};
    PGresult *r = db_exec(
        c, PGRES_TUPLES_OK,
        "UPDATE notify_settings SET email = $2::text, email_verified = "
        " (email IS NOT DISTINCT FROM $2::text AND email_verified), "
        " verify_hash = CASE WHEN email IS NOT DISTINCT FROM $2::text THEN "
        "  verify_hash END "
        "WHERE player_id = $1 RETURNING NOT email_verified AND "
        " $2::text IS NOT NULL",
        2, p);
    if (!r)
        return -1;
    int fresh = PQntuples(r) == 1 && PQgetvalue(r, 0, 0)[0] == 't';
    PQclear(r);
    return fresh;
}

srv_kind notify_settings_put(db_pool *db, const char *player_id,
                             const json_t *body, int email_available,
                             const char *base_url, json_t **out, srv_error *err)
{
    change ch = {0};
    srv_kind k = parse_change(body, &ch, err);
    if (k != SRV_OK)
        return k;
    PGconn *c = db_acquire(db, DB_WAIT_MS);
    if (!c)
        return srv_db_failed(err);
    int fresh = -1;
    if (exec_ok(c, "BEGIN", 0, NULL) == 0 &&
        write_change(c, player_id, &ch) == 0)
        fresh = write_email(c, player_id, &ch);
    if (fresh == 1 && email_available &&
        queue_verification(c, player_id, ch.email, base_url) != 0)
        fresh = -1;
    if (fresh < 0 || exec_ok(c, "COMMIT", 0, NULL) != 0) {
        db_release(db, c, db_conn_broken(c));
        return srv_db_failed(err);
    }
    if (ch.has_email)
        (void)notify_listened_refresh(c, player_id); /* may be unverified */
    k = read_settings(c, player_id, email_available, out, err);
    db_release(db, c, k == SRV_UNAVAILABLE && db_conn_broken(c));
    return k;
}

srv_kind notify_webhook_check(const char *url, const char *format,
                              int allow_private, srv_error *err)
{
    char why[256];
    notify_format f;
    if (format && notify_format_parse(format, &f) != 0)
        return srv_fail(err, SRV_INVALID, "format",
                        "format must be conclave, discord or slack");
    if (!notify_url_ok(url))
        return srv_fail(err, SRV_INVALID, "url",
                        "url must be https:// (or http:// to a loopback "
                        "address), at most 2048 bytes");
    if (notify_dest_check_url(url, allow_private, why, sizeof why) != 0)
        return srv_fail(err, SRV_INVALID, "url", "%s", why);
    return SRV_OK;
}

srv_kind notify_webhook_add(db_pool *db, const char *player_id, const char *url,
                            const char *format, int allow_private, json_t **out,
                            srv_error *err)
{
    srv_kind checked = notify_webhook_check(url, format, allow_private, err);
    if (checked != SRV_OK)
        return checked;
    if (!format)
        format = "conclave";
    char id[2 * 8 + 3] = "wh", secret[2 * 24 + 7] = "whsec_";
    if (notify_random_hex(id + 2, 8) || notify_random_hex(secret + 6, 24))
        return srv_fail(err, SRV_INTERNAL, NULL, "no randomness");
    PGconn *c = db_acquire(db, DB_WAIT_MS);
    if (!c)
        return srv_db_failed(err);
    char max[8];
    snprintf(max, sizeof max, "%d", NOTIFY_WEBHOOKS_MAX);
    const char *p[] = {id, player_id, url, secret, max, format};
    /* The count and the insert in one statement, under the player row's
     * lock, so two concurrent adds cannot both pass the cap. */
    PGresult *r =
        db_exec(c, PGRES_TUPLES_OK,
                "WITH me AS (SELECT id FROM players WHERE id = $2 FOR UPDATE) "
                "INSERT INTO notify_webhooks (id, player_id, url, secret, "
                " format) "
                "SELECT $1, $2, $3, $4, $6 FROM me WHERE (SELECT count(*) FROM "
                "notify_webhooks WHERE player_id = $2 AND game_id IS NULL) < "
                "$5::int "
                "RETURNING to_char(created_at AT TIME ZONE 'UTC', "
                "'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')",
                6, p);
    srv_kind k = SRV_OK;
    if (!r)
        k = srv_db_failed(err);
    else if (PQntuples(r) != 1)
        k = srv_fail(err, SRV_TOO_MANY, NULL, "at most %d webhooks",
                     NOTIFY_WEBHOOKS_MAX);
    else
        *out = json_pack("{ss ss ss ss ss}", "id", id, "url", url, "format",
                         format, "secret", secret, "created_at",
                         PQgetvalue(r, 0, 0));
    PQclear(r);
    if (k == SRV_OK)
        (void)notify_listened_refresh(c, player_id);
    db_release(db, c, k == SRV_UNAVAILABLE && db_conn_broken(c));
    return k;
}

srv_kind notify_webhook_delete(db_pool *db, const char *player_id,
                               const char *id, srv_error *err)
{
    PGconn *c = db_acquire(db, DB_WAIT_MS);
    if (!c)
        return srv_db_failed(err);
    const char *p[] = {player_id, id};
    PGresult *r = db_exec(
        c, PGRES_TUPLES_OK,
        "WITH gone AS (DELETE FROM notify_webhooks WHERE player_id = $1 AND "
        " id = $2 AND game_id IS NULL RETURNING id), "
        "dropped AS (UPDATE notify_deliveries SET status = 'dropped' "
        " WHERE player_id = $1 AND channel = 'webhook' AND target = $2 AND "
        " status IN ('pending', 'held') AND EXISTS (SELECT 1 FROM gone)) "
        "SELECT count(*) FROM gone",
        2, p);
    srv_kind k = SRV_OK;
    if (!r)
        k = srv_db_failed(err);
    else if (atoi(PQgetvalue(r, 0, 0)) != 1)
        k = srv_fail(err, SRV_NOT_FOUND, NULL, "no such webhook");
    PQclear(r);
    if (k == SRV_OK)
        (void)notify_listened_refresh(c, player_id);
    db_release(db, c, k == SRV_UNAVAILABLE && db_conn_broken(c));
    return k;
}

srv_kind notify_email_verify(db_pool *db, const char *token, json_t **out,
                             srv_error *err)
{
    if (!token || strlen(token) != 2 * TOKEN_BYTES)
        return srv_fail(err, SRV_NOT_FOUND, NULL, "unknown or expired link");
    char hash[65];
    sha256_hex(token, hash);
    PGconn *c = db_acquire(db, DB_WAIT_MS);
    if (!c)
        return srv_db_failed(err);
    const char *p[] = {hash};
    /* The hash stays on the row once verified (until the address changes),
     * so a second click says "already verified" instead of "unknown". */
    PGresult *r = db_exec(
        c, PGRES_TUPLES_OK,
        "WITH hit AS (SELECT player_id, email_verified AS was FROM "
        " notify_settings WHERE verify_hash = decode($1, 'hex') AND email IS "
        " NOT NULL AND (email_verified OR verify_expires > now()) FOR UPDATE) "
        "UPDATE notify_settings s SET email_verified = true, verify_expires = "
        " NULL FROM hit WHERE s.player_id = hit.player_id "
        "RETURNING s.email, hit.was, s.player_id",
        1, p);
    srv_kind k = SRV_OK;
    if (!r)
        k = srv_db_failed(err);
    else if (PQntuples(r) != 1)
        k = srv_fail(err, SRV_NOT_FOUND, NULL, "unknown or expired link");
    else
        *out = json_pack("{ss sb sb}", "email", PQgetvalue(r, 0, 0),
                         "email_verified", 1, "already_verified",
                         PQgetvalue(r, 0, 1)[0] == 't');
    if (k == SRV_OK)
        (void)notify_listened_refresh(c, PQgetvalue(r, 0, 2));
    PQclear(r);
    db_release(db, c, k == SRV_UNAVAILABLE && db_conn_broken(c));
    return k;
}

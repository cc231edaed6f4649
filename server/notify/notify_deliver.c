/*
 * notify_deliver.c - sending the outbox without letting one destination
 * stall the others. One sender thread runs a curl multi loop: it claims
 * due deliveries (FOR UPDATE SKIP LOCKED, then a lease of LEASE seconds in
 * next_at, committed before the network is touched), starts each as a
 * non-blocking transfer (notify_send.h: short connect and total timeouts),
 * and settles each as it ends: sent, or due again after an exponential
 * backoff, or dead after notify_attempts tries. A process that dies
 * mid-send leaves the lease to lapse, and the delivery is sent again with
 * the same notification id: at least once. Quiet hours push a delivery to
 * their end without spending an attempt.
 *
 * Fairness: the claim takes players in turn (round robin: each player's
 * oldest due delivery, then each one's second...), and at most
 * PER_PLAYER transfers per player, PER_HOST per destination HOST:PORT and
 * IN_FLIGHT_MAX in all are open at once, so a player whose receivers never
 * answer holds a few slots for NOTIFY_SEND_TIMEOUT_MS at worst. Order: a
 * delivery waits while an older one of the same game to the same
 * destination is pending ("started" before "waiting"). Circuit breaker:
 * after NOTIFY_BREAKER_FAILURES failures in a row a webhook is paused
 * (its deliveries stay pending, no attempt spent) for a growing interval,
 * then tried with one transfer at a time; one success closes it. The
 * state is the webhook row's (failures, failing_since, retry_at,
 * last_error), shown to its owner (notify_settings.c).
 */
#include "server/notify/notify_internal.h"

#include "server/notify/notify_dest.h"
#include "server/notify/notify_rules.h"
#include "server/notify/notify_send.h"
#include "server/runtime/log.h"
#include "server/runtime/metrics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DB_WAIT_MS 1000
#define LEASE "15" /* seconds: more than a transfer may take */
#define IN_FLIGHT_MAX 32
#define PER_PLAYER 3
#define PER_HOST 3
#define TURNS 8 /* deliveries per player looked at in one claim */
#define CANDIDATES 100
#define HOST_KEY_MAX 280
#define BREAKER_PAUSE 5 /* the first pause: this many first retry delays */
#define NOTIFY_STR_(x) #x
#define NOTIFY_STR(x) NOTIFY_STR_(x)

/* The due deliveries, players in turn, that no older pending delivery of
 * the same game and destination holds back and whose webhook is not
 * paused. The final WHERE is checked again on rows another process changed
 * meanwhile. */
/* clang-format off */
static const char CLAIM[] =
    "WITH due AS (SELECT d.game_id, d.notification_id, d.channel, d.target, "
    "  d.seq, row_number() OVER (PARTITION BY d.player_id ORDER BY d.seq) "
    "  AS turn FROM notify_deliveries d "
    " WHERE d.status = 'pending' AND d.next_at <= now() "
    "  AND NOT EXISTS (SELECT 1 FROM notify_deliveries o WHERE o.status = "
    "   'pending' AND o.channel = d.channel AND o.target = d.target AND "
    "   o.game_id = d.game_id AND o.seq < d.seq) "
    "  AND NOT EXISTS (SELECT 1 FROM notify_webhooks w WHERE d.channel = "
    "   'webhook' AND w.id = d.target AND w.retry_at > now())), "
    "pick AS (SELECT * FROM due WHERE turn <= " NOTIFY_STR(TURNS) " ORDER BY "
    " turn, seq LIMIT " NOTIFY_STR(CANDIDATES) ") "
    "SELECT d.game_id, d.notification_id, d.channel, d.target, d.kind, "
    " d.subject, d.body, d.attempts, d.player_id, "
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
    "  'verify') FROM notify_settings s WHERE s.player_id = d.player_id), "
    " (SELECT w.failures FROM notify_webhooks w WHERE w.id = d.target AND "
    "  d.channel = 'webhook'), "
    " (SELECT w.game_id IS NOT NULL FROM notify_webhooks w WHERE w.id = "
    "  d.target AND d.channel = 'webhook') "
    "FROM pick p JOIN notify_deliveries d ON d.game_id = p.game_id AND "
    " d.notification_id = p.notification_id AND d.channel = p.channel AND "
    " d.target = p.target "
    "WHERE d.status = 'pending' AND d.next_at <= now() "
    "ORDER BY p.turn, p.seq FOR UPDATE OF d SKIP LOCKED";
/* clang-format on */

enum {
    C_GAME,
    C_ID,
    C_CHANNEL,
    C_TARGET,
    C_KIND,
    C_SUBJECT,
    C_BODY,
    C_ATTEMPTS,
    C_PLAYER,
    C_QSTART,
    C_QEND,
    C_OFFSET,
    C_URL,
    C_SECRET,
    C_MAILOK,
    C_FAILURES,
    C_GROUP /* the webhook is a game's group channel */
};

/* One delivery: its key, and while in flight its transfer. */
typedef struct flight {
    char game_id[STORE_ID_MAX], id[STORE_ID_MAX + 64], channel[8], target[256],
        player_id[STORE_ID_MAX], host[HOST_KEY_MAX];
    int attempts; /* this one included */
    int webhook;
    notify_send *send;
} flight;

/* The transfers in flight (the sender thread's own). */
typedef struct sender {
    CURLM *multi;
    flight *f[IN_FLIGHT_MAX];
    int n;
} sender;

static void count(const char *name, const char *help)
{
    metrics_count(name, help, 1);
}

static void key_of(flight *f, PGresult *r, int i)
{
    snprintf(f->game_id, sizeof f->game_id, "%s", PQgetvalue(r, i, C_GAME));
    snprintf(f->id, sizeof f->id, "%s", PQgetvalue(r, i, C_ID));
    snprintf(f->channel, sizeof f->channel, "%s", PQgetvalue(r, i, C_CHANNEL));
    snprintf(f->target, sizeof f->target, "%s", PQgetvalue(r, i, C_TARGET));
    snprintf(f->player_id, sizeof f->player_id, "%s",
             PQgetvalue(r, i, C_PLAYER));
    f->webhook = strcmp(f->channel, "webhook") == 0;
    f->attempts = atoi(PQgetvalue(r, i, C_ATTEMPTS));
}

/* The outcome of one delivery, written back (attempts: the count now). */
static int settle(PGconn *c, const flight *f, const char *status, double delay,
                  const char *error, int attempts)
{
    char wait[32], tries[16];
    snprintf(wait, sizeof wait, "%.3f", delay);
    snprintf(tries, sizeof tries, "%d", attempts);
    const char *p[] = {f->game_id, f->id, f->channel, f->target,
                       status,     wait,  error,      tries};
    return notify_exec(
        c, PGRES_COMMAND_OK,
        "UPDATE notify_deliveries SET status = $5, next_at = now() + "
        " make_interval(secs => $6::double precision), last_error = "
        " coalesce($7, last_error), attempts = $8::int, "
        " sent_at = CASE WHEN $5 = 'sent' THEN now() END "
        "WHERE game_id = $1 AND notification_id = $2 AND channel = $3 AND "
        " target = $4",
        8, p);
}

/* The webhook's circuit breaker after an attempt: closed by a success;
 * a failure counts, and from the NOTIFY_BREAKER_FAILURES-th in a row on
 * pauses it, BREAKER_PAUSE first retry delays (notify_retry_ms) the first
 * time, doubled each time after, at most an hour. */
static int breaker(notifier *n, PGconn *c, const flight *f, const char *error)
{
    if (!error)
        return notify_exec(c, PGRES_COMMAND_OK,
                           "UPDATE notify_webhooks SET failures = 0, "
                           " failing_since = NULL, retry_at = NULL, "
                           " last_error = NULL WHERE id = $1 AND "
                           " (failures > 0 OR retry_at IS NOT NULL)",
                           1, (const char *const[]){f->target});
    char base[32], k[8];
    snprintf(base, sizeof base, "%d",
             n->app->cfg->notify_retry_ms * BREAKER_PAUSE);
    snprintf(k, sizeof k, "%d", NOTIFY_BREAKER_FAILURES);
    const char *p[] = {f->target, error, base, k};
    PGresult *r = db_exec(
        c, PGRES_TUPLES_OK,
        "UPDATE notify_webhooks SET failures = failures + 1, failing_since "
        " = coalesce(failing_since, now()), last_error = $2, retry_at = "
        " CASE WHEN failures + 1 >= $4::int THEN now() + make_interval(secs "
        " => least(3600, $3::double precision / 1000 * power(2, failures + "
        " 1 - $4::int))) END WHERE id = $1 RETURNING failures",
        4, p);
    if (!r)
        return -1;
    if (PQntuples(r) == 1 &&
        atoi(PQgetvalue(r, 0, 0)) == NOTIFY_BREAKER_FAILURES)
        count("conclave_notify_breaker_open_total",
              "Webhooks paused after failing too often in a row.");
    PQclear(r);
    return 0;
}

/* Whether the row may still go: its webhook exists, its address is the
 * player's (verified, or being verified), email is on. */
static int still_wanted(notifier *n, PGresult *r, int i)
{
    if (strcmp(PQgetvalue(r, i, C_CHANNEL), "webhook") == 0)
        return !PQgetisnull(r, i, C_URL);
    return n->email_on && PQgetvalue(r, i, C_MAILOK)[0] == 't';
}

/* Quiet hours now for row i: 1 with *until set, else 0. A mail the player
 * asked for just now (verify an address, a sign-in link) is never held,
 * nor is a post to a group channel (the group's, not its owner's, hours). */
static int quiet_now(PGresult *r, int i, time_t *until)
{
    const char *kind = PQgetvalue(r, i, C_KIND);
    return PQgetvalue(r, i, C_GROUP)[0] != 't' && strcmp(kind, "verify") != 0 &&
           strcmp(kind, "signin") != 0 && !PQgetisnull(r, i, C_QSTART) &&
           !PQgetisnull(r, i, C_QEND) &&
           notify_quiet(atoi(PQgetvalue(r, i, C_QSTART)),
                        atoi(PQgetvalue(r, i, C_QEND)),
                        atoi(PQgetvalue(r, i, C_OFFSET)), time(NULL), until);
}

/* Whether one more transfer to f's player, host and webhook fits beside
 * those in flight (a webhook whose breaker tripped: one at a time). */
static int fits(const sender *s, const flight *f, int half_open)
{
    int player = 0, host = 0, target = 0;
    for (int i = 0; i < s->n; i++) {
        player += strcmp(s->f[i]->player_id, f->player_id) == 0;
        host += strcmp(s->f[i]->host, f->host) == 0;
        target += strcmp(s->f[i]->channel, f->channel) == 0 &&
                  strcmp(s->f[i]->target, f->target) == 0;
    }
    return s->n < IN_FLIGHT_MAX && player < PER_PLAYER && host < PER_HOST &&
           !(half_open && target > 0);
}

/* The transfer of a leased row; NULL with err on failure. */
static notify_send *make_send(notifier *n, PGresult *r, int i, char *err,
                              size_t cap)
{
    const char *id = PQgetvalue(r, i, C_ID);
    if (strcmp(PQgetvalue(r, i, C_CHANNEL), "webhook") == 0)
        return notify_send_webhook(
            PQgetvalue(r, i, C_URL), PQgetvalue(r, i, C_SECRET), id,
            PQgetvalue(r, i, C_BODY), n->app->cfg->webhook_allow_private, err,
            cap);
    return notify_send_email(n->app->cfg->smtp_url, n->app->cfg->smtp_from,
                             PQgetvalue(r, i, C_TARGET),
                             PQgetvalue(r, i, C_SUBJECT), id,
                             PQgetvalue(r, i, C_BODY), err, cap);
}

/* A failed attempt: due again after the backoff, or dead. */
static int failed(notifier *n, PGconn *c, const flight *f, const char *err)
{
    count("conclave_notify_failures_total",
          "Notification delivery attempts that failed.");
    log_warn("notify_failed",
             json_pack("{ss ss si ss}", "id", f->id, "channel", f->channel,
                       "attempts", f->attempts, "error", err));
    if (f->webhook && breaker(n, c, f, err) != 0)
        return -1;
    if (f->attempts >= n->app->cfg->notify_attempts) {
        count("conclave_notify_dead_total",
              "Notification deliveries given up after every retry.");
        return settle(c, f, "dead", 0, err, f->attempts);
    }
    return settle(c, f, "pending",
                  notify_backoff(n->app->cfg->notify_retry_ms, f->attempts),
                  err, f->attempts);
}

/* Lease row i (an attempt spent) in the claim's transaction. */
static int lease(PGconn *c, const flight *f)
{
    const char *p[] = {f->game_id, f->id, f->channel, f->target};
    return notify_exec(c, PGRES_COMMAND_OK,
                       "UPDATE notify_deliveries SET attempts = attempts + "
                       " 1, next_at = now() + interval '" LEASE " seconds' "
                       "WHERE game_id = $1 AND notification_id = $2 AND "
                       " channel = $3 AND target = $4",
                       4, p);
}

/* Claim what is due and fits, and start it. Rows that do not fit now are
 * left as they are (due, unleased) for the next claim. Returns the rows
 * handled (started, put off, dropped), or -1 when the database failed. */
static int claim(notifier *n, sender *s)
{
    PGconn *c = db_acquire(n->app->db, DB_WAIT_MS);
    if (!c)
        return -1;
    PGresult *r = NULL;
    if (notify_exec(c, PGRES_COMMAND_OK, "BEGIN", 0, NULL) == 0)
        r = db_exec(c, PGRES_TUPLES_OK, CLAIM, 0, NULL);
    int rows = r ? PQntuples(r) : 0, bad = !r, handled = 0, leased = 0;
    flight *fresh[IN_FLIGHT_MAX];
    int rowof[IN_FLIGHT_MAX];
    for (int i = 0; i < rows && !bad; i++) {
        flight f = {0};
        time_t until;
        key_of(&f, r, i);
        if (!still_wanted(n, r, i)) {
            bad = settle(c, &f, "dropped", 0, "no longer wanted", f.attempts);
            handled++;
            continue;
        }
        if (quiet_now(r, i, &until)) {
            count("conclave_notify_quiet_total",
                  "Deliveries put off until the end of quiet hours.");
            bad = settle(c, &f, "pending", difftime(until, time(NULL)), NULL,
                         f.attempts);
            handled++;
            continue;
        }
        if (f.webhook)
            notify_dest_host_key(PQgetvalue(r, i, C_URL), f.host,
                                 sizeof f.host);
        else
            snprintf(f.host, sizeof f.host, "smtp relay");
        int half_open =
            f.webhook && !PQgetisnull(r, i, C_FAILURES) &&
            atoi(PQgetvalue(r, i, C_FAILURES)) >= NOTIFY_BREAKER_FAILURES;
        if (!fits(s, &f, half_open))
            continue;
        flight *keep = malloc(sizeof *keep);
        if (!keep)
            break;
        *keep = f;
        keep->attempts++;
        bad = lease(c, keep);
        /* Counted now, so the next row sees it in flight. */
        s->f[s->n++] = keep;
        fresh[leased] = keep;
        rowof[leased++] = i;
        handled++;
    }
    if (!bad && notify_exec(c, PGRES_COMMAND_OK, "COMMIT", 0, NULL) != 0)
        bad = 1;
    /* Leased and committed: start them (a row that cannot start fails its
     * attempt). On a failed claim nothing was leased: forget them. */
    for (int j = 0; j < leased; j++) {
        flight *f = fresh[j];
        char err[256] = "";
        if (!bad)
            f->send = make_send(n, r, rowof[j], err, sizeof err);
        if (f->send && curl_multi_add_handle(
                           s->multi, notify_send_handle(f->send)) == CURLM_OK)
            continue;
        if (!bad && failed(n, c, f, err[0] ? err : "cannot start") != 0)
            bad = 1;
        notify_send_free(f->send);
        for (int k = 0; k < s->n; k++)
            if (s->f[k] == f)
                s->f[k] = s->f[--s->n];
        free(f);
    }
    PQclear(r);
    db_release(n->app->db, c, bad && db_conn_broken(c));
    return bad ? -1 : handled;
}

/* Settle the transfers that ended; returns how many, or -1 when the
 * database failed (those stay leased and are retried when it lapses). */
static int collect(notifier *n, sender *s)
{
    int ended = 0, bad = 0, left;
    CURLMsg *m;
    PGconn *c = NULL;
    while ((m = curl_multi_info_read(s->multi, &left))) {
        if (m->msg != CURLMSG_DONE)
            continue;
        char *priv = NULL;
        curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, &priv);
        notify_send *send = (notify_send *)priv;
        int k = 0;
        while (k < s->n && s->f[k]->send != send)
            k++;
        CURLcode rc = m->data.result;
        curl_multi_remove_handle(s->multi, m->easy_handle);
        if (k == s->n) {
            notify_send_free(send);
            continue;
        }
        flight *f = s->f[k];
        s->f[k] = s->f[--s->n];
        char err[256] = "";
        int ok = notify_send_result(send, rc, err, sizeof err) == 0;
        if (!ok && strncmp(err, "refused:", 8) == 0)
            count("conclave_notify_refused_total",
                  "Webhook attempts refused: the host resolved to an "
                  "address no webhook may reach.");
        if (!c && !bad)
            c = db_acquire(n->app->db, DB_WAIT_MS);
        if (!c)
            bad = 1;
        if (!bad && ok) {
            count("conclave_notify_sent_total",
                  "Notification deliveries sent.");
            bad = settle(c, f, "sent", 0, NULL, f->attempts) != 0 ||
                  (f->webhook && breaker(n, c, f, NULL) != 0);
        } else if (!bad)
            bad = failed(n, c, f, err) != 0;
        notify_send_free(send);
        free(f);
        ended++;
    }
    if (c)
        db_release(n->app->db, c, bad && db_conn_broken(c));
    return bad ? -1 : ended;
}

/* Stopping: the transfers still open are dropped and their leases given
 * back (due now, the attempt not counted), for the next process. */
static void release_all(notifier *n, sender *s)
{
    PGconn *c = s->n ? db_acquire(n->app->db, DB_WAIT_MS) : NULL;
    for (int i = 0; i < s->n; i++) {
        flight *f = s->f[i];
        curl_multi_remove_handle(s->multi, notify_send_handle(f->send));
        if (c)
            settle(c, f, "pending", 0, NULL, f->attempts - 1);
        notify_send_free(f->send);
        free(f);
    }
    s->n = 0;
    if (c)
        db_release(n->app->db, c, db_conn_broken(c));
}

static long long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void gauge(const sender *s)
{
    metrics_gauge("conclave_notify_in_flight",
                  "Notification transfers open now.", (double)s->n);
}

void notify_sender_run(notifier *n)
{
    sender s = {n->multi, {0}, 0};
    int tick = n->app->cfg->notify_tick_ms;
    long long last = 0;
    int ended = 0;
    while (!n->stopping) {
        long long now = now_ms();
        if (s.n < IN_FLIGHT_MAX && (ended > 0 || now - last >= tick)) {
            claim(n, &s);
            last = now;
            gauge(&s);
        }
        int running = 0;
        curl_multi_perform(s.multi, &running);
        ended = collect(n, &s);
        if (ended > 0)
            gauge(&s);
        long long wait = tick - (now_ms() - last);
        if (ended <= 0)
            curl_multi_poll(s.multi, NULL, 0, wait < 0 ? 0 : (int)wait, NULL);
    }
    release_all(n, &s);
    gauge(&s);
}

int notify_deliver(notifier *n)
{
    sender s = {curl_multi_init(), {0}, 0};
    if (!s.multi)
        return -1;
    int rows = claim(n, &s), running = 1;
    while (rows >= 0 && (s.n > 0 || running)) {
        curl_multi_perform(s.multi, &running);
        if (collect(n, &s) < 0)
            rows = -1;
        if (s.n > 0 || running)
            curl_multi_poll(s.multi, NULL, 0, 100, NULL);
    }
    release_all(n, &s);
    curl_multi_cleanup(s.multi);
    return rows;
}

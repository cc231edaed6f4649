/*
 * notify.c - the notifier's threads and its planner: facts from the outbox
 * become per-seat notifications (see notify.h).
 */
#include "server/game/seat_presence.h"
#include "server/notify/notify_format.h"
#include "server/notify/notify_internal.h"
#include "server/notify/notify_listened.h"
#include "server/notify/notify_settings.h"

#include "server/notify/notify_send.h"
#include "server/runtime/log.h"
#include "server/runtime/metrics.h"
#include "server/runtime/thread_name.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DB_WAIT_MS 1000
#define FACTS_PER_PASS 200

int notify_exec(PGconn *c, ExecStatusType expect, const char *sql, int np,
                const char *const *p)
{
    PGresult *r = db_exec(c, expect, sql, np, p);
    if (!r)
        return -1;
    PQclear(r);
    return 0;
}

/* Whether a "message" notification of the same channel went to the same
 * player in the last notify_message_window seconds: 1, 0, or -1. Its id
 * ends in ":message:CHANNEL.SEQ" (notify_plan.c). */
static int message_coalesced(notifier *n, PGconn *c, const char *game_id,
                             const notify_item *it)
{
    char like[48], secs[16];
    snprintf(like, sizeof like, "%%:%d:message:%d.%%", it->seat, it->channel);
    snprintf(secs, sizeof secs, "%d", n->app->cfg->notify_message_window);
    const char *q[] = {game_id, it->player_id, like, secs};
    PGresult *r = db_exec(
        c, PGRES_TUPLES_OK,
        "SELECT EXISTS (SELECT 1 FROM notify_deliveries WHERE game_id = $1 "
        " AND player_id = $2 AND kind = 'message' AND notification_id LIKE "
        " $3 AND created_at > now() - make_interval(secs => $4::int))",
        4, q);
    if (!r)
        return -1;
    int yes = PQgetvalue(r, 0, 0)[0] == 't';
    PQclear(r);
    return yes;
}

/* Write one item's deliveries: 0, or -1. */
static int write_item(notifier *n, PGconn *c, const char *game_id,
                      const notify_item *it)
{
    if (strcmp(it->kind, "message") == 0) {
        int seen = message_coalesced(n, c, game_id, it);
        if (seen < 0)
            return -1;
        if (seen) {
            metrics_count("conclave_notify_coalesced_total",
                          "Private-message notifications folded into one "
                          "sent earlier in the window.",
                          1);
            return 0;
        }
    }
    /* Each webhook gets the body of its format: the notifier's JSON, or the
     * item's words as a Discord or Slack message. */
    char *discord = notify_format_body(NOTIFY_FORMAT_DISCORD, it->chat);
    char *slack = notify_format_body(NOTIFY_FORMAT_SLACK, it->chat);
    if (!discord || !slack) {
        free(discord);
        free(slack);
        return -1;
    }
    const char *q[] = {
        game_id,  it->id,   it->player_id,           it->kind, it->subject,
        it->json, it->text, n->email_on ? "1" : "0", discord,  slack};
    PGresult *r =
        it->seat == ENGINE_PUBLIC
            /* The game's group channel: public items only. */
            ? db_exec(c, PGRES_COMMAND_OK,
                      "INSERT INTO notify_deliveries (game_id, "
                      " notification_id, channel, target, player_id, kind, "
                      " subject, body) "
                      "SELECT $1, $2, 'webhook', w.id, w.player_id, $3, $4, "
                      "  CASE w.format WHEN 'discord' THEN $6 WHEN 'slack' "
                      "  THEN $7 ELSE $5 END "
                      " FROM notify_webhooks w WHERE w.game_id = $1 "
                      "ON CONFLICT DO NOTHING",
                      7,
                      (const char *const[]){q[0], q[1], q[3], q[4], q[5], q[8],
                                            q[9]})
            : db_exec(c, PGRES_COMMAND_OK,
                      "INSERT INTO notify_deliveries (game_id, "
                      " notification_id, channel, target, player_id, kind, "
                      " subject, body, status) "
                      "SELECT $1, $2, 'webhook', w.id, $3, $4, $5, "
                      "  CASE w.format WHEN 'discord' THEN $9 WHEN 'slack' "
                      "  THEN $10 ELSE $6 END, "
                      "  CASE WHEN coalesce(s.digest, false) THEN 'held' "
                      "  ELSE 'pending' END "
                      " FROM notify_webhooks w LEFT JOIN notify_settings s ON "
                      "  s.player_id = w.player_id WHERE w.player_id = $3 "
                      "  AND w.game_id IS NULL "
                      "UNION ALL "
                      "SELECT $1, $2, 'email', s.email, $3, $4, $5, $7, "
                      "  CASE WHEN s.digest THEN 'held' ELSE 'pending' END "
                      " FROM notify_settings s WHERE s.player_id = $3 AND "
                      "  s.email_verified AND s.email IS NOT NULL AND $8 = "
                      "  '1' "
                      "ON CONFLICT DO NOTHING",
                      10, q);
    free(discord);
    free(slack);
    if (!r)
        return -1;
    long added = atol(PQcmdTuples(r));
    PQclear(r);
    if (added > 0)
        metrics_count("conclave_notify_queued_total",
                      "Notification deliveries written to the outbox.",
                      (uint64_t)added);
    return 0;
}

/* Deliveries go to each destination in the order they are written (seq,
 * notify_deliver.c): a game's "started" first, then the rest in the
 * plan's order. */
int notify_write_items(notifier *n, PGconn *c, const char *game_id,
                       const notify_plan *p)
{
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < p->n; i++) {
            const notify_item *it = &p->items[i];
            int first = strcmp(it->kind, "started") == 0;
            if (first == (pass == 0) && write_item(n, c, game_id, it) != 0)
                return -1;
        }
    return 0;
}

/* ------------------------------------------------------------ facts --- */

typedef struct game_facts {
    char game_id[STORE_ID_MAX];
    long long max_id;
    notify_input in;
    json_t *replaced, *messages, *told, *public_told;
} game_facts;

typedef struct plan_ctx {
    const notify_input *in;
    notify_plan *plan;
    int rc;
} plan_ctx;

static void plan_under_lock(const actor_view *v, void *ctx)
{
    plan_ctx *pc = ctx;
    pc->rc = notify_plan_game(v, pc->in, pc->plan);
}

/* {"SEAT": {WINDOW: true}} of the windows announced as waiting, to the
 * seats (what 'waiting') and to the group channel ('public'), into *told
 * and *group (NEW). 0 or -1. */
static int told_of(PGconn *c, const char *game_id, json_t **told,
                   json_t **group)
{
    const char *p[] = {game_id};
    PGresult *r = db_exec(c, PGRES_TUPLES_OK,
                          "SELECT seat, window_id, what FROM notify_told "
                          "WHERE game_id = $1 AND what IN ('waiting', "
                          "'public')",
                          1, p);
    if (!r)
        return -1;
    *told = json_object();
    *group = json_object();
    for (int i = 0; *told && *group && i < PQntuples(r); i++) {
        json_t *to =
            strcmp(PQgetvalue(r, i, 2), "public") == 0 ? *group : *told;
        json_t *seat = json_object_get(to, PQgetvalue(r, i, 0));
        if (!seat) {
            seat = json_object();
            json_object_set_new(to, PQgetvalue(r, i, 0), seat);
        }
        json_object_set_new(seat, PQgetvalue(r, i, 1), json_true());
    }
    PQclear(r);
    return *told && *group ? 0 : -1;
}

/* What waits on each seat now replaces what was announced: rows of other
 * windows go (reminders and the group channel's included), new windows are
 * recorded, as `what` ('waiting'; 'public': told to the group channel,
 * only for seats already written as 'waiting'). */
static int write_told(PGconn *c, const char *game_id, const json_t *waiting,
                      const char *what)
{
    const char *key;
    json_t *ids;
    json_object_foreach((json_t *)waiting, key, ids)
    {
        char *list = json_dumps(ids, JSON_COMPACT);
        const char *p[] = {game_id, key, list, what};
        int rc = list ? 0 : -1;
        if (rc == 0)
            rc = notify_exec(
                c, PGRES_COMMAND_OK,
                "WITH now_waiting AS (SELECT jsonb_array_elements_text($3) "
                " AS w), gone AS (DELETE FROM notify_told WHERE game_id = "
                " $1 AND seat = $2::int AND window_id NOT IN (SELECT w FROM "
                " now_waiting)) "
                "INSERT INTO notify_told (game_id, seat, window_id, what) "
                "SELECT $1, $2::int, w, $4 FROM now_waiting "
                "ON CONFLICT DO NOTHING",
                4, p);
        free(list);
        if (rc)
            return -1;
    }
    return 0;
}

static int delete_facts(PGconn *c, const game_facts *g)
{
    char max[24];
    snprintf(max, sizeof max, "%lld", g->max_id);
    const char *p[] = {g->game_id, max};
    return notify_exec(c, PGRES_COMMAND_OK,
                       "DELETE FROM notify_facts WHERE game_id = $1 AND "
                       "id <= $2::bigint",
                       2, p)
               ? -1
               : 1;
}

/* Whether the game has a group channel: 1, 0, or -1. */
static int game_has_channel(PGconn *c, const char *game_id)
{
    PGresult *r = db_exec(c, PGRES_TUPLES_OK,
                          "SELECT EXISTS (SELECT 1 FROM notify_webhooks WHERE "
                          "game_id = $1)",
                          1, (const char *const[]){game_id});
    if (!r)
        return -1;
    int yes = PQgetvalue(r, 0, 0)[0] == 't';
    PQclear(r);
    return yes;
}

/* Plan and write one game's facts (a game some seated player of which
 * has a channel: the claim drops the others'); 1 when done (facts
 * deleted), 0 when the state held is behind them (they stay), -1 on
 * failure. */
static int plan_one(notifier *n, PGconn *c, game_facts *g)
{
    if (told_of(c, g->game_id, &g->told, &g->public_told) != 0)
        return -1;
    g->in.replaced = g->replaced;
    g->in.messages = g->messages;
    g->in.told = g->told;
    g->in.public_told = g->public_told;
    /* Present: on this process's hub, or on another process's (its
     * published rows). */
    presence_ctx present = {
        &n->app->feed,
        n->app->cfg->notify_when_active
            ? 0
            : presence_elsewhere(c, g->game_id, n->app->process_id)};
    g->in.active =
        n->app->cfg->notify_when_active ? NULL : presence_seat_active;
    g->in.active_ctx = &present;
    g->in.base_url = n->base_url;
    int channel = game_has_channel(c, g->game_id);
    json_t *players = channel < 0 ? NULL : notify_mail_facts(c, g->game_id);
    if (!players)
        return -1;
    g->in.channel = channel;
    g->in.players = players;
    notify_plan plan = {0};
    plan_ctx pc = {&g->in, &plan, 0};
    srv_kind k = actors_read(n->app->actors, g->game_id, plan_under_lock, &pc);
    int rc = 1;
    if (k == SRV_UNAVAILABLE || pc.rc != 0)
        rc = -1;
    else if (k == SRV_OK && plan.behind)
        rc = 0;
    else if (k == SRV_OK &&
             (write_told(c, g->game_id, plan.waiting, "waiting") != 0 ||
              write_told(c, g->game_id, plan.public_waiting, "public") != 0 ||
              notify_write_items(n, c, g->game_id, &plan) != 0))
        rc = -1;
    if (rc == 1)
        rc = delete_facts(c, g);
    notify_plan_free(&plan);
    g->in.active_ctx = NULL; /* present lives on this stack only */
    g->in.players = NULL;
    json_decref(players);
    return rc;
}

/* The claim: up to FACTS_PER_PASS facts, oldest first, that no other
 * notifier holds. Those of games where no seated player has a channel (a
 * webhook, or a verified address while email is on: $1; the function is
 * sql/011_notify_quiet_games.sql's, the trigger's test) are deleted here,
 * in the claim itself; the rest come back ordered by game, then id, each
 * row with the number deleted (one row with a null game when none is
 * left), so a batch of quiet games costs this one statement. */
static const char CLAIM[] =
    "WITH claimed AS MATERIALIZED (SELECT game_id, id, kind, version, "
    " detail FROM notify_facts ORDER BY id LIMIT 200 FOR UPDATE SKIP LOCKED), "
    "quiet AS (SELECT DISTINCT game_id FROM claimed WHERE NOT "
    " notify_game_listened(game_id, $1 = '1')), "
    "gone AS (DELETE FROM notify_facts f USING claimed c, quiet q WHERE "
    " q.game_id = c.game_id AND f.game_id = c.game_id AND f.id = c.id "
    " RETURNING 1), "
    "kept AS (SELECT * FROM claimed WHERE game_id NOT IN (SELECT game_id "
    " FROM quiet)) "
    "SELECT k.game_id, k.id, k.kind, k.version, k.detail::text, d.n FROM "
    "(SELECT count(*) AS n FROM gone) d LEFT JOIN kept k ON true "
    "ORDER BY k.game_id, k.id";

/* Group claimed facts by game (rows come ordered by game, then id; a row
 * with a null game is no fact). */
static game_facts *group_facts(PGresult *r, int *ngames)
{
    int rows = PQntuples(r), ng = 0;
    game_facts *gs = calloc((size_t)(rows ? rows : 1), sizeof *gs);
    for (int i = 0; gs && i < rows; i++) {
        if (PQgetisnull(r, i, 0))
            continue;
        const char *gid = PQgetvalue(r, i, 0);
        if (ng == 0 || strcmp(gs[ng - 1].game_id, gid) != 0) {
            game_facts *g = &gs[ng++];
            snprintf(g->game_id, sizeof g->game_id, "%s", gid);
            g->replaced = json_array();
            g->messages = json_array();
        }
        game_facts *g = &gs[ng - 1];
        const char *kind = PQgetvalue(r, i, 2);
        uint64_t version = strtoull(PQgetvalue(r, i, 3), NULL, 10);
        g->max_id = atoll(PQgetvalue(r, i, 1));
        if (version > g->in.version)
            g->in.version = version;
        g->in.started |= strcmp(kind, "started") == 0;
        json_t *detail = PQgetisnull(r, i, 4)
                             ? NULL
                             : json_loads(PQgetvalue(r, i, 4), 0, NULL);
        if (detail && strcmp(kind, "replaced") == 0)
            json_array_append(g->replaced, detail);
        if (detail && strcmp(kind, "message") == 0)
            json_array_append(g->messages, detail);
        json_decref(detail);
    }
    *ngames = ng;
    return gs;
}

int notify_plan_facts(notifier *n)
{
    PGconn *c = db_acquire(n->app->db, DB_WAIT_MS);
    if (!c)
        return -1;
    int done = 0, failed = 0, ng = 0, rows = 0;
    PGresult *r = NULL;
    game_facts *gs = NULL;
    const char *p[] = {n->email_on ? "1" : "0"};
    if (notify_exec(c, PGRES_COMMAND_OK, "BEGIN", 0, NULL) == 0)
        r = db_exec(c, PGRES_TUPLES_OK, CLAIM, 1, p);
    if (r)
        gs = group_facts(r, &ng);
    failed = !r || !gs;
    if (!failed && PQntuples(r) > 0) {
        /* The quiet games' facts, gone with the claim: done. */
        int quiet = atoi(PQgetvalue(r, 0, 5));
        rows = quiet + (PQgetisnull(r, 0, 0) ? 0 : PQntuples(r));
        done += quiet > 0;
    }
    for (int i = 0; i < ng && !failed; i++) {
        int rc = plan_one(n, c, &gs[i]);
        failed = rc < 0;
        done += rc > 0;
    }
    for (int i = 0; i < ng; i++) {
        json_decref(gs[i].replaced);
        json_decref(gs[i].messages);
        json_decref(gs[i].told);
        json_decref(gs[i].public_told);
    }
    free(gs);
    PQclear(r);
    if (!failed && notify_exec(c, PGRES_COMMAND_OK, "COMMIT", 0, NULL) != 0)
        failed = 1;
    db_release(n->app->db, c, failed && db_conn_broken(c));
    if (failed)
        return -1;
    if (rows)
        metrics_count("conclave_notify_facts_total",
                      "Outbox facts read by the notifier.", (uint64_t)rows);
    return done;
}

/* ----------------------------------------------------------- threads --- */

static int wait_tick(notifier *n, int ms)
{
    pthread_mutex_lock(&n->lock);
    if (!n->stopping) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += ms / 1000;
        until.tv_nsec += (ms % 1000) * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&n->wake, &n->lock, &until);
    }
    int stop = n->stopping;
    pthread_mutex_unlock(&n->lock);
    return stop;
}

static void *planner_main(void *arg)
{
    thread_name_set("notify-plan");
    notifier *n = arg;
    int tick = n->app->cfg->notify_tick_ms;
    for (unsigned i = 0; !wait_tick(n, tick); i++) {
        notify_listened_tick(n->app->db);
        while (notify_plan_facts(n) > 0 && !n->stopping)
            ;
        notify_remind(n);
        if (i % 8 == 0)
            notify_digest(n);
    }
    return NULL;
}

static void *sender_main(void *arg)
{
    thread_name_set("notify-send");
    notify_sender_run(arg);
    return NULL;
}

notifier *notify_start(app *a, const char *base_url, char *err, size_t errlen)
{
    notifier *n = calloc(1, sizeof *n);
    if (!n || notify_send_init() != 0) {
        free(n);
        snprintf(err, errlen, "cannot start the notifier");
        return NULL;
    }
    n->app = a;
    snprintf(n->base_url, sizeof n->base_url, "%s", base_url);
    n->email_on = a->cfg->smtp_url[0] != 0;
    pthread_mutex_init(&n->lock, NULL);
    pthread_cond_init(&n->wake, NULL);
    n->multi = curl_multi_init();
    n->planner_started =
        n->multi && pthread_create(&n->planner, NULL, planner_main, n) == 0;
    n->sender_started = n->planner_started &&
                        pthread_create(&n->sender, NULL, sender_main, n) == 0;
    if (!n->sender_started) {
        notify_stop(n);
        snprintf(err, errlen, "cannot start the notifier's threads");
        return NULL;
    }
    log_info("notifier_started",
             json_pack("{sb ss}", "email", n->email_on, "base_url", base_url));
    return n;
}

void notify_stop(notifier *n)
{
    if (!n)
        return;
    pthread_mutex_lock(&n->lock);
    n->stopping = 1;
    pthread_cond_broadcast(&n->wake);
    pthread_mutex_unlock(&n->lock);
    if (n->multi)
        curl_multi_wakeup(n->multi);
    if (n->planner_started)
        pthread_join(n->planner, NULL);
    if (n->sender_started)
        pthread_join(n->sender, NULL);
    if (n->multi)
        curl_multi_cleanup(n->multi);
    pthread_mutex_destroy(&n->lock);
    pthread_cond_destroy(&n->wake);
    notify_send_cleanup();
    free(n);
}

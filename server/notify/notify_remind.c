/*
 * notify_remind.c - reminders before a deadline: for each human seat of a
 * clocked window, one "reminder" once the deadline is nearer than the
 * player's reminder_seconds (default 2 h), then one sterner
 * "final_reminder" in the last quarter of that time, each only if the
 * window still waits on the seat. A notify_told row per (window,
 * deadline, level) makes each happen once, in the transaction that
 * queues it. A window shorter than the interval gets no reminders (they
 * would come as it opens).
 */
#include "server/game/seat_presence.h"
#include "server/notify/notify_internal.h"
#include "server/notify/notify_settings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DB_WAIT_MS 1000

static const char CANDIDATES[] =
    "SELECT game_id, window_id, due, seat, level FROM ("
    " SELECT d.game_id, d.window_id, "
    "  extract(epoch FROM d.due_at)::bigint AS due, gs.seat, "
    "  CASE WHEN d.due_at - make_interval(secs => "
    "   coalesce(s.reminder_seconds, 7200) / 4.0) <= now() THEN 2 ELSE 1 "
    "  END AS level "
    " FROM deadlines d JOIN games g ON g.game_id = d.game_id "
    " JOIN game_seats gs ON gs.game_id = d.game_id AND "
    "  gs.player_id IS NOT NULL AND gs.bot IS NULL "
    " LEFT JOIN notify_settings s ON s.player_id = gs.player_id "
    " WHERE d.due_at > now() AND d.due_at - make_interval(secs => "
    "  coalesce(s.reminder_seconds, 7200)) <= now() AND "
    "  coalesce(s.reminder_seconds, 7200) < g.clock_seconds) c "
    "WHERE NOT EXISTS (SELECT 1 FROM notify_told t WHERE t.game_id = "
    " c.game_id AND t.seat = c.seat AND t.window_id = c.window_id AND "
    " t.what = 'reminder' || c.level || '@' || c.due) "
    "LIMIT 100";

typedef struct remind_ctx {
    const notify_input *in;
    notify_plan *plan;
    int rc;
} remind_ctx;

static void plan_under_lock(const actor_view *v, void *ctx)
{
    remind_ctx *rc = ctx;
    rc->rc = notify_plan_game(v, rc->in, rc->plan);
}

/* One candidate in a transaction of its own: claim it (the told row),
 * then queue the reminder if the window still waits on the seat. */
static int remind_one(notifier *n, PGconn *c, PGresult *r, int i)
{
    const char *game = PQgetvalue(r, i, 0), *window = PQgetvalue(r, i, 1);
    char what[64], tag[128];
    snprintf(what, sizeof what, "reminder%s@%s", PQgetvalue(r, i, 4),
             PQgetvalue(r, i, 2));
    snprintf(tag, sizeof tag, "%.64s@%s", window, PQgetvalue(r, i, 2));
    const char *p[] = {game, PQgetvalue(r, i, 3), window, what};
    if (notify_exec(c, PGRES_COMMAND_OK, "BEGIN", 0, NULL) != 0)
        return -1;
    PGresult *claim = db_exec(
        c, PGRES_TUPLES_OK,
        "INSERT INTO notify_told (game_id, seat, window_id, what) VALUES "
        "($1, $2::int, $3, $4) ON CONFLICT DO NOTHING RETURNING seat",
        4, p);
    if (!claim)
        return -1;
    int mine = PQntuples(claim) == 1;
    PQclear(claim);
    int rc = 0;
    if (mine) {
        presence_ctx present = {
            &n->app->feed,
            n->app->cfg->notify_when_active
                ? 0
                : presence_elsewhere(c, game, n->app->process_id)};
        notify_input in = {.reminder_level = atoi(PQgetvalue(r, i, 4)),
                           .reminder_seat = atoi(PQgetvalue(r, i, 3)),
                           .reminder_window = window,
                           .reminder_tag = tag,
                           .active = n->app->cfg->notify_when_active
                                         ? NULL
                                         : presence_seat_active,
                           .active_ctx = &present,
                           .base_url = n->base_url};
        json_t *players = notify_mail_facts(c, game);
        in.players = players;
        notify_plan plan = {0};
        remind_ctx rx = {&in, &plan, 0};
        srv_kind k = actors_read(n->app->actors, game, plan_under_lock, &rx);
        if (!players || k == SRV_UNAVAILABLE || rx.rc != 0 ||
            (k == SRV_OK && notify_write_items(n, c, game, &plan) != 0))
            rc = -1;
        notify_plan_free(&plan);
        json_decref(players);
    }
    if (rc == 0 && notify_exec(c, PGRES_COMMAND_OK, "COMMIT", 0, NULL) != 0)
        rc = -1;
    return rc;
}

int notify_remind(notifier *n)
{
    PGconn *c = db_acquire(n->app->db, DB_WAIT_MS);
    if (!c)
        return -1;
    PGresult *r = db_exec(c, PGRES_TUPLES_OK, CANDIDATES, 0, NULL);
    int done = 0, failed = !r;
    for (int i = 0; r && i < PQntuples(r) && !failed; i++) {
        failed = remind_one(n, c, r, i) != 0;
        done += !failed;
    }
    PQclear(r);
    db_release(n->app->db, c, failed && db_conn_broken(c));
    return failed ? -1 : done;
}

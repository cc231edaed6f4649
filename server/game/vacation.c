/*
 * vacation.c - the vacation bank (see vacation.h).
 */
#include "server/game/vacation.h"

#include "server/runtime/log.h"
#include "server/store/db.h"

#include <stdio.h>
#include <stdlib.h>

#define DB_WAIT_MS 2000
#define TS(col)                                                                \
    "to_char(" col " AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"

static int run(PGconn *c, const char *sql, int n, const char *const *p)
{
    PGresult *r = db_exec(c, PGRES_COMMAND_OK, sql, n, p);
    PQclear(r);
    return r ? 0 : -1;
}

/* The bank as vacation_get renders it; NULL on failure. */
static json_t *status(PGconn *c, const char *player_id, int per_year)
{
    const char *p[] = {player_id};
    PGresult *r = db_exec(
        c, PGRES_TUPLES_OK,
        "SELECT coalesce((SELECT used FROM vacation_days WHERE player_id = $1 "
        "AND year = extract(year FROM now())::integer), 0), "
        "coalesce((SELECT " TS(
            "started_at") " FROM vacations WHERE "
                          "player_id = $1 AND ends_at > now()), ''), "
                          "coalesce((SELECT " TS(
                              "ends_at") " FROM vacations WHERE "
                                         "player_id = $1 AND ends_at > now()), "
                                         "''), "
                                         "coalesce((SELECT days FROM vacations "
                                         "WHERE player_id = $1 AND "
                                         "ends_at > now()), 0)",
        1, p);
    if (!r)
        return NULL;
    int used = atoi(PQgetvalue(r, 0, 0));
    json_t *active =
        *PQgetvalue(r, 0, 1)
            ? json_pack("{ss ss si}", "started_at", PQgetvalue(r, 0, 1),
                        "ends_at", PQgetvalue(r, 0, 2), "days",
                        atoi(PQgetvalue(r, 0, 3)))
            : json_null();
    PQclear(r);
    return json_pack("{si si si so}", "days_per_year", per_year, "used", used,
                     "left", per_year > used ? per_year - used : 0, "active",
                     active);
}

srv_kind vacation_get(app *a, const char *player_id, json_t **out,
                      srv_error *err)
{
    PGconn *c = db_acquire(a->db, DB_WAIT_MS);
    if (!c)
        return srv_db_failed(err);
    *out = status(c, player_id, a->cfg->vacation_days);
    db_release(a->db, c, db_conn_broken(c));
    return *out ? SRV_OK : srv_db_failed(err);
}

/* Move the deadlines of the windows waiting on player_id in "extend"
 * games days later; the games into *games. -1 on failure. */
static int extend_waiting(PGconn *c, const char *player_id, const char *days,
                          json_t *games)
{
    const char *p[] = {player_id, days};
    PGresult *r = db_exec(
        c, PGRES_TUPLES_OK,
        "UPDATE deadlines d SET due_at = d.due_at + make_interval(days => "
        "$2::integer) FROM turns_waiting t JOIN game_seats s ON "
        "s.game_id = t.game_id AND s.seat = t.seat JOIN games g ON "
        "g.game_id = t.game_id WHERE s.player_id = $1 AND s.bot IS NULL AND "
        "g.status = 'running' AND coalesce(g.clock_rules ->> 'vacation', "
        "'extend') = 'extend' AND d.game_id = t.game_id AND "
        "d.window_id = t.window_id RETURNING d.game_id",
        2, p);
    if (!r)
        return -1;
    for (int i = 0; i < PQntuples(r); i++)
        json_array_append_new(games, json_string(PQgetvalue(r, i, 0)));
    PQclear(r);
    return 0;
}

/* The body of vacation_start, inside its transaction. */
static srv_kind start_locked(PGconn *c, const char *player_id, long long days,
                             int per_year, json_t *games, srv_error *err)
{
    char d[24];
    snprintf(d, sizeof d, "%lld", days);
    const char *p[] = {player_id};
    if (run(c,
            "INSERT INTO vacation_days (player_id, year) VALUES ($1, "
            "extract(year FROM now())::integer) ON CONFLICT DO NOTHING",
            1, p))
        return srv_db_failed(err);
    PGresult *r = db_exec(
        c, PGRES_TUPLES_OK,
        "SELECT used, EXISTS (SELECT 1 FROM vacations WHERE player_id = $1 "
        "AND ends_at > now()) FROM vacation_days WHERE player_id = $1 AND "
        "year = extract(year FROM now())::integer FOR UPDATE",
        1, p);
    if (!r || PQntuples(r) != 1) {
        PQclear(r);
        return srv_db_failed(err);
    }
    int used = atoi(PQgetvalue(r, 0, 0));
    int on = *PQgetvalue(r, 0, 1) == 't';
    PQclear(r);
    if (on)
        return srv_fail(err, SRV_CONFLICT, NULL,
                        "you are on vacation already; stop it first");
    if (days < 1 || days > per_year - used)
        return srv_fail(err, SRV_INVALID, "days",
                        "days must be from 1 to the %d day(s) left in this "
                        "year's vacation bank",
                        per_year > used ? per_year - used : 0);
    const char *q[] = {player_id, d};
    if (run(c,
            "UPDATE vacation_days SET used = used + $2::integer WHERE "
            "player_id = $1 AND year = extract(year FROM now())::integer",
            2, q) ||
        run(c,
            "INSERT INTO vacations (player_id, started_at, ends_at, days) "
            "VALUES ($1, now(), now() + make_interval(days => $2::integer), "
            "$2::integer) ON CONFLICT (player_id) DO UPDATE SET started_at = "
            "EXCLUDED.started_at, ends_at = EXCLUDED.ends_at, days = "
            "EXCLUDED.days",
            2, q) ||
        extend_waiting(c, player_id, d, games))
        return srv_db_failed(err);
    return SRV_OK;
}

srv_kind vacation_start(app *a, const char *player_id, long long days,
                        json_t **out, json_t **games, srv_error *err)
{
    *out = NULL;
    *games = json_array();
    PGconn *c = db_acquire(a->db, DB_WAIT_MS);
    if (!c)
        return srv_db_failed(err);
    srv_kind k = run(c, "BEGIN", 0, NULL) ? srv_db_failed(err) : SRV_OK;
    if (k == SRV_OK)
        k = start_locked(c, player_id, days, a->cfg->vacation_days, *games,
                         err);
    if (k == SRV_OK && run(c, "COMMIT", 0, NULL))
        k = srv_db_failed(err);
    if (k == SRV_OK && !(*out = status(c, player_id, a->cfg->vacation_days)))
        k = srv_db_failed(err);
    db_release(a->db, c, db_conn_broken(c)); /* rolls back on failure */
    return k;
}

srv_kind vacation_stop(app *a, const char *player_id, json_t **out,
                       srv_error *err)
{
    *out = NULL;
    PGconn *c = db_acquire(a->db, DB_WAIT_MS);
    if (!c)
        return srv_db_failed(err);
    const char *p[] = {player_id};
    /* One statement: end it and give back the whole days not begun. */
    PGresult *r = db_exec(
        c, PGRES_TUPLES_OK,
        "WITH v AS (DELETE FROM vacations WHERE player_id = $1 AND ends_at > "
        "now() RETURNING floor(extract(epoch FROM ends_at - now()) / "
        "86400)::integer AS back), u AS (UPDATE vacation_days d SET used = "
        "greatest(d.used - v.back, 0) FROM v WHERE d.player_id = $1 AND "
        "d.year = extract(year FROM now())::integer) SELECT count(*) FROM v",
        1, p);
    srv_kind k = SRV_OK;
    if (!r)
        k = srv_db_failed(err);
    else if (atoi(PQgetvalue(r, 0, 0)) == 0)
        k = srv_fail(err, SRV_CONFLICT, NULL, "you are not on vacation");
    PQclear(r);
    if (k == SRV_OK && !(*out = status(c, player_id, a->cfg->vacation_days)))
        k = srv_db_failed(err);
    db_release(a->db, c, db_conn_broken(c));
    return k;
}

/* ------------------------------------------------------- the stand-in --- */

/* Record "vacation_return" for each stand-in whose vacation is over (ended,
 * stopped, or replaced by a later one). */
static int record_returns(PGconn *c)
{
    return run(
        c,
        "INSERT INTO game_events (game_id, at_version, kind, detail) "
        "SELECT e.game_id, g.version, 'vacation_return', jsonb_build_object("
        " 'seat', e.detail -> 'seat', 'player', e.detail -> 'player', "
        " 'since', e.detail -> 'since') FROM game_events e JOIN games g ON "
        " g.game_id = e.game_id WHERE e.kind = 'vacation_bot' AND NOT EXISTS "
        " (SELECT 1 FROM game_events r WHERE r.game_id = e.game_id AND "
        " r.kind = 'vacation_return' AND r.detail -> 'seat' = e.detail -> "
        " 'seat' AND r.detail -> 'since' = e.detail -> 'since') AND NOT "
        " EXISTS (SELECT 1 FROM vacations v WHERE v.player_id = e.detail ->> "
        " 'player' AND v.ends_at > now() AND " TS(
            "v.started_at") " = "
                            " e.detail ->> 'since')",
        0, NULL);
}

/* Record "vacation_bot" for seat of game (at version) unless this vacation
 * (since) has its event there already. */
static int record_stand_in(PGconn *c, PGresult *r, int i, const char *bot)
{
    const char *p[] = {PQgetvalue(r, i, 0),
                       PQgetvalue(r, i, 1),
                       PQgetvalue(r, i, 3),
                       PQgetvalue(r, i, 4),
                       PQgetvalue(r, i, 5),
                       PQgetvalue(r, i, 6),
                       bot};
    return run(
        c,
        "INSERT INTO game_events (game_id, at_version, kind, detail) "
        "SELECT $1, $4::bigint, 'vacation_bot', jsonb_build_object('seat', "
        " $2::integer, 'player', $3::text, 'bot', $7::text, 'since', "
        " $5::text, 'until', $6::text) WHERE NOT EXISTS (SELECT 1 FROM "
        " game_events e WHERE e.game_id = $1 AND e.kind = 'vacation_bot' AND "
        " e.detail -> 'seat' = to_jsonb($2::integer) AND e.detail ->> "
        " 'since' = $5)",
        7, p);
}

int vacation_stand_in(PGconn *c, actors *A)
{
    PGresult *r =
        db_exec(c, PGRES_TUPLES_OK,
                "SELECT DISTINCT t.game_id, t.seat, g.ruleset, s.player_id, "
                " g.version, " TS("v.started_at") ", " TS(
                    "v.ends_at") " FROM "
                                 " turns_waiting t JOIN game_seats s ON "
                                 "s.game_id = t.game_id AND "
                                 " s.seat = t.seat JOIN vacations v ON "
                                 "v.player_id = s.player_id AND "
                                 " v.ends_at > now() JOIN games g ON g.game_id "
                                 "= t.game_id WHERE "
                                 " s.bot IS NULL AND g.status = 'running' AND "
                                 "g.clock_rules ->> "
                                 " 'vacation' = 'bot' LIMIT 500",
                0, NULL);
    if (!r)
        return -1;
    int queued = 0, bad = 0;
    for (int i = 0; i < PQntuples(r) && !bad; i++) {
        const engine_ruleset *rs = engine_ruleset_find(PQgetvalue(r, i, 2));
        int n = 0;
        const engine_bot_level *lv = rs ? engine_bot_levels(rs, &n) : NULL;
        if (!lv || n < 1)
            continue; /* a ruleset without bots: the clock decides */
        bad = record_stand_in(c, r, i, lv[0].id) != 0;
        if (!bad) {
            actors_stand_in(A, PQgetvalue(r, i, 0), atoi(PQgetvalue(r, i, 1)),
                            lv[0].id);
            queued++;
        }
    }
    PQclear(r);
    if (bad || record_returns(c) != 0) {
        log_warn("vacation_stand_in_failed", NULL);
        return -1;
    }
    return queued;
}

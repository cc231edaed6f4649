/*
 * clock_ops.c - deadline extension, bot replacement and the game's events
 * (see clock_ops.h).
 */
#include "server/game/clock_ops.h"

#include "server/game/clock.h"
#include "server/runtime/log.h"
#include "server/store/db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DB_WAIT_MS 2000
#define EXTEND_MAX 1209600
#define TS(col)                                                                \
    "to_char(" col " AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"

/* Who may extend game_id (its lobby's host) and its clock seconds. */
static srv_kind game_host(PGconn *c, const char *game_id, char *host, int *secs,
                          srv_error *err)
{
    const char *p[] = {game_id};
    PGresult *r = db_exec(c, PGRES_TUPLES_OK,
                          "SELECT coalesce(l.host_id, ''), g.clock_seconds "
                          "FROM games g LEFT JOIN lobbies l ON l.id = "
                          "g.lobby_id WHERE g.game_id = $1",
                          1, p);
    if (!r)
        return srv_db_failed(err);
    srv_kind k = SRV_OK;
    if (PQntuples(r) != 1) {
        k = srv_fail(err, SRV_NOT_FOUND, NULL, "no such game");
    } else {
        snprintf(host, STORE_ID_MAX, "%s", PQgetvalue(r, 0, 0));
        *secs = atoi(PQgetvalue(r, 0, 1));
    }
    PQclear(r);
    return k;
}

/* Why the update touched no row: extended before, or no deadline. */
static srv_kind why_not(PGconn *c, const char *game_id, const char *window,
                        srv_error *err)
{
    const char *p[] = {game_id, window};
    PGresult *r = db_exec(c, PGRES_TUPLES_OK,
                          "SELECT 1 FROM deadlines WHERE game_id = $1 AND "
                          "window_id = $2",
                          2, p);
    if (!r)
        return srv_db_failed(err);
    int found = PQntuples(r) > 0;
    PQclear(r);
    return found ? srv_fail(err, SRV_CONFLICT, NULL,
                            "this window's deadline was extended once "
                            "already; a deadline is extended at most once")
                 : srv_fail(err, SRV_NOT_FOUND, NULL,
                            "no open window \"%.64s\" with a deadline in this "
                            "game",
                            window);
}

static srv_kind extend_with(PGconn *c, const char *game_id, const char *window,
                            const char *player_id, long long seconds,
                            json_t **out, srv_error *err)
{
    char host[STORE_ID_MAX] = "";
    int secs = 0;
    srv_kind k = game_host(c, game_id, host, &secs, err);
    if (k != SRV_OK)
        return k;
    if (strcmp(host, player_id) != 0)
        return srv_fail(err, SRV_FORBIDDEN, NULL,
                        "only the host of the game's lobby may extend a "
                        "deadline");
    if (seconds < 0 || seconds > EXTEND_MAX)
        return srv_fail(err, SRV_INVALID, "seconds",
                        "seconds must be from 1 to %d (0 or absent: the "
                        "game's clock seconds)",
                        EXTEND_MAX);
    char s[24];
    snprintf(s, sizeof s, "%lld", seconds > 0 ? seconds : (long long)secs);
    const char *p[] = {game_id, window, s};
    PGresult *r = db_exec(
        c, PGRES_TUPLES_OK,
        "UPDATE deadlines d SET due_at = clock_due(d.due_at, $3::integer, "
        "g.clock_rules), extended = true, claimed_until = NULL FROM games g "
        "WHERE g.game_id = d.game_id AND d.game_id = $1 AND d.window_id = $2 "
        "AND NOT d.extended RETURNING " TS("d.due_at"),
        3, p);
    if (!r)
        return srv_db_failed(err);
    if (PQntuples(r) == 1)
        *out = json_pack("{ss ss ss sb}", "game", game_id, "window", window,
                         "deadline", PQgetvalue(r, 0, 0), "extended", 1);
    PQclear(r);
    return *out ? SRV_OK : why_not(c, game_id, window, err);
}

srv_kind clock_extend(app *a, const char *game_id, const char *window,
                      const char *player_id, long long seconds, json_t **out,
                      srv_error *err)
{
    *out = NULL;
    PGconn *c = db_acquire(a->db, DB_WAIT_MS);
    if (!c)
        return srv_db_failed(err);
    srv_kind k = extend_with(c, game_id, window, player_id, seconds, out, err);
    db_release(a->db, c, db_conn_broken(c));
    return k;
}

static int run(PGconn *c, const char *sql, int n, const char *const *p)
{
    PGresult *r = db_exec(c, PGRES_COMMAND_OK, sql, n, p);
    PQclear(r);
    return r ? 0 : -1;
}

/* Give seat to bot and record it; inside the transaction. */
static int replace_seat(PGconn *c, const store_game *meta, int seat,
                        const char *player, const char *bot, int k,
                        uint64_t version)
{
    char s[16], v[24];
    snprintf(s, sizeof s, "%d", seat);
    snprintf(v, sizeof v, "%llu", (unsigned long long)version);
    json_t *d = json_pack("{si ss ss si}", "seat", seat, "player", player,
                          "bot", bot, "missed", k);
    char *dt = json_dumps(d, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(d);
    const char *p[] = {meta->game_id, s, bot};
    const char *q[] = {meta->game_id, v, dt};
    int rc = !dt ||
             run(c,
                 "UPDATE game_seats SET bot = $3, player_id = NULL WHERE "
                 "game_id = $1 AND seat = $2::integer",
                 3, p) ||
             run(c,
                 "INSERT INTO game_events (game_id, at_version, kind, detail) "
                 "VALUES ($1, $2::bigint, 'seat_replaced', $3::jsonb)",
                 3, q);
    free(dt);
    return rc ? -1 : 0;
}

/* The seats whose last k waits were all missed, in the open transaction. */
static PGresult *missing_seats(PGconn *c, const char *game_id, int k)
{
    char ks[16];
    snprintf(ks, sizeof ks, "%d", k);
    const char *p[] = {game_id, ks};
    return db_exec(c, PGRES_TUPLES_OK,
                   "SELECT s.seat, s.player_id FROM game_seats s WHERE "
                   "s.game_id = $1 AND s.player_id IS NOT NULL AND s.bot IS "
                   "NULL AND $2::integer = (SELECT count(*) FROM (SELECT "
                   "w.missed FROM seat_windows w WHERE w.game_id = $1 AND "
                   "w.seat = s.seat ORDER BY w.closed_at DESC LIMIT "
                   "$2::integer) x WHERE x.missed) ORDER BY s.seat FOR UPDATE",
                   2, p);
}

uint32_t clock_replace_missing(PGconn *c, store_game *meta, uint64_t version)
{
    int k = clock_rule_int(meta, "replace_after");
    const engine_ruleset *rs = engine_ruleset_find(meta->ruleset);
    int n = 0;
    const engine_bot_level *lv = rs ? engine_bot_levels(rs, &n) : NULL;
    if (k <= 0 || !lv || n < 1 || run(c, "BEGIN", 0, NULL))
        return 0;
    PGresult *r = missing_seats(c, meta->game_id, k);
    uint32_t mask = 0;
    int bad = !r;
    for (int i = 0; !bad && i < PQntuples(r); i++) {
        int seat = atoi(PQgetvalue(r, i, 0));
        if (seat < 0 || seat >= meta->seats)
            continue;
        bad = replace_seat(c, meta, seat, PQgetvalue(r, i, 1), lv[0].id, k,
                           version) != 0;
        mask |= 1u << seat;
    }
    PQclear(r);
    if (bad || run(c, "COMMIT", 0, NULL)) {
        run(c, "ROLLBACK", 0, NULL);
        log_warn("seat_replace_failed",
                 json_pack("{ss}", "game", meta->game_id));
        return 0;
    }
    for (int s = 0; s < meta->seats; s++) {
        if (!(mask >> s & 1))
            continue;
        snprintf(meta->seat_bot[s], sizeof meta->seat_bot[s], "%s", lv[0].id);
        meta->seat_player[s][0] = '\0';
        meta->seat_name[s][0] = '\0';
    }
    return mask;
}

json_t *clock_game_events(PGconn *c, const char *game_id, const char *upto,
                          int min_age)
{
    char age[16];
    snprintf(age, sizeof age, "%d", min_age);
    const char *p[] = {game_id, upto, age};
    PGresult *r = db_exec(
        c, PGRES_TUPLES_OK,
        "SELECT at_version, kind, detail::text, " TS(
            "created_at") " FROM game_events WHERE game_id = $1 AND "
                          "($2::bigint IS NULL OR at_version <= $2::bigint) "
                          "AND created_at <= now() - make_interval(secs => "
                          "$3::integer) ORDER BY n",
        3, p);
    if (!r)
        return NULL;
    json_t *list = json_array();
    for (int i = 0; i < PQntuples(r); i++) {
        json_t *d = json_loads(PQgetvalue(r, i, 2), 0, NULL);
        json_t *e =
            json_pack("{sI ss ss}", "version",
                      (json_int_t)strtoll(PQgetvalue(r, i, 0), NULL, 10),
                      "kind", PQgetvalue(r, i, 1), "at", PQgetvalue(r, i, 3));
        if (json_is_object(d)) {
            json_object_del(d, "player"); /* the log is public: no ids */
            json_object_update(e, d);
        }
        json_decref(d);
        json_array_append_new(list, e);
    }
    PQclear(r);
    return list;
}

srv_kind clock_events_get(db_pool *db, const char *game_id, const char *upto,
                          int min_age, json_t **out, srv_error *err)
{
    PGconn *c = db_acquire(db, DB_WAIT_MS);
    *out = c ? clock_game_events(c, game_id, upto, min_age) : NULL;
    if (c)
        db_release(db, c, db_conn_broken(c));
    return *out ? SRV_OK : srv_db_failed(err);
}

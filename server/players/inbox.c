/*
 * inbox.c - the "your move" inbox (see inbox.h).
 */
#include "server/players/inbox.h"

#include "engine/engine.h"
#include "server/store/db.h"

#include <stdio.h>
#include <stdlib.h>

#define DB_WAIT_MS 2000

#define RFC3339(col)                                                           \
    "to_char(" col " AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"

json_t *inbox_load(PGconn *c, const char *player_id)
{
    char limit[16];
    snprintf(limit, sizeof limit, "%d", INBOX_MAX);
    const char *p[] = {player_id, limit};
    PGresult *r =
        db_exec(c, PGRES_TUPLES_OK,
                "SELECT t.game_id, g.ruleset, t.window_id, "
                "t.seat, " RFC3339("t.since") ", coalesce(" RFC3339(
                    "d.due_at") ", '') "
                                "FROM game_seats s JOIN turns_waiting t ON "
                                "t.game_id = s.game_id AND t.seat = s.seat "
                                "JOIN games g ON g.game_id = s.game_id AND "
                                "g.status = 'running' "
                                "LEFT JOIN deadlines d ON d.game_id = "
                                "t.game_id AND "
                                "d.window_id = t.window_id "
                                "WHERE s.player_id = $1 AND s.bot IS NULL "
                                "ORDER BY d.due_at NULLS LAST, t.since, "
                                "t.game_id "
                                "LIMIT $2::integer",
                2, p);
    if (!r)
        return NULL;
    json_t *list = json_array();
    for (int i = 0; i < PQntuples(r); i++) {
        const char *game = PQgetvalue(r, i, 0);
        const char *due = PQgetvalue(r, i, 5);
        char link[96], label[ENGINE_WINDOW_LABEL_MAX];
        snprintf(link, sizeof link, "/game/%s", game);
        engine_window_label(engine_ruleset_find(PQgetvalue(r, i, 1)),
                            PQgetvalue(r, i, 2), label, sizeof label);
        json_array_append_new(
            list,
            json_pack("{ss ss ss ss si ss so ss}", "game", game, "ruleset",
                      PQgetvalue(r, i, 1), "window", PQgetvalue(r, i, 2),
                      "label", label, "seat", atoi(PQgetvalue(r, i, 3)),
                      "since", PQgetvalue(r, i, 4), "deadline",
                      *due ? json_string(due) : json_null(), "link", link));
    }
    PQclear(r);
    return json_pack("{so si}", "turns", list, "count",
                     (int)json_array_size(list));
}

srv_kind inbox_get(db_pool *db, const char *player_id, json_t **out,
                   srv_error *err)
{
    PGconn *c = db_acquire(db, DB_WAIT_MS);
    *out = c ? inbox_load(c, player_id) : NULL;
    if (c)
        db_release(db, c, db_conn_broken(c));
    return *out ? SRV_OK : srv_db_failed(err);
}

int inbox_game_players(PGconn *c, const char *game_id,
                       char (*players)[STORE_ID_MAX], int max)
{
    const char *p[] = {game_id};
    PGresult *r = db_exec(c, PGRES_TUPLES_OK,
                          "SELECT DISTINCT player_id FROM game_seats WHERE "
                          "game_id = $1 AND player_id IS NOT NULL",
                          1, p);
    if (!r)
        return -1;
    int n = 0;
    for (int i = 0; i < PQntuples(r) && n < max; i++)
        snprintf(players[n++], STORE_ID_MAX, "%s", PQgetvalue(r, i, 0));
    PQclear(r);
    return n;
}

/*
 * records.c - per-player records across games (see records.h).
 */
#include "server/players/records.h"

#include "engine/engine.h"
#include "server/store/db.h"

#include <stdlib.h>
#include <string.h>

#define DB_WAIT_MS 2000

/* Fold result into the record of the player in seat (row i of seats). */
static int fold_one(PGconn *c, const engine_ruleset *rs, const char *ruleset,
                    const json_t *options, int nseats, int seat,
                    const char *player_id, const json_t *result)
{
    const char *p[] = {player_id, ruleset, NULL};
    PGresult *r = db_exec(c, PGRES_TUPLES_OK,
                          "SELECT record::text FROM player_records WHERE "
                          "player_id = $1 AND ruleset = $2 FOR UPDATE",
                          2, p);
    if (!r)
        return -1;
    json_t *old =
        PQntuples(r) == 1 ? json_loads(PQgetvalue(r, 0, 0), 0, NULL) : NULL;
    PQclear(r);
    json_t *next = engine_record_next(rs, old, options, nseats, seat, result);
    json_decref(old);
    if (!next)
        return 0; /* the game is not part of this player's record */
    char *text = json_dumps(next, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(next);
    if (!text)
        return -1;
    p[2] = text;
    r = db_exec(c, PGRES_COMMAND_OK,
                "INSERT INTO player_records (player_id, ruleset, record) "
                "VALUES ($1, $2, $3::jsonb) ON CONFLICT (player_id, ruleset) "
                "DO UPDATE SET record = EXCLUDED.record, updated_at = now()",
                3, p);
    free(text);
    if (!r)
        return -1;
    PQclear(r);
    return 0;
}

int records_game_finished(PGconn *c, const char *game_id, const json_t *result)
{
    const char *p[] = {game_id};
    PGresult *g = db_exec(c, PGRES_TUPLES_OK,
                          "SELECT ruleset, options::text, seat_count FROM "
                          "games WHERE game_id = $1",
                          1, p);
    if (!g)
        return -1;
    const engine_ruleset *rs =
        PQntuples(g) == 1 ? engine_ruleset_find(PQgetvalue(g, 0, 0)) : NULL;
    if (!rs || !engine_record_key(rs)) {
        PQclear(g);
        return 0;
    }
    json_t *options = json_loads(PQgetvalue(g, 0, 1), 0, NULL);
    int nseats = atoi(PQgetvalue(g, 0, 2));
    PGresult *s = db_exec(c, PGRES_TUPLES_OK,
                          "SELECT seat, player_id FROM game_seats WHERE "
                          "game_id = $1 AND player_id IS NOT NULL ORDER BY "
                          "seat",
                          1, p);
    int rc = s ? 0 : -1;
    for (int i = 0; s && rc == 0 && i < PQntuples(s); i++)
        rc = fold_one(c, rs, PQgetvalue(g, 0, 0), options, nseats,
                      atoi(PQgetvalue(s, i, 0)), PQgetvalue(s, i, 1), result);
    PQclear(s);
    PQclear(g);
    json_decref(options);
    return rc;
}

json_t *records_of_player(PGconn *c, const char *player_id)
{
    const char *p[] = {player_id};
    PGresult *r = db_exec(c, PGRES_TUPLES_OK,
                          "SELECT ruleset, record::text FROM player_records "
                          "WHERE player_id = $1",
                          1, p);
    if (!r)
        return NULL;
    size_t n = 0;
    const engine_ruleset *const *all = engine_rulesets(&n);
    json_t *out = json_object();
    for (size_t i = 0; out && i < n; i++) {
        const char *key = engine_record_key(all[i]);
        if (!key)
            continue;
        json_t *rec = NULL;
        for (int k = 0; !rec && k < PQntuples(r); k++)
            if (strcmp(PQgetvalue(r, k, 0), engine_ruleset_id(all[i])) == 0)
                rec = json_loads(PQgetvalue(r, k, 1), 0, NULL);
        if (!rec)
            rec = engine_record_next(all[i], NULL, NULL, 0, -1, NULL);
        if (rec)
            json_object_set_new(out, key, rec);
    }
    PQclear(r);
    return out;
}

/* One ruleset's backfill, inside the caller's transaction. */
static int backfill_one(PGconn *c, const char *ruleset)
{
    const char *p[] = {ruleset};
    PGresult *r = db_exec(c, PGRES_TUPLES_OK,
                          "INSERT INTO record_backfills (ruleset) VALUES ($1) "
                          "ON CONFLICT DO NOTHING RETURNING ruleset",
                          1, p);
    if (!r)
        return -1;
    int first = PQntuples(r) == 1;
    PQclear(r);
    if (!first)
        return 0; /* done before, by this process or another */
    r = db_exec(c, PGRES_TUPLES_OK,
                "SELECT game_id, result::text FROM games WHERE ruleset = $1 "
                "AND status = 'finished' AND result IS NOT NULL "
                "ORDER BY updated_at, game_id",
                1, p);
    if (!r)
        return -1;
    int rc = 0;
    for (int i = 0; rc == 0 && i < PQntuples(r); i++) {
        json_t *result = json_loads(PQgetvalue(r, i, 1), 0, NULL);
        if (result)
            rc = records_game_finished(c, PQgetvalue(r, i, 0), result);
        json_decref(result);
    }
    PQclear(r);
    return rc;
}

int records_backfill(PGconn *c)
{
    size_t n = 0;
    const engine_ruleset *const *all = engine_rulesets(&n);
    for (size_t i = 0; i < n; i++) {
        if (!engine_record_key(all[i]))
            continue;
        PGresult *r = db_exec(c, PGRES_COMMAND_OK, "BEGIN", 0, NULL);
        if (!r)
            return -1;
        PQclear(r);
        int rc = backfill_one(c, engine_ruleset_id(all[i]));
        r = db_exec(c, PGRES_COMMAND_OK, rc == 0 ? "COMMIT" : "ROLLBACK", 0,
                    NULL);
        PQclear(r);
        if (rc != 0 || !r)
            return -1;
    }
    return 0;
}

/* The ruleset whose records GET /me shows under key, or NULL. */
static const engine_ruleset *ruleset_of_key(const char *key)
{
    size_t n = 0;
    const engine_ruleset *const *all = engine_rulesets(&n);
    for (size_t i = 0; i < n; i++) {
        const char *k = engine_record_key(all[i]);
        if (k && strcmp(k, key) == 0)
            return all[i];
    }
    return NULL;
}

static srv_kind engine_kind(int code)
{
    return code == ENGINE_EINVALID    ? SRV_INVALID
           : code == ENGINE_ECONFLICT ? SRV_CONFLICT
                                      : SRV_INTERNAL;
}

/* Inside the caller's transaction: lock, choose, store. */
static srv_kind choose_locked(PGconn *c, const engine_ruleset *rs,
                              const char *player_id, const json_t *choice,
                              json_t **record, srv_error *err)
{
    const char *p[] = {player_id, engine_ruleset_id(rs), NULL};
    PGresult *r = db_exec(c, PGRES_TUPLES_OK,
                          "SELECT record::text FROM player_records WHERE "
                          "player_id = $1 AND ruleset = $2 FOR UPDATE",
                          2, p);
    if (!r)
        return srv_db_failed(err);
    json_t *old =
        PQntuples(r) == 1 ? json_loads(PQgetvalue(r, 0, 0), 0, NULL) : NULL;
    PQclear(r);
    if (!old)
        return srv_fail(err, SRV_CONFLICT, NULL,
                        "there is nothing to choose yet: no game of yours "
                        "has been recorded");
    engine_error e = {0};
    int rc = engine_record_choose(rs, old, choice, record, &e);
    json_decref(old);
    if (rc != 0)
        return srv_fail(err, engine_kind(rc), e.field[0] ? e.field : NULL, "%s",
                        e.msg);
    char *text = json_dumps(*record, JSON_COMPACT | JSON_SORT_KEYS);
    p[2] = text;
    r = text ? db_exec(c, PGRES_COMMAND_OK,
                       "UPDATE player_records SET record = $3::jsonb, "
                       "updated_at = now() WHERE player_id = $1 AND "
                       "ruleset = $2",
                       3, p)
             : NULL;
    free(text);
    if (!r) {
        json_decref(*record);
        *record = NULL;
        return srv_db_failed(err);
    }
    PQclear(r);
    return SRV_OK;
}

srv_kind records_choose(db_pool *db, const char *player_id, const char *key,
                        const json_t *choice, json_t **record, srv_error *err)
{
    *record = NULL;
    const engine_ruleset *rs = ruleset_of_key(key);
    if (!rs)
        return srv_fail(err, SRV_NOT_FOUND, NULL,
                        "no game keeps a record called \"%.40s\"", key);
    PGconn *c = db_acquire(db, DB_WAIT_MS);
    if (!c)
        return srv_db_failed(err);
    PGresult *r = db_exec(c, PGRES_COMMAND_OK, "BEGIN", 0, NULL);
    srv_kind k = r ? choose_locked(c, rs, player_id, choice, record, err)
                   : srv_db_failed(err);
    PQclear(r);
    if (r) {
        PGresult *end = db_exec(c, PGRES_COMMAND_OK,
                                k == SRV_OK ? "COMMIT" : "ROLLBACK", 0, NULL);
        if (!end && k == SRV_OK) {
            json_decref(*record);
            *record = NULL;
            k = srv_db_failed(err);
        }
        PQclear(end);
    }
    db_release(db, c, db_conn_broken(c));
    return k;
}

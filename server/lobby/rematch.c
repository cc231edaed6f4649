/*
 * rematch.c - the rematch of a finished game (see rematch.h): reads the
 * game and its lobby, makes the new lobby through lobby_create (which owns
 * the checks and the announcement) and seats the game's bots again.
 */
#include "server/lobby/rematch.h"

#include "server/lobby/lobby.h"
#include "server/lobby/lobby_change.h"
#include "server/runtime/log.h"
#include "server/store/db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DB_WAIT_MS 2000

/* What a rematch needs to know about a game, for one caller. */
typedef struct game_facts {
    char status[16];
    char lobby[STORE_ID_MAX]; /* the game's lobby, "" when none */
    char ruleset[64];
    int seats;
    int is_player;              /* the caller is seated in the game */
    char rematch[STORE_ID_MAX]; /* its rematch lobby, "" when none */
    char code[STORE_ID_MAX];    /* that lobby's invite code, "" when public */
} game_facts;

/* Read game_id's facts for player_id: SRV_OK, SRV_NOT_FOUND (no such game)
 * or SRV_FORBIDDEN (player_id is not one of its players). */
static srv_kind look(app *a, const char *game_id, const char *player_id,
                     game_facts *f, srv_error *err)
{
    memset(f, 0, sizeof *f);
    PGconn *c = db_acquire(a->db, DB_WAIT_MS);
    if (!c)
        return srv_db_failed(err);
    const char *p[] = {game_id, player_id};
    PGresult *r = db_exec(
        c, PGRES_TUPLES_OK,
        "SELECT g.status, coalesce(g.lobby_id, ''), g.ruleset, g.seat_count, "
        "EXISTS (SELECT 1 FROM game_seats s WHERE s.game_id = g.game_id AND "
        "s.player_id = $2), coalesce(r.lobby_id, '') FROM games g LEFT JOIN "
        "game_rematches r ON r.game_id = g.game_id WHERE g.game_id = $1",
        2, p);
    srv_kind k = SRV_OK;
    if (!r)
        k = srv_db_failed(err);
    else if (PQntuples(r) == 0)
        k = srv_fail(err, SRV_NOT_FOUND, NULL, "no such game");
    else {
        snprintf(f->status, sizeof f->status, "%s", PQgetvalue(r, 0, 0));
        snprintf(f->lobby, sizeof f->lobby, "%s", PQgetvalue(r, 0, 1));
        snprintf(f->ruleset, sizeof f->ruleset, "%s", PQgetvalue(r, 0, 2));
        f->seats = atoi(PQgetvalue(r, 0, 3));
        f->is_player = strcmp(PQgetvalue(r, 0, 4), "t") == 0;
        snprintf(f->rematch, sizeof f->rematch, "%s", PQgetvalue(r, 0, 5));
        if (!f->is_player)
            k = srv_fail(err, SRV_FORBIDDEN, NULL,
                         "only the players of this game can see or make its "
                         "rematch");
    }
    PQclear(r);
    r = NULL;
    if (k == SRV_OK && f->rematch[0]) {
        /* The code, read by the lobby's own key (lobbies are keyed by
         * lobby, games by game: docs/scaling.md). */
        const char *q[] = {f->rematch};
        r = db_exec(c, PGRES_TUPLES_OK,
                    "SELECT coalesce(invite_code, '') FROM lobbies WHERE "
                    "id = $1",
                    1, q);
        if (!r)
            k = srv_db_failed(err);
        else if (PQntuples(r) == 1)
            snprintf(f->code, sizeof f->code, "%s", PQgetvalue(r, 0, 0));
    }
    int broken = db_conn_broken(c);
    PQclear(r);
    db_release(a->db, c, broken);
    return k;
}

/* The lobby's options without the campaign ones. NEW. */
static json_t *rematch_options(const json_t *options)
{
    json_t *out = json_object();
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)options, key, v)
    {
        if (strncmp(key, "campaign", 8) != 0)
            json_object_set(out, key, v);
    }
    return out;
}

/* Seat the bots of the game's lobby l in lobby id, hosted by player_id in
 * seat 0: each in its own seat, and a bot that sat in seat 0 in the first
 * free one. A bot that cannot be seated is left out (the host can add it). */
static void seat_bots(app *a, const char *id, const char *player_id,
                      const lobby_row *l)
{
    for (int pass = 0; pass < 2; pass++)
        for (int s = 0; s < l->seats; s++) {
            if (!l->seat_bot[s][0] || (s == 0) != (pass == 1))
                continue;
            json_t *lobby = NULL;
            srv_error e = {0};
            if (lobby_add_bot(a, id, player_id, l->seat_bot[s],
                              s == 0 ? LOBBY_SEAT_ANY : s, &lobby,
                              &e) != SRV_OK)
                log_warn("rematch_bot_not_seated",
                         json_pack("{ss ss ss}", "lobby", id, "bot",
                                   l->seat_bot[s], "reason", e.detail));
            json_decref(lobby);
        }
}

/* Make the rematch lobby of game_id (facts f) hosted by player_id. */
static srv_kind make(app *a, const char *game_id, const char *player_id,
                     const game_facts *f, srv_error *err)
{
    lobby_row l;
    memset(&l, 0, sizeof l);
    int have_lobby = 0;
    if (f->lobby[0]) {
        PGconn *c = db_acquire(a->db, DB_WAIT_MS);
        if (!c)
            return srv_db_failed(err);
        int st = lobby_read(c, f->lobby, 0, &l);
        db_release(a->db, c, db_conn_broken(c));
        if (st < 0) {
            lobby_row_clear(&l);
            return srv_db_failed(err);
        }
        have_lobby = st == 0;
    }
    json_t *options = rematch_options(have_lobby ? l.options : NULL);
    lobby_spec spec = {.ruleset = f->ruleset,
                       .seats = f->seats,
                       .options = options,
                       .rematch_of = game_id};
    if (have_lobby) {
        spec.is_private = l.is_private;
        spec.clock_mode = l.clock_mode;
        spec.clock_seconds = l.clock_seconds;
        spec.clock = l.clock_rules;
        spec.delay_versions = l.delay_versions;
        spec.delay_seconds = l.delay_seconds;
    }
    char id[STORE_ID_MAX];
    json_t *lobby = NULL;
    srv_kind k = lobby_create(a, player_id, &spec, id, &lobby, err);
    json_decref(lobby);
    json_decref(options);
    if (k == SRV_OK && have_lobby)
        seat_bots(a, id, player_id, &l);
    lobby_row_clear(&l);
    return k;
}

/* The answer for f's rematch lobby, as player_id sees it. */
static srv_kind answer(app *a, const char *player_id, const game_facts *f,
                       int created, json_t **out, srv_error *err)
{
    json_t *lobby;
    srv_kind k = lobby_get(a, f->rematch, player_id,
                           f->code[0] ? f->code : NULL, &lobby, err);
    if (k != SRV_OK)
        return k;
    *out = json_pack("{so so sb}", "lobby", lobby, "invite_code",
                     f->code[0] ? json_string(f->code) : json_null(), "created",
                     created);
    return *out ? SRV_OK : srv_fail(err, SRV_INTERNAL, NULL, "out of memory");
}

srv_kind rematch_offer(app *a, const char *game_id, const char *player_id,
                       json_t **out, srv_error *err)
{
    *out = NULL;
    game_facts f;
    srv_kind k = look(a, game_id, player_id, &f, err);
    if (k != SRV_OK)
        return k;
    int created = 0;
    if (!f.rematch[0]) {
        if (strcmp(f.status, "running") == 0)
            return srv_fail(err, SRV_CONFLICT, NULL,
                            "the game is still being played; a rematch can "
                            "be made once it ends");
        k = make(a, game_id, player_id, &f, err);
        if (k != SRV_OK && k != SRV_CONFLICT)
            return k;
        created = k == SRV_OK;
        if ((k = look(a, game_id, player_id, &f, err)) != SRV_OK)
            return k;
        if (!f.rematch[0])
            return srv_fail(err, SRV_INTERNAL, NULL,
                            "the rematch lobby was made but cannot be read");
    }
    return answer(a, player_id, &f, created, out, err);
}

srv_kind rematch_find(app *a, const char *game_id, const char *player_id,
                      json_t **out, srv_error *err)
{
    *out = NULL;
    game_facts f;
    srv_kind k = look(a, game_id, player_id, &f, err);
    if (k != SRV_OK)
        return k;
    if (!f.rematch[0])
        return SRV_OK; /* none yet: *out stays NULL */
    return answer(a, player_id, &f, 0, out, err);
}

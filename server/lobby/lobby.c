/*
 * lobby.c - loading and rendering lobbies (see lobby.h).
 *
 * Two statements per call whatever the number of lobbies: one for the
 * lobby rows (with the host's name), one for all their seats.
 */
#include "server/lobby/lobby.h"
#include "server/store/db.h"

#include "server/runtime/log.h"

#include "server/players/reputation.h"

#include <openssl/crypto.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The rematch lobby of a game whose end its spectators may not see yet
 * (server/game/spectate.h: a seconds delay holds a finished game's last
 * versions for their time; the versions delay ends with the game) is held
 * back from everyone but its members and the game's players, or it would
 * tell the game's delayed spectators that the game is over. The column:
 * '' when not held, else the game's players as " id id ... ". Only a
 * rematch lobby (found by game_rematches' lobby index) reads the game: a
 * plan made while the tables had no statistics would otherwise scan every
 * game for each lobby read, until the next ANALYZE. */
#define HELD_WHERE                                                             \
    "g.delay_seconds > 0 AND i.created_at > now() - make_interval(secs => "    \
    "g.delay_seconds)"
#define HELD_SQL                                                               \
    "CASE WHEN EXISTS (SELECT 1 FROM game_rematches r0 WHERE r0.lobby_id = "   \
    "l.id) THEN coalesce((SELECT ' ' || coalesce(string_agg(gs.player_id, "    \
    "' '), '') || ' ' FROM game_rematches r JOIN games g ON g.game_id = "      \
    "r.game_id JOIN game_inputs i ON i.game_id = g.game_id AND i.seq = "       \
    "g.version LEFT JOIN game_seats gs ON gs.game_id = g.game_id WHERE "       \
    "r.lobby_id = l.id AND " HELD_WHERE " GROUP BY r.game_id), '') ELSE '' "   \
    "END"

#define LOBBY_COLUMNS                                                          \
    "SELECT l.id, l.ruleset, l.options::text, l.host_id, hp.name, "            \
    "l.private, coalesce(l.invite_code, ''), l.clock_mode, l.clock_seconds, "  \
    "l.seat_count, l.status, coalesce(l.game_id, ''), l.delay_versions, "      \
    "l.delay_seconds, l.clock_rules::text, " HELD_SQL                          \
    " FROM lobbies l JOIN players hp ON hp.id = l.host_id "

enum {
    COL_ID,
    COL_RULESET,
    COL_OPTIONS,
    COL_HOST_ID,
    COL_HOST_NAME,
    COL_PRIVATE,
    COL_CODE,
    COL_CLOCK_MODE,
    COL_CLOCK_SECONDS,
    COL_SEATS,
    COL_STATUS,
    COL_GAME,
    COL_DELAY_VERSIONS,
    COL_DELAY_SECONDS,
    COL_CLOCK_RULES,
    COL_HELD
};

/* Is row i of lobbies held back from viewer (see HELD_SQL), who is not a
 * member? */
static int held_from(PGresult *lobbies, int i, const char *viewer)
{
    const char *held = PQgetvalue(lobbies, i, COL_HELD);
    if (!*held)
        return 0;
    if (!viewer || !*viewer)
        return 1;
    size_t n = strlen(viewer);
    for (const char *p = strstr(held, viewer); p; p = strstr(p + 1, viewer))
        if (p > held && p[-1] == ' ' && p[n] == ' ')
            return 0;
    return 1;
}

static PGresult *query(PGconn *c, const char *sql, int n,
                       const char *const *params)
{
    PGresult *r = db_query(c, sql, n, NULL, params, NULL, NULL, 0);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
        const char *msg = PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY);
        log_warn("lobby_query_failed",
                 json_pack("{ss ss}", "sqlstate", state ? state : "", "error",
                           msg ? msg : "connection failure"));
        PQclear(r);
        return NULL;
    }
    return r;
}

/* The seats of the lobbies that the SQL condition `which` on s.lobby_id
 * picks, ordered by lobby and seat. */
#define SEATS_SQL(which)                                                       \
    "SELECT s.lobby_id, s.seat, coalesce(s.player_id, ''), "                   \
    "coalesce(p.name, ''), coalesce(s.bot, ''), "                              \
    "coalesce(rep.counts, '') FROM lobby_seats s "                             \
    "LEFT JOIN players p ON p.id = s.player_id "                               \
    "LEFT JOIN LATERAL (" REPUTATION_SQL(                                      \
        "s.player_id") ") rep ON true WHERE s.lobby_id " which                 \
                       " ORDER BY s.lobby_id, s.seat"
/* Those of one lobby ($1), through the primary key. */
#define SEATS_ONE_SQL SEATS_SQL("= $1")
/* Those of a list of lobbies ($1, a text array). */
#define SEATS_ANY_SQL SEATS_SQL("= ANY ($1::text[])")

/* The seats of the lobbies in `lobbies` (rows of LOBBY_COLUMNS), their
 * ids passed as one text[] literal. */
static PGresult *load_seats(PGconn *c, PGresult *lobbies)
{
    size_t cap = 3;
    for (int i = 0; i < PQntuples(lobbies); i++)
        cap += 2 * (size_t)PQgetlength(lobbies, i, COL_ID) + 3;
    char *text = malloc(cap);
    if (!text)
        return NULL;
    size_t at = 0;
    text[at++] = '{';
    for (int i = 0; i < PQntuples(lobbies); i++) {
        const char *id = PQgetvalue(lobbies, i, COL_ID);
        if (i)
            text[at++] = ',';
        text[at++] = '"';
        for (; *id; id++) {
            if (*id == '"' || *id == '\\')
                text[at++] = '\\';
            text[at++] = *id;
        }
        text[at++] = '"';
    }
    text[at++] = '}';
    text[at] = '\0';
    const char *p[] = {text};
    PGresult *r = query(c, SEATS_ANY_SQL, 1, p);
    free(text);
    return r;
}

static int code_matches(const char *stored, const char *given)
{
    size_t n = strlen(stored);
    return given && *stored && strlen(given) == n &&
           CRYPTO_memcmp(stored, given, n) == 0;
}

/* Render row i of lobbies with its seats. *member receives whether viewer
 * holds a seat. NEW, or NULL on OOM. */
static json_t *render(PGresult *lobbies, int i, PGresult *seats,
                      const char *viewer, int *member)
{
    const char *id = PQgetvalue(lobbies, i, COL_ID);
    int nseats = atoi(PQgetvalue(lobbies, i, COL_SEATS));
    json_t *options = json_loads(PQgetvalue(lobbies, i, COL_OPTIONS), 0, NULL);
    json_t *list = json_array();
    *member = 0;
    for (int s = 0; s < nseats; s++) {
        json_t *player = json_null(), *bot = json_null();
        for (int k = 0; k < PQntuples(seats); k++) {
            if (strcmp(PQgetvalue(seats, k, 0), id) != 0 ||
                atoi(PQgetvalue(seats, k, 1)) != s)
                continue;
            const char *pid = PQgetvalue(seats, k, 2);
            const char *b = PQgetvalue(seats, k, 4);
            if (*pid) {
                player = json_pack("{ss ss so}", "id", pid, "name",
                                   PQgetvalue(seats, k, 3), "reputation",
                                   reputation_json(seats, k, 5));
                if (viewer && strcmp(viewer, pid) == 0)
                    *member = 1;
            } else if (*b) {
                bot = json_string(b);
            }
            break;
        }
        int ready = !json_is_null(player) || !json_is_null(bot);
        json_array_append_new(list,
                              json_pack("{si so so sb}", "seat", s, "player",
                                        player, "bot", bot, "ready", ready));
    }
    const char *game = PQgetvalue(lobbies, i, COL_GAME);
    json_t *o =
        json_pack("{ss ss so s{ss ss} sb s{ss si} ss so so}", "id", id,
                  "ruleset", PQgetvalue(lobbies, i, COL_RULESET), "options",
                  options ? options : json_object(), "host", "id",
                  PQgetvalue(lobbies, i, COL_HOST_ID), "name",
                  PQgetvalue(lobbies, i, COL_HOST_NAME), "private",
                  strcmp(PQgetvalue(lobbies, i, COL_PRIVATE), "t") == 0,
                  "clock", "mode", PQgetvalue(lobbies, i, COL_CLOCK_MODE),
                  "seconds", atoi(PQgetvalue(lobbies, i, COL_CLOCK_SECONDS)),
                  "status", PQgetvalue(lobbies, i, COL_STATUS), "seats", list,
                  "game", *game ? json_string(game) : json_null());
    json_t *rules =
        json_loads(PQgetvalue(lobbies, i, COL_CLOCK_RULES), 0, NULL);
    if (o && json_is_object(rules))
        json_object_update(json_object_get(o, "clock"), rules);
    json_decref(rules);
    if (o)
        json_object_set_new(
            o, "spectator_delay",
            json_pack("{si si}", "versions",
                      atoi(PQgetvalue(lobbies, i, COL_DELAY_VERSIONS)),
                      "seconds",
                      atoi(PQgetvalue(lobbies, i, COL_DELAY_SECONDS))));
    if (o && *member && *PQgetvalue(lobbies, i, COL_CODE))
        json_object_set_new(o, "invite_code",
                            json_string(PQgetvalue(lobbies, i, COL_CODE)));
    return o;
}

void lobby_load_stmts(const char *const *id_param, db_stmt st[2])
{
    st[0] = (db_stmt){LOBBY_COLUMNS "WHERE l.id = $1", 1, id_param,
                      PGRES_TUPLES_OK, 0};
    st[1] = (db_stmt){SEATS_ONE_SQL, 1, id_param, PGRES_TUPLES_OK, 0};
}

srv_kind lobby_from_results(PGresult *l, PGresult *s,
                            const char *viewer_player_id, const char *code,
                            int force_visible, json_t **out)
{
    json_t *o = NULL;
    int member = 0;
    srv_kind k = SRV_NOT_FOUND;
    if (PQntuples(l) == 1) {
        o = render(l, 0, s, viewer_player_id, &member);
        int visible = force_visible || member ||
                      ((strcmp(PQgetvalue(l, 0, COL_PRIVATE), "t") != 0 ||
                        code_matches(PQgetvalue(l, 0, COL_CODE), code)) &&
                       !held_from(l, 0, viewer_player_id));
        if (!visible) {
            json_decref(o);
            o = NULL;
        } else {
            k = o ? SRV_OK : SRV_UNAVAILABLE;
        }
    }
    PQclear(s);
    PQclear(l);
    *out = o;
    return k;
}

srv_kind lobby_load_ex(PGconn *c, const char *lobby_id,
                       const char *viewer_player_id, const char *code,
                       int force_visible, json_t **out)
{
    const char *p[] = {lobby_id};
    db_stmt st[2];
    lobby_load_stmts(p, st);
    PGresult *res[2];
    if (db_pipeline(c, st, 2, res) != 0) {
        *out = NULL;
        return SRV_UNAVAILABLE;
    }
    return lobby_from_results(res[0], res[1], viewer_player_id, code,
                              force_visible, out);
}

srv_kind lobby_load(PGconn *c, const char *lobby_id,
                    const char *viewer_player_id, json_t **out)
{
    return lobby_load_ex(c, lobby_id, viewer_player_id, NULL, 0, out);
}

/* Render the lobbies a LOBBY_COLUMNS query with params p found into *out
 * (NEW): SRV_OK, or SRV_UNAVAILABLE and NULL. */
static srv_kind list_of(PGconn *c, const char *sql, int n, const char *const *p,
                        const char *viewer_player_id, json_t **out)
{
    *out = NULL;
    PGresult *l = query(c, sql, n, p);
    if (!l)
        return SRV_UNAVAILABLE;
    PGresult *s = load_seats(c, l);
    if (!s) {
        PQclear(l);
        return SRV_UNAVAILABLE;
    }
    json_t *list = json_array();
    for (int i = 0; list && i < PQntuples(l); i++) {
        int member;
        json_t *o = render(l, i, s, viewer_player_id, &member);
        if (o && !member && held_from(l, i, viewer_player_id)) {
            json_decref(o);
            continue;
        }
        if (!o || json_array_append_new(list, o) != 0) {
            json_decref(list);
            list = NULL;
        }
    }
    PQclear(s);
    PQclear(l);
    *out = list;
    return list ? SRV_OK : SRV_UNAVAILABLE;
}

srv_kind lobby_list(PGconn *c, const char *status_filter, const char *ruleset,
                    const char *viewer_player_id, json_t **out)
{
    const char *p[] = {status_filter, ruleset, viewer_player_id};
    return list_of(
        c,
        LOBBY_COLUMNS
        "WHERE l.status = $1 AND ($2::text IS NULL OR l.ruleset = $2) AND "
        "(NOT l.private OR EXISTS (SELECT 1 FROM lobby_seats m WHERE "
        "m.lobby_id = l.id AND m.player_id = $3)) "
        "ORDER BY l.created_at DESC, l.id LIMIT 100",
        3, p, viewer_player_id, out);
}

json_t *lobby_list_member(PGconn *c, const char *player_id)
{
    const char *p[] = {player_id};
    json_t *list;
    list_of(c,
            LOBBY_COLUMNS
            "WHERE l.status = 'open' AND EXISTS (SELECT 1 FROM "
            "lobby_seats m WHERE m.lobby_id = l.id AND m.player_id = "
            "$1) ORDER BY l.created_at DESC, l.id LIMIT 100",
            1, p, player_id, &list);
    return list;
}

json_t *lobby_released(PGconn *c, char *since, size_t n)
{
    const char *p[] = {*since ? since : NULL};
    PGresult *r = query(
        c,
        "SELECT now()::text, coalesce(json_agg(r.lobby_id), '[]')::text FROM "
        "game_rematches r JOIN games g ON g.game_id = r.game_id JOIN "
        "game_inputs i ON i.game_id = g.game_id AND i.seq = g.version WHERE "
        "g.delay_seconds > 0 AND r.made_at > now() - interval '1 day 1 hour' "
        "AND i.created_at + make_interval(secs => g.delay_seconds) > "
        "$1::timestamptz AND i.created_at + make_interval(secs => "
        "g.delay_seconds) <= now()",
        1, p);
    if (!r)
        return NULL;
    json_t *ids = json_loads(PQgetvalue(r, 0, 1), 0, NULL);
    if (ids)
        snprintf(since, n, "%s", PQgetvalue(r, 0, 0));
    PQclear(r);
    return ids;
}

srv_kind lobby_list_open(PGconn *c, const char *ruleset, json_t **out)
{
    return lobby_list(c, "open", ruleset, NULL, out);
}

#define ROW_SQL                                                                \
    "SELECT id, ruleset, options::text, host_id, private, "                    \
    "coalesce(invite_code, ''), clock_mode, clock_seconds, seat_count, "       \
    "status, delay_versions, delay_seconds, clock_rules::text FROM lobbies "   \
    "WHERE id = $1"
#define ROW_SEATS_SQL                                                          \
    "SELECT seat, coalesce(player_id, ''), coalesce(bot, '') FROM "            \
    "lobby_seats WHERE lobby_id = $1"

/* Fill out from a ROW_SQL result r and a ROW_SEATS_SQL result seats: 0,
 * or 1 when r has no row. */
static int parse_row(PGresult *r, PGresult *seats, lobby_row *out)
{
    if (PQntuples(r) != 1)
        return 1;
    snprintf(out->id, sizeof out->id, "%s", PQgetvalue(r, 0, 0));
    snprintf(out->ruleset, sizeof out->ruleset, "%s", PQgetvalue(r, 0, 1));
    out->options = json_loads(PQgetvalue(r, 0, 2), 0, NULL);
    snprintf(out->host, sizeof out->host, "%s", PQgetvalue(r, 0, 3));
    out->is_private = strcmp(PQgetvalue(r, 0, 4), "t") == 0;
    snprintf(out->code, sizeof out->code, "%s", PQgetvalue(r, 0, 5));
    snprintf(out->clock_mode, sizeof out->clock_mode, "%s",
             PQgetvalue(r, 0, 6));
    out->clock_seconds = atoi(PQgetvalue(r, 0, 7));
    out->seats = atoi(PQgetvalue(r, 0, 8));
    snprintf(out->status, sizeof out->status, "%s", PQgetvalue(r, 0, 9));
    out->delay_versions = atoi(PQgetvalue(r, 0, 10));
    out->delay_seconds = atoi(PQgetvalue(r, 0, 11));
    out->clock_rules = json_loads(PQgetvalue(r, 0, 12), 0, NULL);
    if (out->seats < 1 || out->seats > ENGINE_MAX_SEATS)
        out->seats = 0;
    for (int i = 0; i < PQntuples(seats); i++) {
        int s = atoi(PQgetvalue(seats, i, 0));
        if (s < 0 || s >= out->seats)
            continue;
        snprintf(out->seat_player[s], sizeof out->seat_player[s], "%s",
                 PQgetvalue(seats, i, 1));
        snprintf(out->seat_bot[s], sizeof out->seat_bot[s], "%s",
                 PQgetvalue(seats, i, 2));
    }
    return 0;
}

/* Read lobby id (with BEGIN first when begin) in one pipeline, then run
 * the nextra (at most 2) statements of extra, their results in extra_out
 * (NULL when nextra is 0). */
static int read_row(PGconn *c, const char *id, int begin, int for_update,
                    const db_stmt *extra, int nextra, PGresult **extra_out,
                    lobby_row *out)
{
    memset(out, 0, sizeof *out);
    const char *p[] = {id};
    db_stmt st[5] = {{"BEGIN", 0, NULL, PGRES_COMMAND_OK, 0},
                     {for_update ? ROW_SQL " FOR UPDATE" : ROW_SQL, 1, p,
                      PGRES_TUPLES_OK, 0},
                     {ROW_SEATS_SQL, 1, p, PGRES_TUPLES_OK, 0}};
    PGresult *r[5];
    if (nextra > 2)
        nextra = 2;
    for (int i = 0; i < nextra; i++)
        st[3 + i] = extra[i];
    int first = begin ? 0 : 1;
    if (db_pipeline(c, st + first, 3 + nextra - first, r + first) != 0)
        return -1;
    if (begin)
        PQclear(r[0]);
    for (int i = 0; i < nextra; i++)
        extra_out[i] = r[3 + i];
    int rc = parse_row(r[1], r[2], out);
    PQclear(r[1]);
    PQclear(r[2]);
    return rc;
}

int lobby_read(PGconn *c, const char *id, int for_update, lobby_row *out)
{
    return read_row(c, id, 0, for_update, NULL, 0, NULL, out);
}

int lobby_begin_read(PGconn *c, const char *id, lobby_row *out)
{
    return read_row(c, id, 1, 1, NULL, 0, NULL, out);
}

int lobby_begin_read_then(PGconn *c, const char *id, const db_stmt *extra,
                          int nextra, PGresult **extra_out, lobby_row *out)
{
    return read_row(c, id, 1, 1, extra, nextra, extra_out, out);
}

void lobby_row_clear(lobby_row *l)
{
    json_decref(l->options);
    l->options = NULL;
    json_decref(l->clock_rules);
    l->clock_rules = NULL;
}

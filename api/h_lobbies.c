/*
 * h_lobbies.c - lobbies: create, list, show, take a seat, leave, add a bot,
 * start the game.
 *
 * Every change runs in one transaction that locks the lobby row (FOR
 * UPDATE), checks, writes, bumps lobbies.version and announces the lobby id
 * with pg_notify('conclave_lobbies', id), so the WebSocket hub of every
 * process hears about it. Rendering is server/lobby.c's.
 *
 * Privacy: a private lobby answers 404 to a caller who is not seated in it
 * and has not given its invite code, exactly as a lobby that does not
 * exist; the code is shown to members only.
 *
 * Starting a game: the game (seed, seed hash, seats) is created first, then
 * the lobby is claimed under its lock; if the lobby changed meanwhile, the
 * new game is deleted again, so a lobby never points at a missing game and
 * never starts twice.
 */
#include "api/handlers.h"

#include "api/body.h"
#include "engine/engine.h"
#include "server/actor.h"
#include "server/lobby.h"
#include "server/store.h"

#include <openssl/crypto.h>
#include <openssl/rand.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CLOCK_LIVE_MIN 5
#define CLOCK_LIVE_MAX 3600
#define CLOCK_ASYNC_MIN 60
#define CLOCK_ASYNC_MAX 1209600
#define DEFAULT_BOT "basic"

static const char *const bot_levels[] = {"random", "basic"};

/* A lobby row with its seats, as read for a change. */
typedef struct lobby_row {
    char id[STORE_ID_MAX];
    char ruleset[64];
    json_t *options; /* owned */
    char host[STORE_ID_MAX];
    int is_private;
    char code[STORE_ID_MAX];
    char clock_mode[8];
    int clock_seconds;
    int seats;
    char status[12];
    char seat_player[ENGINE_MAX_SEATS][STORE_ID_MAX];
    char seat_bot[ENGINE_MAX_SEATS][16];
} lobby_row;

static int exec_cmd(PGconn *c, const char *sql, int n,
                    const char *const *params)
{
    PGresult *r = db_exec(c, PGRES_COMMAND_OK, sql, n, params);
    if (!r)
        return -1;
    PQclear(r);
    return 0;
}

/* Read lobby id (locking its row when for_update, inside the caller's
 * transaction). Returns 200, 404 or 503. */
static int read_lobby(PGconn *c, const char *id, int for_update, lobby_row *out)
{
    memset(out, 0, sizeof *out);
    const char *p[] = {id};
    PGresult *r = db_exec(
        c, PGRES_TUPLES_OK,
        for_update ? "SELECT id, ruleset, options::text, host_id, private, "
                     "coalesce(invite_code, ''), clock_mode, clock_seconds, "
                     "seat_count, status FROM lobbies WHERE id = $1 FOR UPDATE"
                   : "SELECT id, ruleset, options::text, host_id, private, "
                     "coalesce(invite_code, ''), clock_mode, clock_seconds, "
                     "seat_count, status FROM lobbies WHERE id = $1",
        1, p);
    if (!r)
        return 503;
    if (PQntuples(r) != 1) {
        PQclear(r);
        return 404;
    }
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
    PQclear(r);
    if (out->seats < 1 || out->seats > ENGINE_MAX_SEATS)
        out->seats = 0;
    r = db_exec(c, PGRES_TUPLES_OK,
                "SELECT seat, coalesce(player_id, ''), coalesce(bot, '') FROM "
                "lobby_seats WHERE lobby_id = $1",
                1, p);
    if (!r) {
        json_decref(out->options);
        out->options = NULL;
        return 503;
    }
    for (int i = 0; i < PQntuples(r); i++) {
        int s = atoi(PQgetvalue(r, i, 0));
        if (s < 0 || s >= out->seats)
            continue;
        snprintf(out->seat_player[s], sizeof out->seat_player[s], "%s",
                 PQgetvalue(r, i, 1));
        snprintf(out->seat_bot[s], sizeof out->seat_bot[s], "%s",
                 PQgetvalue(r, i, 2));
    }
    PQclear(r);
    return 200;
}

static void row_clear(lobby_row *l)
{
    json_decref(l->options);
    l->options = NULL;
}

/* The seat player_id holds in l, or -1. */
static int seat_of(const lobby_row *l, const char *player_id)
{
    for (int s = 0; s < l->seats; s++)
        if (strcmp(l->seat_player[s], player_id) == 0)
            return s;
    return -1;
}

static int seat_free(const lobby_row *l, int s)
{
    return !l->seat_player[s][0] && !l->seat_bot[s][0];
}

static int code_ok(const lobby_row *l, const char *code)
{
    size_t n = strlen(l->code);
    return code && n && strlen(code) == n &&
           CRYPTO_memcmp(code, l->code, n) == 0;
}

static void not_found(api_response *res)
{
    api_problem(res, 404,
                "no such lobby (a private lobby needs its invite code)", NULL);
}

/* Bump the version, announce the change, commit. */
static int finish_change(PGconn *c, const char *id)
{
    const char *p[] = {id};
    if (exec_cmd(c,
                 "UPDATE lobbies SET version = version + 1, updated_at = "
                 "now() WHERE id = $1",
                 1, p))
        return -1;
    PGresult *r = db_exec(c, PGRES_TUPLES_OK,
                          "SELECT pg_notify('" LOBBY_CHANNEL "', $1)", 1, p);
    if (!r)
        return -1;
    PQclear(r);
    return exec_cmd(c, "COMMIT", 0, NULL);
}

/* Answer with the lobby as req's player sees it now. */
static void answer_lobby(api_request *req, api_response *res, PGconn *c,
                         const char *id, int status)
{
    int st;
    json_t *l = lobby_load_ex(c, id, req->player_id, NULL, 1, &st);
    if (!l) {
        if (st == 404)
            not_found(res);
        else
            req_db_failed(res);
        return;
    }
    if (status == 201)
        snprintf(res->location, sizeof res->location, "/api/v1/lobbies/%s", id);
    api_json(res, status, l);
}

/* Pick the seat for a join or a bot: the requested one (422 out of range,
 * 409 taken) or the first free one (409 full). Returns the seat or -1. */
static int pick_seat(const lobby_row *l, const json_t *want, api_response *res)
{
    if (want && !json_is_null(want)) {
        json_int_t s = json_integer_value(want);
        if (s < 0 || s >= l->seats) {
            char d[96];
            snprintf(d, sizeof d, "seat must be from 0 to %d", l->seats - 1);
            api_problem(res, 422, d, "seat");
            return -1;
        }
        if (!seat_free(l, (int)s)) {
            api_problem(res, 409,
                        "that seat is taken; pick a free one or leave seat "
                        "out",
                        "seat");
            return -1;
        }
        return (int)s;
    }
    for (int s = 0; s < l->seats; s++)
        if (seat_free(l, s))
            return s;
    api_problem(res, 409, "the lobby is full", NULL);
    return -1;
}

/* ----------------------------------------------------------- create -- */

static int check_clock(const json_t *clock, const char **mode, int *seconds,
                       api_response *res)
{
    static const body_field fields[] = {{"mode", BODY_STRING, 1},
                                        {"seconds", BODY_INTEGER, 0},
                                        {NULL, BODY_ANY, 0}};
    *mode = "none";
    *seconds = 0;
    if (!clock || json_is_null(clock))
        return 0;
    if (body_check(clock, fields, "clock.", res))
        return -1;
    *mode = json_string_value(json_object_get(clock, "mode"));
    const json_t *sv = json_object_get(clock, "seconds");
    json_int_t s = json_is_integer(sv) ? json_integer_value(sv) : -1;
    int lo, hi;
    if (strcmp(*mode, "none") == 0) {
        if (s > 0) {
            api_problem(res, 422,
                        "clock.seconds must be 0 or absent when clock.mode is "
                        "\"none\"",
                        "clock.seconds");
            return -1;
        }
        return 0;
    } else if (strcmp(*mode, "live") == 0) {
        lo = CLOCK_LIVE_MIN;
        hi = CLOCK_LIVE_MAX;
    } else if (strcmp(*mode, "async") == 0) {
        lo = CLOCK_ASYNC_MIN;
        hi = CLOCK_ASYNC_MAX;
    } else {
        api_problem(res, 422,
                    "clock.mode must be \"none\", \"live\" or \"async\"",
                    "clock.mode");
        return -1;
    }
    if (s < lo || s > hi) {
        char d[160];
        snprintf(d, sizeof d,
                 "clock.seconds (seconds per window) must be from %d to %d "
                 "for a %s clock",
                 lo, hi, *mode);
        api_problem(res, 422, d, "clock.seconds");
        return -1;
    }
    *seconds = (int)s;
    return 0;
}

void api_h_lobbies_create(api_request *req, api_response *res)
{
    static const body_field fields[] = {
        {"ruleset", BODY_STRING, 1}, {"seats", BODY_INTEGER, 1},
        {"options", BODY_OBJECT, 0}, {"private", BODY_BOOLEAN, 0},
        {"clock", BODY_OBJECT, 0},   {NULL, BODY_ANY, 0}};
    json_t *body, *describe = NULL, *options = NULL;
    PGconn *c = NULL;
    char d[256];
    if (body_object(req, res, 0, &body) || body_check(body, fields, NULL, res))
        goto out;
    const char *ruleset = json_string_value(json_object_get(body, "ruleset"));
    const engine_ruleset *rs = engine_ruleset_find(ruleset);
    if (!rs) {
        snprintf(d, sizeof d,
                 "unknown ruleset \"%.64s\"; GET /api/v1/rulesets lists them",
                 ruleset);
        api_problem(res, 422, d, "ruleset");
        goto out;
    }
    describe = engine_ruleset_describe(rs);
    int lo = (int)json_integer_value(json_object_get(describe, "min_seats"));
    int hi = (int)json_integer_value(json_object_get(describe, "max_seats"));
    if (hi > ENGINE_MAX_SEATS)
        hi = ENGINE_MAX_SEATS;
    json_int_t seats = json_integer_value(json_object_get(body, "seats"));
    if (seats < lo || seats > hi) {
        snprintf(d, sizeof d, "%s takes %d to %d seats", ruleset, lo, hi);
        api_problem(res, 422, d, "seats");
        goto out;
    }
    const char *clock_mode;
    int clock_seconds;
    if (check_clock(json_object_get(body, "clock"), &clock_mode, &clock_seconds,
                    res))
        goto out;
    options = json_object_get(body, "options");
    options = json_is_object(options) ? json_incref(options) : json_object();
    /* Let the engine judge the options: a throwaway game. */
    static const uint8_t zero_seed[ENGINE_SEED_BYTES];
    engine_error err = {0};
    engine_game *probe = engine_create(ruleset, "options-check", options,
                                       (int)seats, zero_seed, &err);
    if (!probe) {
        char field[96];
        if (!err.field[0])
            snprintf(field, sizeof field, "options");
        else if (strcmp(err.field, "seats") == 0)
            snprintf(field, sizeof field, "seats");
        else
            snprintf(field, sizeof field, "options.%.60s", err.field);
        snprintf(d, sizeof d, "%s", err.msg[0] ? err.msg : "invalid options");
        api_problem(res, err.code == ENGINE_EINTERNAL ? 500 : 422, d, field);
        goto out;
    }
    engine_free(probe);

    int is_private = json_is_true(json_object_get(body, "private"));
    char id[STORE_ID_MAX], code[STORE_ID_MAX], seats_s[16], secs[16];
    store_new_id(id);
    store_new_id(code);
    snprintf(seats_s, sizeof seats_s, "%d", (int)seats);
    snprintf(secs, sizeof secs, "%d", clock_seconds);
    char *options_text = json_dumps(options, JSON_COMPACT | JSON_SORT_KEYS);
    c = req_db(req, res);
    if (!c) {
        free(options_text);
        goto out;
    }
    const char *p[] = {id,
                       ruleset,
                       options_text,
                       req->player_id,
                       is_private ? "true" : "false",
                       is_private ? code : NULL,
                       clock_mode,
                       secs,
                       seats_s};
    const char *q[] = {id, req->player_id, seats_s};
    int ok = options_text && exec_cmd(c, "BEGIN", 0, NULL) == 0 &&
             exec_cmd(c,
                      "INSERT INTO lobbies (id, ruleset, options, host_id, "
                      "private, invite_code, clock_mode, clock_seconds, "
                      "seat_count) VALUES ($1, $2, $3::jsonb, $4, "
                      "$5::boolean, $6, $7, $8::integer, $9::integer)",
                      9, p) == 0 &&
             exec_cmd(c,
                      "INSERT INTO lobby_seats (lobby_id, seat, player_id) "
                      "SELECT $1, s, CASE WHEN s = 0 THEN $2 END FROM "
                      "generate_series(0, $3::integer - 1) AS s",
                      3, q) == 0 &&
             finish_change(c, id) == 0;
    free(options_text);
    if (!ok) {
        req_db_failed(res);
        goto out;
    }
    answer_lobby(req, res, c, id, 201);
out:
    req_db_release(req, c);
    json_decref(options);
    json_decref(describe);
    json_decref(body);
}

/* ------------------------------------------------------------- read -- */

void api_h_lobbies_list(api_request *req, api_response *res)
{
    const char *status = req_query(req, "status");
    const char *ruleset = req_query(req, "ruleset");
    if (!status || !*status)
        status = "open";
    if (strcmp(status, "open") != 0 && strcmp(status, "started") != 0 &&
        strcmp(status, "closed") != 0) {
        api_problem(res, 422,
                    "status must be \"open\", \"started\" or \"closed\"",
                    "status");
        return;
    }
    if (ruleset && !*ruleset)
        ruleset = NULL;
    PGconn *c = req_db(req, res);
    if (!c)
        return;
    int st;
    json_t *list = lobby_list(c, status, ruleset,
                              req->authenticated ? req->player_id : NULL, &st);
    req_db_release(req, c);
    if (!list) {
        req_db_failed(res);
        return;
    }
    api_json(res, 200, list);
}

void api_h_lobby_get(api_request *req, api_response *res)
{
    PGconn *c = req_db(req, res);
    if (!c)
        return;
    int st;
    json_t *l = lobby_load_ex(c, req->params[0],
                              req->authenticated ? req->player_id : NULL,
                              req_query(req, "code"), 0, &st);
    req_db_release(req, c);
    if (!l) {
        if (st == 404)
            not_found(res);
        else
            req_db_failed(res);
        return;
    }
    api_json(res, 200, l);
}

/* ---------------------------------------------------------- changes -- */

/* Begin a change of lobby params[0]: BEGIN, lock and read it, and check
 * that the caller may see it (member, or code given). Returns 0, or -1
 * with res filled (404/503). */
static int begin_change(api_request *req, api_response *res, PGconn *c,
                        const char *code, lobby_row *l)
{
    if (exec_cmd(c, "BEGIN", 0, NULL)) {
        req_db_failed(res);
        return -1;
    }
    int st = read_lobby(c, req->params[0], 1, l);
    if (st == 503) {
        req_db_failed(res);
        return -1;
    }
    if (st == 404 || (l->is_private && seat_of(l, req->player_id) < 0 &&
                      !code_ok(l, code))) {
        row_clear(l);
        not_found(res);
        return -1;
    }
    return 0;
}

static int require_open(const lobby_row *l, api_response *res)
{
    if (strcmp(l->status, "open") == 0)
        return 0;
    api_problem(res, 409,
                strcmp(l->status, "started") == 0
                    ? "the lobby's game has started; nothing can change here"
                    : "the lobby is closed",
                NULL);
    return -1;
}

/* Put a player or a bot (sql sets the column from $3 = value) into the
 * requested or first free seat, commit the change, answer with the lobby. */
static void fill_seat(api_request *req, api_response *res, PGconn *c,
                      lobby_row *l, const json_t *seat_field, const char *sql,
                      const char *value)
{
    int seat = pick_seat(l, seat_field, res);
    if (seat < 0)
        return;
    char seat_s[16];
    snprintf(seat_s, sizeof seat_s, "%d", seat);
    const char *p[] = {l->id, seat_s, value};
    if (exec_cmd(c, sql, 3, p) || finish_change(c, l->id)) {
        req_db_failed(res);
        return;
    }
    answer_lobby(req, res, c, l->id, 200);
}

void api_h_lobby_join(api_request *req, api_response *res)
{
    static const body_field fields[] = {{"seat", BODY_INTEGER, 0},
                                        {"code", BODY_STRING, 0},
                                        {NULL, BODY_ANY, 0}};
    json_t *body;
    lobby_row l = {0};
    PGconn *c = NULL;
    if (body_object(req, res, 1, &body) || body_check(body, fields, NULL, res))
        goto out;
    c = req_db(req, res);
    if (!c)
        goto out;
    if (begin_change(req, res, c,
                     json_string_value(json_object_get(body, "code")), &l))
        goto out;
    if (require_open(&l, res))
        goto out;
    int mine = seat_of(&l, req->player_id);
    if (mine >= 0) {
        char d[96];
        snprintf(d, sizeof d, "you already sit in seat %d of this lobby", mine);
        api_problem(res, 409, d, NULL);
        goto out;
    }
    fill_seat(req, res, c, &l, json_object_get(body, "seat"),
              "UPDATE lobby_seats SET player_id = $3 WHERE lobby_id = $1 "
              "AND seat = $2::integer",
              req->player_id);
out:
    row_clear(&l);
    req_db_release(req, c);
    json_decref(body);
}

void api_h_lobby_leave(api_request *req, api_response *res)
{
    lobby_row l = {0};
    PGconn *c = req_db(req, res);
    if (!c)
        return;
    if (begin_change(req, res, c, NULL, &l))
        goto out;
    if (seat_of(&l, req->player_id) < 0) {
        api_problem(res, 409, "you have no seat in this lobby", NULL);
        goto out;
    }
    if (require_open(&l, res))
        goto out;
    const char *p[] = {l.id, req->player_id};
    int host = strcmp(l.host, req->player_id) == 0;
    if (exec_cmd(c,
                 "UPDATE lobby_seats SET player_id = NULL WHERE lobby_id = $1 "
                 "AND player_id = $2",
                 2, p) ||
        (host &&
         exec_cmd(c, "UPDATE lobbies SET status = 'closed' WHERE id = $1", 1,
                  p)) ||
        finish_change(c, l.id)) {
        req_db_failed(res);
        goto out;
    }
    answer_lobby(req, res, c, l.id, 200);
out:
    row_clear(&l);
    req_db_release(req, c);
}

void api_h_lobby_bot(api_request *req, api_response *res)
{
    static const body_field fields[] = {{"seat", BODY_INTEGER, 0},
                                        {"level", BODY_STRING, 0},
                                        {NULL, BODY_ANY, 0}};
    json_t *body;
    lobby_row l = {0};
    PGconn *c = NULL;
    if (body_object(req, res, 1, &body) || body_check(body, fields, NULL, res))
        goto out;
    const char *level = json_string_value(json_object_get(body, "level"));
    if (!level)
        level = DEFAULT_BOT;
    int known = 0;
    for (size_t i = 0; i < sizeof bot_levels / sizeof bot_levels[0]; i++)
        known |= strcmp(level, bot_levels[i]) == 0;
    if (!known) {
        api_problem(res, 422, "level must be \"random\" or \"basic\"", "level");
        goto out;
    }
    c = req_db(req, res);
    if (!c)
        goto out;
    if (begin_change(req, res, c, NULL, &l))
        goto out;
    if (strcmp(l.host, req->player_id) != 0) {
        api_problem(res, 403, "only the lobby's host can add bots", NULL);
        goto out;
    }
    if (require_open(&l, res))
        goto out;
    fill_seat(req, res, c, &l, json_object_get(body, "seat"),
              "UPDATE lobby_seats SET bot = $3 WHERE lobby_id = $1 AND "
              "seat = $2::integer",
              level);
out:
    row_clear(&l);
    req_db_release(req, c);
    json_decref(body);
}

/* ------------------------------------------------------------ start -- */

static void noop_read(const actor_view *v, void *ctx)
{
    (void)v, (void)ctx;
}

/* Undo a created game that will not start: end any transaction first. */
static void delete_game(PGconn *c, const char *game_id)
{
    if (PQtransactionStatus(c) != PQTRANS_IDLE)
        PQclear(PQexecParams(c, "ROLLBACK", 0, NULL, NULL, NULL, NULL, 0));
    const char *p[] = {game_id};
    exec_cmd(c, "DELETE FROM games WHERE game_id = $1", 1, p);
}

/* Whether the locked lobby still matches what the game was built from. */
static int same_lobby(const lobby_row *a, const lobby_row *b)
{
    if (strcmp(b->status, "open") != 0 || a->seats != b->seats)
        return 0;
    for (int s = 0; s < a->seats; s++)
        if (strcmp(a->seat_player[s], b->seat_player[s]) != 0 ||
            strcmp(a->seat_bot[s], b->seat_bot[s]) != 0)
            return 0;
    return 1;
}

void api_h_lobby_start(api_request *req, api_response *res)
{
    json_t *body;
    lobby_row l = {0}, now = {0};
    store_game g;
    memset(&g, 0, sizeof g);
    PGconn *c = NULL;
    static const body_field none[] = {{NULL, BODY_ANY, 0}};
    if (body_object(req, res, 1, &body) || body_check(body, none, NULL, res))
        goto out;
    c = req_db(req, res);
    if (!c)
        goto out;
    int st = read_lobby(c, req->params[0], 0, &l);
    if (st == 503) {
        req_db_failed(res);
        goto out;
    }
    if (st == 404 || (l.is_private && seat_of(&l, req->player_id) < 0)) {
        not_found(res);
        goto out;
    }
    if (strcmp(l.host, req->player_id) != 0) {
        api_problem(res, 403, "only the lobby's host can start the game", NULL);
        goto out;
    }
    if (require_open(&l, res))
        goto out;
    for (int s = 0; s < l.seats; s++) {
        if (seat_free(&l, s)) {
            char d[160];
            snprintf(d, sizeof d,
                     "seat %d is empty; every seat needs a player or a bot "
                     "(POST .../bots) before the start",
                     s);
            api_problem(res, 409, d, NULL);
            goto out;
        }
    }

    /* Build the game. */
    store_new_id(g.game_id);
    snprintf(g.lobby_id, sizeof g.lobby_id, "%s", l.id);
    snprintf(g.ruleset, sizeof g.ruleset, "%s", l.ruleset);
    g.options = l.options ? json_incref(l.options) : json_object();
    g.seats = l.seats;
    if (RAND_bytes(g.seed, sizeof g.seed) != 1) {
        api_problem(res, 500, "no randomness for the seed", NULL);
        goto out;
    }
    engine_error err = {0};
    engine_game *eg =
        engine_create(g.ruleset, g.game_id, g.options, g.seats, g.seed, &err);
    if (!eg) {
        char d[300];
        snprintf(d, sizeof d, "the game cannot be created: %s", err.msg);
        api_problem(res, err.code == ENGINE_EINTERNAL ? 500 : 409, d, NULL);
        goto out;
    }
    engine_seed_sha256_hex(eg, g.seed_sha256);
    engine_free(eg);
    snprintf(g.clock_mode, sizeof g.clock_mode, "%s", l.clock_mode);
    g.clock_seconds = l.clock_seconds;
    snprintf(g.status, sizeof g.status, "running");
    for (int s = 0; s < l.seats; s++) {
        snprintf(g.seat_player[s], sizeof g.seat_player[s], "%s",
                 l.seat_player[s]);
        snprintf(g.seat_bot[s], sizeof g.seat_bot[s], "%s", l.seat_bot[s]);
    }
    if (store_create_game(c, &g) != STORE_OK) {
        req_db_failed(res);
        goto out;
    }

    /* Claim the lobby, unless it changed meanwhile. */
    if (exec_cmd(c, "BEGIN", 0, NULL) ||
        (st = read_lobby(c, l.id, 1, &now)) == 503) {
        delete_game(c, g.game_id);
        req_db_failed(res);
        goto out;
    }
    if (st != 200 || !same_lobby(&l, &now)) {
        delete_game(c, g.game_id);
        api_problem(res, 409,
                    "the lobby changed while the game was being created; "
                    "look at it again and retry",
                    NULL);
        goto out;
    }
    const char *p[] = {l.id, g.game_id};
    if (exec_cmd(c,
                 "UPDATE lobbies SET status = 'started', game_id = $2 WHERE "
                 "id = $1",
                 2, p) ||
        finish_change(c, l.id)) {
        delete_game(c, g.game_id);
        req_db_failed(res);
        goto out;
    }
    req_db_release(req, c);
    c = NULL;
    /* Load it once so bots seated in it make their first moves. */
    if (req->app->actors)
        actors_read(req->app->actors, g.game_id, noop_read, NULL);
    snprintf(res->location, sizeof res->location, "/api/v1/games/%s",
             g.game_id);
    api_json(res, 201, json_pack("{ss}", "game", g.game_id));
out:
    store_game_clear(&g);
    row_clear(&l);
    row_clear(&now);
    req_db_release(req, c);
    json_decref(body);
}

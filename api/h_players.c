/*
 * h_players.c - players and sessions: sign-up (guest or with a password),
 * sign-in, sign-out (revoking the presented token) and GET /me.
 *
 * Passwords are hashed with scrypt (N=16384, r=8, p=1, 32-byte key) and a
 * random 16-byte salt per player, and compared in constant time. A sign-in
 * for an unknown name or a guest still runs scrypt once, so the answer's
 * timing does not tell which names exist. Bearer tokens come from
 * auth_new_token; only their SHA-256 is stored.
 */
#include "api/handlers.h"

#include "api/auth.h"
#include "api/body.h"
#include "engine/rules/sprint/sprint.h"
#include "server/lobby.h"
#include "server/store.h"

#include <microhttpd.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <stdlib.h>
#include <string.h>

#define SALT_BYTES 16
#define KEY_BYTES 32
#define PASSWORD_MIN 8
#define PASSWORD_MAX 256
#define PLAYER_NAME_MIN 3
#define PLAYER_NAME_MAX 24

static int scrypt(const char *password, const uint8_t salt[SALT_BYTES],
                  uint8_t key[KEY_BYTES])
{
    return EVP_PBE_scrypt(password, strlen(password), salt, SALT_BYTES, 16384,
                          8, 1, 64u * 1024 * 1024, key, KEY_BYTES) == 1
               ? 0
               : -1;
}

static int name_ok(const char *name)
{
    size_t n = strlen(name);
    if (n < PLAYER_NAME_MIN || n > PLAYER_NAME_MAX)
        return 0;
    for (const char *c = name; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
              (*c >= '0' && *c <= '9') || *c == '_' || *c == '-'))
            return 0;
    return 1;
}

/* Issue a token for player_id (inside the caller's transaction, if any).
 * Returns 0 with token filled, -1 on a database failure. */
static int issue_token(PGconn *c, const char *player_id,
                       char token[AUTH_TOKEN_CHARS + 1])
{
    char hash[65];
    if (auth_new_token(token, hash) != 0)
        return -1;
    const char *p[] = {hash, player_id};
    PGresult *r = db_exec(c, PGRES_COMMAND_OK,
                          "INSERT INTO tokens (token_hash, player_id) VALUES "
                          "(decode($1, 'hex'), $2)",
                          2, p);
    if (!r)
        return -1;
    PQclear(r);
    return 0;
}

static int exec_simple(PGconn *c, const char *sql)
{
    PGresult *r = db_exec(c, PGRES_COMMAND_OK, sql, 0, NULL);
    if (!r)
        return -1;
    PQclear(r);
    return 0;
}

void api_h_players_create(api_request *req, api_response *res)
{
    static const body_field fields[] = {{"name", BODY_STRING, 1},
                                        {"password", BODY_STRING, 0},
                                        {NULL, BODY_ANY, 0}};
    json_t *body;
    if (body_object(req, res, 0, &body) || body_check(body, fields, NULL, res))
        goto out_body;
    const char *name = json_string_value(json_object_get(body, "name"));
    const char *password = json_string_value(json_object_get(body, "password"));
    if (!name_ok(name)) {
        api_problem(res, 422,
                    "name must be 3 to 24 characters of A-Z, a-z, 0-9, _ "
                    "and -",
                    "name");
        goto out_body;
    }
    if (password &&
        (strlen(password) < PASSWORD_MIN || strlen(password) > PASSWORD_MAX)) {
        api_problem(res, 422,
                    "password must be 8 to 256 bytes long (or leave it out "
                    "for a guest)",
                    "password");
        goto out_body;
    }
    uint8_t salt[SALT_BYTES], key[KEY_BYTES];
    char salt_hex[2 * SALT_BYTES + 1], key_hex[2 * KEY_BYTES + 1];
    if (password) {
        if (RAND_bytes(salt, sizeof salt) != 1 || scrypt(password, salt, key)) {
            api_problem(res, 500, "could not hash the password", NULL);
            goto out_body;
        }
        engine_hex(salt, sizeof salt, salt_hex);
        engine_hex(key, sizeof key, key_hex);
        OPENSSL_cleanse(key, sizeof key);
    }
    char id[STORE_ID_MAX], token[AUTH_TOKEN_CHARS + 1];
    store_new_id(id);
    PGconn *c = req_db(req, res);
    if (!c)
        goto out_body;
    if (exec_simple(c, "BEGIN"))
        goto db_fail;
    const char *p[] = {id, name, password ? key_hex : NULL,
                       password ? salt_hex : NULL};
    PGresult *r = PQexecParams(c,
                               "INSERT INTO players (id, name, password_hash, "
                               "password_salt) VALUES ($1, $2, decode($3, "
                               "'hex'), decode($4, 'hex'))",
                               4, NULL, p, NULL, NULL, 0);
    if (PQresultStatus(r) != PGRES_COMMAND_OK) {
        const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
        int taken = state && strcmp(state, "23505") == 0;
        PQclear(r);
        if (!taken)
            goto db_fail;
        api_problem(res, 409, "that name is taken; choose another", "name");
        goto out_db;
    }
    PQclear(r);
    if (issue_token(c, id, token) || exec_simple(c, "COMMIT"))
        goto db_fail;
    api_json(res, 201,
             json_pack("{ss ss ss}", "id", id, "name", name, "token", token));
    goto out_db;
db_fail:
    req_db_failed(res);
out_db:
    req_db_release(req, c);
out_body:
    json_decref(body);
}

void api_h_sessions_create(api_request *req, api_response *res)
{
    static const body_field fields[] = {{"name", BODY_STRING, 1},
                                        {"password", BODY_STRING, 1},
                                        {NULL, BODY_ANY, 0}};
    json_t *body;
    PGconn *c = NULL;
    if (body_object(req, res, 0, &body) || body_check(body, fields, NULL, res))
        goto out;
    const char *name = json_string_value(json_object_get(body, "name"));
    const char *password = json_string_value(json_object_get(body, "password"));
    c = req_db(req, res);
    if (!c)
        goto out;
    const char *p[] = {name};
    PGresult *r = db_exec(c, PGRES_TUPLES_OK,
                          "SELECT id, coalesce(encode(password_hash, 'hex'), "
                          "''), coalesce(encode(password_salt, 'hex'), '') "
                          "FROM players WHERE lower(name) = lower($1)",
                          1, p);
    if (!r) {
        req_db_failed(res);
        goto out;
    }
    char id[64] = "";
    uint8_t salt[SALT_BYTES] = {0}, want[KEY_BYTES] = {0}, got[KEY_BYTES];
    int known = PQntuples(r) == 1 &&
                engine_unhex(PQgetvalue(r, 0, 1), want, KEY_BYTES) == 0 &&
                engine_unhex(PQgetvalue(r, 0, 2), salt, SALT_BYTES) == 0;
    if (known)
        snprintf(id, sizeof id, "%s", PQgetvalue(r, 0, 0));
    PQclear(r);
    /* Always run scrypt: equal timing for unknown names and guests. */
    if (scrypt(password, salt, got) != 0) {
        api_problem(res, 500, "could not hash the password", NULL);
        goto out;
    }
    int ok = known && CRYPTO_memcmp(got, want, KEY_BYTES) == 0;
    OPENSSL_cleanse(got, sizeof got);
    if (!ok) {
        api_problem(res, 401,
                    "the name or the password is wrong (guest players have "
                    "no password: keep the token you were given)",
                    NULL);
        goto out;
    }
    char token[AUTH_TOKEN_CHARS + 1];
    if (issue_token(c, id, token)) {
        req_db_failed(res);
        goto out;
    }
    api_json(res, 201, json_pack("{ss}", "token", token));
out:
    req_db_release(req, c);
    json_decref(body);
}

void api_h_sessions_delete(api_request *req, api_response *res)
{
    const char *h = req_header(req, MHD_HTTP_HEADER_AUTHORIZATION);
    char hash[65];
    if (!h || strncmp(h, "Bearer ", 7) != 0) { /* auth ran: cannot happen */
        api_problem(res, 401, "send Authorization: Bearer <token>", NULL);
        return;
    }
    auth_token_hash(h + 7, hash);
    auth_forget(hash);
    PGconn *c = req_db(req, res);
    if (!c)
        return;
    const char *p[] = {hash};
    PGresult *r = db_exec(c, PGRES_COMMAND_OK,
                          "UPDATE tokens SET revoked_at = now() WHERE "
                          "token_hash = decode($1, 'hex') AND revoked_at IS "
                          "NULL",
                          1, p);
    if (!r)
        req_db_failed(res);
    else
        api_json(res, 204, NULL);
    PQclear(r);
    req_db_release(req, c);
}

/* Same set of condition ids? (Both are short arrays of strings.) */
static int same_ids(const json_t *a, const json_t *b)
{
    if (!json_is_array(a) || !json_is_array(b) ||
        json_array_size(a) != json_array_size(b))
        return 0;
    for (size_t i = 0; i < json_array_size(a); i++) {
        int found = 0;
        for (size_t k = 0; k < json_array_size(b) && !found; k++)
            found = json_equal(json_array_get(a, i), json_array_get(b, k));
        if (!found)
            return 0;
    }
    return 1;
}

/* The Galactic Sprint solitaire campaign (docs/games/sprint.md), derived
 * from the player's finished campaign games in the order they ended and
 * advanced with the ruleset's own sprint_campaign_advance: a game created
 * with no condition met starts a campaign; one created with exactly the
 * conditions met so far continues it; any other is not part of it. When a
 * game meets several new conditions the first (magnate, warlord, tycoon,
 * pathfinder) is checked off. Returns {"games","met","status"} plus
 * "next_options" for the next campaign game; status "none" before any.
 * NULL on a database failure. */
static json_t *campaign_of(PGconn *c, const char *player_id)
{
    const char *p[] = {player_id};
    PGresult *r = db_exec(
        c, PGRES_TUPLES_OK,
        "SELECT g.options -> 'campaign_conditions_met', g.result::text "
        "FROM games g JOIN game_seats s ON s.game_id = g.game_id "
        "WHERE s.player_id = $1 AND s.seat = 0 AND g.ruleset = 'sprint' AND "
        "g.seat_count = 1 AND g.status = 'finished' AND "
        "g.options ? 'campaign_conditions_met' "
        "ORDER BY g.updated_at, g.game_id",
        1, p);
    if (!r)
        return NULL;
    json_t *progress = NULL;
    for (int i = 0; i < PQntuples(r); i++) {
        json_t *opt = json_loads(PQgetvalue(r, i, 0), JSON_DECODE_ANY, NULL);
        json_t *result = json_loads(PQgetvalue(r, i, 1), 0, NULL);
        int starts = json_is_array(opt) && json_array_size(opt) == 0;
        const char *status =
            json_string_value(json_object_get(progress, "status"));
        int continues = status && strcmp(status, "active") == 0 &&
                        same_ids(opt, json_object_get(progress, "met"));
        json_t *next = NULL;
        engine_error err = {0};
        if ((starts || continues) &&
            sprint_campaign_advance(starts ? NULL : progress, result, NULL,
                                    &next, &err) == 0) {
            json_decref(progress);
            progress = next;
        }
        json_decref(opt);
        json_decref(result);
    }
    PQclear(r);
    if (!progress)
        progress = json_pack("{s[] s[] ss}", "games", "met", "status", "none");
    int active = strcmp(json_string_value(json_object_get(progress, "status")),
                        "active") == 0;
    json_object_set_new(
        progress, "next_options",
        json_pack("{so}", "campaign_conditions_met",
                  active ? json_deep_copy(json_object_get(progress, "met"))
                         : json_array()));
    return progress;
}

void api_h_me(api_request *req, api_response *res)
{
    PGconn *c = req_db(req, res);
    if (!c)
        return;
    json_t *games = json_array(), *lobbies = json_array(), *campaign = NULL;
    const char *p[] = {req->player_id};
    PGresult *r = db_exec(c, PGRES_TUPLES_OK,
                          "SELECT g.game_id, g.ruleset, g.status, s.seat "
                          "FROM game_seats s JOIN games g ON g.game_id = "
                          "s.game_id WHERE s.player_id = $1 "
                          "ORDER BY g.created_at DESC, g.game_id LIMIT 100",
                          1, p);
    if (!r)
        goto fail;
    for (int i = 0; i < PQntuples(r); i++)
        json_array_append_new(games, json_pack("{ss ss ss si}", "id",
                                               PQgetvalue(r, i, 0), "ruleset",
                                               PQgetvalue(r, i, 1), "status",
                                               PQgetvalue(r, i, 2), "seat",
                                               atoi(PQgetvalue(r, i, 3))));
    PQclear(r);
    r = db_exec(c, PGRES_TUPLES_OK,
                "SELECT DISTINCT l.id, l.created_at FROM lobbies l JOIN "
                "lobby_seats s ON s.lobby_id = l.id WHERE s.player_id = $1 "
                "AND l.status = 'open' ORDER BY l.created_at DESC, l.id "
                "LIMIT 100",
                1, p);
    if (!r)
        goto fail;
    for (int i = 0; i < PQntuples(r); i++) {
        int status;
        json_t *l = lobby_load(c, PQgetvalue(r, i, 0), req->player_id, &status);
        if (status == 503) {
            PQclear(r);
            goto fail;
        }
        if (l)
            json_array_append_new(lobbies, l);
    }
    PQclear(r);
    campaign = campaign_of(c, req->player_id);
    if (!campaign)
        goto fail;
    api_json(res, 200,
             json_pack("{ss ss so so so}", "id", req->player_id, "name",
                       req->player_name, "games", games, "lobbies", lobbies,
                       "campaign", campaign));
    req_db_release(req, c);
    return;
fail:
    json_decref(games);
    json_decref(lobbies);
    req_db_failed(res);
    req_db_release(req, c);
}

/*
 * players.c - sign-up, sign-in and a player's own things (see players.h).
 */
#include "server/players/players.h"

#include "server/lobby/lobby.h"
#include "server/players/records.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <stdlib.h>
#include <string.h>

#define DB_WAIT_MS 2000
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

static int exec_simple(PGconn *c, const char *sql)
{
    PGresult *r = db_exec(c, PGRES_COMMAND_OK, sql, 0, NULL);
    if (!r)
        return -1;
    PQclear(r);
    return 0;
}

/* Check name and password and hash the password into salt_hex/key_hex. */
static srv_kind check_and_hash(const char *name, const char *password,
                               char *salt_hex, char *key_hex, srv_error *err)
{
    if (!name_ok(name))
        return srv_fail(err, SRV_INVALID, "name",
                        "name must be 3 to 24 characters of A-Z, a-z, 0-9, _ "
                        "and -");
    if (!password)
        return SRV_OK;
    if (strlen(password) < PASSWORD_MIN || strlen(password) > PASSWORD_MAX)
        return srv_fail(err, SRV_INVALID, "password",
                        "password must be 8 to 256 bytes long (or leave it "
                        "out for a guest)");
    uint8_t salt[SALT_BYTES], key[KEY_BYTES];
    if (RAND_bytes(salt, sizeof salt) != 1 || scrypt(password, salt, key))
        return srv_fail(err, SRV_INTERNAL, NULL, "could not hash the password");
    engine_hex(salt, sizeof salt, salt_hex);
    engine_hex(key, sizeof key, key_hex);
    OPENSSL_cleanse(key, sizeof key);
    return SRV_OK;
}

/* Insert the player and its first token in one transaction. */
static srv_kind insert_player(PGconn *c, const char *const p[4], char *token,
                              srv_error *err)
{
    if (exec_simple(c, "BEGIN"))
        return srv_db_failed(err);
    PGresult *r = db_query(c,
                           "INSERT INTO players (id, name, password_hash, "
                           "password_salt) VALUES ($1, $2, decode($3, "
                           "'hex'), decode($4, 'hex'))",
                           4, NULL, p, NULL, NULL, 0);
    if (PQresultStatus(r) != PGRES_COMMAND_OK) {
        const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
        int taken = state && strcmp(state, "23505") == 0;
        PQclear(r);
        if (taken)
            return srv_fail(err, SRV_CONFLICT, "name",
                            "that name is taken; choose another");
        return srv_db_failed(err);
    }
    PQclear(r);
    srv_kind k = tokens_issue(c, p[0], token);
    if (k == SRV_INTERNAL)
        return srv_fail(err, k, NULL, "no randomness for the token");
    if (k != SRV_OK || exec_simple(c, "COMMIT"))
        return srv_db_failed(err);
    return SRV_OK;
}

srv_kind players_create(db_pool *db, const char *name, const char *password,
                        char *id, char *token, srv_error *err)
{
    char salt_hex[2 * SALT_BYTES + 1], key_hex[2 * KEY_BYTES + 1];
    srv_kind k = check_and_hash(name, password, salt_hex, key_hex, err);
    if (k != SRV_OK)
        return k;
    store_new_id(id);
    PGconn *c = db_acquire(db, DB_WAIT_MS);
    if (!c)
        return srv_db_failed(err);
    const char *p[4] = {id, name, password ? key_hex : NULL,
                        password ? salt_hex : NULL};
    k = insert_player(c, p, token, err);
    db_release(db, c, db_conn_broken(c));
    return k;
}

srv_kind players_sign_in(db_pool *db, const char *name, const char *password,
                         char *token, srv_error *err)
{
    PGconn *c = db_acquire(db, DB_WAIT_MS);
    if (!c)
        return srv_db_failed(err);
    const char *p[] = {name};
    PGresult *r = db_exec(c, PGRES_TUPLES_OK,
                          "SELECT id, coalesce(encode(password_hash, 'hex'), "
                          "''), coalesce(encode(password_salt, 'hex'), '') "
                          "FROM players WHERE lower(name) = lower($1)",
                          1, p);
    srv_kind k = SRV_OK;
    if (!r) {
        k = srv_db_failed(err);
        goto out;
    }
    char id[STORE_ID_MAX] = "";
    uint8_t salt[SALT_BYTES] = {0}, want[KEY_BYTES] = {0}, got[KEY_BYTES];
    int known = PQntuples(r) == 1 &&
                engine_unhex(PQgetvalue(r, 0, 1), want, KEY_BYTES) == 0 &&
                engine_unhex(PQgetvalue(r, 0, 2), salt, SALT_BYTES) == 0;
    if (known)
        snprintf(id, sizeof id, "%s", PQgetvalue(r, 0, 0));
    PQclear(r);
    /* Always run scrypt: equal timing for unknown names and guests. */
    if (scrypt(password, salt, got) != 0) {
        k = srv_fail(err, SRV_INTERNAL, NULL, "could not hash the password");
        goto out;
    }
    int ok = known && CRYPTO_memcmp(got, want, KEY_BYTES) == 0;
    OPENSSL_cleanse(got, sizeof got);
    if (!ok) {
        k = srv_fail(err, SRV_UNAUTHORIZED, NULL,
                     "the name or the password is wrong (guest players have "
                     "no password: keep the token you were given)");
        goto out;
    }
    k = tokens_issue(c, id, token);
    if (k == SRV_INTERNAL)
        srv_fail(err, k, NULL, "no randomness for the token");
    else if (k != SRV_OK)
        srv_db_failed(err);
out:
    db_release(db, c, db_conn_broken(c));
    return k;
}

srv_kind players_set_password(db_pool *db, const char *player_id,
                              const char *password, srv_error *err)
{
    char salt_hex[2 * SALT_BYTES + 1], key_hex[2 * KEY_BYTES + 1];
    if (!password)
        return srv_fail(err, SRV_INVALID, "password", "password is required");
    /* Any valid name passes check_and_hash's name check: only the password
     * is checked here. */
    srv_kind k = check_and_hash("guest", password, salt_hex, key_hex, err);
    if (k != SRV_OK)
        return k;
    PGconn *c = db_acquire(db, DB_WAIT_MS);
    if (!c)
        return srv_db_failed(err);
    const char *p[] = {player_id, key_hex, salt_hex};
    PGresult *r = db_exec(c, PGRES_TUPLES_OK,
                          "UPDATE players SET password_hash = decode($2, "
                          "'hex'), password_salt = decode($3, 'hex') WHERE "
                          "id = $1 AND password_hash IS NULL RETURNING id",
                          3, p);
    if (!r)
        k = srv_db_failed(err);
    else if (PQntuples(r) != 1)
        k = srv_fail(err, SRV_CONFLICT, "password",
                     "this account already has a password");
    PQclear(r);
    db_release(db, c, db_conn_broken(c));
    return k;
}

/* Whether player_id has no password (a guest): 1, 0, or -1. */
static int is_guest(PGconn *c, const char *player_id)
{
    const char *p[] = {player_id};
    PGresult *r = db_exec(c, PGRES_TUPLES_OK,
                          "SELECT password_hash IS NULL FROM players WHERE "
                          "id = $1",
                          1, p);
    if (!r)
        return -1;
    int guest = PQntuples(r) == 1 && PQgetvalue(r, 0, 0)[0] == 't';
    PQclear(r);
    return guest;
}

/* The player's games, newest first. NULL on a database failure. */
static json_t *my_games(PGconn *c, const char *player_id)
{
    const char *p[] = {player_id};
    PGresult *r = db_exec(c, PGRES_TUPLES_OK,
                          "SELECT g.game_id, g.ruleset, g.status, s.seat "
                          "FROM game_seats s JOIN games g ON g.game_id = "
                          "s.game_id WHERE s.player_id = $1 "
                          "ORDER BY g.created_at DESC, g.game_id LIMIT 100",
                          1, p);
    if (!r)
        return NULL;
    json_t *games = json_array();
    for (int i = 0; games && i < PQntuples(r); i++)
        json_array_append_new(games, json_pack("{ss ss ss si}", "id",
                                               PQgetvalue(r, i, 0), "ruleset",
                                               PQgetvalue(r, i, 1), "status",
                                               PQgetvalue(r, i, 2), "seat",
                                               atoi(PQgetvalue(r, i, 3))));
    PQclear(r);
    return games;
}

srv_kind players_me(db_pool *db, const char *player_id, const char *name,
                    json_t **out, srv_error *err)
{
    *out = NULL;
    PGconn *c = db_acquire(db, DB_WAIT_MS);
    if (!c)
        return srv_db_failed(err);
    json_t *games = my_games(c, player_id);
    json_t *lobbies = games ? lobby_list_member(c, player_id) : NULL;
    json_t *records = lobbies ? records_of_player(c, player_id) : NULL;
    int guest = records ? is_guest(c, player_id) : -1;
    db_release(db, c, db_conn_broken(c));
    srv_kind k = SRV_OK;
    if (!records || guest < 0) {
        k = srv_db_failed(err);
    } else {
        *out = json_pack("{ss ss sb so so}", "id", player_id, "name", name,
                         "guest", guest, "games", games, "lobbies", lobbies);
        games = lobbies = NULL;
        if (!*out || json_object_update(*out, records) != 0) {
            json_decref(*out);
            *out = NULL;
            k = srv_fail(err, SRV_INTERNAL, NULL, "out of memory");
        }
    }
    json_decref(games);
    json_decref(lobbies);
    json_decref(records);
    return k;
}

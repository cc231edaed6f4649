/*
 * h_lobbies.c - lobbies: create, list, show, take a seat, leave, add a bot,
 * empty a seat (the host), start the game. Each handler reads the request,
 * calls one function of server/lobby/lobby_change.h (which owns the rules, the
 * transactions and the announcements) and writes the answer.
 */
#include "api/handlers.h"

#include "api/body.h"
#include "engine/engine.h"
#include "server/lobby/lobby_change.h"

#include <stdio.h>
#include <stdlib.h>

/* Answer with a lobby (201 with its Location when created), or the
 * failure. */
static void answer(api_response *res, srv_kind k, const srv_error *e,
                   json_t *lobby, const char *created_id)
{
    if (k != SRV_OK) {
        api_problem_srv(res, e);
        return;
    }
    if (created_id)
        snprintf(res->location, sizeof res->location, "/api/v1/lobbies/%s",
                 created_id);
    api_json(res, created_id ? 201 : 200, lobby);
}

/* The "seat" member of body: a number, or LOBBY_SEAT_ANY when absent or
 * null. */
static long long seat_field(const json_t *body)
{
    const json_t *s = json_object_get(body, "seat");
    return json_is_integer(s) ? json_integer_value(s) : LOBBY_SEAT_ANY;
}

void api_h_lobbies_create(api_request *req, api_response *res)
{
    static const body_field fields[] = {
        {"ruleset", BODY_STRING, 1}, {"seats", BODY_INTEGER, 1},
        {"options", BODY_OBJECT, 0}, {"private", BODY_BOOLEAN, 0},
        {"clock", BODY_OBJECT, 0},   {"spectator_delay", BODY_OBJECT, 0},
        {NULL, BODY_ANY, 0}};
    static const body_field clock_fields[] = {
        {"mode", BODY_STRING, 1},           {"seconds", BODY_INTEGER, 0},
        {"windows", BODY_OBJECT, 0},        {"night", BODY_OBJECT, 0},
        {"vacation", BODY_STRING, 0},       {"replace_after", BODY_INTEGER, 0},
        {"min_reputation", BODY_OBJECT, 0}, {NULL, BODY_ANY, 0}};
    static const body_field delay_fields[] = {{"versions", BODY_INTEGER, 0},
                                              {"seconds", BODY_INTEGER, 0},
                                              {NULL, BODY_ANY, 0}};
    json_t *body, *lobby = NULL;
    if (body_object(req, res, 0, &body) || body_check(body, fields, NULL, res))
        goto out;
    const json_t *clock = json_object_get(body, "clock");
    if (clock && !json_is_null(clock) &&
        body_check(clock, clock_fields, "clock.", res))
        goto out;
    const json_t *delay = json_object_get(body, "spectator_delay");
    if (delay && !json_is_null(delay) &&
        body_check(delay, delay_fields, "spectator_delay.", res))
        goto out;
    const json_t *secs = json_object_get(clock, "seconds");
    lobby_spec spec = {
        .ruleset = json_string_value(json_object_get(body, "ruleset")),
        .seats = json_integer_value(json_object_get(body, "seats")),
        .options = json_object_get(body, "options"),
        .is_private = json_is_true(json_object_get(body, "private")),
        .clock_mode = json_string_value(json_object_get(clock, "mode")),
        .clock_seconds = json_is_integer(secs) ? json_integer_value(secs) : -1,
        .clock = clock,
        .delay_versions =
            json_integer_value(json_object_get(delay, "versions")),
        .delay_seconds = json_integer_value(json_object_get(delay, "seconds"))};
    char id[STORE_ID_MAX];
    srv_error e = {0};
    srv_kind k = lobby_create(req->app, req->player_id, &spec, id, &lobby, &e);
    answer(res, k, &e, lobby, id);
out:
    json_decref(body);
}

void api_h_lobbies_list(api_request *req, api_response *res)
{
    const char *status = req_query(req, "status");
    const char *ruleset = req_query(req, "ruleset");
    json_t *list;
    srv_error e = {0};
    srv_kind k =
        lobby_find(req->app, status && *status ? status : "open",
                   ruleset && *ruleset ? ruleset : NULL,
                   req->authenticated ? req->player_id : NULL, &list, &e);
    answer(res, k, &e, list, NULL);
}

void api_h_lobby_get(api_request *req, api_response *res)
{
    json_t *lobby;
    srv_error e = {0};
    srv_kind k = lobby_get(req->app, req->params[0],
                           req->authenticated ? req->player_id : NULL,
                           req_query(req, "code"), &lobby, &e);
    answer(res, k, &e, lobby, NULL);
}

void api_h_lobby_join(api_request *req, api_response *res)
{
    static const body_field fields[] = {{"seat", BODY_INTEGER, 0},
                                        {"code", BODY_STRING, 0},
                                        {NULL, BODY_ANY, 0}};
    json_t *body, *lobby = NULL;
    if (body_object(req, res, 1, &body) || body_check(body, fields, NULL, res))
        goto out;
    srv_error e = {0};
    srv_kind k = lobby_join(req->app, req->params[0], req->player_id,
                            json_string_value(json_object_get(body, "code")),
                            seat_field(body), &lobby, &e);
    answer(res, k, &e, lobby, NULL);
out:
    json_decref(body);
}

void api_h_lobby_leave(api_request *req, api_response *res)
{
    json_t *lobby;
    srv_error e = {0};
    srv_kind k =
        lobby_leave(req->app, req->params[0], req->player_id, &lobby, &e);
    answer(res, k, &e, lobby, NULL);
}

void api_h_lobby_seat_clear(api_request *req, api_response *res)
{
    char *end = NULL;
    long long seat = strtoll(req->params[1], &end, 10);
    if (!end || *end || end == req->params[1]) {
        api_problem(res, 404, "no such seat; seats are numbered from 0", NULL);
        return;
    }
    const char *bot = req_query(req, "bot");
    json_t *lobby;
    srv_error e = {0};
    srv_kind k = lobby_clear_seat(req->app, req->params[0], req->player_id,
                                  seat, bot, &lobby, &e);
    answer(res, k, &e, lobby, NULL);
}

void api_h_lobby_bot(api_request *req, api_response *res)
{
    static const body_field fields[] = {{"seat", BODY_INTEGER, 0},
                                        {"level", BODY_STRING, 0},
                                        {NULL, BODY_ANY, 0}};
    json_t *body, *lobby = NULL;
    if (body_object(req, res, 1, &body) || body_check(body, fields, NULL, res))
        goto out;
    srv_error e = {0};
    srv_kind k =
        lobby_add_bot(req->app, req->params[0], req->player_id,
                      json_string_value(json_object_get(body, "level")),
                      seat_field(body), &lobby, &e);
    answer(res, k, &e, lobby, NULL);
out:
    json_decref(body);
}

/* The test-only "seed" of a start body (64 hex digits) into seed: 1 when
 * given and taken, 0 when absent, -1 with a 400 answered (refused without
 * CONCLAVE_TEST_HOOKS=1, or malformed). */
static int start_seed(api_request *req, api_response *res, const json_t *body,
                      uint8_t *seed)
{
    const char *hex = json_string_value(json_object_get(body, "seed"));
    if (!hex)
        return 0;
    if (!req->app->cfg->test_hooks) {
        api_problem(res, 400,
                    "seed is a test-only field, accepted only when the "
                    "server runs with CONCLAVE_TEST_HOOKS=1",
                    "seed");
        return -1;
    }
    if (engine_unhex(hex, seed, ENGINE_SEED_BYTES) != 0) {
        api_problem(res, 400, "seed must be 64 hexadecimal digits", "seed");
        return -1;
    }
    return 1;
}

void api_h_lobby_start(api_request *req, api_response *res)
{
    static const body_field fields[] = {{"seed", BODY_STRING, 0},
                                        {NULL, BODY_ANY, 0}};
    json_t *body;
    uint8_t seed[ENGINE_SEED_BYTES];
    int seeded = 0;
    if (body_object(req, res, 1, &body) ||
        body_check(body, fields, NULL, res) ||
        (seeded = start_seed(req, res, body, seed)) < 0)
        goto out;
    char game_id[STORE_ID_MAX];
    srv_error e = {0};
    if (lobby_start(req->app, req->params[0], req->player_id,
                    seeded ? seed : NULL, game_id, &e) != SRV_OK) {
        api_problem_srv(res, &e);
        goto out;
    }
    snprintf(res->location, sizeof res->location, "/api/v1/games/%s", game_id);
    api_json(res, 201, json_pack("{ss}", "game", game_id));
out:
    json_decref(body);
}

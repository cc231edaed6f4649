/*
 * h_players.c - players and sessions: sign-up (guest or with a password),
 * sign-in, sign-out (revoking the presented token), GET /me, one-time
 * sign-in links by mail (POST /api/v1/sign-in-links, .../redeem) and a
 * guest securing their account (PUT /api/v1/me/password). The work is
 * server/players/players.c's, tokens.c's and signin_links.c's; this file
 * reads the request and writes the answer.
 */
#include "api/handlers.h"

#include "api/abuse_log.h"
#include "api/auth.h"
#include "api/body.h"
#include "api/signin_limit.h"
#include "server/players/players.h"
#include "server/players/records.h"
#include "server/players/signin_links.h"
#include "server/players/tokens.h"

void api_h_players_create(api_request *req, api_response *res)
{
    static const body_field fields[] = {{"name", BODY_STRING, 1},
                                        {"password", BODY_STRING, 0},
                                        {NULL, BODY_ANY, 0}};
    json_t *body;
    if (body_object(req, res, 0, &body) || body_check(body, fields, NULL, res))
        goto out;
    const char *name = json_string_value(json_object_get(body, "name"));
    const char *password = json_string_value(json_object_get(body, "password"));
    if (password && api_scrypt_admit(req, res) != 0)
        goto out;
    if (api_signup_admit(req, res) != 0) {
        if (password)
            api_scrypt_done();
        goto out;
    }
    char id[STORE_ID_MAX], token[TOKENS_CHARS + 1];
    srv_error e = {0};
    srv_kind k = players_create(req->app->db, name, password, id, token, &e);
    if (password)
        api_scrypt_done();
    if (k != SRV_OK)
        api_problem_srv(res, &e);
    else
        api_json(
            res, 201,
            json_pack("{ss ss ss}", "id", id, "name", name, "token", token));
out:
    json_decref(body);
}

void api_h_sessions_create(api_request *req, api_response *res)
{
    static const body_field fields[] = {{"name", BODY_STRING, 1},
                                        {"password", BODY_STRING, 1},
                                        {NULL, BODY_ANY, 0}};
    json_t *body;
    if (body_object(req, res, 0, &body) || body_check(body, fields, NULL, res))
        goto out;
    if (api_scrypt_admit(req, res) != 0)
        goto out;
    char token[TOKENS_CHARS + 1];
    srv_error e = {0};
    srv_kind k = players_sign_in(
        req->app->db, json_string_value(json_object_get(body, "name")),
        json_string_value(json_object_get(body, "password")), token, &e);
    api_scrypt_done();
    if (k == SRV_UNAUTHORIZED)
        api_abuse_note("signin_failed", req->client_ip);
    if (k != SRV_OK)
        api_problem_srv(res, &e);
    else
        api_json(res, 201, json_pack("{ss}", "token", token));
out:
    json_decref(body);
}

void api_h_sessions_delete(api_request *req, api_response *res)
{
    const char *token = api_bearer_token(req);
    if (!token) { /* auth ran: cannot happen */
        api_problem(res, 401, "send Authorization: Bearer <token>", NULL);
        return;
    }
    srv_error e = {0};
    if (tokens_revoke(req->app->db, token) != SRV_OK) {
        srv_db_failed(&e);
        api_problem_srv(res, &e);
        return;
    }
    api_json(res, 204, NULL);
}

void api_h_me(api_request *req, api_response *res)
{
    json_t *me;
    srv_error e = {0};
    if (players_me(req->app->db, req->player_id, req->player_name, &me, &e) !=
        SRV_OK) {
        api_problem_srv(res, &e);
        return;
    }
    api_json(res, 200, me);
}

/* POST /api/v1/me/records/{key}/choice: a choice in one of the caller's
 * records (the Sprint campaign's {"condition": id}). */
void api_h_me_record_choice(api_request *req, api_response *res)
{
    json_t *body = NULL, *record = NULL;
    if (body_object(req, res, 0, &body) != 0)
        return;
    srv_error e = {0};
    srv_kind k = records_choose(req->app->db, req->player_id, req->params[0],
                                body, &record, &e);
    json_decref(body);
    if (k != SRV_OK) {
        api_problem_srv(res, &e);
        return;
    }
    api_json(res, 200, record);
}

/* POST /api/v1/sign-in-links {"email", "next"?}: 202 whether or not the
 * address is known. Counted like a password check of the client's address
 * (api_scrypt_admit), so it cannot be used to flood a mailbox. */
void api_h_signin_links_create(api_request *req, api_response *res)
{
    static const body_field fields[] = {{"email", BODY_STRING, 1},
                                        {"next", BODY_STRING, 0},
                                        {NULL, BODY_ANY, 0}};
    json_t *body;
    if (body_object(req, res, 0, &body) || body_check(body, fields, NULL, res))
        goto out;
    if (api_scrypt_admit(req, res) != 0)
        goto out;
    api_scrypt_done();
    srv_error e = {0};
    srv_kind k = signin_link_request(
        req->app->db, json_string_value(json_object_get(body, "email")),
        json_string_value(json_object_get(body, "next")), req->app->base_url,
        &e);
    if (k != SRV_OK)
        api_problem_srv(res, &e);
    else
        api_json(res, 202,
                 json_pack("{ss}", "detail",
                           "if an account has this verified address, a "
                           "sign-in link is on its way"));
out:
    json_decref(body);
}

/* POST /api/v1/sign-in-links/redeem {"token"}: the link's button. */
void api_h_signin_links_redeem(api_request *req, api_response *res)
{
    static const body_field fields[] = {{"token", BODY_STRING, 1},
                                        {NULL, BODY_ANY, 0}};
    json_t *body;
    if (body_object(req, res, 0, &body) || body_check(body, fields, NULL, res))
        goto out;
    char token[TOKENS_CHARS + 1], id[STORE_ID_MAX], name[32],
        next[SIGNIN_NEXT_MAX];
    srv_error e = {0};
    srv_kind k = signin_link_redeem(
        req->app->db, json_string_value(json_object_get(body, "token")), token,
        id, name, next, &e);
    if (k != SRV_OK)
        api_problem_srv(res, &e);
    else
        api_json(res, 201,
                 json_pack("{ss ss ss ss}", "token", token, "id", id, "name",
                           name, "next", next));
out:
    json_decref(body);
}

/* PUT /api/v1/me/password {"password"}: a guest secures the account. */
void api_h_me_password(api_request *req, api_response *res)
{
    static const body_field fields[] = {{"password", BODY_STRING, 1},
                                        {NULL, BODY_ANY, 0}};
    json_t *body;
    if (body_object(req, res, 0, &body) || body_check(body, fields, NULL, res))
        goto out;
    if (api_scrypt_admit(req, res) != 0)
        goto out;
    srv_error e = {0};
    srv_kind k = players_set_password(
        req->app->db, req->player_id,
        json_string_value(json_object_get(body, "password")), &e);
    api_scrypt_done();
    if (k != SRV_OK)
        api_problem_srv(res, &e);
    else
        api_json(res, 204, NULL);
out:
    json_decref(body);
}

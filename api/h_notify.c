/*
 * h_notify.c - notification settings: GET/PUT /api/v1/me/notifications,
 * POST /api/v1/me/notifications/webhooks (the secret is shown once),
 * DELETE /api/v1/me/notifications/webhooks/{id}, a game's group channel
 * (GET/PUT/DELETE /api/v1/games/{id}/group-webhook), and verifying an address:
 * POST /api/v1/notifications/verify {"token"} (the web page's /verify
 * button); GET /api/v1/notifications/verify?token= (the link of mails sent
 * before the page) only sends the browser to that page (303), so a mail
 * scanner's GET verifies nothing. Unsubscribing, the mails' link:
 * GET /unsubscribe?token= is the web page (a button), POST /unsubscribe?token=
 * the one-click unsubscribe of List-Unsubscribe-Post (RFC 8058: the body is
 * "List-Unsubscribe=One-Click", form-encoded, and not needed). The work is
 * server/notify/notify_settings.c's.
 */
#include "api/handlers.h"

#include "api/body.h"
#include "server/notify/notify_settings.h"
#include "server/store/store.h"

#include <stdio.h>
#include <string.h>

static int email_on(const api_request *req)
{
    return req->app->cfg->smtp_url[0] != 0;
}

static void answer(api_response *res, srv_kind k, const srv_error *e,
                   int status, json_t *doc)
{
    if (k != SRV_OK)
        api_problem_srv(res, e);
    else
        api_json(res, status, doc);
}

void api_h_me_notifications(api_request *req, api_response *res)
{
    json_t *doc = NULL;
    srv_error e = {0};
    srv_kind k = notify_settings_get(req->app->db, req->player_id,
                                     email_on(req), &doc, &e);
    answer(res, k, &e, 200, doc);
}

void api_h_me_notifications_put(api_request *req, api_response *res)
{
    json_t *body = NULL, *doc = NULL;
    if (body_object(req, res, 0, &body) != 0)
        return;
    srv_error e = {0};
    srv_kind k =
        notify_settings_put(req->app->db, req->player_id, body, email_on(req),
                            req->app->base_url, &doc, &e);
    json_decref(body);
    answer(res, k, &e, 200, doc);
}

void api_h_me_webhooks_create(api_request *req, api_response *res)
{
    static const body_field fields[] = {{"url", BODY_STRING, 1},
                                        {"format", BODY_STRING, 0},
                                        {NULL, BODY_ANY, 0}};
    json_t *body = NULL, *doc = NULL;
    if (body_object(req, res, 0, &body) ||
        body_check(body, fields, NULL, res)) {
        json_decref(body);
        return;
    }
    srv_error e = {0};
    srv_kind k =
        notify_webhook_add(req->app->db, req->player_id,
                           json_string_value(json_object_get(body, "url")),
                           json_string_value(json_object_get(body, "format")),
                           req->app->cfg->webhook_allow_private, &doc, &e);
    json_decref(body);
    answer(res, k, &e, 201, doc);
}

void api_h_me_webhooks_delete(api_request *req, api_response *res)
{
    srv_error e = {0};
    srv_kind k =
        notify_webhook_delete(req->app->db, req->player_id, req->params[0], &e);
    answer(res, k, &e, 204, NULL);
}

/* A game id that can name a game (else a 404 before the database). */
static int game_id_ok(const api_request *req, api_response *res)
{
    if (strlen(req->params[0]) > 0 && strlen(req->params[0]) < STORE_ID_MAX)
        return 1;
    api_problem(res, 404, "no such game", NULL);
    return 0;
}

void api_h_game_group_webhook_put(api_request *req, api_response *res)
{
    static const body_field fields[] = {{"url", BODY_STRING, 1},
                                        {"format", BODY_STRING, 0},
                                        {NULL, BODY_ANY, 0}};
    json_t *body = NULL, *doc = NULL;
    if (!game_id_ok(req, res) || body_object(req, res, 0, &body) ||
        body_check(body, fields, NULL, res)) {
        json_decref(body);
        return;
    }
    srv_error e = {0};
    srv_kind k =
        notify_channel_put(req->app->db, req->player_id, req->params[0],
                           json_string_value(json_object_get(body, "url")),
                           json_string_value(json_object_get(body, "format")),
                           req->app->cfg->webhook_allow_private, &doc, &e);
    json_decref(body);
    answer(res, k, &e, 200, doc);
}

void api_h_game_group_webhook_get(api_request *req, api_response *res)
{
    json_t *doc = NULL;
    srv_error e = {0};
    if (!game_id_ok(req, res))
        return;
    srv_kind k = notify_channel_get(req->app->db, req->player_id,
                                    req->params[0], &doc, &e);
    answer(res, k, &e, 200, doc);
}

void api_h_game_group_webhook_delete(api_request *req, api_response *res)
{
    srv_error e = {0};
    if (!game_id_ok(req, res))
        return;
    srv_kind k =
        notify_channel_delete(req->app->db, req->player_id, req->params[0], &e);
    answer(res, k, &e, 204, NULL);
}

void api_h_notifications_verify(api_request *req, api_response *res)
{
    static const body_field fields[] = {{"token", BODY_STRING, 1},
                                        {NULL, BODY_ANY, 0}};
    json_t *body = NULL, *doc = NULL;
    if (body_object(req, res, 0, &body) ||
        body_check(body, fields, NULL, res)) {
        json_decref(body);
        return;
    }
    srv_error e = {0};
    srv_kind k = notify_email_verify(
        req->app->db, json_string_value(json_object_get(body, "token")), &doc,
        &e);
    json_decref(body);
    answer(res, k, &e, 200, doc);
}

void api_h_notifications_verify_link(api_request *req, api_response *res)
{
    const char *token = req_query(req, "token");
    char safe[2 * 32 + 1] = "";
    for (size_t i = 0; token && token[i] && i < sizeof safe - 1; i++) {
        char ch = token[i];
        if (!((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f')))
            break;
        safe[i] = ch;
        safe[i + 1] = '\0';
    }
    snprintf(res->location, sizeof res->location, "/verify?token=%s", safe);
    api_json(res, 303, NULL);
}

void api_h_unsubscribe_page(api_request *req, api_response *res)
{
    api_serve_static(req, res);
}

void api_h_unsubscribe(api_request *req, api_response *res)
{
    srv_error e = {0};
    srv_kind k = notify_unsubscribe(req->app->db, req_query(req, "token"), &e);
    answer(res, k, &e, 200,
           k == SRV_OK ? json_pack("{sb}", "unsubscribed", 1) : NULL);
}

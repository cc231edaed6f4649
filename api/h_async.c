/*
 * h_async.c - asynchronous play over REST: the caller's "your move" inbox
 * (GET /me/turns), their vacation (GET/POST/DELETE /me/vacation) and the
 * host's one extension of a window's deadline (POST /games/{id}/windows/
 * {window}/extend). The work is server/players/inbox.c's,
 * server/game/vacation.c's and server/game/clock_ops.c's; this file reads the
 * request and writes the answer.
 */
#include "api/handlers.h"

#include "api/body.h"
#include "server/game/actor.h"
#include "server/game/clock_ops.h"
#include "server/game/vacation.h"
#include "server/players/inbox.h"

void api_h_me_turns(api_request *req, api_response *res)
{
    json_t *out;
    srv_error e = {0};
    if (inbox_get(req->app->db, req->player_id, &out, &e) != SRV_OK)
        api_problem_srv(res, &e);
    else
        api_json(res, 200, out);
}

void api_h_me_vacation_get(api_request *req, api_response *res)
{
    json_t *out;
    srv_error e = {0};
    if (vacation_get(req->app, req->player_id, &out, &e) != SRV_OK)
        api_problem_srv(res, &e);
    else
        api_json(res, 200, out);
}

void api_h_me_vacation_start(api_request *req, api_response *res)
{
    static const body_field fields[] = {{"days", BODY_INTEGER, 1},
                                        {NULL, BODY_ANY, 0}};
    json_t *body, *out = NULL, *games = NULL;
    if (body_object(req, res, 0, &body) || body_check(body, fields, NULL, res))
        goto done;
    srv_error e = {0};
    srv_kind k = vacation_start(
        req->app, req->player_id,
        json_integer_value(json_object_get(body, "days")), &out, &games, &e);
    size_t i;
    json_t *g;
    json_array_foreach(games, i, g)
    {
        if (req->app->actors)
            actors_deadlines_changed(req->app->actors, json_string_value(g));
    }
    if (k != SRV_OK)
        api_problem_srv(res, &e);
    else
        api_json(res, 201, out);
done:
    json_decref(games);
    json_decref(body);
}

void api_h_me_vacation_stop(api_request *req, api_response *res)
{
    json_t *out;
    srv_error e = {0};
    if (vacation_stop(req->app, req->player_id, &out, &e) != SRV_OK)
        api_problem_srv(res, &e);
    else
        api_json(res, 200, out);
}

void api_h_game_window_extend(api_request *req, api_response *res)
{
    static const body_field fields[] = {{"seconds", BODY_INTEGER, 0},
                                        {NULL, BODY_ANY, 0}};
    json_t *body, *out = NULL;
    if (body_object(req, res, 1, &body) || body_check(body, fields, NULL, res))
        goto done;
    const json_t *s = json_object_get(body, "seconds");
    srv_error e = {0};
    srv_kind k =
        clock_extend(req->app, req->params[0], req->params[1], req->player_id,
                     json_is_integer(s) ? json_integer_value(s) : 0, &out, &e);
    if (k != SRV_OK) {
        api_problem_srv(res, &e);
        goto done;
    }
    if (req->app->actors)
        actors_deadlines_changed(req->app->actors, req->params[0]);
    api_json(res, 200, out);
done:
    json_decref(body);
}

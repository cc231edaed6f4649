/*
 * h_rematch.c - the rematch of a finished game: POST makes it (or returns
 * the one another player made), GET finds it; both for the game's players
 * only, with the invite code a private rematch needs. server/lobby/rematch.c
 * owns the rules.
 */
#include "api/handlers.h"

#include "api/body.h"
#include "server/lobby/rematch.h"

#include <stdio.h>

/* The answer, or the failure; 201 with the lobby's Location when made. */
static void answer(api_response *res, srv_kind k, const srv_error *e,
                   json_t *out)
{
    if (k != SRV_OK) {
        api_problem_srv(res, e);
        return;
    }
    int created = json_is_true(json_object_get(out, "created"));
    if (created)
        snprintf(res->location, sizeof res->location, "/api/v1/lobbies/%s",
                 json_string_value(
                     json_object_get(json_object_get(out, "lobby"), "id")));
    api_json(res, created ? 201 : 200, out);
}

void api_h_game_rematch_post(api_request *req, api_response *res)
{
    static const body_field none[] = {{NULL, BODY_ANY, 0}};
    json_t *body, *out = NULL;
    if (body_object(req, res, 1, &body) || body_check(body, none, NULL, res))
        goto done;
    srv_error e = {0};
    srv_kind k =
        rematch_offer(req->app, req->params[0], req->player_id, &out, &e);
    answer(res, k, &e, out);
done:
    json_decref(body);
}

void api_h_game_rematch_get(api_request *req, api_response *res)
{
    json_t *out = NULL;
    srv_error e = {0};
    srv_kind k =
        rematch_find(req->app, req->params[0], req->player_id, &out, &e);
    if (k == SRV_OK && !out)
        api_json(res, 204, NULL); /* none made yet */
    else
        answer(res, k, &e, out);
}

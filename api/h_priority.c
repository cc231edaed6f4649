/*
 * h_priority.c - a seat's decisions about priority outside its plays, for
 * rulesets with priority windows (engine/respond.c): its response rule
 * (PUT /api/v1/games/{id}/response-rule) and undo with consent
 * (POST .../undo, .../undo/consent, .../undo/refuse).
 *
 * Each is one SYSTEM input of the caller's seat, applied and stored by the
 * game's actor like any input, so a rule keeps working while the player is
 * offline and a replay reproduces it. The engine judges them: 409 when
 * there is nothing to undo or answer, 422 for a ruleset without priority
 * (or without undo, for the undo routes).
 */
#include "api/handlers.h"

#include "api/body.h"
#include "api/game_input.h"
#include "api/suspend.h"

/* Answer 200 with {"version"} plus the members of extra. */
static void finish_system(api_request *req, api_response *res,
                          const actor_request *rq, actor_reply *rp,
                          const json_t *extra)
{
    (void)req;
    (void)rq;
    json_decref(rp->stored);
    json_decref(rp->parts);
    if (rp->kind != SRV_OK) {
        api_reply_problem(res, rp);
        return;
    }
    json_t *body = json_pack("{sI}", "version", (json_int_t)rp->version);
    if (body && extra)
        json_object_update(body, (json_t *)extra);
    api_json(res, 200, body);
}

/* Send SYSTEM payload (stolen) for the caller's seat; on success
 * finish_system answers 200 with {"version"} plus the members of extra
 * (stolen, may be NULL). */
static void submit_system(api_request *req, api_response *res, json_t *payload,
                          json_t *extra)
{
    actor_request rq = {
        .kind = ENGINE_SYSTEM, .payload = payload, .if_match = -1};
    if (!payload) {
        api_problem(res, 500, "out of memory", NULL);
        goto out;
    }
    if (api_caller_seat(req, res, &rq.seat, NULL, NULL))
        goto out;
    api_submit(req, res, &rq, finish_system, extra);
    extra = NULL; /* api_submit's now */
out:
    json_decref(payload);
    json_decref(extra);
}

void api_h_game_response_rule(api_request *req, api_response *res)
{
    static const body_field fields[] = {{"until", BODY_STRING, 0},
                                        {"stop_if_targeted", BODY_BOOLEAN, 0},
                                        {"hold", BODY_BOOLEAN, 0},
                                        {NULL, BODY_ANY, 0}};
    json_t *body;
    if (body_object(req, res, 0, &body))
        return;
    if (body_check(body, fields, NULL, res)) {
        json_decref(body);
        return;
    }
    json_t *until = json_object_get(body, "until");
    json_t *hold = json_object_get(body, "hold");
    if (!until && !hold) {
        json_decref(body);
        api_problem(res, 422, "until or hold is required", "until");
        return;
    }
    json_t *stop = json_object_get(body, "stop_if_targeted");
    json_t *rule = json_object();
    if (rule && until)
        json_object_set_new(rule, "until", json_incref(until));
    if (rule && (until || stop))
        json_object_set_new(rule, "stop_if_targeted",
                            json_boolean(json_is_true(stop)));
    if (rule && hold)
        json_object_set_new(rule, "hold", json_incref(hold));
    json_t *payload = json_copy(rule);
    if (payload)
        json_object_set_new(payload, "action", json_string("respond"));
    json_decref(body);
    submit_system(req, res, payload, rule);
}

/* An undo route: an empty body or {}, then SYSTEM {"action": action}. */
static void undo_action(api_request *req, api_response *res, const char *action)
{
    static const body_field none[] = {{NULL, BODY_ANY, 0}};
    json_t *body;
    if (body_object(req, res, 1, &body))
        return;
    int bad = body_check(body, none, NULL, res);
    json_decref(body);
    if (bad)
        return;
    submit_system(req, res, json_pack("{ss}", "action", action), NULL);
}

void api_h_game_undo(api_request *req, api_response *res)
{
    undo_action(req, res, "undo");
}

void api_h_game_undo_consent(api_request *req, api_response *res)
{
    undo_action(req, res, "undo_consent");
}

void api_h_game_undo_refuse(api_request *req, api_response *res)
{
    undo_action(req, res, "undo_refuse");
}

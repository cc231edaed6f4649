/*
 * h_parts.c - sealed orders given in keyed parts: PUT and DELETE
 * /api/v1/games/{id}/orders/{window}/parts/{key}.
 *
 * The handler checks the request (the key, the body, the game's order size
 * limit, the caller's seat) and hands the change to the game's actor, which
 * builds the whole order from the one it holds and applies it as one input
 * (server/game/order_parts.h), so concurrent part changes of one seat all land.
 * The answer is the whole order's: its receipt, as a whole-order PUT gives
 * it, and the keys of the parts it now has.
 */
#include "api/handlers.h"

#include "api/body.h"
#include "api/game_input.h"
#include "api/suspend.h"
#include "server/game/order_parts.h"

#include <stdio.h>
#include <string.h>

/* Fill rq's window and part key from the path; -1 with res filled. */
static int part_params(api_request *req, api_response *res, actor_request *rq)
{
    if (api_window_param(req, res, rq->window))
        return -1;
    const char *key = req->params[2];
    if (!order_part_key_ok(key)) {
        char detail[160];
        snprintf(detail, sizeof detail,
                 "a part key is 1 to %d characters from A-Z, a-z, 0-9, "
                 "'_', '-' and '.'",
                 ORDER_PART_KEY_MAX);
        api_problem(res, 422, detail, "key");
        return -1;
    }
    memcpy(rq->part_key, key, strlen(key) + 1); /* fits: checked above */
    return 0;
}

/* Answer with the whole order's receipt and keys. */
static void finish_part(api_request *req, api_response *res,
                        const actor_request *rq, actor_reply *rp,
                        const json_t *extra)
{
    (void)req;
    (void)extra;
    json_decref(rp->stored);
    if (rp->kind != SRV_OK) {
        json_decref(rp->parts);
        api_reply_problem(res, rp);
        return;
    }
    api_json(
        res, 200,
        json_pack("{ss si sI so* so}", "window", rq->window, "seat", rq->seat,
                  "version", (json_int_t)rp->version, "receipt",
                  rp->has_receipt ? json_string(rp->receipt.hex) : json_null(),
                  "parts", rp->parts ? rp->parts : json_array()));
}

/* Send the change; finish_part answers once the actor has. */
static void submit_part(api_request *req, api_response *res, actor_request *rq)
{
    api_submit(req, res, rq, finish_part, NULL);
}

void api_h_game_part_put(api_request *req, api_response *res)
{
    json_t *value = NULL;
    actor_request rq = {.part_op = ORDER_PART_SET, .if_match = -1};
    size_t max_order;
    if (part_params(req, res, &rq) || body_value(req, res, &value))
        return;
    rq.payload = value;
    if (api_caller_seat(req, res, &rq.seat, NULL, &max_order) ||
        api_order_fits(req, res, max_order))
        goto out;
    submit_part(req, res, &rq);
out:
    json_decref(value);
}

void api_h_game_part_delete(api_request *req, api_response *res)
{
    actor_request rq = {.part_op = ORDER_PART_DELETE, .if_match = -1};
    if (part_params(req, res, &rq) ||
        api_caller_seat(req, res, &rq.seat, NULL, NULL))
        return;
    submit_part(req, res, &rq);
}

/*
 * h_chat.c - table talk over REST: a game's channels with unread counts,
 * opening a private channel, posting to and paging through a channel, and
 * the read mark. Who may see and do what, and the limits, are
 * server/game/chat.c's; this file reads the request and writes the answer.
 * One rule is the game's: before a post, the ruleset may close the
 * caller's table talk for now (engine_talk_closed; Council's removed
 * representatives), asked of the game in memory.
 */
#include "api/handlers.h"

#include "api/body.h"
#include "server/game/actor.h"
#include "server/game/chat.h"
#include "server/game/gamedoc.h"
#include "server/store/store.h"

#include <stdlib.h>
#include <string.h>

/* Could id be a game id? Anything else is a 404 without the store. */
static int game_id_ok(const char *id)
{
    size_t n = strlen(id);
    if (n == 0 || n >= STORE_ID_MAX)
        return 0;
    for (const char *c = id; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
              (*c >= '0' && *c <= '9') || *c == '-' || *c == '_'))
            return 0;
    return 1;
}

/* The {id} and (with chan) {channel} of the path; 0, or -1 after a 404. */
static int path_ids(api_request *req, api_response *res, int *chan)
{
    if (!game_id_ok(req->params[0])) {
        api_problem(res, 404, "no such game", NULL);
        return -1;
    }
    if (!chan)
        return 0;
    const char *t = req->params[1];
    char *end;
    long v = strtol(t, &end, 10);
    if (*end || t[0] < '0' || t[0] > '9' || v > 1000000 ||
        (t[0] == '0' && t[1])) {
        api_problem(res, 404, "no such channel in this game", NULL);
        return -1;
    }
    *chan = (int)v;
    return 0;
}

static const char *caller(const api_request *req)
{
    return req->authenticated ? req->player_id : NULL;
}

void api_h_chat_channels(api_request *req, api_response *res)
{
    json_t *out = NULL;
    srv_error e = {0};
    if (path_ids(req, res, NULL))
        return;
    if (chat_list(req->app->db, req->params[0], caller(req), &out, &e) !=
        SRV_OK) {
        api_problem_srv(res, &e);
        return;
    }
    api_json(res, 200, out);
}

void api_h_chat_open(api_request *req, api_response *res)
{
    static const body_field fields[] = {{"seats", BODY_ANY, 1},
                                        {NULL, BODY_ANY, 0}};
    json_t *body = NULL, *out = NULL;
    if (path_ids(req, res, NULL) || body_object(req, res, 0, &body) ||
        body_check(body, fields, NULL, res))
        goto done;
    srv_error e = {0};
    int created = 0;
    if (chat_open(req->app->db, req->params[0], req->player_id,
                  json_object_get(body, "seats"), &out, &created,
                  &e) != SRV_OK) {
        api_problem_srv(res, &e);
        goto done;
    }
    api_json(res, created ? 201 : 200, out);
done:
    json_decref(body);
}

/* Query argument name as a whole number in [0, max] into *out (left as is
 * when absent); 0, or -1 after a 422 naming it. */
static int query_number(api_request *req, api_response *res, const char *name,
                        long long max, long long *out)
{
    const char *t = req_query(req, name);
    if (!t || !*t)
        return 0;
    char *end;
    long long v = strtoll(t, &end, 10);
    if (*end || t[0] < '0' || t[0] > '9' || v > max) {
        api_problem(res, 422, "must be a whole number in range", name);
        return -1;
    }
    *out = v;
    return 0;
}

void api_h_chat_messages(api_request *req, api_response *res)
{
    int chan = 0;
    long long before = 0, after = 0, limit = CHAT_PAGE_DEFAULT;
    if (path_ids(req, res, &chan) ||
        query_number(req, res, "before", 1ll << 53, &before) ||
        query_number(req, res, "after", 1ll << 53, &after) ||
        query_number(req, res, "limit", CHAT_PAGE_MAX, &limit))
        return;
    if (limit < 1) {
        api_problem(res, 422, "limit must be from 1 to 100", "limit");
        return;
    }
    if (before && after) {
        api_problem(res, 422, "give before or after, not both", "after");
        return;
    }
    chat_page page = {before, after, (int)limit};
    json_t *out = NULL;
    srv_error e = {0};
    if (chat_read(req->app->db, req->params[0], caller(req), chan, &page, &out,
                  &e) != SRV_OK) {
        api_problem_srv(res, &e);
        return;
    }
    api_json(res, 200, out);
}

/* Whether the game's rules close the caller's table talk now. */
typedef struct talk_check {
    const char *player_id;
    int closed;
    char why[200];
} talk_check;

static void on_talk(const actor_view *v, void *ctx)
{
    talk_check *t = ctx;
    int seat = gamedoc_seat_of(v->meta, t->player_id);
    t->closed =
        seat >= 0 && engine_talk_closed(v->game, seat, t->why, sizeof t->why);
}

/* 0 when the caller may talk (or is not seated: chat_post answers that),
 * or -1 with res filled: a 403 with the rules' reason, or a 503 when the
 * game cannot be asked now. */
static int talk_open(api_request *req, api_response *res)
{
    if (!req->app->actors)
        return 0;
    talk_check t = {.player_id = req->player_id};
    srv_kind st = actors_read(req->app->actors, req->params[0], on_talk, &t);
    if (st == SRV_NOT_FOUND)
        return 0; /* chat_post answers the 404 */
    if (st != SRV_OK) {
        api_problem(res, 503, "the game cannot be loaded now; retry shortly",
                    NULL);
        res->retry_after = 1;
        return -1;
    }
    if (t.closed) {
        api_problem(res, 403, t.why, NULL);
        return -1;
    }
    return 0;
}

void api_h_chat_post(api_request *req, api_response *res)
{
    static const body_field fields[] = {{"text", BODY_STRING, 1},
                                        {NULL, BODY_ANY, 0}};
    int chan = 0;
    json_t *body = NULL, *out = NULL;
    if (path_ids(req, res, &chan) || body_object(req, res, 0, &body) ||
        body_check(body, fields, NULL, res) || talk_open(req, res))
        goto done;
    srv_error e = {0};
    int retry = 0;
    if (chat_post(req->app->db, req->params[0], req->player_id, chan,
                  json_string_value(json_object_get(body, "text")), &out,
                  &retry, &e) != SRV_OK) {
        api_problem_srv(res, &e);
        if (e.kind == SRV_TOO_MANY)
            res->retry_after = retry;
        goto done;
    }
    api_json(res, 201, out);
done:
    json_decref(body);
}

void api_h_chat_read(api_request *req, api_response *res)
{
    static const body_field fields[] = {{"seq", BODY_INTEGER, 1},
                                        {NULL, BODY_ANY, 0}};
    int chan = 0;
    json_t *body = NULL, *out = NULL;
    if (path_ids(req, res, &chan) || body_object(req, res, 0, &body) ||
        body_check(body, fields, NULL, res))
        goto done;
    json_int_t seq = json_integer_value(json_object_get(body, "seq"));
    if (seq < 0) {
        api_problem(res, 422, "seq must be 0 or more", "seq");
        goto done;
    }
    srv_error e = {0};
    if (chat_mark_read(req->app->db, req->params[0], req->player_id, chan, seq,
                       &out, &e) != SRV_OK) {
        api_problem_srv(res, &e);
        goto done;
    }
    api_json(res, 200, out);
done:
    json_decref(body);
}

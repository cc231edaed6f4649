/*
 * h_games.c - games: the game as the caller may see it, its view (with an
 * ETag), legal moves, sealed orders (give, replace, withdraw), public plays
 * (with Idempotency-Key and If-Match), the log, and the export of a game
 * that is over.
 *
 * Reads go through actors_read, so they see the committed state the actor
 * holds; inputs go to the actor through api_submit (api/suspend.h: the
 * request is suspended, not holding its HTTP thread, until the actor has
 * validated the input with the engine, appended it to the store and
 * answered with a server error kind, mapped to a problem by
 * api_problem_srv). The caller's seat is the one game_seats gives
 * their player id; everyone else (spectators, anonymous callers) sees the
 * public view (ENGINE_PUBLIC), never a seat's.
 *
 * What a client sees of a game is server/game/gamedoc.c's (the hub renders the
 * same document); the export is server/game/export.c's.
 */
#include "api/handlers.h"

#include "api/body.h"
#include "api/game_input.h"
#include "api/suspend.h"
#include "engine/engine.h"
#include "server/game/actor.h"
#include "server/game/clock_ops.h"
#include "server/game/export.h"
#include "server/game/gamedoc.h"
#include "server/game/replay_view.h"
#include "server/game/spectate.h"
#include "server/store/store.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IDEM_KEY_MAX 128

/* The most log entries one GET .../log answers (more: ask again). */
#define API_LOG_PAGE 1000
#define API_LOG_PAGE_S "1000"
/* The most inputs one page of an export holds. */
#define API_EXPORT_PAGE 5000
#define API_EXPORT_PAGE_S "5000"

typedef enum {
    READ_SEAT,  /* only the caller's seat and the status */
    READ_GAME,  /* the whole game document */
    READ_VIEW,  /* the view alone */
    READ_LEGAL, /* engine_legal */
    READ_LOG    /* engine_log_since */
} read_kind;

typedef struct game_read {
    read_kind kind;
    const char *player_id; /* NULL: anonymous */
    size_t after;          /* READ_LOG */
    size_t limit;          /* READ_LOG: at most this many entries */
    /* filled by the callback */
    int seat; /* the caller's seat, or -1 */
    uint64_t version;
    int running;
    size_t max_order; /* engine_max_order_bytes of the game's ruleset */
    json_t *out;      /* NEW */
    int delayed;      /* a spectator of a delayed game: see spectate.h */
    store_game meta;  /* then: a copy, options and clock rules held */
} game_read;

/* Build what was asked for from v (the committed game, or the game as
 * delayed spectators may see it). */
static void build(game_read *r, const actor_view *v)
{
    r->version = v->version;
    r->max_order = engine_max_order_bytes(engine_game_ruleset(v->game));
    int audience = r->seat >= 0 ? r->seat : ENGINE_PUBLIC;
    switch (r->kind) {
    case READ_SEAT:
        break;
    case READ_GAME:
        r->out = gamedoc_resource(v, r->seat);
        break;
    case READ_VIEW:
        r->out = engine_view(v->game, audience);
        break;
    case READ_LEGAL:
        r->out = r->seat >= 0 ? engine_legal(v->game, r->seat)
                              : json_pack("{s[]}", "windows");
        break;
    case READ_LOG: {
        int more = 0;
        r->out = json_pack(
            "{so}", "entries",
            engine_log_page(v->game, audience, r->after, r->limit, &more));
        if (r->out && more)
            json_object_set_new(r->out, "more", json_true());
        break;
    }
    }
}

static void on_spectate(const actor_view *v, void *ctx)
{
    build(ctx, v);
}

/* Runs under the actor's lock. A spectator of a delayed game is answered
 * after it, from the game rebuilt at the version they may see. */
static void on_read(const actor_view *v, void *ctx)
{
    game_read *r = ctx;
    r->seat = gamedoc_seat_of(v->meta, r->player_id);
    r->version = v->version;
    r->running = strcmp(v->meta->status, "running") == 0;
    if (r->seat < 0 && r->kind != READ_SEAT && spectate_delayed(v->meta)) {
        r->delayed = 1;
        r->meta = *v->meta;
        json_incref(r->meta.options); /* store_game_clear drops both */
        json_incref(r->meta.clock_rules);
        return;
    }
    build(r, v);
}

/* Could id be a game id (store_new_id makes them)? Anything else is a 404
 * at once, without the store. A plausible id the store does not have costs
 * one lookup: the actors keep no entry for it and remember it for a while
 * (server/game/actor.h). */
static int id_plausible(const char *id)
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

/* Read game params[0] for the caller. Returns 0, or -1 with res filled. */
static int read_game(api_request *req, api_response *res, game_read *r)
{
    r->player_id = req->authenticated ? req->player_id : NULL;
    r->seat = -1;
    r->out = NULL;
    if (!id_plausible(req->params[0])) {
        api_problem(res, 404, "no such game", NULL);
        return -1;
    }
    if (!req->app->actors) {
        req_db_failed(res);
        return -1;
    }
    srv_kind st = actors_read(req->app->actors, req->params[0], on_read, r);
    if (st == SRV_OK && r->delayed) {
        st = spectate_read(req->app->db, &r->meta, r->version, on_spectate, r);
        store_game_clear(&r->meta);
    }
    if (st == SRV_NOT_FOUND) {
        api_problem(res, 404, "no such game", NULL);
        return -1;
    }
    if (st != SRV_OK) {
        api_problem(res, 503, "the game cannot be loaded now; retry shortly",
                    NULL);
        res->retry_after = 1;
        return -1;
    }
    if (r->kind != READ_SEAT && !r->out) {
        api_problem(res, 500, "out of memory", NULL);
        return -1;
    }
    return 0;
}

static void set_etag(api_response *res, uint64_t version)
{
    snprintf(res->etag, sizeof res->etag, "\"%" PRIu64 "\"", version);
}

void api_h_game_get(api_request *req, api_response *res)
{
    game_read r = {.kind = READ_GAME};
    if (read_game(req, res, &r))
        return;
    set_etag(res, r.version);
    api_json(res, 200, r.out);
}

/* GET .../replay?at=K: the caller's audience as it was at version K (a
 * replay step; server/game/replay_view.h). */
void api_h_game_replay(api_request *req, api_response *res)
{
    const char *at = req_query(req, "at");
    if (!at)
        at = "";
    char *end = NULL;
    unsigned long long k = strtoull(at, &end, 10);
    if (!*at || *end || at[0] == '-' || k > 1000000000ULL) {
        api_problem(res, 422, "at must be a version: a whole number", "at");
        return;
    }
    if (!id_plausible(req->params[0])) {
        api_problem(res, 404, "no such game", NULL);
        return;
    }
    json_t *out = NULL;
    srv_error e = {0};
    srv_kind st =
        replay_view_at(req->app->db, req->params[0],
                       req->authenticated ? req->player_id : NULL, k, &out, &e);
    if (st != SRV_OK) {
        api_problem_srv(res, &e);
        return;
    }
    api_json(res, 200, out);
}

void api_h_game_view(api_request *req, api_response *res)
{
    game_read r = {.kind = READ_VIEW};
    if (read_game(req, res, &r))
        return;
    set_etag(res, r.version);
    if (req_none_match(req, res->etag)) {
        json_decref(r.out);
        res->status = 304;
        res->not_modified = 1;
        return;
    }
    api_json(res, 200, r.out);
}

void api_h_game_legal(api_request *req, api_response *res)
{
    game_read r = {.kind = READ_LEGAL};
    if (read_game(req, res, &r))
        return;
    set_etag(res, r.version);
    api_json(res, 200, r.out);
}

/* Query argument name as a whole number in [0, max] into *out (left as is
 * when absent); 0, or -1 after a 422 naming it. */
static int query_count(api_request *req, api_response *res, const char *name,
                       unsigned long long max, const char *what,
                       unsigned long long *out)
{
    const char *text = req_query(req, name);
    if (!text || !*text)
        return 0;
    char *end;
    unsigned long long v = strtoull(text, &end, 10);
    if (*end || text[0] < '0' || text[0] > '9' || v > max) {
        api_problem(res, 422, what, name);
        return -1;
    }
    *out = v;
    return 0;
}

void api_h_game_log(api_request *req, api_response *res)
{
    game_read r = {.kind = READ_LOG};
    unsigned long long after = 0, limit = API_LOG_PAGE;
    if (query_count(req, res, "after", 1ull << 53,
                    "after must be a log position: a whole number, 0 or more",
                    &after) ||
        query_count(req, res, "limit", API_LOG_PAGE,
                    "limit must be a whole number from 1 to " API_LOG_PAGE_S,
                    &limit))
        return;
    if (limit == 0) {
        api_problem(res, 422,
                    "limit must be a whole number from 1 to " API_LOG_PAGE_S,
                    "limit");
        return;
    }
    r.after = (size_t)after;
    r.limit = (size_t)limit;
    if (read_game(req, res, &r))
        return;
    /* What happened to the game outside its inputs (server/game/clock_ops.h):
     * a seat sees them all (they are public to the game's players: which
     * seat a bot took over, and when); a spectator under a delay only those
     * at versions it may see (r.version) and at least the delay's seconds
     * old. */
    json_t *events;
    srv_error e = {0};
    char upto[24];
    snprintf(upto, sizeof upto, "%" PRIu64, r.version);
    clock_events_get(req->app->db, req->params[0], r.delayed ? upto : NULL,
                     r.delayed ? r.meta.delay_seconds : 0, &events, &e);
    json_object_set_new(r.out, "events", events ? events : json_array());
    api_json(res, 200, r.out);
}

/* ------------------------------------------------------------ inputs -- */

/* Map an actor's refusal to a problem. */
void api_reply_problem(api_response *res, const actor_reply *rp)
{
    srv_error e = {.kind = rp->kind};
    snprintf(e.detail, sizeof e.detail, "%s", rp->detail);
    snprintf(e.field, sizeof e.field, "%s", rp->field);
    api_problem_srv(res, &e);
}

int api_caller_seat(api_request *req, api_response *res, int *seat,
                    uint64_t *version, size_t *max_order)
{
    game_read r = {.kind = READ_SEAT};
    if (read_game(req, res, &r))
        return -1;
    if (max_order)
        *max_order = r.max_order;
    if (r.seat < 0) {
        api_problem(res, 403,
                    "you have no seat in this game; only its players can "
                    "act in it",
                    NULL);
        return -1;
    }
    *seat = r.seat;
    if (version)
        *version = r.version;
    return 0;
}

int api_window_param(api_request *req, api_response *res, char *out)
{
    const char *w = req->params[1];
    if (strlen(w) >= ENGINE_WINDOW_ID_MAX) {
        api_problem(res, 409, "that window is not open", "window");
        return -1;
    }
    memcpy(out, w, strlen(w) + 1); /* fits: checked above */
    return 0;
}

int api_order_fits(const api_request *req, api_response *res, size_t max_order)
{
    if (req->body_len <= max_order)
        return 0;
    char detail[160];
    snprintf(detail, sizeof detail,
             "the body is %zu bytes; this game's ruleset takes orders of at "
             "most %zu bytes, %zu KiB (max_order_bytes)",
             req->body_len, max_order, max_order / 1024);
    api_problem(res, 413, detail, NULL);
    return -1;
}

static void finish_order_put(api_request *req, api_response *res,
                             const actor_request *rq, actor_reply *rp,
                             const json_t *extra)
{
    (void)req;
    (void)extra;
    json_decref(rp->stored);
    json_decref(rp->parts);
    if (rp->kind != SRV_OK) {
        api_reply_problem(res, rp);
        return;
    }
    api_json(res, 200,
             json_pack("{ss si sI ss}", "window", rq->window, "seat", rq->seat,
                       "version", (json_int_t)rp->version, "receipt",
                       rp->has_receipt ? rp->receipt.hex : ""));
}

void api_h_game_order_put(api_request *req, api_response *res)
{
    json_t *order;
    if (body_object(req, res, 0, &order))
        return;
    actor_request rq = {.kind = ENGINE_ORDER, .payload = order, .if_match = -1};
    size_t max_order;
    if (api_window_param(req, res, rq.window) ||
        api_caller_seat(req, res, &rq.seat, NULL, &max_order) ||
        api_order_fits(req, res, max_order))
        goto out;
    api_submit(req, res, &rq, finish_order_put, NULL);
out:
    json_decref(order);
}

static void finish_order_delete(api_request *req, api_response *res,
                                const actor_request *rq, actor_reply *rp,
                                const json_t *extra)
{
    (void)req;
    (void)rq;
    (void)extra;
    json_decref(rp->stored);
    json_decref(rp->parts);
    if (rp->kind != SRV_OK) {
        api_reply_problem(res, rp);
        return;
    }
    api_json(res, 204, NULL);
}

void api_h_game_order_delete(api_request *req, api_response *res)
{
    actor_request rq = {.kind = ENGINE_SYSTEM, .if_match = -1};
    if (api_window_param(req, res, rq.window) ||
        api_caller_seat(req, res, &rq.seat, NULL, NULL))
        return;
    rq.payload = json_pack("{ss}", "action", "withdraw");
    api_submit(req, res, &rq, finish_order_delete, NULL);
    json_decref(rq.payload);
}

/* If-Match: "*" (any version) or one strong entity tag "N". Returns 0 and
 * *version (-1 for none or "*"), or -1 with a 412. */
static int parse_if_match(const char *h, int64_t *version)
{
    *version = -1;
    if (!h)
        return 0;
    while (*h == ' ')
        h++;
    if (strcmp(h, "*") == 0)
        return 0;
    if (h[0] != '"' || h[1] < '0' || h[1] > '9')
        return -1;
    char *end;
    unsigned long long v = strtoull(h + 1, &end, 10);
    if (*end != '"' || end[1] != '\0' || v > INT64_MAX)
        return -1;
    *version = (int64_t)v;
    return 0;
}

static void finish_play(api_request *req, api_response *res,
                        const actor_request *rq, actor_reply *rp,
                        const json_t *extra)
{
    (void)req;
    (void)rq;
    (void)extra;
    json_decref(rp->parts);
    if (rp->kind != SRV_OK) {
        json_decref(rp->stored);
        api_reply_problem(res, rp);
        if (rp->kind == SRV_PRECONDITION)
            set_etag(res, rp->version);
        return;
    }
    api_json(res, 200,
             rp->stored
                 ? rp->stored
                 : json_pack("{sI}", "version", (json_int_t)rp->version));
}

void api_h_game_play(api_request *req, api_response *res)
{
    json_t *body, *payload = NULL;
    static const body_field window_field[] = {{"window", BODY_STRING, 1},
                                              {NULL, BODY_ANY, 0}};
    if (body_object(req, res, 0, &body))
        return;
    actor_request rq = {.kind = ENGINE_PLAY, .if_match = -1};
    const json_t *w = json_object_get(body, "window");
    if (!json_is_string(w)) {
        /* Check only "window": the rest is the ruleset's to judge. */
        json_t *only = json_object();
        if (w)
            json_object_set(only, "window", (json_t *)w);
        body_check(only, window_field, NULL, res);
        json_decref(only);
        goto out;
    }
    if (strlen(json_string_value(w)) >= ENGINE_WINDOW_ID_MAX) {
        api_problem(res, 409, "that window is not open", "window");
        goto out;
    }
    snprintf(rq.window, sizeof rq.window, "%s", json_string_value(w));
    const char *key = req_header(req, "Idempotency-Key");
    if (key) {
        size_t n = strlen(key);
        int ok = n >= 1 && n <= IDEM_KEY_MAX && n < sizeof rq.idem_key;
        for (const char *c = key; ok && *c; c++)
            ok = *c >= 0x20 && *c <= 0x7e;
        if (!ok) {
            api_problem(res, 422,
                        "Idempotency-Key must be 1 to 128 printable ASCII "
                        "characters",
                        "Idempotency-Key");
            goto out;
        }
        snprintf(rq.idem_key, sizeof rq.idem_key, "%s", key);
    }
    engine_sha256(req->body ? req->body : "", req->body_len, rq.request_hash);
    uint64_t version;
    if (api_caller_seat(req, res, &rq.seat, &version, NULL))
        goto out;
    if (parse_if_match(req_header(req, "If-Match"), &rq.if_match) != 0) {
        api_problem(res, 412,
                    "If-Match must be \"<version>\" (with the quotes) or *; "
                    "the ETag header has the game's version",
                    NULL);
        set_etag(res, version);
        goto out;
    }
    payload = json_copy(body);
    json_object_del(payload, "window");
    rq.payload = payload;
    api_submit(req, res, &rq, finish_play, NULL);
out:
    json_decref(payload);
    json_decref(body);
}

/* ------------------------------------------------------------ export -- */

void api_h_game_export(api_request *req, api_response *res)
{
    json_t *doc;
    srv_error e = {0};
    unsigned long long after = 0, limit = API_EXPORT_PAGE;
    if (query_count(req, res, "after", 1ull << 53,
                    "after must be an input's seq: a whole number, 0 or more",
                    &after) ||
        query_count(req, res, "limit", API_EXPORT_PAGE,
                    "limit must be a whole number from 1 to " API_EXPORT_PAGE_S,
                    &limit))
        return;
    if (limit == 0) {
        api_problem(res, 422,
                    "limit must be a whole number from 1 to " API_EXPORT_PAGE_S,
                    "limit");
        return;
    }
    if (export_game_page(req->app->db, req->params[0],
                         req->authenticated ? req->player_id : NULL, after,
                         (size_t)limit, &doc, &e) != SRV_OK) {
        api_problem_srv(res, &e);
        return;
    }
    api_json(res, 200, doc);
}

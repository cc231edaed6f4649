/*
 * h_games.c - games: the game as the caller may see it, its view (with an
 * ETag), legal moves, sealed orders (give, replace, withdraw), public plays
 * (with Idempotency-Key and If-Match), the log, and the export of a game
 * that is over.
 *
 * Reads go through actors_read, so they see the committed state the actor
 * holds; inputs go through actors_submit, which validates with the engine,
 * appends to the store and answers with an HTTP status (mapped here to a
 * problem). The caller's seat is the one game_seats gives their player id;
 * everyone else (spectators, anonymous callers) sees the public view
 * (ENGINE_PUBLIC), never a seat's.
 *
 * The export is read from the store, not the actor: it is the stored
 * inputs that `conclave replay` must verify.
 */
#include "api/handlers.h"

#include "api/body.h"
#include "engine/engine.h"
#include "server/actor.h"
#include "server/store.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IDEM_KEY_MAX 128

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
    /* filled by the callback */
    int seat; /* the caller's seat, or -1 */
    uint64_t version;
    int running;
    json_t *out; /* NEW */
} game_read;

static int seat_of(const store_game *m, const char *player_id)
{
    for (int s = 0; player_id && s < m->seats; s++)
        if (m->seat_player[s][0] && strcmp(m->seat_player[s], player_id) == 0)
            return s;
    return -1;
}

static json_t *seat_list(uint32_t mask, int seats)
{
    json_t *a = json_array();
    for (int s = 0; s < seats; s++)
        if (mask >> s & 1)
            json_array_append_new(a, json_integer(s));
    return a;
}

static json_t *windows_json(const actor_view *v)
{
    const engine_game *g = v->game;
    int seats = engine_game_seats(g);
    engine_window buf[16], *w = buf;
    int n = engine_windows(g, buf, 16);
    if (n > 16) {
        w = malloc((size_t)n * sizeof *w);
        if (!w)
            return NULL;
        n = engine_windows(g, w, n);
    }
    json_t *list = json_array();
    for (int i = 0; i < n; i++) {
        const json_t *due =
            v->deadlines ? json_object_get(v->deadlines, w[i].id) : NULL;
        json_array_append_new(
            list,
            json_pack("{ss ss so so so}", "id", w[i].id, "mode",
                      w[i].mode == ENGINE_SEALED ? "sealed" : "open", "seats",
                      seat_list(w[i].seats, seats), "submitted",
                      seat_list(w[i].mode == ENGINE_SEALED ? w[i].submitted : 0,
                                seats),
                      "deadline",
                      json_is_string(due) ? json_deep_copy(due) : json_null()));
    }
    if (w != buf)
        free(w);
    return list;
}

static json_t *seats_json(const store_game *m)
{
    json_t *a = json_array();
    for (int s = 0; s < m->seats; s++) {
        json_t *player = m->seat_player[s][0]
                             ? json_pack("{ss ss}", "id", m->seat_player[s],
                                         "name", m->seat_name[s])
                             : json_null();
        json_t *bot =
            m->seat_bot[s][0] ? json_string(m->seat_bot[s]) : json_null();
        json_array_append_new(a, json_pack("{si so so}", "seat", s, "player",
                                           player, "bot", bot));
    }
    return a;
}

static json_t *game_json(const actor_view *v, int seat)
{
    const store_game *m = v->meta;
    int audience = seat >= 0 ? seat : ENGINE_PUBLIC;
    json_t *view = engine_view(v->game, audience);
    json_t *result = engine_result(v->game);
    json_t *o = json_pack(
        "{ss ss ss sI so so so so so ss}", "id", m->game_id, "ruleset",
        m->ruleset, "status", m->status, "version", (json_int_t)v->version,
        "you", seat >= 0 ? json_integer(seat) : json_null(), "seats",
        seats_json(m), "windows", windows_json(v), "view",
        view ? view : json_object(), "result", result ? result : json_null(),
        "seed_sha256", m->seed_sha256);
    if (o && strcmp(m->status, "running") != 0) {
        char hex[2 * ENGINE_SEED_BYTES + 1];
        engine_hex(m->seed, ENGINE_SEED_BYTES, hex);
        json_object_set_new(o, "seed", json_string(hex));
    }
    return o;
}

/* Runs under the actor's lock: build what was asked for. */
static void on_read(const actor_view *v, void *ctx)
{
    game_read *r = ctx;
    r->seat = seat_of(v->meta, r->player_id);
    r->version = v->version;
    r->running = strcmp(v->meta->status, "running") == 0;
    int audience = r->seat >= 0 ? r->seat : ENGINE_PUBLIC;
    switch (r->kind) {
    case READ_SEAT:
        break;
    case READ_GAME:
        r->out = game_json(v, r->seat);
        break;
    case READ_VIEW:
        r->out = engine_view(v->game, audience);
        break;
    case READ_LEGAL:
        r->out = r->seat >= 0 ? engine_legal(v->game, r->seat)
                              : json_pack("{s[]}", "windows");
        break;
    case READ_LOG:
        r->out = json_pack("{so}", "entries",
                           engine_log_since(v->game, audience, r->after));
        break;
    }
}

/* Could id be a game id (store_new_id makes them)? Anything else is a 404
 * at once, so made-up ids never reach the actors (each one looked up there
 * holds a map entry until eviction). */
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
    int st = actors_read(req->app->actors, req->params[0], on_read, r);
    if (st == 404) {
        api_problem(res, 404, "no such game", NULL);
        return -1;
    }
    if (st != 0) {
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

/* Does the If-None-Match list (entity tags, weak or strong, or "*") hold
 * etag? Weak comparison, as RFC 9110 prescribes for If-None-Match. */
static int none_match_hits(const char *list, const char *etag)
{
    size_t n = strlen(etag);
    const char *p = list;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        if (*p == '*')
            return 1;
        if (p[0] == 'W' && p[1] == '/')
            p += 2;
        if (strncmp(p, etag, n) == 0 &&
            (p[n] == '\0' || p[n] == ',' || p[n] == ' ' || p[n] == '\t'))
            return 1;
        while (*p && *p != ',')
            p++;
    }
    return 0;
}

void api_h_game_view(api_request *req, api_response *res)
{
    game_read r = {.kind = READ_VIEW};
    if (read_game(req, res, &r))
        return;
    set_etag(res, r.version);
    const char *inm = req_header(req, "If-None-Match");
    if (inm && none_match_hits(inm, res->etag)) {
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

void api_h_game_log(api_request *req, api_response *res)
{
    game_read r = {.kind = READ_LOG};
    const char *after = req_query(req, "after");
    if (after && *after) {
        char *end;
        unsigned long long v = strtoull(after, &end, 10);
        if (*end || after[0] < '0' || after[0] > '9' || v > (1ull << 53)) {
            api_problem(res, 422,
                        "after must be a log position: a whole number, 0 "
                        "or more",
                        "after");
            return;
        }
        r.after = (size_t)v;
    }
    if (read_game(req, res, &r))
        return;
    api_json(res, 200, r.out);
}

/* ------------------------------------------------------------ inputs -- */

/* Map an actor's refusal to a problem. */
static void reply_problem(api_response *res, const actor_reply *rp)
{
    int status = rp->status;
    if (status < 400 || status > 599)
        status = 500;
    api_problem(res, status, rp->detail[0] ? rp->detail : NULL,
                rp->field[0] ? rp->field : NULL);
    if (status == 503)
        res->retry_after = 1;
}

/* The caller's seat in game params[0]: 0 and *seat (and the game's version
 * into *version when not NULL), or -1 with res filled (404, 503, or 403 when
 * the caller has no seat). */
static int caller_seat(api_request *req, api_response *res, int *seat,
                       uint64_t *version)
{
    game_read r = {.kind = READ_SEAT};
    if (read_game(req, res, &r))
        return -1;
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

static int window_param(api_request *req, api_response *res, char *out)
{
    const char *w = req->params[1];
    if (strlen(w) >= ENGINE_WINDOW_ID_MAX) {
        api_problem(res, 409, "that window is not open", "window");
        return -1;
    }
    memcpy(out, w, strlen(w) + 1); /* fits: checked above */
    return 0;
}

void api_h_game_order_put(api_request *req, api_response *res)
{
    json_t *order;
    if (body_object(req, res, 0, &order))
        return;
    actor_request rq = {.kind = ENGINE_ORDER, .payload = order, .if_match = -1};
    actor_reply rp;
    if (window_param(req, res, rq.window) ||
        caller_seat(req, res, &rq.seat, NULL))
        goto out;
    actors_submit(req->app->actors, req->params[0], &rq, &rp);
    json_decref(rp.stored);
    if (rp.status != 200) {
        reply_problem(res, &rp);
        goto out;
    }
    api_json(res, 200,
             json_pack("{ss si sI ss}", "window", rq.window, "seat", rq.seat,
                       "version", (json_int_t)rp.version, "receipt",
                       rp.has_receipt ? rp.receipt.hex : ""));
out:
    json_decref(order);
}

void api_h_game_order_delete(api_request *req, api_response *res)
{
    actor_request rq = {.kind = ENGINE_SYSTEM, .if_match = -1};
    actor_reply rp;
    if (window_param(req, res, rq.window) ||
        caller_seat(req, res, &rq.seat, NULL))
        return;
    rq.payload = json_pack("{ss}", "action", "withdraw");
    actors_submit(req->app->actors, req->params[0], &rq, &rp);
    json_decref(rq.payload);
    json_decref(rp.stored);
    if (rp.status != 200) {
        reply_problem(res, &rp);
        return;
    }
    api_json(res, 204, NULL);
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

void api_h_game_play(api_request *req, api_response *res)
{
    json_t *body, *payload = NULL;
    static const body_field window_field[] = {{"window", BODY_STRING, 1},
                                              {NULL, BODY_ANY, 0}};
    if (body_object(req, res, 0, &body))
        return;
    actor_request rq = {.kind = ENGINE_PLAY, .if_match = -1};
    actor_reply rp;
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
    if (caller_seat(req, res, &rq.seat, &version))
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
    actors_submit(req->app->actors, req->params[0], &rq, &rp);
    if (rp.status != 200) {
        json_decref(rp.stored);
        reply_problem(res, &rp);
        if (rp.status == 412)
            set_etag(res, rp.version);
        goto out;
    }
    api_json(res, 200,
             rp.stored ? rp.stored
                       : json_pack("{sI}", "version", (json_int_t)rp.version));
out:
    json_decref(payload);
    json_decref(body);
}

/* ------------------------------------------------------------ export -- */

/* The stored input in the export form, with the receipt of an order. */
static json_t *input_json(const store_game *g, const store_input *s)
{
    engine_input in;
    memset(&in, 0, sizeof in);
    in.seat = s->seat;
    in.kind = s->kind;
    in.window = s->window[0] ? s->window : NULL;
    in.payload = s->payload;
    if (s->has_nonce)
        memcpy(in.nonce, s->nonce, ENGINE_NONCE_BYTES);
    json_t *j = engine_input_to_json(&in, s->seq);
    if (j && s->kind == ENGINE_ORDER && s->has_nonce && in.window &&
        s->payload) {
        engine_receipt r;
        engine_receipt_compute(g->game_id, in.window, s->seat, s->payload,
                               s->nonce, &r);
        json_object_set_new(j, "receipt", json_string(r.hex));
    }
    return j;
}

void api_h_game_export(api_request *req, api_response *res)
{
    PGconn *c = req_db(req, res);
    if (!c)
        return;
    store_game g;
    store_input *inputs = NULL;
    size_t n = 0;
    json_t *doc = NULL;
    int rc = store_load_game(c, req->params[0], &g);
    if (rc == STORE_ENOTFOUND) {
        api_problem(res, 404, "no such game", NULL);
        goto out_conn;
    }
    if (rc) {
        req_db_failed(res);
        goto out_conn;
    }
    if (strcmp(g.status, "running") == 0) {
        api_problem(res, 403,
                    "the game is still running; its export (with the seed) "
                    "is available once it is over",
                    NULL);
        goto out;
    }
    const char *p[] = {g.game_id};
    PGresult *r = db_exec(c, PGRES_TUPLES_OK,
                          "SELECT coalesce(final_hash, ''), "
                          "coalesce(result::text, 'null') FROM games WHERE "
                          "game_id = $1",
                          1, p);
    if (!r || PQntuples(r) != 1 ||
        store_load_inputs(c, g.game_id, 0, &inputs, &n) != STORE_OK) {
        PQclear(r);
        req_db_failed(res);
        goto out;
    }
    char seed[2 * ENGINE_SEED_BYTES + 1];
    engine_hex(g.seed, ENGINE_SEED_BYTES, seed);
    json_t *list = json_array();
    for (size_t i = 0; list && i < n; i++)
        json_array_append_new(list, input_json(&g, &inputs[i]));
    const char *final_hash = PQgetvalue(r, 0, 0);
    json_t *result = json_loads(PQgetvalue(r, 0, 1), JSON_DECODE_ANY, NULL);
    doc = json_pack("{ss ss ss sO so ss ss so so so}", "format",
                    "conclave-export/1", "game_id", g.game_id, "ruleset",
                    g.ruleset, "options", g.options, "seats", seats_json(&g),
                    "seed", seed, "seed_sha256", g.seed_sha256, "inputs", list,
                    "final_hash",
                    *final_hash ? json_string(final_hash) : json_null(),
                    "result", result ? result : json_null());
    PQclear(r);
    if (!doc) {
        api_problem(res, 500, "out of memory", NULL);
        goto out;
    }
    api_json(res, 200, doc);
out:
    store_inputs_free(inputs, n);
    store_game_clear(&g);
out_conn:
    req_db_release(req, c);
}

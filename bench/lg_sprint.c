/*
 * lg_sprint.c - `loadgen sprint`: concurrent 4-seat Galactic Sprint games
 * (ruleset `sprint`) played through the public API with sealed orders.
 *
 *   loadgen sprint --http H:P --ws H:P --games N [--duration S]
 *                  [--spread N] [--server-pid PID] [--pg-pid PID]
 *                  [--pg-db NAME] [--label TEXT] [--json FILE] [--verbose]
 *
 * Every game has four players, each with its own keep-alive HTTP
 * connection and WebSocket (authenticated, subscribed to the game). A game
 * is set up through the lobby (POST /lobbies with 4 seats, three POST
 * .../seats, /start). Whenever a player's WebSocket shows a sealed window
 * that waits on its seat, the player asks GET /games/{id}/legal, picks one
 * of the listed choices at random (a placement, paid with random cards of
 * its hand other than those placed; or the discards the window asks for)
 * and sends it with PUT /games/{id}/orders/{window}. The window locks when
 * its last seat has ordered and the reveal goes out on every seat's feed.
 *
 * Measured, for windows whose last order was sent in the measured window
 * (from the moment every game has started once, for the duration):
 *  - orders/s: orders answered 200;
 *  - order_http_ms: a PUT's round trip;
 *  - reveal_ms: from sending the window's last order (the latest send among
 *    its seats) to the moment a seat's WebSocket delivers a version without
 *    the window, one sample per seat and window (all four seats, whether or
 *    not they were in the window);
 *  - reveal_all_ms: the same to the last of the four seats, per window
 *    (every seat has the reveal). Both also for windows of all four seats
 *    only (`place` windows; `explore` and `limit` windows hold only some).
 * A finished game is followed by a new one. CPU of the server and its
 * PostgreSQL cluster is sampled at both ends of the measured window.
 */
#include "bench/lg_modes.h"
#include "bench/lg_net.h"
#include "bench/lg_patch.h"
#include "bench/lg_stat.h"

#include <arpa/inet.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SP_SEATS 4
#define SP_ID 64
#define SP_WIN 32
#define SP_TRACK 8 /* windows of one game tracked at once */

typedef struct sp_game sp_game;

typedef struct sp_player {
    sp_game *g;
    int seat, idx;
    char token[128];
    lg_http *http;
    lg_ws *ws;
    int ws_open, registered, have_snap;
    char sub[SP_ID];
    json_t *doc;          /* {"view","windows"} at version */
    int64_t version;      /* -1: no snapshot yet */
    char ordered[SP_WIN]; /* window of our last order (or of the ask) */
    int busy;             /* a legal request or an order in flight */
    double retry_at;      /* after a refused order: ask again then */
    double t_sent;
} sp_player;

/* A sealed window of a game, from the first time a feed showed it until
 * every seat's feed has shown it gone. */
typedef struct sp_track {
    char id[SP_WIN];
    int used, nseats, sent, revealed; /* revealed: bit per seat */
    int64_t v_open;                   /* first version showing it */
    double t_last;                    /* latest order send */
    double seen[SP_SEATS];
} sp_track;

enum { S_IDLE, S_LOBBY, S_SEAT, S_START, S_SUB, S_PLAY, S_RETRY };

struct sp_game {
    int idx, state, seats_taken, started_once, finishing;
    sp_player p[SP_SEATS];
    char lobby[SP_ID], id[SP_ID];
    double t_setup, retry_at;
    sp_track tr[SP_TRACK];
};

enum { PH_REGISTER, PH_SETUP, PH_RUN, PH_DRAIN };

static struct {
    lg_addr http, ws;
    int games, spread, verbose;
    double duration;
    pid_t server_pid, pg_pid;
    const char *pg_db, *label, *json_path;
    char run_id[16];
    sp_game *g;
    int phase, registered, ws_ready, stopping;
    double t_start, t_phase, t0, t_end, t_stop;
    long orders_win, orders_total, windows_win, windows4_win, games_win, setups;
    long err_order, err_legal, err_setup, err_ws, err_register, gaps, resubs,
        ws_lost;
    lg_samples order_http, reveal, reveal_all, reveal4, reveal4_all, setup_lat;
    double cpu_srv0, cpu_pg0, cpu_pgo0, cpu_self0;
    double cpu_srv1, cpu_pg1, cpu_pgo1, cpu_self1;
    long rss_idle;
} S;

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

static int in_window(double t)
{
    return S.t0 > 0 && t >= S.t0 && t < S.t_end;
}

static void complain(long *counter, const char *what, int status,
                     const char *body)
{
    (*counter)++;
    if (S.verbose || *counter <= 3)
        fprintf(stderr, "loadgen sprint: %s: %d %.300s\n", what, status, body);
}

static void auth(const sp_player *p, char *out, size_t n)
{
    snprintf(out, n, "Authorization: Bearer %s\r\n", p->token);
}

static void ws_text(sp_player *p, const char *type, const char *game,
                    int64_t version)
{
    char msg[192];
    int n = version >= 0
                ? snprintf(msg, sizeof msg,
                           "{\"type\":\"%s\",\"game\":\"%s\",\"version\":%ld}",
                           type, game, (long)version)
                : snprintf(msg, sizeof msg, "{\"type\":\"%s\",\"game\":\"%s\"}",
                           type, game);
    lg_ws_send(p->ws, msg, (size_t)n);
}

/* ------------------------------------------------------ the windows --- */

static json_t *doc_window(const sp_player *p, const char *id)
{
    size_t i;
    json_t *w;
    json_array_foreach(json_object_get(p->doc, "windows"), i, w)
    {
        const char *wid = json_string_value(json_object_get(w, "id"));
        if (wid && !strcmp(wid, id))
            return w;
    }
    return NULL;
}

static int has_seat(const json_t *list, int seat)
{
    size_t i;
    json_t *v;
    json_array_foreach(list, i, v)
    {
        if (json_integer_value(v) == seat)
            return 1;
    }
    return 0;
}

static sp_track *track_find(sp_game *g, const char *id, int create)
{
    sp_track *free_slot = NULL;
    for (int i = 0; i < SP_TRACK; i++) {
        if (g->tr[i].used && !strcmp(g->tr[i].id, id))
            return &g->tr[i];
        if (!g->tr[i].used && !free_slot)
            free_slot = &g->tr[i];
    }
    if (!create || !free_slot)
        return NULL;
    memset(free_slot, 0, sizeof *free_slot);
    free_slot->used = 1;
    snprintf(free_slot->id, sizeof free_slot->id, "%s", id);
    return free_slot;
}

/* Every sealed window this player's document shows gets a track. */
static void track_open(sp_player *p)
{
    size_t i;
    json_t *w;
    json_array_foreach(json_object_get(p->doc, "windows"), i, w)
    {
        const char *id = json_string_value(json_object_get(w, "id"));
        const char *mode = json_string_value(json_object_get(w, "mode"));
        if (!id || !mode || strcmp(mode, "sealed") != 0 || strlen(id) >= SP_WIN)
            continue;
        sp_track *t = track_find(p->g, id, 0);
        if (!t && (t = track_find(p->g, id, 1)) != NULL) {
            t->v_open = p->version;
            t->nseats = (int)json_array_size(json_object_get(w, "seats"));
        }
    }
}

/* Windows every seat has ordered in and this player's document, past the
 * version that opened them, no longer shows: revealed to this seat. */
static void track_reveal(sp_player *p, double now)
{
    sp_game *g = p->g;
    for (int i = 0; i < SP_TRACK; i++) {
        sp_track *t = &g->tr[i];
        if (!t->used || (t->revealed & (1 << p->seat)) ||
            p->version <= t->v_open || doc_window(p, t->id))
            continue;
        t->revealed |= 1 << p->seat;
        t->seen[p->seat] = now;
        if (t->revealed != (1 << SP_SEATS) - 1)
            continue;
        if (t->sent >= t->nseats && in_window(t->t_last)) {
            double worst = 0;
            for (int s = 0; s < SP_SEATS; s++) {
                double ms = (t->seen[s] - t->t_last) * 1e3;
                lg_sample(&S.reveal, ms);
                if (t->nseats == SP_SEATS)
                    lg_sample(&S.reveal4, ms);
                worst = ms > worst ? ms : worst;
            }
            lg_sample(&S.reveal_all, worst);
            S.windows_win++;
            if (t->nseats == SP_SEATS) {
                lg_sample(&S.reveal4_all, worst);
                S.windows4_win++;
            }
        }
        t->used = 0;
    }
}

/* ----------------------------------------------------------- orders --- */

static int json_int_in(const json_t *arr, json_int_t v)
{
    size_t i;
    json_t *x;
    json_array_foreach(arr, i, x)
    {
        if (json_integer_value(x) == v)
            return 1;
    }
    return 0;
}

/* n distinct random members of ids (an array of integers) not in skip. */
static json_t *pick_cards(const json_t *ids, const json_t *skip, size_t n)
{
    json_t *pool = json_array(), *out = json_array();
    size_t i;
    json_t *v;
    json_array_foreach(ids, i, v)
    {
        if (!json_int_in(skip, json_integer_value(v)))
            json_array_append(pool, v);
    }
    while (json_array_size(out) < n && json_array_size(pool) > 0) {
        size_t k = rnd() % json_array_size(pool);
        json_array_append(out, json_array_get(pool, k));
        json_array_remove(pool, k);
    }
    json_decref(pool);
    return out;
}

/* The order for one `legal` entry: a random choice, paid from the hand. */
static json_t *make_order(const sp_player *p, const json_t *entry)
{
    json_t *choices = json_object_get(entry, "choices");
    size_t n = json_array_size(choices);
    if (!n)
        return NULL;
    json_t *c = json_array_get(choices, rnd() % n);
    json_t *count = json_object_get(c, "discard_count");
    if (count) { /* explore or hand limit: discard from the listed cards */
        json_t *items = json_object_get(
            json_object_get(
                json_object_get(json_object_get(json_object_get(entry, "shape"),
                                                "properties"),
                                "discard"),
                "items"),
            "enum");
        json_t *none = json_array();
        json_t *d = pick_cards(items, none, (size_t)json_integer_value(count));
        json_decref(none);
        return json_pack("{so}", "discard", d);
    }
    json_t *order = json_deep_copy(c);
    json_int_t cost = json_integer_value(json_object_get(c, "cost"));
    json_object_del(order, "cost");
    if (cost > 0) {
        json_t *hand = json_object_get(json_object_get(p->doc, "view"), "hand");
        json_t *ids = json_array(), *placed = json_array();
        size_t i;
        json_t *card;
        json_array_foreach(hand, i, card)
        {
            json_array_append(ids, json_object_get(card, "id"));
        }
        const char *keys[] = {"development", "world", "convoy_world"};
        for (size_t k = 0; k < 3; k++)
            if (json_object_get(c, keys[k]))
                json_array_append(placed, json_object_get(c, keys[k]));
        json_object_set_new(order, "pay",
                            pick_cards(ids, placed, (size_t)cost));
        json_decref(ids);
        json_decref(placed);
    }
    return order;
}

static void on_update(sp_player *p);

static void on_order(void *ctx, int status, const char *body, size_t len)
{
    (void)len;
    sp_player *p = ctx;
    double now = lg_now();
    p->busy = 0;
    if (status == 200) {
        S.orders_total++;
        if (in_window(p->t_sent) && now < S.t_end) {
            S.orders_win++;
            lg_sample(&S.order_http, (now - p->t_sent) * 1e3);
        }
    } else {
        complain(&S.err_order, "PUT /games/{id}/orders/{window}", status, body);
        sp_track *t = track_find(p->g, p->ordered, 0);
        if (t && t->sent > 0)
            t->sent--; /* this order does not count; it is sent again */
        p->ordered[0] = '\0';
        p->retry_at = now + 0.2;
    }
    /* The feed may have shown the next window (or the end) while this
     * answer was on its way: look again now that the player is free. */
    if (p->g->state == S_PLAY && p->doc)
        on_update(p);
}

static void on_legal(void *ctx, int status, const char *body, size_t len)
{
    sp_player *p = ctx;
    sp_game *g = p->g;
    p->busy = 0;
    json_t *j = status == 200 ? json_loadb(body, len, 0, NULL) : NULL;
    json_t *entry = NULL, *w;
    size_t i;
    json_array_foreach(json_object_get(j, "windows"), i, w)
    {
        const char *id = json_string_value(json_object_get(w, "window"));
        if (id && !strcmp(id, p->ordered))
            entry = w;
    }
    json_t *order = entry ? make_order(p, entry) : NULL;
    if (!order) {
        complain(&S.err_legal, "GET /games/{id}/legal", status, body);
        p->ordered[0] = '\0';
        p->retry_at = lg_now() + 0.2;
        json_decref(j);
        return;
    }
    char path[160], hdr[256], *text = json_dumps(order, JSON_COMPACT);
    snprintf(path, sizeof path, "/api/v1/games/%s/orders/%s", g->id,
             p->ordered);
    auth(p, hdr, sizeof hdr);
    double now = lg_now();
    p->busy = 1;
    p->t_sent = now;
    sp_track *t = track_find(g, p->ordered, 0);
    if (t) {
        t->sent++;
        if (now > t->t_last)
            t->t_last = now;
    }
    lg_http_request(p->http, "PUT", path, hdr, text, on_order, p);
    free(text);
    json_decref(order);
    json_decref(j);
}

/* Ask for the legal orders of a sealed window waiting on this seat. */
static void maybe_order(sp_player *p)
{
    sp_game *g = p->g;
    if (g->state != S_PLAY || S.stopping || p->busy || !p->doc ||
        lg_now() < p->retry_at)
        return;
    size_t i;
    json_t *w;
    json_array_foreach(json_object_get(p->doc, "windows"), i, w)
    {
        const char *id = json_string_value(json_object_get(w, "id"));
        const char *mode = json_string_value(json_object_get(w, "mode"));
        if (!id || !mode || strcmp(mode, "sealed") != 0 ||
            strlen(id) >= SP_WIN || !strcmp(id, p->ordered) ||
            !has_seat(json_object_get(w, "seats"), p->seat) ||
            has_seat(json_object_get(w, "submitted"), p->seat))
            continue;
        char path[128], hdr[256];
        snprintf(path, sizeof path, "/api/v1/games/%s/legal", g->id);
        snprintf(p->ordered, sizeof p->ordered, "%s", id);
        auth(p, hdr, sizeof hdr);
        p->busy = 1;
        lg_http_request(p->http, "GET", path, hdr, NULL, on_legal, p);
        return;
    }
}

/* ----------------------------------------------------------- set-up --- */

static void setup_start(sp_game *g);

static void setup_failed(sp_game *g, const char *what, int status,
                         const char *body)
{
    complain(&S.err_setup, what, status, body);
    g->state = S_RETRY;
    g->retry_at = lg_now() + 0.5;
}

static void subscribe(sp_player *p)
{
    if (p->sub[0] && strcmp(p->sub, p->g->id) != 0)
        ws_text(p, "unsubscribe", p->sub, -1);
    snprintf(p->sub, sizeof p->sub, "%s", p->g->id);
    json_decref(p->doc);
    p->doc = NULL;
    p->version = -1;
    p->have_snap = 0;
    p->ordered[0] = '\0';
    p->retry_at = 0;
    ws_text(p, "subscribe", p->sub, -1);
}

static void on_start(void *ctx, int status, const char *body, size_t len)
{
    sp_game *g = ctx;
    json_t *j = status == 201 ? json_loadb(body, len, 0, NULL) : NULL;
    const char *id = json_string_value(json_object_get(j, "game"));
    if (!id || strlen(id) >= SP_ID) {
        json_decref(j);
        setup_failed(g, "POST /lobbies/{id}/start", status, body);
        return;
    }
    snprintf(g->id, sizeof g->id, "%s", id);
    json_decref(j);
    memset(g->tr, 0, sizeof g->tr);
    g->state = S_SUB;
    g->finishing = 0;
    for (int s = 0; s < SP_SEATS; s++)
        subscribe(&g->p[s]);
}

static void on_seat(void *ctx, int status, const char *body, size_t len)
{
    (void)len;
    sp_game *g = ctx;
    char path[128], hdr[256];
    if (status != 200) {
        setup_failed(g, "POST /lobbies/{id}/seats", status, body);
        return;
    }
    if (++g->seats_taken < SP_SEATS) {
        sp_player *p = &g->p[g->seats_taken];
        snprintf(path, sizeof path, "/api/v1/lobbies/%s/seats", g->lobby);
        auth(p, hdr, sizeof hdr);
        lg_http_request(p->http, "POST", path, hdr, "{}", on_seat, g);
        return;
    }
    snprintf(path, sizeof path, "/api/v1/lobbies/%s/start", g->lobby);
    auth(&g->p[0], hdr, sizeof hdr);
    g->state = S_START;
    lg_http_request(g->p[0].http, "POST", path, hdr, NULL, on_start, g);
}

static void on_lobby(void *ctx, int status, const char *body, size_t len)
{
    sp_game *g = ctx;
    json_t *j = status == 201 ? json_loadb(body, len, 0, NULL) : NULL;
    const char *id = json_string_value(json_object_get(j, "id"));
    if (!id || strlen(id) >= SP_ID) {
        json_decref(j);
        setup_failed(g, "POST /lobbies", status, body);
        return;
    }
    snprintf(g->lobby, sizeof g->lobby, "%s", id);
    json_decref(j);
    g->state = S_SEAT;
    g->seats_taken = 0;
    on_seat(g, 200, "", 0); /* seat 0 is the host's: take seat 1 */
}

static void setup_start(sp_game *g)
{
    char hdr[256];
    auth(&g->p[0], hdr, sizeof hdr);
    g->state = S_LOBBY;
    g->t_setup = lg_now();
    lg_http_request(g->p[0].http, "POST", "/api/v1/lobbies", hdr,
                    "{\"ruleset\":\"sprint\",\"seats\":4}", on_lobby, g);
}

/* ------------------------------------------------------------ feeds --- */

static int game_over(const sp_player *p)
{
    return p->doc && json_array_size(json_object_get(p->doc, "windows")) == 0;
}

static void on_update(sp_player *p)
{
    sp_game *g = p->g;
    double now = lg_now();
    track_open(p);
    track_reveal(p, now);
    if (g->state == S_SUB) {
        for (int s = 0; s < SP_SEATS; s++)
            if (!g->p[s].have_snap)
                return;
        g->state = S_PLAY;
        g->started_once = 1;
        S.setups++;
        if (in_window(g->t_setup))
            lg_sample(&S.setup_lat, (now - g->t_setup) * 1e3);
        for (int s = 0; s < SP_SEATS; s++)
            maybe_order(&g->p[s]);
        return;
    }
    if (g->state != S_PLAY)
        return;
    int over = 0;
    for (int s = 0; s < SP_SEATS; s++)
        over += game_over(&g->p[s]) && !g->p[s].busy;
    if (over == SP_SEATS) {
        if (in_window(now))
            S.games_win++;
        g->state = S_IDLE;
        if (!S.stopping)
            setup_start(g);
        return;
    }
    maybe_order(p);
}

static void ws_open_cb(void *ctx)
{
    sp_player *p = ctx;
    char msg[192];
    p->ws_open = 1;
    S.ws_ready++;
    int n = snprintf(msg, sizeof msg, "{\"type\":\"auth\",\"token\":\"%s\"}",
                     p->token);
    lg_ws_send(p->ws, msg, (size_t)n);
}

static void ws_closed_cb(void *ctx, const char *why)
{
    sp_player *p = ctx;
    S.ws_lost++;
    if (p->ws_open)
        S.ws_ready--;
    p->ws_open = 0;
    if (S.verbose || S.ws_lost <= 3)
        fprintf(stderr, "loadgen sprint: player %d WebSocket: %s\n", p->idx,
                why);
}

static void ws_message_cb(void *ctx, char *text, size_t len)
{
    sp_player *p = ctx;
    json_t *m = json_loadb(text, len, 0, NULL);
    const char *type = json_string_value(json_object_get(m, "type"));
    const char *gid = json_string_value(json_object_get(m, "game"));
    if (!type) {
        complain(&S.err_ws, "WebSocket message", 0, text);
    } else if (!strcmp(type, "error")) {
        if (!gid || !strcmp(gid, p->sub))
            complain(&S.err_ws, "WebSocket error",
                     (int)json_integer_value(json_object_get(m, "status")),
                     text);
    } else if (!gid || strcmp(gid, p->sub) != 0) {
        /* about the previous game, still in flight */
    } else if (!strcmp(type, "snapshot")) {
        json_decref(p->doc);
        p->doc = json_pack("{sOsO}", "view", json_object_get(m, "view"),
                           "windows", json_object_get(m, "windows"));
        p->version = json_integer_value(json_object_get(m, "version"));
        p->have_snap = 1;
        on_update(p);
    } else if (!strcmp(type, "patch")) {
        int64_t from = json_integer_value(json_object_get(m, "from"));
        int64_t to = json_integer_value(json_object_get(m, "to"));
        if (!p->doc || from != p->version) {
            S.gaps++;
            S.resubs++;
            if (p->doc)
                ws_text(p, "subscribe", p->sub, p->version);
        } else if (lg_patch_apply(&p->doc, json_object_get(m, "ops")) != 0) {
            complain(&S.err_ws, "patch does not apply", 0, text);
            S.resubs++;
            ws_text(p, "subscribe", p->sub, -1);
        } else {
            p->version = to;
            on_update(p);
        }
    }
    json_decref(m);
}

static const lg_ws_handlers sp_ws = {ws_open_cb, ws_message_cb, ws_closed_cb};

static void on_registered(void *ctx, int status, const char *body, size_t len)
{
    sp_player *p = ctx;
    json_t *j = status == 201 ? json_loadb(body, len, 0, NULL) : NULL;
    const char *token = json_string_value(json_object_get(j, "token"));
    if (!token || strlen(token) >= sizeof p->token) {
        complain(&S.err_register, "POST /players", status, body);
        json_decref(j);
        return;
    }
    snprintf(p->token, sizeof p->token, "%s", token);
    json_decref(j);
    p->registered = 1;
    S.registered++;
    p->ws = lg_ws_new(&S.ws, p->idx, "/ws", "conclave.v1", &sp_ws, p);
}

/* ------------------------------------------------------------ clock --- */

static void sample_cpu(double *srv, double *pg, double *pgo, double *self)
{
    *srv = S.server_pid ? lg_proc_cpu(S.server_pid) : 0;
    *pg = S.pg_pid ? lg_cluster_cpu(S.pg_pid, S.pg_db, pgo) : 0;
    if (!S.pg_pid)
        *pgo = 0;
    *self = lg_self_cpu();
}

static int all_started(void)
{
    for (int i = 0; i < S.games; i++)
        if (!S.g[i].started_once)
            return 0;
    return 1;
}

static int tick(void *ctx, double now)
{
    (void)ctx;
    int players = SP_SEATS * S.games;
    switch (S.phase) {
    case PH_REGISTER:
        if (S.registered + S.err_register >= players &&
            S.ws_ready + S.ws_lost >= S.registered) {
            if (S.ws_ready < players) {
                fprintf(stderr,
                        "loadgen sprint: only %d of %d players registered "
                        "and connected\n",
                        S.ws_ready, players);
                return 1;
            }
            S.phase = PH_SETUP;
            S.t_phase = now;
            for (int i = 0; i < S.games; i++)
                setup_start(&S.g[i]);
        } else if (now - S.t_start > 60) {
            fprintf(stderr, "loadgen sprint: registration timed out\n");
            return 1;
        }
        break;
    case PH_SETUP:
        if (all_started() || now - S.t_phase > 120) {
            S.phase = PH_RUN;
            S.t0 = now;
            S.t_end = now + S.duration;
            sample_cpu(&S.cpu_srv0, &S.cpu_pg0, &S.cpu_pgo0, &S.cpu_self0);
        }
        break;
    case PH_RUN:
        if (now >= S.t_end) {
            sample_cpu(&S.cpu_srv1, &S.cpu_pg1, &S.cpu_pgo1, &S.cpu_self1);
            S.stopping = 1;
            S.t_stop = now;
            S.phase = PH_DRAIN;
            break;
        }
        break;
    case PH_DRAIN: {
        int busy = 0;
        for (int i = 0; i < S.games && !busy; i++)
            for (int s = 0; s < SP_SEATS; s++)
                busy |= lg_http_busy(S.g[i].p[s].http);
        /* wait for reveals of windows whose last order was in time */
        if ((!busy && now - S.t_stop > 1) || now - S.t_stop > 10)
            return 1;
        break;
    }
    }
    if (S.phase >= PH_SETUP) {
        for (int i = 0; i < S.games; i++) {
            sp_game *g = &S.g[i];
            if (g->state == S_RETRY && now >= g->retry_at && !S.stopping)
                setup_start(g);
            for (int s = 0; s < SP_SEATS && g->state == S_PLAY; s++)
                if (g->p[s].retry_at > 0 && now >= g->p[s].retry_at)
                    maybe_order(&g->p[s]);
        }
    }
    if (S.phase < PH_RUN && now - S.t_start > 300) {
        fprintf(stderr, "loadgen sprint: setting up took more than 300 s\n");
        return 1;
    }
    return 0;
}

/* ----------------------------------------------------------- report --- */

static double per_order_us(double cpu_s, long n)
{
    return n > 0 ? round(cpu_s / (double)n * 1e7) / 10.0 : 0;
}

static json_t *report(void)
{
    double secs = S.t_end - S.t0;
    double srv = S.cpu_srv1 - S.cpu_srv0, pg = S.cpu_pg1 - S.cpu_pg0,
           pgo = S.cpu_pgo1 - S.cpu_pgo0, self = S.cpu_self1 - S.cpu_self0;
    long hwm = S.server_pid ? lg_proc_kb(S.server_pid, "VmHWM") : -1;
    long rss_end = S.server_pid ? lg_proc_kb(S.server_pid, "VmRSS") : -1;
    json_t *o = json_object();
    json_object_set_new(o, "target", json_string("conclave"));
    json_object_set_new(o, "mode", json_string("sprint"));
    if (S.label)
        json_object_set_new(o, "label", json_string(S.label));
    json_object_set_new(o, "games", json_integer(S.games));
    json_object_set_new(o, "seats", json_integer(SP_SEATS));
    json_object_set_new(o, "seconds", json_real(round(secs * 1000) / 1000));
    json_object_set_new(o, "orders", json_integer(S.orders_win));
    json_object_set_new(
        o, "orders_per_s",
        json_real(secs > 0 ? round(S.orders_win / secs * 10) / 10 : 0));
    json_object_set_new(o, "windows_revealed", json_integer(S.windows_win));
    json_object_set_new(o, "windows_revealed_4_seats",
                        json_integer(S.windows4_win));
    json_object_set_new(o, "games_finished", json_integer(S.games_win));
    json_object_set_new(o, "order_http_ms", lg_samples_json(&S.order_http));
    json_object_set_new(o, "reveal_ms", lg_samples_json(&S.reveal));
    json_object_set_new(o, "reveal_all_seats_ms",
                        lg_samples_json(&S.reveal_all));
    json_object_set_new(o, "reveal_ms_4_seat_windows",
                        lg_samples_json(&S.reveal4));
    json_object_set_new(o, "reveal_all_seats_ms_4_seat_windows",
                        lg_samples_json(&S.reveal4_all));
    json_object_set_new(o, "setup_ms", lg_samples_json(&S.setup_lat));
    json_object_set_new(
        o, "errors",
        json_pack("{sI sI sI sI sI sI sI sI sI}", "order",
                  (json_int_t)S.err_order, "legal", (json_int_t)S.err_legal,
                  "setup", (json_int_t)S.err_setup, "register",
                  (json_int_t)S.err_register, "ws", (json_int_t)S.err_ws,
                  "ws_lost", (json_int_t)S.ws_lost, "http_transport",
                  (json_int_t)lg_stats.http_transport_errors, "gaps",
                  (json_int_t)S.gaps, "resubscribes", (json_int_t)S.resubs));
    json_object_set_new(
        o, "cpu_s",
        json_pack("{sf sf sf sf}", "server", round(srv * 100) / 100, "postgres",
                  round(pg * 100) / 100, "postgres_this_db",
                  round(pgo * 100) / 100, "loadgen", round(self * 100) / 100));
    json_object_set_new(
        o, "cpu_per_order_us",
        json_pack("{sf sf sf}", "server", per_order_us(srv, S.orders_win),
                  "server_postgres", per_order_us(srv + pg, S.orders_win),
                  "loadgen", per_order_us(self, S.orders_win)));
    json_object_set_new(o, "rss_kb",
                        json_pack("{sI sI sI}", "idle", (json_int_t)S.rss_idle,
                                  "end", (json_int_t)rss_end, "hwm",
                                  (json_int_t)hwm));
    fprintf(
        stderr,
        "conclave sprint: %d games x %d seats, %.1f s: %ld orders "
        "(%.0f/s), %ld windows revealed (%ld of 4 seats), %ld games; "
        "order p50 %.1f ms p99 %.1f ms; reveal to every seat p50 %.1f "
        "ms p95 %.1f ms p99 %.1f ms; server CPU %.2f s (%.0f us/order); "
        "errors %ld\n",
        S.games, SP_SEATS, secs, S.orders_win,
        secs > 0 ? S.orders_win / secs : 0, S.windows_win, S.windows4_win,
        S.games_win, lg_pct(&S.order_http, 0.5), lg_pct(&S.order_http, 0.99),
        lg_pct(&S.reveal_all, 0.5), lg_pct(&S.reveal_all, 0.95),
        lg_pct(&S.reveal_all, 0.99), srv, per_order_us(srv, S.orders_win),
        S.err_order + S.err_legal + S.err_setup + S.err_ws + S.err_register);
    return o;
}

/* ------------------------------------------------------------- main --- */

static int usage(void)
{
    fprintf(stderr,
            "usage: loadgen sprint --http HOST:PORT --ws HOST:PORT --games N "
            "[--duration S] [--spread N] [--server-pid PID] [--pg-pid PID] "
            "[--pg-db NAME] [--label TEXT] [--json FILE] [--verbose]\n");
    return 2;
}

static int parse(int argc, char **argv)
{
    const char *http = NULL, *ws = NULL;
    S.games = 10;
    S.duration = 20;
    S.spread = 1;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--verbose")) {
            S.verbose = 1;
            continue;
        }
        if (!v)
            return -1;
        i++;
        if (!strcmp(a, "--http"))
            http = v;
        else if (!strcmp(a, "--ws"))
            ws = v;
        else if (!strcmp(a, "--games"))
            S.games = atoi(v);
        else if (!strcmp(a, "--duration"))
            S.duration = atof(v);
        else if (!strcmp(a, "--spread"))
            S.spread = atoi(v);
        else if (!strcmp(a, "--server-pid"))
            S.server_pid = atoi(v);
        else if (!strcmp(a, "--pg-pid"))
            S.pg_pid = atoi(v);
        else if (!strcmp(a, "--pg-db"))
            S.pg_db = v;
        else if (!strcmp(a, "--label"))
            S.label = v;
        else if (!strcmp(a, "--json"))
            S.json_path = v;
        else
            return -1;
    }
    if (!http || !ws || S.games < 1 || S.duration <= 0 || S.spread < 1 ||
        S.spread > 250 || lg_addr_parse(http, &S.http) ||
        lg_addr_parse(ws, &S.ws))
        return -1;
    if (S.spread > 1) {
        S.http.src_first = S.ws.src_first = htonl(0x7f000001);
        S.http.src_count = S.ws.src_count = S.spread;
    }
    return 0;
}

int lg_sprint_main(int argc, char **argv)
{
    if (parse(argc, argv) != 0)
        return usage();
    if (lg_loop_init() != 0) {
        perror("epoll");
        return 1;
    }
    rng ^= (uint64_t)getpid() << 17 ^ (uint64_t)(lg_now() * 1e6);
    snprintf(S.run_id, sizeof S.run_id, "%06x", rnd() & 0xffffff);
    S.rss_idle = S.server_pid ? lg_proc_kb(S.server_pid, "VmRSS") : -1;
    S.t_start = lg_now();
    S.g = calloc((size_t)S.games, sizeof *S.g);
    for (int i = 0; i < S.games; i++) {
        sp_game *g = &S.g[i];
        g->idx = i;
        for (int s = 0; s < SP_SEATS; s++) {
            sp_player *p = &g->p[s];
            p->g = g;
            p->seat = s;
            p->idx = SP_SEATS * i + s;
            p->version = -1;
            p->http = lg_http_new(&S.http, p->idx);
            char body[96];
            snprintf(body, sizeof body, "{\"name\":\"ls%s_%d\"}", S.run_id,
                     p->idx);
            lg_http_request(p->http, "POST", "/api/v1/players", NULL, body,
                            on_registered, p);
        }
    }
    lg_run(tick, NULL, 5);
    if (S.t0 == 0) {
        fprintf(stderr, "loadgen sprint: the measured window never started\n");
        return 1;
    }
    json_t *o = report();
    char *text = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(10));
    printf("%s\n", text);
    if (S.json_path) {
        FILE *f = fopen(S.json_path, "w");
        if (f) {
            fprintf(f, "%s\n", text);
            fclose(f);
        }
    }
    free(text);
    json_decref(o);
    fflush(stdout);
    long errors = S.err_order + S.err_legal + S.err_setup + S.err_register;
    return errors > S.orders_win / 100 + 10 ? 3 : 0;
}

/*
 * loadgen.c - load generator for Conclave: concurrent tic-tac-toe games
 * played through the public API (REST plays, WebSocket views), with move
 * latency, setup latency, errors, and the CPU and memory of the server and
 * its PostgreSQL cluster. One thread, epoll, small clients of our own
 * (lg_net.c), so the generator costs little CPU next to the server.
 *
 *   loadgen play   --http H:P --ws H:P --games N [--duration S] [--moves M]
 *   loadgen fanout --http H:P --ws H:P --games G --spectators K
 *                  [--interval-ms T] [--duration S] [--connect-s C]
 *   loadgen sprint ...  (4-seat Galactic Sprint, sealed orders: lg_sprint.c)
 *   loadgen async ...   (steady inputs to stored async games: lg_async.c)
 * common: [--spread N] [--server-pid PID] [--pg-pid PID] [--pg-db NAME]
 *         [--label TEXT] [--json FILE] [--verbose]
 *
 * play: every game has two players, each with its own keep-alive HTTP
 * connection and WebSocket (authenticated, subscribed to the game). A game
 * is set up through the lobby (POST /lobbies, /seats, /start; both players
 * subscribe), and a player plays (POST /games/{id}/plays with an
 * Idempotency-Key) only once its own WebSocket has delivered the version in
 * which it is that player's turn; the window id and the board come from the
 * snapshot and patches (applied here, RFC 6902). A finished game is
 * followed by a new one until the duration (or move count) is reached.
 * Move latency: from sending the play to the moment the opponent's
 * WebSocket delivers a version that includes it (the next move waits on
 * exactly that). Measured window: from the moment every game has started
 * once to the end of the duration; CPU is sampled at both ends.
 *
 * fanout: the same games, with K spectator connections per game (no
 * token), each subscribed to its game and following it to the next one; a
 * move every T ms per game. Delivery latency from the play's HTTP 200 (the
 * commit as the client sees it) and from its send, to each spectator.
 * Resident memory: at start (idle), with the games set up, and with every
 * spectator subscribed; memory per connection from those.
 *
 * --spread N: connections come from 127.0.0.1 .. 127.0.0.N (round robin),
 * so the server's per-address limits see several clients, as in real use.
 * Output: a JSON object (stdout, and --json FILE) and one human line
 * (stderr).
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

#define ID_MAX 64
#define MAX_VERSIONS 32 /* versions of one tic-tac-toe game: 10 at most */

typedef struct game game;

typedef struct player {
    game *g;
    int seat, idx;
    char token[128];
    lg_http *http;
    lg_ws *ws;
    int ws_open, registered;
    char sub[ID_MAX]; /* the game subscribed to */
    json_t *doc;      /* {"view","windows"} at version */
    int64_t version;  /* -1: no snapshot yet */
    int64_t acted;    /* version our last play was sent at; -1 */
    int in_flight, saw_over, have_snap;
    double t_sent;
} player;

typedef struct spectator {
    game *g;
    lg_ws *ws;
    int idx, open, have_snap, ever_snap, connecting;
    char sub[ID_MAX];
    int64_t version;
} spectator;

enum { G_IDLE, G_LOBBY, G_SEAT, G_START, G_SUB, G_PLAY, G_RETRY };

struct game {
    int idx;
    player p[2];
    int state;
    char lobby[ID_MAX], id[ID_MAX];
    double t_setup, retry_at, next_move_at;
    int started_once;
    /* the move waiting to reach the opponent */
    int pend, pend_seat;
    int64_t pend_v0;
    double pend_t;
    int play_id[MAX_VERSIONS]; /* fanout: plays by resulting version */
    spectator *specs;
    int nspecs;
};

typedef struct play_rec {
    double t_send, t_commit; /* t_commit 0: no 200 */
} play_rec;

typedef struct delivery {
    int play;
    double t;
} delivery;

enum { PH_REGISTER, PH_SETUP, PH_SPECTATORS, PH_RUN, PH_DRAIN };

static struct {
    int fanout;
    lg_addr http, ws;
    int games, spectators, spread, verbose;
    double duration, interval;
    double connect_s; /* fanout: the longest the spectators may take to
                         connect and subscribe (--connect-s, 120) */
    long max_moves;
    pid_t server_pid, pg_pid;
    const char *pg_db, *label, *json_path;
    char run_id[16];
    game *g;
    int phase;
    int registered, ws_ready, specs_open, specs_failed, specs_snap;
    int spec_next; /* next spectator to connect */
    int stopping;
    double t_start, t_phase, t0, t_end, t_stop, t_specs0, t_specs1;
    /* counters: *_win within the measured window */
    long moves_win, moves_total, games_win, games_total, setups;
    long err_play, err_setup, err_ws, err_register, gaps, resubs,
        version_mismatch, ws_lost;
    lg_samples move_lat, play_http, setup_lat;
    double cpu_srv0, cpu_pg0, cpu_pgo0, cpu_self0;
    double cpu_srv1, cpu_pg1, cpu_pgo1, cpu_self1;
    long rss_idle, rss_games, rss_specs, hwm;
    /* fanout */
    play_rec *plays;
    int nplays, cap_plays;
    delivery *dels;
    size_t ndels, cap_dels;
    long spec_snapshots, spec_gaps;
} R;

static uint64_t rng = 88172645463325252ull;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

static int in_window(double t)
{
    return R.t0 > 0 && t >= R.t0 && t < R.t_end;
}

static void complain(long *counter, const char *what, int status,
                     const char *body)
{
    (*counter)++;
    if (R.verbose || *counter <= 3)
        fprintf(stderr, "loadgen: %s: %d %.200s\n", what, status, body);
}

/* ------------------------------------------------------------ helpers -- */

static void auth_headers(const player *p, char *out, size_t n,
                         const char *extra)
{
    snprintf(out, n, "Authorization: Bearer %s\r\n%s", p->token,
             extra ? extra : "");
}

static void ws_sendf(lg_ws *w, const char *fmt, const char *a, long v)
{
    char msg[256];
    int n = v >= 0 ? snprintf(msg, sizeof msg, fmt, a, v)
                   : snprintf(msg, sizeof msg, fmt, a);
    lg_ws_send(w, msg, (size_t)n);
}

static void subscribe(player *p, const char *game_id)
{
    if (p->sub[0] && strcmp(p->sub, game_id) != 0)
        ws_sendf(p->ws, "{\"type\":\"unsubscribe\",\"game\":\"%s\"}", p->sub,
                 -1);
    snprintf(p->sub, sizeof p->sub, "%s", game_id);
    json_decref(p->doc);
    p->doc = NULL;
    p->version = -1;
    p->acted = -1;
    p->saw_over = 0;
    p->have_snap = 0;
    ws_sendf(p->ws, "{\"type\":\"subscribe\",\"game\":\"%s\"}", game_id, -1);
}

static void resubscribe(player *p, int64_t version)
{
    R.resubs++;
    if (version >= 0)
        ws_sendf(p->ws,
                 "{\"type\":\"subscribe\",\"game\":\"%s\",\"version\":%ld}",
                 p->sub, (long)version);
    else
        ws_sendf(p->ws, "{\"type\":\"subscribe\",\"game\":\"%s\"}", p->sub, -1);
}

static void spectator_follow(spectator *s)
{
    if (!s->open || !s->g->id[0] || strcmp(s->sub, s->g->id) == 0)
        return;
    if (s->sub[0])
        ws_sendf(s->ws, "{\"type\":\"unsubscribe\",\"game\":\"%s\"}", s->sub,
                 -1);
    snprintf(s->sub, sizeof s->sub, "%s", s->g->id);
    s->have_snap = 0;
    s->version = -1;
    ws_sendf(s->ws, "{\"type\":\"subscribe\",\"game\":\"%s\"}", s->sub, -1);
}

/* ------------------------------------------------------- game set-up -- */

static void setup_start(game *g);

static void setup_failed(game *g, const char *what, int status,
                         const char *body)
{
    complain(&R.err_setup, what, status, body);
    g->state = G_RETRY;
    g->retry_at = lg_now() + 0.2;
}

static void on_start(void *ctx, int status, const char *body, size_t len)
{
    game *g = ctx;
    json_t *j = status == 201 ? json_loadb(body, len, 0, NULL) : NULL;
    const char *id = json_string_value(json_object_get(j, "game"));
    if (!id || strlen(id) >= ID_MAX) {
        json_decref(j);
        setup_failed(g, "POST /lobbies/{id}/start", status, body);
        return;
    }
    snprintf(g->id, sizeof g->id, "%s", id);
    json_decref(j);
    g->state = G_SUB;
    g->pend = 0;
    for (int i = 0; i < MAX_VERSIONS; i++)
        g->play_id[i] = -1;
    subscribe(&g->p[0], g->id);
    subscribe(&g->p[1], g->id);
    for (int i = 0; i < g->nspecs; i++)
        spectator_follow(&g->specs[i]);
}

static void on_seat(void *ctx, int status, const char *body, size_t len)
{
    (void)len;
    game *g = ctx;
    if (status != 200) {
        setup_failed(g, "POST /lobbies/{id}/seats", status, body);
        return;
    }
    char path[128], hdr[256];
    snprintf(path, sizeof path, "/api/v1/lobbies/%s/start", g->lobby);
    auth_headers(&g->p[0], hdr, sizeof hdr, NULL);
    g->state = G_START;
    lg_http_request(g->p[0].http, "POST", path, hdr, NULL, on_start, g);
}

static void on_lobby(void *ctx, int status, const char *body, size_t len)
{
    game *g = ctx;
    json_t *j = status == 201 ? json_loadb(body, len, 0, NULL) : NULL;
    const char *id = json_string_value(json_object_get(j, "id"));
    if (!id || strlen(id) >= ID_MAX) {
        json_decref(j);
        setup_failed(g, "POST /lobbies", status, body);
        return;
    }
    snprintf(g->lobby, sizeof g->lobby, "%s", id);
    json_decref(j);
    char path[128], hdr[256];
    snprintf(path, sizeof path, "/api/v1/lobbies/%s/seats", g->lobby);
    auth_headers(&g->p[1], hdr, sizeof hdr, NULL);
    g->state = G_SEAT;
    lg_http_request(g->p[1].http, "POST", path, hdr, "{}", on_seat, g);
}

static void setup_start(game *g)
{
    char hdr[256];
    auth_headers(&g->p[0], hdr, sizeof hdr, NULL);
    g->state = G_LOBBY;
    g->t_setup = lg_now();
    lg_http_request(g->p[0].http, "POST", "/api/v1/lobbies", hdr,
                    "{\"ruleset\":\"tictactoe\",\"seats\":2}", on_lobby, g);
}

/* ------------------------------------------------------------- plays --- */

static void game_finished(game *g)
{
    R.games_total++;
    if (in_window(lg_now()))
        R.games_win++;
    g->state = G_IDLE;
    if (!R.stopping)
        setup_start(g);
}

static void check_finished(game *g)
{
    if (g->state == G_PLAY && g->p[0].saw_over && g->p[1].saw_over &&
        !g->p[0].in_flight && !g->p[1].in_flight)
        game_finished(g);
}

static void on_play(void *ctx, int status, const char *body, size_t len)
{
    player *p = ctx;
    game *g = p->g;
    double now = lg_now();
    p->in_flight = 0;
    if (status == 200) {
        R.moves_total++;
        if (now < R.t_end || R.t_end == 0)
            R.moves_win += in_window(p->t_sent) ? 1 : 0;
        if (in_window(p->t_sent))
            lg_sample(&R.play_http, (now - p->t_sent) * 1e3);
        json_t *j = json_loadb(body, len, 0, NULL);
        json_int_t v = json_integer_value(json_object_get(j, "version"));
        json_decref(j);
        if (v != p->acted + 1)
            R.version_mismatch++;
        if (R.fanout && v >= 0 && v < MAX_VERSIONS && g->play_id[v] >= 0)
            R.plays[g->play_id[v]].t_commit = now;
    } else {
        complain(&R.err_play, "POST /games/{id}/plays", status, body);
        if (g->pend && g->pend_seat == p->seat)
            g->pend = 0;
        p->acted = -1;
        /* start again from fresh snapshots */
        if (g->state == G_PLAY) {
            resubscribe(&g->p[0], -1);
            resubscribe(&g->p[1], -1);
        }
    }
    check_finished(g);
}

static void maybe_play(player *p)
{
    game *g = p->g;
    if (g->state != G_PLAY || R.stopping || p->in_flight || !p->doc ||
        p->version <= p->acted || g->pend)
        return;
    double now = lg_now();
    if (R.fanout && now < g->next_move_at)
        return;
    json_t *view = json_object_get(p->doc, "view");
    if (json_is_true(json_object_get(view, "over")))
        return;
    json_t *turn = json_object_get(view, "turn");
    if (!json_is_integer(turn) || json_integer_value(turn) != p->seat)
        return;
    json_t *w0 = json_array_get(json_object_get(p->doc, "windows"), 0);
    const char *window = json_string_value(json_object_get(w0, "id"));
    json_t *board = json_object_get(view, "board");
    if (!window || !json_is_array(board))
        return;
    int free_cells[9], n = 0;
    for (int i = 0; i < 9; i++)
        if (json_is_null(json_array_get(board, (size_t)i)))
            free_cells[n++] = i;
    if (!n)
        return;
    int cell = free_cells[rnd() % (unsigned)n];
    char path[128], hdr[384], extra[160], body[160];
    snprintf(path, sizeof path, "/api/v1/games/%s/plays", g->id);
    snprintf(extra, sizeof extra, "Idempotency-Key: lg-%s-%ld-%d\r\n", g->id,
             (long)p->version, p->seat);
    auth_headers(p, hdr, sizeof hdr, extra);
    snprintf(body, sizeof body, "{\"window\":\"%s\",\"cell\":%d}", window,
             cell);
    p->in_flight = 1;
    p->acted = p->version;
    p->t_sent = now;
    g->pend = 1;
    g->pend_seat = p->seat;
    g->pend_v0 = p->version;
    g->pend_t = now;
    if (R.fanout && p->version + 1 < MAX_VERSIONS) {
        if (R.nplays == R.cap_plays) {
            R.cap_plays = R.cap_plays ? R.cap_plays * 2 : 4096;
            R.plays = realloc(R.plays, (size_t)R.cap_plays * sizeof *R.plays);
        }
        R.plays[R.nplays].t_send = now;
        R.plays[R.nplays].t_commit = 0;
        g->play_id[p->version + 1] = R.nplays++;
    }
    lg_http_request(p->http, "POST", path, hdr, body, on_play, p);
}

/* A player's view moved on (snapshot or patch). */
static void on_update(player *p)
{
    game *g = p->g;
    double now = lg_now();
    if (g->state == G_SUB && p->have_snap && g->p[0].have_snap &&
        g->p[1].have_snap) {
        g->state = G_PLAY;
        R.setups++;
        if (R.t0 > 0 && in_window(g->t_setup))
            lg_sample(&R.setup_lat, (now - g->t_setup) * 1e3);
        g->started_once = 1;
        g->next_move_at = now + R.interval;
        maybe_play(&g->p[0]);
        maybe_play(&g->p[1]);
        return;
    }
    if (g->pend && p->seat != g->pend_seat && p->version > g->pend_v0) {
        if (in_window(g->pend_t))
            lg_sample(&R.move_lat, (now - g->pend_t) * 1e3);
        g->pend = 0;
        g->next_move_at = now + R.interval;
    }
    json_t *view = json_object_get(p->doc, "view");
    if (json_is_true(json_object_get(view, "over")))
        p->saw_over = 1;
    check_finished(g);
    maybe_play(p);
}

/* ------------------------------------------------ player WebSockets --- */

static void player_ws_open(void *ctx)
{
    player *p = ctx;
    p->ws_open = 1;
    R.ws_ready++;
    ws_sendf(p->ws, "{\"type\":\"auth\",\"token\":\"%s\"}", p->token, -1);
}

static void player_ws_closed(void *ctx, const char *why)
{
    player *p = ctx;
    R.ws_lost++;
    if (p->ws_open)
        R.ws_ready--;
    p->ws_open = 0;
    if (R.verbose || R.ws_lost <= 3)
        fprintf(stderr, "loadgen: player %d WebSocket: %s\n", p->idx, why);
}

static void player_ws_message(void *ctx, char *text, size_t len)
{
    player *p = ctx;
    json_t *m = json_loadb(text, len, 0, NULL);
    const char *type = json_string_value(json_object_get(m, "type"));
    const char *gid = json_string_value(json_object_get(m, "game"));
    if (!type) {
        complain(&R.err_ws, "WebSocket message", 0, text);
    } else if (!strcmp(type, "error")) {
        /* errors about a game we left are stale, others count */
        if (!gid || !strcmp(gid, p->sub))
            complain(&R.err_ws, "WebSocket error",
                     (int)json_integer_value(json_object_get(m, "status")),
                     text);
    } else if (!gid || strcmp(gid, p->sub) != 0) {
        /* a message about the previous game, still in flight */
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
            R.gaps++;
            if (p->doc)
                resubscribe(p, p->version);
        } else if (lg_patch_apply(&p->doc, json_object_get(m, "ops")) != 0) {
            complain(&R.err_ws, "patch does not apply", 0, text);
            resubscribe(p, -1);
        } else {
            p->version = to;
            on_update(p);
        }
    }
    json_decref(m);
}

static const lg_ws_handlers player_ws = {player_ws_open, player_ws_message,
                                         player_ws_closed};

static void on_registered(void *ctx, int status, const char *body, size_t len)
{
    player *p = ctx;
    json_t *j = status == 201 ? json_loadb(body, len, 0, NULL) : NULL;
    const char *token = json_string_value(json_object_get(j, "token"));
    if (!token || strlen(token) >= sizeof p->token) {
        complain(&R.err_register, "POST /players", status, body);
        json_decref(j);
        return;
    }
    snprintf(p->token, sizeof p->token, "%s", token);
    json_decref(j);
    p->registered = 1;
    R.registered++;
    p->ws = lg_ws_new(&R.ws, p->idx, "/ws", "conclave.v1", &player_ws, p);
}

/* --------------------------------------------------------- spectators -- */

/* The value after "key": in a compact JSON text, within [text, end). */
static const char *find_key(const char *text, const char *end, const char *key)
{
    size_t kl = strlen(key);
    for (const char *s = text; s + kl + 3 < end; s++)
        if (s[0] == '"' && !memcmp(s + 1, key, kl) && s[kl + 1] == '"' &&
            s[kl + 2] == ':')
            return s + kl + 3;
    return NULL;
}

static void spec_message(void *ctx, char *text, size_t len)
{
    spectator *s = ctx;
    double now = lg_now();
    /* the members before "ops"/"view": type, game, version or from/to */
    const char *end = text + (len < 200 ? len : 200);
    const char *type = find_key(text, end, "type");
    const char *gid = find_key(text, end, "game");
    if (!type || !gid)
        return;
    size_t sl = strlen(s->sub);
    if (gid[0] != '"' || strncmp(gid + 1, s->sub, sl) != 0 ||
        gid[1 + sl] != '"')
        return; /* another (earlier) game */
    if (!strncmp(type, "\"snapshot\"", 10)) {
        const char *v = find_key(text, end, "version");
        s->version = v ? strtol(v, NULL, 10) : -1;
        s->have_snap = 1;
        if (!s->ever_snap) {
            s->ever_snap = 1;
            R.specs_snap++;
        }
        R.spec_snapshots++;
    } else if (!strncmp(type, "\"patch\"", 7)) {
        const char *f = find_key(text, end, "from");
        const char *t = find_key(text, end, "to");
        if (!f || !t)
            return;
        long from = strtol(f, NULL, 10), to = strtol(t, NULL, 10);
        if (from != s->version)
            R.spec_gaps++;
        for (long v = from + 1; v <= to && v < MAX_VERSIONS; v++) {
            int id = s->g->play_id[v];
            if (id < 0)
                continue;
            if (R.ndels == R.cap_dels) {
                R.cap_dels = R.cap_dels ? R.cap_dels * 2 : 65536;
                R.dels = realloc(R.dels, R.cap_dels * sizeof *R.dels);
            }
            R.dels[R.ndels].play = id;
            R.dels[R.ndels].t = now;
            R.ndels++;
        }
        s->version = to;
    } else if (!strncmp(type, "\"error\"", 7)) {
        complain(&R.err_ws, "spectator WebSocket error", 0, text);
    }
}

static void spec_open(void *ctx)
{
    spectator *s = ctx;
    s->open = 1;
    s->connecting = 0;
    R.specs_open++;
    spectator_follow(s);
}

static void spec_closed(void *ctx, const char *why)
{
    spectator *s = ctx;
    if (s->open)
        R.specs_open--;
    else
        R.specs_failed++;
    s->open = 0;
    s->connecting = 0;
    R.ws_lost++;
    if (R.verbose || R.ws_lost <= 3)
        fprintf(stderr, "loadgen: spectator %d: %s\n", s->idx, why);
}

static const lg_ws_handlers spec_ws = {spec_open, spec_message, spec_closed};

/* --------------------------------------------------------- the clock --- */

static void sample_cpu(double *srv, double *pg, double *pgo, double *self)
{
    *srv = R.server_pid ? lg_proc_cpu(R.server_pid) : 0;
    *pg = R.pg_pid ? lg_cluster_cpu(R.pg_pid, R.pg_db, pgo) : 0;
    if (!R.pg_pid)
        *pgo = 0;
    *self = lg_self_cpu();
}

static void open_window(double now)
{
    R.t0 = now;
    R.t_end = now + R.duration;
    sample_cpu(&R.cpu_srv0, &R.cpu_pg0, &R.cpu_pgo0, &R.cpu_self0);
}

static int all_started(void)
{
    for (int i = 0; i < R.games; i++)
        if (!R.g[i].started_once)
            return 0;
    return 1;
}

static int tick(void *ctx, double now)
{
    (void)ctx;
    int players = 2 * R.games;
    switch (R.phase) {
    case PH_REGISTER:
        if (R.registered + R.err_register >= players &&
            R.ws_ready + R.ws_lost >= R.registered) {
            if (R.registered < players || R.ws_ready < players) {
                fprintf(stderr,
                        "loadgen: only %d of %d players registered "
                        "and connected\n",
                        R.ws_ready, players);
                return 1;
            }
            R.phase = PH_SETUP;
            R.t_phase = now;
            for (int i = 0; i < R.games; i++)
                setup_start(&R.g[i]);
        } else if (now - R.t_start > 60) {
            fprintf(stderr, "loadgen: registration timed out\n");
            return 1;
        }
        break;
    case PH_SETUP:
        if (all_started() || now - R.t_phase > 60) {
            if (R.fanout) {
                usleep(200 * 1000); /* let the server settle, then measure */
                R.rss_games = lg_proc_kb(R.server_pid, "VmRSS");
                R.phase = PH_SPECTATORS;
                R.t_specs0 = lg_now();
                for (int i = 0; i < R.games; i++)
                    R.g[i].next_move_at = 1e300; /* hold the moves */
            } else {
                R.phase = PH_RUN;
                open_window(now);
            }
        }
        break;
    case PH_SPECTATORS: {
        int total = R.games * R.spectators;
        int pending = R.spec_next - R.specs_open - R.specs_failed;
        while (R.spec_next < total && pending < 200) {
            game *g = &R.g[R.spec_next % R.games];
            spectator *s = &g->specs[R.spec_next / R.games];
            s->connecting = 1;
            s->ws = lg_ws_new(&R.ws, R.spec_next, "/ws", "conclave.v1",
                              &spec_ws, s);
            R.spec_next++;
            pending++;
        }
        if ((R.spec_next == total && R.specs_snap + R.specs_failed >= total) ||
            now - R.t_specs0 > R.connect_s) {
            R.t_specs1 = now;
            usleep(200 * 1000);
            R.rss_specs = lg_proc_kb(R.server_pid, "VmRSS");
            R.phase = PH_RUN;
            now = lg_now();
            open_window(now);
            for (int i = 0; i < R.games; i++)
                R.g[i].next_move_at = now + R.interval * (i + 1) / R.games;
        }
        break;
    }
    case PH_RUN:
        if (now >= R.t_end || (R.max_moves > 0 && R.moves_win >= R.max_moves)) {
            if (now < R.t_end)
                R.t_end = now;
            sample_cpu(&R.cpu_srv1, &R.cpu_pg1, &R.cpu_pgo1, &R.cpu_self1);
            R.stopping = 1;
            R.t_stop = now;
            R.phase = PH_DRAIN;
            break;
        }
        for (int i = 0; i < R.games; i++) {
            game *g = &R.g[i];
            if (g->state == G_RETRY && now >= g->retry_at)
                setup_start(g);
            if (R.fanout && g->state == G_PLAY && now >= g->next_move_at) {
                maybe_play(&g->p[0]);
                maybe_play(&g->p[1]);
            }
        }
        break;
    case PH_DRAIN: {
        int busy = 0;
        for (int i = 0; i < R.games && !busy; i++)
            busy = R.g[i].pend || lg_http_busy(R.g[i].p[0].http) ||
                   lg_http_busy(R.g[i].p[1].http);
        if (!busy || now - R.t_stop > 5)
            return 1;
        break;
    }
    }
    if (R.phase < PH_RUN && now - R.t_start > 300) {
        fprintf(stderr, "loadgen: setting up took more than 300 s\n");
        return 1;
    }
    return 0;
}

/* ------------------------------------------------------------ report --- */

/* Per move (a play with a 200 inside the window): the time from its
 * commit to the moment its last spectator had it, as percentiles over
 * the moves (the fan-out's tail: every spectator of the game served). */
static json_t *last_delivery_json(void)
{
    double *last = calloc((size_t)R.nplays + 1, sizeof *last);
    if (!last)
        return json_null();
    for (size_t i = 0; i < R.ndels; i++) {
        int id = R.dels[i].play;
        if (R.dels[i].t > last[id])
            last[id] = R.dels[i].t;
    }
    lg_samples s = {0};
    for (int id = 0; id < R.nplays; id++) {
        play_rec *pr = &R.plays[id];
        if (last[id] > 0 && pr->t_commit > 0 && in_window(pr->t_send))
            lg_sample(&s, (last[id] - pr->t_commit) * 1e3);
    }
    free(last);
    json_t *j = lg_samples_json(&s);
    free(s.v);
    return j;
}

static double per_move_us(double cpu_s, long moves)
{
    return moves > 0 ? round(cpu_s / (double)moves * 1e7) / 10.0 : 0;
}

static json_t *report(void)
{
    double secs = R.t_end - R.t0;
    double srv = R.cpu_srv1 - R.cpu_srv0, pg = R.cpu_pg1 - R.cpu_pg0,
           pgo = R.cpu_pgo1 - R.cpu_pgo0, self = R.cpu_self1 - R.cpu_self0;
    R.hwm = R.server_pid ? lg_proc_kb(R.server_pid, "VmHWM") : -1;
    long rss_end = R.server_pid ? lg_proc_kb(R.server_pid, "VmRSS") : -1;
    json_t *o = json_object();
    json_object_set_new(o, "target", json_string("conclave"));
    json_object_set_new(o, "mode", json_string(R.fanout ? "fanout" : "play"));
    if (R.label)
        json_object_set_new(o, "label", json_string(R.label));
    json_object_set_new(o, "games", json_integer(R.games));
    json_object_set_new(o, "seconds", json_real(round(secs * 1000) / 1000));
    json_object_set_new(o, "moves", json_integer(R.moves_win));
    json_object_set_new(
        o, "moves_per_s",
        json_real(secs > 0 ? round(R.moves_win / secs * 10) / 10 : 0));
    json_object_set_new(o, "games_finished", json_integer(R.games_win));
    json_object_set_new(o, "move_latency_ms", lg_samples_json(&R.move_lat));
    json_object_set_new(o, "play_http_ms", lg_samples_json(&R.play_http));
    json_object_set_new(o, "setup_ms", lg_samples_json(&R.setup_lat));
    json_object_set_new(
        o, "errors",
        json_pack("{sI sI sI sI sI sI sI sI sI}", "play",
                  (json_int_t)R.err_play, "setup", (json_int_t)R.err_setup,
                  "register", (json_int_t)R.err_register, "ws",
                  (json_int_t)R.err_ws, "ws_lost", (json_int_t)R.ws_lost,
                  "http_transport", (json_int_t)lg_stats.http_transport_errors,
                  "gaps", (json_int_t)R.gaps, "resubscribes",
                  (json_int_t)R.resubs, "version_mismatch",
                  (json_int_t)R.version_mismatch));
    json_object_set_new(o, "gets", json_integer(0));
    json_object_set_new(
        o, "cpu_s",
        json_pack("{sf sf sf sf}", "server", round(srv * 100) / 100, "postgres",
                  round(pg * 100) / 100, "postgres_this_db",
                  round(pgo * 100) / 100, "loadgen", round(self * 100) / 100));
    json_object_set_new(
        o, "cpu_per_move_us",
        json_pack("{sf sf sf sf}", "server", per_move_us(srv, R.moves_win),
                  "server_postgres", per_move_us(srv + pg, R.moves_win),
                  "server_postgres_this_db",
                  per_move_us(srv + pgo, R.moves_win), "loadgen",
                  per_move_us(self, R.moves_win)));
    json_object_set_new(o, "rss_kb",
                        json_pack("{sI sI sI}", "idle", (json_int_t)R.rss_idle,
                                  "end", (json_int_t)rss_end, "hwm",
                                  (json_int_t)R.hwm));
    json_object_set_new(
        o, "client",
        json_pack("{sI sI sI sI}", "http_requests",
                  (json_int_t)lg_stats.http_requests, "ws_messages_in",
                  (json_int_t)lg_stats.ws_messages_in, "ws_bytes_in",
                  (json_int_t)lg_stats.ws_bytes_in, "ws_pings",
                  (json_int_t)lg_stats.ws_pings));
    if (R.fanout) {
        int total = R.games * R.spectators;
        lg_samples from_commit = {0}, from_send = {0};
        long early = 0, no_commit = 0;
        for (size_t i = 0; i < R.ndels; i++) {
            play_rec *pr = &R.plays[R.dels[i].play];
            if (!in_window(pr->t_send))
                continue;
            lg_sample(&from_send, (R.dels[i].t - pr->t_send) * 1e3);
            if (pr->t_commit == 0) {
                no_commit++;
                continue;
            }
            double d = (R.dels[i].t - pr->t_commit) * 1e3;
            if (d < 0)
                early++;
            lg_sample(&from_commit, d);
        }
        json_t *f = json_object();
        json_object_set_new(f, "spectators_per_game",
                            json_integer(R.spectators));
        json_object_set_new(f, "connections", json_integer(total));
        json_object_set_new(f, "connected", json_integer(R.specs_open));
        json_object_set_new(f, "failed", json_integer(R.specs_failed));
        json_object_set_new(f, "subscribed", json_integer(R.specs_snap));
        json_object_set_new(
            f, "connect_s",
            json_real(round((R.t_specs1 - R.t_specs0) * 100) / 100));
        json_object_set_new(f, "interval_ms", json_real(R.interval * 1e3));
        json_object_set_new(f, "rss_kb_idle", json_integer(R.rss_idle));
        json_object_set_new(f, "rss_kb_games", json_integer(R.rss_games));
        json_object_set_new(f, "rss_kb_spectators", json_integer(R.rss_specs));
        double n = R.specs_snap > 0 ? R.specs_snap : 1;
        json_object_set_new(
            f, "kb_per_connection",
            json_real(round((double)(R.rss_specs - R.rss_games) / n * 100) /
                      100));
        json_object_set_new(
            f, "kb_per_connection_vs_idle",
            json_real(round((double)(R.rss_specs - R.rss_idle) / n * 100) /
                      100));
        json_object_set_new(f, "deliveries", json_integer((json_int_t)R.ndels));
        json_object_set_new(f, "delivery_ms_from_commit",
                            lg_samples_json(&from_commit));
        json_object_set_new(f, "delivery_ms_from_send",
                            lg_samples_json(&from_send));
        json_object_set_new(f, "last_delivery_ms_from_commit",
                            last_delivery_json());
        json_object_set_new(f, "delivered_before_commit_seen",
                            json_integer(early));
        json_object_set_new(f, "plays_without_commit", json_integer(no_commit));
        json_object_set_new(f, "snapshots", json_integer(R.spec_snapshots));
        json_object_set_new(f, "gaps", json_integer(R.spec_gaps));
        json_object_set_new(o, "fanout", f);
        fprintf(stderr,
                "conclave fanout: %d games x %d spectators = %d connections "
                "(%d subscribed, %d failed) in %.1f s; RSS idle %ld KiB, "
                "with games %ld, with spectators %ld (%.2f KiB/connection); "
                "%ld moves, %zu deliveries, from commit p50 %.2f ms p99 "
                "%.2f ms, from send p50 %.2f ms p99 %.2f ms\n",
                R.games, R.spectators, total, R.specs_snap, R.specs_failed,
                R.t_specs1 - R.t_specs0, R.rss_idle, R.rss_games, R.rss_specs,
                (double)(R.rss_specs - R.rss_games) / n, R.moves_win,
                from_send.n, lg_pct(&from_commit, 0.5),
                lg_pct(&from_commit, 0.99), lg_pct(&from_send, 0.5),
                lg_pct(&from_send, 0.99));
        free(from_commit.v);
        free(from_send.v);
    } else {
        fprintf(stderr,
                "conclave play: %d games, %.1f s: %ld moves (%.0f/s), %ld "
                "games; move latency p50 %.2f ms p99 %.2f ms max %.2f ms; "
                "setup p50 %.1f ms; server CPU %.2f s (%.0f us/move), "
                "+postgres %.2f s (%.0f us/move); loadgen %.2f s; errors "
                "%ld; peak RSS %ld KiB\n",
                R.games, secs, R.moves_win, secs > 0 ? R.moves_win / secs : 0,
                R.games_win, lg_pct(&R.move_lat, 0.5),
                lg_pct(&R.move_lat, 0.99), lg_pct(&R.move_lat, 1.0),
                lg_pct(&R.setup_lat, 0.5), srv, per_move_us(srv, R.moves_win),
                pg, per_move_us(srv + pg, R.moves_win), self,
                R.err_play + R.err_setup + R.err_ws + R.err_register, R.hwm);
    }
    return o;
}

/* -------------------------------------------------------------- main --- */

static void usage(void)
{
    fprintf(stderr,
            "usage: loadgen play   --http HOST:PORT --ws HOST:PORT --games N "
            "[--duration S] [--moves M]\n"
            "       loadgen fanout --http HOST:PORT --ws HOST:PORT --games G "
            "--spectators K [--interval-ms T] [--duration S] [--connect-s C]\n"
            "       loadgen sprint ... (bench/lg_sprint.c)\n"
            "       loadgen async ... (bench/lg_async.c)\n"
            "common: [--spread N] [--server-pid PID] [--pg-pid PID] "
            "[--pg-db NAME] [--label TEXT] [--json FILE] [--verbose]\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage();
        return 2;
    }
    if (!strcmp(argv[1], "sprint"))
        return lg_sprint_main(argc, argv);
    if (!strcmp(argv[1], "async"))
        return lg_async_main(argc, argv);
    R.fanout = !strcmp(argv[1], "fanout");
    if (!R.fanout && strcmp(argv[1], "play") != 0) {
        usage();
        return 2;
    }
    R.games = 10;
    R.duration = 20;
    R.spread = 1;
    R.interval = 0;
    R.connect_s = 120;
    const char *http = NULL, *ws = NULL;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--verbose")) {
            R.verbose = 1;
            continue;
        }
        if (!v) {
            usage();
            return 2;
        }
        i++;
        if (!strcmp(a, "--http"))
            http = v;
        else if (!strcmp(a, "--ws"))
            ws = v;
        else if (!strcmp(a, "--games"))
            R.games = atoi(v);
        else if (!strcmp(a, "--spectators"))
            R.spectators = atoi(v);
        else if (!strcmp(a, "--duration"))
            R.duration = atof(v);
        else if (!strcmp(a, "--moves"))
            R.max_moves = atol(v);
        else if (!strcmp(a, "--interval-ms"))
            R.interval = atof(v) / 1e3;
        else if (!strcmp(a, "--connect-s"))
            R.connect_s = atof(v);
        else if (!strcmp(a, "--spread"))
            R.spread = atoi(v);
        else if (!strcmp(a, "--server-pid"))
            R.server_pid = atoi(v);
        else if (!strcmp(a, "--pg-pid"))
            R.pg_pid = atoi(v);
        else if (!strcmp(a, "--pg-db"))
            R.pg_db = v;
        else if (!strcmp(a, "--label"))
            R.label = v;
        else if (!strcmp(a, "--json"))
            R.json_path = v;
        else {
            usage();
            return 2;
        }
    }
    if (!http || !ws || R.games < 1 || R.duration <= 0 ||
        lg_addr_parse(http, &R.http) || lg_addr_parse(ws, &R.ws) ||
        R.spread < 1 || R.spread > 250 || (R.fanout && R.spectators < 1)) {
        usage();
        return 2;
    }
    if (R.fanout && R.interval <= 0)
        R.interval = 0.25;
    if (R.spread > 1) {
        R.http.src_first = R.ws.src_first = htonl(0x7f000001);
        R.http.src_count = R.ws.src_count = R.spread;
    }
    if (lg_loop_init() != 0) {
        perror("epoll");
        return 1;
    }
    rng ^= (uint64_t)getpid() << 17 ^ (uint64_t)(lg_now() * 1e6);
    snprintf(R.run_id, sizeof R.run_id, "%06x", rnd() & 0xffffff);
    R.rss_idle = R.server_pid ? lg_proc_kb(R.server_pid, "VmRSS") : -1;
    R.t_start = lg_now();
    R.g = calloc((size_t)R.games, sizeof *R.g);
    for (int i = 0; i < R.games; i++) {
        game *g = &R.g[i];
        g->idx = i;
        for (int s = 0; s < 2; s++) {
            player *p = &g->p[s];
            p->g = g;
            p->seat = s;
            p->idx = 2 * i + s;
            p->version = -1;
            p->acted = -1;
            p->http = lg_http_new(&R.http, p->idx);
            char body[96];
            snprintf(body, sizeof body, "{\"name\":\"lg%s_%d\"}", R.run_id,
                     p->idx);
            lg_http_request(p->http, "POST", "/api/v1/players", NULL, body,
                            on_registered, p);
        }
        if (R.fanout) {
            g->nspecs = R.spectators;
            g->specs = calloc((size_t)R.spectators, sizeof *g->specs);
            for (int k = 0; k < R.spectators; k++) {
                g->specs[k].g = g;
                g->specs[k].idx = k * R.games + i;
                g->specs[k].version = -1;
            }
        }
    }
    lg_run(tick, NULL, R.fanout ? 1 : 5);
    if (R.t0 == 0) {
        fprintf(stderr, "loadgen: the measured window never started\n");
        return 1;
    }
    json_t *o = report();
    char *text = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(10));
    printf("%s\n", text);
    if (R.json_path) {
        FILE *f = fopen(R.json_path, "w");
        if (f) {
            fprintf(f, "%s\n", text);
            fclose(f);
        }
    }
    free(text);
    json_decref(o);
    fflush(stdout);
    long errors = R.err_play + R.err_setup + R.err_register;
    return errors > R.moves_win / 100 + 10 ? 3 : 0;
}

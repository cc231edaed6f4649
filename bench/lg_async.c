/*
 * lg_async.c - `loadgen async`: inputs at a steady rate to stored
 * asynchronous tic-tac-toe games, for the asynchronous-scale run
 * (bench/async.sh seeds the games and starts the server).
 *
 *   loadgen async --http H:P --games-file FILE [--rate R] [--duration S]
 *                 [--evict-seconds E] [--evict-wait S] [--after N]
 *                 [--conns C] [--spread N] [--server-pid PID]
 *                 [--label TEXT] [--json FILE] [--verbose]
 *
 * FILE has one game a line: `GAME_ID TOKEN_SEAT0 TOKEN_SEAT1`, every game
 * at version 0 (empty board, seat 0 to play; a tic-tac-toe window is
 * `t<version+1>`). The load generator keeps each game's state itself, so a
 * submit is one POST /games/{id}/plays with nothing read before it: the
 * first input to a game the server does not hold in memory pays for
 * loading it. The cells are played in an order that ends in a draw after
 * nine moves; a finished game is skipped.
 *
 * Phases:
 *  1. run: for S seconds, one play every 1/R s (open loop: latency counts
 *     from the planned send time), the games taken round robin in a random
 *     order. A game's first play in the run is `first` (the server was
 *     started on the stored games and has loaded none of them); a play to
 *     a game answered less than E seconds before is `warm`.
 *  2. evict: no input for up to --evict-wait seconds, until the server's
 *     `conclave_games_in_memory` (GET /metrics) is below 1% of what it was.
 *  3. after: N plays at the same rate to games played in phase 1, now
 *     evicted: `after_evict`, the first input after an eviction.
 * The server's RSS (/proc) and games in memory are sampled every 2 s and at
 * the phase ends; memory per game in memory is (RSS at the end of the run
 * - RSS before the first input) / games in memory at the end of the run,
 * and the same at the sample with the most games in memory (RSS does not
 * shrink when games leave, so the first may overstate it). The plays are
 * planned open loop: when the server answers more slowly than the rate,
 * answered_per_s (plays answered / time until the last answer of the run)
 * says what it kept up with.
 */
#include "bench/lg_modes.h"
#include "bench/lg_net.h"
#include "bench/lg_stat.h"

#include <arpa/inet.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define AG_ID 48
#define AG_TOKEN 128

/* X: 4 2 3 1 8, O: 0 6 5 7: nobody makes a line, a draw after nine. */
static const int draw_cells[9] = {4, 0, 2, 6, 3, 5, 1, 7, 8};

typedef struct ag_game {
    char id[AG_ID], token[2][AG_TOKEN];
    int version, in_flight, touched, kind;
    double t_due, t_ok; /* planned send of the play in flight; last 200 */
} ag_game;

enum { K_FIRST, K_WARM, K_OTHER, K_AFTER };
enum { PH_RUN, PH_EVICT, PH_AFTER, PH_DRAIN };

static struct {
    lg_addr http;
    int spread, conns, verbose, after;
    double rate, duration, evict_s, evict_wait;
    pid_t server_pid;
    const char *file, *label, *json_path;
    ag_game *g;
    int n, *order, cursor, after_sent;
    lg_http **pool, *metrics;
    int rr;
    int phase;
    double t0, t_run_end, t_evict_end, t_after0, t_stop, next_due, next_sample;
    long sent, ok, skipped, finished, err_play, err_metrics;
    lg_samples all, first, warm, other, after_evict;
    long rss_idle, rss_run_end, rss_evicted, rss_after_end;
    long mem_run_end, mem_evicted, mem_after_end, mem_now, mem_peak;
    double evict_took, t_drained;
    long peak_mem, peak_rss; /* the sample with the most games in memory */
    json_t *series;
} A;

static void complain(long *counter, const char *what, int status,
                     const char *body)
{
    (*counter)++;
    if (A.verbose || *counter <= 3)
        fprintf(stderr, "loadgen async: %s: %d %.300s\n", what, status, body);
}

/* ---------------------------------------------------------- metrics --- */

static void on_metrics(void *ctx, int status, const char *body, size_t len)
{
    (void)ctx;
    (void)len;
    const char *k = "\nconclave_games_in_memory ";
    if (status != 200) {
        complain(&A.err_metrics, "GET /metrics", status, "");
        return;
    }
    const char *s = strstr(body, k); /* absent until a game is loaded */
    A.mem_now = s ? strtol(s + strlen(k), NULL, 10) : 0;
    if (A.mem_now > A.mem_peak)
        A.mem_peak = A.mem_now;
}

static long rss(void)
{
    return A.server_pid ? lg_proc_kb(A.server_pid, "VmRSS") : -1;
}

static void sample(double now)
{
    if (!lg_http_busy(A.metrics))
        lg_http_request(A.metrics, "GET", "/metrics", NULL, NULL, on_metrics,
                        NULL);
    long kb = rss();
    if (A.mem_now > A.peak_mem) { /* the count of the previous request */
        A.peak_mem = A.mem_now;
        A.peak_rss = kb;
    }
    json_array_append_new(A.series,
                          json_pack("[f I I]", round((now - A.t0) * 10) / 10,
                                    (json_int_t)kb, (json_int_t)A.mem_now));
}

/* ------------------------------------------------------------ plays --- */

static void on_play(void *ctx, int status, const char *body, size_t len)
{
    (void)len;
    ag_game *g = ctx;
    double now = lg_now(), ms = (now - g->t_due) * 1e3;
    g->in_flight = 0;
    if (status != 200) {
        complain(&A.err_play, "POST /games/{id}/plays", status, body);
        return;
    }
    A.ok++;
    g->version++;
    g->t_ok = now;
    if (g->version >= 9)
        A.finished++;
    lg_samples *s = g->kind == K_FIRST   ? &A.first
                    : g->kind == K_WARM  ? &A.warm
                    : g->kind == K_AFTER ? &A.after_evict
                                         : &A.other;
    lg_sample(s, ms);
    if (g->kind != K_AFTER)
        lg_sample(&A.all, ms);
}

static lg_http *connection(void)
{
    for (int i = 0; i < A.conns; i++) {
        lg_http *h = A.pool[(A.rr + i) % A.conns];
        if (!lg_http_busy(h)) {
            A.rr = (A.rr + i + 1) % A.conns;
            return h;
        }
    }
    A.rr = (A.rr + 1) % A.conns;
    return A.pool[A.rr];
}

static void send_play(ag_game *g, double due, int kind)
{
    char path[128], hdr[384], body[96];
    int seat = g->version % 2;
    snprintf(path, sizeof path, "/api/v1/games/%s/plays", g->id);
    snprintf(hdr, sizeof hdr,
             "Authorization: Bearer %s\r\nIdempotency-Key: lga-%d\r\n",
             g->token[seat], g->version);
    snprintf(body, sizeof body, "{\"window\":\"t%d\",\"cell\":%d}",
             g->version + 1, draw_cells[g->version]);
    g->in_flight = 1;
    g->touched = 1;
    g->kind = kind;
    g->t_due = due;
    A.sent++;
    lg_http_request(connection(), "POST", path, hdr, body, on_play, g);
}

/* The next game of the round, for a play planned at `due`. */
static void plan_one(double due)
{
    for (int tries = 0; tries < A.n; tries++) {
        ag_game *g = &A.g[A.order[A.cursor]];
        A.cursor = (A.cursor + 1) % A.n;
        if (g->in_flight || g->version >= 9)
            continue;
        if (A.phase == PH_AFTER) {
            if (!g->touched)
                continue;
            send_play(g, due, K_AFTER);
            return;
        }
        int kind = !g->touched                 ? K_FIRST
                   : due - g->t_ok < A.evict_s ? K_WARM
                                               : K_OTHER;
        send_play(g, due, kind);
        return;
    }
    A.skipped++;
}

/* ------------------------------------------------------------ clock --- */

static int busy(void)
{
    for (int i = 0; i < A.conns; i++)
        if (lg_http_busy(A.pool[i]))
            return 1;
    return 0;
}

static int tick(void *ctx, double now)
{
    (void)ctx;
    if (now >= A.next_sample) {
        sample(now);
        A.next_sample = now + 2;
    }
    switch (A.phase) {
    case PH_RUN:
        while (now >= A.next_due && A.next_due < A.t_run_end) {
            plan_one(A.next_due);
            A.next_due += 1.0 / A.rate;
        }
        if (now >= A.t_run_end && !busy()) {
            A.t_drained = now;
            A.rss_run_end = rss();
            A.mem_run_end = A.mem_now;
            sample(now); /* a fresh count for the next phase */
            A.phase = PH_EVICT;
            A.t_evict_end = now + A.evict_wait;
            A.evict_took = now;
        }
        break;
    case PH_EVICT:
        if (now >= A.t_evict_end ||
            (now - A.evict_took > 4 && A.mem_now * 100 < A.mem_run_end)) {
            A.evict_took = now - A.evict_took;
            A.rss_evicted = rss();
            A.mem_evicted = A.mem_now;
            A.phase = A.after > 0 ? PH_AFTER : PH_DRAIN;
            A.t_after0 = A.next_due = now;
            A.cursor = 0;
        }
        break;
    case PH_AFTER:
        while (now >= A.next_due && A.after_sent < A.after) {
            plan_one(A.next_due); /* counted even when no game is left */
            A.after_sent++;
            A.next_due += 1.0 / A.rate;
        }
        if (A.after_sent >= A.after && !busy()) {
            A.phase = PH_DRAIN;
            A.t_stop = now;
        }
        break;
    case PH_DRAIN:
        if (!busy()) {
            A.rss_after_end = rss();
            A.mem_after_end = A.mem_now;
            return 1;
        }
        break;
    }
    return 0;
}

/* ----------------------------------------------------------- report --- */

static json_t *report(void)
{
    double secs = A.t_run_end - A.t0;
    double kb = A.mem_run_end > 0
                    ? (double)(A.rss_run_end - A.rss_idle) / A.mem_run_end
                    : 0;
    double peak_kb =
        A.peak_mem > 0 ? (double)(A.peak_rss - A.rss_idle) / A.peak_mem : 0;
    json_t *o = json_object();
    json_object_set_new(o, "target", json_string("conclave"));
    json_object_set_new(o, "mode", json_string("async"));
    if (A.label)
        json_object_set_new(o, "label", json_string(A.label));
    json_object_set_new(o, "open_games", json_integer(A.n));
    json_object_set_new(o, "rate", json_real(A.rate));
    json_object_set_new(o, "seconds", json_real(round(secs * 10) / 10));
    json_object_set_new(o, "sent", json_integer(A.sent));
    /* open loop: a server slower than the rate answers the last plays late */
    json_object_set_new(o, "answered_by_s",
                        json_real(round((A.t_drained - A.t0) * 10) / 10));
    json_object_set_new(
        o, "answered_per_s",
        json_real(A.t_drained > A.t0
                      ? round((double)A.all.n / (A.t_drained - A.t0) * 10) / 10
                      : 0));
    json_object_set_new(o, "ok", json_integer(A.ok));
    json_object_set_new(o, "skipped", json_integer(A.skipped));
    json_object_set_new(o, "games_finished", json_integer(A.finished));
    json_object_set_new(o, "submit_ms", lg_samples_json(&A.all));
    json_object_set_new(o, "submit_ms_first", lg_samples_json(&A.first));
    json_object_set_new(o, "submit_ms_warm", lg_samples_json(&A.warm));
    json_object_set_new(o, "submit_ms_other", lg_samples_json(&A.other));
    json_object_set_new(o, "submit_ms_after_evict",
                        lg_samples_json(&A.after_evict));
    json_object_set_new(
        o, "memory",
        json_pack(
            "{sI sI sI sI sI sI sI sI sI sf sf sf}", "rss_kb_idle",
            (json_int_t)A.rss_idle, "rss_kb_run_end", (json_int_t)A.rss_run_end,
            "rss_kb_evicted", (json_int_t)A.rss_evicted, "rss_kb_after_end",
            (json_int_t)A.rss_after_end, "rss_kb_hwm",
            (json_int_t)(A.server_pid ? lg_proc_kb(A.server_pid, "VmHWM") : -1),
            "in_memory_run_end", (json_int_t)A.mem_run_end, "in_memory_peak",
            (json_int_t)A.mem_peak, "in_memory_evicted",
            (json_int_t)A.mem_evicted, "in_memory_after_end",
            (json_int_t)A.mem_after_end, "kb_per_game_in_memory",
            round(kb * 100) / 100, "kb_per_game_at_peak",
            round(peak_kb * 100) / 100, "evict_wait_s",
            round(A.evict_took * 10) / 10));
    json_object_set_new(o, "errors",
                        json_pack("{sI sI sI}", "play", (json_int_t)A.err_play,
                                  "metrics", (json_int_t)A.err_metrics,
                                  "http_transport",
                                  (json_int_t)lg_stats.http_transport_errors));
    json_object_set(o, "series_t_rsskb_inmemory", A.series);
    fprintf(stderr,
            "conclave async: %d open games, %.0f plays/s for %.0f s: %ld ok; "
            "submit p50 %.1f p99 %.1f ms (first %.1f / %.1f, warm %.1f / "
            "%.1f); after eviction p50 %.1f p99 %.1f ms (%zu); RSS idle %ld "
            "KiB, %ld games in memory %ld KiB (%.2f KiB/game), evicted to "
            "%ld games %ld KiB; errors %ld\n",
            A.n, A.rate, secs, A.ok, lg_pct(&A.all, 0.5), lg_pct(&A.all, 0.99),
            lg_pct(&A.first, 0.5), lg_pct(&A.first, 0.99), lg_pct(&A.warm, 0.5),
            lg_pct(&A.warm, 0.99), lg_pct(&A.after_evict, 0.5),
            lg_pct(&A.after_evict, 0.99), A.after_evict.n, A.rss_idle,
            A.mem_run_end, A.rss_run_end, kb, A.mem_evicted, A.rss_evicted,
            A.err_play);
    return o;
}

/* ------------------------------------------------------------- main --- */

static int usage(void)
{
    fprintf(stderr,
            "usage: loadgen async --http HOST:PORT --games-file FILE "
            "[--rate R] [--duration S] [--evict-seconds E] [--evict-wait S] "
            "[--after N] [--conns C] [--spread N] [--server-pid PID] "
            "[--label TEXT] [--json FILE] [--verbose]\n");
    return 2;
}

static int parse(int argc, char **argv)
{
    const char *http = NULL;
    A.rate = 200;
    A.duration = 60;
    A.evict_s = 300;
    A.evict_wait = 0;
    A.conns = 64;
    A.spread = 1;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--verbose")) {
            A.verbose = 1;
            continue;
        }
        if (!v)
            return -1;
        i++;
        if (!strcmp(a, "--http"))
            http = v;
        else if (!strcmp(a, "--games-file"))
            A.file = v;
        else if (!strcmp(a, "--rate"))
            A.rate = atof(v);
        else if (!strcmp(a, "--duration"))
            A.duration = atof(v);
        else if (!strcmp(a, "--evict-seconds"))
            A.evict_s = atof(v);
        else if (!strcmp(a, "--evict-wait"))
            A.evict_wait = atof(v);
        else if (!strcmp(a, "--after"))
            A.after = atoi(v);
        else if (!strcmp(a, "--conns"))
            A.conns = atoi(v);
        else if (!strcmp(a, "--spread"))
            A.spread = atoi(v);
        else if (!strcmp(a, "--server-pid"))
            A.server_pid = atoi(v);
        else if (!strcmp(a, "--label"))
            A.label = v;
        else if (!strcmp(a, "--json"))
            A.json_path = v;
        else
            return -1;
    }
    if (!http || !A.file || A.rate <= 0 || A.duration <= 0 || A.conns < 1 ||
        A.spread < 1 || A.spread > 250 || lg_addr_parse(http, &A.http))
        return -1;
    if (A.spread > 1) {
        A.http.src_first = htonl(0x7f000001);
        A.http.src_count = A.spread;
    }
    return 0;
}

/* The games of the file; 0, or -1 with a message. */
static int load_games(void)
{
    FILE *f = fopen(A.file, "r");
    if (!f) {
        perror(A.file);
        return -1;
    }
    int cap = 1024;
    A.g = calloc((size_t)cap, sizeof *A.g);
    char line[512];
    while (A.g && fgets(line, sizeof line, f)) {
        if (A.n == cap) {
            cap *= 2;
            ag_game *more = realloc(A.g, (size_t)cap * sizeof *A.g);
            if (!more)
                break;
            A.g = more;
        }
        ag_game *g = &A.g[A.n];
        memset(g, 0, sizeof *g);
        if (sscanf(line, "%47s %127s %127s", g->id, g->token[0], g->token[1]) ==
            3)
            A.n++;
    }
    fclose(f);
    if (A.n == 0) {
        fprintf(stderr, "loadgen async: no games in %s\n", A.file);
        return -1;
    }
    A.order = calloc((size_t)A.n, sizeof *A.order);
    if (!A.order)
        return -1;
    for (int i = 0; i < A.n; i++)
        A.order[i] = i;
    srand((unsigned)getpid());
    for (int i = A.n - 1; i > 0; i--) { /* Fisher-Yates */
        int j = rand() % (i + 1);
        int t = A.order[i];
        A.order[i] = A.order[j];
        A.order[j] = t;
    }
    return 0;
}

int lg_async_main(int argc, char **argv)
{
    if (parse(argc, argv) != 0)
        return usage();
    if (load_games() != 0)
        return 1;
    if (lg_loop_init() != 0) {
        perror("epoll");
        return 1;
    }
    A.pool = calloc((size_t)A.conns, sizeof(lg_http *));
    if (!A.pool)
        return 1;
    for (int i = 0; i < A.conns; i++)
        A.pool[i] = lg_http_new(&A.http, i);
    A.metrics = lg_http_new(&A.http, A.conns);
    A.series = json_array();
    A.rss_idle = rss();
    A.t0 = A.next_due = lg_now();
    A.t_run_end = A.t0 + A.duration;
    A.next_sample = A.t0;
    lg_run(tick, NULL, 1);
    json_t *o = report();
    char *text = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(10));
    printf("%s\n", text);
    if (A.json_path) {
        FILE *f = fopen(A.json_path, "w");
        if (f) {
            fprintf(f, "%s\n", text);
            fclose(f);
        }
    }
    free(text);
    json_decref(o);
    json_decref(A.series);
    fflush(stdout);
    return A.err_play > A.ok / 100 + 10 ? 3 : 0;
}

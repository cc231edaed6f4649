/*
 * serve.c - `conclave serve` and `conclave migrate`: start-up, the main
 * thread's wait for SIGINT/SIGTERM, and an orderly shutdown (stop accepting,
 * finish in-flight requests, stop the actors, close the database, exit 0).
 */
#include "api/api.h"
#include "engine/engine.h"
#include "engine/examples/examples.h"
#include "server/game/actor.h"
#include "server/game/scheduler.h"
#include "server/hub/hub.h"
#include "server/notify/notify.h"
#include "server/notify/notify_listened.h"
#include "server/players/records.h"
#include "server/players/tokens.h"
#include "server/runtime/app.h"
#include "server/runtime/commands.h"
#include "server/runtime/fdlimit.h"
#include "server/runtime/log.h"
#include "server/store/db_stmt.h"
#include "server/store/listener.h"
#include "server/store/migrate.h"
#include "server/store/store.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return 1;
    return 0;
}

/* Defaults, environment, flags; prints the problem and returns -1. */
static int load_config(config *cfg, int argc, char **argv)
{
    char err[256];
    if (config_from_env(cfg, err, sizeof err) ||
        config_from_args(cfg, argc, argv, err, sizeof err)) {
        fprintf(stderr, "conclave %s: %s\n", argv[0], err);
        return -1;
    }
    log_level level;
    if (log_parse_level(cfg->log_level, &level) != 0) {
        fprintf(stderr, "conclave: unknown log level \"%s\"\n", cfg->log_level);
        return -1;
    }
    log_set_level(level);
    return 0;
}

/* Connect (retrying for up to `patience` seconds: the database may still be
 * starting) and apply missing migrations; with backfill (serve, not the
 * migrate command, whose SQL folder may be another one) also the one-time
 * record rebuild. Returns 0 or -1 after logging. */
static int run_migrations(const config *cfg, int patience, int backfill)
{
    char err[512];
    PGconn *c = NULL;
    for (int waited = 0;; waited++) {
        c = db_connect(cfg->database_url, cfg->db_connect_timeout, err,
                       sizeof err);
        if (c || waited >= patience)
            break;
        if (waited == 0)
            log_warn("db_waiting", json_pack("{ss}", "error", err));
        sleep(1);
    }
    if (!c) {
        log_error("db_unreachable", json_pack("{ss}", "error", err));
        return -1;
    }
    int applied = migrate_apply(c, cfg->sql_dir, err, sizeof err);
    if (applied >= 0 && backfill && records_backfill(c) != 0) {
        PQfinish(c);
        log_error("record_backfill_failed",
                  json_pack("{ss}", "error", "the database failed"));
        return -1;
    }
    PQfinish(c);
    if (applied < 0) {
        log_error("migration_failed", json_pack("{ss}", "error", err));
        return -1;
    }
    log_info("migrations_done", json_pack("{si}", "applied", applied));
    return 0;
}

int cmd_migrate(int argc, char **argv)
{
    if (wants_help(argc, argv)) {
        printf("usage: conclave migrate [options]\n\n"
               "Apply the migrations in the SQL folder that the database has "
               "not seen,\neach once, in order; safe to run from several "
               "processes at once.\n\n");
        config_print_help(stdout);
        return 0;
    }
    config cfg;
    if (load_config(&cfg, argc, argv))
        return 2;
    return run_migrations(&cfg, 0, 0) ? 1 : 0;
}

/* Block SIGINT and SIGTERM (taken by sigwait in the main thread only)
 * before any thread starts, so every thread inherits the mask; ignore
 * SIGPIPE. Fills stop with the two signals. */
static void block_stop_signals(sigset_t *stop)
{
    sigemptyset(stop);
    sigaddset(stop, SIGINT);
    sigaddset(stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, stop, NULL);
    signal(SIGPIPE, SIG_IGN);
}

/* Raise the descriptor limit to the hard limit, before anything opens a
 * descriptor or sizes a table by the limit (libwebsockets, libmicrohttpd),
 * and share it out (server/runtime/fdlimit.h). */
static void share_descriptors(app *a, const config *cfg)
{
    int raised = 0;
    long limit = fd_limit_raise(&raised);
    if (limit < 0)
        limit = 1024;
    /* The pool, the commit writers, the LISTEN connection and a spare. */
    int db_conns = cfg->db_pool + cfg->commit_writers + 2;
    fd_budget_split(limit, db_conns, cfg->ws_max, &a->fds);
    a->fds.raised = raised;
    long used = a->fds.reserve + a->fds.http_max + a->fds.ws_max;
    json_t *detail = json_pack(
        "{sI sb sI sI sI}", "limit", (json_int_t)limit, "raised", raised,
        "reserve", (json_int_t)a->fds.reserve, "http_max",
        (json_int_t)a->fds.http_max, "ws_max", (json_int_t)a->fds.ws_max);
    if (used > limit)
        log_warn("descriptors_overcommitted", detail);
    else
        log_info("descriptors", detail);
}

/* Register the rulesets and build their tables. 0, or -1 after logging. */
static int init_rulesets(const config *cfg)
{
    engine_error eerr = {0};
    /* The example rulesets (engine/examples) are for tests only: a server
     * offers them with --example-rulesets 1 (CONCLAVE_EXAMPLE_RULESETS=1).
     * They can be played but are never listed (GET /api/v1/rulesets). */
    if (cfg->example_rulesets && engine_examples_register(&eerr) != 0) {
        log_error("engine_init_failed", json_pack("{ss}", "error", eerr.msg));
        return -1;
    }
    if (engine_init(&eerr) != 0) {
        log_error("engine_init_failed", json_pack("{ss}", "error", eerr.msg));
        return -1;
    }
    return 0;
}

/* The app's settled parts: trusted proxies, the base URL, this process's
 * id, the migrations (applied now) and the database pool. 0, or -1 after
 * logging. */
static int prepare_app(app *a, const config *cfg)
{
    char err[512];
    if (trusted_proxies_parse(cfg->trusted_proxies, &a->proxies, err,
                              sizeof err) != 0) {
        log_error("bad_config", json_pack("{ss}", "error", err));
        return -1;
    }
    char allow[sizeof cfg->metrics_allow + 32];
    snprintf(allow, sizeof allow, "127.0.0.0/8, ::1/128, %s",
             cfg->metrics_allow);
    if (trusted_proxies_parse(allow, &a->metrics_allow, err, sizeof err) != 0) {
        log_error("bad_config",
                  json_pack("{ss ss}", "setting", "CONCLAVE_METRICS_ALLOW",
                            "error", err));
        return -1;
    }
    if (cfg->public_url[0])
        snprintf(a->base_url, sizeof a->base_url, "%s", cfg->public_url);
    else
        snprintf(a->base_url, sizeof a->base_url, "http://localhost:%d",
                 cfg->http_port);
    store_new_id(a->process_id);
    a->migrations_expected = migrate_latest(cfg->sql_dir, err, sizeof err);
    if (a->migrations_expected < 0) {
        log_error("migrations_missing", json_pack("{ss}", "error", err));
        return -1;
    }
    if (run_migrations(cfg, 30, 1) != 0)
        return -1;
    db_stmt_enable(cfg->db_prepare);
    a->db = db_pool_create(cfg->database_url, cfg->db_pool,
                           cfg->db_connect_timeout);
    if (!a->db) {
        log_error("out_of_memory", NULL);
        return -1;
    }
    return 0;
}

/* The running parts that are not the app's own (NULL until started). */
typedef struct serve_parts {
    scheduler *sched;
    listener *listen;
    api_server *http;
    notifier *notes;
} serve_parts;

/* Start the actors and the hub, wire them to each other and to the domain
 * modules (the composition root's one place for it), then the listener,
 * the scheduler, the notifier and the HTTP edge. 0, or -1 with err
 * filled; what started is in a and p either way. */
static int start_parts(app *a, serve_parts *p, char *err, size_t errlen)
{
    const config *cfg = a->cfg;
    a->actors = actors_start(a, err, errlen);
    if (!a->actors)
        return -1;
    a->hub = hub_start(a, err, errlen);
    if (!a->hub)
        return -1;
    actors_set_listener(a->actors, hub_game_version, a->hub);
    a->feed = (feed_hooks){a->hub, hub_turns_changed, hub_seat_active,
                           hub_active_seats_json};
    tokens_on_revoke(hub_token_revoked, a->hub);
    /* A player who keeps making requests must never look idle: refresh
     * last_seen at least three times per idle-seat time. */
    if (cfg->idle_seat_seconds > 0 &&
        cfg->idle_seat_seconds / 3 < TOKENS_SEEN_SECONDS)
        tokens_seen_every(cfg->idle_seat_seconds / 3);
    p->listen = listener_start(a, a->actors, err, errlen);
    if (!p->listen)
        return -1;
    p->sched = scheduler_start(a, a->actors, err, errlen);
    if (!p->sched)
        return -1;
    /* The listened set (notify_listened.h) before the first request: until
     * its first load every player counts as listening, and every game
     * started then would write a notification fact nobody may be told of. */
    notify_listened_tick(a->db);
    p->notes = notify_start(a, a->base_url, err, errlen);
    if (!p->notes)
        return -1;
    p->http = api_server_start(a, err, errlen);
    if (!p->http)
        return -1;
    hub_set_http_port(a->hub, api_server_port(p->http));
    log_info("listening",
             json_pack("{si si}", "http_port", api_server_port(p->http),
                       "ws_port", hub_port(a->hub)));
    return 0;
}

/* Wait for SIGINT or SIGTERM, then drain: /readyz says 503 for
 * drain_seconds while everything is still served, so a load balancer's
 * health check sends new traffic to other processes; then no new HTTP
 * connections, in-flight requests finish, and WebSocket clients are told
 * to reconnect elsewhere. */
static void wait_and_drain(app *a, serve_parts *p, const sigset_t *stop)
{
    int sig = 0;
    sigwait(stop, &sig);
    log_info("stopping",
             json_pack("{ss}", "signal", sig == SIGINT ? "SIGINT" : "SIGTERM"));
    atomic_store(&a->draining, 1);
    if (a->cfg->drain_seconds > 0) {
        log_info("draining",
                 json_pack("{si}", "seconds", a->cfg->drain_seconds));
        struct timespec ts = {a->cfg->drain_seconds, 0};
        while (nanosleep(&ts, &ts) != 0)
            ;
    }
    api_server_stop(p->http);
    p->http = NULL;
    hub_close_all(a->hub, 2.0);
}

/* Stop what started, outside in: no new requests, then no new timeouts or
 * catch-ups, then the WebSocket hub (it pins and reads games), then the
 * actors finish what is queued, then the database goes. */
static void stop_parts(app *a, serve_parts *p)
{
    api_server_stop(p->http);
    notify_stop(p->notes);
    scheduler_stop(p->sched);
    listener_stop(p->listen);
    tokens_on_revoke(NULL, NULL);
    hub_stop(a->hub);
    actors_stop(a->actors);
    db_pool_destroy(a->db);
}

int cmd_serve(int argc, char **argv)
{
    if (wants_help(argc, argv)) {
        printf("usage: conclave serve [options]\n\n"
               "Migrate the database, then serve the HTTP API and web page "
               "and the\nWebSocket feed until SIGINT or SIGTERM.\n\n");
        config_print_help(stdout);
        return 0;
    }
    config cfg;
    if (load_config(&cfg, argc, argv))
        return 2;
    sigset_t stop_signals;
    block_stop_signals(&stop_signals);
    if (init_rulesets(&cfg) != 0)
        return 1;
    app a = {.cfg = &cfg};
    share_descriptors(&a, &cfg);
    if (prepare_app(&a, &cfg) != 0)
        return 1;
    serve_parts p = {0};
    char err[512];
    int status = 1;
    if (start_parts(&a, &p, err, sizeof err) == 0) {
        wait_and_drain(&a, &p, &stop_signals);
        status = 0;
    } else {
        log_error("start_failed", json_pack("{ss}", "error", err));
    }
    stop_parts(&a, &p);
    if (status == 0)
        log_info("stopped", NULL);
    return status;
}

/*
 * config.c - defaults, environment variables and flags (see config.h).
 *
 * One table describes every setting once: its flag, its variable, where it
 * lives in struct config and its bounds, so help text, parsing and checks
 * cannot drift apart.
 */
#include "server/runtime/config.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef struct setting {
    const char *flag; /* without the leading -- */
    const char *env;
    size_t offset;
    size_t size;   /* 0 for int settings, else the char buffer size */
    long min, max; /* int bounds */
    const char *help;
} setting;

#define INT_SETTING(f, e, field, lo, hi, h)                                    \
    {                                                                          \
        f, e, offsetof(config, field), 0, lo, hi, h                            \
    }
#define STR_SETTING(f, e, field, h)                                            \
    {                                                                          \
        f, e, offsetof(config, field), sizeof(((config *)0)->field), 0, 0, h   \
    }

static const setting settings[] = {
    INT_SETTING("http-port", "CONCLAVE_HTTP_PORT", http_port, 0, 65535,
                "HTTP API and web page port (8080; 0 = any free port)"),
    INT_SETTING("ws-port", "CONCLAVE_WS_PORT", ws_port, 0, 65535,
                "WebSocket port (8081)"),
    STR_SETTING("bind", "CONCLAVE_BIND", bind_address,
                "address to listen on (0.0.0.0)"),
    STR_SETTING("database-url", "DATABASE_URL", database_url,
                "libpq connection string (postgresql:///conclave)"),
    INT_SETTING("db-pool", "CONCLAVE_DB_POOL", db_pool, 1, 256,
                "database connections in the pool (16)"),
    INT_SETTING("db-connect-timeout", "CONCLAVE_DB_CONNECT_TIMEOUT",
                db_connect_timeout, 1, 60,
                "seconds before a database connect attempt fails (3)"),
    INT_SETTING("workers", "CONCLAVE_WORKERS", workers, 1, 256,
                "game actor worker threads (8)"),
    INT_SETTING("commit-writers", "CONCLAVE_COMMIT_WRITERS", commit_writers, 1,
                64, "group-commit writer connections (2)"),
    INT_SETTING("db-prepare", "CONCLAVE_DB_PREPARE", db_prepare, 0, 1,
                "prepare statements on each connection (1; 0 for a pooler "
                "that does not keep them)"),
    INT_SETTING("http-threads", "CONCLAVE_HTTP_THREADS", http_threads, 1, 256,
                "HTTP worker threads (16)"),
    INT_SETTING("http-timeout", "CONCLAVE_HTTP_TIMEOUT", http_timeout, 1, 3600,
                "seconds an idle HTTP connection is kept (30)"),
    INT_SETTING("drain-seconds", "CONCLAVE_DRAIN_SECONDS", drain_seconds, 0,
                3600,
                "seconds /readyz answers 503 after SIGTERM before the server "
                "stops taking connections (0)"),
    INT_SETTING("http-per-ip", "CONCLAVE_HTTP_PER_IP", http_per_ip, 1, 100000,
                "HTTP connections allowed per client IP (64)"),
    INT_SETTING("snapshot-every", "CONCLAVE_SNAPSHOT_EVERY", snapshot_every, 1,
                1000000, "inputs between game snapshots (50)"),
    INT_SETTING("idle-evict", "CONCLAVE_IDLE_EVICT", idle_evict_seconds, 1,
                86400, "seconds before an idle game leaves memory (300)"),
    INT_SETTING("rate", "CONCLAVE_RATE", rate_per_second, 1, 1000000,
                "requests per second per token and per IP (50)"),
    INT_SETTING("rate-burst", "CONCLAVE_RATE_BURST", rate_burst, 1, 1000000,
                "request burst per token and per IP (200)"),
    INT_SETTING("ws-max-message", "CONCLAVE_WS_MAX_MESSAGE", ws_max_message,
                256, 1048576, "largest WebSocket message in bytes (16384)"),
    INT_SETTING("ws-per-ip", "CONCLAVE_WS_PER_IP", ws_per_ip, 1, 1000000,
                "WebSocket connections allowed per client IP (64)"),
    INT_SETTING("ws-max", "CONCLAVE_WS_MAX", ws_max, 0, 1048576,
                "WebSocket connections at once, all clients (0: the "
                "descriptor limit less a reserve for HTTP, the database and "
                "files)"),
    INT_SETTING("ws-queue", "CONCLAVE_WS_QUEUE", ws_queue, 1, 4096,
                "WebSocket messages queued per connection before a slow "
                "reader gets a fresh snapshot (128)"),
    INT_SETTING("ws-ping", "CONCLAVE_WS_PING", ws_ping_seconds, 1, 3600,
                "seconds between WebSocket pings; no pong in as many again "
                "closes (10)"),
    INT_SETTING("ws-rate", "CONCLAVE_WS_RATE", ws_rate, 1, 1000000,
                "WebSocket requests (auth, subscribe, unsubscribe, "
                "subscribe_lobbies) per second per connection (20)"),
    INT_SETTING("ws-rate-burst", "CONCLAVE_WS_RATE_BURST", ws_rate_burst, 1,
                1000000, "WebSocket request burst per connection (100)"),
    INT_SETTING("ws-ip-rate", "CONCLAVE_WS_IP_RATE", ws_ip_rate, 1, 1000000,
                "WebSocket requests per second per client IP (200)"),
    INT_SETTING("ws-ip-rate-burst", "CONCLAVE_WS_IP_RATE_BURST",
                ws_ip_rate_burst, 1, 1000000,
                "WebSocket request burst per client IP (1000)"),
    INT_SETTING("ws-auth-rate", "CONCLAVE_WS_AUTH_RATE", ws_auth_rate, 1,
                1000000,
                "WebSocket auth messages per second per client IP "
                "(10)"),
    INT_SETTING("ws-auth-burst", "CONCLAVE_WS_AUTH_BURST", ws_auth_burst, 1,
                1000000, "WebSocket auth burst per client IP (200)"),
    INT_SETTING("ws-rate-close", "CONCLAVE_WS_RATE_CLOSE", ws_rate_close, 1,
                1000000,
                "WebSocket requests refused (less 'ws-rate' a second) "
                "before the connection is closed (100)"),
    INT_SETTING("public-ws-port", "CONCLAVE_PUBLIC_WS_PORT", public_ws_port, 0,
                65535,
                "the WebSocket port browsers use, when a proxy listens in "
                "front (0: the port the hub bound)"),
    STR_SETTING("allowed-origins", "CONCLAVE_ALLOWED_ORIGINS", allowed_origins,
                "comma-separated WebSocket origins (the server's own)"),
    STR_SETTING("web-root", "CONCLAVE_WEB_ROOT", web_root,
                "folder of the web client (web)"),
    STR_SETTING("sql-dir", "CONCLAVE_SQL_DIR", sql_dir,
                "folder of the migrations (sql)"),
    STR_SETTING("openapi", "CONCLAVE_OPENAPI", openapi_path,
                "the OpenAPI document served at /api/v1/openapi.yaml"),
    STR_SETTING("ws-event-lib", "CONCLAVE_WS_EVENT_LIB", ws_event_lib,
                "the WebSocket hub's event loop: poll (libwebsockets' own), "
                "uv (libuv) or ev (libev) (poll)"),
    STR_SETTING("log-level", "CONCLAVE_LOG_LEVEL", log_level,
                "debug, info, warn or error (info)"),
    INT_SETTING("lobbies-per-player", "CONCLAVE_LOBBIES_PER_PLAYER",
                lobbies_per_player, 1, 1000000,
                "open lobbies one account may host (5)"),
    INT_SETTING("live-games-per-player", "CONCLAVE_LIVE_GAMES_PER_PLAYER",
                live_games_per_player, 1, 1000000,
                "running live-clock games one account may start (5)"),
    INT_SETTING("async-games-per-player", "CONCLAVE_ASYNC_GAMES_PER_PLAYER",
                async_games_per_player, 1, 1000000,
                "running async or unclocked games one account may start "
                "(50)"),
    INT_SETTING("async-min-seconds", "CONCLAVE_ASYNC_MIN_SECONDS",
                async_min_seconds, 1, 60,
                "shortest async window in seconds (60; lower for tests)"),
    INT_SETTING("vacation-days", "CONCLAVE_VACATION_DAYS", vacation_days, 0,
                366, "vacation days per player per year (21)"),
    INT_SETTING("signups-per-hour", "CONCLAVE_SIGNUPS_PER_HOUR",
                signups_per_hour, 1, 1000000,
                "accounts created per client IP per hour (20)"),
    INT_SETTING("signins-per-minute", "CONCLAVE_SIGNINS_PER_MINUTE",
                signins_per_minute, 1, 1000000,
                "password checks per client IP per minute (10)"),
    INT_SETTING("scrypt-concurrency", "CONCLAVE_SCRYPT_CONCURRENCY",
                scrypt_concurrency, 1, 256,
                "password hashes computed at once; more get 429 (2)"),
    INT_SETTING("order-changes", "CONCLAVE_ORDER_CHANGES", order_changes, 1,
                1000000,
                "order inputs (sets, parts, withdrawals) per seat per "
                "window (100)"),
    INT_SETTING("lobby-feed-ms", "CONCLAVE_LOBBY_FEED_MS", lobby_feed_ms, 0,
                60000,
                "lobby changes within this many ms reach the feed as one "
                "batch; 0 sends each (500)"),
    INT_SETTING("idle-seat-seconds", "CONCLAVE_IDLE_SEAT_SECONDS",
                idle_seat_seconds, 0, 31536000,
                "seconds without a request after which a player's seat in "
                "an open lobby (not the host's) is released; 0 never "
                "(1800)"),
    INT_SETTING("test-hooks", "CONCLAVE_TEST_HOOKS", test_hooks, 0, 1,
                "1 accepts test-only request fields (a fixed game seed on "
                "a lobby's start); tests only, never in production (0)"),
    STR_SETTING("trusted-proxies", "CONCLAVE_TRUSTED_PROXIES", trusted_proxies,
                "comma list of CIDRs (10.0.0.0/8, ::1/128) whose "
                "X-Forwarded-For names the client for per-address limits "
                "(none)"),
    STR_SETTING("metrics-allow", "CONCLAVE_METRICS_ALLOW", metrics_allow,
                "comma list of CIDRs whose clients may read /metrics, "
                "besides loopback (none: loopback only)"),
    STR_SETTING("smtp-url", "CONCLAVE_SMTP_URL", smtp_url,
                "SMTP relay for notification mail, smtp://HOST:PORT (none: "
                "email off)"),
    STR_SETTING("smtp-from", "CONCLAVE_SMTP_FROM", smtp_from,
                "sender address of notification mail (conclave@localhost)"),
    STR_SETTING("public-url", "CONCLAVE_PUBLIC_URL", public_url,
                "the server's address in notification links "
                "(http://localhost:PORT)"),
    INT_SETTING("notify-retry-ms", "CONCLAVE_NOTIFY_RETRY_MS", notify_retry_ms,
                10, 3600000,
                "first retry delay of a failed notification, doubled each "
                "try (2000)"),
    INT_SETTING("notify-attempts", "CONCLAVE_NOTIFY_ATTEMPTS", notify_attempts,
                1, 100, "tries before a notification is given up (8)"),
    INT_SETTING("notify-tick-ms", "CONCLAVE_NOTIFY_TICK_MS", notify_tick_ms, 10,
                60000, "how often the notifier looks for work in ms (500)"),
    INT_SETTING("notify-when-active", "CONCLAVE_NOTIFY_WHEN_ACTIVE",
                notify_when_active, 0, 1,
                "1: notify players even while they have the game open, for "
                "tests (0)"),
    INT_SETTING("notify-message-window", "CONCLAVE_NOTIFY_MESSAGE_WINDOW",
                notify_message_window, 1, 86400,
                "seconds in which one private channel's messages make at most "
                "one notification per player (900)"),
    INT_SETTING("webhook-allow-private", "CONCLAVE_WEBHOOK_ALLOW_PRIVATE",
                webhook_allow_private, 0, 1,
                "1: webhooks may go to loopback and private addresses, for "
                "tests and development only, never in production (0)"),
    INT_SETTING("example-rulesets", "CONCLAVE_EXAMPLE_RULESETS",
                example_rulesets, 0, 1,
                "1: also offer the example rulesets (engine/examples), "
                "for tests (0)"),
};
#define NSETTINGS (sizeof settings / sizeof settings[0])

static int set_value(config *c, const setting *s, const char *value,
                     const char *source, char *err, size_t errlen)
{
    char *base = (char *)c + s->offset;
    if (s->size) {
        if (strlen(value) >= s->size) {
            snprintf(err, errlen, "%s: value longer than %zu bytes", source,
                     s->size - 1);
            return -1;
        }
        memcpy(base, value, strlen(value) + 1);
        return 0;
    }
    char *end = NULL;
    errno = 0;
    long v = strtol(value, &end, 10);
    if (errno || end == value || *end || v < s->min || v > s->max) {
        snprintf(err, errlen,
                 "%s: expected an integer from %ld to %ld, got "
                 "\"%s\"",
                 source, s->min, s->max, value);
        return -1;
    }
    memcpy(base, &(int){(int)v}, sizeof(int));
    return 0;
}

int config_from_env(config *c, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    c->http_port = 8080;
    c->ws_port = 8081;
    snprintf(c->bind_address, sizeof c->bind_address, "0.0.0.0");
    snprintf(c->database_url, sizeof c->database_url, "postgresql:///conclave");
    c->db_pool = 16;
    c->db_connect_timeout = 3;
    c->workers = 8;
    c->commit_writers = 2;
    c->db_prepare = 1;
    c->http_threads = 16;
    c->http_timeout = 30;
    c->http_per_ip = 64;
    c->snapshot_every = 50;
    c->idle_evict_seconds = 300;
    snprintf(c->smtp_from, sizeof c->smtp_from, "conclave@localhost");
    c->notify_retry_ms = 2000;
    c->notify_attempts = 8;
    c->notify_tick_ms = 500;
    c->notify_message_window = 900;
    c->rate_per_second = 50;
    c->rate_burst = 200;
    c->ws_max_message = 16384;
    c->ws_per_ip = 64;
    c->ws_max = 0;
    c->ws_queue = 128;
    c->ws_rate = 20;
    c->ws_rate_burst = 100;
    c->ws_ip_rate = 200;
    c->ws_ip_rate_burst = 1000;
    c->ws_auth_rate = 10;
    c->ws_auth_burst = 200;
    c->ws_rate_close = 100;
    c->ws_ping_seconds = 10;
    c->lobbies_per_player = 5;
    c->live_games_per_player = 5;
    c->async_games_per_player = 50;
    c->async_min_seconds = 60;
    c->vacation_days = 21;
    c->signups_per_hour = 20;
    c->signins_per_minute = 10;
    c->scrypt_concurrency = 2;
    c->order_changes = 100;
    c->lobby_feed_ms = 500;
    c->idle_seat_seconds = 1800;
    snprintf(c->web_root, sizeof c->web_root, "web");
    snprintf(c->sql_dir, sizeof c->sql_dir, "sql");
    snprintf(c->openapi_path, sizeof c->openapi_path, "api/openapi.yaml");
    snprintf(c->log_level, sizeof c->log_level, "info");
    snprintf(c->ws_event_lib, sizeof c->ws_event_lib, "poll");
    for (size_t i = 0; i < NSETTINGS; i++) {
        const char *v = getenv(settings[i].env);
        if (v && *v &&
            set_value(c, &settings[i], v, settings[i].env, err, errlen))
            return -1;
    }
    return 0;
}

int config_from_args(config *c, int argc, char **argv, char *err, size_t errlen)
{
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strncmp(arg, "--", 2) != 0) {
            snprintf(err, errlen, "unexpected argument \"%s\"", arg);
            return -1;
        }
        arg += 2;
        const char *eq = strchr(arg, '=');
        size_t namelen = eq ? (size_t)(eq - arg) : strlen(arg);
        const setting *s = NULL;
        for (size_t k = 0; k < NSETTINGS; k++) {
            if (strlen(settings[k].flag) == namelen &&
                strncmp(settings[k].flag, arg, namelen) == 0)
                s = &settings[k];
        }
        if (!s) {
            snprintf(err, errlen, "unknown option \"%s\" (see --help)",
                     argv[i]);
            return -1;
        }
        const char *value = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
        if (!value) {
            snprintf(err, errlen, "option --%s needs a value", s->flag);
            return -1;
        }
        if (set_value(c, s, value, s->flag, err, errlen))
            return -1;
    }
    return 0;
}

void config_print_help(FILE *out)
{
    fprintf(out, "Options (flag / environment variable):\n");
    for (size_t i = 0; i < NSETTINGS; i++)
        fprintf(out, "  --%-20s %-28s %s\n", settings[i].flag, settings[i].env,
                settings[i].help);
}

int config_client_ws_port(const config *cfg, int bound)
{
    if (cfg->public_ws_port > 0)
        return cfg->public_ws_port;
    return bound > 0 ? bound : cfg->ws_port;
}

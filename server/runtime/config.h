/*
 * config.h - the server's configuration: defaults, then environment, then
 * command-line flags (later wins). Plain data, filled once at start-up and
 * read-only afterwards, so every thread may read it without a lock.
 */
#ifndef CONCLAVE_CONFIG_H
#define CONCLAVE_CONFIG_H

#include <stdio.h>

typedef struct config {
    int http_port;              /* CONCLAVE_HTTP_PORT, --http-port (8080) */
    int ws_port;                /* CONCLAVE_WS_PORT, --ws-port (8081) */
    int public_ws_port;         /* CONCLAVE_PUBLIC_WS_PORT: the port clients
                                   use behind a proxy (0: ws_port as bound) */
    char bind_address[64];      /* CONCLAVE_BIND (0.0.0.0) */
    char database_url[1024];    /* DATABASE_URL, --database-url */
    int db_pool;                /* CONCLAVE_DB_POOL: connections (16) */
    int db_connect_timeout;     /* CONCLAVE_DB_CONNECT_TIMEOUT: seconds (3) */
    int workers;                /* CONCLAVE_WORKERS: game actor threads (8) */
    int commit_writers;         /* CONCLAVE_COMMIT_WRITERS: group-commit
                                   writer connections (2) */
    int db_prepare;             /* CONCLAVE_DB_PREPARE: prepared statements
                                   (1; server/store/db_stmt.h) */
    int http_threads;           /* CONCLAVE_HTTP_THREADS: MHD pool (16) */
    int http_timeout;           /* CONCLAVE_HTTP_TIMEOUT: idle seconds (30) */
    int drain_seconds;          /* CONCLAVE_DRAIN_SECONDS: on SIGTERM, /readyz
                                   says 503 this long first, so a load
                                   balancer moves traffic away (0) */
    int http_per_ip;            /* CONCLAVE_HTTP_PER_IP: connections (64) */
    int snapshot_every;         /* CONCLAVE_SNAPSHOT_EVERY: inputs (50) */
    int idle_evict_seconds;     /* CONCLAVE_IDLE_EVICT: seconds (300) */
    int rate_per_second;        /* CONCLAVE_RATE: requests/s per key (50) */
    int rate_burst;             /* CONCLAVE_RATE_BURST: bucket size (200) */
    int ws_max_message;         /* CONCLAVE_WS_MAX_MESSAGE: bytes (16384) */
    int ws_per_ip;              /* CONCLAVE_WS_PER_IP: connections (64) */
    int ws_max;                 /* CONCLAVE_WS_MAX: connections, all
                                   clients (0: from the descriptor limit,
                                   server/runtime/fdlimit.h) */
    int ws_queue;               /* CONCLAVE_WS_QUEUE: messages queued per
                                   connection before a slow reader is
                                   resynchronised with snapshots (128) */
    int ws_ping_seconds;        /* CONCLAVE_WS_PING: seconds (10) */
    int ws_rate;                /* CONCLAVE_WS_RATE: requests/s per
                                   connection (20) */
    int ws_rate_burst;          /* CONCLAVE_WS_RATE_BURST (100): a client
                                   may resubscribe to all its games */
    int ws_ip_rate;             /* CONCLAVE_WS_IP_RATE: requests/s per
                                   client IP (200) */
    int ws_ip_rate_burst;       /* CONCLAVE_WS_IP_RATE_BURST (1000) */
    int ws_auth_rate;           /* CONCLAVE_WS_AUTH_RATE: auth messages/s
                                   per client IP (10) */
    int ws_auth_burst;          /* CONCLAVE_WS_AUTH_BURST (200) */
    int ws_rate_close;          /* CONCLAVE_WS_RATE_CLOSE: requests refused
                                   (draining at ws_rate/s) before the
                                   connection is closed (100) */
    char allowed_origins[1024]; /* CONCLAVE_ALLOWED_ORIGINS: comma list;
                                   "" = the server's own HTTP origin */
    char web_root[512];         /* CONCLAVE_WEB_ROOT (web) */
    char sql_dir[512];          /* CONCLAVE_SQL_DIR (sql) */
    char openapi_path[512];     /* CONCLAVE_OPENAPI (api/openapi.yaml) */
    char log_level[16];         /* CONCLAVE_LOG_LEVEL (info) */
    char ws_event_lib[8];       /* CONCLAVE_WS_EVENT_LIB: "poll" (lws's own
                                   loop), "uv" (libuv) or "ev" (libev) (poll) */
    int example_rulesets;       /* CONCLAVE_EXAMPLE_RULESETS: 1 offers the
                                   example rulesets of engine/examples, for
                                   tests (0) */

    /* Notifications (server/notify*.c). */
    char smtp_url[512];     /* CONCLAVE_SMTP_URL: the relay (smtp://HOST:
                               PORT); "" = email off */
    char smtp_from[256];    /* CONCLAVE_SMTP_FROM (conclave@localhost) */
    char public_url[512];   /* CONCLAVE_PUBLIC_URL: the server's address
                               in links; "" = http://localhost:PORT */
    int notify_retry_ms;    /* CONCLAVE_NOTIFY_RETRY_MS: first backoff,
                               doubled each try (2000) */
    int notify_attempts;    /* CONCLAVE_NOTIFY_ATTEMPTS: tries before a
                               delivery is dead (8) */
    int notify_tick_ms;     /* CONCLAVE_NOTIFY_TICK_MS: how often the
                               notifier looks for work (500) */
    int notify_when_active; /* CONCLAVE_NOTIFY_WHEN_ACTIVE: 1 also tells
                               players who have the game open (tests) (0) */
    /* CONCLAVE_NOTIFY_MESSAGE_WINDOW: seconds in which one private
     * channel's messages make at most one notification per player (900) */
    int notify_message_window;
    int webhook_allow_private; /* CONCLAVE_WEBHOOK_ALLOW_PRIVATE: 1 lets
                                  webhooks reach loopback and private
                                  addresses (tests, development) (0) */

    /* Quotas and abuse bounds (docs/api.md, "Limits and quotas"). */
    int lobbies_per_player;     /* CONCLAVE_LOBBIES_PER_PLAYER: open lobbies
                                   one account hosts (5) */
    int live_games_per_player;  /* CONCLAVE_LIVE_GAMES_PER_PLAYER: running
                                   live-clock games it starts (5) */
    int async_min_seconds;      /* CONCLAVE_ASYNC_MIN_SECONDS: shortest async
                                   window (60) */
    int vacation_days;          /* CONCLAVE_VACATION_DAYS: per player a year */
    int async_games_per_player; /* CONCLAVE_ASYNC_GAMES_PER_PLAYER: running
                                   async or unclocked games (50) */
    int signups_per_hour;       /* CONCLAVE_SIGNUPS_PER_HOUR: accounts created
                                   per client IP per hour (20) */
    int signins_per_minute;     /* CONCLAVE_SIGNINS_PER_MINUTE: password
                                   checks per client IP per minute (10) */
    int scrypt_concurrency;     /* CONCLAVE_SCRYPT_CONCURRENCY: password
                                   hashes computed at once (2) */
    int order_changes;          /* CONCLAVE_ORDER_CHANGES: order inputs per
                                   seat per window (100) */
    int lobby_feed_ms;          /* CONCLAVE_LOBBY_FEED_MS: lobby changes
                                   within this many ms reach the feed as one
                                   batch (500) */
    /* CONCLAVE_IDLE_SEAT_SECONDS: a player seated in an open lobby (not its
     * host) who makes no authenticated request for this long loses the
     * seat; 0 never (1800) */
    int idle_seat_seconds;
    /* CONCLAVE_TRUSTED_PROXIES: comma list of CIDRs whose X-Forwarded-For
     * is believed for per-address limits; "" none (common/trusted_proxy.h) */
    char trusted_proxies[1024];
    /* CONCLAVE_METRICS_ALLOW: comma list of CIDRs (besides loopback) whose
     * clients may read /metrics; "" loopback only */
    char metrics_allow[1024];
    /* CONCLAVE_TEST_HOOKS: 1 accepts request fields meant for tests only
     * (a fixed game seed on POST .../start); never set in production (0) */
    int test_hooks;
} config;

/* Defaults, then environment. Returns 0, or -1 with a message in err. */
int config_from_env(config *c, char *err, size_t errlen);
/* Apply --flag VALUE / --flag=VALUE options from argv[1..]; returns 0, or -1
 * with a message in err for an unknown flag or a bad value. */
int config_from_args(config *c, int argc, char **argv, char *err,
                     size_t errlen);
/* The flags and variables, for --help. */
void config_print_help(FILE *out);

/* The WebSocket port a client should use: public_ws_port when a proxy
 * stands in front, else the port the hub bound (bound; 0 if unknown:
 * cfg->ws_port). */
int config_client_ws_port(const config *cfg, int bound);

#endif

/*
 * h_service.c - service endpoints (health, readiness, metrics, the OpenAPI
 * document) and the static files of the web client.
 *
 * /readyz answers from a cached probe: the database is asked at most once
 * per READY_CACHE_SECONDS, by one request at a time; every other request
 * in between gets the last answer, so a flood of /readyz is no flood of
 * database queries. /metrics renders the in-process registry only.
 */
#include "api/api.h"
#include "api/body.h"
#include "api/suspend.h"

#include "server/hub/hub.h"
#include "server/runtime/metrics.h"
#include "server/store/migrate.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void api_h_healthz(api_request *req, api_response *res)
{
    app *a = req->app;
    int ws_port = config_client_ws_port(a->cfg, a->hub ? hub_port(a->hub) : 0);
    api_json(res, 200,
             json_pack("{ss si}", "status", "ok", "ws_port", ws_port));
}

#define READY_CACHE_SECONDS 0.25

/* The last probe: guarded by ready_lock; `probing` lets one request ask
 * the database while the others answer from the cache. */
static pthread_mutex_t ready_lock = PTHREAD_MUTEX_INITIALIZER;
static double ready_at = -1;     /* monotonic seconds of the last probe */
static int ready_migration = -1; /* its answer: <0 unreachable */
static int probing;

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The database's migration number, probed at most every
 * READY_CACHE_SECONDS. */
static int ready_probe(app *a)
{
    double now = mono_s();
    pthread_mutex_lock(&ready_lock);
    int cached = ready_migration;
    /* Before the first answer, every request asks for itself. */
    int ask =
        ready_at < 0 || (!probing && now - ready_at >= READY_CACHE_SECONDS);
    if (ask)
        probing = 1;
    pthread_mutex_unlock(&ready_lock);
    if (!ask)
        return cached;
    int current;
    migrate_probe(a->db, &current);
    pthread_mutex_lock(&ready_lock);
    ready_migration = current;
    ready_at = mono_s();
    probing = 0;
    pthread_mutex_unlock(&ready_lock);
    return current;
}

void api_h_readyz(api_request *req, api_response *res)
{
    app *a = req->app;
    if (atomic_load(&a->draining)) {
        /* A load balancer's health check: send new traffic elsewhere. */
        api_problem(res, 503, "the server is shutting down", NULL);
        return;
    }
    int current = ready_probe(a);
    if (current < 0) {
        api_problem(res, 503, "the database is unreachable", NULL);
        return;
    }
    if (current < a->migrations_expected) {
        api_problem(res, 503, "database migrations are not applied", NULL);
        return;
    }
    api_json(res, 200,
             json_pack("{ss si}", "status", "ready", "migration", current));
}

/* /metrics is for the operator's scraper, not the public: its counters
 * are per-process aggregates (inputs committed, request timings), and a
 * process that hosts one game tells its move times, a side door around
 * the spectator delay (server/game/spectate.h). So only clients on
 * loopback or in CONCLAVE_METRICS_ALLOW read it (the client as the trusted
 * proxies name it); a loopback client that comes with an X-Forwarded-For
 * is someone forwarded by an untrusted local proxy, refused too. */
static int metrics_allowed(const api_request *req)
{
    const app *a = req->app;
    if (!trusted_proxies_has(&a->metrics_allow, req->client_ip))
        return 0;
    trusted_proxies loop = {0};
    char err[64];
    if (req_header(req, "X-Forwarded-For") &&
        trusted_proxies_parse("127.0.0.0/8, ::1/128", &loop, err, sizeof err) ==
            0 &&
        trusted_proxies_has(&loop, req->client_ip))
        return 0;
    return 1;
}

void api_h_metrics(api_request *req, api_response *res)
{
    if (!metrics_allowed(req)) {
        api_problem(res, 403,
                    "metrics are served to loopback and the addresses of "
                    "CONCLAVE_METRICS_ALLOW only",
                    NULL);
        return;
    }
    metrics_gauge("conclave_http_suspended",
                  "HTTP requests suspended now, waiting for a game's actor.",
                  (double)api_server_suspended(req->srv));
    char *text = metrics_render();
    if (!text) {
        api_problem(res, 500, "out of memory", NULL);
        return;
    }
    res->status = 200;
    res->content_type = "text/plain; version=0.0.4";
    res->raw = text;
    res->raw_len = strlen(text);
}

/* Open path for sending; fills res or returns -1 when missing. The file's
 * entity tag is its size and modification time: a client that revalidates
 * with If-None-Match (the page's files are sent with "Cache-Control:
 * no-cache") gets an empty 304 while the file is unchanged. */
static int send_file(const api_request *req, api_response *res,
                     const char *path, const char *type)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return -1;
    }
    res->status = 200;
    res->content_type = type;
    snprintf(res->etag, sizeof res->etag, "\"%llx-%llx.%lx\"",
             (unsigned long long)st.st_size,
             (unsigned long long)st.st_mtim.tv_sec,
             (unsigned long)st.st_mtim.tv_nsec);
    if (req_none_match(req, res->etag)) {
        close(fd);
        res->status = 304;
        res->not_modified = 1;
        return 0;
    }
    res->fd = fd;
    res->fd_len = (size_t)st.st_size;
    return 0;
}

void api_h_openapi(api_request *req, api_response *res)
{
    if (send_file(req, res, req->app->cfg->openapi_path,
                  "application/yaml; charset=utf-8") != 0)
        api_problem(res, 404, "the OpenAPI document is not installed", NULL);
}

static const char *content_type_of(const char *path)
{
    static const struct {
        const char *ext, *type;
    } types[] = {
        {".html", "text/html; charset=utf-8"},
        {".js", "text/javascript; charset=utf-8"},
        {".mjs", "text/javascript; charset=utf-8"},
        {".css", "text/css; charset=utf-8"},
        {".json", "application/json"},
        {".svg", "image/svg+xml"},
        {".png", "image/png"},
        {".ico", "image/x-icon"},
        {".webmanifest", "application/manifest+json"},
        {".txt", "text/plain; charset=utf-8"},
    };
    const char *dot = strrchr(path, '.');
    for (size_t i = 0; dot && i < sizeof types / sizeof types[0]; i++)
        if (strcmp(dot, types[i].ext) == 0)
            return types[i].type;
    return "application/octet-stream";
}

void api_serve_static(api_request *req, api_response *res)
{
    const char *p = req->path;
    /* Only plain relative names: letters, digits, '-', '_', '.', '/', and
     * never "..": nothing outside web_root can be named. */
    if (p[0] != '/' || strstr(p, "..") || strstr(p, "//")) {
        api_problem(res, 404, "no such file", NULL);
        return;
    }
    for (const char *c = p; *c; c++) {
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
              (*c >= '0' && *c <= '9') || strchr("-_./", *c))) {
            api_problem(res, 404, "no such file", NULL);
            return;
        }
    }
    char path[1024];
    const char *name = strcmp(p, "/") == 0 ? "/index.html" : p;
    if ((size_t)snprintf(path, sizeof path, "%s%s", req->app->cfg->web_root,
                         name) >= sizeof path ||
        send_file(req, res, path, content_type_of(path)) != 0) {
        /* The page names its icon inline; a browser that shows another
         * document of ours (/healthz, a JSON answer) asks for
         * /favicon.ico anyway: "no icon", not an error in its console. */
        if (strcmp(name, "/favicon.ico") == 0) {
            res->status = 204;
            return;
        }
        /* Client-side routes (/game/ID, /lobby/ID) load the page itself. */
        if (!strchr(name + 1, '.') &&
            (size_t)snprintf(path, sizeof path, "%s/index.html",
                             req->app->cfg->web_root) < sizeof path &&
            send_file(req, res, path, "text/html; charset=utf-8") == 0)
            return;
        api_problem(res, 404, "no such file", NULL);
    }
}

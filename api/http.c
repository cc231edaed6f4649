/*
 * http.c - the libmicrohttpd server: request lifecycle, body reading,
 * dispatch through the route table, response building, request metrics.
 *
 * Threads: libmicrohttpd's internal pool (epoll) runs on_request and
 * on_completed; a request's state belongs to the one connection thread
 * that runs it, except while it is suspended waiting for a game's actor
 * (api/suspend.h): the worker that answers resumes it. The shared mutable
 * fields are `inflight` and `suspended` (atomic).
 */
#include "api/api.h"

#include "api/abuse_log.h"
#include "api/auth.h"
#include "api/ratelimit.h"
#include "api/suspend.h"
#include "server/hub/hub.h"
#include "server/runtime/log.h"
#include "server/runtime/metrics.h"
#include "server/store/db.h"

#include <arpa/inet.h>
#include <microhttpd.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

struct api_server {
    app *app;
    struct MHD_Daemon *daemon;
    int port;
    atomic_int inflight;  /* requests between first call and completion */
    atomic_int suspended; /* requests waiting for an actor's answer */
};

int api_server_suspended(const api_server *srv)
{
    return srv ? atomic_load(&srv->suspended) : 0;
}

void api_server_note_suspended(api_server *srv, int delta)
{
    if (srv)
        atomic_fetch_add(&srv->suspended, delta);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A static copy of the method: MHD's string lives in the connection's
 * buffer, while metrics keep method names for the life of the process. */
static const char *intern_method(const char *m)
{
    static const char *const known[] = {"GET",    "HEAD",    "POST", "PUT",
                                        "DELETE", "OPTIONS", "PATCH"};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(m, known[i]) == 0)
            return known[i];
    return "OTHER";
}

static void response_init(api_response *res)
{
    memset(res, 0, sizeof *res);
    res->fd = -1;
}

#define XFF_MAX 1024 /* X-Forwarded-For values kept, joined */

typedef struct xff_buf {
    char text[XFF_MAX];
    int over; /* the values did not fit: believe none of them */
} xff_buf;

/* Appends each X-Forwarded-For value (in the order received) to the
 * xff_buf in cls, comma-separated. */
static enum MHD_Result join_xff(void *cls, enum MHD_ValueKind kind,
                                const char *key, const char *value)
{
    (void)kind;
    xff_buf *x = cls;
    if (strcasecmp(key, "X-Forwarded-For") != 0 || !value)
        return MHD_YES;
    size_t at = strlen(x->text);
    int w = snprintf(x->text + at, XFF_MAX - at, "%s%s", at ? ", " : "", value);
    if (w < 0 || (size_t)w >= XFF_MAX - at)
        x->over = 1;
    return MHD_YES;
}

/* The client's address: the peer, or behind a trusted proxy the address
 * its X-Forwarded-For names (common/trusted_proxy.h). */
static void client_ip(const app *a, struct MHD_Connection *conn, char *out,
                      size_t n)
{
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    char peer[64] = "unknown";
    if (!ci || !ci->client_addr) {
        snprintf(out, n, "%s", peer);
        return;
    }
    const struct sockaddr *sa = ci->client_addr;
    if (sa->sa_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, peer,
                  sizeof peer);
    else if (sa->sa_family == AF_INET6)
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, peer,
                  sizeof peer);
    if (!trusted_proxies_has(&a->proxies, peer)) {
        snprintf(out, n, "%s", peer);
        return;
    }
    xff_buf x = {.text = "", .over = 0};
    MHD_get_connection_values(conn, MHD_HEADER_KIND, join_xff, &x);
    trusted_proxies_client(&a->proxies, peer,
                           x.text[0] && !x.over ? x.text : NULL, out, n);
}

/* The page's Content-Security-Policy: its own scripts, styles, images and
 * HTTP API, the WebSocket port of the host it was loaded from, and no
 * framing by any other page. Written into out (size n). */
static void page_policy(const api_request *req, char *out, size_t n)
{
    const app *a = req->app;
    int ws_port = config_client_ws_port(a->cfg, a->hub ? hub_port(a->hub) : 0);
    const char *host = MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND,
                                                   MHD_HTTP_HEADER_HOST);
    char name[256] = "";
    /* The host without its port; an IPv6 literal keeps its brackets. */
    if (host && strlen(host) < sizeof name &&
        strspn(host, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                     "0123456789.-:[]") == strlen(host)) {
        snprintf(name, sizeof name, "%s", host);
        char *colon = strrchr(name, ':');
        char *bracket = strrchr(name, ']');
        if (colon && (!bracket || colon > bracket))
            *colon = '\0';
    }
    char ws[600] = "ws: wss:";
    if (name[0])
        snprintf(ws, sizeof ws, "ws://%s:%d wss://%s:%d", name, ws_port, name,
                 ws_port);
    snprintf(out, n,
             "default-src 'self'; script-src 'self'; style-src 'self'; "
             "img-src 'self' data:; connect-src 'self' %s; object-src "
             "'none'; base-uri 'none'; form-action 'self'; frame-ancestors "
             "'none'",
             ws);
}

/* Turn an api_response into an MHD response and queue it. */
static enum MHD_Result send_response(struct MHD_Connection *conn,
                                     api_request *req, api_response *res)
{
    struct MHD_Response *r = NULL;
    const char *type = res->content_type;
    if (res->not_modified) {
        r = MHD_create_response_from_buffer(0, (void *)"",
                                            MHD_RESPMEM_PERSISTENT);
    } else if (res->fd >= 0) {
        r = MHD_create_response_from_fd(res->fd_len, res->fd);
        res->fd = -1; /* MHD closes it */
    } else if (res->raw) {
        r = MHD_create_response_from_buffer(res->raw_len, res->raw,
                                            MHD_RESPMEM_MUST_FREE);
        res->raw = NULL;
    } else {
        char *text =
            res->json ? json_dumps(res->json, JSON_COMPACT | JSON_ENSURE_ASCII)
                      : NULL;
        if (res->json && !text) {
            res->status = 500;
        }
        if (!type)
            type = res->status >= 400 ? "application/problem+json"
                                      : "application/json";
        if (text)
            r = MHD_create_response_from_buffer(strlen(text), text,
                                                MHD_RESPMEM_MUST_FREE);
        else
            r = MHD_create_response_from_buffer(0, (void *)"",
                                                MHD_RESPMEM_PERSISTENT);
    }
    if (!r)
        return MHD_NO;
    if (type && !res->not_modified)
        MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    if (res->etag[0])
        MHD_add_response_header(r, MHD_HTTP_HEADER_ETAG, res->etag);
    if (res->location[0])
        MHD_add_response_header(r, MHD_HTTP_HEADER_LOCATION, res->location);
    if (res->retry_after > 0) {
        char v[16];
        snprintf(v, sizeof v, "%d", res->retry_after);
        MHD_add_response_header(r, MHD_HTTP_HEADER_RETRY_AFTER, v);
    }
    if (strncmp(req->path, "/api/", 5) == 0) {
        MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    } else {
        /* The page's files: kept, but revalidated on every use (their
         * ETag answers 304 while unchanged), so a new version is seen at
         * once. */
        MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache");
        char policy[800];
        page_policy(req, policy, sizeof policy);
        MHD_add_response_header(r, "Content-Security-Policy", policy);
        MHD_add_response_header(r, "X-Frame-Options", "DENY");
    }
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    int status = res->not_modified ? 304 : res->status;
    enum MHD_Result ret = MHD_queue_response(conn, (unsigned)status, r);
    MHD_destroy_response(r);
    return ret;
}

static void response_free(api_response *res)
{
    json_decref(res->json);
    free(res->raw);
    if (res->fd >= 0)
        close(res->fd);
}

static void too_large(const api_request *req, api_response *res)
{
    char detail[128];
    snprintf(detail, sizeof detail,
             "the request body is larger than %zu KiB (%zu bytes), the most "
             "this route takes",
             req->body_limit / 1024, req->body_limit);
    api_problem(res, 413, detail, NULL);
}

static void dispatch(api_request *req, api_response *res)
{
    int path_known = 0;
    if (strncmp(req->path, "/api/", 5) == 0 && api_ratelimit(req, res) != 0)
        return; /* 429 */
    req->route =
        api_route_match(req->method, req->path, req->params, &path_known);
    if (req->body_too_large) {
        too_large(req, res);
        return;
    }
    if (!req->route) {
        if (path_known) {
            api_problem(res, 405, "this method is not allowed on this path",
                        NULL);
            return;
        }
        if (strcmp(req->method, "GET") == 0 ||
            strcmp(req->method, "HEAD") == 0) {
            if (strncmp(req->path, "/api/", 5) != 0) {
                api_serve_static(req, res);
                return;
            }
        }
        api_problem(res, 404, "no such resource", NULL);
        return;
    }
    if (req->route->auth != API_AUTH_NONE && api_authenticate(req, res) != 0) {
        if (res->status == 401)
            api_abuse_note("auth_failed", req->client_ip);
        return; /* res holds the 401/429/503 */
    }
    req->route->handler(req, res);
}

/* The most body bytes the route for method and path reads: the largest
 * order any ruleset takes for order routes, else API_MAX_BODY. Known from
 * the request line, so a larger Content-Length is refused unread. */
static size_t body_limit(const char *method, const char *path)
{
    char params[API_MAX_PARAMS][API_PARAM_MAX];
    int known = 0;
    return api_route_body_limit(api_route_match(method, path, params, &known));
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn,
                                  const char *url, const char *method,
                                  const char *version, const char *upload,
                                  size_t *upload_size, void **state)
{
    api_server *srv = cls;
    (void)version;
    db_thread_serves_requests(); /* a pool thread: count its round trips */
    api_request *req = *state;
    if (!req) {
        req = calloc(1, sizeof *req);
        if (!req)
            return MHD_NO;
        req->app = srv->app;
        req->srv = srv;
        req->conn = conn;
        req->method = intern_method(method);
        req->path = url;
        req->started = now_s();
        client_ip(srv->app, conn, req->client_ip, sizeof req->client_ip);
        *state = req;
        atomic_fetch_add(&srv->inflight, 1);
        req->body_limit = body_limit(req->method, url);
        const char *len = MHD_lookup_connection_value(
            conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (len && strtoull(len, NULL, 10) > req->body_limit) {
            /* Answer now, before a byte of the body is read: MHD then
             * skips the body and closes the connection after the 413. */
            req->body_too_large = 1;
            api_response res;
            response_init(&res);
            too_large(req, &res);
            enum MHD_Result ret = send_response(conn, req, &res);
            req->sent_status = res.status;
            response_free(&res);
            return ret;
        }
        return MHD_YES;
    }
    if (*upload_size) {
        if (!req->body_too_large) {
            if (req->body_len + *upload_size > req->body_limit) {
                req->body_too_large = 1;
            } else {
                char *grown =
                    realloc(req->body, req->body_len + *upload_size + 1);
                if (!grown)
                    return MHD_NO;
                req->body = grown;
                memcpy(req->body + req->body_len, upload, *upload_size);
                req->body_len += *upload_size;
                req->body[req->body_len] = '\0';
            }
        }
        *upload_size = 0;
        return MHD_YES;
    }
    api_response res;
    response_init(&res);
    if (api_waiting(req)) {
        /* Resumed: the actor has answered (api/suspend.h). */
        if (api_resumed(req, &res) != 0)
            return MHD_YES; /* not yet: stays suspended */
    } else {
        dispatch(req, &res);
        if (api_waiting(req))
            return MHD_YES; /* suspended until the actor answers */
    }
    if (!res.status)
        api_problem(&res, 500, "the handler gave no answer", NULL);
    enum MHD_Result ret = send_response(conn, req, &res);
    req->sent_status = res.not_modified ? 304 : res.status;
    response_free(&res);
    return ret;
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **state,
                         enum MHD_RequestTerminationCode code)
{
    api_server *srv = cls;
    (void)conn;
    (void)code;
    api_request *req = *state;
    if (!req)
        return;
    int status = req->sent_status;
    const char *route = req->route ? req->route->pattern
                        : strncmp(req->path, "/api/", 5) == 0 ? "unmatched"
                                                              : "static";
    if (status)
        metrics_observe_http(route, req->method, status,
                             now_s() - req->started);
    api_wait_free(req);
    free(req->body);
    free(req);
    *state = NULL;
    atomic_fetch_sub(&srv->inflight, 1);
}

api_server *api_server_start(app *a, char *err, size_t errlen)
{
    api_server *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->app = a;
    atomic_init(&s->inflight, 0);
    atomic_init(&s->suspended, 0);
    struct sockaddr_in addr;
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_port = htons((uint16_t)a->cfg->http_port);
    if (inet_pton(AF_INET, a->cfg->bind_address, &addr.sin_addr) != 1) {
        snprintf(err, errlen, "bad bind address \"%s\"", a->cfg->bind_address);
        free(s);
        return NULL;
    }
    s->daemon = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ITC |
            MHD_USE_TURBO | MHD_ALLOW_SUSPEND_RESUME,
        (uint16_t)a->cfg->http_port, NULL, NULL, on_request, s,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&addr,
        MHD_OPTION_THREAD_POOL_SIZE, (unsigned)a->cfg->http_threads,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)a->cfg->http_timeout,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)a->cfg->http_per_ip,
        MHD_OPTION_CONNECTION_LIMIT,
        (unsigned)(a->fds.http_max > 0 ? a->fds.http_max : FD_HTTP_MAX),
        MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned)1024,
        MHD_OPTION_NOTIFY_COMPLETED, on_completed, s, MHD_OPTION_END);
    if (!s->daemon) {
        snprintf(err, errlen, "cannot listen on %s:%d (port in use?)",
                 a->cfg->bind_address, a->cfg->http_port);
        free(s);
        return NULL;
    }
    const union MHD_DaemonInfo *info =
        MHD_get_daemon_info(s->daemon, MHD_DAEMON_INFO_BIND_PORT);
    s->port = info ? info->port : a->cfg->http_port;
    return s;
}

int api_server_port(const api_server *s)
{
    return s->port;
}

void api_server_stop(api_server *s)
{
    if (!s)
        return;
    /* Stop accepting but keep serving open connections; the listening
     * socket is handed back to us to close, so new connects are refused. */
    MHD_socket listen_fd = MHD_quiesce_daemon(s->daemon);
    if (listen_fd != MHD_INVALID_SOCKET)
        close(listen_fd);
    struct timespec tick = {0, 50 * 1000000L};
    for (int i = 0; i < 100 && atomic_load(&s->inflight) > 0; i++)
        nanosleep(&tick, NULL); /* up to 5 s for in-flight requests */
    /* libmicrohttpd must not stop with a connection suspended, and an
     * actor's answer resumes through the daemon: wait for every answer
     * (the actors still run; each input is answered once). If one does
     * not come in a minute the daemon is left running, not freed under
     * a worker that will still resume through it. */
    int i = 0;
    for (; i < 1200 && atomic_load(&s->suspended) > 0; i++)
        nanosleep(&tick, NULL);
    if (atomic_load(&s->suspended) > 0) {
        log_error("http_stop_suspended",
                  json_pack("{si}", "requests", atomic_load(&s->suspended)));
        return;
    }
    if (i > 0) /* a resumed request is answered by the daemon's threads */
        for (int j = 0; j < 20 && atomic_load(&s->inflight) > 0; j++)
            nanosleep(&tick, NULL);
    MHD_stop_daemon(s->daemon);
    free(s);
}

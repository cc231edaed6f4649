/*
 * api.h - the HTTP edge's shared types: requests, responses, the route
 * table, and the helpers every handler uses.
 *
 * A handler runs on one of libmicrohttpd's pool threads with a fully read
 * body; it fills an api_response and returns. It may block (on the database)
 * but must not keep pointers into the request after it returns; a handler
 * that sends a game an input hands it over with api_submit (api/suspend.h),
 * which suspends the request until the game's actor answers. Errors are
 * application/problem+json (RFC 9457).
 */
#ifndef CONCLAVE_API_H
#define CONCLAVE_API_H

#include "common/errors.h"
#include "server/runtime/app.h"

#include <jansson.h>
#include <stddef.h>

#define API_MAX_BODY (64 * 1024) /* bodies of routes without order_body */
#define API_MAX_PARAMS 3
#define API_PARAM_MAX 128

struct MHD_Connection;
typedef struct api_server api_server;
typedef struct api_wait api_wait; /* api/suspend.h */

typedef struct api_request {
    app *app;
    struct MHD_Connection *conn;
    const char *method;
    const char *path;
    const struct api_route *route;              /* NULL when none matched */
    char params[API_MAX_PARAMS][API_PARAM_MAX]; /* {placeholders} in order */
    char *body; /* NUL-terminated; may be NULL */
    size_t body_len;
    size_t body_limit; /* bytes this route reads, at most */
    int body_too_large;
    double started;  /* monotonic seconds */
    int sent_status; /* set once the response is queued */
    char client_ip[64];
    /* Filled by authentication when the route asks for it. */
    int authenticated;
    char player_id[64];
    char player_name[32];
    api_server *srv; /* the server the request came to */
    api_wait *wait;  /* set while it waits for a game's actor (suspend.h) */
} api_request;

typedef struct api_response {
    int status;
    json_t *json;             /* body, or NULL */
    const char *content_type; /* NULL: JSON (or problem+json for errors) */
    char *raw;                /* a non-JSON body (malloc'd, freed by us) */
    size_t raw_len;
    int fd; /* a file to send, or -1 */
    size_t fd_len;
    char etag[80];
    char location[256];
    int retry_after; /* seconds, 0 = none */
    int not_modified;
} api_response;

typedef void (*api_handler)(api_request *req, api_response *res);

typedef enum {
    API_AUTH_NONE = 0,     /* no token looked at */
    API_AUTH_OPTIONAL = 1, /* a valid token identifies the caller; none is ok */
    API_AUTH_REQUIRED = 2  /* 401 without a valid token */
} api_auth;

typedef struct api_route {
    const char *method;  /* "GET", "POST", ... */
    const char *pattern; /* "/api/v1/games/{id}", also the metrics label */
    api_handler handler;
    api_auth auth;
} api_route;

/* The table, ending with a sentinel whose method is NULL (api/routes.c). */
extern const api_route api_routes[];

/* Match method and path; fills req->params. Returns the route, or NULL and
 * sets *path_known when the path matched under another method (405). */
const api_route *api_route_match(const char *method, const char *path,
                                 char params[API_MAX_PARAMS][API_PARAM_MAX],
                                 int *path_known);

/* The most body bytes route r (NULL: none matched) reads: for the routes
 * whose body is a sealed order or a part of one, the largest
 * engine_max_order_bytes of any ruleset (their handlers then hold it to
 * their game's); API_MAX_BODY for every other. Cannot fail. */
size_t api_route_body_limit(const api_route *r);

/* Response helpers. api_json steals body. */
void api_json(api_response *res, int status, json_t *body);
void api_problem(api_response *res, int status, const char *detail,
                 const char *field);
/* A problem for a server failure: its kind's status (srv_kind_status of
 * common/errors.h), detail and field;
 * Retry-After: 1 on 503. */
void api_problem_srv(api_response *res, const srv_error *e);

/* Service handlers (api/h_service.c). */
void api_h_healthz(api_request *req, api_response *res);
void api_h_readyz(api_request *req, api_response *res);
void api_h_metrics(api_request *req, api_response *res);
void api_h_openapi(api_request *req, api_response *res);
/* Static files of the web client under cfg->web_root; 404 otherwise. */
void api_serve_static(api_request *req, api_response *res);

/* The HTTP server (api/http.c). */
/* Starts listening; NULL with err filled on failure. */
api_server *api_server_start(app *a, char *err, size_t errlen);
/* The port actually bound (useful with port 0). */
int api_server_port(const api_server *s);
/* Stop accepting, let in-flight requests finish, free. */
void api_server_stop(api_server *s);

#endif

/*
 * routes.c - the route table (method, path pattern, handler, auth) and the
 * matcher. Patterns are literal segments and {name} placeholders, each
 * placeholder matching one non-empty path segment. The pattern doubles as
 * the route's label in metrics, so raw ids never become metric labels.
 */
#include "api/api.h"

#include "api/handlers.h"
#include "engine/engine.h"

#include <string.h>

const api_route api_routes[] = {
    {"GET", "/healthz", api_h_healthz, API_AUTH_NONE},
    {"GET", "/readyz", api_h_readyz, API_AUTH_NONE},
    {"GET", "/metrics", api_h_metrics, API_AUTH_NONE},
    {"GET", "/api/v1/openapi.yaml", api_h_openapi, API_AUTH_NONE},
    API_V1_ROUTES{NULL, NULL, NULL, API_AUTH_NONE},
};

/* Does path match pattern? Fills params with the placeholder segments. */
static int match(const char *pattern, const char *path,
                 char params[API_MAX_PARAMS][API_PARAM_MAX])
{
    int np = 0;
    const char *p = pattern, *s = path;
    while (*p && *s) {
        if (*p == '{') {
            const char *close = strchr(p, '}');
            const char *end = strchr(s, '/');
            size_t len = end ? (size_t)(end - s) : strlen(s);
            if (!close || len == 0 || len >= API_PARAM_MAX ||
                np >= API_MAX_PARAMS)
                return 0;
            memcpy(params[np], s, len);
            params[np][len] = '\0';
            np++;
            p = close + 1;
            s += len;
            continue;
        }
        if (*p != *s)
            return 0;
        p++;
        s++;
    }
    return *p == '\0' && *s == '\0';
}

const api_route *api_route_match(const char *method, const char *path,
                                 char params[API_MAX_PARAMS][API_PARAM_MAX],
                                 int *path_known)
{
    char scratch[API_MAX_PARAMS][API_PARAM_MAX];
    *path_known = 0;
    for (const api_route *r = api_routes; r->method; r++) {
        if (!match(r->pattern, path, scratch))
            continue;
        if (strcmp(r->method, method) == 0 ||
            (strcmp(method, "HEAD") == 0 && strcmp(r->method, "GET") == 0)) {
            memcpy(params, scratch, sizeof scratch);
            return r;
        }
        *path_known = 1;
    }
    return NULL;
}

size_t api_route_body_limit(const api_route *r)
{
    if (r && (r->handler == api_h_game_order_put ||
              r->handler == api_h_game_part_put)) {
        size_t most = engine_max_order_bytes_any();
        return most > API_MAX_BODY ? most : API_MAX_BODY;
    }
    return API_MAX_BODY;
}

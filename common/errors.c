/*
 * errors.c - the server's failure kinds: their names, the statuses both
 * edges show for them, and filling a srv_error (see errors.h).
 */
#include "common/errors.h"

#include <stdarg.h>
#include <stdio.h>

static const char *const names[SRV_KIND_COUNT] = {
    [SRV_OK] = "ok",
    [SRV_INVALID] = "invalid",
    [SRV_UNAUTHORIZED] = "unauthorized",
    [SRV_FORBIDDEN] = "forbidden",
    [SRV_NOT_FOUND] = "not_found",
    [SRV_CONFLICT] = "conflict",
    [SRV_PRECONDITION] = "precondition_failed",
    [SRV_GONE] = "gone",
    [SRV_TOO_LARGE] = "too_large",
    [SRV_TOO_MANY] = "too_many",
    [SRV_UNAVAILABLE] = "unavailable",
    [SRV_INTERNAL] = "internal",
    [SRV_MALFORMED] = "malformed",
};

const char *srv_kind_name(srv_kind k)
{
    if ((int)k < 0 || k >= SRV_KIND_COUNT || !names[k])
        return "internal";
    return names[k];
}

/* The one table from failure kinds to statuses (HTTP, and the WebSocket
 * error message's "status"). */
static const int kind_status[SRV_KIND_COUNT] = {
    [SRV_OK] = 200,           [SRV_INVALID] = 422,     [SRV_UNAUTHORIZED] = 401,
    [SRV_FORBIDDEN] = 403,    [SRV_NOT_FOUND] = 404,   [SRV_CONFLICT] = 409,
    [SRV_PRECONDITION] = 412, [SRV_GONE] = 410,        [SRV_TOO_LARGE] = 413,
    [SRV_TOO_MANY] = 429,     [SRV_UNAVAILABLE] = 503, [SRV_INTERNAL] = 500,
    [SRV_MALFORMED] = 400,
};

int srv_kind_status(srv_kind k)
{
    if ((int)k < 0 || k >= SRV_KIND_COUNT || !kind_status[k])
        return 500;
    return kind_status[k];
}

srv_kind srv_fail(srv_error *err, srv_kind kind, const char *field,
                  const char *fmt, ...)
{
    if (!err)
        return kind;
    err->kind = kind;
    snprintf(err->field, sizeof err->field, "%s", field ? field : "");
    err->detail[0] = '\0';
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->detail, sizeof err->detail, fmt, ap);
        va_end(ap);
    }
    return kind;
}

srv_kind srv_db_failed(srv_error *err)
{
    return srv_fail(err, SRV_UNAVAILABLE, NULL,
                    "the database is unreachable; retry shortly");
}

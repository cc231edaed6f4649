/*
 * errors.c - names of the server's failure kinds (see errors.h).
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

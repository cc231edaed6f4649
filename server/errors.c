/*
 * errors.c - names of the server's failure kinds (see errors.h).
 */
#include "server/errors.h"

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
};

const char *srv_kind_name(srv_kind k)
{
    if ((int)k < 0 || k >= SRV_KIND_COUNT || !names[k])
        return "internal";
    return names[k];
}

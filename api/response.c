/*
 * response.c - building JSON and problem+json (RFC 9457) responses, a
 * server failure's among them (its status from common/errors.h's table).
 */
#include "api/api.h"

#include "common/errors.h"

#include "engine/engine.h"

#include <stdlib.h>
#include <string.h>

static const char *status_title(int status)
{
    switch (status) {
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 409:
        return "Conflict";
    case 410:
        return "Gone";
    case 412:
        return "Precondition Failed";
    case 413:
        return "Content Too Large";
    case 415:
        return "Unsupported Media Type";
    case 422:
        return "Unprocessable Content";
    case 428:
        return "Precondition Required";
    case 429:
        return "Too Many Requests";
    case 500:
        return "Internal Server Error";
    case 503:
        return "Service Unavailable";
    default:
        return "Error";
    }
}

void api_json(api_response *res, int status, json_t *body)
{
    json_decref(res->json);
    res->status = status;
    res->json = body;
    res->content_type = NULL;
}

void api_problem(api_response *res, int status, const char *detail,
                 const char *field)
{
    /* The detail and field may quote the client's input, cut inside a
     * UTF-8 character or not UTF-8 at all: jansson would refuse them and
     * leave the answer without a body, so such bytes become '?'. */
    char *d = strdup(detail ? detail : status_title(status));
    char *f = field && *field ? strdup(field) : NULL;
    if (d)
        engine_utf8_clean(d);
    if (f)
        engine_utf8_clean(f);
    /* "about:blank": the status code says it all; the title is its phrase
     * and the detail says what to change (RFC 9457, section 4.2.1). */
    json_t *p = json_pack("{ss ss si ss}", "type", "about:blank", "title",
                          status_title(status), "status", status, "detail",
                          d ? d : status_title(status));
    if (f)
        json_object_set_new(p, "field", json_string(f));
    free(d);
    free(f);
    api_json(res, status, p);
}

void api_problem_srv(api_response *res, const srv_error *e)
{
    int status = srv_kind_status(e->kind);
    if (status < 400)
        status = 500; /* a failure reported as OK is a bug */
    api_problem(res, status, e->detail[0] ? e->detail : NULL,
                e->field[0] ? e->field : NULL);
    if (status == 503)
        res->retry_after = 1;
}

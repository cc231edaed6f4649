/*
 * body.c - request body parsing and validation, query and header access,
 * and the database connection with its 503 (see body.h).
 */
#include "api/body.h"

#include <microhttpd.h>
#include <stdio.h>
#include <string.h>

int body_depth(const json_t *v, int limit)
{
    if (limit <= 0)
        return 1;
    int deepest = 0;
    if (json_is_object(v)) {
        const char *k;
        json_t *m;
        json_object_foreach((json_t *)v, k, m)
        {
            int d = body_depth(m, limit - 1);
            if (d > deepest)
                deepest = d;
            if (deepest >= limit)
                break;
        }
    } else if (json_is_array(v)) {
        size_t i;
        json_t *m;
        json_array_foreach(v, i, m)
        {
            int d = body_depth(m, limit - 1);
            if (d > deepest)
                deepest = d;
            if (deepest >= limit)
                break;
        }
    }
    return 1 + deepest;
}

/* body_object and body_value: parse, then (unless any) ask for an object. */
static int parse_body(const api_request *req, api_response *res, int empty_ok,
                      int any, json_t **out)
{
    *out = NULL;
    const char *p = req->body;
    size_t n = req->body_len;
    while (n && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')) {
        p++;
        n--;
    }
    if (!n) {
        if (empty_ok) {
            *out = json_object();
            return 0;
        }
        api_problem(res, 400,
                    "send a JSON object as the body (Content-Type: "
                    "application/json)",
                    NULL);
        return -1;
    }
    json_error_t e;
    json_t *v = json_loadb(p, n, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &e);
    if (!v) {
        char detail[256];
        enum json_error_code code = json_error_code(&e);
        if (code == json_error_duplicate_key) {
            snprintf(detail, sizeof detail,
                     "the body has a duplicate key (%s); send each field "
                     "once",
                     e.text);
            api_problem(res, 422, detail, NULL);
        } else if (code == json_error_stack_overflow) {
            snprintf(detail, sizeof detail,
                     "the body nests deeper than %d levels; flatten it",
                     BODY_MAX_DEPTH);
            api_problem(res, 422, detail, NULL);
        } else {
            snprintf(detail, sizeof detail,
                     "the body is not valid JSON (%s at line %d, column "
                     "%d); send a JSON object",
                     e.text, e.line, e.column);
            api_problem(res, 400, detail, NULL);
        }
        return -1;
    }
    if (!any && !json_is_object(v)) {
        json_decref(v);
        api_problem(res, 422, "the body must be a JSON object ({...})", NULL);
        return -1;
    }
    if (body_depth(v, BODY_MAX_DEPTH + 1) > BODY_MAX_DEPTH) {
        json_decref(v);
        char detail[128];
        snprintf(detail, sizeof detail,
                 "the body nests deeper than %d levels; flatten it",
                 BODY_MAX_DEPTH);
        api_problem(res, 422, detail, NULL);
        return -1;
    }
    *out = v;
    return 0;
}

int body_object(const api_request *req, api_response *res, int empty_ok,
                json_t **out)
{
    return parse_body(req, res, empty_ok, 0, out);
}

int body_value(const api_request *req, api_response *res, json_t **out)
{
    return parse_body(req, res, 0, 1, out);
}

static const char *type_name(body_type t)
{
    switch (t) {
    case BODY_STRING:
        return "a string";
    case BODY_INTEGER:
        return "an integer";
    case BODY_BOOLEAN:
        return "true or false";
    case BODY_OBJECT:
        return "an object";
    default:
        return "a JSON value";
    }
}

static int type_ok(const json_t *v, body_type t)
{
    switch (t) {
    case BODY_STRING:
        return json_is_string(v);
    case BODY_INTEGER:
        return json_is_integer(v);
    case BODY_BOOLEAN:
        return json_is_boolean(v);
    case BODY_OBJECT:
        return json_is_object(v);
    default:
        return 1;
    }
}

int body_check(const json_t *obj, const body_field *fields, const char *prefix,
               api_response *res)
{
    char name[128], detail[256];
    const char *k;
    json_t *v;
    if (!prefix)
        prefix = "";
    json_object_foreach((json_t *)obj, k, v)
    {
        const body_field *f = fields;
        while (f->name && strcmp(f->name, k) != 0)
            f++;
        snprintf(name, sizeof name, "%s%.80s", prefix, k);
        if (!f->name) {
            int o = snprintf(detail, sizeof detail,
                             "unknown field \"%s\"; the fields are:", name);
            for (f = fields; f->name && o > 0 && (size_t)o < sizeof detail; f++)
                o += snprintf(detail + o, sizeof detail - (size_t)o, "%s %s",
                              f == fields ? "" : ",", f->name);
            api_problem(res, 422, detail, name);
            return -1;
        }
        if (json_is_null(v) && !f->required)
            continue;
        if (!type_ok(v, f->type)) {
            snprintf(detail, sizeof detail, "%s must be %s", name,
                     type_name(f->type));
            api_problem(res, 422, detail, name);
            return -1;
        }
    }
    for (const body_field *f = fields; f->name; f++) {
        if (f->required && !json_object_get(obj, f->name)) {
            snprintf(name, sizeof name, "%s%s", prefix, f->name);
            snprintf(detail, sizeof detail, "%s is required (%s)", name,
                     type_name(f->type));
            api_problem(res, 422, detail, name);
            return -1;
        }
    }
    return 0;
}

const char *req_query(const api_request *req, const char *name)
{
    return MHD_lookup_connection_value(req->conn, MHD_GET_ARGUMENT_KIND, name);
}

const char *req_header(const api_request *req, const char *name)
{
    return MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND, name);
}

/* Does the If-None-Match list (entity tags, weak or strong, or "*") hold
 * etag? Weak comparison, as RFC 9110 prescribes for If-None-Match. */
static int none_match_hits(const char *list, const char *etag)
{
    size_t n = strlen(etag);
    const char *p = list;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        if (*p == '*')
            return 1;
        if (p[0] == 'W' && p[1] == '/')
            p += 2;
        if (strncmp(p, etag, n) == 0 &&
            (p[n] == '\0' || p[n] == ',' || p[n] == ' ' || p[n] == '\t'))
            return 1;
        while (*p && *p != ',')
            p++;
    }
    return 0;
}

int req_none_match(const api_request *req, const char *etag)
{
    const char *inm = req_header(req, "If-None-Match");
    return inm && etag[0] && none_match_hits(inm, etag);
}

void req_db_failed(api_response *res)
{
    api_problem(res, 503, "the database is unreachable; retry shortly", NULL);
    res->retry_after = 1;
}

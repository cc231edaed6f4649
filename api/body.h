/*
 * body.h - request helpers for the v1 handlers: parsing JSON bodies,
 * checking their fields, query parameters, and the database connection
 * with its 503 answer.
 *
 * Body rules (API.md, api/openapi.yaml): UTF-8 JSON parsed with duplicate
 * keys rejected. Not JSON at all: 400. Valid JSON of the wrong shape (not
 * an object, nesting deeper than BODY_MAX_DEPTH, a duplicate key, an
 * unknown field, a field of the wrong type, a missing required field):
 * 422, with "field" naming the field where one is at fault. A field sent
 * as null counts as absent.
 *
 * Every function that fails fills res with the problem and returns -1.
 */
#ifndef CONCLAVE_BODY_H
#define CONCLAVE_BODY_H

#include "api/api.h"

#define BODY_MAX_DEPTH 32

typedef enum {
    BODY_STRING,
    BODY_INTEGER,
    BODY_BOOLEAN,
    BODY_OBJECT,
    BODY_ANY
} body_type;

typedef struct body_field {
    const char *name;
    body_type type;
    int required;
} body_field;

/* Parse req's body as one JSON object into *out (NEW). An empty body is an
 * error (400) unless empty_ok, when *out is an empty object. */
int body_object(const api_request *req, api_response *res, int empty_ok,
                json_t **out);

/* Parse req's body as one JSON value of any type (an order's part) into
 * *out (NEW), by the same rules but for the object; an empty body is a
 * 400. */
int body_value(const api_request *req, api_response *res, json_t **out);

/* Check obj's members against fields (a list ending with a NULL name):
 * unknown, mistyped or missing required fields are a 422 naming the field,
 * written prefix + name ("clock.mode"; prefix may be NULL). */
int body_check(const json_t *obj, const body_field *fields, const char *prefix,
               api_response *res);

/* Nesting depth of v: 1 for a scalar, 1 + the deepest member otherwise;
 * stops counting past limit. */
int body_depth(const json_t *v, int limit);

/* A query-string argument, or NULL. */
const char *req_query(const api_request *req, const char *name);
/* A request header, or NULL. */
const char *req_header(const api_request *req, const char *name);
/* 1 when the request's If-None-Match names etag (weak comparison, or "*"):
 * the client holds that version and is answered 304. */
int req_none_match(const api_request *req, const char *etag);

/* Fill res with the 503 (Retry-After) of a database that cannot answer. */
void req_db_failed(api_response *res);

#endif

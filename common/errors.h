/*
 * errors.h - the server's own kinds of failure, for every layer under the
 * edges (actors, store, lobbies, players, tokens, the hub's feed).
 *
 * The server speaks no HTTP: a server function answers with one of these
 * kinds plus a reason written for the player. Both edges show a kind the
 * same way, through the one table here (srv_kind_status): api/ as the
 * HTTP status, the WebSocket hub as the "status" of its error messages
 * (with srv_kind_name as their "code"). Kinds are stable; add new ones at
 * the end.
 */
#ifndef CONCLAVE_ERRORS_H
#define CONCLAVE_ERRORS_H

typedef enum srv_kind {
    SRV_OK = 0,
    SRV_INVALID,      /* malformed or illegal input (the field is named) */
    SRV_UNAUTHORIZED, /* no identity, or a token that is unknown/revoked */
    SRV_FORBIDDEN,    /* known identity, not allowed to do this */
    SRV_NOT_FOUND,    /* no such game, lobby, player, window */
    SRV_CONFLICT,     /* the state does not allow it now (window closed...) */
    SRV_PRECONDITION, /* an expected version (If-Match) did not hold */
    SRV_GONE,         /* it existed and ended (a finished game's window) */
    SRV_TOO_LARGE,    /* over a size limit */
    SRV_TOO_MANY,     /* over a rate or a quota */
    SRV_UNAVAILABLE,  /* the database is down or the server is stopping */
    SRV_INTERNAL,     /* a bug or out of memory: never the client's fault */
    SRV_MALFORMED,    /* the request itself cannot be read (not JSON...) */
    SRV_KIND_COUNT
} srv_kind;

/* A failure as a server function reports it: the kind, a reason written
 * for the player ("" when the kind says it all) and the input field it is
 * about ("" for none). */
typedef struct srv_error {
    srv_kind kind;
    char detail[256];
    char field[64];
} srv_error;

/* Fill err (when not NULL) with kind, field (NULL: none) and a printf-style
 * detail; returns kind, so `return srv_fail(err, SRV_CONFLICT, ...)` reads
 * as one step. Cannot fail (long texts are cut). */
srv_kind srv_fail(srv_error *err, srv_kind kind, const char *field,
                  const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* The database failed (or no connection could be had): fills err with
 * SRV_UNAVAILABLE and the usual "retry shortly" reason. Returns it. */
srv_kind srv_db_failed(srv_error *err);

/* A short stable name ("not_found", "conflict", ...) for logs and the
 * WebSocket "code". "internal" for a value out of range. Cannot fail. */
const char *srv_kind_name(srv_kind k);

/* The status both edges show for kind k: the HTTP status of api/'s answer
 * and the "status" field of the WebSocket hub's error message (the same
 * number, so clients read both alike). 200 for SRV_OK, 500 for a value
 * out of range. The one table from kinds to statuses. Cannot fail. */
int srv_kind_status(srv_kind k);

#endif

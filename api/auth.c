/*
 * auth.c - the caller of a request from its bearer token (see auth.h).
 */
#include "api/auth.h"

#include "server/players/tokens.h"

#include <microhttpd.h>
#include <string.h>

const char *api_bearer_token(const api_request *req)
{
    const char *h = MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND,
                                                MHD_HTTP_HEADER_AUTHORIZATION);
    if (!h || strncmp(h, "Bearer ", 7) != 0 || strlen(h + 7) != TOKENS_CHARS)
        return NULL;
    return h + 7;
}

int api_authenticate(api_request *req, api_response *res)
{
    const char *h = MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND,
                                                MHD_HTTP_HEADER_AUTHORIZATION);
    req->authenticated = 0;
    if (!h) {
        if (req->route->auth == API_AUTH_REQUIRED) {
            api_problem(res, 401,
                        "send Authorization: Bearer <token> (create a player "
                        "or a session to get one)",
                        NULL);
            return -1;
        }
        return 0;
    }
    const char *token = api_bearer_token(req);
    if (!token) {
        api_problem(res, 401,
                    "the Authorization header is not a valid "
                    "bearer token",
                    NULL);
        return -1;
    }
    srv_kind k = tokens_lookup(req->app->db, token, req->player_id,
                               sizeof req->player_id, req->player_name,
                               sizeof req->player_name);
    if (k == SRV_UNAUTHORIZED) {
        api_problem(res, 401,
                    "the token is unknown or was revoked; sign in "
                    "again",
                    NULL);
        return -1;
    }
    if (k != SRV_OK) {
        srv_error e = {0};
        srv_db_failed(&e);
        api_problem_srv(res, &e);
        return -1;
    }
    req->authenticated = 1;
    return 0;
}

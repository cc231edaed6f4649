/*
 * suspend.h - requests that wait for a game's actor without holding an
 * HTTP thread: the handler hands its input to the actor and the
 * connection is suspended (libmicrohttpd's MHD_suspend_connection); the
 * actor's answer resumes it (MHD_resume_connection, from the worker
 * thread), and the response is then built on an HTTP thread. A few HTTP
 * threads so serve any number of plays waiting for their commits.
 *
 * Lifetimes: a suspended connection is neither timed out nor closed by
 * libmicrohttpd (a client that went away is noticed after the resume), so
 * the request and its api_wait live until the actor has answered and the
 * connection has been resumed. The actor answers every input exactly once
 * (server/game/actor.h), and api_server_stop waits for every suspended request
 * to be resumed before it stops the daemon (libmicrohttpd requires it).
 */
#ifndef CONCLAVE_SUSPEND_H
#define CONCLAVE_SUSPEND_H

#include "api/api.h"
#include "server/game/actor.h"

/* Builds the response of a resumed request from its actor's answer, on an
 * HTTP thread. rq is the request as submitted (payload NULL), extra what
 * the handler gave api_submit (borrowed, may be NULL); the callee owns
 * rp->stored and rp->parts. */
typedef void (*api_finish_fn)(api_request *req, api_response *res,
                              const actor_request *rq, actor_reply *rp,
                              const json_t *extra);

/* Submit rq (payload borrowed) to game params[0]'s actor and suspend the
 * connection until it answers; finish then fills the response, given
 * extra (stolen, may be NULL). Returns 0: the handler returns at once
 * leaving res alone. -1 (out of memory) with res filled and extra freed.
 * Only from a handler. */
int api_submit(api_request *req, api_response *res, const actor_request *rq,
               api_finish_fn finish, json_t *extra);

/* For api/http.c. Is req waiting (suspended or just resumed)? */
int api_waiting(const api_request *req);
/* A resumed request: fill res through its finish function. 0, or -1 when
 * the actor has not answered yet (the request stays as it is). */
int api_resumed(api_request *req, api_response *res);
/* Free req's waiting state (at the request's completion). */
void api_wait_free(api_request *req);

/* Suspended requests of srv now (api/http.c). */
int api_server_suspended(const api_server *srv);
/* Count one request suspended (+1) or resumed (-1) (api/http.c). */
void api_server_note_suspended(api_server *srv, int delta);

#endif

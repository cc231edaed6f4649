/*
 * suspend.c - a request that waits for its game's actor with its
 * connection suspended instead of holding an HTTP thread (see suspend.h).
 *
 * Threads: api_submit runs on the HTTP thread of the request; on_answer
 * runs on an actor worker (or on the same HTTP thread when the input could
 * not be queued). The only field both touch is `answered` (atomic): the
 * worker writes the reply, then sets it (release), then resumes the
 * connection and touches nothing of the request after; the HTTP thread
 * reads the reply only after seeing it set (acquire). The connection is
 * suspended before the input is submitted, so a resume can never come
 * before its suspend.
 */
#include "api/suspend.h"

#include "server/runtime/metrics.h"

#include <microhttpd.h>
#include <stdatomic.h>
#include <stdlib.h>

struct api_wait {
    struct MHD_Connection *conn;
    api_server *srv;
    actor_request rq; /* as submitted, payload NULL */
    actor_reply rp;   /* written by on_answer before `answered` */
    api_finish_fn finish;
    json_t *extra; /* for finish */
    atomic_int answered;
};

/* The actor's answer (actor_done_fn): keep it and resume the connection. */
static void on_answer(void *ctx, actor_reply *reply)
{
    api_wait *w = ctx;
    struct MHD_Connection *conn = w->conn;
    api_server *srv = w->srv;
    w->rp = *reply; /* takes stored and parts */
    atomic_store_explicit(&w->answered, 1, memory_order_release);
    /* From here the request may complete on another thread: only the
     * locals are used. The server outlives this call (api_server_stop
     * waits until no request is suspended). */
    MHD_resume_connection(conn);
    api_server_note_suspended(srv, -1);
}

int api_submit(api_request *req, api_response *res, const actor_request *rq,
               api_finish_fn finish, json_t *extra)
{
    api_wait *w = calloc(1, sizeof *w);
    if (!w) {
        json_decref(extra);
        api_problem(res, 500, "out of memory", NULL);
        return -1;
    }
    w->conn = req->conn;
    w->srv = req->srv;
    w->rq = *rq;
    w->rq.payload = NULL;
    w->finish = finish;
    w->extra = extra;
    atomic_init(&w->answered, 0);
    req->wait = w;
    api_server_note_suspended(req->srv, 1);
    metrics_count("conclave_http_suspended_total",
                  "Requests suspended while their game's actor worked.", 1);
    MHD_suspend_connection(req->conn);
    actors_submit_async(req->app->actors, req->params[0], rq, on_answer, w);
    return 0;
}

int api_waiting(const api_request *req)
{
    return req->wait != NULL;
}

int api_resumed(api_request *req, api_response *res)
{
    api_wait *w = req->wait;
    if (!atomic_load_explicit(&w->answered, memory_order_acquire))
        return -1;
    actor_reply rp = w->rp;
    w->rp.stored = NULL;
    w->rp.parts = NULL;
    w->finish(req, res, &w->rq, &rp, w->extra);
    return 0;
}

void api_wait_free(api_request *req)
{
    api_wait *w = req->wait;
    if (!w)
        return;
    json_decref(w->rp.stored);
    json_decref(w->rp.parts);
    json_decref(w->extra);
    free(w);
    req->wait = NULL;
}

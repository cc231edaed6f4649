/*
 * hub_loop.c - the event loop the hub's libwebsockets context runs on:
 * libuv (the default: an epoll-based loop the hub owns and lws joins as a
 * "foreign" loop, through Debian's libwebsockets-evlib-uv plugin) or
 * libwebsockets' own poll() loop (CONCLAVE_WS_EVENT_LIB=poll). Both run on
 * the hub's lws thread; only the start, the stop and the tear-down differ,
 * and they live here.
 *
 * Why: lws's poll() loop walks every descriptor on each wake-up, so with
 * thousands of connections the walk, not the sending, is the cost; epoll
 * (through libuv) reports only the ready ones.
 */
#include "server/hub_internal.h"

#include "server/log.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <uv.h>

int hub_loop_prepare(hub *h, struct lws_context_creation_info *info, char *err,
                     size_t errlen)
{
    const char *want = h->app->cfg->ws_event_lib;
    if (!*want || strcmp(want, "poll") == 0)
        return 0;
    if (strcmp(want, "uv") != 0) {
        snprintf(err, errlen,
                 "CONCLAVE_WS_EVENT_LIB must be \"uv\" or \"poll\", not "
                 "\"%.16s\"",
                 want);
        return -1;
    }
    uv_loop_t *loop = calloc(1, sizeof *loop);
    if (!loop || uv_loop_init(loop) != 0) {
        free(loop);
        snprintf(err, errlen, "cannot create the libuv loop");
        return -1;
    }
    h->uv_loop = loop;
    h->foreign[0] = loop;
    info->foreign_loops = h->foreign;
    info->options |=
        LWS_SERVER_OPTION_LIBUV | LWS_SERVER_OPTION_UV_NO_SIGSEGV_SIGFPE_SPIN;
    return 0;
}

/* Run the loop without blocking until nothing is left on it (lws closes
 * its handles asynchronously), at most about two seconds, then close it. */
static void uv_finish(uv_loop_t *loop)
{
    for (int i = 0; i < 400 && uv_run(loop, UV_RUN_NOWAIT); i++) {
        struct timespec ts = {0, 5 * 1000000L};
        nanosleep(&ts, NULL);
    }
    if (uv_loop_close(loop) != 0)
        log_warn("hub_uv_close",
                 json_pack("{ss}", "detail", "handles were still open"));
    free(loop);
}

void hub_loop_unprepare(hub *h)
{
    if (!h->uv_loop)
        return;
    uv_finish(h->uv_loop);
    h->uv_loop = NULL;
}

const char *hub_loop_name(const hub *h)
{
    return h->uv_loop ? "uv" : "poll";
}

void hub_loop_run(hub *h)
{
    if (h->uv_loop) {
        /* Returns once hub_loop_stopping has called uv_stop. */
        while (!atomic_load(&h->stopping)) {
            if (uv_run(h->uv_loop, UV_RUN_DEFAULT) == 0 &&
                !atomic_load(&h->stopping)) {
                struct timespec ts = {0, 10 * 1000000L};
                nanosleep(&ts, NULL); /* nothing on the loop: not spinning */
            }
        }
    } else {
        while (!atomic_load(&h->stopping))
            if (lws_service(h->ctx, 0) < 0)
                break;
    }
}

void hub_loop_stopping(hub *h)
{
    if (h->uv_loop)
        uv_stop(h->uv_loop);
}

void hub_loop_destroy(hub *h)
{
    if (h->ctx)
        lws_context_destroy(h->ctx);
    hub_loop_unprepare(h);
}

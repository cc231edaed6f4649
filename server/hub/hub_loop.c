/*
 * hub_loop.c - the event loop the hub's libwebsockets context runs on
 * (CONCLAVE_WS_EVENT_LIB): libwebsockets' own poll() loop ("poll", the
 * default), or libuv ("uv") or libev ("ev"), each a loop the hub owns and
 * lws joins as a "foreign" loop through Debian's libwebsockets-evlib-uv /
 * -ev plugin. All run on the hub's lws thread; only the start, the stop
 * and the tear-down differ, and they live here.
 *
 * Why a choice: lws's poll() loop walks every descriptor on each pass, so
 * its cost grows with the connections held; the epoll-based loops report
 * only the ready ones, but lws's plugins change a socket's watcher each time
 * its interest in writing changes (twice per message sent; with libuv an
 * epoll_ctl DEL and ADD). With 10,000 spectators per process poll()
 * measured cheapest, libev close and libuv worst (docs/performance.md,
 * run 8). On libev a peer that stops answering pings is not hung up on in
 * time (hub_hardening's idle-peer test fails): "ev" is for measurement.
 */
#include "server/hub/hub_internal.h"

#include "server/runtime/log.h"

#include <ev.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <uv.h>

static void nap_ms(long ms)
{
    struct timespec ts = {0, ms * 1000000L};
    nanosleep(&ts, NULL);
}

/* A new loop of kind k in h->loop and lws's options for it in info; -1
 * when it cannot be made. */
static int loop_new(hub *h, hub_loop_kind k,
                    struct lws_context_creation_info *info)
{
    if (k == HUB_LOOP_UV) {
        uv_loop_t *loop = calloc(1, sizeof *loop);
        if (!loop || uv_loop_init(loop) != 0) {
            free(loop);
            return -1;
        }
        h->loop = loop;
        info->options |= LWS_SERVER_OPTION_LIBUV |
                         LWS_SERVER_OPTION_UV_NO_SIGSEGV_SIGFPE_SPIN;
    } else {
        struct ev_loop *loop = ev_loop_new(EVBACKEND_EPOLL | EVFLAG_NOSIGMASK);
        if (!loop)
            return -1;
        h->loop = loop;
        info->options |= LWS_SERVER_OPTION_LIBEV;
    }
    h->loop_kind = k;
    h->foreign[0] = h->loop;
    info->foreign_loops = h->foreign;
    info->pcontext = &h->ctx_live;
    return 0;
}

int hub_loop_prepare(hub *h, struct lws_context_creation_info *info, char *err,
                     size_t errlen)
{
    const char *want = h->app->cfg->ws_event_lib;
    h->loop_kind = HUB_LOOP_POLL;
    if (!*want || strcmp(want, "poll") == 0)
        return 0;
    hub_loop_kind k = strcmp(want, "uv") == 0   ? HUB_LOOP_UV
                      : strcmp(want, "ev") == 0 ? HUB_LOOP_EV
                                                : HUB_LOOP_POLL;
    if (k == HUB_LOOP_POLL) {
        snprintf(err, errlen,
                 "CONCLAVE_WS_EVENT_LIB must be \"uv\", \"ev\" or \"poll\", "
                 "not \"%.16s\"",
                 want);
        return -1;
    }
    if (loop_new(h, k, info) != 0) {
        snprintf(err, errlen, "cannot create the %s event loop", want);
        return -1;
    }
    return 0;
}

/* Run h->loop until it is idle (at most about two seconds), so lws's
 * closing handles finish. */
static void loop_settle(hub *h)
{
    if (h->loop_kind == HUB_LOOP_UV) {
        for (int i = 0; i < 400 && uv_run(h->loop, UV_RUN_NOWAIT); i++)
            nap_ms(5);
    } else if (h->loop_kind == HUB_LOOP_EV) {
        ev_run(h->loop, EVRUN_NOWAIT);
    }
}

void hub_loop_unprepare(hub *h)
{
    if (!h->loop)
        return;
    if (h->loop_kind == HUB_LOOP_UV) {
        /* lws closes its handles asynchronously: run the loop until
         * nothing is left on it, about two seconds at most. */
        uv_loop_t *loop = h->loop;
        loop_settle(h);
        if (uv_loop_close(loop) != 0)
            log_warn("hub_loop_close",
                     json_pack("{ss}", "detail", "handles were still open"));
        free(loop);
    } else {
        loop_settle(h);
        ev_loop_destroy(h->loop);
    }
    h->loop = NULL;
    h->loop_kind = HUB_LOOP_POLL;
}

const char *hub_loop_name(const hub *h)
{
    static const char *const names[] = {"poll", "uv", "ev"};
    return names[h->loop_kind];
}

void hub_loop_run(hub *h)
{
    while (!atomic_load(&h->stopping)) {
        int more = 1;
        if (h->loop_kind == HUB_LOOP_UV)
            more = uv_run(h->loop, UV_RUN_DEFAULT); /* until uv_stop */
        else if (h->loop_kind == HUB_LOOP_EV)
            more = ev_run(h->loop, 0); /* until ev_break */
        else if (lws_service(h->ctx, 0) < 0)
            break;
        if (!more && !atomic_load(&h->stopping))
            nap_ms(10); /* nothing on the loop: not spinning */
    }
}

void hub_loop_stopping(hub *h)
{
    if (h->loop_kind == HUB_LOOP_UV)
        uv_stop(h->loop);
    else if (h->loop_kind == HUB_LOOP_EV)
        ev_break(h->loop, EVBREAK_ALL);
}

void hub_loop_destroy(hub *h)
{
    if (h->ctx)
        lws_context_destroy(h->ctx);
    if (h->loop && h->ctx) {
        /* On a foreign loop the first call closes lws's handles; once the
         * loop has run their close callbacks, a second call frees the
         * rest (lws says it is done by writing NULL to ctx_live). */
        loop_settle(h);
        if (h->ctx_live)
            lws_context_destroy(h->ctx_live);
        loop_settle(h);
    }
    hub_loop_unprepare(h);
}

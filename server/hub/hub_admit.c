/*
 * hub_admit.c - which sockets the WebSocket port keeps: right after
 * accept() (LWS_CALLBACK_FILTER_NETWORK_CONNECTION, before a byte is read)
 * a socket is closed at once when the port already holds its global cap
 * (the app's fds.ws_max, CONCLAVE_WS_MAX) or when its peer address already
 * holds ws_per_ip sockets. A trusted proxy's sockets count against the
 * global cap only: the clients behind it are capped at the handshake by
 * the address its X-Forwarded-For names (hub.c's filter). A socket counts
 * from its accept until libwebsockets destroys its wsi (the socket is closed
 * then; LWS_CALLBACK_WSI_DESTROY), whatever it did in between (a handshake
 * never finished, a WebSocket, a closing handshake), so that one address
 * cannot hold more descriptors than its cap however it behaves.
 *
 * Also the throttle of libwebsockets' "accept: errno N" lines: should
 * accept() fail anyway (the descriptors taken by something else), the
 * listener is ready again at once and lws would log the error thousands of
 * times a second; they are counted and logged at most once every
 * HUB_ACCEPT_LOG_SECONDS with the count.
 *
 * Everything here but the log throttle runs on the lws thread only.
 */
#include "server/hub/hub_internal.h"

#include "server/runtime/fdlimit.h"
#include "server/runtime/log.h"
#include "server/runtime/metrics.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#define HUB_ACCEPT_LOG_SECONDS 5.0

/* One peer address and its admitted sockets. */
struct hub_peer {
    struct hub_peer *next;
    long sockets;
    char addr[48];
};

/* An admitted socket's wsi and its peer. */
struct hub_admitted {
    struct hub_admitted *next;
    const struct lws *wsi;
    hub_peer *peer;
};

static unsigned peer_bucket(const char *addr)
{
    unsigned v = 2166136261u;
    for (const char *s = addr; *s; s++)
        v = (v ^ (unsigned char)*s) * 16777619u;
    return v % HUB_PEER_BUCKETS;
}

/* The text of fd's peer address (an IPv4-mapped IPv6 address as IPv4, as
 * trusted_proxies and the per-address limits write it); "" if unknown. */
static void peer_of(int fd, char *out, size_t n)
{
    struct sockaddr_storage ss;
    memset(&ss, 0, sizeof ss);
    socklen_t len = sizeof ss;
    out[0] = '\0';
    if (getpeername(fd, (struct sockaddr *)&ss, &len) != 0)
        return;
    if (ss.ss_family == AF_INET) {
        inet_ntop(AF_INET, &((struct sockaddr_in *)&ss)->sin_addr, out,
                  (socklen_t)n);
    } else if (ss.ss_family == AF_INET6) {
        const struct in6_addr *a = &((struct sockaddr_in6 *)&ss)->sin6_addr;
        if (IN6_IS_ADDR_V4MAPPED(a))
            inet_ntop(AF_INET, &a->s6_addr[12], out, (socklen_t)n);
        else
            inet_ntop(AF_INET6, a, out, (socklen_t)n);
    }
}

void hub_admit_init(hub *h)
{
    hub_admit *ad = &h->admit;
    memset(ad, 0, sizeof *ad);
    /* An app that did not share its descriptors out (fdlimit.h): the
     * configured cap, else none to speak of. */
    const config *cfg = h->app->cfg;
    ad->max = h->app->fds.ws_max > 0 ? h->app->fds.ws_max
              : cfg->ws_max > 0      ? cfg->ws_max
                                     : FD_LIMIT_CAP;
    ad->per_peer = cfg->ws_per_ip > 0 ? cfg->ws_per_ip : 1;
}

void hub_admit_free(hub *h)
{
    hub_admit *ad = &h->admit;
    for (int b = 0; b < HUB_PEER_BUCKETS; b++) {
        hub_peer *p = ad->peers[b];
        while (p) {
            hub_peer *next = p->next;
            free(p);
            p = next;
        }
        ad->peers[b] = NULL;
    }
    for (int b = 0; b < HUB_ADMIT_WSI_BUCKETS; b++) {
        hub_admitted *a = ad->by_wsi[b];
        while (a) {
            hub_admitted *next = a->next;
            free(a);
            a = next;
        }
        ad->by_wsi[b] = NULL;
    }
    ad->pending = NULL;
}

static void publish(const hub_admit *ad)
{
    metrics_gauge("conclave_ws_sockets",
                  "Sockets open on the WebSocket port (handshaking, open or "
                  "closing).",
                  (double)ad->open);
}

/* One socket of p is gone. */
static void release(hub_admit *ad, hub_peer *p)
{
    ad->open--;
    if (--p->sockets == 0) {
        hub_peer **link = &ad->peers[peer_bucket(p->addr)];
        while (*link && *link != p)
            link = &(*link)->next;
        if (*link)
            *link = p->next;
        free(p);
    }
    publish(ad);
}

static int refuse(const char *reason)
{
    if (strcmp(reason, "max") == 0)
        metrics_count("conclave_ws_refused_max_total",
                      "WebSocket-port sockets closed at accept: the port held "
                      "CONCLAVE_WS_MAX sockets.",
                      1);
    else
        hub_count_refused_per_ip();
    return -1;
}

int hub_admit_socket(hub *h, int fd)
{
    hub_admit *ad = &h->admit;
    /* Admitted before, but lws made no wsi for it: that socket is gone. */
    if (ad->pending) {
        release(ad, ad->pending);
        ad->pending = NULL;
    }
    if (ad->open >= ad->max)
        return refuse("max");
    char addr[48];
    peer_of(fd, addr, sizeof addr);
    int proxy = addr[0] && trusted_proxies_has(&h->app->proxies, addr);
    hub_peer **link = &ad->peers[peer_bucket(addr)];
    while (*link && strcmp((*link)->addr, addr) != 0)
        link = &(*link)->next;
    hub_peer *p = *link;
    if (p && !proxy && p->sockets >= ad->per_peer)
        return refuse("per_ip");
    if (!p) {
        p = calloc(1, sizeof *p);
        if (!p)
            return refuse("max");
        snprintf(p->addr, sizeof p->addr, "%s", addr);
        *link = p;
    }
    p->sockets++;
    ad->open++;
    ad->pending = p;
    publish(ad);
    return 0;
}

static unsigned wsi_bucket(const struct lws *wsi)
{
    uintptr_t v = (uintptr_t)wsi;
    v ^= v >> 17;
    v *= 0x9E3779B97F4A7C15ull;
    return (unsigned)(v >> 40) % HUB_ADMIT_WSI_BUCKETS;
}

void hub_admit_created(hub *h, struct lws *wsi)
{
    hub_admit *ad = &h->admit;
    if (!ad->pending)
        return; /* not a socket we admitted (the listener's own wsi) */
    hub_admitted *a = malloc(sizeof *a);
    if (!a) {
        release(ad, ad->pending); /* uncounted rather than never freed */
        ad->pending = NULL;
        return;
    }
    unsigned b = wsi_bucket(wsi);
    a->wsi = wsi;
    a->peer = ad->pending;
    a->next = ad->by_wsi[b];
    ad->by_wsi[b] = a;
    ad->pending = NULL;
}

void hub_admit_destroyed(hub *h, struct lws *wsi)
{
    hub_admit *ad = &h->admit;
    hub_admitted **link = &ad->by_wsi[wsi_bucket(wsi)];
    while (*link && (*link)->wsi != wsi)
        link = &(*link)->next;
    hub_admitted *a = *link;
    if (!a)
        return;
    *link = a->next;
    release(ad, a->peer);
    free(a);
}

void hub_count_refused_per_ip(void)
{
    metrics_count("conclave_ws_refused_per_ip_total",
                  "WebSocket connections refused: their client address held "
                  "CONCLAVE_WS_PER_IP connections.",
                  1);
}

/* ------------------------------------------------ the accept errors ---- */

static pthread_mutex_t accept_lock = PTHREAD_MUTEX_INITIALIZER;
static long accept_unlogged;    /* accept_lock: errors since the last line */
static double accept_logged_at; /* accept_lock: when that line was */

static double mono_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int hub_admit_log_line(const char *msg)
{
    if (strncmp(msg, "accept:", 7) != 0)
        return 0;
    metrics_count("conclave_ws_accept_errors_total",
                  "accept() failures on the WebSocket port.", 1);
    double now = mono_now();
    pthread_mutex_lock(&accept_lock);
    long n = ++accept_unlogged;
    int due = accept_logged_at == 0 ||
              now - accept_logged_at >= HUB_ACCEPT_LOG_SECONDS;
    if (due) {
        accept_unlogged = 0;
        accept_logged_at = now;
    }
    pthread_mutex_unlock(&accept_lock);
    if (due)
        log_error("ws_accept_failed",
                  json_pack("{ss sI sf}", "message", msg, "count",
                            (json_int_t)n, "seconds", HUB_ACCEPT_LOG_SECONDS));
    return 1;
}

/*
 * lg_net.h - the load generator's event loop and its two small clients:
 * HTTP/1.1 with keep-alive (one request in flight per connection, a FIFO of
 * waiting ones) and RFC 6455 WebSocket (masked text frames out, text,
 * ping and close frames in). Single-threaded, epoll, non-blocking sockets.
 */
#ifndef LG_NET_H
#define LG_NET_H

#include <stddef.h>
#include <stdint.h>

double lg_now(void); /* monotonic seconds */

typedef struct lg_buf {
    char *p;
    size_t len, cap, off; /* live bytes are p[off .. len) */
} lg_buf;

/* The loop. Every socket registers a handler; lg_run calls tick between
 * waits (at most every `tick_ms`) until it returns nonzero. */
int lg_loop_init(void);
int lg_run(int (*tick)(void *ctx, double now), void *ctx, int tick_ms);

/* Source addresses: connections may be spread over 127.0.0.N (N from
 * `first`, `count` of them) so per-address limits of the server see
 * several clients, as they would in real use. count 0: no bind. */
typedef struct lg_addr {
    uint32_t dst;       /* IPv4, network order */
    uint16_t port;      /* host order */
    uint32_t src_first; /* network order; 0: no bind */
    int src_count;
} lg_addr;

int lg_addr_parse(const char *hostport, lg_addr *a);

/* ---- HTTP ---- */

typedef struct lg_http lg_http;
/* status 0: transport failure (connection lost before an answer). body is
 * NUL-terminated and valid only during the call. */
typedef void (*lg_http_fn)(void *ctx, int status, const char *body, size_t len);

lg_http *lg_http_new(const lg_addr *a, int src_index);
/* Queue a request; sent when the connection is free. headers: extra
 * header lines, each ending "\r\n" (may be NULL). body may be NULL. */
int lg_http_request(lg_http *h, const char *method, const char *path,
                    const char *headers, const char *body, lg_http_fn fn,
                    void *ctx);
int lg_http_busy(const lg_http *h); /* requests queued or in flight */

/* ---- WebSocket ---- */

typedef struct lg_ws lg_ws;
typedef struct lg_ws_handlers {
    void (*open)(void *ctx); /* 101 accepted */
    void (*message)(void *ctx, char *text,
                    size_t len);                /* text, NUL-terminated */
    void (*closed)(void *ctx, const char *why); /* any failure */
} lg_ws_handlers;

lg_ws *lg_ws_new(const lg_addr *a, int src_index, const char *path,
                 const char *protocol, const lg_ws_handlers *hd, void *ctx);
int lg_ws_send(lg_ws *w, const char *text, size_t len);
int lg_ws_is_open(const lg_ws *w);

/* Counters (whole run). */
typedef struct lg_net_stats {
    uint64_t http_requests, http_transport_errors;
    uint64_t ws_messages_in, ws_bytes_in, ws_frames_out;
    uint64_t ws_closed, ws_pings;
    uint64_t connects, connect_errors;
} lg_net_stats;
extern lg_net_stats lg_stats;

#endif

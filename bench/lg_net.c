/*
 * lg_net.c - see lg_net.h. Sockets are never freed during a run (a closed
 * one just has fd -1), so an epoll event that arrives for a connection
 * closed earlier in the same batch is harmless.
 */
#include "bench/lg_net.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

lg_net_stats lg_stats;
static int ep = -1;
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

double lg_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint32_t rnd32(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 11);
}

/* ------------------------------------------------------------ buffers -- */

static int buf_reserve(lg_buf *b, size_t more)
{
    if (b->off && b->off == b->len)
        b->off = b->len = 0;
    if (b->len + more <= b->cap)
        return 0;
    if (b->off) { /* compact first */
        memmove(b->p, b->p + b->off, b->len - b->off);
        b->len -= b->off;
        b->off = 0;
        if (b->len + more <= b->cap)
            return 0;
    }
    size_t cap = b->cap ? b->cap : 512;
    while (cap < b->len + more)
        cap *= 2;
    char *p = realloc(b->p, cap);
    if (!p)
        return -1;
    b->p = p;
    b->cap = cap;
    return 0;
}

static int buf_add(lg_buf *b, const void *data, size_t n)
{
    if (buf_reserve(b, n + 1) != 0)
        return -1;
    memcpy(b->p + b->len, data, n);
    b->len += n;
    return 0;
}

static void buf_consume(lg_buf *b, size_t n)
{
    b->off += n;
    if (b->off >= b->len)
        b->off = b->len = 0;
}

static size_t buf_avail(const lg_buf *b)
{
    return b->len - b->off;
}

static char *buf_data(lg_buf *b)
{
    return b->p + b->off;
}

/* ------------------------------------------------------------ sockets -- */

typedef struct sock sock;
struct sock {
    int fd;
    int connected;
    uint32_t ev;
    void (*on_event)(sock *s, uint32_t events);
    lg_buf in, out;
};

int lg_loop_init(void)
{
    ep = epoll_create1(EPOLL_CLOEXEC);
    rng_state ^=
        (uint64_t)getpid() * 0x2545f4914f6cdd1dull ^ (uint64_t)(lg_now() * 1e9);
    return ep < 0 ? -1 : 0;
}

int lg_addr_parse(const char *hostport, lg_addr *a)
{
    memset(a, 0, sizeof *a);
    char host[64];
    const char *colon = strrchr(hostport, ':');
    if (!colon || (size_t)(colon - hostport) >= sizeof host)
        return -1;
    memcpy(host, hostport, (size_t)(colon - hostport));
    host[colon - hostport] = '\0';
    if (strcmp(host, "localhost") == 0)
        snprintf(host, sizeof host, "127.0.0.1");
    struct in_addr in;
    if (inet_pton(AF_INET, host, &in) != 1)
        return -1;
    a->dst = in.s_addr;
    int port = atoi(colon + 1);
    if (port <= 0 || port > 65535)
        return -1;
    a->port = (uint16_t)port;
    return 0;
}

static void sock_watch(sock *s, uint32_t ev)
{
    if (s->fd < 0 || s->ev == ev)
        return;
    struct epoll_event e = {.events = ev, .data.ptr = s};
    epoll_ctl(ep, EPOLL_CTL_MOD, s->fd, &e);
    s->ev = ev;
}

static void sock_close(sock *s)
{
    if (s->fd >= 0) {
        epoll_ctl(ep, EPOLL_CTL_DEL, s->fd, NULL);
        close(s->fd);
    }
    s->fd = -1;
    s->connected = 0;
    s->ev = 0;
    s->in.off = s->in.len = 0;
    s->out.off = s->out.len = 0;
}

static int sock_connect(sock *s, const lg_addr *a, int src_index)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (a->src_count > 0) {
        struct sockaddr_in src = {.sin_family = AF_INET};
        uint32_t first = ntohl(a->src_first);
        src.sin_addr.s_addr =
            htonl(first + (uint32_t)(src_index % a->src_count));
        setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
        if (bind(fd, (struct sockaddr *)&src, sizeof src) != 0) {
            close(fd);
            return -1;
        }
    }
    struct sockaddr_in dst = {.sin_family = AF_INET,
                              .sin_port = htons(a->port),
                              .sin_addr.s_addr = a->dst};
    lg_stats.connects++;
    if (connect(fd, (struct sockaddr *)&dst, sizeof dst) != 0 &&
        errno != EINPROGRESS) {
        close(fd);
        lg_stats.connect_errors++;
        return -1;
    }
    s->fd = fd;
    s->connected = 0;
    s->ev = EPOLLIN | EPOLLOUT;
    struct epoll_event e = {.events = s->ev, .data.ptr = s};
    if (epoll_ctl(ep, EPOLL_CTL_ADD, fd, &e) != 0) {
        close(fd);
        s->fd = -1;
        return -1;
    }
    return 0;
}

/* Write what is queued. -1 when the connection failed. */
static int sock_flush(sock *s)
{
    if (s->fd < 0)
        return -1;
    if (!s->connected)
        return 0; /* sent once the connect completes */
    while (buf_avail(&s->out)) {
        ssize_t n =
            send(s->fd, buf_data(&s->out), buf_avail(&s->out), MSG_NOSIGNAL);
        if (n > 0) {
            buf_consume(&s->out, (size_t)n);
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            sock_watch(s, EPOLLIN | EPOLLOUT);
            return 0;
        }
        if (n < 0 && errno == EINTR)
            continue;
        return -1;
    }
    sock_watch(s, EPOLLIN);
    return 0;
}

/* Common part of an event: finish a connect, write, read everything.
 * Returns -1 when the connection is gone (after reading what came). */
static int sock_io(sock *s, uint32_t events)
{
    if (s->fd < 0)
        return -1;
    if (!s->connected && (events & (EPOLLOUT | EPOLLERR | EPOLLHUP))) {
        int err = 0;
        socklen_t len = sizeof err;
        getsockopt(s->fd, SOL_SOCKET, SO_ERROR, &err, &len);
        if (err) {
            lg_stats.connect_errors++;
            return -1;
        }
        s->connected = 1;
    }
    if (s->connected && (events & EPOLLOUT) && sock_flush(s) != 0)
        return -1;
    int gone = 0;
    if (events & (EPOLLIN | EPOLLHUP | EPOLLERR)) {
        for (;;) {
            if (buf_reserve(&s->in, 16384) != 0)
                return -1;
            size_t want = s->in.cap - s->in.len - 1; /* keep a spare byte */
            ssize_t n = recv(s->fd, s->in.p + s->in.len, want, 0);
            if (n > 0) {
                s->in.len += (size_t)n;
                s->in.p[s->in.len] = '\0';
                if ((size_t)n < want)
                    break; /* drained (a short read) */
                continue;
            }
            if (n == 0) {
                gone = 1;
                break;
            }
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                break;
            if (errno == EINTR)
                continue;
            gone = 1;
            break;
        }
    }
    return gone ? -1 : 0;
}

int lg_run(int (*tick)(void *ctx, double now), void *ctx, int tick_ms)
{
    struct epoll_event evs[512];
    double next_tick = 0;
    for (;;) {
        int n = epoll_wait(ep, evs, 512, tick_ms);
        if (n < 0 && errno != EINTR)
            return -1;
        for (int i = 0; i < n; i++) {
            sock *s = evs[i].data.ptr;
            s->on_event(s, evs[i].events);
        }
        double now = lg_now();
        if (now >= next_tick) {
            if (tick(ctx, now))
                return 0;
            next_tick = now + tick_ms / 1000.0;
        }
    }
}

/* --------------------------------------------------------------- HTTP -- */

typedef struct hreq {
    struct hreq *next;
    char *text;
    size_t len;
    lg_http_fn fn;
    void *ctx;
} hreq;

struct lg_http {
    sock s; /* first: the epoll pointer is the lg_http */
    lg_addr a;
    int src;
    hreq *head, *tail;
    int sent;    /* head is on the wire */
    lg_buf body; /* decoded chunked body */
};

static void http_event(sock *s, uint32_t events);
static void http_fail_inflight(lg_http *h);

lg_http *lg_http_new(const lg_addr *a, int src_index)
{
    lg_http *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->s.fd = -1;
    h->s.on_event = http_event;
    h->a = *a;
    h->src = src_index;
    return h;
}

int lg_http_busy(const lg_http *h)
{
    return h->head != NULL;
}

static void http_start(lg_http *h)
{
    if (!h->head || h->sent)
        return;
    if (h->s.fd < 0 && sock_connect(&h->s, &h->a, h->src) != 0) {
        /* cannot even connect: fail the request */
        hreq *r = h->head;
        h->head = r->next;
        if (!h->head)
            h->tail = NULL;
        lg_stats.http_transport_errors++;
        r->fn(r->ctx, 0, "", 0);
        free(r->text);
        free(r);
        return;
    }
    buf_add(&h->s.out, h->head->text, h->head->len);
    h->sent = 1;
    lg_stats.http_requests++;
    if (sock_flush(&h->s) != 0) {
        sock_close(&h->s);
        http_fail_inflight(h); /* the callback may queue more */
        http_start(h);
    }
}

int lg_http_request(lg_http *h, const char *method, const char *path,
                    const char *headers, const char *body, lg_http_fn fn,
                    void *ctx)
{
    hreq *r = calloc(1, sizeof *r);
    if (!r)
        return -1;
    size_t blen = body ? strlen(body) : 0;
    size_t cap = strlen(method) + strlen(path) +
                 (headers ? strlen(headers) : 0) + blen + 160;
    r->text = malloc(cap);
    if (!r->text) {
        free(r);
        return -1;
    }
    int n = snprintf(r->text, cap,
                     "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\n%s%s"
                     "Content-Length: %zu\r\n\r\n",
                     method, path, headers ? headers : "",
                     body ? "Content-Type: application/json\r\n" : "", blen);
    if (n < 0 || (size_t)n + blen >= cap) {
        free(r->text);
        free(r);
        return -1;
    }
    /* r->text is counted by r->len, not NUL-terminated */
    if (body)
        // NOLINTNEXTLINE(bugprone-not-null-terminated-result)
        memcpy(r->text + n, body, blen);
    r->len = (size_t)n + blen;
    r->fn = fn;
    r->ctx = ctx;
    if (h->tail)
        h->tail->next = r;
    else
        h->head = r;
    h->tail = r;
    http_start(h);
    return 0;
}

/* Find header `name` in the header block [p, end); copy its value. */
static int header_value(const char *p, const char *end, const char *name,
                        char *out, size_t outlen)
{
    size_t nl = strlen(name);
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        if ((size_t)(eol - p) > nl && strncasecmp(p, name, nl) == 0 &&
            p[nl] == ':') {
            const char *v = p + nl + 1;
            while (v < eol && (*v == ' ' || *v == '\t'))
                v++;
            const char *ve = eol;
            while (ve > v && (ve[-1] == '\r' || ve[-1] == ' '))
                ve--;
            size_t n = (size_t)(ve - v);
            if (n >= outlen)
                n = outlen - 1;
            memcpy(out, v, n);
            out[n] = '\0';
            return 1;
        }
        p = eol + 1;
    }
    return 0;
}

/* Parse one response at the start of h->s.in. 1: complete (*status, body in
 * *body and *blen, *used bytes, *close); 0: need more; -1: malformed. */
static int http_parse(lg_http *h, int *status, char **body, size_t *blen,
                      size_t *used, int *close_after)
{
    char *p = buf_data(&h->s.in);
    size_t avail = buf_avail(&h->s.in);
    char *hend = avail >= 4 ? memmem(p, avail, "\r\n\r\n", 4) : NULL;
    if (!hend)
        return avail > 65536 ? -1 : 0;
    if (avail < 12 || strncmp(p, "HTTP/1.", 7) != 0)
        return -1;
    *status = atoi(p + 9);
    char v[64];
    *close_after = header_value(p, hend, "Connection", v, sizeof v) &&
                   strcasecmp(v, "close") == 0;
    size_t hlen = (size_t)(hend - p) + 4;
    if (header_value(p, hend, "Transfer-Encoding", v, sizeof v) &&
        strcasecmp(v, "chunked") == 0) {
        size_t pos = hlen;
        h->body.off = h->body.len = 0;
        for (;;) {
            char *line_end = memmem(p + pos, avail - pos, "\r\n", 2);
            if (!line_end)
                return 0;
            size_t size = strtoul(p + pos, NULL, 16);
            pos = (size_t)(line_end - p) + 2;
            if (size == 0) { /* trailers end with an empty line */
                char *t = memmem(p + pos - 2, avail - pos + 2, "\r\n\r\n", 4);
                if (!t)
                    return 0;
                *used = (size_t)(t - p) + 4;
                break;
            }
            if (avail - pos < size + 2)
                return 0;
            buf_add(&h->body, p + pos, size);
            pos += size + 2;
        }
        buf_add(&h->body, "", 1);
        *body = h->body.p;
        *blen = h->body.len - 1;
        return 1;
    }
    size_t clen = 0;
    if (header_value(p, hend, "Content-Length", v, sizeof v))
        clen = strtoul(v, NULL, 10);
    else if (*status >= 200 && *status != 204 && *status != 304)
        *close_after = 1; /* body until EOF: not used by the servers here */
    if (avail < hlen + clen)
        return 0;
    /* NUL-terminate the body in place (the buffer keeps one spare byte;
     * the byte after it belongs to the next response, saved and restored
     * by the caller through *used). */
    *body = p + hlen;
    *blen = clen;
    *used = hlen + clen;
    return 1;
}

static void http_fail_inflight(lg_http *h)
{
    if (h->sent && h->head) {
        hreq *r = h->head;
        h->head = r->next;
        if (!h->head)
            h->tail = NULL;
        h->sent = 0;
        lg_stats.http_transport_errors++;
        r->fn(r->ctx, 0, "", 0);
        free(r->text);
        free(r);
    }
    h->sent = 0;
}

static void http_event(sock *s, uint32_t events)
{
    lg_http *h = (lg_http *)s;
    int gone = sock_io(s, events) != 0;
    for (;;) {
        if (!h->sent || !h->head)
            break;
        int status = 0, close_after = 0;
        char *body = NULL;
        size_t blen = 0, used = 0;
        int rc = http_parse(h, &status, &body, &blen, &used, &close_after);
        if (rc == 0)
            break;
        if (rc < 0) {
            gone = 1;
            break;
        }
        hreq *r = h->head;
        h->head = r->next;
        if (!h->head)
            h->tail = NULL;
        h->sent = 0;
        char saved = body[blen];
        body[blen] = '\0';
        r->fn(r->ctx, status, body, blen);
        body[blen] = saved;
        buf_consume(&s->in, used);
        free(r->text);
        free(r);
        if (close_after) {
            sock_close(s);
            gone = 0;
        }
        http_start(h);
    }
    if (gone) {
        sock_close(s);
        http_fail_inflight(h);
        http_start(h); /* reconnect for whatever waits */
    }
}

/* ---------------------------------------------------------- WebSocket -- */

enum { WS_CONNECTING, WS_OPEN, WS_CLOSED };

struct lg_ws {
    sock s; /* first */
    int state;
    char accept[32];
    const lg_ws_handlers *hd;
    void *ctx;
    lg_buf msg; /* fragments of a message */
    int in_msg;
};

static void ws_event(sock *s, uint32_t events);
static void ws_close(lg_ws *w, const char *why);

static void b64(const unsigned char *in, int n, char *out)
{
    EVP_EncodeBlock((unsigned char *)out, in, n);
}

lg_ws *lg_ws_new(const lg_addr *a, int src_index, const char *path,
                 const char *protocol, const lg_ws_handlers *hd, void *ctx)
{
    lg_ws *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->s.fd = -1;
    w->s.on_event = ws_event;
    w->hd = hd;
    w->ctx = ctx;
    unsigned char raw[16];
    for (int i = 0; i < 16; i += 4) {
        uint32_t r = rnd32();
        memcpy(raw + i, &r, 4);
    }
    char key[32];
    b64(raw, 16, key);
    char cat[96];
    snprintf(cat, sizeof cat, "%s258EAFA5-E914-47DA-95CA-C5AB0DC85B11", key);
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int mdlen = 0;
    EVP_Digest(cat, strlen(cat), md, &mdlen, EVP_sha1(), NULL);
    b64(md, (int)mdlen, w->accept);
    char req[512];
    char host[32];
    inet_ntop(AF_INET, &a->dst, host, sizeof host);
    int n = snprintf(req, sizeof req,
                     "GET %s HTTP/1.1\r\nHost: %s:%u\r\nUpgrade: websocket\r\n"
                     "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
                     "Sec-WebSocket-Version: 13\r\n%s%s%s\r\n",
                     path, host, a->port, key,
                     protocol ? "Sec-WebSocket-Protocol: " : "",
                     protocol ? protocol : "", protocol ? "\r\n" : "");
    buf_add(&w->s.out, req, (size_t)n);
    if (sock_connect(&w->s, a, src_index) != 0) {
        w->state = WS_CLOSED;
        return w; /* reported through lg_ws_is_open; caller counts it */
    }
    return w;
}

int lg_ws_is_open(const lg_ws *w)
{
    return w && w->state == WS_OPEN;
}

static int ws_frame(lg_ws *w, int opcode, const char *data, size_t len)
{
    unsigned char hdr[14];
    size_t h = 0;
    hdr[h++] = (unsigned char)(0x80 | opcode);
    if (len < 126) {
        hdr[h++] = (unsigned char)(0x80 | len);
    } else if (len < 65536) {
        hdr[h++] = 0x80 | 126;
        hdr[h++] = (unsigned char)(len >> 8);
        hdr[h++] = (unsigned char)len;
    } else {
        hdr[h++] = 0x80 | 127;
        for (int i = 7; i >= 0; i--)
            hdr[h++] = (unsigned char)((uint64_t)len >> (8 * i));
    }
    uint32_t m = rnd32();
    unsigned char mask[4];
    memcpy(mask, &m, 4);
    memcpy(hdr + h, mask, 4);
    h += 4;
    if (buf_reserve(&w->s.out, h + len + 1) != 0)
        return -1;
    memcpy(w->s.out.p + w->s.out.len, hdr, h);
    unsigned char *dst = (unsigned char *)w->s.out.p + w->s.out.len + h;
    for (size_t i = 0; i < len; i++)
        dst[i] = (unsigned char)data[i] ^ mask[i & 3];
    w->s.out.len += h + len;
    lg_stats.ws_frames_out++;
    return sock_flush(&w->s);
}

int lg_ws_send(lg_ws *w, const char *text, size_t len)
{
    if (!w || w->state != WS_OPEN)
        return -1;
    if (ws_frame(w, 1, text, len) != 0) {
        ws_close(w, "send failed");
        return -1;
    }
    return 0;
}

static void ws_close(lg_ws *w, const char *why)
{
    if (w->state == WS_CLOSED)
        return;
    w->state = WS_CLOSED;
    sock_close(&w->s);
    lg_stats.ws_closed++;
    if (w->hd->closed)
        w->hd->closed(w->ctx, why);
}

/* Parse frames at the start of the input. -1 to close. */
static int ws_frames(lg_ws *w)
{
    for (;;) {
        unsigned char *p = (unsigned char *)buf_data(&w->s.in);
        size_t avail = buf_avail(&w->s.in);
        if (avail < 2)
            return 0;
        int fin = p[0] & 0x80, op = p[0] & 0x0f;
        int masked = p[1] & 0x80;
        uint64_t len = p[1] & 0x7f;
        size_t h = 2;
        if (len == 126) {
            if (avail < 4)
                return 0;
            len = ((uint64_t)p[2] << 8) | p[3];
            h = 4;
        } else if (len == 127) {
            if (avail < 10)
                return 0;
            len = 0;
            for (int i = 0; i < 8; i++)
                len = (len << 8) | p[2 + i];
            h = 10;
        }
        if (len > (64u << 20))
            return -1;
        if (masked)
            h += 4;
        if (avail < h + len)
            return 0;
        unsigned char *data = p + h;
        if (masked)
            for (uint64_t i = 0; i < len; i++)
                data[i] ^= p[h - 4 + (i & 3)];
        if (op == 8) {
            ws_frame(w, 8, (char *)data, len >= 2 ? 2 : 0);
            return -1;
        }
        if (op == 9) {
            lg_stats.ws_pings++;
            ws_frame(w, 10, (char *)data, (size_t)len);
        } else if (op == 1 || op == 2 || op == 0) {
            if (op != 0) {
                w->in_msg = 1;
                w->msg.off = w->msg.len = 0;
            }
            if (fin && w->msg.len == 0) {
                /* the common case: one frame, handled in place */
                char saved = (char)data[len];
                data[len] = '\0';
                lg_stats.ws_messages_in++;
                lg_stats.ws_bytes_in += len;
                w->hd->message(w->ctx, (char *)data, (size_t)len);
                /* the handler may have closed us */
                if (w->state != WS_OPEN)
                    return -1;
                data[len] = (unsigned char)saved;
                w->in_msg = 0;
            } else {
                buf_add(&w->msg, data, (size_t)len);
                if (fin) {
                    w->msg.p[w->msg.len] = '\0';
                    lg_stats.ws_messages_in++;
                    lg_stats.ws_bytes_in += w->msg.len;
                    w->hd->message(w->ctx, w->msg.p, w->msg.len);
                    if (w->state != WS_OPEN)
                        return -1;
                    w->msg.off = w->msg.len = 0;
                    w->in_msg = 0;
                }
            }
        }
        buf_consume(&w->s.in, h + (size_t)len);
    }
}

static void ws_event(sock *s, uint32_t events)
{
    lg_ws *w = (lg_ws *)s;
    if (w->state == WS_CLOSED)
        return;
    int gone = sock_io(s, events) != 0;
    if (w->state == WS_CONNECTING) {
        char *p = buf_data(&s->in);
        size_t avail = buf_avail(&s->in);
        char *hend = avail >= 4 ? memmem(p, avail, "\r\n\r\n", 4) : NULL;
        if (!hend) {
            if (gone)
                ws_close(w, "connection lost during the handshake");
            return;
        }
        char v[64];
        if (strncmp(p, "HTTP/1.1 101", 12) != 0) {
            char why[80];
            snprintf(why, sizeof why, "handshake refused: %.40s", p);
            char *nl = strchr(why, '\r');
            if (nl)
                *nl = '\0';
            ws_close(w, why);
            return;
        }
        if (!header_value(p, hend, "Sec-WebSocket-Accept", v, sizeof v) ||
            strcmp(v, w->accept) != 0) {
            ws_close(w, "bad Sec-WebSocket-Accept");
            return;
        }
        buf_consume(&s->in, (size_t)(hend - p) + 4);
        w->state = WS_OPEN;
        if (w->hd->open)
            w->hd->open(w->ctx);
        if (w->state != WS_OPEN)
            return;
    }
    if (ws_frames(w) != 0) {
        ws_close(w, "closed by the server");
        return;
    }
    if (gone)
        ws_close(w, "connection lost");
}

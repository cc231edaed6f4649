/*
 * metrics.c - counters, gauges and the HTTP latency histogram (metrics.h).
 *
 * Series live in small fixed arrays searched linearly: there are a few dozen
 * routes and statuses, so this beats a hash table and never allocates.
 */
#include "server/runtime/metrics.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_HTTP_SERIES 256
#define MAX_SCALARS 64

static const double bucket_bounds[] = {
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5};
#define NBUCKETS (sizeof bucket_bounds / sizeof bucket_bounds[0])

typedef struct http_series {
    const char *route, *method;
    int status;
    uint64_t count;
    uint64_t buckets[NBUCKETS]; /* non-cumulative; summed on render */
    double sum;
} http_series;

typedef struct scalar {
    const char *name, *help;
    int is_gauge;
    double value;
} scalar;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; /* guards below */
static http_series http[MAX_HTTP_SERIES];
static int nhttp;
static scalar scalars[MAX_SCALARS];
static int nscalars;

void metrics_observe_http(const char *route, const char *method, int status,
                          double seconds)
{
    pthread_mutex_lock(&lock);
    http_series *s = NULL;
    for (int i = 0; i < nhttp; i++) {
        if (http[i].status == status && http[i].route == route &&
            strcmp(http[i].method, method) == 0) {
            s = &http[i];
            break;
        }
    }
    if (!s && nhttp < MAX_HTTP_SERIES) {
        s = &http[nhttp++];
        s->route = route;
        s->method = method;
        s->status = status;
    }
    if (s) {
        s->count++;
        s->sum += seconds;
        for (size_t b = 0; b < NBUCKETS; b++) {
            if (seconds <= bucket_bounds[b]) {
                s->buckets[b]++;
                break;
            }
        }
    }
    pthread_mutex_unlock(&lock);
}

static void set_scalar(const char *name, const char *help, int is_gauge,
                       double v)
{
    pthread_mutex_lock(&lock);
    scalar *s = NULL;
    for (int i = 0; i < nscalars; i++)
        if (strcmp(scalars[i].name, name) == 0)
            s = &scalars[i];
    if (!s && nscalars < MAX_SCALARS) {
        s = &scalars[nscalars++];
        s->name = name;
        s->help = help;
        s->is_gauge = is_gauge;
    }
    if (s)
        s->value = is_gauge ? v : s->value + v;
    pthread_mutex_unlock(&lock);
}

void metrics_count(const char *name, const char *help, uint64_t n)
{
    set_scalar(name, help, 0, (double)n);
}

void metrics_gauge(const char *name, const char *help, double value)
{
    set_scalar(name, help, 1, value);
}

typedef struct buf {
    char *data;
    size_t len, cap;
} buf;

static void bprintf(buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Append one formatted piece (our pieces are short lines, well under the
 * line buffer; a longer one would be cut, never overflow). */
static void bprintf(buf *b, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    size_t len = (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
    if (b->len + len >= b->cap) {
        size_t cap = (b->len + len + 1) * 2;
        char *p = realloc(b->data, cap);
        if (!p)
            return; /* out of memory: drop this piece */
        b->data = p;
        b->cap = cap;
    }
    memcpy(b->data + b->len, line, len + 1);
    b->len += len;
}

char *metrics_render(void)
{
    buf b = {malloc(4096), 0, 4096};
    if (!b.data)
        return NULL;
    b.data[0] = '\0';
    pthread_mutex_lock(&lock);
    bprintf(&b, "# HELP conclave_http_requests_total HTTP requests by route "
                "and status.\n# TYPE conclave_http_requests_total counter\n");
    for (int i = 0; i < nhttp; i++)
        bprintf(&b,
                "conclave_http_requests_total{route=\"%s\",method=\"%s\","
                "status=\"%d\"} %llu\n",
                http[i].route, http[i].method, http[i].status,
                (unsigned long long)http[i].count);
    bprintf(&b, "# HELP conclave_http_request_seconds HTTP request latency.\n"
                "# TYPE conclave_http_request_seconds histogram\n");
    for (int i = 0; i < nhttp; i++) {
        const http_series *s = &http[i];
        uint64_t cum = 0;
        for (size_t k = 0; k < NBUCKETS; k++) {
            cum += s->buckets[k];
            bprintf(&b,
                    "conclave_http_request_seconds_bucket{route=\"%s\","
                    "method=\"%s\",status=\"%d\",le=\"%g\"} %llu\n",
                    s->route, s->method, s->status, bucket_bounds[k],
                    (unsigned long long)cum);
        }
        bprintf(&b,
                "conclave_http_request_seconds_bucket{route=\"%s\",method="
                "\"%s\",status=\"%d\",le=\"+Inf\"} %llu\n"
                "conclave_http_request_seconds_sum{route=\"%s\",method=\"%s\","
                "status=\"%d\"} %.6f\n"
                "conclave_http_request_seconds_count{route=\"%s\",method="
                "\"%s\",status=\"%d\"} %llu\n",
                s->route, s->method, s->status, (unsigned long long)s->count,
                s->route, s->method, s->status, s->sum, s->route, s->method,
                s->status, (unsigned long long)s->count);
    }
    for (int i = 0; i < nscalars; i++) {
        const scalar *s = &scalars[i];
        bprintf(&b, "# HELP %s %s\n# TYPE %s %s\n%s %.17g\n", s->name, s->help,
                s->name, s->is_gauge ? "gauge" : "counter", s->name, s->value);
    }
    pthread_mutex_unlock(&lock);
    return b.data;
}

/*
 * metrics.h - process metrics in the Prometheus text format.
 *
 * HTTP requests are counted by route pattern and status, with a latency
 * histogram; other modules add named counters and gauges. All functions are
 * thread-safe (one mutex; the hot path is a short critical section).
 */
#ifndef CONCLAVE_METRICS_H
#define CONCLAVE_METRICS_H

#include <stdint.h>

/* route is a static string (the route pattern), never a raw path. */
void metrics_observe_http(const char *route, const char *method, int status,
                          double seconds);
/* name is a static string, a valid Prometheus metric name. */
void metrics_count(const char *name, const char *help, uint64_t n);
void metrics_gauge(const char *name, const char *help, double value);
/* The whole exposition text; malloc'd, the caller frees. */
char *metrics_render(void);

#endif

/*
 * ratelimit.c - token buckets in a fixed-size table (see ratelimit.h).
 *
 * The table is process-wide state (one per process, like the metrics
 * registry), guarded by `lock`; keys are 64-bit FNV-1a hashes of "ip:" or
 * "token:" plus the value, so a raw token is never kept.
 */
#include "api/ratelimit.h"

#include "api/abuse_log.h"

#include <math.h>
#include <microhttpd.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#define SETS 2048
#define WAYS 4

typedef struct bucket {
    uint64_t key; /* 0: unused */
    double tokens;
    double last; /* monotonic seconds of the last refill */
} bucket;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static bucket table[API_BUCKETS_COUNT][SETS][WAYS];

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t key_of(const char *kind, const char *value)
{
    uint64_t h = 1469598103934665603ull;
    for (const char *s = kind; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    for (const char *s = value; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h ? h : 1;
}

/* The bucket for key, refilled to now (lock held). */
static bucket *find(api_buckets t, uint64_t key, double now, double rate,
                    double burst)
{
    bucket *set = table[t][key % SETS], *victim = &set[0];
    for (int i = 0; i < WAYS; i++) {
        if (set[i].key == key) {
            bucket *b = &set[i];
            b->tokens += (now - b->last) * rate;
            if (b->tokens > burst)
                b->tokens = burst;
            b->last = now;
            return b;
        }
        if (set[i].key == 0 || set[i].last < victim->last)
            victim = &set[i];
    }
    victim->key = key;
    victim->tokens = burst;
    victim->last = now;
    return victim;
}

double api_bucket_take(api_buckets t, const char *key, double rate,
                       double burst)
{
    double now = now_s(), wait = 0;
    pthread_mutex_lock(&lock);
    bucket *b = find(t, key_of("", key), now, rate, burst);
    if (b->tokens >= 1.0)
        b->tokens -= 1.0;
    else
        wait = (1.0 - b->tokens) / rate;
    pthread_mutex_unlock(&lock);
    return wait;
}

int api_ratelimit(api_request *req, api_response *res)
{
    const config *cfg = req->app->cfg;
    double rate = cfg->rate_per_second, burst = cfg->rate_burst;
    const char *auth = MHD_lookup_connection_value(
        req->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
    double now = now_s(), wait = 0;

    pthread_mutex_lock(&lock);
    bucket *b[2] = {find(API_BUCKETS_REQUESTS, key_of("ip:", req->client_ip),
                         now, rate, burst),
                    NULL};
    if (auth) {
        b[1] = find(API_BUCKETS_REQUESTS, key_of("token:", auth), now, rate,
                    burst);
        if (b[1] == b[0]) /* same set slot: cannot happen for distinct keys */
            b[1] = NULL;
    }
    for (int i = 0; i < 2; i++)
        if (b[i] && b[i]->tokens < 1.0 && (1.0 - b[i]->tokens) / rate > wait)
            wait = (1.0 - b[i]->tokens) / rate;
    if (wait == 0) {
        for (int i = 0; i < 2; i++)
            if (b[i])
                b[i]->tokens -= 1.0;
    }
    pthread_mutex_unlock(&lock);

    if (wait == 0)
        return 0;
    api_abuse_note("request_flood", req->client_ip);
    api_problem(res, 429,
                "too many requests; wait for the number of seconds in "
                "Retry-After, then slow down",
                NULL);
    res->retry_after = (int)ceil(wait);
    if (res->retry_after < 1)
        res->retry_after = 1;
    return -1;
}

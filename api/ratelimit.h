/*
 * ratelimit.h - token buckets per client IP and per bearer token for the
 * /api/ routes: each request takes one token from its IP's bucket and, when
 * it carries an Authorization header, one from that token's bucket. Buckets
 * refill at cfg->rate_per_second up to cfg->rate_burst. A request that
 * finds an empty bucket gets 429 with Retry-After.
 *
 * The buckets live in one fixed-size table (no allocation per client): a
 * set-associative hash table where a new key evicts the least recently used
 * bucket of its set, so a flood of distinct keys cannot grow memory; an
 * evicted client simply starts again with a full bucket.
 *
 * The same buckets, in tables of their own so one kind of traffic cannot
 * evict another's, count the slower quotas too (accounts created and
 * password checks per IP): api_bucket_take.
 *
 * Threads: any HTTP thread; one mutex guards the tables.
 */
#ifndef CONCLAVE_RATELIMIT_H
#define CONCLAVE_RATELIMIT_H

#include "api/api.h"

/* The separate bucket tables. */
typedef enum {
    API_BUCKETS_REQUESTS = 0, /* api_ratelimit's */
    API_BUCKETS_SIGNUPS,      /* accounts created per IP */
    API_BUCKETS_SIGNINS,      /* password checks per IP */
    API_BUCKETS_COUNT
} api_buckets;

/* Take one token from the bucket of key in table t (a full bucket of burst
 * when new), refilled at rate per second. Returns 0 when taken, else the
 * seconds until one is there (nothing taken). Cannot fail. */
double api_bucket_take(api_buckets t, const char *key, double rate,
                       double burst);

/* 0 when req may proceed; otherwise fills res with 429 (Retry-After) and
 * returns -1. */
int api_ratelimit(api_request *req, api_response *res);

#endif

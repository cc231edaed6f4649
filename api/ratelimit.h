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
 * Threads: any HTTP thread; one mutex guards the table.
 */
#ifndef CONCLAVE_RATELIMIT_H
#define CONCLAVE_RATELIMIT_H

#include "api/api.h"

/* 0 when req may proceed; otherwise fills res with 429 (Retry-After) and
 * returns -1. */
int api_ratelimit(api_request *req, api_response *res);

#endif

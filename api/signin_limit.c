/*
 * signin_limit.c - sign-up and sign-in cost bounds (see signin_limit.h).
 */
#include "api/signin_limit.h"

#include "api/abuse_log.h"
#include "api/ratelimit.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>

static atomic_int hashing; /* password hashes being computed now */

/* Fill res with a 429 naming what ran out, with Retry-After wait. */
static int refuse(api_request *req, api_response *res, const char *kind,
                  const char *detail, double wait)
{
    api_abuse_note(kind, req->client_ip);
    api_problem(res, 429, detail, NULL);
    res->retry_after = (int)ceil(wait);
    if (res->retry_after < 1)
        res->retry_after = 1;
    return -1;
}

int api_signup_admit(api_request *req, api_response *res)
{
    int n = req->app->cfg->signups_per_hour;
    double wait = api_bucket_take(API_BUCKETS_SIGNUPS, req->client_ip,
                                  (double)n / 3600.0, (double)n);
    if (wait == 0)
        return 0;
    char detail[192];
    snprintf(detail, sizeof detail,
             "too many accounts were created from your address (at most %d "
             "an hour); use the token you have, or wait for the seconds in "
             "Retry-After",
             n);
    return refuse(req, res, "signup_quota", detail, wait);
}

int api_scrypt_admit(api_request *req, api_response *res)
{
    const config *cfg = req->app->cfg;
    int n = cfg->signins_per_minute;
    double wait = api_bucket_take(API_BUCKETS_SIGNINS, req->client_ip,
                                  (double)n / 60.0, (double)n);
    if (wait != 0) {
        char detail[192];
        snprintf(detail, sizeof detail,
                 "too many password checks from your address (at most %d a "
                 "minute); wait for the seconds in Retry-After",
                 n);
        return refuse(req, res, "signin_rate", detail, wait);
    }
    if (atomic_fetch_add(&hashing, 1) >= cfg->scrypt_concurrency) {
        atomic_fetch_sub(&hashing, 1);
        return refuse(req, res, "signin_busy",
                      "the server is checking too many passwords at once; "
                      "retry in a second",
                      1);
    }
    return 0;
}

void api_scrypt_done(void)
{
    atomic_fetch_sub(&hashing, 1);
}

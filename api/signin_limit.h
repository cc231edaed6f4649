/*
 * signin_limit.h - what sign-up and sign-in may cost: accounts created per
 * client IP per hour (cfg->signups_per_hour), password checks per client
 * IP per minute (cfg->signins_per_minute), and a global cap on password
 * hashes (scrypt, about 75 ms and 16 MiB each) computed at once
 * (cfg->scrypt_concurrency). Each refusal is a 429 problem with
 * Retry-After, and an abuse log line.
 *
 * The per-IP counts are token buckets of api/ratelimit.h (per process);
 * the global cap is one atomic counter.
 *
 * Threads: any HTTP thread.
 */
#ifndef CONCLAVE_SIGNIN_LIMIT_H
#define CONCLAVE_SIGNIN_LIMIT_H

#include "api/api.h"

/* May req's IP create one more account? 0 yes (counted); -1 with res
 * filled (429). */
int api_signup_admit(api_request *req, api_response *res);

/* May req compute a password hash now? Checks the IP's password-check rate,
 * then takes one of the global slots. 0 admitted: the caller must call
 * api_scrypt_done once the hash is computed; -1 with res filled (429). */
int api_scrypt_admit(api_request *req, api_response *res);

/* Give back the slot api_scrypt_admit took. */
void api_scrypt_done(void);

#endif

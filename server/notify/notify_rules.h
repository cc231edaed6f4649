/*
 * notify_rules.h - the small pure rules of notifications: webhook
 * signatures (HMAC-SHA256 over "TIMESTAMP.BODY"), which webhook URLs and
 * email addresses are accepted, quiet hours, random secrets. No I/O, no
 * database: unit-tested in tests/unit/test_notify_rules.c.
 */
#ifndef CONCLAVE_NOTIFY_RULES_H
#define CONCLAVE_NOTIFY_RULES_H

#include <stddef.h>
#include <time.h>

/* "t=UNIX,v1=HEX": HMAC-SHA256 keyed by secret over "<t>.<body>". out must
 * hold NOTIFY_SIGNATURE_MAX bytes. Returns 0, or -1 (OpenSSL failed). */
#define NOTIFY_SIGNATURE_MAX 96
int notify_signature(const char *secret, long t, const char *body, size_t len,
                     char out[NOTIFY_SIGNATURE_MAX]);

/* Whether url may receive webhooks by its form: https://HOST..., or
 * http:// to a loopback host (localhost, 127.x.x.x, [::1]) for tests and
 * local tools; at most 2048 bytes, no spaces or control characters. Where
 * its host resolves is checked apart (notify_dest.h). */
int notify_url_ok(const char *url);

/* Whether addr looks like one email address (local@domain.tld, at most
 * 254 bytes, no spaces, angle brackets, commas or control characters, so
 * it cannot add SMTP headers or recipients). */
int notify_email_ok(const char *addr);

/* Quiet hours from minute start to minute end of the player's day
 * (start == end: none; start > end wraps past midnight), the player's day
 * being UTC plus offset minutes. Returns 1 when now is inside them and
 * sets *until to when they end; 0 otherwise. */
int notify_quiet(int start, int end, int offset, time_t now, time_t *until);

/* bytes random bytes as lower-case hex into out (2*bytes+1). 0, or -1. */
int notify_random_hex(char *out, size_t bytes);

/* Seconds to wait before attempt number `attempts` + 1 after a failure:
 * base_ms * 2^(attempts-1), at most 3600 s. */
double notify_backoff(int base_ms, int attempts);

#endif

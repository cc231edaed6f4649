/*
 * test_notify_rules.c - the pure rules of notifications (server/
 * notify_rules.c): the webhook signature against a known HMAC-SHA256
 * vector, which webhook URLs and email addresses pass, quiet hours across
 * midnight and time zones, the backoff.
 */
#include "server/notify/notify_rules.h"
#include "tests/unit/test.h"

#include <string.h>

static void test_signature(void)
{
    /* echo -n '1700000000.{"a":1}' | openssl dgst -sha256 -hmac whsec_k */
    char sig[NOTIFY_SIGNATURE_MAX];
    REQUIRE(notify_signature("whsec_k", 1700000000L, "{\"a\":1}", 7, sig) == 0);
    CHECK_EQ_STR(
        sig,
        "t=1700000000,v1="
        "a252a4340d8bbbdbac8643a2812cc7d628ad79bfba544bff054ac2fa10f795a2");
    char other[NOTIFY_SIGNATURE_MAX];
    notify_signature("whsec_k", 1700000001L, "{\"a\":1}", 7, other);
    CHECK(strcmp(sig + 16, other + 16) != 0); /* the time is signed too */
    notify_signature("whsec_j", 1700000000L, "{\"a\":1}", 7, other);
    CHECK(strcmp(sig, other) != 0);
}

static void test_urls(void)
{
    CHECK(notify_url_ok("https://hooks.example.com/x?y=1"));
    CHECK(notify_url_ok("http://127.0.0.1:8080/hook"));
    CHECK(notify_url_ok("http://localhost/hook"));
    CHECK(notify_url_ok("http://[::1]:9/hook"));
    CHECK(!notify_url_ok("http://example.com/hook"));
    CHECK(!notify_url_ok("http://127.0.0.1.evil.com/hook"));
    CHECK(!notify_url_ok("http://localhost.evil.com/"));
    CHECK(!notify_url_ok("http://user@example.com:80@evil/"));
    CHECK(!notify_url_ok("ftp://127.0.0.1/"));
    CHECK(!notify_url_ok("https://"));
    CHECK(!notify_url_ok("https://a b/"));
    CHECK(!notify_url_ok(""));
}

static void test_emails(void)
{
    CHECK(notify_email_ok("ann@example.com"));
    CHECK(notify_email_ok("a.b+c@mail.example.org"));
    CHECK(!notify_email_ok("ann@example"));
    CHECK(!notify_email_ok("@example.com"));
    CHECK(!notify_email_ok("a@b@c.com"));
    CHECK(!notify_email_ok("ann@@example.com"));
    CHECK(!notify_email_ok("ann@example.com\r\nBcc: x@y.z"));
    CHECK(!notify_email_ok("ann@example.com, bob@example.com"));
    CHECK(!notify_email_ok("<ann@example.com>"));
    CHECK(!notify_email_ok("ann @example.com"));
}

static void test_quiet(void)
{
    time_t until = 0;
    time_t day = 1700006400; /* 2023-11-15 00:00:00 UTC */
    /* 22:00-07:00 UTC: 23:30 is quiet until 07:00 next day. */
    CHECK(notify_quiet(22 * 60, 7 * 60, 0, day + 23 * 3600 + 1800, &until));
    CHECK_EQ_INT(until, day + 86400 + 7 * 3600);
    CHECK(notify_quiet(22 * 60, 7 * 60, 0, day + 3600, &until));
    CHECK_EQ_INT(until, day + 7 * 3600);
    CHECK(!notify_quiet(22 * 60, 7 * 60, 0, day + 12 * 3600, &until));
    CHECK(!notify_quiet(22 * 60, 7 * 60, 0, day + 7 * 3600, &until));
    /* The player's day at UTC+2: 05:30 UTC is 07:30 there, not quiet. */
    CHECK(!notify_quiet(22 * 60, 7 * 60, 120, day + 5 * 3600 + 1800, &until));
    CHECK(notify_quiet(22 * 60, 7 * 60, 120, day + 4 * 3600, &until));
    CHECK_EQ_INT(until, day + 5 * 3600);
    /* A daytime span, and none at all. */
    CHECK(notify_quiet(9 * 60, 17 * 60, 0, day + 10 * 3600, &until));
    CHECK(!notify_quiet(9 * 60, 9 * 60, 0, day + 9 * 3600, &until));
}

/* Quiet hours at their edges, at fixed instants: the first second is in,
 * the end is out, midnight is in a span that wraps, and "until" is exact. */
static void test_quiet_boundaries(void)
{
    time_t until = 0;
    time_t day = 1700006400; /* 2023-11-15 00:00:00 UTC */
    /* 22:00-07:00 UTC, wrapping past midnight */
    CHECK(!notify_quiet(22 * 60, 7 * 60, 0, day + 22 * 3600 - 1, &until));
    CHECK(notify_quiet(22 * 60, 7 * 60, 0, day + 22 * 3600, &until));
    CHECK_EQ_INT(until, day + 86400 + 7 * 3600);
    CHECK(notify_quiet(22 * 60, 7 * 60, 0, day + 86400, &until));
    CHECK_EQ_INT(until, day + 86400 + 7 * 3600);
    CHECK(notify_quiet(22 * 60, 7 * 60, 0, day + 7 * 3600 - 1, &until));
    CHECK_EQ_INT(until, day + 7 * 3600);
    CHECK(!notify_quiet(22 * 60, 7 * 60, 0, day + 7 * 3600, &until));
    /* ending at midnight: 23:59:59 is quiet until 00:00 */
    CHECK(notify_quiet(22 * 60, 0, 0, day + 86400 - 1, &until));
    CHECK_EQ_INT(until, day + 86400);
    CHECK(!notify_quiet(22 * 60, 0, 0, day + 86400, &until));
    /* starting at midnight */
    CHECK(notify_quiet(0, 6 * 60, 0, day, &until));
    CHECK_EQ_INT(until, day + 6 * 3600);
    CHECK(!notify_quiet(0, 6 * 60, 0, day - 1, &until));
    /* a daytime span 09:00-17:00 */
    CHECK(!notify_quiet(9 * 60, 17 * 60, 0, day + 9 * 3600 - 1, &until));
    CHECK(notify_quiet(9 * 60, 17 * 60, 0, day + 9 * 3600, &until));
    CHECK_EQ_INT(until, day + 17 * 3600);
    CHECK(notify_quiet(9 * 60, 17 * 60, 0, day + 17 * 3600 - 1, &until));
    CHECK_EQ_INT(until, day + 17 * 3600);
    CHECK(!notify_quiet(9 * 60, 17 * 60, 0, day + 17 * 3600, &until));
    /* west of UTC: 22:00-07:00 at UTC-5 is 03:00-12:00 UTC */
    CHECK(!notify_quiet(22 * 60, 7 * 60, -300, day + 3 * 3600 - 1, &until));
    CHECK(notify_quiet(22 * 60, 7 * 60, -300, day + 3 * 3600, &until));
    CHECK_EQ_INT(until, day + 12 * 3600);
    CHECK(!notify_quiet(22 * 60, 7 * 60, -300, day + 12 * 3600, &until));
    /* no quiet hours set (negative), or an empty span */
    CHECK(!notify_quiet(-1, 7 * 60, 0, day + 3600, &until));
    CHECK(!notify_quiet(22 * 60, -1, 0, day + 23 * 3600, &until));
    CHECK(!notify_quiet(0, 0, 0, day, &until));
}

/* Random secrets: every character written, lower-case hex; more than 64
 * bytes refused. */
static void test_random_hex(void)
{
    char out[130];
    memset(out, 'Z', sizeof out);
    REQUIRE(notify_random_hex(out, 64) == 0);
    CHECK_EQ_INT(strlen(out), 128);
    for (int i = 0; i < 128; i++)
        CHECKF((out[i] >= '0' && out[i] <= '9') ||
                   (out[i] >= 'a' && out[i] <= 'f'),
               "character %d is %c", i, out[i]);
    CHECK_EQ_INT(notify_random_hex(out, 65), -1);
}

static void test_backoff(void)
{
    CHECK(notify_backoff(2000, 1) == 2.0);
    CHECK(notify_backoff(2000, 2) == 4.0);
    CHECK(notify_backoff(2000, 4) == 16.0);
    CHECK(notify_backoff(2000, 60) == 3600.0);
    char hex[65];
    REQUIRE(notify_random_hex(hex, 32) == 0);
    CHECK_EQ_INT(strlen(hex), 64);
}

int main(void)
{
    RUN(test_signature);
    RUN(test_urls);
    RUN(test_emails);
    RUN(test_quiet);
    RUN(test_quiet_boundaries);
    RUN(test_random_hex);
    RUN(test_backoff);
    return TEST_SUMMARY();
}

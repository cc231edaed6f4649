/*
 * test_signin_limit.c - the sign-up and sign-in caps (api/signin_limit.h)
 * at their boundary, without a server or a clock: a cap of N admits N and
 * refuses the N+1st with a 429 and Retry-After; the password-hash slots
 * come back one by one; each address has its own buckets. Counts, not
 * timings: the buckets refill at most n per minute or hour, far less than a
 * token while a test runs.
 */
#include "api/signin_limit.h"
#include "server/runtime/config.h"
#include "server/runtime/log.h"
#include "tests/unit/test.h"

#include <string.h>

static config cfg;
static app the_app;

static api_request request(const char *ip)
{
    api_request r;
    memset(&r, 0, sizeof r);
    r.app = &the_app;
    snprintf(r.client_ip, sizeof r.client_ip, "%s", ip);
    return r;
}

/* api_scrypt_admit for ip: 1 admitted, 0 refused with a 429 (checked). */
static int scrypt(const char *ip, const char *want_detail)
{
    api_request r = request(ip);
    api_response res;
    memset(&res, 0, sizeof res);
    int rc = api_scrypt_admit(&r, &res);
    if (rc != 0) {
        CHECK_EQ_INT(res.status, 429);
        CHECK(res.retry_after >= 1);
        const char *d = json_string_value(json_object_get(res.json, "detail"));
        CHECKF(d && strstr(d, want_detail), "detail %s", d ? d : "(none)");
    }
    json_decref(res.json);
    return rc == 0;
}

static void test_scrypt_slots(void)
{
    for (int cap = 1; cap <= 3; cap++) {
        cfg.scrypt_concurrency = cap;
        cfg.signins_per_minute = 1000;
        char ip[32];
        for (int i = 0; i < cap; i++) {
            snprintf(ip, sizeof ip, "10.1.%d.%d", cap, i);
            CHECKF(scrypt(ip, ""), "cap %d: hash %d refused", cap, i + 1);
        }
        snprintf(ip, sizeof ip, "10.1.%d.99", cap);
        CHECKF(!scrypt(ip, "too many passwords at once"),
               "cap %d: hash %d admitted", cap, cap + 1);
        /* one slot back: exactly one more */
        api_scrypt_done();
        CHECKF(scrypt("10.2.0.1", ""), "cap %d: a freed slot", cap);
        CHECKF(!scrypt("10.2.0.2", "too many passwords at once"),
               "cap %d: only one slot was freed", cap);
        for (int i = 0; i < cap; i++)
            api_scrypt_done();
    }
}

static void test_password_checks_per_address(void)
{
    cfg.scrypt_concurrency = 1000;
    cfg.signins_per_minute = 4;
    for (int i = 0; i < 4; i++) {
        CHECKF(scrypt("10.3.0.1", ""), "check %d refused", i + 1);
        api_scrypt_done();
    }
    CHECK(!scrypt("10.3.0.1", "at most 4 a minute"));
    /* another address has its own bucket */
    CHECK(scrypt("10.3.0.2", ""));
    api_scrypt_done();
}

static void test_signups_per_address(void)
{
    cfg.signups_per_hour = 5;
    api_response res;
    for (int i = 0; i < 5; i++) {
        api_request r = request("10.4.0.1");
        memset(&res, 0, sizeof res);
        CHECKF(api_signup_admit(&r, &res) == 0, "account %d refused", i + 1);
        json_decref(res.json);
    }
    api_request r = request("10.4.0.1");
    memset(&res, 0, sizeof res);
    CHECK(api_signup_admit(&r, &res) == -1);
    CHECK_EQ_INT(res.status, 429);
    CHECK(res.retry_after >= 1);
    const char *d = json_string_value(json_object_get(res.json, "detail"));
    CHECK(d && strstr(d, "at most 5 an hour"));
    json_decref(res.json);
    api_request other = request("10.4.0.2");
    memset(&res, 0, sizeof res);
    CHECK(api_signup_admit(&other, &res) == 0);
    json_decref(res.json);
}

int main(void)
{
    char err[256];
    log_set_level(LOG_ERROR);
    config_from_env(&cfg, err, sizeof err);
    the_app.cfg = &cfg;
    RUN(test_scrypt_slots);
    RUN(test_password_checks_per_address);
    RUN(test_signups_per_address);
    return TEST_SUMMARY();
}

/*
 * test_fdlimit.c - unit tests for server/runtime/fdlimit.c: how the
 * descriptor limit is shared out (the reserve, HTTP within its bounds,
 * WebSockets the rest or as configured, never more than the limit unless
 * the operator said so), and that raising the soft limit reaches the hard
 * one.
 */
#include "server/runtime/fdlimit.h"
#include "tests/unit/test.h"

#include <sys/resource.h>

static void test_split(void)
{
    fd_budget b;
    /* 256 descriptors, 20 database connections: 84 kept, 86 and 86. */
    fd_budget_split(256, 20, 0, &b);
    CHECK_EQ_INT(b.limit, 256);
    CHECK_EQ_INT(b.reserve, 20 + FD_RESERVE_OTHER);
    CHECK_EQ_INT(b.http_max, 86);
    CHECK_EQ_INT(b.ws_max, 86);
    CHECK_EQ_INT(b.reserve + b.http_max + b.ws_max, 256);
    /* 1,024: the limit. */
    fd_budget_split(1024, 20, 0, &b);
    CHECK_EQ_INT(b.http_max, 470);
    CHECK_EQ_INT(b.ws_max, 470);
    /* A big limit: HTTP stops at FD_HTTP_MAX, WebSockets take the rest. */
    fd_budget_split(1048576, 20, 0, &b);
    CHECK_EQ_INT(b.http_max, FD_HTTP_MAX);
    CHECK_EQ_INT(b.ws_max, 1048576 - 84 - FD_HTTP_MAX);
    /* A tiny one: HTTP keeps FD_HTTP_MIN, WebSockets at least one. */
    fd_budget_split(100, 20, 0, &b);
    CHECK_EQ_INT(b.http_max, FD_HTTP_MIN);
    CHECK_EQ_INT(b.ws_max, 1);
    /* The operator's cap stands, even above the budget. */
    fd_budget_split(1024, 20, 300, &b);
    CHECK_EQ_INT(b.ws_max, 300);
    fd_budget_split(256, 20, 5000, &b);
    CHECK_EQ_INT(b.ws_max, 5000);
}

static void test_raise(void)
{
    struct rlimit before;
    REQUIRE(getrlimit(RLIMIT_NOFILE, &before) == 0);
    /* Lower the soft limit, then raise it back to the hard one. */
    rlim_t low = before.rlim_max > 64 ? 64 : before.rlim_max;
    struct rlimit lowered = {low, before.rlim_max};
    REQUIRE(setrlimit(RLIMIT_NOFILE, &lowered) == 0);
    int raised = 0;
    long now = fd_limit_raise(&raised);
    struct rlimit after;
    REQUIRE(getrlimit(RLIMIT_NOFILE, &after) == 0);
    rlim_t want = before.rlim_max == RLIM_INFINITY ||
                          before.rlim_max > (rlim_t)FD_LIMIT_CAP
                      ? (rlim_t)FD_LIMIT_CAP
                      : before.rlim_max;
    CHECK(after.rlim_cur == want);
    CHECK_EQ_INT(now, (long)want);
    CHECK_EQ_INT(raised, want > low);
    /* Already at the hard limit: nothing to raise. */
    now = fd_limit_raise(&raised);
    CHECK_EQ_INT(raised, 0);
    CHECK_EQ_INT(now, (long)want);
}

int main(void)
{
    RUN(test_split);
    RUN(test_raise);
    return TEST_SUMMARY();
}

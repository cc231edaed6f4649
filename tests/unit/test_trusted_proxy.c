/*
 * test_trusted_proxy.c - unit tests for common/trusted_proxy.c: CIDR lists
 * (IPv4, IPv6, IPv4 inside ::ffff:0:0/96, bad entries), and the client
 * address behind proxies: X-Forwarded-For is followed from a trusted peer
 * only, from the right, skipping trusted hops, stopping at garbage.
 */
#include "common/trusted_proxy.h"
#include "tests/unit/test.h"

static trusted_proxies parsed(const char *list)
{
    trusted_proxies t;
    char err[160];
    if (trusted_proxies_parse(list, &t, err, sizeof err) != 0)
        fprintf(stderr, "parse \"%s\": %s\n", list, err);
    return t;
}

static void test_parse_and_match(void)
{
    trusted_proxies t = parsed(" 10.0.0.0/8, 192.168.1.7 ,fd00::/8,");
    CHECK_EQ_INT(t.n, 3);
    CHECK(trusted_proxies_has(&t, "10.200.3.4"));
    CHECK(trusted_proxies_has(&t, "::ffff:10.1.1.1")); /* mapped */
    CHECK(!trusted_proxies_has(&t, "11.0.0.1"));
    CHECK(trusted_proxies_has(&t, "192.168.1.7"));
    CHECK(!trusted_proxies_has(&t, "192.168.1.8"));
    CHECK(trusted_proxies_has(&t, "fd12::1"));
    CHECK(!trusted_proxies_has(&t, "fe80::1"));
    CHECK(!trusted_proxies_has(&t, "not an address"));
    trusted_proxies odd = parsed("172.16.0.0/12");
    CHECK(trusted_proxies_has(&odd, "172.31.255.255"));
    CHECK(!trusted_proxies_has(&odd, "172.32.0.0"));
    trusted_proxies none = parsed("");
    CHECK_EQ_INT(none.n, 0);
    CHECK(!trusted_proxies_has(&none, "127.0.0.1"));
    char err[160];
    trusted_proxies bad;
    CHECK(trusted_proxies_parse("10.0.0.0/33", &bad, err, sizeof err) < 0);
    CHECK(trusted_proxies_parse("10.0.0.0/x", &bad, err, sizeof err) < 0);
    CHECK(trusted_proxies_parse("proxy.example", &bad, err, sizeof err) < 0);
    CHECK(strstr(err, "proxy.example") != NULL);
}

static void test_client_address(void)
{
    trusted_proxies t = parsed("127.0.0.1, 10.0.0.0/8");
    char out[64];
    /* An untrusted peer: the header is ignored. */
    trusted_proxies_client(&t, "203.0.113.9", "198.51.100.1", out, sizeof out);
    CHECK_EQ_STR(out, "203.0.113.9");
    /* A trusted peer: the rightmost untrusted hop. */
    trusted_proxies_client(&t, "127.0.0.1", "198.51.100.1", out, sizeof out);
    CHECK_EQ_STR(out, "198.51.100.1");
    trusted_proxies_client(&t, "127.0.0.1", "6.6.6.6, 198.51.100.1", out,
                           sizeof out);
    CHECK_EQ_STR(out, "198.51.100.1");
    trusted_proxies_client(&t, "127.0.0.1", "198.51.100.1 , 10.9.9.9", out,
                           sizeof out);
    CHECK_EQ_STR(out, "198.51.100.1");
    /* All trusted: the leftmost. */
    trusted_proxies_client(&t, "127.0.0.1", "10.1.1.1, 10.2.2.2", out,
                           sizeof out);
    CHECK_EQ_STR(out, "10.1.1.1");
    /* Garbage ends the walk at the last good address. */
    trusted_proxies_client(&t, "127.0.0.1", "junk", out, sizeof out);
    CHECK_EQ_STR(out, "127.0.0.1");
    trusted_proxies_client(&t, "127.0.0.1", "198.51.100.1, junk, 10.1.1.1", out,
                           sizeof out);
    CHECK_EQ_STR(out, "10.1.1.1");
    trusted_proxies_client(&t, "127.0.0.1", "", out, sizeof out);
    CHECK_EQ_STR(out, "127.0.0.1");
    trusted_proxies_client(&t, "127.0.0.1", NULL, out, sizeof out);
    CHECK_EQ_STR(out, "127.0.0.1");
    trusted_proxies_client(&t, "127.0.0.1", "2001:db8::7", out, sizeof out);
    CHECK_EQ_STR(out, "2001:db8::7");
}

int main(void)
{
    RUN(test_parse_and_match);
    RUN(test_client_address);
    return TEST_SUMMARY();
}

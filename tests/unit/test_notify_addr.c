/*
 * test_notify_addr.c - the outbound address classifier (server/notify/
 * notify_addr.c) over a table of addresses, range boundaries included:
 * each refused range's first and last address, and the public neighbours
 * just outside it; IPv4 addresses carried in IPv6; what
 * CONCLAVE_WEBHOOK_ALLOW_PRIVATE lets through and what it never does.
 */
#include "server/notify/notify_addr.h"
#include "tests/unit/test.h"

#include <arpa/inet.h>
#include <netinet/in.h>

typedef struct row {
    const char *addr;
    notify_addr_class want;
} row;

static const row TABLE[] = {
    {"0.0.0.0", NOTIFY_ADDR_UNSPECIFIED},
    {"0.255.255.255", NOTIFY_ADDR_UNSPECIFIED},
    {"1.0.0.0", NOTIFY_ADDR_PUBLIC},
    {"8.8.8.8", NOTIFY_ADDR_PUBLIC},
    {"9.255.255.255", NOTIFY_ADDR_PUBLIC},
    {"10.0.0.0", NOTIFY_ADDR_PRIVATE},
    {"10.0.0.1", NOTIFY_ADDR_PRIVATE},
    {"10.255.255.255", NOTIFY_ADDR_PRIVATE},
    {"11.0.0.0", NOTIFY_ADDR_PUBLIC},
    {"100.63.255.255", NOTIFY_ADDR_PUBLIC},
    {"100.64.0.0", NOTIFY_ADDR_SHARED},
    {"100.127.255.255", NOTIFY_ADDR_SHARED},
    {"100.128.0.0", NOTIFY_ADDR_PUBLIC},
    {"126.255.255.255", NOTIFY_ADDR_PUBLIC},
    {"127.0.0.0", NOTIFY_ADDR_LOOPBACK},
    {"127.0.0.1", NOTIFY_ADDR_LOOPBACK},
    {"127.255.255.255", NOTIFY_ADDR_LOOPBACK},
    {"128.0.0.0", NOTIFY_ADDR_PUBLIC},
    {"169.253.255.255", NOTIFY_ADDR_PUBLIC},
    {"169.254.0.0", NOTIFY_ADDR_LINK_LOCAL},
    {"169.254.169.254", NOTIFY_ADDR_LINK_LOCAL},
    {"169.254.255.255", NOTIFY_ADDR_LINK_LOCAL},
    {"169.255.0.0", NOTIFY_ADDR_PUBLIC},
    {"172.15.255.255", NOTIFY_ADDR_PUBLIC},
    {"172.16.0.0", NOTIFY_ADDR_PRIVATE},
    {"172.31.255.255", NOTIFY_ADDR_PRIVATE},
    {"172.32.0.0", NOTIFY_ADDR_PUBLIC},
    {"192.0.0.0", NOTIFY_ADDR_RESERVED},
    {"192.0.0.255", NOTIFY_ADDR_RESERVED},
    {"192.0.1.0", NOTIFY_ADDR_PUBLIC},
    {"192.0.2.0", NOTIFY_ADDR_DOCUMENTATION},
    {"192.0.2.255", NOTIFY_ADDR_DOCUMENTATION},
    {"192.0.3.0", NOTIFY_ADDR_PUBLIC},
    {"192.88.99.1", NOTIFY_ADDR_RESERVED},
    {"192.167.255.255", NOTIFY_ADDR_PUBLIC},
    {"192.168.0.0", NOTIFY_ADDR_PRIVATE},
    {"192.168.1.1", NOTIFY_ADDR_PRIVATE},
    {"192.168.255.255", NOTIFY_ADDR_PRIVATE},
    {"192.169.0.0", NOTIFY_ADDR_PUBLIC},
    {"198.17.255.255", NOTIFY_ADDR_PUBLIC},
    {"198.18.0.0", NOTIFY_ADDR_RESERVED},
    {"198.19.255.255", NOTIFY_ADDR_RESERVED},
    {"198.20.0.0", NOTIFY_ADDR_PUBLIC},
    {"198.51.100.7", NOTIFY_ADDR_DOCUMENTATION},
    {"203.0.113.255", NOTIFY_ADDR_DOCUMENTATION},
    {"223.255.255.255", NOTIFY_ADDR_PUBLIC},
    {"224.0.0.0", NOTIFY_ADDR_MULTICAST},
    {"239.255.255.255", NOTIFY_ADDR_MULTICAST},
    {"240.0.0.0", NOTIFY_ADDR_RESERVED},
    {"255.255.255.254", NOTIFY_ADDR_RESERVED},
    {"255.255.255.255", NOTIFY_ADDR_BROADCAST},
    /* IPv6 */
    {"::", NOTIFY_ADDR_UNSPECIFIED},
    {"::1", NOTIFY_ADDR_LOOPBACK},
    {"::ffff:127.0.0.1", NOTIFY_ADDR_LOOPBACK},
    {"::ffff:10.0.0.1", NOTIFY_ADDR_PRIVATE},
    {"::ffff:169.254.169.254", NOTIFY_ADDR_LINK_LOCAL},
    {"::ffff:8.8.8.8", NOTIFY_ADDR_PUBLIC},
    {"::10.0.0.1", NOTIFY_ADDR_PRIVATE},
    {"::127.0.0.1", NOTIFY_ADDR_LOOPBACK},
    {"64:ff9b::10.0.0.1", NOTIFY_ADDR_PRIVATE},
    {"64:ff9b::8.8.8.8", NOTIFY_ADDR_PUBLIC},
    {"64:ff9b:1::1", NOTIFY_ADDR_PRIVATE},
    {"2002:7f00:1::", NOTIFY_ADDR_LOOPBACK},
    {"2002:0808:0808::1", NOTIFY_ADDR_PUBLIC},
    {"fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", NOTIFY_ADDR_RESERVED},
    {"fc00::", NOTIFY_ADDR_UNIQUE_LOCAL},
    {"fd00::1", NOTIFY_ADDR_UNIQUE_LOCAL},
    {"fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", NOTIFY_ADDR_UNIQUE_LOCAL},
    {"fe80::", NOTIFY_ADDR_LINK_LOCAL},
    {"febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff", NOTIFY_ADDR_LINK_LOCAL},
    {"fec0::1", NOTIFY_ADDR_RESERVED},
    {"ff02::1", NOTIFY_ADDR_MULTICAST},
    {"2001:db8::1", NOTIFY_ADDR_DOCUMENTATION},
    {"3fff::1", NOTIFY_ADDR_DOCUMENTATION},
    {"3fff:fff:ffff::1", NOTIFY_ADDR_DOCUMENTATION},
    {"3fff:1000::1", NOTIFY_ADDR_PUBLIC},
    {"2001::1", NOTIFY_ADDR_RESERVED},
    {"2001:2::1", NOTIFY_ADDR_RESERVED},
    {"100::1", NOTIFY_ADDR_RESERVED},
    {"1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", NOTIFY_ADDR_RESERVED},
    {"2000::", NOTIFY_ADDR_PUBLIC},
    {"2001:4860:4860::8888", NOTIFY_ADDR_PUBLIC},
    {"2a00:1450::1", NOTIFY_ADDR_PUBLIC},
    {"3ffe:ffff::1", NOTIFY_ADDR_PUBLIC},
    {"4000::", NOTIFY_ADDR_RESERVED},
};

static notify_addr_class classify(const char *text, int *ok)
{
    struct sockaddr_in s4 = {0};
    struct sockaddr_in6 s6 = {0};
    *ok = 1;
    if (inet_pton(AF_INET, text, &s4.sin_addr) == 1) {
        s4.sin_family = AF_INET;
        return notify_addr_sockaddr((struct sockaddr *)&s4);
    }
    if (inet_pton(AF_INET6, text, &s6.sin6_addr) == 1) {
        s6.sin6_family = AF_INET6;
        return notify_addr_sockaddr((struct sockaddr *)&s6);
    }
    *ok = 0;
    return NOTIFY_ADDR_PUBLIC;
}

static void test_table(void)
{
    for (size_t i = 0; i < sizeof TABLE / sizeof TABLE[0]; i++) {
        int ok;
        notify_addr_class got = classify(TABLE[i].addr, &ok);
        REQUIRE(ok);
        CHECKF(got == TABLE[i].want, "%s: %s, want %s", TABLE[i].addr,
               notify_addr_class_name(got),
               notify_addr_class_name(TABLE[i].want));
    }
}

static void test_allowed(void)
{
    for (size_t i = 0; i < sizeof TABLE / sizeof TABLE[0]; i++) {
        int ok;
        notify_addr_class c = classify(TABLE[i].addr, &ok);
        CHECKF(notify_addr_allowed(c, 0) == (c == NOTIFY_ADDR_PUBLIC), "%s",
               TABLE[i].addr);
    }
    /* The development switch lets loopback and private ranges through... */
    CHECK(notify_addr_allowed(NOTIFY_ADDR_LOOPBACK, 1));
    CHECK(notify_addr_allowed(NOTIFY_ADDR_PRIVATE, 1));
    CHECK(notify_addr_allowed(NOTIFY_ADDR_SHARED, 1));
    CHECK(notify_addr_allowed(NOTIFY_ADDR_UNIQUE_LOCAL, 1));
    /* ...never the metadata service, multicast, broadcast or nothing. */
    CHECK(!notify_addr_allowed(NOTIFY_ADDR_LINK_LOCAL, 1));
    CHECK(!notify_addr_allowed(NOTIFY_ADDR_MULTICAST, 1));
    CHECK(!notify_addr_allowed(NOTIFY_ADDR_UNSPECIFIED, 1));
    CHECK(!notify_addr_allowed(NOTIFY_ADDR_BROADCAST, 1));
    CHECK(!notify_addr_allowed(NOTIFY_ADDR_RESERVED, 1));
}

static void test_other_family(void)
{
    struct sockaddr sa = {0};
    sa.sa_family = AF_UNIX;
    CHECK(notify_addr_sockaddr(&sa) == NOTIFY_ADDR_RESERVED);
    CHECK(notify_addr_sockaddr(NULL) == NOTIFY_ADDR_RESERVED);
}

int main(void)
{
    RUN(test_table);
    RUN(test_allowed);
    RUN(test_other_family);
    return TEST_SUMMARY();
}

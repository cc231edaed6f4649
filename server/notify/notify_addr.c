/*
 * notify_addr.c - the outbound address classifier (see notify_addr.h).
 */
#include "server/notify/notify_addr.h"

#include <netinet/in.h>
#include <stdint.h>
#include <string.h>

/* Whether the top `bits` bits of v equal those of net. */
static int in4(uint32_t v, uint32_t net, int bits)
{
    uint32_t mask = bits == 0 ? 0 : 0xffffffffu << (32 - bits);
    return (v & mask) == (net & mask);
}

#define V4(a, b, c, d)                                                         \
    (((uint32_t)(a) << 24) | ((uint32_t)(b) << 16) | ((uint32_t)(c) << 8) |    \
     (uint32_t)(d))

notify_addr_class notify_addr_v4(const unsigned char a[4])
{
    uint32_t v = V4(a[0], a[1], a[2], a[3]);
    if (in4(v, V4(0, 0, 0, 0), 8))
        return NOTIFY_ADDR_UNSPECIFIED;
    if (in4(v, V4(127, 0, 0, 0), 8))
        return NOTIFY_ADDR_LOOPBACK;
    if (in4(v, V4(10, 0, 0, 0), 8) || in4(v, V4(172, 16, 0, 0), 12) ||
        in4(v, V4(192, 168, 0, 0), 16))
        return NOTIFY_ADDR_PRIVATE;
    if (in4(v, V4(100, 64, 0, 0), 10))
        return NOTIFY_ADDR_SHARED;
    if (in4(v, V4(169, 254, 0, 0), 16))
        return NOTIFY_ADDR_LINK_LOCAL;
    if (v == V4(255, 255, 255, 255))
        return NOTIFY_ADDR_BROADCAST;
    if (in4(v, V4(224, 0, 0, 0), 4))
        return NOTIFY_ADDR_MULTICAST;
    if (in4(v, V4(192, 0, 2, 0), 24) || in4(v, V4(198, 51, 100, 0), 24) ||
        in4(v, V4(203, 0, 113, 0), 24))
        return NOTIFY_ADDR_DOCUMENTATION;
    if (in4(v, V4(192, 0, 0, 0), 24) || in4(v, V4(192, 88, 99, 0), 24) ||
        in4(v, V4(198, 18, 0, 0), 15) || in4(v, V4(240, 0, 0, 0), 4))
        return NOTIFY_ADDR_RESERVED;
    return NOTIFY_ADDR_PUBLIC;
}

/* Whether the first `bytes` bytes of a are those of p. */
static int starts(const unsigned char *a, const unsigned char *p, size_t bytes)
{
    return memcmp(a, p, bytes) == 0;
}

notify_addr_class notify_addr_v6(const unsigned char a[16])
{
    static const unsigned char zero[16] = {0};
    static const unsigned char mapped[12] = {0, 0, 0, 0, 0,    0,
                                             0, 0, 0, 0, 0xff, 0xff};
    static const unsigned char nat64[12] = {0, 0x64, 0xff, 0x9b};
    static const unsigned char nat64_local[6] = {0, 0x64, 0xff, 0x9b, 0, 1};
    static const unsigned char doc[4] = {0x20, 0x01, 0x0d, 0xb8};
    static const unsigned char teredo[4] = {0x20, 0x01, 0, 0};
    static const unsigned char bench[6] = {0x20, 0x01, 0, 0x02, 0, 0};
    if (starts(a, zero, 16))
        return NOTIFY_ADDR_UNSPECIFIED;
    if (starts(a, zero, 15) && a[15] == 1)
        return NOTIFY_ADDR_LOOPBACK;
    if (starts(a, mapped, 12) || starts(a, zero, 12) || starts(a, nat64, 12))
        return notify_addr_v4(a + 12); /* mapped, compatible, NAT64 */
    if (a[0] == 0x20 && a[1] == 0x02)
        return notify_addr_v4(a + 2); /* 6to4 */
    if (a[0] == 0xff)
        return NOTIFY_ADDR_MULTICAST;
    if ((a[0] & 0xfe) == 0xfc)
        return NOTIFY_ADDR_UNIQUE_LOCAL;
    if (a[0] == 0xfe && (a[1] & 0xc0) == 0x80)
        return NOTIFY_ADDR_LINK_LOCAL;
    if (starts(a, nat64_local, 6))
        return NOTIFY_ADDR_PRIVATE;
    if (starts(a, doc, 4) ||
        (a[0] == 0x3f && a[1] == 0xff && (a[2] & 0xf0) == 0))
        return NOTIFY_ADDR_DOCUMENTATION;
    if ((a[0] & 0xe0) != 0x20 || starts(a, teredo, 4) || starts(a, bench, 6))
        return NOTIFY_ADDR_RESERVED; /* not global unicast (2000::/3) */
    return NOTIFY_ADDR_PUBLIC;
}

notify_addr_class notify_addr_sockaddr(const struct sockaddr *sa)
{
    if (sa && sa->sa_family == AF_INET) {
        const struct sockaddr_in *s4 = (const struct sockaddr_in *)sa;
        return notify_addr_v4((const unsigned char *)&s4->sin_addr);
    }
    if (sa && sa->sa_family == AF_INET6) {
        const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)sa;
        return notify_addr_v6(s6->sin6_addr.s6_addr);
    }
    return NOTIFY_ADDR_RESERVED;
}

int notify_addr_allowed(notify_addr_class c, int allow_private)
{
    if (c == NOTIFY_ADDR_PUBLIC)
        return 1;
    return allow_private &&
           (c == NOTIFY_ADDR_LOOPBACK || c == NOTIFY_ADDR_PRIVATE ||
            c == NOTIFY_ADDR_SHARED || c == NOTIFY_ADDR_UNIQUE_LOCAL);
}

const char *notify_addr_class_name(notify_addr_class c)
{
    switch (c) {
    case NOTIFY_ADDR_PUBLIC:
        return "public";
    case NOTIFY_ADDR_LOOPBACK:
        return "loopback";
    case NOTIFY_ADDR_PRIVATE:
        return "private (RFC 1918)";
    case NOTIFY_ADDR_SHARED:
        return "carrier-grade NAT (100.64.0.0/10)";
    case NOTIFY_ADDR_UNIQUE_LOCAL:
        return "unique-local (fc00::/7)";
    case NOTIFY_ADDR_LINK_LOCAL:
        return "link-local";
    case NOTIFY_ADDR_MULTICAST:
        return "multicast";
    case NOTIFY_ADDR_UNSPECIFIED:
        return "unspecified";
    case NOTIFY_ADDR_BROADCAST:
        return "broadcast";
    case NOTIFY_ADDR_DOCUMENTATION:
        return "documentation";
    case NOTIFY_ADDR_RESERVED:
        return "reserved";
    }
    return "reserved";
}

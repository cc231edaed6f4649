/*
 * notify_addr.h - which network addresses a webhook may reach: the pure
 * classifier behind the outbound-destination checks (notify_dest.h). An
 * address is public, or falls in a range no webhook may reach (loopback,
 * RFC 1918, link-local, unique-local, carrier-grade NAT, multicast,
 * unspecified, broadcast, documentation and other reserved ranges,
 * including IPv4 addresses carried in IPv6: mapped, compatible, NAT64,
 * 6to4). No I/O: unit-tested in tests/unit/test_notify_addr.c.
 */
#ifndef CONCLAVE_NOTIFY_ADDR_H
#define CONCLAVE_NOTIFY_ADDR_H

#include <stddef.h>
#include <sys/socket.h>

typedef enum notify_addr_class {
    NOTIFY_ADDR_PUBLIC = 0,
    /* Refused, unless private destinations are allowed (development). */
    NOTIFY_ADDR_LOOPBACK,     /* 127/8, ::1 */
    NOTIFY_ADDR_PRIVATE,      /* 10/8, 172.16/12, 192.168/16 */
    NOTIFY_ADDR_SHARED,       /* 100.64/10, carrier-grade NAT */
    NOTIFY_ADDR_UNIQUE_LOCAL, /* fc00::/7 */
    /* Always refused. */
    NOTIFY_ADDR_LINK_LOCAL,    /* 169.254/16 (cloud metadata), fe80::/10 */
    NOTIFY_ADDR_MULTICAST,     /* 224/4, ff00::/8 */
    NOTIFY_ADDR_UNSPECIFIED,   /* 0/8, :: */
    NOTIFY_ADDR_BROADCAST,     /* 255.255.255.255 */
    NOTIFY_ADDR_DOCUMENTATION, /* 192.0.2/24, 198.51.100/24, 203.0.113/24,
                                  2001:db8::/32, 3fff::/20 */
    NOTIFY_ADDR_RESERVED       /* 192.0.0/24, 198.18/15, 240/4, 192.88.99/24,
                                  IPv6 outside 2000::/3, Teredo, ... */
} notify_addr_class;

/* The class of an IPv4 address (4 bytes, network order). */
notify_addr_class notify_addr_v4(const unsigned char a[4]);

/* The class of an IPv6 address (16 bytes): an IPv4 address carried in it
 * (::ffff:a.b.c.d, ::a.b.c.d, 64:ff9b::a.b.c.d, 2002:AABB:CCDD::) is
 * classed as that IPv4 address. */
notify_addr_class notify_addr_v6(const unsigned char a[16]);

/* The class of a socket address (AF_INET or AF_INET6; any other family is
 * NOTIFY_ADDR_RESERVED). */
notify_addr_class notify_addr_sockaddr(const struct sockaddr *sa);

/* Whether a destination of class c may be reached: only public ones, or
 * also loopback, private, shared and unique-local ones when allow_private
 * (CONCLAVE_WEBHOOK_ALLOW_PRIVATE, tests and development). */
int notify_addr_allowed(notify_addr_class c, int allow_private);

/* A short name for the class ("loopback", "private (RFC 1918)", ...). */
const char *notify_addr_class_name(notify_addr_class c);

#endif

/*
 * trusted_proxy.h - which address a request comes from, behind proxies.
 *
 * Per-address limits (HTTP rate limits, sign-up and sign-in budgets, the
 * WebSocket per-address caps and buckets) key on the client's address.
 * Behind a reverse proxy every peer is the proxy, so the client is the one
 * the proxy names in X-Forwarded-For. That header is believed only when
 * the peer is a trusted proxy (CONCLAVE_TRUSTED_PROXIES, a comma list of
 * CIDRs; none by default): the list is then read from the right, skipping
 * trusted hops, and the first untrusted address is the client. Anyone
 * else's X-Forwarded-For is ignored, so a client cannot pick its own
 * address by sending the header.
 *
 * Addresses are compared as IPv6, IPv4 ones mapped into ::ffff:0:0/96, so
 * 127.0.0.0/8 also covers ::ffff:127.0.0.1.
 *
 * Threads: any; a parsed list is read-only.
 */
#ifndef CONCLAVE_TRUSTED_PROXY_H
#define CONCLAVE_TRUSTED_PROXY_H

#include <stddef.h>

#define TRUSTED_PROXY_MAX 32

typedef struct trusted_net {
    unsigned char addr[16]; /* IPv6, or IPv4 mapped; host bits zero */
    int bits;               /* prefix length out of 128 */
} trusted_net;

typedef struct trusted_proxies {
    int n;
    trusted_net nets[TRUSTED_PROXY_MAX];
} trusted_proxies;

/* Parse list ("" or NULL: none) into out: CIDRs ("10.0.0.0/8",
 * "fd00::/8") or single addresses, separated by commas and spaces.
 * Returns 0, or -1 with a message in err (a bad entry, more than
 * TRUSTED_PROXY_MAX). */
int trusted_proxies_parse(const char *list, trusted_proxies *out, char *err,
                          size_t errlen);

/* Whether addr (text) is inside one of t's networks. 0 for anything that
 * is not an address. */
int trusted_proxies_has(const trusted_proxies *t, const char *addr);

/* The client's address into out (n bytes): peer itself unless peer is
 * trusted and xff (the X-Forwarded-For values, comma-joined in order;
 * NULL: none) names one; then the rightmost entry that is not trusted, or
 * the leftmost when all are. An entry that is not an address ends the walk
 * at the last good one (the peer, or a trusted hop). */
void trusted_proxies_client(const trusted_proxies *t, const char *peer,
                            const char *xff, char *out, size_t n);

#endif

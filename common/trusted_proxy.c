/*
 * trusted_proxy.c - CIDR lists and X-Forwarded-For (see trusted_proxy.h).
 */
#include "common/trusted_proxy.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* text -> 16 bytes (IPv4 mapped); 4 or 6 for the family, 0 if not an
 * address. */
static int to_v6(const char *text, unsigned char out[16])
{
    unsigned char v4[4];
    if (inet_pton(AF_INET, text, v4) == 1) {
        memset(out, 0, 10);
        out[10] = out[11] = 0xff;
        memcpy(out + 12, v4, 4);
        return 4;
    }
    return inet_pton(AF_INET6, text, out) == 1 ? 6 : 0;
}

static int in_net(const trusted_net *net, const unsigned char a[16])
{
    int whole = net->bits / 8, rest = net->bits % 8;
    if (memcmp(net->addr, a, (size_t)whole) != 0)
        return 0;
    if (!rest)
        return 1;
    unsigned char mask = (unsigned char)(0xff << (8 - rest));
    return (net->addr[whole] & mask) == (a[whole] & mask);
}

/* One entry "ADDR" or "ADDR/BITS" (len bytes at s) into net. */
static int parse_net(const char *s, size_t len, trusted_net *net)
{
    char buf[64];
    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    char *slash = strchr(buf, '/');
    long bits = -1;
    if (slash) {
        char *end;
        *slash = '\0';
        bits = strtol(slash + 1, &end, 10);
        if (end == slash + 1 || *end)
            return -1;
    }
    int fam = to_v6(buf, net->addr);
    if (!fam)
        return -1;
    long most = fam == 4 ? 32 : 128;
    if (bits < 0)
        bits = most;
    if (bits > most)
        return -1;
    net->bits = (int)(fam == 4 ? bits + 96 : bits);
    for (int i = 0; i < 16; i++) { /* zero the host bits */
        int keep = net->bits - 8 * i;
        if (keep <= 0)
            net->addr[i] = 0;
        else if (keep < 8)
            net->addr[i] &= (unsigned char)(0xff << (8 - keep));
    }
    return 0;
}

int trusted_proxies_parse(const char *list, trusted_proxies *out, char *err,
                          size_t errlen)
{
    memset(out, 0, sizeof *out);
    for (const char *p = list ? list : ""; *p;) {
        p += strspn(p, ", ");
        size_t len = strcspn(p, ", ");
        if (!len)
            break;
        if (out->n == TRUSTED_PROXY_MAX) {
            snprintf(err, errlen, "trusted proxies: at most %d networks",
                     TRUSTED_PROXY_MAX);
            return -1;
        }
        if (parse_net(p, len, &out->nets[out->n]) != 0) {
            snprintf(err, errlen,
                     "trusted proxies: \"%.*s\" is not an address or CIDR",
                     (int)(len > 64 ? 64 : len), p);
            return -1;
        }
        out->n++;
        p += len;
    }
    return 0;
}

int trusted_proxies_has(const trusted_proxies *t, const char *addr)
{
    unsigned char a[16];
    if (!t || !t->n || !to_v6(addr, a))
        return 0;
    for (int i = 0; i < t->n; i++)
        if (in_net(&t->nets[i], a))
            return 1;
    return 0;
}

void trusted_proxies_client(const trusted_proxies *t, const char *peer,
                            const char *xff, char *out, size_t n)
{
    snprintf(out, n, "%s", peer);
    if (!xff || !trusted_proxies_has(t, peer))
        return;
    size_t end = strlen(xff);
    while (end > 0) { /* from the right, one entry at a time */
        size_t start = end;
        while (start > 0 && xff[start - 1] != ',')
            start--;
        size_t a = start, b = end;
        while (a < b && (xff[a] == ' ' || xff[a] == '\t'))
            a++;
        while (b > a && (xff[b - 1] == ' ' || xff[b - 1] == '\t'))
            b--;
        char hop[64];
        unsigned char bin[16];
        if (b - a == 0 || b - a >= sizeof hop)
            return;
        memcpy(hop, xff + a, b - a);
        hop[b - a] = '\0';
        if (!to_v6(hop, bin))
            return;
        snprintf(out, n, "%s", hop);
        if (!trusted_proxies_has(t, hop))
            return;
        end = start ? start - 1 : 0;
    }
}

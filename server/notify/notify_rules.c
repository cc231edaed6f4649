/*
 * notify_rules.c - signatures, accepted addresses, quiet hours, backoff
 * (see notify_rules.h).
 */
#include "server/notify/notify_rules.h"

#include <arpa/inet.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int notify_signature(const char *secret, long t, const char *body, size_t len,
                     char out[NOTIFY_SIGNATURE_MAX])
{
    char stamp[32];
    int sn = snprintf(stamp, sizeof stamp, "%ld.", t);
    unsigned char *msg = malloc((size_t)sn + len + 1);
    if (!msg)
        return -1;
    memcpy(msg, stamp, (size_t)sn);
    if (len)
        memcpy(msg + sn, body, len);
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int maclen = 0;
    int ok = HMAC(EVP_sha256(), secret, (int)strlen(secret), msg,
                  (size_t)sn + len, mac, &maclen) != NULL;
    free(msg);
    if (!ok)
        return -1;
    int n = snprintf(out, NOTIFY_SIGNATURE_MAX, "t=%ld,v1=", t);
    for (unsigned i = 0; i < maclen; i++)
        n += snprintf(out + n, (size_t)(NOTIFY_SIGNATURE_MAX - n), "%02x",
                      mac[i]);
    return 0;
}

static int clean(const char *s, size_t max)
{
    size_t n = strlen(s);
    if (n == 0 || n > max)
        return 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p <= ' ' || *p == 0x7f)
            return 0;
    return 1;
}

/* The host of url after "scheme://" (up to '/', '?', '#' or the end, with
 * a ":port" after it removed) into host. */
static void url_host(const char *rest, char *host, size_t cap)
{
    size_t n = strcspn(rest, "/?#");
    if (n >= cap)
        n = cap - 1;
    memcpy(host, rest, n);
    host[n] = 0;
    char *at = strrchr(host, '@');
    if (at)
        memmove(host, at + 1, strlen(at + 1) + 1);
    if (host[0] == '[') {
        char *close = strchr(host, ']');
        if (close)
            close[1] = 0;
        return;
    }
    char *colon = strchr(host, ':');
    if (colon)
        *colon = 0;
}

int notify_url_ok(const char *url)
{
    if (!url || !clean(url, 2048))
        return 0;
    char host[256];
    if (strncasecmp(url, "https://", 8) == 0) {
        url_host(url + 8, host, sizeof host);
        return host[0] != 0;
    }
    if (strncasecmp(url, "http://", 7) != 0)
        return 0;
    url_host(url + 7, host, sizeof host);
    struct in_addr v4;
    return strcasecmp(host, "localhost") == 0 || strcmp(host, "[::1]") == 0 ||
           (inet_pton(AF_INET, host, &v4) == 1 &&
            (ntohl(v4.s_addr) >> 24) == 127);
}

int notify_email_ok(const char *addr)
{
    if (!addr || !clean(addr, 254) || strpbrk(addr, "<>,;\"()[]\\"))
        return 0;
    const char *at = strchr(addr, '@');
    if (!at || at == addr || strchr(at + 1, '@'))
        return 0;
    const char *dot = strrchr(at + 1, '.');
    return dot && dot > at + 1 && dot[1] != 0;
}

int notify_quiet(int start, int end, int offset, time_t now, time_t *until)
{
    if (start == end || start < 0 || end < 0)
        return 0;
    long local = (long)now + offset * 60L;
    long day = ((local % 86400) + 86400) % 86400;
    long minute = day / 60;
    int inside = start < end ? (minute >= start && minute < end)
                             : (minute >= start || minute < end);
    if (!inside)
        return 0;
    long left = (long)end * 60 - day;
    if (left <= 0)
        left += 86400;
    *until = now + left;
    return 1;
}

int notify_random_hex(char *out, size_t bytes)
{
    unsigned char buf[64];
    if (bytes > sizeof buf || RAND_bytes(buf, (int)bytes) != 1)
        return -1;
    for (size_t i = 0; i < bytes; i++)
        snprintf(out + 2 * i, 3, "%02x", buf[i]);
    return 0;
}

double notify_backoff(int base_ms, int attempts)
{
    double s = base_ms / 1000.0;
    for (int i = 1; i < attempts && s < 3600; i++)
        s *= 2;
    return s > 3600 ? 3600 : s;
}

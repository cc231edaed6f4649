/*
 * notify_dest.c - the outbound destination checks of webhooks (see
 * notify_dest.h).
 */
#include "server/notify/notify_dest.h"

#include "server/notify/notify_addr.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

/* The host (without brackets) and the port of url; 0, or -1. */
static int url_parts(const char *url, char *host, size_t hcap, char *port,
                     size_t pcap)
{
    CURLU *u = curl_url();
    char *h = NULL, *p = NULL;
    int rc = -1;
    if (u && curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
        curl_url_get(u, CURLUPART_HOST, &h, 0) == CURLUE_OK &&
        curl_url_get(u, CURLUPART_PORT, &p, CURLU_DEFAULT_PORT) == CURLUE_OK) {
        size_t n = strlen(h);
        const char *start = h;
        if (n >= 2 && h[0] == '[' && h[n - 1] == ']') {
            start = h + 1;
            n -= 2;
        }
        if (n > 0 && n < hcap) {
            memcpy(host, start, n);
            host[n] = 0;
            snprintf(port, pcap, "%s", p);
            rc = 0;
        }
    }
    curl_free(h);
    curl_free(p);
    curl_url_cleanup(u);
    return rc;
}

static void addr_text(const struct sockaddr *sa, char *out, size_t cap)
{
    const void *bytes =
        sa->sa_family == AF_INET6
            ? (const void *)&((const struct sockaddr_in6 *)sa)->sin6_addr
            : (const void *)&((const struct sockaddr_in *)sa)->sin_addr;
    if (!inet_ntop(sa->sa_family, bytes, out, (socklen_t)cap))
        snprintf(out, cap, "?");
}

int notify_dest_check_url(const char *url, int allow_private, char *why,
                          size_t cap)
{
    char host[256], port[16];
    if (url_parts(url, host, sizeof host, port, sizeof port) != 0) {
        snprintf(why, cap, "url cannot be read");
        return -1;
    }
    struct addrinfo hints = {0}, *res = NULL;
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    int gai = getaddrinfo(host, port, &hints, &res);
    if (gai != 0 || !res) {
        if (res)
            freeaddrinfo(res);
        if (allow_private)
            return 0;
        snprintf(why, cap, "url's host %s cannot be resolved", host);
        return -1;
    }
    int rc = 0;
    for (const struct addrinfo *ai = res; ai && rc == 0; ai = ai->ai_next) {
        notify_addr_class c = notify_addr_sockaddr(ai->ai_addr);
        if (notify_addr_allowed(c, allow_private))
            continue;
        char text[INET6_ADDRSTRLEN];
        addr_text(ai->ai_addr, text, sizeof text);
        snprintf(why, cap,
                 "url's host %s resolves to %s, a %s address; webhooks "
                 "must go to public addresses",
                 host, text, notify_addr_class_name(c));
        rc = -1;
    }
    freeaddrinfo(res);
    return rc;
}

void notify_dest_host_key(const char *url, char *out, size_t cap)
{
    char host[256], port[16];
    if (url_parts(url, host, sizeof host, port, sizeof port) != 0)
        snprintf(out, cap, "%s", "");
    else
        snprintf(out, cap, "%s:%s", host, port);
}

curl_socket_t notify_dest_open_socket(void *guard, curlsocktype purpose,
                                      struct curl_sockaddr *addr)
{
    notify_dest_guard *g = guard;
    (void)purpose;
    notify_addr_class c = notify_addr_sockaddr(&addr->addr);
    if (!notify_addr_allowed(c, g->allow_private)) {
        char text[INET6_ADDRSTRLEN];
        addr_text(&addr->addr, text, sizeof text);
        g->refused = 1;
        snprintf(g->why, sizeof g->why,
                 "refused: the host resolved to %s, a %s address", text,
                 notify_addr_class_name(c));
        return CURL_SOCKET_BAD;
    }
    return socket(addr->family, addr->socktype, addr->protocol);
}

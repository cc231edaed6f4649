/*
 * notify_send.c - webhook POSTs and SMTP mail as libcurl easy handles (see
 * notify_send.h).
 */
#include "server/notify/notify_send.h"

#include "server/notify/notify_dest.h"
#include "server/notify/notify_rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct notify_send {
    CURL *h;
    struct curl_slist *list; /* headers, or the mail's recipients */
    char *data;              /* the mail, or a copy of the POST body */
    size_t left, off;        /* the mail still to feed */
    int webhook;
    notify_dest_guard guard;
};

int notify_send_init(void)
{
    return curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK ? 0 : -1;
}

void notify_send_cleanup(void)
{
    curl_global_cleanup();
}

static size_t discard(char *p, size_t size, size_t n, void *ctx)
{
    (void)p;
    (void)ctx;
    return size * n;
}

static notify_send *fresh(const char *url, char *err, size_t errlen)
{
    notify_send *s = calloc(1, sizeof *s);
    if (s)
        s->h = curl_easy_init();
    if (!s || !s->h) {
        free(s);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    curl_easy_setopt(s->h, CURLOPT_URL, url);
    curl_easy_setopt(s->h, CURLOPT_PRIVATE, s);
    curl_easy_setopt(s->h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(s->h, CURLOPT_TIMEOUT_MS, (long)NOTIFY_SEND_TIMEOUT_MS);
    curl_easy_setopt(s->h, CURLOPT_CONNECTTIMEOUT_MS,
                     (long)NOTIFY_CONNECT_TIMEOUT_MS);
    curl_easy_setopt(s->h, CURLOPT_PROXY, ""); /* none, whatever the env */
    return s;
}

notify_send *notify_send_webhook(const char *url, const char *secret,
                                 const char *id, const char *body,
                                 int allow_private, char *err, size_t errlen)
{
    char sig[NOTIFY_SIGNATURE_MAX], h1[160], h2[200];
    size_t len = strlen(body);
    if (notify_signature(secret, (long)time(NULL), body, len, sig) != 0) {
        snprintf(err, errlen, "cannot sign");
        return NULL;
    }
    notify_send *s = fresh(url, err, errlen);
    if (!s)
        return NULL;
    s->webhook = 1;
    s->guard.allow_private = allow_private;
    s->data = strdup(body);
    snprintf(h1, sizeof h1, "Conclave-Signature: %s", sig);
    snprintf(h2, sizeof h2, "Conclave-Notification-Id: %s", id);
    s->list = curl_slist_append(NULL, "Content-Type: application/json");
    s->list = curl_slist_append(s->list, h1);
    s->list = curl_slist_append(s->list, h2);
    if (!s->data || !s->list) {
        notify_send_free(s);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    CURL *h = s->h;
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(h, CURLOPT_OPENSOCKETFUNCTION, notify_dest_open_socket);
    curl_easy_setopt(h, CURLOPT_OPENSOCKETDATA, &s->guard);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, s->list);
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, s->data);
    curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, (long)len);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, discard);
    return s;
}

static size_t feed(char *out, size_t size, size_t n, void *ctx)
{
    notify_send *s = ctx;
    size_t k = size * n < s->left ? size * n : s->left;
    memcpy(out, s->data + s->off, k);
    s->off += k;
    s->left -= k;
    return k;
}

/* The whole message: headers, a blank line, the body. malloc'd. */
static char *message(const char *from, const char *to, const char *subject,
                     const char *id, const char *body)
{
    char date[64];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S +0000", &tm);
    size_t cap = strlen(from) + strlen(to) + strlen(subject) + 2 * strlen(id) +
                 strlen(body) + 400;
    char *m = malloc(cap);
    if (m)
        snprintf(m, cap,
                 "Date: %s\r\nFrom: Conclave <%s>\r\nTo: <%s>\r\n"
                 "Subject: %s\r\nMessage-ID: <%s@conclave>\r\n"
                 "Conclave-Notification-Id: %s\r\nMIME-Version: 1.0\r\n"
                 "Content-Type: text/plain; charset=utf-8\r\n\r\n%s",
                 date, from, to, subject, id, id, body);
    return m;
}

notify_send *notify_send_email(const char *smtp_url, const char *from,
                               const char *to, const char *subject,
                               const char *id, const char *body, char *err,
                               size_t errlen)
{
    notify_send *s = fresh(smtp_url, err, errlen);
    if (!s)
        return NULL;
    char rcpt[300];
    snprintf(rcpt, sizeof rcpt, "<%s>", to);
    s->data = message(from, to, subject, id, body);
    s->list = curl_slist_append(NULL, rcpt);
    if (!s->data || !s->list) {
        notify_send_free(s);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->left = strlen(s->data);
    CURL *h = s->h;
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
    curl_easy_setopt(h, CURLOPT_MAIL_FROM, from);
    curl_easy_setopt(h, CURLOPT_MAIL_RCPT, s->list);
    curl_easy_setopt(h, CURLOPT_READFUNCTION, feed);
    curl_easy_setopt(h, CURLOPT_READDATA, s);
    curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
    return s;
}

CURL *notify_send_handle(notify_send *s)
{
    return s->h;
}

int notify_send_result(notify_send *s, CURLcode rc, char *err, size_t errlen)
{
    if (s->guard.refused) {
        snprintf(err, errlen, "%s", s->guard.why);
        return -1;
    }
    if (rc != CURLE_OK) {
        snprintf(err, errlen, "%s", curl_easy_strerror(rc));
        return -1;
    }
    long status = 0;
    curl_easy_getinfo(s->h, CURLINFO_RESPONSE_CODE, &status);
    if (s->webhook && (status < 200 || status > 299)) {
        snprintf(err, errlen, "HTTP %ld", status);
        return -1;
    }
    return 0;
}

void notify_send_free(notify_send *s)
{
    if (!s)
        return;
    curl_easy_cleanup(s->h);
    curl_slist_free_all(s->list);
    free(s->data);
    free(s);
}

/*
 * notify_send.c - webhook POSTs and SMTP mail through libcurl (see
 * notify_send.h).
 */
#include "server/notify/notify_send.h"

#include "server/notify/notify_rules.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

static void common(CURL *h, const char *url)
{
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_TIMEOUT, (long)NOTIFY_SEND_TIMEOUT);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, 5L);
}

int notify_send_webhook(const char *url, const char *secret, const char *id,
                        const char *body, char *err, size_t errlen)
{
    char sig[NOTIFY_SIGNATURE_MAX], h1[160], h2[200];
    size_t len = strlen(body);
    if (notify_signature(secret, (long)time(NULL), body, len, sig) != 0) {
        snprintf(err, errlen, "cannot sign");
        return -1;
    }
    snprintf(h1, sizeof h1, "Conclave-Signature: %s", sig);
    snprintf(h2, sizeof h2, "Conclave-Notification-Id: %s", id);
    CURL *h = curl_easy_init();
    if (!h) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    struct curl_slist *hd = curl_slist_append(NULL, "Content-Type: "
                                                    "application/json");
    hd = curl_slist_append(hd, h1);
    hd = curl_slist_append(hd, h2);
    common(h, url);
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, hd);
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, (long)len);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, discard);
    CURLcode rc = curl_easy_perform(h);
    long status = 0;
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
    curl_slist_free_all(hd);
    curl_easy_cleanup(h);
    if (rc != CURLE_OK) {
        snprintf(err, errlen, "%s", curl_easy_strerror(rc));
        return -1;
    }
    if (status < 200 || status > 299) {
        snprintf(err, errlen, "HTTP %ld", status);
        return -1;
    }
    return 0;
}

typedef struct reader {
    const char *p;
    size_t left;
} reader;

static size_t feed(char *out, size_t size, size_t n, void *ctx)
{
    reader *r = ctx;
    size_t k = size * n < r->left ? size * n : r->left;
    memcpy(out, r->p, k);
    r->p += k;
    r->left -= k;
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

int notify_send_email(const char *smtp_url, const char *from, const char *to,
                      const char *subject, const char *id, const char *body,
                      char *err, size_t errlen)
{
    char *m = message(from, to, subject, id, body);
    CURL *h = m ? curl_easy_init() : NULL;
    if (!h) {
        free(m);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    char rcpt[300];
    snprintf(rcpt, sizeof rcpt, "<%s>", to);
    struct curl_slist *rc_list = curl_slist_append(NULL, rcpt);
    reader r = {m, strlen(m)};
    common(h, smtp_url);
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
    curl_easy_setopt(h, CURLOPT_MAIL_FROM, from);
    curl_easy_setopt(h, CURLOPT_MAIL_RCPT, rc_list);
    curl_easy_setopt(h, CURLOPT_READFUNCTION, feed);
    curl_easy_setopt(h, CURLOPT_READDATA, &r);
    curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
    CURLcode rc = curl_easy_perform(h);
    curl_slist_free_all(rc_list);
    curl_easy_cleanup(h);
    free(m);
    if (rc != CURLE_OK) {
        snprintf(err, errlen, "%s", curl_easy_strerror(rc));
        return -1;
    }
    return 0;
}

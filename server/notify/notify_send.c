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

#define BOUNDARY "=_conclave_alternative_part"

/* A growing string; on OOM it stays NULL and appends do nothing. */
typedef struct strbuf {
    char *p;
    size_t n, cap;
} strbuf;

static void put(strbuf *b, const char *s, size_t len)
{
    if (!b->p && b->cap)
        return;
    if (b->n + len + 1 > b->cap) {
        size_t cap = (b->n + len + 1) * 2 + 256;
        char *g = realloc(b->p, cap);
        if (!g) {
            free(b->p);
            b->p = NULL;
            b->cap = 1;
            return;
        }
        b->p = g;
        b->cap = cap;
    }
    if (!b->p)
        return;
    memcpy(b->p + b->n, s, len);
    b->n += len;
    b->p[b->n] = '\0';
}

static void puts_(strbuf *b, const char *s)
{
    put(b, s, strlen(s));
}

/* The URL of the body's "Unsubscribe: URL" line into out, or "". */
static void unsubscribe_url(const char *body, char *out, size_t n)
{
    out[0] = '\0';
    for (const char *l = body; l && *l;
         l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        if (strncmp(l, "Unsubscribe: http", 17) != 0)
            continue;
        size_t len = strcspn(l + 13, "\r\n \t<>\"");
        if (len < n)
            snprintf(out, n, "%.*s", (int)len, l + 13);
        return;
    }
}

static void put_url(strbuf *b, const char *url, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (url[i] == '&')
            puts_(b, "&amp;");
        else
            put(b, url + i, 1);
    }
}

/* The HTML part of a plain text: escaped, a paragraph per blank-line block,
 * a line break per line, each http(s) URL a link. */
static void html_of(strbuf *b, const char *text)
{
    puts_(b, "<!doctype html><html><body style=\"font-family:sans-serif;"
             "line-height:1.4\"><p>");
    for (const char *c = text; *c;) {
        if (strncmp(c, "http://", 7) == 0 || strncmp(c, "https://", 8) == 0) {
            size_t len = strcspn(c, " \t\r\n<>\"");
            puts_(b, "<a href=\"");
            put_url(b, c, len);
            puts_(b, "\">");
            put_url(b, c, len);
            puts_(b, "</a>");
            c += len;
            continue;
        }
        if (strncmp(c, "\r\n\r\n", 4) == 0) {
            puts_(b, "</p>\r\n<p>");
            c += 4;
            while (strncmp(c, "\r\n", 2) == 0)
                c += 2;
            continue;
        }
        if (strncmp(c, "\r\n", 2) == 0) {
            puts_(b, "<br>\r\n");
            c += 2;
            continue;
        }
        switch (*c) {
        case '&':
            puts_(b, "&amp;");
            break;
        case '<':
            puts_(b, "&lt;");
            break;
        case '>':
            puts_(b, "&gt;");
            break;
        case '"':
            puts_(b, "&quot;");
            break;
        default:
            put(b, c, 1);
        }
        c++;
    }
    puts_(b, "</p></body></html>\r\n");
}

/* The whole message: headers (List-Unsubscribe and List-Unsubscribe-Post,
 * RFC 8058, when the body has an "Unsubscribe: URL" line), a blank line,
 * and a multipart/alternative body: the text as it is, then as HTML.
 * malloc'd. */
static char *message(const char *from, const char *to, const char *subject,
                     const char *id, const char *body)
{
    char date[64], unsub[600], head[2048];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S +0000", &tm);
    unsubscribe_url(body, unsub, sizeof unsub);
    snprintf(head, sizeof head,
             "Date: %s\r\nFrom: Conclave <%.300s>\r\nTo: <%.300s>\r\n"
             "Subject: %.400s\r\nMessage-ID: <%.200s@conclave>\r\n"
             "Conclave-Notification-Id: %.200s\r\nMIME-Version: 1.0\r\n",
             date, from, to, subject, id, id);
    strbuf b = {0};
    puts_(&b, head);
    if (unsub[0]) {
        puts_(&b, "List-Unsubscribe: <");
        puts_(&b, unsub);
        puts_(&b, ">\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n");
    }
    puts_(&b, "Content-Type: multipart/alternative; boundary=\"" BOUNDARY
              "\"\r\n\r\n--" BOUNDARY "\r\nContent-Type: text/plain; "
              "charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n");
    puts_(&b, body);
    puts_(&b, "\r\n--" BOUNDARY "\r\nContent-Type: text/html; charset=utf-8"
              "\r\nContent-Transfer-Encoding: 8bit\r\n\r\n");
    html_of(&b, body);
    puts_(&b, "--" BOUNDARY "--\r\n");
    return b.p;
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

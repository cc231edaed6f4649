/*
 * notify_send.h - one delivery attempt over the network with libcurl, as
 * an easy handle for the notifier's multi loop (notify_deliver.c): a
 * webhook POST (signed, see notify_rules.h; its destination checked at
 * connect time, see notify_dest.h; no redirects, no proxy) or a mail to
 * the SMTP relay. Each transfer connects within NOTIFY_CONNECT_TIMEOUT_MS
 * and ends within NOTIFY_SEND_TIMEOUT_MS, whatever the other side does.
 * No database, no locks: built and read on the sender thread.
 */
#ifndef CONCLAVE_NOTIFY_SEND_H
#define CONCLAVE_NOTIFY_SEND_H

#include <curl/curl.h>
#include <stddef.h>

#define NOTIFY_CONNECT_TIMEOUT_MS 3000
#define NOTIFY_SEND_TIMEOUT_MS 6000

/* curl_global_init; call once before any thread sends. 0 or -1. */
int notify_send_init(void);
void notify_send_cleanup(void);

typedef struct notify_send notify_send;

/* A POST of body (JSON) to url with headers Content-Type:
 * application/json, Conclave-Signature: t=NOW,v1=HMAC (secret) and
 * Conclave-Notification-Id: id. allow_private: see notify_dest.h. NULL
 * with a reason in err on failure. */
notify_send *notify_send_webhook(const char *url, const char *secret,
                                 const char *id, const char *body,
                                 int allow_private, char *err, size_t errlen);

/* Mail subject and body (plain text, CRLF lines) from `from` to `to`
 * through the relay smtp_url (smtp:// or smtps://), with the header
 * Conclave-Notification-Id: id. NULL with a reason in err on failure. */
notify_send *notify_send_email(const char *smtp_url, const char *from,
                               const char *to, const char *subject,
                               const char *id, const char *body, char *err,
                               size_t errlen);

/* The easy handle to add to a multi handle (owned by the send). */
CURL *notify_send_handle(notify_send *s);

/* The outcome once curl reported rc for the handle: 0 when the receiver
 * took it (a webhook: answered 2xx; a mail: the relay accepted it); else
 * -1 with a reason in err. */
int notify_send_result(notify_send *s, CURLcode rc, char *err, size_t errlen);

/* Free the send (remove its handle from any multi handle first). */
void notify_send_free(notify_send *s);

#endif

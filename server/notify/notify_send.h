/*
 * notify_send.h - one delivery attempt over the network with libcurl: a
 * webhook POST (signed, see notify_rules.h) or a mail to an SMTP relay.
 * Blocking, at most NOTIFY_SEND_TIMEOUT seconds; called by the notifier's
 * delivery thread, never under a lock or inside a transaction.
 */
#ifndef CONCLAVE_NOTIFY_SEND_H
#define CONCLAVE_NOTIFY_SEND_H

#include <stddef.h>

#define NOTIFY_SEND_TIMEOUT 10

/* curl_global_init; call once before any thread sends. 0 or -1. */
int notify_send_init(void);
void notify_send_cleanup(void);

/* POST body (JSON) to url with headers Content-Type: application/json,
 * Conclave-Signature: t=NOW,v1=HMAC (secret) and Conclave-Notification-Id:
 * id. 0 when the receiver answered 2xx; else -1 with a reason in err. */
int notify_send_webhook(const char *url, const char *secret, const char *id,
                        const char *body, char *err, size_t errlen);

/* Mail subject and body (plain text, CRLF lines) from `from` to `to`
 * through the relay smtp_url (smtp:// or smtps://), with the header
 * Conclave-Notification-Id: id. 0 when the relay took it; else -1. */
int notify_send_email(const char *smtp_url, const char *from, const char *to,
                      const char *subject, const char *id, const char *body,
                      char *err, size_t errlen);

#endif

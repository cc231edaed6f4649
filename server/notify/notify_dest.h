/*
 * notify_dest.h - where a webhook may go: its URL's host is resolved and
 * every address classed (notify_addr.h) at registration, and at delivery
 * curl's own socket opener checks the very address it is about to connect
 * to (CURLOPT_OPENSOCKETFUNCTION), so a name that resolves elsewhere the
 * second time (DNS rebinding) gains nothing and there is no second,
 * unchecked resolution. Also the key "HOST:PORT" under which deliveries
 * to one destination host are counted and limited.
 */
#ifndef CONCLAVE_NOTIFY_DEST_H
#define CONCLAVE_NOTIFY_DEST_H

#include <curl/curl.h>
#include <stddef.h>

/* Resolve url's host (blocking, the resolver's own timeouts) and check
 * each address: 0 when every one may be reached; -1 with a reason for the
 * player in why (the host, the address and its class, or "cannot be
 * resolved") otherwise. allow_private: CONCLAVE_WEBHOOK_ALLOW_PRIVATE
 * (loopback and private ranges pass, and so does a name that does not
 * resolve, as on a machine without DNS; the delivery check still runs). */
int notify_dest_check_url(const char *url, int allow_private, char *why,
                          size_t cap);

/* "HOST:PORT" of url (the scheme's port when none is given) into out; ""
 * when url cannot be parsed. */
void notify_dest_host_key(const char *url, char *out, size_t cap);

/* The delivery check, one per transfer: set as CURLOPT_OPENSOCKETDATA with
 * notify_dest_open_socket as CURLOPT_OPENSOCKETFUNCTION. */
typedef struct notify_dest_guard {
    int allow_private;
    int refused;   /* an address was refused: the transfer fails */
    char why[160]; /* which, for last_error */
} notify_dest_guard;

curl_socket_t notify_dest_open_socket(void *guard, curlsocktype purpose,
                                      struct curl_sockaddr *addr);

#endif

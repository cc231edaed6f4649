/*
 * signin_links.h - one-time sign-in links by mail, so a player comes back to
 * their seat on any device: a signed-out visitor gives the verified address
 * of their account and gets a link (BASE/signin?token=...&next=PATH) that
 * signs one browser in once, within SIGNIN_LINK_MINUTES, and goes on to
 * PATH (their game). Owns the signin_links table; only the SHA-256 of a
 * mailed token is stored. The mail goes through the notifier's outbox
 * (notify_queue_account_mail).
 *
 * Threads: any; each function acquires its own connection from db.
 */
#ifndef CONCLAVE_SIGNIN_LINKS_H
#define CONCLAVE_SIGNIN_LINKS_H

#include "common/errors.h"
#include "server/players/tokens.h"
#include "server/store/db.h"
#include "server/store/store.h"

#define SIGNIN_LINK_MINUTES 30
#define SIGNIN_LINKS_PER_HOUR 5 /* per player: more asks are dropped */
#define SIGNIN_NEXT_MAX 200

/* Whether next is a path of the web page a link may go on to: "/" then at
 * most SIGNIN_NEXT_MAX - 1 of A-Z a-z 0-9 / _ - (no scheme, host, query or
 * "//": a link never leads off the site). */
int signin_next_ok(const char *next);

/* Mail a sign-in link for the player whose verified address is email, going
 * on to next (NULL: "/"), linking to base_url. SRV_OK whether or not any
 * player has that address, and when the player already had
 * SIGNIN_LINKS_PER_HOUR links this hour (nothing is sent then): the answer
 * never tells which addresses are known. SRV_INVALID for a malformed email
 * or next; SRV_UNAVAILABLE. */
srv_kind signin_link_request(db_pool *db, const char *email, const char *next,
                             const char *base_url, srv_error *err);

/* Use a link's token once: a new bearer token into
 * token[TOKENS_CHARS + 1], the player's id (STORE_ID_MAX) and name (32
 * bytes), and the path to go on to (SIGNIN_NEXT_MAX). SRV_NOT_FOUND for an
 * unknown, used or expired token; SRV_UNAVAILABLE; SRV_INTERNAL. */
srv_kind signin_link_redeem(db_pool *db, const char *link_token, char *token,
                            char *player_id, char *name, char *next,
                            srv_error *err);

#endif

/*
 * notify_settings.h - a player's notification settings (tables
 * notify_settings and notify_webhooks): read and change them, add and
 * remove webhooks, verify an email address by the token mailed to it.
 * Called by the REST edge (api/h_notify.c); speaks no HTTP.
 *
 * The settings document (GET/PUT /api/v1/me/notifications):
 * {"email": null|ADDR, "email_verified": bool, "email_available": bool,
 *  "quiet_hours": null|{"start":"HH:MM","end":"HH:MM"}, "utc_offset": MIN,
 *  "digest": bool, "digest_hour": H, "reminder_seconds": S,
 *  "webhooks": [{"id","url","format","created_at","state","failures",
 *                "failing_since","next_try","last_error"}]}
 * where a webhook's state is "ok", "failing" (its last attempts failed:
 * failures in a row, since failing_since, last_error) or "paused" (its
 * circuit breaker is open: nothing is tried before next_try).
 */
#ifndef CONCLAVE_NOTIFY_SETTINGS_H
#define CONCLAVE_NOTIFY_SETTINGS_H

#include "common/errors.h"
#include "server/store/db.h"

#include <jansson.h>

#define NOTIFY_WEBHOOKS_MAX 5

/* The caller's settings document into *out (NEW). email_available says
 * whether an SMTP relay is set. SRV_OK or SRV_UNAVAILABLE. */
srv_kind notify_settings_get(db_pool *db, const char *player_id,
                             int email_available, json_t **out, srv_error *err);

/* Change the members of body present (email, quiet_hours, utc_offset,
 * digest, digest_hour, reminder_seconds; other members: SRV_INVALID). A
 * new email address is unverified: a verification mail with a one-time
 * token (valid 24 h) linking to base_url is queued for it (when
 * email_available). Pending deliveries of the player are made due again
 * (quiet hours may have changed). Fills *out like notify_settings_get. */
srv_kind notify_settings_put(db_pool *db, const char *player_id,
                             const json_t *body, int email_available,
                             const char *base_url, json_t **out,
                             srv_error *err);

/* Add a webhook: {"id","url","format","secret","created_at"} into *out
 * (NEW); the secret is shown here only. format: "conclave" (NULL too),
 * "discord" or "slack" (notify_format.h; another: SRV_INVALID, field
 * "format"). SRV_INVALID (field "url") for a URL notify_url_ok refuses or
 * whose host resolves to an address no webhook may reach
 * (notify_dest_check_url; allow_private: CONCLAVE_WEBHOOK_ALLOW_PRIVATE),
 * SRV_TOO_MANY past NOTIFY_WEBHOOKS_MAX. */
/* The checks of a new webhook's URL and format (NULL: conclave) that
 * notify_webhook_add and notify_channel_put make: SRV_OK or SRV_INVALID
 * (field "url" or "format"). */
srv_kind notify_webhook_check(const char *url, const char *format,
                              int allow_private, srv_error *err);

srv_kind notify_webhook_add(db_pool *db, const char *player_id, const char *url,
                            const char *format, int allow_private, json_t **out,
                            srv_error *err);

/* A game's group channel (GET/PUT/DELETE /api/v1/games/{id}/group-webhook):
 * one webhook per game, attached by a player seated in the game or its
 * host, told only what the public audience may see (notify_plan.h). The
 * document: {"game_id","format","url" (to the player who attached it only;
 * null to others),"added_by":{"id","name"},"created_at","state","failures",
 * "failing_since","next_try","last_error"}. */

/* Attach (or replace) game_id's channel: the document into *out, with
 * "secret" (shown here only). Checked as notify_webhook_add's URL and
 * format; SRV_NOT_FOUND for no such game, SRV_FORBIDDEN for a caller
 * neither seated nor the host, SRV_CONFLICT for a game not running,
 * SRV_INVALID (field "game") for a game with a spectator delay (its
 * channel would tell the group what its spectators may not see yet). */
srv_kind notify_channel_put(db_pool *db, const char *player_id,
                            const char *game_id, const char *url,
                            const char *format, int allow_private, json_t **out,
                            srv_error *err);

/* game_id's channel document into *out; SRV_NOT_FOUND when it has none (or
 * no such game), SRV_FORBIDDEN as for notify_channel_put. */
srv_kind notify_channel_get(db_pool *db, const char *player_id,
                            const char *game_id, json_t **out, srv_error *err);

/* Remove game_id's channel (its pending posts dropped); SRV_NOT_FOUND when
 * it has none, SRV_FORBIDDEN as for notify_channel_put. */
srv_kind notify_channel_delete(db_pool *db, const char *player_id,
                               const char *game_id, srv_error *err);

/* Remove one of the caller's webhooks; SRV_NOT_FOUND when it has none by
 * that id. Its pending deliveries are dropped. */
srv_kind notify_webhook_delete(db_pool *db, const char *player_id,
                               const char *id, srv_error *err);

/* Mark the address the token was mailed to as verified: {"email",
 * "email_verified": true, "already_verified": bool} into *out (true when
 * this token had verified it before: a second click). SRV_NOT_FOUND for
 * an unknown or expired token, or one of an address changed since. The
 * mailed link opens the web page's /verify, which asks for a button press
 * (a POST): a mail scanner's GET verifies nothing. */
srv_kind notify_email_verify(db_pool *db, const char *token, json_t **out,
                             srv_error *err);

/* Queue a mail about the account (kind "signin": a one-time sign-in link)
 * to a verified address email of player_id, in c's transaction: id is its
 * notification id (unique). 0, or -1 on a database failure. */
int notify_queue_account_mail(PGconn *c, const char *id, const char *email,
                              const char *player_id, const char *subject,
                              const char *body);

/* The mail facts of the players seated in game_id who have settings:
 * {"PLAYER": {"utc_offset": MIN, "unsubscribe": TOKEN}} (NEW; the token of
 * each player's unsubscribe link is made the first time, in c). NULL on a
 * database failure. For notify_input.players. */
json_t *notify_mail_facts(PGconn *c, const char *game_id);

/* One-click unsubscribe (RFC 8058) by the token of a mail's link: the
 * player's address is removed (no more mail; a new address is verified
 * again) and their pending and held mails dropped. Again is fine.
 * SRV_NOT_FOUND for an unknown token; SRV_UNAVAILABLE. */
srv_kind notify_unsubscribe(db_pool *db, const char *token, srv_error *err);

#endif

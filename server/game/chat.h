/*
 * chat.h - table talk: every game's public channel (id 0) and private
 * channels between sets of its seats, their messages and each member
 * seat's read mark, stored in chat_channels, chat_messages and chat_reads
 * (sql/005_table_talk.sql). Any game, whatever its ruleset.
 *
 * Who may do what: a caller holding a seat in the game (their lowest seat,
 * as everywhere else) posts to the public channel and to the private
 * channels that include that seat, reads them, and opens private channels
 * that include it. Everyone else (spectators, anonymous callers) reads the
 * public channel only; in a game with a spectator delay (spectate.h) they
 * see a public message only once the game version it was posted at is
 * visible to them and it is delay_seconds old. A private channel is "not
 * found" for anyone outside it.
 *
 * After a message is stored, NOTIFY CHAT_NOTIFY_CHANNEL carries
 * "game_id:channel:seq" (ids only, never the text); each process's
 * listener reads the row back with chat_fetch and hands it to its hub,
 * which sends it to the subscribed sockets of the members only.
 *
 * Message text is never logged by this module.
 *
 * Threads: any; every function takes a connection from db for its call.
 */
#ifndef CONCLAVE_CHAT_H
#define CONCLAVE_CHAT_H

#include "common/errors.h"
#include "server/store/db.h"

#include <jansson.h>
#include <stdint.h>

#define CHAT_NOTIFY_CHANNEL "conclave_chat"
#define CHAT_TEXT_MAX 2000   /* characters (Unicode code points) */
#define CHAT_CHANNELS_MAX 32 /* private channels per game */
#define CHAT_PAGE_MAX 100    /* messages per page, at most */
#define CHAT_PAGE_DEFAULT 50
#define CHAT_RATE_COUNT 10   /* messages per seat and game ... */
#define CHAT_RATE_SECONDS 10 /* ... in this many seconds */

/* A page of one channel: the newest `limit` messages (before and after 0),
 * the newest `limit` older than `before`, or the oldest `limit` newer than
 * `after` (not both). */
typedef struct chat_page {
    int64_t before, after;
    int limit;
} chat_page;

/* The caller's channels in game_id: {"you":SEAT|null,"channels":[{"id",
 * "kind":"public"|"private","seats":[...],"last_seq","read","unread"}]},
 * the public channel first (unread counts others' messages after the
 * caller's read mark; 0 and no mark for spectators). player_id NULL:
 * anonymous. *out NEW on SRV_OK. SRV_NOT_FOUND (no such game),
 * SRV_UNAVAILABLE. */
srv_kind chat_list(db_pool *db, const char *game_id, const char *player_id,
                   json_t **out, srv_error *e);

/* Open (or find) the private channel of the caller's seat and the seats in
 * `seats` (a JSON array of seat numbers; the caller's own may be listed).
 * *out NEW: the channel as chat_list shows it; *created 1 when new.
 * SRV_FORBIDDEN (no seat in the game), SRV_INVALID (a bad seat, fewer than
 * two members), SRV_TOO_MANY (CHAT_CHANNELS_MAX reached), SRV_NOT_FOUND,
 * SRV_UNAVAILABLE. */
srv_kind chat_open(db_pool *db, const char *game_id, const char *player_id,
                   const json_t *seats, json_t **out, int *created,
                   srv_error *e);

/* Post text (valid UTF-8, 1..CHAT_TEXT_MAX characters, no control
 * characters but newline and tab) to channel as the caller's seat, then
 * NOTIFY. *out NEW: the message (see chat_fetch). SRV_FORBIDDEN (a
 * spectator), SRV_NOT_FOUND (no such game or channel, or not a member),
 * SRV_TOO_LARGE (too long), SRV_INVALID (empty, control characters),
 * SRV_TOO_MANY with *retry_after seconds (CHAT_RATE_COUNT in
 * CHAT_RATE_SECONDS), SRV_UNAVAILABLE. */
srv_kind chat_post(db_pool *db, const char *game_id, const char *player_id,
                   int channel, const char *text, json_t **out,
                   int *retry_after, srv_error *e);

/* A page of channel as the caller may see it: {"channel","messages":[...]
 * (oldest first),"more":bool (older ones exist before the first, for
 * before/newest pages; newer ones after the last, for after pages)}.
 * SRV_NOT_FOUND (no such game or channel, or not a member),
 * SRV_UNAVAILABLE. */
srv_kind chat_read(db_pool *db, const char *game_id, const char *player_id,
                   int channel, const chat_page *page, json_t **out,
                   srv_error *e);

/* Move the caller's read mark in channel up to seq (never back; capped at
 * the channel's last message). *out NEW: {"channel","read","unread"}.
 * SRV_FORBIDDEN (a spectator), SRV_NOT_FOUND, SRV_UNAVAILABLE. */
srv_kind chat_mark_read(db_pool *db, const char *game_id, const char *player_id,
                        int channel, int64_t seq, json_t **out, srv_error *e);

/* One stored message by its ids, for delivery and for other modules (a
 * notifier of private messages, say): *msg NEW {"seq","channel","seat",
 * "player":{"id","name"},"text","at"} and *seats the channel's member
 * seats, one bit per seat (0: the public channel); *version (when not
 * NULL) the game version it was posted at and *age (when not NULL) its age
 * in seconds by the database's clock (for the spectator delay). The caller
 * decides who may see it; it must not log the text. SRV_OK, SRV_NOT_FOUND,
 * SRV_UNAVAILABLE. */
srv_kind chat_fetch(db_pool *db, const char *game_id, int channel, int64_t seq,
                    json_t **msg, unsigned *seats, uint64_t *version,
                    double *age);

/* Check text as chat_post does, without storing it: SRV_OK, or the kind
 * with e filled. For unit tests and callers that check early. */
srv_kind chat_check_text(const char *text, srv_error *e);

#endif

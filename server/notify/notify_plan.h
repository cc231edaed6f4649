/*
 * notify_plan.h - what to tell whom about one game, decided from its
 * committed state under actors_read: which windows wait on each human
 * seat, and the notifications (subject, mail text, webhook JSON) for the
 * seats concerned. Every body is rendered from that seat's own audience
 * (gamedoc_render(v, seat): the seat's view and the open windows), never
 * from the whole state, so a notification shows nothing that seat could
 * not see on the page. No I/O: the notifier (notify.c) reads the facts and
 * what was told before, and writes the outcome.
 *
 * A game with a group channel (a webhook attached to the game) also gets
 * items for seat ENGINE_PUBLIC: whose move it is, started, ended with the
 * winner, rendered from the public document alone (gamedoc_render(v,
 * ENGINE_PUBLIC)) and the game's public facts, and none while the game
 * has a spectator delay (spectate.h).
 *
 * The mail text is for a person: the game's name and the other players'
 * names, each waiting step in words (engine_window_label) with its deadline
 * in the player's own UTC offset, the game's link, and last a line
 * "Unsubscribe: URL" (BASE/unsubscribe?token=...) that notify_send turns
 * into the List-Unsubscribe headers (RFC 8058).
 */
#ifndef CONCLAVE_NOTIFY_PLAN_H
#define CONCLAVE_NOTIFY_PLAN_H

#include "server/game/actor.h"

#include <jansson.h>
#include <stddef.h>

typedef struct notify_item {
    int seat; /* ENGINE_PUBLIC: for the game's group channel */
    char player_id[STORE_ID_MAX];
    char kind[24]; /* waiting, reminder, final_reminder, started, ended,
                      replaced, message */
    char id[STORE_ID_MAX + 64];  /* GAME:VERSION:SEAT:KIND, the idempotency
                                    id, the same on every retry */
    char *subject, *text, *json; /* owned */
    char *chat;  /* owned: the text's words without the mail's footer, for
                    the chat formats (notify_format.h) */
    int channel; /* "message": the private channel (0 otherwise) */
} notify_item;

typedef struct notify_plan {
    uint64_t version; /* the version the plan was made at */
    int behind;       /* the state held is older than the facts: retry */
    notify_item *items;
    size_t n, cap;
    json_t *waiting; /* {"SEAT": [window ids waiting on it]}, human seats */
    json_t *public_waiting; /* the same, when the group channel is told of
                               them (empty otherwise) */
} notify_plan;

/* Whether the player of seat has the game open now (a live WebSocket
 * subscribed as that seat): then nothing is sent to it. */
typedef int (*notify_active_fn)(void *ctx, const char *game_id, int seat);

typedef struct notify_input {
    uint64_t version;       /* the highest version among the facts */
    int started;            /* a "started" fact */
    const json_t *replaced; /* details of "replaced" facts ({"seat","bot"}) */
    const json_t *messages; /* details of "message" facts ({"seat" (the
                               recipient), "channel", "seq", "from",
                               "name", "text"}, chat.c) */
    const json_t *told;     /* {"SEAT": {WINDOW: true}}: announced windows */
    const json_t *public_told; /* the same, announced to the group channel */
    int reminder_level;        /* reminders: 1 or 2 (0: not a reminder) */
    int reminder_seat;
    const char *reminder_window;
    const char *reminder_tag; /* WINDOW@DUE, part of the reminder's id */
    notify_active_fn active;
    void *active_ctx;
    const char *base_url;  /* links: BASE/game/ID */
    const json_t *players; /* {"PLAYER": {"utc_offset": MIN, "unsubscribe":
                              TOKEN|null}} of seated players with settings
                              (notify_mail_facts); NULL: UTC, no link */
    int channel; /* the game has a group channel: its public items too */
} notify_input;

/* Decide, for the state in v, into out (zeroed by the caller). Seats that
 * are bots get nothing. Returns 0, or -1 when out of memory (out holds
 * what was made; free it). */
int notify_plan_game(const actor_view *v, const notify_input *in,
                     notify_plan *out);

/* Free what a plan holds (not the struct itself). */
void notify_plan_free(notify_plan *p);

/* The mail text and webhook JSON of a digest of items (webhook bodies of
 * held notifications, parsed): {"event":"digest","items":[...]}; text
 * joins their texts. NEW/malloc'd, NULL when out of memory. */
char *notify_digest_json(const json_t *items);

#endif

/*
 * hub.h - the WebSocket hub (libwebsockets, one service thread): per-
 * audience views diffed into JSON Patches, resume, spectators, the lobby
 * feed. See docs/architecture.md and the WebSocket section of API.md.
 *
 * Threads: hub_start/hub_stop run on main. hub_game_version and
 * hub_lobby_changed may be called from any thread: they only enqueue under
 * the hub's mutex and wake the service thread with lws_cancel_service.
 */
#ifndef CONCLAVE_HUB_H
#define CONCLAVE_HUB_H

#include "server/runtime/app.h"

#include <stddef.h>
#include <stdint.h>

typedef struct hub hub;

/* Listen on cfg->ws_port (0: any free port) at path /ws, subprotocol
 * conclave.v1; uses a->actors for views. NULL with err on failure. */
hub *hub_start(app *a, char *err, size_t errlen);
/* The port actually bound. */
int hub_port(const hub *h);
/* The HTTP port actually bound, for the default allowed origins
 * (http://localhost:PORT and http://127.0.0.1:PORT when
 * cfg->allowed_origins is empty). Main thread, before the server announces
 * that it is listening; until then cfg->http_port is used. */
void hub_set_http_port(hub *h, int http_port);
/* Main thread, before hub_stop, when the server shuts down: every
 * connection gets the messages already queued for it, then a close with
 * code 1012 ("service restart") so its client reconnects (behind a load
 * balancer, to another process) and resumes from its versions. Waits up to
 * wait_s seconds for the connections to go; new ones are closed the same
 * way. */
void hub_close_all(hub *h, double wait_s);
/* Close every connection and stop the service thread. */
void hub_stop(hub *h);
/* An actor committed (or caught up to) version of game_id. Matches
 * actor_listener_fn; ctx is the hub. */
void hub_game_version(void *ctx, const char *game_id, uint64_t version);
/* A lobby was created or changed (here or, via NOTIFY conclave_lobbies, in
 * another process). lobby_id NULL: changes may have been missed (the LISTEN
 * connection came back), so lobby subscribers get the whole list again. */
/* Game game_id committed a version (any process): the players on the inbox
 * feed seated in it get their inbox again when it changed (hub_turns.c).
 * ctx is the hub (NULL: none); matches feed_hooks.turns_changed. Any
 * thread; only queues a job. */
void hub_turns_changed(void *ctx, const char *game_id);
void hub_lobby_changed(hub *h, const char *lobby_id);

/* A token was revoked (here or, by NOTIFY, elsewhere): every connection
 * that authenticated with it loses its seat subscriptions at once, is
 * told (an error per game and one for the connection, status 401) and is
 * a spectator from then on. Matches tokens_revoke_fn; ctx is the hub. Any
 * thread; takes hub.lock. */
void hub_token_revoked(void *ctx, const char *hash_hex);

/* Chat message seq of channel in game_id was stored (here or, by NOTIFY
 * conclave_chat, elsewhere): read it back (server/game/chat.h) and send it as
 * {"type":"chat"} to this process's sockets that follow the game and may
 * see it (hub_chat.c). Any thread but the lws thread; reads the database
 * only when someone here follows the game. h NULL: nothing. */
void hub_chat_posted(hub *h, const char *game_id, int channel, int64_t seq);
/* Whether a live connection of this process is subscribed to game_id as
 * seat (its player has the game open): server/hub/hub_presence.c. ctx is the
 * hub (NULL: none); matches feed_hooks.seat_active. Any thread; takes
 * hub.lock. */
int hub_seat_active(void *ctx, const char *game_id, int seat);
/* The seats with a live connection of this process subscribed to their
 * game as that seat, as JSON text [{"g":GAME,"s":SEAT},...] (NEW, free()),
 * or NULL when there are none (or memory ran out). ctx is the hub (NULL:
 * none); matches feed_hooks.active_seats_json. Any thread; takes hub.lock.
 */
char *hub_active_seats_json(void *ctx);

#endif

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

#include "server/app.h"

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
 * Any thread; only queues a job. */
void hub_turns_changed(hub *h, const char *game_id);
void hub_lobby_changed(hub *h, const char *lobby_id);

/* A token was revoked (here or, by NOTIFY, elsewhere): every connection
 * that authenticated with it loses its seat subscriptions at once, is
 * told (an error per game and one for the connection, status 401) and is
 * a spectator from then on. Matches tokens_revoke_fn; ctx is the hub. Any
 * thread; takes hub.lock. */
void hub_token_revoked(void *ctx, const char *hash_hex);

#endif

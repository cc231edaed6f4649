/*
 * listener.h - LISTEN conclave_games: learn about inputs other processes
 * commit, so held games (and their WebSocket subscribers) catch up. After
 * the connection drops and returns, every held game is caught up, since
 * notifications sent meanwhile were lost. Also LISTEN conclave_lobbies for
 * the hub's lobby feed (after a reconnect, lobby subscribers get the whole
 * list again), and LISTEN conclave_tokens for revoked tokens (their hash:
 * forgotten here, and the sockets that used them lose their seats). After
 * a reconnect the revocations stored since the lost connection was last
 * seen alive (less a minute; at most 10000, newest first) are replayed the
 * same way, so one whose notification was lost still ends seat access.
 * The connection calls itself "conclave listener" (application_name).
 * And LISTEN conclave_chat: "game_id:channel:seq" of a stored chat message,
 * handed to the hub (hub_chat_posted), which reads the row itself; a
 * message sent while the connection was down reaches sockets only through
 * REST.
 */
#ifndef CONCLAVE_LISTENER_H
#define CONCLAVE_LISTENER_H

#include "server/game/actor.h"
#include "server/runtime/app.h"

typedef struct listener listener;

listener *listener_start(app *a, actors *A, char *err, size_t errlen);
void listener_stop(listener *l);

#endif

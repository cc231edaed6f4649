/*
 * idle_seats.h - releasing the seats of idle players in open lobbies.
 *
 * A player seated in an open lobby (not its host: the host leaving closes
 * the lobby) whose players.last_seen is older than cfg->idle_seat_seconds
 * loses the seat, as if they had left: the seat empties, the lobby's
 * version goes up and the change is announced on LOBBY_CHANNEL, so the
 * lobby feed of every process shows it. last_seen moves with every
 * authenticated request (server/players/tokens.c) and with taking a seat.
 *
 * Every process's scheduler runs the sweep; a lobby another transaction
 * holds is skipped (FOR UPDATE SKIP LOCKED) and looked at again on the
 * next sweep, and a seat is only emptied if it still holds the idle player.
 *
 * Threads: any; it acquires its own connection from the app's pool.
 */
#ifndef CONCLAVE_IDLE_SEATS_H
#define CONCLAVE_IDLE_SEATS_H

#include "server/runtime/app.h"

/* Release up to IDLE_SEATS_BATCH idle seats once (nothing when
 * cfg->idle_seat_seconds is 0). Returns how many seats were released, or
 * -1 on a database failure (logged by the caller's next attempt). */
int idle_seats_release(app *a);

#define IDLE_SEATS_BATCH 200

#endif

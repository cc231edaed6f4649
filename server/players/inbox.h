/*
 * inbox.h - a player's "your move" inbox: every window, over all their
 * running games (clocked or not), that waits on them (a sealed window
 * without their order, an open window where they may act, priority they
 * hold), read from the turns_waiting rows the store keeps in step with
 * each commit (one indexed join; no game is loaded).
 *
 * Threads: any; the caller's connection; parameters only.
 */
#ifndef CONCLAVE_INBOX_H
#define CONCLAVE_INBOX_H

#include <jansson.h>
#include <libpq-fe.h>

/* At most this many windows are listed (the soonest deadlines first). */
#define INBOX_MAX 500

/* {"count":N,"turns":[{"game","ruleset","window","seat","since",
 * "deadline":RFC 3339|null,"link":"/game/ID"}]}, soonest deadline first
 * (windows without one last, oldest first). NEW, or NULL on a database
 * failure. */
json_t *inbox_load(PGconn *c, const char *player_id);

#endif

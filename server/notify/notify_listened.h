/*
 * notify_listened.h - the players who can be told of a game (a webhook, or
 * a verified email address) and the games with a group channel, kept in
 * memory so that a move's commit writes a notification fact only for a
 * game one of whose seated players listens, or that has a group channel,
 * without asking the database (store.h: store_append.listened).
 *
 * Kept current by the settings changes themselves: the changes this
 * process makes (notify_settings.c) refresh their player at once; the
 * whole set is read again every NOTIFY_LISTENED_RELOAD_SECONDS by the
 * notifier's planner, which brings in what other processes changed. Until
 * the first load every player counts as listening (facts are written; the
 * notifier drops the ones nobody can be told of, as it always does).
 *
 * Threads: any (a read-write lock).
 */
#ifndef CONCLAVE_NOTIFY_LISTENED_H
#define CONCLAVE_NOTIFY_LISTENED_H

#include "server/store/db.h"

#define NOTIFY_LISTENED_RELOAD_SECONDS 2.0

/* Read the whole set from the database. 0, or -1 (the set is unchanged). */
int notify_listened_reload(PGconn *c);
/* Reload when the last load is older than NOTIFY_LISTENED_RELOAD_SECONDS
 * (on a connection of p). */
void notify_listened_tick(db_pool *p);
/* Read player_id's entry again from the database, after a change of their
 * channels. 0, or -1 (then the next reload corrects it). */
int notify_listened_refresh(PGconn *c, const char *player_id);
/* Read game_id's group channel again (after it was attached or removed).
 * 0, or -1. */
int notify_listened_game_refresh(PGconn *c, const char *game_id);
/* Whether game_id has a group channel (1 as well before the first load). */
int notify_listened_game(const char *game_id);
/* Whether any of the n player ids (NULL or "" entries skipped) listens. */
int notify_listened_any(const char *const *players, int n);
/* Forget everything (back to "not loaded"): for tests and shutdown. */
void notify_listened_reset(void);

#endif

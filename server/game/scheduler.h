/*
 * scheduler.h - the background thread that fires due deadlines, evicts
 * idle games, releases the lobby seats of idle players (once a second,
 * server/lobby/idle_seats.h) and folds the windows of delayed games into
 * reputation once due (once a second, server/players/reputation.h). Every
 * process runs one; FOR UPDATE SKIP LOCKED plus a short lease lets several
 * processes share the deadlines without firing one twice (and the engine
 * refuses a timeout for a window that has closed).
 */
#ifndef CONCLAVE_SCHEDULER_H
#define CONCLAVE_SCHEDULER_H

#include "server/game/actor.h"
#include "server/runtime/app.h"

typedef struct scheduler scheduler;

scheduler *scheduler_start(app *a, actors *A, char *err, size_t errlen);
void scheduler_stop(scheduler *s);
/* Claim and post due deadlines once; returns how many (tests, tools). */
int scheduler_fire_due(scheduler *s);

#endif

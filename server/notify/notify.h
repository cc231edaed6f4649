/*
 * notify.h - the notifier: turns the outbox of facts (notify_facts,
 * written by triggers in the transaction of each input) into per-player
 * deliveries, adds deadline reminders and daily digests, and delivers
 * (webhooks, SMTP) with retries, exponential backoff and a dead-letter
 * state, counted in /metrics. Every process runs one; rows are claimed
 * with FOR UPDATE SKIP LOCKED, so processes share the work, and a crash
 * at any point loses nothing: facts are deleted in the transaction that
 * writes their deliveries, and a delivery is marked sent only after the
 * receiver took it (at least once, with the same idempotency id).
 * Details: docs/architecture.md, "Notifications".
 *
 * Threads: one planner thread and one sender thread, whose transfers are
 * non-blocking (curl's multi interface), fair across players and capped
 * per player and destination host (notify_deliver.c); notify_start/
 * notify_stop on main.
 */
#ifndef CONCLAVE_NOTIFY_H
#define CONCLAVE_NOTIFY_H

#include "server/game/actor.h"
#include "server/runtime/app.h"

/* A webhook that failed this many times in a row is paused (its circuit
 * breaker opens), for a growing interval. */
#define NOTIFY_BREAKER_FAILURES 3

typedef struct notifier notifier;

/* Start the threads. base_url is the server's address for links (copied).
 * NULL with err on failure. */
notifier *notify_start(app *a, const char *base_url, char *err, size_t errlen);
/* Stop and join the threads (transfers still open are dropped and their
 * deliveries left due for the next process). */
void notify_stop(notifier *n);

/* One pass of each kind (tests, tools): facts planned, reminders,
 * digests, deliveries attempted. Each returns how many rows it handled,
 * or -1 when the database failed. */
int notify_plan_facts(notifier *n);
int notify_remind(notifier *n);
int notify_digest(notifier *n);
int notify_deliver(notifier *n); /* waits for its transfers to end */

#endif

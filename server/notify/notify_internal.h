/*
 * notify_internal.h - what the notifier's files share: the notifier itself
 * and the outbox writer. Not for other modules (use notify.h).
 */
#ifndef CONCLAVE_NOTIFY_INTERNAL_H
#define CONCLAVE_NOTIFY_INTERNAL_H

#include "server/notify/notify.h"
#include "server/notify/notify_plan.h"

#include <curl/curl.h>
#include <pthread.h>
#include <stdatomic.h>

struct notifier {
    app *app;
    char base_url[512];
    int email_on; /* an SMTP relay is set */
    pthread_t planner, sender;
    int planner_started, sender_started;
    CURLM *multi; /* the sender thread's transfers (woken by notify_stop) */
    pthread_mutex_t lock;
    pthread_cond_t wake;
    atomic_int stopping; /* set under lock, read anywhere */
};

/* Write the plan's notifications as deliveries (one per channel of the
 * player: a verified email when email_on, each webhook; 'held' for a
 * player with a digest), in c's open transaction. 0, or -1 (the caller
 * rolls back). */
int notify_write_items(notifier *n, PGconn *c, const char *game_id,
                       const notify_plan *p);

/* The sender thread's loop (notify_deliver.c): claims, transfers and
 * settles deliveries until n->stopping, then gives back the leases of the
 * transfers still open. */
void notify_sender_run(notifier *n);

/* Run a statement expecting expect; 0 or -1 (logged by db_exec). */
int notify_exec(PGconn *c, ExecStatusType expect, const char *sql, int np,
                const char *const *p);

#endif

/*
 * commit.h - group commit: a few writer threads, each with its own
 * database connection, commit the appends of any number of games together.
 *
 * An actor worker hands its append to committer_append and waits. Each
 * writer takes every append queued at that moment (up to a cap), commits
 * them in one transaction (store_append_batch, which sends their NOTIFYs
 * behind the COMMIT in the same round trip), and answers each one only
 * after that commit. There is
 * no fixed wait: a batch is whatever queued while the previous batch was
 * committing, so under load many moves share one WAL flush and when idle
 * a lone move commits at once. A stale expected version refuses only that
 * append, never its batch.
 *
 * Metrics: conclave_commits_total (transactions), conclave_commit_inputs_total
 * (appends they carried: inputs per commit = the ratio) and
 * conclave_commit_batch_max (the largest batch so far).
 */
#ifndef CONCLAVE_COMMIT_H
#define CONCLAVE_COMMIT_H

#include "server/store/store.h"

typedef struct committer committer;

/* Start `writers` writer threads on url. Each opens its connection now (a
 * failure is logged and retried at its next batch). NULL with a message
 * in err when out of memory or a thread cannot start. */
committer *committer_start(const char *url, int writers, int connect_timeout,
                           char *err, size_t errlen);
/* Commit what is queued, stop the writers, close their connections. */
void committer_stop(committer *cm);
/* Append a (borrowed until the return) together with whatever else is
 * queued, and wait for the commit. STORE_OK only once the input is
 * committed (its NOTIFY sent after); STORE_ECONFLICT when a's expected
 * version was stale (or its idempotency key was taken meanwhile);
 * STORE_EDB when it was not confirmed: not committed, or the connection
 * was lost after the COMMIT was sent, so that the outcome is unknown
 * (retry later, with the same idempotency key). */
int committer_append(committer *cm, const store_append *a);
/* How many appends wait in the queue, not yet taken by a writer (for
 * tests that wait until appends have queued). */
int committer_queued(committer *cm);

#endif

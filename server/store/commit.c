/*
 * commit.c - group commit (see commit.h).
 *
 * One mutex guards the queue, `stopping` and every pending append's
 * `done`/`rc`; each pending append has its own condition variable, so a
 * writer wakes exactly the workers of its batch. A writer holds no lock
 * while it talks to the database.
 */
#include "server/store/commit.h"

#include "server/runtime/log.h"
#include "server/runtime/metrics.h"
#include "server/runtime/thread_name.h"
#include "server/store/db.h"

#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BATCH 128 /* appends per transaction at most */

typedef struct pending {
    struct pending *next;
    const store_append *a;
    int rc;
    int done;
    pthread_cond_t cv;
} pending;

typedef struct writer {
    committer *cm;
    pthread_t thread;
    PGconn *conn; /* the writer's own; NULL until connected */
} writer;

struct committer {
    char url[1024];
    int connect_timeout;
    pthread_mutex_t lock;
    pthread_cond_t work_cv;
    pending *head, *tail;
    int stopping;
    int largest; /* lock: the largest batch so far */
    writer *writers;
    int nwriters;
};

/* The writer's connection, (re)opened if need be; NULL when the database
 * cannot be reached. An idle connection the server has spoken on (a
 * terminated backend's last message, its closed socket) is replaced before
 * anything is sent on it: a writer never listens, so nothing else is due. */
static PGconn *writer_conn(writer *w)
{
    if (w->conn && PQstatus(w->conn) == CONNECTION_OK &&
        PQpipelineStatus(w->conn) == PQ_PIPELINE_OFF) {
        struct pollfd pf = {.fd = PQsocket(w->conn), .events = POLLIN};
        if (poll(&pf, 1, 0) == 0)
            return w->conn;
    }
    if (w->conn)
        PQfinish(w->conn);
    char err[256];
    w->conn = db_connect(w->cm->url, w->cm->connect_timeout, err, sizeof err);
    if (!w->conn) {
        log_warn("commit_connect_failed", json_pack("{ss}", "error", err));
        return NULL;
    }
    /* The batch statement's plan does not depend on its arrays' contents:
     * planned once per connection, not at each batch (a custom plan of its
     * many parts cost more than running it, docs/performance.md). */
    PGresult *r = PQexec(w->conn, "SET plan_cache_mode = force_generic_plan");
    if (PQresultStatus(r) != PGRES_COMMAND_OK)
        log_warn("commit_generic_plan_failed",
                 json_pack("{ss}", "error", PQerrorMessage(w->conn)));
    PQclear(r);
    return w->conn;
}

/* Take up to MAX_BATCH queued appends into batch; 0 when stopping with
 * nothing queued. */
static int take_batch(committer *cm, pending **batch)
{
    pthread_mutex_lock(&cm->lock);
    while (!cm->head && !cm->stopping)
        pthread_cond_wait(&cm->work_cv, &cm->lock);
    int n = 0;
    while (cm->head && n < MAX_BATCH) {
        batch[n++] = cm->head;
        cm->head = cm->head->next;
    }
    if (!cm->head)
        cm->tail = NULL;
    pthread_mutex_unlock(&cm->lock);
    return n;
}

/* Commit batch[0..n-1] (and send its NOTIFY) on the writer's connection:
 * rcs[i] per append. */
static void commit_batch(writer *w, pending **batch, int n, int *rcs)
{
    const store_append *list[MAX_BATCH];
    for (int i = 0; i < n; i++)
        list[i] = batch[i]->a;
    PGconn *c = writer_conn(w);
    if (!c) {
        for (int i = 0; i < n; i++)
            rcs[i] = STORE_EDB;
        return;
    }
    if (store_append_batch(c, list, n, rcs) != STORE_OK) {
        /* Each rcs[i] is its append's answer (one committed on its own
         * before the loss stays committed); the connection is broken or
         * in an unknown state: open a fresh one. */
        PQfinish(c);
        w->conn = NULL;
        return;
    }
    metrics_count("conclave_commits_total", "Transactions of the group commit.",
                  1);
    metrics_count("conclave_commit_inputs_total",
                  "Appends those transactions carried.", (uint64_t)n);
}

static void *writer_main(void *arg)
{
    thread_name_set("commit");
    writer *w = arg;
    committer *cm = w->cm;
    db_thread_serves_requests();
    pending *batch[MAX_BATCH];
    int rcs[MAX_BATCH];
    for (;;) {
        int n = take_batch(cm, batch);
        if (n == 0)
            return NULL;
        commit_batch(w, batch, n, rcs);
        pthread_mutex_lock(&cm->lock);
        if (n > cm->largest) {
            cm->largest = n;
            metrics_gauge("conclave_commit_batch_max",
                          "The largest group commit so far (appends).", n);
        }
        for (int i = 0; i < n; i++) {
            batch[i]->rc = rcs[i];
            batch[i]->done = 1;
            pthread_cond_signal(&batch[i]->cv);
        }
        pthread_mutex_unlock(&cm->lock);
    }
}

committer *committer_start(const char *url, int writers, int connect_timeout,
                           char *err, size_t errlen)
{
    committer *cm = calloc(1, sizeof *cm);
    if (cm)
        cm->writers = calloc((size_t)writers, sizeof *cm->writers);
    if (!cm || !cm->writers) {
        free(cm);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    snprintf(cm->url, sizeof cm->url, "%s", url);
    cm->connect_timeout = connect_timeout;
    pthread_mutex_init(&cm->lock, NULL);
    pthread_cond_init(&cm->work_cv, NULL);
    for (int i = 0; i < writers; i++) {
        writer *w = &cm->writers[i];
        w->cm = cm;
        writer_conn(w);
        if (pthread_create(&w->thread, NULL, writer_main, w) != 0) {
            snprintf(err, errlen, "cannot start commit threads");
            if (w->conn)
                PQfinish(w->conn);
            cm->nwriters = i;
            committer_stop(cm);
            return NULL;
        }
        cm->nwriters = i + 1;
    }
    return cm;
}

void committer_stop(committer *cm)
{
    if (!cm)
        return;
    pthread_mutex_lock(&cm->lock);
    cm->stopping = 1;
    pthread_cond_broadcast(&cm->work_cv);
    pthread_mutex_unlock(&cm->lock);
    for (int i = 0; i < cm->nwriters; i++) {
        pthread_join(cm->writers[i].thread, NULL);
        if (cm->writers[i].conn)
            PQfinish(cm->writers[i].conn);
    }
    pthread_mutex_destroy(&cm->lock);
    pthread_cond_destroy(&cm->work_cv);
    free(cm->writers);
    free(cm);
}

int committer_queued(committer *cm)
{
    pthread_mutex_lock(&cm->lock);
    int n = 0;
    for (const pending *p = cm->head; p; p = p->next)
        n++;
    pthread_mutex_unlock(&cm->lock);
    return n;
}

int committer_append(committer *cm, const store_append *a)
{
    pending p = {.a = a, .rc = STORE_EDB};
    pthread_cond_init(&p.cv, NULL);
    pthread_mutex_lock(&cm->lock);
    if (cm->stopping) {
        pthread_mutex_unlock(&cm->lock);
        pthread_cond_destroy(&p.cv);
        return STORE_EDB;
    }
    /* p lives on this stack until its writer has taken it off the queue
     * and answered it (done), which this function waits for. */
    if (cm->tail)
        cm->tail->next = &p;
    else
        // cppcheck-suppress autoVariables
        cm->head = &p;
    // cppcheck-suppress autoVariables
    cm->tail = &p;
    pthread_cond_signal(&cm->work_cv);
    while (!p.done)
        pthread_cond_wait(&p.cv, &cm->lock);
    pthread_mutex_unlock(&cm->lock);
    pthread_cond_destroy(&p.cv);
    return p.rc;
}

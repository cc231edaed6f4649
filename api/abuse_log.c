/*
 * abuse_log.c - rate-limited abuse log lines (see abuse_log.h).
 *
 * A fixed table of kinds, each with its count since the last line and the
 * time of that line; process-wide state guarded by `lock`.
 */
#include "api/abuse_log.h"

#include "server/runtime/log.h"

#include <pthread.h>
#include <string.h>
#include <time.h>

#define KINDS 16

typedef struct kind_count {
    const char *kind; /* NULL: unused */
    long count;       /* events since the last line */
    double last;      /* monotonic seconds of the last line; 0: none yet */
} kind_count;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static kind_count kinds[KINDS];

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The slot of kind (lock held): its own, a free one, or the last. */
static kind_count *slot_of(const char *kind)
{
    for (int i = 0; i < KINDS - 1; i++) {
        if (!kinds[i].kind)
            kinds[i].kind = kind;
        if (strcmp(kinds[i].kind, kind) == 0)
            return &kinds[i];
    }
    kinds[KINDS - 1].kind = "other";
    return &kinds[KINDS - 1];
}

void api_abuse_note(const char *kind, const char *ip)
{
    double now = now_s();
    long count = 0;
    const char *name = kind;
    pthread_mutex_lock(&lock);
    kind_count *k = slot_of(kind);
    k->count++;
    if (k->last == 0 || now - k->last >= API_ABUSE_LOG_SECONDS) {
        count = k->count;
        name = k->kind;
        k->count = 0;
        k->last = now;
    }
    pthread_mutex_unlock(&lock);
    if (count)
        log_warn("abuse",
                 json_pack("{ss ss sI}", "kind", name, "ip",
                           ip ? ip : "unknown", "count", (json_int_t)count));
}

/*
 * thread_name.h - each of the server's own threads names itself when it
 * starts ("actor", "commit", "hub-lws", ...), so that `top -H`, `perf report
 * --sort comm` and bench/setup_cost.sh's per-thread table say which part of
 * the server spent the CPU (docs/performance.md). libmicrohttpd names its
 * own threads ("MHD-worker").
 */
#ifndef CONCLAVE_THREAD_NAME_H
#define CONCLAVE_THREAD_NAME_H

#include <pthread.h>
#include <stdio.h>

/* Name the calling thread; names longer than 15 bytes are cut by the
 * kernel's limit, so keep them short. A failure only loses the name. */
static inline void thread_name_set(const char *name)
{
    char cut[16];
    snprintf(cut, sizeof cut, "%s", name);
    (void)pthread_setname_np(pthread_self(), cut);
}

#endif

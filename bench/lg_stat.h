/*
 * lg_stat.h - latency samples with percentiles, and what /proc says about
 * other processes: CPU seconds (one process; a PostgreSQL cluster as the
 * postmaster and all its children) and resident memory.
 */
#ifndef LG_STAT_H
#define LG_STAT_H

#include <jansson.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct lg_samples {
    double *v; /* milliseconds */
    size_t n, cap;
    int sorted;
} lg_samples;

void lg_sample(lg_samples *s, double ms);
/* p in [0,1], nearest rank; 0 when empty. Sorts on first use. */
double lg_pct(lg_samples *s, double p);
/* {"n","p50","p90","p95","p99","max","mean"} in ms, or null when empty. */
json_t *lg_samples_json(lg_samples *s);

/* utime + stime of one process, in seconds; -1 if it is gone. */
double lg_proc_cpu(pid_t pid);
/* The cluster whose postmaster is pid: user + system seconds of the
 * postmaster, of every live child, and of children already reaped (the
 * postmaster's cutime/cstime). `dbname` non-NULL: *ours gets the part of
 * the live backends whose title names that database. */
double lg_cluster_cpu(pid_t postmaster, const char *dbname, double *ours);
/* VmRSS and VmHWM in KiB; -1 when unknown. */
long lg_proc_kb(pid_t pid, const char *field);
/* This process: user + system seconds. */
double lg_self_cpu(void);

#endif

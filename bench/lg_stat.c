/*
 * lg_stat.c - see lg_stat.h.
 */
#include "bench/lg_stat.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

void lg_sample(lg_samples *s, double ms)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 4096;
        double *v = realloc(s->v, cap * sizeof *v);
        if (!v)
            return;
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n++] = ms;
    s->sorted = 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double lg_pct(lg_samples *s, double p)
{
    if (!s->n)
        return 0;
    if (!s->sorted) {
        qsort(s->v, s->n, sizeof *s->v, cmp_double);
        s->sorted = 1;
    }
    size_t rank = (size_t)ceil(p * (double)s->n);
    if (rank < 1)
        rank = 1;
    if (rank > s->n)
        rank = s->n;
    return s->v[rank - 1];
}

static double r3(double x)
{
    return round(x * 1000.0) / 1000.0;
}

json_t *lg_samples_json(lg_samples *s)
{
    if (!s->n)
        return json_null();
    double sum = 0;
    for (size_t i = 0; i < s->n; i++)
        sum += s->v[i];
    return json_pack("{sI sf sf sf sf sf sf}", "n", (json_int_t)s->n, "p50",
                     r3(lg_pct(s, 0.50)), "p90", r3(lg_pct(s, 0.90)), "p95",
                     r3(lg_pct(s, 0.95)), "p99", r3(lg_pct(s, 0.99)), "max",
                     r3(lg_pct(s, 1.0)), "mean", r3(sum / (double)s->n));
}

/* Fields of /proc/PID/stat after the command name: [0] is field 3
 * (state), so ppid is [1], utime [11], stime [12], cutime [13],
 * cstime [14]. */
static int read_stat(pid_t pid, long *ppid, double t[4])
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *p = strrchr(buf, ')');
    if (!p)
        return -1;
    p += 2;
    static long hz;
    if (!hz)
        hz = sysconf(_SC_CLK_TCK);
    char *save = NULL;
    int i = 0;
    for (char *tok = strtok_r(p, " ", &save); tok && i <= 14;
         tok = strtok_r(NULL, " ", &save), i++) {
        if (i == 1 && ppid)
            *ppid = strtol(tok, NULL, 10);
        if (i >= 11 && i <= 14)
            t[i - 11] = (double)strtoull(tok, NULL, 10) / (double)hz;
    }
    return i > 14 ? 0 : -1;
}

double lg_proc_cpu(pid_t pid)
{
    double t[4];
    if (read_stat(pid, NULL, t) != 0)
        return -1;
    return t[0] + t[1];
}

static int title_has_db(pid_t pid, const char *dbname)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/cmdline", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    for (size_t i = 0; i < n; i++)
        if (buf[i] == '\0')
            buf[i] = ' ';
    buf[n] = '\0';
    char want[160];
    snprintf(want, sizeof want, " %s ", dbname);
    return strstr(buf, want) != NULL;
}

double lg_cluster_cpu(pid_t postmaster, const char *dbname, double *ours)
{
    double t[4], total = 0;
    if (ours)
        *ours = 0;
    if (read_stat(postmaster, NULL, t) != 0)
        return -1;
    total = t[0] + t[1] + t[2] + t[3];
    DIR *d = opendir("/proc");
    if (!d)
        return total;
    struct dirent *e;
    while ((e = readdir(d))) {
        char *end;
        long pid = strtol(e->d_name, &end, 10);
        if (*end || pid <= 0 || pid == postmaster)
            continue;
        long ppid = 0;
        if (read_stat((pid_t)pid, &ppid, t) != 0 || ppid != postmaster)
            continue;
        total += t[0] + t[1];
        if (ours && dbname && title_has_db((pid_t)pid, dbname))
            *ours += t[0] + t[1];
    }
    closedir(d);
    return total;
}

long lg_proc_kb(pid_t pid, const char *field)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t fl = strlen(field);
    long v = -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, field, fl) == 0 && line[fl] == ':') {
            v = strtol(line + fl + 1, NULL, 10);
            break;
        }
    fclose(f);
    return v;
}

double lg_self_cpu(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

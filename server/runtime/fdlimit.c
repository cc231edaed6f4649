/*
 * fdlimit.c - raising the descriptor limit and sharing it out (see
 * fdlimit.h).
 */
#include "server/runtime/fdlimit.h"

#include <sys/resource.h>

long fd_limit_raise(int *raised)
{
    *raised = 0;
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return -1;
    rlim_t want = rl.rlim_max;
    if (want == RLIM_INFINITY || want > (rlim_t)FD_LIMIT_CAP)
        want = (rlim_t)FD_LIMIT_CAP;
    if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < want) {
        struct rlimit up = {want, rl.rlim_max};
        if (setrlimit(RLIMIT_NOFILE, &up) == 0) {
            rl.rlim_cur = want;
            *raised = 1;
        }
    }
    if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > (rlim_t)FD_LIMIT_CAP)
        return FD_LIMIT_CAP;
    return (long)rl.rlim_cur;
}

void fd_budget_split(long limit, int db_conns, long ws_max_set, fd_budget *out)
{
    out->limit = limit;
    out->raised = 0;
    out->reserve = (long)db_conns + FD_RESERVE_OTHER;
    long rest = limit - out->reserve;
    long http = rest / 2;
    if (http > FD_HTTP_MAX)
        http = FD_HTTP_MAX;
    if (http < FD_HTTP_MIN)
        http = FD_HTTP_MIN;
    out->http_max = http;
    long ws = rest - http;
    out->ws_max = ws_max_set > 0 ? ws_max_set : ws < 1 ? 1 : ws;
}

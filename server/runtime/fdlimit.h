/*
 * fdlimit.h - the process's file descriptors: at start the soft limit is
 * raised to the hard one, and the descriptors are shared out so that no
 * kind of client can take the ones the others need: a fixed reserve (the
 * database connections, the files, pipes and event loops), the HTTP
 * connections (libmicrohttpd's connection limit) and the WebSocket sockets
 * (the hub's global cap, CONCLAVE_WS_MAX). Kept within the limit, accept()
 * never fails with EMFILE.
 */
#ifndef CONCLAVE_FDLIMIT_H
#define CONCLAVE_FDLIMIT_H

/* Descriptors kept for everything that is not a client connection besides
 * the database connections: files read (migrations, the web page), the
 * log, pipes and eventfds of the event loops and thread pools, epoll, the
 * notifier's outbound transfers, and one accept in flight per listener. */
#define FD_RESERVE_OTHER 64
/* The HTTP connection limit never goes above this (libmicrohttpd's own
 * default order of magnitude), nor below FD_HTTP_MIN. */
#define FD_HTTP_MAX 4096
#define FD_HTTP_MIN 64
/* Raise the soft limit no higher than this: lws and libmicrohttpd size
 * tables by it. */
#define FD_LIMIT_CAP 1048576L

typedef struct fd_budget {
    long limit;   /* the soft RLIMIT_NOFILE in force */
    long raised;  /* 1 when this start raised it */
    long reserve; /* database connections + FD_RESERVE_OTHER */
    long http_max;
    long ws_max; /* configured (ws_max_set), or what remains */
} fd_budget;

/* Raise RLIMIT_NOFILE's soft limit to its hard limit (at most
 * FD_LIMIT_CAP); *raised 1 when it went up. The soft limit now, or -1 when
 * it cannot be read. */
long fd_limit_raise(int *raised);

/* Share limit out (pure): reserve = db_conns + FD_RESERVE_OTHER; HTTP a
 * half the rest (within FD_HTTP_MIN and FD_HTTP_MAX); WebSockets
 * ws_max_set when it is above 0, else what remains (at least 1). */
void fd_budget_split(long limit, int db_conns, long ws_max_set, fd_budget *out);

#endif

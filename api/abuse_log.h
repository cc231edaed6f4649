/*
 * abuse_log.h - log lines for floods, refused quotas and failed
 * authentication, rate-limited themselves: at most one line per kind every
 * API_ABUSE_LOG_SECONDS, carrying how many events of that kind happened
 * since the previous line and the client IP of the latest. A flood thus
 * shows in the log without the log becoming the flood.
 *
 * Threads: any; one mutex guards the counters.
 */
#ifndef CONCLAVE_ABUSE_LOG_H
#define CONCLAVE_ABUSE_LOG_H

#define API_ABUSE_LOG_SECONDS 10.0

/* Count one event of kind (a string literal: "request_flood",
 * "auth_failed", "quota", ...) from ip, and write the warn line
 * {"event":"abuse","kind":...,"ip":...,"count":N} when the kind's last line
 * is older than API_ABUSE_LOG_SECONDS. Kinds beyond a small fixed number
 * share one "other" counter. Cannot fail. */
void api_abuse_note(const char *kind, const char *ip);

#endif

/*
 * log.h - structured JSON log lines on stderr, one object per line.
 *
 * Every line is {"ts","level","event",...fields}. Safe to call from any
 * thread (one write(2) per line). Never log game content that is hidden
 * (hands, sealed orders, seeds): log ids and counts.
 */
#ifndef CONCLAVE_LOG_H
#define CONCLAVE_LOG_H

#include <jansson.h>

typedef enum { LOG_DEBUG = 0, LOG_INFO, LOG_WARN, LOG_ERROR } log_level;

/* Lines below level are dropped. Call before threads start. */
void log_set_level(log_level level);
int log_parse_level(const char *name, log_level *out);
/* Emit one line; steals fields (an object, or NULL). */
void log_emit(log_level level, const char *event, json_t *fields);

#define log_info(ev, fields) log_emit(LOG_INFO, (ev), (fields))
#define log_warn(ev, fields) log_emit(LOG_WARN, (ev), (fields))
#define log_error(ev, fields) log_emit(LOG_ERROR, (ev), (fields))
#define log_debug(ev, fields) log_emit(LOG_DEBUG, (ev), (fields))

#endif

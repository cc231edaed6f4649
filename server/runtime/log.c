/*
 * log.c - structured JSON log lines (see log.h).
 */
#include "server/runtime/log.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static log_level min_level = LOG_INFO;
static const char *const level_names[] = {"debug", "info", "warn", "error"};

void log_set_level(log_level level)
{
    min_level = level;
}

int log_parse_level(const char *name, log_level *out)
{
    for (int i = 0; i < 4; i++) {
        if (strcmp(name, level_names[i]) == 0) {
            *out = (log_level)i;
            return 0;
        }
    }
    return -1;
}

void log_emit(log_level level, const char *event, json_t *fields)
{
    if (level < min_level) {
        json_decref(fields);
        return;
    }
    json_t *line = json_object();
    struct timespec now;
    struct tm tm;
    char ts[40];
    clock_gettime(CLOCK_REALTIME, &now);
    gmtime_r(&now.tv_sec, &tm);
    size_t n = strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(ts + n, sizeof ts - n, ".%03ldZ", now.tv_nsec / 1000000);
    json_object_set_new(line, "ts", json_string(ts));
    json_object_set_new(line, "level", json_string(level_names[level]));
    json_object_set_new(line, "event", json_string(event));
    if (json_is_object(fields))
        json_object_update(line, fields);
    json_decref(fields);
    char *text = json_dumps(line, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(line);
    if (!text)
        return;
    size_t len = strlen(text);
    text[len] = '\n'; /* overwrite the NUL: one write per line */
    ssize_t ignored = write(STDERR_FILENO, text, len + 1);
    (void)ignored;
    free(text);
}

/*
 * error.c - filling an engine_error. Every failing engine function funnels
 * through engine_fail so that the code, the field and the message agree.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"

int engine_fail(engine_error *err, int code, const char *field, const char *fmt,
                ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err) {
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        err->code = code;
        snprintf(err->field, sizeof err->field, "%s", field ? field : "");
    }
    va_end(ap);
    return code;
}

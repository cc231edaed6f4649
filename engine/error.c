/*
 * error.c - filling an engine_error. Every failing engine function funnels
 * through engine_fail so that the code, the field and the message agree,
 * and so that they are valid UTF-8 whatever input they quote.
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
        engine_utf8_clean(err->msg);
        engine_utf8_clean(err->field);
    }
    va_end(ap);
    return code;
}

/* Length of the valid UTF-8 sequence that starts at s, or 0. */
static size_t utf8_seq(const unsigned char *s)
{
    unsigned c = s[0];
    size_t len;
    uint32_t cp, min;
    if (c < 0x80)
        return 1;
    if ((c & 0xE0) == 0xC0) {
        len = 2, cp = c & 0x1F, min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
        len = 3, cp = c & 0x0F, min = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
        len = 4, cp = c & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) /* also stops at the NUL */
            return 0;
        cp = cp << 6 | (s[i] & 0x3Fu);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

void engine_utf8_clean(char *s)
{
    unsigned char *p = (unsigned char *)s;
    while (*p) {
        size_t n = utf8_seq(p);
        if (n == 0) {
            *p++ = '?';
        } else {
            p += n;
        }
    }
}

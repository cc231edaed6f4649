/*
 * window_label.c - a window id in words for players (engine_window_label,
 * see engine.h): the ruleset's own label when it has one, else words made
 * of the id, so the "Your move" bar and the mails never show a raw id such
 * as "r1.pick2" or "exec.43".
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "engine_internal.h"

/* Append the text [s, s+len) to out at *at, '_' as a space, the first
 * letter of the whole label capitalised. */
static void put(char *out, size_t n, size_t *at, const char *s, size_t len)
{
    for (size_t i = 0; i < len && *at + 1 < n; i++) {
        char c = s[i] == '_' ? ' ' : s[i];
        if (*at == 0)
            c = (char)toupper((unsigned char)c);
        out[(*at)++] = c;
    }
    out[*at] = '\0';
}

static int all_digits(const char *s, size_t len)
{
    if (len == 0)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (!isdigit((unsigned char)s[i]))
            return 0;
    return 1;
}

/* Words of the id: its dot-separated parts, "rN" as "Round N", a part that
 * is only a number (a priority step's serial) dropped, ": " between. */
static void words_of(const char *window, char *out, size_t n)
{
    size_t at = 0;
    out[0] = '\0';
    const char *p = window;
    while (*p) {
        const char *dot = strchr(p, '.');
        size_t len = dot ? (size_t)(dot - p) : strlen(p);
        if (!all_digits(p, len)) {
            if (at > 0)
                put(out, n, &at, ": ", 2);
            if (len > 1 && p[0] == 'r' && all_digits(p + 1, len - 1)) {
                put(out, n, &at, "Round ", 6);
                put(out, n, &at, p + 1, len - 1);
            } else {
                put(out, n, &at, p, len);
            }
        }
        p += len;
        if (*p == '.')
            p++;
    }
    if (at == 0)
        snprintf(out, n, "Your move");
}

void engine_window_label(const engine_ruleset *rs, const char *window,
                         char *out, size_t n)
{
    if (n == 0)
        return;
    if (!window || !*window) {
        snprintf(out, n, "Your move");
        return;
    }
    if (rs && rs->window_label && rs->window_label(window, out, n) == 0 &&
        out[0])
        return;
    words_of(window, out, n);
}

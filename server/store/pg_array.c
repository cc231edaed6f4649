/*
 * pg_array.c - PostgreSQL text-format array literals (see pg_array.h).
 */
#include "server/store/pg_array.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pg_array_init(pg_array *a)
{
    memset(a, 0, sizeof *a);
}

/* Room for more bytes and the closing "}" and NUL. */
static int reserve(pg_array *a, size_t more)
{
    if (a->oom)
        return -1;
    size_t need = a->len + more + 3;
    if (need <= a->cap)
        return 0;
    size_t cap = a->cap ? a->cap : 256;
    while (cap < need)
        cap *= 2;
    char *b = realloc(a->buf, cap);
    if (!b) {
        a->oom = 1;
        return -1;
    }
    if (!a->buf)
        b[a->len++] = '{';
    a->buf = b;
    a->cap = cap;
    return 0;
}

void pg_array_add(pg_array *a, const char *text)
{
    size_t n = text ? strlen(text) : 0;
    /* At worst every byte escaped, the quotes and the comma. */
    if (reserve(a, 2 * n + 4) != 0)
        return;
    if (a->n++ > 0)
        a->buf[a->len++] = ',';
    if (!text) {
        memcpy(a->buf + a->len, "NULL", 4);
        a->len += 4;
        return;
    }
    a->buf[a->len++] = '"';
    for (size_t i = 0; i < n; i++) {
        if (text[i] == '"' || text[i] == '\\')
            a->buf[a->len++] = '\\';
        a->buf[a->len++] = text[i];
    }
    a->buf[a->len++] = '"';
}

void pg_array_add_int(pg_array *a, long long v)
{
    char s[24];
    snprintf(s, sizeof s, "%lld", v);
    pg_array_add(a, s);
}

const char *pg_array_text(pg_array *a)
{
    if (reserve(a, 0) != 0)
        return NULL;
    a->buf[a->len] = '}';
    a->buf[a->len + 1] = '\0';
    return a->buf;
}

void pg_array_free(pg_array *a)
{
    free(a->buf);
    memset(a, 0, sizeof *a);
}

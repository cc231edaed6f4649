/*
 * carddata.c - the scaffolding every ruleset's data file shares (see
 * carddata.h): parse once into the ruleset's immutable table, errors that
 * name the file, item and field, the common field readers and lookups by
 * key. Pure: no I/O, no clocks, no state of its own.
 */
#include "engine/carddata.h"

#include <stdio.h>
#include <string.h>

int engine_carddata_parse(const engine_carddata *cd, const char *text,
                          size_t len, void *table, engine_error *err)
{
    memset(table, 0, cd->size);
    json_t *root = engine_data_load(text, len, cd->file, err);
    if (!root)
        return ENGINE_EINVALID;
    int rc = cd->parse(root, table, err);
    if (rc == 0)
        rc = engine_data_identity(root, (char *)table + cd->sha256_at, err);
    json_decref(root);
    return rc;
}

int engine_carddata_init(const engine_carddata *cd, const char *text,
                         uint64_t len, void *table, int *ready,
                         engine_error *err)
{
    if (*ready)
        return 0;
    int rc = engine_carddata_parse(cd, text, (size_t)len, table, err);
    if (rc == 0)
        *ready = 1;
    return rc;
}

int engine_carddata_vfail(engine_error *err, const char *file,
                          const char *where, const char *field, const char *fmt,
                          va_list ap)
{
    char what[200];
    vsnprintf(what, sizeof what, fmt, ap);
    return engine_fail(err, ENGINE_EINVALID, field, "%s %s: %s %s", file, where,
                       field, what);
}

int engine_carddata_fail(engine_error *err, const char *file, const char *where,
                         const char *field, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = engine_carddata_vfail(err, file, where, field, fmt, ap);
    va_end(ap);
    return rc;
}

int engine_carddata_int(const json_t *obj, const char *name, int lo, int hi,
                        int def, int *out)
{
    const json_t *v = json_object_get(obj, name);
    *out = def;
    if (!v)
        return 0;
    if (!json_is_integer(v) || json_integer_value(v) < lo ||
        json_integer_value(v) > hi)
        return -1;
    *out = (int)json_integer_value(v);
    return 0;
}

const char *engine_carddata_unknown(const json_t *obj, const char *const *known)
{
    const char *k;
    const json_t *v;
    json_object_foreach((json_t *)obj, k, v)
    {
        int ok = 0;
        for (int i = 0; known[i]; i++)
            ok |= strcmp(known[i], k) == 0;
        if (!ok)
            return k;
    }
    return NULL;
}

int engine_carddata_lookup(const char *const *names, int n, const char *s)
{
    for (int i = 0; s && i < n; i++)
        if (strcmp(names[i], s) == 0)
            return i;
    return -1;
}

int engine_carddata_is_key(const char *s, size_t max)
{
    size_t n = s ? strlen(s) : 0;
    return n > 0 && n < max &&
           strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_") == n;
}

int engine_carddata_key(const json_t *obj, const char *file, const char *where,
                        char *out, size_t max, engine_error *err)
{
    const char *k = json_string_value(json_object_get(obj, "key"));
    if (!engine_carddata_is_key(k, max))
        return engine_carddata_fail(
            err, file, where, "key",
            "must be a string of [a-z0-9_], 1..%zu characters", max - 1);
    memcpy(out, k, strlen(k) + 1);
    return 0;
}

int engine_carddata_string(const json_t *obj, const char *member,
                           const char *file, const char *where,
                           const char *label, char *out, size_t max,
                           engine_error *err)
{
    const char *s = json_string_value(json_object_get(obj, member));
    size_t n = s ? strlen(s) : 0;
    if (n == 0 || n >= max)
        return engine_carddata_fail(err, file, where, label,
                                    "must be a string of 1..%zu bytes",
                                    max - 1);
    memcpy(out, s, n + 1);
    return 0;
}

int engine_carddata_find(const void *items, int n, size_t size, const char *key)
{
    for (int i = 0; key && i < n; i++)
        if (strcmp((const char *)items + (size_t)i * size, key) == 0)
            return i;
    return -1;
}

int engine_carddata_unique(const void *items, int i, size_t size,
                           size_t name_at, const char *file, const char *where,
                           engine_error *err)
{
    const char *item = (const char *)items + (size_t)i * size;
    for (int j = 0; j < i; j++) {
        const char *other = (const char *)items + (size_t)j * size;
        if (strcmp(other, item) == 0)
            return engine_carddata_fail(err, file, where, "key",
                                        "repeats card %d", j);
        if (strcmp(other + name_at, item + name_at) == 0)
            return engine_carddata_fail(err, file, where, "name",
                                        "repeats the name of card %d (%s)", j,
                                        other);
    }
    return 0;
}

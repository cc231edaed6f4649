/*
 * plain.c - clone, save and load for rulesets whose state is one flat struct
 * of ints: a copy, and a field table (engine_field) read both ways, so such
 * a ruleset writes only the checks its rules add.
 */
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

void *engine_plain_clone(const void *state, size_t size)
{
    void *copy = malloc(size);
    if (copy)
        memcpy(copy, state, size);
    return copy;
}

static int *at(const void *state, size_t offset)
{
    return (int *)((char *)state + offset);
}

static json_t *value_json(const engine_field *f, int v)
{
    switch (f->kind) {
    case ENGINE_FIELD_BOOL:
        return json_boolean(v);
    case ENGINE_FIELD_SEAT:
        return v >= 0 ? json_integer(v) : json_null();
    case ENGINE_FIELD_NAME:
        return json_string(f->names[v]);
    case ENGINE_FIELD_INT:
        break;
    }
    return json_integer(v);
}

/* One value from JSON; -1 into *ok when it does not fit the field. */
static int value_load(const engine_field *f, const json_t *j, int *ok)
{
    json_int_t v = 0;
    switch (f->kind) {
    case ENGINE_FIELD_BOOL:
        if (!json_is_boolean(j))
            *ok = -1;
        return json_is_true(j);
    case ENGINE_FIELD_SEAT:
        if (json_is_null(j))
            return -1;
        v = json_integer_value(j);
        if (!json_is_integer(j) || v < 0 || v > f->max)
            *ok = -1;
        return (int)v;
    case ENGINE_FIELD_NAME:
        for (int i = 0; json_is_string(j) && f->names[i]; i++)
            if (strcmp(f->names[i], json_string_value(j)) == 0)
                return i;
        *ok = -1;
        return 0;
    case ENGINE_FIELD_INT:
        break;
    }
    v = json_integer_value(j);
    if (!json_is_integer(j) || v < f->min || v > f->max)
        *ok = -1;
    return (int)v;
}

static int rows_of(const void *state, const engine_field *f)
{
    return f->has_count ? *at(state, f->count_offset) : f->len;
}

static json_t *field_json(const void *state, const engine_field *f)
{
    const int *v = at(state, f->offset);
    if (f->len == 0)
        return value_json(f, *v);
    int cols = f->cols > 1 ? f->cols : 1;
    json_t *a = json_array();
    for (int r = 0; r < rows_of(state, f); r++) {
        if (f->cols < 2) {
            json_array_append_new(a, value_json(f, v[r]));
            continue;
        }
        json_t *row = json_array();
        for (int c = 0; c < cols; c++)
            json_array_append_new(row, value_json(f, v[r * cols + c]));
        json_array_append_new(a, row);
    }
    return a;
}

json_t *engine_plain_save(const void *state, const engine_field *fields)
{
    json_t *doc = json_object();
    for (const engine_field *f = fields; doc && f->name; f++)
        if (json_object_set_new(doc, f->name, field_json(state, f)) != 0) {
            json_decref(doc);
            return NULL;
        }
    return doc;
}

/* An array field: len rows (or, with has_count, up to len). */
static int field_load_array(void *state, const engine_field *f, const json_t *j)
{
    int ok = 0, cols = f->cols > 1 ? f->cols : 1;
    size_t n = json_array_size(j);
    if (!json_is_array(j) || n > (size_t)f->len ||
        (!f->has_count && n != (size_t)f->len))
        return -1;
    int *v = at(state, f->offset);
    for (size_t r = 0; r < n; r++) {
        const json_t *row = json_array_get(j, r);
        if (f->cols < 2) {
            v[r] = value_load(f, row, &ok);
            continue;
        }
        if (!json_is_array(row) || json_array_size(row) != (size_t)cols)
            return -1;
        for (int c = 0; c < cols; c++)
            v[r * (size_t)cols + (size_t)c] =
                value_load(f, json_array_get(row, (size_t)c), &ok);
    }
    if (f->has_count)
        *at(state, f->count_offset) = (int)n;
    return ok;
}

int engine_plain_load(void *state, const json_t *saved,
                      const engine_field *fields, engine_error *err)
{
    size_t known = 0;
    if (!json_is_object(saved))
        return engine_fail(err, ENGINE_EINTERNAL, "state",
                           "saved state is not an object");
    for (const engine_field *f = fields; f->name; f++, known++) {
        const json_t *j = json_object_get(saved, f->name);
        int ok = 0;
        if (!j)
            ok = -1;
        else if (f->len == 0)
            *at(state, f->offset) = value_load(f, j, &ok);
        else
            ok = field_load_array(state, f, j);
        if (ok != 0)
            return engine_fail(err, ENGINE_EINTERNAL, f->name,
                               "saved state is corrupt: field %s", f->name);
    }
    if (json_object_size(saved) != known)
        return engine_fail(err, ENGINE_EINTERNAL, "state",
                           "saved state has unknown fields");
    return 0;
}

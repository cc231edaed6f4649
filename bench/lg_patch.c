/*
 * lg_patch.c - RFC 6902 JSON Patch as the server sends it on its WebSocket
 * feed (add, remove, replace), applied to the load generator's copy of a
 * game document.
 */
#include "bench/lg_patch.h"

#include <stdlib.h>
#include <string.h>

/* RFC 6901 token [s, s+n) unescaped into out. */
static void ptr_token(const char *s, size_t n, char *out, size_t outlen)
{
    size_t j = 0;
    for (size_t i = 0; i < n && j + 1 < outlen; i++) {
        if (s[i] == '~' && i + 1 < n && (s[i + 1] == '0' || s[i + 1] == '1')) {
            out[j++] = s[i + 1] == '0' ? '~' : '/';
            i++;
        } else {
            out[j++] = s[i];
        }
    }
    out[j] = '\0';
}

/* Apply one add/remove/replace to *doc. 0 or -1. */
static int patch_op(json_t **doc, const json_t *op)
{
    const char *kind = json_string_value(json_object_get(op, "op"));
    const char *path = json_string_value(json_object_get(op, "path"));
    json_t *value = json_object_get(op, "value");
    if (!kind || !path)
        return -1;
    int add = !strcmp(kind, "add"), rem = !strcmp(kind, "remove"),
        rep = !strcmp(kind, "replace");
    if (!add && !rem && !rep)
        return -1; /* the server never sends move, copy or test */
    if (!*path) {
        if (rem || !value)
            return -1;
        json_decref(*doc);
        *doc = json_deep_copy(value);
        return 0;
    }
    json_t *parent = *doc;
    char tok[256];
    const char *s = path;
    for (;;) {
        if (*s != '/')
            return -1;
        s++;
        const char *e = strchr(s, '/');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        ptr_token(s, n, tok, sizeof tok);
        if (!e)
            break;
        json_t *next = json_is_object(parent) ? json_object_get(parent, tok)
                       : json_is_array(parent)
                           ? json_array_get(parent, strtoul(tok, NULL, 10))
                           : NULL;
        if (!next)
            return -1;
        parent = next;
        s = e;
    }
    if (json_is_object(parent)) {
        if (rem)
            return json_object_del(parent, tok);
        if (!value)
            return -1;
        if (rep && !json_object_get(parent, tok))
            return -1;
        return json_object_set(parent, tok, value);
    }
    if (!json_is_array(parent))
        return -1;
    size_t size = json_array_size(parent);
    size_t i = strcmp(tok, "-") == 0 ? size : strtoul(tok, NULL, 10);
    if (rem)
        return i < size ? json_array_remove(parent, i) : -1;
    if (!value)
        return -1;
    if (rep)
        return i < size ? json_array_set(parent, i, value) : -1;
    if (i == size)
        return json_array_append(parent, value);
    return i < size ? json_array_insert(parent, i, value) : -1;
}

int lg_patch_apply(json_t **doc, const json_t *ops)
{
    size_t i;
    json_t *op;
    json_array_foreach(ops, i, op)
    {
        if (patch_op(doc, op) != 0)
            return -1;
    }
    return 0;
}

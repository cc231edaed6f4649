/*
 * data.c - what every ruleset's built-in data (cards, boards) needs from the
 * core: loading its JSON with an error a data author can act on, and the
 * data set's identity that saved games carry.
 */
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

json_t *engine_data_load(const char *text, size_t len, const char *name,
                         engine_error *err)
{
    json_error_t jerr;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!root)
        engine_fail(err, ENGINE_EINVALID, name, "%s line %d column %d: %s",
                    name, jerr.line, jerr.column, jerr.text);
    return root;
}

/* Remove every "text" member, recursively (texts are presentation). */
static void strip_texts(json_t *v)
{
    if (json_is_object(v)) {
        json_object_del(v, "text");
        const char *k;
        json_t *x;
        json_object_foreach(v, k, x)
        {
            strip_texts(x);
        }
    } else if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++)
            strip_texts(json_array_get(v, i));
    }
}

int engine_data_identity(const json_t *root,
                         char out[2 * ENGINE_HASH_BYTES + 1], engine_error *err)
{
    json_t *copy = json_deep_copy(root);
    if (copy)
        strip_texts(copy);
    char *canon = copy ? engine_canonical_json(copy) : NULL;
    json_decref(copy);
    if (!canon)
        return engine_fail(err, ENGINE_EINTERNAL, "", "out of memory");
    uint8_t h[ENGINE_HASH_BYTES];
    engine_sha256(canon, strlen(canon), h);
    free(canon);
    engine_hex(h, sizeof h, out);
    return 0;
}

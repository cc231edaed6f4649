/*
 * order_parts.c - sealed orders given in keyed parts (see order_parts.h).
 */
#include "server/game/order_parts.h"

#include <stdlib.h>
#include <string.h>

int order_part_key_ok(const char *key)
{
    size_t n = strlen(key);
    if (n == 0 || n > ORDER_PART_KEY_MAX)
        return 0;
    for (const char *c = key; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
              (*c >= '0' && *c <= '9') || *c == '_' || *c == '-' || *c == '.'))
            return 0;
    return 1;
}

/* The open window `id` of g into *w; 0, or -1 when it is not open (or
 * memory ran out listing windows). */
static int find_window(const engine_game *g, const char *id, engine_window *w)
{
    int n;
    engine_window *all = engine_windows_all(g, &n);
    int found = -1;
    for (int i = 0; i < n; i++)
        if (strcmp(all[i].id, id) == 0) {
            *w = all[i];
            found = 0;
            break;
        }
    free(all);
    return found;
}

/* SRV_TOO_LARGE when order's canonical JSON is over the ruleset's limit. */
static srv_kind check_size(const engine_game *g, const json_t *order,
                           const char *key, srv_error *err)
{
    const engine_ruleset *rs = engine_game_ruleset(g);
    size_t limit = engine_max_order_bytes(rs);
    char *text = engine_canonical_json(order);
    if (!text)
        return srv_fail(err, SRV_INTERNAL, NULL, "out of memory");
    size_t n = strlen(text);
    free(text);
    if (n <= limit)
        return SRV_OK;
    return srv_fail(err, SRV_TOO_LARGE, key,
                    "with this part the order would be %zu bytes; %s takes "
                    "orders of at most %zu bytes (max_order_bytes)",
                    n, engine_ruleset_id(rs), limit);
}

srv_kind order_part_input(const engine_game *g, int seat, const char *window,
                          order_part_op op, const char *key,
                          const json_t *value, engine_input_kind *kind,
                          json_t **payload, srv_error *err)
{
    engine_window w;
    *payload = NULL;
    if (find_window(g, window, &w) != 0 || w.mode != ENGINE_SEALED)
        return srv_fail(err, SRV_CONFLICT, "window", "that window is not open");
    if (!w.parts)
        return srv_fail(err, SRV_CONFLICT, "window",
                        "window \"%s\" takes whole orders only; PUT the "
                        "order to /orders/%s",
                        window, window);
    const json_t *held = engine_held_order(g, window, seat);
    if (op == ORDER_PART_DELETE && !json_object_get(held, key))
        return srv_fail(err, SRV_NOT_FOUND, key,
                        "your order in window \"%s\" has no part \"%s\"",
                        window, key);
    /* A shallow copy: the engine copies the order deeply when it holds it,
     * and nothing here changes a member. */
    json_t *order = held ? json_copy((json_t *)held) : json_object();
    if (!order)
        return srv_fail(err, SRV_INTERNAL, NULL, "out of memory");
    if (op == ORDER_PART_DELETE)
        json_object_del(order, key);
    else if (json_object_set(order, key, (json_t *)value) != 0) {
        json_decref(order);
        return srv_fail(err, SRV_INTERNAL, NULL, "out of memory");
    }
    if (json_object_size(order) == 0 && op == ORDER_PART_DELETE) {
        json_decref(order);
        *kind = ENGINE_SYSTEM;
        *payload = json_pack("{ss}", "action", "withdraw");
        return *payload ? SRV_OK
                        : srv_fail(err, SRV_INTERNAL, NULL, "out of memory");
    }
    srv_kind k = check_size(g, order, key, err);
    if (k != SRV_OK) {
        json_decref(order);
        return k;
    }
    *kind = ENGINE_ORDER;
    *payload = order;
    return SRV_OK;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

json_t *order_part_keys(const json_t *order)
{
    size_t n = json_object_size(order), i = 0;
    json_t *out = json_array();
    if (n == 0 || !out)
        return out;
    const char **keys = malloc(n * sizeof *keys);
    if (!keys) {
        json_decref(out);
        return NULL;
    }
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)order, k, v)
    {
        if (i < n)
            keys[i++] = k;
    }
    qsort(keys, i, sizeof *keys, cmp_str);
    n = i;
    for (i = 0; i < n; i++)
        json_array_append_new(out, json_string(keys[i]));
    free(keys);
    return out;
}

/*
 * hub_render.c - one audience's next game document and patch (see
 * hub_render.h).
 */
#include "server/hub/hub_render.h"

#include "common/jsonpatch.h"
#include "server/game/gamedoc.h"

uint32_t hub_render_bit(int audience)
{
    if (audience < 0 || audience >= ENGINE_MAX_SEATS)
        return ENGINE_AUDIENCE_PUBLIC;
    return UINT32_C(1) << audience;
}

int hub_render_full(const actor_view *v, int audience, int has_doc,
                    uint64_t held)
{
    if (!has_doc || held + 1 != v->version)
        return 1;
    return (engine_touched(v->game) & hub_render_bit(audience)) != 0;
}

/* {"op":"replace","path":path,"value":value} appended to ops (value
 * stolen). 0, or -1 when out of memory. */
static int replace_op(json_t *ops, const char *path, json_t *value)
{
    return json_array_append_new(ops, json_pack("{ss ss so}", "op", "replace",
                                                "path", path, "value", value));
}

/* The untouched step: prev's view with the common fields replaced. */
static int render_cheap(const actor_view *v, json_t *windows,
                        const json_t *prev, json_t **doc, json_t **ops)
{
    const json_t *old_view = json_object_get(prev, "view");
    const json_t *old_windows = json_object_get(prev, "windows");
    json_t *view = json_copy((json_t *)old_view); /* members shared */
    json_t *inputs = json_integer((json_int_t)engine_game_inputs(v->game));
    json_t *over = json_boolean(engine_is_over(v->game));
    json_t *list = json_array();
    json_t *a = json_pack("{sO}", "windows", old_windows);
    json_t *b = json_pack("{sO}", "windows", windows);
    json_t *wops = a && b ? jsonpatch_diff(a, b) : NULL;
    json_decref(a);
    json_decref(b);
    int ok = view && inputs && over && list && wops;
    if (ok && !json_equal(json_object_get(old_view, "inputs"), inputs))
        ok = replace_op(list, "/view/inputs", json_incref(inputs)) == 0;
    if (ok && !json_equal(json_object_get(old_view, "over"), over))
        ok = replace_op(list, "/view/over", json_incref(over)) == 0;
    ok = ok && json_array_extend(list, wops) == 0 &&
         json_object_set(view, "inputs", inputs) == 0 &&
         json_object_set(view, "over", over) == 0;
    json_t *d =
        ok ? json_pack("{sO sO}", "view", view, "windows", windows) : NULL;
    json_decref(view);
    json_decref(inputs);
    json_decref(over);
    json_decref(wops);
    if (!d) {
        json_decref(list);
        return -1;
    }
    *doc = d;
    *ops = list;
    return 0;
}

int hub_render_next(const actor_view *v, int audience, json_t *windows,
                    const json_t *prev, int full, json_t **doc, json_t **ops)
{
    *doc = *ops = NULL;
    if (prev && !full)
        return render_cheap(v, windows, prev, doc, ops);
    json_t *view = engine_view(v->game, audience);
    json_t *d =
        view ? json_pack("{so sO}", "view", view, "windows", windows) : NULL;
    if (!d)
        return -1;
    if (prev) {
        *ops = jsonpatch_diff(prev, d);
        if (!*ops) {
            json_decref(d);
            return -1;
        }
    }
    *doc = d;
    return 0;
}

/*
 * stack.c - the stack as core data: items with an owner, a source, targets,
 * a public payload and a hidden part, kept bottom first. Here are the list
 * operations, the rulesets' read access, pushing, triggers and removal
 * through engine_ctx, the saved form and the per-audience view.
 *
 * What it does not do: decide when items resolve (priority.c).
 *
 * An item's JSON never changes once it is on the stack, so copies (clone,
 * undo points) share it by reference.
 */
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

void stack_item_free(engine_stack_item *item)
{
    json_decref(item->targets);
    json_decref(item->payload);
    json_decref(item->secret);
    item->targets = item->payload = item->secret = NULL;
}

void stack_clear(engine_stack *s)
{
    for (size_t i = 0; i < s->n; i++)
        stack_item_free(&s->items[i]);
    free(s->items);
    s->items = NULL;
    s->n = s->cap = 0;
}

static int reserve(engine_stack *s, size_t want)
{
    if (want <= s->cap)
        return 0;
    size_t cap = s->cap ? 2 * s->cap : 8;
    while (cap < want)
        cap *= 2;
    engine_stack_item *grown = realloc(s->items, cap * sizeof *grown);
    if (!grown)
        return -1;
    s->items = grown;
    s->cap = cap;
    return 0;
}

int stack_append(engine_stack *s, const engine_stack_item *item)
{
    if (reserve(s, s->n + 1) != 0) {
        engine_stack_item tmp = *item;
        stack_item_free(&tmp);
        return -1;
    }
    s->items[s->n++] = *item;
    return 0;
}

int stack_copy(engine_stack *dst, const engine_stack *src)
{
    memset(dst, 0, sizeof *dst);
    if (src->n == 0)
        return 0;
    if (reserve(dst, src->n) != 0)
        return -1;
    for (size_t i = 0; i < src->n; i++) {
        engine_stack_item it = src->items[i];
        json_incref(it.targets);
        json_incref(it.payload);
        json_incref(it.secret);
        dst->items[dst->n++] = it;
    }
    return 0;
}

/* ------------------------------------------------ for rulesets: reading */

size_t engine_stack_size(const engine_stack *s)
{
    return s ? s->n : 0;
}

const engine_stack_item *engine_stack_at(const engine_stack *s, size_t i)
{
    return s && i < s->n ? &s->items[i] : NULL;
}

const engine_stack_item *engine_stack_top(const engine_stack *s)
{
    return s && s->n ? &s->items[s->n - 1] : NULL;
}

const engine_stack *engine_ctx_stack(const engine_ctx *ctx)
{
    static const engine_stack empty; /* read-only: nothing writes it */
    return ctx->g->prio ? &ctx->g->prio->cur.stack : &empty;
}

/* --------------------------------------------- for rulesets: changing -- */

/* Check the owner and copy the caller's item (taking its JSON). */
static int take_item(engine_ctx *ctx, engine_stack_item *item,
                     engine_stack_item *out)
{
    engine_game *g = ctx->g;
    uint32_t all = (1u << g->seats) - 1;
    if (item->owner < 0 || item->owner >= g->seats || !prio_get(g)) {
        stack_item_free(item);
        g->oom |= item->owner >= 0 && item->owner < g->seats;
        return -1;
    }
    *out = *item;
    out->source[sizeof out->source - 1] = '\0';
    out->target_seats &= all;
    out->secret_seats &= all;
    out->id = 0;
    memset(item, 0, sizeof *item);
    return 0;
}

uint32_t engine_ctx_stack_push(engine_ctx *ctx, engine_stack_item *item)
{
    engine_stack_item it;
    if (take_item(ctx, item, &it) != 0)
        return 0;
    prio_core *p = ctx->g->prio;
    it.id = ++p->next_item;
    if (stack_append(&p->cur.stack, &it) != 0) {
        ctx->g->oom = 1;
        return 0;
    }
    p->version++;
    item->id = it.id;
    game_touch(ctx->g, ENGINE_AUDIENCE_ALL);
    return it.id;
}

int engine_ctx_trigger(engine_ctx *ctx, engine_stack_item *item)
{
    engine_stack_item it;
    if (take_item(ctx, item, &it) != 0)
        return 0;
    if (stack_append(&ctx->g->prio->queue, &it) != 0) {
        ctx->g->oom = 1;
        return 0;
    }
    return 1;
}

int engine_ctx_stack_remove(engine_ctx *ctx, uint32_t id)
{
    prio_core *p = ctx->g->prio;
    engine_stack *s = p ? &p->cur.stack : NULL;
    for (size_t i = 0; s && i < s->n; i++) {
        if (s->items[i].id != id)
            continue;
        stack_item_free(&s->items[i]);
        memmove(&s->items[i], &s->items[i + 1],
                (s->n - i - 1) * sizeof *s->items);
        s->n--;
        p->version++;
        game_touch(ctx->g, ENGINE_AUDIENCE_ALL);
        return 0;
    }
    return ENGINE_ENOTFOUND;
}

/* --------------------------------------------------- saved form, view -- */

static json_t *seat_list(uint32_t mask)
{
    json_t *a = json_array();
    for (int s = 0; a && s < ENGINE_MAX_SEATS; s++)
        if (mask & (1u << s))
            json_array_append_new(a, json_integer(s));
    return a;
}

/* A copy (callers may change what they get), or null. */
static json_t *or_null(const json_t *v)
{
    return v ? json_deep_copy(v) : json_null();
}

json_t *stack_save(const engine_stack *s)
{
    json_t *arr = json_array();
    for (size_t i = 0; arr && i < s->n; i++) {
        const engine_stack_item *it = &s->items[i];
        json_t *j = json_pack(
            "{s:I, s:i, s:s, s:I, s:o, s:o, s:o, s:I}", "id",
            (json_int_t)it->id, "owner", it->owner, "source", it->source,
            "target_seats", (json_int_t)it->target_seats, "targets",
            or_null(it->targets), "payload", or_null(it->payload), "secret",
            or_null(it->secret), "secret_seats", (json_int_t)it->secret_seats);
        if (json_array_append_new(arr, j) != 0) {
            json_decref(arr);
            return NULL;
        }
    }
    return arr;
}

static json_t *null_to_none(json_t *v)
{
    return v && !json_is_null(v) ? json_deep_copy(v) : NULL;
}

int stack_load(engine_stack *s, const json_t *arr, int seats)
{
    size_t i;
    json_t *j;
    uint32_t all = (1u << seats) - 1;
    if (!json_is_array(arr))
        return -1;
    json_array_foreach(arr, i, j)
    {
        engine_stack_item it = {0};
        json_int_t id, ts, ss;
        const char *source;
        json_t *targets, *payload, *secret;
        if (json_unpack((json_t *)j,
                        "{s:I, s:i, s:s, s:I, s:o, s:o, s:o, s:I !}", "id", &id,
                        "owner", &it.owner, "source", &source, "target_seats",
                        &ts, "targets", &targets, "payload", &payload, "secret",
                        &secret, "secret_seats", &ss) != 0 ||
            id <= 0 || id > UINT32_MAX || it.owner < 0 || it.owner >= seats ||
            strlen(source) >= sizeof it.source || ts < 0 ||
            ((uint32_t)ts & ~all) || ss < 0 || ((uint32_t)ss & ~all))
            return -1;
        it.id = (uint32_t)id;
        memcpy(it.source, source, strlen(source) + 1);
        it.target_seats = (uint32_t)ts;
        it.secret_seats = (uint32_t)ss;
        it.targets = null_to_none(targets);
        it.payload = null_to_none(payload);
        it.secret = null_to_none(secret);
        if (stack_append(s, &it) != 0)
            return -1;
    }
    return 0;
}

json_t *stack_view(const engine_stack *s, int seat)
{
    json_t *arr = json_array();
    for (size_t i = 0; arr && i < s->n; i++) {
        const engine_stack_item *it = &s->items[i];
        json_t *j = json_pack(
            "{s:I, s:i, s:s, s:o, s:o, s:o}", "id", (json_int_t)it->id, "owner",
            it->owner, "source", it->source, "target_seats",
            seat_list(it->target_seats), "targets", or_null(it->targets),
            "payload", or_null(it->payload));
        int sees = seat >= 0 &&
                   (seat == it->owner || (it->secret_seats & (1u << seat)));
        if (j && it->secret)
            json_object_set_new(j, sees ? "secret" : "hidden",
                                sees ? json_deep_copy(it->secret)
                                     : json_true());
        if (json_array_append_new(arr, j) != 0) {
            json_decref(arr);
            return NULL;
        }
    }
    return arr;
}

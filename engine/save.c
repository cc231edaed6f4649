/*
 * save.c - a game as one JSON document and back, and the state hash.
 *
 * The saved form holds everything, secrets included (seed, RNG key, held
 * sealed orders, private log lines); it is for the server's snapshots and
 * never for a client:
 *   {"format":"conclave-state/1","ruleset","game_id","options","seats",
 *    "seed":HEX,"inputs":N,"aborted":bool,"rng":{...},"state":{ruleset},
 *    "pending":[{"window","seat","order","nonce":HEX}],
 *    "log":[{"seat":null|N,"entry":{...}}],"priority":{...}}
 * where a log line for a set of seats also has "seats":[N,...], and
 * "priority" (engine/prio_save.c) is there only once the game has used
 * priority, so games without it save and hash as they always did.
 * engine_hash is the SHA-256 of its canonical JSON, so two games hash alike
 * exactly when every one of those parts is alike. Loading checks every
 * field and reports a corrupt document as ENGINE_EINTERNAL.
 */
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

#define STATE_FORMAT "conclave-state/1"

/* share: put the log entries in by reference (for hashing, which only
 * reads) instead of copying them. */
static json_t *save_doc(const engine_game *g, int share)
{
    char hex[2 * ENGINE_SEED_BYTES + 1];
    json_t *doc = json_object(), *pending = json_array(), *log = json_array();
    json_t *state = g->rs->save(g->state);
    if (!doc || !pending || !log || !state)
        goto fail;
    engine_hex(g->seed, ENGINE_SEED_BYTES, hex);
    json_object_set_new(doc, "format", json_string(STATE_FORMAT));
    json_object_set_new(doc, "ruleset", json_string(g->rs->id));
    json_object_set_new(doc, "game_id", json_string(g->id));
    json_object_set_new(doc, "options", json_deep_copy(g->options));
    json_object_set_new(doc, "seats", json_integer(g->seats));
    json_object_set_new(doc, "seed", json_string(hex));
    json_object_set_new(doc, "inputs", json_integer((json_int_t)g->inputs));
    json_object_set_new(doc, "aborted", json_boolean(g->aborted));
    json_object_set_new(doc, "rng", engine_rng_save(&g->rng));
    for (size_t i = 0; i < g->npending; i++) {
        const pending_order *p = &g->pending[i];
        engine_hex(p->nonce, ENGINE_NONCE_BYTES, hex);
        if (json_array_append_new(pending,
                                  json_pack("{s:s, s:i, s:O, s:s}", "window",
                                            p->window, "seat", p->seat, "order",
                                            p->order, "nonce", hex)) != 0)
            goto fail;
    }
    for (size_t i = 0; i < g->nlog; i++) {
        const log_line *l = &g->log[i];
        json_t *line = json_object();
        json_object_set_new(line, "seat",
                            l->seat == ENGINE_PUBLIC ? json_null()
                                                     : json_integer(l->seat));
        json_object_set_new(line, "entry",
                            share ? json_incref(l->entry)
                                  : json_deep_copy(l->entry));
        if (l->seats)
            json_object_set_new(line, "seats", game_seat_list(l->seats));
        if (json_object_size(line) != (l->seats ? 3u : 2u) ||
            json_array_append_new(log, line))
            goto fail;
    }
    json_object_set_new(doc, "state", state);
    state = NULL;
    json_object_set_new(doc, "pending", pending);
    pending = NULL;
    json_object_set_new(doc, "log", log);
    log = NULL;
    if (g->prio)
        json_object_set_new(doc, "priority", prio_save(g));
    if (json_object_size(doc) != (g->prio ? 13u : 12u))
        goto fail;
    return doc;
fail:
    json_decref(doc);
    json_decref(pending);
    json_decref(log);
    json_decref(state);
    return NULL;
}

json_t *engine_save(const engine_game *g)
{
    return save_doc(g, 0);
}

void engine_hash(const engine_game *g, uint8_t out[ENGINE_HASH_BYTES])
{
    json_t *doc = save_doc(g, 1);
    char *text = engine_canonical_json(doc);
    if (!text)
        abort(); /* out of memory: the contract has no way to say so */
    engine_sha256(text, strlen(text), out);
    free(text);
    json_decref(doc);
}

static int load_pending(engine_game *g, const json_t *arr, engine_error *e)
{
    size_t i;
    json_t *item;
    if (!json_is_array(arr))
        return engine_fail(e, ENGINE_EINTERNAL, "pending",
                           "saved pending orders are not a list");
    if (json_array_size(arr) > 0) {
        g->pending = calloc(json_array_size(arr), sizeof *g->pending);
        if (!g->pending)
            return engine_fail(e, ENGINE_EINTERNAL, "", "out of memory");
        g->cap_pending = json_array_size(arr);
    }
    json_array_foreach(arr, i, item)
    {
        const char *window = NULL, *nonce = NULL;
        int seat = -1;
        json_t *order = NULL;
        pending_order *p = &g->pending[g->npending];
        if (json_unpack(item, "{s:s, s:i, s:o, s:s !}", "window", &window,
                        "seat", &seat, "order", &order, "nonce", &nonce) != 0 ||
            strlen(window) >= ENGINE_WINDOW_ID_MAX || seat < 0 ||
            seat >= g->seats || !json_is_object(order) ||
            engine_unhex(nonce, p->nonce, ENGINE_NONCE_BYTES) != 0 ||
            game_pending_find(g, window, seat))
            return engine_fail(e, ENGINE_EINTERNAL, "pending",
                               "saved pending order %zu is corrupt", i);
        memcpy(p->window, window, strlen(window) + 1);
        p->seat = seat;
        p->order = json_deep_copy(order);
        if (!p->order)
            return engine_fail(e, ENGINE_EINTERNAL, "", "out of memory");
        g->npending++;
    }
    return 0;
}

static int load_log(engine_game *g, const json_t *arr, engine_error *e)
{
    size_t i;
    json_t *item;
    if (!json_is_array(arr))
        return engine_fail(e, ENGINE_EINTERNAL, "log",
                           "saved log is not a list");
    json_array_foreach(arr, i, item)
    {
        json_t *seat = NULL, *entry = NULL, *seats = NULL;
        uint32_t mask = 0;
        if (json_unpack(item, "{s:o, s:o, s?o !}", "seat", &seat, "entry",
                        &entry, "seats", &seats) != 0 ||
            (!json_is_null(seat) &&
             (!json_is_integer(seat) || json_integer_value(seat) < 0 ||
              json_integer_value(seat) >= g->seats)) ||
            (seats && (!json_is_null(seat) || json_array_size(seats) < 2 ||
                       !(mask = game_seat_mask(seats, g->seats)))))
            return engine_fail(e, ENGINE_EINTERNAL, "log",
                               "saved log line %zu is corrupt", i);
        g->oom = 0;
        if (mask)
            game_log_append_seats(g, mask, json_deep_copy(entry));
        else
            game_log_append(g,
                            json_is_null(seat) ? ENGINE_PUBLIC
                                               : (int)json_integer_value(seat),
                            json_deep_copy(entry));
        if (g->oom)
            return engine_fail(e, ENGINE_EINTERNAL, "", "out of memory");
    }
    return 0;
}

engine_game *engine_load(const json_t *saved, engine_error *err)
{
    engine_error e = {0};
    engine_game *g = NULL;
    const char *format = NULL, *ruleset = NULL, *game_id = NULL, *seed = NULL;
    json_t *options = NULL, *rng = NULL, *state = NULL, *pending = NULL,
           *log = NULL, *prio = NULL;
    json_int_t seats = 0, inputs = 0;
    int aborted = 0;
    uint8_t seed_bytes[ENGINE_SEED_BYTES];
    const engine_ruleset *rs;

    if (!registry_ready()) {
        engine_fail(&e, ENGINE_EINTERNAL, "", "call engine_init() first");
        goto fail;
    }
    if (json_unpack((json_t *)saved,
                    "{s:s, s:s, s:s, s:o, s:I, s:s, s:I, s:b, s:o, s:o, s:o, "
                    "s:o, s?o !}",
                    "format", &format, "ruleset", &ruleset, "game_id", &game_id,
                    "options", &options, "seats", &seats, "seed", &seed,
                    "inputs", &inputs, "aborted", &aborted, "rng", &rng,
                    "state", &state, "pending", &pending, "log", &log,
                    "priority", &prio) != 0 ||
        strcmp(format, STATE_FORMAT) != 0) {
        engine_fail(&e, ENGINE_EINTERNAL, "",
                    "not a saved game in format " STATE_FORMAT);
        goto fail;
    }
    rs = engine_ruleset_find(ruleset);
    if (!rs) {
        engine_fail(&e, ENGINE_ENOTFOUND, "ruleset", "unknown ruleset \"%s\"",
                    ruleset);
        goto fail;
    }
    if (!json_is_object(options) || seats < rs->min_seats ||
        seats > rs->max_seats || seats > ENGINE_MAX_SEATS || inputs < 0 ||
        engine_unhex(seed, seed_bytes, ENGINE_SEED_BYTES) != 0) {
        engine_fail(&e, ENGINE_EINTERNAL, "",
                    "saved options, seats, inputs or seed are corrupt");
        goto fail;
    }
    if (engine_check_options(rs, options, (int)seats, &e) != 0) {
        e.code = ENGINE_EINTERNAL;
        goto fail;
    }
    g = game_alloc(rs, game_id, options, (int)seats, seed_bytes);
    if (!g) {
        engine_fail(&e, ENGINE_EINTERNAL, "", "out of memory");
        goto fail;
    }
    g->inputs = (uint64_t)inputs;
    g->aborted = aborted;
    if (engine_rng_load(&g->rng, rng, &e) != 0)
        goto fail;
    g->state = rs->load(state, &e);
    if (!g->state) {
        if (e.code == 0)
            engine_fail(&e, ENGINE_EINTERNAL, "state",
                        "saved ruleset state is corrupt");
        e.code = ENGINE_EINTERNAL;
        goto fail;
    }
    if (load_pending(g, pending, &e) != 0 || load_log(g, log, &e) != 0 ||
        (prio && prio_load(g, prio, &e) != 0))
        goto fail;
    return g;
fail:
    engine_free(g);
    if (e.code == 0)
        engine_fail(&e, ENGINE_EINTERNAL, "", "cannot load the saved game");
    if (err)
        *err = e;
    return NULL;
}

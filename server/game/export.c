/*
 * export.c - the export of a finished game (see export.h).
 */
#include "server/game/export.h"

#include "server/game/gamedoc.h"
#include "server/game/spectate.h"
#include "server/store/store.h"

#include <string.h>

#define DB_WAIT_MS 2000

/* The stored input in the export form, with the receipt of an order. */
static json_t *input_json(const store_game *g, const store_input *s)
{
    engine_input in;
    memset(&in, 0, sizeof in);
    in.seat = s->seat;
    in.kind = s->kind;
    in.window = s->window[0] ? s->window : NULL;
    in.payload = s->payload;
    if (s->has_nonce)
        memcpy(in.nonce, s->nonce, ENGINE_NONCE_BYTES);
    json_t *j = engine_input_to_json(&in, s->seq);
    if (j && s->kind == ENGINE_ORDER && s->has_nonce && in.window &&
        s->payload) {
        engine_receipt r;
        engine_receipt_compute(g->game_id, in.window, s->seat, s->payload,
                               s->nonce, &r);
        json_object_set_new(j, "receipt", json_string(r.hex));
    }
    return j;
}

static json_t *build_doc(const store_game *g, const char *seed, json_t *list,
                         const char *final_hash, json_t *result);

/* The document from what was read (n inputs of a page that had room for
 * limit; limit 0: the whole game). NULL when out of memory. */
static json_t *build(const store_game *g, const store_input *inputs, size_t n,
                     size_t limit, const char *final_hash, json_t *result)
{
    char seed[2 * ENGINE_SEED_BYTES + 1];
    engine_hex(g->seed, ENGINE_SEED_BYTES, seed);
    int more = limit && n > limit; /* one more was read than fits */
    if (more)
        n = limit;
    json_t *list = json_array();
    for (size_t i = 0; list && i < n; i++)
        json_array_append_new(list, input_json(g, &inputs[i]));
    json_t *doc = build_doc(g, seed, list, final_hash, result);
    if (doc && more)
        json_object_set_new(doc, "next_after",
                            json_integer((json_int_t)inputs[n - 1].seq));
    return doc;
}

/* The export document around the inputs list (taken). */
static json_t *build_doc(const store_game *g, const char *seed, json_t *list,
                         const char *final_hash, json_t *result)
{
    return json_pack("{ss ss ss sO so ss ss so so so}", "format",
                     "conclave-export/1", "game_id", g->game_id, "ruleset",
                     g->ruleset, "options", g->options, "seats",
                     gamedoc_seats(g), "seed", seed, "seed_sha256",
                     g->seed_sha256, "inputs", list, "final_hash",
                     *final_hash ? json_string(final_hash) : json_null(),
                     "result", result ? result : json_null());
}

/* Whether viewer may not have the export yet: a spectator of a game whose
 * end the delay still hides. -1 on a database failure. */
static int held_back(PGconn *c, const store_game *g, const char *viewer)
{
    if (!spectate_delayed(g) || gamedoc_seat_of(g, viewer) >= 0)
        return 0;
    uint64_t visible = 0;
    if (spectate_visible(c, g, g->version, &visible) != STORE_OK)
        return -1;
    return visible < g->version;
}

srv_kind export_game_page(db_pool *db, const char *game_id, const char *viewer,
                          uint64_t after, size_t limit, json_t **out,
                          srv_error *err)
{
    *out = NULL;
    PGconn *c = db_acquire(db, DB_WAIT_MS);
    if (!c)
        return srv_db_failed(err);
    store_game g;
    store_input *inputs = NULL;
    size_t n = 0;
    json_t *result = NULL;
    char final_hash[2 * ENGINE_HASH_BYTES + 1];
    srv_kind k = SRV_OK;
    int rc = store_load_game(c, game_id, &g);
    if (rc == STORE_ENOTFOUND) {
        k = srv_fail(err, SRV_NOT_FOUND, NULL, "no such game");
        goto out_conn;
    }
    if (rc) {
        k = srv_db_failed(err);
        goto out_conn;
    }
    if (strcmp(g.status, "running") == 0) {
        k = srv_fail(err, SRV_FORBIDDEN, NULL,
                     "the game is still running; its export (with the seed) "
                     "is available once it is over");
    } else if ((rc = held_back(c, &g, viewer)) != 0) {
        k = rc < 0 ? srv_db_failed(err)
                   : srv_fail(err, SRV_FORBIDDEN, NULL,
                              "spectators see this game %d seconds behind; "
                              "its export is available to them then",
                              g.delay_seconds);
    } else if (store_load_final(c, g.game_id, final_hash, &result) ||
               store_load_inputs_page(c, g.game_id, after,
                                      limit ? limit + 1 : 0, &inputs, &n)) {
        json_decref(result);
        k = srv_db_failed(err);
    } else if (!(*out = build(&g, inputs, n, limit, final_hash, result))) {
        k = srv_fail(err, SRV_INTERNAL, NULL, "out of memory");
    }
    store_inputs_free(inputs, n);
    store_game_clear(&g);
out_conn:
    db_release(db, c, db_conn_broken(c));
    return k;
}

/*
 * replay.c - replaying an exported game from its seed and inputs, the pure
 * half of `conclave replay FILE` (reading the file is the CLI's job) and of
 * any server-side export check.
 *
 * The export is the one documented at engine_replay_export in engine.h;
 * every input goes through engine_apply exactly as it did live, so the
 * final hash matches only if the same engine, ruleset version and inputs
 * produce the same state bit for bit.
 */
#include <stdio.h>
#include <string.h>

#include "engine.h"

#define EXPORT_FORMAT "conclave-export/1"

static int seats_of(const json_t *v)
{
    if (json_is_integer(v))
        return (int)json_integer_value(v);
    if (json_is_array(v))
        return (int)json_array_size(v);
    return -1;
}

/* Replay the inputs array into g. */
static int replay_inputs(engine_game *g, const json_t *inputs, engine_error *e)
{
    size_t i;
    json_t *item;
    uint64_t seq = 0, last = 0;
    json_array_foreach(inputs, i, item)
    {
        engine_input in;
        engine_receipt receipt;
        engine_error ie = {0};
        if (engine_input_from_json(item, &in, &seq, &ie) != 0)
            return engine_fail(e, ie.code, ie.field, "input %zu: %s", i,
                               ie.msg);
        if (i > 0 && seq <= last)
            return engine_fail(e, ENGINE_EINVALID, "seq",
                               "input %zu: seq %llu does not follow %llu", i,
                               (unsigned long long)seq,
                               (unsigned long long)last);
        last = seq;
        if (engine_apply(g, &in, &receipt, &ie) != 0)
            return engine_fail(e, ie.code, ie.field,
                               "input seq %llu was rejected: %s",
                               (unsigned long long)seq, ie.msg);
        const json_t *want = json_object_get(item, "receipt");
        if (in.kind == ENGINE_ORDER && json_is_string(want) &&
            strcmp(json_string_value(want), receipt.hex) != 0)
            return engine_fail(e, ENGINE_ECONFLICT, "receipt",
                               "input seq %llu: the order does not match its "
                               "receipt",
                               (unsigned long long)seq);
    }
    return 0;
}

int engine_replay_export(const json_t *export_doc,
                         uint8_t hash[ENGINE_HASH_BYTES], int *match,
                         engine_game **out, engine_error *err)
{
    engine_error e = {0};
    engine_game *g = NULL;
    const char *format, *game_id, *ruleset, *seed_hex;
    const json_t *options, *inputs, *final;
    uint8_t seed[ENGINE_SEED_BYTES], want[ENGINE_HASH_BYTES];
    int rc;

    if (out)
        *out = NULL;
    if (!json_is_object(export_doc)) {
        rc = engine_fail(&e, ENGINE_EINVALID, "", "an export is a JSON object");
        goto fail;
    }
    format = json_string_value(json_object_get(export_doc, "format"));
    game_id = json_string_value(json_object_get(export_doc, "game_id"));
    ruleset = json_string_value(json_object_get(export_doc, "ruleset"));
    seed_hex = json_string_value(json_object_get(export_doc, "seed"));
    options = json_object_get(export_doc, "options");
    inputs = json_object_get(export_doc, "inputs");
    if (!format || strcmp(format, EXPORT_FORMAT) != 0) {
        rc = engine_fail(&e, ENGINE_EINVALID, "format",
                         "format must be \"" EXPORT_FORMAT "\"");
        goto fail;
    }
    if (!game_id || !ruleset) {
        rc = engine_fail(&e, ENGINE_EINVALID, game_id ? "ruleset" : "game_id",
                         "game_id and ruleset must be strings");
        goto fail;
    }
    if (engine_unhex(seed_hex, seed, ENGINE_SEED_BYTES) != 0) {
        rc = engine_fail(&e, ENGINE_EINVALID, "seed",
                         "seed must be %d hex digits", 2 * ENGINE_SEED_BYTES);
        goto fail;
    }
    if (!json_is_array(inputs)) {
        rc =
            engine_fail(&e, ENGINE_EINVALID, "inputs", "inputs must be a list");
        goto fail;
    }
    g = engine_create(ruleset, game_id, json_is_null(options) ? NULL : options,
                      seats_of(json_object_get(export_doc, "seats")), seed, &e);
    if (!g) {
        rc = e.code;
        goto fail;
    }
    if ((rc = replay_inputs(g, inputs, &e)) != 0)
        goto fail;
    engine_hash(g, hash);
    final = json_object_get(export_doc, "final_hash");
    if (match)
        *match = json_is_string(final) &&
                 engine_unhex(json_string_value(final), want,
                              ENGINE_HASH_BYTES) == 0 &&
                 memcmp(want, hash, ENGINE_HASH_BYTES) == 0;
    if (out)
        *out = g;
    else
        engine_free(g);
    return 0;
fail:
    if (out)
        *out = g;
    else
        engine_free(g);
    if (err)
        *err = e;
    return rc;
}

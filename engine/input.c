/*
 * input.c - inputs as data: kind names, the JSON form inputs are stored and
 * exported in, and sealed-order receipts.
 *
 * The stored form of an input is
 *   {"seq":N,"seat":N|null,"kind":"order"|"play"|"timeout"|"system",
 *    "window":ID|null,"payload":JSON|null,"nonce":HEX|null}
 * (the nonce only for orders). It is what engine_replay_export reads;
 * fields it does not know (a receipt, a timestamp) are ignored on reading.
 */
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

static const char *const kind_names[] = {"order", "play", "timeout", "system"};

int engine_input_kind_parse(const char *name, engine_input_kind *out)
{
    for (int k = 0; k < 4; k++)
        if (name && strcmp(name, kind_names[k]) == 0) {
            *out = (engine_input_kind)k;
            return 0;
        }
    return ENGINE_EINVALID;
}

const char *engine_input_kind_name(engine_input_kind kind)
{
    return (int)kind >= 0 && (int)kind < 4 ? kind_names[kind] : "unknown";
}

static void digest_part(EVP_MD_CTX *md, const void *data, size_t n)
{
    uint8_t len[8];
    for (int i = 0; i < 8; i++)
        len[i] = (uint8_t)((uint64_t)n >> (56 - 8 * i));
    if (EVP_DigestUpdate(md, len, 8) != 1 || EVP_DigestUpdate(md, data, n) != 1)
        abort();
}

void engine_receipt_compute(const char *game_id, const char *window, int seat,
                            const json_t *order,
                            const uint8_t nonce[ENGINE_NONCE_BYTES],
                            engine_receipt *out)
{
    char seatbuf[16];
    uint8_t hash[ENGINE_HASH_BYTES];
    unsigned int len = 0;
    char *canon = engine_canonical_json(order ? order : json_null());
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    /* Allocation failures only; the contract says this cannot fail. */
    if (!canon || !md || EVP_DigestInit_ex(md, EVP_sha256(), NULL) != 1)
        abort();
    snprintf(seatbuf, sizeof seatbuf, "%d", seat);
    game_id = game_id ? game_id : "";
    window = window ? window : "";
    digest_part(md, game_id, strlen(game_id));
    digest_part(md, window, strlen(window));
    digest_part(md, seatbuf, strlen(seatbuf));
    digest_part(md, canon, strlen(canon));
    digest_part(md, nonce, ENGINE_NONCE_BYTES);
    if (EVP_DigestFinal_ex(md, hash, &len) != 1)
        abort();
    EVP_MD_CTX_free(md);
    free(canon);
    engine_hex(hash, ENGINE_HASH_BYTES, out->hex);
}

json_t *engine_input_to_json(const engine_input *in, uint64_t seq)
{
    char nonce[2 * ENGINE_NONCE_BYTES + 1];
    json_t *j = json_object();
    if (!j)
        return NULL;
    json_object_set_new(j, "seq", json_integer((json_int_t)seq));
    json_object_set_new(j, "seat",
                        in->seat >= 0 ? json_integer(in->seat) : json_null());
    json_object_set_new(j, "kind",
                        json_string(engine_input_kind_name(in->kind)));
    json_object_set_new(j, "window",
                        in->window ? json_string(in->window) : json_null());
    json_object_set_new(
        j, "payload", in->payload ? json_deep_copy(in->payload) : json_null());
    if (in->kind == ENGINE_ORDER) {
        engine_hex(in->nonce, ENGINE_NONCE_BYTES, nonce);
        json_object_set_new(j, "nonce", json_string(nonce));
    } else {
        json_object_set_new(j, "nonce", json_null());
    }
    if (json_object_size(j) != 6) { /* some value failed to allocate */
        json_decref(j);
        return NULL;
    }
    return j;
}

int engine_input_from_json(const json_t *j, engine_input *out, uint64_t *seq,
                           engine_error *err)
{
    const json_t *v;
    memset(out, 0, sizeof *out);
    out->seat = ENGINE_PUBLIC;
    if (!json_is_object(j))
        return engine_fail(err, ENGINE_EINVALID, "input",
                           "an input must be a JSON object");
    v = json_object_get(j, "seq");
    if (seq) {
        if (!json_is_integer(v) || json_integer_value(v) < 0)
            return engine_fail(err, ENGINE_EINVALID, "seq",
                               "seq must be a non-negative integer");
        *seq = (uint64_t)json_integer_value(v);
    }
    v = json_object_get(j, "seat");
    if (json_is_integer(v)) {
        json_int_t s = json_integer_value(v);
        if (s < 0 || s >= ENGINE_MAX_SEATS)
            return engine_fail(err, ENGINE_EINVALID, "seat",
                               "seat %lld is out of range", (long long)s);
        out->seat = (int)s;
    } else if (v && !json_is_null(v)) {
        return engine_fail(err, ENGINE_EINVALID, "seat",
                           "seat must be an integer or null");
    }
    v = json_object_get(j, "kind");
    if (!json_is_string(v) ||
        engine_input_kind_parse(json_string_value(v), &out->kind) != 0)
        return engine_fail(err, ENGINE_EINVALID, "kind",
                           "kind must be order, play, timeout or system");
    v = json_object_get(j, "window");
    if (json_is_string(v))
        out->window = json_string_value(v);
    else if (v && !json_is_null(v))
        return engine_fail(err, ENGINE_EINVALID, "window",
                           "window must be a string or null");
    v = json_object_get(j, "payload");
    out->payload = json_is_null(v) ? NULL : v;
    v = json_object_get(j, "nonce");
    if (json_is_string(v)) {
        if (engine_unhex(json_string_value(v), out->nonce,
                         ENGINE_NONCE_BYTES) != 0)
            return engine_fail(err, ENGINE_EINVALID, "nonce",
                               "nonce must be %d hex digits",
                               2 * ENGINE_NONCE_BYTES);
    } else if (v && !json_is_null(v)) {
        return engine_fail(err, ENGINE_EINVALID, "nonce",
                           "nonce must be a hex string or null");
    } else if (out->kind == ENGINE_ORDER) {
        return engine_fail(err, ENGINE_EINVALID, "nonce",
                           "an order needs its nonce");
    }
    return 0;
}

/*
 * fuzz_jsonpatch.c - libFuzzer harness for common/jsonpatch.c.
 *
 * An input is up to three JSON texts in a row: A B [P]. With A and B:
 *   - diff(A, A) is [];
 *   - diff(A, B) applied to A gives B, and diff(B, A) applied to B gives A;
 * and with P (any JSON, usually a patch) applied to A:
 *   - on failure A is untouched (same pointer, same value) and the error
 *     message is not empty;
 *   - on success diff(A, result) applied to A gives the result.
 * A broken invariant aborts, which libFuzzer reports as a crash.
 *
 * Built and run by `make fuzz` (tests/fuzz/fuzz.mk; FUZZ_SECONDS sets the
 * time), and for a short smoke run by `make test`; the seed corpus is
 * tests/fuzz/corpus/jsonpatch.
 */
#include "common/jsonpatch.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static void fail(const char *what, const json_t *a, const json_t *b,
                 const json_t *ops)
{
    char *sa = json_dumps(a, JSON_COMPACT | JSON_ENCODE_ANY);
    char *sb = json_dumps(b, JSON_COMPACT | JSON_ENCODE_ANY);
    char *so = json_dumps(ops, JSON_COMPACT | JSON_ENCODE_ANY);
    fprintf(stderr, "%s\n a   %s\n b   %s\n ops %s\n", what, sa ? sa : "?",
            sb ? sb : "?", so ? so : "?");
    abort();
}

/* The next JSON text in data[*pos..size), or NULL. */
static json_t *next_value(const uint8_t *data, size_t size, size_t *pos)
{
    json_error_t e;
    if (*pos >= size)
        return NULL;
    json_t *v = json_loadb(
        (const char *)data + *pos, size - *pos,
        JSON_DECODE_ANY | JSON_DISABLE_EOF_CHECK | JSON_ALLOW_NUL, &e);
    if (v)
        *pos += (size_t)e.position;
    return v;
}

/* diff(a, b) applied to a must give b. */
static void round_trip(const json_t *a, const json_t *b)
{
    char err[256];
    json_t *ops = jsonpatch_diff(a, b);
    if (!ops)
        fail("diff returned NULL", a, b, NULL);
    json_t *doc = json_incref((json_t *)a);
    if (jsonpatch_apply(&doc, ops, err, sizeof err) != JSONPATCH_OK) {
        fprintf(stderr, "apply: %s\n", err);
        fail("the diff does not apply", a, b, ops);
    }
    if (!json_equal(doc, b))
        fail("the diff does not give the target", a, b, ops);
    json_decref(doc);
    json_decref(ops);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t pos = 0;
    json_t *a = next_value(data, size, &pos);
    json_t *b = a ? next_value(data, size, &pos) : NULL;
    json_t *p = b ? next_value(data, size, &pos) : NULL;
    if (!a)
        return 0;

    json_t *self = jsonpatch_diff(a, a);
    if (!self || json_array_size(self) != 0)
        fail("diff(a, a) is not []", a, a, self);
    json_decref(self);

    if (b) {
        round_trip(a, b);
        round_trip(b, a);
    }

    if (p) {
        char err[256];
        json_t *before = json_deep_copy(a), *doc = json_incref(a);
        int rc = jsonpatch_apply(&doc, p, err, sizeof err);
        if (rc != JSONPATCH_OK) {
            if (rc != JSONPATCH_EINVALID && rc != JSONPATCH_ECONFLICT)
                fail("unexpected return code", a, p, NULL);
            if (doc != a || !json_equal(a, before) || !err[0])
                fail("a failed apply changed the document", a, before, p);
        } else {
            if (!json_equal(a, before))
                fail("apply changed the original", a, before, p);
            round_trip(a, doc);
        }
        json_decref(doc);
        json_decref(before);
    }
    json_decref(a);
    json_decref(b);
    json_decref(p);
    return 0;
}

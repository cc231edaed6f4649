/*
 * jsonpatch.h - RFC 6902 JSON Patch: compute the patch between two JSON
 * documents, and apply a patch to a document.
 *
 * The WebSocket hub diffs each audience's previous view of a game against the
 * new one and sends browsers the patch instead of the whole view. The applier
 * exists for tests, the fuzz round trip and any server-side consumer.
 *
 * Pure functions over jansson values: no I/O, no globals, no threads;
 * safe to call from any thread on values that thread owns.
 *
 * What it does not do: it does not produce "move", "copy" or "test" (an
 * array edit comes out as remove + add), never appends with "/-" (indices are
 * explicit, so every RFC 6902 client agrees), and does not promise the
 * shortest possible patch, only a correct and usually small one.
 */
#ifndef CONCLAVE_JSONPATCH_H
#define CONCLAVE_JSONPATCH_H

#include <jansson.h>
#include <stddef.h>

/* Return codes of jsonpatch_apply. */
enum {
    JSONPATCH_OK = 0,
    JSONPATCH_EINVALID = -1,  /* malformed patch, operation or pointer */
    JSONPATCH_ECONFLICT = -2, /* pointer does not resolve, or "test" failed */
    JSONPATCH_ENOMEM = -3     /* out of memory */
};

/*
 * The patch that turns `from` into `to`: a NEW JSON array of "add", "remove"
 * and "replace" operations, to be applied in order. Equal documents give [].
 * Paths are JSON Pointers (RFC 6901) with "~" and "/" in keys escaped as
 * "~0" and "~1"; a change of the whole document is a "replace" at path "".
 * Array positions are always explicit indices, valid at the moment each
 * operation runs.
 *
 * Values are compared exactly as jansson's json_equal does (so 1 and 1.0
 * differ, and a change between them is kept). The operations' values are
 * deep copies: the patch shares nothing with `from` or `to`, which are
 * borrowed and not modified.
 *
 * Returns NULL only when out of memory, or when from or to is NULL.
 */
json_t *jsonpatch_diff(const json_t *from, const json_t *to);

/*
 * Apply `ops` (a JSON array of RFC 6902 operations: add, remove, replace,
 * move, copy, test) to *doc. All or nothing: the operations run on a deep
 * copy (so each call costs one copy of the document), and only when every
 * one succeeds is the caller's reference *doc released and replaced by a
 * reference to the result; *doc then points to a different value, which
 * the caller owns. On failure *doc is untouched and err (may be NULL,
 * errlen bytes) says which operation failed and why, e.g.
 * `ops[2] (remove "/hand/7"): index 7 out of range (size 3)`.
 *
 * As RFC 6902 requires, members an operation does not define are ignored,
 * and "test" compares numbers by value (1 equals 1.0). "remove" of the whole
 * document (path "") is rejected, and so are a NULL doc or *doc. ops is
 * borrowed. Returns JSONPATCH_OK or a negative JSONPATCH_E* code.
 */
int jsonpatch_apply(json_t **doc, const json_t *ops, char *err, size_t errlen);

#endif

/*
 * lg_patch.h - JSON Patch (RFC 6902) for the load generator's copies of the
 * game documents the server's WebSocket feed patches.
 */
#ifndef LG_PATCH_H
#define LG_PATCH_H

#include <jansson.h>

/* Apply the array of operations `ops` (add, remove, replace: what the
 * server sends) to *doc, which may be replaced (a whole-document op).
 * 0, or -1 when an operation does not apply (*doc is then partly changed:
 * the caller throws it away and asks for a snapshot). */
int lg_patch_apply(json_t **doc, const json_t *ops);

#endif

/*
 * carddata.h - the scaffolding every ruleset's data file (cards.json,
 * council.json) shares, written once: turning the embedded JSON into the
 * ruleset's immutable table once at init, the error that names the file,
 * the item and the field at fault, the field readers every parser uses
 * (optional integers, keys, names, unknown fields, names from a list) and
 * finding an item by key.
 *
 * What stays in the ruleset: its table's layout, its per-card fields and
 * every rule about them. The ruleset owns the one static table; this module
 * keeps no state, does no I/O and reads no clock. The file itself is
 * embedded by a .S of the ruleset with engine/carddata_embed.inc.
 */
#ifndef CONCLAVE_CARDDATA_H
#define CONCLAVE_CARDDATA_H

#include "engine/ruleset.h"

#include <stdarg.h>

/* --------------------------------------------------- the whole file -- */

/* What a ruleset's data file is: its name in errors ("cards.json"), the
 * table it fills (size bytes, with the data set's identity, a
 * char[2 * ENGINE_HASH_BYTES + 1], at sha256_at) and the ruleset's parser,
 * which reads the parsed root into the zeroed table (0 or the error). */
typedef struct engine_carddata {
    const char *file;
    size_t size;
    size_t sha256_at;
    int (*parse)(const json_t *root, void *table, engine_error *err);
} engine_carddata;

/* Zero table, parse text (duplicate JSON keys refused) with cd->parse, and
 * on success write the identity (engine_data_identity). 0, or the error;
 * the table is not to be used after a failure. */
int engine_carddata_parse(const engine_carddata *cd, const char *text,
                          size_t len, void *table, engine_error *err);

/* The once-at-init step: when *ready is 0, engine_carddata_parse of the
 * embedded text into the ruleset's static table, and *ready set to 1 on
 * success; when *ready is already 1, nothing. The table is never written
 * again. */
int engine_carddata_init(const engine_carddata *cd, const char *text,
                         uint64_t len, void *table, int *ready,
                         engine_error *err);

/* ------------------------------------------------------------ errors -- */

/* ENGINE_EINVALID, with err reading "FILE WHERE: FIELD WHAT" (WHAT from
 * fmt), e.g. "cards.json card 3 (ash_warden): cost must be an integer
 * 1..10", and field as the error's field. */
int engine_carddata_fail(engine_error *err, const char *file, const char *where,
                         const char *field, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
int engine_carddata_vfail(engine_error *err, const char *file,
                          const char *where, const char *field, const char *fmt,
                          va_list ap) __attribute__((format(printf, 5, 0)));

/* ------------------------------------------------------------ fields -- */

/* Optional integer member: absent -> def, 0; present and an integer in
 * lo..hi -> it, 0; else -1 (*out is def then). */
int engine_carddata_int(const json_t *obj, const char *name, int lo, int hi,
                        int def, int *out);

/* The first member of obj not in the NULL-terminated list known, or NULL. */
const char *engine_carddata_unknown(const json_t *obj,
                                    const char *const *known);

/* Index of s in names[0..n-1], or -1 (also for s NULL, so that
 * json_string_value of a non-string can be passed as it is). */
int engine_carddata_lookup(const char *const *names, int n, const char *s);

/* Whether s is a key: 1..max-1 characters of [a-z0-9_]. */
int engine_carddata_is_key(const char *s, size_t max);

/* obj's "key" (engine_carddata_is_key) into out (max bytes); else the
 * error "key must be a string of [a-z0-9_], 1..max-1 characters". */
int engine_carddata_key(const json_t *obj, const char *file, const char *where,
                        char *out, size_t max, engine_error *err);

/* obj's string member `member`, 1..max-1 bytes, into out; else the error
 * "LABEL must be a string of 1..max-1 bytes". */
int engine_carddata_string(const json_t *obj, const char *member,
                           const char *file, const char *where,
                           const char *label, char *out, size_t max,
                           engine_error *err);

/* ------------------------------------------------------------ tables -- */

/* Index of the item whose key is key among n items of size bytes at items,
 * each beginning with its NUL-terminated key; -1 when none (or key NULL). */
int engine_carddata_find(const void *items, int n, size_t size,
                         const char *key);

/* Item i against items 0..i-1 (as for engine_carddata_find, the name at
 * name_at): 0, or the error "key repeats card J" or "name repeats the name
 * of card J (KEY)", at where. */
int engine_carddata_unique(const void *items, int i, size_t size,
                           size_t name_at, const char *file, const char *where,
                           engine_error *err);

#endif

/*
 * pg_array.h - PostgreSQL array literals in the text format ('{"a","b",NULL}'),
 * built element by element, for statements that take a whole batch as array
 * parameters (`unnest($1::text[], $2::bigint[], ...)`, store.c).
 *
 * Every element but NULL is written double-quoted, with `"` and `\`
 * escaped, so any text (JSON included) round-trips; the cast in the
 * statement gives the element type. Out of memory is remembered: the
 * literal is then NULL and the builder only needs freeing.
 */
#ifndef CONCLAVE_PG_ARRAY_H
#define CONCLAVE_PG_ARRAY_H

#include <stddef.h>

typedef struct pg_array {
    char *buf;
    size_t len, cap;
    int n;   /* elements so far */
    int oom; /* an allocation failed */
} pg_array;

void pg_array_init(pg_array *a);
/* Append text as one element, or NULL. */
void pg_array_add(pg_array *a, const char *text);
/* Append an integer element. */
void pg_array_add_int(pg_array *a, long long v);
/* The literal ('{}' when empty): valid until the next add or the free;
 * NULL when out of memory. */
const char *pg_array_text(pg_array *a);
void pg_array_free(pg_array *a);

#endif

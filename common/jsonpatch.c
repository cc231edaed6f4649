/*
 * jsonpatch.c - RFC 6902 JSON Patch: diff two documents, apply a patch.
 *
 * Used by the WebSocket hub to send each audience the change between its
 * previous and its new game view. Does not parse or print JSON text, and
 * never emits move/copy/test (see jsonpatch.h).
 *
 * jsonpatch_diff walks both trees together:
 *
 *   - the same node, or equal scalars: nothing; different types or scalars
 *     that differ: one "replace" carrying a deep copy of the new value;
 *   - objects: a key only in `from` is removed, a key in both is diffed
 *     recursively, a key only in `to` is added (jansson hash lookups);
 *   - arrays: the common prefix and suffix are trimmed with an exact
 *     equality test (same_value: json_equal's rule, but keys found by their
 *     length; it stops at the first difference). What is left, from[p..p+a) and
 *     to[p..p+b), is pure adds or removes when a or b is 0, a recursive diff
 *     when a == b == 1, and otherwise an edit-distance table (Wagner-Fischer)
 *     filled backwards and read forwards. Keeping an equal element costs 0,
 *     removing or inserting one costs 1, and substituting (diffing the pair
 *     in place) costs 1 when that is a single replace (a scalar or a change
 *     of type) but 2 between two objects or two arrays, which may need many
 *     operations. Ties go to substitution, so a board whose cells change
 *     stays cell-by-cell, while a card moved within a hand comes out as one
 *     remove and one add rather than a cascade of replaces.
 *
 *     Before the table is filled, the middle elements are sorted into
 *     equality classes: a structural hash (to a bounded depth, key order
 *     ignored) and then same_value against the class's first member, with a
 *     bounded number of probes. A cell then compares two integers. Putting
 *     two equal elements in different classes only makes the patch longer,
 *     never wrong, which is what makes the bounds safe.
 *
 *     The table is restricted to a diagonal band |(j - i) - shift| <= K,
 *     with K as large as keeps it within DP_MAX_CELLS cells (the whole table
 *     for middles up to about 255 x 255). Any path inside the band is a valid
 *     edit script, so a narrow band costs optimality, not correctness. When
 *     not even the single diagonal fits (lengths very different and very
 *     long) the middle is diffed element by element and the extra tail
 *     removed or added.
 *
 *     The script is emitted in order with explicit indices: after the step
 *     reaching cell (i, j) the array is to[0..p+j) followed by from[p+i..),
 *     so the element being handled is always at index p+j.
 *
 * Cost, for N nodes in the two documents: the walk visits each node once,
 * and the equality test or hash of an enclosing array's trimming and
 * classification visits it again, once per enclosing array (so O(N) for
 * game views, O(N * D) with D levels of nested arrays). Each array middle
 * adds at most DP_MAX_CELLS table cells; the script is read out and the
 * table freed before recursing, so at most one table (4 bytes a cell) is
 * held at a time. Plus copying the values the patch carries.
 *
 * jsonpatch_apply works on a deep copy of the document, which it swaps in
 * only when every operation has succeeded. Each operation resolves its JSON
 * Pointer from the root: O(depth) hash lookups or index checks.
 */
#include "common/jsonpatch.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DP_MAX_CELLS (1u << 16) /* edit-table cells per array middle */
#define HASH_DEPTH 6            /* levels below an element that its hash sees */
#define CLASS_PROBES 8          /* same_value calls per element, at most */
#define COST_INF (UINT32_MAX / 4)

/* ------------------------------------------------------------ paths ---- */

/* The JSON Pointer of the node being diffed, grown and cut as we walk. */
typedef struct pathbuf {
    char *buf;
    size_t len, cap;
} pathbuf;

static int path_reserve(pathbuf *p, size_t extra)
{
    if (p->buf && p->len + extra <= p->cap)
        return 0;
    size_t cap = p->cap ? p->cap : 64;
    while (cap < p->len + extra)
        cap *= 2;
    char *nb = realloc(p->buf, cap);
    if (!nb)
        return -1;
    p->buf = nb;
    p->cap = cap;
    return 0;
}

/* Append "/" and the key, "~" written "~0" and "/" written "~1". */
static int path_push_key(pathbuf *p, const char *key, size_t klen)
{
    if (path_reserve(p, 1 + 2 * klen) < 0)
        return -1;
    char *w = p->buf + p->len;
    *w++ = '/';
    for (size_t i = 0; i < klen; i++) {
        if (key[i] == '~') {
            *w++ = '~';
            *w++ = '0';
        } else if (key[i] == '/') {
            *w++ = '~';
            *w++ = '1';
        } else {
            *w++ = key[i];
        }
    }
    p->len = (size_t)(w - p->buf);
    return 0;
}

static int path_push_index(pathbuf *p, size_t index)
{
    char tmp[24];
    int n = snprintf(tmp, sizeof tmp, "/%zu", index);
    if (path_reserve(p, (size_t)n) < 0)
        return -1;
    memcpy(p->buf + p->len, tmp, (size_t)n);
    p->len += (size_t)n;
    return 0;
}

/* ----------------------------------------------------------- values ---- */

/* A NEW deep copy of v, or NULL when out of memory. Unlike json_deep_copy
 * (jansson 2.14), it keeps object keys that contain a NUL byte. */
static json_t *copy_value(const json_t *v)
{
    json_t *c;
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        json_t *o = (json_t *)v; /* iteration only */
        if (!(c = json_object()))
            return NULL;
        for (void *it = json_object_iter(o); it;
             it = json_object_iter_next(o, it)) {
            if (json_object_setn_new_nocheck(
                    c, json_object_iter_key(it), json_object_iter_key_len(it),
                    copy_value(json_object_iter_value(it))) < 0)
                goto fail;
        }
        return c;
    }
    case JSON_ARRAY: {
        size_t n = json_array_size(v);
        if (!(c = json_array()))
            return NULL;
        for (size_t i = 0; i < n; i++)
            if (json_array_append_new(c, copy_value(json_array_get(v, i))) < 0)
                goto fail;
        return c;
    }
    case JSON_STRING:
        return json_stringn_nocheck(json_string_value(v),
                                    json_string_length(v));
    default: /* numbers; true, false and null are shared singletons */
        return json_deep_copy(v);
    }
fail:
    json_decref(c);
    return NULL;
}

/*
 * Whether x and y are equal, objects ignoring key order. Exact (by_number 0)
 * is json_equal's rule: the types must match, so 1 and 1.0 differ. By
 * number (1) is the rule of RFC 6902 "test": 1 equals 1.0. Unlike
 * json_equal (jansson 2.14) it finds keys by length, so keys holding a NUL
 * byte compare right and no strlen is spent per key.
 */
static int same_value(const json_t *x, const json_t *y, int by_number)
{
    json_type tx = json_typeof(x), ty = json_typeof(y);
    if (x == y)
        return 1;
    if (tx != ty) {
        if (!by_number || (tx != JSON_INTEGER && tx != JSON_REAL) ||
            (ty != JSON_INTEGER && ty != JSON_REAL))
            return 0;
        if (tx == JSON_REAL) {
            const json_t *tmp = x;
            x = y;
            y = tmp;
        }
        json_int_t i = json_integer_value(x);
        double r = json_real_value(y);
        /* 2^63 as a double; the cast below is defined only within range. */
        if (!(r >= -9223372036854775808.0 && r < 9223372036854775808.0))
            return 0;
        return (double)(json_int_t)r == r && (json_int_t)r == i;
    }
    switch (tx) {
    case JSON_OBJECT: {
        if (json_object_size(x) != json_object_size(y))
            return 0;
        json_t *xo = (json_t *)x; /* iteration only */
        for (void *it = json_object_iter(xo); it;
             it = json_object_iter_next(xo, it)) {
            const json_t *yv = json_object_getn(y, json_object_iter_key(it),
                                                json_object_iter_key_len(it));
            if (!yv || !same_value(json_object_iter_value(it), yv, by_number))
                return 0;
        }
        return 1;
    }
    case JSON_ARRAY: {
        size_t n = json_array_size(x);
        if (n != json_array_size(y))
            return 0;
        for (size_t i = 0; i < n; i++)
            if (!same_value(json_array_get(x, i), json_array_get(y, i),
                            by_number))
                return 0;
        return 1;
    }
    default: /* scalars of one type: one call, no accessor per field */
        return json_equal(x, y);
    }
}

/* ------------------------------------------------------------- diff ---- */

typedef struct diff_ctx {
    json_t *ops; /* the patch being built */
    pathbuf path;
    int oom; /* set on any allocation failure; the result is then NULL */
} diff_ctx;

static void diff_value(diff_ctx *c, const json_t *f, const json_t *t);

/* Append {op, path, value}; value is a NEW reference or NULL. */
static void emit(diff_ctx *c, const char *op, json_t *value)
{
    json_t *o = json_object();
    json_t *path =
        json_stringn_nocheck(c->path.buf ? c->path.buf : "", c->path.len);
    if (!o || !path ||
        json_object_set_new_nocheck(o, "op", json_string_nocheck(op)) < 0)
        goto fail;
    if (json_object_set_new_nocheck(o, "path", path) < 0) {
        path = NULL; /* stolen even on failure */
        goto fail;
    }
    path = NULL;
    if (value) {
        int rc = json_object_set_new_nocheck(o, "value", value);
        value = NULL;
        if (rc < 0)
            goto fail;
    }
    if (json_array_append_new(c->ops, o) < 0) {
        c->oom = 1;
        return;
    }
    return;
fail:
    c->oom = 1;
    json_decref(o);
    json_decref(path);
    json_decref(value);
}

/* Emit an add or replace of a deep copy of v at the current path. */
static void emit_copy(diff_ctx *c, const char *op, const json_t *v)
{
    json_t *copy = copy_value(v);
    if (!copy) {
        c->oom = 1;
        return;
    }
    emit(c, op, copy);
}

static void diff_object(diff_ctx *c, const json_t *f, const json_t *t)
{
    /* jansson's iterators take non-const objects but do not modify them. */
    json_t *fo = (json_t *)f, *to = (json_t *)t;
    size_t mark = c->path.len, shared = 0;

    for (void *it = json_object_iter(fo); it && !c->oom;
         it = json_object_iter_next(fo, it)) {
        const char *key = json_object_iter_key(it);
        size_t klen = json_object_iter_key_len(it);
        const json_t *tv = json_object_getn(t, key, klen);
        if (path_push_key(&c->path, key, klen) < 0) {
            c->oom = 1;
            break;
        }
        if (!tv) {
            emit(c, "remove", NULL);
        } else {
            shared++;
            diff_value(c, json_object_iter_value(it), tv);
        }
        c->path.len = mark;
    }
    if (shared == json_object_size(t))
        return; /* every key of `to` is also in `from` */
    for (void *it = json_object_iter(to); it && !c->oom;
         it = json_object_iter_next(to, it)) {
        const char *key = json_object_iter_key(it);
        size_t klen = json_object_iter_key_len(it);
        if (json_object_getn(f, key, klen))
            continue;
        if (path_push_key(&c->path, key, klen) < 0) {
            c->oom = 1;
            break;
        }
        emit_copy(c, "add", json_object_iter_value(it));
        c->path.len = mark;
    }
}

/* Diff from[fi] against to[ti], the former being at index `at` now. */
static void diff_at(diff_ctx *c, const json_t *f, size_t fi, const json_t *t,
                    size_t ti, size_t at)
{
    size_t mark = c->path.len;
    if (path_push_index(&c->path, at) < 0) {
        c->oom = 1;
        return;
    }
    diff_value(c, json_array_get(f, fi), json_array_get(t, ti));
    c->path.len = mark;
}

static void add_at(diff_ctx *c, const json_t *t, size_t ti, size_t at)
{
    size_t mark = c->path.len;
    if (path_push_index(&c->path, at) < 0) {
        c->oom = 1;
        return;
    }
    emit_copy(c, "add", json_array_get(t, ti));
    c->path.len = mark;
}

static void remove_at(diff_ctx *c, size_t at)
{
    size_t mark = c->path.len;
    if (path_push_index(&c->path, at) < 0) {
        c->oom = 1;
        return;
    }
    emit(c, "remove", NULL);
    c->path.len = mark;
}

/* --- equality classes -------------------------------------------------- */

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

static uint64_t hash_bytes(const char *s, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

/* Equal values (same_value, exact) hash equal; objects ignore key order. */
static uint64_t hash_value(const json_t *v, int depth)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        uint64_t h = 0x6f626aULL + json_object_size(v);
        if (depth <= 0)
            return mix64(h);
        json_t *o = (json_t *)v; /* iteration only */
        for (void *it = json_object_iter(o); it;
             it = json_object_iter_next(o, it)) {
            uint64_t kh = hash_bytes(json_object_iter_key(it),
                                     json_object_iter_key_len(it));
            h += mix64(kh ^ hash_value(json_object_iter_value(it), depth - 1));
        }
        return mix64(h);
    }
    case JSON_ARRAY: {
        size_t n = json_array_size(v);
        uint64_t h = 0x617272ULL + n;
        if (depth <= 0)
            return mix64(h);
        for (size_t i = 0; i < n; i++)
            h = mix64(h ^ hash_value(json_array_get(v, i), depth - 1));
        return h;
    }
    case JSON_STRING:
        return hash_bytes(json_string_value(v), json_string_length(v));
    case JSON_INTEGER:
        return mix64((uint64_t)json_integer_value(v) ^ 0x696e74ULL);
    case JSON_REAL: {
        double d = json_real_value(v);
        uint64_t bits;
        if (d == 0)
            d = 0; /* -0.0 == 0.0 */
        memcpy(&bits, &d, sizeof bits);
        return mix64(bits ^ 0x7265616cULL);
    }
    case JSON_TRUE:
        return 1;
    case JSON_FALSE:
        return 2;
    case JSON_NULL:
    default:
        return 3;
    }
}

typedef struct class_slot {
    uint64_t hash;
    const json_t *rep; /* NULL: empty slot */
    uint32_t id;
} class_slot;

/* What the edit table needs to know of an array element. */
typedef struct elem {
    uint32_t cls;      /* equality class */
    unsigned char box; /* 1 object, 2 array, 0 anything else */
} elem;

/*
 * Describe the n elements of `arr` from index `start` in out[], sharing
 * class ids (and the table) with earlier calls. Equal ids imply exact
 * equality; equal values usually, not always, get equal ids.
 */
static void classify(const json_t *arr, size_t start, size_t n, elem *out,
                     class_slot *tab, size_t mask, uint32_t *next_id)
{
    for (size_t k = 0; k < n; k++) {
        const json_t *v = json_array_get(arr, start + k);
        uint64_t h = hash_value(v, HASH_DEPTH);
        size_t s = (size_t)h & mask;
        int probes = 0;
        out[k].box = json_is_object(v) ? 1 : json_is_array(v) ? 2 : 0;
        out[k].cls = UINT32_MAX;
        while (tab[s].rep) {
            if (tab[s].hash == h && probes++ < CLASS_PROBES &&
                same_value(tab[s].rep, v, 0)) {
                out[k].cls = tab[s].id;
                break;
            }
            s = (s + 1) & mask;
        }
        if (out[k].cls == UINT32_MAX) {
            /* The table has room for every element, so s is free. */
            tab[s].hash = h;
            tab[s].rep = v;
            tab[s].id = out[k].cls = (*next_id)++;
        }
    }
}

/* --- edit table -------------------------------------------------------- */

typedef struct band {
    size_t a, b;      /* rows 0..a, columns 0..b */
    long long lo, hi; /* allowed j - i */
    size_t *row_off;  /* a + 2 entries: start of row i in cost[] */
    uint32_t *cost;   /* cost[i][j]: cheapest script for from[i..], to[j..] */
} band;

static long long max_ll(long long x, long long y)
{
    return x > y ? x : y;
}

static long long min_ll(long long x, long long y)
{
    return x < y ? x : y;
}

/* Cells inside the band, stopping once past limit. */
static size_t band_cells(const band *d, size_t limit)
{
    size_t total = 0;
    for (size_t i = 0; i <= d->a && total <= limit; i++) {
        long long jl = max_ll(0, (long long)i + d->lo);
        long long jh = min_ll((long long)d->b, (long long)i + d->hi);
        if (jh >= jl)
            total += (size_t)(jh - jl + 1);
    }
    return total;
}

/* The diagonals from 0 to b - a, widened by k on each side, within the
 * table. Returns whether that is the whole table. */
static int band_set(band *d, long long k)
{
    long long shift = (long long)d->b - (long long)d->a;
    d->lo = max_ll(-(long long)d->a, min_ll(0, shift) - k);
    d->hi = min_ll((long long)d->b, max_ll(0, shift) + k);
    return d->lo == -(long long)d->a && d->hi == (long long)d->b;
}

/* The widest band within DP_MAX_CELLS; -1 if not even k = 0 fits. */
static int band_widest(band *d)
{
    long long good = 0, bad = (long long)(d->a > d->b ? d->a : d->b);
    band_set(d, 0);
    if (band_cells(d, DP_MAX_CELLS) > DP_MAX_CELLS)
        return -1;
    while (bad - good > 1) { /* k = good fits; k = bad does not */
        long long mid = good + (bad - good) / 2;
        band_set(d, mid);
        if (band_cells(d, DP_MAX_CELLS) <= DP_MAX_CELLS)
            good = mid;
        else
            bad = mid;
    }
    band_set(d, good);
    return 0;
}

static inline uint32_t band_get(const band *d, size_t i, size_t j)
{
    long long diag = (long long)j - (long long)i;
    if (i > d->a || j > d->b || diag < d->lo || diag > d->hi)
        return COST_INF;
    long long jl = max_ll(0, (long long)i + d->lo);
    return d->cost[d->row_off[i] + (size_t)((long long)j - jl)];
}

enum { STEP_KEEP, STEP_SUB, STEP_DEL, STEP_INS };

/* The cheapest step from (i, j), ties broken keep > sub > del > ins. */
static inline int band_step(const band *d, const elem *ef, const elem *et,
                            size_t i, size_t j, uint32_t *best)
{
    uint32_t c, b = COST_INF;
    int step = -1;
    if (i < d->a && j < d->b) {
        c = band_get(d, i + 1, j + 1);
        if (ef[i].cls == et[j].cls) {
            b = c;
            step = STEP_KEEP;
        } else {
            /* one replace for a scalar or a change of type; two objects or
             * two arrays may need many operations */
            c += (ef[i].box && ef[i].box == et[j].box) ? 2 : 1;
            b = c;
            step = STEP_SUB;
        }
    }
    if (i < d->a && (c = band_get(d, i + 1, j) + 1) < b) {
        b = c;
        step = STEP_DEL;
    }
    if (j < d->b && (c = band_get(d, i, j + 1) + 1) < b) {
        b = c;
        step = STEP_INS;
    }
    *best = b;
    return step;
}

/*
 * The middle from[p..p+a) -> to[p..p+b) by an edit script. Returns -1
 * (emitting nothing) when the table does not fit or memory runs out, so the
 * caller falls back to the element-wise script.
 */
/* Fill d->cost for the current band, from (a, b) back to (0, 0). */
static int band_fill(band *d, const elem *ef, const elem *et)
{
    size_t off = 0;
    for (size_t i = 0; i <= d->a; i++) {
        long long jl = max_ll(0, (long long)i + d->lo);
        long long jh = min_ll((long long)d->b, (long long)i + d->hi);
        d->row_off[i] = off;
        if (jh >= jl)
            off += (size_t)(jh - jl + 1);
    }
    d->row_off[d->a + 1] = off;
    free(d->cost);
    if (!(d->cost = malloc((off ? off : 1) * sizeof *d->cost)))
        return -1;

    for (size_t i = d->a + 1; i-- > 0;) {
        long long jl = max_ll(0, (long long)i + d->lo);
        long long jh = min_ll((long long)d->b, (long long)i + d->hi);
        for (long long j = jh; j >= jl; j--) {
            uint32_t best = 0;
            if (i < d->a || (size_t)j < d->b)
                band_step(d, ef, et, i, (size_t)j, &best);
            d->cost[d->row_off[i] + (size_t)(j - jl)] = best;
        }
    }
    return 0;
}

static int diff_middle_dp(diff_ctx *c, const json_t *f, const json_t *t,
                          size_t p, size_t a, size_t b)
{
    band d = {.a = a, .b = b};
    size_t slots = 1;
    if (a == 0 || b == 0)
        return -1;
    while (slots < 2 * (a + b))
        slots *= 2;
    elem *ef = malloc((a + b) * sizeof *ef);
    class_slot *tab = calloc(slots, sizeof *tab);
    unsigned char *steps = malloc(a + b); /* a script has at most a+b steps */
    d.row_off = malloc((a + 2) * sizeof *d.row_off);
    int rc = -1;
    if (!ef || !tab || !steps || !d.row_off)
        goto done;
    elem *et = ef + a;
    uint32_t next_id = 0;
    classify(f, p, a, ef, tab, slots - 1, &next_id);
    classify(t, p, b, et, tab, slots - 1, &next_id);

    /* Widen the band until it holds the best script (Ukkonen: a script
     * leaving a band of half-width k has more than k inserts and removes,
     * so a best cost <= k inside the band is the best overall), the whole
     * table, or DP_MAX_CELLS. Few edits in a long array stay cheap. */
    for (long long k = 4;; k *= 4) {
        int last = band_set(&d, k);
        if (band_cells(&d, DP_MAX_CELLS) > DP_MAX_CELLS) {
            if (band_widest(&d) < 0)
                goto done;
            last = 1;
        }
        if (band_fill(&d, ef, et) < 0)
            goto done;
        if (last || band_get(&d, 0, 0) <= (uint64_t)k)
            break;
    }

    /* Read the script, and free the table before recursing into elements:
     * nested arrays then hold one table at a time, not one per level. */
    size_t n = 0, i = 0, j = 0;
    while (i < a || j < b) {
        uint32_t best;
        int step = band_step(&d, ef, et, i, j, &best);
        if (step < 0)
            goto done; /* cannot happen: (a, b) is reachable from any cell */
        steps[n++] = (unsigned char)step;
        i += step != STEP_INS;
        j += step != STEP_DEL;
    }
    free(d.cost);
    free(d.row_off);
    free(tab);
    free(ef);
    d.cost = NULL;
    d.row_off = NULL;
    tab = NULL;
    ef = NULL;

    i = j = 0;
    for (size_t k = 0; k < n && !c->oom; k++) {
        switch (steps[k]) {
        case STEP_SUB:
            diff_at(c, f, p + i, t, p + j, p + j);
            break;
        case STEP_DEL:
            remove_at(c, p + j);
            break;
        case STEP_INS:
            add_at(c, t, p + j, p + j);
            break;
        default: /* STEP_KEEP */
            break;
        }
        i += steps[k] != STEP_INS;
        j += steps[k] != STEP_DEL;
    }
    rc = 0;
done:
    free(d.cost);
    free(d.row_off);
    free(steps);
    free(tab);
    free(ef);
    return rc;
}

static void diff_array(diff_ctx *c, const json_t *f, const json_t *t)
{
    size_t n = json_array_size(f), m = json_array_size(t), p = 0, s = 0;

    while (p < n && p < m &&
           same_value(json_array_get(f, p), json_array_get(t, p), 0))
        p++;
    while (s < n - p && s < m - p &&
           same_value(json_array_get(f, n - 1 - s),
                      json_array_get(t, m - 1 - s), 0))
        s++;
    size_t a = n - p - s, b = m - p - s;

    if (a == 0 || b == 0 || (a == 1 && b == 1) ||
        diff_middle_dp(c, f, t, p, a, b) < 0) {
        /* Element-wise, then drop the extra tail (last first) or add it. */
        size_t k, both = a < b ? a : b;
        for (k = 0; k < both && !c->oom; k++)
            diff_at(c, f, p + k, t, p + k, p + k);
        for (k = a; k > both && !c->oom; k--)
            remove_at(c, p + k - 1);
        for (k = both; k < b && !c->oom; k++)
            add_at(c, t, p + k, p + k);
    }
}

static void diff_value(diff_ctx *c, const json_t *f, const json_t *t)
{
    if (f == t || c->oom)
        return;
    if (json_typeof(f) != json_typeof(t)) {
        emit_copy(c, "replace", t);
        return;
    }
    switch (json_typeof(f)) {
    case JSON_OBJECT:
        diff_object(c, f, t);
        return;
    case JSON_ARRAY:
        diff_array(c, f, t);
        return;
    case JSON_STRING:
        if (json_string_length(f) == json_string_length(t) &&
            memcmp(json_string_value(f), json_string_value(t),
                   json_string_length(f)) == 0)
            return;
        break;
    case JSON_INTEGER:
        if (json_integer_value(f) == json_integer_value(t))
            return;
        break;
    case JSON_REAL:
        if (json_real_value(f) == json_real_value(t))
            return;
        break;
    default: /* true, false, null: same type, same value */
        return;
    }
    emit_copy(c, "replace", t);
}

json_t *jsonpatch_diff(const json_t *from, const json_t *to)
{
    diff_ctx c = {.ops = json_array()};
    if (!c.ops || !from || !to) {
        json_decref(c.ops);
        return NULL;
    }
    diff_value(&c, from, to);
    free(c.path.buf);
    if (c.oom) {
        json_decref(c.ops);
        return NULL;
    }
    return c.ops;
}

/* ------------------------------------------------------------ apply ---- */

/* Where a pointer leads: the container holding the last token, and the
 * value there (NULL when absent, or for "-" and index == size). */
typedef struct target {
    json_t *parent; /* NULL for the root pointer "" */
    json_t *value;
    const char *key; /* the last token, unescaped (object parents) */
    size_t klen;
    size_t index; /* array parents: "-" gives the size */
} target;

typedef struct apply_ctx {
    json_t *root;
    char *tok; /* scratch for unescaped tokens, as long as the longest path */
    char *why; /* WHY_LEN bytes: the reason the failing operation failed */
} apply_ctx;

#define WHY_LEN 200

/* Write the reason into buf (WHY_LEN bytes) and return code. */
static int why(char *buf, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int why(char *buf, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, WHY_LEN, fmt, ap);
    va_end(ap);
    return code;
}

/* Array index token: "0" or [1-9][0-9]*, or "-" (allowed only if dash). */
static int parse_index(char *why_buf, const char *tok, size_t len, size_t size,
                       int dash, size_t *out)
{
    if (len == 1 && tok[0] == '-') {
        if (!dash)
            return why(why_buf, JSONPATCH_ECONFLICT,
                       "\"-\" names no element of the array");
        *out = size;
        return 0;
    }
    if (len == 0 || (len > 1 && tok[0] == '0'))
        return why(why_buf, JSONPATCH_EINVALID, "bad array index \"%.*s\"",
                   (int)(len > 32 ? 32 : len), tok);
    size_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (tok[i] < '0' || tok[i] > '9')
            return why(why_buf, JSONPATCH_EINVALID, "bad array index \"%.*s\"",
                       (int)(len > 32 ? 32 : len), tok);
        if (v > (SIZE_MAX - 9) / 10)
            return why(why_buf, JSONPATCH_ECONFLICT, "index %.*s out of range",
                       (int)(len > 32 ? 32 : len), tok);
        v = v * 10 + (size_t)(tok[i] - '0');
    }
    *out = v;
    return 0;
}

/*
 * Resolve pointer ptr (plen bytes). Every token but the last must name an
 * existing value; the last may name a missing member or (for add) the
 * array's end. dash: whether "-" is acceptable as the last token.
 */
static int locate(apply_ctx *a, const char *ptr, size_t plen, int dash,
                  target *out)
{
    memset(out, 0, sizeof *out);
    out->value = a->root;
    if (plen == 0)
        return 0;
    if (ptr[0] != '/')
        return why(a->why, JSONPATCH_EINVALID,
                   "a JSON Pointer is empty or starts with \"/\"");
    json_t *cur = a->root;
    size_t pos = 1;
    for (;;) {
        size_t len = 0;
        while (pos < plen && ptr[pos] != '/') {
            char ch = ptr[pos++];
            if (ch == '~') {
                char e = pos < plen ? ptr[pos++] : '\0';
                if (e != '0' && e != '1')
                    return why(a->why, JSONPATCH_EINVALID,
                               "\"~\" not followed by 0 or 1");
                ch = e == '0' ? '~' : '/';
            }
            a->tok[len++] = ch;
        }
        int last = pos >= plen;
        json_t *next;
        size_t index = 0;
        if (json_is_object(cur)) {
            next = json_object_getn(cur, a->tok, len);
        } else if (json_is_array(cur)) {
            size_t size = json_array_size(cur);
            int rc =
                parse_index(a->why, a->tok, len, size, last && dash, &index);
            if (rc < 0)
                return rc;
            next = index < size ? json_array_get(cur, index) : NULL;
            if (!last && !next)
                return why(a->why, JSONPATCH_ECONFLICT,
                           "index %zu out of range (size %zu)", index, size);
        } else {
            return why(a->why, JSONPATCH_ECONFLICT,
                       "cannot look inside a scalar at \"%.*s\"",
                       (int)(pos > 80 ? 80 : pos), ptr);
        }
        if (last) {
            out->parent = cur;
            out->value = next;
            out->key = a->tok;
            out->klen = len;
            out->index = index;
            return 0;
        }
        if (!next)
            return why(a->why, JSONPATCH_ECONFLICT, "no member \"%.*s\"",
                       (int)(len > 64 ? 64 : len), a->tok);
        cur = next;
        pos++; /* skip the '/' */
    }
}

/* Pointer to an existing value. */
static int locate_existing(apply_ctx *a, const char *ptr, size_t plen,
                           target *out)
{
    int rc = locate(a, ptr, plen, 0, out);
    if (rc < 0)
        return rc;
    if (!out->value) {
        if (json_is_array(out->parent))
            return why(a->why, JSONPATCH_ECONFLICT,
                       "index %zu out of range (size %zu)", out->index,
                       json_array_size(out->parent));
        return why(a->why, JSONPATCH_ECONFLICT, "no member \"%.*s\"",
                   (int)(out->klen > 64 ? 64 : out->klen), out->key);
    }
    return 0;
}

/* RFC 6902 add; steals v. */
static int do_add(apply_ctx *a, const char *ptr, size_t plen, json_t *v)
{
    target t;
    int rc = locate(a, ptr, plen, 1, &t);
    if (rc < 0)
        goto done;
    if (!t.parent) {
        json_decref(a->root);
        a->root = v;
        return 0;
    }
    if (json_is_object(t.parent)) {
        rc = json_object_setn_new(t.parent, t.key, t.klen, v);
        v = NULL;
    } else {
        size_t size = json_array_size(t.parent);
        if (t.index > size) {
            rc = why(a->why, JSONPATCH_ECONFLICT,
                     "index %zu out of range (size %zu)", t.index, size);
            goto done;
        }
        rc = json_array_insert_new(t.parent, t.index, v);
        v = NULL;
    }
    if (rc < 0)
        rc = why(a->why, JSONPATCH_ENOMEM, "out of memory");
done:
    json_decref(v);
    return rc;
}

static int do_remove(apply_ctx *a, const char *ptr, size_t plen)
{
    target t;
    if (plen == 0)
        return why(a->why, JSONPATCH_EINVALID,
                   "cannot remove the whole document");
    int rc = locate_existing(a, ptr, plen, &t);
    if (rc < 0)
        return rc;
    if (json_is_object(t.parent))
        json_object_deln(t.parent, t.key, t.klen);
    else
        json_array_remove(t.parent, t.index);
    return 0;
}

/* Steals v. */
static int do_replace(apply_ctx *a, const char *ptr, size_t plen, json_t *v)
{
    target t;
    int rc = locate_existing(a, ptr, plen, &t);
    if (rc < 0) {
        json_decref(v);
        return rc;
    }
    if (!t.parent) {
        json_decref(a->root);
        a->root = v;
        return 0;
    }
    if (json_is_object(t.parent))
        rc = json_object_setn_new(t.parent, t.key, t.klen, v);
    else
        rc = json_array_set_new(t.parent, t.index, v);
    return rc < 0 ? why(a->why, JSONPATCH_ENOMEM, "out of memory") : 0;
}

/* A required string member of an operation. */
static int op_string(apply_ctx *a, const json_t *op, const char *name,
                     const char **s, size_t *len)
{
    const json_t *v = json_object_get(op, name);
    if (!v)
        return why(a->why, JSONPATCH_EINVALID, "missing \"%s\"", name);
    if (!json_is_string(v))
        return why(a->why, JSONPATCH_EINVALID, "\"%s\" is not a string", name);
    *s = json_string_value(v);
    *len = json_string_length(v);
    return 0;
}

static int apply_one(apply_ctx *a, const json_t *op, const char *name,
                     const char *path, size_t plen)
{
    const json_t *value = json_object_get(op, "value");
    const char *from = "";
    size_t flen = 0;
    target t;
    int rc;

    if (!strcmp(name, "remove"))
        return do_remove(a, path, plen);
    if (!strcmp(name, "add") || !strcmp(name, "replace") ||
        !strcmp(name, "test")) {
        if (!value)
            return why(a->why, JSONPATCH_EINVALID, "missing \"value\"");
        if (!strcmp(name, "test")) {
            if ((rc = locate_existing(a, path, plen, &t)) < 0)
                return rc;
            if (!same_value(t.value, value, 1))
                return why(a->why, JSONPATCH_ECONFLICT, "test failed");
            return 0;
        }
        json_t *copy = copy_value(value);
        if (!copy)
            return why(a->why, JSONPATCH_ENOMEM, "out of memory");
        return name[0] == 'a' ? do_add(a, path, plen, copy)
                              : do_replace(a, path, plen, copy);
    }
    if (strcmp(name, "move") != 0 && strcmp(name, "copy") != 0)
        return why(a->why, JSONPATCH_EINVALID, "unknown op \"%.32s\"", name);
    if ((rc = op_string(a, op, "from", &from, &flen)) < 0)
        return rc;
    if ((rc = locate_existing(a, from, flen, &t)) < 0)
        return rc;
    if (name[0] == 'c') {
        json_t *copy = copy_value(t.value);
        if (!copy)
            return why(a->why, JSONPATCH_ENOMEM, "out of memory");
        return do_add(a, path, plen, copy);
    }
    if (flen == plen && !memcmp(from, path, plen))
        return 0; /* moving a value onto itself */
    if (flen < plen && !memcmp(from, path, flen) && path[flen] == '/')
        return why(a->why, JSONPATCH_EINVALID,
                   "cannot move a value into itself");
    json_t *v = json_incref(t.value);
    if ((rc = do_remove(a, from, flen)) < 0) {
        json_decref(v);
        return rc;
    }
    return do_add(a, path, plen, v);
}

int jsonpatch_apply(json_t **doc, const json_t *ops, char *err, size_t errlen)
{
    char reason[WHY_LEN] = "";
    apply_ctx a = {.why = reason};
    int rc = 0;
    size_t k, n, longest = 1;
    const char *name = "", *path = "", *general = NULL;
    size_t plen = 0;

    if (!doc || !*doc)
        general = "no document to patch";
    else if (!json_is_array(ops))
        general = "a patch is a JSON array of operations";
    if (general) {
        if (err && errlen)
            snprintf(err, errlen, "%s", general);
        return JSONPATCH_EINVALID;
    }
    /* One scratch buffer for unescaped tokens: no token is longer than the
     * longest pointer. (Lookups on non-objects and non-strings give 0.) */
    n = json_array_size(ops);
    for (k = 0; k < n; k++) {
        const json_t *op = json_array_get(ops, k);
        size_t pl = json_string_length(json_object_get(op, "path"));
        size_t fl = json_string_length(json_object_get(op, "from"));
        if (pl > longest)
            longest = pl;
        if (fl > longest)
            longest = fl;
    }
    a.tok = malloc(longest);
    a.root = copy_value(*doc);
    if (!a.tok || !a.root) {
        if (err && errlen)
            snprintf(err, errlen, "out of memory");
        rc = JSONPATCH_ENOMEM;
        goto done;
    }
    for (k = 0; k < n; k++) {
        const json_t *op = json_array_get(ops, k);
        size_t nlen;
        name = "";
        path = "";
        plen = 0;
        if (!json_is_object(op))
            rc = why(a.why, JSONPATCH_EINVALID, "not an object");
        else if ((rc = op_string(&a, op, "op", &name, &nlen)) >= 0 &&
                 (rc = op_string(&a, op, "path", &path, &plen)) >= 0)
            rc = apply_one(&a, op, name, path, plen);
        if (rc < 0) {
            if (err && errlen)
                snprintf(err, errlen, "ops[%zu] (%.16s \"%.*s\"): %s", k, name,
                         (int)(plen > 80 ? 80 : plen), path, a.why);
            goto done;
        }
    }
    json_decref(*doc);
    *doc = a.root;
    a.root = NULL;
    if (err && errlen)
        err[0] = '\0';
done:
    free(a.tok);
    json_decref(a.root);
    return rc;
}

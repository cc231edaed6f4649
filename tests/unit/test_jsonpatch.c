/*
 * test_jsonpatch.c - unit and property tests for common/jsonpatch.c, and a
 * micro-benchmark of jsonpatch_diff on game-view-sized documents.
 *
 *   test_jsonpatch                 run the tests (prints one "bench" line)
 *   test_jsonpatch --emit N SEED   print N lines {"from","to","ops"} of
 *                                  random pairs and their C diff, for
 *                                  tests/integration/jsonpatch.test.mjs to
 *                                  check with an independent applier
 *
 * CONCLAVE_TEST_QUICK=1 (the sanitizer run) shrinks the loops.
 */
#include "common/jsonpatch.h"
#include "tests/unit/test.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

static int quick;

/* ------------------------------------------------------------ helpers -- */

static json_t *J(const char *text)
{
    json_error_t e;
    json_t *v = json_loads(text, JSON_DECODE_ANY | JSON_ALLOW_NUL, &e);
    if (!v)
        fprintf(stderr, "bad JSON in test: %s: %s\n", text, e.text);
    return v;
}

static char *dump(const json_t *v)
{
    return json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_SORT_KEYS);
}

/* diff(from, to) applied to a copy of from must give to. Returns 1 if so. */
static int round_trip(const json_t *from, const json_t *to, json_t **ops_out)
{
    json_t *ops = jsonpatch_diff(from, to);
    if (!ops) {
        fprintf(stderr, "jsonpatch_diff returned NULL\n");
        return 0;
    }
    /* apply never modifies *doc, only replaces it: share from */
    json_t *doc = json_incref((json_t *)from);
    char err[256];
    int rc = jsonpatch_apply(&doc, ops, err, sizeof err);
    int ok = rc == 0 && json_equal(doc, to);
    if (!ok) {
        char *f = dump(from), *t = dump(to), *o = dump(ops), *d = dump(doc);
        fprintf(stderr,
                "round trip failed (rc %d: %s)\n from %s\n to   %s\n"
                " ops  %s\n got  %s\n",
                rc, err, f, t, o, d);
        free(f);
        free(t);
        free(o);
        free(d);
    }
    json_decref(doc);
    if (ops_out)
        *ops_out = ops;
    else
        json_decref(ops);
    return ok;
}

/* Diff two JSON texts; check the ops (when `want` is given) and the round
 * trip. */
static int diff_case(const char *from_text, const char *to_text,
                     const char *want)
{
    json_t *from = J(from_text), *to = J(to_text), *ops = NULL;
    int ok = from && to && round_trip(from, to, &ops);
    if (ok && want) {
        json_t *w = J(want);
        if (!w || !json_equal(ops, w)) {
            char *o = dump(ops);
            fprintf(stderr, "diff %s -> %s\n want %s\n got  %s\n", from_text,
                    to_text, want, o);
            free(o);
            ok = 0;
        }
        json_decref(w);
    }
    json_decref(from);
    json_decref(to);
    json_decref(ops);
    return ok;
}

/* Apply a patch to a document text; compare to `want` on success, or check
 * the code, that err mentions `msg`, and that the document is untouched. */
static int apply_case(const char *doc_text, const char *patch, int want_rc,
                      const char *want)
{
    json_t *doc = J(doc_text), *ops = J(patch), *orig = json_deep_copy(doc);
    json_t *before = doc;
    char err[256] = "unset";
    int ok = 0;
    if (!doc || !ops || !orig)
        goto done;
    int rc = jsonpatch_apply(&doc, ops, err, sizeof err);
    if (rc != want_rc) {
        fprintf(stderr, "apply %s to %s: rc %d, want %d (%s)\n", patch,
                doc_text, rc, want_rc, err);
        goto done;
    }
    if (rc == 0) {
        json_t *w = J(want);
        ok = w && json_equal(doc, w);
        if (!ok) {
            char *d = dump(doc);
            fprintf(stderr, "apply %s to %s: got %s, want %s\n", patch,
                    doc_text, d, want);
            free(d);
        }
        json_decref(w);
    } else {
        ok = doc == before && json_equal(doc, orig) &&
             (!want || strstr(err, want));
        if (!ok)
            fprintf(stderr,
                    "apply %s to %s: err \"%s\" (want \"%s\") or doc "
                    "changed\n",
                    patch, doc_text, err, want ? want : "");
    }
done:
    json_decref(doc);
    json_decref(ops);
    json_decref(orig);
    return ok;
}

/* ------------------------------------------------------- random docs -- */

typedef struct rng {
    uint64_t s;
} rng;

static uint64_t rnd(rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static size_t below(rng *r, size_t n)
{
    return n ? (size_t)(rnd(r) % n) : 0;
}

/* Keys that need escaping or look like indices; no "__proto__", which
 * JavaScript appliers refuse on purpose. */
static const char *const KEYS[] = {
    "a",     "b",   "c",   "id",   "name", "hand",
    "score", "a/b", "m~n", "~1",   "~0/",  "",
    " ",     "-",   "0",   "1",    "x y",  "\xc3\xa9t\xc3\xa9",
    "//",    "~~",  "log", "cell", "deep", "\"q\"",
    "tab\t"};
#define NKEYS (sizeof KEYS / sizeof KEYS[0])
static const char *const WORDS[] = {
    "X", "O", "", "draw", "play", "~", "/", "\xe2\x98\x85", "null"};
#define NWORDS (sizeof WORDS / sizeof WORDS[0])

static json_t *gen_scalar(rng *r)
{
    switch (below(r, 7)) {
    case 0:
        return json_null();
    case 1:
        return json_boolean(below(r, 2));
    case 2:
        return json_integer((json_int_t)below(r, 21) - 10);
    case 3:
        return json_real((double)((long)below(r, 41) - 20) / 4.0);
    case 4:
        return json_integer((json_int_t)below(r, 1000000));
    default:
        return json_string(WORDS[below(r, NWORDS)]);
    }
}

static json_t *gen_card(rng *r, uint64_t *next_id)
{
    json_t *c =
        json_pack("{s:I,s:s,s:i}", "id", (json_int_t)(*next_id)++, "name",
                  WORDS[below(r, NWORDS)], "cost", (int)below(r, 8));
    if (below(r, 2))
        json_object_set_new(c, "tags", json_pack("[ss]", "a", "b"));
    return c;
}

static json_t *gen_value(rng *r, int depth, uint64_t *next_id);

static json_t *gen_hand(rng *r, uint64_t *next_id)
{
    json_t *h = json_array();
    for (size_t n = below(r, 11); n > 0; n--)
        json_array_append_new(h, gen_card(r, next_id));
    return h;
}

static json_t *gen_value(rng *r, int depth, uint64_t *next_id)
{
    size_t kind = depth <= 0 ? 0 : below(r, 9);
    json_t *v;
    switch (kind) {
    case 0:
    case 1:
        return gen_scalar(r);
    case 2:
    case 3:
        v = json_object();
        for (size_t n = below(r, 6); n > 0; n--)
            json_object_set_new(v, KEYS[below(r, NKEYS)],
                                gen_value(r, depth - 1, next_id));
        return v;
    case 4:
    case 5:
        v = json_array();
        for (size_t n = below(r, 7); n > 0; n--)
            json_array_append_new(v, gen_value(r, depth - 1, next_id));
        return v;
    case 6:
        return gen_hand(r, next_id);
    case 7:
        v = json_array();
        for (int i = 0; i < 9; i++)
            json_array_append_new(v, below(r, 3) ? json_null()
                                                 : json_string(WORDS[i % 2]));
        return v;
    default: /* a log: short strings, some repeated */
        v = json_array();
        for (size_t n = below(r, 12); n > 0; n--)
            json_array_append_new(v, json_pack("{s:i,s:s}", "t", (int)n, "msg",
                                               WORDS[below(r, NWORDS)]));
        return v;
    }
}

/* A game view: players with hands, a 9-cell board, a log. */
static json_t *gen_view(rng *r, int players, int cards, int log,
                        uint64_t *next_id)
{
    json_t *ps = json_array(), *board = json_array(), *lg = json_array();
    for (int p = 0; p < players; p++) {
        json_t *hand = json_array();
        for (int c = 0; c < cards; c++)
            json_array_append_new(hand, gen_card(r, next_id));
        json_array_append_new(ps, json_pack("{s:i,s:s,s:i,s:o,s:b}", "seat", p,
                                            "name", WORDS[below(r, NWORDS)],
                                            "score", (int)below(r, 50), "hand",
                                            hand, "ready", (int)below(r, 2)));
    }
    for (int i = 0; i < 9; i++)
        json_array_append_new(board, below(r, 2) ? json_null()
                                                 : json_string(WORDS[i % 2]));
    for (int i = 0; i < log; i++)
        json_array_append_new(lg, json_pack("{s:i,s:s,s:i}", "turn", i, "msg",
                                            "played a card", "seat", i % 4));
    return json_pack("{s:s,s:i,s:o,s:o,s:o,s:{s:s,s:n}}", "ruleset", "sprint",
                     "turn", (int)below(r, 100), "players", ps, "board", board,
                     "log", lg, "window", "id", "main", "deadline");
}

/* Every container in v, for picking a place to mutate. */
typedef struct nodes {
    json_t **v;
    size_t n, cap;
} nodes;

static void collect(nodes *ns, json_t *v)
{
    if (!json_is_object(v) && !json_is_array(v))
        return;
    if (ns->n == ns->cap) {
        ns->cap = ns->cap ? 2 * ns->cap : 32;
        ns->v = realloc(ns->v, ns->cap * sizeof(json_t *));
        if (!ns->v)
            abort();
    }
    ns->v[ns->n++] = v;
    if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++)
            collect(ns, json_array_get(v, i));
    } else {
        for (void *it = json_object_iter(v); it;
             it = json_object_iter_next(v, it))
            collect(ns, json_object_iter_value(it));
    }
}

/* A random element of array a, deep-copied, or a fresh value. */
static json_t *sibling_or_new(rng *r, json_t *a, uint64_t *next_id)
{
    size_t n = json_array_size(a);
    json_t *first = json_array_get(a, 0);
    if (n && below(r, 2))
        return json_deep_copy(json_array_get(a, below(r, n)));
    if (json_is_object(first) && json_object_get(first, "id"))
        return gen_card(r, next_id);
    return gen_value(r, 2, next_id);
}

/* One random edit somewhere in *root. */
static void mutate(rng *r, json_t **root, uint64_t *next_id)
{
    nodes ns = {0};
    if (below(r, 40) == 0 || !(json_is_object(*root) || json_is_array(*root))) {
        json_decref(*root);
        *root = gen_value(r, 3, next_id);
        return;
    }
    collect(&ns, *root);
    json_t *v = ns.v[below(r, ns.n)];
    free(ns.v);

    if (json_is_object(v)) {
        size_t n = json_object_size(v), pick = below(r, n ? n : 1);
        void *it = json_object_iter(v);
        while (it && pick-- > 0)
            it = json_object_iter_next(v, it);
        const char *key = it ? json_object_iter_key(it) : NULL;
        switch (below(r, 4)) {
        case 0: /* add or overwrite */
            json_object_set_new(v, KEYS[below(r, NKEYS)],
                                gen_value(r, 2, next_id));
            break;
        case 1:
            if (key)
                json_object_del(v, key);
            break;
        case 2: /* a small change: a scalar, or a type change */
            if (key)
                json_object_set_new(v, key, gen_scalar(r));
            break;
        default:
            if (key)
                json_object_set_new(v, key, gen_value(r, 3, next_id));
            break;
        }
        return;
    }

    size_t n = json_array_size(v);
    size_t i = below(r, n + 1), j = below(r, n ? n : 1);
    switch (below(r, 9)) {
    case 0: /* insert anywhere */
    case 1:
        json_array_insert_new(v, i, sibling_or_new(r, v, next_id));
        break;
    case 2: /* remove anywhere */
    case 3:
        if (n)
            json_array_remove(v, j);
        break;
    case 4: /* move an element (a card moved within a hand) */
        if (n > 1) {
            json_t *e = json_incref(json_array_get(v, j));
            json_array_remove(v, j);
            json_array_insert_new(v, below(r, n), e);
        }
        break;
    case 5: /* append, like a log */
        for (size_t k = below(r, 3) + 1; k > 0; k--)
            json_array_append_new(v, sibling_or_new(r, v, next_id));
        break;
    case 6: /* replace an element */
        if (n)
            json_array_set_new(v, j, gen_value(r, 2, next_id));
        break;
    case 7: /* drop from the front (a log window sliding) */
        for (size_t k = below(r, 3) + 1; k > 0 && json_array_size(v); k--)
            json_array_remove(v, 0);
        break;
    default: /* reverse a stretch */
        if (n > 1) {
            size_t lo = below(r, n), hi = lo + below(r, n - lo);
            for (; lo < hi; lo++, hi--) {
                json_t *x = json_incref(json_array_get(v, lo));
                json_array_set(v, lo, json_array_get(v, hi));
                json_array_set_new(v, hi, x);
            }
        }
        break;
    }
}

/* A random (from, to) pair: a view or random doc, and a mutated copy. */
static void gen_pair(rng *r, json_t **from, json_t **to)
{
    uint64_t next_id = 1;
    size_t kind = below(r, 10);
    if (kind < 4)
        *from = gen_view(r, 1 + (int)below(r, 4), (int)below(r, 10),
                         (int)below(r, 15), &next_id);
    else
        *from = gen_value(r, 1 + (int)below(r, 5), &next_id);
    if (kind == 9) { /* unrelated documents */
        *to = gen_value(r, 1 + (int)below(r, 5), &next_id);
        return;
    }
    *to = json_deep_copy(*from);
    for (size_t k = below(r, 6) + (kind == 8 ? 10 : 1); k > 0; k--)
        mutate(r, to, &next_id);
}

/* -------------------------------------------------------- diff cases -- */

static void test_equal_documents(void)
{
    CHECK(diff_case("{}", "{}", "[]"));
    CHECK(diff_case("[]", "[]", "[]"));
    CHECK(diff_case("null", "null", "[]"));
    CHECK(diff_case("{\"a\":[1,{\"b\":null}],\"c\":\"x\"}",
                    "{\"c\":\"x\",\"a\":[1,{\"b\":null}]}", "[]"));
    json_t *v = J("{\"a\":[1,2,3]}");
    json_t *ops = jsonpatch_diff(v, v);
    CHECK(ops && json_array_size(ops) == 0);
    json_decref(ops);
    json_decref(v);
    CHECK(jsonpatch_diff(NULL, NULL) == NULL);
}

static void test_object_ops(void)
{
    CHECK(diff_case("{\"a\":1,\"b\":2}", "{\"a\":1,\"b\":3,\"c\":4}",
                    "[{\"op\":\"replace\",\"path\":\"/b\",\"value\":3},"
                    "{\"op\":\"add\",\"path\":\"/c\",\"value\":4}]"));
    CHECK(diff_case("{\"a\":1,\"b\":2}", "{\"a\":1}",
                    "[{\"op\":\"remove\",\"path\":\"/b\"}]"));
    CHECK(
        diff_case("{}", "{\"a\":{\"b\":[1]}}",
                  "[{\"op\":\"add\",\"path\":\"/a\",\"value\":{\"b\":[1]}}]"));
    CHECK(diff_case("{\"a\":{\"b\":[1]}}", "{}",
                    "[{\"op\":\"remove\",\"path\":\"/a\"}]"));
    CHECK(diff_case("{\"a\":1}", "{\"b\":1}",
                    "[{\"op\":\"remove\",\"path\":\"/a\"},"
                    "{\"op\":\"add\",\"path\":\"/b\",\"value\":1}]"));
}

static void test_nested(void)
{
    CHECK(diff_case("{\"p\":{\"q\":{\"r\":1,\"s\":[1,2]}}}",
                    "{\"p\":{\"q\":{\"r\":2,\"s\":[1,2]}}}",
                    "[{\"op\":\"replace\",\"path\":\"/p/q/r\",\"value\":2}]"));
    CHECK(diff_case("{\"p\":[{\"q\":[0,{\"r\":true}]}]}",
                    "{\"p\":[{\"q\":[0,{\"r\":false}]}]}",
                    "[{\"op\":\"replace\",\"path\":\"/p/0/q/1/r\","
                    "\"value\":false}]"));
    CHECK(diff_case("[[[1,2,3]]]", "[[[1,3]]]",
                    "[{\"op\":\"remove\",\"path\":\"/0/0/1\"}]"));
}

static void test_array_edges(void)
{
    /* middle, start, end; appends use explicit indices, never "/-" */
    CHECK(diff_case("[1,2,3]", "[1,9,2,3]",
                    "[{\"op\":\"add\",\"path\":\"/1\",\"value\":9}]"));
    CHECK(
        diff_case("[1,2,3]", "[1,3]", "[{\"op\":\"remove\",\"path\":\"/1\"}]"));
    CHECK(diff_case("[1,2,3]", "[0,1,2,3]",
                    "[{\"op\":\"add\",\"path\":\"/0\",\"value\":0}]"));
    CHECK(
        diff_case("[1,2,3]", "[2,3]", "[{\"op\":\"remove\",\"path\":\"/0\"}]"));
    CHECK(diff_case("[1,2]", "[1,2,3,4]",
                    "[{\"op\":\"add\",\"path\":\"/2\",\"value\":3},"
                    "{\"op\":\"add\",\"path\":\"/3\",\"value\":4}]"));
    CHECK(diff_case("[1,2,3,4]", "[1,2]",
                    "[{\"op\":\"remove\",\"path\":\"/3\"},"
                    "{\"op\":\"remove\",\"path\":\"/2\"}]"));
    CHECK(diff_case("[]", "[1,2]",
                    "[{\"op\":\"add\",\"path\":\"/0\",\"value\":1},"
                    "{\"op\":\"add\",\"path\":\"/1\",\"value\":2}]"));
    CHECK(diff_case("[1,2]", "[]",
                    "[{\"op\":\"remove\",\"path\":\"/1\"},"
                    "{\"op\":\"remove\",\"path\":\"/0\"}]"));
    /* a log window sliding: drop the oldest, add the newest */
    CHECK(diff_case("[\"l1\",\"l2\",\"l3\",\"l4\"]",
                    "[\"l2\",\"l3\",\"l4\",\"l5\"]",
                    "[{\"op\":\"remove\",\"path\":\"/0\"},"
                    "{\"op\":\"add\",\"path\":\"/3\",\"value\":\"l5\"}]"));
    /* insertion and removal in one middle */
    CHECK(diff_case("[0,1,2,3,4,5]", "[0,2,3,9,4,5]",
                    "[{\"op\":\"remove\",\"path\":\"/1\"},"
                    "{\"op\":\"add\",\"path\":\"/3\",\"value\":9}]"));
    /* duplicates */
    CHECK(
        diff_case("[1,1,1]", "[1,1]", "[{\"op\":\"remove\",\"path\":\"/2\"}]"));
    CHECK(diff_case("[1,2,1,2]", "[2,1,2,1]", NULL));
}

#define CARD(id) "{\"id\":" #id ",\"name\":\"c" #id "\",\"cost\":" #id "}"

static void test_hands(void)
{
    const char *hand = "{\"hand\":[" CARD(1) "," CARD(2) "," CARD(3) "," CARD(
        4) "," CARD(5) "]}";
    /* a card played from the middle */
    CHECK(diff_case(
        hand, "{\"hand\":[" CARD(1) "," CARD(2) "," CARD(4) "," CARD(5) "]}",
        "[{\"op\":\"remove\",\"path\":\"/hand/2\"}]"));
    /* a card drawn into the middle */
    CHECK(diff_case(
        hand,
        "{\"hand\":[" CARD(1) "," CARD(2) "," CARD(9) "," CARD(3) "," CARD(
            4) "," CARD(5) "]}",
        "[{\"op\":\"add\",\"path\":\"/hand/2\",\"value\":" CARD(9) "}]"));
    /* the first card moved to the end: one remove and one add */
    CHECK(diff_case(
        hand,
        "{\"hand\":[" CARD(2) "," CARD(3) "," CARD(4) "," CARD(5) "," CARD(
            1) "]}",
        "[{\"op\":\"remove\",\"path\":\"/hand/0\"},"
        "{\"op\":\"add\",\"path\":\"/hand/4\",\"value\":" CARD(1) "}]"));
    /* two neighbours swapped */
    CHECK(diff_case(
        hand,
        "{\"hand\":[" CARD(1) "," CARD(3) "," CARD(2) "," CARD(4) "," CARD(
            5) "]}",
        "[{\"op\":\"remove\",\"path\":\"/hand/1\"},"
        "{\"op\":\"add\",\"path\":\"/hand/2\",\"value\":" CARD(2) "}]"));
    /* one card's field edited: one replace inside it */
    CHECK(diff_case(
        hand,
        "{\"hand\":[" CARD(1) "," CARD(2) ",{\"id\":3,\"name\":\"c3\","
                                          "\"cost\":0}," CARD(4) "," CARD(
                                              5) "]}",
        "[{\"op\":\"replace\",\"path\":\"/hand/2/cost\",\"value\":0}]"));
    /* one card edited and its neighbour played */
    CHECK(diff_case(
        hand,
        "{\"hand\":[" CARD(1) ",{\"id\":2,\"name\":\"c2\",\"cost\":7}," CARD(
            4) "," CARD(5) "]}",
        "[{\"op\":\"replace\",\"path\":\"/hand/1/cost\",\"value\":7},"
        "{\"op\":\"remove\",\"path\":\"/hand/2\"}]"));
    /* the whole hand replaced, shuffled, emptied */
    CHECK(diff_case(hand,
                    "{\"hand\":[" CARD(5) "," CARD(3) "," CARD(1) "," CARD(
                        4) "," CARD(2) "]}",
                    NULL));
    CHECK(diff_case(hand, "{\"hand\":[]}", NULL));
}

static void test_random_hand_edits(void)
{
    rng r = {42};
    int n_runs = quick ? 200 : 2000;
    for (int run = 0; run < n_runs; run++) {
        uint64_t next_id = 1;
        size_t n = 1 + below(&r, 12);
        json_t *from = json_array();
        for (size_t k = 0; k < n; k++)
            json_array_append_new(from, gen_card(&r, &next_id));
        json_t *to = json_deep_copy(from), *ops = NULL;
        size_t i = below(&r, n), want_max;
        switch (run % 3) {
        case 0: /* play a card: exactly one remove at its index */
            json_array_remove(to, i);
            want_max = 1;
            break;
        case 1: /* draw a card anywhere: exactly one add */
            i = below(&r, n + 1);
            json_array_insert_new(to, i, gen_card(&r, &next_id));
            want_max = 1;
            break;
        default: { /* move a card: at most a remove and an add */
            json_t *c = json_incref(json_array_get(to, i));
            json_array_remove(to, i);
            json_array_insert_new(to, below(&r, n), c);
            want_max = 2;
            break;
        }
        }
        CHECK(round_trip(from, to, &ops));
        CHECKF(ops && json_array_size(ops) <= want_max,
               "run %d: %zu ops, want at most %zu", run,
               ops ? json_array_size(ops) : 0, want_max);
        if (run % 3 == 0 && ops && json_array_size(ops) == 1) {
            char want[32];
            snprintf(want, sizeof want, "/%zu", i);
            CHECK_EQ_STR(json_string_value(
                             json_object_get(json_array_get(ops, 0), "path")),
                         want);
        }
        json_decref(ops);
        json_decref(from);
        json_decref(to);
    }
}

static void test_board(void)
{
    CHECK(diff_case(
        "{\"board\":[null,null,null,null,null,null,null,null,null]}",
        "{\"board\":[null,null,\"X\",null,null,null,\"O\",null,null]}",
        "[{\"op\":\"replace\",\"path\":\"/board/2\",\"value\":\"X\"},"
        "{\"op\":\"replace\",\"path\":\"/board/6\",\"value\":\"O\"}]"));
    CHECK(diff_case("[{\"m\":null},{\"m\":null},{\"m\":\"X\"}]",
                    "[{\"m\":\"O\"},{\"m\":\"X\"},{\"m\":\"X\"}]",
                    "[{\"op\":\"replace\",\"path\":\"/0/m\",\"value\":\"O\"},"
                    "{\"op\":\"replace\",\"path\":\"/1/m\",\"value\":\"X\"}]"));
}

static void test_type_changes(void)
{
    CHECK(diff_case(
        "{\"a\":[1]}", "{\"a\":{\"0\":1}}",
        "[{\"op\":\"replace\",\"path\":\"/a\",\"value\":{\"0\":1}}]"));
    CHECK(diff_case("{\"a\":null}", "{\"a\":{}}",
                    "[{\"op\":\"replace\",\"path\":\"/a\",\"value\":{}}]"));
    CHECK(diff_case("{\"a\":true}", "{\"a\":false}",
                    "[{\"op\":\"replace\",\"path\":\"/a\",\"value\":false}]"));
    CHECK(diff_case("{\"a\":1}", "{\"a\":1.0}",
                    "[{\"op\":\"replace\",\"path\":\"/a\",\"value\":1.0}]"));
    CHECK(
        diff_case("[1]", "{\"a\":1}",
                  "[{\"op\":\"replace\",\"path\":\"\",\"value\":{\"a\":1}}]"));
    CHECK(diff_case("1", "\"1\"",
                    "[{\"op\":\"replace\",\"path\":\"\",\"value\":\"1\"}]"));
    CHECK(diff_case("null", "[null]",
                    "[{\"op\":\"replace\",\"path\":\"\",\"value\":[null]}]"));
    CHECK(diff_case("\"ab\"", "\"ab\\u0000c\"", NULL));
    CHECK(
        diff_case("[1,\"1\",[1],{\"1\":1}]", "[{\"1\":1},[1],\"1\",1]", NULL));
}

static void test_pointer_escaping(void)
{
    CHECK(diff_case("{\"a/b\":1,\"m~n\":2,\"~1\":3,\"\":4,\"~/\":{\"/\":5}}",
                    "{\"a/b\":0,\"m~n\":0,\"~1\":0,\"\":0,\"~/\":{\"/\":0}}",
                    "[{\"op\":\"replace\",\"path\":\"/a~1b\",\"value\":0},"
                    "{\"op\":\"replace\",\"path\":\"/m~0n\",\"value\":0},"
                    "{\"op\":\"replace\",\"path\":\"/~01\",\"value\":0},"
                    "{\"op\":\"replace\",\"path\":\"/\",\"value\":0},"
                    "{\"op\":\"replace\",\"path\":\"/~0~1/~1\",\"value\":0}]"));
    CHECK(diff_case("{}", "{\"-\":[1],\"0\":2}",
                    "[{\"op\":\"add\",\"path\":\"/-\",\"value\":[1]},"
                    "{\"op\":\"add\",\"path\":\"/0\",\"value\":2}]"));

    /* A key with a NUL byte, built by hand (the parser refuses them).
     * json_equal and json_deep_copy cut such keys at the NUL, so compare
     * the printed (sorted) text instead. */
    json_t *from = json_object(), *to = json_object();
    json_object_setn_new(from, "a\0b", 3, json_integer(1));
    json_object_setn_new(to, "a\0b", 3, json_integer(2));
    json_object_setn_new(to, "a", 1, json_integer(3));
    json_t *ops = jsonpatch_diff(from, to), *doc = json_incref(from);
    REQUIRE(ops && json_array_size(ops) == 2);
    CHECK(json_string_length(json_object_get(json_array_get(ops, 0), "path")) ==
          4);
    CHECK(jsonpatch_apply(&doc, ops, NULL, 0) == 0);
    char *got = dump(doc), *want = dump(to);
    CHECK_EQ_STR(got, want);
    free(got);
    free(want);
    json_decref(doc);
    json_decref(ops);
    /* inside an array, where json_equal would call the two cards equal */
    json_t *fa = json_pack("[{s:i}]", "x", 1),
           *ta = json_pack("[{s:i}]", "a", 1);
    json_object_setn_new(json_array_get(fa, 0), "a\0b", 3, json_integer(1));
    json_object_setn_new(json_array_get(ta, 0), "x", 1, json_integer(1));
    ops = jsonpatch_diff(fa, ta);
    CHECK(ops && json_array_size(ops) == 2);
    json_decref(ops);
    json_decref(fa);
    json_decref(ta);
    json_decref(from);
    json_decref(to);
}

static void test_big_arrays(void)
{
    /* Middles too big for the full edit table go through the band or the
     * element-wise fallback; all must still round-trip. */
    json_t *a = json_array(), *b = json_array(), *c = json_array();
    for (int i = 0; i < 3000; i++) {
        json_array_append_new(a, json_integer(i));
        if (i % 97 != 5)
            json_array_append_new(b, json_integer(i));
        if (i % 2 == 0)
            json_array_append_new(b, json_integer(-i));
        json_array_append_new(c, json_integer(i % 3 ? i : -i));
    }
    json_t *ops = NULL;
    CHECK(round_trip(a, b, NULL));
    CHECK(round_trip(b, a, NULL));
    CHECK(round_trip(a, c, &ops));
    /* cell by cell: 3, 6 ... 2997 (0 == -0) */
    CHECKF(ops && json_array_size(ops) == 999, "%zu ops",
           ops ? json_array_size(ops) : 0);
    json_decref(ops);
    /* sliding window over a long log: band keeps it at two ops */
    json_t *l1 = json_array(), *l2 = json_array();
    for (int i = 0; i < 1000; i++) {
        json_array_append_new(l1, json_pack("{s:i}", "t", i));
        json_array_append_new(l2, json_pack("{s:i}", "t", i + 1));
    }
    CHECK(round_trip(l1, l2, &ops));
    CHECK(ops && json_array_size(ops) == 2);
    json_decref(ops);
    /* very different lengths: fallback */
    json_t *small = json_pack("[i,i]", 7, 8);
    CHECK(round_trip(a, small, NULL));
    CHECK(round_trip(small, a, NULL));
    json_decref(small);
    json_decref(l1);
    json_decref(l2);
    json_decref(a);
    json_decref(b);
    json_decref(c);
}

static void test_deep_nesting(void)
{
    json_t *x = json_integer(1), *y = json_integer(2);
    for (int i = 0; i < 1500; i++) {
        x = json_pack("[o]", x);
        y = i % 2 ? json_pack("{s:o}", "k", y) : json_pack("[io]", 0, y);
    }
    CHECK(round_trip(x, y, NULL));
    CHECK(round_trip(y, x, NULL));
    json_decref(x);
    json_decref(y);
}

static void test_property_random_pairs(void)
{
    rng r = {20240601};
    int n = quick ? 500 : 5000, fails = 0;
    size_t total_ops = 0;
    for (int k = 0; k < n && fails < 5; k++) {
        json_t *from, *to, *ops = NULL, *self;
        gen_pair(&r, &from, &to);
        if (!round_trip(from, to, &ops)) {
            fails++;
            CHECKF(0, "pair %d", k);
        }
        total_ops += ops ? json_array_size(ops) : 0;
        self = jsonpatch_diff(to, to);
        CHECK(self && json_array_size(self) == 0);
        /* the ops share nothing with `to`: dropping `to` leaves them valid */
        json_decref(self);
        json_decref(to);
        char *s = dump(ops);
        CHECK(s != NULL);
        free(s);
        json_decref(ops);
        json_decref(from);
    }
    fprintf(stderr, "     %d random pairs, %zu ops in all\n", n, total_ops);
}

/* ------------------------------------------------------- apply cases -- */

static void test_apply_rfc_examples(void)
{
    /* RFC 6902 appendix A */
    CHECK(apply_case("{\"foo\":\"bar\"}",
                     "[{\"op\":\"add\",\"path\":\"/baz\",\"value\":\"qux\"}]",
                     0, "{\"baz\":\"qux\",\"foo\":\"bar\"}"));
    CHECK(apply_case("{\"foo\":[\"bar\",\"baz\"]}",
                     "[{\"op\":\"add\",\"path\":\"/foo/1\",\"value\":\"qux\"}]",
                     0, "{\"foo\":[\"bar\",\"qux\",\"baz\"]}"));
    CHECK(apply_case("{\"baz\":\"qux\",\"foo\":\"bar\"}",
                     "[{\"op\":\"remove\",\"path\":\"/baz\"}]", 0,
                     "{\"foo\":\"bar\"}"));
    CHECK(apply_case("{\"foo\":[\"bar\",\"qux\",\"baz\"]}",
                     "[{\"op\":\"remove\",\"path\":\"/foo/1\"}]", 0,
                     "{\"foo\":[\"bar\",\"baz\"]}"));
    CHECK(
        apply_case("{\"baz\":\"qux\",\"foo\":\"bar\"}",
                   "[{\"op\":\"replace\",\"path\":\"/baz\",\"value\":\"boo\"}]",
                   0, "{\"baz\":\"boo\",\"foo\":\"bar\"}"));
    CHECK(
        apply_case("{\"foo\":{\"bar\":\"baz\",\"waldo\":\"fred\"},\"qux\":{"
                   "\"corge\":\"grault\"}}",
                   "[{\"op\":\"move\",\"from\":\"/foo/waldo\",\"path\":\"/qux/"
                   "thud\"}]",
                   0,
                   "{\"foo\":{\"bar\":\"baz\"},\"qux\":{\"corge\":\"grault\","
                   "\"thud\":\"fred\"}}"));
    CHECK(apply_case(
        "{\"foo\":[\"all\",\"grass\",\"cows\",\"eat\"]}",
        "[{\"op\":\"move\",\"from\":\"/foo/1\",\"path\":\"/foo/3\"}]", 0,
        "{\"foo\":[\"all\",\"cows\",\"eat\",\"grass\"]}"));
    CHECK(apply_case("{\"baz\":\"qux\",\"foo\":[\"a\",2,\"c\"]}",
                     "[{\"op\":\"test\",\"path\":\"/baz\",\"value\":\"qux\"},"
                     "{\"op\":\"test\",\"path\":\"/foo/1\",\"value\":2}]",
                     0, "{\"baz\":\"qux\",\"foo\":[\"a\",2,\"c\"]}"));
    CHECK(apply_case("{\"baz\":\"qux\"}",
                     "[{\"op\":\"test\",\"path\":\"/baz\",\"value\":\"bar\"}]",
                     JSONPATCH_ECONFLICT, "test failed"));
    CHECK(apply_case("{\"foo\":\"bar\"}",
                     "[{\"op\":\"add\",\"path\":\"/child\",\"value\":{\"grand"
                     "child\":{}}}]",
                     0, "{\"foo\":\"bar\",\"child\":{\"grandchild\":{}}}"));
    CHECK(apply_case("{\"foo\":\"bar\"}",
                     "[{\"op\":\"add\",\"path\":\"/baz\",\"value\":\"qux\","
                     "\"xyz\":123}]",
                     0, "{\"foo\":\"bar\",\"baz\":\"qux\"}"));
    CHECK(
        apply_case("{\"foo\":\"bar\"}",
                   "[{\"op\":\"add\",\"path\":\"/baz/bat\",\"value\":\"qux\"}]",
                   JSONPATCH_ECONFLICT, "no member \"baz\""));
    CHECK(apply_case("{\"/\":9,\"~1\":10}",
                     "[{\"op\":\"test\",\"path\":\"/~01\",\"value\":10}]", 0,
                     "{\"/\":9,\"~1\":10}"));
    CHECK(apply_case("{\"/\":9,\"~1\":10}",
                     "[{\"op\":\"test\",\"path\":\"/~01\",\"value\":\"10\"}]",
                     JSONPATCH_ECONFLICT, "test failed"));
    CHECK(apply_case("{\"foo\":[\"bar\"]}",
                     "[{\"op\":\"add\",\"path\":\"/foo/-\",\"value\":[\"abc\","
                     "\"def\"]}]",
                     0, "{\"foo\":[\"bar\",[\"abc\",\"def\"]]}"));
}

static void test_apply_more(void)
{
    /* root */
    CHECK(apply_case("{\"a\":1}",
                     "[{\"op\":\"replace\",\"path\":\"\",\"value\":[1]}]", 0,
                     "[1]"));
    CHECK(apply_case("{\"a\":1}",
                     "[{\"op\":\"add\",\"path\":\"\",\"value\":2}]", 0, "2"));
    CHECK(apply_case("{\"a\":1}", "[{\"op\":\"remove\",\"path\":\"\"}]",
                     JSONPATCH_EINVALID, "whole document"));
    CHECK(apply_case("{\"a\":{\"b\":1}}",
                     "[{\"op\":\"move\",\"from\":\"/a\",\"path\":\"\"}]", 0,
                     "{\"b\":1}"));
    CHECK(apply_case("[1,2]",
                     "[{\"op\":\"test\",\"path\":\"\",\"value\":[1,2.0]}]", 0,
                     "[1,2]"));
    /* test compares numbers by value and objects whatever their order */
    CHECK(apply_case("{\"a\":{\"x\":[1.5,2],\"y\":null}}",
                     "[{\"op\":\"test\",\"path\":\"/a\",\"value\":"
                     "{\"y\":null,\"x\":[1.5,2.0]}}]",
                     0, "{\"a\":{\"x\":[1.5,2],\"y\":null}}"));
    CHECK(apply_case("{\"a\":2.0}",
                     "[{\"op\":\"test\",\"path\":\"/a\",\"value\":2}]", 0,
                     "{\"a\":2.0}"));
    CHECK(apply_case("{\"a\":2.5}",
                     "[{\"op\":\"test\",\"path\":\"/a\",\"value\":2}]",
                     JSONPATCH_ECONFLICT, "test failed"));
    CHECK(apply_case("{\"a\":1e300}",
                     "[{\"op\":\"test\",\"path\":\"/a\",\"value\":1}]",
                     JSONPATCH_ECONFLICT, "test failed"));
    CHECK(apply_case("{\"a\":{\"x\":1}}",
                     "[{\"op\":\"test\",\"path\":\"/a\",\"value\":{\"x\":1,"
                     "\"y\":1}}]",
                     JSONPATCH_ECONFLICT, "test failed"));
    CHECK(apply_case("{\"a\":{\"x\":1}}",
                     "[{\"op\":\"test\",\"path\":\"/a\",\"value\":{\"y\":1}}]",
                     JSONPATCH_ECONFLICT, "test failed"));
    CHECK(apply_case("{\"a\":[[1]]}",
                     "[{\"op\":\"add\",\"path\":\"/a/1/0\",\"value\":0}]",
                     JSONPATCH_ECONFLICT, "index 1 out of range (size 1)"));
    CHECK(apply_case("{\"a\":{}}",
                     "[{\"op\":\"copy\",\"from\":\"/b\",\"path\":\"/c\"}]",
                     JSONPATCH_ECONFLICT, "no member \"b\""));
    /* copy, move onto itself, into itself */
    CHECK(apply_case("{\"a\":{\"b\":1}}",
                     "[{\"op\":\"copy\",\"from\":\"/a\",\"path\":\"/a/c\"}]", 0,
                     "{\"a\":{\"b\":1,\"c\":{\"b\":1}}}"));
    CHECK(apply_case("{\"a\":[1]}",
                     "[{\"op\":\"move\",\"from\":\"/a\",\"path\":\"/a\"}]", 0,
                     "{\"a\":[1]}"));
    CHECK(apply_case("{\"a\":{\"b\":1}}",
                     "[{\"op\":\"move\",\"from\":\"/a\",\"path\":\"/a/c\"}]",
                     JSONPATCH_EINVALID, "into itself"));
    CHECK(apply_case("{\"a\":1,\"ab\":2}",
                     "[{\"op\":\"move\",\"from\":\"/a\",\"path\":\"/ab\"}]", 0,
                     "{\"ab\":1}"));
    /* replace needs an existing target (RFC 6902 4.3): never an add */
    CHECK(apply_case("{\"a\":1}",
                     "[{\"op\":\"replace\",\"path\":\"/b\",\"value\":2}]",
                     JSONPATCH_ECONFLICT, NULL));
    CHECK(apply_case("{\"a\":[1]}",
                     "[{\"op\":\"replace\",\"path\":\"/a/1\",\"value\":2}]",
                     JSONPATCH_ECONFLICT, NULL));
    CHECK(apply_case("{\"a\":[1]}",
                     "[{\"op\":\"replace\",\"path\":\"/a/-\",\"value\":2}]",
                     JSONPATCH_ECONFLICT, NULL));
    /* array indices */
    CHECK(apply_case("[1,2]", "[{\"op\":\"add\",\"path\":\"/2\",\"value\":3}]",
                     0, "[1,2,3]"));
    CHECK(apply_case("[1,2]", "[{\"op\":\"add\",\"path\":\"/3\",\"value\":3}]",
                     JSONPATCH_ECONFLICT, "index 3 out of range (size 2)"));
    CHECK(apply_case("[1,2]", "[{\"op\":\"remove\",\"path\":\"/2\"}]",
                     JSONPATCH_ECONFLICT, "out of range"));
    CHECK(apply_case("[1,2]", "[{\"op\":\"remove\",\"path\":\"/-\"}]",
                     JSONPATCH_ECONFLICT, "\"-\""));
    CHECK(apply_case("[1,2]",
                     "[{\"op\":\"replace\",\"path\":\"/01\",\"value\":0}]",
                     JSONPATCH_EINVALID, "bad array index \"01\""));
    CHECK(apply_case("[1,2]",
                     "[{\"op\":\"replace\",\"path\":\"/1e0\",\"value\":0}]",
                     JSONPATCH_EINVALID, "bad array index"));
    CHECK(apply_case(
        "[1,2]", "[{\"op\":\"remove\",\"path\":\"/99999999999999999999999\"}]",
        JSONPATCH_ECONFLICT, "out of range"));
    CHECK(apply_case("{\"a\":[[1]]}",
                     "[{\"op\":\"add\",\"path\":\"/a/-/0\",\"value\":0}]",
                     JSONPATCH_ECONFLICT, NULL));
    CHECK(apply_case("{\"-\":1}", "[{\"op\":\"remove\",\"path\":\"/-\"}]", 0,
                     "{}"));
    CHECK(apply_case("{\"\":{\"\":1}}",
                     "[{\"op\":\"replace\",\"path\":\"//\",\"value\":2}]", 0,
                     "{\"\":{\"\":2}}"));
    /* scalars have no children */
    CHECK(apply_case("{\"a\":\"str\"}",
                     "[{\"op\":\"add\",\"path\":\"/a/0\",\"value\":0}]",
                     JSONPATCH_ECONFLICT, "scalar"));
    /* malformed */
    CHECK(
        apply_case("{}", "{\"op\":\"add\"}", JSONPATCH_EINVALID, "JSON array"));
    CHECK(apply_case("{}", "[1]", JSONPATCH_EINVALID, "ops[0]"));
    CHECK(apply_case("{}", "[{\"path\":\"/a\"}]", JSONPATCH_EINVALID,
                     "missing \"op\""));
    CHECK(apply_case("{}", "[{\"op\":\"add\",\"value\":1}]", JSONPATCH_EINVALID,
                     "missing \"path\""));
    CHECK(apply_case("{}", "[{\"op\":\"add\",\"path\":\"/a\"}]",
                     JSONPATCH_EINVALID, "missing \"value\""));
    CHECK(apply_case("{}", "[{\"op\":\"add\",\"path\":\"/a\",\"value\":null}]",
                     0, "{\"a\":null}"));
    CHECK(apply_case("{}", "[{\"op\":\"add\",\"path\":1,\"value\":1}]",
                     JSONPATCH_EINVALID, "\"path\" is not a string"));
    CHECK(apply_case("{}", "[{\"op\":\"frob\",\"path\":\"/a\"}]",
                     JSONPATCH_EINVALID, "unknown op \"frob\""));
    CHECK(apply_case("{}", "[{\"op\":\"move\",\"path\":\"/a\"}]",
                     JSONPATCH_EINVALID, "missing \"from\""));
    CHECK(apply_case("{}", "[{\"op\":\"add\",\"path\":\"a\",\"value\":1}]",
                     JSONPATCH_EINVALID, "starts with"));
    CHECK(apply_case("{\"a\":1}", "[{\"op\":\"remove\",\"path\":\"/~2\"}]",
                     JSONPATCH_EINVALID, "\"~\""));
    CHECK(apply_case("{\"a\":1}", "[{\"op\":\"remove\",\"path\":\"/a~\"}]",
                     JSONPATCH_EINVALID, "\"~\""));
    /* all or nothing: the second op fails, the first is not kept */
    CHECK(apply_case("{\"a\":1}",
                     "[{\"op\":\"add\",\"path\":\"/b\",\"value\":2},"
                     "{\"op\":\"remove\",\"path\":\"/c\"}]",
                     JSONPATCH_ECONFLICT,
                     "ops[1] (remove \"/c\"): no member \"c\""));
    CHECK(apply_case("{\"a\":1}", "[]", 0, "{\"a\":1}"));

    /* err may be NULL; a NULL document is refused */
    json_t *doc = NULL, *ops = J("[]");
    CHECK(jsonpatch_apply(&doc, ops, NULL, 0) == JSONPATCH_EINVALID);
    json_decref(ops);
}

/* ------------------------------------------------------------- bench -- */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Diffs per second of from -> to, timed for about `secs`. */
static double diff_rate(const json_t *from, const json_t *to, double secs,
                        size_t *nops)
{
    long n = 0;
    double t0 = now(), t;
    do {
        for (int k = 0; k < 50; k++, n++) {
            json_t *ops = jsonpatch_diff(from, to);
            *nops = json_array_size(ops);
            json_decref(ops);
        }
    } while ((t = now() - t0) < secs);
    return (double)n / t;
}

static void test_bench(void)
{
    rng r = {7};
    uint64_t next_id = 1;
    json_t *from = gen_view(&r, 4, 15, 60, &next_id);
    json_t *to = json_deep_copy(from);
    /* a typical turn: a card played from a hand, a cell marked, a score,
     * a log line */
    json_t *p1 = json_array_get(json_object_get(to, "players"), 1);
    json_array_remove(json_object_get(p1, "hand"), 3);
    json_object_set_new(p1, "score", json_integer(99));
    json_array_set_new(json_object_get(to, "board"), 4, json_string("X"));
    json_array_append_new(json_object_get(to, "log"),
                          json_pack("{s:i,s:s,s:i}", "turn", 99, "msg",
                                    "played a card", "seat", 1));
    json_t *other = gen_view(&r, 4, 15, 60, &next_id); /* unrelated */

    char *text = dump(from);
    size_t bytes = strlen(text);
    free(text);
    double secs = quick ? 0.05 : 0.4;
    size_t n_turn, n_same, n_other;
    double turn = diff_rate(from, to, secs, &n_turn);
    json_t *copy = json_deep_copy(from); /* equal, but separate nodes */
    double same = diff_rate(from, copy, secs, &n_same);
    double unrelated = diff_rate(from, other, secs, &n_other);
    CHECK(n_turn == 4 && n_same == 0);
    printf("bench jsonpatch_diff on a %zu-byte view: one turn (%zu ops) "
           "%.0f diffs/s (%.1f us), no change %.0f/s (%.1f us), "
           "unrelated views (%zu ops) %.0f/s (%.1f us)\n",
           bytes, n_turn, turn, 1e6 / turn, same, 1e6 / same, n_other,
           unrelated, 1e6 / unrelated);
    json_decref(copy);
    json_decref(from);
    json_decref(to);
    json_decref(other);
}

/* -------------------------------------------------------------- main -- */

static int emit_pairs(const char *count, const char *seed)
{
    long n = strtol(count, NULL, 10);
    rng r = {strtoull(seed, NULL, 10)};
    for (long k = 0; k < n; k++) {
        json_t *from, *to;
        gen_pair(&r, &from, &to);
        json_t *ops = jsonpatch_diff(from, to);
        json_t *line =
            json_pack("{s:o,s:o,s:o}", "from", from, "to", to, "ops", ops);
        if (!line ||
            json_dumpf(line, stdout, JSON_COMPACT | JSON_ENCODE_ANY) < 0)
            return 1;
        putchar('\n');
        json_decref(line);
    }
    return fflush(stdout) != 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "--emit"))
        return emit_pairs(argv[2], argv[3]);
    if (argc != 1) {
        fprintf(stderr, "usage: %s [--emit N SEED]\n", argv[0]);
        return 2;
    }
    const char *quick_env = getenv("CONCLAVE_TEST_QUICK");
    quick = quick_env && strcmp(quick_env, "1") == 0;
    RUN(test_equal_documents);
    RUN(test_object_ops);
    RUN(test_nested);
    RUN(test_array_edges);
    RUN(test_hands);
    RUN(test_random_hand_edits);
    RUN(test_board);
    RUN(test_type_changes);
    RUN(test_pointer_escaping);
    RUN(test_big_arrays);
    RUN(test_deep_nesting);
    RUN(test_property_random_pairs);
    RUN(test_apply_rfc_examples);
    RUN(test_apply_more);
    RUN(test_bench);
    return TEST_SUMMARY();
}

/*
 * skirmish_expect.h - what the Skirmish rule tests need beyond
 * skirmish_test.h: the field's geometry written again from the rules doc
 * (square names, king's-move distance), so that a test's expectation does
 * not come from the engine functions that decide legality; the legal
 * declarations a seat has now, read from engine_legal; and a starter that
 * passes the first start phase (edition 1, every pass by hand).
 */
#ifndef CONCLAVE_SKIRMISH_EXPECT_H
#define CONCLAVE_SKIRMISH_EXPECT_H

#include <stdlib.h>

#include "tests/unit/skirmish/skirmish_test.h"

#define PASS "{\"action\":\"pass\"}"

/* docs/games/skirmish.md, "The field": columns a-e, rows 1-6. */
static inline int ex_col(const char *sq)
{
    return sq[0] - 'a';
}

static inline int ex_row(const char *sq)
{
    return sq[1] - '1';
}

/* "The distance between two squares is the number of king's moves". */
static inline int ex_dist(const char *a, const char *b)
{
    int dc = abs(ex_col(a) - ex_col(b)), dr = abs(ex_row(a) - ex_row(b));
    return dc > dr ? dc : dr;
}

static inline void ex_sq_name(int col, int row, char out[4])
{
    out[0] = (char)('a' + col);
    out[1] = (char)('1' + row);
    out[2] = '\0';
}

/* Start edition 1 with the squads and squares given and pass to seat 0's
 * (the cheaper squad's) choice subphase. 0 when there. */
static inline int ex_to_choice(sk_run *r, uint64_t seed, const char *c0,
                               const char *s0, const char *c1, const char *s1)
{
    if (sk_start(r, seed, c0, s0, c1, s1) != 0)
        return -1;
    return sk_pass_until(r, "choice", 12);
}

/* The legal plays of seat now (NEW array, empty when none). */
static inline json_t *ex_legal(const sk_run *r, int seat)
{
    json_t *legal = engine_legal(r->g, seat);
    json_t *out = json_array();
    size_t i, j;
    json_t *w, *c;
    json_array_foreach(json_object_get(legal, "windows"), i, w)
        json_array_foreach(json_object_get(w, "choices"), j, c)
            json_array_append(out, c);
    json_decref(legal);
    return out;
}

static inline int ex_int(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_integer(v) ? (int)json_integer_value(v) : -1;
}

static inline int ex_is(const json_t *c, const char *action, int unit)
{
    const char *a = json_string_value(json_object_get(c, "action"));
    return a && strcmp(a, action) == 0 && ex_int(c, "unit") == unit;
}

/* Is there a legal play of seat: action by unit with this target (unit,
 * -1 for none), ability (-1 for none), item (0 for none)? */
static inline int ex_legal_has(const sk_run *r, int seat, const char *action,
                               int unit, int ability, int target, unsigned item)
{
    json_t *l = ex_legal(r, seat);
    size_t i;
    json_t *c;
    int found = 0;
    json_array_foreach(l, i, c)
    {
        if (ex_is(c, action, unit) && ex_int(c, "ability") == ability &&
            ex_int(c, "target") == target &&
            (unsigned)(ex_int(c, "item") < 0 ? 0 : ex_int(c, "item")) == item)
            found = 1;
    }
    json_decref(l);
    return found;
}

/* How many legal plays of seat are action by unit. */
static inline int ex_legal_count(const sk_run *r, int seat, const char *action,
                                 int unit)
{
    json_t *l = ex_legal(r, seat);
    size_t i;
    json_t *c;
    int n = 0;
    json_array_foreach(l, i, c) n += ex_is(c, action, unit);
    json_decref(l);
    return n;
}

/* The id of the stack item at index i from the bottom (0 if none). */
static inline unsigned ex_item_id(const sk_run *r, size_t i)
{
    json_t *st = sk_vfield(r, ENGINE_PUBLIC, "stack");
    unsigned id = (unsigned)json_integer_value(
        json_object_get(json_array_get(st, i), "id"));
    json_decref(st);
    return id;
}

/* Pass until the stack is empty (at most max passes); 0 when it is. */
static inline int ex_resolve_all(sk_run *r, int max)
{
    for (int i = 0; i < max && sk_stack_n(r) > 0; i++)
        if (sk_pass(r) != 0)
            return -1;
    return sk_stack_n(r) == 0 ? 0 : -1;
}

/* The last attack's dice in the view: rolls and strikes (-1 if none). */
static inline void ex_dice(const sk_run *r, int rolls[2], int strikes[2])
{
    json_t *d = sk_vfield(r, ENGINE_PUBLIC, "dice");
    for (int k = 0; k < 2; k++) {
        json_t *a = json_array_get(json_object_get(d, "rolls"), (size_t)k);
        json_t *b = json_array_get(json_object_get(d, "strikes"), (size_t)k);
        rolls[k] = a ? (int)json_integer_value(a) : -1;
        strikes[k] = b ? (int)json_integer_value(b) : -1;
    }
    json_decref(d);
}

#endif

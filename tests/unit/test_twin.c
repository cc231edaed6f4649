/*
 * test_twin.c - hidden information by construction (engine/ruleset.h): a
 * refusal and a condition may depend only on the submitting seat's
 * knowledge. For every ruleset with a twin hook, from states reached by
 * bot play (fixed seeds), for every seat, the test builds a twin world
 * (engine_twin: the same view for that seat, other hidden facts varied)
 * and tries the same inputs in both: the seat's legal inputs, bot inputs
 * and illegal ones made from them (wrong windows, other seats' payloads,
 * junk members, numbers out of range, strings from the view). Both worlds
 * must answer alike: accepted or refused, the code, the message and the
 * field; for an accepted input that revealed nothing, the seat's view and
 * the log entries it gains; for one that revealed (a lock, a draw), the
 * refusals the seat is told at resolution ("type": "refused"); for every
 * accepted input, that the public log does not first differ at a pass (the
 * core's automatic passes read nothing hidden). Every
 * difference is printed with the ruleset, seat, input and both answers.
 * A twin whose view or legal inputs differ for its seat is a bug in the
 * hook, reported the same way.
 *
 * States are taken every few steps and, in a game's first two sealed
 * windows, at the first step where one holds an order (so that a window open
 * for one step, as Skirmish's muster is, is tried with an order held).
 *
 * Games get the options new games get (engine_options_stamp: the current
 * rules edition). duel_example (engine/examples) is played with hold off
 * for every seat, so the core's automatic passes meet hidden hands.
 *
 * CONCLAVE_TEST_QUICK=1 (exactly "1") plays fewer games;
 * CONCLAVE_TWIN_REPORT_ALL=1 prints every difference, not the first 12.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/engine_internal.h"
#include "engine/examples/examples.h"
#include "engine/ruleset.h"
#include "tests/unit/test.h"

#define MAX_PROBES 48 /* inputs tried per state and seat */
#define MAX_REPORT 12 /* differences printed per ruleset */

static int quick(void)
{
    const char *q = getenv("CONCLAVE_TEST_QUICK");
    return q && strcmp(q, "1") == 0;
}

static void make_seed(uint64_t n, uint8_t seed[ENGINE_SEED_BYTES])
{
    uint8_t in[16] = "conclave-twin";
    for (int i = 0; i < 8; i++)
        in[8 + i] ^= (uint8_t)(n >> (8 * i));
    engine_sha256(in, sizeof in, seed);
}

static void rng_for(engine_rng *rng, uint64_t n)
{
    uint8_t key[32];
    make_seed(n ^ UINT64_C(0x7477696e), key);
    engine_rng_init(rng, key, n);
}

/* ------------------------------------------------------------ reports -- */

typedef struct run_ctx {
    const char *ruleset;
    int seat;
    uint64_t game, step;
    int diffs, reported, probes, twins, states;
    int tolerated;   /* refusals that differ with what the seat learned */
    int unmarked;    /* inputs that revealed without a draw or private entry */
    int talk_closed; /* seats found with their table talk closed */
} run_ctx;

static char *text(const json_t *j)
{
    return j ? engine_canonical_json(j) : strdup("null");
}

/* Print a difference: what was tried and both worlds' answers. */
static void report(run_ctx *rc, const char *what, const engine_input *in,
                   const json_t *a, const json_t *b)
{
    rc->diffs++;
    const char *all = getenv("CONCLAVE_TWIN_REPORT_ALL");
    if (rc->reported++ >= MAX_REPORT && !(all && strcmp(all, "1") == 0))
        return;
    int prec = all && strcmp(all, "1") == 0 ? 1 << 24 : 1500;
    char *p = in ? text(in->payload) : NULL;
    char *x = text(a), *y = text(b);
    fprintf(stderr,
            "TWIN DIFF %s seat %d (game %llu, step %llu): %s\n"
            "  input: %s window \"%s\" %s\n"
            "  world: %.*s\n"
            "  twin:  %.*s\n",
            rc->ruleset, rc->seat, (unsigned long long)rc->game,
            (unsigned long long)rc->step, what,
            in ? engine_input_kind_name(in->kind) : "-",
            in && in->window ? in->window : "", p ? p : "", prec, x, prec, y);
    free(p);
    free(x);
    free(y);
}

/* ------------------------------------------------------------- probes -- */

static json_t *answer(int code, const engine_error *e)
{
    if (code == 0)
        return json_pack("{s:b}", "accepted", 1);
    return json_pack("{s:b, s:i, s:s, s:s}", "accepted", 0, "code", e->code,
                     "msg", e->msg, "field", e->field);
}

/* The log entries seat sees after index `after`, without "seq" (other
 * seats' private entries may be more or fewer in a twin). */
static json_t *gained(const engine_game *g, int seat, size_t after)
{
    json_t *log = engine_log_since(g, seat, after);
    size_t i;
    json_t *e;
    json_array_foreach(log, i, e) json_object_del(e, "seq");
    return log;
}

/* Of those, the refusals told at resolution: entries of type "refused"
 * or "..._failed" (Council's refused parts and failed steps). */
static json_t *refusals(const json_t *log)
{
    json_t *out = json_array();
    size_t i;
    json_t *e;
    json_array_foreach(log, i, e)
    {
        const char *type = json_string_value(
            json_object_get(json_object_get(e, "entry"), "type"));
        size_t n = type ? strlen(type) : 0;
        if (type && (strcmp(type, "refused") == 0 ||
                     (n > 7 && strcmp(type + n - 7, "_failed") == 0)))
            json_array_append(out, e);
    }
    return out;
}

static int rng_moved(const engine_rng *a, const engine_rng *b)
{
    return a->counter != b->counter || a->pos != b->pos || a->len != b->len;
}

/* Whether an applied input revealed something hidden: a draw, a private
 * entry, a lock (every order revealed). */
static int revealing(const engine_game *g, const engine_rng *before,
                     size_t nlog)
{
    if (g->revealed || rng_moved(before, &g->rng))
        return 1;
    for (size_t i = nlog; i < g->nlog; i++) {
        const char *type =
            json_string_value(json_object_get(g->log[i].entry, "type"));
        if (g->log[i].seat != ENGINE_PUBLIC || g->log[i].seats ||
            (type && strcmp(type, "reveal") == 0))
            return 1;
    }
    return 0;
}

/* The entries of log that are not refusals. */
static json_t *not_refusals(const json_t *log)
{
    json_t *out = json_array(), *r = refusals(log);
    size_t i, k = 0;
    json_t *e;
    json_array_foreach(log, i, e)
    {
        if (k < json_array_size(r) && json_array_get(r, k) == e)
            k++;
        else
            json_array_append(out, e);
    }
    json_decref(r);
    return out;
}

/* After an input that revealed something (a lock, a draw), the refusals
 * told to the seat must agree whenever the seat learned the same thing in
 * both worlds (its view after and its other new entries equal). Where it
 * learned different things (its fleet entered an unexplored sector and saw
 * what is there) refusals may follow that knowledge: counted, not failed. */
static void compare_refusals(run_ctx *rc, const char *what,
                             const engine_input *in, const engine_game *a,
                             const engine_game *b, size_t nlog)
{
    json_t *la = gained(a, rc->seat, nlog), *lb = gained(b, rc->seat, nlog);
    json_t *fa = refusals(la), *fb = refusals(lb);
    if (!json_equal(fa, fb)) {
        json_t *va = engine_view(a, rc->seat), *vb = engine_view(b, rc->seat);
        json_t *ra = not_refusals(la), *rb = not_refusals(lb);
        if (json_equal(va, vb) && json_equal(ra, rb))
            report(rc, what, in, fa, fb);
        else
            rc->tolerated++;
        json_decref(va);
        json_decref(vb);
        json_decref(ra);
        json_decref(rb);
    }
    json_decref(fa);
    json_decref(fb);
    json_decref(la);
    json_decref(lb);
}

/* Whether both worlds logged the same public entries after nlog: when
 * they differ, the input revealed something hidden to everyone (an agenda
 * card put on the table), though without a draw or a private entry. */
static int same_public(const engine_game *a, const engine_game *b, size_t nlog)
{
    json_t *la = engine_log_since(a, ENGINE_PUBLIC, nlog),
           *lb = engine_log_since(b, ENGINE_PUBLIC, nlog);
    int same = json_equal(la, lb);
    json_decref(la);
    json_decref(lb);
    return same;
}

static int is_pass(const json_t *entry)
{
    const char *type = json_string_value(json_object_get(entry, "type"));
    return type && strcmp(type, "pass") == 0;
}

/* The core's automatic passes (response rules, hold off) may depend only
 * on each seat's own settings and on public facts, so the public log of an
 * input cannot first differ between the worlds at a pass: the worlds may
 * part only after something public differed (a card put on the table).
 * This holds even for inputs that reveal, where the rest is not compared:
 * a pass that only one world makes (the seat had nothing in hand to
 * answer with) can end the turn and draw in that world alone. */
static void compare_passes(run_ctx *rc, const engine_input *in,
                           const engine_game *a, const engine_game *b,
                           size_t nlog)
{
    json_t *la = engine_log_since(a, ENGINE_PUBLIC, nlog),
           *lb = engine_log_since(b, ENGINE_PUBLIC, nlog);
    size_t na = json_array_size(la), nb = json_array_size(lb);
    for (size_t i = 0; i < na || i < nb; i++) {
        json_t *x = json_object_get(json_array_get(la, i), "entry");
        json_t *y = json_object_get(json_array_get(lb, i), "entry");
        if (x && y && json_equal(x, y))
            continue;
        if (is_pass(x) || is_pass(y))
            report(rc, "automatic passes differ", in, x, y);
        break;
    }
    json_decref(la);
    json_decref(lb);
}

/* Compare the gain of an accepted input in both worlds. */
static void compare_gain(run_ctx *rc, const engine_input *in,
                         const engine_game *a, const engine_game *b,
                         const engine_rng *ra, const engine_rng *rb,
                         size_t nlog)
{
    compare_passes(rc, in, a, b, nlog);
    if (revealing(a, ra, nlog) || revealing(b, rb, nlog) ||
        !same_public(a, b, nlog)) {
        compare_refusals(rc, "refusals told at resolution differ", in, a, b,
                         nlog);
        return;
    }
    json_t *la = gained(a, rc->seat, nlog), *lb = gained(b, rc->seat, nlog);
    {
        json_t *va = engine_view(a, rc->seat), *vb = engine_view(b, rc->seat);
        /* The seat learned different things from an input that drew
         * nothing from the RNG and logged nothing private: a card taken
         * from a deck the twin shuffled (Council's Forum draws agendas).
         * A reveal the ruleset did not mark; the refusals must agree. */
        if (!json_equal(la, lb) || !json_equal(va, vb)) {
            rc->unmarked++;
            compare_refusals(rc, "refusals differ", in, a, b, nlog);
        }
        json_decref(va);
        json_decref(vb);
    }
    json_decref(la);
    json_decref(lb);
}

/* Try in in both worlds (on copies). When lock is set and the input was an
 * accepted order whose window is still open, lock it with a timeout in
 * both (the orders held in world b are then those of world a). */
static void probe(run_ctx *rc, const engine_game *wa, const engine_game *wb,
                  const engine_game *wb_keep, const engine_input *in, int lock)
{
    engine_game *a = engine_clone(wa), *b = engine_clone(wb);
    if (!a || !b) {
        engine_free(a);
        engine_free(b);
        return;
    }
    rc->probes++;
    size_t nlog = a->nlog;
    engine_rng ra = a->rng, rb = b->rng;
    engine_error ea = {0}, eb = {0};
    int ca = engine_apply(a, in, NULL, &ea);
    int cb = engine_apply(b, in, NULL, &eb);
    int same = ca == cb &&
               (ca == 0 || (ea.code == eb.code && strcmp(ea.msg, eb.msg) == 0 &&
                            strcmp(ea.field, eb.field) == 0));
    if (!same) {
        json_t *x = answer(ca, &ea), *y = answer(cb, &eb);
        report(rc, "answers differ", in, x, y);
        json_decref(x);
        json_decref(y);
    } else if (ca == 0) {
        compare_gain(rc, in, a, b, &ra, &rb, nlog);
    }
    engine_free(a);
    engine_free(b);
    if (!same || ca != 0 || !lock || in->kind != ENGINE_ORDER || !wb_keep)
        return;
    /* The lock: the seat's order, then every missing seat's default. */
    a = engine_clone(wa);
    b = engine_clone(wb_keep);
    if (a && b && engine_apply(a, in, NULL, &ea) == 0 &&
        engine_apply(b, in, NULL, &eb) == 0 &&
        engine_held_order(a, in->window, rc->seat)) {
        engine_input t = {.seat = ENGINE_PUBLIC,
                          .kind = ENGINE_TIMEOUT,
                          .window = in->window};
        nlog = a->nlog;
        ca = engine_apply(a, &t, NULL, &ea);
        cb = engine_apply(b, &t, NULL, &eb);
        if (ca == 0 && cb == 0) {
            compare_refusals(rc, "refusals at the lock differ", in, a, b, nlog);
        } else if (ca != cb) {
            json_t *x = answer(ca, &ea), *y = answer(cb, &eb);
            report(rc, "timeout after the order answered differently", in, x,
                   y);
            json_decref(x);
            json_decref(y);
        }
    }
    engine_free(a);
    engine_free(b);
}

/* ------------------------------------------------------------- inputs -- */

typedef struct inputs {
    engine_input in[MAX_PROBES * 4];
    json_t *own[MAX_PROBES * 4]; /* payload references */
    char win[MAX_PROBES * 4][ENGINE_WINDOW_ID_MAX];
    int n;
    int nlock; /* the first nlock also get a lock probe */
} inputs;

static void add(inputs *l, int seat, engine_input_kind kind, const char *win,
                json_t *payload /* stolen */)
{
    if (!payload)
        return;
    if (l->n >= (int)(sizeof l->in / sizeof l->in[0])) {
        json_decref(payload);
        return;
    }
    int i = l->n++;
    snprintf(l->win[i], sizeof l->win[i], "%s", win ? win : "");
    l->in[i] = (engine_input){.seat = seat, .kind = kind, .payload = payload};
    l->in[i].window = l->win[i];
    memset(l->in[i].nonce, i + 1, sizeof l->in[i].nonce);
    l->own[i] = payload;
}

static void inputs_free(inputs *l)
{
    for (int i = 0; i < l->n; i++)
        json_decref(l->own[i]);
    l->n = 0;
}

/* Strings and small integers found in j (ids, keys, card names). */
static void harvest(const json_t *j, json_t *strs, int depth)
{
    if (depth > 8 || json_array_size(strs) > 64)
        return;
    if (json_is_string(j) && json_string_length(j) < 40) {
        json_array_append(strs, (json_t *)j);
    } else if (json_is_object(j)) {
        const char *k;
        json_t *v;
        json_object_foreach((json_t *)j, k, v) harvest(v, strs, depth + 1);
    } else if (json_is_array(j)) {
        size_t i;
        json_t *v;
        json_array_foreach(j, i, v) harvest(v, strs, depth + 1);
    }
}

/* Values to put in place of v: out of range, wrong types, view strings. */
static json_t *replacements(const json_t *v, const json_t *strs,
                            engine_rng *rng)
{
    json_t *r = json_array();
    if (json_is_integer(v)) {
        json_int_t x = json_integer_value(v);
        json_t *n[] = {json_integer(x + 1), json_integer(x - 1),
                       json_integer(x + 7), json_integer(-1),
                       json_integer(1000000)};
        for (size_t i = 0; i < sizeof n / sizeof n[0]; i++)
            json_array_append_new(r, n[i]);
        json_array_append_new(r, json_string("junk"));
    } else if (json_is_string(v)) {
        json_array_append_new(r, json_string("junk"));
        json_array_append_new(r, json_integer(3));
        size_t ns = json_array_size(strs);
        for (int i = 0; i < 4 && ns; i++)
            json_array_append(
                r, json_array_get(strs, engine_rng_below(rng, (uint32_t)ns)));
    } else if (json_is_array(v)) {
        json_array_append_new(r, json_array());
        json_array_append_new(r, json_string("junk"));
        if (json_array_size(v)) {
            json_t *sub = replacements(json_array_get(v, 0), strs, rng);
            size_t i;
            json_t *e;
            json_array_foreach(sub, i, e)
            {
                json_t *c = json_deep_copy(v);
                json_array_set(c, 0, e);
                json_array_append_new(r, c);
            }
            json_decref(sub);
        }
    } else if (json_is_object(v)) {
        json_array_append_new(r, json_object());
        const char *k;
        json_t *e;
        int done = 0;
        json_object_foreach((json_t *)v, k, e)
        {
            if (done++ >= 3)
                break;
            json_t *sub = replacements(e, strs, rng);
            size_t i;
            json_t *s;
            json_array_foreach(sub, i, s)
            {
                if (i >= 3)
                    break;
                json_t *c = json_deep_copy(v);
                json_object_set(c, k, s);
                json_array_append_new(r, c);
            }
            json_decref(sub);
        }
    } else {
        json_array_append_new(r, json_integer(0));
    }
    json_array_append_new(r, json_null());
    return r;
}

/* Illegal payloads made from a legal one: members replaced, deleted, a
 * junk member added. */
static void mutate(inputs *l, int seat, engine_input_kind kind, const char *win,
                   const json_t *p, const json_t *strs, engine_rng *rng,
                   int budget)
{
    if (!json_is_object(p))
        return;
    add(l, seat, kind, win, json_pack("{s:i}", "zz_junk", 1));
    json_t *junk = json_deep_copy(p);
    json_object_set_new(junk, "zz_junk", json_string("x"));
    add(l, seat, kind, win, junk);
    json_t *all = json_array();
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)p, k, v)
    {
        json_t *del = json_deep_copy(p);
        json_object_del(del, k);
        json_array_append_new(all, del);
        json_t *r = replacements(v, strs, rng);
        size_t i;
        json_t *e;
        json_array_foreach(r, i, e)
        {
            json_t *c = json_deep_copy(p);
            json_object_set(c, k, e);
            json_array_append_new(all, c);
        }
        json_decref(r);
    }
    size_t n = json_array_size(all);
    for (int i = 0; i < budget && n; i++)
        add(l, seat, kind, win,
            json_incref(json_array_get(all, engine_rng_below(rng, n))));
    json_decref(all);
}

/* The window of kind "order" in legal whose id ends with suffix. */
static const char *order_window(const json_t *legal, const char *suffix)
{
    size_t i, n = strlen(suffix);
    json_t *w;
    json_array_foreach(json_object_get(legal, "windows"), i, w)
    {
        const char *id = json_string_value(json_object_get(w, "window"));
        if (id && strlen(id) >= n && strcmp(id + strlen(id) - n, suffix) == 0)
            return id;
    }
    return NULL;
}

/* Council: conditions on sectors the seat has not explored (the "then"
 * branch explores the seat's own home, which fails at resolution, so the
 * condition's answer shows in what the seat is told), and diplomatic
 * captures of other seats' planets. */
static void council_inputs(const engine_game *g, int seat, const json_t *view,
                           const json_t *legal, engine_rng *rng, inputs *l)
{
    (void)g;
    const json_t *secs =
        json_object_get(json_object_get(view, "galaxy"), "sectors");
    json_t *home = NULL, *unexplored = json_array(), *owned = json_array();
    size_t i;
    json_t *x;
    json_array_foreach(secs, i, x)
    {
        json_t *hex = json_pack("[O, O]", json_object_get(x, "q"),
                                json_object_get(x, "r"));
        json_t *h = json_object_get(x, "home");
        if (json_is_integer(h) && json_integer_value(h) == seat && !home)
            home = json_incref(hex);
        if (!json_is_true(json_object_get(x, "explored")))
            json_array_append(unexplored, hex);
        size_t k;
        json_t *pl;
        json_array_foreach(json_object_get(x, "planets"), k, pl)
        {
            json_t *o = json_object_get(pl, "owner");
            if (json_is_integer(o) && json_integer_value(o) != seat)
                json_array_append_new(owned, json_pack("[O, i]", hex, (int)k));
        }
        json_decref(hex);
    }
    const char *action = order_window(legal, ".action");
    size_t nu = json_array_size(unexplored);
    /* A condition on an unexplored sector: alone (refused when saved, for
     * it names a sector no step acts on), and after a step that acts on
     * that sector (activate, scan), so that it is decided at resolution,
     * where the seat cannot tell what the sector holds. */
    static const char *const first[] = {NULL, "activate", "scan"};
    for (int t = 0; action && home && nu && t < 9; t++) {
        json_t *hex = json_array_get(unexplored, engine_rng_below(rng, nu));
        static const char *const what[] = {"planets", "anomaly", "marker"};
        json_t *cond = t % 4 == 3
                           ? json_pack("{s:s, s:s, s:O}", "type", "marker_is",
                                       "is", "hostile", "sector", hex)
                           : json_pack("{s:s, s:s, s:O}", "type", "holds",
                                       "what", what[t % 4], "sector", hex);
        json_t *steps = json_array();
        if (first[t % 3])
            json_array_append_new(
                steps,
                json_pack("{s:s, s:O}", "type", first[t % 3], "sector", hex));
        json_array_append_new(
            steps, json_pack("{s:s, s:o, s:[{s:s, s:O}]}", "type", "if", "cond",
                             cond, "then", "type", "explore", "sector", home));
        add(l, seat, ENGINE_ORDER, action, json_pack("{s:o}", "probe", steps));
    }
    const char *council = order_window(legal, ".council");
    size_t no = json_array_size(owned);
    for (int t = 0; council && no && t < 6; t++) {
        json_t *o = json_array_get(owned, engine_rng_below(rng, no));
        add(l, seat, ENGINE_ORDER, council,
            json_pack("{s:{s:s, s:O, s:O}}", "c", "type", "capture", "sector",
                      json_array_get(o, 0), "planet", json_array_get(o, 1)));
    }
    json_decref(home);
    json_decref(unexplored);
    json_decref(owned);
}

/* Everything to try for seat in world g. */
static void build_inputs(const engine_game *g, int seat, engine_rng *rng,
                         inputs *l)
{
    json_t *legal = engine_legal(g, seat);
    json_t *view = engine_view(g, seat);
    json_t *strs = json_array();
    harvest(view, strs, 0);
    harvest(legal, strs, 0);
    if (strcmp(engine_ruleset_id(engine_game_ruleset(g)), "council") == 0)
        council_inputs(g, seat, view, legal, rng, l);
    l->nlock = l->n + MAX_PROBES / 4;
    json_t *wins = json_object_get(legal, "windows");
    json_t *samples = json_array(); /* [kind, window, payload] */
    size_t i;
    json_t *w;
    const char *first = NULL;
    engine_input_kind first_kind = ENGINE_PLAY;
    json_array_foreach(wins, i, w)
    {
        const char *id = json_string_value(json_object_get(w, "window"));
        const char *kind = json_string_value(json_object_get(w, "kind"));
        engine_input_kind k =
            kind && strcmp(kind, "order") == 0 ? ENGINE_ORDER : ENGINE_PLAY;
        if (!first) {
            first = id;
            first_kind = k;
        }
        json_t *choices = json_object_get(w, "choices");
        size_t nc = json_array_size(choices);
        for (size_t c = 0; c < nc && c < 10; c++) {
            json_t *pick = json_array_get(
                choices, nc <= 10 ? c : engine_rng_below(rng, (uint32_t)nc));
            if (!json_is_object(pick))
                continue;
            add(l, seat, k, id, json_deep_copy(pick));
            json_array_append_new(samples, json_pack("[i, s, O]", k, id, pick));
        }
    }
    /* Bot inputs for every seat (another seat's sent as this one's). */
    int seats = engine_game_seats(g), nlevels = 0;
    const engine_bot_level *levels =
        engine_bot_levels(engine_game_ruleset(g), &nlevels);
    for (int s = 0; s < seats; s++)
        for (int r = 0; r < (s == seat ? 4 : 2); r++) {
            engine_input b;
            engine_error e;
            const char *level = r % 2 || nlevels < 2 ? "random" : levels[1].id;
            if (engine_bot_action(g, s, level, rng, &b, &e) != 0)
                continue;
            if (b.kind != ENGINE_ORDER && b.kind != ENGINE_PLAY) {
                json_decref((json_t *)b.payload);
                continue;
            }
            json_t *p = (json_t *)b.payload;
            add(l, seat, b.kind, b.window, json_incref(p));
            if (s != seat && first)
                add(l, seat, first_kind, first, json_incref(p));
            else
                json_array_append_new(
                    samples, json_pack("[i, s, O]", b.kind, b.window_buf, p));
            json_decref(p);
        }
    /* Illegal ones from the samples. */
    size_t ns = json_array_size(samples);
    for (size_t s = 0; s < ns && s < 6; s++) {
        json_t *t = json_array_get(samples, engine_rng_below(rng, ns));
        engine_input_kind k =
            (engine_input_kind)json_integer_value(json_array_get(t, 0));
        const char *id = json_string_value(json_array_get(t, 1));
        const json_t *p = json_array_get(t, 2);
        mutate(l, seat, k, id, p, strs, rng, 6);
        if (s == 0) {
            add(l, seat, k, "nope.1", json_deep_copy(p));
            add(l, seat, k == ENGINE_ORDER ? ENGINE_PLAY : ENGINE_ORDER, id,
                json_deep_copy(p));
            add(l, seat, k, id, json_object());
        }
    }
    if (first)
        add(l, seat, ENGINE_SYSTEM, first,
            json_pack("{s:s}", "action", "withdraw"));
    json_decref(samples);
    json_decref(strs);
    json_decref(view);
    json_decref(legal);
}

/* ---------------------------------------------------------- the check -- */

/* Check every seat of g against its twin. */
static void check_state(run_ctx *rc, const engine_game *g, engine_rng *rng)
{
    rc->states++;
    for (int seat = 0; seat < engine_game_seats(g); seat++) {
        rc->seat = seat;
        engine_rng keep_rng = *rng;
        engine_game *t = engine_twin(g, seat, rng, 0);
        if (!t)
            continue;
        engine_game *tk =
            engine_twin(g, seat, &keep_rng, ENGINE_TWIN_KEEP_ORDERS);
        rc->twins++;
        json_t *va = engine_view(g, seat), *vb = engine_view(t, seat);
        json_t *la = engine_legal(g, seat), *lb = engine_legal(t, seat);
        json_t *ga = gained(g, seat, 0), *gb = gained(t, seat, 0);
        /* Table talk closed or open, and why: the same in both worlds. */
        char wa[200], wb[200];
        int ca = engine_talk_closed(g, seat, wa, sizeof wa),
            cb = engine_talk_closed(t, seat, wb, sizeof wb);
        if (ca)
            rc->talk_closed++;
        if (!json_equal(va, vb))
            report(rc, "BUG IN THE TWIN HOOK: the seat's view differs", NULL,
                   va, vb);
        else if (!json_equal(ga, gb))
            report(rc, "BUG IN THE TWIN: the seat's log differs", NULL, ga, gb);
        else if (!json_equal(la, lb))
            report(rc, "legal inputs differ", NULL, la, lb);
        else if (ca != cb || strcmp(wa, wb) != 0) {
            json_t *ta = json_pack("{sbss}", "closed", ca, "why", wa),
                   *tb = json_pack("{sbss}", "closed", cb, "why", wb);
            report(rc, "table talk closed differs", NULL, ta, tb);
            json_decref(ta);
            json_decref(tb);
        } else {
            inputs *l = calloc(1, sizeof *l);
            build_inputs(g, seat, rng, l);
            for (int i = 0; i < l->n; i++)
                probe(rc, g, t, tk, &l->in[i], i < l->nlock);
            inputs_free(l);
            free(l);
        }
        json_decref(va);
        json_decref(vb);
        json_decref(la);
        json_decref(lb);
        json_decref(ga);
        json_decref(gb);
        engine_free(t);
        engine_free(tk);
    }
}

/* One step of bot play: the first seat with something to do acts, else
 * the first open window times out. 0 when the game cannot go on. */
static int bot_step(engine_game *g, engine_rng *rng, int basic,
                    const char *level)
{
    int seats = engine_game_seats(g);
    int start = (int)engine_rng_below(rng, (uint32_t)seats);
    for (int k = 0; k < seats; k++) {
        int s = (start + k) % seats;
        engine_input in;
        engine_error e;
        if (engine_bot_action(g, s, basic ? level : "random", rng, &in, &e) !=
            0)
            continue;
        int rc = engine_apply(g, &in, NULL, &e);
        json_decref((json_t *)in.payload);
        if (rc == 0)
            return 1;
    }
    engine_window w[1];
    if (engine_windows(g, w, 1) < 1)
        return 0;
    engine_input t = {
        .seat = ENGINE_PUBLIC, .kind = ENGINE_TIMEOUT, .window = w[0].id};
    engine_error e;
    return engine_apply(g, &t, NULL, &e) == 0;
}

/* Turn hold off for every seat (SYSTEM respond), so the core passes for
 * them (prio_auto_passes) in the games the twin test plays. */
static void hold_off(engine_game *g)
{
    for (int s = 0; s < engine_game_seats(g); s++) {
        json_t *p = json_pack("{s:s, s:b}", "action", "respond", "hold", 0);
        engine_input in = {.seat = s, .kind = ENGINE_SYSTEM, .payload = p};
        memset(in.nonce, 0x40 + s, sizeof in.nonce);
        engine_error e;
        CHECKF(engine_apply(g, &in, NULL, &e) == 0, "hold off: %s", e.msg);
        json_decref(p);
    }
}

/* Whether g holds a sealed order in a window not yet checked while it
 * held one (last: the id of that window, updated), for the first
 * HELD_CHECKS such windows of a game. Such a state is where a refusal could
 * read another seat's unrevealed order; a window that is open for one step
 * between two checkpoints (Skirmish's muster and deployment) would
 * otherwise never be checked with an order held. */
#define HELD_CHECKS 2
static int holds_new_window(const engine_game *g, char *last, size_t cap,
                            int *done)
{
    if (*done >= HELD_CHECKS || g->npending == 0 ||
        strcmp(g->pending[0].window, last) == 0)
        return 0;
    snprintf(last, cap, "%s", g->pending[0].window);
    ++*done;
    return 1;
}

/* Games of ruleset id with the options new games get (its current rules
 * edition); with holding 0, every seat without hold from the start. */
static void check_ruleset_as(const char *id, int games, int steps, int every,
                             int holding)
{
    const engine_ruleset *rs = engine_ruleset_find(id);
    REQUIRE(rs);
    if (!rs->twin) {
        fprintf(stderr, "%s has no twin hook\n", id);
        CHECK(rs->twin);
        return;
    }
    run_ctx rc = {.ruleset = id};
    int nlevels = 0;
    const engine_bot_level *levels = engine_bot_levels(rs, &nlevels);
    for (int gi = 0; gi < games; gi++) {
        uint8_t seed[ENGINE_SEED_BYTES];
        make_seed((uint64_t)gi * 131 + strlen(id), seed);
        int seats = rs->min_seats + gi % (rs->max_seats - rs->min_seats + 1);
        if (seats > 4)
            seats = 4;
        engine_error err;
        /* odd games: the options every new game gets (the current rules
         * edition); even ones: none, as a game stored before editions */
        json_t *opts = gi % 2 ? engine_options_stamp(rs, NULL) : NULL;
        engine_game *g = engine_create(id, "twin", opts, seats, seed, &err);
        json_decref(opts);
        CHECKF(g, "%s: %s", id, err.msg);
        if (!g)
            continue;
        if (!holding)
            hold_off(g);
        engine_rng rng;
        rng_for(&rng, (uint64_t)gi * 7919 + strlen(id));
        rc.game = (uint64_t)gi;
        const char *level = nlevels > 1 ? levels[gi % nlevels].id : "random";
        char held[ENGINE_WINDOW_ID_MAX] = "";
        int held_checks = 0;
        for (int st = 0; st < steps && !engine_is_over(g); st++) {
            rc.step = (uint64_t)st;
            int fresh = holds_new_window(g, held, sizeof held, &held_checks);
            if (st % every == every - 1 || st == 0 || fresh)
                check_state(&rc, g, &rng);
            if (!bot_step(g, &rng, gi % 2, level))
                break;
        }
        engine_free(g);
    }
    fprintf(stderr,
            "%s: %d states, %d twins, %d inputs tried in both worlds, %d "
            "differences (%d refusals differing with what the seat learned, "
            "%d unmarked reveals; %d seats with table talk closed)\n",
            id, rc.states, rc.twins, rc.probes, rc.diffs, rc.tolerated,
            rc.unmarked, rc.talk_closed);
    CHECK(rc.twins > 0);
    CHECKF(rc.diffs == 0, "%s: %d differences between worlds", id, rc.diffs);
}

static void check_ruleset(const char *id, int games, int steps, int every)
{
    check_ruleset_as(id, games, steps, every, 1);
}

static int scaled(int n)
{
    return quick() ? (n + 3) / 4 : n;
}

static void test_twin_tictactoe(void)
{
    check_ruleset("tictactoe", scaled(8), 12, 2);
}
static void test_twin_rps(void)
{
    check_ruleset("rps", scaled(8), 20, 2);
}
static void test_twin_sprint(void)
{
    check_ruleset("sprint", scaled(8), 120, 6);
}
static void test_twin_skirmish(void)
{
    check_ruleset("skirmish", scaled(8), 160, 8);
}
static void test_twin_starbase(void)
{
    check_ruleset("starbase", scaled(8), 160, 8);
}
/* A duel with hidden hands in which nobody holds priority: the core's
 * automatic passes must not depend on what a seat holds (a seat with no
 * card to answer with must still get priority), or the twin, whose other
 * hands differ, answers the same input differently. */
static void test_twin_duel_example_hold_off(void)
{
    check_ruleset_as("duel_example", scaled(8), 60, 3, 0);
}

static void test_twin_council(void)
{
    check_ruleset("council", scaled(6), 240, 10);
}

int main(void)
{
    engine_error err;
    if (engine_register_ruleset(&duel_example_ruleset, &err) != 0 ||
        engine_init(&err) != 0) {
        fprintf(stderr, "engine_init: %s\n", err.msg);
        return 1;
    }
    RUN(test_twin_tictactoe);
    RUN(test_twin_rps);
    RUN(test_twin_sprint);
    RUN(test_twin_skirmish);
    RUN(test_twin_starbase);
    RUN(test_twin_duel_example_hold_off);
    RUN(test_twin_council);
    return TEST_SUMMARY();
}

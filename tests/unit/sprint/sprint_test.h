/*
 * sprint_test.h - what the test_sprint_*.c files share: building small
 * Galactic Sprint positions by moving named cards between the deck, hands
 * and empires of a real state (so card conservation always holds),
 * checking and resolving orders, and playing whole games with bots.
 *
 * Each test file calls sprint_test_init() first. CONCLAVE_TEST_QUICK=1
 * shrinks the self-play counts (the `quick` flag).
 */
#ifndef CONCLAVE_SPRINT_TEST_H
#define CONCLAVE_SPRINT_TEST_H

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine.h"
#include "engine/rules/sprint/sprint.h"
#include "engine/rules/sprint/sprint_internal.h"
#include "engine/ruleset.h"
#include "tests/unit/test.h"

static const sprint_cardset *CS __attribute__((unused));
static int quick __attribute__((unused));

/* ------------------------------------------------------------ helpers -- */

static inline void rng_for(engine_rng *rng, uint64_t seed, uint64_t stream)
{
    uint8_t key[32] = {0};
    memcpy(key, &seed, sizeof seed);
    engine_rng_init(rng, key, stream);
}

static inline int design_index(const char *key)
{
    for (int i = 0; i < CS->ndesigns; i++)
        if (strcmp(CS->designs[i].key, key) == 0)
            return i;
    fprintf(stderr, "no design %s\n", key);
    abort();
}

/* The nth (0-based) deck instance of a design. */
static inline int inst(const char *key, int nth)
{
    int d = design_index(key);
    for (int i = 0; i < CS->ndeck; i++)
        if (CS->deck_design[i] == d && nth-- == 0)
            return i;
    fprintf(stderr, "no copy of %s\n", key);
    abort();
}

static inline int list_remove(uint8_t *list, uint8_t *n, int c)
{
    for (int i = 0; i < *n; i++)
        if (list[i] == c) {
            memmove(&list[i], &list[i + 1], (size_t)(*n - i - 1));
            (*n)--;
            return 1;
        }
    return 0;
}

/* Take a deck instance from wherever it is. */
static inline void take(sprint_state *s, int c)
{
    if (list_remove(s->deck, &s->ndeck, c) ||
        list_remove(s->discard, &s->ndiscard, c))
        return;
    for (int i = 0; i < s->seats; i++)
        if (list_remove(s->p[i].hand, &s->p[i].nhand, c) ||
            list_remove(s->p[i].empire, &s->p[i].nempire, c))
            return;
    abort();
}

static inline void to_hand(sprint_state *s, int seat, int c)
{
    take(s, c);
    s->p[seat].hand[s->p[seat].nhand++] = (uint8_t)c;
}

static inline void to_empire(sprint_state *s, int seat, int c)
{
    take(s, c);
    s->p[seat].empire[s->p[seat].nempire++] = (uint8_t)c;
}

/* Move every card of seat's hand back to the deck (bottom). */
static inline void empty_hand(sprint_state *s, int seat)
{
    sprint_player *p = &s->p[seat];
    while (p->nhand) {
        int c = p->hand[--p->nhand];
        memmove(&s->deck[1], &s->deck[0], s->ndeck);
        s->deck[0] = (uint8_t)c;
        s->ndeck++;
    }
}

/* Hand of n filler cards: plain cards no test names (so a named card is
 * never swallowed as filler), taken from the deck top down. */
static inline int is_filler(int c)
{
    static const char *const fillers[] = {
        "relay_beacons",   "fleet_tenders",      "nomad_drift",
        "helium_skimmers", "rustbelt_mines",     "lantern_moon",
        "pearl_lagoon",    "verdant_reach",      "glasswind_colony",
        "ochre_mesa",      "credit_filler_none", NULL};
    const char *key = CS->designs[CS->deck_design[c]].key;
    for (int i = 0; fillers[i]; i++)
        if (strcmp(fillers[i], key) == 0)
            return 1;
    return 0;
}

static inline void fill_hand(sprint_state *s, int seat, int n)
{
    for (int i = s->ndeck - 1; i >= 0 && n > 0; i--) {
        int c = s->deck[i];
        if (is_filler(c)) {
            to_hand(s, seat, c);
            n--;
        }
    }
    if (n > 0)
        abort();
}

static engine_rng test_rng __attribute__((unused));

static inline void fresh(sprint_state *s, int seats)
{
    rng_for(&test_rng, 42, 7);
    sprint_io io = {&test_rng, NULL};
    sprint_state_init(s, CS, seats, seats == 1, 50, 0, 0, &io);
    for (int i = 0; i < seats; i++)
        empty_hand(s, i);
}

static inline json_t *J(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
static inline json_t *J(const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    json_error_t e;
    json_t *j = json_loads(buf, 0, &e);
    if (!j) {
        fprintf(stderr, "bad test JSON %s: %s\n", buf, e.text);
        abort();
    }
    return j;
}

/* Check an order; returns the code, err filled. */
static inline int check(const sprint_state *s, int seat, json_t *order,
                        engine_error *err)
{
    sprint_plan p;
    memset(err, 0, sizeof *err);
    int rc = sprint_plan_parse(s, seat, order, &p, err);
    json_decref(order);
    return rc;
}

static inline int ok(const sprint_state *s, int seat, json_t *order)
{
    engine_error err;
    int rc = check(s, seat, order, &err);
    if (rc)
        fprintf(stderr, "  unexpected rejection: %s (%s)\n", err.msg,
                err.field);
    return rc == 0;
}

/* Resolve a placement round with the given orders (NULL: explore). */
static inline void place(sprint_state *s, json_t **orders)
{
    sprint_plan plans[SPRINT_MAX_SEATS];
    sprint_io io = {&test_rng, NULL};
    for (int i = 0; i < s->seats; i++) {
        json_t *o =
            orders && orders[i] ? orders[i] : J("{\"action\":\"explore\"}");
        engine_error err = {0};
        if (sprint_plan_parse(s, i, o, &plans[i], &err)) {
            fprintf(stderr, "place: seat %d: %s\n", i, err.msg);
            abort();
        }
        json_decref(o);
    }
    sprint_resolve_place(s, plans, &io);
}

/* Resolve the open discard window with "keep the first cards". */
static inline void discard_default(sprint_state *s)
{
    uint8_t ids[SPRINT_MAX_SEATS][SPRINT_MAX_CARDS];
    int counts[SPRINT_MAX_SEATS] = {0};
    sprint_io io = {&test_rng, NULL};
    for (int i = 0; i < s->seats; i++) {
        sprint_player *p = &s->p[i];
        for (int k = 0; k < p->must_discard; k++)
            ids[i][k] = p->hand[p->nhand - p->must_discard + k];
        counts[i] = p->must_discard;
    }
    sprint_resolve_discards(s, ids, counts, &io);
}

static inline int invariant_ok(const sprint_state *s)
{
    char why[200];
    if (sprint_state_check(s, why, sizeof why)) {
        fprintf(stderr, "  invariant: %s\n", why);
        return 0;
    }
    return 1;
}

/* A whole game with bots; fills rounds and the final state. */
typedef struct game_log {
    int n;
    char *orders[2048];
    int seats[2048];
} game_log;

static inline void play_game(sprint_state *s, int seats,
                             const char *const *levels, uint64_t seed,
                             game_log *record, int *bad_invariant, int *bad_vp)
{
    engine_rng rng, brng;
    rng_for(&rng, seed, 1);
    rng_for(&brng, seed, 2);
    sprint_io io = {&rng, NULL};
    sprint_state_init(s, CS, seats, seats == 1, 50, 0, 0, &io);
    while (!s->over) {
        uint32_t m = sprint_window_seats(s);
        sprint_state before = *s;
        if (s->phase == SPRINT_PHASE_PLACE) {
            sprint_plan plans[SPRINT_MAX_SEATS];
            for (int i = 0; i < seats; i++) {
                json_t *o = sprint_bot_order(s, i, levels[i], &brng);
                engine_error err = {0};
                if (!o || sprint_plan_parse(s, i, o, &plans[i], &err)) {
                    fprintf(stderr, "bot order refused: %s\n", err.msg);
                    abort();
                }
                if (record && record->n < 2048) {
                    record->seats[record->n] = i;
                    record->orders[record->n++] = json_dumps(o, JSON_COMPACT);
                }
                json_decref(o);
            }
            sprint_resolve_place(s, plans, &io);
        } else {
            uint8_t ids[SPRINT_MAX_SEATS][SPRINT_MAX_CARDS];
            int counts[SPRINT_MAX_SEATS] = {0};
            for (int i = 0; i < seats; i++) {
                if (!(m >> i & 1))
                    continue;
                json_t *o = sprint_bot_order(s, i, levels[i], &brng);
                engine_error err = {0};
                if (!o ||
                    sprint_discard_parse(s, i, o, ids[i], &counts[i], &err)) {
                    fprintf(stderr, "bot discard refused: %s\n", err.msg);
                    abort();
                }
                if (record && record->n < 2048) {
                    record->seats[record->n] = i;
                    record->orders[record->n++] = json_dumps(o, JSON_COMPACT);
                }
                json_decref(o);
            }
            sprint_resolve_discards(s, ids, counts, &io);
        }
        if (bad_invariant && sprint_state_check(s, (char[200]){0}, 200))
            (*bad_invariant)++;
        /* Did this input score? Then chips grew by each empire's VP,
         * computed here independently from the card data. */
        int scored =
            before.phase != SPRINT_PHASE_LIMIT &&
            !(s->phase == SPRINT_PHASE_EXPLORE && s->round == before.round);
        for (int i = 0; bad_vp && i < seats; i++) {
            int want = 0;
            if (scored) {
                const sprint_player *p = &s->p[i];
                const sprint_player *r = s->solo ? NULL : &s->p[p->rival];
                for (int k = 0; k < p->nempire; k++) {
                    const sprint_design *d = sprint_design_of(CS, p->empire[k]);
                    want += d->vp;
                    for (int a = 0; a < d->nab; a++) {
                        const sprint_ability *ab = &d->ab[a];
                        const sprint_player *src =
                            ab->type == SPRINT_AB_VP_PER         ? p
                            : ab->type == SPRINT_AB_VP_PER_RIVAL ? r
                                                                 : NULL;
                        if (ab->type == SPRINT_AB_BONUS_IF && ab->amount) {
                            int any = 0;
                            for (int q = 0; q < p->nempire; q++)
                                if (q != k &&
                                    sprint_count_what(CS, &p->empire[q], 1,
                                                      ab->what, -1))
                                    any = 1;
                            want += any ? ab->amount : 0;
                        }
                        if (!src)
                            continue;
                        int cnt = sprint_count_what(CS, src->empire,
                                                    src->nempire, ab->what, -1);
                        want += ab->amount * (cnt / ab->every);
                    }
                }
            }
            if (s->p[i].chips - before.p[i].chips != want)
                (*bad_vp)++;
        }
    }
}

static inline void free_log(game_log *lg)
{
    for (int i = 0; i < lg->n; i++)
        free(lg->orders[i]);
    lg->n = 0;
}

/* Load the engine and the built-in cards into CS; 0, or 1 (reported). */
static inline int sprint_test_init(void)
{
    engine_error err = {0};
    const char *quick_env = getenv("CONCLAVE_TEST_QUICK");
    quick = quick_env && strcmp(quick_env, "1") == 0;
    if (engine_init(&err)) {
        fprintf(stderr, "engine_init: %s\n", err.msg);
        return 1;
    }
    CS = sprint_cards();
    if (!CS) {
        fprintf(stderr, "sprint card set not loaded\n");
        return 1;
    }
    return 0;
}

#endif

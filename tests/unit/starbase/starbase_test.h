/*
 * starbase_test.h - helpers shared by the Starbase rule and self-play
 * tests: games made through the engine, plays and passes in the priority
 * window, rigging a state (a card into a hand, a ship into a region) by
 * reaching the ruleset's state through the engine's internal header, and
 * the state invariants (ISK never negative, every card in one place).
 */
#ifndef CONCLAVE_STARBASE_TEST_H
#define CONCLAVE_STARBASE_TEST_H

#include "engine/engine_internal.h"
#include "engine/rules/starbase/starbase.h"
#include "tests/unit/test.h"

#include <stdlib.h>
#include <string.h>

static int quick __attribute__((unused));

typedef struct tgame {
    engine_game *g;
    json_t *inputs; /* stored inputs, for an export */
} tgame;

static sb_state *S(const tgame *t)
{
    return (sb_state *)t->g->state;
}

/* A game with options (a JSON text, NULL: none, the first edition's rules
 * of a game stored before editions) from seed n. */
static __attribute__((unused)) tgame tnew_opts(int seats, uint64_t n,
                                               const char *options)
{
    uint8_t seed[ENGINE_SEED_BYTES] = {0};
    for (int i = 0; i < 8; i++)
        seed[i] = (uint8_t)(n >> (8 * i));
    engine_error err;
    json_t *o = options ? json_loads(options, 0, NULL) : NULL;
    tgame t = {engine_create("starbase", "g-sb", o, seats, seed, &err),
               json_array()};
    json_decref(o);
    if (!t.g)
        fprintf(stderr, "create: %s\n", err.msg);
    return t;
}

static __attribute__((unused)) tgame tnew(int seats, uint64_t n)
{
    return tnew_opts(seats, n, NULL);
}

/* A game of the current edition (what every new game gets). */
#define SB_OPTS_CURRENT "{\"edition\":" SB_EDITION_CURRENT_TEXT "}"
static __attribute__((unused)) tgame tnew2(int seats, uint64_t n)
{
    return tnew_opts(seats, n, SB_OPTS_CURRENT);
}

static __attribute__((unused)) void tfree(tgame *t)
{
    engine_free(t->g);
    json_decref(t->inputs);
}

/* The open priority window's id and holder; 0 when none. */
static int twindow(const tgame *t, char *id, int *holder)
{
    engine_window w[4];
    if (engine_windows(t->g, w, 4) < 1)
        return 0;
    if (id)
        snprintf(id, ENGINE_WINDOW_ID_MAX, "%s", w[0].id);
    if (holder)
        *holder = __builtin_ctz(w[0].seats);
    return 1;
}

/* The step of the open window ("setup", "management"...), "" when none. */
static __attribute__((unused)) const char *tstep(const tgame *t)
{
    static char buf[ENGINE_WINDOW_ID_MAX];
    if (!twindow(t, buf, NULL))
        return "";
    char *dot = strchr(buf, '.');
    if (dot)
        *dot = '\0';
    return buf;
}

static int tholder(const tgame *t)
{
    int h = -1;
    twindow(t, NULL, &h);
    return h;
}

/* Apply play (a JSON text) by seat in the open window; the error code. */
static __attribute__((unused)) int tplay_e(tgame *t, int seat, const char *txt,
                                           engine_error *err)
{
    char id[ENGINE_WINDOW_ID_MAX];
    if (!twindow(t, id, NULL))
        return -1;
    json_t *p = json_loads(txt, 0, NULL);
    engine_input in = {
        .seat = seat, .kind = ENGINE_PLAY, .window = id, .payload = p};
    int rc = engine_apply(t->g, &in, NULL, err);
    if (rc == 0)
        json_array_append_new(
            t->inputs,
            engine_input_to_json(&in, json_array_size(t->inputs) + 1));
    json_decref(p);
    return rc;
}

static __attribute__((unused)) int tplay(tgame *t, int seat, const char *txt)
{
    engine_error err;
    int rc = tplay_e(t, seat, txt, &err);
    if (rc != 0 && getenv("SB_TEST_VERBOSE"))
        fprintf(stderr, "  play %s by %d: %s (%s)\n", txt, seat, err.msg,
                err.field);
    return rc;
}

static __attribute__((unused)) int tpass(tgame *t)
{
    return tplay(t, tholder(t), "{\"action\":\"pass\"}");
}

/* Pass until seat holds priority in step of its own turn (at most 200
 * passes); 1 if so. */
static __attribute__((unused)) int tpass_to(tgame *t, int seat,
                                            const char *step)
{
    for (int n = 0; n < 200; n++) {
        if (engine_is_over(t->g))
            return 0;
        if (tholder(t) == seat && S(t)->active == seat &&
            strcmp(tstep(t), step) == 0)
            return 1;
        if (tpass(t) != 0)
            return 0;
    }
    return 0;
}

/* A printf'd play. */
#define TPLAY(t, seat, ...)                                                    \
    ({                                                                         \
        char buf_[256];                                                        \
        snprintf(buf_, sizeof buf_, __VA_ARGS__);                              \
        tplay((t), (seat), buf_);                                              \
    })

static __attribute__((unused)) int card_index(const char *key)
{
    return starbase_card_find(starbase_cards(), key);
}

/* Give seat a card `key` in zone: an instance of seat's from its market
 * (or scrapheap) becomes that card. Returns the instance, -1 if none. */
static __attribute__((unused)) int rig(tgame *t, int seat, const char *key,
                                       int zone, int region)
{
    sb_state *s = S(t);
    for (int i = 0; i < s->ninst; i++) {
        if (s->in[i].owner != seat || s->in[i].zone != SB_Z_MARKET)
            continue;
        s->in[i].card = card_index(key);
        sb_move(s, i, zone, region);
        return i;
    }
    return -1;
}

/* Where one card is: exactly one zone, and a valid one. */
static __attribute__((unused)) int invariants_ok(const sb_state *s)
{
    const starbase_cardset *cs = starbase_cards();
    int per_owner[SB_MAX_SEATS] = {0};
    for (int p = 0; p < s->seats; p++)
        if (s->p[p].isk < 0 || s->p[p].damage < 0)
            return 0;
    for (int i = 0; i < s->ninst; i++) {
        const sb_inst *c = &s->in[i];
        if (c->owner < 0 || c->owner >= s->seats || c->zone < 0 ||
            c->zone >= SB_Z_COUNT)
            return 0;
        per_owner[c->owner]++;
        int kind = cs->cards[c->card].kind;
        if ((c->zone == SB_Z_REGION || c->zone == SB_Z_DOCK) &&
            kind != STARBASE_SHIP)
            return 0;
        if ((c->zone == SB_Z_OUTER || c->zone == SB_Z_OUTER_STACK) !=
            (kind == STARBASE_OUTER_REGION && c->zone != SB_Z_SCRAP))
            return 0; /* an outer region leaves play only with its owner */
        if ((c->zone == SB_Z_REGION || c->zone == SB_Z_LOCATION) && !s->over &&
            !sb_region_valid(s, c->region))
            return 0;
        if (c->zone != SB_Z_REGION && c->zone != SB_Z_LOCATION &&
            c->region != -1)
            return 0;
    }
    for (int p = 0; p < s->seats; p++) {
        const starbase_market *m = &cs->markets[s->p[p].market];
        if (per_owner[p] != m->ncards + m->nregions)
            return 0;
    }
    return 1;
}

static __attribute__((unused)) void tinit(void)
{
    engine_error err;
    quick = getenv("CONCLAVE_TEST_QUICK") != NULL;
    if (engine_init(&err) != 0)
        fprintf(stderr, "engine_init: %s\n", err.msg);
}

#endif

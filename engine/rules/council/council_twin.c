/*
 * council_twin.c - Galactic Council's twin hook (engine_ruleset.twin, for
 * tests/unit/test_twin.c): a state the seat cannot tell from this one.
 *
 * What a seat does not know, and the twin varies:
 *  - unexplored sectors: their tiles and markers are swapped among them
 *    (no units stand there: ships that enter explore);
 *  - hidden markers the seat has not inspected: their kinds are shuffled
 *    among them, wherever they lie;
 *  - other seats' troopers on planets in sectors the seat does not see
 *    now: each gets a new count (0..3: a planet holds without troopers);
 *  - other seats' action cards and the action deck, their unscored secret
 *    objectives and the secret deck, their agenda cards and the agenda
 *    deck: shuffled together and dealt back in the same numbers.
 */
#include "engine/rules/council/council_internal.h"

#include <stdlib.h>
#include <string.h>

void *cnc_twin(const void *state, int seat, engine_rng *rng);

/* Swap the contents (tile, markers) of unexplored systems a and b. */
static void swap_sectors(cnc_galaxy *g, int a, int b)
{
    cnc_sector *x = &g->sec[a], *y = &g->sec[b];
    int8_t tile = x->tile;
    int16_t marker = x->marker, pm[CNC_MAX_PLANETS];
    x->tile = y->tile;
    y->tile = tile;
    x->marker = y->marker;
    y->marker = marker;
    memcpy(pm, x->planet_marker, sizeof pm);
    memcpy(x->planet_marker, y->planet_marker, sizeof pm);
    memcpy(y->planet_marker, pm, sizeof pm);
    for (int m = 0; m < g->nmarkers; m++)
        if (g->markers[m].sector == a)
            g->markers[m].sector = (int8_t)b;
        else if (g->markers[m].sector == b)
            g->markers[m].sector = (int8_t)a;
}

static void vary_space(cnc_state *s, int seat, engine_rng *rng)
{
    cnc_galaxy *g = &s->g;
    int un[CNC_MAX_SECTORS], n = 0;
    for (int x = 0; x < g->nsectors; x++)
        if (!s->fog.explored[x] && g->sec[x].kind == CNC_SEC_SYSTEM)
            un[n++] = x;
    for (int i = n - 1; i > 0; i--)
        swap_sectors(g, un[i], un[engine_rng_below(rng, (uint32_t)i + 1)]);

    int mk[CNC_MAX_MARKERS], kinds[CNC_MAX_MARKERS], nm = 0;
    for (int m = 0; m < g->nmarkers; m++)
        if (g->markers[m].state == CNC_MK_HIDDEN &&
            !cnc_fog_knows_marker(g, &s->fog, seat, m)) {
            mk[nm] = m;
            kinds[nm++] = (int)g->markers[m].kind;
        }
    engine_rng_shuffle(rng, kinds, (size_t)nm, sizeof kinds[0]);
    for (int i = 0; i < nm; i++)
        g->markers[mk[i]].kind = (int8_t)kinds[i];

    for (int x = 0; x < g->nsectors; x++) {
        cnc_sector *sec = &g->sec[x];
        if (!s->fog.explored[x] || cnc_fog_visible(g, &s->fog, seat, x))
            continue;
        for (int p = 0; p < CNC_MAX_PLANETS; p++)
            if (sec->owner[p] >= 0 && sec->owner[p] != seat)
                sec->ground[p] = (uint8_t)engine_rng_below(rng, 4);
    }
}

/* Cards counted per seat in held[seat * stride + card] (other seats only)
 * and a deck tail deck[pos..n) are shuffled together and dealt back. */
static void vary_cards(uint8_t *held, size_t stride, int seats, int seat,
                       int8_t *deck, int pos, int n, engine_rng *rng)
{
    int pool[256], np = 0, count[ENGINE_MAX_SEATS] = {0};
    for (int k = 0; k < seats; k++)
        for (size_t c = 0; k != seat && c < stride; c++)
            for (int i = 0; i < held[k * stride + c] && np < 200; i++) {
                pool[np++] = (int)c;
                count[k]++;
            }
    for (int i = pos; i < n && np < 256; i++)
        pool[np++] = (int)deck[i];
    engine_rng_shuffle(rng, pool, (size_t)np, sizeof pool[0]);
    np = 0;
    for (int k = 0; k < seats; k++) {
        if (k == seat)
            continue;
        memset(&held[k * stride], 0, stride);
        for (int i = 0; i < count[k]; i++)
            held[k * stride + pool[np++]]++;
    }
    for (int i = pos; i < n; i++)
        deck[i] = (int8_t)pool[np++];
}

void *cnc_twin(const void *state, int seat, engine_rng *rng)
{
    cnc_state *s = malloc(sizeof *s);
    if (!s)
        return NULL;
    memcpy(s, state, sizeof *s);
    vary_space(s, seat, rng);

    uint8_t held[ENGINE_MAX_SEATS][CNC_MAX_OBJECTIVES > CNC_MAX_ACTIONS
                                       ? CNC_MAX_OBJECTIVES
                                       : CNC_MAX_ACTIONS];
    for (int k = 0; k < s->seats; k++)
        memcpy(held[k], s->p[k].hand, CNC_MAX_ACTIONS);
    vary_cards(&held[0][0], sizeof held[0], s->seats, seat, s->action_deck,
               s->action_pos, s->naction, rng);
    for (int k = 0; k < s->seats; k++)
        memcpy(s->p[k].hand, held[k], CNC_MAX_ACTIONS);

    memset(held, 0, sizeof held);
    for (int k = 0; k < s->seats; k++)
        for (int o = 0; o < CNC_MAX_OBJECTIVES; o++)
            held[k][o] = s->p[k].secret[o] && !s->p[k].scored[o];
    vary_cards(&held[0][0], sizeof held[0], s->seats, seat, s->secret_deck,
               s->secret_pos, s->nsecret, rng);
    for (int k = 0; k < s->seats; k++)
        for (int o = 0; o < CNC_MAX_OBJECTIVES; o++)
            if (k != seat && !(s->p[k].secret[o] && s->p[k].scored[o]))
                s->p[k].secret[o] = held[k][o];

    vary_cards(&s->c.held[0][0], sizeof s->c.held[0], s->seats, seat, s->c.deck,
               s->c.deck_pos, s->c.ndeck, rng);
    return s;
}

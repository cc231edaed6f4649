/*
 * council_galaxy.c - Galactic Council's hex geometry and galaxy generation:
 * the template's hexes numbered in ring order, homes and the capital, the
 * system deck dealt onto the rest, hidden neutral markers drawn onto
 * systems and planets, starting units at each home.
 */
#include "engine/rules/council/council_galaxy.h"

#include <stdlib.h>
#include <string.h>

const cnc_hex cnc_hex_dirs[6] = {{1, 0},  {1, -1}, {0, -1},
                                 {-1, 0}, {-1, 1}, {0, 1}};

int cnc_hex_distance(cnc_hex a, cnc_hex b)
{
    int dq = a.q - b.q, dr = a.r - b.r;
    return (abs(dq) + abs(dr) + abs(dq + dr)) / 2;
}

cnc_hex cnc_hex_neighbor(cnc_hex h, int dir)
{
    cnc_hex n = {(int8_t)(h.q + cnc_hex_dirs[dir].q),
                 (int8_t)(h.r + cnc_hex_dirs[dir].r)};
    return n;
}

int cnc_sector_at(const cnc_galaxy *g, cnc_hex h)
{
    int R = g->radius;
    if (h.q < -R || h.q > R || h.r < -R || h.r > R)
        return -1;
    return g->grid[h.q + R][h.r + R];
}

int cnc_sector_neighbors(const cnc_galaxy *g, int s, int out[6])
{
    int n = 0;
    for (int d = 0; d < 6; d++) {
        int x = cnc_sector_at(g, cnc_hex_neighbor(g->sec[s].hex, d));
        if (x >= 0)
            out[n++] = x;
    }
    return n;
}

int cnc_sector_distance(const cnc_galaxy *g, int a, int b)
{
    return cnc_hex_distance(g->sec[a].hex, g->sec[b].hex);
}

const cnc_system *cnc_sector_tile(const cnc_data *d, const cnc_galaxy *g, int s)
{
    const cnc_sector *x = &g->sec[s];
    if (x->kind == CNC_SEC_CAPITAL)
        return &d->capital;
    if (x->kind == CNC_SEC_HOME)
        return &d->races[x->tile].home;
    return &d->systems[x->tile];
}

/* Number the hexes of radius R in ring order into g (sec[].hex, grid). */
static void lay_hexes(cnc_galaxy *g, int R)
{
    memset(g->grid, -1, sizeof g->grid);
    g->radius = (int16_t)R;
    g->nsectors = 0;
    for (int k = 0; k <= R; k++) {
        cnc_hex h = {(int8_t)(-k), (int8_t)k};
        for (int side = 0; side < 6; side++)
            for (int step = 0; step < (k ? k : 1); step++) {
                if (k == 0 && side > 0)
                    break;
                cnc_sector *s = &g->sec[g->nsectors];
                memset(s, 0, sizeof *s);
                s->hex = h;
                s->seat = -1;
                s->tile = -1;
                s->marker = -1;
                for (int p = 0; p < CNC_MAX_PLANETS; p++) {
                    s->planet_marker[p] = -1;
                    s->owner[p] = -1;
                }
                g->grid[h.q + R][h.r + R] = g->nsectors++;
                if (k)
                    h = cnc_hex_neighbor(h, side);
            }
    }
}

/* Place a hidden marker drawn from pool (n left, consumed from the end). */
static int16_t place_marker(cnc_galaxy *g, int8_t *pool, int *n, int sector,
                            int planet)
{
    if (*n <= 0)
        return -1; /* cannot happen: the data validation counts the pools */
    cnc_marker *m = &g->markers[g->nmarkers];
    m->kind = pool[--*n];
    m->sector = (int8_t)sector;
    m->planet = (int8_t)planet;
    m->state = CNC_MK_HIDDEN;
    return g->nmarkers++;
}

/* Deal tiles and markers onto every sector that is not a home or the
 * capital. */
static void deal_systems(const cnc_data *d, int fixed_map, engine_rng *rng,
                         cnc_galaxy *g)
{
    int8_t deck[CNC_MAX_DECK], pm[CNC_MAX_MARKERS], sm[CNC_MAX_MARKERS];
    int nd = 0, npm = 0, nsm = 0;
    for (int i = 0; i < d->nsystems; i++)
        for (int c = 0; c < d->systems[i].count; c++)
            deck[nd++] = (int8_t)i;
    for (int i = 0; i < d->nmarkers; i++)
        for (int c = 0; c < d->markers[i].count; c++) {
            if (d->markers[i].where == CNC_WHERE_PLANET)
                pm[npm++] = (int8_t)i;
            else
                sm[nsm++] = (int8_t)i;
        }
    if (!fixed_map)
        engine_rng_shuffle(rng, deck, (size_t)nd, 1);
    engine_rng_shuffle(rng, pm, (size_t)npm, 1);
    engine_rng_shuffle(rng, sm, (size_t)nsm, 1);
    int next = 0;
    for (int s = 0; s < g->nsectors; s++) {
        cnc_sector *x = &g->sec[s];
        if (x->kind != CNC_SEC_SYSTEM)
            continue;
        x->tile = deck[next++];
        const cnc_system *t = &d->systems[x->tile];
        if (t->kind == CNC_SYS_PLANETS || t->kind == CNC_SYS_EMPTY)
            x->marker = place_marker(g, sm, &nsm, s, -1);
        for (int p = 0; p < t->nplanets; p++)
            x->planet_marker[p] = place_marker(g, pm, &npm, s, p);
    }
}

/* Seat i's home: its race's tile, planets controlled, starting units. */
static void settle_home(const cnc_data *d, cnc_galaxy *g, int seat, int s)
{
    cnc_sector *x = &g->sec[s];
    x->kind = CNC_SEC_HOME;
    x->seat = (int8_t)seat;
    x->tile = g->race[seat];
    g->home[seat] = (int8_t)s;
    const cnc_system *t = &d->races[x->tile].home;
    for (int p = 0; p < t->nplanets; p++)
        x->owner[p] = (int8_t)seat;
    for (int u = 0; u < d->nunits; u++) {
        if (d->units[u].kind == CNC_UNIT_GROUND)
            x->ground[0] = (uint8_t)(x->ground[0] + d->rules.start_units[u]);
        else
            x->units[seat][u] = (uint8_t)d->rules.start_units[u];
    }
}

int cnc_galaxy_generate(const cnc_data *d, int players, const int *races,
                        int fixed_map, engine_rng *rng, cnc_galaxy *out,
                        engine_error *err)
{
    const cnc_template *t = cnc_template_for(d, players);
    if (!t || players > ENGINE_MAX_SEATS)
        return engine_fail(err, ENGINE_EINVALID, "players",
                           "Galactic Council is for %d to %d players, not %d",
                           CNC_MIN_PLAYERS, CNC_MAX_PLAYERS, players);
    for (int i = 0; i < players; i++) {
        if (races[i] < 0 || races[i] >= d->nraces)
            return engine_fail(err, ENGINE_EINVALID, "races",
                               "seat %d: race %d is not in 0..%d", i, races[i],
                               d->nraces - 1);
        for (int j = 0; j < i; j++)
            if (races[j] == races[i])
                return engine_fail(err, ENGINE_EINVALID, "races",
                                   "seats %d and %d both play %s", j, i,
                                   d->races[races[i]].name);
    }
    memset(out, 0, sizeof *out);
    out->players = (int8_t)players;
    memset(out->home, -1, sizeof out->home);
    memset(out->race, -1, sizeof out->race);
    lay_hexes(out, t->radius);
    out->capital = 0;
    out->sec[0].kind = CNC_SEC_CAPITAL;
    for (int i = 0; i < players; i++) {
        out->race[i] = (int8_t)races[i];
        cnc_hex h = {t->home_q[i], t->home_r[i]};
        settle_home(d, out, i, cnc_sector_at(out, h));
    }
    deal_systems(d, fixed_map, rng, out);
    return 0;
}

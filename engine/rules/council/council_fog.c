/*
 * council_fog.c - Galactic Council's fog of war: exploration (paid, by
 * ships, by long-range scanners, by espionage), private marker knowledge,
 * sensor range and shared vision, last-seen memory, and the rendering of
 * the galaxy as one seat (or the public) knows it.
 */
#include "engine/rules/council/council_fog.h"

#include <string.h>

static void mark_explored(cnc_fog *fog, int s, int seat, int round)
{
    fog->explored[s] = 1;
    fog->explored_by[s] = (int8_t)seat;
    fog->explored_round[s] = (int16_t)round;
}

void cnc_fog_init(const cnc_data *d, const cnc_galaxy *g, cnc_fog *fog)
{
    memset(fog, 0, sizeof *fog);
    fog->players = g->players;
    for (int s = 0; s < CNC_MAX_SECTORS; s++)
        fog->explored_by[s] = -1;
    for (int s = 0; s < g->nsectors; s++)
        if (g->sec[s].kind != CNC_SEC_SYSTEM)
            mark_explored(fog, s, -1, 0);
    for (int p = 0; p < ENGINE_MAX_SEATS; p++) {
        fog->sensor[p] = d->rules.sensor_range;
        for (int s = 0; s < CNC_MAX_SECTORS; s++)
            fog->memory[p][s].round = -1;
    }
    cnc_fog_observe(g, fog, 0);
}

void cnc_fog_new_round(cnc_fog *fog)
{
    memset(fog->explores, 0, sizeof fog->explores);
    memset(fog->scanned, 0, sizeof fog->scanned);
}

int cnc_fog_explore_cost(const cnc_fog *fog, int seat)
{
    return fog->explores[seat] + 1;
}

/* Distance from s to the nearest explored sector (99 when none). */
static int to_explored(const cnc_galaxy *g, const cnc_fog *fog, int s)
{
    int best = 99;
    for (int x = 0; x < g->nsectors; x++)
        if (fog->explored[x] && cnc_sector_distance(g, s, x) < best)
            best = cnc_sector_distance(g, s, x);
    return best;
}

int cnc_fog_frontier(const cnc_galaxy *g, const cnc_fog *fog, int s)
{
    return s >= 0 && s < g->nsectors && !fog->explored[s] &&
           to_explored(g, fog, s) == 1;
}

int cnc_fog_explore_paid(const cnc_galaxy *g, cnc_fog *fog, int seat, int s,
                         int round, int *trade_goods, engine_error *err)
{
    if (!cnc_fog_frontier(g, fog, s))
        return engine_fail(err, ENGINE_EINVALID, "sector",
                           "only an unexplored sector next to explored space "
                           "can be explored");
    int cost = cnc_fog_explore_cost(fog, seat);
    if (*trade_goods < cost)
        return engine_fail(err, ENGINE_EINVALID, "trade_goods",
                           "exploration %d this round costs %d trade goods, "
                           "you have %d",
                           cost, cost, *trade_goods);
    *trade_goods -= cost;
    fog->explores[seat]++;
    mark_explored(fog, s, seat, round);
    return 0;
}

int cnc_fog_explore_by_ships(cnc_fog *fog, int seat, int s, int round)
{
    if (fog->explored[s])
        return 0;
    mark_explored(fog, s, seat, round);
    return 1;
}

/* A marker seat may inspect: hidden, in an explored sector, not known. */
static int inspectable(const cnc_galaxy *g, const cnc_fog *fog, int seat, int m)
{
    return m >= 0 && m < g->nmarkers && g->markers[m].state == CNC_MK_HIDDEN &&
           fog->explored[g->markers[m].sector] && !fog->inspected[seat][m];
}

int cnc_fog_scan(const cnc_data *d, const cnc_galaxy *g, cnc_fog *fog, int seat,
                 cnc_fog_target t, int round, engine_error *err)
{
    if (!fog->scanner[seat])
        return engine_fail(err, ENGINE_EINVALID, "scanner",
                           "scanning needs the long-range scanner technology");
    if (fog->scanned[seat])
        return engine_fail(err, ENGINE_EINVALID, "scanner",
                           "the scanners were already used this round");
    if ((t.sector >= 0) == (t.marker >= 0))
        return engine_fail(err, ENGINE_EINVALID, "sector",
                           "scan either a sector or a marker");
    if (t.sector >= 0) {
        if (t.sector >= g->nsectors || fog->explored[t.sector] ||
            to_explored(g, fog, t.sector) > d->rules.scanner_reach)
            return engine_fail(err, ENGINE_EINVALID, "sector",
                               "scanners explore an unexplored sector within "
                               "%d of explored space",
                               d->rules.scanner_reach);
        mark_explored(fog, t.sector, seat, round);
    } else {
        if (!inspectable(g, fog, seat, t.marker))
            return engine_fail(err, ENGINE_EINVALID, "marker",
                               "scanners inspect a hidden marker in an "
                               "explored sector");
        fog->inspected[seat][t.marker] = 1;
    }
    fog->scanned[seat] = 1;
    return 0;
}

int cnc_fog_espionage(cnc_galaxy *g, cnc_fog *fog, int seat,
                      const cnc_fog_target *t, int n, int discard, int round,
                      engine_error *err)
{
    if (n < 1 || n > 3)
        return engine_fail(err, ENGINE_EINVALID, "targets",
                           "espionage inspects 1 to 3 sectors or markers");
    if (discard >= n || (discard >= 0 && t[discard].marker < 0))
        return engine_fail(err, ENGINE_EINVALID, "discard",
                           "only a marker inspected by this espionage can be "
                           "discarded");
    uint8_t explored[CNC_MAX_SECTORS], seen[CNC_MAX_MARKERS];
    memcpy(explored, fog->explored, sizeof explored);
    memcpy(seen, fog->inspected[seat], sizeof seen);
    for (int i = 0; i < n; i++) {
        int ok;
        if ((t[i].sector >= 0) == (t[i].marker >= 0)) {
            ok = 0;
        } else if (t[i].sector >= 0) {
            ok = cnc_fog_frontier(g, fog, t[i].sector);
            if (ok)
                fog->explored[t[i].sector] = 1; /* later picks build on it */
        } else {
            ok = inspectable(g, fog, seat, t[i].marker);
            if (ok)
                fog->inspected[seat][t[i].marker] = 1;
        }
        if (!ok) {
            memcpy(fog->explored, explored, sizeof explored);
            memcpy(fog->inspected[seat], seen, sizeof seen);
            return engine_fail(err, ENGINE_EINVALID, "targets",
                               "pick %d must be a frontier sector or a hidden "
                               "marker in explored space you have not "
                               "inspected",
                               i + 1);
        }
    }
    for (int i = 0; i < n; i++)
        if (t[i].sector >= 0)
            mark_explored(fog, t[i].sector, seat, round);
    if (discard >= 0)
        g->markers[t[discard].marker].state = CNC_MK_DISCARDED;
    return 0;
}

void cnc_fog_inspect(cnc_fog *fog, int seat, int m)
{
    fog->inspected[seat][m] = 1;
}

int cnc_fog_knows_marker(const cnc_galaxy *g, const cnc_fog *fog, int seat,
                         int m)
{
    if (g->markers[m].state == CNC_MK_REVEALED)
        return 1;
    return g->markers[m].state == CNC_MK_HIDDEN && seat >= 0 &&
           fog->inspected[seat][m];
}

void cnc_fog_set_share(cnc_fog *fog, int a, int b, int on)
{
    if (on)
        fog->share[a] = (uint8_t)(fog->share[a] | (1u << b));
    else
        fog->share[a] = (uint8_t)(fog->share[a] & ~(1u << b));
}

int cnc_fog_allied(const cnc_fog *fog, int a, int b)
{
    return a != b && (fog->share[a] >> b & 1) && (fog->share[b] >> a & 1);
}

/* 1 when seat has units in space or controls a planet in sector x. */
static int present(const cnc_galaxy *g, int seat, int x)
{
    const cnc_sector *s = &g->sec[x];
    for (int u = 0; u < CNC_MAX_UNITS; u++)
        if (s->units[seat][u])
            return 1;
    for (int p = 0; p < CNC_MAX_PLANETS; p++)
        if (s->owner[p] == seat)
            return 1;
    return 0;
}

int cnc_fog_sees(const cnc_galaxy *g, const cnc_fog *fog, int seat, int s)
{
    for (int x = 0; x < g->nsectors; x++)
        if (cnc_sector_distance(g, s, x) <= fog->sensor[seat] &&
            present(g, seat, x))
            return 1;
    return 0;
}

int cnc_fog_visible(const cnc_galaxy *g, const cnc_fog *fog, int seat, int s)
{
    if (cnc_fog_sees(g, fog, seat, s))
        return 1;
    for (int a = 0; a < g->players; a++)
        if (cnc_fog_allied(fog, seat, a) && cnc_fog_sees(g, fog, a, s))
            return 1;
    return 0;
}

void cnc_fog_observe(const cnc_galaxy *g, cnc_fog *fog, int round)
{
    for (int p = 0; p < g->players; p++)
        for (int s = 0; s < g->nsectors; s++) {
            if (!fog->explored[s] || !cnc_fog_visible(g, fog, p, s))
                continue;
            cnc_memory *m = &fog->memory[p][s];
            m->round = (int16_t)round;
            memcpy(m->units, g->sec[s].units, sizeof m->units);
            memcpy(m->ground, g->sec[s].ground, sizeof m->ground);
        }
}

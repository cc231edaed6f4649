/*
 * council_fog_view.c - renders the galaxy as one seat knows it, or the
 * public galaxy for spectators (council_fog.h, cnc_fog_render). Reads only
 * what the audience may know: explored sectors' tiles and planet control,
 * markers the seat knows, units it sees now or saw before (with the round);
 * never an unexplored sector's tile, a hidden marker's identity, or units
 * out of sight.
 */
#include "engine/rules/council/council_fog.h"

#include <string.h>

/* A marker as the audience knows it: null, "hidden" or its identity. */
static json_t *marker_json(const cnc_data *d, const cnc_galaxy *g,
                           const cnc_fog *fog, int seat, int m)
{
    if (m < 0 || g->markers[m].state == CNC_MK_DISCARDED)
        return json_null();
    if (!cnc_fog_knows_marker(g, fog, seat, m))
        return json_string("hidden");
    const cnc_marker_kind *k = &d->markers[g->markers[m].kind];
    return json_pack("{s:s, s:s, s:b, s:s}", "key", k->key, "name", k->name,
                     "hostile", (int)k->hostile, "text", k->text);
}

static json_t *units_json(const cnc_data *d, const uint8_t *units)
{
    json_t *o = json_object();
    for (int u = 0; u < d->nunits; u++)
        if (units[u])
            json_object_set_new(o, d->units[u].key, json_integer(units[u]));
    return o;
}

/* The units a seat sees in sector s: live when visible now, else what it
 * remembers (its round is -1 when never seen). */
static const cnc_memory *sight(const cnc_galaxy *g, const cnc_fog *fog,
                               int seat, int s, cnc_memory *live, int round)
{
    if (cnc_fog_visible(g, fog, seat, s)) {
        live->round = (int16_t)round;
        memcpy(live->units, g->sec[s].units, sizeof live->units);
        memcpy(live->ground, g->sec[s].ground, sizeof live->ground);
        return live;
    }
    return &fog->memory[seat][s];
}

static json_t *planets_json(const cnc_data *d, const cnc_galaxy *g,
                            const cnc_fog *fog, int seat, int s,
                            const cnc_memory *m)
{
    const cnc_system *t = cnc_sector_tile(d, g, s);
    const cnc_sector *x = &g->sec[s];
    json_t *a = json_array();
    for (int p = 0; p < t->nplanets; p++) {
        const cnc_planet *pl = &t->planets[p];
        json_t *o = json_pack(
            "{s:s, s:s, s:i, s:i, s:s, s:o, s:o}", "key", pl->key, "name",
            pl->name, "resources", pl->resources, "influence", pl->influence,
            "trait", cnc_trait_name(pl->trait), "owner",
            x->owner[p] >= 0 ? json_integer(x->owner[p]) : json_null(),
            "marker", marker_json(d, g, fog, seat, x->planet_marker[p]));
        if (seat >= 0)
            json_object_set_new(o, "troops",
                                m->round >= 0 ? json_integer(m->ground[p])
                                              : json_null());
        json_array_append_new(a, o);
    }
    return a;
}

static json_t *fleets_json(const cnc_data *d, const cnc_galaxy *g,
                           const cnc_memory *m)
{
    json_t *a = json_array();
    for (int p = 0; m->round >= 0 && p < g->players; p++) {
        int any = 0;
        for (int u = 0; u < d->nunits; u++)
            any |= m->units[p][u] != 0;
        if (any)
            json_array_append_new(a, json_pack("{s:i, s:o}", "seat", p, "units",
                                               units_json(d, m->units[p])));
    }
    return a;
}

static json_t *sector_json(const cnc_data *d, const cnc_galaxy *g,
                           const cnc_fog *fog, int seat, int s, int round)
{
    static const char *const kinds[] = {"system", "home", "capital"};
    const cnc_sector *x = &g->sec[s];
    json_t *o = json_pack("{s:i, s:i, s:b}", "q", x->hex.q, "r", x->hex.r,
                          "explored", (int)fog->explored[s]);
    if (!fog->explored[s])
        return o;
    const cnc_system *t = cnc_sector_tile(d, g, s);
    cnc_memory live;
    const cnc_memory *m =
        seat >= 0 ? sight(g, fog, seat, s, &live, round) : NULL;
    json_object_set_new(o, "kind", json_string(kinds[x->kind]));
    json_object_set_new(o, "tile", json_string(t->key));
    json_object_set_new(o, "name", json_string(t->name));
    json_object_set_new(o, "type", json_string(cnc_system_kind_name(t->kind)));
    json_object_set_new(o, "home",
                        x->seat >= 0 ? json_integer(x->seat) : json_null());
    json_object_set_new(o, "explored_round",
                        json_integer(fog->explored_round[s]));
    json_object_set_new(o, "marker", marker_json(d, g, fog, seat, x->marker));
    json_object_set_new(o, "planets", planets_json(d, g, fog, seat, s, m));
    if (seat < 0)
        return o;
    json_object_set_new(o, "fleets", fleets_json(d, g, m));
    json_object_set_new(o, "seen_round",
                        m->round >= 0 ? json_integer(m->round) : json_null());
    json_object_set_new(o, "live", json_boolean(m == &live));
    return o;
}

json_t *cnc_fog_render(const cnc_data *d, const cnc_galaxy *g,
                       const cnc_fog *fog, int seat, int round)
{
    json_t *sectors = json_array();
    for (int s = 0; s < g->nsectors; s++)
        json_array_append_new(sectors, sector_json(d, g, fog, seat, s, round));
    json_t *o = json_pack(
        "{s:i, s:i, s:o, s:o}", "radius", g->radius, "round", round, "seat",
        seat >= 0 ? json_integer(seat) : json_null(), "sectors", sectors);
    if (o && seat >= 0)
        json_object_set_new(o, "explore_cost",
                            json_integer(cnc_fog_explore_cost(fog, seat)));
    return o;
}

/*
 * council_galaxy.h - Galactic Council's hex galaxy: axial hex coordinates,
 * adjacency and distance, and the galaxy itself (sectors with their system
 * tiles, planet control, units, and the neutral markers hidden on systems
 * and planets), generated from a map template and the game's RNG.
 *
 * Plain fixed-size data (a copy is a memcpy). Sectors are numbered in ring
 * order: 0 is the capital at (0,0), then ring 1, ring 2, ... each ring
 * starting at (-k, k) and walking the directions in order. This module holds
 * the truth; what each seat knows of it is council_fog.h's concern.
 */
#ifndef CONCLAVE_COUNCIL_GALAXY_H
#define CONCLAVE_COUNCIL_GALAXY_H

#include "engine/rules/council/council_data.h"

#define CNC_MAX_SECTORS 61 /* radius 4 */
#define CNC_GRID (2 * CNC_MAX_RADIUS + 1)
#define CNC_MAX_MARKERS (CNC_MAX_SECTORS * (1 + CNC_MAX_PLANETS))

/* An axial hex coordinate (q, r); the third cube coordinate is -q-r. */
typedef struct cnc_hex {
    int8_t q, r;
} cnc_hex;

/* The six directions, in order: +q, +q-r, -r, -q, -q+r, +r. */
extern const cnc_hex cnc_hex_dirs[6];

/* Sector kinds. */
enum { CNC_SEC_SYSTEM = 0, CNC_SEC_HOME, CNC_SEC_CAPITAL };

/* Marker states: hidden (known only to seats that inspected it), revealed
 * (resolved in the open: public), discarded (gone unseen, without effect). */
enum { CNC_MK_HIDDEN = 0, CNC_MK_REVEALED, CNC_MK_DISCARDED };

typedef struct cnc_sector {
    cnc_hex hex;
    uint8_t kind;   /* CNC_SEC_* */
    int8_t seat;    /* home: whose; otherwise -1 */
    int8_t tile;    /* system: index in data->systems; home: race; else -1 */
    int16_t marker; /* system marker instance or -1 */
    int16_t planet_marker[CNC_MAX_PLANETS]; /* instance or -1 */
    int8_t owner[CNC_MAX_PLANETS];          /* controlling seat or -1 */
    uint8_t ground[CNC_MAX_PLANETS];        /* the owner's troopers there */
    uint8_t units[ENGINE_MAX_SEATS][CNC_MAX_UNITS]; /* in space, by unit */
} cnc_sector;

typedef struct cnc_marker {
    int8_t kind;   /* index in data->markers */
    int8_t sector; /* where it lies */
    int8_t planet; /* planet index in the sector, -1 for the system */
    uint8_t state; /* CNC_MK_* */
} cnc_marker;

typedef struct cnc_galaxy {
    int8_t players, nsectors, capital;
    int16_t radius;
    int8_t home[ENGINE_MAX_SEATS]; /* sector of each seat's home */
    int8_t race[ENGINE_MAX_SEATS]; /* each seat's race index */
    int16_t nmarkers;
    int8_t grid[CNC_GRID][CNC_GRID]; /* sector at [q+R][r+R], -1 off map */
    cnc_sector sec[CNC_MAX_SECTORS];
    cnc_marker markers[CNC_MAX_MARKERS];
} cnc_galaxy;

/* Hex distance in steps. Cannot fail. */
int cnc_hex_distance(cnc_hex a, cnc_hex b);

/* The neighbour of h in direction dir (0..5). Cannot fail. */
cnc_hex cnc_hex_neighbor(cnc_hex h, int dir);

/* Sector index at hex h, or -1 when h is off the map. */
int cnc_sector_at(const cnc_galaxy *g, cnc_hex h);

/* The sectors adjacent to sector s written to out (up to 6); returns how
 * many. */
int cnc_sector_neighbors(const cnc_galaxy *g, int s, int out[6]);

/* Distance in steps between sectors a and b. */
int cnc_sector_distance(const cnc_galaxy *g, int a, int b);

/* The tile of sector s: a systems[] entry, a race's home or the capital
 * (borrowed from d). */
const cnc_system *cnc_sector_tile(const cnc_data *d, const cnc_galaxy *g,
                                  int s);

/* Generate the galaxy for players seats (3..8) with races[seat] (distinct
 * race indices) into *out (overwritten): the template's hexes, the capital
 * at the centre, each seat's home at the template's i-th home with its
 * starting units, system tiles drawn from the deck shuffled by rng (or
 * dealt in council.json order when fixed_map), and a hidden marker on every
 * non-home planet and every planet or empty system outside home and
 * capital, drawn from the shuffled marker pools (shuffled also on a fixed
 * map). Deterministic for the rng state. 0, or ENGINE_EINVALID naming the
 * field ("players", "races"). */
int cnc_galaxy_generate(const cnc_data *d, int players, const int *races,
                        int fixed_map, engine_rng *rng, cnc_galaxy *out,
                        engine_error *err);

#endif

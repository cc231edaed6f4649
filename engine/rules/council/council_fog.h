/*
 * council_fog.h - Galactic Council's fog of war: what each seat knows of
 * the galaxy. Explored sectors are public (everyone sees their tiles and
 * who controls their planets); an inspected marker is known only to the
 * seats that inspected it; other seats' units are seen only within sensor
 * range (of the seat or of an ally who shares vision both ways), and a
 * sector seen before stays on the map as it was last seen, marked with
 * that round. Exploration paid in trade goods costs 1, 2, 3... within a
 * round; long-range scanners and the espionage strategy explore and
 * inspect on their own terms (docs/games/council.md, "Fog of war").
 *
 * Plain fixed-size data next to the cnc_galaxy it describes; the galaxy
 * holds the truth, the fog only knowledge. Rendering reads both and never
 * writes either.
 */
#ifndef CONCLAVE_COUNCIL_FOG_H
#define CONCLAVE_COUNCIL_FOG_H

#include "engine/rules/council/council_galaxy.h"

/* What a seat last saw of a sector: other seats' units in space and the
 * troopers on each planet, and the round it saw them (-1: never). */
typedef struct cnc_memory {
    int16_t round;
    uint8_t units[ENGINE_MAX_SEATS][CNC_MAX_UNITS];
    uint8_t ground[CNC_MAX_PLANETS];
} cnc_memory;

typedef struct cnc_fog {
    int8_t players;
    uint8_t explored[CNC_MAX_SECTORS];       /* public */
    int16_t explored_round[CNC_MAX_SECTORS]; /* round it was explored */
    int8_t explored_by[CNC_MAX_SECTORS];     /* seat, -1: known at start */
    uint8_t inspected[ENGINE_MAX_SEATS][CNC_MAX_MARKERS]; /* private */
    uint8_t explores[ENGINE_MAX_SEATS]; /* paid explorations this round */
    uint8_t scanned[ENGINE_MAX_SEATS];  /* scanner used this round */
    uint8_t scanner[ENGINE_MAX_SEATS];  /* owns long-range scanners */
    int8_t sensor[ENGINE_MAX_SEATS];    /* sensor range */
    uint8_t share[ENGINE_MAX_SEATS];    /* bit b: offers its vision to b */
    cnc_memory memory[ENGINE_MAX_SEATS][CNC_MAX_SECTORS];
} cnc_fog;

/* One pick of the espionage strategy's exploration: a sector to explore
 * (sector >= 0, marker -1) or a hidden marker to inspect (marker >= 0,
 * sector -1). */
typedef struct cnc_fog_target {
    int sector, marker;
} cnc_fog_target;

/* Start knowledge into *fog (overwritten): the shape of the galaxy, every
 * home and the capital explored (known to all, explored_by -1, round 0),
 * nothing inspected, sensor range from the rules, and each seat's first
 * sight recorded as round 0. Cannot fail. */
void cnc_fog_init(const cnc_data *d, const cnc_galaxy *g, cnc_fog *fog);

/* A new round: the exploration costs start again at 1 and the scanners
 * are ready. Cannot fail. */
void cnc_fog_new_round(cnc_fog *fog);

/* What seat's next paid exploration this round costs: 1 for the first, 2
 * for the second, and so on. */
int cnc_fog_explore_cost(const cnc_fog *fog, int seat);

/* 1 when sector s is unexplored and adjacent to an explored sector. */
int cnc_fog_frontier(const cnc_galaxy *g, const cnc_fog *fog, int s);

/* Seat pays cnc_fog_explore_cost trade goods out of *trade_goods to
 * explore frontier sector s in round. 0, or ENGINE_EINVALID naming
 * "sector" (not on the frontier) or "trade_goods" (cannot pay); nothing
 * changes on failure. */
int cnc_fog_explore_paid(const cnc_galaxy *g, cnc_fog *fog, int seat, int s,
                         int round, int *trade_goods, engine_error *err);

/* Seat's ships entered sector s in round: it is explored if it was not,
 * free and wherever it lies. Returns 1 when newly explored, else 0. */
int cnc_fog_explore_by_ships(cnc_fog *fog, int seat, int s, int round);

/* Long-range scanners, once a round for a seat that owns them: explore an
 * unexplored sector within rules.scanner_reach of an explored sector, or
 * inspect a hidden marker in an explored sector (t: exactly one of sector
 * or marker >= 0). 0, or ENGINE_EINVALID naming "scanner", "sector" or
 * "marker"; nothing changes on failure. */
int cnc_fog_scan(const cnc_data *d, const cnc_galaxy *g, cnc_fog *fog, int seat,
                 cnc_fog_target t, int round, engine_error *err);

/* The espionage strategy's exploration: up to three picks taken in order
 * (a sector must be on the frontier when its turn comes; a marker must be
 * hidden in an explored sector, not yet inspected by seat), then, when
 * discard >= 0, the marker picked as t[discard] is discarded without
 * effect, unseen by anyone else. Free. 0, or ENGINE_EINVALID naming
 * "targets" or "discard"; nothing changes (fog or galaxy) on failure. */
int cnc_fog_espionage(cnc_galaxy *g, cnc_fog *fog, int seat,
                      const cnc_fog_target *t, int n, int discard, int round,
                      engine_error *err);

/* Seat learns what marker m is (privately). Cannot fail. */
void cnc_fog_inspect(cnc_fog *fog, int seat, int m);

/* 1 when seat knows what marker m is: it inspected it, or the marker was
 * revealed in the open. Discarded markers are known to no one. */
int cnc_fog_knows_marker(const cnc_galaxy *g, const cnc_fog *fog, int seat,
                         int m);

/* Seat a offers (on) or withdraws its vision to seat b. Vision is shared
 * only while both offer it to each other. Cannot fail. */
void cnc_fog_set_share(cnc_fog *fog, int a, int b, int on);
int cnc_fog_allied(const cnc_fog *fog, int a, int b);

/* 1 when seat's own sensors reach sector s: it has units in space or
 * controls a planet within its sensor range of s. */
int cnc_fog_sees(const cnc_galaxy *g, const cnc_fog *fog, int seat, int s);

/* 1 when seat sees sector s itself or through an ally sharing vision. */
int cnc_fog_visible(const cnc_galaxy *g, const cnc_fog *fog, int seat, int s);

/* Record, for every seat, what it now sees of every explored sector
 * visible to it, marked with round. Cannot fail. */
void cnc_fog_observe(const cnc_galaxy *g, cnc_fog *fog, int round);

/* The galaxy as seat knows it (seat = ENGINE_PUBLIC: the public galaxy of
 * spectators, with no units at all), as a new JSON object:
 *   {"radius", "round", "seat" (null for the public), "explore_cost"
 *    (seats only), "sectors": [...]}
 * Each sector is {"q", "r", "explored"}; an explored one adds "kind"
 * (system, home, capital), "tile", "name", "type" (planets, empty, nebula,
 * ...), "home" (seat or null), "explored_round", "marker", "planets":
 * [{"key", "name", "resources", "influence", "trait", "owner", "marker",
 * "troops" (seats only, null when never seen)}], and for seats "fleets":
 * [{"seat", "units": {unit key: count}}], "seen_round" (null: never seen)
 * and "live" (seen now). A marker is null (none), "hidden", or {"key",
 * "name", "hostile", "text"} when the seat knows it. NULL on out of
 * memory. */
json_t *cnc_fog_render(const cnc_data *d, const cnc_galaxy *g,
                       const cnc_fog *fog, int seat, int round);

#endif

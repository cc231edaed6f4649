/*
 * council_orders.h - Galactic Council's sealed orders: one order part (the
 * orders for one fleet or system in an action phase) parsed and validated
 * into plain structs, conditional steps ("if ... then ... else ..."), the
 * planet selectors of trigger and blind landings resolved against the
 * galaxy as it is at resolution, condition evaluation, and a readable
 * English sentence for each order.
 *
 * An order part is a JSON array of steps (or one step object). Each step
 * is an object with "type" (docs/games/council.md, "Orders"):
 *   activate {sector}             move {from, to, units: {key: n}}
 *   land {planet, troops, sector?} produce {sector, units}
 *   strategy {card, option, targets?: [[q, r]...]}
 *   inspect {planet?, sector?}     retreat {to}        hold {}
 *   explore {sector}               scan {sector, planet?}
 *   if {cond, then: [steps], else?: [steps]}
 *   discard {sector?, planet?}     tokens {tactic, fleet, strategy}
 *   combat_retreat {sector, to, after?}
 *   play {card, sector?, planet?}  follow {card, option?, targets?}
 *   share {seat, on?}              lore {sector, planet?}
 *   score {public?: [key...], secret?: [key...]}
 * A hex is [q, r]. "planet" is a planet key, "all", "highest_influence" or
 * "highest_resources" (inspect also takes "system", the default); "troops"
 * is 1..20 or "all". A condition is {type, sector?, not?} with type
 * holds {what: planets|anomaly|marker|enemy_troops}, marker_is {is:
 * hostile|friendly|<marker key>, planet?}, enemy_ships, fleet_survived,
 * influence_at_least {n, planet?}. Steps without a sector act where the
 * order stands: the last activated, moved-to or retreated-to sector. A
 * condition's sector, when given, must be the one the steps before it act
 * on (last activated, moved or retreated to, produced in, landed on,
 * inspected or scanned): a condition is no window on the rest of the
 * galaxy.
 *
 * Validation uses only public knowledge (the data tables and the galaxy's
 * shape), never what a sector holds: an order may name a sector nobody has
 * explored, and must not learn anything by being refused.
 */
#ifndef CONCLAVE_COUNCIL_ORDERS_H
#define CONCLAVE_COUNCIL_ORDERS_H

#include "engine/rules/council/council_galaxy.h"

#define CNC_MAX_STEPS 24
#define CNC_MAX_DEPTH 4 /* nested ifs */
#define CNC_MAX_TROOPS 20
#define CNC_TROOPS_ALL (-1)

#define CNC_SCORE_PREFS 4 /* objectives one score step may rank */

enum {
    CNC_STEP_ACTIVATE = 0,
    CNC_STEP_MOVE,
    CNC_STEP_LAND,
    CNC_STEP_PRODUCE,
    CNC_STEP_STRATEGY,
    CNC_STEP_INSPECT,
    CNC_STEP_RETREAT,
    CNC_STEP_HOLD,
    CNC_STEP_EXPLORE, /* paid exploration of a sector */
    CNC_STEP_SCAN,    /* long-range scanners: a sector, or a marker there */
    CNC_STEP_IF,
    CNC_STEP_DISCARD,        /* espionage: discard a marker it inspected */
    CNC_STEP_TOKENS,         /* status 5: how to split command tokens */
    CNC_STEP_COMBAT_RETREAT, /* standing order: leave a space combat */
    CNC_STEP_PLAY,           /* play an action card */
    CNC_STEP_FOLLOW,         /* another's strategy card's secondary */
    CNC_STEP_SHARE,          /* offer or withdraw shared vision */
    CNC_STEP_LORE,           /* the Quillan special: inspect near you */
    CNC_STEP_SCORE,          /* status 1: the objectives to score */
    CNC_STEP_COUNT
};

/* Planet selectors. */
enum {
    CNC_PL_SYSTEM = 0, /* inspect: the system's own marker */
    CNC_PL_KEY,
    CNC_PL_ALL,
    CNC_PL_HIGHEST_INFLUENCE,
    CNC_PL_HIGHEST_RESOURCES
};

enum {
    CNC_COND_HOLDS = 0,
    CNC_COND_MARKER_IS,
    CNC_COND_ENEMY_SHIPS,
    CNC_COND_FLEET_SURVIVED,
    CNC_COND_INFLUENCE_AT_LEAST,
    CNC_COND_COUNT
};

/* What "holds" asks for. */
enum {
    CNC_HOLDS_PLANETS = 0,
    CNC_HOLDS_ANOMALY,
    CNC_HOLDS_MARKER,
    CNC_HOLDS_ENEMY_TROOPS
};

/* What "marker_is" asks: hostile, friendly, or a marker kind (index). */
enum { CNC_IS_HOSTILE = 0, CNC_IS_FRIENDLY, CNC_IS_KIND };

typedef struct cnc_planet_sel {
    uint8_t how;           /* CNC_PL_* */
    char key[CNC_KEY_MAX]; /* CNC_PL_KEY */
} cnc_planet_sel;

typedef struct cnc_cond {
    uint8_t type;       /* CNC_COND_* */
    uint8_t negate;     /* "not": true */
    uint8_t has_sector; /* else: where the order stands */
    cnc_hex sector;
    uint8_t what; /* holds: CNC_HOLDS_* */
    uint8_t is;   /* marker_is: CNC_IS_* */
    int8_t kind;  /* marker_is a kind: index in data->markers */
    uint8_t has_planet;
    cnc_planet_sel planet; /* marker_is (absent: the marker last inspected),
                              influence_at_least (absent: highest) */
    int8_t n;              /* influence_at_least */
} cnc_cond;

typedef struct cnc_step {
    uint8_t type; /* CNC_STEP_* */
    uint8_t has_sector;
    cnc_hex sector; /* activate, produce, land, inspect; move: from */
    cnc_hex to;     /* move, retreat */
    uint8_t units[CNC_MAX_UNITS]; /* move, produce */
    int8_t troops;                /* land: 1..20 or CNC_TROOPS_ALL */
    cnc_planet_sel planet;        /* land, inspect */
    int8_t card, option;          /* strategy, follow: indices */
    int8_t next_objective;        /* strategy (Chancery): 0, 1 or 2 */
    uint8_t has_planet;           /* discard, play: planet given */
    int8_t pools[3];              /* tokens: tactic, fleet, strategy */
    uint8_t score_has;            /* score: bit 0 public, bit 1 secret given */
    int8_t score_public[CNC_SCORE_PREFS]; /* score: objective indices in */
    int8_t score_secret[CNC_SCORE_PREFS]; /* preference order, -1 ends */
    int8_t after;     /* combat_retreat: rounds fought first */
    int8_t action;    /* play: action card index */
    int8_t other, on; /* share: the other seat, offer or not */
    uint8_t ntargets;
    cnc_hex targets[3];
    cnc_cond cond;                        /* if */
    int16_t then_first, else_first, next; /* step indices or -1 */
} cnc_step;

typedef struct cnc_order {
    int16_t first, nsteps;
    cnc_step steps[CNC_MAX_STEPS];
} cnc_order;

/* Parse one order part into *out (overwritten). g, when not NULL, is used
 * only for the galaxy's shape (hexes must be on the map). 0, or
 * ENGINE_EINVALID with err->field the path of the fault ("[0].then[1].to")
 * and a message naming it. */
int cnc_order_parse(const cnc_data *d, const cnc_galaxy *g, const json_t *part,
                    cnc_order *out, engine_error *err);

/* The name of step type t as orders spell it ("move"; "?" out of range). */
const char *cnc_step_name(int type);

/* The order as one English sentence ("Move 1 carrier and 2 troopers from
 * (0, 1) to (1, 0); then inspect the marker there; if it is hostile then
 * retreat to (0, 1), otherwise land all troopers on every planet.") into
 * buf of n bytes. Returns the sentence's length, or -1 when it did not fit
 * (buf then holds a truncated, NUL-terminated prefix). */
int cnc_order_sentence(const cnc_data *d, const cnc_order *o, char *buf,
                       size_t n);

/* The planets of sector s that sel picks in the galaxy as it is now (a
 * trigger or blind landing resolves here, whatever was known when the
 * order was given): indices into out, ascending; returns how many (ties
 * for the highest take the lowest index; CNC_PL_SYSTEM picks none). */
int cnc_select_planets(const cnc_data *d, const cnc_galaxy *g, int s,
                       const cnc_planet_sel *sel, int out[CNC_MAX_PLANETS]);

/* Where a condition is evaluated: the acting seat, the sector the order
 * stands in, the marker its last inspect step looked at (-1: none), and
 * whether its fleet survived so far. */
typedef struct cnc_cond_ctx {
    int seat, sector, inspected, fleet_survived;
} cnc_cond_ctx;

/* 1 when c holds in galaxy g for ctx, else 0 (a marker condition about a
 * marker that is gone or absent is false). */
int cnc_cond_eval(const cnc_data *d, const cnc_galaxy *g, const cnc_cond *c,
                  const cnc_cond_ctx *ctx);

#endif

/*
 * council_data.h - Galactic Council's rules data: units, races with their
 * representatives, strategy cards, technologies, system tiles, the capital,
 * neutral markers, map templates, objectives and action cards, parsed and
 * validated from council.json (embedded by council_json.S) into one
 * immutable table.
 *
 * Everything is plain fixed-size data indexed by small integers in
 * council.json order; the galaxy, fog and order modules refer to items by
 * those indices. Nothing here knows about games in play.
 */
#ifndef CONCLAVE_COUNCIL_DATA_H
#define CONCLAVE_COUNCIL_DATA_H

#include "engine/engine.h"

#include <stdint.h>

#define CNC_KEY_MAX 24   /* including the NUL */
#define CNC_NAME_MAX 32  /* including the NUL */
#define CNC_TEXT_MAX 160 /* including the NUL */
#define CNC_MAX_UNITS 8
#define CNC_MAX_RACES 12
#define CNC_MAX_STRATEGIES 8
#define CNC_MAX_TECHS 24
#define CNC_MAX_REQUIRES 2
#define CNC_MAX_PLANETS 3  /* per system */
#define CNC_MAX_SYSTEMS 48 /* distinct tiles */
#define CNC_MAX_DECK 64    /* tiles with their counts */
#define CNC_MAX_MARKER_KINDS 16
#define CNC_MAX_OBJECTIVES 32
#define CNC_MAX_ACTIONS 40
#define CNC_MAX_AGENDAS 24
#define CNC_MAX_OPTIONS 3
#define CNC_MIN_PLAYERS 3
#define CNC_MAX_PLAYERS 8
#define CNC_MAX_RADIUS 4

/* Unit kinds. */
enum { CNC_UNIT_SHIP = 0, CNC_UNIT_FIGHTER, CNC_UNIT_GROUND };

/* Planet traits (0 = none). */
enum {
    CNC_TRAIT_NONE = 0,
    CNC_TRAIT_INDUSTRIAL,
    CNC_TRAIT_CULTURAL,
    CNC_TRAIT_HAZARDOUS,
    CNC_TRAIT_COUNT
};

/* System tile kinds. Every kind but planets and empty is an anomaly. */
enum {
    CNC_SYS_PLANETS = 0,
    CNC_SYS_EMPTY,
    CNC_SYS_NEBULA,
    CNC_SYS_ASTEROIDS,
    CNC_SYS_RIFT,
    CNC_SYS_STORM,
    CNC_SYS_KIND_COUNT
};

/* Race special rules. */
enum {
    CNC_RACE_TRADE_BONUS = 0,
    CNC_RACE_CHEAP_EXPLORE,
    CNC_RACE_FAR_SIGHT,
    CNC_RACE_SPACE_ASSAULT,
    CNC_RACE_GROUND_ASSAULT,
    CNC_RACE_EXTRA_COMMAND,
    CNC_RACE_SHIPWRIGHT,
    CNC_RACE_ORATORS,
    CNC_RACE_MARKER_LORE,
    CNC_RACE_COUNT
};

/* Representative roles and abilities (used by the council). */
enum { CNC_REP_SPY = 0, CNC_REP_BODYGUARD, CNC_REP_COUNCILLOR, CNC_REP_COUNT };
enum {
    CNC_RAB_NONE = 0,
    CNC_RAB_ASSASSINATE, /* spy */
    CNC_RAB_BLACKMAIL,   /* spy */
    CNC_RAB_SABOTAGE,    /* spy */
    CNC_RAB_SHIELD,      /* bodyguard */
    CNC_RAB_RETALIATE,   /* bodyguard */
    CNC_RAB_ORATOR,      /* councillor */
    CNC_RAB_COUNT
};

/* Strategy card abilities. */
enum {
    CNC_STRAT_GAIN_COMMAND = 0,
    CNC_STRAT_ESPIONAGE,
    CNC_STRAT_AGENDA,
    CNC_STRAT_PRODUCTION,
    CNC_STRAT_TRADE,
    CNC_STRAT_WARFARE,
    CNC_STRAT_TECHNOLOGY,
    CNC_STRAT_OBJECTIVE,
    CNC_STRAT_COUNT
};

/* Technology fields and effects. */
enum { CNC_FIELD_DRIVE = 0, CNC_FIELD_SIGNAL, CNC_FIELD_ARMS, CNC_FIELD_LIFE };
enum {
    CNC_TECH_MOVE = 0,
    CNC_TECH_CAPACITY,
    CNC_TECH_SCANNER, /* long-range scanners */
    CNC_TECH_SENSOR,
    CNC_TECH_COMMAND,
    CNC_TECH_COMBAT,
    CNC_TECH_SUSTAIN,
    CNC_TECH_PRODUCTION,
    CNC_TECH_GROUND,
    CNC_TECH_INFLUENCE,
    CNC_TECH_COUNT
};

/* Neutral marker places and effects. */
enum { CNC_WHERE_SYSTEM = 0, CNC_WHERE_PLANET };
enum {
    CNC_MFX_NOTHING = 0,
    CNC_MFX_GAIN_SHIP,
    CNC_MFX_GAIN_TROOPS,
    CNC_MFX_GAIN_TRADE_GOODS,
    CNC_MFX_GAIN_ACTION_CARD,
    CNC_MFX_GAIN_VP,
    CNC_MFX_ENEMY_SHIPS,
    CNC_MFX_ENEMY_TROOPS,
    CNC_MFX_DESTROY_SHIP,
    CNC_MFX_DESTROY_TROOPS,
    CNC_MFX_COUNT
};

/* Objective conditions. */
enum {
    CNC_OBJ_CONTROL_PLANETS = 0,
    CNC_OBJ_CONTROL_TRAIT,
    CNC_OBJ_EXPLORED,
    CNC_OBJ_TRADE_GOODS,
    CNC_OBJ_TECHS,
    CNC_OBJ_INSPECTED_MARKERS,
    CNC_OBJ_CONTROL_CAPITAL,
    CNC_OBJ_SHIPS,
    CNC_OBJ_WIN_SPACE_COMBAT,
    CNC_OBJ_ADJACENT_CAPITAL,
    CNC_OBJ_COUNT
};

/* Action card timings and effects. */
enum {
    CNC_TIME_ACTION = 0,
    CNC_TIME_COMBAT,
    CNC_TIME_COUNCIL,
    CNC_TIME_STATUS,
    CNC_TIME_COUNT
};
enum {
    /* every effect here is implemented (council_cards.c, council_council.c):
     * a card with an effect the rules do not play cannot be in the data */
    CNC_AFX_VETO = 0,
    CNC_AFX_GAIN_TRADE_GOODS,
    CNC_AFX_FREE_EXPLORE,
    CNC_AFX_DIRECT_HIT,
    CNC_AFX_GAIN_COMMAND,
    CNC_AFX_EXTRA_MOVE,
    CNC_AFX_REROLL,
    CNC_AFX_EXTRA_VOTES,
    CNC_AFX_CANCEL_PRODUCTION,
    CNC_AFX_INSPECT_MARKER,
    CNC_AFX_VOTES,        /* council: +amount votes */
    CNC_AFX_GUARD_REP,    /* council: own representative not assassinated */
    CNC_AFX_TABLE_AGENDA, /* council: no vote on this agenda */
    CNC_AFX_SILENCE,      /* council: a named player's votes count 0 */
    CNC_AFX_COUNT
};

/* Agenda kinds and effects (the council, part II). */
enum { CNC_AGENDA_LAW = 0, CNC_AGENDA_ELECTION };
enum {
    CNC_AGX_ALL_GAIN_TG = 0,  /* law: every player gains amount trade goods */
    CNC_AGX_ALL_LOSE_TG,      /* law: every player loses amount trade goods */
    CNC_AGX_ALL_DRAW,         /* law: every player draws amount action cards */
    CNC_AGX_STATUS_TOKENS,    /* lasting law: +amount tokens at status 5 */
    CNC_AGX_NO_CAPTURE,       /* lasting law: no diplomatic capture */
    CNC_AGX_REPEAL,           /* law: every law in force is repealed */
    CNC_AGX_ELECT_VP,         /* election: the elected gains amount VP */
    CNC_AGX_ELECT_TG,         /* election: ... gains amount trade goods */
    CNC_AGX_ELECT_LOSE_TG,    /* election: ... loses amount trade goods */
    CNC_AGX_ELECT_LOSE_TOKEN, /* election: ... loses amount tactic tokens */
    CNC_AGX_ELECT_DRAW,       /* election: ... draws amount action cards */
    CNC_AGX_ELECT_SPEAKER,    /* election: ... is the next speaker */
    CNC_AGX_COUNT
};

typedef struct cnc_unit {
    char key[CNC_KEY_MAX], name[CNC_NAME_MAX], text[CNC_TEXT_MAX];
    uint8_t kind;        /* CNC_UNIT_* */
    int8_t cost, per;    /* per units for cost resources */
    int8_t combat, dice; /* hits on a d10 roll >= combat */
    int8_t move, capacity;
    uint8_t sustain; /* absorbs one hit */
} cnc_unit;

typedef struct cnc_planet {
    char key[CNC_KEY_MAX], name[CNC_NAME_MAX];
    int8_t resources, influence;
    uint8_t trait; /* CNC_TRAIT_* */
} cnc_planet;

/* A system tile: the distinct tiles of "systems", the races' homes and the
 * capital all use this shape. */
typedef struct cnc_system {
    char key[CNC_KEY_MAX], name[CNC_NAME_MAX];
    uint8_t kind;  /* CNC_SYS_* */
    uint8_t count; /* copies in the deck (homes and capital: 1) */
    uint8_t nplanets;
    cnc_planet planets[CNC_MAX_PLANETS];
} cnc_system;

typedef struct cnc_rep {
    char name[CNC_NAME_MAX], text[CNC_TEXT_MAX];
    uint8_t role; /* CNC_REP_*; a race's reps[i] has role i */
    int8_t influence;
    uint8_t ability; /* CNC_RAB_* */
} cnc_rep;

typedef struct cnc_race {
    char key[CNC_KEY_MAX], name[CNC_NAME_MAX];
    uint8_t special; /* CNC_RACE_* */
    int8_t special_amount;
    char special_text[CNC_TEXT_MAX];
    cnc_system home;
    cnc_rep reps[CNC_REP_COUNT]; /* spy, bodyguard, councillor */
} cnc_race;

typedef struct cnc_strategy {
    char key[CNC_KEY_MAX], name[CNC_NAME_MAX], text[CNC_TEXT_MAX];
    int8_t initiative; /* 1..8, each once */
    uint8_t ability;   /* CNC_STRAT_* */
    uint8_t noptions;
    char options[CNC_MAX_OPTIONS][CNC_KEY_MAX];
} cnc_strategy;

typedef struct cnc_tech {
    char key[CNC_KEY_MAX], name[CNC_NAME_MAX], text[CNC_TEXT_MAX];
    uint8_t field;  /* CNC_FIELD_* */
    uint8_t effect; /* CNC_TECH_* */
    int8_t amount;
    uint8_t nrequires;
    int8_t requires[CNC_MAX_REQUIRES]; /* indices of earlier techs */
} cnc_tech;

typedef struct cnc_marker_kind {
    char key[CNC_KEY_MAX], name[CNC_NAME_MAX], text[CNC_TEXT_MAX];
    uint8_t where; /* CNC_WHERE_* */
    uint8_t hostile;
    uint8_t count;
    uint8_t effect; /* CNC_MFX_* */
    int8_t amount;
} cnc_marker_kind;

typedef struct cnc_template {
    int8_t players, radius;
    int8_t home_q[CNC_MAX_PLAYERS], home_r[CNC_MAX_PLAYERS];
} cnc_template;

typedef struct cnc_objective {
    char key[CNC_KEY_MAX], name[CNC_NAME_MAX], text[CNC_TEXT_MAX];
    int8_t stage; /* 1 or 2 */
    uint8_t secret;
    int8_t vp;
    uint8_t condition; /* CNC_OBJ_* */
    int8_t amount;
    uint8_t trait; /* for control_trait */
} cnc_objective;

typedef struct cnc_action_card {
    char key[CNC_KEY_MAX], name[CNC_NAME_MAX], text[CNC_TEXT_MAX];
    uint8_t count, timing, effect; /* CNC_TIME_*, CNC_AFX_* */
    int8_t amount;                 /* of the effect (default 1) */
} cnc_action_card;

typedef struct cnc_agenda {
    char key[CNC_KEY_MAX], name[CNC_NAME_MAX], text[CNC_TEXT_MAX];
    uint8_t kind;    /* CNC_AGENDA_* */
    uint8_t lasting; /* a law that stays in force until repealed */
    uint8_t effect;  /* CNC_AGX_* */
    int8_t amount;   /* of the effect (default 1) */
} cnc_agenda;

typedef struct cnc_rules {
    int8_t vp_target, last_round, start_trade_goods;
    int8_t start_tactic, start_fleet, start_strategy;
    int8_t status_gain, sensor_range, scanner_reach, hand_limit;
    int8_t start_units[CNC_MAX_UNITS]; /* per unit index */
} cnc_rules;

typedef struct cnc_data {
    cnc_rules rules;
    int nunits, nraces, nstrategies, ntechs, nsystems, nmarkers, nobjectives,
        nactions, nagendas;
    cnc_unit units[CNC_MAX_UNITS];
    cnc_race races[CNC_MAX_RACES];
    cnc_strategy strategies[CNC_MAX_STRATEGIES];
    cnc_tech techs[CNC_MAX_TECHS];
    cnc_system systems[CNC_MAX_SYSTEMS];
    cnc_system capital;
    cnc_marker_kind markers[CNC_MAX_MARKER_KINDS];
    cnc_template templates[CNC_MAX_PLAYERS - CNC_MIN_PLAYERS + 1]; /* by n */
    cnc_objective objectives[CNC_MAX_OBJECTIVES];
    cnc_action_card actions[CNC_MAX_ACTIONS];
    cnc_agenda agendas[CNC_MAX_AGENDAS];
    int deck_size;                          /* system tiles with counts */
    int planet_markers, system_markers;     /* marker pools with counts */
    char sha256[2 * ENGINE_HASH_BYTES + 1]; /* of the data without texts */
} cnc_data;

/* Parse and validate council.json text of len bytes into *out (overwritten).
 * 0, or ENGINE_EINVALID with err naming the section, item (index and key)
 * and field ("council.json races[2] (thessari): home.planets[0].influence
 * must be an integer 0..9"). */
int cnc_data_parse(const char *text, size_t len, cnc_data *out,
                   engine_error *err);

/* Parse the embedded council.json once, into the immutable table that
 * cnc_data_get returns. Idempotent; 0 or an error as cnc_data_parse. Not
 * thread-safe: call it at start-up (engine_init), before any game. */
int cnc_data_init(engine_error *err);

/* The table built by cnc_data_init (borrowed, immutable), NULL before. */
const cnc_data *cnc_data_get(void);

/* Index of the item with this key, or -1. */
int cnc_unit_index(const cnc_data *d, const char *key);
int cnc_race_index(const cnc_data *d, const char *key);
int cnc_tech_index(const cnc_data *d, const char *key);
int cnc_strategy_index(const cnc_data *d, const char *key);
int cnc_marker_index(const cnc_data *d, const char *key);

/* The planet with this key anywhere in the data (tiles, homes, capital):
 * borrowed pointer or NULL. */
const cnc_planet *cnc_planet_find(const cnc_data *d, const char *key);

/* Names of the enum values above, as council.json spells them ("?" when out
 * of range). */
const char *cnc_trait_name(int trait);
const char *cnc_system_kind_name(int kind);
const char *cnc_unit_kind_name(int kind);
const char *cnc_rep_ability_name(int ability);

/* The template for n players, or NULL when n is out of 3..8. */
const cnc_template *cnc_template_for(const cnc_data *d, int players);

#endif

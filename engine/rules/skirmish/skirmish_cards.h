/*
 * skirmish_cards.h - Skirmish's card data: the creature designs, their
 * abilities drawn from a small vocabulary, the four factions, the muster
 * rules and the prebuilt squads, parsed and validated from cards.json
 * (embedded by skirmish_cards_data.S) into an immutable table.
 *
 * The vocabulary is described for players and rules authors in
 * docs/games/skirmish.md ("Ability vocabulary"). Nothing here knows about
 * games in play: the rules that interpret the abilities come later.
 */
#ifndef CONCLAVE_SKIRMISH_CARDS_H
#define CONCLAVE_SKIRMISH_CARDS_H

#include "engine/engine.h"

#include <stddef.h>
#include <stdint.h>

#define SKIRMISH_MAX_DESIGNS 128
#define SKIRMISH_MAX_ABILITIES 4
#define SKIRMISH_MAX_FACTIONS 8
#define SKIRMISH_MAX_SQUADS 16
#define SKIRMISH_SQUAD_MAX 15 /* one creature per square of three rows */
#define SKIRMISH_KEY_MAX 40
#define SKIRMISH_NAME_MAX 48

/* Field: 5 columns by 6 rows, three rows per player. */
#define SKIRMISH_COLS 5
#define SKIRMISH_ROWS 6
#define SKIRMISH_HOME_ROWS 3

/* Ability kinds ("kind" in cards.json). The first five are static
 * keywords; the rest are effects used as an action, a sudden ability or a
 * trigger. */
enum {
    SKIRMISH_K_FIRST_STRIKE = 0, /* "first_strike" */
    SKIRMISH_K_FLYING,           /* "flying" */
    SKIRMISH_K_ARMOUR,           /* "armour": strikes and shots deal less */
    SKIRMISH_K_STRIKE_MOD,       /* "strike_mod": +/- to its strikes */
    SKIRMISH_K_REGENERATION,     /* "regeneration": heals at turn start */
    SKIRMISH_K_DAMAGE,           /* "damage": a shot, or a spell */
    SKIRMISH_K_HEAL,             /* "heal" */
    SKIRMISH_K_AURA,             /* "aura": a stat until end of turn */
    SKIRMISH_K_POISON,           /* "poison": a gained end-of-turn loss */
    SKIRMISH_K_TOKENS,           /* "tokens": put tokens on this card */
    SKIRMISH_K_PARRY,            /* "parry": sudden, softens a strike */
    SKIRMISH_K_COUNTERSPELL,     /* "counterspell": sudden, cancels a spell */
    SKIRMISH_K_COUNT
};
#define SKIRMISH_K_FIRST_EFFECT SKIRMISH_K_DAMAGE

/* When an ability works ("timing"). Static keywords have no timing field. */
enum {
    SKIRMISH_T_STATIC = 0, /* always on while the creature is on the field */
    SKIRMISH_T_ACTION,     /* "action": declared in the choice subphase */
    SKIRMISH_T_SUDDEN,     /* "sudden": whenever its controller has priority
                              outside the choice subphase */
    SKIRMISH_T_TRIGGER,    /* "trigger": goes on the stack by itself */
    SKIRMISH_T_COUNT
};

/* What makes a triggered ability go on the stack ("trigger"). */
enum {
    SKIRMISH_TR_NONE = 0,
    SKIRMISH_TR_ENTERS,     /* "enters": the squads are revealed on the field */
    SKIRMISH_TR_DIES,       /* "dies": it is destroyed */
    SKIRMISH_TR_ATTACKED,   /* "attacked": an attack on it is declared */
    SKIRMISH_TR_TURN_START, /* "turn_start": start of its controller's turn */
    SKIRMISH_TR_END_OF_TURN, /* "end_of_turn": end of its controller's turn */
    SKIRMISH_TR_COUNT
};

/* Who an effect reaches ("target"). Single targets (ally, enemy,
 * creature) are named at declaration and need a range; group targets are
 * deferred (501.2): they are found when the effect resolves. */
enum {
    SKIRMISH_TG_NONE = 0,      /* counterspell: a spell on the stack */
    SKIRMISH_TG_SELF,          /* "self" */
    SKIRMISH_TG_ALLY,          /* "ally": one of yours (may be itself) */
    SKIRMISH_TG_ENEMY,         /* "enemy": one of the opponent's */
    SKIRMISH_TG_CREATURE,      /* "creature": any one */
    SKIRMISH_TG_ADJ_ALLIES,    /* "adjacent_allies" */
    SKIRMISH_TG_ADJ_ENEMIES,   /* "adjacent_enemies" */
    SKIRMISH_TG_ADJ_CREATURES, /* "adjacent_creatures" */
    SKIRMISH_TG_ALL_ALLIES,    /* "all_allies": every one of yours */
    SKIRMISH_TG_COUNT
};

/* What an aura changes ("stat"). */
enum {
    SKIRMISH_ST_STRIKE = 0, /* "strike": every strike strength */
    SKIRMISH_ST_ARMOUR,     /* "armour" */
    SKIRMISH_ST_MOVE,       /* "move": movement points */
    SKIRMISH_ST_COUNT
};

/* When a strike modifier counts ("when"). */
enum {
    SKIRMISH_W_ALWAYS = 0, /* "always" */
    SKIRMISH_W_ATTACKING,  /* "attacking": its attack strikes */
    SKIRMISH_W_DEFENDING,  /* "defending": its strikes back */
    SKIRMISH_W_COUNT
};

/* The resources before the colon (501.3), paid after the effect resolves
 * (412.1). All zero for static and triggered abilities. */
typedef struct skirmish_cost {
    uint8_t move;   /* movement points */
    uint8_t tap;    /* 1: the card closes */
    uint8_t tokens; /* tokens taken off the card */
    uint8_t life;   /* life lost */
} skirmish_cost;

typedef struct skirmish_ability {
    uint8_t kind;    /* SKIRMISH_K_* */
    uint8_t timing;  /* SKIRMISH_T_* */
    uint8_t trigger; /* SKIRMISH_TR_*, NONE unless timing is TRIGGER */
    uint8_t target;  /* SKIRMISH_TG_*, NONE for static keywords */
    uint8_t range;   /* squares (king's moves) for single targets, else 0 */
    uint8_t stat;    /* SKIRMISH_ST_*, aura only */
    uint8_t when;    /* SKIRMISH_W_*, strike_mod only */
    uint8_t spell;   /* 1: a spell (can be cancelled; ignores armour) */
    int8_t amount;   /* damage, healing, tokens, stat change ...; 0: none */
    skirmish_cost cost;
} skirmish_ability;

typedef struct skirmish_design {
    char key[SKIRMISH_KEY_MAX];   /* stable id, [a-z0-9_]+ */
    char name[SKIRMISH_NAME_MAX]; /* shown to players */
    uint8_t faction;              /* index into the cardset's factions */
    uint8_t cost;                 /* muster cost and end-of-game score */
    uint8_t life;                 /* starting (and highest) life */
    uint8_t move;                 /* movement points each turn */
    uint8_t strike[3];            /* weak, medium, strong */
    uint8_t tokens;               /* tokens on it when it enters */
    uint8_t nab;
    skirmish_ability ab[SKIRMISH_MAX_ABILITIES];
} skirmish_design;

typedef struct skirmish_faction {
    char key[SKIRMISH_KEY_MAX];
    char name[SKIRMISH_NAME_MAX];
} skirmish_faction;

typedef struct skirmish_squad {
    char key[SKIRMISH_KEY_MAX];
    char name[SKIRMISH_NAME_MAX];
    uint8_t n;                         /* creatures */
    uint8_t cards[SKIRMISH_SQUAD_MAX]; /* design indices */
} skirmish_squad;

typedef struct skirmish_cardset {
    int nfactions;
    skirmish_faction factions[SKIRMISH_MAX_FACTIONS];
    int ndesigns;
    skirmish_design designs[SKIRMISH_MAX_DESIGNS];
    int nsquads;
    skirmish_squad squads[SKIRMISH_MAX_SQUADS];
    int budget;        /* the muster budget: most total cost of a squad */
    int max_creatures; /* most creatures in a squad */
    int max_copies;    /* most copies of one design in a squad */
    char sha256[65];   /* engine_data_identity of the data */
} skirmish_cardset;

/* Parse and validate a cards.json text of len bytes (need not be
 * NUL-terminated). Pure: no globals, no allocation kept. On failure returns
 * ENGINE_EINVALID and err names the card (index and key) or squad and the
 * field ("cards.json card 12 (ash_warden): cost must be an integer
 * 1..10"); *out is then unspecified. */
int skirmish_cards_parse(const char *text, size_t len, skirmish_cardset *out,
                         engine_error *err);

/* Parse the embedded cards.json once into the built-in table; 0, or the
 * parse error. Call before skirmish_cards(); repeated calls are free. */
int skirmish_cards_init(engine_error *err);

/* The built-in table (borrowed, immutable); NULL before a successful
 * skirmish_cards_init. */
const skirmish_cardset *skirmish_cards(void);

/* Index of the design / faction / squad with that key in cs, or -1. */
int skirmish_design_find(const skirmish_cardset *cs, const char *key);
int skirmish_faction_find(const skirmish_cardset *cs, const char *key);
int skirmish_squad_find(const skirmish_cardset *cs, const char *key);

/* Total muster cost of n designs (indices into cs; unchecked). */
int skirmish_squad_cost(const skirmish_cardset *cs, const uint8_t *cards,
                        int n);

/* Check a squad of n design indices against the muster rules of cs: at
 * least one creature, at most max_creatures, at most max_copies of a
 * design, total cost within the budget. 0, or ENGINE_EINVALID with the
 * reason (field "squad"). */
int skirmish_squad_check(const skirmish_cardset *cs, const uint8_t *cards,
                         int n, engine_error *err);

/* The cards.json names of the vocabulary; "?" out of range. */
const char *skirmish_kind_name(int kind);
const char *skirmish_timing_name(int timing);
const char *skirmish_trigger_name(int trigger);
const char *skirmish_target_name(int target);
const char *skirmish_stat_name(int stat);
const char *skirmish_when_name(int when);

/* The player-facing text of one ability or of a whole design's abilities,
 * generated from the data, into buf (always NUL-terminated, cut if n is
 * too small). The one source of card texts: clients get it through
 * skirmish_design_json. */
void skirmish_ability_text(const skirmish_ability *a, char *buf, size_t n);
void skirmish_design_text(const skirmish_design *d, char *buf, size_t n);

/* The design as client JSON (NEW), its faction key from cs, with the
 * ability data and the generated "text". */
json_t *skirmish_design_json(const skirmish_cardset *cs,
                             const skirmish_design *d);

/* The public catalogue of the built-in set (NEW): {"factions":[...],
 * "cards":[design...], "squads":[{key,name,cards:[keys],cost}],
 * "muster":{budget,max_creatures,max_copies}, "sha256"}. NULL before a
 * successful skirmish_cards_init. Safe to serve to anyone. */
json_t *skirmish_catalog(void);

#endif

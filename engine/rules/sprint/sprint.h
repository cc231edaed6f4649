/*
 * sprint.h - the public face of Galactic Sprint (ruleset id "sprint"):
 * the ruleset table, the card-data parser (pure, for the fuzz harness), the
 * public card catalogue, and the solitaire campaign's pure functions.
 *
 * It does not expose the game state; rules live in the sprint_*.c files
 * and are reached through engine.h like any other ruleset.
 */
#ifndef CONCLAVE_SPRINT_H
#define CONCLAVE_SPRINT_H

#include "engine/engine.h"

#include <stddef.h>
#include <stdint.h>

extern const struct engine_ruleset sprint_ruleset;

/* ------------------------------------------------------------- cards -- */
#define SPRINT_MAX_DESIGNS 96
#define SPRINT_MAX_DECK 124  /* deck instances */
#define SPRINT_MAX_CARDS 128 /* deck plus one survey card per seat */
#define SPRINT_MAX_ABILITIES 4
#define SPRINT_KEY_MAX 40
#define SPRINT_NAME_MAX 48
#define SPRINT_TEXT_MAX 320 /* a card's ability text, with its NUL */

enum { SPRINT_DEVELOPMENT = 0, SPRINT_WORLD = 1 };
enum {
    SPRINT_GREY = 0,
    SPRINT_AZURE,
    SPRINT_JADE,
    SPRINT_AMBER,
    SPRINT_VIOLET,
    SPRINT_NCOLOURS
};
enum { SPRINT_FACTION_NONE = 0, SPRINT_REBEL, SPRINT_ALIEN };

/* What a counting ability counts ("what" in cards.json). */
enum {
    SPRINT_W_CARD = 0,       /* "card": any card */
    SPRINT_W_DEVELOPMENT,    /* "development" */
    SPRINT_W_WORLD,          /* "world" */
    SPRINT_W_MILITARY_WORLD, /* "military_world" */
    SPRINT_W_CIVIL_WORLD,    /* "civil_world": non-military world */
    SPRINT_W_REBEL_WORLD,    /* "rebel_world" */
    SPRINT_W_ALIEN_WORLD,    /* "alien_world" */
    SPRINT_W_GREY_WORLD,     /* "grey_world" ... one per colour */
    SPRINT_W_AZURE_WORLD,
    SPRINT_W_JADE_WORLD,
    SPRINT_W_AMBER_WORLD,
    SPRINT_W_VIOLET_WORLD,
    SPRINT_W_MILITARY_ICON, /* "military_icon": printed general military */
    SPRINT_W_EXPLORE_ICON,  /* "explore_icon" */
    SPRINT_W_INCOME_ICON,   /* "income_icon": printed income */
    SPRINT_W_COUNT
};

/* The ability vocabulary ("type" in cards.json). */
enum {
    SPRINT_AB_DISCOUNT = 0, /* paid cards of `what` cost `amount` less */
    SPRINT_AB_MILITARY_VS,  /* +amount military against `what` worlds */
    SPRINT_AB_PAY_MILITARY, /* military worlds may be paid at defence-1 */
    SPRINT_AB_CONVOY,       /* placing this world lets a second `what` in */
    SPRINT_AB_VP_PER,       /* amount VP per `every` `what` in your empire */
    SPRINT_AB_VP_PER_RIVAL, /* ... in your chosen rival's empire */
    SPRINT_AB_BONUS_IF,     /* once: amount VP + income if `what` present */
    SPRINT_AB_INCOME_PER,   /* amount income per `every` `what` */
    SPRINT_AB_TOP_MILITARY, /* draw `amount` at income if top military */
    SPRINT_AB_COUNT
};

typedef struct sprint_ability {
    uint8_t type, what, every;
    int8_t amount; /* discount, military, VP, income or cards */
    int8_t income; /* bonus_if only */
} sprint_ability;

typedef struct sprint_design {
    char key[SPRINT_KEY_MAX];   /* stable id, [a-z0-9_]+ */
    char name[SPRINT_NAME_MAX]; /* shown to players */
    char text[SPRINT_TEXT_MAX]; /* ability text from cards.json; "" if none */
    uint8_t kind;               /* SPRINT_DEVELOPMENT / SPRINT_WORLD */
    uint8_t military_world;     /* worlds: conquered by military */
    uint8_t colour, faction;    /* worlds */
    uint8_t count;              /* copies in the deck; 0 for the survey */
    uint8_t central;            /* the survey card */
    int8_t cost;                /* cost, or defence of a military world */
    int8_t vp, income, explore, military;
    uint8_t nab;
    sprint_ability ab[SPRINT_MAX_ABILITIES];
} sprint_design;

typedef struct sprint_cardset {
    int ndesigns;
    sprint_design designs[SPRINT_MAX_DESIGNS];
    int ndeck;                            /* deck instances */
    uint8_t deck_design[SPRINT_MAX_DECK]; /* instance -> design index */
    int survey;                           /* design index of the survey card */
    char sha256[65];                      /* engine_data_identity of the data */
} sprint_cardset;

/* Parse and validate a cards.json text of len bytes (need not be
 * NUL-terminated). Pure: no globals, no allocation kept. On failure returns
 * ENGINE_EINVALID and err says which card and field ("card 12
 * (ion_foundry): cost must be an integer 0..9"); *out is then unspecified. */
int sprint_cards_parse(const char *text, size_t len, sprint_cardset *out,
                       engine_error *err);

/* The public card catalogue of the built-in set: {"cards":[design...],
 * "instances":[design key per instance id 0..ndeck-1], "survey": key}.
 * NEW; NULL before engine_init. Safe to serve to anyone. */
json_t *sprint_catalog(void);

/* ----------------------------------------------------------- campaign --
 * Four victory conditions (docs/games/sprint.md). A finished solitaire game
 * meets zero or more; a campaign game is won only by meeting one not met
 * before. */
enum {
    SPRINT_COND_MAGNATE = 1u << 0,    /* "magnate" */
    SPRINT_COND_WARLORD = 1u << 1,    /* "warlord" */
    SPRINT_COND_TYCOON = 1u << 2,     /* "tycoon" */
    SPRINT_COND_PATHFINDER = 1u << 3, /* "pathfinder" */
    SPRINT_COND_ALL = 15u
};
#define SPRINT_NCONDS 4

typedef struct sprint_final_stats {
    int rounds;          /* rounds played */
    int chips;           /* VP chips */
    int income;          /* empire income */
    int military;        /* printed general military */
    int military_worlds; /* military worlds in the empire */
    int colours;         /* bitmask of world colours, 1<<SPRINT_AZURE... */
    int developments, worlds;
} sprint_final_stats;

/* Which conditions the stats meet (bitmask). Pure, cannot fail. */
unsigned sprint_campaign_evaluate(const sprint_final_stats *st);
/* Condition id <-> bit. Unknown names give 0 / NULL. */
unsigned sprint_condition_bit(const char *id);
const char *sprint_condition_id(unsigned bit);
/* Read the final stats of a finished solitaire game's result JSON (its
 * "final" object). 0 or ENGINE_EINVALID naming the field. */
int sprint_final_stats_from_result(const json_t *result,
                                   sprint_final_stats *out, engine_error *err);

/* Advance a campaign with one finished solitaire game.
 * progress: {"games":[...],"met":[ids],"status":"active"|"won"|"lost"}, or
 * NULL to start a new campaign. result: the game's engine_result JSON.
 * choose: the condition to check off when the game met several new ones
 * (NULL: the first new one in the order magnate, warlord, tycoon,
 * pathfinder). On success *next is a NEW progress object: the game is
 * appended as {"conditions_met":[...],"checked":id|null,"chips":N}; status
 * becomes "won" after the fourth condition and "lost" when the game met no
 * new one. Fails (ENGINE_EINVALID naming the field) on a malformed progress
 * or result, a campaign that is not active, or a `choose` the game did not
 * newly meet. Pure. */
int sprint_campaign_advance(const json_t *progress, const json_t *result,
                            const char *choose, json_t **next,
                            engine_error *err);

/* The ruleset's per-player record hook (engine_ruleset.record): a player's
 * campaign as GET /me shows it, {"games","met","status",
 * "next_options":{"campaign_conditions_met":[...]}}, status "none" before
 * any. Only finished solitaire games whose options carry
 * campaign_conditions_met count: one with none met starts a campaign; one
 * with exactly the conditions met so far continues an active one; others
 * leave the record alone (NULL). The game is folded in with
 * sprint_campaign_advance (first new condition checked off). result NULL:
 * the record of a player without campaign games. NEW. Pure. */
json_t *sprint_campaign_record(const json_t *old, const json_t *options,
                               int seats, int seat, const json_t *result);

/* The record_choose hook: when the record's last game newly met several
 * conditions the record carries "choice" (those conditions); choice
 * {"condition": id} makes id the one that game checks off instead of the
 * default, and drops "choice". *next is the NEW record. ENGINE_ECONFLICT when
 * no choice is waiting, ENGINE_EINVALID (field "condition") for an id not
 * offered. Pure. */
int sprint_campaign_choose(const json_t *record, const json_t *choice,
                           json_t **next, engine_error *err);

#endif

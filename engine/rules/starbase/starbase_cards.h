/*
 * starbase_cards.h - Starbase's card data: the card designs of the five
 * kinds (ships, locations, news, outer regions, starbase structures), their
 * abilities drawn from a small vocabulary, the starbases, the starter
 * markets and the setup numbers, parsed and validated from cards.json
 * (embedded by starbase_cards_data.S) into an immutable table.
 *
 * The vocabulary is described for players, engine and bot authors in
 * docs/games/starbase.md ("Ability vocabulary"). Nothing here knows about
 * games in play: the ruleset that plays them is in starbase.h.
 */
#ifndef CONCLAVE_STARBASE_CARDS_H
#define CONCLAVE_STARBASE_CARDS_H

#include "engine/engine.h"

#include <stddef.h>
#include <stdint.h>

#define STARBASE_MAX_CARDS 160
#define STARBASE_MAX_COMMANDS 3  /* commands on one ship */
#define STARBASE_MAX_ABILITIES 3 /* abilities on one other card */
#define STARBASE_MAX_STATIONS 8  /* starbases */
#define STARBASE_MAX_MARKETS 8
#define STARBASE_MARKET_MAX 40    /* cards in one market */
#define STARBASE_MARKET_REGIONS 6 /* outer regions beside one market */
#define STARBASE_KEY_MAX 40
#define STARBASE_NAME_MAX 48
#define STARBASE_DURATION_INFINITE 255 /* news "duration": "infinite" */

/* Card kinds ("kind" of a card). */
enum {
    STARBASE_SHIP = 0,     /* "ship" */
    STARBASE_LOCATION,     /* "location" */
    STARBASE_NEWS,         /* "news" */
    STARBASE_OUTER_REGION, /* "outer_region" */
    STARBASE_STRUCTURE,    /* "structure" */
    STARBASE_KIND_COUNT
};

/* Where a location may be played ("region"). */
enum {
    STARBASE_R_HOME = 0, /* "home": your home region */
    STARBASE_R_OUTER,    /* "outer": an outer region you control */
    STARBASE_R_ANY,      /* "any": your home region or an outer one you
                            control */
    STARBASE_R_COUNT
};

/* Ability kinds ("kind" of an ability or command). */
enum {
    STARBASE_A_INCOME = 0, /* "income": passive income change */
    STARBASE_A_ISK,        /* "isk": gain ISK, or make opponents lose it */
    STARBASE_A_DRAW,       /* "draw": draw cards from your market */
    STARBASE_A_DISCARD,    /* "discard": opponents discard at random */
    STARBASE_A_BOUNCE,     /* "bounce": back to its owner's hand */
    STARBASE_A_DESTROY,    /* "destroy": to its owner's scrapheap */
    STARBASE_A_DAMAGE,     /* "damage": to ships or a starbase */
    STARBASE_A_REPAIR,     /* "repair": damage off your starbase */
    STARBASE_A_ASSEMBLY,   /* "assembly": assembly countdown speed-up */
    STARBASE_A_WARPS,      /* "warps": extra warps */
    STARBASE_A_DEACTIVATE, /* "deactivate": a ship's command goes off */
    STARBASE_A_PIN,        /* "pin": cannot warp or activate commands */
    STARBASE_A_AURA,       /* "aura": a stat change while it lasts */
    STARBASE_A_COUNT
};

/* When an ability works ("timing"). */
enum {
    STARBASE_T_PLAY = 0,   /* "play": once, when the news resolves */
    STARBASE_T_PASSIVE,    /* "passive": always, while its source works */
    STARBASE_T_MANAGEMENT, /* "management": used in your management phase */
    STARBASE_T_INSTANT,    /* "instant": used whenever you hold priority */
    STARBASE_T_COUNT
};

/* Who or what an ability reaches ("target"). The ones marked "chosen" are
 * picked by the ability's controller when the news is played or the
 * ability used; the others are found when the effect happens. */
enum {
    STARBASE_TG_SELF = 0,         /* "self": this ship */
    STARBASE_TG_YOU,              /* "you": the controller */
    STARBASE_TG_OPPONENT,         /* "opponent": chosen */
    STARBASE_TG_EACH_OPPONENT,    /* "each_opponent" */
    STARBASE_TG_OWN_SHIP,         /* "own_ship": chosen */
    STARBASE_TG_ENEMY_SHIP,       /* "enemy_ship": chosen, in a region */
    STARBASE_TG_SHIP,             /* "ship": chosen, any, in a region */
    STARBASE_TG_OWN_SHIPS,        /* "own_ships": all of yours */
    STARBASE_TG_ENEMY_SHIPS,      /* "enemy_ships": all enemy ships in
                                     regions */
    STARBASE_TG_OWN_SHIPS_HERE,   /* "own_ships_here": yours in its region */
    STARBASE_TG_ENEMY_SHIPS_HERE, /* "enemy_ships_here" */
    STARBASE_TG_ENEMY_LOCATION,   /* "enemy_location": chosen */
    STARBASE_TG_ENEMY_STRUCTURE,  /* "enemy_structure": chosen */
    STARBASE_TG_NEWS,             /* "news": chosen, any news in play */
    STARBASE_TG_OWN_STARBASE,     /* "own_starbase" */
    STARBASE_TG_ENEMY_STARBASE,   /* "enemy_starbase": chosen */
    STARBASE_TG_COUNT
};

/* What an aura changes ("stat"). */
enum {
    STARBASE_ST_ATTACK = 0, /* "attack" (of ships, or a starbase's guns) */
    STARBASE_ST_DEFENCE,    /* "defence" (ships) */
    STARBASE_ST_POWER,      /* "power": every command power (ships) */
    STARBASE_ST_HULL,       /* "hull" (a starbase) */
    STARBASE_ST_COUNT
};

typedef struct starbase_ability {
    uint8_t kind;       /* STARBASE_A_* */
    uint8_t timing;     /* STARBASE_T_* */
    uint8_t target;     /* STARBASE_TG_* */
    uint8_t stat;       /* STARBASE_ST_*, aura only */
    uint8_t amount;     /* 1..; 0 for kinds without one. For income and
                           aura the sign comes from the target: yours
                           gain it, opponents' lose it. */
    int8_t max_price;   /* only targets with this price or less; -1: any */
    uint8_t cost;       /* ISK paid to use it (management, instant) */
    uint8_t from_power; /* 1 on a command whose number is its power: the
                           number (amount or max_price) follows the
                           command's current power */
} starbase_ability;

typedef struct starbase_command {
    char name[STARBASE_NAME_MAX];
    uint8_t power;       /* printed power (the kind's amount range, 1..8 for a
                            price filter); 0 when the ability has no number */
    starbase_ability ab; /* its number is power (from_power set) */
} starbase_command;

typedef struct starbase_card {
    char key[STARBASE_KEY_MAX];   /* stable id, [a-z0-9_]+ */
    char name[STARBASE_NAME_MAX]; /* shown to players */
    uint8_t kind;                 /* STARBASE_SHIP ... */
    uint8_t price;                /* ISK to play it */
    /* ships */
    uint8_t assembly; /* countdown 1..4 when played; 0: none */
    uint8_t attack;   /* damage it deals in a battle */
    uint8_t defence;  /* damage that destroys it */
    uint8_t ncommands;
    starbase_command commands[STARBASE_MAX_COMMANDS];
    /* locations and outer regions */
    uint8_t region; /* STARBASE_R_*, locations only */
    uint8_t income; /* ISK to the controller at each income step */
    /* news */
    uint8_t duration; /* 0: at once (one-shot); 1..4; DURATION_INFINITE */
    uint8_t instant;  /* 1: may be played at instant speed */
    /* locations, news, outer regions, structures */
    uint8_t nab;
    starbase_ability ab[STARBASE_MAX_ABILITIES];
} starbase_card;

typedef struct starbase_side {
    char name[STARBASE_NAME_MAX];
    uint8_t income; /* ISK at each income step */
    uint8_t hull;   /* damage that destroys it */
    uint8_t attack; /* its guns: damage it deals defending its region */
    uint8_t slots;  /* structures it can hold */
} starbase_side;

typedef struct starbase_station {
    char key[STARBASE_KEY_MAX];
    uint8_t upgrade_price;
    starbase_side side[2]; /* [0] front, [1] back (after the upgrade) */
} starbase_station;

typedef struct starbase_market {
    char key[STARBASE_KEY_MAX];
    char name[STARBASE_NAME_MAX];
    uint8_t station; /* index into the starbases */
    uint8_t ncards;  /* the market's cards, copies repeated, in data order */
    uint8_t cards[STARBASE_MARKET_MAX];
    uint8_t nregions; /* the outer regions it brings */
    uint8_t regions[STARBASE_MARKET_REGIONS];
} starbase_market;

typedef struct starbase_setup {
    int min_players, max_players;
    int start_hand; /* cards drawn before the first turn */
    int hand_limit; /* at most this many in hand after the end phase */
    int start_isk;
    int market_size; /* cards in every market */
    int max_copies;  /* most copies of one card in a market */
} starbase_setup;

typedef struct starbase_cardset {
    starbase_setup setup;
    int nstations;
    starbase_station stations[STARBASE_MAX_STATIONS];
    int ncards;
    starbase_card cards[STARBASE_MAX_CARDS];
    int nmarkets;
    starbase_market markets[STARBASE_MAX_MARKETS];
    char sha256[65]; /* engine_data_identity of the data */
} starbase_cardset;

/* Parse and validate a cards.json text of len bytes (need not be
 * NUL-terminated). Pure: no globals, no allocation kept. On failure returns
 * ENGINE_EINVALID and err names the card (index and key), starbase or
 * market and the field ("cards.json card 12 (ore_barge): price must be an
 * integer 0..8"); *out is then unspecified. */
int starbase_cards_parse(const char *text, size_t len, starbase_cardset *out,
                         engine_error *err);

/* Parse the embedded cards.json once into the built-in table; 0, or the
 * parse error. Call at engine_init time, before starbase_cards(); repeated
 * calls are free. */
int starbase_cards_init(engine_error *err);

/* The built-in table (borrowed, immutable); NULL before a successful
 * starbase_cards_init. */
const starbase_cardset *starbase_cards(void);

/* Index of the card / starbase / market with that key in cs, or -1. */
int starbase_card_find(const starbase_cardset *cs, const char *key);
int starbase_station_find(const starbase_cardset *cs, const char *key);
int starbase_market_find(const starbase_cardset *cs, const char *key);

/* Number of cards of a kind in cs. */
int starbase_count_kind(const starbase_cardset *cs, int kind);

/* 1 when the target is picked by the player (see STARBASE_TG_*). */
int starbase_target_chosen(int target);

/* The cards.json names of the vocabulary; "?" out of range. */
const char *starbase_kind_name(int kind);
const char *starbase_ability_name(int kind);
const char *starbase_timing_name(int timing);
const char *starbase_target_name(int target);
const char *starbase_stat_name(int stat);
const char *starbase_region_name(int region);

/* The player-facing text of one ability (n is the number to print: the
 * amount, or the power of a command), of one command, or of a whole card's
 * abilities and commands, generated from the data into buf (always
 * NUL-terminated, cut if size is too small). The one source of card texts:
 * clients get them through starbase_card_json. */
void starbase_ability_text(const starbase_ability *a, int n, char *buf,
                           size_t size);
void starbase_command_text(const starbase_command *c, char *buf, size_t size);
void starbase_card_text(const starbase_card *c, char *buf, size_t size);

/* The card as client JSON (NEW): its data, with each ability's and
 * command's generated "text" and the whole card's "text". */
json_t *starbase_card_json(const starbase_card *c);

/* The public catalogue of the built-in set (NEW): {"setup":{...},
 * "starbases":[...], "cards":[card...], "markets":[{key, name, starbase,
 * outer_regions:[keys], cards:[keys]}], "sha256"}. NULL before a successful
 * starbase_cards_init. Safe to serve to anyone. */
json_t *starbase_catalog(void);

#endif

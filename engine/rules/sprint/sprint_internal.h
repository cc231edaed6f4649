/*
 * sprint_internal.h - Galactic Sprint's plain-data state and the functions
 * its files share (cards, rules, bots, views). Not part of the engine
 * contract: only the sprint_*.c files and the unit tests include it.
 *
 * The state is a fixed-size struct of small integers (card instance ids in
 * uint8_t arrays), so a clone is one memcpy and a save is a short walk. Card
 * instance ids are stable for a given cards.json: deck instances are numbered
 * 0..ndeck-1 in cards.json order (each design repeated `count` times), and
 * the central survey card reserved for seat s is instance ndeck + s.
 */
#ifndef CONCLAVE_SPRINT_INTERNAL_H
#define CONCLAVE_SPRINT_INTERNAL_H

#include "engine/rules/sprint/sprint.h"
#include "engine/ruleset.h"

#include <stdint.h>

#define SPRINT_MAX_SEATS 4
#define SPRINT_HAND_LIMIT 10
#define SPRINT_START_HAND 6
#define SPRINT_SOLO_ROUNDS 7
#define SPRINT_MAX_ROUNDS 20 /* ours: a multi-player game always ends */
#define SPRINT_EXPLORE_MARKER 3
#define SPRINT_EXPLORE_BASE 2
#define SPRINT_MAX_PAY 32
#define SPRINT_NONE 255 /* "no card" in a uint8_t slot */

/* The placement actions of a round. */
enum {
    SPRINT_ACT_NONE = 0,
    SPRINT_ACT_DEVELOP,
    SPRINT_ACT_SETTLE,
    SPRINT_ACT_BOTH,
    SPRINT_ACT_EXPLORE
};

/* How a world is placed. */
enum { SPRINT_MODE_PAY = 0, SPRINT_MODE_CONQUER = 1 };

enum {
    SPRINT_PHASE_PLACE = 0,
    SPRINT_PHASE_EXPLORE,
    SPRINT_PHASE_LIMIT,
    SPRINT_PHASE_OVER
};

/* One placement, decoded from an order (payment aside). */
typedef struct sprint_plan {
    uint8_t action;
    uint8_t dev; /* instance or SPRINT_NONE (survey: the seat's) */
    uint8_t world, world_mode;
    uint8_t convoy, convoy_mode; /* second world or SPRINT_NONE */
    uint8_t survey;              /* dev is the central survey card */
    int8_t rival;                /* -1: keep the current rival */
    uint8_t npay;
    uint8_t pay[SPRINT_MAX_PAY]; /* at most 3 cards of cost <= 9 */
} sprint_plan;

/* What a plan costs; filled by sprint_plan_cost. */
typedef struct sprint_cost {
    int dev, world, convoy, total;
} sprint_cost;

/* What happened to a seat in the last resolved round (public). */
typedef struct sprint_last {
    uint8_t action;
    uint8_t survey;
    uint8_t nplaced;
    uint8_t placed[3];
    uint8_t conquered[3]; /* parallel to placed: 1 = by military */
    uint8_t paid;         /* cards discarded as payment */
    uint8_t drew;         /* settle bonus draw */
    uint8_t explore_drew, explore_discarded;
    uint8_t income_drew, limit_discarded;
    int16_t vp_scored;
} sprint_last;

typedef struct sprint_player {
    uint8_t nhand, nempire;
    uint8_t hand[SPRINT_MAX_CARDS];
    uint8_t empire[SPRINT_MAX_CARDS];
    int32_t chips; /* VP chips collected so far */
    uint8_t survey_used;
    int8_t rival;         /* seat counted by rival-VP cards, -1 in solo */
    uint8_t must_discard; /* in an explore/limit window */
    sprint_last last;
} sprint_player;

typedef struct sprint_state {
    uint8_t seats, solo, phase, over;
    int32_t target;       /* VP chips that end a multi-player game */
    int32_t round;        /* 1-based */
    int32_t max_rounds;   /* 7 in solitaire, SPRINT_MAX_ROUNDS else */
    uint8_t campaign;     /* options carried campaign_conditions_met */
    uint8_t campaign_met; /* bitmask of SPRINT_COND_* already met */
    uint8_t edition;      /* SPRINT_EDITION_*: how rival cards score */
    uint8_t ndeck, ndiscard;
    uint8_t deck[SPRINT_MAX_CARDS]; /* deck[ndeck-1] is the top */
    uint8_t discard[SPRINT_MAX_CARDS];
    uint32_t reshuffles;
    sprint_player p[SPRINT_MAX_SEATS];
} sprint_state;

/* Where randomness and the log go while a state changes. ctx may be NULL
 * (tests, bots' look-ahead): then nothing is logged. */
typedef struct sprint_io {
    engine_rng *rng;
    engine_ctx *ctx;
} sprint_io;

/* Editions of the rules (option "edition", stamped on new games; a game
 * stored without it is edition 1). Only rival cards ("VP per ... in the
 * empire of another player you designate") differ:
 *   1: they count the one rival named in the placement order ("rival",
 *      kept until changed; the next seat at first);
 *   2: the designation is made at scoring, per card, with full knowledge:
 *      each such card counts the opponent that gives it the most VP; the
 *      order has no "rival". */
#define SPRINT_EDITION_NAMED_RIVAL 1
#define SPRINT_EDITION_BEST_RIVAL 2
#define SPRINT_EDITION_CURRENT SPRINT_EDITION_BEST_RIVAL
#define SPRINT_EDITION_CURRENT_TEXT "2"

/* ------------------------------------------------------------ cards -- */
/* The validated card set built by init (borrowed, immutable); NULL before. */
const sprint_cardset *sprint_cards(void);
/* Load the embedded cards.json once; 0 or a start-up error. */
int sprint_cards_init(engine_error *err);
/* Design of an instance (deck or survey). cs must be the active set. */
const sprint_design *sprint_design_of(const sprint_cardset *cs, int inst);
int sprint_total_cards(const sprint_cardset *cs, int seats);
/* The design as client JSON (NEW), with its "text" from cards.json. */
json_t *sprint_design_json(const sprint_design *d);
const char *sprint_what_name(int what);
const char *sprint_colour_name(int colour);

/* ------------------------------------------------------------ rules -- */
/* Fresh game; seats 1..4; fills s (edition 1; the caller sets another).
 * Cannot fail for checked options. */
void sprint_state_init(sprint_state *s, const sprint_cardset *cs, int seats,
                       int solo, int target, unsigned campaign_met,
                       int campaign, sprint_io *io);
/* Decode and check a placement order; fills plan and cost. */
int sprint_plan_parse(const sprint_state *s, int seat, const json_t *order,
                      sprint_plan *plan, engine_error *err);
/* Cost of a plan (payment aside); checks everything but the payment. */
int sprint_plan_cost(const sprint_state *s, int seat, const sprint_plan *p,
                     sprint_cost *c, engine_error *err);
/* Check a discard order (explore / limit window). */
int sprint_discard_parse(const sprint_state *s, int seat, const json_t *order,
                         uint8_t *ids, int *n, engine_error *err);

/* Window bookkeeping. */
int sprint_window_id(const sprint_state *s, char *buf, size_t n);
uint32_t sprint_window_seats(const sprint_state *s);

/* Resolve the open window with one checked order per acting seat (NULL for
 * others). Cannot fail for checked orders. */
void sprint_resolve_place(sprint_state *s, const sprint_plan *plans,
                          sprint_io *io);
void sprint_resolve_discards(sprint_state *s, uint8_t ids[][SPRINT_MAX_CARDS],
                             const int *counts, sprint_io *io);

/* Scoring helpers over the current empires. */
int sprint_empire_vp(const sprint_state *s, int seat);
int sprint_empire_income(const sprint_state *s, int seat);
int sprint_empire_military(const sprint_state *s, int seat);
int sprint_empire_explore(const sprint_state *s, int seat);
/* The twin hook (sprint_twin.c): other hands and the deck reshuffled. */
void *sprint_twin(const void *state, int seat, engine_rng *rng);
/* VP and income of an arbitrary list of instances (the bot's look-ahead);
 * rival_list may be NULL. */
int sprint_list_vp(const sprint_cardset *cs, const uint8_t *list, int n,
                   const uint8_t *rival_list, int nrival);
int sprint_list_income(const sprint_cardset *cs, const uint8_t *list, int n);
/* Count `what` over a list, not counting instance `skip` (-1: none). */
int sprint_count_what(const sprint_cardset *cs, const uint8_t *list, int n,
                      int what, int skip);
int sprint_top_military_draw(const sprint_state *s, int seat);

/* Final facts of a seat for the campaign. */
void sprint_final_stats_of(const sprint_state *s, int seat,
                           sprint_final_stats *st);

/* Invariants (tests): 0 when every card is in exactly one place and all
 * counts are sane, else -1 with a reason in why. */
int sprint_state_check(const sprint_state *s, char *why, size_t n);

/* Save/load of the plain state. */
json_t *sprint_state_save(const sprint_state *s);
int sprint_state_load(sprint_state *s, const json_t *saved, engine_error *err);

/* ------------------------------------------------------------- views -- */
json_t *sprint_view_json(const sprint_state *s, int seat);
json_t *sprint_legal_json(const sprint_state *s, int seat, const char *window);
json_t *sprint_result_json(const sprint_state *s);

/* ------------------------------------------------------------- bots -- */
/* Placement candidates (payment aside) that seat can afford now; returns
 * the count (<= max), costs in costs[] when non-NULL. */
int sprint_enumerate(const sprint_state *s, int seat, sprint_plan *out,
                     int *costs, int max);
/* Build an order for seat in the open window (NEW); NULL for an unknown
 * level or a seat with nothing to do. */
json_t *sprint_bot_order(const sprint_state *s, int seat, const char *level,
                         engine_rng *rng);
/* The order JSON of a plan (NEW). */
json_t *sprint_plan_json(const sprint_plan *p);

#endif

/*
 * starbase.h - the Starbase ruleset's internal interface: the game state (a
 * flat struct of ints, saved with engine_field tables), the action a player
 * makes, and the functions the ruleset's files share. The rules are in
 * docs/games/starbase.md; the card data in starbase_cards.h.
 *
 * Files: starbase.c (the ruleset table, init, setup, save/load),
 * starbase_query.c (zones, regions, control, losing), starbase_stats.c
 * (passive abilities: income, attack, defence, power, hull, pins, warps),
 * starbase_turn.c (the turn: setup phase, draw, end phase, the priority
 * steps), starbase_actions.c (reading and checking actions),
 * starbase_apply.c (applying them, listing the legal ones),
 * starbase_effects.c (the ability interpreter), starbase_battle.c,
 * starbase_prio.c (priority hooks and the action list), starbase_view.c,
 * starbase_bot.c.
 */
#ifndef CONCLAVE_STARBASE_H
#define CONCLAVE_STARBASE_H

#include "engine/rules/starbase/starbase_cards.h"
#include "engine/ruleset.h"

#define SB_MAX_SEATS 4
#define SB_MAX_INST                                                            \
    (SB_MAX_SEATS * (STARBASE_MARKET_MAX + STARBASE_MARKET_REGIONS))
#define SB_MAX_ATTACKS 16
#define SB_HOME_COUNT SB_MAX_SEATS /* region ids 0..3: home regions */
#define SB_REGION_OF(inst) (SB_HOME_COUNT + (inst)) /* an outer region */
#define SB_MAX_ACTIONS 512

/* Rules editions (the `edition` option; docs/games/starbase.md, "Rules
 * editions"). A game stored before editions has none in its options and
 * plays edition 1. */
#define SB_EDITION_FIRST                                                       \
    1 /* seat 0 starts with market 0, ... (the old deal)                       \
       */
#define SB_EDITION_SEED                                                        \
    2 /* first player and markets from the seed; the                           \
         seed's timing (end phase priority, warps) */
#define SB_EDITION_PINS                                                        \
    3 /* as 2, and passive pins pin (Snare Field, Blockade Decree) */
#define SB_EDITION_CURRENT SB_EDITION_PINS
#define SB_EDITION_CURRENT_TEXT "3"

/* Where a card instance is. */
enum {
    SB_Z_MARKET = 0,  /* its owner's market; seq orders it (top: highest) */
    SB_Z_HAND,        /* its owner's hand; seq orders it */
    SB_Z_DOCK,        /* a ship in its owner's dock; count > 0: assembling */
    SB_Z_REGION,      /* a ship in region `region` */
    SB_Z_LOCATION,    /* a location in region `region` */
    SB_Z_NEWS,        /* a news in play; count: duration left (255: forever) */
    SB_Z_STRUCTURE,   /* attached to its owner's starbase */
    SB_Z_SCRAP,       /* its owner's scrapheap */
    SB_Z_OUTER_STACK, /* an outer region beside its owner's market */
    SB_Z_OUTER,       /* an outer region in play; ctrl is its controller */
    SB_Z_COUNT
};

/* The priority steps (the core's step names in sb_step_names). */
enum {
    SB_STEP_NONE = 0,
    SB_STEP_SETUP,      /* setup phase: the forfeit choice, then answers */
    SB_STEP_MANAGEMENT, /* management phase */
    SB_STEP_BATTLE,     /* before the damage of one battle */
    SB_STEP_DISCARD,    /* end phase: down to the hand limit */
    SB_STEP_END,        /* end phase, edition 2: instants before it ends */
    SB_STEP_COUNT
};

/* One card in the game. Only ints: the state is plain data. */
typedef struct sb_inst {
    int card;      /* index into starbase_cards()->cards */
    int owner;     /* seat */
    int zone;      /* SB_Z_* */
    int region;    /* SB_Z_REGION, SB_Z_LOCATION: region id; else -1 */
    int count;     /* assembly countdown (dock) or duration left (news) */
    int cmd;       /* active command index, -1 none */
    int damage;    /* on a ship until the end phase */
    int warps;     /* warps made this management phase */
    int attacking; /* warped into an enemy region this turn */
    int used;      /* bit per ability/command used this turn */
    int target;    /* a news's chosen target (instance or seat), -1 */
    int ctrl;      /* SB_Z_OUTER: controlling seat, -1 uncontrolled */
    int tatk, tdef, tpow; /* "this turn" changes (one-shot auras) */
    int tpin;             /* pinned this turn */
    int textra;           /* extra warps this turn */
    int seq;              /* order in market or hand */
} sb_inst;
#define SB_INST_INTS 18

typedef struct sb_player {
    int market;      /* index of its starter market */
    int alive;       /* 0 once lost */
    int isk;         /* never negative */
    int damage;      /* on its starbase; stays */
    int upgraded;    /* 0 front, 1 back */
    int forfeit;     /* chose to forfeit income this turn */
    int tatk, thull; /* "this turn" changes to its starbase */
    int lost_turn;   /* the turn it lost in, 0 while alive */
} sb_player;
#define SB_PLAYER_INTS 9

typedef struct sb_state {
    int seats;
    int active;   /* whose turn */
    int turn;     /* turns begun, from 1 */
    int step;     /* SB_STEP_* under way */
    int battle;   /* index of the battle under way */
    int nattacks; /* attacks made this turn: [region, defender] */
    int attacks[SB_MAX_ATTACKS][2];
    int next_seq;
    int over;    /* 1 when at most one player is left */
    int edition; /* SB_EDITION_*; saved only when not the first */
    int ninst;
    sb_player p[SB_MAX_SEATS];
    sb_inst in[SB_MAX_INST];
} sb_state;

/* The actions a player makes with a priority play (besides the core's
 * pass). JSON: {"action":NAME, "card":I, "index":K, "target":T,
 * "region":R} with the fields the action needs. */
enum {
    SB_A_FORFEIT = 0, /* setup step, active: forfeit income, draw */
    SB_A_PLAY,        /* play card from hand (+region, +target) */
    SB_A_OUTER,       /* play an outer region from your stack */
    SB_A_UPGRADE,     /* upgrade your starbase */
    SB_A_DOCK,        /* dock a ship from your home region */
    SB_A_UNDOCK,      /* undock an assembled ship */
    SB_A_WARP,        /* warp a ship to region */
    SB_A_ACTIVATE,    /* activate command index of a ship */
    SB_A_DEACTIVATE,  /* deactivate a ship's command */
    SB_A_ABILITY,     /* use ability (or command) index of card (+target) */
    SB_A_DISCARD,     /* discard step: discard card */
    SB_A_COUNT
};

typedef struct sb_action {
    int kind;   /* SB_A_* */
    int card;   /* instance */
    int index;  /* command or ability index, -1 */
    int target; /* instance or seat, -1 */
    int region; /* region id, -1 */
} sb_action;

extern const char *const sb_action_names[SB_A_COUNT];
extern const char *const sb_step_names[SB_STEP_COUNT];

/* ------------------------------------------------ starbase_query.c -- */
const starbase_cardset *sb_cs(void);
const starbase_card *sb_card(const sb_state *s, int inst);
const starbase_side *sb_side(const sb_state *s, int seat);
/* 1 when region id r is in play (a living player's home, an outer region
 * in play). */
int sb_region_valid(const sb_state *s, int r);
/* The seat controlling region r, -1 for none. */
int sb_region_ctrl(const sb_state *s, int r);
/* The seat controlling instance i in play (a location: its region's
 * controller), -1 for none. */
int sb_controller(const sb_state *s, int i);
int sb_count_zone(const sb_state *s, int seat, int zone);
/* The top card of seat's market, -1 when empty. */
int sb_market_top(const sb_state *s, int seat);
int sb_alive_count(const sb_state *s);
uint32_t sb_alive_mask(const sb_state *s);
int sb_next_alive(const sb_state *s, int seat);
/* Move instance i to zone (to its owner's hand or scrapheap, a region...),
 * clearing what it carried in play. */
void sb_move(sb_state *s, int i, int zone, int region);
/* Recompute who controls each outer region from the ships in it. */
void sb_update_control(sb_state *s);
/* Seat draws one card; an empty market loses the game. */
void sb_draw(sb_state *s, engine_ctx *ctx, int seat);
/* Seat loses: its cards leave play (see the doc, "Winning"). */
void sb_lose(sb_state *s, engine_ctx *ctx, int seat, const char *why);
/* Destroy ships and starbases with enough damage; update control and the
 * end of the game. */
void sb_check(sb_state *s, engine_ctx *ctx);
/* Plain-words log entry (public). */
void sb_log(engine_ctx *ctx, const char *type, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
const char *sb_name(const sb_state *s, int inst);
int sb_region_name(const sb_state *s, int r, char *buf, size_t size);

/* ------------------------------------------------ starbase_stats.c -- */
int sb_income(const sb_state *s, int seat);
int sb_ship_attack(const sb_state *s, int i);
int sb_ship_defence(const sb_state *s, int i);
int sb_cmd_power(const sb_state *s, int i, int cmd);
int sb_base_hull(const sb_state *s, int seat);
int sb_base_attack(const sb_state *s, int seat);
int sb_pinned(const sb_state *s, int i);
int sb_warps_allowed(const sb_state *s, int i);
/* 1 when ship i (in a region) may warp now: not attacking, not pinned and,
 * in edition 1 only, warps left this phase. */
int sb_can_warp(const sb_state *s, int i);
int sb_assembly_bonus(const sb_state *s, int seat);
/* The number an ability uses: its amount (or max_price), or for a command
 * the command's current power. */
int sb_ab_number(const sb_state *s, int inst, int cmd,
                 const starbase_ability *ab);

/* ------------------------------------------------ starbase_effects.c -- */
/* 1 when t is a legal chosen target of ab for seat (n: the number). */
int sb_target_ok(const sb_state *s, int seat, const starbase_ability *ab, int n,
                 int t);
/* Apply one-shot ability ab of source instance src (-1: none) for seat. */
void sb_effect(sb_state *s, engine_ctx *ctx, int seat, int src,
               const starbase_ability *ab, int n, int t);

/* ------------------------------------------------ starbase_actions.c -- */
/* Parse a play into a; ENGINE_EINVALID naming the field. */
int sb_parse(const json_t *play, sb_action *a, engine_error *err);
json_t *sb_action_json(const sb_action *a);
/* Is a legal for seat in step now? Pure. */
int sb_check_action(const sb_state *s, int seat, int step, const sb_action *a,
                    engine_error *err);
/* Apply a checked action. Returns 1 when others should get priority. */
int sb_apply_action(sb_state *s, engine_ctx *ctx, int seat, const sb_action *a);
/* Why seat cannot play hand card i in step (asked only for a card no legal
 * play uses): a reason code ("not_this_phase", "too_expensive", "no_slot",
 * "no_region", "no_target", "not_now") and the words in text. */
const char *sb_unplayable(const sb_state *s, int seat, int step, int i,
                          char *text, size_t size);
/* Every legal action of seat in step (at most max). */
int sb_list_actions(const sb_state *s, int seat, int step, sb_action *out,
                    int max);

/* ------------------------------------------------ starbase_turn.c -- */
void sb_begin_turn(sb_state *s, engine_ctx *ctx, int seat);
/* Open step (its round and first seat follow from the state). */
void sb_open(sb_state *s, engine_ctx *ctx, int step);
/* After a change: end the turn of a lost active player, reopen the step
 * for a changed round. */
void sb_after(sb_state *s, engine_ctx *ctx, uint32_t round_before);
int sb_step_end(sb_state *s, engine_ctx *ctx, int step);

/* ------------------------------------------------ starbase_battle.c -- */
void sb_resolve_battle(sb_state *s, engine_ctx *ctx, int k);
/* 1 when attack k still has attackers in its region. */
int sb_battle_live(const sb_state *s, int k);

/* ------------------------------------------------ starbase_prio.c -- */
int sb_priority_play(void *state, engine_ctx *ctx, int seat, const char *step,
                     const json_t *play, engine_error *err);
int sb_priority_resolve(void *state, engine_ctx *ctx, const char *step,
                        const engine_stack_item *item, engine_error *err);
int sb_priority_end(void *state, engine_ctx *ctx, const char *step,
                    engine_error *err);
json_t *sb_priority_legal(const void *state, const engine_stack *stack,
                          int seat, const char *step);
json_t *sb_priority_bot(const void *state, const engine_stack *stack, int seat,
                        const char *step, const char *level, engine_rng *rng);

/* ------------------------------------------------ views, bots -- */
json_t *sb_view(const sb_state *s, int seat);
/* The twin hook (starbase_twin.c): hidden designs shuffled. */
void *sb_twin(const void *state, int seat, engine_rng *rng);
json_t *sb_bot_play(const sb_state *s, int seat, int step, const char *level,
                    engine_rng *rng);

#endif

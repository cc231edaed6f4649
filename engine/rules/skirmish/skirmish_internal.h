/*
 * skirmish_internal.h - the Skirmish ruleset's game state and the functions
 * its files share (engine/rules/skirmish/skirmish_*.c). Not for other code:
 * the engine sees only skirmish_ruleset (skirmish.c).
 *
 * The state is one flat struct of ints (no pointers): clone is a copy and
 * save/load follow a field table (skirmish_state.c). The stack lives in the
 * core; an item's public payload says what it is (skirmish_priority.c).
 */
#ifndef CONCLAVE_SKIRMISH_INTERNAL_H
#define CONCLAVE_SKIRMISH_INTERNAL_H

#include "engine/rules/skirmish/skirmish_cards.h"
#include "engine/ruleset.h"

#define SK_SEATS 2
#define SK_SQUARES (SKIRMISH_COLS * SKIRMISH_ROWS)
#define SK_MAXU (2 * SKIRMISH_SQUAD_MAX) /* units: seat 0's, then seat 1's */
#define SK_MAX_PARRY 16
#define SK_MAX_TOKENS 9
#define SK_TURN_LIMIT 40
/* Rules editions (option "edition"): 2 is what new games get. */
#define SK_EDITION_CURRENT 2
#define SK_EDITION_CURRENT_TEXT "2"

/* Phases of the game. */
enum { SK_MUSTER = 0, SK_DEPLOY, SK_PLAY, SK_OVER };

/* One unit's row: a creature of a squad (index u in cr[u]). */
enum {
    U_DESIGN = 0, /* design index */
    U_OWNER,      /* seat */
    U_SQ,         /* square 0..29 (a1 = 0, b1 = 1 ... e6 = 29), -1 off */
    U_LAST_SQ,    /* the square it last stood on, -1 before deployment */
    U_DEAD,       /* 1: destroyed (off the field for good) */
    U_LIFE,
    U_MP,     /* movement points left this turn */
    U_CLOSED, /* 1: closed (tapped) */
    U_TOKENS,
    U_POISON,      /* life lost at the end of its controller's turn */
    U_AURA_STRIKE, /* until end of turn */
    U_AURA_ARMOUR, /* until end of turn */
    U_AURA_MOVE,   /* until end of turn */
    U_RES_MP,      /* reserved by its items on the stack */
    U_RES_TAP,     /* 1: a close is reserved */
    U_RES_TOKENS,  /* reserved tokens */
    U_RES_LIFE,    /* reserved life */
    U_NF
};

typedef struct sk_state {
    int phase;          /* SK_* */
    int turn;           /* turns begun, 0 before the first */
    int turn_limit;     /* the game ends after this many turns */
    int active;         /* the active seat; -1 before the first turn */
    int first;          /* the first active seat; -1 before deployment */
    int winner;         /* -1 none yet, 0/1 a seat, 2 a draw */
    int cost[SK_SEATS]; /* squad costs */
    int nunits[SK_SEATS];
    int nu; /* units in cr */
    int cr[SK_MAXU][U_NF];
    /* Parries on attacks on the stack: rows {item id, amount}. */
    int nparry;
    int parry[SK_MAX_PARRY][2];
    /* The last attack: attacker, target, rolls (0: none), strikes dealt
     * (-1: none); attacker -1 before any. */
    int dice[6];
} sk_state;

/* ---- skirmish_state.c */
const skirmish_cardset *sk_cards(void);
const skirmish_design *sk_design(const sk_state *s, int u);
int sk_on_field(const sk_state *s, int u);
int sk_unit_at(const sk_state *s, int sq); /* -1 when empty */
int sk_col(int sq);
int sk_row(int sq);
int sk_dist(int a, int b); /* king's moves */
/* "c3", into buf of at least 3 bytes; "--" for -1. */
const char *sk_sq_name(int sq, char buf[4]);
int sk_sq_parse(const char *name); /* -1 if not a square */
/* Has the static keyword kind; its amount (or 1) summed for armour etc. */
int sk_has(const sk_state *s, int u, int kind);
int sk_keyword_amount(const sk_state *s, int u, int kind);
int sk_armour(const sk_state *s, int u);
int sk_squad_alive(const sk_state *s, int seat);
/* Life down by n (not below 0); destroys at 0 and queues "dies" triggers.
 * Returns 1 if it was destroyed. */
int sk_lose_life(sk_state *s, engine_ctx *ctx, int u, int n);
void sk_heal(sk_state *s, int u, int n);
/* Ends the game if a squad is gone. */
void sk_check_over(sk_state *s);
void sk_log(engine_ctx *ctx, const char *type, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* "Iron Lancer (c3)" */
const char *sk_unit_name(const sk_state *s, int u, char *buf, size_t n);
/* How the log names a seat: "seat 0" / "seat 1" as the API counts them
 * (edition 2), "Player 1" / "Player 2" in edition 1 games, whose logs stay
 * as they were. Into buf of 24 bytes. */
char *sk_seat_name(engine_ctx *ctx, int seat, char buf[24]);
/* buf with its first letter made a capital, to start a sentence. */
char *sk_cap(char *buf);

/* ---- skirmish_muster.c: the sealed windows and the first turn */
int sk_windows(const void *state, engine_window *out, int max);
int sk_check_order(const void *state, int seat, const char *window,
                   const json_t *order, engine_error *err);
json_t *sk_default_order(const void *state, int seat, const char *window,
                         engine_rng *rng);
int sk_resolve(void *state, engine_ctx *ctx, const char *window,
               const json_t *const *orders, engine_error *err);
/* The squad an order names, as design indices into out (max 15); the
 * count, or -1 with err filled. */
int sk_order_squad(const json_t *order, uint8_t *out, engine_error *err);

/* ---- skirmish_move.c */
/* Fewest movement points for u to reach sq now (walking along sides
 * through empty squares, or flying), or -1 if it cannot. */
int sk_move_cost(const sk_state *s, int u, int sq);
/* The same for every square at once (-1: cannot; its own square is -1). */
void sk_move_costs(const sk_state *s, int u, int dist[SK_SQUARES]);

/* ---- skirmish_combat.c */
/* An attack by a on t resolves (item id for parries). */
void sk_attack(sk_state *s, engine_ctx *ctx, int a, int t, uint32_t item);
int sk_can_attack(const sk_state *s, int a, int t);
int sk_parry_total(const sk_state *s, uint32_t item);
/* Three times u's average strike on other (for bots). */
int sk_strength_sum(const sk_state *s, int u, int other, int attacking);

/* ---- skirmish_abilities.c: the vocabulary interpreter */
typedef struct sk_decl {
    int kind;      /* SK_D_* */
    int unit;      /* the source */
    int ability;   /* index into the design's abilities, -1 for move/attack */
    int target;    /* a unit, -1 none */
    int to;        /* a square (move), -1 none */
    uint32_t item; /* an item on the stack (parry, counterspell), 0 none */
} sk_decl;
enum { SK_D_MOVE = 0, SK_D_ATTACK, SK_D_ABILITY };

/* Can the ability's single target t be named from square sq now? */
int sk_target_ok(const sk_state *s, int u, const skirmish_ability *a, int t,
                 int from_sq);
/* Apply an effect of unit u's ability (item for parry / counterspell). */
void sk_effect(sk_state *s, engine_ctx *ctx, int u, const skirmish_ability *a,
               int target, uint32_t item, const json_t *payload);
/* Queue u's triggered abilities of trigger tr (attacker for "attacked"). */
void sk_queue_triggers(sk_state *s, engine_ctx *ctx, int u, int tr,
                       int attacker);
/* Can u pay cost c on top of what it has reserved? */
int sk_can_reserve(const sk_state *s, int u, const skirmish_cost *c);
void sk_reserve(sk_state *s, int u, const skirmish_cost *c, int sign);
/* The source pays c after its effect, as far as it can (ours). */
void sk_pay(sk_state *s, engine_ctx *ctx, int u, const skirmish_cost *c);
/* The cost an item reserved, read from its payload. */
skirmish_cost sk_item_cost(const json_t *payload);
/* Is this stack item a spell / an attack (and on whom)? */
int sk_item_is_spell(const engine_stack_item *it);
int sk_item_attack_target(const engine_stack_item *it);

/* ---- skirmish_priority.c: the turn */
int sk_priority_play(void *state, engine_ctx *ctx, int seat, const char *step,
                     const json_t *play, engine_error *err);
int sk_priority_resolve(void *state, engine_ctx *ctx, const char *step,
                        const engine_stack_item *item, engine_error *err);
int sk_priority_end(void *state, engine_ctx *ctx, const char *step,
                    engine_error *err);
json_t *sk_priority_legal(const void *state, const engine_stack *stack,
                          int seat, const char *step);
/* Start turn: swap or first turn, start phase (skirmish_priority.c). */
void sk_begin_turn(sk_state *s, engine_ctx *ctx, int active);
/* Every declaration seat may make now in step (into out, at most max);
 * the count. */
int sk_declarations(const sk_state *s, const engine_stack *stack, int seat,
                    const char *step, sk_decl *out, int max);
json_t *sk_decl_json(const sk_decl *d);

/* ---- skirmish_view.c */
json_t *sk_view(const void *state, int seat);
json_t *sk_legal(const void *state, int seat, const char *window);
json_t *sk_result(const void *state);

/* ---- skirmish_bot.c */
json_t *sk_bot(const void *state, int seat, const char *window,
               const char *level, engine_rng *rng);
json_t *sk_priority_bot(const void *state, const engine_stack *stack, int seat,
                        const char *step, const char *level, engine_rng *rng);

/* ---- skirmish_state.c: setup, save, load */
void *sk_setup(engine_ctx *ctx, const json_t *options, int seats,
               engine_error *err);
void *sk_clone(const void *state);
json_t *sk_save(const void *state);
void *sk_load(const json_t *saved, engine_error *err);
int sk_is_over(const void *state);

extern const engine_option sk_options[];

#endif

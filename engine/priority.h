/*
 * priority.h - the engine's own interface to priority windows, the stack,
 * response rules and undo (engine/priority.c, engine/stack.c,
 * engine/respond.c, engine/prio_save.c). Internal: included through
 * engine_internal.h; rulesets use the engine_ctx_* calls in ruleset.h.
 */
#ifndef CONCLAVE_PRIORITY_H
#define CONCLAVE_PRIORITY_H

#include "engine_internal.h"

#define PRIO_STEP_MAX 24    /* a step name, with its NUL */
#define PRIO_AUTO_MAX 10000 /* automatic passes within one input, at most */

struct engine_stack {
    engine_stack_item *items; /* owned, with their JSON; 0 is the bottom */
    size_t n, cap;
};

/* What a seat set in advance: pass while `until` holds. */
enum { RULE_NONE = 0, RULE_STACK, RULE_MY_TURN, RULE_END_OF_TURN };

typedef struct prio_rule {
    int until;            /* RULE_* */
    int stop_if_targeted; /* stop when an item newer than last_item targets
                             or attacks the seat */
    uint64_t version;     /* the stack version when set */
    uint32_t turn;        /* the turn when set */
    uint32_t last_item;   /* the newest item id when set */
} prio_rule;

/* The part of priority an undo point restores. */
typedef struct prio_step {
    int open;                 /* a step is under way */
    char step[PRIO_STEP_MAX]; /* its name */
    uint32_t round;           /* seats that take part */
    uint32_t passed;          /* seats that passed in a row */
    int holder;               /* the seat holding priority */
    int active;               /* the active seat, -1 before the first turn */
    uint32_t turn;            /* engine_ctx_turn_begin calls so far */
    int flow;                 /* engine_ctx_priority_flow: a seat without
                                 hold passes here on an empty stack */
    engine_stack stack;
} prio_step;

struct prio_core {
    prio_step cur;
    uint32_t serial;    /* the window number; never goes back */
    uint32_t next_item; /* the last item id given; never goes back */
    uint64_t version;   /* counts stack changes; never goes back */
    prio_rule rules[ENGINE_MAX_SEATS];
    unsigned flags;      /* ENGINE_PRIO_*, from engine_ctx_priority_setup */
    uint32_t auto_seats; /* seats without hold: the core passes for them
                            (prio_auto_passes) */

    /* The undo point: the state before the last undoable play. */
    void *undo_state; /* the ruleset's, owned; NULL when none */
    prio_step undo_step;
    int undo_seat;
    int undo_others;        /* another seat acted since */
    int undo_requested;     /* the seat asked the others */
    uint32_t undo_consents; /* seats that agreed */

    /* Only during one engine_apply; never saved. */
    int give;           /* engine_ctx_priority_give, -1 for none */
    int begun;          /* engine_ctx_priority_begin was called */
    engine_stack queue; /* triggers not yet pushed */
    void *cand_state;   /* an undo point to install if nothing is revealed */
    prio_step cand_step;
    int cand_seat;
    int cand_others; /* another seat passed after the play, same input */
    int play_pass;   /* seat + 1 whose play passes priority with it */
};

/* ---- stack.c */
void stack_clear(engine_stack *s);
/* Deep enough copy (the items' JSON is shared: it never changes). 0 or -1
 * on OOM (dst is then empty). */
int stack_copy(engine_stack *dst, const engine_stack *src);
/* Append a copy of *item, taking over its JSON. 0 or -1 on OOM (the JSON
 * is then freed). */
int stack_append(engine_stack *s, const engine_stack_item *item);
/* Free one item's JSON. */
void stack_item_free(engine_stack_item *item);
json_t *stack_save(const engine_stack *s);
int stack_load(engine_stack *s, const json_t *arr, int seats);
/* The stack as audience seat (or ENGINE_PUBLIC) may see it. */
json_t *stack_view(const engine_stack *s, int seat);

/* ---- priority.c */
/* g->prio, made on first use; NULL on OOM. */
prio_core *prio_get(engine_game *g);
void prio_step_free(prio_step *s);
/* 1 and *w filled when a priority window is open. */
int prio_window(const engine_game *g, engine_window *w);
int prio_is_window(const engine_game *g, const char *id);
/* A play (pass or the ruleset's) by the holder; the core has checked the
 * window, the seat and that play is an object. */
int prio_play(engine_game *g, int seat, const json_t *play, engine_error *e);
/* The clock ran out on the holder. */
int prio_timeout(engine_game *g, engine_error *e);
/* Push queued triggers, then pass for holders whose rule says so. */
int prio_settle(engine_game *g, engine_error *e);
int prio_do_pass(engine_game *g, int seat, engine_error *e);
json_t *prio_legal(const engine_game *g, int seat);
json_t *prio_bot(const engine_game *g, int seat, const char *level,
                 engine_rng *rng);

/* ---- respond.c: response rules and undo */
/* 1 when action is one of the SYSTEM actions respond.c handles. */
int prio_is_system(const char *action);
int prio_system(engine_game *g, const engine_input *in, const char *action,
                engine_error *e);
/* Validate a rule from payload fields "until" and "stop_if_targeted" (an
 * absent "until" is RULE_NONE with *given 0). */
int prio_rule_parse(const json_t *payload, prio_rule *out, int *given,
                    engine_error *e);
void prio_rule_set(engine_game *g, int seat, const prio_rule *r);
/* 1 if seat's rule passes for it now; clears a rule that has run out. */
int prio_rule_passes(engine_game *g, int seat);
/* Read an optional "hold" member of payload into *hold (-1 when absent). */
int prio_hold_parse(const json_t *payload, int *hold, engine_error *e);
/* Seat's hold setting: 1 holds priority (full control), 0 lets the core
 * pass for it (prio_auto_passes). */
void prio_hold_set(engine_game *g, int seat, int hold);
/* 1 if the core passes for seat now because it does not hold: its play
 * passes priority with it, its own item is on top, or the stack is empty
 * in a step that flows. Only the seat's setting and public facts count. */
int prio_auto_passes(engine_game *g, int seat);
/* The end of engine_apply: install or drop the undo candidate, note that
 * others acted, forget the undo point after a reveal. */
void prio_input_end(engine_game *g, const engine_input *in, int ok,
                    int revealed);
void prio_undo_clear(prio_core *p, const engine_ruleset *rs);

/* ---- prio_save.c */
void prio_free(prio_core *p, const engine_ruleset *rs);
/* NULL on OOM. */
prio_core *prio_clone(const prio_core *p, const engine_ruleset *rs);
json_t *prio_save(const engine_game *g);
int prio_load(engine_game *g, const json_t *saved, engine_error *e);
/* Add "priority" and "stack" to a view. */
void prio_view(const engine_game *g, int seat, json_t *view);

#endif

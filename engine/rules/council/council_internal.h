/*
 * council_internal.h - Galactic Council's game state and the functions the
 * ruleset's files share: setup and save/load (council_state.c), the round
 * with its strategy and status phases (council_round.c), the action phase
 * (council_action.c), combat and neutral markers (council_combat.c), views
 * (council_view.c) and bots (council_bot.c). council.c is the
 * engine_ruleset table.
 *
 * The state is one plain struct (no pointers): clone is a memcpy.
 */
#ifndef CONCLAVE_COUNCIL_INTERNAL_H
#define CONCLAVE_COUNCIL_INTERNAL_H

#include "engine/rules/council/council_fog.h"
#include "engine/rules/council/council_orders.h"
#include "engine/ruleset.h"

#define CNC_MAX_PARTS 16 /* order parts in one action order */
/* Rules editions (option "edition"; a game stored before them is 1). */
#define CNC_EDITION_FIRST 1
/* The lobby's parts in the action window; a blackmailed speaker breaks no
 * tie, sabotaged or silenced too. */
#define CNC_EDITION_2 2
#define CNC_EDITION_CURRENT CNC_EDITION_2
#define CNC_EDITION_CURRENT_TEXT "2"

#define CNC_PART_KEY_MAX 17
#define CNC_MAX_HAND 7
#define CNC_MAX_SECRETS 4
#define CNC_BASE_PRODUCTION 4

/* Phases; the council's three (part II) come after OVER so that the
 * first three keep their numbers. */
enum {
    CNC_PHASE_STRATEGY = 0,
    CNC_PHASE_ACTION,
    CNC_PHASE_OVER,
    CNC_PHASE_AGENDA,  /* the speaker puts an agenda card it holds */
    CNC_PHASE_LOBBY,   /* the action-card window after the announcement */
    CNC_PHASE_COUNCIL, /* representatives, vote, markers, captures */
};

/* When the council sits (lobby option "council_phase"). */
enum {
    CNC_COUNCIL_EVERY_ROUND = 0, /* seed 000: every round, vote at its end */
    CNC_COUNCIL_AFTER_STATUS,    /* seed 001: after the status phase, once
                                    Concordia's custodians are gone */
    CNC_COUNCIL_OFF              /* no council phase */
};

/* A representative's role at one council: the race's three, or a clerk. */
enum { CNC_SENT_CLERK = CNC_REP_COUNT };
/* What became of a representative. */
enum {
    CNC_FATE_SEATED = 0,
    CNC_FATE_KILLED, /* assassinated */
    CNC_FATE_STRUCK, /* a spy struck down by a bodyguard it targeted */
};

#define CNC_MAX_MARKER_BUY 5 /* command markers one council order buys */
#define CNC_CAPTURE_INFLUENCE 3

typedef struct cnc_player {
    int8_t race;
    int8_t tactic, fleet, strategy; /* command pools */
    int16_t tg, vp;
    int8_t card;       /* strategy card this round, -1 none */
    uint8_t card_used; /* its primary was used this round */
    uint8_t techs[CNC_MAX_TECHS];
    uint8_t hand[CNC_MAX_ACTIONS];      /* action cards held, by index */
    uint8_t scored[CNC_MAX_OBJECTIVES]; /* objectives scored */
    uint8_t secret[CNC_MAX_OBJECTIVES]; /* secret objectives held */
    uint8_t won_combat;                 /* this round */
    uint8_t free_produce;               /* Industry: produce unactivated */
    int8_t last_card;                   /* card of the last round */
} cnc_player;

#define CNC_MAX_STANDING 4 /* combat retreats one seat may order */

/* A standing order to leave a space combat in sector after some rounds. */
typedef struct cnc_standing {
    uint8_t used;
    int8_t sector, to, after;
} cnc_standing;

/* Per-seat choices and effects that last for the round (all zero at the
 * start of a round means "none"), added after the first save format: a
 * save written before they existed loads with them zeroed. */
typedef struct cnc_round_extra {
    int16_t spied[3];     /* markers espionage inspected, +1 (0: none) */
    uint8_t discarded;    /* espionage discard used this round */
    uint8_t plan;         /* status 5 split given */
    int8_t pools[3];      /* tactic, fleet, strategy wanted */
    uint8_t free_explore; /* next paid exploration costs nothing */
    int8_t extra_move;    /* next move reaches this much further */
    int8_t rally;         /* command tokens to gain at status 5 */
    uint8_t lore_used;    /* the Quillan special this round */
    uint8_t reroll;       /* Lucky Shot for the next space combat */
    uint8_t direct_hit;   /* Direct Hit for the next space combat */
    uint8_t followed[CNC_MAX_STRATEGIES]; /* secondaries used */
    cnc_standing retreat[CNC_MAX_STANDING];
    /* ---- added in save format 5: status 1, the objectives the seat
     * chose to score, in preference order, +1 (0: end of list) */
    uint8_t score_given;                  /* a score step was given */
    int8_t score_public[CNC_SCORE_PREFS]; /* public objectives */
    int8_t score_secret[CNC_SCORE_PREFS]; /* secret objectives */
} cnc_round_extra;

/* The last council's outcome, public once it resolved. */
typedef struct cnc_council_result {
    int16_t round;                   /* 0: no council yet */
    int8_t agenda;                   /* voted (or tabled) agenda, -1 none */
    int8_t outcome;                  /* law: 1 passed, 0 failed; election:
                                        the elected seat or -1; -2 tabled,
                                        -3 no agenda */
    int8_t sent[ENGINE_MAX_SEATS];   /* role sent (CNC_REP_*, CNC_SENT_CLERK) */
    int8_t target[ENGINE_MAX_SEATS]; /* a spy's target, else -1 */
    uint8_t fate[ENGINE_MAX_SEATS];  /* CNC_FATE_* */
    int16_t weight[ENGINE_MAX_SEATS]; /* votes counted for the seat's side */
    int8_t vote[ENGINE_MAX_SEATS];    /* law: 1 for, 0 against; election:
                                         the seat; -1 none */
    int16_t totals[ENGINE_MAX_SEATS]; /* law: [0] against, [1] for;
                                         election: votes per seat */
    uint8_t deed[ENGINE_MAX_SEATS];   /* what the seat's spy did: CNC_DEED_* */
} cnc_council_result;

/* What a spy did (seed 000, 2.3). */
enum {
    CNC_DEED_NONE = 0, /* not a spy, or it did not act */
    CNC_DEED_KILLED,
    CNC_DEED_IMMUNE,
    CNC_DEED_STRUCK_DOWN,
    CNC_DEED_BLACKMAILED,
    CNC_DEED_SABOTAGED,
    CNC_DEED_NO_EFFECT,
};

/* Agendas a seat may hold between councils (ours); the Forum holder
 * draws CNC_AGENDA_DRAW more when it speaks. */
#define CNC_AGENDA_KEEP 1
#define CNC_AGENDA_DRAW 2

/* The council phase (part II): options, agenda deck, laws in force and
 * this council's choices. */
typedef struct cnc_council {
    uint8_t mode;           /* CNC_COUNCIL_* */
    uint8_t secret_votes;   /* only the totals are revealed */
    int8_t speaker;         /* this council's speaker, -1 before it sits */
    int8_t agenda;          /* on the table, -1 none */
    uint8_t tabled;         /* withdrawn unvoted (Table the Motion) */
    uint8_t guarded;        /* seats whose representative cannot be killed */
    uint8_t silenced;       /* seats whose votes count 0 */
    uint8_t objective_pick; /* the bureaucracy holder's pick, +1 (0: none) */
    int8_t extra_votes[ENGINE_MAX_SEATS];
    int8_t deck[CNC_MAX_AGENDAS]; /* shuffled agenda deck */
    int8_t ndeck, deck_pos;
    uint8_t held[ENGINE_MAX_SEATS][CNC_MAX_AGENDAS]; /* agendas in hand */
    uint8_t laws[CNC_MAX_AGENDAS];                   /* lasting laws in force */
    int16_t obj_round[CNC_MAX_OBJECTIVES]; /* round the council revealed
                                              public_deck[i] (0: not it) */
    uint8_t taken[CNC_MAX_SECTORS]; /* planet bits captured this council */
    cnc_council_result last;
    /* ---- added in save format 5 */
    cnc_council_result seated; /* this council's representatives after the
                                  spies (seated.round == round once the
                                  lobby resolved), before the vote */
} cnc_council;

typedef struct cnc_state {
    int8_t seats, phase, speaker, picks; /* picks: cards taken this round */
    int16_t round, vp_target, last_round;
    int8_t next_speaker;      /* Forum's choice this round, -1 none */
    uint8_t council_convened; /* someone controls Concordia: part II hook */
    uint8_t over, ended_why;  /* 1 target, 2 last round, 3 no objective */
    cnc_galaxy g;
    cnc_fog fog;
    cnc_player p[ENGINE_MAX_SEATS];
    uint8_t tokens[CNC_MAX_SECTORS];    /* seats with a command token there */
    uint8_t exhausted[CNC_MAX_SECTORS]; /* planet bits */
    uint8_t damaged[CNC_MAX_SECTORS][ENGINE_MAX_SEATS][CNC_MAX_UNITS];
    int8_t strat_owner[CNC_MAX_STRATEGIES]; /* -1 in the common area */
    int8_t public_deck[CNC_MAX_OBJECTIVES]; /* stage I shuffled, then II */
    int8_t npublic, revealed;               /* deck size, how many turned */
    int8_t secret_deck[CNC_MAX_OBJECTIVES];
    int8_t nsecret, secret_pos;
    int8_t action_deck[64];
    int8_t naction, action_pos;
    /* ---- added in save format 3 (zero in a format 2 save) */
    int8_t chancery_pick; /* status 2 reveals the 1st/2nd unrevealed: 0/1 */
    uint8_t sabotaged[CNC_MAX_SECTORS]; /* seats blocking production */
    cnc_round_extra x[ENGINE_MAX_SEATS];
    /* ---- added in save format 4: the council (part II) */
    cnc_council c;
    /* ---- added in save format 6 */
    uint8_t sequential_picks; /* option strategy_picks 1: an open window per
                                 pick; 0: one sealed window of rankings */
    /* ---- added with rules editions, in what was padding (0 in older
     * saves: edition 1) */
    uint8_t edition; /* option "edition"; 0 in a game stored before it */
} cnc_state;

/* ---- council_state.c */
/* Fill *s (overwritten) for seats with the options' values; draws the
 * races, galaxy and decks from ctx's RNG and logs the start. 0 or an
 * error naming the field. */
int cnc_state_setup(cnc_state *s, engine_ctx *ctx, int seats, int vp_target,
                    int last_round, int fixed_map, engine_error *err);
/* The save document (new) / *s from one (ENGINE_EINTERNAL when corrupt). */
json_t *cnc_state_save(const cnc_state *s);
int cnc_state_load(cnc_state *s, const json_t *saved, engine_error *err);

/* ---- council_round.c */
/* The open window's id into out; -1 when the game is over. */
int cnc_window_id(const cnc_state *s, char *out, size_t n);
/* The seat that picks a strategy card now (sequential picks). */
int cnc_picker(const cnc_state *s);
/* The ranked picks window "rN.picks" is open (not the sequential ones). */
int cnc_ranked_open(const cnc_state *s);
/* A ranked picks order ({} or {"ranking": [keys]}): 0, or -1 with err. */
int cnc_ranking_check(const json_t *order, engine_error *err);
/* Resolve the locked ranked picks window: in speaker order each seat
 * takes its highest-ranked card still free, else the lowest initiative
 * left (orders[seat] may be NULL: the default order). */
void cnc_ranked_resolve(cnc_state *s, engine_ctx *ctx,
                        const json_t *const *orders);
/* Seats in initiative order (lowest card first) into order; returns n. */
int cnc_initiative_order(const cnc_state *s, int order[ENGINE_MAX_SEATS]);
/* The status phase, seed 001's eight steps, then a new round or the end. */
void cnc_status_phase(cnc_state *s, engine_ctx *ctx);
/* Each step on its own (tests call them one by one). */
void cnc_status_score(cnc_state *s, engine_ctx *ctx);
int cnc_status_reveal(cnc_state *s, engine_ctx *ctx); /* 0: none left */
void cnc_status_draw(cnc_state *s, engine_ctx *ctx);
void cnc_status_remove_tokens(cnc_state *s);
void cnc_status_gain_tokens(cnc_state *s, engine_ctx *ctx);
void cnc_status_ready(cnc_state *s);
void cnc_status_repair(cnc_state *s);
void cnc_status_return_cards(cnc_state *s, engine_ctx *ctx);
/* Does seat meet objective o now? */
int cnc_objective_met(const cnc_state *s, int seat, int o);
/* Planets seat controls (outside_home: not counting its home). */
int cnc_planets_controlled(const cnc_state *s, int seat, int outside_home);
/* The result document (new) once over, else NULL. */
json_t *cnc_result_json(const cnc_state *s);

/* ---- council_action.c */
/* Check seat's action order: an object of at most CNC_MAX_PARTS order
 * parts with keys [a-z0-9_]{1,16}; a move beyond its slowest named ship's
 * reach is refused (ship speeds and distances are public, the bound on
 * extra reach is the seat's own: drives, Research, its hand). Only what
 * the seat knows is used. */
int cnc_action_check(const cnc_state *s, int seat, const json_t *order,
                     engine_error *err);
/* The most seat's ships may move beyond their speed this round, by what
 * it knows: drives, the drives it could research, its hand's extra moves. */
int cnc_reach_bonus_bound(const cnc_state *s, int seat);
/* Resolve the locked action window: every seat's parts in initiative
 * order (parts of one seat in key order), then the status phase. */
void cnc_action_resolve(cnc_state *s, engine_ctx *ctx,
                        const json_t *const *orders);
/* One part of seat on its own (tests). */
void cnc_resolve_part(cnc_state *s, engine_ctx *ctx, int seat,
                      const cnc_order *o);
/* Gain trade goods (with the Veyari bonus). */
void cnc_gain_tg(cnc_state *s, int seat, int n);
/* Effective values with technologies and race. */
int cnc_has_tech_effect(const cnc_state *s, int seat, int effect);
int cnc_ships_in(const cnc_state *s, int seat, int sector); /* no fighters */
int cnc_units_in(const cnc_state *s, int seat, int sector); /* in space */

/* ---- council_strategy.c */
/* Seat takes strategy card c (validated by the caller); when every seat
 * has one the action phase opens. */
void cnc_pick_card(cnc_state *s, engine_ctx *ctx, int seat, int card);
/* A strategy step: seat uses its card's primary. 0, or -1 with *why
 * (static text). *inspected gets the last marker an espionage inspected
 * (unchanged otherwise). */
int cnc_strategy_step(cnc_state *s, engine_ctx *ctx, int seat,
                      const cnc_step *st, int *inspected, const char **why);
/* The espionage exploration: at most max of st's target hexes as picks
 * (an unexplored sector is explored, an explored one has its first hidden
 * marker seat has not inspected inspected and remembered for the
 * discard). 0, or -1 with *why and nothing changed. */
int cnc_espionage(cnc_state *s, engine_ctx *ctx, int seat, const cnc_step *st,
                  int max, int *inspected, const char **why);
/* Seat discards marker m, which its espionage inspected this round and is
 * still hidden, once a round: it leaves the game unseen. 0 or -1, *why. */
int cnc_discard(cnc_state *s, engine_ctx *ctx, int seat, int m,
                const char **why);
/* Seat learns technology t (no cost, no check). */
void cnc_learn(cnc_state *s, engine_ctx *ctx, int seat, int t);
/* The technology seat would research next (-1: none left). */
int cnc_next_tech(const cnc_state *s, int seat);

/* ---- council_cards.c */
/* Seat plays action card st->action (it must hold it; cards timed for the
 * council cannot be played in the action phase). x is the sector the step
 * names or where the order stands (-1: none), m the marker it names (-1:
 * none). 0, or -1 with *why (static text) and the card kept. */
int cnc_play_card(cnc_state *s, engine_ctx *ctx, int seat, const cnc_step *st,
                  int x, int m, const char **why);
/* Seat follows another seat's strategy card st->card (its secondary),
 * spending one strategy token; once per card a round. 0 or -1, *why. */
int cnc_follow(cnc_state *s, engine_ctx *ctx, int seat, const cnc_step *st,
               const char **why);
/* Pay cost resources / influence from seat's ready planets, then trade
 * goods. -1 when it cannot pay (nothing changes). */
int cnc_pay_resources(cnc_state *s, int seat, int cost);
int cnc_pay_influence(cnc_state *s, int seat, int cost);
/* 1 when seat could pay cost influence that way (nothing changes). */
int cnc_can_pay_influence(const cnc_state *s, int seat, int cost);
/* 1 when seat can raise cost in resources (ready planets, trade goods). */
int cnc_can_pay_resources(const cnc_state *s, int seat, int cost);

/* ---- council_combat.c */
/* Space combat in sector between attacker and every other seat with ships
 * there, in seat order. */
void cnc_space_combat(cnc_state *s, engine_ctx *ctx, int attacker, int sector);
/* The hidden system marker of sector acts on seat's fleet entering it. */
void cnc_system_marker(cnc_state *s, engine_ctx *ctx, int seat, int sector);
/* n of seat's troopers land on planet p of sector: markers, ground combat
 * and control. */
void cnc_land_on(cnc_state *s, engine_ctx *ctx, int seat, int sector, int p,
                 int n);
/* Draw an action card for seat (nothing when the deck is out or the hand
 * full). */
void cnc_draw_action(cnc_state *s, engine_ctx *ctx, int seat);

/* ---- council_council.c (the council phase, part II) */
/* The strategy picks are done / the action window resolved / the status
 * phase ended without ending the game: open the next window the council
 * mode asks for. */
void cnc_after_picks(cnc_state *s, engine_ctx *ctx);
void cnc_after_action(cnc_state *s, engine_ctx *ctx);
/* 1 when the council sits now, after the status phase (it opened). */
int cnc_council_after_status(cnc_state *s, engine_ctx *ctx);
/* The council sits: speaker, agenda (the Forum holder's choice or drawn),
 * phase AGENDA or LOBBY. */
void cnc_council_begin(cnc_state *s, engine_ctx *ctx);
/* The speaker puts agenda a (held, validated by the caller) to the vote
 * and keeps agenda keep (-1: none) for a later council; its other
 * agendas go back under the deck. */
void cnc_council_choose(cnc_state *s, engine_ctx *ctx, int seat, int a,
                        int keep);
/* Structural check of a lobby / council order (public knowledge only):
 * an object of at most CNC_MAX_PARTS parts, each a known part type with
 * well-formed fields; a vote from a seat whose representative was
 * removed is refused. 0 or ENGINE_EINVALID naming the part. */
int cnc_council_check(const cnc_state *s, int seat, const json_t *order,
                      engine_error *err);
/* 2.3, at the end of the lobby: each seat's representative part (a
 * clerk without one) into c.seated, revealed, then the spies act. */
void cnc_reps_resolve(cnc_state *s, engine_ctx *ctx,
                      const json_t *const *orders);
/* 1 when seat's representative was removed at this council's 2.3 (a
 * public fact once the lobby resolved): it does not vote. */
int cnc_rep_removed(const cnc_state *s, int seat);
/* The ruleset's talk_closed hook: a seat whose representative was removed
 * takes no part in this agenda's discussion (seed 000, 2.3) until the vote
 * resolves. Public: council.seated says who was removed. */
int cnc_talk_closed(const void *state, int seat, char *why, size_t n);
/* The JSON Schema of the order s's open parts window takes (action, lobby
 * or council; council_parts_schema.c): NEW. */
json_t *cnc_parts_shape(const cnc_state *s);
/* 1 when this round's action window also takes the lobby's parts
 * (edition 2, the council every round): no "rN.lobby" window. */
int cnc_lobby_in_action(const cnc_state *s);
/* 1 when part v of such a window is a lobby part: a gift, the objective
 * pick, a representative, or the play of a council card (an action card
 * timed for the council; any other play is an action step). */
int cnc_is_lobby_part(const json_t *v);
/* order's lobby parts and its action parts, as two new objects. */
void cnc_split_order(const json_t *order, json_t **lobby, json_t **action);
/* Resolve the locked lobby / council window (orders[seat] may be NULL). */
void cnc_lobby_resolve(cnc_state *s, engine_ctx *ctx,
                       const json_t *const *orders);
void cnc_council_resolve(cnc_state *s, engine_ctx *ctx,
                         const json_t *const *orders);
/* The pieces, for tests. Seats clockwise from the speaker into out. */
int cnc_council_order(const cnc_state *s, int out[ENGINE_MAX_SEATS]);
/* Influence cost of buying n command markers at once: 1+2+..+n. */
int cnc_marker_cost(int n);
/* Victory points of a public objective the council opens in round r. */
int cnc_objective_value(int round);
/* VP of public_deck[k] when scored. */
int cnc_public_vp(const cnc_state *s, int k);
/* Why seat cannot capture planet p of sector x now (static text), or NULL
 * when it can. */
const char *cnc_capture_blocked(const cnc_state *s, int seat, int x, int p);
/* Seat's votes before spies and cards: its planets' influence. */
int cnc_planet_influence(const cnc_state *s, int seat);
/* Initiative order using this round's card, else last round's. */
int cnc_council_initiative(const cnc_state *s, int order[ENGINE_MAX_SEATS]);
/* The open round's new round (council_round.c). */
void cnc_new_round(cnc_state *s, engine_ctx *ctx);
/* 2.2 with the council every round, at status step 2: the next public
 * objective opens, the Chancery holder's pick of the next two (its lobby
 * part, else its primary's), with nobody holding Chancery one of them at
 * random; worth cnc_objective_value(round). 0 when none is left. */
int cnc_council_open_objective(cnc_state *s, engine_ctx *ctx);
/* Draw the next agenda (-1: none left). */
int cnc_agenda_draw(cnc_state *s, engine_ctx *ctx);

/* ---- council_council_view.c */
/* The council's public view / one agenda card (new references). */
json_t *cnc_council_json(const cnc_state *s);
json_t *cnc_agenda_json(int a);

/* ---- council_view.c */
json_t *cnc_view_json(const cnc_state *s, int seat);
json_t *cnc_legal_json(const cnc_state *s, int seat, const char *window);

/* ---- council_bot.c */
json_t *cnc_bot_json(const cnc_state *s, int seat, const char *level,
                     engine_rng *rng);

/* ---- council_council_bot.c: the council's windows (basic or random) */
json_t *cnc_bot_agenda(const cnc_state *s, int seat, int basic,
                       engine_rng *rng);
json_t *cnc_bot_lobby(const cnc_state *s, int seat, int basic, engine_rng *rng);
json_t *cnc_bot_council(const cnc_state *s, int seat, int basic,
                        engine_rng *rng);

/* Log helpers: a public entry / one seen by seats (bitmask). */
void cnc_log(engine_ctx *ctx, json_t *entry);
void cnc_log_seats(engine_ctx *ctx, uint32_t seats, json_t *entry);

#endif

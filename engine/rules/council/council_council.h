/*
 * council_council.h - the order parts of the council's lobby and council
 * windows, shared by council_council.c (parsing, the lobby) and
 * council_vote.c (representatives, the vote, markers, captures).
 */
#ifndef CONCLAVE_COUNCIL_COUNCIL_H
#define CONCLAVE_COUNCIL_COUNCIL_H

#include "engine/rules/council/council_internal.h"

/* Part types: play, give and objective in the lobby; give,
 * representative, vote, markers and capture in the council window. */
enum {
    CNC_CP_PLAY = 0,
    CNC_CP_GIVE,
    CNC_CP_OBJECTIVE,
    CNC_CP_REP,
    CNC_CP_VOTE,
    CNC_CP_MARKERS,
    CNC_CP_CAPTURE,
    CNC_CP_COUNT
};

/* One parsed part (-1: field not given). */
typedef struct cnc_cpart {
    int type, card, seat, amount, role, target, vote_for, sector, planet, pick;
} cnc_cpart;

typedef void (*cnc_cpart_fn)(cnc_state *s, engine_ctx *ctx, int seat,
                             const cnc_cpart *o);

/* Parse part v of a council (council 1) or lobby (0) order into *o. 0, or
 * -1 with *why (static text). Uses only public knowledge. */
int cnc_cpart_parse(const cnc_state *s, const json_t *v, int council,
                    cnc_cpart *o, const char **why);
/* fn on each of seat's parts of this type, in key order. */
void cnc_cparts_each(cnc_state *s, engine_ctx *ctx, int seat,
                     const json_t *order, int type, int council,
                     cnc_cpart_fn fn);
/* A gift of trade goods (the bribe). */
void cnc_give(cnc_state *s, engine_ctx *ctx, int seat, const cnc_cpart *o);
/* Log to seat alone that its part was refused and why. */
void cnc_refuse(engine_ctx *ctx, int seat, const char *what, const char *why);

#endif

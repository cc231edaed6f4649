/*
 * starbase_twin.c - Starbase's twin hook (engine_ruleset.twin, for
 * tests/unit/test_twin.c): a state the seat cannot tell from this one.
 *
 * A seat sees its own hand and every card in play; of the others' hands
 * and of every market only the count. So, per player, the designs of the
 * cards it keeps hidden from the seat are shuffled among those cards: for
 * another player its hand and market together, for the seat itself its
 * market (the order it will draw in). Instances keep their ids, zones and
 * order; only which design each holds changes.
 */
#include "engine/rules/starbase/starbase.h"

#include <stdlib.h>

static int hidden(const sb_state *s, int i, int owner, int seat)
{
    const sb_inst *c = &s->in[i];
    return c->owner == owner &&
           (c->zone == SB_Z_MARKET || (owner != seat && c->zone == SB_Z_HAND));
}

void *sb_twin(const void *state, int seat, engine_rng *rng)
{
    sb_state *s = engine_plain_clone(state, sizeof *s);
    if (!s)
        return NULL;
    for (int owner = 0; owner < s->seats; owner++) {
        int cards[SB_MAX_INST];
        size_t n = 0;
        for (int i = 0; i < s->ninst; i++)
            if (hidden(s, i, owner, seat))
                cards[n++] = s->in[i].card;
        engine_rng_shuffle(rng, cards, n, sizeof cards[0]);
        n = 0;
        for (int i = 0; i < s->ninst; i++)
            if (hidden(s, i, owner, seat))
                s->in[i].card = cards[n++];
    }
    return s;
}

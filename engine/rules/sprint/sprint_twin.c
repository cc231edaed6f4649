/*
 * sprint_twin.c - Sprint's twin hook (engine_ruleset.twin, for
 * tests/unit/test_twin.c): a state the seat cannot tell from this one.
 *
 * A seat sees its own hand, every empire and the sizes of the deck, the
 * discard pile and each hand. So the cards in the other seats' hands and
 * in the deck are shuffled together and dealt back into the same places
 * in the same numbers: other hands get other cards, the deck another
 * order. The discard pile stays (the seat knows what it paid itself).
 */
#include "engine/rules/sprint/sprint_internal.h"

#include <stdlib.h>

void *sprint_twin(const void *state, int seat, engine_rng *rng)
{
    sprint_state *s = engine_plain_clone(state, sizeof *s);
    if (!s)
        return NULL;
    uint8_t pool[SPRINT_MAX_CARDS * (SPRINT_MAX_SEATS + 1)];
    size_t n = 0;
    for (int k = 0; k < s->seats; k++)
        for (int i = 0; k != seat && i < s->p[k].nhand; i++)
            pool[n++] = s->p[k].hand[i];
    for (int i = 0; i < s->ndeck; i++)
        pool[n++] = s->deck[i];
    engine_rng_shuffle(rng, pool, n, 1);
    n = 0;
    for (int k = 0; k < s->seats; k++)
        for (int i = 0; k != seat && i < s->p[k].nhand; i++)
            s->p[k].hand[i] = pool[n++];
    for (int i = 0; i < s->ndeck; i++)
        s->deck[i] = pool[n++];
    return s;
}

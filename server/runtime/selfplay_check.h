/*
 * selfplay_check.h - the per-game verifier behind `conclave selfplay
 * --check`: a shadow game loaded from a save follows every input, the two
 * hash alike at drawn checkpoints, and the finished game replays from its
 * export (selfplay_check.c says why it costs a few saves per game).
 */
#ifndef CONCLAVE_SELFPLAY_CHECK_H
#define CONCLAVE_SELFPLAY_CHECK_H

#include "engine/engine.h"

typedef struct selfplay_check selfplay_check;

/* Start checking game g (usually just created): its first save and load.
 * rng (the run's check stream, borrowed) draws the checkpoints. NULL, with
 * the reason on stderr, when the save does not load alike or memory runs
 * out. */
selfplay_check *selfplay_check_start(const engine_game *g, engine_rng *rng,
                                     long index);
/* After g accepted in (its payload still alive): the shadow takes it too.
 * 1, or 0 with the disagreement on stderr. */
int selfplay_check_step(selfplay_check *c, const engine_game *g,
                        const engine_input *in);
/* g is over: a last checkpoint, then the replay of inputs (the
 * engine_input_to_json forms in seq order, borrowed). 1, or 0 (reported). */
int selfplay_check_finish(selfplay_check *c, const engine_game *g,
                          json_t *inputs);
/* Checkpoints passed so far (the first load included). */
unsigned long selfplay_check_reloads(const selfplay_check *c);
void selfplay_check_free(selfplay_check *c);

#endif

/*
 * hub_render.h - one audience's next game document and the patch to it:
 * the step the WebSocket hub takes for every audience of a game at every
 * version (server/hub/hub_game_feed.c), kept apart so benchmarks can drive it
 * without sockets.
 *
 * The document is gamedoc_render's {"view","windows"}. An audience the
 * last input did not touch (engine_touched) is not rendered again: its
 * view differs from the previous version's only in the common fields
 * "inputs" and "over", and "windows" is the same for every audience, so
 * the next document is the previous one with those replaced, and the patch
 * says just that. This holds only from the version right before: a step
 * over several versions renders in full.
 *
 * Threads: call under actors_read (an actor_view is valid only there).
 */
#ifndef CONCLAVE_HUB_RENDER_H
#define CONCLAVE_HUB_RENDER_H

#include "server/game/actor.h"

#include <jansson.h>
#include <stdint.h>

/* The audience bit of seat (or ENGINE_PUBLIC) in an engine_touched mask. */
uint32_t hub_render_bit(int audience);

/* Whether audience, holding its document at version `held`, must be
 * rendered in full for v: it has no document, it skips versions, or the
 * last input touched it. */
int hub_render_full(const actor_view *v, int audience, int has_doc,
                    uint64_t held);

/* The document of audience at v into *doc (NEW) and, when prev (the
 * audience's document at an earlier version, borrowed) is not NULL, the
 * RFC 6902 patch from prev to it into *ops (NEW; NULL when prev is NULL).
 * windows is gamedoc_windows(v) (borrowed; shared into the new document).
 * full: render the view and diff everything; otherwise (see
 * hub_render_full) reuse prev's view with "inputs" and "over" replaced.
 * Returns 0, or -1 when out of memory (nothing is returned then). */
int hub_render_next(const actor_view *v, int audience, json_t *windows,
                    const json_t *prev, int full, json_t **doc, json_t **ops);

#endif

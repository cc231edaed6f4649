/*
 * clock.h - the rules of asynchronous clocks: what a lobby's "clock"
 * object may say beyond mode and seconds, how long each window lasts, and
 * which seats a window waits on (the inbox rows).
 *
 * Rules (stored as games.clock_rules / lobbies.clock_rules, jsonb):
 *   "windows": {"orders": S, "plays": S}  seconds for sealed windows
 *              (orders) and open windows (plays, reactions); absent: the
 *              clock's seconds
 *   "night":   {"start": M, "end": M, "utc_offset": M}  minutes of the
 *              local day (0..1439) and the lobby's offset from UTC
 *              (-720..840); no deadline falls inside, it moves to "end"
 *   "vacation": "extend" | "bot"  what a player's vacation does here
 *   "replace_after": K  a seat that misses K windows in a row is given to
 *              a bot (0 or absent: never)
 *   "min_reputation": {"max_median_seconds": S, "max_missed": N}  who may
 *              join (server/players/reputation.h)
 *
 * Pure functions: no I/O, no globals; any thread.
 */
#ifndef CONCLAVE_CLOCK_H
#define CONCLAVE_CLOCK_H

#include "common/errors.h"
#include "engine/engine.h"
#include "server/store/store.h"

#include <jansson.h>

/* Check the rules of a lobby's "clock" object (clock minus "mode" and
 * "seconds") for a clock of mode; async windows last lo..hi seconds.
 * Rules other than none are for async clocks only. On success *out is a
 * NEW normalised object ({} when none); else SRV_INVALID naming the
 * field ("clock.windows.orders", ...). */
srv_kind clock_rules_check(const json_t *clock, const char *mode, long long lo,
                           long long hi, json_t **out, srv_error *err);

/* Seconds window w of a game with meta's clock lasts (the rules' value for
 * its kind, else meta->clock_seconds). */
int clock_window_seconds(const store_game *meta, const engine_window *w);

/* The seats window w waits on: sealed, the seats without an order (without
 * a ready one in a ready_part window); open, the seats that may act. */
uint32_t clock_window_waits(const engine_window *w);

/* The waits of all windows as the store wants them:
 * [{"w":WINDOW,"s":SEAT},...], sorted as the windows are. NEW, or NULL
 * when memory ran out. */
char *clock_waiting_text(const engine_window *w, int n);

/* An integer rule by name ("replace_after"), 0 when absent. */
int clock_rule_int(const store_game *meta, const char *name);

#endif

/*
 * reputation.h - a player's reputation for asynchronous play, computed
 * from seat_windows (written by the store as each wait on the player
 * ends): the median seconds from a window waiting on them to their answer,
 * how many windows they answered and how many they missed (a timeout
 * closed them). Rendered as {"median_response_seconds": N|null,
 * "answered": N, "missed": N}.
 *
 * Threads: any; the caller's connection only; parameters only.
 */
#ifndef CONCLAVE_REPUTATION_H
#define CONCLAVE_REPUTATION_H

#include "common/errors.h"

#include <jansson.h>
#include <libpq-fe.h>

/* A subquery giving (median, missed, answered) for the player id the SQL
 * expression pid names; median NULL when nothing was answered.
 *
 * Only the windows of games whose spectators may see them count: every
 * window of a game without a spectator delay at once, those of a game with
 * one once the game is over and its end has reached its spectators (its
 * last change at least delay_seconds old; the versions delay ends with the
 * game, server/game/spectate.h). Otherwise the figures, shown to anyone in
 * a lobby, would move as the player answers in a delayed game and tell its
 * spectators when. */
#define REPUTATION_SQL(pid)                                                    \
    "SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY "                \
    "extract(epoch FROM w.closed_at - w.opened_at)) FILTER (WHERE NOT "        \
    "w.missed)::numeric, 1) AS median, count(*) FILTER (WHERE w.missed) AS "   \
    "missed, count(*) FILTER (WHERE NOT w.missed) AS answered FROM "           \
    "seat_windows w JOIN games rg ON rg.game_id = w.game_id WHERE "            \
    "w.player_id = " pid " AND ((rg.delay_versions = 0 AND rg.delay_seconds "  \
    "= 0) OR (rg.status <> 'running' AND rg.updated_at <= now() - "            \
    "make_interval(secs => rg.delay_seconds)))"

/* The reputation object from row of r, columns col (median text, "" for
 * none), col+1 (missed), col+2 (answered). NEW. */
json_t *reputation_json(PGresult *r, int row, int col);

/* The reputation of player_id: NEW object, or NULL on a database failure. */
json_t *reputation_load(PGconn *c, const char *player_id);

/* Whether rep meets the lobby's clock rules' "min_reputation"
 * (max_median_seconds: a median above it, or none while the rule is set
 * and the player has missed windows, refuses; max_missed: more misses
 * refuse). SRV_OK, or SRV_FORBIDDEN with a reason naming the rule. */
srv_kind reputation_meets(const json_t *rep, const json_t *rules,
                          srv_error *err);

#endif

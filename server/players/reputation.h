/*
 * reputation.h - a player's reputation for asynchronous play: the median
 * seconds from a window waiting on them to their answer, how many windows
 * they answered and how many they missed (a timeout closed them). Rendered
 * as {"median_response_seconds": N|null, "answered": N, "missed": N}.
 *
 * Read by key from the player's summary, reputation_counts
 * (sql/017_reputation_summary.sql): how many windows they missed, and a
 * histogram of the answered ones by response time (buckets 1 and up). The
 * store writes it in the group commit's batch statement as it records each
 * wait's end in seat_windows (server/store/store.c), so the summary always
 * equals what seat_windows gives, the median to within its buckets: to the
 * tenth of a second below 1.55 s, within 2.2% above (then rounded to a
 * tenth, as before).
 *
 * Only the windows of games whose spectators may see them count: every
 * window of a game without a spectator delay at once, those of a game with
 * one once the game is over and its end has reached its spectators (its
 * last change at least delay_seconds old; the versions delay ends with the
 * game, server/game/spectate.h). Otherwise the figures, shown to anyone in
 * a lobby, would move as the player answers in a delayed game and tell its
 * spectators when. The batch that ends a game with a versions-only delay
 * folds its windows in; one with a seconds delay waits in
 * reputation_pending until reputation_fold_due.
 *
 * Threads: any; the caller's connection only; parameters only.
 */
#ifndef CONCLAVE_REPUTATION_H
#define CONCLAVE_REPUTATION_H

#include "common/errors.h"

#include <jansson.h>
#include <libpq-fe.h>

/* A subquery giving one column, counts, for the player id the SQL
 * expression pid names: "MISSED FIRST N,N,...", the missed windows, then
 * the answered ones in buckets FIRST, FIRST + 1, ... (no row when the
 * player has none). */
#define REPUTATION_SQL(pid)                                                    \
    "SELECT rc.missed || ' ' || coalesce(array_lower(rc.buckets, 1), 1) || "   \
    "' ' || array_to_string(rc.buckets, ',', '0') AS counts FROM "             \
    "reputation_counts rc WHERE rc.player_id = " pid

/* The response time in seconds that bucket (1 and up) stands for: the
 * middle of its range (sql/017_reputation_summary.sql, reputation_bucket). */
double reputation_bucket_seconds(long bucket);

/* The reputation object from counts text (as REPUTATION_SQL gives it; NULL
 * or "" for none): the median is that of the buckets' middles, rounded to
 * a tenth. NEW. */
json_t *reputation_from_counts(const char *counts);

/* The reputation object from column col of row of r (REPUTATION_SQL's
 * counts, "" for none). NEW. */
json_t *reputation_json(PGresult *r, int row, int col);

/* The reputation of player_id: NEW object, or NULL on a database failure. */
json_t *reputation_load(PGconn *c, const char *player_id);

/* Fold into the summaries the windows of the games with a seconds delay
 * whose end has reached their spectators (reputation_pending rows due),
 * once each whichever process runs it (the scheduler, about once a
 * second). How many games were folded, or -1 on a database failure. */
int reputation_fold_due(PGconn *c);

/* Whether rep meets the lobby's clock rules' "min_reputation"
 * (max_median_seconds: a median above it, or none while the rule is set
 * and the player has missed windows, refuses; max_missed: more misses
 * refuse). SRV_OK, or SRV_FORBIDDEN with a reason naming the rule. */
srv_kind reputation_meets(const json_t *rep, const json_t *rules,
                          srv_error *err);

#endif

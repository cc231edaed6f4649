/*
 * lobby_change.h - changing lobbies: create, take a seat, leave, seat a
 * bot, start the game; and reading them for one caller. Owns the writes to
 * the lobbies and lobby_seats tables (server/lobby/lobby.c loads and renders).
 *
 * Every change runs in one transaction that locks the lobby row (FOR
 * UPDATE), checks, writes and bumps lobbies.version; after its COMMIT, in
 * the same round trip, pg_notify(LOBBY_CHANNEL, id) announces the lobby id
 * so the WebSocket hub of every process hears about it. Starting a lobby
 * creates its game (seed, seed hash, seats) inside that same transaction,
 * so a lobby never points at a missing game, never starts twice, and a
 * race leaves nothing to undo. The lobby a change answers with is read in
 * the round trip of its COMMIT.
 *
 * Privacy: a private lobby is SRV_NOT_FOUND to a caller who is not seated
 * in it and has not given its invite code, exactly as a lobby that does not
 * exist; the code is shown to members only.
 *
 * Threads: any; each function acquires its own connection from the app's
 * pool. Every function returns SRV_OK, or a failure kind with err filled
 * (detail for the player, field when an input is at fault); *out is a NEW
 * lobby as the caller sees it after the change (lobby.h's shape).
 */
#ifndef CONCLAVE_LOBBY_CHANGE_H
#define CONCLAVE_LOBBY_CHANGE_H

#include "common/errors.h"
#include "server/runtime/app.h"
#include "server/store/store.h"

#include <jansson.h>
#include <limits.h>

/* A seat number meaning "the first free seat". */
#define LOBBY_SEAT_ANY LLONG_MIN

/* What a new lobby is made of (borrowed strings). */
typedef struct lobby_spec {
    const char *ruleset;
    long long seats;
    const json_t *options; /* NULL: {} */
    int is_private;
    const char *clock_mode; /* "none", "live" or "async"; NULL: "none" */
    long long clock_seconds;
    const json_t *clock;      /* the whole "clock" object for the async rules of
                                 server/game/clock.h, or NULL */
    long long delay_versions; /* spectator delay: 0..1000 versions */
    long long delay_seconds;  /* and 0..86400 seconds; 0, 0: live */
    const char *rematch_of;   /* the finished game this lobby is the rematch
                                 of (server/lobby/rematch.h), or NULL */
} lobby_spec;

/* Create a lobby hosted by host_id, who takes seat 0, within the host's
 * quota of open lobbies (cfg->lobbies_per_player; SRV_TOO_MANY beyond).
 * The ruleset, the seat count, the clock (live 5..3600 s, async 60..1209600 s
 * per window, the shortest cfg->async_min_seconds; none with 0), the async
 * rules (server/game/clock.h) and the options (judged by the engine) are
 * checked first: SRV_INVALID naming "ruleset", "seats", "clock.mode",
 * "clock.seconds", "spectator_delay.versions", "spectator_delay.seconds" or
 * "options.<field>". Fills id[STORE_ID_MAX]. With spec->rematch_of set,
 * SRV_CONFLICT when that game already has its rematch lobby (nothing is
 * written). */
srv_kind lobby_create(app *a, const char *host_id, const lobby_spec *spec,
                      char *id, json_t **out, srv_error *err);

/* One lobby for viewer (NULL: anonymous), or with its invite code.
 * SRV_NOT_FOUND; SRV_UNAVAILABLE. */
srv_kind lobby_get(app *a, const char *lobby_id, const char *viewer,
                   const char *code, json_t **out, srv_error *err);

/* Lobbies by status ("open", "started", "closed"; else SRV_INVALID on
 * "status") and ruleset (NULL: any), as lobby_list. SRV_UNAVAILABLE. */
srv_kind lobby_find(app *a, const char *status, const char *ruleset,
                    const char *viewer, json_t **out, srv_error *err);

/* player_id takes seat (LOBBY_SEAT_ANY: the first free one) of an open
 * lobby; code opens a private one. SRV_NOT_FOUND; SRV_CONFLICT (not open,
 * already seated, seat taken, full); SRV_INVALID ("seat" out of range);
 * SRV_FORBIDDEN when the player's reputation is below the lobby's
 * min_reputation (server/players/reputation.h). */
srv_kind lobby_join(app *a, const char *lobby_id, const char *player_id,
                    const char *code, long long seat, json_t **out,
                    srv_error *err);

/* player_id leaves their seat; when the host leaves the lobby closes.
 * SRV_NOT_FOUND; SRV_CONFLICT (no seat, not open). */
srv_kind lobby_leave(app *a, const char *lobby_id, const char *player_id,
                     json_t **out, srv_error *err);

/* The host seats a bot of level (NULL: the ruleset's default; else one of
 * its bot levels, SRV_INVALID on "level") in seat. SRV_FORBIDDEN when
 * player_id is not the host; as lobby_join otherwise. */
srv_kind lobby_add_bot(app *a, const char *lobby_id, const char *player_id,
                       const char *level, long long seat, json_t **out,
                       srv_error *err);

/* The host empties seat of an open lobby before the start: the player or
 * bot in it leaves, and, when bot is not NULL, a bot of that level (as
 * lobby_add_bot's; "" is refused) takes the seat in the same change.
 * SRV_NOT_FOUND; SRV_FORBIDDEN (not the host); SRV_INVALID ("seat" out of
 * range, "level"); SRV_CONFLICT (not open, the host's own seat, already
 * empty). */
srv_kind lobby_clear_seat(app *a, const char *lobby_id, const char *player_id,
                          long long seat, const char *bot, json_t **out,
                          srv_error *err);

/* The host starts the game of a full open lobby, within the host's quota
 * of running games it holds a seat in, of the lobby's kind
 * (cfg->live_games_per_player for a live clock, else
 * cfg->async_games_per_player; SRV_TOO_MANY beyond): the game is created and
 * the lobby marked started in one transaction, then the game is loaded so
 * its bots move, and this process's feed is told its players' inboxes
 * changed (a->feed.turns_changed). Fills game_id[STORE_ID_MAX]. SRV_NOT_FOUND;
 * SRV_FORBIDDEN (not the host); SRV_CONFLICT (not open, an empty seat, or
 * the engine refuses the game); SRV_UNAVAILABLE; SRV_INTERNAL. seed: the
 * game's seed (ENGINE_SEED_BYTES, borrowed), or NULL for a random one; only
 * tests pass one (the HTTP edge takes it only with cfg->test_hooks). */
srv_kind lobby_start(app *a, const char *lobby_id, const char *player_id,
                     const uint8_t *seed, char *game_id, srv_error *err);

#endif

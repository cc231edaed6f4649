/*
 * lobby.h - lobbies as clients see them: loading rows from PostgreSQL and
 * rendering the lobby JSON of API.md, shared by the REST API (api/
 * h_lobbies.c) and the WebSocket hub's lobby feed.
 *
 * A lobby renders as {"id","ruleset","options","host":{"id","name"},
 * "private","clock":{"mode","seconds", plus the async rules of
 * server/game/clock.h when set},"spectator_delay":{"versions",
 * "seconds"},"status":"open"|"started"|"closed",
 * "seats":[{"seat","player":{"id","name","reputation"}|null,"bot":null|LEVEL,
 * "ready"}] (reputation as server/players/reputation.h renders it),
 * "game":null|ID} plus "invite_code" for members only (players seated in
 * it). "ready" is true when the seat is taken (by a player or a bot).
 *
 * Privacy: a private lobby is visible only to its members, or to a caller
 * presenting its invite code; to anyone else it does not exist
 * (SRV_NOT_FOUND), and it never appears in the public list. The rematch
 * lobby of a game whose end its spectators may not see yet (a spectator
 * delay in seconds, server/game/spectate.h) is held back the same way from
 * everyone but its members and the game's players until the game's last
 * version reaches spectators (then lobby_released names it).
 *
 * What it does not do: change lobbies (server/lobby/lobby_change.c does, each
 * change in one transaction followed by pg_notify('conclave_lobbies',
 * id)).
 *
 * Threads: any; each call uses the caller's connection only. Statements
 * use parameters only; no transaction is opened or closed here.
 */
#ifndef CONCLAVE_LOBBY_H
#define CONCLAVE_LOBBY_H

#include "common/errors.h"
#include "engine/engine.h"
#include "server/store/db.h"
#include "server/store/store.h"

#include <jansson.h>
#include <libpq-fe.h>

/* The NOTIFY channel every lobby change is announced on (payload: the
 * lobby id, nothing else). */
#define LOBBY_CHANNEL "conclave_lobbies"

/* How many lobbies a list returns at most (newest first). */
#define LOBBY_LIST_MAX 100

/* A lobby row with its seats, as read for a change. */
typedef struct lobby_row {
    char id[STORE_ID_MAX];
    char ruleset[64];
    json_t *options; /* owned; lobby_row_clear frees it */
    char host[STORE_ID_MAX];
    int is_private;
    char code[STORE_ID_MAX];
    char clock_mode[8];
    int clock_seconds;
    json_t *clock_rules; /* owned: async rules (server/game/clock.h), or NULL */
    int delay_versions, delay_seconds; /* spectator delay */
    int seats;
    char status[12];
    char seat_player[ENGINE_MAX_SEATS][STORE_ID_MAX]; /* "" when none */
    char seat_bot[ENGINE_MAX_SEATS][16];              /* "" when none */
} lobby_row;

/* Read lobby id into out, locking its row when for_update (inside the
 * caller's transaction). Returns 0, 1 when there is no such lobby, -1 on a
 * database failure. Clear out with lobby_row_clear in every case. */
int lobby_read(PGconn *c, const char *id, int for_update, lobby_row *out);
/* BEGIN, then lobby_read(c, id, 1, out), in one round trip. The same
 * returns; the transaction is open in every case (db_release rolls it
 * back). */
int lobby_begin_read(PGconn *c, const char *id, lobby_row *out);
/* lobby_begin_read, then the nextra (at most 2) statements of extra in the
 * same round trip, after the lobby's row is locked; on success (0 or 1)
 * extra_out receives their results (caller PQclears each). */
int lobby_begin_read_then(PGconn *c, const char *id, const db_stmt *extra,
                          int nextra, PGresult **extra_out, lobby_row *out);
void lobby_row_clear(lobby_row *l);

/* The two statements that load one lobby (id_param: its id, one
 * parameter the caller keeps alive until they ran), for a caller that
 * sends them in a pipeline of its own, say after a change's COMMIT:
 * their results go to lobby_from_results. Fills st[0] and st[1]. */
void lobby_load_stmts(const char *const *id_param, db_stmt st[2]);

/* Render the results of lobby_load_stmts as lobby_load_ex does (same
 * arguments and answers); PQclears l and s. */
srv_kind lobby_from_results(PGresult *l, PGresult *s,
                            const char *viewer_player_id, const char *code,
                            int force_visible, json_t **out);

/* Load and render one lobby for viewer_player_id (NULL: an anonymous or
 * public audience) into *out (NEW). SRV_OK; or NULL and SRV_NOT_FOUND (no
 * such lobby, or private and the viewer is not a member) or
 * SRV_UNAVAILABLE (database failure). */
srv_kind lobby_load(PGconn *c, const char *lobby_id,
                    const char *viewer_player_id, json_t **out);

/* Like lobby_load, but a private lobby is also shown to a non-member when
 * code equals its invite code (compared in constant time; NULL: no code).
 * The invite code is still rendered for members only. force_visible=1
 * skips the privacy check (for a player who just left). The lobby and its
 * seats are read in one pipeline (one round trip). */
srv_kind lobby_load_ex(PGconn *c, const char *lobby_id,
                       const char *viewer_player_id, const char *code,
                       int force_visible, json_t **out);

/* Lobbies with the given status ("open", "started" or "closed") and, when
 * ruleset is not NULL, that ruleset, newest first, at most LOBBY_LIST_MAX:
 * the public ones plus the private ones viewer_player_id (may be NULL) is a
 * member of. *out: a NEW array and SRV_OK, or NULL and SRV_UNAVAILABLE. */
srv_kind lobby_list(PGconn *c, const char *status_filter, const char *ruleset,
                    const char *viewer_player_id, json_t **out);

/* The rematch lobbies held back (see Privacy above) whose hold ended
 * after since (a timestamp this returned before; "" for none: the answer
 * is then empty) and by now: a NEW array of their ids, since set to now;
 * or NULL on a database failure (since kept). For the hub's lobby feed,
 * once a second. */
json_t *lobby_released(PGconn *c, char *since, size_t n);

/* The public open lobbies (any ruleset when ruleset is NULL), as the hub's
 * lobby feed shows them: lobby_list(c, "open", ruleset, NULL, out). */
srv_kind lobby_list_open(PGconn *c, const char *ruleset, json_t **out);

/* The open lobbies player_id sits in (public or private, invite code
 * shown), newest first, at most LOBBY_LIST_MAX. NEW array, or NULL on a
 * database failure. */
json_t *lobby_list_member(PGconn *c, const char *player_id);

#endif

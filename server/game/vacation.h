/*
 * vacation.h - the vacation bank: days a year per player
 * (cfg->vacation_days), spent across all their games at once. Starting a
 * vacation of N days spends N days of this year's bank and, in every
 * running game whose clock rules say "vacation": "extend" (the default),
 * moves the deadlines of the windows waiting on the player N days later;
 * while it lasts, a deadline of such a window that comes due waits for the
 * vacation's end (server/game/scheduler.c). In games that say "bot", a bot
 * (the ruleset's first level) plays the windows waiting on the player
 * while the vacation lasts (vacation_stand_in, from the scheduler); the
 * seat stays the player's, and is theirs to play again once the vacation
 * ends or is stopped. The game's events record both ("vacation_bot",
 * "vacation_return"). Windows that close while a player is away count
 * neither as answered nor as missed. Stopping early gives back the whole
 * days not used; deadlines already moved stay.
 *
 * Threads: any; each call takes a connection from the app's pool.
 */
#ifndef CONCLAVE_VACATION_H
#define CONCLAVE_VACATION_H

#include "common/errors.h"
#include "server/game/actor.h"
#include "server/runtime/app.h"

#include <jansson.h>

/* {"days_per_year","used","left","active":{"started_at","ends_at","days"}
 * |null} for this year. NEW in *out. SRV_UNAVAILABLE. */
srv_kind vacation_get(app *a, const char *player_id, json_t **out,
                      srv_error *err);

/* Start a vacation of days (1..left): SRV_INVALID ("days") beyond the
 * bank, SRV_CONFLICT while one is on. The games whose deadlines moved go
 * into *games (NEW array of ids) so their readers can be refreshed; *out as
 * vacation_get. */
srv_kind vacation_start(app *a, const char *player_id, long long days,
                        json_t **out, json_t **games, srv_error *err);

/* End the vacation now, giving back its unused whole days. SRV_CONFLICT
 * when none is on. *out as vacation_get. */
srv_kind vacation_stop(app *a, const char *player_id, json_t **out,
                       srv_error *err);

/* One pass of the bot stand-in, on c (no transaction open): for every
 * window waiting on a player on vacation in a running game whose rules say
 * "bot", record a "vacation_bot" event once per vacation and seat, and
 * queue the bot's move (actors_stand_in); for every such event whose
 * vacation is over, record "vacation_return". Returns the moves queued,
 * or -1 when the database failed (logged). */
int vacation_stand_in(PGconn *c, actors *A);

#endif

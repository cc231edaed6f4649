/*
 * game_input.h - what the handlers that send a game inputs share
 * (implemented in api/h_games.c): the caller's seat, the window in the
 * path, the order size limit and the problem for an actor's refusal.
 * Every function that fails fills res with the problem and returns -1.
 */
#ifndef CONCLAVE_GAME_INPUT_H
#define CONCLAVE_GAME_INPUT_H

#include "api/api.h"
#include "server/game/actor.h"

#include <stddef.h>
#include <stdint.h>

/* The caller's seat in game params[0]: 0 and *seat (the game's version
 * into *version and engine_max_order_bytes of its ruleset into *max_order,
 * each when not NULL), or -1 (404, 503, or 403 when the caller has no
 * seat). */
int api_caller_seat(api_request *req, api_response *res, int *seat,
                    uint64_t *version, size_t *max_order);
/* Copy params[1], the window id, into out (ENGINE_WINDOW_ID_MAX bytes):
 * 0, or -1 with a 409 when it is too long to be any window's. */
int api_window_param(api_request *req, api_response *res, char *out);
/* 0 when the request body is at most max_order bytes, else -1 with a 413
 * naming the limit. */
int api_order_fits(const api_request *req, api_response *res, size_t max_order);
/* Fill res with the problem for an actor's refusal (its kind's status). */
void api_reply_problem(api_response *res, const actor_reply *rp);

#endif

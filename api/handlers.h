/*
 * handlers.h - the v1 API handlers and their rows of the route table.
 *
 * API_V1_ROUTES expands to the route table rows of the REST API v1 (see
 * api/openapi.yaml, which documents every row; a test checks that the two
 * agree); routes.c splices it into api_routes. Auth levels: NONE for
 * sign-up, sign-in and the ruleset list; OPTIONAL where anonymous callers
 * and spectators see the public side; REQUIRED wherever a player acts or
 * sees their own things.
 */
#ifndef CONCLAVE_HANDLERS_H
#define CONCLAVE_HANDLERS_H

#include "api/api.h"

/* api/h_players.c */
void api_h_players_create(api_request *req, api_response *res);
void api_h_sessions_create(api_request *req, api_response *res);
void api_h_sessions_delete(api_request *req, api_response *res);
void api_h_me(api_request *req, api_response *res);
void api_h_me_record_choice(api_request *req, api_response *res);
void api_h_signin_links_create(api_request *req, api_response *res);
void api_h_signin_links_redeem(api_request *req, api_response *res);
void api_h_me_password(api_request *req, api_response *res);

/* api/h_notify.c */
void api_h_me_notifications(api_request *req, api_response *res);
void api_h_me_notifications_put(api_request *req, api_response *res);
void api_h_me_webhooks_create(api_request *req, api_response *res);
void api_h_me_webhooks_delete(api_request *req, api_response *res);
void api_h_game_group_webhook_put(api_request *req, api_response *res);
void api_h_game_group_webhook_get(api_request *req, api_response *res);
void api_h_game_group_webhook_delete(api_request *req, api_response *res);
void api_h_notifications_verify(api_request *req, api_response *res);
void api_h_notifications_verify_link(api_request *req, api_response *res);
void api_h_unsubscribe_page(api_request *req, api_response *res);
void api_h_unsubscribe(api_request *req, api_response *res);

/* api/h_rulesets.c */
void api_h_rulesets(api_request *req, api_response *res);

/* api/h_lobbies.c */
void api_h_lobbies_create(api_request *req, api_response *res);
void api_h_lobbies_list(api_request *req, api_response *res);
void api_h_lobby_get(api_request *req, api_response *res);
void api_h_lobby_join(api_request *req, api_response *res);
void api_h_lobby_leave(api_request *req, api_response *res);
void api_h_lobby_bot(api_request *req, api_response *res);
void api_h_lobby_seat_clear(api_request *req, api_response *res);
void api_h_lobby_start(api_request *req, api_response *res);

/* api/h_games.c */
void api_h_game_get(api_request *req, api_response *res);
void api_h_game_view(api_request *req, api_response *res);
void api_h_game_replay(api_request *req, api_response *res);
void api_h_game_legal(api_request *req, api_response *res);
void api_h_game_order_put(api_request *req, api_response *res);
void api_h_game_order_delete(api_request *req, api_response *res);
void api_h_game_play(api_request *req, api_response *res);
void api_h_game_log(api_request *req, api_response *res);
void api_h_game_export(api_request *req, api_response *res);

/* api/h_parts.c */
void api_h_game_part_put(api_request *req, api_response *res);
void api_h_game_part_delete(api_request *req, api_response *res);

/* api/h_priority.c */
void api_h_game_response_rule(api_request *req, api_response *res);
void api_h_game_undo(api_request *req, api_response *res);
void api_h_game_undo_consent(api_request *req, api_response *res);
void api_h_game_undo_refuse(api_request *req, api_response *res);

/* api/h_chat.c */
void api_h_chat_channels(api_request *req, api_response *res);
void api_h_chat_open(api_request *req, api_response *res);
void api_h_chat_messages(api_request *req, api_response *res);
void api_h_chat_post(api_request *req, api_response *res);
void api_h_chat_read(api_request *req, api_response *res);
/* api/h_rematch.c */
void api_h_game_rematch_post(api_request *req, api_response *res);
void api_h_game_rematch_get(api_request *req, api_response *res);

/* api/h_async.c */
void api_h_me_turns(api_request *req, api_response *res);
void api_h_me_vacation_get(api_request *req, api_response *res);
void api_h_me_vacation_start(api_request *req, api_response *res);
void api_h_me_vacation_stop(api_request *req, api_response *res);
void api_h_game_window_extend(api_request *req, api_response *res);

/* clang-format off */
#define API_V1_ROUTES                                                              \
    {"POST",   "/api/v1/players",                 api_h_players_create,    API_AUTH_NONE},     \
    {"POST",   "/api/v1/sessions",                api_h_sessions_create,   API_AUTH_NONE},     \
    {"DELETE", "/api/v1/sessions/current",        api_h_sessions_delete,   API_AUTH_REQUIRED}, \
    {"POST",   "/api/v1/sign-in-links",           api_h_signin_links_create, API_AUTH_NONE},   \
    {"POST",   "/api/v1/sign-in-links/redeem",    api_h_signin_links_redeem, API_AUTH_NONE},   \
    {"GET",    "/api/v1/me",                      api_h_me,                API_AUTH_REQUIRED}, \
    {"PUT",    "/api/v1/me/password",             api_h_me_password,       API_AUTH_REQUIRED}, \
    {"POST",   "/api/v1/me/records/{key}/choice", api_h_me_record_choice,  API_AUTH_REQUIRED}, \
    {"GET",    "/api/v1/me/notifications",        api_h_me_notifications,  API_AUTH_REQUIRED}, \
    {"PUT",    "/api/v1/me/notifications",        api_h_me_notifications_put, API_AUTH_REQUIRED}, \
    {"POST",   "/api/v1/me/notifications/webhooks", api_h_me_webhooks_create, API_AUTH_REQUIRED}, \
    {"DELETE", "/api/v1/me/notifications/webhooks/{id}", api_h_me_webhooks_delete, API_AUTH_REQUIRED}, \
    {"GET",    "/api/v1/notifications/verify",    api_h_notifications_verify_link, API_AUTH_NONE}, \
    {"POST",   "/api/v1/notifications/verify",    api_h_notifications_verify, API_AUTH_NONE}, \
    {"GET",    "/unsubscribe",                    api_h_unsubscribe_page,  API_AUTH_NONE},     \
    {"POST",   "/unsubscribe",                    api_h_unsubscribe,       API_AUTH_NONE},     \
    {"GET",    "/api/v1/me/turns",                api_h_me_turns,          API_AUTH_REQUIRED}, \
    {"GET",    "/api/v1/me/vacation",             api_h_me_vacation_get,   API_AUTH_REQUIRED}, \
    {"POST",   "/api/v1/me/vacation",             api_h_me_vacation_start, API_AUTH_REQUIRED}, \
    {"DELETE", "/api/v1/me/vacation",             api_h_me_vacation_stop,  API_AUTH_REQUIRED}, \
    {"GET",    "/api/v1/rulesets",                api_h_rulesets,          API_AUTH_NONE},     \
    {"POST",   "/api/v1/lobbies",                 api_h_lobbies_create,    API_AUTH_REQUIRED}, \
    {"GET",    "/api/v1/lobbies",                 api_h_lobbies_list,      API_AUTH_OPTIONAL}, \
    {"GET",    "/api/v1/lobbies/{id}",            api_h_lobby_get,         API_AUTH_OPTIONAL}, \
    {"POST",   "/api/v1/lobbies/{id}/seats",      api_h_lobby_join,        API_AUTH_REQUIRED}, \
    {"DELETE", "/api/v1/lobbies/{id}/seats/me",   api_h_lobby_leave,       API_AUTH_REQUIRED}, \
    {"DELETE", "/api/v1/lobbies/{id}/seats/{seat}", api_h_lobby_seat_clear, API_AUTH_REQUIRED}, \
    {"POST",   "/api/v1/lobbies/{id}/bots",       api_h_lobby_bot,         API_AUTH_REQUIRED}, \
    {"POST",   "/api/v1/lobbies/{id}/start",      api_h_lobby_start,       API_AUTH_REQUIRED}, \
    {"GET",    "/api/v1/games/{id}",              api_h_game_get,          API_AUTH_OPTIONAL}, \
    {"GET",    "/api/v1/games/{id}/view",         api_h_game_view,         API_AUTH_OPTIONAL}, \
    {"GET",    "/api/v1/games/{id}/replay",       api_h_game_replay,       API_AUTH_OPTIONAL}, \
    {"GET",    "/api/v1/games/{id}/legal",        api_h_game_legal,        API_AUTH_REQUIRED}, \
    {"PUT",    "/api/v1/games/{id}/orders/{window}", api_h_game_order_put, API_AUTH_REQUIRED}, \
    {"DELETE", "/api/v1/games/{id}/orders/{window}", api_h_game_order_delete, API_AUTH_REQUIRED}, \
    {"PUT",    "/api/v1/games/{id}/orders/{window}/parts/{key}", api_h_game_part_put, API_AUTH_REQUIRED}, \
    {"DELETE", "/api/v1/games/{id}/orders/{window}/parts/{key}", api_h_game_part_delete, API_AUTH_REQUIRED}, \
    {"PUT",    "/api/v1/games/{id}/response-rule", api_h_game_response_rule, API_AUTH_REQUIRED}, \
    {"POST",   "/api/v1/games/{id}/undo",         api_h_game_undo,         API_AUTH_REQUIRED}, \
    {"POST",   "/api/v1/games/{id}/undo/consent", api_h_game_undo_consent, API_AUTH_REQUIRED}, \
    {"POST",   "/api/v1/games/{id}/undo/refuse",  api_h_game_undo_refuse,  API_AUTH_REQUIRED}, \
    {"POST",   "/api/v1/games/{id}/windows/{window}/extend", api_h_game_window_extend, API_AUTH_REQUIRED}, \
    {"POST",   "/api/v1/games/{id}/plays",        api_h_game_play,         API_AUTH_REQUIRED}, \
    {"GET",    "/api/v1/games/{id}/log",          api_h_game_log,          API_AUTH_OPTIONAL}, \
    {"POST",   "/api/v1/games/{id}/rematch",      api_h_game_rematch_post, API_AUTH_REQUIRED}, \
    {"GET",    "/api/v1/games/{id}/rematch",      api_h_game_rematch_get,  API_AUTH_REQUIRED}, \
    {"GET",    "/api/v1/games/{id}/export",       api_h_game_export,       API_AUTH_OPTIONAL}, \
    {"GET",    "/api/v1/games/{id}/group-webhook", api_h_game_group_webhook_get, API_AUTH_REQUIRED}, \
    {"PUT",    "/api/v1/games/{id}/group-webhook", api_h_game_group_webhook_put, API_AUTH_REQUIRED}, \
    {"DELETE", "/api/v1/games/{id}/group-webhook", api_h_game_group_webhook_delete, API_AUTH_REQUIRED}, \
    {"GET",    "/api/v1/games/{id}/channels",     api_h_chat_channels,     API_AUTH_OPTIONAL}, \
    {"POST",   "/api/v1/games/{id}/channels",     api_h_chat_open,         API_AUTH_REQUIRED}, \
    {"GET",    "/api/v1/games/{id}/channels/{channel}/messages", api_h_chat_messages, API_AUTH_OPTIONAL}, \
    {"POST",   "/api/v1/games/{id}/channels/{channel}/messages", api_h_chat_post, API_AUTH_REQUIRED}, \
    {"PUT",    "/api/v1/games/{id}/channels/{channel}/read", api_h_chat_read, API_AUTH_REQUIRED},
/* clang-format on */

#endif

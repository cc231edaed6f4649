/*
 * gamedoc.c - the game document a client sees (see gamedoc.h).
 */
#include "server/game/gamedoc.h"

#include <stdlib.h>
#include <string.h>

static json_t *seat_list(uint32_t mask, int seats)
{
    json_t *a = json_array();
    for (int s = 0; a && s < seats; s++)
        if (mask >> s & 1)
            json_array_append_new(a, json_integer(s));
    return a;
}

json_t *gamedoc_windows(const actor_view *v)
{
    int seats = engine_game_seats(v->game), n = 0;
    engine_window *w = engine_windows_all(v->game, &n);
    if (!w && engine_windows(v->game, NULL, 0) > 0)
        return NULL; /* out of memory, not "none open" */
    json_t *list = json_array();
    for (int i = 0; list && w && i < n; i++) {
        const json_t *due =
            v->deadlines ? json_object_get(v->deadlines, w[i].id) : NULL;
        json_t *o = json_pack(
            "{ss ss so so so}", "id", w[i].id, "mode",
            w[i].mode == ENGINE_SEALED ? "sealed" : "open", "seats",
            seat_list(w[i].seats, seats), "submitted",
            seat_list(w[i].mode == ENGINE_SEALED ? w[i].submitted : 0, seats),
            "deadline",
            json_is_string(due) ? json_deep_copy(due) : json_null());
        if (o && w[i].ready_part)
            json_object_set_new(o, "ready", seat_list(w[i].ready, seats));
        if (!o || json_array_append_new(list, o) != 0) {
            json_decref(list);
            list = NULL;
        }
    }
    free(w);
    return list;
}

json_t *gamedoc_render(const actor_view *v, int audience)
{
    json_t *view = engine_view(v->game, audience);
    json_t *windows = gamedoc_windows(v);
    if (!view || !windows) {
        json_decref(view);
        json_decref(windows);
        return NULL;
    }
    return json_pack("{so so}", "view", view, "windows", windows);
}

json_t *gamedoc_seats(const store_game *m)
{
    json_t *a = json_array();
    for (int s = 0; a && s < m->seats; s++) {
        json_t *player = m->seat_player[s][0]
                             ? json_pack("{ss ss}", "id", m->seat_player[s],
                                         "name", m->seat_name[s])
                             : json_null();
        json_t *bot =
            m->seat_bot[s][0] ? json_string(m->seat_bot[s]) : json_null();
        json_array_append_new(a, json_pack("{si so so}", "seat", s, "player",
                                           player, "bot", bot));
    }
    return a;
}

int gamedoc_seat_of(const store_game *m, const char *player_id)
{
    for (int s = 0; player_id && s < m->seats; s++)
        if (m->seat_player[s][0] && strcmp(m->seat_player[s], player_id) == 0)
            return s;
    return -1;
}

json_t *gamedoc_resource(const actor_view *v, int seat)
{
    const store_game *m = v->meta;
    json_t *o = gamedoc_render(v, seat >= 0 ? seat : ENGINE_PUBLIC);
    json_t *result = engine_result(v->game);
    json_t *facts = json_pack(
        "{ss ss ss sI so so so ss}", "id", m->game_id, "ruleset", m->ruleset,
        "status", m->status, "version", (json_int_t)v->version, "you",
        seat >= 0 ? json_integer(seat) : json_null(), "seats", gamedoc_seats(m),
        "result", result ? result : json_null(), "seed_sha256", m->seed_sha256);
    if (!o || !facts || json_object_update(o, facts) != 0) {
        json_decref(o);
        json_decref(facts);
        return NULL;
    }
    json_decref(facts);
    if (strcmp(m->status, "running") != 0) {
        char hex[2 * ENGINE_SEED_BYTES + 1];
        engine_hex(m->seed, ENGINE_SEED_BYTES, hex);
        json_object_set_new(o, "seed", json_string(hex));
    }
    return o;
}

/*
 * hub_presence.c - whether a seat's player has its game open right now (a
 * live WebSocket subscribed as that seat), so the notifier sends nothing
 * to a player who is looking at the page.
 */
#include "server/hub/hub.h"
#include "server/hub/hub_internal.h"

#include <pthread.h>

int hub_seat_active(void *ctx, const char *game_id, int seat)
{
    hub *h = ctx;
    if (!h)
        return 0;
    int active = 0;
    pthread_mutex_lock(&h->lock);
    hub_game *g = hub_game_find_locked(h, game_id);
    for (hub_aud *a = g ? g->auds : NULL; a && !active; a = a->next) {
        if (a->seat != seat)
            continue;
        for (hub_sub *s = a->subs; s && !active; s = s->aud_next)
            active = s->conn && s->conn->wsi != NULL;
    }
    pthread_mutex_unlock(&h->lock);
    return active;
}

char *hub_active_seats_json(void *ctx)
{
    hub *h = ctx;
    if (!h)
        return NULL;
    json_t *out = json_array();
    if (!out)
        return NULL;
    pthread_mutex_lock(&h->lock);
    for (size_t b = 0; b < HUB_GAME_BUCKETS; b++)
        for (hub_game *g = h->games[b]; g; g = g->next)
            for (hub_aud *a = g->auds; a; a = a->next) {
                if (a->seat < 0)
                    continue;
                int live = 0;
                for (hub_sub *s = a->subs; s && !live; s = s->aud_next)
                    live = s->conn && s->conn->wsi != NULL;
                if (live)
                    json_array_append_new(
                        out, json_pack("{ss si}", "g", g->id, "s", a->seat));
            }
    pthread_mutex_unlock(&h->lock);
    char *text = json_array_size(out) ? json_dumps(out, JSON_COMPACT) : NULL;
    json_decref(out);
    return text;
}

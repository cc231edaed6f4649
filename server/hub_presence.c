/*
 * hub_presence.c - whether a seat's player has its game open right now (a
 * live WebSocket subscribed as that seat), so the notifier sends nothing
 * to a player who is looking at the page.
 */
#include "server/hub.h"
#include "server/hub_internal.h"

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

/*
 * hub_chat.c - table talk over the WebSocket: a stored chat message
 * (server/game/chat.h) sent as
 * {"type":"chat","game","channel","seats","message"} to the sockets subscribed
 * to its game that may see it: for a private channel, only those following the
 * game with the view of one of its member seats; for the public channel, every
 * subscriber of the game, the spectators of a game with a spectator delay late:
 * the message waits in their delayed audience's queue (hub_delay.c) until the
 * rule REST applies lets them see it (the version it was posted at is
 * delay_versions old, or the game is over, and the message is delay_seconds
 * old).
 *
 * The listener calls hub_chat_posted for each NOTIFY conclave_chat (ids
 * only); the message is read back from the store here, on the listener's
 * thread, and never logged.
 */
#include "server/hub/hub_internal.h"

#include "server/game/chat.h"
#include "server/runtime/log.h"

#include <stdlib.h>
#include <string.h>

/* Whether the subscribers of audience a may see a message of a channel with
 * these member seats (0: public) now. A delayed game's spectators all
 * follow its HUB_DELAYED audience (nobody subscribes to its public one), so
 * leaving that audience out is enough to keep live chat from them; public
 * messages reach it later through delay_public. Under hub.lock (a->seat
 * never changes). */
static int aud_sees(const hub_aud *a, unsigned seats)
{
    if (a->seat == HUB_DELAYED)
        return 0;
    if (seats == 0)
        return 1;
    return a->seat >= 0 && (seats & (1u << (unsigned)a->seat)) != 0;
}

/* Queue m on every subscriber of game_id that may see it. Any thread but
 * the lws thread; takes hub.lock. */
static void deliver(hub *h, const char *game_id, unsigned seats, hub_msg *m)
{
    int wake = 0;
    pthread_mutex_lock(&h->lock);
    hub_game *g = hub_game_find_locked(h, game_id);
    for (hub_aud *a = g ? g->auds : NULL; a; a = a->next) {
        if (!aud_sees(a, seats))
            continue;
        for (hub_sub *s = a->subs; s; s = s->aud_next)
            wake |= hub_enqueue_locked(h, s->conn, m);
    }
    pthread_mutex_unlock(&h->lock);
    if (wake)
        hub_wake(h);
}

/* Queue the public message m, posted at version and age seconds ago, for
 * the delayed spectators of game_id, if it has any here. Any thread but the
 * lws thread; takes hub.lock, then the game's lock. */
static void delay_public(hub *h, const char *game_id, uint64_t version,
                         double age, hub_msg *m)
{
    pthread_mutex_lock(&h->lock);
    hub_game *g = hub_game_find_locked(h, game_id);
    if (g)
        g->refs++;
    pthread_mutex_unlock(&h->lock);
    if (!g)
        return;
    int wake = 0;
    pthread_mutex_lock(&g->lock);
    if (g->delayed && hub_delay_push_chat(g->delayed, version, age, m) == 0)
        wake = hub_delay_release(h, g, g->delayed);
    pthread_mutex_unlock(&g->lock);
    pthread_mutex_lock(&h->lock);
    g->refs--;
    pthread_mutex_unlock(&h->lock);
    if (wake)
        hub_wake(h);
}

void hub_chat_posted(hub *h, const char *game_id, int channel, int64_t seq)
{
    if (!h)
        return;
    pthread_mutex_lock(&h->lock);
    int followed = hub_game_find_locked(h, game_id) != NULL;
    pthread_mutex_unlock(&h->lock);
    if (!followed)
        return; /* nobody here watches it: no read */
    json_t *msg = NULL;
    unsigned seats = 0;
    uint64_t version = 0;
    double age = 0;
    srv_kind k = chat_fetch(h->app->db, game_id, channel, seq, &msg, &seats,
                            &version, &age);
    if (k != SRV_OK) {
        log_warn("chat_fetch_failed",
                 json_pack("{ss si ss}", "game", game_id, "channel", channel,
                           "error", srv_kind_name(k)));
        return;
    }
    json_t *j =
        json_pack("{ss ss si so so}", "type", "chat", "game", game_id,
                  "channel", channel, "seats", json_array(), "message", msg);
    for (int s = 0; j && s < 32; s++)
        if (seats & (1u << s))
            json_array_append_new(json_object_get(j, "seats"), json_integer(s));
    hub_msg *m = j ? hub_msg_json(j, HUB_MSG_SEQ) : NULL;
    json_decref(j);
    if (m)
        deliver(h, game_id, seats, m);
    if (m && seats == 0)
        delay_public(h, game_id, version, age, m);
    hub_msg_unref(m);
}

/*
 * replay_view.c - a game as it was at version K for one audience (see
 * replay_view.h).
 */
#include "server/game/replay_view.h"

#include "server/game/gamedoc.h"
#include "server/game/spectate.h"
#include "server/store/store.h"

#include <inttypes.h>
#include <string.h>

#define DB_WAIT_MS 2000

typedef struct at_ctx {
    int audience;
    json_t *doc;
} at_ctx;

static void render_at(const actor_view *v, void *ctx)
{
    at_ctx *x = ctx;
    x->doc = gamedoc_render(v, x->audience);
}

srv_kind replay_view_at(db_pool *db, const char *game_id, const char *player_id,
                        uint64_t at, json_t **out, srv_error *err)
{
    *out = NULL;
    PGconn *c = db_acquire(db, DB_WAIT_MS);
    if (!c)
        return srv_db_failed(err);
    store_game m;
    memset(&m, 0, sizeof m);
    srv_kind k = SRV_OK;
    int rc = store_load_game(c, game_id, &m);
    if (rc == STORE_ENOTFOUND)
        k = srv_fail(err, SRV_NOT_FOUND, NULL, "no such game");
    else if (rc != STORE_OK)
        k = srv_db_failed(err);
    int seat = k == SRV_OK ? gamedoc_seat_of(&m, player_id) : -1;
    uint64_t latest = m.version;
    if (k == SRV_OK && seat < 0 &&
        spectate_visible(c, &m, m.version, &latest) != STORE_OK)
        k = srv_db_failed(err);
    if (k == SRV_OK && at > latest)
        k = srv_fail(err, SRV_NOT_FOUND, "at",
                     "version %" PRIu64 " is past the last one you may see "
                     "(%" PRIu64 ")",
                     at, latest);
    at_ctx x = {seat >= 0 ? seat : ENGINE_PUBLIC, NULL};
    if (k == SRV_OK)
        k = spectate_read_at(c, &m, at, render_at, &x);
    if (k == SRV_OK && !x.doc)
        k = srv_fail(err, SRV_INTERNAL, NULL, "out of memory");
    else if (k != SRV_OK && k != SRV_NOT_FOUND && k != SRV_UNAVAILABLE)
        srv_fail(err, k, NULL, "the game does not replay");
    else if (k == SRV_UNAVAILABLE && !err->detail[0])
        srv_db_failed(err);
    if (k == SRV_OK) {
        json_t *facts =
            json_pack("{ss sI sI so}", "game", game_id, "version",
                      (json_int_t)at, "latest", (json_int_t)latest, "you",
                      seat >= 0 ? json_integer(seat) : json_null());
        json_object_update(x.doc, facts);
        json_decref(facts);
        *out = x.doc;
        x.doc = NULL;
    }
    json_decref(x.doc);
    store_game_clear(&m);
    db_release(db, c, k == SRV_UNAVAILABLE && db_conn_broken(c));
    return k;
}

/*
 * lobby_batch.c - coalesced lobby feed changes (see lobby_batch.h).
 */
#include "server/lobby/lobby_batch.h"

#include <stdio.h>
#include <string.h>

void lobby_batch_init(lobby_batch *b, lobby_batch_send send, void *ctx,
                      int interval_ms)
{
    memset(b, 0, sizeof *b);
    b->send = send;
    b->ctx = ctx;
    b->interval = interval_ms / 1000.0;
}

void lobby_batch_add(lobby_batch *b, const char *id, double now)
{
    if (b->interval <= 0 || (b->open_until == 0 && !b->n && !b->reload)) {
        b->send(b->ctx, id);
        if (b->interval > 0)
            b->open_until = now + b->interval;
        return;
    }
    if (!id || b->reload) {
        b->reload = 1;
        return;
    }
    for (int i = 0; i < b->n; i++)
        if (strcmp(b->ids[i], id) == 0)
            return;
    if (b->n == LOBBY_BATCH_IDS || strlen(id) >= sizeof b->ids[0]) {
        b->reload = 1;
        return;
    }
    snprintf(b->ids[b->n++], sizeof b->ids[0], "%s", id);
}

void lobby_batch_flush(lobby_batch *b, double now)
{
    if (b->open_until == 0 || now < b->open_until)
        return;
    if (!b->n && !b->reload) {
        b->open_until = 0; /* quiet again */
        return;
    }
    if (b->reload || b->n > LOBBY_BATCH_EACH) {
        b->send(b->ctx, NULL);
    } else {
        for (int i = 0; i < b->n; i++)
            b->send(b->ctx, b->ids[i]);
    }
    b->n = 0;
    b->reload = 0;
    b->open_until = now + b->interval; /* the next batch waits its turn */
}

int lobby_batch_wait_ms(const lobby_batch *b, double now, int most_ms)
{
    if (b->open_until == 0)
        return most_ms;
    double left = (b->open_until - now) * 1000.0;
    if (left < 0)
        return 0;
    return left < most_ms ? (int)left + 1 : most_ms;
}

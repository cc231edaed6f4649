/*
 * lobby_batch.h - coalescing lobby changes for the WebSocket lobby feed.
 * The first change after a quiet spell goes to the hub at once; changes
 * that follow within cfg->lobby_feed_ms are held, each lobby once, and
 * sent together when that time is up: as single lobby events when there are
 * at most LOBBY_BATCH_EACH lobbies, else as one reload of the whole list
 * (one "lobbies" message to each listener). So a burst of N changes makes
 * at most one event per LOBBY_BATCH_EACH lobbies per interval, not N.
 *
 * The clock is the caller's (monotonic seconds), so the batching can be
 * tested without waiting.
 *
 * Threads: one (the LISTEN thread) owns a lobby_batch.
 */
#ifndef CONCLAVE_LOBBY_BATCH_H
#define CONCLAVE_LOBBY_BATCH_H

#define LOBBY_BATCH_EACH 3 /* held lobbies sent one by one, at most */
#define LOBBY_BATCH_IDS 16 /* lobbies held by id; more make a reload */

/* Where a batch goes: lobby id changed (NULL: reload the whole list); the
 * LISTEN thread passes hub_lobby_changed. */
typedef void (*lobby_batch_send)(void *ctx, const char *id);

typedef struct lobby_batch {
    lobby_batch_send send;
    void *ctx;
    double interval;   /* seconds; 0 sends every change at once */
    double open_until; /* monotonic seconds the interval ends; 0: quiet */
    char ids[LOBBY_BATCH_IDS][64];
    int n;
    int reload; /* hold a reload of the whole list */
} lobby_batch;

/* A batch that sends through send(ctx, ...), holding changes for
 * interval_ms. */
void lobby_batch_init(lobby_batch *b, lobby_batch_send send, void *ctx,
                      int interval_ms);

/* Lobby id changed (NULL: reload the whole list) at now (monotonic
 * seconds): sent now or held. */
void lobby_batch_add(lobby_batch *b, const char *id, double now);

/* Send what is held once its interval is over (at now). Call at least
 * every lobby_batch_wait_ms. */
void lobby_batch_flush(lobby_batch *b, double now);

/* Milliseconds from now until held changes are due, at most most_ms. */
int lobby_batch_wait_ms(const lobby_batch *b, double now, int most_ms);

#endif

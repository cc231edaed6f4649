/*
 * render.c - what the WebSocket hub spends per input rendering and diffing
 * the audiences of one big game: `make bench-hub`.
 *
 * No database and no sockets: one game of the test-only ruleset "fog"
 * (tests/rules/fog.c: a view of about 100 KiB per audience, plays that
 * touch only the mover's view) with 8 seats, and the hub's own step
 * (server/hub/hub_render.c) for the 8 seats and the spectators after every
 * input, as server/hub/hub_game_feed.c runs it. Two ways, on the same inputs:
 *   all      - every audience rendered and diffed in full (what the hub did
 *              before it read engine_touched);
 *   touched  - only the audiences engine_touched names; the others get the
 *              common fields replaced.
 * For each: milliseconds per input of render+diff, and of the messages
 * (the snapshot and patch texts the hub builds for each audience).
 *
 *   hub_render [inputs] [sectors]        defaults: 200 inputs, 1600 sectors
 */
#include "engine/engine.h"
#include "server/game/gamedoc.h"
#include "server/hub/hub_render.h"
#include "tests/rules/test_rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SEATS 8
#define AUDS (SEATS + 1)

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int audience_of(int i)
{
    return i < SEATS ? i : ENGINE_PUBLIC;
}

/* The texts the hub sends for one step: the snapshot and the patch. */
static size_t messages(const json_t *doc, const json_t *ops, size_t *patch)
{
    char *s = json_dumps(doc, JSON_COMPACT);
    char *p = ops ? json_dumps(ops, JSON_COMPACT) : NULL;
    size_t n = s ? strlen(s) : 0;
    *patch = p ? strlen(p) : 0;
    free(s);
    free(p);
    return n;
}

typedef struct result {
    double render_ms, msg_ms;       /* per input */
    size_t snap_bytes, patch_bytes; /* per input, all audiences */
} result;

static int run(int inputs, int sectors, int touched_only, result *out)
{
    uint8_t seed[ENGINE_SEED_BYTES] = {1};
    json_t *opts = json_pack("{s:i}", "sectors", sectors);
    engine_error err;
    engine_game *g = engine_create("fog", "bench", opts, SEATS, seed, &err);
    json_decref(opts);
    if (!g) {
        fprintf(stderr, "create: %s\n", err.msg);
        return -1;
    }
    store_game meta;
    memset(&meta, 0, sizeof meta);
    actor_view v = {g, &meta, 0, NULL};
    json_t *docs[AUDS] = {0};
    for (int i = 0; i < AUDS; i++)
        docs[i] = gamedoc_render(&v, audience_of(i));
    memset(out, 0, sizeof *out);
    for (int k = 0; k < inputs; k++) {
        int seat = k % SEATS;
        json_t *play = json_pack("{s:i, s:i}", "unit", seat + SEATS * (k % 7),
                                 "dx", k % 2 ? 1 : -1);
        engine_input in = {.seat = seat, .kind = ENGINE_PLAY, .payload = play};
        snprintf(in.window_buf, sizeof in.window_buf, "t%d", k);
        in.window = in.window_buf;
        int rc = engine_apply(g, &in, NULL, &err);
        json_decref(play);
        if (rc != 0) {
            fprintf(stderr, "input %d: %s\n", k, err.msg);
            return -1;
        }
        v.version = (uint64_t)k + 1;
        double t0 = now_ms(), msg = 0;
        json_t *windows = gamedoc_windows(&v);
        for (int i = 0; i < AUDS; i++) {
            int full = !touched_only ||
                       hub_render_full(&v, audience_of(i), 1, v.version - 1);
            json_t *doc, *ops;
            if (hub_render_next(&v, audience_of(i), windows, docs[i], full,
                                &doc, &ops) != 0)
                return -1;
            double m0 = now_ms();
            size_t pb;
            out->snap_bytes += messages(doc, ops, &pb);
            out->patch_bytes += pb;
            msg += now_ms() - m0;
            json_decref(ops);
            json_decref(docs[i]);
            docs[i] = doc;
        }
        json_decref(windows);
        out->render_ms += now_ms() - t0 - msg;
        out->msg_ms += msg;
    }
    out->render_ms /= inputs;
    out->msg_ms /= inputs;
    out->snap_bytes /= (size_t)inputs;
    out->patch_bytes /= (size_t)inputs;
    for (int i = 0; i < AUDS; i++)
        json_decref(docs[i]);
    engine_free(g);
    return 0;
}

int main(int argc, char **argv)
{
    int inputs = argc > 1 ? atoi(argv[1]) : 200;
    int sectors = argc > 2 ? atoi(argv[2]) : 1600;
    engine_error err;
    if (inputs < 1 || sectors < 1) {
        fprintf(stderr, "usage: %s [inputs] [sectors]\n", argv[0]);
        return 2;
    }
    if (test_rules_register() != 0 || engine_init(&err) != 0)
        return 1;
    result all, touched;
    if (run(inputs, sectors, 0, &all) != 0 ||
        run(inputs, sectors, 1, &touched) != 0)
        return 1;
    printf("fog, %d seats + spectators, %d sectors: one view %.1f KiB, "
           "%d inputs\n",
           SEATS, sectors, (double)all.snap_bytes / AUDS / 1024, inputs);
    printf("%-8s %14s %16s %18s %14s\n", "", "render+diff ms", "messages ms",
           "snapshot KiB", "patch bytes");
    const result *r[2] = {&all, &touched};
    const char *name[2] = {"all", "touched"};
    for (int i = 0; i < 2; i++)
        printf("%-8s %14.3f %16.3f %18.1f %14zu\n", name[i], r[i]->render_ms,
               r[i]->msg_ms, (double)r[i]->snap_bytes / 1024,
               r[i]->patch_bytes);
    return 0;
}

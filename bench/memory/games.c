/*
 * games.c - memory per game held in memory: `make bench-memory`.
 *
 * Starts an actor system (the server's, without HTTP or the WebSocket hub)
 * on a fresh database of the private PostgreSQL cluster, creates N games of
 * one ruleset, loads every one into memory (actors_load: what a play or a
 * read does) and prints the heap bytes per game (glibc mallinfo2, in use),
 * and of that, what one copy of the engine's game costs (an actor holds
 * two: the committed one and the worker's) and its saved state's size.
 *
 *   DATABASE_URL=... bench_memory [games] [ruleset] [seats]
 *
 * Defaults: 2000 games of tictactoe with 2 seats, no clock.
 */
#include "engine/engine.h"
#include "server/game/actor.h"
#include "server/runtime/config.h"
#include "server/runtime/log.h"
#include "server/store/db.h"
#include "server/store/migrate.h"
#include "server/store/store.h"

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static size_t heap_in_use(void)
{
    malloc_trim(0);
    return mallinfo2().uordblks;
}

static void fill_game(store_game *g, const char *ruleset, int seats, int n)
{
    memset(g, 0, sizeof *g);
    store_new_id(g->game_id);
    snprintf(g->ruleset, sizeof g->ruleset, "%s", ruleset);
    g->options = json_object();
    g->seats = seats;
    for (int i = 0; i < ENGINE_SEED_BYTES; i++)
        g->seed[i] = (uint8_t)(n * 7 + i);
    uint8_t h[32];
    engine_sha256(g->seed, sizeof g->seed, h);
    engine_hex(h, sizeof h, g->seed_sha256);
    snprintf(g->clock_mode, sizeof g->clock_mode, "none");
}

/* One engine copy of ruleset: heap bytes per copy over count copies, and
 * the saved state's bytes. */
static void engine_cost(const char *ruleset, int seats, int count,
                        double *per_copy, size_t *saved)
{
    engine_game **g = calloc((size_t)count, sizeof(engine_game *));
    store_game meta;
    fill_game(&meta, ruleset, seats, 0);
    engine_error err;
    size_t before = heap_in_use();
    for (int i = 0; i < count && g; i++)
        g[i] = engine_create(ruleset, meta.game_id, meta.options, seats,
                             meta.seed, &err);
    size_t after = heap_in_use();
    *per_copy = (double)(after - before) / count;
    json_t *s = g && g[0] ? engine_save(g[0]) : NULL;
    char *text = s ? engine_canonical_json(s) : NULL;
    *saved = text ? strlen(text) : 0;
    free(text);
    json_decref(s);
    for (int i = 0; i < count && g; i++)
        engine_free(g[i]);
    free(g);
    store_game_clear(&meta);
}

/* A fresh scratch database named name, migrated; its URL into url. */
static int fresh_database(const char *base, const char *name, char *url,
                          size_t n)
{
    char err[256];
    PGconn *c = db_connect(base, 5, err, sizeof err);
    int made = c ? db_scratch_database(c, name, 1) : -1;
    if (c)
        PQfinish(c);
    if (made != 0)
        return -1;
    snprintf(url, n, "%.900s%cdbname=%.60s", base,
             strchr(base, '?') ? '&' : '?', name);
    PGconn *t = db_connect(url, 5, err, sizeof err);
    const char *dir = getenv("CONCLAVE_SQL_DIR");
    int rc = t ? migrate_apply(t, dir ? dir : "sql", err, sizeof err) : -1;
    if (t)
        PQfinish(t);
    return rc < 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
    int games = argc > 1 ? atoi(argv[1]) : 2000;
    const char *ruleset = argc > 2 ? argv[2] : "tictactoe";
    int seats = argc > 3 ? atoi(argv[3]) : 2;
    const char *base = getenv("DATABASE_URL");
    engine_error eerr;
    if (!base || games < 1) {
        fprintf(stderr,
                "usage: DATABASE_URL=... %s [games] [ruleset] [seats]\n",
                argv[0]);
        return 2;
    }
    log_set_level(LOG_ERROR);
    if (engine_init(&eerr) != 0)
        return 1;
    double per_copy;
    size_t saved;
    engine_cost(ruleset, seats, games, &per_copy, &saved);

    static config cfg;
    char err[256], name[64];
    config_from_env(&cfg, err, sizeof err);
    snprintf(name, sizeof name, "conclave_mem_%ld_%d", (long)time(NULL),
             (int)getpid());
    if (fresh_database(base, name, cfg.database_url, sizeof cfg.database_url) !=
        0) {
        fprintf(stderr, "cannot prepare the database\n");
        return 1;
    }
    char(*ids)[STORE_ID_MAX] = calloc((size_t)games, sizeof *ids);
    PGconn *c = db_connect(cfg.database_url, 5, err, sizeof err);
    for (int i = 0; c && ids && i < games; i++) {
        store_game g;
        fill_game(&g, ruleset, seats, i);
        store_create_game(c, &g);
        snprintf(ids[i], sizeof ids[i], "%s", g.game_id);
        store_game_clear(&g);
    }
    app a = {.cfg = &cfg};
    a.db = db_pool_create(cfg.database_url, cfg.db_pool, 3);
    a.actors = actors_start(&a, err, sizeof err);
    int loaded = 0;
    if (a.actors) {
        actors_load(a.actors, ids[0]); /* warm: threads, connections */
        size_t before = heap_in_use();
        for (int i = 1; i < games; i++)
            loaded += actors_load(a.actors, ids[i]) == SRV_OK;
        size_t after = heap_in_use();
        double per_game = loaded ? (double)(after - before) / loaded : 0;
        printf("{\"ruleset\":\"%s\",\"seats\":%d,\"games\":%d,"
               "\"heap_bytes_per_game\":%.0f,\"engine_copy_bytes\":%.0f,"
               "\"engine_copies_per_game\":2,\"rest_bytes\":%.0f,"
               "\"saved_state_bytes\":%zu}\n",
               ruleset, seats, loaded, per_game, per_copy,
               per_game - 2 * per_copy, saved);
        actors_stop(a.actors);
    }
    db_pool_destroy(a.db);
    if (c) {
        db_scratch_database(c, name, 0);
        PQfinish(c);
    }
    free(ids);
    return loaded == games - 1 ? 0 : 1;
}

/*
 * notify_listened.c - the in-memory set of players with a notification
 * channel (see notify_listened.h): a chained hash set of player ids.
 */
#include "server/notify/notify_listened.h"

#include "server/runtime/log.h"
#include "server/runtime/metrics.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BUCKETS 4096
/* A game with a group channel is in the set as GAME_KEY "ID" (no player id
 * has a colon). */
#define GAME_KEY "game:"
#define DB_WAIT_MS 2000

/* Whether the player has a webhook or a verified address ($1), or every
 * such player (no parameter). */
#define LISTENED_WHERE                                                         \
    "(EXISTS (SELECT 1 FROM notify_webhooks w WHERE w.player_id = p.id AND "   \
    "w.game_id IS NULL) OR "                                                   \
    "EXISTS (SELECT 1 FROM notify_settings s WHERE s.player_id = p.id AND "    \
    "s.email_verified))"

typedef struct entry {
    struct entry *next;
    char id[];
} entry;

typedef struct set {
    entry *buckets[BUCKETS];
} set;

static pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
static set *current;     /* lock; NULL: not loaded */
static double loaded_at; /* lock: monotonic seconds of the last load */

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static unsigned hash_id(const char *id)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *id; id++)
        h = (h ^ (uint8_t)*id) * 16777619u;
    return h % BUCKETS;
}

static entry **find(set *s, const char *id)
{
    entry **e = &s->buckets[hash_id(id)];
    while (*e && strcmp((*e)->id, id) != 0)
        e = &(*e)->next;
    return e;
}

static int set_add(set *s, const char *id)
{
    entry **e = find(s, id);
    if (*e)
        return 0;
    size_t n = strlen(id) + 1;
    entry *x = malloc(sizeof *x + n);
    if (!x)
        return -1;
    memcpy(x->id, id, n);
    x->next = NULL;
    *e = x;
    return 0;
}

static void set_remove(set *s, const char *id)
{
    entry **e = find(s, id);
    if (*e) {
        entry *gone = *e;
        *e = gone->next;
        free(gone);
    }
}

static void set_free(set *s)
{
    if (!s)
        return;
    for (int i = 0; i < BUCKETS; i++)
        for (entry *e = s->buckets[i], *next; e; e = next) {
            next = e->next;
            free(e);
        }
    free(s);
}

int notify_listened_reload(PGconn *c)
{
    PGresult *r = db_exec(c, PGRES_TUPLES_OK,
                          "SELECT p.id FROM players p WHERE " LISTENED_WHERE
                          " UNION ALL SELECT '" GAME_KEY "' || game_id FROM "
                          "notify_webhooks WHERE game_id IS NOT NULL",
                          0, NULL);
    if (!r)
        return -1;
    set *s = calloc(1, sizeof *s);
    int failed = !s, n = PQntuples(r);
    for (int i = 0; !failed && i < n; i++)
        failed = set_add(s, PQgetvalue(r, i, 0)) != 0;
    PQclear(r);
    if (failed) {
        set_free(s);
        return -1;
    }
    metrics_gauge("conclave_notify_listened",
                  "players and games with a channel, as of the last reload "
                  "of the listened set",
                  n);
    pthread_rwlock_wrlock(&lock);
    set *old = current;
    current = s;
    loaded_at = now_seconds();
    pthread_rwlock_unlock(&lock);
    set_free(old);
    return 0;
}

void notify_listened_tick(db_pool *p)
{
    pthread_rwlock_rdlock(&lock);
    int due =
        !current || now_seconds() - loaded_at >= NOTIFY_LISTENED_RELOAD_SECONDS;
    pthread_rwlock_unlock(&lock);
    if (!due)
        return;
    PGconn *c = db_acquire(p, DB_WAIT_MS);
    if (!c)
        return;
    if (notify_listened_reload(c) != 0)
        log_warn("notify_listened_reload_failed", NULL);
    db_release(p, c, db_conn_broken(c));
}

int notify_listened_refresh(PGconn *c, const char *player_id)
{
    const char *p[] = {player_id};
    PGresult *r = db_exec(c, PGRES_TUPLES_OK,
                          "SELECT " LISTENED_WHERE " FROM players p WHERE "
                          "p.id = $1",
                          1, p);
    if (!r)
        return -1;
    int on = PQntuples(r) == 1 && PQgetvalue(r, 0, 0)[0] == 't';
    PQclear(r);
    int rc = 0;
    pthread_rwlock_wrlock(&lock);
    if (current) {
        if (on)
            rc = set_add(current, player_id);
        else
            set_remove(current, player_id);
    }
    pthread_rwlock_unlock(&lock);
    return rc;
}

int notify_listened_game_refresh(PGconn *c, const char *game_id)
{
    const char *p[] = {game_id};
    PGresult *r = db_exec(c, PGRES_TUPLES_OK,
                          "SELECT EXISTS (SELECT 1 FROM notify_webhooks WHERE "
                          "game_id = $1)",
                          1, p);
    if (!r)
        return -1;
    int on = PQgetvalue(r, 0, 0)[0] == 't';
    PQclear(r);
    char key[sizeof GAME_KEY + 128];
    snprintf(key, sizeof key, GAME_KEY "%s", game_id);
    int rc = 0;
    pthread_rwlock_wrlock(&lock);
    if (current) {
        if (on)
            rc = set_add(current, key);
        else
            set_remove(current, key);
    }
    pthread_rwlock_unlock(&lock);
    return rc;
}

int notify_listened_game(const char *game_id)
{
    char key[sizeof GAME_KEY + 128];
    snprintf(key, sizeof key, GAME_KEY "%s", game_id ? game_id : "");
    pthread_rwlock_rdlock(&lock);
    int any = !current || *find(current, key);
    pthread_rwlock_unlock(&lock);
    return any;
}

int notify_listened_any(const char *const *players, int n)
{
    pthread_rwlock_rdlock(&lock);
    int any = !current;
    for (int i = 0; !any && i < n; i++)
        any = players[i] && players[i][0] && *find(current, players[i]);
    pthread_rwlock_unlock(&lock);
    return any;
}

void notify_listened_reset(void)
{
    pthread_rwlock_wrlock(&lock);
    set *old = current;
    current = NULL;
    pthread_rwlock_unlock(&lock);
    set_free(old);
}

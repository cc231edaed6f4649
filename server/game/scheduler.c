/*
 * scheduler.c - fire due deadlines as timeout inputs; evict idle games;
 * release the lobby seats of idle players (server/lobby/idle_seats.c); fold
 * the windows of delayed games into reputation once their end reaches
 * their spectators (server/players/reputation.h).
 *
 * Threads: one scheduler thread; scheduler_stop is called from main. The
 * `stopping` flag is guarded by lock.
 */
#include "server/game/scheduler.h"

#include "server/game/vacation.h"
#include "server/lobby/idle_seats.h"
#include "server/players/reputation.h"
#include "server/runtime/log.h"
#include "server/runtime/metrics.h"
#include "server/runtime/thread_name.h"
#include "server/store/db.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TICK_MS 250
#define EVICT_EVERY_TICKS 40
#define IDLE_SEATS_EVERY_TICKS 4 /* the idle-seat sweep, once a second */
#define STAND_IN_EVERY_TICKS 4   /* vacation bots, once a second */
#define REPUTATION_EVERY_TICKS 4 /* delayed games' windows, once a second */
#define LEASE "30 seconds"

struct scheduler {
    app *app;
    actors *actors;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    int stopping;
    unsigned ticks; /* scheduler_fire_due calls (the scheduler thread's) */
};

/* Deadlines come due of windows waiting on a player on vacation: in a
 * game whose rules say "extend" they wait for the vacation's end (in one
 * that says "bot" a bot plays them: vacation_stand_in). */
static void hold_for_vacations(PGconn *c)
{
    PGresult *r = db_exec(
        c, PGRES_COMMAND_OK,
        "UPDATE deadlines d SET due_at = v.ends_at FROM turns_waiting t "
        "JOIN game_seats s ON s.game_id = t.game_id AND s.seat = t.seat "
        "JOIN vacations v ON v.player_id = s.player_id AND v.ends_at > now() "
        "JOIN games g ON g.game_id = t.game_id WHERE d.game_id = t.game_id "
        "AND d.window_id = t.window_id AND s.bot IS NULL AND "
        "((d.due_at <= now() AND d.due_at < v.ends_at AND "
        "coalesce(g.clock_rules ->> 'vacation', 'extend') = 'extend'))",
        0, NULL);
    PQclear(r);
}

int scheduler_fire_due(scheduler *s)
{
    PGconn *c = db_acquire(s->app->db, 500);
    if (!c)
        return 0;
    hold_for_vacations(c);
    unsigned tick = s->ticks++;
    if (tick % STAND_IN_EVERY_TICKS == 0)
        vacation_stand_in(c, s->actors);
    if (tick % REPUTATION_EVERY_TICKS == 0)
        reputation_fold_due(c);
    PGresult *r = db_query(
        c,
        "WITH due AS (SELECT game_id, window_id FROM deadlines "
        " WHERE due_at <= now() AND (claimed_until IS NULL OR "
        " claimed_until < now()) ORDER BY due_at LIMIT 200 "
        " FOR UPDATE SKIP LOCKED) "
        "UPDATE deadlines d SET claimed_until = now() + interval '" LEASE "' "
        "FROM due WHERE d.game_id = due.game_id AND "
        "d.window_id = due.window_id RETURNING d.game_id, d.window_id",
        0, NULL, NULL, NULL, NULL, 0);
    int n = 0;
    if (PQresultStatus(r) == PGRES_TUPLES_OK) {
        n = PQntuples(r);
        for (int i = 0; i < n; i++) {
            actor_request rq = {
                .seat = ENGINE_PUBLIC, .kind = ENGINE_TIMEOUT, .if_match = -1};
            snprintf(rq.window, sizeof rq.window, "%s", PQgetvalue(r, i, 1));
            actors_post(s->actors, PQgetvalue(r, i, 0), &rq);
        }
        if (n)
            metrics_count("conclave_deadlines_fired_total",
                          "Deadlines claimed and sent as timeouts.",
                          (uint64_t)n);
    }
    int broken = PQresultStatus(r) != PGRES_TUPLES_OK && db_conn_broken(c);
    PQclear(r);
    db_release(s->app->db, c, broken);
    return n;
}

static void *scheduler_main(void *arg)
{
    thread_name_set("scheduler");
    scheduler *s = arg;
    for (unsigned tick = 0;; tick++) {
        pthread_mutex_lock(&s->lock);
        if (!s->stopping) {
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            until.tv_nsec += TICK_MS * 1000000L;
            if (until.tv_nsec >= 1000000000L) {
                until.tv_sec++;
                until.tv_nsec -= 1000000000L;
            }
            pthread_cond_timedwait(&s->wake, &s->lock, &until);
        }
        int stop = s->stopping;
        pthread_mutex_unlock(&s->lock);
        if (stop)
            return NULL;
        scheduler_fire_due(s);
        if (tick % EVICT_EVERY_TICKS == 0)
            actors_evict_idle(s->actors);
        if (tick % IDLE_SEATS_EVERY_TICKS == 0)
            idle_seats_release(s->app);
    }
}

scheduler *scheduler_start(app *a, actors *A, char *err, size_t errlen)
{
    scheduler *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->app = a;
    s->actors = A;
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->wake, NULL);
    if (pthread_create(&s->thread, NULL, scheduler_main, s) != 0) {
        snprintf(err, errlen, "cannot start the scheduler thread");
        free(s);
        return NULL;
    }
    return s;
}

void scheduler_stop(scheduler *s)
{
    if (!s)
        return;
    pthread_mutex_lock(&s->lock);
    s->stopping = 1;
    pthread_cond_signal(&s->wake);
    pthread_mutex_unlock(&s->lock);
    pthread_join(s->thread, NULL);
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->wake);
    free(s);
}

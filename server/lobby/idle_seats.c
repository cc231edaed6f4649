/*
 * idle_seats.c - the idle-seat sweep (see idle_seats.h).
 */
#include "server/lobby/idle_seats.h"

#include "server/lobby/lobby.h"
#include "server/runtime/log.h"
#include "server/runtime/metrics.h"

#include <stdio.h>

#define DB_WAIT_MS 500

/* One statement, so one transaction: lock the open lobbies with idle
 * non-host players (skipping those another change holds), empty those
 * seats where they still hold the idle player, bump the lobbies' versions
 * and announce each lobby once. Rows: lobby id, seat, player id. */
static const char sweep_sql[] =
    "WITH idle AS (SELECT s.lobby_id, s.seat, s.player_id FROM lobby_seats s "
    " JOIN lobbies l ON l.id = s.lobby_id JOIN players p ON p.id = "
    " s.player_id WHERE l.status = 'open' AND s.player_id <> l.host_id "
    " AND p.last_seen < now() - make_interval(secs => $1::integer) "
    " ORDER BY p.last_seen LIMIT $2::integer FOR UPDATE OF l SKIP LOCKED), "
    "cleared AS (UPDATE lobby_seats s SET player_id = NULL FROM idle WHERE "
    " s.lobby_id = idle.lobby_id AND s.seat = idle.seat AND s.player_id = "
    " idle.player_id RETURNING s.lobby_id, s.seat, idle.player_id), "
    "bumped AS (UPDATE lobbies SET version = version + 1, updated_at = now() "
    " WHERE id IN (SELECT lobby_id FROM cleared) RETURNING id, "
    " pg_notify('" LOBBY_CHANNEL "', id)) "
    "SELECT c.lobby_id, c.seat, c.player_id FROM cleared c "
    " JOIN bumped b ON b.id = c.lobby_id";

int idle_seats_release(app *a)
{
    if (a->cfg->idle_seat_seconds <= 0)
        return 0;
    PGconn *c = db_acquire(a->db, DB_WAIT_MS);
    if (!c)
        return -1;
    char secs[16], most[16];
    snprintf(secs, sizeof secs, "%d", a->cfg->idle_seat_seconds);
    snprintf(most, sizeof most, "%d", IDLE_SEATS_BATCH);
    const char *p[] = {secs, most};
    PGresult *r = db_exec(c, PGRES_TUPLES_OK, sweep_sql, 2, p);
    int n = r ? PQntuples(r) : -1;
    for (int i = 0; i < n; i++)
        log_info("idle_seat_released",
                 json_pack("{sssisssi}", "lobby", PQgetvalue(r, i, 0), "seat",
                           atoi(PQgetvalue(r, i, 1)), "player",
                           PQgetvalue(r, i, 2), "idle_seconds",
                           a->cfg->idle_seat_seconds));
    if (n > 0)
        metrics_count("conclave_idle_seats_released_total",
                      "Lobby seats released because their player was idle.",
                      (uint64_t)n);
    PQclear(r);
    db_release(a->db, c, !r && db_conn_broken(c));
    return n;
}

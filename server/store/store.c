/*
 * store.c - the event store in PostgreSQL (see store.h).
 *
 * Binary values (seeds, nonces, hashes) travel as hex text through
 * decode($n, 'hex') / encode(col, 'hex') so every statement uses the text
 * protocol with parameters only.
 */
#include "server/store/store.h"
#include "server/store/db.h"
#include "server/store/db_stmt.h"
#include "server/store/pg_array.h"

#include "server/players/records.h"
#include "server/runtime/log.h"

#include <inttypes.h>
#include <openssl/rand.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int hex_to_bytes(const char *hex, uint8_t *out, size_t n)
{
    if (strlen(hex) != 2 * n)
        return -1;
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        if (sscanf(hex + 2 * i, "%2x", &v) != 1)
            return -1;
        out[i] = (uint8_t)v;
    }
    return 0;
}

/* Run a statement expecting status want; on failure log it and return the
 * store code (a unique violation or serialization failure is a conflict). */
static int exec_ok(PGconn *c, ExecStatusType want, const char *sql, int n,
                   const char *const *params, PGresult **out)
{
    PGresult *r = db_query(c, sql, n, NULL, params, NULL, NULL, 0);
    if (PQresultStatus(r) == want) {
        if (out)
            *out = r;
        else
            PQclear(r);
        return STORE_OK;
    }
    const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    int code =
        state && (strcmp(state, "23505") == 0 || strcmp(state, "40001") == 0)
            ? STORE_ECONFLICT
            : STORE_EDB;
    if (code == STORE_EDB) {
        const char *msg = PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY);
        log_warn("store_error",
                 json_pack("{ss ss}", "sqlstate", state ? state : "", "error",
                           msg ? msg : "connection failure"));
    }
    PQclear(r);
    if (out)
        *out = NULL;
    return code;
}

static void rollback(PGconn *c)
{
    if (PQstatus(c) == CONNECTION_OK && PQtransactionStatus(c) != PQTRANS_IDLE)
        PQclear(db_query(c, "ROLLBACK", 0, NULL, NULL, NULL, NULL, 0));
}

void store_new_id(char *out)
{
    static const char alphabet[] = "abcdefghijkmnpqrstuvwxyz23456789";
    uint8_t raw[16];
    if (RAND_bytes(raw, sizeof raw) != 1)
        abort(); /* no OS randomness: nothing safe to do */
    for (int i = 0; i < 16; i++)
        out[i] = alphabet[raw[i] & 31];
    out[16] = '\0';
}

void store_game_clear(store_game *g)
{
    json_decref(g->options);
    g->options = NULL;
    json_decref(g->clock_rules);
    g->clock_rules = NULL;
}

void store_input_clear(store_input *in)
{
    json_decref(in->payload);
    in->payload = NULL;
}

int store_create_game(PGconn *c, const store_game *g)
{
    char seed_hex[2 * ENGINE_SEED_BYTES + 1], seats[8], clock[16], dv[16],
        ds[16];
    engine_hex(g->seed, ENGINE_SEED_BYTES, seed_hex);
    snprintf(seats, sizeof seats, "%d", g->seats);
    snprintf(clock, sizeof clock, "%d", g->clock_seconds);
    snprintf(dv, sizeof dv, "%d", g->delay_versions);
    snprintf(ds, sizeof ds, "%d", g->delay_seconds);
    char *options = json_dumps(g->options ? g->options : json_object(),
                               JSON_COMPACT | JSON_SORT_KEYS);
    char *rules = g->clock_rules ? json_dumps(g->clock_rules,
                                              JSON_COMPACT | JSON_SORT_KEYS)
                                 : NULL;
    /* The game and its seats in one statement (one round trip, atomic on
     * its own; inside the caller's transaction, a lobby start, the rows
     * join it): the seats' players and bots as JSON arrays, "" for none. */
    json_t *players = json_array(), *bots = json_array();
    for (int s = 0; s < g->seats; s++) {
        json_array_append_new(players, json_string(g->seat_player[s]));
        json_array_append_new(bots, json_string(g->seat_bot[s]));
    }
    char *pl = json_dumps(players, JSON_COMPACT);
    char *bt = json_dumps(bots, JSON_COMPACT);
    json_decref(players);
    json_decref(bots);
    const char *p[] = {g->game_id,
                       g->lobby_id[0] ? g->lobby_id : NULL,
                       g->ruleset,
                       options,
                       seats,
                       seed_hex,
                       g->seed_sha256,
                       g->clock_mode,
                       clock,
                       dv,
                       ds,
                       rules ? rules : "{}",
                       pl,
                       bt,
                       g->listened ? "t" : "f"};
    /* The 'started' fact of the notification outbox only for a game one of
     * whose seated players can be told (sql/020_started_facts.sql). */
    int rc =
        pl && bt && options
            ? exec_ok(c, PGRES_COMMAND_OK,
                      "WITH g AS (INSERT INTO games (game_id, lobby_id, "
                      "ruleset, options, seat_count, seed, seed_sha256, "
                      "clock_mode, clock_seconds, delay_versions, "
                      "delay_seconds, clock_rules) VALUES ($1, $2, $3, "
                      "$4::jsonb, $5::integer, decode($6, 'hex'), $7, $8, "
                      "$9::integer, $10::integer, $11::integer, $12::jsonb) "
                      "RETURNING game_id), "
                      "f AS (INSERT INTO notify_facts (game_id, kind, version) "
                      "SELECT game_id, 'started', 0 FROM g WHERE $15::boolean) "
                      "INSERT INTO game_seats (game_id, seat, player_id, bot) "
                      "SELECT g.game_id, i, nullif($13::jsonb ->> i, ''), "
                      "nullif($14::jsonb ->> i, '') FROM g, "
                      "generate_series(0, $5::integer - 1) AS i",
                      15, p, NULL)
            : STORE_EDB;
    free(pl);
    free(bt);
    free(options);
    free(rules);
    return rc;
}

/* Fill out's seats from r (seat, player id, name, bot). */
static void parse_seats(PGresult *r, store_game *out)
{
    for (int i = 0; i < PQntuples(r); i++) {
        int seat = atoi(PQgetvalue(r, i, 0));
        if (seat < 0 || seat >= out->seats)
            continue;
        snprintf(out->seat_player[seat], sizeof out->seat_player[seat], "%s",
                 PQgetvalue(r, i, 1));
        snprintf(out->seat_name[seat], sizeof out->seat_name[seat], "%s",
                 PQgetvalue(r, i, 2));
        snprintf(out->seat_bot[seat], sizeof out->seat_bot[seat], "%s",
                 PQgetvalue(r, i, 3));
    }
}

/* Fill out from the games row r (one row); -1 when it does not parse. */
static int parse_game(PGresult *r, store_game *out)
{
    snprintf(out->game_id, sizeof out->game_id, "%s", PQgetvalue(r, 0, 0));
    snprintf(out->lobby_id, sizeof out->lobby_id, "%s", PQgetvalue(r, 0, 1));
    snprintf(out->ruleset, sizeof out->ruleset, "%s", PQgetvalue(r, 0, 2));
    out->options = json_loads(PQgetvalue(r, 0, 3), 0, NULL);
    out->seats = atoi(PQgetvalue(r, 0, 4));
    int bad = hex_to_bytes(PQgetvalue(r, 0, 5), out->seed, ENGINE_SEED_BYTES);
    snprintf(out->seed_sha256, sizeof out->seed_sha256, "%s",
             PQgetvalue(r, 0, 6));
    snprintf(out->clock_mode, sizeof out->clock_mode, "%s",
             PQgetvalue(r, 0, 7));
    out->clock_seconds = atoi(PQgetvalue(r, 0, 8));
    snprintf(out->status, sizeof out->status, "%s", PQgetvalue(r, 0, 9));
    out->version = strtoull(PQgetvalue(r, 0, 10), NULL, 10);
    out->delay_versions = atoi(PQgetvalue(r, 0, 11));
    out->delay_seconds = atoi(PQgetvalue(r, 0, 12));
    out->clock_rules = json_loads(PQgetvalue(r, 0, 13), 0, NULL);
    return bad || !out->options || !json_is_object(out->clock_rules) ||
                   out->seats < 1 || out->seats > ENGINE_MAX_SEATS
               ? -1
               : 0;
}

int store_load_game(PGconn *c, const char *game_id, store_game *out)
{
    memset(out, 0, sizeof *out);
    const char *p[] = {game_id};
    /* The row and its seats in one pipeline (one round trip). */
    const db_stmt st[] = {
        {"SELECT game_id, coalesce(lobby_id, ''), ruleset, options::text, "
         "seat_count, encode(seed, 'hex'), seed_sha256, clock_mode, "
         "clock_seconds, status, version, delay_versions, delay_seconds, "
         "clock_rules::text FROM games WHERE game_id = $1",
         1, p, PGRES_TUPLES_OK, 0},
        {"SELECT s.seat, coalesce(s.player_id, ''), coalesce(p.name, ''), "
         "coalesce(s.bot, '') FROM game_seats s LEFT JOIN players p ON p.id "
         "= s.player_id WHERE s.game_id = $1 ORDER BY s.seat",
         1, p, PGRES_TUPLES_OK, 0}};
    PGresult *r[2];
    if (db_pipeline(c, st, 2, r) != 0)
        return STORE_EDB;
    int rc = STORE_OK;
    if (PQntuples(r[0]) != 1) {
        rc = STORE_ENOTFOUND;
    } else if (parse_game(r[0], out) != 0) {
        store_game_clear(out);
        log_error("store_corrupt_game", json_pack("{ss}", "game", game_id));
        rc = STORE_EDB;
    } else {
        parse_seats(r[1], out);
    }
    PQclear(r[0]);
    PQclear(r[1]);
    return rc;
}

int store_load_snapshot(PGconn *c, const char *game_id, json_t **state,
                        uint64_t *seq)
{
    return store_load_snapshot_upto(c, game_id, INT64_MAX, state, seq);
}

int store_load_snapshot_upto(PGconn *c, const char *game_id, uint64_t upto,
                             json_t **state, uint64_t *seq)
{
    *state = NULL;
    *seq = 0;
    char max[24];
    snprintf(max, sizeof max, "%" PRIu64, upto > INT64_MAX ? INT64_MAX : upto);
    const char *p[] = {game_id, max};
    PGresult *r;
    int rc = exec_ok(c, PGRES_TUPLES_OK,
                     "SELECT seq, state FROM game_snapshots WHERE game_id = $1 "
                     "AND seq <= $2::bigint ORDER BY seq DESC LIMIT 1",
                     2, p, &r);
    if (rc)
        return rc;
    if (PQntuples(r) == 1) {
        *seq = strtoull(PQgetvalue(r, 0, 0), NULL, 10);
        *state = json_loads(PQgetvalue(r, 0, 1), 0, NULL);
        if (!*state)
            *seq = 0; /* unreadable snapshot: replay from the start */
    }
    PQclear(r);
    return STORE_OK;
}

int store_load_inputs(PGconn *c, const char *game_id, uint64_t after,
                      store_input **out, size_t *n)
{
    return store_load_inputs_page(c, game_id, after, 0, out, n);
}

int store_load_inputs_page(PGconn *c, const char *game_id, uint64_t after,
                           size_t limit, store_input **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    char after_s[24], limit_s[24];
    snprintf(after_s, sizeof after_s, "%llu", (unsigned long long)after);
    snprintf(limit_s, sizeof limit_s, "%zu", limit);
    const char *p[] = {game_id, after_s, limit ? limit_s : NULL};
    PGresult *r;
    int rc = exec_ok(c, PGRES_TUPLES_OK,
                     "SELECT seq, coalesce(seat, -1), kind, "
                     "coalesce(window_id, ''), payload, "
                     "coalesce(encode(nonce, 'hex'), '') FROM game_inputs "
                     "WHERE game_id = $1 AND seq > $2::bigint ORDER BY seq "
                     "LIMIT $3::bigint",
                     3, p, &r);
    if (rc)
        return rc;
    int rows = PQntuples(r);
    store_input *list = rows ? calloc((size_t)rows, sizeof *list) : NULL;
    if (rows && !list) {
        PQclear(r);
        return STORE_EDB;
    }
    for (int i = 0; i < rows; i++) {
        store_input *in = &list[i];
        in->seq = strtoull(PQgetvalue(r, i, 0), NULL, 10);
        in->seat = atoi(PQgetvalue(r, i, 1));
        if (engine_input_kind_parse(PQgetvalue(r, i, 2), &in->kind) != 0)
            rc = STORE_EDB;
        snprintf(in->window, sizeof in->window, "%s", PQgetvalue(r, i, 3));
        if (!PQgetisnull(r, i, 4)) {
            in->payload =
                json_loads(PQgetvalue(r, i, 4), JSON_DECODE_ANY, NULL);
            if (!in->payload)
                rc = STORE_EDB;
        }
        const char *nonce = PQgetvalue(r, i, 5);
        if (*nonce) {
            in->has_nonce = 1;
            if (hex_to_bytes(nonce, in->nonce, ENGINE_NONCE_BYTES) != 0)
                rc = STORE_EDB;
        }
    }
    PQclear(r);
    if (rc) {
        store_inputs_free(list, (size_t)rows);
        log_error("store_corrupt_inputs", json_pack("{ss}", "game", game_id));
        return rc;
    }
    *out = list;
    *n = (size_t)rows;
    return STORE_OK;
}

void store_inputs_free(store_input *in, size_t n)
{
    for (size_t i = 0; i < n; i++)
        store_input_clear(&in[i]);
    free(in);
}

/* Deadlines outside an append (a batch writes its own, BATCH_DEADLINES): drop
 * the rows of windows not open any more ($2: their ids), add the new ones
 * ($2: window -> seconds; $3: the clock's rules). */
#define DEADLINES_GONE(COND)                                                   \
    "DELETE FROM deadlines WHERE game_id = $1 AND NOT (window_id = ANY "       \
    "(ARRAY(SELECT jsonb_array_elements_text($2::jsonb))))" COND
#define DEADLINES_NEW(COND)                                                    \
    "INSERT INTO deadlines (game_id, window_id, due_at) SELECT $1, w.key, "    \
    "clock_due(now(), w.value::integer, $3::jsonb) FROM "                      \
    "jsonb_each_text($2::jsonb) AS w WHERE w.value::integer > 0" COND          \
    " ON CONFLICT (game_id, window_id) DO NOTHING"
static const char DEADLINES_GONE_SQL[] = DEADLINES_GONE("");
static const char DEADLINES_NEW_SQL[] = DEADLINES_NEW("");
/* The deadline texts of windows: their ids (JSON array) and seconds (JSON
 * object). 0, or -1 when out of memory (nothing kept). */
static int deadline_texts(const engine_window *windows, int nwindows,
                          int clock_seconds, const int *window_seconds,
                          char **ids_text, char **secs_text)
{
    json_t *ids = json_array(), *secs = json_object();
    for (int i = 0; i < nwindows; i++) {
        json_array_append_new(ids, json_string(windows[i].id));
        json_object_set_new(
            secs, windows[i].id,
            json_integer(window_seconds ? window_seconds[i] : clock_seconds));
    }
    *ids_text = json_dumps(ids, JSON_COMPACT);
    *secs_text = json_dumps(secs, JSON_COMPACT);
    json_decref(ids);
    json_decref(secs);
    if (*ids_text && *secs_text)
        return 0;
    free(*ids_text);
    free(*secs_text);
    *ids_text = *secs_text = NULL;
    return -1;
}

int store_sync_deadlines(PGconn *c, const char *game_id,
                         const engine_window *windows, int nwindows,
                         int clock_seconds, const int *window_seconds,
                         const char *rules)
{
    char *ids_text, *secs_text;
    if (deadline_texts(windows, nwindows, clock_seconds, window_seconds,
                       &ids_text, &secs_text) != 0)
        return STORE_EDB;
    const char *p[] = {game_id, ids_text};
    int rc = exec_ok(c, PGRES_COMMAND_OK, DEADLINES_GONE_SQL, 2, p, NULL);
    if (!rc && clock_seconds > 0 && nwindows > 0) {
        const char *q[] = {game_id, secs_text, rules ? rules : "{}"};
        rc = exec_ok(c, PGRES_COMMAND_OK, DEADLINES_NEW_SQL, 3, q, NULL);
    }
    free(ids_text);
    free(secs_text);
    return rc;
}

/* The waits of a game: end the waits not wanted any more (recording an
 * answer by the input's own seat, or a miss when a timeout closed the
 * window, for seats a player holds who is not on vacation: a bot may
 * stand in then), then add the new ones; only when the game's row, read
 * by CUR, is at version $6. $2: the waits wanted ([{"w","s"}]); $3, $4,
 * $5: the input's seat, kind ("load": none) and window. */
#define WAITING_SQL(CUR)                                                       \
    "WITH cur AS (" CUR "), "                                                  \
    "want AS (SELECT x.w, x.s FROM jsonb_to_recordset($2::jsonb) "             \
    " AS x(w text, s integer) WHERE EXISTS (SELECT 1 FROM cur WHERE "          \
    " version = $6::bigint)), "                                                \
    "gone AS (DELETE FROM turns_waiting t WHERE t.game_id = $1 AND NOT "       \
    " EXISTS (SELECT 1 FROM want WHERE want.w = t.window_id AND "              \
    " want.s = t.seat) AND EXISTS (SELECT 1 FROM cur WHERE version = "         \
    " $6::bigint) RETURNING t.window_id, t.seat, t.since), "                   \
    "hist AS (INSERT INTO seat_windows (game_id, window_id, seat, "            \
    " player_id, opened_at, closed_at, missed) "                               \
    " SELECT $1, g.window_id, g.seat, s.player_id, g.since, now(), "           \
    " $4 = 'timeout' FROM gone g JOIN game_seats s ON s.game_id = $1 "         \
    " AND s.seat = g.seat WHERE s.player_id IS NOT NULL AND s.bot IS NULL "    \
    " AND $4 <> 'load' AND (g.seat = $3::integer OR ($4 = 'timeout' AND "      \
    " g.window_id = $5)) AND NOT EXISTS (SELECT 1 FROM vacations v WHERE "     \
    " v.player_id = s.player_id AND v.ends_at > now()) "                       \
    " ON CONFLICT DO NOTHING) "                                                \
    "INSERT INTO turns_waiting (game_id, window_id, seat) "                    \
    "SELECT $1, w, s FROM want ON CONFLICT DO NOTHING"

/* Outside an append: the row is locked (FOR SHARE) before anything is
 * written, and nothing is unless it is still at the version: a sync of a
 * game being loaded (version as loaded) then either runs before another
 * process's append of the next version (which waits for it and syncs
 * after) or sees that version and writes nothing; never stale rows over
 * newer ones. */
static const char WAITING_LOAD_SQL[] =
    WAITING_SQL("SELECT version FROM games WHERE game_id = $1 FOR SHARE");
/* The parameters of a waits statement. */
typedef struct waiting_text {
    char seat[16], ver[24];
    const char *params[6];
} waiting_text;

static void waiting_text_init(waiting_text *t, const char *game_id,
                              const char *waiting, const store_input *in,
                              uint64_t version)
{
    snprintf(t->seat, sizeof t->seat, "%d", in ? in->seat : -1);
    snprintf(t->ver, sizeof t->ver, "%llu", (unsigned long long)version);
    const char *p[] = {game_id,
                       waiting,
                       t->seat,
                       in ? engine_input_kind_name(in->kind) : "load",
                       in && in->window[0] ? in->window : "",
                       t->ver};
    memcpy(t->params, p, sizeof p);
}

int store_sync_waiting(PGconn *c, const char *game_id, const char *waiting,
                       const store_input *in, uint64_t version)
{
    waiting_text t = {0};
    waiting_text_init(&t, game_id, waiting, in, version);
    return exec_ok(c, PGRES_COMMAND_OK, WAITING_LOAD_SQL, 6, t.params, NULL);
}

/* ------------------------------------------------------ the batch ---- */

/* A batch of appends in one statement, from arrays (one element per
 * append, or per wait and per open window), atomic on its own:
 *   b      the appends: game, seq (= expected version + 1), the input's
 *          columns, the game's end (status, result, final hash) and
 *          whether one of its seated players listens (notify_listened.h);
 *   g      each game's version moves from seq - 1 to seq, only where it
 *          is still there and the game runs: the games that advanced (a
 *          stale append advances nothing and writes nothing else);
 *   i      their inputs; the primary key (game_id, seq) stops a second
 *          process that would write the same seq;
 *   f      a notification fact of the new version, for listened games;
 *   wa..   for appends whose waits changed: the waits not wanted any more
 *          end (answered by the input's seat, or missed when a timeout
 *          closed the window, recorded in seat_windows for seats a player
 *          holds who is not on vacation), the new ones are added;
 *   tally..  the windows that count in reputation from now on go into
 *          the players' summaries (BATCH_REP_WAITS);
 *   ca..   for clocked games: the deadlines of windows no longer open go,
 *          those of new windows come.
 * games and deadlines are reached through their key (`game_id = ANY
 * ($n)`), whatever plan the arrays' sizes would suggest. It returns the games
 * that advanced. Nothing runs per append but the rows: no trigger, no foreign
 * key (sql/015_batch_commit.sql). The text is BATCH_HEAD, the waits' part, the
 * reputation's part, the deadlines' part and BATCH_TAIL. */
static const char BATCH_HEAD[] =
    "WITH b AS (SELECT * FROM unnest($1::text[], $2::bigint[], "
    " $3::integer[], $4::text[], $5::text[], $6::text[], $7::text[], "
    " $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], "
    " $13::text[], $14::boolean[]) AS b(game_id, seq, seat, kind, "
    " window_id, payload, nonce, idem_key, request_hash, response, status, "
    " result, final_hash, listened)), "
    "g AS (UPDATE games SET version = b.seq, updated_at = now(), "
    " status = coalesce(b.status, games.status), "
    " result = coalesce(b.result::jsonb, games.result), "
    " final_hash = coalesce(b.final_hash, games.final_hash) FROM b "
    " WHERE games.game_id = ANY ($1::text[]) AND games.game_id = b.game_id "
    " AND games.version = b.seq - 1 AND "
    " games.status = 'running' RETURNING games.game_id, games.version, "
    " games.status, games.delay_versions, games.delay_seconds), "
    "i AS (INSERT INTO game_inputs (game_id, seq, seat, kind, window_id, "
    " payload, nonce, idem_key, request_hash, response) "
    " SELECT b.game_id, b.seq, b.seat, b.kind, b.window_id, b.payload, "
    " decode(b.nonce, 'hex'), b.idem_key, decode(b.request_hash, 'hex'), "
    " b.response::jsonb FROM b JOIN g ON g.game_id = b.game_id AND "
    " g.version = b.seq), "
    "f AS (INSERT INTO notify_facts (game_id, kind, version) "
    " SELECT g.game_id, 'version', g.version FROM g JOIN b ON "
    " b.game_id = g.game_id WHERE b.listened), ";
/* Present when a batch has waits to write; otherwise BATCH_NO_WAITS only
 * names the parameters' types (a CTE nobody reads is not run). */
static const char BATCH_WAITS[] =
    "wa AS (SELECT x.* FROM unnest($15::text[], $16::integer[], "
    " $17::text[], $18::text[]) AS x(game_id, seat, kind, window_id) "
    " WHERE x.game_id IN (SELECT game_id FROM g)), "
    "want AS (SELECT y.* FROM unnest($19::text[], $20::text[], "
    " $21::integer[]) AS y(game_id, window_id, seat) "
    " WHERE y.game_id IN (SELECT game_id FROM wa)), "
    "gone AS (DELETE FROM turns_waiting t USING wa WHERE "
    " t.game_id = wa.game_id AND NOT EXISTS "
    "(SELECT 1 FROM want WHERE "
    " want.game_id = t.game_id AND want.window_id = t.window_id AND "
    " want.seat = t.seat) RETURNING t.game_id, t.window_id, t.seat, "
    " t.since), "
    "hist AS (INSERT INTO seat_windows (game_id, window_id, seat, "
    " player_id, opened_at, closed_at, missed) "
    " SELECT o.game_id, o.window_id, o.seat, s.player_id, o.since, now(), "
    " wa.kind = 'timeout' FROM gone o JOIN wa ON wa.game_id = o.game_id "
    " JOIN game_seats s ON s.game_id = o.game_id AND s.seat = o.seat "
    " WHERE s.player_id IS NOT NULL AND s.bot IS NULL AND (o.seat = "
    " wa.seat OR (wa.kind = 'timeout' AND o.window_id = wa.window_id)) "
    " AND NOT EXISTS (SELECT 1 FROM vacations v WHERE v.player_id = "
    " s.player_id AND v.ends_at > now()) ON CONFLICT DO NOTHING "
    " RETURNING game_id, player_id, opened_at, closed_at, missed), "
    "came AS (INSERT INTO turns_waiting (game_id, window_id, seat) "
    " SELECT game_id, window_id, seat FROM want ON CONFLICT DO NOTHING), ";
static const char BATCH_NO_WAITS[] =
    "wa AS (SELECT $15::text[], $16::integer[], $17::text[], $18::text[], "
    " $19::text[], $20::text[], $21::integer[]), ";
/* The reputation summary (sql/017_reputation_summary.sql), in the same
 * statement: tally holds the windows that count from now on, folded into
 * the players' rows of reputation_counts in the order of its key (two
 * batches lock its rows in one order, so they cannot deadlock on them):
 *   - the windows this batch records (hist) of games without a spectator
 *     delay, and of games with a versions-only delay that this batch ends;
 *   - the windows recorded before of a game with a versions-only delay that
 *     this batch ends (the statement's snapshot holds them, not hist's);
 * a game with a seconds delay that this batch ends goes to
 * reputation_pending instead (reputation.h: reputation_fold_due). Without
 * waits the batch records no window (BATCH_REP_NO_WAITS). */
#define REP_ENDED_VERSIONS_ONLY                                                \
    " w.game_id = ANY (ARRAY(SELECT game_id FROM g WHERE status <> "           \
    " 'running' AND delay_versions > 0 AND delay_seconds = 0))"
#define REP_FOLD                                                               \
    "rep AS (INSERT INTO reputation_counts AS r (player_id, missed, "          \
    " buckets) SELECT player_id, count(*) FILTER (WHERE missed), "             \
    " reputation_add('{}', array_agg(reputation_bucket(false, took)) FILTER "  \
    " (WHERE NOT missed)) FROM tally GROUP BY 1 ORDER BY 1 ON CONFLICT "       \
    " (player_id) DO UPDATE SET missed = r.missed + excluded.missed, "         \
    " buckets = reputation_merge(r.buckets, excluded.buckets)), "              \
    "held AS (INSERT INTO reputation_pending (game_id, due_at) SELECT "        \
    " game_id, now() + make_interval(secs => delay_seconds) FROM g WHERE "     \
    " status <> 'running' AND delay_seconds > 0 ON CONFLICT DO NOTHING), "
static const char BATCH_REP_WAITS[] =
    "tally AS (SELECT h.player_id, h.missed, h.closed_at - h.opened_at AS "
    " took FROM hist h JOIN g ON g.game_id = h.game_id WHERE "
    " g.delay_seconds = 0 AND (g.delay_versions = 0 OR g.status <> "
    " 'running') UNION ALL SELECT w.player_id, w.missed, w.closed_at - "
    " w.opened_at FROM seat_windows w WHERE" REP_ENDED_VERSIONS_ONLY
    "), " REP_FOLD;
static const char BATCH_REP_NO_WAITS[] =
    "tally AS (SELECT w.player_id, w.missed, w.closed_at - w.opened_at AS "
    " took FROM seat_windows w WHERE" REP_ENDED_VERSIONS_ONLY "), " REP_FOLD;
/* Present when a batch has a clocked game; otherwise BATCH_NO_DEADLINES. */
static const char BATCH_DEADLINES[] =
    "ca AS (SELECT x.* FROM unnest($22::text[], $23::text[]) AS "
    " x(game_id, rules) WHERE x.game_id IN (SELECT game_id FROM g)), "
    "ow AS (SELECT y.* FROM unnest($24::text[], $25::text[], "
    " $26::integer[]) AS y(game_id, window_id, secs) "
    " WHERE y.game_id IN (SELECT game_id FROM ca)), "
    "dgone AS (DELETE FROM deadlines d USING ca WHERE d.game_id = "
    " ANY ($22::text[]) AND d.game_id = ca.game_id AND NOT EXISTS (SELECT 1 "
    "FROM ow WHERE ow.game_id = "
    " d.game_id AND ow.window_id = d.window_id)), "
    "dnew AS (INSERT INTO deadlines (game_id, window_id, due_at) "
    " SELECT ow.game_id, ow.window_id, clock_due(now(), ow.secs, "
    " ca.rules::jsonb) FROM ow JOIN ca ON ca.game_id = ow.game_id "
    " WHERE ow.secs > 0 ON CONFLICT (game_id, window_id) DO NOTHING) ";
static const char BATCH_NO_DEADLINES[] =
    "ca AS (SELECT $22::text[], $23::text[], $24::text[], $25::text[], "
    " $26::integer[]) ";
static const char BATCH_TAIL[] = "SELECT game_id FROM g";

/* The four texts of the batch statement, [has waits][has deadlines]: built
 * once (each is prepared once per connection, db_stmt.h). */
static char *batch_texts[2][2];
static pthread_once_t batch_texts_once = PTHREAD_ONCE_INIT;

static void batch_texts_build(void)
{
    for (int w = 0; w < 2; w++)
        for (int d = 0; d < 2; d++) {
            const char *parts[] = {BATCH_HEAD, w ? BATCH_WAITS : BATCH_NO_WAITS,
                                   w ? BATCH_REP_WAITS : BATCH_REP_NO_WAITS,
                                   d ? BATCH_DEADLINES : BATCH_NO_DEADLINES,
                                   BATCH_TAIL};
            size_t len = 1, at = 0;
            for (int i = 0; i < 5; i++)
                len += strlen(parts[i]);
            char *text = malloc(len);
            for (int i = 0; text && i < 5; i++) {
                size_t n = strlen(parts[i]);
                memcpy(text + at, parts[i], n);
                at += n;
            }
            if (text)
                text[at] = '\0';
            batch_texts[w][d] = text; /* kept for the process's life */
        }
}

/* The batch statement's text for a batch with (or without) waits and
 * deadlines; NULL when out of memory. */
static const char *batch_text(int waits, int deadlines)
{
    pthread_once(&batch_texts_once, batch_texts_build);
    return batch_texts[waits != 0][deadlines != 0];
}

enum {
    B_GAME,
    B_SEQ,
    B_SEAT,
    B_KIND,
    B_WINDOW,
    B_PAYLOAD,
    B_NONCE,
    B_IDEM,
    B_REQ,
    B_RESPONSE,
    B_STATUS,
    B_RESULT,
    B_HASH,
    B_LISTENED,
    W_GAME,
    W_SEAT,
    W_KIND,
    W_WINDOW,
    WANT_GAME,
    WANT_WINDOW,
    WANT_SEAT,
    C_GAME,
    C_RULES,
    O_GAME,
    O_WINDOW,
    O_SECS,
    BATCH_PARAMS
};

/* The array parameters of one batch statement. */
typedef struct batch_arrays {
    pg_array a[BATCH_PARAMS];
    const char *params[BATCH_PARAMS];
} batch_arrays;

/* The input columns of append a into t. */
static void add_input(batch_arrays *t, const store_append *a)
{
    const store_input *in = a->input;
    char nonce_hex[2 * ENGINE_NONCE_BYTES + 1], req_hex[65];
    if (in->has_nonce)
        engine_hex(in->nonce, ENGINE_NONCE_BYTES, nonce_hex);
    if (a->idem_key)
        engine_hex(a->request_hash, 32, req_hex);
    char *payload = in->payload ? engine_canonical_json(in->payload) : NULL;
    char *response =
        a->response ? json_dumps(a->response, JSON_COMPACT | JSON_SORT_KEYS)
                    : NULL;
    char *result = a->final_status && a->result
                       ? json_dumps(a->result, JSON_COMPACT | JSON_SORT_KEYS)
                       : NULL;
    if ((in->payload && !payload) || (a->response && !response) ||
        (a->final_status && a->result && !result))
        t->a[B_GAME].oom = 1;
    pg_array_add(&t->a[B_GAME], a->game_id);
    pg_array_add_int(&t->a[B_SEQ], (long long)a->expected_version + 1);
    if (in->seat == ENGINE_PUBLIC)
        pg_array_add(&t->a[B_SEAT], NULL);
    else
        pg_array_add_int(&t->a[B_SEAT], in->seat);
    pg_array_add(&t->a[B_KIND], engine_input_kind_name(in->kind));
    pg_array_add(&t->a[B_WINDOW], in->window[0] ? in->window : NULL);
    pg_array_add(&t->a[B_PAYLOAD], payload);
    pg_array_add(&t->a[B_NONCE], in->has_nonce ? nonce_hex : NULL);
    pg_array_add(&t->a[B_IDEM], a->idem_key);
    pg_array_add(&t->a[B_REQ], a->idem_key ? req_hex : NULL);
    pg_array_add(&t->a[B_RESPONSE], response);
    pg_array_add(&t->a[B_STATUS], a->final_status);
    pg_array_add(&t->a[B_RESULT], result);
    pg_array_add(&t->a[B_HASH], a->final_hash);
    pg_array_add(&t->a[B_LISTENED], a->listened ? "t" : "f");
    free(payload);
    free(response);
    free(result);
}

/* The waits of append a (a->waiting: [{"w","s"}]) into t. -1 when the
 * text does not parse. */
static int add_waits(batch_arrays *t, const store_append *a)
{
    json_t *list = json_loads(a->waiting, 0, NULL);
    if (!json_is_array(list)) {
        json_decref(list);
        return -1;
    }
    const store_input *in = a->input;
    pg_array_add(&t->a[W_GAME], a->game_id);
    pg_array_add_int(&t->a[W_SEAT], in->seat);
    pg_array_add(&t->a[W_KIND], engine_input_kind_name(in->kind));
    pg_array_add(&t->a[W_WINDOW], in->window);
    size_t i;
    json_t *w;
    json_array_foreach(list, i, w)
    {
        const char *win = json_string_value(json_object_get(w, "w"));
        json_t *seat = json_object_get(w, "s");
        if (!win || !json_is_integer(seat)) {
            json_decref(list);
            return -1;
        }
        pg_array_add(&t->a[WANT_GAME], a->game_id);
        pg_array_add(&t->a[WANT_WINDOW], win);
        pg_array_add_int(&t->a[WANT_SEAT], json_integer_value(seat));
    }
    json_decref(list);
    return 0;
}

/* The deadlines of append a (a clocked game) into t. */
static void add_deadlines(batch_arrays *t, const store_append *a)
{
    pg_array_add(&t->a[C_GAME], a->game_id);
    pg_array_add(&t->a[C_RULES], a->clock_rules ? a->clock_rules : "{}");
    for (int i = 0; i < a->nwindows; i++) {
        pg_array_add(&t->a[O_GAME], a->game_id);
        pg_array_add(&t->a[O_WINDOW], a->windows[i].id);
        pg_array_add_int(&t->a[O_SECS], a->window_seconds ? a->window_seconds[i]
                                                          : a->clock_seconds);
    }
}

static void batch_arrays_clear(batch_arrays *t)
{
    for (int i = 0; i < BATCH_PARAMS; i++)
        pg_array_free(&t->a[i]);
}

/* Fill t with the n appends of list. 0, or -1 (out of memory, or waits
 * that do not parse): then t only needs clearing. */
static int batch_arrays_init(batch_arrays *t, const store_append *const *list,
                             int n)
{
    for (int i = 0; i < BATCH_PARAMS; i++)
        pg_array_init(&t->a[i]);
    for (int i = 0; i < n; i++) {
        add_input(t, list[i]);
        if (list[i]->waiting && add_waits(t, list[i]) != 0)
            return -1;
        if (list[i]->clock_seconds > 0)
            add_deadlines(t, list[i]);
    }
    for (int i = 0; i < BATCH_PARAMS; i++)
        if (!(t->params[i] = pg_array_text(&t->a[i])))
            return -1;
    return 0;
}

/* Whether the input finishes a game whose ruleset keeps player records:
 * then they are folded in the batch's transaction. */
static int append_folds_records(const store_append *a)
{
    return a->keeps_records && a->final_status && a->result &&
           strcmp(a->final_status, "finished") == 0;
}

static const char NOTIFY_VERSIONS_SQL[] =
    "SELECT pg_notify('conclave_games', v) FROM "
    "jsonb_array_elements_text($1::jsonb) AS v";

/* The NOTIFY payloads ("game_id:version", a JSON array) of the appends of
 * list whose rcs is STORE_OK (every append when rcs is NULL). NULL when
 * out of memory; "[]" when none. */
static char *notify_text(const store_append *const *list, int n, const int *rcs)
{
    json_t *all = json_array();
    for (int i = 0; all && i < n; i++) {
        if (rcs && rcs[i] != STORE_OK)
            continue;
        char one[STORE_ID_MAX + 24];
        snprintf(one, sizeof one, "%s:%llu", list[i]->game_id,
                 (unsigned long long)list[i]->expected_version + 1);
        json_array_append_new(all, json_string(one));
    }
    char *text = all ? json_dumps(all, JSON_COMPACT) : NULL;
    json_decref(all);
    return text;
}

/* NOTIFY the committed appends of list (rcs STORE_OK), in a statement of
 * its own after their commit; a failure is logged only. */
static void notify_committed(PGconn *c, const store_append *const *list, int n,
                             const int *rcs)
{
    char *text = notify_text(list, n, rcs);
    const char *p[] = {text};
    if (text && strcmp(text, "[]") != 0 &&
        exec_ok(c, PGRES_TUPLES_OK, NOTIFY_VERSIONS_SQL, 1, p, NULL) !=
            STORE_OK)
        log_warn("notify_failed", json_pack("{si}", "games", n));
    free(text);
}

/* The seats of the games a batch ended no longer count as running
 * (sql/019_running_seats.sql: the running-games quota reads only those).
 * $1: the games of the batch's appends that end them; only those the batch
 * statement before it did end (a stale append ends nothing). Both tables
 * are reached through the games' keys (`= ANY ($1)` on each side): the
 * writers plan generically, and with the key on one side only the plan
 * scans the other table whole; a test on `running` would read the whole
 * partial index of running seats. */
static const char ENDS_SQL[] =
    "UPDATE game_seats s SET running = false FROM games g WHERE s.game_id = "
    "ANY ($1::text[]) AND g.game_id = ANY ($1::text[]) AND g.game_id = "
    "s.game_id AND g.status <> 'running'";

/* What a batch's pipeline sends, in order: BEGIN, the batch statement,
 * ENDS_SQL when an append ends its game, then (commit set) COMMIT and the
 * NOTIFY in a transaction of its own. */
enum { ST_BEGIN, ST_BATCH, ST_ENDS, ST_COMMIT, ST_NOTIFY, ST_COUNT };

/* rcs from the batch statement's rows (the games that advanced): STORE_OK
 * for those, STORE_ECONFLICT for the others (a stale expected version). */
static void advanced_rcs(PGresult *r, const store_append *const *list, int n,
                         int *rcs)
{
    for (int i = 0; i < n; i++)
        rcs[i] = STORE_ECONFLICT;
    for (int row = 0; row < PQntuples(r); row++)
        for (int i = 0; i < n; i++)
            if (strcmp(PQgetvalue(r, row, 0), list[i]->game_id) == 0)
                rcs[i] = STORE_OK;
}

/* Read the results of the pipeline's nsent statements (sent[i]: which
 * one, in order), up to the sync: rcs from the batch statement. STORE_OK,
 * or STORE_EDB when a statement failed (its SQLSTATE into state). */
static int batch_results(PGconn *c, const store_append *const *list, int n,
                         const int *sent, int nsent, int *rcs, char state[6])
{
    int at = 0, failed = 0;
    for (;;) {
        PGresult *r = PQgetResult(c);
        if (!r) { /* the end of one statement's results */
            if (++at > nsent || PQstatus(c) != CONNECTION_OK)
                return STORE_EDB;
            continue;
        }
        ExecStatusType status = PQresultStatus(r);
        if (status == PGRES_PIPELINE_SYNC) {
            PQclear(r);
            break;
        }
        int st = at < nsent ? sent[at] : ST_COUNT;
        ExecStatusType want = st == ST_BATCH || st == ST_NOTIFY
                                  ? PGRES_TUPLES_OK
                                  : PGRES_COMMAND_OK;
        if (st == ST_NOTIFY) {
            if (status != want)
                log_warn("notify_failed", json_pack("{si}", "games", n));
        } else if (status != want) {
            const char *s = PQresultErrorField(r, PG_DIAG_SQLSTATE);
            if (!failed && s)
                snprintf(state, 6, "%s", s);
            failed = 1;
            if (status == PGRES_FATAL_ERROR) {
                const char *m = PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY);
                log_info("append_batch_failed",
                         json_pack("{ss}", "error", m ? m : ""));
            }
        } else if (st == ST_BATCH) {
            advanced_rcs(r, list, n, rcs);
        }
        PQclear(r);
    }
    return failed ? STORE_EDB : STORE_OK;
}

/* The game ids of the appends of list that end their game, as a text
 * array (pg_array.h) into ends; 0 when none does, 1 when some do, -1 when
 * out of memory. */
static int ended_games(const store_append *const *list, int n, pg_array *ends,
                       const char **text)
{
    pg_array_init(ends);
    int any = 0;
    for (int i = 0; i < n; i++)
        if (list[i]->final_status) {
            pg_array_add(ends, list[i]->game_id);
            any = 1;
        }
    if (!any)
        return 0;
    return (*text = pg_array_text(ends)) ? 1 : -1;
}

/* The n appends of list in one pipeline and one round trip: BEGIN, the
 * batch statement, ENDS_SQL when an append ends its game, and when commit
 * is set COMMIT and the NOTIFY. STORE_OK
 * (rcs set), or STORE_EDB when a statement failed (its SQLSTATE in state)
 * or the connection broke; then nothing was committed unless the
 * connection broke after the COMMIT was sent (an unknown outcome, as for
 * any lost commit). */
static int pipeline_batch(PGconn *c, const store_append *const *list, int n,
                          int commit, int *rcs, char state[6])
{
    batch_arrays t;
    int filled = batch_arrays_init(&t, list, n);
    char *notify = commit ? notify_text(list, n, NULL) : NULL;
    pg_array ends;
    const char *ends_text = NULL;
    int ending = ended_games(list, n, &ends, &ends_text);
    if (filled != 0 || (commit && !notify) || ending < 0 ||
        !PQenterPipelineMode(c)) {
        batch_arrays_clear(&t);
        pg_array_free(&ends);
        free(notify);
        return STORE_EDB;
    }
    int waits = 0, clocks = 0;
    for (int i = 0; i < n; i++) {
        waits |= list[i]->waiting != NULL;
        clocks |= list[i]->clock_seconds > 0;
    }
    const char *batch_sql = batch_text(waits, clocks);
    const char *texts[ST_COUNT] = {"BEGIN", batch_sql, ENDS_SQL, "COMMIT",
                                   NOTIFY_VERSIONS_SQL};
    const int nparams[ST_COUNT] = {0, BATCH_PARAMS, 1, 0, 1};
    const char *np[] = {notify}, *ep[] = {ends_text};
    const char *const *params[ST_COUNT] = {NULL, t.params, ep, NULL, np};
    /* Every append's "game:version" is true once the batch commits, even
     * a stale one's (the store is past its expected version), and after
     * an error the pipeline skips it: so the NOTIFY rides behind the
     * COMMIT, in a transaction of its own, in this round trip. */
    int order[ST_COUNT], nsent = 0;
    for (int st = ST_BEGIN; st < ST_COUNT; st++)
        if ((st != ST_ENDS || ending) &&
            (commit || (st != ST_COMMIT && st != ST_NOTIFY)))
            order[nsent++] = st;
    int parses = batch_sql ? 0 : -1;
    for (int i = 0; i < nsent && parses >= 0; i++) {
        int q = db_stmt_queue_parse(c, texts[order[i]], nparams[order[i]]);
        parses = q < 0 ? -1 : parses + q;
    }
    int sent = parses >= 0;
    for (int i = 0; sent && i < nsent; i++)
        sent = db_stmt_send(c, texts[order[i]], nparams[order[i]],
                            params[order[i]]);
    batch_arrays_clear(&t);
    pg_array_free(&ends);
    free(notify);
    db_count_round_trip();
    int rc = STORE_EDB; /* unsent: the caller drops the connection */
    if (sent && PQpipelineSync(c)) {
        int parsed = db_stmt_parsed(c, parses);
        rc = batch_results(c, list, n, order, nsent, rcs, state);
        if (parsed != 0)
            rc = STORE_EDB;
        if (!PQexitPipelineMode(c))
            rc = STORE_EDB;
    }
    return rc;
}

/* One try at committing the n appends of list together: STORE_OK with
 * rcs set, or STORE_EDB (state: the failing statement's SQLSTATE, "" if
 * none): nothing was committed when a statement failed; with the
 * connection lost after the COMMIT was sent, the outcome is unknown. */
static int batch_once(PGconn *c, const store_append *const *list, int n,
                      int *rcs, char state[6])
{
    int records = 0;
    state[0] = '\0';
    for (int i = 0; i < n; i++) {
        rcs[i] = STORE_EDB;
        records |= append_folds_records(list[i]);
    }
    /* A batch with a game whose end folds records commits after those
     * folds (their reads and writes need the engine's record hook in
     * between). */
    int rc = pipeline_batch(c, list, n, !records, rcs, state);
    for (int i = 0; rc == STORE_OK && records && i < n; i++)
        if (rcs[i] == STORE_OK && append_folds_records(list[i]) &&
            records_game_finished(c, list[i]->game_id, list[i]->result))
            rc = STORE_EDB;
    if (rc == STORE_OK && records)
        rc = exec_ok(c, PGRES_COMMAND_OK, "COMMIT", 0, NULL, NULL);
    if (rc == STORE_OK && records)
        notify_committed(c, list, n, rcs);
    if (rc != STORE_OK)
        for (int i = 0; i < n; i++)
            rcs[i] = STORE_EDB;
    return rc;
}

/* Whether two appends of list are for one game (then the batch statement
 * could not tell their outcomes apart). */
static int same_game_twice(const store_append *const *list, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (strcmp(list[i]->game_id, list[j]->game_id) == 0)
                return 1;
    return 0;
}

static int connection_lost(PGconn *c)
{
    return PQpipelineStatus(c) != PQ_PIPELINE_OFF ||
           PQstatus(c) != CONNECTION_OK;
}

int store_append_batch(PGconn *c, const store_append *const *list, int n,
                       int *rcs)
{
    char state[6];
    if (n > 1 && !same_game_twice(list, n) &&
        batch_once(c, list, n, rcs, state) == STORE_OK)
        return STORE_OK;
    if (n > 1 && connection_lost(c))
        return STORE_EDB;
    /* A statement failed (an idempotency key taken meanwhile, a deadlock
     * with another process), or one game came twice: nothing was
     * committed, so each append is tried on its own and only the failing
     * one is refused (a unique violation or a serialization failure is a
     * conflict). */
    for (int i = 0; i < n; i++) {
        rollback(c);
        if (batch_once(c, &list[i], 1, &rcs[i], state) == STORE_OK)
            continue;
        if (connection_lost(c)) {
            /* The appends before i keep their own answers (one whose
             * COMMIT succeeded stays committed); i's outcome is unknown
             * and the rest were not tried. */
            for (int j = i; j < n; j++)
                rcs[j] = STORE_EDB;
            return STORE_EDB;
        }
        rcs[i] = strcmp(state, "23505") == 0 || strcmp(state, "40001") == 0
                     ? STORE_ECONFLICT
                     : STORE_EDB;
    }
    rollback(c);
    return STORE_OK;
}

int store_append_input(PGconn *c, const store_append *a)
{
    int rc = STORE_EDB;
    if (store_append_batch(c, &a, 1, &rc) != STORE_OK)
        return STORE_EDB;
    return rc;
}

int store_notify_version(PGconn *c, const char *game_id, uint64_t version)
{
    char notify[STORE_ID_MAX + 24];
    snprintf(notify, sizeof notify, "%s:%llu", game_id,
             (unsigned long long)version);
    /* In a transaction of its own, after the append's commit: a NOTIFY
     * inside the append would hold Postgres's notify lock until the commit
     * is flushed, serialising every game's commits. */
    const char *pn[] = {notify};
    int rc = exec_ok(c, PGRES_TUPLES_OK,
                     "SELECT pg_notify('conclave_games', $1)", 1, pn, NULL);
    if (rc != STORE_OK)
        log_warn("notify_failed", json_pack("{ss}", "game", game_id));
    return rc;
}

int store_write_snapshot(PGconn *c, const char *game_id, uint64_t seq,
                         const json_t *state, const char *state_hash)
{
    char seq_s[24];
    snprintf(seq_s, sizeof seq_s, "%llu", (unsigned long long)seq);
    char *text = engine_canonical_json(state);
    if (!text)
        return STORE_EDB;
    const char *p[] = {game_id, seq_s, text, state_hash};
    int rc = exec_ok(c, PGRES_COMMAND_OK,
                     "INSERT INTO game_snapshots (game_id, seq, state, "
                     "state_hash) VALUES ($1, $2::bigint, $3, $4) "
                     "ON CONFLICT (game_id, seq) DO NOTHING",
                     4, p, NULL);
    free(text);
    return rc;
}

int store_find_idempotent(PGconn *c, const char *game_id, int seat,
                          const char *key, uint8_t request_hash[32],
                          json_t **response)
{
    *response = NULL;
    char seat_s[16];
    snprintf(seat_s, sizeof seat_s, "%d", seat);
    const char *p[] = {game_id, seat_s, key};
    PGresult *r;
    int rc = exec_ok(c, PGRES_TUPLES_OK,
                     "SELECT encode(request_hash, 'hex'), response::text "
                     "FROM game_inputs WHERE game_id = $1 AND seat = "
                     "$2::integer AND idem_key = $3",
                     3, p, &r);
    if (rc)
        return rc;
    if (PQntuples(r) != 1) {
        PQclear(r);
        return STORE_ENOTFOUND;
    }
    if (hex_to_bytes(PQgetvalue(r, 0, 0), request_hash, 32) != 0)
        rc = STORE_EDB;
    else
        *response = json_loads(PQgetvalue(r, 0, 1), 0, NULL);
    PQclear(r);
    return rc;
}

int store_load_deadlines(PGconn *c, const char *game_id, json_t **out)
{
    *out = NULL;
    const char *p[] = {game_id};
    PGresult *r;
    int rc = exec_ok(c, PGRES_TUPLES_OK,
                     "SELECT window_id, to_char(due_at AT TIME ZONE 'UTC', "
                     "'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"') FROM deadlines "
                     "WHERE game_id = $1",
                     1, p, &r);
    if (rc)
        return rc;
    *out = json_object();
    for (int i = 0; i < PQntuples(r); i++)
        json_object_set_new(*out, PQgetvalue(r, i, 0),
                            json_string(PQgetvalue(r, i, 1)));
    PQclear(r);
    return STORE_OK;
}

int store_load_final(PGconn *c, const char *game_id, char *final_hash,
                     json_t **result)
{
    *result = NULL;
    final_hash[0] = '\0';
    const char *p[] = {game_id};
    PGresult *r;
    int rc = exec_ok(c, PGRES_TUPLES_OK,
                     "SELECT coalesce(final_hash, ''), coalesce(result::text, "
                     "'null') FROM games WHERE game_id = $1",
                     1, p, &r);
    if (rc)
        return rc;
    if (PQntuples(r) != 1) {
        PQclear(r);
        return STORE_ENOTFOUND;
    }
    snprintf(final_hash, 2 * ENGINE_HASH_BYTES + 1, "%s", PQgetvalue(r, 0, 0));
    json_t *res = json_loads(PQgetvalue(r, 0, 1), JSON_DECODE_ANY, NULL);
    if (json_is_null(res)) {
        json_decref(res);
        res = NULL;
    }
    *result = res;
    PQclear(r);
    return STORE_OK;
}

int store_seq_older_than(PGconn *c, const char *game_id, uint64_t upto,
                         int seconds, uint64_t *seq)
{
    char max[24], secs[16];
    snprintf(max, sizeof max, "%" PRIu64, upto > INT64_MAX ? INT64_MAX : upto);
    snprintf(secs, sizeof secs, "%d", seconds);
    const char *p[] = {game_id, max, secs};
    PGresult *r;
    *seq = 0;
    int rc = exec_ok(c, PGRES_TUPLES_OK,
                     "SELECT coalesce(max(seq), 0) FROM game_inputs WHERE "
                     "game_id = $1 AND seq <= $2::bigint AND created_at <= "
                     "now() - make_interval(secs => $3::integer)",
                     3, p, &r);
    if (rc)
        return rc;
    if (PQntuples(r) == 1)
        *seq = strtoull(PQgetvalue(r, 0, 0), NULL, 10);
    PQclear(r);
    return STORE_OK;
}

int store_input_ages(PGconn *c, const char *game_id, uint64_t after,
                     uint64_t upto, double *ages)
{
    char lo[24], hi[24];
    snprintf(lo, sizeof lo, "%" PRIu64, after);
    snprintf(hi, sizeof hi, "%" PRIu64, upto);
    const char *p[] = {game_id, lo, hi};
    PGresult *r;
    for (uint64_t s = after; s < upto; s++)
        ages[s - after] = 0;
    int rc = exec_ok(c, PGRES_TUPLES_OK,
                     "SELECT seq, extract(epoch FROM now() - created_at) FROM "
                     "game_inputs WHERE game_id = $1 AND seq > $2::bigint AND "
                     "seq <= $3::bigint",
                     3, p, &r);
    if (rc)
        return rc;
    for (int i = 0; i < PQntuples(r); i++) {
        uint64_t s = strtoull(PQgetvalue(r, i, 0), NULL, 10);
        if (s > after && s <= upto)
            ages[s - after - 1] = strtod(PQgetvalue(r, i, 1), NULL);
    }
    PQclear(r);
    return STORE_OK;
}

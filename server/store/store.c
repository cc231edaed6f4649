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

#include "server/players/records.h"
#include "server/runtime/log.h"

#include <inttypes.h>
#include <openssl/rand.h>
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
                       bt};
    int rc =
        pl && bt && options
            ? exec_ok(c, PGRES_COMMAND_OK,
                      "WITH g AS (INSERT INTO games (game_id, lobby_id, "
                      "ruleset, options, seat_count, seed, seed_sha256, "
                      "clock_mode, clock_seconds, delay_versions, "
                      "delay_seconds, clock_rules) VALUES ($1, $2, $3, "
                      "$4::jsonb, $5::integer, decode($6, 'hex'), $7, $8, "
                      "$9::integer, $10::integer, $11::integer, $12::jsonb) "
                      "RETURNING game_id) "
                      "INSERT INTO game_seats (game_id, seat, player_id, bot) "
                      "SELECT g.game_id, i, nullif($13::jsonb ->> i, ''), "
                      "nullif($14::jsonb ->> i, '') FROM g, "
                      "generate_series(0, $5::integer - 1) AS i",
                      14, p, NULL)
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

/* The condition that the game's row was last written by the current
 * transaction at version $V: an append's follow-ups, sent in one pipeline
 * behind it, write only when that append happened (a stale one wrote
 * nothing, and the row is then another transaction's). */
#define APPENDED_HERE(V)                                                       \
    "EXISTS (SELECT 1 FROM games ours WHERE ours.game_id = $1 AND "            \
    "ours.version = " V "::bigint AND ours.xmin = "                            \
    "pg_current_xact_id_if_assigned()::xid)"

/* Deadlines: drop the rows of windows not open any more ($2: their ids),
 * add the new ones ($2: window -> seconds; $3: the clock's rules). The
 * append forms take the version as $3 and $4. */
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
static const char DEADLINES_GONE_APPEND_SQL[] =
    DEADLINES_GONE(" AND " APPENDED_HERE("$3"));
static const char DEADLINES_NEW_APPEND_SQL[] =
    DEADLINES_NEW(" AND " APPENDED_HERE("$4"));

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
/* Behind an append in its transaction: only when that append happened
 * (the row is then locked by it). */
static const char WAITING_APPEND_SQL[] =
    WAITING_SQL("SELECT version FROM games WHERE game_id = $1 AND xmin = "
                "pg_current_xact_id_if_assigned()::xid");

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

/* One append's statement: bumps the version from the expected one (and
 * records the end of the game) and inserts the input only if that row
 * moved, so a stale expected version inserts nothing (0 rows) and fails
 * nothing else: atomic on its own, and safe next to other games' appends
 * in one transaction. */
static const char APPEND_SQL[] =
    "WITH g AS (UPDATE games SET version = version + 1, "
    " updated_at = now(), status = coalesce($11, status), "
    " result = coalesce($12::jsonb, result), "
    " final_hash = coalesce($13, final_hash) "
    " WHERE game_id = $1 AND version = $2::bigint - 1 AND "
    " status = 'running' RETURNING game_id) "
    "INSERT INTO game_inputs (game_id, seq, seat, kind, "
    "window_id, payload, nonce, idem_key, request_hash, response) "
    "SELECT g.game_id, $2::bigint, $3::integer, $4, $5, $6, "
    "decode($7, 'hex'), $8, decode($9, 'hex'), $10::jsonb FROM g";

/* The text parameters of one append's statement. */
typedef struct append_text {
    char seq[24], seat[16], nonce_hex[2 * ENGINE_NONCE_BYTES + 1], req_hex[65];
    char *payload, *response, *result; /* owned */
    const char *params[13];
} append_text;

static void append_text_init(append_text *t, const store_append *a)
{
    const store_input *in = a->input;
    snprintf(t->seq, sizeof t->seq, "%llu",
             (unsigned long long)a->expected_version + 1);
    snprintf(t->seat, sizeof t->seat, "%d", in->seat);
    if (in->has_nonce)
        engine_hex(in->nonce, ENGINE_NONCE_BYTES, t->nonce_hex);
    if (a->idem_key)
        engine_hex(a->request_hash, 32, t->req_hex);
    t->payload = in->payload ? engine_canonical_json(in->payload) : NULL;
    t->response = a->response
                      ? json_dumps(a->response, JSON_COMPACT | JSON_SORT_KEYS)
                      : NULL;
    t->result = a->final_status && a->result
                    ? json_dumps(a->result, JSON_COMPACT | JSON_SORT_KEYS)
                    : NULL;
    const char *p[] = {a->game_id,
                       t->seq,
                       in->seat == ENGINE_PUBLIC ? NULL : t->seat,
                       engine_input_kind_name(in->kind),
                       in->window[0] ? in->window : NULL,
                       t->payload,
                       in->has_nonce ? t->nonce_hex : NULL,
                       a->idem_key,
                       a->idem_key ? t->req_hex : NULL,
                       t->response,
                       a->final_status,
                       t->result,
                       a->final_hash};
    memcpy(t->params, p, sizeof p);
}

static void append_text_clear(append_text *t)
{
    free(t->payload);
    free(t->response);
    free(t->result);
}

/* Whether the input finishes a game whose ruleset keeps player records:
 * then they are folded in the append's transaction. */
static int append_folds_records(const store_append *a)
{
    return a->keeps_records && a->final_status && a->result &&
           strcmp(a->final_status, "finished") == 0;
}

/* Whether the append writes more than its one statement (deadlines of a
 * clocked game, waits, records of a finished one): then it needs a
 * transaction. */
static int append_has_follow_ups(const store_append *a)
{
    return a->clock_seconds > 0 || append_folds_records(a) || a->waiting;
}

/* The append's statement and its follow-ups, inside an open transaction
 * (or alone, when it has none). STORE_ECONFLICT when the version moved on. */
static int append_body(PGconn *c, const store_append *a)
{
    append_text t = {0};
    append_text_init(&t, a);
    PGresult *r = NULL;
    int rc = exec_ok(c, PGRES_COMMAND_OK, APPEND_SQL, 13, t.params, &r);
    append_text_clear(&t);
    if (!rc && strcmp(PQcmdTuples(r), "1") != 0)
        rc = STORE_ECONFLICT; /* the version moved on */
    PQclear(r);
    if (!rc && a->clock_seconds > 0)
        rc = store_sync_deadlines(c, a->game_id, a->windows, a->nwindows,
                                  a->clock_seconds, a->window_seconds,
                                  a->clock_rules);
    if (!rc && a->waiting)
        rc = store_sync_waiting(c, a->game_id, a->waiting, a->input,
                                a->expected_version + 1);
    if (!rc && append_folds_records(a) &&
        records_game_finished(c, a->game_id, a->result))
        rc = STORE_EDB;
    return rc;
}

int store_append_input(PGconn *c, const store_append *a)
{
    /* A game without a clock whose waits do not change and that does not
     * fold records here commits in one round trip (the statement alone);
     * otherwise the follow-ups join it in one transaction. */
    int txn = append_has_follow_ups(a);
    int rc =
        txn ? exec_ok(c, PGRES_COMMAND_OK, "BEGIN", 0, NULL, NULL) : STORE_OK;
    if (!rc)
        rc = append_body(c, a);
    if (!rc && txn)
        rc = exec_ok(c, PGRES_COMMAND_OK, "COMMIT", 0, NULL, NULL);
    if (rc)
        rollback(c);
    return rc;
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

/* One statement of a batch's pipeline: the append it belongs to (-1:
 * BEGIN or COMMIT) and whether it is that append's own statement. */
typedef struct batch_stmt {
    int append;
    int is_append;
    int is_notify; /* the NOTIFY after the COMMIT: its failure is logged
                      only, the batch being committed by then */
} batch_stmt;

/* Queue the Parses of the texts a batch of n appends sends (db_stmt.h).
 * How many were queued, or -1. */
static int batch_parses(PGconn *c, const store_append *const *list, int n,
                        int commit)
{
    int waits = 0, clocks = 0;
    for (int i = 0; i < n; i++) {
        waits |= list[i]->waiting != NULL;
        clocks |= list[i]->clock_seconds > 0;
    }
    const char *texts[] = {"BEGIN",
                           APPEND_SQL,
                           waits ? WAITING_APPEND_SQL : NULL,
                           clocks ? DEADLINES_GONE_APPEND_SQL : NULL,
                           clocks ? DEADLINES_NEW_APPEND_SQL : NULL,
                           commit ? "COMMIT" : NULL,
                           commit ? NOTIFY_VERSIONS_SQL : NULL};
    const int nparams[] = {0, 13, 6, 3, 4, 0, 1};
    int queued = 0;
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        int q = texts[i] ? db_stmt_queue_parse(c, texts[i], nparams[i]) : 0;
        if (q < 0)
            return -1;
        queued += q;
    }
    return queued;
}

/* Send the deadline follow-ups of a (a clocked game) in the pipeline. */
static int send_deadlines(PGconn *c, const store_append *a, const char *ver,
                          int index, batch_stmt *st, int *ns)
{
    char *ids_text, *secs_text;
    if (deadline_texts(a->windows, a->nwindows, a->clock_seconds,
                       a->window_seconds, &ids_text, &secs_text) != 0)
        return 0;
    const char *p[] = {a->game_id, ids_text, ver};
    int sent = db_stmt_send(c, DEADLINES_GONE_APPEND_SQL, 3, p);
    st[(*ns)++] = (batch_stmt){index, 0, 0};
    if (sent && a->nwindows > 0) {
        const char *q[] = {a->game_id, secs_text,
                           a->clock_rules ? a->clock_rules : "{}", ver};
        sent = db_stmt_send(c, DEADLINES_NEW_APPEND_SQL, 4, q);
        st[(*ns)++] = (batch_stmt){index, 0, 0};
    }
    free(ids_text);
    free(secs_text);
    return sent;
}

/* Send append list[index]'s statement and its follow-ups (waits,
 * deadlines: each written only if the append happened) in the pipeline,
 * noting each in st. 1 when all were sent. */
static int send_append(PGconn *c, const store_append *a, int index,
                       batch_stmt *st, int *ns)
{
    append_text t = {0};
    append_text_init(&t, a);
    int sent = db_stmt_send(c, APPEND_SQL, 13, t.params);
    append_text_clear(&t);
    st[(*ns)++] = (batch_stmt){index, 1, 0};
    uint64_t version = a->expected_version + 1;
    if (sent && a->waiting) {
        waiting_text w = {0};
        waiting_text_init(&w, a->game_id, a->waiting, a->input, version);
        sent = db_stmt_send(c, WAITING_APPEND_SQL, 6, w.params);
        st[(*ns)++] = (batch_stmt){index, 0, 0};
    }
    if (sent && a->clock_seconds > 0) {
        char ver[24];
        snprintf(ver, sizeof ver, "%llu", (unsigned long long)version);
        sent = send_deadlines(c, a, ver, index, st, ns);
    }
    return sent;
}

/* Read the results of the ns statements of st, up to the sync: rcs of
 * each append (STORE_OK, or STORE_ECONFLICT for a stale version). */
static int batch_results(PGconn *c, const batch_stmt *st, int ns, int *rcs)
{
    int q = 0, failed = 0;
    for (;;) {
        PGresult *r = PQgetResult(c);
        if (!r) { /* the end of one statement's results */
            if (++q > ns + 1 || PQstatus(c) != CONNECTION_OK)
                return STORE_EDB;
            continue;
        }
        ExecStatusType status = PQresultStatus(r);
        if (status == PGRES_PIPELINE_SYNC) {
            PQclear(r);
            break;
        }
        if (q < ns && st[q].is_notify) {
            if (status != PGRES_TUPLES_OK)
                log_warn("notify_failed", json_pack("{si}", "statements", ns));
        } else if (status != PGRES_COMMAND_OK) {
            failed = 1;
            if (status == PGRES_FATAL_ERROR) {
                const char *m = PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY);
                log_info("append_batch_failed",
                         json_pack("{ss}", "error", m ? m : ""));
            }
        } else if (q < ns && st[q].is_append) {
            rcs[st[q].append] =
                strcmp(PQcmdTuples(r), "1") == 0 ? STORE_OK : STORE_ECONFLICT;
        }
        PQclear(r);
    }
    return failed ? STORE_EDB : STORE_OK;
}

/* The n appends of list in one pipeline: BEGIN, each append followed by
 * its follow-ups, and COMMIT when commit is set, then one sync (one round
 * trip). Returns STORE_OK, or STORE_EDB when a statement failed or the
 * connection broke; then nothing was committed unless the connection
 * broke after the COMMIT was sent (an unknown outcome, as for any lost
 * commit). */
static int pipeline_batch(PGconn *c, const store_append *const *list, int n,
                          int commit, int *rcs)
{
    batch_stmt *st = calloc(4 * (size_t)n + 3, sizeof *st);
    if (!st || !PQenterPipelineMode(c)) {
        free(st);
        return STORE_EDB;
    }
    int ns = 0, parses = batch_parses(c, list, n, commit);
    int sent = parses >= 0 && db_stmt_send(c, "BEGIN", 0, NULL);
    st[ns++] = (batch_stmt){-1, 0, 0};
    for (int i = 0; sent && i < n; i++)
        sent = send_append(c, list[i], i, st, &ns);
    char *notify = commit ? notify_text(list, n, NULL) : NULL;
    if (sent && commit) {
        /* Every append's "game:version" is true once the batch commits,
         * even a stale one's (the store is past its expected version), and
         * after an error the pipeline skips it: so the NOTIFY rides behind
         * the COMMIT, in a transaction of its own, in this round trip. */
        const char *p[] = {notify};
        sent = notify && db_stmt_send(c, "COMMIT", 0, NULL) &&
               db_stmt_send(c, NOTIFY_VERSIONS_SQL, 1, p);
        st[ns++] = (batch_stmt){-1, 0, 0};
        st[ns++] = (batch_stmt){-1, 0, 1};
    }
    free(notify);
    db_count_round_trip();
    int rc = STORE_EDB; /* unsent: the caller drops the connection */
    if (sent && PQpipelineSync(c)) {
        int parsed = db_stmt_parsed(c, parses);
        rc = batch_results(c, st, ns, rcs);
        if (parsed != 0)
            rc = STORE_EDB;
        if (!PQexitPipelineMode(c))
            rc = STORE_EDB;
    }
    free(st);
    return rc;
}

int store_append_batch(PGconn *c, const store_append *const *list, int n,
                       int *rcs)
{
    int records = 0;
    for (int i = 0; i < n; i++) {
        rcs[i] = STORE_EDB;
        records |= append_folds_records(list[i]);
    }
    /* Every append and its follow-ups in one round trip; a batch with a
     * game whose end folds records commits after those folds (their
     * reads and writes need the engine's record hook in between). */
    int rc = pipeline_batch(c, list, n, !records, rcs);
    for (int i = 0; rc == STORE_OK && records && i < n; i++)
        if (rcs[i] == STORE_OK && append_folds_records(list[i]) &&
            records_game_finished(c, list[i]->game_id, list[i]->result))
            rc = STORE_EDB;
    if (rc == STORE_OK && records)
        rc = exec_ok(c, PGRES_COMMAND_OK, "COMMIT", 0, NULL, NULL);
    if (rc == STORE_OK && records)
        notify_committed(c, list, n, rcs);
    if (rc == STORE_OK)
        return STORE_OK;
    if (PQpipelineStatus(c) != PQ_PIPELINE_OFF ||
        PQstatus(c) != CONNECTION_OK) {
        for (int i = 0; i < n; i++)
            rcs[i] = STORE_EDB;
        return STORE_EDB;
    }
    /* A statement failed (an idempotency key taken meanwhile, a deadlock
     * with another process): nothing was committed, so each append is
     * tried on its own and only the failing one is refused. */
    rollback(c);
    for (int i = 0; i < n; i++)
        rcs[i] = store_append_input(c, list[i]);
    notify_committed(c, list, n, rcs);
    return STORE_OK;
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

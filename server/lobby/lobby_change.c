/*
 * lobby_change.c - creating, joining, leaving, seating bots in and
 * starting lobbies (see lobby_change.h).
 */
#include "server/lobby/lobby_change.h"

#include "server/game/clock.h"
#include "server/players/reputation.h"

#include "server/game/actor.h"
#include "server/game/spectate.h"
#include "server/lobby/lobby.h"
#include "server/notify/notify_listened.h"

#include <openssl/crypto.h>
#include <openssl/rand.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DB_WAIT_MS 2000
#define CLOCK_LIVE_MIN 5
#define CLOCK_LIVE_MAX 3600
#define CLOCK_ASYNC_MAX 1209600

static const char not_found_msg[] =
    "no such lobby (a private lobby needs its invite code)";

static int exec_cmd(PGconn *c, const char *sql, int n,
                    const char *const *params)
{
    PGresult *r = db_exec(c, PGRES_COMMAND_OK, sql, n, params);
    if (!r)
        return -1;
    PQclear(r);
    return 0;
}

/* The seat player_id holds in l, or -1. */
static int seat_of(const lobby_row *l, const char *player_id)
{
    for (int s = 0; s < l->seats; s++)
        if (strcmp(l->seat_player[s], player_id) == 0)
            return s;
    return -1;
}

static int seat_free(const lobby_row *l, int s)
{
    return !l->seat_player[s][0] && !l->seat_bot[s][0];
}

static int code_ok(const lobby_row *l, const char *code)
{
    size_t n = strlen(l->code);
    return code && n && strlen(code) == n &&
           CRYPTO_memcmp(code, l->code, n) == 0;
}

/* Lock player_id's row, so that one account's creates and starts queue
 * behind each other (in every process), then run the count query sql with
 * params p ($1 = the player), after a BEGIN when begin: one round trip.
 * The count, or -1 on a database failure. */
static long long locked_count(PGconn *c, int begin, const char *player_id,
                              const char *sql, int n, const char *const *p)
{
    const char *q[] = {player_id};
    db_stmt st[] = {{"BEGIN", 0, NULL, PGRES_COMMAND_OK, 0},
                    {"SELECT 1 FROM players WHERE id = $1 FOR NO KEY UPDATE", 1,
                     q, PGRES_TUPLES_OK, 0},
                    {sql, n, p, PGRES_TUPLES_OK, 0}};
    PGresult *r[3];
    int first = begin ? 0 : 1;
    if (db_pipeline(c, st + first, 3 - first, r + first) != 0)
        return -1;
    long long count = PQntuples(r[2]) == 1 ? atoll(PQgetvalue(r[2], 0, 0)) : -1;
    for (int i = first; i < 3; i++)
        PQclear(r[i]);
    return count;
}

/* The bump of a lobby's version ($1 = its id) that every change makes;
 * a change that writes the lobbies row anyway sets it in that statement
 * (LOBBY_BUMP) instead. */
#define LOBBY_BUMP "version = version + 1, updated_at = now()"

/* The statements that end a change of lobby id, after the change's own
 * (pre, npre of them, at most 4): bump the version (unless bumped, when
 * pre did), commit, then announce the change in a transaction of its own
 * (the pipeline's implicit one, to its sync) that need not wait for its
 * WAL flush. A NOTIFY inside the change would hold PostgreSQL's global
 * notify lock until the change's commit is flushed, serialising every
 * commit that notifies; the listeners hear of a change only after its
 * commit either way. Fills st (at most npre + 3 entries) and returns their
 * number. */
static int finish_stmts(db_stmt *st, const db_stmt *pre, int npre, int bumped,
                        const char *const *id_param)
{
    int n = 0;
    for (int i = 0; i < npre; i++)
        st[n++] = pre[i];
    if (!bumped)
        st[n++] = (db_stmt){"UPDATE lobbies SET " LOBBY_BUMP " WHERE id = $1",
                            1, id_param, PGRES_COMMAND_OK, 0};
    st[n++] = (db_stmt){"COMMIT", 0, NULL, PGRES_COMMAND_OK, 0};
    st[n++] = (db_stmt){"SELECT pg_notify('" LOBBY_CHANNEL "', $1) FROM "
                        "set_config('synchronous_commit', 'off', true)",
                        1, id_param, PGRES_TUPLES_OK, 1};
    return n;
}

/* Run the change's own statements pre (which bumped the version when
 * bumped), bump the version otherwise, commit, announce the change and,
 * when shown is not NULL, read the lobby as viewer sees it now: one round
 * trip. *shown receives the lobby (NEW), or NULL when it did not render
 * (the caller reads it again). 0, or -1 when the change failed. */
static int finish_change_as(PGconn *c, const char *id, const db_stmt *pre,
                            int npre, int bumped, json_t **shown,
                            const char *viewer)
{
    const char *p[] = {id};
    db_stmt st[9];
    PGresult *r[9];
    int n = finish_stmts(st, pre, npre, bumped, p);
    if (shown) {
        *shown = NULL;
        lobby_load_stmts(p, st + n);
        st[n].optional = st[n + 1].optional = 1; /* after the COMMIT */
        n += 2;
    }
    if (db_pipeline(c, st, n, r) != 0)
        return -1;
    int first_kept = shown ? n - 2 : n;
    for (int i = 0; i < first_kept; i++)
        PQclear(r[i]);
    if (shown)
        lobby_from_results(r[n - 2], r[n - 1], viewer, NULL, 1, shown);
    return 0;
}

static int finish_change_with(PGconn *c, const char *id, const db_stmt *pre,
                              int npre, json_t **shown, const char *viewer)
{
    return finish_change_as(c, id, pre, npre, 0, shown, viewer);
}

/* The lobby as viewer sees it now (shown even if it just left it). */
static srv_kind render_for(PGconn *c, const char *id, const char *viewer,
                           json_t **out, srv_error *err)
{
    srv_kind k = lobby_load_ex(c, id, viewer, NULL, 1, out);
    if (k == SRV_OK)
        return SRV_OK;
    return k == SRV_NOT_FOUND
               ? srv_fail(err, SRV_NOT_FOUND, NULL, not_found_msg)
               : srv_db_failed(err);
}

/* Statements (at most 2) a change runs in the round trip that locks and
 * reads its lobby, and their results (NULL until run). */
typedef struct change_pre {
    const db_stmt *st;
    int n;
    PGresult *res[2];
} change_pre;

/* Begin a change of lobby_id: BEGIN, lock and read it, run pre's
 * statements (pre may be NULL), and check that player_id may see it
 * (member, or code given). */
static srv_kind begin_change(PGconn *c, const char *lobby_id,
                             const char *player_id, const char *code,
                             change_pre *pre, lobby_row *l, srv_error *err)
{
    int st =
        pre ? lobby_begin_read_then(c, lobby_id, pre->st, pre->n, pre->res, l)
            : lobby_begin_read(c, lobby_id, l);
    if (st < 0)
        return srv_db_failed(err);
    if (st > 0 ||
        (l->is_private && seat_of(l, player_id) < 0 && !code_ok(l, code)))
        return srv_fail(err, SRV_NOT_FOUND, NULL, not_found_msg);
    return SRV_OK;
}

static srv_kind require_open(const lobby_row *l, srv_error *err)
{
    if (strcmp(l->status, "open") == 0)
        return SRV_OK;
    return srv_fail(err, SRV_CONFLICT, NULL, "%s",
                    strcmp(l->status, "started") == 0
                        ? "the lobby's game has started; nothing can change "
                          "here"
                        : "the lobby is closed");
}

/* The requested seat (in range and free) or the first free one. */
static srv_kind pick_seat(const lobby_row *l, long long want, int *seat,
                          srv_error *err)
{
    if (want != LOBBY_SEAT_ANY) {
        if (want < 0 || want >= l->seats)
            return srv_fail(err, SRV_INVALID, "seat",
                            "seat must be from 0 to %d", l->seats - 1);
        if (!seat_free(l, (int)want))
            return srv_fail(err, SRV_CONFLICT, "seat",
                            "that seat is taken; pick a free one or leave "
                            "seat out");
        *seat = (int)want;
        return SRV_OK;
    }
    for (int s = 0; s < l->seats; s++) {
        if (seat_free(l, s)) {
            *seat = s;
            return SRV_OK;
        }
    }
    return srv_fail(err, SRV_CONFLICT, NULL, "the lobby is full");
}

/* Put a player or a bot (sql sets the column from $3 = value) into a seat
 * of the locked lobby l and commit, after the npre statements of pre (at
 * most 3): one round trip. */
static srv_kind fill_seat(PGconn *c, const lobby_row *l, long long want,
                          const char *sql, const char *value,
                          const db_stmt *pre, int npre, json_t **shown,
                          const char *viewer, srv_error *err)
{
    int seat = -1;
    srv_kind k = pick_seat(l, want, &seat, err);
    if (k != SRV_OK)
        return k;
    char seat_s[16];
    snprintf(seat_s, sizeof seat_s, "%d", seat);
    const char *p[] = {l->id, seat_s, value};
    db_stmt st[4];
    for (int i = 0; i < npre && i < 3; i++)
        st[i] = pre[i];
    int n = npre < 3 ? npre : 3;
    st[n] = (db_stmt){sql, 3, p, PGRES_COMMAND_OK, 0};
    if (finish_change_with(c, l->id, st, n + 1, shown, viewer))
        return srv_db_failed(err);
    return SRV_OK;
}

/* ------------------------------------------------------------ create -- */

static srv_kind check_clock(const char *mode, long long s, long long async_lo,
                            srv_error *err)
{
    long long lo, hi;
    if (strcmp(mode, "none") == 0) {
        if (s > 0)
            return srv_fail(err, SRV_INVALID, "clock.seconds",
                            "clock.seconds must be 0 or absent when "
                            "clock.mode is \"none\"");
        return SRV_OK;
    } else if (strcmp(mode, "live") == 0) {
        lo = CLOCK_LIVE_MIN;
        hi = CLOCK_LIVE_MAX;
    } else if (strcmp(mode, "async") == 0) {
        lo = async_lo;
        hi = CLOCK_ASYNC_MAX;
    } else {
        return srv_fail(err, SRV_INVALID, "clock.mode",
                        "clock.mode must be \"none\", \"live\" or \"async\"");
    }
    if (s < lo || s > hi)
        return srv_fail(err, SRV_INVALID, "clock.seconds",
                        "clock.seconds (seconds per window) must be from %lld "
                        "to %lld for a %s clock",
                        lo, hi, mode);
    return SRV_OK;
}

/* Ruleset, seats, clock and options of a new lobby. */
static srv_kind check_spec(const lobby_spec *sp, const json_t *options,
                           long long async_lo, srv_error *err)
{
    const engine_ruleset *rs = engine_ruleset_find(sp->ruleset);
    if (!rs)
        return srv_fail(err, SRV_INVALID, "ruleset",
                        "unknown ruleset \"%.64s\"; GET /api/v1/rulesets "
                        "lists them",
                        sp->ruleset);
    json_t *d = engine_ruleset_describe(rs);
    int lo = (int)json_integer_value(json_object_get(d, "min_seats"));
    int hi = (int)json_integer_value(json_object_get(d, "max_seats"));
    json_decref(d);
    if (hi > ENGINE_MAX_SEATS)
        hi = ENGINE_MAX_SEATS;
    if (sp->seats < lo || sp->seats > hi)
        return srv_fail(err, SRV_INVALID, "seats", "%s takes %d to %d seats",
                        sp->ruleset, lo, hi);
    srv_kind k = check_clock(sp->clock_mode ? sp->clock_mode : "none",
                             sp->clock_seconds, async_lo, err);
    if (k != SRV_OK)
        return k;
    if (sp->delay_versions < 0 || sp->delay_versions > SPECTATE_VERSIONS_MAX)
        return srv_fail(err, SRV_INVALID, "spectator_delay.versions",
                        "spectator_delay.versions must be from 0 to %d",
                        SPECTATE_VERSIONS_MAX);
    if (sp->delay_seconds < 0 || sp->delay_seconds > SPECTATE_SECONDS_MAX)
        return srv_fail(err, SRV_INVALID, "spectator_delay.seconds",
                        "spectator_delay.seconds must be from 0 to %d",
                        SPECTATE_SECONDS_MAX);
    /* Let the engine judge the options: a throwaway game. */
    static const uint8_t zero_seed[ENGINE_SEED_BYTES];
    engine_error e = {0};
    engine_game *probe = engine_create(sp->ruleset, "options-check", options,
                                       (int)sp->seats, zero_seed, &e);
    if (probe) {
        engine_free(probe);
        return SRV_OK;
    }
    char field[96];
    if (!e.field[0])
        snprintf(field, sizeof field, "options");
    else if (strcmp(e.field, "seats") == 0)
        snprintf(field, sizeof field, "seats");
    else
        snprintf(field, sizeof field, "options.%.60s", e.field);
    return srv_fail(err,
                    e.code == ENGINE_EINTERNAL ? SRV_INTERNAL : SRV_INVALID,
                    field, "%s", e.msg[0] ? e.msg : "invalid options");
}

/* Within the host's quota of open lobbies (the transaction is open)? */
static srv_kind check_lobby_quota(PGconn *c, const char *host_id, int most,
                                  srv_error *err)
{
    const char *p[] = {host_id};
    long long n = locked_count(c, 1, host_id,
                               "SELECT count(*) FROM lobbies WHERE status = "
                               "'open' AND host_id = $1",
                               1, p);
    if (n < 0)
        return srv_db_failed(err);
    if (n >= most)
        return srv_fail(err, SRV_TOO_MANY, NULL,
                        "you already host %lld open lobbies, the most one "
                        "account may; start or leave one first",
                        n);
    return SRV_OK;
}

/* Insert the lobby and its seats (host in seat 0) and commit, within the
 * host's quota of open lobbies. */
static srv_kind insert_lobby(PGconn *c, const char *host_id,
                             const lobby_spec *sp, const char *options_text,
                             const char *rules_text, const char *id,
                             const char *code, int most, json_t **shown,
                             srv_error *err)
{
    char seats_s[16], secs[24], dv[24], ds[24];
    snprintf(dv, sizeof dv, "%lld", sp->delay_versions);
    snprintf(ds, sizeof ds, "%lld", sp->delay_seconds);
    snprintf(seats_s, sizeof seats_s, "%lld", sp->seats);
    snprintf(secs, sizeof secs, "%lld",
             sp->clock_seconds > 0 ? sp->clock_seconds : 0);
    const char *p[] = {id,
                       sp->ruleset,
                       options_text,
                       host_id,
                       sp->is_private ? "true" : "false",
                       sp->is_private ? code : NULL,
                       sp->clock_mode ? sp->clock_mode : "none",
                       secs,
                       seats_s,
                       dv,
                       ds,
                       rules_text};
    const char *q[] = {id, host_id, seats_s};
    srv_kind k = check_lobby_quota(c, host_id, most, err); /* BEGINs */
    if (k != SRV_OK)
        return k;
    if (sp->rematch_of) {
        /* A game's second rematch inserts nothing (waiting for a
         * concurrent first one to commit) and rolls its lobby back. */
        const char *rp[] = {sp->rematch_of, id};
        PGresult *r = db_exec(c, PGRES_COMMAND_OK,
                              "INSERT INTO game_rematches (game_id, lobby_id) "
                              "VALUES ($1, $2) ON CONFLICT (game_id) DO "
                              "NOTHING",
                              2, rp);
        if (!r)
            return srv_db_failed(err);
        int inserted = strcmp(PQcmdTuples(r), "1") == 0;
        PQclear(r);
        if (!inserted)
            return srv_fail(err, SRV_CONFLICT, NULL,
                            "this game already has its rematch lobby");
    }
    const db_stmt rows[] = {
        /* Created at version 1: its first change. */
        {"INSERT INTO lobbies (id, ruleset, options, host_id, private, "
         "invite_code, clock_mode, clock_seconds, seat_count, "
         "delay_versions, delay_seconds, clock_rules, version) VALUES ($1, "
         "$2, $3::jsonb, $4, $5::boolean, $6, $7, $8::integer, $9::integer, "
         "$10::integer, $11::integer, $12::jsonb, 1)",
         12, p, PGRES_COMMAND_OK, 0},
        {"INSERT INTO lobby_seats (lobby_id, seat, player_id) SELECT $1, s, "
         "CASE WHEN s = 0 THEN $2 END FROM generate_series(0, $3::integer - "
         "1) AS s",
         3, q, PGRES_COMMAND_OK, 0}};
    return finish_change_as(c, id, rows, 2, 1, shown, host_id) == 0
               ? SRV_OK
               : srv_db_failed(err);
}

srv_kind lobby_create(app *a, const char *host_id, const lobby_spec *spec,
                      char *id, json_t **out, srv_error *err)
{
    *out = NULL;
    json_t *options = json_is_object(spec->options)
                          ? json_incref((json_t *)spec->options)
                          : json_object();
    json_t *rules = NULL;
    srv_kind k = check_spec(spec, options, a->cfg->async_min_seconds, err);
    if (k == SRV_OK)
        k = clock_rules_check(
            spec->clock, spec->clock_mode ? spec->clock_mode : "none",
            a->cfg->async_min_seconds, CLOCK_ASYNC_MAX, &rules, err);
    char *text =
        k == SRV_OK ? json_dumps(options, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    char *rules_text =
        k == SRV_OK ? json_dumps(rules, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    json_decref(options);
    json_decref(rules);
    if (k != SRV_OK)
        return k;
    if (!text || !rules_text) {
        free(text);
        free(rules_text);
        return srv_fail(err, SRV_INTERNAL, NULL, "out of memory");
    }
    char code[STORE_ID_MAX];
    store_new_id(id);
    store_new_id(code);
    PGconn *c = db_acquire(a->db, DB_WAIT_MS);
    if (!c)
        k = srv_db_failed(err);
    else if ((k = insert_lobby(c, host_id, spec, text, rules_text, id, code,
                               a->cfg->lobbies_per_player, out, err)) ==
                 SRV_OK &&
             !*out)
        k = render_for(c, id, host_id, out, err);
    free(text);
    free(rules_text);
    if (c)
        db_release(a->db, c, db_conn_broken(c));
    return k;
}

/* -------------------------------------------------------------- read -- */

srv_kind lobby_get(app *a, const char *lobby_id, const char *viewer,
                   const char *code, json_t **out, srv_error *err)
{
    PGconn *c = db_acquire(a->db, DB_WAIT_MS);
    if (!c)
        return srv_db_failed(err);
    srv_kind k = lobby_load_ex(c, lobby_id, viewer, code, 0, out);
    db_release(a->db, c, db_conn_broken(c));
    if (k == SRV_OK)
        return SRV_OK;
    return k == SRV_NOT_FOUND
               ? srv_fail(err, SRV_NOT_FOUND, NULL, not_found_msg)
               : srv_db_failed(err);
}

srv_kind lobby_find(app *a, const char *status, const char *ruleset,
                    const char *viewer, json_t **out, srv_error *err)
{
    *out = NULL;
    if (strcmp(status, "open") != 0 && strcmp(status, "started") != 0 &&
        strcmp(status, "closed") != 0)
        return srv_fail(err, SRV_INVALID, "status",
                        "status must be \"open\", \"started\" or \"closed\"");
    PGconn *c = db_acquire(a->db, DB_WAIT_MS);
    if (!c)
        return srv_db_failed(err);
    srv_kind k = lobby_list(c, status, ruleset, viewer, out);
    db_release(a->db, c, db_conn_broken(c));
    return k == SRV_OK ? SRV_OK : srv_db_failed(err);
}

/* ----------------------------------------------------------- changes -- */

/* What a change does once the lobby is locked, read and visible; shown
 * (NULL: nobody asks) goes to the finish that commits it, which reads the
 * lobby as player_id sees it afterwards in the same round trip. */
typedef srv_kind (*change_fn)(PGconn *c, const lobby_row *l,
                              const char *player_id, const void *arg,
                              json_t **shown, srv_error *err);

/* Run one change of lobby_id by player_id in its transaction and, when out
 * is not NULL, render the lobby for player_id afterwards (read with the
 * commit, else again). */
static srv_kind run_change(app *a, const char *lobby_id, const char *player_id,
                           const char *code, change_fn fn, const void *arg,
                           change_pre *pre, json_t **out, srv_error *err)
{
    if (out)
        *out = NULL;
    PGconn *c = db_acquire(a->db, DB_WAIT_MS);
    if (!c)
        return srv_db_failed(err);
    lobby_row l = {0};
    srv_kind k = begin_change(c, lobby_id, player_id, code, pre, &l, err);
    if (k == SRV_OK)
        k = fn(c, &l, player_id, arg, out, err);
    if (k != SRV_OK && out) {
        json_decref(*out);
        *out = NULL;
    } else if (out && !*out) {
        k = render_for(c, l.id, player_id, out, err);
    }
    for (int i = 0; pre && i < pre->n; i++)
        PQclear(pre->res[i]);
    lobby_row_clear(&l);
    db_release(a->db, c, db_conn_broken(c)); /* rolls back on failure */
    return k;
}

static srv_kind do_join(PGconn *c, const lobby_row *l, const char *player_id,
                        const void *arg, json_t **shown, srv_error *err)
{
    srv_kind k = require_open(l, err);
    if (k != SRV_OK)
        return k;
    int mine = seat_of(l, player_id);
    if (mine >= 0)
        return srv_fail(err, SRV_CONFLICT, NULL,
                        "you already sit in seat %d of this lobby", mine);
    /* Taking a seat is activity: the idle-seat sweep counts from now (in
     * the pipeline that takes it). */
    const char *p[] = {player_id};
    const db_stmt seen = {"UPDATE players SET last_seen = now() WHERE id = $1",
                          1, p, PGRES_COMMAND_OK, 0};
    if (json_is_object(json_object_get(l->clock_rules, "min_reputation"))) {
        json_t *rep = reputation_load(c, player_id);
        if (!rep)
            return srv_db_failed(err);
        k = reputation_meets(rep, l->clock_rules, err);
        json_decref(rep);
        if (k != SRV_OK)
            return k;
    }
    return fill_seat(c, l, *(const long long *)arg,
                     "UPDATE lobby_seats SET player_id = $3 WHERE lobby_id = "
                     "$1 AND seat = $2::integer",
                     player_id, &seen, 1, shown, player_id, err);
}

srv_kind lobby_join(app *a, const char *lobby_id, const char *player_id,
                    const char *code, long long seat, json_t **out,
                    srv_error *err)
{
    return run_change(a, lobby_id, player_id, code, do_join, &seat, NULL, out,
                      err);
}

static srv_kind do_leave(PGconn *c, const lobby_row *l, const char *player_id,
                         const void *arg, json_t **shown, srv_error *err)
{
    (void)arg;
    if (seat_of(l, player_id) < 0)
        return srv_fail(err, SRV_CONFLICT, NULL,
                        "you have no seat in this lobby");
    srv_kind k = require_open(l, err);
    if (k != SRV_OK)
        return k;
    const char *p[] = {l->id, player_id};
    int host = strcmp(l->host, player_id) == 0;
    if (exec_cmd(c,
                 "UPDATE lobby_seats SET player_id = NULL WHERE lobby_id = $1 "
                 "AND player_id = $2",
                 2, p) ||
        (host &&
         exec_cmd(c, "UPDATE lobbies SET status = 'closed' WHERE id = $1", 1,
                  p)) ||
        finish_change_with(c, l->id, NULL, 0, shown, player_id))
        return srv_db_failed(err);
    return SRV_OK;
}

srv_kind lobby_leave(app *a, const char *lobby_id, const char *player_id,
                     json_t **out, srv_error *err)
{
    return run_change(a, lobby_id, player_id, NULL, do_leave, NULL, NULL, out,
                      err);
}

typedef struct bot_arg {
    const char *level;
    long long seat;
} bot_arg;

typedef struct clear_arg {
    const char *bot; /* a bot level to seat instead, or NULL */
    long long seat;
} clear_arg;

/* The bot level named (NULL: the ruleset's default) for l's ruleset. */
static srv_kind resolve_level(const lobby_row *l, const char *want,
                              const char **level, srv_error *err)
{
    const engine_ruleset *rs = engine_ruleset_find(l->ruleset);
    int n = 0;
    const engine_bot_level *lv = rs ? engine_bot_levels(rs, &n) : NULL;
    *level = want ? want : lv ? lv[0].id : NULL;
    if (rs && engine_bot_level_known(rs, *level))
        return SRV_OK;
    char list[160] = "";
    for (int i = 0; lv && i < n; i++) {
        size_t at = strlen(list);
        snprintf(list + at, sizeof list - at, "%s\"%s\"",
                 i == 0       ? ""
                 : i + 1 == n ? " or "
                              : ", ",
                 lv[i].id);
    }
    return srv_fail(err, SRV_INVALID, "level", "level must be %s", list);
}

static srv_kind do_add_bot(PGconn *c, const lobby_row *l, const char *player_id,
                           const void *arg, json_t **shown, srv_error *err)
{
    const bot_arg *b = arg;
    if (strcmp(l->host, player_id) != 0)
        return srv_fail(err, SRV_FORBIDDEN, NULL,
                        "only the lobby's host can add bots");
    srv_kind k = require_open(l, err);
    if (k != SRV_OK)
        return k;
    const char *level = NULL;
    k = resolve_level(l, b->level, &level, err);
    if (k != SRV_OK)
        return k;
    return fill_seat(c, l, b->seat,
                     "UPDATE lobby_seats SET bot = $3 WHERE lobby_id = $1 AND "
                     "seat = $2::integer",
                     level, NULL, 0, shown, player_id, err);
}

srv_kind lobby_add_bot(app *a, const char *lobby_id, const char *player_id,
                       const char *level, long long seat, json_t **out,
                       srv_error *err)
{
    bot_arg b = {level, seat};
    return run_change(a, lobby_id, player_id, NULL, do_add_bot, &b, NULL, out,
                      err);
}

static srv_kind do_clear_seat(PGconn *c, const lobby_row *l,
                              const char *player_id, const void *arg,
                              json_t **shown, srv_error *err)
{
    const clear_arg *b = arg;
    if (strcmp(l->host, player_id) != 0)
        return srv_fail(err, SRV_FORBIDDEN, NULL,
                        "only the lobby's host can empty a seat");
    srv_kind k = require_open(l, err);
    if (k != SRV_OK)
        return k;
    if (b->seat < 0 || b->seat >= l->seats)
        return srv_fail(err, SRV_INVALID, "seat", "seat must be from 0 to %d",
                        l->seats - 1);
    int seat = (int)b->seat;
    if (strcmp(l->seat_player[seat], l->host) == 0)
        return srv_fail(err, SRV_CONFLICT, "seat",
                        "that is your own seat; leaving it closes the lobby "
                        "(DELETE .../seats/me)");
    if (seat_free(l, seat))
        return srv_fail(err, SRV_CONFLICT, "seat", "seat %d is already empty",
                        seat);
    const char *level = NULL;
    if (b->bot && (k = resolve_level(l, b->bot, &level, err)) != SRV_OK)
        return k;
    char seat_s[16];
    snprintf(seat_s, sizeof seat_s, "%d", seat);
    const char *p[] = {l->id, seat_s, level};
    const db_stmt clear = {"UPDATE lobby_seats SET player_id = NULL, bot = $3 "
                           "WHERE lobby_id = $1 AND seat = $2::integer",
                           3, p, PGRES_COMMAND_OK, 0};
    if (finish_change_with(c, l->id, &clear, 1, shown, player_id))
        return srv_db_failed(err);
    return SRV_OK;
}

srv_kind lobby_clear_seat(app *a, const char *lobby_id, const char *player_id,
                          long long seat, const char *bot, json_t **out,
                          srv_error *err)
{
    clear_arg b = {bot, seat};
    return run_change(a, lobby_id, player_id, NULL, do_clear_seat, &b, NULL,
                      out, err);
}

/* ------------------------------------------------------------- start -- */

/* The game of the locked lobby l: seed (seed, else a random one), seed
 * hash, seats. */
static srv_kind build_game(const lobby_row *l, const uint8_t *seed,
                           store_game *g, srv_error *err)
{
    store_new_id(g->game_id);
    snprintf(g->lobby_id, sizeof g->lobby_id, "%s", l->id);
    snprintf(g->ruleset, sizeof g->ruleset, "%s", l->ruleset);
    /* A new game takes the current edition of versioned rules (stored in
     * its options, so it replays the same forever). */
    g->options =
        engine_options_stamp(engine_ruleset_find(l->ruleset), l->options);
    if (!g->options)
        return srv_fail(err, SRV_INTERNAL, NULL, "out of memory");
    g->seats = l->seats;
    if (seed)
        memcpy(g->seed, seed, sizeof g->seed);
    else if (RAND_bytes(g->seed, sizeof g->seed) != 1)
        return srv_fail(err, SRV_INTERNAL, NULL, "no randomness for the seed");
    engine_error e = {0};
    engine_game *eg = engine_create(g->ruleset, g->game_id, g->options,
                                    g->seats, g->seed, &e);
    if (!eg)
        return srv_fail(
            err, e.code == ENGINE_EINTERNAL ? SRV_INTERNAL : SRV_CONFLICT, NULL,
            "the game cannot be created: %s", e.msg);
    engine_seed_sha256_hex(eg, g->seed_sha256);
    engine_free(eg);
    snprintf(g->clock_mode, sizeof g->clock_mode, "%s", l->clock_mode);
    g->clock_seconds = l->clock_seconds;
    g->clock_rules =
        l->clock_rules ? json_incref(l->clock_rules) : json_object();
    g->delay_versions = l->delay_versions;
    g->delay_seconds = l->delay_seconds;
    snprintf(g->status, sizeof g->status, "running");
    for (int s = 0; s < l->seats; s++) {
        snprintf(g->seat_player[s], sizeof g->seat_player[s], "%s",
                 l->seat_player[s]);
        snprintf(g->seat_bot[s], sizeof g->seat_bot[s], "%s", l->seat_bot[s]);
    }
    /* The 'started' fact only when a seated player can be told. */
    const char *players[ENGINE_MAX_SEATS];
    for (int s = 0; s < l->seats; s++)
        players[s] = g->seat_player[s];
    g->listened = notify_listened_any(players, l->seats);
    return SRV_OK;
}

typedef struct start_arg {
    store_game *game;
    const uint8_t *seed;       /* NULL: random */
    int live_most, async_most; /* the host's running games quota */
    const change_pre *pre;     /* the caller's lock and count, run */
} start_arg;

/* The running games the caller ($1) plays of lobby $2's kind (live, or
 * async and unclocked together), after locking the caller's player row so
 * that one account's starts queue behind each other: run with the lobby's
 * lock and read. One primary-key probe of games per seat the player ever
 * held (OFFSET 0 keeps the planner from hashing the games instead). */
#define GAME_QUOTA_LOCK "SELECT 1 FROM players WHERE id = $1 FOR NO KEY UPDATE"
/* Only the player's running seats (sql/019_running_seats.sql: a partial
 * index), so the count does not grow with the games they finished. */
#define GAME_QUOTA_COUNT                                                       \
    "SELECT count(*) FROM game_seats s JOIN games g ON g.game_id = "           \
    "s.game_id WHERE s.player_id = $1 AND s.running AND g.status = "           \
    "'running' AND (g.clock_mode = 'live') = ((SELECT l.clock_mode FROM "      \
    "lobbies l WHERE l.id = $2) = 'live')"

/* Within the host's quota of running games of l's kind, as counted by
 * GAME_QUOTA_COUNT (sa->pre->res[1])? */
static srv_kind check_game_quota(const lobby_row *l, const start_arg *sa,
                                 srv_error *err)
{
    int live = strcmp(l->clock_mode, "live") == 0;
    const PGresult *r = sa->pre->res[1];
    if (!r || PQntuples(r) != 1)
        return srv_db_failed(err);
    long long n = atoll(PQgetvalue(r, 0, 0));
    int most = live ? sa->live_most : sa->async_most;
    if (n >= most)
        return srv_fail(err, SRV_TOO_MANY, NULL,
                        "you already play %lld running %s games, the most "
                        "one account may start; finish one first",
                        n, live ? "live" : "async or unclocked");
    return SRV_OK;
}

static srv_kind do_start(PGconn *c, const lobby_row *l, const char *player_id,
                         const void *arg, json_t **shown, srv_error *err)
{
    if (strcmp(l->host, player_id) != 0)
        return srv_fail(err, SRV_FORBIDDEN, NULL,
                        "only the lobby's host can start the game");
    srv_kind k = require_open(l, err);
    if (k != SRV_OK)
        return k;
    for (int s = 0; s < l->seats; s++)
        if (seat_free(l, s))
            return srv_fail(err, SRV_CONFLICT, NULL,
                            "seat %d is empty; every seat needs a player or "
                            "a bot (POST .../bots) before the start",
                            s);
    const start_arg *sa = arg;
    store_game *g = sa->game;
    k = check_game_quota(l, sa, err);
    if (k != SRV_OK)
        return k;
    k = build_game(l, sa->seed, g, err);
    if (k != SRV_OK)
        return k;
    const char *p[] = {l->id, g->game_id};
    const db_stmt started = {"UPDATE lobbies SET status = 'started', game_id "
                             "= $2, " LOBBY_BUMP " WHERE id = $1",
                             2, p, PGRES_COMMAND_OK, 0};
    if (store_create_game(c, g) != STORE_OK ||
        finish_change_as(c, l->id, &started, 1, 1, shown, player_id))
        return srv_db_failed(err);
    return SRV_OK;
}

srv_kind lobby_start(app *a, const char *lobby_id, const char *player_id,
                     const uint8_t *seed, char *game_id, srv_error *err)
{
    store_game g;
    memset(&g, 0, sizeof g);
    /* The caller's lock and running games, with the lobby's lock: the
     * count is read only once the caller is known to be the host. */
    const char *p[] = {player_id, lobby_id};
    const db_stmt quota[] = {{GAME_QUOTA_LOCK, 1, p, PGRES_TUPLES_OK, 0},
                             {GAME_QUOTA_COUNT, 2, p, PGRES_TUPLES_OK, 0}};
    change_pre pre = {quota, 2, {NULL, NULL}};
    start_arg sa = {&g, seed, a->cfg->live_games_per_player,
                    a->cfg->async_games_per_player, &pre};
    srv_kind k = run_change(a, lobby_id, player_id, NULL, do_start, &sa, &pre,
                            NULL, err);
    if (k == SRV_OK) {
        snprintf(game_id, STORE_ID_MAX, "%s", g.game_id);
        if (a->actors) /* its bots move; a failure shows at the next read */
            actors_load(a->actors, g.game_id);
        /* The first windows reach this process's inbox feed at once (other
         * processes' at the game's first commit). */
        if (a->feed.turns_changed)
            a->feed.turns_changed(a->feed.ctx, g.game_id);
    }
    store_game_clear(&g);
    return k;
}

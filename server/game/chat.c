/*
 * chat.c - table talk (see chat.h): channels, messages and read marks in
 * PostgreSQL, who may read and post, the limits, and the NOTIFY of ids
 * after each post. Message text goes into statements as a parameter and
 * comes back into JSON; it is never logged.
 */
#include "server/game/chat.h"

#include "server/runtime/log.h"
#include "server/store/store.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DB_WAIT_MS 2000
#define NO_CAP "4611686018427387904" /* 2^62: no version cap */
#define STR2(x) #x
#define STR(x) STR2(x)

/* What a call needs to know of the game and of the caller in it. */
typedef struct chat_game {
    const char *id;
    int seat; /* the caller's lowest seat, or -1 */
    int seat_count;
    uint64_t version;
    char status[12];
    int delay_versions, delay_seconds;
} chat_game;

/* A channel as stored (id 0 may have no row yet: seats 0, last_seq 0). */
typedef struct chat_chan {
    int id;
    unsigned seats;
    int64_t last_seq;
} chat_chan;

static int is_member(const chat_game *g, const chat_chan *ch)
{
    return ch->id == 0 ||
           (g->seat >= 0 && (ch->seats & (1u << (unsigned)g->seat)) != 0);
}

/* Load the game and the caller's seat in it. */
static srv_kind load_game(PGconn *c, const char *game_id, const char *player_id,
                          chat_game *g, srv_error *e)
{
    memset(g, 0, sizeof *g);
    g->seat = -1;
    const char *p[] = {game_id, player_id};
    PGresult *r = db_exec(
        c, PGRES_TUPLES_OK,
        "SELECT g.version, g.status, g.delay_versions, g.delay_seconds, "
        "g.seat_count, (SELECT min(s.seat) FROM game_seats s "
        "WHERE s.game_id = g.game_id AND s.player_id = $2) "
        "FROM games g WHERE g.game_id = $1",
        2, p);
    if (!r)
        return srv_db_failed(e);
    if (PQntuples(r) != 1) {
        PQclear(r);
        return srv_fail(e, SRV_NOT_FOUND, NULL, "no such game");
    }
    g->id = game_id;
    g->version = strtoull(PQgetvalue(r, 0, 0), NULL, 10);
    snprintf(g->status, sizeof g->status, "%s", PQgetvalue(r, 0, 1));
    g->delay_versions = atoi(PQgetvalue(r, 0, 2));
    g->delay_seconds = atoi(PQgetvalue(r, 0, 3));
    g->seat_count = atoi(PQgetvalue(r, 0, 4));
    g->seat = PQgetisnull(r, 0, 5) ? -1 : atoi(PQgetvalue(r, 0, 5));
    if (g->seat >= ENGINE_MAX_SEATS) /* cannot happen: seat bits fit */
        g->seat = -1;
    PQclear(r);
    return SRV_OK;
}

/* Load channel id of g into *ch, if the caller is a member. A private
 * channel outside the caller's seats is "not found", as is one that does
 * not exist: nothing tells a non-member it is there. */
static srv_kind load_channel(PGconn *c, const chat_game *g, int id,
                             chat_chan *ch, srv_error *e)
{
    char ids[16];
    snprintf(ids, sizeof ids, "%d", id);
    const char *p[] = {g->id, ids};
    PGresult *r = db_exec(c, PGRES_TUPLES_OK,
                          "SELECT seats, last_seq FROM chat_channels "
                          "WHERE game_id = $1 AND channel_id = $2",
                          2, p);
    if (!r)
        return srv_db_failed(e);
    ch->id = id;
    ch->seats = 0;
    ch->last_seq = 0;
    int found = PQntuples(r) == 1;
    if (found) {
        ch->seats = (unsigned)strtoul(PQgetvalue(r, 0, 0), NULL, 10);
        ch->last_seq = strtoll(PQgetvalue(r, 0, 1), NULL, 10);
    }
    PQclear(r);
    if ((!found && id != 0) || !is_member(g, ch))
        return srv_fail(e, SRV_NOT_FOUND, NULL, "no such channel in this game");
    return SRV_OK;
}

/* The public channel's row, made on first use. */
static srv_kind ensure_public(PGconn *c, const char *game_id, srv_error *e)
{
    const char *p[] = {game_id};
    PGresult *r = db_exec(c, PGRES_COMMAND_OK,
                          "INSERT INTO chat_channels (game_id, channel_id, "
                          "seats) VALUES ($1, 0, 0) ON CONFLICT DO NOTHING",
                          1, p);
    if (!r)
        return srv_db_failed(e);
    PQclear(r);
    return SRV_OK;
}

static json_t *seats_json(unsigned seats)
{
    json_t *a = json_array();
    for (int s = 0; s < 32; s++)
        if (seats & (1u << s))
            json_array_append_new(a, json_integer(s));
    return a;
}

/* The filters a reader gets: members see everything; spectators of a
 * game with a spectator delay see a public message posted at version V by
 * the rule spectate.h gives versions (V <= live - delay_versions, or the
 * game is over) once the message itself is delay_seconds old. cap and secs:
 * text of at least 24 bytes. */
static void reader_filter(const chat_game *g, char *cap, char *secs)
{
    snprintf(cap, 24, "%s", NO_CAP);
    snprintf(secs, 24, "0");
    if (g->seat >= 0 || (g->delay_versions <= 0 && g->delay_seconds <= 0))
        return;
    if (strcmp(g->status, "running") == 0) {
        if (g->version >= (uint64_t)g->delay_versions)
            snprintf(cap, 24, "%" PRIu64,
                     g->version - (uint64_t)g->delay_versions);
        else
            snprintf(cap, 24, "-1");
    }
    snprintf(secs, 24, "%d", g->delay_seconds);
}

#define MSG_COLUMNS                                                            \
    "m.seq, m.channel_id, m.seat, m.player_id, coalesce(p.name, ''), m.body, " \
    "to_char(m.created_at AT TIME ZONE 'UTC', "                                \
    "'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"') "

static json_t *msg_row(PGresult *r, int i)
{
    return json_pack("{sI sI si s{ss ss} ss ss}", "seq",
                     (json_int_t)strtoll(PQgetvalue(r, i, 0), NULL, 10),
                     "channel", (json_int_t)atoi(PQgetvalue(r, i, 1)), "seat",
                     atoi(PQgetvalue(r, i, 2)), "player", "id",
                     PQgetvalue(r, i, 3), "name", PQgetvalue(r, i, 4), "text",
                     PQgetvalue(r, i, 5), "at", PQgetvalue(r, i, 6));
}

/* One message and its channel's seats, on c. */
static srv_kind fetch_on(PGconn *c, const char *game_id, int channel,
                         int64_t seq, json_t **msg, unsigned *seats,
                         uint64_t *version, double *age)
{
    char cs[16], ss[24];
    snprintf(cs, sizeof cs, "%d", channel);
    snprintf(ss, sizeof ss, "%" PRId64, seq);
    const char *p[] = {game_id, cs, ss};
    PGresult *r =
        db_exec(c, PGRES_TUPLES_OK,
                "SELECT " MSG_COLUMNS ", ch.seats, m.game_version, "
                "extract(epoch FROM now() - m.created_at) FROM chat_messages m "
                "JOIN chat_channels ch ON ch.game_id = m.game_id "
                "AND ch.channel_id = m.channel_id "
                "LEFT JOIN players p ON p.id = m.player_id "
                "WHERE m.game_id = $1 AND m.channel_id = $2 AND m.seq = $3",
                3, p);
    if (!r)
        return SRV_UNAVAILABLE;
    srv_kind k = SRV_NOT_FOUND;
    if (PQntuples(r) == 1) {
        *msg = msg_row(r, 0);
        *seats = (unsigned)strtoul(PQgetvalue(r, 0, 7), NULL, 10);
        if (version)
            *version = strtoull(PQgetvalue(r, 0, 8), NULL, 10);
        if (age)
            *age = strtod(PQgetvalue(r, 0, 9), NULL);
        k = *msg ? SRV_OK : SRV_INTERNAL;
    }
    PQclear(r);
    return k;
}

srv_kind chat_fetch(db_pool *db, const char *game_id, int channel, int64_t seq,
                    json_t **msg, unsigned *seats, uint64_t *version,
                    double *age)
{
    PGconn *c = db_acquire(db, DB_WAIT_MS);
    if (!c)
        return SRV_UNAVAILABLE;
    srv_kind k = fetch_on(c, game_id, channel, seq, msg, seats, version, age);
    db_release(db, c, k == SRV_UNAVAILABLE && db_conn_broken(c));
    return k;
}

/* ------------------------------------------------------------ text ---- */

srv_kind chat_check_text(const char *text, srv_error *e)
{
    size_t chars = 0, visible = 0;
    const unsigned char *s = (const unsigned char *)text;
    while (*s) {
        unsigned char b = *s;
        size_t n = b < 0x80             ? 1
                   : (b & 0xE0) == 0xC0 ? 2
                   : (b & 0xF0) == 0xE0 ? 3
                   : (b & 0xF8) == 0xF0 ? 4
                                        : 0;
        if (n == 0 || (n == 2 && b < 0xC2) || (n == 4 && b > 0xF4))
            return srv_fail(e, SRV_INVALID, "text", "text must be UTF-8");
        for (size_t i = 1; i < n; i++)
            if ((s[i] & 0xC0) != 0x80)
                return srv_fail(e, SRV_INVALID, "text", "text must be UTF-8");
        if ((n == 3 && b == 0xE0 && s[1] < 0xA0) ||
            (n == 3 && b == 0xED && s[1] >= 0xA0) ||
            (n == 4 && b == 0xF0 && s[1] < 0x90) ||
            (n == 4 && b == 0xF4 && s[1] >= 0x90))
            return srv_fail(e, SRV_INVALID, "text", "text must be UTF-8");
        if (n == 1 && (b < 0x20 || b == 0x7F) && b != '\n' && b != '\t')
            return srv_fail(e, SRV_INVALID, "text",
                            "text may hold no control characters but "
                            "newlines and tabs");
        if (!(n == 1 && (b == ' ' || b == '\n' || b == '\t')))
            visible++;
        chars++;
        s += n;
    }
    if (chars > CHAT_TEXT_MAX)
        return srv_fail(e, SRV_TOO_LARGE, "text",
                        "a message holds at most %d characters (this one has "
                        "%zu)",
                        CHAT_TEXT_MAX, chars);
    if (visible == 0)
        return srv_fail(e, SRV_INVALID, "text", "a message must not be empty");
    return SRV_OK;
}

/* ------------------------------------------------------------ post ---- */

/* Open the transaction of a post and take the lock of the poster's seat in
 * the game (a transaction-scoped advisory lock, released at COMMIT or
 * ROLLBACK): posts of one seat, from any server process, count and insert
 * one after another, so the count below sees every message committed before
 * it and the cap holds under concurrency. */
static srv_kind lock_seat(PGconn *c, const chat_game *g, srv_error *e)
{
    char seat[16];
    snprintf(seat, sizeof seat, "%d", g->seat);
    const char *p[] = {g->id, seat};
    const db_stmt st[] = {
        {"BEGIN", 0, NULL, PGRES_COMMAND_OK, 0},
        {"SELECT pg_advisory_xact_lock(hashtext('" CHAT_NOTIFY_CHANNEL
         ":' || $1), $2::integer)",
         2, p, PGRES_TUPLES_OK, 0}};
    PGresult *r[2] = {NULL, NULL};
    int rc = db_pipeline(c, st, 2, r);
    PQclear(r[0]);
    PQclear(r[1]);
    return rc == 0 ? SRV_OK : srv_db_failed(e);
}

/* Whether the caller's seat may post now: CHAT_RATE_COUNT messages in the
 * last CHAT_RATE_SECONDS, counted in the store so every process agrees
 * (under lock_seat's lock). */
static srv_kind rate_check(PGconn *c, const chat_game *g, int *retry_after,
                           srv_error *e)
{
    char seat[16];
    snprintf(seat, sizeof seat, "%d", g->seat);
    const char *p[] = {g->id, seat};
    PGresult *r = db_exec(
        c, PGRES_TUPLES_OK,
        "SELECT count(*), coalesce(ceil(extract(epoch FROM min(created_at) + "
        "interval '" STR(
            CHAT_RATE_SECONDS) " seconds' - now())), 1)::int "
                               "FROM chat_messages WHERE game_id = $1 AND seat "
                               "= $2 "
                               "AND created_at > now() - interval '" STR(
                                   CHAT_RATE_SECONDS) " seconds'",
        2, p);
    if (!r)
        return srv_db_failed(e);
    long n = atol(PQgetvalue(r, 0, 0));
    int wait = atoi(PQgetvalue(r, 0, 1));
    PQclear(r);
    if (n < CHAT_RATE_COUNT)
        return SRV_OK;
    *retry_after = wait < 1 ? 1 : wait;
    return srv_fail(e, SRV_TOO_MANY, NULL,
                    "at most %d messages in %d seconds; wait %d s",
                    CHAT_RATE_COUNT, CHAT_RATE_SECONDS, *retry_after);
}

/* Store the message (its seq the channel's next) and return that seq. In
 * the same statement, so the same transaction: for a private channel, one
 * notify_facts row of kind 'message' per member seat not held by the
 * sender ({"seat","channel","seq","from","name","text"}: the recipient is
 * a member, so it may read all of it). The public channel notifies no one. */
static srv_kind insert_message(PGconn *c, const chat_game *g, int channel,
                               const char *player_id, const char *text,
                               int64_t *seq, srv_error *e)
{
    char cs[16], seat[16];
    snprintf(cs, sizeof cs, "%d", channel);
    snprintf(seat, sizeof seat, "%d", g->seat);
    const char *p[] = {g->id, cs, seat, player_id, text};
    PGresult *r = db_exec(
        c, PGRES_TUPLES_OK,
        "WITH ch AS (UPDATE chat_channels SET last_seq = last_seq + 1 "
        "WHERE game_id = $1 AND channel_id = $2 RETURNING last_seq, seats), "
        "m AS (INSERT INTO chat_messages (game_id, channel_id, seq, seat, "
        "player_id, body, game_version) "
        "SELECT $1, $2, ch.last_seq, $3, $4, $5, "
        "(SELECT version FROM games WHERE game_id = $1) FROM ch "
        "RETURNING seq, game_version), "
        "f AS (INSERT INTO notify_facts (game_id, kind, version, detail) "
        "SELECT $1, 'message', m.game_version, jsonb_build_object('seat', "
        "gs.seat, 'channel', $2::int, 'seq', m.seq, 'from', $3::int, 'name', "
        "(SELECT name FROM players WHERE id = $4), 'text', $5::text) "
        "FROM m, ch, game_seats gs WHERE $2::int <> 0 AND gs.game_id = $1 "
        "AND gs.seat < 31 AND (ch.seats >> gs.seat) & 1 = 1 "
        "AND gs.player_id IS NOT NULL AND gs.player_id <> $4) "
        "SELECT seq FROM m",
        5, p);
    if (!r)
        return srv_db_failed(e);
    srv_kind k = PQntuples(r) == 1 ? SRV_OK : SRV_NOT_FOUND;
    if (k == SRV_OK)
        *seq = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
    PQclear(r);
    if (k != SRV_OK)
        srv_fail(e, k, NULL, "no such channel in this game");
    return k;
}

/* NOTIFY the ids (never the text) in a transaction of its own, as
 * store_notify_version does. A failure is logged: the message is stored
 * and readers find it over REST. */
static void notify_posted(PGconn *c, const char *game_id, int channel,
                          int64_t seq)
{
    char payload[STORE_ID_MAX + 48];
    snprintf(payload, sizeof payload, "%s:%d:%" PRId64, game_id, channel, seq);
    const char *p[] = {payload};
    PGresult *r =
        db_exec(c, PGRES_TUPLES_OK,
                "SELECT pg_notify('" CHAT_NOTIFY_CHANNEL "', $1)", 1, p);
    if (!r)
        log_warn("chat_notify_failed", json_pack("{ss}", "game", game_id));
    PQclear(r);
}

static srv_kind post_on(PGconn *c, const char *game_id, const char *player_id,
                        int channel, const char *text, json_t **out,
                        int *retry_after, srv_error *e)
{
    chat_game g;
    chat_chan ch;
    int64_t seq = 0;
    unsigned seats = 0;
    srv_kind k = load_game(c, game_id, player_id, &g, e);
    if (k == SRV_OK && g.seat < 0)
        k = srv_fail(e, SRV_FORBIDDEN, NULL,
                     "spectators cannot post: only players seated in this "
                     "game write in its channels");
    if (k == SRV_OK)
        k = load_channel(c, &g, channel, &ch, e);
    if (k == SRV_OK)
        k = lock_seat(c, &g, e); /* BEGINs; db_release rolls back a failure */
    if (k == SRV_OK)
        k = rate_check(c, &g, retry_after, e);
    if (k == SRV_OK && channel == 0)
        k = ensure_public(c, game_id, e);
    if (k == SRV_OK)
        k = insert_message(c, &g, channel, player_id, text, &seq, e);
    if (k == SRV_OK) {
        PGresult *r = db_exec(c, PGRES_COMMAND_OK, "COMMIT", 0, NULL);
        k = r ? SRV_OK : srv_db_failed(e);
        PQclear(r);
    }
    if (k != SRV_OK)
        return k;
    notify_posted(c, game_id, channel, seq);
    k = fetch_on(c, game_id, channel, seq, out, &seats, NULL, NULL);
    if (k == SRV_UNAVAILABLE)
        return srv_db_failed(e);
    if (k != SRV_OK)
        return srv_fail(e, SRV_INTERNAL, NULL, "the message was stored");
    return SRV_OK;
}

srv_kind chat_post(db_pool *db, const char *game_id, const char *player_id,
                   int channel, const char *text, json_t **out,
                   int *retry_after, srv_error *e)
{
    *out = NULL;
    *retry_after = 0;
    srv_kind k = chat_check_text(text, e);
    if (k != SRV_OK)
        return k;
    PGconn *c = db_acquire(db, DB_WAIT_MS);
    if (!c)
        return srv_db_failed(e);
    k = post_on(c, game_id, player_id, channel, text, out, retry_after, e);
    db_release(db, c, k == SRV_UNAVAILABLE && db_conn_broken(c));
    return k;
}

/* ------------------------------------------------------------ read ---- */

static srv_kind read_on(PGconn *c, const char *game_id, const char *player_id,
                        int channel, const chat_page *pg, json_t **out,
                        srv_error *e)
{
    chat_game g;
    chat_chan ch;
    char cap[24], secs[24];
    srv_kind k = load_game(c, game_id, player_id, &g, e);
    if (k == SRV_OK)
        k = load_channel(c, &g, channel, &ch, e);
    if (k != SRV_OK)
        return k;
    reader_filter(&g, cap, secs);
    char cs[16], from[24], lim[16];
    int forward = pg->after > 0;
    snprintf(cs, sizeof cs, "%d", channel);
    snprintf(from, sizeof from, "%" PRId64,
             forward          ? pg->after
             : pg->before > 0 ? pg->before
                              : INT64_MAX);
    snprintf(lim, sizeof lim, "%d", pg->limit + 1);
    const char *p[] = {game_id, cs, from, cap, secs, lim};
    PGresult *r = db_exec(
        c, PGRES_TUPLES_OK,
        forward ? "SELECT " MSG_COLUMNS "FROM chat_messages m "
                  "LEFT JOIN players p ON p.id = m.player_id "
                  "WHERE m.game_id = $1 AND m.channel_id = $2 AND m.seq > $3 "
                  "AND m.game_version <= $4 AND m.created_at <= now() - "
                  "make_interval(secs => $5) ORDER BY m.seq ASC LIMIT $6"
                : "SELECT " MSG_COLUMNS "FROM chat_messages m "
                  "LEFT JOIN players p ON p.id = m.player_id "
                  "WHERE m.game_id = $1 AND m.channel_id = $2 AND m.seq < $3 "
                  "AND m.game_version <= $4 AND m.created_at <= now() - "
                  "make_interval(secs => $5) ORDER BY m.seq DESC LIMIT $6",
        6, p);
    if (!r)
        return srv_db_failed(e);
    int n = PQntuples(r);
    int shown = n > pg->limit ? pg->limit : n;
    json_t *msgs = json_array();
    for (int i = 0; i < shown; i++) {
        int row = forward ? i : shown - 1 - i;
        json_array_append_new(msgs, msg_row(r, row));
    }
    PQclear(r);
    *out = json_pack("{si so sb}", "channel", channel, "messages", msgs, "more",
                     n > pg->limit);
    return *out ? SRV_OK : srv_fail(e, SRV_INTERNAL, NULL, "out of memory");
}

srv_kind chat_read(db_pool *db, const char *game_id, const char *player_id,
                   int channel, const chat_page *page, json_t **out,
                   srv_error *e)
{
    *out = NULL;
    PGconn *c = db_acquire(db, DB_WAIT_MS);
    if (!c)
        return srv_db_failed(e);
    srv_kind k = read_on(c, game_id, player_id, channel, page, out, e);
    db_release(db, c, k == SRV_UNAVAILABLE && db_conn_broken(c));
    return k;
}

/* ------------------------------------------------- channels, marks ---- */

#define CHANNEL_COLUMNS                                                        \
    "c.channel_id, c.seats, c.last_seq, coalesce(r.last_read, 0), "            \
    "(SELECT count(*) FROM chat_messages m WHERE m.game_id = c.game_id "       \
    "AND m.channel_id = c.channel_id AND m.seq > coalesce(r.last_read, 0) "    \
    "AND m.seat <> $2) "
#define CHANNEL_FROM                                                           \
    "FROM chat_channels c LEFT JOIN chat_reads r ON r.game_id = c.game_id "    \
    "AND r.channel_id = c.channel_id AND r.seat = $2 WHERE c.game_id = $1 "

static json_t *channel_row(PGresult *r, int i)
{
    int id = atoi(PQgetvalue(r, i, 0));
    return json_pack(
        "{si ss so sI sI sI}", "id", id, "kind", id == 0 ? "public" : "private",
        "seats", seats_json((unsigned)strtoul(PQgetvalue(r, i, 1), NULL, 10)),
        "last_seq", (json_int_t)strtoll(PQgetvalue(r, i, 2), NULL, 10), "read",
        (json_int_t)strtoll(PQgetvalue(r, i, 3), NULL, 10), "unread",
        (json_int_t)strtoll(PQgetvalue(r, i, 4), NULL, 10));
}

/* The newest public seq a spectator may see (the delay applied). */
static srv_kind spectator_public(PGconn *c, const chat_game *g, json_t **out,
                                 srv_error *e)
{
    char cap[24], secs[24];
    reader_filter(g, cap, secs);
    const char *p[] = {g->id, cap, secs};
    PGresult *r = db_exec(
        c, PGRES_TUPLES_OK,
        "SELECT coalesce(max(seq), 0) FROM chat_messages WHERE game_id = $1 "
        "AND channel_id = 0 AND game_version <= $2 "
        "AND created_at <= now() - make_interval(secs => $3)",
        3, p);
    if (!r)
        return srv_db_failed(e);
    *out = json_pack("{si ss s[] sI si si}", "id", 0, "kind", "public", "seats",
                     "last_seq",
                     (json_int_t)strtoll(PQgetvalue(r, 0, 0), NULL, 10), "read",
                     0, "unread", 0);
    PQclear(r);
    return SRV_OK;
}

static srv_kind list_on(PGconn *c, const char *game_id, const char *player_id,
                        json_t **out, srv_error *e)
{
    chat_game g;
    srv_kind k = load_game(c, game_id, player_id, &g, e);
    if (k != SRV_OK)
        return k;
    json_t *list = json_array();
    if (g.seat < 0) {
        json_t *pub = NULL;
        k = spectator_public(c, &g, &pub, e);
        json_array_append_new(list, pub);
    } else {
        char seat[16], bit[16];
        snprintf(seat, sizeof seat, "%d", g.seat);
        snprintf(bit, sizeof bit, "%u", 1u << (unsigned)g.seat);
        const char *p[] = {game_id, seat, bit};
        PGresult *r = db_exec(c, PGRES_TUPLES_OK,
                              "SELECT " CHANNEL_COLUMNS CHANNEL_FROM
                              "AND (c.channel_id = 0 OR (c.seats & $3) <> 0) "
                              "ORDER BY c.channel_id",
                              3, p);
        if (!r)
            k = srv_db_failed(e);
        for (int i = 0; r && i < PQntuples(r); i++)
            json_array_append_new(list, channel_row(r, i));
        if (r && (PQntuples(r) == 0 || atoi(PQgetvalue(r, 0, 0)) != 0))
            json_array_insert_new(
                list, 0,
                json_pack("{si ss s[] si si si}", "id", 0, "kind", "public",
                          "seats", "last_seq", 0, "read", 0, "unread", 0));
        PQclear(r);
    }
    if (k != SRV_OK) {
        json_decref(list);
        return k;
    }
    *out = json_pack("{so so}", "you",
                     g.seat >= 0 ? json_integer(g.seat) : json_null(),
                     "channels", list);
    return SRV_OK;
}

srv_kind chat_list(db_pool *db, const char *game_id, const char *player_id,
                   json_t **out, srv_error *e)
{
    *out = NULL;
    PGconn *c = db_acquire(db, DB_WAIT_MS);
    if (!c)
        return srv_db_failed(e);
    srv_kind k = list_on(c, game_id, player_id, out, e);
    db_release(db, c, k == SRV_UNAVAILABLE && db_conn_broken(c));
    return k;
}

/* One channel of g as the caller sees it in chat_list. */
static srv_kind channel_json(PGconn *c, const chat_game *g, int id,
                             json_t **out, srv_error *e)
{
    char seat[16], cs[16];
    snprintf(seat, sizeof seat, "%d", g->seat);
    snprintf(cs, sizeof cs, "%d", id);
    const char *p[] = {g->id, seat, cs};
    PGresult *r = db_exec(
        c, PGRES_TUPLES_OK,
        "SELECT " CHANNEL_COLUMNS CHANNEL_FROM "AND c.channel_id = $3", 3, p);
    if (!r)
        return srv_db_failed(e);
    *out = PQntuples(r) == 1 ? channel_row(r, 0) : NULL;
    PQclear(r);
    return *out ? SRV_OK : srv_fail(e, SRV_INTERNAL, NULL, "channel missing");
}

/* The seats of a chat_open request, the caller's own added. */
static srv_kind parse_seats(const chat_game *g, const json_t *seats,
                            unsigned *mask, srv_error *e)
{
    if (g->seat < 0 || g->seat >= ENGINE_MAX_SEATS)
        return srv_fail(e, SRV_FORBIDDEN, NULL, "no seat in this game");
    *mask = 1u << (unsigned)g->seat;
    size_t i;
    json_t *s;
    if (!json_is_array(seats) || json_array_size(seats) == 0)
        return srv_fail(e, SRV_INVALID, "seats",
                        "seats must be a non-empty array of seat numbers");
    json_array_foreach(seats, i, s)
    {
        json_int_t n = json_is_integer(s) ? json_integer_value(s) : -1;
        if (n < 0 || n >= g->seat_count)
            return srv_fail(e, SRV_INVALID, "seats",
                            "each seat must be a number from 0 to %d",
                            g->seat_count - 1);
        *mask |= 1u << (unsigned)n;
    }
    if (*mask == 1u << (unsigned)g->seat)
        return srv_fail(e, SRV_INVALID, "seats",
                        "a private channel needs at least one other seat");
    return SRV_OK;
}

/* The id of g's channel with exactly these seats, or 0. -1: the database. */
static int find_channel(PGconn *c, const chat_game *g, unsigned mask)
{
    char ms[16];
    snprintf(ms, sizeof ms, "%u", mask);
    const char *p[] = {g->id, ms};
    PGresult *r =
        db_exec(c, PGRES_TUPLES_OK,
                "SELECT coalesce((SELECT channel_id FROM chat_channels "
                "WHERE game_id = $1 AND seats = $2), 0), "
                "(SELECT count(*) FROM chat_channels "
                "WHERE game_id = $1 AND channel_id > 0)",
                2, p);
    if (!r)
        return -1;
    int id = atoi(PQgetvalue(r, 0, 0));
    if (id == 0 && atoi(PQgetvalue(r, 0, 1)) >= CHAT_CHANNELS_MAX)
        id = -2;
    PQclear(r);
    return id;
}

static srv_kind open_on(PGconn *c, const char *game_id, const char *player_id,
                        const json_t *seats, json_t **out, int *created,
                        srv_error *e)
{
    chat_game g;
    unsigned mask = 0;
    srv_kind k = load_game(c, game_id, player_id, &g, e);
    if (k == SRV_OK && g.seat < 0)
        k = srv_fail(e, SRV_FORBIDDEN, NULL,
                     "spectators cannot open channels: only players seated "
                     "in this game may");
    if (k == SRV_OK)
        k = parse_seats(&g, seats, &mask, e);
    for (int tries = 0; k == SRV_OK && tries < 3; tries++) {
        int id = find_channel(c, &g, mask);
        if (id == -1)
            return srv_db_failed(e);
        if (id > 0)
            return channel_json(c, &g, id, out, e);
        if (id == -2)
            return srv_fail(e, SRV_TOO_MANY, NULL,
                            "a game holds at most %d private channels",
                            CHAT_CHANNELS_MAX);
        char ms[16], seat[16];
        snprintf(ms, sizeof ms, "%u", mask);
        snprintf(seat, sizeof seat, "%d", g.seat);
        const char *p[] = {game_id, ms, seat};
        PGresult *r = db_exec(
            c, PGRES_TUPLES_OK,
            "INSERT INTO chat_channels (game_id, channel_id, seats, "
            "created_by) SELECT $1, coalesce(max(channel_id), 0) + 1, $2, $3 "
            "FROM chat_channels WHERE game_id = $1 "
            "ON CONFLICT DO NOTHING RETURNING channel_id",
            3, p);
        if (!r)
            return srv_db_failed(e);
        id = PQntuples(r) == 1 ? atoi(PQgetvalue(r, 0, 0)) : 0;
        PQclear(r);
        if (id > 0) {
            *created = 1;
            return channel_json(c, &g, id, out, e);
        }
    }
    return k != SRV_OK
               ? k
               : srv_fail(e, SRV_UNAVAILABLE, NULL, "busy: retry shortly");
}

srv_kind chat_open(db_pool *db, const char *game_id, const char *player_id,
                   const json_t *seats, json_t **out, int *created,
                   srv_error *e)
{
    *out = NULL;
    *created = 0;
    PGconn *c = db_acquire(db, DB_WAIT_MS);
    if (!c)
        return srv_db_failed(e);
    srv_kind k = open_on(c, game_id, player_id, seats, out, created, e);
    db_release(db, c, k == SRV_UNAVAILABLE && db_conn_broken(c));
    return k;
}

static srv_kind mark_on(PGconn *c, const char *game_id, const char *player_id,
                        int channel, int64_t seq, json_t **out, srv_error *e)
{
    chat_game g;
    chat_chan ch;
    srv_kind k = load_game(c, game_id, player_id, &g, e);
    if (k == SRV_OK && g.seat < 0)
        k = srv_fail(e, SRV_FORBIDDEN, NULL,
                     "spectators keep no read marks: only players seated "
                     "in this game do");
    if (k == SRV_OK)
        k = load_channel(c, &g, channel, &ch, e);
    if (k == SRV_OK && channel == 0)
        k = ensure_public(c, game_id, e);
    if (k != SRV_OK)
        return k;
    char cs[16], seat[16], ss[24];
    snprintf(cs, sizeof cs, "%d", channel);
    snprintf(seat, sizeof seat, "%d", g.seat);
    snprintf(ss, sizeof ss, "%" PRId64, seq);
    const char *p[] = {game_id, cs, seat, ss};
    PGresult *r = db_exec(
        c, PGRES_COMMAND_OK,
        "INSERT INTO chat_reads (game_id, channel_id, seat, last_read) "
        "SELECT $1, $2, $3, least($4::bigint, last_seq) FROM chat_channels "
        "WHERE game_id = $1 AND channel_id = $2 "
        "ON CONFLICT (game_id, channel_id, seat) DO UPDATE SET last_read = "
        "greatest(chat_reads.last_read, excluded.last_read)",
        4, p);
    if (!r)
        return srv_db_failed(e);
    PQclear(r);
    json_t *chan = NULL;
    k = channel_json(c, &g, channel, &chan, e);
    if (k != SRV_OK)
        return k;
    *out = json_pack("{si sO sO}", "channel", channel, "read",
                     json_object_get(chan, "read"), "unread",
                     json_object_get(chan, "unread"));
    json_decref(chan);
    return SRV_OK;
}

srv_kind chat_mark_read(db_pool *db, const char *game_id, const char *player_id,
                        int channel, int64_t seq, json_t **out, srv_error *e)
{
    *out = NULL;
    PGconn *c = db_acquire(db, DB_WAIT_MS);
    if (!c)
        return srv_db_failed(e);
    srv_kind k = mark_on(c, game_id, player_id, channel, seq, out, e);
    db_release(db, c, k == SRV_UNAVAILABLE && db_conn_broken(c));
    return k;
}

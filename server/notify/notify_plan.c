/*
 * notify_plan.c - what to tell whom about one game (see notify_plan.h).
 */
#include "server/notify/notify_plan.h"

#include "server/game/gamedoc.h"
#include "server/game/spectate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Messages of one channel shown in one notification; the rest counted. */
#define NOTIFY_MESSAGES_SHOWN 5

/* The first line of a notification of kind: to the seat's player (who
 * NULL: "you"), or to a group channel, naming who (the public words). */
static void sentence(const char *kind, const char *who, char *out, size_t n)
{
    if (strcmp(kind, "waiting") == 0)
        snprintf(out, n, "The game waits on %s.", who ? who : "you");
    else if (strcmp(kind, "reminder") == 0)
        snprintf(out, n,
                 "Reminder: the game still waits on you, and the "
                 "deadline is near.");
    else if (strcmp(kind, "final_reminder") == 0)
        snprintf(out, n,
                 "Last call: the deadline is about to pass without "
                 "your move.");
    else if (strcmp(kind, "started") == 0)
        snprintf(out, n, "%s has started.",
                 who ? "The game" : "A game you sit in");
    else if (strcmp(kind, "ended") == 0)
        snprintf(out, n, "%s has ended.",
                 who ? "The game" : "A game you sat in");
    else if (strcmp(kind, "replaced") == 0)
        snprintf(out, n, "A player of your game was replaced by a bot.");
    else
        snprintf(out, n, "You have a private message.");
}

/* The windows waiting on seat: [{"id","mode","deadline"}]. */
static json_t *waiting_windows(const actor_view *v, const json_t *doc, int seat)
{
    json_t *out = json_array();
    size_t i;
    json_t *w;
    json_array_foreach(json_object_get(doc, "windows"), i, w)
    {
        int in = 0, done = 0;
        size_t k;
        json_t *s;
        json_array_foreach(json_object_get(w, "seats"), k, s) in |=
            json_integer_value(s) == seat;
        json_array_foreach(json_object_get(w, "submitted"), k, s) done |=
            json_integer_value(s) == seat;
        const char *mode = json_string_value(json_object_get(w, "mode"));
        if (!in || (done && mode && strcmp(mode, "sealed") == 0))
            continue;
        json_array_append_new(
            out, json_pack("{sO sO sO}", "id", json_object_get(w, "id"), "mode",
                           json_object_get(w, "mode"), "deadline",
                           json_object_get(w, "deadline")
                               ? json_object_get(w, "deadline")
                               : json_null()));
    }
    (void)v;
    return out;
}

/* The lines of the private messages of a "message" item's detail. */
static int message_lines(char *t, size_t cap, int n, const json_t *detail)
{
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(detail, "messages"), i, m)
    {
        const char *name = json_string_value(json_object_get(m, "name"));
        const char *said = json_string_value(json_object_get(m, "text"));
        n += snprintf(t + n, cap - (size_t)n, "From %s: %s\r\n",
                      name ? name : "?", said ? said : "");
        if ((size_t)n >= cap - 200)
            return n;
    }
    json_int_t more = json_integer_value(json_object_get(detail, "more"));
    if (more > 0)
        n += snprintf(t + n, cap - (size_t)n, "... and %lld more\r\n",
                      (long long)more);
    return n;
}

/* "Rock-paper-scissors with Bob" (the others' names; bots as "a bot"). */
static void game_words(const actor_view *v, int seat, char *out, size_t n)
{
    const engine_ruleset *rs = engine_game_ruleset(v->game);
    int at = snprintf(out, n, "%s", rs ? engine_ruleset_title(rs) : "a game");
    int others = 0, count = 0;
    for (int s = 0; s < v->meta->seats; s++)
        count += s != seat;
    for (int s = 0; s < v->meta->seats && at > 0 && (size_t)at < n; s++) {
        if (s == seat)
            continue;
        const char *who =
            v->meta->seat_bot[s][0] ? "a bot" : v->meta->seat_name[s];
        const char *sep = others == 0           ? " with "
                          : others == count - 1 ? " and "
                                                : ", ";
        at += snprintf(out + at, n - (size_t)at, "%s%s", sep, who);
        others++;
    }
}

/* An RFC 3339 UTC time ("2026-12-02T14:05:00.000Z") in the player's offset
 * (minutes east of UTC): "Wed 2 Dec 2026, 15:05 (UTC+01:00)". The text
 * itself when it does not parse. */
static void local_time(const char *rfc3339, int offset, char *out, size_t n)
{
    static const char *const days[] = {"Sun", "Mon", "Tue", "Wed",
                                       "Thu", "Fri", "Sat"};
    static const char *const months[] = {"Jan", "Feb", "Mar", "Apr",
                                         "May", "Jun", "Jul", "Aug",
                                         "Sep", "Oct", "Nov", "Dec"};
    struct tm tm = {0};
    if (sscanf(rfc3339, "%4d-%2d-%2dT%2d:%2d:%2d", &tm.tm_year, &tm.tm_mon,
               &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec) != 6) {
        snprintf(out, n, "%s", rfc3339);
        return;
    }
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    time_t t = timegm(&tm) + (time_t)offset * 60;
    struct tm lt;
    gmtime_r(&t, &lt);
    int a = offset < 0 ? -offset : offset;
    snprintf(out, n, "%s %d %s %d, %02d:%02d (UTC%c%02d:%02d)",
             days[lt.tm_wday % 7], lt.tm_mday, months[lt.tm_mon % 12],
             lt.tm_year + 1900, lt.tm_hour, lt.tm_min, offset < 0 ? '-' : '+',
             a / 60, a % 60);
}

static int player_offset(const notify_input *in, const char *player)
{
    const json_t *p = in->players ? json_object_get(in->players, player) : NULL;
    return (int)json_integer_value(json_object_get(p, "utc_offset"));
}

static const char *player_unsubscribe(const notify_input *in,
                                      const char *player)
{
    const json_t *p = in->players ? json_object_get(in->players, player) : NULL;
    return json_string_value(json_object_get(p, "unsubscribe"));
}

/* "Waiting on WHO: STEP, by WHEN." for each window, the deadline in the
 * offset's time. Returns the new length of t. */
static int waiting_lines(const actor_view *v, char *t, size_t cap, int n,
                         const char *who, const json_t *windows, int offset)
{
    const engine_ruleset *rs = engine_game_ruleset(v->game);
    size_t i;
    json_t *w;
    json_array_foreach(windows, i, w)
    {
        if ((size_t)n >= cap - 300)
            break;
        char step[ENGINE_WINDOW_LABEL_MAX], when[96] = "";
        engine_window_label(rs, json_string_value(json_object_get(w, "id")),
                            step, sizeof step);
        const char *dl = json_string_value(json_object_get(w, "deadline"));
        if (dl)
            local_time(dl, offset, when, sizeof when);
        n += snprintf(t + n, cap - (size_t)n, "Waiting on %s: %s%s%s.\r\n", who,
                      step, dl ? ", by " : "", when);
    }
    return n;
}

/* The mail text; *words: its length without the footer (the words a chat
 * message carries). */
static char *text_of(const actor_view *v, const notify_input *in, int seat,
                     const char *kind, const json_t *windows,
                     const json_t *detail, const char *link, size_t *words)
{
    size_t cap = 2048 + json_array_size(windows) * 240;
    size_t i;
    json_t *w;
    int msgs = strcmp(kind, "message") == 0;
    if (msgs)
        json_array_foreach(json_object_get(detail, "messages"), i, w) cap +=
            200 + strlen(json_string_value(json_object_get(w, "text"))
                             ? json_string_value(json_object_get(w, "text"))
                             : "");
    char *t = malloc(cap);
    if (!t)
        return NULL;
    const char *player = v->meta->seat_player[seat];
    char game[400], first[200];
    game_words(v, seat, game, sizeof game);
    sentence(kind, NULL, first, sizeof first);
    int n = snprintf(t, cap, "%s\r\n\r\n%s, where you play seat %d.\r\n", first,
                     game, seat + 1);
    if (msgs)
        n = message_lines(t, cap, n, detail);
    n = waiting_lines(v, t, cap, n, "you", windows, player_offset(in, player));
    n += snprintf(t + n, cap - (size_t)n, "\r\nOpen the game: %s\r\n", link);
    *words = (size_t)n < cap ? (size_t)n : cap - 1;
    const char *unsub = player_unsubscribe(in, player);
    if (unsub && (size_t)n < cap - 300)
        snprintf(t + n, cap - (size_t)n,
                 "\r\n--\r\nYou get this mail because of your notification "
                 "settings: %s/settings\r\nUnsubscribe: %s/unsubscribe?"
                 "token=%s\r\n",
                 in->base_url, in->base_url, unsub);
    return t;
}

#define SUBJECT_MAX 200

/* "Your move: Rock-paper-scissors with Bob", ... */
static void subject_of(const actor_view *v, int seat, const char *kind,
                       char *out, size_t n)
{
    static const struct {
        const char *kind, *words;
    } lead[] = {{"waiting", "Your move"},
                {"reminder", "Reminder, your move"},
                {"final_reminder", "Last call, your move"},
                {"started", "Started"},
                {"ended", "Ended"},
                {"replaced", "A player was replaced"},
                {"message", "A message"}};
    const char *words = "News";
    for (size_t i = 0; i < sizeof lead / sizeof lead[0]; i++)
        if (strcmp(kind, lead[i].kind) == 0)
            words = lead[i].words;
    char game[400];
    game_words(v, seat, game, sizeof game);
    snprintf(out, n, "%s: %.170s", words, game);
}

static notify_item *push(notify_plan *p)
{
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 8;
        notify_item *grown = realloc(p->items, cap * sizeof *grown);
        if (!grown)
            return NULL;
        p->items = grown;
        p->cap = cap;
    }
    notify_item *it = &p->items[p->n++];
    memset(it, 0, sizeof *it);
    return it;
}

/* One notification for seat: its audience document is the only source of
 * what the body shows. */
static int add_item(const actor_view *v, const notify_input *in, notify_plan *p,
                    int seat, const char *kind, const char *tag,
                    const json_t *detail)
{
    if (in->active && in->active(in->active_ctx, v->meta->game_id, seat))
        return 0;
    json_t *doc = gamedoc_render(v, seat);
    if (!doc)
        return -1;
    notify_item *it = push(p);
    if (!it) {
        json_decref(doc);
        return -1;
    }
    it->seat = seat;
    snprintf(it->player_id, sizeof it->player_id, "%s",
             v->meta->seat_player[seat]);
    snprintf(it->kind, sizeof it->kind, "%s", kind);
    snprintf(it->id, sizeof it->id, "%s:%llu:%d:%s%s%s", v->meta->game_id,
             (unsigned long long)v->version, seat, kind, tag ? ":" : "",
             tag ? tag : "");
    char link[600];
    snprintf(link, sizeof link, "%s/game/%s", in->base_url, v->meta->game_id);
    json_t *windows = waiting_windows(v, doc, seat);
    size_t words = 0;
    it->text = text_of(v, in, seat, kind, windows, detail, link, &words);
    it->chat = it->text ? strndup(it->text, words) : NULL;
    it->subject = malloc(SUBJECT_MAX);
    if (it->subject)
        subject_of(v, seat, kind, it->subject, SUBJECT_MAX);
    json_t *body =
        json_pack("{ss ss s{ss ss sI ss} si so so sO so}", "id", it->id,
                  "event", kind, "game", "id", v->meta->game_id, "ruleset",
                  v->meta->ruleset, "version", (json_int_t)v->version, "status",
                  engine_is_over(v->game) ? "over" : "running", "seat", seat,
                  "url", json_string(link), "windows", windows, "detail",
                  detail ? detail : json_null(), "document", doc);
    it->json = body ? json_dumps(body, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    json_decref(body);
    return it->text && it->chat && it->subject && it->json ? 0 : -1;
}

/* ------------------------------------------- the group channel --- */

/* Whether the game's group channel is told anything: it has one, and its
 * spectators see it live (a delayed game's channel would tell the table
 * what its spectators may not see yet; attaching one is refused too). */
static int public_told(const actor_view *v, const notify_input *in)
{
    return in->channel && !spectate_delayed(v->meta);
}

/* The names of the n seats: "Alice", "Alice and Bob", "Alice, Bob and
 * Carol". */
static void names_of(const actor_view *v, const int *seats, int n, char *out,
                     size_t cap)
{
    int at = 0;
    out[0] = '\0';
    for (int i = 0; i < n && (size_t)at < cap; i++)
        at += snprintf(out + at, cap - (size_t)at, "%s%s",
                       i == 0       ? ""
                       : i == n - 1 ? " and "
                                    : ", ",
                       v->meta->seat_name[seats[i]]);
}

/* "Winner: Alice." of a finished game (the public result). */
static int result_line(const actor_view *v, char *t, size_t cap, int n)
{
    json_t *result = engine_result(v->game);
    json_t *winners = json_object_get(result, "winners");
    int seats[ENGINE_MAX_SEATS], k = 0;
    size_t i;
    json_t *w;
    json_array_foreach(winners, i, w)
    {
        json_int_t s = json_integer_value(w);
        if (s >= 0 && s < v->meta->seats && k < ENGINE_MAX_SEATS)
            seats[k++] = (int)s;
    }
    char names[400];
    names_of(v, seats, k, names, sizeof names);
    if (json_is_true(json_object_get(result, "aborted")))
        n += snprintf(t + n, cap - (size_t)n, "The game was stopped.\r\n");
    else if (k == 0)
        n += snprintf(t + n, cap - (size_t)n, "No winner.\r\n");
    else
        n += snprintf(t + n, cap - (size_t)n, "%s: %s.\r\n",
                      k == 1 ? "Winner" : "Winners", names);
    json_decref(result);
    return n;
}

/* One notification for the game's group channel (seat ENGINE_PUBLIC): its
 * words and JSON come from the public document pub and the game's public
 * facts (names, result) only, never from any seat's view. kind "waiting"
 * names the n seats whose move it is. */
static int add_public(const actor_view *v, const notify_input *in,
                      notify_plan *p, const char *kind, const json_t *pub,
                      const int *seats, int n)
{
    notify_item *it = push(p);
    if (!it)
        return -1;
    it->seat = ENGINE_PUBLIC;
    snprintf(it->kind, sizeof it->kind, "%s", kind);
    snprintf(it->id, sizeof it->id, "%s:%llu:public:%s", v->meta->game_id,
             (unsigned long long)v->version, kind);
    char link[600], who[400], first[600], game[400];
    snprintf(link, sizeof link, "%s/game/%s", in->base_url, v->meta->game_id);
    names_of(v, seats, n, who, sizeof who);
    sentence(kind, who, first, sizeof first);
    game_words(v, ENGINE_PUBLIC, game, sizeof game);
    size_t cap = 2048 + 1200 * (size_t)n;
    char *t = malloc(cap);
    json_t *waiting = json_array();
    if (!t || !waiting) {
        free(t);
        json_decref(waiting);
        return -1;
    }
    int at = snprintf(t, cap, "%s\r\n\r\n%s.\r\n", first, game);
    for (int i = 0; i < n; i++) {
        json_t *windows = waiting_windows(v, pub, seats[i]);
        at = waiting_lines(v, t, cap, at, v->meta->seat_name[seats[i]], windows,
                           0);
        json_array_append_new(waiting,
                              json_pack("{si ss so}", "seat", seats[i], "name",
                                        v->meta->seat_name[seats[i]], "windows",
                                        windows));
    }
    if (strcmp(kind, "ended") == 0)
        at = result_line(v, t, cap, at);
    snprintf(t + at, cap - (size_t)at, "\r\nOpen the game: %s\r\n", link);
    it->text = t;
    it->chat = strdup(t);
    it->subject = malloc(SUBJECT_MAX);
    if (it->subject)
        subject_of(v, ENGINE_PUBLIC, kind, it->subject, SUBJECT_MAX);
    json_t *result = engine_result(v->game);
    json_t *body = json_pack(
        "{ss ss ss s{ss ss sI ss} ss so so ss}", "id", it->id, "event", kind,
        "audience", "public", "game", "id", v->meta->game_id, "ruleset",
        v->meta->ruleset, "version", (json_int_t)v->version, "status",
        engine_is_over(v->game) ? "over" : "running", "url", link, "waiting",
        waiting, "result", result ? result : json_null(), "text", t);
    it->json = body ? json_dumps(body, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    json_decref(body);
    return it->chat && it->subject && it->json ? 0 : -1;
}

static int human(const actor_view *v, int seat)
{
    return v->meta->seat_player[seat][0] != 0 &&
           v->meta->seat_bot[seat][0] == 0;
}

/* Windows newly waiting on each human seat ("waiting"), and the set that
 * waits now into p->waiting. */
static int plan_waiting(const actor_view *v, const notify_input *in,
                        notify_plan *p)
{
    json_t *pub = gamedoc_render(v, ENGINE_PUBLIC);
    if (!pub)
        return -1;
    int rc = 0, fresh_seats[ENGINE_MAX_SEATS], nfresh = 0;
    int group = public_told(v, in);
    for (int s = 0; s < v->meta->seats && rc == 0; s++) {
        if (!human(v, s))
            continue;
        char key[16];
        snprintf(key, sizeof key, "%d", s);
        json_t *now = waiting_windows(v, pub, s), *ids = json_array();
        const json_t *told = json_object_get(in->told, key);
        const json_t *told_group = json_object_get(in->public_told, key);
        int fresh = 0, fresh_group = 0;
        size_t i;
        json_t *w;
        json_array_foreach(now, i, w)
        {
            const char *id = json_string_value(json_object_get(w, "id"));
            json_array_append(ids, json_object_get(w, "id"));
            fresh |= !json_object_get(told, id);
            fresh_group |= !json_object_get(told_group, id);
        }
        json_object_set(p->waiting, key, ids);
        if (group)
            json_object_set(p->public_waiting, key, ids);
        json_decref(ids);
        json_decref(now);
        if (group && fresh_group && nfresh < ENGINE_MAX_SEATS)
            fresh_seats[nfresh++] = s;
        if (fresh)
            rc = add_item(v, in, p, s, "waiting", NULL, NULL);
    }
    if (rc == 0 && nfresh > 0)
        rc = add_public(v, in, p, "waiting", pub, fresh_seats, nfresh);
    json_decref(pub);
    return rc;
}

static json_t *or_null(json_t *j)
{
    return j ? j : json_null();
}

/* The "message" facts of seat s on channel ch, as an item's detail:
 * {"channel", "messages": [{"seq","from","name","text"}] (the first
 * NOTIFY_MESSAGES_SHOWN), "more"}; NULL when there are none. */
static json_t *channel_detail(const json_t *facts, int s, json_int_t ch)
{
    json_t *list = json_array(), *d;
    json_int_t more = 0;
    size_t i;
    json_array_foreach(facts, i, d)
    {
        if (json_integer_value(json_object_get(d, "seat")) != s ||
            json_integer_value(json_object_get(d, "channel")) != ch)
            continue;
        if (json_array_size(list) >= NOTIFY_MESSAGES_SHOWN) {
            more++;
            continue;
        }
        json_array_append_new(
            list, json_pack("{sO sO sO sO}", "seq", json_object_get(d, "seq"),
                            "from", json_object_get(d, "from"), "name",
                            or_null(json_object_get(d, "name")), "text",
                            or_null(json_object_get(d, "text"))));
    }
    if (json_array_size(list) == 0) {
        json_decref(list);
        return NULL;
    }
    return json_pack("{sI so sI}", "channel", ch, "messages", list, "more",
                     more);
}

/* One "message" item per private channel with new messages for seat s
 * (facts of other seats are other recipients': never shown to s). Its
 * id's tag is CHANNEL.SEQ of the first message, so notify_write_items can
 * coalesce a channel's notifications per window. */
static int plan_messages(const actor_view *v, const notify_input *in,
                         notify_plan *p, int s)
{
    json_t *seen = json_array(), *d;
    size_t i;
    int rc = seen ? 0 : -1;
    json_array_foreach(in->messages, i, d)
    {
        if (rc != 0 || json_integer_value(json_object_get(d, "seat")) != s)
            continue;
        json_int_t ch = json_integer_value(json_object_get(d, "channel"));
        size_t k;
        json_t *c;
        int dup = 0;
        json_array_foreach(seen, k, c) dup |= json_integer_value(c) == ch;
        if (dup)
            continue;
        json_array_append_new(seen, json_integer(ch));
        json_t *detail = channel_detail(in->messages, s, ch);
        char tag[48];
        snprintf(tag, sizeof tag, "%lld.%lld", (long long)ch,
                 (long long)json_integer_value(json_object_get(d, "seq")));
        size_t before = p->n;
        rc = detail ? add_item(v, in, p, s, "message", tag, detail) : -1;
        if (rc == 0 && p->n > before)
            p->items[before].channel = (int)ch;
        json_decref(detail);
    }
    json_decref(seen);
    return rc;
}

static int plan_events(const actor_view *v, const notify_input *in,
                       notify_plan *p)
{
    int over = engine_is_over(v->game), rc = 0;
    if (public_told(v, in) && (in->started || over)) {
        json_t *pub = gamedoc_render(v, ENGINE_PUBLIC);
        rc = pub ? 0 : -1;
        if (rc == 0 && in->started)
            rc = add_public(v, in, p, "started", pub, NULL, 0);
        if (rc == 0 && over)
            rc = add_public(v, in, p, "ended", pub, NULL, 0);
        json_decref(pub);
    }
    for (int s = 0; s < v->meta->seats && rc == 0; s++) {
        if (!human(v, s))
            continue;
        if (in->started)
            rc = add_item(v, in, p, s, "started", NULL, NULL);
        if (rc == 0 && over)
            rc = add_item(v, in, p, s, "ended", NULL, NULL);
        size_t i;
        json_t *d;
        json_array_foreach(in->replaced, i, d)
        {
            char tag[16];
            snprintf(tag, sizeof tag, "%lld",
                     (long long)json_integer_value(json_object_get(d, "seat")));
            if (rc == 0)
                rc = add_item(v, in, p, s, "replaced", tag, d);
        }
        if (rc == 0)
            rc = plan_messages(v, in, p, s);
    }
    return rc;
}

int notify_plan_game(const actor_view *v, const notify_input *in,
                     notify_plan *out)
{
    out->version = v->version;
    if (v->version < in->version) {
        out->behind = 1;
        return 0;
    }
    out->waiting = json_object();
    out->public_waiting = json_object();
    if (!out->waiting || !out->public_waiting)
        return -1;
    if (in->reminder_level) {
        int s = in->reminder_seat;
        if (s < 0 || s >= v->meta->seats || !human(v, s))
            return 0;
        json_t *pub = gamedoc_render(v, ENGINE_PUBLIC);
        json_t *now = pub ? waiting_windows(v, pub, s) : NULL;
        int still = 0;
        size_t i;
        json_t *w;
        json_array_foreach(now, i, w) still |=
            strcmp(json_string_value(json_object_get(w, "id")),
                   in->reminder_window) == 0;
        json_decref(now);
        json_decref(pub);
        if (!still)
            return 0;
        return add_item(v, in, out, s,
                        in->reminder_level == 1 ? "reminder" : "final_reminder",
                        in->reminder_tag, NULL);
    }
    if (plan_waiting(v, in, out) != 0)
        return -1;
    return plan_events(v, in, out);
}

void notify_plan_free(notify_plan *p)
{
    for (size_t i = 0; i < p->n; i++) {
        free(p->items[i].subject);
        free(p->items[i].text);
        free(p->items[i].json);
        free(p->items[i].chat);
    }
    free(p->items);
    json_decref(p->waiting);
    json_decref(p->public_waiting);
    memset(p, 0, sizeof *p);
}

char *notify_digest_json(const json_t *items)
{
    json_t *d = json_pack("{ss sO}", "event", "digest", "items", items);
    char *s = d ? json_dumps(d, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    json_decref(d);
    return s;
}

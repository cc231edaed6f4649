/*
 * signals.c - example ruleset "signals": log entries for a set of seats
 * and narrowed audiences (engine_ctx_log_seats, engine_ctx_touch), small
 * enough to read in one go. It is not in the registry's list: the server
 * offers it only when started with CONCLAVE_EXAMPLE_RULESETS=1 (the
 * integration tests do), so tests can play seat-set audiences through the
 * real server.
 *
 * 3 to 8 seats take turns in one open window "t<turn>"; option "turns"
 * (default 12) ends the game. A play {"to":[seats],"text":T} sends the
 * text to those seats (the sender is added): a log entry
 * {"type":"signal","from","to","turn","text"} for exactly that set, and a
 * public {"type":"sent","from","turn","count"} saying that something went
 * to how many seats. A seat's view is {"inbox":[the signals it can read]};
 * the public view is {"sent": how many signals so far}. A play touches the
 * public view and the set's seats only. {"to":[]} passes.
 */
#include "engine/ruleset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEXT_MAX 120

typedef struct signals {
    int seats;
    json_int_t turn, turns;
    json_t *sent; /* [{"from","to":[...],"turn","text"}], owned */
} signals;

static void destroy(void *state)
{
    signals *s = state;
    if (s)
        json_decref(s->sent);
    free(s);
}

static signals *wrap(int seats, json_int_t turn, json_int_t turns, json_t *sent)
{
    signals *s = sent ? malloc(sizeof *s) : NULL;
    if (!s) {
        json_decref(sent);
        return NULL;
    }
    s->seats = seats;
    s->turn = turn;
    s->turns = turns;
    s->sent = sent;
    return s;
}

static const engine_option options[] = {
    {"turns", ENGINE_OPTION_INT, "turns before the end", 1, 1000, 12, NULL},
    {0},
};

static void *setup(engine_ctx *ctx, const json_t *opts, int seats,
                   engine_error *err)
{
    (void)ctx;
    const json_t *t = json_object_get(opts, "turns");
    signals *s = wrap(seats, 0, t ? json_integer_value(t) : 12, json_array());
    if (!s)
        engine_fail(err, ENGINE_EINTERNAL, "", "out of memory");
    return s;
}

static void *clone(const void *state)
{
    const signals *s = state;
    return wrap(s->seats, s->turn, s->turns, json_deep_copy(s->sent));
}

static json_t *save(const void *state)
{
    const signals *s = state;
    return json_pack("{s:i, s:I, s:I, s:o}", "seats", s->seats, "turn", s->turn,
                     "turns", s->turns, "sent", json_deep_copy(s->sent));
}

static void *load(const json_t *saved, engine_error *err)
{
    int seats = 0;
    json_int_t turn = 0, turns = 0;
    json_t *sent = NULL;
    if (json_unpack((json_t *)saved, "{s:i, s:I, s:I, s:o !}", "seats", &seats,
                    "turn", &turn, "turns", &turns, "sent", &sent) != 0 ||
        !json_is_array(sent) || seats < 1) {
        engine_fail(err, ENGINE_EINTERNAL, "state", "saved signals corrupt");
        return NULL;
    }
    return wrap(seats, turn, turns, json_deep_copy(sent));
}

static int is_over(const void *state)
{
    const signals *s = state;
    return s->turn >= s->turns;
}

static int windows(const void *state, engine_window *out, int max)
{
    const signals *s = state;
    if (is_over(s))
        return 0;
    if (max >= 1) {
        snprintf(out[0].id, sizeof out[0].id, "t%lld", (long long)s->turn);
        out[0].mode = ENGINE_OPEN;
        out[0].seats = 1u << (s->turn % s->seats);
        out[0].submitted = 0;
    }
    return 1;
}

/* The seat set of a play's "to" plus the sender; 0 when malformed. */
static uint32_t recipients(const signals *s, const json_t *to, int seat)
{
    size_t i;
    json_t *v;
    uint32_t mask = 1u << seat;
    if (!json_is_array(to))
        return 0;
    json_array_foreach(to, i, v)
    {
        json_int_t n = json_is_integer(v) ? json_integer_value(v) : -1;
        if (n < 0 || n >= s->seats)
            return 0;
        mask |= 1u << n;
    }
    return mask;
}

static int play(void *state, engine_ctx *ctx, int seat, const char *window,
                const json_t *payload, engine_error *err)
{
    signals *s = state;
    (void)window;
    const json_t *to = json_object_get(payload, "to");
    const char *text = json_string_value(json_object_get(payload, "text"));
    uint32_t mask = recipients(s, to, seat);
    if (!mask)
        return engine_fail(err, ENGINE_EINVALID, "to",
                           "to must list seats 0..%d", s->seats - 1);
    if (json_array_size(to) > 0 && (!text || strlen(text) > TEXT_MAX))
        return engine_fail(err, ENGINE_EINVALID, "text",
                           "text must be a string of at most %d bytes",
                           TEXT_MAX);
    json_int_t turn = s->turn++;
    if (json_array_size(to) == 0) {
        engine_ctx_touch(ctx, 0); /* windows and the common fields only */
        return 0;
    }
    json_t *list = json_array();
    for (int i = 0; i < s->seats; i++)
        if (mask & (1u << i))
            json_array_append_new(list, json_integer(i));
    json_t *sig = json_pack("{s:i, s:O, s:I, s:s}", "from", seat, "to", list,
                            "turn", turn, "text", text);
    json_array_append(s->sent, sig);
    json_t *entry = json_deep_copy(sig);
    json_object_set_new(entry, "type", json_string("signal"));
    engine_ctx_log_seats(ctx, mask, entry);
    engine_ctx_log(ctx, json_pack("{s:s, s:i, s:I, s:I}", "type", "sent",
                                  "from", seat, "turn", turn, "count",
                                  (json_int_t)json_array_size(list)));
    engine_ctx_touch(ctx, mask | ENGINE_AUDIENCE_PUBLIC);
    json_decref(sig);
    json_decref(list);
    return 0;
}

static json_t *view(const void *state, int seat)
{
    const signals *s = state;
    if (seat < 0)
        return json_pack("{s:I}", "sent", (json_int_t)json_array_size(s->sent));
    json_t *inbox = json_array();
    size_t i;
    json_t *sig;
    json_array_foreach(s->sent, i, sig)
    {
        size_t k;
        json_t *v;
        json_array_foreach(json_object_get(sig, "to"), k, v)
        {
            if (json_integer_value(v) == seat) {
                json_array_append_new(inbox, json_deep_copy(sig));
                break;
            }
        }
    }
    return json_pack("{s:o}", "inbox", inbox);
}

static json_t *legal(const void *state, int seat, const char *window)
{
    (void)state, (void)seat, (void)window;
    return json_pack("{s:s, s:{s:s, s:[s], s:{s:{s:s}, s:{s:s}}}, s:n}", "kind",
                     "play", "shape", "type", "object", "required", "to",
                     "properties", "to", "type", "array", "text", "type",
                     "string", "choices");
}

static json_t *bot(const void *state, int seat, const char *window,
                   const char *level, engine_rng *rng)
{
    const signals *s = state;
    (void)seat, (void)window, (void)level;
    int other = (int)engine_rng_below(rng, (uint32_t)s->seats);
    return json_pack("{s:[i], s:s}", "to", other, "text", "beep");
}

static json_t *result(const void *state)
{
    return is_over(state) ? json_pack("{s:[], s:b}", "winners", "draw", 1)
                          : NULL;
}

const engine_ruleset signals_ruleset = {
    .id = "signals",
    .title = "Signals (example)",
    .summary = "Messages to sets of seats: seat-set log entries and views.",
    .min_seats = 3,
    .max_seats = 8,
    .options = options,
    .setup = setup,
    .destroy = destroy,
    .clone = clone,
    .save = save,
    .load = load,
    .windows = windows,
    .play = play,
    .view = view,
    .legal = legal,
    .bot = bot,
    .is_over = is_over,
    .result = result,
};

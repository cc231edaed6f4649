/*
 * duel.c - an example ruleset for priority and the stack, for tests only:
 * it is not in engine/registry.c; tests/unit/test_priority.c registers it
 * with engine_register_ruleset, and a server started with
 * --example-rulesets 1 offers it (engine/examples/examples.h).
 *
 * "duel_example": 2-3 seats, 10 life each, a hidden hand of cards. A turn
 * is one priority step "main" for every seat, the active seat first. The
 * holder may pass or play:
 *   {"action":"cast","card":I,"target":SEAT}  bolt: 3 damage to SEAT
 *   {"action":"cast","card":I,"item":ID}      counter: remove item ID
 *   {"action":"cast","card":I}                trap: cast face down (the
 *                                             stack shows only its owner
 *                                             what it is); resolving it
 *                                             reveals it, deals 1 to every
 *                                             other seat, and tells the
 *                                             owner and the seat after the
 *                                             next one (a seat-set entry)
 *   {"action":"cycle","card":I}               discard it and draw at once
 * A resolving bolt triggers "pain" (its target's) and "glee" (its caster's,
 * +1 life); the ruleset queues pain first and the core orders them. When
 * the step ends the next seat's turn begins and it draws (a private log
 * line, so it reveals). The game ends when a seat has no life or after
 * option "turns" (default 6) turns; most life wins. Options: "hands"
 * ([[card names]] per seat, dealt instead of from the deck) and
 * "forfeit_on_timeout" (a timeout forfeits instead of passing). Undo is on.
 * Its twin deals the hands a seat cannot see anew (tests/unit/test_twin.c,
 * which plays it with hold off to check that automatic passes read nothing
 * hidden).
 */
#include <stdlib.h>
#include <string.h>

#include "engine/examples/examples.h"

enum { NONE = 0, BOLT, COUNTER, TRAP, CYCLE, NCARDS };
static const char *const card_names[NCARDS] = {"none", "bolt", "counter",
                                               "trap", "cycle"};
#define HAND_MAX 16
#define DECK 20

typedef struct duel {
    int seats, turns, turn, active, forfeit_rule, forfeited;
    int life[3];
    int hand[3][HAND_MAX], nhand[3];
    int deck[DECK], ndeck;
} duel;

static int card_of(const char *name)
{
    for (int c = 1; name && c < NCARDS; c++)
        if (strcmp(name, card_names[c]) == 0)
            return c;
    return NONE;
}

static int is_over(const void *state)
{
    const duel *d = state;
    if (d->forfeited || d->turn > d->turns)
        return 1;
    for (int s = 0; s < d->seats; s++)
        if (d->life[s] <= 0)
            return 1;
    return 0;
}

static const char *const hand_cards[] = {"bolt", "counter", "trap", "cycle",
                                         NULL};
static const engine_option options[] = {
    {"turns", ENGINE_OPTION_INT, "turns to play", 1, 50, 6, NULL},
    {"forfeit_on_timeout", ENGINE_OPTION_BOOL,
     "a timeout forfeits instead of passing", 0, 0, 0, NULL},
    {"hands", ENGINE_OPTION_HANDS, "fixed hands, one per seat", 0, 8, 0,
     hand_cards},
    {0},
};

/* What the table cannot say: one hand per seat. */
static int check_options(const json_t *o, int seats, engine_error *err)
{
    const json_t *hands = json_object_get(o, "hands");
    if (hands && json_array_size(hands) != (size_t)seats)
        return engine_fail(err, ENGINE_EINVALID, "hands", "one per seat");
    return 0;
}

static void draw(duel *d, engine_ctx *ctx, int seat)
{
    if (d->ndeck == 0 || d->nhand[seat] == HAND_MAX)
        return;
    int c = d->deck[--d->ndeck];
    d->hand[seat][d->nhand[seat]++] = c;
    engine_ctx_log_private(
        ctx, seat,
        json_pack("{s:s, s:s}", "type", "drew", "card", card_names[c]));
}

static void *setup(engine_ctx *ctx, const json_t *o, int seats,
                   engine_error *err)
{
    duel *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->seats = seats;
    d->turn = 1;
    d->turns = json_is_integer(json_object_get(o, "turns"))
                   ? (int)json_integer_value(json_object_get(o, "turns"))
                   : 6;
    d->forfeit_rule = json_is_true(json_object_get(o, "forfeit_on_timeout"));
    for (int i = 0; i < DECK; i++)
        d->deck[i] = 1 + i % 4;
    d->ndeck = DECK;
    engine_rng_shuffle(engine_ctx_rng(ctx), d->deck, DECK, sizeof d->deck[0]);
    const json_t *hands = json_object_get(o, "hands");
    for (int s = 0; s < seats; s++) {
        d->life[s] = 10;
        if (!hands)
            for (int k = 0; k < 3; k++)
                d->hand[s][d->nhand[s]++] = d->deck[--d->ndeck];
        size_t j;
        json_t *c;
        json_array_foreach(json_array_get(hands, s), j, c)
            d->hand[s][d->nhand[s]++] = card_of(json_string_value(c));
    }
    engine_ctx_turn_begin(ctx, 0);
    if (engine_ctx_priority_begin(ctx, "main", (1u << seats) - 1, 0) != 0) {
        free(d);
        engine_fail(err, ENGINE_EINTERNAL, "", "cannot open priority");
        return NULL;
    }
    return d;
}

static void destroy(void *state)
{
    free(state);
}

static void *clone(const void *state)
{
    duel *d = malloc(sizeof *d);
    if (d)
        *d = *(const duel *)state;
    return d;
}

/* The twin hook (tests/unit/test_twin.c): the same game for seat, with
 * the other seats' hands and the deck dealt anew from the cards seat
 * cannot see, every count kept. */
static void *twin(const void *state, int seat, engine_rng *rng)
{
    duel *d = clone(state);
    if (!d)
        return NULL;
    int pool[3 * HAND_MAX + DECK], n = 0;
    for (int s = 0; s < d->seats; s++)
        for (int i = 0; s != seat && i < d->nhand[s]; i++)
            pool[n++] = d->hand[s][i];
    for (int i = 0; i < d->ndeck; i++)
        pool[n++] = d->deck[i];
    engine_rng_shuffle(rng, pool, (size_t)n, sizeof pool[0]);
    n = 0;
    for (int s = 0; s < d->seats; s++)
        for (int i = 0; s != seat && i < d->nhand[s]; i++)
            d->hand[s][i] = pool[n++];
    for (int i = 0; i < d->ndeck; i++)
        d->deck[i] = pool[n++];
    return d;
}

static json_t *ints(const int *v, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_integer(v[i]));
    return a;
}

static json_t *save(const void *state)
{
    const duel *d = state;
    json_t *hands = json_array();
    for (int s = 0; s < d->seats; s++)
        json_array_append_new(hands, ints(d->hand[s], d->nhand[s]));
    return json_pack("{s:i, s:i, s:i, s:i, s:b, s:b, s:o, s:o, s:o}", "seats",
                     d->seats, "turns", d->turns, "turn", d->turn, "active",
                     d->active, "forfeit_rule", d->forfeit_rule, "forfeited",
                     d->forfeited, "life", ints(d->life, d->seats), "hands",
                     hands, "deck", ints(d->deck, d->ndeck));
}

static int load_ints(const json_t *a, int *out, int max, int lo, int hi)
{
    size_t i;
    json_t *v;
    if (!json_is_array(a) || json_array_size(a) > (size_t)max)
        return -1;
    json_array_foreach(a, i, v)
    {
        if (!json_is_integer(v) || json_integer_value(v) < lo ||
            json_integer_value(v) > hi)
            return -1;
        out[i] = (int)json_integer_value(v);
    }
    return (int)json_array_size(a);
}

static void *load(const json_t *j, engine_error *err)
{
    duel *d = calloc(1, sizeof *d);
    json_t *life, *hands, *deck;
    if (!d)
        return NULL;
    if (json_unpack((json_t *)j,
                    "{s:i, s:i, s:i, s:i, s:b, s:b, s:o, s:o, s:o !}", "seats",
                    &d->seats, "turns", &d->turns, "turn", &d->turn, "active",
                    &d->active, "forfeit_rule", &d->forfeit_rule, "forfeited",
                    &d->forfeited, "life", &life, "hands", &hands, "deck",
                    &deck) != 0 ||
        d->seats < 2 || d->seats > 3 ||
        load_ints(life, d->life, d->seats, -99, 99) != d->seats ||
        json_array_size(hands) != (size_t)d->seats ||
        (d->ndeck = load_ints(deck, d->deck, DECK, 1, NCARDS - 1)) < 0)
        goto fail;
    for (int s = 0; s < d->seats; s++)
        if ((d->nhand[s] = load_ints(json_array_get(hands, s), d->hand[s],
                                     HAND_MAX, 1, NCARDS - 1)) < 0)
            goto fail;
    return d;
fail:
    free(d);
    engine_fail(err, ENGINE_EINTERNAL, "state", "corrupt duel state");
    return NULL;
}

static int windows(const void *state, engine_window *out, int max)
{
    (void)state, (void)out, (void)max;
    return 0; /* the only window is the core's priority window */
}

static json_t *view(const void *state, int seat)
{
    const duel *d = state;
    json_t *v =
        json_pack("{s:o, s:o, s:i, s:i, s:i}", "life", ints(d->life, d->seats),
                  "hand_sizes", ints(d->nhand, d->seats), "deck", d->ndeck,
                  "turn", d->turn, "active", d->active);
    if (v && seat >= 0) {
        json_t *hand = json_array();
        for (int i = 0; i < d->nhand[seat]; i++)
            json_array_append_new(hand,
                                  json_string(card_names[d->hand[seat][i]]));
        json_object_set_new(v, "hand", hand);
    }
    return v;
}

/* ------------------------------------------------------------- plays -- */

static void remove_card(duel *d, int seat, int i)
{
    memmove(&d->hand[seat][i], &d->hand[seat][i + 1],
            (size_t)(d->nhand[seat] - i - 1) * sizeof d->hand[seat][0]);
    d->nhand[seat]--;
}

static int push(engine_ctx *ctx, int owner, const char *card, uint32_t targets,
                json_t *payload, json_t *secret)
{
    engine_stack_item it = {0};
    it.owner = owner;
    strncpy(it.source, card, sizeof it.source - 1);
    it.target_seats = targets;
    it.payload = payload;
    it.secret = secret;
    return engine_ctx_stack_push(ctx, &it) ? 0 : ENGINE_EINTERNAL;
}

static int cast(duel *d, engine_ctx *ctx, int seat, int i, const json_t *p,
                engine_error *err)
{
    int card = d->hand[seat][i];
    const engine_stack *st = engine_ctx_stack(ctx);
    const json_t *tj = json_object_get(p, "target");
    const json_t *ij = json_object_get(p, "item");
    if (card == BOLT) {
        json_int_t t = json_is_integer(tj) ? json_integer_value(tj) : -1;
        if (t < 0 || t >= d->seats || t == seat || ij)
            return engine_fail(err, ENGINE_EINVALID, "target",
                               "a bolt targets another seat");
        remove_card(d, seat, i);
        return push(ctx, seat, "bolt", 1u << t,
                    json_pack("{s:s, s:I}", "card", "bolt", "target", t), NULL);
    }
    if (card == COUNTER) {
        json_int_t id = json_is_integer(ij) ? json_integer_value(ij) : -1;
        const engine_stack_item *hit = NULL;
        for (size_t k = 0; k < engine_stack_size(st); k++)
            if ((json_int_t)engine_stack_at(st, k)->id == id)
                hit = engine_stack_at(st, k);
        if (!hit || tj)
            return engine_fail(err, ENGINE_EINVALID, "item",
                               "a counter names an item on the stack");
        int owner = hit->owner;
        remove_card(d, seat, i);
        return push(ctx, seat, "counter", 1u << owner,
                    json_pack("{s:s, s:I}", "card", "counter", "item", id),
                    NULL);
    }
    if (card == TRAP && !tj && !ij) {
        remove_card(d, seat, i);
        return push(ctx, seat, "card", 0,
                    json_pack("{s:s}", "card", "face_down"),
                    json_pack("{s:s}", "card", "trap"));
    }
    return engine_fail(err, ENGINE_EINVALID, "card",
                       "that card is not cast "
                       "like that");
}

static int priority_play(void *state, engine_ctx *ctx, int seat,
                         const char *step, const json_t *p, engine_error *err)
{
    duel *d = state;
    (void)step;
    const char *action = json_string_value(json_object_get(p, "action"));
    const json_t *cj = json_object_get(p, "card");
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)p, key, v)
    {
        if (strcmp(key, "action") != 0 && strcmp(key, "card") != 0 &&
            strcmp(key, "target") != 0 && strcmp(key, "item") != 0)
            return engine_fail(err, ENGINE_EINVALID, key, "unknown field");
    }
    json_int_t i = json_is_integer(cj) ? json_integer_value(cj) : -1;
    if (i < 0 || i >= d->nhand[seat])
        return engine_fail(err, ENGINE_EINVALID, "card", "no such card");
    if (action && strcmp(action, "cast") == 0)
        return cast(d, ctx, seat, (int)i, p, err);
    if (action && strcmp(action, "cycle") == 0 && d->hand[seat][i] == CYCLE &&
        !json_object_get(p, "target") && !json_object_get(p, "item")) {
        remove_card(d, seat, (int)i);
        engine_ctx_log(ctx,
                       json_pack("{s:s, s:i}", "type", "cycled", "seat", seat));
        draw(d, ctx, seat);
        return 0;
    }
    return engine_fail(err, ENGINE_EINVALID, "action", "cast or cycle");
}

static void trigger(engine_ctx *ctx, int owner, const char *card)
{
    engine_stack_item it = {0};
    it.owner = owner;
    strncpy(it.source, card, sizeof it.source - 1);
    it.payload = json_pack("{s:s}", "card", card);
    engine_ctx_trigger(ctx, &it);
}

static int priority_resolve(void *state, engine_ctx *ctx, const char *step,
                            const engine_stack_item *item, engine_error *err)
{
    duel *d = state;
    (void)step, (void)err;
    const json_t *secret = item->secret;
    const char *card = json_string_value(
        json_object_get(secret ? secret : item->payload, "card"));
    engine_ctx_log(ctx, json_pack("{s:s, s:I, s:s}", "type", "resolved", "item",
                                  (json_int_t)item->id, "card", card));
    if (strcmp(card, "bolt") == 0) {
        int t =
            (int)json_integer_value(json_object_get(item->payload, "target"));
        d->life[t] -= 3;
        trigger(ctx, t, "pain"); /* queued target first; the core orders */
        trigger(ctx, item->owner, "glee");
    } else if (strcmp(card, "counter") == 0) {
        engine_ctx_stack_remove(ctx,
                                (uint32_t)json_integer_value(
                                    json_object_get(item->payload, "item")));
    } else if (strcmp(card, "glee") == 0) {
        d->life[item->owner] += 1;
    } else if (strcmp(card, "trap") == 0) {
        engine_ctx_revealed(ctx);
        for (int s = 0; s < d->seats; s++)
            if (s != item->owner)
                d->life[s] -= 1;
        uint32_t team =
            1u << item->owner | 1u << ((item->owner + 2) % d->seats);
        engine_ctx_log_seats(
            ctx, team,
            json_pack("{s:s, s:i}", "type", "team_note", "from", item->owner));
    }
    return 0;
}

static int priority_end(void *state, engine_ctx *ctx, const char *step,
                        engine_error *err)
{
    duel *d = state;
    (void)step, (void)err;
    if (is_over(d))
        return 0;
    d->turn++;
    d->active = (d->active + 1) % d->seats;
    if (is_over(d))
        return 0;
    draw(d, ctx, d->active);
    engine_ctx_turn_begin(ctx, d->active);
    return engine_ctx_priority_begin(ctx, "main", (1u << d->seats) - 1,
                                     d->active);
}

static int priority_timeout(void *state, engine_ctx *ctx, int seat,
                            const char *step, engine_error *err)
{
    duel *d = state;
    (void)ctx, (void)step;
    (void)err;
    if (!d->forfeit_rule)
        return 1; /* pass, as the core does by default */
    d->forfeited = 1;
    d->life[seat] = 0;
    return 0;
}

/* Every play seat may make now, in a fixed order. */
static json_t *choices(const duel *d, const engine_stack *st, int seat)
{
    json_t *a = json_array();
    for (int i = 0; i < d->nhand[seat]; i++) {
        int c = d->hand[seat][i];
        if (c == BOLT)
            for (int t = 0; t < d->seats; t++)
                if (t != seat)
                    json_array_append_new(a, json_pack("{s:s, s:i, s:i}",
                                                       "action", "cast", "card",
                                                       i, "target", t));
        if (c == COUNTER)
            for (size_t k = 0; k < engine_stack_size(st); k++)
                json_array_append_new(
                    a,
                    json_pack("{s:s, s:i, s:I}", "action", "cast", "card", i,
                              "item", (json_int_t)engine_stack_at(st, k)->id));
        if (c == TRAP)
            json_array_append_new(
                a, json_pack("{s:s, s:i}", "action", "cast", "card", i));
        if (c == CYCLE)
            json_array_append_new(
                a, json_pack("{s:s, s:i}", "action", "cycle", "card", i));
    }
    return a;
}

static json_t *priority_legal(const void *state, const engine_stack *st,
                              int seat, const char *step)
{
    (void)step;
    return json_pack("{s:s, s:{s:s}, s:o}", "kind", "play", "shape", "type",
                     "object", "choices", choices(state, st, seat));
}

static json_t *priority_bot(const void *state, const engine_stack *st, int seat,
                            const char *step, const char *level,
                            engine_rng *rng)
{
    (void)step;
    if (strcmp(level, "random") != 0)
        return NULL; /* "basic" and the rest: pass */
    json_t *all = choices(state, st, seat);
    size_t n = json_array_size(all);
    uint32_t k = engine_rng_below(rng, (uint32_t)n + 1);
    json_t *pick = k < n ? json_incref(json_array_get(all, k)) : NULL;
    json_decref(all);
    return pick;
}

static int play(void *state, engine_ctx *ctx, int seat, const char *window,
                const json_t *p, engine_error *err)
{
    (void)state, (void)ctx, (void)seat, (void)window, (void)p;
    return engine_fail(err, ENGINE_ECONFLICT, "window", "no such window");
}

static json_t *legal(const void *state, int seat, const char *window)
{
    (void)state, (void)seat, (void)window;
    return NULL;
}

static json_t *bot(const void *state, int seat, const char *window,
                   const char *level, engine_rng *rng)
{
    (void)state, (void)seat, (void)window, (void)level, (void)rng;
    return NULL;
}

static json_t *result(const void *state)
{
    const duel *d = state;
    int best = -999;
    json_t *winners = json_array();
    for (int s = 0; s < d->seats; s++)
        best = d->life[s] > best ? d->life[s] : best;
    for (int s = 0; s < d->seats; s++)
        if (d->life[s] == best)
            json_array_append_new(winners, json_integer(s));
    return json_pack("{s:o, s:o}", "winners", winners, "scores",
                     ints(d->life, d->seats));
}

const engine_ruleset duel_example_ruleset = {
    .id = "duel_example",
    .title = "Duel (test example)",
    .summary = "A test-only example of priority and the stack.",
    .min_seats = 2,
    .max_seats = 3,
    .options = options,
    .check_options = check_options,
    .setup = setup,
    .destroy = destroy,
    .clone = clone,
    .twin = twin,
    .save = save,
    .load = load,
    .windows = windows,
    .play = play,
    .view = view,
    .legal = legal,
    .bot = bot,
    .is_over = is_over,
    .result = result,
    .priority_play = priority_play,
    .priority_resolve = priority_resolve,
    .priority_end = priority_end,
    .priority_timeout = priority_timeout,
    .priority_legal = priority_legal,
    .priority_bot = priority_bot,
    .priority_undo = 1,
};

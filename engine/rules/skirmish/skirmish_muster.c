/*
 * skirmish_muster.c - Skirmish's two sealed windows: "muster" (each player
 * names a prebuilt squad or a custom one within the budget) and "deploy"
 * (each places its squad on its own three rows), each revealed together by
 * the core; then who starts, and the first turn.
 *
 * Orders: {"squad":"iron_wall"} or {"cards":["key", ...]} in muster;
 * {"squares":["c3", ...]} in deploy, one square per creature in squad
 * order. Until the reveal the orders are held by the core, so nothing here
 * shows one seat's choice to the other.
 */
#include <stdio.h>
#include <string.h>

#include "engine/rules/skirmish/skirmish_internal.h"

int sk_windows(const void *state, engine_window *out, int max)
{
    const sk_state *s = state;
    if (s->phase != SK_MUSTER && s->phase != SK_DEPLOY)
        return 0;
    if (max >= 1) {
        memset(&out[0], 0, sizeof out[0]);
        snprintf(out[0].id, sizeof out[0].id, "%s",
                 s->phase == SK_MUSTER ? "muster" : "deploy");
        out[0].mode = ENGINE_SEALED;
        out[0].seats = 3u;
    }
    return 1;
}

int sk_order_squad(const json_t *order, uint8_t *out, engine_error *err)
{
    const skirmish_cardset *cs = sk_cards();
    const json_t *sq = json_object_get(order, "squad");
    const json_t *cards = json_object_get(order, "cards");
    if (json_object_size(order) != 1 || (!sq && !cards))
        return engine_fail(err, ENGINE_EINVALID, "squad",
                           "an order is {\"squad\":KEY} or {\"cards\":[KEYS]}");
    if (sq) {
        int k = skirmish_squad_find(cs, json_string_value(sq));
        if (k < 0)
            return engine_fail(err, ENGINE_EINVALID, "squad",
                               "no prebuilt squad has that key");
        memcpy(out, cs->squads[k].cards, cs->squads[k].n);
        return cs->squads[k].n;
    }
    if (!json_is_array(cards) ||
        json_array_size(cards) > (size_t)cs->max_creatures ||
        json_array_size(cards) > SKIRMISH_SQUAD_MAX)
        return engine_fail(err, ENGINE_EINVALID, "cards",
                           "cards is an array of at most %d creature keys",
                           cs->max_creatures);
    size_t i;
    json_t *c;
    json_array_foreach(cards, i, c)
    {
        int d = skirmish_design_find(cs, json_string_value(c));
        if (d < 0)
            return engine_fail(err, ENGINE_EINVALID, "cards",
                               "cards[%zu] is not a creature key", i);
        out[i] = (uint8_t)d;
    }
    int n = (int)json_array_size(cards);
    if (skirmish_squad_check(cs, out, n, err) != 0)
        return -1;
    return n;
}

/* The home square of seat's k-th row from the front, column c. */
static int home_sq(int seat, int k, int c)
{
    int row = seat == 0 ? SKIRMISH_HOME_ROWS - 1 - k : SKIRMISH_HOME_ROWS + k;
    return row * SKIRMISH_COLS + c;
}

static int is_home(int seat, int sq)
{
    return seat == 0 ? sk_row(sq) < SKIRMISH_HOME_ROWS
                     : sk_row(sq) >= SKIRMISH_HOME_ROWS;
}

static int check_deploy(const sk_state *s, int seat, const json_t *order,
                        engine_error *err)
{
    const json_t *sqs = json_object_get(order, "squares");
    int used[SK_SQUARES] = {0};
    if (json_object_size(order) != 1 || !json_is_array(sqs) ||
        json_array_size(sqs) != (size_t)s->nunits[seat])
        return engine_fail(err, ENGINE_EINVALID, "squares",
                           "squares is an array of %d squares, one per "
                           "creature in squad order",
                           s->nunits[seat]);
    size_t i;
    json_t *v;
    json_array_foreach(sqs, i, v)
    {
        int sq = sk_sq_parse(json_string_value(v));
        if (sq < 0 || !is_home(seat, sq))
            return engine_fail(err, ENGINE_EINVALID, "squares",
                               "squares[%zu] is not one of your home squares "
                               "(rows %s)",
                               i, seat == 0 ? "1-3" : "4-6");
        if (used[sq]++)
            return engine_fail(err, ENGINE_EINVALID, "squares",
                               "squares[%zu] is used twice", i);
    }
    return 0;
}

int sk_check_order(const void *state, int seat, const char *window,
                   const json_t *order, engine_error *err)
{
    const sk_state *s = state;
    uint8_t cards[SKIRMISH_SQUAD_MAX];
    if (s->phase == SK_MUSTER && strcmp(window, "muster") == 0)
        return sk_order_squad(order, cards, err) < 0 ? ENGINE_EINVALID : 0;
    if (s->phase == SK_DEPLOY && strcmp(window, "deploy") == 0)
        return check_deploy(s, seat, order, err);
    return engine_fail(err, ENGINE_ECONFLICT, "window", "no such window");
}

json_t *sk_default_order(const void *state, int seat, const char *window,
                         engine_rng *rng)
{
    const sk_state *s = state;
    (void)rng;
    if (strcmp(window, "muster") == 0)
        return json_pack("{s:s}", "squad", sk_cards()->squads[0].key);
    json_t *sqs = json_array();
    char name[4];
    for (int i = 0; i < s->nunits[seat]; i++)
        json_array_append_new(
            sqs,
            json_string(sk_sq_name(
                home_sq(seat, i / SKIRMISH_COLS, i % SKIRMISH_COLS), name)));
    return json_pack("{s:o}", "squares", sqs);
}

static void muster(sk_state *s, engine_ctx *ctx, const json_t *const *orders)
{
    const skirmish_cardset *cs = sk_cards();
    for (int seat = 0; seat < SK_SEATS; seat++) {
        uint8_t cards[SKIRMISH_SQUAD_MAX] = {0};
        int n = sk_order_squad(orders[seat], cards, NULL);
        char text[400] = "";
        if (n < 0)
            n = 0; /* cannot happen: the core checked the order */
        size_t used = 0;
        s->nunits[seat] = n;
        s->cost[seat] = skirmish_squad_cost(cs, cards, n);
        for (int i = 0; i < n; i++) {
            int *c = s->cr[s->nu++];
            memset(c, 0, U_NF * sizeof c[0]);
            const skirmish_design *d = &cs->designs[cards[i]];
            c[U_DESIGN] = cards[i];
            c[U_OWNER] = seat;
            c[U_SQ] = c[U_LAST_SQ] = -1;
            c[U_LIFE] = d->life;
            c[U_TOKENS] = d->tokens;
            int w = snprintf(text + used, sizeof text - used, "%s%s",
                             i ? ", " : "", d->name);
            if (w > 0 && (size_t)w < sizeof text - used)
                used += (size_t)w;
        }
        char who[24];
        sk_log(ctx, "muster", "%s musters %d creatures (cost %d): %s.",
               sk_cap(sk_seat_name(ctx, seat, who)), n, s->cost[seat], text);
    }
    s->phase = SK_DEPLOY;
}

static void deploy(sk_state *s, engine_ctx *ctx, const json_t *const *orders)
{
    for (int seat = 0; seat < SK_SEATS; seat++) {
        const json_t *sqs = json_object_get(orders[seat], "squares");
        int base = seat ? s->nunits[0] : 0;
        for (int i = 0; i < s->nunits[seat]; i++) {
            int sq = sk_sq_parse(json_string_value(json_array_get(sqs, i)));
            s->cr[base + i][U_SQ] = s->cr[base + i][U_LAST_SQ] = sq;
            s->cr[base + i][U_MP] = sk_design(s, base + i)->move;
        }
    }
    sk_log(ctx, "deploy", "Both squads are deployed.");
    s->phase = SK_PLAY;
    int first;
    char who[24];
    if (s->cost[0] != s->cost[1]) {
        first = s->cost[0] < s->cost[1] ? 0 : 1;
        char again[24];
        sk_seat_name(ctx, first, who);
        sk_log(ctx, "first", "%s's squad costs less: %s starts.", sk_cap(who),
               sk_seat_name(ctx, first, again));
    } else {
        int roll = 1 + (int)engine_rng_below(engine_ctx_rng(ctx), 6);
        first = roll <= 3 ? 0 : 1;
        sk_log(ctx, "first",
               "The squads cost the same; the die shows %d: %s starts.", roll,
               sk_seat_name(ctx, first, who));
    }
    s->first = first;
    sk_begin_turn(s, ctx, first);
}

int sk_resolve(void *state, engine_ctx *ctx, const char *window,
               const json_t *const *orders, engine_error *err)
{
    sk_state *s = state;
    if (s->phase == SK_MUSTER && strcmp(window, "muster") == 0)
        muster(s, ctx, orders);
    else if (s->phase == SK_DEPLOY && strcmp(window, "deploy") == 0)
        deploy(s, ctx, orders);
    else
        return engine_fail(err, ENGINE_EINTERNAL, "window", "no such window");
    return 0;
}

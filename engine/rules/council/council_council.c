/*
 * council_council.c - Galactic Council's council phase (part II, seed 000
 * section 2): when it sits (every round after the strategy picks, or after
 * the status phase once Concordia is taken, or never), the speaker and the
 * agenda (the Forum holder's choice or one drawn at random), the lobby
 * window for council action cards and bribes with the new public objective,
 * and the order parts of the lobby and council windows with their checks.
 * The representatives, the vote, command markers and diplomatic capture
 * are in council_vote.c (docs/games/council.md, "The council").
 */
#include "engine/rules/council/council_council.h"

#include <stdio.h>
#include <string.h>

static int holds_card(const cnc_state *s, int p)
{
    return s->p[p].card >= 0 ? s->p[p].card : s->p[p].last_card;
}

int cnc_council_initiative(const cnc_state *s, int order[ENGINE_MAX_SEATS])
{
    const cnc_data *d = cnc_data_get();
    int n = 0;
    for (int c = 0; c < d->nstrategies; c++)
        for (int p = 0; p < s->seats; p++)
            if (holds_card(s, p) == c)
                order[n++] = p;
    for (int p = 0; p < s->seats; p++)
        if (holds_card(s, p) < 0)
            order[n++] = p;
    return n;
}

int cnc_council_order(const cnc_state *s, int out[ENGINE_MAX_SEATS])
{
    int sp = s->c.speaker >= 0 ? s->c.speaker : s->speaker;
    for (int i = 0; i < s->seats; i++)
        out[i] = (sp + i) % s->seats;
    return s->seats;
}

int cnc_objective_value(int round)
{
    return round <= 5 ? 1 : round <= 9 ? 2 : 3;
}

int cnc_public_vp(const cnc_state *s, int k)
{
    if (s->c.obj_round[k] > 0)
        return cnc_objective_value(s->c.obj_round[k]);
    return cnc_data_get()->objectives[s->public_deck[k]].vp;
}

int cnc_marker_cost(int n)
{
    return n * (n + 1) / 2;
}

/* The next agenda of the deck, never `except` (a vetoed one); when the
 * deck is out, every agenda not held, not in force, not on the table and
 * not `except` is shuffled into a new one (ours). -1: none left. */
static int draw_except(cnc_state *s, engine_ctx *ctx, int except)
{
    const cnc_data *d = cnc_data_get();
    if (s->c.deck_pos >= s->c.ndeck) {
        int n = 0;
        for (int a = 0; a < d->nagendas; a++) {
            int out = s->c.laws[a] || a == s->c.agenda || a == except;
            for (int p = 0; p < s->seats; p++)
                out |= s->c.held[p][a];
            if (!out)
                s->c.deck[n++] = (int8_t)a;
        }
        if (ctx && n > 1)
            engine_rng_shuffle(engine_ctx_rng(ctx), s->c.deck, (size_t)n, 1);
        s->c.ndeck = (int8_t)n;
        s->c.deck_pos = 0;
        if (n == 0)
            return -1;
    }
    return s->c.deck[s->c.deck_pos++];
}

int cnc_agenda_draw(cnc_state *s, engine_ctx *ctx)
{
    return draw_except(s, ctx, -1);
}

/* Agenda a goes back under the deck (ours: what a speaker does not put
 * or keep circulates again). */
static void agenda_return(cnc_state *s, int a)
{
    int left = s->c.ndeck - s->c.deck_pos;
    memmove(s->c.deck, s->c.deck + s->c.deck_pos, (size_t)left);
    s->c.deck_pos = 0;
    s->c.ndeck = (int8_t)left;
    for (int i = 0; i < left; i++)
        if (s->c.deck[i] == a)
            return; /* already there */
    if (left < CNC_MAX_AGENDAS)
        s->c.deck[s->c.ndeck++] = (int8_t)a;
}

static json_t *agenda_entry(const char *type, int a)
{
    const cnc_agenda *g = &cnc_data_get()->agendas[a];
    return json_pack("{s:s, s:s, s:s, s:s}", "type", type, "agenda", g->key,
                     "kind", g->kind == CNC_AGENDA_LAW ? "law" : "election",
                     "name", g->name);
}

/* The seat holding the strategy card with this ability, else -1. */
static int holder_of(const cnc_state *s, int ability)
{
    const cnc_data *d = cnc_data_get();
    for (int p = 0; p < s->seats; p++) {
        int c = holds_card(s, p);
        if (c >= 0 && d->strategies[c].ability == ability)
            return p;
    }
    return -1;
}

static int held_count(const cnc_state *s, int seat)
{
    int n = 0;
    for (int a = 0; a < CNC_MAX_AGENDAS; a++)
        n += s->c.held[seat][a];
    return n;
}

void cnc_council_begin(cnc_state *s, engine_ctx *ctx)
{
    int order[ENGINE_MAX_SEATS] = {0};
    int forum = holder_of(s, CNC_STRAT_AGENDA);
    cnc_council_initiative(s, order);
    s->c.speaker = (int8_t)(forum >= 0 ? forum : order[0]);
    s->c.agenda = -1;
    s->c.tabled = 0;
    s->c.guarded = s->c.silenced = 0;
    s->c.objective_pick = 0;
    memset(s->c.extra_votes, 0, sizeof s->c.extra_votes);
    cnc_log(ctx, json_pack("{s:s, s:i, s:b}", "type", "council", "speaker",
                           s->c.speaker, "forum", forum >= 0));
    if (forum >= 0) {
        /* The Forum holder draws two agendas and puts one it holds. */
        for (int k = 0; k < CNC_AGENDA_DRAW; k++) {
            int a = cnc_agenda_draw(s, ctx);
            if (a >= 0)
                s->c.held[forum][a] = 1;
        }
        if (held_count(s, forum) > 0) {
            s->phase = CNC_PHASE_AGENDA;
            return;
        }
    } else {
        s->c.agenda = (int8_t)cnc_agenda_draw(s, ctx);
        if (s->c.agenda >= 0)
            cnc_log(ctx, agenda_entry("agenda", s->c.agenda));
    }
    s->phase = cnc_lobby_in_action(s) ? CNC_PHASE_ACTION : CNC_PHASE_LOBBY;
}

void cnc_council_choose(cnc_state *s, engine_ctx *ctx, int seat, int a,
                        int keep)
{
    s->c.held[seat][a] = 0;
    s->c.agenda = (int8_t)a;
    /* The hand's cap (ours): at most CNC_AGENDA_KEEP (the one named) stays
     * for a later council; every other unused agenda goes back. */
    for (int k = 0; k < CNC_MAX_AGENDAS; k++)
        if (s->c.held[seat][k] && k != keep) {
            s->c.held[seat][k] = 0;
            agenda_return(s, k);
        }
    cnc_log(ctx, agenda_entry("agenda", a));
    s->phase = cnc_lobby_in_action(s) ? CNC_PHASE_ACTION : CNC_PHASE_LOBBY;
}

void cnc_after_picks(cnc_state *s, engine_ctx *ctx)
{
    if (s->c.mode == CNC_COUNCIL_EVERY_ROUND)
        cnc_council_begin(s, ctx);
    else
        s->phase = CNC_PHASE_ACTION;
}

void cnc_after_action(cnc_state *s, engine_ctx *ctx)
{
    if (s->c.mode == CNC_COUNCIL_EVERY_ROUND)
        s->phase = CNC_PHASE_COUNCIL;
    else
        cnc_status_phase(s, ctx);
}

int cnc_council_after_status(cnc_state *s, engine_ctx *ctx)
{
    if (s->c.mode != CNC_COUNCIL_AFTER_STATUS || !s->council_convened)
        return 0;
    cnc_council_begin(s, ctx);
    return 1;
}

/* ------------------------------------------------------------ parts -- */

static int int_field(const json_t *v, const char *k, int lo, int hi, int *out)
{
    const json_t *x = json_object_get(v, k);
    if (!json_is_integer(x) || json_integer_value(x) < lo ||
        json_integer_value(x) > hi)
        return -1;
    *out = (int)json_integer_value(x);
    return 0;
}

static int action_key(const char *k)
{
    const cnc_data *d = cnc_data_get();
    for (int a = 0; k && a < d->nactions; a++)
        if (strcmp(d->actions[a].key, k) == 0)
            return a;
    return -1;
}

static int role_key(const char *k)
{
    static const char *const roles[] = {"spy", "bodyguard", "councillor",
                                        "clerk"};
    for (int r = 0; k && r < 4; r++)
        if (strcmp(roles[r], k) == 0)
            return r;
    return -1;
}

static int parse_play(const cnc_state *s, const json_t *v, cnc_cpart *o,
                      const char **why)
{
    o->card = action_key(json_string_value(json_object_get(v, "card")));
    if (o->card < 0 ||
        cnc_data_get()->actions[o->card].timing != CNC_TIME_COUNCIL) {
        *why = "card must be the key of an action card timed for the council";
        return -1;
    }
    int eff = cnc_data_get()->actions[o->card].effect;
    if (eff == CNC_AFX_SILENCE &&
        int_field(v, "seat", 0, s->seats - 1, &o->seat)) {
        *why = "seat must name the player to silence";
        return -1;
    }
    if (eff == CNC_AFX_EXTRA_VOTES &&
        int_field(v, "amount", 1, 9, &o->amount)) {
        *why = "amount must be the trade goods to pay, 1..9";
        return -1;
    }
    return 0;
}

static int parse_vote(const cnc_state *s, const json_t *v, cnc_cpart *o,
                      const char **why)
{
    const cnc_data *d = cnc_data_get();
    if (s->c.agenda < 0 || s->c.tabled) {
        *why = "there is no agenda to vote on";
        return -1;
    }
    if (d->agendas[s->c.agenda].kind == CNC_AGENDA_ELECTION) {
        if (int_field(v, "seat", 0, s->seats - 1, &o->seat)) {
            *why = "an election vote names a seat";
            return -1;
        }
        return 0;
    }
    const json_t *f = json_object_get(v, "for");
    if (!json_is_boolean(f)) {
        *why = "a law vote is {\"type\": \"vote\", \"for\": true|false}";
        return -1;
    }
    o->vote_for = json_is_true(f);
    return 0;
}

static int parse_capture(const cnc_state *s, const json_t *v, cnc_cpart *o,
                         const char **why)
{
    const json_t *h = json_object_get(v, "sector");
    cnc_hex x = {0, 0};
    if (!json_is_array(h) || json_array_size(h) != 2 ||
        !json_is_integer(json_array_get(h, 0)) ||
        !json_is_integer(json_array_get(h, 1))) {
        *why = "sector must be [q, r]";
        return -1;
    }
    x.q = (int8_t)json_integer_value(json_array_get(h, 0));
    x.r = (int8_t)json_integer_value(json_array_get(h, 1));
    o->sector = json_integer_value(json_array_get(h, 0)) == x.q &&
                        json_integer_value(json_array_get(h, 1)) == x.r
                    ? cnc_sector_at(&s->g, x)
                    : -1;
    if (o->sector < 0) {
        *why = "sector is not on the map";
        return -1;
    }
    if (int_field(v, "planet", 0, CNC_MAX_PLANETS - 1, &o->planet)) {
        *why = "planet must be the planet's index in the sector, 0..2";
        return -1;
    }
    return 0;
}

/* The kinds each window takes. */
static const struct {
    const char *name;
    int lobby, council;
} kinds[] = {
    [CNC_CP_PLAY] = {"play", 1, 0},
    [CNC_CP_GIVE] = {"give", 1, 1},
    [CNC_CP_OBJECTIVE] = {"objective", 1, 0},
    [CNC_CP_REP] = {"representative", 1, 0}, /* sent before the debate */
    [CNC_CP_VOTE] = {"vote", 0, 1},
    [CNC_CP_MARKERS] = {"markers", 0, 1},
    [CNC_CP_CAPTURE] = {"capture", 0, 1},
};

static int parse_fields(const cnc_state *s, const json_t *v, cnc_cpart *o,
                        const char **why)
{
    switch (o->type) {
    case CNC_CP_PLAY:
        return parse_play(s, v, o, why);
    case CNC_CP_GIVE:
        if (int_field(v, "seat", 0, s->seats - 1, &o->seat) ||
            int_field(v, "trade_goods", 1, 99, &o->amount)) {
            *why = "a gift is {\"type\": \"give\", \"seat\": n, "
                   "\"trade_goods\": 1..99}";
            return -1;
        }
        return 0;
    case CNC_CP_OBJECTIVE:
        if (int_field(v, "pick", 0, 1, &o->pick)) {
            *why = "pick must be 0 or 1 (the first or second unrevealed)";
            return -1;
        }
        return 0;
    case CNC_CP_REP:
        o->role = role_key(json_string_value(json_object_get(v, "role")));
        if (o->role < 0) {
            *why = "role must be spy, bodyguard, councillor or clerk";
            return -1;
        }
        if (o->role == CNC_REP_SPY &&
            int_field(v, "target", 0, s->seats - 1, &o->target)) {
            *why = "a spy names the target seat";
            return -1;
        }
        return 0;
    case CNC_CP_VOTE:
        return parse_vote(s, v, o, why);
    case CNC_CP_MARKERS:
        if (int_field(v, "count", 1, CNC_MAX_MARKER_BUY, &o->amount)) {
            *why = "count must be 1..5";
            return -1;
        }
        return 0;
    default:
        return parse_capture(s, v, o, why);
    }
}

int cnc_cpart_parse(const cnc_state *s, const json_t *v, int council,
                    cnc_cpart *o, const char **why)
{
    memset(o, 0, sizeof *o);
    o->type = o->card = o->seat = o->target = o->sector = -1;
    const char *t = json_string_value(json_object_get(v, "type"));
    for (int k = 0; t && k < CNC_CP_COUNT; k++)
        if (strcmp(kinds[k].name, t) == 0 &&
            (council ? kinds[k].council : kinds[k].lobby))
            o->type = k;
    if (!json_is_object(v) || o->type < 0) {
        *why = council ? "type must be vote, markers, capture or give"
                       : "type must be play, give, objective or "
                         "representative";
        return -1;
    }
    return parse_fields(s, v, o, why);
}

int cnc_council_check(const cnc_state *s, int seat, const json_t *order,
                      engine_error *err)
{
    int council = s->phase == CNC_PHASE_COUNCIL, once[CNC_CP_COUNT] = {0};
    if (!json_is_object(order) || json_object_size(order) > CNC_MAX_PARTS)
        return engine_fail(err, ENGINE_EINVALID, "",
                           "an order is an object of at most %d parts",
                           CNC_MAX_PARTS);
    const char *k;
    const json_t *v;
    json_object_foreach((json_t *)order, k, v)
    {
        size_t n = strlen(k);
        if (n == 0 || n >= CNC_PART_KEY_MAX ||
            strspn(k, "abcdefghijklmnopqrstuvwxyz0123456789_") != n)
            return engine_fail(err, ENGINE_EINVALID, "",
                               "part keys are [a-z0-9_]{1,16}");
        cnc_cpart o;
        const char *why = "";
        if (cnc_cpart_parse(s, v, council, &o, &why))
            return engine_fail(err, ENGINE_EINVALID, k, "%s", why);
        if (o.type == CNC_CP_VOTE && cnc_rep_removed(s, seat))
            return engine_fail(err, ENGINE_EINVALID, k,
                               "your representative was removed from this "
                               "council: you do not vote on this agenda");
        if ((o.type == CNC_CP_REP || o.type == CNC_CP_VOTE ||
             o.type == CNC_CP_OBJECTIVE || o.type == CNC_CP_MARKERS) &&
            once[o.type]++)
            return engine_fail(err, ENGINE_EINVALID, k, "at most one %s part",
                               kinds[o.type].name);
    }
    return 0;
}

/* Seat's parts of one kind, in key order, to fn. */
void cnc_cparts_each(cnc_state *s, engine_ctx *ctx, int seat,
                     const json_t *order, int type, int council,
                     cnc_cpart_fn fn)
{
    const char *keys[CNC_MAX_PARTS] = {0};
    int n = 0;
    const char *k;
    const json_t *v;
    json_object_foreach((json_t *)order, k, v)
    {
        if (n < CNC_MAX_PARTS)
            keys[n++] = k;
    }
    for (int i = 1; i < n; i++) /* insertion sort: at most 16 keys */
        for (int j = i; j > 0 && strcmp(keys[j - 1], keys[j]) > 0; j--) {
            const char *t = keys[j];
            keys[j] = keys[j - 1];
            keys[j - 1] = t;
        }
    for (int i = 0; i < n; i++) {
        cnc_cpart o;
        const char *why = "";
        if (cnc_cpart_parse(s, json_object_get(order, keys[i]), council, &o,
                            &why) == 0 &&
            o.type == type)
            fn(s, ctx, seat, &o);
    }
}

void cnc_refuse(engine_ctx *ctx, int seat, const char *what, const char *why)
{
    cnc_log_seats(ctx, 1u << seat,
                  json_pack("{s:s, s:i, s:s, s:s}", "type", "refused", "seat",
                            seat, "part", what, "why", why));
}

/* ------------------------------------------------------------ lobby -- */

int cnc_lobby_in_action(const cnc_state *s)
{
    return s->edition >= CNC_EDITION_2 && s->c.mode == CNC_COUNCIL_EVERY_ROUND;
}

int cnc_is_lobby_part(const json_t *v)
{
    const char *t = json_string_value(json_object_get(v, "type"));
    if (!t)
        return 0;
    if (strcmp(t, "give") == 0 || strcmp(t, "objective") == 0 ||
        strcmp(t, "representative") == 0)
        return 1;
    if (strcmp(t, "play") != 0)
        return 0;
    int a = action_key(json_string_value(json_object_get(v, "card")));
    return a >= 0 && cnc_data_get()->actions[a].timing == CNC_TIME_COUNCIL;
}

void cnc_split_order(const json_t *order, json_t **lobby, json_t **action)
{
    *lobby = json_object();
    *action = json_object();
    const char *k;
    const json_t *v;
    json_object_foreach((json_t *)order, k, v)
    {
        json_object_set(cnc_is_lobby_part(v) ? *lobby : *action, k,
                        (json_t *)v);
    }
}

void cnc_give(cnc_state *s, engine_ctx *ctx, int seat, const cnc_cpart *o)
{
    if (o->seat == seat || s->p[seat].tg < o->amount) {
        cnc_refuse(ctx, seat, "give",
                   o->seat == seat ? "a gift goes to another player"
                                   : "not enough trade goods");
        return;
    }
    s->p[seat].tg = (int16_t)(s->p[seat].tg - o->amount);
    s->p[o->seat].tg = (int16_t)(s->p[o->seat].tg + o->amount);
    cnc_log(ctx, json_pack("{s:s, s:i, s:i, s:i}", "type", "gift", "seat", seat,
                           "to", o->seat, "trade_goods", o->amount));
}

/* The agenda on the table is discarded; the next one replaces it, never
 * the vetoed one itself (it sits out until the deck is shuffled anew). */
static void veto(cnc_state *s, engine_ctx *ctx)
{
    int old = (int)s->c.agenda;
    s->c.agenda = -1;
    int a = draw_except(s, ctx, old);
    s->c.agenda = (int8_t)a;
    if (old >= 0)
        cnc_log(ctx, agenda_entry("agenda_vetoed", old));
    if (a >= 0)
        cnc_log(ctx, agenda_entry("agenda", a));
}

/* A council card's effect; 0 or -1 with *why. */
static int council_card(cnc_state *s, engine_ctx *ctx, int seat,
                        const cnc_cpart *o, const char **why)
{
    const cnc_action_card *a = &cnc_data_get()->actions[o->card];
    switch (a->effect) {
    case CNC_AFX_VETO:
        veto(s, ctx);
        return 0;
    case CNC_AFX_EXTRA_VOTES: {
        int paid = o->amount < s->p[seat].tg ? o->amount : s->p[seat].tg;
        s->p[seat].tg = (int16_t)(s->p[seat].tg - paid);
        s->c.extra_votes[seat] = (int8_t)(s->c.extra_votes[seat] + paid);
        return 0;
    }
    case CNC_AFX_VOTES:
        s->c.extra_votes[seat] = (int8_t)(s->c.extra_votes[seat] + a->amount);
        return 0;
    case CNC_AFX_GUARD_REP:
        s->c.guarded = (uint8_t)(s->c.guarded | 1u << seat);
        return 0;
    case CNC_AFX_TABLE_AGENDA:
        s->c.tabled = 1;
        return 0;
    case CNC_AFX_SILENCE:
        s->c.silenced = (uint8_t)(s->c.silenced | 1u << o->seat);
        return 0;
    default:
        *why = "this card has no council effect";
        return -1;
    }
}

static void play(cnc_state *s, engine_ctx *ctx, int seat, const cnc_cpart *o)
{
    const char *why = "";
    if (!s->p[seat].hand[o->card]) {
        cnc_refuse(ctx, seat, "play", "you do not hold that action card");
        return;
    }
    if (council_card(s, ctx, seat, o, &why)) {
        cnc_refuse(ctx, seat, "play", why);
        return;
    }
    s->p[seat].hand[o->card]--;
    cnc_log(ctx, json_pack("{s:s, s:i, s:s}", "type", "card_played", "seat",
                           seat, "card", cnc_data_get()->actions[o->card].key));
}

static void objective(cnc_state *s, engine_ctx *ctx, int seat,
                      const cnc_cpart *o)
{
    int c = holds_card(s, seat);
    (void)ctx;
    if (c < 0 || cnc_data_get()->strategies[c].ability != CNC_STRAT_OBJECTIVE)
        return; /* only the bureaucracy (Chancery) holder chooses */
    s->c.objective_pick = (uint8_t)(o->pick + 1);
}

int cnc_council_open_objective(cnc_state *s, engine_ctx *ctx)
{
    if (s->revealed >= s->npublic)
        return 0;
    if (s->c.objective_pick)
        s->chancery_pick = (int8_t)(s->c.objective_pick - 1);
    else if (holder_of(s, CNC_STRAT_OBJECTIVE) < 0 && ctx)
        s->chancery_pick = (int8_t)engine_rng_below(engine_ctx_rng(ctx), 2);
    int k = (int)s->revealed;
    cnc_status_reveal(s, ctx);
    s->c.obj_round[k] = s->round;
    cnc_log(ctx,
            json_pack("{s:s, s:s, s:i}", "type", "objective_value", "objective",
                      cnc_data_get()->objectives[s->public_deck[k]].key, "vp",
                      cnc_public_vp(s, k)));
    return 1;
}

void cnc_lobby_resolve(cnc_state *s, engine_ctx *ctx,
                       const json_t *const *orders)
{
    int order[ENGINE_MAX_SEATS];
    int n = cnc_council_order(s, order);
    static const int steps[] = {CNC_CP_GIVE, CNC_CP_OBJECTIVE, CNC_CP_PLAY};
    static const cnc_cpart_fn fns[] = {cnc_give, objective, play};
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < n; i++)
            if (orders && orders[order[i]])
                cnc_cparts_each(s, ctx, order[i], orders[order[i]], steps[k], 0,
                                fns[k]);
    /* 2.3: the representatives go and the spies act before the debate
     * (after the cards: a Safe House played here guards the envoy). */
    cnc_reps_resolve(s, ctx, orders);
    /* With the council every round, 2.2's new objective is the one status
     * step 2 reveals at the round's end (cnc_council_open_objective). */
    s->phase = s->c.mode == CNC_COUNCIL_EVERY_ROUND ? CNC_PHASE_ACTION
                                                    : CNC_PHASE_COUNCIL;
}

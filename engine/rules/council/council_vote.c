/*
 * council_vote.c - Galactic Council's council window resolved (seed 000,
 * 2.3-2.5 and the vote): gifts, the representatives sent in secret and
 * revealed, the spies acting clockwise from the speaker, the vote weighed
 * by planets' influence and the representative (the speaker breaks ties),
 * the agenda's outcome, command markers bought at a triangular cost and
 * diplomatic captures in initiative order (docs/games/council.md, "The
 * council"). The representatives are sent in the lobby window and the
 * spies act when it resolves (cnc_reps_resolve), so the survivors are
 * known before the council window takes the votes.
 */
#include "engine/rules/council/council_council.h"

#include <stdio.h>

#include <string.h>

int cnc_planet_influence(const cnc_state *s, int seat)
{
    const cnc_data *d = cnc_data_get();
    int n = 0;
    for (int x = 0; x < s->g.nsectors; x++) {
        const cnc_system *t = cnc_sector_tile(d, &s->g, x);
        for (int p = 0; p < t->nplanets; p++)
            if (s->g.sec[x].owner[p] == seat)
                n += t->planets[p].influence;
    }
    return n;
}

/* The representative of seat in result r (NULL: a clerk). */
static const cnc_rep *rep_in(const cnc_state *s, const cnc_council_result *r,
                             int seat)
{
    int k = (int)r->sent[seat];
    if (k < 0 || k >= CNC_REP_COUNT)
        return NULL;
    return &cnc_data_get()->races[s->p[seat].race].reps[k];
}

/* The representative of seat at the council being voted (NULL: a clerk). */
static const cnc_rep *rep_of(const cnc_state *s, int seat)
{
    return rep_in(s, &s->c.last, seat);
}

int cnc_rep_removed(const cnc_state *s, int seat)
{
    return s->phase == CNC_PHASE_COUNCIL && s->c.seated.round == s->round &&
           seat >= 0 && seat < s->seats &&
           s->c.seated.fate[seat] != CNC_FATE_SEATED;
}

int cnc_talk_closed(const void *state, int seat, char *why, size_t n)
{
    if (!cnc_rep_removed(state, seat))
        return 0;
    snprintf(why, n,
             "your representative was removed: you take no part in this "
             "agenda's discussion until the vote is counted");
    return 1;
}

static void send_rep(cnc_state *s, engine_ctx *ctx, int seat,
                     const cnc_cpart *o)
{
    (void)ctx;
    if (o->role == CNC_REP_SPY && o->target == seat)
        return; /* a spy aimed at its own player stays home: a clerk goes */
    s->c.seated.sent[seat] = (int8_t)o->role;
    s->c.seated.target[seat] =
        (int8_t)(o->role == CNC_REP_SPY ? o->target : -1);
}

/* Spy of seat acts on its target (both still seated). */
static void spy_acts(cnc_state *s, engine_ctx *ctx, int seat)
{
    static const char *const deeds[] = {
        "",          "killed",   "immune", "struck_down", "blackmailed",
        "sabotaged", "no_effect"};
    cnc_council_result *r = &s->c.seated;
    int t = (int)r->target[seat], deed = CNC_DEED_NO_EFFECT;
    const cnc_rep *me = rep_in(s, r, seat), *them = rep_in(s, r, t);
    if (them && them->ability == CNC_RAB_RETALIATE) {
        r->fate[seat] = CNC_FATE_STRUCK; /* strikes back first */
        deed = CNC_DEED_STRUCK_DOWN;
    } else if (me->ability == CNC_RAB_ASSASSINATE) {
        int immune = (them && them->role == CNC_REP_BODYGUARD) ||
                     (s->c.guarded >> t & 1);
        if (!immune)
            r->fate[t] = CNC_FATE_KILLED;
        deed = immune ? CNC_DEED_IMMUNE : CNC_DEED_KILLED;
    } else if (me->ability == CNC_RAB_BLACKMAIL) {
        deed = CNC_DEED_BLACKMAILED;
    } else if (me->ability == CNC_RAB_SABOTAGE) {
        deed = CNC_DEED_SABOTAGED;
    }
    r->deed[seat] = (uint8_t)deed;
    cnc_log(ctx, json_pack("{s:s, s:i, s:i, s:s}", "type", "spy", "seat", seat,
                           "target", t, "result", deeds[deed]));
}

/* 2.3: spies act in order from the speaker's representative clockwise;
 * one removed before its turn does not act. */
static void spies(cnc_state *s, engine_ctx *ctx)
{
    int order[ENGINE_MAX_SEATS];
    int n = cnc_council_order(s, order);
    const cnc_council_result *r = &s->c.seated;
    for (int i = 0; i < n; i++) {
        int p = order[i], t = (int)r->target[p];
        if (r->sent[p] != CNC_REP_SPY || r->fate[p] != CNC_FATE_SEATED ||
            t < 0 || r->fate[t] != CNC_FATE_SEATED)
            continue;
        spy_acts(s, ctx, p);
    }
}

static void reveal_reps(cnc_state *s, engine_ctx *ctx)
{
    static const char *const roles[] = {"spy", "bodyguard", "councillor",
                                        "clerk"};
    const cnc_council_result *res = &s->c.seated;
    json_t *a = json_array();
    for (int p = 0; p < s->seats; p++) {
        const cnc_rep *r = rep_in(s, res, p);
        json_array_append_new(a, json_pack("{s:i, s:s, s:s, s:i}", "seat", p,
                                           "role", roles[res->sent[p]], "name",
                                           r ? r->name : "Clerk", "target",
                                           res->target[p]));
    }
    cnc_log(ctx, json_pack("{s:s, s:o}", "type", "representatives",
                           "representatives", a));
}

static void each_seat(cnc_state *s, engine_ctx *ctx,
                      const json_t *const *orders, const int *order, int n,
                      int type, cnc_cpart_fn fn)
{
    for (int i = 0; i < n; i++)
        if (orders && orders[order[i]])
            cnc_cparts_each(s, ctx, order[i], orders[order[i]], type, 1, fn);
}

void cnc_reps_resolve(cnc_state *s, engine_ctx *ctx,
                      const json_t *const *orders)
{
    int order[ENGINE_MAX_SEATS] = {0};
    int n = cnc_council_order(s, order);
    cnc_council_result *r = &s->c.seated;
    memset(r, 0, sizeof *r);
    r->round = s->round;
    r->agenda = s->c.agenda;
    r->outcome = -1;
    memset(r->sent, CNC_SENT_CLERK, sizeof r->sent);
    memset(r->target, -1, sizeof r->target);
    memset(r->vote, -1, sizeof r->vote);
    for (int i = 0; i < n; i++)
        if (orders && orders[order[i]])
            cnc_cparts_each(s, ctx, order[i], orders[order[i]], CNC_CP_REP, 0,
                            send_rep);
    reveal_reps(s, ctx);
    spies(s, ctx);
}

/* Seat's votes: planets' influence, the representative's influence (an
 * orator +1 per 3 trade goods), the Choir's bonus and council cards. */
static int weight(const cnc_state *s, int seat)
{
    const cnc_data *d = cnc_data_get();
    const cnc_rep *r = rep_of(s, seat);
    const cnc_race *race = &d->races[s->p[seat].race];
    int w = cnc_planet_influence(s, seat) + s->c.extra_votes[seat];
    if (r)
        w += r->influence +
             (r->ability == CNC_RAB_ORATOR ? s->p[seat].tg / 3 : 0);
    if (race->special == CNC_RACE_ORATORS)
        w += race->special_amount;
    return w;
}

static void read_vote(cnc_state *s, engine_ctx *ctx, int seat,
                      const cnc_cpart *o)
{
    (void)ctx;
    s->c.last.vote[seat] = (int8_t)(o->seat >= 0 ? o->seat : o->vote_for);
}

/* The winning side: most votes; a tie goes to the speaker's vote when it
 * is among the tied (a seated speaker whose own votes count 0, sabotaged
 * or silenced, still breaks it; a blackmailed one has no vote), else
 * (laws) against or (elections) the first tied seat clockwise from the
 * speaker; no votes counted at all: a law fails, nobody is elected. */
static int tally(const cnc_state *s, int election)
{
    const cnc_council_result *r = &s->c.last;
    int sides = election ? s->seats : 2, best = 0, any = 0;
    for (int k = 0; k < sides; k++) {
        best = r->totals[k] > best ? r->totals[k] : best;
        any |= r->totals[k] > 0;
    }
    /* Nobody's votes counted (ours): a law fails, nobody is elected, even
     * if the speaker voted; a tie needs votes to break. */
    if (!any)
        return election ? -1 : 0;
    int sv = (int)r->vote[s->c.speaker];
    if (sv >= 0 && r->fate[s->c.speaker] == CNC_FATE_SEATED &&
        r->totals[sv] == best)
        return sv;
    if (!election)
        return r->totals[1] > r->totals[0];
    for (int i = 0; i < s->seats; i++) {
        int k = (s->c.speaker + i) % s->seats;
        if (r->totals[k] == best)
            return k;
    }
    return -1;
}

/* Count the votes: a seat whose representative was removed, blackmailed
 * or without a vote part casts none; a blackmailed seat's votes go to its
 * blackmailer's side; sabotaged or silenced seats weigh 0. */
static void count(cnc_state *s, const uint8_t *blackmail, uint8_t zero)
{
    cnc_council_result *r = &s->c.last;
    for (int p = 0; p < s->seats; p++) {
        r->weight[p] = 0;
        if (r->fate[p] != CNC_FATE_SEATED)
            continue;
        /* A blackmailed seat has no vote of its own, so it breaks no tie
         * as speaker; edition 1 forgot it when the seat's votes were also
         * zeroed (sabotaged or silenced). */
        if (blackmail[p] && s->edition >= CNC_EDITION_2)
            r->vote[p] = -1;
        if (zero >> p & 1)
            continue;
        int w = weight(s, p), to = blackmail[p] ? blackmail[p] - 1 : p;
        if (blackmail[p])
            r->vote[p] = -1;
        if (r->fate[to] != CNC_FATE_SEATED || r->vote[to] < 0)
            continue;
        r->weight[p] = (int16_t)w;
        r->totals[r->vote[to]] = (int16_t)(r->totals[r->vote[to]] + w);
    }
    for (int p = 0; p < s->seats; p++)
        if (r->fate[p] != CNC_FATE_SEATED)
            r->vote[p] = -1;
}

static void log_vote(cnc_state *s, engine_ctx *ctx, int election)
{
    const cnc_council_result *r = &s->c.last;
    json_t *totals = json_array(), *votes = json_array(),
           *weights = json_array();
    for (int k = 0; k < (election ? s->seats : 2); k++)
        json_array_append_new(totals, json_integer(r->totals[k]));
    for (int p = 0; p < s->seats; p++) {
        json_array_append_new(votes, r->vote[p] >= 0 ? json_integer(r->vote[p])
                                                     : json_null());
        json_array_append_new(weights, json_integer(r->weight[p]));
    }
    json_t *e = json_pack("{s:s, s:s, s:s, s:i}", "type", "vote", "agenda",
                          cnc_data_get()->agendas[r->agenda].key, "kind",
                          election ? "election" : "law", "outcome", r->outcome);
    /* Secret votes: the outcome alone. The totals with the public weights
     * would give away every seat's vote. */
    if (s->c.secret_votes) {
        json_decref(totals);
        json_decref(votes);
        json_decref(weights);
    } else {
        json_object_set_new(e, "totals", totals);
        json_object_set_new(e, "votes", votes);
        json_object_set_new(e, "weights", weights);
    }
    cnc_log(ctx, e);
}

static void each_player_draws(cnc_state *s, engine_ctx *ctx, int n)
{
    int order[ENGINE_MAX_SEATS];
    int m = cnc_council_order(s, order);
    for (int i = 0; i < m; i++)
        for (int k = 0; k < n; k++)
            cnc_draw_action(s, ctx, order[i]);
}

static void lose_tg(cnc_state *s, int p, int n)
{
    s->p[p].tg = (int16_t)(s->p[p].tg > n ? s->p[p].tg - n : 0);
}

/* A law that passed. */
static void law_passes(cnc_state *s, engine_ctx *ctx, const cnc_agenda *g,
                       int a)
{
    switch (g->effect) {
    case CNC_AGX_ALL_GAIN_TG:
        for (int p = 0; p < s->seats; p++)
            cnc_gain_tg(s, p, g->amount);
        break;
    case CNC_AGX_ALL_LOSE_TG:
        for (int p = 0; p < s->seats; p++)
            lose_tg(s, p, g->amount);
        break;
    case CNC_AGX_ALL_DRAW:
        each_player_draws(s, ctx, g->amount);
        break;
    case CNC_AGX_REPEAL:
        memset(s->c.laws, 0, sizeof s->c.laws);
        break;
    default: /* lasting laws */
        break;
    }
    if (g->lasting)
        s->c.laws[a] = 1;
}

static void elected(cnc_state *s, engine_ctx *ctx, const cnc_agenda *g, int p)
{
    switch (g->effect) {
    case CNC_AGX_ELECT_VP:
        s->p[p].vp = (int16_t)(s->p[p].vp + g->amount);
        break;
    case CNC_AGX_ELECT_TG:
        cnc_gain_tg(s, p, g->amount);
        break;
    case CNC_AGX_ELECT_LOSE_TG:
        lose_tg(s, p, g->amount);
        break;
    case CNC_AGX_ELECT_LOSE_TOKEN:
        s->p[p].tactic =
            (int8_t)(s->p[p].tactic > g->amount ? s->p[p].tactic - g->amount
                                                : 0);
        break;
    case CNC_AGX_ELECT_DRAW:
        for (int k = 0; k < g->amount; k++)
            cnc_draw_action(s, ctx, p);
        break;
    default: /* the next speaker */
        if (s->c.mode == CNC_COUNCIL_AFTER_STATUS)
            s->speaker = (int8_t)p; /* the cards went back already */
        else
            s->next_speaker = (int8_t)p;
        break;
    }
}

/* The vote on the agenda and its outcome. */
static void vote(cnc_state *s, engine_ctx *ctx, const json_t *const *orders,
                 const uint8_t *blackmail, uint8_t sabotaged)
{
    const cnc_data *d = cnc_data_get();
    cnc_council_result *r = &s->c.last;
    r->agenda = s->c.agenda;
    if (s->c.agenda < 0 || s->c.tabled) {
        r->outcome = (int8_t)(s->c.agenda < 0 ? -3 : -2);
        if (s->c.agenda >= 0)
            cnc_log(ctx, json_pack("{s:s, s:s}", "type", "agenda_tabled",
                                   "agenda", d->agendas[s->c.agenda].key));
        s->c.agenda = -1;
        return;
    }
    const cnc_agenda *g = &d->agendas[s->c.agenda];
    int election = g->kind == CNC_AGENDA_ELECTION;
    for (int p = 0; p < s->seats; p++)
        if (orders && orders[p])
            cnc_cparts_each(s, ctx, p, orders[p], CNC_CP_VOTE, 1, read_vote);
    count(s, blackmail, (uint8_t)(sabotaged | s->c.silenced));
    int w = tally(s, election);
    r->outcome = (int8_t)w;
    log_vote(s, ctx, election);
    if (election && w >= 0)
        elected(s, ctx, g, w);
    else if (!election && w == 1)
        law_passes(s, ctx, g, s->c.agenda);
    s->c.agenda = -1;
}

/* 2.4: n command markers for 1+2+..+n influence, into the tactic pool. */
static void buy_markers(cnc_state *s, engine_ctx *ctx, int seat,
                        const cnc_cpart *o)
{
    int cost = cnc_marker_cost(o->amount);
    if (cnc_pay_influence(s, seat, cost)) {
        cnc_refuse(ctx, seat, "markers", "not enough influence");
        return;
    }
    s->p[seat].tactic = (int8_t)(s->p[seat].tactic + o->amount);
    cnc_log(ctx,
            json_pack("{s:s, s:i, s:i, s:i}", "type", "markers_bought", "seat",
                      seat, "count", o->amount, "influence", cost));
}

static int law_in_force(const cnc_state *s, int effect)
{
    const cnc_data *d = cnc_data_get();
    for (int a = 0; a < d->nagendas; a++)
        if (s->c.laws[a] && d->agendas[a].effect == effect)
            return 1;
    return 0;
}

/* Why seat may not capture planet p of sector x on public facts alone
 * (laws, the kind of planet, who controls what, the captures logged),
 * or NULL. */
static const char *capture_public(const cnc_state *s, int seat, int x, int p)
{
    const cnc_sector *sec = &s->g.sec[x];
    if (law_in_force(s, CNC_AGX_NO_CAPTURE))
        return "a law forbids diplomatic capture";
    if (sec->kind == CNC_SEC_HOME)
        return "home worlds cannot be captured";
    if (sec->kind == CNC_SEC_CAPITAL && sec->owner[p] < 0)
        return "the neutral Concordia cannot be captured";
    if (!s->fog.explored[x] ||
        p >= cnc_sector_tile(cnc_data_get(), &s->g, x)->nplanets)
        return "no such planet in explored space";
    if (sec->owner[p] == seat)
        return "the planet is yours";
    if (s->c.taken[x] >> p & 1)
        return "the planet was captured at this council already";
    int nb[6], n = cnc_sector_neighbors(&s->g, x, nb), next = 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < CNC_MAX_PLANETS; k++)
            next |= s->g.sec[nb[i]].owner[k] == seat;
    if (!next)
        return "the system is not next to one of yours";
    int m = sec->planet_marker[p];
    if (m >= 0 && s->g.markers[m].state == CNC_MK_REVEALED)
        return "the planet has a revealed neutral marker";
    return NULL;
}

/* What only the attempt finds: troopers on the planet (the seat's
 * sensors reach a system next to its own, so it sees them; they are
 * still checked last, once every public reason and the payment pass). */
static const char *capture_found(const cnc_state *s, int x, int p)
{
    return s->g.sec[x].ground[p] > 0 ? "the planet has ground forces" : NULL;
}

const char *cnc_capture_blocked(const cnc_state *s, int seat, int x, int p)
{
    const char *why = capture_public(s, seat, x, p);
    return why ? why : capture_found(s, x, p);
}

/* 2.5: a command marker and 3 influence take an empty planet; a hidden
 * neutral marker on it is discarded unseen. The reasons for a refusal
 * come in this order: public facts, the payment, then what the attempt
 * finds (told to the seat alone, like every refusal). */
static void capture(cnc_state *s, engine_ctx *ctx, int seat, const cnc_cpart *o)
{
    const char *why = capture_public(s, seat, o->sector, o->planet);
    if (!why && s->p[seat].tactic <= 0)
        why = "no command marker in the tactic pool";
    if (!why && !cnc_can_pay_influence(s, seat, CNC_CAPTURE_INFLUENCE))
        why = "not enough influence (3)";
    if (!why)
        why = capture_found(s, o->sector, o->planet);
    if (why) {
        cnc_refuse(ctx, seat, "capture", why);
        return;
    }
    cnc_pay_influence(s, seat, CNC_CAPTURE_INFLUENCE);
    cnc_sector *sec = &s->g.sec[o->sector];
    int m = sec->planet_marker[o->planet], from = (int)sec->owner[o->planet];
    if (m >= 0 && s->g.markers[m].state == CNC_MK_HIDDEN)
        s->g.markers[m].state = CNC_MK_DISCARDED; /* unseen, as espionage */
    s->p[seat].tactic--;
    sec->owner[o->planet] = (int8_t)seat;
    s->c.taken[o->sector] = (uint8_t)(s->c.taken[o->sector] | 1u << o->planet);
    cnc_log(ctx, json_pack("{s:s, s:i, s:[i, i], s:i, s:i}", "type", "captured",
                           "seat", seat, "sector", sec->hex.q, sec->hex.r,
                           "planet", o->planet, "from", from));
}

void cnc_council_resolve(cnc_state *s, engine_ctx *ctx,
                         const json_t *const *orders)
{
    int order[ENGINE_MAX_SEATS] = {0}, init[ENGINE_MAX_SEATS] = {0};
    int n = cnc_council_order(s, order);
    cnc_council_initiative(s, init);
    uint8_t blackmail[ENGINE_MAX_SEATS] = {0}, sabotaged = 0;
    if (s->c.seated.round != s->round) /* no lobby this council: clerks */
        cnc_reps_resolve(s, ctx, NULL);
    cnc_council_result *r = &s->c.last;
    *r = s->c.seated;
    /* What the spies did in the lobby weighs on the vote now. */
    for (int i = 0; i < n; i++) { /* clockwise from the speaker */
        int p = order[i], t = (int)r->target[p];
        if (t < 0)
            continue;
        if (r->deed[p] == CNC_DEED_BLACKMAILED)
            blackmail[t] = (uint8_t)(p + 1);
        else if (r->deed[p] == CNC_DEED_SABOTAGED)
            sabotaged = (uint8_t)(sabotaged | 1u << t);
    }
    memset(s->c.taken, 0, sizeof s->c.taken);
    each_seat(s, ctx, orders, order, n, CNC_CP_GIVE, cnc_give);
    vote(s, ctx, orders, blackmail, sabotaged);
    each_seat(s, ctx, orders, init, n, CNC_CP_MARKERS, buy_markers);
    each_seat(s, ctx, orders, init, n, CNC_CP_CAPTURE, capture);
    s->c.speaker = -1;
    s->c.seated.round = 0;
    if (s->c.mode == CNC_COUNCIL_EVERY_ROUND)
        cnc_status_phase(s, ctx);
    else
        cnc_new_round(s, ctx);
}

/*
 * council_strategy.c - Galactic Council's strategy cards: picking one in
 * the strategy phase (speaker first; one by one, or all at once from
 * sealed rankings resolved in the same order), using its primary in an action
 * order's strategy step, and the espionage exploration with its discard
 * (docs/games/council.md, "Strategy cards", "Espionage").
 */
#include "engine/rules/council/council_internal.h"

#include <string.h>

void cnc_pick_card(cnc_state *s, engine_ctx *ctx, int seat, int card)
{
    const cnc_data *d = cnc_data_get();
    s->strat_owner[card] = (int8_t)seat;
    s->p[seat].card = (int8_t)card;
    s->p[seat].card_used = 0;
    s->picks++;
    cnc_log(ctx, json_pack("{s:s, s:i, s:s}", "type", "pick", "seat", seat,
                           "card", d->strategies[card].key));
    if (s->picks >= s->seats)
        cnc_after_picks(s, ctx);
}

int cnc_ranking_check(const json_t *order, engine_error *err)
{
    const cnc_data *d = cnc_data_get();
    const json_t *r = json_object_get(order, "ranking");
    if (json_object_size(order) != (r != NULL))
        return engine_fail(err, ENGINE_EINVALID, "ranking",
                           "a ranking is {\"ranking\": [card keys]}");
    if (!r)
        return 0;
    if (!json_is_array(r) || json_array_size(r) > (size_t)d->nstrategies)
        return engine_fail(err, ENGINE_EINVALID, "ranking",
                           "ranking must be a list of at most %d strategy "
                           "cards",
                           d->nstrategies);
    uint8_t seen[CNC_MAX_STRATEGIES] = {0};
    size_t i;
    const json_t *v;
    json_array_foreach(r, i, v)
    {
        const char *k = json_string_value(v);
        int c = k ? cnc_strategy_index(d, k) : -1;
        if (c < 0 || seen[c])
            return engine_fail(err, ENGINE_EINVALID, "ranking",
                               "ranking must name distinct strategy cards");
        seen[c] = 1;
    }
    return 0;
}

/* Seat's card from its ranking: the first still free, else (a prefix
 * exhausted, or no ranking: the default order) the lowest initiative
 * left, as a sequential pick that times out. */
static int ranked_card(const cnc_state *s, const json_t *order)
{
    const cnc_data *d = cnc_data_get();
    const json_t *r = order ? json_object_get(order, "ranking") : NULL;
    size_t i;
    const json_t *v;
    json_array_foreach(r, i, v)
    {
        int c = cnc_strategy_index(d, json_string_value(v));
        if (c >= 0 && s->strat_owner[c] < 0)
            return c;
    }
    for (int c = 0; c < d->nstrategies; c++)
        if (s->strat_owner[c] < 0)
            return c;
    return -1;
}

void cnc_ranked_resolve(cnc_state *s, engine_ctx *ctx,
                        const json_t *const *orders)
{
    /* The order the sequential picks take: the speaker, then clockwise. */
    for (int i = 0; i < s->seats; i++) {
        int seat = cnc_picker(s);
        int c = ranked_card(s, orders ? orders[seat] : NULL);
        if (c < 0)
            return;
        cnc_pick_card(s, ctx, seat, c);
    }
}

int cnc_next_tech(const cnc_state *s, int seat)
{
    const cnc_data *d = cnc_data_get();
    for (int t = 0; t < d->ntechs; t++) {
        if (s->p[seat].techs[t])
            continue;
        int ok = 1;
        for (int r = 0; r < d->techs[t].nrequires; r++)
            ok &= s->p[seat].techs[d->techs[t].requires[r]] != 0;
        if (ok)
            return t;
    }
    return -1;
}

void cnc_learn(cnc_state *s, engine_ctx *ctx, int seat, int t)
{
    const cnc_data *d = cnc_data_get();
    s->p[seat].techs[t] = 1;
    if (d->techs[t].effect == CNC_TECH_SCANNER)
        s->fog.scanner[seat] = 1;
    if (d->techs[t].effect == CNC_TECH_SENSOR)
        s->fog.sensor[seat] =
            (int8_t)(s->fog.sensor[seat] + d->techs[t].amount);
    cnc_log(ctx, json_pack("{s:s, s:i, s:s}", "type", "research", "seat", seat,
                           "tech", d->techs[t].key));
}

/* The picks of an espionage or its follow: each target hex in turn is an
 * unexplored sector (explored, so a later pick may build on it) or an
 * explored one whose first hidden marker seat has not inspected (and has
 * not picked already) is inspected: the system's, then the planets'.
 * Returns how many picks (a hex with nothing to pick is left out). */
static int picks(const cnc_state *s, int seat, const cnc_step *st, int max,
                 cnc_fog_target t[3])
{
    uint8_t now[CNC_MAX_SECTORS], took[CNC_MAX_MARKERS] = {0};
    memcpy(now, s->fog.explored, sizeof now);
    int n = 0;
    for (int i = 0; i < st->ntargets && n < max; i++) {
        int x = cnc_sector_at(&s->g, st->targets[i]);
        t[n].sector = t[n].marker = -1;
        if (!now[x]) {
            now[x] = 1;
            t[n++].sector = x;
            continue;
        }
        for (int m = 0; m < s->g.nmarkers && t[n].marker < 0; m++)
            if (s->g.markers[m].sector == x &&
                s->g.markers[m].state == CNC_MK_HIDDEN &&
                !s->fog.inspected[seat][m] && !took[m])
                t[n].marker = m;
        if (t[n].marker >= 0)
            took[t[n++].marker] = 1;
    }
    return n;
}

int cnc_espionage(cnc_state *s, engine_ctx *ctx, int seat, const cnc_step *st,
                  int max, int *inspected, const char **why)
{
    const cnc_data *d = cnc_data_get();
    cnc_fog_target t[3];
    int n = picks(s, seat, st, max, t);
    engine_error e = {0};
    if (cnc_fog_espionage(&s->g, &s->fog, seat, t, n, -1, s->round, &e)) {
        *why = "espionage needs 1 to 3 frontier sectors or explored sectors "
               "with a marker you have not inspected";
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (t[i].sector >= 0) {
            cnc_log(ctx, json_pack("{s:s, s:[i, i]}", "type", "explored",
                                   "sector", s->g.sec[t[i].sector].hex.q,
                                   s->g.sec[t[i].sector].hex.r));
            continue;
        }
        const cnc_marker *k = &s->g.markers[t[i].marker];
        for (int j = 0; j < 3; j++)
            if (!s->x[seat].spied[j]) {
                s->x[seat].spied[j] = (int16_t)(t[i].marker + 1);
                break;
            }
        *inspected = t[i].marker;
        cnc_log_seats(ctx, 1u << seat,
                      json_pack("{s:s, s:[i, i], s:i, s:s}", "type",
                                "inspected", "sector",
                                s->g.sec[k->sector].hex.q,
                                s->g.sec[k->sector].hex.r, "planet", k->planet,
                                "marker", d->markers[k->kind].key));
    }
    return 0;
}

int cnc_discard(cnc_state *s, engine_ctx *ctx, int seat, int m,
                const char **why)
{
    int mine = 0;
    for (int j = 0; j < 3 && m >= 0; j++)
        mine |= s->x[seat].spied[j] == m + 1;
    if (!mine) {
        *why = "you can discard only a marker your espionage inspected this "
               "round";
        return -1;
    }
    if (s->x[seat].discarded) {
        *why = "you already discarded a marker this round";
        return -1;
    }
    if (s->g.markers[m].state != CNC_MK_HIDDEN) {
        *why = "that marker is no longer hidden";
        return -1;
    }
    s->x[seat].discarded = 1;
    s->g.markers[m].state = CNC_MK_DISCARDED;
    const cnc_marker *k = &s->g.markers[m];
    cnc_log(ctx, json_pack("{s:s, s:[i, i], s:i}", "type", "marker_discarded",
                           "sector", s->g.sec[k->sector].hex.q,
                           s->g.sec[k->sector].hex.r, "planet", k->planet));
    return 0;
}

/* Campaign: one of seat's command tokens back to its tactic pool (the
 * first target's, else the first on the board). */
static int campaign(cnc_state *s, int seat, const cnc_step *st,
                    const char **why)
{
    int x = st->ntargets ? cnc_sector_at(&s->g, st->targets[0]) : -1;
    if (x < 0 || !(s->tokens[x] >> seat & 1))
        for (x = 0; x < s->g.nsectors && !(s->tokens[x] >> seat & 1); x++)
            ;
    if (x >= s->g.nsectors) {
        *why = "you have no command token on the board";
        return -1;
    }
    s->tokens[x] = (uint8_t)(s->tokens[x] & ~(1u << seat));
    s->p[seat].tactic++;
    return 0;
}

static int primary(cnc_state *s, engine_ctx *ctx, int seat, const cnc_step *st,
                   int *inspected, const char **why)
{
    const cnc_data *d = cnc_data_get();
    switch (d->strategies[st->card].ability) {
    case CNC_STRAT_GAIN_COMMAND:
        s->p[seat].tactic = (int8_t)(s->p[seat].tactic + 3);
        return 0;
    case CNC_STRAT_ESPIONAGE:
        return st->option == 0
                   ? cnc_espionage(s, ctx, seat, st, 3, inspected, why)
                   : 0;
    case CNC_STRAT_AGENDA:
        s->next_speaker = (int8_t)seat;
        return 0;
    case CNC_STRAT_PRODUCTION:
        s->p[seat].free_produce = 1;
        return 0;
    case CNC_STRAT_TRADE:
        for (int p = 0; p < s->seats; p++)
            cnc_gain_tg(s, p, p == seat ? 3 : 1);
        return 0;
    case CNC_STRAT_WARFARE:
        return campaign(s, seat, st, why);
    case CNC_STRAT_TECHNOLOGY: {
        int t = cnc_next_tech(s, seat);
        if (t < 0) {
            *why = "no technology left to research";
            return -1;
        }
        cnc_learn(s, ctx, seat, t);
        return 0;
    }
    default:
        if (s->secret_pos >= s->nsecret) {
            *why = "no secret objective left to draw";
            return -1;
        }
        s->chancery_pick = (int8_t)(st->next_objective == 2);
        int o = (int)s->secret_deck[s->secret_pos++];
        s->p[seat].secret[o] = 1;
        cnc_log_seats(ctx, 1u << seat,
                      json_pack("{s:s, s:s}", "type", "secret_drawn",
                                "objective", d->objectives[o].key));
        return 0;
    }
}

int cnc_strategy_step(cnc_state *s, engine_ctx *ctx, int seat,
                      const cnc_step *st, int *inspected, const char **why)
{
    if (s->p[seat].card != st->card) {
        *why = "you do not hold that strategy card";
        return -1;
    }
    if (s->p[seat].card_used) {
        *why = "the card was already used this round";
        return -1;
    }
    if (primary(s, ctx, seat, st, inspected, why))
        return -1;
    s->p[seat].card_used = 1;
    cnc_log(ctx, json_pack("{s:s, s:i, s:s}", "type", "strategy", "seat", seat,
                           "card", cnc_data_get()->strategies[st->card].key));
    return 0;
}

/*
 * council_strategy.c - Galactic Council's strategy cards: picking one in
 * the strategy phase (speaker first) and using its primary in an action
 * order's strategy step (docs/games/council.md, "Strategy cards").
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
        s->phase = CNC_PHASE_ACTION;
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

static void learn(cnc_state *s, engine_ctx *ctx, int seat, int t)
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

/* Intelligence, exploration: each target hex is a pick: an unexplored
 * sector is explored; an explored one has its first hidden marker not yet
 * inspected by seat inspected (the system's, then the planets'). */
static int espionage(cnc_state *s, engine_ctx *ctx, int seat,
                     const cnc_step *st, const char **why)
{
    const cnc_data *d = cnc_data_get();
    cnc_fog_target t[3];
    int n = 0;
    for (int i = 0; i < st->ntargets; i++) {
        int x = cnc_sector_at(&s->g, st->targets[i]);
        t[n].sector = t[n].marker = -1;
        if (!s->fog.explored[x]) {
            t[n++].sector = x;
            continue;
        }
        for (int m = 0; m < s->g.nmarkers && t[n].marker < 0; m++)
            if (s->g.markers[m].sector == x &&
                s->g.markers[m].state == CNC_MK_HIDDEN &&
                !s->fog.inspected[seat][m])
                t[n].marker = m;
        if (t[n].marker >= 0)
            n++;
    }
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
        cnc_log_seats(ctx, 1u << seat,
                      json_pack("{s:s, s:[i, i], s:i, s:s}", "type",
                                "inspected", "sector",
                                s->g.sec[k->sector].hex.q,
                                s->g.sec[k->sector].hex.r, "planet", k->planet,
                                "marker", d->markers[k->kind].key));
    }
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
                   const char **why)
{
    const cnc_data *d = cnc_data_get();
    switch (d->strategies[st->card].ability) {
    case CNC_STRAT_GAIN_COMMAND:
        s->p[seat].tactic = (int8_t)(s->p[seat].tactic + 3);
        return 0;
    case CNC_STRAT_ESPIONAGE:
        return st->option == 0 ? espionage(s, ctx, seat, st, why) : 0;
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
        learn(s, ctx, seat, t);
        return 0;
    }
    default:
        if (s->secret_pos >= s->nsecret) {
            *why = "no secret objective left to draw";
            return -1;
        }
        int o = (int)s->secret_deck[s->secret_pos++];
        s->p[seat].secret[o] = 1;
        cnc_log_seats(ctx, 1u << seat,
                      json_pack("{s:s, s:s}", "type", "secret_drawn",
                                "objective", d->objectives[o].key));
        return 0;
    }
}

int cnc_strategy_step(cnc_state *s, engine_ctx *ctx, int seat,
                      const cnc_step *st, const char **why)
{
    if (s->p[seat].card != st->card) {
        *why = "you do not hold that strategy card";
        return -1;
    }
    if (s->p[seat].card_used) {
        *why = "the card was already used this round";
        return -1;
    }
    if (primary(s, ctx, seat, st, why))
        return -1;
    s->p[seat].card_used = 1;
    cnc_log(ctx, json_pack("{s:s, s:i, s:s}", "type", "strategy", "seat", seat,
                           "card", cnc_data_get()->strategies[st->card].key));
    return 0;
}

/*
 * council_state.c - Galactic Council's game state: setup (races, galaxy,
 * fog, pools, objective and action decks) and save/load. The state is one
 * plain struct; its save is {"format":"council-state/6","round","phase",
 * "size","state": the struct's bytes as lower-case hex, with each run of
 * zero bytes written as "z" and the run's length in 4 hex digits}, and
 * load checks the size and every index and range the rules rely on before
 * accepting it (a save is read back by the same build that wrote it).
 * Saves of formats 2 and 3, written before the council phase (part II)
 * grew the action card table inside each player, are refused with an
 * error saying so; so are formats 4 and 5 (before representatives
 * were sent ahead of the vote, before ranked strategy picks).
 */
#include "engine/rules/council/council_internal.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One byte from two hex digits / two bytes from four. */
static int unhex_byte(const char *t, uint8_t *out)
{
    char two[3] = {t[0], t[0] ? t[1] : 0, 0};
    return engine_unhex(two, out, 1);
}

static int unhex_run(const char *t, uint8_t out[2])
{
    if (unhex_byte(t, &out[0]) != 0 || !t[1])
        return -1;
    return unhex_byte(t + 2, &out[1]);
}

#define SAVE_FORMAT "council-state/6"

void cnc_log(engine_ctx *ctx, json_t *entry)
{
    if (ctx)
        engine_ctx_log(ctx, entry);
    else
        json_decref(entry);
}

void cnc_log_seats(engine_ctx *ctx, uint32_t seats, json_t *entry)
{
    if (ctx)
        engine_ctx_log_seats(ctx, seats, entry);
    else
        json_decref(entry);
}

static void setup_decks(cnc_state *s, const cnc_data *d, engine_rng *rng)
{
    int n1 = 0, n2 = 0;
    int8_t st1[CNC_MAX_OBJECTIVES], st2[CNC_MAX_OBJECTIVES];
    s->nsecret = 0;
    for (int o = 0; o < d->nobjectives; o++) {
        if (d->objectives[o].secret)
            s->secret_deck[s->nsecret++] = (int8_t)o;
        else if (d->objectives[o].stage == 1)
            st1[n1++] = (int8_t)o;
        else
            st2[n2++] = (int8_t)o;
    }
    engine_rng_shuffle(rng, st1, (size_t)n1, 1);
    engine_rng_shuffle(rng, st2, (size_t)n2, 1);
    engine_rng_shuffle(rng, s->secret_deck, (size_t)s->nsecret, 1);
    memcpy(s->public_deck, st1, (size_t)n1);
    memcpy(s->public_deck + n1, st2, (size_t)n2);
    s->npublic = (int8_t)(n1 + n2);
    s->naction = 0;
    for (int a = 0; a < d->nactions; a++)
        for (int k = 0;
             k < d->actions[a].count && s->naction < (int)sizeof s->action_deck;
             k++)
            s->action_deck[s->naction++] = (int8_t)a;
    engine_rng_shuffle(rng, s->action_deck, (size_t)s->naction, 1);
    s->c.ndeck = (int8_t)d->nagendas;
    for (int a = 0; a < d->nagendas; a++)
        s->c.deck[a] = (int8_t)a;
    engine_rng_shuffle(rng, s->c.deck, (size_t)s->c.ndeck, 1);
    s->c.speaker = s->c.agenda = -1;
    s->c.last.agenda = -1;
}

static void setup_players(cnc_state *s, const cnc_data *d)
{
    for (int p = 0; p < s->seats; p++) {
        cnc_player *pl = &s->p[p];
        pl->race = s->g.race[p];
        pl->tactic = d->rules.start_tactic;
        pl->fleet = d->rules.start_fleet;
        pl->strategy = d->rules.start_strategy;
        pl->tg = (int)d->rules.start_trade_goods;
        pl->card = pl->last_card = -1;
        if (d->races[pl->race].special == CNC_RACE_FAR_SIGHT)
            s->fog.sensor[p] =
                (int8_t)(s->fog.sensor[p] + d->races[pl->race].special_amount);
        /* One secret objective each to start (ours). */
        if (s->secret_pos < s->nsecret)
            pl->secret[s->secret_deck[s->secret_pos++]] = 1;
    }
}

int cnc_state_setup(cnc_state *s, engine_ctx *ctx, int seats, int vp_target,
                    int last_round, int fixed_map, engine_error *err)
{
    const cnc_data *d = cnc_data_get();
    engine_rng *rng = engine_ctx_rng(ctx);
    memset(s, 0, sizeof *s);
    int races[CNC_MAX_RACES];
    for (int i = 0; i < d->nraces; i++)
        races[i] = i;
    engine_rng_shuffle(rng, races, (size_t)d->nraces, sizeof races[0]);
    int rc = cnc_galaxy_generate(d, seats, races, fixed_map, rng, &s->g, err);
    if (rc)
        return rc;
    cnc_fog_init(d, &s->g, &s->fog);
    s->seats = (int8_t)seats;
    s->round = 1;
    s->vp_target = (int16_t)vp_target;
    s->last_round = (int16_t)last_round;
    s->phase = CNC_PHASE_STRATEGY;
    s->speaker = (int8_t)engine_rng_below(rng, (uint32_t)seats);
    s->next_speaker = -1;
    memset(s->strat_owner, -1, sizeof s->strat_owner);
    setup_decks(s, d, rng);
    setup_players(s, d);
    s->revealed = 2; /* two stage I objectives face up at the start (ours) */
    json_t *r = json_array(), *obj = json_array();
    for (int p = 0; p < seats; p++)
        json_array_append_new(r, json_string(d->races[s->p[p].race].key));
    for (int i = 0; i < s->revealed; i++)
        json_array_append_new(
            obj, json_string(d->objectives[s->public_deck[i]].key));
    cnc_log(ctx, json_pack("{s:s, s:o, s:o, s:i}", "type", "start", "races", r,
                           "objectives", obj, "speaker", s->speaker));
    return 0;
}

/* bytes[0..n) as hex with zero runs as "zNNNN"; out holds 2n+1. */
static void pack(const uint8_t *b, size_t n, char *out)
{
    static const char hx[] = "0123456789abcdef";
    size_t i = 0;
    while (i < n) {
        size_t run = 0;
        while (i + run < n && b[i + run] == 0 && run < 0xffff)
            run++;
        if (run >= 3) {
            *out++ = 'z'; /* then the run length as 4 hex digits */
            for (int k = 3; k >= 0; k--)
                *out++ = hx[(run >> (4 * k)) & 15];
            i += run;
            continue;
        }
        *out++ = hx[b[i] >> 4];
        *out++ = hx[b[i] & 15];
        i++;
    }
    *out = 0;
}

static int unpack(const char *t, uint8_t *b, size_t n)
{
    size_t i = 0;
    while (*t && i < n) {
        if (*t == 'z') {
            uint8_t len[2];
            if (unhex_run(t + 1, len) != 0)
                return -1;
            size_t run = (size_t)len[0] << 8 | len[1];
            if (run == 0 || run > n - i)
                return -1;
            memset(b + i, 0, run);
            i += run;
            t += 5;
            continue;
        }
        if (unhex_byte(t, b + i) != 0)
            return -1;
        i++;
        t += 2;
    }
    return *t || i != n ? -1 : 0;
}

json_t *cnc_state_save(const cnc_state *s)
{
    char *text = malloc(2 * sizeof *s + 1);
    if (!text)
        return NULL;
    pack((const uint8_t *)s, sizeof *s, text);
    json_t *o = json_pack("{s:s, s:i, s:i, s:I, s:s}", "format", SAVE_FORMAT,
                          "round", s->round, "phase", s->phase, "size",
                          (json_int_t)sizeof *s, "state", text);
    free(text);
    return o;
}

static int in(int v, int lo, int hi)
{
    return v >= lo && v <= hi;
}

/* The galaxy's indices the rules follow. */
static int galaxy_ok(const cnc_data *d, const cnc_galaxy *g, int seats)
{
    if (g->players != seats || !in(g->nsectors, 1, CNC_MAX_SECTORS) ||
        !in(g->nmarkers, 0, CNC_MAX_MARKERS) || !in(g->radius, 1, 4) ||
        !in(g->capital, 0, g->nsectors - 1))
        return 0;
    for (int p = 0; p < seats; p++)
        if (!in(g->home[p], 0, g->nsectors - 1) ||
            !in(g->race[p], 0, d->nraces - 1))
            return 0;
    for (int m = 0; m < g->nmarkers; m++) {
        const cnc_marker *k = &g->markers[m];
        if (!in(k->kind, 0, d->nmarkers - 1) ||
            !in(k->sector, 0, g->nsectors - 1) || !in(k->planet, -1, 2) ||
            k->state > CNC_MK_DISCARDED)
            return 0;
    }
    for (int x = 0; x < g->nsectors; x++) {
        const cnc_sector *sec = &g->sec[x];
        if (sec->kind > CNC_SEC_CAPITAL ||
            !in(sec->marker, -1, g->nmarkers - 1))
            return 0;
        if (sec->kind == CNC_SEC_SYSTEM && !in(sec->tile, 0, d->nsystems - 1))
            return 0;
        if (sec->kind == CNC_SEC_HOME && !in(sec->tile, 0, d->nraces - 1))
            return 0;
        for (int p = 0; p < CNC_MAX_PLANETS; p++)
            if (!in(sec->owner[p], -1, seats - 1) ||
                !in(sec->planet_marker[p], -1, g->nmarkers - 1))
                return 0;
    }
    return 1;
}

/* The round's extras of seat p (format 3). */
static int extra_ok(const cnc_state *s, int p)
{
    const cnc_round_extra *x = &s->x[p];
    for (int i = 0; i < 3; i++)
        if (!in(x->spied[i], 0, s->g.nmarkers) || !in(x->pools[i], 0, 16))
            return 0;
    for (int i = 0; i < CNC_MAX_STANDING; i++)
        if (x->retreat[i].used &&
            (!in(x->retreat[i].sector, 0, s->g.nsectors - 1) ||
             !in(x->retreat[i].to, 0, s->g.nsectors - 1) ||
             !in(x->retreat[i].after, 1, 5)))
            return 0;
    for (int i = 0; i < CNC_SCORE_PREFS; i++)
        if (!in(x->score_public[i], -1, CNC_MAX_OBJECTIVES - 1) ||
            !in(x->score_secret[i], -1, CNC_MAX_OBJECTIVES - 1))
            return 0;
    return in(x->extra_move, 0, 9) && in(x->rally, 0, 9);
}

/* The council's indices (format 4). */
static int council_ok(const cnc_data *d, const cnc_state *s)
{
    const cnc_council *c = &s->c;
    if (c->mode > CNC_COUNCIL_OFF || !in(c->speaker, -1, s->seats - 1) ||
        !in(c->agenda, -1, d->nagendas - 1) || !in(c->ndeck, 0, d->nagendas) ||
        !in(c->deck_pos, 0, c->ndeck) ||
        !in(c->last.agenda, -1, d->nagendas - 1) || c->objective_pick > 2)
        return 0;
    for (int i = 0; i < c->ndeck; i++)
        if (!in(c->deck[i], 0, d->nagendas - 1))
            return 0;
    for (int p = 0; p < ENGINE_MAX_SEATS; p++)
        if (!in(c->last.sent[p], 0, CNC_SENT_CLERK) ||
            !in(c->last.target[p], -1, s->seats - 1) ||
            !in(c->last.vote[p], -1, s->seats - 1))
            return 0;
    return 1;
}

static int state_ok(const cnc_data *d, const cnc_state *s)
{
    if (!in(s->seats, CNC_MIN_PLAYERS, CNC_MAX_PLAYERS) ||
        !in(s->phase, 0, CNC_PHASE_COUNCIL) ||
        !in(s->speaker, 0, s->seats - 1) || !in(s->round, 1, 999) ||
        !in(s->picks, 0, s->seats) || !in(s->next_speaker, -1, s->seats - 1) ||
        !in(s->npublic, 0, CNC_MAX_OBJECTIVES) ||
        !in(s->revealed, 0, s->npublic) ||
        !in(s->nsecret, 0, CNC_MAX_OBJECTIVES) ||
        !in(s->secret_pos, 0, s->nsecret) ||
        !in(s->naction, 0, (int)sizeof s->action_deck) ||
        !in(s->action_pos, 0, s->naction) || s->fog.players != s->seats ||
        !galaxy_ok(d, &s->g, s->seats))
        return 0;
    for (int i = 0; i < s->npublic; i++)
        if (!in(s->public_deck[i], 0, d->nobjectives - 1))
            return 0;
    for (int i = 0; i < s->nsecret; i++)
        if (!in(s->secret_deck[i], 0, d->nobjectives - 1))
            return 0;
    for (int i = 0; i < s->naction; i++)
        if (!in(s->action_deck[i], 0, d->nactions - 1))
            return 0;
    for (int c = 0; c < CNC_MAX_STRATEGIES; c++)
        if (!in(s->strat_owner[c], -1, s->seats - 1))
            return 0;
    for (int p = 0; p < s->seats; p++)
        if (!in(s->p[p].card, -1, d->nstrategies - 1) ||
            !in(s->p[p].last_card, -1, d->nstrategies - 1) ||
            !in(s->p[p].race, 0, d->nraces - 1) || !extra_ok(s, p))
            return 0;
    return in(s->chancery_pick, 0, 1) && s->sequential_picks <= 1 &&
           s->edition <= CNC_EDITION_CURRENT && council_ok(d, s);
}

int cnc_state_load(cnc_state *s, const json_t *saved, engine_error *err)
{
    const char *fmt = json_string_value(json_object_get(saved, "format"));
    const char *hex = json_string_value(json_object_get(saved, "state"));
    const json_t *size = json_object_get(saved, "size");
    if (fmt && (strcmp(fmt, "council-state/2") == 0 ||
                strcmp(fmt, "council-state/3") == 0))
        return engine_fail(err, ENGINE_EINTERNAL, "format",
                           "a %s save predates the council phase and cannot "
                           "be loaded by this version (%s)",
                           fmt, SAVE_FORMAT);
    if (fmt && strcmp(fmt, "council-state/4") == 0)
        return engine_fail(err, ENGINE_EINTERNAL, "format",
                           "a council-state/4 save predates representatives "
                           "sent before the vote and cannot be loaded by "
                           "this version (%s)",
                           SAVE_FORMAT);
    if (fmt && strcmp(fmt, "council-state/5") == 0)
        return engine_fail(err, ENGINE_EINTERNAL, "format",
                           "a council-state/5 save predates ranked strategy "
                           "picks and cannot be loaded by this version (%s)",
                           SAVE_FORMAT);
    if (!fmt || strcmp(fmt, SAVE_FORMAT) != 0)
        return engine_fail(err, ENGINE_EINTERNAL, "format", "not a %s save",
                           SAVE_FORMAT);
    json_int_t want = json_integer_value(size);
    int size_ok = want == (json_int_t)sizeof *s;
    memset(s, 0, sizeof *s);
    if (!json_is_integer(size) || !size_ok || !hex ||
        unpack(hex, (uint8_t *)s, (size_t)want) != 0)
        return engine_fail(err, ENGINE_EINTERNAL, "state",
                           "the saved state is not %zu packed bytes",
                           sizeof *s);
    if (!state_ok(cnc_data_get(), s))
        return engine_fail(err, ENGINE_EINTERNAL, "state",
                           "the saved state is out of range");
    return 0;
}

/*
 * starbase.c - the Starbase ruleset's engine_ruleset table: init (the card
 * data), setup (markets, shuffling, the first hands), save and load (a
 * flat state of ints, checked on load), the end of the game and its
 * result. The turn runs in priority steps (starbase_turn.c,
 * starbase_prio.c); the core's only window is the priority window.
 */
#include "engine/rules/starbase/starbase.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(sb_inst) == SB_INST_INTS * sizeof(int), "sb_inst");
_Static_assert(sizeof(sb_player) == SB_PLAYER_INTS * sizeof(int), "sb_player");

/* The starter markets, in the order of cards.json (sb_init checks it). */
static const char *const market_keys[] = {
    "ore_syndicate", "corsair_clans", "sentinel_navy", "free_traders", NULL};

static const engine_option sb_options[] = {
    {.name = "starters",
     .kind = ENGINE_OPTION_NAMES,
     .title = "the starter markets of the first seats, in seat order (a "
              "different market for each, at most one per seat); the seats "
              "left out get markets drawn from the game's seed",
     .max = SB_MAX_SEATS,
     .choices = market_keys},
    {.name = "edition",
     .kind = ENGINE_OPTION_INT,
     .title = "rules edition: 3 plays as 2, and passive pins (Snare "
              "Field, Blockade Decree) pin; 2 draws the first player and the "
              "starter markets from the game's seed and follows the seed's "
              "timing (priority in the end phase, warps limited only by "
              "attacks); 1 (games made before edition 2) deals market N to "
              "seat N and seat 0 starts",
     .min = SB_EDITION_FIRST,
     .max = SB_EDITION_CURRENT,
     .def = SB_EDITION_CURRENT},
    {0},
};

static int sb_init(engine_error *err)
{
    int rc = starbase_cards_init(err);
    if (rc != 0)
        return rc;
    const starbase_cardset *cs = starbase_cards();
    for (int k = 0; market_keys[k]; k++)
        if (k >= cs->nmarkets ||
            strcmp(cs->markets[k].key, market_keys[k]) != 0)
            return engine_fail(err, ENGINE_EINTERNAL, "starters",
                               "cards.json markets do not match the "
                               "starters option");
    return 0;
}

static int sb_check_options(const json_t *options, int seats, engine_error *err)
{
    const json_t *st = json_object_get(options, "starters");
    if (st && (int)json_array_size(st) > seats)
        return engine_fail(err, ENGINE_EINVALID, "starters",
                           "starters names more markets than there are "
                           "seats");
    return 0;
}

/* Seat's market (index mk) and outer regions as instances; the market
 * shuffled. */
static void deal(sb_state *s, engine_ctx *ctx, int seat, int mk)
{
    const starbase_market *m = &sb_cs()->markets[mk];
    int order[STARBASE_MARKET_MAX];
    s->p[seat].market = mk;
    s->p[seat].alive = 1;
    s->p[seat].isk = sb_cs()->setup.start_isk;
    for (int k = 0; k < m->ncards; k++)
        order[k] = k;
    engine_rng_shuffle(engine_ctx_rng(ctx), order, (size_t)m->ncards,
                       sizeof order[0]);
    for (int k = 0; k < m->ncards + m->nregions; k++) {
        int i = s->ninst++;
        sb_inst *c = &s->in[i];
        c->owner = seat;
        sb_move(s, i, k < m->ncards ? SB_Z_MARKET : SB_Z_OUTER_STACK, -1);
        c->card = k < m->ncards ? m->cards[k] : m->regions[k - m->ncards];
        c->seq = k < m->ncards ? order[k] : 0;
    }
}

/* Which market each seat gets: the first seats the markets the starters
 * option names; the others, in edition 1, the remaining markets in order
 * (no option: market N to seat N), else drawn from the seed (a shuffle of
 * the remaining ones). */
static void choose_markets(const sb_state *s, engine_ctx *ctx,
                           const json_t *options, int *mk)
{
    const json_t *st = json_object_get(options, "starters");
    int named = (int)json_array_size(st), n = 0;
    int left[STARBASE_MAX_MARKETS] = {0};
    for (int p = 0; p < named; p++)
        mk[p] = starbase_market_find(
            sb_cs(), json_string_value(json_array_get(st, (size_t)p)));
    for (int k = 0; k < sb_cs()->nmarkets; k++) {
        int taken = 0;
        for (int p = 0; p < named; p++)
            taken |= mk[p] == k;
        if (!taken)
            left[n++] = k;
    }
    if (s->edition != SB_EDITION_FIRST)
        engine_rng_shuffle(engine_ctx_rng(ctx), left, (size_t)n,
                           sizeof left[0]);
    for (int p = named; p < s->seats; p++)
        mk[p] = left[p - named];
}

static void *sb_setup(engine_ctx *ctx, const json_t *options, int seats,
                      engine_error *err)
{
    if (!sb_cs() || sb_cs()->nmarkets < seats) {
        engine_fail(err, ENGINE_EINTERNAL, "", "starbase cards not loaded");
        return NULL;
    }
    sb_state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->seats = seats;
    s->next_seq = 1000;
    /* a game stored before editions has no edition: the first rules */
    s->edition = json_object_get(options, "edition")
                     ? engine_option_int(sb_options, options, "edition")
                     : SB_EDITION_FIRST;
    int mk[SB_MAX_SEATS];
    choose_markets(s, ctx, options, mk);
    int first =
        s->edition == SB_EDITION_FIRST
            ? 0
            : (int)engine_rng_below(engine_ctx_rng(ctx), (uint32_t)seats);
    for (int p = 0; p < seats; p++)
        deal(s, ctx, p, mk[p]);
    sb_log(ctx, "setup",
           "Each player shuffles a market of %d cards, draws %d "
           "and gets %d ISK.",
           sb_cs()->setup.market_size, sb_cs()->setup.start_hand,
           sb_cs()->setup.start_isk);
    for (int p = 0; p < seats && s->edition != SB_EDITION_FIRST; p++)
        sb_log(ctx, "starter", "Seat %d plays the %s market.", p,
               sb_cs()->markets[mk[p]].name);
    for (int p = 0; p < seats; p++)
        for (int k = 0; k < sb_cs()->setup.start_hand; k++)
            sb_draw(s, ctx, p);
    if (s->edition != SB_EDITION_FIRST)
        sb_log(ctx, "first_player", "Seat %d is drawn to go first.", first);
    s->active = (first + seats - 1) % seats; /* so the first turn is first's */
    sb_begin_turn(s, ctx, first);
    return s;
}

static void *sb_clone(const void *state)
{
    return engine_plain_clone(state, sizeof(sb_state));
}

static const engine_field sb_fields[] = {
    {.name = "seats",
     .kind = ENGINE_FIELD_INT,
     .offset = offsetof(sb_state, seats),
     .min = 2,
     .max = SB_MAX_SEATS},
    {.name = "active",
     .kind = ENGINE_FIELD_INT,
     .offset = offsetof(sb_state, active),
     .min = 0,
     .max = SB_MAX_SEATS - 1},
    {.name = "turn",
     .kind = ENGINE_FIELD_INT,
     .offset = offsetof(sb_state, turn),
     .min = 0,
     .max = 1000000},
    {.name = "step",
     .kind = ENGINE_FIELD_INT,
     .offset = offsetof(sb_state, step),
     .min = 0,
     .max = SB_STEP_COUNT - 1},
    {.name = "battle",
     .kind = ENGINE_FIELD_INT,
     .offset = offsetof(sb_state, battle),
     .min = 0,
     .max = SB_MAX_ATTACKS},
    {.name = "nattacks",
     .kind = ENGINE_FIELD_INT,
     .offset = offsetof(sb_state, nattacks),
     .min = 0,
     .max = SB_MAX_ATTACKS},
    {.name = "attacks",
     .kind = ENGINE_FIELD_INT,
     .offset = offsetof(sb_state, attacks),
     .min = -1,
     .max = SB_HOME_COUNT + SB_MAX_INST,
     .len = SB_MAX_ATTACKS,
     .cols = 2,
     .has_count = 1,
     .count_offset = offsetof(sb_state, nattacks)},
    {.name = "next_seq",
     .kind = ENGINE_FIELD_INT,
     .offset = offsetof(sb_state, next_seq),
     .min = 0,
     .max = 1000000000},
    {.name = "over",
     .kind = ENGINE_FIELD_BOOL,
     .offset = offsetof(sb_state, over),
     .min = 0,
     .max = 1},
    {.name = "ninst",
     .kind = ENGINE_FIELD_INT,
     .offset = offsetof(sb_state, ninst),
     .min = 0,
     .max = SB_MAX_INST},
    {.name = "players",
     .kind = ENGINE_FIELD_INT,
     .offset = offsetof(sb_state, p),
     .min = -1,
     .max = 1000000,
     .len = SB_MAX_SEATS,
     .cols = SB_PLAYER_INTS},
    {.name = "cards",
     .kind = ENGINE_FIELD_INT,
     .offset = offsetof(sb_state, in),
     .min = -1000000,
     .max = 1000000000,
     .len = SB_MAX_INST,
     .cols = SB_INST_INTS,
     .has_count = 1,
     .count_offset = offsetof(sb_state, ninst)},
    {0},
};

/* Edition 1 saves as before editions existed (same bytes, same hashes); a
 * later edition says so. */
static json_t *sb_save(const void *state)
{
    const sb_state *s = state;
    json_t *out = engine_plain_save(state, sb_fields);
    if (out && s->edition != SB_EDITION_FIRST)
        json_object_set_new(out, "edition", json_integer(s->edition));
    return out;
}

/* What the field table cannot check. */
static int consistent(const sb_state *s)
{
    const starbase_cardset *cs = sb_cs();
    if (s->active >= s->seats || s->battle > s->nattacks)
        return 0;
    for (int p = 0; p < s->seats; p++)
        if (s->p[p].market < 0 || s->p[p].market >= cs->nmarkets ||
            s->p[p].isk < 0 || s->p[p].damage < 0)
            return 0;
    for (int i = 0; i < s->ninst; i++) {
        const sb_inst *c = &s->in[i];
        if (c->card < 0 || c->card >= cs->ncards || c->owner < 0 ||
            c->owner >= s->seats || c->zone < 0 || c->zone >= SB_Z_COUNT ||
            c->cmd >= STARBASE_MAX_COMMANDS || c->cmd < -1 ||
            ((c->zone == SB_Z_REGION || c->zone == SB_Z_LOCATION) &&
             (c->region < 0 || c->region >= SB_HOME_COUNT + s->ninst)) ||
            (c->cmd >= 0 && c->cmd >= cs->cards[c->card].ncommands))
            return 0;
    }
    return 1;
}

static void *sb_load(const json_t *saved, engine_error *err)
{
    sb_state tmp;
    memset(&tmp, 0, sizeof tmp);
    const json_t *ed = json_object_get(saved, "edition");
    tmp.edition = SB_EDITION_FIRST; /* saved before editions */
    if (ed) {
        if (!json_is_integer(ed) ||
            json_integer_value(ed) <= SB_EDITION_FIRST ||
            json_integer_value(ed) > SB_EDITION_CURRENT) {
            engine_fail(err, ENGINE_EINTERNAL, "edition",
                        "corrupt starbase state");
            return NULL;
        }
        tmp.edition = (int)json_integer_value(ed);
        json_t *rest = json_copy((json_t *)saved);
        if (!rest)
            return NULL;
        json_object_del(rest, "edition");
        int rc = engine_plain_load(&tmp, rest, sb_fields, err);
        json_decref(rest);
        if (rc != 0)
            return NULL;
    } else if (engine_plain_load(&tmp, saved, sb_fields, err) != 0)
        return NULL;
    if (!sb_cs() || !consistent(&tmp)) {
        engine_fail(err, ENGINE_EINTERNAL, "state", "corrupt starbase state");
        return NULL;
    }
    return sb_clone(&tmp);
}

static int sb_windows(const void *state, engine_window *out, int max)
{
    (void)state, (void)out, (void)max;
    return 0; /* the only window is the core's priority window */
}

static int sb_play(void *state, engine_ctx *ctx, int seat, const char *window,
                   const json_t *p, engine_error *err)
{
    (void)state, (void)ctx, (void)seat, (void)window, (void)p;
    return engine_fail(err, ENGINE_ECONFLICT, "window", "no such window");
}

static json_t *sb_legal(const void *state, int seat, const char *window)
{
    (void)state, (void)seat, (void)window;
    return NULL;
}

static json_t *sb_bot(const void *state, int seat, const char *window,
                      const char *level, engine_rng *rng)
{
    (void)state, (void)seat, (void)window, (void)level, (void)rng;
    return NULL;
}

static json_t *sb_view_hook(const void *state, int seat)
{
    return sb_view(state, seat);
}

static int sb_is_over(const void *state)
{
    return ((const sb_state *)state)->over;
}

/* Winners: the last player left (none: a draw). Scores rank the players:
 * a player scores how many others lost before them, so the winner scores
 * seats - 1 and ranks first, players who lose in the same turn score the
 * same (a draw: the last ones tie). lost_turn: the turn each player lost in
 * (null for the winner). */
static json_t *sb_result(const void *state)
{
    const sb_state *s = state;
    if (!s->over)
        return NULL;
    json_t *winners = json_array(), *scores = json_array(),
           *lost = json_array();
    for (int p = 0; p < s->seats; p++) {
        const sb_player *pl = &s->p[p];
        int before = 0;
        for (int q = 0; q < s->seats; q++)
            before += q != p && !s->p[q].alive &&
                      (pl->alive || s->p[q].lost_turn < pl->lost_turn);
        if (pl->alive)
            json_array_append_new(winners, json_integer(p));
        json_array_append_new(scores, json_integer(before));
        json_array_append_new(lost, pl->alive ? json_null()
                                              : json_integer(pl->lost_turn));
    }
    return json_pack("{s:o, s:o, s:o, s:b, s:i}", "winners", winners, "scores",
                     scores, "lost_turn", lost, "draw",
                     json_array_size(winners) == 0, "turns", s->turn);
}

static const engine_bot_level bot_levels[] = {
    {"basic", "Basic"}, {"random", "Random"}, {NULL, NULL}};

int sb_window_label(const char *window, char *out, size_t n); /* labels.c */
const engine_ruleset starbase_ruleset = {
    .id = "starbase",
    .title = "Starbase",
    .summary = "A card game of ships, regions and news for 2-4 players: build "
               "your starbase's income, assemble ships, claim outer regions "
               "and attack. Lose when your market runs dry or your starbase "
               "falls; the last player left wins.",
    .min_seats = 2,
    .max_seats = SB_MAX_SEATS,
    .options = sb_options,
    .new_game_options = "{\"edition\":" SB_EDITION_CURRENT_TEXT "}",
    .init = sb_init,
    .check_options = sb_check_options,
    .setup = sb_setup,
    .destroy = free,
    .clone = sb_clone,
    .save = sb_save,
    .load = sb_load,
    .windows = sb_windows,
    .window_label = sb_window_label,
    .play = sb_play,
    .view = sb_view_hook,
    .legal = sb_legal,
    .bot = sb_bot,
    .is_over = sb_is_over,
    .result = sb_result,
    .twin = sb_twin,
    .priority_play = sb_priority_play,
    .priority_resolve = sb_priority_resolve,
    .priority_end = sb_priority_end,
    .priority_legal = sb_priority_legal,
    .priority_bot = sb_priority_bot,
    .priority_undo = 0,
    .bot_levels = bot_levels,
};

/*
 * council_bot.c - Galactic Council's bots. "random" picks a random card
 * (or ranks the cards at random) and gives random (well-formed) order parts,
 * now and then with cards, follows, token splits, standing retreats, vision
 * offers, lore and discards. "basic" plays from what its seat knows (explored
 * sectors, markers it knows, fleets it has seen): it sends its carriers with
 * troopers to the most valuable sector in reach, with the seed's pattern
 * "inspect the marker; if it is hostile retreat, else land on every planet",
 * keeps a warship at home, produces at home, pays to explore next to its space,
 * plays the action cards that only give (trade goods, a free exploration), and
 * uses its strategy card. Objectives are scored by the status phase itself. The
 * council's windows are played by council_council_bot.c.
 */
#include "engine/rules/council/council_internal.h"

#include <stdio.h>
#include <string.h>

static json_t *hex_of(const cnc_state *s, int x)
{
    return json_pack("[i, i]", s->g.sec[x].hex.q, s->g.sec[x].hex.r);
}

static int unit(const char *key)
{
    return cnc_unit_index(cnc_data_get(), key);
}

static void put_part(json_t *order, const char *prefix, int n, json_t *part)
{
    char key[CNC_PART_KEY_MAX];
    snprintf(key, sizeof key, "%s%d", prefix, n);
    json_object_set_new(order, key, part);
}

static const char *const pref[] = {"commerce",     "research", "command",
                                   "intelligence", "industry", "chancery",
                                   "campaign",     "forum"};

/* The ranked picks: basic ranks every card in its order of preference,
 * random sends a random ordering of a random length (maybe none). */
static json_t *rank_cards(int basic, engine_rng *rng)
{
    const cnc_data *d = cnc_data_get();
    int order[CNC_MAX_STRATEGIES], n = 0;
    for (int i = 0; basic && i < 8; i++) {
        int k = cnc_strategy_index(d, pref[i]);
        if (k >= 0)
            order[n++] = k;
    }
    if (!basic) {
        for (int c = 0; c < d->nstrategies; c++)
            order[n++] = c;
        engine_rng_shuffle(rng, order, (size_t)n, sizeof order[0]);
        n = (int)engine_rng_below(rng, (uint32_t)n + 1);
    }
    json_t *r = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(r, json_string(d->strategies[order[i]].key));
    return json_pack("{s:o}", "ranking", r);
}

static json_t *pick_card(const cnc_state *s, int basic, engine_rng *rng)
{
    const cnc_data *d = cnc_data_get();
    if (cnc_ranked_open(s))
        return rank_cards(basic, rng);
    int free_cards[CNC_MAX_STRATEGIES], n = 0;
    for (int c = 0; c < d->nstrategies; c++)
        if (s->strat_owner[c] < 0)
            free_cards[n++] = c;
    if (n == 0)
        return NULL;
    int c = free_cards[engine_rng_below(rng, (uint32_t)n)];
    for (int i = 0; basic && i < 8; i++) {
        int k = cnc_strategy_index(d, pref[i]);
        if (k >= 0 && s->strat_owner[k] < 0) {
            c = k;
            break;
        }
    }
    return json_pack("{s:s}", "card", d->strategies[c].key);
}

/* Every unit seat has in space at x, as {key: n}; NULL when none. */
static json_t *units_at(const cnc_state *s, int seat, int x, int keep_guard)
{
    const cnc_data *d = cnc_data_get();
    json_t *o = json_object();
    int guard = keep_guard;
    for (int u = 0; u < d->nunits; u++) {
        int n = s->g.sec[x].units[seat][u];
        if (guard && d->units[u].kind == CNC_UNIT_SHIP &&
            d->units[u].capacity == 0 && n > 0) {
            n--;
            guard = 0;
        }
        if (d->units[u].kind == CNC_UNIT_GROUND)
            n = 20;
        if (n > 0)
            json_object_set_new(o, d->units[u].key,
                                json_integer(n > 30 ? 30 : n));
    }
    return o;
}

static json_t *land_all(void)
{
    return json_pack("{s:s, s:s, s:s}", "type", "land", "planet", "all",
                     "troops", "all");
}

/* ---------------------------------------------------------- random -- */

/* A random action card seat holds (-1: none). */
static int random_card(const cnc_state *s, int seat, engine_rng *rng)
{
    const cnc_data *d = cnc_data_get();
    int held[CNC_MAX_ACTIONS], n = 0;
    /* With the lobby in this window a council card's play is a lobby part
     * (cnc_bot_lobby plays those); before, one here was refused only when
     * the window resolved. */
    int council_cards = !cnc_lobby_in_action(s);
    for (int a = 0; a < d->nactions; a++)
        if (s->p[seat].hand[a] &&
            (council_cards || d->actions[a].timing != CNC_TIME_COUNCIL))
            held[n++] = a;
    return n ? held[engine_rng_below(rng, (uint32_t)n)] : -1;
}

/* The choices added after part I's first orders, each now and then: play
 * a card, follow a card, split tokens, a standing retreat, vision, lore,
 * a discard. */
static void random_extras(const cnc_state *s, int seat, engine_rng *rng,
                          json_t *order)
{
    const cnc_data *d = cnc_data_get();
    int x = (int)engine_rng_below(rng, (uint32_t)s->g.nsectors);
    int nb[6], n = cnc_sector_neighbors(&s->g, x, nb);
    int a = random_card(s, seat, rng);
    if (a >= 0 && engine_rng_below(rng, 2))
        put_part(order, "y", 1,
                 json_pack("{s:s, s:s, s:o}", "type", "play", "card",
                           d->actions[a].key, "sector", hex_of(s, x)));
    if (engine_rng_below(rng, 4) == 0)
        put_part(
            order, "y", 2,
            json_pack(
                "{s:s, s:s}", "type", "follow", "card",
                d->strategies[engine_rng_below(rng, (uint32_t)d->nstrategies)]
                    .key));
    if (engine_rng_below(rng, 3) == 0)
        put_part(order, "y", 3,
                 json_pack("{s:s, s:i, s:i, s:i}", "type", "tokens", "tactic",
                           (int)engine_rng_below(rng, 6), "fleet",
                           (int)engine_rng_below(rng, 6), "strategy",
                           (int)engine_rng_below(rng, 4)));
    if (n && engine_rng_below(rng, 3) == 0)
        put_part(order, "y", 4,
                 json_pack("{s:s, s:o, s:o, s:i}", "type", "combat_retreat",
                           "sector", hex_of(s, x), "to",
                           hex_of(s, nb[engine_rng_below(rng, (uint32_t)n)]),
                           "after", 1 + (int)engine_rng_below(rng, 3)));
    if (engine_rng_below(rng, 6) == 0)
        put_part(order, "y", 5,
                 json_pack("{s:s, s:i, s:b}", "type", "share", "seat",
                           (int)engine_rng_below(rng, (uint32_t)s->seats), "on",
                           (int)engine_rng_below(rng, 2)));
    if (engine_rng_below(rng, 4) == 0)
        put_part(order, "y", 6,
                 json_pack("[{s:s, s:o}, {s:s, s:o}]", "type", "lore", "sector",
                           hex_of(s, x), "type", "discard", "sector",
                           hex_of(s, x)));
}

static json_t *random_order(const cnc_state *s, int seat, engine_rng *rng)
{
    json_t *order = json_object();
    int parts = 0;
    for (int x = 0; x < s->g.nsectors && parts < 4; x++) {
        if (cnc_ships_in(s, seat, x) == 0 || engine_rng_below(rng, 2))
            continue;
        int nb[6], n = cnc_sector_neighbors(&s->g, x, nb);
        int to = nb[engine_rng_below(rng, (uint32_t)n)];
        json_t *steps = json_pack("[{s:s, s:o, s:o, s:o}]", "type", "move",
                                  "from", hex_of(s, x), "to", hex_of(s, to),
                                  "units", units_at(s, seat, x, 0));
        if (engine_rng_below(rng, 2))
            json_array_append_new(steps, land_all());
        put_part(order, "f", x, steps);
        parts++;
    }
    if (engine_rng_below(rng, 3) == 0)
        put_part(order, "s", s->g.home[seat],
                 json_pack("{s:s, s:o, s:{s:i}}", "type", "produce", "sector",
                           hex_of(s, s->g.home[seat]), "units",
                           engine_rng_below(rng, 2) ? "trooper" : "destroyer",
                           2));
    if (s->p[seat].card >= 0 && engine_rng_below(rng, 2)) {
        const cnc_strategy *st = &cnc_data_get()->strategies[s->p[seat].card];
        int x = (int)engine_rng_below(rng, (uint32_t)s->g.nsectors);
        put_part(order, "c", 0,
                 json_pack("{s:s, s:s, s:s, s:[o]}", "type", "strategy", "card",
                           st->key, "option", st->options[0], "targets",
                           hex_of(s, x)));
    }
    if (engine_rng_below(rng, 4) == 0) {
        int x = (int)engine_rng_below(rng, (uint32_t)s->g.nsectors);
        put_part(
            order, "x", 0,
            json_pack("{s:s, s:o}", "type", "explore", "sector", hex_of(s, x)));
    }
    random_extras(s, seat, rng, order);
    return order;
}

/* ----------------------------------------------------------- basic -- */

/* Enemy ships seat last saw in x. */
static int seen_enemies(const cnc_state *s, int seat, int x)
{
    const cnc_memory *m = &s->fog.memory[seat][x];
    int n = 0;
    for (int p = 0; m->round >= 0 && p < s->seats; p++)
        for (int u = 0; p != seat && u < CNC_MAX_UNITS; u++)
            if (cnc_data_get()->units[u].kind == CNC_UNIT_SHIP)
                n += m->units[p][u];
    return n;
}

/* What sector x is worth to seat as a target, from what seat knows. */
static int value(const cnc_state *s, int seat, int x)
{
    const cnc_data *d = cnc_data_get();
    if (!s->fog.explored[x])
        return 4;
    if (seen_enemies(s, seat, x))
        return -5;
    const cnc_system *t = cnc_sector_tile(d, &s->g, x);
    int v = 0;
    for (int p = 0; p < t->nplanets; p++) {
        int owner = (int)s->g.sec[x].owner[p];
        if (owner == seat)
            continue;
        int w = t->planets[p].resources + t->planets[p].influence + 1;
        int m = s->g.sec[x].planet_marker[p];
        if (m >= 0 && cnc_fog_knows_marker(&s->g, &s->fog, seat, m) &&
            d->markers[s->g.markers[m].kind].hostile)
            w -= 3;
        v += owner >= 0 ? w / 2 : w;
    }
    return v;
}

static int has_unowned_planet(const cnc_state *s, int seat, int x)
{
    const cnc_system *t = cnc_sector_tile(cnc_data_get(), &s->g, x);
    for (int p = 0; p < t->nplanets; p++)
        if (s->g.sec[x].owner[p] != seat)
            return 1;
    return 0;
}

/* The steps of a fleet at x going to `to`: move, then the seed's
 * "inspect; if hostile retreat, else land on every planet". */
static json_t *fleet_steps(const cnc_state *s, int seat, int x, int to)
{
    json_t *steps = json_pack("[{s:s, s:o, s:o, s:o}]", "type", "move", "from",
                              hex_of(s, x), "to", hex_of(s, to), "units",
                              units_at(s, seat, x, x == s->g.home[seat]));
    int m = s->g.sec[to].marker;
    if (!s->fog.explored[to] ||
        (m >= 0 && s->g.markers[m].state == CNC_MK_HIDDEN)) {
        json_array_append_new(steps, json_pack("{s:s}", "type", "inspect"));
        json_array_append_new(
            steps, json_pack("{s:s, s:{s:s, s:s}, s:[{s:s, s:o}], s:[o]}",
                             "type", "if", "cond", "type", "marker_is", "is",
                             "hostile", "then", "type", "retreat", "to",
                             hex_of(s, x), "else", land_all()));
    } else {
        json_array_append_new(steps, land_all());
    }
    return steps;
}

/* The most valuable neighbour of x; among equals the one nearest the
 * capital (so that every home, wherever it lies, ties the same way rather
 * than by the direction the neighbours are listed in). */
static int best_target(const cnc_state *s, int seat, int x)
{
    int nb[6], n = cnc_sector_neighbors(&s->g, x, nb), best = -1, bv = 0;
    for (int i = 0; i < n; i++) {
        int v = value(s, seat, nb[i]);
        if (v > bv || (v == bv && best >= 0 &&
                       cnc_sector_distance(&s->g, nb[i], s->g.capital) <
                           cnc_sector_distance(&s->g, best, s->g.capital))) {
            bv = v;
            best = nb[i];
        }
    }
    return best;
}

static void basic_fleets(const cnc_state *s, int seat, json_t *order,
                         int *tokens)
{
    int carrier = unit("carrier"), trooper = unit("trooper");
    for (int x = 0; x<s->g.nsectors && * tokens> 0; x++) {
        const uint8_t *u = s->g.sec[x].units[seat];
        if (!u[carrier])
            continue;
        if (s->fog.explored[x] && has_unowned_planet(s, seat, x) &&
            u[trooper] > 0) {
            put_part(order, "f", x, json_pack("[o]", land_all()));
            continue;
        }
        int to = best_target(s, seat, x);
        if (to < 0)
            continue;
        put_part(order, "f", x, fleet_steps(s, seat, x, to));
        (*tokens)--;
    }
}

static int danger_near_home(const cnc_state *s, int seat)
{
    int home = (int)s->g.home[seat], nb[6],
        n = cnc_sector_neighbors(&s->g, home, nb);
    int danger = seen_enemies(s, seat, home);
    for (int i = 0; i < n; i++)
        danger += seen_enemies(s, seat, nb[i]);
    return danger;
}

static int resources(const cnc_state *s, int seat)
{
    const cnc_data *d = cnc_data_get();
    int r = 0;
    for (int x = 0; x < s->g.nsectors; x++) {
        const cnc_system *t = cnc_sector_tile(d, &s->g, x);
        for (int p = 0; p < t->nplanets; p++)
            if (s->g.sec[x].owner[p] == seat && !(s->exhausted[x] >> p & 1))
                r += t->planets[p].resources;
    }
    return r;
}

static void basic_produce(const cnc_state *s, int seat, json_t *order)
{
    int home = (int)s->g.home[seat];
    int r = resources(s, seat);
    json_t *units;
    if (danger_near_home(s, seat) && r >= 4)
        units = json_pack("{s:i}", "cruiser", 2);
    else if (s->g.sec[home].units[seat][unit("carrier")] < 2 && r >= 4)
        units = json_pack("{s:i, s:i}", "carrier", 1, "trooper", 2);
    else if (r >= 2)
        units = json_pack("{s:i}", "trooper", 4);
    else
        return;
    put_part(order, "s", home,
             json_pack("{s:s, s:o, s:o}", "type", "produce", "sector",
                       hex_of(s, home), "units", units));
}

/* Frontier sectors nearest seat's home, up to max, into out. */
static int frontier_near(const cnc_state *s, int seat, int *out, int max)
{
    int n = 0;
    for (int dist = 1; dist <= 2 * CNC_MAX_RADIUS && n < max; dist++)
        for (int x = 0; x < s->g.nsectors && n < max; x++)
            if (cnc_fog_frontier(&s->g, &s->fog, x) &&
                cnc_sector_distance(&s->g, x, s->g.home[seat]) == dist)
                out[n++] = x;
    return n;
}

static void basic_card(const cnc_state *s, int seat, json_t *order)
{
    const cnc_data *d = cnc_data_get();
    if (s->p[seat].card < 0 || s->p[seat].card_used)
        return;
    const cnc_strategy *st = &d->strategies[s->p[seat].card];
    json_t *targets = json_array();
    if (st->ability == CNC_STRAT_ESPIONAGE) {
        int fr[3], n = frontier_near(s, seat, fr, 3);
        for (int i = 0; i < n; i++)
            json_array_append_new(targets, hex_of(s, fr[i]));
        if (n == 0) {
            json_decref(targets);
            return;
        }
    }
    put_part(order, "c", 0,
             json_pack("{s:s, s:s, s:s, s:o}", "type", "strategy", "card",
                       st->key, "option", st->options[0], "targets", targets));
}

/* Play the held action cards that only help: trade goods, a free
 * exploration (before the paid one). */
static void basic_cards(const cnc_state *s, int seat, json_t *order)
{
    const cnc_data *d = cnc_data_get();
    for (int a = 0; a < d->nactions; a++)
        if (s->p[seat].hand[a] &&
            (d->actions[a].effect == CNC_AFX_GAIN_TRADE_GOODS ||
             d->actions[a].effect == CNC_AFX_FREE_EXPLORE))
            put_part(order, "a", a,
                     json_pack("{s:s, s:s}", "type", "play", "card",
                               d->actions[a].key));
}

/* Status 1 (the player chooses): the revealed public objectives it has not
 * scored, the most valuable first. */
static void basic_score(const cnc_state *s, int seat, json_t *order)
{
    const cnc_data *d = cnc_data_get();
    json_t *pub = json_array();
    for (int vp = 9; vp > 0 && json_array_size(pub) < CNC_SCORE_PREFS; vp--)
        for (int k = 0;
             k < s->revealed && json_array_size(pub) < CNC_SCORE_PREFS; k++) {
            int o = (int)s->public_deck[k];
            if (!s->p[seat].scored[o] && cnc_public_vp(s, k) == vp)
                json_array_append_new(pub, json_string(d->objectives[o].key));
        }
    if (json_array_size(pub) == 0) {
        json_decref(pub);
        return;
    }
    put_part(order, "score", 0,
             json_pack("{s:s, s:o}", "type", "score", "public", pub));
}

static json_t *basic_order(const cnc_state *s, int seat)
{
    json_t *order = json_object();
    int tokens = (int)s->p[seat].tactic;
    basic_card(s, seat, order);
    if (!s->p[seat].free_produce && s->p[seat].card >= 0 &&
        cnc_data_get()->strategies[s->p[seat].card].ability !=
            CNC_STRAT_PRODUCTION)
        tokens--; /* keep one for production at home */
    basic_fleets(s, seat, order, &tokens);
    basic_produce(s, seat, order);
    basic_cards(s, seat, order);
    basic_score(s, seat, order);
    int fr;
    if (s->p[seat].tg >= 3 && frontier_near(s, seat, &fr, 1))
        put_part(order, "x", 0,
                 json_pack("{s:s, s:o}", "type", "explore", "sector",
                           hex_of(s, fr)));
    return order;
}

/* Edition 2: the lobby's parts join the action order, their keys marked
 * "l" so that none meets a fleet order's key. */
static json_t *with_lobby(const cnc_state *s, int seat, int basic,
                          engine_rng *rng, json_t *order)
{
    json_t *lobby = cnc_bot_lobby(s, seat, basic, rng);
    const char *k;
    json_t *v;
    json_object_foreach(lobby, k, v)
    {
        char key[CNC_PART_KEY_MAX];
        snprintf(key, sizeof key, "l%s", k);
        json_object_set(order, key, v);
    }
    json_decref(lobby);
    return order;
}

json_t *cnc_bot_json(const cnc_state *s, int seat, const char *level,
                     engine_rng *rng)
{
    int basic = strcmp(level, "basic") == 0;
    if (!basic && strcmp(level, "random") != 0)
        return NULL;
    switch (s->phase) {
    case CNC_PHASE_STRATEGY:
        return pick_card(s, basic, rng);
    case CNC_PHASE_AGENDA:
        return cnc_bot_agenda(s, seat, basic, rng);
    case CNC_PHASE_LOBBY:
        return cnc_bot_lobby(s, seat, basic, rng);
    case CNC_PHASE_COUNCIL:
        return cnc_bot_council(s, seat, basic, rng);
    default: {
        json_t *order =
            basic ? basic_order(s, seat) : random_order(s, seat, rng);
        return order && cnc_lobby_in_action(s)
                   ? with_lobby(s, seat, basic, rng, order)
                   : order;
    }
    }
}

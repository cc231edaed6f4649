/*
 * starbase_view.c - what a seat (or a spectator) sees of a Starbase game:
 * every player's starbase, ISK, income, dock (with countdowns), structures,
 * news in play with their remaining duration, scrapheap and outer region
 * stack; every region with its controller, ships (active command, power,
 * attack, defence, damage) and locations; the attacks of this turn. A seat
 * sees its own hand (a card no play of the step could put into play says
 * why: "unplayable"); of the others' hands and of every market only the
 * number of cards. A `cards` object gives the full data and text of every
 * design the view shows (and of no other), for clients to draw cards from.
 */
#include "engine/rules/starbase/starbase.h"

static json_t *card_ref(const sb_state *s, int i)
{
    const starbase_card *c = sb_card(s, i);
    return json_pack("{s:i, s:s, s:s, s:s, s:i, s:i}", "id", i, "key", c->key,
                     "name", c->name, "kind", starbase_kind_name(c->kind),
                     "owner", s->in[i].owner, "price", c->price);
}

static json_t *ship_json(const sb_state *s, int i)
{
    const sb_inst *c = &s->in[i];
    json_t *j = card_ref(s, i);
    json_object_set_new(j, "attack", json_integer(sb_ship_attack(s, i)));
    json_object_set_new(j, "defence", json_integer(sb_ship_defence(s, i)));
    json_object_set_new(j, "damage", json_integer(c->damage));
    json_object_set_new(j, "command",
                        c->cmd >= 0
                            ? json_string(sb_card(s, i)->commands[c->cmd].name)
                            : json_null());
    json_object_set_new(j, "command_index", json_integer(c->cmd));
    if (c->cmd >= 0)
        json_object_set_new(j, "power",
                            json_integer(sb_cmd_power(s, i, c->cmd)));
    if (c->zone == SB_Z_DOCK)
        json_object_set_new(j, "countdown", json_integer(c->count));
    else {
        json_object_set_new(j, "attacking", json_boolean(c->attacking));
        json_object_set_new(j, "pinned", json_boolean(sb_pinned(s, i)));
        json_object_set_new(j, "can_warp", json_boolean(sb_can_warp(s, i)));
        if (s->edition == SB_EDITION_FIRST) /* later: no count to show */
            json_object_set_new(
                j, "warps_left",
                json_integer(sb_warps_allowed(s, i) - c->warps));
    }
    return j;
}

static json_t *zone_list(const sb_state *s, int seat, int zone)
{
    json_t *a = json_array();
    for (int i = 0; i < s->ninst; i++) {
        if (s->in[i].owner != seat || s->in[i].zone != zone)
            continue;
        json_t *j = zone == SB_Z_DOCK ? ship_json(s, i) : card_ref(s, i);
        if (zone == SB_Z_NEWS) {
            json_object_set_new(j, "duration_left",
                                s->in[i].count == STARBASE_DURATION_INFINITE
                                    ? json_string("infinite")
                                    : json_integer(s->in[i].count));
            json_object_set_new(j, "target",
                                s->in[i].target >= 0
                                    ? json_integer(s->in[i].target)
                                    : json_null());
        }
        json_array_append_new(a, j);
    }
    return a;
}

static json_t *player_json(const sb_state *s, int p)
{
    const sb_player *pl = &s->p[p];
    const starbase_side *sd = sb_side(s, p);
    const starbase_market *m = &sb_cs()->markets[pl->market];
    json_t *base =
        json_pack("{s:s, s:b, s:i, s:i, s:i, s:i, s:i, s:i}", "name", sd->name,
                  "upgraded", pl->upgraded, "income", sd->income, "hull",
                  sb_base_hull(s, p), "damage", pl->damage, "attack",
                  sb_base_attack(s, p), "slots", sd->slots, "upgrade_price",
                  sb_cs()->stations[m->station].upgrade_price);
    if (base && !pl->upgraded) {
        const starbase_side *b = &sb_cs()->stations[m->station].side[1];
        json_object_set_new(base, "upgrade_to",
                            json_pack("{s:s, s:i, s:i, s:i, s:i}", "name",
                                      b->name, "income", b->income, "hull",
                                      b->hull, "attack", b->attack, "slots",
                                      b->slots));
    }
    return json_pack(
        "{s:i, s:s, s:b, s:i, s:i, s:i, s:i, s:b, s:o, s:o, s:o, s:o, s:o, "
        "s:o}",
        "seat", p, "market_name", m->name, "alive", pl->alive, "isk", pl->isk,
        "income", sb_income(s, p), "hand", sb_count_zone(s, p, SB_Z_HAND),
        "market", sb_count_zone(s, p, SB_Z_MARKET), "forfeit", pl->forfeit,
        "starbase", base, "structures", zone_list(s, p, SB_Z_STRUCTURE), "dock",
        zone_list(s, p, SB_Z_DOCK), "news", zone_list(s, p, SB_Z_NEWS),
        "scrapheap", zone_list(s, p, SB_Z_SCRAP), "outer_regions",
        zone_list(s, p, SB_Z_OUTER_STACK));
}

static json_t *region_json(const sb_state *s, int r)
{
    char name[64];
    sb_region_name(s, r, name, sizeof name);
    json_t *ships = json_array(), *locs = json_array();
    for (int i = 0; i < s->ninst; i++) {
        if (s->in[i].region != r)
            continue;
        if (s->in[i].zone == SB_Z_REGION)
            json_array_append_new(ships, ship_json(s, i));
        else if (s->in[i].zone == SB_Z_LOCATION)
            json_array_append_new(locs, card_ref(s, i));
    }
    int ctrl = sb_region_ctrl(s, r);
    json_t *j =
        json_pack("{s:i, s:s, s:s, s:o, s:o, s:o}", "id", r, "name", name,
                  "kind", r < SB_HOME_COUNT ? "home" : "outer", "controller",
                  ctrl >= 0 ? json_integer(ctrl) : json_null(), "ships", ships,
                  "locations", locs);
    if (r >= SB_HOME_COUNT) {
        json_object_set_new(j, "card", card_ref(s, r - SB_HOME_COUNT));
        json_object_set_new(
            j, "income", json_integer(sb_card(s, r - SB_HOME_COUNT)->income));
    }
    return j;
}

/* A card in seat's own hand; one that no play of the current step could
 * put into play says why ("unplayable": {"reason", "text"}), as the seat
 * would meet it when it holds priority in this step. */
static json_t *hand_card(const sb_state *s, int seat, int i,
                         const sb_action *acts, int n)
{
    json_t *j = card_ref(s, i);
    if (!s->p[seat].alive || s->over)
        return j;
    for (int k = 0; k < n; k++)
        if (acts[k].kind == SB_A_PLAY && acts[k].card == i)
            return j;
    char text[96];
    const char *why = sb_unplayable(s, seat, s->step, i, text, sizeof text);
    json_object_set_new(j, "unplayable",
                        json_pack("{s:s, s:s}", "reason", why, "text", text));
    return j;
}

/* Every card object ({"id", "key", ...}) in j: its design into cards. */
static void add_designs(const sb_state *s, const json_t *j, json_t *cards)
{
    if (json_is_object(j)) {
        const json_t *id = json_object_get(j, "id");
        const char *key = json_string_value(json_object_get(j, "key"));
        if (key && json_is_integer(id) && json_integer_value(id) >= 0 &&
            json_integer_value(id) < s->ninst && !json_object_get(cards, key))
            json_object_set_new(
                cards, key,
                starbase_card_json(sb_card(s, (int)json_integer_value(id))));
        const char *k;
        json_t *v;
        json_object_foreach((json_t *)j, k, v) add_designs(s, v, cards);
    } else if (json_is_array(j)) {
        size_t i;
        json_t *v;
        json_array_foreach((json_t *)j, i, v) add_designs(s, v, cards);
    }
}

json_t *sb_view(const sb_state *s, int seat)
{
    json_t *players = json_array(), *regions = json_array(),
           *attacks = json_array();
    for (int p = 0; p < s->seats; p++)
        json_array_append_new(players, player_json(s, p));
    for (int r = 0; r < SB_HOME_COUNT + s->ninst; r++)
        if (sb_region_valid(s, r))
            json_array_append_new(regions, region_json(s, r));
    for (int k = 0; k < s->nattacks; k++)
        if (s->attacks[k][0] >= 0)
            json_array_append_new(
                attacks, json_pack("{s:i, s:i}", "region", s->attacks[k][0],
                                   "defender", s->attacks[k][1]));
    json_t *v =
        json_pack("{s:i, s:i, s:s, s:i, s:o, s:o, s:o}", "turn", s->turn,
                  "active", s->active, "step", sb_step_names[s->step],
                  "hand_limit", sb_cs()->setup.hand_limit, "players", players,
                  "regions", regions, "attacks", attacks);
    if (v && seat >= 0 && seat < s->seats) {
        json_t *hand = json_array();
        sb_action acts[SB_MAX_ACTIONS];
        int n = sb_list_actions(s, seat, s->step, acts, SB_MAX_ACTIONS);
        for (int i = 0; i < s->ninst; i++)
            if (s->in[i].owner == seat && s->in[i].zone == SB_Z_HAND)
                json_array_append_new(hand, hand_card(s, seat, i, acts, n));
        json_object_set_new(v, "hand", hand);
    }
    if (v) {
        json_t *cards = json_object();
        add_designs(s, v, cards);
        json_object_set_new(v, "cards", cards);
    }
    return v;
}

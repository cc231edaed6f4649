/*
 * starbase_text.c - the player-facing texts of Starbase's cards, generated
 * from their ability and command data, and the card data as client JSON
 * (one card, or the whole public catalogue).
 *
 * These texts are the one source of card wording: clients read them from
 * the JSON, and the card list in docs/games/starbase.md is checked against
 * them by tests/unit/starbase/test_starbase_cards.c.
 */
#include "engine/rules/starbase/starbase_cards.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* 1 when the target is a group of ships (plural words). */
static int plural(int t)
{
    return t == STARBASE_TG_OWN_SHIPS || t == STARBASE_TG_ENEMY_SHIPS ||
           t == STARBASE_TG_OWN_SHIPS_HERE || t == STARBASE_TG_ENEMY_SHIPS_HERE;
}

/* 1 when an income or aura on the target lowers the number. */
static int against(int t)
{
    return t == STARBASE_TG_OPPONENT || t == STARBASE_TG_EACH_OPPONENT ||
           t == STARBASE_TG_ENEMY_SHIP || t == STARBASE_TG_ENEMY_SHIPS ||
           t == STARBASE_TG_ENEMY_SHIPS_HERE;
}

/* "an enemy ship with price 2 or less", "your ships here", ... */
static void target_words(const starbase_ability *a, int n, char *buf,
                         size_t size)
{
    static const char *const words[STARBASE_TG_COUNT] = {"this ship",
                                                         "you",
                                                         "an opponent",
                                                         "each opponent",
                                                         "a ship of yours",
                                                         "an enemy ship",
                                                         "a ship",
                                                         "your ships",
                                                         "enemy ships",
                                                         "your ships here",
                                                         "enemy ships here",
                                                         "an enemy location",
                                                         "an enemy structure",
                                                         "a news in play",
                                                         "your starbase",
                                                         "an enemy starbase"};
    const char *w = a->target < STARBASE_TG_COUNT ? words[a->target] : "?";
    int price = a->from_power ? (a->max_price >= 0 ? n : -1) : a->max_price;
    if (price >= 0)
        snprintf(buf, size, "%s with price %d or less", w, price);
    else
        snprintf(buf, size, "%s", w);
}

/* The effect of kinds that touch players ("you get +1 income"). */
static void player_effect(const starbase_ability *a, int n, const char *who,
                          char *buf, size_t size)
{
    int you = a->target == STARBASE_TG_YOU;
    switch (a->kind) {
    case STARBASE_A_INCOME:
        snprintf(buf, size, "%s %s %c%d income", who, you ? "get" : "gets",
                 you ? '+' : '-', n);
        break;
    case STARBASE_A_ISK:
        if (you)
            snprintf(buf, size, "gain %d ISK", n);
        else
            snprintf(buf, size, "%s loses %d ISK", who, n);
        break;
    case STARBASE_A_DRAW:
        snprintf(buf, size, "draw %d card%s", n, n == 1 ? "" : "s");
        break;
    default: /* discard */
        snprintf(buf, size, "%s discards %d card%s at random", who, n,
                 n == 1 ? "" : "s");
    }
}

/* The effect as a verb phrase ("deal 2 damage to an enemy ship"), without
 * the timing. */
static void effect_words(const starbase_ability *a, int n, char *buf,
                         size_t size)
{
    static const char *const stat_words[STARBASE_ST_COUNT] = {
        "attack", "defence", "command power", "hull"};
    char who[80];
    target_words(a, n, who, sizeof who);
    int many = plural(a->target), once = a->timing != STARBASE_T_PASSIVE;
    switch (a->kind) {
    case STARBASE_A_INCOME:
    case STARBASE_A_ISK:
    case STARBASE_A_DRAW:
    case STARBASE_A_DISCARD:
        player_effect(a, n, who, buf, size);
        break;
    case STARBASE_A_BOUNCE:
        snprintf(buf, size, "return %s to its owner's hand", who);
        break;
    case STARBASE_A_DESTROY:
        snprintf(buf, size, "destroy %s", who);
        break;
    case STARBASE_A_DAMAGE:
        snprintf(buf, size, "deal %d damage to %s", n,
                 a->target == STARBASE_TG_ENEMY_SHIPS_HERE
                     ? "each enemy ship here"
                 : a->target == STARBASE_TG_ENEMY_SHIPS ? "each enemy ship"
                                                        : who);
        break;
    case STARBASE_A_REPAIR:
        snprintf(buf, size, "repair %d damage on your starbase", n);
        break;
    case STARBASE_A_ASSEMBLY:
        if (once)
            snprintf(buf, size,
                     "a ship of yours being assembled counts down %d "
                     "step%s at once",
                     n, n == 1 ? "" : "s");
        else
            snprintf(buf, size,
                     "your ships being assembled count down %d more at each "
                     "of your assembly steps",
                     n);
        break;
    case STARBASE_A_WARPS:
        snprintf(buf, size, "%s may warp %d more time%s %s", who, n,
                 n == 1 ? "" : "s", once ? "this turn" : "each turn");
        break;
    case STARBASE_A_DEACTIVATE:
        snprintf(buf, size, "deactivate the command of %s", who);
        break;
    case STARBASE_A_PIN:
        snprintf(buf, size, "%s cannot warp or activate commands%s", who,
                 once ? " this turn" : "");
        break;
    case STARBASE_A_AURA:
        snprintf(buf, size, "%s %s %c%d %s%s", who, many ? "get" : "gets",
                 against(a->target) ? '-' : '+', n,
                 stat_words[a->stat % STARBASE_ST_COUNT],
                 once ? " this turn" : "");
        break;
    default:
        snprintf(buf, size, "?");
    }
}

/* "Management, 2 ISK" / "Instant" / "" (play and passive). */
static void timing_words(const starbase_ability *a, char *buf, size_t size)
{
    const char *t = a->timing == STARBASE_T_MANAGEMENT ? "management"
                    : a->timing == STARBASE_T_INSTANT  ? "instant"
                                                       : "";
    if (*t && a->cost)
        snprintf(buf, size, "%s, %d ISK", t, a->cost);
    else
        snprintf(buf, size, "%s", t);
}

void starbase_ability_text(const starbase_ability *a, int n, char *buf,
                           size_t size)
{
    char effect[200], timing[48];
    if (size == 0)
        return;
    effect_words(a, n, effect, sizeof effect);
    timing_words(a, timing, sizeof timing);
    if (*timing) {
        timing[0] = (char)toupper((unsigned char)timing[0]);
        snprintf(buf, size, "%s: %s.", timing, effect);
    } else {
        effect[0] = (char)toupper((unsigned char)effect[0]);
        snprintf(buf, size, "%s.", effect);
    }
}

void starbase_command_text(const starbase_command *c, char *buf, size_t size)
{
    char effect[200], timing[48], head[STARBASE_NAME_MAX + 64];
    if (size == 0)
        return;
    effect_words(&c->ab, c->power, effect, sizeof effect);
    timing_words(&c->ab, timing, sizeof timing);
    if (c->power)
        snprintf(head, sizeof head, "%s %d", c->name, c->power);
    else
        snprintf(head, sizeof head, "%s", c->name);
    if (*timing)
        snprintf(buf, size, "%s (%s): %s.", head, timing, effect);
    else
        snprintf(buf, size, "%s: %s.", head, effect);
}

/* Append s to buf (used bytes in *used), a space between parts. */
static void append(char *buf, size_t size, size_t *used, const char *s)
{
    if (*used >= size - 1)
        return;
    int n = snprintf(buf + *used, size - *used, "%s%s", *used ? " " : "", s);
    *used += n < 0 ? 0 : (size_t)n;
    if (*used > size - 1)
        *used = size - 1;
}

void starbase_card_text(const starbase_card *c, char *buf, size_t size)
{
    char part[400];
    size_t used = 0;
    if (size == 0)
        return;
    buf[0] = 0;
    if (c->kind == STARBASE_NEWS && c->instant)
        append(buf, size, &used, "Instant.");
    for (int i = 0; i < c->ncommands; i++) {
        starbase_command_text(&c->commands[i], part, sizeof part);
        append(buf, size, &used, part);
    }
    for (int i = 0; i < c->nab; i++) {
        starbase_ability_text(&c->ab[i], c->ab[i].amount, part, sizeof part);
        append(buf, size, &used, part);
    }
}

/* ---------------------------------------------------------------- JSON -- */

/* The vocabulary fields of an ability (its number as amount / max_price,
 * or nothing for a command, whose number is its power). */
static json_t *ability_json(const starbase_ability *a, int n)
{
    json_t *o = json_object();
    char text[400];
    json_object_set_new(o, "kind", json_string(starbase_ability_name(a->kind)));
    json_object_set_new(o, "timing",
                        json_string(starbase_timing_name(a->timing)));
    json_object_set_new(o, "target",
                        json_string(starbase_target_name(a->target)));
    if (a->kind == STARBASE_A_AURA)
        json_object_set_new(o, "stat",
                            json_string(starbase_stat_name(a->stat)));
    if (!a->from_power && a->amount)
        json_object_set_new(o, "amount", json_integer(a->amount));
    if (!a->from_power && a->max_price >= 0)
        json_object_set_new(o, "max_price", json_integer(a->max_price));
    if (a->cost)
        json_object_set_new(o, "cost", json_integer(a->cost));
    starbase_ability_text(a, n, text, sizeof text);
    json_object_set_new(o, "text", json_string(text));
    return o;
}

static void ship_json(const starbase_card *c, json_t *o)
{
    json_t *cmds = json_array();
    json_object_set_new(o, "assembly", json_integer(c->assembly));
    json_object_set_new(o, "attack", json_integer(c->attack));
    json_object_set_new(o, "defence", json_integer(c->defence));
    for (int i = 0; i < c->ncommands; i++) {
        const starbase_command *cmd = &c->commands[i];
        json_t *j = ability_json(&cmd->ab, cmd->power);
        char text[400];
        json_object_set_new(j, "name", json_string(cmd->name));
        if (cmd->power)
            json_object_set_new(j, "power", json_integer(cmd->power));
        starbase_command_text(cmd, text, sizeof text);
        json_object_set_new(j, "text", json_string(text));
        json_array_append_new(cmds, j);
    }
    json_object_set_new(o, "commands", cmds);
}

json_t *starbase_card_json(const starbase_card *c)
{
    json_t *o = json_object();
    char text[1200];
    json_object_set_new(o, "key", json_string(c->key));
    json_object_set_new(o, "name", json_string(c->name));
    json_object_set_new(o, "kind", json_string(starbase_kind_name(c->kind)));
    json_object_set_new(o, "price", json_integer(c->price));
    if (c->kind == STARBASE_SHIP)
        ship_json(c, o);
    if (c->kind == STARBASE_LOCATION)
        json_object_set_new(o, "region",
                            json_string(starbase_region_name(c->region)));
    if (c->kind == STARBASE_LOCATION || c->kind == STARBASE_OUTER_REGION)
        json_object_set_new(o, "income", json_integer(c->income));
    if (c->kind == STARBASE_NEWS) {
        json_object_set_new(o, "duration",
                            c->duration == STARBASE_DURATION_INFINITE
                                ? json_string("infinite")
                                : json_integer(c->duration));
        json_object_set_new(o, "instant", json_boolean(c->instant));
    }
    if (c->kind != STARBASE_SHIP) {
        json_t *abs = json_array();
        for (int i = 0; i < c->nab; i++)
            json_array_append_new(abs,
                                  ability_json(&c->ab[i], c->ab[i].amount));
        json_object_set_new(o, "abilities", abs);
    }
    starbase_card_text(c, text, sizeof text);
    json_object_set_new(o, "text", json_string(text));
    return o;
}

static json_t *side_json(const starbase_side *s)
{
    return json_pack("{s:s, s:i, s:i, s:i, s:i}", "name", s->name, "income",
                     s->income, "hull", s->hull, "attack", s->attack, "slots",
                     s->slots);
}

static json_t *market_json(const starbase_cardset *cs, const starbase_market *m)
{
    json_t *regions = json_array(), *cards = json_array();
    for (int i = 0; i < m->nregions; i++)
        json_array_append_new(regions,
                              json_string(cs->cards[m->regions[i]].key));
    for (int i = 0; i < m->ncards; i++)
        json_array_append_new(cards, json_string(cs->cards[m->cards[i]].key));
    return json_pack("{s:s, s:s, s:s, s:o, s:o}", "key", m->key, "name",
                     m->name, "starbase", cs->stations[m->station].key,
                     "outer_regions", regions, "cards", cards);
}

json_t *starbase_catalog(void)
{
    const starbase_cardset *cs = starbase_cards();
    if (!cs)
        return NULL;
    const starbase_setup *s = &cs->setup;
    json_t *bases = json_array(), *cards = json_array(),
           *markets = json_array();
    for (int i = 0; i < cs->nstations; i++) {
        const starbase_station *st = &cs->stations[i];
        json_array_append_new(bases,
                              json_pack("{s:s, s:s, s:i, s:o, s:o}", "key",
                                        st->key, "name", st->side[0].name,
                                        "upgrade_price", st->upgrade_price,
                                        "front", side_json(&st->side[0]),
                                        "back", side_json(&st->side[1])));
    }
    for (int i = 0; i < cs->ncards; i++)
        json_array_append_new(cards, starbase_card_json(&cs->cards[i]));
    for (int i = 0; i < cs->nmarkets; i++)
        json_array_append_new(markets, market_json(cs, &cs->markets[i]));
    json_t *setup = json_pack(
        "{s:i, s:i, s:i, s:i, s:i, s:i, s:i}", "min_players", s->min_players,
        "max_players", s->max_players, "start_hand", s->start_hand,
        "hand_limit", s->hand_limit, "start_isk", s->start_isk, "market_size",
        s->market_size, "max_copies", s->max_copies);
    return json_pack("{s:o, s:o, s:o, s:o, s:s}", "setup", setup, "starbases",
                     bases, "cards", cards, "markets", markets, "sha256",
                     cs->sha256);
}

/*
 * starbase_actions.c - Starbase's actions: reading a play into an
 * sb_action, writing one back as JSON, and checking whether it is legal for
 * a seat in the current step (docs/games/starbase.md, "Management phase"
 * and "Priority"). Checking is pure; applying is in starbase_apply.c.
 * Error messages speak only of the sender's own cards.
 */
#include "engine/rules/starbase/starbase.h"

#include <stdio.h>
#include <string.h>

const char *const sb_action_names[SB_A_COUNT] = {
    "forfeit", "play",     "outer",      "upgrade", "dock",   "undock",
    "warp",    "activate", "deactivate", "ability", "discard"};

static int get_int(const json_t *play, const char *key, int *out,
                   engine_error *err)
{
    const json_t *v = json_object_get(play, key);
    *out = -1;
    if (!v)
        return 0;
    if (!json_is_integer(v) || json_integer_value(v) < 0 ||
        json_integer_value(v) > 100000)
        return engine_fail(err, ENGINE_EINVALID, key,
                           "%s must be a small non-negative integer", key);
    *out = (int)json_integer_value(v);
    return 0;
}

int sb_parse(const json_t *play, sb_action *a, engine_error *err)
{
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)play, key, v)
    {
        if (strcmp(key, "action") != 0 && strcmp(key, "card") != 0 &&
            strcmp(key, "index") != 0 && strcmp(key, "target") != 0 &&
            strcmp(key, "region") != 0)
            return engine_fail(err, ENGINE_EINVALID, key,
                               "unknown field \"%.40s\"", key);
    }
    const char *name = json_string_value(json_object_get(play, "action"));
    a->kind = -1;
    for (int k = 0; name && k < SB_A_COUNT; k++)
        if (strcmp(name, sb_action_names[k]) == 0)
            a->kind = k;
    if (a->kind < 0)
        return engine_fail(err, ENGINE_EINVALID, "action",
                           "action must be pass, forfeit, play, outer, "
                           "upgrade, dock, undock, warp, activate, "
                           "deactivate, ability or discard");
    if (get_int(play, "card", &a->card, err) ||
        get_int(play, "index", &a->index, err) ||
        get_int(play, "target", &a->target, err) ||
        get_int(play, "region", &a->region, err))
        return ENGINE_EINVALID;
    return 0;
}

json_t *sb_action_json(const sb_action *a)
{
    json_t *j = json_pack("{s:s}", "action", sb_action_names[a->kind]);
    if (a->card >= 0)
        json_object_set_new(j, "card", json_integer(a->card));
    if (a->index >= 0)
        json_object_set_new(j, "index", json_integer(a->index));
    if (a->target >= 0)
        json_object_set_new(j, "target", json_integer(a->target));
    if (a->region >= 0)
        json_object_set_new(j, "region", json_integer(a->region));
    return j;
}

/* Instance a->card, owned by seat, in zone; 0 if not. */
static int own_in(const sb_state *s, int seat, int card, int zone)
{
    return card >= 0 && card < s->ninst && s->in[card].owner == seat &&
           s->in[card].zone == zone;
}

/* The one chosen-target ability of a news, or NULL. */
static const starbase_ability *news_chosen(const starbase_card *c)
{
    for (int k = 0; k < c->nab; k++)
        if (starbase_target_chosen(c->ab[k].target))
            return &c->ab[k];
    return NULL;
}

static int check_target(const sb_state *s, int seat, const starbase_ability *ab,
                        int n, const sb_action *a, engine_error *err)
{
    if (ab && starbase_target_chosen(ab->target)) {
        if (a->target < 0 || !sb_target_ok(s, seat, ab, n, a->target))
            return engine_fail(err, ENGINE_EINVALID, "target",
                               "that is not a legal target");
    } else if (a->target >= 0)
        return engine_fail(err, ENGINE_EINVALID, "target",
                           "this takes no target");
    return 0;
}

/* A location may go to region r (see "Card kinds"). */
static int location_region_ok(const sb_state *s, int seat,
                              const starbase_card *c, int r)
{
    if (sb_region_ctrl(s, r) != seat)
        return 0;
    if (r == seat)
        return c->region != STARBASE_R_OUTER;
    return r >= SB_HOME_COUNT && c->region != STARBASE_R_HOME;
}

static int check_play(const sb_state *s, int seat, int mgmt, const sb_action *a,
                      engine_error *err)
{
    if (!own_in(s, seat, a->card, SB_Z_HAND))
        return engine_fail(err, ENGINE_EINVALID, "card",
                           "no such card in your hand");
    const starbase_card *c = sb_card(s, a->card);
    if (!mgmt && !(c->kind == STARBASE_NEWS && c->instant))
        return engine_fail(err, ENGINE_ECONFLICT, "action",
                           "only instant news now");
    if (s->p[seat].isk < c->price)
        return engine_fail(err, ENGINE_ECONFLICT, "card", "not enough ISK");
    if (a->index >= 0 || (c->kind != STARBASE_LOCATION && a->region >= 0))
        return engine_fail(err, ENGINE_EINVALID,
                           a->index >= 0 ? "index" : "region",
                           "not for this card");
    if (c->kind == STARBASE_NEWS) {
        const starbase_ability *ab = news_chosen(c);
        return check_target(s, seat, ab, ab ? sb_ab_number(s, -1, -1, ab) : 0,
                            a, err);
    }
    if (a->target >= 0)
        return engine_fail(err, ENGINE_EINVALID, "target", "takes no target");
    if (c->kind == STARBASE_LOCATION &&
        !location_region_ok(s, seat, c, a->region))
        return engine_fail(err, ENGINE_EINVALID, "region",
                           "the location cannot be played there");
    if (c->kind == STARBASE_STRUCTURE &&
        sb_count_zone(s, seat, SB_Z_STRUCTURE) >= sb_side(s, seat)->slots)
        return engine_fail(err, ENGINE_ECONFLICT, "card",
                           "your starbase has no free slot");
    return 0;
}

const char *sb_unplayable(const sb_state *s, int seat, int step, int i,
                          char *text, size_t size)
{
    const starbase_card *c = sb_card(s, i);
    int mgmt = seat == s->active && step == SB_STEP_MANAGEMENT;
    if (!mgmt && !(c->kind == STARBASE_NEWS && c->instant)) {
        snprintf(text, size, "only in your management phase");
        return "not_this_phase";
    }
    if (s->p[seat].isk < c->price) {
        snprintf(text, size, "costs %d ISK; you have %d", c->price,
                 s->p[seat].isk);
        return "too_expensive";
    }
    if (c->kind == STARBASE_STRUCTURE) {
        snprintf(text, size, "your starbase has no free slot (%d of %d used)",
                 sb_count_zone(s, seat, SB_Z_STRUCTURE),
                 sb_side(s, seat)->slots);
        return "no_slot";
    }
    if (c->kind == STARBASE_LOCATION) {
        snprintf(text, size, "%s",
                 c->region == STARBASE_R_OUTER
                     ? "needs an outer region you control"
                     : "no region of yours where it may be played");
        return "no_region";
    }
    if (c->kind == STARBASE_NEWS && news_chosen(c)) {
        snprintf(text, size, "no legal target in play");
        return "no_target";
    }
    snprintf(text, size, "cannot be played now");
    return "not_now";
}

/* The ability a->index of source a->card for seat (a ship's active command),
 * or NULL with err filled. */
static const starbase_ability *source_ability(const sb_state *s, int seat,
                                              const sb_action *a, int *cmd,
                                              engine_error *err)
{
    *cmd = -1;
    if (a->card < 0 || a->card >= s->ninst ||
        sb_controller(s, a->card) != seat || s->in[a->card].zone == SB_Z_NEWS)
        goto bad;
    const sb_inst *i = &s->in[a->card];
    const starbase_card *c = sb_card(s, a->card);
    if (i->zone == SB_Z_REGION) {
        if (i->attacking || i->cmd < 0 || a->index != i->cmd)
            goto bad;
        *cmd = i->cmd;
        return &c->commands[i->cmd].ab;
    }
    if ((i->zone == SB_Z_LOCATION || i->zone == SB_Z_OUTER ||
         i->zone == SB_Z_STRUCTURE) &&
        a->index >= 0 && a->index < c->nab)
        return &c->ab[a->index];
bad:
    engine_fail(err, ENGINE_EINVALID, "card",
                "no ability of yours there to use");
    return NULL;
}

static int check_ability(const sb_state *s, int seat, int mgmt,
                         const sb_action *a, engine_error *err)
{
    int cmd;
    const starbase_ability *ab = source_ability(s, seat, a, &cmd, err);
    if (!ab)
        return ENGINE_EINVALID;
    if (ab->timing == STARBASE_T_INSTANT      ? 0
        : ab->timing == STARBASE_T_MANAGEMENT ? !mgmt
                                              : 1)
        return engine_fail(err, ENGINE_ECONFLICT, "index",
                           "that ability cannot be used now");
    int bit = cmd >= 0 ? cmd : a->index;
    if (s->in[a->card].used & (1 << bit))
        return engine_fail(err, ENGINE_ECONFLICT, "index",
                           "already used this turn");
    if (s->p[seat].isk < ab->cost)
        return engine_fail(err, ENGINE_ECONFLICT, "index", "not enough ISK");
    if (a->region >= 0)
        return engine_fail(err, ENGINE_EINVALID, "region", "takes no region");
    return check_target(s, seat, ab, sb_ab_number(s, a->card, cmd, ab), a, err);
}

/* Ship a->card of seat in a region, ready for an order. */
static int check_ship(const sb_state *s, int seat, const sb_action *a, int zone,
                      engine_error *err)
{
    if (!own_in(s, seat, a->card, zone) ||
        sb_card(s, a->card)->kind != STARBASE_SHIP)
        return engine_fail(err, ENGINE_EINVALID, "card",
                           "no such ship of yours there");
    return 0;
}

static int check_move(const sb_state *s, int seat, const sb_action *a,
                      engine_error *err)
{
    int zone = a->kind == SB_A_UNDOCK ? SB_Z_DOCK : SB_Z_REGION;
    if (check_ship(s, seat, a, zone, err))
        return ENGINE_EINVALID;
    const sb_inst *i = &s->in[a->card];
    int want_index = a->kind == SB_A_ACTIVATE,
        want_region = a->kind == SB_A_WARP;
    if ((a->index >= 0) != want_index || (a->region >= 0) != want_region ||
        a->target >= 0)
        return engine_fail(err, ENGINE_EINVALID,
                           a->target >= 0                  ? "target"
                           : (a->index >= 0) != want_index ? "index"
                                                           : "region",
                           "wrong fields for %s", sb_action_names[a->kind]);
    switch (a->kind) {
    case SB_A_DOCK:
        if (i->region != seat || i->attacking)
            return engine_fail(err, ENGINE_ECONFLICT, "card",
                               "only ships in your home region dock");
        return 0;
    case SB_A_UNDOCK:
        if (i->count > 0)
            return engine_fail(err, ENGINE_ECONFLICT, "card",
                               "the ship is still being assembled");
        return 0;
    case SB_A_WARP:
        if (!sb_can_warp(s, a->card))
            return engine_fail(err, ENGINE_ECONFLICT, "card",
                               "the ship cannot warp now");
        if (!sb_region_valid(s, a->region) || a->region == i->region)
            return engine_fail(err, ENGINE_EINVALID, "region",
                               "no such region to warp to");
        return 0;
    case SB_A_ACTIVATE:
        if (i->attacking || sb_pinned(s, a->card) || i->cmd >= 0)
            return engine_fail(err, ENGINE_ECONFLICT, "card",
                               "the ship cannot activate a command now");
        if (a->index >= sb_card(s, a->card)->ncommands)
            return engine_fail(err, ENGINE_EINVALID, "index",
                               "no such command");
        return 0;
    default: /* SB_A_DEACTIVATE */
        if (i->cmd < 0)
            return engine_fail(err, ENGINE_ECONFLICT, "card",
                               "no active command");
        return 0;
    }
}

/* Fields an action without card, index, target or region must not have. */
static int bare(const sb_action *a, int card_ok, engine_error *err)
{
    if ((a->card >= 0 && !card_ok) || a->index >= 0 || a->target >= 0 ||
        a->region >= 0)
        return engine_fail(err, ENGINE_EINVALID, "action",
                           "%s takes no such field", sb_action_names[a->kind]);
    return 0;
}

int sb_check_action(const sb_state *s, int seat, int step, const sb_action *a,
                    engine_error *err)
{
    if (s->over || seat < 0 || seat >= s->seats || !s->p[seat].alive)
        return engine_fail(err, ENGINE_ECONFLICT, "", "you are out");
    int active = seat == s->active;
    int mgmt = active && step == SB_STEP_MANAGEMENT;
    switch (a->kind) {
    case SB_A_FORFEIT:
        if (bare(a, 0, err))
            return ENGINE_EINVALID;
        if (!active || step != SB_STEP_SETUP || s->p[seat].forfeit ||
            sb_market_top(s, seat) < 0)
            return engine_fail(err, ENGINE_ECONFLICT, "action",
                               "you cannot forfeit your income now");
        return 0;
    case SB_A_PLAY:
        return check_play(s, seat, mgmt, a, err);
    case SB_A_ABILITY:
        return check_ability(s, seat, mgmt, a, err);
    case SB_A_DISCARD:
        if (bare(a, 1, err))
            return ENGINE_EINVALID;
        if (!active || step != SB_STEP_DISCARD)
            return engine_fail(err, ENGINE_ECONFLICT, "action",
                               "nothing to discard now");
        if (!own_in(s, seat, a->card, SB_Z_HAND))
            return engine_fail(err, ENGINE_EINVALID, "card",
                               "no such card in your hand");
        return 0;
    default:
        break;
    }
    if (!mgmt)
        return engine_fail(err, ENGINE_ECONFLICT, "action",
                           "only in your management phase");
    if (a->kind == SB_A_UPGRADE) {
        if (bare(a, 0, err))
            return ENGINE_EINVALID;
        const starbase_market *m = &sb_cs()->markets[s->p[seat].market];
        if (s->p[seat].upgraded ||
            s->p[seat].isk < sb_cs()->stations[m->station].upgrade_price)
            return engine_fail(err, ENGINE_ECONFLICT, "action",
                               "you cannot upgrade now");
        return 0;
    }
    if (a->kind == SB_A_OUTER) {
        if (bare(a, 1, err))
            return ENGINE_EINVALID;
        if (!own_in(s, seat, a->card, SB_Z_OUTER_STACK))
            return engine_fail(err, ENGINE_EINVALID, "card",
                               "no such outer region in your stack");
        for (int i = 0; i < s->ninst; i++)
            if (s->in[i].zone == SB_Z_OUTER &&
                s->in[i].card == s->in[a->card].card)
                return engine_fail(err, ENGINE_ECONFLICT, "card",
                                   "a copy is already in play");
        if (s->p[seat].isk < sb_card(s, a->card)->price)
            return engine_fail(err, ENGINE_ECONFLICT, "card", "not enough ISK");
        return 0;
    }
    return check_move(s, seat, a, err);
}

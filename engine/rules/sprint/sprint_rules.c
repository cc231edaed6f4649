/*
 * sprint_rules.c - the rules of Galactic Sprint over the plain state:
 * dealing, decoding and checking placement and discard orders, costs
 * (discounts, conquest, the pay-for-military route, convoys), resolving a
 * round (payments, bonus draws, explore, scoring, income in VP order, the
 * hand limit), the end and the invariants the tests check.
 *
 * It interprets card abilities from the data (sprint.h vocabulary); no card
 * is special-cased by name. It knows nothing of JSON views or bots.
 */
#include "engine/rules/sprint/sprint_internal.h"

#include <stdio.h>
#include <string.h>

/* --------------------------------------------------------- card facts -- */

/* Does design d belong to the card kind `what`? (icons never match) */
static int what_matches(int what, const sprint_design *d)
{
    int w = d->kind == SPRINT_WORLD;
    switch (what) {
    case SPRINT_W_CARD:
        return 1;
    case SPRINT_W_DEVELOPMENT:
        return !w;
    case SPRINT_W_WORLD:
        return w;
    case SPRINT_W_MILITARY_WORLD:
        return w && d->military_world;
    case SPRINT_W_CIVIL_WORLD:
        return w && !d->military_world;
    case SPRINT_W_REBEL_WORLD:
        return w && d->faction == SPRINT_REBEL;
    case SPRINT_W_ALIEN_WORLD:
        return w && d->faction == SPRINT_ALIEN;
    case SPRINT_W_GREY_WORLD:
        return w && d->colour == SPRINT_GREY;
    case SPRINT_W_AZURE_WORLD:
        return w && d->colour == SPRINT_AZURE;
    case SPRINT_W_JADE_WORLD:
        return w && d->colour == SPRINT_JADE;
    case SPRINT_W_AMBER_WORLD:
        return w && d->colour == SPRINT_AMBER;
    case SPRINT_W_VIOLET_WORLD:
        return w && d->colour == SPRINT_VIOLET;
    default:
        return 0;
    }
}

int sprint_count_what(const sprint_cardset *cs, const uint8_t *list, int n,
                      int what, int skip)
{
    int total = 0;
    for (int i = 0; i < n; i++) {
        if (list[i] == skip)
            continue;
        const sprint_design *d = sprint_design_of(cs, list[i]);
        switch (what) {
        case SPRINT_W_MILITARY_ICON:
            total += d->military;
            break;
        case SPRINT_W_EXPLORE_ICON:
            total += d->explore;
            break;
        case SPRINT_W_INCOME_ICON:
            total += d->income;
            break;
        default:
            total += what_matches(what, d);
        }
    }
    return total;
}

int sprint_list_vp(const sprint_cardset *cs, const uint8_t *list, int n,
                   const uint8_t *rival_list, int nrival)
{
    int vp = 0;
    for (int i = 0; i < n; i++) {
        const sprint_design *d = sprint_design_of(cs, list[i]);
        vp += d->vp;
        for (int a = 0; a < d->nab; a++) {
            const sprint_ability *ab = &d->ab[a];
            if (ab->type == SPRINT_AB_VP_PER)
                vp +=
                    ab->amount *
                    (sprint_count_what(cs, list, n, ab->what, -1) / ab->every);
            else if (ab->type == SPRINT_AB_VP_PER_RIVAL && rival_list)
                vp += ab->amount *
                      (sprint_count_what(cs, rival_list, nrival, ab->what, -1) /
                       ab->every);
            else if (ab->type == SPRINT_AB_BONUS_IF && ab->amount &&
                     sprint_count_what(cs, list, n, ab->what, list[i]) > 0)
                vp += ab->amount; /* once, however many match */
        }
    }
    return vp;
}

int sprint_list_income(const sprint_cardset *cs, const uint8_t *list, int n)
{
    int inc = 0;
    for (int i = 0; i < n; i++) {
        const sprint_design *d = sprint_design_of(cs, list[i]);
        inc += d->income;
        for (int a = 0; a < d->nab; a++) {
            const sprint_ability *ab = &d->ab[a];
            if (ab->type == SPRINT_AB_INCOME_PER)
                inc +=
                    ab->amount *
                    (sprint_count_what(cs, list, n, ab->what, -1) / ab->every);
            else if (ab->type == SPRINT_AB_BONUS_IF && ab->income &&
                     sprint_count_what(cs, list, n, ab->what, list[i]) > 0)
                inc += ab->income;
        }
    }
    return inc;
}

/* Edition 2: the VP one rival ability ab earns, counted in the empire of
 * the opponent of seat where it earns the most (0 in solitaire). */
static int best_rival_vp(const sprint_cardset *cs, const sprint_state *s,
                         int seat, const sprint_ability *ab)
{
    int best = 0;
    for (int r = 0; r < s->seats && !s->solo; r++) {
        if (r == seat)
            continue;
        int v = ab->amount * (sprint_count_what(cs, s->p[r].empire,
                                                s->p[r].nempire, ab->what, -1) /
                              ab->every);
        if (v > best)
            best = v;
    }
    return best;
}

int sprint_empire_vp(const sprint_state *s, int seat)
{
    const sprint_cardset *cs = sprint_cards();
    const sprint_player *p = &s->p[seat];
    if (s->edition == SPRINT_EDITION_BEST_RIVAL) {
        /* Own cards first (rival abilities count nothing there), then each
         * rival ability against its best opponent. */
        int vp = sprint_list_vp(cs, p->empire, p->nempire, NULL, 0);
        for (int i = 0; i < p->nempire; i++) {
            const sprint_design *d = sprint_design_of(cs, p->empire[i]);
            for (int a = 0; a < d->nab; a++)
                if (d->ab[a].type == SPRINT_AB_VP_PER_RIVAL)
                    vp += best_rival_vp(cs, s, seat, &d->ab[a]);
        }
        return vp;
    }
    const sprint_player *r = !s->solo && p->rival >= 0 && p->rival < s->seats
                                 ? &s->p[p->rival]
                                 : NULL;
    return sprint_list_vp(cs, p->empire, p->nempire, r ? r->empire : NULL,
                          r ? r->nempire : 0);
}

int sprint_empire_income(const sprint_state *s, int seat)
{
    return sprint_list_income(sprint_cards(), s->p[seat].empire,
                              s->p[seat].nempire);
}

int sprint_empire_military(const sprint_state *s, int seat)
{
    return sprint_count_what(sprint_cards(), s->p[seat].empire,
                             s->p[seat].nempire, SPRINT_W_MILITARY_ICON, -1);
}

int sprint_empire_explore(const sprint_state *s, int seat)
{
    return sprint_count_what(sprint_cards(), s->p[seat].empire,
                             s->p[seat].nempire, SPRINT_W_EXPLORE_ICON, -1);
}

int sprint_top_military_draw(const sprint_state *s, int seat)
{
    const sprint_cardset *cs = sprint_cards();
    const sprint_player *p = &s->p[seat];
    int cards = 0;
    for (int i = 0; i < p->nempire; i++) {
        const sprint_design *d = sprint_design_of(cs, p->empire[i]);
        for (int a = 0; a < d->nab; a++)
            if (d->ab[a].type == SPRINT_AB_TOP_MILITARY)
                cards += d->ab[a].amount;
    }
    if (!cards)
        return 0;
    int mine = sprint_empire_military(s, seat);
    if (s->solo) /* the imaginary empire's military is the round number */
        return mine >= s->round ? cards : 0;
    if (mine < 1)
        return 0;
    for (int o = 0; o < s->seats; o++)
        if (o != seat && sprint_empire_military(s, o) > mine)
            return 0;
    return cards;
}

/* --------------------------------------------------------- placement -- */

/* What an empire (plus cards placed earlier this round) brings to a
 * placement. */
typedef struct agg {
    int discount[SPRINT_W_COUNT];
    int military;
    int military_vs[SPRINT_W_COUNT];
    int pay_military;
} agg;

static void agg_add(agg *g, const sprint_design *d)
{
    g->military += d->military;
    for (int a = 0; a < d->nab; a++) {
        const sprint_ability *ab = &d->ab[a];
        if (ab->type == SPRINT_AB_DISCOUNT)
            g->discount[ab->what] += ab->amount;
        else if (ab->type == SPRINT_AB_MILITARY_VS)
            g->military_vs[ab->what] += ab->amount;
        else if (ab->type == SPRINT_AB_PAY_MILITARY)
            g->pay_military = 1;
    }
}

static void agg_of(const sprint_state *s, int seat, agg *g)
{
    const sprint_cardset *cs = sprint_cards();
    memset(g, 0, sizeof *g);
    for (int i = 0; i < s->p[seat].nempire; i++)
        agg_add(g, sprint_design_of(cs, s->p[seat].empire[i]));
}

static int agg_discount(const agg *g, const sprint_design *d)
{
    int total = 0;
    for (int w = 0; w <= SPRINT_W_VIOLET_WORLD; w++)
        if (g->discount[w] && what_matches(w, d))
            total += g->discount[w];
    return total;
}

static int agg_military_vs(const agg *g, const sprint_design *d)
{
    int total = g->military;
    for (int w = SPRINT_W_REBEL_WORLD; w <= SPRINT_W_VIOLET_WORLD; w++)
        if (g->military_vs[w] && what_matches(w, d))
            total += g->military_vs[w];
    return total;
}

static int clamp0(int x)
{
    return x < 0 ? 0 : x;
}

/* Cost of placing world d by mode with g; field names the order field. */
static int world_cost(const agg *g, const sprint_design *d, int mode,
                      const char *field, const char *mode_field, int *cost,
                      engine_error *err)
{
    if (!d->military_world) {
        if (mode != SPRINT_MODE_PAY)
            return engine_fail(err, ENGINE_EINVALID, mode_field,
                               "%s is a non-military world: it is paid for, "
                               "not conquered",
                               d->name);
        *cost = clamp0(d->cost - agg_discount(g, d));
        return 0;
    }
    if (mode == SPRINT_MODE_CONQUER) {
        int mil = agg_military_vs(g, d);
        if (mil < d->cost)
            return engine_fail(err, ENGINE_EINVALID, field,
                               "military %d is below defence %d of %s", mil,
                               d->cost, d->name);
        *cost = 0;
        return 0;
    }
    if (d->faction == SPRINT_ALIEN)
        return engine_fail(err, ENGINE_EINVALID, mode_field,
                           "%s is an alien world: it must be conquered, never "
                           "paid for",
                           d->name);
    if (!g->pay_military)
        return engine_fail(err, ENGINE_EINVALID, mode_field,
                           "paying for the military world %s needs a card that "
                           "allows it; otherwise conquer it",
                           d->name);
    *cost = clamp0(d->cost - 1 - agg_discount(g, d));
    return 0;
}

static int hand_has(const sprint_player *p, int inst)
{
    for (int i = 0; i < p->nhand; i++)
        if (p->hand[i] == inst)
            return 1;
    return 0;
}

static int convoy_what(const sprint_design *d)
{
    for (int a = 0; a < d->nab; a++)
        if (d->ab[a].type == SPRINT_AB_CONVOY)
            return d->ab[a].what;
    return -1;
}

int sprint_plan_cost(const sprint_state *s, int seat, const sprint_plan *p,
                     sprint_cost *c, engine_error *err)
{
    const sprint_cardset *cs = sprint_cards();
    const sprint_player *pl = &s->p[seat];
    memset(c, 0, sizeof *c);
    if (p->action == SPRINT_ACT_EXPLORE)
        return 0;
    agg g;
    agg_of(s, seat, &g);
    int rc;
    if (p->action == SPRINT_ACT_DEVELOP || p->action == SPRINT_ACT_BOTH) {
        const sprint_design *d;
        if (p->survey) {
            if (pl->survey_used)
                return engine_fail(err, ENGINE_EINVALID, "survey",
                                   "you have already placed your %s",
                                   cs->designs[cs->survey].name);
            d = &cs->designs[cs->survey];
        } else {
            if (p->dev == SPRINT_NONE || !hand_has(pl, p->dev))
                return engine_fail(err, ENGINE_EINVALID, "development",
                                   "card %d is not in your hand", p->dev);
            d = sprint_design_of(cs, p->dev);
            if (d->kind != SPRINT_DEVELOPMENT)
                return engine_fail(err, ENGINE_EINVALID, "development",
                                   "card %d (%s) is a world, not a "
                                   "development",
                                   p->dev, d->name);
        }
        c->dev = clamp0(d->cost - agg_discount(&g, d) -
                        (p->action == SPRINT_ACT_DEVELOP ? 1 : 0));
        agg_add(&g, d); /* it affects the world placed with it */
    }
    if (p->action == SPRINT_ACT_SETTLE || p->action == SPRINT_ACT_BOTH) {
        if (p->world == SPRINT_NONE || !hand_has(pl, p->world))
            return engine_fail(err, ENGINE_EINVALID, "world",
                               "card %d is not in your hand", p->world);
        const sprint_design *w = sprint_design_of(cs, p->world);
        if (w->kind != SPRINT_WORLD)
            return engine_fail(err, ENGINE_EINVALID, "world",
                               "card %d (%s) is a development, not a world",
                               p->world, w->name);
        rc = world_cost(&g, w, p->world_mode, "world", "world_mode", &c->world,
                        err);
        if (rc)
            return rc;
        if (p->convoy != SPRINT_NONE) {
            int cw = convoy_what(w);
            if (cw < 0)
                return engine_fail(err, ENGINE_EINVALID, "convoy_world",
                                   "%s has no convoy ability", w->name);
            if (p->convoy == p->world || !hand_has(pl, p->convoy))
                return engine_fail(err, ENGINE_EINVALID, "convoy_world",
                                   "card %d is not another card in your hand",
                                   p->convoy);
            const sprint_design *w2 = sprint_design_of(cs, p->convoy);
            if (w2->kind != SPRINT_WORLD || !what_matches(cw, w2))
                return engine_fail(
                    err, ENGINE_EINVALID, "convoy_world",
                    "the convoy of %s allows a %s, and card %d "
                    "(%s) is not one",
                    w->name,
                    cw == SPRINT_W_MILITARY_WORLD ? "military world"
                    : cw == SPRINT_W_CIVIL_WORLD  ? "non-military world"
                                                  : "world",
                    p->convoy, w2->name);
            agg_add(&g, w); /* the first world affects the second */
            rc = world_cost(&g, w2, p->convoy_mode, "convoy_world",
                            "convoy_mode", &c->convoy, err);
            if (rc)
                return rc;
        }
    }
    c->total = c->dev + c->world + c->convoy;
    return 0;
}

/* ------------------------------------------------------------ orders -- */

static int get_card_id(const json_t *v, const char *field, uint8_t *out,
                       engine_error *err)
{
    if (!json_is_integer(v) || json_integer_value(v) < 0 ||
        json_integer_value(v) >= SPRINT_MAX_CARDS)
        return engine_fail(err, ENGINE_EINVALID, field,
                           "%s must be a card id (an integer from your hand)",
                           field);
    *out = (uint8_t)json_integer_value(v);
    return 0;
}

static int get_mode(const json_t *v, const char *field, uint8_t *out,
                    engine_error *err)
{
    const char *m = json_is_string(v) ? json_string_value(v) : "";
    if (strcmp(m, "pay") == 0)
        *out = SPRINT_MODE_PAY;
    else if (strcmp(m, "conquer") == 0)
        *out = SPRINT_MODE_CONQUER;
    else
        return engine_fail(err, ENGINE_EINVALID, field,
                           "%s must be \"pay\" or \"conquer\"", field);
    return 0;
}

static int plan_has_dev(const sprint_plan *p)
{
    return p->action == SPRINT_ACT_DEVELOP || p->action == SPRINT_ACT_BOTH;
}

static int plan_has_world(const sprint_plan *p)
{
    return p->action == SPRINT_ACT_SETTLE || p->action == SPRINT_ACT_BOTH;
}

/* The default mode of a world: conquer military worlds, pay for others. */
static uint8_t default_mode(int inst)
{
    const sprint_cardset *cs = sprint_cards();
    if (inst == SPRINT_NONE || inst >= cs->ndeck)
        return SPRINT_MODE_PAY;
    const sprint_design *d = sprint_design_of(cs, inst);
    return d->kind == SPRINT_WORLD && d->military_world ? SPRINT_MODE_CONQUER
                                                        : SPRINT_MODE_PAY;
}

/* sprint_plan_parse, section 1: the action, and only the fields it allows. */
static int plan_action(const json_t *order, sprint_plan *p, engine_error *err)
{
    static const char *const acts[] = {"develop", "settle", "both", "explore"};
    static const int codes[] = {SPRINT_ACT_DEVELOP, SPRINT_ACT_SETTLE,
                                SPRINT_ACT_BOTH, SPRINT_ACT_EXPLORE};
    const char *act = json_string_value(json_object_get(order, "action"));
    int found = -1;
    for (int i = 0; act && i < 4; i++)
        if (strcmp(act, acts[i]) == 0)
            found = i;
    if (found < 0)
        return engine_fail(err, ENGINE_EINVALID, "action",
                           "action must be develop, settle, both or explore");
    p->action = (uint8_t)codes[found];
    int has_dev = plan_has_dev(p), has_world = plan_has_world(p);
    const char *k;
    const json_t *v;
    json_object_foreach((json_t *)order, k, v)
    {
        int ok;
        if (strcmp(k, "action") == 0 || strcmp(k, "rival") == 0)
            ok = 1; /* rival: plan_rival judges it */
        else if (strcmp(k, "development") == 0 || strcmp(k, "survey") == 0)
            ok = has_dev;
        else if (strcmp(k, "world") == 0 || strcmp(k, "world_mode") == 0 ||
                 strcmp(k, "convoy_world") == 0 ||
                 strcmp(k, "convoy_mode") == 0)
            ok = has_world;
        else if (strcmp(k, "pay") == 0)
            ok = p->action != SPRINT_ACT_EXPLORE;
        else
            return engine_fail(err, ENGINE_EINVALID, k, "unknown field \"%s\"",
                               k);
        if (!ok)
            return engine_fail(err, ENGINE_EINVALID, k,
                               "%s is not allowed with action %s", k, act);
    }
    return 0;
}

/* sprint_plan_parse, section 2: the rival whose empire a card counts. */
static int plan_rival(const sprint_state *s, int seat, const json_t *order,
                      sprint_plan *p, engine_error *err)
{
    const json_t *jr = json_object_get(order, "rival");
    if (!jr)
        return 0;
    if (s->edition == SPRINT_EDITION_BEST_RIVAL)
        return engine_fail(err, ENGINE_EINVALID, "rival",
                           "unknown field \"rival\": each rival card counts "
                           "the opponent that gives it the most VP");
    if (s->solo)
        return engine_fail(err, ENGINE_EINVALID, "rival",
                           "rival: there are no opponents in a solitaire "
                           "game");
    if (!json_is_integer(jr) || json_integer_value(jr) < 0 ||
        json_integer_value(jr) >= s->seats || json_integer_value(jr) == seat)
        return engine_fail(err, ENGINE_EINVALID, "rival",
                           "rival must be another seat 0..%d", s->seats - 1);
    p->rival = (int8_t)json_integer_value(jr);
    return 0;
}

/* sprint_plan_parse, section 3: the development (or the survey card). */
static int plan_development(const json_t *order, const char *act,
                            sprint_plan *p, engine_error *err)
{
    const json_t *js = json_object_get(order, "survey");
    const json_t *jd = json_object_get(order, "development");
    if (js && !json_is_boolean(js))
        return engine_fail(err, ENGINE_EINVALID, "survey",
                           "survey must be true or false");
    p->survey = json_is_true(js);
    if (p->survey && jd)
        return engine_fail(err, ENGINE_EINVALID, "development",
                           "give either development or survey:true, not "
                           "both");
    if (p->survey)
        return 0;
    if (!jd)
        return engine_fail(err, ENGINE_EINVALID, "development",
                           "action %s needs a development (or "
                           "survey:true)",
                           act);
    return get_card_id(jd, "development", &p->dev, err);
}

/* sprint_plan_parse, section 4: the world, its mode, and a convoy world. */
static int plan_world(const json_t *order, const char *act, sprint_plan *p,
                      engine_error *err)
{
    int rc;
    const json_t *jw = json_object_get(order, "world");
    if (!jw)
        return engine_fail(err, ENGINE_EINVALID, "world",
                           "action %s needs a world", act);
    if ((rc = get_card_id(jw, "world", &p->world, err)))
        return rc;
    const json_t *jm = json_object_get(order, "world_mode");
    p->world_mode = default_mode(p->world);
    if (jm && (rc = get_mode(jm, "world_mode", &p->world_mode, err)))
        return rc;
    const json_t *jc = json_object_get(order, "convoy_world");
    const json_t *jcm = json_object_get(order, "convoy_mode");
    if (jcm && !jc)
        return engine_fail(err, ENGINE_EINVALID, "convoy_mode",
                           "convoy_mode needs convoy_world");
    if (!jc)
        return 0;
    if ((rc = get_card_id(jc, "convoy_world", &p->convoy, err)))
        return rc;
    p->convoy_mode = default_mode(p->convoy);
    if (jcm && (rc = get_mode(jcm, "convoy_mode", &p->convoy_mode, err)))
        return rc;
    return 0;
}

/* sprint_plan_parse, section 5: the cards that pay, exactly the cost. */
static int plan_payment(const sprint_state *s, int seat, const json_t *order,
                        int cost, sprint_plan *p, engine_error *err)
{
    int rc;
    const json_t *jp = json_object_get(order, "pay");
    if (jp && !json_is_array(jp))
        return engine_fail(err, ENGINE_EINVALID, "pay",
                           "pay must be an array of card ids from your hand");
    size_t npay = jp ? json_array_size(jp) : 0;
    if ((int)npay != cost)
        return engine_fail(err, ENGINE_EINVALID, "pay",
                           "cost %d needs %d discard%s, got %zu", cost, cost,
                           cost == 1 ? "" : "s", npay);
    const sprint_player *pl = &s->p[seat];
    for (size_t i = 0; i < npay; i++) {
        uint8_t id = 0;
        if ((rc = get_card_id(json_array_get(jp, i), "pay", &id, err)))
            return rc;
        if (!hand_has(pl, id))
            return engine_fail(err, ENGINE_EINVALID, "pay",
                               "card %d is not in your hand", id);
        if (id == p->dev || id == p->world || id == p->convoy)
            return engine_fail(err, ENGINE_EINVALID, "pay",
                               "card %d is being placed; it cannot also pay",
                               id);
        for (size_t j = 0; j < i; j++)
            if (p->pay[j] == id)
                return engine_fail(err, ENGINE_EINVALID, "pay",
                                   "card %d is listed twice", id);
        p->pay[i] = id;
    }
    p->npay = (uint8_t)npay;
    return 0;
}

int sprint_plan_parse(const sprint_state *s, int seat, const json_t *order,
                      sprint_plan *p, engine_error *err)
{
    memset(p, 0, sizeof *p);
    p->dev = p->world = p->convoy = SPRINT_NONE;
    p->rival = -1;
    if (!json_is_object(order))
        return engine_fail(err, ENGINE_EINVALID, "",
                           "the order must be an "
                           "object");
    int rc = plan_action(order, p, err);
    if (rc == 0)
        rc = plan_rival(s, seat, order, p, err);
    const char *act = json_string_value(json_object_get(order, "action"));
    if (rc == 0 && plan_has_dev(p))
        rc = plan_development(order, act, p, err);
    if (rc == 0 && plan_has_world(p))
        rc = plan_world(order, act, p, err);
    sprint_cost c;
    if (rc == 0)
        rc = sprint_plan_cost(s, seat, p, &c, err);
    if (rc == 0 && p->action != SPRINT_ACT_EXPLORE)
        rc = plan_payment(s, seat, order, c.total, p, err);
    return rc;
}

int sprint_discard_parse(const sprint_state *s, int seat, const json_t *order,
                         uint8_t *ids, int *n, engine_error *err)
{
    const sprint_player *pl = &s->p[seat];
    if (!json_is_object(order))
        return engine_fail(err, ENGINE_EINVALID, "",
                           "the order must be an "
                           "object");
    const char *k;
    const json_t *v;
    json_object_foreach((json_t *)order, k, v)
    {
        if (strcmp(k, "discard") != 0)
            return engine_fail(err, ENGINE_EINVALID, k, "unknown field \"%s\"",
                               k);
    }
    const json_t *jd = json_object_get(order, "discard");
    if (!json_is_array(jd))
        return engine_fail(err, ENGINE_EINVALID, "discard",
                           "discard must be an array of card ids from your "
                           "hand");
    size_t nd = json_array_size(jd);
    if ((int)nd != pl->must_discard)
        return engine_fail(err, ENGINE_EINVALID, "discard",
                           "you must discard %d card%s, got %zu",
                           pl->must_discard, pl->must_discard == 1 ? "" : "s",
                           nd);
    for (size_t i = 0; i < nd; i++) {
        uint8_t id = 0;
        int rc = get_card_id(json_array_get(jd, i), "discard", &id, err);
        if (rc)
            return rc;
        if (!hand_has(pl, id))
            return engine_fail(err, ENGINE_EINVALID, "discard",
                               "card %d is not in your hand", id);
        for (size_t j = 0; j < i; j++)
            if (ids[j] == id)
                return engine_fail(err, ENGINE_EINVALID, "discard",
                                   "card %d is listed twice", id);
        ids[i] = id;
    }
    *n = (int)nd;
    return 0;
}

/* ------------------------------------------------------------- deck -- */

static void remove_from_hand(sprint_player *p, int inst)
{
    for (int i = 0; i < p->nhand; i++) {
        if (p->hand[i] == inst) {
            memmove(&p->hand[i], &p->hand[i + 1], (size_t)(p->nhand - i - 1));
            p->nhand--;
            return;
        }
    }
}

static void log_pub(sprint_io *io, json_t *e)
{
    if (io && io->ctx)
        engine_ctx_log(io->ctx, e);
    else
        json_decref(e);
}

/* Draw up to n cards into seat's hand, reshuffling the discards into a new
 * deck when it runs out; returns how many were drawn (fewer only when deck
 * and discards are both empty). */
static int draw(sprint_state *s, int seat, int n, sprint_io *io)
{
    sprint_player *p = &s->p[seat];
    int got = 0;
    json_t *ids = io && io->ctx ? json_array() : NULL;
    while (got < n) {
        if (s->ndeck == 0) {
            if (s->ndiscard == 0)
                break;
            memcpy(s->deck, s->discard, s->ndiscard);
            s->ndeck = s->ndiscard;
            s->ndiscard = 0;
            engine_rng_shuffle(io->rng, s->deck, s->ndeck, 1);
            s->reshuffles++;
            log_pub(io, json_pack("{s:s, s:i}", "event", "reshuffle", "cards",
                                  s->ndeck));
        }
        uint8_t c = s->deck[--s->ndeck];
        p->hand[p->nhand++] = c;
        if (ids)
            json_array_append_new(ids, json_integer(c));
        got++;
    }
    if (ids) {
        if (got)
            engine_ctx_log_private(
                io->ctx, seat,
                json_pack("{s:s, s:o}", "event", "drew", "cards", ids));
        else
            json_decref(ids);
    }
    return got;
}

void sprint_state_init(sprint_state *s, const sprint_cardset *cs, int seats,
                       int solo, int target, unsigned campaign_met,
                       int campaign, sprint_io *io)
{
    memset(s, 0, sizeof *s);
    s->seats = (uint8_t)seats;
    s->solo = (uint8_t)(solo || seats == 1);
    s->target = target;
    s->round = 1;
    s->max_rounds = s->solo ? SPRINT_SOLO_ROUNDS : SPRINT_MAX_ROUNDS;
    s->campaign = (uint8_t)campaign;
    s->campaign_met = (uint8_t)campaign_met;
    s->edition = SPRINT_EDITION_NAMED_RIVAL;
    s->phase = SPRINT_PHASE_PLACE;
    for (int i = 0; i < cs->ndeck; i++)
        s->deck[i] = (uint8_t)i;
    s->ndeck = (uint8_t)cs->ndeck;
    engine_rng_shuffle(io->rng, s->deck, s->ndeck, 1);
    for (int seat = 0; seat < seats; seat++) {
        s->p[seat].rival = s->solo ? -1 : (int8_t)((seat + 1) % seats);
        draw(s, seat, SPRINT_START_HAND, io);
    }
}

/* ------------------------------------------------------------ windows -- */

int sprint_window_id(const sprint_state *s, char *buf, size_t n)
{
    static const char *const names[] = {"place", "explore", "limit"};
    if (s->over || s->phase == SPRINT_PHASE_OVER)
        return -1;
    snprintf(buf, n, "r%d.%s", (int)s->round, names[s->phase]);
    return 0;
}

uint32_t sprint_window_seats(const sprint_state *s)
{
    uint32_t m = 0;
    if (s->over)
        return 0;
    for (int i = 0; i < s->seats; i++)
        if (s->phase == SPRINT_PHASE_PLACE || s->p[i].must_discard)
            m |= 1u << i;
    return m;
}

/* ---------------------------------------------------------- resolving -- */

static const char *action_name(int a)
{
    static const char *const n[] = {"none", "develop", "settle", "both",
                                    "explore"};
    return a >= 0 && a <= SPRINT_ACT_EXPLORE ? n[a] : "none";
}

static void next_round(sprint_state *s)
{
    s->round++;
    s->phase = SPRINT_PHASE_PLACE;
    for (int i = 0; i < s->seats; i++)
        s->p[i].must_discard = 0;
}

/* Income order: the highest VP chips first (ties: nearest clockwise from the
 * first player, seat 0), then clockwise. */
static void income_order(const sprint_state *s, int *order)
{
    int start = 0;
    for (int i = 1; i < s->seats; i++)
        if (s->p[i].chips > s->p[start].chips)
            start = i;
    for (int i = 0; i < s->seats; i++)
        order[i] = (start + i) % s->seats;
}

static void score_income_limit(sprint_state *s, sprint_io *io)
{
    json_t *vps = json_array(), *chips = json_array();
    int end = 0;
    for (int i = 0; i < s->seats; i++) {
        int vp = sprint_empire_vp(s, i);
        s->p[i].chips += vp;
        s->p[i].last.vp_scored = (int16_t)vp;
        json_array_append_new(vps, json_integer(vp));
        json_array_append_new(chips, json_integer(s->p[i].chips));
        if (!s->solo && s->p[i].chips >= s->target)
            end = 1;
    }
    log_pub(io, json_pack("{s:s, s:i, s:o, s:o}", "event", "score", "round",
                          (int)s->round, "vp", vps, "chips", chips));
    if (s->round >= s->max_rounds)
        end = 1;
    if (end) {
        s->over = 1;
        s->phase = SPRINT_PHASE_OVER;
        for (int i = 0; i < s->seats; i++)
            s->p[i].must_discard = 0;
        log_pub(io, json_pack("{s:s, s:i}", "event", "end", "round",
                              (int)s->round));
        return;
    }
    int order[SPRINT_MAX_SEATS] = {0};
    income_order(s, order);
    json_t *jo = json_array(), *jd = json_array();
    for (int k = 0; k < s->seats; k++) {
        int i = order[k];
        int n = sprint_empire_income(s, i) + sprint_top_military_draw(s, i);
        s->p[i].last.income_drew = (uint8_t)draw(s, i, n, io);
        json_array_append_new(jo, json_integer(i));
        json_array_append_new(jd, json_integer(s->p[i].last.income_drew));
    }
    log_pub(io, json_pack("{s:s, s:o, s:o}", "event", "income", "order", jo,
                          "drew", jd));
    int over = 0;
    for (int i = 0; i < s->seats; i++) {
        sprint_player *p = &s->p[i];
        p->must_discard = p->nhand > SPRINT_HAND_LIMIT
                              ? (uint8_t)(p->nhand - SPRINT_HAND_LIMIT)
                              : 0;
        over |= p->must_discard > 0;
    }
    if (over)
        s->phase = SPRINT_PHASE_LIMIT;
    else
        next_round(s);
}

void sprint_resolve_place(sprint_state *s, const sprint_plan *plans,
                          sprint_io *io)
{
    const sprint_cardset *cs = sprint_cards();
    json_t *summary = json_array();
    for (int i = 0; i < s->seats; i++) {
        const sprint_plan *pl = &plans[i];
        sprint_player *p = &s->p[i];
        memset(&p->last, 0, sizeof p->last);
        p->last.action = pl->action;
        if (pl->rival >= 0)
            p->rival = pl->rival;
        for (int k = 0; k < pl->npay; k++) {
            remove_from_hand(p, pl->pay[k]);
            s->discard[s->ndiscard++] = pl->pay[k];
        }
        p->last.paid = pl->npay;
        uint8_t place[3];
        uint8_t conq[3] = {0, 0, 0};
        int n = 0;
        if (pl->action == SPRINT_ACT_DEVELOP || pl->action == SPRINT_ACT_BOTH) {
            if (pl->survey) {
                place[n++] = (uint8_t)(cs->ndeck + i);
                p->survey_used = 1;
                p->last.survey = 1;
            } else {
                place[n++] = pl->dev;
            }
        }
        if (pl->action == SPRINT_ACT_SETTLE || pl->action == SPRINT_ACT_BOTH) {
            conq[n] = pl->world_mode == SPRINT_MODE_CONQUER;
            place[n++] = pl->world;
            if (pl->convoy != SPRINT_NONE) {
                conq[n] = pl->convoy_mode == SPRINT_MODE_CONQUER;
                place[n++] = pl->convoy;
            }
        }
        json_t *jp = json_array();
        for (int k = 0; k < n; k++) {
            if (place[k] < cs->ndeck)
                remove_from_hand(p, place[k]);
            p->empire[p->nempire++] = place[k];
            p->last.placed[k] = place[k];
            p->last.conquered[k] = conq[k];
            json_array_append_new(jp, json_integer(place[k]));
        }
        p->last.nplaced = (uint8_t)n;
        json_array_append_new(summary,
                              json_pack("{s:i, s:s, s:o, s:i}", "seat", i,
                                        "action", action_name(pl->action),
                                        "placed", jp, "paid", pl->npay));
    }
    log_pub(io, json_pack("{s:s, s:i, s:o}", "event", "placed", "round",
                          (int)s->round, "players", summary));
    /* Bonus draws and explore draws, in seat order from the first player. */
    int explorers = 0;
    for (int i = 0; i < s->seats; i++) {
        sprint_player *p = &s->p[i];
        if (plans[i].action == SPRINT_ACT_SETTLE) {
            p->last.drew = (uint8_t)draw(s, i, 1, io);
        } else if (plans[i].action == SPRINT_ACT_EXPLORE) {
            int icons = sprint_empire_explore(s, i) + SPRINT_EXPLORE_MARKER;
            p->last.explore_drew =
                (uint8_t)draw(s, i, SPRINT_EXPLORE_BASE + icons, io);
            p->must_discard = (uint8_t)(icons < p->nhand ? icons : p->nhand);
            explorers += p->must_discard > 0;
            log_pub(io, json_pack("{s:s, s:i, s:i, s:i}", "event", "explore",
                                  "seat", i, "drew", p->last.explore_drew,
                                  "must_discard", p->must_discard));
        }
    }
    if (explorers)
        s->phase = SPRINT_PHASE_EXPLORE;
    else
        score_income_limit(s, io);
}

void sprint_resolve_discards(sprint_state *s, uint8_t ids[][SPRINT_MAX_CARDS],
                             const int *counts, sprint_io *io)
{
    json_t *summary = json_array();
    for (int i = 0; i < s->seats; i++) {
        sprint_player *p = &s->p[i];
        if (!p->must_discard)
            continue;
        for (int k = 0; k < counts[i]; k++) {
            remove_from_hand(p, ids[i][k]);
            s->discard[s->ndiscard++] = ids[i][k];
        }
        if (s->phase == SPRINT_PHASE_EXPLORE)
            p->last.explore_discarded = (uint8_t)counts[i];
        else
            p->last.limit_discarded = (uint8_t)counts[i];
        p->must_discard = 0;
        json_array_append_new(summary, json_pack("{s:i, s:i}", "seat", i,
                                                 "discarded", counts[i]));
    }
    log_pub(io,
            json_pack("{s:s, s:s, s:i, s:o}", "event", "discarded", "phase",
                      s->phase == SPRINT_PHASE_EXPLORE ? "explore" : "limit",
                      "round", (int)s->round, "players", summary));
    if (s->phase == SPRINT_PHASE_EXPLORE)
        score_income_limit(s, io);
    else
        next_round(s);
}

/* --------------------------------------------------------- end facts -- */

void sprint_final_stats_of(const sprint_state *s, int seat,
                           sprint_final_stats *st)
{
    const sprint_cardset *cs = sprint_cards();
    const sprint_player *p = &s->p[seat];
    memset(st, 0, sizeof *st);
    st->rounds = s->round;
    st->chips = p->chips;
    st->income = sprint_empire_income(s, seat);
    st->military = sprint_empire_military(s, seat);
    for (int i = 0; i < p->nempire; i++) {
        const sprint_design *d = sprint_design_of(cs, p->empire[i]);
        if (d->kind == SPRINT_WORLD) {
            st->worlds++;
            st->military_worlds += d->military_world;
            st->colours |= 1 << d->colour;
        } else {
            st->developments++;
        }
    }
}

/* --------------------------------------------------------- invariants -- */

int sprint_state_check(const sprint_state *s, char *why, size_t n)
{
    const sprint_cardset *cs = sprint_cards();
    uint8_t seen[SPRINT_MAX_CARDS];
    int total = sprint_total_cards(cs, s->seats);
    memset(seen, 0, sizeof seen);
#define BAD(...)                                                               \
    do {                                                                       \
        snprintf(why, n, __VA_ARGS__);                                         \
        return -1;                                                             \
    } while (0)
#define SEE(c, where)                                                          \
    do {                                                                       \
        int c_ = (c);                                                          \
        if (c_ >= total)                                                       \
            BAD("card %d in %s is out of range", c_, where);                   \
        if (seen[c_]++)                                                        \
            BAD("card %d is in two places (again in %s)", c_, where);          \
    } while (0)
    if (s->seats < 1 || s->seats > SPRINT_MAX_SEATS)
        BAD("bad seat count %d", s->seats);
    if (s->ndeck > SPRINT_MAX_CARDS || s->ndiscard > SPRINT_MAX_CARDS)
        BAD("bad deck/discard counts");
    for (int i = 0; i < s->ndeck; i++)
        SEE(s->deck[i], "deck");
    for (int i = 0; i < s->ndiscard; i++)
        SEE(s->discard[i], "discard");
    for (int seat = 0; seat < s->seats; seat++) {
        const sprint_player *p = &s->p[seat];
        int survey_seen = 0;
        if (p->nhand > SPRINT_MAX_CARDS || p->nempire > SPRINT_MAX_CARDS)
            BAD("seat %d: bad counts", seat);
        if (p->chips < 0)
            BAD("seat %d: negative chips", seat);
        for (int i = 0; i < p->nhand; i++) {
            SEE(p->hand[i], "hand");
            if (p->hand[i] >= cs->ndeck)
                BAD("seat %d holds a survey card in hand", seat);
        }
        for (int i = 0; i < p->nempire; i++) {
            SEE(p->empire[i], "empire");
            if (p->empire[i] >= cs->ndeck) {
                if (p->empire[i] != cs->ndeck + seat)
                    BAD("seat %d has another seat's survey card", seat);
                survey_seen = 1;
            }
        }
        if (survey_seen != p->survey_used)
            BAD("seat %d: survey flag disagrees with its empire", seat);
        if (!survey_seen)
            SEE(cs->ndeck + seat, "centre");
        if (s->solo
                ? p->rival != -1
                : (p->rival < 0 || p->rival >= s->seats || p->rival == seat))
            BAD("seat %d: bad rival %d", seat, p->rival);
        if (p->must_discard > p->nhand)
            BAD("seat %d: must discard more than it holds", seat);
        if (!s->over && s->phase == SPRINT_PHASE_PLACE &&
            p->nhand > SPRINT_HAND_LIMIT && s->round > 1)
            BAD("seat %d: %d cards in hand at placement", seat, p->nhand);
    }
    for (int c = 0; c < total; c++)
        if (!seen[c])
            BAD("card %d is nowhere", c);
    if (s->round < 1 || s->round > s->max_rounds)
        BAD("bad round %d", (int)s->round);
    if (s->over != (s->phase == SPRINT_PHASE_OVER))
        BAD("over flag disagrees with phase");
    if (!s->over && s->phase != SPRINT_PHASE_PLACE &&
        sprint_window_seats(s) == 0)
        BAD("a discard window with nobody in it");
#undef SEE
#undef BAD
    return 0;
}

/* ---------------------------------------------------------- save/load -- */

static json_t *ids_json(const uint8_t *ids, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_integer(ids[i]));
    return a;
}

static int ids_load(const json_t *a, uint8_t *ids, uint8_t *n, int max)
{
    if (!json_is_array(a) || (int)json_array_size(a) > max)
        return -1;
    for (size_t i = 0; i < json_array_size(a); i++) {
        const json_t *v = json_array_get(a, i);
        if (!json_is_integer(v) || json_integer_value(v) < 0 ||
            json_integer_value(v) >= SPRINT_MAX_CARDS)
            return -1;
        ids[i] = (uint8_t)json_integer_value(v);
    }
    *n = (uint8_t)json_array_size(a);
    return 0;
}

static json_t *last_json(const sprint_last *l)
{
    return json_pack("{s:i, s:i, s:o, s:o, s:i, s:i, s:i, s:i, s:i, s:i, s:i}",
                     "action", l->action, "survey", l->survey, "placed",
                     ids_json(l->placed, l->nplaced), "conquered",
                     ids_json(l->conquered, l->nplaced), "paid", l->paid,
                     "drew", l->drew, "explore_drew", l->explore_drew,
                     "explore_discarded", l->explore_discarded, "income_drew",
                     l->income_drew, "limit_discarded", l->limit_discarded,
                     "vp_scored", l->vp_scored);
}

json_t *sprint_state_save(const sprint_state *s)
{
    const sprint_cardset *cs = sprint_cards();
    json_t *players = json_array();
    for (int i = 0; i < s->seats; i++) {
        const sprint_player *p = &s->p[i];
        json_array_append_new(
            players, json_pack("{s:o, s:o, s:i, s:i, s:i, s:i, s:o}", "hand",
                               ids_json(p->hand, p->nhand), "empire",
                               ids_json(p->empire, p->nempire), "chips",
                               p->chips, "survey_used", p->survey_used, "rival",
                               p->rival, "must_discard", p->must_discard,
                               "last", last_json(&p->last)));
    }
    json_t *out = json_pack(
        "{s:i, s:s, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i,"
        " s:o, s:o, s:i, s:o}",
        "v", 1, "cards", cs->sha256, "seats", s->seats, "solo", s->solo,
        "phase", s->phase, "over", s->over, "target", s->target, "round",
        s->round, "max_rounds", s->max_rounds, "campaign", s->campaign,
        "campaign_met", s->campaign_met, "deck", ids_json(s->deck, s->ndeck),
        "discard", ids_json(s->discard, s->ndiscard), "reshuffles",
        (int)s->reshuffles, "players", players);
    /* Edition 1 saves as before editions existed (same bytes, same
     * hashes); a later edition says so. */
    if (out && s->edition != SPRINT_EDITION_NAMED_RIVAL)
        json_object_set_new(out, "edition", json_integer(s->edition));
    return out;
}

static int int_in(const json_t *o, const char *k, int lo, int hi, int *out)
{
    const json_t *v = json_object_get(o, k);
    if (!json_is_integer(v) || json_integer_value(v) < lo ||
        json_integer_value(v) > hi)
        return -1;
    *out = (int)json_integer_value(v);
    return 0;
}

int sprint_state_load(sprint_state *s, const json_t *j, engine_error *err)
{
    const sprint_cardset *cs = sprint_cards();
    int x;
    memset(s, 0, sizeof *s);
#define GET(k, lo, hi, dst)                                                    \
    do {                                                                       \
        if (int_in(j, k, lo, hi, &x) < 0)                                      \
            return engine_fail(err, ENGINE_EINTERNAL, k,                       \
                               "saved sprint state: bad %s", k);               \
        dst = x;                                                               \
    } while (0)
    const char *sha = json_string_value(json_object_get(j, "cards"));
    if (!sha || strcmp(sha, cs->sha256) != 0)
        return engine_fail(err, ENGINE_EINTERNAL, "cards",
                           "saved sprint state was made with another card "
                           "set");
    GET("v", 1, 1, x);
    GET("seats", 1, SPRINT_MAX_SEATS, s->seats);
    GET("solo", 0, 1, s->solo);
    GET("phase", 0, SPRINT_PHASE_OVER, s->phase);
    GET("over", 0, 1, s->over);
    GET("target", 1, 100000, s->target);
    GET("round", 1, 1000, s->round);
    GET("max_rounds", 1, 1000, s->max_rounds);
    GET("campaign", 0, 1, s->campaign);
    GET("campaign_met", 0, SPRINT_COND_ALL, s->campaign_met);
    GET("reshuffles", 0, 1 << 30, s->reshuffles);
    s->edition = SPRINT_EDITION_NAMED_RIVAL; /* saved before editions */
    if (json_object_get(j, "edition"))
        GET("edition", SPRINT_EDITION_NAMED_RIVAL, SPRINT_EDITION_CURRENT,
            s->edition);
    const json_t *players = json_object_get(j, "players");
    if (ids_load(json_object_get(j, "deck"), s->deck, &s->ndeck,
                 SPRINT_MAX_CARDS) < 0 ||
        ids_load(json_object_get(j, "discard"), s->discard, &s->ndiscard,
                 SPRINT_MAX_CARDS) < 0 ||
        !json_is_array(players) || (int)json_array_size(players) != s->seats)
        return engine_fail(err, ENGINE_EINTERNAL, "deck",
                           "saved sprint state: bad deck, discard or players");
    for (int i = 0; i < s->seats; i++) {
        const json_t *jp = json_array_get(players, i);
        sprint_player *p = &s->p[i];
        const json_t *jl = json_object_get(jp, "last");
        int a = 0, b = 0, c = 0, d = 0;
        if (ids_load(json_object_get(jp, "hand"), p->hand, &p->nhand,
                     SPRINT_MAX_CARDS) < 0 ||
            ids_load(json_object_get(jp, "empire"), p->empire, &p->nempire,
                     SPRINT_MAX_CARDS) < 0 ||
            int_in(jp, "chips", 0, 1 << 30, &a) < 0 ||
            int_in(jp, "survey_used", 0, 1, &b) < 0 ||
            int_in(jp, "rival", -1, SPRINT_MAX_SEATS - 1, &c) < 0 ||
            int_in(jp, "must_discard", 0, SPRINT_MAX_CARDS, &d) < 0 ||
            !json_is_object(jl))
            return engine_fail(err, ENGINE_EINTERNAL, "players",
                               "saved sprint state: bad player %d", i);
        p->chips = a;
        p->survey_used = (uint8_t)b;
        p->rival = (int8_t)c;
        p->must_discard = (uint8_t)d;
        sprint_last *l = &p->last;
        uint8_t nc = 0;
        int v[9];
        static const char *const lk[] = {
            "action",      "survey",          "paid",
            "drew",        "explore_drew",    "explore_discarded",
            "income_drew", "limit_discarded", "vp_scored"};
        for (int k = 0; k < 9; k++)
            if (int_in(jl, lk[k], k == 8 ? -32768 : 0, k == 8 ? 32767 : 255,
                       &v[k]) < 0)
                return engine_fail(err, ENGINE_EINTERNAL, "players",
                                   "saved sprint state: bad last.%s of %d",
                                   lk[k], i);
        if (ids_load(json_object_get(jl, "placed"), l->placed, &l->nplaced, 3) <
                0 ||
            ids_load(json_object_get(jl, "conquered"), l->conquered, &nc, 3) <
                0 ||
            nc != l->nplaced)
            return engine_fail(err, ENGINE_EINTERNAL, "players",
                               "saved sprint state: bad last.placed of %d", i);
        l->action = (uint8_t)v[0];
        l->survey = (uint8_t)v[1];
        l->paid = (uint8_t)v[2];
        l->drew = (uint8_t)v[3];
        l->explore_drew = (uint8_t)v[4];
        l->explore_discarded = (uint8_t)v[5];
        l->income_drew = (uint8_t)v[6];
        l->limit_discarded = (uint8_t)v[7];
        l->vp_scored = (int16_t)v[8];
    }
#undef GET
    char why[160];
    if (sprint_state_check(s, why, sizeof why) < 0)
        return engine_fail(err, ENGINE_EINTERNAL, "", "saved sprint state: %s",
                           why);
    return 0;
}

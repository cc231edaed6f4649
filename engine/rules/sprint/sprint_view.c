/*
 * sprint_view.c - what Galactic Sprint shows: the per-seat and public views,
 * the legal-order shapes with their cheap choices, and the game result.
 *
 * Hidden facts never leave here for the wrong audience: a seat sees its own
 * hand; everyone sees empires, counts, VP chips and what was placed, never
 * another seat's hand, the deck order or which cards paid for anything.
 */
#include "engine/rules/sprint/sprint_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const phase_names[] = {"place", "explore", "limit", "over"};
static const char *const action_names[] = {"none", "develop", "settle", "both",
                                           "explore"};

/* {"id":N,"card":key}, and note the design in `cards`. */
static json_t *card_ref(const sprint_cardset *cs, int inst, json_t *cards)
{
    const sprint_design *d = sprint_design_of(cs, inst);
    if (cards && !json_object_get(cards, d->key))
        json_object_set_new(cards, d->key, sprint_design_json(d));
    return json_pack("{s:i, s:s}", "id", inst, "card", d->key);
}

static json_t *last_view(const sprint_state *s, const sprint_player *p,
                         json_t *cards)
{
    const sprint_cardset *cs = sprint_cards();
    const sprint_last *l = &p->last;
    if (l->action == SPRINT_ACT_NONE)
        return json_null();
    json_t *placed = json_array();
    for (int k = 0; k < l->nplaced; k++) {
        json_t *r = card_ref(cs, l->placed[k], cards);
        json_object_set_new(r, "conquered", json_boolean(l->conquered[k]));
        json_array_append_new(placed, r);
    }
    int round =
        s->phase == SPRINT_PHASE_PLACE && !s->over ? s->round - 1 : s->round;
    return json_pack("{s:i, s:s, s:b, s:o, s:i, s:i, s:i, s:i, s:i, s:i, s:i}",
                     "round", round, "action", action_names[l->action],
                     "survey", l->survey, "placed", placed, "paid", l->paid,
                     "drew", l->drew, "explore_drew", l->explore_drew,
                     "explore_discarded", l->explore_discarded, "income_drew",
                     l->income_drew, "limit_discarded", l->limit_discarded,
                     "vp_scored", l->vp_scored);
}

json_t *sprint_view_json(const sprint_state *s, int seat)
{
    const sprint_cardset *cs = sprint_cards();
    json_t *cards = json_object();
    json_t *players = json_array();
    uint32_t acting = sprint_window_seats(s);
    for (int i = 0; i < s->seats; i++) {
        const sprint_player *p = &s->p[i];
        json_t *emp = json_array();
        for (int k = 0; k < p->nempire; k++)
            json_array_append_new(emp, card_ref(cs, p->empire[k], cards));
        json_t *jp = json_pack(
            "{s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:b, s:b, s:i, s:o, s:o}",
            "seat", i, "hand", p->nhand, "chips", p->chips, "vp",
            sprint_empire_vp(s, i), "income", sprint_empire_income(s, i),
            "military", sprint_empire_military(s, i), "explore",
            sprint_empire_explore(s, i), "survey_available", !p->survey_used,
            "acting", (int)(acting >> i & 1), "must_discard", p->must_discard,
            "empire", emp, "last", last_view(s, p, cards));
        if (s->edition == SPRINT_EDITION_NAMED_RIVAL)
            json_object_set_new(jp, "rival",
                                s->solo ? json_null() : json_integer(p->rival));
        json_array_append_new(players, jp);
    }
    char win[ENGINE_WINDOW_ID_MAX];
    json_t *v = json_pack("{s:i, s:s, s:b, s:i, s:i, s:i, s:s, s:o}", "round",
                          (int)s->round, "phase", phase_names[s->phase],
                          "solitaire", s->solo, "target_vp", s->target, "deck",
                          s->ndeck, "discard", s->ndiscard, "survey_card",
                          cs->designs[cs->survey].key, "players", players);
    json_object_set_new(v, "window",
                        sprint_window_id(s, win, sizeof win) < 0
                            ? json_null()
                            : json_string(win));
    json_object_set_new(v, "max_rounds",
                        s->solo ? json_integer(s->max_rounds) : json_null());
    if (s->solo)
        json_object_set_new(v, "imaginary_military", json_integer(s->round));
    if (s->campaign) {
        json_t *met = json_array();
        for (unsigned b = 1; b <= 8; b <<= 1)
            if (s->campaign_met & b)
                json_array_append_new(met, json_string(sprint_condition_id(b)));
        json_object_set_new(v, "campaign_conditions_met", met);
    }
    if (seat >= 0 && seat < s->seats) {
        const sprint_player *p = &s->p[seat];
        json_t *hand = json_array();
        for (int k = 0; k < p->nhand; k++)
            json_array_append_new(hand, card_ref(cs, p->hand[k], cards));
        json_object_set_new(v, "you", json_integer(seat));
        json_object_set_new(v, "hand", hand);
    } else {
        json_object_set_new(v, "you", json_null());
    }
    if (!json_object_get(cards, cs->designs[cs->survey].key))
        json_object_set_new(cards, cs->designs[cs->survey].key,
                            sprint_design_json(&cs->designs[cs->survey]));
    json_object_set_new(v, "cards", cards);
    return v;
}

/* ------------------------------------------------------------- legal -- */

static const char place_shape[] =
    "{\"type\":\"object\",\"additionalProperties\":false,"
    "\"required\":[\"action\"],\"properties\":{"
    "\"action\":{\"enum\":[\"develop\",\"settle\",\"both\",\"explore\"]},"
    "\"development\":{\"type\":\"integer\",\"description\":\"card id from "
    "your hand (develop, both)\"},"
    "\"survey\":{\"type\":\"boolean\",\"description\":\"place the central "
    "survey card instead of a development (once per game)\"},"
    "\"world\":{\"type\":\"integer\",\"description\":\"card id from your "
    "hand (settle, both)\"},"
    "\"world_mode\":{\"enum\":[\"pay\",\"conquer\"],\"description\":"
    "\"default: conquer for military worlds, pay otherwise\"},"
    "\"convoy_world\":{\"type\":\"integer\",\"description\":\"a second world, "
    "when the first has a convoy\"},"
    "\"convoy_mode\":{\"enum\":[\"pay\",\"conquer\"]},"
    "\"pay\":{\"type\":\"array\",\"uniqueItems\":true,\"items\":{\"type\":"
    "\"integer\"},\"description\":\"card ids discarded face down; exactly "
    "the total cost\"},"
    "\"rival\":{\"type\":\"integer\",\"description\":\"the opponent your "
    "rival-VP cards count (kept until changed; edition 1 only)\"}}}";

json_t *sprint_plan_json(const sprint_plan *p)
{
    json_t *o = json_pack("{s:s}", "action", action_names[p->action]);
    if (p->action == SPRINT_ACT_DEVELOP || p->action == SPRINT_ACT_BOTH) {
        if (p->survey)
            json_object_set_new(o, "survey", json_true());
        else
            json_object_set_new(o, "development", json_integer(p->dev));
    }
    if (p->action == SPRINT_ACT_SETTLE || p->action == SPRINT_ACT_BOTH) {
        json_object_set_new(o, "world", json_integer(p->world));
        json_object_set_new(o, "world_mode",
                            json_string(p->world_mode == SPRINT_MODE_CONQUER
                                            ? "conquer"
                                            : "pay"));
        if (p->convoy != SPRINT_NONE) {
            json_object_set_new(o, "convoy_world", json_integer(p->convoy));
            json_object_set_new(
                o, "convoy_mode",
                json_string(p->convoy_mode == SPRINT_MODE_CONQUER ? "conquer"
                                                                  : "pay"));
        }
    }
    if (p->action != SPRINT_ACT_EXPLORE) {
        json_t *pay = json_array();
        for (int i = 0; i < p->npay; i++)
            json_array_append_new(pay, json_integer(p->pay[i]));
        json_object_set_new(o, "pay", pay);
    }
    if (p->rival >= 0)
        json_object_set_new(o, "rival", json_integer(p->rival));
    return o;
}

#define MAX_CHOICES 2048

json_t *sprint_legal_json(const sprint_state *s, int seat, const char *window)
{
    char id[ENGINE_WINDOW_ID_MAX];
    if (seat < 0 || seat >= s->seats || sprint_window_id(s, id, sizeof id) ||
        !window || strcmp(id, window) != 0 ||
        !(sprint_window_seats(s) >> seat & 1))
        return NULL;
    const sprint_player *p = &s->p[seat];
    if (s->phase == SPRINT_PHASE_PLACE) {
        int costs[MAX_CHOICES];
        sprint_plan *buf = malloc(sizeof(sprint_plan) * MAX_CHOICES);
        if (!buf)
            return NULL;
        int n = sprint_enumerate(s, seat, buf, costs, MAX_CHOICES);
        json_t *choices = json_array();
        for (int i = 0; i < n; i++) {
            json_t *c = sprint_plan_json(&buf[i]);
            json_object_del(c, "pay");
            json_object_set_new(c, "cost", json_integer(costs[i]));
            json_array_append_new(choices, c);
        }
        free(buf);
        json_t *shape = json_loads(place_shape, 0, NULL);
        if (s->edition != SPRINT_EDITION_NAMED_RIVAL) /* no rival to name */
            json_object_del(json_object_get(shape, "properties"), "rival");
        return json_pack("{s:s, s:o, s:o}", "kind", "order", "shape", shape,
                         "choices", choices);
    }
    json_t *ids = json_array();
    for (int k = 0; k < p->nhand; k++)
        json_array_append_new(ids, json_integer(p->hand[k]));
    json_t *shape = json_pack(
        "{s:s, s:b, s:[s], s:{s:{s:s, s:b, s:i, s:i, s:{s:o}}}}", "type",
        "object", "additionalProperties", 0, "required", "discard",
        "properties", "discard", "type", "array", "uniqueItems", 1, "minItems",
        p->must_discard, "maxItems", p->must_discard, "items", "enum", ids);
    return json_pack("{s:s, s:o, s:[{s:i}]}", "kind", "order", "shape", shape,
                     "choices", "discard_count", p->must_discard);
}

/* ------------------------------------------------------------ result -- */

json_t *sprint_result_json(const sprint_state *s)
{
    if (!s->over)
        return NULL;
    json_t *scores = json_array(), *tb = json_array(), *vps = json_array();
    int best = -1, besttb = -1;
    for (int i = 0; i < s->seats; i++) {
        int t = s->p[i].nhand + sprint_empire_income(s, i);
        json_array_append_new(scores, json_integer(s->p[i].chips));
        json_array_append_new(tb, json_integer(t));
        json_array_append_new(vps, json_integer(sprint_empire_vp(s, i)));
        if (s->p[i].chips > best || (s->p[i].chips == best && t > besttb)) {
            best = s->p[i].chips;
            besttb = t;
        }
    }
    json_t *winners = json_array();
    json_t *r =
        json_pack("{s:i, s:b, s:i, s:o, s:o, s:o}", "rounds", (int)s->round,
                  "solitaire", s->solo, "target_vp", s->target, "scores",
                  scores, "tiebreak", tb, "vp", vps);
    if (!s->solo) {
        for (int i = 0; i < s->seats; i++)
            if (s->p[i].chips == best &&
                s->p[i].nhand + sprint_empire_income(s, i) == besttb)
                json_array_append_new(winners, json_integer(i));
        json_object_set_new(r, "winners", winners);
        return r;
    }
    sprint_final_stats st;
    sprint_final_stats_of(s, 0, &st);
    unsigned met = sprint_campaign_evaluate(&st);
    json_t *jmet = json_array(), *jnew = json_array();
    for (unsigned b = 1; b <= 8; b <<= 1) {
        if (met & b)
            json_array_append_new(jmet, json_string(sprint_condition_id(b)));
        if ((met & b) && !(s->campaign_met & b))
            json_array_append_new(jnew, json_string(sprint_condition_id(b)));
    }
    int won = s->campaign ? json_array_size(jnew) > 0 : st.chips >= s->target;
    if (won)
        json_array_append_new(winners, json_integer(0));
    json_object_set_new(r, "winners", winners);
    json_object_set_new(r, "won", json_boolean(won));
    json_object_set_new(r, "final",
                        json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i}",
                                  "rounds", st.rounds, "chips", st.chips,
                                  "income", st.income, "military", st.military,
                                  "military_worlds", st.military_worlds,
                                  "colours", st.colours, "developments",
                                  st.developments, "worlds", st.worlds));
    json_object_set_new(r, "conditions_met", jmet);
    json_object_set_new(r, "campaign", json_boolean(s->campaign));
    if (s->campaign)
        json_object_set_new(r, "new_conditions", jnew);
    else
        json_decref(jnew);
    return r;
}

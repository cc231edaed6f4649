/*
 * council_council_view.c - the council phase's part of a Galactic Council
 * view (cnc_council_json): public to every audience. Representatives sent
 * and votes being prepared are never in it (they are held orders until
 * their window resolves); the representatives seated after the spies are,
 * from the lobby's end to the vote; the last council's result is,
 * without each seat's vote and weight, and without the totals, when votes
 * are secret.
 */
#include "engine/rules/council/council_internal.h"

json_t *cnc_agenda_json(int a)
{
    const cnc_agenda *g = &cnc_data_get()->agendas[a];
    return json_pack("{s:s, s:s, s:s, s:b, s:s}", "key", g->key, "name",
                     g->name, "kind",
                     g->kind == CNC_AGENDA_LAW ? "law" : "election", "lasting",
                     (int)g->lasting, "text", g->text);
}

/* Each seat's representative in r: role, name, spy's target, fate and
 * what its spy did (null: not a spy, or it did not act). */
static json_t *reps_json(const cnc_state *s, const cnc_council_result *r)
{
    static const char *const roles[] = {"spy", "bodyguard", "councillor",
                                        "clerk"};
    static const char *const fates[] = {"seated", "killed", "struck_down"};
    static const char *const deeds[] = {
        "",          "killed",   "immune", "struck_down", "blackmailed",
        "sabotaged", "no_effect"};
    const cnc_data *d = cnc_data_get();
    json_t *reps = json_array();
    for (int p = 0; p < s->seats; p++) {
        int k = (int)r->sent[p];
        json_array_append_new(
            reps,
            json_pack(
                "{s:i, s:s, s:s, s:o, s:s, s:o}", "seat", p, "role", roles[k],
                "name",
                k < CNC_REP_COUNT ? d->races[s->p[p].race].reps[k].name
                                  : "Clerk",
                "target",
                r->target[p] >= 0 ? json_integer(r->target[p]) : json_null(),
                "fate", fates[r->fate[p]], "spy_result",
                r->deed[p] ? json_string(deeds[r->deed[p]]) : json_null()));
    }
    return reps;
}

static json_t *last_json(const cnc_state *s)
{
    const cnc_council_result *r = &s->c.last;
    const cnc_data *d = cnc_data_get();
    if (r->round == 0)
        return json_null();
    json_t *reps = reps_json(s, r), *totals = json_array();
    for (int p = 0; p < s->seats; p++) {
        json_t *o = json_array_get(reps, (size_t)p);
        if (!s->c.secret_votes) {
            json_object_set_new(o, "vote",
                                r->vote[p] >= 0 ? json_integer(r->vote[p])
                                                : json_null());
            json_object_set_new(o, "weight", json_integer(r->weight[p]));
        }
    }
    int election =
        r->agenda >= 0 && d->agendas[r->agenda].kind == CNC_AGENDA_ELECTION;
    for (int k = 0; r->outcome > -2 && k < (election ? s->seats : 2); k++)
        json_array_append_new(totals, json_integer(r->totals[k]));
    json_t *o =
        json_pack("{s:i, s:o, s:i, s:o}", "round", r->round, "agenda",
                  r->agenda >= 0 ? cnc_agenda_json(r->agenda) : json_null(),
                  "outcome", r->outcome, "representatives", reps);
    /* Secret votes: no totals (with the public weights they give away
     * each seat's vote), the outcome alone. */
    if (s->c.secret_votes)
        json_decref(totals);
    else
        json_object_set_new(o, "totals", totals);
    return o;
}

json_t *cnc_council_json(const cnc_state *s)
{
    static const char *const modes[] = {"every_round", "after_status", "off"};
    const cnc_data *d = cnc_data_get();
    json_t *laws = json_array(), *costs = json_array();
    for (int a = 0; a < d->nagendas; a++)
        if (s->c.laws[a])
            json_array_append_new(laws, cnc_agenda_json(a));
    for (int n = 1; n <= CNC_MAX_MARKER_BUY; n++)
        json_array_append_new(costs, json_integer(cnc_marker_cost(n)));
    /* This council's representatives once the spies acted (the lobby
     * resolved), until the vote: public, so players vote knowing them. */
    json_t *seated = s->c.seated.round == s->round && s->c.speaker >= 0
                         ? reps_json(s, &s->c.seated)
                         : json_null();
    return json_pack(
        "{s:o, s:s, s:b, s:o, s:o, s:b, s:o, s:o, s:i, s:o}", "seated", seated,
        "mode", modes[s->c.mode], "secret_votes", (int)s->c.secret_votes,
        "speaker", s->c.speaker >= 0 ? json_integer(s->c.speaker) : json_null(),
        "agenda", s->c.agenda >= 0 ? cnc_agenda_json(s->c.agenda) : json_null(),
        "tabled", (int)s->c.tabled, "laws", laws, "marker_costs", costs,
        "objective_value", cnc_objective_value(s->round), "last", last_json(s));
}

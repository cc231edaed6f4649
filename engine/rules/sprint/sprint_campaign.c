/*
 * sprint_campaign.c - the solitaire campaign of Galactic Sprint: the four
 * victory conditions (ours) and the pure functions that evaluate a finished
 * solitaire game and advance a campaign's progress JSON.
 *
 * Conditions (each also needs the game to be a finished solitaire game):
 *   magnate     65 or more VP chips after the 7 rounds
 *   warlord     4 or more military worlds and 45 or more VP chips
 *   tycoon      income 9 or more and 45 or more VP chips
 *   pathfinder  worlds of all four colours (azure, jade, amber, violet)
 *               and 45 or more VP chips
 * The numbers are kept in docs/games/sprint.md; change both together.
 */
#include "engine/rules/sprint/sprint_internal.h"

#include <string.h>

#define MAGNATE_CHIPS 65
#define SIDE_CHIPS 45
#define WARLORD_WORLDS 4
#define TYCOON_INCOME 9

static const char *const cond_ids[SPRINT_NCONDS] = {"magnate", "warlord",
                                                    "tycoon", "pathfinder"};

unsigned sprint_condition_bit(const char *id)
{
    for (int i = 0; i < SPRINT_NCONDS; i++)
        if (id && strcmp(id, cond_ids[i]) == 0)
            return 1u << i;
    return 0;
}

const char *sprint_condition_id(unsigned bit)
{
    for (int i = 0; i < SPRINT_NCONDS; i++)
        if (bit == 1u << i)
            return cond_ids[i];
    return NULL;
}

unsigned sprint_campaign_evaluate(const sprint_final_stats *st)
{
    unsigned met = 0;
    int four = (1 << SPRINT_AZURE) | (1 << SPRINT_JADE) | (1 << SPRINT_AMBER) |
               (1 << SPRINT_VIOLET);
    if (st->chips >= MAGNATE_CHIPS)
        met |= SPRINT_COND_MAGNATE;
    if (st->chips >= SIDE_CHIPS) {
        if (st->military_worlds >= WARLORD_WORLDS)
            met |= SPRINT_COND_WARLORD;
        if (st->income >= TYCOON_INCOME)
            met |= SPRINT_COND_TYCOON;
        if ((st->colours & four) == four)
            met |= SPRINT_COND_PATHFINDER;
    }
    return met;
}

int sprint_final_stats_from_result(const json_t *result,
                                   sprint_final_stats *out, engine_error *err)
{
    memset(out, 0, sizeof *out);
    if (!json_is_object(result) ||
        !json_is_true(json_object_get(result, "solitaire")))
        return engine_fail(err, ENGINE_EINVALID, "result",
                           "result must be a finished solitaire game's result");
    const json_t *f = json_object_get(result, "final");
    static const char *const keys[] = {
        "rounds",          "chips",   "income",       "military",
        "military_worlds", "colours", "developments", "worlds"};
    int *slots[] = {&out->rounds,       &out->chips,           &out->income,
                    &out->military,     &out->military_worlds, &out->colours,
                    &out->developments, &out->worlds};
    for (int i = 0; i < 8; i++) {
        const json_t *v = json_object_get(f, keys[i]);
        if (!json_is_integer(v) || json_integer_value(v) < 0 ||
            json_integer_value(v) > 1000000)
            return engine_fail(err, ENGINE_EINVALID, "final",
                               "result.final.%s must be a non-negative "
                               "integer",
                               keys[i]);
        *slots[i] = (int)json_integer_value(v);
    }
    return 0;
}

static int ids_mask(const json_t *a, unsigned *mask, const char *field,
                    engine_error *err)
{
    *mask = 0;
    if (!json_is_array(a))
        return engine_fail(err, ENGINE_EINVALID, field,
                           "%s must be an array of condition ids", field);
    for (size_t i = 0; i < json_array_size(a); i++) {
        unsigned b =
            sprint_condition_bit(json_string_value(json_array_get(a, i)));
        if (!b || (*mask & b))
            return engine_fail(err, ENGINE_EINVALID, field,
                               "%s[%zu] must be a distinct condition id "
                               "(magnate, warlord, tycoon, pathfinder)",
                               field, i);
        *mask |= b;
    }
    return 0;
}

static json_t *mask_ids(unsigned mask)
{
    json_t *a = json_array();
    for (int i = 0; i < SPRINT_NCONDS; i++)
        if (mask & (1u << i))
            json_array_append_new(a, json_string(cond_ids[i]));
    return a;
}

int sprint_campaign_advance(const json_t *progress, const json_t *result,
                            const char *choose, json_t **next,
                            engine_error *err)
{
    unsigned met = 0;
    *next = NULL;
    if (progress) {
        if (!json_is_object(progress))
            return engine_fail(err, ENGINE_EINVALID, "progress",
                               "progress must be an object");
        const char *k;
        const json_t *v;
        json_object_foreach((json_t *)progress, k, v)
        {
            if (strcmp(k, "games") != 0 && strcmp(k, "met") != 0 &&
                strcmp(k, "status") != 0)
                return engine_fail(err, ENGINE_EINVALID, k,
                                   "unknown field \"%s\" in progress", k);
        }
        const char *status =
            json_string_value(json_object_get(progress, "status"));
        if (!status ||
            (strcmp(status, "active") != 0 && strcmp(status, "won") != 0 &&
             strcmp(status, "lost") != 0))
            return engine_fail(err, ENGINE_EINVALID, "status",
                               "status must be active, won or lost");
        if (strcmp(status, "active") != 0)
            return engine_fail(err, ENGINE_EINVALID, "status",
                               "the campaign is already %s", status);
        if (!json_is_array(json_object_get(progress, "games")))
            return engine_fail(err, ENGINE_EINVALID, "games",
                               "games must be an array");
        int rc = ids_mask(json_object_get(progress, "met"), &met, "met", err);
        if (rc)
            return rc;
        if (json_array_size(json_object_get(progress, "games")) !=
            (size_t)__builtin_popcount(met))
            return engine_fail(err, ENGINE_EINVALID, "games",
                               "an active campaign has one game per condition "
                               "met");
    }
    sprint_final_stats st;
    int rc = sprint_final_stats_from_result(result, &st, err);
    if (rc)
        return rc;
    unsigned game = sprint_campaign_evaluate(&st);
    unsigned fresh = game & ~met;
    unsigned pick = 0;
    if (choose) {
        pick = sprint_condition_bit(choose);
        if (!pick || !(fresh & pick))
            return engine_fail(err, ENGINE_EINVALID, "choose",
                               "choose: %s is not a condition this game newly "
                               "met",
                               choose);
    } else if (fresh) {
        pick = fresh & (~fresh + 1); /* lowest bit: the canonical order */
    }
    json_t *games = progress
                        ? json_deep_copy(json_object_get(progress, "games"))
                        : json_array();
    json_array_append_new(
        games,
        json_pack("{s:o, s:o, s:i}", "conditions_met", mask_ids(game),
                  "checked",
                  pick ? json_string(sprint_condition_id(pick)) : json_null(),
                  "chips", st.chips));
    met |= pick;
    const char *status = !pick                    ? "lost"
                         : met == SPRINT_COND_ALL ? "won"
                                                  : "active";
    *next = json_pack("{s:o, s:o, s:s}", "games", games, "met", mask_ids(met),
                      "status", status);
    return 0;
}

/* Same set of condition ids? (Both are short arrays of strings.) */
static int same_ids(const json_t *a, const json_t *b)
{
    if (!json_is_array(a) || !json_is_array(b) ||
        json_array_size(a) != json_array_size(b))
        return 0;
    for (size_t i = 0; i < json_array_size(a); i++) {
        int found = 0;
        for (size_t k = 0; k < json_array_size(b) && !found; k++)
            found = json_equal(json_array_get(a, i), json_array_get(b, k));
        if (!found)
            return 0;
    }
    return 1;
}

/* progress with "choice" when its last game newly met several conditions:
 * the one checked off by default (the first, in the canonical order) may be
 * exchanged for another by sprint_campaign_choose. Takes progress. */
static json_t *with_choice(json_t *progress)
{
    json_t *games = json_object_get(progress, "games");
    const json_t *last = json_array_get(games, json_array_size(games) - 1);
    unsigned game = 0, met = 0;
    engine_error ignored = {0};
    if (!progress || !last ||
        ids_mask(json_object_get(last, "conditions_met"), &game, "",
                 &ignored) ||
        ids_mask(json_object_get(progress, "met"), &met, "", &ignored))
        return progress;
    unsigned checked = sprint_condition_bit(
        json_string_value(json_object_get(last, "checked")));
    unsigned fresh = game & ~(met & ~checked); /* new to this game */
    if (checked && __builtin_popcount(fresh) >= 2)
        json_object_set_new(progress, "choice", mask_ids(fresh));
    return progress;
}

/* progress with "next_options" for the next campaign game. NEW. */
static json_t *with_next_options(json_t *progress)
{
    const char *st = json_string_value(json_object_get(progress, "status"));
    int active = st && strcmp(st, "active") == 0;
    json_object_set_new(
        progress, "next_options",
        json_pack("{so}", "campaign_conditions_met",
                  active ? json_deep_copy(json_object_get(progress, "met"))
                         : json_array()));
    return progress;
}

json_t *sprint_campaign_record(const json_t *old, const json_t *options,
                               int seats, int seat, const json_t *result)
{
    if (!result)
        return with_next_options(
            json_pack("{s[] s[] ss}", "games", "met", "status", "none"));
    const json_t *opt = json_object_get(options, "campaign_conditions_met");
    if (seats != 1 || seat != 0 || !json_is_array(opt))
        return NULL;
    const char *status = json_string_value(json_object_get(old, "status"));
    int starts = json_array_size(opt) == 0;
    int continues = status && strcmp(status, "active") == 0 &&
                    same_ids(opt, json_object_get(old, "met"));
    if (!starts && !continues)
        return NULL;
    json_t *progress = NULL;
    if (!starts) { /* the stored record without what is derived from it */
        progress = json_deep_copy(old);
        json_object_del(progress, "next_options");
        json_object_del(progress, "choice"); /* a choice not made stands */
    }
    json_t *next = NULL;
    engine_error err = {0};
    int rc = sprint_campaign_advance(progress, result, NULL, &next, &err);
    json_decref(progress);
    return rc == 0 ? with_choice(with_next_options(next)) : NULL;
}

int sprint_campaign_choose(const json_t *record, const json_t *choice,
                           json_t **next, engine_error *err)
{
    *next = NULL;
    const json_t *from = json_object_get(record, "choice");
    json_t *games = json_object_get(record, "games");
    json_t *last = json_array_get(games, json_array_size(games) - 1);
    unsigned offered = 0, met = 0;
    if (!json_is_array(from) || !last ||
        ids_mask(from, &offered, "choice", err) != 0 ||
        ids_mask(json_object_get(record, "met"), &met, "met", err) != 0)
        return engine_fail(err, ENGINE_ECONFLICT, "",
                           "no campaign game is waiting for a choice");
    const char *id = json_string_value(json_object_get(choice, "condition"));
    unsigned pick = sprint_condition_bit(id);
    if (!json_is_object(choice) || !pick || !(offered & pick))
        return engine_fail(err, ENGINE_EINVALID, "condition",
                           "condition: pick one of the conditions the last "
                           "game newly met");
    unsigned was = sprint_condition_bit(
        json_string_value(json_object_get(last, "checked")));
    json_t *out = json_deep_copy(record);
    json_t *out_games = json_object_get(out, "games");
    json_object_set_new(
        json_array_get(out_games, json_array_size(out_games) - 1), "checked",
        json_string(id));
    json_object_set_new(out, "met", mask_ids((met & ~was) | pick));
    json_object_del(out, "choice");
    json_object_del(out, "next_options");
    *next = with_next_options(out);
    return 0;
}

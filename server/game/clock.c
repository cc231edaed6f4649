/*
 * clock.c - the rules of asynchronous clocks (see clock.h).
 */
#include "server/game/clock.h"

#include <stdlib.h>
#include <string.h>

/* An optional integer member name of obj in lo..hi into *out. */
static srv_kind int_member(const json_t *obj, const char *name,
                           const char *prefix, long long lo, long long hi,
                           json_t *out, srv_error *err)
{
    const json_t *v = json_object_get(obj, name);
    if (!v || json_is_null(v))
        return SRV_OK;
    if (!json_is_integer(v) || json_integer_value(v) < lo ||
        json_integer_value(v) > hi) {
        char field[64];
        snprintf(field, sizeof field, "%s%s", prefix, name);
        return srv_fail(err, SRV_INVALID, field,
                        "%s must be an integer from %lld to %lld", field, lo,
                        hi);
    }
    json_object_set_new(out, name, json_integer(json_integer_value(v)));
    return SRV_OK;
}

/* Members of obj other than the names in allowed (NULL-ended): refused. */
static srv_kind only(const json_t *obj, const char *const *allowed,
                     const char *prefix, srv_error *err)
{
    const char *key;
    const json_t *v;
    json_object_foreach((json_t *)obj, key, v)
    {
        int ok = 0;
        for (int i = 0; allowed[i]; i++)
            ok |= strcmp(key, allowed[i]) == 0;
        if (!ok)
            return srv_fail(err, SRV_INVALID, prefix,
                            "%s has no member \"%.40s\"", prefix, key);
    }
    return SRV_OK;
}

/* An optional object member name of clock, checked by its allowed members
 * and integer ranges; added to out when present. */
static srv_kind sub_object(const json_t *clock, const char *name,
                           const char *const *members, const long long *lo,
                           const long long *hi, int all_required, json_t *out,
                           srv_error *err)
{
    const json_t *o = json_object_get(clock, name);
    if (!o || json_is_null(o))
        return SRV_OK;
    char prefix[64];
    snprintf(prefix, sizeof prefix, "clock.%s", name);
    if (!json_is_object(o))
        return srv_fail(err, SRV_INVALID, prefix, "%s must be an object",
                        prefix);
    srv_kind k = only(o, members, prefix, err);
    json_t *n = json_object();
    strcat(prefix, ".");
    for (int i = 0; k == SRV_OK && members[i]; i++) {
        k = int_member(o, members[i], prefix, lo[i], hi[i], n, err);
        if (k == SRV_OK && all_required && !json_object_get(n, members[i])) {
            char field[80];
            snprintf(field, sizeof field, "%s%s", prefix, members[i]);
            k = srv_fail(err, SRV_INVALID, field, "%s is required", field);
        }
    }
    if (k == SRV_OK && json_object_size(n))
        json_object_set(out, name, n);
    json_decref(n);
    return k;
}

srv_kind clock_rules_check(const json_t *clock, const char *mode, long long lo,
                           long long hi, json_t **out, srv_error *err)
{
    static const char *const top[] = {
        "mode",     "seconds",       "windows",        "night",
        "vacation", "replace_after", "min_reputation", NULL};
    static const char *const win[] = {"orders", "plays", NULL};
    static const char *const night[] = {"start", "end", "utc_offset", NULL};
    static const char *const rep[] = {"max_median_seconds", "max_missed", NULL};
    static const long long night_lo[] = {0, 0, -720},
                           night_hi[] = {1439, 1439, 840}, rep_lo[] = {0, 0},
                           rep_hi[] = {1209600, 1000000};
    const long long win_lo[] = {lo, lo}, win_hi[] = {hi, hi};
    *out = json_object();
    if (!clock || !json_is_object(clock))
        return SRV_OK;
    srv_kind k = only(clock, top, "clock", err);
    if (k == SRV_OK)
        k = sub_object(clock, "windows", win, win_lo, win_hi, 0, *out, err);
    if (k == SRV_OK)
        k = sub_object(clock, "night", night, night_lo, night_hi, 1, *out, err);
    if (k == SRV_OK)
        k = sub_object(clock, "min_reputation", rep, rep_lo, rep_hi, 0, *out,
                       err);
    if (k == SRV_OK)
        k = int_member(clock, "replace_after", "clock.", 0, 100, *out, err);
    const json_t *vac = json_object_get(clock, "vacation");
    if (k == SRV_OK && vac && !json_is_null(vac)) {
        const char *v = json_string_value(vac);
        if (!v || (strcmp(v, "extend") != 0 && strcmp(v, "bot") != 0))
            k = srv_fail(err, SRV_INVALID, "clock.vacation",
                         "clock.vacation must be \"extend\" or \"bot\"");
        else
            json_object_set_new(*out, "vacation", json_string(v));
    }
    if (k == SRV_OK && json_object_size(*out) && strcmp(mode, "async") != 0)
        k = srv_fail(err, SRV_INVALID, "clock.mode",
                     "windows, night, vacation, replace_after and "
                     "min_reputation need clock.mode \"async\"");
    if (k != SRV_OK) {
        json_decref(*out);
        *out = NULL;
    }
    return k;
}

int clock_window_seconds(const store_game *meta, const engine_window *w)
{
    const json_t *wins = json_object_get(meta->clock_rules, "windows");
    const json_t *v =
        json_object_get(wins, w->mode == ENGINE_SEALED ? "orders" : "plays");
    return json_is_integer(v) && json_integer_value(v) > 0
               ? (int)json_integer_value(v)
               : meta->clock_seconds;
}

uint32_t clock_window_waits(const engine_window *w)
{
    if (w->mode == ENGINE_OPEN)
        return w->seats;
    return w->seats & ~(w->ready_part ? w->ready : w->submitted);
}

char *clock_waiting_text(const engine_window *w, int n)
{
    json_t *arr = json_array();
    for (int i = 0; arr && i < n; i++) {
        uint32_t m = clock_window_waits(&w[i]);
        for (int s = 0; s < ENGINE_MAX_SEATS; s++)
            if (m >> s & 1)
                json_array_append_new(
                    arr, json_pack("{ss si}", "w", w[i].id, "s", s));
    }
    char *t = arr ? json_dumps(arr, JSON_COMPACT) : NULL;
    json_decref(arr);
    return t;
}

int clock_rule_int(const store_game *meta, const char *name)
{
    const json_t *v = json_object_get(meta->clock_rules, name);
    return json_is_integer(v) ? (int)json_integer_value(v) : 0;
}

/*
 * council_orders_text.c - what Galactic Council orders mean: the English
 * sentence of an order (for the order composer and the log), the planets a
 * trigger or blind landing picks at resolution, and condition evaluation.
 */
#include "engine/rules/council/council_orders.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* A growing sentence in a fixed buffer; overflow is remembered. */
typedef struct sbuf {
    char *p;
    size_t n, len;
    int over;
} sbuf;

static __attribute__((format(printf, 2, 3))) void put(sbuf *b, const char *fmt,
                                                      ...)
{
    if (b->over)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(b->p + b->len, b->n - b->len, fmt, ap);
    va_end(ap);
    if (k < 0 || (size_t)k >= b->n - b->len) {
        b->over = 1;
        b->len = b->n - 1;
    } else {
        b->len += (size_t)k;
    }
}

static void put_hex(sbuf *b, cnc_hex h)
{
    put(b, "(%d, %d)", h.q, h.r);
}

static void put_units(sbuf *b, const cnc_data *d, const uint8_t *units)
{
    int total = 0, done = 0;
    for (int u = 0; u < d->nunits; u++)
        total += units[u] != 0;
    for (int u = 0; u < d->nunits; u++) {
        if (!units[u])
            continue;
        done++;
        put(b, "%s%d %s%s",
            done == 1       ? ""
            : done == total ? " and "
                            : ", ",
            units[u], d->units[u].key, units[u] > 1 ? "s" : "");
    }
}

static const char *planet_name(const cnc_data *d, const char *key)
{
    const cnc_planet *p = cnc_planet_find(d, key);
    return p ? p->name : key;
}

/* "every planet", "the planet with the highest influence", "Cendra". */
static void put_planets(sbuf *b, const cnc_data *d, const cnc_planet_sel *s)
{
    switch (s->how) {
    case CNC_PL_ALL:
        put(b, "every planet");
        break;
    case CNC_PL_HIGHEST_INFLUENCE:
        put(b, "the planet with the highest influence");
        break;
    case CNC_PL_HIGHEST_RESOURCES:
        put(b, "the planet with the most resources");
        break;
    case CNC_PL_KEY:
        put(b, "%s", planet_name(d, s->key));
        break;
    default:
        put(b, "the system");
    }
}

static void put_cond(sbuf *b, const cnc_data *d, const cnc_cond *c)
{
    static const char *const holds[] = {"planets", "an anomaly", "a marker",
                                        "enemy troopers"};
    const char *neg = c->negate ? " not" : "";
    switch (c->type) {
    case CNC_COND_HOLDS:
        put(b, "the sector does%s hold %s", c->negate ? " not" : "",
            holds[c->what]);
        break;
    case CNC_COND_MARKER_IS:
        if (c->has_planet) {
            put(b, "the marker on ");
            put_planets(b, d, &c->planet);
            put(b, " is%s ", neg);
        } else {
            put(b, "it is%s ", neg);
        }
        put(b, "%s",
            c->is == CNC_IS_HOSTILE    ? "hostile"
            : c->is == CNC_IS_FRIENDLY ? "friendly"
                                       : d->markers[c->kind].name);
        break;
    case CNC_COND_ENEMY_SHIPS:
        put(b, "enemy ships are%s present", neg);
        break;
    case CNC_COND_FLEET_SURVIVED:
        put(b, "my fleet did%s survive", neg);
        break;
    default:
        if (c->has_planet)
            put_planets(b, d, &c->planet);
        else
            put(b, "the planet with the highest influence");
        put(b, " has%s influence %d or more", c->negate ? " not" : "", c->n);
    }
    if (c->has_sector) {
        put(b, " at ");
        put_hex(b, c->sector);
    }
}

static void put_list(sbuf *b, const cnc_data *d, const cnc_order *o, int i);

static void put_marker_place(sbuf *b, const cnc_data *d, const cnc_step *s,
                             const char *none)
{
    if (s->planet.how != CNC_PL_SYSTEM) {
        put(b, "the marker on ");
        put_planets(b, d, &s->planet);
    } else {
        put(b, "%s",
            s->has_planet || s->has_sector ? "the system's marker" : none);
    }
}

/* The steps added after "if"; returns 1 when " at <sector>" may follow. */
static int put_more(sbuf *b, const cnc_data *d, const cnc_step *s)
{
    switch (s->type) {
    case CNC_STEP_DISCARD:
        put(b, "discard ");
        put_marker_place(b, d, s, "the marker it inspected last");
        return 1;
    case CNC_STEP_TOKENS:
        put(b,
            "at the status phase keep %d tactic, %d fleet and %d strategy "
            "tokens",
            s->pools[0], s->pools[1], s->pools[2]);
        return 0;
    case CNC_STEP_COMBAT_RETREAT:
        put(b, "if a space combat at ");
        put_hex(b, s->sector);
        put(b, " lasts %d round%s, retreat to ", s->after,
            s->after > 1 ? "s" : "");
        put_hex(b, s->to);
        return 0;
    case CNC_STEP_PLAY:
        put(b, "play %s", d->actions[s->action].name);
        if (s->has_planet) {
            put(b, " on ");
            put_marker_place(b, d, s, "");
        }
        return 1;
    case CNC_STEP_FOLLOW:
        put(b, "follow %s", d->strategies[s->card].name);
        for (int i = 0; i < s->ntargets; i++) {
            put(b, i ? ", " : " on ");
            put_hex(b, s->targets[i]);
        }
        return 0;
    case CNC_STEP_SHARE:
        put(b, "%s vision with seat %d",
            s->on ? "offer to share" : "stop sharing", s->other);
        return 0;
    case CNC_STEP_SCORE:
        put(b, "at the status phase score");
        for (int k = 0; k < 2; k++) {
            const int8_t *l = k ? s->score_secret : s->score_public;
            if (!(s->score_has >> k & 1))
                continue;
            put(b, k && (s->score_has & 1) ? " and" : "");
            if (l[0] < 0)
                put(b, " no %s objective", k ? "secret" : "public");
            for (int i = 0; i < CNC_SCORE_PREFS && l[i] >= 0; i++)
                put(b, "%s%s",
                    i ? (i + 1 < CNC_SCORE_PREFS && l[i + 1] >= 0 ? ", "
                                                                  : " or ")
                      : (l[1] >= 0 ? " the first met of " : " "),
                    d->objectives[l[i]].name);
        }
        return 0;
    default:
        put(b, "use racial lore on ");
        put_marker_place(b, d, s, "");
        return 1;
    }
}

static void put_step(sbuf *b, const cnc_data *d, const cnc_order *o,
                     const cnc_step *s)
{
    switch (s->type) {
    case CNC_STEP_ACTIVATE:
        put(b, "activate ");
        put_hex(b, s->sector);
        break;
    case CNC_STEP_MOVE:
        put(b, "move ");
        put_units(b, d, s->units);
        put(b, " from ");
        put_hex(b, s->sector);
        put(b, " to ");
        put_hex(b, s->to);
        break;
    case CNC_STEP_LAND:
        if (s->troops == CNC_TROOPS_ALL)
            put(b, "land all troopers on ");
        else
            put(b, "land %d trooper%s on ", s->troops,
                s->troops > 1 ? "s" : "");
        put_planets(b, d, &s->planet);
        break;
    case CNC_STEP_PRODUCE:
        put(b, "produce ");
        put_units(b, d, s->units);
        put(b, " at ");
        put_hex(b, s->sector);
        break;
    case CNC_STEP_STRATEGY:
        put(b, "use %s", d->strategies[s->card].name);
        if (d->strategies[s->card].noptions > 1)
            put(b, " (%s)", d->strategies[s->card].options[s->option]);
        for (int i = 0; i < s->ntargets; i++) {
            put(b, i ? ", " : " on ");
            put_hex(b, s->targets[i]);
        }
        break;
    case CNC_STEP_INSPECT:
        if (s->planet.how == CNC_PL_SYSTEM) {
            put(b, "inspect the marker there");
        } else {
            put(b, "inspect the marker on ");
            put_planets(b, d, &s->planet);
        }
        break;
    case CNC_STEP_RETREAT:
        put(b, "retreat to ");
        put_hex(b, s->to);
        break;
    case CNC_STEP_HOLD:
        put(b, "hold position");
        break;
    case CNC_STEP_EXPLORE:
        put(b, "pay to explore ");
        put_hex(b, s->sector);
        return;
    case CNC_STEP_SCAN:
        if (s->planet.how == CNC_PL_SYSTEM) {
            put(b, "scan ");
            put_hex(b, s->sector);
        } else {
            put(b, "scan the marker on ");
            put_planets(b, d, &s->planet);
            put(b, " at ");
            put_hex(b, s->sector);
        }
        return;
    case CNC_STEP_IF:
        put(b, "if ");
        put_cond(b, d, &s->cond);
        put(b, " then ");
        put_list(b, d, o, s->then_first);
        if (s->else_first >= 0) {
            put(b, ", otherwise ");
            put_list(b, d, o, s->else_first);
        }
        return;
    default:
        if (!put_more(b, d, s))
            return;
    }
    if (s->has_sector && s->type != CNC_STEP_ACTIVATE &&
        s->type != CNC_STEP_MOVE && s->type != CNC_STEP_PRODUCE) {
        put(b, " at ");
        put_hex(b, s->sector);
    }
}

static void put_list(sbuf *b, const cnc_data *d, const cnc_order *o, int i)
{
    for (int first = 1; i >= 0; i = o->steps[i].next, first = 0) {
        if (!first)
            put(b, o->steps[i].type == CNC_STEP_IF ? "; " : " and then ");
        put_step(b, d, o, &o->steps[i]);
    }
}

int cnc_order_sentence(const cnc_data *d, const cnc_order *o, char *buf,
                       size_t n)
{
    sbuf b = {buf, n, 0, 0};
    if (n == 0)
        return -1;
    buf[0] = 0;
    put_list(&b, d, o, o->first);
    put(&b, ".");
    buf[0] = (char)toupper((unsigned char)buf[0]);
    return b.over ? -1 : (int)b.len;
}

int cnc_select_planets(const cnc_data *d, const cnc_galaxy *g, int s,
                       const cnc_planet_sel *sel, int out[CNC_MAX_PLANETS])
{
    const cnc_system *t = cnc_sector_tile(d, g, s);
    int n = 0, best = -1;
    for (int p = 0; p < t->nplanets; p++) {
        const cnc_planet *pl = &t->planets[p];
        switch (sel->how) {
        case CNC_PL_ALL:
            out[n++] = p;
            break;
        case CNC_PL_KEY:
            if (strcmp(pl->key, sel->key) == 0)
                out[n++] = p;
            break;
        case CNC_PL_HIGHEST_INFLUENCE:
        case CNC_PL_HIGHEST_RESOURCES: {
            int v = sel->how == CNC_PL_HIGHEST_INFLUENCE ? pl->influence
                                                         : pl->resources;
            if (v > best) {
                best = v;
                out[0] = p;
                n = 1;
            }
            break;
        }
        default:
            break;
        }
    }
    return n;
}

/* The marker a marker_is condition asks about, or -1. */
static int cond_marker(const cnc_data *d, const cnc_galaxy *g,
                       const cnc_cond *c, const cnc_cond_ctx *x, int s)
{
    if (!c->has_planet)
        return x->inspected;
    int picked[CNC_MAX_PLANETS];
    int n = cnc_select_planets(d, g, s, &c->planet, picked);
    return n > 0 ? g->sec[s].planet_marker[picked[0]] : -1;
}

static int cond_true(const cnc_data *d, const cnc_galaxy *g, const cnc_cond *c,
                     const cnc_cond_ctx *x, int s)
{
    const cnc_sector *sec = &g->sec[s];
    const cnc_system *t = cnc_sector_tile(d, g, s);
    switch (c->type) {
    case CNC_COND_HOLDS:
        if (c->what == CNC_HOLDS_PLANETS)
            return t->nplanets > 0;
        if (c->what == CNC_HOLDS_ANOMALY)
            return t->kind > CNC_SYS_EMPTY;
        if (c->what == CNC_HOLDS_MARKER) {
            for (int m = 0; m < g->nmarkers; m++)
                if (g->markers[m].sector == s &&
                    g->markers[m].state != CNC_MK_DISCARDED)
                    return 1;
            return 0;
        }
        for (int p = 0; p < t->nplanets; p++)
            if (sec->owner[p] >= 0 && sec->owner[p] != x->seat &&
                sec->ground[p])
                return 1;
        return 0;
    case CNC_COND_MARKER_IS: {
        int m = cond_marker(d, g, c, x, s);
        if (m < 0 || g->markers[m].state == CNC_MK_DISCARDED)
            return 0;
        const cnc_marker_kind *k = &d->markers[g->markers[m].kind];
        return c->is == CNC_IS_HOSTILE    ? k->hostile
               : c->is == CNC_IS_FRIENDLY ? !k->hostile
                                          : g->markers[m].kind == c->kind;
    }
    case CNC_COND_ENEMY_SHIPS:
        for (int p = 0; p < g->players; p++)
            for (int u = 0; p != x->seat && u < d->nunits; u++)
                if (sec->units[p][u] && d->units[u].kind != CNC_UNIT_GROUND)
                    return 1;
        return 0;
    case CNC_COND_FLEET_SURVIVED:
        return x->fleet_survived;
    default: {
        cnc_planet_sel hi = {CNC_PL_HIGHEST_INFLUENCE, ""};
        int picked[CNC_MAX_PLANETS];
        int n = cnc_select_planets(d, g, s, c->has_planet ? &c->planet : &hi,
                                   picked);
        return n > 0 && t->planets[picked[0]].influence >= c->n;
    }
    }
}

int cnc_cond_eval(const cnc_data *d, const cnc_galaxy *g, const cnc_cond *c,
                  const cnc_cond_ctx *ctx)
{
    int s = c->has_sector ? cnc_sector_at(g, c->sector) : ctx->sector;
    if (s < 0)
        return 0;
    return cond_true(d, g, c, ctx, s) != c->negate;
}

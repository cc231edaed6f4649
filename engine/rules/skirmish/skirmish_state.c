/*
 * skirmish_state.c - Skirmish's game state: setup, save/load through a
 * field table, the field geometry (squares, distance) and the common
 * changes to a unit (life lost and destruction, healing), the end of the
 * game, and the plain-words log.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/rules/skirmish/skirmish_internal.h"

const engine_option sk_options[] = {
    {"turn_limit", ENGINE_OPTION_INT,
     "turns before the game ends on points (both players' turns count)", 2, 200,
     SK_TURN_LIMIT, NULL},
    /* the default is what a new game gets (new_game_options stamps it);
     * absent, in a game stored before editions, it means 1 (sk_setup) */
    {"edition", ENGINE_OPTION_INT,
     "rules edition: 2 passes priority with each declaration unless the "
     "player holds it, goes back to choice on an empty stack, and has undo "
     "(docs/games/skirmish.md); 1 (games made before edition 2) asks for "
     "every pass",
     1, SK_EDITION_CURRENT, SK_EDITION_CURRENT, NULL},
    {0},
};

const skirmish_cardset *sk_cards(void)
{
    return skirmish_cards();
}

const skirmish_design *sk_design(const sk_state *s, int u)
{
    return &sk_cards()->designs[s->cr[u][U_DESIGN]];
}

int sk_on_field(const sk_state *s, int u)
{
    return u >= 0 && u < s->nu && !s->cr[u][U_DEAD] && s->cr[u][U_SQ] >= 0;
}

int sk_unit_at(const sk_state *s, int sq)
{
    for (int u = 0; u < s->nu; u++)
        if (sk_on_field(s, u) && s->cr[u][U_SQ] == sq)
            return u;
    return -1;
}

int sk_col(int sq)
{
    return sq % SKIRMISH_COLS;
}

int sk_row(int sq)
{
    return sq / SKIRMISH_COLS;
}

int sk_dist(int a, int b)
{
    int dc = abs(sk_col(a) - sk_col(b)), dr = abs(sk_row(a) - sk_row(b));
    return dc > dr ? dc : dr;
}

const char *sk_sq_name(int sq, char buf[4])
{
    if (sq < 0 || sq >= SK_SQUARES)
        snprintf(buf, 4, "--");
    else
        snprintf(buf, 4, "%c%d", 'a' + sk_col(sq), 1 + sk_row(sq));
    return buf;
}

int sk_sq_parse(const char *name)
{
    if (!name || strlen(name) != 2 || name[0] < 'a' ||
        name[0] >= 'a' + SKIRMISH_COLS || name[1] < '1' ||
        name[1] >= '1' + SKIRMISH_ROWS)
        return -1;
    return (name[1] - '1') * SKIRMISH_COLS + (name[0] - 'a');
}

int sk_has(const sk_state *s, int u, int kind)
{
    const skirmish_design *d = sk_design(s, u);
    for (int i = 0; i < d->nab; i++)
        if (d->ab[i].kind == kind && d->ab[i].timing == SKIRMISH_T_STATIC)
            return 1;
    return 0;
}

int sk_keyword_amount(const sk_state *s, int u, int kind)
{
    const skirmish_design *d = sk_design(s, u);
    int n = 0;
    for (int i = 0; i < d->nab; i++)
        if (d->ab[i].kind == kind && d->ab[i].timing == SKIRMISH_T_STATIC)
            n += d->ab[i].amount;
    return n;
}

int sk_armour(const sk_state *s, int u)
{
    int a =
        sk_keyword_amount(s, u, SKIRMISH_K_ARMOUR) + s->cr[u][U_AURA_ARMOUR];
    return a > 0 ? a : 0;
}

int sk_squad_alive(const sk_state *s, int seat)
{
    int n = 0;
    for (int u = 0; u < s->nu; u++)
        n += s->cr[u][U_OWNER] == seat && sk_on_field(s, u);
    return n;
}

const char *sk_unit_name(const sk_state *s, int u, char *buf, size_t n)
{
    char sq[4];
    int at = s->cr[u][U_DEAD] ? s->cr[u][U_LAST_SQ] : s->cr[u][U_SQ];
    snprintf(buf, n, "%s (%s)", sk_design(s, u)->name, sk_sq_name(at, sq));
    return buf;
}

void sk_log(engine_ctx *ctx, const char *type, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    engine_ctx_log(ctx, json_pack("{s:s, s:s}", "type", type, "text", text));
}

int sk_lose_life(sk_state *s, engine_ctx *ctx, int u, int n)
{
    if (!sk_on_field(s, u) || n <= 0)
        return 0;
    int *c = s->cr[u];
    c[U_LIFE] = c[U_LIFE] > n ? c[U_LIFE] - n : 0;
    if (c[U_LIFE] > 0)
        return 0;
    char name[80];
    sk_log(ctx, "destroyed", "%s is destroyed.",
           sk_unit_name(s, u, name, sizeof name));
    c[U_LAST_SQ] = c[U_SQ];
    c[U_SQ] = -1;
    c[U_DEAD] = 1;
    c[U_POISON] = 0;
    sk_queue_triggers(s, ctx, u, SKIRMISH_TR_DIES, -1);
    sk_check_over(s);
    return 1;
}

void sk_heal(sk_state *s, int u, int n)
{
    if (!sk_on_field(s, u))
        return;
    int *c = s->cr[u], max = sk_design(s, u)->life;
    c[U_LIFE] = c[U_LIFE] + n < max ? c[U_LIFE] + n : max;
    c[U_POISON] = 0; /* healing ends poison */
}

void sk_check_over(sk_state *s)
{
    if (s->phase != SK_PLAY && s->phase != SK_OVER)
        return; /* OVER: a second squad may fall in the same attack */
    int a = sk_squad_alive(s, 0), b = sk_squad_alive(s, 1);
    if (a && b)
        return;
    s->phase = SK_OVER;
    s->winner = !a && !b ? 2 : (a ? 0 : 1);
}

int sk_is_over(const void *state)
{
    return ((const sk_state *)state)->phase == SK_OVER;
}

/* ------------------------------------------------------- setup, save -- */

char *sk_seat_name(engine_ctx *ctx, int seat, char buf[24])
{
    if (engine_ctx_priority_flags(ctx) & ENGINE_PRIO_AUTO_PASS)
        snprintf(buf, 24, "seat %d", seat);
    else
        snprintf(buf, 24, "Player %d", seat + 1);
    return buf;
}

char *sk_cap(char *buf)
{
    if (buf[0] >= 'a' && buf[0] <= 'z')
        buf[0] = (char)(buf[0] - 'a' + 'A');
    return buf;
}

void *sk_setup(engine_ctx *ctx, const json_t *options, int seats,
               engine_error *err)
{
    if (seats != SK_SEATS) {
        engine_fail(err, ENGINE_EINVALID, "seats", "Skirmish is for 2 players");
        return NULL;
    }
    sk_state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->turn_limit = engine_option_int(sk_options, options, "turn_limit");
    s->active = s->first = s->winner = -1;
    s->dice[0] = -1;
    /* a game stored before editions has no edition: the first rules */
    if (json_object_get(options, "edition") &&
        engine_option_int(sk_options, options, "edition") >= 2)
        engine_ctx_priority_setup(ctx, ENGINE_PRIO_AUTO_PASS |
                                           ENGINE_PRIO_UNDO |
                                           ENGINE_PRIO_MY_TURN_KEPT);
    return s;
}

void *sk_clone(const void *state)
{
    return engine_plain_clone(state, sizeof(sk_state));
}

static const char *const phase_names[] = {"muster", "deploy", "play", "over",
                                          NULL};

static const engine_field fields[] = {
    {.name = "phase",
     .kind = ENGINE_FIELD_NAME,
     .offset = offsetof(sk_state, phase),
     .names = phase_names},
    {.name = "turn",
     .kind = ENGINE_FIELD_INT,
     .offset = offsetof(sk_state, turn),
     .max = 1000},
    {.name = "turn_limit",
     .kind = ENGINE_FIELD_INT,
     .offset = offsetof(sk_state, turn_limit),
     .min = 2,
     .max = 200},
    {.name = "active",
     .kind = ENGINE_FIELD_SEAT,
     .offset = offsetof(sk_state, active),
     .max = 1},
    {.name = "first",
     .kind = ENGINE_FIELD_SEAT,
     .offset = offsetof(sk_state, first),
     .max = 1},
    {.name = "winner",
     .kind = ENGINE_FIELD_SEAT,
     .offset = offsetof(sk_state, winner),
     .max = 2},
    {.name = "cost",
     .kind = ENGINE_FIELD_INT,
     .offset = offsetof(sk_state, cost),
     .max = 1000,
     .len = SK_SEATS},
    {.name = "nunits",
     .kind = ENGINE_FIELD_INT,
     .offset = offsetof(sk_state, nunits),
     .max = SKIRMISH_SQUAD_MAX,
     .len = SK_SEATS},
    {.name = "units",
     .kind = ENGINE_FIELD_INT,
     .offset = offsetof(sk_state, cr),
     .min = -99,
     .max = 999,
     .len = SK_MAXU,
     .cols = U_NF,
     .has_count = 1,
     .count_offset = offsetof(sk_state, nu)},
    {.name = "parries",
     .kind = ENGINE_FIELD_INT,
     .offset = offsetof(sk_state, parry),
     .max = 1 << 30,
     .len = SK_MAX_PARRY,
     .cols = 2,
     .has_count = 1,
     .count_offset = offsetof(sk_state, nparry)},
    {.name = "dice",
     .kind = ENGINE_FIELD_INT,
     .offset = offsetof(sk_state, dice),
     .min = -1,
     .max = 99,
     .len = 6},
    {0},
};

json_t *sk_save(const void *state)
{
    return engine_plain_save(state, fields);
}

/* What the field table cannot say: units that exist, squares held once. */
static int consistent(const sk_state *s)
{
    const skirmish_cardset *cs = sk_cards();
    int held[SK_SQUARES] = {0};
    if (s->nu != s->nunits[0] + s->nunits[1])
        return 0;
    for (int u = 0; u < s->nu; u++) {
        const int *c = s->cr[u];
        if (c[U_DESIGN] < 0 || c[U_DESIGN] >= cs->ndesigns ||
            c[U_OWNER] != (u >= s->nunits[0]) || c[U_SQ] < -1 ||
            c[U_SQ] >= SK_SQUARES || c[U_LAST_SQ] < -1 ||
            c[U_LAST_SQ] >= SK_SQUARES || c[U_LIFE] < 0 ||
            c[U_LIFE] > cs->designs[c[U_DESIGN]].life ||
            (c[U_DEAD] && c[U_SQ] >= 0) ||
            (!c[U_DEAD] && s->phase >= SK_PLAY && c[U_SQ] < 0 &&
             s->phase != SK_OVER))
            return 0;
        if (c[U_SQ] >= 0 && held[c[U_SQ]]++)
            return 0;
    }
    return 1;
}

void *sk_load(const json_t *saved, engine_error *err)
{
    sk_state tmp;
    memset(&tmp, 0, sizeof tmp);
    if (engine_plain_load(&tmp, saved, fields, err) != 0)
        return NULL;
    if (!consistent(&tmp)) {
        engine_fail(err, ENGINE_EINTERNAL, "units", "corrupt skirmish units");
        return NULL;
    }
    return sk_clone(&tmp);
}

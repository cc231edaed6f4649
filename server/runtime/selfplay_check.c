/*
 * selfplay_check.c - what `conclave selfplay --check` verifies, game by
 * game, at a cost that grows with the game's length rather than with its
 * square:
 *
 *  - A shadow game, loaded from a save of the real one, is given every
 *    input the real game accepts. It must accept it too and open the same
 *    windows after it (compared after every input: cheap). A save that
 *    drops a field the rules later read makes the shadow diverge.
 *  - At checkpoints the real game and its shadow must hash alike (the full
 *    engine_hash: state, RNG, held orders, log, priority) and show every
 *    seat and a spectator the same view, and the shadow
 *    is then reloaded from a fresh save of the real game, which must hash
 *    like it at once. The gaps between checkpoints are drawn from the run's
 *    check stream, between 1 and the inputs played so far (at least
 *    CHECK_MIN_GAP): every position of a game can be a checkpoint, and a
 *    game of N inputs costs about a dozen full saves of itself, not N
 *    (half the inputs so far made 1.6 times as many checkpoints, for 45%
 *    more CPU in 4-seat Starbase).
 *  - When the game ends, a last checkpoint, then one replay of the whole
 *    game from its export (engine_replay_export) must reach the same hash.
 *
 * Until this file, every input was followed by a save and a load of the
 * whole game with its log: a Skirmish game of 1,000 inputs saved 1,000
 * logs of up to 1,000 lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/ruleset.h"
#include "server/runtime/selfplay_check.h"

#define CHECK_MIN_GAP 8
#define CHECK_WINDOWS 8

struct selfplay_check {
    engine_game *shadow;
    engine_rng *rng;
    long index;            /* the game's number in the run, for messages */
    uint64_t loaded_at;    /* inputs the real game had when shadow was saved */
    uint64_t next;         /* the input count of the next checkpoint */
    unsigned long reloads; /* checkpoints passed */
};

static void say(const selfplay_check *c, const engine_game *g, const char *what)
{
    fprintf(stderr,
            "conclave selfplay: game %ld: after %llu inputs, the game loaded "
            "from its save at input %llu %s\n",
            c->index, (unsigned long long)engine_game_inputs(g),
            (unsigned long long)c->loaded_at, what);
}

static int same_hash(const engine_game *a, const engine_game *b)
{
    uint8_t ha[ENGINE_HASH_BYTES], hb[ENGINE_HASH_BYTES];
    engine_hash(a, ha);
    engine_hash(b, hb);
    return memcmp(ha, hb, sizeof ha) == 0;
}

/* What every seat and a spectator are shown: a field only views read
 * (the last die rolls, say) is lost on a restart without changing a hash
 * of the saved form. */
static int same_views(const engine_game *a, const engine_game *b)
{
    for (int seat = ENGINE_PUBLIC; seat < engine_game_seats(a); seat++) {
        json_t *va = engine_view(a, seat), *vb = engine_view(b, seat);
        int same = va && vb && json_equal(va, vb);
        json_decref(va);
        json_decref(vb);
        if (!same)
            return 0;
    }
    return 1;
}

static void plan_next(selfplay_check *c, uint64_t now)
{
    uint64_t span = now > CHECK_MIN_GAP ? now : CHECK_MIN_GAP;
    c->next = now + 1 + engine_rng_below(c->rng, (uint32_t)span);
}

/* Save the real game, load the save as the new shadow; the two must hash
 * alike. */
static int reload(selfplay_check *c, const engine_game *g)
{
    engine_error err = {0};
    json_t *saved = engine_save(g);
    engine_game *copy = saved ? engine_load(saved, &err) : NULL;
    if (!saved)
        snprintf(err.msg, sizeof err.msg, "out of memory");
    json_decref(saved);
    engine_free(c->shadow);
    c->shadow = copy;
    c->loaded_at = engine_game_inputs(g);
    if (!copy) {
        fprintf(stderr,
                "conclave selfplay: game %ld: its save at input %llu does "
                "not load: %s\n",
                c->index, (unsigned long long)c->loaded_at,
                saved ? err.msg : "out of memory");
        return 0;
    }
    if (!same_hash(g, copy)) {
        say(c, g, "hashes differently at once");
        return 0;
    }
    plan_next(c, c->loaded_at);
    c->reloads++;
    return 1;
}

selfplay_check *selfplay_check_start(const engine_game *g, engine_rng *rng,
                                     long index)
{
    selfplay_check *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->rng = rng;
    c->index = index;
    if (!reload(c, g)) {
        selfplay_check_free(c);
        return NULL;
    }
    return c;
}

static int same_window(const engine_window *a, const engine_window *b)
{
    return strcmp(a->id, b->id) == 0 && a->mode == b->mode &&
           a->seats == b->seats && a->submitted == b->submitted &&
           a->parts == b->parts && a->ready_part == b->ready_part &&
           a->ready == b->ready;
}

static int same_windows(const engine_game *a, const engine_game *b)
{
    engine_window wa[CHECK_WINDOWS], wb[CHECK_WINDOWS];
    int na = engine_windows(a, wa, CHECK_WINDOWS);
    int nb = engine_windows(b, wb, CHECK_WINDOWS);
    if (na != nb || engine_is_over(a) != engine_is_over(b))
        return 0;
    for (int i = 0; i < na && i < CHECK_WINDOWS; i++)
        if (!same_window(&wa[i], &wb[i]))
            return 0;
    return 1;
}

int selfplay_check_step(selfplay_check *c, const engine_game *g,
                        const engine_input *in)
{
    engine_error err = {0};
    if (engine_apply(c->shadow, in, NULL, &err) != 0) {
        char what[320];
        snprintf(what, sizeof what, "refused the same %s: %s",
                 engine_input_kind_name(in->kind), err.msg);
        say(c, g, what);
        return 0;
    }
    if (!same_windows(g, c->shadow)) {
        say(c, g, "opened other windows");
        return 0;
    }
    if (engine_game_inputs(g) < c->next)
        return 1;
    if (!same_hash(g, c->shadow)) {
        say(c, g, "hashes differently");
        return 0;
    }
    if (!same_views(g, c->shadow)) {
        say(c, g, "shows a seat or a spectator something else");
        return 0;
    }
    return reload(c, g);
}

int selfplay_check_finish(selfplay_check *c, const engine_game *g,
                          json_t *inputs)
{
    char seed[2 * ENGINE_SEED_BYTES + 1], hash[2 * ENGINE_HASH_BYTES + 1];
    uint8_t h[ENGINE_HASH_BYTES];
    engine_error err = {0};
    int match = 0;
    if (!same_hash(g, c->shadow) || !same_views(g, c->shadow)) {
        say(c, g, "differs at the end");
        return 0;
    }
    engine_hex(engine_game_seed(g), ENGINE_SEED_BYTES, seed);
    engine_hash(g, h);
    engine_hex(h, ENGINE_HASH_BYTES, hash);
    json_t *exp =
        json_pack("{s:s, s:s, s:s, s:O, s:i, s:s, s:O, s:s}", "format",
                  "conclave-export/1", "game_id", engine_game_id(g), "ruleset",
                  engine_game_ruleset(g)->id, "options", engine_game_options(g),
                  "seats", engine_game_seats(g), "seed", seed, "inputs", inputs,
                  "final_hash", hash);
    int rc = exp ? engine_replay_export(exp, h, &match, NULL, &err)
                 : ENGINE_EINTERNAL;
    json_decref(exp);
    if (rc != 0 || !match)
        fprintf(stderr, "conclave selfplay: game %ld does not replay: %s\n",
                c->index, rc ? err.msg : "final hash differs");
    return rc == 0 && match;
}

unsigned long selfplay_check_reloads(const selfplay_check *c)
{
    return c->reloads;
}

void selfplay_check_free(selfplay_check *c)
{
    if (!c)
        return;
    engine_free(c->shadow);
    free(c);
}

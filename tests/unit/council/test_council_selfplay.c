/*
 * test_council_selfplay.c - Galactic Council self-play properties over
 * games of 3 to 8 seats between random and basic bots: the state
 * invariants after every action phase; the fog guarantee (a seat's view
 * is the same whatever the facts it has not seen are: marker identities it
 * does not know, unexplored sectors' tiles, other seats' units out of its
 * sight; the spectators' view depends on none of them) and the log
 * guarantee (private entries reach only the seats entitled to them); and
 * replay of every game from its export to the same final hash.
 */
#include "tests/unit/council/council_test.h"

static int quick;

/* h := s with everything seat (ENGINE_PUBLIC: anyone) has not seen
 * changed at random (units of the seat and of allies sharing vision with
 * it are never hidden from it, so they stay). */
static void perturb_hidden(const cnc_state *s, cnc_state *h, int seat,
                           engine_rng *rng)
{
    *h = *s;
    for (int m = 0; m < h->g.nmarkers; m++) {
        if (s->g.markers[m].state != CNC_MK_HIDDEN ||
            (seat >= 0 && s->fog.inspected[seat][m]))
            continue;
        int where = D->markers[s->g.markers[m].kind].where, k;
        do
            k = (int)engine_rng_below(rng, (uint32_t)D->nmarkers);
        while (D->markers[k].where != where);
        h->g.markers[m].kind = (int8_t)k;
    }
    for (int x = 0; x < h->g.nsectors; x++) {
        cnc_sector *sec = &h->g.sec[x];
        if (!s->fog.explored[x] && sec->kind == CNC_SEC_SYSTEM)
            sec->tile = (int8_t)engine_rng_below(rng, (uint32_t)D->nsystems);
        if (seat >= 0 && cnc_fog_visible(&s->g, &s->fog, seat, x))
            continue;
        /* Not the seat's own units, nor an ally's: wherever those are
         * the seat sees, so units there would not be hidden. */
        for (int p = 0; p < s->seats; p++)
            for (int u = 0; p != seat && u < D->nunits &&
                            !(seat >= 0 && cnc_fog_allied(&s->fog, seat, p));
                 u++)
                if (D->units[u].kind != CNC_UNIT_GROUND)
                    sec->units[p][u] = (uint8_t)engine_rng_below(rng, 3);
        for (int p = 0; p < CNC_MAX_PLANETS; p++)
            if (sec->owner[p] != seat)
                sec->ground[p] = (uint8_t)engine_rng_below(rng, 4);
    }
}

static int fog_holds(const cnc_state *s, engine_rng *rng)
{
    static cnc_state h;
    int ok = 1;
    for (int seat = ENGINE_PUBLIC; seat < s->seats; seat++) {
        perturb_hidden(s, &h, seat, rng);
        json_t *a = cnc_view_json(s, seat), *b = cnc_view_json(&h, seat);
        ok &= json_equal(a, b);
        json_decref(a);
        json_decref(b);
    }
    return ok;
}

static int invariants(const cnc_state *s)
{
    int ok = s->round <= s->last_round && s->phase <= CNC_PHASE_COUNCIL;
    for (int p = 0; p < s->seats; p++) {
        const cnc_player *pl = &s->p[p];
        int vp = 0;
        /* a public objective the council opened is worth its round's
         * value; the others their data's */
        for (int k = 0; k < s->revealed; k++)
            vp += pl->scored[s->public_deck[k]] ? cnc_public_vp(s, k) : 0;
        for (int o = 0; o < D->nobjectives; o++)
            vp += pl->scored[o] && D->objectives[o].secret ? D->objectives[o].vp
                                                           : 0;
        ok &= pl->tg >= 0 && pl->tactic >= 0 && pl->fleet >= 0 && pl->vp >= vp;
        if (pl->card >= 0)
            ok &= s->strat_owner[pl->card] == p;
    }
    for (int x = 0; x < s->g.nsectors; x++)
        for (int p = 0; p < CNC_MAX_PLANETS; p++) {
            const cnc_sector *sec = &s->g.sec[x];
            if (sec->ground[p])
                ok &= sec->owner[p] >= 0;
            if (sec->owner[p] >= 0)
                ok &= s->fog.explored[x] &&
                      p < cnc_sector_tile(D, &s->g, x)->nplanets;
            for (int q = 0; q < s->seats; q++)
                for (int u = 0; u < D->nunits; u++)
                    ok &= s->damaged[x][q][u] <= sec->units[q][u];
        }
    return ok;
}

/* The marker an entry names by its "sector" and "planet". */
static int entry_marker(const cnc_state *s, const json_t *e)
{
    const json_t *h = json_object_get(e, "sector");
    cnc_hex hx = {(int8_t)json_integer_value(json_array_get(h, 0)),
                  (int8_t)json_integer_value(json_array_get(h, 1))};
    int x = cnc_sector_at(&s->g, hx);
    int p = (int)json_integer_value(json_object_get(e, "planet"));
    if (x < 0)
        return -1;
    return p < 0 ? s->g.sec[x].marker : s->g.sec[x].planet_marker[p];
}

/* Entries only their seats may get. */
static int private_type(const char *t)
{
    static const char *const priv[] = {
        "inspected",     "draw",        "space_combat", "ground_combat",
        "marker_effect", "step_failed", "secret_drawn", "fleet_limit",
        "your_order",    NULL};
    for (int i = 0; priv[i]; i++)
        if (strcmp(priv[i], t) == 0)
            return 1;
    return 0;
}

static int log_holds(const engine_game *g, const cnc_state *s)
{
    int ok = 1;
    for (int seat = ENGINE_PUBLIC; seat < s->seats; seat++) {
        json_t *log = engine_log_since(g, seat, 0);
        size_t i;
        json_t *item;
        json_array_foreach(log, i, item)
        {
            const json_t *e = json_object_get(item, "entry");
            const char *t = json_string_value(json_object_get(e, "type"));
            if (!t)
                continue;
            if (seat < 0 && private_type(t))
                ok = 0;
            if (strcmp(t, "inspected") == 0) {
                int m = entry_marker(s, e);
                ok &= m >= 0 && seat >= 0 && s->fog.inspected[seat][m];
            }
            if (strcmp(t, "marker") == 0) {
                int m = entry_marker(s, e);
                ok &= m >= 0 && s->g.markers[m].state == CNC_MK_REVEALED;
            }
            if (strcmp(t, "space_combat") == 0)
                ok &= seat >= 0 &&
                      (json_integer_value(json_object_get(e, "attacker")) ==
                           seat ||
                       json_integer_value(json_object_get(e, "defender")) ==
                           seat);
        }
        json_decref(log);
    }
    return ok;
}

static int replays(const engine_game *g, json_t *inputs)
{
    char seed[2 * ENGINE_SEED_BYTES + 1], hash[2 * ENGINE_HASH_BYTES + 1];
    uint8_t h[ENGINE_HASH_BYTES];
    engine_hex(engine_game_seed(g), ENGINE_SEED_BYTES, seed);
    engine_hash(g, h);
    engine_hex(h, ENGINE_HASH_BYTES, hash);
    json_t *exp = json_pack(
        "{s:s, s:s, s:s, s:O, s:i, s:s, s:O, s:s}", "format",
        "conclave-export/1", "game_id", engine_game_id(g), "ruleset", "council",
        "options", engine_game_options(g), "seats", engine_game_seats(g),
        "seed", seed, "inputs", inputs, "final_hash", hash);
    int match = 0;
    engine_error err = {0};
    int rc = engine_replay_export(exp, h, &match, NULL, &err);
    json_decref(exp);
    return rc == 0 && match;
}

/* Play game i to the end with bots, checking as it goes. */
static void play_game(int i, int *bad_inv, int *bad_fog, int *bad_log,
                      int *bad_replay)
{
    static cnc_state st;
    int seats = 3 + i % 6;
    engine_rng rng;
    uint8_t key[32] = {7};
    engine_rng_init(&rng, key, (uint64_t)i);
    /* rules edition 1 (a game stored before editions) and 2 (new games)
     * by turns of six, so that every seat count plays both */
    static const char *const opts[2][2] = {
        {NULL, "{\"last_round\": 6}"},
        {"{\"edition\": 2}", "{\"last_round\": 6, \"edition\": 2}"}};
    engine_game *g =
        new_game(seats, (uint64_t)i + 1000, opts[(i / 6) % 2][i % 3 != 0]);
    json_t *rec = json_array();
    engine_window w;
    int checked_round = 0;
    while (!engine_is_over(g) && open_window(g, &w)) {
        int seat = __builtin_ctz(w.seats & ~w.submitted);
        engine_input in;
        engine_error err = {0};
        const char *level = (seat + i) % 2 ? "basic" : "random";
        if (engine_bot_action(g, seat, level, &rng, &in, &err) ||
            apply(g, seat, in.kind, in.window, in.payload, rec)) {
            CHECKF(0, "game %d: bot input refused: %s", i, err.msg);
            json_decref((json_t *)in.payload);
            break;
        }
        json_decref((json_t *)in.payload);
        if (in.kind != ENGINE_ORDER)
            continue;
        get_state(g, &st);
        if (st.round == checked_round && !st.over)
            continue;
        checked_round = st.round;
        *bad_inv += !invariants(&st);
        *bad_fog += !fog_holds(&st, &rng);
    }
    get_state(g, &st);
    *bad_log += !log_holds(g, &st);
    *bad_replay += !replays(g, rec);
    CHECKF(engine_is_over(g), "game %d did not end", i);
    json_decref(rec);
    engine_free(g);
}

static void test_selfplay_invariants_fog_log_and_replay(void)
{
    int games = quick ? 36 : 120;
    int bad_inv = 0, bad_fog = 0, bad_log = 0, bad_replay = 0;
    for (int i = 0; i < games; i++)
        play_game(i, &bad_inv, &bad_fog, &bad_log, &bad_replay);
    CHECK_EQ_INT(bad_inv, 0);
    CHECK_EQ_INT(bad_fog, 0);
    CHECK_EQ_INT(bad_log, 0);
    CHECK_EQ_INT(bad_replay, 0);
}

static size_t dumped(const json_t *j)
{
    char *t = json_dumps(j, JSON_COMPACT);
    size_t n = t ? strlen(t) : 0;
    free(t);
    return n;
}

/* The size of a seat's view, the spectators' view and the engine save at
 * round 6 of a basic-bot game (docs/performance.md quotes them); bounds
 * that catch a view or save growing by an order of magnitude. The save is
 * mostly the game's log, so it follows the game's course: at 8 seats it
 * was 122 kB with sequential picks and 139 kB with the ranked ones (other
 * cards, other battles), hence 192 KiB for the save. */
static void test_view_and_save_sizes(void)
{
    for (int seats = 3; seats <= 8; seats += 5) {
        engine_rng rng;
        uint8_t key[32] = {9};
        engine_rng_init(&rng, key, (uint64_t)seats);
        engine_game *g = new_game(seats, 77, NULL);
        cnc_state st;
        get_state(g, &st);
        while (!engine_is_over(g) && st.round < 6) {
            engine_window w;
            open_window(g, &w);
            int seat = __builtin_ctz(w.seats & ~w.submitted);
            engine_input in;
            engine_error err = {0};
            REQUIRE(engine_bot_action(g, seat, "basic", &rng, &in, &err) == 0);
            REQUIRE(apply(g, seat, in.kind, in.window, in.payload, NULL) == 0);
            json_decref((json_t *)in.payload);
            get_state(g, &st);
        }
        json_t *v0 = engine_view(g, 0), *vp = engine_view(g, ENGINE_PUBLIC),
               *sv = engine_save(g);
        size_t a = dumped(v0), b = dumped(vp), c = dumped(sv);
        fprintf(stderr,
                "sizes, %d seats, round 6: seat view %zu B, public view %zu "
                "B, save %zu B\n",
                seats, a, b, c);
        CHECK(a < 65536 && b < 65536 && c < 196608);
        json_decref(v0);
        json_decref(vp);
        json_decref(sv);
        engine_free(g);
    }
}

int main(void)
{
    quick = getenv("CONCLAVE_TEST_QUICK") != NULL;
    council_test_init();
    RUN(test_view_and_save_sizes);
    RUN(test_selfplay_invariants_fog_log_and_replay);
    return TEST_SUMMARY();
}

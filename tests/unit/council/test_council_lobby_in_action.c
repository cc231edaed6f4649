/*
 * test_council_lobby_in_action.c - Galactic Council's rules edition 2
 * (docs/games/council.md, "Rules editions"): with the council every
 * round, the lobby's parts (representatives, council cards, gifts, the
 * objective pick) go in the action window, which resolves the lobby first
 * (the spies act before the fleets move) and then the fleet orders; there
 * is no "rN.lobby" window. Each part is checked when saved by the rules
 * of its kind. A game stored before editions (no "edition" in its
 * options) keeps the lobby's own window.
 */
#include "tests/unit/council/council_test.h"

#define EDITION_2 "{\"edition\": 2}"

/* A 4-seat game of opts with the picks (and the agenda) played by bots. */
static engine_game *after_picks(uint64_t seed, const char *opts)
{
    engine_rng rng;
    uint8_t key[32] = {7};
    engine_rng_init(&rng, key, seed);
    engine_game *g = new_game(4, seed, opts);
    picks_by_bots(g, "basic", &rng, NULL);
    return g;
}

/* Seat's order (text, with ' for ") saved in window w; 0 or the error,
 * with its field in field. */
static int save(engine_game *g, int seat, const char *w, const char *text,
                char *field, size_t n)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *c = buf; *c; c++)
        if (*c == '\'')
            *c = '"';
    json_t *o = json_loads(buf, 0, NULL);
    if (!o)
        return -98;
    engine_input in = {
        .seat = seat, .kind = ENGINE_ORDER, .window = w, .payload = o};
    for (int i = 0; i < ENGINE_NONCE_BYTES; i++)
        in.nonce[i] = (uint8_t)(engine_game_inputs(g) + (uint64_t)i + 1);
    engine_error err = {0};
    int rc = engine_apply(g, &in, NULL, &err);
    if (field)
        snprintf(field, n, "%s", err.field);
    json_decref(o);
    return rc;
}

static void test_new_games_have_no_lobby_window(void)
{
    engine_game *g = after_picks(3, EDITION_2);
    REQUIRE(g);
    engine_window w;
    REQUIRE(open_window(g, &w));
    CHECKF(strcmp(w.id, "r1.action") == 0, "window %s", w.id);
    json_t *v = engine_view(g, 0);
    CHECK(json_is_true(json_object_get(v, "lobby_in_action")));
    json_decref(v);
    engine_free(g);
    /* A game stored before editions: the lobby has its own window. */
    g = after_picks(3, NULL);
    REQUIRE(g);
    REQUIRE(open_window(g, &w));
    CHECKF(strcmp(w.id, "r1.lobby") == 0, "window %s", w.id);
    v = engine_view(g, 0);
    CHECK(json_is_false(json_object_get(v, "lobby_in_action")));
    json_decref(v);
    engine_free(g);
    /* Council after the status phase: the lobby follows the action phase
     * there, so it keeps its window (edition 2 changes nothing). */
    g = new_game(4, 3, "{\"edition\": 2, \"council_phase\": 1}");
    REQUIRE(g);
    cnc_state st;
    get_state(g, &st);
    CHECK(!cnc_lobby_in_action(&st));
    engine_free(g);
}

/* Every part is checked when saved by the rules of its kind: the lobby's
 * for a representative, a gift, the objective pick or a council card;
 * the fleet orders' for the rest; a vote belongs to neither. */
static void test_each_part_is_checked_as_its_kind(void)
{
    engine_game *g = after_picks(4, EDITION_2);
    REQUIRE(g);
    engine_window w;
    REQUIRE(open_window(g, &w));
    char field[64];
    CHECK_EQ_INT(save(g, 0, w.id,
                      "{'r': {'type': 'representative', 'role': 'spy', "
                      "'target': 1}, 'g': {'type': 'give', 'seat': 2, "
                      "'trade_goods': 1}, 'v': {'type': 'play', 'card': "
                      "'veto'}, 'f1': {'type': 'hold'}}",
                      field, sizeof field),
                 0);
    CHECK_EQ_INT(save(g, 0, w.id,
                      "{'r': {'type': 'representative', 'role': 'king'}}",
                      field, sizeof field),
                 ENGINE_EINVALID);
    CHECK_EQ_STR(field, "r");
    CHECK_EQ_INT(save(g, 0, w.id,
                      "{'r': {'type': 'representative', 'role': 'clerk'}, "
                      "'s': {'type': 'representative', 'role': 'clerk'}}",
                      field, sizeof field),
                 ENGINE_EINVALID); /* at most one representative */
    CHECK_EQ_INT(save(g, 0, w.id,
                      "{'g': {'type': 'give', 'seat': 4, 'trade_goods': 1}}",
                      field, sizeof field),
                 ENGINE_EINVALID); /* 4 seats: 0..3 */
    CHECK_EQ_STR(field, "g");
    CHECK(save(g, 0, w.id, "{'x': {'type': 'vote', 'for': true}}", field,
               sizeof field) != 0);
    CHECK(save(g, 0, w.id, "{'f1': {'type': 'fly'}}", field, sizeof field) !=
          0);
    engine_free(g);
    /* Edition 1: the action window takes fleet orders only. */
    g = after_picks(4, NULL);
    REQUIRE(g);
    REQUIRE(open_window(g, &w));
    REQUIRE(strstr(w.id, ".lobby"));
    json_t *none = json_pack("{s:b}", ENGINE_READY_PART, 1);
    for (int p = 0; p < 4; p++)
        REQUIRE(apply(g, p, ENGINE_ORDER, w.id, none, NULL) == 0);
    json_decref(none);
    REQUIRE(open_window(g, &w));
    REQUIRE(strstr(w.id, ".action"));
    CHECK(save(g, 0, w.id, "{'r': {'type': 'representative', 'role': 'clerk'}}",
               field, sizeof field) != 0);
    engine_free(g);
}

/* The order each seat sends: text (with ' for "), marked ready. */
static int send_all(engine_game *g, const char *const text[4])
{
    engine_window w;
    if (!open_window(g, &w))
        return -99;
    for (int p = 0; p < 4; p++) {
        char buf[512];
        snprintf(buf, sizeof buf, "%s", text[p]);
        for (char *c = buf; *c; c++)
            if (*c == '\'')
                *c = '"';
        json_t *o = json_loads(buf, 0, NULL);
        if (!o)
            return -98;
        json_object_set_new(o, ENGINE_READY_PART, json_true());
        int rc = apply(g, p, ENGINE_ORDER, w.id, o, NULL);
        json_decref(o);
        if (rc)
            return rc;
    }
    return 0;
}

/* The action window resolves the lobby first: the representatives are
 * seated (and the spies have acted) before the council window opens, a
 * gift is paid, and the fleet orders resolve in the same window. */
static void test_the_lobby_resolves_with_the_action_window(void)
{
    engine_game *g = after_picks(5, EDITION_2), *h = after_picks(5, EDITION_2);
    REQUIRE(g && h);
    cnc_state st;
    get_state(g, &st);
    st.p[0].tg = 3;
    g = put_state(g, &st);
    h = put_state(h, &st);
    REQUIRE(g && h);
    static const char *const with[4] = {
        "{'r': {'type': 'representative', 'role': 'councillor'}, "
        "'g': {'type': 'give', 'seat': 2, 'trade_goods': 2}}",
        "{'r': {'type': 'representative', 'role': 'bodyguard'}}",
        "{'r': {'type': 'representative', 'role': 'clerk'}}", "{}"};
    static const char *const without[4] = {"{}", "{}", "{}", "{}"};
    CHECK_EQ_INT(send_all(g, with), 0);
    CHECK_EQ_INT(send_all(h, without), 0);
    engine_window w;
    REQUIRE(open_window(g, &w));
    CHECKF(strcmp(w.id, "r1.council") == 0, "window %s", w.id);
    cnc_state a, b;
    get_state(g, &a);
    get_state(h, &b);
    CHECK_EQ_INT(a.c.seated.round, 1);
    CHECK_EQ_INT(a.c.seated.sent[0], CNC_REP_COUNCILLOR);
    CHECK_EQ_INT(a.c.seated.sent[1], CNC_REP_BODYGUARD);
    CHECK_EQ_INT(a.c.seated.sent[3], CNC_SENT_CLERK); /* no part: a clerk */
    CHECK_EQ_INT(b.c.seated.sent[0], CNC_SENT_CLERK);
    /* The gift: 2 trade goods from seat 0 to seat 2, nothing else moved. */
    CHECK_EQ_INT(a.p[0].tg, b.p[0].tg - 2);
    CHECK_EQ_INT(a.p[2].tg, b.p[2].tg + 2);
    CHECK_EQ_INT(a.p[1].tg, b.p[1].tg);
    engine_free(g);
    engine_free(h);
}

int main(void)
{
    council_test_init();
    RUN(test_new_games_have_no_lobby_window);
    RUN(test_each_part_is_checked_as_its_kind);
    RUN(test_the_lobby_resolves_with_the_action_window);
    return TEST_SUMMARY();
}

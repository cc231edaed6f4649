/*
 * test_rules_sprint.c - Galactic Sprint's rules at their boundaries, on
 * constructed positions (sprint_test.h) and, for setup and timeouts,
 * through the engine: the deal, the end at exactly the target and not one
 * chip before, the round-20 end (ours), solitaire won at exactly the
 * target, the hand limit admitting 10 and trimming 11, the timeouts
 * (explore; keep the cards held longest), and a misplaced order field
 * named in the refusal. The rules that test_sprint_rules.c already covers
 * are listed beside these in the table of docs/games/sprint.md.
 */
#include "tests/unit/sprint/sprint_test.h"

/* The ids of the cards in seat's hand, in the order the view lists them. */
static int hand_ids(const engine_game *g, int seat, int *ids, int max)
{
    json_t *v = engine_view(g, seat);
    json_t *hand = json_object_get(v, "hand");
    int n = 0;
    size_t i;
    json_t *c;
    json_array_foreach(hand, i, c)
    {
        if (n < max)
            ids[n++] = (int)json_integer_value(json_object_get(c, "id"));
    }
    json_decref(v);
    return n;
}

static int view_player_int(const engine_game *g, int seat, const char *key)
{
    json_t *v = engine_view(g, ENGINE_PUBLIC);
    json_t *p = json_array_get(json_object_get(v, "players"), (size_t)seat);
    int n = (int)json_integer_value(json_object_get(p, key));
    json_decref(v);
    return n;
}

static int timeout(engine_game *g)
{
    engine_window w;
    engine_error err;
    if (engine_windows(g, &w, 1) < 1)
        return -1;
    engine_input in = {
        .seat = ENGINE_PUBLIC, .kind = ENGINE_TIMEOUT, .window = w.id};
    return engine_apply(g, &in, NULL, &err);
}

/* Setting up: 6 cards to each player from the 110-card deck (ours). */
static void test_setup_deals_six(void)
{
    static const uint8_t seed[ENGINE_SEED_BYTES] = {5};
    for (int seats = 2; seats <= 4; seats++) {
        engine_error err;
        engine_game *g = engine_create("sprint", "g", NULL, seats, seed, &err);
        REQUIRE(g);
        for (int i = 0; i < seats; i++)
            CHECK_EQ_INT(view_player_int(g, i, "hand"), 6);
        json_t *v = engine_view(g, ENGINE_PUBLIC);
        CHECK_EQ_INT(json_integer_value(json_object_get(v, "deck")),
                     110 - 6 * seats);
        json_decref(v);
        engine_free(g);
    }
}

/* Timeouts (ours): placement explores; a discard step keeps the cards held
 * longest and discards the most recently drawn. */
static void test_timeouts_explore_and_keep_the_oldest(void)
{
    static const uint8_t seed[ENGINE_SEED_BYTES] = {6};
    engine_error err;
    engine_game *g = engine_create("sprint", "g", NULL, 2, seed, &err);
    REQUIRE(g);
    int before[16], during[16], after[16];
    REQUIRE(hand_ids(g, 0, before, 16) == 6);
    REQUIRE(timeout(g) == 0); /* r1.place: everyone explores */
    json_t *v = engine_view(g, ENGINE_PUBLIC);
    json_t *last = json_object_get(
        json_array_get(json_object_get(v, "players"), 0), "last");
    CHECK_EQ_STR(json_string_value(json_object_get(last, "action")), "explore");
    /* 2 + the marker's 3 explore icons drawn, 3 to discard */
    CHECK_EQ_INT(json_integer_value(json_object_get(last, "explore_drew")), 5);
    json_decref(v);
    REQUIRE(hand_ids(g, 0, during, 16) == 11);
    CHECK_EQ_INT(view_player_int(g, 0, "must_discard"), 3);
    REQUIRE(timeout(g) == 0); /* r1.explore */
    int n = hand_ids(g, 0, after, 16);
    CHECK_EQ_INT(n, 8); /* the hand grows by exactly 2 */
    /* kept: the six dealt and the first two drawn, in any order */
    for (int k = 0; k < 8; k++) {
        int found = 0;
        for (int i = 0; i < n; i++)
            found |= after[i] == during[k];
        CHECKF(found, "card %d (held since %s) was discarded", during[k],
               k < 6 ? "the deal" : "the first draws");
    }
    for (int k = 0; k < 6; k++)
        CHECK_EQ_INT(during[k], before[k]); /* new cards come after */
    engine_free(g);
}

/* End of the game: 50 or more chips end it, at exactly 50. */
static void test_game_ends_at_exactly_the_target(void)
{
    sprint_state s;
    fresh(&s, 2);
    to_empire(&s, 0, inst("cobalt_shoals", 0)); /* 2 VP */
    s.p[0].chips = 48;
    place(&s, NULL);
    discard_default(&s);
    CHECK_EQ_INT(s.p[0].chips, 50);
    CHECK(s.over);
    /* the option's target, the same way */
    fresh(&s, 2);
    s.target = 30;
    to_empire(&s, 1, inst("cobalt_shoals", 0));
    s.p[1].chips = 27;
    place(&s, NULL);
    discard_default(&s);
    CHECK_EQ_INT(s.p[1].chips, 29);
    CHECK(!s.over);
    place(&s, NULL);
    discard_default(&s);
    CHECK(s.over);
    json_t *r = sprint_result_json(&s);
    CHECK_EQ_INT(
        json_integer_value(json_array_get(json_object_get(r, "winners"), 0)),
        1);
    json_decref(r);
}

/* (ours) no one at 50 by the end of round 20: the game ends then. */
static void test_round_twenty_ends_the_game(void)
{
    sprint_state s;
    fresh(&s, 2);
    s.round = 19;
    place(&s, NULL);
    discard_default(&s);
    CHECK(!s.over);
    CHECK_EQ_INT(s.round, 20);
    place(&s, NULL);
    discard_default(&s);
    CHECK(s.over);
    CHECK_EQ_INT(s.phase, SPRINT_PHASE_OVER);
    CHECK(invariant_ok(&s));
}

/* Solitaire: won with 50 or more chips after the 7 rounds, at exactly 50;
 * 49 loses. */
static void test_solitaire_won_at_exactly_the_target(void)
{
    for (int start = 47; start <= 48; start++) {
        sprint_state s;
        fresh(&s, 1);
        s.round = 7;
        to_empire(&s, 0, inst("cobalt_shoals", 0)); /* 2 VP */
        s.p[0].chips = start;
        place(&s, NULL);
        discard_default(&s);
        CHECK(s.over);
        json_t *r = sprint_result_json(&s);
        CHECKF(json_is_true(json_object_get(r, "won")) == (start + 2 >= 50),
               "%d chips", start + 2);
        CHECK_EQ_INT(json_array_size(json_object_get(r, "winners")),
                     start + 2 >= 50);
        json_decref(r);
    }
}

/* Hand limit: more than 10 discards down to 10; exactly 10 keeps all. */
static void test_hand_limit_boundary(void)
{
    sprint_state s;
    fresh(&s, 2);
    fill_hand(&s, 0, 10);
    fill_hand(&s, 1, 9);
    json_t *orders[2] = {
        J("{\"action\":\"develop\",\"survey\":true}"),
        J("{\"action\":\"develop\",\"survey\":true}"),
    };
    place(&s, orders); /* the survey card's income 1 each */
    CHECK_EQ_INT(s.p[0].nhand, 11);
    CHECK_EQ_INT(s.p[0].must_discard, 1);
    CHECK_EQ_INT(s.p[1].nhand, 10);
    CHECK_EQ_INT(s.p[1].must_discard, 0);
    discard_default(&s);
    CHECK_EQ_INT(s.p[0].nhand, 10);
    CHECK_EQ_INT(s.p[1].nhand, 10);
}

/* An order names only what its action uses; the refusal names the field
 * and the action. */
static void test_misplaced_field_named(void)
{
    sprint_state s;
    fresh(&s, 2);
    fill_hand(&s, 0, 3);
    engine_error err;
    CHECK_EQ_INT(
        check(&s, 0, J("{\"action\":\"explore\",\"pay\":[%d]}", s.p[0].hand[0]),
              &err),
        ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "pay");
    CHECK_EQ_STR(err.msg, "pay is not allowed with action explore");
    CHECK_EQ_INT(
        check(&s, 0,
              J("{\"action\":\"settle\",\"development\":%d}", s.p[0].hand[0]),
              &err),
        ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "development");
    CHECK_EQ_STR(err.msg, "development is not allowed with action settle");
}

/* The built-in cards.json with the line of card key replaced (NEW). */
static char *cards_with(const char *key, const char *line)
{
    extern const char sprint_cards_json[];
    const char *src = sprint_cards_json;
    char needle[80];
    snprintf(needle, sizeof needle, "{\"key\": \"%s\"", key);
    const char *at = strstr(src, needle);
    if (!at)
        abort();
    const char *end = strchr(at, '\n');
    if (end[-1] == ',')
        end--;
    size_t n = strlen(src) + strlen(line) + 1;
    char *out = malloc(n);
    memcpy(out, src, (size_t)(at - src));
    snprintf(out + (at - src), n - (size_t)(at - src), "%s%s", line, end);
    return out;
}

/* Parse cards.json with key's line replaced: the code, err filled. */
static int parse_with(const char *key, const char *line, engine_error *err)
{
    static sprint_cardset cs;
    char *text = cards_with(key, line);
    memset(err, 0, sizeof *err);
    int rc = sprint_cards_parse(text, strlen(text), &cs, err);
    free(text);
    return rc;
}

/* Card data (ours, cards.json): "every" is 1..9, and a refusal names the
 * card and then the ability. */
static void test_card_data_bounds(void)
{
    engine_error err;
    const char *fmt = "{\"key\": \"genome_vault\", \"name\": \"Genome Vault\", "
                      "\"type\": \"development\", \"count\": 1, \"cost\": 4, "
                      "\"abilities\": [{\"type\": \"vp_per\", \"what\": "
                      "\"jade_world\", \"amount\": 1, \"every\": %d}], "
                      "\"text\": \"+1 VP for every %d jade worlds.\"}";
    char line[400];
    snprintf(line, sizeof line, fmt, 9, 9);
    CHECK_EQ_INT(parse_with("genome_vault", line, &err), 0);
    snprintf(line, sizeof line, fmt, 10, 10);
    CHECK_EQ_INT(parse_with("genome_vault", line, &err), ENGINE_EINVALID);
    CHECK(strstr(err.msg, "every must be an integer 1..9") != NULL);
    snprintf(line, sizeof line, fmt, 0, 0);
    CHECK_EQ_INT(parse_with("genome_vault", line, &err), ENGINE_EINVALID);
    /* vp_per without "what": the card's key first, then the ability */
    CHECK_EQ_INT(
        parse_with("genome_vault",
                   "{\"key\": \"genome_vault\", \"name\": \"Genome Vault\", "
                   "\"type\": \"development\", \"count\": 1, \"cost\": 4, "
                   "\"abilities\": [{\"type\": \"vp_per\", \"amount\": 1}], "
                   "\"text\": \"+1 VP.\"}",
                   &err),
        ENGINE_EINVALID);
    CHECKF(strstr(err.msg,
                  "(genome_vault): abilities[0] vp_per needs \"what\"") != NULL,
           "message %s", err.msg);
}

/* The catalogue clients get carries each design's printed numbers. */
static void test_catalogue_numbers(void)
{
    json_t *cat = sprint_catalog();
    REQUIRE(cat);
    static const struct {
        const char *key;
        int military, income, explore, vp;
    } want[] = {{"drone_picket", 1, 1, 0, 0},
                {"lancer_wing", 3, 0, 0, 1},
                {"deep_scanner_array", 0, 0, 2, 0},
                {"freight_consortium", 0, 3, 0, 1}};
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        size_t i;
        json_t *c;
        int found = 0;
        json_array_foreach(json_object_get(cat, "cards"), i, c)
        {
            if (strcmp(json_string_value(json_object_get(c, "key")),
                       want[k].key) != 0)
                continue;
            found = 1;
            CHECKF(json_integer_value(json_object_get(c, "military")) ==
                           want[k].military &&
                       json_integer_value(json_object_get(c, "income")) ==
                           want[k].income &&
                       json_integer_value(json_object_get(c, "explore")) ==
                           want[k].explore &&
                       json_integer_value(json_object_get(c, "vp")) ==
                           want[k].vp,
                   "%s", want[k].key);
            CHECKF(json_object_get(c, "military") != NULL, "%s: military",
                   want[k].key);
        }
        CHECKF(found, "%s in the catalogue", want[k].key);
    }
    json_decref(cat);
}

/* The campaign (ours): a finished game lists the conditions it meets, and
 * as new only those not met before. */
static void test_campaign_new_conditions(void)
{
    for (int before = 0; before < 2; before++) {
        sprint_state s;
        fresh(&s, 1);
        s.campaign = 1;
        s.campaign_met = before ? 1u : 0u; /* magnate already met */
        s.round = 7;
        s.p[0].chips = 70;
        s.over = 1;
        s.phase = SPRINT_PHASE_OVER;
        json_t *r = sprint_result_json(&s);
        REQUIRE(r);
        json_t *met = json_object_get(r, "conditions_met");
        json_t *fresh_ones = json_object_get(r, "new_conditions");
        CHECKF(json_array_size(met) == 1 &&
                   strcmp(json_string_value(json_array_get(met, 0)),
                          "magnate") == 0,
               "before %d: conditions_met", before);
        CHECKF(json_array_size(fresh_ones) == (size_t)!before,
               "before %d: %zu new", before, json_array_size(fresh_ones));
        CHECK(json_is_true(json_object_get(r, "won")) == !before);
        json_decref(r);
    }
}

int main(void)
{
    if (sprint_test_init())
        return 1;
    RUN(test_setup_deals_six);
    RUN(test_timeouts_explore_and_keep_the_oldest);
    RUN(test_game_ends_at_exactly_the_target);
    RUN(test_round_twenty_ends_the_game);
    RUN(test_solitaire_won_at_exactly_the_target);
    RUN(test_hand_limit_boundary);
    RUN(test_misplaced_field_named);
    RUN(test_card_data_bounds);
    RUN(test_catalogue_numbers);
    RUN(test_campaign_new_conditions);
    return TEST_SUMMARY();
}

/*
 * test_sprint.c - Galactic Sprint (engine/rules/sprint): one named test per
 * rule the seed states, the rules we invented, card-data validation, the
 * campaign functions, the engine-facing contract (views hide hands, orders
 * are checked with field-named errors, save/load and replay), a random
 * self-play property test with invariants after every input, and the bot
 * strength check (basic beats random in >= 90% of two-player games).
 *
 * Rule tests build small positions by moving named cards between the deck,
 * hands and empires of a real state, so card conservation always holds.
 * CONCLAVE_TEST_QUICK=1 shrinks the self-play counts.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine.h"
#include "engine/rules/sprint/sprint.h"
#include "engine/rules/sprint/sprint_internal.h"
#include "engine/ruleset.h"
#include "tests/unit/test.h"

static const sprint_cardset *CS;
static int quick;

/* ------------------------------------------------------------ helpers -- */

static void rng_for(engine_rng *rng, uint64_t seed, uint64_t stream)
{
    uint8_t key[32] = {0};
    memcpy(key, &seed, sizeof seed);
    engine_rng_init(rng, key, stream);
}

static int design_index(const char *key)
{
    for (int i = 0; i < CS->ndesigns; i++)
        if (strcmp(CS->designs[i].key, key) == 0)
            return i;
    fprintf(stderr, "no design %s\n", key);
    abort();
}

/* The nth (0-based) deck instance of a design. */
static int inst(const char *key, int nth)
{
    int d = design_index(key);
    for (int i = 0; i < CS->ndeck; i++)
        if (CS->deck_design[i] == d && nth-- == 0)
            return i;
    fprintf(stderr, "no copy of %s\n", key);
    abort();
}

static int list_remove(uint8_t *list, uint8_t *n, int c)
{
    for (int i = 0; i < *n; i++)
        if (list[i] == c) {
            memmove(&list[i], &list[i + 1], (size_t)(*n - i - 1));
            (*n)--;
            return 1;
        }
    return 0;
}

/* Take a deck instance from wherever it is. */
static void take(sprint_state *s, int c)
{
    if (list_remove(s->deck, &s->ndeck, c) ||
        list_remove(s->discard, &s->ndiscard, c))
        return;
    for (int i = 0; i < s->seats; i++)
        if (list_remove(s->p[i].hand, &s->p[i].nhand, c) ||
            list_remove(s->p[i].empire, &s->p[i].nempire, c))
            return;
    abort();
}

static void to_hand(sprint_state *s, int seat, int c)
{
    take(s, c);
    s->p[seat].hand[s->p[seat].nhand++] = (uint8_t)c;
}

static void to_empire(sprint_state *s, int seat, int c)
{
    take(s, c);
    s->p[seat].empire[s->p[seat].nempire++] = (uint8_t)c;
}

/* Move every card of seat's hand back to the deck (bottom). */
static void empty_hand(sprint_state *s, int seat)
{
    sprint_player *p = &s->p[seat];
    while (p->nhand) {
        int c = p->hand[--p->nhand];
        memmove(&s->deck[1], &s->deck[0], s->ndeck);
        s->deck[0] = (uint8_t)c;
        s->ndeck++;
    }
}

/* Hand of n filler cards: plain cards no test names (so a named card is
 * never swallowed as filler), taken from the deck top down. */
static int is_filler(int c)
{
    static const char *const fillers[] = {
        "relay_beacons",   "fleet_tenders",      "nomad_drift",
        "helium_skimmers", "rustbelt_mines",     "lantern_moon",
        "pearl_lagoon",    "verdant_reach",      "glasswind_colony",
        "ochre_mesa",      "credit_filler_none", NULL};
    const char *key = CS->designs[CS->deck_design[c]].key;
    for (int i = 0; fillers[i]; i++)
        if (strcmp(fillers[i], key) == 0)
            return 1;
    return 0;
}

static void fill_hand(sprint_state *s, int seat, int n)
{
    for (int i = s->ndeck - 1; i >= 0 && n > 0; i--) {
        int c = s->deck[i];
        if (is_filler(c)) {
            to_hand(s, seat, c);
            n--;
        }
    }
    if (n > 0)
        abort();
}

static engine_rng test_rng;

static void fresh(sprint_state *s, int seats)
{
    rng_for(&test_rng, 42, 7);
    sprint_io io = {&test_rng, NULL};
    sprint_state_init(s, CS, seats, seats == 1, 50, 0, 0, &io);
    for (int i = 0; i < seats; i++)
        empty_hand(s, i);
}

static json_t *J(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static json_t *J(const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    json_error_t e;
    json_t *j = json_loads(buf, 0, &e);
    if (!j) {
        fprintf(stderr, "bad test JSON %s: %s\n", buf, e.text);
        abort();
    }
    return j;
}

/* Check an order; returns the code, err filled. */
static int check(const sprint_state *s, int seat, json_t *order,
                 engine_error *err)
{
    sprint_plan p;
    memset(err, 0, sizeof *err);
    int rc = sprint_plan_parse(s, seat, order, &p, err);
    json_decref(order);
    return rc;
}

static int ok(const sprint_state *s, int seat, json_t *order)
{
    engine_error err;
    int rc = check(s, seat, order, &err);
    if (rc)
        fprintf(stderr, "  unexpected rejection: %s (%s)\n", err.msg,
                err.field);
    return rc == 0;
}

/* Resolve a placement round with the given orders (NULL: explore). */
static void place(sprint_state *s, json_t **orders)
{
    sprint_plan plans[SPRINT_MAX_SEATS];
    sprint_io io = {&test_rng, NULL};
    for (int i = 0; i < s->seats; i++) {
        json_t *o =
            orders && orders[i] ? orders[i] : J("{\"action\":\"explore\"}");
        engine_error err = {0};
        if (sprint_plan_parse(s, i, o, &plans[i], &err)) {
            fprintf(stderr, "place: seat %d: %s\n", i, err.msg);
            abort();
        }
        json_decref(o);
    }
    sprint_resolve_place(s, plans, &io);
}

/* Resolve the open discard window with "keep the first cards". */
static void discard_default(sprint_state *s)
{
    uint8_t ids[SPRINT_MAX_SEATS][SPRINT_MAX_CARDS];
    int counts[SPRINT_MAX_SEATS] = {0};
    sprint_io io = {&test_rng, NULL};
    for (int i = 0; i < s->seats; i++) {
        sprint_player *p = &s->p[i];
        for (int k = 0; k < p->must_discard; k++)
            ids[i][k] = p->hand[p->nhand - p->must_discard + k];
        counts[i] = p->must_discard;
    }
    sprint_resolve_discards(s, ids, counts, &io);
}

static int invariant_ok(const sprint_state *s)
{
    char why[200];
    if (sprint_state_check(s, why, sizeof why)) {
        fprintf(stderr, "  invariant: %s\n", why);
        return 0;
    }
    return 1;
}

/* ------------------------------------------------------ card data -- */

static void test_builtin_cards(void)
{
    CHECK(CS->ndeck >= 100 && CS->ndeck <= 124);
    CHECK(CS->ndesigns >= 51);
    const sprint_design *sv = &CS->designs[CS->survey];
    CHECK(sv->central && sv->kind == SPRINT_DEVELOPMENT);
    CHECK_EQ_INT(sv->cost, 1);
    CHECK_EQ_INT(sv->explore, 2);
    CHECK_EQ_INT(sv->military, 1);
    CHECK_EQ_INT(sv->income, 1);
    /* Every ability kind the seed names is in the set. */
    int seen[SPRINT_AB_COUNT] = {0}, vs_rebel = 0, vs_colour = 0, disc_kind = 0,
        disc_colour = 0, rebel = 0, alien = 0;
    for (int i = 0; i < CS->ndesigns; i++) {
        const sprint_design *d = &CS->designs[i];
        rebel += d->faction == SPRINT_REBEL;
        alien += d->faction == SPRINT_ALIEN;
        for (int a = 0; a < d->nab; a++) {
            const sprint_ability *ab = &d->ab[a];
            seen[ab->type]++;
            if (ab->type == SPRINT_AB_MILITARY_VS) {
                vs_rebel += ab->what == SPRINT_W_REBEL_WORLD;
                vs_colour += ab->what >= SPRINT_W_GREY_WORLD &&
                             ab->what <= SPRINT_W_VIOLET_WORLD;
            }
            if (ab->type == SPRINT_AB_DISCOUNT) {
                disc_kind += ab->what <= SPRINT_W_WORLD;
                disc_colour += ab->what >= SPRINT_W_GREY_WORLD;
            }
        }
    }
    for (int t = 0; t < SPRINT_AB_COUNT; t++)
        CHECKF(seen[t] > 0, "ability type %d missing", t);
    CHECK(vs_rebel && vs_colour && disc_kind && disc_colour && rebel && alien);
    json_t *cat = sprint_catalog();
    REQUIRE(cat);
    CHECK_EQ_INT(json_array_size(json_object_get(cat, "instances")), CS->ndeck);
    CHECK_EQ_INT(json_array_size(json_object_get(cat, "cards")), CS->ndesigns);
    json_decref(cat);
}

/* Parse text and expect failure whose message contains want. */
static void expect_bad(const char *text, const char *want)
{
    static sprint_cardset cs;
    engine_error err = {0};
    int rc = sprint_cards_parse(text, strlen(text), &cs, &err);
    CHECKF(rc == ENGINE_EINVALID, "accepted: %s", text);
    CHECKF(strstr(err.msg, want) != NULL, "message \"%s\" lacks \"%s\"",
           err.msg, want);
}

/* The built-in file with one card line replaced by another text. */
static char *mutated(const char *key, const char *replacement)
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
    size_t n = strlen(src) + strlen(replacement) + 1;
    char *out = malloc(n);
    size_t pre = (size_t)(at - src);
    memcpy(out, src, pre);
    snprintf(out + pre, n - pre, "%s%s", replacement, end);
    return out;
}

static void test_card_validation_rejects_bad_files(void)
{
    expect_bad("{", "cards.json line");
    expect_bad("{\"format\":\"x\",\"cards\":[]}", "format");
    expect_bad("{\"format\":\"sprint-cards/1\",\"cards\":[]}", "central");
    static const struct {
        const char *key, *line, *want;
    } cases[] = {
        {"salvage_crews",
         "{\"key\": \"salvage_crews\", \"name\": \"Salvage Crews\", \"type\": "
         "\"development\", \"count\": 3, \"cost\": 12}",
         "card 1 (salvage_crews): cost must be an integer 0..9"},
        {"salvage_crews",
         "{\"key\": \"salvage_crews\", \"name\": \"Salvage Crews\", \"type\": "
         "\"development\", \"count\": 3, \"cost\": 1, \"colour\": \"jade\"}",
         "(salvage_crews): colour is only for worlds"},
        {"salvage_crews",
         "{\"key\": \"salvage_crews\", \"name\": \"Salvage Crews\", \"type\": "
         "\"gadget\", \"count\": 3, \"cost\": 1}",
         "(salvage_crews): type must be"},
        {"salvage_crews",
         "{\"key\": \"salvage_crews\", \"name\": \"Salvage Crews\", \"type\": "
         "\"development\", \"count\": 3, \"cost\": 1, \"shiny\": true}",
         "(salvage_crews): shiny is not a known field"},
        {"salvage_crews",
         "{\"key\": \"Salvage\", \"name\": \"Salvage Crews\", \"type\": "
         "\"development\", \"count\": 3, \"cost\": 1}",
         "card 1: key must be"},
        {"salvage_crews",
         "{\"key\": \"orbital_workshop\", \"name\": \"X\", \"type\": "
         "\"development\", \"count\": 3, \"cost\": 1}",
         "key repeats card 1"},
        {"ironhold",
         "{\"key\": \"ironhold\", \"name\": \"Ironhold\", \"type\": \"world\", "
         "\"count\": 2, \"colour\": \"amber\", \"cost\": 2, \"defence\": 2}",
         "(ironhold): defence a world needs exactly one of cost"},
        {"ironhold",
         "{\"key\": \"ironhold\", \"name\": \"Ironhold\", \"type\": \"world\", "
         "\"count\": 2, \"colour\": \"pink\", \"defence\": 2}",
         "(ironhold): colour must be grey, azure"},
        {"ironhold",
         "{\"key\": \"ironhold\", \"name\": \"Ironhold\", \"type\": \"world\", "
         "\"count\": 2, \"colour\": \"amber\", \"cost\": 2, \"faction\": "
         "\"rebel\"}",
         "(ironhold): faction rebel worlds must be military"},
        {"prospectors_guild",
         "{\"key\": \"prospectors_guild\", \"name\": \"Prospectors' Guild\", "
         "\"type\": \"development\", \"count\": 2, \"cost\": 2, "
         "\"abilities\": [{\"type\": \"discount\", \"what\": \"explore_icon\", "
         "\"amount\": 1}]}",
         "(prospectors_guild): abilities[0] discount must target a card kind"},
        {"prospectors_guild",
         "{\"key\": \"prospectors_guild\", \"name\": \"Prospectors' Guild\", "
         "\"type\": \"development\", \"count\": 2, \"cost\": 2, "
         "\"abilities\": [{\"type\": \"convoy\", \"what\": \"world\"}]}",
         "(prospectors_guild): abilities[0] convoy is only for worlds"},
        {"prospectors_guild",
         "{\"key\": \"prospectors_guild\", \"name\": \"Prospectors' Guild\", "
         "\"type\": \"development\", \"count\": 2, \"cost\": 2, "
         "\"abilities\": [{\"type\": \"teleport\"}]}",
         "(prospectors_guild): abilities[0] type must be one of"},
        {"prospectors_guild",
         "{\"key\": \"prospectors_guild\", \"name\": \"Prospectors' Guild\", "
         "\"type\": \"development\", \"count\": 2, \"cost\": 2, "
         "\"abilities\": [{\"type\": \"vp_per\", \"what\": \"world\"}]}",
         "(prospectors_guild): abilities[0] amount must be at least 1"},
        {"prospectors_guild",
         "{\"key\": \"prospectors_guild\", \"name\": \"Prospectors' Guild\", "
         "\"type\": \"development\", \"count\": 2, \"cost\": 2, "
         "\"abilities\": [{\"type\": \"military_vs\", \"what\": "
         "\"development\", \"amount\": 2}]}",
         "military_vs must target rebel, alien or one colour"},
        {"prospectors_guild",
         "{\"key\": \"prospectors_guild\", \"name\": \"Prospectors' Guild\", "
         "\"type\": \"development\", \"count\": 2, \"cost\": 2, "
         "\"abilities\": [{\"type\": \"bonus_if\", \"what\": \"world\"}]}",
         "bonus_if needs amount (VP) or income"},
        {"wayfinder_cadre",
         "{\"key\": \"wayfinder_cadre\", \"name\": \"Wayfinder Cadre\", "
         "\"type\": \"development\", \"central\": true, \"count\": 1, "
         "\"cost\": 1}",
         "(wayfinder_cadre): count must be absent on the central card"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *text = mutated(cases[i].key, cases[i].line);
        expect_bad(text, cases[i].want);
        free(text);
    }
    /* The unchanged file parses, and a second central card is refused. */
    extern const char sprint_cards_json[];
    static sprint_cardset cs;
    engine_error err = {0};
    CHECK_EQ_INT(sprint_cards_parse(sprint_cards_json,
                                    strlen(sprint_cards_json), &cs, &err),
                 0);
    char *two = mutated("salvage_crews",
                        "{\"key\": \"salvage_crews\", \"name\": \"Salvage "
                        "Crews\", \"type\": \"development\", \"central\": "
                        "true, \"cost\": 1}");
    expect_bad(two, "only one card may be central");
    free(two);
}

/* ------------------------------------------------------ seed rules -- */

static void test_develop_alone_gets_discount(void)
{
    sprint_state s;
    fresh(&s, 2);
    int ws = inst("orbital_workshop", 0); /* cost 2 */
    to_hand(&s, 0, ws);
    fill_hand(&s, 0, 3);
    int a = s.p[0].hand[1], b = s.p[0].hand[2];
    engine_error err;
    CHECK(ok(
        &s, 0,
        J("{\"action\":\"develop\",\"development\":%d,\"pay\":[%d]}", ws, a)));
    CHECK_EQ_INT(check(&s, 0,
                       J("{\"action\":\"develop\",\"development\":%d,"
                         "\"pay\":[%d,%d]}",
                         ws, a, b),
                       &err),
                 ENGINE_EINVALID);
    CHECK_EQ_STR(err.msg, "cost 1 needs 1 discard, got 2");
    CHECK_EQ_STR(err.field, "pay");
    /* Cost never below 0: a cost-1 development alone is free. */
    int sc = inst("salvage_crews", 0);
    to_hand(&s, 0, sc);
    CHECK(ok(&s, 0,
             J("{\"action\":\"develop\",\"development\":%d,\"pay\":[]}", sc)));
}

static void test_settle_draws_one_card(void)
{
    sprint_state s;
    fresh(&s, 2);
    int w = inst("cobalt_shoals", 0); /* cost 2 */
    to_hand(&s, 0, w);
    fill_hand(&s, 0, 3);
    int a = s.p[0].hand[1], b = s.p[0].hand[2];
    json_t *orders[2] = {
        J("{\"action\":\"settle\",\"world\":%d,\"pay\":[%d,%d]}", w, a, b),
        NULL};
    place(&s, orders);
    /* 4 - 1 placed - 2 paid + 1 drawn = 2, before income (0). */
    CHECK_EQ_INT(s.p[0].last.drew, 1);
    CHECK_EQ_INT(s.p[0].last.paid, 2);
    CHECK_EQ_INT(s.p[0].nempire, 1);
    CHECK(invariant_ok(&s));
}

static void test_both_has_no_discount_and_no_draw(void)
{
    sprint_state s;
    fresh(&s, 2);
    int d = inst("orbital_workshop", 0); /* cost 2 */
    int w = inst("cobalt_shoals", 0);    /* cost 2 */
    to_hand(&s, 0, d);
    to_hand(&s, 0, w);
    fill_hand(&s, 0, 5);
    const uint8_t *h = s.p[0].hand;
    engine_error err;
    CHECK_EQ_INT(check(&s, 0,
                       J("{\"action\":\"both\",\"development\":%d,\"world\":%d,"
                         "\"pay\":[%d,%d,%d]}",
                         d, w, h[2], h[3], h[4]),
                       &err),
                 ENGINE_EINVALID);
    CHECK_EQ_STR(err.msg, "cost 4 needs 4 discards, got 3");
    json_t *orders[2] = {
        J("{\"action\":\"both\",\"development\":%d,\"world\":%d,"
          "\"pay\":[%d,%d,%d,%d]}",
          d, w, h[2], h[3], h[4], h[5]),
        NULL};
    place(&s, orders);
    CHECK_EQ_INT(s.p[0].last.drew, 0);
    CHECK_EQ_INT(s.p[0].last.paid, 4);
    CHECK_EQ_INT(s.p[0].nempire, 2);
}

static void test_explore_arithmetic(void)
{
    sprint_state s;
    fresh(&s, 2);
    to_empire(&s, 0, inst("deep_scanner_array", 0)); /* 2 explore icons */
    fill_hand(&s, 0, 4);
    fill_hand(&s, 1, 4);
    place(&s, NULL); /* both explore */
    /* seat 0: draws 2 + (2 + 3 marker) = 7, discards 5; seat 1: 5 and 3. */
    CHECK_EQ_INT(s.p[0].last.explore_drew, 7);
    CHECK_EQ_INT(s.p[0].must_discard, 5);
    CHECK_EQ_INT(s.p[1].last.explore_drew, 5);
    CHECK_EQ_INT(s.p[1].must_discard, 3);
    CHECK_EQ_INT(s.phase, SPRINT_PHASE_EXPLORE);
    char id[ENGINE_WINDOW_ID_MAX];
    sprint_window_id(&s, id, sizeof id);
    CHECK_EQ_STR(id, "r1.explore");
    /* A wrong count is refused, naming the field. */
    uint8_t ids[SPRINT_MAX_CARDS];
    int n;
    engine_error err = {0};
    json_t *bad = J("{\"discard\":[%d]}", s.p[0].hand[0]);
    CHECK_EQ_INT(sprint_discard_parse(&s, 0, bad, ids, &n, &err),
                 ENGINE_EINVALID);
    CHECK_EQ_STR(err.msg, "you must discard 5 cards, got 1");
    json_decref(bad);
    int income0 = sprint_empire_income(&s, 0);
    discard_default(&s);
    /* Net +2 cards each, then income. */
    CHECK_EQ_INT(s.p[0].nhand, 4 + 2 + income0);
    CHECK_EQ_INT(s.p[1].nhand, 4 + 2);
    CHECK_EQ_INT(s.round, 2);
    CHECK(invariant_ok(&s));
}

static void test_military_conquest_needs_enough_military(void)
{
    sprint_state s;
    fresh(&s, 2);
    to_empire(&s, 0, inst("drone_picket", 0)); /* military 1 */
    int iron = inst("ironhold", 0);            /* defence 2 */
    int scrap = inst("scrap_moon", 0);         /* defence 1 */
    to_hand(&s, 0, iron);
    to_hand(&s, 0, scrap);
    fill_hand(&s, 0, 2);
    engine_error err;
    CHECK_EQ_INT(
        check(&s, 0, J("{\"action\":\"settle\",\"world\":%d}", iron), &err),
        ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "world");
    CHECK_EQ_STR(err.msg, "military 1 is below defence 2 of Ironhold");
    /* Equal military conquers, with no discards. */
    CHECK(
        ok(&s, 0, J("{\"action\":\"settle\",\"world\":%d,\"pay\":[]}", scrap)));
    CHECK(ok(&s, 0,
             J("{\"action\":\"settle\",\"world\":%d,"
               "\"world_mode\":\"conquer\"}",
               scrap)));
}

static void test_no_mixing_military_and_payment(void)
{
    sprint_state s;
    fresh(&s, 2);
    to_empire(&s, 0, inst("drone_picket", 0)); /* military 1 */
    int iron = inst("ironhold", 0);            /* defence 2 */
    to_hand(&s, 0, iron);
    fill_hand(&s, 0, 3);
    engine_error err;
    /* Military 1 plus one discarded card does not make 2. */
    CHECK_EQ_INT(check(&s, 0,
                       J("{\"action\":\"settle\",\"world\":%d,\"pay\":[%d]}",
                         iron, s.p[0].hand[1]),
                       &err),
                 ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "world");
    /* Paying for a military world without the ability is refused. */
    CHECK_EQ_INT(check(&s, 0,
                       J("{\"action\":\"settle\",\"world\":%d,"
                         "\"world_mode\":\"pay\",\"pay\":[%d]}",
                         iron, s.p[0].hand[1]),
                       &err),
                 ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "world_mode");
    CHECK(strstr(err.msg, "needs a card that allows it") != NULL);
    /* A non-military world cannot be "conquered". */
    int cob = inst("cobalt_shoals", 0);
    to_hand(&s, 0, cob);
    CHECK_EQ_INT(check(&s, 0,
                       J("{\"action\":\"settle\",\"world\":%d,"
                         "\"world_mode\":\"conquer\"}",
                         cob),
                       &err),
                 ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "world_mode");
}

static void test_pay_for_military_at_cost_minus_one_never_alien(void)
{
    sprint_state s;
    fresh(&s, 2);
    to_empire(&s, 0, inst("envoys_rotunda", 0));
    int ember = inst("ember_citadel", 0);   /* defence 4 -> pay 3 */
    int ruins = inst("murmuring_ruins", 0); /* alien, defence 5 */
    to_hand(&s, 0, ember);
    to_hand(&s, 0, ruins);
    fill_hand(&s, 0, 4);
    const uint8_t *h = s.p[0].hand;
    engine_error err;
    CHECK(ok(&s, 0,
             J("{\"action\":\"settle\",\"world\":%d,"
               "\"world_mode\":\"pay\",\"pay\":[%d,%d,%d]}",
               ember, h[2], h[3], h[4])));
    CHECK_EQ_INT(check(&s, 0,
                       J("{\"action\":\"settle\",\"world\":%d,"
                         "\"world_mode\":\"pay\",\"pay\":[%d,%d,%d,%d]}",
                         ember, h[2], h[3], h[4], h[5]),
                       &err),
                 ENGINE_EINVALID);
    CHECK_EQ_STR(err.msg, "cost 3 needs 3 discards, got 4");
    CHECK_EQ_INT(check(&s, 0,
                       J("{\"action\":\"settle\",\"world\":%d,"
                         "\"world_mode\":\"pay\",\"pay\":[%d,%d,%d,%d]}",
                         ruins, h[2], h[3], h[4], h[5]),
                       &err),
                 ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "world_mode");
    CHECK(strstr(err.msg, "alien world: it must be conquered") != NULL);
    /* A development placed with it grants the route to the world (order). */
    sprint_state t;
    fresh(&t, 2);
    int rot = inst("envoys_rotunda", 1);
    to_hand(&t, 0, rot);
    to_hand(&t, 0, ember);
    fill_hand(&t, 0, 5);
    h = t.p[0].hand;
    CHECK(ok(&t, 0,
             J("{\"action\":\"both\",\"development\":%d,\"world\":%d,"
               "\"world_mode\":\"pay\",\"pay\":[%d,%d,%d,%d,%d]}",
               rot, ember, h[2], h[3], h[4], h[5], h[6])));
}

static void test_convoy_places_a_second_world(void)
{
    sprint_state s;
    fresh(&s, 2);
    to_empire(&s, 0, inst("lancer_wing", 0));  /* military 3 */
    int base = inst("strike_staging_base", 0); /* def 3, mil 2, convoy mil */
    int ward = inst("warden_station", 0);      /* def 5 */
    int cob = inst("cobalt_shoals", 0);
    to_hand(&s, 0, base);
    to_hand(&s, 0, ward);
    to_hand(&s, 0, cob);
    fill_hand(&s, 0, 2);
    engine_error err;
    /* Without the convoy the second world cannot come; military 3 < 5. */
    CHECK_EQ_INT(
        check(&s, 0, J("{\"action\":\"settle\",\"world\":%d}", ward), &err),
        ENGINE_EINVALID);
    /* The first world's military (3 + 2) conquers the convoy's world. */
    CHECK(ok(&s, 0,
             J("{\"action\":\"settle\",\"world\":%d,"
               "\"convoy_world\":%d}",
               base, ward)));
    /* This convoy only allows military worlds. */
    CHECK_EQ_INT(check(&s, 0,
                       J("{\"action\":\"settle\",\"world\":%d,"
                         "\"convoy_world\":%d,\"pay\":[%d,%d]}",
                         base, cob, s.p[0].hand[3], s.p[0].hand[4]),
                       &err),
                 ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "convoy_world");
    /* A world without convoy cannot bring a second one. */
    CHECK_EQ_INT(check(&s, 0,
                       J("{\"action\":\"settle\",\"world\":%d,"
                         "\"convoy_world\":%d,\"pay\":[%d,%d]}",
                         cob, base, s.p[0].hand[3], s.p[0].hand[4]),
                       &err),
                 ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "convoy_world");
    CHECK(strstr(err.msg, "has no convoy ability") != NULL);
    json_t *orders[2] = {J("{\"action\":\"settle\",\"world\":%d,"
                           "\"convoy_world\":%d}",
                           base, ward),
                         NULL};
    place(&s, orders);
    CHECK_EQ_INT(s.p[0].nempire, 3);
    CHECK_EQ_INT(s.p[0].last.nplaced, 2);
    CHECK_EQ_INT(s.p[0].last.drew, 1); /* one settle bonus, not two */
    CHECK(invariant_ok(&s));
}

static void test_order_of_effects(void)
{
    sprint_state s;
    fresh(&s, 2);
    /* A development does not discount itself... */
    int yards = inst("shipwright_yards", 0);  /* cost 3, devs -1 */
    int guild = inst("prospectors_guild", 0); /* cost 2, worlds -1 */
    int cob = inst("cobalt_shoals", 0);       /* cost 2 */
    to_hand(&s, 0, yards);
    to_hand(&s, 0, guild);
    to_hand(&s, 0, cob);
    fill_hand(&s, 0, 4);
    const uint8_t *h = s.p[0].hand;
    CHECK(ok(&s, 0,
             J("{\"action\":\"develop\",\"development\":%d,"
               "\"pay\":[%d,%d]}",
               yards, h[3], h[4])));
    /* ...but does discount the world placed with it: 2 + (2 - 1) = 3. */
    CHECK(ok(&s, 0,
             J("{\"action\":\"both\",\"development\":%d,\"world\":%d,"
               "\"pay\":[%d,%d,%d]}",
               guild, cob, h[3], h[4], h[5])));
    /* A world's own military does not count towards itself. */
    sprint_state t;
    fresh(&t, 2);
    to_empire(&t, 0, inst("hired_blades_hall", 0)); /* military 2 */
    int keep = inst("redshard_keep", 0);            /* def 3, military 1 */
    to_hand(&t, 0, keep);
    engine_error err;
    CHECK_EQ_INT(
        check(&t, 0, J("{\"action\":\"settle\",\"world\":%d}", keep), &err),
        ENGINE_EINVALID);
    CHECK_EQ_STR(err.msg, "military 2 is below defence 3 of Redshard Keep");
    /* A development placed with it does: military 2 + 1 = 3. */
    int picket = inst("drone_picket", 0); /* cost 1, military 1 */
    to_hand(&t, 0, picket);
    fill_hand(&t, 0, 1);
    CHECK(ok(&t, 0,
             J("{\"action\":\"both\",\"development\":%d,\"world\":%d,"
               "\"pay\":[%d]}",
               picket, keep, t.p[0].hand[2])));
}

static void test_conditional_military(void)
{
    sprint_state s;
    fresh(&s, 2);
    to_empire(&s, 0, inst("insurgent_hunters", 0)); /* 1, +2 vs rebel */
    int hide = inst("outlaw_hideaway", 0);          /* rebel, def 2 */
    int iron = inst("ironhold", 0);                 /* amber, def 2 */
    int bast = inst("insurgent_bastion", 0);        /* rebel, def 4 */
    to_hand(&s, 0, hide);
    to_hand(&s, 0, iron);
    to_hand(&s, 0, bast);
    engine_error err;
    CHECK(ok(&s, 0, J("{\"action\":\"settle\",\"world\":%d}", hide)));
    CHECK_EQ_INT(
        check(&s, 0, J("{\"action\":\"settle\",\"world\":%d}", iron), &err),
        ENGINE_EINVALID);
    CHECK_EQ_INT(
        check(&s, 0, J("{\"action\":\"settle\",\"world\":%d}", bast), &err),
        ENGINE_EINVALID);
    CHECK_EQ_STR(err.msg, "military 3 is below defence 4 of Insurgent Bastion");
    /* Colour-only military: +3 against amber worlds. */
    to_empire(&s, 0, inst("amber_legion", 0)); /* 1, +3 vs amber */
    CHECK(ok(&s, 0, J("{\"action\":\"settle\",\"world\":%d}", iron)));
    int ember = inst("ember_citadel", 0); /* amber def 4: 2 + 3 */
    to_hand(&s, 0, ember);
    CHECK(ok(&s, 0, J("{\"action\":\"settle\",\"world\":%d}", ember)));
}

static void test_discounts_by_kind_and_colour(void)
{
    sprint_state s;
    fresh(&s, 2);
    to_empire(&s, 0, inst("biosphere_engineers", 0)); /* jade worlds -2 */
    to_empire(&s, 0, inst("prospectors_guild", 0));   /* worlds -1 */
    int tide = inst("tidelock_harbor", 0);            /* jade, cost 4 */
    int cob = inst("cobalt_shoals", 0);               /* azure, cost 2 */
    to_hand(&s, 0, tide);
    to_hand(&s, 0, cob);
    fill_hand(&s, 0, 2);
    const uint8_t *h = s.p[0].hand;
    CHECK(
        ok(&s, 0,
           J("{\"action\":\"settle\",\"world\":%d,\"pay\":[%d]}", tide, h[2])));
    CHECK(
        ok(&s, 0,
           J("{\"action\":\"settle\",\"world\":%d,\"pay\":[%d]}", cob, h[2])));
}

static void test_survey_card_once_per_game(void)
{
    sprint_state s;
    fresh(&s, 2);
    fill_hand(&s, 0, 3);
    engine_error err;
    /* Alone: cost 1 - 1 = 0. */
    CHECK(ok(&s, 0, J("{\"action\":\"develop\",\"survey\":true}")));
    CHECK_EQ_INT(check(&s, 0,
                       J("{\"action\":\"develop\",\"survey\":true,"
                         "\"development\":%d}",
                         s.p[0].hand[0]),
                       &err),
                 ENGINE_EINVALID);
    json_t *orders[2] = {J("{\"action\":\"develop\",\"survey\":true}"), NULL};
    place(&s, orders);
    CHECK(s.p[0].survey_used);
    CHECK_EQ_INT(s.p[0].empire[0], CS->ndeck + 0);
    CHECK_EQ_INT(sprint_empire_explore(&s, 0), 2);
    CHECK_EQ_INT(sprint_empire_military(&s, 0), 1);
    CHECK_EQ_INT(sprint_empire_income(&s, 0), 1);
    if (s.phase == SPRINT_PHASE_EXPLORE)
        discard_default(&s);
    CHECK_EQ_INT(
        check(&s, 0, J("{\"action\":\"develop\",\"survey\":true}"), &err),
        ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "survey");
    /* Seat 1's own survey card is still there; with a world it costs 1. */
    fill_hand(&s, 1, 2);
    int dust = inst("dustfall_outpost", 0);
    to_hand(&s, 1, dust);
    CHECK_EQ_INT(check(&s, 1,
                       J("{\"action\":\"both\",\"survey\":true,\"world\":%d,"
                         "\"pay\":[%d]}",
                         dust, s.p[1].hand[0]),
                       &err),
                 ENGINE_EINVALID); /* 1 + 1 = 2 needed */
    CHECK_EQ_STR(err.msg, "cost 2 needs 2 discards, got 1");
    CHECK(invariant_ok(&s));
}

static void test_conditional_bonus_not_multiplied(void)
{
    sprint_state s;
    fresh(&s, 2);
    int acc = inst("first_contact_accord", 0); /* 2 VP, +3 if alien world */
    to_empire(&s, 0, acc);
    CHECK_EQ_INT(sprint_empire_vp(&s, 0), 2);
    to_empire(&s, 0, inst("murmuring_ruins", 0)); /* 4 VP, alien */
    CHECK_EQ_INT(sprint_empire_vp(&s, 0), 2 + 4 + 3);
    to_empire(&s, 0, inst("murmuring_ruins", 1));
    CHECK_EQ_INT(sprint_empire_vp(&s, 0), 2 + 8 + 3); /* not +6 */
    /* Bonus income likewise: +2 once with any number of military worlds. */
    sprint_state t;
    fresh(&t, 2);
    to_empire(&t, 0, inst("household_legion", 0));
    CHECK_EQ_INT(sprint_empire_income(&t, 0), 0);
    to_empire(&t, 0, inst("ironhold", 0));
    to_empire(&t, 0, inst("ironhold", 1));
    CHECK_EQ_INT(sprint_empire_income(&t, 0), 2);
}

static void test_vp_per_counts_own_and_rival_empire(void)
{
    sprint_state s;
    fresh(&s, 3);
    to_empire(&s, 0, inst("grand_forum", 0)); /* 1 VP per development */
    to_empire(&s, 0, inst("salvage_crews", 0));
    to_empire(&s, 0, inst("cobalt_shoals", 0)); /* 2 VP, a world */
    CHECK_EQ_INT(sprint_empire_vp(&s, 0), 2 + 2);
    /* Listening Posts: 1 VP + 1 per 2 military icons of the chosen rival. */
    to_empire(&s, 1, inst("listening_posts", 0));
    to_empire(&s, 2, inst("lancer_wing", 0));  /* military 3, 1 VP */
    to_empire(&s, 2, inst("drone_picket", 0)); /* military 1 */
    s.p[1].rival = 0;
    CHECK_EQ_INT(sprint_empire_vp(&s, 1), 1);
    json_t *o = J("{\"action\":\"explore\",\"rival\":2}");
    sprint_plan plans[3];
    engine_error err = {0};
    CHECK_EQ_INT(sprint_plan_parse(&s, 1, o, &plans[1], &err), 0);
    json_decref(o);
    s.p[1].rival = 2;
    CHECK_EQ_INT(sprint_empire_vp(&s, 1), 1 + 2);
    o = J("{\"action\":\"explore\",\"rival\":1}");
    CHECK_EQ_INT(sprint_plan_parse(&s, 1, o, &plans[1], &err), ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "rival");
    json_decref(o);
    /* Solitaire: no bonus from another player. */
    sprint_state solo;
    fresh(&solo, 1);
    to_empire(&solo, 0, inst("listening_posts", 0));
    CHECK_EQ_INT(sprint_empire_vp(&solo, 0), 1);
    o = J("{\"action\":\"explore\",\"rival\":0}");
    CHECK_EQ_INT(sprint_plan_parse(&solo, 0, o, &plans[0], &err),
                 ENGINE_EINVALID);
    json_decref(o);
}

static void test_hand_limit_ten(void)
{
    sprint_state s;
    fresh(&s, 2);
    to_empire(&s, 0, inst("freight_consortium", 0)); /* income 3 */
    fill_hand(&s, 0, 9);
    fill_hand(&s, 1, 9);
    json_t *orders[2] = {
        J("{\"action\":\"develop\",\"survey\":true}"),
        J("{\"action\":\"develop\",\"survey\":true}"),
    };
    place(&s, orders); /* survey: +1 income each, no discards */
    CHECK_EQ_INT(s.phase, SPRINT_PHASE_LIMIT);
    CHECK_EQ_INT(s.p[0].nhand, 9 + 4);
    CHECK_EQ_INT(s.p[0].must_discard, 3);
    CHECK_EQ_INT(s.p[1].nhand, 10);
    CHECK_EQ_INT(s.p[1].must_discard, 0);
    CHECK_EQ_INT(sprint_window_seats(&s), 1);
    char id[ENGINE_WINDOW_ID_MAX];
    sprint_window_id(&s, id, sizeof id);
    CHECK_EQ_STR(id, "r1.limit");
    discard_default(&s);
    CHECK_EQ_INT(s.p[0].nhand, 10);
    CHECK_EQ_INT(s.p[0].last.limit_discarded, 3);
    CHECK_EQ_INT(s.round, 2);
    CHECK(invariant_ok(&s));
}

static void test_game_ends_after_scoring_at_50(void)
{
    sprint_state s;
    fresh(&s, 2);
    to_empire(&s, 0, inst("cobalt_shoals", 0)); /* 2 VP */
    s.p[0].chips = 47;
    s.p[1].chips = 49;
    place(&s, NULL);
    discard_default(&s);
    CHECK(!s.over); /* 49 and 49: go on */
    CHECK_EQ_INT(s.p[0].chips, 49);
    place(&s, NULL);
    discard_default(&s);
    CHECK(s.over);
    CHECK_EQ_INT(s.phase, SPRINT_PHASE_OVER);
    CHECK_EQ_INT(s.p[0].chips, 51);
    json_t *r = sprint_result_json(&s);
    REQUIRE(r);
    CHECK_EQ_INT(
        json_integer_value(json_array_get(json_object_get(r, "winners"), 0)),
        0);
    CHECK_EQ_INT(json_array_size(json_object_get(r, "winners")), 1);
    json_decref(r);
    char id[ENGINE_WINDOW_ID_MAX];
    CHECK(sprint_window_id(&s, id, sizeof id) < 0);
    CHECK(invariant_ok(&s));
}

static void test_tie_breaks(void)
{
    sprint_state s;
    fresh(&s, 3);
    s.over = 1;
    s.phase = SPRINT_PHASE_OVER;
    s.p[0].chips = s.p[1].chips = 55;
    s.p[2].chips = 30;
    fill_hand(&s, 0, 3);
    fill_hand(&s, 1, 2);
    to_empire(&s, 1, inst("salvage_crews", 0)); /* income 1: 2 + 1 = 3 */
    fill_hand(&s, 2, 9);
    json_t *r = sprint_result_json(&s);
    json_t *w = json_object_get(r, "winners");
    CHECK_EQ_INT(json_array_size(w), 2); /* 3 + 0 vs 2 + 1: shared */
    json_decref(r);
    to_hand(&s, 1, s.deck[s.ndeck - 1]);
    r = sprint_result_json(&s);
    w = json_object_get(r, "winners");
    CHECK_EQ_INT(json_array_size(w), 1);
    CHECK_EQ_INT(json_integer_value(json_array_get(w, 0)), 1);
    CHECK_EQ_INT(
        json_integer_value(json_array_get(json_object_get(r, "tiebreak"), 1)),
        4);
    json_decref(r);
}

static void test_reshuffle_when_deck_runs_out(void)
{
    sprint_state s;
    fresh(&s, 2);
    fill_hand(&s, 0, 3);
    /* Move all but one deck card to the discard pile. */
    while (s.ndeck > 1) {
        s.discard[s.ndiscard++] = s.deck[--s.ndeck];
    }
    int before = s.ndiscard;
    place(&s, NULL); /* seat 0 explores: draws 5 */
    CHECK_EQ_INT(s.reshuffles, 1);
    CHECK_EQ_INT(s.p[0].last.explore_drew, 5);
    CHECK_EQ_INT(s.ndeck + s.ndiscard, before + 1 - 10);
    CHECK(invariant_ok(&s));
    /* Nothing to draw at all: draws stop, nothing breaks. */
    sprint_state t;
    fresh(&t, 2);
    while (t.ndeck)
        to_hand(&t, t.ndeck % 2, t.deck[t.ndeck - 1]);
    place(&t, NULL);
    CHECK_EQ_INT(t.p[0].last.explore_drew, 0);
    CHECK(invariant_ok(&t));
}

static void test_income_dealt_in_vp_order_when_deck_is_short(void)
{
    sprint_state s;
    fresh(&s, 3);
    for (int i = 0; i < 3; i++)
        to_empire(&s, i, inst("orbital_workshop", i)); /* income 2 */
    /* Seats 1 and 2 tie for the most chips: seat 1 (nearest clockwise from
     * the first player) is served first, then 2, then 0. */
    s.p[0].chips = 5;
    s.p[1].chips = 9;
    s.p[2].chips = 9;
    for (int i = 0; i < 3; i++)
        fill_hand(&s, i, 2);
    /* Leave 3 cards in the deck after the explore draws: 3 seats x 5. */
    while (s.ndeck > 15 + 3)
        s.discard[s.ndiscard++] = s.deck[--s.ndeck];
    int discards = s.ndiscard;
    place(&s, NULL);
    CHECK_EQ_INT(s.ndeck, 3);
    discard_default(&s);
    /* The explore discards went on the pile too; income: seat 1 gets 2 from
     * the deck, seat 2 gets 1 and then 1 from the reshuffled discards. */
    CHECK_EQ_INT(s.p[1].last.income_drew, 2);
    CHECK_EQ_INT(s.p[2].last.income_drew, 2);
    CHECK_EQ_INT(s.p[0].last.income_drew, 2);
    CHECK_EQ_INT(s.reshuffles, 1);
    (void)discards;
    /* With an empty discard pile the last seat served goes short. */
    sprint_state t;
    fresh(&t, 3);
    for (int i = 0; i < 3; i++)
        to_empire(&t, i, inst("orbital_workshop", i));
    t.p[0].chips = 20;
    t.p[1].chips = 3;
    t.p[2].chips = 20;
    for (int i = 0; i < 3; i++)
        fill_hand(&t, i, 2);
    while (t.ndeck > 3)
        to_hand(&t, 1, t.deck[t.ndeck - 1]); /* seat 1 hoards the rest */
    json_t *orders[3];
    for (int i = 0; i < 3; i++)
        orders[i] = J("{\"action\":\"develop\",\"survey\":true}");
    place(&t, orders);
    /* Deck 3: seat 0 (20, first from seat 0) gets 3 (income 3 with survey)
     * then seat 1 and 2 get nothing. */
    CHECK_EQ_INT(t.p[0].last.income_drew, 3);
    CHECK_EQ_INT(t.p[1].last.income_drew, 0);
    CHECK_EQ_INT(t.p[2].last.income_drew, 0);
    if (t.phase == SPRINT_PHASE_LIMIT)
        discard_default(&t);
    CHECK(invariant_ok(&t));
}

static void test_top_military_draw(void)
{
    sprint_state s;
    fresh(&s, 2);
    to_empire(&s, 0, inst("triumph_broadcasts", 0)); /* military 1, draw 1 */
    CHECK_EQ_INT(sprint_top_military_draw(&s, 0), 1);
    to_empire(&s, 1, inst("drone_picket", 0)); /* tie at 1: still top */
    CHECK_EQ_INT(sprint_top_military_draw(&s, 0), 1);
    to_empire(&s, 1, inst("drone_picket", 1)); /* 2 > 1 */
    CHECK_EQ_INT(sprint_top_military_draw(&s, 0), 0);
    /* No military at all never counts as the highest. */
    sprint_state t;
    fresh(&t, 2);
    to_empire(&t, 0, inst("war_college", 0)); /* military 2, draw 2 */
    CHECK_EQ_INT(sprint_top_military_draw(&t, 0), 2);
    CHECK_EQ_INT(sprint_top_military_draw(&t, 1), 0);
}

static void test_solitaire_imaginary_empire_military(void)
{
    sprint_state s;
    fresh(&s, 1);
    to_empire(&s, 0, inst("triumph_broadcasts", 0)); /* military 1 */
    to_empire(&s, 0, inst("drone_picket", 0));       /* military 2 total */
    s.round = 2;
    CHECK_EQ_INT(sprint_top_military_draw(&s, 0), 1); /* 2 >= 2 */
    s.round = 3;
    CHECK_EQ_INT(sprint_top_military_draw(&s, 0), 0); /* 2 < 3 */
    json_t *v = sprint_view_json(&s, 0);
    CHECK_EQ_INT(json_integer_value(json_object_get(v, "imaginary_military")),
                 3);
    json_decref(v);
}

/* A whole game with bots; fills rounds and the final state. */
typedef struct game_log {
    int n;
    char *orders[2048];
    int seats[2048];
} game_log;

static void play_game(sprint_state *s, int seats, const char *const *levels,
                      uint64_t seed, game_log *record, int *bad_invariant,
                      int *bad_vp)
{
    engine_rng rng, brng;
    rng_for(&rng, seed, 1);
    rng_for(&brng, seed, 2);
    sprint_io io = {&rng, NULL};
    sprint_state_init(s, CS, seats, seats == 1, 50, 0, 0, &io);
    while (!s->over) {
        uint32_t m = sprint_window_seats(s);
        sprint_state before = *s;
        if (s->phase == SPRINT_PHASE_PLACE) {
            sprint_plan plans[SPRINT_MAX_SEATS];
            for (int i = 0; i < seats; i++) {
                json_t *o = sprint_bot_order(s, i, levels[i], &brng);
                engine_error err = {0};
                if (!o || sprint_plan_parse(s, i, o, &plans[i], &err)) {
                    fprintf(stderr, "bot order refused: %s\n", err.msg);
                    abort();
                }
                if (record && record->n < 2048) {
                    record->seats[record->n] = i;
                    record->orders[record->n++] = json_dumps(o, JSON_COMPACT);
                }
                json_decref(o);
            }
            sprint_resolve_place(s, plans, &io);
        } else {
            uint8_t ids[SPRINT_MAX_SEATS][SPRINT_MAX_CARDS];
            int counts[SPRINT_MAX_SEATS] = {0};
            for (int i = 0; i < seats; i++) {
                if (!(m >> i & 1))
                    continue;
                json_t *o = sprint_bot_order(s, i, levels[i], &brng);
                engine_error err = {0};
                if (!o ||
                    sprint_discard_parse(s, i, o, ids[i], &counts[i], &err)) {
                    fprintf(stderr, "bot discard refused: %s\n", err.msg);
                    abort();
                }
                if (record && record->n < 2048) {
                    record->seats[record->n] = i;
                    record->orders[record->n++] = json_dumps(o, JSON_COMPACT);
                }
                json_decref(o);
            }
            sprint_resolve_discards(s, ids, counts, &io);
        }
        if (bad_invariant && sprint_state_check(s, (char[200]){0}, 200))
            (*bad_invariant)++;
        /* Did this input score? Then chips grew by each empire's VP,
         * computed here independently from the card data. */
        int scored =
            before.phase != SPRINT_PHASE_LIMIT &&
            !(s->phase == SPRINT_PHASE_EXPLORE && s->round == before.round);
        for (int i = 0; bad_vp && i < seats; i++) {
            int want = 0;
            if (scored) {
                const sprint_player *p = &s->p[i];
                const sprint_player *r = s->solo ? NULL : &s->p[p->rival];
                for (int k = 0; k < p->nempire; k++) {
                    const sprint_design *d = sprint_design_of(CS, p->empire[k]);
                    want += d->vp;
                    for (int a = 0; a < d->nab; a++) {
                        const sprint_ability *ab = &d->ab[a];
                        const sprint_player *src =
                            ab->type == SPRINT_AB_VP_PER         ? p
                            : ab->type == SPRINT_AB_VP_PER_RIVAL ? r
                                                                 : NULL;
                        if (ab->type == SPRINT_AB_BONUS_IF && ab->amount) {
                            int any = 0;
                            for (int q = 0; q < p->nempire; q++)
                                if (q != k &&
                                    sprint_count_what(CS, &p->empire[q], 1,
                                                      ab->what, -1))
                                    any = 1;
                            want += any ? ab->amount : 0;
                        }
                        if (!src)
                            continue;
                        int cnt = sprint_count_what(CS, src->empire,
                                                    src->nempire, ab->what, -1);
                        want += ab->amount * (cnt / ab->every);
                    }
                }
            }
            if (s->p[i].chips - before.p[i].chips != want)
                (*bad_vp)++;
        }
    }
}

static void test_solitaire_exactly_seven_rounds(void)
{
    const char *lv[1] = {"basic"};
    for (int g = 0; g < 50; g++) {
        sprint_state s;
        play_game(&s, 1, lv, 300 + g, NULL, NULL, NULL);
        CHECK_EQ_INT(s.round, 7);
        CHECK(s.over);
    }
    /* Even past 50 chips the solitaire game goes on to round 7. */
    sprint_state s;
    fresh(&s, 1);
    s.p[0].chips = 60;
    place(&s, NULL);
    discard_default(&s);
    CHECK(!s.over);
    CHECK_EQ_INT(s.round, 2);
}

/* ------------------------------------------------------ orders & IDs -- */

static void test_order_errors_name_the_field(void)
{
    sprint_state s;
    fresh(&s, 2);
    fill_hand(&s, 0, 4);
    int dev = -1, world = -1;
    for (int i = 0; i < s.p[0].nhand; i++) {
        const sprint_design *d = sprint_design_of(CS, s.p[0].hand[i]);
        if (d->kind == SPRINT_WORLD)
            world = s.p[0].hand[i];
        else
            dev = s.p[0].hand[i];
    }
    static const struct {
        const char *order, *field;
    } cases[] = {
        {"{\"action\":\"dance\"}", "action"},
        {"{}", "action"},
        {"{\"action\":\"explore\",\"bogus\":1}", "bogus"},
        {"{\"action\":\"explore\",\"pay\":[]}", "pay"},
        {"{\"action\":\"develop\",\"world\":1}", "world"},
        {"{\"action\":\"settle\",\"development\":1}", "development"},
        {"{\"action\":\"develop\"}", "development"},
        {"{\"action\":\"develop\",\"development\":\"x\"}", "development"},
        {"{\"action\":\"develop\",\"development\":9999}", "development"},
        {"{\"action\":\"settle\"}", "world"},
        {"{\"action\":\"settle\",\"world\":1,\"world_mode\":\"steal\"}",
         "world_mode"},
        {"{\"action\":\"settle\",\"world\":1,\"convoy_mode\":\"pay\"}",
         "convoy_mode"},
        {"{\"action\":\"explore\",\"rival\":0}", "rival"},
        {"{\"action\":\"explore\",\"rival\":7}", "rival"},
        {"[1]", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        engine_error err;
        json_t *o = json_loads(cases[i].order, 0, NULL);
        REQUIRE(o);
        CHECKF(check(&s, 0, o, &err) == ENGINE_EINVALID, "accepted %s",
               cases[i].order);
        CHECKF(strcmp(err.field, cases[i].field) == 0,
               "%s: field \"%s\", want \"%s\" (%s)", cases[i].order, err.field,
               cases[i].field, err.msg);
    }
    engine_error err;
    if (dev >= 0) {
        CHECK_EQ_INT(
            check(&s, 0, J("{\"action\":\"settle\",\"world\":%d}", dev), &err),
            ENGINE_EINVALID);
        CHECK(strstr(err.msg, "is a development, not a world") != NULL);
        /* Paying with the card being placed. */
        const sprint_design *d = sprint_design_of(CS, dev);
        if (d->cost >= 2) {
            char buf[128];
            snprintf(buf, sizeof buf,
                     "{\"action\":\"develop\",\"development\":%d,\"pay\":[%d",
                     dev, dev);
            int need = d->cost - 1;
            size_t len = strlen(buf);
            for (int k = 1; k < need; k++)
                len += (size_t)snprintf(buf + len, sizeof buf - len, ",0");
            snprintf(buf + len, sizeof buf - len, "]}");
            CHECK_EQ_INT(check(&s, 0, json_loads(buf, 0, NULL), &err),
                         ENGINE_EINVALID);
            CHECK_EQ_STR(err.field, "pay");
        }
    }
    if (world >= 0) {
        CHECK_EQ_INT(
            check(&s, 0,
                  J("{\"action\":\"develop\",\"development\":%d}", world),
                  &err),
            ENGINE_EINVALID);
        CHECK(strstr(err.msg, "is a world, not a development") != NULL);
    }
    /* A card from another seat's hand is not yours. */
    fill_hand(&s, 1, 1);
    CHECK_EQ_INT(
        check(&s, 0,
              J("{\"action\":\"develop\",\"development\":%d}", s.p[1].hand[0]),
              &err),
        ENGINE_EINVALID);
    CHECK(strstr(err.msg, "is not in your hand") != NULL);
}

/* ------------------------------------------------------- engine API -- */

static const uint8_t seed32[ENGINE_SEED_BYTES] = {7, 7, 7};

static int submit(engine_game *g, int seat, const char *window, json_t *order,
                  engine_error *err)
{
    engine_input in;
    memset(&in, 0, sizeof in);
    in.seat = seat;
    in.kind = ENGINE_ORDER;
    in.window = window;
    in.payload = order;
    in.nonce[0] = (uint8_t)seat;
    memset(err, 0, sizeof *err);
    int rc = engine_apply(g, &in, NULL, err);
    json_decref(order);
    return rc;
}

static int hand_ids(const json_t *view, int *ids)
{
    const json_t *h = json_object_get(view, "hand");
    for (size_t i = 0; i < json_array_size(h); i++)
        ids[i] = (int)json_integer_value(
            json_object_get(json_array_get(h, i), "id"));
    return (int)json_array_size(h);
}

static void test_engine_views_hide_hands_and_payments(void)
{
    engine_error err = {0};
    engine_game *g = engine_create("sprint", "g-sprint", NULL, 2, seed32, &err);
    REQUIRE(g);
    json_t *v0 = engine_view(g, 0), *v1 = engine_view(g, 1),
           *pub = engine_view(g, ENGINE_PUBLIC);
    int h0[32], h1[32];
    int n0 = hand_ids(v0, h0), n1 = hand_ids(v1, h1);
    CHECK_EQ_INT(n0, SPRINT_START_HAND);
    CHECK_EQ_INT(n1, SPRINT_START_HAND);
    CHECK(json_object_get(pub, "hand") == NULL ||
          json_is_null(json_object_get(pub, "hand")));
    CHECK_EQ_STR(json_string_value(json_object_get(v0, "window")), "r1.place");
    CHECK_EQ_STR(json_string_value(json_object_get(v0, "phase")), "place");
    CHECK_EQ_INT(json_integer_value(json_object_get(v0, "deck")),
                 CS->ndeck - 2 * SPRINT_START_HAND);
    const json_t *pl = json_array_get(json_object_get(v1, "players"), 0);
    CHECK_EQ_INT(json_integer_value(json_object_get(pl, "hand")),
                 SPRINT_START_HAND);
    CHECK(json_is_true(json_object_get(pl, "survey_available")));
    /* Seat 0's hand ids appear nowhere in seat 1's or the public view. */
    char *t1 = json_dumps(v1, JSON_COMPACT),
         *tp = json_dumps(pub, JSON_COMPACT);
    const json_t *cards1 = json_object_get(v1, "cards");
    for (int i = 0; i < n0; i++) {
        const sprint_design *d = sprint_design_of(CS, h0[i]);
        int mine = 0;
        for (int k = 0; k < n1; k++)
            mine |= CS->deck_design[h1[k]] == CS->deck_design[h0[i]];
        if (!mine && CS->deck_design[h0[i]] != (uint8_t)CS->survey)
            CHECKF(json_object_get(cards1, d->key) == NULL,
                   "seat 1's view names seat 0's card %s", d->key);
    }
    CHECK(strstr(tp, "\"hand\":[") == NULL);
    free(t1);
    free(tp);
    json_decref(v0);
    json_decref(v1);
    json_decref(pub);

    /* Seat 0 develops the survey card free; seat 1 settles paying cards. */
    CHECK_EQ_INT(submit(g, 0, "r1.place",
                        J("{\"action\":\"develop\",\"survey\":true}"), &err),
                 0);
    json_t *legal = engine_legal(g, 1);
    REQUIRE(legal);
    json_t *ch = json_object_get(
        json_array_get(json_object_get(legal, "windows"), 0), "choices");
    CHECK(json_array_size(ch) >= 2); /* explore + survey at least */
    json_decref(legal);
    /* Find a paid world or development seat 1 can place. */
    v1 = engine_view(g, 1);
    n1 = hand_ids(v1, h1);
    json_decref(v1);
    int target = -1, cost = 0;
    for (int i = 0; i < n1 && target < 0; i++) {
        const sprint_design *d = sprint_design_of(CS, h1[i]);
        if (d->kind == SPRINT_DEVELOPMENT && d->cost >= 2 &&
            d->cost - 1 <= n1 - 1) {
            target = h1[i];
            cost = d->cost - 1;
        }
    }
    json_t *o;
    if (target >= 0) {
        char buf[256];
        int len = snprintf(
            buf, sizeof buf,
            "{\"action\":\"develop\",\"development\":%d,\"pay\":[", target);
        for (int i = 0, k = 0; i < n1 && k < cost; i++)
            if (h1[i] != target)
                len += snprintf(buf + len, sizeof buf - (size_t)len, "%s%d",
                                k++ ? "," : "", h1[i]);
        snprintf(buf + len, sizeof buf - (size_t)len, "]}");
        o = json_loads(buf, 0, NULL);
    } else {
        o = J("{\"action\":\"explore\"}");
    }
    /* An illegal order leaves the game unchanged. */
    uint8_t ha[ENGINE_HASH_BYTES], hb[ENGINE_HASH_BYTES];
    engine_hash(g, ha);
    CHECK_EQ_INT(
        submit(
            g, 1, "r1.place",
            J("{\"action\":\"develop\",\"survey\":true,\"pay\":[%d]}", h1[0]),
            &err),
        ENGINE_EINVALID);
    CHECK_EQ_STR(err.msg, "cost 0 needs 0 discards, got 1");
    CHECK_EQ_INT(
        submit(g, 1, "r9.place", J("{\"action\":\"explore\"}"), &err) != 0, 1);
    engine_hash(g, hb);
    CHECK(memcmp(ha, hb, sizeof ha) == 0);
    CHECK_EQ_INT(submit(g, 1, "r1.place", o, &err), 0);
    /* After reveal: seat 0 sees what seat 1 placed and how many it paid,
     * never which cards. */
    json_t *log0 = engine_log_since(g, 0, 0);
    char *tl = json_dumps(log0, JSON_COMPACT);
    CHECK(strstr(tl, "\"pay\"") == NULL);
    if (target >= 0) {
        char want[32];
        snprintf(want, sizeof want, "\"paid\":%d", cost);
        CHECK(strstr(tl, want) != NULL);
        for (int i = 0; i < n1; i++) {
            char needle[48];
            if (h1[i] == target)
                continue;
            snprintf(needle, sizeof needle, "\"cards\":[%d", h1[i]);
            CHECK(strstr(tl, needle) == NULL);
        }
    }
    free(tl);
    json_decref(log0);
    v0 = engine_view(g, 0);
    const json_t *p1 = json_array_get(json_object_get(v0, "players"), 1);
    const json_t *last = json_object_get(p1, "last");
    CHECK(json_is_object(last));
    if (target >= 0) {
        CHECK_EQ_INT(json_integer_value(json_object_get(last, "paid")), cost);
        CHECK_EQ_INT(
            json_integer_value(json_object_get(
                json_array_get(json_object_get(last, "placed"), 0), "id")),
            target);
    }
    json_decref(v0);
    /* Save, load, same hash. */
    json_t *saved = engine_save(g);
    engine_game *g2 = engine_load(saved, &err);
    REQUIRE(g2);
    engine_hash(g, ha);
    engine_hash(g2, hb);
    CHECK(memcmp(ha, hb, sizeof ha) == 0);
    json_decref(saved);
    engine_free(g2);
    engine_free(g);
}

static void test_engine_defaults_and_options(void)
{
    engine_error err = {0};
    const engine_ruleset *rs = engine_ruleset_find("sprint");
    REQUIRE(rs);
    CHECK_EQ_INT(rs->min_seats, 1);
    CHECK_EQ_INT(rs->max_seats, 4);
    struct {
        const char *opts;
        int seats;
        const char *field;
    } bad[] = {
        {"{\"solitaire\":true}", 2, "solitaire"},
        {"{\"solitaire\":false}", 1, "solitaire"},
        {"{\"target_vp\":5}", 2, "target_vp"},
        {"{\"target_vp\":\"50\"}", 2, "target_vp"},
        {"{\"campaign_conditions_met\":[\"magnate\"]}", 2,
         "campaign_conditions_met"},
        {"{\"campaign_conditions_met\":[\"nope\"]}", 1,
         "campaign_conditions_met"},
        {"{\"campaign_conditions_met\":[\"tycoon\",\"tycoon\"]}", 1,
         "campaign_conditions_met"},
        {"{\"colour\":1}", 2, "colour"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_t *o = json_loads(bad[i].opts, 0, NULL);
        memset(&err, 0, sizeof err);
        CHECKF(engine_check_options(rs, o, bad[i].seats, &err) ==
                   ENGINE_EINVALID,
               "accepted %s", bad[i].opts);
        CHECK_EQ_STR(err.field, bad[i].field);
        json_decref(o);
    }
    json_t *o = J("{\"target_vp\":30}");
    CHECK_EQ_INT(engine_check_options(rs, o, 3, &err), 0);
    json_decref(o);
    CHECK_EQ_INT(engine_check_options(rs, NULL, 5, &err), ENGINE_EINVALID);
    /* Timeout defaults: explore, then keep the first cards. */
    engine_game *g = engine_create("sprint", "g-def", NULL, 2, seed32, &err);
    REQUIRE(g);
    engine_input in = {
        .seat = ENGINE_PUBLIC, .kind = ENGINE_TIMEOUT, .window = "r1.place"};
    CHECK_EQ_INT(engine_apply(g, &in, NULL, &err), 0);
    engine_window w;
    CHECK_EQ_INT(engine_windows(g, &w, 1), 1);
    CHECK_EQ_STR(w.id, "r1.explore");
    CHECK_EQ_INT(w.seats, 3);
    json_t *v = engine_view(g, 0);
    int h[32];
    int n = hand_ids(v, h);
    json_decref(v);
    CHECK_EQ_INT(n, SPRINT_START_HAND + 5);
    in.window = "r1.explore";
    CHECK_EQ_INT(engine_apply(g, &in, NULL, &err), 0);
    v = engine_view(g, 0);
    int h2[32];
    int n2 = hand_ids(v, h2);
    json_decref(v);
    CHECK_EQ_INT(n2, SPRINT_START_HAND + 2);
    for (int i = 0; i < SPRINT_START_HAND + 2 && i < n2; i++)
        CHECK_EQ_INT(h2[i], h[i]);
    CHECK_EQ_INT(engine_windows(g, &w, 1), 1);
    CHECK_EQ_STR(w.id, "r2.place");
    engine_free(g);
}

static void test_engine_full_games_unique_windows(void)
{
    engine_error err = {0};
    engine_rng brng;
    rng_for(&brng, 99, 3);
    for (int seats = 1; seats <= 4; seats++) {
        json_t *opts = seats == 1
                           ? J("{\"campaign_conditions_met\":[\"magnate\"]}")
                           : NULL;
        engine_game *g =
            engine_create("sprint", "g-full", opts, seats, seed32, &err);
        json_decref(opts);
        REQUIRE(g);
        char seen[64][ENGINE_WINDOW_ID_MAX], last[ENGINE_WINDOW_ID_MAX] = "";
        int nseen = 0, dup = 0, steps = 0;
        while (!engine_is_over(g) && steps++ < 2000) {
            engine_window w;
            REQUIRE(engine_windows(g, &w, 1) == 1);
            /* A window id, once closed, never comes back. */
            if (strcmp(last, w.id) != 0) {
                for (int k = 0; k < nseen; k++)
                    dup += strcmp(seen[k], w.id) == 0;
                if (nseen < 64)
                    memcpy(seen[nseen++], w.id, sizeof w.id);
                memcpy(last, w.id, sizeof last);
            }
            for (int s = 0; s < seats; s++) {
                if (!(w.seats >> s & 1) || (w.submitted >> s & 1))
                    continue;
                engine_input in;
                REQUIRE(engine_bot_action(g, s, "basic", &brng, &in, &err) ==
                        0);
                int rc = engine_apply(g, &in, NULL, &err);
                json_decref((json_t *)in.payload);
                CHECKF(rc == 0, "bot input refused: %s", err.msg);
                if (rc)
                    break;
                break; /* windows may change after each input */
            }
        }
        CHECK_EQ_INT(dup, 0);
        CHECK(nseen >= 7);
        CHECK(engine_is_over(g));
        json_t *r = engine_result(g);
        REQUIRE(r);
        CHECK(json_is_array(json_object_get(r, "winners")));
        if (seats == 1) {
            CHECK_EQ_INT(json_integer_value(json_object_get(r, "rounds")), 7);
            CHECK(json_is_array(json_object_get(r, "conditions_met")));
            CHECK(json_is_array(json_object_get(r, "new_conditions")));
            sprint_final_stats st;
            CHECK_EQ_INT(sprint_final_stats_from_result(r, &st, &err), 0);
        }
        json_decref(r);
        engine_free(g);
    }
}

/* ---------------------------------------------------------- campaign -- */

static json_t *solo_result(int chips, int income, int mil_worlds, int colours)
{
    return J("{\"solitaire\":true,\"final\":{\"rounds\":7,\"chips\":%d,"
             "\"income\":%d,\"military\":3,\"military_worlds\":%d,"
             "\"colours\":%d,\"developments\":5,\"worlds\":5}}",
             chips, income, mil_worlds, colours);
}

static void test_campaign_conditions_and_progress(void)
{
    sprint_final_stats st = {7, 70, 10, 5, 4, 0x1e, 5, 8};
    CHECK_EQ_INT(sprint_campaign_evaluate(&st), SPRINT_COND_ALL);
    st.chips = 44;
    CHECK_EQ_INT(sprint_campaign_evaluate(&st), 0);
    st.chips = 50;
    st.colours = 0x0e; /* no violet */
    CHECK_EQ_INT(sprint_campaign_evaluate(&st),
                 SPRINT_COND_WARLORD | SPRINT_COND_TYCOON);
    engine_error err = {0};
    json_t *prog = NULL, *next = NULL;
    /* Game 1 meets magnate and tycoon: magnate is checked by default. */
    json_t *r = solo_result(70, 10, 0, 0);
    CHECK_EQ_INT(sprint_campaign_advance(NULL, r, NULL, &next, &err), 0);
    CHECK_EQ_STR(json_string_value(json_object_get(next, "status")), "active");
    CHECK_EQ_STR(
        json_string_value(json_array_get(json_object_get(next, "met"), 0)),
        "magnate");
    prog = next;
    /* Game 2 meets magnate again and tycoon: tycoon is new. Choosing the old
     * one is refused. */
    CHECK_EQ_INT(sprint_campaign_advance(prog, r, "magnate", &next, &err),
                 ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "choose");
    CHECK_EQ_INT(sprint_campaign_advance(prog, r, "tycoon", &next, &err), 0);
    json_decref(prog);
    prog = next;
    json_decref(r);
    r = solo_result(50, 3, 5, 0);
    CHECK_EQ_INT(sprint_campaign_advance(prog, r, NULL, &next, &err), 0);
    json_decref(prog);
    prog = next;
    json_decref(r);
    r = solo_result(50, 3, 0, 0x1e);
    CHECK_EQ_INT(sprint_campaign_advance(prog, r, NULL, &next, &err), 0);
    CHECK_EQ_STR(json_string_value(json_object_get(next, "status")), "won");
    CHECK_EQ_INT(json_array_size(json_object_get(next, "games")), 4);
    json_decref(prog);
    prog = next;
    /* A finished campaign takes no more games. */
    CHECK_EQ_INT(sprint_campaign_advance(prog, r, NULL, &next, &err),
                 ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "status");
    json_decref(prog);
    json_decref(r);
    /* A game with no new condition loses the campaign. */
    r = solo_result(70, 0, 0, 0);
    CHECK_EQ_INT(sprint_campaign_advance(NULL, r, NULL, &next, &err), 0);
    prog = next;
    CHECK_EQ_INT(sprint_campaign_advance(prog, r, NULL, &next, &err), 0);
    CHECK_EQ_STR(json_string_value(json_object_get(next, "status")), "lost");
    CHECK(json_is_null(json_object_get(
        json_array_get(json_object_get(next, "games"), 1), "checked")));
    json_decref(next);
    json_decref(prog);
    json_decref(r);
    /* Malformed input names the field. */
    json_t *badp = J("{\"games\":[],\"met\":[\"x\"],\"status\":\"active\"}");
    r = solo_result(70, 0, 0, 0);
    CHECK_EQ_INT(sprint_campaign_advance(badp, r, NULL, &next, &err),
                 ENGINE_EINVALID);
    CHECK_EQ_STR(err.field, "met");
    json_decref(badp);
    json_t *multi = J("{\"solitaire\":false}");
    CHECK_EQ_INT(sprint_campaign_advance(NULL, multi, NULL, &next, &err),
                 ENGINE_EINVALID);
    json_decref(multi);
    json_decref(r);
}

/* -------------------------------------------------- self-play checks -- */

static void free_log(game_log *lg)
{
    for (int i = 0; i < lg->n; i++)
        free(lg->orders[i]);
    lg->n = 0;
}

/* Replay recorded orders from the same seed; compare the saved states. */
static int replay_matches(const sprint_state *final, int seats, uint64_t seed,
                          const game_log *lg)
{
    engine_rng rng;
    rng_for(&rng, seed, 1);
    sprint_io io = {&rng, NULL};
    sprint_state s;
    sprint_state_init(&s, CS, seats, seats == 1, 50, 0, 0, &io);
    int k = 0;
    while (!s.over && k < lg->n) {
        uint32_t m = sprint_window_seats(&s);
        if (s.phase == SPRINT_PHASE_PLACE) {
            sprint_plan plans[SPRINT_MAX_SEATS];
            for (int i = 0; i < seats; i++) {
                json_t *o = json_loads(lg->orders[k++], 0, NULL);
                if (sprint_plan_parse(&s, i, o, &plans[i], NULL))
                    return 0;
                json_decref(o);
            }
            sprint_resolve_place(&s, plans, &io);
        } else {
            uint8_t ids[SPRINT_MAX_SEATS][SPRINT_MAX_CARDS];
            int counts[SPRINT_MAX_SEATS] = {0};
            for (int i = 0; i < seats; i++) {
                if (!(m >> i & 1))
                    continue;
                json_t *o = json_loads(lg->orders[k++], 0, NULL);
                if (sprint_discard_parse(&s, i, o, ids[i], &counts[i], NULL))
                    return 0;
                json_decref(o);
            }
            sprint_resolve_discards(&s, ids, counts, &io);
        }
    }
    json_t *a = sprint_state_save(final), *b = sprint_state_save(&s);
    int same = json_equal(a, b);
    json_decref(a);
    json_decref(b);
    return same;
}

static void test_random_selfplay_properties(void)
{
    int games = quick ? 1000 : 10000;
    int bad_inv = 0, bad_vp = 0, bad_replay = 0, replays = 0;
    static const char *const mixes[4][4] = {
        {"random", "random", "random", "random"},
        {"basic", "random", "basic", "random"},
        {"random", "basic", "random", "basic"},
        {"basic", "basic", "basic", "basic"},
    };
    clock_t t0 = clock();
    for (int g = 0; g < games; g++) {
        int seats = 1 + g % 4;
        sprint_state s;
        game_log lg = {0};
        int spot = g % 97 == 0;
        play_game(&s, seats, mixes[(g / 4) % 4], 10000 + (uint64_t)g,
                  spot ? &lg : NULL, &bad_inv, &bad_vp);
        if (!s.over)
            bad_inv++;
        if (spot) {
            replays++;
            bad_replay += !replay_matches(&s, seats, 10000 + (uint64_t)g, &lg);
            free_log(&lg);
        }
    }
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    printf("sprint self-play: %d games (1-4 seats) in %.2f s, %d replays\n",
           games, secs, replays);
    CHECK_EQ_INT(bad_inv, 0);
    CHECK_EQ_INT(bad_vp, 0);
    CHECK_EQ_INT(bad_replay, 0);
}

static void test_basic_beats_random(void)
{
    int games = 1000, wins = 0, rounds = 0;
    long chips = 0;
    for (int g = 0; g < games; g++) {
        sprint_state s;
        const char *lv[2];
        int b = g & 1;
        lv[b] = "basic";
        lv[!b] = "random";
        play_game(&s, 2, lv, 500000 + (uint64_t)g, NULL, NULL, NULL);
        wins += s.p[b].chips > s.p[!b].chips;
        chips += s.p[b].chips;
        rounds += s.round;
    }
    printf("sprint basic vs random (2p): basic wins %.1f%%, basic averages "
           "%.1f VP chips, games last %.2f rounds\n",
           100.0 * wins / games, (double)chips / games, (double)rounds / games);
    CHECK(wins * 10 >= games * 9);
    /* basic against itself: how fast does a decent player reach 50? */
    int r2 = 0;
    long top = 0;
    for (int g = 0; g < games; g++) {
        sprint_state s;
        static const char *const lv[2] = {"basic", "basic"};
        play_game(&s, 2, lv, 700000 + (uint64_t)g, NULL, NULL, NULL);
        r2 += s.round;
        top += s.p[0].chips > s.p[1].chips ? s.p[0].chips : s.p[1].chips;
    }
    printf("sprint basic vs basic (2p): %.2f rounds to end, winner averages "
           "%.1f VP chips\n",
           (double)r2 / games, (double)top / games);
    long solo = 0;
    int met[SPRINT_NCONDS] = {0};
    for (int g = 0; g < games; g++) {
        sprint_state s;
        static const char *const lv[1] = {"basic"};
        play_game(&s, 1, lv, 900000 + (uint64_t)g, NULL, NULL, NULL);
        solo += s.p[0].chips;
        sprint_final_stats st;
        sprint_final_stats_of(&s, 0, &st);
        unsigned m = sprint_campaign_evaluate(&st);
        for (int c = 0; c < SPRINT_NCONDS; c++)
            met[c] += m >> c & 1;
    }
    printf("sprint basic solitaire: %.1f VP chips after 7 rounds; conditions "
           "met: magnate %.0f%%, warlord %.0f%%, tycoon %.0f%%, pathfinder "
           "%.0f%%\n",
           (double)solo / games, 100.0 * met[0] / games, 100.0 * met[1] / games,
           100.0 * met[2] / games, 100.0 * met[3] / games);
    for (int c = 0; c < SPRINT_NCONDS; c++)
        CHECKF(met[c] > 0, "condition %d never met by basic", c);
}

int main(void)
{
    engine_error err = {0};
    quick = getenv("CONCLAVE_TEST_QUICK") != NULL &&
            strcmp(getenv("CONCLAVE_TEST_QUICK"), "1") == 0;
    if (engine_init(&err)) {
        fprintf(stderr, "engine_init: %s\n", err.msg);
        return 1;
    }
    CS = sprint_cards();
    if (!CS) {
        fprintf(stderr, "sprint card set not loaded\n");
        return 1;
    }
    RUN(test_builtin_cards);
    RUN(test_card_validation_rejects_bad_files);
    RUN(test_develop_alone_gets_discount);
    RUN(test_settle_draws_one_card);
    RUN(test_both_has_no_discount_and_no_draw);
    RUN(test_explore_arithmetic);
    RUN(test_military_conquest_needs_enough_military);
    RUN(test_no_mixing_military_and_payment);
    RUN(test_pay_for_military_at_cost_minus_one_never_alien);
    RUN(test_convoy_places_a_second_world);
    RUN(test_order_of_effects);
    RUN(test_conditional_military);
    RUN(test_discounts_by_kind_and_colour);
    RUN(test_survey_card_once_per_game);
    RUN(test_conditional_bonus_not_multiplied);
    RUN(test_vp_per_counts_own_and_rival_empire);
    RUN(test_hand_limit_ten);
    RUN(test_game_ends_after_scoring_at_50);
    RUN(test_tie_breaks);
    RUN(test_reshuffle_when_deck_runs_out);
    RUN(test_income_dealt_in_vp_order_when_deck_is_short);
    RUN(test_top_military_draw);
    RUN(test_solitaire_imaginary_empire_military);
    RUN(test_solitaire_exactly_seven_rounds);
    RUN(test_order_errors_name_the_field);
    RUN(test_engine_views_hide_hands_and_payments);
    RUN(test_engine_defaults_and_options);
    RUN(test_engine_full_games_unique_windows);
    RUN(test_campaign_conditions_and_progress);
    RUN(test_random_selfplay_properties);
    RUN(test_basic_beats_random);
    return TEST_SUMMARY();
}

/*
 * test_clock.c - the pure rules of asynchronous clocks (server/game/clock.h)
 * at their boundaries: which "clock" objects a lobby may give (every range's
 * first and last value admitted, one past refused, with the field named),
 * how long a window lasts by its kind, which seats a window waits on, and
 * the waits as the store is given them. No database, no wall clock.
 */
#include "server/game/clock.h"
#include "tests/unit/test.h"

#include <string.h>

/* clock_rules_check on the JSON text with async windows of 60..3600 s:
 * the kind, and the field named when refused (copied into field). */
static srv_kind check(const char *text, const char *mode, char *field,
                      json_t **out)
{
    json_error_t jerr;
    json_t *clock = json_loads(text, 0, &jerr);
    srv_error err = {0};
    json_t *res = NULL;
    srv_kind k = clock_rules_check(clock, mode, 60, 3600, &res, &err);
    if (field)
        snprintf(field, 64, "%s", err.field);
    if (out)
        *out = res;
    else
        json_decref(res);
    json_decref(clock);
    return k;
}

static int ok(const char *text)
{
    return check(text, "async", NULL, NULL) == SRV_OK;
}

/* Refused as invalid, naming field. */
static int refused(const char *text, const char *field)
{
    char got[64] = "";
    srv_kind k = check(text, "async", got, NULL);
    if (k != SRV_INVALID || strcmp(got, field) != 0) {
        fprintf(stderr, "  %s: kind %d field \"%s\", want \"%s\"\n", text, k,
                got, field);
        return 0;
    }
    return 1;
}

static void test_night_bounds(void)
{
    CHECK(ok("{\"night\":{\"start\":0,\"end\":1439,\"utc_offset\":0}}"));
    CHECK(ok("{\"night\":{\"start\":1439,\"end\":0,\"utc_offset\":-720}}"));
    CHECK(ok("{\"night\":{\"start\":1320,\"end\":360,\"utc_offset\":840}}"));
    CHECK(refused("{\"night\":{\"start\":1440,\"end\":0,\"utc_offset\":0}}",
                  "clock.night.start"));
    CHECK(refused("{\"night\":{\"start\":-1,\"end\":0,\"utc_offset\":0}}",
                  "clock.night.start"));
    CHECK(refused("{\"night\":{\"start\":0,\"end\":1440,\"utc_offset\":0}}",
                  "clock.night.end"));
    CHECK(refused("{\"night\":{\"start\":0,\"end\":-1,\"utc_offset\":0}}",
                  "clock.night.end"));
    CHECK(refused("{\"night\":{\"start\":0,\"end\":60,\"utc_offset\":841}}",
                  "clock.night.utc_offset"));
    CHECK(refused("{\"night\":{\"start\":0,\"end\":60,\"utc_offset\":-721}}",
                  "clock.night.utc_offset"));
    /* every member is required, and no other is allowed */
    CHECK(refused("{\"night\":{\"start\":0,\"end\":60}}",
                  "clock.night.utc_offset"));
    CHECK(refused("{\"night\":{\"end\":60,\"utc_offset\":0}}",
                  "clock.night.start"));
    CHECK(refused(
        "{\"night\":{\"start\":0,\"end\":60,\"utc_offset\":0,\"tz\":1}}",
        "clock.night"));
    CHECK(refused("{\"night\":5}", "clock.night"));
    CHECK(refused("{\"night\":{\"start\":1.5,\"end\":60,\"utc_offset\":0}}",
                  "clock.night.start"));
}

static void test_window_bounds(void)
{
    CHECK(ok("{\"windows\":{\"orders\":60,\"plays\":3600}}"));
    CHECK(ok("{\"windows\":{\"plays\":60}}"));
    CHECK(refused("{\"windows\":{\"orders\":59}}", "clock.windows.orders"));
    CHECK(refused("{\"windows\":{\"plays\":3601}}", "clock.windows.plays"));
    CHECK(refused("{\"windows\":{\"reactions\":60}}", "clock.windows"));
}

static void test_other_rules(void)
{
    CHECK(ok("{\"replace_after\":0}"));
    CHECK(ok("{\"replace_after\":100}"));
    CHECK(refused("{\"replace_after\":101}", "clock.replace_after"));
    CHECK(refused("{\"replace_after\":-1}", "clock.replace_after"));
    CHECK(ok("{\"vacation\":\"extend\"}"));
    CHECK(ok("{\"vacation\":\"bot\"}"));
    CHECK(refused("{\"vacation\":\"pause\"}", "clock.vacation"));
    CHECK(refused("{\"vacation\":1}", "clock.vacation"));
    CHECK(ok("{\"min_reputation\":{\"max_median_seconds\":1209600,"
             "\"max_missed\":1000000}}"));
    CHECK(ok("{\"min_reputation\":{\"max_missed\":0}}"));
    CHECK(refused("{\"min_reputation\":{\"max_median_seconds\":1209601}}",
                  "clock.min_reputation.max_median_seconds"));
    CHECK(refused("{\"min_reputation\":{\"max_missed\":1000001}}",
                  "clock.min_reputation.max_missed"));
    CHECK(refused("{\"min_reputation\":{\"max_missed\":-1}}",
                  "clock.min_reputation.max_missed"));
    CHECK(refused("{\"holidays\":1}", "clock"));
    /* mode and seconds are the clock's own, not rules */
    json_t *out = NULL;
    CHECK(check("{\"mode\":\"async\",\"seconds\":600}", "async", NULL, &out) ==
          SRV_OK);
    CHECK(out && json_object_size(out) == 0);
    json_decref(out);
}

static void test_rules_need_async(void)
{
    char field[64] = "";
    CHECK(check("{\"replace_after\":3}", "live", field, NULL) == SRV_INVALID);
    CHECK_EQ_STR(field, "clock.mode");
    CHECK(check("{\"night\":{\"start\":0,\"end\":60,\"utc_offset\":0}}", "none",
                field, NULL) == SRV_INVALID);
    /* no rules: any mode */
    CHECK(check("{\"mode\":\"live\",\"seconds\":60}", "live", NULL, NULL) ==
          SRV_OK);
    CHECK(check("{\"replace_after\":null}", "live", NULL, NULL) == SRV_OK);
}

static void test_normalised(void)
{
    json_t *out = NULL;
    REQUIRE(check("{\"mode\":\"async\",\"night\":{\"utc_offset\":-60,"
                  "\"end\":420,\"start\":1380},\"replace_after\":2,"
                  "\"vacation\":\"bot\",\"windows\":{\"plays\":90}}",
                  "async", NULL, &out) == SRV_OK);
    char *text = json_dumps(out, JSON_COMPACT | JSON_SORT_KEYS);
    CHECK_EQ_STR(text, "{\"night\":{\"end\":420,\"start\":1380,\"utc_offset\":"
                       "-60},\"replace_after\":2,\"vacation\":\"bot\","
                       "\"windows\":{\"plays\":90}}");
    free(text);
    json_decref(out);
    /* refused: *out is NULL */
    out = json_object();
    json_decref(out);
    CHECK(check("{\"replace_after\":500}", "async", NULL, &out) == SRV_INVALID);
    CHECK(out == NULL);
}

static engine_window window(engine_window_mode mode, uint32_t seats,
                            uint32_t submitted)
{
    engine_window w;
    memset(&w, 0, sizeof w);
    snprintf(w.id, sizeof w.id, "w");
    w.mode = mode;
    w.seats = seats;
    w.submitted = submitted;
    return w;
}

static void test_window_seconds(void)
{
    store_game meta;
    memset(&meta, 0, sizeof meta);
    meta.clock_seconds = 600;
    meta.clock_rules =
        json_pack("{s{sisi}}", "windows", "orders", 120, "plays", 45);
    engine_window sealed = window(ENGINE_SEALED, 3, 0);
    engine_window open = window(ENGINE_OPEN, 1, 0);
    CHECK_EQ_INT(clock_window_seconds(&meta, &sealed), 120);
    CHECK_EQ_INT(clock_window_seconds(&meta, &open), 45);
    json_decref(meta.clock_rules);
    /* absent or not positive: the clock's seconds */
    meta.clock_rules = json_pack("{s{si}}", "windows", "orders", 0);
    CHECK_EQ_INT(clock_window_seconds(&meta, &sealed), 600);
    CHECK_EQ_INT(clock_window_seconds(&meta, &open), 600);
    json_decref(meta.clock_rules);
    meta.clock_rules = json_pack("{s{si}}", "windows", "orders", 1);
    CHECK_EQ_INT(clock_window_seconds(&meta, &sealed), 1);
    CHECK_EQ_INT(clock_window_seconds(&meta, &open), 600);
    json_decref(meta.clock_rules);
    meta.clock_rules = json_object();
    CHECK_EQ_INT(clock_window_seconds(&meta, &sealed), 600);
    json_decref(meta.clock_rules);
}

static void test_window_waits(void)
{
    /* open: every seat that may act, submitted or not */
    engine_window w = window(ENGINE_OPEN, 0x5, 0x1);
    CHECK_EQ_INT(clock_window_waits(&w), 0x5);
    /* sealed: the seats without an order */
    w = window(ENGINE_SEALED, 0x7, 0x2);
    CHECK_EQ_INT(clock_window_waits(&w), 0x5);
    w.submitted = 0x7;
    CHECK_EQ_INT(clock_window_waits(&w), 0);
    /* parts with ready: a held order that is not ready still waits */
    w = window(ENGINE_SEALED, 0x7, 0x7);
    w.ready_part = 1;
    w.ready = 0x4;
    CHECK_EQ_INT(clock_window_waits(&w), 0x3);
    /* the highest seat counts */
    w = window(ENGINE_SEALED, 1u << (ENGINE_MAX_SEATS - 1), 0);
    CHECK_EQ_INT(clock_window_waits(&w), 1u << (ENGINE_MAX_SEATS - 1));
}

static void test_waiting_text(void)
{
    engine_window w[2];
    w[0] = window(ENGINE_SEALED, 0x7, 0x2);
    snprintf(w[0].id, sizeof w[0].id, "o1");
    w[1] = window(ENGINE_OPEN, 1u << (ENGINE_MAX_SEATS - 1), 0);
    snprintf(w[1].id, sizeof w[1].id, "p1");
    char *t = clock_waiting_text(w, 2);
    char want[160];
    snprintf(want, sizeof want,
             "[{\"w\":\"o1\",\"s\":0},{\"w\":\"o1\",\"s\":2},{\"w\":\"p1\","
             "\"s\":%d}]",
             ENGINE_MAX_SEATS - 1);
    CHECK_EQ_STR(t, want);
    free(t);
    t = clock_waiting_text(w, 0);
    CHECK_EQ_STR(t, "[]");
    free(t);
    t = clock_waiting_text(w, 1);
    CHECK_EQ_STR(t, "[{\"w\":\"o1\",\"s\":0},{\"w\":\"o1\",\"s\":2}]");
    free(t);
}

static void test_rule_int(void)
{
    store_game meta;
    memset(&meta, 0, sizeof meta);
    meta.clock_rules = json_pack("{sisb}", "replace_after", 3, "other", 1);
    CHECK_EQ_INT(clock_rule_int(&meta, "replace_after"), 3);
    CHECK_EQ_INT(clock_rule_int(&meta, "other"), 0);
    CHECK_EQ_INT(clock_rule_int(&meta, "absent"), 0);
    json_decref(meta.clock_rules);
}

int main(void)
{
    RUN(test_night_bounds);
    RUN(test_window_bounds);
    RUN(test_other_rules);
    RUN(test_rules_need_async);
    RUN(test_normalised);
    RUN(test_window_seconds);
    RUN(test_window_waits);
    RUN(test_waiting_text);
    RUN(test_rule_int);
    return TEST_SUMMARY();
}

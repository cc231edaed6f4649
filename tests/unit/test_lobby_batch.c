/*
 * test_lobby_batch.c - unit tests for server/lobby/lobby_batch.c: the first
 * change after a quiet spell goes at once, a burst is held and sent as a
 * few single events or one reload, each lobby once, and an interval of 0
 * sends every change.
 */
#include "server/lobby/lobby_batch.h"
#include "tests/unit/test.h"

#include <stdio.h>
#include <string.h>

typedef struct sent {
    int n;
    char ids[64][64]; /* "" for a reload */
} sent;

static void record(void *ctx, const char *id)
{
    sent *s = ctx;
    if (s->n < 64)
        snprintf(s->ids[s->n++], sizeof s->ids[0], "%s", id ? id : "");
}

static void test_first_change_goes_at_once(void)
{
    sent s = {0};
    lobby_batch b;
    lobby_batch_init(&b, record, &s, 500);
    lobby_batch_add(&b, "a", 100.0);
    CHECK_EQ_INT(s.n, 1);
    CHECK_EQ_STR(s.ids[0], "a");
    CHECK_EQ_INT(lobby_batch_wait_ms(&b, 100.0, 250), 250);
    /* nothing held: the interval ends quietly, the next goes at once */
    lobby_batch_flush(&b, 100.6);
    lobby_batch_add(&b, "b", 100.7);
    CHECK_EQ_INT(s.n, 2);
}

static void test_few_held_are_sent_one_by_one(void)
{
    sent s = {0};
    lobby_batch b;
    lobby_batch_init(&b, record, &s, 500);
    lobby_batch_add(&b, "a", 10.0);
    lobby_batch_add(&b, "a", 10.1);
    lobby_batch_add(&b, "b", 10.2);
    lobby_batch_add(&b, "a", 10.3);
    CHECK_EQ_INT(s.n, 1);
    CHECK(lobby_batch_wait_ms(&b, 10.3, 250) <= 201);
    lobby_batch_flush(&b, 10.4); /* not yet due */
    CHECK_EQ_INT(s.n, 1);
    lobby_batch_flush(&b, 10.5);
    REQUIRE(s.n == 3);
    CHECK_EQ_STR(s.ids[1], "a");
    CHECK_EQ_STR(s.ids[2], "b");
}

static void test_burst_becomes_one_reload(void)
{
    sent s = {0};
    lobby_batch b;
    lobby_batch_init(&b, record, &s, 500);
    char id[16];
    double t = 50.0;
    for (int i = 0; i < 150; i++) { /* 150 lobbies in 1.1 s */
        snprintf(id, sizeof id, "l%d", i);
        t += 1.1 / 150;
        lobby_batch_add(&b, id, t);
        lobby_batch_flush(&b, t);
    }
    lobby_batch_flush(&b, t + 1.0);
    lobby_batch_flush(&b, t + 2.0);
    CHECKF(s.n <= 4, "%d events for 150 changes", s.n);
    CHECK_EQ_STR(s.ids[0], "l0");
    for (int i = 1; i < s.n; i++)
        CHECK_EQ_STR(s.ids[i], ""); /* reloads */
}

static void test_reload_request_is_held(void)
{
    sent s = {0};
    lobby_batch b;
    lobby_batch_init(&b, record, &s, 500);
    lobby_batch_add(&b, "a", 1.0);
    lobby_batch_add(&b, NULL, 1.1);
    lobby_batch_add(&b, "b", 1.2);
    lobby_batch_flush(&b, 1.6);
    REQUIRE(s.n == 2);
    CHECK_EQ_STR(s.ids[1], "");
}

static void test_zero_interval_sends_each(void)
{
    sent s = {0};
    lobby_batch b;
    lobby_batch_init(&b, record, &s, 0);
    lobby_batch_add(&b, "a", 1.0);
    lobby_batch_add(&b, "a", 1.0);
    lobby_batch_add(&b, "b", 1.0);
    CHECK_EQ_INT(s.n, 3);
    CHECK_EQ_INT(lobby_batch_wait_ms(&b, 1.0, 250), 250);
}

int main(void)
{
    RUN(test_first_change_goes_at_once);
    RUN(test_few_held_are_sent_one_by_one);
    RUN(test_burst_becomes_one_reload);
    RUN(test_reload_request_is_held);
    RUN(test_zero_interval_sends_each);
    return TEST_SUMMARY();
}

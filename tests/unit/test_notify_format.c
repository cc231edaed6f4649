/*
 * test_notify_format.c - the chat bodies of webhooks (server/notify/
 * notify_format.c): Discord's {"content","username","allowed_mentions"}
 * within 2000 characters with the link kept, Slack's {"text"} with &, <
 * and > escaped, the format names, and digests of chat bodies.
 */
#include "server/notify/notify_format.h"
#include "tests/unit/test.h"

#include <stdlib.h>
#include <string.h>

static json_t *parsed(char *body)
{
    json_t *j = body ? json_loads(body, 0, NULL) : NULL;
    free(body);
    return j;
}

static size_t code_points(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

static void test_names(void)
{
    notify_format f = NOTIFY_FORMAT_SLACK;
    CHECK(notify_format_parse("conclave", &f) == 0 &&
          f == NOTIFY_FORMAT_CONCLAVE);
    CHECK(notify_format_parse("discord", &f) == 0 &&
          f == NOTIFY_FORMAT_DISCORD);
    CHECK(notify_format_parse("slack", &f) == 0 && f == NOTIFY_FORMAT_SLACK);
    CHECK(notify_format_parse("Slack", &f) != 0);
    CHECK(notify_format_parse("teams", &f) != 0);
    CHECK(notify_format_parse(NULL, &f) != 0);
    CHECK(notify_format_body(NOTIFY_FORMAT_CONCLAVE, "x") == NULL);
}

static void test_discord(void)
{
    json_t *j = parsed(notify_format_body(
        NOTIFY_FORMAT_DISCORD,
        "The game waits on you.\r\n\r\nOpen the game: https://x/game/g1\r\n"));
    REQUIRE(j);
    CHECK_EQ_STR(json_string_value(json_object_get(j, "content")),
                 "The game waits on you.\n\nOpen the game: https://x/game/g1");
    CHECK_EQ_STR(json_string_value(json_object_get(j, "username")), "Conclave");
    /* No mention in a message pings anyone. */
    json_t *parse =
        json_object_get(json_object_get(j, "allowed_mentions"), "parse");
    CHECK(json_is_array(parse) && json_array_size(parse) == 0);
    CHECK_EQ_INT(json_object_size(j), 3);
    json_decref(j);
}

static void test_discord_long(void)
{
    /* 3000 characters of two bytes each, then the link paragraph. */
    size_t n = 3000;
    char *text = malloc(2 * n + 64);
    REQUIRE(text);
    for (size_t i = 0; i < n; i++) { /* U+00E9 */
        text[2 * i] = (char)0xc3;
        text[2 * i + 1] = (char)0xa9;
    }
    static const char link[] = "\r\n\r\nOpen the game: https://x/game/g1\r\n";
    memcpy(text + 2 * n, link, sizeof link);
    json_t *j = parsed(notify_format_body(NOTIFY_FORMAT_DISCORD, text));
    free(text);
    REQUIRE(j);
    const char *content = json_string_value(json_object_get(j, "content"));
    REQUIRE(content);
    CHECK_EQ_INT(code_points(content), NOTIFY_DISCORD_MAX);
    const char *tail = "\xe2\x80\xa6\n\nOpen the game: https://x/game/g1";
    CHECK(strlen(content) > strlen(tail) &&
          strcmp(content + strlen(content) - strlen(tail), tail) == 0);
    json_decref(j);

    /* Exactly at the limit: kept whole. */
    char *at = malloc(NOTIFY_DISCORD_MAX + 1);
    REQUIRE(at);
    memset(at, 'a', NOTIFY_DISCORD_MAX);
    at[NOTIFY_DISCORD_MAX] = '\0';
    j = parsed(notify_format_body(NOTIFY_FORMAT_DISCORD, at));
    CHECK_EQ_STR(json_string_value(json_object_get(j, "content")), at);
    free(at);
    json_decref(j);
}

static void test_slack(void)
{
    json_t *j = parsed(notify_format_body(
        NOTIFY_FORMAT_SLACK, "Ann & Bob <!channel> a>b\r\nnext\r\n"));
    REQUIRE(j);
    CHECK_EQ_STR(json_string_value(json_object_get(j, "text")),
                 "Ann &amp; Bob &lt;!channel&gt; a&gt;b\nnext");
    CHECK_EQ_INT(json_object_size(j), 1);
    json_decref(j);
    char *e = notify_slack_escape("&&<>");
    CHECK_EQ_STR(e, "&amp;&amp;&lt;&gt;");
    free(e);
}

static void test_digest(void)
{
    json_t *bodies = json_array();
    json_array_append_new(
        bodies, parsed(notify_format_body(NOTIFY_FORMAT_SLACK, "one & two")));
    json_array_append_new(
        bodies, parsed(notify_format_body(NOTIFY_FORMAT_SLACK, "<3")));
    json_t *j = parsed(notify_format_digest(NOTIFY_FORMAT_SLACK, bodies));
    /* Escaped once, not twice. */
    CHECK_EQ_STR(json_string_value(json_object_get(j, "text")),
                 "one &amp; two\n---\n&lt;3");
    json_decref(j);
    json_decref(bodies);

    bodies = json_array();
    json_array_append_new(
        bodies, parsed(notify_format_body(NOTIFY_FORMAT_DISCORD, "first")));
    json_array_append_new(
        bodies, parsed(notify_format_body(NOTIFY_FORMAT_DISCORD, "second")));
    j = parsed(notify_format_digest(NOTIFY_FORMAT_DISCORD, bodies));
    CHECK_EQ_STR(json_string_value(json_object_get(j, "content")),
                 "first\n---\nsecond");
    CHECK(json_object_get(j, "allowed_mentions") != NULL);
    json_decref(j);
    json_decref(bodies);
}

int main(void)
{
    RUN(test_names);
    RUN(test_discord);
    RUN(test_discord_long);
    RUN(test_slack);
    RUN(test_digest);
    return TEST_SUMMARY();
}

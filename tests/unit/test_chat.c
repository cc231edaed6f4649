/*
 * test_chat.c - unit tests for server/game/chat.c's text rule
 * (chat_check_text): 1 to CHAT_TEXT_MAX characters counted as code points,
 * UTF-8 only (no overlong forms, surrogates or values past U+10FFFF), no
 * control characters but newline and tab, not blank.
 */
#include "server/game/chat.h"
#include "tests/unit/test.h"

#include <stdlib.h>
#include <string.h>

static srv_kind check(const char *text)
{
    srv_error e = {0};
    srv_kind k = chat_check_text(text, &e);
    if (k != SRV_OK)
        CHECK_EQ_STR(e.field, "text");
    return k;
}

/* n copies of the UTF-8 sequence unit, NUL-terminated (caller frees). */
static char *repeat(const char *unit, size_t n)
{
    size_t len = strlen(unit);
    char *s = malloc(len * n + 1);
    for (size_t i = 0; i < n; i++)
        memcpy(s + i * len, unit, len);
    s[len * n] = '\0';
    return s;
}

static void test_plain_text_passes(void)
{
    CHECK_EQ_INT(check("hello"), SRV_OK);
    CHECK_EQ_INT(check("two\nlines\tand a tab"), SRV_OK);
    CHECK_EQ_INT(check("\xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x9a\x80"),
                 SRV_OK);
}

static void test_length_counts_characters(void)
{
    char *at = repeat("\xc3\xa9", CHAT_TEXT_MAX); /* 2 bytes each */
    char *over = repeat("\xf0\x9f\x9a\x80", CHAT_TEXT_MAX + 1);
    CHECK_EQ_INT(check(at), SRV_OK);
    CHECK_EQ_INT(check(over), SRV_TOO_LARGE);
    free(at);
    free(over);
}

static void test_empty_and_blank_refused(void)
{
    CHECK_EQ_INT(check(""), SRV_INVALID);
    CHECK_EQ_INT(check("  \n\t "), SRV_INVALID);
}

static void test_control_characters_refused(void)
{
    CHECK_EQ_INT(check("bell\x07"), SRV_INVALID);
    CHECK_EQ_INT(check("esc\x1b[31m"), SRV_INVALID);
    CHECK_EQ_INT(check("del\x7f"), SRV_INVALID);
    CHECK_EQ_INT(check("cr\r\n"), SRV_INVALID);
}

static void test_bad_utf8_refused(void)
{
    CHECK_EQ_INT(check("\xff"), SRV_INVALID);
    CHECK_EQ_INT(check("cut \xc3"), SRV_INVALID);
    CHECK_EQ_INT(check("\xc0\xaf"), SRV_INVALID);             /* overlong */
    CHECK_EQ_INT(check("\xe0\x80\xaf"), SRV_INVALID);         /* overlong */
    CHECK_EQ_INT(check("\xed\xa0\x80"), SRV_INVALID);         /* surrogate */
    CHECK_EQ_INT(check("\xf4\x90\x80\x80"), SRV_INVALID);     /* > U+10FFFF */
    CHECK_EQ_INT(check("\xf8\x88\x80\x80\x80"), SRV_INVALID); /* 5 bytes */
}

int main(void)
{
    RUN(test_plain_text_passes);
    RUN(test_length_counts_characters);
    RUN(test_empty_and_blank_refused);
    RUN(test_control_characters_refused);
    RUN(test_bad_utf8_refused);
    return TEST_SUMMARY();
}

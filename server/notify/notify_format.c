/*
 * notify_format.c - Discord and Slack bodies of the notifier's plain words
 * (see notify_format.h).
 */
#include "server/notify/notify_format.h"

#include <stdlib.h>
#include <string.h>

#define DISCORD_NAME "Conclave"
#define ELLIPSIS "\xe2\x80\xa6" /* U+2026, one character */
#define DIGEST_RULE "\n---\n"

int notify_format_parse(const char *name, notify_format *out)
{
    static const struct {
        const char *name;
        notify_format f;
    } names[] = {{"conclave", NOTIFY_FORMAT_CONCLAVE},
                 {"discord", NOTIFY_FORMAT_DISCORD},
                 {"slack", NOTIFY_FORMAT_SLACK}};
    for (size_t i = 0; name && i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i].name) == 0) {
            *out = names[i].f;
            return 0;
        }
    return -1;
}

/* text with CRLF as LF and trailing line ends dropped: malloc'd. */
static char *lf_lines(const char *text)
{
    size_t n = strlen(text);
    char *out = malloc(n + 1), *o = out;
    if (!out)
        return NULL;
    for (const char *c = text; *c; c++)
        if (!(c[0] == '\r' && c[1] == '\n'))
            *o++ = *c;
    while (o > out && (o[-1] == '\n' || o[-1] == '\r'))
        o--;
    *o = '\0';
    return out;
}

/* The code points of UTF-8 text s (0 for NULL). */
static size_t code_points(const char *s)
{
    size_t n = 0;
    for (const char *c = s; c && *c; c++)
        n += ((unsigned char)*c & 0xC0) != 0x80;
    return n;
}

/* The byte length of s's first `keep` code points. */
static size_t prefix_bytes(const char *s, size_t keep)
{
    size_t i = 0, seen = 0;
    for (; s[i]; i++) {
        if (((unsigned char)s[i] & 0xC0) != 0x80 && seen++ == keep)
            break;
    }
    return i;
}

/* text in at most NOTIFY_DISCORD_MAX code points: as it is, or its head
 * cut with an ellipsis and then its last paragraph (after the last blank
 * line), when that is short. malloc'd. */
static char *discord_fit(char *text)
{
    if (code_points(text) <= NOTIFY_DISCORD_MAX)
        return text;
    const char *tail = NULL;
    for (const char *p = strstr(text, "\n\n"); p; p = strstr(p + 1, "\n\n"))
        tail = p;
    size_t tail_len = tail ? strlen(tail) : 0;
    if (tail && code_points(tail) > NOTIFY_DISCORD_MAX / 2) {
        tail = NULL;
        tail_len = 0;
    }
    size_t keep = NOTIFY_DISCORD_MAX - 1 - code_points(tail);
    size_t head = prefix_bytes(text, keep);
    char *out = malloc(head + strlen(ELLIPSIS) + tail_len + 1);
    if (out) {
        memcpy(out, text, head);
        memcpy(out + head, ELLIPSIS, strlen(ELLIPSIS));
        if (tail_len)
            memcpy(out + head + strlen(ELLIPSIS), tail, tail_len);
        out[head + strlen(ELLIPSIS) + tail_len] = '\0';
    }
    free(text);
    return out;
}

char *notify_slack_escape(const char *text)
{
    size_t n = 0;
    for (const char *c = text; *c; c++)
        n += *c == '&' ? 5 : (*c == '<' || *c == '>') ? 4 : 1;
    char *out = malloc(n + 1), *o = out;
    if (!out)
        return NULL;
    for (const char *c = text; *c; c++) {
        const char *e = *c == '&'   ? "&amp;"
                        : *c == '<' ? "&lt;"
                        : *c == '>' ? "&gt;"
                                    : NULL;
        if (e) {
            memcpy(o, e, strlen(e));
            o += strlen(e);
        } else
            *o++ = *c;
    }
    *o = '\0';
    return out;
}

/* The body of a message already in the format's own text (LF lines; for
 * Slack already escaped). Takes text. */
static char *body_of(notify_format f, char *text)
{
    if (!text)
        return NULL;
    json_t *j = NULL;
    if (f == NOTIFY_FORMAT_DISCORD) {
        text = discord_fit(text);
        /* Nothing in a message may ping anyone (@everyone, a role). */
        j = text ? json_pack("{ss ss s{s[]}}", "content", text, "username",
                             DISCORD_NAME, "allowed_mentions", "parse")
                 : NULL;
    } else if (f == NOTIFY_FORMAT_SLACK)
        j = json_pack("{ss}", "text", text);
    free(text);
    char *s = j ? json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    json_decref(j);
    return s;
}

char *notify_format_body(notify_format f, const char *text)
{
    if (f == NOTIFY_FORMAT_CONCLAVE || !text)
        return NULL;
    char *lines = lf_lines(text);
    if (lines && f == NOTIFY_FORMAT_SLACK) {
        char *escaped = notify_slack_escape(lines);
        free(lines);
        lines = escaped;
    }
    return body_of(f, lines);
}

char *notify_format_digest(notify_format f, const json_t *bodies)
{
    const char *key = f == NOTIFY_FORMAT_DISCORD ? "content" : "text";
    if (f == NOTIFY_FORMAT_CONCLAVE)
        return NULL;
    size_t len = 1, i;
    json_t *b;
    json_array_foreach(bodies, i, b)
    {
        const char *t = json_string_value(json_object_get(b, key));
        len += (t ? strlen(t) : 0) + strlen(DIGEST_RULE);
    }
    char *text = malloc(len);
    if (!text)
        return NULL;
    size_t at = 0; /* bounded appends at a known offset */
    json_array_foreach(bodies, i, b)
    {
        const char *t = json_string_value(json_object_get(b, key));
        size_t rule = i > 0 ? strlen(DIGEST_RULE) : 0, n = t ? strlen(t) : 0;
        memcpy(text + at, DIGEST_RULE, rule);
        if (n)
            memcpy(text + at + rule, t, n);
        at += rule + n;
    }
    text[at] = '\0';
    return body_of(f, text);
}

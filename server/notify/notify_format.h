/*
 * notify_format.h - the bodies a webhook may be sent in: "conclave" (the
 * notifier's own JSON, notify_plan.h), "discord" (Discord's incoming
 * webhook: {"content","username","allowed_mentions"}, the content at most
 * NOTIFY_DISCORD_MAX characters) and "slack" (Slack's incoming webhook:
 * {"text"}, with &, < and > escaped as Slack's mrkdwn requires, so no name
 * or message can make a link, a mention or an @channel). The chat bodies
 * carry the same plain words as the mail (notify_plan.c). Pure: no I/O,
 * unit-tested in tests/unit/test_notify_format.c.
 */
#ifndef CONCLAVE_NOTIFY_FORMAT_H
#define CONCLAVE_NOTIFY_FORMAT_H

#include <jansson.h>

#define NOTIFY_DISCORD_MAX 2000 /* characters (code points) of "content" */

typedef enum notify_format {
    NOTIFY_FORMAT_CONCLAVE,
    NOTIFY_FORMAT_DISCORD,
    NOTIFY_FORMAT_SLACK
} notify_format;

/* The format named name ("conclave", "discord", "slack"): 0 and *out set,
 * or -1 for any other name. */
int notify_format_parse(const char *name, notify_format *out);

/* The chat body of a plain text (CRLF or LF lines) in format f (discord or
 * slack): compact JSON, malloc'd; NULL when out of memory or for
 * NOTIFY_FORMAT_CONCLAVE. A Discord text too long is cut, at a character
 * boundary, so that its last paragraph (the game's link) is kept. */
char *notify_format_body(notify_format f, const char *text);

/* A digest in format f of chat bodies of that format (their parsed JSON):
 * their messages one after another, as one body. malloc'd, or NULL. */
char *notify_format_digest(notify_format f, const json_t *bodies);

/* Slack's escaping of text (& as &amp;, < as &lt;, > as &gt;): malloc'd,
 * or NULL. */
char *notify_slack_escape(const char *text);

#endif

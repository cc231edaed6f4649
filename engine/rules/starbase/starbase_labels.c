/*
 * starbase_labels.c - Starbase's windows in words for players (the
 * ruleset's window_label: "management.6" -> "Management phase"). The
 * windows are the core's priority steps, STEP.SERIAL, with the step names
 * of starbase_turn.c.
 */
#include <stdio.h>
#include <string.h>

int sb_window_label(const char *window, char *out, size_t n);

int sb_window_label(const char *window, char *out, size_t n)
{
    static const struct {
        const char *step, *words;
    } steps[] = {{"setup", "Setup: place your starting cards"},
                 {"management", "Management phase"},
                 {"battle", "Battle: respond or pass"},
                 {"discard", "Discard down to your hand size"}};
    const char *dot = strchr(window, '.');
    size_t len = dot ? (size_t)(dot - window) : strlen(window);
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
        if (strlen(steps[i].step) == len &&
            strncmp(window, steps[i].step, len) == 0) {
            snprintf(out, n, "%s", steps[i].words);
            return 0;
        }
    return -1;
}

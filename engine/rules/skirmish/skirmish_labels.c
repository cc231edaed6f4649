/*
 * skirmish_labels.c - Skirmish's windows in words for players (the
 * ruleset's window_label: "exec.43" -> "The stack: respond or pass"). The
 * sealed windows are skirmish_muster.c's, the others the core's priority
 * steps (STEP.SERIAL) of skirmish_priority.c.
 */
#include <stdio.h>
#include <string.h>

int sk_window_label(const char *window, char *out, size_t n);

int sk_window_label(const char *window, char *out, size_t n)
{
    static const struct {
        const char *step, *words;
    } steps[] = {{"muster", "Muster: choose your squad"},
                 {"deploy", "Deployment: place your units"},
                 {"start", "Start of the turn"},
                 {"choice", "Your turn: move, act or pass"},
                 {"exec", "The stack: respond or pass"},
                 {"handover", "Handover: respond or pass"},
                 {"handover_all", "Handover: respond or pass"},
                 {"end", "End of the turn"}};
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

/*
 * sprint_labels.c - Galactic Sprint's windows in words for players (the
 * ruleset's window_label: "r3.place" -> "Round 3: choose your actions").
 * The ids are sprint_rules.c's sprint_window_id.
 */
#include <stdio.h>
#include <string.h>

int sprint_window_label(const char *window, char *out, size_t n);

int sprint_window_label(const char *window, char *out, size_t n)
{
    static const struct {
        const char *phase, *words;
    } phases[] = {{"place", "choose your actions"},
                  {"explore", "explore: keep a card"},
                  {"limit", "discard down to the hand limit"}};
    int round, used = 0;
    char phase[24];
    if (sscanf(window, "r%d.%23[a-z]%n", &round, phase, &used) != 2 ||
        window[used] != '\0')
        return -1;
    for (size_t i = 0; i < sizeof phases / sizeof phases[0]; i++)
        if (strcmp(phase, phases[i].phase) == 0) {
            snprintf(out, n, "Round %d: %s", round, phases[i].words);
            return 0;
        }
    return -1;
}

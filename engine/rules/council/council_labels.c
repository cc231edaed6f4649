/*
 * council_labels.c - Galactic Council's windows in words for players (the
 * ruleset's window_label: "r2.pick1" -> "Strategy pick (round 2)", "r2.picks"
 * -> "Strategy picks: your ranking (round 2)", "r2.council"
 * -> "Council: your vote (round 2)"). The ids are council_round.c's
 * cnc_window_id.
 */
#include <stdio.h>
#include <string.h>

int cnc_window_label(const char *window, char *out, size_t n);

int cnc_window_label(const char *window, char *out, size_t n)
{
    static const struct {
        const char *phase, *words;
    } phases[] = {{"picks", "Strategy picks: your ranking"},
                  {"action", "Action phase: your orders"},
                  {"agenda", "Agenda"},
                  {"lobby", "Council: lobbying"},
                  {"council", "Council: your vote"}};
    int round, pick, used = 0;
    char phase[24];
    if (sscanf(window, "r%d.pick%d%n", &round, &pick, &used) == 2 &&
        window[used] == '\0') {
        snprintf(out, n, "Strategy pick (round %d)", round);
        return 0;
    }
    if (sscanf(window, "r%d.%23[a-z]%n", &round, phase, &used) != 2 ||
        window[used] != '\0')
        return -1;
    for (size_t i = 0; i < sizeof phases / sizeof phases[0]; i++)
        if (strcmp(phase, phases[i].phase) == 0) {
            snprintf(out, n, "%s (round %d)", phases[i].words, round);
            return 0;
        }
    return -1;
}

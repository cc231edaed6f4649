/*
 * skirmish_move.c - Skirmish movement: the fewest movement points a
 * creature needs to reach a square, walking (along sides, through empty
 * squares) or flying (any of 8 directions, over creatures). A movement is
 * declared with its target square and reserves that many points; it
 * happens on resolution only if the square is empty and still reachable
 * with them (skirmish_priority.c).
 */
#include "engine/rules/skirmish/skirmish_internal.h"

void sk_move_costs(const sk_state *s, int u, int dist[SK_SQUARES])
{
    int held[SK_SQUARES] = {0}, queue[SK_SQUARES], head = 0, tail = 0;
    for (int i = 0; i < SK_SQUARES; i++)
        dist[i] = -1;
    if (!sk_on_field(s, u))
        return;
    for (int k = 0; k < s->nu; k++)
        if (sk_on_field(s, k))
            held[s->cr[k][U_SQ]] = 1;
    int from = s->cr[u][U_SQ];
    if (sk_has(s, u, SKIRMISH_K_FLYING)) {
        for (int sq = 0; sq < SK_SQUARES; sq++)
            if (!held[sq])
                dist[sq] = sk_dist(from, sq);
        return;
    }
    static const int dc[4] = {1, -1, 0, 0}, dr[4] = {0, 0, 1, -1};
    dist[from] = 0;
    queue[tail++] = from;
    while (head < tail) {
        int at = queue[head++];
        for (int k = 0; k < 4; k++) {
            int c = sk_col(at) + dc[k], r = sk_row(at) + dr[k];
            if (c < 0 || c >= SKIRMISH_COLS || r < 0 || r >= SKIRMISH_ROWS)
                continue;
            int n = r * SKIRMISH_COLS + c;
            if (dist[n] >= 0 || held[n])
                continue;
            dist[n] = dist[at] + 1;
            queue[tail++] = n;
        }
    }
    dist[from] = -1; /* not a movement */
}

int sk_move_cost(const sk_state *s, int u, int sq)
{
    int dist[SK_SQUARES];
    if (sq < 0 || sq >= SK_SQUARES)
        return -1;
    sk_move_costs(s, u, dist);
    return dist[sq];
}

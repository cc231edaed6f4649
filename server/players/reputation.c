/*
 * reputation.c - reputation of players for asynchronous play, read
 * from their summaries (see reputation.h).
 */
#include "server/players/reputation.h"

#include "server/store/db.h"

#include <math.h>
#include <stdlib.h>

double reputation_bucket_seconds(long bucket)
{
    if (bucket <= 16) /* a tenth of a second wide, centred on its tenth */
        return (double)(bucket - 1) / 10.0;
    /* 16 to a doubling from 1.55 s: the geometric middle */
    return 1.55 * pow(2.0, ((double)(bucket - 17) + 0.5) / 16.0);
}

/* The next count of a counts list at *at (moved past it and its comma):
 * 1, or 0 at its end or on text that does not parse. */
static int next_count(const char **at, long long *n)
{
    char *end;
    if (!**at)
        return 0;
    *n = strtoll(*at, &end, 10);
    if (end == *at || (*end != ',' && *end) || *n < 0)
        return 0;
    *at = *end ? end + 1 : end;
    return 1;
}

json_t *reputation_from_counts(const char *counts)
{
    long long missed = 0, answered = 0, n;
    long first = 1;
    int used = 0;
    if (counts && sscanf(counts, "%lld %ld %n", &missed, &first, &used) < 2)
        missed = 0, used = 0;
    const char *list = counts && used ? counts + used : "", *at = list;
    while (next_count(&at, &n))
        answered += n;
    json_t *median = json_null();
    if (answered > 0) {
        /* percentile_cont(0.5): the middle answer, or the mean of the two
         * middle ones (ranks from 0), each read as its bucket's middle */
        long long lo = (answered - 1) / 2, hi = answered / 2, seen = 0;
        double vlo = 0, vhi = 0;
        at = list;
        for (long b = first; next_count(&at, &n); b++) {
            if (lo >= seen && lo < seen + n)
                vlo = reputation_bucket_seconds(b);
            if (hi >= seen && hi < seen + n)
                vhi = reputation_bucket_seconds(b);
            seen += n;
        }
        median = json_real(round((vlo + vhi) / 2.0 * 10.0) / 10.0);
    }
    return json_pack("{so sI sI}", "median_response_seconds", median, "missed",
                     (json_int_t)missed, "answered", (json_int_t)answered);
}

json_t *reputation_json(PGresult *r, int row, int col)
{
    return reputation_from_counts(PQgetvalue(r, row, col));
}

json_t *reputation_load(PGconn *c, const char *player_id)
{
    const char *p[] = {player_id};
    PGresult *r = db_exec(c, PGRES_TUPLES_OK,
                          "SELECT coalesce(counts, '') FROM "
                          "(" REPUTATION_SQL("$1") ") x",
                          1, p);
    if (!r)
        return NULL;
    /* no row: nothing counts yet */
    json_t *o = PQntuples(r) == 1 ? reputation_json(r, 0, 0)
                                  : reputation_from_counts(NULL);
    PQclear(r);
    return o;
}

int reputation_fold_due(PGconn *c)
{
    PGresult *r = db_exec(
        c, PGRES_TUPLES_OK,
        "WITH due AS (DELETE FROM reputation_pending WHERE due_at <= now() "
        " RETURNING game_id), "
        "rep AS (INSERT INTO reputation_counts AS r (player_id, missed, "
        " buckets) SELECT w.player_id, count(*) FILTER (WHERE w.missed), "
        " reputation_add('{}', array_agg(reputation_bucket(false, "
        " w.closed_at - w.opened_at)) FILTER (WHERE NOT w.missed)) FROM "
        " seat_windows w WHERE w.game_id = ANY (ARRAY(SELECT game_id FROM "
        " due)) GROUP BY 1 ORDER BY 1 ON CONFLICT (player_id) DO UPDATE SET "
        " missed = r.missed + excluded.missed, buckets = "
        " reputation_merge(r.buckets, excluded.buckets)) "
        "SELECT count(*) FROM due",
        0, NULL);
    if (!r)
        return -1;
    int n = atoi(PQgetvalue(r, 0, 0));
    PQclear(r);
    return n;
}

srv_kind reputation_meets(const json_t *rep, const json_t *rules,
                          srv_error *err)
{
    const json_t *min = json_object_get(rules, "min_reputation");
    if (!json_is_object(min))
        return SRV_OK;
    const json_t *most = json_object_get(min, "max_missed");
    long long missed = json_integer_value(json_object_get(rep, "missed"));
    if (json_is_integer(most) && missed > json_integer_value(most))
        return srv_fail(err, SRV_FORBIDDEN, NULL,
                        "this lobby asks for at most %lld missed windows; "
                        "you have missed %lld",
                        json_integer_value(most), missed);
    const json_t *slow = json_object_get(min, "max_median_seconds");
    const json_t *median = json_object_get(rep, "median_response_seconds");
    if (json_is_integer(slow) && json_is_real(median) &&
        json_real_value(median) > (double)json_integer_value(slow))
        return srv_fail(err, SRV_FORBIDDEN, NULL,
                        "this lobby asks for a median response time of at "
                        "most %lld seconds; yours is %.0f",
                        json_integer_value(slow), json_real_value(median));
    return SRV_OK;
}

/*
 * reputation.c - reputation of players for asynchronous play (see
 * reputation.h).
 */
#include "server/players/reputation.h"

#include "server/store/db.h"

#include <stdlib.h>

json_t *reputation_json(PGresult *r, int row, int col)
{
    const char *median = PQgetvalue(r, row, col);
    return json_pack("{so si si}", "median_response_seconds",
                     *median ? json_real(atof(median)) : json_null(), "missed",
                     atoi(PQgetvalue(r, row, col + 1)), "answered",
                     atoi(PQgetvalue(r, row, col + 2)));
}

json_t *reputation_load(PGconn *c, const char *player_id)
{
    const char *p[] = {player_id};
    PGresult *r = db_exec(c, PGRES_TUPLES_OK,
                          "SELECT coalesce(median::text, ''), missed, "
                          "answered FROM (" REPUTATION_SQL("$1") ") x",
                          1, p);
    if (!r)
        return NULL;
    json_t *o = PQntuples(r) == 1 ? reputation_json(r, 0, 0) : NULL;
    PQclear(r);
    return o;
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

/*
 * h_rulesets.c - GET /api/v1/rulesets: the engine's registry described for
 * clients (id, title, summary, seat bounds, options as a JSON Schema).
 */
#include "api/handlers.h"

#include "engine/engine.h"

void api_h_rulesets(api_request *req, api_response *res)
{
    (void)req;
    size_t n = 0;
    const engine_ruleset *const *all = engine_rulesets(&n);
    json_t *list = json_array();
    for (size_t i = 0; list && i < n; i++) {
        json_t *d = engine_ruleset_describe(all[i]);
        if (!d || json_array_append_new(list, d) != 0) {
            json_decref(list);
            list = NULL;
        }
    }
    if (!list) {
        api_problem(res, 500, "out of memory", NULL);
        return;
    }
    api_json(res, 200, list);
}

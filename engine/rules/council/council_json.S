/*
 * council_json.S - embeds engine/rules/council/council.json (Galactic
 * Council's rules data) as council_json and council_json_len. Parsed and
 * validated once by cnc_data_init.
 * The macro and the dependency trick below: engine/carddata_embed.inc.
 */
#include "engine/carddata_embed.inc"

        engine_carddata_embed council_json, "engine/rules/council/council.json"

        .if 0
#include "engine/rules/council/council.json"
        .endif

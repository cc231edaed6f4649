/*
 * starbase_cards_data.S - embeds engine/rules/starbase/cards.json (Starbase's
 * cards, starbases and starter markets) as starbase_cards_json and
 * starbase_cards_json_len. Parsed and validated once by starbase_cards_init.
 * The macro and the dependency trick below: engine/carddata_embed.inc.
 */
#include "engine/carddata_embed.inc"

        engine_carddata_embed starbase_cards_json, "engine/rules/starbase/cards.json"

        .if 0
#include "engine/rules/starbase/cards.json"
        .endif

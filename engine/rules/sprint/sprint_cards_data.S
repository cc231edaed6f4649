/*
 * sprint_cards_data.S - embeds engine/rules/sprint/cards.json (Galactic
 * Sprint's card set) as sprint_cards_json and sprint_cards_json_len.
 * Parsed and validated once by sprint_cards_init.
 * The macro and the dependency trick below: engine/carddata_embed.inc.
 */
#include "engine/carddata_embed.inc"

        engine_carddata_embed sprint_cards_json, "engine/rules/sprint/cards.json"

        .if 0
#include "engine/rules/sprint/cards.json"
        .endif

/*
 * skirmish_cards_data.S - embeds engine/rules/skirmish/cards.json (Skirmish's
 * creatures, factions and prebuilt squads) as skirmish_cards_json and
 * skirmish_cards_json_len. Parsed and validated once by skirmish_cards_init.
 * The macro and the dependency trick below: engine/carddata_embed.inc.
 */
#include "engine/carddata_embed.inc"

        engine_carddata_embed skirmish_cards_json, "engine/rules/skirmish/cards.json"

        .if 0
#include "engine/rules/skirmish/cards.json"
        .endif

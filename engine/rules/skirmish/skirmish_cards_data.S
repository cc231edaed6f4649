/*
 * skirmish_cards_data.S - embeds engine/rules/skirmish/cards.json (Skirmish's
 * creatures, factions and prebuilt squads) into the binary as the
 * NUL-terminated string skirmish_cards_json, with its length (without the
 * NUL) in skirmish_cards_json_len. Parsed and validated once by
 * skirmish_cards_init. The path is relative to the repository root, where
 * make runs.
 */
        .section .rodata
        .global skirmish_cards_json
        .type skirmish_cards_json, @object
        .balign 16
skirmish_cards_json:
        .incbin "engine/rules/skirmish/cards.json"
skirmish_cards_json_end:
        .byte 0
        .size skirmish_cards_json, . - skirmish_cards_json

        .global skirmish_cards_json_len
        .type skirmish_cards_json_len, @object
        .balign 8
skirmish_cards_json_len:
        .quad skirmish_cards_json_end - skirmish_cards_json
        .size skirmish_cards_json_len, 8

/* Seen by the preprocessor only, so that -MMD lists cards.json as a
 * dependency of this object and make re-embeds it when it changes; the
 * assembler skips the text. */
        .if 0
#include "engine/rules/skirmish/cards.json"
        .endif

        .section .note.GNU-stack,"",@progbits

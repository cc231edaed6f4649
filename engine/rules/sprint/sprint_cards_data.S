/*
 * sprint_cards_data.S - embeds engine/rules/sprint/cards.json (Galactic
 * Sprint's card set) into the binary as the NUL-terminated string
 * sprint_cards_json, with its length (without the NUL) in
 * sprint_cards_json_len. Parsed and validated once by sprint_cards_init.
 * The path is relative to the repository root, where make runs.
 */
        .section .rodata
        .global sprint_cards_json
        .type sprint_cards_json, @object
        .balign 16
sprint_cards_json:
        .incbin "engine/rules/sprint/cards.json"
sprint_cards_json_end:
        .byte 0
        .size sprint_cards_json, . - sprint_cards_json

        .global sprint_cards_json_len
        .type sprint_cards_json_len, @object
        .balign 8
sprint_cards_json_len:
        .quad sprint_cards_json_end - sprint_cards_json
        .size sprint_cards_json_len, 8

/* Seen by the preprocessor only, so that -MMD lists cards.json as a
 * dependency of this object and make re-embeds it when it changes; the
 * assembler skips the text. */
        .if 0
#include "engine/rules/sprint/cards.json"
        .endif

        .section .note.GNU-stack,"",@progbits

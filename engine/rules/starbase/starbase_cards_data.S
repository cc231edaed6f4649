/*
 * starbase_cards_data.S - embeds engine/rules/starbase/cards.json (Starbase's
 * cards, starbases and starter markets) into the binary as the
 * NUL-terminated string starbase_cards_json, with its length (without the
 * NUL) in starbase_cards_json_len. Parsed and validated once by
 * starbase_cards_init. The path is relative to the repository root, where
 * make runs.
 */
        .section .rodata
        .global starbase_cards_json
        .type starbase_cards_json, @object
        .balign 16
starbase_cards_json:
        .incbin "engine/rules/starbase/cards.json"
starbase_cards_json_end:
        .byte 0
        .size starbase_cards_json, . - starbase_cards_json

        .global starbase_cards_json_len
        .type starbase_cards_json_len, @object
        .balign 8
starbase_cards_json_len:
        .quad starbase_cards_json_end - starbase_cards_json
        .size starbase_cards_json_len, 8

/* Seen by the preprocessor only, so that -MMD lists cards.json as a
 * dependency of this object and make re-embeds it when it changes; the
 * assembler skips the text. */
        .if 0
#include "engine/rules/starbase/cards.json"
        .endif

        .section .note.GNU-stack,"",@progbits

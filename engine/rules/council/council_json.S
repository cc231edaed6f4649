/*
 * council_json.S - embeds engine/rules/council/council.json (Galactic
 * Council's rules data) into the binary as the NUL-terminated string
 * council_json, with its length (without the NUL) in council_json_len.
 * Parsed and validated once by cnc_data_init. The path is relative to the
 * repository root, where make runs.
 */
        .section .rodata
        .global council_json
        .type council_json, @object
        .balign 16
council_json:
        .incbin "engine/rules/council/council.json"
council_json_end:
        .byte 0
        .size council_json, . - council_json

        .global council_json_len
        .type council_json_len, @object
        .balign 8
council_json_len:
        .quad council_json_end - council_json
        .size council_json_len, 8

/* Seen by the preprocessor only, so that -MMD lists council.json as a
 * dependency of this object and make re-embeds it when it changes; the
 * assembler skips the text. */
        .if 0
#include "engine/rules/council/council.json"
        .endif

        .section .note.GNU-stack,"",@progbits

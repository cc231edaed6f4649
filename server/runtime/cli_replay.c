/*
 * cli_replay.c - `conclave replay FILE`: read an exported game (the
 * document GET /api/v1/games/{id}/export returns), replay it from its seed
 * with engine_replay_export and say whether the final state hash matches.
 *
 * Only the file handling lives here; the replay itself is the engine's, so
 * the server can run the same check.
 */
#include <stdio.h>
#include <string.h>

#include "engine/engine.h"
#include "server/runtime/cli.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: conclave replay FILE\n\n"
            "Replay an exported game (\"-\" reads standard input) from its "
            "seed and inputs\nand compare the final state hash with the "
            "export's final_hash.\n"
            "Prints {\"final_hash\": HEX, \"match\": BOOL}; exits 0 on a "
            "match, 1 on a\nmismatch or a rejected input, 2 if the file "
            "cannot be read.\n");
}

int cmd_replay(int argc, char **argv)
{
    engine_error err = {0};
    json_error_t jerr;
    json_t *doc = NULL, *out = NULL;
    uint8_t hash[ENGINE_HASH_BYTES];
    char hex[2 * ENGINE_HASH_BYTES + 1];
    int match = 0, status = 2;

    if (argc == 2 &&
        (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return 0;
    }
    if (argc != 2) {
        usage(stderr);
        return 2;
    }
    if (engine_init(&err) != 0) {
        fprintf(stderr, "conclave replay: %s\n", err.msg);
        return 2;
    }
    doc = strcmp(argv[1], "-") == 0 ? json_loadf(stdin, 0, &jerr)
                                    : json_load_file(argv[1], 0, &jerr);
    if (!doc) {
        if (jerr.line > 0)
            fprintf(stderr, "conclave replay: %s: %s (line %d)\n", argv[1],
                    jerr.text, jerr.line);
        else
            fprintf(stderr, "conclave replay: %s: %s\n", argv[1], jerr.text);
        goto done;
    }
    if (engine_replay_export(doc, hash, &match, NULL, &err) != 0) {
        fprintf(stderr, "conclave replay: %s\n", err.msg);
        out = json_pack("{s:n, s:b, s:s}", "final_hash", "match", 0, "error",
                        err.msg);
        status = 1;
    } else {
        engine_hex(hash, ENGINE_HASH_BYTES, hex);
        out = json_pack("{s:s, s:b}", "final_hash", hex, "match", match);
        status = match ? 0 : 1;
    }
    if (out) {
        json_dumpf(out, stdout, JSON_COMPACT);
        fputc('\n', stdout);
    }
done:
    json_decref(out);
    json_decref(doc);
    return status;
}

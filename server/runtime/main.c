/*
 * main.c - the conclave binary: dispatches to its subcommands.
 */
#include "server/runtime/cli.h"
#include "server/runtime/commands.h"

#include <stdio.h>
#include <string.h>

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command;

static const command commands[] = {
    {"serve", cmd_serve, "migrate the database, then serve HTTP and WebSocket"},
    {"migrate", cmd_migrate, "apply the SQL migrations that are missing"},
    {"selfplay", cmd_selfplay, "play games in-process with bots; print speed"},
    {"replay", cmd_replay, "replay an exported game and verify its hash"},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *out)
{
    fprintf(out, "usage: conclave COMMAND [options]\n\n"
                 "Conclave, a play-by-web server for phase-based games.\n\n"
                 "Commands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\nRun 'conclave COMMAND --help' for a command's options.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 ||
        strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return argc < 2 ? 2 : 0;
    }
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "conclave: unknown command \"%s\"\n\n", argv[1]);
    usage(stderr);
    return 2;
}

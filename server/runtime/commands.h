/*
 * commands.h - the server's own subcommands of the conclave binary
 * (the engine tools, selfplay and replay, are declared in
 * server/runtime/cli.h). Each takes argv with argv[0] the subcommand name and
 * returns the exit status.
 */
#ifndef CONCLAVE_COMMANDS_H
#define CONCLAVE_COMMANDS_H

int cmd_serve(int argc, char **argv);
int cmd_migrate(int argc, char **argv);

#endif

/*
 * cli.h - the offline subcommands of the conclave binary that need no
 * database or network: `conclave selfplay` (bots play each other in-process;
 * a speed and determinism check) and `conclave replay FILE` (verify an
 * exported game). main.c dispatches to them with argv[0] set to the
 * subcommand's name; both accept --help.
 */
#ifndef CONCLAVE_CLI_H
#define CONCLAVE_CLI_H

/* conclave selfplay --ruleset ID [--seats N] [--games G] [--seed HEX]
 *                   [--bot random|basic] [--options JSON] [--check]
 * Prints one JSON summary line on stdout. Returns 0, 1 when a game or a
 * --check failed, 2 for bad arguments. */
int cmd_selfplay(int argc, char **argv);

/* conclave replay FILE ("-" for stdin): prints {"final_hash","match"}.
 * Returns 0 on a match, 1 on a mismatch or a rejected input, 2 when the
 * file cannot be read. */
int cmd_replay(int argc, char **argv);

#endif

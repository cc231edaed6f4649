/*
 * lg_modes.h - the load generator's workloads that live in files of their
 * own (loadgen.c holds `play` and `fanout` and dispatches to these).
 */
#ifndef LG_MODES_H
#define LG_MODES_H

/* `loadgen sprint ...` (bench/lg_sprint.c): 4-seat Galactic Sprint games
 * with sealed orders. argv[1] is "sprint". Prints a JSON object on stdout;
 * returns the process's exit status (0, 1 failure, 2 usage, 3 errors). */
int lg_sprint_main(int argc, char **argv);

/* `loadgen async ...` (bench/lg_async.c): inputs at a steady rate to
 * stored asynchronous games listed in a file. Same conventions. */
int lg_async_main(int argc, char **argv);

#endif

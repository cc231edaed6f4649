// selfplay_check_starbase.test.mjs - `conclave selfplay --check` (as
// selfplay_check.test.mjs says) over 100 games of Starbase at 2 and at 4
// seats, the longest of all: a file of their own, so that it runs beside
// selfplay_check.test.mjs (every other ruleset); the tests are in
// lib/selfplay_check.mjs.
import { selfplayCheckTests } from './lib/selfplay_check.mjs';

selfplayCheckTests('starbase');

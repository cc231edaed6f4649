// selfplay_check.test.mjs - `conclave selfplay --check` over hundreds of
// games of every ruleset of engine/rulesets.def (no database): a game loaded
// from a save follows each game input by input and is compared with it in
// full at drawn checkpoints, and each finished game replays from its export
// (server/runtime/selfplay_check.c). A checked run must also play exactly the
// games an unchecked one does: the checks draw from a stream of their own.
//
// Starbase's games are in selfplay_check_starbase.test.mjs, which runs beside
// this file; both register their tests from lib/selfplay_check.mjs.
import { selfplayCheckTests } from './lib/selfplay_check.mjs';

selfplayCheckTests('rest');

// canary_starbase_council.test.mjs - the hidden-information canary
// (canary.test.mjs says what it checks) on the games of Starbase and
// Galactic Council: their own server, database and capture, beside
// canary.test.mjs, which plays every other ruleset; the code both run is
// canary/suite.mjs, the groups are in canary/registry.mjs (playedBy).
// CANARY_SEED=<n> replays the test's own random choices.
import { hiddenFactsTest } from './canary/suite.mjs';

hiddenFactsTest('starbase_council');

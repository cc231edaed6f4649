// registry.mjs - the rulesets the canary test (../canary.test.mjs and
// ../canary_starbase_council.test.mjs) plays,
// one file each, canary/ID.mjs (ID: the ruleset id), whose default export
// is
//
//   id            the ruleset id
//   plans()       its games: [{ruleset, humans, bots?, options?, isPrivate?, tag}]
//   drive(ctx)    plays a game's human seats until it ends
//   bad           an input the ruleset refuses (the error probes send it)
//   check?(ctx, leak)  its own checks of one game, after the run: calls
//                 leak(what, record, marker) per leak and returns counts
//                 ({checked, ...}, summed over its games; a `leaks` list
//                 is taken as it is)
//   summary?(t)   the counts in words, for the log
//   expect?(t)    asserts the counts (so a quiet result means something)
//   privateParts  its private log entries and held orders are checked
//   wholeLog      every audience's whole log is read at the end (ctx.logs)
//   notified      its games' webhook bodies and mails must be captured
//   markers       marker kinds its games must show where allowed
//
// The rulesets are the engine's own, in its order (engine/rulesets.def,
// which is also the order the games are planned in: CANARY_SEED replays the
// choices in this order); every one must have its file here, so adding a
// ruleset to the engine without a canary fails this test. Adding a ruleset
// is its file alone.
import { existsSync } from 'node:fs';

import { engineRulesets } from '../lib/rulesets.mjs';

export { engineRulesets };

const IDS = engineRulesets();
const missing = IDS.filter((id) => !existsSync(new URL(`./${id}.mjs`, import.meta.url)));
if (missing.length)
  throw new Error(
    `the canary has no file for ruleset ${missing.join(', ')}: add tests/integration/canary/ID.mjs (docs/ruleset-authoring.md)`,
  );

// Every ruleset's canary, in the engine's order.
export const CANARIES = await Promise.all(
  IDS.map(async (id) => (await import(`./${id}.mjs`)).default),
);

const byId = new Map(CANARIES.map((c) => [c.id, c]));

// The canary of ruleset id.
export function canaryOf(id) {
  const c = byId.get(id);
  if (!c) throw new Error(`the canary has no file for ruleset ${id} (tests/integration/canary/)`);
  return c;
}

// The canary's games run in two files side by side, each with its own server
// (suite.mjs, hiddenFactsTest(group)): the group 'starbase_council'
// (../canary_starbase_council.test.mjs: the longest games, about half the
// work) and 'rest', every other ruleset (../canary.test.mjs; a new ruleset
// lands there).
const GROUPS = { starbase_council: ['starbase', 'council'] };

// CANARY_RULESETS="a,b" plays only those rulesets' games, each in its group's
// file (the plug-in path test runs the canary on its example ruleset alone);
// every file must still be there.
const ONLY = (process.env.CANARY_RULESETS || '').split(',').filter(Boolean);
if (ONLY.some((id) => !IDS.includes(id)))
  throw new Error(`CANARY_RULESETS names a ruleset the engine does not have: ${ONLY.join(', ')}`);

// The canaries a file of group `group` plays, in the engine's order.
export function playedBy(group) {
  const grouped = Object.values(GROUPS).flat();
  if (group !== 'rest' && !GROUPS[group]) throw new Error(`no canary group ${group}`);
  return IDS.filter((id) => (group === 'rest' ? !grouped.includes(id) : GROUPS[group].includes(id)))
    .filter((id) => !ONLY.length || ONLY.includes(id))
    .map(canaryOf);
}

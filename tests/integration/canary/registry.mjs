// registry.mjs - the rulesets the canary test (../canary.test.mjs) plays,
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
// Adding a ruleset: its file, and its id in the list below (in the order
// the games are planned: CANARY_SEED replays the choices in this order).

const IDS = ['tictactoe', 'rps', 'sprint', 'skirmish', 'starbase', 'council'];

export const CANARIES = await Promise.all(IDS.map(async (id) => (await import(`./${id}.mjs`)).default));

const byId = new Map(CANARIES.map((c) => [c.id, c]));

// The canary of ruleset id.
export function canaryOf(id) {
  const c = byId.get(id);
  if (!c) throw new Error(`the canary has no file for ruleset ${id} (tests/integration/canary/registry.mjs)`);
  return c;
}

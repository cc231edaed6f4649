// selfplay_check.test.mjs - `conclave selfplay --check` over hundreds of
// games of every ruleset of engine/rulesets.def (no database): a game loaded
// from a save follows each game input by input and is compared with it in
// full at drawn checkpoints, and each finished game replays from its export
// (server/runtime/selfplay_check.c). A checked run must also play exactly the
// games an unchecked one does: the checks draw from a stream of their own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { engineRulesets } from './lib/rulesets.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = process.env.CONCLAVE_BIN || path.join(ROOT, process.env.BUILD || 'build', 'conclave');
const run = promisify(execFile);

// Games per ruleset and the seat counts to try beyond the minimum; random
// bots, which wander into more corners than the basic ones.
const GAMES = 100;
const MORE_SEATS = { starbase: [4], council: [5], sprint: [3] };

async function selfplay(args) {
  try {
    const { stdout } = await run(BIN, ['selfplay', '--seed', '5eed', ...args], {
      maxBuffer: 1 << 20,
    });
    return JSON.parse(stdout);
  } catch (e) {
    // The checker says on stderr which game disagreed and how.
    assert.fail(`selfplay ${args.join(' ')} failed (${e.code}): ${e.stderr}`);
  }
}

for (const ruleset of engineRulesets()) {
  for (const seats of [null, ...(MORE_SEATS[ruleset] ?? [])]) {
    const label = seats ? `${ruleset} at ${seats} seats` : ruleset;
    test(`--check: ${GAMES} games of ${label} save, load and replay alike`, async () => {
      const args = ['--ruleset', ruleset, '--games', String(GAMES)];
      if (seats) args.push('--seats', String(seats));
      const [checked, plain] = await Promise.all([selfplay([...args, '--check']), selfplay(args)]);
      assert.equal(checked.checked, true);
      assert.equal(checked.games, GAMES);
      // The same games: same inputs, same results.
      assert.equal(checked.inputs, plain.inputs);
      assert.deepEqual(checked.results, plain.results);
      // Every game's first load counts one; games long enough draw more.
      assert.ok(
        checked.checkpoints > GAMES,
        `${checked.checkpoints} checkpoints in ${GAMES} games`,
      );
    });
  }
}

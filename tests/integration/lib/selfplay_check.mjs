// selfplay_check.mjs - the tests of `conclave selfplay --check`
// (../selfplay_check.test.mjs says what they check), registered by the two
// files that run them side by side: ../selfplay_check_starbase.test.mjs has
// Starbase (its games are the longest: about half the CPU time), and
// ../selfplay_check.test.mjs every other ruleset of engine/rulesets.def (a
// new ruleset lands there).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { engineRulesets } from './rulesets.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const BIN = process.env.CONCLAVE_BIN || path.join(ROOT, process.env.BUILD || 'build', 'conclave');
const run = promisify(execFile);

// Games per ruleset and the seat counts to try beyond the minimum; random
// bots, which wander into more corners than the basic ones.
const GAMES = 100;
const MORE_SEATS = { starbase: [4], council: [5], sprint: [3] };

// The rulesets of selfplay_check_starbase.test.mjs.
const STARBASE_FILE = ['starbase'];

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

// The tests of one file: 'starbase' (STARBASE_FILE) or 'rest' (the others).
export function selfplayCheckTests(file) {
  const rulesets = engineRulesets().filter(
    (r) => STARBASE_FILE.includes(r) === (file === 'starbase'),
  );
  for (const ruleset of rulesets) {
    for (const seats of [null, ...(MORE_SEATS[ruleset] ?? [])]) {
      const label = seats ? `${ruleset} at ${seats} seats` : ruleset;
      test(`--check: ${GAMES} games of ${label} save, load and replay alike`, async () => {
        const args = ['--ruleset', ruleset, '--games', String(GAMES)];
        if (seats) args.push('--seats', String(seats));
        const [checked, plain] = await Promise.all([
          selfplay([...args, '--check']),
          selfplay(args),
        ]);
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
}

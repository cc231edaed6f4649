// mutants_sample.test.mjs - the self-test of `make mutants-sample`'s
// generator (tests/mutants/sample.py --self-test): on a small C snippet it
// makes exactly the expected mutants (operators, conditions, statements,
// constants, arguments), none in comments, strings or preprocessor lines, and
// a mutant's hash does not move with its line. No server, no database.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { ROOT } from './lib/server.mjs';

test('the mutant generator makes the expected mutants of a C snippet', () => {
  const r = spawnSync('python3', ['tests/mutants/sample.py', '--self-test'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /RESULT mutants-sample self-test: (\d+) of \1 expected, 0 unexpected/);
});

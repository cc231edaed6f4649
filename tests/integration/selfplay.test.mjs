// selfplay.test.mjs - `conclave selfplay` run as a program (no database):
// a table of mixed bots gives each seat its own bot level, one level still
// means every seat, a list of the wrong length is a clear usage error, and a
// solitaire game lost counts as "loss", never "draw".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

// Not lib/server.mjs: that one needs a database, this test does not.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = process.env.CONCLAVE_BIN || path.join(ROOT, process.env.BUILD || 'build', 'conclave');

const run = promisify(execFile);

async function selfplay(...args) {
  const { stdout } = await run(BIN, ['selfplay', '--seed', '01', ...args]);
  return JSON.parse(stdout);
}

test('each seat plays its own bot level', async () => {
  // Tic-tac-toe's basic bot (win, block, centre) beats the random one from
  // either seat; which seat wins most tells which seat had which bot.
  const a = await selfplay('--ruleset', 'tictactoe', '--games', '400', '--bot', 'basic,random');
  assert.deepEqual(a.bots, ['basic', 'random']);
  assert.equal(a.bot, 'basic,random');
  assert.ok((a.results['0'] ?? 0) > 5 * (a.results['1'] ?? 0) + 50, JSON.stringify(a.results));
  const b = await selfplay('--ruleset', 'tictactoe', '--games', '400', '--bot', 'random,basic');
  assert.deepEqual(b.bots, ['random', 'basic']);
  assert.ok((b.results['1'] ?? 0) > 5 * (b.results['0'] ?? 0) + 50, JSON.stringify(b.results));
  const total = (r) => Object.values(r.results).reduce((x, y) => x + y, 0);
  assert.equal(total(a), 400);
  assert.equal(total(b), 400);
});

test('one level means every seat', async () => {
  const r = await selfplay('--ruleset', 'sprint', '--seats', '3', '--games', '3', '--bot', 'basic');
  assert.deepEqual(r.bots, ['basic', 'basic', 'basic']);
  const d = await selfplay('--ruleset', 'rps', '--games', '3');
  assert.deepEqual(d.bots, ['random', 'random']);
});

test('a bot list of the wrong length or with an empty level is a usage error', async () => {
  for (const bot of ['basic,random,basic', 'basic,', ',basic']) {
    await assert.rejects(run(BIN, ['selfplay', '--ruleset', 'rps', '--bot', bot]), (e) => {
      assert.equal(e.code, 2, `--bot ${bot}`);
      assert.match(e.stderr, /--bot/);
      return true;
    });
  }
  await assert.rejects(
    run(BIN, ['selfplay', '--ruleset', 'sprint', '--seats', '3', '--bot', 'basic,random']),
    (e) => e.code === 2 && /2 levels for 3 seats/.test(e.stderr),
  );
});

test('a solitaire game lost is a loss, not a draw', async () => {
  // Random play seldom reaches the solitaire target in 7 rounds.
  const r = await selfplay(
    '--ruleset',
    'sprint',
    '--seats',
    '1',
    '--games',
    '30',
    '--bot',
    'random',
  );
  assert.ok(r.results.loss > 0, JSON.stringify(r.results));
  assert.equal(r.results.draw, undefined, JSON.stringify(r.results));
  assert.equal(r.results.loss + (r.results['0'] ?? 0), 30);
  // A real draw is still a draw.
  const t = await selfplay('--ruleset', 'tictactoe', '--games', '200', '--bot', 'basic');
  assert.ok(t.results.draw > 0, JSON.stringify(t.results));
  assert.equal(t.results.loss, undefined);
});

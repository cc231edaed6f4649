// api_skirmish.test.mjs - a whole game of Skirmish through the REST API: one
// human driven by this test (sealed muster and deployment with PUT /orders,
// then plays in the priority window with POST /plays, chosen from GET /legal)
// against the "basic" bot, played to the end; then the export replays.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { BIN, createDatabase, dropDatabase, startServer, sleep } from './lib/server.mjs';
import { client, newPlayer, newGame, NO_LIMITS } from './lib/api.mjs';

const run = promisify(execFile);
let db, srv, call;

before(async () => {
  db = createDatabase('apisk');
  srv = await startServer({ db, env: NO_LIMITS });
  call = client(srv.url);
});

after(async () => {
  await srv?.stop();
  if (db) dropDatabase(db);
});

// Seat 0's home squares, front row first, each row from column a.
function homeSquares(n) {
  const out = [];
  for (const row of ['3', '2', '1']) for (const col of 'abcde') out.push(col + row);
  return out.slice(0, n);
}

test(
  'a whole Skirmish game: one human through REST against the basic bot',
  { timeout: 170000 },
  async (t) => {
    const list = await call('GET', '/api/v1/rulesets');
    assert.ok(list.body.some((x) => x.id === 'skirmish'));
    const human = await newPlayer(call, { prefix: 'skir' });
    const id = await newGame(call, 'skirmish', [human], {
      bots: ['basic'],
      options: { turn_limit: 12 },
    });
    let seed = 11;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const stats = { orders: 0, plays: 0, passes: 0, conflicts: 0 };
    const deadline = Date.now() + 160000;
    let game;
    for (;;) {
      assert.ok(Date.now() < deadline, `the game did not end in time (${JSON.stringify(stats)})`);
      const legal = await call('GET', `/api/v1/games/${id}/legal`, { token: human.token });
      assert.equal(legal.status, 200);
      if (!legal.body.windows.length) {
        game = await call('GET', `/api/v1/games/${id}`, { token: human.token });
        if (game.body.status !== 'running') break;
        await sleep(10);
        continue;
      }
      const w = legal.body.windows[0];
      if (w.mode === 'sealed') {
        const view = await call('GET', `/api/v1/games/${id}/view`, { token: human.token });
        if (view.body.my_orders?.[w.window]) {
          await sleep(10);
          continue;
        }
        const body =
          w.window === 'muster'
            ? { squad: 'cinder_host' }
            : { squares: homeSquares(w.shape.properties.squares.minItems) };
        const r = await call('PUT', `/api/v1/games/${id}/orders/${w.window}`, {
          token: human.token,
          body,
        });
        if (r.status === 409) continue;
        assert.equal(r.status, 200, `${JSON.stringify(body)}: ${r.text}`);
        stats.orders += 1;
        continue;
      }
      assert.equal(w.kind, 'play');
      const others = w.choices.filter((c) => c.action !== 'pass');
      const attacks = others.filter((c) => c.action === 'attack');
      const pick = attacks.length
        ? attacks[0]
        : others.length && rnd() < 0.5
          ? others[Math.floor(rnd() * others.length)]
          : { action: 'pass' };
      const r = await call('POST', `/api/v1/games/${id}/plays`, {
        token: human.token,
        body: { window: w.window, ...pick },
      });
      if (r.status === 409) {
        stats.conflicts += 1;
        continue;
      }
      assert.equal(r.status, 200, `${JSON.stringify(pick)}: ${r.text}`);
      stats[pick.action === 'pass' ? 'passes' : 'plays'] += 1;
    }
    assert.equal(game.body.status, 'finished', JSON.stringify(game.body.result));
    assert.equal(stats.orders, 2, JSON.stringify(stats));
    assert.ok(stats.plays + stats.passes > 5, JSON.stringify(stats));
    assert.equal(game.body.result.scores.length, 2);
    const view = await call('GET', `/api/v1/games/${id}/view`, { token: human.token });
    assert.equal(view.body.phase, 'over');
    assert.ok(view.body.units.length > 0);

    const exp = await call('GET', `/api/v1/games/${id}/export`, { token: human.token });
    assert.equal(exp.status, 200);
    const file = path.join(
      fs.mkdtempSync(path.join(os.tmpdir(), 'conclave-skirmish-')),
      'game.json',
    );
    fs.writeFileSync(file, JSON.stringify(exp.body));
    const { stdout } = await run(BIN, ['replay', file]);
    const replay = JSON.parse(stdout.trim().split('\n').at(-1));
    assert.equal(replay.match, true);
    assert.equal(replay.final_hash, exp.body.final_hash);
    t.diagnostic(
      `turns ${exp.body.result.turns}, ${JSON.stringify(stats)}, scores ${exp.body.result.scores}`,
    );
  },
);

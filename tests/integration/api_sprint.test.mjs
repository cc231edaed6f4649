// api_sprint.test.mjs - a whole game of Galactic Sprint for three through the
// REST API: one human driven by this test (GET /legal, PUT /orders) against
// two "basic" bots, played to the end; then the export replays. Skipped, with
// the reason, only while the server does not list the sprint ruleset.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { BIN, createDatabase, dropDatabase, startServer, sleep } from './lib/server.mjs';
import { client, newPlayer, newGame, NO_LIMITS } from './lib/api.mjs';
import { placement, playOut as playOutWith } from './lib/sprintplay.mjs';

const run = promisify(execFile);
let db, srv, call, hasSprint;
const ALL_COLOURS = 0b11110; // azure, jade, amber, violet: bits 1..4 of final.colours

before(async () => {
  db = createDatabase('apisp');
  srv = await startServer({ db, env: NO_LIMITS });
  call = client(srv.url);
  const r = await call('GET', '/api/v1/rulesets');
  hasSprint = r.body.some((x) => x.id === 'sprint');
});

after(async () => {
  await srv?.stop();
  if (db) dropDatabase(db);
});

test(
  'a whole Galactic Sprint game: one human through REST and two basic bots',
  { timeout: 110000 },
  async (t) => {
    if (!hasSprint) {
      t.skip(
        'the sprint ruleset is not registered in this build (GET /api/v1/rulesets does not list it)',
      );
      return;
    }
    const human = await newPlayer(call, { prefix: 'human' });
    const id = await newGame(call, 'sprint', [human], { bots: ['basic', 'basic'] });
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const stats = { orders: 0, explores: 0, refused: 0, polls: 0 };
    const deadline = Date.now() + 95000;
    let game;
    for (;;) {
      assert.ok(Date.now() < deadline, `the game did not end in time (${JSON.stringify(stats)})`);
      const legal = await call('GET', `/api/v1/games/${id}/legal`, { token: human.token });
      assert.equal(legal.status, 200);
      if (!legal.body.windows.length) {
        game = await call('GET', `/api/v1/games/${id}`, { token: human.token });
        if (game.body.status !== 'running') break;
        stats.polls += 1;
        await sleep(20);
        continue;
      }
      const w = legal.body.windows[0];
      assert.equal(w.kind, 'order');
      assert.equal(w.mode, 'sealed');
      const view = await call('GET', `/api/v1/games/${id}/view`, { token: human.token });
      if (view.body.my_orders?.[w.window]) {
        await sleep(20); // ordered already; the bots are thinking
        continue;
      }
      const hand = view.body.hand.map((c) => c.id);
      let body;
      if (w.shape.required?.includes('discard')) {
        body = {
          discard: w.shape.properties.discard.items.enum.slice(
            0,
            w.shape.properties.discard.minItems,
          ),
        };
      } else {
        body = placement(w.choices, hand, rnd);
      }
      let r = await call('PUT', `/api/v1/games/${id}/orders/${w.window}`, {
        token: human.token,
        body,
      });
      if (r.status === 422 && !body.discard) {
        stats.refused += 1;
        body = { action: 'explore' };
        r = await call('PUT', `/api/v1/games/${id}/orders/${w.window}`, {
          token: human.token,
          body,
        });
      }
      if (r.status === 409) continue; // the window moved on meanwhile
      assert.equal(r.status, 200, `${JSON.stringify(body)}: ${r.text}`);
      assert.equal(r.body.seat, 0);
      stats.orders += 1;
      if (body.action === 'explore') stats.explores += 1;
    }
    assert.equal(game.body.status, 'finished', JSON.stringify(game.body.result));
    assert.ok(stats.orders >= 3, JSON.stringify(stats));
    assert.ok(Array.isArray(game.body.result.winners));
    assert.equal(game.body.result.scores.length, 3);
    assert.deepEqual(
      game.body.seats.map((s) => s.bot),
      [null, 'basic', 'basic'],
    );
    assert.match(game.body.seed, /^[0-9a-f]{64}$/);

    const exp = await call('GET', `/api/v1/games/${id}/export`, { token: human.token });
    assert.equal(exp.status, 200);
    assert.ok(
      exp.body.inputs.filter((x) => x.kind === 'order' && x.seat === 0).length >= stats.orders,
    );
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'conclave-sprint-')), 'game.json');
    fs.writeFileSync(file, JSON.stringify(exp.body));
    const { stdout } = await run(BIN, ['replay', file]);
    const replay = JSON.parse(stdout.trim().split('\n').at(-1));
    assert.equal(replay.match, true);
    assert.equal(replay.final_hash, exp.body.final_hash);
    t.diagnostic(
      `rounds ${exp.body.result.rounds}, human orders ${stats.orders} (${stats.explores} explore, ${stats.refused} refused), scores ${exp.body.result.scores}`,
    );
  },
);

test(
  "an order in a window without the caller's seat is 403 (Sprint explore window)",
  { timeout: 60000 },
  async (t) => {
    if (!hasSprint) {
      t.skip(
        'the sprint ruleset is not registered in this build (GET /api/v1/rulesets does not list it)',
      );
      return;
    }
    const explorer = await newPlayer(call, { prefix: 'expl' });
    const builder = await newPlayer(call, { prefix: 'build' });
    // A deal where the builder can pay for a placement: new games until one is
    // (a deal without one is rare; ten in a row would be a bug in the deal).
    let id, place, mine, body, hand;
    for (let deal = 0; ; deal++) {
      assert.ok(deal < 10, 'ten deals in a row without a placement the builder can pay for');
      id = await newGame(call, 'sprint', [explorer, builder], { bots: ['basic'] });
      const legalOf = async (p) =>
        (await call('GET', `/api/v1/games/${id}/legal`, { token: p.token })).body.windows;
      [place] = await legalOf(explorer);
      assert.match(place.window, /\.place$/);
      const e = await call('PUT', `/api/v1/games/${id}/orders/${place.window}`, {
        token: explorer.token,
        body: { action: 'explore' },
      });
      assert.equal(e.status, 200, e.text);
      [mine] = await legalOf(builder);
      const view = await call('GET', `/api/v1/games/${id}/view`, { token: builder.token });
      hand = view.body.hand.map((c) => c.id);
      body = placement(
        mine.choices.filter((c) => c.action !== 'explore'),
        hand,
        () => 0.5,
      );
      if (body.action !== 'explore') break;
    }
    const legalOf = async (p) =>
      (await call('GET', `/api/v1/games/${id}/legal`, { token: p.token })).body.windows;
    const b = await call('PUT', `/api/v1/games/${id}/orders/${mine.window}`, {
      token: builder.token,
      body,
    });
    assert.equal(b.status, 200, `${JSON.stringify(body)}: ${b.text}`);
    // The placement resolved; the explorer now discards in a window without the builder.
    let explore;
    for (let i = 0; i < 200 && !explore; i++) {
      const g = await call('GET', `/api/v1/games/${id}`, { token: builder.token });
      explore = g.body.windows.find((w) => w.id.endsWith('.explore'));
      if (!explore) await sleep(20);
    }
    assert.ok(explore, 'no explore window opened');
    assert.ok(explore.seats.includes(0) && !explore.seats.includes(1), JSON.stringify(explore));
    const notMine = await call('PUT', `/api/v1/games/${id}/orders/${explore.id}`, {
      token: builder.token,
      body: { discard: [hand[0]] },
    });
    assert.equal(notMine.status, 403);
    assert.match(notMine.body.detail, /seat 1/);
    const withdraw = await call('DELETE', `/api/v1/games/${id}/orders/${explore.id}`, {
      token: builder.token,
    });
    assert.ok([403, 409].includes(withdraw.status), withdraw.text);
    const legal = await legalOf(explorer);
    assert.equal(legal[0].window, explore.id);
    assert.ok(legal[0].shape.required.includes('discard'));
  },
);

test('GET /me follows a solitaire campaign played through REST', { timeout: 60000 }, async (t) => {
  if (!hasSprint) {
    t.skip(
      'the sprint ruleset is not registered in this build (GET /api/v1/rulesets does not list it)',
    );
    return;
  }
  const solo = await newPlayer(call, { prefix: 'solo' });
  let seed = 11;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const order = ['magnate', 'warlord', 'tycoon', 'pathfinder'];
  let games = [];
  for (let game = 1; game <= 4; game++) {
    const me = await call('GET', '/api/v1/me', { token: solo.token });
    const next = me.body.campaign.next_options;
    const id = await newGame(call, 'sprint', [solo], { options: next });
    const end = await playOutWith(call, id, solo, rnd);
    assert.equal(end.status, 'finished');
    assert.equal(end.result.campaign, true);
    // The conditions from the final figures by the campaign's rules (65 chips;
    // 45 chips and 4 military worlds, or income 9, or all four colours), not
    // from the server's own verdict.
    const f = end.result.final;
    const expectMet = order.filter((c) =>
      c === 'magnate'
        ? f.chips >= 65
        : f.chips >= 45 &&
          (c === 'warlord'
            ? f.military_worlds >= 4
            : c === 'tycoon'
              ? f.income >= 9
              : (f.colours & ALL_COLOURS) === ALL_COLOURS),
    );
    const expectNew = expectMet.filter((c) => !next.campaign_conditions_met.includes(c));
    assert.deepEqual(
      end.result.conditions_met,
      expectMet,
      `conditions met by ${JSON.stringify(f)}`,
    );
    assert.deepEqual(end.result.new_conditions, expectNew);
    const checked = expectNew[0] ?? null;
    if (next.campaign_conditions_met.length === 0) games = [];
    games.push({ conditions_met: expectMet, checked, chips: f.chips });
    const met = [...next.campaign_conditions_met, ...(checked ? [checked] : [])].sort(
      (a, b) => order.indexOf(a) - order.indexOf(b),
    );
    const status = !checked ? 'lost' : met.length === 4 ? 'won' : 'active';
    const after = await call('GET', '/api/v1/me', { token: solo.token });
    assert.deepEqual(after.body.campaign, {
      status,
      games,
      met,
      next_options: { campaign_conditions_met: status === 'active' ? met : [] },
    });
    t.diagnostic(
      `game ${game}: chips ${end.result.final.chips}, met ${end.result.conditions_met} -> ${status}`,
    );
    if (status !== 'active') break;
  }
});

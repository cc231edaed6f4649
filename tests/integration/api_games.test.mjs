// api_games.test.mjs - games through the REST API: a whole tic-tac-toe game
// between two players, plays out of turn, idempotent plays and If-Match,
// sealed rock-paper-scissors orders (replace, withdraw, locked windows,
// another seat's window, illegal orders, receipts), views with ETags, logs,
// and the export that `conclave replay` verifies. Every answer is checked
// against api/openapi.yaml by the client.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { BIN, createDatabase, dropDatabase, startServer } from './lib/server.mjs';
import { client, newPlayer, newGame, receiptOf, NO_LIMITS } from './lib/api.mjs';

const run = promisify(execFile);
let db, srv, call, alice, bob, carol;

before(async () => {
  db = createDatabase('apig');
  srv = await startServer({ db, env: NO_LIMITS });
  call = client(srv.url);
  alice = await newPlayer(call, { prefix: 'alice' });
  bob = await newPlayer(call, { prefix: 'bob' });
  carol = await newPlayer(call, { prefix: 'carol' }); // never seated: a spectator
});

after(async () => {
  await srv?.stop();
  if (db) dropDatabase(db);
});

const game = (id, token) => call('GET', `/api/v1/games/${id}`, { token });
const play = (id, token, body, headers = {}) =>
  call('POST', `/api/v1/games/${id}/plays`, { token, body, headers });
const order = (id, token, window, body) =>
  call('PUT', `/api/v1/games/${id}/orders/${window}`, { token, body });

async function replayExport(doc) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'conclave-export-')), 'game.json');
  fs.writeFileSync(file, JSON.stringify(doc));
  const { stdout } = await run(BIN, ['replay', file]);
  return JSON.parse(stdout.trim().split('\n').at(-1));
}

test('a whole tic-tac-toe game through REST, then its export replays', async () => {
  const id = await newGame(call, 'tictactoe', [alice, bob]);
  const g0 = await game(id, alice.token);
  assert.equal(g0.status, 200);
  assert.equal(g0.body.status, 'running');
  assert.equal(g0.body.version, 0);
  assert.equal(g0.body.you, 0);
  assert.equal(g0.body.result, null);
  assert.equal(g0.body.seed, undefined, 'the seed stays secret while running');
  assert.match(g0.body.seed_sha256, /^[0-9a-f]{64}$/);
  assert.deepEqual(g0.body.windows, [
    { id: 't1', mode: 'open', seats: [0], submitted: [], deadline: null },
  ]);
  assert.deepEqual(g0.body.view.board, Array(9).fill(null));
  assert.equal(g0.body.view.turn, 0);
  assert.equal((await game(id, bob.token)).body.you, 1);
  assert.equal((await game(id, carol.token)).body.you, null);
  assert.equal((await game(id)).body.you, null);

  // Alice wins along the top row: 0, 1, 2 against Bob's 3, 4.
  const moves = [
    [alice, 0],
    [bob, 3],
    [alice, 1],
    [bob, 4],
    [alice, 2],
  ];
  for (const [i, [who, cell]] of moves.entries()) {
    const g = await game(id, who.token);
    const w = g.body.windows[0];
    assert.equal(w.seats[0], who === alice ? 0 : 1);
    const r = await play(id, who.token, { window: w.id, cell });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, { version: i + 1 });
  }
  const end = await game(id, carol.token);
  assert.equal(end.body.status, 'finished');
  assert.deepEqual(end.body.windows, []);
  assert.deepEqual(end.body.view.board, [0, 0, 0, 1, 1, null, null, null, null]);
  assert.equal(end.body.view.winner, 0);
  assert.deepEqual(end.body.result.winners, [0]);
  assert.match(end.body.seed, /^[0-9a-f]{64}$/);
  assert.equal(
    createHash('sha256').update(Buffer.from(end.body.seed, 'hex')).digest('hex'),
    end.body.seed_sha256,
  );

  const late = await play(id, bob.token, { window: 't6', cell: 8 });
  assert.equal(late.status, 409);
  assert.match(late.body.detail, /over/);

  const exp = await call('GET', `/api/v1/games/${id}/export`);
  assert.equal(exp.status, 200);
  assert.equal(exp.body.format, 'conclave-export/1');
  assert.equal(exp.body.seed, end.body.seed);
  assert.deepEqual(
    exp.body.inputs.map((x) => [x.seq, x.seat, x.kind, x.window, x.payload.cell]),
    moves.map(([who, cell], i) => [i + 1, who === alice ? 0 : 1, 'play', `t${i + 1}`, cell]),
  );
  const replay = await replayExport(exp.body);
  assert.equal(replay.match, true);
  assert.equal(replay.final_hash, exp.body.final_hash);
  // The export in pages: at most `limit` inputs each, next_after until the
  // last; the pages' inputs together are the whole export's.
  const pages = [];
  let after = 0;
  for (let guard = 0; guard < 20; guard++) {
    const pg = await call('GET', `/api/v1/games/${id}/export?after=${after}&limit=2`);
    assert.equal(pg.status, 200, pg.text);
    assert.ok(pg.body.inputs.length <= 2);
    assert.equal(pg.body.final_hash, exp.body.final_hash);
    pages.push(...pg.body.inputs);
    if (pg.body.next_after === undefined) break;
    assert.equal(pg.body.next_after, pg.body.inputs[pg.body.inputs.length - 1].seq);
    after = pg.body.next_after;
  }
  assert.deepEqual(pages, exp.body.inputs);
  assert.equal(exp.body.next_after, undefined, 'a small game is one page');
  for (const bad of ['0', '-1', '5001', 'x']) {
    const r = await call('GET', `/api/v1/games/${id}/export?limit=${bad}`);
    assert.equal(r.status, 422, bad);
    assert.equal(r.body.field, 'limit');
  }
  // A tampered export does not match.
  exp.body.inputs[4].payload.cell = 8;
  await assert.rejects(replayExport(exp.body));

  const me = await call('GET', '/api/v1/me', { token: alice.token });
  assert.ok(me.body.games.some((x) => x.id === id && x.status === 'finished' && x.seat === 0));
});

test('plays: out of turn, wrong window, illegal cell, unknown field, no seat', async () => {
  const id = await newGame(call, 'tictactoe', [alice, bob]);
  const outOfTurn = await play(id, bob.token, { window: 't1', cell: 4 });
  assert.equal(outOfTurn.status, 409);
  assert.match(outOfTurn.body.detail, /not seat 1's turn/);
  const wrongWindow = await play(id, alice.token, { window: 't7', cell: 4 });
  assert.equal(wrongWindow.status, 409);
  assert.equal(wrongWindow.body.field, 'window');
  const cell = await play(id, alice.token, { window: 't1', cell: 9 });
  assert.equal(cell.status, 422);
  assert.equal(cell.body.field, 'cell');
  assert.match(cell.body.detail, /0 to 8/);
  const unknown = await play(id, alice.token, { window: 't1', cell: 4, seat: 1 });
  assert.equal(unknown.status, 422);
  assert.equal(unknown.body.field, 'seat');
  const noWindow = await play(id, alice.token, { cell: 4 });
  assert.equal(noWindow.status, 422);
  assert.equal(noWindow.body.field, 'window');
  const badWindow = await play(id, alice.token, { window: 1, cell: 4 });
  assert.equal(badWindow.status, 422);
  assert.equal(badWindow.body.field, 'window');
  const spectator = await play(id, carol.token, { window: 't1', cell: 4 });
  assert.equal(spectator.status, 403);
  const anon = await play(id, undefined, { window: 't1', cell: 4 });
  assert.equal(anon.status, 401);
  const noGame = await play('nosuchgame00000', alice.token, { window: 't1', cell: 4 });
  assert.equal(noGame.status, 404);
  const notJson = await call('POST', `/api/v1/games/${id}/plays`, {
    token: alice.token,
    raw: '{cell: 4}',
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(notJson.status, 400);
  const big = await call('POST', `/api/v1/games/${id}/plays`, {
    token: alice.token,
    body: { window: 't1', cell: 4, pad: 'x'.repeat(66000) },
  });
  assert.equal(big.status, 413);
  assert.equal((await game(id)).body.version, 0, 'nothing was applied');
});

test('Idempotency-Key: the same body gets the stored answer, another body 422; If-Match: stale is 412', async () => {
  const id = await newGame(call, 'tictactoe', [alice, bob]);
  const key = { 'idempotency-key': 'move-one' };
  const first = await play(id, alice.token, { window: 't1', cell: 4 }, key);
  assert.equal(first.status, 200);
  assert.deepEqual(first.body, { version: 1 });
  const retry = await play(id, alice.token, { window: 't1', cell: 4 }, key);
  assert.equal(retry.status, 200);
  assert.deepEqual(retry.body, { version: 1 });
  const other = await play(id, alice.token, { window: 't1', cell: 5 }, key);
  assert.equal(other.status, 422);
  assert.match(other.body.detail, /Idempotency-Key/);
  assert.equal((await game(id)).body.version, 1, 'applied exactly once');
  // The key is per player: Bob may use the same one.
  const bobs = await play(id, bob.token, { window: 't2', cell: 0 }, key);
  assert.equal(bobs.status, 200);
  assert.deepEqual(bobs.body, { version: 2 });

  const tooLong = await play(
    id,
    alice.token,
    { window: 't3', cell: 1 },
    { 'idempotency-key': 'k'.repeat(129) },
  );
  assert.equal(tooLong.status, 422);
  assert.equal(tooLong.body.field, 'Idempotency-Key');
  const longest = await play(
    id,
    alice.token,
    { window: 't3', cell: 1 },
    { 'idempotency-key': 'k'.repeat(128), 'if-match': '"2"' },
  );
  assert.equal(longest.status, 200);
  assert.deepEqual(longest.body, { version: 3 });

  const stale = await play(id, bob.token, { window: 't4', cell: 6 }, { 'if-match': '"2"' });
  assert.equal(stale.status, 412);
  assert.equal(stale.headers.get('etag'), '"3"');
  const malformed = await play(id, bob.token, { window: 't4', cell: 6 }, { 'if-match': '3' });
  assert.equal(malformed.status, 412);
  const fresh = await play(id, bob.token, { window: 't4', cell: 6 }, { 'if-match': '"3"' });
  assert.equal(fresh.status, 200);
  const any = await play(id, alice.token, { window: 't5', cell: 8 }, { 'if-match': '*' });
  assert.equal(any.status, 200);
});

test('view: ETag is the version; If-None-Match answers 304 until the game moves', async () => {
  const id = await newGame(call, 'tictactoe', [alice, bob]);
  const v0 = await call('GET', `/api/v1/games/${id}/view`, { token: alice.token });
  assert.equal(v0.status, 200);
  assert.equal(v0.headers.get('etag'), '"0"');
  assert.equal(v0.body.turn, 0);
  assert.equal(v0.body.over, false);
  const same = await call('GET', `/api/v1/games/${id}/view`, {
    token: alice.token,
    headers: { 'if-none-match': '"0"' },
  });
  assert.equal(same.status, 304);
  assert.equal(same.text, '');
  const weak = await call('GET', `/api/v1/games/${id}/view`, {
    headers: { 'if-none-match': 'W/"5", W/"0"' },
  });
  assert.equal(weak.status, 304);
  await play(id, alice.token, { window: 't1', cell: 0 });
  const moved = await call('GET', `/api/v1/games/${id}/view`, {
    token: alice.token,
    headers: { 'if-none-match': '"0"' },
  });
  assert.equal(moved.status, 200);
  assert.equal(moved.headers.get('etag'), '"1"');
  assert.equal(moved.body.board[0], 0);
  const missing = await call('GET', '/api/v1/games/nosuchgame00000/view');
  assert.equal(missing.status, 404);
});

test('legal and log: what the caller may do and see', async () => {
  const id = await newGame(call, 'tictactoe', [alice, bob]);
  const legal = await call('GET', `/api/v1/games/${id}/legal`, { token: alice.token });
  assert.equal(legal.status, 200);
  assert.equal(legal.body.windows.length, 1);
  assert.equal(legal.body.windows[0].window, 't1');
  assert.equal(legal.body.windows[0].kind, 'play');
  assert.equal(legal.body.windows[0].choices.length, 9);
  const bobLegal = await call('GET', `/api/v1/games/${id}/legal`, { token: bob.token });
  assert.deepEqual(bobLegal.body.windows, []);
  const spectator = await call('GET', `/api/v1/games/${id}/legal`, { token: carol.token });
  assert.deepEqual(spectator.body, { windows: [] });
  assert.equal((await call('GET', `/api/v1/games/${id}/legal`)).status, 401);

  await play(id, alice.token, { window: 't1', cell: 4 });
  await play(id, bob.token, { window: 't2', cell: 0 });
  const log = await call('GET', `/api/v1/games/${id}/log`);
  assert.equal(log.status, 200);
  assert.deepEqual(
    log.body.entries.map((e) => e.entry.cell),
    [4, 0],
  );
  const after = await call('GET', `/api/v1/games/${id}/log?after=${log.body.entries[0].seq}`, {
    token: bob.token,
  });
  assert.deepEqual(
    after.body.entries.map((e) => e.entry.cell),
    [0],
  );
  for (const bad of ['-1', 'x', '1.5']) {
    const r = await call('GET', `/api/v1/games/${id}/log?after=${bad}`);
    assert.equal(r.status, 422, bad);
    assert.equal(r.body.field, 'after');
  }
  // A page of the log: at most `limit` entries, "more" when others follow.
  const first = await call('GET', `/api/v1/games/${id}/log?limit=1`);
  assert.deepEqual(
    first.body.entries.map((e) => e.entry.cell),
    [4],
  );
  assert.equal(first.body.more, true);
  const rest = await call(
    'GET',
    `/api/v1/games/${id}/log?limit=1&after=${first.body.entries[0].seq}`,
  );
  assert.deepEqual(
    rest.body.entries.map((e) => e.entry.cell),
    [0],
  );
  assert.equal(rest.body.more, undefined);
  assert.equal(log.body.more, undefined);
  for (const bad of ['0', '1001']) {
    const r = await call('GET', `/api/v1/games/${id}/log?limit=${bad}`);
    assert.equal(r.status, 422, bad);
    assert.equal(r.body.field, 'limit');
  }
  const exp = await call('GET', `/api/v1/games/${id}/export`, { token: alice.token });
  assert.equal(exp.status, 403);
  assert.match(exp.body.detail, /running/);
});

test('sealed orders: replace, withdraw, the lock, another seat, illegal orders, receipts', async () => {
  const id = await newGame(call, 'rps', [alice, bob], { options: { rounds: 2 } });
  const g0 = await game(id, carol.token);
  assert.deepEqual(g0.body.windows, [
    { id: 'r1', mode: 'sealed', seats: [0, 1], submitted: [], deadline: null },
  ]);

  const first = await order(id, alice.token, 'r1', { throw: 'rock' });
  assert.equal(first.status, 200);
  assert.equal(first.body.window, 'r1');
  assert.equal(first.body.seat, 0);
  assert.equal(first.body.version, 1);
  assert.match(first.body.receipt, /^[0-9a-f]{64}$/);
  const replaced = await order(id, alice.token, 'r1', { throw: 'paper', note: 'changed my mind' });
  assert.equal(replaced.status, 200);
  assert.notEqual(replaced.body.receipt, first.body.receipt);

  // Only Alice sees her order; others see that seat 0 has submitted.
  const mine = await game(id, alice.token);
  assert.deepEqual(mine.body.view.my_orders, { r1: { throw: 'paper', note: 'changed my mind' } });
  for (const token of [bob.token, carol.token, undefined]) {
    const other = await game(id, token);
    assert.deepEqual(other.body.windows[0].submitted, [0]);
    assert.ok(!JSON.stringify(other.body).includes('paper'), 'a sealed order leaked');
    const log = await call('GET', `/api/v1/games/${id}/log`, { token });
    assert.ok(!JSON.stringify(log.body).includes('paper'), 'a sealed order leaked into the log');
  }

  // Illegal orders and orders that are not the caller's to give.
  const illegal = await order(id, bob.token, 'r1', { throw: 'lizard' });
  assert.equal(illegal.status, 422);
  assert.equal(illegal.body.field, 'throw');
  const otherSeat = await order(id, bob.token, 'r1', { throw: 'rock', seat: 0 });
  assert.equal(otherSeat.status, 422, 'an order cannot name another seat');
  assert.equal(otherSeat.body.field, 'seat');
  const spectator = await order(id, carol.token, 'r1', { throw: 'rock' });
  assert.equal(spectator.status, 403);
  const anon = await order(id, undefined, 'r1', { throw: 'rock' });
  assert.equal(anon.status, 401);
  const future = await order(id, bob.token, 'r2', { throw: 'rock' });
  assert.equal(future.status, 409);
  const notObject = await order(id, bob.token, 'r1', ['rock']);
  assert.equal(notObject.status, 422);
  const tooLong = await order(id, bob.token, 'w'.repeat(60), { throw: 'rock' });
  assert.equal(tooLong.status, 409);

  // Withdraw, then give it again.
  const withdrawn = await call('DELETE', `/api/v1/games/${id}/orders/r1`, { token: alice.token });
  assert.equal(withdrawn.status, 204);
  assert.deepEqual((await game(id, alice.token)).body.view.my_orders, {});
  const twice = await call('DELETE', `/api/v1/games/${id}/orders/r1`, { token: alice.token });
  assert.equal(twice.status, 409);
  const wSpectator = await call('DELETE', `/api/v1/games/${id}/orders/r1`, { token: carol.token });
  assert.equal(wSpectator.status, 403);
  const final = await order(id, alice.token, 'r1', { throw: 'paper' });
  assert.equal(final.status, 200);

  // Bob's order locks the window: both are revealed, r1 takes no more orders.
  const bobs = await order(id, bob.token, 'r1', { throw: 'rock' });
  assert.equal(bobs.status, 200);
  const locked = await order(id, alice.token, 'r1', { throw: 'scissors' });
  assert.equal(locked.status, 409);
  assert.equal(locked.body.field, 'window');
  const lockedWithdraw = await call('DELETE', `/api/v1/games/${id}/orders/r1`, {
    token: alice.token,
  });
  assert.equal(lockedWithdraw.status, 409);
  const g1 = await game(id, carol.token);
  assert.equal(g1.body.windows[0].id, 'r2');

  // The receipts check out against the revealed nonces.
  const log = await call('GET', `/api/v1/games/${id}/log`, { token: alice.token });
  const reveal = log.body.entries.find(
    (e) => e.entry.type === 'reveal' && e.entry.window === 'r1',
  ).entry;
  const a = reveal.orders.find((o) => o.seat === 0);
  const b = reveal.orders.find((o) => o.seat === 1);
  assert.deepEqual(a.order, { throw: 'paper' });
  assert.equal(receiptOf(id, 'r1', 0, a.order, a.nonce), final.body.receipt);
  assert.equal(receiptOf(id, 'r1', 1, b.order, b.nonce), bobs.body.receipt);

  // Finish and export: orders carry their nonces and receipts; replay agrees.
  assert.equal((await order(id, alice.token, 'r2', { throw: 'rock' })).status, 200);
  assert.equal((await order(id, bob.token, 'r2', { throw: 'rock' })).status, 200);
  const end = await game(id);
  assert.equal(end.body.status, 'finished');
  const over = await order(id, bob.token, 'r3', { throw: 'rock' });
  assert.equal(over.status, 409);
  const exp = await call('GET', `/api/v1/games/${id}/export`, { token: carol.token });
  assert.equal(exp.status, 200);
  const orders = exp.body.inputs.filter((x) => x.kind === 'order');
  assert.ok(
    orders.every((x) => /^[0-9a-f]{32}$/.test(x.nonce) && /^[0-9a-f]{64}$/.test(x.receipt)),
  );
  assert.ok(orders.some((x) => x.receipt === final.body.receipt));
  assert.ok(exp.body.inputs.some((x) => x.kind === 'system' && x.payload.action === 'withdraw'));
  assert.deepEqual(
    exp.body.seats.map((s) => s.player.id),
    [alice.id, bob.id],
  );
  assert.deepEqual(exp.body.options, { rounds: 2 });
  const replay = await replayExport(exp.body);
  assert.equal(replay.match, true);
});

test('a game with a live clock lists deadlines for its open windows', async () => {
  const lobby = await call('POST', '/api/v1/lobbies', {
    token: alice.token,
    body: { ruleset: 'rps', seats: 2, clock: { mode: 'async', seconds: 3600 } },
  });
  await call('POST', `/api/v1/lobbies/${lobby.body.id}/seats`, { token: bob.token });
  const start = await call('POST', `/api/v1/lobbies/${lobby.body.id}/start`, {
    token: alice.token,
  });
  const g = await game(start.body.game, alice.token);
  const due = Date.parse(g.body.windows[0].deadline);
  assert.ok(due > Date.now() + 3500e3 && due < Date.now() + 3700e3, g.body.windows[0].deadline);
});

test('unknown games are 404 on every game route', async () => {
  const id = 'nosuchgame00000';
  for (const [method, p, opts] of [
    ['GET', `/api/v1/games/${id}`, {}],
    ['GET', `/api/v1/games/${id}/legal`, { token: alice.token }],
    ['GET', `/api/v1/games/${id}/log`, {}],
    ['GET', `/api/v1/games/${id}/export`, {}],
    ['PUT', `/api/v1/games/${id}/orders/r1`, { token: alice.token, body: { throw: 'rock' } }],
    ['DELETE', `/api/v1/games/${id}/orders/r1`, { token: alice.token }],
  ]) {
    const r = await call(method, p, opts);
    assert.equal(r.status, 404, `${method} ${p}`);
  }
  for (const odd of ['x'.repeat(100), 'dot.ted', 'semi%3Bcolon', '%00']) {
    const r = await call('GET', `/api/v1/games/${odd}`);
    assert.equal(r.status, 404, odd);
  }
});

// api_parts.test.mjs - sealed orders given in parts over REST
// (PUT/DELETE /api/v1/games/{id}/orders/{window}/parts/{key}), through the
// example ruleset fleets_example (the server runs with --example-rulesets):
// parts added, replaced and deleted, refusals that leave the held order as
// it was, concurrent part changes of one seat all kept, the per-ruleset
// order size limit (413 naming it), the last delete withdrawing the order,
// closed windows and windows without parts refused, the receipt of the last
// change equal to the whole order's at lock, and no part content reaching
// another seat or a spectator before the reveal.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createDatabase, dropDatabase, startServer } from './lib/server.mjs';
import { client, newPlayer, newGame, receiptOf, NO_LIMITS } from './lib/api.mjs';

let db, srv, call;
const MARKER = 'ZQX-secret-part-note';

before(async () => {
  db = createDatabase('parts');
  srv = await startServer({ db, env: { ...NO_LIMITS, CONCLAVE_EXAMPLE_RULESETS: '1' } });
  call = client(srv.url);
});

after(async () => {
  await srv?.stop();
  if (db) dropDatabase(db);
});

const partPath = (id, w, key) => `/api/v1/games/${id}/orders/${w}/parts/${key}`;
const myOrders = async (id, token) =>
  (await call('GET', `/api/v1/games/${id}/view`, { token })).body.my_orders;

// Everything another audience can read about the game, as one text.
async function seenBy(id, token) {
  const parts = [];
  for (const p of ['', '/view', '/log'])
    parts.push((await call('GET', `/api/v1/games/${id}${p}`, { token })).text);
  if (token) parts.push((await call('GET', `/api/v1/games/${id}/legal`, { token })).text);
  return parts.join('\n');
}

test('parts are added, replaced, deleted and checked against the whole order', async () => {
  const a = await newPlayer(call);
  const b = await newPlayer(call);
  const id = await newGame(call, 'fleets_example', [a, b], { options: { fleets: 8 } });
  const legal = await call('GET', `/api/v1/games/${id}/legal`, { token: a.token });
  assert.equal(legal.body.windows[0].window, 'r1');
  assert.equal(legal.body.windows[0].parts, true);

  let r = await call('PUT', partPath(id, 'r1', 'f0'), { token: a.token, body: { to: 5 } });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body.parts, ['f0']);
  assert.match(r.body.receipt, /^[0-9a-f]{64}$/);
  r = await call('PUT', partPath(id, 'r1', 'f1'), { token: a.token, body: { to: 7 } });
  assert.deepEqual(r.body.parts, ['f0', 'f1']);
  r = await call('PUT', partPath(id, 'r1', 'f1'), {
    token: a.token,
    body: { to: 8, note: MARKER },
  });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(await myOrders(id, a.token), {
    r1: { f0: { to: 5 }, f1: { to: 8, note: MARKER } },
  });

  // Refused parts leave the held order as it was.
  const before = await myOrders(id, a.token);
  r = await call('PUT', partPath(id, 'r1', 'f9'), { token: a.token, body: { to: 1 } });
  assert.equal(r.status, 422, r.text);
  assert.equal(r.body.field, 'f9');
  r = await call('PUT', partPath(id, 'r1', 'f2'), { token: a.token, body: { to: 500 } });
  assert.equal(r.status, 422, r.text);
  r = await call('PUT', partPath(id, 'r1', 'a%20b'), { token: a.token, body: { to: 1 } });
  assert.equal(r.status, 422, r.text);
  assert.equal(r.body.field, 'key');
  r = await call('PUT', partPath(id, 'r1', 'f2'), {
    token: a.token,
    raw: '{"to":',
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(r.status, 400, r.text);
  r = await call('PUT', partPath(id, 'r1', 'f2'), { body: { to: 1 } });
  assert.equal(r.status, 401, r.text);
  assert.deepEqual(await myOrders(id, a.token), before);

  // Delete one part; a part the order lacks is a 404.
  r = await call('DELETE', partPath(id, 'r1', 'f0'), { token: a.token });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body.parts, ['f1']);
  assert.match(r.body.receipt, /^[0-9a-f]{64}$/);
  r = await call('DELETE', partPath(id, 'r1', 'f0'), { token: a.token });
  assert.equal(r.status, 404, r.text);
  assert.deepEqual(await myOrders(id, a.token), { r1: { f1: { to: 8, note: MARKER } } });

  // Concurrent part changes of one seat: each applies to the order the one
  // before left, so all are kept.
  const keys = ['f2', 'f3', 'f4', 'f5', 'f6', 'f7'];
  const answers = await Promise.all(
    keys.map((k, i) =>
      call('PUT', partPath(id, 'r1', k), { token: a.token, body: { to: 10 + i } }),
    ),
  );
  for (const x of answers) assert.equal(x.status, 200, x.text);
  const held = (await myOrders(id, a.token)).r1;
  assert.deepEqual(Object.keys(held).sort(), ['f1', ...keys]);
  keys.forEach((k, i) => assert.deepEqual(held[k], { to: 10 + i }));
  const versions = answers.map((x) => x.body.version).sort((x, y) => x - y);
  assert.equal(new Set(versions).size, keys.length, 'each change is its own version');

  // Neither the other seat nor a spectator sees part contents.
  for (const token of [b.token, undefined]) {
    const text = await seenBy(id, token);
    assert.ok(!text.includes(MARKER), 'a part note leaked before the reveal');
    assert.ok(!text.includes('"to":10'), 'a part leaked before the reveal');
  }
  assert.deepEqual(await myOrders(id, b.token), {});

  // The last change's receipt is the whole order's at lock.
  const last = await call('PUT', partPath(id, 'r1', 'f7'), { token: a.token, body: { to: 42 } });
  assert.equal(last.status, 200, last.text);
  r = await call('PUT', partPath(id, 'r1', 'f0'), { token: b.token, body: { to: 3 } });
  assert.equal(r.status, 200, r.text);
  const log = await call('GET', `/api/v1/games/${id}/log`, { token: a.token });
  const mine = log.body.entries.find((e) => e.entry.type === 'your_order' && e.seat === 0).entry;
  assert.deepEqual(mine.order, { ...held, f7: { to: 42 } });
  assert.equal(mine.receipt, last.body.receipt);
  assert.equal(receiptOf(id, 'r1', 0, mine.order, mine.nonce), last.body.receipt);
  // The reveal is public_order's: where the fleets go, no notes.
  const pub = await call('GET', `/api/v1/games/${id}/log`);
  const reveal = pub.body.entries.find((e) => e.entry.type === 'reveal').entry;
  assert.equal(reveal.orders[0].order.f1, 8);
  assert.ok(!pub.text.includes(MARKER));

  // r1 is closed now.
  r = await call('PUT', partPath(id, 'r1', 'f0'), { token: a.token, body: { to: 1 } });
  assert.equal(r.status, 409, r.text);
  r = await call('DELETE', partPath(id, 'r1', 'f0'), { token: a.token });
  assert.equal(r.status, 409, r.text);

  // Deleting the last part withdraws the order: the window waits again.
  r = await call('PUT', partPath(id, 'r2', 'f3'), { token: a.token, body: { to: 9 } });
  assert.equal(r.status, 200, r.text);
  let g = await call('GET', `/api/v1/games/${id}`, { token: a.token });
  assert.deepEqual(g.body.windows[0].submitted, [0]);
  r = await call('DELETE', partPath(id, 'r2', 'f3'), { token: a.token });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.receipt, null);
  assert.deepEqual(r.body.parts, []);
  g = await call('GET', `/api/v1/games/${id}`, { token: a.token });
  assert.deepEqual(g.body.windows[0].submitted, []);
  assert.deepEqual(await myOrders(id, a.token), {});
  r = await call('DELETE', partPath(id, 'r2', 'f3'), { token: a.token });
  assert.equal(r.status, 404, r.text);
  // A spectator has no seat to give parts for.
  const c = await newPlayer(call);
  r = await call('PUT', partPath(id, 'r2', 'f0'), { token: c.token, body: { to: 1 } });
  assert.equal(r.status, 403, r.text);
});

test('a window without parts refuses them', async () => {
  const a = await newPlayer(call);
  const b = await newPlayer(call);
  const id = await newGame(call, 'rps', [a, b]);
  const r = await call('PUT', partPath(id, 'r1', 'throw'), { token: a.token, body: 'rock' });
  assert.equal(r.status, 409, r.text);
  assert.match(r.body.detail, /whole orders only/);
});

test('orders past 64 KiB where the ruleset allows them; 413 names the limit', async () => {
  const a = await newPlayer(call);
  const b = await newPlayer(call);
  const id = await newGame(call, 'fleets_example', [a, b]);
  const note = 'n'.repeat(100 * 1024);
  let r = await call('PUT', partPath(id, 'r1', 'f0'), { token: a.token, body: { to: 1, note } });
  assert.equal(r.status, 200, 'a 100 KiB part: past the 64 KiB default');
  r = await call('PUT', partPath(id, 'r1', 'f1'), { token: a.token, body: { to: 2, note } });
  assert.equal(r.status, 200, r.text);
  // A third would make the whole order larger than 256 KiB.
  r = await call('PUT', partPath(id, 'r1', 'f2'), { token: a.token, body: { to: 3, note } });
  assert.equal(r.status, 413, r.text);
  assert.match(r.body.detail, /262144/);
  assert.equal(r.body.field, 'f2');
  assert.deepEqual(Object.keys((await myOrders(id, a.token)).r1).sort(), ['f0', 'f1']);
  // A body larger than any ruleset takes is refused unread (Content-Length).
  r = await call('PUT', partPath(id, 'r1', 'f2'), {
    token: a.token,
    body: { to: 3, note: 'n'.repeat(300 * 1024) },
  });
  assert.equal(r.status, 413, r.text);
  assert.match(r.body.detail, /262144/);
  // A whole order for it may be as large, too.
  r = await call('PUT', `/api/v1/games/${id}/orders/r1`, {
    token: b.token,
    body: { f0: { to: 1, note } },
  });
  assert.equal(r.status, 200, r.text);

  // Other rulesets keep 64 KiB, orders and other routes alike.
  const rps = await newGame(call, 'rps', [a, b]);
  r = await call('PUT', `/api/v1/games/${rps}/orders/r1`, {
    token: a.token,
    body: { throw: 'rock', note: 'n'.repeat(70 * 1024) },
  });
  assert.equal(r.status, 413, r.text);
  assert.match(r.body.detail, /65536/);
  r = await call('POST', '/api/v1/lobbies', {
    token: a.token,
    body: { ruleset: 'rps', seats: 2, pad: 'n'.repeat(70 * 1024) },
  });
  assert.equal(r.status, 413, r.text);
  assert.match(r.body.detail, /65536/);
});

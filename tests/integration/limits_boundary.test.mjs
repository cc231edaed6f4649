// limits_boundary.test.mjs - caps at their boundary through the real
// server: a cap of N admits N and refuses N+1. The log's page size (1000)
// and the export's (5000) take their largest value and refuse one more; a
// player holds at most 5 webhooks: the fifth is taken, the sixth refused
// (429, nothing stored), and a deleted one frees exactly one place.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createDatabase, dropDatabase, startServer } from './lib/server.mjs';
import { client, newPlayer, newGame, NO_LIMITS } from './lib/api.mjs';
import { stopClean } from './lib/ws.mjs';

let db, srv, call;

before(async () => {
  db = createDatabase('limits');
  srv = await startServer({ db, env: { ...NO_LIMITS } });
  call = client(srv.url);
});

after(async () => {
  try {
    if (srv) await stopClean(srv);
  } finally {
    if (db) dropDatabase(db);
  }
});

test('page sizes: the log takes limit=1000, the export limit=5000; one more is refused', async () => {
  const a = await newPlayer(call, { prefix: 'la' });
  const b = await newPlayer(call, { prefix: 'lb' });
  const id = await newGame(call, 'tictactoe', [a, b]);
  for (const [who, window, cell] of [
    [a, 't1', 0],
    [b, 't2', 4],
    [a, 't3', 8],
  ]) {
    const r = await call('POST', `/api/v1/games/${id}/plays`, {
      token: who.token,
      body: { window, cell },
    });
    assert.equal(r.status, 200, r.text);
  }
  const log = await call('GET', `/api/v1/games/${id}/log?limit=1000`, { token: a.token });
  assert.equal(log.status, 200, log.text);
  assert.equal(log.body.entries.filter((e) => e.entry.type === 'move').length, 3);
  const over = await call('GET', `/api/v1/games/${id}/log?limit=1001`, { token: a.token });
  assert.equal(over.status, 422, over.text);
  assert.equal(over.body.field, 'limit');
  // the export is for a finished game: seat 1 takes the column 1-4-7
  for (const [who, window, cell] of [
    [b, 't4', 1],
    [a, 't5', 2],
    [b, 't6', 7],
  ]) {
    const r = await call('POST', `/api/v1/games/${id}/plays`, {
      token: who.token,
      body: { window, cell },
    });
    assert.equal(r.status, 200, r.text);
  }
  const exp = await call('GET', `/api/v1/games/${id}/export?limit=5000`, { token: a.token });
  assert.equal(exp.status, 200, exp.text);
  assert.equal(exp.body.next_after, undefined, 'one page');
  assert.equal(exp.body.inputs.length, 6);
  const tooMany = await call('GET', `/api/v1/games/${id}/export?limit=5001`, { token: a.token });
  assert.equal(tooMany.status, 422, tooMany.text);
  assert.equal(tooMany.body.field, 'limit');
});

test('webhooks: the fifth is taken, the sixth refused, a deleted one frees one place', async () => {
  const p = await newPlayer(call, { prefix: 'wh' });
  // check: false - a quota's 429 carries no Retry-After (docs/api.md: only a
  // change of state frees it), which the spec's shared 429 response does not say
  const add = (n) =>
    call('POST', '/api/v1/me/notifications/webhooks', {
      token: p.token,
      body: { url: `http://127.0.0.1:9/hook/${n}` },
      check: false,
    });
  const ids = [];
  for (let i = 1; i <= 5; i++) {
    const r = await add(i);
    assert.equal(r.status, 201, `webhook ${i}: ${r.text}`);
    ids.push(r.body.id);
  }
  const sixth = await add(6);
  assert.equal(sixth.status, 429, sixth.text);
  assert.match(sixth.headers.get('content-type'), /problem\+json/);
  assert.match(sixth.body.detail, /at most 5 webhooks/);
  const listed = async () =>
    (await call('GET', '/api/v1/me/notifications', { token: p.token })).body.webhooks.length;
  assert.equal(await listed(), 5, 'nothing stored for the refused one');
  const del = await call('DELETE', `/api/v1/me/notifications/webhooks/${ids[0]}`, {
    token: p.token,
  });
  assert.ok(del.status === 200 || del.status === 204, del.text);
  assert.equal((await add(7)).status, 201, 'one place freed');
  assert.equal((await add(8)).status, 429, 'only one');
  assert.equal(await listed(), 5);
});

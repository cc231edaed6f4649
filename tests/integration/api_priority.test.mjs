// api_priority.test.mjs - a seat's priority decisions over REST: its
// response rule (PUT /api/v1/games/{id}/response-rule) and undo with
// consent (POST .../undo, .../undo/consent, .../undo/refuse), through the
// example ruleset duel_example (the server runs with --example-rulesets).
// The rule is kept by the server and seen only by its seat; it passes for
// the seat; an undo is immediate before anyone else acted and needs the
// others' consent after; refusals and rulesets without priority answer
// with the documented problems.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createDatabase, dropDatabase, startServer } from './lib/server.mjs';
import { client, newPlayer, newGame, NO_LIMITS } from './lib/api.mjs';

let db, srv, call;

before(async () => {
  db = createDatabase('prio');
  srv = await startServer({ db, env: { ...NO_LIMITS, CONCLAVE_EXAMPLE_RULESETS: '1' } });
  call = client(srv.url);
});

after(async () => {
  await srv?.stop();
  if (db) dropDatabase(db);
});

const HANDS = {
  hands: [
    ['bolt', 'counter', 'trap', 'cycle'],
    ['counter', 'bolt', 'cycle'],
  ],
};
const view = async (id, token) => (await call('GET', `/api/v1/games/${id}/view`, { token })).body;
const post = (id, what, token, body) =>
  call('POST', `/api/v1/games/${id}/${what}`, { token, body });

async function play(id, token, action) {
  const v = await view(id, token);
  const r = await call('POST', `/api/v1/games/${id}/plays`, {
    token,
    body: { window: v.priority.window, ...action },
  });
  assert.equal(r.status, 200, r.text);
}

test('a response rule is kept for its seat, seen only by it, and passes for it', async () => {
  const a = await newPlayer(call);
  const b = await newPlayer(call);
  const id = await newGame(call, 'duel_example', [a, b], { options: HANDS });
  for (const [body, field] of [
    [{ until: 'soon' }, 'until'],
    [{}, 'until'],
    [{ until: 'my_turn', stop_if_targeted: 'yes' }, 'stop_if_targeted'],
    [{ until: 'my_turn', extra: 1 }, 'extra'],
  ]) {
    const r = await call('PUT', `/api/v1/games/${id}/response-rule`, { token: b.token, body });
    assert.equal(r.status, 422, r.text);
    assert.equal(r.body.field, field);
  }
  let r = await call('PUT', `/api/v1/games/${id}/response-rule`, {
    token: b.token,
    body: { until: 'stack_changes', stop_if_targeted: true },
  });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.stop_if_targeted, true);
  assert.deepEqual((await view(id, b.token)).priority.my_rule, {
    until: 'stack_changes',
    stop_if_targeted: true,
  });
  r = await call('PUT', `/api/v1/games/${id}/response-rule`, {
    token: b.token,
    body: { until: 'my_turn' },
  });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(
    { ...r.body, version: 0 },
    { version: 0, until: 'my_turn', stop_if_targeted: false },
  );
  assert.deepEqual((await view(id, b.token)).priority.my_rule, {
    until: 'my_turn',
    stop_if_targeted: false,
  });
  assert.equal((await view(id, a.token)).priority.my_rule, null);
  const pub = await call('GET', `/api/v1/games/${id}/view`);
  assert.ok(!('my_rule' in pub.body.priority));
  for (const token of [a.token, undefined]) {
    const log = await call('GET', `/api/v1/games/${id}/log`, { token });
    assert.ok(!log.text.includes('my_turn'), 'the rule reached another audience');
  }
  // Without a seat: 403; without a token: 401.
  const c = await newPlayer(call);
  r = await call('PUT', `/api/v1/games/${id}/response-rule`, {
    token: c.token,
    body: { until: 'never' },
  });
  assert.equal(r.status, 403, r.text);
  r = await call('PUT', `/api/v1/games/${id}/response-rule`, { body: { until: 'never' } });
  assert.equal(r.status, 401, r.text);

  // Seat 0 bolts seat 1 and passes: seat 1's rule passes for it, so the
  // bolt resolves with no request from seat 1.
  await play(id, a.token, { action: 'cast', card: 0, target: 1 });
  assert.deepEqual(
    (await view(id, a.token)).stack.map((item) => item.source),
    ['bolt'],
  );
  await play(id, a.token, { action: 'pass' });
  const after = await view(id, a.token);
  assert.equal(after.life[1], 7);
  assert.ok(!after.stack.some((item) => item.source === 'bolt'), 'the bolt resolved');
  // "never" clears it.
  r = await call('PUT', `/api/v1/games/${id}/response-rule`, {
    token: b.token,
    body: { until: 'never', stop_if_targeted: false },
  });
  assert.equal(r.status, 200, r.text);
  assert.equal((await view(id, b.token)).priority.my_rule, null);
});

test('undo: at once before anyone acted, with every consent after', async () => {
  const a = await newPlayer(call);
  const b = await newPlayer(call);
  const id = await newGame(call, 'duel_example', [a, b], { options: HANDS });
  let r = await post(id, 'undo', a.token);
  assert.equal(r.status, 409, r.text);
  r = await post(id, 'undo', a.token, { now: true });
  assert.equal(r.status, 422, r.text);

  // Before anyone else acted: taken back at once, by its player only.
  await play(id, a.token, { action: 'cast', card: 0, target: 1 });
  assert.equal((await view(id, a.token)).stack.length, 1);
  r = await post(id, 'undo', b.token);
  assert.equal(r.status, 409, r.text);
  r = await post(id, 'undo', a.token, {});
  assert.equal(r.status, 200, r.text);
  let v = await view(id, a.token);
  assert.equal(v.stack.length, 0);
  assert.deepEqual(v.hand, ['bolt', 'counter', 'trap', 'cycle']);

  // After seat 1 acted (its pass resolved the bolt): it must agree.
  await play(id, a.token, { action: 'cast', card: 0, target: 1 });
  await play(id, a.token, { action: 'pass' });
  await play(id, b.token, { action: 'pass' });
  assert.equal((await view(id, a.token)).life[1], 7);
  r = await post(id, 'undo/consent', b.token);
  assert.equal(r.status, 409, r.text);
  r = await post(id, 'undo', a.token);
  assert.equal(r.status, 200, r.text);
  v = await view(id, b.token);
  assert.equal(v.life[1], 7, 'asked, not yet undone');
  assert.equal(v.priority.undo.requested, true);
  r = await post(id, 'undo/refuse', b.token);
  assert.equal(r.status, 200, r.text);
  r = await post(id, 'undo/consent', b.token);
  assert.equal(r.status, 409, r.text);
  assert.equal((await view(id, a.token)).priority.undo?.requested ?? false, false);

  r = await post(id, 'undo', a.token);
  assert.equal(r.status, 200, r.text);
  r = await post(id, 'undo/consent', a.token);
  assert.equal(r.status, 409, r.text); // not its own request
  r = await post(id, 'undo/consent', b.token, {});
  assert.equal(r.status, 200, r.text);
  v = await view(id, a.token);
  assert.equal(v.life[1], 10);
  assert.equal(v.stack.length, 0);
  const log = await call('GET', `/api/v1/games/${id}/log`);
  assert.equal(log.body.entries.at(-1).entry.type, 'undone');
});

test('a ruleset without priority refuses the priority routes', async () => {
  const a = await newPlayer(call);
  const b = await newPlayer(call);
  const id = await newGame(call, 'rps', [a, b]);
  let r = await call('PUT', `/api/v1/games/${id}/response-rule`, {
    token: a.token,
    body: { until: 'my_turn' },
  });
  assert.equal(r.status, 422, r.text);
  r = await post(id, 'undo', a.token);
  assert.equal(r.status, 422, r.text);
  r = await post(id, 'undo/refuse', a.token);
  assert.equal(r.status, 422, r.text);
  r = await post(id, 'undo', a.token, undefined);
  assert.equal(r.status, 422, r.text);
  r = await call('POST', '/api/v1/games/nosuchgame/undo', { token: a.token });
  assert.equal(r.status, 404, r.text);
});

// Skirmish (edition 2, what new games get): a recruit of seat 0 on c3
// against two of seat 1's on c4 and a6, so seat 0 starts in its choice.
async function skirmishDuel(a, b, options) {
  const id = await newGame(call, 'skirmish', [a, b], options ? { options } : {});
  const put = async (token, window, body) => {
    const r = await call('PUT', `/api/v1/games/${id}/orders/${window}`, { token, body });
    assert.equal(r.status, 200, r.text);
  };
  await put(a.token, 'muster', { cards: ['iron_recruit'] });
  await put(b.token, 'muster', { cards: ['iron_recruit', 'iron_recruit'] });
  await put(a.token, 'deploy', { squares: ['c3'] });
  await put(b.token, 'deploy', { squares: ['c4', 'a6'] });
  return id;
}

test('Skirmish: a declaration in one click, hold priority, undo with consent', async () => {
  const a = await newPlayer(call);
  const b = await newPlayer(call);
  const id = await skirmishDuel(a, b);
  let v = await view(id, a.token);
  assert.equal(v.priority.step, 'choice', 'the start step flowed into choice');
  assert.equal(v.priority.holder, 0);
  assert.equal(v.priority.hold, false);
  // The declaration passes priority with it.
  await play(id, a.token, { action: 'move', unit: 0, to: 'b3' });
  v = await view(id, a.token);
  assert.deepEqual([v.priority.step, v.priority.holder, v.stack.length], ['exec', 1, 1]);
  // Seat 1 holds priority from now on: only its view says so.
  let r = await call('PUT', `/api/v1/games/${id}/response-rule`, {
    token: b.token,
    body: { hold: true },
  });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual({ ...r.body, version: 0 }, { version: 0, hold: true });
  assert.equal((await view(id, b.token)).priority.hold, true);
  assert.equal((await view(id, a.token)).priority.hold, false);
  assert.ok(!('hold' in (await call('GET', `/api/v1/games/${id}/view`)).body.priority));
  r = await call('PUT', `/api/v1/games/${id}/response-rule`, {
    token: b.token,
    body: { hold: 'yes' },
  });
  assert.equal(r.status, 422, r.text);
  assert.equal(r.body.field, 'hold');
  // Seat 1 passes: the move resolves, seat 0 passes on the empty stack
  // for itself, and seat 1, holding, gets priority there.
  await play(id, b.token, { action: 'pass' });
  v = await view(id, b.token);
  assert.equal(v.units[0].square, 'b3');
  assert.deepEqual([v.priority.step, v.priority.holder, v.stack.length], ['exec', 1, 0]);
  await play(id, b.token, { action: 'pass', hold: false });
  v = await view(id, b.token);
  assert.deepEqual([v.priority.step, v.priority.holder, v.priority.hold], ['choice', 0, false]);
  // Undo: seat 1 acted since, so it is asked, and agrees.
  r = await post(id, 'undo', a.token);
  assert.equal(r.status, 200, r.text);
  assert.equal((await view(id, b.token)).priority.undo.requested, true);
  r = await post(id, 'undo/consent', b.token);
  assert.equal(r.status, 200, r.text);
  v = await view(id, a.token);
  assert.equal(v.units[0].square, 'c3');
  assert.deepEqual([v.priority.step, v.priority.holder, v.stack.length], ['choice', 0, 0]);
});

test('Skirmish edition 1 has no undo and says so', async () => {
  const a = await newPlayer(call);
  const b = await newPlayer(call);
  const id = await skirmishDuel(a, b, { edition: 1 });
  const r = await post(id, 'undo', a.token);
  assert.equal(r.status, 422, r.text);
  assert.equal(r.body.field, 'action');
  assert.match(r.body.detail, /Skirmish has no undo/);
});

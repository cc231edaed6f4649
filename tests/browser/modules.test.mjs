// modules.test.mjs - the page's pure modules run under Node: jsonpatch.js
// (RFC 6902 examples, pointer escaping, all-or-nothing failures, and random
// documents diffed by fast-json-patch), and sprintrules.js checked against
// the server: in many Galactic Sprint states, the placements the page says
// are possible, with their costs, are exactly GET /legal's choices.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import jsonpatch from 'fast-json-patch';
import { applyPatch, parsePointer, formatPointer, PatchError } from '../../web/jsonpatch.js';
import {
  planCost,
  choiceKey,
  orderOf,
  planOf,
  defaultMode,
  timeoutDefaultText,
  resultLine,
  windowWords,
} from '../../web/games/sprint/sprintrules.js';
import { createDatabase, dropDatabase, startServer, http } from '../integration/lib/server.mjs';

// ------------------------------------------------------------ sprint log --

test('sprintrules: a timeout is worded from the window that timed out, not the current phase', () => {
  assert.equal(timeoutDefaultText('r3.place'), 'explored');
  assert.equal(timeoutDefaultText('r3.explore'), 'kept the oldest cards');
  assert.equal(timeoutDefaultText('r3.limit'), 'kept the oldest cards');
});

test("sprintrules: a campaign game's result line does not quote the target it need not reach", () => {
  const base = { solitaire: true, scores: [49], rounds: 7, target_vp: 50 };
  assert.equal(resultLine(base), '49 VP chips after 7 rounds (target 50).');
  const won = resultLine({ ...base, campaign: true, won: true, new_conditions: ['tycoon'] });
  assert.doesNotMatch(won, /target/);
  assert.match(won, /It met Tycoon, new to your campaign/);
  assert.match(
    resultLine({ ...base, campaign: true, won: false, new_conditions: [] }),
    /campaign is lost/,
  );
  assert.equal(resultLine({ solitaire: false }), null);
});

test('sprintrules: window ids in player words for the log', () => {
  assert.equal(windowWords('r3.place'), 'placement in round 3');
  assert.equal(windowWords('r12.explore'), 'discard after exploring in round 12');
  assert.equal(windowWords('r1.limit'), 'hand-limit discard in round 1');
});

// ------------------------------------------------------------ jsonpatch --

test('jsonpatch: the RFC 6902 appendix examples', () => {
  const cases = [
    [{ foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux' }], { baz: 'qux', foo: 'bar' }],
    [
      { foo: ['bar', 'baz'] },
      [{ op: 'add', path: '/foo/1', value: 'qux' }],
      { foo: ['bar', 'qux', 'baz'] },
    ],
    [{ baz: 'qux', foo: 'bar' }, [{ op: 'remove', path: '/baz' }], { foo: 'bar' }],
    [{ foo: ['bar', 'qux', 'baz'] }, [{ op: 'remove', path: '/foo/1' }], { foo: ['bar', 'baz'] }],
    [
      { baz: 'qux', foo: 'bar' },
      [{ op: 'replace', path: '/baz', value: 'boo' }],
      { baz: 'boo', foo: 'bar' },
    ],
    [
      { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } },
      [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }],
      { foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } },
    ],
    [
      { foo: ['all', 'grass', 'cows', 'eat'] },
      [{ op: 'move', from: '/foo/1', path: '/foo/3' }],
      { foo: ['all', 'cows', 'eat', 'grass'] },
    ],
    [
      { baz: 'qux', foo: ['a', 2, 'c'] },
      [
        { op: 'test', path: '/baz', value: 'qux' },
        { op: 'test', path: '/foo/1', value: 2 },
      ],
      { baz: 'qux', foo: ['a', 2, 'c'] },
    ],
    [
      { foo: 'bar' },
      [{ op: 'add', path: '/child', value: { grandchild: {} } }],
      { foo: 'bar', child: { grandchild: {} } },
    ],
    [
      { foo: 'bar' },
      [{ op: 'add', path: '/baz', value: 'qux', xyz: 123 }],
      { foo: 'bar', baz: 'qux' },
    ],
    [
      { foo: ['bar'] },
      [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }],
      { foo: ['bar', ['abc', 'def']] },
    ],
    [{ '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: 10 }], { '/': 9, '~1': 10 }],
    [{ a: { b: 1 } }, [{ op: 'copy', from: '/a', path: '/c' }], { a: { b: 1 }, c: { b: 1 } }],
    [{ a: 1 }, [{ op: 'replace', path: '', value: [1, 2] }], [1, 2]],
    [
      { 'a/b': { 'm~n': 1 } },
      [{ op: 'replace', path: '/a~1b/m~0n', value: 2 }],
      { 'a/b': { 'm~n': 2 } },
    ],
  ];
  for (const [doc, ops, want] of cases)
    assert.deepEqual(applyPatch(doc, ops), want, JSON.stringify(ops));
});

test('jsonpatch: failures throw, name the operation, and change nothing', () => {
  const doc = { a: [1, 2], b: { c: 1 } };
  const copy = structuredClone(doc);
  const bad = [
    [{ op: 'add', path: '/a/5', value: 1 }],
    [{ op: 'remove', path: '/x' }],
    [{ op: 'replace', path: '/b/d', value: 1 }],
    [{ op: 'test', path: '/a/0', value: 2 }],
    [{ op: 'add', path: '/a/01', value: 1 }],
    [{ op: 'move', from: '/b', path: '/b/c/d' }],
    [{ op: 'frobnicate', path: '/a' }],
    [{ op: 'add', path: 'a', value: 1 }],
    [
      { op: 'add', path: '/b/c', value: 2 },
      { op: 'remove', path: '/nope' },
    ],
    [{ op: 'remove', path: '' }],
    [{ op: 'add', path: '/a/0' }],
  ];
  for (const ops of bad) {
    assert.throws(() => applyPatch(doc, ops), PatchError, JSON.stringify(ops));
    assert.deepEqual(doc, copy, 'the document is untouched');
  }
  try {
    applyPatch(doc, bad[8]);
  } catch (e) {
    assert.equal(e.index, 1);
    assert.match(e.message, /op 1 \(remove "\/nope"\)/);
  }
  assert.deepEqual(parsePointer('/a~1b/~0/'), ['a/b', '~', '']);
  assert.equal(formatPointer(['a/b', '~', '']), '/a~1b/~0/');
  assert.throws(() => parsePointer('/a~2'));
});

test('jsonpatch: random documents diffed by fast-json-patch apply exactly', () => {
  let seed = 12345;
  const rnd = (n) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const keys = ['a', 'b', 'hand', 'x/y', 'm~n', '0', 'view', 'cards'];
  const value = (depth) => {
    const k = rnd(depth > 2 ? 4 : 7);
    if (k === 0) return rnd(100);
    if (k === 1) return `s${rnd(10)}`;
    if (k === 2) return null;
    if (k === 3) return rnd(2) === 0;
    if (k === 4 || k === 5) return Array.from({ length: rnd(6) }, () => value(depth + 1));
    const o = {};
    for (let i = rnd(5); i > 0; i--) o[keys[rnd(keys.length)]] = value(depth + 1);
    return o;
  };
  for (let i = 0; i < 3000; i++) {
    const a = { view: value(0), windows: value(1) };
    const b = rnd(4)
      ? { view: value(0), windows: a.windows }
      : { view: value(0), windows: value(1) };
    const ops = jsonpatch.compare(a, b);
    assert.deepEqual(
      applyPatch(a, ops),
      b,
      `${JSON.stringify(a)} -> ${JSON.stringify(b)} by ${JSON.stringify(ops)}`,
    );
  }
});

// ---------------------------------------------------------- sprintrules --

let db, server;
const NO_LIMITS = { CONCLAVE_RATE: '1000000', CONCLAVE_RATE_BURST: '1000000' };

before(async () => {
  db = createDatabase('web');
  server = await startServer({ db, env: NO_LIMITS });
});

after(async () => {
  if (server) await server.stop();
  if (db) dropDatabase(db);
});

async function call(method, p, token, body) {
  const r = await http(server.url, method, p, { token, body });
  if (r.status >= 400) throw new Error(`${method} ${p}: ${r.status} ${r.text}`);
  return r.body;
}

// Every placement the page could build from the view, with its cost.
function clientChoices(view, seat) {
  const hand = view.hand.map((r) => ({ id: r.id, d: view.cards[r.card] }));
  const me = view.players[seat];
  const devs = hand
    .filter((c) => c.d.type === 'development')
    .map((c) => ({ dev: c.id, survey: false }));
  if (me.survey_available) devs.push({ dev: null, survey: true });
  const worlds = [];
  for (const w of hand.filter((c) => c.d.type === 'world')) {
    for (const mode of w.d.military_world ? ['pay', 'conquer'] : ['pay']) {
      worlds.push({ world: w.id, worldMode: mode, convoy: null, convoyMode: null });
      if (!(w.d.abilities || []).some((a) => a.type === 'convoy')) continue;
      for (const w2 of hand.filter((c) => c.d.type === 'world' && c.id !== w.id))
        for (const m2 of w2.d.military_world ? ['pay', 'conquer'] : ['pay'])
          worlds.push({ world: w.id, worldMode: mode, convoy: w2.id, convoyMode: m2 });
    }
  }
  const plans = [{ action: 'explore' }];
  for (const d of devs) plans.push({ action: 'develop', ...d });
  for (const d of devs) for (const w of worlds) plans.push({ action: 'both', ...d, ...w });
  for (const w of worlds) plans.push({ action: 'settle', ...w });
  const out = new Map();
  for (const p of plans) {
    const r = planCost(view, seat, p);
    if (r.ok) out.set(choiceKey(view, p), r.total);
    else assert.ok(r.error && r.error.length > 5, 'a reason for every refusal');
  }
  return out;
}

test(
  'sprintrules: the page allows exactly what GET /legal allows, at the same cost',
  { timeout: 180000 },
  async () => {
    let states = 0;
    let built = 0;
    let discounted = 0;
    let seed = 99;
    const rnd = (n) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    for (let g = 0; g < 14; g++) {
      const p = await call('POST', '/api/v1/players', null, { name: `rules${g}` });
      const seats = g % 3 === 2 ? 2 : 1;
      const lobby = await call('POST', '/api/v1/lobbies', p.token, { ruleset: 'sprint', seats });
      if (seats === 2)
        await call('POST', `/api/v1/lobbies/${lobby.id}/bots`, p.token, { level: 'basic' });
      const { game } = await call('POST', `/api/v1/lobbies/${lobby.id}/start`, p.token);
      for (let step = 0; step < 80; step++) {
        const gm = await call('GET', `/api/v1/games/${game}`, p.token);
        if (gm.status !== 'running') break;
        const w = gm.windows.find((x) => x.seats.includes(0) && !x.submitted.includes(0));
        if (!w) {
          await new Promise((r) => setTimeout(r, 30));
          continue;
        }
        const legal = await call('GET', `/api/v1/games/${game}/legal`, p.token);
        const mine = legal.windows.find((x) => x.window === w.id);
        const view = gm.view;
        if (view.phase !== 'place') {
          const need = view.players[0].must_discard;
          const ids = view.hand.map((r) => r.id).slice(0, need);
          await call('PUT', `/api/v1/games/${game}/orders/${w.id}`, p.token, { discard: ids });
          continue;
        }
        states++;
        const server = new Map(mine.choices.map((c) => [choiceKey(view, c), c.cost]));
        const client = clientChoices(view, 0);
        assert.deepEqual(
          [...client.entries()].sort(),
          [...server.entries()].sort(),
          `round ${view.round} of ${game}: ${JSON.stringify(view.players[0].empire)}`,
        );
        // Play a random placement (builds more often than it explores).
        const options = mine.choices.filter((c) => c.action !== 'explore');
        const c = options.length && rnd(5) ? options[rnd(options.length)] : mine.choices[0];
        const plan = planOf(c);
        const placed = [plan.dev, plan.world, plan.convoy].filter((x) => x !== null);
        const spare = view.hand.map((r) => r.id).filter((id) => !placed.includes(id));
        const mode = plan.world !== null ? c.world_mode : null;
        if (
          plan.world !== null &&
          mode !== defaultMode(view.cards[view.hand.find((r) => r.id === plan.world).card])
        )
          discounted++;
        const order = orderOf(plan, spare.slice(0, c.cost), null);
        await call('PUT', `/api/v1/games/${game}/orders/${w.id}`, p.token, order);
        if (c.action !== 'explore') built++;
        if (
          view.players[0].empire.some((r) =>
            (view.cards[r.card].abilities || []).some((a) => a.type === 'discount'),
          )
        )
          discounted++;
      }
    }
    assert.ok(states >= 60, `only ${states} placement states`);
    assert.ok(built >= 30, `only ${built} builds`);
    assert.ok(discounted > 0, 'some states had discounts or paid military worlds');
  },
);

// ------------------------------------------------------------------ ws --

test('ws: snapshots, patches, a gap, a bad patch and a reconnect', async () => {
  const sockets = [];
  class FakeSocket {
    static OPEN = 1;
    constructor(url, proto) {
      this.url = url;
      this.proto = proto;
      this.sent = [];
      this.readyState = 0;
      sockets.push(this);
      setTimeout(() => {
        this.readyState = 1;
        this.onopen && this.onopen();
      }, 0);
    }
    send(t) {
      this.sent.push(JSON.parse(t));
    }
    close() {
      this.readyState = 3;
    }
    recv(msg) {
      this.onmessage({ data: JSON.stringify(msg) });
    }
    drop() {
      this.readyState = 3;
      this.onclose && this.onclose();
    }
  }
  globalThis.WebSocket = FakeSocket;
  const { Live } = await import('../../web/ws.js');
  const tick = (ms = 5) => new Promise((r) => setTimeout(r, ms));
  const live = new Live('ws://example/ws', () => 'TOKEN');
  const states = [];
  live.start();
  await tick();
  const s1 = sockets[0];
  assert.equal(s1.proto, 'conclave.v1');
  live.watchGame('g1', { version: 3, view: { n: 1 }, windows: [] }, (s) => states.push(s));
  assert.deepEqual(s1.sent, [
    { type: 'auth', token: 'TOKEN' },
    { type: 'subscribe', game: 'g1', version: 3 },
  ]);
  s1.recv({
    type: 'patch',
    game: 'g1',
    from: 3,
    to: 4,
    ops: [{ op: 'replace', path: '/view/n', value: 2 }],
  });
  assert.deepEqual(states.at(-1), { version: 4, view: { n: 2 }, windows: [] });
  // Old news is ignored; a gap asks again from the version held.
  s1.recv({ type: 'patch', game: 'g1', from: 2, to: 3, ops: [] });
  s1.recv({ type: 'patch', game: 'g1', from: 6, to: 7, ops: [] });
  assert.deepEqual(s1.sent.at(-1), { type: 'subscribe', game: 'g1', version: 4 });
  assert.equal(states.length, 1);
  // A patch that does not apply: start over with a snapshot.
  s1.recv({
    type: 'patch',
    game: 'g1',
    from: 4,
    to: 5,
    ops: [{ op: 'remove', path: '/view/missing' }],
  });
  assert.deepEqual(s1.sent.at(-1), { type: 'subscribe', game: 'g1' });
  s1.recv({ type: 'snapshot', game: 'g1', version: 5, view: { n: 5 }, windows: [{ id: 'w' }] });
  assert.deepEqual(states.at(-1), { version: 5, view: { n: 5 }, windows: [{ id: 'w' }] });
  // The connection drops: offline, then a new socket resumes from 5.
  const seen = [];
  live.onStatus((s) => seen.push(s));
  s1.drop();
  assert.equal(live.status, 'offline');
  await tick(700);
  const s2 = sockets[1];
  assert.ok(s2, 'reconnected');
  assert.deepEqual(s2.sent, [
    { type: 'auth', token: 'TOKEN' },
    { type: 'subscribe', game: 'g1', version: 5 },
  ]);
  assert.ok(seen.includes('offline') && seen.at(-1) === 'open');
  live.stopped = true;
  clearTimeout(live.timers.ping);
});

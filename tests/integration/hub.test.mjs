// hub.test.mjs - the WebSocket hub against real servers: players and
// spectators follow games (open plays, sealed orders, timeouts and bots),
// every client's document equals what GET /api/v1/games/{id} shows its
// audience, sealed orders never leak before reveal, resume after disconnects,
// a slow consumer ends with a snapshot, two processes share one database,
// and the lobby feed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomInt } from 'node:crypto';
import { createDatabase, dropDatabase, startServer, http, psql, sleep } from './lib/server.mjs';
import { HubClient, stopClean, newPlayer, newGame, getGame, play, order } from './lib/ws.mjs';

const FAST = { CONCLAVE_RATE: '100000', CONCLAVE_RATE_BURST: '100000' };

let db;
let srv;
before(async () => {
  db = createDatabase('hub');
  srv = await startServer({ db, env: FAST });
});
after(async () => {
  try {
    if (srv) await stopClean(srv);
  } finally {
    if (db) dropDatabase(db);
  }
});

// Connect, authenticate (token null: a spectator) and subscribe.
async function follow(server, game, token, version) {
  const c = await HubClient.connect(server.wsUrl);
  if (token) c.send({ type: 'auth', token });
  c.send(
    version === undefined ? { type: 'subscribe', game } : { type: 'subscribe', game, version },
  );
  return c;
}

// Wait until client c holds the version REST shows its audience, then
// compare the document with REST's view and windows. Retries while the game
// moves on by itself (bots, timeouts).
async function settled(base, c, game, token, what) {
  for (let attempt = 0; ; attempt++) {
    const r = await getGame(base, game, token);
    await c.until(() => c.version(game) !== null && c.version(game) >= r.version, {
      timeout: 10000,
      what: `${what} to reach version ${r.version}`,
    });
    if (c.version(game) === r.version) {
      assert.deepEqual(
        c.doc(game),
        { view: r.view, windows: r.windows },
        `${what} at version ${r.version}`,
      );
      assert.deepEqual(c.mismatches, [], `${what}: every patch chained`);
      assert.deepEqual(c.errors, [], `${what}: no errors`);
      return r;
    }
    assert.ok(attempt < 20, `${what}: the game never held still`);
  }
}

test('tic-tac-toe: two players and a spectator hold exactly the REST view after every play', async () => {
  const a = await newPlayer(srv.url, 'ttt');
  const b = await newPlayer(srv.url, 'ttt');
  const game = await newGame(srv.url, 'tictactoe', [a, b]);
  const ca = await follow(srv, game, a.token);
  const cb = await follow(srv, game, b.token);
  const cs = await follow(srv, game, null);
  const who = [
    [ca, a.token, 'seat 0'],
    [cb, b.token, 'seat 1'],
    [cs, null, 'spectator'],
  ];
  let r = await settled(srv.url, cs, game, null, 'spectator');
  let plays = 0;
  while (r.status === 'running') {
    const w = r.windows[0];
    const mover = w.seats[0] === 0 ? a : b;
    const free = r.view.board.map((v, i) => (v === null ? i : -1)).filter((i) => i >= 0);
    const res = await play(srv.url, game, mover.token, {
      window: w.id,
      cell: free[randomInt(free.length)],
    });
    assert.equal(res.status, 200, res.text);
    plays++;
    for (const [c, token, what] of who) r = await settled(srv.url, c, game, token, what);
  }
  assert.ok(plays >= 5);
  for (const [c] of who) {
    assert.equal(c.counts.snapshot, 1, 'one snapshot, then patches only');
    assert.equal(c.counts.patch, plays);
    c.close();
  }
  // A player's view is its seat's, a spectator's the public one: the seats'
  // snapshots carry their own (empty) pending orders, the spectator's none,
  // and the last documents equal the REST views of the same audiences, which
  // differ the same way.
  const snap = (c) => c.messages.find((m) => m.type === 'snapshot');
  assert.deepEqual(snap(ca).view.my_orders, {});
  assert.deepEqual(snap(cb).view.my_orders, {});
  assert.equal('my_orders' in snap(cs).view, false);
  const restA = await getGame(srv.url, game, a.token);
  const restS = await getGame(srv.url, game, null);
  assert.deepEqual(ca.doc(game).view, restA.view);
  assert.deepEqual(cs.doc(game).view, restS.view);
  assert.deepEqual(restA.view.my_orders, {});
  assert.equal('my_orders' in restS.view, false);
});

test('many spectators of one game: one rendering reaches every one of them, every patch once', async () => {
  // The hub renders a version once per audience and queues it on every
  // subscriber in one pass, waking the WebSocket thread once: each of
  // these sockets (some from another address's worth of connections at
  // once) must still get every patch, in order, and end on REST's view.
  const a = await newPlayer(srv.url, 'fan');
  const b = await newPlayer(srv.url, 'fan');
  const game = await newGame(srv.url, 'tictactoe', [a, b]);
  const specs = [];
  for (let i = 0; i < 24; i++) specs.push(await follow(srv, game, null));
  let r = null;
  for (const [i, c] of specs.entries()) r = await settled(srv.url, c, game, null, `spectator ${i}`);
  let plays = 0;
  while (r.status === 'running') {
    const w = r.windows[0];
    const mover = w.seats[0] === 0 ? a : b;
    const free = r.view.board.map((v, i) => (v === null ? i : -1)).filter((i) => i >= 0);
    const res = await play(srv.url, game, mover.token, {
      window: w.id,
      cell: free[randomInt(free.length)],
    });
    assert.equal(res.status, 200, res.text);
    plays++;
    for (const [i, c] of specs.entries())
      r = await settled(srv.url, c, game, null, `spectator ${i}`);
  }
  assert.ok(plays >= 5);
  for (const [i, c] of specs.entries()) {
    assert.equal(c.counts.snapshot, 1, `spectator ${i}: one snapshot`);
    assert.equal(c.counts.patch, plays, `spectator ${i}: one patch per play`);
    c.close();
  }
});

test('rps: sealed orders and their notes reach only their own seat before the reveal', async () => {
  const a = await newPlayer(srv.url, 'rpsa');
  const b = await newPlayer(srv.url, 'rpsb');
  const rounds = 4;
  // A clock, so windows carry deadlines too (long enough not to fire).
  const game = await newGame(srv.url, 'rps', [a, b], {
    options: { rounds },
    clock: { mode: 'live', seconds: 3600 },
  });
  const ca = await follow(srv, game, a.token);
  const cb = await follow(srv, game, b.token);
  const cs = await follow(srv, game, null);
  const all = async () => {
    await settled(srv.url, ca, game, a.token, 'seat 0');
    await settled(srv.url, cb, game, b.token, 'seat 1');
    return settled(srv.url, cs, game, null, 'spectator');
  };
  let r = await all();
  assert.match(r.windows[0].deadline, /^\d{4}-\d\d-\d\dT/);
  const throws = ['rock', 'paper', 'scissors'];
  for (let round = 1; round <= rounds; round++) {
    const w = r.windows[0].id;
    const markA = `SECRET-A-${randomBytes(6).toString('hex')}`;
    const markB = `SECRET-B-${randomBytes(6).toString('hex')}`;
    // seat 0 orders, then replaces its order; seat 1 waits
    let res = await order(srv.url, game, a.token, w, {
      throw: throws[randomInt(3)],
      note: `${markA}-first`,
    });
    assert.equal(res.status, 200, res.text);
    res = await order(srv.url, game, a.token, w, { throw: throws[randomInt(3)], note: markA });
    assert.equal(res.status, 200, res.text);
    r = await all();
    assert.deepEqual(r.windows[0].submitted, [0]);
    assert.ok(
      ca.texts.some((t) => t.includes(markA)),
      'seat 0 sees its own order',
    );
    for (const [c, what] of [
      [cb, 'seat 1'],
      [cs, 'spectator'],
    ])
      assert.ok(
        !c.texts.some((t) => t.includes(markA) || t.includes('SECRET-A')),
        `${what} never sees seat 0's note`,
      );
    // seat 1 orders: the window locks and resolves
    res = await order(srv.url, game, b.token, w, { throw: throws[randomInt(3)], note: markB });
    assert.equal(res.status, 200, res.text);
    r = await all();
    for (const [c, what] of [
      [ca, 'seat 0'],
      [cs, 'spectator'],
    ])
      assert.ok(
        !c.texts.some((t) => t.includes(markB)),
        `${what} never sees seat 1's note through the feed`,
      );
  }
  assert.equal(r.status, 'finished');
  assert.equal(r.view.history.length, rounds);
  for (const c of [ca, cb, cs]) c.close();
});

test('sprint: a player against a bot; seat and public documents stay equal to REST', async (t) => {
  const rs = await http(srv.url, 'GET', '/api/v1/rulesets');
  if (!rs.body?.some?.((r) => r.id === 'sprint')) {
    t.skip('ruleset sprint is not registered');
    return;
  }
  const a = await newPlayer(srv.url, 'spr');
  const lobby = await http(srv.url, 'POST', '/api/v1/lobbies', {
    token: a.token,
    body: { ruleset: 'sprint', seats: 2 },
  });
  assert.equal(lobby.status, 201, lobby.text);
  const bot = await http(srv.url, 'POST', `/api/v1/lobbies/${lobby.body.id}/bots`, {
    token: a.token,
    body: {},
  });
  assert.equal(bot.status, 200, bot.text);
  const start = await http(srv.url, 'POST', `/api/v1/lobbies/${lobby.body.id}/start`, {
    token: a.token,
    body: {},
  });
  assert.equal(start.status, 201, start.text);
  const game = start.body.game;
  const ca = await follow(srv, game, a.token);
  const cs = await follow(srv, game, null);
  let r = await settled(srv.url, ca, game, a.token, 'seat 0');
  let moves = 0;
  for (let tries = 0; tries < 40 && moves < 12 && r.status === 'running'; tries++) {
    // The human takes a listed choice (exploring when it can); the bot
    // answers through the same actor, so versions also move on their own.
    const legal = await http(srv.url, 'GET', `/api/v1/games/${game}/legal`, { token: a.token });
    const w = legal.body.windows.find((x) => x.choices?.length);
    if (!w) break;
    const pick =
      w.choices.find((c) => c.action === 'explore') ?? w.choices[randomInt(w.choices.length)];
    // choices may carry annotations (cost, ...): keep what the shape takes
    const props = w.shape?.properties ?? {};
    const body = Object.fromEntries(Object.entries(pick).filter(([k]) => k in props));
    if (pick.discard_count !== undefined && props.discard?.items?.enum)
      body.discard = props.discard.items.enum.slice(0, pick.discard_count);
    const res =
      w.kind === 'order'
        ? await order(srv.url, game, a.token, w.window, body)
        : await play(srv.url, game, a.token, { window: w.window, ...body });
    // some listed choices still need details (what to discard): a refusal
    // is an unchanged game, so just try another
    assert.ok([200, 409, 422].includes(res.status), res.text);
    if (res.status === 200) moves++;
    r = await settled(srv.url, ca, game, a.token, 'seat 0');
    await settled(srv.url, cs, game, null, 'spectator');
  }
  assert.ok(moves >= 3, `the game moved (${moves} moves, version ${r.version})`);
  ca.close();
  cs.close();
});

test('resume: reconnecting with the version held gets the patches since, or a snapshot', async () => {
  const a = await newPlayer(srv.url, 'resa');
  const b = await newPlayer(srv.url, 'resb');
  const rounds = 40;
  const game = await newGame(srv.url, 'rps', [a, b], { options: { rounds } });
  const viewers = [
    { token: a.token, what: 'seat 0' },
    { token: null, what: 'spectator' },
  ];
  for (const v of viewers) {
    v.c = await follow(srv, game, v.token);
    await settled(srv.url, v.c, game, v.token, v.what);
  }
  let resumedWithPatches = 0;
  let r = await getGame(srv.url, game, null);
  let step = 0;
  while (r.status === 'running' && step < 60) {
    // At random points, a viewer drops and comes back with what it holds.
    for (const v of viewers) {
      if (randomInt(4) !== 0) continue;
      const held = v.c.games.get(game);
      v.c.close();
      await v.c.waitClosed();
      // the game moves while it is away
      for (let k = randomInt(3); k > 0; k--) {
        r = await getGame(srv.url, game, null);
        if (r.status !== 'running') break;
        const res = await order(srv.url, game, k % 2 ? a.token : b.token, r.windows[0].id, {
          throw: 'rock',
        });
        assert.equal(res.status, 200, res.text);
        step++;
      }
      const c = await HubClient.connect(srv.wsUrl);
      c.games.set(game, structuredClone(held));
      if (v.token) c.send({ type: 'auth', token: v.token });
      c.send({ type: 'subscribe', game, version: held.version });
      r = await settled(srv.url, c, game, v.token, `${v.what} after resuming from ${held.version}`);
      if (c.counts.snapshot === 0 && c.counts.patch > 0) resumedWithPatches++;
      v.c = c;
    }
    r = await getGame(srv.url, game, null);
    if (r.status !== 'running') break;
    const mover = step % 2 ? b : a;
    const res = await order(srv.url, game, mover.token, r.windows[0].id, {
      throw: 'paper',
      note: `n${step}`,
    });
    assert.equal(res.status, 200, res.text);
    step++;
    for (const v of viewers) r = await settled(srv.url, v.c, game, v.token, v.what);
  }
  assert.ok(resumedWithPatches > 0, 'at least one resume was served from the patch history');

  // Up to date: nothing to send. Unknown or too old: a snapshot.
  const fresh = await getGame(srv.url, game, null);
  const cases = [
    { version: fresh.version, snapshot: false },
    { version: fresh.version + 1000, snapshot: true },
    { version: 0, snapshot: fresh.version > 32 },
  ];
  for (const k of cases) {
    const c = await HubClient.connect(srv.wsUrl);
    c.send({ type: 'subscribe', game, version: k.version });
    c.send({ type: 'ping' });
    await c.next('pong');
    await sleep(200);
    assert.equal(c.counts.snapshot, k.snapshot ? 1 : 0, `subscribe with version ${k.version}`);
    if (!k.snapshot && k.version === fresh.version) assert.equal(c.counts.patch, 0);
    c.close();
  }
  for (const v of viewers) v.c.close();
});

test('a slow consumer whose queue overflows gets a snapshot, never a broken sequence', async () => {
  const slowDb = createDatabase('hubslow');
  const s = await startServer({
    db: slowDb,
    env: { ...FAST, CONCLAVE_WS_QUEUE: '8', CONCLAVE_WS_PING: '120' },
  });
  try {
    const a = await newPlayer(s.url, 'slowa');
    const b = await newPlayer(s.url, 'slowb');
    const games = [];
    for (let i = 0; i < 4; i++)
      games.push(await newGame(s.url, 'rps', [a, b], { options: { rounds: 99 } }));
    const slow = await HubClient.connect(s.wsUrl);
    const brisk = await HubClient.connect(s.wsUrl);
    for (const c of [slow, brisk]) {
      c.send({ type: 'auth', token: a.token });
      for (const game of games) c.send({ type: 'subscribe', game });
      await c.until(() => games.every((g) => c.version(g) !== null), { what: 'snapshots' });
    }
    slow.pause();
    // Seat 0 keeps replacing its order: one new version (and patch) each.
    const per = 600;
    await Promise.all(
      games.map(async (game) => {
        for (let i = 0; i < per; i++) {
          const res = await order(s.url, game, a.token, 'r1', {
            throw: 'rock',
            note: `${'x'.repeat(50)}${i}`,
          });
          assert.equal(res.status, 200, res.text);
        }
      }),
    );
    slow.resume();
    for (const game of games) {
      await settled(s.url, slow, game, a.token, 'the slow consumer');
      await settled(s.url, brisk, game, a.token, 'the brisk consumer');
    }
    assert.ok(
      slow.counts.snapshot > games.length,
      `resynchronised with snapshots (${slow.counts.snapshot})`,
    );
    assert.ok(slow.counts.patch < games.length * per, 'patches were dropped, not queued forever');
    const m = await http(s.url, 'GET', '/metrics');
    assert.match(m.text, /conclave_ws_resyncs_total [1-9]/);
    slow.close();
    brisk.close();
  } finally {
    await stopClean(s);
    dropDatabase(slowDb);
  }
});

test('two processes on one database: subscribers on B follow inputs committed on A', async () => {
  const b2 = await startServer({ db, env: FAST });
  try {
    const a = await newPlayer(srv.url, 'twoa');
    const b = await newPlayer(srv.url, 'twob');
    const game = await newGame(srv.url, 'tictactoe', [a, b]);
    const ca = await follow(b2, game, a.token);
    const cs = await follow(b2, game, null);
    await settled(srv.url, ca, game, a.token, 'seat 0 on B');
    // lobby feed on B sees a lobby created through A
    const cl = await HubClient.connect(b2.wsUrl);
    cl.send({ type: 'subscribe_lobbies' });
    await cl.next('lobbies');
    let r = await getGame(srv.url, game, null);
    while (r.status === 'running') {
      const w = r.windows[0];
      const mover = w.seats[0] === 0 ? a : b;
      const free = r.view.board.map((v, i) => (v === null ? i : -1)).filter((i) => i >= 0);
      const res = await play(srv.url, game, mover.token, { window: w.id, cell: free[0] });
      assert.equal(res.status, 200, res.text);
      await settled(srv.url, ca, game, a.token, 'seat 0 on B');
      r = await settled(srv.url, cs, game, null, 'spectator on B');
    }
    assert.equal(cs.counts.snapshot, 1);
    const lobby = await http(srv.url, 'POST', '/api/v1/lobbies', {
      token: a.token,
      body: { ruleset: 'tictactoe', seats: 2 },
    });
    assert.equal(lobby.status, 201);
    await cl.until(() => cl.lobbies?.has(lobby.body.id), { what: 'the lobby on B' });
    for (const c of [ca, cs, cl]) c.close();
  } finally {
    await stopClean(b2);
  }
});

test('after its LISTEN connection drops, process B catches up games and resends the lobby list', async () => {
  const b2 = await startServer({ db, env: FAST });
  try {
    const a = await newPlayer(srv.url, 'lsta');
    const b = await newPlayer(srv.url, 'lstb');
    const game = await newGame(srv.url, 'tictactoe', [a, b]);
    const cs = await follow(b2, game, null);
    const cl = await HubClient.connect(b2.wsUrl);
    cl.send({ type: 'subscribe_lobbies' });
    await cl.next('lobbies');
    await settled(srv.url, cs, game, null, 'spectator on B');
    const listFrames = () => cl.messages.filter((m) => m.type === 'lobbies').length;
    for (let round = 0; round < 3; round++) {
      // Cut B's LISTEN connection, then change things at once through A:
      // their notifications are likely sent while B is not listening.
      // (B started after A, so B's LISTEN backend is the newest one)
      const lists = listFrames();
      const killed = psql(
        db,
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'conclave listener' ORDER BY backend_start DESC LIMIT 1",
      );
      assert.equal(killed, 't');
      const r = await getGame(srv.url, game, null);
      if (r.status === 'running') {
        const free = r.view.board.map((v, i) => (v === null ? i : -1)).filter((i) => i >= 0);
        const res = await play(srv.url, game, r.windows[0].seats[0] === 0 ? a.token : b.token, {
          window: r.windows[0].id,
          cell: free[0],
        });
        assert.equal(res.status, 200, res.text);
      }
      const lobby = await http(srv.url, 'POST', '/api/v1/lobbies', {
        token: a.token,
        body: { ruleset: 'tictactoe', seats: 2 },
      });
      assert.equal(lobby.status, 201);
      await settled(srv.url, cs, game, null, 'spectator on B after a reconnect');
      await cl.until(() => cl.lobbies.has(lobby.body.id), {
        what: 'the lobby made while B was away',
      });
      // the reconnect itself sends the whole list again
      await cl.until(() => listFrames() > lists, {
        what: 'the lobby list again after the reconnect',
      });
    }
    cs.close();
    cl.close();
  } finally {
    await stopClean(b2);
  }
});

test('lobby feed: open public lobbies, then each change; private lobbies never appear', async () => {
  const host = await newPlayer(srv.url, 'lob');
  const guest = await newPlayer(srv.url, 'lob');
  const mk = (body) =>
    http(srv.url, 'POST', '/api/v1/lobbies', {
      token: host.token,
      body: { ruleset: 'tictactoe', seats: 2, ...body },
    });
  const before1 = await mk({});
  const hidden1 = await mk({ private: true });
  assert.equal(before1.status, 201);
  assert.equal(hidden1.status, 201);
  const c = await HubClient.connect(srv.wsUrl);
  c.send({ type: 'subscribe_lobbies' });
  const first = await c.next('lobbies');
  assert.ok(
    first.lobbies.some((l) => l.id === before1.body.id),
    'an open public lobby is listed',
  );
  assert.ok(first.lobbies.every((l) => !l.private && l.status === 'open'));
  const rest = await http(srv.url, 'GET', '/api/v1/lobbies?status=open');
  assert.deepEqual(
    first.lobbies.map((l) => l.id).sort(),
    rest.body
      .filter((l) => !l.private)
      .map((l) => l.id)
      .sort(),
    'the list equals the public part of GET /lobbies',
  );
  const made = await mk({});
  const hidden2 = await mk({ private: true, options: {} });
  await c.until(() => c.lobbies.has(made.body.id), { what: 'the new lobby' });
  const joined = await http(srv.url, 'POST', `/api/v1/lobbies/${made.body.id}/seats`, {
    token: guest.token,
    body: {},
  });
  assert.equal(joined.status, 200);
  await c.until(() => c.lobbies.get(made.body.id)?.seats[1].player?.id === guest.id, {
    what: 'the seat taken',
  });
  const start = await http(srv.url, 'POST', `/api/v1/lobbies/${made.body.id}/start`, {
    token: host.token,
    body: {},
  });
  assert.equal(start.status, 201);
  await c.until(() => !c.lobbies.has(made.body.id), {
    what: 'the started lobby to leave the list',
  });
  const started = c.messages.find(
    (m) => m.type === 'lobby' && m.lobby.id === made.body.id && m.lobby.status === 'started',
  );
  assert.equal(started.lobby.game, start.body.game);
  // a marker change after the private ones: by then they would have shown
  const last = await mk({});
  await c.until(() => c.lobbies.has(last.body.id), { what: 'the last lobby' });
  for (const id of [hidden1.body.id, hidden2.body.id])
    assert.ok(!c.texts.some((t) => t.includes(id)), 'a private lobby never reaches the feed');
  assert.ok(!c.texts.some((t) => t.includes('invite_code')), 'no invite code in the feed');
  c.close();
});

test('the server shuts down cleanly with connections open (exit 0, nothing leaked)', async () => {
  const c = await HubClient.connect(srv.wsUrl);
  c.send({ type: 'subscribe_lobbies' });
  await c.next('lobbies');
  const s = srv;
  srv = null;
  await stopClean(s);
  await c.waitClosed();
});

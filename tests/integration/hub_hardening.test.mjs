// hub_hardening.test.mjs - the WebSocket hub's edges: Origin and path
// checks, the per-IP cap, message size (1009), invalid UTF-8 (1007),
// unresponsive peers, malformed and unexpected messages (answered with an
// error, never a crash), auth and subscription limits, unsubscribe.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import WebSocket from 'ws';
import { createDatabase, dropDatabase, startServer, sleep } from './lib/server.mjs';
import { HubClient, stopClean, newPlayer, newGame, play, getGame } from './lib/ws.mjs';

const FAST = { CONCLAVE_RATE: '100000', CONCLAVE_RATE_BURST: '100000' };

let db;
let srv;
before(async () => {
  db = createDatabase('hubh');
  srv = await startServer({ db, env: { ...FAST, CONCLAVE_WS_PING: '1' } });
});
after(async () => {
  try {
    if (srv) await stopClean(srv);
  } finally {
    if (db) dropDatabase(db);
  }
});

// A WebSocket upgrade of path with these extra header lines, sent by hand:
// everything the server wrote back, and whether it then closed the
// connection (given 5 s, which only catches one it holds open).
async function rawUpgrade(path, headers) {
  const raw = net.connect(srv.wsPort, '127.0.0.1');
  await new Promise((resolve) => raw.on('connect', resolve));
  raw.write(
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${srv.wsPort}\r\nUpgrade: websocket\r\n` +
      'Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n' +
      `Sec-WebSocket-Version: 13\r\n${headers}\r\n`,
  );
  let data = '';
  raw.on('data', (d) => (data += d.toString('latin1')));
  const closed = await new Promise((resolve) => {
    raw.on('close', () => resolve(true));
    raw.on('error', () => resolve(true));
    setTimeout(() => resolve(false), 5000);
  });
  raw.destroy();
  return { data, closed };
}

async function alive(c) {
  const from = c.messages.length;
  c.send({ type: 'ping' });
  await c.next('pong', { from });
}

test("Origin: the server's own HTTP origins and non-browser clients only", async () => {
  for (const origin of [
    `http://127.0.0.1:${srv.httpPort}`,
    `http://localhost:${srv.httpPort}`,
    undefined,
  ]) {
    const c = await HubClient.connect(srv.wsUrl, { origin });
    await alive(c);
    c.close();
  }
  // Lookalikes: the own origin as a prefix, with a path, userinfo, another
  // scheme or case; each must be refused whole.
  const own = `http://localhost:${srv.httpPort}`;
  for (const origin of [
    'https://evil.example',
    `http://127.0.0.1:${srv.httpPort + 1}`,
    'null',
    `${own}.evil.example`,
    `http://127.0.0.1:${srv.httpPort}.evil.example`,
    `${own}0`,
    `${own}/`,
    `${own}@evil.example`,
    `https://localhost:${srv.httpPort}`,
    `HTTP://LOCALHOST:${srv.httpPort}x`,
    `http://localhost:${srv.httpPort}`.slice(0, -1),
  ]) {
    await assert.rejects(HubClient.connect(srv.wsUrl, { origin }), (e) => e.status === 403, origin);
  }
  // A refused upgrade gets its 403 and the socket closed: never a switch of
  // protocols after it.
  for (const [path, headers] of [
    ['/ws', 'Origin: https://evil.example\r\n'],
    ['/other', ''],
  ]) {
    const got = await rawUpgrade(path, headers);
    assert.match(got.data, /^HTTP\/1\.[01] 403 /, `${path}: ${got.data}`);
    assert.doesNotMatch(got.data, / 101 /, `${path}: ${got.data}`);
    assert.ok(got.closed, `${path}: the refused connection was held open`);
  }
  // only /ws upgrades
  await assert.rejects(
    HubClient.connect(srv.wsUrl.replace(/\/ws$/, '/other')),
    (e) => e.status === 403,
  );
  // a configured list replaces the default
  const db2 = createDatabase('hubo');
  const s2 = await startServer({
    db: db2,
    env: { CONCLAVE_ALLOWED_ORIGINS: 'https://play.example, https://b.example' },
  });
  try {
    for (const origin of ['https://play.example', 'https://b.example']) {
      const c = await HubClient.connect(s2.wsUrl, { origin });
      await alive(c);
      c.close();
    }
    await assert.rejects(
      HubClient.connect(s2.wsUrl, { origin: `http://127.0.0.1:${s2.httpPort}` }),
      (e) => e.status === 403,
    );
    for (const origin of [
      'https://play.example.evil.example',
      'https://play.exampl',
      'https://b.example:8443',
      'https://xb.example',
    ]) {
      await assert.rejects(
        HubClient.connect(s2.wsUrl, { origin }),
        (e) => e.status === 403,
        origin,
      );
    }
  } finally {
    await stopClean(s2);
    dropDatabase(db2);
  }
});

test('per-IP connection cap', async () => {
  const db2 = createDatabase('hubip');
  const s2 = await startServer({ db: db2, env: { CONCLAVE_WS_PER_IP: '2' } });
  try {
    const c1 = await HubClient.connect(s2.wsUrl);
    const c2 = await HubClient.connect(s2.wsUrl);
    // Refused at accept, before a byte is read: closed with no HTTP answer.
    await assert.rejects(
      HubClient.connect(s2.wsUrl),
      (e) => e.status === undefined && /socket hang up|ECONNRESET/.test(e.message),
    );
    c1.close();
    await c1.waitClosed();
    await sleep(100);
    const c3 = await HubClient.connect(s2.wsUrl);
    await alive(c3);
    c2.close();
    c3.close();
  } finally {
    await stopClean(s2);
    dropDatabase(db2);
  }
});

test('a message over the size limit closes with 1009; one just under it is answered', async () => {
  const c = await HubClient.connect(srv.wsUrl);
  const pad = (n) => JSON.stringify({ type: 'ping', pad: 'x'.repeat(n) });
  const under = pad(16384 - pad(0).length);
  assert.equal(under.length, 16384);
  c.send(under);
  const err = await c.next('error');
  assert.equal(err.status, 422, 'an unknown field, not a size problem');
  c.send(pad(20000));
  const closed = await c.waitClosed();
  assert.equal(closed.code, 1009);

  // the same when the message comes in fragments
  const f = await HubClient.connect(srv.wsUrl);
  const part = 'x'.repeat(6000);
  f.ws.send(`{"type":"ping","pad":"${part}`, { fin: false });
  f.ws.send(part, { fin: false });
  f.ws.send(`${part}"}`, { fin: true });
  assert.equal((await f.waitClosed()).code, 1009);
  // a fragmented message under the limit is reassembled
  const g = await HubClient.connect(srv.wsUrl);
  g.ws.send('{"type":', { fin: false });
  g.ws.send('"ping"}', { fin: true });
  await g.next('pong');
  g.close();
});

test('invalid UTF-8 in a text frame closes with 1007', async () => {
  const c = await HubClient.connect(srv.wsUrl);
  c.ws.send(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), { binary: false });
  assert.equal((await c.waitClosed()).code, 1007);
});

// Counts and orders, not times: the deaf peer is pinged (CONCLAVE_WS_PING=1)
// at least once before it is closed, so it was closed for not answering,
// not at once; the peer that answers is pinged again after that and is
// still open. The 30 s limit only catches a server that never closes it.
test('an idle peer that answers pings stays; one that does not is closed', async () => {
  const good = await HubClient.connect(srv.wsUrl);
  const deaf = await HubClient.connect(srv.wsUrl, { autoPong: false });
  let goodPings = 0;
  let deafPings = 0;
  good.ws.on('ping', () => goodPings++);
  deaf.ws.on('ping', () => deafPings++);
  const closed = await deaf.waitClosed({ timeout: 30000 });
  const pingsAtClose = deafPings;
  assert.ok(pingsAtClose >= 1, `pinged before it was closed (${pingsAtClose} pings)`);
  assert.notEqual(closed.code, 1000);
  const before = goodPings;
  await good.until(() => goodPings > before || good.closed, {
    timeout: 30000,
    what: 'another ping for the responsive peer',
  });
  assert.equal(good.closed, null, 'the responsive peer is still open');
  await alive(good);
  good.close();
});

test('malformed and unexpected messages get an error and the connection stays usable', async () => {
  const c = await HubClient.connect(srv.wsUrl);
  const cases = [
    ['{"type":', 400],
    ['not json at all', 400],
    ['[1,2,3]', 400],
    ['"ping"', 400],
    ['{"no_type":1}', 400],
    ['{"type":42}', 400],
    ['{"type":"dance"}', 400],
    ['{"type":"ping","extra":1}', 422],
    ['{"type":"ping","type":"ping"}', 400],
    ['{"type":"subscribe"}', 422],
    ['{"type":"subscribe","game":7}', 422],
    ['{"type":"subscribe","game":""}', 422],
    [`{"type":"subscribe","game":"${'g'.repeat(300)}"}`, 422],
    ['{"type":"subscribe","game":"abc","version":-1}', 422],
    ['{"type":"subscribe","game":"abc","version":"3"}', 422],
    ['{"type":"subscribe","game":"abc","version":1.5}', 422],
    ['{"type":"subscribe","game":"abc","since":1}', 422],
    ['{"type":"unsubscribe","game":"abc","version":1}', 422],
    ['{"type":"auth"}', 422],
    ['{"type":"auth","token":5}', 422],
    ['{"type":"subscribe_lobbies","ruleset":"x"}', 422],
    ['{"type":"subscribe","game":"no-such-game"}', 404],
  ];
  for (const [text, status] of cases) {
    const from = c.messages.length;
    c.send(text);
    const e = await c.next('error', { from });
    assert.equal(e.status, status, `${text} -> ${JSON.stringify(e)}`);
    assert.equal(typeof e.detail, 'string');
    assert.ok(e.detail.length > 10);
  }
  // a flood of requests is answered in full (reading pauses while the
  // answers are written), never dropped
  const before = c.messages.filter((m) => m.type === 'pong').length;
  for (let i = 0; i < 500; i++) c.send({ type: 'ping' });
  for (let i = 0; i < 20; i++) c.send('{"type":"nope"}');
  await c.until(() => c.messages.filter((m) => m.type === 'pong').length === before + 500, {
    what: '500 pongs',
  });
  await c.until(() => c.errors.filter((e) => e.detail.includes('"nope"')).length === 20, {
    what: '20 errors',
  });
  const from = c.messages.length;
  c.ws.send(Buffer.from('{"type":"ping"}'), { binary: true });
  assert.equal((await c.next('error', { from })).status, 400, 'binary frames are refused');
  await alive(c);
  assert.equal(c.closed, null);
  c.close();
});

test('auth: a bad token is refused, auth comes before subscribing and only once', async () => {
  const p = await newPlayer(srv.url, 'auth');
  const q = await newPlayer(srv.url, 'auth');
  const game = await newGame(srv.url, 'tictactoe', [p, q]);
  const bad = await HubClient.connect(srv.wsUrl);
  bad.send({ type: 'auth', token: 'A'.repeat(43) });
  assert.equal((await bad.next('error')).status, 401);
  // still a spectator: the public view (no my_orders)
  bad.send({ type: 'subscribe', game });
  const snap = await bad.next('snapshot');
  assert.equal(snap.view.my_orders, undefined);
  const from = bad.messages.length;
  bad.send({ type: 'auth', token: p.token });
  assert.equal((await bad.next('error', { from })).status, 409, 'auth after subscribing');
  bad.close();

  const twice = await HubClient.connect(srv.wsUrl);
  twice.send({ type: 'auth', token: p.token });
  twice.send({ type: 'auth', token: q.token });
  assert.equal((await twice.next('error')).status, 409);
  twice.send({ type: 'subscribe', game });
  const mine = await twice.next('snapshot');
  assert.deepEqual(
    mine.view,
    (await getGame(srv.url, game, p.token)).view,
    "the first player's seat",
  );
  twice.close();
});

test('unsubscribe stops the patches; at most 64 subscriptions per connection', async () => {
  const p = await newPlayer(srv.url, 'lim');
  const q = await newPlayer(srv.url, 'lim');
  const games = [];
  for (let i = 0; i < 65; i++) games.push(await newGame(srv.url, 'tictactoe', [p, q]));
  const c = await HubClient.connect(srv.wsUrl);
  for (let i = 0; i < 64; i += 8) {
    for (const game of games.slice(i, i + 8)) c.send({ type: 'subscribe', game });
    await c.until(() => games.slice(i, i + 8).every((g) => c.version(g) !== null), {
      what: 'snapshots',
    });
  }
  assert.equal(c.counts.snapshot, 64);
  c.send({ type: 'subscribe', game: games[64] });
  const e = await c.next('error');
  assert.equal(e.status, 429);
  // leave one, and the 65th fits
  c.send({ type: 'unsubscribe', game: games[0] });
  c.send({ type: 'subscribe', game: games[64] });
  await c.until(() => c.version(games[64]) !== null, { what: 'the 65th game' });
  // no more patches for the game left
  const g0 = await getGame(srv.url, games[0], null);
  const res = await play(srv.url, games[0], p.token, { window: g0.windows[0].id, cell: 0 });
  assert.equal(res.status, 200);
  const g1 = await getGame(srv.url, games[1], null);
  await play(srv.url, games[1], p.token, { window: g1.windows[0].id, cell: 0 });
  await c.until(() => c.version(games[1]) === 1, { what: 'a patch for a game still followed' });
  await alive(c);
  assert.ok(
    !c.messages.some((m) => m.type === 'patch' && m.game === games[0]),
    'no patch after unsubscribe',
  );
  c.close();

  // requests in flight are bounded too: a burst gets 429s, never a crash
  const burst = await HubClient.connect(srv.wsUrl);
  for (let i = 0; i < 100; i++) burst.send({ type: 'subscribe', game: `nope${i}` });
  await burst.until(() => burst.errors.length === 100, { what: '100 answers' });
  assert.ok(burst.errors.every((x) => x.status === 404 || x.status === 429));
  assert.ok(burst.errors.some((x) => x.status === 429));
  await alive(burst);
  burst.close();
});

test('many connections opening and closing at once leave the server healthy', async () => {
  const p = await newPlayer(srv.url, 'churn');
  const q = await newPlayer(srv.url, 'churn');
  const game = await newGame(srv.url, 'tictactoe', [p, q]);
  for (let round = 0; round < 3; round++) {
    const clients = await Promise.all(
      Array.from({ length: 50 }, () => HubClient.connect(srv.wsUrl)),
    );
    for (const c of clients) c.send({ type: 'subscribe', game });
    // half vanish abruptly before (or while) their snapshot is written
    for (const c of clients.slice(0, 25)) c.ws.terminate();
    await Promise.all(clients.slice(25).map((c) => c.until(() => c.version(game) !== null)));
    for (const c of clients.slice(25)) c.close();
  }
  const c = await HubClient.connect(srv.wsUrl);
  await alive(c);
  c.close();
  // A client asking for another subprotocol never gets an open connection,
  // and neither it nor raw garbage on the port harms the others.
  const ws = new WebSocket(srv.wsUrl, 'not-our-protocol');
  const outcome = await new Promise((resolve) => {
    ws.on('open', () => {
      resolve('open');
      ws.close();
    });
    ws.on('unexpected-response', (req, res) => resolve(`refused ${res.statusCode}`));
    ws.on('error', (e) => resolve(`refused: ${e.message}`));
  });
  assert.match(outcome, /^refused/, outcome);
  const raw = net.connect(srv.wsPort, '127.0.0.1');
  await new Promise((resolve) => raw.on('connect', resolve));
  raw.write('\x16\x03\x01 not http at all\r\n\r\n');
  await new Promise((resolve) => {
    raw.on('close', resolve);
    raw.on('error', resolve);
    setTimeout(() => raw.destroy(), 2000);
  });
  const after = await HubClient.connect(srv.wsUrl);
  await alive(after);
  after.close();
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

// abuse_seats_proxy.test.mjs - the rest of issue 22's abuse cases: a seat
// held by an idle player in an open lobby is released (and the lobby feed
// shows it) while the host and active players keep theirs; per-address
// limits follow X-Forwarded-For only from a trusted proxy (a client
// cannot pick its own address by sending the header); and a revocation
// whose notification was lost while the LISTEN connection was down still
// ends the seat access of a live socket once that connection returns.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import {
  createDatabase,
  dropDatabase,
  startServer,
  http,
  psql,
  sleep,
  waitFor,
} from './lib/server.mjs';
import { HubClient, stopClean, newPlayer, newGame, getGame, order } from './lib/ws.mjs';

const IDLE = 3; // seconds, CONCLAVE_IDLE_SEAT_SECONDS
let db;
let srv;
before(async () => {
  db = createDatabase('seatsproxy');
  srv = await startServer({
    db,
    env: { CONCLAVE_IDLE_SEAT_SECONDS: String(IDLE), CONCLAVE_LOBBY_FEED_MS: '0' },
  });
});
after(async () => {
  try {
    if (srv) await stopClean(srv);
  } finally {
    if (db) dropDatabase(db);
  }
});

const name = (p) => `${p}_${randomBytes(4).toString('hex')}`;

test(
  'an idle player loses the lobby seat after the idle time; the host and an active player keep theirs; the feed shows it',
  { timeout: 60000 },
  async () => {
    const host = await newPlayer(srv.url, 'ih');
    const idle = await newPlayer(srv.url, 'ii');
    const active = await newPlayer(srv.url, 'ia');
    const made = await http(srv.url, 'POST', '/api/v1/lobbies', {
      token: host.token,
      body: { ruleset: 'sprint', seats: 4 },
    });
    assert.equal(made.status, 201, made.text);
    const id = made.body.id;
    const feed = await HubClient.connect(srv.wsUrl);
    feed.send({ type: 'subscribe_lobbies' });
    await feed.until(() => feed.lobbies, { what: 'the lobby list' });
    // Taken before the idle player's last request (its join), so the
    // release can only come later than t0 + IDLE, however busy the machine.
    const t0 = Date.now();
    for (const p of [idle, active]) {
      const j = await http(srv.url, 'POST', `/api/v1/lobbies/${id}/seats`, {
        token: p.token,
        body: {},
      });
      assert.equal(j.status, 200, j.text);
    }
    const seated = (l, p) => l.seats.some((s) => s.player && s.player.id === p.id);
    await feed.until(() => feed.lobbies.get(id) && seated(feed.lobbies.get(id), idle), {
      what: 'the join in the feed',
    });
    // The host and the active player keep making requests (as the lobby
    // page does, every 3 s); the idle one makes none.
    let released = null;
    // 60 s only catches a seat never released.
    while (Date.now() - t0 < 60000) {
      for (const p of [host, active])
        assert.equal((await http(srv.url, 'GET', '/api/v1/me', { token: p.token })).status, 200);
      const l = feed.lobbies.get(id);
      if (l && !seated(l, idle)) {
        released = Date.now() - t0;
        break;
      }
      await sleep(300);
    }
    assert.ok(released !== null, 'the idle seat was released, as the feed shows');
    // A lower bound only (the server's seconds may round down by one): a
    // busy machine makes the release later, never earlier.
    assert.ok(released >= (IDLE - 1) * 1000, `not before the idle time (${released} ms)`);
    console.log(`# idle seat released ${released} ms after the last request (idle time ${IDLE} s)`);
    const now = await http(srv.url, 'GET', `/api/v1/lobbies/${id}`, { token: host.token });
    assert.equal(now.body.status, 'open');
    assert.ok(seated(now.body, host), 'the host keeps the seat');
    assert.ok(seated(now.body, active), 'the active player keeps the seat');
    assert.ok(!seated(now.body, idle), 'the idle player lost the seat');
    assert.ok(
      srv.lines.some((l) => l.includes('"idle_seat_released"') && l.includes(idle.id)),
      'a log line',
    );
    // The released player may take a seat again, and is then seen anew.
    const again = await http(srv.url, 'POST', `/api/v1/lobbies/${id}/seats`, {
      token: idle.token,
      body: {},
    });
    assert.equal(again.status, 200, again.text);
    await sleep(1500);
    assert.ok(
      seated(
        (await http(srv.url, 'GET', `/api/v1/lobbies/${id}`, { token: host.token })).body,
        idle,
      ),
    );
    feed.close();
  },
);

// Sign-ups per address per hour, lowered to 2, are a per-address limit
// that is easy to read: the third from one address gets 429.
async function signup(s, xff) {
  const headers = xff === undefined ? {} : { 'x-forwarded-for': xff };
  return (await http(s.url, 'POST', '/api/v1/players', { body: { name: name('x') }, headers }))
    .status;
}

test(
  'X-Forwarded-For is ignored from an untrusted peer and followed (rightmost untrusted hop) from a trusted one',
  { timeout: 60000 },
  async () => {
    const q = { CONCLAVE_SIGNUPS_PER_HOUR: '2' };
    const plain = await startServer({ db, env: q });
    const proxied = await startServer({
      db,
      env: { ...q, CONCLAVE_TRUSTED_PROXIES: '127.0.0.1/32, 10.0.0.0/8', CONCLAVE_WS_PER_IP: '2' },
    });
    try {
      // No trusted proxy: a client naming new addresses still spends its own.
      const spoofed = [
        await signup(plain, '198.51.100.1'),
        await signup(plain, '198.51.100.2'),
        await signup(plain, '198.51.100.3'),
      ];
      assert.deepEqual(spoofed, [201, 201, 429], 'the header changes nothing');
      // Behind the trusted proxy (127.0.0.1): each client its own budget.
      assert.deepEqual(
        [
          await signup(proxied, '198.51.100.1'),
          await signup(proxied, '198.51.100.1'),
          await signup(proxied, '198.51.100.1'),
        ],
        [201, 201, 429],
      );
      assert.equal(await signup(proxied, '198.51.100.2'), 201, 'another client behind the proxy');
      // What the client wrote to the left of what the proxy appended is not
      // believed; trusted hops on the right are skipped.
      assert.equal(
        await signup(proxied, '203.0.113.7, 198.51.100.1'),
        429,
        'a spoofed entry to the left',
      );
      assert.equal(await signup(proxied, '198.51.100.1, 10.1.2.3'), 429, 'a trusted hop skipped');
      assert.equal(
        await signup(proxied, 'not-an-address'),
        201,
        'garbage: the proxy itself, a fresh budget',
      );
      assert.equal(await signup(proxied, 'not-an-address'), 201);
      assert.equal(await signup(proxied, 'not-an-address'), 429, "the proxy's own budget");
      // The WebSocket per-address cap (2) follows the header the same way.
      const open = (s, xff) => HubClient.connect(s.wsUrl, { headers: { 'x-forwarded-for': xff } });
      const held = [await open(proxied, '198.51.100.20'), await open(proxied, '198.51.100.20')];
      await assert.rejects(
        open(proxied, '198.51.100.20'),
        (e) => e.status === 403,
        'a third from one client',
      );
      held.push(await open(proxied, '198.51.100.21'));
      for (const c of held) c.close();
    } finally {
      await stopClean(plain);
      await stopClean(proxied);
    }
  },
);

test(
  'a revocation whose notification was lost is replayed when the LISTEN connection returns',
  { timeout: 60000 },
  async () => {
    const p = await newPlayer(srv.url, 'rl');
    const q = await newPlayer(srv.url, 'rl');
    const g = await newGame(srv.url, 'rps', [p, q]);
    const wp = (await getGame(srv.url, g, p.token)).windows.find((x) => x.seats.includes(0));
    assert.equal((await order(srv.url, g, p.token, wp.id, { throw: 'rock' })).status, 200);
    const c = await HubClient.connect(srv.wsUrl);
    c.send({ type: 'auth', token: p.token });
    c.send({ type: 'subscribe', game: g });
    await c.next('snapshot');
    assert.deepEqual(c.doc(g).view.my_orders?.[wp.id], { throw: 'rock' }, 'the seat view');
    // Revoked in the database with no notification (as if another process
    // revoked it while this one's LISTEN connection was down) ...
    const hash = createHash('sha256').update(p.token).digest('hex');
    psql(db, `UPDATE tokens SET revoked_at = now() WHERE token_hash = decode('${hash}', 'hex')`);
    await sleep(500);
    assert.equal(c.errors.length, 0, 'nothing told yet');
    // ... then the LISTEN connection drops and comes back.
    const killed = psql(
      db,
      "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = 'conclave listener' AND datname = current_database()",
    );
    assert.equal(killed, '1');
    await c.until(() => c.errors.find((e) => e.status === 401 && e.game === g), {
      timeout: 10000,
      what: 'the revocation notice',
    });
    await waitFor(() => srv.lines.some((l) => l.includes('"revocations_replayed"')), {
      what: 'the replay log line',
    });
    // No more seat view: subscribing again gives the public view.
    const from = c.messages.length;
    c.send({ type: 'subscribe', game: g });
    const snap = await c.next('snapshot', { from });
    assert.equal(snap.view.my_orders, undefined, 'a spectator now');
    assert.equal((await http(srv.url, 'GET', '/api/v1/me', { token: p.token })).status, 401);
    c.close();
  },
);

test('/metrics answers loopback and CONCLAVE_METRICS_ALLOW only, the client as trusted proxies name it', async () => {
  const metrics = (s, xff) =>
    http(s.url, 'GET', '/metrics', { headers: xff ? { 'x-forwarded-for': xff } : {} });
  const direct = await metrics(srv);
  assert.equal(direct.status, 200, 'a scraper on loopback');
  assert.match(direct.text, /conclave_/);
  assert.equal(
    (await metrics(srv, '203.0.113.5')).status,
    403,
    'loopback forwarding someone (no trusted proxy) is refused',
  );
  const proxied = await startServer({
    db,
    env: { CONCLAVE_TRUSTED_PROXIES: '127.0.0.1/32', CONCLAVE_METRICS_ALLOW: '203.0.113.0/24' },
  });
  try {
    assert.equal((await metrics(proxied, '198.51.100.1')).status, 403, 'a client behind the proxy');
    const allowed = await metrics(proxied, '203.0.113.5');
    assert.equal(allowed.status, 200, 'an allowed client behind the proxy');
    assert.match(allowed.text, /conclave_/);
    assert.equal((await metrics(proxied)).status, 200, 'the proxy host itself is loopback');
  } finally {
    await stopClean(proxied);
  }
});

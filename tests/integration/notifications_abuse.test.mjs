// notifications_abuse.test.mjs - webhooks used against the server or its
// network (issue 36): one account's receivers that accept and never answer
// (a tarpit) do not hold back another player's notification, and hold at
// most a few transfers per player and per destination host, each ended by
// the total timeout; a webhook that keeps failing is paused (its circuit
// breaker, shown in the settings) and closed again by a success;
// deliveries reach a destination in the order written ("started" before
// "waiting"); redirects are not followed; and without
// CONCLAVE_WEBHOOK_ALLOW_PRIVATE a webhook to loopback, private,
// link-local, unique-local... addresses is refused at registration (422,
// field url) and, for a row that got past it (as DNS rebinding would), at
// delivery, before a byte is sent.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import httpServer from 'node:http';
import {
  createDatabase,
  dropDatabase,
  startServer,
  psql,
  sleep,
  waitFor,
  waitListenedReload,
} from './lib/server.mjs';
import { client, newPlayer, newLobby } from './lib/api.mjs';

const cleanups = [];
after(async () => {
  for (const f of cleanups.reverse()) await f();
});

async function setup(env = {}, opts = {}) {
  const db = createDatabase('nabuse');
  const senv = {
    CONCLAVE_NOTIFY_TICK_MS: '100',
    CONCLAVE_NOTIFY_RETRY_MS: '200',
    CONCLAVE_NOTIFY_ATTEMPTS: '30',
    CONCLAVE_RATE: '1000000',
    CONCLAVE_RATE_BURST: '1000000',
    ...env,
  };
  const server = await startServer({ db, env: senv, ...opts });
  const ctx = { db, server, call: client(server.url) };
  cleanups.push(async () => {
    await ctx.server.stop('SIGKILL');
    dropDatabase(db);
  });
  return ctx;
}

// Transfers open now and the most open at once, by the first letter of
// the webhook's path (whose they are), over every tarpit.
const held = { open: {}, max: {} };

// A TCP server that accepts and never answers. open: sockets open now;
// maxOpen: the most open at once; accepted, closed: counts.
async function tarpit() {
  const t = { open: 0, maxOpen: 0, accepted: 0, closed: 0, sockets: new Set() };
  const srv = net.createServer((sock) => {
    t.accepted++;
    t.open++;
    t.maxOpen = Math.max(t.maxOpen, t.open);
    t.sockets.add(sock);
    let who = null;
    sock.on('error', () => {});
    sock.on('data', (chunk) => {
      const m = who ? null : /^POST \/(\w)/.exec(chunk.toString('latin1'));
      if (!m) return;
      who = m[1];
      held.open[who] = (held.open[who] || 0) + 1;
      held.max[who] = Math.max(held.max[who] || 0, held.open[who]);
    });
    sock.on('close', () => {
      t.open--;
      t.closed++;
      t.sockets.delete(sock);
      if (who) held.open[who]--;
    });
  });
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  t.port = srv.address().port;
  cleanups.push(
    () =>
      new Promise((r) => {
        for (const s of t.sockets) s.destroy();
        srv.close(() => r());
      }),
  );
  return t;
}

// A webhook receiver: posts [{url, body, at}]. answer(req, body) may return
// [status, headers] to answer something other than 204.
async function receiver(answer = () => null, port = 0) {
  const sink = { posts: [] };
  const srv = httpServer.createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      let body = null;
      try {
        body = JSON.parse(text);
      } catch {
        /* not JSON */
      }
      const other = answer(req, body);
      if (other) {
        res.writeHead(other[0], other[1] || {});
        res.end();
        return;
      }
      sink.posts.push({ url: req.url, method: req.method, body, at: Date.now() });
      res.writeHead(204);
      res.end();
    });
  });
  await new Promise((r) => srv.listen(port, '127.0.0.1', r));
  sink.port = srv.address().port;
  sink.close = () =>
    new Promise((r) => {
      srv.closeAllConnections?.();
      srv.close(() => r());
    });
  cleanups.push(sink.close);
  return sink;
}

// A port nothing listens on (connections to it are refused).
async function closedPort() {
  const srv = net.createServer();
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  const port = srv.address().port;
  await new Promise((r) => srv.close(r));
  return port;
}

async function addHook(ctx, p, url, want = 201) {
  const r = await ctx.call('POST', '/api/v1/me/notifications/webhooks', {
    token: p.token,
    body: { url },
  });
  assert.equal(r.status, want, `${url}: ${r.text}`);
  return r.body;
}

// A two-seat rps game with a long clock: "started" and "waiting" for each.
async function rpsGame(ctx, host, other) {
  const lobby = await newLobby(
    ctx.call,
    host,
    { ruleset: 'rps', seats: 2, options: { rounds: 2 }, clock: { mode: 'live', seconds: 600 } },
    [other],
  );
  const s = await ctx.call('POST', `/api/v1/lobbies/${lobby.id}/start`, { token: host.token });
  assert.equal(s.status, 201, s.text);
  return s.body.game;
}

const hooksOf = async (ctx, p) =>
  (await ctx.call('GET', '/api/v1/me/notifications', { token: p.token })).body.webhooks;

// ----------------------------------------------------------------- tests --

test('five tarpit webhooks of one account do not hold back another player', async () => {
  const ctx = await setup();
  // Mallory's five webhooks each at its own tarpit; Mona's and Nina's ten
  // all at one more (one destination host for two accounts).
  const pits = [];
  for (let i = 0; i < 6; i++) pits.push(await tarpit());
  const shared = pits[5];
  const mallory = await newPlayer(ctx.call, { guest: true, prefix: 'mal' });
  const mona = await newPlayer(ctx.call, { guest: true, prefix: 'mon' });
  const nina = await newPlayer(ctx.call, { guest: true, prefix: 'nin' });
  const filler = await newPlayer(ctx.call, { guest: true, prefix: 'fil' });
  for (let i = 0; i < 5; i++) {
    await addHook(ctx, mallory, `http://127.0.0.1:${pits[i].port}/m${i}`);
    await addHook(ctx, mona, `http://127.0.0.1:${shared.port}/n${i}`);
    await addHook(ctx, nina, `http://127.0.0.1:${shared.port}/o${i}`);
  }
  // The honest player, ready before the tarpits fill.
  const sink = await receiver();
  const alice = await newPlayer(ctx.call, { guest: true, prefix: 'ali' });
  const bob = await newPlayer(ctx.call, { guest: true, prefix: 'bob' });
  await addHook(ctx, alice, `http://127.0.0.1:${sink.port}/alice`);
  for (let g = 0; g < 2; g++) for (const p of [mallory, mona, nina]) await rpsGame(ctx, p, filler);
  const openNow = () => pits.reduce((n, t) => n + t.open, 0);
  // The caps fill: three transfers of Mallory's, three to the shared host.
  await waitFor(() => held.open.m === 3 && shared.open === 3, {
    what: 'the tarpits holding the caps',
  });
  const before = openNow();
  // Now the honest player's game starts.
  const t0 = Date.now();
  const game = await rpsGame(ctx, alice, bob);
  const started = await waitFor(
    () => sink.posts.find((p) => p.body?.game?.id === game && p.body.event === 'started'),
    { timeout: 20000, what: "alice's started webhook" },
  );
  const closedThen = pits.reduce((n, t) => n + t.closed, 0);
  const openThen = openNow();
  console.log(
    `honest started webhook after ${started.at - t0} ms; tarpit transfers open ${openThen}, ` +
      `ended ${closedThen} (${before} before the game)`,
  );
  // Alice's webhook came while the tarpit transfers were all still open:
  // none had reached its total timeout, so none of them delayed it.
  assert.equal(closedThen, 0, 'the honest webhook arrived before any tarpit transfer ended');
  assert.equal(openThen, 6, 'tarpit transfers still open');
  // The caps held throughout: at most three of Mallory's transfers (five
  // hosts) and three to the host Mona and Nina share (six by their own).
  assert.ok(held.max.m <= 3, `mallory held ${held.max.m} transfers at once`);
  assert.ok(shared.maxOpen <= 3, `one host held ${shared.maxOpen} transfers at once`);
  // The total timeout ends every tarpit transfer (6 s), and each is
  // counted as a failure of its webhook.
  await waitFor(() => pits.reduce((n, t) => n + t.closed, 0) >= 6, {
    timeout: 30000,
    what: 'the tarpit transfers ended by the total timeout',
  });
  await waitFor(async () => (await hooksOf(ctx, mallory)).some((w) => w.state !== 'ok'), {
    timeout: 20000,
    what: "mallory's webhooks shown failing",
  });
  const w = (await hooksOf(ctx, mallory)).find((x) => x.state !== 'ok');
  assert.ok(w.failures >= 1 && w.failing_since, JSON.stringify(w));
  assert.match(w.last_error, /timeout|timed out/i);
});

test('a failing webhook is paused (circuit breaker, shown in the settings), then closed by a success; started before waiting', async () => {
  const ctx = await setup({ CONCLAVE_NOTIFY_RETRY_MS: '400' });
  const port = await closedPort();
  const dora = await newPlayer(ctx.call, { guest: true, prefix: 'dor' });
  const filler = await newPlayer(ctx.call, { guest: true, prefix: 'fil' });
  const hook = await addHook(ctx, dora, `http://127.0.0.1:${port}/dora`);
  const fresh = (await hooksOf(ctx, dora))[0];
  assert.deepEqual(
    [fresh.id, fresh.state, fresh.failures, fresh.failing_since, fresh.next_try],
    [hook.id, 'ok', 0, null, null],
  );
  const game = await rpsGame(ctx, dora, filler);
  const paused = await waitFor(
    async () => (await hooksOf(ctx, dora)).find((w) => w.state === 'paused'),
    { timeout: 20000, what: 'the webhook paused' },
  );
  assert.ok(paused.failures >= 3, JSON.stringify(paused));
  assert.ok(paused.failing_since && paused.next_try, JSON.stringify(paused));
  assert.ok(Date.parse(paused.next_try) >= Date.parse(paused.failing_since));
  assert.match(paused.last_error, /connect|refused/i);
  // While paused nothing is tried: no attempt is spent on it.
  const attempts = () =>
    Number(
      psql(
        ctx.db,
        `SELECT coalesce(sum(attempts), 0) FROM notify_deliveries WHERE target = '${hook.id}'`,
      ),
    );
  const spent = attempts();
  const still = await hooksOf(ctx, dora);
  if (still[0].state === 'paused' && Date.parse(still[0].next_try) - Date.now() > 1200) {
    await sleep(800);
    assert.equal(attempts(), spent, 'no attempt while the breaker is open');
  }
  // The receiver comes up; the next try succeeds after next_try and closes
  // the breaker; "started" arrives before "waiting".
  const sink = await receiver(() => null, port);
  await waitFor(
    () => ['started', 'waiting'].every((k) => sink.posts.some((p) => p.body?.event === k)),
    { timeout: 30000, what: "dora's started and waiting" },
  );
  const events = sink.posts.filter((p) => p.body?.game?.id === game).map((p) => p.body.event);
  assert.ok(events.indexOf('started') < events.indexOf('waiting'), events.join(','));
  assert.ok(sink.posts[0].at >= Date.parse(paused.next_try), 'nothing before next_try');
  const ok = await waitFor(async () => (await hooksOf(ctx, dora)).find((w) => w.state === 'ok'), {
    what: 'the breaker closed',
  });
  assert.deepEqual(
    [ok.failures, ok.failing_since, ok.next_try, ok.last_error],
    [0, null, null, null],
  );
});

test('a retried "started" is still delivered before the "waiting" written after it', async () => {
  const ctx = await setup();
  const refusedOnce = new Set();
  // The first try of every "started" is answered 503.
  const sink = await receiver((req, body) => {
    if (body?.event === 'started' && !refusedOnce.has(body.id)) {
      refusedOnce.add(body.id);
      return [503];
    }
    return null;
  });
  const erin = await newPlayer(ctx.call, { guest: true, prefix: 'eri' });
  const finn = await newPlayer(ctx.call, { guest: true, prefix: 'fin' });
  await addHook(ctx, erin, `http://127.0.0.1:${sink.port}/erin`);
  await addHook(ctx, finn, `http://127.0.0.1:${sink.port}/finn`);
  const game = await rpsGame(ctx, erin, finn);
  for (const who of ['/erin', '/finn'])
    await waitFor(
      () =>
        ['started', 'waiting'].every((k) =>
          sink.posts.some((p) => p.url === who && p.body?.event === k),
        ),
      { what: `${who}'s started and waiting` },
    );
  assert.equal(refusedOnce.size, 2, 'each started was refused once');
  for (const who of ['/erin', '/finn']) {
    const events = sink.posts
      .filter((p) => p.url === who && p.body?.game?.id === game)
      .map((p) => p.body.event);
    assert.deepEqual(events.slice(0, 2), ['started', 'waiting'], `${who}: ${events}`);
  }
});

test('a redirect is not followed', async () => {
  const ctx = await setup();
  const target = await receiver();
  const redirecting = await receiver(() => [
    307,
    { location: `http://127.0.0.1:${target.port}/elsewhere` },
  ]);
  const gus = await newPlayer(ctx.call, { guest: true, prefix: 'gus' });
  const filler = await newPlayer(ctx.call, { guest: true, prefix: 'fil' });
  const hook = await addHook(ctx, gus, `http://127.0.0.1:${redirecting.port}/gus`);
  await rpsGame(ctx, gus, filler);
  await waitFor(
    () =>
      Number(
        psql(
          ctx.db,
          `SELECT count(*) FROM notify_deliveries WHERE target = '${hook.id}' AND attempts >= 2 AND last_error = 'HTTP 307'`,
        ),
      ) >= 1,
    { what: 'attempts answered 307' },
  );
  assert.equal(target.posts.length, 0, 'nothing reached the redirect target');
});

test('without CONCLAVE_WEBHOOK_ALLOW_PRIVATE, inside addresses are refused at registration and at delivery', async () => {
  const ctx = await setup({}, { privateWebhooks: false });
  const sink = await receiver();
  const ivy = await newPlayer(ctx.call, { guest: true, prefix: 'ivy' });
  const refused = {
    'https://169.254.169.254/latest/meta-data/': /169\.254\.169\.254.*link-local/,
    'https://10.0.0.1:6379/': /10\.0\.0\.1.*private/,
    'https://192.168.1.1/': /private/,
    'https://172.16.0.1/': /private/,
    'https://[fd00::1]/': /unique-local/,
    'https://127.0.0.1:5432/': /loopback/,
    'https://localhost:1/': /localhost resolves to .*loopback/,
    [`http://127.0.0.1:${sink.port}/admin/shutdown?token=x`]: /loopback/,
    'http://[::1]:9/': /loopback/,
    'https://[::ffff:10.0.0.1]/': /private/,
    'https://[::ffff:127.0.0.1]/': /loopback/,
    'https://100.64.0.1/': /carrier-grade NAT/,
    'https://0.0.0.0/': /unspecified/,
    'https://[::]/': /unspecified/,
    'https://224.0.0.1/': /multicast/,
    'https://255.255.255.255/': /broadcast/,
    'https://192.0.2.1/': /documentation/,
  };
  for (const [url, why] of Object.entries(refused)) {
    const r = await ctx.call('POST', '/api/v1/me/notifications/webhooks', {
      token: ivy.token,
      body: { url },
    });
    assert.equal(r.status, 422, `${url}: ${r.text}`);
    assert.match(r.headers.get('content-type'), /application\/problem\+json/);
    assert.equal(r.body.field, 'url', url);
    assert.match(r.body.detail, why, url);
  }
  assert.equal((await hooksOf(ctx, ivy)).length, 0, 'none was added');
  // A public address is taken (an address literal: no DNS needed).
  await addHook(ctx, ivy, 'https://93.184.215.14/hook');
  // A row that got past registration (its name resolved elsewhere then, as
  // with DNS rebinding) is checked again when delivered: nothing is sent.
  const jay = await newPlayer(ctx.call, { guest: true, prefix: 'jay' });
  const filler = await newPlayer(ctx.call, { guest: true, prefix: 'fil' });
  psql(
    ctx.db,
    `INSERT INTO notify_webhooks (id, player_id, url, secret) VALUES ('whrebound', '${jay.id}', 'http://127.0.0.1:${sink.port}/jay', 'whsec_x')`,
  );
  // The server learns of a row written behind its back at its next reload.
  await waitListenedReload(ctx.server, ctx.db);
  await rpsGame(ctx, jay, filler);
  await waitFor(
    () =>
      Number(
        psql(
          ctx.db,
          `SELECT count(*) FROM notify_deliveries WHERE target = 'whrebound' AND attempts >= 2 AND last_error LIKE 'refused:%loopback%'`,
        ),
      ) >= 1,
    { what: 'delivery attempts refused at connect time' },
  );
  assert.equal(sink.posts.length, 0, 'nothing reached the loopback receiver');
  const metrics = await fetch(`${ctx.server.url}/metrics`).then((r) => r.text());
  assert.match(metrics, /conclave_notify_refused_total [1-9]/);
});

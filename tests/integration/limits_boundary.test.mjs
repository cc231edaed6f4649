// limits_boundary.test.mjs - caps at their boundary through the real
// server: a cap of N admits N and refuses N+1. The log's page size (1000)
// and the export's (5000) take their largest value and refuse one more; a
// player holds at most 5 webhooks: the fifth is taken, the sixth refused
// (429, nothing stored), and a deleted one frees exactly one place.
//
// The rate limits (server `tight`): the HTTP request rate per address and
// per token (CONCLAVE_RATE_BURST), the WebSocket request rates per
// connection, per address and for auth per address (CONCLAVE_WS_RATE_BURST,
// CONCLAVE_WS_IP_RATE_BURST, CONCLAVE_WS_AUTH_BURST) and the close after
// CONCLAVE_WS_RATE_CLOSE refusals. Their rates are set to 1 a second, the
// least the configuration takes, so nothing refills while a test's few
// requests run: each bucket admits exactly its burst and refuses the next.
// No bound is on the clock: a step that took a second or more (a stalled
// machine) widens the bound by what refilled meanwhile (`refilled`), as in
// abuse_quota's rate test, instead of failing. The order changes per seat
// per window (CONCLAVE_ORDER_CHANGES, 3 on server `oc`): the third change is
// taken, the fourth refused, a withdrawal counts, the count survives a
// restart (read back from the store), and the next window starts afresh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import nodeHttp from 'node:http';
import { randomBytes } from 'node:crypto';
import { createDatabase, dropDatabase, startServer, psql } from './lib/server.mjs';
import { client, newPlayer, newGame, NO_LIMITS } from './lib/api.mjs';
import { HubClient, stopClean } from './lib/ws.mjs';

// The bursts of server `tight`; every rate is 1 a second.
const HTTP_BURST = 5;
const WS_BURST = 5; // per connection
const WS_IP_BURST = 8; // per address
const WS_AUTH_BURST = 3; // auth per address
const WS_CLOSE = 3; // refusals answered before the next one closes

// Server `oc`: the order changes per seat per window lowered to 3.
const OC_ENV = { ...NO_LIMITS, CONCLAVE_ORDER_CHANGES: '3' };

let db, srv, call, tight, oc;

before(async () => {
  db = createDatabase('limits');
  [srv, tight, oc] = await Promise.all([
    startServer({ db, env: { ...NO_LIMITS } }),
    startServer({
      db,
      env: {
        CONCLAVE_RATE: '1',
        CONCLAVE_RATE_BURST: String(HTTP_BURST),
        CONCLAVE_WS_RATE: '1',
        CONCLAVE_WS_RATE_BURST: String(WS_BURST),
        CONCLAVE_WS_IP_RATE: '1',
        CONCLAVE_WS_IP_RATE_BURST: String(WS_IP_BURST),
        CONCLAVE_WS_AUTH_RATE: '1',
        CONCLAVE_WS_AUTH_BURST: String(WS_AUTH_BURST),
        CONCLAVE_WS_RATE_CLOSE: String(WS_CLOSE),
      },
    }),
    startServer({ db, env: OC_ENV }),
  ]);
  call = client(srv.url);
});

after(async () => {
  try {
    // every server is stopped before any unclean exit is reported
    const stops = await Promise.allSettled([srv, tight, oc].filter(Boolean).map(stopClean));
    const failed = stops.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  } finally {
    if (db) dropDatabase(db);
  }
});

// Tokens a bucket refilling at 1 a second gained in a step that started at
// t0 (Date.now()): 0 for a step under a second, which is what makes the
// checks exact; a stalled machine widens the bound instead of failing it.
const refilled = (t0) => Math.floor((Date.now() - t0) / 1000);

// One HTTP request from a chosen loopback address (its own client to the
// per-address limits), on a connection of its own.
function callFrom(s, method, path, { from, token, body } = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers = {};
    if (payload !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    const req = nodeHttp.request(
      {
        host: '127.0.0.1',
        port: s.httpPort,
        method,
        path,
        headers,
        localAddress: from,
        agent: false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          let parsed = null;
          try {
            parsed = text ? JSON.parse(text) : null;
          } catch {
            parsed = null;
          }
          resolve({ status: res.statusCode, headers: res.headers, body: parsed, text });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

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

test('HTTP request rate: an address with a burst of 5 is admitted 5 requests and refused the sixth', async () => {
  const from = '127.0.0.21';
  const t0 = Date.now();
  const answers = [];
  for (let i = 0; i <= HTTP_BURST; i++)
    answers.push(await callFrom(tight, 'GET', '/api/v1/rulesets', { from }));
  const extra = refilled(t0);
  const statuses = answers.map((r) => r.status);
  assert.deepEqual(
    statuses.filter((s) => s !== 200 && s !== 429),
    [],
    statuses.join(' '),
  );
  // the bucket starts full and only gains: the first 5 are admitted
  assert.deepEqual(statuses.slice(0, HTTP_BURST), Array(HTTP_BURST).fill(200));
  // and nothing refilled (extra 0): the sixth is refused
  const admitted = statuses.filter((s) => s === 200).length;
  assert.ok(admitted <= HTTP_BURST + extra, `${statuses.join(' ')} (${extra} refilled)`);
  const refused = answers.find((r) => r.status === 429);
  if (refused) {
    assert.match(refused.headers['content-type'], /problem\+json/);
    assert.equal(refused.body.status, 429);
    assert.match(refused.body.detail, /too many requests/);
    assert.ok(Number(refused.headers['retry-after']) >= 1, refused.headers['retry-after']);
  }
  // another address has a bucket of its own
  const other = await callFrom(tight, 'GET', '/api/v1/rulesets', { from: '127.0.0.22' });
  assert.equal(other.status, 200);
});

test("HTTP request rate: a token's burst of 5 holds across addresses, the sixth request is refused", async () => {
  const name = `tk_${randomBytes(4).toString('hex')}`;
  const made = await callFrom(tight, 'POST', '/api/v1/players', {
    from: '127.0.0.23',
    body: { name },
  });
  assert.equal(made.status, 201, made.text);
  const token = made.body.token;
  // each request from a fresh address, whose own bucket is full: only the
  // token's bucket can refuse
  const t0 = Date.now();
  const statuses = [];
  for (let i = 0; i <= HTTP_BURST; i++)
    statuses.push(
      (await callFrom(tight, 'GET', '/api/v1/me', { from: `127.0.0.${30 + i}`, token })).status,
    );
  const extra = refilled(t0);
  assert.deepEqual(statuses.slice(0, HTTP_BURST), Array(HTTP_BURST).fill(200));
  assert.ok([200, 429].includes(statuses[HTTP_BURST]), statuses.join(' '));
  const admitted = statuses.filter((s) => s === 200).length;
  assert.ok(admitted <= HTTP_BURST + extra, `${statuses.join(' ')} (${extra} refilled)`);
  // the last address, without the token, is not held back (a refused
  // request took nothing from its bucket)
  const anon = await callFrom(tight, 'GET', '/api/v1/rulesets', {
    from: `127.0.0.${30 + HTTP_BURST}`,
  });
  assert.equal(anon.status, 200);
});

// ---- WebSocket request rates (server `tight`) ----

const fakeGame = () => randomBytes(8).toString('hex');
const subscribe = () => ({ type: 'subscribe', game: fakeGame() });
const wsFrom = (from) => HubClient.connect(tight.wsUrl, { localAddress: from });
const statusCount = (errors, status) => errors.filter((e) => e.status === status).length;
// Every request sent is answered: an admitted subscribe for a made-up game
// with 404, an admitted auth with a made-up token with 401, a refused one
// with 429 naming its limit.
async function answered(c, n) {
  await c.until(() => c.errors.length >= n || c.closed, { what: `${n} answers` });
  return c.errors;
}
function assertRefusals(errors, detail) {
  for (const e of errors.filter((x) => x.status === 429)) {
    assert.equal(e.code, 'too_many');
    assert.match(e.detail, detail);
  }
}

test('WebSocket rate per connection: a burst of 5 admits 5 requests and refuses the sixth', async () => {
  const from = '127.0.0.41';
  const c = await wsFrom(from);
  const t0 = Date.now();
  for (let i = 0; i <= WS_BURST; i++) c.send(subscribe());
  const errors = await answered(c, WS_BURST + 1);
  const extra = refilled(t0);
  assert.equal(c.closed, null);
  const found = statusCount(errors, 404);
  assert.equal(found + statusCount(errors, 429), WS_BURST + 1, JSON.stringify(errors));
  assert.ok(found >= WS_BURST && found <= WS_BURST + extra, `${found} admitted, ${extra} refilled`);
  assertRefusals(errors, /on this connection/);
  // the limit is the connection's: another one from the address is admitted
  const d = await wsFrom(from);
  d.send(subscribe());
  assert.equal((await answered(d, 1))[0].status, 404);
  c.close();
  d.close();
});

test('WebSocket rate per address: a burst of 8 admits 8 requests over three connections and refuses the ninth', async () => {
  const from = '127.0.0.42';
  const t0 = Date.now();
  const conns = [];
  // 3 requests per connection, under its own burst of 5
  for (let k = 0; k < 3; k++) {
    const c = await wsFrom(from);
    for (let i = 0; i < 3; i++) c.send(subscribe());
    await answered(c, 3);
    conns.push(c);
  }
  const extra = refilled(t0);
  const errors = conns.flatMap((c) => c.errors);
  const found = statusCount(errors, 404);
  assert.equal(found + statusCount(errors, 429), 9, JSON.stringify(errors));
  assert.deepEqual(
    conns.slice(0, 2).map((c) => statusCount(c.errors, 404)),
    [3, 3],
  );
  assert.ok(
    found >= WS_IP_BURST && found <= WS_IP_BURST + extra,
    `${found} admitted, ${extra} refilled`,
  );
  assertRefusals(errors, /from your address/);
  for (const c of conns) c.close();
});

test('WebSocket auth rate per address: a burst of 3 admits 3 auth attempts and refuses the fourth', async () => {
  const from = '127.0.0.43';
  const c = await wsFrom(from);
  const t0 = Date.now();
  for (let i = 0; i <= WS_AUTH_BURST; i++)
    c.send({ type: 'auth', token: randomBytes(32).toString('base64url') });
  const errors = await answered(c, WS_AUTH_BURST + 1);
  const extra = refilled(t0);
  const unknown = statusCount(errors, 401);
  assert.equal(unknown + statusCount(errors, 429), WS_AUTH_BURST + 1, JSON.stringify(errors));
  assert.ok(
    unknown >= WS_AUTH_BURST && unknown <= WS_AUTH_BURST + extra,
    `${unknown} admitted, ${extra} refilled`,
  );
  assertRefusals(errors, /authentication attempts/);
  // only auth is held back: a subscribe from the address is admitted
  c.send(subscribe());
  const last = (await answered(c, WS_AUTH_BURST + 2)).at(-1);
  assert.equal(last.status, 404, JSON.stringify(last));
  c.close();
});

test('WebSocket close: 3 refusals are answered with 429, the fourth closes the connection (1008)', async () => {
  const c = await wsFrom('127.0.0.44');
  const t0 = Date.now();
  for (let i = 0; i < WS_BURST; i++) c.send(subscribe());
  await answered(c, WS_BURST);
  // one request over the limit at a time, its answer awaited (a close drops
  // the answers still queued)
  for (let i = 1; i <= WS_CLOSE; i++) {
    c.send(subscribe());
    await answered(c, WS_BURST + i);
  }
  c.send(subscribe());
  await answered(c, WS_BURST + WS_CLOSE + 1);
  const extra = refilled(t0);
  const found = statusCount(c.errors, 404);
  const refused = statusCount(c.errors, 429);
  assertRefusals(c.errors, /on this connection/);
  if (extra === 0) {
    assert.equal(found, WS_BURST, JSON.stringify(c.errors));
    assert.equal(refused, WS_CLOSE, JSON.stringify(c.errors));
    assert.deepEqual(c.closed, { code: 1008, reason: 'request rate limit' });
  } else {
    // a stalled second: tokens refilled and strikes drained meanwhile
    assert.ok(found <= WS_BURST + extra, `${found} admitted, ${extra} refilled`);
    if (c.closed) assert.equal(c.closed.code, 1008);
  }
});

// ---- order changes per seat per window ----

test('order changes: a cap of 3 takes the third change in a window and refuses the fourth, also after a restart; the next window starts afresh', async () => {
  let c = client(oc.url);
  const a = await newPlayer(c, { guest: true, prefix: 'oa' });
  const b = await newPlayer(c, { guest: true, prefix: 'ob' });
  const id = await newGame(c, 'rps', [a, b], { options: { rounds: 2 } });
  // check: false on the refusals - a quota's 429 carries no Retry-After
  const put = (who, window, t) =>
    c('PUT', `/api/v1/games/${id}/orders/${window}`, {
      token: who.token,
      body: { throw: t },
      check: false,
    });
  const withdraw = (who, window) =>
    c('DELETE', `/api/v1/games/${id}/orders/${window}`, { token: who.token, check: false });
  const assertCapped = (r) => {
    assert.equal(r.status, 429, r.text);
    assert.match(r.body.detail, /changed its order in this window 3 times/);
  };
  // three changes: an order, its withdrawal (a change too), another order
  assert.equal((await put(a, 'r1', 'rock')).status, 200);
  const w = await withdraw(a, 'r1');
  assert.ok(w.status === 200 || w.status === 204, w.text);
  assert.equal((await put(a, 'r1', 'paper')).status, 200);
  assertCapped(await put(a, 'r1', 'scissors'));
  assertCapped(await withdraw(a, 'r1'));
  const stored = () =>
    psql(db, `SELECT count(*) FROM game_inputs WHERE game_id = '${id}' AND window_id = 'r1'`);
  assert.equal(stored(), '3', 'nothing stored for the refused ones');
  // a restart: the count is read back from the store
  const stopping = oc;
  oc = null;
  await stopClean(stopping);
  oc = await startServer({ db, env: OC_ENV });
  c = client(oc.url);
  assertCapped(await put(a, 'r1', 'scissors'));
  assert.equal(stored(), '3');
  // the other seat is not held back; its order closes the window, and
  // the held order (paper) stands against its rock
  assert.equal((await put(b, 'r1', 'rock')).status, 200);
  const g = await c('GET', `/api/v1/games/${id}`, { token: a.token });
  assert.equal(g.status, 200, g.text);
  assert.deepEqual(g.body.view.history, [['paper', 'rock']]);
  // the next window starts afresh: three changes, the fourth refused
  for (const t of ['rock', 'paper', 'scissors'])
    assert.equal((await put(a, 'r2', t)).status, 200, `r2 ${t}`);
  assertCapped(await put(a, 'r2', 'rock'));
});

// abuse_quota.test.mjs - the quotas and cost bounds of docs/api.md ("Limits
// and quotas") against the attacks they answer, at a bounded scale
// (docs/reliability.md has the figures):
//   1. one account opening lobby after lobby: 429 past the open-lobby quota;
//   2. one account starting game after game: 429 past the running-games
//      quota (live games at the default, async ones at a lowered one);
//   3. one address making account after account: 429 past the hourly
//      quota, while another address still may;
//   4. password checks from one address and from many at once: 429 past the
//      per-address rate and past the global scrypt cap;
//   5. a seat replacing its sealed order again and again: refused past the
//      per-window cap, and the stored history stays bounded;
//   6. many lobby changes in a burst: a few feed events, not one each;
//   7. a squatter in a lobby: the host empties the seat and seats a bot;
//   8. a /readyz flood is no database flood; the page carries CSP and
//      frame-ancestors; a body over the limit is refused from its
//      Content-Length before it is sent; floods and failed sign-ins leave
//      one rate-limited log line each.
// Server `def` runs with the server's own defaults (no TEST_QUOTAS);
// server `low` lowers the async games quota and the scrypt cap (one
// HTTP thread takes a whole burst of connections it accepted, so a burst
// from one client seldom overlaps; connections spread in time reach
// several threads).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import nodeHttp from 'node:http';
import { createDatabase, dropDatabase, startServer, psql, sleep } from './lib/server.mjs';
import { HubClient } from './lib/ws.mjs';

let db, def, dbLow, low;
let seq = 0;
const name = (p) => `${p}${process.pid % 10000}_${++seq}`.slice(0, 24);

before(async () => {
  db = createDatabase('abuse');
  dbLow = createDatabase('abuselow');
  def = await startServer({ db, realQuotas: true });
  low = await startServer({
    db: dbLow,
    realQuotas: true,
    env: { CONCLAVE_ASYNC_GAMES_PER_PLAYER: '3', CONCLAVE_SCRYPT_CONCURRENCY: '1' },
  });
});

after(async () => {
  await def?.stop();
  await low?.stop();
  dropDatabase(db);
  dropDatabase(dbLow);
});

// One request from a chosen loopback address (each is its own client IP).
function call(srv, method, path, { body, token, from = '127.0.0.1' } = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers = {};
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(payload);
    }
    if (token) headers.authorization = `Bearer ${token}`;
    const req = nodeHttp.request(
      {
        host: '127.0.0.1',
        port: srv.httpPort,
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
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

async function guest(srv, from) {
  const r = await call(srv, 'POST', '/api/v1/players', { body: { name: name('g') }, from });
  assert.equal(r.status, 201, r.text);
  return r.body;
}

function assertProblem429(r, what) {
  assert.equal(r.status, 429, `${what}: ${r.status} ${r.text}`);
  assert.match(r.headers['content-type'], /application\/problem\+json/);
  assert.equal(r.body.status, 429);
  assert.ok(r.body.detail.length > 20, `${what}: a detail that says what ran out`);
}

const abuseLines = (srv, kind) =>
  srv.lines.filter((l) => l.includes('"event":"abuse"') && l.includes(`"kind":"${kind}"`));

test('open lobbies per account: the sixth gets 429 until one closes (default 5)', async () => {
  const host = await guest(def, '127.0.0.2');
  const made = [];
  for (let i = 0; i < 5; i++) {
    const r = await call(def, 'POST', '/api/v1/lobbies', {
      token: host.token,
      body: { ruleset: 'tictactoe', seats: 2 },
      from: '127.0.0.2',
    });
    assert.equal(r.status, 201, r.text);
    made.push(r.body.id);
  }
  const over = await Promise.all(
    [0, 1, 2].map(() =>
      call(def, 'POST', '/api/v1/lobbies', {
        token: host.token,
        body: { ruleset: 'tictactoe', seats: 2 },
        from: '127.0.0.2',
      }),
    ),
  );
  for (const r of over) assertProblem429(r, 'lobby over the quota');
  assert.match(over[0].body.detail, /open lobbies/);
  const open = psql(
    db,
    `SELECT count(*) FROM lobbies WHERE host_id = '${host.id}' AND status = 'open'`,
  );
  assert.equal(open, '5', 'no lobby was made past the quota, even concurrently');
  const left = await call(def, 'DELETE', `/api/v1/lobbies/${made[0]}/seats/me`, {
    token: host.token,
    from: '127.0.0.2',
  });
  assert.equal(left.status, 200, left.text);
  const again = await call(def, 'POST', '/api/v1/lobbies', {
    token: host.token,
    body: { ruleset: 'tictactoe', seats: 2 },
    from: '127.0.0.2',
  });
  assert.equal(again.status, 201, 'a closed lobby frees its place');
});

// Create, seat a bot, start: a running game hosted by host.
async function startGame(srv, host, clock, from) {
  const l = await call(srv, 'POST', '/api/v1/lobbies', {
    token: host.token,
    body: { ruleset: 'tictactoe', seats: 2, clock },
    from,
  });
  assert.equal(l.status, 201, l.text);
  const b = await call(srv, 'POST', `/api/v1/lobbies/${l.body.id}/bots`, {
    token: host.token,
    body: { seat: 1 },
    from,
  });
  assert.equal(b.status, 200, b.text);
  return {
    lobby: l.body.id,
    start: await call(srv, 'POST', `/api/v1/lobbies/${l.body.id}/start`, {
      token: host.token,
      body: {},
      from,
    }),
  };
}

test('running live games per account: the sixth start gets 429 (default 5)', async () => {
  const host = await guest(def, '127.0.0.3');
  const clock = { mode: 'live', seconds: 600 };
  for (let i = 0; i < 5; i++) {
    const { start } = await startGame(def, host, clock, '127.0.0.3');
    assert.equal(start.status, 201, start.text);
  }
  const { lobby, start } = await startGame(def, host, clock, '127.0.0.3');
  assertProblem429(start, 'live game over the quota');
  assert.match(start.body.detail, /running live games/);
  const l = await call(def, 'GET', `/api/v1/lobbies/${lobby}`, {
    token: host.token,
    from: '127.0.0.3',
  });
  assert.equal(l.body.status, 'open', 'the refused lobby stays open');
  // the other kind has its own quota: an async game still starts
  const other = await startGame(def, host, { mode: 'async', seconds: 3600 }, '127.0.0.3');
  assert.equal(other.start.status, 201, other.start.text);
});

test('running async games per account: past a lowered quota (3), 429', async () => {
  const host = await guest(low, '127.0.0.3');
  for (let i = 0; i < 3; i++) {
    const { start } = await startGame(low, host, { mode: 'async', seconds: 3600 }, '127.0.0.3');
    assert.equal(start.status, 201, start.text);
  }
  const { start } = await startGame(low, host, undefined, '127.0.0.3');
  assertProblem429(start, 'unclocked game over the async quota');
});

// host plays game id against its bot to the end, from /legal (the bot's
// turns come from the server); the game's status at the end.
async function playOut(srv, host, id, from) {
  for (let step = 0; step < 200; step++) {
    const g = await call(srv, 'GET', `/api/v1/games/${id}`, { token: host.token, from });
    assert.equal(g.status, 200, g.text);
    if (g.body.status !== 'running') return g.body.status;
    const legal = await call(srv, 'GET', `/api/v1/games/${id}/legal`, { token: host.token, from });
    const w = legal.body.windows[0];
    if (!w) {
      await sleep(50); // the bot's turn
      continue;
    }
    const r = await call(srv, 'POST', `/api/v1/games/${id}/plays`, {
      token: host.token,
      body: { window: w.window, ...w.choices[0] },
      from,
    });
    assert.ok(r.status === 200 || r.status === 409, r.text);
  }
  assert.fail(`game ${id} did not end`);
}

test('a game that ends frees its place in the running-games quota; the seats of its players say so', async () => {
  const host = await guest(low, '127.0.0.7');
  const games = [];
  for (let i = 0; i < 3; i++) {
    const { start } = await startGame(low, host, undefined, '127.0.0.7');
    assert.equal(start.status, 201, start.text);
    games.push(start.body.game);
  }
  const { start: refused } = await startGame(low, host, undefined, '127.0.0.7');
  assertProblem429(refused, 'a fourth unclocked game over the quota of 3');
  assert.equal(await playOut(low, host, games[0], '127.0.0.7'), 'finished');
  const running = (id) =>
    psql(
      dbLow,
      `SELECT string_agg(running::text, ',' ORDER BY seat) FROM game_seats WHERE game_id = '${id}'`,
    );
  assert.equal(running(games[0]), 'false,false', "the ended game's seats");
  assert.equal(running(games[1]), 'true,true', "a running game's seats");
  const { start: again } = await startGame(low, host, undefined, '127.0.0.7');
  assert.equal(again.status, 201, `the ended game freed its place: ${again.text}`);
  const { start: full } = await startGame(low, host, undefined, '127.0.0.7');
  assertProblem429(full, 'full again');
});

test('accounts per address per hour: the 21st guest from one address gets 429, another address may (default 20)', async () => {
  const results = [];
  for (let i = 0; i < 24; i++)
    results.push(
      await call(def, 'POST', '/api/v1/players', { body: { name: name('s') }, from: '127.0.0.4' }),
    );
  const made = results.filter((r) => r.status === 201).length;
  assert.equal(made, 20, `accounts made from one address: ${made}`);
  for (const r of results.slice(20)) assertProblem429(r, 'account over the quota');
  assert.ok(Number(results[23].headers['retry-after']) >= 1, 'Retry-After');
  assert.equal(
    (await call(def, 'POST', '/api/v1/players', { body: { name: name('s') }, from: '127.0.0.5' }))
      .status,
    201,
  );
  assert.equal(abuseLines(def, 'signup_quota').length, 1, 'one log line for the four refusals');
});

test('password checks: 429 past the per-address rate (10 a minute, default) and past the global scrypt cap (lowered to 1)', async () => {
  const pw = 'correct horse battery';
  const n = name('pw');
  const t0 = Date.now(); // the address's bucket starts with this sign-up
  const made = await call(def, 'POST', '/api/v1/players', {
    body: { name: n, password: pw },
    from: '127.0.0.6',
  });
  assert.equal(made.status, 201, made.text);
  // Wrong passwords until the first 429 (at most 40: a count, whatever the
  // machine's speed).
  const codes = [];
  while (!codes.includes(429) && codes.length < 40) {
    const r = await call(def, 'POST', '/api/v1/sessions', {
      body: { name: n, password: 'wrong password!' },
      from: '127.0.0.6',
    });
    codes.push(r.status);
    if (r.status === 429) assert.match(r.body.detail, /password checks from your address/);
  }
  // The sign-up took one of the ten; one more comes back every 6 s, so a
  // slow machine (nine password hashes take a while) may get a few more:
  // the allowance only grows with the time taken, it never fails a slow run.
  const refills = Math.ceil((Date.now() - t0) / 6000);
  const answered = codes.filter((c) => c === 401).length;
  assert.ok(answered >= 9 && answered <= 9 + refills, codes.join(' '));
  assert.deepEqual(codes.slice(0, 9), Array(9).fill(401), codes.join(' '));
  assert.equal(codes.at(-1), 429, codes.join(' '));
  const lines = abuseLines(def, 'signin_failed').length; // one per 10 s at most
  assert.ok(
    lines >= 1 && lines <= 1 + Math.floor((Date.now() - t0) / 10000),
    `log lines for ${answered} failed sign-ins: ${lines}`,
  );
  // 24 sign-ins from 24 addresses, 5 ms apart: each address is within its
  // rate, but at most one hash runs at once on `low`
  const p = await call(low, 'POST', '/api/v1/players', {
    body: { name: n, password: pw },
    from: '127.0.0.6',
  });
  assert.equal(p.status, 201, p.text);
  const pending = [];
  for (let i = 0; i < 24; i++) {
    pending.push(
      call(low, 'POST', '/api/v1/sessions', {
        body: { name: n, password: pw },
        from: `127.0.1.${i + 1}`,
      }),
    );
    await sleep(5);
  }
  const burst = await Promise.all(pending);
  const ok = burst.filter((r) => r.status === 201).length;
  const busy = burst.filter((r) => r.status === 429);
  console.log(`# 24 sign-ins 5 ms apart, cap 1: ${ok} signed in, ${busy.length} refused busy`);
  assert.ok(ok >= 1, `sign-ins that went through: ${ok}`);
  assert.ok(busy.length >= 1, `sign-ins refused at the cap: ${busy.length}`);
  assert.match(busy[0].body.detail, /too many passwords at once/);
  assert.equal(ok + busy.length, 24);
});

test('order replacements: refused past 100 per seat per window, the stored history stays bounded', async () => {
  const from = '127.0.0.7';
  const a = await guest(def, from);
  const b = await guest(def, from);
  const l = await call(def, 'POST', '/api/v1/lobbies', {
    token: a.token,
    body: { ruleset: 'rps', seats: 2, options: { rounds: 1 } },
    from,
  });
  assert.equal(
    (
      await call(def, 'POST', `/api/v1/lobbies/${l.body.id}/seats`, {
        token: b.token,
        body: {},
        from,
      })
    ).status,
    200,
  );
  const s = await call(def, 'POST', `/api/v1/lobbies/${l.body.id}/start`, {
    token: a.token,
    body: {},
    from,
  });
  assert.equal(s.status, 201, s.text);
  const game = s.body.game;
  const throws = ['rock', 'paper', 'scissors'];
  const codes = [];
  for (let i = 0; i < 110; i++) {
    const r = await call(def, 'PUT', `/api/v1/games/${game}/orders/r1`, {
      token: a.token,
      body: { throw: throws[i % 3] },
      from,
    });
    codes.push(r.status);
    if (r.status !== 200) {
      assert.match(r.body.detail, /changed its order in this window/);
      assert.equal(r.status, 429);
    }
  }
  assert.equal(codes.filter((c) => c === 200).length, 100, codes.join(' '));
  assert.ok(codes.slice(100).every((c) => c === 429));
  // a withdrawal is a change too
  assert.equal(
    (await call(def, 'DELETE', `/api/v1/games/${game}/orders/r1`, { token: a.token, from })).status,
    429,
  );
  const stored = psql(db, `SELECT count(*) FROM game_inputs WHERE game_id = '${game}'`);
  assert.equal(stored, '100');
  // the other seat is not held back, and the held order stands
  assert.equal(
    (
      await call(def, 'PUT', `/api/v1/games/${game}/orders/r1`, {
        token: b.token,
        body: { throw: 'rock' },
        from,
      })
    ).status,
    200,
  );
  const ex = await call(def, 'GET', `/api/v1/games/${game}/export`, { from });
  assert.equal(ex.status, 200, ex.text);
  console.log(`# export after 110 attempted replacements: ${ex.text.length} bytes`);
});

test('lobby feed: a burst of lobby changes makes a few feed events, not one each', async () => {
  const from = '127.0.0.8';
  const hosts = [];
  for (let i = 0; i < 3; i++) hosts.push(await guest(def, from));
  const c = await HubClient.connect(def.wsUrl);
  c.send({ type: 'subscribe_lobbies' });
  await c.next('lobbies');
  const before = c.messages.length;
  const made = await Promise.all(
    hosts.flatMap((h) =>
      [0, 1, 2, 3, 4].map(() =>
        call(def, 'POST', '/api/v1/lobbies', {
          token: h.token,
          body: { ruleset: 'tictactoe', seats: 2 },
          from,
        }),
      ),
    ),
  );
  // still at the open-lobby quota? the first test's host is another account
  const ids = made.filter((r) => r.status === 201).map((r) => r.body.id);
  assert.equal(ids.length, 15);
  await c.until(() => ids.every((id) => c.lobbies.has(id)), {
    what: 'every new lobby in the feed',
  });
  await sleep(1200);
  const events = c.messages
    .slice(before)
    .filter((m) => m.type === 'lobby' || m.type === 'lobbies').length;
  console.log(`# feed events for 15 lobby changes: ${events}`);
  assert.ok(events <= 6, `feed events for 15 changes: ${events}`);
  c.close();
});

test('the host empties a squatted seat and seats a bot in it; only the host, never their own seat', async () => {
  const from = '127.0.0.9';
  const host = await guest(def, from);
  const squatter = await guest(def, from);
  const l = await call(def, 'POST', '/api/v1/lobbies', {
    token: host.token,
    body: { ruleset: 'tictactoe', seats: 2 },
    from,
  });
  const id = l.body.id;
  assert.equal(
    (
      await call(def, 'POST', `/api/v1/lobbies/${id}/seats`, {
        token: squatter.token,
        body: {},
        from,
      })
    ).status,
    200,
  );
  const notHost = await call(def, 'DELETE', `/api/v1/lobbies/${id}/seats/0`, {
    token: squatter.token,
    from,
  });
  assert.equal(notHost.status, 403, notHost.text);
  const own = await call(def, 'DELETE', `/api/v1/lobbies/${id}/seats/0`, {
    token: host.token,
    from,
  });
  assert.equal(own.status, 409, own.text);
  const range = await call(def, 'DELETE', `/api/v1/lobbies/${id}/seats/5`, {
    token: host.token,
    from,
  });
  assert.equal(range.status, 422, range.text);
  const badLevel = await call(def, 'DELETE', `/api/v1/lobbies/${id}/seats/1?bot=nope`, {
    token: host.token,
    from,
  });
  assert.equal(badLevel.status, 422, badLevel.text);
  const cleared = await call(def, 'DELETE', `/api/v1/lobbies/${id}/seats/1?bot=basic`, {
    token: host.token,
    from,
  });
  assert.equal(cleared.status, 200, cleared.text);
  assert.equal(cleared.body.seats[1].bot, 'basic', JSON.stringify(cleared.body.seats[1]));
  assert.ok(!cleared.body.seats[1].player, 'the squatter is gone');
  const empty = await call(def, 'DELETE', `/api/v1/lobbies/${id}/seats/1`, {
    token: host.token,
    from,
  });
  assert.equal(empty.status, 200, 'a bot can be removed too');
  assert.equal(
    (await call(def, 'DELETE', `/api/v1/lobbies/${id}/seats/1`, { token: host.token, from }))
      .status,
    409,
    'already empty',
  );
  assert.equal(
    (
      await call(def, 'POST', `/api/v1/lobbies/${id}/bots`, {
        token: host.token,
        body: { seat: 1 },
        from,
      })
    ).status,
    200,
  );
  const start = await call(def, 'POST', `/api/v1/lobbies/${id}/start`, {
    token: host.token,
    body: {},
    from,
  });
  assert.equal(start.status, 201, start.text);
  assert.equal(
    (await call(def, 'DELETE', `/api/v1/lobbies/${id}/seats/1`, { token: host.token, from }))
      .status,
    409,
    'not after the start',
  );
});

test('a /readyz flood is answered from the cached probe, not by the database', async () => {
  // A server and database of its own: the games the other tests started
  // (a bot seat plays on) would commit on the shared one meanwhile.
  const quietDb = createDatabase('abusereadyz');
  const quiet = await startServer({ db: quietDb, realQuotas: true });
  try {
    await readyzFlood(quiet, quietDb);
  } finally {
    await quiet.stop();
    dropDatabase(quietDb);
  }
});

async function readyzFlood(def, db) {
  const commits = () =>
    Number(
      psql(
        db,
        `SELECT pg_stat_clear_snapshot(); SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()`,
      )
        .split('\n')
        .pop(),
    );
  await sleep(1200);
  const c0 = commits();
  const t0 = Date.now();
  for (let round = 0; round < 10; round++) {
    const rs = await Promise.all(
      Array.from({ length: 30 }, () => call(def, 'GET', '/readyz', { from: '127.0.0.10' })),
    );
    for (const r of rs) assert.equal(r.status, 200);
  }
  const ms = Date.now() - t0;
  await sleep(1500); // statistics reach pg_stat_database within a second
  const delta = commits() - c0;
  console.log(
    `# 300 /readyz in ${ms} ms: ${delta} transactions on the database (incl. the test's own and the scheduler's)`,
  );
  // Without the cache each /readyz is a query (300); with it, one per 250 ms
  // at most: an allowance of 100 plus two per 250 ms the burst took, so a
  // slow machine cannot fail it.
  const cap = 100 + 2 * Math.ceil(ms / 250);
  assert.ok(delta < cap, `transactions during 300 /readyz: ${delta} (cap ${cap})`);
}

test('the page carries a Content-Security-Policy with frame-ancestors', async () => {
  const r = await call(def, 'GET', '/', { from: '127.0.0.10' });
  assert.equal(r.status, 200);
  const csp = r.headers['content-security-policy'];
  assert.ok(csp, 'a CSP header');
  assert.match(csp, /frame-ancestors 'none'/);
  assert.match(csp, /script-src 'self'/);
  assert.ok(csp.includes(`ws://127.0.0.1:${def.wsPort}`), csp);
  assert.equal(r.headers['x-frame-options'], 'DENY');
});

test('a body over the limit is refused from its Content-Length, before it is sent', async () => {
  const sock = net.connect(def.httpPort, '127.0.0.1');
  await new Promise((r) => sock.once('connect', r));
  let got = '';
  sock.on('data', (d) => (got += d));
  sock.write(
    'POST /api/v1/players HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 20000000\r\n\r\n{"na',
  );
  const t0 = Date.now();
  // Polled; 30 s only catches a server that waits for the body.
  while (!got.includes('\r\n\r\n') && Date.now() - t0 < 30000) await sleep(20);
  sock.destroy();
  assert.match(
    got,
    /^HTTP\/1\.1 413/,
    `answer without the body: ${JSON.stringify(got.slice(0, 80))}`,
  );
});

test('a request flood and bad tokens leave one log line each per interval', async () => {
  // Past the burst of 200 at 50 a second (CONCLAVE_RATE_BURST, CONCLAVE_RATE):
  // requests in groups of 25 until one is refused. The bucket starts full, so
  // at least the burst is admitted; at most the burst plus what refilled
  // while the requests ran (a count from the elapsed time, so a slow machine
  // only raises the bound; the 5,000 only catches a limit that never comes).
  const t0 = Date.now();
  let admitted = 0;
  let refused = 0;
  while (refused === 0 && admitted < 5000) {
    const group = await Promise.all(
      Array.from({ length: 25 }, () =>
        call(def, 'GET', '/api/v1/rulesets', { from: '127.0.0.11' }),
      ),
    );
    admitted += group.filter((r) => r.status === 200).length;
    refused += group.filter((r) => r.status === 429).length;
  }
  const refilled = Math.ceil((50 * (Date.now() - t0)) / 1000) + 1;
  assert.ok(refused > 0, `no 429 after ${admitted} requests`);
  assert.ok(admitted >= 200, `the burst admits 200: admitted ${admitted}`);
  assert.ok(admitted <= 200 + refilled, `admitted ${admitted}, burst 200 + ${refilled} refilled`);
  for (let i = 0; i < 20; i++)
    await call(def, 'GET', '/api/v1/me', { token: 'x'.repeat(43), from: '127.0.0.12' });
  await sleep(200);
  assert.equal(abuseLines(def, 'request_flood').length, 1, 'one line for the flood');
  assert.equal(abuseLines(def, 'auth_failed').length, 1, 'one line for twenty bad tokens');
});

test('no sanitizer report from either server', () => {
  for (const srv of [def, low]) {
    const bad = srv.lines.filter((l) => /AddressSanitizer|runtime error|LeakSanitizer/.test(l));
    assert.deepEqual(bad, []);
  }
});

// api_players.test.mjs - players, sessions, /me and rulesets through the REST
// API; request bodies that are not JSON, too deep, too large, duplicated or
// with unknown fields; rate limits (429). Every answer is checked against
// api/openapi.yaml by the client.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import nodeHttp from 'node:http';
import { createHash } from 'node:crypto';
import { createDatabase, dropDatabase, startServer, psql } from './lib/server.mjs';
import { client, newPlayer, NO_LIMITS } from './lib/api.mjs';

let db, srv, call;

before(async () => {
  db = createDatabase('apip');
  srv = await startServer({ db, env: NO_LIMITS });
  call = client(srv.url);
});

after(async () => {
  await srv?.stop();
  if (db) dropDatabase(db);
});

test('a guest and a player with a password sign up; names are unique regardless of case', async () => {
  const guest = await call('POST', '/api/v1/players', { body: { name: 'guest_one' } });
  assert.equal(guest.status, 201);
  assert.equal(guest.body.name, 'guest_one');
  assert.match(guest.body.token, /^[A-Za-z0-9_-]{43}$/);
  const alice = await call('POST', '/api/v1/players', {
    body: { name: 'Alice-1', password: 'correct horse' },
  });
  assert.equal(alice.status, 201);
  assert.notEqual(alice.body.id, guest.body.id);

  const taken = await call('POST', '/api/v1/players', { body: { name: 'alice-1' } });
  assert.equal(taken.status, 409);
  assert.equal(taken.body.field, 'name');
  assert.match(taken.body.detail, /taken/);

  // Only hashes are stored: neither the token nor the password is in the database.
  // Every row of both tables as text (bytea shows as hex): no form of the
  // token or the password, but the token's SHA-256 is there.
  const dump = psql(db, 'SELECT t::text FROM tokens t UNION ALL SELECT p::text FROM players p');
  const hex = (s) => Buffer.from(s).toString('hex');
  for (const secret of [alice.body.token, guest.body.token, 'correct horse']) {
    assert.ok(!dump.includes(secret), 'stored as given');
    assert.ok(!dump.includes(hex(secret)), 'stored as hex');
    assert.ok(!dump.includes(Buffer.from(secret).toString('base64')), 'stored as base64');
  }
  assert.ok(
    dump.includes(createHash('sha256').update(alice.body.token).digest('hex')),
    "the token's hash is stored",
  );
  assert.equal(
    psql(
      db,
      "SELECT length(password_salt) || ',' || length(password_hash) FROM players WHERE name = 'Alice-1'",
    ),
    '16,32',
  );
});

test('names and passwords are validated with the field named', async () => {
  for (const name of ['ab', 'x'.repeat(25), 'has space', 'émile', 'semi;colon']) {
    const r = await call('POST', '/api/v1/players', { body: { name } });
    assert.equal(r.status, 422, name);
    assert.equal(r.body.field, 'name');
  }
  const short = await call('POST', '/api/v1/players', {
    body: { name: 'shortpw', password: 'abc' },
  });
  assert.equal(short.status, 422);
  assert.equal(short.body.field, 'password');
  const typed = await call('POST', '/api/v1/players', { body: { name: 42 } });
  assert.equal(typed.status, 422);
  assert.equal(typed.body.field, 'name');
  assert.match(typed.body.detail, /string/);
  const missing = await call('POST', '/api/v1/players', { body: {} });
  assert.equal(missing.status, 422);
  assert.equal(missing.body.field, 'name');
  const unknown = await call('POST', '/api/v1/players', { body: { name: 'someone', admin: true } });
  assert.equal(unknown.status, 422);
  assert.equal(unknown.body.field, 'admin');
  assert.match(unknown.body.detail, /unknown field "admin"/);
});

test('bodies: not JSON is 400; wrong shape, too deep, duplicate keys are 422; over 64 KiB is 413', async () => {
  const json = { 'content-type': 'application/json' };
  const notJson = await call('POST', '/api/v1/players', { raw: '{"name": "bob",', headers: json });
  assert.equal(notJson.status, 400);
  assert.equal(notJson.headers.get('content-type'), 'application/problem+json');
  assert.match(notJson.body.detail, /not valid JSON/);
  const empty = await call('POST', '/api/v1/players', { raw: '', headers: json });
  assert.equal(empty.status, 400);
  const text = await call('POST', '/api/v1/players', {
    raw: 'name=bob',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  assert.equal(text.status, 400);

  const array = await call('POST', '/api/v1/players', { body: [{ name: 'bob' }] });
  assert.equal(array.status, 422);
  assert.match(array.body.detail, /JSON object/);
  const scalar = await call('POST', '/api/v1/players', { raw: '"bob"', headers: json });
  assert.equal(scalar.status, 422);

  const dup = await call('POST', '/api/v1/players', {
    raw: '{"name":"dupname","name":"other"}',
    headers: json,
  });
  assert.equal(dup.status, 422);
  assert.match(dup.body.detail, /duplicate/);

  let deep = 1;
  for (let i = 0; i < 32; i++) deep = { d: deep }; // 33 levels with the outer object
  const tooDeep = await call('POST', '/api/v1/players', {
    body: { name: 'deep_one', password: 'long enough', x: deep },
  });
  assert.equal(tooDeep.status, 422);
  assert.match(tooDeep.body.detail, /deeper than 32/);
  const veryDeep = await call('POST', '/api/v1/players', {
    raw: '['.repeat(5000) + ']'.repeat(5000),
    headers: json,
  });
  assert.equal(veryDeep.status, 422);
  // 32 levels is fine as far as depth goes (then the unknown field is named).
  let ok = 1;
  for (let i = 0; i < 30; i++) ok = { d: ok };
  const deepOk = await call('POST', '/api/v1/players', { body: { name: 'deep_two', x: ok } });
  assert.equal(deepOk.status, 422);
  assert.equal(deepOk.body.field, 'x');

  const big = await call('POST', '/api/v1/players', {
    body: { name: 'big_one', password: 'x'.repeat(70 * 1024) },
  });
  assert.equal(big.status, 413);
  assert.match(big.body.detail, /64 KiB/);
});

test('sessions: sign in with the password (any case of the name), wrong ones are 401, guests cannot', async () => {
  const p = await newPlayer(call);
  const s = await call('POST', '/api/v1/sessions', {
    body: { name: p.name.toUpperCase(), password: p.password },
  });
  assert.equal(s.status, 201);
  assert.notEqual(s.body.token, p.token);
  const me = await call('GET', '/api/v1/me', { token: s.body.token });
  assert.equal(me.status, 200);
  assert.equal(me.body.id, p.id);

  const wrong = await call('POST', '/api/v1/sessions', {
    body: { name: p.name, password: 'not the password' },
  });
  assert.equal(wrong.status, 401);
  const nobody = await call('POST', '/api/v1/sessions', {
    body: { name: 'nobody_here', password: 'whatever1' },
  });
  assert.equal(nobody.status, 401);
  assert.equal(nobody.body.detail, wrong.body.detail, 'an unknown name is not told apart');
  const guest = await newPlayer(call, { guest: true });
  const g = await call('POST', '/api/v1/sessions', {
    body: { name: guest.name, password: 'anything1' },
  });
  assert.equal(g.status, 401);
  const missing = await call('POST', '/api/v1/sessions', { body: { name: p.name } });
  assert.equal(missing.status, 422);
  assert.equal(missing.body.field, 'password');
});

test('DELETE /sessions/current revokes exactly the presented token', async () => {
  const p = await newPlayer(call);
  const second = await call('POST', '/api/v1/sessions', {
    body: { name: p.name, password: p.password },
  });
  const del = await call('DELETE', '/api/v1/sessions/current', { token: second.body.token });
  assert.equal(del.status, 204);
  assert.equal(del.text, '');
  const after = await call('GET', '/api/v1/me', { token: second.body.token });
  assert.equal(after.status, 401);
  assert.match(after.body.detail, /revoked/);
  const again = await call('DELETE', '/api/v1/sessions/current', { token: second.body.token });
  assert.equal(again.status, 401);
  const still = await call('GET', '/api/v1/me', { token: p.token });
  assert.equal(still.status, 200, 'the other token still works');
  const none = await call('DELETE', '/api/v1/sessions/current');
  assert.equal(none.status, 401);
  const garbage = await call('GET', '/api/v1/me', {
    headers: { authorization: 'Bearer not-a-token' },
  });
  assert.equal(garbage.status, 401);
  const basic = await call('GET', '/api/v1/me', {
    headers: { authorization: 'Basic YWxhZGRpbjpvcGVuc2VzYW1l' },
  });
  assert.equal(basic.status, 401);

  // A process that never saw the revocation (its token cache is empty and
  // its listener replays nothing on a first connection) reads it from the
  // database: the revoked token stays out, the other one is in.
  const other = await startServer({ db, env: NO_LIMITS });
  try {
    const fresh = client(other.url);
    const revoked = await fresh('GET', '/api/v1/me', { token: second.body.token });
    assert.equal(revoked.status, 401, 'revoked in the database, for every process');
    const kept = await fresh('GET', '/api/v1/me', { token: p.token });
    assert.equal(kept.status, 200);
  } finally {
    await other.stop();
  }
});

test('GET /me lists games, open lobbies and campaign progress', async () => {
  const p = await newPlayer(call);
  const q = await newPlayer(call);
  const empty = await call('GET', '/api/v1/me', { token: p.token });
  assert.deepEqual(empty.body, {
    id: p.id,
    name: p.name,
    guest: false, // newPlayer signs up with a password
    games: [],
    lobbies: [],
    campaign: { status: 'none', games: [], met: [], next_options: { campaign_conditions_met: [] } },
  });
  const lobby = await call('POST', '/api/v1/lobbies', {
    token: p.token,
    body: { ruleset: 'tictactoe', seats: 2 },
  });
  const me1 = await call('GET', '/api/v1/me', { token: p.token });
  assert.deepEqual(
    me1.body.lobbies.map((l) => l.id),
    [lobby.body.id],
  );
  await call('POST', `/api/v1/lobbies/${lobby.body.id}/seats`, { token: q.token });
  const start = await call('POST', `/api/v1/lobbies/${lobby.body.id}/start`, { token: p.token });
  const me2 = await call('GET', '/api/v1/me', { token: q.token });
  assert.deepEqual(me2.body.games, [
    { id: start.body.game, ruleset: 'tictactoe', status: 'running', seat: 1 },
  ]);
  assert.deepEqual(me2.body.lobbies, [], 'a started lobby is listed as its game');
  const anon = await call('GET', '/api/v1/me');
  assert.equal(anon.status, 401);
});

test("GET /me shows the stored per-ruleset record under the ruleset's key", async () => {
  // Records are folded by the ruleset's hook when a game finishes (the order
  // of a campaign is tested in tests/unit/test_records.c, a campaign played
  // through REST in api_sprint.test.mjs); /me shows what is stored.
  const p = await newPlayer(call);
  const stored = {
    status: 'active',
    met: ['magnate'],
    games: [{ conditions_met: ['magnate'], checked: 'magnate', chips: 70 }],
    next_options: { campaign_conditions_met: ['magnate'] },
  };
  psql(
    db,
    `INSERT INTO player_records (player_id, ruleset, record) VALUES ('${p.id}', 'sprint', '${JSON.stringify(stored)}')`,
  );
  const me = await call('GET', '/api/v1/me', { token: p.token });
  assert.deepEqual(me.body.campaign, stored);
  // A finished game written behind the server's back changes nothing.
  psql(
    db,
    `INSERT INTO games (game_id, ruleset, options, seat_count, seed, seed_sha256, status, result)
    VALUES ('raw${p.id.slice(0, 8)}', 'sprint', '{"campaign_conditions_met":["magnate"]}', 1, decode(repeat('00', 32), 'hex'), '', 'finished', '{}');
    INSERT INTO game_seats (game_id, seat, player_id) VALUES ('raw${p.id.slice(0, 8)}', 0, '${p.id}')`,
  );
  assert.deepEqual((await call('GET', '/api/v1/me', { token: p.token })).body.campaign, stored);
});

test('GET /rulesets describes the registry', async () => {
  const r = await call('GET', '/api/v1/rulesets');
  assert.equal(r.status, 200);
  const ids = r.body.map((x) => x.id);
  assert.ok(ids.includes('tictactoe') && ids.includes('rps'), ids.join(','));
  const ttt = r.body.find((x) => x.id === 'tictactoe');
  assert.equal(ttt.min_seats, 2);
  assert.equal(ttt.max_seats, 2);
  assert.equal(ttt.options.type, 'object');
  const rps = r.body.find((x) => x.id === 'rps');
  assert.ok(rps.options.properties.rounds);
  for (const rs of r.body) {
    assert.ok(rs.bot_levels.length >= 1, rs.id);
    for (const l of rs.bot_levels)
      assert.ok(typeof l.id === 'string' && typeof l.title === 'string', rs.id);
  }
  assert.deepEqual(
    ttt.bot_levels.map((l) => l.id),
    ['basic', 'random'],
    'the first level is the default',
  );
});

test('unknown API paths are 404 problems and wrong methods 405', async () => {
  const nf = await call('GET', '/api/v1/nothing', { check: false });
  assert.equal(nf.status, 404);
  assert.equal(nf.headers.get('content-type'), 'application/problem+json');
  const m = await call('PATCH', '/api/v1/me', { check: false });
  assert.equal(m.status, 405);
});

test('rate limits: a bucket per address and per token answers 429 with Retry-After', async () => {
  const db2 = createDatabase('apirl');
  const slow = await startServer({
    db: db2,
    env: { CONCLAVE_RATE: '1', CONCLAVE_RATE_BURST: '5' },
  });
  try {
    const c = client(slow.url);
    const statuses = [];
    let limited;
    for (let i = 0; i < 8; i++) {
      const r = await c('GET', '/api/v1/rulesets');
      statuses.push(r.status);
      if (r.status === 429) limited = r;
    }
    assert.deepEqual(statuses.slice(0, 5), [200, 200, 200, 200, 200]);
    assert.ok(limited, `no 429 in ${statuses}`);
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    assert.equal(limited.body.status, 429);
    // Service routes outside /api/ are not limited.
    const h = await c('GET', '/healthz');
    assert.equal(h.status, 200);
    // The bucket refills at the configured rate.
    await new Promise((r) => setTimeout(r, 1100 * Number(limited.headers.get('retry-after'))));
    const again = await c('GET', '/api/v1/rulesets');
    assert.equal(again.status, 200);
  } finally {
    await slow.stop();
    dropDatabase(db2);
  }
});

// GET from a given loopback source address (another client, as the server sees it).
function getFrom(url, localAddress, token) {
  return new Promise((resolve, reject) => {
    const req = nodeHttp.get(
      url,
      { localAddress, headers: token ? { authorization: `Bearer ${token}` } : {} },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({ status: res.statusCode, retryAfter: res.headers['retry-after'] }),
        );
      },
    );
    req.on('error', reject);
  });
}

test('rate limits: one token is limited across addresses, other addresses are not', async () => {
  const db2 = createDatabase('apirl');
  const slow = await startServer({
    db: db2,
    env: { CONCLAVE_RATE: '1', CONCLAVE_RATE_BURST: '4' },
  });
  try {
    const c = client(slow.url);
    const p = await newPlayer(c); // one request from 127.0.0.1
    const url = `${slow.url}/api/v1/me`;
    const first = [];
    for (let i = 0; i < 3; i++) first.push((await getFrom(url, '127.0.0.2', p.token)).status);
    assert.deepEqual(first, [200, 200, 200]);
    // The token's bucket is now nearly empty; a fresh address does not help it.
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push(await getFrom(url, '127.0.0.3', p.token));
    assert.ok(
      statuses.some((r) => r.status === 429),
      JSON.stringify(statuses),
    );
    assert.ok(statuses.filter((r) => r.status === 429).every((r) => Number(r.retryAfter) >= 1));
    // Without the token, that address has its own full bucket.
    const anon = await getFrom(`${slow.url}/api/v1/rulesets`, '127.0.0.4');
    assert.equal(anon.status, 200);
  } finally {
    await slow.stop();
    dropDatabase(db2);
  }
});

test('503 with Retry-After while the database cannot be reached', async () => {
  // A server whose database disappears: dropping it makes every connection fail.
  const db3 = createDatabase('apidown');
  const s = await startServer({ db: db3, env: NO_LIMITS });
  try {
    const c = client(s.url);
    const p = await newPlayer(c);
    dropDatabase(db3);
    const r = await c('GET', '/api/v1/me', { token: p.token });
    assert.equal(r.status, 503);
    assert.equal(r.headers.get('retry-after'), '1');
    const created = await c('POST', '/api/v1/players', { body: { name: 'after_drop' } });
    assert.equal(created.status, 503);
  } finally {
    await s.stop();
    dropDatabase(db3);
  }
});

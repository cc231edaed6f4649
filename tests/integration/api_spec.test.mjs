// api_spec.test.mjs - api/openapi.yaml against the server: Redocly's linter
// passes; every route of the server's table (read from api/routes.c and
// api/handlers.h) is in the spec and every path of the spec is served; the
// rules every operation follows (auth errors, problem bodies, limits); and a
// walk through every operation whose answers all validate against the spec.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  ROOT,
  createDatabase,
  dropDatabase,
  startServer,
  http,
  sleep,
  psql,
} from './lib/server.mjs';
import { client, spec, SPEC_PATH, newPlayer, newLobby, newGame, NO_LIMITS } from './lib/api.mjs';

const run = promisify(execFile);
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
let db, srv, call;

before(async () => {
  db = createDatabase('apis');
  srv = await startServer({ db, env: { ...NO_LIMITS, CONCLAVE_EXAMPLE_RULESETS: '1' } });
  call = client(srv.url);
});

after(async () => {
  await srv?.stop();
  if (db) dropDatabase(db);
});

function serverRoutes() {
  const src = ['routes.c', 'handlers.h']
    .map((f) => fs.readFileSync(path.join(ROOT, 'api', f), 'utf8'))
    .join('\n');
  return [
    ...src.matchAll(
      /\{\s*"(GET|POST|PUT|DELETE|PATCH)",\s*"([^"]+)",\s*(\w+),\s*(API_AUTH_\w+)\s*\}/g,
    ),
  ].map((m) => ({
    key: `${m[1]} ${m[2]}`,
    auth: m[4],
  }));
}

function specOperations() {
  const ops = [];
  for (const [p, item] of Object.entries(spec.paths)) {
    for (const m of METHODS)
      if (item[m])
        ops.push({ key: `${m.toUpperCase()} ${p}`, path: p, method: m, op: item[m], item });
  }
  return ops;
}

const resolveRef = (o) =>
  o && o.$ref
    ? o.$ref
        .split('/')
        .slice(1)
        .reduce((x, k) => x[k], spec)
    : o;

test('npx @redocly/cli lint api/openapi.yaml passes', { timeout: 180000 }, async () => {
  const { stdout, stderr } = await run('npx', ['--no', '@redocly/cli', 'lint', SPEC_PATH], {
    cwd: path.join(ROOT, 'tests'),
    env: {
      ...process.env,
      REDOCLY_TELEMETRY: 'off',
      REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
      NO_COLOR: '1',
    },
    timeout: 170000,
  });
  assert.match(stdout + stderr, /Your API description is valid/);
});

test('every route of the server is in the spec, and nothing else is', () => {
  const routes = serverRoutes();
  assert.ok(routes.length >= 24, `only ${routes.length} routes parsed`);
  const inSpec = new Set(specOperations().map((o) => o.key));
  const inServer = new Set(routes.map((r) => r.key));
  assert.deepEqual(
    routes.filter((r) => !inSpec.has(r.key)).map((r) => r.key),
    [],
    'routes missing from the spec',
  );
  assert.deepEqual(
    [...inSpec].filter((k) => !inServer.has(k)),
    [],
    'spec operations the server does not route',
  );
  // Security agrees with each route's auth level.
  for (const r of routes) {
    const op = specOperations().find((o) => o.key === r.key).op;
    const security = op.security ?? spec.security;
    const anonymous = security.length === 0 || security.some((s) => Object.keys(s).length === 0);
    if (r.auth === 'API_AUTH_REQUIRED')
      assert.ok(!anonymous, `${r.key} requires a token but the spec allows none`);
    else assert.ok(anonymous, `${r.key} needs no token but the spec requires one`);
  }
});

test('every operation documents its errors the same way', () => {
  for (const { key, path: p, op } of specOperations()) {
    const codes = Object.keys(op.responses);
    const security = op.security ?? spec.security;
    const anonymousOnly = security.every((s) => Object.keys(s).length === 0);
    const optional = security.some((s) => Object.keys(s).length === 0) && !anonymousOnly;
    if (!anonymousOnly || optional) assert.ok(codes.includes('401'), `${key}: 401 not documented`);
    if (p.startsWith('/api/')) assert.ok(codes.includes('429'), `${key}: 429 not documented`);
    if (op.requestBody) {
      for (const c of ['400', '413', '422'])
        assert.ok(codes.includes(c), `${key}: ${c} not documented`);
    }
    if (p.includes('{')) assert.ok(codes.includes('404'), `${key}: 404 not documented`);
    for (const c of codes.filter((x) => Number(x) >= 400)) {
      const r = resolveRef(op.responses[c]);
      assert.ok(r.content?.['application/problem+json'], `${key} ${c}: not problem+json`);
      if (c === '429' || (c === '503' && p.startsWith('/api/')))
        assert.ok(r.headers?.['Retry-After'], `${key} ${c}: no Retry-After`);
    }
    assert.ok(op.operationId && op.summary, `${key}: operationId and summary`);
  }
  const params = spec.components.parameters;
  assert.equal(params.IdempotencyKey.in, 'header');
  assert.equal(params.IfMatch.name, 'If-Match');
  assert.equal(params.IfNoneMatch.name, 'If-None-Match');
  assert.ok(spec.components.headers.ETag && spec.components.headers.RetryAfter);
  assert.deepEqual(spec.components.securitySchemes.bearerAuth, {
    ...spec.components.securitySchemes.bearerAuth,
    type: 'http',
    scheme: 'bearer',
  });
});

test('every path of the spec is served (no 405, no unrouted 404)', async () => {
  for (const { path: p, method } of specOperations()) {
    const concrete = p.replace('{id}', 'zzzzzzzzzzzzzzzz').replace('{window}', 'w1');
    const r = await http(srv.url, method.toUpperCase(), concrete, {
      body: method === 'get' || method === 'delete' ? undefined : {},
    });
    assert.notEqual(r.status, 405, `${method} ${p}`);
    assert.ok(
      !(r.status === 404 && r.body?.detail === 'no such resource'),
      `${method} ${p} is not routed`,
    );
  }
});

test('the served document is api/openapi.yaml', async () => {
  const r = await http(srv.url, 'GET', '/api/v1/openapi.yaml');
  assert.equal(r.status, 200);
  assert.match(r.headers.get('content-type'), /yaml/);
  assert.equal(r.text, fs.readFileSync(SPEC_PATH, 'utf8'));
});

// Game options are typed, one schema per ruleset (so a generated client can
// pass them): each is the server's own schema of that ruleset's options, and
// a default never makes a member required.
test('the options of every ruleset are typed in the spec, as the server states them', async () => {
  const rulesets = (await call('GET', '/api/v1/rulesets')).body;
  const schemas = spec.components.schemas;
  const refs = schemas.GameOptions.anyOf.map((r) => r.$ref.split('/').pop());
  assert.equal(refs.length, rulesets.length + 1, 'each listed ruleset, and the unlisted ones');
  for (const r of rulesets) {
    const name = `Options${r.id
      .split('_')
      .map((w) => w[0].toUpperCase() + w.slice(1))
      .join('')}`;
    assert.ok(refs.includes(name), `${name} in GameOptions`);
    const { title, ...mine } = schemas[name];
    assert.match(title, new RegExp(r.title));
    assert.deepEqual(mine, r.options, `${name} is the server's schema`);
    for (const [k, v] of Object.entries(mine.properties || {}))
      if ('default' in v)
        assert.ok(!(mine.required || []).includes(k), `${name}.${k}: a default is not required`);
  }
  for (const where of ['LobbyCreate', 'Lobby', 'Export'])
    assert.equal(schemas[where].properties.options.$ref, '#/components/schemas/GameOptions', where);
});

test('a walk through every operation: each success validates against the spec', async () => {
  const host = await newPlayer(call);
  const friend = await newPlayer(call);
  await call('GET', '/healthz');
  await call('GET', '/readyz');
  await call('GET', '/metrics');
  await call('GET', '/api/v1/openapi.yaml');
  await call('GET', '/api/v1/rulesets');
  const sess = await call('POST', '/api/v1/sessions', {
    body: { name: host.name, password: host.password },
  });
  await call('DELETE', '/api/v1/sessions/current', { token: sess.body.token });
  await call('GET', '/api/v1/lobbies');
  const lobby = await newLobby(call, host, {
    ruleset: 'rps',
    seats: 2,
    private: true,
    clock: { mode: 'async', seconds: 86400 },
  });
  await call('GET', `/api/v1/lobbies/${lobby.id}`, { token: host.token });
  await call('POST', `/api/v1/lobbies/${lobby.id}/seats`, {
    token: friend.token,
    body: { code: lobby.invite_code },
  });
  await call('DELETE', `/api/v1/lobbies/${lobby.id}/seats/me`, { token: friend.token });
  await call('POST', `/api/v1/lobbies/${lobby.id}/bots`, {
    token: host.token,
    body: { level: 'random' },
  });
  await call('DELETE', `/api/v1/lobbies/${lobby.id}/seats/1?bot=random`, { token: host.token });
  const started = await call('POST', `/api/v1/lobbies/${lobby.id}/start`, { token: host.token });
  const id = started.body.game;
  await call('GET', '/api/v1/me', { token: host.token });
  // A campaign record waiting for a choice (as a game meeting two new
  // conditions leaves it), written in the form GET /me shows.
  const noChoice = await call('POST', '/api/v1/me/records/campaign/choice', {
    token: host.token,
    body: { condition: 'tycoon' },
  });
  assert.equal(noChoice.status, 409, noChoice.text);
  const rec = {
    status: 'active',
    met: ['magnate'],
    games: [{ conditions_met: ['magnate', 'tycoon'], checked: 'magnate', chips: 70 }],
    choice: ['magnate', 'tycoon'],
    next_options: { campaign_conditions_met: ['magnate'] },
  };
  const hostId = (await call('GET', '/api/v1/me', { token: host.token })).body.id;
  psql(
    db,
    `INSERT INTO player_records (player_id, ruleset, record) VALUES ('${hostId}', 'sprint', '${JSON.stringify(rec)}'::jsonb)`,
  );
  const choose = await call('POST', '/api/v1/me/records/campaign/choice', {
    token: host.token,
    body: { condition: 'tycoon' },
  });
  assert.equal(choose.status, 200, choose.text);
  assert.deepEqual(choose.body.met, ['tycoon']);
  // Notification settings: read, change, a webhook added and removed, an
  // unknown verification link (the mailed one is notifications.test.mjs's).
  await call('GET', '/api/v1/me/notifications', { token: host.token });
  const put = await call('PUT', '/api/v1/me/notifications', {
    token: host.token,
    body: {
      email: 'host@example.test',
      quiet_hours: { start: '22:00', end: '07:00' },
      utc_offset: 60,
      digest: true,
      digest_hour: 9,
      reminder_seconds: 3600,
    },
  });
  assert.equal(put.status, 200, put.text);
  assert.equal(put.body.email_available, false, 'no SMTP relay here');
  for (const bad of [
    { quiet_hours: { start: '25:00', end: '07:00' } },
    { email: 'not an address' },
    { reminder_seconds: 1 },
    { colour: 'red' },
  ]) {
    assert.equal(
      (await call('PUT', '/api/v1/me/notifications', { token: host.token, body: bad })).status,
      422,
      JSON.stringify(bad),
    );
  }
  assert.equal(
    (
      await call('PUT', '/api/v1/me/notifications', {
        token: host.token,
        raw: '{',
        headers: { 'content-type': 'application/json' },
      })
    ).status,
    400,
  );
  const hook = await call('POST', '/api/v1/me/notifications/webhooks', {
    token: host.token,
    body: { url: 'https://hooks.example.test/x' },
  });
  assert.equal(hook.status, 201, hook.text);
  assert.equal(
    (
      await call('POST', '/api/v1/me/notifications/webhooks', {
        token: host.token,
        body: { url: 'http://example.test/plain' },
      })
    ).status,
    422,
    'http only to loopback',
  );
  assert.equal(
    (
      await call('DELETE', `/api/v1/me/notifications/webhooks/${hook.body.id}`, {
        token: host.token,
      })
    ).status,
    204,
  );
  assert.equal(
    (
      await call('DELETE', `/api/v1/me/notifications/webhooks/${hook.body.id}`, {
        token: host.token,
      })
    ).status,
    404,
  );
  assert.equal(
    (await call('POST', '/api/v1/notifications/verify', { body: { token: '0'.repeat(64) } }))
      .status,
    404,
  );
  // A link as one would be mailed (no relay here: its hash is written).
  const link = 'cd'.repeat(32);
  psql(
    db,
    `UPDATE notify_settings SET verify_hash = sha256(convert_to('${link}', 'UTF8')), verify_expires = now() + interval '1 hour' WHERE email = 'host@example.test'`,
  );
  const scanned = await call('GET', `/api/v1/notifications/verify?token=${link}`);
  assert.equal(scanned.status, 303, 'a GET only sends the browser to the page');
  assert.equal(scanned.headers.get('location'), `/verify?token=${link}`);
  // A guest secures the account; a sign-in link (its row written as the
  // mail would be: no relay here) signs in once.
  const g = await call('POST', '/api/v1/players', { body: { name: `g${Date.now() % 1e6}` } });
  assert.equal(g.status, 201, g.text);
  const secured = await call('PUT', '/api/v1/me/password', {
    token: g.body.token,
    body: { password: 'a long enough secret' },
  });
  assert.equal(secured.status, 204, secured.text);
  const asked = await call('POST', '/api/v1/sign-in-links', {
    body: { email: 'host@example.test', next: '/' },
  });
  assert.equal(asked.status, 202, asked.text);
  const signinLink = 'ef'.repeat(32);
  psql(
    db,
    `INSERT INTO signin_links (hash, player_id, next_path, expires_at) VALUES (sha256(convert_to('${signinLink}', 'UTF8')), '${g.body.id}', '/', now() + interval '1 hour')`,
  );
  const redeemed = await call('POST', '/api/v1/sign-in-links/redeem', {
    body: { token: signinLink },
  });
  assert.equal(redeemed.status, 201, redeemed.text);
  assert.equal(redeemed.body.name, g.body.name);
  // The mails' unsubscribe link (its token written as a mail would make it).
  const unsubToken = '9a'.repeat(24);
  psql(
    db,
    `UPDATE notify_settings SET unsubscribe_token = '${unsubToken}' WHERE email = 'host@example.test'`,
  );
  assert.equal((await call('GET', `/unsubscribe?token=${unsubToken}`)).status, 200);
  const verified = await call('POST', '/api/v1/notifications/verify', { body: { token: link } });
  assert.equal(verified.status, 200, verified.text);
  assert.deepEqual(verified.body, {
    email: 'host@example.test',
    email_verified: true,
    already_verified: false,
  });
  const unsub = await call('POST', `/unsubscribe?token=${unsubToken}`);
  assert.equal(unsub.status, 200, unsub.text);
  // Async play: the inbox lists the game's first window, the host extends
  // its deadline once, and a vacation starts and stops.
  const inbox = await call('GET', '/api/v1/me/turns', { token: host.token });
  assert.ok(
    inbox.body.turns.some((t) => t.game === id),
    inbox.text,
  );
  const ext = await call('POST', `/api/v1/games/${id}/windows/r1/extend`, {
    token: host.token,
    body: { seconds: 60 },
  });
  assert.equal(ext.status, 200, ext.text);
  await call('GET', '/api/v1/me/vacation', { token: friend.token });
  await call('POST', '/api/v1/me/vacation', { token: friend.token, body: { days: 1 } });
  await call('DELETE', '/api/v1/me/vacation', { token: friend.token });
  await call('GET', `/api/v1/games/${id}`, { token: host.token });
  await call('GET', `/api/v1/games/${id}/view`, { token: host.token });
  const step = await call('GET', `/api/v1/games/${id}/replay?at=0`, { token: host.token });
  assert.equal(step.status, 200, step.text);
  await call('GET', `/api/v1/games/${id}/legal`, { token: host.token });
  // Play the bot game to its end (the bot orders on its own).
  for (let i = 0; i < 200; i++) {
    const g = await call('GET', `/api/v1/games/${id}`, { token: host.token });
    if (g.body.status !== 'running') break;
    const w = g.body.windows[0];
    if (w && !w.submitted.includes(0)) {
      await call('PUT', `/api/v1/games/${id}/orders/${w.id}`, {
        token: host.token,
        body: { throw: 'paper' },
      });
    } else {
      await sleep(25);
    }
  }
  await call('GET', `/api/v1/games/${id}/log`, { token: host.token });
  const rematch = await call('POST', `/api/v1/games/${id}/rematch`, { token: host.token });
  assert.equal(rematch.status, 201, rematch.text);
  await call('GET', `/api/v1/games/${id}/rematch`, { token: host.token });
  const rps = await newGame(call, 'rps', [host, friend]);
  await call('PUT', `/api/v1/games/${rps}/orders/r1`, {
    token: host.token,
    body: { throw: 'rock' },
  });
  await call('DELETE', `/api/v1/games/${rps}/orders/r1`, { token: host.token });
  const exp = await call('GET', `/api/v1/games/${id}/export`);
  assert.equal(exp.status, 200, exp.text);
  const ttt = await newGame(call, 'tictactoe', [host, friend]);
  await call('POST', `/api/v1/games/${ttt}/plays`, {
    token: host.token,
    body: { window: 't1', cell: 0 },
    headers: { 'idempotency-key': 'a', 'if-match': '"0"' },
  });

  // Orders in parts (fleets_example) and priority decisions (duel_example).
  const fleets = await newGame(call, 'fleets_example', [host, friend]);
  await call('PUT', `/api/v1/games/${fleets}/orders/r1/parts/f0`, {
    token: host.token,
    body: { to: 3 },
  });
  await call('DELETE', `/api/v1/games/${fleets}/orders/r1/parts/f0`, { token: host.token });
  const duel = await newGame(call, 'duel_example', [host, friend], {
    options: { hands: [['bolt', 'cycle'], ['counter']] },
  });
  await call('PUT', `/api/v1/games/${duel}/response-rule`, {
    token: friend.token,
    body: { until: 'my_turn' },
  });
  const duelPlay = async (action) => {
    const v = await call('GET', `/api/v1/games/${duel}/view`, { token: host.token });
    await call('POST', `/api/v1/games/${duel}/plays`, {
      token: host.token,
      body: { window: v.body.priority.window, ...action },
    });
  };
  await duelPlay({ action: 'cast', card: 0, target: 1 });
  await call('POST', `/api/v1/games/${duel}/undo`, { token: host.token });
  await duelPlay({ action: 'cast', card: 0, target: 1 });
  await duelPlay({ action: 'pass' });
  await call('POST', `/api/v1/games/${duel}/undo`, { token: host.token });
  await call('POST', `/api/v1/games/${duel}/undo/refuse`, { token: friend.token });
  await call('POST', `/api/v1/games/${duel}/undo`, { token: host.token });
  await call('POST', `/api/v1/games/${duel}/undo/consent`, { token: friend.token });

  // Table talk: a private channel, a message in it and in the public
  // channel, the pages, the list and a read mark.
  const ch = await call('POST', `/api/v1/games/${ttt}/channels`, {
    token: host.token,
    body: { seats: [1] },
  });
  assert.equal(ch.status, 201, ch.text);
  const again = await call('POST', `/api/v1/games/${ttt}/channels`, {
    token: friend.token,
    body: { seats: [0] },
  });
  assert.equal(again.status, 200, again.text);
  const said = await call('POST', `/api/v1/games/${ttt}/channels/${ch.body.id}/messages`, {
    token: host.token,
    body: { text: 'a word, between us' },
  });
  assert.equal(said.status, 201, said.text);
  await call('POST', `/api/v1/games/${ttt}/channels/0/messages`, {
    token: friend.token,
    body: { text: 'good luck' },
  });
  const pageOf = await call(
    'GET',
    `/api/v1/games/${ttt}/channels/${ch.body.id}/messages?limit=10`,
    { token: friend.token },
  );
  assert.equal(pageOf.body.messages.length, 1);
  await call('GET', `/api/v1/games/${ttt}/channels/0/messages?after=0`);
  await call('GET', `/api/v1/games/${ttt}/channels`, { token: friend.token });
  await call('GET', `/api/v1/games/${ttt}/channels`);
  const marked = await call('PUT', `/api/v1/games/${ttt}/channels/${ch.body.id}/read`, {
    token: friend.token,
    body: { seq: 1 },
  });
  assert.equal(marked.status, 200, marked.text);

  // A group channel: attached by a seated player, seen by the other.
  const group = await call('PUT', `/api/v1/games/${ttt}/group-webhook`, {
    token: friend.token,
    body: { url: 'https://hooks.example.test/group', format: 'slack' },
  });
  assert.equal(group.status, 200, group.text);
  const groupSeen = await call('GET', `/api/v1/games/${ttt}/group-webhook`, { token: host.token });
  assert.equal(groupSeen.status, 200, groupSeen.text);
  assert.equal(groupSeen.body.url, null, 'the URL only to who attached it');
  assert.equal(
    (await call('DELETE', `/api/v1/games/${ttt}/group-webhook`, { token: host.token })).status,
    204,
  );

  const succeeded = new Set(
    // A redirect is the success of an operation that only redirects.
    call.seen.filter((s) => s.status < 400).map((s) => `${s.method} ${s.path}`),
  );
  const missing = specOperations()
    .map((o) => o.key)
    .filter((k) => !succeeded.has(k));
  assert.deepEqual(missing, [], 'operations without a validated success');
});

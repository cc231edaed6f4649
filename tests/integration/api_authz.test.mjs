// api_authz.test.mjs - the authorization matrix: every route of the server's
// table against five callers, with the expected status of each cell written
// down below. Zero unauthorised successes: a cell passes only with exactly
// its expected status. Routes that change state get a fresh lobby or game
// per cell, so one cell cannot prepare another.
//
// Callers:
//   owner      the player who owns the resource (lobby host / seat 0 / self)
//   other      another player who is a member (seated in the lobby / seat 1)
//   spectator  a valid token of a player with no seat
//   none       no Authorization header
//   revoked    the owner's own token after DELETE /sessions/current
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, createDatabase, dropDatabase, startServer } from './lib/server.mjs';
import { client, newPlayer, newLobby, newGame, uniqueName, NO_LIMITS } from './lib/api.mjs';

const CALLERS = ['owner', 'other', 'spectator', 'none', 'revoked'];

let db, srv, call, A, B, C, revokedToken;

before(async () => {
  db = createDatabase('apiz');
  srv = await startServer({ db, env: { ...NO_LIMITS, CONCLAVE_EXAMPLE_RULESETS: '1' } });
  call = client(srv.url);
  A = await newPlayer(call, { prefix: 'owner' });
  B = await newPlayer(call, { prefix: 'other' });
  C = await newPlayer(call, { prefix: 'spect' });
  const s = await call('POST', '/api/v1/sessions', {
    body: { name: A.name, password: A.password },
  });
  revokedToken = s.body.token;
  assert.equal(
    (await call('DELETE', '/api/v1/sessions/current', { token: revokedToken })).status,
    204,
  );
});

after(async () => {
  await srv?.stop();
  if (db) dropDatabase(db);
});

// Fixtures.
const privateLobby = (opts = {}) =>
  newLobby(
    call,
    A,
    { ruleset: opts.ruleset || 'tictactoe', seats: opts.seats || 2, private: true },
    [B],
  );
const tttGame = () => newGame(call, 'tictactoe', [A, B]);
const rpsGame = () => newGame(call, 'rps', [A, B], { options: { rounds: 1 } });
async function rpsWithOrder() {
  const id = await rpsGame();
  const r = await call('PUT', `/api/v1/games/${id}/orders/r1`, {
    token: A.token,
    body: { throw: 'rock' },
  });
  assert.equal(r.status, 200);
  return id;
}
async function finishedGame() {
  const id = await rpsGame();
  await call('PUT', `/api/v1/games/${id}/orders/r1`, { token: A.token, body: { throw: 'rock' } });
  await call('PUT', `/api/v1/games/${id}/orders/r1`, { token: B.token, body: { throw: 'paper' } });
  return id;
}
async function finishedWithRematch() {
  const id = await finishedGame();
  const r = await call('POST', `/api/v1/games/${id}/rematch`, { token: A.token });
  assert.equal(r.status, 201, r.text);
  return id;
}

// Table talk: a sprint game of A (seat 0), B (seat 1) and a bot (seat 2),
// with a private channel of seats 0 and 2 holding one message: B is seated
// but outside it.
async function chatGame() {
  const id = await newGame(call, 'sprint', [A, B], { bots: [undefined] });
  const ch = await call('POST', `/api/v1/games/${id}/channels`, {
    token: A.token,
    body: { seats: [2] },
  });
  assert.equal(ch.status, 201, ch.text);
  const m = await call('POST', `/api/v1/games/${id}/channels/${ch.body.id}/messages`, {
    token: A.token,
    body: { text: 'between 0 and 2' },
  });
  assert.equal(m.status, 201, m.text);
  return { id, ch: ch.body.id };
}

// A running game of A and B with a group channel A attached.
async function groupGame() {
  const id = await tttGame();
  const r = await call('PUT', `/api/v1/games/${id}/group-webhook`, {
    token: A.token,
    body: { url: 'https://hooks.example.test/group', format: 'discord' },
  });
  assert.equal(r.status, 200, r.text);
  return id;
}

// Webhooks: each player's own (at most five, so the fixtures clear them).
async function clearHooks() {
  for (const p of [A, B, C]) {
    const got = await call('GET', '/api/v1/me/notifications', { token: p.token });
    for (const w of got.body.webhooks)
      await call('DELETE', `/api/v1/me/notifications/webhooks/${w.id}`, { token: p.token });
  }
}
async function ownerHook() {
  await clearHooks();
  const r = await call('POST', '/api/v1/me/notifications/webhooks', {
    token: A.token,
    body: { url: 'https://hooks.example.test/a' },
  });
  assert.equal(r.status, 201, r.text);
  return r.body.id;
}

// An async game hosted by A (its windows have deadlines).
async function asyncGame() {
  const lobby = await newLobby(
    call,
    A,
    { ruleset: 'rps', seats: 2, clock: { mode: 'async', seconds: 3600 } },
    [B],
  );
  const s = await call('POST', `/api/v1/lobbies/${lobby.id}/start`, { token: A.token });
  assert.equal(s.status, 201, s.text);
  return s.body.game;
}

// Orders in parts (fleets_example) and priority (duel_example).
const fleetsGame = () => newGame(call, 'fleets_example', [A, B]);
async function fleetsWithPart() {
  const id = await fleetsGame();
  const r = await call('PUT', `/api/v1/games/${id}/orders/r1/parts/f0`, {
    token: A.token,
    body: { to: 3 },
  });
  assert.equal(r.status, 200);
  return id;
}
const duelGame = () =>
  newGame(call, 'duel_example', [A, B], { options: { hands: [['bolt', 'cycle'], ['counter']] } });
async function duelPlay(id, token, action) {
  const v = await call('GET', `/api/v1/games/${id}/view`, { token });
  const r = await call('POST', `/api/v1/games/${id}/plays`, {
    token,
    body: { window: v.body.priority.window, ...action },
  });
  assert.equal(r.status, 200, r.text);
}
async function duelWithPlay() {
  const id = await duelGame();
  await duelPlay(id, A.token, { action: 'cast', card: 0, target: 1 });
  return id;
}
// Seat 0's bolt resolved after seat 1 passed; seat 0 asks to undo it.
async function duelWithUndoRequest() {
  const id = await duelWithPlay();
  await duelPlay(id, A.token, { action: 'pass' });
  await duelPlay(id, B.token, { action: 'pass' });
  assert.equal((await call('POST', `/api/v1/games/${id}/undo`, { token: A.token })).status, 200);
  return id;
}

// The matrix. expect lists the status for owner, other, spectator, none, revoked.
// fresh: the fixture is made anew for every cell (routes that change state).
// tokens: 'session' gives owner/other/spectator a fresh session token of their own.
const MATRIX = [
  { route: 'GET /healthz', req: () => ['GET', '/healthz'], expect: [200, 200, 200, 200, 200] },
  { route: 'GET /readyz', req: () => ['GET', '/readyz'], expect: [200, 200, 200, 200, 200] },
  { route: 'GET /metrics', req: () => ['GET', '/metrics'], expect: [200, 200, 200, 200, 200] },
  {
    route: 'GET /api/v1/openapi.yaml',
    req: () => ['GET', '/api/v1/openapi.yaml'],
    expect: [200, 200, 200, 200, 200],
  },
  // Sign-up and sign-in are public: the credentials in the body are what counts.
  {
    route: 'POST /api/v1/players',
    req: () => ['POST', '/api/v1/players', { name: uniqueName('n') }],
    expect: [201, 201, 201, 201, 201],
  },
  {
    route: 'POST /api/v1/sessions',
    req: () => ['POST', '/api/v1/sessions', { name: A.name, password: A.password }],
    expect: [201, 201, 201, 201, 201],
  },
  {
    route: 'POST /api/v1/sessions (wrong password)',
    pattern: 'POST /api/v1/sessions',
    req: () => ['POST', '/api/v1/sessions', { name: A.name, password: 'not-the-password' }],
    expect: [401, 401, 401, 401, 401],
  },
  // Each caller can only ever revoke the token it presents.
  {
    route: 'DELETE /api/v1/sessions/current',
    tokens: 'session',
    req: () => ['DELETE', '/api/v1/sessions/current'],
    expect: [204, 204, 204, 401, 401],
  },
  { route: 'GET /api/v1/me', req: () => ['GET', '/api/v1/me'], expect: [200, 200, 200, 401, 401] },
  // Sign-in links are public (the mailed token is what counts); every caller
  // here has a password already, so none can set one.
  {
    route: 'POST /api/v1/sign-in-links',
    req: () => ['POST', '/api/v1/sign-in-links', { email: 'nobody@example.test' }],
    expect: [202, 202, 202, 202, 202],
  },
  {
    route: 'POST /api/v1/sign-in-links/redeem',
    req: () => ['POST', '/api/v1/sign-in-links/redeem', { token: 'ab'.repeat(32) }],
    expect: [404, 404, 404, 404, 404],
  },
  {
    route: 'PUT /api/v1/me/password',
    req: () => ['PUT', '/api/v1/me/password', { password: 'a long new secret' }],
    expect: [409, 409, 409, 401, 401],
  },
  // Only one's own record: none of these players has a campaign game to choose for.
  {
    route: 'POST /api/v1/me/records/{key}/choice',
    req: () => ['POST', '/api/v1/me/records/campaign/choice', { condition: 'tycoon' }],
    expect: [409, 409, 409, 401, 401],
  },
  // Notification settings are each caller's own; a webhook id of another
  // player is "not found"; the mailed verification link needs no token.
  {
    route: 'GET /api/v1/me/notifications',
    req: () => ['GET', '/api/v1/me/notifications'],
    expect: [200, 200, 200, 401, 401],
  },
  {
    route: 'PUT /api/v1/me/notifications',
    req: () => ['PUT', '/api/v1/me/notifications', { digest: false }],
    expect: [200, 200, 200, 401, 401],
  },
  {
    route: 'POST /api/v1/me/notifications/webhooks',
    fresh: true,
    setup: clearHooks,
    req: () => [
      'POST',
      '/api/v1/me/notifications/webhooks',
      { url: 'https://hooks.example.test/c' },
    ],
    expect: [201, 201, 201, 401, 401],
  },
  {
    route: 'DELETE /api/v1/me/notifications/webhooks/{id}',
    fresh: true,
    setup: ownerHook,
    req: (id) => ['DELETE', `/api/v1/me/notifications/webhooks/${id}`],
    expect: [204, 404, 404, 401, 401],
  },
  {
    route: 'GET /api/v1/notifications/verify',
    req: () => ['GET', `/api/v1/notifications/verify?token=${'ab'.repeat(32)}`],
    expect: [303, 303, 303, 303, 303],
  },
  {
    route: 'GET /unsubscribe',
    req: () => ['GET', `/unsubscribe?token=${'ab'.repeat(24)}`],
    expect: [200, 200, 200, 200, 200],
  },
  {
    route: 'POST /unsubscribe',
    req: () => ['POST', `/unsubscribe?token=${'ab'.repeat(24)}`],
    expect: [404, 404, 404, 404, 404],
  },
  {
    route: 'POST /api/v1/notifications/verify',
    req: () => ['POST', '/api/v1/notifications/verify', { token: 'ab'.repeat(32) }],
    expect: [404, 404, 404, 404, 404],
  },
  // The inbox and the vacation bank are the caller's own. Nobody is on
  // vacation before the POST row, so every stop is a 409.
  {
    route: 'GET /api/v1/me/turns',
    req: () => ['GET', '/api/v1/me/turns'],
    expect: [200, 200, 200, 401, 401],
  },
  {
    route: 'GET /api/v1/me/vacation',
    req: () => ['GET', '/api/v1/me/vacation'],
    expect: [200, 200, 200, 401, 401],
  },
  {
    route: 'DELETE /api/v1/me/vacation',
    req: () => ['DELETE', '/api/v1/me/vacation'],
    expect: [409, 409, 409, 401, 401],
  },
  {
    route: 'POST /api/v1/me/vacation',
    req: () => ['POST', '/api/v1/me/vacation', { days: 1 }],
    expect: [201, 201, 201, 401, 401],
  },
  {
    route: 'GET /api/v1/rulesets',
    req: () => ['GET', '/api/v1/rulesets'],
    expect: [200, 200, 200, 200, 200],
  },
  {
    route: 'POST /api/v1/lobbies',
    req: () => ['POST', '/api/v1/lobbies', { ruleset: 'tictactoe', seats: 2 }],
    expect: [201, 201, 201, 401, 401],
  },
  {
    route: 'GET /api/v1/lobbies',
    req: () => ['GET', '/api/v1/lobbies'],
    expect: [200, 200, 200, 200, 401],
  },
  {
    route: 'GET /api/v1/lobbies/{id}',
    setup: privateLobby,
    req: (l) => ['GET', `/api/v1/lobbies/${l.id}`],
    expect: [200, 200, 404, 404, 401],
  },
  {
    route: 'POST /api/v1/lobbies/{id}/seats',
    fresh: true,
    setup: () => privateLobby({ ruleset: 'sprint', seats: 3 }),
    req: (l) => ['POST', `/api/v1/lobbies/${l.id}/seats`, {}],
    expect: [409, 409, 404, 401, 401],
  },
  {
    route: 'DELETE /api/v1/lobbies/{id}/seats/me',
    fresh: true,
    setup: privateLobby,
    req: (l) => ['DELETE', `/api/v1/lobbies/${l.id}/seats/me`],
    expect: [200, 200, 404, 401, 401],
  },
  // Only the host empties a seat; B sits in seat 1 of the private lobby.
  {
    route: 'DELETE /api/v1/lobbies/{id}/seats/{seat}',
    fresh: true,
    setup: privateLobby,
    req: (l) => ['DELETE', `/api/v1/lobbies/${l.id}/seats/1`],
    expect: [200, 403, 404, 401, 401],
  },
  {
    route: 'POST /api/v1/lobbies/{id}/bots',
    fresh: true,
    setup: () => privateLobby({ ruleset: 'sprint', seats: 3 }),
    req: (l) => ['POST', `/api/v1/lobbies/${l.id}/bots`, {}],
    expect: [200, 403, 404, 401, 401],
  },
  {
    route: 'POST /api/v1/lobbies/{id}/start',
    fresh: true,
    setup: privateLobby,
    req: (l) => ['POST', `/api/v1/lobbies/${l.id}/start`],
    expect: [201, 403, 404, 401, 401],
  },
  // Games are public to watch; seats see their own view.
  {
    route: 'GET /api/v1/games/{id}',
    setup: rpsWithOrder,
    req: (g) => ['GET', `/api/v1/games/${g}`],
    expect: [200, 200, 200, 200, 401],
  },
  {
    route: 'GET /api/v1/games/{id}/view',
    setup: rpsWithOrder,
    req: (g) => ['GET', `/api/v1/games/${g}/view`],
    expect: [200, 200, 200, 200, 401],
  },
  // A replay step: each caller gets its own audience (a seat's, or the
  // public view), like the view itself.
  {
    route: 'GET /api/v1/games/{id}/replay',
    setup: rpsWithOrder,
    req: (g) => ['GET', `/api/v1/games/${g}/replay?at=1`],
    expect: [200, 200, 200, 200, 401],
  },
  {
    route: 'GET /api/v1/games/{id}/legal',
    setup: tttGame,
    req: (g) => ['GET', `/api/v1/games/${g}/legal`],
    expect: [200, 200, 200, 401, 401],
  },
  // "other" orders in its own seat (it cannot name another); a spectator has none.
  {
    route: 'PUT /api/v1/games/{id}/orders/{window}',
    fresh: true,
    setup: rpsGame,
    req: (g) => ['PUT', `/api/v1/games/${g}/orders/r1`, { throw: 'rock' }],
    expect: [200, 200, 403, 401, 401],
  },
  // Only the owner's order is held: "other" has nothing of its own to withdraw.
  {
    route: 'DELETE /api/v1/games/{id}/orders/{window}',
    fresh: true,
    setup: rpsWithOrder,
    req: (g) => ['DELETE', `/api/v1/games/${g}/orders/r1`],
    expect: [204, 409, 403, 401, 401],
  },
  // Parts: each seat sets its own; only the owner holds a part to delete.
  {
    route: 'PUT /api/v1/games/{id}/orders/{window}/parts/{key}',
    fresh: true,
    setup: fleetsGame,
    req: (g) => ['PUT', `/api/v1/games/${g}/orders/r1/parts/f0`, { to: 3 }],
    expect: [200, 200, 403, 401, 401],
  },
  {
    route: 'DELETE /api/v1/games/{id}/orders/{window}/parts/{key}',
    fresh: true,
    setup: fleetsWithPart,
    req: (g) => ['DELETE', `/api/v1/games/${g}/orders/r1/parts/f0`],
    expect: [200, 404, 403, 401, 401],
  },
  // Priority: a rule is each seat's own; only the player of the play may
  // undo it, and only the other seat may answer the request.
  {
    route: 'PUT /api/v1/games/{id}/response-rule',
    fresh: true,
    setup: duelGame,
    req: (g) => ['PUT', `/api/v1/games/${g}/response-rule`, { until: 'my_turn' }],
    expect: [200, 200, 403, 401, 401],
  },
  {
    route: 'POST /api/v1/games/{id}/undo',
    fresh: true,
    setup: duelWithPlay,
    req: (g) => ['POST', `/api/v1/games/${g}/undo`],
    expect: [200, 409, 403, 401, 401],
  },
  {
    route: 'POST /api/v1/games/{id}/undo/consent',
    fresh: true,
    setup: duelWithUndoRequest,
    req: (g) => ['POST', `/api/v1/games/${g}/undo/consent`],
    expect: [409, 200, 403, 401, 401],
  },
  {
    route: 'POST /api/v1/games/{id}/undo/refuse',
    fresh: true,
    setup: duelWithUndoRequest,
    req: (g) => ['POST', `/api/v1/games/${g}/undo/refuse`],
    expect: [409, 200, 403, 401, 401],
  },
  // Seat 0 (owner) is to move; seat 1 is out of turn.
  {
    route: 'POST /api/v1/games/{id}/plays',
    fresh: true,
    setup: tttGame,
    req: (g) => ['POST', `/api/v1/games/${g}/plays`, { window: 't1', cell: 4 }],
    expect: [200, 409, 403, 401, 401],
  },
  // Only the host of the game's lobby extends a deadline.
  {
    route: 'POST /api/v1/games/{id}/windows/{window}/extend',
    fresh: true,
    setup: asyncGame,
    req: (g) => ['POST', `/api/v1/games/${g}/windows/r1/extend`, {}],
    expect: [200, 403, 403, 401, 401],
  },
  // The rematch belongs to the game's players: either may make it (fresh
  // game per cell) or find it; anyone else is refused.
  {
    route: 'POST /api/v1/games/{id}/rematch',
    fresh: true,
    setup: finishedGame,
    req: (g) => ['POST', `/api/v1/games/${g}/rematch`],
    expect: [201, 201, 403, 401, 401],
  },
  {
    route: 'GET /api/v1/games/{id}/rematch',
    setup: finishedWithRematch,
    req: (g) => ['GET', `/api/v1/games/${g}/rematch`],
    expect: [200, 200, 403, 401, 401],
  },
  {
    route: 'GET /api/v1/games/{id}/log',
    setup: rpsWithOrder,
    req: (g) => ['GET', `/api/v1/games/${g}/log`],
    expect: [200, 200, 200, 200, 401],
  },
  {
    route: 'GET /api/v1/games/{id}/export (running)',
    pattern: 'GET /api/v1/games/{id}/export',
    setup: rpsGame,
    req: (g) => ['GET', `/api/v1/games/${g}/export`],
    expect: [403, 403, 403, 403, 401],
  },
  {
    route: 'GET /api/v1/games/{id}/export (finished)',
    pattern: 'GET /api/v1/games/{id}/export',
    setup: finishedGame,
    req: (g) => ['GET', `/api/v1/games/${g}/export`],
    expect: [200, 200, 200, 200, 401],
  },
  // Table talk: everyone reads the public channel and the list (spectators
  // see the public channel only); seated players post; a private channel is
  // "not found" outside its seats, even to another seated player.
  {
    route: 'GET /api/v1/games/{id}/channels',
    setup: chatGame,
    req: (g) => ['GET', `/api/v1/games/${g.id}/channels`],
    expect: [200, 200, 200, 200, 401],
  },
  {
    route: 'POST /api/v1/games/{id}/channels',
    fresh: true,
    setup: tttGame,
    req: (g) => ['POST', `/api/v1/games/${g}/channels`, { seats: [0, 1] }],
    expect: [201, 201, 403, 401, 401],
  },
  {
    route: 'PUT /api/v1/games/{id}/group-webhook',
    fresh: true,
    setup: tttGame,
    req: (g) => [
      'PUT',
      `/api/v1/games/${g}/group-webhook`,
      { url: 'https://hooks.example.test/g', format: 'slack' },
    ],
    expect: [200, 200, 403, 401, 401],
  },
  {
    route: 'GET /api/v1/games/{id}/group-webhook',
    setup: groupGame,
    req: (g) => ['GET', `/api/v1/games/${g}/group-webhook`],
    expect: [200, 200, 403, 401, 401],
  },
  {
    route: 'DELETE /api/v1/games/{id}/group-webhook',
    fresh: true,
    setup: groupGame,
    req: (g) => ['DELETE', `/api/v1/games/${g}/group-webhook`],
    expect: [204, 204, 403, 401, 401],
  },
  {
    route: 'GET /api/v1/games/{id}/channels/{channel}/messages',
    setup: chatGame,
    req: (g) => ['GET', `/api/v1/games/${g.id}/channels/${g.ch}/messages`],
    expect: [200, 404, 404, 404, 401],
  },
  {
    route: 'GET /api/v1/games/{id}/channels/{channel}/messages (public)',
    pattern: 'GET /api/v1/games/{id}/channels/{channel}/messages',
    setup: chatGame,
    req: (g) => ['GET', `/api/v1/games/${g.id}/channels/0/messages`],
    expect: [200, 200, 200, 200, 401],
  },
  {
    route: 'POST /api/v1/games/{id}/channels/{channel}/messages',
    setup: chatGame,
    req: (g) => ['POST', `/api/v1/games/${g.id}/channels/${g.ch}/messages`, { text: 'hello' }],
    expect: [201, 404, 403, 401, 401],
  },
  {
    route: 'POST /api/v1/games/{id}/channels/{channel}/messages (public)',
    pattern: 'POST /api/v1/games/{id}/channels/{channel}/messages',
    setup: chatGame,
    req: (g) => ['POST', `/api/v1/games/${g.id}/channels/0/messages`, { text: 'hello all' }],
    expect: [201, 201, 403, 401, 401],
  },
  {
    route: 'PUT /api/v1/games/{id}/channels/{channel}/read',
    setup: chatGame,
    req: (g) => ['PUT', `/api/v1/games/${g.id}/channels/${g.ch}/read`, { seq: 1 }],
    expect: [200, 404, 403, 401, 401],
  },
];

// The routes of the server's table, read from the C source.
function serverRoutes() {
  const src = ['routes.c', 'handlers.h']
    .map((f) => fs.readFileSync(path.join(ROOT, 'api', f), 'utf8'))
    .join('\n');
  return [...src.matchAll(/\{\s*"(GET|POST|PUT|DELETE|PATCH)",\s*"([^"]+)"/g)].map(
    (m) => `${m[1]} ${m[2]}`,
  );
}

async function tokenFor(who, row) {
  if (who === 'none') return undefined;
  if (who === 'revoked') return revokedToken;
  const p = { owner: A, other: B, spectator: C }[who];
  if (row.tokens === 'session') {
    const s = await call('POST', '/api/v1/sessions', {
      body: { name: p.name, password: p.password },
    });
    return s.body.token;
  }
  return p.token;
}

test('the matrix covers every route of the server', () => {
  const covered = new Set(MATRIX.map((r) => r.pattern || r.route));
  const missing = serverRoutes().filter((r) => !covered.has(r));
  assert.deepEqual(missing, [], 'routes without a row in the matrix');
});

test('authorization matrix: every cell answers exactly as expected, no unauthorised success', async () => {
  const failures = [];
  const unauthorisedSuccesses = [];
  const table = [];
  for (const row of MATRIX) {
    const shared = row.setup && !row.fresh ? await row.setup() : undefined;
    const got = [];
    for (const [i, who] of CALLERS.entries()) {
      const fixture = row.fresh ? await row.setup() : shared;
      const [method, p, body] = row.req(fixture);
      const token = await tokenFor(who, row);
      const r = await call(method, p, { token, body });
      got.push(r.status);
      if (r.status !== row.expect[i])
        failures.push(
          `${row.route} as ${who}: ${r.status}, expected ${row.expect[i]} (${r.text.slice(0, 160)})`,
        );
      if (r.status < 300 && row.expect[i] >= 300)
        unauthorisedSuccesses.push(`${row.route} as ${who}`);
      if (r.status >= 400) assert.equal(r.headers.get('content-type'), 'application/problem+json');
    }
    table.push(`${row.route.padEnd(48)} ${got.join('  ')}`);
  }
  console.log(`${'route'.padEnd(48)} ${CALLERS.join(' ')}\n${table.join('\n')}`);
  assert.deepEqual(unauthorisedSuccesses, [], 'unauthorised successes');
  assert.deepEqual(failures, []);
});

test('what each caller sees of a game with a sealed order held', async () => {
  const id = await rpsWithOrder();
  const seen = {};
  for (const who of ['owner', 'other', 'spectator', 'none']) {
    const token = await tokenFor(who, {});
    const g = await call('GET', `/api/v1/games/${id}`, { token });
    const v = await call('GET', `/api/v1/games/${id}/view`, { token });
    const l = await call('GET', `/api/v1/games/${id}/legal`, { token, check: who !== 'none' });
    seen[who] = {
      you: g.body.you,
      myOrders: g.body.view.my_orders,
      viewOrders: v.body.my_orders,
      legal: l.body?.windows?.length,
    };
    if (who !== 'owner') {
      assert.ok(!JSON.stringify(g.body).includes('rock'), `${who} saw the sealed order`);
      assert.ok(
        !JSON.stringify(v.body).includes('rock'),
        `${who} saw the sealed order in the view`,
      );
    }
  }
  assert.deepEqual(seen, {
    owner: {
      you: 0,
      myOrders: { r1: { throw: 'rock' } },
      viewOrders: { r1: { throw: 'rock' } },
      legal: 1,
    },
    other: { you: 1, myOrders: {}, viewOrders: {}, legal: 1 },
    spectator: { you: null, myOrders: undefined, viewOrders: undefined, legal: 0 },
    none: { you: null, myOrders: undefined, viewOrders: undefined, legal: undefined },
  });
  // The other player's withdraw did not touch the owner's order.
  await call('DELETE', `/api/v1/games/${id}/orders/r1`, { token: B.token });
  const still = await call('GET', `/api/v1/games/${id}/view`, { token: A.token });
  assert.deepEqual(still.body.my_orders, { r1: { throw: 'rock' } });
});

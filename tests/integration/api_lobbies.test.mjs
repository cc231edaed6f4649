// api_lobbies.test.mjs - lobbies through the REST API: creation and its
// validation, private lobbies and invite codes, the public list, seats, bots,
// leaving, starting, and the NOTIFY every change sends. Every answer is
// checked against api/openapi.yaml by the client.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createDatabase, dropDatabase, startServer, psql, sleep } from './lib/server.mjs';
import { client, newPlayer, newLobby, NO_LIMITS } from './lib/api.mjs';

let db, srv, call, host, guest, third;

before(async () => {
  db = createDatabase('apil');
  srv = await startServer({ db, env: NO_LIMITS });
  call = client(srv.url);
  host = await newPlayer(call, { prefix: 'host' });
  guest = await newPlayer(call, { prefix: 'guest' });
  third = await newPlayer(call, { prefix: 'third' });
});

after(async () => {
  await srv?.stop();
  if (db) dropDatabase(db);
});

test('create: the creator hosts and sits in seat 0; the shape is exactly the documented one', async () => {
  const r = await call('POST', '/api/v1/lobbies', {
    token: host.token,
    body: {
      ruleset: 'rps',
      seats: 2,
      options: { rounds: 5 },
      clock: { mode: 'live', seconds: 30 },
      spectator_delay: { versions: 3 },
    },
  });
  assert.equal(r.status, 201);
  assert.equal(r.headers.get('location'), `/api/v1/lobbies/${r.body.id}`);
  assert.deepEqual(r.body, {
    id: r.body.id,
    ruleset: 'rps',
    options: { rounds: 5 },
    host: { id: host.id, name: host.name },
    private: false,
    clock: { mode: 'live', seconds: 30 },
    spectator_delay: { versions: 3, seconds: 0 },
    status: 'open',
    seats: [
      {
        seat: 0,
        player: {
          id: host.id,
          name: host.name,
          reputation: { median_response_seconds: null, answered: 0, missed: 0 },
        },
        bot: null,
        ready: true,
      },
      { seat: 1, player: null, bot: null, ready: false },
    ],
    game: null,
  });
  const plain = await call('POST', '/api/v1/lobbies', {
    token: host.token,
    body: { ruleset: 'tictactoe', seats: 2 },
  });
  assert.deepEqual(plain.body.clock, { mode: 'none', seconds: 0 });
  assert.deepEqual(plain.body.spectator_delay, { versions: 0, seconds: 0 });
  assert.deepEqual(plain.body.options, {});
  const anon = await call('POST', '/api/v1/lobbies', { body: { ruleset: 'tictactoe', seats: 2 } });
  assert.equal(anon.status, 401);
});

test('create: ruleset, seats, options, clock and unknown fields are validated, naming the field', async () => {
  const cases = [
    [{ ruleset: 'chess', seats: 2 }, 'ruleset', /unknown ruleset/],
    [{ ruleset: 'tictactoe', seats: 3 }, 'seats', /2 to 2 seats/],
    [{ ruleset: 'tictactoe', seats: 0 }, 'seats', /seats/],
    [{ ruleset: 'tictactoe', seats: '2' }, 'seats', /integer/],
    [{ ruleset: 'tictactoe' }, 'seats', /required/],
    [{ ruleset: 'rps', seats: 2, options: { rounds: 0 } }, 'options.rounds', /rounds/],
    [{ ruleset: 'rps', seats: 2, options: { speed: 'fast' } }, 'options.speed', /unknown option/],
    [{ ruleset: 'rps', seats: 2, options: [] }, 'options', /object/],
    [{ ruleset: 'tictactoe', seats: 2, private: 'yes' }, 'private', /true or false/],
    [
      { ruleset: 'tictactoe', seats: 2, clock: { mode: 'live', seconds: 4 } },
      'clock.seconds',
      /5 to 3600/,
    ],
    [
      { ruleset: 'tictactoe', seats: 2, clock: { mode: 'live', seconds: 3601 } },
      'clock.seconds',
      /5 to 3600/,
    ],
    [
      { ruleset: 'tictactoe', seats: 2, clock: { mode: 'async', seconds: 59 } },
      'clock.seconds',
      /60 to 1209600/,
    ],
    [
      { ruleset: 'tictactoe', seats: 2, clock: { mode: 'async', seconds: 1209601 } },
      'clock.seconds',
      /60 to 1209600/,
    ],
    [{ ruleset: 'tictactoe', seats: 2, clock: { mode: 'live' } }, 'clock.seconds', /5 to 3600/],
    [
      { ruleset: 'tictactoe', seats: 2, clock: { mode: 'blitz', seconds: 10 } },
      'clock.mode',
      /none/,
    ],
    [
      { ruleset: 'tictactoe', seats: 2, clock: { mode: 'none', seconds: 10 } },
      'clock.seconds',
      /none/,
    ],
    [
      { ruleset: 'tictactoe', seats: 2, clock: { mode: 'live', seconds: 10, bonus: 2 } },
      'clock.bonus',
      /unknown field/,
    ],
    [{ ruleset: 'tictactoe', seats: 2, colour: 'red' }, 'colour', /unknown field/],
    [
      { ruleset: 'tictactoe', seats: 2, spectator_delay: { versions: 1001 } },
      'spectator_delay.versions',
      /0 to 1000/,
    ],
    [
      { ruleset: 'tictactoe', seats: 2, spectator_delay: { seconds: -1 } },
      'spectator_delay.seconds',
      /0 to 86400/,
    ],
    [
      { ruleset: 'tictactoe', seats: 2, spectator_delay: { versions: '2' } },
      'spectator_delay.versions',
      /integer/,
    ],
    [
      { ruleset: 'tictactoe', seats: 2, spectator_delay: { minutes: 2 } },
      'spectator_delay.minutes',
      /unknown field/,
    ],
  ];
  for (const [body, field, detail] of cases) {
    const r = await call('POST', '/api/v1/lobbies', { token: host.token, body });
    assert.equal(r.status, 422, JSON.stringify(body));
    assert.equal(r.body.field, field, JSON.stringify(body));
    assert.match(r.body.detail, detail, JSON.stringify(body));
  }
  for (const clock of [
    { mode: 'live', seconds: 5 },
    { mode: 'live', seconds: 3600 },
    { mode: 'async', seconds: 60 },
    { mode: 'async', seconds: 1209600 },
    { mode: 'none' },
  ]) {
    const r = await call('POST', '/api/v1/lobbies', {
      token: host.token,
      body: { ruleset: 'tictactoe', seats: 2, clock },
    });
    assert.equal(r.status, 201, JSON.stringify(clock));
  }
});

test('private lobbies: 404 without the code, visible and joinable with it, the code shown to members only', async () => {
  const lobby = await newLobby(call, host, { ruleset: 'tictactoe', seats: 2, private: true });
  assert.equal(lobby.private, true);
  assert.match(lobby.invite_code, /^[a-z0-9]{16}$/);
  const id = lobby.id;

  const hidden = await call('GET', `/api/v1/lobbies/${id}`, { token: guest.token });
  assert.equal(hidden.status, 404);
  const missing = await call('GET', '/api/v1/lobbies/doesnotexist00', { token: guest.token });
  assert.equal(
    hidden.body.detail,
    missing.body.detail,
    'a private lobby looks exactly like a missing one',
  );
  assert.equal((await call('GET', `/api/v1/lobbies/${id}`)).status, 404);
  assert.equal(
    (await call('GET', `/api/v1/lobbies/${id}?code=wrongcode`, { token: guest.token })).status,
    404,
  );

  const withCode = await call('GET', `/api/v1/lobbies/${id}?code=${lobby.invite_code}`, {
    token: guest.token,
  });
  assert.equal(withCode.status, 200);
  assert.equal(withCode.body.invite_code, undefined, 'not a member yet');
  const anonCode = await call('GET', `/api/v1/lobbies/${id}?code=${lobby.invite_code}`);
  assert.equal(anonCode.status, 200);

  const noCode = await call('POST', `/api/v1/lobbies/${id}/seats`, {
    token: guest.token,
    body: {},
  });
  assert.equal(noCode.status, 404);
  const badCode = await call('POST', `/api/v1/lobbies/${id}/seats`, {
    token: guest.token,
    body: { code: (lobby.invite_code[0] === 'x' ? 'y' : 'x') + lobby.invite_code.slice(1) },
  });
  assert.equal(badCode.status, 404);
  const bot = await call('POST', `/api/v1/lobbies/${id}/bots`, { token: guest.token, body: {} });
  assert.equal(bot.status, 404, 'not even the host check reveals it');
  const start = await call('POST', `/api/v1/lobbies/${id}/start`, { token: guest.token });
  assert.equal(start.status, 404);
  const leave = await call('DELETE', `/api/v1/lobbies/${id}/seats/me`, { token: guest.token });
  assert.equal(leave.status, 404);

  const joined = await call('POST', `/api/v1/lobbies/${id}/seats`, {
    token: guest.token,
    body: { code: lobby.invite_code },
  });
  assert.equal(joined.status, 200);
  assert.equal(joined.body.invite_code, lobby.invite_code);
  assert.equal(joined.body.seats[1].player.id, guest.id);
  const member = await call('GET', `/api/v1/lobbies/${id}`, { token: guest.token });
  assert.equal(member.status, 200);
  assert.equal(member.body.invite_code, lobby.invite_code);
});

test('the list shows public lobbies to everyone and private ones to their members only', async () => {
  const pub = await newLobby(call, host, { ruleset: 'rps', seats: 2 });
  const priv = await newLobby(call, third, { ruleset: 'rps', seats: 2, private: true });
  const anon = await call('GET', '/api/v1/lobbies');
  assert.equal(anon.status, 200);
  const ids = anon.body.map((l) => l.id);
  assert.ok(ids.includes(pub.id));
  assert.ok(!ids.includes(priv.id));
  assert.ok(anon.body.every((l) => l.status === 'open' && l.invite_code === undefined));
  const other = await call('GET', '/api/v1/lobbies', { token: guest.token });
  assert.ok(!other.body.some((l) => l.id === priv.id));
  const mine = await call('GET', '/api/v1/lobbies?status=open&ruleset=rps', { token: third.token });
  const seen = mine.body.find((l) => l.id === priv.id);
  assert.ok(seen, 'a member sees their private lobby');
  assert.equal(seen.invite_code, priv.invite_code);
  assert.ok(mine.body.every((l) => l.ruleset === 'rps'));
  const ttt = await call('GET', '/api/v1/lobbies?ruleset=tictactoe');
  assert.ok(ttt.body.every((l) => l.ruleset === 'tictactoe'));
  assert.ok(!ttt.body.some((l) => l.id === pub.id));
  const none = await call('GET', '/api/v1/lobbies?ruleset=nosuchgame');
  assert.deepEqual(none.body, []);
  const bad = await call('GET', '/api/v1/lobbies?status=finished');
  assert.equal(bad.status, 422);
  assert.equal(bad.body.field, 'status');
  // Newest first: three more, created one after another, come back in the
  // reverse order, and the whole list follows the stored creation times.
  const fresh = [];
  for (let i = 0; i < 3; i++) {
    fresh.push((await newLobby(call, host, { ruleset: 'tictactoe', seats: 2 })).id);
    await sleep(5);
  }
  const listed = (await call('GET', '/api/v1/lobbies')).body.map((l) => l.id);
  assert.deepEqual(
    listed.filter((x) => fresh.includes(x)),
    [...fresh].reverse(),
  );
  assert.deepEqual(listed.slice(0, 3), [...fresh].reverse(), 'the newest lobbies lead the list');
  const stored = psql(
    db,
    `SELECT id FROM lobbies WHERE status = 'open' AND NOT private ORDER BY created_at DESC, id LIMIT 100`,
  ).split('\n');
  assert.deepEqual(listed, stored);
});

test('seats: a free seat or a chosen one; taken, full, out of range and already seated are refused', async () => {
  const lobby = await newLobby(call, host, { ruleset: 'tictactoe', seats: 2 });
  const range = await call('POST', `/api/v1/lobbies/${lobby.id}/seats`, {
    token: guest.token,
    body: { seat: 2 },
  });
  assert.equal(range.status, 422);
  assert.equal(range.body.field, 'seat');
  const taken = await call('POST', `/api/v1/lobbies/${lobby.id}/seats`, {
    token: guest.token,
    body: { seat: 0 },
  });
  assert.equal(taken.status, 409);
  assert.equal(taken.body.field, 'seat');
  const mistyped = await call('POST', `/api/v1/lobbies/${lobby.id}/seats`, {
    token: guest.token,
    body: { seat: 'one' },
  });
  assert.equal(mistyped.status, 422);
  const again = await call('POST', `/api/v1/lobbies/${lobby.id}/seats`, {
    token: host.token,
    body: {},
  });
  assert.equal(again.status, 409);
  assert.match(again.body.detail, /already sit in seat 0/);
  const ok = await call('POST', `/api/v1/lobbies/${lobby.id}/seats`, {
    token: guest.token,
    body: { seat: 1 },
  });
  assert.equal(ok.status, 200);
  assert.equal(ok.body.seats[1].player.name, guest.name);
  assert.equal(ok.body.seats[1].ready, true);
  const full = await call('POST', `/api/v1/lobbies/${lobby.id}/seats`, { token: third.token });
  assert.equal(full.status, 409);
  assert.match(full.body.detail, /full/);
  const missing = await call('POST', '/api/v1/lobbies/nosuchlobby0000/seats', {
    token: third.token,
  });
  assert.equal(missing.status, 404);
  const anon = await call('POST', `/api/v1/lobbies/${lobby.id}/seats`);
  assert.equal(anon.status, 401);
});

test('leaving frees the seat; a host leaving an open lobby closes it', async () => {
  const lobby = await newLobby(call, host, { ruleset: 'tictactoe', seats: 2 }, [guest]);
  const notMember = await call('DELETE', `/api/v1/lobbies/${lobby.id}/seats/me`, {
    token: third.token,
  });
  assert.equal(notMember.status, 409);
  const left = await call('DELETE', `/api/v1/lobbies/${lobby.id}/seats/me`, { token: guest.token });
  assert.equal(left.status, 200);
  assert.equal(left.body.seats[1].player, null);
  assert.equal(left.body.status, 'open');
  const rejoin = await call('POST', `/api/v1/lobbies/${lobby.id}/seats`, { token: third.token });
  assert.equal(rejoin.status, 200);
  const hostLeft = await call('DELETE', `/api/v1/lobbies/${lobby.id}/seats/me`, {
    token: host.token,
  });
  assert.equal(hostLeft.status, 200);
  assert.equal(hostLeft.body.status, 'closed');
  const closed = await call('POST', `/api/v1/lobbies/${lobby.id}/seats`, { token: guest.token });
  assert.equal(closed.status, 409);
  assert.match(closed.body.detail, /closed/);
  const list = await call('GET', '/api/v1/lobbies?status=closed');
  assert.ok(list.body.some((l) => l.id === lobby.id));

  // A private lobby: the leaver still gets the lobby back (without the code).
  const priv = await newLobby(call, host, { ruleset: 'tictactoe', seats: 2, private: true }, [
    guest,
  ]);
  const privLeft = await call('DELETE', `/api/v1/lobbies/${priv.id}/seats/me`, {
    token: guest.token,
  });
  assert.equal(privLeft.status, 200);
  assert.equal(privLeft.body.invite_code, undefined);
});

test('bots: host only, a level of random or basic, then start creates the game', async () => {
  const lobby = await newLobby(call, host, { ruleset: 'rps', seats: 2 });
  const early = await call('POST', `/api/v1/lobbies/${lobby.id}/start`, { token: host.token });
  assert.equal(early.status, 409);
  assert.match(early.body.detail, /seat 1 is empty/);
  const notHost = await call('POST', `/api/v1/lobbies/${lobby.id}/bots`, {
    token: guest.token,
    body: {},
  });
  assert.equal(notHost.status, 403);
  const level = await call('POST', `/api/v1/lobbies/${lobby.id}/bots`, {
    token: host.token,
    body: { level: 'grandmaster' },
  });
  assert.equal(level.status, 422);
  assert.equal(level.body.field, 'level');
  const taken = await call('POST', `/api/v1/lobbies/${lobby.id}/bots`, {
    token: host.token,
    body: { seat: 0 },
  });
  assert.equal(taken.status, 409);
  const extra = await call('POST', `/api/v1/lobbies/${lobby.id}/bots`, {
    token: host.token,
    body: { seats: 1 },
  });
  assert.equal(extra.status, 422);
  assert.equal(extra.body.field, 'seats');
  const bot = await call('POST', `/api/v1/lobbies/${lobby.id}/bots`, { token: host.token });
  assert.equal(bot.status, 200);
  assert.deepEqual(bot.body.seats[1], { seat: 1, player: null, bot: 'basic', ready: true });
  const full = await call('POST', `/api/v1/lobbies/${lobby.id}/bots`, {
    token: host.token,
    body: { level: 'random' },
  });
  assert.equal(full.status, 409);

  const bodyExtra = await call('POST', `/api/v1/lobbies/${lobby.id}/start`, {
    token: host.token,
    body: { now: true },
  });
  assert.equal(bodyExtra.status, 422);
  const notHostStart = await call('POST', `/api/v1/lobbies/${lobby.id}/start`, {
    token: guest.token,
  });
  assert.equal(notHostStart.status, 403);
  const start = await call('POST', `/api/v1/lobbies/${lobby.id}/start`, {
    token: host.token,
    body: {},
  });
  assert.equal(start.status, 201);
  assert.equal(start.headers.get('location'), `/api/v1/games/${start.body.game}`);
  const after = await call('GET', `/api/v1/lobbies/${lobby.id}`);
  assert.equal(after.body.status, 'started');
  assert.equal(after.body.game, start.body.game);
  const twice = await call('POST', `/api/v1/lobbies/${lobby.id}/start`, { token: host.token });
  assert.equal(twice.status, 409);
  const lateBot = await call('POST', `/api/v1/lobbies/${lobby.id}/bots`, { token: host.token });
  assert.equal(lateBot.status, 409);
  const lateLeave = await call('DELETE', `/api/v1/lobbies/${lobby.id}/seats/me`, {
    token: host.token,
  });
  assert.equal(lateLeave.status, 409);

  // The game copies the seats and the bot has already ordered in r1.
  const game = await call('GET', `/api/v1/games/${start.body.game}`, { token: host.token });
  assert.equal(game.status, 200);
  assert.deepEqual(game.body.seats, [
    { seat: 0, player: { id: host.id, name: host.name }, bot: null },
    { seat: 1, player: null, bot: 'basic' },
  ]);
  assert.equal(
    psql(db, `SELECT lobby_id FROM games WHERE game_id = '${start.body.game}'`),
    lobby.id,
  );
  for (let i = 0; i < 50; i++) {
    const g = await call('GET', `/api/v1/games/${start.body.game}`);
    if (g.body.windows[0]?.submitted.includes(1)) return;
    await sleep(100);
  }
  assert.fail('the bot did not order in its first window');
});

test('a seed on start is test-only: a 400 without CONCLAVE_TEST_HOOKS=1; with it the same seed deals the same game', async () => {
  const seed = 'ab'.repeat(32);
  const lobby = await newLobby(call, host, { ruleset: 'council', seats: 3 }, [guest, third]);
  const refused = await call('POST', `/api/v1/lobbies/${lobby.id}/start`, {
    token: host.token,
    body: { seed },
  });
  assert.equal(refused.status, 400, refused.text);
  assert.equal(refused.body.field, 'seed');
  assert.match(refused.body.detail, /test-only.*CONCLAVE_TEST_HOOKS=1/);
  assert.equal(
    (await call('GET', `/api/v1/lobbies/${lobby.id}`)).body.status,
    'open',
    'the lobby stays open',
  );

  const hooked = await startServer({ db, env: { ...NO_LIMITS, CONCLAVE_TEST_HOOKS: '1' } });
  try {
    const hcall = client(hooked.url);
    const bad = await hcall('POST', `/api/v1/lobbies/${lobby.id}/start`, {
      token: host.token,
      body: { seed: 'xyz' },
      check: false,
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.field, 'seed');
    const games = [];
    for (const body of [{ seed }, { seed }, {}]) {
      const l = games.length
        ? await newLobby(hcall, host, { ruleset: 'council', seats: 3 }, [guest, third])
        : lobby;
      const r = await hcall('POST', `/api/v1/lobbies/${l.id}/start`, { token: host.token, body });
      assert.equal(r.status, 201, r.text);
      games.push((await hcall('GET', `/api/v1/games/${r.body.game}`)).body);
    }
    const deal = (g) => JSON.stringify(g.view.players.map((p) => p.race));
    assert.equal(games[0].seed_sha256, games[1].seed_sha256, 'the same seed');
    assert.equal(deal(games[0]), deal(games[1]), 'the same deal');
    assert.notEqual(games[2].seed_sha256, games[0].seed_sha256, 'without a seed, a fresh one');
  } finally {
    await hooked.stop();
  }
});

test('concurrent starts create exactly one game', async () => {
  const lobby = await newLobby(call, host, { ruleset: 'tictactoe', seats: 2 }, [guest]);
  const results = await Promise.all(
    [0, 1, 2, 3].map(() =>
      call('POST', `/api/v1/lobbies/${lobby.id}/start`, { token: host.token }),
    ),
  );
  const created = results.filter((r) => r.status === 201);
  assert.equal(created.length, 1, results.map((r) => r.status).join(','));
  assert.ok(results.every((r) => r.status === 201 || r.status === 409));
  assert.equal(psql(db, `SELECT count(*) FROM games WHERE lobby_id = '${lobby.id}'`), '1');
});

test('every lobby change is announced with NOTIFY conclave_lobbies and the lobby id', async () => {
  const listener = spawn(
    'psql',
    ['-X', '-q', db, '-c', 'LISTEN conclave_lobbies', '-c', 'SELECT pg_sleep(3)'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  listener.stdout.on('data', (d) => {
    out += d;
  });
  const done = new Promise((r) => listener.on('exit', r));
  await sleep(700);
  const lobby = await newLobby(call, host, { ruleset: 'tictactoe', seats: 2 }, [guest]);
  await call('POST', `/api/v1/lobbies/${lobby.id}/start`, { token: host.token });
  await done;
  const payloads = [...out.matchAll(/notification "conclave_lobbies" with payload "([^"]*)"/g)].map(
    (m) => m[1],
  );
  assert.deepEqual(payloads, [lobby.id, lobby.id, lobby.id], out);
});

test('every change bumps the lobby version once: 1 at creation, one more per seat taken and at the start', async () => {
  const version = (id) =>
    psql(
      db,
      `SELECT version || ' ' || status || ' ' || coalesce(game_id, '-') FROM lobbies WHERE id = '${id}'`,
    );
  const r = await call('POST', '/api/v1/lobbies', {
    token: host.token,
    body: { ruleset: 'tictactoe', seats: 2 },
  });
  assert.equal(r.status, 201, r.text);
  assert.equal(version(r.body.id), '1 open -');
  assert.equal(
    (await call('POST', `/api/v1/lobbies/${r.body.id}/seats`, { token: guest.token, body: {} }))
      .status,
    200,
  );
  assert.equal(version(r.body.id), '2 open -');
  const s = await call('POST', `/api/v1/lobbies/${r.body.id}/start`, { token: host.token });
  assert.equal(s.status, 201, s.text);
  assert.equal(version(r.body.id), `3 started ${s.body.game}`);
  // A refused change (the game started already) writes nothing.
  assert.equal(
    (await call('POST', `/api/v1/lobbies/${r.body.id}/start`, { token: host.token })).status,
    409,
  );
  assert.equal(version(r.body.id), `3 started ${s.body.game}`);
});

// async_clocks.test.mjs - asynchronous play with compressed clocks (seconds
// instead of hours): the "your move" inbox over REST (games without a clock
// included) and its live push over
// the WebSocket, per-kind window seconds, a night window moving a deadline,
// the vacation bank extending windows in two games at once, the host's one
// extension per window, a seat given to a bot after K missed windows (with
// its log event), a bot standing in for a player on vacation in a game that
// says so (and the seat back to the player when it ends), and reputation
// shown in lobbies and required to join.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createDatabase, dropDatabase, startServer, waitFor, sleep, psql } from './lib/server.mjs';
import { client, newPlayer, NO_LIMITS } from './lib/api.mjs';
import { HubClient, stopClean } from './lib/ws.mjs';

let db, srv, call;

before(async () => {
  db = createDatabase('async');
  srv = await startServer({
    db,
    env: { ...NO_LIMITS, CONCLAVE_ASYNC_MIN_SECONDS: '1', CONCLAVE_VACATION_DAYS: '10' },
  });
  call = client(srv.url);
});

after(async () => {
  try {
    if (srv) await stopClean(srv);
  } finally {
    if (db) dropDatabase(db);
  }
});

// A started rps game between host and others with clock (async rules).
async function asyncGame(host, others, clock, options = { rounds: 5 }) {
  const l = await call('POST', '/api/v1/lobbies', {
    token: host.token,
    body: { ruleset: 'rps', seats: 1 + others.length, options, clock: { mode: 'async', ...clock } },
  });
  assert.equal(l.status, 201, l.text);
  for (const p of others) {
    const j = await call('POST', `/api/v1/lobbies/${l.body.id}/seats`, {
      token: p.token,
      body: {},
    });
    assert.equal(j.status, 200, j.text);
  }
  const s = await call('POST', `/api/v1/lobbies/${l.body.id}/start`, { token: host.token });
  assert.equal(s.status, 201, s.text);
  return s.body.game;
}

const turns = async (p) => {
  const r = await call('GET', '/api/v1/me/turns', { token: p.token });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.count, r.body.turns.length);
  return r.body.turns;
};
const keyOf = (t) => `${t.game}/${t.window}`;
const throwIn = (p, game, window) =>
  call('PUT', `/api/v1/games/${game}/orders/${window}`, {
    token: p.token,
    body: { throw: 'rock' },
  });

test('the inbox lists exactly the windows waiting on the caller, and stops after the order', async () => {
  const a = await newPlayer(call, { prefix: 'ia' });
  const b = await newPlayer(call, { prefix: 'ib' });
  const g1 = await asyncGame(a, [b], { seconds: 3600, windows: { orders: 7200 } });
  const g2 = await asyncGame(b, [a], { seconds: 3600 });
  const before = await turns(a);
  assert.deepEqual(before.map(keyOf).sort(), [`${g1}/r1`, `${g2}/r1`].sort());
  for (const t of before) {
    assert.equal(t.ruleset, 'rps');
    assert.equal(t.link, `/game/${t.game}`);
    const left = (Date.parse(t.deadline) - Date.now()) / 1000;
    // orders windows of g1 last 7200 s (the per-kind rule), g2's the clock's 3600 s
    const want = t.game === g1 ? 7200 : 3600;
    assert.ok(left > want - 60 && left <= want + 1, `${t.game}: ${left} s left, want ${want}`);
  }
  assert.equal(before.find((t) => t.game === g1).seat, 0);
  assert.equal(before.find((t) => t.game === g2).seat, 1);
  const o = await throwIn(a, g1, 'r1');
  assert.equal(o.status, 200, o.text);
  assert.deepEqual((await turns(a)).map(keyOf), [`${g2}/r1`]);
  assert.deepEqual((await turns(b)).map(keyOf).sort(), [`${g1}/r1`, `${g2}/r1`].sort());
  // both orders in: the window resolves early, the next one waits on both
  const o2 = await throwIn(b, g1, 'r1');
  assert.equal(o2.status, 200, o2.text);
  assert.deepEqual((await turns(a)).map(keyOf).sort(), [`${g1}/r2`, `${g2}/r1`].sort());
  const anon = await call('GET', '/api/v1/me/turns');
  assert.equal(anon.status, 401);
});

test('the inbox lists the windows of games without a clock too (no deadline)', async () => {
  const a = await newPlayer(call, { prefix: 'ua' });
  const b = await newPlayer(call, { prefix: 'ub' });
  const l = await call('POST', '/api/v1/lobbies', {
    token: a.token,
    body: { ruleset: 'rps', seats: 2, options: { rounds: 3 } },
  });
  assert.equal(l.status, 201, l.text);
  assert.equal(
    (await call('POST', `/api/v1/lobbies/${l.body.id}/seats`, { token: b.token, body: {} })).status,
    200,
  );
  const s = await call('POST', `/api/v1/lobbies/${l.body.id}/start`, { token: a.token });
  assert.equal(s.status, 201, s.text);
  const g = s.body.game;
  const mine = async (p) => (await turns(p)).filter((t) => t.game === g);
  const first = await mine(a);
  assert.deepEqual(first.map(keyOf), [`${g}/r1`]);
  assert.equal(first[0].deadline, null);
  assert.equal((await throwIn(a, g, 'r1')).status, 200);
  assert.deepEqual((await mine(a)).map(keyOf), []);
  assert.deepEqual((await mine(b)).map(keyOf), [`${g}/r1`]);
  assert.equal((await throwIn(b, g, 'r1')).status, 200);
  assert.deepEqual((await mine(a)).map(keyOf), [`${g}/r2`]);
});

test('the inbox is pushed over the WebSocket when it changes', async () => {
  const a = await newPlayer(call, { prefix: 'wa' });
  const b = await newPlayer(call, { prefix: 'wb' });
  const c = await HubClient.connect(srv.wsUrl);
  try {
    c.send({ type: 'subscribe_turns' });
    const refused = await c.until(() => c.errors.find((e) => e.status === 401), { what: 'a 401' });
    assert.match(refused.detail, /auth/);
    c.send({ type: 'auth', token: a.token });
    c.send({ type: 'subscribe_turns' });
    const first = await c.next('turns');
    assert.equal(first.count, 0);
    const from = c.messages.length;
    const g = await asyncGame(b, [a], { seconds: 3600 });
    const opened = await c.until(
      () => c.messages.slice(from).find((m) => m.type === 'turns' && m.count === 1),
      {
        what: 'a turns message with the new window',
      },
    );
    assert.equal(opened.turns[0].game, g);
    assert.equal(opened.turns[0].window, 'r1');
    const at = c.messages.length;
    assert.equal((await throwIn(a, g, 'r1')).status, 200);
    await c.until(() => c.messages.slice(at).find((m) => m.type === 'turns' && m.count === 0), {
      what: 'a turns message without it',
    });
  } finally {
    c.close();
  }
});

test('a deadline that would fall inside the night window moves to its end', async () => {
  const a = await newPlayer(call, { prefix: 'na' });
  const b = await newPlayer(call, { prefix: 'nb' });
  const offset = 120; // the lobby's local time is UTC+2
  const dueLocal = Math.floor((Date.now() / 1000 + 3600) / 60 + offset) % 1440;
  const night = {
    start: (dueLocal + 1440 - 30) % 1440,
    end: (dueLocal + 30) % 1440,
    utc_offset: offset,
  };
  const g = await asyncGame(a, [b], { seconds: 3600, night });
  const t = (await turns(a)).find((x) => x.game === g);
  const due = Date.parse(t.deadline);
  const local = Math.floor(due / 60000 + offset) % 1440;
  assert.equal(local, night.end, `deadline ${t.deadline} is not at the night's end`);
  assert.ok(due > Date.now() + 3600 * 1000 + 20 * 60000, 'the deadline moved later');
  const lobbies = await call('GET', '/api/v1/lobbies?status=started', { token: a.token });
  const lobby = lobbies.body.find((l) => l.game === g);
  assert.deepEqual(lobby.clock.night, night);
  const bad = await call('POST', '/api/v1/lobbies', {
    token: a.token,
    body: { ruleset: 'rps', seats: 2, clock: { mode: 'live', seconds: 60, night } },
  });
  assert.equal(bad.status, 422, bad.text);
  const bad2 = await call('POST', '/api/v1/lobbies', {
    token: a.token,
    body: {
      ruleset: 'rps',
      seats: 2,
      clock: { mode: 'async', seconds: 600, night: { start: 1500, end: 2 } },
    },
  });
  assert.equal(bad2.status, 422, bad2.text);
  assert.equal(bad2.body.field, 'clock.night.start');
});

test('a vacation extends the windows of two games at once and spends days', async () => {
  const a = await newPlayer(call, { prefix: 'va' });
  const b = await newPlayer(call, { prefix: 'vb' });
  const g1 = await asyncGame(a, [b], { seconds: 3600 });
  const g2 = await asyncGame(b, [a], { seconds: 3600 });
  const was = new Map((await turns(a)).map((t) => [t.game, Date.parse(t.deadline)]));
  const bWas = new Map((await turns(b)).map((t) => [t.game, Date.parse(t.deadline)]));
  const bank = await call('GET', '/api/v1/me/vacation', { token: a.token });
  assert.deepEqual(bank.body, { days_per_year: 10, used: 0, left: 10, active: null });
  const tooMany = await call('POST', '/api/v1/me/vacation', { token: a.token, body: { days: 11 } });
  assert.equal(tooMany.status, 422, tooMany.text);
  const start = await call('POST', '/api/v1/me/vacation', { token: a.token, body: { days: 2 } });
  assert.equal(start.status, 201, start.text);
  assert.equal(start.body.used, 2);
  assert.equal(start.body.left, 8);
  assert.equal(start.body.active.days, 2);
  const now = new Map((await turns(a)).map((t) => [t.game, Date.parse(t.deadline)]));
  for (const g of [g1, g2]) assert.equal(now.get(g) - was.get(g), 2 * 86400 * 1000, `game ${g}`);
  // the window waits on b too: one deadline per window, so b sees it moved
  assert.equal(
    Date.parse((await turns(b)).find((t) => t.game === g1).deadline) - bWas.get(g1),
    2 * 86400 * 1000,
  );
  // the game's own view shows the new deadline
  const view = await call('GET', `/api/v1/games/${g1}`, { token: a.token });
  await waitFor(
    async () => {
      const v = await call('GET', `/api/v1/games/${g1}`, { token: a.token });
      return JSON.stringify(v.body).includes(new Date(now.get(g1)).toISOString());
    },
    { what: 'the game to show the moved deadline' },
  );
  assert.equal(view.status, 200);
  const again = await call('POST', '/api/v1/me/vacation', { token: a.token, body: { days: 1 } });
  assert.equal(again.status, 409, again.text);
  const stop = await call('DELETE', '/api/v1/me/vacation', { token: a.token });
  assert.equal(stop.status, 200, stop.text);
  assert.equal(stop.body.active, null);
  assert.equal(stop.body.used, 1, 'the one whole day not begun comes back');
  const none = await call('DELETE', '/api/v1/me/vacation', { token: a.token });
  assert.equal(none.status, 409);
});

test('the host extends a deadline once per window', async () => {
  const a = await newPlayer(call, { prefix: 'ea' });
  const b = await newPlayer(call, { prefix: 'eb' });
  const g = await asyncGame(a, [b], { seconds: 3600 });
  const was = Date.parse((await turns(a)).find((t) => t.game === g).deadline);
  const notHost = await call('POST', `/api/v1/games/${g}/windows/r1/extend`, {
    token: b.token,
    body: {},
  });
  assert.equal(notHost.status, 403, notHost.text);
  const ext = await call('POST', `/api/v1/games/${g}/windows/r1/extend`, {
    token: a.token,
    body: { seconds: 600 },
  });
  assert.equal(ext.status, 200, ext.text);
  assert.equal(Date.parse(ext.body.deadline) - was, 600 * 1000);
  assert.equal(
    Date.parse((await turns(b)).find((t) => t.game === g).deadline),
    Date.parse(ext.body.deadline),
  );
  const twice = await call('POST', `/api/v1/games/${g}/windows/r1/extend`, {
    token: a.token,
    body: {},
  });
  assert.equal(twice.status, 409, twice.text);
  assert.match(twice.body.detail, /once/);
  const none = await call('POST', `/api/v1/games/${g}/windows/r9/extend`, {
    token: a.token,
    body: {},
  });
  assert.equal(none.status, 404, none.text);
  const bad = await call('POST', `/api/v1/games/${g}/windows/r1/extend`, {
    token: a.token,
    body: { seconds: 'x' },
  });
  assert.equal(bad.status, 422, bad.text);
});

test('K missed windows give the seat to a bot (logged); reputation shows and a minimum refuses', async () => {
  const a = await newPlayer(call, { prefix: 'ka' });
  const b = await newPlayer(call, { prefix: 'kb' });
  const g = await asyncGame(a, [b], { seconds: 2, replace_after: 2 }, { rounds: 6 });
  let events = [];
  await waitFor(
    async () => {
      for (const t of await turns(a)) if (t.game === g) await throwIn(a, g, t.window);
      const log = await call('GET', `/api/v1/games/${g}/log`, { token: a.token });
      events = log.body.events;
      return events.length > 0;
    },
    { timeout: 20000, interval: 300, what: 'the seat_replaced event' },
  );
  assert.equal(events.length, 1);
  assert.equal(events[0].kind, 'seat_replaced');
  assert.equal(events[0].seat, 1);
  assert.equal(events[0].missed, 2);
  assert.ok(events[0].bot);
  assert.equal(events[0].player, undefined, 'the public log names no player id');
  const game = await call('GET', `/api/v1/games/${g}`, { token: a.token });
  assert.ok(
    JSON.stringify(game.body.seats[1]).includes(events[0].bot),
    JSON.stringify(game.body.seats),
  );
  // b no longer holds the seat: nothing of g waits on b
  assert.ok(!(await turns(b)).some((t) => t.game === g));

  // reputation: b missed 2 windows, a answered them
  const lobby = await call('POST', '/api/v1/lobbies', {
    token: a.token,
    body: {
      ruleset: 'rps',
      seats: 2,
      clock: { mode: 'async', seconds: 600, min_reputation: { max_missed: 1 } },
    },
  });
  assert.equal(lobby.status, 201, lobby.text);
  const rep = lobby.body.seats[0].player.reputation;
  assert.ok(rep.answered >= 2, JSON.stringify(rep));
  assert.equal(rep.missed, 0);
  assert.equal(typeof rep.median_response_seconds, 'number');
  assert.deepEqual(lobby.body.clock.min_reputation, { max_missed: 1 });
  const refused = await call('POST', `/api/v1/lobbies/${lobby.body.id}/seats`, {
    token: b.token,
    body: {},
  });
  assert.equal(refused.status, 403, refused.text);
  assert.match(refused.body.detail, /at most 1 missed windows; you have missed 2/);
  const c = await newPlayer(call, { prefix: 'kc' });
  const ok = await call('POST', `/api/v1/lobbies/${lobby.body.id}/seats`, {
    token: c.token,
    body: {},
  });
  assert.equal(ok.status, 200, ok.text);
  assert.deepEqual(ok.body.seats[1].player.reputation, {
    median_response_seconds: null,
    answered: 0,
    missed: 0,
  });
});

test('on vacation in a "bot" game, a bot plays the windows; the seat comes back when it ends', async () => {
  const a = await newPlayer(call, { prefix: 'ba' });
  const b = await newPlayer(call, { prefix: 'bb' });
  const g = await asyncGame(a, [b], { seconds: 3600, vacation: 'bot' }, { rounds: 6 });
  const start = await call('POST', '/api/v1/me/vacation', { token: b.token, body: { days: 1 } });
  assert.equal(start.status, 201, start.text);
  // b is away: b's bot orders in each window as it opens, long before the
  // hour-long deadline (r1 at once, r2 once a has thrown in r1).
  const inputs = () =>
    psql(
      db,
      `SELECT seat || ':' || kind || ':' || coalesce(window_id, '') FROM game_inputs WHERE game_id = '${g}' ORDER BY seq`,
    )
      .split('\n')
      .filter(Boolean);
  const mineNow = () => inputs().filter((x) => x.startsWith('1:'));
  await waitFor(() => mineNow().length === 1, { timeout: 10000, what: 'the bot to order in r1' });
  assert.equal((await throwIn(a, g, 'r1')).status, 200);
  await waitFor(() => mineNow().length === 2, { timeout: 10000, what: 'the bot to order in r2' });
  const mine = mineNow();
  assert.deepEqual(
    mine,
    ['1:order:r1', '1:order:r2'],
    `b's seat ordered (no timeout): ${inputs().join(' ')}`,
  );
  let log = await call('GET', `/api/v1/games/${g}/log`, { token: a.token });
  const away = log.body.events.filter((e) => e.kind === 'vacation_bot');
  assert.equal(away.length, 1, JSON.stringify(log.body.events));
  assert.equal(away[0].seat, 1);
  assert.ok(away[0].bot);
  assert.equal(away[0].player, undefined, 'the public log names no player id');
  // The seat stays b's; the stand-in windows count neither way.
  const game = await call('GET', `/api/v1/games/${g}`, { token: b.token });
  assert.ok(JSON.stringify(game.body.seats[1]).includes(b.name), JSON.stringify(game.body.seats));
  assert.equal(
    psql(db, `SELECT count(*) FROM seat_windows WHERE game_id = '${g}' AND seat = 1`),
    '0',
  );
  // Back from vacation: r3 waits on b and no bot plays it.
  const stop = await call('DELETE', '/api/v1/me/vacation', { token: b.token });
  assert.equal(stop.status, 200, stop.text);
  assert.equal((await throwIn(a, g, 'r2')).status, 200);
  await waitFor(
    async () => {
      log = await call('GET', `/api/v1/games/${g}/log`, { token: a.token });
      return log.body.events.some((e) => e.kind === 'vacation_return' && e.seat === 1);
    },
    { timeout: 10000, what: 'the vacation_return event' },
  );
  await sleep(2500);
  assert.ok(
    (await turns(b)).some((t) => t.game === g && t.window === 'r3'),
    'r3 waits on b again',
  );
  assert.deepEqual(
    inputs().filter((x) => x.startsWith('1:')),
    mine,
    'no bot move after the vacation',
  );
  assert.equal((await throwIn(b, g, 'r3')).status, 200);
});

test("a delayed game's log events reach its spectators only at versions they may see", async () => {
  const a = await newPlayer(call, { prefix: 'da' });
  const b = await newPlayer(call, { prefix: 'db' });
  const watcher = await newPlayer(call, { prefix: 'dw' });
  const l = await call('POST', '/api/v1/lobbies', {
    token: a.token,
    body: {
      ruleset: 'rps',
      seats: 2,
      options: { rounds: 5 },
      clock: { mode: 'async', seconds: 3600 },
      spectator_delay: { versions: 2 },
    },
  });
  assert.equal(l.status, 201, l.text);
  assert.equal(
    (await call('POST', `/api/v1/lobbies/${l.body.id}/seats`, { token: b.token, body: {} })).status,
    200,
  );
  const s = await call('POST', `/api/v1/lobbies/${l.body.id}/start`, { token: a.token });
  assert.equal(s.status, 201, s.text);
  const g = s.body.game;
  assert.equal((await throwIn(a, g, 'r1')).status, 200);
  assert.equal((await throwIn(b, g, 'r1')).status, 200);
  const live = (await call('GET', `/api/v1/games/${g}`, { token: a.token })).body.version;
  assert.ok(live >= 2, `live version ${live}`);
  // An event of the live version (as a seat handed to a bot after a timeout
  // records it) and one of version 0, straight into the store. Both are
  // seat_replaced: a made-up vacation_bot would be answered by the
  // vacation sweep (no vacation holds, so it records vacation_return).
  psql(
    db,
    `INSERT INTO game_events (game_id, at_version, kind, detail) VALUES ` +
      `('${g}', 0, 'seat_replaced', '{"seat":0,"bot":"x","missed":2}'), ` +
      `('${g}', ${live}, 'seat_replaced', '{"seat":1,"bot":"x","missed":2}')`,
  );
  const kinds = async (token) => {
    const r = await call('GET', `/api/v1/games/${g}/log`, { token });
    assert.equal(r.status, 200, r.text);
    return r.body.events.map((e) => `${e.version}:${e.kind}`);
  };
  assert.deepEqual(await kinds(a.token), ['0:seat_replaced', `${live}:seat_replaced`]);
  assert.deepEqual(await kinds(b.token), ['0:seat_replaced', `${live}:seat_replaced`]);
  const seen = (await call('GET', `/api/v1/games/${g}`, { token: watcher.token })).body.version;
  assert.ok(seen < live, `the spectator sees version ${seen} of ${live}`);
  assert.deepEqual(await kinds(watcher.token), ['0:seat_replaced'], 'a signed-in spectator');
  assert.deepEqual(await kinds(undefined), ['0:seat_replaced'], 'an anonymous spectator');
});

test("windows of a delayed game count in a player's reputation only once its end reaches spectators", async () => {
  const a = await newPlayer(call, { prefix: 'ra' });
  const b = await newPlayer(call, { prefix: 'rb' });
  const watcher = await newPlayer(call, { prefix: 'rw' });
  const l = await call('POST', '/api/v1/lobbies', {
    token: a.token,
    body: {
      ruleset: 'rps',
      seats: 2,
      options: { rounds: 2 },
      clock: { mode: 'async', seconds: 3600 },
      spectator_delay: { versions: 1 },
    },
  });
  assert.equal(l.status, 201, l.text);
  assert.equal(
    (await call('POST', `/api/v1/lobbies/${l.body.id}/seats`, { token: b.token, body: {} })).status,
    200,
  );
  const s = await call('POST', `/api/v1/lobbies/${l.body.id}/start`, { token: a.token });
  assert.equal(s.status, 201, s.text);
  const g = s.body.game;
  // a waits in another lobby, where anyone sees a's reputation
  const shown = await call('POST', '/api/v1/lobbies', {
    token: a.token,
    body: { ruleset: 'rps', seats: 2 },
  });
  assert.equal(shown.status, 201, shown.text);
  const answered = async () => {
    const r = await call('GET', `/api/v1/lobbies/${shown.body.id}`, { token: watcher.token });
    assert.equal(r.status, 200, r.text);
    return r.body.seats[0].player.reputation.answered;
  };
  assert.equal((await throwIn(a, g, 'r1')).status, 200);
  assert.equal((await throwIn(b, g, 'r1')).status, 200);
  await waitFor(
    () => psql(db, `SELECT count(*) FROM seat_windows WHERE game_id = '${g}' AND seat = 0`) === '1',
    { timeout: 10000, what: "a's answered window in the store" },
  );
  assert.equal(await answered(), 0, 'the running delayed game counts not yet');
  let st = 'running';
  for (let i = 0; i < 5 && st === 'running'; i++) {
    for (const t of await turns(a)) if (t.game === g) await throwIn(a, g, t.window);
    for (const t of await turns(b)) if (t.game === g) await throwIn(b, g, t.window);
    st = (await call('GET', `/api/v1/games/${g}`, { token: a.token })).body.status;
  }
  assert.notEqual(st, 'running', 'the game ended');
  assert.ok((await answered()) >= 2, 'the windows count once the game is over');
});

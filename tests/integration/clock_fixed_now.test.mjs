// clock_fixed_now.test.mjs - the clock rules at fixed instants, so that no
// result depends on when the suite runs: the night window (sql clock_due)
// at each boundary, across midnight in both halves and with the lobby's UTC
// offset; the host's extension from a fixed deadline, with and without an
// explicit length, kept out of the night, and its length's limits; a
// vacation moving fixed deadlines by whole days in "extend" games only, and
// the bank's limit admitting exactly the days left. "Now" is injected as the
// base instant of clock_due or as a deadline written into the database.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createDatabase, dropDatabase, startServer, psql } from './lib/server.mjs';
import { client, newPlayer, NO_LIMITS } from './lib/api.mjs';
import { stopClean } from './lib/ws.mjs';

let db, srv, call;

before(async () => {
  db = createDatabase('clockfix');
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

// clock_due(base, secs, {"night": night}) as an ISO instant (UTC).
function due(base, secs, night) {
  const rules = night ? JSON.stringify({ night }) : '{}';
  const t = psql(
    db,
    `SELECT to_char(clock_due('${base}'::timestamptz, ${secs}, '${rules}'::jsonb) ` +
      `AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`,
  );
  return t;
}

test('night window 01:00-05:00 UTC: inside moves to 05:00, its edges are exact', () => {
  const n = { start: 60, end: 300, utc_offset: 0 };
  assert.equal(due('2030-03-10T00:00:00Z', 59 * 60, n), '2030-03-10T00:59:00Z');
  assert.equal(due('2030-03-10T00:00:00Z', 3600, n), '2030-03-10T05:00:00Z', 'the first minute');
  assert.equal(due('2030-03-10T04:59:00Z', 59, n), '2030-03-10T05:00:00Z', 'the last second');
  assert.equal(due('2030-03-10T04:00:00Z', 3600, n), '2030-03-10T05:00:00Z', 'the end is not in');
  assert.equal(due('2030-03-10T04:00:30Z', 3600, n), '2030-03-10T05:00:30Z');
  assert.equal(due('2030-03-10T02:10:20Z', 0, n), '2030-03-10T05:00:00Z', 'to the minute');
  assert.equal(due('2030-03-10T12:00:00Z', 600, n), '2030-03-10T12:10:00Z', 'the day');
  assert.equal(due('2030-03-10T12:00:00Z', 600, null), '2030-03-10T12:10:00Z', 'no night');
});

test('night window 22:00-06:00 across midnight: both halves move to 06:00', () => {
  const n = { start: 22 * 60, end: 6 * 60, utc_offset: 0 };
  assert.equal(due('2030-03-10T21:00:00Z', 3540, n), '2030-03-10T21:59:00Z');
  assert.equal(due('2030-03-10T21:00:00Z', 3600, n), '2030-03-11T06:00:00Z', 'the first minute');
  assert.equal(due('2030-03-10T23:59:00Z', 30, n), '2030-03-11T06:00:00Z');
  // the after-midnight half: the bug that lost it kept these deadlines
  assert.equal(due('2030-03-10T23:00:00Z', 3600, n), '2030-03-11T06:00:00Z', 'midnight itself');
  assert.equal(due('2030-03-10T23:00:00Z', 3 * 3600, n), '2030-03-11T06:00:00Z', '02:00');
  assert.equal(due('2030-03-11T05:59:00Z', 0, n), '2030-03-11T06:00:00Z', 'the last minute');
  assert.equal(due('2030-03-11T05:00:00Z', 3600, n), '2030-03-11T06:00:00Z', 'the end is not in');
  assert.equal(due('2030-03-11T05:00:00Z', 3660, n), '2030-03-11T06:01:00Z');
  // start == end: no night at all
  const none = { start: 300, end: 300, utc_offset: 0 };
  assert.equal(due('2030-03-10T05:00:00Z', 0, none), '2030-03-10T05:00:00Z');
});

test("the night is the lobby's local time: utc_offset east and west", () => {
  // 23:00-07:00 at UTC+2 is 21:00-05:00 UTC
  const east = { start: 23 * 60, end: 7 * 60, utc_offset: 120 };
  assert.equal(due('2030-03-10T20:59:00Z', 0, east), '2030-03-10T20:59:00Z');
  assert.equal(due('2030-03-10T21:00:00Z', 0, east), '2030-03-11T05:00:00Z');
  assert.equal(due('2030-03-10T22:30:00Z', 0, east), '2030-03-11T05:00:00Z', 'local 00:30');
  assert.equal(due('2030-03-11T03:00:00Z', 0, east), '2030-03-11T05:00:00Z', 'local 05:00');
  assert.equal(due('2030-03-11T05:00:00Z', 0, east), '2030-03-11T05:00:00Z');
  // 22:00-06:00 at UTC-5 is 03:00-11:00 UTC: the UTC day's midnight is no edge
  const west = { start: 22 * 60, end: 6 * 60, utc_offset: -300 };
  assert.equal(due('2030-03-11T02:59:00Z', 0, west), '2030-03-11T02:59:00Z');
  assert.equal(due('2030-03-11T03:00:00Z', 0, west), '2030-03-11T11:00:00Z');
  assert.equal(due('2030-03-11T06:00:00Z', 0, west), '2030-03-11T11:00:00Z', 'local 01:00');
  assert.equal(due('2030-03-11T10:59:00Z', 0, west), '2030-03-11T11:00:00Z');
  assert.equal(due('2030-03-11T11:00:00Z', 0, west), '2030-03-11T11:00:00Z');
  // an offset that puts the local day ahead of UTC across the date line
  const far = { start: 60, end: 120, utc_offset: 840 };
  assert.equal(due('2030-03-10T11:30:00Z', 0, far), '2030-03-10T12:00:00Z', 'local 01:30 next day');
});

// A started async rps game between host and other with clock (async rules).
async function asyncGame(host, other, clock) {
  const l = await call('POST', '/api/v1/lobbies', {
    token: host.token,
    body: { ruleset: 'rps', seats: 2, options: { rounds: 5 }, clock: { mode: 'async', ...clock } },
  });
  assert.equal(l.status, 201, l.text);
  const j = await call('POST', `/api/v1/lobbies/${l.body.id}/seats`, {
    token: other.token,
    body: {},
  });
  assert.equal(j.status, 200, j.text);
  const s = await call('POST', `/api/v1/lobbies/${l.body.id}/start`, { token: host.token });
  assert.equal(s.status, 201, s.text);
  return s.body.game;
}

// The deadline of game's window r1 set to the instant at (the injected "now").
function setDeadline(game, at) {
  const n = psql(
    db,
    `UPDATE deadlines SET due_at = '${at}'::timestamptz WHERE game_id = '${game}' ` +
      `AND window_id = 'r1' RETURNING 1`,
  );
  assert.equal(n, '1', `game ${game} has a deadline for r1`);
}

const extend = (p, game, body) =>
  call('POST', `/api/v1/games/${game}/windows/r1/extend`, { token: p.token, body });

const deadlineOf = async (p, game) => {
  const r = await call('GET', '/api/v1/me/turns', { token: p.token });
  assert.equal(r.status, 200, r.text);
  const t = r.body.turns.find((x) => x.game === game);
  return t ? new Date(Date.parse(t.deadline)).toISOString() : null;
};

test('an extension from a fixed deadline: explicit length, the night, its limits', async () => {
  const a = await newPlayer(call, { prefix: 'xa' });
  const b = await newPlayer(call, { prefix: 'xb' });
  const night = { start: 22 * 60, end: 6 * 60, utc_offset: 0 };
  // explicit seconds that land after midnight, inside the night: to 06:00
  const g1 = await asyncGame(a, b, { seconds: 600, night });
  setDeadline(g1, '2031-05-01T23:30:00Z');
  const e1 = await extend(a, g1, { seconds: 7200 });
  assert.equal(e1.status, 200, e1.text);
  assert.equal(new Date(Date.parse(e1.body.deadline)).toISOString(), '2031-05-02T06:00:00.000Z');
  assert.equal(await deadlineOf(b, g1), '2031-05-02T06:00:00.000Z', 'stored and shown');
  // explicit seconds that stay in the day: exactly that much later
  const g2 = await asyncGame(a, b, { seconds: 600, night });
  setDeadline(g2, '2031-05-01T12:00:00Z');
  const e2 = await extend(a, g2, { seconds: 1209600 });
  assert.equal(e2.status, 200, e2.text);
  assert.equal(new Date(Date.parse(e2.body.deadline)).toISOString(), '2031-05-15T12:00:00.000Z');
  // no length: the clock's seconds, also kept out of the night
  const g3 = await asyncGame(a, b, { seconds: 3600, night });
  setDeadline(g3, '2031-05-01T21:30:00Z');
  const e3 = await extend(a, g3, {});
  assert.equal(e3.status, 200, e3.text);
  assert.equal(new Date(Date.parse(e3.body.deadline)).toISOString(), '2031-05-02T06:00:00.000Z');
  const g4 = await asyncGame(a, b, { seconds: 3600, night });
  setDeadline(g4, '2031-05-01T20:00:00Z');
  const e4 = await extend(a, g4, { seconds: 0 });
  assert.equal(e4.status, 200, e4.text);
  assert.equal(new Date(Date.parse(e4.body.deadline)).toISOString(), '2031-05-01T21:00:00.000Z');
  // the length's limits: one past the most, and below zero, refused unchanged
  const g5 = await asyncGame(a, b, { seconds: 600 });
  setDeadline(g5, '2031-05-01T12:00:00Z');
  for (const seconds of [1209601, -1]) {
    const bad = await extend(a, g5, { seconds });
    assert.equal(bad.status, 422, bad.text);
    assert.equal(bad.body.field, 'seconds');
  }
  assert.equal(await deadlineOf(a, g5), '2031-05-01T12:00:00.000Z', 'unchanged');
  const one = await extend(a, g5, { seconds: 1 });
  assert.equal(one.status, 200, one.text);
  assert.equal(new Date(Date.parse(one.body.deadline)).toISOString(), '2031-05-01T12:00:01.000Z');
});

test('a vacation moves fixed deadlines by whole days, in "extend" games only', async () => {
  const a = await newPlayer(call, { prefix: 'ya' });
  const b = await newPlayer(call, { prefix: 'yb' });
  const night = { start: 22 * 60, end: 6 * 60, utc_offset: 0 };
  const gExtend = await asyncGame(a, b, { seconds: 600, night });
  const gBot = await asyncGame(b, a, { seconds: 600, vacation: 'bot' });
  setDeadline(gExtend, '2031-06-01T23:30:00Z');
  setDeadline(gBot, '2031-06-01T12:00:00Z');
  // the bank holds 10 days: 11 refused, exactly 10 admitted
  const tooMany = await call('POST', '/api/v1/me/vacation', { token: a.token, body: { days: 11 } });
  assert.equal(tooMany.status, 422, tooMany.text);
  const all = await call('POST', '/api/v1/me/vacation', { token: a.token, body: { days: 10 } });
  assert.equal(all.status, 201, all.text);
  assert.equal(all.body.used, 10);
  assert.equal(all.body.left, 0);
  // whole days, minute of the day kept (a vacation does not apply the night)
  assert.equal(await deadlineOf(b, gExtend), '2031-06-11T23:30:00.000Z');
  assert.equal(
    psql(
      db,
      `SELECT to_char(due_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') FROM deadlines ` +
        `WHERE game_id = '${gBot}' AND window_id = 'r1'`,
    ),
    '2031-06-01T12:00',
    'a "bot" game keeps its deadline',
  );
  const stop = await call('DELETE', '/api/v1/me/vacation', { token: a.token });
  assert.equal(stop.status, 200, stop.text);
  assert.equal(stop.body.used, 1, 'the nine whole days not begun come back');
  assert.equal(stop.body.left, 9);
});

// setup_round_trips.test.mjs - what a game's setup costs in database round
// trips (docs/performance.md, "Setup round trips"): create a lobby, every
// other player joins, the host starts it, every player reads the game's
// view once. The server counts the round trips of the threads that serve
// requests (HTTP threads, actor workers, commit writers) in
// conclave_db_request_round_trips_total; background threads (the
// scheduler, notifications, the listener, the hub) are not in it, so the
// count is the same on a busy or an idle machine. A token lookup
// (conclave_token_lookups_total) is one round trip, made or not depending
// on the token cache (2 s), so it is counted apart: the bound is on the
// others, exactly as measured, and a change that adds one to setup fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createDatabase, dropDatabase, startServer, http } from './lib/server.mjs';
import { newPlayer, stopClean } from './lib/ws.mjs';
import { NO_LIMITS } from './lib/api.mjs';

// Round trips besides token lookups for one setup, at most: 2 and 4 seats
// (before the lobby operations were pipelined: 36 and 58). One of them is
// the game's first inbox rows (turns_waiting), written when it loads, now
// that games without a clock have an inbox too (11 and 17 before that).
// The creation and each seat taken read the lobby they answer with in the
// round trip that commits them, and the start counts the host's running
// games in the round trip that locks the lobby (12 and 18 before that).
const BOUND = { 2: 9, 4: 13 };

// {trips, tokens} so far.
async function counters(url) {
  const r = await http(url, 'GET', '/metrics');
  const get = (name) => Number(new RegExp(`^${name} (\\d+)`, 'm').exec(r.text)?.[1] ?? 0);
  return {
    trips: get('conclave_db_request_round_trips_total'),
    tokens: get('conclave_token_lookups_total'),
  };
}

// The setup of one game; returns {trips, tokens}: its round trips other
// than token lookups, and its token lookups.
async function setup(url, ruleset, players) {
  const before = await counters(url);
  const [host, ...others] = players;
  const lobby = await http(url, 'POST', '/api/v1/lobbies', {
    token: host.token,
    body: { ruleset, seats: players.length },
  });
  assert.equal(lobby.status, 201, lobby.text);
  for (const p of others) {
    const r = await http(url, 'POST', `/api/v1/lobbies/${lobby.body.id}/seats`, {
      token: p.token,
      body: {},
    });
    assert.equal(r.status, 200, r.text);
  }
  const start = await http(url, 'POST', `/api/v1/lobbies/${lobby.body.id}/start`, {
    token: host.token,
    body: {},
  });
  assert.equal(start.status, 201, start.text);
  for (const p of players) {
    const v = await http(url, 'GET', `/api/v1/games/${start.body.game}/view`, { token: p.token });
    assert.equal(v.status, 200, v.text);
  }
  const after = await counters(url);
  const tokens = after.tokens - before.tokens;
  return { trips: after.trips - before.trips - tokens, tokens };
}

test('a lobby-to-game setup stays within its round-trip bound', { timeout: 60000 }, async () => {
  const db = createDatabase('rtt');
  const srv = await startServer({ db, env: NO_LIMITS });
  try {
    for (const [ruleset, seats] of [
      ['tictactoe', 2],
      ['sprint', 4],
    ]) {
      const counts = [];
      for (let i = 0; i < 3; i++) {
        const players = [];
        for (let s = 0; s < seats; s++) players.push(await newPlayer(srv.url, 'rt'));
        counts.push(await setup(srv.url, ruleset, players));
      }
      console.log(
        `# ${ruleset} ${seats} seats: round trips per setup ${counts.map((c) => `${c.trips} + ${c.tokens} token lookups`).join(', ')}`,
      );
      for (const { trips, tokens } of counts) {
        assert.ok(
          trips > 0 && trips <= BOUND[seats],
          `${trips} round trips for ${seats} seats (bound ${BOUND[seats]})`,
        );
        // At most one lookup per request: create, joins, start, views.
        assert.ok(tokens <= 2 * seats + 1, `${tokens} token lookups`);
      }
    }
  } finally {
    await stopClean(srv);
    dropDatabase(db);
  }
});

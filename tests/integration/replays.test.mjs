// replays.test.mjs - a game stepped through from its log, version by
// version (GET /api/v1/games/{id}/replay?at=K): each audience sees at K
// exactly what it saw live at K, so a seat's replay never shows another
// seat's sealed throw before its reveal, and a spectator's shows the public
// view only; a running game replays for its players up to now.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createDatabase, dropDatabase, startServer } from './lib/server.mjs';
import { client, newPlayer, newGame } from './lib/api.mjs';

let db, srv, call;
before(async () => {
  db = createDatabase('replay');
  srv = await startServer({
    db,
    env: { CONCLAVE_RATE: '1000000', CONCLAVE_RATE_BURST: '1000000' },
  });
  call = client(srv.url);
});
after(async () => {
  await srv.stop();
  dropDatabase(db);
});

const docOf = (r) => ({ view: r.body.view, windows: r.body.windows });

test("every audience's replay at K is what it saw live at K", async () => {
  const alice = await newPlayer(call, { guest: true, prefix: 'ra' });
  const bob = await newPlayer(call, { guest: true, prefix: 'rb' });
  const game = await newGame(call, 'rps', [alice, bob], { options: { rounds: 3 } });
  const live = []; // live[k] = {alice, bob, public}
  const record = async () => {
    const a = await call('GET', `/api/v1/games/${game}`, { token: alice.token });
    const b = await call('GET', `/api/v1/games/${game}`, { token: bob.token });
    const p = await call('GET', `/api/v1/games/${game}`);
    assert.ok(a.body.version === b.body.version && b.body.version === p.body.version);
    live[a.body.version] = { alice: docOf(a), bob: docOf(b), public: docOf(p) };
    return a.body.version;
  };
  await record();
  const throws = ['rock', 'paper', 'scissors'];
  for (let round = 1; round <= 2; round++) {
    for (const [i, p] of [alice, bob].entries()) {
      const r = await call('PUT', `/api/v1/games/${game}/orders/r${round}`, {
        token: p.token,
        body: { throw: throws[(round + i) % 3] },
      });
      assert.equal(r.status, 200, r.text);
      await record();
    }
  }
  const now = live.length - 1;
  assert.ok(now >= 4, `versions played: ${now}`);
  // A running game: its players step through it up to now.
  for (let k = 0; k <= now; k++) {
    for (const [who, token] of [
      ['alice', alice.token],
      ['bob', bob.token],
      ['public', undefined],
    ]) {
      const r = await call('GET', `/api/v1/games/${game}/replay?at=${k}`, { token });
      assert.equal(r.status, 200, `${who} at ${k}: ${r.text}`);
      assert.equal(r.body.version, k);
      assert.equal(r.body.latest, now);
      assert.deepEqual(docOf(r), live[k][who], `${who} at ${k}: as seen live then`);
    }
  }
  // At version 1 Alice's throw is sealed: Bob's replay holds none of it.
  const bobAt1 = await call('GET', `/api/v1/games/${game}/replay?at=1`, { token: bob.token });
  const aliceAt1 = await call('GET', `/api/v1/games/${game}/replay?at=1`, { token: alice.token });
  assert.match(JSON.stringify(aliceAt1.body.view), /paper/, "alice's own throw, in her replay");
  assert.doesNotMatch(JSON.stringify(bobAt1.body.view), /paper/, "never in bob's");
  assert.doesNotMatch(JSON.stringify(bobAt1.body), /paper/);

  // Past now, malformed, unknown game.
  const past = await call('GET', `/api/v1/games/${game}/replay?at=${now + 1}`, {
    token: alice.token,
  });
  assert.equal(past.status, 404, past.text);
  assert.equal((await call('GET', `/api/v1/games/${game}/replay?at=x`)).status, 422);
  assert.equal((await call('GET', `/api/v1/games/${game}/replay?at=-1`)).status, 422);
  assert.equal((await call('GET', '/api/v1/games/nosuchgame/replay?at=0')).status, 404);
});

test('a spectator replays only as far as the spectator delay lets the live table show', async () => {
  const alice = await newPlayer(call, { guest: true, prefix: 'sa' });
  const bob = await newPlayer(call, { guest: true, prefix: 'sb' });
  const lobby = await call('POST', '/api/v1/lobbies', {
    token: alice.token,
    body: { ruleset: 'rps', seats: 2, spectator_delay: { versions: 2 } },
  });
  assert.equal(lobby.status, 201, lobby.text);
  await call('POST', `/api/v1/lobbies/${lobby.body.id}/seats`, { token: bob.token, body: {} });
  const s = await call('POST', `/api/v1/lobbies/${lobby.body.id}/start`, { token: alice.token });
  assert.equal(s.status, 201, s.text);
  const game = s.body.game;
  for (const p of [alice, bob])
    assert.equal(
      (
        await call('PUT', `/api/v1/games/${game}/orders/r1`, {
          token: p.token,
          body: { throw: 'rock' },
        })
      ).status,
      200,
    );
  // Version 2 is live; spectators see version 0 only.
  const ok = await call('GET', `/api/v1/games/${game}/replay?at=0`);
  assert.equal(ok.status, 200, ok.text);
  assert.equal(ok.body.latest, 0);
  assert.equal((await call('GET', `/api/v1/games/${game}/replay?at=1`)).status, 404);
  const seat = await call('GET', `/api/v1/games/${game}/replay?at=2`, { token: bob.token });
  assert.equal(seat.status, 200, 'the players are not held back');
});

// rematch.test.mjs - the rematch of a finished game through the REST API:
// one lobby per game whichever player asks first (also when two ask at
// once), the game's settings and bots copied, the invite code of a private
// rematch given to the game's players and to no one else, and nothing
// before the game ends, nor to anyone outside the game while a spectator
// delay still holds the game's end back (REST and the lobby feed, which
// announces it once the delay has passed). Every answer is checked against api/openapi.yaml by
// the client.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createDatabase, dropDatabase, startServer, psql, waitFor } from './lib/server.mjs';
import { client, newPlayer, newLobby, newGame, NO_LIMITS } from './lib/api.mjs';
import { HubClient } from './lib/ws.mjs';

let db, srv, call, alice, bob, carol;

before(async () => {
  db = createDatabase('rematch');
  srv = await startServer({ db, env: NO_LIMITS });
  call = client(srv.url);
  alice = await newPlayer(call, { prefix: 'alice' });
  bob = await newPlayer(call, { prefix: 'bob' });
  carol = await newPlayer(call, { prefix: 'carol' }); // never seated in the games
});

after(async () => {
  await srv?.stop();
  if (db) dropDatabase(db);
});

const game = (id, token) => call('GET', `/api/v1/games/${id}`, { token });
const offer = (id, token) => call('POST', `/api/v1/games/${id}/rematch`, { token });
const find = (id, token) => call('GET', `/api/v1/games/${id}/rematch`, { token });

// Play tic-tac-toe game id to its end: each human on turn takes the first
// empty cell (a bot seat answers by itself).
async function playOut(id, players) {
  for (let i = 0; i < 20; i++) {
    const g = (await game(id, players[0].token)).body;
    if (g.status !== 'running') return g;
    const w = g.windows[0];
    const who = players.find((p, seat) => p && w && w.seats[0] === seat);
    if (!who) {
      await waitFor(async () => (await game(id, players[0].token)).body.version > g.version, {
        what: 'the bot to move',
      });
      continue;
    }
    const cell = g.view.board.findIndex((c) => c === null);
    const r = await call('POST', `/api/v1/games/${id}/plays`, {
      token: who.token,
      body: { window: w.id, cell },
    });
    assert.equal(r.status, 200, r.text);
  }
  assert.fail(`game ${id} did not end`);
}

test("a private game: one rematch lobby with its settings; its invite code reaches the game's players only", async () => {
  const lobby = await newLobby(
    call,
    alice,
    {
      ruleset: 'tictactoe',
      seats: 2,
      private: true,
      clock: { mode: 'live', seconds: 30 },
      spectator_delay: { versions: 1 },
    },
    [bob],
  );
  const s = await call('POST', `/api/v1/lobbies/${lobby.id}/start`, { token: alice.token });
  assert.equal(s.status, 201, s.text);
  const id = s.body.game;

  const early = await offer(id, bob.token);
  assert.equal(early.status, 409, 'no rematch while the game runs');
  assert.match(early.body.detail, /still being played/);
  assert.equal((await find(id, alice.token)).status, 204, 'none yet is an answer, not a 404');
  assert.equal((await offer(id, carol.token)).status, 403, "only the game's players");
  assert.equal((await offer('nosuchgame', alice.token)).status, 404);
  assert.equal((await offer(id)).status, 401);

  await playOut(id, [alice, bob]);
  assert.equal((await offer(id, carol.token)).status, 403);

  const made = await offer(id, bob.token);
  assert.equal(made.status, 201, made.text);
  assert.equal(made.body.created, true);
  const r = made.body.lobby;
  assert.equal(made.headers.get('location'), `/api/v1/lobbies/${r.id}`);
  assert.notEqual(r.id, lobby.id);
  assert.equal(r.status, 'open');
  assert.equal(r.ruleset, 'tictactoe');
  assert.equal(r.private, true);
  assert.deepEqual(r.clock, { mode: 'live', seconds: 30 });
  assert.deepEqual(r.spectator_delay, { versions: 1, seconds: 0 });
  assert.equal(r.host.id, bob.id, 'whoever asks first hosts');
  assert.equal(r.seats[0].player.id, bob.id);
  assert.equal(r.seats[1].player, null);
  assert.match(made.body.invite_code, /^\S+$/);

  // The other player finds the same lobby, by GET or by asking again.
  const again = await offer(id, alice.token);
  assert.equal(again.status, 200, again.text);
  assert.equal(again.body.created, false);
  assert.equal(again.body.lobby.id, r.id);
  const found = await find(id, alice.token);
  assert.equal(found.status, 200);
  assert.equal(found.body.lobby.id, r.id);
  assert.equal(found.body.invite_code, made.body.invite_code);

  // Someone who was not in the game learns nothing.
  assert.equal((await find(id, carol.token)).status, 403);
  assert.equal((await call('GET', `/api/v1/lobbies/${r.id}`, { token: carol.token })).status, 404);
  const listed = await call('GET', '/api/v1/lobbies?status=open', { token: carol.token });
  assert.ok(!listed.body.some((x) => x.id === r.id), 'a private rematch is not listed');

  // The code lets the other player sit down.
  const join = await call('POST', `/api/v1/lobbies/${r.id}/seats`, {
    token: alice.token,
    body: { code: found.body.invite_code },
  });
  assert.equal(join.status, 200, join.text);
  assert.equal(join.body.seats[1].player.id, alice.id);
});

test('two players asking at once share one lobby', async () => {
  const id = await newGame(call, 'tictactoe', [alice, bob]);
  await playOut(id, [alice, bob]);
  const [a, b] = await Promise.all([offer(id, alice.token), offer(id, bob.token)]);
  assert.equal(a.body.lobby.id, b.body.lobby.id);
  assert.deepEqual([a.body.created, b.body.created].sort(), [false, true]);
  assert.equal(a.body.invite_code, null, "a public game's rematch is public");
  const rows = psql(
    db,
    `SELECT count(*) FROM lobbies WHERE ruleset = 'tictactoe' AND status = 'open' AND host_id IN ('${alice.id}', '${bob.id}') AND created_at > (SELECT updated_at FROM games WHERE game_id = '${id}')`,
  );
  assert.equal(rows.trim(), '1');
});

test("the game's bots come back to their seats; campaign options stay behind", async () => {
  const lobby = await newLobby(call, alice, { ruleset: 'tictactoe', seats: 2 });
  const b = await call('POST', `/api/v1/lobbies/${lobby.id}/bots`, {
    token: alice.token,
    body: { seat: 1, level: 'basic' },
  });
  assert.equal(b.status, 200, b.text);
  const bot = b.body.seats[1].bot;
  assert.ok(bot, 'the bot is seated');
  const s = await call('POST', `/api/v1/lobbies/${lobby.id}/start`, { token: alice.token });
  assert.equal(s.status, 201, s.text);
  await playOut(s.body.game, [alice, null]);
  // A campaign game's lobby carries campaign options (Sprint's
  // campaign_conditions_met); the rematch is a plain game, so they are
  // dropped (tic-tac-toe would refuse them as unknown options).
  psql(
    db,
    `UPDATE lobbies SET options = '{"campaign_conditions_met": ["c1"]}' WHERE id = '${lobby.id}'`,
  );
  const made = await offer(s.body.game, alice.token);
  assert.equal(made.status, 201, made.text);
  assert.equal(made.body.lobby.seats[1].bot, bot);
  assert.equal(made.body.lobby.seats[0].player.id, alice.id);
  assert.deepEqual(made.body.lobby.options, {});
});

test("a game's end held back by a spectator delay keeps its rematch lobby from outsiders until then", async () => {
  const DELAY = 4;
  const lobby = await newLobby(
    call,
    alice,
    { ruleset: 'tictactoe', seats: 2, spectator_delay: { versions: 0, seconds: DELAY } },
    [bob],
  );
  const s = await call('POST', `/api/v1/lobbies/${lobby.id}/start`, { token: alice.token });
  assert.equal(s.status, 201, s.text);
  const id = s.body.game;
  const feed = await HubClient.connect(srv.wsUrl);
  try {
    feed.send({ type: 'subscribe_lobbies' });
    await feed.next('lobbies');
    await playOut(id, [alice, bob]);
    const made = await offer(id, alice.token);
    assert.equal(made.status, 201, made.text);
    const r = made.body.lobby.id;
    const endedAt = Date.now();
    const inList = async (token) =>
      (await call('GET', '/api/v1/lobbies?status=open', { token })).body.some((x) => x.id === r);
    // While the game's end is inside the delay: its players and the lobby's
    // members see the lobby, nobody else does.
    assert.equal((await game(id, carol.token)).body.status, 'running', 'the delay holds the end');
    assert.equal(await inList(carol.token), false, 'not in the public list (signed in)');
    assert.equal(await inList(undefined), false, 'not in the public list (anonymous)');
    assert.equal((await call('GET', `/api/v1/lobbies/${r}`, { token: carol.token })).status, 404);
    assert.equal((await call('GET', `/api/v1/lobbies/${r}`)).status, 404);
    assert.equal(await inList(alice.token), true, 'its host sees it');
    assert.equal((await call('GET', `/api/v1/lobbies/${r}`, { token: bob.token })).status, 200);
    await new Promise((ok) => setTimeout(ok, 1500)); // the hub's sweep has run meanwhile
    if (Date.now() - endedAt < (DELAY - 1) * 1000) {
      assert.ok(!feed.lobbies.has(r), 'not on the lobby feed');
      assert.ok(
        !feed.messages.some((m) => m.type === 'lobby' && m.lobby.id === r),
        'no lobby message',
      );
    }
    // Once the delay has passed: announced on the feed, listed, readable.
    await feed.until(() => feed.lobbies.has(r), { timeout: 15000, what: 'the lobby on the feed' });
    assert.ok(Date.now() - endedAt >= (DELAY - 1) * 1000, 'not before the delay');
    assert.equal((await game(id, carol.token)).body.status, 'finished');
    assert.equal(await inList(carol.token), true);
    assert.equal((await call('GET', `/api/v1/lobbies/${r}`)).status, 200);
  } finally {
    feed.close();
  }
});

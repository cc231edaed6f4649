// notifications_group.test.mjs - webhooks in the chat platforms' formats and
// a game's group channel, against a local receiver that checks each
// format's payload: Discord's (content within 2000 characters, only the
// top-level fields Discord takes), Slack's (text, with &, < and > escaped),
// the notifier's own JSON. A group channel is told whose move it is and
// the winner, once each, from the public audience only: never a sealed
// order, never a private message; it is refused for a game with a
// spectator delay, for a game that is over, and to a player outside the
// game. Games of rock-paper-scissors between two guests.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createDatabase, dropDatabase, startServer, sleep, waitFor } from './lib/server.mjs';
import { client, newPlayer, newLobby } from './lib/api.mjs';
import { hookSink } from './lib/notify_sinks.mjs';

// The top-level fields of Discord's execute-webhook JSON body; Discord
// refuses a body with others.
const DISCORD_FIELDS = new Set([
  'content',
  'username',
  'avatar_url',
  'tts',
  'embeds',
  'allowed_mentions',
  'components',
  'attachments',
  'flags',
  'thread_name',
  'applied_tags',
  'poll',
]);

function checkDiscord(post) {
  const b = post.body;
  for (const k of Object.keys(b)) assert.ok(DISCORD_FIELDS.has(k), `unknown Discord field ${k}`);
  assert.equal(typeof b.content, 'string', post.text);
  assert.ok(b.content.length > 0);
  assert.ok([...b.content].length <= 2000, 'at most 2000 characters');
  assert.deepEqual(b.allowed_mentions, { parse: [] }, 'no mention pings anyone');
  assert.equal(b.content.includes('\r'), false, 'plain LF lines');
}

// Slack: a text, where & < > appear only as Slack's escapes.
function checkSlack(post) {
  const b = post.body;
  assert.deepEqual(Object.keys(b), ['text'], post.text);
  assert.equal(typeof b.text, 'string');
  assert.equal(/[<>]/.test(b.text), false, `no raw < or >: ${b.text}`);
  assert.equal(/&(?!amp;|lt;|gt;)/.test(b.text), false, `every & escaped: ${b.text}`);
}

function verifies(post, secret) {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(post.headers['conclave-signature'] || '');
  if (!m) return false;
  return createHmac('sha256', secret).update(`${m[1]}.${post.text}`).digest('hex') === m[2];
}

const wordsOf = (post) => post.body.content ?? post.body.text ?? JSON.stringify(post.body);

const cleanups = [];
after(async () => {
  for (const f of cleanups.reverse()) await f();
});

async function setup() {
  const hooks = hookSink();
  await hooks.listen();
  const db = createDatabase('notifygroup');
  const server = await startServer({
    db,
    env: {
      CONCLAVE_NOTIFY_TICK_MS: '100',
      CONCLAVE_NOTIFY_RETRY_MS: '200',
      CONCLAVE_RATE: '1000000',
      CONCLAVE_RATE_BURST: '1000000',
    },
  });
  const ctx = { hooks, db, server, call: client(server.url) };
  cleanups.push(async () => {
    await server.stop('SIGKILL');
    await hooks.close();
    dropDatabase(db);
  });
  return ctx;
}

// A running game of rps between alice (seat 0) and bob (seat 1).
async function rpsGame(ctx, alice, bob, { rounds = 2, delay } = {}) {
  const lobby = await newLobby(
    ctx.call,
    alice,
    {
      ruleset: 'rps',
      seats: 2,
      options: { rounds },
      ...(delay ? { spectator_delay: delay } : {}),
    },
    [bob],
  );
  const s = await ctx.call('POST', `/api/v1/lobbies/${lobby.id}/start`, { token: alice.token });
  assert.equal(s.status, 201, s.text);
  return s.body.game;
}

const order = (ctx, p, game, window, t) =>
  ctx.call('PUT', `/api/v1/games/${game}/orders/${window}`, {
    token: p.token,
    body: { throw: t },
  });

test("a player's own webhook speaks Discord's or Slack's format, in the mail's words", async () => {
  const ctx = await setup();
  const { call, hooks } = ctx;
  const alice = await newPlayer(call, { guest: true, prefix: 'fa' });
  const bob = await newPlayer(call, { guest: true, prefix: 'fb' });
  const bad = await call('POST', '/api/v1/me/notifications/webhooks', {
    token: alice.token,
    body: { url: `http://127.0.0.1:${hooks.port}/x`, format: 'teams' },
  });
  assert.equal(bad.status, 422, bad.text);
  assert.match(bad.text, /format/);
  for (const [p, format] of [
    [alice, 'discord'],
    [bob, 'slack'],
  ]) {
    const r = await call('POST', '/api/v1/me/notifications/webhooks', {
      token: p.token,
      body: { url: `http://127.0.0.1:${hooks.port}/own/${p.name}`, format },
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.format, format);
    const got = await call('GET', '/api/v1/me/notifications', { token: p.token });
    assert.deepEqual(
      got.body.webhooks.map((w) => w.format),
      [format],
    );
  }
  const game = await rpsGame(ctx, alice, bob, { rounds: 1 });
  const own = (p) => hooks.posts.filter((x) => x.url === `/own/${p.name}`);
  const waits = (p) => own(p).filter((x) => wordsOf(x).startsWith('The game waits on you.'));
  await waitFor(() => waits(alice).length >= 1 && waits(bob).length >= 1, {
    what: 'both told their move',
  });
  for (const x of own(alice)) checkDiscord(x);
  for (const x of own(bob)) checkSlack(x);
  for (const p of [alice, bob]) {
    const words = wordsOf(waits(p)[0]);
    // The mail's words: the game with the other player, the step, the link.
    const other = p === alice ? bob : alice;
    assert.ok(words.includes(`Rock-paper-scissors with ${other.name}`), words);
    assert.ok(words.includes('Waiting on you: Round 1: your throw'), words);
    assert.ok(words.includes(`/game/${game}`), words);
    assert.equal(words.includes('Unsubscribe'), false, 'no mail footer');
  }
});

test('a group channel is told whose move and the winner, from the public audience only', async () => {
  const ctx = await setup();
  const { call, hooks } = ctx;
  const alice = await newPlayer(call, { guest: true, prefix: 'ga' });
  const bob = await newPlayer(call, { guest: true, prefix: 'gb' });
  const carol = await newPlayer(call, { guest: true, prefix: 'gc' });
  const groupUrl = (name) => `http://127.0.0.1:${hooks.port}/group/${name}`;
  const postsTo = (name) => hooks.posts.filter((x) => x.url === `/group/${name}`);

  // Refusals: outside the game, a spectator delay, a bad URL, a game over.
  const delayed = await rpsGame(ctx, alice, bob, { delay: { versions: 1, seconds: 0 } });
  const d = await call('PUT', `/api/v1/games/${delayed}/group-webhook`, {
    token: alice.token,
    body: { url: groupUrl('delayed') },
  });
  assert.equal(d.status, 422, d.text);
  assert.match(d.text, /spectator delay/);

  for (const format of ['discord', 'slack', 'conclave']) {
    const game = await rpsGame(ctx, alice, bob);
    const outsider = await call('PUT', `/api/v1/games/${game}/group-webhook`, {
      token: carol.token,
      body: { url: groupUrl(format), format },
    });
    assert.equal(outsider.status, 403, outsider.text);
    const plain = await call('PUT', `/api/v1/games/${game}/group-webhook`, {
      token: alice.token,
      body: { url: 'http://example.test/plain', format },
    });
    assert.equal(plain.status, 422, plain.text);
    // Bob attaches it; Alice sees it without its URL.
    const put = await call('PUT', `/api/v1/games/${game}/group-webhook`, {
      token: bob.token,
      body: { url: groupUrl(format), format },
    });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.format, format);
    assert.equal(put.body.url, groupUrl(format));
    assert.match(put.body.secret, /^whsec_[0-9a-f]{48}$/);
    const seen = await call('GET', `/api/v1/games/${game}/group-webhook`, { token: alice.token });
    assert.equal(seen.status, 200, seen.text);
    assert.equal(seen.body.url, null);
    assert.equal(seen.body.added_by.name, bob.name);
    assert.equal(seen.body.secret, undefined);

    // The first post: whose move it is now (both, round 1); a "started"
    // before it when the channel was attached before the notifier read the
    // game's start.
    const all = () => postsTo(format);
    const kind = (x) => x.headers['conclave-notification-id'].split(':')[3];
    const posts = () => all().filter((x) => kind(x) !== 'started');
    await waitFor(() => posts().length >= 1, { what: `${format}: whose move` });
    // Hidden facts: a private message to Bob, Alice's sealed order.
    const pair = await call('POST', `/api/v1/games/${game}/channels`, {
      token: alice.token,
      body: { seats: [1] },
    });
    assert.ok(pair.status === 201 || pair.status === 200, pair.text);
    const said = await call('POST', `/api/v1/games/${game}/channels/${pair.body.id}/messages`, {
      token: alice.token,
      body: { text: 'pssst-only-bob' },
    });
    assert.equal(said.status, 201, said.text);
    assert.equal((await order(ctx, alice, game, 'r1', 'scissors')).status, 200);
    await sleep(800);
    assert.equal(
      posts().length,
      1,
      `nothing new while round 1 still waits on Bob: ${posts()
        .map((x) => x.text)
        .join('\n')}`,
    );
    assert.equal((await order(ctx, bob, game, 'r1', 'paper')).status, 200);
    await waitFor(() => posts().length >= 2, { what: `${format}: round 2` });
    assert.equal((await order(ctx, alice, game, 'r2', 'rock')).status, 200);
    assert.equal((await order(ctx, bob, game, 'r2', 'rock')).status, 200);
    await waitFor(() => posts().length >= 3, { what: `${format}: the end` });
    await sleep(800);

    const started = all().filter((x) => kind(x) === 'started');
    assert.ok(started.length <= 1, 'started at most once');
    if (started.length) assert.equal(kind(all()[0]), 'started', 'started first');
    const got = all();
    const ids = got.map((x) => x.headers['conclave-notification-id']);
    for (const id of ids)
      assert.match(id, new RegExp(`^${game}:\\d+:public:(started|waiting|ended)$`));
    assert.deepEqual(
      ids.map((id) => id.split(':')[3]).filter((k) => k !== 'started'),
      ['waiting', 'waiting', 'ended'],
      'in order: round 1, round 2, the end',
    );
    for (const x of got) {
      if (format === 'discord') checkDiscord(x);
      if (format === 'slack') checkSlack(x);
      assert.ok(verifies(x, put.body.secret), 'signed with the channel secret');
      const said = x.text.replaceAll('Rock-paper-scissors', '');
      for (const hidden of ['pssst-only-bob', 'scissors', 'paper', 'rock', 'where you play'])
        assert.equal(said.includes(hidden), false, `${format}: "${hidden}" in ${said}`);
      if (format === 'conclave') {
        assert.equal(x.body.audience, 'public');
        assert.equal(x.body.document, undefined, 'no seat document');
      }
    }
    const words = posts().map(wordsOf);
    if (started.length) assert.ok(wordsOf(started[0]).startsWith('The game has started.'));
    assert.ok(
      words[0].includes(`The game waits on ${alice.name} and ${bob.name}.`),
      `round 1 names both: ${words[0]}`,
    );
    assert.ok(words[0].includes(`Waiting on ${bob.name}: Round 1: your throw`), words[0]);
    assert.ok(words[1].includes('Round 2'), words[1]);
    assert.ok(words[2].includes('The game has ended.'), words[2]);
    // Scissors beat paper in round 1, round 2 a draw: Alice wins.
    const res = await call('GET', `/api/v1/games/${game}`, { token: alice.token });
    assert.deepEqual(res.body.result.winners, [0], JSON.stringify(res.body.result));
    assert.ok(words[2].includes(`Winner: ${alice.name}.`), words[2]);
    for (const w of words) assert.ok(w.includes(`/game/${game}`), 'a link to the game');

    const over = await call('PUT', `/api/v1/games/${game}/group-webhook`, {
      token: alice.token,
      body: { url: groupUrl(format), format },
    });
    assert.equal(over.status, 409, over.text);
    const gone = await call('DELETE', `/api/v1/games/${game}/group-webhook`, {
      token: alice.token,
    });
    assert.equal(gone.status, 204);
    const none = await call('GET', `/api/v1/games/${game}/group-webhook`, { token: alice.token });
    assert.equal(none.status, 404);
  }
  assert.equal(postsTo('delayed').length, 0);
});

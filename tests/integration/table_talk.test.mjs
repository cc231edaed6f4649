// table_talk.test.mjs - table talk against a real server: three players and
// a spectator in one game; a private channel's messages never reach the
// third player or the spectator over REST or the WebSocket; the public
// channel reaches everyone, and spectators of a game with a spectator delay
// get it late, over REST and over the WebSocket (never before the delay,
// never a private message); paging, unread counts and read marks; the size, emptiness,
// rate and channel limits; delivery across two server processes (NOTIFY
// carries ids, each process reads the row); and everything survives a
// restart.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createDatabase, dropDatabase, startServer, http, sleep, waitFor } from './lib/server.mjs';
import { HubClient, stopClean, newPlayer, newGame, play, getGame } from './lib/ws.mjs';

const FAST = {
  CONCLAVE_RATE: '100000',
  CONCLAVE_RATE_BURST: '100000',
  CONCLAVE_HTTP_PER_IP: '1000',
};

let db;
let srv;
let ruleset3; // a ruleset that seats three
before(async () => {
  db = createDatabase('chat');
  srv = await startServer({ db, env: FAST });
  const r = await http(srv.url, 'GET', '/api/v1/rulesets');
  ruleset3 = r.body.find((x) => x.min_seats <= 3 && x.max_seats >= 3).id;
});
after(async () => {
  try {
    if (srv) await stopClean(srv);
  } finally {
    if (db) dropDatabase(db);
  }
});

const base = () => srv.url;
const chan = (game, c) => `/api/v1/games/${game}/channels/${c}`;

async function follow(token, game) {
  const c = await HubClient.connect(srv.wsUrl);
  if (token) c.send({ type: 'auth', token });
  c.send({ type: 'subscribe', game });
  await c.next('snapshot');
  return c;
}

function post(game, c, token, text) {
  return http(base(), 'POST', `${chan(game, c)}/messages`, { token, body: { text } });
}

function page(game, c, token, query = '') {
  return http(base(), 'GET', `${chan(game, c)}/messages${query}`, { token });
}

async function threeAndSpectator() {
  const [a, b, c] = [
    await newPlayer(base(), 'ta'),
    await newPlayer(base(), 'tb'),
    await newPlayer(base(), 'tc'),
  ];
  const game = await newGame(base(), ruleset3, [a, b, c]);
  return { a, b, c, game };
}

test('private messages reach their members only, over REST and the WebSocket; public reaches all', async () => {
  const { a, b, c, game } = await threeAndSpectator();
  const [wa, wb, wc, ws] = [
    await follow(a.token, game),
    await follow(b.token, game),
    await follow(c.token, game),
    await follow(null, game),
  ];

  const open = await http(base(), 'POST', `/api/v1/games/${game}/channels`, {
    token: a.token,
    body: { seats: [1] },
  });
  assert.equal(open.status, 201, open.text);
  assert.deepEqual(open.body.seats, [0, 1]);
  assert.equal(open.body.kind, 'private');
  const pid = open.body.id;
  const again = await http(base(), 'POST', `/api/v1/games/${game}/channels`, {
    token: b.token,
    body: { seats: [0, 1] },
  });
  assert.equal(again.status, 200, 'the same seats give the same channel');
  assert.equal(again.body.id, pid);

  const secret = `secret-${randomBytes(6).toString('hex')}`;
  const sent = await post(game, pid, a.token, `meet me at ${secret}`);
  assert.equal(sent.status, 201, sent.text);
  assert.equal(sent.body.seq, 1);
  assert.equal(sent.body.seat, 0);
  assert.equal(sent.body.player.name, a.name);

  const got = await wb.until(
    () => wb.messages.find((m) => m.type === 'chat' && m.channel === pid),
    { what: 'b gets the private message' },
  );
  assert.equal(got.message.text, `meet me at ${secret}`);
  assert.deepEqual(got.seats, [0, 1]);
  await wa.until(() => wa.messages.find((m) => m.type === 'chat' && m.channel === pid), {
    what: 'a gets its own message',
  });

  const pub = await post(game, 0, c.token, 'hello all');
  assert.equal(pub.status, 201, pub.text);
  for (const [w, who] of [
    [wa, 'a'],
    [wb, 'b'],
    [wc, 'c'],
    [ws, 'spectator'],
  ])
    await w.until(() => w.messages.find((m) => m.type === 'chat' && m.channel === 0), {
      what: `${who} gets the public message`,
    });
  await sleep(300);
  for (const w of [wc, ws])
    assert.ok(
      !w.texts.some((t) => t.includes(secret)),
      'the secret never reaches a non-member socket',
    );

  // REST: the third player and the spectator cannot read or post there
  for (const token of [c.token, null]) {
    const r = await page(game, pid, token);
    assert.equal(r.status, 404, r.text);
    assert.ok(!r.text.includes(secret));
    const list = await http(base(), 'GET', `/api/v1/games/${game}/channels`, { token });
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.channels.map((x) => x.id),
      [0],
      'only the public channel is listed',
    );
  }
  const cpost = await post(game, pid, c.token, 'let me in');
  assert.equal(cpost.status, 404);
  const spost = await post(game, 0, null, 'anon');
  assert.equal(spost.status, 401);
  const spectator = await newPlayer(base(), 'sp');
  const sp = await post(game, 0, spectator.token, 'from the stands');
  assert.equal(sp.status, 403);
  assert.match(sp.body.detail, /spectators cannot post/);
  const spread = await page(game, 0, spectator.token);
  assert.equal(spread.status, 200);
  assert.deepEqual(
    spread.body.messages.map((m) => m.text),
    ['hello all'],
  );

  // unread counts and the read mark
  const lb = await http(base(), 'GET', `/api/v1/games/${game}/channels`, { token: b.token });
  assert.equal(lb.body.you, 1);
  const priv = lb.body.channels.find((x) => x.id === pid);
  assert.equal(priv.unread, 1);
  assert.equal(lb.body.channels.find((x) => x.id === 0).unread, 1);
  const mark = await http(base(), 'PUT', `${chan(game, pid)}/read`, {
    token: b.token,
    body: { seq: 1 },
  });
  assert.equal(mark.status, 200, mark.text);
  assert.deepEqual(mark.body, { channel: pid, read: 1, unread: 0 });
  const la = await http(base(), 'GET', `/api/v1/games/${game}/channels`, { token: a.token });
  assert.equal(
    la.body.channels.find((x) => x.id === pid).unread,
    0,
    'my own messages are not unread',
  );
  const cm = await http(base(), 'PUT', `${chan(game, pid)}/read`, {
    token: c.token,
    body: { seq: 1 },
  });
  assert.equal(cm.status, 404);
  for (const w of [wa, wb, wc, ws]) w.close();
});

test('paging: newest first page, before and after, limit capped', async () => {
  const { a, b, game } = await threeAndSpectator();
  for (let i = 1; i <= 7; i++)
    assert.equal((await post(game, 0, i % 2 ? a.token : b.token, `m${i}`)).status, 201);
  const newest = await page(game, 0, null, '?limit=3');
  assert.deepEqual(
    newest.body.messages.map((m) => m.seq),
    [5, 6, 7],
  );
  assert.equal(newest.body.more, true);
  const older = await page(game, 0, null, '?limit=3&before=5');
  assert.deepEqual(
    older.body.messages.map((m) => m.text),
    ['m2', 'm3', 'm4'],
  );
  const oldest = await page(game, 0, null, '?limit=3&before=2');
  assert.deepEqual(
    oldest.body.messages.map((m) => m.seq),
    [1],
  );
  assert.equal(oldest.body.more, false);
  const after = await page(game, 0, null, '?after=5');
  assert.deepEqual(
    after.body.messages.map((m) => m.seq),
    [6, 7],
  );
  assert.equal(after.body.more, false);
  for (const q of ['?limit=101', '?limit=0', '?before=x', '?before=2&after=1']) {
    const r = await page(game, 0, null, q);
    assert.equal(r.status, 422, q);
    assert.match(r.headers.get('content-type'), /problem\+json/);
  }
  assert.equal((await page(game, 99, a.token)).status, 404);
  assert.equal((await page('nosuchgame', 0, a.token)).status, 404);
});

test('limits: size 413, empty or bad text 422, malformed 400, rate 429 with Retry-After, channel count', async () => {
  const { a, b, c, game } = await threeAndSpectator();
  const big = await post(game, 0, a.token, 'é'.repeat(2001));
  assert.equal(big.status, 413, big.text);
  assert.equal(big.body.field, 'text');
  assert.equal(
    (await post(game, 0, a.token, 'é'.repeat(2000))).status,
    201,
    '2000 characters are fine',
  );
  for (const t of ['', '   \n', 'bell\u0007']) {
    const r = await post(game, 0, a.token, t);
    assert.equal(r.status, 422, JSON.stringify(t));
  }
  const notJson = await http(base(), 'POST', `${chan(game, 0)}/messages`, {
    token: a.token,
    raw: '{"text":',
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(notJson.status, 400);
  const extra = await http(base(), 'POST', `${chan(game, 0)}/messages`, {
    token: a.token,
    body: { text: 'x', to: 1 },
  });
  assert.equal(extra.status, 422);
  // 1 sent above; 9 more reach the cap of 10 in 10 s
  for (let i = 0; i < 9; i++) assert.equal((await post(game, 0, a.token, `r${i}`)).status, 201);
  const over = await post(game, 0, a.token, 'one too many');
  assert.equal(over.status, 429, over.text);
  assert.ok(Number(over.headers.get('retry-after')) >= 1);
  assert.equal((await post(game, 0, b.token, 'others still talk')).status, 201);

  const bad = await http(base(), 'POST', `/api/v1/games/${game}/channels`, {
    token: a.token,
    body: { seats: [0] },
  });
  assert.equal(bad.status, 422);
  const out = await http(base(), 'POST', `/api/v1/games/${game}/channels`, {
    token: a.token,
    body: { seats: [7] },
  });
  assert.equal(out.status, 422);
  const three = await http(base(), 'POST', `/api/v1/games/${game}/channels`, {
    token: c.token,
    body: { seats: [0, 1] },
  });
  assert.equal(three.status, 201, 'a group of three seats');
  assert.deepEqual(three.body.seats, [0, 1, 2]);
  const anon = await http(base(), 'POST', `/api/v1/games/${game}/channels`, {
    body: { seats: [0] },
  });
  assert.equal(anon.status, 401);
});

test('a spectator delay holds public messages back from spectators, not from players', async () => {
  const [a, b] = [await newPlayer(base(), 'da'), await newPlayer(base(), 'db')];
  const game = await newGame(base(), 'tictactoe', [a, b], {
    spectator_delay: { versions: 1, seconds: 0 },
  });
  const ws = await follow(null, game);
  const wb = await follow(b.token, game);
  assert.equal((await post(game, 0, a.token, 'before the first move')).status, 201);
  await wb.until(() => wb.messages.find((m) => m.type === 'chat'), { what: 'b gets it live' });
  await sleep(1300); // past the hub's once-a-second check of delayed games
  assert.ok(
    !ws.messages.some((m) => m.type === 'chat'),
    "not on the delayed spectator's socket before the move",
  );
  const chatBefore = ws.messages.length;
  const spec = await newPlayer(base(), 'ds');
  let r = await page(game, 0, spec.token);
  assert.deepEqual(r.body.messages, [], 'held back from spectators');
  assert.equal(
    (await http(base(), 'GET', `/api/v1/games/${game}/channels`)).body.channels[0].last_seq,
    0,
  );
  const g = await getGame(base(), game, a.token);
  const mover = g.windows[0].seats[0] === 0 ? a : b;
  assert.equal(
    (await play(base(), game, mover.token, { window: g.windows[0].id, cell: 4 })).status,
    200,
  );
  r = await page(game, 0, null);
  assert.deepEqual(
    r.body.messages.map((m) => m.text),
    ['before the first move'],
    'shown one version later',
  );
  // The delayed spectator's socket: nothing before the move, the message
  // once its version is one version old.
  assert.ok(
    !ws.messages.slice(0, chatBefore).some((m) => m.type === 'chat'),
    'no chat before the move',
  );
  const late = await ws.until(() => ws.messages.find((m) => m.type === 'chat'), {
    what: 'the delayed spectator gets it after the move',
  });
  assert.equal(late.message.text, 'before the first move');
  ws.close();
  wb.close();

  const game2 = await newGame(base(), 'tictactoe', [a, b], {
    spectator_delay: { versions: 0, seconds: 2 },
  });
  assert.equal((await post(game2, 0, b.token, 'wait for it')).status, 201);
  assert.deepEqual((await page(game2, 0, null)).body.messages, []);
  // Polled until the delay has passed (the time limit only catches a hang).
  const shown = await waitFor(
    async () => {
      const m = (await page(game2, 0, null)).body.messages;
      return m.length ? m : null;
    },
    { timeout: 30000, what: 'the delayed message on the page' },
  );
  assert.deepEqual(
    shown.map((m) => m.text),
    ['wait for it'],
  );
});

test("a delayed spectator's socket gets a public message once it is delay-old, never a private one", async () => {
  const [a, b, c] = [
    await newPlayer(base(), 'wa'),
    await newPlayer(base(), 'wb'),
    await newPlayer(base(), 'wc'),
  ];
  const game = await newGame(base(), ruleset3, [a, b, c], {
    spectator_delay: { versions: 0, seconds: 3 },
  });
  const spec = await newPlayer(base(), 'wsp');
  const ws = await follow(spec.token, game); // a signed-in spectator
  const wn = await follow(null, game); // and one without a token
  const wb = await follow(b.token, game);
  const open = await http(base(), 'POST', `/api/v1/games/${game}/channels`, {
    token: a.token,
    body: { seats: [1] },
  });
  assert.equal(open.status, 201, open.text);
  const secret = `hush-${randomBytes(6).toString('hex')}`;
  const loud = `hear-${randomBytes(6).toString('hex')}`;
  assert.equal((await post(game, open.body.id, a.token, `between us: ${secret}`)).status, 201);
  const t0 = Date.now();
  assert.equal((await post(game, 0, a.token, `to all: ${loud}`)).status, 201);
  // The seated member gets both live: the positive control that the
  // search below finds a text that is there.
  await wb.until(
    () => wb.texts.some((t) => t.includes(secret)) && wb.texts.some((t) => t.includes(loud)),
    { what: 'b gets both live' },
  );
  // An order, not a time: the player has it while the spectators do not.
  for (const w of [ws, wn])
    assert.ok(!w.texts.some((t) => t.includes(loud)), 'the player gets it before the spectators');
  const arrived = await Promise.all(
    [ws, wn].map(async (w) => {
      const m = await w.until(() => w.messages.find((x) => x.type === 'chat'), {
        what: 'the delayed spectator gets the public message',
        timeout: 30000,
      });
      return { m, at: Date.now() };
    }),
  );
  for (const { m, at } of arrived) {
    assert.equal(m.channel, 0);
    assert.equal(m.message.text, `to all: ${loud}`);
    // A lower bound the server's own timer guarantees: t0 is taken before
    // the post, so a busy machine can only make this later, never earlier.
    assert.ok(at - t0 >= 2950, `not before the delay (${at - t0} ms after posting)`);
  }
  await sleep(1500);
  for (const w of [ws, wn]) {
    assert.ok(!w.texts.some((t) => t.includes(secret)), 'never a private message');
    assert.equal(
      w.messages.filter((x) => x.type === 'chat').length,
      1,
      'exactly the one public message',
    );
  }
  for (const w of [ws, wn, wb]) w.close();
});

test('channels, messages and read marks survive a restart', async () => {
  const { a, b, game } = await threeAndSpectator();
  const open = await http(base(), 'POST', `/api/v1/games/${game}/channels`, {
    token: a.token,
    body: { seats: [1] },
  });
  await post(game, open.body.id, a.token, 'kept');
  await http(base(), 'PUT', `${chan(game, open.body.id)}/read`, {
    token: a.token,
    body: { seq: 1 },
  });
  await stopClean(srv);
  srv = null;
  srv = await startServer({ db, env: FAST });
  const r = await page(game, open.body.id, b.token);
  assert.deepEqual(
    r.body.messages.map((m) => m.text),
    ['kept'],
  );
  const lb = await http(base(), 'GET', `/api/v1/games/${game}/channels`, { token: b.token });
  assert.equal(lb.body.channels.find((x) => x.id === open.body.id).unread, 1);
  const wb = await follow(b.token, game);
  assert.equal((await post(game, open.body.id, a.token, 'after the restart')).status, 201);
  const m = await wb.until(() => wb.messages.find((x) => x.type === 'chat'), {
    what: 'live after restart',
  });
  assert.equal(m.message.seq, 2);
  wb.close();
});

// Counts of the answers to posts: {201: n, 429: m, ...}.
function statusCounts(results) {
  const counts = {};
  for (const r of results) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
}

test('the rate limit holds under concurrency: 60 posts at once, exactly 10 accepted', async () => {
  // Each of three seats sends its 60 at the same time as the others (more
  // contention, so a count-then-insert race would show in one of them).
  const { a, b, c, game } = await threeAndSpectator();
  const seats = [a, b, c];
  const bursts = await Promise.all(
    seats.map((p, s) =>
      Promise.all(Array.from({ length: 60 }, (_, i) => post(game, 0, p.token, `burst ${s} ${i}`))),
    ),
  );
  for (const results of bursts) {
    assert.deepEqual(statusCounts(results), { 201: 10, 429: 50 });
    for (const r of results.filter((x) => x.status === 429))
      assert.ok(Number(r.headers.get('retry-after')) >= 1, r.text);
  }
  const seen = await page(game, 0, a.token, '?limit=100');
  for (let s = 0; s < 3; s++)
    assert.equal(
      seen.body.messages.filter((m) => m.seat === s).length,
      10,
      `seat ${s}: ten stored`,
    );
  // The channel's seq has no gaps.
  assert.deepEqual(
    seen.body.messages.map((m) => m.seq),
    Array.from({ length: 30 }, (_, i) => i + 1),
  );
});

test('the rate limit at its boundary: the 10th post is taken, the 11th refused', async () => {
  const { a, b, game } = await threeAndSpectator();
  for (let i = 0; i < 9; i++) assert.equal((await post(game, 0, a.token, `n${i}`)).status, 201);
  assert.equal((await post(game, 0, a.token, 'the tenth')).status, 201);
  const eleventh = await post(game, 0, a.token, 'the eleventh');
  assert.equal(eleventh.status, 429, eleventh.text);
  assert.equal((await post(game, 0, b.token, 'b is not limited by a')).status, 201);
});

test('the rate limit holds across two server processes on one database', async () => {
  const { a, game } = await threeAndSpectator();
  const other = await startServer({ db, env: FAST });
  try {
    const posts = Array.from({ length: 40 }, (_, i) =>
      http(i % 2 ? other.url : base(), 'POST', `${chan(game, 0)}/messages`, {
        token: a.token,
        body: { text: `split ${i}` },
      }),
    );
    const results = await Promise.all(posts);
    assert.deepEqual(statusCounts(results), { 201: 10, 429: 30 });
    const seen = await page(game, 0, a.token, '?limit=100');
    assert.equal(seen.body.messages.length, 10);
  } finally {
    await stopClean(other);
  }
});

test('a message posted on one server process reaches members following the game on another', async () => {
  const { a, b, c, game } = await threeAndSpectator();
  const other = await startServer({ db, env: FAST });
  try {
    const follow2 = async (token) => {
      const w = await HubClient.connect(other.wsUrl);
      w.send({ type: 'auth', token });
      w.send({ type: 'subscribe', game });
      await w.next('snapshot');
      return w;
    };
    const [wb, wc] = [await follow2(b.token), await follow2(c.token)];
    const open = await http(base(), 'POST', `/api/v1/games/${game}/channels`, {
      token: a.token,
      body: { seats: [1] },
    });
    const secret = `far-${randomBytes(5).toString('hex')}`;
    assert.equal((await post(game, open.body.id, a.token, secret)).status, 201);
    const m = await wb.until(() => wb.messages.find((x) => x.type === 'chat'), {
      what: 'b on the other process gets it',
    });
    assert.equal(m.message.text, secret);
    await sleep(300);
    assert.ok(!wc.texts.some((t) => t.includes(secret)), 'c on the other process does not');
    wb.close();
    wc.close();
  } finally {
    await stopClean(other);
  }
});

test('message text never appears in the server log', async () => {
  const { a, game } = await threeAndSpectator();
  const marker = `logcanary-${randomBytes(6).toString('hex')}`;
  await post(game, 0, a.token, marker);
  await post(game, 0, a.token, `${marker}${'x'.repeat(2100)}`);
  await sleep(200);
  assert.ok(!srv.lines.some((l) => l.includes(marker)));
});

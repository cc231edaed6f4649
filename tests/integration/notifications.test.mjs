// notifications.test.mjs - email and webhook notifications end to end: a
// local SMTP sink (written here, on loopback) and a local webhook receiver;
// games of rock-paper-scissors with a clock of seconds. Checks: the email
// address is verified by the mailed token (the page's button, a POST); each player gets exactly one
// "waiting" per window (mail and webhook) and one reminder then one final
// reminder; webhook signatures verify; quiet hours hold deliveries back
// until they end (or are lifted); nothing goes to a player who has the
// game open (a live WebSocket subscribed as its seat); with the receivers down and the server
// killed with SIGKILL between the commit and the delivery, every
// notification still arrives, with the idempotency id it was given.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createDatabase, dropDatabase, startServer, psql, sleep, waitFor } from './lib/server.mjs';
import { client, newPlayer, newLobby } from './lib/api.mjs';
import { HubClient } from './lib/ws.mjs';
import { smtpSink, hookSink } from './lib/notify_sinks.mjs';

// The check of docs/api.md: HMAC-SHA256 over "t.body" with the secret.
function verifies(post, secret) {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(post.headers['conclave-signature'] || '');
  if (!m) return false;
  const want = createHmac('sha256', secret).update(`${m[1]}.${post.text}`).digest('hex');
  return want === m[2] && Math.abs(Date.now() / 1000 - Number(m[1])) < 300;
}

const header = (mail, name) => (new RegExp(`^${name}: (.*)$`, 'mi').exec(mail.data) || [])[1];

// ---------------------------------------------------------------- set-up --

const cleanups = [];
after(async () => {
  for (const f of cleanups.reverse()) await f();
});

async function setup(env = {}) {
  const smtp = smtpSink();
  await smtp.listen();
  const hooks = hookSink();
  await hooks.listen();
  const db = createDatabase('notify');
  const senv = {
    CONCLAVE_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    CONCLAVE_NOTIFY_TICK_MS: '100',
    CONCLAVE_NOTIFY_RETRY_MS: '200',
    CONCLAVE_NOTIFY_ATTEMPTS: '30',
    CONCLAVE_RATE: '1000000',
    CONCLAVE_RATE_BURST: '1000000',
    ...env,
  };
  const server = await startServer({ db, env: senv });
  const ctx = { smtp, hooks, db, senv, server, call: client(server.url) };
  cleanups.push(async () => {
    await ctx.server.stop('SIGKILL');
    await smtp.close();
    await hooks.close();
    dropDatabase(db);
  });
  return ctx;
}

// A player with a verified address and one webhook: {.., email, secret, hook}.
async function subscriber(ctx, settings = {}) {
  const { call, smtp, hooks } = ctx;
  const p = await newPlayer(call, { guest: true, prefix: 'n' });
  p.email = `${p.name.toLowerCase()}@example.test`;
  const put = await call('PUT', '/api/v1/me/notifications', {
    token: p.token,
    body: { email: p.email, ...settings },
  });
  assert.equal(put.status, 200, put.text);
  assert.equal(put.body.email_verified, false);
  assert.equal(put.body.email_available, true);
  const mail = await waitFor(
    () => smtp.mails.find((m) => m.to.includes(p.email) && /verify\?token=/.test(m.data)),
    { what: 'the verification mail' },
  );
  const token = /verify\?token=([0-9a-f]{64})/.exec(mail.data)[1];
  const bad = await call('POST', '/api/v1/notifications/verify', {
    body: { token: '0'.repeat(64) },
  });
  assert.equal(bad.status, 404);
  const ok = await call('POST', '/api/v1/notifications/verify', { body: { token } });
  assert.equal(ok.status, 200, ok.text);
  assert.equal(ok.body.already_verified, false);
  const hook = await call('POST', '/api/v1/me/notifications/webhooks', {
    token: p.token,
    body: { url: `http://127.0.0.1:${hooks.port}/hook/${p.name}` },
  });
  assert.equal(hook.status, 201, hook.text);
  assert.match(hook.body.secret, /^whsec_[0-9a-f]{48}$/);
  p.secret = hook.body.secret;
  p.hook = hook.body.id;
  const got = await call('GET', '/api/v1/me/notifications', { token: p.token });
  assert.equal(got.body.email_verified, true);
  assert.deepEqual(
    got.body.webhooks.map((w) => w.id),
    [p.hook],
  );
  assert.equal(JSON.stringify(got.body).includes(p.secret), false, 'the secret is shown once');
  return p;
}

async function rpsGame(ctx, players, seconds, rounds = 2) {
  const [host, ...rest] = players;
  const lobby = await newLobby(
    ctx.call,
    host,
    { ruleset: 'rps', seats: 2, options: { rounds }, clock: { mode: 'live', seconds } },
    rest,
  );
  const s = await ctx.call('POST', `/api/v1/lobbies/${lobby.id}/start`, { token: host.token });
  assert.equal(s.status, 201, s.text);
  return s.body.game;
}

const postsOf = (ctx, p, game) =>
  ctx.hooks.posts.filter((x) => x.body.game?.id === game && x.body.seat === p.seat);
const mailsOf = (ctx, p, game) =>
  ctx.smtp.mails.filter(
    (m) =>
      m.to.includes(p.email) &&
      (header(m, 'Conclave-Notification-Id') || '').startsWith(`${game}:`),
  );
const kindOf = (id) => id.split(':')[3];

// ----------------------------------------------------------------- tests --

test('waiting, reminders and the end reach each player once, signed, by mail and webhook', async () => {
  const ctx = await setup();
  const alice = await subscriber(ctx);
  const bob = await subscriber(ctx, { reminder_seconds: 8 });
  alice.seat = 0;
  bob.seat = 1;
  const game = await rpsGame(ctx, [alice, bob], 12);
  // Alice orders at once; Bob lets round 1 run out (reminder, final, timeout).
  await waitFor(() => postsOf(ctx, alice, game).some((p) => p.body.event === 'waiting'), {
    what: 'alice waiting r1',
  });
  const o1 = await ctx.call('PUT', `/api/v1/games/${game}/orders/r1`, {
    token: alice.token,
    body: { throw: 'rock' },
  });
  assert.equal(o1.status, 200, o1.text);
  await waitFor(
    () => postsOf(ctx, bob, game).some((p) => p.body.windows.some((w) => w.id === 'r2')),
    { timeout: 20000, what: 'bob waiting r2' },
  );
  for (const p of [alice, bob]) {
    const o = await ctx.call('PUT', `/api/v1/games/${game}/orders/r2`, {
      token: p.token,
      body: { throw: 'paper' },
    });
    assert.equal(o.status, 200, o.text);
  }
  await waitFor(
    () =>
      [alice, bob].every(
        (p) =>
          postsOf(ctx, p, game).some((x) => x.body.event === 'ended') &&
          mailsOf(ctx, p, game).some(
            (m) => kindOf(header(m, 'Conclave-Notification-Id')) === 'ended',
          ),
      ),
    { timeout: 10000, what: 'ended, both channels' },
  );
  await sleep(500);
  for (const p of [alice, bob]) {
    const posts = postsOf(ctx, p, game);
    const kinds = posts.map((x) => x.body.event).sort();
    const want =
      p === bob
        ? ['ended', 'final_reminder', 'reminder', 'started', 'waiting', 'waiting']
        : ['ended', 'started', 'waiting', 'waiting'];
    assert.deepEqual(kinds, want, `${p.name}: ${posts.map((x) => x.body.id).join(' ')}`);
    const windows = posts
      .filter((x) => x.body.event === 'waiting')
      .map((x) => x.body.windows.map((w) => w.id).join());
    assert.deepEqual(windows.sort(), ['r1', 'r2'], 'one "waiting" per window');
    for (const x of posts) {
      assert.ok(verifies(x, p.secret), 'the signature verifies');
      assert.equal(verifies(x, 'whsec_wrong'), false);
      assert.equal(x.headers['conclave-notification-id'], x.body.id);
      assert.match(x.body.id, new RegExp(`^${game}:\\d+:${p.seat}:[a-z_]+`));
      assert.equal(x.body.seat, p.seat);
      assert.ok(x.body.document.view, "the seat's own document");
    }
    const mails = mailsOf(ctx, p, game)
      .map((m) => kindOf(header(m, 'Conclave-Notification-Id')))
      .sort();
    assert.deepEqual(mails, want, 'the same notifications by mail');
  }
  // Fog: while Alice's order in r1 is sealed, Bob's notifications show his
  // own document only (Alice's own show her order, as her page does).
  const sealed = postsOf(ctx, bob, game).filter((x) => x.body.game.version === 1);
  assert.ok(sealed.length >= 2, "bob was reminded while alice's order was sealed");
  for (const x of sealed)
    assert.equal(
      x.text.includes('rock'),
      false,
      `bob's ${x.body.event} shows alice's sealed order`,
    );
  // Bob's reminders were about r1, the final one after the first.
  const rem = postsOf(ctx, bob, game).filter((x) => /reminder/.test(x.body.event));
  assert.deepEqual(
    rem.map((x) => x.body.event),
    ['reminder', 'final_reminder'],
  );
  assert.ok(rem.every((x) => x.body.windows.some((w) => w.id === 'r1')));
  const metrics = await (await fetch(`${ctx.server.url}/metrics`)).text();
  assert.match(metrics, /conclave_notify_sent_total \d+/);
  assert.match(metrics, /conclave_notify_queued_total \d+/);
  // A clean stop (under the sanitizers: no leak, no error report).
  const { code, signal } = await ctx.server.stop();
  assert.equal(code, 0, `exit ${code ?? signal}: ${ctx.server.lines.slice(-20).join('\n')}`);
});

test('quiet hours hold deliveries until they end or are lifted', async () => {
  const ctx = await setup();
  const now = new Date();
  const minute = now.getUTCHours() * 60 + now.getUTCMinutes();
  const hhmm = (m) => {
    m = ((m % 1440) + 1440) % 1440;
    return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  };
  const carol = await subscriber(ctx, {
    quiet_hours: { start: hhmm(minute - 60), end: hhmm(minute + 60) },
  });
  const dave = await subscriber(ctx);
  carol.seat = 0;
  dave.seat = 1;
  const game = await rpsGame(ctx, [carol, dave], 600);
  await waitFor(() => postsOf(ctx, dave, game).some((p) => p.body.event === 'waiting'), {
    what: 'dave waiting',
  });
  await sleep(1000);
  assert.equal(postsOf(ctx, carol, game).length, 0, 'nothing during quiet hours');
  assert.equal(mailsOf(ctx, carol, game).length, 0);
  const held = psql(
    ctx.db,
    `SELECT count(*) FROM notify_deliveries WHERE player_id = '${carol.id}' AND status = 'pending' AND next_at > now() + interval '50 minutes'`,
  );
  assert.ok(Number(held) >= 2, `held until the end of quiet hours (${held})`);
  const off = await ctx.call('PUT', '/api/v1/me/notifications', {
    token: carol.token,
    body: { quiet_hours: null },
  });
  assert.equal(off.status, 200);
  assert.equal(off.body.quiet_hours, null);
  await waitFor(() => postsOf(ctx, carol, game).some((p) => p.body.event === 'waiting'), {
    what: 'carol after quiet hours',
  });
});

test('receivers down and a SIGKILL between commit and delivery: each notification arrives, same id', async () => {
  const ctx = await setup({ CONCLAVE_NOTIFY_RETRY_MS: '300' });
  const erin = await subscriber(ctx);
  const finn = await subscriber(ctx);
  erin.seat = 0;
  finn.seat = 1;
  ctx.hooks.down = true;
  await ctx.smtp.close();
  const before = ctx.hooks.posts.length;
  const game = await rpsGame(ctx, [erin, finn], 600, 1);
  await waitFor(
    () =>
      Number(
        psql(
          ctx.db,
          `SELECT count(*) FROM notify_deliveries WHERE game_id = '${game}' AND attempts > 0`,
        ),
      ) >= 4,
    { what: 'failed attempts' },
  );
  // Both order, and the server dies right after the commit.
  for (const p of [erin, finn]) {
    const o = await ctx.call('PUT', `/api/v1/games/${game}/orders/r1`, {
      token: p.token,
      body: { throw: 'rock' },
    });
    assert.equal(o.status, 200, o.text);
  }
  await ctx.server.stop('SIGKILL');
  const ids = psql(
    ctx.db,
    `SELECT notification_id || ' ' || channel FROM notify_deliveries WHERE game_id = '${game}'`,
  )
    .split('\n')
    .filter(Boolean);
  const facts = Number(psql(ctx.db, `SELECT count(*) FROM notify_facts WHERE game_id = '${game}'`));
  assert.equal(ctx.hooks.posts.length, before, 'nothing got through while down');
  // The relay comes back on its port; the server restarts.
  await sleep(1000);
  await ctx.smtp.listen(Number(new URL(ctx.senv.CONCLAVE_SMTP_URL).port));
  ctx.hooks.down = false;
  ctx.server = await startServer({ db: ctx.db, env: ctx.senv });
  const want = ['started', 'waiting', 'ended'];
  await waitFor(
    () =>
      [erin, finn].every((p) =>
        want.every(
          (k) =>
            postsOf(ctx, p, game).some((x) => x.body.event === k) &&
            mailsOf(ctx, p, game).some((m) => kindOf(header(m, 'Conclave-Notification-Id')) === k),
        ),
      ),
    { timeout: 30000, what: `every notification (facts left at the kill: ${facts})` },
  );
  for (const line of ids) {
    const [id, channel] = line.split(' ');
    const seen =
      channel === 'webhook'
        ? ctx.hooks.posts.some((x) => x.body.id === id)
        : ctx.smtp.mails.some((m) => header(m, 'Conclave-Notification-Id') === id);
    assert.ok(seen, `${id} by ${channel}, with the id it had before the kill`);
  }
  // Each is marked sent once its receiver answered (just after it arrived).
  await waitFor(
    () =>
      psql(
        ctx.db,
        `SELECT count(*) FROM notify_deliveries WHERE game_id = '${game}' AND status <> 'sent'`,
      ) === '0',
    { what: 'every delivery marked sent' },
  );
  assert.equal(
    psql(
      ctx.db,
      `SELECT count(*) FROM notify_deliveries WHERE game_id = '${game}' AND status = 'dead'`,
    ),
    '0',
  );
});

test('nothing is sent to a player who has the game open', async () => {
  const ctx = await setup();
  const gus = await subscriber(ctx);
  const hana = await subscriber(ctx);
  gus.seat = 0;
  hana.seat = 1;
  const game = await rpsGame(ctx, [gus, hana], 600, 3);
  await waitFor(() => postsOf(ctx, gus, game).some((p) => p.body.event === 'waiting'), {
    what: 'gus waiting r1',
  });
  const ws = await HubClient.connect(ctx.server.wsUrl);
  ws.send({ type: 'auth', token: gus.token });
  ws.send({ type: 'subscribe', game });
  await ws.next('snapshot');
  for (const p of [gus, hana]) {
    const o = await ctx.call('PUT', `/api/v1/games/${game}/orders/r1`, {
      token: p.token,
      body: { throw: 'rock' },
    });
    assert.equal(o.status, 200, o.text);
  }
  await waitFor(
    () => postsOf(ctx, hana, game).some((p) => p.body.windows.some((w) => w.id === 'r2')),
    { what: 'hana waiting r2' },
  );
  await sleep(500);
  assert.deepEqual(
    postsOf(ctx, gus, game).map((p) => p.body.windows.map((w) => w.id).join()),
    ['r1', 'r1'],
    'gus: r1 only (started, waiting)',
  );
  assert.equal(mailsOf(ctx, gus, game).length, 2);
  // The page closed: the next window is announced again.
  ws.close();
  await sleep(300);
  for (const p of [gus, hana]) {
    const o = await ctx.call('PUT', `/api/v1/games/${game}/orders/r2`, {
      token: p.token,
      body: { throw: 'paper' },
    });
    assert.equal(o.status, 200, o.text);
  }
  await waitFor(
    () =>
      postsOf(ctx, gus, game).some(
        (p) => p.body.event === 'waiting' && p.body.windows.some((w) => w.id === 'r3'),
      ),
    { what: 'gus waiting r3' },
  );
});

test('a player who has the game open on another process is not told either', async () => {
  // Process B (ctx.server) plans every notification; process A shares its
  // database, serves gus's page and never plans (its notifier looks for
  // work once a minute). Only the presence A publishes keeps B quiet.
  const ctx = await setup();
  const a = await startServer({
    db: ctx.db,
    env: { ...ctx.senv, CONCLAVE_NOTIFY_TICK_MS: '60000' },
  });
  cleanups.push(() => a.stop('SIGKILL'));
  const gus = await subscriber(ctx);
  const hana = await subscriber(ctx);
  gus.seat = 0;
  hana.seat = 1;
  const game = await rpsGame(ctx, [gus, hana], 600, 3);
  await waitFor(() => postsOf(ctx, gus, game).some((p) => p.body.event === 'waiting'), {
    what: 'gus waiting r1',
  });
  const ws = await HubClient.connect(a.wsUrl);
  ws.send({ type: 'auth', token: gus.token });
  ws.send({ type: 'subscribe', game });
  await ws.next('snapshot');
  await waitFor(
    () =>
      psql(
        ctx.db,
        `SELECT count(*) FROM seat_presence WHERE game_id = '${game}' AND seat = 0 AND until > now()`,
      ) === '1',
    { what: 'A publishes gus as present' },
  );
  for (const p of [gus, hana]) {
    const o = await ctx.call('PUT', `/api/v1/games/${game}/orders/r1`, {
      token: p.token,
      body: { throw: 'rock' },
    });
    assert.equal(o.status, 200, o.text);
  }
  await waitFor(
    () => postsOf(ctx, hana, game).some((p) => p.body.windows.some((w) => w.id === 'r2')),
    { what: 'hana waiting r2' },
  );
  await sleep(500);
  assert.deepEqual(
    postsOf(ctx, gus, game).map((p) => p.body.windows.map((w) => w.id).join()),
    ['r1', 'r1'],
    'gus: r1 only (started, waiting)',
  );
  // The page closed on A: once its presence expires, gus is told again.
  ws.close();
  await waitFor(
    () =>
      psql(
        ctx.db,
        `SELECT count(*) FROM seat_presence WHERE game_id = '${game}' AND until > now()`,
      ) === '0',
    { timeout: 20000, what: 'the presence expires' },
  );
  for (const p of [gus, hana]) {
    const o = await ctx.call('PUT', `/api/v1/games/${game}/orders/r2`, {
      token: p.token,
      body: { throw: 'paper' },
    });
    assert.equal(o.status, 200, o.text);
  }
  await waitFor(
    () =>
      postsOf(ctx, gus, game).some(
        (p) => p.body.event === 'waiting' && p.body.windows.some((w) => w.id === 'r3'),
      ),
    { what: 'gus waiting r3' },
  );
});

test("a private message notifies its channel's other members only, one per channel per window", async () => {
  const ctx = await setup({ CONCLAVE_NOTIFY_MESSAGE_WINDOW: '4' });
  const rulesets = await ctx.call('GET', '/api/v1/rulesets');
  const ruleset = rulesets.body.find((x) => x.min_seats <= 3 && x.max_seats >= 3).id;
  const [ivy, jon, kim] = [await subscriber(ctx), await subscriber(ctx), await subscriber(ctx)];
  const lobby = await newLobby(ctx.call, ivy, { ruleset, seats: 3 }, [jon, kim]);
  const s = await ctx.call('POST', `/api/v1/lobbies/${lobby.id}/start`, { token: ivy.token });
  assert.equal(s.status, 201, s.text);
  const game = s.body.game;
  const g = await ctx.call('GET', `/api/v1/games/${game}`, { token: ivy.token });
  for (const p of [ivy, jon, kim])
    p.seat = g.body.seats.findIndex(
      (x) => x.player?.name === p.name || x.name === p.name || x.player_id === p.id,
    );
  assert.deepEqual(
    [ivy, jon, kim].map((p) => p.seat).sort(),
    [0, 1, 2],
    JSON.stringify(g.body.seats),
  );
  const chat = (p, method, path, body) =>
    ctx.call(method, `/api/v1/games/${game}/channels${path}`, { token: p.token, body });
  const all = await chat(ivy, 'POST', '', { seats: [jon.seat, kim.seat] });
  assert.ok(all.status === 201 || all.status === 200, all.text);
  const pair = await chat(kim, 'POST', '', { seats: [ivy.seat] });
  assert.ok(pair.status === 201 || pair.status === 200, pair.text);
  const [X, Y] = [all.body.id, pair.body.id];
  // A burst of 20 messages in X (10 each from Ivy and Jon), one in Y
  // (Kim to Ivy), and some in the public channel.
  for (let i = 0; i < 10; i++) {
    for (const p of [ivy, jon]) {
      const r = await chat(p, 'POST', `/${X}/messages`, { text: `burst ${p.name} ${i}` });
      assert.equal(r.status, 201, r.text);
    }
  }
  assert.equal((await chat(kim, 'POST', `/${Y}/messages`, { text: 'pssst-only-ivy' })).status, 201);
  assert.equal((await chat(kim, 'POST', '/0/messages', { text: 'hello all' })).status, 201);
  const msgs = (p) => postsOf(ctx, p, game).filter((x) => x.body.event === 'message');
  const mailMsgs = (p) =>
    mailsOf(ctx, p, game).filter(
      (m) => kindOf(header(m, 'Conclave-Notification-Id')) === 'message',
    );
  await waitFor(
    () =>
      msgs(ivy).length >= 2 &&
      msgs(jon).length >= 1 &&
      msgs(kim).length >= 1 &&
      mailMsgs(ivy).length >= 2,
    { what: 'message notifications' },
  );
  await sleep(1000);
  const chans = (p) =>
    msgs(p)
      .map((x) => x.body.detail.channel)
      .sort();
  assert.deepEqual(chans(ivy), [X, Y].sort(), "Ivy: one for X (Jon's ten), one for Y");
  assert.deepEqual(chans(jon), [X], "Jon: one for X (Ivy's ten), nothing of Y");
  assert.deepEqual(chans(kim), [X], 'Kim: one for twenty messages in X');
  assert.equal(mailMsgs(kim).length, 1, 'one mail for the burst');
  for (const p of [ivy, jon, kim]) {
    for (const x of msgs(p)) {
      assert.ok(verifies(x, p.secret));
      assert.ok(x.body.detail.messages.length >= 1);
      for (const m of x.body.detail.messages)
        assert.notEqual(m.from, p.seat, 'not told of its own message');
      assert.match(x.body.detail.messages[0].name, /^[A-Za-z0-9_-]+$/);
    }
  }
  const ivyY = msgs(ivy).find((x) => x.body.detail.channel === Y);
  assert.equal(ivyY.body.detail.messages[0].text, 'pssst-only-ivy');
  assert.ok(
    mailMsgs(ivy).some((m) => m.data.includes('pssst-only-ivy') && m.data.includes(kim.name)),
    'the mail carries the sender and the text',
  );
  for (const p of [jon, kim]) {
    const seen = [
      ...postsOf(ctx, p, game).map((x) => x.text),
      ...mailsOf(ctx, p, game).map((m) => m.data),
    ];
    assert.equal(
      seen.some((t) => t.includes('pssst-only-ivy')),
      false,
      `${p.name} is not in Y`,
    );
  }
  assert.equal(
    psql(
      ctx.db,
      `SELECT count(*) FROM notify_deliveries WHERE kind = 'message' AND body LIKE '%hello all%'`,
    ),
    '0',
    'the public channel notifies no one',
  );
  // After the window, the next message in X is announced again, except to
  // a player who has the game open (Jon, on a live WebSocket).
  const ws = await HubClient.connect(ctx.server.wsUrl);
  ws.send({ type: 'auth', token: jon.token });
  ws.send({ type: 'subscribe', game });
  await ws.next('snapshot');
  await sleep(4500);
  assert.equal(
    (await chat(kim, 'POST', `/${X}/messages`, { text: 'after the window' })).status,
    201,
  );
  await waitFor(
    () => msgs(ivy).some((x) => x.body.detail.messages.some((m) => m.text === 'after the window')),
    { what: 'ivy told again after the window' },
  );
  await sleep(800);
  assert.equal(msgs(jon).length, 1, 'nothing to Jon while the game is open');
  ws.close();
});

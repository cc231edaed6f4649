// coming_back.test.mjs - a person coming back to a game from a mail, against
// the real server and a local SMTP sink: the verification link opens a page
// (a GET, as a mail scanner makes, verifies nothing; the page's button, a
// POST, does; a second press says "already verified"); a signed-out player
// gets a one-time sign-in link by mail that lands them on the game as their
// seat, and a guest can secure the account to sign in elsewhere; the mails
// read as words (the game's name, the opponents, the step, the deadline in
// the player's own offset), carry a text and an HTML part and a working
// one-click unsubscribe (RFC 8058), and show nothing of the game's hidden
// state.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createDatabase, dropDatabase, startServer, waitFor } from './lib/server.mjs';
import { client, newPlayer, newLobby } from './lib/api.mjs';
import { smtpSink } from './lib/notify_sinks.mjs';

const cleanups = [];
after(async () => {
  for (const f of cleanups.reverse()) await f();
});

async function setup() {
  const smtp = smtpSink();
  await smtp.listen();
  const db = createDatabase('comeback');
  const server = await startServer({
    db,
    env: {
      CONCLAVE_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      CONCLAVE_NOTIFY_TICK_MS: '100',
      CONCLAVE_NOTIFY_RETRY_MS: '200',
      CONCLAVE_NOTIFY_WHEN_ACTIVE: '1',
      CONCLAVE_RATE: '1000000',
      CONCLAVE_RATE_BURST: '1000000',
    },
  });
  const ctx = { smtp, db, server, call: client(server.url) };
  cleanups.push(async () => {
    await server.stop('SIGKILL');
    await smtp.close();
    dropDatabase(db);
  });
  return ctx;
}

const mailTo = (ctx, addr, re) =>
  waitFor(() => ctx.smtp.mails.find((m) => m.to.some((t) => t.includes(addr)) && re.test(m.data)), {
    what: `a mail to ${addr} matching ${re}`,
  });

// Set p's address; returns the token of the verification mail.
async function askVerification(ctx, p, email) {
  const put = await ctx.call('PUT', '/api/v1/me/notifications', {
    token: p.token,
    body: { email },
  });
  assert.equal(put.status, 200, put.text);
  const mail = await mailTo(ctx, email, /verify\?token=/);
  const m = /https?:\/\/\S+(\/verify\?token=([0-9a-f]{64}))/.exec(mail.data);
  assert.ok(m, `the mail links to the page: ${mail.data}`);
  return { link: ctx.server.url + m[1], token: m[2] };
}

const verified = async (ctx, p) =>
  (await ctx.call('GET', '/api/v1/me/notifications', { token: p.token })).body.email_verified;

test('the verification link opens a page; only its button (a POST) verifies, and twice is fine', async () => {
  const ctx = await setup();
  const p = await newPlayer(ctx.call, { guest: true, prefix: 'v' });
  const email = `${p.name.toLowerCase()}@example.test`;
  const { link, token } = await askVerification(ctx, p, email);

  // What a mail scanner does: GET the link, and the old API link too.
  const page = await fetch(link);
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type'), /^text\/html/);
  assert.match(await page.text(), /<script type="module" src="\/app.js">/);
  const old = await ctx.call('GET', `/api/v1/notifications/verify?token=${token}`);
  assert.equal(old.status, 303);
  assert.equal(old.headers.get('location'), `/verify?token=${token}`);
  assert.equal(await verified(ctx, p), false, 'a GET verifies nothing');

  // The button.
  const first = await ctx.call('POST', '/api/v1/notifications/verify', { body: { token } });
  assert.equal(first.status, 200, first.text);
  assert.deepEqual(first.body, { email, email_verified: true, already_verified: false });
  assert.equal(await verified(ctx, p), true);
  const again = await ctx.call('POST', '/api/v1/notifications/verify', { body: { token } });
  assert.equal(again.status, 200, 'a second press is not an error');
  assert.equal(again.body.already_verified, true);

  // Unknown tokens, malformed bodies, and a token of an address since changed.
  const unknown = await ctx.call('POST', '/api/v1/notifications/verify', {
    body: { token: 'ab'.repeat(32) },
  });
  assert.equal(unknown.status, 404);
  const bad = await ctx.call('POST', '/api/v1/notifications/verify', { body: { token: 5 } });
  assert.equal(bad.status, 422, bad.text);
  const other = `${p.name.toLowerCase()}.two@example.test`;
  await askVerification(ctx, p, other);
  const stale = await ctx.call('POST', '/api/v1/notifications/verify', { body: { token } });
  assert.equal(stale.status, 404, 'the old token no longer confirms the new address');
  assert.equal(await verified(ctx, p), false);
});

// A verified address for p (through the page's button).
async function verifiedAddress(ctx, p) {
  const email = `${p.name.toLowerCase()}@example.test`;
  const { token } = await askVerification(ctx, p, email);
  const ok = await ctx.call('POST', '/api/v1/notifications/verify', { body: { token } });
  assert.equal(ok.status, 200, ok.text);
  return email;
}

async function rpsGame(ctx, host, guest, body = {}) {
  const lobby = await newLobby(
    ctx.call,
    host,
    { ruleset: 'rps', seats: 2, clock: { mode: 'async', seconds: 86400 }, ...body },
    [guest],
  );
  const s = await ctx.call('POST', `/api/v1/lobbies/${lobby.id}/start`, { token: host.token });
  assert.equal(s.status, 201, s.text);
  return s.body.game;
}

test('a guest secures the account and comes back to their seat on another device', async () => {
  const ctx = await setup();
  const host = await newPlayer(ctx.call, { prefix: 'h' });
  const guest = await newPlayer(ctx.call, { guest: true, prefix: 'g' });
  const game = await rpsGame(ctx, host, guest);
  const me = await ctx.call('GET', '/api/v1/me', { token: guest.token });
  assert.equal(me.body.guest, true);
  assert.equal((await ctx.call('GET', '/api/v1/me', { token: host.token })).body.guest, false);

  // Securing: a password (once), then sign-in by name works elsewhere.
  const short = await ctx.call('PUT', '/api/v1/me/password', {
    token: guest.token,
    body: { password: 'short' },
  });
  assert.equal(short.status, 422, short.text);
  const set = await ctx.call('PUT', '/api/v1/me/password', {
    token: guest.token,
    body: { password: 'a long enough secret' },
  });
  assert.equal(set.status, 204, set.text);
  const twice = await ctx.call('PUT', '/api/v1/me/password', {
    token: guest.token,
    body: { password: 'another long secret' },
  });
  assert.equal(twice.status, 409, 'a password is set once, not replaced by whoever holds a token');
  assert.equal((await ctx.call('GET', '/api/v1/me', { token: guest.token })).body.guest, false);
  const phone = await ctx.call('POST', '/api/v1/sessions', {
    body: { name: guest.name, password: 'a long enough secret' },
  });
  assert.equal(phone.status, 201, phone.text);
  const seen = await ctx.call('GET', `/api/v1/games/${game}`, { token: phone.body.token });
  assert.equal(seen.body.you, 1, 'the new device plays the seat');

  // A sign-in link by mail, to the verified address, back to the game.
  const email = await verifiedAddress(ctx, guest);
  const before = ctx.smtp.mails.length;
  const nobody = await ctx.call('POST', '/api/v1/sign-in-links', {
    body: { email: 'nobody@example.test', next: `/game/${game}` },
  });
  assert.equal(nobody.status, 202, 'the same answer for an unknown address');
  const asked = await ctx.call('POST', '/api/v1/sign-in-links', {
    body: { email: email.toUpperCase(), next: `/game/${game}` },
  });
  assert.equal(asked.status, 202, asked.text);
  assert.deepEqual(asked.body, nobody.body);
  const mail = await mailTo(ctx, email, /signin\?token=/);
  assert.ok(
    !ctx.smtp.mails.slice(before).some((m) => m.to.some((t) => t.includes('nobody@'))),
    'nothing goes to an unknown address',
  );
  const m = /https?:\/\/\S+(\/signin\?token=([0-9a-f]{64})&next=(\S+))/.exec(mail.data);
  assert.ok(m, mail.data);
  assert.equal(m[3], `/game/${game}`);
  const page = await fetch(ctx.server.url + m[1]);
  assert.match(page.headers.get('content-type'), /^text\/html/, 'the link opens the page');
  const used = await ctx.call('POST', '/api/v1/sign-in-links/redeem', { body: { token: m[2] } });
  assert.equal(used.status, 201, `a GET of the page used nothing: ${used.text}`);
  assert.equal(used.body.name, guest.name);
  assert.equal(used.body.next, `/game/${game}`);
  const asSeat = await ctx.call('GET', `/api/v1/games/${game}`, { token: used.body.token });
  assert.equal(asSeat.body.you, 1, 'the link lands on the game as the seat');
  const again = await ctx.call('POST', '/api/v1/sign-in-links/redeem', { body: { token: m[2] } });
  assert.equal(again.status, 404, 'a link signs in once');

  // Links lead only to this site's pages.
  for (const next of ['https://elsewhere.test/x', '//elsewhere', 'elsewhere', '/game/x?y=1'])
    assert.equal(
      (await ctx.call('POST', '/api/v1/sign-in-links', { body: { email, next } })).status,
      422,
      next,
    );
});

const header = (mail, name) => (new RegExp(`^${name}: (.*)$`, 'mi').exec(mail.data) || [])[1];

// The parts of a multipart/alternative mail: {type: text}.
function parts(mail) {
  const b = /boundary="([^"]+)"/.exec(mail.data);
  assert.ok(b, 'a multipart mail');
  const out = {};
  for (const chunk of mail.data.split(`--${b[1]}`).slice(1, -1)) {
    const [head, ...rest] = chunk.split('\r\n\r\n');
    const type = /Content-Type: ([a-z/]+)/i.exec(head)[1];
    out[type] = rest.join('\r\n\r\n');
  }
  return out;
}

test('mails read as words, in the player own offset, with a text and an HTML part and one-click unsubscribe', async () => {
  const ctx = await setup();
  const alice = await newPlayer(ctx.call, { guest: true, prefix: 'ma' });
  const bob = await newPlayer(ctx.call, { guest: true, prefix: 'mb' });
  const email = await verifiedAddress(ctx, alice);
  const put = await ctx.call('PUT', '/api/v1/me/notifications', {
    token: alice.token,
    body: { utc_offset: 90, reminder_seconds: 55 },
  });
  assert.equal(put.status, 200, put.text);
  const game = await rpsGame(ctx, alice, bob, { clock: { mode: 'live', seconds: 60 } });
  // Bob throws at once: nothing of it may reach Alice's mails.
  const o = await ctx.call('PUT', `/api/v1/games/${game}/orders/r1`, {
    token: bob.token,
    body: { throw: 'scissors' },
  });
  assert.equal(o.status, 200, o.text);
  const ofGame = (kind) =>
    ctx.smtp.mails.find(
      (m) =>
        m.to.some((t) => t.includes(email)) &&
        (header(m, 'Conclave-Notification-Id') || '').startsWith(`${game}:`) &&
        header(m, 'Conclave-Notification-Id').split(':')[3] === kind,
    );
  const waiting = await waitFor(() => ofGame('waiting'), { what: 'the waiting mail' });
  const reminder = await waitFor(() => ofGame('reminder'), {
    timeout: 20000,
    what: 'the reminder, after bob threw',
  });

  const subject = header(waiting, 'Subject');
  assert.equal(subject, `Your move: Rock-paper-scissors with ${bob.name}`);
  for (const mail of [waiting, reminder]) {
    assert.match(header(mail, 'Content-Type'), /^multipart\/alternative; boundary=/);
    const { 'text/plain': text, 'text/html': html } = parts(mail);
    assert.ok(text && html, 'a text and an HTML part');
    assert.match(text, new RegExp(`Rock-paper-scissors with ${bob.name}, where you play seat 1`));
    assert.match(
      text,
      /Waiting on you: Round 1: your throw, by \w{3} \d+ \w{3} \d{4}, \d\d:\d\d \(UTC\+01:30\)\./,
    );
    assert.doesNotMatch(
      text,
      /\d\d:\d\d:\d\d|\.\d{3}Z|\brps\b|Game: /,
      'no id, key or raw timestamp',
    );
    assert.doesNotMatch(
      (text + html).replaceAll('Rock-paper-scissors', ''),
      /scissors/i,
      "nothing of bob's sealed throw",
    );
    assert.match(html, /<a href="http[^"]+\/game\/[^"]+">/);
    assert.match(header(mail, 'List-Unsubscribe-Post'), /^List-Unsubscribe=One-Click$/);
  }
  // The deadline in her offset: the window's deadline plus 90 minutes.
  const g = await ctx.call('GET', `/api/v1/games/${game}`, {
    token: alice.token,
  });
  const due = new Date(Date.parse(g.body.windows[0].deadline) + 90 * 60000);
  const hhmm = `${String(due.getUTCHours()).padStart(2, '0')}:${String(due.getUTCMinutes()).padStart(2, '0')}`;
  assert.match(parts(waiting)['text/plain'], new RegExp(`, ${hhmm} \\(UTC\\+01:30\\)`));

  // One click, as a mail client does it (RFC 8058), on the header's URL.
  const url = /^<(https?:\/\/[^>]+)>$/.exec(header(waiting, 'List-Unsubscribe'));
  assert.ok(url, header(waiting, 'List-Unsubscribe'));
  const path = new URL(url[1]).pathname + new URL(url[1]).search;
  assert.match(
    parts(waiting)['text/plain'],
    new RegExp(`Unsubscribe: \\S+${path.replace(/[?]/g, '\\?')}`),
  );
  const page = await fetch(ctx.server.url + path);
  assert.match(page.headers.get('content-type'), /^text\/html/, 'the link is a page for a person');
  const one = await fetch(ctx.server.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
  });
  assert.equal(one.status, 200, await one.text());
  const after = await ctx.call('GET', '/api/v1/me/notifications', { token: alice.token });
  assert.equal(after.body.email, null, 'no more mail');
  const twice = await fetch(ctx.server.url + path, {
    method: 'POST',
    body: 'List-Unsubscribe=One-Click',
  });
  assert.equal(twice.status, 200, 'twice is fine');
  const wrong = await fetch(`${ctx.server.url}/unsubscribe?token=${'0'.repeat(48)}`, {
    method: 'POST',
  });
  assert.equal(wrong.status, 404);
});

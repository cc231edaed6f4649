// coming_back.test.mjs - a person coming back to a game, in Chromium, with a
// local SMTP sink: the verification page confirms only by its button (and
// says "already verified" the second time); a guest secures the account on
// the settings page; a signed-out visitor of a game page asks for a sign-in
// link by mail (or signs in with the password) and lands on the game as
// their seat, the "Your move" bar naming the step in words. A finished game
// is stepped through move by move. (That nothing covers the table is
// coming_back_tables.test.mjs, which runs beside this file.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { http, waitFor } from '../integration/lib/server.mjs';
import { newPlayer, newGame } from '../integration/lib/ws.mjs';
import { smtpSink } from '../integration/lib/notify_sinks.mjs';
import {
  chromiumPath,
  pageUrl,
  shot,
  waitLive,
  startStack,
  stopStack,
  watchedPage,
  signInAs,
} from './lib/browser.mjs';

const skip = chromiumPath() ? false : 'no Chromium installed';
let db, server, chrome, smtp;

before(async () => {
  if (skip) return;
  smtp = smtpSink();
  await smtp.listen();
  ({ db, server, chrome } = await startStack('comeback', {
    CONCLAVE_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    CONCLAVE_NOTIFY_TICK_MS: '100',
    CONCLAVE_NOTIFY_RETRY_MS: '200',
  }));
});
after(async () => {
  await stopStack({ db, server, chrome });
  if (smtp) await smtp.close();
});

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true };
const DESKTOP = { viewport: { width: 1280, height: 800 } };

async function rest(method, p, token, body) {
  const r = await http(server.url, method, p, { token, body });
  assert.ok(r.status < 300, `${method} ${p}: ${r.status} ${r.text}`);
  return r.body;
}

const mailTo = (addr, re) =>
  waitFor(() => smtp.mails.find((m) => m.to.some((t) => t.includes(addr)) && re.test(m.data)), {
    what: `a mail to ${addr}`,
  });

// The path and query of the first link to `page` in a mail.
const linkIn = (mail, page) => {
  const m = new RegExp(`https?://[^/\\s]+(/${page}\\?\\S+)`).exec(mail.data);
  assert.ok(m, `a /${page} link in ${mail.data}`);
  return m[1];
};

test(
  'verify by the button; a guest secures the account; a mailed link brings them back to their seat',
  { skip, timeout: 180000 },
  async () => {
    const guest = await newPlayer(server.url, 'Gwen');
    const host = await newPlayer(server.url, 'Hal');
    const game = await newGame(server.url, 'rps', [host, guest], {
      clock: { mode: 'async', seconds: 86400 },
    });
    const email = `${guest.name.toLowerCase()}@example.test`;
    await rest('PUT', '/api/v1/me/notifications', guest.token, { email });
    const verifyPath = linkIn(await mailTo(email, /verify\?token=/), 'verify');

    // The verification page: opening it changes nothing; the button does.
    const { page: v, errors: vErrors } = await watchedPage(chrome.browser, DESKTOP);
    await v.goto(pageUrl(server, verifyPath));
    await v.getByRole('heading', { level: 1, name: 'Confirm your email address' }).waitFor();
    assert.equal(
      (await rest('GET', '/api/v1/me/notifications', guest.token)).email_verified,
      false,
    );
    await v.getByRole('button', { name: 'Confirm my address' }).click();
    await v.locator('[data-testid="verify-status"][data-state="verified"]').waitFor();
    assert.equal((await rest('GET', '/api/v1/me/notifications', guest.token)).email_verified, true);
    await v.reload();
    await v.getByRole('button', { name: 'Confirm my address' }).click();
    await v.locator('[data-testid="verify-status"][data-state="already"]').waitFor();
    assert.match(
      await v.locator('[data-testid="verify-status"]').textContent(),
      /already verified/,
    );
    await shot(v, 'comeback-verify');
    assert.deepEqual(vErrors, [], 'no console errors');

    // The guest secures the account on the settings page.
    const { page: s } = await watchedPage(chrome.browser, DESKTOP);
    await signInAs(s, server, guest);
    await s.goto(pageUrl(server, '/settings'));
    const secure = s.locator('[data-testid="secure-account"]');
    await secure.waitFor();
    await secure.getByLabel('New password').fill('a long enough secret');
    await secure.getByRole('button', { name: 'Secure my account' }).click();
    await s.locator('[data-testid="secured"]').waitFor();
    assert.equal((await rest('GET', '/api/v1/me', guest.token)).guest, false);

    // Another device, signed out, opens the game's link: asked to sign in.
    const { page: phone, errors: phoneErrors } = await watchedPage(chrome.browser, PHONE);
    await phone.goto(pageUrl(server, `/game/${game}`));
    const box = phone.locator('[data-testid="seat-signin"]');
    await box.waitFor();
    await shot(phone, 'comeback-signed-out-phone');
    await box.getByLabel('Or mail me a sign-in link').fill(email);
    await box.getByRole('button', { name: 'Send the link' }).click();
    await box.locator('[data-testid="seat-link-status"]', { hasText: 'on its way' }).waitFor();
    const signinPath = linkIn(await mailTo(email, /signin\?token=/), 'signin');
    assert.ok(signinPath.endsWith(`next=/game/${game}`), signinPath);
    await phone.goto(pageUrl(server, signinPath));
    await phone.getByRole('button', { name: 'Sign in on this device' }).click();
    await phone.waitForURL(new RegExp(`/game/${game}`));
    await phone.waitForFunction(
      (n) => window.conclave.me && window.conclave.me.name === n,
      guest.name,
    );
    await box.waitFor({ state: 'detached' });
    // As the seat: the game waits on it, named in words in "Your move".
    const inbox = phone.locator('[data-testid="inbox"]');
    await inbox.locator(`li[data-game-id="${game}"]`).waitFor();
    assert.match(await inbox.textContent(), /Round 1: your throw/);
    assert.doesNotMatch(await inbox.textContent(), /· r1\b/);
    const you = await phone.evaluate(
      async (g) =>
        (
          await (
            await fetch(`/api/v1/games/${g}`, {
              headers: { authorization: `Bearer ${localStorage.getItem('conclave.token')}` },
            })
          ).json()
        ).you,
      game,
    );
    assert.equal(you, 1, 'the page plays the seat, not a spectator');
    await shot(phone, 'comeback-back-at-seat-phone');
    assert.deepEqual(phoneErrors, [], 'no console errors');

    // And the password works from a third device, through the same box.
    const { page: desk } = await watchedPage(chrome.browser, DESKTOP);
    await desk.goto(pageUrl(server, `/game/${game}`));
    const box2 = desk.locator('[data-testid="seat-signin"]');
    await box2.getByLabel('Name').fill(guest.name);
    await box2.getByLabel('Password').fill('a long enough secret');
    await box2.getByRole('button', { name: 'Sign in', exact: true }).click();
    await desk.waitForFunction(
      (n) => window.conclave.me && window.conclave.me.name === n,
      guest.name,
    );
    await box2.waitFor({ state: 'detached' });
  },
);

test(
  'a finished game is stepped through move by move in the page',
  { skip, timeout: 120000 },
  async () => {
    const alice = await newPlayer(server.url, 'Rae');
    const bob = await newPlayer(server.url, 'Rob');
    const game = await newGame(server.url, 'rps', [alice, bob], { options: { rounds: 1 } });
    await rest('PUT', `/api/v1/games/${game}/orders/r1`, alice.token, { throw: 'paper' });
    await rest('PUT', `/api/v1/games/${game}/orders/r1`, bob.token, { throw: 'rock' });
    const { page, errors } = await watchedPage(chrome.browser, PHONE);
    await signInAs(page, server, bob);
    await page.goto(pageUrl(server, `/game/${game}`));
    await waitLive(page);
    await page.getByTestId('replay-open').click();
    const pos = page.getByTestId('replay-pos');
    await pos.filter({ hasText: 'Move 0 of 2' }).waitFor();
    const table = async () =>
      (await page.locator('#main').textContent()).replace(/Rock-paper-scissors/gi, '');
    await page.getByTestId('replay-forward').click();
    await pos.filter({ hasText: 'Move 1 of 2' }).waitFor();
    await page.waitForTimeout(200);
    assert.doesNotMatch(await table(), /paper/i, "alice's sealed throw is not in bob's replay");
    await shot(page, 'comeback-replay-1-phone');
    await page.getByTestId('replay-latest').click();
    await pos.filter({ hasText: 'Move 2 of 2' }).waitFor();
    await page.waitForFunction(() =>
      /paper/i.test(
        document.querySelector('#main').textContent.replace(/Rock-paper-scissors/gi, ''),
      ),
    );
    // Back one move hides the throw again; Start goes to move 0; the arrow
    // keys step from where the focus is.
    await page.getByTestId('replay-back').click();
    await pos.filter({ hasText: 'Move 1 of 2' }).waitFor();
    await page.waitForTimeout(200);
    assert.doesNotMatch(await table(), /paper/i, 'back one move: the throw is sealed again');
    await page.getByTestId('replay-start').click();
    await pos.filter({ hasText: 'Move 0 of 2' }).waitFor();
    await page.getByTestId('replay-forward').focus();
    await page.keyboard.press('ArrowRight');
    await pos.filter({ hasText: 'Move 1 of 2' }).waitFor();
    await page.keyboard.press('ArrowRight');
    await pos.filter({ hasText: 'Move 2 of 2' }).waitFor();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowLeft');
    await pos.filter({ hasText: 'Move 1 of 2' }).waitFor();
    await page.getByTestId('replay-close').click();
    await pos.waitFor({ state: 'detached' });
    const w = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    assert.ok(w[0] <= w[1], 'the controls fit a phone');
    assert.deepEqual(errors, [], 'no console errors');
    await page.context().close();

    // A running game: its player replays up to now (round 1 revealed at
    // move 2, nothing of bob's before); a spectator gets no Replay.
    const live = await newGame(server.url, 'rps', [alice, bob], { options: { rounds: 3 } });
    await rest('PUT', `/api/v1/games/${live}/orders/r1`, alice.token, { throw: 'paper' });
    await rest('PUT', `/api/v1/games/${live}/orders/r1`, bob.token, { throw: 'rock' });
    await rest('PUT', `/api/v1/games/${live}/orders/r2`, alice.token, { throw: 'scissors' });
    const seat = await watchedPage(chrome.browser, PHONE);
    await signInAs(seat.page, server, alice);
    await seat.page.goto(pageUrl(server, `/game/${live}`));
    await waitLive(seat.page);
    await seat.page.getByTestId('replay-open').click();
    const livePos = seat.page.getByTestId('replay-pos');
    await livePos.filter({ hasText: 'Move 0 of 3' }).waitFor();
    await seat.page.getByTestId('replay-latest').click();
    await livePos.filter({ hasText: 'Move 3 of 3' }).waitFor();
    const seatTable = async () =>
      (await seat.page.locator('#main').textContent()).replace(/Rock-paper-scissors/gi, '');
    await seat.page.waitForFunction(() => /Round 2 of 3/.test(document.body.textContent));
    assert.match(await seatTable(), /rock/i, "round 1's throws, revealed at move 2");
    await shot(seat.page, 'comeback-replay-running-phone');
    await seat.page.getByTestId('replay-start').click();
    await livePos.filter({ hasText: 'Move 0 of 3' }).waitFor();
    await seat.page.getByTestId('replay-forward').click();
    await livePos.filter({ hasText: 'Move 1 of 3' }).waitFor();
    await seat.page.waitForTimeout(200);
    assert.doesNotMatch(
      await seatTable(),
      /rock/i,
      "at move 1 bob's throw is not in alice's replay",
    );
    assert.deepEqual(seat.errors, [], "no console errors in a running game's replay");
    await seat.page.context().close();
    const watcher = await newPlayer(server.url, 'Wes');
    const sp = await watchedPage(chrome.browser, PHONE);
    await signInAs(sp.page, server, watcher);
    await sp.page.goto(pageUrl(server, `/game/${live}`));
    await waitLive(sp.page);
    assert.equal(
      await sp.page.getByTestId('replay-open').count(),
      0,
      'a spectator of a running game has no replay',
    );
    await sp.page.context().close();
  },
);

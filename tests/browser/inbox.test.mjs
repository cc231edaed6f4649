// inbox.test.mjs - the "your move" inbox at the top of the page: a player
// signed in on the page sees, above the screen, the windows of their async
// games that wait on them (live, as games start and orders go in) with their
// count in the tab title; ordering through the API empties it again; a
// phone-sized page shows it too. Seated players' reputation shows in a
// lobby.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { http } from '../integration/lib/server.mjs';
import {
  chromiumPath,
  openPage,
  pageUrl,
  shot,
  signUpGuest,
  startStack,
  stopStack,
} from './lib/browser.mjs';

const skip = chromiumPath() ? false : 'no Chromium installed';
let db, server, chrome;

before(async () => {
  if (!skip) ({ db, server, chrome } = await startStack('inbox'));
});
after(() => stopStack({ db, server, chrome }));

async function rest(method, p, token, body) {
  const r = await http(server.url, method, p, { token, body });
  assert.ok(r.status < 300, `${method} ${p}: ${r.status} ${r.text}`);
  return r.body;
}

// An async rps game hosted by host with guest seated; returns its id.
async function asyncGame(host, guest) {
  const l = await rest('POST', '/api/v1/lobbies', host, {
    ruleset: 'rps',
    seats: 2,
    clock: { mode: 'async', seconds: 86400 },
  });
  await rest('POST', `/api/v1/lobbies/${l.id}/seats`, guest, {});
  return (await rest('POST', `/api/v1/lobbies/${l.id}/start`, host)).game;
}

test(
  'the inbox sits at the top of the page, live, with its count in the tab title',
  { skip, timeout: 120000 },
  async () => {
    const { page } = await openPage(chrome.browser);
    await signUpGuest(page, server, 'Inbox-reader');
    const me = await page.evaluate(() => window.conclave.me);
    const token = await page.evaluate(() => Object.values(localStorage).find((v) => v.length > 30));
    assert.ok(token, 'the page keeps a token');
    const bob = await rest('POST', '/api/v1/players', undefined, { name: 'inbox_bob' });
    const inbox = page.locator('[data-testid="inbox"]');
    assert.equal(await inbox.isHidden(), true, 'nothing waits yet: no inbox');
    assert.doesNotMatch(await page.title(), /^\(/);

    const g1 = await asyncGame(bob.token, token);
    await inbox.locator(`li[data-game-id="${g1}"]`).waitFor();
    await page.waitForFunction(() => document.title.startsWith('(1) '));
    const g2 = await asyncGame(token, bob.token);
    await inbox.locator(`li[data-game-id="${g2}"]`).waitFor();
    await page.waitForFunction(() => document.title.startsWith('(2) '));
    assert.equal(await page.locator('[data-testid="inbox-count"]').textContent(), '2');
    // at the top: above the screen's content
    const box = await inbox.boundingBox();
    const mainBox = await page.locator('#main').boundingBox();
    assert.ok(box.y < mainBox.y, 'the inbox is above the main content');
    assert.match(await inbox.textContent(), /Rock/i);
    assert.match(await inbox.textContent(), /due in 23 h/);
    await shot(page, 'inbox-desktop');

    // The link opens the game; the title keeps the count on the game page.
    await inbox.locator(`li[data-game-id="${g1}"] a`).click();
    await page.waitForURL(new RegExp(`/game/${g1}`));
    await page.waitForFunction(() => /^\(2\) /.test(document.title) && document.title.length > 6);

    // An order through the API takes the window off, live.
    await rest('PUT', `/api/v1/games/${g1}/orders/r1`, token, { throw: 'rock' });
    await inbox.locator(`li[data-game-id="${g1}"]`).waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.title.startsWith('(1) '));
    await rest('PUT', `/api/v1/games/${g2}/orders/r1`, token, { throw: 'paper' });
    await inbox.waitFor({ state: 'hidden' });
    await page.waitForFunction(() => !/^\(\d+\) /.test(document.title));

    // A phone sees it too.
    const phone = await openPage(chrome.browser, {
      viewport: { width: 390, height: 844 },
      isMobile: true,
    });
    await phone.context.addInitScript(
      (kv) => {
        for (const [k, v] of kv) localStorage.setItem(k, v);
      },
      await page.evaluate(() => Object.entries(localStorage)),
    );
    const g3 = await asyncGame(bob.token, token);
    await phone.page.goto(pageUrl(server, '/'));
    await phone.page.locator(`[data-testid="inbox"] li[data-game-id="${g3}"]`).waitFor();
    await phone.page.waitForFunction(() => document.title.startsWith('(1) '));
    await shot(phone.page, 'inbox-phone');

    // Reputation: the reader answered two windows; a lobby shows it.
    const l = await rest('POST', '/api/v1/lobbies', token, {
      ruleset: 'rps',
      seats: 2,
      clock: { mode: 'async', seconds: 600 },
    });
    await page.goto(pageUrl(server, `/lobby/${l.id}`));
    const rep = page
      .locator('.seat-row', { hasText: me.name })
      .locator('[data-testid="reputation"]');
    await rep.waitFor();
    assert.match(await rep.textContent(), /answers in [0-9:]+ \(median\) · missed 0/);
    assert.deepEqual(page.problems, []);
    assert.deepEqual(phone.page.problems, []);
  },
);

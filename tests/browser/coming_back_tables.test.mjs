// coming_back_tables.test.mjs - nothing covers the table, for a person
// coming back to a game (split from coming_back.test.mjs, so that each file
// stays short): on every table at 1280x800 and 390x844, the "Talk" button's
// box meets none of the table's buttons or cards, the page never scrolls
// sideways, it has an h1, and the console stays free of errors; the lobby
// pages have their h1 and fit a phone.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { http } from '../integration/lib/server.mjs';
import { newPlayer, newGame } from '../integration/lib/ws.mjs';
import {
  chromiumPath,
  pageUrl,
  shot,
  waitLive,
  startStack,
  stopStack,
  coveredByTalk,
  watchedPage,
  signInAs,
} from './lib/browser.mjs';

const skip = chromiumPath() ? false : 'no Chromium installed';
let db, server, chrome;

before(async () => {
  if (skip) return;
  ({ db, server, chrome } = await startStack('comebackt'));
});
after(() => stopStack({ db, server, chrome }));

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true };
const DESKTOP = { viewport: { width: 1280, height: 800 } };

test(
  'nothing covers the table: Talk is docked, no sideways scroll, an h1, no console errors',
  { skip, timeout: 400000 },
  async () => {
    const rulesets = (await http(server.url, 'GET', '/api/v1/rulesets')).body;
    for (const id of ['tictactoe', 'rps', 'sprint', 'skirmish', 'starbase', 'council']) {
      const rs = rulesets.find((r) => r.id === id);
      assert.ok(rs, id);
      const seats = Math.max(2, rs.min_seats);
      const players = [];
      for (let i = 0; i < seats; i++) players.push(await newPlayer(server.url, `L${i}`));
      const game = await newGame(server.url, id, players);
      for (const [size, opts] of [
        ['desktop', DESKTOP],
        ['phone', PHONE],
      ]) {
        const { page, errors } = await watchedPage(chrome.browser, opts);
        await signInAs(page, server, players[0]);
        await page.goto(pageUrl(server, `/game/${game}`));
        await waitLive(page);
        await page.locator('.chat-toggle').waitFor();
        await page.locator('#main button:not(.chat-toggle):not(.howto-open)').first().waitFor();
        await page.waitForTimeout(500); // the table's late parts (legal, log)
        await shot(page, `comeback-table-${id}-${size}`);
        assert.deepEqual(await coveredByTalk(page), [], `${id} ${size}: Talk covers nothing`);
        const w = await page.evaluate(() => [
          document.documentElement.scrollWidth,
          window.innerWidth,
        ]);
        assert.ok(w[0] <= w[1], `${id} ${size}: scrollWidth ${w[0]} > ${w[1]}`);
        assert.ok((await page.locator('h1').count()) >= 1, `${id} ${size}: an h1`);
        assert.deepEqual(errors, [], `${id} ${size}: console errors`);
        await page.context().close();
      }
    }
    // The lobby pages have their h1, and fit a phone.
    const { page } = await watchedPage(chrome.browser, PHONE);
    await page.goto(pageUrl(server, '/'));
    await page.locator('h1').first().waitFor({ state: 'attached' });
    const w = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    assert.ok(w[0] <= w[1], `home: scrollWidth ${w[0]} > ${w[1]}`);
  },
);

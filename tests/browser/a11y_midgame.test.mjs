// a11y_midgame.test.mjs - every table after a few turns passes axe-core (no
// serious or critical violation) at 1280x800 and 390x844, in the light
// theme and in the dark one (prefers-color-scheme: dark, which the page
// follows), no table scrolls sideways, and the Talk button covers none of
// the table's buttons, cards or labels (lib/a11y_tables.mjs). One human seat
// plays from its /legal answer; the other seats are bots. This file has
// tic-tac-toe, rps and Sprint, the home page and the theme; the card and
// map tables are a11y_midgame_cards.test.mjs (Skirmish, Starbase) and
// a11y_midgame_council.test.mjs (files that each stay short and run side
// by side).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { http } from '../integration/lib/server.mjs';
import { chromiumPath, openPage, pageUrl, startStack, stopStack } from './lib/browser.mjs';
import { axeViolations } from './lib/axe.mjs';
import { checkTables } from './lib/a11y_tables.mjs';

const skip = chromiumPath() ? false : 'no Chromium installed';
let db, server, chrome;

before(async () => {
  if (!skip) ({ db, server, chrome } = await startStack('a11y'));
});
after(() => stopStack({ db, server, chrome }));

const TABLES = [
  ['tictactoe', ['random']],
  ['rps', ['random']],
  ['sprint', []],
];

test(
  'the board tables mid-game pass axe-core in the light and the dark theme, at desktop and phone sizes',
  { skip, timeout: 600000 },
  async () => {
    const found = await checkTables(server, chrome, TABLES, 37);
    // The lobby pages too, in both themes.
    for (const colorScheme of ['light', 'dark']) {
      const { page, context } = await openPage(chrome.browser, {
        viewport: { width: 390, height: 844 },
        isMobile: true,
      });
      await page.emulateMedia({ colorScheme });
      await page.goto(pageUrl(server, '/'));
      await page.locator('section.create, h2#guest-h').first().waitFor();
      for (const v of await axeViolations(page))
        found.push(`home ${colorScheme}: ${v.id} (${v.help}) at ${v.targets.join(', ')}`);
      await context.close();
    }
    assert.deepEqual(found, [], `axe-core finds:\n${found.join('\n')}`);
  },
);

test('the page follows prefers-color-scheme', { skip, timeout: 60000 }, async () => {
  const bg = {};
  for (const colorScheme of ['light', 'dark']) {
    const { page, context } = await openPage(chrome.browser);
    await page.emulateMedia({ colorScheme });
    await page.goto(pageUrl(server, '/'));
    bg[colorScheme] = await page.evaluate(() => {
      const [r, g, b] = getComputedStyle(document.documentElement)
        .backgroundColor.match(/\d+/g)
        .map(Number);
      return (r + g + b) / 3;
    });
    await context.close();
  }
  assert.ok(bg.light > 180, `a light page (${bg.light})`);
  assert.ok(bg.dark < 70, `a dark page (${bg.dark})`);
  const r = await http(server.url, 'GET', '/');
  assert.match(r.text, /<meta name="color-scheme" content="light dark"/);
});

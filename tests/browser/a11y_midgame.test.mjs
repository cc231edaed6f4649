// a11y_midgame.test.mjs - every table after a few turns passes axe-core (no
// serious or critical violation) at 1280x800 and 390x844, in the light
// theme and in the dark one (prefers-color-scheme: dark, which the page
// follows), no table scrolls sideways, and the Talk button covers none of
// the table's buttons, cards or labels. One human seat plays from its
// /legal answer; the other seats are bots.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { http } from '../integration/lib/server.mjs';
import { client, newPlayer, newGame } from '../integration/lib/api.mjs';
import { seeded } from '../integration/lib/random.mjs';
import {
  chromiumPath,
  openPage,
  pageUrl,
  shot,
  waitLive,
  startStack,
  stopStack,
  coveredByTalk,
} from './lib/browser.mjs';
import { axeViolations, assertNoHorizontalScroll } from './lib/axe.mjs';

const skip = chromiumPath() ? false : 'no Chromium installed';
let db, server, chrome;

before(async () => {
  if (!skip) ({ db, server, chrome } = await startStack('a11y'));
});
after(() => stopStack({ db, server, chrome }));

// Up to `turns` inputs of the human seat, each one of its legal choices
// (plays before passes); returns how many were accepted.
async function playTurns(call, game, p, turns, rnd) {
  let made = 0;
  for (let tries = 0; made < turns && tries < 4 * turns; tries++) {
    const g = (await call('GET', `/api/v1/games/${game}`, { token: p.token })).body;
    if (g.status !== 'running') break;
    const lg = await call('GET', `/api/v1/games/${game}/legal`, { token: p.token });
    const win = lg.status === 200 ? (lg.body.windows || [])[0] : null;
    if (!win) {
      await new Promise((r) => setTimeout(r, 200)); // the bots' turn
      continue;
    }
    const choices = (win.choices || []).filter((c) => c.action !== 'forfeit');
    const plays = choices.filter((c) => c.action !== 'pass');
    const pick = (list) => list[Math.floor(rnd() * list.length)];
    let r;
    if (win.kind === 'order') {
      const body = choices.length ? { ...pick(choices) } : {};
      if (win.ready_part) body.ready = true;
      r = await call('PUT', `/api/v1/games/${game}/orders/${win.window}`, {
        token: p.token,
        body,
        check: false,
      });
      // A choice that needs more than the list says (Sprint's payment):
      // the order every seat can always make.
      for (const fallback of [{ action: 'explore' }, {}]) {
        if (r.status !== 422) break;
        r = await call('PUT', `/api/v1/games/${game}/orders/${win.window}`, {
          token: p.token,
          body: win.ready_part ? { ...fallback, ready: true } : fallback,
          check: false,
        });
      }
    } else {
      const body = pick(plays.length && rnd() < 0.7 ? plays : choices) || { action: 'pass' };
      r = await call('POST', `/api/v1/games/${game}/plays`, {
        token: p.token,
        body: { window: win.window, ...body },
        headers: { 'idempotency-key': `a11y-${game}-${tries}` },
        check: false,
      });
    }
    if (r.status < 300) made++;
  }
  return made;
}

const TABLES = [
  ['tictactoe', ['random']],
  ['rps', ['random']],
  ['sprint', []],
  ['skirmish', ['basic']],
  ['starbase', ['basic']],
  ['council', ['basic', 'basic']],
];

test(
  'every table mid-game passes axe-core in the light and the dark theme, at desktop and phone sizes',
  { skip, timeout: 600000 },
  async () => {
    const call = client(server.url);
    const rnd = seeded(37);
    const found = [];
    for (const [ruleset, bots] of TABLES) {
      const p = await newPlayer(call, { guest: true, prefix: 'ax' });
      const game = await newGame(call, ruleset, [p], { bots });
      const made = await playTurns(call, game, p, 4, rnd);
      assert.ok(made >= 1, `${ruleset}: a few turns were played (${made})`);
      for (const colorScheme of ['light', 'dark']) {
        for (const [size, viewport, isMobile] of [
          ['desktop', { width: 1280, height: 800 }, false],
          ['phone', { width: 390, height: 844 }, true],
        ]) {
          const { page, context } = await openPage(chrome.browser, { viewport, isMobile });
          await page.emulateMedia({ colorScheme });
          await page.goto(pageUrl(server, '/'));
          await page.evaluate(
            ([t, n]) => {
              localStorage.setItem('conclave.token', t);
              localStorage.setItem('conclave.name', n);
            },
            [p.token, p.name],
          );
          await page.goto(pageUrl(server, `/game/${game}`));
          await waitLive(page);
          await page.locator('.chat-toggle').waitFor();
          await page.waitForTimeout(700);
          const what = `${ruleset} ${size} ${colorScheme}`;
          await shot(page, `a11y-${ruleset}-${size}-${colorScheme}`);
          for (const v of await axeViolations(page))
            found.push(`${what}: ${v.id} (${v.help}) at ${v.targets.join(', ')}: ${v.detail}`);
          await assertNoHorizontalScroll(page, what);
          found.push(...(await coveredByTalk(page)).map((x) => `${what}: Talk covers ${x}`));
          await context.close();
        }
      }
    }
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

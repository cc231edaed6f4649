// a11y_tables.mjs - the check every table's accessibility test shares
// (a11y_midgame.test.mjs, a11y_midgame_cards.test.mjs and
// a11y_midgame_council.test.mjs, split so that each file stays short): a
// game of each ruleset after a few turns of one human seat (its moves from
// /legal), the others bots, opened at 1280x800 and 390x844 in the light and
// the dark theme; axe-core (no serious or
// critical violation), no sideways scroll, the Talk button covering
// nothing. Returns what it found, one line each.
import assert from 'node:assert/strict';
import { client, newPlayer, newGame } from '../../integration/lib/api.mjs';
import { seeded } from '../../integration/lib/random.mjs';
import { openPage, pageUrl, shot, waitLive, coveredByTalk, signInAs } from './browser.mjs';
import { axeViolations, assertNoHorizontalScroll } from './axe.mjs';

// Up to `turns` inputs of the human seat, each one of its legal choices
// (plays before passes); returns how many were accepted.
export async function playTurns(call, game, p, turns, rnd) {
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

// tables: [[ruleset, bot levels]]; seed: the moves' random stream.
export async function checkTables(server, chrome, tables, seed) {
  const call = client(server.url);
  const rnd = seeded(seed);
  const found = [];
  for (const [ruleset, bots] of tables) {
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
        await signInAs(page, server, p);
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
  return found;
}

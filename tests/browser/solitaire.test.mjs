// solitaire.test.mjs - a new player opens the page, picks a name, creates a
// one-seat Galactic Sprint lobby with the form, starts it and plays all 7
// rounds through the table to the result screen; then the campaign screen,
// empty and with a campaign in progress.
// Screenshots of the lobby list, the table and the result go to
// tests/out/screenshots/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  chromiumPath,
  openPage,
  pageUrl,
  shot,
  signUpGuest,
  createLobby,
  waitLive,
  startStack,
  fixDeal,
  stopStack,
  gameIdOf,
} from './lib/browser.mjs';
import { nextWindow, playMove, chooseMove, submitMove, handCards } from './lib/sprint.mjs';
import { client, newGame } from '../integration/lib/api.mjs';
import { psql } from '../integration/lib/server.mjs';
import { playOut } from '../integration/lib/sprintplay.mjs';

const skip = chromiumPath() ? false : 'no Chromium installed';
let db, server, chrome;

before(async () => {
  // CONCLAVE_TEST_HOOKS: the games' deals are fixed (fixDeal).
  if (!skip) ({ db, server, chrome } = await startStack('web', { CONCLAVE_TEST_HOOKS: '1' }));
});
after(() => stopStack({ db, server, chrome }));

test(
  'a new player plays a solitaire Sprint game through the page to the result',
  { skip, timeout: 180000 },
  async () => {
    const { page, context } = await openPage(chrome.browser);
    await fixDeal(context, 'solitaire');
    await signUpGuest(page, server, 'Solveig');
    assert.equal(
      (await page.evaluate(() => localStorage.getItem('conclave.token'))) !== null,
      true,
      'the token is remembered',
    );

    // Other players' lobbies and a running game make the list worth a
    // screenshot.
    const other = await openPage(chrome.browser);
    await signUpGuest(other.page, server, 'Tamsin');
    await other.page.getByRole('button', { name: 'Quick solitaire Sprint' }).click();
    await other.page.waitForURL(/\/game\//);
    await other.page.goto(pageUrl(server, '/'));
    await createLobby(other.page, {
      game: 'Galactic Sprint',
      seats: 3,
      options: { 'Target VP': 40 },
      clock: { mode: 'live', seconds: 90 },
    });
    const third = await openPage(chrome.browser);
    await signUpGuest(third.page, server, 'Ulrich');
    await createLobby(third.page, { game: 'Tic-tac-toe', seats: 2 });
    await page.goto(pageUrl(server, '/'));
    await page.locator('.lobby-row', { hasText: 'Tamsin' }).waitFor();
    await page.locator('.lobby-row', { hasText: 'Ulrich' }).waitFor();
    await page.locator('li[data-game-id] .tag-live').waitFor();
    // The filter keeps one game's lobbies.
    await page.locator('#lobby-filter').selectOption('tictactoe');
    await page.locator('.lobby-row', { hasText: 'Tamsin' }).waitFor({ state: 'detached' });
    await page.locator('#lobby-filter').selectOption('');
    await shot(page, 'lobby');
    await third.context.close();

    await createLobby(page, { game: 'Galactic Sprint', seats: 1 });
    await page.getByRole('heading', { name: 'Galactic Sprint lobby' }).waitFor();
    await page.getByRole('button', { name: 'Start game' }).click();
    await page.waitForURL(/\/game\//);
    await waitLive(page);
    await page.getByTestId('round').filter({ hasText: 'Round 1 of 7' }).waitFor();
    assert.equal((await handCards(page)).length, 6, 'six cards dealt');

    // Before submitting, the page explains what is not allowed.
    await nextWindow(page, null);
    await page.locator('label.action:has(input[value="settle"])').click();
    const worlds = await page
      .locator('#slot-world option')
      .evaluateAll((os) => os.map((o) => o.value).filter(Boolean));
    const placeable = await page
      .locator('section.hand [data-can-place~="settle"]')
      .evaluateAll((els) => els.map((e) => e.dataset.cardId));
    const blocked = worlds.find((w) => !placeable.includes(w));
    if (blocked) {
      await page.locator('#slot-world').selectOption(blocked);
      await page
        .locator('#order-problems')
        .filter({ hasText: /below defence|the cost is|needs a card|alien world/ })
        .waitFor();
      assert.ok(
        await page.getByTestId('submit-order').isDisabled(),
        'an impossible placement cannot be submitted',
      );
    }
    // The server's 422 detail is shown as it is (the order is changed on the
    // way to make the server refuse it).
    await page.locator('label.action:has(input[value="explore"])').click();
    await page.route('**/orders/**', (route) =>
      route.request().method() === 'PUT'
        ? route.continue({ postData: JSON.stringify({ action: 'settle' }) })
        : route.continue(),
    );
    await page.getByTestId('submit-order').click();
    await page
      .getByTestId('server-error')
      .filter({ hasText: 'action settle needs a world' })
      .waitFor();
    await page.unroute('**/orders/**');

    let last = null;
    const moves = [];
    let tableShot = false;
    for (;;) {
      const w = await nextWindow(page, last);
      if (!w) break;
      // The table mid-decision: a card being placed and paid for.
      const canBuild = await page.locator('section.hand [data-can-place~="settle"]').count();
      const handSize = await page.locator('section.hand [data-card-id]').count();
      if (
        !tableShot &&
        /^r[3-9]\.place$/.test(w) &&
        canBuild &&
        handSize >= 5 &&
        (await page.locator('.empire-cards [data-card-id]').count()) >= 2
      ) {
        tableShot = true;
        const done = await chooseMove(page, w, { strategy: 'build' });
        await shot(page, 'sprint-table');
        moves.push({ window: w, ...(await submitMove(page, w, done)) });
        last = w;
        continue;
      }
      moves.push({ window: w, ...(await playMove(page, w, { strategy: 'build' })) });
      last = w;
    }
    await page.getByTestId('result').waitFor();
    if (!tableShot) await shot(page, 'sprint-table');
    const rounds = new Set(moves.filter((m) => m.window.endsWith('.place')).map((m) => m.window));
    assert.equal(rounds.size, 7, `seven placement rounds, got ${[...rounds].join(' ')}`);
    assert.ok(
      moves.some((m) => m.kind === 'settle' || m.kind === 'develop'),
      'something was built',
    );
    const built = await page.locator('.empire-cards [data-card-id]').count();
    assert.ok(built >= 1, 'the empire has cards');
    const headline = await page.locator('#result-h').textContent();
    assert.match(headline, /Victory|Defeat/);
    assert.match(await page.locator('.result-sub').textContent(), /after 7 rounds/);
    await page.getByTestId('result').scrollIntoViewIfNeeded();
    await shot(page, 'sprint-result');

    // The log tells the story, and the receipts were checked.
    const log = await page.locator('.log-list').textContent();
    assert.match(log, /Scored:/);
    assert.match(log, /The game ended after round 7/);
    assert.match(log, /Your placement in round 1 was resolved as sent/);
    // Receipts stay behind "verify", checked; no window ids in the log's words.
    const lines = await page.locator('.log-list > li').evaluateAll((els) =>
      els.map((e) =>
        [...e.childNodes]
          .filter((n) => n.nodeName !== 'DETAILS')
          .map((n) => n.textContent)
          .join(''),
      ),
    );
    assert.ok(
      lines.every((t) => !/r\d+\.(place|explore|limit)|receipt/i.test(t)),
      lines.find((t) => /r\d+\.|receipt/i.test(t)),
    );
    assert.match(
      await page.locator('.log-list details.log-detail').first().textContent(),
      /checked against the reveal/,
    );

    // The campaign screen reads GET /me.
    await page.getByRole('link', { name: /Solitaire campaign|Campaign progress/ }).click();
    await page.getByTestId('campaign-status').waitFor();
    assert.equal(await page.getByTestId('campaign-status').getAttribute('data-status'), 'none');
    await page.getByRole('button', { name: 'Start a new campaign' }).click();
    await page.waitForURL(/\/game\//);
    await page.locator('.top-line .tag', { hasText: 'campaign game' }).waitFor();

    assert.deepEqual(page.problems, [], 'no script errors');
    await context.close();
    await other.context.close();
  },
);

test(
  'on a phone-sized screen the table fits and the keyboard can play',
  { skip, timeout: 120000 },
  async () => {
    const { page, context } = await openPage(chrome.browser, {
      viewport: { width: 390, height: 844 },
      isMobile: true,
    });
    await fixDeal(context, 'solitaire-phone');
    await signUpGuest(page, server, 'Pocket');
    await page.getByRole('button', { name: 'Quick solitaire Sprint' }).click();
    await page.waitForURL(/\/game\//);
    const w = await nextWindow(page, null);
    assert.equal(w, 'r1.place');
    // Nothing wider than the screen.
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    assert.ok(overflow <= 1, `the page scrolls sideways by ${overflow}px`);
    // Keyboard only: the actions are radio buttons, the cards are buttons.
    await page.locator('input[name="action"][value="explore"]').focus();
    await page.keyboard.press('Space');
    await page.getByTestId('submit-order').focus();
    await page.keyboard.press('Enter');
    await nextWindow(page, 'r1.place');
    const focusable = await page.locator('section.hand button.card').count();
    assert.ok(focusable >= 6, 'hand cards are buttons');
    // A card button is named by what it shows (its badges have text
    // alternatives), so its accessible name says the cost or defence.
    const named = await page
      .locator('section.hand')
      .getByRole('button', { name: /(cost|defence) \d/ })
      .count();
    assert.equal(named, focusable, 'cards have a text alternative');
    await shot(page, 'sprint-phone');
    assert.deepEqual(page.problems, []);
    await context.close();
  },
);

// A campaign in progress: one campaign game played over REST for the page's
// player, then the campaign screen must show what GET /me says (games played,
// the condition that game counted for, ticked) in words, never "[object Object]".
test('the campaign screen shows a campaign in progress', { skip, timeout: 120000 }, async () => {
  const { page, context } = await openPage(chrome.browser);
  await signUpGuest(page, server, 'Campaigner');
  const token = await page.evaluate(() => localStorage.getItem('conclave.token'));
  const call = client(server.url);
  const me = { token };
  let seed = 3;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  // One campaign game played over REST, recorded by the server as usual.
  const start = (await call('GET', '/api/v1/me', { token })).body.campaign;
  const id = await newGame(call, 'sprint', [me], { options: start.next_options });
  await playOut(call, id, me, rnd);
  let camp = (await call('GET', '/api/v1/me', { token })).body.campaign;
  assert.equal(camp.games.length, 1);
  // Random play rarely reaches 45 VP chips; rewrite the stored record as if
  // that game had met Magnate and Tycoon (in the format GET /me just
  // returned): it checked off Magnate by default and offers the choice.
  const g = {
    ...camp.games[0],
    conditions_met: ['magnate', 'tycoon'],
    checked: 'magnate',
    chips: 70,
  };
  const rec = {
    status: 'active',
    met: ['magnate'],
    games: [g],
    choice: ['magnate', 'tycoon'],
    next_options: { campaign_conditions_met: ['magnate'] },
  };
  const pid = (await call('GET', '/api/v1/me', { token })).body.id;
  psql(
    db,
    `UPDATE player_records SET record = '${JSON.stringify(rec)}'::jsonb WHERE player_id = '${pid}' AND ruleset = 'sprint'`,
  );
  camp = (await call('GET', '/api/v1/me', { token })).body.campaign;
  assert.deepEqual(camp.choice, ['magnate', 'tycoon']);
  // A condition the game did not meet is refused, and changes nothing.
  const bad = await call('POST', '/api/v1/me/records/campaign/choice', {
    token,
    body: { condition: 'warlord' },
  });
  assert.equal(bad.status, 422, bad.text);
  assert.equal(bad.body.field, 'condition');
  assert.equal(
    (await call('POST', '/api/v1/me/records/nothing/choice', { token, body: {} })).status,
    404,
  );
  await page.goto(pageUrl(server, '/campaign'));
  const status = page.getByTestId('campaign-status');
  await status.waitFor();
  assert.equal(await status.getAttribute('data-status'), 'active');
  const text = await page.locator('.campaign').textContent();
  assert.doesNotMatch(text, /object Object|undefined|NaN/);
  assert.match(await status.textContent(), /Game 2 of 4 is next/);
  assert.equal(await page.getByRole('button', { name: 'Play campaign game 2' }).count(), 1);
  const ticked = async () => {
    const out = [];
    for (const c of ['magnate', 'warlord', 'tycoon', 'pathfinder']) {
      if (
        (await page.locator(`li.cond[data-condition="${c}"]`).getAttribute('class')).includes('met')
      )
        out.push(c);
    }
    return out;
  };
  assert.deepEqual(await ticked(), ['magnate']);
  // One line per game played, with its chips and what it counted for.
  const rows = page.getByTestId('campaign-games').locator('li');
  assert.equal(await rows.count(), 1);
  assert.match(await rows.nth(0).textContent(), /70 VP chips.*counted for Magnate/);
  // The page asks which condition the game should count for.
  const choice = page.getByTestId('campaign-choice');
  assert.match(await choice.textContent(), /met Magnate and Tycoon/);
  await shot(page, 'campaign-choice');
  await page.getByRole('button', { name: 'Count it for Tycoon' }).click();
  await choice.waitFor({ state: 'detached' });
  await page.locator('li.cond.met[data-condition="tycoon"]').waitFor();
  assert.deepEqual(await ticked(), ['tycoon']);
  assert.match(await rows.nth(0).textContent(), /counted for Tycoon/);
  const after = (await call('GET', '/api/v1/me', { token })).body.campaign;
  assert.deepEqual(after.met, ['tycoon']);
  assert.deepEqual(after.next_options, { campaign_conditions_met: ['tycoon'] });
  assert.equal(after.choice, undefined);
  // One choice per game.
  const again = await call('POST', '/api/v1/me/records/campaign/choice', {
    token,
    body: { condition: 'magnate' },
  });
  assert.equal(again.status, 409, again.text);
  await shot(page, 'campaign-in-progress');
  assert.deepEqual(page.problems, []);
  await context.close();
});

// With an action chosen and nothing placed yet, a card the action cannot
// place is not marked as paying (there is nothing to pay for): the page says
// what the action places instead.
test(
  'a card clicked before anything is placed is not marked as paying',
  { skip, timeout: 90000 },
  async () => {
    const { page, context } = await openPage(chrome.browser);
    await fixDeal(context, 'solitaire-payless');
    await signUpGuest(page, server, 'Payless');
    await page.getByRole('button', { name: 'Quick solitaire Sprint' }).click();
    await page.waitForURL(/\/game\//);
    assert.equal(await nextWindow(page, null), 'r1.place');
    const token = await page.evaluate(() => localStorage.getItem('conclave.token'));
    const view = (
      await client(server.url)('GET', `/api/v1/games/${gameIdOf(page)}/view`, { token })
    ).body;
    const typeOf = (r) => view.cards[r.card].type;
    // Settle with a development, or (a hand of worlds only) Develop with a world.
    const dev = view.hand.find((r) => typeOf(r) === 'development');
    const [action, card] = dev
      ? ['settle', dev]
      : ['develop', view.hand.find((r) => typeOf(r) === 'world')];
    await page.locator(`section.move label.action:has(input[value="${action}"])`).click();
    const button = page.locator(`section.hand [data-card-id="${card.id}"]`);
    await button.click();
    await page
      .locator('.toast', {
        hasText: action === 'settle' ? 'places a world' : 'places a development',
      })
      .waitFor();
    assert.notEqual(
      await button.getAttribute('aria-pressed'),
      'true',
      'the card is not selected as paying',
    );
    assert.equal(await page.locator('section.hand .role-paying').count(), 0);
    assert.deepEqual(page.problems, []);
    await context.close();
  },
);

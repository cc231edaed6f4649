// players.test.mjs - what a new player meets around the tables: (1) the
// home page and a lobby at phone width (no horizontal scroll, axe-core
// without serious violations, "Create a lobby" before the games to watch),
// the create form in player words (no raw default/yes/no, no campaign
// boxes), "How to play" from the form and the lobby, a bot seated and
// removed, "waiting for the host" for a player who joined; (2) a Sprint
// table on a phone: "How to play" with the legend and first-game guide,
// the focus on the order panel, an outage while submitting (the order is
// kept and sent again); (3) tic-tac-toe against a bot to the end, then
// "Rematch"; (4) every other table (rps, skirmish, starbase, council) at
// phone width with axe-core.
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
  boxOf,
  startStack,
  fixDeal,
  stopStack,
  signInAs,
} from './lib/browser.mjs';
import { assertAccessible, assertNoHorizontalScroll } from './lib/axe.mjs';
import { nextWindow, chooseMove } from './lib/sprint.mjs';
import { client, newPlayer, newGame, newLobby } from '../integration/lib/api.mjs';
import { play } from '../integration/lib/ws.mjs';
import { playOut } from '../integration/lib/sprintplay.mjs';

const skip = chromiumPath() ? false : 'no Chromium installed';
const PHONE = { width: 390, height: 844 };
let db, server, chrome;

before(async () => {
  // CONCLAVE_TEST_HOOKS: the Sprint deal of the phone table is fixed (fixDeal).
  if (!skip) ({ db, server, chrome } = await startStack('players', { CONCLAVE_TEST_HOOKS: '1' }));
});
after(() => stopStack({ db, server, chrome }));

async function checkPage(page, what) {
  await assertNoHorizontalScroll(page, what);
  await assertAccessible(page, what);
}

async function howtoOpens(page, scope, heading, text) {
  await scope.getByTestId('howto-open').first().click();
  const dlg = page.getByRole('dialog', { name: heading });
  await dlg.waitFor();
  await dlg.getByText(text, { exact: false }).first().waitFor();
  return dlg;
}

test(
  'home and lobby at phone width: player words, how to play, bots removable, waiting for the host',
  { skip, timeout: 120000 },
  async () => {
    const { page } = await openPage(chrome.browser, { viewport: PHONE, isMobile: true });
    await page.goto(pageUrl(server, '/'));
    await page.getByLabel('Your name').waitFor();
    await checkPage(page, 'home, signed out');
    await signUpGuest(page, server, 'Wren');
    // A finished game to watch, so the order of the panels matters.
    const call = client(server.url);
    const p = await newPlayer(call, { guest: true });
    await newGame(call, 'tictactoe', [p], { bots: ['random'] });
    await page.reload();
    await waitLive(page);
    const create = page.locator('section.create');
    await create.getByRole('heading', { name: 'Create a lobby' }).waitFor();
    await checkPage(page, 'home, signed in');
    const yCreate = (await boxOf(create)).y;
    const yWatch = (await boxOf(page.locator('#watch-h'))).y;
    assert.ok(
      yCreate < yWatch,
      `"Create a lobby" (${yCreate}) comes before the games to watch (${yWatch})`,
    );

    // The form: labels and choices in player words, no campaign boxes.
    await create.getByLabel('Game', { exact: true }).selectOption({ label: 'Galactic Sprint' });
    const options = await create.locator('.options option').allTextContents();
    for (const raw of ['default', 'yes', 'no'])
      assert.ok(!options.includes(raw), `no raw "${raw}" choice (${options.join(', ')})`);
    assert.equal(
      await create
        .locator('.options')
        .getByText(/campaign/i)
        .count(),
      0,
      'no campaign option in the form',
    );
    const dlg = await howtoOpens(page, create, 'How to play Galactic Sprint', 'Scoring each round');
    await dlg.getByText('VP chips', { exact: false }).first().waitFor();
    await dlg.getByText('VP/round', { exact: false }).first().waitFor();
    await dlg.getByRole('img', { name: 'military' }).waitFor();
    await checkPage(page, 'how to play dialog');
    await page.keyboard.press('Escape');
    await dlg.waitFor({ state: 'detached' });

    // A lobby: a bot seated, then removed.
    const lobbyId = await createLobby(page, { game: 'Galactic Sprint', seats: 3 });
    await page.getByRole('heading', { name: 'Galactic Sprint lobby' }).waitFor();
    await howtoOpens(
      page,
      page.locator('section.lobby'),
      'How to play Galactic Sprint',
      'Your first game',
    );
    await page.keyboard.press('Escape');
    await page.getByLabel('Bot level for seat 3').selectOption('basic');
    await page.locator('[data-key="bot-2"]').click();
    await page.locator('.seat-row[data-seat="2"]', { hasText: 'Basic bot' }).waitFor();
    await checkPage(page, 'lobby with a bot');
    await shot(page, 'lobby-phone');
    await page.getByRole('button', { name: 'Remove Basic bot from seat 3' }).click();
    await page.locator('.seat-row[data-seat="2"]', { hasText: 'Empty seat' }).waitFor();

    // Another player joins and waits for the host.
    const other = await openPage(chrome.browser);
    await signUpGuest(other.page, server, 'Yarrow');
    await other.page.goto(pageUrl(server, `/lobby/${lobbyId}`));
    await other.page.locator('[data-key="sit-1"]').click();
    await other.page
      .getByTestId('waiting-host')
      .filter({ hasText: 'waiting for more players, then for the host' })
      .waitFor();
    await checkPage(other.page, 'lobby, joined');
    await page.getByRole('button', { name: 'Remove Yarrow from seat 2' }).waitFor();
    await other.context.close();
    // The campaign page.
    await page.goto(pageUrl(server, '/campaign'));
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.waitForTimeout(500);
    await checkPage(page, 'campaign page');
    // The guest's sign-out warning fits the phone.
    await page.locator('[data-key="signout"]').click();
    await page.locator('[data-key="signout"]', { hasText: 'A guest cannot come back' }).waitFor();
    await assertNoHorizontalScroll(page, 'the sign-out warning');
  },
);

test(
  'a Sprint table on a phone: how to play, focus on the order, an outage keeps the order and sends it again',
  { skip, timeout: 120000 },
  async () => {
    const { page } = await openPage(chrome.browser, { viewport: PHONE, isMobile: true });
    await fixDeal(page, 'players-phone');
    await signUpGuest(page, server, 'Zinnia');
    await page.getByRole('button', { name: 'Quick solitaire Sprint' }).click();
    await page.waitForURL(/\/game\//);
    await waitLive(page);
    const w1 = await nextWindow(page, null);
    // A new round: the order panel has the focus.
    await page.waitForFunction(
      () => document.activeElement && document.activeElement.matches('section.move'),
    );
    await checkPage(page, 'Sprint table');
    const dlg = await howtoOpens(
      page,
      page.locator('.game-tools'),
      'How to play Galactic Sprint',
      'Empire VP',
    );
    await dlg.getByRole('img', { name: 'income' }).waitFor();
    await page.keyboard.press('Escape');
    await dlg.waitFor({ state: 'detached' });
    assert.ok(
      await page
        .locator('.game-tools [data-testid="howto-open"]')
        .evaluate((b) => b === document.activeElement),
      'focus back on the button',
    );

    // The submit button stays on screen with the hand scrolled into view.
    const done = await chooseMove(page, w1);
    await page.locator('section.hand').scrollIntoViewIfNeeded();
    assert.ok(await page.getByTestId('submit-order').isVisible(), 'submit visible');
    const box = await page.getByTestId('submit-order').boundingBox();
    assert.ok(
      box.y >= 0 && box.y + box.height <= PHONE.height,
      `submit on screen while the hand shows (${JSON.stringify(box)})`,
    );
    await checkPage(page, 'Sprint table, order chosen');
    await shot(page, 'sprint-phone-order');

    // The server cannot be reached: the order is kept and sent again.
    await page.route('**/api/v1/games/*/orders/*', (route) => route.abort('connectionrefused'));
    await page.getByTestId('submit-order').click();
    const err = page.getByTestId('server-error');
    await err
      .filter({ hasText: 'Cannot reach the server: your order is kept and will be sent again.' })
      .waitFor();
    assert.ok(!/refused/.test(await err.textContent()), 'not "refused"');
    await page.unroute('**/api/v1/games/*/orders/*');
    // Alone at the table, the order sent again ends the round at once.
    const w2 = await nextWindow(page, w1, 20000);
    assert.ok(w2 && w2 !== w1, `the next window opens (${w2})`);
    await err.waitFor({ state: 'detached' });
    assert.ok(done.kind, 'a move was chosen');
    // The next decision: the order panel has the focus again.
    await page.waitForFunction(
      () => document.activeElement && document.activeElement.matches('section.move'),
    );
  },
);

test(
  'tic-tac-toe against a bot to the end, then a rematch with the same bot',
  { skip, timeout: 120000 },
  async () => {
    const { page } = await openPage(chrome.browser, { viewport: PHONE, isMobile: true });
    await signUpGuest(page, server, 'Aster');
    await createLobby(page, { game: 'Tic-tac-toe', seats: 2 });
    await page.locator('[data-key="bot-1"]').click();
    await page.locator('.seat-row[data-seat="1"]', { hasText: 'bot' }).waitFor();
    await page.getByRole('button', { name: 'Start game' }).click();
    await page.waitForURL(/\/game\//);
    await waitLive(page);
    await checkPage(page, 'tic-tac-toe table');
    for (let i = 0; i < 9; i++) {
      const state = await page.waitForFunction(() => {
        if (document.querySelector('[data-testid="rematch"]')) return 'over';
        const free = document.querySelector('button.ttt-cell:not([disabled])');
        return free ? free.dataset.cell : false;
      });
      const v = await state.jsonValue();
      if (v === 'over') break;
      await page.locator(`button.ttt-cell[data-cell="${v}"]`).click();
      await page.locator(`button.ttt-cell[data-cell="${v}"][disabled]`).waitFor();
    }
    await page.getByTestId('rematch').waitFor();
    await checkPage(page, 'tic-tac-toe, finished');
    await page.getByTestId('rematch').click();
    await page.waitForURL(/\/lobby\//);
    await page.getByRole('heading', { name: 'Tic-tac-toe lobby' }).waitFor();
    await page.locator('.seat-row[data-seat="1"]', { hasText: 'bot' }).waitFor();
    assert.ok(
      await page.getByRole('button', { name: 'Start game' }).isEnabled(),
      'every seat taken: the rematch can start',
    );
  },
);

test(
  'after a private game between two players, the other player\u2019s rematch is offered at the table and opens with its code',
  { skip, timeout: 60000 },
  async () => {
    const call = client(server.url);
    const a = await newPlayer(call, { guest: true });
    const b = await newPlayer(call, { guest: true });
    const lobby = await newLobby(call, a, { ruleset: 'tictactoe', seats: 2, private: true }, [b]);
    const started = await call('POST', `/api/v1/lobbies/${lobby.id}/start`, { token: a.token });
    assert.equal(started.status, 201, started.text);
    const game = started.body.game;
    // a takes the top row: cells 0, 1, 2 (b answers 3, 4).
    const moves = [
      [a, 0],
      [b, 3],
      [a, 1],
      [b, 4],
      [a, 2],
    ];
    for (const [p, cell] of moves) {
      const g = (await call('GET', `/api/v1/games/${game}`, { token: p.token })).body;
      const r = await play(server.url, game, p.token, { window: g.windows[0].id, cell });
      assert.equal(r.status, 200, r.text);
    }
    const { page, context } = await openPage(chrome.browser);
    await signInAs(page, server, a);
    await page.goto(pageUrl(server, `/game/${game}`));
    await page.getByTestId('rematch').waitFor();
    assert.equal(
      await page.getByTestId('rematch-offer').count(),
      0,
      'no offer before the other player makes one',
    );
    // b asks for the rematch; the lobby is private like the game, so it is
    // in no public list: the offer comes from the game's own rematch.
    const r = await call('POST', `/api/v1/games/${game}/rematch`, { token: b.token });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.lobby.private, true);
    await page
      .getByTestId('rematch-offer')
      .filter({ hasText: `Join ${b.name}\u2019s rematch` })
      .click();
    await page.waitForURL(new RegExp(`/lobby/${r.body.lobby.id}\\?code=`));
    await page.locator('[data-key="sit-1"]').click();
    await page
      .getByTestId('waiting-host')
      .filter({ hasText: 'waiting for the host to start' })
      .waitFor();
    // Seated now: the offer is gone from the finished table, and a's own
    // "Rematch" button leads to the same lobby rather than a second one.
    await page.goto(pageUrl(server, `/game/${game}`));
    await page.getByTestId('rematch').click();
    await page.waitForURL(new RegExp(`/lobby/${r.body.lobby.id}`));
    await context.close();
  },
);

test(
  'every other table at phone width passes axe-core and does not scroll sideways',
  { skip, timeout: 180000 },
  async () => {
    const call = client(server.url);
    const tables = [
      ['rps', 1, ['random']],
      ['skirmish', 1, ['basic']],
      ['starbase', 1, ['basic']],
      ['council', 1, ['basic', 'basic']],
    ];
    // A finished Sprint game: its results table on a phone.
    const solo = await newPlayer(call, { guest: true });
    const sprintGame = await newGame(call, 'sprint', [solo]);
    let seed = 7;
    await playOut(
      call,
      sprintGame,
      solo,
      () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648,
    );
    {
      const { page, context } = await openPage(chrome.browser, { viewport: PHONE, isMobile: true });
      await signInAs(page, server, solo);
      await page.goto(pageUrl(server, `/game/${sprintGame}`));
      await page.getByTestId('result').waitFor();
      await page.getByTestId('rematch').waitFor();
      await checkPage(page, 'Sprint result');
      await shot(page, 'sprint-result-phone');
      await context.close();
    }
    for (const [ruleset, humans, bots] of tables) {
      const players = [];
      for (let i = 0; i < humans; i++) players.push(await newPlayer(call, { guest: true }));
      const game = await newGame(call, ruleset, players, { bots });
      const { page, context } = await openPage(chrome.browser, { viewport: PHONE, isMobile: true });
      await signInAs(page, server, players[0]);
      await page.goto(pageUrl(server, `/game/${game}`));
      await waitLive(page);
      await page.locator('.game-tools [data-testid="howto-open"]').waitFor();
      await page.waitForTimeout(1500); // the table settles (legal choices, log)
      await checkPage(page, `${ruleset} table`);
      const dlg = await howtoOpens(page, page.locator('.game-tools'), /How to play/, 'A');
      await page.keyboard.press('Escape');
      await dlg.waitFor({ state: 'detached' });
      await context.close();
    }
  },
);

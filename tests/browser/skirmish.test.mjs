// skirmish.test.mjs - the Skirmish table in the browser. (1) One player
// against the basic bot: the lobby offers Skirmish with its turn limit and
// bot levels, the squad is built in the squad builder (the tally follows,
// over the budget cannot be submitted), placed on the home rows, and the
// game is played to the end by clicking: a creature, then a highlighted
// target or square, or Pass. (2) Two players in two contexts (one at phone
// size) and a signed-out spectator: until the reveals, no WebSocket frame
// the spectator or the other player received carries a squad's creatures
// or squares, and the spectator's page shows neither; after them all three
// see the same field. Screenshots at desktop and phone size.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import {
  SHOTS,
  addBotAndStart,
  chromiumPath,
  openPage,
  pageUrl,
  shot,
  signUpGuest,
  createLobby,
  startStack,
  fixDeal,
  stopStack,
  wordsSplit,
} from './lib/browser.mjs';

const skip = chromiumPath() ? false : 'no Chromium installed';
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true };
let db, server, chrome;

before(async () => {
  // CONCLAVE_TEST_HOOKS: the games' deals are fixed (fixDeal); the moves are
  // what the page offers from GET /legal.
  if (!skip) ({ db, server, chrome } = await startStack('skweb', { CONCLAVE_TEST_HOOKS: '1' }));
});
after(() => stopStack({ db, server, chrome }));

const table = (page) => page.getByTestId('sk-table');
const statusText = (page) => page.getByTestId('sk-status').textContent();

// Waits until the page has the legal choices of a window that waits on it,
// or the game is over. Returns the window id, or null when over.
async function myTurn(page, previous, deadline) {
  const found = await page
    .waitForFunction(
      (prev) => {
        const st = document.querySelector('[data-testid="sk-status"]');
        if (st && /won|draw|over|aborted/i.test(st.textContent)) return 'over';
        const t = document.querySelector('[data-testid="sk-table"]');
        const w = t && t.dataset.window;
        return w && w !== prev && t.dataset.ready === '1' ? w : false;
      },
      previous,
      { timeout: Math.max(1, deadline - Date.now()), polling: 50 },
    )
    .then((x) => x.jsonValue())
    .catch(() => null);
  if (found === null) {
    await shot(page, 'skirmish-stuck');
    const t = table(page);
    assert.fail(
      `the game did not end in time: ${await statusText(page)}, window ${await t.getAttribute('data-window')} (ready ${await t.getAttribute('data-ready')}, last ${previous})`,
    );
  }
  return found === 'over' ? null : found;
}

// One decision by clicking: in the choice step, select a creature marked as
// able to act and click something highlighted (targets first); otherwise
// (or when the turn has had enough declarations) pass.
async function decide(page, budget) {
  const pass = page.getByTestId('sk-pass');
  const label = await pass.textContent();
  if (/hand the turn over/.test(label) && budget.left > 0) {
    const actors = page.locator('.sk-sq.can-act');
    const n = await actors.count();
    for (let i = 0; i < n; i++) {
      await actors.nth(i).click();
      const target = page.locator('.sk-sq.can-target');
      const square = page.locator('.sk-sq.can-move');
      const pick = (await target.count())
        ? target.first()
        : (await square.count()) && budget.moves > 0
          ? square.first()
          : null;
      if (pick) {
        if (!(await target.count())) budget.moves -= 1;
        budget.left -= 1;
        await pick.click();
        return 'declared';
      }
    }
  }
  await pass.click();
  return 'passed';
}

test(
  'one player against the basic bot: muster, deploy and a whole game by clicking',
  { skip, timeout: 300000 },
  async (t) => {
    const { context, page } = await openPage(chrome.browser);
    await fixDeal(context, 'skirmish-bot');
    await signUpGuest(page, server, 'Skirmisher');
    // The lobby form offers Skirmish with its option.
    const form = page.locator('section.create');
    await form.getByLabel('Game', { exact: true }).selectOption({ label: 'Skirmish' });
    await form.getByLabel('Turn limit').waitFor();
    await createLobby(page, { game: 'Skirmish', seats: 2, options: { 'Turn limit': 6 } });
    await addBotAndStart(page, 'basic');

    // Muster: build a squad in the builder.
    await page.getByRole('heading', { name: 'Prebuilt squads' }).waitFor();
    await page.locator('summary', { hasText: 'Ashen Covenant' }).click();
    const add = (name) => page.getByRole('button', { name: `Add ${name}`, exact: true }).click();
    for (const name of [
      'Ember Tyrant',
      'Pyromancer',
      'Flame Dancer',
      'Flame Dancer',
      'Ember Hound',
      'Cinder Knight',
      'Blood Cantor',
    ])
      await add(name);
    await page.getByTestId('sk-cost').filter({ hasText: 'Cost 29 of 30' }).waitFor();
    await shot(page, 'skirmish-muster');
    assert.ok(
      await page.getByRole('button', { name: 'Add Flame Dancer', exact: true }).isDisabled(),
      'at most two copies',
    );
    await add('Magma Brute');
    await page.getByTestId('sk-cost').filter({ hasText: 'Cost 35 of 30' }).waitFor();
    assert.ok(
      await page.getByRole('button', { name: 'Submit this squad' }).isDisabled(),
      'over the budget: no submit',
    );
    await page.getByRole('button', { name: 'Remove Magma Brute', exact: true }).click();
    await page.getByRole('button', { name: 'Submit this squad' }).click();

    // Deployment: one creature by hand, the rest by the button.
    await page.getByRole('button', { name: 'Submit placement' }).waitFor({ timeout: 30000 });
    await shot(page, 'skirmish-deploy');
    await page.locator('.sk-roster-btn', { hasText: 'Ember Tyrant' }).click();
    const square = await page.locator('.sk-sq.deployable.empty').nth(2).getAttribute('data-square');
    await page.locator(`.sk-sq[data-square="${square}"]`).click();
    await page
      .locator(`.sk-sq[data-square="${square}"] .sk-unit`, { hasText: 'Ember Tyrant' })
      .waitFor();
    await page.getByRole('button', { name: 'Place the rest (front row first)' }).click();
    await page.getByRole('button', { name: 'Submit placement' }).click();

    // The battle: 7 creatures of ours and the bot's squad on the field.
    await page.locator('.sk-board').waitFor({ timeout: 30000 });
    await page.locator('.sk-sq .sk-unit.seat-c0').first().waitFor();
    assert.equal(
      await page.locator(`.sk-sq[data-square="${square}"] .sk-name`).textContent(),
      'Ember Tyrant',
    );
    const stats = { declared: 0, passed: 0, eot: 0, untilEnd: null };
    const started = Date.now();
    // Only catches a game that never ends (a hang), not a slow run.
    const deadline = started + 240000;
    let w = null;
    let turn = '';
    const budget = { left: 0, moves: 0 };
    let shotTaken = false;
    for (;;) {
      w = await myTurn(page, w, deadline);
      if (w === null) break;
      const now = await statusText(page);
      if (now !== turn) {
        turn = now;
        Object.assign(budget, { left: 3, moves: 1 });
      }
      if (!shotTaken && (await page.locator('.sk-sq.can-act').count())) {
        await page.locator('.sk-sq.can-act').first().click();
        await page.locator('.sk-detail h3', { hasText: 'It can now' }).waitFor();
        await shot(page, 'skirmish-desktop');
        // Desktop, 1280x800: scrolled down to the chosen creature's last
        // choice, Pass and the stack are still in view beside the field.
        await page.setViewportSize({ width: 1280, height: 800 });
        await page.locator('.sk-detail').evaluate((el) => el.scrollIntoView({ block: 'end' }));
        await page.screenshot({ path: path.join(SHOTS, 'skirmish-desktop-scrolled.png') });
        const inView = async (loc) => {
          const b = await loc.boundingBox();
          return b && b.y >= 0 && b.y + Math.min(b.height, 40) <= 800;
        };
        assert.ok(await page.evaluate(() => window.scrollY > 0), 'the page scrolled');
        assert.ok(await inView(page.getByTestId('sk-pass')), 'Pass stays in view');
        assert.ok(await inView(page.locator('.sk-stack h2')), 'the stack stays in view');
        // Phone, 390x844: the stack sits right by the Pass button, above
        // the field; no creature's name is split inside a word.
        await page.setViewportSize({ width: 390, height: 844 });
        await page.evaluate(() => window.scrollTo(0, 0));
        await shot(page, 'skirmish-phone-choices');
        await page.screenshot({ path: path.join(SHOTS, 'skirmish-phone-top.png') });
        assert.ok(
          await page.evaluate(() => document.documentElement.scrollWidth <= 390),
          'nothing scrolls sideways at 390 px',
        );
        const ys = await page.evaluate(() =>
          ['.sk-priority', '.sk-stack', '.sk-board'].map(
            (q) => document.querySelector(q).getBoundingClientRect().top,
          ),
        );
        assert.ok(ys[0] < ys[1] && ys[1] < ys[2], `Pass, then the stack, then the field: ${ys}`);
        const split = await wordsSplit(page, '.sk-name');
        assert.deepEqual(split, [], 'names split inside a word at 390 px');
        await page.locator('.sk-stack').evaluate((el) => el.scrollIntoView());
        await page.screenshot({ path: path.join(SHOTS, 'skirmish-phone-field.png') });
        await page.setViewportSize({ width: 1280, height: 900 });
        await page.locator('.sk-sq.can-act').first().click(); // deselect
        shotTaken = true;
      }
      if (!(await page.locator('.sk-priority', { hasText: 'Skirmisher’s turn' }).count())) {
        // The bot's turn: pass until its end; the next decision comes in the
        // next turn.
        if (stats.untilEnd === now)
          assert.fail(`a decision left in a turn passed to its end (${now})`);
        stats.untilEnd = now;
        stats.eot += 1;
        await page.getByRole('button', { name: 'Pass until end of turn' }).click();
        continue;
      }
      stats[await decide(page, budget)] += 1;
    }
    const end = await statusText(page);
    assert.match(end, /won|draw/i, end);
    // How often the player passed depends on how the game went (a quick
    // win leaves few chances, and on a busy machine the bot's answers
    // arrive at other moments): that each kind of click was used counts.
    assert.ok(stats.declared >= 2 && stats.passed >= 1, JSON.stringify(stats));
    assert.ok(stats.eot >= 1, JSON.stringify(stats));
    t.diagnostic(
      `${end} ${JSON.stringify(stats)}, ${Math.round((Date.now() - started) / 1000)} s of play`,
    );
    assert.ok(shotTaken, 'there was a creature to select');
    const log = await page.locator('.log-list').textContent();
    assert.match(log, /Skirmisher \(you\) musters 7 creatures \(cost 29\)/);
    assert.match(log, /Both placements are revealed/);
    assert.match(log, /die \d/);
    assert.doesNotMatch(log, /Player \d/, 'seat names, not player numbers');
    await page.locator('.sk-dice').waitFor();
    await shot(page, 'skirmish-over');
    assert.deepEqual(page.problems, []);
    await context.close();
  },
);

test(
  'two players and a spectator: the squads stay hidden until both are revealed',
  { skip, timeout: 150000 },
  async () => {
    const A = await openPage(chrome.browser);
    await fixDeal(A.context, 'skirmish-two');
    const B = await openPage(chrome.browser, PHONE);
    const S = await openPage(chrome.browser);
    const alice = A.page;
    const bob = B.page;
    const spy = S.page;
    await signUpGuest(alice, server, 'Alba');
    await signUpGuest(bob, server, 'Brann');
    await createLobby(alice, { game: 'Skirmish', seats: 2 });
    const lobbyId = new URL(alice.url()).pathname.split('/').pop();
    await bob.goto(pageUrl(server, `/lobby/${lobbyId}`));
    await bob.getByRole('button', { name: 'Sit here' }).click();
    await alice.locator('.seat-row', { hasText: 'Brann' }).waitFor();
    await alice.getByRole('button', { name: 'Start game' }).click();
    await alice.waitForURL(/\/game\//);
    const gameId = new URL(alice.url()).pathname.split('/').pop();
    await bob.waitForURL(new RegExp(`/game/${gameId}`));
    await spy.goto(pageUrl(server, `/game/${gameId}`));
    await spy.locator('.tag-watch').waitFor();
    await spy.locator('.sk-sealed', { hasText: 'choosing their squads in secret' }).waitFor();

    // Alice musters a squad no prebuilt one has: the Ember Tyrant.
    await alice.getByRole('heading', { name: 'Prebuilt squads' }).waitFor();
    await alice.locator('summary', { hasText: 'Ashen Covenant' }).click();
    for (const name of ['Ember Tyrant', 'Soot Runner'])
      await alice.getByRole('button', { name: `Add ${name}`, exact: true }).click();
    await alice.getByRole('button', { name: 'Submit this squad' }).click();
    await alice.locator('.sk-done', { hasText: 'Submitted' }).waitFor();
    await spy.locator('.sk-sealed .tag-done').waitFor();
    await bob.locator('.sk-ready .tag-done').waitFor();
    await bob.getByRole('heading', { name: 'Prebuilt squads' }).waitFor();
    await shot(bob, 'skirmish-muster-phone');
    const leaks = (frames) =>
      frames.filter((f) => /ember_tyrant|Ember Tyrant|soot_runner|Soot Runner/.test(f));
    assert.deepEqual(leaks(spy.framesIn), [], 'the spectator received nothing of the squad');
    assert.deepEqual(leaks(bob.framesIn), [], 'the other player received nothing of the squad');
    assert.equal(await spy.getByText('Ember Tyrant').count(), 0);

    await bob.getByRole('button', { name: 'Take High Winds' }).click();
    // Revealed together: everyone now has both squads.
    await alice.getByRole('button', { name: 'Submit placement' }).waitFor();
    await spy.locator('.sk-sealed', { hasText: 'placing their squads in secret' }).waitFor();
    await spy
      .locator('.log-list', {
        hasText: 'Alba musters 2 creatures (cost 9): Ember Tyrant, Soot Runner.',
      })
      .waitFor();
    assert.ok(
      leaks(spy.framesIn).length > 0,
      'positive control: the frames are searched (the squad shows once revealed)',
    );

    // Alice places; her squares reach nobody before Bob has placed.
    const spyFrom = spy.framesIn.length;
    const bobFrom = bob.framesIn.length;
    await alice.locator('.sk-roster-btn', { hasText: 'Soot Runner' }).click();
    await alice.locator('.sk-sq[data-square="e1"]').click();
    await alice.getByRole('button', { name: 'Place the rest (front row first)' }).click();
    await alice.getByRole('button', { name: 'Submit placement' }).click();
    await alice.locator('.sk-done', { hasText: 'Placement submitted' }).waitFor();
    await spy.locator('.sk-sealed .tag-done').waitFor();
    const squared = (frames) => frames.filter((f) => /"square":\s*"[a-e][1-6]"|"e1"|"a3"/.test(f));
    await bob.getByRole('button', { name: 'Submit placement' }).waitFor();
    await shot(bob, 'skirmish-deploy-phone');
    assert.deepEqual(squared(spy.framesIn.slice(spyFrom)), [], 'the spectator received no square');
    assert.deepEqual(
      squared(bob.framesIn.slice(bobFrom)),
      [],
      'the other player received no square',
    );
    assert.equal(await spy.locator('.sk-unit').count(), 0, 'the spectator sees no creature yet');

    await bob.getByRole('button', { name: 'Place the rest (front row first)' }).click();
    await bob.getByRole('button', { name: 'Submit placement' }).click();
    for (const p of [alice, bob, spy])
      await p.locator('.sk-board .sk-unit').nth(11).waitFor({ timeout: 30000 });
    assert.equal(
      await spy.locator('.sk-sq[data-square="e1"] .sk-name').textContent(),
      'Soot Runner',
    );
    assert.equal(
      await bob.locator('.sk-sq[data-square="e1"] .sk-name').textContent(),
      'Soot Runner',
    );
    assert.equal(await spy.locator('.sk-board .sk-unit').count(), 12);
    assert.equal(await spy.getByTestId('sk-pass').count(), 0, 'a spectator has no pass button');
    await spy
      .getByTestId('sk-holder')
      .filter({ hasText: /holds priority/ })
      .waitFor();
    await shot(spy, 'skirmish-spectator');
    // Bob, on the phone, selects one of his creatures with the keyboard and
    // sees its card; the focus stays on the square across the redraw.
    const mine = bob.locator('button.sk-sq:has(.sk-unit.seat-c1)').first();
    const sq = await mine.getAttribute('data-square');
    await mine.focus();
    await bob.keyboard.press('Enter');
    await bob.locator('.sk-detail .sk-card').waitFor();
    assert.equal(
      await bob.evaluate(() => document.activeElement && document.activeElement.dataset.square),
      sq,
    );
    assert.equal(
      await bob.locator(`button.sk-sq[data-square="${sq}"]`).getAttribute('aria-pressed'),
      'true',
    );
    await shot(bob, 'skirmish-phone');
    assert.ok(
      await bob.evaluate(() => document.documentElement.scrollWidth <= 390),
      'nothing scrolls sideways on the phone',
    );
    for (const p of [alice, bob, spy]) assert.deepEqual(p.problems, []);
    for (const x of [A, B, S]) await x.context.close();
  },
);

// starbase.test.mjs - the Starbase table in the browser. (1) A guest makes
// a lobby from the home page (Starbase with its bot levels), adds the basic
// bot and plays through the page, clicking the actions the cards offer and
// ending phases, until the game ends. (2) Two players in two browser
// contexts and a spectator: neither the spectator nor the other player
// ever receives the identity of a card in a hand (WebSocket frames, REST
// bodies, DOM). Screenshots at desktop and phone size.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  addBotAndStart,
  chromiumPath,
  openPage,
  pageUrl,
  shot,
  signUpGuest,
  createLobby,
  waitLive,
  gameIdOf,
  startStack,
  fixDeal,
  stopStack,
  wordsSplit,
} from './lib/browser.mjs';
import { nextChoice, clickOne, handCards, seeded, cardRefs } from './lib/starbase.mjs';

const skip = chromiumPath() ? false : 'no Chromium installed';
let db, server, chrome;

before(async () => {
  // CONCLAVE_TEST_HOOKS: the games' deals are fixed (fixDeal); the moves are
  // the page's buttons, which are GET /legal's choices.
  if (!skip) ({ db, server, chrome } = await startStack('sbweb', { CONCLAVE_TEST_HOOKS: '1' }));
});
after(() => stopStack({ db, server, chrome }));

const PHONE = { width: 390, height: 844 };

async function tableInfo(page) {
  return page.evaluate(() => {
    const t = document.querySelector('.sb-layout');
    return t
      ? {
          turn: Number(t.dataset.turn),
          step: t.dataset.step,
          active: Number(t.dataset.active),
          hint: document.querySelector('[data-testid="sb-hint"]').textContent,
        }
      : null;
  });
}

test(
  'a guest plays Starbase against the basic bot through the page until the game ends',
  { skip, timeout: 300000 },
  async () => {
    const { context, page } = await openPage(chrome.browser);
    // a deal in which the page's seat 0 (Ore Syndicate) goes first against the
    // bot's Corsair Clans (first player and markets come from the seed)
    await fixDeal(context, 'starbase-bot-12');
    await signUpGuest(page, server, 'Vega');
    const gameSelect = page.locator('section.create').getByLabel('Game', { exact: true });
    // allTextContents does not wait: the list of games comes with /rulesets.
    await gameSelect.locator('option').first().waitFor({ state: 'attached' });
    const games = await gameSelect.locator('option').allTextContents();
    assert.ok(games.includes('Starbase'), `the lobby form offers Starbase (${games.join(', ')})`);
    await createLobby(page, { game: 'Starbase', seats: 2 });
    await page.getByRole('heading', { name: 'Starbase lobby' }).waitFor();
    await addBotAndStart(page, 'basic');

    // The table: the hint, the phase track, the how-to-play panel, the hand.
    await page.getByTestId('sb-hint').filter({ hasText: 'Your turn, setup phase' }).waitFor();
    assert.equal(await page.locator('.sb-phases li.sb-now').textContent(), 'Setup');
    assert.equal(await page.locator('section.sb-hand .sb-card').count(), 5, 'five cards in hand');
    await page.getByText('How to play Starbase').click();
    await page.locator('.sb-howto li', { hasText: 'five phases' }).waitFor();
    assert.ok(
      await page.locator('.sb-bar button[data-action="forfeit"]').isVisible(),
      'forfeit offered at the start of the turn',
    );
    // Keyboard: the pass button is reachable and works with Enter.
    await page.locator('.sb-bar button[data-action="pass"]').focus();
    const w0 = await page.evaluate(() => document.querySelector('.sb-layout').dataset.window);
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      (w) => document.querySelector('.sb-layout').dataset.window !== w,
      w0,
    );
    // The pass is gone: focus goes to the hint, not to the next step's button.
    await page.waitForFunction(
      () => document.activeElement && document.activeElement.dataset.key === 'sb-hint',
    );
    await page.getByTestId('sb-hint').filter({ hasText: 'management phase' }).waitFor();

    // Answer only in your own turns: the table's response rule.
    await page.getByLabel(/Pass automatically/).check();

    // The human builds (plays cards, outer regions, commands and abilities)
    // but keeps its ships docked and its starbase as it is, so the basic bot
    // finishes the game in a bounded number of turns.
    const prefer = ['play', 'outer', 'activate', 'ability'];
    const rng = seeded(7);
    const started = Date.now();
    const counts = {};
    let last = null;
    let budgetTurn = -1;
    let budget = 0;
    let shots = 0;
    // The deal and the clicks are fixed, so the game's length is too; the
    // 240 s only catches a game that does not end (a hang), not a slow run.
    while (Date.now() - started < 240000) {
      const w = await nextChoice(page, last, 15000);
      if (w === 'over') break;
      if (w === null) {
        last = null; // nothing new offered: look again
        continue;
      }
      const info = await tableInfo(page);
      if (info.turn !== budgetTurn) {
        budgetTurn = info.turn;
        budget = 3;
      }
      if (shots === 0 && info.turn >= 5 && info.step === 'management') {
        shots++;
        await shot(page, 'starbase-desktop');
        await page.setViewportSize(PHONE);
        await shot(page, 'starbase-phone');
        assert.ok((await page.locator('.sb-card-name').count()) > 0, 'cards are shown');
        assert.deepEqual(
          await wordsSplit(page, '.sb-card-name'),
          [],
          'card names split inside a word at 390 px',
        );
        await page.setViewportSize({ width: 1280, height: 900 });
      }
      const a = await clickOne(page, { budget, rng, prefer });
      if (!a) continue;
      if (a !== 'pass') budget--;
      counts[a] = (counts[a] || 0) + 1;
      last = w;
    }
    const elapsed = Date.now() - started;
    const over = await page.getByTestId('result').count();
    const info = await tableInfo(page);
    console.log(
      `# starbase vs basic: ${over ? 'ended' : 'still running'} after ${(elapsed / 1000).toFixed(1)} s, turn ${info.turn}, clicks ${JSON.stringify(counts)}`,
    );
    assert.ok(over, 'the game ended');
    assert.match(await page.locator('#result-h').textContent(), /You won|You lost|draw/);
    assert.ok((counts.play || 0) + (counts.outer || 0) > 0, 'cards were played through the page');
    // The log reads in plain words with the players' names.
    const log = await page.locator('.log-list').innerText();
    assert.match(log, /Vega (plays|draws|passes)/);
    assert.match(log, /Bot 2 \(basic\)/);
    assert.doesNotMatch(log, /[Ss]eat \d/, 'no seat numbers in the log');
    await shot(page, 'starbase-result');
    assert.deepEqual(page.problems, []);
    await context.close();
  },
);

// Ids and keys a page was shown outside a hand (and outside the design
// catalogue): in game resources and snapshots, and in patch operations on
// any other path.
function publicOf(page) {
  const ids = new Set();
  const keys = new Set();
  const add = (j) => {
    for (const r of cardRefs(j)) {
      ids.add(r.id);
      keys.add(r.key);
    }
  };
  const texts = [
    ...page.rest.filter((r) => /\/games\/[a-z0-9]+$/.test(r.url)).map((r) => r.body),
    ...page.framesIn,
  ];
  for (const text of texts) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      continue;
    }
    if (msg.view) {
      const { hand, cards, ...rest } = msg.view;
      add(rest);
    }
    if (msg.type !== 'patch') continue;
    for (const op of msg.ops) {
      if (op.path.startsWith('/view/hand') || op.path.startsWith('/view/cards')) continue;
      add(op.value);
      if (/\/id$/.test(op.path) && Number.isInteger(op.value)) ids.add(op.value);
      if (/\/key$/.test(op.path) && typeof op.value === 'string') keys.add(op.value);
    }
  }
  return { ids, keys };
}

test(
  'two players and a spectator: a hand never reaches anyone else',
  { skip, timeout: 300000 },
  async () => {
    const A = await openPage(chrome.browser);
    await fixDeal(A.context, 'starbase-two-9'); // Altair (seat 0) goes first
    const B = await openPage(chrome.browser, { viewport: PHONE, isMobile: true });
    const S = await openPage(chrome.browser);
    const alice = A.page;
    const bob = B.page;
    const spy = S.page;
    await signUpGuest(alice, server, 'Altair');
    await signUpGuest(bob, server, 'Bellatrix');
    await signUpGuest(spy, server, 'Watcher');
    const lobby = await createLobby(alice, { game: 'Starbase', seats: 2 });
    await bob.goto(pageUrl(server, `/lobby/${lobby}`));
    await bob.getByRole('button', { name: 'Sit here' }).first().click();
    await alice.locator('.seat-row', { hasText: 'Bellatrix' }).waitFor();
    await alice.getByRole('button', { name: 'Start game' }).click();
    await alice.waitForURL(/\/game\//);
    await bob.waitForURL(/\/game\//);
    const game = gameIdOf(alice);
    await spy.goto(pageUrl(server, `/game/${game}`));
    for (const p of [alice, bob, spy]) await waitLive(p);
    await spy.locator('.sb-layout').waitFor();
    assert.equal(await spy.locator('section.sb-hand').count(), 0, 'the spectator has no hand');
    await spy.locator('.tag-watch').waitFor();
    await bob.getByTestId('sb-hint').filter({ hasText: 'Waiting for Altair' }).waitFor();

    const held = [new Map(), new Map()];
    const note = async (seat, page) => {
      for (const c of await handCards(page)) held[seat].set(c.id, c);
    };
    const rng = seeded(11);
    const last = [null, null];
    const budget = [0, 0];
    const budgetTurn = [-1, -1];
    const started = Date.now();
    let turn = 1;
    let othersTurn = 0;
    // Until turn 5 (or the end); the 180 s only catches a hang, so a slow
    // run still reaches the turn it is asserted to reach.
    while (turn < 5 && Date.now() - started < 180000) {
      let acted = false;
      for (const [seat, page] of [
        [0, alice],
        [1, bob],
      ]) {
        await note(seat, page);
        const w = await nextChoice(page, last[seat], 300);
        if (w === 'over') break;
        if (!w) continue;
        const info = await tableInfo(page);
        turn = info.turn;
        if (info.active !== seat) {
          // Priority in the other player's turn: the hint says so.
          assert.match(info.hint, /You hold priority: play an instant news or ability, or pass/);
          othersTurn++;
        }
        if (info.turn !== budgetTurn[seat]) {
          budgetTurn[seat] = info.turn;
          budget[seat] = 3;
        }
        const a = await clickOne(page, { budget: budget[seat], rng });
        if (!a) continue;
        if (a !== 'pass') budget[seat]--;
        last[seat] = w;
        acted = true;
      }
      if (await alice.getByTestId('result').count()) break;
      if (!acted) await alice.waitForTimeout(100);
    }
    assert.ok(turn >= 3, `the game moved on (turn ${turn})`);
    assert.ok(othersTurn > 0, 'a player held priority in the other player\u2019s turn');
    await spy.locator(`.sb-layout[data-turn="${turn}"]`).waitFor();
    await note(0, alice);
    await note(1, bob);
    await shot(spy, 'starbase-spectator');
    await shot(alice, 'starbase-table');
    await shot(bob, 'starbase-phone-player');

    // What was held and never shown outside a hand (as its owner saw it) is
    // secret: its id, and its design when no copy of it was ever shown.
    const pub = [publicOf(alice), publicOf(bob)];
    const secret = (seat) => [...held[seat].values()].filter((c) => !pub[seat].ids.has(c.id));
    const secretKeys = (seat, not = new Set()) =>
      new Set(
        secret(seat)
          .filter(
            (c) => !pub[seat].keys.has(c.key) && !pub[1 - seat].keys.has(c.key) && !not.has(c.key),
          )
          .map((c) => c.key),
      );
    for (const seat of [0, 1]) assert.ok(secret(seat).length > 0, `seat ${seat} kept cards secret`);
    const heldKeys = (seat) => new Set([...held[seat].values()].map((c) => c.key));
    const nameOf = new Map([...held[0].values(), ...held[1].values()].map((c) => [c.key, c.name]));

    const check = (label, texts, seats, own = null) => {
      let refs = 0;
      for (const text of texts) {
        let msg = null;
        try {
          msg = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        if (msg && msg.type === 'patch' && own === null)
          for (const op of msg.ops)
            assert.ok(!op.path.startsWith('/view/hand'), `${label}: a patch of a hand: ${op.path}`);
        if (msg && msg.type === 'snapshot' && own === null)
          assert.equal(msg.view.hand, undefined, `${label}: a snapshot with a hand`);
        for (const seat of seats) {
          const ids = new Set(secret(seat).map((c) => c.id));
          for (const r of msg ? cardRefs(msg) : []) {
            refs++;
            assert.ok(
              !ids.has(r.id) || (own !== null && held[own].has(r.id)),
              `${label}: card ${r.id} of seat ${seat}'s hand`,
            );
          }
          if (msg && msg.type === 'patch')
            for (const op of msg.ops)
              if (/\/id$/.test(op.path))
                assert.ok(
                  !ids.has(op.value),
                  `${label}: card ${op.value} of seat ${seat}'s hand in ${op.path}`,
                );
          for (const k of secretKeys(seat, own === null ? new Set() : heldKeys(own))) {
            assert.ok(!text.includes(`"${k}"`), `${label}: "${k}" from seat ${seat}'s hand`);
            assert.ok(
              !text.includes(nameOf.get(k)),
              `${label}: "${nameOf.get(k)}" from seat ${seat}'s hand`,
            );
          }
        }
      }
      return refs;
    };
    assert.ok(spy.framesIn.length > 5, 'the spectator got live updates');
    assert.ok(
      check('spectator frame', spy.framesIn, [0, 1]) > 0,
      'the spectator saw public cards (the check is not vacuous)',
    );
    check(
      'spectator REST',
      spy.rest.filter((r) => r.url.includes('/games/')).map((r) => r.body),
      [0, 1],
    );
    check('Altair frame', alice.framesIn, [1], 0);
    check('Bellatrix frame', bob.framesIn, [0], 1);
    check(
      'Bellatrix REST',
      bob.rest.filter((r) => r.url.includes('/games/')).map((r) => r.body),
      [0],
      1,
    );
    const aliceTexts = [...alice.framesIn, ...alice.rest.map((r) => r.body)];
    const refOf = (c) => new RegExp(`"id":\\s*${c.id},\\s*"key":\\s*"${c.key}"`);
    assert.ok(
      secret(0).some((c) => aliceTexts.some((t) => refOf(c).test(t))),
      'a player does receive their own hand (the search works)',
    );
    // The DOM: no secret card drawn anywhere.
    for (const [label, page, seats] of [
      ['spectator', spy, [0, 1]],
      ['Bellatrix', bob, [0]],
    ]) {
      const html = await page.locator('main').innerHTML();
      for (const seat of seats)
        for (const c of secret(seat))
          assert.ok(!html.includes(`data-card="${c.id}"`), `${label} DOM has card ${c.id}`);
    }
    for (const p of [alice, bob, spy]) assert.deepEqual(p.problems, []);
    await A.context.close();
    await B.context.close();
    await S.context.close();
  },
);

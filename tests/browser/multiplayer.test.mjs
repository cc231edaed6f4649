// multiplayer.test.mjs - two players in two browser contexts play a
// two-seat Galactic Sprint game to the end through the page while a third,
// signed-out context watches it from the lobby list. The spectator's page
// never shows a hand: its DOM, every WebSocket frame it received and every
// REST answer it read are searched for the hand cards of both seats (card
// ids, card keys and titles that were held but never placed). Each player's
// frames are searched for the other seat's hand too. One player reloads the
// page mid-game and finds the game where it was, order included.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { sleep } from '../integration/lib/server.mjs';
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
} from './lib/browser.mjs';
import { pending, playMove, handCards } from './lib/sprint.mjs';

const skip = chromiumPath() ? false : 'no Chromium installed';
let db, server, chrome;

before(async () => {
  // CONCLAVE_TEST_HOOKS: the game's deal is fixed (fixDeal); the moves come
  // from GET /legal (lib/sprint.mjs).
  if (!skip) ({ db, server, chrome } = await startStack('web', { CONCLAVE_TEST_HOOKS: '1' }));
});
after(() => stopStack({ db, server, chrome }));

// Every {id, card} reference anywhere in a JSON value.
function cardRefs(v, out = []) {
  if (Array.isArray(v)) v.forEach((x) => cardRefs(x, out));
  else if (v && typeof v === 'object') {
    if (Number.isInteger(v.id) && typeof v.card === 'string') out.push(v);
    Object.values(v).forEach((x) => cardRefs(x, out));
  }
  return out;
}

test(
  'two players play Sprint to the end while a spectator watches without seeing a hand',
  { skip, timeout: 230000 },
  async () => {
    const A = await openPage(chrome.browser);
    await fixDeal(A.context, 'multiplayer'); // the host starts: the deal is fixed
    const B = await openPage(chrome.browser);
    const S = await openPage(chrome.browser);
    const alice = A.page;
    const bob = B.page;
    const spy = S.page;

    await signUpGuest(alice, server, 'Aurelia-marker');
    await signUpGuest(bob, server, 'Bertrand-marker');
    await createLobby(alice, { game: 'Galactic Sprint', seats: 2, options: { 'Target VP': 20 } });

    // Bob finds the lobby in the live list and joins.
    await bob.goto(pageUrl(server, '/'));
    await bob
      .locator('.lobby-row', { hasText: 'Aurelia-marker' })
      .getByRole('button', { name: /^Join/ })
      .click();
    await bob.waitForURL(/\/lobby\//);
    await alice.locator('.seat-row', { hasText: 'Bertrand-marker' }).waitFor();
    // The spectator, signed out, keeps the home page open.
    await spy.goto(pageUrl(server, '/'));
    await waitLive(spy);

    await alice.getByRole('button', { name: 'Start game' }).click();
    await alice.waitForURL(/\/game\//);
    const gameId = new URL(alice.url()).pathname.split('/').pop();
    // Bob's lobby page opens the game by itself.
    await bob.waitForURL(new RegExp(`/game/${gameId}`));
    // The spectator's list shows the game (the lobby feed announced the start).
    const row = spy.locator(`li[data-game-id="${gameId}"]`);
    await row.waitFor({ timeout: 20000 });
    await row.getByRole('link', { name: /Watch/ }).click();
    await spy.waitForURL(new RegExp(`/game/${gameId}`));
    await spy.locator('.tag-watch').waitFor();
    assert.equal(await spy.locator('section.hand').count(), 0, 'the spectator has no hand');
    assert.equal(await spy.locator('section.move').count(), 0, 'the spectator has no move to make');

    const held = { 0: new Map(), 1: new Map() }; // seat -> id -> {key, name}
    const note = async (seat, page) => {
      for (const c of await handCards(page)) held[seat].set(c.id, c);
    };
    let reloaded = false;
    let spectatorSawSubmitted = false;
    const deadline = Date.now() + 180000;
    const players = [
      { seat: 1, page: bob },
      { seat: 0, page: alice },
    ];
    for (;;) {
      if ((await alice.getByTestId('result').count()) && (await bob.getByTestId('result').count()))
        break;
      assert.ok(Date.now() < deadline, 'the game ends in time');
      let acted = false;
      for (const { seat, page } of players) {
        const w = await pending(page);
        if (!w) continue;
        // Round 2's placement: Bob goes first, so that the spectator can see
        // him in while Alice is still choosing (on a busy machine Bob's page
        // may show the window after Alice's, and her order would close it).
        if (seat === 0 && w === 'r2.place' && !reloaded) continue;
        await note(seat, page);
        await playMove(page, w, { strategy: 'build' });
        acted = true;
        if (seat === 1 && w === 'r2.place' && !reloaded) {
          // Bob has submitted, Alice not yet: the spectator sees who is in.
          await spy.getByTestId('status-1').filter({ hasText: 'submitted' }).waitFor();
          await spy.getByTestId('status-0').filter({ hasText: 'choosing' }).waitFor();
          spectatorSawSubmitted = true;
          // Bob reloads: same round, same hand, his order still shown as in.
          const before = (await handCards(bob)).map((c) => c.id);
          const chosen = await bob
            .locator('section.hand .role-placing, section.hand .role-paying')
            .count();
          await bob.reload();
          await waitLive(bob);
          await bob
            .locator('section.move[data-window="r2.place"] [data-testid="submitted"]')
            .waitFor();
          assert.deepEqual(
            (await handCards(bob)).map((c) => c.id),
            before,
            'the same hand after a reload',
          );
          assert.equal(
            await bob.locator('section.hand .role-placing, section.hand .role-paying').count(),
            chosen,
            'the order is shown again',
          );
          assert.match(await bob.getByTestId('round').textContent(), /Round 2/);
          reloaded = true;
        }
      }
      if (!acted) await sleep(150);
    }
    assert.ok(reloaded && spectatorSawSubmitted);
    // The hands at the end (cards drawn after a player's last move).
    await note(0, alice);
    await note(1, bob);

    // Everyone sees the same result.
    await spy.getByTestId('result').waitFor();
    const headline = await spy.locator('#result-h').textContent();
    assert.match(headline, /won/);
    for (const p of [alice, bob])
      assert.match(await p.locator('#result-h').textContent(), /You won|Game over|shared win/);
    const scores = (p) => p.locator('table.scores tbody td').allTextContents();
    assert.deepEqual(await scores(alice), await scores(spy));
    assert.deepEqual(await scores(bob), await scores(spy));
    await shot(spy, 'sprint-spectator');

    // What ended in empires is public; what was held and never placed is not.
    const placed = await spy
      .locator('.empire-cards [data-card-id]')
      .evaluateAll((els) =>
        els.map((e) => ({ id: Number(e.dataset.cardId), key: e.dataset.card })),
      );
    const placedIds = new Set(placed.map((c) => c.id));
    const placedKeys = new Set(placed.map((c) => c.key));
    const secret = (seat) => [...held[seat].values()].filter((c) => !placedIds.has(c.id));
    const secretIds = (seat) => new Set(secret(seat).map((c) => c.id));
    const secretKeys = (seat) =>
      new Set(
        secret(seat)
          .filter((c) => !placedKeys.has(c.key))
          .map((c) => c.key),
      );
    const secretNames = (seat) =>
      new Set(
        secret(seat)
          .filter((c) => !placedKeys.has(c.key))
          .map((c) => c.name),
      );
    for (const seat of [0, 1])
      assert.ok(
        secretIds(seat).size > 0 && secretKeys(seat).size > 0,
        `seat ${seat} kept some cards secret`,
      );

    // A spectator must not receive any trace of a hand: no card reference,
    // key or title of a card that was only ever held. A player's page gets
    // the same card designs in its own hand, so there only the other seat's
    // card instances are searched for (minus any this player held too: a
    // discarded card can come back after a reshuffle).
    const check = (label, texts, seats, own = null) => {
      const ownIds = new Set(own === null ? [] : [...held[own].keys()]);
      let refs = 0;
      for (const text of texts) {
        let msg;
        try {
          msg = JSON.parse(text);
        } catch {
          msg = null;
        }
        if (msg && msg.type === 'snapshot' && own === null)
          assert.equal(msg.view.you, null, `${label}: a snapshot for a seat`);
        if (msg && msg.type === 'patch' && own === null) {
          for (const op of msg.ops)
            assert.ok(!op.path.startsWith('/view/hand'), `${label}: a patch of a hand: ${op.path}`);
        }
        for (const seat of seats) {
          for (const r of msg ? cardRefs(msg) : []) {
            refs++;
            if (!ownIds.has(r.id))
              assert.ok(
                !secretIds(seat).has(r.id),
                `${label}: card ${r.id} of seat ${seat}'s hand`,
              );
          }
          if (own !== null) continue;
          for (const k of secretKeys(seat))
            assert.ok(!text.includes(k), `${label}: "${k}" from seat ${seat}'s hand`);
          for (const n of secretNames(seat))
            assert.ok(!text.includes(n), `${label}: "${n}" from seat ${seat}'s hand`);
        }
      }
      return refs;
    };

    // The spectator: frames, REST bodies, DOM.
    assert.ok(spy.framesIn.length > 5, 'the spectator got live updates');
    const refs = check('spectator frame', spy.framesIn, [0, 1]);
    assert.ok(refs > 0, 'the spectator saw public cards (the check is not vacuous)');
    check(
      'spectator REST',
      spy.rest.filter((r) => r.url.includes('/games/')).map((r) => r.body),
      [0, 1],
    );
    const dom = await spy.locator('main').innerText();
    const html = await spy.locator('main').innerHTML();
    for (const seat of [0, 1]) {
      for (const n of secretNames(seat)) assert.ok(!dom.includes(n), `spectator DOM shows ${n}`);
      for (const id of secretIds(seat))
        assert.ok(!html.includes(`data-card-id="${id}"`), `spectator DOM has card ${id}`);
    }
    assert.match(dom, /Aurelia-marker/);
    assert.match(dom, /Bertrand-marker/);
    // Each player never receives the other's hand; and does receive their own.
    check('Alice frame', alice.framesIn, [1], 0);
    check('Bob frame', bob.framesIn, [0], 1);
    const own = [...secretKeys(0)].some((k) => alice.framesIn.some((t) => t.includes(k)));
    assert.ok(own, 'a player does receive their own hand (the search works)');

    for (const p of [alice, bob, spy]) assert.deepEqual(p.problems, []);
    await A.context.close();
    await B.context.close();
    await S.context.close();
  },
);

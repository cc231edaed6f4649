// sprint.mjs - playing Galactic Sprint through the page, as a player would:
// read what the move panel asks for, click an action, click cards in the
// hand to place and to pay, and submit. The one thing read from the server
// is GET /legal (legalChoices), to choose a move it allows.

// The hand cards a page shows: [{id, key, name}].
export async function handCards(page) {
  return page.locator('section.hand [data-card-id]').evaluateAll((els) =>
    els.map((e) => ({
      id: Number(e.dataset.cardId),
      key: e.dataset.card,
      name: e.querySelector('.card-name').textContent,
    })),
  );
}

// Wait until the page shows a move to make in a window other than `after`
// (or the game is over / nothing waits on us). Returns the window id or null.
export async function nextWindow(page, after, timeout = 30000) {
  const handle = await page.waitForFunction(
    (prev) => {
      const move = document.querySelector('section.move[data-window]');
      if (document.querySelector('[data-testid="result"]')) return 'over';
      if (!move) return false;
      const w = move.dataset.window;
      if (w === prev) return false;
      if (move.querySelector('[data-testid="submitted"]')) return false;
      if (move.dataset.legal === 'no' && !document.getElementById('discard-status')) return false;
      return w;
    },
    after,
    { timeout },
  );
  const w = await handle.jsonValue();
  return w === 'over' ? null : w;
}

async function waitSubmitted(page, windowId) {
  await page.waitForFunction(
    (w) => {
      const move = document.querySelector('section.move');
      if (document.querySelector('[data-testid="result"]')) return true;
      if (!move || move.dataset.window !== w) return true;
      return !!move.querySelector('[data-testid="submitted"]');
    },
    windowId,
    { timeout: 20000 },
  );
}

async function clickPayCards(page, need) {
  for (let i = 0; i < need; i++) {
    await page
      .locator('section.hand button.card[data-card-id]:not(.role-placing):not(.role-paying)')
      .first()
      .click();
  }
}

// The legal choices of `windowId` for the player the page is signed in as:
// GET /legal, with the page's own session. A move is chosen from these, so
// it never depends on the deal: whatever the cards, the test plays a move
// the server has said is possible (a military world is conquered only when
// /legal lists it conquered, and paid for only when it lists it paid for).
export async function legalChoices(page, windowId) {
  return page.evaluate(async (w) => {
    const id = location.pathname.split('/').pop();
    const r = await fetch(`/api/v1/games/${encodeURIComponent(id)}/legal`, {
      headers: { authorization: `Bearer ${localStorage.getItem('conclave.token')}` },
    });
    if (!r.ok) throw new Error(`GET /legal: HTTP ${r.status}`);
    const mine = ((await r.json()).windows || []).find((x) => x.window === w);
    return mine ? mine.choices || [] : [];
  }, windowId);
}

// Choose the move the page asks for in `windowId`, without submitting it.
// strategy: 'build' places a card of the hand by itself, as GET /legal lists
// it (a world settled alone preferred, then a development, each in the
// listed world mode and payable with the other cards of the hand), else
// explores; 'explore' always explores. Returns what was chosen.
export async function chooseMove(page, windowId, { strategy = 'build' } = {}) {
  const move = page.locator(`section.move[data-window="${windowId}"]`);
  const discard = page.locator('#discard-status');
  if (await discard.count()) {
    const need = Number(await discard.getAttribute('data-must-discard'));
    const cards = page.locator('section.hand button.card[data-card-id]');
    const total = await cards.count();
    // Discard the newest cards (the end of the hand).
    for (let i = 0; i < need; i++) await cards.nth(total - 1 - i).click();
    return { kind: 'discard', n: need };
  }
  if (strategy === 'build') {
    const hand = (await handCards(page)).map((c) => c.id);
    const inHand = (id) => id !== undefined && hand.includes(id);
    const payable = (c) => c.cost <= hand.length - 1;
    const choices = await legalChoices(page, windowId);
    const alone = (c) =>
      c.convoy_world === undefined &&
      !c.survey &&
      (c.action === 'settle' ? c.development === undefined : c.world === undefined);
    const byHand = (a, b) =>
      hand.indexOf(a.world ?? a.development) - hand.indexOf(b.world ?? b.development);
    const pick =
      choices
        .filter((c) => c.action === 'settle' && inHand(c.world) && alone(c) && payable(c))
        .sort(byHand)[0] ||
      choices
        .filter((c) => c.action === 'develop' && inHand(c.development) && alone(c) && payable(c))
        .sort(byHand)[0];
    if (pick) {
      const action = pick.action;
      const card = action === 'settle' ? pick.world : pick.development;
      await move.locator(`label.action:has(input[value="${action}"])`).click();
      await page.locator(`[data-key="card-${card}"]`).click();
      // A military world shows how to place it: take the mode /legal lists.
      const mode = page.locator(`input[data-key="mode-world-${pick.world_mode}"]`);
      if (action === 'settle' && pick.world_mode && (await mode.count())) await mode.check();
      const status = page.locator('#pay-status');
      await status.waitFor({ timeout: 10000 }).catch(async () => {
        const why = await page
          .locator('#order-problems')
          .textContent()
          .catch(() => '(no problems listed)');
        throw new Error(`no payment shown after choosing ${JSON.stringify(pick)}: ${why}`);
      });
      const need = Number(await status.getAttribute('data-need'));
      if (need !== pick.cost)
        throw new Error(`the page asks ${need} cards for ${JSON.stringify(pick)}`);
      await clickPayCards(page, need);
      return { kind: action, card: `card-${card}`, mode: pick.world_mode, paid: need };
    }
  }
  await move.locator('label.action:has(input[value="explore"])').click();
  return { kind: 'explore' };
}

// Submit what chooseMove chose and wait until the server has it.
export async function submitMove(page, windowId, done) {
  await page
    .waitForFunction(
      () => {
        const b = document.querySelector('[data-testid="submit-order"]');
        return b && !b.disabled;
      },
      null,
      { timeout: 5000 },
    )
    .catch(async () => {
      const why = await page
        .locator('#order-problems')
        .textContent()
        .catch(() => '');
      throw new Error(`submit stays disabled for ${JSON.stringify(done)}: ${why}`);
    });
  await page.getByTestId('submit-order').click();
  await waitSubmitted(page, windowId);
  const err = page.getByTestId('server-error');
  if (await err.count())
    throw new Error(`the server refused ${JSON.stringify(done)}: ${await err.textContent()}`);
  return done;
}

export async function playMove(page, windowId, opts = {}) {
  return submitMove(page, windowId, await chooseMove(page, windowId, opts));
}

// Play until the result shows. Returns the moves made.
export async function playToEnd(page, { strategy = 'build', onWindow, maxWindows = 200 } = {}) {
  const moves = [];
  let last = null;
  for (let i = 0; i < maxWindows; i++) {
    const w = await nextWindow(page, last);
    if (!w) break;
    if (onWindow) await onWindow(w, moves);
    moves.push({ window: w, ...(await playMove(page, w, { strategy })) });
    last = w;
  }
  await page.getByTestId('result').waitFor({ timeout: 30000 });
  return moves;
}

// The window the page asks us to act in right now (ready to play), or null.
export async function pending(page) {
  return page.evaluate(() => {
    const move = document.querySelector('section.move[data-window]');
    if (!move || move.querySelector('[data-testid="submitted"]')) return null;
    if (move.dataset.legal !== 'yes' && !document.getElementById('discard-status')) return null;
    return move.dataset.window;
  });
}

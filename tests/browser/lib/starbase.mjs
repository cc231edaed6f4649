// starbase.mjs - playing Starbase through the page, as a player would:
// wait until the table offers you something (your priority, your choices
// loaded), click a card's button or the pass / end-phase button, and wait
// for the table to move on. Nothing here talks to the server.

// The state of the table: 'over', a window id the page offers plays in,
// or '' (waiting on somebody else).
export async function tableState(page) {
  return page.evaluate(() => {
    if (document.querySelector('[data-testid="result"]')) return 'over';
    const t = document.querySelector('.sb-layout');
    if (!t) return '';
    const w = t.dataset.window || '';
    if (!w) return '';
    return document.querySelector('.sb-layout button[data-action]:not([disabled])') ? w : '';
  });
}

// Wait until the page offers plays in a window other than `after`, or the
// game is over. Returns the window id, 'over', or null on a timeout.
export async function nextChoice(page, after, timeout = 20000) {
  try {
    const handle = await page.waitForFunction(
      (prev) => {
        if (document.querySelector('[data-testid="result"]')) return 'over';
        const t = document.querySelector('.sb-layout');
        if (!t || !t.dataset.window || t.dataset.window === prev) return false;
        if (!document.querySelector('.sb-layout button[data-action]:not([disabled])')) return false;
        return t.dataset.window;
      },
      after,
      { timeout, polling: 40 },
    );
    return await handle.jsonValue();
  } catch {
    return null;
  }
}

// The hand cards a page shows: [{id, key, name}].
export async function handCards(page) {
  return page.locator('section.sb-hand [data-card]').evaluateAll((els) =>
    els.map((e) => ({
      id: Number(e.dataset.card),
      key: e.dataset.key,
      name: e.querySelector('.sb-card-name').textContent,
    })),
  );
}

export const EVERYTHING = ['play', 'outer', 'undock', 'activate', 'upgrade', 'warp', 'ability'];

// One click: in a management phase, while `budget` lasts, a random one of
// the buttons whose action is in `prefer`; else the pass / end button.
// Returns the action clicked, or null when no button is offered any more.
export async function clickOne(page, { budget, rng, prefer = EVERYTHING }) {
  const { buttons, step } = await page.evaluate(() => ({
    buttons: [...document.querySelectorAll('.sb-layout button[data-action]:not([disabled])')].map(
      (e) => ({ key: e.dataset.key, action: e.dataset.action }),
    ),
    step: document.querySelector('.sb-layout').dataset.step,
  }));
  let pick = null;
  if (budget > 0 && step === 'management') {
    const useful = buttons.filter((b) => prefer.includes(b.action));
    if (useful.length) pick = useful[Math.floor(rng() * useful.length)];
  }
  if (!pick)
    pick =
      buttons.find((b) => b.action === 'pass') ||
      buttons.find((b) => b.action === 'discard') ||
      buttons[0];
  if (!pick) return null; // the table moved on (or is redrawing): look again
  await page.locator(`.sb-layout button[data-key="${pick.key}"]`).click();
  return pick.action;
}

export { seeded } from '../../integration/lib/random.mjs';

// Every card object ({id, key, ...}) in a JSON value.
export function cardRefs(j, out = []) {
  if (Array.isArray(j)) j.forEach((x) => cardRefs(x, out));
  else if (j && typeof j === 'object') {
    if (Number.isInteger(j.id) && typeof j.key === 'string') out.push(j);
    for (const v of Object.values(j)) cardRefs(v, out);
  }
  return out;
}

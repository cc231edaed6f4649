// skirmish.mjs - the canary's Skirmish (registry.mjs): games, the squares
// of a deployment, and the check that no squad or square shows before its
// sealed window locked.
import assert from 'node:assert/strict';
import { sample, bot, QUICK, driveLegal, eachDoc } from './kit.mjs';

// Skirmish: a seat's home squares (seat 0 rows 1-3, seat 1 rows 4-6).
function skirmishSquares(seat, n) {
  const rows = seat === 0 ? ['1', '2', '3'] : ['4', '5', '6'];
  const all = [];
  for (const r of rows) for (const c of 'abcde') all.push(c + r);
  return sample(all, n);
}

// Skirmish: before the muster locks no squad is in any document (not even
// the seat's own: the state holds none), before the deployment locks no
// unit stands on a square.
export function checkSkirmish(ctx, leak) {
  const muster = ctx.lockVersion.get('muster') ?? Infinity;
  const deploy = ctx.lockVersion.get('deploy') ?? Infinity;
  let checked = 0;
  for (const a of ctx.auds) {
    eachDoc(ctx, a, (d, v, r, where) => {
      const view = d?.view;
      if (!view) return;
      checked++;
      const units = view.units || [];
      if (v < muster && (units.length || (view.squads || []).length))
        leak(
          `a squad at version ${v} before the muster locked (${muster}) in ${where}`,
          r,
          `${a.label} ${units.map((u) => u.key).join(',')}`,
        );
      if (v < deploy && units.some((u) => u.square))
        leak(
          `a square at version ${v} before the deployment locked (${deploy}) in ${where}`,
          r,
          a.label,
        );
    });
  }
  return checked;
}

export default {
  id: 'skirmish',
  plans: () => [
    { ruleset: 'skirmish', humans: 2, options: { turn_limit: QUICK ? 4 : 6 }, tag: 'K1' },
    {
      ruleset: 'skirmish',
      humans: 1,
      bots: [bot()],
      options: { turn_limit: 6 },
      tag: 'K2',
      isPrivate: true,
    },
  ],
  drive: (ctx) =>
    driveLegal(ctx, {
      budget: QUICK ? 20 : 40,
      seconds: 300,
      order: (c, seat, doc, window, win) =>
        window === 'deploy'
          ? { squares: skirmishSquares(seat, win.shape.properties.squares.minItems) }
          : undefined,
    }),
  bad: { action: 'teleport', unit: 99 },
  notified: true,
  privateParts: true,
  check: (ctx, leak) => ({ checked: checkSkirmish(ctx, leak) }),
  summary: (t) => `${t.checked}`,
  expect: (t) => assert.ok(t.checked > 50, `skirmish documents checked: ${JSON.stringify(t)}`),
};

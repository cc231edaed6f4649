// pile.mjs - the canary's Last Stone (the example ruleset of
// tests/integration/plugin_path.test.mjs, copied into a scratch tree with
// the ruleset): its games and their driver. Nothing is hidden in the game
// itself; the hidden facts every game has (tokens, the seed, table talk)
// are checked by ../canary.test.mjs.
import assert from 'node:assert/strict';
import { pick, hex, sleep, probe, errorProbes, gameNow } from './kit.mjs';

async function drivePile(ctx) {
  const { W, id } = ctx;
  const end = Date.now() + 60000;
  while (Date.now() < end) {
    const g = await gameNow(ctx);
    if (g.status !== 'running') return;
    const w = g.windows[0];
    const a = w && ctx.seatAud.get(w.seats[0]);
    if (!a) {
      await sleep(10);
      continue;
    }
    const most = Math.min(3, g.view.left);
    const r = await W.call(a, 'POST', `/api/v1/games/${id}/plays`, {
      game: id,
      kind: 'ack',
      body: { window: w.id, take: pick([...Array(most).keys()].map((k) => k + 1)) },
      headers: { 'idempotency-key': `c-${hex(8)}` },
    });
    assert.equal(r.status, 200, r.text);
    W.stats.actions++;
    await probe(ctx);
    await errorProbes(ctx, w.id, new Set());
  }
  assert.fail(`${ctx.tag}: the game did not finish`);
}

export default {
  id: 'pile',
  plans: () => [
    { ruleset: 'pile', humans: 2, tag: 'P1', options: { stones: 9 } },
    { ruleset: 'pile', humans: 1, bots: ['random', 'random'], tag: 'P2', isPrivate: true },
  ],
  drive: drivePile,
  bad: { take: 7 },
};

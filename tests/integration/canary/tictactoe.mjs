// tictactoe.mjs - the canary's tic-tac-toe (registry.mjs): games and their
// driver. Its hidden facts are the ones every game has (tokens, the seed,
// table talk), checked by ../canary.test.mjs.
import assert from 'node:assert/strict';
import { pick, hex, bot, sleep, probe, errorProbes, gameNow } from './kit.mjs';

async function driveTictactoe(ctx) {
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
    const free = g.view.board.map((c, i) => (c === null ? i : -1)).filter((i) => i >= 0);
    const r = await W.call(a, 'POST', `/api/v1/games/${id}/plays`, {
      game: id,
      kind: 'ack',
      body: { window: w.id, cell: pick(free) },
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
  id: 'tictactoe',
  plans: () => [
    { ruleset: 'tictactoe', humans: 2, tag: 'T1', isPrivate: true },
    { ruleset: 'tictactoe', humans: 1, bots: [bot()], tag: 'T2' },
  ],
  drive: driveTictactoe,
  bad: { cell: 42 },
};

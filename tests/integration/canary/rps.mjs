// rps.mjs - the canary's rock-paper-scissors (registry.mjs): games and
// their driver. Order notes are markers ("note"): ../canary.test.mjs's
// entitled() says who may see one and from which version.
import assert from 'node:assert/strict';
import {
  rnd,
  pick,
  chance,
  sample,
  hex,
  bot,
  sleep,
  QUICK,
  probe,
  errorProbes,
  gameNow,
} from './kit.mjs';

// rps: each human seat orders with a note marker; some first order, then
// replace or withdraw (those notes must never be seen by anyone else).
async function driveRps(ctx) {
  const { W, id } = ctx;
  const end = Date.now() + 90000;
  const throwOf = () => pick(['rock', 'paper', 'scissors']);
  const note = (seat, w) => {
    const value = `CNRY${ctx.tag}s${seat}${w}x${hex(6)}`;
    const m = W.markers.add({ kind: 'note', value, game: id, seat, window: w });
    ctx.notes.push(m);
    return value;
  };
  while (Date.now() < end) {
    const g = await gameNow(ctx);
    if (g.status !== 'running') return;
    const w = g.windows[0];
    const unsent = [...ctx.seatAud.keys()].filter((s) => !w.submitted.includes(s));
    if (unsent.length === 0) {
      await sleep(10);
      continue;
    }
    const held = new Set(w.submitted);
    for (const seat of sample(unsent, unsent.length)) {
      const a = ctx.seatAud.get(seat);
      const put = (body) =>
        W.call(a, 'PUT', `/api/v1/games/${id}/orders/${w.id}`, { game: id, kind: 'ack', body });
      // Only an order that cannot lock the window may be replaced: another
      // human seat (which only this test moves) must still be missing. The
      // export says afterwards which note was revealed.
      const otherHumans = [...ctx.seatAud.keys()].filter((s) => s !== seat && !held.has(s));
      if (otherHumans.length > 0 && chance(0.6)) {
        const r = await put({ throw: throwOf(), note: note(seat, w.id) });
        assert.equal(r.status, 200, r.text);
        await probe(ctx);
        await errorProbes(ctx, w.id, new Set([...held, seat]));
        if (chance(0.5)) {
          const d = await W.call(a, 'DELETE', `/api/v1/games/${id}/orders/${w.id}`, { game: id });
          assert.equal(d.status, 204, d.text);
          W.stats.withdrawn++;
          await probe(ctx);
        } else {
          W.stats.replaced++;
        }
      }
      const body = { throw: throwOf() };
      if (chance(0.85)) body.note = note(seat, w.id);
      const r = await put(body);
      if (r.status === 409) {
        W.stats.lateOrders++; // the window locked meanwhile (a timeout cannot; a bug if seen)
      } else {
        assert.equal(r.status, 200, r.text);
      }
      held.add(seat);
      W.stats.actions++;
      await probe(ctx);
      await errorProbes(ctx, w.id, held);
    }
  }
  assert.fail(`${ctx.tag}: the game did not finish`);
}

export default {
  id: 'rps',
  plans: () => [
    {
      ruleset: 'rps',
      humans: 2,
      options: { rounds: QUICK ? 3 : 6 + Math.floor(rnd() * 4) },
      tag: 'R1',
    },
    { ruleset: 'rps', humans: 2, options: { rounds: 3 }, tag: 'R2', isPrivate: true },
    { ruleset: 'rps', humans: 1, bots: [bot()], options: { rounds: QUICK ? 3 : 6 }, tag: 'R3' },
  ],
  drive: driveRps,
  bad: { throw: 'lizard' },
  notified: true,
  markers: ['note'],
};

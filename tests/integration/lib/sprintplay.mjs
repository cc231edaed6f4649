// sprintplay.mjs - playing Galactic Sprint over REST for tests: a placement
// for a human seat from the legal choices, and a whole game played out.
import assert from 'node:assert/strict';
import { sleep } from './server.mjs';

// A placement for the human: a random enumerated choice paid with hand cards
// that the placement itself does not use; explore when none can be paid.
export function placement(choices, hand, rnd) {
  const options = [];
  for (const c of choices) {
    const used = new Set([c.development, c.world, c.convoy_world].filter((x) => x !== undefined));
    const spare = hand.filter((id) => !used.has(id));
    if (c.cost <= spare.length) options.push({ c, spare });
  }
  if (!options.length || rnd() < 0.15) return { action: 'explore' };
  const { c, spare } = options[Math.floor(rnd() * options.length)];
  const order = { ...c };
  delete order.cost;
  if (order.action !== 'explore') order.pay = spare.slice(0, c.cost);
  return order;
}

// Play a started game for one human seat to its end; returns the final game.
export async function playOut(call, id, human, rnd) {
  const deadline = Date.now() + 40000;
  for (;;) {
    assert.ok(Date.now() < deadline, 'the game did not end in time');
    const legal = await call('GET', `/api/v1/games/${id}/legal`, { token: human.token });
    const w = legal.body.windows[0];
    if (!w) {
      const g = await call('GET', `/api/v1/games/${id}`, { token: human.token });
      if (g.body.status !== 'running') return g.body;
      await sleep(20);
      continue;
    }
    const view = await call('GET', `/api/v1/games/${id}/view`, { token: human.token });
    const hand = view.body.hand.map((c) => c.id);
    let body = w.shape.required?.includes('discard')
      ? {
          discard: w.shape.properties.discard.items.enum.slice(
            0,
            w.shape.properties.discard.minItems,
          ),
        }
      : placement(w.choices, hand, rnd);
    let r = await call('PUT', `/api/v1/games/${id}/orders/${w.window}`, {
      token: human.token,
      body,
    });
    if (r.status === 422 && !body.discard) {
      body = { action: 'explore' };
      r = await call('PUT', `/api/v1/games/${id}/orders/${w.window}`, { token: human.token, body });
    }
    assert.equal(r.status, 200, r.text);
  }
}

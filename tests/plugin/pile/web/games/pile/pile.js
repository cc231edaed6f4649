// pile.js - the Last Stone table: the pile, whose turn it is, and one
// button per number of stones the seat may take (POST /plays {"window",
// "take"} through game.js).

import { h, render, toast } from '../../ui.js';
import { seatName, logPanel, describeEngineEntry } from '../../gamekit.js';

export function pileRenderer(c) {
  async function takeStones(m, n) {
    try {
      await c.play({ window: m.myWindow.id, take: n });
    } catch (e) {
      toast(e.detail || e.message, 'error');
    }
  }

  return {
    update(root, m) {
      const v = m.view || {};
      const mine = !!m.myWindow && m.status === 'running';
      let status = '';
      if (v.winner !== null && v.winner !== undefined)
        status =
          v.winner === m.you
            ? 'You took the last stone: you won!'
            : `${seatName(m.seats, v.winner)} took the last stone.`;
      else if (mine) status = 'Your turn: take one to three stones.';
      else if (v.turn !== null && v.turn !== undefined)
        status = `${seatName(m.seats, v.turn)} to move.`;
      const most = Math.min(3, v.left || 0);
      const buttons = [1, 2, 3].map((n) =>
        h(
          'button.pile-take',
          {
            type: 'button',
            'data-take': n,
            disabled: !mine || n > most,
            onclick: () => takeStones(m, n),
          },
          `Take ${n}`,
        ),
      );
      const lines = m.log
        .map((e) => {
          const x = e.entry || {};
          if (x.type === 'take')
            return {
              seq: e.seq,
              text: `${seatName(m.seats, x.seat)} took ${x.stones}; ${x.left} left.`,
            };
          return { seq: e.seq, text: describeEngineEntry(x, m.seats, m.you) };
        })
        .filter((l) => l.text);
      render(
        root,
        h(
          'div.pile-layout',
          h(
            'section.panel.pile',
            { 'aria-labelledby': 'game-h' },
            h('h1#game-h', 'Last Stone'),
            h('p.pile-left', { 'data-testid': 'pile-left' }, `${v.left} stones left`),
            h(
              'p.status',
              { role: 'status', 'aria-live': 'polite', 'data-testid': 'pile-status' },
              status,
            ),
            h('div.pile-actions', buttons),
          ),
          logPanel(lines),
        ),
      );
    },
  };
}

// rps.js - rock-paper-scissors: one sealed window per round; a throw is
// PUT /orders/{window} {"throw"} (changeable until both have thrown).

import { h, render, toast } from '../../ui.js';
import { seatName, countdown, logPanel, describeEngineEntry } from '../../gamekit.js';

const THROWS = ['rock', 'paper', 'scissors'];
const GLYPH = { rock: '✊', paper: '✋', scissors: '✌' };

export function rpsRenderer(c) {
  let busy = false;

  async function send(m, t) {
    const w = m.myWindow;
    if (!w || busy) return;
    busy = true;
    try {
      await c.putOrder(w.id, { throw: t });
    } catch (e) {
      toast(e.detail || e.message, 'error');
    } finally {
      busy = false;
      c.draw();
    }
  }

  function describe(entry, m) {
    const e = entry.entry || {};
    if (e.type === 'round') {
      const who =
        e.winner === null
          ? 'a tie'
          : `${e.winner === m.you ? 'you win' : `${seatName(m.seats, e.winner)} wins`}`;
      return `Round ${e.round}: ${e.throws[0]} against ${e.throws[1]} – ${who} (${e.scores[0]}:${e.scores[1]}).`;
    }
    if (e.type === 'reveal' || e.type === 'your_order') return null;
    return describeEngineEntry(e, m.seats, m.you);
  }

  return {
    update(root, m) {
      const v = m.view || {};
      const w = m.myWindow;
      const open = m.windows[0];
      const saved = w ? c.savedOrder(w.id) : null;
      const mine = saved && saved.order && saved.order.throw;
      const done = w && w.submitted.includes(m.you);
      const over = m.status !== 'running';
      let status;
      if (over)
        status =
          v.winner === null || v.winner === undefined
            ? 'The match is drawn.'
            : v.winner === m.you
              ? 'You won the match!'
              : `${seatName(m.seats, v.winner)} won the match.`;
      else if (w)
        status = done
          ? `You threw ${mine || 'your hand'}; you can change it until the other player throws.`
          : `Round ${v.round} of ${v.rounds}: choose your throw.`;
      else status = `Round ${v.round} of ${v.rounds}.`;
      const lines = m.log.map((e) => ({ seq: e.seq, text: describe(e, m) })).filter((l) => l.text);
      render(
        root,
        h(
          'div.ttt-layout',
          h(
            'section.panel.rps',
            { 'aria-labelledby': 'game-h' },
            h(
              'div.panel-head',
              h('h1#game-h', 'Rock-paper-scissors'),
              m.spectator ? h('span.tag.tag-watch', 'watching') : null,
            ),
            h(
              'p.players',
              [0, 1].map((s) =>
                h(
                  'span.seat-badge',
                  { class: `seat-c${s}` },
                  seatName(m.seats, s),
                  s === m.you ? h('span.tag.tag-you', 'you') : null,
                  h(
                    'strong.score',
                    { 'aria-label': `score ${(v.scores || [0, 0])[s]}` },
                    ` ${(v.scores || [0, 0])[s]}`,
                  ),
                  open && open.submitted.includes(s) && !over
                    ? h('span.tag.tag-done', 'thrown')
                    : null,
                ),
              ),
            ),
            h('p.status', { role: 'status', 'aria-live': 'polite' }, status),
            open ? countdown(open.deadline) : null,
            w && !over
              ? h(
                  'div.rps-throws',
                  { role: 'group', 'aria-label': 'Your throw' },
                  THROWS.map((t) =>
                    h(
                      'button.rps-throw',
                      {
                        type: 'button',
                        'data-key': `throw-${t}`,
                        'aria-pressed': String(mine === t && done),
                        disabled: busy,
                        onclick: () => send(m, t),
                      },
                      h('span', { 'aria-hidden': 'true' }, GLYPH[t]),
                      ` ${t}`,
                    ),
                  ),
                )
              : null,
            (v.history || []).length
              ? h(
                  'table.rps-history',
                  h('caption', 'Rounds'),
                  h(
                    'thead',
                    h(
                      'tr',
                      h('th', { scope: 'col' }, '#'),
                      h('th', { scope: 'col' }, seatName(m.seats, 0)),
                      h('th', { scope: 'col' }, seatName(m.seats, 1)),
                    ),
                  ),
                  h(
                    'tbody',
                    v.history.map((r, i) =>
                      h('tr', h('td', String(i + 1)), h('td', r[0]), h('td', r[1])),
                    ),
                  ),
                )
              : null,
            over
              ? h(
                  'p.result-actions',
                  h('a.button', { href: c.ctx.href('/') }, 'Back to the lobbies'),
                )
              : null,
          ),
          logPanel(lines),
        ),
      );
    },
  };
}

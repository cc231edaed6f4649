// tictactoe.js - the tic-tac-toe board: nine real buttons (row-major from
// the top left), a play is POST /plays {"window","cell"} with an
// Idempotency-Key (game.js). Seat 0 is X, seat 1 is O.

import { h, render, toast } from '../../ui.js';
import { seatName, countdown, logPanel, describeEngineEntry } from '../../gamekit.js';

const MARK = ['X', 'O'];
const LINES = [
  [0, 1, 2],
  [3, 4, 5],
  [6, 7, 8],
  [0, 3, 6],
  [1, 4, 7],
  [2, 5, 8],
  [0, 4, 8],
  [2, 4, 6],
];

const cellName = (i) => `row ${Math.floor(i / 3) + 1}, column ${(i % 3) + 1}`;

export function tictactoeRenderer(c) {
  // The cell being sent, and its window: it stays marked as sent until the
  // game the page holds shows the move (the answer to the play can come
  // before the feed's patch), so the board never offers it again meanwhile.
  let pending = null;
  let pendingWindow = null;

  async function playCell(m, cell) {
    const w = m.myWindow;
    if (!w || pending !== null) return;
    pending = cell;
    pendingWindow = w.id;
    c.draw();
    try {
      await c.play({ window: w.id, cell });
    } catch (e) {
      toast(e.detail || e.message, 'error');
      pending = null;
      c.draw();
    }
  }

  // The move has reached the page's copy of the game (its window closed).
  function settle(m) {
    if (pending !== null && (!m.myWindow || m.myWindow.id !== pendingWindow)) pending = null;
  }

  function describe(entry, m) {
    const e = entry.entry || {};
    const name = (s) => (s === m.you ? 'You' : seatName(m.seats, s));
    if (e.type === 'move') return `${name(e.seat)} (${MARK[e.seat]}) took ${cellName(e.cell)}.`;
    if (e.type === 'forfeit') return `${name(e.seat)} ran out of time and forfeits.`;
    return describeEngineEntry(e, m.seats, m.you);
  }

  return {
    update(root, m) {
      settle(m);
      const v = m.view || {};
      const board = v.board || Array(9).fill(null);
      const over = m.status !== 'running' || v.winner !== null || v.draw;
      const w = m.myWindow;
      const myTurn = !!w && !over;
      const winLine =
        v.winner !== null && v.winner !== undefined
          ? LINES.find((l) => l.every((i) => board[i] === v.winner))
          : null;
      let status;
      if (v.winner !== null && v.winner !== undefined)
        status =
          v.winner === m.you
            ? 'You won!'
            : `${seatName(m.seats, v.winner)} (${MARK[v.winner]}) won.`;
      else if (v.draw) status = 'A draw.';
      else if (m.status === 'aborted') status = 'The game was aborted.';
      else if (myTurn) status = `Your turn: place an ${MARK[m.you]}.`;
      else if (v.turn !== null && v.turn !== undefined)
        status = `${seatName(m.seats, v.turn)} (${MARK[v.turn]}) to move.`;
      else status = '';
      const cells = board.map((mark, i) => {
        const free = mark === null;
        const label = `${cellName(i)}: ${free ? 'empty' : MARK[mark]}`;
        return h(
          'button.ttt-cell',
          {
            type: 'button',
            'data-key': `cell-${i}`,
            'data-cell': i,
            'aria-label': label,
            class: [
              free ? 'free' : `mark-${MARK[mark]}`,
              winLine && winLine.includes(i) ? 'win' : '',
              pending === i ? 'sending' : '',
            ].join(' '),
            disabled: !(myTurn && free && pending === null),
            onclick: () => playCell(m, i),
          },
          free ? (pending === i ? MARK[m.you] : '') : MARK[mark],
        );
      });
      const lines = m.log.map((e) => ({ seq: e.seq, text: describe(e, m) })).filter((l) => l.text);
      render(
        root,
        h(
          'div.ttt-layout',
          h(
            'section.panel.ttt',
            { 'aria-labelledby': 'game-h' },
            h(
              'div.panel-head',
              h('h1#game-h', 'Tic-tac-toe'),
              m.spectator ? h('span.tag.tag-watch', 'watching') : null,
            ),
            h(
              'p.players',
              [0, 1].map((s) =>
                h(
                  'span.seat-badge',
                  { class: `seat-c${s}${v.turn === s && !over ? ' to-move' : ''}` },
                  h('strong.mark', MARK[s]),
                  ' ',
                  seatName(m.seats, s),
                  s === m.you ? h('span.tag.tag-you', 'you') : null,
                ),
              ),
            ),
            h(
              'p.status',
              { role: 'status', 'aria-live': 'polite', 'data-testid': 'ttt-status' },
              status,
            ),
            w && w.deadline
              ? countdown(w.deadline)
              : (m.windows[0] && countdown(m.windows[0].deadline)) || null,
            h('div.ttt-board', { role: 'group', 'aria-label': 'Board' }, cells),
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

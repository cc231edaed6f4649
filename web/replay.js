// replay.js - stepping through a game move by move, in the page: a
// "Replay" button above the table (a finished game for anyone, a running
// one for its players, up to now) opens controls (start, back, forward,
// latest, and the version as "Move K of N"; arrow keys too) and the table
// shows the game as the viewer saw it at that version, from
// GET /api/v1/games/{id}/replay?at=K (a seat's own view then, anyone else's
// the public view). The table's move panel is hidden meanwhile; "Back to the
// game" returns to the live table.

import { request } from './api.js';
import { h, render, toast, announce } from './ui.js';

export function replayButton(game) {
  return h(
    'button',
    { type: 'button', 'data-testid': 'replay-open', onclick: () => startReplay(game) },
    'Replay',
  );
}

async function startReplay(game) {
  if (game.replay) return;
  const state = {
    at: 0,
    latest: 0,
    box: h('div.replay-bar', { role: 'group', 'aria-label': 'Replay' }),
  };
  game.replay = state;
  const show = async (k) => {
    try {
      const r = await request(
        'GET',
        `/api/v1/games/${encodeURIComponent(game.id)}/replay?at=${Math.max(0, k)}`,
      );
      state.at = r.version;
      state.latest = r.latest;
      game.drawReplay(r);
      drawControls();
      announce(`Move ${r.version} of ${r.latest}`);
    } catch (e) {
      toast(e.detail || e.message, 'error');
    }
  };
  const btn = (label, text, k, testid) =>
    h(
      'button',
      {
        type: 'button',
        'aria-label': label,
        'data-testid': testid,
        // the same key after each redraw keeps the focus on the button, so
        // the arrow keys go on stepping
        'data-key': testid,
        onclick: () => show(k()),
      },
      text,
    );
  function drawControls() {
    render(
      state.box,
      btn('Start', 'Start', () => 0, 'replay-start'),
      btn('Back one move', '◀', () => state.at - 1, 'replay-back'),
      h('span.replay-pos', { 'data-testid': 'replay-pos' }, `Move ${state.at} of ${state.latest}`),
      btn('Forward one move', '▶', () => Math.min(state.latest, state.at + 1), 'replay-forward'),
      btn('Latest', 'Latest', () => state.latest, 'replay-latest'),
      h(
        'button.primary',
        { type: 'button', 'data-testid': 'replay-close', onclick: () => game.stopReplay() },
        'Back to the game',
      ),
    );
  }
  state.box.addEventListener('keydown', (ev) => {
    if (ev.key === 'ArrowLeft') show(state.at - 1);
    else if (ev.key === 'ArrowRight') show(Math.min(state.latest, state.at + 1));
  });
  game.bar.after(state.box);
  await show(0);
}

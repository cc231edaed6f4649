// rematch.js - the "Rematch" button at the end of a game: a new lobby with
// the game's ruleset, seats, options, clock and visibility (read from the
// game's lobby, GET /lobbies?status=started), the same bots in the same
// seats, hosted by whoever clicked; the page then opens that lobby, with
// its invite link for the other players.

import { api } from './api.js';
import { h, toast } from './ui.js';

// The lobby body for a rematch of game g (its lobby l, or null when the
// lobby cannot be read: then the ruleset and seat count only). Campaign
// options are left out: the campaign page starts campaign games.
export function rematchBody(g, l) {
  const body = { ruleset: g.ruleset, seats: g.seats.length };
  if (!l) return body;
  const options = Object.fromEntries(Object.entries(l.options || {}).filter(([k]) => !k.startsWith('campaign')));
  if (Object.keys(options).length) body.options = options;
  if (l.clock && l.clock.mode && l.clock.mode !== 'none') body.clock = { mode: l.clock.mode, seconds: l.clock.seconds };
  if (l.private) body.private = true;
  return body;
}

async function rematch(ctx, g) {
  let lobby = null;
  try {
    lobby = (await api.lobbies('started')).find((x) => x.game === g.id) || null;
  } catch {
    /* the ruleset and seats are enough */
  }
  const made = await api.createLobby(rematchBody(g, lobby));
  // The bots come back to their seats (the host sits in the first seat, so
  // a bot that sat there takes the next free one).
  const taken = new Set([0]);
  for (const s of g.seats.filter((x) => x.bot)) {
    let seat = s.seat;
    while (taken.has(seat) && seat < g.seats.length) seat++;
    if (seat >= g.seats.length) seat = [...Array(g.seats.length).keys()].find((i) => !taken.has(i));
    if (seat === undefined) break;
    taken.add(seat);
    await api.addBot(made.id, { seat, level: s.bot });
  }
  await ctx.refreshMe();
  ctx.navigate(`/lobby/${made.id}`);
}

// The button, for a player of a finished game g (the game resource).
export function rematchButton(ctx, g) {
  const button = h(
    'button.primary',
    {
      type: 'button',
      'data-key': 'rematch',
      'data-testid': 'rematch',
      onclick: async () => {
        button.disabled = true;
        try {
          await rematch(ctx, g);
        } catch (e) {
          toast(e.detail || e.message, 'error');
          button.disabled = false;
        }
      },
    },
    'Rematch',
  );
  return button;
}

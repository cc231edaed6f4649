// rematch.js - the "Rematch" button at the end of a game: a new lobby with
// the game's ruleset, seats, options, clock and visibility (read from the
// game's lobby, GET /lobbies?status=started), the same bots in the same
// seats, hosted by whoever clicked; the page then opens that lobby, with
// its invite link for the other players. The other players of the game see,
// next to their own button, "Join NAME's rematch" for an open public lobby
// of the same game and seats that one of them hosts (GET /lobbies, polled
// while the finished table is shown).

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

// Open public lobbies that look like a rematch of g hosted by another of
// its players: same ruleset and seat count, a free seat.
export function rematchOffers(g, lobbies, me) {
  const others = new Set(g.seats.filter((s) => s.player && s.player.id !== me).map((s) => s.player.id));
  return lobbies.filter((l) => l.status === 'open' && l.ruleset === g.ruleset && l.seats.length === g.seats.length && others.has(l.host.id) && l.seats.some((s) => !s.ready));
}

function watchOffers(ctx, g, box) {
  const look = async () => {
    if (!box.isConnected) return;
    try {
      const me = ctx.me && ctx.me.id;
      const offers = rematchOffers(g, await api.lobbies('open', g.ruleset), me);
      box.replaceChildren(...offers.slice(0, 3).map((l) => h('a.button', { href: ctx.href(`/lobby/${l.id}`), 'data-testid': 'rematch-offer' }, `Join ${l.host.name}’s rematch`)));
    } catch {
      /* try again later */
    }
    setTimeout(look, 4000);
  };
  setTimeout(look, 0);
}

// The button, for a player of a finished game g (the game resource), with
// the other players' rematch lobbies next to it.
export function rematchButton(ctx, g) {
  const offers = h('span.rematch-offers', { role: 'status' });
  watchOffers(ctx, g, offers);
  return [rematchOwn(ctx, g), offers];
}

function rematchOwn(ctx, g) {
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

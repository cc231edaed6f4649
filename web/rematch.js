// rematch.js - the "Rematch" button at the end of a game, for its players.
// The server makes one rematch lobby per game (POST /games/{id}/rematch):
// the game's ruleset, seats, options, clock and privacy, its bots in their
// seats, hosted by whoever asked first; the page then opens that lobby. The
// other players see, next to their button, "Join NAME's rematch" as soon as
// it exists (GET /games/{id}/rematch, asked every few seconds while the
// finished table is shown), with the invite code a private rematch needs;
// pressing "Rematch" themselves takes them to the same lobby.

import { api } from './api.js';
import { h, toast } from './ui.js';

// Where the rematch r ({lobby, invite_code}) opens.
export function rematchPath(r) {
  return `/lobby/${r.lobby.id}${r.invite_code ? `?code=${encodeURIComponent(r.invite_code)}` : ''}`;
}

async function rematch(ctx, g) {
  const r = await api.rematch(g.id);
  await ctx.refreshMe();
  ctx.navigate(rematchPath(r));
}

// The offer shown to the game's other players: nothing until a rematch
// exists, nor to the player who already sits in it.
export function rematchOffer(r, me) {
  if (!r || !r.lobby || r.lobby.status !== 'open') return null;
  if (r.lobby.seats.some((s) => s.player && s.player.id === me)) return null;
  return { path: rematchPath(r), label: `Join ${r.lobby.host.name}’s rematch` };
}

function watchOffer(ctx, g, box) {
  const look = async () => {
    if (!box.isConnected) return;
    try {
      const offer = rematchOffer(await api.findRematch(g.id), ctx.me && ctx.me.id);
      box.replaceChildren(
        ...(offer
          ? [
              h(
                'a.button',
                { href: ctx.href(offer.path), 'data-testid': 'rematch-offer' },
                offer.label,
              ),
            ]
          : []),
      );
    } catch {
      /* the server is away: ask again later */
    }
    setTimeout(look, 4000);
  };
  setTimeout(look, 0);
}

// The button, for a player of a finished game g (the game resource), with
// the rematch another player made next to it.
export function rematchButton(ctx, g) {
  const offer = h('span.rematch-offers', { role: 'status' });
  watchOffer(ctx, g, offer);
  return [rematchOwn(ctx, g), offer];
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

// account.js - the pages a mail links to, for a person: /verify?token=
// (confirm an email address with a button: a mail scanner's GET changes
// nothing) and /signin?token=&next= (a one-time sign-in link: a button
// signs this browser in and goes on to the game), and the sign-in box a
// signed-out visitor of a game page gets ("Is this your game? Sign in",
// with a password or a link by mail) so a mail's game link brings a
// player back to their seat on any device.

import { api, request, session, ApiError } from './api.js';
import { h, render, toast, field, announce } from './ui.js';

// ------------------------------------------------------------- /verify --

export function verifyScreen(main, ctx, token) {
  document.title = 'Confirm your email address – Conclave';
  const status = h('p', { role: 'status', 'data-testid': 'verify-status' });
  const button = h(
    'button.primary',
    {
      type: 'button',
      'data-testid': 'verify-confirm',
      disabled: !token,
      onclick: async () => {
        button.disabled = true;
        try {
          const r = await request('POST', '/api/v1/notifications/verify', {
            body: { token },
            auth: false,
          });
          status.textContent = r.already_verified
            ? `${r.email} is already verified: nothing more to do.`
            : `${r.email} is verified: game notices will reach it.`;
          status.dataset.state = r.already_verified ? 'already' : 'verified';
          button.hidden = true;
        } catch (e) {
          status.textContent =
            e instanceof ApiError && e.status === 404
              ? 'This link is unknown or has expired: set the address again in Notifications to get a new one.'
              : e.detail || e.message;
          status.dataset.state = 'failed';
          button.disabled = false;
        }
        announce(status.textContent);
      },
    },
    'Confirm my address',
  );
  render(
    main,
    h(
      'section.panel.account-page',
      h('h1', 'Confirm your email address'),
      token
        ? h('p', 'Press the button to have Conclave send game notices to this address.')
        : h('p', 'This link has no token: open the link from the mail again.'),
      button,
      status,
      h('p', h('a', { href: ctx.href('/settings') }, 'Notification settings')),
    ),
  );
  return { destroy() {} };
}

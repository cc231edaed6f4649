// account.js - the pages a mail links to, for a person: /verify?token=
// (confirm an email address with a button: a mail scanner's GET changes
// nothing) and /signin?token=&next= (a one-time sign-in link: a button
// signs this browser in and goes on to the game), and the sign-in box a
// signed-out visitor of a game page gets ("Is this your game? Sign in",
// with a password or a link by mail) so a mail's game link brings a
// player back to their seat on any device; /unsubscribe?token= (the mails'
// unsubscribe link, a button).

import { api, request, ApiError } from './api.js';
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

// -------------------------------------------------------- /unsubscribe --

// The mails' unsubscribe link: the button sends the same one-click POST a
// mail client sends for List-Unsubscribe-Post (RFC 8058).
export function unsubscribeScreen(main, ctx, token) {
  document.title = 'Unsubscribe – Conclave';
  const status = h('p', { role: 'status', 'data-testid': 'unsubscribe-status' });
  const button = h(
    'button.primary',
    {
      type: 'button',
      'data-testid': 'unsubscribe-confirm',
      disabled: !token,
      onclick: async () => {
        button.disabled = true;
        try {
          await request('POST', `/unsubscribe?token=${encodeURIComponent(token)}`, {
            auth: false,
          });
          status.textContent = 'Done: Conclave sends no more mail to your address.';
          button.hidden = true;
        } catch (e) {
          status.textContent = e.detail || e.message;
          button.disabled = false;
        }
        announce(status.textContent);
      },
    },
    'Stop these mails',
  );
  render(
    main,
    h(
      'section.panel.account-page',
      h('h1', 'Unsubscribe from Conclave mail'),
      h('p', 'Press the button to remove your address: no more game notices by mail.'),
      button,
      status,
      h('p', h('a', { href: ctx.href('/settings') }, 'Notification settings')),
    ),
  );
  return { destroy() {} };
}

// ------------------------------------------------------------- /signin --

export function signInLinkScreen(main, ctx, token, next) {
  document.title = 'Sign in – Conclave';
  const status = h('p', { role: 'status', 'data-testid': 'signin-status' });
  const go = next && /^\/[A-Za-z0-9/_-]*$/.test(next) && !next.includes('//') ? next : '/';
  const button = h(
    'button.primary',
    {
      type: 'button',
      'data-testid': 'signin-confirm',
      disabled: !token,
      onclick: async () => {
        button.disabled = true;
        try {
          const r = await request('POST', '/api/v1/sign-in-links/redeem', {
            body: { token },
            auth: false,
          });
          await ctx.setSession(r.token, r.name, 'account');
          announce(`Signed in as ${r.name}`);
          ctx.navigate(r.next || go, { replace: true });
        } catch (e) {
          status.textContent =
            e instanceof ApiError && e.status === 404
              ? 'This link was used already or has expired: ask for a new one on the game page.'
              : e.detail || e.message;
          button.disabled = false;
        }
      },
    },
    'Sign in on this device',
  );
  render(
    main,
    h(
      'section.panel.account-page',
      h('h1', 'Sign in to Conclave'),
      h('p', 'Press the button to sign this browser in and go back to your game.'),
      button,
      status,
    ),
  );
  return { destroy() {} };
}

// ------------------------------------------------- the game page's box --

// For a signed-out visitor of a game page: sign in with a name and a
// password, or have a one-time link mailed to the account's verified
// address; either way the page comes back as the player's seat.
export function signInBox(ctx) {
  const name = h('input', { autocomplete: 'username', required: true, 'data-testid': 'seat-name' });
  const password = h('input', {
    type: 'password',
    autocomplete: 'current-password',
    required: true,
    'data-testid': 'seat-password',
  });
  const email = h('input', {
    type: 'email',
    autocomplete: 'email',
    required: true,
    'data-testid': 'seat-email',
  });
  const sent = h('p', { role: 'status', 'data-testid': 'seat-link-status' });
  const back = async () => {
    await ctx.refreshMe();
    ctx.navigate(location.pathname, { replace: true });
  };
  return h(
    'section.panel.seat-signin',
    { 'aria-labelledby': 'seat-signin-h', 'data-testid': 'seat-signin' },
    h('h2#seat-signin-h', 'Is this your game? Sign in to play your seat'),
    h(
      'form.seat-signin-form',
      {
        onsubmit: async (ev) => {
          ev.preventDefault();
          try {
            const r = await api.signIn(name.value.trim(), password.value);
            await ctx.setSession(r.token, name.value.trim(), 'account');
            announce('Signed in');
            await back();
          } catch (e) {
            toast(e.detail || e.message, 'error');
          }
        },
      },
      field('Name', name),
      field('Password', password),
      h('button.primary', { type: 'submit', 'data-testid': 'seat-signin-submit' }, 'Sign in'),
    ),
    h(
      'form.seat-signin-form',
      {
        onsubmit: async (ev) => {
          ev.preventDefault();
          try {
            await request('POST', '/api/v1/sign-in-links', {
              body: { email: email.value.trim(), next: location.pathname },
              auth: false,
            });
            sent.textContent =
              'If an account has this verified address, a sign-in link is on its way: open it on this device.';
          } catch (e) {
            toast(e.detail || e.message, 'error');
          }
        },
      },
      field('Or mail me a sign-in link', email, 'To the verified address of your account.'),
      h('button', { type: 'submit', 'data-testid': 'seat-link-submit' }, 'Send the link'),
      sent,
    ),
  );
}

// ------------------------------------------------- securing a guest ---

// For the settings page: a guest gives the account a password, so it can
// sign in on another device (with a verified address, by a mailed link too).
export function securePart(ctx) {
  if (!ctx.me || !ctx.me.guest) return null;
  const password = h('input', {
    type: 'password',
    autocomplete: 'new-password',
    minlength: 8,
    required: true,
    'data-testid': 'secure-password',
  });
  return h(
    'fieldset.settings-part',
    { id: 'account', 'data-testid': 'secure-account' },
    h('legend', 'Your account'),
    h(
      'p',
      `You play as the guest ${ctx.me.name}: only this browser holds the key. Give the account a password (and an email address below) to sign in on another device.`,
    ),
    h(
      'form',
      {
        onsubmit: async (ev) => {
          ev.preventDefault();
          try {
            await request('PUT', '/api/v1/me/password', { body: { password: password.value } });
            localStorage.setItem('conclave.kind', 'account');
            await ctx.refreshMe();
            toast(`Secured: sign in as ${ctx.me.name} with this password anywhere.`);
            ev.target
              .closest('fieldset')
              .replaceWith(h('p', { 'data-testid': 'secured' }, 'Your account has a password.'));
          } catch (e) {
            toast(e.detail || e.message, 'error');
          }
        },
      },
      field('New password', password, 'At least 8 characters.'),
      h('button', { type: 'submit', 'data-testid': 'secure-submit' }, 'Secure my account'),
    ),
  );
}

// settings.js - the notification settings screen (/settings): a guest's
// "secure your account" (a password), an email
// address (verified by the link mailed to it; the page says when the server
// sends no mail), webhooks (the secret is shown once, right after adding;
// sent as Conclave's signed JSON or as a Discord or Slack channel message),
// quiet hours, the daily digest and the reminder interval. Everything goes
// through /api/v1/me/notifications (docs/api.md, "Notifications").

import { request, session } from './api.js';
import { h, render, toast, field } from './ui.js';
import { securePart } from './account.js';

const BASE = '/api/v1/me/notifications';
// A webhook's body format (docs/api.md, "Chat formats") and its words.
const FORMATS = {
  conclave: 'Conclave JSON (signed)',
  discord: 'Discord channel',
  slack: 'Slack channel',
};

// The browser's own offset, minutes east of UTC, for a new setting.
const localOffset = () => -new Date().getTimezoneOffset();

export function settingsScreen(main, ctx) {
  document.title = 'Notifications – Conclave';
  const root = h('section.panel.settings', { 'aria-labelledby': 'settings-h' });
  render(main, root);
  let doc = null;
  let secret = null; // {id, secret} of the webhook just added: shown once

  async function save(change, done) {
    try {
      doc = await request('PUT', BASE, { body: change });
      toast(done);
      draw();
    } catch (e) {
      toast(e.detail || e.message, 'error');
    }
  }

  function emailPart() {
    const input = h('input', {
      type: 'email',
      value: doc.email || '',
      autocomplete: 'email',
      disabled: !doc.email_available,
      'data-testid': 'email',
    });
    const state = !doc.email
      ? 'No address set.'
      : doc.email_verified
        ? 'Verified.'
        : 'Not verified yet: open the link we mailed to it.';
    return h(
      'fieldset.settings-part',
      h('legend', 'Email'),
      doc.email_available
        ? null
        : h(
            'p.settings-off',
            { 'data-testid': 'email-off' },
            'This server sends no email (no mail relay is set up), so only webhooks can reach you.',
          ),
      field('Address', input, state),
      h(
        'button',
        {
          type: 'button',
          disabled: !doc.email_available,
          onclick: () => save({ email: input.value.trim() || null }, 'Address saved.'),
        },
        'Save address',
      ),
    );
  }

  function hookRow(w) {
    return h(
      'li.settings-hook',
      h('code', w.url),
      w.format && w.format !== 'conclave'
        ? h('span.settings-format', { 'data-testid': 'hook-format-shown' }, FORMATS[w.format])
        : null,
      secret && secret.id === w.id
        ? h(
            'p.settings-secret',
            { 'data-testid': 'secret' },
            'Secret (shown only now): ',
            h('code', secret.secret),
          )
        : null,
      h(
        'button.ghost',
        {
          type: 'button',
          'aria-label': `Remove webhook ${w.url}`,
          onclick: async () => {
            try {
              await request('DELETE', `${BASE}/webhooks/${encodeURIComponent(w.id)}`);
              doc.webhooks = doc.webhooks.filter((x) => x.id !== w.id);
              draw();
            } catch (e) {
              toast(e.detail || e.message, 'error');
            }
          },
        },
        'Remove',
      ),
    );
  }

  function hooksPart() {
    const url = h('input', { type: 'url', placeholder: 'https://…', 'data-testid': 'hook-url' });
    const format = h(
      'select',
      { 'data-testid': 'hook-format' },
      Object.entries(FORMATS).map(([value, text]) => h('option', { value }, text)),
    );
    return h(
      'fieldset.settings-part',
      h('legend', 'Webhooks'),
      h(
        'p.hint',
        'Each delivery is a signed JSON POST; see the API docs for checking the signature.',
      ),
      h('ul.settings-hooks', doc.webhooks.map(hookRow)),
      field('New webhook URL', url),
      field(
        'Sent as',
        format,
        "A Discord or Slack channel's webhook URL gets a message in the platform's own words.",
      ),
      h(
        'button',
        {
          type: 'button',
          onclick: async () => {
            try {
              const w = await request('POST', `${BASE}/webhooks`, {
                body: { url: url.value.trim(), format: format.value },
              });
              secret = { id: w.id, secret: w.secret };
              doc.webhooks.push({
                id: w.id,
                url: w.url,
                format: w.format,
                created_at: w.created_at,
              });
              draw();
            } catch (e) {
              toast(e.detail || e.message, 'error');
            }
          },
        },
        'Add webhook',
      ),
    );
  }

  function timingPart() {
    const q = doc.quiet_hours;
    const quietOn = h('input', { type: 'checkbox', checked: !!q, 'data-testid': 'quiet-on' });
    const start = h('input', { type: 'time', value: q ? q.start : '22:00' });
    const end = h('input', { type: 'time', value: q ? q.end : '07:00' });
    const digest = h('input', { type: 'checkbox', checked: doc.digest });
    const hour = h('input', { type: 'number', min: 0, max: 23, value: doc.digest_hour });
    const hours = h('input', {
      type: 'number',
      min: 0.01,
      max: 168,
      step: 'any',
      value: +(doc.reminder_seconds / 3600).toFixed(2),
    });
    return h(
      'fieldset.settings-part',
      h('legend', 'When'),
      h('label.settings-check', quietOn, ' Quiet hours (nothing is sent; it waits until they end)'),
      h('div.settings-row', field('From', start), field('To', end)),
      h('label.settings-check', digest, ' One digest a day instead of each notice'),
      field('Digest hour (your time)', hour),
      field(
        'First reminder, hours before a deadline',
        hours,
        'A sterner one follows in the last quarter of that time.',
      ),
      h(
        'button',
        {
          type: 'button',
          onclick: () =>
            save(
              {
                quiet_hours: quietOn.checked ? { start: start.value, end: end.value } : null,
                utc_offset: localOffset(),
                digest: digest.checked,
                digest_hour: Number(hour.value),
                reminder_seconds: Math.max(4, Math.round(Number(hours.value) * 3600)),
              },
              'Settings saved.',
            ),
        },
        'Save',
      ),
    );
  }

  function draw() {
    render(
      root,
      h('h1#settings-h', 'Notifications'),
      h(
        'p',
        'We tell you when a game waits on you, remind you before a deadline, and tell you when a game starts or ends, unless you have the game open.',
      ),
      securePart(ctx),
      emailPart(),
      hooksPart(),
      timingPart(),
    );
  }

  (async () => {
    if (!session.token) {
      render(
        root,
        h('h1#settings-h', 'Notifications'),
        h('p', 'Pick a name or sign in first.'),
        h('a', { href: ctx.href('/') }, 'To the lobbies'),
      );
      return;
    }
    try {
      doc = await request('GET', BASE);
      if (!ctx.me || !ctx.me.id) await ctx.refreshMe(); // "Your account" needs it
      draw();
    } catch (e) {
      render(root, h('h1#settings-h', 'Notifications'), h('p', e.detail || e.message));
    }
  })();
  return { destroy() {} };
}

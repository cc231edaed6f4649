// settings.test.mjs - the notification settings page (/settings, reached
// from the header): on a server without a mail relay it says email is off;
// a webhook is added (its secret shown once, gone after a reload), a Discord
// one beside it (the format picked, stored and shown), and both removed; quiet hours and the reminder interval are saved through
// /api/v1/me/notifications. Screenshots at desktop and phone size.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  chromiumPath,
  openPage,
  shot,
  signUpGuest,
  startStack,
  stopStack,
} from './lib/browser.mjs';

const skip = chromiumPath() ? false : 'no Chromium installed';
let db, server, chrome;

before(async () => {
  if (!skip) ({ db, server, chrome } = await startStack('settings'));
});
after(() => stopStack({ db, server, chrome }));

for (const [label, viewport, isMobile] of [
  ['desktop', { width: 1280, height: 900 }, false],
  ['phone', { width: 390, height: 844 }, true],
]) {
  test(`notification settings (${label})`, { skip }, async () => {
    const { context, page } = await openPage(chrome.browser, { viewport, isMobile });
    await signUpGuest(page, server, `set_${label}`);
    await page.getByRole('link', { name: 'Notifications' }).click();
    await page.locator('#settings-h').waitFor();
    assert.match(page.url(), /\/settings/);
    await page.locator('[data-testid="email-off"]').waitFor();
    await page.getByLabel('New webhook URL').fill('https://hooks.example.test/mine');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const secret = await page.locator('[data-testid="secret"] code').textContent();
    assert.match(secret, /^whsec_[0-9a-f]{48}$/);
    // A group's Discord channel: the format picked is what is stored and shown.
    await page.getByLabel('New webhook URL').fill('https://hooks.example.test/discord');
    await page.getByLabel('Sent as').selectOption('discord');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await page.locator('[data-testid="hook-format-shown"]', { hasText: 'Discord' }).waitFor();
    await page.locator('[data-testid="quiet-on"]').check();
    await page.getByLabel('From').fill('23:00');
    await page.getByLabel('To').fill('06:30');
    await page.getByLabel('First reminder, hours before a deadline').fill('3');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.locator('.toast', { hasText: 'Settings saved.' }).first().waitFor();
    await shot(page, `settings-${label}`);
    const saved = await page.evaluate(async () => {
      const r = await fetch('/api/v1/me/notifications', {
        headers: { authorization: `Bearer ${localStorage.getItem('conclave.token')}` },
      });
      return r.json();
    });
    assert.deepEqual(saved.quiet_hours, { start: '23:00', end: '06:30' });
    assert.equal(saved.reminder_seconds, 10800);
    assert.deepEqual(
      saved.webhooks.map((w) => [w.url, w.format]),
      [
        ['https://hooks.example.test/mine', 'conclave'],
        ['https://hooks.example.test/discord', 'discord'],
      ],
    );
    await page.reload();
    await page.locator('[data-testid="hook-format-shown"]', { hasText: 'Discord' }).waitFor();
    const removeDiscord = page.getByRole('button', {
      name: 'Remove webhook https://hooks.example.test/discord',
    });
    await removeDiscord.click();
    await removeDiscord.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: /Remove webhook/ }).waitFor();
    assert.equal(
      await page.locator('[data-testid="secret"]').count(),
      0,
      'the secret is shown once',
    );
    await page.getByRole('button', { name: /Remove webhook/ }).click();
    await page.getByRole('button', { name: /Remove webhook/ }).waitFor({ state: 'detached' });
    assert.deepEqual(page.problems, []);
    await context.close();
  });
}

// table_talk.test.mjs - table talk in the browser: three players at one
// table (the third on a 390 px phone). Two of them open a private channel
// and talk through the panel (unread count on the button and the tab, the
// keyboard: Enter sends, arrows move between tabs, Escape closes); the third
// player's page never shows the private text (its DOM, every WebSocket frame
// and every REST answer it read), sees only the public tab, and the public
// message it writes reaches the others.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { http } from '../integration/lib/server.mjs';
import { newPlayer, newGame } from '../integration/lib/ws.mjs';
import {
  chromiumPath,
  openPage,
  pageUrl,
  shot,
  waitLive,
  startStack,
  stopStack,
  signInAs,
} from './lib/browser.mjs';

const skip = chromiumPath() ? false : 'no Chromium installed';
let db, server, chrome;

before(async () => {
  if (!skip) ({ db, server, chrome } = await startStack('chat'));
});
after(() => stopStack({ db, server, chrome }));

// A page signed in as player p (the session the web client keeps), on the
// game's table.
async function atTable(p, game, opts) {
  const { page } = await openPage(chrome.browser, opts);
  await signInAs(page, server, p);
  await page.goto(pageUrl(server, `/game/${game}`));
  await waitLive(page);
  await page.getByRole('button', { name: /^Talk/ }).waitFor();
  return page;
}

test(
  'two players talk privately; the third player\u2019s page never shows it',
  { skip, timeout: 120000 },
  async () => {
    const rulesets = (await http(server.url, 'GET', '/api/v1/rulesets')).body;
    const ruleset = rulesets.find((x) => x.min_seats <= 3 && x.max_seats >= 3).id;
    const [a, b, c] = [
      await newPlayer(server.url, 'Ada'),
      await newPlayer(server.url, 'Bo'),
      await newPlayer(server.url, 'Cy'),
    ];
    const game = await newGame(server.url, ruleset, [a, b, c]);
    const pa = await atTable(a, game);
    const pb = await atTable(b, game);
    const pc = await atTable(c, game, { viewport: { width: 390, height: 844 }, isMobile: true });

    // Ada opens a private channel with Bo and writes in it (Enter sends).
    await pa.getByRole('button', { name: /^Talk/ }).click();
    const panelA = pa.getByRole('region', { name: 'Table talk' });
    await panelA.getByRole('tab', { name: /^Public/ }).waitFor();
    await panelA.getByRole('button', { name: '+ Private channel' }).click();
    await panelA.getByLabel(b.name).check();
    await panelA.getByRole('button', { name: 'Open' }).click();
    await panelA.getByRole('tab', { name: new RegExp(b.name), selected: true }).waitFor();
    const secret = `whisper-${randomBytes(5).toString('hex')}`;
    await panelA.getByLabel('Message').fill(`the fleet moves at dawn ${secret}`);
    await panelA.getByLabel('Message').press('Enter');
    await panelA.locator('.chat-msg', { hasText: secret }).waitFor();
    assert.equal(await panelA.getByLabel('Message').inputValue(), '', 'the box empties once sent');

    // Bo sees the count on the button, then on the tab, then the message.
    await pb.getByRole('button', { name: 'Talk, 1 unread' }).waitFor();
    await pb.getByRole('button', { name: /^Talk/ }).click();
    const panelB = pb.getByRole('region', { name: 'Table talk' });
    const tabB = panelB.getByRole('tab', { name: new RegExp(a.name) });
    await tabB.locator('.chat-unread', { hasText: '1' }).waitFor();
    // Keyboard: from the public tab, the right arrow reaches Ada's tab.
    await panelB.getByRole('tab', { name: /^Public/ }).focus();
    await pb.keyboard.press('ArrowRight');
    await panelB.getByRole('tab', { name: new RegExp(a.name), selected: true }).waitFor();
    await panelB.locator('.chat-msg', { hasText: secret }).waitFor();
    await tabB.locator('.chat-unread').waitFor({ state: 'detached' });
    await panelB.getByLabel('Message').fill('agreed');
    await panelB.getByRole('button', { name: 'Send' }).click();
    await panelA.locator('.chat-msg', { hasText: 'agreed' }).waitFor();
    await shot(pa, 'table-talk-desktop');

    // Cy, on a phone, sees only the public channel, and talks there.
    await pc.getByRole('button', { name: /^Talk/ }).click();
    const panelC = pc.getByRole('region', { name: 'Table talk' });
    await panelC.getByRole('tab', { name: /^Public/ }).waitFor();
    assert.equal(await panelC.getByRole('tab').count(), 1, 'only the public tab');
    const box = await panelC.boundingBox();
    assert.ok(
      box.width <= 390 && box.x >= 0,
      `the panel fits a 390 px screen (${JSON.stringify(box)})`,
    );
    await panelC.getByLabel('Message').fill('hello, table');
    await panelC.getByLabel('Message').press('Enter');
    await panelA
      .getByRole('tab', { name: /^Public/ })
      .locator('.chat-unread', { hasText: '1' })
      .waitFor();
    await shot(pc, 'table-talk-phone');
    // Escape closes the panel and gives the focus back to the button.
    await panelC.getByLabel('Message').press('Escape');
    await panelC.waitFor({ state: 'hidden' });
    assert.equal(await pc.evaluate(() => document.activeElement?.className), 'chat-toggle');

    await pb.waitForTimeout(500);
    const dom = await pc.content();
    assert.ok(!dom.includes(secret), 'the third player\u2019s page never shows the private text');
    assert.ok(
      !pc.framesIn.some((f) => f.includes(secret) || f.includes('agreed')),
      'nor any WebSocket frame it received',
    );
    assert.ok(!pc.rest.some((r) => r.body.includes(secret)), 'nor any REST answer it read');
    assert.ok(
      pb.framesIn.some((f) => f.includes(secret)),
      'positive control: Bo received it over the WebSocket',
    );
    for (const p of [pa, pb, pc]) assert.deepEqual(p.problems, []);
  },
);

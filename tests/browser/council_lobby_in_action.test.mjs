// council_lobby_in_action.test.mjs - Galactic Council's rules edition 2 in
// the browser (what new games get; docs/games/council.md, "Rules
// editions"): the lobby has no window of its own; its choices sit in the
// action window beside the fleet orders. One player and two basic bots, a
// fixed deal (CONCLAVE_TEST_HOOKS). The player's page shows, in round 1's
// action window, the composer and the lobby box together, and no "Lobby"
// step in the round's timeline; the player sends a councillor by clicking
// (a part of the action window, listed in the lobby box, not among the
// fleet orders) and one "Send orders" sends everything. When the window
// resolves the council window opens with the councillor seated: the
// representatives were sent before the vote. Screenshots at desktop and
// phone size go to tests/out/screenshots/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { client, newLobby } from '../integration/lib/api.mjs';
import {
  chromiumPath,
  openPage,
  pageUrl,
  shot,
  signUpGuest,
  waitLive,
  startStack,
  stopStack,
  pageRest,
} from './lib/browser.mjs';

const skip = chromiumPath() ? false : 'no Chromium installed';
let db, server, chrome;

before(async () => {
  if (!skip) ({ db, server, chrome } = await startStack('cnlobby', { CONCLAVE_TEST_HOOKS: '1' }));
});
after(() => stopStack({ db, server, chrome }));

const rest = pageRest;
const game = async (page, id) => (await rest(page, 'GET', `/api/v1/games/${id}`)).body;

async function waitFor(fn, what, tries = 400) {
  for (let i = 0; i < tries; i++) {
    const v = await fn();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`timed out: ${what}`);
}

// The window waiting on the player, once it is not yet sent.
async function myWindow(page, id) {
  return waitFor(async () => {
    const g = await game(page, id);
    const w = g.windows.find((x) => x.seats.includes(g.you));
    const sent = w && w.mode === 'sealed' && (g.view.my_orders[w.id] || {}).ready === true;
    return w && !sent ? { g, w } : null;
  }, 'a window for the player');
}

test(
  'edition 2: the lobby is sent with the action window, and the council sits with it',
  { skip, timeout: 300000 },
  async () => {
    const A = await openPage(chrome.browser);
    const pa = A.page;
    try {
      await signUpGuest(pa, server, 'Lia-council');
      const token = await pa.evaluate(() => localStorage.getItem('conclave.token'));
      const call = client(server.url);
      const lobby = await newLobby(
        call,
        { token },
        { ruleset: 'council', seats: 3, clock: { mode: 'async', seconds: 86400 } },
      );
      for (let b = 0; b < 2; b++)
        assert.equal(
          (
            await call('POST', `/api/v1/lobbies/${lobby.id}/bots`, {
              token,
              body: { level: 'basic' },
            })
          ).status,
          200,
        );
      const seed = createHash('sha256').update('deal-lobby-in-action').digest('hex');
      const started = await call('POST', `/api/v1/lobbies/${lobby.id}/start`, {
        token,
        body: { seed },
      });
      assert.equal(started.status, 201, started.text);
      const id = started.body.game;
      await pa.goto(pageUrl(server, `/game/${id}`));
      await waitLive(pa);

      // The picks (and the agenda, if the player speaks) over REST: the
      // page's own picks are council.test.mjs's.
      let t = await myWindow(pa, id);
      for (let i = 0; i < 4 && !/\.action$/.test(t.w.id); i++) {
        if (/\.picks$/.test(t.w.id)) {
          const r = await rest(pa, 'PUT', `/api/v1/games/${id}/orders/${t.w.id}`, {
            ranking: ['commerce', 'research', 'industry'],
          });
          assert.ok(r.status < 300, JSON.stringify(r.body));
        } else if (/\.agenda$/.test(t.w.id)) {
          const held = t.g.view.you.agendas || [];
          const r = await rest(
            pa,
            'POST',
            `/api/v1/games/${id}/plays`,
            { window: t.w.id, agenda: held[0].key },
            `agenda-${t.w.id}`,
          );
          assert.ok(r.status < 300, JSON.stringify(r.body));
        }
        t = await myWindow(pa, id);
      }
      assert.equal(t.w.id, 'r1.action', 'no lobby window before the action phase');
      assert.equal(t.g.view.lobby_in_action, true);

      // The action window: the composer and the lobby box together; the
      // timeline has no lobby step.
      const box = pa.locator('.cn-window[data-window="r1.action"]');
      await box.waitFor();
      await pa.locator('.cn-orders').waitFor();
      const steps = await pa.locator('.cn-steps li').allTextContents();
      assert.ok(steps.length >= 4, `the round's steps: ${steps}`);
      assert.ok(!steps.some((s) => /lobby/i.test(s)), `no lobby step: ${steps}`);
      assert.match(await box.textContent(), /sent with your fleet orders/i);
      await shot(pa, 'council-desktop-lobby-in-action');

      // A councillor by clicking: a part of the action window, shown in the
      // lobby box, not among the fleet orders.
      const part = box.locator('.cn-part', { hasText: 'Send your councillor.' });
      for (let i = 0; i < 4 && !(await part.count()); i++) {
        await box
          .locator('[data-key="rep-councillor"]')
          .click({ timeout: 5000 })
          .catch(() => {});
        await part.waitFor({ timeout: 5000 }).catch(() => {});
      }
      await part.waitFor({ timeout: 5000 });
      const held = (await game(pa, id)).view.my_orders['r1.action'];
      assert.deepEqual(held.representative, { type: 'representative', role: 'councillor' });
      assert.equal(
        await pa.locator('.cn-orders .cn-part', { hasText: /councillor/i }).count(),
        0,
        'the composer lists fleet orders only',
      );
      await pa.setViewportSize({ width: 390, height: 844 });
      await shot(pa, 'council-phone-lobby-in-action');
      await pa.setViewportSize({ width: 1280, height: 900 });

      // One "Send orders" sends the lot; the bots have sent: the window
      // resolves, the councillor is seated before the council window.
      await pa.locator('[data-key="send-orders"]').click();
      const g = await waitFor(async () => {
        const x = await game(pa, id);
        return x.windows.some((w) => w.id === 'r1.council') ? x : null;
      }, 'the council window');
      const mine = (g.view.council.seated || []).find((r) => r.seat === g.you);
      assert.ok(mine, JSON.stringify(g.view.council.seated));
      assert.equal(mine.role, 'councillor');
      assert.equal(mine.fate, 'seated');
      const log = (await rest(pa, 'GET', `/api/v1/games/${id}/log?after=0`)).body;
      const entries = (log.entries || []).map((e) => (e.entry || {}).type);
      assert.ok(entries.includes('representatives'), 'the representatives were revealed');
      assert.ok(!g.windows.some((w) => /\.lobby$/.test(w.id)), 'no lobby window');
    } finally {
      await A.context.close();
    }
  },
);

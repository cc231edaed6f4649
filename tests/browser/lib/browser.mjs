// browser.mjs - helpers for the browser tests: a headless Chromium driven by
// playwright-core, pages opened on a test server (with the WebSocket port in
// the URL), every WebSocket frame a page receives recorded, console errors
// collected, screenshots written to tests/out/screenshots/, and players
// created through the page itself.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { ROOT, createDatabase, dropDatabase, startServer } from '../../integration/lib/server.mjs';

export const SHOTS = path.join(ROOT, 'tests', 'out', 'screenshots');

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function chromiumPath() {
  for (const p of [
    process.env.CONCLAVE_CHROMIUM,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
  ]) {
    if (p && fs.existsSync(p)) return p;
  }
  return null;
}

// A browser; playwright gives every launch a fresh, temporary profile
// directory (its own user-data-dir), removed when the browser closes.
export async function launch() {
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: ARGS,
    timeout: 60000,
  });
  return {
    browser,
    async close() {
      await browser.close().catch(() => {});
    },
  };
}

// A new context and page. Records WebSocket frames (page.frames_in), REST
// bodies (page.rest), console errors and page errors (page.problems).
export async function openPage(
  browser,
  { viewport = { width: 1280, height: 900 }, isMobile = false } = {},
) {
  const context = await browser.newContext({ viewport, isMobile, hasTouch: isMobile });
  const page = await context.newPage();
  page.setDefaultTimeout(20000);
  page.framesIn = [];
  page.rest = [];
  page.problems = [];
  page.sockets = [];
  page.on('websocket', (ws) => {
    page.sockets.push(ws);
    ws.on('framereceived', (f) =>
      page.framesIn.push(typeof f.payload === 'string' ? f.payload : f.payload.toString('utf8')),
    );
  });
  page.on('response', async (res) => {
    if (!res.url().includes('/api/')) return;
    try {
      page.rest.push({ url: res.url(), status: res.status(), body: await res.text() });
    } catch {
      /* body gone (navigation) */
    }
  });
  page.on('pageerror', (e) => page.problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (
      m.type() === 'error' &&
      !/Failed to load resource|ERR_CONNECTION_REFUSED|WebSocket connection/.test(m.text())
    )
      page.problems.push(`console: ${m.text()}`);
  });
  return { context, page };
}

export function pageUrl(server, p = '/') {
  const u = new URL(p, server.url);
  u.searchParams.set('ws', String(server.wsPort));
  return u.toString();
}

// A page of browser whose console errors and uncaught exceptions are
// collected in errors.
export async function watchedPage(browser, opts) {
  const { page } = await openPage(browser, opts);
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(String(e)));
  return { page, errors };
}

// Sign player p ({ token, name }) in on page, as the page keeps a session
// (in the origin's localStorage); the caller then opens the page it wants.
// The storage is written from /healthz, a one-line answer of the same
// origin, rather than from the web page, which would load and start the
// whole client for nothing.
export async function signInAs(page, server, p) {
  await page.goto(new URL('/healthz', server.url).toString());
  await page.evaluate(
    ([t, n]) => {
      localStorage.setItem('conclave.token', t);
      localStorage.setItem('conclave.name', n);
    },
    [p.token, p.name],
  );
}

export async function shot(page, name) {
  fs.mkdirSync(SHOTS, { recursive: true });
  const file = path.join(SHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

// Pick a guest name on the home page.
export async function signUpGuest(page, server, name) {
  await page.goto(pageUrl(server, '/'));
  await page.getByLabel('Your name').fill(name);
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await page.locator('[data-testid="who"]', { hasText: name }).waitFor();
  await waitLive(page);
}

// The box of a visible element. A panel that re-renders (the home page
// redraws "Games to watch" when its list arrives) can replace the element
// between Playwright finding it and measuring it, which gives null: look
// again until an attached, visible one is measured.
export async function boxOf(locator, timeout = 10000) {
  const until = Date.now() + timeout;
  for (;;) {
    await locator.waitFor({ state: 'visible', timeout });
    const box = await locator.boundingBox();
    if (box) return box;
    if (Date.now() > until) throw new Error(`no box for ${locator}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// The words of the elements matching selector that the layout splits across
// two lines (a name broken inside a word): [] when every word is whole.
export async function wordsSplit(page, selector) {
  return page.evaluate((sel) => {
    const out = [];
    for (const el of document.querySelectorAll(sel)) {
      const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let text = walk.nextNode(); text; text = walk.nextNode()) {
        for (const m of text.data.matchAll(/\S+/g)) {
          const r = document.createRange();
          r.setStart(text, m.index);
          r.setEnd(text, m.index + m[0].length);
          const tops = new Set([...r.getClientRects()].map((x) => Math.round(x.top)));
          if (tops.size > 1) out.push(m[0]);
        }
      }
    }
    return out;
  }, selector);
}

// Boxes of the table's buttons and cards that the Talk button's box meets.
export async function coveredByTalk(page) {
  return page.evaluate(() => {
    const talk = document.querySelector('.chat-toggle');
    if (!talk) return ['no Talk button'];
    const t = talk.getBoundingClientRect();
    const hits = [];
    const sel = 'button, a.button, [role="button"], [class*="card"], label, input, select';
    for (const el of document.querySelectorAll(`#main ${sel}`)) {
      if (el === talk || talk.contains(el) || el.contains(talk)) continue;
      if (el.closest('.game-tools') || el.closest('.chat-panel')) continue;
      const r = el.getBoundingClientRect();
      if (!r.width || !r.height) continue;
      if (r.left < t.right && t.left < r.right && r.top < t.bottom && t.top < r.bottom)
        hits.push(
          `${el.tagName.toLowerCase()}.${el.className} "${(el.textContent || '').trim().slice(0, 30)}"`,
        );
    }
    return hits;
  });
}

// REST from inside the page, with its token (and an Idempotency-Key when
// key is given): {status, body}.
export function pageRest(page, method, path, body, key) {
  return page.evaluate(
    async ([method, path, body, key]) => {
      const headers = {
        authorization: `Bearer ${localStorage.getItem('conclave.token')}`,
        'content-type': 'application/json',
      };
      if (key) headers['idempotency-key'] = key;
      const r = await fetch(path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: r.status, body: r.status === 204 ? null : await r.json() };
    },
    [method, path, body, key],
  );
}

export async function waitLive(page, timeout = 20000) {
  await page.locator('#conn[data-state="open"]').waitFor({ timeout });
}

// Create a lobby with the form on the home page; returns the lobby id.
export async function createLobby(
  page,
  { game = 'Galactic Sprint', seats = 1, options = {}, isPrivate = false, clock = null } = {},
) {
  const form = page.locator('section.create');
  await form.getByLabel('Game', { exact: true }).selectOption({ label: game });
  await form.getByLabel('Seats').fill(String(seats));
  for (const [label, value] of Object.entries(options))
    await form.getByLabel(label).fill(String(value));
  if (isPrivate) await form.getByLabel(/Private/).check();
  if (clock) {
    await form.getByLabel('Clock').selectOption(clock.mode);
    await form.getByLabel('Seconds per turn').fill(String(clock.seconds));
  }
  await form.getByRole('button', { name: 'Create lobby' }).click();
  await page.waitForURL(/\/lobby\//);
  return new URL(page.url()).pathname.split('/').pop();
}

export function gameIdOf(page) {
  return new URL(page.url()).pathname.split('/').pop();
}

// What every browser test file starts with: a fresh database, a server on
// it and a headless Chromium. stopStack takes the values current at the end
// (a test may have restarted the server).
export async function startStack(prefix = 'web', env = {}) {
  const db = createDatabase(prefix);
  const server = await startServer({ db, env });
  const chrome = await launch();
  return { db, server, chrome };
}

// Fix the deal of every game a page (or a browser context) starts: its
// lobby start (POST /api/v1/lobbies/ID/start, sent by the page without a
// body) carries {"seed": HEX}, sha256 of `label`. The server takes a seed
// only with CONCLAVE_TEST_HOOKS=1 (startStack(prefix, {CONCLAVE_TEST_HOOKS:
// '1'})). The same label gives the same cards on every run.
export async function fixDeal(target, label) {
  const seed = createHash('sha256').update(`deal-${label}`).digest('hex');
  await target.route('**/api/v1/lobbies/*/start', (route) =>
    route.continue({
      postData: JSON.stringify({ seed }),
      headers: { ...route.request().headers(), 'content-type': 'application/json' },
    }),
  );
  return seed;
}

export async function stopStack({ db, server, chrome }) {
  if (chrome) await chrome.close();
  if (server) await server.stop();
  if (db) dropDatabase(db);
}

// In a lobby the page's player hosts: check the ruleset's bot levels are
// offered, seat a bot of `level` in seat 2, start, and wait for the live
// table.
export async function addBotAndStart(page, level = 'basic', levels = ['Basic', 'Random']) {
  const select = page.getByLabel('Bot level for seat 2');
  // allTextContents does not wait: wait for the lobby's seat rows first (the
  // select is drawn with its options at once).
  await select.waitFor();
  assert.deepEqual(
    await select.locator('option').allTextContents(),
    levels,
    'the ruleset\u2019s bot levels',
  );
  await select.selectOption(level);
  await page.getByRole('button', { name: 'Add bot' }).click();
  await page.locator('.seat-row', { hasText: level }).waitFor();
  await page.getByRole('button', { name: 'Start game' }).click();
  await page.waitForURL(/\/game\//);
  await waitLive(page);
}

// council.test.mjs - a 3-seat Galactic Council game in the browser: one
// player and two basic bots, set up through the lobby (Council offered for
// 3 to 8 seats, with bots). The player picks strategy cards (passing
// through the council's windows, council_council.test.mjs) and gives its
// orders by clicking in the composer through several rounds, including the
// conditional "inspect; if it is hostile then retreat, otherwise land on
// every planet", reloads the page in the middle (the parts it composed but
// did not send yet are kept: they are stored on the server) and sends with
// "Send orders" (the "ready" part, put last). Every WebSocket frame the
// page received is replayed into the views it saw, which must never hold
// another seat's hidden facts: no unexplored sector's contents and no
// marker the player neither inspected nor saw turned face up; the same for
// a signed-out spectator's page, which has no composer and sees no units.
// Screenshots at desktop and phone size go to tests/out/screenshots/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { applyPatch } from '../../web/jsonpatch.js';
import { client, newPlayer, newGame } from '../integration/lib/api.mjs';
import {
  chromiumPath,
  openPage,
  pageUrl,
  shot,
  SHOTS,
  signUpGuest,
  createLobby,
  waitLive,
  startStack,
  fixDeal,
  stopStack,
  wordsSplit,
  pageRest,
} from './lib/browser.mjs';

const skip = chromiumPath() ? false : 'no Chromium installed';
let db, server, chrome;

before(async () => {
  // CONCLAVE_TEST_HOOKS: a game started from the page has a fixed deal (fixDeal).
  if (!skip) ({ db, server, chrome } = await startStack('council', { CONCLAVE_TEST_HOOKS: '1' }));
});
after(() => stopStack({ db, server, chrome }));

const rest = pageRest;

const game = async (page, id) => (await rest(page, 'GET', `/api/v1/games/${id}`)).body;

// Wait until the seat has something to do: a pick or an action window.
async function myTurn(page, id) {
  for (let i = 0; i < 200; i++) {
    const g = await game(page, id);
    if (g.status !== 'running') return { over: true, g };
    const w = g.windows.find((x) => x.seats.includes(g.you));
    // a sealed window is done once it holds the ready part, or (the ranked
    // picks: one whole order) once the seat has sent
    const done =
      w &&
      w.mode === 'sealed' &&
      ((g.view.my_orders[w.id] || {}).ready === true ||
        (/\.picks$/.test(w.id) && (w.submitted || []).includes(g.you)));
    if (w && !done) return { w, g };
    await page.waitForTimeout(100);
  }
  throw new Error('the game never waited on the player');
}

// Whether every strategy card's words fit their button, at 1280 and 390 px
// wide: no text wider than its box (scrollWidth past clientWidth), no word
// cut. Returns the cards that do not fit, with their sizes.
async function cardsThatDoNotFit(page, cards = '.cn-pick .cn-card') {
  const bad = [];
  const size = page.viewportSize();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 844 });
    await page.waitForTimeout(100);
    bad.push(
      ...(await page
        .locator(cards)
        .evaluateAll(
          (cards, w) =>
            cards.flatMap((b) =>
              [b, ...b.querySelectorAll('*')]
                .filter((e) => e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 0)
                .map((e) => `${w}px: "${b.textContent}" ${e.scrollWidth} > ${e.clientWidth}`),
            ),
          width,
        )),
    );
  }
  await page.setViewportSize(size);
  return bad;
}

// Play on to the next action window: the ranked strategy picks (the third
// card moved to the top with the keyboard, then sent) or a sequential pick
// (the first card left; at the first pick, the cards' words are checked
// to fit), the agenda
// when the player speaks (the first it holds), and the council's lobby and
// council windows sent with nothing chosen.
let fitChecked = false;
async function pickCard(page, id) {
  for (;;) {
    const t = await myTurn(page, id);
    if (t.over || /\.action$/.test(t.w.id)) return t;
    if (/\.picks$/.test(t.w.id)) {
      // The ranked picks: the list starts in initiative order; the player
      // moves the third card to the top with the keyboard, then sends.
      await page.locator('.cn-rank h2', { hasText: 'Rank the strategy cards' }).waitFor();
      const items = page.locator('.cn-rank-item');
      assert.ok((await items.count()) >= 4, 'the cards are listed');
      const before = await items.evaluateAll((l) => l.map((e) => e.dataset.key));
      if (!fitChecked) {
        fitChecked = true;
        assert.deepEqual(
          await cardsThatDoNotFit(page, '.cn-rank-item'),
          [],
          'strategy cards fit their rows',
        );
        await page.setViewportSize({ width: 390, height: 844 });
        assert.deepEqual(
          await wordsSplit(page, '.cn-rank-name, .cn-planets li'),
          [],
          'card and planet names split inside a word at 390 px',
        );
        await page.setViewportSize({ width: 1280, height: 900 });
      }
      const third = before[2].replace(/^rank-/, '');
      await page.locator(`[data-key="rank-up-${third}"]`).focus();
      await page.keyboard.press('Enter');
      await page.waitForFunction(
        (k) => document.activeElement?.dataset.key === `rank-up-${k}`,
        third,
      );
      await page.keyboard.press('Enter'); // the focus stayed on its button
      await page.waitForFunction(
        (k) => document.querySelector('.cn-rank-item')?.dataset.key === `rank-${k}`,
        third,
      );
      await page.locator('[data-key="rank-send"]').click();
      for (let i = 0; i < 100; i++) {
        const g = await game(page, id);
        const w = g.windows.find((x) => x.id === t.w.id);
        if (!w || (w.submitted || []).includes(g.you)) break;
        await page.waitForTimeout(100);
      }
      const mine = (await game(page, id)).view.my_orders[t.w.id];
      if (mine) assert.equal(mine.ranking[0], third, 'the ranking sent starts with the card moved');
      continue;
    }
    if (/\.pick\d+$/.test(t.w.id)) {
      await page.locator('.cn-pick h2', { hasText: 'Pick your strategy card' }).waitFor();
      if (!fitChecked) {
        fitChecked = true;
        assert.ok((await page.locator('.cn-pick .cn-card').count()) >= 4, 'the cards are shown');
        assert.deepEqual(await cardsThatDoNotFit(page), [], 'strategy cards fit their buttons');
        await page.setViewportSize({ width: 390, height: 844 });
        assert.deepEqual(
          await wordsSplit(page, '.cn-pick .cn-card, .cn-planets li'),
          [],
          'card and planet names split inside a word at 390 px',
        );
        await page.setViewportSize({ width: 1280, height: 900 });
      }
      await page.locator('.cn-pick button:not([disabled])').first().click();
    } else if (/\.agenda$/.test(t.w.id))
      await page.locator('[data-key^="agenda-"]').first().click();
    else await page.locator('[data-key="council-send"]').click();
    for (let i = 0; i < 100 && (await isOpen(page, id, t.w.id)); i++) {
      const g = await game(page, id);
      if (t.w.mode === 'sealed' && (g.view.my_orders[t.w.id] || {}).ready === true) break;
      await page.waitForTimeout(100);
    }
  }
}

const isOpen = async (page, id, wid) => (await game(page, id)).windows.some((w) => w.id === wid);

// After "Send orders" (the bots have sent theirs): the window locks once the
// server has the ready part; wait for that before looking at the next one
// (polled for up to 30 s, which only catches a window that never locks).
async function waitLocked(page, id, wid) {
  for (let i = 0; i < 300 && (await isOpen(page, id, wid)); i++) await page.waitForTimeout(100);
  assert.ok(!(await isOpen(page, id, wid)), 'the window locked once the orders were sent');
}

async function selectSector(page, hex, { keyboard = false } = {}) {
  const s = page.locator(`.cn-map-svg [data-hex="${hex[0]},${hex[1]}"]`);
  if (keyboard) {
    await s.focus();
    await page.keyboard.press('Enter');
  } else await s.click();
}

function neighbours([q, r]) {
  return [
    [q + 1, r],
    [q - 1, r],
    [q, r + 1],
    [q, r - 1],
    [q + 1, r - 1],
    [q - 1, r + 1],
  ];
}

// The views a page saw: snapshots as they came, patches applied to the
// version they start from (a frame, or a game resource the page read over
// REST: a reloaded page resumes from that). Returns {seen: [{version,
// view}], skipped}.
function replayFrames(frames, bases) {
  const docs = new Map(bases.map((b) => [b.version, { view: b.view, windows: b.windows }]));
  const seen = [];
  let skipped = 0;
  for (const t of frames) {
    let msg;
    try {
      msg = JSON.parse(t);
    } catch {
      continue;
    }
    if (msg.type === 'snapshot' && msg.view) {
      docs.set(msg.version, { view: msg.view, windows: msg.windows });
      seen.push({ version: msg.version, view: msg.view });
    } else if (msg.type === 'patch') {
      const from = docs.get(msg.from);
      if (!from) {
        skipped++;
        continue;
      }
      const doc = applyPatch(from, msg.ops);
      docs.set(msg.to, doc);
      seen.push({ version: msg.to, view: doc.view });
    }
  }
  return { seen, skipped };
}

// What the seat may know of markers: those it inspected and those turned
// face up, by "q,r,planet" (planet -1 for the system's own marker).
function knownMarkers(entries) {
  const k = new Set();
  for (const { entry: e } of entries)
    if (e.type === 'inspected' || e.type === 'marker')
      k.add(`${e.sector[0]},${e.sector[1]},${e.planet}`);
  return k;
}

function hiddenFactLeaks(view, known) {
  const bad = [];
  for (const s of (view.galaxy && view.galaxy.sectors) || []) {
    if (!s.explored) {
      const extra = Object.keys(s).filter((k) => !['q', 'r', 'explored'].includes(k));
      if (extra.length) bad.push(`unexplored (${s.q}, ${s.r}) shows ${extra.join(', ')}`);
      continue;
    }
    const check = (m, planet) => {
      if (m && m !== 'hidden' && !known.has(`${s.q},${s.r},${planet}`))
        bad.push(`marker ${m.key} at (${s.q}, ${s.r}) planet ${planet}`);
    };
    check(s.marker, -1);
    (s.planets || []).forEach((p, i) => check(p.marker, i));
  }
  return bad;
}

test(
  'a Council game with two bots: picks, composed orders with a condition, a reload, no hidden facts',
  { skip, timeout: 240000 },
  async (tc) => {
    const P = await openPage(chrome.browser);
    const page = P.page;
    await fixDeal(P.context, 'council'); // the galaxy is the same on every run
    await signUpGuest(page, server, 'Cora-council');

    // The lobby offers Council for 3 to 8 seats, with bots.
    const form = page.locator('section.create');
    await form.getByLabel('Game', { exact: true }).selectOption({ label: 'Galactic Council' });
    assert.equal(await form.getByLabel('Seats').getAttribute('min'), '3');
    assert.equal(await form.getByLabel('Seats').getAttribute('max'), '8');
    await createLobby(page, { game: 'Galactic Council', seats: 3 });
    for (const seat of [1, 2]) {
      const level = page.locator(`[data-key="lvl-${seat}"]`);
      await level.waitFor();
      assert.ok((await level.locator('option').allTextContents()).includes('Basic'));
      await level.selectOption('basic');
      await page.locator(`[data-key="bot-${seat}"]`).click();
      await page.locator(`[data-key="bot-${seat}"]`).waitFor({ state: 'detached' });
    }
    await page.getByRole('button', { name: 'Start game' }).click();
    await page.waitForURL(/\/game\//);
    const id = new URL(page.url()).pathname.split('/').pop();
    await page.locator('.cn-map-svg [data-hex]').first().waitFor();
    await waitLive(page);

    // A signed-out spectator watches from the start.
    const S = await openPage(chrome.browser);
    const spy = S.page;
    await spy.goto(pageUrl(server, `/game/${id}`));
    await spy.locator('.cn-map-svg [data-hex]').first().waitFor();

    const g0 = await game(page, id);
    const home = g0.view.galaxy.sectors.find((s) => s.home === g0.you);
    const homeHex = [home.q, home.r];
    const on = g0.view.galaxy.sectors.map((s) => `${s.q},${s.r}`);
    const target = neighbours(homeHex).find((n) => {
      const s = g0.view.galaxy.sectors.find((x) => x.q === n[0] && x.r === n[1]);
      return s && !s.explored && on.includes(`${n[0]},${n[1]}`);
    });
    assert.ok(target, 'an unexplored neighbour of home');

    // Round 1: pick, then the conditional fleet order by clicking.
    let turn = await pickCard(page, id);
    assert.ok(!turn.over);
    await page.locator('[data-key="send-orders"]').waitFor();
    await shot(page, 'council-desktop-action');
    const label = await page
      .locator(`.cn-map-svg [data-hex="${homeHex[0]},${homeHex[1]}"]`)
      .getAttribute('aria-label');
    assert.match(label, /your home.*your fleet: 2 carriers, 1 cruiser and 2 fighters/);
    assert.match(
      await page
        .locator('.cn-map-svg [data-hex]:not([data-hex="0,0"])')
        .first()
        .getAttribute('aria-label'),
      /^(Unexplored sector|.+ \(-?\d, -?\d\))/,
    );
    await selectSector(page, homeHex, { keyboard: true });
    await page.locator('[data-key="act-move"]').click();
    await selectSector(page, target);
    assert.equal(await page.locator('[data-key="mv-arrive"]').inputValue(), 'cond');
    assert.equal(
      await page.locator('[data-key="mv-trooper"]').inputValue(),
      '3',
      'the troopers home can spare board',
    );
    await page.locator('[data-key="mv-cond"]').selectOption('hostile');
    await page.locator('[data-key="mv-then"]').selectOption('retreat');
    await page.locator('[data-key="mv-else"]').selectOption('land_all');
    const sentence = await page.locator('.cn-draft .cn-sentence').textContent();
    assert.match(
      sentence,
      /^Move .*carrier.* to \(-?\d+, -?\d+\) and then inspect the marker there; if it is hostile then retreat to .* otherwise land all troopers on every planet\.$/,
    );
    await shot(page, 'council-desktop-composer');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'council-phone-composer');
    await page.setViewportSize({ width: 1280, height: 900 });
    const w1 = turn.w.id;
    await page.locator('[data-key="draft-add"]').click();
    // With ready parts the window stays open until "Send orders"; a server
    // that locks at the first part has already moved on.
    const readyCore = await isOpen(page, id, w1);
    tc.diagnostic(
      readyCore ? 'the window waits for the ready part' : 'the window locked at the first part',
    );
    if (readyCore) {
      await page.locator('.cn-part', { hasText: 'if it is hostile then retreat' }).waitFor();
      const held = (await game(page, id)).view.my_orders[w1];
      const key = Object.keys(held).find((k) => k.startsWith('f'));
      assert.deepEqual(held[key][2].cond, { type: 'marker_is', is: 'hostile' });
      // Status 1: the player chooses the objective to score (the second
      // revealed one here, not the first met).
      const obj = (await game(page, id)).view.objectives[1];
      await page.locator('[data-key="score-public"]').selectOption(obj.key);
      await page.locator('.cn-part', { hasText: 'At the status phase score' }).waitFor();
      assert.deepEqual((await game(page, id)).view.my_orders[w1].score, [
        { type: 'score', public: [obj.key] },
      ]);
      await page.locator('[data-key="send-orders"]').click();
      await waitLocked(page, id, w1);
    }

    // Round 2: production, composed but not sent, then a reload.
    turn = await pickCard(page, id);
    const w2 = turn.w.id;
    await page.locator('[data-key="send-orders"]').waitFor();
    await selectSector(page, homeHex);
    await page.locator('[data-key="act-produce"]').click();
    await page.locator('[data-key="pr-trooper"]').fill('2');
    assert.match(
      await page.locator('.cn-draft .cn-sentence').textContent(),
      /^Produce 2 troopers at /,
    );
    await page.locator('[data-key="draft-add"]').click();
    const stillOpen = await isOpen(page, id, w2);
    await page.reload();
    await waitLive(page);
    await page.locator('.cn-map-svg [data-hex]').first().waitFor();
    if (stillOpen) {
      // The part survived the reload, unsent; it can be sent now.
      await page.locator('.cn-part', { hasText: /^Produce 2 troopers at / }).waitFor();
      assert.match(await page.locator('.cn-sent').textContent(), /not sent yet/);
      await page.locator('[data-key="send-orders"]').click();
      await page
        .locator('.cn-sent', { hasText: 'Sent.' })
        .or(page.locator('.cn-pick'))
        .or(page.locator('.cn-window'))
        .first()
        .waitFor();
      await waitLocked(page, id, w2);
    } else {
      assert.ok(!readyCore);
      await page.locator('.cn-head', { hasText: /Round [2-9]/ }).waitFor();
    }

    // Rounds 3 and 4: send with nothing composed (fleets hold) or explore.
    for (let r = 0; r < 2; r++) {
      turn = await pickCard(page, id);
      if (turn.over) break;
      await page.locator('[data-key="send-orders"]').waitFor();
      await page.locator('[data-key="send-orders"]').click();
      await waitLocked(page, id, turn.w.id);
    }
    const g = await game(page, id);
    assert.ok(g.view.round >= 4, `several rounds played (round ${g.view.round})`);
    await page
      .locator('.log-list li', { hasText: /Round \d+ begins/ })
      .first()
      .waitFor();
    await shot(page, 'council-desktop-late');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(200);
    await shot(page, 'council-phone-late');
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    assert.ok(overflow <= 1, `no sideways scrolling at 390px (${overflow}px)`);
    // Nor inside the players table: each player is a card at this width.
    const players = await page.evaluate(() => {
      const wrap = document.querySelector('.cn-players .cn-table-wrap');
      const table = wrap.querySelector('table');
      return {
        wrap: [wrap.scrollWidth, wrap.clientWidth],
        table: [table.scrollWidth, table.clientWidth],
        rows: table.querySelectorAll('tbody tr').length,
      };
    });
    assert.equal(players.rows, 3);
    assert.ok(
      players.wrap[0] <= players.wrap[1] && players.table[0] <= players.table[1],
      `the players table does not scroll sideways at 390px (${JSON.stringify(players)})`,
    );
    await page.locator('.cn-players').screenshot({ path: `${SHOTS}/council-phone-players.png` });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.locator('.cn-players').screenshot({ path: `${SHOTS}/council-desktop-players.png` });

    // No hidden facts in any view the page was sent.
    const log = (await rest(page, 'GET', `/api/v1/games/${id}/log?after=0`)).body.entries;
    const known = knownMarkers(log);
    const bases = page.rest
      .filter((r) => new URL(r.url).pathname === `/api/v1/games/${id}` && r.status === 200)
      .map((r) => JSON.parse(r.body));
    const { seen, skipped } = replayFrames(page.framesIn, bases);
    assert.ok(skipped <= 2, `patches without a base: ${skipped}`);
    assert.ok(
      seen.length > 5,
      `views replayed (${seen.length}, ${skipped} patches without a base)`,
    );
    const leaks = seen.flatMap((s) =>
      hiddenFactLeaks(s.view, known).map((b) => `v${s.version}: ${b}`),
    );
    assert.deepEqual(leaks, []);
    assert.deepEqual(page.problems, []);

    // The spectator's table has no composer and its views no hidden facts
    // (markers only where they were turned face up for everyone).
    await spy.locator('.cn-head', { hasText: `Round ${g.view.round}` }).waitFor();
    assert.equal(await spy.locator('.cn-orders').count(), 0);
    const publicLog = (
      await spy.evaluate(async (u) => (await fetch(u)).json(), `/api/v1/games/${id}/log?after=0`)
    ).entries;
    assert.ok(
      publicLog.every((e) => e.seat === null),
      'no private entries for a spectator',
    );
    const spyBases = spy.rest
      .filter((r) => new URL(r.url).pathname === `/api/v1/games/${id}` && r.status === 200)
      .map((r) => JSON.parse(r.body));
    const spied = replayFrames(spy.framesIn, spyBases);
    assert.ok(spied.seen.length > 5, `spectator views replayed (${spied.seen.length})`);
    const spyLeaks = spied.seen.flatMap((s) =>
      hiddenFactLeaks(s.view, knownMarkers(publicLog)).map((b) => `v${s.version}: ${b}`),
    );
    assert.deepEqual(spyLeaks, []);
    for (const s of spied.seen)
      for (const x of s.view.galaxy.sectors) assert.ok(!x.fleets, 'spectators see no units');
    assert.deepEqual(spy.problems, []);
    await S.context.close();
    await P.context.close();
  },
);

// The other player, over REST: picks the first card it may (and the first
// agenda), sends the council's windows with nothing chosen, and its
// action orders (the ready part, or {} whole where the server has no ready
// part) once released.
function restSeat(base, who) {
  const call = client(base);
  let release = false;
  let stop = false;
  const loop = (async () => {
    while (!stop) {
      const g = (await call('GET', `/api/v1/games/${who.game}`, { token: who.token, check: false }))
        .body;
      const w = g && g.status === 'running' && g.windows.find((x) => x.seats.includes(g.you));
      if (w && /\.picks$/.test(w.id)) {
        if (!w.submitted.includes(g.you))
          await call('PUT', `/api/v1/games/${who.game}/orders/${w.id}`, {
            token: who.token,
            body: { ranking: ['commerce', 'research'] },
            check: false,
          });
      } else if (w && w.mode === 'open') {
        const legal = (
          await call('GET', `/api/v1/games/${who.game}/legal`, { token: who.token, check: false })
        ).body;
        const choice = legal.windows[0] && legal.windows[0].choices[0];
        if (choice)
          await call('POST', `/api/v1/games/${who.game}/plays`, {
            token: who.token,
            body: { window: w.id, ...choice },
            headers: { 'Idempotency-Key': `${w.id}-${who.name}` },
            check: false,
          });
      } else if (
        w &&
        (release || !/\.action$/.test(w.id)) &&
        !(g.view.my_orders[w.id] || {}).ready &&
        !w.submitted.includes(g.you)
      ) {
        const r = await call('PUT', `/api/v1/games/${who.game}/orders/${w.id}/parts/ready`, {
          token: who.token,
          body: true,
          check: false,
        });
        if (r.status === 422)
          await call('PUT', `/api/v1/games/${who.game}/orders/${w.id}`, {
            token: who.token,
            body: {},
            check: false,
          });
      }
      await new Promise((r) => setTimeout(r, 150));
    }
  })();
  return {
    release: () => (release = true),
    hold: () => (release = false),
    stop: async () => {
      stop = true;
      await loop;
    },
  };
}

test(
  'composed orders survive a reload until they are sent',
  { skip, timeout: 120000 },
  async () => {
    const P = await openPage(chrome.browser, {
      viewport: { width: 390, height: 844 },
      isMobile: true,
    });
    const page = P.page;
    await signUpGuest(page, server, 'Rhea-council');
    const token = await page.evaluate(() => localStorage.getItem('conclave.token'));
    const call = client(server.url);
    const other = await newPlayer(call, { guest: true, prefix: 'cn' });
    const id = await newGame(call, 'council', [{ token }, other], { bots: ['basic'] });
    const B = restSeat(server.url, { ...other, game: id });
    try {
      await page.goto(pageUrl(server, `/game/${id}`));
      await waitLive(page);
      const turn = await pickCard(page, id);
      const w = turn.w.id;
      const home = turn.g.view.galaxy.sectors.find((s) => s.home === turn.g.you);
      await page.locator('[data-key="send-orders"]').waitFor();
      // Phone size: the map's buttons are enough to move around it.
      const box = () => page.locator('.cn-map-svg').getAttribute('viewBox');
      const start = await box();
      await page.locator('[data-key="zoom-out"]').click();
      assert.notEqual(await box(), start);
      await page.locator('[data-key="zoom-in"]').click();
      await page.locator('[data-key="pan-left"]').click();
      await page.locator('[data-key="pan-right"]').click();
      assert.equal(await box(), start, 'the buttons zoom and pan, and back');
      await selectSector(page, [home.q, home.r]);
      await page.locator('[data-key="act-produce"]').click();
      await page.locator('[data-key="pr-trooper"]').fill('2');
      await page.locator('[data-key="draft-add"]').click();
      await page.locator('.cn-part', { hasText: /^Produce 2 troopers at / }).waitFor();
      // Edit the part: the composer opens with it, and the same key is replaced.
      await page.locator('.cn-part button', { hasText: 'Edit' }).click();
      assert.equal(await page.locator('[data-key="pr-trooper"]').inputValue(), '2');
      await page.locator('[data-key="pr-trooper"]').fill('4');
      await page.locator('[data-key="draft-add"]').click();
      await page.locator('.cn-part', { hasText: /^Produce 4 troopers at / }).waitFor();
      assert.equal(await page.locator('.cn-part').count(), 1);
      await shot(page, 'council-phone-parts');
      await page.reload();
      await waitLive(page);
      const part = page.locator('.cn-part', { hasText: /^Produce 4 troopers at / });
      await part.waitFor();
      assert.match(await page.locator('.cn-sent').textContent(), /not sent yet/);
      assert.ok(await isOpen(page, id, w), 'the window still waits for the other player');
      // The players table adds up the planets each holds.
      const worth = home.planets.reduce((a, p) => [a[0] + p.resources, a[1] + p.influence], [0, 0]);
      assert.ok(
        (await page.locator('.cn-table tr.cn-me td').allTextContents()).includes(
          `${worth[0]} / ${worth[1]}`,
        ),
      );
      await page.locator('[data-key="send-orders"]').click();
      B.release();
      await waitLocked(page, id, w);
      const log = (await rest(page, 'GET', `/api/v1/games/${id}/log?after=0`)).body.entries;
      const mine = log.find((e) => e.entry.type === 'your_order' && e.entry.window === w);
      assert.ok(mine, 'my order was revealed to me');
      const parts = Object.entries(mine.entry.order).filter(([k]) => k !== 'ready');
      assert.equal(parts.length, 1);
      assert.deepEqual(parts[0][1], [
        { type: 'produce', sector: [home.q, home.r], units: { trooper: 4 } },
      ]);
      assert.deepEqual(page.problems, []);
    } finally {
      await B.stop();
      await P.context.close();
    }
  },
);

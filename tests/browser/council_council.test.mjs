// council_council.test.mjs - the council phase of Galactic Council in the
// browser: a 4-seat game, two players in two browsers and two basic bots,
// watched by a spectator in a third, played through two rounds. The deal
// is fixed (lib/council_deal.mjs: a seed the server takes only with
// CONCLAVE_TEST_HOOKS=1, found by council_deal_search.mjs), so the
// scenario always happens:
// - round 1: in the lobby one player's spy (sent by clicking) kills the
//   other player's councillor (sent by keyboard); neither page shows or
//   receives the other's choice before the reveal; in the council window
//   both see the survivors and the victim's vote is refused; afterwards
//   both show the representatives, the kill (that player does not vote),
//   the vote with each player's weight, the outcome and the laws in force;
//   the victim's table talk is closed for the debate (a 403), reopened
//   after the vote;
// - the two players talk in a private channel: the spectator's page never
//   shows or receives it (DOM, WebSocket frames, REST), while it does get
//   a public message (the positive control of that search);
// - round 2: one player gives the other a trade good, a player's Veto
//   replaces the agenda, and the players' votes tie; the speaker (the first
//   player, holding Forum) breaks the tie, and both pages say so and show
//   the outcome.
// The order parts the pages stored are checked as JSON. Screenshots at
// desktop and phone size go to tests/out/screenshots/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { client, newLobby } from '../integration/lib/api.mjs';
import path from 'node:path';
import {
  chromiumPath,
  openPage,
  pageUrl,
  shot,
  signUpGuest,
  waitLive,
  startStack,
  stopStack,
  SHOTS,
  pageRest,
} from './lib/browser.mjs';
import {
  DEAL,
  ASSASSINS,
  pickFor,
  agendaFor,
  round1Parts,
  giverOf,
  vetoOf,
} from './lib/council_deal.mjs';

const skip = chromiumPath() ? false : 'no Chromium installed';
let db, server, chrome;

before(async () => {
  if (!skip) ({ db, server, chrome } = await startStack('cncouncil', { CONCLAVE_TEST_HOOKS: '1' }));
});
after(() => stopStack({ db, server, chrome }));

// The council panel alone (the full page is long on a phone). The panel
// is redrawn when a patch arrives, which can detach the element Playwright
// found before it is captured: take the redrawn one.
async function panelShot(page, name) {
  for (let i = 0; ; i++) {
    try {
      return await page
        .locator('.cn-council')
        .screenshot({ path: path.join(SHOTS, `${name}.png`) });
    } catch (e) {
      if (i >= 4 || !/not attached/.test(String(e.message))) throw e;
    }
  }
}

const rest = pageRest;
const game = async (page, id) => (await rest(page, 'GET', `/api/v1/games/${id}`)).body;

// Play the page's windows by clicking until a window matching stop is open
// (strategy pick and agenda as lib/council_deal.mjs says; lobby and action:
// send nothing). Returns the game document.
async function toCouncil(page, id, shots, stop = /\.council$/, forumFirst = false) {
  for (let i = 0; i < 600; i++) {
    const g = await game(page, id);
    assert.equal(g.status, 'running');
    const w = g.windows.find((x) => x.seats.includes(g.you));
    const sent = w && w.mode === 'sealed' && (g.view.my_orders[w.id] || {}).ready === true;
    if (w && !sent) {
      if (stop.test(w.id)) return g;
      try {
        if (/\.pick\d+$/.test(w.id))
          await page
            .locator(`[data-key="pick-${pickFor(g, forumFirst)}"]:not([disabled])`)
            .click({ timeout: 3000 });
        else if (/\.agenda$/.test(w.id)) {
          const key = `[data-key="agenda-${agendaFor(g)}"]`;
          await page.locator(key).waitFor({ timeout: 3000 });
          if (shots) await shot(page, 'council-desktop-agenda-choice');
          await page.locator(key).click();
          page.choseAgenda = w.id;
        } else if (/\.lobby$/.test(w.id)) {
          await page.locator('.cn-window[data-window$=".lobby"]').waitFor({ timeout: 3000 });
          if (shots) await shot(page, 'council-desktop-lobby');
          await page.locator('[data-key="council-send"]').click();
        } else if (/\.action$/.test(w.id))
          await page.locator('[data-key="send-orders"]').click({ timeout: 3000 });
        await page.waitForTimeout(300);
      } catch {
        /* the page had not drawn the window yet: look again */
      }
    } else await page.waitForTimeout(150);
  }
  throw new Error('the council window never opened');
}

// Click a radio button of the council window until the part it puts shows
// (the panel is redrawn as the game's frames arrive: a click may land on a
// node just being replaced).
async function choose(radio, part) {
  for (let i = 0; i < 4; i++) {
    await radio.click({ timeout: 5000 }).catch(() => {});
    try {
      await part.waitFor({ timeout: 5000 });
      return;
    } catch {
      /* try again */
    }
  }
  await part.waitFor({ timeout: 5000 });
}

async function waitFor(fn, what, tries = 150) {
  for (let i = 0; i < tries; i++) {
    const v = await fn();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`timed out: ${what}`);
}

test(
  'two players, two bots and a spectator through two councils: a secret spy kills a councillor, private talk, a veto, a tie the speaker breaks',
  { skip, timeout: 600000 },
  async (tc) => {
    const A = await openPage(chrome.browser);
    const B = await openPage(chrome.browser, {
      viewport: { width: 390, height: 844 },
      isMobile: true,
    });
    const C = await openPage(chrome.browser);
    const pa = A.page;
    const pb = B.page;
    const pc = C.page; // the spectator
    try {
      await signUpGuest(pa, server, 'Ada-council');
      await signUpGuest(pb, server, 'Bo-council');
      await signUpGuest(pc, server, 'Cy-watch');
      const ta = await pa.evaluate(() => localStorage.getItem('conclave.token'));
      const tb = await pb.evaluate(() => localStorage.getItem('conclave.token'));
      const call = client(server.url);

      // The fixed deal. An asynchronous clock: every window has a day's deadline.
      const lobby = await newLobby(
        call,
        { token: ta },
        {
          ruleset: 'council',
          seats: 4,
          clock: { mode: 'async', seconds: 86400 },
          // the scenario's script picks one card at a time (pickFor); rules
          // edition 1, the lobby in a window of its own (games stored before
          // editions play so; edition 2's lobby in the action window is
          // council_lobby_in_action.test.mjs)
          options: { strategy_picks: 1, edition: 1 },
        },
        [{ token: tb }],
      );
      for (let b = 0; b < 2; b++)
        assert.equal(
          (
            await call('POST', `/api/v1/lobbies/${lobby.id}/bots`, {
              token: ta,
              body: { level: 'basic' },
            })
          ).status,
          200,
        );
      const started = await call('POST', `/api/v1/lobbies/${lobby.id}/start`, {
        token: ta,
        body: { seed: DEAL.seed },
      });
      assert.equal(started.status, 201, started.text);
      const id = started.body.game;
      const g0 = await game(pa, id);
      assert.equal(g0.you, 0, 'the host sits in seat 0');
      const race = (s) => g0.view.players[s].race;
      const [spyPage, victimPage] = ASSASSINS.has(race(0)) ? [pa, pb] : [pb, pa];
      assert.ok(
        ASSASSINS.has(race(spyPage === pa ? 0 : 1)),
        'the deal gives a player an assassin spy',
      );
      await pa.goto(pageUrl(server, `/game/${id}`));
      await pb.goto(pageUrl(server, `/game/${id}`));
      await pc.goto(pageUrl(server, `/game/${id}`));
      await waitLive(pa);
      await waitLive(pb);
      await waitLive(pc);
      await pa.locator('.cn-council').waitFor();

      // Round 1's lobby (seed 000, 2.3): the representatives are sent here
      // and the spies act when it closes, before the debate and the vote.
      const [gs, gv] = await Promise.all([
        toCouncil(spyPage, id, spyPage === pa, /\.lobby$/, spyPage === pa),
        toCouncil(victimPage, id, victimPage === pa, /\.lobby$/, victimPage === pa),
      ]);
      const lid1 = gs.windows[0].id;
      assert.match(lid1, /^r1\.lobby$/);
      const spySeat = gs.you;
      const victimSeat = gv.you;
      const spyRace = gs.view.players[spySeat].race;
      const victimRace = gs.view.players[victimSeat].race;
      // The representatives each page offers come from its own view (its
      // race's, as the ruleset's data has them).
      const spyName = gs.view.you.representatives.spy.name;
      assert.equal(gs.view.you.representatives.spy.ability, 'assassinate');
      assert.ok(
        gv.view.you.representatives.councillor.name,
        "the victim's view has its councillor",
      );
      const agenda = gs.view.council.agenda;
      assert.ok(agenda, 'an agenda is on the table');
      tc.diagnostic(
        `spy ${spyRace} (seat ${spySeat}) against ${victimRace} (seat ${victimSeat}); agenda ${agenda.key} (${agenda.kind})`,
      );

      // The spy's player: the target first, then the spy, by clicking.
      const sl = spyPage.locator('.cn-window[data-window="r1.lobby"]');
      await sl.waitFor();
      assert.match(await sl.textContent(), new RegExp(`${spyName}.*influence \\+0; Assassinate`));
      await sl.locator('[data-key="rep-target"]').selectOption(String(victimSeat));
      await choose(
        sl.locator('[data-key="rep-spy"]'),
        sl.locator('.cn-part', { hasText: /^Send your spy against/ }),
      );
      await shot(
        spyPage,
        spyPage === pa ? 'council-desktop-lobby-reps' : 'council-phone-lobby-reps',
      );
      // The victim's player: the councillor by keyboard (Tab to the radio
      // group, Space).
      const vl = victimPage.locator('.cn-window[data-window="r1.lobby"]');
      await vl.waitFor();
      await vl.locator('[data-key="rep-councillor"]').focus();
      await victimPage.keyboard.press('Space');
      await vl.locator('.cn-part', { hasText: 'Send your councillor.' }).waitFor();

      // The stored parts, exactly: the representatives of the seed search's
      // script (lib/council_deal.mjs), the rest comes in the council window.
      const held = (p, w) => game(p, id).then((g) => g.view.my_orders[w]);
      const repOf = (parts) => Object.fromEntries(parts.filter(([k]) => k === 'representative'));
      const restOf = (parts) => Object.fromEntries(parts.filter(([k]) => k !== 'representative'));
      const spyParts = round1Parts(agenda.kind, 'spy', spySeat, victimSeat);
      const victimParts = round1Parts(agenda.kind, 'councillor', victimSeat, spySeat);
      const hsl = await held(spyPage, lid1);
      assert.deepEqual(hsl.representative, {
        type: 'representative',
        role: 'spy',
        target: victimSeat,
      });
      assert.deepEqual({ ...hsl, ready: undefined }, { ...repOf(spyParts), ready: undefined });
      const hvl = await held(victimPage, lid1);
      assert.deepEqual(hvl.representative, { type: 'representative', role: 'councillor' });
      assert.deepEqual({ ...hvl, ready: undefined }, { ...repOf(victimParts), ready: undefined });

      // Before the reveal neither page shows or was sent the other's choice.
      assert.ok(
        !(await victimPage.locator('body').textContent()).includes(spyName),
        'the victim does not see the spy coming',
      );
      const gOther = await game(victimPage, id);
      assert.deepEqual(Object.keys(gOther.view.my_orders[lid1]).sort(), ['representative']);
      // (Its own race's representatives, you.representatives, name its own
      // spy: left out of this search.)
      const { representatives: ownReps, ...youRest } = gOther.view.you;
      assert.ok(ownReps.spy.name !== spyName, 'two races, two spies');
      assert.ok(
        !JSON.stringify({ ...gOther, view: { ...gOther.view, you: youRest } }).includes('"spy"'),
        "no spy in the other seat's document",
      );
      assert.ok(
        !victimPage.framesIn.some((f) => f.includes(spyName) || f.includes('"role":"spy"')),
        'no frame to the other seat names the spy',
      );
      assert.ok(
        !spyPage.framesIn.some((f) => f.includes('"role":"councillor"')),
        "no frame to the spy's seat names the councillor",
      );

      // Both send; the bots have sent: the lobby resolves and the spy acts.
      await sl.locator('[data-key="council-send"]').click();
      await spyPage.locator('.cn-sent', { hasText: 'Sent.' }).waitFor();
      assert.ok(
        !(await victimPage.locator('body').textContent()).includes(spyName),
        'still secret after one player sent',
      );
      await vl.locator('[data-key="council-send"]').click();
      await waitFor(
        async () => !(await game(pa, id)).windows.some((w) => w.id === lid1),
        'the lobby resolved',
      );
      const seated = (await game(pa, id)).view.council.seated;
      assert.equal(seated.find((r) => r.seat === victimSeat).fate, 'killed');
      assert.equal(seated.find((r) => r.seat === spySeat).spy_result, 'killed');

      // The council window: the survivors are known; the victim does not vote.
      const [gc] = await Promise.all([
        toCouncil(spyPage, id, false, /\.council$/, spyPage === pa),
        toCouncil(victimPage, id, false, /\.council$/, victimPage === pa),
      ]);
      const wid = gc.windows[0].id;
      assert.match(wid, /^r1\.council$/);
      for (const p of [pa, pb]) {
        const panel = p.locator('.cn-council');
        await panel.locator('.cn-agenda-text', { hasText: agenda.text }).waitFor();
        assert.match(await panel.textContent(), /Speaker: /);
        assert.match(
          await panel.locator('.cn-window .countdown').textContent(),
          /The council window closes in: (23|24) h/,
        );
        assert.equal(
          await p.locator('.cn-orders').count(),
          0,
          'no action composer in the council window',
        );
        await panel.locator('.cn-seated li[data-fate="killed"]').waitFor();
      }
      const sp = spyPage.locator('.cn-window');
      // The spy's player votes (law: for; election: itself).
      if (agenda.kind === 'election')
        await sp.locator('[data-key="vote-seat"]').selectOption(String(spySeat));
      else
        await choose(
          sp.locator('[data-key="vote-for"]'),
          sp.locator('.cn-part', { hasText: /^Vote/ }),
        );
      await sp.locator('.cn-part', { hasText: /^Vote/ }).waitFor();
      await sp.locator('[data-key="markers"]').selectOption('1');
      await sp.locator('.cn-part', { hasText: 'Buy 1 command marker' }).waitFor();
      await shot(
        spyPage,
        spyPage === pa ? 'council-desktop-council-window' : 'council-phone-council-window',
      );
      const vp = victimPage.locator('.cn-window');
      await vp.locator('[data-key="vote-removed"]').waitFor();
      await shot(
        victimPage,
        victimPage === pa ? 'council-desktop-council-window' : 'council-phone-council-window',
      );
      await panelShot(pb, 'council-phone-council-panel');
      // A vote from the victim is refused when saved.
      const refused = await rest(
        victimPage,
        'PUT',
        `/api/v1/games/${id}/orders/${wid}/parts/vote`,
        victimParts.find(([k]) => k === 'vote')[1],
      );
      assert.equal(refused.status, 422, "a removed representative's player cannot vote");
      // Nor take part in the debate: its table talk is closed until the vote
      // is counted (it reads; the other player talks).
      const hushed = await rest(victimPage, 'POST', `/api/v1/games/${id}/channels/0/messages`, {
        text: 'a word for the council',
      });
      assert.equal(hushed.status, 403, 'the removed representative\u2019s player cannot talk');
      assert.match(hushed.body.detail, /representative was removed/);
      const heard = await rest(spyPage, 'POST', `/api/v1/games/${id}/channels/0/messages`, {
        text: 'the council is in session',
      });
      assert.equal(heard.status, 201, 'a seated representative\u2019s player talks');
      const hs = await held(spyPage, wid);
      assert.deepEqual(hs.markers, { type: 'markers', count: 1 });
      assert.deepEqual(
        hs.vote,
        agenda.kind === 'election' ? { type: 'vote', seat: spySeat } : { type: 'vote', for: true },
      );
      assert.deepEqual({ ...hs, ready: undefined }, { ...restOf(spyParts), ready: undefined });

      await sp.locator('[data-key="council-send"]').click();
      await spyPage.locator('.cn-sent', { hasText: 'Sent.' }).waitFor();
      await vp.locator('[data-key="council-send"]').click();
      await waitFor(
        async () => !(await game(pa, id)).windows.some((w) => w.id === wid),
        'the council window resolved',
      );

      // The outcome on both pages.
      const g1 = await game(pa, id);
      const last = g1.view.council.last;
      assert.equal(last.round, 1);
      const rs = last.representatives.find((r) => r.seat === spySeat);
      const rv = last.representatives.find((r) => r.seat === victimSeat);
      assert.equal(rs.role, 'spy');
      assert.equal(rs.target, victimSeat);
      assert.equal(rv.role, 'councillor');
      assert.equal(rv.fate, 'killed', 'the spy killed the councillor');
      assert.equal(rv.vote, null, "a killed representative's player does not vote");
      assert.equal(rv.weight, 0);
      for (const [p, me] of [
        [spyPage, spySeat],
        [victimPage, victimSeat],
      ]) {
        const box = p.locator('.cn-last');
        await box.waitFor();
        const seq = await box.locator('.cn-seq').textContent();
        assert.match(seq, new RegExp(`Revealed: .*${spyName} \\(spy, against`));
        if (me === spySeat) assert.match(seq, /Your spy killed .*'s councillor/);
        else assert.match(seq, /'s spy killed your councillor/);
        assert.match(seq, /not vote/);
        assert.match(seq, /Vote: /);
        assert.match(
          seq,
          /(The law passed|The law was rejected|was elected|were elected|No one was elected)\./,
        );
        // The vote table: each player's representative, fate, vote and weight.
        const rows = await box.locator('tbody tr').allTextContents();
        assert.equal(rows.length, 4);
        const victimRow = await box
          .locator('tbody tr')
          .nth(victimSeat)
          .locator('td')
          .allTextContents();
        assert.deepEqual(victimRow.slice(1), ['killed', '—', '0']);
        const spyRow = await box.locator('tbody tr').nth(spySeat).locator('td').allTextContents();
        assert.equal(spyRow[3], String(rs.weight));
        // Laws in force as the document has them.
        const laws = g1.view.council.laws;
        const lawText = await p.locator('.cn-facts').textContent();
        if (laws.length) for (const l of laws) assert.ok(lawText.includes(l.name));
        else assert.match(lawText, /Laws in force: none\./);
      }
      const log = (await rest(pa, 'GET', `/api/v1/games/${id}/log?after=0`)).body.entries.map(
        (e) => e.entry,
      );
      const speaker = log.find((e) => e.type === 'council').speaker;
      const spyEntry = log.find((e) => e.type === 'spy');
      // The Forum holder is the speaker and chose the agenda in its page.
      const forumPick = log.find((e) => e.type === 'pick' && e.card === 'forum');
      const forumSeat = forumPick ? forumPick.seat : -1;
      if (forumSeat >= 0) assert.equal(speaker, forumSeat, 'the Forum holder speaks');
      if (pa.choseAgenda) {
        assert.equal(pa.choseAgenda, 'r1.agenda');
        assert.equal(speaker, (await game(pa, id)).you);
        assert.ok(log.find((e) => e.type === 'council').forum);
        tc.diagnostic('the first player held Forum and chose the agenda in the page');
      } else tc.diagnostic(`Forum went to seat ${forumSeat}`);
      assert.deepEqual(spyEntry, {
        type: 'spy',
        seat: spySeat,
        target: victimSeat,
        result: 'killed',
      });
      await pa
        .locator('.log-list li', { hasText: /spy killed/ })
        .first()
        .waitFor();

      // Table talk: the players whisper in a private channel; the spectator
      // only ever gets the public channel.
      const [nameA, nameB] = ['Ada-council', 'Bo-council'];
      await pa.getByRole('button', { name: /^Talk/ }).click();
      const panelA = pa.getByRole('region', { name: 'Table talk' });
      await panelA.getByRole('button', { name: '+ Private channel' }).click();
      await panelA.getByLabel(nameB).check();
      await panelA.getByRole('button', { name: 'Open' }).click();
      await panelA.getByRole('tab', { name: new RegExp(nameB), selected: true }).waitFor();
      const secret = `bribe-${randomBytes(5).toString('hex')}`;
      await panelA.getByLabel('Message').fill(`three trade goods for your vote, ${secret}`);
      await panelA.getByLabel('Message').press('Enter');
      await panelA.locator('.chat-msg', { hasText: secret }).waitFor();
      await pb.getByRole('button', { name: /^Talk/ }).click();
      const panelB = pb.getByRole('region', { name: 'Table talk' });
      await panelB.getByRole('tab', { name: new RegExp(nameA) }).click();
      await panelB.locator('.chat-msg', { hasText: secret }).waitFor();
      const reply = `deal-${randomBytes(5).toString('hex')}`;
      await panelB.getByLabel('Message').fill(`agreed, ${reply}`);
      await panelB.getByLabel('Message').press('Enter');
      await panelA.locator('.chat-msg', { hasText: reply }).waitFor();
      // A public message: the positive control of the spectator's search.
      const open = `open-${randomBytes(5).toString('hex')}`;
      await panelA.getByRole('tab', { name: /^Public/ }).click();
      await panelA.getByLabel('Message').fill(`the council is in session, ${open}`);
      await panelA.getByLabel('Message').press('Enter');
      await pc.getByRole('button', { name: /^Talk/ }).click();
      const panelC = pc.getByRole('region', { name: 'Table talk' });
      await panelC.locator('.chat-msg', { hasText: open }).waitFor();
      const neverSeen = async (what) => {
        const dom = await pc.content();
        assert.ok(
          dom.includes(open) && pc.framesIn.some((f) => f.includes(open)),
          `positive control (${what}): the spectator's DOM and frames hold the public message`,
        );
        for (const t of [secret, reply]) {
          assert.ok(
            !dom.includes(t),
            `the spectator's page never shows the private talk (${what})`,
          );
          assert.ok(
            !pc.framesIn.some((f) => f.includes(t)),
            `nor any WebSocket frame it received (${what})`,
          );
          assert.ok(
            !pc.rest.some((r) => r.body.includes(t)),
            `nor any REST answer it read (${what})`,
          );
        }
      };
      await pc.waitForTimeout(500);
      await neverSeen('round 1');
      assert.equal(
        await panelC.getByRole('tab').count(),
        1,
        'the spectator has the public tab only',
      );
      for (const [p, panel] of [
        [pa, panelA],
        [pb, panelB],
        [pc, panelC],
      ]) {
        await panel.getByLabel('Message').press('Escape');
        await panel.waitFor({ state: 'hidden' });
        void p;
      }

      // Round 2's lobby: one player gives the other a trade good (the bribe)
      // and a player's Veto throws out the agenda (the deal gives one).
      const [la, lb] = await Promise.all([
        toCouncil(pa, id, false, /\.lobby$/, true),
        toCouncil(pb, id, false, /\.lobby$/),
      ]);
      const lid = la.windows[0].id;
      assert.equal(lid, 'r2.lobby');
      const before = la.view.council.agenda;
      assert.ok(before, 'an agenda is on the table in round 2');
      const giver = giverOf(la, lb);
      assert.ok(giver >= 0, 'the deal gives a player a trade good to give');
      const [gp, rp, gl, rl] = giver === la.you ? [pa, pb, la, lb] : [pb, pa, lb, la];
      const lw = gp.locator('.cn-window[data-window="r2.lobby"]');
      await lw.waitFor();
      const other = rl.you;
      await lw.locator('[data-key="give-seat"]').selectOption(String(other));
      await lw.locator('[data-key="give-tg"]').fill('1');
      await lw.locator('[data-key="give-add"]').click();
      await lw.locator('.cn-part', { hasText: 'Give ' }).waitFor();
      const vetoes = [];
      for (const [p, l] of [
        [pa, la],
        [pb, lb],
      ]) {
        const v = vetoOf(l);
        if (!v) continue;
        const w = p.locator('.cn-window[data-window="r2.lobby"]');
        await w.locator(`[data-key="play-${v.key}"]`).click();
        await w.locator('.cn-part', { hasText: /^Play / }).waitFor();
        const part = ((await game(p, id)).view.my_orders[lid] || {})[`p_${v.key}`.slice(0, 16)];
        assert.deepEqual(part, { type: 'play', card: v.key });
        vetoes.push({ seat: l.you, card: v.key });
      }
      assert.ok(vetoes.length, 'the deal gives a player a Veto');
      // The representatives of the deal's plan go in this lobby too.
      for (const [p, l] of [
        [pa, la],
        [pb, lb],
      ]) {
        const plan = DEAL.plan[l.you];
        if (plan.role === 'clerk') continue;
        const w = p.locator('.cn-window[data-window="r2.lobby"]');
        await choose(
          w.locator(`[data-key="rep-${plan.role}"]`),
          w.locator('.cn-part', { hasText: `Send your ${plan.role}.` }),
        );
      }
      await panelShot(gp, 'council-desktop-lobby-panel');
      assert.deepEqual(((await game(gp, id)).view.my_orders[lid] || {})[`give_${other}`], {
        type: 'give',
        seat: other,
        trade_goods: 1,
      });
      const tgBefore = gl.view.players[other].trade_goods;
      await lw.locator('[data-key="council-send"]').click();
      await rp.locator('.cn-window[data-window="r2.lobby"] [data-key="council-send"]').click();
      await waitFor(
        async () => !(await game(pa, id)).windows.some((w) => w.id === lid),
        'the lobby resolved',
      );
      const log2 = (await rest(pa, 'GET', `/api/v1/games/${id}/log?after=0`)).body.entries.map(
        (e) => e.entry,
      );
      assert.ok(
        log2.some(
          (e) => e.type === 'gift' && e.seat === gl.you && e.to === other && e.trade_goods === 1,
        ),
        'the gift was handed over',
      );
      assert.ok((await game(rp, id)).view.players[other].trade_goods >= tgBefore + 1);
      await rp
        .locator('.log-list li', { hasText: /gave you 1 trade good/ })
        .first()
        .waitFor();
      for (const v of vetoes)
        assert.ok(
          log2.some((e) => e.type === 'card_played' && e.seat === v.seat && e.card === v.card),
          `${v.card} was played`,
        );
      const vetoed = log2.filter((e) => e.type === 'agenda_vetoed');
      assert.equal(vetoed.length, vetoes.length, 'each Veto threw out the agenda on the table');
      assert.equal(vetoed[0].agenda, before.key, 'the agenda chosen was the one vetoed');
      const after2 = (await game(pa, id)).view.council.agenda;
      assert.ok(
        after2 && after2.key !== before.key,
        `a new agenda replaced it (${before.key} -> ${after2 && after2.key})`,
      );
      for (const p of [pa, pb]) {
        await p
          .locator('.log-list li', {
            hasText: /was vetoed; the next agenda from the deck replaces it/,
          })
          .first()
          .waitFor();
        await p.locator('.cn-council .cn-agenda-text', { hasText: after2.text }).waitFor();
      }

      // Round 2's council: the players' representatives and votes tie the
      // vote; the speaker (the first player, holding Forum) breaks the tie.
      const [ca, cb] = await Promise.all([
        toCouncil(pa, id, false, /\.council$/, true),
        toCouncil(pb, id, false, /\.council$/),
      ]);
      const cid = ca.windows[0].id;
      assert.equal(cid, 'r2.council');
      assert.equal(ca.view.council.speaker, DEAL.speaker, 'the first player speaks in round 2');
      assert.equal(ca.view.council.agenda.key, after2.key);
      const kind2 = ca.view.council.agenda.kind;
      for (const [p, c] of [
        [pa, ca],
        [pb, cb],
      ]) {
        const plan = DEAL.plan[c.you];
        const w = p.locator('.cn-window');
        if (plan.vote !== null) {
          if (kind2 === 'election')
            await w.locator('[data-key="vote-seat"]').selectOption(String(plan.vote));
          else
            await choose(
              w.locator(`[data-key="vote-${plan.vote ? 'for' : 'against'}"]`),
              w.locator('.cn-part', { hasText: /^Vote/ }),
            );
          await w.locator('.cn-part', { hasText: /^Vote/ }).waitFor();
        }
        await w.locator('[data-key="council-send"]').click();
        // The last to send closes the window (the bots have sent).
        if (p === pa) await p.locator('.cn-sent', { hasText: 'Sent.' }).waitFor();
      }
      await waitFor(
        async () => !(await game(pa, id)).windows.some((w) => w.id === cid),
        'the round 2 council resolved',
      );
      const log3 = (await rest(pa, 'GET', `/api/v1/games/${id}/log?after=0`)).body.entries.map(
        (e) => e.entry,
      );
      const vote2 = log3.filter((e) => e.type === 'vote').pop();
      assert.deepEqual(vote2.totals, DEAL.totals, 'the vote tied as the deal says');
      const top = Math.max(...vote2.totals);
      assert.ok(top > 0 && vote2.totals.filter((x) => x === top).length === 2, 'two sides tied');
      assert.equal(vote2.votes[DEAL.speaker], DEAL.outcome, 'the speaker voted for a tied side');
      assert.equal(vote2.outcome, DEAL.outcome, "the speaker's side won the tie");
      tc.diagnostic(
        `round 2: ${before.key} vetoed for ${after2.key} (${kind2}); tied ${vote2.totals.join('/')}, the speaker chose ${vote2.outcome}`,
      );
      for (const p of [pa, pb]) {
        const box = p.locator('.cn-last');
        await box.locator('.cn-tie').waitFor();
        const tie = await box.locator('.cn-tie').textContent();
        const m = tie.match(
          /Tied: the speaker \((.+?)\) voted (for .+?|against), which breaks the tie\./,
        );
        assert.ok(m, `the page says the speaker broke the tie: ${tie}`);
        assert.equal(m[1], p === pa ? 'You' : nameA, 'the speaker named');
        const seq = await box.locator('.cn-seq').textContent();
        if (kind2 === 'election')
          assert.match(
            seq,
            new RegExp(
              `${m[2].slice(4).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} (was|were) elected\\.`,
            ),
            "the outcome: the speaker's choice was elected",
          );
        else assert.match(seq, DEAL.outcome === 1 ? /The law passed\./ : /The law was rejected\./);
      }
      await pc.waitForTimeout(300);
      await neverSeen('the end');

      await shot(pa, 'council-desktop-council-result');
      await shot(pb, 'council-phone-council-result');
      await panelShot(pb, 'council-phone-council-result-panel');
      await pa.setViewportSize({ width: 390, height: 844 });
      await pa.waitForTimeout(200);
      for (const p of [pa, pb]) {
        const overflow = await p.evaluate(
          () => document.documentElement.scrollWidth - window.innerWidth,
        );
        assert.ok(overflow <= 1, `no sideways scrolling at 390px (${overflow}px)`);
      }
      assert.deepEqual(pa.problems, []);
      assert.deepEqual(pb.problems, []);
      assert.deepEqual(pc.problems, []);
    } finally {
      await A.context.close();
      await B.context.close();
      await C.context.close();
    }
  },
);

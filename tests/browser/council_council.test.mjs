// council_council.test.mjs - the council phase of Galactic Council in the
// browser: a 4-seat game, two players in two browsers and two basic bots,
// played through round 1 (strategy picks, the agenda, the lobby, the
// action phase, the council window). One player has a race whose spy
// assassinates (games are made until one does: races are dealt at
// random) and sends it, by clicking, against the other player, who sends
// a councillor by keyboard and votes. Neither page ever shows or receives
// the other's choice before the reveal; afterwards both show the
// representatives, the spy killing the councillor (the player of a killed
// representative does not vote), the vote with each player's weight, the
// outcome and the laws in force. The order parts the pages stored are
// checked as JSON. The first player takes Forum when it can and then
// chooses the agenda in its page. A veto and a tie broken by the speaker depend on the
// deal (no seed can be set from outside): they are reported when they
// happen. Screenshots at desktop and phone size go to tests/out/screenshots/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { client, newLobby } from '../integration/lib/api.mjs';
import path from 'node:path';
import { chromiumPath, openPage, pageUrl, shot, signUpGuest, waitLive, startStack, stopStack, SHOTS } from './lib/browser.mjs';

const skip = chromiumPath() ? false : 'no Chromium installed';
let db, server, chrome;

before(async () => {
  if (!skip) ({ db, server, chrome } = await startStack('cncouncil'));
});
after(() => stopStack({ db, server, chrome }));

// The council panel alone (the full page is long on a phone).
const panelShot = (page, name) => page.locator('.cn-council').screenshot({ path: path.join(SHOTS, `${name}.png`) });

const ASSASSINS = { oskan: 'Trail Ghost', korrun: 'Blood Herald', dravik: 'Knife Cadet' };
const COUNCILLORS = { veyari: 'First Factor', oskan: 'Chart Elder', thessari: 'High Observer', korrun: 'War Speaker', dravik: 'Legate', amaranth: 'Director General', halcyon: 'Master Smith', sephine: 'Voice of Many', quillan: 'Chief Archivist' };

function rest(page, method, path, body) {
  return page.evaluate(
    async ([method, path, body]) => {
      const r = await fetch(path, {
        method,
        headers: { authorization: `Bearer ${localStorage.getItem('conclave.token')}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: r.status, body: r.status === 204 ? null : await r.json() };
    },
    [method, path, body],
  );
}
const game = async (page, id) => (await rest(page, 'GET', `/api/v1/games/${id}`)).body;

// Play the page's windows by clicking until its council window is open
// (strategy pick: the first card left; agenda: the first held; lobby and
// action: send nothing). Returns the game document.
async function toCouncil(page, id, shots, stop = /\.council$/, forumFirst = false) {
  for (let i = 0; i < 600; i++) {
    const g = await game(page, id);
    assert.equal(g.status, 'running');
    const w = g.windows.find((x) => x.seats.includes(g.you));
    const sent = w && w.mode === 'sealed' && (g.view.my_orders[w.id] || {}).ready === true;
    if (w && !sent) {
      if (stop.test(w.id)) return g;
      try {
        if (/\.pick\d+$/.test(w.id)) {
          // The first player takes Forum when it is left: it then chooses
          // the agenda in the page.
          const forum = page.locator('[data-key="pick-forum"]:not([disabled])');
          if (forumFirst && (await forum.count())) await forum.click({ timeout: 3000 });
          else await page.locator('.cn-pick button:not([disabled])').first().click({ timeout: 3000 });
        }
        else if (/\.agenda$/.test(w.id)) {
          await page.locator('[data-key^="agenda-"]').first().waitFor({ timeout: 3000 });
          if (shots) await shot(page, 'council-desktop-agenda-choice');
          await page.locator('[data-key^="agenda-"]').first().click();
          page.choseAgenda = w.id;
        } else if (/\.lobby$/.test(w.id)) {
          await page.locator('.cn-window[data-window$=".lobby"]').waitFor({ timeout: 3000 });
          if (shots) await shot(page, 'council-desktop-lobby');
          await page.locator('[data-key="council-send"]').click();
        } else if (/\.action$/.test(w.id)) await page.locator('[data-key="send-orders"]').click({ timeout: 3000 });
        await page.waitForTimeout(300);
      } catch {
        /* the page had not drawn the window yet: look again */
      }
    } else await page.waitForTimeout(150);
  }
  throw new Error('the council window never opened');
}

async function waitFor(fn, what, tries = 150) {
  for (let i = 0; i < tries; i++) {
    const v = await fn();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`timed out: ${what}`);
}

test('two players and two bots through a council: a secret spy kills a councillor, the vote and the laws', { skip, timeout: 480000 }, async (tc) => {
  const A = await openPage(chrome.browser);
  const B = await openPage(chrome.browser, { viewport: { width: 390, height: 844 }, isMobile: true });
  const pa = A.page;
  const pb = B.page;
  try {
    await signUpGuest(pa, server, 'Ada-council');
    await signUpGuest(pb, server, 'Bo-council');
    const ta = await pa.evaluate(() => localStorage.getItem('conclave.token'));
    const tb = await pb.evaluate(() => localStorage.getItem('conclave.token'));
    const call = client(server.url);

    // Deal games until one of the two players' races has an assassin spy.
    let id;
    let g0;
    let spyPage;
    let victimPage;
    for (let tries = 0; tries < 12 && !spyPage; tries++) {
      // An asynchronous clock: every window has a day's deadline.
      const lobby = await newLobby(call, { token: ta }, { ruleset: 'council', seats: 4, clock: { mode: 'async', seconds: 86400 } }, [{ token: tb }]);
      for (let b = 0; b < 2; b++) assert.equal((await call('POST', `/api/v1/lobbies/${lobby.id}/bots`, { token: ta, body: { level: 'basic' } })).status, 200);
      const started = await call('POST', `/api/v1/lobbies/${lobby.id}/start`, { token: ta });
      assert.equal(started.status, 201, started.text);
      id = started.body.game;
      g0 = await game(pa, id);
      const race = (s) => g0.view.players[s].race;
      const bSeat = g0.you === 0 ? 1 : 0;
      if (ASSASSINS[race(g0.you)]) [spyPage, victimPage] = [pa, pb];
      else if (ASSASSINS[race(bSeat)]) [spyPage, victimPage] = [pb, pa];
    }
    assert.ok(spyPage, 'a deal gave one player an assassin');
    await pa.goto(pageUrl(server, `/game/${id}`));
    await pb.goto(pageUrl(server, `/game/${id}`));
    await waitLive(pa);
    await waitLive(pb);
    await pa.locator('.cn-council').waitFor();

    const [gs, gv] = await Promise.all([toCouncil(spyPage, id, spyPage === pa, /\.council$/, spyPage === pa), toCouncil(victimPage, id, victimPage === pa, /\.council$/, victimPage === pa)]);
    const wid = gs.windows[0].id;
    assert.match(wid, /^r1\.council$/);
    const spySeat = gs.you;
    const victimSeat = gv.you;
    const spyRace = gs.view.players[spySeat].race;
    const victimRace = gs.view.players[victimSeat].race;
    const victimName = COUNCILLORS[victimRace];
    const agenda = gs.view.council.agenda;
    assert.ok(agenda, 'an agenda is on the table');
    tc.diagnostic(`spy ${spyRace} (seat ${spySeat}) against ${victimRace} (seat ${victimSeat}); agenda ${agenda.key} (${agenda.kind})`);

    // Both pages show the agenda, its text, the speaker and the timer.
    for (const p of [pa, pb]) {
      const panel = p.locator('.cn-council');
      await panel.locator('.cn-agenda-text', { hasText: agenda.text }).waitFor();
      assert.match(await panel.textContent(), /Speaker: /);
      assert.match(await panel.locator('.cn-window .countdown').textContent(), /The council window closes in: (23|24) h/);
      assert.equal(await p.locator('.cn-orders').count(), 0, 'no action composer in the council window');
    }

    // The spy's player: the target first, then the spy, by clicking.
    const sp = spyPage.locator('.cn-window');
    assert.match(await sp.textContent(), new RegExp(`${ASSASSINS[spyRace]}.*influence \\+0; Assassinate`));
    await sp.locator('[data-key="rep-target"]').selectOption(String(victimSeat));
    await sp.locator('[data-key="rep-spy"]').check();
    await sp.locator('.cn-part', { hasText: /^Send your spy against/ }).waitFor();
    // The spy's player votes (law: for; election: itself).
    if (agenda.kind === 'election') await sp.locator('[data-key="vote-seat"]').selectOption(String(spySeat));
    else await sp.locator('[data-key="vote-for"]').check();
    await sp.locator('.cn-part', { hasText: /^Vote/ }).waitFor();
    await sp.locator('[data-key="markers"]').selectOption('1');
    await sp.locator('.cn-part', { hasText: 'Buy 1 command marker' }).waitFor();
    await shot(spyPage, spyPage === pa ? 'council-desktop-council-window' : 'council-phone-council-window');

    // The victim's player: the councillor by keyboard (Tab to the radio
    // group, Space), then a vote.
    const vp = victimPage.locator('.cn-window');
    await vp.locator('[data-key="rep-councillor"]').focus();
    await victimPage.keyboard.press('Space');
    await vp.locator('.cn-part', { hasText: 'Send your councillor.' }).waitFor();
    if (agenda.kind === 'election') await vp.locator('[data-key="vote-seat"]').selectOption(String(victimSeat));
    else await vp.locator('[data-key="vote-against"]').check();
    await vp.locator('.cn-part', { hasText: /^Vote/ }).waitFor();
    await shot(victimPage, victimPage === pa ? 'council-desktop-council-window' : 'council-phone-council-window');
    await panelShot(pb, 'council-phone-council-panel');

    // The stored parts, exactly.
    const held = (p) => game(p, id).then((g) => g.view.my_orders[wid]);
    const hs = await held(spyPage);
    assert.deepEqual(hs.representative, { type: 'representative', role: 'spy', target: victimSeat });
    assert.deepEqual(hs.markers, { type: 'markers', count: 1 });
    assert.deepEqual(hs.vote, agenda.kind === 'election' ? { type: 'vote', seat: spySeat } : { type: 'vote', for: true });
    const hv = await held(victimPage);
    assert.deepEqual(hv.representative, { type: 'representative', role: 'councillor' });
    assert.deepEqual(hv.vote, agenda.kind === 'election' ? { type: 'vote', seat: victimSeat } : { type: 'vote', for: false });

    // Before the reveal neither page shows or was sent the other's choice.
    const spyName = ASSASSINS[spyRace];
    assert.ok(!(await victimPage.locator('body').textContent()).includes(spyName), 'the victim does not see the spy coming');
    const gOther = await game(victimPage, id);
    assert.deepEqual(Object.keys(gOther.view.my_orders[wid]).sort(), ['representative', 'vote']);
    assert.ok(!JSON.stringify(gOther).includes('"spy"'), 'no spy in the other seat\'s document');
    assert.ok(!victimPage.framesIn.some((f) => f.includes(spyName) || f.includes('"role":"spy"')), 'no frame to the other seat names the spy');
    assert.ok(!spyPage.framesIn.some((f) => f.includes('"role":"councillor"')), 'no frame to the spy\'s seat names the councillor');

    // Both send; the bots have sent: the window resolves.
    await sp.locator('[data-key="council-send"]').click();
    await spyPage.locator('.cn-sent', { hasText: 'Sent.' }).waitFor();
    assert.ok(!(await victimPage.locator('body').textContent()).includes(spyName), 'still secret after one player sent');
    await vp.locator('[data-key="council-send"]').click();
    await waitFor(async () => !(await game(pa, id)).windows.some((w) => w.id === wid), 'the council window resolved');

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
    assert.equal(rv.vote, null, 'a killed representative\'s player does not vote');
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
      assert.match(seq, /(The law passed|The law was rejected|was elected|were elected|No one was elected)\./);
      // The vote table: each player's representative, fate, vote and weight.
      const rows = await box.locator('tbody tr').allTextContents();
      assert.equal(rows.length, 4);
      const victimRow = await box.locator('tbody tr').nth(victimSeat).locator('td').allTextContents();
      assert.deepEqual(victimRow.slice(1), ['killed', '—', '0']);
      const spyRow = await box.locator('tbody tr').nth(spySeat).locator('td').allTextContents();
      assert.equal(spyRow[3], String(rs.weight));
      // Laws in force as the document has them.
      const laws = g1.view.council.laws;
      const lawText = await p.locator('.cn-facts').textContent();
      if (laws.length) for (const l of laws) assert.ok(lawText.includes(l.name));
      else assert.match(lawText, /Laws in force: none\./);
    }
    const log = (await rest(pa, 'GET', `/api/v1/games/${id}/log?after=0`)).body.entries.map((e) => e.entry);
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
    assert.deepEqual(spyEntry, { type: 'spy', seat: spySeat, target: victimSeat, result: 'killed' });
    await pa.locator('.log-list li', { hasText: /spy killed/ }).first().waitFor();
    const vote = log.find((e) => e.type === 'vote');
    const t = vote.totals;
    const best = Math.max(...t);
    if (best > 0 && t.filter((x) => x === best).length > 1) {
      // The speaker broke it: both pages say so.
      tc.diagnostic(`a tied vote (${t.join('/')}) went to outcome ${vote.outcome}`);
      const sv = last.representatives.find((r) => r.seat === speaker);
      if (sv && sv.vote !== null && t[sv.vote] === best) assert.equal(vote.outcome, sv.vote, 'the speaker\'s side won the tie');
      for (const p of [pa, pb]) assert.match(await p.locator('.cn-last .cn-tie').textContent(), /Tied.*speaker/);
    }
    if (log.some((e) => e.type === 'agenda_vetoed')) tc.diagnostic('an agenda was vetoed');

    // Round 2's lobby: one player gives the other a trade good (the bribe)
    // and plays a council card if it holds one (cards are dealt at random).
    const [la, lb] = await Promise.all([toCouncil(pa, id, false, /\.lobby$/), toCouncil(pb, id, false, /\.lobby$/)]);
    const lid = la.windows[0].id;
    assert.equal(lid, 'r2.lobby');
    // The giver is a human holding trade goods (the deal decides who does).
    const tgOf = (l) => l.view.players[l.you].trade_goods;
    const [gp, rp, gl, rl] = tgOf(la) > 0 ? [pa, pb, la, lb] : [pb, pa, lb, la];
    const gives = tgOf(gl) > 0;
    if (!gives) tc.diagnostic('neither human holds a trade good in round 2: no gift this run');
    const lw = gp.locator('.cn-window[data-window="r2.lobby"]');
    await lw.waitFor();
    const other = rl.you;
    if (gives) {
      await lw.locator('[data-key="give-seat"]').selectOption(String(other));
      await lw.locator('[data-key="give-tg"]').fill('1');
      await lw.locator('[data-key="give-add"]').click();
      await lw.locator('.cn-part', { hasText: 'Give ' }).waitFor();
    } else {
      assert.match(await lw.locator('.cn-give').textContent(), /no trade goods to give/);
    }
    const card = (gl.view.you.hand || []).find((c) => c.timing === 'council');
    if (card) {
      await lw.locator(`[data-key="play-${card.key}"]`).click();
      await lw.locator('.cn-part', { hasText: /^Play / }).waitFor();
      tc.diagnostic(`played ${card.key} in the lobby`);
    }
    await panelShot(gp, 'council-desktop-lobby-panel');
    const lheld = (await game(gp, id)).view.my_orders[lid] || {};
    if (gives) assert.deepEqual(lheld[`give_${other}`], { type: 'give', seat: other, trade_goods: 1 });
    if (card) {
      const part = lheld[`p_${card.key}`.slice(0, 16)];
      assert.equal(part.type, 'play');
      assert.equal(part.card, card.key);
    }
    const tgBefore = gl.view.players[other].trade_goods;
    await lw.locator('[data-key="council-send"]').click();
    await rp.locator('.cn-window[data-window="r2.lobby"] [data-key="council-send"]').click();
    await waitFor(async () => !(await game(pa, id)).windows.some((w) => w.id === lid), 'the lobby resolved');
    const log2 = (await rest(pa, 'GET', `/api/v1/games/${id}/log?after=0`)).body.entries.map((e) => e.entry);
    if (card) assert.ok(log2.some((e) => e.type === 'card_played' && e.seat === gl.you && e.card === card.key) || log2.some((e) => e.type === 'refused'), 'the card was played (or refused, with its reason)');
    if (log2.some((e) => e.type === 'agenda_vetoed')) tc.diagnostic('an agenda was vetoed');
    if (gives) {
      assert.ok(log2.some((e) => e.type === 'gift' && e.seat === gl.you && e.to === other && e.trade_goods === 1), 'the gift was handed over');
      assert.ok((await game(rp, id)).view.players[other].trade_goods >= tgBefore + 1);
      await rp.locator('.log-list li', { hasText: /gave you 1 trade good/ }).first().waitFor();
    }

    await shot(pa, 'council-desktop-council-result');
    await shot(pb, 'council-phone-council-result');
    await panelShot(pb, 'council-phone-council-result-panel');
    await pa.setViewportSize({ width: 390, height: 844 });
    await pa.waitForTimeout(200);
    for (const p of [pa, pb]) {
      const overflow = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 1, `no sideways scrolling at 390px (${overflow}px)`);
    }
    assert.deepEqual(pa.problems, []);
    assert.deepEqual(pb.problems, []);
  } finally {
    await A.context.close();
    await B.context.close();
  }
});

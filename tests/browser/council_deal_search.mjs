// council_deal_search.mjs - finds the seed of the Council browser scenario
// (lib/council_deal.mjs): not a test, a tool run by hand when the rules or
// the bots change. It starts a server with CONCLAVE_TEST_HOOKS=1 on a fresh
// database, and for seed after seed plays the two humans' script over REST
// (the same choices the browser test clicks) to round 2's council: a human
// with an assassin spy, a human holding a Veto in round 2's lobby, and a
// human speaker in round 2. There the humans first send nothing, which
// shows the bots' votes and weights (sealed: they do not depend on the
// humans'); a plan of representatives (sent in round 2's lobby) and votes
// that ties the vote with the speaker's side winning is worked out, then played again from the
// same seed to confirm it. Prints the DEAL to paste into council_deal.mjs.
//
//   DATABASE_URL=... CONCLAVE_BIN=... CONCLAVE_ROOT=... node tests/browser/council_deal_search.mjs [first] [count]
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createDatabase, dropDatabase, startServer } from '../integration/lib/server.mjs';
import { client, newPlayer, newLobby, NO_LIMITS } from '../integration/lib/api.mjs';
import {
  ASSASSINS,
  pickFor,
  agendaFor,
  round1Parts,
  giverOf,
  vetoOf,
  repPart,
  votePart,
} from './lib/council_deal.mjs';
import fs from 'node:fs';

const data = JSON.parse(
  fs.readFileSync(new URL('../../engine/rules/council/council.json', import.meta.url), 'utf8'),
);
const REP = Object.fromEntries(
  data.races.map((r) => [r.key, Object.fromEntries(r.representatives.map((x) => [x.role, x]))]),
);

export const seedOf = (n) => createHash('sha256').update(`council-deal-${n}`).digest('hex');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Was this seat's representative removed at this council's 2.3?
const removed = (g) =>
  ((g.view.council || {}).seated || []).some((r) => r.seat === g.you && r.fate !== 'seated');

// Start a scenario game with seed; returns {id, call, A, B}.
export async function startDeal(call, A, B, seed) {
  const lobby = await newLobby(
    call,
    A,
    {
      ruleset: 'council',
      seats: 4,
      clock: { mode: 'async', seconds: 86400 },
      // the scenario's script picks one card at a time (pickFor); rules
      // edition 1, the lobby in a window of its own (council_council.test.mjs)
      options: { strategy_picks: 1, edition: 1 },
    },
    [B],
  );
  for (let b = 0; b < 2; b++)
    assert.equal(
      (
        await call('POST', `/api/v1/lobbies/${lobby.id}/bots`, {
          token: A.token,
          body: { level: 'basic' },
        })
      ).status,
      200,
    );
  const started = await call('POST', `/api/v1/lobbies/${lobby.id}/start`, {
    token: A.token,
    body: { seed },
  });
  assert.equal(started.status, 201, started.text);
  return started.body.game;
}

const get = async (call, token, id) => (await call('GET', `/api/v1/games/${id}`, { token })).body;
const put = (call, token, id, w, key, value) =>
  call('PUT', `/api/v1/games/${id}/orders/${w}/parts/${key}`, { token, body: value });
async function ready(call, token, id, w) {
  const r = await put(call, token, id, w, 'ready', true);
  if (r.status === 422) await call('PUT', `/api/v1/games/${id}/orders/${w}`, { token, body: {} });
}

// Play both humans over REST up to round 2's council window (plan: the
// round 2 council parts, or null to stop there). Returns the two game
// documents at the stop.
export async function playScript(call, id, A, B, plan = null) {
  const humans = [A, B];
  const done = new Set();
  let roles = null;
  for (let i = 0; i < 2000 && done.size < 2; i++) {
    for (let h = 0; h < 2; h++) {
      if (done.has(h)) continue;
      const p = humans[h];
      const g = await get(call, p.token, id);
      if (g.status !== 'running') throw new Error(`game ${g.status}`);
      if (!roles) {
        const other = (await get(call, humans[1 - h].token, id)).you;
        const rs = [g.you, other].map((s) => g.view.players[s].race);
        const spyIx = ASSASSINS.has(rs[0]) ? 0 : ASSASSINS.has(rs[1]) ? 1 : -1;
        if (spyIx < 0) return { noAssassin: true };
        const seats = [g.you, other];
        roles = { spy: seats[spyIx], victim: seats[1 - spyIx] };
      }
      const w = g.windows.find(
        (x) =>
          x.seats.includes(g.you) &&
          !(x.mode === 'sealed' && (g.view.my_orders[x.id] || {}).ready === true),
      );
      if (!w) continue;
      if (/\.pick\d+$/.test(w.id))
        await call('POST', `/api/v1/games/${id}/plays`, {
          token: p.token,
          body: { window: w.id, card: pickFor(g, h === 0) },
          headers: { 'Idempotency-Key': `${id}-${w.id}-${h}` },
        });
      else if (/\.agenda$/.test(w.id))
        await call('POST', `/api/v1/games/${id}/plays`, {
          token: p.token,
          body: { window: w.id, agenda: agendaFor(g) },
          headers: { 'Idempotency-Key': `${id}-${w.id}-${h}` },
        });
      else if (w.id === 'r1.lobby' || w.id === 'r1.council') {
        // The representatives go in the lobby (the spies act when it
        // closes), the vote and markers in the council window.
        const kind = g.view.council.agenda ? g.view.council.agenda.kind : 'law';
        const me = g.you;
        const parts =
          me === roles.spy
            ? round1Parts(kind, 'spy', me, roles.victim)
            : round1Parts(kind, 'councillor', me, roles.spy);
        for (const [k, v] of parts)
          if ((k === 'representative') === (w.id === 'r1.lobby') && (k !== 'vote' || !removed(g)))
            await put(call, p.token, id, w.id, k, v);
        await ready(call, p.token, id, w.id);
      } else if (w.id === 'r2.lobby') {
        const ga = await get(call, A.token, id);
        const gb = await get(call, B.token, id);
        const giver = giverOf(ga, gb);
        if (giver === g.you) {
          const to = g.you === ga.you ? gb.you : ga.you;
          await put(call, p.token, id, w.id, `give_${to}`, {
            type: 'give',
            seat: to,
            trade_goods: 1,
          });
        }
        const veto = vetoOf(g);
        if (veto)
          await put(call, p.token, id, w.id, `p_${veto.key}`.slice(0, 16), {
            type: 'play',
            card: veto.key,
          });
        const rep = plan ? repPart(plan[g.you].role) : null;
        if (rep) await put(call, p.token, id, w.id, 'representative', rep);
        await ready(call, p.token, id, w.id);
      } else if (w.id === 'r2.council') {
        if (!plan) {
          done.add(h);
          continue;
        }
        const mine = plan[g.you];
        const kind = g.view.council.agenda.kind;
        const vote = votePart(kind, mine.vote);
        if (vote) await put(call, p.token, id, w.id, 'vote', vote);
        await ready(call, p.token, id, w.id);
        done.add(h);
      } else if (/^r1\.(lobby|action)$|^r2\.action$/.test(w.id))
        await ready(call, p.token, id, w.id);
      else throw new Error(`unexpected window ${w.id}`);
    }
    await sleep(40);
  }
  return { roles, ga: await get(call, A.token, id), gb: await get(call, B.token, id) };
}

export async function logOf(call, token, id) {
  return (await call('GET', `/api/v1/games/${id}/log?after=0`, { token })).body.entries.map(
    (e) => e.entry,
  );
}

async function waitResolved(call, token, id, wid) {
  for (let i = 0; i < 400; i++) {
    const g = await get(call, token, id);
    if (!g.windows.some((w) => w.id === wid)) return g;
    await sleep(50);
  }
  throw new Error(`${wid} never resolved`);
}

// The round 2 plan that ties the vote with the speaker's side winning,
// from the bots' votes and weights; null when none.
function planTie(g, entry, humans, speaker) {
  const kind = g.view.council.agenda.kind;
  const seats = g.view.players.length;
  const sides = kind === 'election' ? seats : 2;
  const base = new Array(sides).fill(0);
  entry.votes.forEach((v, s) => {
    if (v !== null && v >= 0 && !humans.includes(s)) base[v] += entry.weights[s];
  });
  const weightOf = (s, role) => {
    const pl = g.view.players[s];
    const r = role === 'clerk' ? { influence: 0, ability: 'none' } : REP[pl.race][role];
    return (
      pl.influence +
      (pl.vote_bonus || 0) +
      r.influence +
      (r.ability === 'orator' ? Math.floor(pl.trade_goods / 3) : 0)
    );
  };
  const voteOpts = [null, ...Array.from({ length: sides }, (_, k) => k)];
  const roles = ['clerk', 'bodyguard', 'councillor'];
  let best = null;
  for (const r0 of roles)
    for (const v0 of voteOpts)
      for (const r1 of roles)
        for (const v1 of voteOpts) {
          const t = base.slice();
          const choice = {
            [humans[0]]: { role: r0, vote: v0 },
            [humans[1]]: { role: r1, vote: v1 },
          };
          for (const s of humans)
            if (choice[s].vote !== null) t[choice[s].vote] += weightOf(s, choice[s].role);
          const top = Math.max(...t);
          const tied = t.map((x, k) => (x === top ? k : -1)).filter((k) => k >= 0);
          const sv = choice[speaker].vote;
          if (top <= 0 || tied.length < 2 || sv === null || t[sv] !== top) continue;
          // Without the speaker: a law fails, an election goes to the first
          // tied seat clockwise from it. Best when the speaker changes that.
          let fallback = 0;
          if (kind === 'election')
            for (let i = 0; i < seats; i++)
              if (t[(speaker + i) % seats] === top) {
                fallback = (speaker + i) % seats;
                break;
              }
          const score = sv !== fallback ? 2 : 1;
          if (!best || score > best.score) best = { score, plan: choice, totals: t, outcome: sv };
        }
  return best;
}

// One seed: null, or the DEAL.
export async function tryDeal(call, A, B, n) {
  const seed = seedOf(n);
  const id = await startDeal(call, A, B, seed);
  const run = await playScript(call, id, A, B, null);
  if (run.noAssassin) return { why: 'no assassin' };
  const log1 = await logOf(call, A.token, id);
  const spy = log1.find((e) => e.type === 'spy');
  if (!spy || spy.result !== 'killed') return { why: 'no kill' };
  if (!log1.some((e) => e.type === 'agenda_vetoed')) return { why: 'no veto' };
  const ga = run.ga;
  const speaker = ga.view.council.speaker;
  const humans = [run.ga.you, run.gb.you];
  if (!humans.includes(speaker)) return { why: 'speaker is a bot' };
  if (!ga.view.council.agenda || ga.view.council.tabled) return { why: 'no agenda to vote' };
  // Humans send nothing: the bots' votes show.
  for (const p of [A, B]) await ready(call, p.token, id, 'r2.council');
  await waitResolved(call, A.token, id, 'r2.council');
  const vote = (await logOf(call, A.token, id)).filter((e) => e.type === 'vote').pop();
  const found = planTie(ga, vote, humans, speaker);
  if (!found) return { why: 'no tie possible' };
  // Confirm from the same seed.
  const id2 = await startDeal(call, A, B, seed);
  await playScript(call, id2, A, B, found.plan);
  await waitResolved(call, A.token, id2, 'r2.council');
  const v2 = (await logOf(call, A.token, id2)).filter((e) => e.type === 'vote').pop();
  if (JSON.stringify(v2.totals) !== JSON.stringify(found.totals) || v2.outcome !== found.outcome)
    return { why: `not confirmed: ${JSON.stringify(v2)}` };
  return {
    deal: { n, seed, plan: found.plan, totals: found.totals, outcome: found.outcome, speaker },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const first = Number(process.argv[2] || 1);
  const count = Number(process.argv[3] || 200);
  const db = createDatabase('cndeal');
  const server = await startServer({ db, env: { ...NO_LIMITS, CONCLAVE_TEST_HOOKS: '1' } });
  try {
    const call = client(server.url);
    for (let n = first; n < first + count; n++) {
      const A = await newPlayer(call, { guest: true, prefix: 'dA' });
      const B = await newPlayer(call, { guest: true, prefix: 'dB' });
      const r = await tryDeal(call, A, B, n);
      console.log(n, r.why || 'FOUND');
      if (r.deal) {
        console.log(`export const DEAL = ${JSON.stringify(r.deal)};`);
        break;
      }
    }
  } finally {
    await server.stop();
    dropDatabase(db);
  }
}

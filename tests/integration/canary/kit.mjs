// kit.mjs - what the canary test (../canary.test.mjs) and its rulesets'
// files (registry.mjs) share: the seeded randomness (CANARY_SEED replays
// it), reading a game as every audience, the driver that plays from legal
// answers, and the checks that hold for several rulesets.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { seeded } from '../lib/random.mjs';
import { sleep } from '../lib/server.mjs';

export { sleep };
export const QUICK = process.env.CONCLAVE_TEST_QUICK === '1'; // exactly "1", as in the C tests

// ------------------------------------------------------------ randomness --

export const SEED = Number(process.env.CANARY_SEED || randomBytes(4).readUInt32LE(0));
export const rnd = seeded(SEED);
export const pick = (arr) => arr[Math.floor(rnd() * arr.length)];
export const chance = (p) => rnd() < p;
export function sample(arr, n) {
  const a = [...arr];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a.slice(0, n);
}
export const hex = (n) => randomBytes(n).toString('hex');
export const bot = () => pick(['random', 'basic']);

// ----------------------------------------------------------- reading --

// Everything every audience can read about the game now, with the view
// read before and after the log (the log's state lies between).
export async function probe(ctx) {
  const { W, id } = ctx;
  await Promise.all(
    ctx.auds.map(async (a) => {
      const v1 = await W.call(a, 'GET', `/api/v1/games/${id}/view`, { game: id, kind: 'view' });
      await W.call(a, 'GET', `/api/v1/games/${id}`, { game: id, kind: 'game' });
      await W.call(a, 'GET', `/api/v1/games/${id}/legal`, { game: id, kind: 'legal' });
      const after = chance(0.7) ? 0 : Math.floor(rnd() * 20);
      const lg = await W.call(
        a,
        'GET',
        `/api/v1/games/${id}/log${after ? `?after=${after}` : ''}`,
        { game: id, kind: 'log' },
      );
      const v2 = await W.call(a, 'GET', `/api/v1/games/${id}/view`, { game: id, kind: 'view' });
      lg.rec.vlo = v1.version;
      lg.rec.vhi = v2.version;
    }),
  );
}

// Requests that fail, from every audience; their bodies are captured.
export async function errorProbes(ctx, window, held) {
  const { W, id } = ctx;
  const { bad } = ctx.canary; // an input its ruleset refuses
  await Promise.all(
    ctx.auds.map(async (a) => {
      if (!chance(0.35)) return;
      const seat = a.seats.get(id);
      const w = window || 'r1';
      if (seat !== undefined) {
        if (!held.has(seat))
          await W.call(a, 'DELETE', `/api/v1/games/${id}/orders/${w}`, { game: id });
        await W.call(a, 'PUT', `/api/v1/games/${id}/orders/${w}`, { game: id, body: bad });
        await W.call(a, 'POST', `/api/v1/games/${id}/plays`, {
          game: id,
          body: { window: w, ...bad },
          headers: { 'idempotency-key': `bad-${hex(6)}` },
        });
      } else {
        await W.call(a, 'PUT', `/api/v1/games/${id}/orders/${w}`, {
          game: id,
          body: { throw: 'rock' },
        });
        await W.call(a, 'DELETE', `/api/v1/games/${id}/orders/${w}`, { game: id });
      }
      await W.call(a, 'GET', `/api/v1/games/${id}/log?after=zz`, { game: id });
      await W.call(a, 'GET', `/api/v1/games/${id}/export`, { game: id });
      await W.call(a, 'GET', `/api/v1/games/zz${hex(4)}`, { game: id });
    }),
  );
}

export async function gameNow(ctx) {
  const r = await ctx.W.call(ctx.spectator, 'GET', `/api/v1/games/${ctx.id}`, {
    game: ctx.id,
    kind: 'game',
  });
  assert.equal(r.status, 200, r.text);
  return r.json;
}

// ------------------------------------------------------------ driving --

// Plays (open windows) and orders (sealed windows) for every human seat
// from its legal answer until the game ends. A seat that has made `budget`
// plays only passes, or forfeits when that is offered (Starbase has no turn
// limit), so that the game ends in time. order(ctx, seat, doc, window, win)
// may make an order's body (undefined: one of the legal choices). A play
// is one of the choices but forfeit, with a bias to the ones that are not
// a pass unless anyPlay (Council's).
export async function driveLegal(
  ctx,
  { budget = Infinity, seconds = 120, order = null, anyPlay = false } = {},
) {
  const { W, id } = ctx;
  const end = Date.now() + seconds * 1000;
  const made = new Map();
  while (Date.now() < end) {
    const g = await gameNow(ctx);
    if (g.status !== 'running') return;
    let acted = false;
    for (const w of g.windows) {
      for (const seat of w.seats.filter((s) => ctx.seatAud.has(s) && !w.submitted.includes(s))) {
        const a = ctx.seatAud.get(seat);
        const tap = ctx.taps.get(a);
        const lg = await W.call(a, 'GET', `/api/v1/games/${id}/legal`, { game: id, kind: 'legal' });
        if (lg.status !== 200) continue;
        const win = lg.json.windows.find((x) => x.window === w.id);
        if (!win) continue;
        let r;
        if (win.kind === 'order') {
          await tap.until(() => tap.version(id) >= lg.version, 30000, 'our own view');
          const doc = tap.games.get(id).hist.get(lg.version) || tap.games.get(id).doc;
          if (doc?.view?.my_orders?.[w.id]) continue;
          let body = order ? order(ctx, seat, doc, w.id, win) : undefined;
          if (body === undefined) body = pick(win.choices);
          // A window that waits for "ready" (Council's action phase): a
          // whole order sent at once is sent ready, as the page's "Send
          // orders" does after the last part.
          if (win.ready_part) body = { ...body, ready: true };
          ctx.orders.push({ seat, window: w.id, body });
          r = await W.call(a, 'PUT', `/api/v1/games/${id}/orders/${w.id}`, {
            game: id,
            kind: 'ack',
            body,
          });
          if (r.status === 422) {
            W.stats.fallbacks++;
            const fallback = win.choices?.length ? pick(win.choices) : {};
            r = await W.call(a, 'PUT', `/api/v1/games/${id}/orders/${w.id}`, {
              game: id,
              kind: 'ack',
              body: win.ready_part ? { ...fallback, ready: true } : fallback,
            });
          }
        } else {
          const n = made.get(seat) || 0;
          made.set(seat, n + 1);
          const others = (win.choices || []).filter(
            (c) => c.action !== 'pass' && c.action !== 'forfeit',
          );
          const forfeit = (win.choices || []).find((c) => c.action === 'forfeit');
          const pass = (win.choices || []).find((c) => c.action === 'pass');
          let body;
          if (n >= budget && (forfeit || pass)) body = forfeit || pass;
          else if (anyPlay || !others.length || chance(0.45))
            body = pick((win.choices || []).filter((c) => c.action !== 'forfeit')) || {
              action: 'pass',
            };
          else body = pick(others);
          r = await W.call(a, 'POST', `/api/v1/games/${id}/plays`, {
            game: id,
            kind: 'ack',
            body: { window: w.id, ...body },
            headers: { 'idempotency-key': `l-${hex(8)}` },
          });
        }
        if (r.status === 409 || r.status === 412) {
          W.stats.lateOrders++;
          continue;
        }
        assert.equal(r.status, 200, `${ctx.tag} ${w.id} seat ${seat}: ${r.text}`);
        acted = true;
        W.stats.actions++;
        if (chance(0.5)) await probe(ctx);
        if (chance(0.3)) await errorProbes(ctx, w.id, new Set([...w.submitted, seat]));
      }
    }
    if (!acted) await sleep(10);
  }
  assert.fail(`${ctx.tag}: the game did not finish`);
}

// ----------------------------------------------------------- checking --

export function describe(r) {
  const who = r.aud ? r.aud.label : r.src;
  const what = r.src === 'rest' ? `${r.method} ${r.path} -> ${r.status}` : `${r.src} ${r.kind}`;
  const body = String(r.text).split('\n\n').slice(-1)[0].replace(/\s+/g, ' ');
  return `${who}: ${what} (game ${r.game ?? '-'}, version ${r.version ?? '-'}): ${body.slice(0, 300)}`;
}

// Every document audience a held, by version: its tap's history (every
// snapshot and every patched version) and its REST views and game
// resources. Calls f(doc, version, record-or-null, where).
export function eachDoc(ctx, a, f) {
  const { id } = ctx;
  const hist = ctx.taps.get(a).games.get(id)?.hist || new Map();
  for (const [v, d] of hist) f(d, v, null, 'ws');
  for (const r of ctx.W.cap.records) {
    if (r.game !== id || r.aud !== a || !r.json || !Number.isInteger(r.version)) continue;
    if (r.src === 'hook' && r.json.document) f(r.json.document, r.version, r, 'hook');
    if (r.src !== 'rest') continue;
    if (r.kind === 'view') f({ view: r.json }, r.version, r, 'view');
    else if (r.kind === 'game')
      f({ view: r.json.view, windows: r.json.windows }, r.version, r, 'game');
  }
}

// Private log entries reach their seats only; no spectator document
// carries held orders.
export function checkPrivateParts(ctx, leak) {
  let checked = 0;
  for (const r of ctx.W.cap.records) {
    if (r.game !== ctx.id || r.kind !== 'log' || !r.json) continue;
    const seat = r.aud.seats.get(ctx.id);
    checked++;
    for (const e of r.json.entries || []) {
      if (Array.isArray(e.seats) && !e.seats.includes(seat))
        leak(`a log entry for seats ${e.seats}`, r, e.seq);
      else if (e.seat !== null && e.seat !== undefined && e.seat !== seat)
        leak(`a private log entry of seat ${e.seat}`, r, e.seq);
    }
  }
  for (const a of [ctx.spectator, ctx.anon]) {
    eachDoc(ctx, a, (d, v, r) => {
      checked++;
      if (d?.view?.my_orders && Object.keys(d.view.my_orders).length)
        leak('held orders in a spectator document', r, v);
    });
  }
  return checked;
}

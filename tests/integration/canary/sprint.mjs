// sprint.mjs - the canary's Galactic Sprint (registry.mjs): games, their
// driver (with the error oracle) and the card-id check: every card id an
// audience receives at version v is in an empire at v or in its own hand.
import assert from 'node:assert/strict';
import {
  rnd,
  pick,
  chance,
  sample,
  bot,
  sleep,
  QUICK,
  probe,
  errorProbes,
  gameNow,
  describe,
} from './kit.mjs';

const handIds = (doc) => (doc?.view?.hand || []).map((c) => c.id);
const empireIds = (doc) =>
  (doc?.view?.players || []).flatMap((p) => (p.empire || []).map((c) => c.id));

// Does naming a card in another seat's hand get the same refusal as naming
// one in the deck (or a bot's hand)? Runs before seat `a` orders in a place
// window, so no hand can change meanwhile.
async function sprintOracle(ctx, a, seat, w, legal, hand) {
  const { W, id } = ctx;
  const pub = ctx.taps.get(ctx.anon).games.get(id).doc;
  const taken = new Set([...hand, ...empireIds(pub)]);
  const otherHands = [];
  for (const [s, oa] of ctx.seatAud) {
    if (s === seat) continue;
    for (const c of handIds(ctx.taps.get(oa).games.get(id).doc)) {
      otherHands.push(c);
      taken.add(c);
    }
  }
  // Ids of 12 and more, so that an id is not mistaken for a count when the
  // answers are compared with the id blanked out.
  const hidden = [];
  for (let c = 12; c < 110; c++) if (!taken.has(c)) hidden.push(c);
  const probes = [
    ...sample(
      otherHands.filter((c) => c >= 12),
      2,
    ),
    ...sample(hidden, 2),
  ];
  if (probes.length < 2) return;
  // A legal placement paid with one card too foreign: the hand check, not
  // the count check, must refuse it.
  const paid = legal.windows[0].choices.filter((c) => c.cost >= 1);
  const withPay = paid.length ? pick(paid) : null;
  const shapes = [
    (c) => ({ action: 'develop', development: c }),
    (c) => ({ action: 'settle', world: c }),
    (c) => ({ action: 'both', development: c, world: c }),
  ];
  if (withPay) {
    const placed = new Set([withPay.development, withPay.world, withPay.convoy_world]);
    const own = hand.filter((x) => !placed.has(x));
    shapes.push((c) => {
      const o = { ...withPay, pay: [...own.slice(0, withPay.cost - 1), c] };
      delete o.cost;
      return o;
    });
  }
  for (const [k, shape] of shapes.entries()) {
    const answers = [];
    for (const c of probes) {
      const r = await W.call(a, 'PUT', `/api/v1/games/${id}/orders/${w}`, {
        game: id,
        body: shape(c),
      });
      assert.equal(
        r.status,
        422,
        `${ctx.tag}: an order naming card ${c} (not in the hand) was not refused: ${r.text}`,
      );
      const norm = `${r.json?.field ?? ''}|${String(r.json?.detail ?? '').replace(new RegExp(`\\b${c}\\b`, 'g'), '#')}`;
      answers.push({ c, where: otherHands.includes(c) ? 'other hand' : 'hidden', norm });
    }
    ctx.oracle.push({ shape: k, answers });
    W.stats.oracle++;
  }
}

// A random legal place order for a human seat, payment chosen at random.
function sprintPlaceOrder(ctx, seat, legal, hand) {
  const win = legal.windows[0];
  const c = pick(win.choices);
  const order = { ...c };
  delete order.cost;
  const placed = new Set([c.development, c.world, c.convoy_world].filter((x) => x !== undefined));
  const payFrom = hand.filter((x) => !placed.has(x));
  if (c.action !== 'explore') order.pay = sample(payFrom, c.cost);
  // New games (rules edition 2) name no rival: each rival card counts
  // its best opponent.
  return order;
}

async function driveSprint(ctx) {
  const { W, id } = ctx;
  const end = Date.now() + (QUICK ? 240000 : 150000);
  while (Date.now() < end) {
    const g = await gameNow(ctx);
    if (g.status !== 'running') return;
    let acted = false;
    for (const w of g.windows) {
      const unsent = w.seats.filter((s) => ctx.seatAud.has(s) && !w.submitted.includes(s));
      const held = new Set(w.submitted);
      for (const seat of sample(unsent, unsent.length)) {
        const a = ctx.seatAud.get(seat);
        const tap = ctx.taps.get(a);
        // Our own doc must be current before we read our hand from it.
        const lg = await W.call(a, 'GET', `/api/v1/games/${id}/legal`, { game: id, kind: 'legal' });
        assert.equal(lg.status, 200, lg.text);
        const win = lg.json.windows.find((x) => x.window === w.id);
        if (!win) continue;
        await tap.until(() => tap.version(id) >= lg.version, 10000, 'our own view');
        const hand = handIds(tap.games.get(id).hist.get(lg.version) || tap.games.get(id).doc);
        const put = (body) =>
          W.call(a, 'PUT', `/api/v1/games/${id}/orders/${w.id}`, { game: id, kind: 'ack', body });
        let order;
        if (w.id.endsWith('.place')) {
          if (chance(0.3)) await sprintOracle(ctx, a, seat, w.id, lg.json, hand);
          order = sprintPlaceOrder(ctx, seat, lg.json, hand);
          // Sometimes an order first that is then replaced (if others are
          // still missing it cannot lock the window).
          const missing = w.seats.filter((s) => s !== seat && !held.has(s) && ctx.seatAud.has(s));
          if (missing.length && chance(0.3)) {
            const first = await put(sprintPlaceOrder(ctx, seat, lg.json, hand));
            if (first.status === 200) {
              W.stats.replaced++;
              await probe(ctx);
            }
          }
        } else {
          const n = win.choices?.[0]?.discard_count ?? win.shape.properties.discard.minItems;
          order = { discard: sample(hand, n) };
        }
        let r = await put(order);
        if (r.status === 422) {
          W.stats.fallbacks++;
          r = await put(
            w.id.endsWith('.place')
              ? { action: 'explore' }
              : { discard: sample(hand, win.shape.properties.discard.minItems) },
          );
        }
        assert.equal(
          r.status,
          200,
          `${ctx.tag} ${w.id} seat ${seat}: ${r.text} (order ${JSON.stringify(order)})`,
        );
        held.add(seat);
        acted = true;
        W.stats.actions++;
        await probe(ctx);
        await errorProbes(ctx, w.id, held);
      }
    }
    if (!acted) await sleep(10);
  }
  assert.fail(`${ctx.tag}: the game did not finish`);
}

// ---- Galactic Sprint: card ids ----

const ID_KEYS = new Set(['development', 'world', 'convoy_world']);
const ID_LISTS = new Set(['pay', 'discard', 'hand', 'cards', 'placed', 'enum']);
// Lists that are only ever a seat's own: payments, discards, the hand, the
// cards drawn (and the enum of a legal discard shape).
const PRIVATE_LISTS = new Set(['pay', 'discard', 'hand', 'cards', 'enum']);

// Every card id in v: {path, id, list} (list: the key of the id list it is
// in, if any).
export function cardIds(v, path = [], out = []) {
  if (Array.isArray(v)) {
    v.forEach((x, i) => cardIds(x, [...path, i], out));
  } else if (v && typeof v === 'object') {
    if (Number.isInteger(v.id) && typeof v.card === 'string')
      out.push({ path, id: v.id, card: v.card });
    for (const [k, x] of Object.entries(v)) {
      if (ID_KEYS.has(k) && Number.isInteger(x)) out.push({ path: [...path, k], id: x });
      else if (ID_LISTS.has(k) && Array.isArray(x)) {
        x.forEach((y, i) => {
          if (Number.isInteger(y)) out.push({ path: [...path, k, i], id: y, list: k });
          else cardIds(y, [...path, k, i], out);
        });
        if (
          PRIVATE_LISTS.has(k) &&
          x.some((y) => Number.isInteger(y) || (y && typeof y === 'object'))
        ) {
          out.push({ path: [...path, k], list: k, whole: true });
        }
      } else if (k !== 'id') cardIds(x, [...path, k], out);
    }
  }
  return out;
}

function pointer(p) {
  return p
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

export function checkSprint(ctx) {
  const leaks = [];
  let checked = 0;
  let skipped = 0;
  const { id } = ctx;
  const pubHist = ctx.taps.get(ctx.anon).games.get(id).hist;
  const specHist = ctx.taps.get(ctx.spectator).games.get(id).hist;
  const pubAt = (v) => pubHist.get(v) || specHist.get(v);
  const seatHist = new Map(
    [...ctx.seatAud].map(([s, a]) => [s, ctx.taps.get(a).games.get(id).hist]),
  );
  const pubIds = (v) => {
    const d = pubAt(v);
    return d ? new Set(empireIds(d)) : null;
  };
  const leak = (what, r, extra) =>
    leaks.push({ what: `sprint: ${what}`, marker: extra, record: describe(r) });

  // The state itself: no card in two places.
  for (const [v, d] of pubHist) {
    const pub = new Set(empireIds(d));
    const owner = new Map();
    for (const [s, h] of seatHist) {
      for (const c of handIds(h.get(v))) {
        if (pub.has(c))
          leaks.push({
            what: 'sprint: a hand card is in an empire',
            marker: c,
            record: `version ${v}`,
          });
        if (owner.has(c))
          leaks.push({ what: 'sprint: a card in two hands', marker: c, record: `version ${v}` });
        owner.set(c, s);
      }
    }
  }

  // ids in a versioned document of audience a at version v.
  const checkDoc = (r, a, v, items, where) => {
    const seat = a.seats.get(id);
    const pub = pubIds(v);
    const own = seat !== undefined ? seatHist.get(seat).get(v) : null;
    if (!pub || (seat !== undefined && !own)) {
      skipped++;
      return;
    }
    checked++;
    const mine = new Set(handIds(own));
    for (const it of items) {
      const path = it.path.join('/');
      const ownPlace =
        seat !== undefined &&
        (/^view\/my_orders\//.test(path) || /^my_orders\//.test(path) || where === 'legal');
      if (it.whole) {
        if (it.list === 'hand' && seat !== undefined && (path === 'view/hand' || path === 'hand'))
          continue;
        if ((it.list === 'pay' || it.list === 'discard' || it.list === 'enum') && ownPlace)
          continue;
        leak(`a "${it.list}" list at ${where} ${path}`, r, it.list);
        continue;
      }
      if (it.id === undefined) continue;
      if (pub.has(it.id)) continue;
      if (mine.has(it.id)) continue;
      leak(
        `card ${it.id} at ${where} ${path} is in no empire and not the audience's own`,
        r,
        it.id,
      );
    }
  };

  for (const r of ctx.W.cap.records) {
    if (r.game !== id || !(r.src === 'rest' || r.src === 'ws' || r.src === 'hook') || !r.json)
      continue;
    const a = r.aud;
    if (r.kind === 'export') continue;
    if (r.kind === 'hook' && Number.isInteger(r.version)) {
      checkDoc(r, a, r.version, cardIds(r.json.document || {}), 'hook');
      catalogue(r, r.json.document?.view || {}, leak);
    } else if (r.kind === 'view' && Number.isInteger(r.version)) {
      checkDoc(r, a, r.version, cardIds(r.json, ['view']), 'view');
      catalogue(r, r.json, leak);
    } else if (r.kind === 'game' && Number.isInteger(r.version)) {
      checkDoc(r, a, r.version, cardIds(r.json), 'game');
      catalogue(r, r.json.view, leak);
    } else if (r.kind === 'legal' && Number.isInteger(r.version)) {
      checkDoc(r, a, r.version, cardIds(r.json), 'legal');
    } else if (r.kind === 'ws-snapshot') {
      checkDoc(
        r,
        a,
        r.version,
        cardIds({ view: r.json.view, windows: r.json.windows }),
        'snapshot',
      );
      catalogue(r, r.json.view, leak);
    } else if (r.kind === 'ws-patch') {
      const items = [];
      for (const op of r.json.ops || []) {
        if (!('value' in op)) continue;
        const p = pointer(op.path);
        const last = p[p.length - 1];
        const v = op.value;
        if (typeof last === 'number' && ID_LISTS.has(p[p.length - 2]) && Number.isInteger(v)) {
          items.push({ path: p, id: v, list: p[p.length - 2] });
        } else if (
          typeof last === 'string' &&
          (ID_KEYS.has(last) || last === 'id') &&
          Number.isInteger(v)
        ) {
          items.push({ path: p, id: v });
        } else if (typeof last === 'string' && ID_LISTS.has(last) && Array.isArray(v)) {
          items.push(...cardIds({ [last]: v }, p.slice(0, -1)));
        } else {
          items.push(...cardIds(v, p));
        }
      }
      checkDoc(r, a, r.version, items, 'patch');
    } else if (r.kind === 'ack' || r.kind === 'error' || r.kind.startsWith('ws-')) {
      const items = cardIds(r.json).filter((it) => it.whole);
      for (const it of items) leak(`a "${it.list}" list in ${r.kind}`, r, it.list);
    } else if (r.kind === 'log') {
      const seat = a.seats.get(id);
      const lo = r.vlo ?? 0;
      const hi = r.vhi ?? ctx.finalVersion;
      const pub = new Set();
      for (let v = lo; v <= hi; v++) for (const c of pubIds(v) || []) pub.add(c);
      checked++;
      for (const e of r.json.entries || []) {
        if (e.seat !== null && e.seat !== undefined) {
          if (e.seat !== seat) leak(`a private log entry of seat ${e.seat}`, r, e.seq);
          continue; // the seat's own: entitled forever
        }
        for (const it of cardIds(e.entry, ['entry'])) {
          if (it.whole) leak(`a "${it.list}" list in a public log entry`, r, it.list);
          else if (it.id !== undefined && !pub.has(it.id))
            leak(`card ${it.id} in a public log entry is in no empire`, r, it.id);
        }
      }
    }
  }

  // The oracle: the refusal must not depend on where a hidden card is.
  for (const o of ctx.oracle) {
    const norms = new Set(o.answers.map((x) => x.norm));
    if (norms.size > 1) {
      leaks.push({
        what: 'sprint: a refusal depends on where a hidden card is',
        marker: o.shape,
        record: o.answers.map((x) => `${x.c} (${x.where}): ${x.norm}`).join(' | '),
      });
    }
  }
  return { leaks, checked, skipped };
}

// The design catalogue of a view names only designs the view references.
function catalogue(r, view, leak) {
  if (!view || !view.cards) return;
  const refs = new Set(
    cardIds(view)
      .filter((x) => x.card)
      .map((x) => x.card),
  );
  if (view.survey_card) refs.add(view.survey_card);
  for (const key of Object.keys(view.cards)) {
    if (!refs.has(key))
      leak(`the catalogue names design "${key}" that nothing in the view shows`, r, key);
  }
}

export default {
  id: 'sprint',
  plans: () => {
    const target = () => (QUICK ? 20 : 25 + Math.floor(rnd() * 11));
    return [
      { ruleset: 'sprint', humans: 1, options: {}, tag: 'S1' },
      { ruleset: 'sprint', humans: 2, bots: [bot()], options: { target_vp: target() }, tag: 'S3' },
      {
        ruleset: 'sprint',
        humans: 2,
        bots: [bot(), bot()],
        options: { target_vp: target() },
        tag: 'S4',
      },
      ...(QUICK
        ? []
        : [
            { ruleset: 'sprint', humans: 2, options: { target_vp: target() }, tag: 'S2' },
            {
              ruleset: 'sprint',
              humans: 3,
              bots: [bot()],
              options: { target_vp: target() },
              tag: 'S5',
              isPrivate: true,
            },
            { ruleset: 'sprint', humans: 1, options: {}, tag: 'S6' },
          ]),
    ];
  },
  drive: driveSprint,
  bad: { action: 'warp' },
  notified: true,
  check: (ctx) => checkSprint(ctx),
  summary: (t) => `${t.checked} (skipped ${t.skipped})`,
  expect: (t) => assert.ok(t.checked > 100, `sprint documents checked: ${t.checked}`),
};

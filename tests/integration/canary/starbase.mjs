// starbase.mjs - the canary's Starbase (registry.mjs): games and the card
// check: every card object a document shows at version v is public at v or
// in the audience's own hand.
import assert from 'node:assert/strict';
import { bot, QUICK, driveLegal, eachDoc } from './kit.mjs';

// Starbase: every card object (id, key, price) a document shows at version
// v is public at v (in the public view) or in the audience's own hand at v;
// a legal answer's card ids likewise; card ids of public log entries were
// public at some version.
export function checkStarbase(ctx, leak) {
  const { id } = ctx;
  const pubHist = ctx.taps.get(ctx.anon).games.get(id).hist;
  const specHist = ctx.taps.get(ctx.spectator).games.get(id).hist;
  const cardObjs = (v, out = []) => {
    if (Array.isArray(v)) v.forEach((x) => cardObjs(x, out));
    else if (v && typeof v === 'object') {
      if (Number.isInteger(v.id) && typeof v.key === 'string' && Number.isInteger(v.price))
        out.push(v);
      for (const x of Object.values(v)) cardObjs(x, out);
    }
    return out;
  };
  const pubIds = new Map();
  const pubAt = (v) => {
    if (!pubIds.has(v)) {
      const d = pubHist.get(v) || specHist.get(v);
      pubIds.set(v, d ? new Set(cardObjs(d.view).map((c) => c.id)) : null);
    }
    return pubIds.get(v);
  };
  const everPublic = new Set();
  for (const d of [...pubHist.values(), ...specHist.values()])
    for (const c of cardObjs(d.view)) everPublic.add(c.id);
  let checked = 0;
  let skipped = 0;
  for (const a of ctx.auds) {
    const seat = a.seats.get(id);
    const own = seat !== undefined ? ctx.taps.get(a).games.get(id).hist : null;
    const mineAt = (v) =>
      own
        ? own.get(v)
          ? new Set((own.get(v).view.hand || []).map((c) => c.id))
          : null
        : new Set();
    const check = (ids, v, r, where) => {
      const pub = pubAt(v);
      const mine = mineAt(v);
      if (!pub || !mine) {
        skipped++;
        return;
      }
      checked++;
      for (const c of ids)
        if (!pub.has(c) && !mine.has(c))
          leak(
            `card ${c} in ${where} at version ${v} is neither public nor in ${a.label}'s hand`,
            r,
            c,
          );
    };
    eachDoc(ctx, a, (d, v, r, where) => {
      const view = d?.view;
      if (!view) return;
      if (Array.isArray(view.hand) && seat === undefined)
        leak(`a hand list in a spectator ${where}`, r, v);
      const count = (view.players || []).find((p) => p.seat === seat)?.hand;
      if (Array.isArray(view.hand) && Number.isInteger(count) && view.hand.length !== count)
        leak(`${a.label}'s hand lists ${view.hand.length} cards, its count is ${count}`, r, v);
      for (const p of view.players || [])
        if (!Number.isInteger(p.hand) || !Number.isInteger(p.market))
          leak(`player ${p.seat}'s hand or market is not a count`, r, v);
      check(
        cardObjs(view).map((c) => c.id),
        v,
        r,
        where,
      );
    });
    for (const r of ctx.W.cap.records) {
      if (
        r.game !== id ||
        r.aud !== a ||
        r.kind !== 'legal' ||
        !r.json ||
        !Number.isInteger(r.version)
      )
        continue;
      const ids = [];
      for (const w of r.json.windows || [])
        for (const c of w.choices || []) if (Number.isInteger(c.card)) ids.push(c.card);
      check(ids, r.version, r, 'legal');
      if (seat === undefined && (r.json.windows || []).length)
        leak('legal moves for a spectator', r, r.version);
    }
  }
  // Where a public card of a human seat came from: a market card is drawn
  // into its owner's hand before it can be played, so a card of seat A that
  // is public at v and not before was in A's hand in between; at the first
  // version the only public cards are the outer region stacks.
  const pubVersions = [...pubHist.keys()].sort((x, y) => x - y);
  let prev = null;
  for (const v of pubVersions) {
    const cur = new Map(cardObjs(pubHist.get(v).view).map((c) => [c.id, c]));
    for (const [cid, c] of cur) {
      if (prev?.set.has(cid)) continue;
      if (!prev) {
        if (c.kind !== 'outer_region')
          leak(`card ${cid} (${c.kind}) public at the first version ${v}`, null, cid);
        continue;
      }
      const a = ctx.seatAud.get(c.owner);
      if (!a) continue; // a bot's hand is not seen
      const h = ctx.taps.get(a).games.get(id).hist;
      const seen = [];
      for (let u = prev.v; u < v; u++)
        if (h.has(u)) seen.push((h.get(u).view.hand || []).some((x) => x.id === cid));
      // Only when the seat's tap held every version in between (the hub may
      // send one patch for several versions).
      if (seen.length === v - prev.v && !seen.some(Boolean))
        leak(
          `card ${cid} of seat ${c.owner} public at version ${v} without passing through its hand`,
          null,
          cid,
        );
    }
    prev = { v, set: new Set(cur.keys()) };
  }
  // No card in two hands at once (a hand list holding another's cards).
  const owner = new Map(); // version -> Map(card -> seat)
  for (const [seat, a] of ctx.seatAud) {
    for (const [v, d] of ctx.taps.get(a).games.get(id).hist) {
      if (!owner.has(v)) owner.set(v, new Map());
      for (const c of d.view?.hand || []) {
        const o = owner.get(v);
        if (o.has(c.id))
          leak(
            `card ${c.id} in the hands of seats ${o.get(c.id)} and ${seat} at version ${v}`,
            null,
            c.id,
          );
        o.set(c.id, seat);
      }
    }
  }
  for (const r of ctx.W.cap.records) {
    if (r.game !== id || r.kind !== 'log' || !r.json) continue;
    for (const e of r.json.entries || []) {
      if (e.seat !== null && e.seat !== undefined) continue;
      for (const c of cardObjs(e.entry))
        if (!everPublic.has(c.id))
          leak(`card ${c.id} in a public log entry was never public`, r, c.id);
      if (Number.isInteger(e.entry?.card) && !everPublic.has(e.entry.card))
        leak(`card ${e.entry.card} in a public log entry was never public`, r, e.entry.card);
    }
  }
  return { checked, skipped };
}

export default {
  id: 'starbase',
  plans: () => [
    { ruleset: 'starbase', humans: 2, bots: [bot()], tag: 'B1' },
    { ruleset: 'starbase', humans: 1, bots: [bot()], tag: 'B2' },
  ],
  drive: (ctx) => driveLegal(ctx, { budget: QUICK ? 15 : 30, seconds: 300 }),
  bad: { action: 'play', card: 9999 },
  notified: true,
  privateParts: true,
  check: (ctx, leak) => checkStarbase(ctx, leak),
  summary: (t) => `${t.checked} (skipped ${t.skipped})`,
  expect: (t) => assert.ok(t.checked > 50, `starbase documents checked: ${JSON.stringify(t)}`),
};

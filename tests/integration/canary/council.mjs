// council.mjs - the canary's Galactic Council (registry.mjs): games, orders
// whose part names are markers ("part": their author only), and the check
// of what each audience may know of the galaxy.
import assert from 'node:assert/strict';
import { pick, chance, hex, bot, driveLegal, eachDoc, rnd, sample } from './kit.mjs';

const hexDist = (a, b) => {
  const dq = a.q - b.q;
  const dr = a.r - b.r;
  return (Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2;
};
const NEIGHBOURS = [
  [1, 0],
  [1, -1],
  [0, -1],
  [-1, 0],
  [-1, 1],
  [0, 1],
];

// Council: an action order of one to three parts named by unique markers
// (part names are the seat's own; others learn only how many parts).
function councilOrder(ctx, seat, doc, window) {
  const { W, id } = ctx;
  const sectors = doc?.view?.galaxy?.sectors || [];
  if (window.endsWith('.picks')) {
    // The ranked strategy picks: a shuffled prefix of the cards (sealed:
    // no other seat may learn it; only the picks it yields are told).
    // From the canary's seeded stream, so that CANARY_SEED repeats them.
    const keys = (doc?.view?.strategy_cards || []).map((c) => c.key);
    return { ranking: sample(keys, 1 + Math.floor(rnd() * keys.length)) };
  }
  if (/\.(lobby|council)$/.test(window)) {
    // The council's windows under part names only this seat may ever see:
    // in the lobby a representative sent in secret (a spy names a target;
    // the spies act when the lobby resolves) and the objective pick; in
    // the council window command markers to buy.
    const part = () => {
      const value = `cnry${hex(5)}`;
      W.markers.add({ kind: 'part', value, game: id, seat });
      return value;
    };
    if (window.endsWith('.council')) return { [part()]: { type: 'markers', count: 1 } };
    return lobbyParts(part);
  }
  const explored = sectors.filter((s) => s.explored);
  const frontier = sectors.filter((s) => !s.explored && explored.some((e) => hexDist(e, s) === 1));
  const order = {};
  const name = () => {
    const value = `cnry${hex(5)}`;
    W.markers.add({ kind: 'part', value, game: id, seat });
    return value;
  };
  const far = frontier.length && chance(0.7) ? pick(frontier) : null;
  if (far) order[name()] = [{ type: 'explore', sector: [far.q, far.r] }];
  for (const s of explored) {
    const mine = (s.fleets || []).find((f) => f.seat === seat && s.live);
    if (!mine || !chance(0.8)) continue;
    const to = pick(
      NEIGHBOURS.map(([dq, dr]) => ({ q: s.q + dq, r: s.r + dr })).filter((h) =>
        sectors.some((x) => x.q === h.q && x.r === h.r),
      ),
    );
    if (!to) continue;
    const steps = [
      { type: 'move', from: [s.q, s.r], to: [to.q, to.r], units: mine.units },
      { type: 'inspect' },
    ];
    if (chance(0.4)) {
      steps.push({
        type: 'if',
        cond: { type: 'marker_is', is: 'hostile' },
        then: [{ type: 'retreat', to: [s.q, s.r] }],
        else: [{ type: 'land', planet: 'all', troops: 'all' }],
      });
    } else {
      // Look and leave: the markers stay face down, known to this seat only
      // (a fleet that stays meets the system's marker, which turns it up).
      steps.push(
        { type: 'inspect', planet: pick(['highest_influence', 'highest_resources']) },
        { type: 'retreat', to: [s.q, s.r] },
      );
    }
    order[name()] = steps;
    if (Object.keys(order).length >= 3) break;
  }
  if (!Object.keys(order).length) order[name()] = [{ type: 'hold' }];
  // Rules edition 2 (new games): the lobby's parts go in the action window,
  // under part names as secret as the fleet orders'.
  if (doc?.view?.lobby_in_action) Object.assign(order, lobbyParts(name));
  return order;

  // The lobby's parts: a representative sent in secret (a spy names a
  // target; the spies act when the window resolves) and the objective pick.
  function lobbyParts(part) {
    const seats = (doc?.view?.players || []).length || 3;
    const role = pick(['spy', 'bodyguard', 'councillor', 'clerk']);
    const rep = { type: 'representative', role };
    if (role === 'spy') rep.target = (seat + 1) % seats;
    return { [part()]: { type: 'objective', pick: 0 }, [part()]: rep };
  }
}

// Council: what each audience may know of the galaxy. Marker identities:
// a spectator only face-up ones (a public "marker" log entry), a seat
// those and the ones its own private "inspected" entries name; explored
// sectors agree across audiences at each version and an unexplored one is
// bare; spectators see no units and no "you"; a seat sees units live only
// within its sensor range. (What a seat remembers is not checked: a fleet
// can see a sector in passing within one resolution.)
export function checkCouncil(ctx, leak) {
  const { id } = ctx;
  const markerAt = (q, r, p) => `${q},${r},${p}`;
  const known = new Map(); // audience -> Map(place -> key)
  const publicKnown = new Map();
  for (const [a, entries] of ctx.logs) {
    for (const e of entries) {
      const x = e.entry;
      if (!x || !x.marker || !Array.isArray(x.sector)) continue;
      const place = markerAt(x.sector[0], x.sector[1], x.planet ?? -1);
      if (x.type === 'marker' && (e.seat === null || e.seat === undefined))
        publicKnown.set(place, x.marker);
      else if (x.type === 'inspected' && e.seat === a.seats.get(id)) {
        if (!known.has(a)) known.set(a, new Map());
        known.get(a).set(place, x.marker);
      } else if (e.seat === null || e.seat === undefined)
        leak(`a public "${x.type}" log entry names a marker`, null, place);
    }
  }
  const stats = { checked: 0, privateSeen: 0, publicSeen: 0, live: 0 };
  const explored = new Map(); // version -> Map(sector -> bool) from the public views
  for (const a of [ctx.anon, ctx.spectator]) {
    for (const [v, d] of ctx.taps.get(a).games.get(id).hist) {
      if (!explored.has(v))
        explored.set(
          v,
          new Map((d.view.galaxy?.sectors || []).map((s) => [`${s.q},${s.r}`, s.explored])),
        );
    }
  }
  const bare = new Set(['q', 'r', 'explored']);
  for (const a of ctx.auds) {
    const seat = a.seats.get(id);
    const mine = seat === undefined ? new Map() : known.get(a) || new Map();
    eachDoc(ctx, a, (d, v, r, where) => {
      const view = d?.view;
      if (!view?.galaxy) return;
      stats.checked++;
      const what = `${a.label} ${where} v${v}`;
      if (seat === undefined && view.you) leak(`"you" in a spectator document`, r, what);
      if (seat !== undefined && view.you && view.you.seat !== seat)
        leak(`seat ${view.you.seat}'s "you" shown to ${a.label}`, r, what);
      const pub = explored.get(v);
      const sources = [];
      for (const s of view.galaxy.sectors) {
        if (
          s.explored &&
          ((s.fleets || []).some((f) => f.seat === seat && s.live) ||
            (s.planets || []).some((p) => p.owner === seat))
        )
          sources.push(s);
      }
      const me = (view.players || []).find((p) => p.seat === seat);
      const range =
        1 + (me?.race === 'thessari' ? 1 : 0) + ((me?.techs || []).includes('sensor_mesh') ? 1 : 0);
      for (const s of view.galaxy.sectors) {
        const key = `${s.q},${s.r}`;
        if (pub && pub.has(key) && pub.get(key) !== s.explored)
          leak(
            `sector ${key} explored=${s.explored} for ${a.label} but ${pub.get(key)} in public at v${v}`,
            r,
            what,
          );
        if (!s.explored) {
          const extra = Object.keys(s).filter((k) => !bare.has(k));
          if (extra.length) leak(`unexplored sector ${key} shows ${extra.join(',')}`, r, what);
          continue;
        }
        if (seat === undefined && ('fleets' in s || (s.planets || []).some((p) => 'troops' in p)))
          leak(`units in a spectator document at ${key}`, r, what);
        if (s.live) {
          stats.live++;
          if (!sources.some((x) => hexDist(x, s) <= range))
            leak(`sector ${key} seen live out of sensor range ${range}`, r, what);
        }
        const markers = [[s.marker, -1], ...(s.planets || []).map((p, i) => [p.marker, i])];
        for (const [m, i] of markers) {
          if (m === null || m === undefined || m === 'hidden') continue;
          const place = markerAt(s.q, s.r, i);
          if (publicKnown.get(place) === m.key) {
            stats.publicSeen++;
          } else if (mine.get(place) === m.key) {
            stats.privateSeen++;
          } else {
            leak(
              `marker ${m.key} at ${place} shown to ${a.label}, who never inspected it (and it is not face up)`,
              r,
              what,
            );
          }
        }
      }
    });
  }
  return stats;
}

export default {
  id: 'council',
  plans: () => [
    { ruleset: 'council', humans: 2, bots: [bot()], options: { last_round: 3 }, tag: 'C1' },
    { ruleset: 'council', humans: 3, options: { last_round: 2 }, tag: 'C2', isPrivate: true },
  ],
  drive: (ctx) => driveLegal(ctx, { seconds: 300, order: councilOrder, anyPlay: true }),
  bad: { card: 'nope' },
  notified: true,
  markers: ['part'],
  privateParts: true,
  wholeLog: true,
  check: (ctx, leak) => checkCouncil(ctx, leak),
  summary: (t) =>
    `${t.checked} (marker identities seen: face up ${t.publicSeen}, inspected by the seat ${t.privateSeen}; live sectors ${t.live})`,
  expect: (t) => {
    assert.ok(t.checked > 50, `council documents checked: ${JSON.stringify(t)}`);
    assert.ok(
      t.publicSeen + t.privateSeen > 0,
      'positive control: Council marker identities seen where allowed',
    );
  },
};

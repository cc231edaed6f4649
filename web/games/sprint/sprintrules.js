// sprintrules.js - what the page can work out about a Galactic Sprint
// placement from the view alone (docs/games/sprint.md): discounts, military
// against a world, the pay-for-military route, convoys and the total cost,
// with the server's own wording when something is not allowed. The server
// stays the judge (a 422 detail is the final word, and GET /legal lists
// every affordable placement); this explains choices before they are sent.
// Pure: no DOM, so Node tests can compare it with the server.

const COLOURS = ['grey', 'azure', 'jade', 'amber', 'violet'];

export function whatMatches(what, d) {
  const w = d.type === 'world';
  switch (what) {
    case 'card':
      return true;
    case 'development':
      return !w;
    case 'world':
      return w;
    case 'military_world':
      return w && !!d.military_world;
    case 'civil_world':
      return w && !d.military_world;
    case 'rebel_world':
      return w && d.faction === 'rebel';
    case 'alien_world':
      return w && d.faction === 'alien';
    default: {
      const m = /^([a-z]+)_world$/.exec(what || '');
      return !!m && COLOURS.includes(m[1]) && w && d.colour === m[1];
    }
  }
}

const WHAT_TEXT = {
  world: 'world',
  military_world: 'military world',
  civil_world: 'non-military world',
};

// The printed cost, or the defence of a military world.
export function printedCost(d) {
  return d.type === 'world' && d.military_world ? d.defence : d.cost;
}

export function isMilitaryWorld(d) {
  return !!d && d.type === 'world' && !!d.military_world;
}

export function convoyWhat(d) {
  const a = d && (d.abilities || []).find((x) => x.type === 'convoy');
  return a ? a.what : null;
}

export function defaultMode(d) {
  return isMilitaryWorld(d) ? 'conquer' : 'pay';
}

// What an empire brings to a placement; add() a card placed earlier this
// round.
export class Aggregate {
  constructor(designs = []) {
    this.discount = {}; // what -> amount, with the cards giving it
    this.discountFrom = {};
    this.military = 0;
    this.militaryVs = {};
    this.payMilitary = null; // the name of a card that allows it
    for (const d of designs) this.add(d);
  }

  add(d) {
    this.military += d.military || 0;
    for (const a of d.abilities || []) {
      if (a.type === 'discount') {
        this.discount[a.what] = (this.discount[a.what] || 0) + a.amount;
        (this.discountFrom[a.what] = this.discountFrom[a.what] || []).push(d.name);
      } else if (a.type === 'military_vs')
        this.militaryVs[a.what] = (this.militaryVs[a.what] || 0) + a.amount;
      else if (a.type === 'pay_military') this.payMilitary = this.payMilitary || d.name;
    }
    return this;
  }

  // The discount on d, and the names of the cards giving it.
  discountOn(d) {
    let total = 0;
    const from = [];
    for (const [what, amount] of Object.entries(this.discount)) {
      if (amount && whatMatches(what, d)) {
        total += amount;
        from.push(...this.discountFrom[what]);
      }
    }
    return { total, from };
  }

  militaryAgainst(d) {
    let total = this.military;
    for (const [what, amount] of Object.entries(this.militaryVs))
      if (amount && whatMatches(what, d)) total += amount;
    return total;
  }
}

const clamp0 = (x) => (x < 0 ? 0 : x);

// Cost of placing world d by mode: {cost, text} or {error, field}.
function worldCost(g, d, mode, field, modeField) {
  const printed = printedCost(d);
  if (!isMilitaryWorld(d)) {
    if (mode !== 'pay')
      return {
        error: `${d.name} is a non-military world: it is paid for, not conquered`,
        field: modeField,
      };
    const disc = g.discountOn(d);
    const cost = clamp0(printed - disc.total);
    return {
      cost,
      text: disc.total
        ? `cost ${printed} − ${disc.total} (${disc.from.join(', ')}) = ${cost}`
        : `cost ${cost}`,
    };
  }
  if (mode === 'conquer') {
    const mil = g.militaryAgainst(d);
    if (mil < printed)
      return {
        error: `military ${mil} is below defence ${printed} of ${d.name}`,
        field,
        military: mil,
      };
    return {
      cost: 0,
      text: `conquered: military ${mil} against defence ${printed}`,
      military: mil,
    };
  }
  if (d.faction === 'alien')
    return {
      error: `${d.name} is an alien world: it must be conquered, never paid for`,
      field: modeField,
    };
  if (!g.payMilitary)
    return {
      error: `paying for the military world ${d.name} needs a card that allows it; otherwise conquer it`,
      field: modeField,
    };
  const disc = g.discountOn(d);
  const cost = clamp0(printed - 1 - disc.total);
  return {
    cost,
    text: `paid: defence ${printed} − 1 (${g.payMilitary})${disc.total ? ` − ${disc.total} (${disc.from.join(', ')})` : ''} = ${cost}`,
  };
}

// The card designs of a view: id -> design, from the hand and the empires.
export function designIndex(view) {
  const byId = new Map();
  const put = (ref) => ref && byId.set(ref.id, view.cards[ref.card]);
  for (const r of view.hand || []) put(r);
  for (const p of view.players || []) for (const r of p.empire || []) put(r);
  return byId;
}

// plan: {action, dev (card id), survey (bool), world, worldMode, convoy,
// convoyMode}. Returns {ok, total, lines: [{label, cost, text}], error,
// field, need} - need: cards to discard; error: why it is not allowed.
export function planCost(view, seat, plan) {
  const cards = view.cards || {};
  const player = (view.players || [])[seat];
  const byId = designIndex(view);
  const inHand = new Set((view.hand || []).map((r) => r.id));
  const out = { ok: false, total: 0, lines: [], error: null, field: null };
  const fail = (error, field) => Object.assign(out, { error, field });
  const action = plan.action;
  if (!['develop', 'settle', 'both', 'explore'].includes(action))
    return fail('choose an action: develop, settle, both or explore', 'action');
  if (action === 'explore') return Object.assign(out, { ok: true });
  const g = new Aggregate((player ? player.empire : []).map((r) => cards[r.card]).filter(Boolean));
  if (action === 'develop' || action === 'both') {
    let d;
    if (plan.survey) {
      if (player && !player.survey_available) {
        const s = cards[view.survey_card];
        return fail(`you have already placed your ${s ? s.name : 'survey card'}`, 'survey');
      }
      d = cards[view.survey_card];
    } else {
      if (plan.dev === null || plan.dev === undefined)
        return fail(
          `action ${action} needs a development (or your ${cards[view.survey_card] ? cards[view.survey_card].name : 'survey card'})`,
          'development',
        );
      if (!inHand.has(plan.dev)) return fail(`card ${plan.dev} is not in your hand`, 'development');
      d = byId.get(plan.dev);
      if (d.type !== 'development')
        return fail(`card ${plan.dev} (${d.name}) is a world, not a development`, 'development');
    }
    const disc = g.discountOn(d);
    const dev1 = action === 'develop' ? 1 : 0;
    const cost = clamp0(d.cost - disc.total - dev1);
    const parts = [`cost ${d.cost}`];
    if (dev1) parts.push('− 1 (develop)');
    if (disc.total) parts.push(`− ${disc.total} (${disc.from.join(', ')})`);
    out.lines.push({
      label: d.name,
      cost,
      text: parts.length > 1 ? `${parts.join(' ')} = ${cost}` : `cost ${cost}`,
    });
    out.dev = cost;
    g.add(d); // it helps the world placed with it
  }
  if (action === 'settle' || action === 'both') {
    if (plan.world === null || plan.world === undefined)
      return fail(`action ${action} needs a world`, 'world');
    if (!inHand.has(plan.world)) return fail(`card ${plan.world} is not in your hand`, 'world');
    const w = byId.get(plan.world);
    if (w.type !== 'world')
      return fail(`card ${plan.world} (${w.name}) is a development, not a world`, 'world');
    const r = worldCost(g, w, plan.worldMode || defaultMode(w), 'world', 'world_mode');
    if (r.error) return fail(r.error, r.field);
    out.lines.push({ label: w.name, cost: r.cost, text: r.text });
    out.world = r.cost;
    if (plan.convoy !== null && plan.convoy !== undefined) {
      const cw = convoyWhat(w);
      if (!cw) return fail(`${w.name} has no convoy ability`, 'convoy_world');
      if (plan.convoy === plan.world || !inHand.has(plan.convoy))
        return fail(`card ${plan.convoy} is not another card in your hand`, 'convoy_world');
      const w2 = byId.get(plan.convoy);
      if (w2.type !== 'world' || !whatMatches(cw, w2))
        return fail(
          `the convoy of ${w.name} allows a ${WHAT_TEXT[cw] || 'world'}, and card ${plan.convoy} (${w2.name}) is not one`,
          'convoy_world',
        );
      g.add(w); // the first world helps the second
      const r2 = worldCost(
        g,
        w2,
        plan.convoyMode || defaultMode(w2),
        'convoy_world',
        'convoy_mode',
      );
      if (r2.error) return fail(r2.error, r2.field);
      out.lines.push({ label: `${w2.name} (convoy)`, cost: r2.cost, text: r2.text });
      out.convoy = r2.cost;
    }
  }
  out.total = out.lines.reduce((s, l) => s + l.cost, 0);
  const placed = [plan.dev, plan.world, plan.convoy].filter(
    (x) => x !== null && x !== undefined && !(plan.survey && x === plan.dev),
  );
  const spare = (view.hand || []).length - placed.length;
  if (out.total > spare)
    return fail(
      `the cost is ${out.total} but you hold only ${spare} other card${spare === 1 ? '' : 's'} to pay with`,
      'pay',
    );
  out.ok = true;
  return out;
}

// The order to send for a plan and its payment (what the server expects).
export function orderOf(plan, pay, rival) {
  const o = { action: plan.action };
  if (plan.action === 'develop' || plan.action === 'both') {
    if (plan.survey) o.survey = true;
    else o.development = plan.dev;
  }
  if (plan.action === 'settle' || plan.action === 'both') {
    o.world = plan.world;
    if (plan.worldMode) o.world_mode = plan.worldMode;
    if (plan.convoy !== null && plan.convoy !== undefined) {
      o.convoy_world = plan.convoy;
      if (plan.convoyMode) o.convoy_mode = plan.convoyMode;
    }
  }
  if (plan.action !== 'explore') o.pay = [...pay];
  if (rival !== null && rival !== undefined) o.rival = rival;
  return o;
}

// The plan an order describes (to show a saved order again).
export function planOf(order) {
  return {
    action: order.action || null,
    survey: !!order.survey,
    dev: order.survey ? null : (order.development ?? null),
    world: order.world ?? null,
    worldMode: order.world_mode || null,
    convoy: order.convoy_world ?? null,
    convoyMode: order.convoy_mode || null,
  };
}

// A key that identifies a placement (without payment) the way GET /legal's
// choices list it, modes filled in with their defaults.
export function choiceKey(view, c) {
  const byId = designIndex(view);
  const mode = (id, m) => (id === null || id === undefined ? '' : m || defaultMode(byId.get(id)));
  const dev = c.survey ? 'S' : (c.development ?? c.dev ?? '');
  const world = c.world ?? '';
  const convoy = c.convoy_world ?? c.convoy ?? '';
  return [
    c.action,
    c.action === 'develop' || c.action === 'both' ? dev : '',
    world,
    mode(c.world, c.world_mode || c.worldMode),
    convoy,
    mode(c.convoy_world ?? c.convoy, c.convoy_mode || c.convoyMode),
  ].join('|');
}

// Explore: cards drawn and discarded for a player.
export function exploreNumbers(player) {
  const icons = (player ? player.explore : 0) + 3;
  return { draw: 2 + icons, discard: icons };
}

// What a seat that ran out of time in `window` was given, in words: the
// default of a placement window ("rN.place") is an explore; that of a
// discard window ("rN.explore" after exploring, "rN.limit" for the hand
// limit) keeps the oldest cards.
// Worded from the window that timed out, not the phase the game is in now.
export function timeoutDefaultText(window) {
  return /\.place$/.test(window || '') ? 'explored' : 'kept the oldest cards';
}

const CONDITION_TITLES = {
  magnate: 'Magnate',
  warlord: 'Warlord',
  tycoon: 'Tycoon',
  pathfinder: 'Pathfinder',
};

// The line under a finished game's headline. A solitaire game is won by
// reaching the target; a campaign game by meeting a condition not met
// before (whatever its chips), so its line never quotes the target.
export function resultLine(r) {
  if (!r.solitaire) return null;
  const chips = `${r.scores[0]} VP chips after ${r.rounds} rounds`;
  if (!r.campaign) return `${chips} (target ${r.target_vp}).`;
  const fresh = (r.new_conditions || []).map((c) => CONDITION_TITLES[c] || c);
  return fresh.length
    ? `${chips}. It met ${fresh.join(' and ')}, new to your campaign: a campaign game is won by a condition you had not met before.`
    : `${chips}. It met no condition new to your campaign, so the campaign is lost.`;
}

// A window id in player words: "r3.place" -> "placement in round 3".
export function windowWords(window) {
  const m = /^r(\d+)\.(place|explore|limit)$/.exec(window || '');
  if (!m) return window || '';
  const what = {
    place: 'placement',
    explore: 'discard after exploring',
    limit: 'hand-limit discard',
  }[m[2]];
  return `${what} in round ${m[1]}`;
}

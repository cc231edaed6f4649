// council-text.js - Galactic Council in words: sector and unit names, the
// English sentence of an order part (the same wording as the engine's
// council_orders_text.c), and the game log's entries in plain words.

import { seatName, describeEngineEntry } from '../../gamekit.js';
import { describeCouncilEntry } from './council-agenda-text.js';

export const UNITS = ['carrier', 'cruiser', 'destroyer', 'dreadnought', 'fighter', 'trooper'];
export const SHIPS = ['carrier', 'cruiser', 'destroyer', 'dreadnought'];

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function humanize(key) {
  const s = String(key || '').replace(/_/g, ' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

// The sector at [q, r] in a galaxy view, or null.
export function sectorAt(galaxy, hex) {
  if (!galaxy || !hex) return null;
  return (galaxy.sectors || []).find((s) => s.q === hex[0] && s.r === hex[1]) || null;
}

// "Concordia (0, 0)" when the sector is explored, else "(1, -1)".
export function hexLabel(galaxy, hex) {
  const s = sectorAt(galaxy, hex);
  const at = `(${hex[0]}, ${hex[1]})`;
  return s && s.explored && s.name ? `${s.name} ${at}` : at;
}

// "2 carriers and 1 trooper"
export function unitsText(units) {
  const parts = Object.entries(units || {})
    .filter(([, n]) => n > 0)
    .map(([k, n]) => plural(n, k));
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

function planetsText(sel, galaxy) {
  switch (sel) {
    case 'all':
      return 'every planet';
    case 'highest_influence':
      return 'the planet with the highest influence';
    case 'highest_resources':
      return 'the planet with the most resources';
    case undefined:
    case null:
    case 'system':
      return 'the system';
    default: {
      for (const s of (galaxy && galaxy.sectors) || [])
        for (const p of s.planets || []) if (p.key === sel) return p.name;
      return humanize(sel);
    }
  }
}

export function condText(c, galaxy) {
  const neg = c.not ? ' not' : '';
  let t;
  switch (c.type) {
    case 'holds':
      t = `the sector does${neg} hold ${{ planets: 'planets', anomaly: 'an anomaly', marker: 'a marker', enemy_troops: 'enemy troopers' }[c.what] || c.what}`;
      break;
    case 'marker_is': {
      const what = c.is === 'hostile' || c.is === 'friendly' ? c.is : humanize(c.is);
      t = c.planet
        ? `the marker on ${planetsText(c.planet, galaxy)} is${neg} ${what}`
        : `it is${neg} ${what}`;
      break;
    }
    case 'enemy_ships':
      t = `enemy ships are${neg} present`;
      break;
    case 'fleet_survived':
      t = `my fleet did${neg} survive`;
      break;
    default:
      t = `${c.planet ? planetsText(c.planet, galaxy) : 'the planet with the highest influence'} has${neg} influence ${c.n} or more`;
  }
  return c.sector ? `${t} at ${hexLabel(galaxy, c.sector)}` : t;
}

function stepText(s, galaxy) {
  const at = (hex) => hexLabel(galaxy, hex);
  let t;
  switch (s.type) {
    case 'activate':
      return `activate ${at(s.sector)}`;
    case 'move':
      return `move ${unitsText(s.units)} from ${at(s.from)} to ${at(s.to)}`;
    case 'land':
      t = `land ${s.troops === 'all' ? 'all troopers' : plural(s.troops, 'trooper')} on ${planetsText(s.planet, galaxy)}`;
      break;
    case 'produce':
      return `produce ${unitsText(s.units)} at ${at(s.sector)}`;
    case 'strategy':
      t = `use ${humanize(s.card)}${s.option ? ` (${s.option})` : ''}`;
      if (s.targets && s.targets.length) t += ` on ${s.targets.map(at).join(', ')}`;
      return t;
    case 'inspect':
      t =
        !s.planet || s.planet === 'system'
          ? 'inspect the marker there'
          : `inspect the marker on ${planetsText(s.planet, galaxy)}`;
      break;
    case 'retreat':
      return `retreat to ${at(s.to)}`;
    case 'hold':
      return 'hold position';
    case 'explore':
      return `pay to explore ${at(s.sector)}`;
    case 'scan':
      return !s.planet || s.planet === 'system'
        ? `scan ${at(s.sector)}`
        : `scan the marker on ${planetsText(s.planet, galaxy)} at ${at(s.sector)}`;
    case 'score':
      return s.public && s.public.length
        ? `at the status phase score ${s.public.map(humanize).join(', or else ')}`
        : 'at the status phase score no public objective';
    case 'if':
      t = `if ${condText(s.cond || {}, galaxy)} then ${listText(s.then, galaxy)}`;
      if (s.else && s.else.length) t += `, otherwise ${listText(s.else, galaxy)}`;
      return t;
    default:
      return humanize(s.type);
  }
  return s.sector ? `${t} at ${at(s.sector)}` : t;
}

function listText(steps, galaxy) {
  const list = Array.isArray(steps) ? steps : steps ? [steps] : [];
  return list
    .map((s, i) => (i === 0 ? '' : s.type === 'if' ? '; ' : ' and then ') + stepText(s, galaxy))
    .join('');
}

// The sentence of one order part: "Move 1 carrier from ... ."
export function partSentence(part, galaxy) {
  const t = listText(part, galaxy);
  return t ? `${t.charAt(0).toUpperCase()}${t.slice(1)}.` : '(empty)';
}

const REASONS = {
  target: 'someone reached the victory point target',
  last_round: 'the last round was played',
  objectives: 'no public objective was left',
};

// One log entry in plain words (null to leave it out).
export function describeEntry(entry, m, names) {
  const e = entry.entry || {};
  const v = m.view || {};
  const galaxy = v.galaxy;
  const who = (s) => (s === m.you ? 'You' : seatName(m.seats, s));
  const at = (hex) => hexLabel(galaxy, hex);
  const planetOf = (hex, i) => {
    const s = sectorAt(galaxy, hex);
    const p = s && s.planets && s.planets[i];
    return p ? p.name : i >= 0 ? `planet ${i + 1}` : 'the system';
  };
  const coords = (hex) => `(${hex[0]}, ${hex[1]})`;
  switch (e.type) {
    case 'start':
      return `The game begins. Races: ${(e.races || []).map((r, i) => `${who(i)} ${humanize(r)}`).join(', ')}. ${e.speaker === m.you ? 'You speak' : `${who(e.speaker)} speaks`} first.`;
    case 'pick':
      return `${who(e.seat)} picked ${names.card(e.card)}.`;
    case 'submitted':
      return e.seat === m.you ? 'You sent your orders.' : `${who(e.seat)} sent orders.`;
    case 'withdrawn':
      return `${who(e.seat)} took back their orders.`;
    case 'reveal':
      return `Orders locked: ${(e.orders || []).map((o) => `${who(o.seat)} ${plural((o.order && o.order.parts) || 0, 'part')}`).join(', ')}.`;
    case 'your_order':
      return null;
    case 'strategy':
      return `${who(e.seat)} used ${names.card(e.card)}.`;
    case 'research':
      return `${who(e.seat)} researched ${humanize(e.tech)}.`;
    case 'explored':
      return `${at(e.sector)} was explored.`;
    case 'inspected':
      return `You inspected the marker ${e.planet >= 0 ? `on ${planetOf(e.sector, e.planet)} ${coords(e.sector)}` : `of ${at(e.sector)}`}: ${humanize(e.marker)}.`;
    case 'marker':
      return `A marker turned face up ${e.planet >= 0 ? `on ${planetOf(e.sector, e.planet)} ${coords(e.sector)}` : `at ${at(e.sector)}`}: ${humanize(e.marker)}.`;
    case 'marker_effect':
      return `Marker: ${humanize(e.effect)}${e.amount ? ` (${e.amount})` : ''}.`;
    case 'space_combat':
      return `Space combat at ${at(e.sector)}: ${who(e.attacker)} against ${e.defender === 'raiders' ? 'raiders' : who(e.defender)}; ${e.winner === null || e.winner === undefined ? 'no one' : who(e.winner)} won.`;
    case 'ground_combat':
      return `Ground combat on ${planetOf(e.sector, e.planet)} ${coords(e.sector)}: ${who(e.attacker)} attacked ${who(e.defender)}.`;
    case 'control':
      return `${who(e.seat)} took control of ${planetOf(e.sector, e.planet)} ${coords(e.sector)}.`;
    case 'step_failed':
      return `Your ${e.step} step did nothing: ${e.why}.`;
    case 'draw':
      return `You drew the action card ${humanize(e.card)}.`;
    case 'secret_drawn':
      return `You drew a secret objective: ${humanize(e.objective || e.card)}.`;
    case 'scored':
      return `${who(e.seat)} scored ${humanize(e.objective)} (+${e.vp} VP).`;
    case 'objective_revealed':
      return `New public objective: ${humanize(e.objective)}.`;
    case 'fleet_limit':
      return `Your fleet at ${at(e.sector)} was over the fleet limit: ${plural(e.removed, 'ship')} removed.`;
    case 'council_convened':
      return 'Someone controls Concordia: the council is convened.';
    case 'round':
      return `Round ${e.round} begins; ${e.speaker === m.you ? 'you are' : `${who(e.speaker)} is`} the speaker.`;
    case 'game_over':
      return `The game is over: ${REASONS[e.reason] || humanize(e.reason)}.`;
    default: {
      const t = describeCouncilEntry(e, m, names);
      if (t !== undefined) return t;
      return describeEngineEntry(e, m.seats, m.you) || `${humanize(e.type)}.`;
    }
  }
}

// The speaker now: once this round's picks have named the council's speaker
// (Forum's holder, else the lowest initiative) the header shows that player,
// as the council panel does; before, the player who spoke at the last council
// and picked first this round. One role, shown once.
export function speakerNow(v) {
  const c = v.council;
  return c && c.speaker !== null && c.speaker !== undefined && c.speaker >= 0
    ? c.speaker
    : v.speaker;
}

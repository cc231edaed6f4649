// starbasetext.js - Starbase in words: seat and region names, the log
// describer (the engine writes each entry's text with "Seat N"; here the
// seats get their players' names), what each legal play is called on its
// button, the hint of what you can do now, and the short "how to play".

import { seatName, describeEngineEntry } from '../../gamekit.js';

export const ROMAN = ['', 'I', 'II', 'III', 'IV'];
export const PHASES = [
  ['setup', 'Setup'],
  ['draw', 'Draw'],
  ['management', 'Management'],
  ['battle', 'Battle'],
  ['end', 'End'],
];

// Targets that name a seat (an opponent, or their starbase); every other
// chosen target is a card id.
const SEAT_TARGETS = new Set(['opponent', 'enemy_starbase']);

export function who(m, s) {
  return seatName(m.seats, s);
}

// "Ann's home", or the outer region's name.
export function regionName(m, r) {
  const reg = ((m.view && m.view.regions) || []).find((x) => x.id === r);
  if (r < 4) return r === m.you ? 'your home region' : `${who(m, r)}'s home`;
  return reg ? reg.name : `region ${r}`;
}

// Seat names in an engine text: "Seat 1's" / "seat 1's" / "Seat 1".
export function nameSeats(text, m) {
  return text.replace(/\b[Ss]eat (\d)('s home region)?/g, (_, n, home) =>
    home ? `${who(m, Number(n))}'s home region` : who(m, Number(n)),
  );
}

export function describe(entry, m) {
  const e = entry.entry || {};
  if (e.type === 'response_rule')
    return {
      seq: entry.seq,
      kind: 'private',
      text:
        e.until === 'never'
          ? 'You answer for yourself again.'
          : `You pass automatically until ${e.until === 'my_turn' ? 'your turn' : e.until.replace(/_/g, ' ')}${e.stop_if_targeted ? ', unless you are attacked or targeted' : ''}.`,
    };
  if (typeof e.text === 'string')
    return {
      seq: entry.seq,
      text: nameSeats(e.text, m),
      kind: entry.seat !== null && entry.seat !== undefined ? 'private' : kindOf(e.type),
    };
  const t = describeEngineEntry(e, m.seats, m.you);
  return t ? { seq: entry.seq, text: t } : null;
}

function kindOf(type) {
  if (type === 'lose' || type === 'destroyed' || type === 'win') return 'score';
  if (type === 'turn') return 'score';
  return null;
}

// The catalogue entry's ability a play with index k uses.
function abilityOf(design, k) {
  if (!design) return null;
  if (design.kind === 'ship') return (design.commands || [])[k] || null;
  return (design.abilities || [])[k] || null;
}

// The one chosen-target ability of a news card.
export function chosenOf(design) {
  return ((design && design.abilities) || []).find((a) => isChosen(a.target)) || null;
}

function isChosen(t) {
  return [
    'opponent',
    'own_ship',
    'enemy_ship',
    'ship',
    'enemy_location',
    'enemy_structure',
    'news',
    'enemy_starbase',
  ].includes(t);
}

// What a warp into region r would fight: the controller's ships there and,
// in a home region, its starbase. null when the warp is no attack (the
// region is yours or uncontrolled).
export function attackPreview(m, r) {
  const reg = ((m.view && m.view.regions) || []).find((x) => x.id === r);
  if (!reg || reg.controller === null || reg.controller === undefined || reg.controller === m.you)
    return null;
  const foe = reg.controller;
  const parts = reg.ships
    .filter((x) => x.owner === foe || x.owner === undefined)
    .map((x) => `${x.name} ${x.attack}/${x.defence}`);
  if (reg.kind === 'home') {
    const p = (m.view.players || []).find((x) => x.seat === foe);
    if (p) parts.push(`the starbase ${p.starbase.name} (${p.starbase.attack} guns)`);
  }
  return { foe, fights: parts };
}

function warpLabel(m, ch) {
  const a = attackPreview(m, ch.region);
  if (!a) return `Warp to ${regionName(m, ch.region)}`;
  const what = a.fights.length ? `: fights ${a.fights.join(', ')}` : '';
  return `Attack ${regionName(m, ch.region)}${what}`;
}

function targetName(m, ab, t, names) {
  if (ab && SEAT_TARGETS.has(ab.target))
    return ab.target === 'enemy_starbase' ? `${who(m, t)}'s starbase` : who(m, t);
  return names.get(t) || `card ${t}`;
}

// A button's words for a legal play (the card it sits on says which card).
export function choiceLabel(m, ch, names) {
  const cards = m.view.cards || {};
  const card = names.card(ch.card);
  const design = card ? cards[card.key] : null;
  switch (ch.action) {
    case 'pass':
      return passLabel(m);
    case 'forfeit':
      return 'Forfeit income, draw a card';
    case 'play': {
      let s = `Play (${card ? card.price : '?'} ISK)`;
      if (ch.region !== undefined) s = `Play in ${regionName(m, ch.region)}`;
      if (ch.target !== undefined)
        s = `Play on ${targetName(m, chosenOf(design), ch.target, names.byId)}`;
      return s;
    }
    case 'outer':
      return `Put into play (${card ? card.price : '?'} ISK)`;
    case 'upgrade':
      return 'Upgrade';
    case 'dock':
      return 'Dock';
    case 'undock':
      return 'Undock';
    case 'warp':
      return warpLabel(m, ch);
    case 'activate': {
      const c = abilityOf(design, ch.index);
      return `Activate ${c ? c.name : ch.index + 1}`;
    }
    case 'deactivate':
      return 'Deactivate';
    case 'ability': {
      const a = abilityOf(design, ch.index);
      // A command by its name; another card's ability by what it does
      // ("Management, 2 ISK: draw 1 card." -> "draw 1 card").
      const what =
        a && a.name
          ? a.name
          : a && a.text
            ? `"${a.text.replace(/^[^:]*:\s*/, '').replace(/\.$/, '')}"`
            : 'ability';
      return ch.target !== undefined
        ? `Use ${what} on ${targetName(m, a, ch.target, names.byId)}`
        : `Use ${what}${a && a.cost ? ` (${a.cost} ISK)` : ''}`;
    }
    case 'discard':
      return 'Discard';
    default:
      return ch.action;
  }
}

export function passLabel(m) {
  const v = m.view;
  const mine = v.active === m.you;
  switch (v.step) {
    case 'setup':
      return mine ? 'Pass: collect income' : 'Pass';
    case 'management':
      return mine ? 'End management phase' : 'Pass';
    case 'battle':
      return 'Pass: to damage';
    case 'end':
      return mine ? 'Pass: end the turn' : 'Pass';
    case 'discard':
      return 'Done discarding';
    default:
      return 'Pass';
  }
}

const STEP_WORDS = {
  setup: 'setup phase',
  management: 'management phase',
  battle: 'battle phase',
  end: 'end phase',
  discard: 'end phase (discard)',
  none: 'between steps',
};

// The hint line: whose turn, which step, who holds priority, what you may do.
export function hint(m) {
  const v = m.view;
  const p = v.priority || {};
  const step = STEP_WORDS[v.step] || v.step;
  if (m.status !== 'running' || v.over) return null;
  const activeName = v.active === m.you ? 'Your' : `${who(m, v.active)}'s`;
  const head = `Turn ${v.turn}: ${activeName} turn, ${step}.`;
  if (m.spectator) return `${head} ${who(m, p.holder)} holds priority.`;
  if (p.holder !== m.you) return `${head} Waiting for ${who(m, p.holder)}, who holds priority.`;
  if (v.active !== m.you)
    return `${head} You hold priority: play an instant news or ability, or pass.`;
  switch (v.step) {
    case 'setup':
      return `${head} You may forfeit this turn's income to draw a card, play an instant, or pass to collect your income.`;
    case 'management':
      return `${head} Play cards from your hand, undock, warp and command your ships, use abilities; end the phase when you are done.`;
    case 'battle':
      return `${head} Last chance for instants before both sides deal damage; pass to fight.`;
    case 'end':
      return `${head} Last chance for instants this turn; pass to end it.`;
    case 'discard':
      return `${head} You hold more than ${v.hand_limit} cards: discard down to ${v.hand_limit}.`;
    default:
      return head;
  }
}

export const HOW_TO_PLAY = [
  'Each turn has five phases: setup (news count down, ships assemble, you collect income), draw (one card), management (your actions), battle (only if you attacked) and end (discard down to 7).',
  'Pay ISK to play cards from your hand: ships go to your dock and count down their assembly tabs (IV…I) at each of your turns; undock an assembled ship to put it in your home region.',
  'Locations and outer regions give income to whoever controls their region. Warp a ship into an empty outer region to take it; warping into a region another player controls is an attack, fought in the battle phase.',
  'A ship has at most one active command: activate it to gain its ability. Docking or warping deactivates it.',
  'Instant news and abilities can be played whenever you hold priority, also in other players\u2019 turns.',
  'You lose when your starbase is destroyed or you must draw from an empty market. The last player left wins.',
];

// skirmishtext.js - the words of the Skirmish table: the log describer
// (the engine writes plain sentences naming "Player N"; this puts the seat
// names in), the names of the turn's steps, labels for declarations and
// stack items, the hint about what you can do now, and the short "how to
// play" text.

import { h } from '../../ui.js';
import { seatName, describeEngineEntry } from '../../gamekit.js';

export const STEP = {
  start: 'Start of turn',
  choice: 'Choice: the active player declares',
  exec: 'Execution: the stack resolves',
  handover: 'Hand-over: the other player may answer',
  handover_all: 'Hand-over: both may answer',
  end: 'End of turn',
};

// The engine's texts name seats as the API counts them ("seat 1", edition
// 2) or, in games made before edition 2, from one ("Player 2" is seat 1).
export function withNames(text, seats, you) {
  const name = (s) => (s === you ? `${seatName(seats, s)} (you)` : seatName(seats, s));
  return text
    .replace(/\b[Ss]eat (\d+)/g, (_, n) => name(Number(n)))
    .replace(/Player (\d+)/g, (_, n) => name(Number(n) - 1));
}

// One log entry in plain words, or null to leave it out (passes: the
// stack and the turn entries say what follows from them).
export function describe(entry, m) {
  const e = entry.entry || {};
  if (e.type === 'pass' || e.type === 'your_order') return null;
  if (e.type === 'reveal')
    return e.window === 'muster'
      ? 'Both squads are revealed.'
      : e.window === 'deploy'
        ? 'Both placements are revealed.'
        : 'The orders are revealed.';
  if (typeof e.text === 'string') return withNames(e.text, m.seats, m.you);
  return describeEngineEntry(e, m.seats, m.you);
}

// The CSS class of a log line, so attacks and deaths stand out.
export function logKind(entry) {
  const t = (entry.entry || {}).type;
  if (t === 'turn') return 'turn';
  if (t === 'destroyed') return 'bad';
  if (t === 'attack' || t === 'damage') return 'hit';
  return null;
}

export function unitLabel(v, id) {
  const u = v.units && v.units[id];
  if (!u) return `creature ${id}`;
  return u.square ? `${u.name} (${u.square})` : u.name;
}

export function abilityOf(v, unit, index) {
  const u = v.units[unit];
  const d = u && v.cards && v.cards[u.key];
  return d && d.abilities ? d.abilities[index] : null;
}

// A legal declaration in plain words, for its button.
export function choiceText(v, ch) {
  if (ch.action === 'move') return `Move to ${ch.to}`;
  if (ch.action === 'attack') return `Attack ${unitLabel(v, ch.target)}`;
  if (ch.action === 'ability') {
    const a = abilityOf(v, ch.unit, ch.ability);
    const what = a ? a.text.replace(/\.$/, '') : `ability ${ch.ability + 1}`;
    if (ch.target !== undefined) return `${what} → ${unitLabel(v, ch.target)}`;
    if (ch.item !== undefined) return `${what} → stack item ${ch.item}`;
    return what;
  }
  return 'Pass';
}

// The targets of a stack item in words.
export function targetsText(v, t) {
  if (!t) return 'targets found when it resolves';
  if (t.unit !== undefined) return `target: ${unitLabel(v, t.unit)}`;
  if (t.item !== undefined) return `target: stack item ${t.item}`;
  if (t.square) return `to ${t.square}`;
  return '';
}

// What you can do now, in a sentence or two.
export function hintText(m, { holding, choices, step }) {
  const v = m.view || {};
  if (m.spectator)
    return 'You are watching. The field, the stack and the log are public; the squads were chosen and placed in secret.';
  if (!holding) {
    const p = v.priority || {};
    if (p.holder === null || p.holder === undefined) return 'Waiting for the game.';
    return `${seatName(m.seats, p.holder)} holds priority. The page asks you when you can act or answer.`;
  }
  const n = choices.filter((c) => c.action !== 'pass').length;
  if (step === 'choice') {
    if (!n) return 'Nothing of yours can move or act now: pass to hand the turn over.';
    return 'Your turn. Select one of your creatures: green squares are where it can move, red rings what it can attack or target. Or pass to hand the turn over.';
  }
  if (n)
    return `You hold priority. Creatures marked ● can use a sudden ability now (select one to see it). Pass to let the top of the stack resolve${step === 'exec' ? '' : ' or the step end'}.`;
  if ((v.stack || []).length)
    return 'You hold priority, with nothing to answer: pass and the top item resolves when both have passed.';
  return 'You hold priority with nothing to play: pass. "Pass until end of turn" passes for you until the turn ends.';
}

export function howToPlay() {
  return h(
    'details.panel.sk-howto',
    h('summary', h('strong', 'How to play Skirmish')),
    h(
      'ul',
      h(
        'li',
        'Each player musters a squad (total cost at most the budget) and places it on their three home rows, both in secret.',
      ),
      h(
        'li',
        'In your turn, declare one thing at a time: move a creature (one square per movement point, walking along sides, flying in any direction) or use an action: attack an adjacent enemy, or an ability marked "Close". A declaration goes on the stack.',
      ),
      h(
        'li',
        'Both players may answer with sudden abilities (parries, counterspells …). When both pass in a row, the top item of the stack resolves, then its source pays: closing, movement points, tokens or life.',
      ),
      h(
        'li',
        'An attack rolls a die: 1–2 weak, 3–4 medium, 5–6 strong strike. An open target strikes back the same way. Armour lowers the damage.',
      ),
      h(
        'li',
        'Closed creatures (dimmed, "closed") cannot move or attack until your next turn. Pass in your choice step to hand the turn over.',
      ),
      h(
        'li',
        'Destroy the other squad to win. At the turn limit, the higher total cost still on the field wins.',
      ),
    ),
  );
}

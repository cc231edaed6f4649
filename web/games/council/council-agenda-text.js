// council-agenda-text.js - the council phase of Galactic Council in plain
// words: its log entries (the speaker and agenda, vetoes, cards played,
// gifts, the representatives revealed, each spy's deed, the vote, markers
// bought, captures), its order parts as sentences, and the last council's
// summary (its log entries, its spies as the server tells them).

import { seatName } from '../../gamekit.js';
import { plural } from '../../ui.js';

const humanize = (k) => String(k || '').replace(/_/g, ' ');
const cap = (t) => `${t.charAt(0).toUpperCase()}${t.slice(1)}`;
const ROLE = { spy: 'spy', bodyguard: 'bodyguard', councillor: 'councillor', clerk: 'clerk' };

// What a spy's deed did, in words; who(seat) names a seat.
export function spyText(e, who, roleOf) {
  const poss = (s) => (who(s) === 'You' ? 'your' : `${who(s)}'s`);
  const obj = (s) => (who(s) === 'You' ? 'you' : who(s));
  const them = `${poss(e.target)} ${roleOf ? roleOf(e.target) : 'representative'}`;
  const by = `${poss(e.seat)} spy`;
  const t = (() => {
    switch (e.result) {
      case 'killed':
        return `${by} killed ${them}.`;
      case 'immune':
        return `${by} could not harm ${them}: it is protected.`;
      case 'struck_down':
        return `${them} struck down ${by} before it could act.`;
      case 'blackmailed':
        return `${by} blackmailed ${obj(e.target)}: those votes go to ${obj(e.seat)}.`;
      case 'sabotaged':
        return `${by} sabotaged ${obj(e.target)}: those votes count 0.`;
      default:
        return `${by} acted against ${them}, to no effect.`;
    }
  })();
  return `${t.charAt(0).toUpperCase()}${t.slice(1)}`;
}

// The outcome of a vote in words (outcome: law 1 passed / 0 rejected;
// election the seat elected, -1 nobody; -2 tabled; -3 no agenda).
export function outcomeText(kind, outcome, who) {
  if (outcome === -3) return 'There was no agenda to vote on.';
  if (outcome === -2) return 'The agenda was tabled: no vote.';
  if (kind === 'election')
    return outcome >= 0
      ? `${who(outcome)} ${who(outcome) === 'You' ? 'were' : 'was'} elected.`
      : 'No one was elected.';
  return outcome === 1 ? 'The law passed.' : 'The law was rejected.';
}

// Who broke a tie (reps: the last council's representatives with their
// votes, undefined when votes are secret; totals by side; best the top):
// the speaker's side when the speaker voted for one of the tied sides,
// else a law fails and an election goes to the first tied player
// clockwise from the speaker.
export function tieText(reps, totals, best, speaker, law, who) {
  const sr = speaker !== null ? reps.find((r) => r.seat === speaker) : null;
  const name = speaker !== null ? `the speaker (${who(speaker)})` : 'the speaker';
  if (!sr || sr.vote === undefined)
    return `Tied: ${name}'s vote decides; without it a law fails and an election goes to the first tied player clockwise from the speaker.`;
  if (sr.vote !== null && totals[sr.vote] === best)
    return `Tied: ${name} voted ${law ? (sr.vote ? 'for' : 'against') : `for ${who(sr.vote)}`}, which breaks the tie.`;
  return law
    ? `Tied, and ${name} did not vote for either side: the law fails.`
    : `Tied, and ${name} did not vote for a tied player: the first tied player clockwise from the speaker is elected.`;
}

// The log entries of the council held in round `round` (the view's
// council.last.round): from that round's "council" entry up to the next
// "council" or "round" entry. log: the page's [{seq, seat, entry}]. The
// rounds are counted by the log's "round" entries (round 1 has none): a
// council sits in its round (with the council every round, after the
// picks; otherwise after the status phase, before the next round begins),
// so the newest "council" entry may already be the next council's.
export function councilEntries(log, round) {
  let now = 1;
  let out = null;
  for (const item of log || []) {
    const e = (item && item.entry) || {};
    if (e.type === 'round') {
      if (out) break;
      now = e.round;
    } else if (e.type === 'council') {
      if (out) break;
      if (now === round) out = [];
    }
    if (out) out.push(e);
  }
  return out || [];
}

// The spies that acted at a council, as the server tells it: the view's
// representatives with a spy_result (killed, immune, struck_down,
// blackmailed, sabotaged, no_effect; null for no spy or one removed before
// its turn), as {seat, target, result}, in the order they acted: that of
// the council's "spy" log entries, else from the speaker clockwise.
export function councilSpies(reps, entries, speaker) {
  const n = reps.length;
  const logged = (entries || []).filter((e) => e.type === 'spy').map((e) => e.seat);
  const from = speaker !== null && speaker !== undefined ? speaker : 0;
  const rank = (s) => {
    const i = logged.indexOf(s);
    return i >= 0 ? i : n + ((s - from + n) % n);
  };
  return reps
    .filter((r) => r.spy_result)
    .map((r) => ({ seat: r.seat, target: r.target, result: r.spy_result }))
    .sort((a, b) => rank(a.seat) - rank(b.seat));
}

// The last council (the view's council.last) as a sequence of lines
// {label, text, cls, strong}: the representatives revealed; each spy's
// deed (councilSpies); the players whose representative was removed, who
// do not vote; the totals (none with secret votes), a tie and who breaks
// it; the outcome. entries: that council's log entries (councilEntries),
// for the speaker and the spies' order; who(seat) names a seat, 'You' for
// the reader's.
export function lastSequence(last, entries, who) {
  const reps = last.representatives || [];
  const poss = (s) => (who(s) === 'You' ? 'Your' : `${who(s)}'s`);
  const obj = (s) => (who(s) === 'You' ? 'you' : who(s));
  const role = (s) => {
    const r = reps.find((x) => x.seat === s);
    return r ? `${r.role} (${r.name})` : 'representative';
  };
  const start = (entries || []).find((e) => e.type === 'council');
  const speaker = start ? start.speaker : null;
  const spies = councilSpies(reps, entries, speaker);
  const lines = [
    {
      label: 'Revealed: ',
      text: reps
        .map(
          (r) =>
            `${who(r.seat)}: ${r.name} (${r.role}${r.role === 'spy' && r.target !== null && r.target !== undefined ? `, against ${obj(r.target)}` : ''})`,
        )
        .join('; '),
    },
  ];
  for (const e of spies)
    lines.push({
      label: 'Spy: ',
      text: spyText(e, who, role),
      cls: e.result === 'killed' || e.result === 'struck_down' ? 'cn-seq-hit' : null,
    });
  if (!spies.length) lines.push({ text: 'No spy acted.' });
  const gone = reps.filter((r) => r.fate !== 'seated');
  if (gone.length)
    lines.push({
      text: `${gone.map((r) => `${poss(r.seat)} ${r.role} was ${r.fate === 'killed' ? 'killed' : 'struck down'}`).join('; ')}: ${gone.length > 1 ? 'those players do' : who(gone[0].seat) === 'You' ? 'you do' : 'that player does'} not vote.`,
    });
  const a = last.agenda;
  const t = last.totals || [];
  const law = a && a.kind !== 'election';
  const best = t.length ? Math.max(...t) : 0;
  const tied = t.filter((x) => x === best).length > 1 && best > 0;
  // Secret votes: no totals (they would give the votes away), the outcome alone.
  const totals = !last.totals
    ? 'secret ballot.'
    : law
      ? `For ${t[1] || 0}, against ${t[0] || 0}.`
      : t.map((n, i) => `${who(i)} ${n}`).join(', ');
  if (a)
    lines.push({
      label: 'Vote: ',
      text: `${totals}${tied ? ` ${tieText(reps, t, best, speaker, law, who)}` : ''}`,
      cls: tied ? 'cn-tie' : null,
    });
  lines.push({
    text: outcomeText(a ? a.kind : 'law', last.outcome, who),
    cls: 'cn-outcome',
    strong: true,
  });
  return lines;
}

// A council log entry in words, or undefined when the entry is not the
// council's. names.agenda(key) names an agenda.
export function describeCouncilEntry(e, m, names) {
  const who = (s) => (s === m.you ? 'You' : seatName(m.seats, s));
  const agenda = (k) => (names.agenda ? names.agenda(k) : humanize(k));
  switch (e.type) {
    case 'council':
      return `The council sits: ${who(e.speaker)} ${e.speaker === m.you ? 'are' : 'is'} the speaker (${e.forum ? 'holder of Forum, choosing the agenda' : 'lowest initiative; the agenda is drawn'}).`;
    case 'agenda':
      return `On the agenda: ${e.name || agenda(e.agenda)} (${e.kind === 'election' ? 'an election' : 'a law'}).`;
    case 'agenda_vetoed':
      return `${e.name || agenda(e.agenda)} was vetoed; the next agenda from the deck replaces it.`;
    case 'agenda_tabled':
      return `${agenda(e.agenda)} was tabled: no vote this council.`;
    case 'card_played':
      return `${who(e.seat)} played ${names.action ? names.action(e.card) : humanize(e.card)}.`;
    case 'gift':
      return `${who(e.seat)} gave ${e.to === m.you ? 'you' : who(e.to)} ${plural(e.trade_goods, 'trade good')}.`;
    case 'objective_value':
      return `The new public objective ${humanize(e.objective)} is worth ${e.vp} VP.`;
    case 'refused':
      return `Your ${humanize(e.part)} part did nothing: ${e.why}.`;
    case 'representatives':
      return `Representatives revealed: ${(e.representatives || []).map((r) => `${who(r.seat)} ${r.name} (${ROLE[r.role] || r.role}${r.role === 'spy' && r.target >= 0 ? ` against ${who(r.target) === 'You' ? 'you' : who(r.target)}` : ''})`).join(', ')}.`;
    case 'spy':
      return spyText(e, who);
    case 'vote': {
      // Secret votes: no totals, the outcome alone.
      if (!e.totals)
        return `Vote on ${agenda(e.agenda)} (secret ballot). ${outcomeText(e.kind, e.outcome, who)}`;
      // Councils seat 3 or more: two totals are a law's (against, for).
      const t = e.totals;
      const kind = t.length === 2 ? 'law' : 'election';
      const totals =
        kind === 'law'
          ? `for ${t[1]}, against ${t[0]}`
          : t.map((n, i) => `${who(i)} ${n}`).join(', ');
      return `Vote on ${agenda(e.agenda)}: ${totals}. ${outcomeText(kind, e.outcome, who)}`;
    }
    case 'markers_bought':
      return `${who(e.seat)} bought ${plural(e.count, 'command marker')} for ${e.influence} influence.`;
    case 'captured':
      return `${who(e.seat)} took a planet at (${e.sector[0]}, ${e.sector[1]}) by diplomacy${e.from >= 0 ? ` from ${who(e.from) === 'You' ? 'you' : who(e.from)}` : ''}.`;
    default:
      return undefined;
  }
}

// A council-window order part in words.
export function councilPartText(p, who, galaxyName, cardName) {
  switch (p && p.type) {
    case 'representative':
      return p.role === 'spy' ? `Send your spy against ${who(p.target)}.` : `Send your ${p.role}.`;
    case 'vote':
      return p.seat !== undefined
        ? `Vote to elect ${who(p.seat)}.`
        : p.for
          ? 'Vote for.'
          : 'Vote against.';
    case 'markers':
      return `Buy ${plural(p.count, 'command marker')}.`;
    case 'capture':
      return `Capture ${galaxyName ? galaxyName(p.sector, p.planet) : `planet ${p.planet + 1} at (${p.sector[0]}, ${p.sector[1]})`}.`;
    case 'give':
      return `Give ${who(p.seat)} ${plural(p.trade_goods, 'trade good')}.`;
    case 'play':
      return cap(
        `play ${(cardName && cardName(p.card)) || humanize(p.card)}${p.seat !== undefined ? ` on ${who(p.seat)}` : ''}${p.amount ? ` paying ${plural(p.amount, 'trade good')}` : ''}.`,
      );
    case 'objective':
      return `Open the ${p.pick ? 'second' : 'first'} of the next two public objectives.`;
    default:
      return JSON.stringify(p);
  }
}

// council_modules.test.mjs - the Council table's pure modules under Node:
// the representatives the page offers (council-reps.js) are the view's
// (you.representatives, the ruleset data's for the seat's race), each
// ability explained; a tied vote is explained as the engine breaks it
// (council-agenda-text.js); the last council's summary tells each spy's
// result as the view has it (spy_result) and takes the log entries of the
// council that last voted, not the newest one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { repsOf, ABILITIES } from '../../web/games/council/council-reps.js';
import {
  tieText,
  spyText,
  outcomeText,
  councilEntries,
  councilSpies,
  lastSequence,
} from '../../web/games/council/council-agenda-text.js';

const data = JSON.parse(
  fs.readFileSync(new URL('../../engine/rules/council/council.json', import.meta.url), 'utf8'),
);

test("council-reps: the view's spy, bodyguard and councillor (every race of council.json), and a clerk", () => {
  assert.ok(data.races.length >= 9);
  for (const race of data.races) {
    // As the engine puts them in the seat's view: keyed by role.
    const given = Object.fromEntries(
      race.representatives.map((r) => [
        r.role,
        { name: r.name, influence: r.influence, ability: r.ability },
      ]),
    );
    const reps = repsOf(given);
    assert.deepEqual(
      reps.slice(0, 3).map((r) => [r.role, r.name, r.influence, r.ability]),
      race.representatives.map((r) => [r.role, r.name, r.influence, r.ability]),
      race.key,
    );
    for (const r of reps)
      assert.ok(ABILITIES[r.ability], `${race.key}: ability ${r.ability} is explained`);
    assert.deepEqual(reps[3], {
      role: 'clerk',
      name: 'Clerk',
      influence: 0,
      ability: 'none',
      text: ABILITIES.none,
    });
  }
  // Without the view's representatives only the clerk is offered.
  assert.deepEqual(
    repsOf(undefined).map((r) => r.role),
    ['clerk'],
  );
});

test("council-agenda-text: a tie goes to the speaker's side, else a law fails or the first tied clockwise", () => {
  const who = (s) => ['Ann', 'Bea', 'Cy', 'Dov'][s];
  const reps = (votes) => votes.map((vote, seat) => ({ seat, vote }));
  // Law [against, for] tied 5/5; the speaker (seat 2) voted for.
  assert.match(
    tieText(reps([0, 1, 1, 0]), [5, 5], 5, 2, true, who),
    /the speaker \(Cy\) voted for, which breaks the tie/,
  );
  // The speaker did not vote: the law fails.
  assert.match(
    tieText(reps([0, 1, null, 0]), [5, 5], 5, 2, true, who),
    /did not vote for either side: the law fails/,
  );
  // Election tied between Ann and Dov; the speaker voted for Dov.
  assert.match(
    tieText(reps([0, 3, 3, 0]), [7, 0, 0, 7], 7, 1, false, who),
    /voted for Dov, which breaks the tie/,
  );
  // The speaker voted for a player not among the tied.
  assert.match(
    tieText(reps([0, 2, 3, 0]), [7, 0, 3, 7], 7, 1, false, who),
    /first tied player clockwise/,
  );
  // Secret votes: no votes in the result.
  assert.match(tieText([{ seat: 0 }, { seat: 1 }], [4, 4], 4, 0, true, who), /vote decides/);
});

test('council-agenda-text: spies and outcomes in words', () => {
  const who = (s) => (s === 0 ? 'You' : ['', 'Bea', 'Cy'][s]);
  assert.equal(
    spyText({ seat: 0, target: 1, result: 'killed' }, who, () => 'councillor'),
    "Your spy killed Bea's councillor.",
  );
  assert.equal(
    spyText({ seat: 2, target: 0, result: 'struck_down' }, who, () => 'bodyguard'),
    "Your bodyguard struck down Cy's spy before it could act.",
  );
  assert.equal(outcomeText('election', 0, who), 'You were elected.');
  assert.equal(outcomeText('law', 1, who), 'The law passed.');
  assert.equal(outcomeText('law', -2, who), 'The agenda was tabled: no vote.');
});

test("council-text: the header's speaker is the council's once this round's picks named it", async () => {
  const { speakerNow } = await import('../../web/games/council/council-text.js');
  // Before the picks close: the player who spoke last and picks first.
  assert.equal(speakerNow({ speaker: 2, council: { speaker: -1 } }), 2);
  assert.equal(speakerNow({ speaker: 2, council: null }), 2);
  // After: Forum's holder (or the lowest initiative), as the council panel shows.
  assert.equal(speakerNow({ speaker: 2, council: { speaker: 0 } }), 0);
});

test("council-agenda-text: the last council's spies as the server tells them, from the council that last voted", () => {
  const who = (s) => (s === 0 ? 'You' : ['', 'Bea', 'Cy', 'Dov'][s]);
  const rep = (seat, role, name, target, result) => ({
    seat,
    role,
    name,
    target,
    fate: 'seated',
    spy_result: result,
  });
  // Round 1's council (view council.last): three spies, none removing
  // anyone, so every representative is still seated: nothing to infer
  // from the fates.
  const last = {
    round: 1,
    agenda: { key: 'a', name: 'Trade Pact', kind: 'law', lasting: false, text: '' },
    outcome: 1,
    totals: [0, 7],
    representatives: [
      { ...rep(0, 'spy', 'Whisper', 1, 'sabotaged'), vote: 1, weight: 4 },
      { ...rep(1, 'spy', 'Shade', 2, 'blackmailed'), vote: 1, weight: 0 },
      { ...rep(2, 'spy', 'Knife', 3, 'immune'), vote: null, weight: 3 },
      { ...rep(3, 'bodyguard', 'Warden', null, null), vote: 0, weight: 0 },
    ],
  };
  // The log as the page holds it ({seq, seat, entry}): round 1's council
  // (speaker Cy), its spies from the speaker clockwise, the vote; then
  // round 2 begins and its council sits, its lobby resolved: a new spy.
  const entries = [
    { type: 'pick', seat: 0, card: 'x' },
    { type: 'council', speaker: 2, forum: false },
    { type: 'agenda', agenda: 'a', name: 'Trade Pact', kind: 'law' },
    { type: 'representatives', representatives: [] },
    { type: 'spy', seat: 2, target: 3, result: 'immune' },
    { type: 'spy', seat: 0, target: 1, result: 'sabotaged' },
    { type: 'spy', seat: 1, target: 2, result: 'blackmailed' },
    { type: 'vote', agenda: 'a', kind: 'law', outcome: 1, totals: [0, 7] },
    { type: 'round', round: 2, speaker: 2 },
    { type: 'council', speaker: 0, forum: true },
    { type: 'representatives', representatives: [] },
    { type: 'spy', seat: 3, target: 0, result: 'killed' },
  ];
  const log = entries.map((entry, seq) => ({ seq: seq + 1, seat: null, entry }));
  const mine = councilEntries(log, 1);
  assert.deepEqual(mine[0], { type: 'council', speaker: 2, forum: false });
  assert.deepEqual(
    mine.filter((e) => e.type === 'spy').map((e) => e.seat),
    [2, 0, 1],
  );
  assert.ok(!mine.some((e) => e.type === 'round'));
  assert.deepEqual(
    councilEntries(log, 2).map((e) => e.type),
    ['council', 'representatives', 'spy'],
  );
  assert.deepEqual(councilEntries(log, 3), []);
  // After the status phase (council_phase 1): round 3's council sits
  // before round 4 begins.
  const after = [
    { type: 'round', round: 3, speaker: 1 },
    { type: 'scored', seat: 1 },
    { type: 'council', speaker: 1, forum: false },
    { type: 'spy', seat: 1, target: 0, result: 'no_effect' },
    { type: 'round', round: 4, speaker: 1 },
  ].map((entry, seq) => ({ seq, seat: null, entry }));
  assert.deepEqual(
    councilEntries(after, 3).map((e) => e.type),
    ['council', 'spy'],
  );

  const text = (lines) => lines.map((l) => `${l.label || ''}${l.text}`);
  const spies = [
    "Cy's spy could not harm Dov's bodyguard (Warden): it is protected.",
    'Your spy sabotaged Bea: those votes count 0.',
    "Bea's spy blackmailed Cy: those votes go to Bea.",
  ];
  const seq = text(lastSequence(last, mine, who));
  assert.deepEqual(
    seq.filter((l) => l.startsWith('Spy: ')).map((l) => l.slice(5)),
    spies,
  );
  assert.ok(!seq.some((l) => /killed|struck down/.test(l)), seq.join('\n'));
  assert.ok(seq.includes('Vote: For 7, against 0.'));
  assert.equal(seq[seq.length - 1], 'The law passed.');
  // Without the log (not loaded yet) the results are still the server's,
  // in seat order.
  assert.deepEqual(
    text(lastSequence(last, [], who))
      .filter((l) => l.startsWith('Spy: '))
      .map((l) => l.slice(5)),
    [spies[1], spies[2], spies[0]],
  );
  // A spy struck down by its target, one killed, one that did not act.
  const hit = {
    ...last,
    representatives: [
      { ...rep(0, 'spy', 'Whisper', 1, 'struck_down'), fate: 'struck_down' },
      rep(1, 'councillor', 'Sage', null, null),
      rep(2, 'spy', 'Knife', 3, 'killed'),
      { ...rep(3, 'spy', 'Shade', 2, null), fate: 'killed' },
    ],
  };
  assert.deepEqual(
    councilSpies(hit.representatives, [], 2).map((e) => [e.seat, e.result]),
    [
      [2, 'killed'],
      [0, 'struck_down'],
    ],
  );
  const hitSeq = text(lastSequence(hit, [], who));
  assert.ok(hitSeq.includes("Spy: Cy's spy killed Dov's spy (Shade)."), hitSeq.join('\n'));
  assert.ok(
    hitSeq.includes("Spy: Bea's councillor (Sage) struck down your spy before it could act."),
    hitSeq.join('\n'),
  );
});

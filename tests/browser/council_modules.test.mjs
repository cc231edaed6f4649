// council_modules.test.mjs - the Council table's pure modules under Node:
// the representatives the page offers (council-reps.js) are the view's
// (you.representatives, the ruleset data's for the seat's race), each
// ability explained; a tied vote is explained as the engine breaks it
// (council-agenda-text.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { repsOf, ABILITIES } from '../../web/games/council/council-reps.js';
import { tieText, spyText, outcomeText } from '../../web/games/council/council-agenda-text.js';

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

// council-reps.js - the representatives a seat may send to the Galactic
// Council, read from its view (you.representatives: the ruleset's data for
// its own race, keyed by role), with the abilities and roles explained in
// plain words.

export const ROLES = ['spy', 'bodyguard', 'councillor', 'clerk'];

export const ABILITIES = {
  assassinate:
    "Assassinate: removes the target's representative from this council, unless it is a bodyguard or protected by a card. That player then does not vote.",
  blackmail: "Blackmail: the target's votes go to your side this council.",
  sabotage: "Sabotage: the target's votes count 0 this council.",
  shield: 'Shield: cannot be assassinated.',
  retaliate:
    'Retaliate: cannot be assassinated, and a spy aimed at it is struck down before it acts.',
  orator: 'Orator: +1 vote for every 3 trade goods you hold.',
  none: 'No special ability.',
};

export const ROLE_TEXT = {
  spy: 'Acts against the representative of the player you name. Spies act one by one from the speaker clockwise; a spy removed before its turn does nothing.',
  bodyguard: 'Safe from spies; few votes.',
  councillor: 'The most votes, and the most exposed: a spy can kill it.',
  clerk:
    'A plain clerk: 0 votes of its own, no ability, and a spy can kill it. Your planets still vote.',
};

// The representatives of the view's seat (you.representatives: {spy,
// bodyguard, councillor} as {name, influence, ability}) as [{role, name,
// influence, ability, text}] for spy, bodyguard and councillor (those the
// view has), then the clerk every player may send.
export function repsOf(given) {
  const reps = ROLES.slice(0, 3)
    .filter((role) => given && given[role])
    .map((role) => {
      const { name, influence, ability } = given[role];
      return { role, name, influence, ability, text: ABILITIES[ability] || ability };
    });
  reps.push({ role: 'clerk', name: 'Clerk', influence: 0, ability: 'none', text: ABILITIES.none });
  return reps;
}

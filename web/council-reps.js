// council-reps.js - the representatives each race may send to the Galactic
// Council, as the ruleset's data lists them (engine/rules/council/
// council.json, "representatives"): name, influence (votes) and ability,
// with the abilities and roles explained in plain words. The game view
// does not carry them; a view that does (players[].representatives) wins.

export const ROLES = ['spy', 'bodyguard', 'councillor', 'clerk'];

// Race key -> [spy, bodyguard, councillor] as [name, influence, ability].
const RACES = {
  veyari: [['Silk Broker', 0, 'blackmail'], ['Ledger Warden', 1, 'shield'], ['First Factor', 3, 'orator']],
  oskan: [['Trail Ghost', 0, 'assassinate'], ['Wayguard', 1, 'shield'], ['Chart Elder', 2, 'none']],
  thessari: [['Glass Eye', 1, 'sabotage'], ['Veil Sentinel', 1, 'retaliate'], ['High Observer', 3, 'none']],
  korrun: [['Blood Herald', 0, 'assassinate'], ['Shield Kin', 2, 'retaliate'], ['War Speaker', 2, 'none']],
  dravik: [['Knife Cadet', 0, 'assassinate'], ['Iron Tribune', 1, 'shield'], ['Legate', 3, 'none']],
  amaranth: [['Quiet Clerk', 1, 'blackmail'], ['Protocol Officer', 1, 'shield'], ['Director General', 4, 'none']],
  halcyon: [['Soot Runner', 0, 'sabotage'], ['Forge Sworn', 2, 'shield'], ['Master Smith', 2, 'orator']],
  sephine: [['Dissonant', 0, 'blackmail'], ['Cantor Guard', 1, 'retaliate'], ['Voice of Many', 4, 'none']],
  quillan: [['Index Thief', 1, 'sabotage'], ['Stack Keeper', 1, 'shield'], ['Chief Archivist', 3, 'none']],
};

// Races with a standing bonus to every vote (the Choir: +2).
export const VOTE_BONUS = { sephine: 2 };

export const ABILITIES = {
  assassinate: 'Assassinate: removes the target\'s representative from this council, unless it is a bodyguard or protected by a card. That player then does not vote.',
  blackmail: 'Blackmail: the target\'s votes go to your side this council.',
  sabotage: 'Sabotage: the target\'s votes count 0 this council.',
  shield: 'Shield: cannot be assassinated.',
  retaliate: 'Retaliate: cannot be assassinated, and a spy aimed at it is struck down before it acts.',
  orator: 'Orator: +1 vote for every 3 trade goods you hold.',
  none: 'No special ability.',
};

export const ROLE_TEXT = {
  spy: 'Acts against the representative of the player you name. Spies act one by one from the speaker clockwise; a spy removed before its turn does nothing.',
  bodyguard: 'Safe from spies; few votes.',
  councillor: 'The most votes, and the most exposed: a spy can kill it.',
  clerk: 'A plain clerk: 0 votes of its own, no ability, and a spy can kill it. Your planets still vote.',
};

// The representatives of a player ({race, representatives?}) as
// [{role, name, influence, ability, text}] for spy, bodyguard, councillor
// and clerk.
export function repsOf(player) {
  const given = player && player.representatives;
  const rows = given
    ? given.map((r) => [r.name, r.influence, r.ability])
    : RACES[player && player.race] || [['Spy', 0, 'none'], ['Bodyguard', 1, 'shield'], ['Councillor', 2, 'none']];
  const reps = rows.map(([name, influence, ability], i) => ({ role: ROLES[i], name, influence, ability, text: ABILITIES[ability] || ability }));
  reps.push({ role: 'clerk', name: 'Clerk', influence: 0, ability: 'none', text: ABILITIES.none });
  return reps;
}

// howto.js - the "How to play" text of rock-paper-scissors, written for the page
// (short; the full rules are docs/games/rps.md): a one-line aim, sections of
// plain sentences. The panel that shows it is web/howto.js.

export const HOWTO = {
  aim: 'Win more rounds than the other player.',
  sections: [
    {
      title: 'Playing',
      items: [
        'Each round both players choose rock, paper or scissors in secret; you may change your choice until both have chosen.',
        'Rock beats scissors, scissors beat paper, paper beats rock. The winner of a round scores 1; the same choice scores nothing.',
        'The lobby sets the number of rounds (3 unless the host chose otherwise).',
      ],
    },
  ],
};

// howto.js - the "How to play" text of Galactic Council, written for the page
// (short; the full rules are docs/games/council.md): a one-line aim, sections of
// plain sentences. The panel that shows it is web/howto.js.

export const HOWTO = {
  aim: 'Lead your race to the most victory points in the galaxy, one phase at a time.',
  sections: [
    {
      title: 'Playing',
      items: [
        'Every phase all players send sealed orders within a window; the server resolves them together and the next window opens.',
        'You see only what your fleets and planets see (fog of war): explore to reveal the map.',
        'Move fleets, claim planets, research and score objectives; the status phase at the end of a round scores and refreshes.',
        'Send your orders before the window closes; you may change them until then.',
      ],
    },
  ],
};

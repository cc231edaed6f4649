// howto.js - the "How to play" text of Skirmish, written for the page
// (short; the full rules are docs/games/skirmish.md): a one-line aim, sections of
// plain sentences. The panel that shows it is web/howto.js.

export const HOWTO = {
  aim: 'Destroy the other squad before it destroys yours.',
  sections: [
    {
      title: 'Before the fight',
      items: [
        'Muster: in secret, pick a squad of creatures within the budget.',
        'Deploy: in secret, place them on your own half of the field.',
      ],
    },
    {
      title: 'A turn',
      items: [
        'Players take turns. In your turn you move creatures and declare attacks and abilities, one at a time.',
        'After each declaration both players may answer with sudden abilities; everything waits on the stack and resolves last in, first out.',
        'Pass when you have nothing more to do; when both pass, the top of the stack resolves (or the phase ends).',
      ],
    },
  ],
};

// howto.js - the "How to play" text of Starbase, written for the page
// (short; the full rules are docs/games/starbase.md): a one-line aim, sections of
// plain sentences. The panel that shows it is web/howto.js.

export const HOWTO = {
  aim: 'Be the last starbase standing: a player loses when their starbase is destroyed or when they must draw from an empty market.',
  sections: [
    {
      title: 'A turn',
      items: [
        'Setup, draw, management, battle, end: the phases come in this order.',
        'Draw from your own market, then pay ISK (the money of the game) to build ships, locations and structures, and play news that change the game for a while.',
        'Claim outer regions with your ships and attack the regions of the others.',
        'Other players may answer in your turn when they hold priority; the page says when you may act.',
      ],
    },
  ],
};

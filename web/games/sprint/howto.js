// howto.js - the "How to play" text of Galactic Sprint, written for the page
// (short; the full rules are docs/games/sprint.md): a one-line aim, sections of
// plain sentences and a first-game guide. The panel that shows it is web/howto.js.

export const HOWTO = {
  aim: 'Build the richest empire of cards. The first empire with 50 VP chips ends the game; the most VP chips wins. Alone, you play 7 rounds and aim for 50.',
  sections: [
    {
      title: 'A round',
      items: [
        'Everyone chooses an action in secret: develop (place a development, it costs 1 less), settle (place a world, then draw a card), both (one of each, full price, no draw) or explore (draw cards, then keep some).',
        'Pay by discarding cards from your hand: a card costs the number on its badge. A military world is not paid for: you conquer it when your military is at least its defence.',
        'All orders are revealed together. You can change yours until everyone has submitted.',
        'Then every empire scores, and everyone draws their income. Over 10 cards in hand, you discard down to 10.',
      ],
    },
    {
      title: 'Scoring each round',
      items: [
        'Empire VP: the VP your empire is worth right now, that is the VP printed on its cards plus what the "VP per ..." and "+VP if ..." abilities give.',
        'At the end of every round each empire adds its empire VP to its VP chips. VP chips only grow: they are the score.',
        'VP/round is the empire VP you will score at the next round end if nothing changes. A card placed early scores again every round.',
      ],
    },
  ],
  guide: {
    title: 'Your first game',
    items: [
      'Round 1: place a cheap development with develop (its cost is 1 less), or settle a cheap world and draw a card back.',
      'Watch the VP/round number under your empire: raising it early pays every round.',
      'Short of cards? Explore: you draw several and keep the best two more than you had.',
      'Income cards make you draw more each round; military lets you take military worlds without paying.',
      'Before submitting, the order panel says what is missing. Click a card once to place it, then click other cards to pay with them.',
    ],
  },
};

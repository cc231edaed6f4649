// howto-text.js - the "How to play" text of every ruleset, written for the
// page (short; the full rules are in docs/games/). Each entry: a one-line
// aim, sections of plain sentences, and, for Galactic Sprint, a first-game
// guide. The panel that shows them is howto.js.

export const HOWTO = {
  sprint: {
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
  },
  tictactoe: {
    aim: 'Three of your marks in a row, a column or a diagonal wins.',
    sections: [
      {
        title: 'Playing',
        items: ['Two players take turns on a 3 by 3 grid; the first seat moves first.', 'On your turn, pick an empty cell.', 'Nine moves without a line is a draw.'],
      },
    ],
  },
  rps: {
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
  },
  skirmish: {
    aim: 'Destroy the other squad before it destroys yours.',
    sections: [
      {
        title: 'Before the fight',
        items: ['Muster: in secret, pick a squad of creatures within the budget.', 'Deploy: in secret, place them on your own half of the field.'],
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
  },
  starbase: {
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
  },
  council: {
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
  },
};

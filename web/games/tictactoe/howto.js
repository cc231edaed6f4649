// howto.js - the "How to play" text of tic-tac-toe, written for the page
// (short; the full rules are docs/games/tictactoe.md): a one-line aim, sections of
// plain sentences. The panel that shows it is web/howto.js.

export const HOWTO = {
  aim: 'Three of your marks in a row, a column or a diagonal wins.',
  sections: [
    {
      title: 'Playing',
      items: [
        'Two players take turns on a 3 by 3 grid; the first seat moves first.',
        'On your turn, pick an empty cell.',
        'Nine moves without a line is a draw.',
      ],
    },
  ],
};

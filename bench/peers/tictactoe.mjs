// tictactoe.mjs - tic-tac-toe for boardgame.io 0.50, as in its tutorial:
// nine cells, one move per turn, a win on a line of three, else a draw.
// boardgame.io ships CommonJS with folder entry points, so it is required.
import { createRequire } from 'node:module';

const { INVALID_MOVE } = createRequire(import.meta.url)('boardgame.io/core');

const LINES = [
  [0, 1, 2], [3, 4, 5], [6, 7, 8],
  [0, 3, 6], [1, 4, 7], [2, 5, 8],
  [0, 4, 8], [2, 4, 6],
];

const isVictory = (cells) =>
  LINES.some(([a, b, c]) => cells[a] !== null && cells[a] === cells[b] && cells[a] === cells[c]);
const isDraw = (cells) => cells.every((c) => c !== null);

export const TicTacToe = {
  name: 'tic-tac-toe',
  minPlayers: 2,
  maxPlayers: 2,
  setup: () => ({ cells: Array(9).fill(null) }),
  turn: { minMoves: 1, maxMoves: 1 },
  moves: {
    clickCell: ({ G, playerID }, id) => {
      if (!Number.isInteger(id) || id < 0 || id > 8 || G.cells[id] !== null) return INVALID_MOVE;
      G.cells[id] = playerID;
    },
  },
  endIf: ({ G, ctx }) => {
    if (isVictory(G.cells)) return { winner: ctx.currentPlayer };
    if (isDraw(G.cells)) return { draw: true };
  },
};

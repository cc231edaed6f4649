// index.js - Tic-tac-toe in the web client, as web/games/registry.js
// knows it: the table, its "How to play" text.

import { tictactoeRenderer } from './tictactoe.js';
import { HOWTO } from './howto.js';

export default {
  id: 'tictactoe',
  table: tictactoeRenderer,
  howto: HOWTO,
};

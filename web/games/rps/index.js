// index.js - Rock-paper-scissors in the web client, as web/games/registry.js
// knows it: the table, its "How to play" text.

import { rpsRenderer } from './rps.js';
import { HOWTO } from './howto.js';

export default {
  id: 'rps',
  table: rpsRenderer,
  howto: HOWTO,
};

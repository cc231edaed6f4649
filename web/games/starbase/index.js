// index.js - Starbase in the web client, as web/games/registry.js
// knows it: the table, its "How to play" text, its styles.

import { starbaseRenderer } from './starbase.js';
import { HOWTO } from './howto.js';

export default {
  id: 'starbase',
  table: starbaseRenderer,
  howto: HOWTO,
  styles: ['starbase.css'],
};

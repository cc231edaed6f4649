// index.js - Skirmish in the web client, as web/games/registry.js
// knows it: the table, its "How to play" text, its styles.

import { skirmishRenderer } from './skirmish.js';
import { HOWTO } from './howto.js';

export default {
  id: 'skirmish',
  table: skirmishRenderer,
  howto: HOWTO,
  styles: ['skirmish.css'],
};

// index.js - Galactic Council in the web client, as web/games/registry.js
// knows it: the table, its "How to play" text, its styles.

import { councilRenderer } from './council.js';
import { HOWTO } from './howto.js';

export default {
  id: 'council',
  table: councilRenderer,
  howto: HOWTO,
  styles: ['council.css'],
};

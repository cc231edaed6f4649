// index.js - Galactic Sprint in the web client, as web/games/registry.js
// knows it: the table, its "How to play" text and its legend of icons.

import { sprintRenderer } from './sprint.js';
import { HOWTO } from './howto.js';
import { sprintLegend } from './legend.js';

export default {
  id: 'sprint',
  table: sprintRenderer,
  howto: HOWTO,
  legend: sprintLegend,
};

// index.js - Last Stone (the example ruleset "pile") in the web client, as
// web/games/registry.js knows it: the table and its "How to play" text.
// Copied into a scratch tree by tests/integration/plugin_path.test.mjs.

import { pileRenderer } from './pile.js';

export default {
  id: 'pile',
  table: pileRenderer,
  howto: {
    aim: 'Take the last stone.',
    sections: [
      {
        title: 'Playing',
        items: [
          'Players take turns, the first seat first.',
          'On your turn, take one, two or three stones.',
        ],
      },
    ],
  },
};

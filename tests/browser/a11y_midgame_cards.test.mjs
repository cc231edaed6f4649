// a11y_midgame_cards.test.mjs - the card and map tables of Skirmish and
// Starbase mid-game pass axe-core at desktop and phone sizes in both themes,
// with no sideways scroll and nothing under the Talk button
// (lib/a11y_tables.mjs; the other tables are a11y_midgame.test.mjs, and
// Galactic Council's a11y_midgame_council.test.mjs: files that each stay
// near a minute and run side by side).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chromiumPath, startStack, stopStack } from './lib/browser.mjs';
import { checkTables } from './lib/a11y_tables.mjs';

const skip = chromiumPath() ? false : 'no Chromium installed';
let db, server, chrome;

before(async () => {
  if (!skip) ({ db, server, chrome } = await startStack('a11yc'));
});
after(() => stopStack({ db, server, chrome }));

const TABLES = [
  ['skirmish', ['basic']],
  ['starbase', ['basic']],
];

test(
  'the Skirmish and Starbase tables mid-game pass axe-core in the light and the dark theme, at desktop and phone sizes',
  { skip, timeout: 600000 },
  async () => {
    const found = await checkTables(server, chrome, TABLES, 38);
    assert.deepEqual(found, [], `axe-core finds:\n${found.join('\n')}`);
  },
);

// a11y_midgame_council.test.mjs - the Galactic Council table (its map and
// cards) mid-game passes axe-core at desktop and phone sizes in both themes,
// with no sideways scroll and nothing under the Talk button
// (lib/a11y_tables.mjs; the other tables are a11y_midgame.test.mjs and
// a11y_midgame_cards.test.mjs: files that each stay near a minute and run
// side by side).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chromiumPath, startStack, stopStack } from './lib/browser.mjs';
import { checkTables } from './lib/a11y_tables.mjs';

const skip = chromiumPath() ? false : 'no Chromium installed';
let db, server, chrome;

before(async () => {
  if (!skip) ({ db, server, chrome } = await startStack('a11yg'));
});
after(() => stopStack({ db, server, chrome }));

const TABLES = [['council', ['basic', 'basic']]];

test(
  'the Galactic Council table mid-game passes axe-core in the light and the dark theme, at desktop and phone sizes',
  { skip, timeout: 600000 },
  async () => {
    const found = await checkTables(server, chrome, TABLES, 39);
    assert.deepEqual(found, [], `axe-core finds:\n${found.join('\n')}`);
  },
);

// plugin_path.test.mjs - a ruleset is a plug-in. In a scratch copy of the
// tree, the example ruleset of tests/plugin/pile/ ("Last Stone") is added
// through the path docs/ruleset-authoring.md walks, and nothing else: its
// folders (engine/rules/pile/, web/games/pile/, tests/unit/pile/, the
// canary's tests/integration/canary/pile.mjs) and two registry lines
// (engine/rulesets.def, web/games/registry.js). Then the copy must
// build, pass the ruleset's unit test and a self-play check, offer the game
// over REST and play it to its end from /legal, serve and draw its table in
// Chromium, and pass the canary with the new ruleset's games.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, BIN, createDatabase, dropDatabase, startServer, http } from './lib/server.mjs';
import {
  chromiumPath,
  launch,
  openPage,
  signUpGuest,
  createLobby,
  addBotAndStart,
  shot,
} from '../browser/lib/browser.mjs';

const FIXTURE = path.join(ROOT, 'tests/plugin/pile');
// What a build and the tests of the copy read; build output, node_modules,
// the private database and test output stay behind.
const COPY = [
  'Makefile',
  'engine',
  'server',
  'api',
  'common',
  'sql',
  'web',
  'tests/unit',
  'tests/rules',
  'tests/fuzz/fuzz.mk',
  'tests/integration',
  'tests/browser/lib',
];

// The copy keeps the files' times, and starts from the objects (and their
// dependency files) of the tree's own build, the one make test has just made:
// make then compiles only what the plug-in path changes (the new ruleset's
// files, and engine/registry.c, which includes engine/rulesets.def) and
// whatever is newer in the tree than its object; it links everything anew.
// A sanitized build (make asan) is not reused: its objects need its flags to
// link. Returns how many objects were taken over.
function reuseObjects(dir) {
  const build = path.dirname(BIN);
  const obj = path.join(build, 'obj');
  if (!fs.existsSync(obj) || !fs.existsSync(BIN)) return 0;
  const bin = fs.readFileSync(BIN);
  if (bin.includes('__asan_init') || bin.includes('__ubsan_handle_')) return 0;
  fs.cpSync(obj, path.join(dir, 'build/obj'), { recursive: true, preserveTimestamps: true });
  return fs
    .readdirSync(path.join(dir, 'build/obj'), { recursive: true })
    .filter((f) => f.endsWith('.o')).length;
}

function scratchTree() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'conclave-plugin-'));
  for (const p of COPY)
    fs.cpSync(path.join(ROOT, p), path.join(dir, p), { recursive: true, preserveTimestamps: true });
  fs.symlinkSync(path.join(ROOT, 'tests/node_modules'), path.join(dir, 'tests/node_modules'));
  return dir;
}

// The plug-in path: the folders, then one line in each registry.
function addRuleset(dir) {
  fs.cpSync(FIXTURE, dir, { recursive: true });
  fs.appendFileSync(path.join(dir, 'engine/rulesets.def'), 'RULESET(pile)\n');
  const reg = path.join(dir, 'web/games/registry.js');
  const text = fs.readFileSync(reg, 'utf8');
  const added = text.replace(/^(const IDS = \[.*)\];$/m, "$1, 'pile'];");
  assert.notEqual(added, text, 'web/games/registry.js has its list of games on one line');
  fs.writeFileSync(reg, added);
}

function run(cmd, args, opts) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20, ...opts });
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

test(
  'an example ruleset added through the plug-in path alone builds, plays over REST and in the page, and passes the canary',
  { timeout: 600000 },
  async (t) => {
    const dir = scratchTree();
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const reused = reuseObjects(dir);
    addRuleset(dir);
    // Only the ruleset's own files and the two registry lines differ from the tree.
    const differs = [];
    for (const rel of ['engine/rulesets.def', 'web/games/registry.js']) {
      const a = fs.readFileSync(path.join(ROOT, rel), 'utf8').split('\n');
      const b = fs.readFileSync(path.join(dir, rel), 'utf8').split('\n');
      const added = b.filter((l) => !a.includes(l)).length;
      const removed = a.filter((l) => !b.includes(l)).length;
      differs.push(Math.max(added, removed));
    }
    assert.deepEqual(differs, [1, 1], 'one line changed in each registry');

    // Build it: the server and the ruleset's unit test (what it compiles at
    // O1: quicker than the usual O2), with none of the outer make's settings
    // (make test runs this).
    const makeEnv = { ...process.env };
    for (const k of [
      'BUILD',
      'MAKEFLAGS',
      'MFLAGS',
      'MAKELEVEL',
      'OPT',
      'SAN',
      'CFLAGS',
      'LDFLAGS',
    ])
      delete makeEnv[k];
    const made = run(
      'make',
      ['-j2', 'BUILD=build', 'OPT=-O1', 'build/conclave', 'build/tests/test_pile'],
      { cwd: dir, env: makeEnv },
    );
    // The new ruleset's code was compiled and is in the server it linked.
    assert.match(made, /-c engine\/rules\/pile\/pile\.c /);
    assert.match(made, /-c engine\/registry\.c /);
    assert.match(made, /-o build\/conclave /);
    const compiled = (made.match(/ -c \S+\.[cS] /g) || []).length;
    t.diagnostic(`make compiled ${compiled} files; ${reused} objects came from the tree's build`);
    const unit = spawnSync(path.join(dir, 'build/tests/test_pile'), [], {
      cwd: dir,
      encoding: 'utf8',
    });
    assert.equal(unit.status, 0, unit.stderr);
    assert.match(
      unit.stdout + unit.stderr,
      /RESULT tests\/unit\/pile\/test_pile\.c: 2 passed, 0 failed/,
    );
    const selfplay = JSON.parse(
      run(
        path.join(dir, 'build/conclave'),
        [
          'selfplay',
          '--ruleset',
          'pile',
          '--seats',
          '3',
          '--games',
          '200',
          '--seed',
          '01',
          '--check',
        ],
        { cwd: dir },
      ),
    );
    assert.equal(selfplay.games, 200, JSON.stringify(selfplay));

    const db = createDatabase('plugin');
    const bin = path.join(dir, 'build/conclave');
    const server = await startServer({ db, bin, cwd: dir });
    let chrome = null;
    try {
      // REST: offered, set up, played to its end from /legal.
      const rulesets = await http(server.url, 'GET', '/api/v1/rulesets');
      const pile = rulesets.body.find((r) => r.id === 'pile');
      assert.ok(pile, 'GET /api/v1/rulesets offers the new ruleset');
      assert.equal(pile.title, 'Last Stone');
      assert.equal(pile.options.properties.stones.maximum, 40);
      const me = (
        await http(server.url, 'POST', '/api/v1/players', {
          body: { name: `plug${process.pid % 10000}` },
        })
      ).body;
      const lobby = await http(server.url, 'POST', '/api/v1/lobbies', {
        token: me.token,
        body: { ruleset: 'pile', seats: 2, options: { stones: 7 } },
      });
      assert.equal(lobby.status, 201, lobby.text);
      assert.equal(
        (
          await http(server.url, 'POST', `/api/v1/lobbies/${lobby.body.id}/bots`, {
            token: me.token,
            body: { level: 'random' },
          })
        ).status,
        200,
      );
      const start = await http(server.url, 'POST', `/api/v1/lobbies/${lobby.body.id}/start`, {
        token: me.token,
      });
      assert.equal(start.status, 201, start.text);
      const id = start.body.game;
      let plays = 0;
      for (let i = 0; i < 100; i++) {
        const g = await http(server.url, 'GET', `/api/v1/games/${id}`, { token: me.token });
        if (g.body.status !== 'running') break;
        const legal = await http(server.url, 'GET', `/api/v1/games/${id}/legal`, {
          token: me.token,
        });
        const w = legal.body.windows[0];
        if (!w) {
          await new Promise((r) => setTimeout(r, 20));
          continue;
        }
        const r = await http(server.url, 'POST', `/api/v1/games/${id}/plays`, {
          token: me.token,
          body: { window: w.window, ...w.choices[0] },
        });
        assert.equal(r.status, 200, r.text);
        plays++;
      }
      const end = await http(server.url, 'GET', `/api/v1/games/${id}`, { token: me.token });
      assert.equal(end.body.status, 'finished', end.text);
      assert.equal(end.body.view.left, 0);
      assert.ok(plays >= 1);

      // The page: the table module is served and drawn from the registry.
      const mod = await http(server.url, 'GET', '/games/pile/index.js');
      assert.equal(mod.status, 200);
      if (chromiumPath()) {
        chrome = await launch();
        const { page } = await openPage(chrome.browser);
        await signUpGuest(page, server, `plg${process.pid % 10000}`);
        await createLobby(page, { game: 'Last Stone', seats: 2 });
        await addBotAndStart(page, 'random', ['Random']);
        await page.getByTestId('pile-left').waitFor();
        for (let i = 0; i < 40; i++) {
          const status = await page.getByTestId('pile-status').textContent();
          if (/last stone/.test(status)) break;
          const take = page.locator('button.pile-take:not([disabled])').first();
          // The bot may take the last stone between the look and the click.
          if (await take.count()) await take.click({ timeout: 2000 }).catch(() => {});
          else await page.waitForTimeout(100);
        }
        assert.match(await page.getByTestId('pile-status').textContent(), /last stone/);
        await shot(page, 'plugin-pile-finished');
        assert.deepEqual(page.problems, []);
      } else {
        t.diagnostic('no Chromium: the page step is skipped');
      }
    } finally {
      if (chrome) await chrome.close();
      await server.stop();
      dropDatabase(db);
    }

    // The canary, in the copy, on the new ruleset's games alone.
    // (NODE_TEST_CONTEXT would make the inner runner report to this one.)
    const env = { ...process.env, CONCLAVE_BIN: bin, CANARY_RULESETS: 'pile' };
    delete env.NODE_TEST_CONTEXT;
    const canary = spawnSync(
      process.execPath,
      [
        '--test',
        '--test-reporter=tap',
        '--test-name-pattern=no hidden fact',
        'tests/integration/canary.test.mjs',
      ],
      {
        cwd: dir,
        encoding: 'utf8',
        maxBuffer: 64 << 20,
        env,
      },
    );
    assert.equal(canary.status, 0, canary.stdout.slice(-4000) + canary.stderr.slice(-2000));
    assert.match(
      canary.stdout,
      /# canary: 2 games \((P1 P2|P2 P1)\) played/,
      "the canary played the new ruleset's two games",
    );
    assert.match(canary.stdout, /# canary: leaks 0/);
    assert.match(canary.stdout, /# pass 1/);
  },
);

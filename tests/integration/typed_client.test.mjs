// typed_client.test.mjs - api/openapi.yaml makes a usable typed client: the
// openapi-typescript CLI generates TypeScript types from it (with
// --default-non-nullable false, as docs/api.md tells client authors), the
// client of typed_client/play.ts (openapi-fetch's createClient<paths>) must
// pass `tsc --noEmit --strict` against them, and compiled to JavaScript it
// plays rock-paper-scissors (sealed orders, typed options) and tic-tac-toe
// (open plays) to their ends on a real server, choosing its moves from GET
// /legal, and reads each typed GameResult. A spec that types options,
// answers or results as closed or empty objects fails the type check.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { ROOT, createDatabase, dropDatabase, startServer, http } from './lib/server.mjs';
import { NO_LIMITS, SPEC_PATH } from './lib/api.mjs';

const run = promisify(execFile);
const TESTS = path.join(ROOT, 'tests');
const BIN = path.join(TESTS, 'node_modules', '.bin');
const SOURCE = path.join(TESTS, 'integration', 'typed_client', 'play.ts');
let db, srv, dir;

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'conclave-typed-'));
  // The client's folder: its source, the generated types, and the test
  // packages (openapi-fetch, and openapi-typescript's own types) beside it.
  fs.symlinkSync(path.join(TESTS, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  fs.copyFileSync(SOURCE, path.join(dir, 'play.ts'));
  fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
  fs.writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        target: 'es2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        lib: ['es2022', 'dom'],
        noUnusedLocals: true,
        types: [],
      },
      files: ['play.ts'],
    }),
  );
  db = createDatabase('typed');
  srv = await startServer({ db, env: NO_LIMITS });
});

after(async () => {
  await srv?.stop();
  if (db) dropDatabase(db);
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test(
  'openapi-typescript generates the types of api/openapi.yaml',
  { timeout: 120000 },
  async () => {
    const out = path.join(dir, 'schema.d.ts');
    await run(
      path.join(BIN, 'openapi-typescript'),
      [SPEC_PATH, '--default-non-nullable', 'false', '-o', out],
      { cwd: dir, timeout: 110000 },
    );
    const types = fs.readFileSync(out, 'utf8');
    for (const name of ['GameResult', 'GameOutcome', 'GameAborted', 'OptionsRps', 'GameOptions'])
      assert.match(types, new RegExp(`\\b${name}: `), `schema ${name} in the generated types`);
  },
);

test('the typed client passes tsc --noEmit --strict', { timeout: 180000 }, async () => {
  try {
    await run(path.join(BIN, 'tsc'), ['--noEmit', '--strict', '-p', dir], {
      cwd: dir,
      timeout: 170000,
    });
  } catch (e) {
    assert.fail(`tsc found type errors:\n${e.stdout}${e.stderr}`);
  }
});

test(
  'the compiled client plays games to their ends and reads typed results',
  { timeout: 120000 },
  async () => {
    // The same compiler, without the type check just passed: TypeScript to JavaScript.
    const source = fs.readFileSync(path.join(dir, 'play.ts'), 'utf8');
    const js = ts.transpileModule(source, {
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
      fileName: 'play.ts',
    }).outputText;
    fs.writeFileSync(path.join(dir, 'play.js'), js);
    const prefix = `tc${process.pid % 100000}`;
    let stdout;
    try {
      ({ stdout } = await run(process.execPath, ['play.js', srv.url, prefix], {
        cwd: dir,
        timeout: 110000,
      }));
    } catch (e) {
      assert.fail(`the client failed (${e.code}):\n${e.stdout}${e.stderr}`);
    }
    const report = JSON.parse(stdout.trim().split('\n').pop());
    assert.deepEqual(
      report.games.map((g) => g.ruleset),
      ['rps', 'tictactoe'],
    );
    for (const g of report.games) {
      assert.equal(g.status, 'finished', `${g.ruleset}: ${JSON.stringify(g)}`);
      assert.equal(g.view_over, true, g.ruleset);
      // What the client read through its types is what the server has.
      const doc = await http(srv.url, 'GET', `/api/v1/games/${g.game}`);
      assert.equal(doc.status, 200, doc.text);
      assert.equal(doc.body.status, 'finished');
      assert.deepEqual(g.result.winners, doc.body.result.winners, g.ruleset);
      assert.equal(g.result.draw, doc.body.result.draw, g.ruleset);
      assert.deepEqual(g.export_result, doc.body.result, `${g.ruleset}: the export's result`);
      assert.equal(typeof g.result.draw, 'boolean', `${g.ruleset} says whether it was a draw`);
      assert.equal(g.result.winners.length, g.result.draw ? 0 : 1, `${g.ruleset} winners`);
    }
    const [rps, ttt] = report.games;
    // Two rounds of rock-paper-scissors: one order per seat and round.
    assert.equal(rps.lobby_options.rounds, 2, 'the typed options reached the game');
    assert.equal(rps.moves, 4, 'one order per seat and round');
    assert.equal(doc0Inputs(await http(srv.url, 'GET', `/api/v1/games/${rps.game}`)), 4);
    // Tic-tac-toe: 5 to 9 plays, each a choice of GET /legal.
    assert.ok(ttt.moves >= 5 && ttt.moves <= 9, `tic-tac-toe took ${ttt.moves} plays`);
    assert.deepEqual(ttt.lobby_options, {});
    // The view's own member, read through the open View type, names the same winner.
    for (const g of report.games)
      assert.equal(g.view_winner, g.result.draw ? null : g.result.winners[0], g.ruleset);
    // The Galactic Council lobby kept the typed options given (and their defaults).
    assert.equal(report.council.options.vp_target, 8);
    assert.equal(report.council.options.secret_votes, true);
    assert.equal(report.council.status, 'closed', 'its host left');
  },
);

// The inputs a game's public view counts.
function doc0Inputs(r) {
  assert.equal(r.status, 200, r.text);
  return r.body.view.inputs;
}

// table_owners.test.mjs - docs/architecture.md's "Who owns which table" is
// the code's own: for every table the migrations create, the C files of
// server/, api/ and common/ that write it (INSERT INTO, UPDATE, DELETE FROM,
// ON CONFLICT's upserts included) are exactly the owner and the other
// writers the table names, and no table is missing. Reads are free: any
// module may read what another owns. No server or database is needed: the
// sources are scanned as text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = process.env.CONCLAVE_ROOT || new URL('../..', import.meta.url).pathname;
const DOC = join(ROOT, 'docs/architecture.md');

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name.endsWith('.c')) out.push(p);
  }
  return out;
}

// Tables created by the migrations, in order of first creation.
function schemaTables() {
  const dir = join(ROOT, 'sql');
  const tables = new Set();
  for (const f of readdirSync(dir)
    .filter((n) => n.endsWith('.sql'))
    .sort()) {
    const sql = readFileSync(join(dir, f), 'utf8');
    for (const m of sql.matchAll(/CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?([a-z_]+)/gi))
      tables.add(m[1].toLowerCase());
  }
  return tables;
}

// table -> Set of files (from the checkout's root) that write it.
function writersInCode(tables) {
  const writers = new Map([...tables].map((t) => [t, new Set()]));
  const files = ['server', 'api', 'common'].flatMap((d) => walk(join(ROOT, d)));
  for (const file of files) {
    const src = readFileSync(file, 'utf8');
    for (const m of src.matchAll(/\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+([a-z_]+)\b/gi)) {
      const t = m[1].toLowerCase();
      if (writers.has(t)) writers.get(t).add(relative(ROOT, file));
    }
  }
  return writers;
}

// table -> {owner, others} from the doc's table (rows "| `t`, `u` | `owner` |
// `a`, `b` | notes |").
function writersInDoc() {
  const doc = readFileSync(DOC, 'utf8');
  const start = doc.indexOf('### Who owns which table');
  assert.ok(start >= 0, 'docs/architecture.md has a "Who owns which table" section');
  const section = doc.slice(start, doc.indexOf('\n#', start + 10));
  const rows = new Map();
  const names = (cell) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 5 || !cells[1].startsWith('`')) continue;
    const owner = names(cells[2]);
    const others = names(cells[3]);
    for (const t of names(cells[1])) rows.set(t, { owner, others });
  }
  return rows;
}

test('every table has one owner and the doc names exactly the files that write it', () => {
  const tables = schemaTables();
  assert.ok(tables.size >= 20, `the migrations create the tables (found ${tables.size})`);
  const code = writersInCode(tables);
  const doc = writersInDoc();
  const problems = [];
  for (const t of tables) {
    const row = doc.get(t);
    if (!row) {
      problems.push(
        `${t}: not in the table (written by ${[...code.get(t)].join(', ') || 'nothing in C'})`,
      );
      continue;
    }
    if (row.owner.length !== 1) problems.push(`${t}: ${row.owner.length} owners named, want one`);
    const named = new Set([...row.owner, ...row.others]);
    const actual = code.get(t);
    for (const f of actual)
      if (!named.has(f)) problems.push(`${t}: written by ${f}, which the doc does not name`);
    for (const f of named)
      if (!actual.has(f)) problems.push(`${t}: the doc names ${f}, which does not write it`);
  }
  for (const t of doc.keys())
    if (!tables.has(t)) problems.push(`${t}: in the doc, but no migration creates it`);
  assert.deepEqual(problems, [], problems.join('\n'));
});

test('the scan finds the writes it must (it does not pass by seeing nothing)', () => {
  const code = writersInCode(new Set(['game_inputs', 'tokens', 'chat_messages']));
  assert.ok(code.get('game_inputs').has('server/store/store.c'));
  assert.ok(code.get('tokens').has('server/players/tokens.c'));
  assert.ok(code.get('chat_messages').has('server/game/chat.c'));
});
